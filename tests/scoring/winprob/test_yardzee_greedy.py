"""The greedy player's points to come (scoring.winprob.yardzee_greedy; docs/analysis.md, "Win
probability: Yardzee", "Strengths"): the policy's moments by backward induction against a
state worked out by hand, against its exact distribution, and against the calibration's
simulated greedy players, who play it."""

from math import comb

import numpy as np
import pytest

from scoring.analysis import YardzeeState
from scoring.analysis.rolls import LAYER_INDEX
from scoring.errors import RuleViolation
from scoring.winprob.yardzee_calibration import play
from scoring.winprob.yardzee_exact import KEEP_COUNTS
from scoring.winprob.yardzee_greedy import (
    GreedySpread,
    final_chances,
    greedy_boxes,
    greedy_roll,
    most_common_face,
    turn_final,
)
from scoring.yardzee import CATEGORIES, YardzeeRules


@pytest.fixture(scope="module")
def greedy() -> GreedySpread:
    """The whole table (seconds)."""
    return GreedySpread.build(YardzeeRules())


def five_alike_in_three_rolls() -> float:
    """The chance of five alike within three rolls keeping the most common face, worked out
    apart: the number of dice still to match is a Markov chain (from the first roll's most
    common count), each roll matching each thrown die with chance 1/6."""

    def matched(thrown: int, hits: int) -> float:
        return comb(thrown, hits) * (1 / 6) ** hits * (5 / 6) ** (thrown - hits)

    # The first roll's most common count: 1 (all different), 2, 3, 4, 5 of 7,776 rolls.
    first = {1: 720, 2: 5400, 3: 1500, 4: 150, 5: 6}

    # After keeping `count` alike and throwing the rest, the new most common count: the kept
    # face's dice plus those thrown that match it, or a larger group among the thrown (which
    # only 3 or 4 thrown dice can make).
    def step(count: int) -> dict[int, float]:
        thrown = 5 - count
        if count == 5:
            return {5: 1.0}
        if count >= 3:  # the thrown dice cannot form a larger group
            return {count + hits: matched(thrown, hits) for hits in range(thrown + 1)}
        # count 1 or 2: enumerate the thrown dice against the kept face (face 6 kept, say).
        found: dict[int, float] = {}
        for roll in np.ndindex(*([6] * thrown)):
            kept = count + sum(1 for face in roll if face == 5)
            others = max((sum(1 for face in roll if face == f) for f in range(5)), default=0)
            best = max(kept, others)
            found[best] = found.get(best, 0.0) + 6.0**-thrown
        return found

    chances = {count: ways / 7776 for count, ways in first.items()}
    for _ in range(2):
        after: dict[int, float] = {}
        for count, chance in chances.items():
            for new, moved in step(count).items():
                after[new] = after.get(new, 0.0) + chance * moved
        chances = after
    return chances[5]


def test_the_greedy_keep_is_the_most_common_face_the_higher_on_a_tie():
    outcomes = [(1, 2, 3, 5, 5), (2, 2, 4, 6, 6), (3, 3, 3, 3, 3), (1, 2, 3, 4, 6)]
    keeps = most_common_face(np.array([LAYER_INDEX[dice] for dice in outcomes]))
    kept = [tuple(int(count) for count in KEEP_COUNTS[keep]) for keep in keeps]
    assert kept == [(0, 0, 0, 0, 2, 0), (0, 0, 0, 0, 0, 2), (0, 0, 5, 0, 0, 0), (0, 0, 0, 0, 0, 1)]
    chance_after = greedy_roll()
    assert chance_after.sum(axis=1) == pytest.approx(np.ones(len(chance_after)))
    # Five alike stay: the stop keeps all five dice.
    five_threes = LAYER_INDEX[(3, 3, 3, 3, 3)]
    assert chance_after[five_threes, five_threes] == 1.0
    assert turn_final().sum() == pytest.approx(1.0)


