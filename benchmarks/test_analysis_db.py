"""Play analysis in the product (issue 19, "Benchmarks"), measured side by side in one run:

- the analysis job end to end for a 4-player Yardzee match (read the match and its 52 turns,
  analyse them with the memory-mapped table, store the analysis), against a floor of the same
  reads and write without the analysis;
- `POST /api/v1/advice/` through the Django stack, median and p99, against a floor request
  that does no work (`GET /api/v1/` ... the API root) in the same process.

`make bench PYTEST_ARGS='-k test_analysis_db'`, on DATABASE_URL's PostgreSQL or the embedded one.
"""

import statistics
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from analysis import services, strategies
from analysis.models import MatchAnalysis
from games import services as game_services
from games.models import Match
from league.models import Player
from scoring import simulate
from scoring.analysis import Strategy
from scoring.yardzee import YardzeeGame, YardzeeRules

pytestmark = pytest.mark.django_db

TURNS = simulate.play_game(YardzeeGame(players=4), seed=2024)
REQUESTS = 300


@pytest.fixture(scope="module")
def table_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("strategy")
    Strategy.build(YardzeeRules()).save(directory)
    return directory


@pytest.fixture
def tables(settings, table_dir: Path):
    settings.STRATEGY_DIR = table_dir
    strategies.forget()
    strategies.yardzee_strategy({})  # loaded once per process, as a worker does
    yield
    strategies.forget()


@pytest.fixture
def finished_match(tables) -> Match:
    players = [Player.objects.create(display_name=f"B{i}", handle=f"b{i}") for i in range(4)]
    match = game_services.match_create(game="yardzee", player_ids=[p.pk for p in players])
    game_services.result_submit(match_id=match.pk, turns=TURNS)
    return Match.objects.get(pk=match.pk)


def test_analysis_job_of_a_4_player_yardzee_match(benchmark, finished_match):
    """Load, analyse, store: the job's body, the stored analysis deleted between rounds."""

    def job() -> None:
        MatchAnalysis.objects.filter(match=finished_match).delete()
        assert services.match_analyse(match_id=finished_match.pk) is not None

    benchmark.pedantic(job, rounds=20, iterations=1, warmup_rounds=2)


def test_analysis_job_floor_the_same_reads_and_write(benchmark, finished_match):
    """The job's database work alone: read the match, its seats and turns, write a row."""

    def floor() -> None:
        MatchAnalysis.objects.filter(match=finished_match).delete()
        match = Match.objects.get(pk=finished_match.pk)
        list(match.seats.order_by("order").values_list("player_id", flat=True))
        list(match.turns.order_by("sequence").values_list("payload", flat=True))
        MatchAnalysis.objects.create(
            match=match, finished_at=match.finished_at, players=[], turns=[]
        )

    benchmark.pedantic(floor, rounds=20, iterations=1, warmup_rounds=2)


ADVICE = {
    "game": "yardzee",
    "filled": {"aces": 3, "chance": 22},
    "dice": [3, 3, 3, 5, 6],
    "rolls_left": 2,
}


def _p99(benchmark: Any) -> float:
    data: list[float] = benchmark.stats.stats.data
    return statistics.quantiles(data, n=100)[98]


@pytest.fixture
def unthrottled(settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "advice": "1000000/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


def test_advice_request(benchmark, tables, unthrottled, capsys):
    """POST advice/ through the whole Django stack in this process (median and p99)."""
    client = APIClient()

    def ask() -> None:
        assert client.post("/api/v1/advice/", ADVICE, format="json").status_code == 200

    benchmark.pedantic(ask, rounds=REQUESTS, iterations=1, warmup_rounds=10)
    with capsys.disabled():
        print(f"\nadvice p99: {_p99(benchmark) * 1000:.2f} ms")


def test_advice_floor_the_api_root(benchmark, capsys):
    """The floor beside it: GET /api/v1/ (the API root), the same stack doing no work."""
    client = APIClient()

    def floor() -> None:
        assert client.get("/api/v1/").status_code == 200

    benchmark.pedantic(floor, rounds=REQUESTS, iterations=1, warmup_rounds=10)
    with capsys.disabled():
        print(f"\nfloor p99: {_p99(benchmark) * 1000:.2f} ms")
