"""Live win probability in the product (issue 39, "In the product"): every stored turn brings
the match's chances up to date by a job, kept per match; a turn taken back or corrected is
computed again; a void forgets them; the API and the match page read what is kept and never
wait; the event page says who is likeliest to win each table being played; a match won by a
player the ratings gave under 20% is a `match.upset` webhook. The jobs run in-process here."""

import re
from datetime import timedelta
from typing import Any, cast

import numpy as np
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

import scoring
from analysis import forecasts, strategies
from analysis.chart import forecast_view
from analysis.models import MatchForecast
from games import services as game_services
from games.models import Match
from league import rating
from league.models import PlayerRating, RatingChange
from scoring.analysis import Strategy, analyse_game
from scoring.analysis import yardzee_table as solver
from scoring.winprob import yardkle_race, yardkle_style
from scoring.winprob.yardzee import Position, loss_rates, win_probabilities
from scoring.winprob.yardzee_greedy import GreedySpread
from scoring.winprob.yardzee_spread import ORDERS, Spread
from scoring.yardkle import YardkleGame
from scoring.yardzee import YardzeeGame, YardzeeRules
from tests.playing import simulated_turns, start_stage
from webhooks import payloads

# Every stored turn forecasts its match, as in production (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("live_forecasts")


def _seat(game: str, players, **extra: Any) -> Match:
    return game_services.match_create(game=game, player_ids=[p.pk for p in players], **extra)


def _play_turns(match: Match, turns: list[dict[str, Any]], capture) -> None:
    for turn in turns:
        with capture(execute=True):
            game_services.turn_submit(match_id=match.pk, turn=turn)


def _fresh(match: Match) -> list[list[float]]:
    """The chances computed from nothing, as a check on what the job kept."""
    MatchForecast.objects.filter(match=match).delete()
    found = forecasts.match_forecast(match_id=match.pk)
    assert found is not None
    chances: list[list[float]] = found.chances
    return chances


@pytest.mark.django_db
def test_each_turn_brings_the_chances_up_to_date(players, django_capture_on_commit_callbacks):
    match = _seat("yardkle", players[:3])
    turns = simulated_turns(match, seed=5)
    _play_turns(match, turns[:7], django_capture_on_commit_callbacks)
    stored = MatchForecast.objects.get(match=match)
    match.refresh_from_db()
    assert stored.version == match.version
    assert stored.players == [p.pk for p in players[:3]]
    assert len(stored.chances) == 8 == len(stored.marks) + 1
    for row in stored.chances:
        assert len(row) == 3
        assert sum(row) == pytest.approx(1, abs=1e-3)
        assert all(0 <= chance <= 1 for chance in row)
    assert stored.chances == _fresh(match)


@pytest.mark.django_db
def test_a_yardkle_race_reads_each_players_style_from_their_turns(
    players, django_capture_on_commit_callbacks
):
    """The race model values each player as the mixture of styles their own choices so far
    give (docs/analysis.md, "Players' styles"), not as the points strategy for all."""
    match = _seat("yardkle", players[:3])
    turns = simulated_turns(match, seed=5)[:12]
    _play_turns(match, turns, django_capture_on_commit_callbacks)
    stored = MatchForecast.objects.get(match=match)
    assert stored.model == "yardkle-race"
    game = cast(YardkleGame, scoring.new_game("yardkle", 3, match.rules))
    for number, turn in enumerate([None, *turns]):
        if turn is not None:
            game.play(turn)
        played = turns[:number]
        weak = yardkle_style.estimate(game.rules, 3, played)
        scores = [game.total(seat) for seat in range(3)]
        expected = yardkle_race.win_probabilities(
            scores, game.current_player or 0, rules=game.rules, weak=weak
        )
        assert stored.chances[number] == pytest.approx(expected, abs=1e-4)
    assert weak != pytest.approx([yardkle_style.PRIOR_WEAK] * 3, abs=0.05)
    blind = yardkle_race.win_probabilities(scores, game.current_player or 0, rules=game.rules)
    assert stored.chances[-1] != pytest.approx(blind, abs=1e-3)


