"""A played game, decision by decision, against optimal play (docs/analysis.md, "Analysing a
game").

`analyse_game` replays the turns with the game's own rules (`scoring.yardzee.YardzeeGame`,
`scoring.yardkle.YardkleGame`: a turn they reject is rejected here with the same code), and at
every real choice (more than one legal option) records the best option, the chosen one and
the loss between them:

- Yardzee: the keep after the first and second rolls (stopping is keeping all five) and the
  box, valued by the solitaire optimum (`scoring.analysis.yardzee.Strategy`), in expected
  points;
- Yardkle: each set-aside and each bank-or-throw, valued by the turn's optimum
  (`scoring.analysis.yardkle.TurnStrategy`): expected points banked, or in the final round the
  chance of finishing above the leader, whose losses are kept apart (they are chances, not
  points).
"""

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from functools import lru_cache
from typing import Any, Final, Literal

from scoring import GAMES, game_from_json
from scoring.analysis.option import Option, ranked
from scoring.analysis.yardkle import TIE, TurnStrategy
from scoring.analysis.yardzee import Strategy, YardzeeState
from scoring.dice import read_dice
from scoring.errors import RuleViolation
from scoring.game import Game, JsonObject, invalid_state
from scoring.json_input import read_list, read_object
from scoring.yardkle import YardkleGame, YardkleRules
from scoring.yardzee import MAX_ROLLS, YardzeeGame, YardzeeRules

Objective = Literal["points", "probability"]
DecisionKind = Literal["keep", "box", "set_aside", "bank_or_throw"]

OPTIMAL_WITHIN: Final = 1e-9
"""A choice this close to the best (in its objective) counts as optimal: equal values reached
by different sums of floats differ in the last bits."""

HALF_ACCURACY_LOSS: Final[Mapping[str, float]] = {"yardzee": 1.0, "yardkle": 25.0}
"""The mean loss per decision, in expected points, at which accuracy is 50 (docs/analysis.md,
"Accuracy")."""

_RECORD_KEYS: Final = frozenset({"game", "players", "rules", "turns"})
_RECORD_REQUIRED: Final = frozenset({"game", "players", "turns"})


@dataclass(frozen=True, slots=True)
class Decision:
    """One choice a player made: `kind` ("keep", "box", "set_aside", "bank_or_throw"),
    `step` (the roll or throw it followed, from 1), the `best` and the `chosen` option (with
    its `loss` against the best), how many options there were, and the `objective` the values
    are in ("points", or "probability" in Yardkle's final round)."""

    turn: int
    seat: int
    kind: DecisionKind
    step: int
    objective: Objective
    best: Option
    chosen: Option
    options: int

    @property
    def loss(self) -> float:
        """What the choice cost against the best, in the objective's unit."""
        return self.chosen.loss

    @property
    def optimal(self) -> bool:
        """Whether the choice was (within float rounding) as good as the best."""
        return self.chosen.loss <= OPTIMAL_WITHIN

    def to_json(self) -> JsonObject:
        """The decision as plain JSON: its fields in their order (the two options as theirs),
        then its loss and whether it was optimal."""
        plain = {field.name: getattr(self, field.name) for field in fields(self)}
        return plain | {
            "best": self.best.to_json(),
            "chosen": self.chosen.to_json(),
            "loss": self.loss,
            "optimal": self.optimal,
        }


