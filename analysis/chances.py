"""Each seat's chance to win from a game's state between turns: the models of
`scoring.winprob` (docs/analysis.md, "Win probability"), with the tables this process loaded
once (`analysis.strategies`).

- Yardzee, 2 to 5 players: each player's final total from the optimal solitaire strategy's
  mean and spread, mixed with the greedy player's by the player's loss rate so far (their
  turns' losses against the optimal play: `turn_loss`; `scoring.winprob.yardzee`).
- Yardkle, 2 players: the exact solution of the two-player game, both playing to win
  (`scoring.winprob.yardkle_duel`), where its table is loaded; else the race model.
- Yardkle, 3 or more: the race to the target from each player's per-turn distribution
  (`scoring.winprob.yardkle_race`), each player valued as a mixture of the points-maximising
  and the weak style by how they have played so far (`scoring.winprob.yardkle_style`: their
  bank-or-throw choices in `turns`)."""

from collections.abc import Sequence
from typing import cast

from analysis import strategies
from games.models import GameName
from scoring.analysis import analyse_game
from scoring.game import Game
from scoring.winprob import YardkleDuel, yardkle_race, yardkle_style
from scoring.winprob import yardzee as yardzee_chances
from scoring.yardkle import YardkleGame, YardkleRules
from scoring.yardzee import YardzeeGame


def supports(game: str, players: int) -> bool:
    """Whether a match of `game` with `players` seats has a model here."""
    if game == GameName.YARDZEE:
        return yardzee_chances.MIN_PLAYERS <= players <= yardzee_chances.MAX_PLAYERS
    return game == GameName.YARDKLE and players >= 2


def model_name(game: Game) -> str:
    """The model `chances` answers `game` with."""
    if isinstance(game, YardzeeGame):
        return "yardzee-spread"
    rules = cast(YardkleGame, game).rules
    return "yardkle-duel" if _duel(game.players, rules) is not None else "yardkle-race"


def _duel(players: int, rules: YardkleRules) -> YardkleDuel | None:
    return strategies.yardkle_duel(rules) if players == 2 else None


def turn_loss(game: Game, turn: object) -> float | None:
    """The expected points a Yardzee turn (DESIGN.md's turn JSON) played from `game` (not
    changed) lost against the optimal play: its keeps' and box's losses
    (`scoring.analysis.analyse_game`). None for a Yardkle game (its model takes no rates)."""
    if not isinstance(game, YardzeeGame):
        return None
    strategy = strategies.yardzee_strategy(game.rules.to_json())
    return analyse_game(game, turns=[turn], strategy=strategy).turns[0].loss


def chances(
    game: Game, losses: Sequence[Sequence[float]] | None = None, turns: Sequence[object] = ()
) -> list[float]:
    """Each seat's chance to win the game as it stands (a game over: 1 for the winners,
    shared by a tie). Yardzee: `losses[seat]` are the losses of that seat's turns so far
    (`turn_loss`), from which each player's strength is judged (`loss_rates`); None judges
    every player optimal. Yardkle: `turns` are the turns that led to the game (stored
    payloads, in play order), from which a race reads the players' styles."""
    if game.is_over:
        first = [seat for seat, place in enumerate(game.placements()) if place == 1]
        return [1 / len(first) if seat in first else 0.0 for seat in range(game.players)]
    if isinstance(game, YardzeeGame):
        rules = game.rules.to_json()
        spread = strategies.yardzee_spread(rules)
        rates = [0.0] * game.players if losses is None else yardzee_chances.loss_rates(losses)
        greedy = strategies.yardzee_greedy(rules) if any(rates) else None
        positions = [
            yardzee_chances.Position.of_scorecard(game.scorecard(seat), loss_rate=rate)
            for seat, rate in enumerate(rates)
        ]
        return yardzee_chances.win_probabilities(positions, spread, greedy)
    yardkle = cast(YardkleGame, game)
    scores = [yardkle.total(seat) for seat in range(yardkle.players)]
    mover = yardkle.current_player or 0  # a game not over always has a player to move
    if (duel := _duel(yardkle.players, yardkle.rules)) is not None:
        return list(duel.win_probability(scores, mover, final_round=yardkle.final_round))
    strategies.yardkle_race(yardkle.rules)  # the saved tables, where there are
    weak = yardkle_style.estimate(yardkle.rules, yardkle.players, turns)
    return yardkle_race.win_probabilities(
        scores, mover, final_round_from=yardkle.final_round_by, rules=yardkle.rules, weak=weak
    )