def test_the_yardzee_box_alone_is_fifty_times_the_chance_of_five_alike(late_greedy):
    # Only the Yardzee box open (no 50 yet): the rest is 50 with the chance of five alike in
    # three rolls keeping the most common face (2,783,176 / 60,466,176 = 0.046029).
    state = YardzeeState(frozenset(CATEGORIES) - {"yardzee"}, 30, False)
    chance = five_alike_in_three_rolls()
    assert chance == pytest.approx(2_783_176 / 60_466_176, abs=1e-12)
    rest = late_greedy.remaining(state)
    assert rest.mean == pytest.approx(50 * chance, abs=1e-9)
    assert rest.variance == pytest.approx(2500 * chance * (1 - chance), abs=1e-7)
    found = late_greedy.distribution(state)
    assert found[50] == pytest.approx(chance, abs=1e-12)
    assert found[0] == pytest.approx(1 - chance, abs=1e-12)


def test_the_exact_distribution_has_the_tabulated_mean_and_second_moment(late_greedy):
    state = YardzeeState(frozenset(CATEGORIES[:4] + CATEGORIES[6:10] + CATEGORIES[11:]), 40, True)
    found = late_greedy.distribution(state)
    points = np.arange(len(found))
    rest = late_greedy.remaining(state)
    assert found.sum() == pytest.approx(1.0, abs=1e-12)
    assert (found * points).sum() == pytest.approx(rest.mean, abs=1e-9)
    second = (found * points**2).sum()
    assert second - rest.mean**2 == pytest.approx(rest.variance, abs=1e-7)


def test_dice_showing_follow_the_greedy_keeps_and_box(late_greedy):
    state = YardzeeState(frozenset(CATEGORIES) - {"chance", "yardzee"}, 63, False)
    # No rolls left: the box that scores most now (Yardzee's 50), then the Chance alone.
    rest = late_greedy.remaining(state, [4, 4, 4, 4, 4], 0)
    chance_alone = late_greedy.remaining(YardzeeState(frozenset(CATEGORIES) - {"chance"}, 63, True))
    assert rest.mean == pytest.approx(50 + chance_alone.mean, abs=1e-9)
    assert rest.variance == pytest.approx(chance_alone.variance, abs=1e-7)
    # Two rolls left from dice showing: a mixture of the final dice's boxes.
    showing = np.zeros(252)
    showing[LAYER_INDEX[(2, 3, 3, 5, 6)]] = 1.0
    final = final_chances(showing, 2)
    boxes = greedy_boxes(np.array([state.index]), "forced")
    after_mean = late_greedy.table[0][boxes.after[:, 0]]
    mean = (final * (boxes.gain[:, 0] + after_mean)).sum()
    assert late_greedy.remaining(state, [6, 5, 3, 3, 2], 2).mean == pytest.approx(mean)
    with pytest.raises(RuleViolation):
        late_greedy.remaining(state, [6, 5, 3, 3, 2], 3)


def test_the_greedy_mean_from_the_start_is_what_the_simulated_greedy_players_score(
    late_spread, greedy
):
    start = greedy.remaining(YardzeeState.start())
    assert 150 < start.mean < 175  # far below the strategy's 254.59
    games = play(late_spread, "greedy", 4000, seed=12)
    finals = games.totals[:, -1].astype(float)
    error = finals.std() / np.sqrt(len(finals))
    assert abs(finals.mean() - start.mean) < 4 * error
    assert finals.std() == pytest.approx(start.variance**0.5, rel=0.1)  # a fat tail: loose
    # And from the states the players stand in after ten turns, the rest they scored.
    states = games.states[:, 10]
    rest = (games.totals[:, -1] - games.totals[:, 10]).astype(float)
    gap = rest - greedy.table[0][states]
    assert abs(gap.mean()) < 4 * gap.std() / np.sqrt(len(gap))


def test_the_table_saves_and_loads_with_its_fingerprint(late_greedy, tmp_path):
    whole = GreedySpread(YardzeeRules(), np.nan_to_num(np.asarray(late_greedy.table)))
    whole.save(tmp_path)
    loaded = GreedySpread.load(None, tmp_path)
    assert np.array_equal(loaded.table, whole.table)
