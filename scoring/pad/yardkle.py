"""A Yardkle pad (docs/rules.md, "What a pad can show"): a column a player (`YardkleColumn`:
the banked turn totals in order, 0 for a Yardkle).

- every turn total is one some turn banks: 0 (a Yardkle) or a sum of set-aside points that a
  sequence of throws reaches with dice left to throw (hot dice throw six again), within the
  100 throws a turn may list (`turn_total_possible`, computed from the set-aside table);
- a player's first bank is at least the entry minimum ("Entering the game");
- the turns follow seat order, the game ends after the final round ("End": once a player
  reaches the target every other player has exactly one more turn), and the pad shows a
  finished game;
- a match has at most `turn_limit` turns (docs/rules.md, "How long a game can be"; the caller
  passes `games.limits.turn_limit`, which this layer cannot import). A pad over it is refused
  with that error alone: it is no game, and its cells are not read.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from math import gcd
from typing import Final, NotRequired, TypedDict

from scoring.game import placements
from scoring.pad.errors import PadError, PadInvalid, pad_columns, pad_error
from scoring.yardkle import DICE as YARDKLE_DICE
from scoring.yardkle import MAX_THROWS, YardkleGame, YardkleRules, set_aside_options

_FACES: Final = range(1, 7)
_YARDKLE_KEYS: Final = frozenset({"turns", "total"})


class YardkleColumn(TypedDict):
    """One player's Yardkle column as written: each turn's banked points in order (0 for a
    Yardkle), and the final score when it was typed too."""

    turns: list[int]
    total: NotRequired[int]


@dataclass(frozen=True, slots=True)
class TurnTotals:
    """Every turn total a Yardkle turn banks, computed from the set-aside table (RULES.md,
    "Point dice and combinations", "Turn"): the totals are multiples of `step` up to `most`,
    and `fewest_throws[total // step]` is the fewest throws that bank `total` (a very large
    number when none does)."""

    step: int
    most: int
    fewest_throws: tuple[int, ...]

    def possible(self, total: int) -> bool:
        """Whether some turn banks `total` within the throws a turn may list; 0 is a
        Yardkle."""
        if total == 0:
            return True
        if total < 0 or total > self.most or total % self.step:
            return False
        return self.fewest_throws[total // self.step] <= MAX_THROWS


@cache
def turn_totals() -> TurnTotals:
    """The turn totals a Yardkle turn can bank, by a reachability computation over the
    set-aside points (computed once, on first use, in about a tenth of a second).

    A turn is some rounds that set aside all six dice (hot dice: six are thrown again) and a
    last round that sets aside one to five of six dice and banks. Each throw sets aside one
    valid selection of at most the dice thrown (the other dice thrown can be anything). So the
    fewest throws of a round worth p points, from six dice, follow from the selections; and a
    total's fewest throws are the best split into hot rounds plus one last round."""
    by_size: dict[int, set[int]] = {}  # dice set aside -> the points of such a selection
    for throw in combinations_with_replacement(_FACES, YARDKLE_DICE):
        for selection, points in set_aside_options(list(throw)).items():
            by_size.setdefault(len(selection), set()).add(points)
    never = MAX_THROWS * 1_000  # more throws than any turn lists
    # rounds[used]: points -> fewest throws setting aside `used` of six dice.
    rounds: list[dict[int, int]] = [{0: 0}] + [{} for _ in range(YARDKLE_DICE)]
    for used in range(YARDKLE_DICE):
        for points, throws in rounds[used].items():
            for size, extras in by_size.items():
                if used + size <= YARDKLE_DICE:
                    reached = rounds[used + size]
                    for extra in extras:
                        reached[points + extra] = min(
                            reached.get(points + extra, never), throws + 1
                        )
    hot = rounds[YARDKLE_DICE]
    last: dict[int, int] = {}
    for used in range(1, YARDKLE_DICE):
        for points, throws in rounds[used].items():
            last[points] = min(last.get(points, never), throws)
    step = gcd(*hot, *last)
    most = MAX_THROWS * max(max(points) for points in by_size.values())  # a bound: no throw more
    slots = most // step + 1
    hot_rounds = [(points // step, throws) for points, throws in hot.items()]
    only_hot = [0] + [never] * (slots - 1)  # fewest throws of hot rounds alone, by total
    for slot in range(1, slots):
        only_hot[slot] = min(
            (only_hot[slot - size] + throws for size, throws in hot_rounds if size <= slot),
            default=never,
        )
    last_rounds = [(points // step, throws) for points, throws in last.items()]
    fewest = tuple(
        min(
            (only_hot[slot - size] + throws for size, throws in last_rounds if size <= slot),
            default=never,
        )
        for slot in range(slots)
    )
    most = step * max(slot for slot in range(slots) if fewest[slot] <= MAX_THROWS)
    return TurnTotals(step, most, fewest[: most // step + 1])


def turn_total_possible(total: object) -> bool:
    """Whether some Yardkle turn banks `total` points (0: a Yardkle), by throws and set-aside
    dice the rules allow, within the 100 throws a turn may list (RULES.md, "Turn")."""
    return type(total) is int and turn_totals().possible(total)


def _yardkle_column(
    player: int, column: object, rules: YardkleRules
) -> tuple[list[PadError], list[int]]:
    """The errors of one Yardkle column by itself, and its turns (a non-number as 0)."""
    if type(column) is not dict:
        return [
            pad_error("wrong_type", f"Player {player + 1}'s column is not an object.", player)
        ], []
    errors = [
        pad_error(
            "unknown_key",
            f"Player {player + 1}'s column has {str(key)[:40]!r}; a Yardkle column has turns "
            "and a total.",
            player,
        )
        for key in column
        if key not in _YARDKLE_KEYS
    ]
    written = column.get("turns")
    if type(written) is not list:
        return [
            *errors,
            pad_error("wrong_type", f"Player {player + 1}'s turns are not a list.", player),
        ], []
    # An impossible total counts as nothing when the turns are followed to the end.
    turns = [points if turn_total_possible(points) else 0 for points in written]
    entered = False
    for turn, points in enumerate(written):
        if not turn_total_possible(points):
            errors.append(
                pad_error(
                    "turn_total_impossible",
                    f"Player {player + 1}'s turn {turn + 1} banks {points!r}, which no turn "
                    f"banks: a turn banks 0 (a Yardkle) or a multiple of {turn_totals().step} "
                    f"that its throws reach (at most {turn_totals().most:,} in "
                    f"{MAX_THROWS} throws).",
                    player,
                    turn=turn,
                )
            )
        if not entered and turns[turn] > 0:
            entered = True
            if turns[turn] < rules.entry_minimum:
                errors.append(
                    pad_error(
                        "below_entry_minimum",
                        f"Player {player + 1}'s first bank, turn {turn + 1}, is {points}: a "
                        f"player enters the game with {rules.entry_minimum} or more.",
                        player,
                        turn=turn,
                    )
                )
    if "total" in column and (type(column["total"]) is not int or column["total"] != sum(turns)):
        errors.append(
            pad_error(
                "total_mismatch",
                f"Player {player + 1}'s total is written as {column['total']!r}; the turns give "
                f"{sum(turns)}.",
                player,
                box="total",
            )
        )
    return errors, turns


@dataclass(frozen=True, slots=True)
class _Walk:
    """The pad's turns in the order they were played: `played` of them in seat order before
    a turn is missing or the game ended, the `end` (the turns the game takes) once a bank
    reached the target, and the seat whose bank did (`final_round_by`)."""

    played: int
    end: int | None
    final_round_by: int | None


def _walk(turns: Sequence[Sequence[int]], target: int) -> _Walk:
    seats = len(turns)
    scores = [0] * seats
    end: int | None = None
    by: int | None = None
    played = 0
    while played != end:
        seat, round_ = played % seats, played // seats
        if round_ >= len(turns[seat]):
            break
        scores[seat] += turns[seat][round_]
        if end is None and scores[seat] >= target:
            end, by = played + seats, seat  # everyone else has one more turn (RULES.md, "End")
        played += 1
    return _Walk(played, end, by)


def _order_errors(turns: Sequence[Sequence[int]], target: int) -> list[PadError]:
    """The errors of turn order and the end (RULES.md, "Game", "End")."""
    seats = len(turns)
    walk = _walk(turns, target)
    errors = []
    if walk.played != walk.end:
        seat, round_ = walk.played % seats, walk.played // seats
        if walk.end is None:
            errors.append(
                pad_error(
                    "game_not_over",
                    f"Player {seat + 1}'s turn {round_ + 1} is missing and no player has "
                    f"reached {target:,}: the pad does not show a finished game.",
                    seat,
                    turn=round_,
                )
            )
        else:
            errors.append(
                pad_error(
                    "final_round",
                    f"Player {seat + 1}'s turn {round_ + 1} is missing: once player "
                    f"{(walk.final_round_by or 0) + 1} reached {target:,}, every other player "
                    "has exactly one more turn.",
                    seat,
                    turn=round_,
                )
            )
    for seat, column in enumerate(turns):
        for round_ in range(len(column)):
            index = round_ * seats + seat
            if walk.end is not None and index >= walk.end:
                errors.append(
                    pad_error(
                        "final_round",
                        f"Player {seat + 1}'s turn {round_ + 1} comes after the end: the game "
                        f"ends once every other player has had one turn after player "
                        f"{(walk.final_round_by or 0) + 1} reached {target:,}.",
                        seat,
                        turn=round_,
                    )
                )
            elif index > walk.played:
                errors.append(
                    pad_error(
                        "turn_order",
                        f"Player {seat + 1}'s turn {round_ + 1} comes after a missing turn: "
                        "players take one turn each in seat order.",
                        seat,
                        turn=round_,
                    )
                )
    return errors


def check_yardkle_pad(
    pad: object, rules: YardkleRules, *, turn_limit: int, players: int | None = None
) -> list[PadError]:
    """Every error of a Yardkle pad (a list of `YardkleColumn`, one per seat in seat order;
    `players`, when given, the seats of the match) under `rules`, for a match of at most
    `turn_limit` turns (`games.limits.turn_limit`): docs/rules.md, "What a pad can show",
    "Point dice and combinations", "Turn", "Entering the game", "End", "How long a game can
    be". Empty when some legal game writes the pad."""
    return _check(pad, rules, turn_limit, players)[0]


def _check(
    pad: object, rules: YardkleRules, turn_limit: int, players: int | None
) -> tuple[list[PadError], list[list[int]]]:
    """The pad's errors, and its turns (a non-number as 0)."""
    columns, errors = pad_columns(pad, YardkleGame, players)
    lengths = [len(column["turns"]) if _has_turns(column) else 0 for column in columns]
    if sum(lengths) > turn_limit:
        return errors + _over_limit(lengths, turn_limit), []
    turns = []
    for player, column in enumerate(columns):
        column_errors, column_turns = _yardkle_column(player, column, rules)
        errors += column_errors
        turns.append(column_turns)
    if columns:
        errors += _order_errors(turns, rules.target)
    return errors, turns


def _has_turns(column: object) -> bool:
    return type(column) is dict and type(column.get("turns")) is list


def _over_limit(lengths: Sequence[int], turn_limit: int) -> list[PadError]:
    """`too_many_turns`, at each player's first turn past their share of the limit."""
    seats = len(lengths)
    errors = []
    for seat, length in enumerate(lengths):
        share = turn_limit // seats + (seat < turn_limit % seats)
        if length > share:
            errors.append(
                pad_error(
                    "too_many_turns",
                    f"The pad has {sum(lengths)} turns; a match takes at most {turn_limit}, "
                    f"so player {seat + 1}'s turn {share + 1} and those after it are past the "
                    "limit (a game that long is not a game: its organizers void it).",
                    seat,
                    turn=share,
                )
            )
    return errors


@dataclass(frozen=True, slots=True)
class YardklePadResult:
    """A valid Yardkle pad's final scores and placements in seat order, the turns the game
    took, and the seat whose bank reached the target first (RULES.md, "Game", "End")."""

    totals: tuple[int, ...]
    placements: tuple[int, ...]
    turns_played: int
    final_round_by: int


def yardkle_pad_result(
    pad: object, rules: YardkleRules, *, turn_limit: int, players: int | None = None
) -> YardklePadResult:
    """The scores and placements of a Yardkle pad; `PadInvalid` with every error of
    `check_yardkle_pad` when it has any. A score is the sum of the banked turns (RULES.md,
    "Game"), as `YardkleGame` adds them up."""
    errors, turns = _check(pad, rules, turn_limit, players)
    walk = _walk(turns, rules.target)
    if errors or walk.final_round_by is None:  # a valid pad's game is over
        raise PadInvalid(errors)
    totals = tuple(sum(column) for column in turns)
    return YardklePadResult(totals, tuple(placements(totals)), walk.played, walk.final_round_by)
