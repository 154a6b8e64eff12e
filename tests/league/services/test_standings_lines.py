"""The stored lines of a standings table (`StandingsRow`): a refresh after more results writes
only the lines of the players whose totals changed (the order, the ranks and the metrics that
depend on other players are the table's row), and the stored table equals a count from
scratch after any run of results (ties, matches finishing out of id order, new players),
corrections and voids of an earlier result, renames, and refreshes by a worker that kept
nothing."""

import datetime
import random

import pytest
from django.utils import timezone

from games.models import Match, MatchStatus, Seat
from league.models import Event, League, Player, StandingsRow, StandingsScope
from league.services import standings_lines, standings_marks, standings_refresh
from tests.league.services.league_night import fresh_rows, stored_table

pytestmark = pytest.mark.django_db


def _seat(match: Match, players: list[int], rng: random.Random) -> None:
    """Seats with few distinct totals, so that places are often shared."""
    totals = [rng.choice([150, 200, 250]) for _ in players]
    Seat.objects.filter(match=match).delete()
    Seat.objects.bulk_create(
        Seat(
            match=match,
            player_id=player,
            order=order,
            total=total,
            placement=1 + sum(other > total for other in totals),
            yardzees=rng.randint(0, 1),
        )
        for order, (player, total) in enumerate(zip(players, totals, strict=True))
    )


def _match(event: Event, players: list[int], rng: random.Random, status: str) -> Match:
    match = Match.objects.create(
        game="yardzee",
        rules={"joker": "forced"},
        state={},
        status=status,
        event=event,
        league_id=event.league_id,
        score_key=f"lines-{rng.random()}",
        finished_at=timezone.now() if status == MatchStatus.FINISHED else None,
    )
    _seat(match, players, rng)
    return match


def _written(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """How many lines each refresh wrote, as `write_lines` returns it."""
    written: list[int | None] = []
    write = standings_lines.write_lines

    def counting(*args: object) -> int | None:
        written.append(write(*args))  # type: ignore[arg-type]
        return written[-1]

    monkeypatch.setattr(standings_refresh, "write_lines", counting)
    return written


@pytest.mark.parametrize("seed", range(3))
def test_stored_lines_equal_a_count_from_scratch_after_any_run_of_changes(seed, monkeypatch):
    rng = random.Random(seed)
    league = League.objects.create(name=f"Lines {seed}", slug=f"lines-{seed}", game="yardzee")
    event = Event.objects.create(league=league, name="Night", date="2026-08-01")
    players = [
        Player.objects.create(display_name=f"P{i}", handle=f"lines-{seed}-{i}").pk
        for i in range(14)
    ]
    scope = (StandingsScope.EVENT, event.pk)
    (table_id,) = standings_marks.standings_mark([scope])
    finished: list[Match] = [_match(event, players[:3], rng, MatchStatus.FINISHED)]
    scheduled: list[Match] = []
    written = _written(monkeypatch)
    actions = ["finish"] * 6 + ["schedule", "late", "correct", "void", "forget", "rename"]
    for step in range(45):
        action = rng.choice(actions)
        pool = players[:10] if step < 30 else players  # four new players join late
        rebuild = False
        if action == "finish" or (action == "late" and not scheduled):
            finished.append(_match(event, rng.sample(pool, rng.choice([2, 3, 4])), rng, "finished"))
        elif action == "schedule":
            scheduled.append(_match(event, rng.sample(pool, 3), rng, MatchStatus.SCHEDULED))
        elif action == "late":  # a match with a lower id finishes after later ones
            match = scheduled.pop(0)
            Match.objects.filter(pk=match.pk).update(
                status=MatchStatus.FINISHED, finished_at=timezone.now()
            )
            finished.append(match)
        elif action == "correct":  # an earlier result withdrawn and counted again, changed
            match = rng.choice(finished)
            _seat(
                match, list(match.seats.order_by("order").values_list("player_id", flat=True)), rng
            )
            rebuild = True
        elif action == "void" and len(finished) > 1:
            match = finished.pop(rng.randrange(len(finished)))
            Match.objects.filter(pk=match.pk).update(status=MatchStatus.VOID)
            rebuild = True
        elif action == "forget":  # the next refresh runs in a worker that kept nothing
            standings_refresh.forget_tallies()
        elif action == "rename":
            player = rng.choice(players)
            Player.objects.filter(pk=player).update(display_name=f"Renamed {step}")
            standings_marks.player_renamed(player_id=player)
        standings_marks.standings_mark([scope], rebuild=rebuild)
        assert standings_refresh.standings_refresh(table_id=table_id)
        table = stored_table(*scope)
        assert not table.pending
        assert table.rows == fresh_rows(scope), (step, action)
        assert StandingsRow.objects.filter(table_id=table_id).count() == len(table.rows)
    lines = len(stored_table(*scope).rows)
    assert any(count is not None and count < lines for count in written)


def _two_player_result(
    event: Event, key: str, at: datetime.datetime, seats: list[tuple[int, int, int]]
) -> None:
    """A finished 2-player match of `event`: `seats` are (player, total, placement) in order."""
    match = Match.objects.create(
        game="yardzee",
        rules={},
        state={},
        status=MatchStatus.FINISHED,
        event=event,
        league_id=event.league_id,
        score_key=key,
        finished_at=at,
    )
    Seat.objects.bulk_create(
        [
            Seat(match=match, player_id=player, order=order, total=total, placement=placement)
            for order, (player, total, placement) in enumerate(seats)
        ]
    )


def test_one_more_match_writes_its_players_lines_only(monkeypatch):
    """Twenty players with distinct points (a ladder): a match between the two last moves
    nobody above them, and two the last wins against the first move the last past others;
    either way the two players' lines and no other are written (the others' places are the
    table's row)."""
    league = League.objects.create(name="Ladder", slug="ladder", game="yardzee")
    event = Event.objects.create(league=league, name="Night", date="2026-08-01")
    league.tiebreak = ["points", "head_to_head", "wins", "best_score"]
    league.save()
    players = [
        Player.objects.create(display_name=f"L{i}", handle=f"ladder-{i}").pk for i in range(20)
    ]
    start = timezone.now() - datetime.timedelta(days=1)
    for i, winner in enumerate(players[:-1]):  # player i beats everyone after them once
        for loser in players[i + 1 :]:
            seats = [(winner, 300 - i, 1), (loser, 100, 2)]
            _two_player_result(event, f"ladder-{winner}-{loser}", start, seats)
    scope = (StandingsScope.EVENT, event.pk)
    (table_id,) = standings_marks.standings_mark([scope])
    standings_refresh.standings_refresh(table_id=table_id)
    written = _written(monkeypatch)
    draw = [(players[-1], 100, 1), (players[-2], 100, 1)]
    _two_player_result(event, "ladder-draw", timezone.now(), draw)
    standings_marks.standings_mark([scope])
    standings_refresh.standings_refresh(table_id=table_id)
    assert stored_table(*scope).rows == fresh_rows(scope)
    assert written == [2]
    before = stored_table(*scope).players_in_order
    for upset_number in range(2):  # the last wins twice against the first: past two others
        upset = [(players[-1], 300, 1), (players[0], 100, 2)]
        _two_player_result(event, f"ladder-upset-{upset_number}", timezone.now(), upset)
    standings_marks.standings_mark([scope])
    standings_refresh.standings_refresh(table_id=table_id)
    after = stored_table(*scope).players_in_order
    assert stored_table(*scope).rows == fresh_rows(scope)
    passed = [p for p in players[1:-1] if after.index(p) != before.index(p)]
    assert passed  # the last climbed past others, whose places changed
    assert written == [2, 2]
