"""`manage.py seed_season` and `league.management.seeding`: a season of finished results
written with COPY, at sizes shrunk for the tests (the constants of the module): the leagues,
rosters, matches and seats it promises, placements that follow the totals, a larger factor
only adding, the play-version triggers on again afterwards, and the command's refusals."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.models import Count
from django.test import override_settings

from games.models import Match, Seat
from league.management import seeding
from league.models import Event, EventPage, League, Player, StandingsScope
from league.services import standings_refresh

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small(monkeypatch):
    """A league of 12 matches among 6 players, pools of 3 players a factor (6 at least), one
    league of 5 players and 9 matches a factor; COPY rounds of 5 matches."""
    monkeypatch.setattr(seeding, "SEASON_LEAGUE_MATCHES", 12)
    monkeypatch.setattr(seeding, "SEASON_LEAGUE_PLAYERS", 6)
    monkeypatch.setattr(seeding, "SEASON_PLAYERS_PER_FACTOR", 3)
    monkeypatch.setattr(seeding, "ONE_LEAGUE_PLAYERS", 5)
    monkeypatch.setattr(seeding, "ONE_LEAGUE_MATCHES", 9)
    monkeypatch.setattr(seeding, "CHUNK", 5)


def _season() -> list[League]:
    return list(
        League.objects.filter(slug__startswith=seeding.SEASON_PREFIX)
        .exclude(slug=seeding.ONE_LEAGUE_SLUG)
        .order_by("slug")
    )


def _seats(league: League) -> list[tuple[str, int, int, int | None, int | None]]:
    return list(
        Seat.objects.filter(match__league=league)
        .order_by("match__finished_at", "order")
        .values_list("match__score_key", "order", "player_id", "total", "placement")
    )


def test_a_season_has_two_leagues_a_factor_of_finished_four_player_matches():
    added = seeding.seed_season(2)
    assert added == seeding.Seeded(leagues=4, players=6, matches=48)
    leagues = _season()
    assert [league.slug for league in leagues] == [f"season-00{k}" for k in range(1, 5)]
    for league in leagues:
        roster = set(league.players.values_list("pk", flat=True))
        assert len(roster) == 6
        event = league.events.get()
        matches = Match.objects.filter(event=event)
        assert matches.count() == 12
        assert set(matches.values_list("status", "league_id", "game")) == {
            ("finished", league.pk, "yardzee")
        }
        assert len(set(matches.values_list("finished_at", flat=True))) == 12
        for match in matches.prefetch_related("seats"):
            seats = sorted(match.seats.all(), key=lambda seat: seat.order)
            assert [seat.order for seat in seats] == [0, 1, 2, 3]
            assert len({seat.player_id for seat in seats}) == 4
            assert {seat.player_id for seat in seats} <= roster
            totals = [seat.total for seat in seats]
            assert [seat.placement for seat in seats] == [
                1 + sum(other > total for other in totals) for total in totals
            ]
        # The standings count every seat seeded.
        _, rows = standings_refresh.compute_rows((StandingsScope.LEAGUE, league.pk))
        assert sum(row["matches"] for row in rows) == 48


def test_a_larger_factor_only_adds_what_the_smaller_one_lacks():
    seeding.seed_season(1)
    first = {league.slug: _seats(league) for league in _season()}
    assert seeding.seed_season(3) == seeding.Seeded(leagues=4, players=3, matches=48)
    assert {league.slug: _seats(league) for league in _season()[:2]} == first
    assert Player.objects.filter(handle__startswith="season-p").count() == 9
    assert seeding.seed_season(3) == seeding.Seeded()
    assert Match.objects.count() == 72


def test_one_league_grows_with_the_factor_keeping_what_it_had():
    assert seeding.seed_league(1) == seeding.Seeded(leagues=1, players=5, matches=9)
    league = League.objects.get(slug=seeding.ONE_LEAGUE_SLUG)
    before = _seats(league)
    assert seeding.seed_league(3) == seeding.Seeded(leagues=0, players=10, matches=18)
    assert _seats(league)[: len(before)] == before
    assert league.players.count() == 15
    counts = Seat.objects.filter(match__league=league).values("match").annotate(n=Count("pk"))
    assert {row["n"] for row in counts} == {4}
    assert Match.objects.filter(league=league).count() == 27


def test_the_play_version_triggers_are_on_again_and_each_event_has_one_new_version():
    seeding.seed_season(1)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tgname, tgenabled FROM pg_trigger WHERE tgname = ANY(%s)",
            [list(seeding.PLAYED_TRIGGERS.values())],
        )
        assert dict(cursor.fetchall()) == dict.fromkeys(seeding.PLAYED_TRIGGERS.values(), "O")
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # what the commit would run
    # Marked once as played, for all its seeded rows.
    assert set(EventPage.objects.values_list("play_version", flat=True)) == {1}
    event = Event.objects.first()
    Match.objects.create(game="yardzee", rules={}, state={}, event=event, league=event.league)
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    assert EventPage.objects.get(event=event).play_version == 2  # new matches count again


def test_copy_rows_escapes_what_copy_text_would_misread():
    name = "Tab\there, new\nline, back\\slash"
    (pk,) = seeding.new_players("odd-", 0, 1).tolist()
    seeding.copy_rows(Player, ["display_name", "handle"], [])  # nothing: no error
    Player.objects.filter(pk=pk).update(display_name="x")
    seeding.copy_rows(
        Player, ["display_name", "handle"], [f"{seeding._text(name)}\t{seeding._text('odd-b')}"]
    )
    assert Player.objects.get(handle="odd-b").display_name == name
    # Ids taken by reserve_ids are never handed out again.
    assert Player.objects.create(display_name="Next", handle="next").pk > pk


@override_settings(DEBUG=False)
def test_the_command_refuses_without_debug_or_force():
    with pytest.raises(CommandError, match="--force"):
        call_command("seed_season", "--factor", "1")
    assert not League.objects.exists()


@pytest.mark.parametrize("factor", ["0", "1001"])
def test_the_command_refuses_a_factor_out_of_range(factor):
    with pytest.raises(CommandError, match="--factor must be from 1 to 1000"):
        call_command("seed_season", "--factor", factor, "--force")


def test_the_command_seeds_the_season_or_one_league_and_says_what_it_added():
    out = StringIO()
    call_command("seed_season", "--factor", "1", "--force", stdout=out)
    assert out.getvalue().startswith("Seeded 2 leagues, 6 players and 24 matches in ")
    call_command("seed_season", "--factor", "2", "--one-league", "--force", stdout=out)
    assert "Seeded 1 leagues, 10 players and 18 matches in " in out.getvalue()
