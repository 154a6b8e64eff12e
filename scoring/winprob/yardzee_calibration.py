"""Calibration of the Yardzee win probability (docs/analysis.md, "Win probability: Yardzee"):
simulate games, predict every player's chance after every turn, and compare the predictions,
bucketed by tenths, with how often those players won.

Players are simulated in bulk with NumPy: a player's game depends on their own dice only, so
each player's 13 turns are played alone (a trajectory of states and totals), and a game of `n`
players is `n` trajectories side by side in seat order. Two ways of playing:

- `optimal`: the optimal solitaire strategy, every keep and box as the strategy table makes
  best (the policy the prediction assumes);
- `greedy`: keep the most common face (the higher on a tie; five alike stop), then fill the
  open box that scores the most now, bonuses included (the first in scorecard order on a tie).

Moves follow RULES.md through the strategy's own tables: each box's points and bonuses are
`scoring.analysis.yardzee_table.box_candidates` over a table of zeros, which asks
`scoring.yardzee` (joker placements included).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np

from scoring.analysis import yardzee_table as solver
from scoring.analysis.rolls import (
    FACES,
    KEEP_OFFSETS,
    LAYERS,
    FloatArray,
    IntArray,
    RollValues,
    keep_choices,
)
from scoring.winprob.yardzee import between_turns, shrunk_rates, win_shares
from scoring.winprob.yardzee_exact import KEEP_COUNTS, KEEP_SIZE
from scoring.winprob.yardzee_greedy import GreedySpread, most_common_face
from scoring.winprob.yardzee_spread import Spread, after_state, central, turn_policy, zero_table
from scoring.winprob.yardzee_strength import fit_rows, shape_row

PlayStyle = Literal["optimal", "greedy"]
PLAY_STYLES: Final[tuple[PlayStyle, ...]] = ("optimal", "greedy")
TURNS: Final = solver.BOXES
# States solved together when playing optimally (a turn's keep tables: 462 x 512 float64).
_CHUNK: Final = 512
# Games whose chances are computed together (a few MB of temporaries: faster than 2048,
# whose hundreds of MB the kernel maps and unmaps every time).
_BATCH: Final = 256

_CODE: Final = 6 ** np.arange(len(FACES))
"""A multiset of dice as a number: its count of each face in base 6 (at most 5 dice)."""
_OUTCOME_OF_CODE: Final = np.full(6 ** len(FACES), -1, dtype=np.intp)
_OUTCOME_OF_CODE[KEEP_COUNTS[KEEP_OFFSETS[5] :] @ _CODE] = np.arange(len(LAYERS[5]))


@dataclass(frozen=True, slots=True)
class Trajectories:
    """Players' games played alone: `states[player, turns_played]` (table indexes) and
    `totals[player, turns_played]` (grand totals), from the empty scorecard (column 0) to the
    full one (column 13); `losses[player, turn]` each turn's loss against the optimal play
    (its keeps' and box's, in expected points: `scoring.analysis`'s decisions; 0 for the
    optimal players, who choose the first best)."""

    states: IntArray
    totals: IntArray
    losses: FloatArray


def _throw(rng: np.random.Generator, keep: IntArray) -> IntArray:
    """The outcome after keeping `keep` (flat keep indexes) and throwing the other dice."""
    faces = rng.integers(0, len(FACES), size=(len(keep), 5))
    thrown = np.arange(5)[None, :] < (5 - KEEP_SIZE[keep])[:, None]
    one_hot = faces[:, :, None] == np.arange(len(FACES))[None, None, :]
    counts = KEEP_COUNTS[keep] + (one_hot & thrown[:, :, None]).sum(axis=1)
    outcome: IntArray = _OUTCOME_OF_CODE[counts @ _CODE]
    return outcome


def _keep_value(values: RollValues, keep: IntArray, column: IntArray) -> FloatArray:
    """The optimal strategy's value of each player's keep (flat keep indexes)."""
    found = np.empty(len(keep))
    for size in range(len(values.keeps)):
        taken = KEEP_SIZE[keep] == size
        found[taken] = values.keeps[size][keep[taken] - KEEP_OFFSETS[size], column[taken]]
    return found


def _turn(
    spread: Spread, style: PlayStyle, states: IntArray, rng: np.random.Generator
) -> tuple[IntArray, IntArray, FloatArray]:
    """One turn for every player: the states after it, the points scored, and the turn's loss
    against the optimal play (the sum of its decisions' losses)."""
    table = np.asarray(spread.strategy.table)
    joker = spread.rules.joker
    after = np.empty_like(states)
    gained = np.empty_like(states)
    lost = np.zeros(len(states))
    unique, inverse = np.unique(states, return_inverse=True)
    for start in range(0, len(unique), _CHUNK):
        chunk = unique[start : start + _CHUNK]
        players = np.flatnonzero((inverse >= start) & (inverse < start + len(chunk)))
        column = inverse[players] - start
        outcome = _throw(rng, np.zeros(len(players), dtype=np.intp))
        if style == "optimal":
            turn = turn_policy(table, chunk, joker)
            outcome = _throw(rng, keep_choices(turn.value.middle)[outcome, column])
            outcome = _throw(rng, keep_choices(turn.value.last)[outcome, column])
            box = turn.best_box[outcome, column]
            gain = turn.gain[outcome, column]
        else:
            optimal = turn_policy(table, chunk, joker).value
            loss = np.zeros(len(players))
            stopped = np.zeros(len(players), dtype=np.bool_)
            for values in (optimal.middle, optimal.last):
                keep = most_common_face(outcome)
                chosen = _keep_value(values, keep, column)
                loss += np.where(stopped, 0.0, values.showing[outcome, column] - chosen)
                stopped |= KEEP_SIZE[keep] == 5
                outcome = np.where(stopped, outcome, _throw(rng, keep))
            candidates = solver.box_candidates(zero_table(), chunk, joker)
            points = candidates.values[:, outcome, column]  # boxes x players
            row = points.argmax(axis=0)
            gain = points[row, np.arange(len(players))]
            box = np.array(candidates.boxes)[row]
            chosen = np.rint(gain) + table[after_state(states[players], box, outcome)]
            loss += optimal.final[outcome, column] - chosen
            lost[players] = np.maximum(loss, 0.0)  # rounding noise on a best choice
        after[players] = after_state(states[players], box, outcome)
        gained[players] = np.rint(gain).astype(np.intp)
    return after, gained, lost


def play(spread: Spread, style: PlayStyle, players: int, seed: int) -> Trajectories:
    """`players` games played alone, each from the empty scorecard to the full one."""
    rng = np.random.default_rng(seed)
    states = np.zeros((players, TURNS + 1), dtype=np.intp)
    totals = np.zeros((players, TURNS + 1), dtype=np.intp)
    losses = np.zeros((players, TURNS))
    states[:, 0] = solver.state_index(0, 0, False)
    for turn in range(TURNS):
        after, gained, losses[:, turn] = _turn(spread, style, states[:, turn], rng)
        states[:, turn + 1] = after
        totals[:, turn + 1] = totals[:, turn] + gained
    return Trajectories(states=states, totals=totals, losses=losses)


@dataclass(frozen=True, slots=True)
class Predictions:
    """Every prediction of a batch of games: `chance` the model's, `leader` the naive
    baseline's (the current leader by points wins; leaders tied share), `won` the player's
    share of the win at the end (1, 0, or 1/k in a k-way tie for first)."""

    chance: FloatArray
    leader: FloatArray
    won: FloatArray


def leader_shares(totals: FloatArray) -> FloatArray:
    """The naive baseline: the leaders by points share the win."""
    leaders = totals == totals.max(axis=1, keepdims=True)
    shares: FloatArray = leaders / leaders.sum(axis=1, keepdims=True)
    return shares


def predict(
    spread: Spread,
    games: Trajectories,
    players: int,
    *,
    skill: bool = True,
    greedy: GreedySpread | None = None,
) -> Predictions:
    """The predictions after every turn but the last (after it the game is over) of the games
    made of `games`' trajectories taken `players` at a time, seats in order. A game's turn `t`
    is round `t // players`, seat `t % players`: the seats up to it have played one turn more
    than the seats after it."""
    count = len(games.states) // players
    states = games.states[: count * players].reshape(count, players, TURNS + 1)
    totals = games.totals[: count * players].reshape(count, players, TURNS + 1)
    running = np.zeros((count * players, TURNS + 1))
    running[:, 1:] = np.cumsum(games.losses[: count * players], axis=1)
    lost = running.reshape(count, players, TURNS + 1)
    won = win_shares(totals[:, :, -1].astype(np.float64), np.zeros((count, players)))
    seats = np.arange(players)
    chance, leader, outcome = [], [], []
    for turn in range(TURNS * players - 1):
        played = turn // players + (seats <= turn % players)  # turns played by each seat
        now_states = states[:, seats, played]
        now_totals = totals[:, seats, played].astype(np.float64)
        rates = None
        if skill:
            rates = shrunk_rates(lost[:, seats, played], played)
        for start in range(0, count, _BATCH):
            part = slice(start, start + _BATCH)
            found = between_turns(
                spread,
                now_states[part],
                now_totals[part],
                None if rates is None else rates[part],
                greedy,
            )
            chance.append(found)
        leader.append(leader_shares(now_totals))
        outcome.append(won)
    return Predictions(
        chance=np.concatenate(chance).ravel(),
        leader=np.concatenate(leader).ravel(),
        won=np.concatenate(outcome).ravel(),
    )


@dataclass(frozen=True, slots=True)
class Bucket:
    """The predictions from `low` to `high` (a tenth): how many, their mean, and the mean
    share of the win the players got."""

    low: float
    high: float
    count: int
    predicted: float
    observed: float

    @property
    def error(self) -> float:
        """Observed minus predicted (a fraction)."""
        return self.observed - self.predicted


@dataclass(frozen=True, slots=True)
class Calibration:
    """A calibration run of one way of playing and one number of players."""

    style: PlayStyle
    players: int
    games: int
    buckets: tuple[Bucket, ...]
    brier: float
    brier_leader: float
    mean_total: float
    rates: bool = False
    """Whether the predictions mixed the strengths by the players' loss rates."""


def buckets(chance: FloatArray, won: FloatArray) -> tuple[Bucket, ...]:
    """Predictions bucketed by tenths (the last one holds 1.0)."""
    tenth = np.minimum((chance * 10).astype(np.intp), 9)
    found = []
    for index in range(10):
        inside = tenth == index
        count = int(inside.sum())
        found.append(
            Bucket(
                low=index / 10,
                high=(index + 1) / 10,
                count=count,
                predicted=float(chance[inside].mean()) if count else float("nan"),
                observed=float(won[inside].mean()) if count else float("nan"),
            )
        )
    return tuple(found)


def calibrate(
    spread: Spread,
    style: PlayStyle,
    players: int,
    games: int,
    seed: int,
    *,
    rates: bool = True,
    greedy: GreedySpread | None = None,
) -> Calibration:
    """Simulate `games` games of `players` playing `style`, predict after every turn, and
    measure (seeded: the same figures every run). The predictions are the product's: each
    player's strengths mixed by their loss rate so far (`greedy` the greedy player's table),
    or without `rates` every player the optimal strength."""
    trajectories = play(spread, style, games * players, seed)
    predictions = predict(spread, trajectories, players, skill=rates, greedy=greedy)
    return Calibration(
        style=style,
        players=players,
        games=games,
        buckets=buckets(predictions.chance, predictions.won),
        brier=float(((predictions.chance - predictions.won) ** 2).mean()),
        brier_leader=float(((predictions.leader - predictions.won) ** 2).mean()),
        mean_total=float(trajectories.totals[:, -1].mean()),
        rates=rates,
    )


ENOUGH: Final = 1000
"""A bucket with fewer predictions than this is reported but not judged."""


def report(calibration: Calibration, tolerance: float = 0.02) -> list[str]:
    """A Markdown table of one calibration run."""
    lines = [
        f"{calibration.style}, {calibration.players} players, {calibration.games:,} games "
        f"(mean final total {calibration.mean_total:.1f})"
        f"{', strengths by loss rate' if calibration.rates else ''}; Brier score "
        f"{calibration.brier:.4f}, naive leader {calibration.brier_leader:.4f}",
        "",
        "| predicted | count | mean predicted | observed | observed - predicted | |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for bucket in calibration.buckets:
        if not bucket.count:
            lines.append(f"| {bucket.low:.1f}-{bucket.high:.1f} | 0 | | | | |")
            continue
        verdict = (
            "few"
            if bucket.count < ENOUGH
            else ("ok" if abs(bucket.error) <= tolerance else "**miss**")
        )
        lines.append(
            f"| {bucket.low:.1f}-{bucket.high:.1f} | {bucket.count:,} | {bucket.predicted:.4f} "
            f"| {bucket.observed:.4f} | {100 * bucket.error:+.2f} pp | {verdict} |"
        )
    return lines


def seed_of(style: PlayStyle, players: int, seed: int) -> int:
    """A run's own seed, so that every run of a calibration is independent and repeatable."""
    return seed * 100 + PLAY_STYLES.index(style) * 10 + players


def calibrations(
    spread: Spread,
    styles: Sequence[PlayStyle],
    players: Sequence[int],
    games: int,
    seed: int = 1,
    greedy: GreedySpread | None = None,
) -> list[Calibration]:
    """Every style with every number of players, as the product predicts (`greedy` the
    greedy player's table)."""
    return [
        calibrate(spread, style, count, games, seed_of(style, count, seed), greedy=greedy)
        for style in styles
        for count in players
    ]


def fit(
    spread: Spread, style: PlayStyle, players: int, seed: int, greedy: GreedySpread | None = None
) -> FloatArray:
    """The strength table of `style` (`scoring.winprob.yardzee_strength`) fitted on `players`
    simulated players' positions between turns: the shape of their points to come about their
    own policy's mean and deviation (the strategy's moments, or `greedy`'s for the greedy
    players)."""
    games = play(spread, style, players, seed)
    states = games.states[:, :TURNS].ravel()
    rest = (games.totals[:, -1:] - games.totals[:, :TURNS]).ravel().astype(np.float64)
    if style == "greedy":
        if greedy is None:
            raise ValueError("the greedy strength is fitted about the greedy player's moments")
        raw = np.asarray(greedy.table)[:, states]
        values, variances = raw[0], np.maximum(raw[1] - raw[0] ** 2, 0.0)
    else:
        values = np.asarray(spread.strategy.table)[states]
        variances = central(values, np.asarray(spread.moments)[:, states])
    deviations = np.sqrt(np.maximum(variances, 0.0))
    open_boxes = TURNS - np.bitwise_count(states // (solver.UPPER_STATES * 2))
    return fit_rows(values, deviations, rest, shape_row(open_boxes, states & 1), regress=False)


def fit_turn_losses(spread: Spread, players: int, seed: int) -> FloatArray:
    """`yardzee_strength.GREEDY_TURN_LOSSES` fitted on `players` simulated greedy players
    (the same as `fit`'s with the same seed): their mean loss in each turn of their game."""
    losses: FloatArray = play(spread, "greedy", players, seed).losses.mean(axis=0)
    return losses
