"""Two organizer (or player) writes of one thing arriving at once, other than turns
(test_concurrency.py): each ends as if they came one after the other, and the one that can no
longer be done gets a clear 4xx, never a 500 or a broken invariant.

The overlap is forced, not hoped for (as in tests/league/services/test_job_concurrency.py):
each request waits at a barrier at a point of its service where, without a lock, both would be
in the middle of it; with the lock, the second waits at the lock instead, the first's barrier
times out and it finishes alone. Runs on PostgreSQL (SQLite lets one writer in at a time)."""

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from league.models import Stage
from league.services import stages
from tests.conftest import client_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="concurrent transactions need PostgreSQL (SQLite lets one writer in at a time)",
    ),
]

# How long a request waits at the barrier for the other one: with the lock, the other never comes.
BARRIER_SECONDS = 2.0


@contextmanager
def _overlapping(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> Iterator[None]:
    """`module.name`, called in a request thread, first waits (up to BARRIER_SECONDS) for the
    other request thread to call it too; then both go on."""
    barrier = threading.Barrier(2, timeout=BARRIER_SECONDS)
    original = getattr(module, name)

    def waiting(*args: Any, **kwargs: Any) -> Any:
        if threading.current_thread().name.startswith("request-"):
            with suppress(threading.BrokenBarrierError):
                barrier.wait()
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, waiting)
    yield


def _at_once(*requests: Callable[[], Any]) -> list[Any]:
    """Run each request in its own thread (and database connection); their answers in order."""
    answers: list[Any] = [None] * len(requests)
    errors: list[BaseException] = []

    def run(index: int, request: Callable[[], Any]) -> None:
        try:
            answers[index] = request()
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=run, args=(index, request), name=f"request-{index}")
        for index, request in enumerate(requests)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    assert errors == []
    return answers


def _post(client: APIClient, path: str, body: dict[str, Any] | None = None) -> Callable[[], Any]:
    return lambda: client.post(path, body or {}, format="json")


# --- Stages of one event ----------------------------------------------------------------------


def _stage_body(name: str, player_ids: list[int]) -> dict[str, Any]:
    return {"name": name, "format": "round_robin", "participants": player_ids}


@pytest.fixture
def entrants(yardzee_event, players) -> list[int]:
    yardzee_event.league.players.add(*players)
    return [player.pk for player in players[:4]]


def test_two_stages_added_to_one_event_at_once_take_the_next_two_positions(
    organizer, yardzee_event, entrants, monkeypatch
):
    """Both requests count the event's stages before either stores its own: without a lock
    both took position 1."""
    path = f"/api/v1/events/{yardzee_event.pk}/stages/"
    with _overlapping(monkeypatch, stages, "_check_options"):
        answers = _at_once(
            _post(client_for(organizer), path, _stage_body("Groups", entrants)),
            _post(client_for(organizer), path, _stage_body("Finals", entrants)),
        )
    assert [answer.status_code for answer in answers] == [201, 201]
    positions = Stage.objects.filter(event=yardzee_event).values_list("position", flat=True)
    assert sorted(positions) == [1, 2]


def test_two_stages_of_one_name_added_at_once_make_one_and_refuse_the_other(
    organizer, yardzee_event, entrants, monkeypatch
):
    """A form sent twice: both requests looked for a stage of that name before either stored
    it. One stage is made; the other request is refused as a name taken is (400)."""
    path = f"/api/v1/events/{yardzee_event.pk}/stages/"
    with _overlapping(monkeypatch, stages, "_check_options"):
        answers = _at_once(
            _post(client_for(organizer), path, _stage_body("Groups", entrants)),
            _post(client_for(organizer), path, _stage_body("groups", entrants)),
        )
    assert sorted(answer.status_code for answer in answers) == [201, 400]
    refused = next(answer for answer in answers if answer.status_code == 400).json()
    assert refused["code"] == "invalid_option"
    assert refused["details"]["field"] == "name"
    assert Stage.objects.filter(event=yardzee_event).count() == 1
