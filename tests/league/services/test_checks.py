"""`recompute_standings` and `recompute_ratings` rebuild tables and ratings; with `--check`
(`league.services.checks`) they name a table or rating that differs from scratch, and report
only real differences (issue 14, item 17): a table never computed, a table whose job has not
run yet, and a player's new name are not differences on a healthy system; a tampered row
still is."""

import io
import re
import threading
import time

import pytest
from django.core.management import CommandError, call_command
from django.db import connections, transaction
from django.test import Client

import scoring
from games import services as game_services
from league.models import (
    Event,
    League,
    Player,
    PlayerRating,
    StandingsRow,
    StandingsScope,
    StandingsTable,
)
from league.services import checks, stages, standings_marks, standings_refresh
from scoring import simulate
from tests.league.services.league_night import (
    assert_converged,
    finish,
    no_tasks,
    seat,
    stored_table,
)

OLD_NAME = "Rita Roller"
NEW_NAME = "Rita Rollingstone"


@pytest.fixture
def event(db: None) -> Event:
    league = League.objects.create(name="Check Nights", slug="check", game="yardkle")
    return Event.objects.create(league=league, name="Night 1", date="2026-08-01")


@pytest.fixture
def named_field(event: Event) -> list[int]:
    """Five players on the league's roster (its stages seat only those), the first named
    OLD_NAME."""
    names = [OLD_NAME, "Sam Shaker", "Dee Dice", "Kit Keeper", "Flo Farkle"]
    players = [
        Player.objects.create(display_name=name, handle=f"check-{i}").pk
        for i, name in enumerate(names)
    ]
    event.league.players.add(*players)
    return players


def _play(event: Event, players: list[int], seed: int) -> int:
    """A new match of `players` at `event`, played to its end by the simulator; its id."""
    match = game_services.match_create(
        game="yardkle", player_ids=players, rules={}, event_id=event.pk
    )
    turns = simulate.play_game(scoring.new_game("yardkle", len(players), match.rules), seed=seed)
    game_services.result_submit(match_id=match.pk, turns=turns)
    return match.pk


def _check(command: str, **options: object) -> str:
    """Run `command --check` (no waiting unless told); its standard output. CommandError
    (exit 1) carries what it wrote on standard error."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(command, check=True, stdout=out, stderr=err, **{"wait": 0, **options})
    except CommandError as error:
        raise CommandError(f"{error}\n{err.getvalue()}") from error
    return out.getvalue()


def _rows(kind: str, scope_id: int) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = StandingsTable.objects.get(scope=kind, scope_id=scope_id).rows
    return rows


@pytest.mark.django_db(transaction=True)
def test_recompute_commands_rebuild_tables_and_ratings(league_event, field):
    finish(seat(league_event, field[:2]), 0)  # computed once, then stale
    with no_tasks():
        for seed in range(1, 3):
            finish(seat(league_event, field[seed : seed + 2]), seed)
    with pytest.raises(CommandError, match="tables are not current"):
        call_command("recompute_standings", league=league_event.league.slug, check=True, wait=0)
    with pytest.raises(CommandError, match="differences in the ratings"):
        call_command("recompute_ratings", check=True, wait=0)
    call_command("recompute_standings", league=league_event.league.slug)
    call_command("recompute_ratings")
    assert_converged(league_event)
    call_command("recompute_standings", check=True, wait=0)
    call_command("recompute_ratings", check=True, wait=0)


@pytest.mark.django_db
@pytest.mark.parametrize("command", ["recompute_standings", "recompute_ratings"])
@pytest.mark.parametrize(
    ("options", "message"),
    [
        # Taken and ignored: a full recompute ran where the operator meant a check.
        ({"wait": 5.0}, "--wait goes with --check"),
        ({"check": True, "wait": -5.0}, "--wait takes a number of seconds, 0 or more"),
        ({"check": True, "wait": float("nan")}, "--wait takes a number of seconds, 0 or more"),
        ({"league": "nope"}, "No league with slug 'nope'"),
        ({"league": "nope", "check": True}, "No league with slug 'nope'"),
    ],
)
def test_the_recompute_commands_refuse_bad_options(
    command: str, options: dict[str, object], message: str
):
    with pytest.raises(CommandError, match=re.escape(message)):
        call_command(command, **options)


@pytest.mark.django_db
def test_recompute_standings_refuses_an_unknown_event_or_one_of_another_league(league_event):
    with pytest.raises(CommandError, match="No event with id 0"):
        call_command("recompute_standings", event=0)
    other = League.objects.create(name="Elsewhere", slug="elsewhere", game="yardkle")
    with pytest.raises(CommandError, match=f"Event {league_event.pk} is not in league 'elsewhere'"):
        call_command("recompute_standings", league=other.slug, event=league_event.pk)


def _tamper(table: StandingsTable) -> None:
    """One more win in the stored line of the table's first player."""
    line = StandingsRow.objects.get(table=table, player=table.rows[0]["player"])
    line.data["wins"] += 1
    line.save()


@pytest.mark.django_db(transaction=True)
def test_the_check_names_a_table_or_rating_that_differs_from_scratch(league_event, field):
    for seed in range(3):
        finish(seat(league_event, field[seed : seed + 2]), seed)
    scopes = [
        (StandingsScope.EVENT, league_event.pk),
        (StandingsScope.LEAGUE, league_event.league_id),
    ]
    assert list(checks.standings_check(scopes).differences) == []
    assert list(checks.ratings_check([league_event.league_id]).differences) == []
    table = stored_table(StandingsScope.EVENT, league_event.pk)
    _tamper(table)
    PlayerRating.objects.filter(player_id=field[0]).update(mu=1.0)
    assert list(checks.standings_check(scopes).differences) == [
        f"event {league_event.pk}: rows differ for players [{table.rows[0]['player']}]"
    ]
    problems = list(checks.ratings_check([league_event.league_id]).differences)
    assert len(problems) == 1
    assert f"player {field[0]} is rated 1.000000" in problems[0]


