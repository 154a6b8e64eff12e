"""Every finished match analysed, and the analysis following the result (issue 19, "Jobs and
storage"): a finish enqueues the job; an undo, a correction that reopens or a void discards it;
the next finish analyses again; a correction that keeps the result analyses again; beat's
sweep and `manage.py analyse_matches` catch up on a missed one. On PostgreSQL; the jobs run
in-process here and on a real worker below."""

import importlib
import json
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, cast

import pytest
from celery import Celery, Task
from celery.contrib.testing.worker import start_worker
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from analysis import services, strategies
from analysis.models import MatchAnalysis
from config.celery import app as celery_app
from core import jobs
from games import services as game_services
from games.models import Match
from scoring.analysis import analyse_game
from tests.playing import play


def _seat(game: str, players) -> Match:
    return game_services.match_create(game=game, player_ids=[p.pk for p in players])


@pytest.fixture
def finish_with_jobs(players, django_capture_on_commit_callbacks) -> Callable[..., Match]:
    """Seat a match of `game` for the first `count` players and play it to its end, running
    the jobs its finish sends as they run on commit."""

    def finish(game: str, count: int, seed: int = 1) -> Match:
        match = _seat(game, players[:count])
        with django_capture_on_commit_callbacks(execute=True):
            play(match, seed)
        return match

    return finish


@pytest.mark.django_db
def test_finishing_a_yardzee_match_stores_its_analysis_per_player_and_turn(
    tables, players, finish_with_jobs
):
    match = finish_with_jobs("yardzee", 2)
    analysis = MatchAnalysis.objects.get(match=match)
    match.refresh_from_db()
    assert analysis.finished_at == match.finished_at
    assert [p["player"] for p in analysis.players] == [players[0].pk, players[1].pk]
    assert len(analysis.turns) == match.turns_played == 26
    for summary in analysis.players:
        assert summary["decisions"] >= 13
        assert 0 <= summary["accuracy"] <= 100
        assert summary["total_loss"] >= 0
    assert services.current_analysis(match) == analysis


@pytest.mark.django_db
def test_a_yardkle_match_is_analysed_without_a_table(finish_with_jobs):
    match = finish_with_jobs("yardkle", 3, seed=4)
    analysis = MatchAnalysis.objects.get(match=match)
    assert len(analysis.players) == 3
    assert len(analysis.turns) == Match.objects.get(pk=match.pk).turns_played


@pytest.mark.django_db
def test_migration_0003_has_yardkle_analyses_of_set_asides_without_then_made_again(
    tables, finish_with_jobs
):
    """Analyses stored before set-aside options kept their continuation said "then None":
    the migration deletes every Yardkle analysis, and the sweep makes them again."""
    migration = importlib.import_module(
        "analysis.migrations.0003_yardkle_set_asides_with_their_continuation"
    )
    yardkle = finish_with_jobs("yardkle", 3, seed=4)
    yardzee = finish_with_jobs("yardzee", 2)
    old = MatchAnalysis.objects.get(match=yardkle)
    old.turns = json.loads(json.dumps(old.turns).replace('"bank"', "null"))
    old.save()
    migration.forget_yardkle_analyses(apps, SimpleNamespace(connection=connection))
    assert list(services.unanalysed().values_list("pk", flat=True)) == [yardkle.pk]
    assert MatchAnalysis.objects.filter(match=yardzee).exists()  # its options always said
    call_command("analyse_matches")
    assert "None" not in json.dumps(MatchAnalysis.objects.get(match=yardkle).turns)


@pytest.mark.django_db
def test_an_undo_discards_the_analysis_and_the_next_finish_analyses_again(
    tables, finish_with_jobs, django_capture_on_commit_callbacks
):
    match = finish_with_jobs("yardzee", 2)
    first = MatchAnalysis.objects.get(match=match)
    with django_capture_on_commit_callbacks(execute=True):
        undone = game_services.turn_undo(match_id=match.pk, undone_by=None)
    assert not MatchAnalysis.objects.filter(match=match).exists()
    with django_capture_on_commit_callbacks(execute=True):
        game_services.turn_submit(match_id=match.pk, turn=undone.payload)
    again = MatchAnalysis.objects.get(match=match)
    assert again.pk != first.pk
    assert again.finished_at == Match.objects.get(pk=match.pk).finished_at


