"""A seeded player for both games: legal, realistic turns for demo data and load tests.

The strategy is simple and sensible, not optimal. Yardzee: stop on a made hand, chase
straights with a run of three or more, otherwise keep the most common face, then fill the open
box that beats its typical value the most. Yardkle: set aside the scoring dice that balance
points against dice left to throw, bank around a threshold that rises with the dice left,
and obey the entry minimum, hot dice and the final round (RULES.md, "Yardzee", "Yardkle").
"""

import random
from collections.abc import Sequence
from typing import Final

from scoring.dice import Dice
from scoring.game import Game, JsonObject
from scoring.yardkle import DICE as YARDKLE_DICE
from scoring.yardkle import YardkleGame, has_points, score_selection, set_aside_options
from scoring.yardzee import MAX_ROLLS, YardzeeGame

# What each box typically scores in a game: a box is worth filling when the dice beat this.
_TYPICAL: Final = {
    "aces": 2.1,
    "twos": 5.3,
    "threes": 8.6,
    "fours": 12.2,
    "fives": 15.7,
    "sixes": 19.2,
    "three_of_a_kind": 21.7,
    "four_of_a_kind": 13.1,
    "full_house": 22.6,
    "small_straight": 29.5,
    "large_straight": 32.7,
    "yardzee": 16.9,
    "chance": 22.0,
}
# Fixed-value boxes that end the rolling as soon as they are made and open.
_MADE_HANDS: Final = ("yardzee", "large_straight", "full_house")
# Bank once the turn total reaches this, by the number of dice left to throw.
_BANK_AT: Final = {1: 250, 2: 300, 3: 400, 4: 700, 5: 2000, 6: 10**9}
# Each die left to throw is worth about this much when choosing what to set aside.
_DIE_WORTH: Final = 40
# A simulated game stops (RuntimeError) after this many turns per player, or one per 50 points
# of Yardkle target per player if that is more: a game to 10,000 takes about 16 turns each.
_TURNS_PER_PLAYER: Final = 200


def _roll(rng: random.Random, count: int) -> list[int]:
    return [rng.randint(1, 6) for _ in range(count)]


def keep_most_common_face(dice: Sequence[int]) -> list[int]:
    """The dice of the face showing most often (the higher face on a tie): the plain way to
    chase a Yardzee."""
    face = max(range(1, 7), key=lambda face: (dice.count(face), face))
    return [face] * dice.count(face)


def _straight_keep(dice: Sequence[int]) -> list[int]:
    """One die of each face in the longest run of consecutive faces showing."""
    faces = sorted(set(dice))
    best: list[int] = []
    run: list[int] = []
    for face in faces:
        run = [*run, face] if run and face == run[-1] + 1 else [face]
        if len(run) > len(best):
            best = run
    return best


def _best_box(options: dict[str, int | None]) -> tuple[str, int]:
    """The allowed open box whose points beat its typical value the most."""
    allowed = [(name, points) for name, points in options.items() if points is not None]
    return max(allowed, key=lambda option: option[1] - _TYPICAL[option[0]])


def _yardzee_keep(game: YardzeeGame, dice: list[int]) -> list[int] | None:
    """What to keep before the next roll, or None to stop rolling now."""
    options = game.box_options(dice)
    made = any(options.get(name) for name in _MADE_HANDS)
    if made or (options.get("small_straight") and options.get("large_straight") is None):
        return None
    straights_open = any(
        options.get(name) is not None for name in ("small_straight", "large_straight")
    )
    run = _straight_keep(dice)
    if straights_open and len(run) >= 3 and max(map(dice.count, dice)) < 3:
        return run
    keep = keep_most_common_face(dice)
    return None if len(keep) == len(dice) else keep


def next_yardzee_turn(game: YardzeeGame, rng: random.Random) -> JsonObject:
    """A legal turn for the current Yardzee player: up to three rolls, then the best box."""
    dice = _roll(rng, 5)
    rolls: list[JsonObject] = [{"dice": dice}]
    while len(rolls) < MAX_ROLLS:
        keep = _yardzee_keep(game, dice)
        if keep is None:
            break
        dice = keep + _roll(rng, 5 - len(keep))
        rolls.append({"keep": keep, "dice": dice})
    category, points = _best_box(game.box_options(dice))
    return {"rolls": rolls, "category": category, "points": points}


def _set_aside(dice: Sequence[int]) -> list[int]:
    """The scoring dice to set aside: points plus the worth of the dice left to throw."""

    def worth(option: tuple[Dice, int]) -> tuple[int, Dice]:
        selection, points = option
        left = len(dice) - len(selection) or YARDKLE_DICE
        return points + _DIE_WORTH * left, selection

    return list(max(set_aside_options(dice).items(), key=worth)[0])


def next_yardkle_turn(game: YardkleGame, rng: random.Random) -> JsonObject:
    """A legal turn for the current Yardkle player: throw, set aside, bank or throw again."""
    seat = game.current_player
    if seat is None:
        raise ValueError("the game is over")
    score = game.total(seat)
    rivals = max(game.total(other) for other in range(game.players) if other != seat)
    throws: list[JsonObject] = []
    total = 0
    dice_left = YARDKLE_DICE
    while True:
        dice = _roll(rng, dice_left)
        if not has_points(dice):
            throws.append({"dice": dice, "set_aside": []})
            return {"throws": throws, "end": "yardkle", "points": 0}
        set_aside = _set_aside(dice)
        throws.append({"dice": dice, "set_aside": set_aside})
        total += score_selection(set_aside)
        dice_left = len(dice) - len(set_aside) or YARDKLE_DICE
        hot_dice = len(set_aside) == len(dice)
        entered = score > 0 or total >= game.rules.entry_minimum
        # In the final round only a score above the leader's is worth banking.
        behind = game.final_round and score + total <= rivals
        reaches = score + total >= game.rules.target
        if hot_dice or not entered or behind:
            continue
        if reaches or total >= _BANK_AT[dice_left]:
            return {"throws": throws, "end": "bank", "points": total}


def next_turn(game: Game, rng: random.Random) -> JsonObject:
    """A legal, realistic turn (DESIGN.md turn JSON) for the game's current player; not
    applied to `game`."""
    if game.is_over:
        raise ValueError("the game is over")
    if isinstance(game, YardzeeGame):
        return next_yardzee_turn(game, rng)
    if isinstance(game, YardkleGame):
        return next_yardkle_turn(game, rng)
    raise TypeError(f"no simulated player for {type(game).__name__}")


def play_game(game: Game, seed: int, *, max_turns: int | None = None) -> list[JsonObject]:
    """Play `game` to its end with turns from `random.Random(seed)`, applying each, and
    return the turns. Yardzee ends by itself after 13 rounds; a Yardkle game could in theory
    go on forever, so after `max_turns` (by default 200 turns per player, or one per 50
    points of target per player if that is more) it raises RuntimeError."""
    rng = random.Random(seed)
    turns: list[JsonObject] = []
    if max_turns is None:
        per_player = _TURNS_PER_PLAYER
        if isinstance(game, YardkleGame):
            per_player = max(per_player, game.rules.target // 50)
        max_turns = game.players * per_player
    while not game.is_over:
        if len(turns) >= max_turns:
            raise RuntimeError(f"the simulated game did not end within {max_turns} turns")
        turn = next_turn(game, rng)
        game.play(turn)
        turns.append(turn)
    return turns