@pytest.mark.django_db(transaction=True)
def test_item_17_the_check_skips_tables_never_computed_a_league_never_viewed_and_a_draft_stage(
    event, named_field
):
    """Item 17: nothing stored cannot be wrong; such a table is counted when first shown."""
    quiet = League.objects.create(name="Never Viewed", slug="never-viewed", game="yardzee")
    Event.objects.create(league=quiet, name="Someday", date="2026-09-01")
    _play(event, named_field[:3], seed=1)
    draft = stages.stage_create(
        event_id=event.pk, name="Finals", format="single_elimination", player_ids=named_field[:4]
    )
    out = _check("recompute_standings")
    assert f"stage {draft.pk}: never computed, skipped" in out
    assert f"league {quiet.pk}: never computed, skipped" in out
    assert "are current" in out
    out = _check("recompute_ratings")
    assert f"league {quiet.pk}: never computed, skipped" in out
    assert "are current" in out


@pytest.mark.django_db(transaction=True)
def test_item_17_after_a_rename_and_its_refresh_the_check_passes_and_tables_show_the_new_name(
    event, named_field
):
    """Item 17: `player_renamed` marks the stage, event and league tables and the leaderboard
    that show the player; their refresh (here run on commit) writes or renders the new name."""
    swiss = stages.stage_create(
        event_id=event.pk, name="Swiss", format="swiss", player_ids=named_field[:4]
    )
    stages.stage_start(stage_id=swiss.pk)
    _play(event, named_field[:3], seed=2)
    page = Client().get(f"/leagues/{event.league.slug}/")  # the leaderboard, rendered and kept
    assert page.status_code == 200
    assert OLD_NAME in page.content.decode()
    with transaction.atomic():
        Player.objects.filter(pk=named_field[0]).update(display_name=NEW_NAME)
        standings_marks.player_renamed(player_id=named_field[0])
    _check("recompute_standings")
    _check("recompute_ratings")
    for scope in [
        (StandingsScope.STAGE, swiss.pk),
        (StandingsScope.EVENT, event.pk),
        (StandingsScope.LEAGUE, event.league_id),
    ]:
        names = {row["player"]: row["name"] for row in _rows(*scope)}
        assert names[named_field[0]] == NEW_NAME, scope
    page = Client().get(f"/leagues/{event.league.slug}/")
    assert OLD_NAME not in page.content.decode()
    assert NEW_NAME in page.content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_rename_that_marked_nothing_is_reported_as_old_names(event, named_field):
    _play(event, named_field[:3], seed=3)
    Player.objects.filter(pk=named_field[0]).update(display_name=NEW_NAME)
    with pytest.raises(
        CommandError, match=rf"event {event.pk}: shows old names of players \[{named_field[0]}\]"
    ):
        _check("recompute_standings")


@pytest.mark.django_db(transaction=True)
def test_a_tampered_row_or_rating_is_still_a_difference(event, named_field):
    _play(event, named_field[:3], seed=4)
    table = StandingsTable.objects.get(scope=StandingsScope.EVENT, scope_id=event.pk)
    _tamper(table)
    player = table.rows[0]["player"]
    with pytest.raises(
        CommandError, match=rf"event {event.pk}: rows differ for players \[{player}\]"
    ):
        _check("recompute_standings")
    PlayerRating.objects.filter(player_id=named_field[1]).update(mu=1.0)
    with pytest.raises(CommandError, match=f"player {named_field[1]} is rated 1.000000"):
        _check("recompute_ratings")


@pytest.mark.django_db(transaction=True)
def test_tables_and_ratings_marked_stale_are_given_time_for_their_jobs(event, named_field):
    """A table marked stale is not a difference while its job may still come: the check
    waits up to --wait seconds for it (here the sweep runs a second later, in another
    thread); one still not computed then is."""
    _play(event, named_field[:3], seed=5)
    with no_tasks():
        _play(event, named_field[1:4], seed=6)
    with pytest.raises(CommandError, match="newer results are still pending"):
        _check("recompute_standings")
    with pytest.raises(CommandError, match="newer results are still pending"):
        _check("recompute_ratings")

    def sweep_later() -> None:
        time.sleep(1)
        try:
            standings_refresh.standings_sweep()
        finally:
            connections.close_all()

    sweeper = threading.Thread(target=sweep_later)
    sweeper.start()
    try:
        started = time.monotonic()
        out = _check("recompute_standings", wait=30)
        out += _check("recompute_ratings", wait=30)
    finally:
        sweeper.join()
    assert time.monotonic() - started < 30
    assert out.count("are current") == 2


@pytest.mark.django_db(transaction=True)
def test_a_result_stored_while_the_check_reads_a_table_is_not_a_difference(
    event, named_field, monkeypatch
):
    """The stored table and the count from scratch are read in one snapshot: a result that
    commits in between (here: between reading the table and counting) changes neither."""
    _play(event, named_field[:3], seed=7)
    count = standings_refresh.compute_rows

    def result_meanwhile(scope: tuple[str, int]) -> object:
        def finish() -> None:
            try:
                _play(event, named_field[2:5], seed=8)
            finally:
                connections.close_all()

        other = threading.Thread(target=finish)
        other.start()
        other.join()
        return count(scope)

    monkeypatch.setattr(checks, "compute_rows", result_meanwhile)
    _check("recompute_standings", event=event.pk)
    monkeypatch.undo()
    _check("recompute_standings")
