"""How a Yardzee player's final total spreads, by how well they play (docs/analysis.md, "Win
probability: Yardzee", "Strengths").

The optimal solitaire strategy's table gives the mean `V` and deviation `D` of a player's
points to come from any state, if they play optimally from here. Neither the normal of that
mean and deviation nor the assumption of optimal play calibrates (the points to come have a
narrow bulk and a long right tail; weaker players realise only part of `V`). So a player's
points to come are taken, for each of two strengths, as

    R = a + b * V + D * Z,  Z a mixture of two normals (chance p of N(m1, s1), else N(m2, s2)),

with `(a, b, p, m1, s1, m2, s2)` by the number of boxes open and whether the Yardzee box
holds 50 (`shape_row`: a Yardzee bonus of 100 may still come, so the rest has a second hump
far right and a lower median), fitted (`fit`) on simulated players of that strength:
`optimal` (a = 0, b = 1 by construction) and `greedy` (the calibration's weaker player,
`scoring.winprob.yardzee_calibration`). A player is between the two, the weaker one's weight
their loss rate against the greedy player's (`weak_weight`): their losses so far against
what the greedy player loses in the same turns of a game (`GREEDY_TURN_LOSSES`).
"""

from typing import Final

import numpy as np

from scoring.analysis.rolls import FloatArray, IntArray

SHAPE_FIELDS: Final = ("a", "b", "p", "m1", "s1", "m2", "s2")
# Rows `between` works at a time (temporaries of a few MB, reused rather than mapped anew).
_ROWS: Final = 128
OPEN_ROWS: Final = 14
"""Rows of a strength table for each state of the Yardzee box: 0 to 13 boxes open."""
SHAPE_ROWS: Final = 2 * OPEN_ROWS
"""A strength table's rows: boxes open, without and with 50 in the Yardzee box (`shape_row`)."""
# Fitted by `manage.py calibrate_yardzee --fit` (40,000 greedy players, seed 1;
# `yardzee_calibration.fit_turn_losses`), which prints it as it stands here.
GREEDY_TURN_LOSSES: Final[FloatArray] = np.array(
    [
        6.7921,
        6.7781,
        5.9275,
        4.6664,
        4.4312,
        4.6592,
        4.9244,
        5.4579,
        6.4330,
        8.3720,
        16.6407,
        14.3244,
        2.8707,
    ]
)
"""The greedy player's expected points lost against the optimal play in each turn of their
game, first to thirteenth: little in the middle of a game, most in the last turns but one."""
GREEDY_LOSS_RATE: Final = float(GREEDY_TURN_LOSSES.mean())
"""The greedy player's mean turn's loss (7.10 points; 92.3 a game): a player whose loss rate
is this much or more is all `greedy`."""