@pytest.mark.django_db
def test_a_finished_match_ends_with_its_winner_certain(players, django_capture_on_commit_callbacks):
    match = _seat("yardkle", players[:2])
    turns = simulated_turns(match, seed=2)
    with django_capture_on_commit_callbacks(execute=True):
        game_services.result_submit(match_id=match.pk, turns=turns)
    match.refresh_from_db()
    stored = MatchForecast.objects.get(match=match)
    assert len(stored.chances) == len(turns) + 1
    winners = [seat.order for seat in match.seats.all() if seat.placement == 1]
    last = stored.chances[-1]
    assert [seat for seat, chance in enumerate(last) if chance > 0] == winners
    assert 0.45 < stored.chances[0][0] < 0.6  # the start: near even, the first player ahead
    assert 1 <= len(stored.swings) <= forecasts.SWINGS
    for swing in stored.swings:
        assert swing["before"] == stored.chances[swing["turn"] - 1][swing["seat"]]
        assert swing["after"] == stored.chances[swing["turn"]][swing["seat"]]
        assert re.fullmatch(r"banked [0-9,]+|Yardkle", swing["what"])


@pytest.mark.django_db
def test_a_turn_undone_and_entered_again_is_computed_again(
    organizer, players, django_capture_on_commit_callbacks
):
    match = _seat("yardkle", players[:2])
    turns = simulated_turns(match, seed=1)
    _play_turns(match, turns[:4], django_capture_on_commit_callbacks)
    before = MatchForecast.objects.get(match=match)
    with django_capture_on_commit_callbacks(execute=True):
        game_services.turn_undo(match_id=match.pk, undone_by=organizer)
    # Until a job runs the undone turn's chances stay stored, but the API and the page read
    # only as many as the match has turns (checked in the API test).
    _play_turns(match, [turns[3]], django_capture_on_commit_callbacks)
    stored = MatchForecast.objects.get(match=match)
    assert stored.marks[:3] == before.marks[:3]
    assert stored.marks[3] != before.marks[3]  # the turn entered again is another row
    assert len(stored.chances) == 5
    assert stored.chances == _fresh(match)


@pytest.mark.django_db
def test_a_void_forgets_the_chances(organizer, players, django_capture_on_commit_callbacks):
    match = _seat("yardkle", players[:2])
    _play_turns(match, simulated_turns(match, seed=3)[:2], django_capture_on_commit_callbacks)
    assert MatchForecast.objects.filter(match=match).exists()
    with django_capture_on_commit_callbacks(execute=True):
        game_services.match_void(match_id=match.pk, voided_by=organizer)
    assert not MatchForecast.objects.filter(match=match).exists()
    assert forecasts.match_forecast(match_id=match.pk) is None


@pytest.mark.django_db
def test_the_api_answers_pending_then_the_figures(players, api, django_capture_on_commit_callbacks):
    match = _seat("yardkle", players[:2])
    url = f"/api/v1/matches/{match.pk}/win-probability/"
    refused = api.get(url)
    assert refused.status_code == 409
    assert refused.json()["code"] == "match_not_started"
    turns = simulated_turns(match, seed=4)
    game_services.turn_submit(match_id=match.pk, turn=turns[0])  # no job run: pending
    pending = api.get(url)
    assert pending.status_code == 202
    assert pending.json() == {"match": match.pk, "status": "pending"}
    _play_turns(match, turns[1:3], django_capture_on_commit_callbacks)
    answer = api.get(url).json()
    assert answer["status"] == "current"
    assert answer["players"] == [players[0].pk, players[1].pk]
    assert [turn["turn"] for turn in answer["turns"]] == [0, 1, 2, 3]
    assert all(len(turn["chances"]) == 2 for turn in answer["turns"])
    game_services.turn_submit(match_id=match.pk, turn=turns[3])  # its job not run yet
    assert api.get(url).json()["status"] == "behind"


