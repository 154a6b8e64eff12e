"""OpenAPI descriptions drf-spectacular cannot infer: the scoring-key authentication."""

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ScoreKeyScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    target_class = "api.permissions.ScoreKeyAuthentication"
    name = "scoreKey"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "apiKey", "in": "header", "name": "X-Score-Key"}
