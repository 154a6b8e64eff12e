"""Calibration of the Yardkle win probabilities against simulated games (issue 39, "Done when").

    python -m scoring.winprob.calibrate_yardkle --games 10000 [--players 2 3 4 5 6]
        [--strategy points weak] [--seed 1]

Simulates the games with NumPy (many games in step, one process), every player following the
same strategy: `points` (each normal turn maximises the points banked, `TurnStrategy`; a final
round turn maximises the chance to beat the leader) or `weak` (`yardkle_turns.weak_policy`:
most points, bank from 300 or with two dice or fewer; in the final round throw until ahead).
Before every turn it records each player's predicted chance to win
(`yardkle_race.win_probabilities_batch`, or the final-round formula once a player reached the
target) and, at the end, what happened (1 for the winner, a share for a tie). The model is the
product's (`--model estimated`, the default): each player's style estimated from their own
bank-or-throw choices so far (`yardkle_style`, the evidence gathered as the simulated turns
are played), not told; `--model points` assumes every player plays for points, `--model own`
tells it the players' real style. It prints per bucket of predictions (tenths) the mean
prediction, the observed frequency and the count, and the Brier score of the model against the
naive one (the leader by points wins; ties share).
"""

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np

from scoring.analysis.rolls import BoolArray, FloatArray, IntArray
from scoring.analysis.yardkle import STEP, TurnStrategy, throw_table
from scoring.winprob.yardkle_race import (
    GRADES,
    final_round_chances,
    final_turn_policy,
    race_tables,
    win_probabilities_batch,
)
from scoring.winprob.yardkle_style import (
    WEIGHT,
    decision_evidence,
    set_aside_evidence,
    weak_shares,
)
from scoring.winprob.yardkle_turns import Style, TurnPolicy, policy_of, throw_code, weak_policy
from scoring.yardkle import DICE, YardkleRules

Model = Literal["estimated", "points", "own"]

LEVELS: Final = 400
"""Turn totals (steps of 50) the normal-turn policies cover; above, the choice at the top."""
ENOUGH: Final = 2000
"""Predictions a bucket needs before its gap to the observed frequency is judged."""
_POWERS: Final = np.array([7**i for i in range(DICE)], dtype=np.intp)


@dataclass(frozen=True, slots=True)
class Watch:
    """What `play_turns` gathers of the players' bank-or-throw choices: per game, whether the
    player is `on_board`, and the `evidence` (log-odds of `weak`, `yardkle_style`) it adds to."""

    rules: YardkleRules
    on_board: BoolArray
    evidence: FloatArray


def play_turns(
    rng: np.random.Generator,
    policies: list[TurnPolicy],
    which: IntArray,
    watch: Watch | None = None,
) -> IntArray:
    """One turn for each game at once, game `g` playing `policies[which[g]]`: the points
    banked, in steps of 50 (0 after a Yardkle). RULES.md, "Turn": hot dice throw six again.
    With `watch`, every set-aside and every choice to bank or throw on adds its evidence of
    the player's style."""
    table = throw_table()
    code = throw_code()
    games = len(which)
    level = np.zeros(games, dtype=np.intp)
    dice = np.full(games, DICE, dtype=np.intp)
    banked = np.zeros(games, dtype=np.intp)
    playing = np.ones(games, dtype=bool)
    while playing.any():
        ids = np.flatnonzero(playing)
        faces = rng.integers(1, 7, size=(len(ids), DICE))
        faces[np.arange(DICE)[None, :] >= dice[ids, None]] = 0
        faces.sort(axis=1)
        throw = code[faces @ _POWERS]
        yardkle = throw < 0
        playing[ids[yardkle]] = False
        ids, throw = ids[~yardkle], throw[~yardkle]
        for index, policy in enumerate(policies):
            mine = which[ids] == index
            games_here, throws_here = ids[mine], throw[mine]
            row = np.minimum(level[games_here], policy.levels - 1)
            chosen = policy.choice[row, throws_here]
            if watch is not None:
                watch.evidence[games_here] += set_aside_evidence(
                    watch.rules, watch.on_board[games_here], level[games_here], throws_here, chosen
                )
            level[games_here] += table.steps[chosen]
            left = table.left[chosen]
            bank_row = np.minimum(level[games_here], policy.bank.shape[0] - 1)
            banks = (left > 0) & policy.bank[bank_row, left]
            if watch is not None:
                chose = games_here[left > 0]
                watch.evidence[chose] += decision_evidence(
                    watch.rules,
                    watch.on_board[chose],
                    level[chose],
                    left[left > 0],
                    banks[left > 0],
                )
            banked[games_here[banks]] = level[games_here[banks]]
            playing[games_here[banks]] = False
            dice[games_here] = np.where(left == 0, DICE, left)
    return banked


