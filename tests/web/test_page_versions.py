"""The league and event pages' versions, one row a page kept by PostgreSQL's triggers (league
migration 0024; docs/pages.md, "Whole pages kept rendered"): a write of any row a page shows
moves that page's version, whatever wrote it, and moves no page that does not show the row.

The tests here write the rows directly (querysets, not the services) so that each write is
one table's. Inside a test's transaction the triggers run at each statement (the conftest makes
them immediate); the transactional tests at the end run them at the commit, as production
does."""

import datetime
import threading
from typing import Any

import psycopg
import pytest
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from analysis.models import MatchAnalysis, MatchForecast
from games.models import Match, MatchStatus, Seat
from league.models import (
    Event,
    EventPage,
    League,
    LeaguePage,
    LeagueProjection,
    Player,
    RatingsState,
    SignUp,
    Stage,
    StageProjection,
    StandingsScope,
    StandingsTable,
)
from tests.playing import play, start_stage
from tests.web.conftest import make_players

pytestmark = pytest.mark.django_db


class _Pages:
    """The versions of a league's page and of two of its events' pages: what moved since the
    last look, as (league page, event page, its list of matches, its sign-up, the other event's
    page)."""

    def __init__(self, event: Event, other: Event) -> None:
        self.event, self.other = event, other
        self.seen = self._now()

    def _now(self) -> tuple[int, ...]:
        league = LeaguePage.objects.get(league_id=self.event.league_id).version
        page = EventPage.objects.get(event=self.event)
        other = EventPage.objects.get(event=self.other).version
        return league, page.version, page.play_version, page.sign_up_version, other

    def moved(self) -> tuple[int, ...]:
        now = self._now()
        moved = tuple(after - before for after, before in zip(now, self.seen, strict=True))
        self.seen = now
        return moved

    def which(self) -> tuple[int, ...]:
        """Which moved (1) and which not (0): for a service's writes of several statements,
        each of which moves a page here (the triggers run at each statement)."""
        return tuple(min(moved, 1) for moved in self.moved())


NOTHING = (0, 0, 0, 0, 0)
LEAGUE = (1, 0, 0, 0, 0)
EVENT = (0, 1, 0, 0, 0)
PLAYED = (0, 1, 1, 0, 0)
SIGN_UP = (0, 0, 0, 1, 0)


@pytest.fixture
def pages(zee_event: Event) -> _Pages:
    other = Event.objects.create(league=zee_event.league, name="Night 2", date="2026-06-13")
    return _Pages(zee_event, other)


def _table(scope: str, scope_id: int, league: League, **fields: Any) -> StandingsTable:
    return StandingsTable.objects.create(scope=scope, scope_id=scope_id, league=league, **fields)


def test_the_league_and_event_rows_move_the_pages_that_show_them(pages: _Pages):
    league, event = pages.event.league, pages.event
    League.objects.filter(pk=league.pk).update(name="Front Lawn")
    assert pages.moved() == (1, 1, 0, 0, 1)  # every event page shows its league
    League.objects.filter(pk=league.pk).update(name=F("name"))
    assert pages.moved() == NOTHING  # written, not changed
    Event.objects.filter(pk=event.pk).update(name="Night One")
    assert pages.moved() == (1, 1, 0, 0, 0)  # its line on the league page
    Event.objects.filter(pk=event.pk).update(rules={"joker": "free_choice"})
    assert pages.moved() == EVENT


