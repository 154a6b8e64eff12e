"""A stored analysis as the match page shows it: each player's accuracy and points lost, each
turn marked by its loss, and the best play in words. Pure: plain data in, plain data out."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.scorecard import BOX_LABELS

# A Yardzee decision's loss in expected points from which it is an inaccuracy, a mistake, a
# blunder (issue 19). About 10%, 25% and 50% of an average turn (254.6 / 13 = 19.6 points).
YARDZEE_MARKS: tuple[tuple[float, str], ...] = ((10, "blunder"), (5, "mistake"), (2, "inaccuracy"))
# Yardkle: the same shares of an average turn's value under optimal play (578 points on the
# board, 554 before: docs/analysis.md), rounded: 50, 125 and 250 points.
YARDKLE_MARKS: tuple[tuple[float, str], ...] = (
    (250, "blunder"),
    (125, "mistake"),
    (50, "inaccuracy"),
)
# Yardkle's final round is judged by the chance to win: 5, 15 and 30 percentage points.
FINAL_ROUND_MARKS: tuple[tuple[float, str], ...] = (
    (0.30, "blunder"),
    (0.15, "mistake"),
    (0.05, "inaccuracy"),
)

# Smaller losses are not listed at all: they show as 0.0 (points, or chance).
SHOWN_FROM = {"points": 0.05, "probability": 0.0005}

NUMBERS = ("no", "one", "two", "three", "four", "five", "six")


def mark(loss: float, game: str, objective: str = "points") -> str | None:
    """The mark a decision's loss earns: blunder, mistake, inaccuracy, or None."""
    if objective == "probability":
        marks = FINAL_ROUND_MARKS
    else:
        marks = YARDZEE_MARKS if game == "yardzee" else YARDKLE_MARKS
    return next((name for at, name in marks if loss >= at), None)


def _dice(dice: Sequence[int]) -> str:
    return " ".join(map(str, dice))


def in_words(option: Mapping[str, Any], *, dice_total: int = 5) -> str:
    """An option as a player says it: "keep 3 3 3 and roll two dice", "stop and score", "Full
    House for 25", "set aside 1 5 and throw again", "set aside 1 5" (no `then`), "bank"."""
    if option.get("box") is not None:
        label = BOX_LABELS.get(option["box"], option["box"])
        return f"{label} for {option.get('points', 0)}"
    if option.get("keep") is not None:
        kept = list(option["keep"])
        left = dice_total - len(kept)
        if left == 0:
            return "stop and score"
        if not kept:
            return "roll all five dice again"
        return f"keep {_dice(kept)} and roll {NUMBERS[left]} {'die' if left == 1 else 'dice'}"
    if option.get("set_aside") is not None:
        kept = list(option["set_aside"])
        if option.get("then") == "bank":
            return f"set aside {_dice(kept)} and bank"
        if option.get("then") == "throw":
            return f"set aside {_dice(kept)} and throw again"
        return f"set aside {_dice(kept)}"
    return "bank" if option.get("then") == "bank" else "throw again"


def _as_played(decision: Mapping[str, Any]) -> Mapping[str, Any]:
    """The chosen option as the player chose it: a Yardkle set-aside alone, since the `then`
    its value assumes (the best play after it) need not be what the player did next, which
    is its own decision."""
    chosen: Mapping[str, Any] = decision["chosen"]
    if decision.get("kind") == "set_aside":
        return {key: value for key, value in chosen.items() if key != "then"}
    return chosen


@dataclass(frozen=True, slots=True)
class PlayerLine:
    name: str
    accuracy: float
    total_loss: float
    decisions: int
    optimal: int
    # Yardkle's final round, judged by the chance to win and counted apart from the accuracy
    # (docs/analysis.md): its choices and the chance they lost, in percentage points.
    final_round_decisions: int = 0
    final_round_loss: float = 0.0


@dataclass(frozen=True, slots=True)
class DecisionLine:
    turn: int
    name: str
    mark: str | None
    loss: float
    unit: str
    chosen: str
    best: str


@dataclass(frozen=True, slots=True)
class AnalysisView:
    players: list[PlayerLine]
    decisions: list[DecisionLine]
    marked: int
    # The players who made a choice in Yardkle's final round, in seat order: said under the
    # table (those choices are judged by the chance to win, not in the accuracy).
    final_round: tuple[PlayerLine, ...] = ()
    # Every choice of the game and how many were the best: with no loss listed (all under
    # SHOWN_FROM), "every choice was the best" is said only when it is so.
    choices: int = 0
    best_choices: int = 0


def analysis_view(
    game: str,
    players: Sequence[Mapping[str, Any]],
    turns: Sequence[Mapping[str, Any]],
    names: Mapping[int, str],
) -> AnalysisView:
    """Each player's summary line and every decision that lost something, in play order."""
    by_seat = {int(p["seat"]): names.get(int(p["player"]), "?") for p in players}
    lines = [
        PlayerLine(
            name=by_seat[int(p["seat"])],
            accuracy=float(p["accuracy"]),
            total_loss=float(p["total_loss"]),
            decisions=int(p["decisions"]),
            optimal=int(p["optimal"]),
            final_round_decisions=int(p.get("final_round_decisions") or 0),
            final_round_loss=float(p.get("final_round_loss") or 0.0) * 100,
        )
        for p in players
    ]
    decisions = []
    for turn in turns:
        for decision in turn["decisions"]:
            loss = float(decision["loss"])
            if decision.get("optimal") or loss < SHOWN_FROM.get(
                str(decision.get("objective")), 0.05
            ):
                continue
            objective = str(decision.get("objective", "points"))
            decisions.append(
                DecisionLine(
                    turn=int(turn["turn"]) + 1,
                    name=by_seat.get(int(decision["seat"]), "?"),
                    mark=mark(loss, game, objective),
                    loss=loss * 100 if objective == "probability" else loss,
                    unit="% chance" if objective == "probability" else "points",
                    chosen=in_words(_as_played(decision)),
                    best=in_words(decision["best"]),
                )
            )
    return AnalysisView(
        players=lines,
        decisions=decisions,
        marked=sum(1 for d in decisions if d.mark is not None),
        final_round=tuple(line for line in lines if line.final_round_decisions),
        choices=sum(len(turn["decisions"]) for turn in turns),
        best_choices=sum(
            1 for turn in turns for decision in turn["decisions"] if decision.get("optimal")
        ),
    )
