"""Two organizer (or player) writes of one thing arriving at once, other than turns
(test_concurrency.py): each ends as if they came one after the other, and the one that can no
longer be done gets a clear 4xx, never a 500 or a broken invariant.

The overlap is forced, not hoped for (as in tests/league/services/test_job_concurrency.py):
each request waits at a barrier at a point of its service where, without a lock, both would be
in the middle of it; with the lock, the second waits at the lock instead, the first's barrier
times out and it finishes alone."""

import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match, MatchStatus
from games.services import matches as game_matches
from games.services import voids as game_voids
from league.models import Event, EventStatus, League, Player, SignUp, Stage, StageEntry, StageMatch
from league.services import organization, stages
from league.services.organization import merges as organization_merges
from league.services.organization import players as organization_players
from league.services.registration import sign_up as registration_sign_up
from league.services.stages import _common as stage_common
from league.services.stages import drafts as stage_drafts
from league.services.stages import withdrawals as stage_withdrawals
from scoring.errors import DomainError
from tests.api.helpers import play, started_stage
from tests.conftest import client_for, next_turn_for
from tests.threads import BARRIER_SECONDS, THREAD, overlapping, run_at_once
from tests.webhooks.receiver import running_receiver
from webhooks import services as webhook_services
from webhooks.models import Endpoint

pytestmark = pytest.mark.django_db(transaction=True)


def _at_once(*requests: Callable[[], Any]) -> list[Any]:
    """Run each request in its own thread (and database connection); their answers in order."""
    answers, errors = run_at_once(*requests)
    assert errors == []
    return answers


def _round_robin_and_first_match(
    as_organizer: APIClient, event: Event, players: list[Player]
) -> tuple[dict[str, Any], int, StageMatch]:
    """A round robin of the first four players started in `event`; the first of them (who
    will withdraw) and their first stage match."""
    event.league.players.add(*players)
    stage = started_stage(as_organizer, event.pk, [p.pk for p in players[:4]], format="round_robin")
    leaving = players[0].pk
    first = (
        StageMatch.objects.filter(stage_id=stage["id"], match__seats__player_id=leaving)
        .select_related("match")
        .order_by("round", "slot", "pk")
        .first()
    )
    assert first is not None
    return stage, leaving, first


@contextmanager
def _meeting(monkeypatch: pytest.MonkeyPatch, *points: tuple[Any, str]) -> Iterator[None]:
    """As `overlapping`, but the first request waits at the first point (module, name) and
    the second at the second one, each once."""
    barrier = threading.Barrier(2, timeout=BARRIER_SECONDS)
    for index, (module, name) in enumerate(points):
        original = getattr(module, name)

        def waiting(
            *args: Any, _thread: str = f"{THREAD}{index}", _original: Any = original, **kwargs: Any
        ) -> Any:
            if threading.current_thread().name == _thread and not getattr(
                threading.current_thread(), "met", False
            ):
                threading.current_thread().met = True  # type: ignore[attr-defined]
                with suppress(threading.BrokenBarrierError):
                    barrier.wait()
            return _original(*args, **kwargs)

        monkeypatch.setattr(module, name, waiting)
    yield


@contextmanager
def _holding(
    monkeypatch: pytest.MonkeyPatch, module: Any, name: str, *, seconds: float = 1.0
) -> Iterator[threading.Event]:
    """`module.name`, called in the first request's thread (`run_at_once`'s first), sets the event
    yielded and then holds that request (and the locks it took) for `seconds` before going on:
    the second request, started once the event is set, meets those locks."""
    held = threading.Event()
    original = getattr(module, name)

    def holding(*args: Any, **kwargs: Any) -> Any:
        if threading.current_thread().name == f"{THREAD}0" and not held.is_set():
            held.set()
            time.sleep(seconds)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, holding)
    yield held


def _after(held: threading.Event, request: Callable[[], Any]) -> Callable[[], Any]:
    def later() -> Any:
        assert held.wait(10)
        return request()

    return later


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
    with overlapping(monkeypatch, stage_drafts, "_check_options"):
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
    with overlapping(monkeypatch, stage_drafts, "_check_options"):
        answers = _at_once(
            _post(client_for(organizer), path, _stage_body("Groups", entrants)),
            _post(client_for(organizer), path, _stage_body("groups", entrants)),
        )
    assert sorted(answer.status_code for answer in answers) == [201, 400]
    refused = next(answer for answer in answers if answer.status_code == 400).json()
    assert refused["code"] == "invalid_option"
    assert refused["details"]["field"] == "name"
    assert Stage.objects.filter(event=yardzee_event).count() == 1


