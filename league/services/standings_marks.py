"""Marking what a change makes stale, in the transaction that changes it: the standings
tables a result, a rename or new league settings move, and the league's ratings. Each mark is a
counter bump that survives a broker outage; the refresh jobs are enqueued on commit
(`league.services.jobs`) and beat's sweep catches up on anything left (docs/standings.md)."""

import logging
from collections.abc import Collection, Iterable
from typing import Any

from django.contrib.postgres.fields import ArrayField
from django.db.models import BigIntegerField, F, Q
from django.db.models.expressions import RawSQL

from games.models import Match, Seat
from league.models import (
    Event,
    PlayerRating,
    RatingChange,
    RatingsState,
    Scope,
    ScopeKey,
    Stage,
    StageBye,
    StageEntry,
    StageForfeit,
    StageMatch,
    StandingsScope,
    StandingsTable,
)
from league.services import jobs

logger = logging.getLogger(__name__)

# --- Which tables a match moves -----------------------------------------------------------------


def scopes_of_match(match: Match) -> list[ScopeKey]:
    """The standings tables a match's result counts in: its stage's, its event's, its league's."""
    if match.event_id is None:
        return []
    stage_id = Stage.objects.filter(stage_matches__match=match).values_list("pk", flat=True).first()
    league_id = Event.objects.filter(pk=match.event_id).values_list("league_id", flat=True).get()
    scopes: list[ScopeKey] = [
        (StandingsScope.EVENT, match.event_id),
        (StandingsScope.LEAGUE, league_id),
    ]
    if stage_id is not None:
        scopes.insert(0, (StandingsScope.STAGE, stage_id))
    return scopes


# The matches a mark brings appended to the table's list, unless the list is unknown (None).
_APPEND = (
    "CASE WHEN pending_matches IS NULL THEN NULL ELSE array_cat(pending_matches, %s::bigint[]) END"
)


def standings_mark(
    scopes: Iterable[ScopeKey],
    *,
    rebuild: bool = False,
    match_ids: Collection[int] | None = None,
) -> list[int]:
    """Record that these tables are out of date (creating them if new) and enqueue their
    refresh once the surrounding transaction commits. The record is durable even when the
    broker is down: the beat sweep finds it. `rebuild`: the change takes something away (a
    withdrawn result, another points scheme), so the next refresh counts from scratch.

    `match_ids`: the only finished results the change brings (none for a bye, a walkover or an
    entrant, which a refresh reads whole), appended to the table's `pending_matches`, so that
    the refresh counts exactly those. None (a change that does not say): the next refresh
    compares every finished match of the scope with those it counted."""
    marks: dict[str, Any] = {"requested": F("requested") + 1}
    if rebuild:
        marks["rebuild_from"] = F("requested") + 1
    if match_ids is None:
        marks["pending_matches"] = None
    elif match_ids:
        marks["pending_matches"] = RawSQL(  # noqa: S611 (constant SQL)
            _APPEND, (list(match_ids),), output_field=ArrayField(BigIntegerField())
        )
    table_ids = []
    for kind, scope_id in scopes:
        table = StandingsTable.objects.filter(scope=kind, scope_id=scope_id)
        if not table.update(**marks):
            _, created = StandingsTable.objects.get_or_create(
                scope=kind,
                scope_id=scope_id,
                defaults={"league_id": Scope(kind, scope_id).league_id()},
            )
            if not created:
                # Another transaction created it while this one waited on its insert: mark it
                # too, or a refresh run between the two commits would miss this change.
                table.update(**marks)
        table_ids.append(
            StandingsTable.objects.values_list("pk", flat=True).get(scope=kind, scope_id=scope_id)
        )
    for table_id in table_ids:
        jobs.enqueue_once_on_commit(jobs.STANDINGS_REFRESH, table_id)
    return table_ids


def league_settings_changed(*, league_id: int) -> None:
    """The league's tiebreak order or points changed: every table of it is stale, and its
    tally is counted again (points are part of it)."""
    standings_mark(
        StandingsTable.objects.filter(league_id=league_id).values_list("scope", "scope_id"),
        rebuild=True,
    )


def ratings_mark(league_id: int, *, withdrawn: int | None = None) -> None:
    """Record that a league's ratings are out of date and enqueue their refresh on commit.
    `withdrawn`: the id of a match whose result stopped counting; if it was rated, the refresh
    replays from it (`RatingsState.replay_from`), even when it finishes again at the same time
    with another result (a corrected turn)."""
    state = RatingsState.objects.filter(league_id=league_id)
    if not state.update(requested=F("requested") + 1):
        _, created = RatingsState.objects.get_or_create(league_id=league_id)
        if not created:  # created meanwhile by another transaction: mark it (standings_mark)
            state.update(requested=F("requested") + 1)
    rated_at = (
        None
        if withdrawn is None
        else RatingChange.objects.filter(league_id=league_id, match_id=withdrawn)
        .values_list("finished_at", flat=True)
        .first()
    )
    if rated_at is not None:  # only ever moved earlier, in one statement (two at once agree)
        state.filter(
            Q(replay_from=None)
            | Q(replay_from__gt=rated_at)
            | Q(replay_from=rated_at, replay_from_match__gt=withdrawn)
        ).update(replay_from=rated_at, replay_from_match=withdrawn)
    jobs.enqueue_once_on_commit(jobs.RATINGS_REFRESH, league_id)


