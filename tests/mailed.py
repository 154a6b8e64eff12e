"""The sign-up links the tests read from the mail the service sent (Django's test outbox)."""

import re

from django.core import mail


def mailed_link(email: str) -> str:
    """The path of the last sign-up link mailed to `email` (`/sign-up/<key>/`)."""
    sent = [message for message in mail.outbox if message.to == [email]]
    assert sent, f"no mail to {email}"
    body = str(sent[-1].body)
    found = re.search(r"https?://\S+?(/sign-up/([A-Za-z0-9_-]+)/)", body)
    assert found is not None, body
    return found.group(1)


def mailed_key(email: str) -> str:
    """The key of the last sign-up link mailed to `email`."""
    return mailed_link(email).split("/")[2]