def _same_result_other_rolls(turn: dict[str, Any]) -> dict[str, Any]:
    """A Yardzee turn corrected to other first dice, rolled again in full to the same final
    dice: the same box and points, so the match's result stands, but its choices changed."""
    final = turn["rolls"][-1]["dice"]
    first = [6, 6, 6, 6, 6] if final != [6, 6, 6, 6, 6] else [1, 1, 1, 1, 1]
    return {**turn, "rolls": [{"dice": first}, {"keep": [], "dice": final}]}


@pytest.mark.django_db
def test_a_correction_that_keeps_the_result_analyses_the_corrected_turns(
    tables, finish_with_jobs, django_capture_on_commit_callbacks
):
    match = finish_with_jobs("yardzee", 2)
    first = MatchAnalysis.objects.get(match=match)
    turn = match.turns.get(sequence=1)
    corrected = _same_result_other_rolls(dict(turn.payload, player=turn.seat.player_id))
    with django_capture_on_commit_callbacks(execute=True):
        game_services.turn_correct(match_id=match.pk, sequence=1, turn=corrected, corrected_by=None)
    match.refresh_from_db()
    assert match.finished_at == first.finished_at  # the result stood: the same finish
    again = services.current_analysis(match)
    assert again is not None
    assert again.pk != first.pk
    keep = again.turns[0]["decisions"][0]
    assert (keep["kind"], keep["step"], keep["chosen"]["keep"]) == ("keep", 1, [])


@pytest.mark.django_db
def test_an_analysis_made_from_turns_corrected_meanwhile_is_not_stored(
    tables, finish_with_jobs, monkeypatch
):
    match = finish_with_jobs("yardzee", 2)
    MatchAnalysis.objects.filter(match=match).delete()
    turn = match.turns.get(sequence=1)
    corrected = _same_result_other_rolls(dict(turn.payload, player=turn.seat.player_id))
    analyse = analyse_game

    def corrected_while_analysing(*args: Any, **kwargs: Any) -> Any:
        found = analyse(*args, **kwargs)
        game_services.turn_correct(match_id=match.pk, sequence=1, turn=corrected, corrected_by=None)
        return found

    monkeypatch.setattr(services, "analyse_game", corrected_while_analysing)
    assert services.match_analyse(match_id=match.pk) is None
    assert not MatchAnalysis.objects.filter(match=match).exists()


@pytest.mark.django_db
def test_a_void_discards_the_analysis(tables, finish_with_jobs):
    match = finish_with_jobs("yardzee", 2)
    game_services.match_void(match_id=match.pk, voided_by=None)
    assert not MatchAnalysis.objects.filter(match=match).exists()


@pytest.mark.django_db
def test_the_job_is_idempotent_and_skips_a_match_not_finished(tables, players):
    match = _seat("yardzee", players[:2])
    assert services.match_analyse(match_id=match.pk) is None
    play(match, seed=1)
    first = services.match_analyse(match_id=match.pk)
    assert first is not None
    assert services.match_analyse(match_id=match.pk) == first
    assert MatchAnalysis.objects.count() == 1


@pytest.mark.django_db
def test_the_sweep_and_the_command_catch_up_on_a_missed_match(tables, players, monkeypatch):
    match = _seat("yardzee", players[:2])
    sent: list[int] = []
    monkeypatch.setattr(jobs, "send", lambda task, args: sent.append(args[0]))  # broker down
    play(match, seed=1)
    assert list(services.unanalysed().values_list("pk", flat=True)) == [match.pk]
    assert services.analysis_sweep() == 1
    assert sent == [match.pk]
    with pytest.raises(CommandError, match="1 finished matches have no analysis"):
        call_command("analyse_matches", "--check")
    call_command("analyse_matches")
    assert MatchAnalysis.objects.filter(match=match).exists()
    call_command("analyse_matches", "--check")
    assert not services.unanalysed().exists()


