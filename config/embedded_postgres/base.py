"""Django's PostgreSQL backend, with the embedded server started (or found running) before the
first connection: the settings name its data directory, the socket's directory comes from the
running server (config/embedded_postgres/__init__.py)."""

from pathlib import Path
from typing import Any

from django.db.backends.postgresql import base

from config import embedded_postgres


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self) -> dict[str, Any]:
        data = Path(self.settings_dict["EMBEDDED_POSTGRES_DIR"])
        self.settings_dict["HOST"] = str(embedded_postgres.ensure_running(data))
        return super().get_connection_params()
