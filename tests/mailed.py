"""The private links the tests read from the mail a service sent (Django's test outbox): a
player's sign-up link, an organizer's invitation."""

import re

from django.core import mail


def mailed_link(email: str, *, prefix: str = "sign-up") -> str:
    """The path of the last private link mailed to `email`: a sign-up's (`/sign-up/<key>/`),
    or with `prefix="invitations"` an invitation's (`/invitations/<token>/`)."""
    sent = [message for message in mail.outbox if message.to == [email]]
    assert sent, f"no mail to {email}"
    body = str(sent[-1].body)
    found = re.search(rf"https?://\S+?(/{prefix}/([A-Za-z0-9_-]+)/)", body)
    assert found is not None, body
    return found.group(1)


def mailed_key(email: str) -> str:
    """The key of the last sign-up link mailed to `email`."""
    return mailed_link(email).split("/")[2]
