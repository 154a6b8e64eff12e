"""Logging filters of the project."""

import logging
import re

# The secrets a request line can carry, each kept up to its separator and its value replaced:
# - `key=` in a query string or form body: a match's scoring key (its private link);
# - `/t/<match>/<code>`: a table's short link from the round sheet (the code opens scoring);
# - `/sign-up/<key>/`: a player's own link to their registration (check in, withdraw).
# deploy/nginx/yardleague.conf redacts the same paths in nginx's access log.
_SECRETS = (
    re.compile(r"(?<![A-Za-z0-9_-])(key=)[^&\s\"']*"),
    re.compile(r"(?<![A-Za-z0-9_-])(/t/[0-9]+/)[^/?\s\"']+"),
    re.compile(r"(?<![A-Za-z0-9_-])(/sign-up/)[^/?\s\"']+"),
)
_MARKERS = ("key=", "/t/", "/sign-up/")


def redact(text: str) -> str:
    """The text with every secret's value replaced by `[redacted]`."""
    for secret in _SECRETS:
        text = secret.sub(r"\1[redacted]", text)
    return text


def _may_hold_a_secret(text: str) -> bool:
    return any(marker in text for marker in _MARKERS)


class RedactScoringKeys(logging.Filter):
    """Replaces the secret in every scoring key, short link and sign-up link of a record (the
    development server and gunicorn log each request's path, Django names the path of a failed
    request) with `[redacted]`, so no log ever holds one."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and _may_hold_a_secret(record.msg):
            record.msg = redact(record.msg)
        if record.args:
            if isinstance(record.args, dict):
                record.args = {k: _clean(v) for k, v in record.args.items()}
            else:
                record.args = tuple(_clean(arg) for arg in record.args)
        return True


def _clean(value: object) -> object:
    return redact(value) if isinstance(value, str) and _may_hold_a_secret(value) else value
