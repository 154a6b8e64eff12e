"""The forecast job (issue 39's live win probability; issue 41's open loop), measured side by
side with the turn that triggers it, in one run on PostgreSQL:

- the job after one more turn (`analysis.forecasts.match_forecast`: read the match, its kept
  forecast and its turns, compute the new turn's chances, store the forecast) for a 4-player
  Yardkle match (the race model) and a 4-player Yardzee match (the spreads, with each turn's
  loss), halfway through the game;
- the turn itself, in process (`games.services.turn_submit`: lock, rules, store).

Each side's CPU time in this process (`time.process_time`, median over the rounds), so the
figure reads the same on a shared machine. Prints `forecast_job_vs_turn_<game>=<ratio>` and
the medians (`-s`). What the worker adds to a turn's cores is this job, at most once a match
a second (`core.jobs.COALESCE_SECONDS`).

`make bench PYTEST_ARGS='-k test_forecast_db -s'`, on DATABASE_URL's PostgreSQL or the
embedded one; the Yardzee tables from `manage.py build_strategy` (skipped without them)."""

import statistics
import time
from collections.abc import Callable

import pytest

from analysis import forecasts, strategies
from games import services as game_services
from league.models import Player
from scoring import simulate
from scoring.analysis import StrategyTableError
from scoring.game import Game
from scoring.yardkle import YardkleGame
from scoring.yardzee import YardzeeGame

pytestmark = pytest.mark.django_db

# From the 10th turn, 5 rounds to warm up, then 30 timed (a 4-player Yardzee game has 52 turns).
FIRST, WARMUP, ROUNDS = 10, 5, 30


def _cpu(step: Callable[..., object], *args: object, **kwargs: object) -> float:
    started = time.process_time()
    step(*args, **kwargs)
    return time.process_time() - started


@pytest.mark.parametrize("game", ["yardkle", "yardzee"])
def test_forecast_job_after_one_more_turn(game: str, settings, capsys) -> None:
    settings.FORECAST_EACH_TURN = False  # the job runs here, by hand, after each turn
    if game == "yardzee":
        try:
            strategies.yardzee_spread({})
            strategies.yardzee_greedy({})
        except StrategyTableError:
            pytest.skip("no Yardzee tables: manage.py build_strategy")
    players = [Player.objects.create(display_name=f"F{i}", handle=f"f{i}") for i in range(4)]
    match = game_services.match_create(game=game, player_ids=[p.pk for p in players])
    table: Game = YardkleGame(players=4) if game == "yardkle" else YardzeeGame(players=4)
    turns = simulate.play_game(table, seed=7)
    assert len(turns) >= FIRST + WARMUP + ROUNDS
    for turn in turns[:FIRST]:
        game_services.turn_submit(match_id=match.pk, turn=turn)
    forecasts.match_forecast(match_id=match.pk)  # what the job keeps, up to here
    spent_turn, spent_job = [], []
    for turn in turns[FIRST : FIRST + WARMUP + ROUNDS]:  # as in play: a turn, then its job
        spent_turn.append(_cpu(game_services.turn_submit, match_id=match.pk, turn=turn))
        spent_job.append(_cpu(forecasts.match_forecast, match_id=match.pk))
    turn_ms = statistics.median(spent_turn[WARMUP:]) * 1000
    job_ms = statistics.median(spent_job[WARMUP:]) * 1000
    with capsys.disabled():
        print(
            f"\nforecast_job_vs_turn_{game}={job_ms / turn_ms:.2f}"
            f" forecast_job_ms_{game}={job_ms:.2f} turn_ms_{game}={turn_ms:.2f}"
        )
