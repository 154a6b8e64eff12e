"""The system harness's fixtures. Its tests run the real processes against the machine's
PostgreSQL and Redis, so they need DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis); CI
sets both. The default is a quick form that keeps CI short; `SYSTEM_SCALE=full` runs them at
the size issue 8 names (32 clients, 10,000 turns), e.g.
`SYSTEM_SCALE=full .venv/bin/python -m pytest tests/system` with both URLs set."""

import asyncio
import os
from collections.abc import Iterator

import aiohttp
import pytest

from tests.system.stack import ORGANIZER, Stack, machine_urls, running

FULL = os.environ.get("SYSTEM_SCALE", "quick") == "full"


needs_machine = [
    pytest.mark.system,
    pytest.mark.skipif(
        machine_urls() is None, reason="needs DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL"
    ),
]


def organizer_token(stack: Stack) -> str:
    async def get() -> str:
        async with (
            aiohttp.ClientSession() as session,
            session.post(
                stack.base_url + "/api/v1/auth/token/",
                json={"username": ORGANIZER[0], "password": ORGANIZER[1]},
            ) as answer,
        ):
            assert answer.status == 200, await answer.text()
            return str((await answer.json())["token"])

    return asyncio.run(get())


@pytest.fixture(scope="module")
def stack(request: pytest.FixtureRequest) -> Iterator[Stack]:
    """A running stack for the module: gunicorn (4 workers), one Celery worker, beat."""
    name = request.module.__name__.rsplit(".", 1)[-1].removeprefix("test_")
    with running(Stack(name=name)) as started:
        yield started
