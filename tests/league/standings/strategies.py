"""Hypothesis strategies: random small leagues of finished matches, byes and points schemes."""

from dataclasses import dataclass
from datetime import timedelta

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from league.standings import Bye, LeaguePoints, MatchResult, SeatResult
from tests.league.standings.results import EPOCH

# Modest counts: the machine is shared and the suite must stay fast.
PROPERTIES = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ORDERS = st.sampled_from(
    [
        ["points", "head_to_head", "buchholz", "median_buchholz", "wins", "best_score"],
        ["wins", "points", "average_score", "total_score"],
        ["head_to_head", "points"],
        ["points", "buchholz", "head_to_head"],
    ]
)


@dataclass(frozen=True)
class League:
    game: str
    results: list[MatchResult]
    byes: list[Bye]
    points: LeaguePoints


@st.composite
def match_results(
    draw: st.DrawFn, match_id: int, players: list[int], *, table_sizes: tuple[int, int] = (2, 5)
) -> MatchResult:
    """A finished match of 2 to 5 distinct players; placements from the scores (ties share),
    now and then a forfeit; finish times that sometimes coincide."""
    size = draw(st.integers(*table_sizes))
    seated = draw(st.permutations(players))[:size]
    scores = [draw(st.integers(0, 12)) * 25 for _ in seated]
    seats = tuple(
        SeatResult(
            player=player,
            placement=1 + sum(1 for other in scores if other > score),
            score=score,
            forfeited=draw(st.integers(0, 9)) == 0,
            yardzees=draw(st.integers(0, 2)),
            upper_bonus=draw(st.integers(0, 1)),
            yardkles=draw(st.integers(0, 4)),
        )
        for player, score in zip(seated, scores, strict=True)
    )
    minute = draw(st.integers(0, 40))
    return MatchResult(
        match_id=match_id,
        seats=seats,
        round=minute // 10 + 1,
        finished_at=EPOCH + timedelta(minutes=minute),
    )


points_schemes = st.one_of(
    st.just(LeaguePoints()),
    st.builds(
        lambda pair, tables: LeaguePoints(
            win=pair[0], draw=pair[1], loss=pair[2], placement=tables
        ),
        st.lists(st.sampled_from([0, 0.5, 1, 2, 3]), min_size=3, max_size=3).map(
            lambda values: sorted(values, reverse=True)
        ),
        st.fixed_dictionaries(
            {
                size: st.lists(st.integers(0, 10), min_size=size, max_size=size).map(
                    lambda values: tuple(sorted(values, reverse=True))
                )
                for size in (3, 4, 5)
            }
        ),
    ),
)


@st.composite
def leagues(draw: st.DrawFn, *, max_matches: int = 18) -> League:
    players = list(range(1, draw(st.integers(2, 8)) + 1))
    count = draw(st.integers(0, max_matches))
    results = [draw(match_results(match_id, players)) for match_id in range(1, count + 1)]
    byes = draw(
        st.lists(
            st.builds(
                Bye,
                player=st.sampled_from(players),
                round=st.integers(1, 4),
                table_size=st.integers(2, 5),
                stage=st.sampled_from([None, 1, 2]),
            ),
            max_size=3,
            unique_by=lambda bye: bye.key,
        )
    )
    return League(
        game=draw(st.sampled_from(["yardzee", "yardkle"])),
        results=results,
        byes=byes,
        points=draw(points_schemes),
    )