@pytest.mark.django_db
def test_the_command_takes_a_league_in_any_case_and_refuses_one_that_is_not_there(
    tables, players, yardzee_league, monkeypatch
):
    """`analyse_matches --league nope` answered "Analysed 0 of 0 matches." and `--check`
    "Every finished match has its analysis.": a mistyped slug passed for a league with
    nothing to do; and `--league YARDZEE` missed the league `yardzee`."""
    monkeypatch.setattr(jobs, "send", lambda task, args: None)  # broker down
    yardzee_league.players.add(*players[:2])
    match = game_services.match_create(
        game="yardzee", player_ids=[p.pk for p in players[:2]], league_id=yardzee_league.pk
    )
    play(match, seed=1)
    for check in ([], ["--check"]):
        with pytest.raises(CommandError, match="There is no league 'nope'"):
            call_command("analyse_matches", "--league", "nope", *check)
    with pytest.raises(CommandError, match="1 finished matches have no analysis"):
        call_command("analyse_matches", "--league", "YARDZEE", "--check")
    call_command("analyse_matches", "--league", "YARDZEE")
    assert MatchAnalysis.objects.filter(match=match).exists()


@pytest.mark.django_db
def test_the_sweep_passes_over_yardzee_matches_while_the_server_lacks_their_table(
    settings, tmp_path, players, monkeypatch, caplog
):
    settings.STRATEGY_DIR = tmp_path / "no-tables"
    strategies.forget()
    sent: list[int] = []
    monkeypatch.setattr(jobs, "send", lambda task, args: sent.append(args[0]))  # broker down
    yardzee = _seat("yardzee", players[:2])
    play(yardzee, seed=1)
    yardkle = _seat("yardkle", players[2:4])
    play(yardkle, seed=3)
    with caplog.at_level("WARNING", logger="analysis.services"):
        assert services.analysis_sweep() == 1
    assert sent == [yardkle.pk]
    assert "1 finished Yardzee matches wait for their strategy table" in caplog.text
    assert "build_strategy" in caplog.text
    strategies.forget()


@pytest.mark.django_db
def test_the_command_without_a_table_analyses_the_rest_then_fails_naming_it(
    settings, tmp_path, players, monkeypatch
):
    settings.STRATEGY_DIR = tmp_path / "no-tables"
    strategies.forget()
    monkeypatch.setattr(jobs, "send", lambda task, args: None)  # broker down
    yardzee = _seat("yardzee", players[:2])
    play(yardzee, seed=1)
    yardkle = _seat("yardkle", players[2:4])
    play(yardkle, seed=3)
    # It stopped at the Yardzee match with a StrategyTableMissing traceback, the rest undone.
    with pytest.raises(
        CommandError, match=r"1 Yardzee matches .* No strategy table .*build_strategy"
    ):
        call_command("analyse_matches")
    assert MatchAnalysis.objects.filter(match=yardkle).exists()
    assert not MatchAnalysis.objects.filter(match=yardzee).exists()
    strategies.forget()


@pytest.mark.django_db
def test_the_sweep_sends_yardzee_matches_again_once_the_table_is_there(
    tables, players, monkeypatch, caplog
):
    sent: list[int] = []
    monkeypatch.setattr(jobs, "send", lambda task, args: sent.append(args[0]))
    match = _seat("yardzee", players[:2])
    play(match, seed=1)
    with caplog.at_level("WARNING", logger="analysis.services"):
        assert services.analysis_sweep() == 1
    assert sent == [match.pk]
    assert "wait for their strategy table" not in caplog.text


@pytest.mark.broker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_analyses_a_finished_match(tables, players):
    match = _seat("yardkle", players[:2])
    worker_app = cast("Celery[Task[Any, Any]]", celery_app)
    with start_worker(worker_app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        play(match, seed=7)
        deadline = time.monotonic() + 30
        while (
            time.monotonic() < deadline and not MatchAnalysis.objects.filter(match=match).exists()
        ):
            time.sleep(0.2)
    assert MatchAnalysis.objects.filter(match=match).exists()
