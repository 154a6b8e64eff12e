"""How a Yardzee player's final total spreads, by how well they play (docs/analysis.md, "Win
probability: Yardzee", "Strengths").

The optimal solitaire strategy's table gives the mean `V` and deviation `D` of a player's
points to come from any state, if they play optimally from here. Neither the normal of that
mean and deviation nor the assumption of optimal play calibrates (the points to come have a
narrow bulk and a long right tail; weaker players realise only part of `V`). So a player's
points to come are taken, for each of two strengths, as

    R = a + b * V + D * Z,  Z a mixture of two normals (chance p of N(m1, s1), else N(m2, s2)),

with `(a, b, p, m1, s1, m2, s2)` by the number of boxes open, fitted (`fit`) on simulated
players of that strength: `optimal` (a = 0, b = 1 by construction) and `greedy` (the
calibration's weaker player, `scoring.winprob.yardzee_calibration`). A player is a mixture of
the two, the weaker one's weight their loss rate against the greedy player's (`weak_weight`).
"""

from typing import Final

import numpy as np

from scoring.analysis.rolls import FloatArray, IntArray

SHAPE_FIELDS: Final = ("a", "b", "p", "m1", "s1", "m2", "s2")
GREEDY_LOSS_RATE: Final = 7.12
"""The greedy player's expected points lost a turn against the optimal play (92.6 a game of
13 turns, `fit`'s simulation): a player losing this much or more is all `greedy`."""

# Fitted by `manage.py calibrate_yardzee --fit` (40,000 players of each strength, seed 1;
# `yardzee_calibration.fit`), which prints these two tables as they stand here: a row a
# number of boxes open (0: the game is over), the fields `SHAPE_FIELDS`.
OPTIMAL: Final[FloatArray] = np.array(
    [
        [0.0000, 1.0000, 1.0000, 0.0000, 1.0000, 0.0000, 1.0000],
        [0.0000, 1.0000, 0.5372, -0.4571, 0.2219, 0.5389, 1.2520],
        [0.0000, 1.0000, 0.8210, -0.2336, 0.6453, 1.0933, 1.4880],
        [0.0000, 1.0000, 0.8088, -0.2372, 0.6732, 1.0336, 1.4200],
        [0.0000, 1.0000, 0.7799, -0.2466, 0.6770, 0.9129, 1.3865],
        [0.0000, 1.0000, 0.8091, -0.2111, 0.7051, 0.9489, 1.4560],
        [0.0000, 1.0000, 0.9456, -0.1041, 0.8125, 1.9723, 1.8411],
        [0.0000, 1.0000, 0.9481, -0.1115, 0.7916, 2.2445, 1.7902],
        [0.0000, 1.0000, 0.9413, -0.1328, 0.7603, 2.2973, 1.6621],
        [0.0000, 1.0000, 0.9329, -0.1532, 0.7337, 2.2840, 1.5217],
        [0.0000, 1.0000, 0.9187, -0.1784, 0.7051, 2.1458, 1.4736],
        [0.0000, 1.0000, 0.9065, -0.1986, 0.6803, 2.0255, 1.4089],
        [0.0000, 1.0000, 0.8903, -0.2201, 0.6546, 1.9085, 1.3891],
        [0.0000, 1.0000, 0.8781, -0.2411, 0.6319, 1.8282, 1.3314],
    ]
)
GREEDY: Final[FloatArray] = np.array(
    [
        [0.0000, 1.0000, 1.0000, 0.0000, 1.0000, 0.0000, 1.0000],
        [1.5095, 0.3225, 0.8962, -0.2124, 0.0031, 1.8111, 2.5315],
        [-3.4378, 0.4520, 0.8883, -0.2985, 0.0964, 2.3239, 1.5545],
        [-8.1637, 0.4651, 0.7580, -0.4902, 0.1467, 1.3583, 1.4919],
        [-12.2008, 0.5381, 0.6806, -0.6071, 0.2678, 1.1285, 1.4796],
        [-17.4468, 0.6138, 0.6788, -0.6244, 0.3865, 1.1544, 1.5411],
        [-22.9125, 0.6786, 0.6918, -0.5972, 0.4795, 1.1838, 1.5988],
        [-28.2573, 0.7315, 0.7293, -0.5374, 0.5558, 1.3008, 1.6664],
        [-36.1230, 0.7928, 0.8473, -0.3847, 0.6841, 1.9442, 1.8227],
        [-49.9194, 0.8804, 0.8775, -0.3404, 0.6859, 2.2856, 1.7473],
        [-63.2146, 0.9444, 0.8749, -0.3393, 0.6439, 2.2891, 1.6101],
        [-71.9777, 0.9655, 0.8678, -0.3512, 0.6077, 2.2561, 1.5225],
        [-96.6139, 1.0494, 0.8539, -0.3739, 0.5697, 2.1763, 1.4511],
        [0.0000, 0.6376, 0.8395, -0.3994, 0.5443, 2.0887, 1.4210],
    ]
)