@pytest.mark.parametrize("other", ["start", "delete", "change"])
def test_a_stage_started_twice_or_changed_while_it_starts_is_done_once(
    organizer, yardzee_event, entrants, monkeypatch, other
):
    """Checked, not fixed: the stage's row is locked by each, so the second waits and then
    finds it started (409 `stage_started`), or the start finds it gone (404) or changed."""
    created = client_for(organizer).post(
        f"/api/v1/events/{yardzee_event.pk}/stages/", _stage_body("Cup", entrants), format="json"
    )
    stage_id = created.json()["id"]
    path = f"/api/v1/stages/{stage_id}/"
    client = client_for(organizer)
    second = {
        "start": _post(client, f"{path}start/"),
        "delete": lambda: client.delete(path),
        "change": lambda: client.patch(path, {"name": "Big Cup"}, format="json"),
    }[other]
    with overlapping(monkeypatch, Event, "ensure_open"):
        started, then = _at_once(_post(client, f"{path}start/"), second)
    statuses = sorted([started.status_code, then.status_code])
    assert max(statuses) < 500, [started.content, then.content]
    if other == "start" or then.status_code == 409:
        assert statuses == [200, 409]
        assert (started if started.status_code == 409 else then).json()["code"] == "stage_started"
    stage = Stage.objects.filter(pk=stage_id).first()
    if stage is not None and stage.status == "running":
        assert stage.stage_matches.count() == 6  # one round robin of four, drawn once


# --- An event closed while play goes on ------------------------------------------------------


def test_a_first_turn_sent_while_the_event_closes_is_refused_not_stored_in_a_closed_event(
    organizer, players, seat_match, yardzee_event, monkeypatch
):
    """The close locks the event's matches not finished, then the event, and holds them; the
    match's first turn waits for the match's lock. It read the event with the match before the
    close committed: it stored the turn, and the event closed as finished had a match being
    played (which the close refuses, 409 `matches_in_progress`). Now the turn is refused as
    in a closed event."""
    match = seat_match("yardzee", players[:2], event=yardzee_event)
    game = Match.objects.get(pk=match["id"]).scoring_game()
    turn = next_turn_for(match, game, random.Random(1))
    turns = f"/api/v1/matches/{match['id']}/turns/"
    with _holding(monkeypatch, Event, "ensure_open") as held:
        close, first_turn = _at_once(
            _post(client_for(organizer), f"/api/v1/events/{yardzee_event.pk}/close/"),
            _after(held, _post(client_for(organizer), turns, turn)),
        )
    assert close.status_code == 200, close.json()
    assert first_turn.status_code == 409, first_turn.json()
    assert first_turn.json()["code"] == "event_closed"
    assert Event.objects.get(pk=yardzee_event.pk).status == EventStatus.FINISHED
    assert Match.objects.get(pk=match["id"]).status == MatchStatus.SCHEDULED


# --- A player withdrawn while one of their matches is voided --------------------------------


@pytest.mark.parametrize("scope", ["stages", "events"])
def test_a_withdrawal_and_a_void_of_one_of_the_players_matches_at_once_both_succeed(
    organizer, as_organizer, yardzee_event, players, monkeypatch, scope
):
    """The withdrawal locked the stage, then each match of the player's not started; the void
    locks its match, then (its slot replayed) the stage. Sent at once, each held what the
    other waited for: PostgreSQL broke the deadlock by failing one (a 500). Now the withdrawal
    takes the matches first, as a void and a result do, and both succeed: the void's replay
    is one of the matches the withdrawal forfeits."""
    stage, leaving, first = _round_robin_and_first_match(as_organizer, yardzee_event, players)
    with _meeting(
        monkeypatch, (stage_withdrawals, "stage_forfeit"), (game_voids, "ensure_event_open")
    ):
        withdrawal, void = _at_once(
            _post(
                client_for(organizer),
                f"/api/v1/{scope}/{stage['id'] if scope == 'stages' else yardzee_event.pk}"
                "/withdraw/",
                {"player": leaving},
            ),
            _post(client_for(organizer), f"/api/v1/matches/{first.match_id}/void/"),
        )
    assert (withdrawal.status_code, void.status_code) == (200, 200), (
        withdrawal.content,
        void.content,
    )
    assert StageEntry.objects.get(stage_id=stage["id"], player_id=leaving).withdrawn_at
    still_to_play = Match.objects.filter(
        stage_match__stage_id=stage["id"], seats__player_id=leaving, status=MatchStatus.SCHEDULED
    )
    assert not still_to_play.exists()


