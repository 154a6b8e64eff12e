"""Merging duplicate players (`league.services.organization.player_merge`): one person entered
twice becomes one player with everything both had; two people are never merged."""

import pytest
from django.contrib.auth.models import User

import scoring
from games import services as game_services
from games.models import Match, Seat, TurnUndo
from league import models
from league.errors import LeagueError
from league.services import organization, stages, standings_refresh
from scoring import simulate
from tests.league.services.league_night import (
    assert_converged,
    finish,
    new_players,
    no_tasks,
    seat,
    stored_table,
)


def _player(pk: int) -> models.Player:
    return models.Player.objects.get(pk=pk)


def _play_all(stage: models.Stage, seed: int = 0) -> None:
    """Finish the stage's scheduled matches in id order until none is left."""
    while match := (
        Match.objects.filter(stage_match__stage=stage, status="scheduled").order_by("pk").first()
    ):
        finish(match.pk, seed)
        seed += 1


def _undo_and_replay_last_turn(match_id: int) -> None:
    """Play a match turn by turn, take its last turn back and enter it again: the match has an
    undo record of its last player's turn."""
    match = Match.objects.get(pk=match_id)
    turns = simulate.play_game(scoring.new_game(match.game, 2, match.rules), seed=3)
    for turn in turns:
        game_services.turn_submit(match_id=match_id, turn=turn)
    game_services.turn_undo(match_id=match_id, undone_by=None)
    game_services.turn_submit(match_id=match_id, turn=turns[-1])


@pytest.fixture
def league_day(league_event):
    """A league night where Ana was entered twice: as "Ana" (kept) and "Ana B." (the
    duplicate, who played everything below). The duplicate has a user account and is on the
    roster of a second league too."""
    league = league_event.league
    keep, remove, cleo, dan, eve = new_players("M", 5)
    second = models.Event.objects.create(league=league, name="Night 2", date="2026-08-08")
    models.Player.objects.filter(pk=keep).update(display_name="Ana")
    models.Player.objects.filter(pk=remove).update(
        display_name="Ana B.", user=User.objects.create_user("ana")
    )
    elsewhere = models.League.objects.create(name="Elsewhere", slug="elsewhere-y", game="yardkle")
    elsewhere.players.add(remove)
    finish(seat(league_event, [remove, cleo]), seed=1)
    finish(seat(league_event, [keep, dan]), seed=2)
    _undo_and_replay_last_turn(seat(league_event, [eve, remove]))
    # Both drawn first: the event finishes with its last stage.
    knockout, robin = (
        stages.stage_create(event_id=second.pk, name=name, format=fmt, player_ids=entrants)
        for name, fmt, entrants in [
            ("Knockout", "single_elimination", [remove, cleo, dan]),
            ("Robin", "round_robin", [remove, cleo, eve]),
        ]
    )
    _play_all(stages.stage_start(stage_id=knockout.pk))
    robin = stages.stage_start(stage_id=robin.pk)
    first = models.StageMatch.objects.filter(stage=robin, match__seats__player_id=remove).first()
    stages.stage_forfeit(stage_match_id=first.pk, player_id=remove)
    _play_all(robin, seed=10)
    standings_refresh.standings_sweep()
    return {
        "league": league,
        "events": [league_event, second],
        "elsewhere": elsewhere,
        "keep": keep,
        "remove": remove,
        "stages": [knockout, robin],
    }