def test_stored_tables_ratings_and_projections_move_the_pages_that_show_them(pages: _Pages):
    league, event = pages.event.league, pages.event
    now = timezone.now()
    table = _table(StandingsScope.LEAGUE, league.pk, league, computed=1, computed_at=now)
    assert pages.moved() == LEAGUE
    StandingsTable.objects.filter(pk=table.pk).update(requested=F("requested") + 1)
    assert pages.moved() == LEAGUE  # marked: the page shows the refresh pending
    StandingsTable.objects.filter(pk=table.pk).update(ranking="x")
    assert pages.moved() == NOTHING
    table = _table(StandingsScope.EVENT, event.pk, league)
    assert pages.moved() == NOTHING  # not computed yet: no page shows it
    StandingsTable.objects.filter(pk=table.pk).update(computed=1, computed_at=now)
    assert pages.moved() == EVENT
    RatingsState.objects.update_or_create(league=league, defaults={"requested": 7})
    assert pages.moved() == LEAGUE
    RatingsState.objects.filter(league=league).update(replay_from_match=3)
    assert pages.moved() == NOTHING
    LeagueProjection.objects.create(league=league, runs=10)
    assert pages.moved() == LEAGUE
    LeagueProjection.objects.filter(league=league).update(version=2)
    assert pages.moved() == LEAGUE
    LeagueProjection.objects.filter(league=league).update(seconds=1.5)
    assert pages.moved() == NOTHING


def test_a_stages_table_and_projection_move_its_events_page(pages: _Pages):
    players = make_players(4)
    stage = start_stage(pages.event, "round_robin", players)
    assert pages.which() == (1, 1, 1, 0, 0)  # its rows; its tables marked, the league's too
    table = StandingsTable.objects.get(scope=StandingsScope.STAGE, scope_id=stage.pk)
    StandingsTable.objects.filter(pk=table.pk).update(computed_at=timezone.now())
    assert pages.moved() == EVENT
    StageProjection.objects.create(stage=stage, runs=10)
    assert pages.moved() == EVENT
    StageProjection.objects.filter(stage=stage).update(seed=9)
    assert pages.moved() == NOTHING
    Stage.objects.filter(pk=stage.pk).update(name="Group play")
    assert pages.moved() == PLAYED


def test_a_sign_up_moves_its_events_page_alone_and_keeps_its_deadline(pages: _Pages):
    deadline = datetime.datetime(2026, 6, 5, 18, tzinfo=datetime.UTC)
    SignUp.objects.create(event=pages.event, deadline=deadline)
    assert pages.moved() == SIGN_UP  # not the live part's version
    assert EventPage.objects.get(event=pages.event).sign_up_deadline == deadline
    SignUp.objects.filter(event=pages.event).update(cap=12)
    assert pages.moved() == NOTHING
    SignUp.objects.filter(event=pages.event).update(deadline=None, open=False)
    assert pages.moved() == SIGN_UP
    assert EventPage.objects.get(event=pages.event).sign_up_deadline is None


def test_matches_seats_analyses_and_chances_move_the_pages_that_show_them(pages: _Pages, seat):
    players = make_players(2)
    match = seat(pages.event, players)
    assert pages.which() == PLAYED
    play(match, turns=1)
    assert pages.which() == (1, 1, 1, 0, 0)  # the match in play, the event running
    play(match, turns=1)  # the turn's state alone
    assert pages.moved() == NOTHING
    MatchForecast.objects.create(match=match, version=1, model="m", players=[], chances=[])
    assert pages.moved() == EVENT  # a match in play's chances
    Seat.objects.filter(match=match).update(total=5)
    assert pages.which() == PLAYED  # (once a row here; once a transaction at a commit)
    Player.objects.filter(pk=players[0].pk).update(display_name="Renamed")
    assert pages.moved() == PLAYED
    Player.objects.filter(pk=players[0].pk).update(user=None)
    assert pages.moved() == NOTHING
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED)
    assert pages.moved() == PLAYED
    MatchForecast.objects.filter(match=match).update(seconds=2.0)
    assert pages.moved() == NOTHING  # a finished match shows no chances
    MatchAnalysis.objects.create(match=match, finished_at=timezone.now(), players=[], turns=[])
    assert pages.moved() == LEAGUE  # its players' accuracy


def test_a_new_event_or_league_has_a_page_and_a_deleted_one_none(pages: _Pages):
    league = pages.event.league
    third = Event.objects.create(league=league, name="Night 3", date="2026-06-20")
    assert pages.moved() == LEAGUE  # a new line
    assert EventPage.objects.filter(event=third).exists()
    third.delete()
    assert pages.moved() == LEAGUE
    assert not EventPage.objects.filter(event_id=third.pk).exists()
    new = League.objects.create(name="New", slug="new", game="yardkle")
    assert LeaguePage.objects.filter(league=new).exists()
    new.delete()
    assert not LeaguePage.objects.filter(league_id=new.pk).exists()
    assert pages.moved() == NOTHING