def result_changed(match: Match, *, withdrawn: bool = False) -> None:
    """A match's result started (`withdrawn=False`) or stopped counting: its tables and ratings
    are stale. A withdrawn result cannot be subtracted from a tally: its tables are rebuilt."""
    scopes = scopes_of_match(match)
    # A withdrawn result leaves the tables' lists of new results unknown: were its rebuild mark
    # lost, the refresh would still compare every finished match and count afresh.
    standings_mark(scopes, rebuild=withdrawn, match_ids=None if withdrawn else (match.pk,))
    for kind, scope_id in scopes:
        if kind == StandingsScope.LEAGUE:
            ratings_mark(scope_id, withdrawn=match.pk if withdrawn else None)


def stages_of_player(player_id: int) -> set[int]:
    """The stages a player takes part in: entered, seated at one of its matches, given a bye
    or a forfeit."""
    return (
        set(StageEntry.objects.filter(player_id=player_id).values_list("stage_id", flat=True))
        | set(StageBye.objects.filter(player_id=player_id).values_list("stage_id", flat=True))
        | set(
            StageForfeit.objects.filter(player_id=player_id).values_list(
                "stage_match__stage_id", flat=True
            )
        )
        | set(
            StageMatch.objects.filter(match__seats__player_id=player_id).values_list(
                "stage_id", flat=True
            )
        )
    )


def _tables_listing(player_id: int) -> list[int]:
    """The standings tables that can list a player: of a stage they take part in, of an event
    they played at (in a stage or not), of those events' leagues."""
    stage_ids = stages_of_player(player_id)
    event_ids = set(
        Seat.objects.filter(player_id=player_id, match__event__isnull=False).values_list(
            "match__event_id", flat=True
        )
    ) | set(Stage.objects.filter(pk__in=stage_ids).values_list("event_id", flat=True))
    league_ids = set(Event.objects.filter(pk__in=event_ids).values_list("league_id", flat=True))
    return list(
        StandingsTable.objects.filter(
            Q(scope=StandingsScope.STAGE, scope_id__in=stage_ids)
            | Q(scope=StandingsScope.EVENT, scope_id__in=event_ids)
            | Q(scope=StandingsScope.LEAGUE, scope_id__in=league_ids)
        ).values_list("pk", flat=True)
    )


def player_renamed(*, player_id: int) -> None:
    """A player's display name changed: mark every standings table that can list them and
    every league leaderboard that rates them, so that their next refresh shows the new name
    (a table stores each row's name; a leaderboard's rendering is kept per computed version).
    Call it in the transaction that saves the name: the refresh jobs run once it commits.

    A table can list a player whose scope (a stage, its event, their league) has them entered,
    seated, given a bye or a forfeit; a table no longer listing them costs one refresh more.
    The refresh writes every line again (a name is in the line, and a refresh after results
    writes only the lines they change), so it counts the table afresh."""
    table_ids = _tables_listing(player_id)
    StandingsTable.objects.filter(pk__in=table_ids).update(
        requested=F("requested") + 1, rebuild_from=F("requested") + 1
    )
    for table_id in table_ids:
        jobs.enqueue_once_on_commit(jobs.STANDINGS_REFRESH, table_id)
    for league_id in PlayerRating.objects.filter(player_id=player_id).values_list(
        "league_id", flat=True
    ):
        ratings_mark(league_id)


def player_merged(*, removed_id: int) -> list[int]:
    """Another player takes over the results of player `removed_id` (duplicates merged): every
    table that lists the removed player is counted again from scratch (its tally holds them as
    a player of their own), and every league that rated them forgets its ratings and rates its
    results again from the first (the two histories become one, so no stored rating after
    the removed player's first match holds). Call it in the merging transaction, before the
    results move; the jobs run once it commits. The leagues that rate again, by id."""
    table_ids = _tables_listing(removed_id)
    StandingsTable.objects.filter(pk__in=table_ids).update(
        requested=F("requested") + 1, rebuild_from=F("requested") + 1
    )
    for table_id in table_ids:
        jobs.enqueue_once_on_commit(jobs.STANDINGS_REFRESH, table_id)
    league_ids = sorted(
        set(RatingChange.objects.filter(player_id=removed_id).values_list("league_id", flat=True))
        | set(PlayerRating.objects.filter(player_id=removed_id).values_list("league_id", flat=True))
    )
    # A ratings refresh rates what it has not rated yet on top of what it has: with nothing
    # stored, it rates every finished match of the league, in order.
    RatingChange.objects.filter(league_id__in=league_ids).delete()
    PlayerRating.objects.filter(league_id__in=league_ids).delete()
    for league_id in league_ids:
        ratings_mark(league_id)
    return league_ids
