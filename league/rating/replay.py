"""Rating matches with OpenSkill's Plackett-Luce model, in the order they finished
(docs/standings.md, "Ratings").

Every match is a free-for-all of its seats ranked by effective placement (ties share a rank,
forfeits take the last place). Ratings depend on the order matches are applied, so a match that
finishes out of order, or a result undone, means replaying from that match on: take the ratings
before it from the stored history (`ratings_before`) and `replay` the matches from it."""

import gc
from collections.abc import Iterable, Mapping
from operator import attrgetter

import numpy as np

from league.rating.model import LeaderboardEntry, Rating, RatingChange, RatingReplay, RatingSettings
from league.rating.plackett_luce import PlackettLuceConstants, straight_line
from league.rating.tables import RatedTables
from league.standings.model import MatchResult, PlayerId, check_result

DEFAULT_SETTINGS = RatingSettings()


def rate_match(
    match: MatchResult,
    ratings: Mapping[PlayerId, Rating],
    *,
    settings: RatingSettings = DEFAULT_SETTINGS,
) -> tuple[RatingChange, ...]:
    """The history rows of one match, from its players' `ratings` before it (a player not in
    `ratings` starts at the settings' initial rating). Empty when every seat forfeited: such a
    match says nothing about skill and is not rated."""
    check_result(match)
    start = {seat.player: ratings[seat.player] for seat in match.seats if seat.player in ratings}
    return tuple(replay([match], start=start, settings=settings).history)


def replay(
    matches: Iterable[MatchResult],
    *,
    start: Mapping[PlayerId, Rating] | None = None,
    settings: RatingSettings = DEFAULT_SETTINGS,
) -> RatingReplay:
    """Rate `matches` one by one in the order they finished (`MatchResult.order_key`), whatever
    order they are given in; a match id given twice is rated once. `start` holds the ratings
    before the first of them (empty or None: everyone starts new).

    The same floats as OpenSkill's `PlackettLuce.rate` on each match in turn (docs/standings.md,
    "Our own arithmetic"): what does not depend on ratings is worked out for all matches at once
    (`RatedTables`), then each match is one call of its shape's unrolled update."""
    # No cyclic garbage collection inside: a replay makes two objects a seat that live until it
    # ends (the rows and their columns) and none that form cycles, yet every so many of them the
    # collector would walk the whole heap again, a third of the replay's time for nothing. Paused
    # before this call makes any object, so that it does not start with the collector catching
    # up on what came before it.
    collecting = gc.isenabled()
    gc.disable()
    try:
        ordered = _in_finish_order(matches)
        start = start or {}
        model = PlackettLuceConstants.of(settings)
        tables = RatedTables(ordered, start)  # checks every match first: a bad one fails here
        # OpenSkill holds mu and sigma as floats: a start given in ints comes back in floats.
        mus = [float(start[p].mu) if p in start else model.mu for p in tables.numbered]
        sigmas = [float(start[p].sigma) if p in start else model.sigma for p in tables.numbered]
        shapes = [straight_line(shape, model) for shape in tables.shapes]
        updates = [shapes[k] for k in tables.shape_of]
        after = [
            update(mus, sigmas, seated)
            for update, seated in zip(updates, tables.seated, strict=True)
        ]
        ratings = {
            player: Rating(mu, sigma)
            for player, mu, sigma in zip(tables.numbered, mus, sigmas, strict=True)
        }
        return RatingReplay(ratings=ratings, history=tables.history(after))
    finally:
        if collecting:
            gc.enable()


def ratings_before(history: Iterable[RatingChange], match: MatchResult) -> dict[PlayerId, Rating]:
    """Every player's latest rating from `history` (rows in any order) from before `match` in
    finish order: where a replay from `match` starts."""
    cutoff = match.order_key
    latest: dict[PlayerId, RatingChange] = {}
    for row in history:
        key = row.order_key
        if key < cutoff:
            seen = latest.get(row.player)
            if seen is None or seen.order_key < key:
                latest[row.player] = row
    return {player: row.rating for player, row in latest.items()}


def leaderboard(ratings: Mapping[PlayerId, Rating]) -> tuple[LeaderboardEntry, ...]:
    """The players by ordinal, highest first; equal ordinals share the rank (1, 1, 3) and are
    listed by player id."""
    ordered = sorted(ratings.items(), key=lambda item: (-item[1].ordinal, item[0]))
    entries: list[LeaderboardEntry] = []
    for position, (player, rating) in enumerate(ordered):
        tied = entries and entries[-1].ordinal == rating.ordinal
        rank = entries[-1].rank if tied else position + 1
        entries.append(LeaderboardEntry(rank, player, rating.mu, rating.sigma, rating.ordinal))
    return tuple(entries)


def _in_finish_order(matches: Iterable[MatchResult]) -> list[MatchResult]:
    """`matches` sorted by `MatchResult.order_key`, the first of each match id only: by finish
    time, equal times by match id, unknown times last (two stable sorts on plain attributes
    rather than a key tuple per match: a third of the time)."""
    given = list(matches)
    # The first of each match id, by id (np.unique: the index where each id first comes).
    _, first = np.unique(
        np.fromiter(map(_MATCH_ID, given), np.int64, len(given)), return_index=True
    )
    by_id = [given[k] for k in first.tolist()]
    times = list(map(_FINISHED_AT, by_id))
    if None not in times:
        return sorted(by_id, key=_FINISHED_AT)
    timed = [match for match in by_id if match.finished_at is not None]
    timed.sort(key=_FINISHED_AT)
    return timed + [match for match in by_id if match.finished_at is None]


_FINISHED_AT = attrgetter("finished_at")
_MATCH_ID = attrgetter("match_id")
