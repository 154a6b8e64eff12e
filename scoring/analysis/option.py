"""One choice at a decision, valued: what the strategy engine answers with for both games."""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from scoring.dice import Dice, show
from scoring.game import JsonObject

Then = Literal["bank", "throw"]


@dataclass(frozen=True, slots=True)
class Option:
    """A choice in the game's own terms, with its expected value and its loss against the best
    choice at the same decision (0 for the best).

    Yardzee: `keep` (the dice kept for the next roll; all five dice is stopping) or `box` (the
    box filled, with the `points` it scores there, joker included, Yardzee bonus not).
    Yardkle: `set_aside` (with its `points`) and `then` (bank or throw again), or `then` alone
    for the decision after a set-aside. `value` is in the decision's objective: expected
    points, or for Yardkle's final round the chance of finishing above the leader.
    """

    value: float
    loss: float = 0.0
    keep: Dice | None = None
    box: str | None = None
    points: int | None = None
    set_aside: Dice | None = None
    then: Then | None = None

    @property
    def label(self) -> str:
        """The choice as a player says it: "keep 3-3-3", "stop", "full_house",
        "set aside 1-5, then throw"."""
        if self.box is not None:
            return self.box
        if self.keep is not None:
            return "stop" if len(self.keep) == 5 else f"keep {show(self.keep)}"
        if self.set_aside is not None:
            if self.then is None:
                return f"set aside {show(self.set_aside)}"
            return f"set aside {show(self.set_aside)}, then {self.then}"
        return str(self.then)

    def to_json(self) -> JsonObject:
        """The option as plain JSON (only the fields that apply)."""
        found: JsonObject = {"label": self.label, "value": self.value, "loss": self.loss}
        if self.keep is not None:
            found["keep"] = list(self.keep)
        if self.box is not None:
            found["box"] = self.box
        if self.points is not None:
            found["points"] = self.points
        if self.set_aside is not None:
            found["set_aside"] = list(self.set_aside)
        if self.then is not None:
            found["then"] = self.then
        return found


def ranked(options: Iterable[Option]) -> list[Option]:
    """The options best first, each with its loss against the best. Equal values keep the
    order given (callers list the simpler choice first)."""
    ordered = sorted(options, key=_by_value)
    if not ordered:
        return ordered
    best = ordered[0].value
    # Positional: this runs for every option of every decision of a game's analysis.
    return [
        Option(o.value, best - o.value, o.keep, o.box, o.points, o.set_aside, o.then)
        for o in ordered
    ]


def _by_value(option: Option) -> float:
    return -option.value