@pytest.mark.django_db
def test_the_match_page_draws_the_chart_with_names_on_the_lines(
    players, client: Client, django_capture_on_commit_callbacks
):
    match = _seat("yardkle", players[:2])
    turns = simulated_turns(match, seed=6)
    game_services.turn_submit(match_id=match.pk, turn=turns[0])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "The chances are being worked out" in page
    assert f'data-live-url="/matches/{match.pk}/win-probability/"' in page
    _play_turns(match, turns[1:6], django_capture_on_commit_callbacks)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert '<svg class="win-chart"' in page
    for player in players[:2]:
        name = re.escape(player.display_name)
        assert re.search(rf'<text class="name"[^>]*><title>{name}</title>{name} \d+%</text>', page)
    assert "The turns that swung it" in page
    fragment = client.get(f"/matches/{match.pk}/win-probability/").content.decode()
    assert fragment.startswith('<section id="match-forecast"')
    # The section costs the same few queries however many turns were played.
    with CaptureQueriesContext(connection) as queries:
        client.get(f"/matches/{match.pk}/win-probability/")
    assert len(queries) <= 4


def test_the_chart_keeps_names_apart_escapes_them_and_dashes_each_line():
    chances = [[0.5, 0.5, 0.0], [0.52, 0.47, 0.01], [0.51, 0.48, 0.01]]
    swings = [{"turn": 1, "seat": 1, "what": "banked 1,500", "before": 0.5, "after": 0.47}]
    view = forecast_view(chances, swings, ["Al", "<b>Bea</b>", "Cyrano de Bergerac"])
    svg = str(view.svg)
    assert "&lt;b&gt;Bea&lt;/b&gt;" in svg
    assert "<b>" not in svg
    # A long name is cut short at the line's end, and whole in its title.
    assert "<title>Cyrano de Bergerac</title>Cyrano de Ber… 1%</text>" in svg
    assert svg.count("<polyline") == 3
    assert svg.count("stroke-dasharray") == 2  # the first line solid, the others dashed
    ys = [
        float(chunk.split('y="')[1].split('"')[0]) for chunk in svg.split('<text class="name"')[1:]
    ]
    assert min(abs(a - b) for i, a in enumerate(ys) for b in ys[i + 1 :]) >= 13 - 1e-9
    assert view.swings[0].text == "<b>Bea</b>'s banked 1,500 in turn 1: 50% → 47%"
    assert [c.percent for c in view.now] == [51, 48, 1]


@pytest.mark.django_db
def test_the_event_page_says_who_is_likeliest_to_win_a_table_being_played(
    yardkle_event, players, client: Client, django_capture_on_commit_callbacks
):
    stage = start_stage(yardkle_event, "round_robin", players[:4], table_size=2)
    match = Match.objects.filter(stage_match__stage=stage).order_by("pk").first()
    assert match is not None
    _play_turns(match, simulated_turns(match, seed=8)[:3], django_capture_on_commit_callbacks)
    stored = MatchForecast.objects.get(match=match)
    now = stored.chances[-1]
    seat = max(range(2), key=lambda s: now[s])
    name = match.seats.get(order=seat).player.display_name
    page = client.get(f"/events/{yardkle_event.pk}/").content.decode()
    assert f"likeliest to win: {name} {round(100 * now[seat])}%" in page


