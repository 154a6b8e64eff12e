"""A league's game changes by one rule, the pages' and the API's alike (issue 17, "Every
organizer page checks the same rules as the API"): only while it has no event and no match
(`league_update`: 400 `game_settled` after)."""

import pytest

from league.models import Event, League


@pytest.mark.django_db
def test_the_game_changes_while_unsettled_and_is_then_refused_with_game_settled(
    as_organizer, organizer
):
    league = League.objects.create(name="New", slug="new-league", game="yardzee")
    league.organizers.add(organizer)
    changed = as_organizer.patch(
        f"/api/v1/leagues/{league.slug}/", {"game": "yardkle"}, format="json"
    )
    assert changed.status_code == 200, changed.json()
    assert changed.json()["game"] == "yardkle"
    Event.objects.create(league=league, name="Night", date="2026-12-01")
    refused = as_organizer.patch(
        f"/api/v1/leagues/{league.slug}/", {"game": "yardzee"}, format="json"
    )
    assert refused.status_code == 400
    assert refused.json()["code"] == "game_settled"
    assert League.objects.get(pk=league.pk).game == "yardkle"
