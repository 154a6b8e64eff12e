"""Reads of matches: the board (whose turn, the round, every scorecard or score) as the rulebook
computes it from the stored state, the preview of a turn still being entered (nothing stored),
and turns read newest first, the latest of each match in a constant number of queries."""

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import selectors, services
from games.errors import MatchClosed
from games.models import Match, Seat, Turn
from league.models import Player
from scoring import RuleViolation
from scoring.yardzee import CATEGORIES, YardzeeGame
from tests.games.conftest import SCRIPTED_YARDZEE, WHOLE_YARDKLE, YARDKLE_RULES, stored

pytestmark = pytest.mark.django_db


@pytest.fixture
def reversed_pair(players: list[Player]) -> list[Player]:
    """Two players seated against the order of their ids, so a board that named players by
    id order instead of seat order would show."""
    return [players[3], players[1]]


def _seated(game: str, seated: list[Player], **options: Any) -> Match:
    return services.match_create(game=game, player_ids=[p.pk for p in seated], **options)


def _seats(match: Match) -> list[Seat]:
    return list(match.seats.order_by("order"))


def _latest(match: Match) -> list[Turn]:
    """The turns `match_detail_queryset` prefetched onto the match."""
    latest: list[Turn] = match.latest_turns  # type: ignore[attr-defined]
    return latest


def _submit(match: Match, turns: list[dict[str, Any]]) -> Match:
    for turn in turns:
        services.turn_submit(match_id=match.pk, turn=turn)
    return Match.objects.get(pk=match.pk)


# --- match_board ------------------------------------------------------------------------------


def test_the_yardzee_board_names_the_player_to_play_and_shows_every_scorecard(reversed_pair):
    match = _submit(_seated("yardzee", reversed_pair), SCRIPTED_YARDZEE[:3])
    local = YardzeeGame(2)
    for turn in SCRIPTED_YARDZEE[:3]:
        local.play(turn)
    board = selectors.match_board(match, _seats(match))
    assert {key: board[key] for key in ("round", "current_player", "current_seat", "is_over")} == {
        "round": 2,
        "current_player": reversed_pair[1].pk,
        "current_seat": 1,
        "is_over": False,
    }
    assert board["scorecards"] == [
        {"seat": 0, "player": reversed_pair[0].pk, **local.scorecard(0).to_json()},
        {"seat": 1, "player": reversed_pair[1].pk, **local.scorecard(1).to_json()},
    ]
    assert board["scorecards"][1]["boxes"]["yardzee"] == 50  # not the cards of a fresh game


def test_a_finished_board_names_nobody_to_play(finished_zee):
    board = selectors.match_board(finished_zee, _seats(finished_zee))
    assert (board["is_over"], board["current_player"], board["current_seat"], board["round"]) == (
        True,
        None,
        None,
        13,
    )
    assert [card["total"] for card in board["scorecards"]] == [30, 499]


YARDKLE_BOARDS = [
    # (turns played, round, seat to play, final round started by seat, scores (total, on board))
    (1, 1, 1, None, [(0, False), (0, False)]),
    (8, 5, 0, 1, [(1400, True), (3400, True)]),
]


@pytest.mark.parametrize(("turns", "round_", "seat", "final_by", "scores"), YARDKLE_BOARDS)
def test_the_yardkle_board_shows_the_scores_and_who_started_the_final_round(
    reversed_pair, turns, round_, seat, final_by, scores
):
    match = _seated("yardkle", reversed_pair, rules=YARDKLE_RULES)
    match = _submit(match, WHOLE_YARDKLE.turns(match)[:turns])
    board = selectors.match_board(match, _seats(match))
    assert (board["round"], board["current_player"], board["current_seat"]) == (
        round_,
        reversed_pair[seat].pk,
        seat,
    )
    assert board["final_round"] is (final_by is not None)
    assert board["final_round_by"] == (None if final_by is None else reversed_pair[final_by].pk)
    assert board["scores"] == [
        {"seat": order, "player": reversed_pair[order].pk, "total": total, "on_board": on_board}
        for order, (total, on_board) in enumerate(scores)
    ]


def test_the_board_is_of_the_game_given_without_reading_the_state_again(zee):
    """The API passes the game a turn was just applied to, so the state is not parsed twice."""
    outcome = services.turn_submit(match_id=zee.pk, turn=SCRIPTED_YARDZEE[0])
    zee.state = {}  # not a state: reading it would raise
    board = selectors.match_board(zee, outcome.seats, game=outcome.game)
    assert board["current_seat"] == 1


# --- turn_preview -----------------------------------------------------------------------------


YARDZEE_PREVIEWS = [
    # (id, turns played first, dice, options, Yardzee bonus)
    (
        "every_box_open",
        0,
        [3, 3, 3, 2, 2],
        dict.fromkeys(CATEGORIES, 0)
        | {"twos": 4, "threes": 9, "three_of_a_kind": 13, "full_house": 25, "chance": 13},
        0,
    ),
    (
        # Seat 1 has 50 in the Yardzee box: five fours must go in fours, with the bonus.
        "forced_joker",
        3,
        [4, 4, 4, 4, 4],
        {name: None for name in CATEGORIES if name != "yardzee"} | {"fours": 20},
        100,
    ),
]


