"""Logging filters of the project."""

import logging
import re

# The secrets a request line can carry, each kept up to its separator and its value replaced:
# - `key=` in a query string or form body: a match's scoring key (its private link);
# - `/t/<match>/<code>`: a table's short link from the round sheet (the code opens scoring);
# - `/sign-up/<key>/`: a player's own link to their registration (check in, withdraw);
# - `/invitations/<token>/`: an organizer's invitation (whoever opens it organizes a league).
# deploy/nginx/yardleague.conf redacts the same paths in nginx's access log.
_SECRETS = (
    re.compile(r"(?<![A-Za-z0-9_-])(key=)[^&\s\"']*"),
    re.compile(r"(?<![A-Za-z0-9_-])(/t/[0-9]+/)[^/?\s\"']+"),
    re.compile(r"(?<![A-Za-z0-9_-])(/sign-up/)[^/?\s\"']+"),
    re.compile(r"(?<![A-Za-z0-9_-])(/invitations/)[^/?\s\"']+"),
)
_MARKERS = ("key=", "/t/", "/sign-up/", "/invitations/")


def redact(text: str) -> str:
    """The text with every secret's value replaced by `[redacted]`."""
    for secret in _SECRETS:
        text = secret.sub(r"\1[redacted]", text)
    return text


def _may_hold_a_secret(text: str) -> bool:
    return any(marker in text for marker in _MARKERS)


class RedactScoringKeys(logging.Filter):
    """Replaces the secret in every scoring key, short link, sign-up link and invitation link of
    a record (the development server and gunicorn log each request's path, Django names the
    path of a failed request) with `[redacted]`, so no log ever holds one."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and _may_hold_a_secret(record.msg):
            record.msg = redact(record.msg)
        if record.args:
            if isinstance(record.args, dict):
                # in place: gunicorn's atoms are a dict of its own that answers '-' for a
                # header the request did not send, which a plain dict would not
                for name, value in record.args.items():
                    record.args[name] = _clean(value)
            else:
                record.args = tuple(_clean(arg) for arg in record.args)
        return True


def _clean(value: object) -> object:
    return redact(value) if isinstance(value, str) and _may_hold_a_secret(value) else value


# The loggers a server or Django writes a request's path, query string or Referer to.
REQUEST_LOGGERS = (
    "gunicorn.access",  # the request line, path, query string and Referer of every request
    "gunicorn.error",  # "Error handling request <uri>"
    "uvicorn.access",
    "uvicorn.error",
    "django.request",  # "Not Found: <path>" and every failed request
    "django.server",  # runserver's request lines
    "django.security.csrf",  # "Forbidden (CSRF ...): <path>"
)


def guard_request_logs() -> None:
    """Put the redacting filter on every logger a request's address reaches, whatever the
    server's own configuration says. Called by `config.wsgi` and `config.asgi` as they load
    the app, so gunicorn started without config/gunicorn.conf.py (or with its own
    `--access-logformat` naming the query string or the Referer) and a LOGGING that leaves
    out the project's handlers still never write a secret (issue 37, item 8)."""
    for name in REQUEST_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactScoringKeys) for f in logger.filters):
            logger.addFilter(RedactScoringKeys())