@pytest.mark.django_db
def test_a_match_won_by_a_player_the_ratings_gave_under_a_fifth_is_an_upset(yardkle_event, players):
    ids = [p.pk for p in players[:2]]
    yardkle_event.league.players.add(*players[:2])
    match = game_services.match_create(
        game="yardkle", player_ids=ids, rules={}, event_id=yardkle_event.pk
    )
    game_services.result_submit(match_id=match.pk, turns=simulated_turns(match, seed=0))
    match.refresh_from_db()
    winner = match.seats.get(placement=1).player_id
    loser = next(p for p in ids if p != winner)
    earlier = match.finished_at - timedelta(days=1)
    old = game_services.match_create(game="yardkle", player_ids=ids, rules={})
    for player, mu in ((winner, 15.0), (loser, 40.0)):
        RatingChange.objects.create(
            league=yardkle_event.league,
            player_id=player,
            match=old,
            finished_at=earlier,
            mu=mu,
            sigma=2.0,
            ordinal=mu - 6.0,
        )
    from league import rating, selectors

    before = selectors.pre_match_ratings(match.pk)
    assert before is not None
    seated, ratings = before
    chances = dict(zip(seated, rating.win_chances(ratings), strict=True))
    assert chances[winner] < 0.2
    body = payloads.match_upset(match.pk, winner, chances[winner])
    assert body is not None
    assert body["winner"] == winner
    assert body["chance_before"] < 0.2


@pytest.mark.django_db
def test_the_bracket_gives_each_player_of_a_match_not_finished_their_chance(
    yardkle_event, players, client: Client
):
    stage = start_stage(yardkle_event, "single_elimination", players[:4])
    first = Match.objects.filter(stage_match__stage=stage).order_by("pk").first()
    assert first is not None
    strong, weak = [seat.player for seat in first.seats.order_by("order")]
    PlayerRating.objects.create(
        league=yardkle_event.league, player=strong, mu=35.0, sigma=3.0, ordinal=26.0
    )
    seated = {strong.pk: rating.Rating(35.0, 3.0), weak.pk: rating.RatingSettings().initial}
    odds = rating.win_chances(list(seated.values()))
    page = client.get(f"/events/{yardkle_event.pk}/").content.decode()
    for chance in odds:
        assert '<text class="chance" ' in page
        assert f'text-anchor="end">{round(100 * chance)}%</text>' in page
    assert odds[0] > 0.5


@pytest.fixture
def yardzee_tables(settings, strategy_dir, tmp_path):
    """The session's strategy tables with a moments table beside the forced joker's: the rest's
    mean the strategy's and its spread a point stands in
    for the minute its build takes, so the leader in expected final total is all but certain;
    the model itself is tested in tests/scoring/winprob."""
    for found in strategy_dir.iterdir():
        (tmp_path / found.name).symlink_to(found)
    forced = Strategy.load(YardzeeRules(joker="forced"), tmp_path)
    means = np.nan_to_num(np.asarray(forced.table, dtype=float))
    Spread(forced, (means**2 + 1.0).reshape(len(ORDERS), solver.STATES)).save(tmp_path)
    # The greedy player: 60% of the strategy's mean, a point of spread.
    weaker = 0.6 * means
    GreedySpread(forced.rules, np.stack([weaker, weaker**2 + 1.0])).save(tmp_path)
    settings.STRATEGY_DIR = tmp_path
    strategies.forget()
    yield tmp_path
    strategies.forget()


