"""A league's season projection (issue 39: "the stage's and league's projections"): each
player's chance to finish in each place of the league table and to win the league, from the
matches of its events left to play, kept by a job after each result; `GET
leagues/{slug}/projection/` pending then the figures; the league page's "Chance to win" column
(docs/analysis.md, "Chance to win the league")."""

import pytest
from django.conf import settings
from django.test import Client

from games.models import Match, MatchStatus
from league.models import LeagueProjection, PlayerRating
from league.services import league_projections
from league.tasks import league_projection
from tests.playing import play, start_stage


def _url(league):
    return f"/api/v1/leagues/{league.slug}/projection/"


@pytest.mark.django_db
def test_the_projection_is_pending_until_its_job_has_run_then_gives_every_players_chances(
    yardzee_event, players, api
):
    league = yardzee_event.league
    start_stage(yardzee_event, "round_robin", players[:4])
    pending = api.get(_url(league))
    assert pending.status_code == 202
    assert pending.json() == {"league": league.slug, "status": "pending"}

    assert league_projection(league.pk) is True
    answer = api.get(_url(league))
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "current"
    assert body["left"] == 6  # the round robin of four, nothing played
    assert body["runs"] == settings.STAGE_PROJECTION_RUNS
    assert body["live"] == []
    assert sorted(row["player"] for row in body["players"]) == [p.pk for p in players[:4]]
    for row in body["players"]:
        assert set(row) == {"player", "name", "places", "win"}
        assert len(row["places"]) == 4
        assert sum(row["places"]) == pytest.approx(1.0)
        assert row["win"] == row["places"][0]
    assert sum(row["win"] for row in body["players"]) == pytest.approx(1.0)


@pytest.mark.django_db
def test_a_result_works_the_league_figures_out_again_and_the_better_player_leads(
    yardzee_event, players, django_capture_on_commit_callbacks
):
    league = yardzee_event.league
    stage = start_stage(yardzee_event, "round_robin", players[:4])
    for player, mu in zip(players[:4], [20.0, 25.0, 25.0, 40.0], strict=True):
        PlayerRating.objects.create(league=league, player=player, mu=mu, sigma=1.0, ordinal=mu)
    league_projection(league.pk)
    before = LeagueProjection.objects.get(league=league)
    assert before.chances()[players[3].pk]["win"] > 0.5
    match = Match.objects.filter(stage_match__stage=stage).order_by("pk").first()
    with django_capture_on_commit_callbacks(execute=True):
        play(match, seed=1)
    after = LeagueProjection.objects.get(league=league)
    assert after.version > before.version
    assert after.version == league_projections.league_version(league.pk)
    assert after.left == 5


@pytest.mark.django_db
def test_a_season_with_nothing_left_is_certain(
    yardzee_event, players, api, django_capture_on_commit_callbacks
):
    league = yardzee_event.league
    stage = start_stage(yardzee_event, "round_robin", players[:2])
    match = Match.objects.get(stage_match__stage=stage)
    with django_capture_on_commit_callbacks(execute=True):  # the league table, then its figures
        play(match, seed=2)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    winner = match.seats.get(placement=1).player_id
    body = api.get(_url(league)).json()
    assert body["left"] == 0
    assert body["runs"] == 1
    assert body["standard_error"] == 0.0
    chances = {row["player"]: row for row in body["players"]}
    assert chances[winner]["win"] == 1.0
    assert body["players"][0]["player"] == winner  # in the table's order


@pytest.mark.django_db
def test_the_job_keeps_figures_nothing_has_moved(yardzee_event, players):
    league = yardzee_event.league
    start_stage(yardzee_event, "round_robin", players[:3])
    first = league_projections.league_project(league_id=league.pk)
    again = league_projections.league_project(league_id=league.pk)
    assert first is not None
    assert again is not None
    assert again.computed_at == first.computed_at
    assert league_projections.league_project(league_id=0) is None


@pytest.mark.django_db
def test_the_league_page_shows_each_players_chance_to_win_the_league(
    yardzee_event, players, client: Client
):
    league = yardzee_event.league
    stage = start_stage(yardzee_event, "round_robin", players[:3])
    play(Match.objects.filter(stage_match__stage=stage).order_by("pk").first(), seed=4)
    page = client.get(f"/leagues/{league.slug}/").content.decode()
    assert "the chance to win the league" not in page
    league_projection(league.pk)
    page = client.get(f"/leagues/{league.slug}/").content.decode()
    assert '<abbr title="the chance to win the league' in page
    assert page.count('<td class="num chance more">') == 3  # one a player, behind "All columns"
