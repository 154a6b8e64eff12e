"""The default cache on a real Redis for the tests that compare it with the in-memory one (the
throttles, the jobs sent once): the broker's Redis, under a key prefix of the test's own, whose
keys are deleted after it. Skipped, with the reason, when no broker is configured."""

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import override_settings


@contextmanager
def redis_cache(name: str, needed_for: str) -> Iterator[None]:
    if not settings.CELERY_BROKER_URL:
        pytest.skip(f"needs CELERY_BROKER_URL (a Redis server) for {needed_for}; CI sets it")
    prefix = f"{name}-{uuid.uuid4().hex}"
    redis = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": settings.CELERY_BROKER_URL,
            "KEY_PREFIX": prefix,
        }
    }
    with override_settings(CACHES=redis):
        yield
        client = caches["default"]._cache.get_client(write=True)  # type: ignore[attr-defined]
        for key in client.scan_iter(f"{prefix}:*"):
            client.delete(key)