# --- At the commit -------------------------------------------------------------------------------


def _page_versions(event: Event) -> tuple[int, int, int]:
    page = EventPage.objects.get(event=event)
    return (
        LeaguePage.objects.get(league_id=event.league_id).version,
        page.version,
        page.play_version,
    )


@pytest.mark.django_db(transaction=True)
def test_a_transaction_moves_each_page_once_at_its_commit(zee_event, seat):
    match = seat(zee_event, make_players(3))
    before = _page_versions(zee_event)
    with transaction.atomic():
        Seat.objects.filter(match=match).update(total=1)  # three rows
        Match.objects.filter(pk=match.pk).update(table_label="Table 2")
        _table(
            StandingsScope.LEAGUE, zee_event.league_id, zee_event.league, computed_at=timezone.now()
        )
        _table(StandingsScope.EVENT, zee_event.pk, zee_event.league, computed_at=timezone.now())
        assert _page_versions(zee_event) == before  # nothing before the commit
    after = _page_versions(zee_event)
    assert tuple(a - b for a, b in zip(after, before, strict=True)) == (1, 1, 1)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM league_pagemark")
        assert cursor.fetchone() == (0,)  # the transaction's marks went with it


def _dsn() -> str:
    settings = connection.settings_dict
    return psycopg.conninfo.make_conninfo(
        dbname=settings["NAME"],
        user=settings["USER"] or None,
        password=settings["PASSWORD"] or None,
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
    )


@pytest.mark.django_db(transaction=True)
def test_a_commit_waiting_for_a_row_holds_no_page_lock(zee_event, seat):
    """A transaction whose commit waits for a row another holds (here a foreign key's check
    of a seat at a match a turn has locked) has marked its pages but locks none yet: the
    holder's own commit, which moves a page of the same league, goes through, and then the
    waiting one. Were the pages' locks taken as each row was marked, the two would deadlock
    (the waiting one holding the league's page lock, the holder waiting for it)."""
    league = zee_event.league
    match = seat(zee_event, make_players(2))
    player = make_players(1, prefix="Late")[0]
    table = _table(StandingsScope.LEAGUE, league.pk, league, computed_at=timezone.now())
    RatingsState.objects.create(league=league)
    before = LeaguePage.objects.get(league=league).version
    errors: list[BaseException] = []
    with psycopg.connect(_dsn()) as holder, psycopg.connect(_dsn()) as waiting:
        for each in (holder, waiting):
            each.execute("SET deadlock_timeout = '100ms'")
        holder.execute("SELECT 1 FROM games_match WHERE id = %s FOR UPDATE", [match.pk])

        def write_and_commit() -> None:
            try:
                # A row the league page shows (marked), then a seat at the locked match, whose
                # foreign key is checked at the commit: the commit waits for the holder.
                waiting.execute(
                    "UPDATE league_standingstable SET requested = requested + 1 WHERE id = %s",
                    [table.pk],
                )
                waiting.execute(
                    'INSERT INTO games_seat (match_id, player_id, "order") VALUES (%s, %s, 9)',
                    [match.pk, player.pk],
                )
                waiting.commit()
            except BaseException as error:  # reported by the test
                errors.append(error)

        thread = threading.Thread(target=write_and_commit)
        thread.start()
        thread.join(0.5)
        assert thread.is_alive()  # its commit waits for the match
        holder.execute(
            "UPDATE league_ratingsstate SET requested = requested + 1 WHERE league_id = %s",
            [league.pk],
        )
        holder.commit()  # moves the league's page: waits for nothing
        thread.join(10)
        assert not thread.is_alive()
        assert not errors, errors
    assert LeaguePage.objects.get(league=league).version == before + 2
