"""A player's page: their results, placements, stage finishes, ratings and play, built from
what the selectors read (`PlayerMatch`, `RatingPoint`, `LeagueRating`, `StageFinish`,
`analysis.selectors.MatchAccuracy`), with no database, into a frozen `PlayerPage` that
`league/player.html` reads."""

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import SafeString, mark_safe

from analysis.selectors import MatchAccuracy
from games.models import GameName
from league.pages.forfeits import forfeit_text
from league.pages.svg import ChartPoint, ChartSeries, rating_chart_svg
from league.selectors import (
    ForfeitVoid,
    LeagueRating,
    PlayerMatch,
    RatingPoint,
    StageFinish,
)


def result_status(
    status: str, status_text: str, player: int, forfeit: ForfeitVoid | None
) -> tuple[str, str]:
    """A match's status on a player's list of results: a match a forfeit replaced says what
    happened to this player ("withdrew", "did not show", "walkover", "replaced by #12"), not
    "void"; any other match, its own status."""
    if forfeit is None:
        return status, status_text
    if player in forfeit.forfeits:
        return "walkover", forfeit_text(forfeit.forfeits[player])
    if forfeit.replay is not None:
        return "walkover", f"replaced by #{forfeit.replay}"
    return "walkover", "walkover"


def result_line(match: PlayerMatch, *, player: int, forfeit: ForfeitVoid | None) -> PlayerMatch:
    """The match with its status as this player sees it (`result_status`)."""
    status, status_text = result_status(match.status, match.status_text, player, forfeit)
    return replace(match, status=status, status_text=status_text)


@dataclass(frozen=True, slots=True)
class Placement:
    place: int
    count: int


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """The player's rating after a rated match (`number`, counted from 1 over all leagues),
    with the name of its league ("" for one they have no rating in now)."""

    number: int
    league_name: str
    point: RatingPoint


@dataclass(frozen=True, slots=True)
class Accuracy:
    """The player's play in one `game` ("Yardzee") against the best play, over their last
    `matches` analysed matches of it: its points lost are that game's points."""

    game: str
    matches: int
    mean: float
    loss_per_game: float


@dataclass(frozen=True, slots=True)
class PlayerPage:
    results: tuple[PlayerMatch, ...]
    results_shown: int
    placements: tuple[Placement, ...]
    played: int
    finishes: tuple[StageFinish, ...]
    ratings: tuple[LeagueRating, ...]
    history: tuple[HistoryRow, ...]
    chart: SafeString | None
    accuracy_chart: SafeString | None
    # One per game the player has analysed matches of, in the order first met.
    accuracy: tuple[Accuracy, ...]


def _when(moment: datetime) -> str:
    return date_format(timezone.localtime(moment), "j M Y")


def rating_chart(
    history: Sequence[RatingPoint],
    league_names: Mapping[str, str],
    *,
    player: int,
    name: str,
) -> SafeString | None:
    """The player's rating after each rated match as an SVG line chart, one line per league;
    None without rated matches."""
    by_league: dict[str, list[ChartPoint]] = defaultdict(list)
    for number, row in enumerate(history, start=1):
        by_league[row.league].append(
            ChartPoint(
                x=number, value=row.ordinal, label=f"{_when(row.finished_at)}, match #{row.match}"
            )
        )
    series = [
        ChartSeries(label=league_names.get(slug, slug), points=tuple(points))
        for slug, points in by_league.items()
    ]
    svg = rating_chart_svg(
        series, title=f"Rating of {name} after each rated match", id_prefix=f"rating-{player}"
    )
    # Every text in the SVG is escaped by rating_chart_svg.
    return mark_safe(svg) if svg else None  # noqa: S308


def _game_label(game: str) -> str:
    return str(GameName(game).label)  # "yardzee": "Yardzee"


def _by_game(matches: Sequence[MatchAccuracy]) -> dict[str, list[MatchAccuracy]]:
    by_game: dict[str, list[MatchAccuracy]] = defaultdict(list)
    for row in matches:
        by_game[row.game].append(row)
    return by_game


def accuracy_chart(matches: Sequence[MatchAccuracy], *, player: int, name: str) -> SafeString:
    """Each analysed match's accuracy as an SVG line chart, one line per game."""
    by_game: dict[str, list[ChartPoint]] = defaultdict(list)
    for number, row in enumerate(matches, start=1):
        by_game[row.game].append(
            ChartPoint(
                x=number,
                value=row.accuracy,
                label=f"{_when(row.finished_at)}, match #{row.match}",
            )
        )
    svg = rating_chart_svg(
        [
            ChartSeries(label=_game_label(game), points=tuple(points))
            for game, points in by_game.items()
        ],
        title=f"Accuracy of {name} in each analysed match",
        id_prefix=f"accuracy-{player}",
    )
    # Every text in the SVG is escaped by rating_chart_svg.
    return mark_safe(svg)  # noqa: S308


def player_page(
    *,
    player: int,
    name: str,
    matches: Sequence[PlayerMatch],
    results_shown: int,
    forfeits: Mapping[int, ForfeitVoid],
    placements: Mapping[int, int],
    finishes: Sequence[StageFinish],
    ratings: Sequence[LeagueRating],
    history: Sequence[RatingPoint],
    analysed: Sequence[MatchAccuracy],
) -> PlayerPage:
    """The player's page from its reads: `forfeits` are the forfeit voids among `matches`,
    `placements` how often the player finished in each place, `analysed` their last analysed
    matches' accuracy, oldest first."""
    league_names = {rating.league: rating.league_name for rating in ratings}
    return PlayerPage(
        results=tuple(
            result_line(match, player=player, forfeit=forfeits.get(match.match))
            for match in matches
        ),
        results_shown=results_shown,
        placements=tuple(Placement(place, count) for place, count in placements.items()),
        played=sum(placements.values()),
        finishes=tuple(finishes),
        ratings=tuple(ratings),
        history=tuple(
            HistoryRow(number=number, league_name=league_names.get(row.league, ""), point=row)
            for number, row in enumerate(history, start=1)
        ),
        chart=rating_chart(history, league_names, player=player, name=name),
        accuracy_chart=accuracy_chart(analysed, player=player, name=name) if analysed else None,
        accuracy=tuple(
            Accuracy(
                game=_game_label(game),
                matches=len(rows),
                mean=sum(row.accuracy for row in rows) / len(rows),
                loss_per_game=sum(row.total_loss for row in rows) / len(rows),
            )
            for game, rows in _by_game(analysed).items()
        ),
    )