@pytest.mark.django_db(transaction=True)
def test_a_merge_moves_everything_of_the_duplicate_and_the_tables_and_ratings_count_again(
    league_day,
):
    keep, remove = league_day["keep"], league_day["remove"]
    league = league_day["league"]
    seats = Seat.objects.filter(player_id__in=[keep, remove]).count()
    entries = models.StageEntry.objects.filter(player_id=remove).count()
    account = _player(remove).user_id
    assert models.StageBye.objects.filter(player_id=remove).exists()
    assert models.StageForfeit.objects.filter(player_id=remove).exists()
    assert TurnUndo.objects.filter(player_id=remove).exists()
    assert models.RatingChange.objects.filter(league=league, player_id=remove).exists()
    listing = list(
        models.StandingsTable.objects.filter(lines__player=remove).values_list("pk", "requested")
    )
    assert len(listing) == 5  # two events, the league, two stages

    with no_tasks():
        merged = organization.player_merge(
            league=league, keep=_player(keep), remove=_player(remove), by=None
        )
        # Marked, not yet refreshed: each table listing the duplicate is counted from scratch,
        # and the league rates every match again (its ratings were forgotten).
        for pk, requested in listing:
            table = models.StandingsTable.objects.get(pk=pk)
            assert table.requested == requested + 1
            assert table.rebuild_from == table.requested
        assert models.RatingsState.objects.get(league=league).pending
        assert not models.RatingChange.objects.filter(league=league).exists()
        assert not models.PlayerRating.objects.filter(league=league).exists()

    assert merged.kept.pk == keep
    assert merged.removed_name == "Ana B."
    assert merged.seats == seats - 1  # keep's own one match stays where it was
    assert merged.stage_entries == entries == 2
    assert merged.rosters_joined == 1
    assert merged.leagues_rerated == (league.pk,)
    assert not models.Player.objects.filter(pk=remove).exists()
    assert Seat.objects.filter(player_id=keep).count() == seats
    assert models.StageEntry.objects.filter(player_id=keep).count() == entries
    assert models.StageBye.objects.filter(player_id=keep).exists()
    assert models.StageForfeit.objects.filter(player_id=keep).exists()
    assert TurnUndo.objects.filter(player_id=keep).exists()
    kept = _player(keep)
    assert kept.user_id == account
    assert set(kept.leagues.all()) == {league, league_day["elsewhere"]}
    knockout, robin = (models.Stage.objects.get(pk=s.pk) for s in league_day["stages"])
    assert keep in knockout.bracket["participants"]
    assert remove not in knockout.bracket["participants"]
    for stage in (knockout, robin):
        ranked = [player for tier in stage.ranking for player in tier]
        assert keep in ranked
        assert remove not in ranked
    orders = models.StageMatch.objects.filter(stage__in=[knockout, robin]).exclude(order=None)
    assert any(keep in stage_match.order for stage_match in orders)
    assert not any(remove in stage_match.order for stage_match in orders)
    assert models.StageVoid.objects.get(stage_match__stage=robin).forfeits == [keep]

    standings_refresh.standings_sweep()  # what the jobs do once the merge commits
    for event in league_day["events"]:
        assert_converged(event)
    rows = stored_table(models.StandingsScope.LEAGUE, league.pk).rows
    assert [row["player"] for row in rows].count(keep) == 1
    assert remove not in [row["player"] for row in rows]
    finished = Seat.objects.filter(player_id=keep, match__status="finished").count()
    assert models.PlayerRating.objects.get(league=league, player_id=keep).matches == finished


@pytest.mark.django_db
def test_two_players_who_sat_at_one_match_are_two_people(league_event):
    keep, remove, other = new_players("T", 3)
    finish(seat(league_event, [keep, remove, other]), seed=1)
    with pytest.raises(LeagueError) as refused:
        organization.player_merge(
            league=league_event.league, keep=_player(keep), remove=_player(remove), by=None
        )
    assert refused.value.code == "players_met"
    assert refused.value.details["matches"] == [Match.objects.get().pk]
    assert models.Player.objects.filter(pk=remove).exists()


@pytest.mark.django_db
def test_two_players_entered_in_one_stage_are_two_people_even_before_it_is_played(
    league_event,
):
    keep, remove, other = new_players("T", 3)
    stage = stages.stage_create(
        event_id=league_event.pk, name="Pairs", format="round_robin", player_ids=[keep, remove]
    )
    finish(seat(league_event, [remove, other]), seed=2)
    with pytest.raises(LeagueError) as refused:
        organization.player_merge(
            league=league_event.league, keep=_player(keep), remove=_player(remove), by=None
        )
    assert refused.value.code == "players_met"
    assert refused.value.details == {"matches": [], "stages": [stage.pk]}
    assert Seat.objects.filter(player_id=remove).count() == 1