# Fitted by `manage.py calibrate_yardzee --fit` (40,000 players of each strength, seed 1;
# `yardzee_calibration.fit`), which prints these two tables as they stand here: rows 0 to 13
# the boxes open with no 50 in the Yardzee box, 14 to 27 with it (`shape_row`; 0 and 14: the
# game is over, 27 cannot be), the fields `SHAPE_FIELDS`.
OPTIMAL: Final[FloatArray] = np.array(
    [
        [0.0000, 1.0000, 1.0000, 0.0000, 1.0000, 0.0000, 1.0000],
        [0.0000, 1.0000, 0.5072, -0.4961, 0.2187, 0.5223, 1.2019],
        [0.0000, 1.0000, 0.8566, -0.1605, 0.7867, 1.0112, 1.4496],
        [0.0000, 1.0000, 0.9062, -0.1079, 0.8336, 1.1003, 1.5939],
        [0.0000, 1.0000, 0.9891, -0.0303, 0.9073, 3.1272, 2.5486],
        [0.0000, 1.0000, 0.9872, -0.0442, 0.8717, 3.8284, 2.1566],
        [0.0000, 1.0000, 0.9816, -0.0669, 0.8363, 3.9687, 1.5598],
        [0.0000, 1.0000, 0.9730, -0.0903, 0.7969, 3.6031, 1.4616],
        [0.0000, 1.0000, 0.9620, -0.1171, 0.7589, 3.2057, 1.4087],
        [0.0000, 1.0000, 0.9501, -0.1407, 0.7299, 2.8842, 1.3342],
        [0.0000, 1.0000, 0.9329, -0.1689, 0.7008, 2.5302, 1.3700],
        [0.0000, 1.0000, 0.9170, -0.1930, 0.6757, 2.2440, 1.3566],
        [0.0000, 1.0000, 0.8943, -0.2171, 0.6516, 1.9819, 1.3814],
        [0.0000, 1.0000, 0.8781, -0.2411, 0.6319, 1.8282, 1.3314],
        [0.0000, 1.0000, 1.0000, 0.0000, 1.0000, 0.0000, 1.0000],
        [0.0000, 1.0000, 0.9464, -0.1681, 0.5104, 2.9666, 2.2039],
        [0.0000, 1.0000, 0.9345, -0.2265, 0.5120, 3.1800, 0.7340],
        [0.0000, 1.0000, 0.8946, -0.2889, 0.4866, 2.5186, 0.8086],
        [0.0000, 1.0000, 0.8515, -0.3465, 0.4689, 2.1185, 0.8286],
        [0.0000, 1.0000, 0.8085, -0.3962, 0.4560, 1.7970, 0.8659],
        [0.0000, 1.0000, 0.7567, -0.4558, 0.4425, 1.4761, 0.9359],
        [0.0000, 1.0000, 0.7041, -0.4995, 0.4372, 1.2395, 0.9479],
        [0.0000, 1.0000, 0.6356, -0.5388, 0.4232, 0.9732, 1.0292],
        [0.0000, 1.0000, 0.5812, -0.5732, 0.4130, 0.8192, 1.0459],
        [0.0000, 1.0000, 0.5421, -0.6059, 0.3996, 0.7119, 1.0357],
        [0.0000, 1.0000, 0.5048, -0.6410, 0.3976, 0.6746, 1.0283],
        [0.0000, 1.0000, 0.5135, -0.6737, 0.4056, 0.6550, 0.9602],
        [0.0000, 1.0000, 1.0000, 0.0000, 1.0000, 0.0000, 1.0000],
    ]
)
GREEDY: Final[FloatArray] = np.array(
    [
        [0.0000, 1.0000, 1.0000, 0.0000, 1.0000, 0.0000, 1.0000],
        [0.0000, 1.0000, 0.9561, -0.2197, 0.0010, 4.5525, 0.0010],
        [0.0000, 1.0000, 0.9104, -0.2904, 0.0010, 2.8748, 1.2987],
        [0.0000, 1.0000, 0.7758, -0.3710, 0.0224, 1.2602, 1.4955],
        [0.0000, 1.0000, 0.6256, -0.4870, 0.0670, 0.8122, 1.2338],
        [0.0000, 1.0000, 0.5381, -0.5580, 0.1322, 0.6440, 1.1424],
        [0.0000, 1.0000, 0.5683, -0.5251, 0.2398, 0.6791, 1.1590],
        [0.0000, 1.0000, 0.9485, -0.1743, 0.5854, 3.1666, 1.4569],
        [0.0000, 1.0000, 0.9390, -0.1970, 0.5619, 3.0149, 1.2595],
        [0.0000, 1.0000, 0.9228, -0.2269, 0.5368, 2.6713, 1.2553],
        [0.0000, 1.0000, 0.9052, -0.2555, 0.5145, 2.3883, 1.2266],
        [0.0000, 1.0000, 0.8845, -0.2845, 0.4937, 2.1360, 1.2383],
        [0.0000, 1.0000, 0.8612, -0.3112, 0.4755, 1.9338, 1.2152],
        [0.0000, 1.0000, 0.8395, -0.3364, 0.4602, 1.7673, 1.2015],
        [0.0000, 1.0000, 1.0000, 0.0000, 1.0000, 0.0000, 1.0000],
        [0.0000, 1.0000, 0.9233, -0.2226, 0.0081, 2.3610, 2.3416],
        [0.0000, 1.0000, 0.7474, -0.3317, 0.0140, 0.8925, 1.6074],
        [0.0000, 1.0000, 0.6892, -0.4483, 0.0542, 0.9550, 1.3276],
        [0.0000, 1.0000, 0.7966, -0.4527, 0.1865, 1.7842, 0.9253],
        [0.0000, 1.0000, 0.7574, -0.5036, 0.2026, 1.5734, 0.8718],
        [0.0000, 1.0000, 0.7139, -0.5488, 0.2106, 1.3808, 0.8674],
        [0.0000, 1.0000, 0.6704, -0.5908, 0.2155, 1.2178, 0.8779],
        [0.0000, 1.0000, 0.6260, -0.6321, 0.2146, 1.0725, 0.9134],
        [0.0000, 1.0000, 0.5839, -0.6703, 0.2171, 0.9642, 0.9238],
        [0.0000, 1.0000, 0.5364, -0.7083, 0.2163, 0.8523, 0.9400],
        [0.0000, 1.0000, 0.4923, -0.7433, 0.2166, 0.7632, 0.9309],
        [0.0000, 1.0000, 0.4651, -0.7644, 0.2230, 0.7025, 0.9598],
        [0.0000, 1.0000, 1.0000, 0.0000, 1.0000, 0.0000, 1.0000],
    ]
)


