"""Our Plackett-Luce arithmetic gives OpenSkill's floats, bit for bit (docs/standings.md,
"Our own arithmetic"): every history row and final rating of a replay equals what OpenSkill's
own `PlackettLuce.rate` loop gives over the same matches, compared with == and by their bits."""

import random
from datetime import UTC, datetime, timedelta
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuceRating

from league.rating import Rating, RatingSettings, rate_match, replay
from league.rating.plackett_luce import PlackettLuceConstants, rate_free_for_all, straight_line
from league.standings import MatchResult, SeatResult, StandingsError, effective_placements
from tests.league.standings.strategies import PROPERTIES, League, leagues

SETTINGS = [
    RatingSettings(),
    RatingSettings(limit_sigma=True),
    # A small beta and a large kappa: the variance floor is reached; no tau.
    RatingSettings(mu=1500.0, sigma=500.0, beta=2.0, kappa=0.3, tau=0.0),
]

Row = tuple[int, datetime | None, int, int, float, float, float]


def openskill_replay(
    matches: list[MatchResult], start: dict[int, Rating], settings: RatingSettings
) -> tuple[list[Row], dict[int, tuple[float, float]]]:
    """OpenSkill's own loop, as a user of it writes it: the history rows and final ratings."""
    model = settings.model()
    unique: dict[int, MatchResult] = {}
    for match in matches:
        unique.setdefault(match.match_id, match)
    current: dict[int, PlackettLuceRating] = {
        player: model.rating(mu=rating.mu, sigma=rating.sigma) for player, rating in start.items()
    }
    rows: list[Row] = []
    for match in sorted(unique.values(), key=lambda match: match.order_key):
        players = [seat.player for seat in match.seats]
        for player in players:
            current.setdefault(player, model.rating())
        if all(seat.forfeited for seat in match.seats):
            continue
        places = effective_placements(match)
        teams = model.rate(
            [[current[player]] for player in players], ranks=[float(place) for place in places]
        )
        for player, place, (rating,) in zip(players, places, teams, strict=True):
            current[player] = rating
            rows.append(
                (
                    match.match_id,
                    match.finished_at,
                    player,
                    place,
                    rating.mu,
                    rating.sigma,
                    rating.ordinal(),
                )
            )
    return rows, {player: (rating.mu, rating.sigma) for player, rating in current.items()}


def bits(values: object) -> object:
    """Floats by their bits (-0.0 is not 0.0 here), anything else as it is."""
    if isinstance(values, float):
        return values.hex()
    if isinstance(values, tuple | list):
        return [bits(value) for value in values]
    if isinstance(values, dict):
        return {key: bits(value) for key, value in values.items()}
    return values


def assert_same_as_openskill(
    matches: list[MatchResult], start: dict[int, Rating], settings: RatingSettings
) -> None:
    expected_rows, expected_ratings = openskill_replay(matches, start, settings)
    done = replay(matches, start=start, settings=settings)
    rows = [
        (row.match_id, row.finished_at, row.player, row.placement, row.mu, row.sigma, row.ordinal)
        for row in done.history
    ]
    ratings = {player: (rating.mu, rating.sigma) for player, rating in done.ratings.items()}
    assert rows == expected_rows
    assert ratings == expected_ratings
    assert list(ratings) == list(expected_ratings)  # the same players in the same order
    assert bits(rows) == bits(expected_rows)
    assert bits(ratings) == bits(expected_ratings)


