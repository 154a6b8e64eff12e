"""Logging filters of the project."""

import logging
import re

# `key=<anything up to a separator>` in a query string or form body: a match's scoring key.
_KEY_PARAMETER = re.compile(r"(?<![A-Za-z0-9_-])(key=)[^&\s\"']*")


def redact(text: str) -> str:
    return _KEY_PARAMETER.sub(r"\1[redacted]", text)


class RedactScoringKeys(logging.Filter):
    """Replaces the value of every `key=` parameter in a record (the development server logs
    each request line, and a table's private link carries its scoring key) with
    `[redacted]`, so no log ever holds a key."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "key=" in record.msg:
            record.msg = redact(record.msg)
        if record.args:
            if isinstance(record.args, dict):
                record.args = {k: _clean(v) for k, v in record.args.items()}
            else:
                record.args = tuple(_clean(arg) for arg in record.args)
        return True


def _clean(value: object) -> object:
    return redact(value) if isinstance(value, str) and "key=" in value else value
