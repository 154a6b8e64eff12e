"""`Game.seat_counts`: what standings count of a finished game beside the totals, from the
rulebook (issue 15): `games` stores them on the seats without knowing which game it is."""

import scoring
from scoring import simulate
from scoring.yardkle import ends_in_yardkle


def test_yardzee_counts_yardzees_and_the_upper_bonus_from_the_scorecard():
    game = scoring.new_game("yardzee", 2, {})
    for turn in simulate.play_game(scoring.new_game("yardzee", 2, {}), seed=7):
        game.play(turn)
    for seat in range(2):
        card = game.scorecard(seat)  # type: ignore[attr-defined]
        assert game.seat_counts(seat, []) == {
            "yardzees": card.yardzees,
            "upper_bonus": card.upper_bonus > 0,
        }


def test_yardkle_counts_the_seats_turns_that_ended_in_a_yardkle():
    game = scoring.new_game("yardkle", 3, {})
    turns = simulate.play_game(scoring.new_game("yardkle", 3, {}), seed=3)
    for turn in turns:
        game.play(turn)
    for seat in range(3):
        mine = turns[seat::3]
        expected = sum(ends_in_yardkle(turn) for turn in mine)
        assert game.seat_counts(seat, mine) == {"yardkles": expected}
    assert sum(game.seat_counts(s, turns[s::3])["yardkles"] for s in range(3)) > 0