def random_league(seed: int, *, matches: int = 300, players: int = 14) -> list[MatchResult]:
    """Tables of 2 to 5, close scores (many shared places), forfeits in one seat of 8, now and
    then a table everyone forfeited, equal and unknown finish times, a match id given twice."""
    rng = random.Random(seed)
    epoch = datetime(2026, 3, 1, tzinfo=UTC)
    league = []
    for match_id in rng.sample(range(1, 10 * matches), matches):
        seated = rng.sample(range(1, players + 1), rng.randint(2, 5))
        scores = [rng.randint(0, 4) for _ in seated]
        everyone = rng.randrange(30) == 0
        seats = tuple(
            SeatResult(
                player=player,
                placement=1 + sum(1 for other in scores if other > score),
                score=score,
                forfeited=everyone or rng.randrange(8) == 0,
            )
            for player, score in zip(seated, scores, strict=True)
        )
        league.append(
            MatchResult(
                match_id=match_id,
                seats=seats,
                finished_at=epoch + timedelta(minutes=rng.randrange(matches // 2)),
            )
        )
    league += rng.sample(league, 5)  # given twice: rated once
    return league


@pytest.mark.parametrize("settings", SETTINGS, ids=["defaults", "limit_sigma", "floor"])
@pytest.mark.parametrize("seed", range(6))
def test_a_replay_is_openskills_own_loop_bit_for_bit(seed: int, settings: RatingSettings):
    league = random_league(seed)
    rng = random.Random(seed)
    # Returning players with a history (some of whom do not play) and new players.
    start = {
        player: Rating(rng.uniform(0.8, 1.2) * settings.mu, rng.uniform(0.1, 1) * settings.sigma)
        for player in rng.sample(range(1, 30), 10)
    }
    assert_same_as_openskill(league, start, settings)


def test_unknown_finish_times_and_ints_in_the_start_are_rated_as_openskill_does():
    league = [
        MatchResult(match_id=match.match_id, seats=match.seats, finished_at=None)
        for match in random_league(11, matches=80)
    ]
    assert_same_as_openskill(league, {1: Rating(30, 5), 99: Rating(20, 2)}, RatingSettings())
    assert replay(league, start={99: Rating(20, 2)}).ratings[99] == Rating(20.0, 2.0)


@PROPERTIES
@given(leagues(), st.sampled_from(SETTINGS))
def test_random_leagues_are_rated_as_openskills_own_loop(league: League, settings: RatingSettings):
    assert_same_as_openskill(league.results, {}, settings)


def test_a_league_where_every_seat_forfeited_rates_nothing_but_knows_its_players():
    everyone = (SeatResult(1, 1, 10, forfeited=True), SeatResult(2, 2, 5, forfeited=True))
    league = [MatchResult(match_id=1, seats=everyone, finished_at=None)]
    assert_same_as_openskill(league, {}, RatingSettings())
    assert replay(league).ratings == {1: Rating(25.0, 25 / 3), 2: Rating(25.0, 25 / 3)}
    assert tuple(replay(league).history) == ()


def all_shapes(size: int) -> list[tuple[int, ...]]:
    """Every way `size` places fall into groups of equal rank, best first."""
    shapes = []
    for shares in product([False, True], repeat=size - 1):
        groups = [1]
        for shared in shares:
            if shared:
                groups[-1] += 1
            else:
                groups.append(1)
        shapes.append(tuple(groups))
    return shapes


@pytest.mark.parametrize("shape", [shape for size in range(2, 6) for shape in all_shapes(size)])
def test_every_shapes_unrolled_update_is_openskills_and_the_loops(shape: tuple[int, ...]):
    rng = random.Random(str(shape))
    for settings in SETTINGS:
        model = settings.model()
        constants = PlackettLuceConstants.of(settings)
        ranks = [rank for rank, size in enumerate(shape, start=1) for _ in range(size)]
        for _ in range(40):
            mus = [rng.uniform(0.5, 1.5) * settings.mu for _ in ranks]
            sigmas = [rng.uniform(0.05, 1.2) * settings.sigma for _ in ranks]
            teams = model.rate(
                [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in zip(mus, sigmas, strict=True)],
                ranks=[float(rank) for rank in ranks],
            )
            expected = [value for (rating,) in teams for value in (rating.mu, rating.sigma)]
            held_mus, held_sigmas = list(mus), list(sigmas)
            unrolled = straight_line(shape, constants)(
                held_mus, held_sigmas, list(range(len(ranks)))
            )
            looped_mus, looped_sigmas = rate_free_for_all(mus, sigmas, ranks, constants)
            assert bits(list(unrolled)) == bits(expected)
            assert bits(held_mus) == bits(expected[0::2])
            assert bits(held_sigmas) == bits(expected[1::2])
            assert bits(looped_mus) == bits(expected[0::2])
            assert bits(looped_sigmas) == bits(expected[1::2])


def test_a_shared_place_is_not_averaged_as_the_paper_says_but_as_openskill_does():
    # OpenSkill averages tied teams' mu changes over ratings it has already updated in place,
    # so the average is 0 and tied players keep their own changes: so do we.
    before = {1: Rating(30.0, 3.0), 2: Rating(20.0, 8.0), 3: Rating(25.0, 5.0)}
    match = MatchResult(
        match_id=1,
        seats=(SeatResult(1, 1, 10), SeatResult(2, 1, 10), SeatResult(3, 3, 0)),
        finished_at=None,
    )
    rows = {row.player: row for row in rate_match(match, before)}
    assert rows[1].mu - before[1].mu != rows[2].mu - before[2].mu
    assert_same_as_openskill([match], before, RatingSettings())


@pytest.mark.parametrize(
    "seats",
    [
        (SeatResult(1, 1, 0),),
        (SeatResult(1, 1, 0), SeatResult(1, 2, 0)),
        (SeatResult(1, 1, 0), SeatResult(2, 3, 0)),
        (SeatResult(1, 0, 0), SeatResult(2, 1, 0)),
    ],
    ids=["one_seat", "a_player_twice", "placement_past_the_table", "placement_zero"],
)
def test_a_malformed_match_anywhere_fails_the_replay_with_check_results_error(seats):
    good = random_league(3, matches=20)
    bad = MatchResult(match_id=10_000, seats=seats, finished_at=None)
    with pytest.raises(StandingsError) as raised:
        replay([*good, bad])
    assert raised.value.code == "invalid_result"
    assert "10000" in str(raised.value)


@pytest.mark.parametrize("size", [7, 40])
def test_tables_wider_than_five_are_rated_as_openskill_does(size: int):
    # 7 seats: shapes coded as numbers; 40: past what one number holds.
    rng = random.Random(size)
    league = []
    for match_id in range(1, 7):
        scores = [rng.randint(0, size // 3) for _ in range(size)]
        seats = tuple(
            SeatResult(
                player=player,
                placement=1 + sum(1 for other in scores if other > score),
                score=score,
                forfeited=rng.randrange(10) == 0,
            )
            for player, score in zip(rng.sample(range(1, 60), size), scores, strict=True)
        )
        league.append(MatchResult(match_id=match_id, seats=seats, finished_at=None))
    league.append(
        MatchResult(match_id=99, seats=(SeatResult(1, 1, 5), SeatResult(2, 2, 3)), finished_at=None)
    )
    assert_same_as_openskill(league, {}, RatingSettings())