def table_source(name: str, table: FloatArray) -> str:
    """`table` as this module's source states it (`name: Final[FloatArray] = np.array(...)`,
    four decimals), for `manage.py calibrate_yardzee --fit` to print."""
    rows = "".join(
        "        [" + ", ".join(f"{value:.4f}" for value in row) + "],\n" for row in table
    )
    return f"{name}: Final[FloatArray] = np.array(\n    [\n{rows}    ]\n)"


def weak_weight(rates: FloatArray) -> FloatArray:
    """The weight of the `greedy` strength for players losing `rates` points a turn."""
    weight: FloatArray = np.clip(rates / GREEDY_LOSS_RATE, 0.0, 1.0)
    return weight


def two_normals(z: FloatArray, iterations: int = 200) -> tuple[float, float, float, float, float]:
    """A mixture of two normals fitted to the sample `z` by expectation-maximisation, started
    from a narrow bulk and a wide tail: `(p, m1, s1, m2, s2)`."""
    spread = float(z.std()) or 1.0
    p, m1, s1, m2, s2 = 0.7, float(np.median(z)), 0.6 * spread, float(z.mean()) + 0.5, spread
    for _ in range(iterations):
        first = p * _density(z, m1, s1)
        second = (1 - p) * _density(z, m2, s2)
        share = first / np.maximum(first + second, 1e-300)
        p = float(share.mean())
        if not 1e-4 < p < 1 - 1e-4:
            return 1.0, float(z.mean()), spread, 0.0, 1.0
        m1 = float((share * z).sum() / share.sum())
        m2 = float(((1 - share) * z).sum() / (1 - share).sum())
        s1 = max(float(np.sqrt((share * (z - m1) ** 2).sum() / share.sum())), 1e-3)
        s2 = max(float(np.sqrt(((1 - share) * (z - m2) ** 2).sum() / (1 - share).sum())), 1e-3)
    return p, m1, s1, m2, s2


def _density(z: FloatArray, mean: float, deviation: float) -> FloatArray:
    found: FloatArray = np.exp(-0.5 * ((z - mean) / deviation) ** 2) / deviation
    return found


def fit_rows(
    values: FloatArray,
    deviations: FloatArray,
    rest: FloatArray,
    open_boxes: FloatArray,
    *,
    regress: bool,
) -> FloatArray:
    """The table's rows (boxes open 0 to 13) fitted on players' positions: the optimal mean
    `values` and deviation `deviations` of their points to come, the points that came (`rest`)
    and their boxes open. `regress` fits `a` and `b` (else 0 and 1)."""
    rows = np.array([[0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0]] * 14)
    for boxes in range(1, 14):
        at = (open_boxes == boxes) & (deviations > 0)
        if at.sum() < 100:
            continue
        value, deviation, came = values[at], deviations[at], rest[at]
        a, b = 0.0, 1.0
        if regress and value.std() > 1e-6 * value.mean():
            b, a = (float(x) for x in np.polyfit(value, came, 1))
        elif regress:  # one state (the empty scorecard): a share of its value
            b = float(came.mean() / value.mean())
        z = (came - a - b * value) / deviation
        rows[boxes] = (a, b, *two_normals(z))
    return rows


def components(
    totals: FloatArray,
    values: FloatArray,
    variances: FloatArray,
    open_boxes: FloatArray | IntArray,
    weak: FloatArray,
    exact_known: FloatArray,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """The mixture of a player's final total (`[row, player]` inputs): the grand `totals`,
    the optimal mean `values` and `variances` of the points to come, the boxes open, the weight
    of the `greedy` strength (`weak_weight`) and whether the exact distribution is known (it
    stands for the `optimal` strength then). Returns the normals' weights, means and
    deviations (`[row, player, 4]`: optimal's two, greedy's two) and the exact one's weight."""
    boxes = np.asarray(open_boxes, dtype=np.intp)
    deviation = np.sqrt(np.maximum(variances, 0.0))
    strong = 1.0 - weak
    exact_weight = np.where(exact_known, strong, 0.0)
    weights, means, deviations = [], [], []
    for table, share in ((OPTIMAL, np.where(exact_known, 0.0, strong)), (GREEDY, weak)):
        a, b, p, m1, s1, m2, s2 = (table[boxes, field] for field in range(len(SHAPE_FIELDS)))
        centre = totals + a + b * values
        weights += [share * p, share * (1 - p)]
        means += [centre + deviation * m1, centre + deviation * m2]
        deviations += [deviation * s1, deviation * s2]
    return (
        np.stack(weights, axis=2),
        np.stack(means, axis=2),
        np.stack(deviations, axis=2),
        exact_weight,
    )
