"""`match_create`: the seats in the order given, the full ruleset and the fresh state stored on
the match; a ruleset or table the rulebook refuses leaves nothing behind."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError

import scoring
from games import services
from games.models import Match, MatchStatus, Seat
from scoring import RuleViolation

pytestmark = pytest.mark.django_db


def test_seats_are_stored_in_the_order_the_players_are_given(players):
    order = [players[3], players[0], players[5]]
    match = services.match_create(game="yardzee", player_ids=[p.pk for p in order])
    seats = list(match.seats.order_by("order").values_list("order", "player_id"))
    assert seats == [(0, order[0].pk), (1, order[1].pk), (2, order[2].pk)]


def test_a_new_match_is_scheduled_with_the_fresh_game_state(players, organizer, yardzee_event):
    match = services.match_create(
        game="yardzee",
        player_ids=[p.pk for p in players[:3]],
        event_id=yardzee_event.pk,
        league_id=yardzee_event.league_id,
        created_by=organizer,
    )
    match.refresh_from_db()
    assert match.status == MatchStatus.SCHEDULED
    assert match.turns_played == 0
    assert match.state == scoring.new_game("yardzee", 3, {}).to_json()
    assert (match.event, match.league, match.created_by) == (
        yardzee_event,
        yardzee_event.league,
        organizer,
    )
    assert match.started_at is None
    assert match.finished_at is None


def test_an_anonymous_creator_is_stored_as_nobody(players):
    match = services.match_create(
        game="yardkle", player_ids=[p.pk for p in players[:2]], created_by=AnonymousUser()
    )
    match.refresh_from_db()
    assert match.created_by is None


RULESETS = [
    ("yardzee", None, {"joker": "forced"}),
    ("yardzee", {"joker": "free_choice"}, {"joker": "free_choice"}),
    ("yardkle", {}, {"target": 10_000, "entry_minimum": 500}),
    ("yardkle", {"target": 5000}, {"target": 5000, "entry_minimum": 500}),
]


@pytest.mark.parametrize(("game", "rules", "kept"), RULESETS)
def test_the_full_ruleset_is_stored_with_the_defaults_of_options_not_given(
    players, game, rules, kept
):
    match = services.match_create(game=game, player_ids=[p.pk for p in players[:2]], rules=rules)
    match.refresh_from_db()
    assert match.rules == kept
    assert match.scoring_game().rules.to_json() == kept


REFUSED = [
    ("chess", 2, {}, "unknown_game"),
    ("yardzee", 1, {}, "player_count"),
    ("yardzee", 6, {}, "player_count"),
    ("yardzee", 2, {"joker": "sometimes"}, "invalid_rule_option"),
    ("yardkle", 2, {"target": 0}, "invalid_rule_option"),
    ("yardkle", 2, {"wild": True}, "unknown_rule_option"),
]


@pytest.mark.parametrize(("game", "count", "rules", "code"), REFUSED)
def test_a_table_or_ruleset_the_rulebook_refuses_stores_no_match(players, game, count, rules, code):
    with pytest.raises(RuleViolation) as refused:
        services.match_create(game=game, player_ids=[p.pk for p in players[:count]], rules=rules)
    assert refused.value.code == code
    assert not Match.objects.exists()
    assert not Seat.objects.exists()


def test_a_player_seated_twice_is_refused_and_leaves_no_match(players):
    """The league checks this first (`duplicate_player`); here the seat constraint refuses it
    and the match's own transaction takes its row back with it."""
    with pytest.raises(IntegrityError):
        services.match_create(game="yardzee", player_ids=[players[0].pk, players[0].pk])
    assert not Match.objects.exists()