@dataclass(frozen=True, slots=True)
class TurnAnalysis:
    """The decisions of one turn (`turn` is its index in the game, from 0), and whether it was
    played in Yardkle's final round."""

    turn: int
    seat: int
    decisions: tuple[Decision, ...]
    final_round: bool = False

    @property
    def loss(self) -> float:
        """The turn's total loss in its objective."""
        return sum(decision.loss for decision in self.decisions)

    def to_json(self) -> JsonObject:
        """The turn's analysis as plain JSON."""
        return {
            "turn": self.turn,
            "seat": self.seat,
            "final_round": self.final_round,
            "loss": self.loss,
            "decisions": [decision.to_json() for decision in self.decisions],
        }


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's game: the decisions in expected points, how many were optimal, their
    total and mean loss and the `accuracy` (0 to 100: docs/analysis.md, "Accuracy"); and
    apart, the final round's decisions and their total loss in probability."""

    seat: int
    decisions: int
    optimal: int
    total_loss: float
    mean_loss: float
    accuracy: float
    final_round_decisions: int = 0
    final_round_loss: float = 0.0

    def to_json(self) -> JsonObject:
        """The summary as plain JSON: its fields, in their order."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """A whole game's analysis: every turn's decisions and a summary per seat."""

    game: str
    rules: JsonObject
    turns: tuple[TurnAnalysis, ...]
    players: tuple[PlayerSummary, ...]

    def decisions(self, seat: int | None = None) -> list[Decision]:
        """Every decision of the game, or of one seat, in the order they were made."""
        return [
            decision
            for turn in self.turns
            for decision in turn.decisions
            if seat is None or decision.seat == seat
        ]

    def to_json(self) -> JsonObject:
        """The analysis as plain JSON, for pages and the API."""
        return {
            "game": self.game,
            "rules": self.rules,
            "players": [player.to_json() for player in self.players],
            "turns": [turn.to_json() for turn in self.turns],
        }


def accuracy(mean_loss: float, game: str) -> float:
    """The accuracy figure for a mean loss per decision (expected points): 100 for no loss,
    50 when the mean loss is `HALF_ACCURACY_LOSS[game]`, towards 0 as it grows
    (`100 * h / (h + mean_loss)`)."""
    half = HALF_ACCURACY_LOSS[game]
    return 100.0 * half / (half + max(mean_loss, 0.0))


def analyse_game(
    game: Game | Mapping[str, Any],
    rules: YardzeeRules | YardkleRules | Mapping[str, Any] | None = None,
    *,
    turns: Sequence[object] | None = None,
    strategy: Strategy | None = None,
) -> GameAnalysis:
    """Analyse a game's turns (DESIGN.md, "Turn JSON") against optimal play.

    `game` is either a whole game as JSON, `{"game": "yardzee", "players": 4, "rules"?: {...},
    "turns": [...]}` (`rules` fills in a ruleset the record leaves out), or the game before
    the turns: a game object (not changed) or its stored state (`to_json()`), with `turns`.
    Yardzee needs the `strategy` for the game's ruleset (`Strategy.load`); without one, it is
    built in this process once per ruleset (seconds). A turn the rules reject raises its
    `RuleViolation`, with `details.turn_index`.
    """
    start, moves = _start(game, rules, turns)
    if isinstance(start, YardzeeGame):
        chosen = strategy if strategy is not None else _built_strategy(start.rules)
        if chosen.rules != start.rules:
            raise ValueError(
                f"the strategy is for {chosen.rules.to_json()}, "
                f"the game is played by {start.rules.to_json()}"
            )
        # Replay first (checking every turn), then solve every position in one batch.
        played = [_yardzee_play(start, index, turn) for index, turn in enumerate(moves)]
        chosen.solve(state for _, state, _ in played)
        analysed = [
            _yardzee_turn(chosen, index, seat, state, turn)
            for index, (seat, state, turn) in enumerate(played)
        ]
    elif isinstance(start, YardkleGame):
        analysed = [_yardkle_turn(start, index, turn) for index, turn in enumerate(moves)]
    else:  # pragma: no cover - GAMES holds these two
        raise TypeError(f"cannot analyse {type(start).__name__}")
    return GameAnalysis(
        game=start.name,
        rules=start.rules.to_json(),
        turns=tuple(analysed),
        players=tuple(_summary(start.name, seat, analysed) for seat in range(start.players)),
    )


def _start(
    game: Game | Mapping[str, Any],
    rules: YardzeeRules | YardkleRules | Mapping[str, Any] | None,
    turns: Sequence[object] | None,
) -> tuple[Game, Sequence[object]]:
    """A fresh copy of the game before the turns, and the turns."""
    if isinstance(game, Mapping) and "turns" in game:
        record = read_object(
            dict(game), field="game", required=_RECORD_REQUIRED, allowed=_RECORD_KEYS
        )
        name = record["game"]
        kind = GAMES.get(name) if type(name) is str else None
        if kind is None:
            raise RuleViolation(
                "unknown_game",
                f"There is no game {str(name)[:40]!r}; games: {', '.join(GAMES)}.",
                details={"games": list(GAMES)},
            )
        if turns is not None:
            raise invalid_state("turns", "are given twice: in the record and apart")
        given = record.get("rules", rules)
        if isinstance(given, YardzeeRules | YardkleRules):
            given = given.to_json()
        start = kind.create(record["players"], given if given is not None else {})
        _check_rules(start, rules)
        return start, read_list(record["turns"], field="turns")
    state = game.to_json() if not isinstance(game, Mapping) else game
    start = game_from_json(dict(state))
    _check_rules(start, rules)
    if turns is None:
        raise invalid_state("turns", "are missing: pass the turns to analyse")
    return start, read_list(turns, field="turns")


def _check_rules(
    start: Game, rules: YardzeeRules | YardkleRules | Mapping[str, Any] | None
) -> None:
    """Rules given beside a game must be the rules it is played by (JSON may leave out
    defaults)."""
    if rules is None:
        return
    ruleset = YardzeeRules if isinstance(start.rules, YardzeeRules) else YardkleRules
    as_json = rules.to_json() if not isinstance(rules, Mapping) else dict(rules)
    if ruleset.from_json(as_json) != start.rules:
        raise invalid_state("rules", "differ from the rules the game is played by")


@lru_cache(maxsize=2)
def _built_strategy(rules: YardzeeRules) -> Strategy:
    return Strategy.build(rules)


@lru_cache(maxsize=8)
def _normal_strategy(rules: YardkleRules, on_board: bool) -> TurnStrategy:
    return TurnStrategy(rules, on_board)


def turn_strategy(
    rules: YardkleRules, on_board: bool, need: int | None, tie: float = TIE
) -> TurnStrategy:
    """A Yardkle turn strategy. The two for normal turns (on the board or not) are kept per
    process and ruleset (about 0.1 s each to build); a final round's, whose `need` is the
    game's own and where a tie with the leader is worth `tie` (its share of the placement,
    RULES.md "End"), is built for its turn (milliseconds)."""
    if need is None:
        return _normal_strategy(rules, on_board)
    return TurnStrategy(rules, on_board, need, tie=tie)


def _played(game: Game, index: int, turn: object) -> None:
    """Apply the turn, or raise its rule error naming the turn."""
    try:
        game.play(turn)
    except RuleViolation as violation:
        raise violation.at_turn(index) from violation


def _decision(
    index: int,
    seat: int,
    kind: DecisionKind,
    step: int,
    options: list[Option],
    chosen: Option,
    objective: Objective = "points",
) -> Decision:
    return Decision(
        turn=index,
        seat=seat,
        kind=kind,
        step=step,
        objective=objective,
        best=options[0],
        chosen=chosen,
        options=len(options),
    )


def _yardzee_play(
    game: YardzeeGame, index: int, turn: object
) -> tuple[int, YardzeeState, dict[str, Any]]:
    """Apply a Yardzee turn (checking every roll, keep and the box); the seat, its state
    before the turn, and the turn."""
    seat = game.current_player
    if seat is None:
        raise RuleViolation("game_over", "The game is over; no more turns can be played.")
    state = YardzeeState.of_boxes(game.scorecard(seat).boxes)
    _played(game, index, turn)
    assert isinstance(turn, dict)  # noqa: S101 - play() accepted it, so it is an object
    return seat, state, turn


def _yardzee_turn(
    strategy: Strategy, index: int, seat: int, state: YardzeeState, turn: dict[str, Any]
) -> TurnAnalysis:
    """A Yardzee turn's keeps and box (RULES.md, Yardzee "Turn", "Boxes", "Joker")."""
    rolls = turn["rolls"]
    decisions = []
    for number, roll in enumerate(rolls[: MAX_ROLLS - 1]):
        dice = read_dice(roll["dice"], "dice", 5)
        kept = rolls[number + 1]["keep"] if number + 1 < len(rolls) else dice
        options = strategy.keep_options(state, dice, MAX_ROLLS - 1 - number)
        keep = read_dice(kept, "keep")
        chosen = next(option for option in options if option.keep == keep)
        decisions.append(_decision(index, seat, "keep", number + 1, options, chosen))
        if number + 1 == len(rolls):
            break
    options = strategy.box_options(state, rolls[-1]["dice"])
    if len(options) > 1:
        chosen = next(option for option in options if option.box == turn["category"])
        decisions.append(_decision(index, seat, "box", len(rolls), options, chosen))
    return TurnAnalysis(turn=index, seat=seat, decisions=tuple(decisions))