@dataclass(frozen=True, slots=True)
class Record:
    """Every prediction made (one row per player and position) and what happened."""

    predicted: FloatArray
    naive: FloatArray
    outcome: FloatArray


Position = tuple[IntArray, IntArray, IntArray, IntArray, FloatArray]


@dataclass(frozen=True, slots=True)
class Games:
    """Simulated games: every position before a turn (`games` indices, scores in steps of
    50, the seat to move, the seat that reached the target or -1, each seat's evidence of
    playing `weak` so far) and each seat's `share` of the win at the end (1 for the winner,
    1/k for k tied)."""

    positions: list[Position]
    share: FloatArray


def simulate(
    players: int,
    games: int,
    strategy: Style,
    seed: int,
    rules: YardkleRules,
    model: Model = "estimated",
) -> Record:
    """Play `games` games of `players` players in step and record every prediction of the
    model: the product's (`estimated`: each player's style from their choices so far), or
    one that assumes `points` players, or the players' `own` style."""
    played = play_games(players, games, strategy, seed, rules)
    return _record(played.positions, played.share, rules, model, strategy)


def play_games(
    players: int,
    games: int,
    strategy: str,
    seed: int,
    rules: YardkleRules,
    start: tuple[list[int], int] | None = None,
) -> Games:
    """Play `games` games of `players` players in step (RULES.md, "Yardkle", "End"), from
    the start or from `start` (the scores by seat, before the final round, and the seat to
    move)."""
    rng = np.random.default_rng(seed)
    goal = race_tables(rules).goal
    if strategy == "points":
        normal = [policy_of(TurnStrategy(rules, on), LEVELS) for on in (False, True)]
    else:
        normal = [weak_policy(rules, on, LEVELS) for on in (False, True)]
    scores = np.zeros((games, players), dtype=np.intp)
    mover = np.zeros(games, dtype=np.intp)
    if start is not None:
        scores[:] = np.array(start[0]) // STEP
        mover[:] = start[1]
    final_by = np.full(games, -1, dtype=np.intp)
    over = np.zeros(games, dtype=bool)
    evidence = np.zeros((games, players))
    states: list[Position] = []
    while not over.all():
        live = np.flatnonzero(~over)
        states.append(
            (
                live,
                scores[live].copy(),
                mover[live].copy(),
                final_by[live].copy(),
                evidence[live].copy(),
            )
        )
        normal_games = live[final_by[live] < 0]
        seats = mover[normal_games]
        on = (scores[normal_games, seats] > 0).astype(np.intp)
        watch = Watch(rules, on.astype(bool), np.zeros(len(normal_games)))
        scores[normal_games, seats] += play_turns(rng, normal, on, watch)
        evidence[normal_games, seats] += watch.evidence
        reached = normal_games[scores[normal_games, seats] >= goal]
        final_by[reached] = mover[reached]
        final_games = live[final_by[live] >= 0]
        final_games = final_games[~np.isin(final_games, reached)]
        if len(final_games):
            seats = mover[final_games]
            behind = scores[final_games].max(axis=1) - scores[final_games, seats]
            own = scores[final_games, seats]
            keys = [(bool(s > 0), int(b)) for s, b in zip(own, behind, strict=True)]
            distinct = sorted(set(keys))
            style: Style = "points" if strategy == "points" else "weak"
            policies = [final_turn_policy(rules, *key, style) for key in distinct]
            which = np.array([distinct.index(key) for key in keys], dtype=np.intp)
            scores[final_games, seats] += play_turns(rng, policies, which)
        mover[live] = (mover[live] + 1) % players
        over[live] = (final_by[live] >= 0) & (mover[live] == final_by[live])
    best = scores.max(axis=1, keepdims=True)
    winners = scores == best
    return Games(positions=states, share=winners / winners.sum(axis=1, keepdims=True))