def turn_losses_source(losses: FloatArray) -> str:
    """`losses` as this module's source states `GREEDY_TURN_LOSSES` (four decimals), for
    `manage.py calibrate_yardzee --fit` to print."""
    values = "".join(f"        {value:.4f},\n" for value in losses)
    return f"GREEDY_TURN_LOSSES: Final[FloatArray] = np.array(\n    [\n{values}    ]\n)"


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
    rows: IntArray,
    *,
    regress: bool,
) -> FloatArray:
    """The table's rows (`shape_row`) fitted on players' positions: the optimal mean
    `values` and deviation `deviations` of their points to come, the points that came (`rest`)
    and their positions' rows. `regress` fits `a` and `b` (else 0 and 1). A row with fewer
    than 100 positions (the game over, a Yardzee box holding 50 with every box open) keeps
    the plain normal."""
    table = np.array([[0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0]] * SHAPE_ROWS)
    for row in range(SHAPE_ROWS):
        at = (rows == row) & (deviations > 0)
        if row % OPEN_ROWS == 0 or at.sum() < 100:
            continue
        value, deviation, came = values[at], deviations[at], rest[at]
        a, b = 0.0, 1.0
        if regress and value.std() > 1e-6 * value.mean():
            b, a = (float(x) for x in np.polyfit(value, came, 1))
        elif regress:  # one state (the empty scorecard): a share of its value
            b = float(came.mean() / value.mean())
        z = (came - a - b * value) / deviation
        table[row] = (a, b, *two_normals(z))
    return table


def shape_row(open_boxes: IntArray, yardzee_50: IntArray) -> IntArray:
    """The strength tables' row of positions with `open_boxes` boxes open (0 to 13) and their
    Yardzee box holding 50 (`yardzee_50` 1) or not (0)."""
    row: IntArray = np.asarray(open_boxes, dtype=np.intp) + OPEN_ROWS * np.asarray(
        yardzee_50, dtype=np.intp
    )
    return row


def components(
    totals: FloatArray,
    values: FloatArray,
    variances: FloatArray,
    rows: IntArray,
    weak: FloatArray,
    exact_known: FloatArray,
    greedy_values: FloatArray | None = None,
    greedy_variances: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """The mixture of a player's final total (`[row, player]` inputs): the grand `totals`,
    the optimal mean `values` and `variances` of the points to come, the tables' `rows`
    (`shape_row`: the boxes open, a 50 in the Yardzee box or not), the weight
    `w` of the `greedy` strength (`weak_weight`), whether the exact distribution is known (it
    stands for the shapes then), and the greedy player's own mean and variance of the points
    to come (`scoring.winprob.yardzee_greedy`; needed where `w` is not 0).

    A player is between the two strengths, not one of them at random: their points to come
    have the mean and variance interpolated, `(1 - w) V + w Vg` and `(1 - w) D^2 + w Dg^2`,
    and the shape `Z` (mean 0, variance 1) is the two strengths' shapes mixed by `w`. Returns
    the normals' weights, means and deviations (`[row, player, 4]`: optimal's two, greedy's
    two) and the exact one's weight."""
    shape = np.asarray(rows, dtype=np.intp)
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
        _, _, p, m1, s1, m2, s2 = (table[shape, field] for field in range(len(SHAPE_FIELDS)))
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
    interpolated and, unlike a mixture of the two, no spread is added between them. Rows are
    independent (worked `_ROWS` at a time: the same figures as one by one)."""
    if len(first) > _ROWS:
        return np.concatenate(
            [
                between(
                    first[start : start + _ROWS],
                    second[start : start + _ROWS],
                    weight[start : start + _ROWS],
                )
                for start in range(0, len(first), _ROWS)
            ]
        )
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
