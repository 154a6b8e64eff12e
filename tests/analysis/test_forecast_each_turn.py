"""`FORECAST_EACH_TURN` (docs/configuration.md): on, a stored turn enqueues its match's forecast
once the turn commits; off (the test settings), nothing is enqueued and beat's sweep computes it."""

import pytest

from analysis import forecasts


@pytest.mark.django_db
@pytest.mark.parametrize("each_turn", [True, False])
def test_a_turn_enqueues_its_forecast_only_when_each_turn_is_on(
    settings, django_capture_on_commit_callbacks, each_turn
):
    settings.FORECAST_EACH_TURN = each_turn
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        forecasts.forecast_enqueue(7)
    assert len(callbacks) == (1 if each_turn else 0)