def _yardkle_turn(game: YardkleGame, index: int, turn: object) -> TurnAnalysis:
    """A Yardkle turn's set-asides and bank-or-throw choices (RULES.md, Yardkle "Turn",
    "Entering the game", "End")."""
    seat = game.current_player
    if seat is None:
        raise RuleViolation("game_over", "The game is over; no more turns can be played.")
    final_round = game.final_round
    need = None
    tie = TIE
    if final_round:
        others = [game.total(other) for other in range(game.players) if other != seat]
        leader = max(others)
        need = leader - game.total(seat) + 1  # strictly above the leader
        tie = 1 / (others.count(leader) + 1)  # equal scores share the placement ("End")
    strategy = turn_strategy(game.rules, game.on_board(seat), need, tie)
    objective: Objective = "probability" if final_round else "points"
    _played(game, index, turn)
    assert isinstance(turn, dict)  # noqa: S101 - play() accepted it, so it is an object
    throws = turn["throws"]
    decisions = []
    total = 0
    for number, throw in enumerate(throws):
        dice = read_dice(throw["dice"], "dice")
        set_aside = read_dice(throw["set_aside"], "set_aside")
        if not set_aside:
            break  # a Yardkle: nothing was chosen
        combined = strategy.options(total, dice)
        by_selection: dict[tuple[int, ...], Option] = {}
        for option in combined:  # best first: each set-aside's first is its best continuation
            if option.set_aside is not None and option.set_aside not in by_selection:
                by_selection[option.set_aside] = option
        selections = ranked(by_selection.values())
        if len(selections) > 1:
            chosen = next(option for option in selections if option.set_aside == set_aside)
            decisions.append(
                _decision(index, seat, "set_aside", number + 1, selections, chosen, objective)
            )
        total += next(option.points or 0 for option in selections if option.set_aside == set_aside)
        left = len(dice) - len(set_aside)
        then = strategy.bank_or_throw(total, left)
        if len(then) > 1:
            banked = number + 1 == len(throws)
            chosen = next(
                option for option in then if option.then == ("bank" if banked else "throw")
            )
            decisions.append(
                _decision(index, seat, "bank_or_throw", number + 1, then, chosen, objective)
            )
    return TurnAnalysis(turn=index, seat=seat, decisions=tuple(decisions), final_round=final_round)


def _summary(game: str, seat: int, turns: Sequence[TurnAnalysis]) -> PlayerSummary:
    mine = [decision for turn in turns if turn.seat == seat for decision in turn.decisions]
    points = [decision for decision in mine if decision.objective == "points"]
    chances = [decision for decision in mine if decision.objective == "probability"]
    total = sum(decision.loss for decision in points)
    mean = total / len(points) if points else 0.0
    return PlayerSummary(
        seat=seat,
        decisions=len(points),
        optimal=sum(decision.optimal for decision in points),
        total_loss=total,
        mean_loss=mean,
        accuracy=accuracy(mean, game),
        final_round_decisions=len(chances),
        final_round_loss=sum(decision.loss for decision in chances),
    )