@pytest.mark.parametrize(
    ("turns", "dice", "options", "bonus"),
    [case[1:] for case in YARDZEE_PREVIEWS],
    ids=[case[0] for case in YARDZEE_PREVIEWS],
)
def test_a_yardzee_preview_shows_every_open_box_with_its_points_and_stores_nothing(
    zee, turns, dice, options, bonus
):
    match = _submit(zee, SCRIPTED_YARDZEE[:turns])
    before = stored(match.pk)
    assert selectors.turn_preview(match, {"dice": dice}) == {
        "game": "yardzee",
        "options": options,
        "yardzee_bonus": bonus,
    }
    assert stored(match.pk) == before


def test_a_yardkle_preview_shows_the_turn_so_far_and_every_legal_set_aside(kle):
    before = stored(kle.pk)
    preview = selectors.turn_preview(
        kle, {"throws": [{"dice": [1, 5, 2, 3, 4, 6], "set_aside": [1, 5]}], "dice": [1, 1, 2, 3]}
    )
    assert preview == {
        "game": "yardkle",
        "turn_total": 150,
        "dice_to_throw": 4,
        "hot_dice": False,
        "yardkle": False,
        "can_bank": False,  # below the entry minimum of 500
        "on_board": False,
        "has_points": True,
        "set_aside_options": [{"dice": [1], "points": 100}, {"dice": [1, 1], "points": 200}],
    }
    assert stored(kle.pk) == before


def test_a_yardkle_throw_without_point_dice_has_no_set_aside(kle):
    preview = selectors.turn_preview(kle, {"dice": [2, 3, 4, 6, 2, 3]})
    assert (preview["has_points"], preview["set_aside_options"]) == (False, [])


REFUSED_PREVIEWS = [
    ("not_an_object", "zee", [3, 3, 3, 2, 2], "wrong_type"),
    ("yardzee_without_dice", "zee", {"throws": []}, "missing_key"),
    ("yardzee_die_of_seven", "zee", {"dice": [3, 3, 3, 2, 7]}, "invalid_die"),
    ("yardzee_four_dice", "zee", {"dice": [3, 3, 3, 2]}, "wrong_dice_count"),
]


@pytest.mark.parametrize(
    ("fixture", "partial", "code"),
    [case[1:] for case in REFUSED_PREVIEWS],
    ids=[case[0] for case in REFUSED_PREVIEWS],
)
def test_a_preview_the_rules_cannot_read_raises_its_rule_violation(request, fixture, partial, code):
    with pytest.raises(RuleViolation) as refused:
        selectors.turn_preview(request.getfixturevalue(fixture), partial)
    assert refused.value.code == code


def test_a_finished_or_void_match_has_no_preview(finished_zee, kle):
    services.match_void(match_id=kle.pk, voided_by=None)
    kle.refresh_from_db()
    for match, status in ((finished_zee, "finished"), (kle, "void")):
        with pytest.raises(MatchClosed) as refused:
            selectors.turn_preview(match, {"dice": [1, 2, 3, 4, 5]})
        assert refused.value.details == {"status": status}


# --- Turns, newest first ----------------------------------------------------------------------


def test_turns_are_read_newest_first_with_their_seats(zee, play):
    play(zee, turns=5)
    turns = list(selectors.turns_newest_first(zee))
    with CaptureQueriesContext(connection) as queries:
        read = [(turn.sequence, turn.seat.order) for turn in turns]
    assert read == [(5, 0), (4, 1), (3, 0), (2, 1), (1, 0)]
    assert len(queries) == 0


def test_each_match_carries_only_its_own_latest_turns_newest_first(seat, play, monkeypatch):
    monkeypatch.setattr(selectors, "LATEST_TURNS", 3)
    long, short, fresh = seat(), seat(), seat()
    play(long, turns=5)
    play(short, turns=2)
    read = {
        match.pk: [turn.sequence for turn in _latest(match)]
        for match in selectors.match_detail_queryset().filter(pk__in=[long.pk, short.pk, fresh.pk])
    }
    assert read == {long.pk: [5, 4, 3], short.pk: [2, 1], fresh.pk: []}


def _read_details(ids: list[int]) -> int:
    """Queries to read these matches with everything their answers show."""
    with CaptureQueriesContext(connection) as queries:
        for match in selectors.match_detail_queryset().filter(pk__in=ids):
            _ = match.event
            _ = [(seat.order, seat.player.display_name) for seat in match.seats.all()]
            _ = [(turn.sequence, turn.seat.order) for turn in _latest(match)]
    return len(queries)


def test_reading_match_details_costs_the_same_queries_for_one_match_or_many(
    seat, play, yardzee_event
):
    at_event = {"event_id": yardzee_event.pk, "league_id": yardzee_event.league_id}
    first = seat(**at_event)
    play(first, turns=4)
    one = _read_details([first.pk])
    others = [seat(count=count, **at_event) for count in (3, 4, 5)]
    for match in others:
        play(match, turns=6)
    assert _read_details([first.pk, *(m.pk for m in others)]) == one
    # The matches with their events; the seats with their players; the latest turns with
    # their seats.
    assert one == 3
