"""A registration's private link: its key, derived from a stored seed and stored hashed."""

import base64
import hashlib
import secrets

from django.utils.crypto import salted_hmac

from league.models import Registration


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


# What a key is derived under (with the site's SECRET_KEY): only these links use it.
KEY_SALT = "league.registration.key"


def _derived_key(seed: str) -> str:
    """The key a seed stands for: 24 bytes of HMAC-SHA256 under SECRET_KEY, URL-safe (32
    characters, as `secrets.token_urlsafe(24)` gave before)."""
    digest = salted_hmac(KEY_SALT, seed, algorithm="sha256").digest()[:24]
    return base64.urlsafe_b64encode(digest).decode()


def _issued_key() -> tuple[str, str]:
    """A new key for a private link, and the seed it is derived from (stored; the key never
    is: a copy of the database alone opens no registration)."""
    seed = secrets.token_urlsafe(16)
    return _derived_key(seed), seed


def link_key(registration: Registration) -> str | None:
    """The key of the registration's private link as it stands, derived again from its seed,
    so that a mail carries the link the player already has (never a new one behind their
    back). None when it cannot be: a key made before keys had seeds, or SECRET_KEY changed
    since (the key derived then no longer matches the stored hash)."""
    if not registration.key_seed:
        return None
    key = _derived_key(registration.key_seed)
    return key if secrets.compare_digest(key_hash(key), registration.key_hash) else None


def registration_by_key(key: str) -> Registration | None:
    """The registration a private link's key opens, or None."""
    if not key or len(key) > 64:
        return None
    return (
        Registration.objects.select_related("event__league", "player")
        .filter(key_hash=key_hash(key))
        .first()
    )
