"""Refreshing a league's ratings (in a Celery job): a result that finishes last is rated on
top of the stored leaderboard, a withdrawn or out-of-order one replays the history from that
point (docs/standings.md, "Ratings"). Jobs of one league run one after the other."""

import logging
from datetime import UTC, datetime, timedelta

import numpy as np
import numpy.typing as npt
from django.db import connection, transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from core.copy import copy_columns
from league import rating, standings
from league.models import (
    PlayerRating,
    RatingChange,
    RatingsState,
    Scope,
    StandingsScope,
)
from league.results import finished_matches, load_results

logger = logging.getLogger(__name__)

# --- Ratings -----------------------------------------------------------------------------------


def _rated_matches(league_id: int) -> dict[int, datetime]:
    return dict(
        RatingChange.objects.filter(league_id=league_id)
        .values_list("match_id", "finished_at")
        .distinct()
    )


# The namespace of the ratings locks (`_lock_ratings`): "YLRT" as a 32-bit integer.
RATINGS_LOCK = 0x594C5254


def _lock_ratings(league_id: int) -> None:
    """Hold the league's ratings lock until the transaction ends, so that two jobs rating one
    league (a refresh, a replay) run one after the other: the second waits, then reads what
    the first stored. A PostgreSQL advisory lock keyed (RATINGS_LOCK, league id): the
    two-integer keys never meet the one-bigint ones, and the namespace keeps it apart from
    other locks; unlike a lock on the `RatingsState` row it never holds up the result that
    marks the ratings stale."""
    if not transaction.get_connection().in_atomic_block:
        raise transaction.TransactionManagementError("The ratings lock needs a transaction.")
    # objid is a 32-bit integer: a larger id wraps (ids 2**32 apart would only wait for each other).
    objid = (league_id + 2**31) % 2**32 - 2**31
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [RATINGS_LOCK, objid])


def ratings_refresh(*, league_id: int) -> bool:
    """Bring a league's ratings up to date: rate the matches finished since, in finished
    order; when a rated result was withdrawn or a match finished before one already rated,
    replay from that point on. True when anything changed. Under the league's ratings lock:
    a second refresh at the same time waits, then finds the work done (or rates only what
    finished since)."""
    if not RatingsState.objects.filter(league_id=league_id, requested__gt=F("computed")).exists():
        return False
    with transaction.atomic():
        _lock_ratings(league_id)
        # Read again under the lock: a refresh that held it may have done the work.
        state = RatingsState.objects.filter(league_id=league_id).first()
        if state is None or not state.pending:
            return False
        replay_from = (
            None
            if state.replay_from_match is None
            else standings.finish_order(state.replay_from, state.replay_from_match)
        )
        changed = _rerate(league_id, replay_from=replay_from)
        RatingsState.objects.filter(pk=state.pk, computed__lt=state.requested).update(
            computed=state.requested, computed_at=timezone.now()
        )
        if replay_from is not None:  # replayed; a result withdrawn since keeps its own mark
            RatingsState.objects.filter(pk=state.pk, requested=state.requested).update(
                replay_from=None, replay_from_match=None
            )
    return changed


def _rerate(league_id: int, *, replay_from: standings.FinishOrder | None = None) -> bool:
    """Rate what changed since the stored history: from the earliest match whose finish time
    differs from the one it was rated at (finished since, no longer finished, finished again
    at another time), or from `replay_from`, a rated result withdrawn since (it may have
    finished again at the same time: a corrected turn)."""
    finished = dict(
        finished_matches(Scope(StandingsScope.LEAGUE, league_id)).values_list("pk", "finished_at")
    )
    rated = _rated_matches(league_id)
    differing = [
        standings.finish_order(when, pk)
        for pk, when in {**finished, **rated}.items()
        if finished.get(pk) != rated.get(pk)
    ]
    if replay_from is not None:
        differing.append(replay_from)
    if not differing:
        return False
    _, start_at, start_id = min(differing)
    last_rated = max((standings.finish_order(when, pk) for pk, when in rated.items()), default=None)
    in_order = last_rated is None or last_rated < (False, start_at, start_id)
    after = Q(finished_at__gt=start_at) | Q(finished_at=start_at, match_id__gte=start_id)
    if in_order:
        base = {
            player: rating.Rating(mu, sigma)
            for player, mu, sigma in PlayerRating.objects.filter(league_id=league_id).values_list(
                "player_id", "mu", "sigma"
            )
        }
    else:
        RatingChange.objects.filter(Q(league_id=league_id) & after).delete()
        base = {}
        for player, mu, sigma in (
            RatingChange.objects.filter(league_id=league_id)
            .order_by("finished_at", "match_id")
            .values_list("player_id", "mu", "sigma")
        ):
            base[player] = rating.Rating(mu, sigma)
    results, _ = load_results((StandingsScope.LEAGUE, league_id), since=start_at)
    todo = [r for r in results if r.match_id > 0 and r.order_key >= (False, start_at, start_id)]
    replayed = rating.replay(todo, start=base)
    store_history(league_id, replayed.history)
    _store_leaderboard(league_id, {**base, **replayed.ratings}, rebuild=not in_order)
    return True


def store_history(league_id: int, history: rating.RatingHistory) -> None:
    """Add `history` to the league's stored history, its columns as they are in one binary COPY
    (`core.copy`), not a model object a row; a row of an unknown finish time gets now."""
    if not len(history):
        return
    copy_columns(
        RatingChange,
        {
            "league": np.full(len(history), league_id, dtype=np.int64),
            "player": history.player,
            "match": history.match_id,
            "finished_at": _timestamps(history),
            "mu": history.mu,
            "sigma": history.sigma,
            "ordinal": history.ordinal,
        },
    )


_UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def _timestamps(history: rating.RatingHistory) -> npt.NDArray[np.datetime64]:
    """The rows' finish times in UTC microseconds, worked out once a match (its rows follow each
    other)."""
    ids = history.match_id
    first = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
    now = timezone.now()
    micros = [
        ((when or now) - _UNIX_EPOCH) // _MICROSECOND
        for when in history.finished_at[first].tolist()
    ]
    per_match = np.array(micros, dtype=np.int64).astype("datetime64[us]")
    return np.repeat(per_match, np.diff(np.r_[first, len(ids)]))


def _store_leaderboard(league_id: int, ratings: dict[int, rating.Rating], *, rebuild: bool) -> None:
    counts = dict(
        RatingChange.objects.filter(league_id=league_id)
        .values_list("player_id")
        .annotate(n=Count("pk"))
        .values_list("player_id", "n")
    )
    if rebuild:
        PlayerRating.objects.filter(league_id=league_id).delete()
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                league_id=league_id,
                player_id=player,
                mu=value.mu,
                sigma=value.sigma,
                ordinal=value.ordinal,
                matches=counts.get(player, 0),
            )
            for player, value in ratings.items()
            if counts.get(player)
        ],
        update_conflicts=True,
        unique_fields=["league", "player"],
        update_fields=["mu", "sigma", "ordinal", "matches"],
    )


@transaction.atomic
def ratings_replay(*, league_id: int) -> None:
    """Forget a league's rating history and rate every finished match again, in order (under
    the league's ratings lock, as a refresh)."""
    _lock_ratings(league_id)
    RatingChange.objects.filter(league_id=league_id).delete()
    PlayerRating.objects.filter(league_id=league_id).delete()
    state, _ = RatingsState.objects.get_or_create(league_id=league_id)
    RatingsState.objects.filter(pk=state.pk).update(requested=F("requested") + 1)
    ratings_refresh(league_id=league_id)
