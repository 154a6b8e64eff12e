"""Exact oracles: the chance of a Yardzee within one turn, computed with fractions."""

from collections import Counter, defaultdict
from fractions import Fraction
from functools import cache
from itertools import product

from scoring.simulate import keep_most_common_face
from scoring.yardzee import score

Dice = tuple[int, ...]


@cache
def throw_distribution(dice: int) -> dict[Dice, Fraction]:
    """The chance of each sorted outcome of throwing `dice` dice."""
    outcomes = Counter(tuple(sorted(throw)) for throw in product(range(1, 7), repeat=dice))
    return {throw: Fraction(count, 6**dice) for throw, count in outcomes.items()}


def test_a_yardzee_within_one_turn_keeping_the_most_common_face_has_chance_347897_of_7558272():
    showing = throw_distribution(5)  # the first roll
    for _ in range(2):  # the second and third rolls
        after: defaultdict[Dice, Fraction] = defaultdict(Fraction)
        for dice, chance in showing.items():
            if score("yardzee", dice) == 50:
                after[dice] += chance
                continue
            keep = keep_most_common_face(dice)
            for thrown, thrown_chance in throw_distribution(5 - len(keep)).items():
                after[tuple(sorted(keep + list(thrown)))] += chance * thrown_chance
        showing = after
    chance = sum((p for dice, p in showing.items() if score("yardzee", dice) == 50), Fraction(0))
    assert chance == Fraction(347_897, 7_558_272)
    assert f"{float(chance):.6%}" == "4.602864%"