def test_a_withdrawal_sent_while_a_first_turn_is_stored_leaves_that_match_to_the_organizer(
    organizer, as_organizer, yardzee_event, players, monkeypatch
):
    """The match's first turn holds its lock; the withdrawal read the match as not started,
    waited to forfeit it, found it started and was refused whole (409 `match_started`). Now it
    waits for the match first and answers as for a match being played: `in_progress`."""
    stage, leaving, first = _round_robin_and_first_match(as_organizer, yardzee_event, players)
    assert first.match is not None
    match = first.match
    board = {"board": {"current_player": match.seats.get(order=0).player_id}}
    turn = next_turn_for(board, match.scoring_game(), random.Random(1))
    # The turn's own check (games.services.matches._ensure_open), not the league's.
    with _holding(monkeypatch, game_matches, "ensure_event_open") as held:
        first_turn, withdrawal = _at_once(
            _post(client_for(organizer), f"/api/v1/matches/{match.pk}/turns/", turn),
            _after(
                held,
                _post(
                    client_for(organizer),
                    f"/api/v1/stages/{stage['id']}/withdraw/",
                    {"player": leaving},
                ),
            ),
        )
    assert first_turn.status_code == 201, first_turn.json()
    assert withdrawal.status_code == 200, withdrawal.json()
    assert withdrawal.json()["in_progress"] == [match.pk]
    assert StageEntry.objects.get(stage_id=stage["id"], player_id=leaving).withdrawn_at


@pytest.mark.parametrize("action", ["undo", "unvoid"])
def test_a_finished_or_void_match_reopened_while_the_event_closes_is_refused(
    organizer, as_organizer, players, seat_match, yardzee_event, monkeypatch, action
):
    """An undo of a finished match's last turn, or an unvoid of a match with turns, makes it
    a match being played again, which a close refuses (409 `matches_in_progress`). The close
    locked only the matches not finished, and the undo (unvoid) read the event with its match:
    both succeeded, and the event stood finished with a match in progress. Now the close locks
    every match of the event, and the reopening write, once it has its match's lock, reads the
    event's status again: it is refused as in a closed event."""
    match = seat_match("yardzee", players[:2], event=yardzee_event)
    play(as_organizer, match["id"])
    if action == "unvoid":
        assert as_organizer.post(f"/api/v1/matches/{match['id']}/void/").status_code == 200
    before = Match.objects.get(pk=match["id"]).status
    with _holding(monkeypatch, Event, "ensure_open") as held:
        close, reopening = _at_once(
            _post(client_for(organizer), f"/api/v1/events/{yardzee_event.pk}/close/"),
            _after(held, _post(client_for(organizer), f"/api/v1/matches/{match['id']}/{action}/")),
        )
    assert close.status_code == 200, close.json()
    assert reopening.status_code == 409, reopening.json()
    assert reopening.json()["code"] == "event_closed"
    assert Match.objects.get(pk=match["id"]).status == before


# --- Two merges of one player --------------------------------------------------------------


@pytest.mark.parametrize("second", ["keeps", "removes"])
def test_a_merge_of_a_player_another_merge_just_removed_says_so(
    yardzee_league, monkeypatch, second
):
    """Two organizers merge duplicates at once, both naming Bob: the first removes him while
    the second waits for his row. The second was refused as if Bob were not on the roster,
    telling the organizer to add him. Now it says he was merged away meanwhile
    (`unknown_player`, naming the field)."""
    ann, bob, cid = (
        Player.objects.create(display_name=name, handle=name.lower())
        for name in ("Ann", "Bob", "Cid")
    )
    yardzee_league.players.add(ann, bob, cid)

    def merge(keep: Player, remove: Player) -> Callable[[], Any]:
        def run() -> Any:
            try:
                return organization.player_merge(
                    league=yardzee_league, keep=keep, remove=remove, by=None
                )
            except DomainError as refusal:
                return refusal

        return run

    later = merge(bob, cid) if second == "keeps" else merge(cid, bob)
    with _holding(monkeypatch, organization_merges, "player_merge_check") as held:
        first, refusal = _at_once(merge(ann, bob), _after(held, later))
    assert first.removed_name == "Bob"
    assert isinstance(refusal, DomainError)
    assert refusal.code == "unknown_player"
    assert "merged" in refusal.message
    assert refusal.details["field"] == ("keep" if second == "keeps" else "remove")
    assert set(yardzee_league.players.values_list("display_name", flat=True)) == {"Ann", "Cid"}


