"""Each Yardzee player's chance to win from where the game stands, for 2 to 5 players
(RULES.md, "Yardzee": highest grand total wins, equal totals share the placement; the method,
assumptions and calibration are in docs/analysis.md, "Win probability: Yardzee").

The model: every player plays the rest of their game between the optimal solitaire strategy
and a greedy player, by how much they have lost so far (`loss_rates`), and the players' dice
are independent, so their final totals are independent. A player's final total is their grand
total so far plus the points still to come, whose mean and variance
`scoring.winprob.yardzee_spread.Spread` (and `yardzee_greedy.GreedySpread`) give for any
position (between turns or inside a turn). With at most four boxes open their exact
distribution is used; before that, the strengths' fitted shapes about that mean and variance
(`scoring.winprob.yardzee_strength`), rounded to whole points. A player's chance to win is
the chance that their total beats every other's, a tie with `k` others counting as a share of
`1 / (k + 1)` of the win (the shared placement).

```python
spread = Spread.load(YardzeeRules(), settings.STRATEGY_DIR)
win_probabilities([Position.of_scorecard(game.scorecard(seat)) for seat in range(players)], spread)
# [0.41, 0.59]; mid-turn: Position(state, score, dice=[3, 3, 3, 1, 4], rolls_left=1)
```
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Self

import numpy as np

from scoring.analysis.rolls import FloatArray, IntArray
from scoring.analysis.yardzee import YardzeeState
from scoring.analysis.yardzee_table import BOXES, UPPER_STATES
from scoring.errors import RuleViolation
from scoring.game import invalid_state
from scoring.winprob.yardzee_exact import EXACT_OPEN, SUPPORT
from scoring.winprob.yardzee_greedy import GreedySpread
from scoring.winprob.yardzee_spread import Spread, central
from scoring.winprob.yardzee_strength import (
    GREEDY_LOSS_RATE,
    GREEDY_TURN_LOSSES,
    between,
    components,
    shape_row,
    weak_weight,
)
from scoring.yardzee import Scorecard

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
# The grid steps by whole points, or by a _COARSE-th of the smallest deviation when larger.
_COARSE: Final = 8
# Nodes and weights of 3-point Gauss-Legendre on [0, 1]: exact for polynomials of degree 5.
_GAUSS_LEGENDRE: Final = (
    (0.5 - 0.5 * (3 / 5) ** 0.5, 5 / 18),
    (0.5, 8 / 18),
    (0.5 + 0.5 * (3 / 5) ** 0.5, 5 / 18),
)
# The grid of totals reaches this many standard deviations past every player's mean: a normal
# leaves less than 1e-9 of its mass beyond.
_REACH: Final = 6.2
# The normal's distribution function works through blocks of this many values (in cache).
_BLOCK: Final = 8192
_SQRT2: Final = np.sqrt(2.0)
# Players' normals evaluated together over the grid.
_ENTRIES: Final = 256
# The erfc approximation's coefficients after the innermost, in Horner's order.
_ERFC_POLY: Final = (
    -0.82215223,
    1.48851587,
    -1.13520398,
    0.27886807,
    -0.18628806,
    0.09678418,
    0.37409196,
    1.00002368,
)
PRIOR_TURNS: Final = 20.0
"""A player's loss rate is shrunk toward the match's as if this many average turns more had
lost that (players of a match are alike until their turns tell them apart)."""
# The greedy player's expected losses over their first 0 to 13 turns.
_GREEDY_SO_FAR: Final = np.concatenate([[0.0], np.cumsum(GREEDY_TURN_LOSSES)])


@dataclass(frozen=True, slots=True)
class Position:
    """A player's position: their scorecard's `state`, their grand `total` so far (bonuses
    included), and inside a turn the `dice` showing with `rolls_left` rolls still allowed
    (2 after the first roll, 1 after the second, 0 when only the box is left to choose)."""

    state: YardzeeState
    total: int
    dice: tuple[int, ...] | None = None
    rolls_left: int | None = None
    loss_rate: float = 0.0

    @classmethod
    def of_scorecard(
        cls,
        card: Scorecard,
        dice: Sequence[int] | None = None,
        rolls_left: int | None = None,
        *,
        loss_rate: float = 0.0,
    ) -> Self:
        """The position of a scorecard (`YardzeeGame.scorecard(seat)`), between turns or
        with `dice` showing; `loss_rate` the player's loss rate (`loss_rates` of their
        turns so far)."""
        return cls(
            YardzeeState.of_boxes(card.boxes),
            card.total,
            None if dice is None else tuple(dice),
            rolls_left,
            loss_rate,
        )


def loss_rates(losses: Sequence[Sequence[float]]) -> list[float]:
    """Each player's loss rate, in seat order, from the losses of their turns so far against
    the optimal play (`scoring.analysis`: each turn's keeps and box): what they lost as a
    share of what the greedy player loses in the same turns of a game (`GREEDY_TURN_LOSSES`:
    4 to 5 points in the middle of a game, 14 to 17 in the 11th and 12th turns), in points of
    the greedy player's mean turn (`GREEDY_LOSS_RATE`). A player's share is shrunk toward the
    match's (every turn pooled) as if `PRIOR_TURNS` more average turns had lost that; with no
    turn played, 0."""
    lost = np.array([[sum(max(loss, 0.0) for loss in turns) for turns in losses]])
    played = np.array([[len(turns) for turns in losses]])
    return [float(rate) for rate in shrunk_rates(lost, played)[0]]


def shrunk_rates(lost: FloatArray, played: IntArray) -> FloatArray:
    """`loss_rates` of players in rows of matches: `lost` the sum of each one's turns' losses
    (each at least 0) and `played` how many turns they have played."""
    expected = _GREEDY_SO_FAR[np.minimum(played, BOXES)] + np.zeros(lost.shape)
    total = expected.sum(axis=-1, keepdims=True)
    share = np.zeros(total.shape)
    np.divide(lost.sum(axis=-1, keepdims=True), total, out=share, where=total > 0)
    prior = PRIOR_TURNS * GREEDY_LOSS_RATE
    rates: FloatArray = GREEDY_LOSS_RATE * (lost + prior * share) / (expected + prior)
    return rates


def win_probabilities(
    positions: Sequence[Position], spread: Spread, greedy: GreedySpread | None = None
) -> list[float]:
    """Each player's chance to win, in the order given (they sum to 1; a tie counts as a share
    of the win). 2 to 5 players (RULES.md, Yardzee "Game"): otherwise `wrong_player_count`;
    a position no game can reach raises `RuleViolation` as `Spread.remaining` does. A player
    with a loss rate is partly the greedy player (`greedy`'s moments, which it then needs)."""
    if not MIN_PLAYERS <= len(positions) <= MAX_PLAYERS:
        raise RuleViolation(
            "wrong_player_count",
            f"Yardzee has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(positions)}.",
            details={"players": len(positions)},
        )
    players = len(positions)
    means, variances = np.zeros((1, players)), np.zeros((1, players))
    totals = np.array([[float(position.total) for position in positions]])
    exact = np.full((1, players, SUPPORT), np.nan)
    rates = np.array([[_read_rate(position.loss_rate) for position in positions]])
    weak = weak_weight(rates)
    if greedy is None and (weak > 0).any():
        raise ValueError("a player with a loss rate needs the greedy player's table")
    greedy_means, greedy_variances = np.zeros((1, players)), np.zeros((1, players))
    mixed: list[int] = []
    weaker: list[FloatArray] = []
    for seat, position in enumerate(positions):
        where = (position.state, position.dice, position.rolls_left)
        rest = spread.remaining(*where)
        means[0, seat] = position.total + rest.mean
        variances[0, seat] = rest.variance
        share = float(weak[0, seat])
        if greedy is not None and share > 0:
            rest = greedy.remaining(*where)
            greedy_means[0, seat], greedy_variances[0, seat] = rest.mean, rest.variance
        if not position.state.is_over:
            found = spread.distribution(*where)
            if found is not None:
                exact[0, seat] = found
                if greedy is not None and share > 0:
                    mixed.append(seat)
                    weaker.append(_known(greedy.distribution(*where)))
    if mixed:  # the strengths' distributions interpolated, every such player at once
        exact[0, mixed] = between(exact[0, mixed], np.stack(weaker), weak[0, mixed])
    rows = shape_row(
        np.array([[BOXES - len(position.state.filled) for position in positions]]),
        np.array([[position.state.yardzee_50 for position in positions]]),
    )
    shares = _shares(
        totals, means - totals, variances, rows, exact, rates, greedy_means, greedy_variances
    )
    return [float(chance) for chance in shares[0]]


def _known(distribution: FloatArray | None) -> FloatArray:
    if distribution is None:  # both are known with the same boxes open
        raise ValueError("the greedy distribution is missing where the optimal one is known")
    return distribution


def _read_rate(rate: object) -> float:
    if isinstance(rate, bool) or not isinstance(rate, int | float) or not 0 <= rate < 1e6:
        raise invalid_state("loss_rate", f"{rate!r} is not a number of points from 0 up")
    return float(rate)


def _shares(
    totals: FloatArray,
    values: FloatArray,
    variances: FloatArray,
    rows: IntArray,
    exact: FloatArray,
    rates: FloatArray | None,
    greedy_values: FloatArray | None = None,
    greedy_variances: FloatArray | None = None,
) -> FloatArray:
    """The win shares of players at `totals` with the optimal mean `values` and `variances`
    of their points to come, mixing the strengths by their loss `rates` (None: 0) with the
    greedy player's `greedy_values` and `greedy_variances`; `exact` is the distribution of
    the points to come where known, the strengths already mixed in it."""
    weak = np.zeros(totals.shape) if rates is None else weak_weight(rates)
    known = ~np.isnan(exact[:, :, 0])
    weights, means, deviations, exact_weight = components(
        totals, values, variances, rows, weak, known, greedy_values, greedy_variances
    )
    return mixture_shares(
        weights, means, deviations, totals=totals, exact=exact, exact_weight=exact_weight
    )


def between_turns(
    spread: Spread,
    states: IntArray,
    totals: FloatArray,
    rates: FloatArray | None = None,
    greedy: GreedySpread | None = None,
) -> FloatArray:
    """`win_probabilities` for many games at once, every player between turns: `states`
    (table indexes), grand `totals` and loss `rates` (None: 0) of the players in rows of
    games."""
    table = np.asarray(spread.strategy.table)
    mean = table[states]
    variance = central(mean, np.asarray(spread.moments)[:, states])
    weak = np.zeros(states.shape) if rates is None else weak_weight(rates)
    greedy_mean, greedy_variance = None, None
    if greedy is not None:
        raw = np.asarray(greedy.table)[:, states]
        greedy_mean, greedy_variance = raw[0], np.maximum(raw[1] - raw[0] ** 2, 0.0)
    elif (weak > 0).any():
        raise ValueError("players with loss rates need the greedy player's table")
    open_boxes = BOXES - np.bitwise_count(states // (UPPER_STATES * 2))
    exact = np.full((*states.shape, 1), np.nan)
    near_end = (open_boxes <= EXACT_OPEN) & (open_boxes > 0)
    if near_end.any():
        exact = np.full((*states.shape, SUPPORT), np.nan)
        exact[near_end] = spread.distributions(states[near_end])
        mixed = near_end & (weak > 0)
        if greedy is not None and mixed.any():
            exact[mixed] = between(exact[mixed], greedy.distributions(states[mixed]), weak[mixed])
    rows = shape_row(open_boxes, states & 1)
    return _shares(totals, mean, variance, rows, exact, rates, greedy_mean, greedy_variance)


def _normal_cdf(z: FloatArray) -> FloatArray:
    """The standard normal's distribution function, through the complementary error function's
    rational Chebyshev approximation of Numerical Recipes (error below 1.2e-7 everywhere).
    Worked in place, a block of `_BLOCK` values at a time (the same operations in the same
    order as the formula written out, so the same bits, without a dozen full-size temporaries)."""
    found: FloatArray = np.empty_like(z)
    flat, out = z.reshape(-1), found.reshape(-1)
    for start in range(0, len(flat), _BLOCK):
        _normal_cdf_block(flat[start : start + _BLOCK], out[start : start + _BLOCK])
    return found


def _normal_cdf_block(z: FloatArray, out: FloatArray) -> None:
    x = np.abs(z)
    x /= _SQRT2
    t = x * 0.5
    t += 1.0
    np.divide(1.0, t, out=t)
    poly = t * 0.17087277  # Horner's rule, innermost first
    for coefficient in _ERFC_POLY:
        poly += coefficient
        poly *= t
    poly += -1.26551223
    x *= x
    np.negative(x, out=x)
    x += poly
    np.exp(x, out=x)
    x *= t  # the complementary error function of |z| / sqrt 2
    x *= 0.5
    np.subtract(1.0, x, out=out)
    np.copyto(out, x, where=z < 0)


def win_shares(
    means: FloatArray,
    variances: FloatArray,
    *,
    totals: FloatArray | None = None,
    exact: FloatArray | None = None,
) -> FloatArray:
    """For positions in rows (players in columns): each player's expected share of the win
    when their final totals are independent, rounded to whole points. A player's final total
    is `totals + k` with chance `exact[row, player, k]` where that is given (not NaN), else a
    normal of these means and variances (exactly the mean for a variance of 0). A tie of
    `k + 1` players at the top gives each `1 / (k + 1)`."""
    known = np.zeros(means.shape, dtype=np.bool_)
    if exact is not None and totals is not None:
        known = ~np.isnan(exact[:, :, 0])
    deviations = np.sqrt(np.maximum(variances, 0.0))
    return mixture_shares(
        (~known).astype(np.float64)[:, :, None],
        means[:, :, None],
        deviations[:, :, None],
        totals=totals,
        exact=exact,
        exact_weight=known.astype(np.float64),
    )


def mixture_shares(
    weights: FloatArray,
    means: FloatArray,
    deviations: FloatArray,
    *,
    totals: FloatArray | None = None,
    exact: FloatArray | None = None,
    exact_weight: FloatArray | None = None,
) -> FloatArray:
    """`win_shares` of players whose final totals are mixtures: normals of `means` and
    `deviations` with chances `weights` (`[row, player, component]`), and with chance
    `exact_weight[row, player]` the exact distribution `totals + k` (`exact[row, player, k]`).
    A player's weights and exact weight sum to 1."""
    rows, players = means.shape[:2]
    deviations = np.where(deviations < 1e-6, 0.0, deviations)  # known to the point
    used = weights > 0
    known = np.zeros((rows, players), dtype=np.bool_)
    if exact is not None and totals is not None and exact_weight is not None:
        known = exact_weight > 0
        exact = np.where(known[:, :, None], exact, 0.0)
    # Whole points, or when every player's total is uncertain by more than `_COARSE` points a
    # step of a `_COARSE`th of the smallest deviation (the sums then approximate integrals of
    # smooth functions, to far below the figures' precision; ties within a step are shared).
    smallest = np.where(used, deviations, np.inf).min(axis=(1, 2))
    step = np.maximum(1.0, np.floor(np.where(np.isfinite(smallest), smallest, 0.0) / _COARSE))
    step[known.any(axis=1)] = 1.0
    lows = np.where(used, means - _REACH * deviations, np.inf).min(axis=2)
    highs = np.where(used, means + _REACH * deviations, -np.inf).max(axis=2)
    if exact is not None and totals is not None:
        last = exact.shape[2] - 1 - (exact[:, :, ::-1] > 0).argmax(axis=2)
        lows = np.where(known, np.minimum(lows, totals), lows)
        highs = np.where(known, np.maximum(highs, totals + last), highs)
    # Only totals at which some player can still be on top: from the highest of the lows.
    low = np.floor(lows.max(axis=1)) - step
    high = np.ceil(highs.max(axis=1)) + step
    width = int(((high - low) / step).max()) + 1
    grid = low[:, None] + step[:, None] * np.arange(width)[None, :]  # rows x grid
    # P(total <= x + step / 2) for every player at every grid point x (`cdf[..., 1:]`: the
    # chance of the total rounded to x or below) and at the point before the first
    # (`cdf[..., :-1]`: the chance of a total below x).
    half = step / 2
    edges = np.empty((rows, width + 1))
    edges[:, 0] = grid[:, 0] - half
    edges[:, 1:] = grid + half[:, None]
    cdf = np.zeros((rows, players, width + 1))
    for component in range(means.shape[2]):
        # Only the players this component carries weight for (the others' terms are zeros).
        # A few hundred at a time: temporaries of a few MB, reused, not mapped anew.
        used_row, used_seat = np.nonzero(weights[:, :, component] > 0)
        for start in range(0, len(used_row), _ENTRIES):
            row, seat = used_row[start : start + _ENTRIES], used_seat[start : start + _ENTRIES]
            mean = means[row, seat, component][:, None]
            deviation = deviations[row, seat, component][:, None]
            up = _cdf(edges[row], mean, deviation)
            up *= weights[row, seat, component][:, None]
            cdf[row, seat] += up
    if exact is not None and totals is not None and exact_weight is not None and known.any():
        cumulative = np.cumsum(exact, axis=2)
        whole = np.empty((rows, width + 1))  # the grid and the whole point before it
        whole[:, 0] = grid[:, 0] - step
        whole[:, 1:] = grid
        points = (whole[:, None, :] - totals[:, :, None]).astype(np.intp)  # rest to reach x
        at_x = np.take_along_axis(cumulative, np.clip(points, 0, exact.shape[2] - 1), axis=2)
        cdf += exact_weight[:, :, None] * np.where(points >= 0, at_x, 0.0)
    below = cdf[:, :, :-1]
    at = cdf[:, :, 1:] - below
    # The share of a total x: with the others below it (chance `below`) or tied at it
    # (`at`), a tie of k others gives 1 / (k + 1) = the integral of u^k over [0, 1], so the
    # share is the integral over u of the product of (below + u * at) over the others: a
    # polynomial of degree at most 4, which 3-point Gauss-Legendre integrates exactly.
    shares = np.zeros((rows, players))
    for node, weight in _GAUSS_LEGENDRE:
        factors = below + node * at
        # The product over the others: of the players before each one, times those after.
        before: list[FloatArray | None] = [None] * players
        for player in range(1, players):
            previous = before[player - 1]
            first = factors[:, player - 1]
            before[player] = first if previous is None else previous * first
        after: FloatArray | None = None
        for player in range(players - 1, -1, -1):
            prefix = before[player]
            others = np.ones((rows, width)) if prefix is None else prefix
            if after is not None:
                others = others * after
            shares[:, player] += weight * (at[:, player] * others).sum(axis=1)
            after = factors[:, player] if after is None else after * factors[:, player]
    return shares


def _cdf(edges: FloatArray, means: FloatArray, deviations: FloatArray) -> FloatArray:
    """P(total <= edge) for edges in entries x points (`means`, `deviations`: entries x 1):
    a normal's, or a step at the mean for a deviation of 0."""
    offset = edges - means
    normal = deviations[:, 0] > 0
    if normal.all():
        offset /= deviations
        return _normal_cdf(offset)
    cdf: FloatArray = (offset >= 0).astype(np.float64)
    cdf[normal] = _normal_cdf(offset[normal] / deviations[normal])
    return cdf
