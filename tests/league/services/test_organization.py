"""Leagues, events and players (`league.services.organization`): a league's settings are
checked before they are stored."""

import pytest
from rest_framework.test import APIClient


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("tiebreak", "code"),
    [
        (["points", "luck"], "unknown_metric"),
        (["points", "points"], "duplicate_metric"),
        (["yardzees"], "metric_not_for_game"),
    ],
)
def test_an_impossible_tiebreak_order_is_refused_with_its_code(
    league_event, organizer, tiebreak, code
):
    client = APIClient()
    client.force_authenticate(organizer)
    response = client.patch(
        f"/api/v1/leagues/{league_event.league.slug}/", {"tiebreak": tiebreak}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == code
    league_event.league.refresh_from_db()
    assert "luck" not in league_event.league.tiebreak
