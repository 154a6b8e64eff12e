"""A stage's answer says what a forfeit did (issue 16 item 7): the slot's `walkover`, and who
forfeited it and why (`forfeits`), so a client never has to read the void match behind it."""

import pytest

from league.models import ForfeitReason, StageForfeit, StageMatch
from tests.api.helpers import started_stage

pytestmark = pytest.mark.django_db


def test_item7_the_stage_answer_names_each_forfeit_with_its_reason(
    as_organizer, yardzee_event, players
):
    yardzee_event.league.players.add(*players)
    stage = started_stage(
        as_organizer, yardzee_event.pk, [p.pk for p in players[:4]], format="single_elimination"
    )
    first = StageMatch.objects.get(stage_id=stage["id"], slot="W1-1")
    assert first.match is not None
    gone = first.match.seats.get(order=0).player_id
    response = as_organizer.post(
        f"/api/v1/stages/{stage['id']}/forfeit/",
        {"stage_match": first.pk, "player": gone},
        format="json",
    )
    assert response.status_code == 200, response.json()
    StageForfeit.objects.filter(player_id=gone).update(reason=ForfeitReason.WITHDREW)
    slots = as_organizer.get(f"/api/v1/stages/{stage['id']}/").json()["draw"]["bracket"]["slots"]
    play = next(slot["play"] for slot in slots if slot["key"] == "W1-1")
    assert play["walkover"] is True
    assert play["forfeits"] == [{"player": gone, "reason": "withdrew"}]
    assert play["order"][-1] == gone
    untouched = next(slot["play"] for slot in slots if slot["key"] == "W1-2")
    assert untouched["walkover"] is False
    assert untouched["forfeits"] == []
