#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        settings.INSTALLED_APPS  # noqa: B018 - reads the environment (config/environment.py)
    except ImproperlyConfigured as error:
        # A variable missing or unusable: the operator needs its name, not a traceback.
        sys.exit(f"Configuration error ({os.environ['DJANGO_SETTINGS_MODULE']}): {error}")
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