@pytest.mark.django_db
def test_a_yardzee_match_has_its_chances_after_every_turn(
    yardzee_tables, players, django_capture_on_commit_callbacks
):
    match = _seat("yardzee", players[:3])
    turns = simulated_turns(match, seed=4)
    _play_turns(match, turns[:4], django_capture_on_commit_callbacks)
    stored = MatchForecast.objects.get(match=match)
    assert stored.model == "yardzee-spread"
    assert len(stored.chances) == 5
    for row in stored.chances:
        assert sum(row) == pytest.approx(1, abs=1e-3)
    # After every turn, what the model gives for the game as it then stood, in seat order,
    # each player judged by the losses of their turns so far (the analysis engine's).
    spread = strategies.yardzee_spread(match.rules)
    greedy = strategies.yardzee_greedy(match.rules)
    analysis = analyse_game(
        {"game": "yardzee", "players": 3, "turns": turns[:4]},
        strategy=strategies.yardzee_strategy(match.rules),
    )
    assert stored.losses == pytest.approx([turn.loss for turn in analysis.turns])
    assert any(loss > 0 for loss in stored.losses)  # the simulated players are not optimal
    game = cast(YardzeeGame, scoring.new_game("yardzee", 3, match.rules))
    for number, turn in enumerate([None, *turns[:4]]):
        if turn is not None:
            game.play(turn)
        losses: list[list[float]] = [[], [], []]
        for played in analysis.turns[:number]:
            losses[played.seat].append(played.loss)
        rates = loss_rates(losses)
        positions = [
            Position.of_scorecard(game.scorecard(seat), loss_rate=rates[seat]) for seat in range(3)
        ]
        expected = win_probabilities(positions, spread, greedy)
        assert stored.chances[number] == pytest.approx(expected, abs=1e-4)
        if any(rates):  # judged weaker: not what every player optimal gives
            optimal = [Position.of_scorecard(game.scorecard(seat)) for seat in range(3)]
            assert expected != pytest.approx(win_probabilities(optimal, spread), abs=1e-3)
    assert stored.chances[4] != stored.chances[0]
    assert all(swing["what"].endswith(")") for swing in stored.swings)


@pytest.mark.django_db
def test_turns_stored_before_the_job_ran_each_get_their_own_chances(players):
    """A burst of turns computed by one job (coalesced) on top of figures already kept."""
    match = _seat("yardkle", players[:3])
    turns = simulated_turns(match, seed=7)
    game_services.turn_submit(match_id=match.pk, turn=turns[0])
    forecasts.match_forecast(match_id=match.pk)
    for turn in turns[1:5]:
        game_services.turn_submit(match_id=match.pk, turn=turn)
    stored = forecasts.match_forecast(match_id=match.pk)
    assert stored is not None
    assert len(stored.chances) == 6
    assert stored.chances == _fresh(match)


@pytest.mark.django_db
def test_the_event_page_says_it_of_a_casual_match_being_played_too(
    yardkle_event, players, client: Client, django_capture_on_commit_callbacks
):
    yardkle_event.league.players.add(*players[:2])
    match = _seat("yardkle", players[:2], event_id=yardkle_event.pk)
    _play_turns(match, simulated_turns(match, seed=3)[:3], django_capture_on_commit_callbacks)
    now = MatchForecast.objects.get(match=match).chances[-1]
    seat = max(range(2), key=lambda s: now[s])
    name = match.seats.get(order=seat).player.display_name
    page = client.get(f"/events/{yardkle_event.pk}/").content.decode()
    assert f"likeliest to win: {name} {round(100 * now[seat])}%" in page


@pytest.mark.django_db
def test_a_burst_of_turns_sends_one_forecast_job_and_the_job_lets_the_next_turn_send(
    players, monkeypatch, django_capture_on_commit_callbacks
):
    """One job a match while one waits (`core.jobs.enqueue_once_on_commit`), not one a turn;
    the job clears its mark before it reads, so the turns after it are computed too."""
    from analysis import tasks
    from core import jobs

    sent: list[tuple[object, ...]] = []

    def send(task: str, args: tuple[object, ...]) -> bool:
        if task == forecasts.FORECAST:
            sent.append(args)
        return True

    monkeypatch.setattr(jobs, "send", send)
    match = _seat("yardkle", players[:3])
    turns = simulated_turns(match, seed=7)
    _play_turns(match, turns[:4], django_capture_on_commit_callbacks)
    assert sent == [(match.pk,)]
    assert tasks.forecast_match(match.pk)
    assert len(MatchForecast.objects.get(match=match).chances) == 5
    _play_turns(match, turns[4:6], django_capture_on_commit_callbacks)
    assert sent == [(match.pk,), (match.pk,)]
    assert tasks.forecast_match(match.pk)
    assert len(MatchForecast.objects.get(match=match).chances) == 7
