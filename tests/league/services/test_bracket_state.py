"""A bracket is advanced in one place (issue 15, "One home for each rule"): the stage service
stores every slot's state beside the bracket each time it advances it, through results,
undos, voids, walkovers and withdrawals alike; pages draw what it stored and never advance a
bracket themselves."""

import pytest
from django.test import Client

from games import services as game_services
from games.models import Match
from league import draw
from league.models import Stage, StageMatch
from league.services import stages
from scoring import simulate
from tests.playing import play


def _scheduled(stage: Stage) -> list[Match]:
    return list(Match.objects.filter(stage_match__stage=stage, status="scheduled").order_by("pk"))


def _fresh(stage: Stage) -> dict[str, object]:
    """The slot states advancing the bracket now, from the stored finishing orders, gives."""
    results = {
        sm.slot: draw.SlotResult(placements={p: i for i, p in enumerate(sm.order, start=1)})
        for sm in StageMatch.objects.filter(stage=stage).exclude(order=None)
    }
    state = draw.advance_bracket(draw.Bracket.from_json(stage.bracket), results)
    return draw.slot_states_to_json(state)


def _stored(stage: Stage) -> object:
    stage.refresh_from_db()
    return stage.bracket["state"]


@pytest.mark.django_db
def test_the_stored_slot_states_follow_every_change_to_the_bracket(league_event, field):
    stage = stages.stage_create(
        event_id=league_event.pk, name="DE", format="double_elimination", player_ids=field
    )
    stages.stage_start(stage_id=stage.pk)
    assert _stored(stage) == _fresh(stage)
    first, second = _scheduled(stage)[:2]
    play(first, seed=1)
    assert _stored(stage) == _fresh(stage)
    game_services.turn_undo(match_id=first.pk, undone_by=None)
    assert _stored(stage) == _fresh(stage), "an undo empties what the result fed"
    game_services.match_void(match_id=second.pk, voided_by=None)
    assert _stored(stage) == _fresh(stage)
    stages.stage_withdraw(stage_id=stage.pk, player_id=field[5])
    assert _stored(stage) == _fresh(stage), "a withdrawal's walkovers"
    for seed in range(40):
        waiting = _scheduled(stage) or list(
            Match.objects.filter(stage_match__stage=stage, status="in_progress")
        )
        if not waiting:
            break
        match = waiting[0]
        for turn in simulate.play_game(match.scoring_game(), seed=seed):
            game_services.turn_submit(match_id=match.pk, turn=turn)
        assert _stored(stage) == _fresh(stage)
    stage.refresh_from_db()
    assert stage.status == "finished"


@pytest.mark.django_db
def test_the_event_page_draws_the_stored_states_without_advancing_the_bracket(
    league_event, field, monkeypatch, client: Client
):
    stage = stages.stage_create(
        event_id=league_event.pk, name="SE", format="single_elimination", player_ids=field[:5]
    )
    stages.stage_start(stage_id=stage.pk)
    play(_scheduled(stage)[0], seed=3)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the page advanced the bracket")

    monkeypatch.setattr(draw, "advance_bracket", refuse)  # the module the page would call
    page = client.get(f"/events/{league_event.pk}/")
    assert page.status_code == 200
    assert "svg" in page.content.decode()