def _record(
    states: list[Position],
    share: FloatArray,
    rules: YardkleRules,
    model: Model,
    strategy: str,
) -> Record:
    """Predict every recorded position (in one batch for the race, one by one for the final
    rounds) and pair each prediction with the game's outcome."""
    game = np.concatenate([s[0] for s in states])
    levels = np.concatenate([s[1] for s in states])
    mover = np.concatenate([s[2] for s in states])
    final_by = np.concatenate([s[3] for s in states])
    # Each player's evidence to its grade (telling choices, clipped): the batch's mixtures.
    grade = np.clip(np.rint(np.concatenate([s[4] for s in states]) / WEIGHT), -GRADES, GRADES)
    weak = weak_shares(grade * WEIGHT)
    players = levels.shape[1]
    style: Style = "weak" if model == "own" and strategy == "weak" else "points"
    estimated = model == "estimated"
    predicted = np.empty(levels.shape)
    race = final_by < 0
    # Positions repeat (every game starts alike): predict each distinct one once.
    keys = np.column_stack([levels[race], mover[race]] + ([grade[race]] if estimated else []))
    distinct, back = np.unique(keys, axis=0, return_inverse=True)
    chances = win_probabilities_batch(
        distinct[:, :players].astype(np.intp) * STEP,
        distinct[:, players].astype(np.intp),
        rules,
        style=style,
        weak=weak_shares(distinct[:, players + 1 :] * WEIGHT) if estimated else None,
    )
    predicted[race] = chances[back.ravel()]
    for index in np.flatnonzero(~race):
        predicted[index] = final_round_chances(
            rules,
            [int(v) for v in levels[index]],
            int(mover[index]),
            int(final_by[index]),
            0,
            DICE,
            style,
            [float(q) for q in weak[index]] if estimated else None,
        )
    leaders: BoolArray = levels == levels.max(axis=1, keepdims=True)
    naive = leaders / leaders.sum(axis=1, keepdims=True)
    return Record(predicted=predicted.ravel(), naive=naive.ravel(), outcome=share[game].ravel())


def report(record: Record, title: str, say: Callable[[str], None] = print) -> list[str]:
    """Print the buckets and the Brier scores; return the buckets judged off by more than 2
    percentage points (with at least `ENOUGH` predictions)."""
    brier = float(np.mean((record.predicted - record.outcome) ** 2))
    naive = float(np.mean((record.naive - record.outcome) ** 2))
    say(f"\n{title}: {len(record.predicted):,} predictions")
    say(f"Brier score: model {brier:.4f}, naive (leader wins) {naive:.4f}")
    say("| bucket | mean predicted | observed | count | gap (pp) |")
    say("|---|---|---|---|---|")
    bucket = np.minimum((record.predicted * 10).astype(np.intp), 9)
    missed = []
    for tenth in range(10):
        mine = bucket == tenth
        count = int(mine.sum())
        if not count:
            continue
        mean = float(record.predicted[mine].mean())
        seen = float(record.outcome[mine].mean())
        gap = (seen - mean) * 100
        flag = " (!)" if count >= ENOUGH and abs(gap) > 2 else ""
        if flag:
            missed.append(f"{title} {tenth / 10:.1f}")
        say(
            f"| {tenth / 10:.1f}-{(tenth + 1) / 10:.1f} | {mean:.3f} | {seen:.3f} | "
            f"{count:,} | {gap:+.2f}{flag} |"
        )
    return missed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5, 6])
    parser.add_argument(
        "--strategy", nargs="+", choices=["points", "weak"], default=["points", "weak"]
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--model",
        choices=["estimated", "points", "own"],
        default="estimated",
        help="each player's style estimated from their choices so far (the product's), "
        "points-maximising players, or the players' own style",
    )
    arguments = parser.parse_args(argv)
    rules = YardkleRules()
    missed: list[str] = []
    for strategy in arguments.strategy:
        for players in arguments.players:
            seed = arguments.seed * 1000 + players * 10 + len(strategy)
            model: Model = arguments.model
            record = simulate(players, arguments.games, strategy, seed, rules, model)
            title = f"{players} players, {strategy}, {arguments.games:,} games, model {model}"
            missed += report(record, title, say=lambda line: print(line, flush=True))
    print("\nbuckets off by more than 2 pp:", ", ".join(missed) or "none")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