# --- Webhook endpoints of one league ----------------------------------------------------------


@pytest.mark.parametrize("first", ["create", "update"])
def test_two_endpoints_given_one_address_at_once_leave_one_with_it(
    yardkle_league, organizer, monkeypatch, first
):
    """A league's endpoints have distinct addresses (`url_taken`). An endpoint changed to an
    address at the same moment another is registered with it, or changed to it, both looked
    for it before either stored it: two endpoints of one address, each event sent twice."""
    with running_receiver() as receiver:
        kept, moved = (
            webhook_services.endpoint_create(
                league=yardkle_league, url=f"{receiver.url}/{name}", events=["match.finished"]
            )
            for name in ("kept", "moved")
        )
        wanted = f"{receiver.url}/wanted"

        def attempt(call: Callable[[], Any]) -> Callable[[], Any]:
            def run() -> Any:
                try:
                    return call()
                except DomainError as refusal:
                    return refusal

            return run

        other = (
            (lambda: webhook_services.endpoint_update(endpoint_id=kept.pk, changes={"url": wanted}))
            if first == "update"
            else (
                lambda: webhook_services.endpoint_create(
                    league=yardkle_league, url=wanted, events=["match.finished"]
                )
            )
        )
        with overlapping(monkeypatch, webhook_services, "_unused_url"):
            answers = _at_once(
                attempt(other),
                attempt(
                    lambda: webhook_services.endpoint_update(
                        endpoint_id=moved.pk, changes={"url": wanted}
                    )
                ),
            )
    refusals = [answer for answer in answers if isinstance(answer, DomainError)]
    assert [refusal.code for refusal in refusals] == ["url_taken"], answers
    assert Endpoint.objects.filter(league=yardkle_league, url=wanted).count() == 1


# --- An event's sign-up -----------------------------------------------------------------------


def test_a_sign_up_opened_twice_at_once_is_one_sign_up_with_one_of_the_two_settings(
    organizer, yardzee_event, monkeypatch
):
    """The first PUT of an event's sign-up makes it: two sent at once (the form sent twice,
    two organizers) both found none and both inserted one; the second failed on the database
    (an event has one sign-up) with a 500. Now the second waits for the first and changes it."""
    url = f"/api/v1/events/{yardzee_event.pk}/sign-up/"

    def put(cap: int) -> Callable[[], Any]:
        return lambda: client_for(organizer).put(url, {"cap": cap}, format="json")

    with overlapping(monkeypatch, registration_sign_up, "_locked_sign_up"):
        answers = _at_once(put(8), put(12))
    assert [answer.status_code for answer in answers] == [200, 200], [a.content for a in answers]
    assert SignUp.objects.filter(event=yardzee_event).count() == 1
    assert SignUp.objects.get(event=yardzee_event).cap in (8, 12)


# --- Names on a league's roster -----------------------------------------------------------------


@pytest.mark.parametrize("how", ["new", "rename", "roster"])
def test_two_players_given_one_name_on_a_roster_at_once_leave_one_with_it(
    organizer, yardzee_league, monkeypatch, how
):
    """Names on a roster look different (`name_taken`): a file of players locked the league
    while it compared them, but one new player, a rename and a player put on the roster did
    not. Two of them at once both passed the check: two "Ann Lee" on one roster."""
    client = client_for(organizer)
    mine = Player.objects.create(display_name="Someone", handle="someone")
    elsewhere = Player.objects.create(display_name="Ann Lee", handle="ann-elsewhere")
    yardzee_league.players.add(mine)
    League.objects.create(name="Other", slug="other", game="yardzee").players.add(elsewhere)
    League.objects.get(slug="other").organizers.add(organizer)
    second = {
        "new": _post(
            client,
            "/api/v1/players/",
            {"display_name": "Ann Lee", "handle": "ann-2", "league": yardzee_league.slug},
        ),
        "rename": lambda: client.patch(
            f"/api/v1/players/{mine.pk}/", {"display_name": "Ann Lee"}, format="json"
        ),
        "roster": _post(
            client, f"/api/v1/leagues/{yardzee_league.slug}/players/", {"player": elsewhere.pk}
        ),
    }[how]
    with overlapping(monkeypatch, organization_players, "_ensure_name_free"):
        answers = _at_once(
            _post(
                client,
                "/api/v1/players/",
                {"display_name": "Ann Lee", "handle": "ann-1", "league": yardzee_league.slug},
            ),
            second,
        )
    codes = sorted(answer.status_code for answer in answers)
    assert codes[0] in (200, 201), [answer.content for answer in answers]
    assert codes[1] == 400, [answer.content for answer in answers]
    refused = next(answer for answer in answers if answer.status_code == 400).json()
    assert refused["code"] == "name_taken"
    names = list(yardzee_league.players.values_list("display_name", flat=True))
    assert names.count("Ann Lee") == 1, names


