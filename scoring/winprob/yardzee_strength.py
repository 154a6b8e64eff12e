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
        [0.0000, 1.0000, 0.8963, -0.2197, 0.0010, 1.7413, 2.3471],
        [0.0000, 1.0000, 0.8497, -0.3050, 0.0220, 1.6378, 1.7740],
        [0.0000, 1.0000, 0.7714, -0.3969, 0.0545, 1.3053, 1.4094],
        [0.0000, 1.0000, 0.6392, -0.4969, 0.0866, 0.8815, 1.2239],
        [0.0000, 1.0000, 0.5954, -0.5445, 0.1528, 0.7967, 1.1505],
        [0.0000, 1.0000, 0.5968, -0.5400, 0.2244, 0.7922, 1.1381],
        [0.0000, 1.0000, 0.5669, -0.5493, 0.2515, 0.7185, 1.1334],
        [0.0000, 1.0000, 0.8748, -0.2546, 0.5506, 1.7819, 1.4755],
        [0.0000, 1.0000, 0.8863, -0.2550, 0.5470, 1.9785, 1.4093],
        [0.0000, 1.0000, 0.8800, -0.2723, 0.5274, 1.9789, 1.3228],
        [0.0000, 1.0000, 0.8700, -0.2924, 0.5057, 1.9373, 1.2707],
        [0.0000, 1.0000, 0.8547, -0.3150, 0.4815, 1.8610, 1.2247],
        [0.0000, 1.0000, 0.8395, -0.3364, 0.4602, 1.7673, 1.2015],
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
    greedy_values: FloatArray | None = None,
    greedy_variances: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """The mixture of a player's final total (`[row, player]` inputs): the grand `totals`,
    the optimal mean `values` and `variances` of the points to come, the boxes open, the weight
    `w` of the `greedy` strength (`weak_weight`), whether the exact distribution is known (it
    stands for the shapes then), and the greedy player's own mean and variance of the points
    to come (`scoring.winprob.yardzee_greedy`; needed where `w` is not 0).

    A player is between the two strengths, not one of them at random: their points to come
    have the mean and variance interpolated, `(1 - w) V + w Vg` and `(1 - w) D^2 + w Dg^2`,
    and the shape `Z` (mean 0, variance 1) is the two strengths' shapes mixed by `w`. Returns
    the normals' weights, means and deviations (`[row, player, 4]`: optimal's two, greedy's
    two) and the exact one's weight."""
    boxes = np.asarray(open_boxes, dtype=np.intp)
    strong = 1.0 - weak
    exact_weight = np.where(exact_known, 1.0, 0.0)
    if greedy_values is None or greedy_variances is None:
        if np.any(weak > 0):
            raise ValueError("a weaker strength needs the greedy player's moments")
        centre, variance = values, variances
    else:
        mixed = weak > 0
        centre = np.where(mixed, strong * values + weak * greedy_values, values)
        variance = np.where(mixed, strong * variances + weak * greedy_variances, variances)
    centre = totals + centre
    deviation = np.sqrt(np.maximum(variance, 0.0))
    weights, means, deviations = [], [], []
    for table, share in (
        (OPTIMAL, np.where(exact_known, 0.0, strong)),
        (GREEDY, np.where(exact_known, 0.0, weak)),
    ):
        _, _, p, m1, s1, m2, s2 = (table[boxes, field] for field in range(len(SHAPE_FIELDS)))
        weights += [share * p, share * (1 - p)]
        means += [centre + deviation * m1, centre + deviation * m2]
        deviations += [deviation * s1, deviation * s2]
    return (
        np.stack(weights, axis=2),
        np.stack(means, axis=2),
        np.stack(deviations, axis=2),
        exact_weight,
    )


def between(first: FloatArray, second: FloatArray, weight: FloatArray) -> FloatArray:
    """Distributions of whole points (`[row, points]`) between `first` and `second`: the
    quantiles interpolated, `(1 - weight) Q1(u) + weight Q2(u)` for every `u` (a point between
    two whole points shares its chance between them, keeping the mean exact). The mean is
    interpolated and, unlike a mixture of the two, no spread is added between them."""
    rows, support = first.shape
    # Each cumulative reaches 1 at its distribution's last point (its sum's rounding taken
    # off there), and the work stops at the last point of either.
    first_last, second_last = _last_point(first), _last_point(second)
    width = int(max(first_last.max(), second_last.max())) + 1
    lower = _cumulative(first[:, :width], first_last)
    upper = _cumulative(second[:, :width], second_last)
    both = np.concatenate([lower, upper], axis=1)
    # Two sorted runs: a stable sort merges them in one pass, and says whose each level is.
    order = np.argsort(both, axis=1, kind="stable")
    levels = np.take_along_axis(both, order, axis=1)
    mass = np.diff(levels, axis=1, prepend=0.0)
    # Above the first `j` levels (the `j`th slice of `u`, where it has any mass) each
    # distribution's quantile is the number of its own levels among them.
    at_first = np.zeros((rows, 2 * width), dtype=np.intp)
    np.cumsum(order[:, :-1] < width, axis=1, out=at_first[:, 1:])
    at_second = np.arange(2 * width)[None, :] - at_first
    point = (1 - weight[:, None]) * at_first + weight[:, None] * at_second
    low = np.minimum(np.floor(point), width - 1)
    share = point - low
    base = support * np.arange(rows)[:, None]
    slots = base + low.astype(np.intp)
    up = np.minimum(slots + 1, base + width - 1)
    found = np.bincount(
        slots.ravel(), weights=(mass * (1 - share)).ravel(), minlength=rows * support
    ) + np.bincount(up.ravel(), weights=(mass * share).ravel(), minlength=rows * support)
    result: FloatArray = np.asarray(found, dtype=np.float64).reshape(rows, support)
    return result


def _last_point(distribution: FloatArray) -> IntArray:
    """Each row's last point with a chance (0 for none)."""
    found: IntArray = distribution.shape[1] - 1 - (distribution[:, ::-1] > 0).argmax(axis=1)
    return found


def _cumulative(distribution: FloatArray, last: IntArray) -> FloatArray:
    """The distribution function, 1 from the `last` point with a chance on."""
    cumulative = np.minimum(np.cumsum(distribution, axis=1), 1.0)
    cumulative[np.arange(distribution.shape[1])[None, :] >= last[:, None]] = 1.0
    return cumulative
