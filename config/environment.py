"""The environment, read for the settings (django-environ): a variable that is set but cannot be
used stops the process at start with `ImproperlyConfigured` naming it and what it should look
like, never later (a 500 on every turn, a job that can never be sent) and never as an error of
some library that names no variable. `manage.py` prints that one line, without a traceback.

What it adds to `environ.Env`: booleans are `true`/`false` (`1`/`0`, `yes`/`no`, `on`/`off`)
and nothing else, so a typo in `SECURE_SSL_REDIRECT` is an error, not `false`; a number that is
not one names its variable; the database, cache, mail and broker URLs must have a scheme the
project can use and a port that is a number; a throttle rate is `N/period`; a log level, log
format and time zone must exist. URLs are never repeated in a message (they hold passwords)."""

import warnings
import zoneinfo
from typing import Any
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured
from kombu.transport import TRANSPORT_ALIASES

TRUE = ("true", "1", "yes", "on", "y", "ok")
FALSE = ("false", "0", "no", "off", "n", "")
# DRF's rate periods (SimpleRateThrottle.parse_rate reads the first letter).
RATE_PERIODS = ("s", "sec", "second", "m", "min", "minute", "h", "hour", "d", "day")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
EXAMPLES = {
    "database": "postgres://user:password@host:5432/name",
    "cache": "redis://host:6379/1",
    "mail": "smtp+tls://user:password@mail.example.org:587",
    "broker": "redis://host:6379/0",
}


def _kind(cast: Any) -> str:
    if isinstance(cast, list) and cast[0] is float:
        return "a comma-separated list of numbers"
    if cast is bool:
        return "true or false"
    if cast is int:
        return "a whole number"
    if cast is float:
        return "a number"
    return "valid"


class Environment(environ.Env):
    def get_value(
        self,
        var: str,
        cast: Any = None,
        default: Any = environ.Env.NOTSET,
        parse_default: bool = False,
    ) -> Any:
        try:
            return super().get_value(var, cast=cast, default=default, parse_default=parse_default)
        except (ValueError, TypeError) as error:
            raise ImproperlyConfigured(
                f"{var}={self.ENVIRON.get(var, '')!r} is not {_kind(cast)}"
            ) from error

    @classmethod
    def parse_value(cls, value: Any, cast: Any) -> Any:
        if cast is bool and isinstance(value, str) and value.strip().lower() not in TRUE + FALSE:
            raise ValueError(value)
        return super().parse_value(value, cast)

    def _url(self, what: str, var: str, read: Any) -> dict[str, Any]:
        raw = str(self.ENVIRON.get(var, ""))
        try:
            with warnings.catch_warnings():
                # "Engine not recognized": the missing ENGINE below says it with the name.
                warnings.simplefilter("ignore")
                config: dict[str, Any] = read()
            # Reading the port of a URL like host:port/ raises only when asked.
            urlsplit(raw).port  # noqa: B018
        except (ValueError, KeyError, ImproperlyConfigured) as error:
            raise _bad_url(what, var, raw, error) from error
        if what == "database" and not config.get("ENGINE"):
            raise _bad_url(what, var, raw, None)
        return config

    def db_url(
        self, var: str = "DATABASE_URL", default: Any = environ.Env.NOTSET, engine: Any = None
    ) -> dict[str, Any]:
        return self._url(
            "database", var, lambda: super(Environment, self).db_url(var, default, engine)
        )

    def cache_url(
        self, var: str = "CACHE_URL", default: Any = environ.Env.NOTSET, backend: Any = None
    ) -> dict[str, Any]:
        return self._url(
            "cache", var, lambda: super(Environment, self).cache_url(var, default, backend)
        )

    def email_url(
        self, var: str = "EMAIL_URL", default: Any = environ.Env.NOTSET, backend: Any = None
    ) -> dict[str, Any]:
        return self._url(
            "mail", var, lambda: super(Environment, self).email_url(var, default, backend)
        )

    def postgres_db(self, var: str = "DATABASE_URL") -> dict[str, Any]:
        """`db_url`, refusing any database but PostgreSQL (the project runs on PostgreSQL only:
        docs/architecture.md)."""
        config = self.db_url(var)
        if config["ENGINE"] != "django.db.backends.postgresql":
            raw = self.str(var)
            scheme = urlsplit(raw).scheme
            raise ImproperlyConfigured(
                f"{var} names a {scheme} database; this project runs on PostgreSQL only: "
                f"expected e.g. {EXAMPLES['database']} (or leave it unset for the embedded "
                "PostgreSQL under var/)"
            )
        return config

    db = db_url
    cache = cache_url
    email = email_url

    def broker_url(self, var: str, default: str = "") -> str:
        """A Celery broker URL, or "" for none: its scheme must name a kombu transport
        (`redis`, `rediss`, `amqp`, ... or `sqla+postgresql`), its port be a number."""
        url: str = self.str(var, default=default)
        if not url:
            return url
        parts = urlsplit(url)
        try:
            parts.port  # noqa: B018
        except ValueError as error:
            raise _bad_url("broker", var, url, error) from error
        if "://" not in url or parts.scheme.split("+")[0] not in TRANSPORT_ALIASES:
            raise _bad_url("broker", var, url, None)
        return url

    def rate(self, var: str, default: str) -> str:
        """A throttle rate as DRF reads it: `N/period`, N a whole number, period s, m, h or d."""
        rate: str = self.str(var, default=default)
        number, _, period = rate.partition("/")
        if not number.strip().isdigit() or period.strip().lower() not in RATE_PERIODS:
            raise ImproperlyConfigured(
                f"{var}={rate!r} is not a rate: a whole number of requests per second, minute, "
                "hour or day, e.g. 120/min"
            )
        return rate

    def choice(self, var: str, default: str, choices: tuple[str, ...]) -> str:
        value: str = self.str(var, default=default)
        if value not in choices:
            raise ImproperlyConfigured(f"{var}={value!r} is none of {', '.join(choices)}")
        return value

    def log_level(self, var: str, default: str) -> str:
        value: str = self.str(var, default=default).upper()
        if value not in LOG_LEVELS:
            raise ImproperlyConfigured(f"{var}={value!r} is none of {', '.join(LOG_LEVELS)}")
        return value

    def time_zone(self, var: str, default: str) -> str:
        value: str = self.str(var, default=default)
        try:
            zoneinfo.ZoneInfo(value)
        except (ValueError, zoneinfo.ZoneInfoNotFoundError) as error:
            raise ImproperlyConfigured(
                f"{var}={value!r} is not a time zone: a name of the tz database, e.g. UTC or "
                "Europe/London"
            ) from error
        return value


def _bad_url(what: str, var: str, raw: str, error: BaseException | None) -> ImproperlyConfigured:
    scheme = urlsplit(raw).scheme if "://" in raw else ""
    reason = f"scheme {scheme!r} unknown" if scheme else "no scheme://"
    if isinstance(error, ValueError) and "Port" in str(error):
        reason = "its port is not a number"
    return ImproperlyConfigured(
        f"{var} is not a {what} URL this project can use ({reason}): expected e.g. {EXAMPLES[what]}"
    )