# --- Organizers' writes of one event at once (issue 37, item 6) -----------------------------


def _groups_and_playoff(
    as_organizer: APIClient, event: Event, players: list[Player]
) -> tuple[dict[str, Any], dict[str, Any], Match, dict[str, Any]]:
    """A round robin of six played out, a playoff of its top four started from it, and a
    third stage in draft (which keeps the event open): what the organizers' writes below
    work on."""
    event.league.players.add(*players)
    ids = [p.pk for p in players[:6]]
    groups = started_stage(as_organizer, event.pk, ids, format="round_robin")
    stages_path = f"/api/v1/events/{event.pk}/stages/"
    final = {"name": "Final", "format": "single_elimination", "source_stage": groups["id"]}
    playoff = as_organizer.post(stages_path, {**final, "source_top": 4}, format="json").json()
    side = {"name": "Side tables", "format": "round_robin", "participants": ids[:4]}
    side = as_organizer.post(stages_path, side, format="json").json()
    for match in Match.objects.filter(stage_match__stage_id=groups["id"]).order_by("pk"):
        play(as_organizer, match.pk)
    assert as_organizer.post(f"/api/v1/stages/{playoff['id']}/start/").status_code == 200
    last = Match.objects.filter(stage_match__stage_id=groups["id"]).order_by("-pk").first()
    assert last is not None
    return groups, playoff, last, side


@pytest.mark.parametrize(
    "pair",
    [("withdraw", "void"), ("start", "withdraw"), ("start", "void"), ("void", "withdraw")],
)
def test_two_organizers_writes_of_one_event_at_once_both_answer_without_a_5xx(
    organizer, as_organizer, yardzee_event, players, monkeypatch, pair
):
    """Issue 37, item 6: a stage's start, a player's withdrawal from the event and a void of a
    finished match with its later stages re-seeded, sent at once, deadlocked (503
    `write_conflict`). Every organizer's write of an event now takes the event's lock first
    (league.services.locks): they run one after the other. Each waits at a point inside its
    service for the other to get there too; with the lock, the second waits at the lock
    instead, the first's wait times out and it finishes alone."""
    _, _, last, side = _groups_and_playoff(as_organizer, yardzee_event, players)
    leaving = players[1].pk
    writes = {
        "withdraw": (
            _post(
                client_for(organizer),
                f"/api/v1/events/{yardzee_event.pk}/withdraw/",
                {"player": leaving},
            ),
            (stage_withdrawals, "_lock_players_matches"),
        ),
        "void": (
            _post(
                client_for(organizer),
                f"/api/v1/matches/{last.pk}/void/",
                {"reseed_later_stages": True},
            ),
            (stages, "stage_match_voided"),  # where the receiver finds it
        ),
        "start": (
            _post(client_for(organizer), f"/api/v1/stages/{side['id']}/start/"),
            (stage_common, "_locked"),
        ),
    }
    (first, first_point), (second, second_point) = writes[pair[0]], writes[pair[1]]
    with _meeting(monkeypatch, first_point, second_point):
        answers = _at_once(first, second)
    assert [a.status_code for a in answers if a.status_code >= 500] == [], [
        a.content for a in answers
    ]
    for answer in answers:
        assert answer.status_code < 400 or answer.json()["code"] != "write_conflict"


def test_three_organizers_writes_of_one_event_at_once_all_answer_without_a_5xx(
    organizer, as_organizer, yardzee_event, players
):
    _, _, last, side = _groups_and_playoff(as_organizer, yardzee_event, players)
    answers = _at_once(
        _post(client_for(organizer), f"/api/v1/stages/{side['id']}/start/"),
        _post(
            client_for(organizer),
            f"/api/v1/events/{yardzee_event.pk}/withdraw/",
            {"player": players[1].pk},
        ),
        _post(
            client_for(organizer), f"/api/v1/matches/{last.pk}/void/", {"reseed_later_stages": True}
        ),
    )
    assert [a.status_code for a in answers] == [200, 200, 200], [a.content for a in answers]
