"""An event's status follows play (issue 16 item 6): upcoming until a stage of it starts or a
match of it takes its first turn, running while played, finished once its last stage finishes
(and nothing else of it is still being played); its organizers close it (finished or
cancelled) and reopen it, and a closed event refuses every write with `event_closed`."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import scoring
from games import services as game_services
from games.errors import EventClosed
from games.models import Match, Turn
from league.errors import EventConflict, LeagueError
from league.models import Event, EventStatus, Stage, StageMatch
from league.services import organization, schedule, stages
from scoring import simulate
from tests.league.services.league_night import finish, seat
from tests.playing import fed_stage

pytestmark = pytest.mark.django_db


def _status(event: Event) -> str:
    return Event.objects.get(pk=event.pk).status


def _turns(match_id: int, seed: int = 0) -> list[dict[str, object]]:
    match = Match.objects.get(pk=match_id)
    return simulate.play_game(
        scoring.new_game(match.game, match.seats.count(), match.rules), seed=seed
    )


def _first_turn(match_id: int) -> None:
    game_services.turn_submit(match_id=match_id, turn=_turns(match_id)[0])


def _round_robin(event: Event, players: list[int], name: str = "Groups") -> Stage:
    stage = stages.stage_create(
        event_id=event.pk, name=name, format="round_robin", player_ids=players
    )
    return stages.stage_start(stage_id=stage.pk)


def _play_stage(stage: Stage) -> None:
    for number, match_id in enumerate(
        Match.objects.filter(stage_match__stage=stage, status="scheduled")
        .order_by("pk")
        .values_list("pk", flat=True)
    ):
        finish(match_id, seed=number)


# --- Following play ----------------------------------------------------------------------------


def test_item6_an_event_is_upcoming_until_a_match_of_it_takes_its_first_turn(league_event, field):
    match_id = seat(league_event, field[:2])
    assert _status(league_event) == EventStatus.UPCOMING
    _first_turn(match_id)
    assert _status(league_event) == EventStatus.RUNNING


def test_issue38_an_event_is_running_as_soon_as_a_stage_of_it_starts(league_event, field):
    """Issue 38, item 9: its tables are seated, so it is no longer "Upcoming"; reopened after
    a close, it is running again for that stage alone."""
    stage = stages.stage_create(
        event_id=league_event.pk, name="Groups", format="round_robin", player_ids=field[:4]
    )
    assert _status(league_event) == EventStatus.UPCOMING  # a draft seats nobody
    stages.stage_start(stage_id=stage.pk)
    assert _status(league_event) == EventStatus.RUNNING
    organization.event_close(event_id=league_event.pk, status=EventStatus.CANCELLED)
    organization.event_reopen(event_id=league_event.pk)
    assert _status(league_event) == EventStatus.RUNNING


def test_item6_a_whole_result_entered_at_once_starts_the_event_too(league_event, field):
    finish(seat(league_event, field[:2]), seed=1)
    assert _status(league_event) == EventStatus.RUNNING


def test_item6_a_first_turn_in_a_running_event_does_not_write_the_event(league_event, field):
    _first_turn(seat(league_event, field[:2]))
    second = seat(league_event, field[2:4])
    with CaptureQueriesContext(connection) as captured:
        _first_turn(second)
    # (A turn's own statements are prepared on the server: the query log has no text for them.)
    # The only UPDATE of the event is the one that matches an upcoming event alone: a running
    # event is neither written nor locked by it.
    updates = [q["sql"] for q in captured if 'UPDATE "league_event"' in (q["sql"] or "")]
    assert all(""""league_event"."status" = 'upcoming'""" in sql for sql in updates), updates
    assert _status(league_event) == EventStatus.RUNNING


def test_item6_a_casual_match_of_no_event_starts_nothing(league_event, field):
    match = game_services.match_create(
        game="yardkle", player_ids=field[:2], league_id=league_event.league_id
    )
    _first_turn(match.pk)
    assert _status(league_event) == EventStatus.UPCOMING


def test_item6_an_event_finishes_when_its_last_stage_finishes(league_event, field):
    stage = _round_robin(league_event, field[:4])
    _play_stage(stage)
    assert Stage.objects.get(pk=stage.pk).status == "finished"
    assert _status(league_event) == EventStatus.FINISHED


def test_item6_a_stage_still_to_play_keeps_the_event_running(league_event, field):
    groups = _round_robin(league_event, field[:4])
    fed_stage(groups, name="Final", source_top=2)
    _play_stage(groups)
    assert Stage.objects.get(pk=groups.pk).status == "finished"
    assert _status(league_event) == EventStatus.RUNNING


def test_item6_a_match_outside_the_stages_still_being_played_keeps_it_running_until_it_ends(
    league_event, field
):
    casual = seat(league_event, field[4:6])
    _first_turn(casual)
    _play_stage(_round_robin(league_event, field[:4]))
    assert _status(league_event) == EventStatus.RUNNING
    rest = _turns(casual)[1:]
    for turn in rest:
        game_services.turn_submit(match_id=casual, turn=turn)
    assert Match.objects.get(pk=casual).status == "finished"
    assert _status(league_event) == EventStatus.FINISHED


def test_item6_an_event_of_casual_tables_only_is_finished_by_its_organizers(league_event, field):
    finish(seat(league_event, field[:2]), seed=1)
    finish(seat(league_event, field[2:4]), seed=2)
    assert _status(league_event) == EventStatus.RUNNING
    organization.event_close(event_id=league_event.pk)
    assert _status(league_event) == EventStatus.FINISHED


def test_item6_a_walkover_that_decides_the_last_stage_finishes_the_event(league_event, field):
    stage = stages.stage_create(
        event_id=league_event.pk, name="Duel", format="single_elimination", player_ids=field[:2]
    )
    stages.stage_start(stage_id=stage.pk)
    final = StageMatch.objects.get(stage=stage)
    stages.stage_forfeit(stage_match_id=final.pk, player_id=field[1])
    assert Stage.objects.get(pk=stage.pk).status == "finished"
    assert _status(league_event) == EventStatus.FINISHED


# --- Close and reopen ----------------------------------------------------------------------------


def test_item6_close_is_refused_while_matches_are_being_played_and_names_them(league_event, field):
    playing = seat(league_event, field[:2])
    _first_turn(playing)
    seat(league_event, field[2:4])  # seated, not started: does not hold the close back
    with pytest.raises(EventConflict) as refused:
        organization.event_close(event_id=league_event.pk)
    assert refused.value.code == "matches_in_progress"
    assert refused.value.details == {"event": league_event.pk, "matches": [playing]}
    assert _status(league_event) == EventStatus.RUNNING
    game_services.match_void(match_id=playing, voided_by=None)
    assert organization.event_close(event_id=league_event.pk).status == EventStatus.FINISHED


@pytest.mark.parametrize("status", [EventStatus.FINISHED, EventStatus.CANCELLED])
def test_item6_a_closed_event_refuses_every_write_with_event_closed(league_event, field, status):
    played = seat(league_event, field[:2])
    finish(played, seed=3)
    started = seat(league_event, field[2:4])
    draft = stages.stage_create(
        event_id=league_event.pk, name="Late", format="round_robin", player_ids=field[:4]
    )
    organization.event_close(event_id=league_event.pk, status=status)
    writes = {
        "turn": lambda: _first_turn(started),
        "result": lambda: finish(started, seed=4),
        "undo": lambda: game_services.turn_undo(match_id=played, undone_by=None),
        "void": lambda: game_services.match_void(match_id=played, voided_by=None),
        "match": lambda: organization.match_create(
            game="yardkle", player_ids=field[4:6], event=Event.objects.get(pk=league_event.pk)
        ),
        "stage": lambda: stages.stage_create(
            event_id=league_event.pk, name="More", format="round_robin", player_ids=field[:3]
        ),
        "stage start": lambda: stages.stage_start(stage_id=draft.pk),
        "schedule a round": lambda: schedule.round_schedule(
            stage_id=draft.pk, round_number=1, first_start=timezone.now() + timedelta(days=1)
        ),
        "schedule a match": lambda: schedule.match_schedule(match_id=started, table_label="B"),
    }
    for name, write in writes.items():
        with pytest.raises(EventClosed) as refused:
            write()
        assert refused.value.code == "event_closed", name
        assert refused.value.details == {"event": league_event.pk, "status": status}, name
    assert Match.objects.filter(event=league_event).count() == 2
    assert not Turn.objects.filter(match_id=started).exists()
    assert Stage.objects.get(pk=draft.pk).status == "draft"


def test_item6_a_forfeit_in_a_closed_event_is_refused(league_event, field):
    stage = stages.stage_create(
        event_id=league_event.pk, name="Cup", format="single_elimination", player_ids=field[:4]
    )
    stages.stage_start(stage_id=stage.pk)
    organization.event_close(event_id=league_event.pk)
    first = StageMatch.objects.filter(stage=stage).order_by("slot").first()
    no_show = first.match.seats.order_by("order").first().player_id
    with pytest.raises(EventClosed):
        stages.stage_forfeit(stage_match_id=first.pk, player_id=no_show)
    first.refresh_from_db()
    assert first.walkover is False
    assert first.match.status == "scheduled"


def test_item6_closing_again_as_it_is_changes_nothing_and_the_other_way_needs_a_reopen(
    league_event,
):
    organization.event_close(event_id=league_event.pk)
    assert organization.event_close(event_id=league_event.pk).status == EventStatus.FINISHED
    with pytest.raises(EventClosed) as refused:
        organization.event_close(event_id=league_event.pk, status=EventStatus.CANCELLED)
    assert refused.value.details == {"event": league_event.pk, "status": "finished"}
    organization.event_reopen(event_id=league_event.pk)
    closed = organization.event_close(event_id=league_event.pk, status=EventStatus.CANCELLED)
    assert closed.status == EventStatus.CANCELLED


def test_item6_an_event_is_closed_only_as_finished_or_cancelled(league_event):
    with pytest.raises(LeagueError) as refused:
        organization.event_close(event_id=league_event.pk, status=EventStatus.RUNNING)
    assert refused.value.code == "invalid_option"
    assert _status(league_event) == EventStatus.UPCOMING


def test_item6_reopen_runs_an_event_that_was_played_and_makes_one_never_played_upcoming(
    league_event, field
):
    organization.event_close(event_id=league_event.pk, status=EventStatus.CANCELLED)
    assert organization.event_reopen(event_id=league_event.pk).status == EventStatus.UPCOMING
    finish(seat(league_event, field[:2]), seed=1)
    organization.event_close(event_id=league_event.pk)
    assert organization.event_reopen(event_id=league_event.pk).status == EventStatus.RUNNING
    assert organization.event_reopen(event_id=league_event.pk).status == EventStatus.RUNNING


def test_item6_a_finished_event_reopened_takes_a_correction_and_finishes_again(league_event, field):
    stage = stages.stage_create(
        event_id=league_event.pk, name="Duel", format="single_elimination", player_ids=field[:2]
    )
    stages.stage_start(stage_id=stage.pk)
    final = StageMatch.objects.get(stage=stage).match_id
    turns = _turns(final, seed=7)
    game_services.result_submit(match_id=final, turns=turns)
    assert _status(league_event) == EventStatus.FINISHED
    with pytest.raises(EventClosed):
        game_services.turn_undo(match_id=final, undone_by=None)

    organization.event_reopen(event_id=league_event.pk)
    game_services.turn_undo(match_id=final, undone_by=None)
    assert Stage.objects.get(pk=stage.pk).status == "running"
    assert _status(league_event) == EventStatus.RUNNING
    game_services.turn_submit(match_id=final, turn=turns[-1])
    assert Stage.objects.get(pk=stage.pk).status == "finished"
    assert _status(league_event) == EventStatus.FINISHED
