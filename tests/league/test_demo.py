"""`make run`'s demo data: a league per game, a dozen players, an event, finished and
in-progress matches played by the simulator; loading it twice changes nothing."""

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

from games.models import Match, Turn
from league.models import Event, League, Player, Registration
from league.services.registration import registration_candidates


def _snapshot() -> tuple[int, ...]:
    return (
        League.objects.count(),
        Player.objects.count(),
        Event.objects.count(),
        Match.objects.count(),
        Turn.objects.count(),
    )


@pytest.mark.django_db
@override_settings(DEBUG=True)
def test_demo_data_has_a_league_per_game_with_played_matches_and_loads_idempotently():
    call_command("load_demo")
    assert set(League.objects.values_list("game", flat=True)) == {"yardzee", "yardkle"}
    assert Player.objects.count() == 12 + 2  # and the two confirmed at the Autumn Open
    for league in League.objects.all():
        matches = Match.objects.filter(event__league=league)
        assert matches.filter(status="finished").count() >= 2
        assert matches.filter(status="in_progress").count() >= 1
        for match in matches.filter(status="finished"):
            game = match.scoring_game()
            assert game.is_over
            assert [s.total for s in match.seats.order_by("order")] == [
                game.total(i) for i in range(game.players)
            ]
    first = _snapshot()
    call_command("load_demo")
    assert _snapshot() == first


@pytest.mark.django_db
def test_demo_data_refuses_to_load_with_debug_off():
    with pytest.raises(CommandError, match="DEBUG"):
        call_command("load_demo")
    assert _snapshot() == (0, 0, 0, 0, 0)


@pytest.mark.django_db
@override_settings(DEBUG=True)
def test_demo_data_shows_a_scheduled_round():
    """Issue 21, item 3: a round with its tables numbered and its starts staggered."""
    call_command("load_demo")
    scheduled = Match.objects.exclude(planned_at=None).order_by("planned_at")
    assert [m.table_label for m in scheduled] == ["Yard 1", "Yard 2"]
    first, second = scheduled
    assert (second.planned_at - first.planned_at).total_seconds() == 20 * 60
    assert {m.stage_match.round for m in scheduled} == {1}
    assert first.planned_zone == "Europe/London"


@pytest.mark.django_db
@override_settings(DEBUG=True)
def test_demo_data_shows_an_event_taking_sign_ups():
    """Issue 21, items 1 and 2: an open sign-up, confirmed players (one checked in), and a
    sign-up waiting for approval that matches a player there is already."""
    call_command("load_demo")
    call_command("load_demo")  # idempotent
    event = Event.objects.get(name="Autumn Open")
    assert event.sign_up.takes_sign_ups()
    rows = {r.display_name: r for r in Registration.objects.filter(event=event)}
    assert {name: r.status for name, r in rows.items()} == {
        "Mo": "confirmed",
        "Nell": "confirmed",
        "Ada L.": "pending",
    }
    assert rows["Mo"].checked_in_at is not None
    assert [c.player.handle for c in registration_candidates(rows["Ada L."])] == ["ada"]