@pytest.mark.django_db
def test_a_duplicate_playing_right_now_is_merged_once_the_match_is_over(league_event):
    keep, remove, other = new_players("T", 3)
    match = Match.objects.get(pk=seat(league_event, [remove, other]))
    turn = simulate.play_game(scoring.new_game(match.game, 2, match.rules), seed=1)[0]
    game_services.turn_submit(match_id=match.pk, turn=turn)
    with pytest.raises(LeagueError) as refused:
        organization.player_merge(
            league=league_event.league, keep=_player(keep), remove=_player(remove), by=None
        )
    assert refused.value.code == "matches_in_progress"
    assert refused.value.details == {"matches": [match.pk]}


@pytest.mark.django_db
def test_a_player_is_not_merged_with_themselves_nor_with_someone_off_the_roster(league_event):
    (keep,) = new_players("T", 1)
    stranger = models.Player.objects.create(display_name="Stranger", handle="stranger")
    league = league_event.league
    with pytest.raises(LeagueError) as same:
        organization.player_merge(league=league, keep=_player(keep), remove=_player(keep), by=None)
    assert same.value.code == "same_player"
    with pytest.raises(LeagueError) as off_roster:
        organization.player_merge(league=league, keep=_player(keep), remove=stranger, by=None)
    assert off_roster.value.code == "player_not_in_league"
    assert off_roster.value.details["players"] == [stranger.pk]


@pytest.mark.django_db
def test_two_players_with_accounts_are_two_people(league_event):
    keep, remove = new_players("T", 2)
    models.Player.objects.filter(pk=keep).update(user=User.objects.create_user("one"))
    models.Player.objects.filter(pk=remove).update(user=User.objects.create_user("two"))
    with pytest.raises(LeagueError) as refused:
        organization.player_merge(
            league=league_event.league, keep=_player(keep), remove=_player(remove), by=None
        )
    assert refused.value.code == "players_both_linked"


@pytest.mark.django_db
def test_the_kept_name_must_be_free_on_every_roster_it_joins(league_event):
    keep, remove = new_players("T", 2)
    models.Player.objects.filter(pk=keep).update(display_name="Bo")
    elsewhere = models.League.objects.create(name="Elsewhere", slug="elsewhere-z", game="yardkle")
    namesake = models.Player.objects.create(display_name="BO", handle="bo-elsewhere")
    elsewhere.players.add(remove, namesake)
    with pytest.raises(LeagueError) as refused:
        organization.player_merge(
            league=league_event.league, keep=_player(keep), remove=_player(remove), by=None
        )
    assert refused.value.code == "name_taken"
    assert refused.value.details["player"] == namesake.pk
    assert not elsewhere.players.filter(pk=keep).exists()


@pytest.mark.django_db
def test_the_duplicate_may_carry_a_name_like_the_kept_one_on_another_roster(league_event):
    keep, remove = new_players("T", 2)
    models.Player.objects.filter(pk=keep).update(display_name="Bo")
    models.Player.objects.filter(pk=remove).update(display_name="Bo Smith")
    elsewhere = models.League.objects.create(name="Elsewhere", slug="elsewhere-w", game="yardkle")
    elsewhere.players.add(remove)
    models.Player.objects.filter(pk=remove).update(display_name="bo")  # renamed there, say
    merged = organization.player_merge(
        league=league_event.league, keep=_player(keep), remove=_player(remove), by=None
    )
    assert merged.rosters_joined == 1
    assert list(elsewhere.players.values_list("display_name", flat=True)) == ["Bo"]


@pytest.mark.django_db
def test_the_merge_check_refuses_what_the_merge_refuses_and_writes_nothing(league_event):
    keep, remove, other = new_players("T", 3)
    finish(seat(league_event, [keep, remove, other]), seed=1)
    league = league_event.league
    with pytest.raises(LeagueError) as refused:
        organization.player_merge_check(
            league=league, keep=_player(keep), remove=_player(remove), by=None
        )
    assert refused.value.code == "players_met"
    with pytest.raises(LeagueError) as same:
        organization.player_merge_check(
            league=league, keep=_player(keep), remove=_player(keep), by=None
        )
    assert same.value.code == "same_player"
    (alone,) = new_players("U", 1)
    organization.player_merge_check(
        league=league, keep=_player(alone), remove=_player(other), by=None
    )
    assert Seat.objects.filter(player_id=other).count() == 1  # checked, not merged
    assert models.Player.objects.filter(pk=other).exists()
