"""Rating matches with OpenSkill's Plackett-Luce model, in the order they finished
(docs/standings.md, "Ratings").

Every match is a free-for-all of its seats ranked by effective placement (ties share a rank,
forfeits take the last place). Ratings depend on the order matches are applied, so a match that
finishes out of order, or a result undone, means replaying from that match on: take the ratings
before it from the stored history (`ratings_before`) and `replay` the matches from it."""

from collections.abc import Iterable, Mapping

from openskill.models import PlackettLuce, PlackettLuceRating

from league.rating.model import LeaderboardEntry, Rating, RatingChange, RatingReplay, RatingSettings
from league.standings.model import MatchResult, PlayerId, check_result, effective_placements

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
    model = settings.model()
    current = {
        seat.player: _openskill(model, ratings.get(seat.player, settings.initial))
        for seat in match.seats
    }
    return _apply(model, match, current)


def replay(
    matches: Iterable[MatchResult],
    *,
    start: Mapping[PlayerId, Rating] | None = None,
    settings: RatingSettings = DEFAULT_SETTINGS,
) -> RatingReplay:
    """Rate `matches` one by one in the order they finished (`MatchResult.order_key`), whatever
    order they are given in; a match id given twice is rated once. `start` holds the ratings
    before the first of them (empty or None: everyone starts new)."""
    unique: dict[int, MatchResult] = {}
    for match in matches:
        unique.setdefault(match.match_id, match)
    ordered = sorted(unique.values(), key=lambda match: match.order_key)
    for match in ordered:
        check_result(match)  # all checked first: a bad row fails the replay before any work
    model = settings.model()
    current = {player: _openskill(model, rating) for player, rating in (start or {}).items()}
    history: list[RatingChange] = []
    for match in ordered:
        for seat in match.seats:
            if seat.player not in current:
                current[seat.player] = model.rating()
        history.extend(_apply(model, match, current))
    ratings = {player: Rating(rating.mu, rating.sigma) for player, rating in current.items()}
    return RatingReplay(ratings=ratings, history=tuple(history))


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


def _openskill(model: PlackettLuce, rating: Rating) -> PlackettLuceRating:
    return model.rating(mu=rating.mu, sigma=rating.sigma)


def _apply(
    model: PlackettLuce, match: MatchResult, current: dict[PlayerId, PlackettLuceRating]
) -> tuple[RatingChange, ...]:
    """Rate one match from `current` (which must hold every seat) and update `current`."""
    if all(seat.forfeited for seat in match.seats):
        return ()
    placements = effective_placements(match)
    players = [seat.player for seat in match.seats]
    teams = model.rate(
        [[current[player]] for player in players], ranks=[float(place) for place in placements]
    )
    rows = []
    for player, place, (rating,) in zip(players, placements, teams, strict=True):
        current[player] = rating
        rows.append(
            RatingChange(
                match_id=match.match_id,
                finished_at=match.finished_at,
                player=player,
                placement=place,
                mu=rating.mu,
                sigma=rating.sigma,
                ordinal=rating.ordinal(),
            )
        )
    return tuple(rows)
