"""Live win probability (issue 39): the chance each player wins from a position.

Pure code like the rest of `scoring` (the standard library and NumPy); docs/analysis.md has
the models and the figures:
- `yardkle_duel`: two-player Yardkle solved exactly, both players maximising their chance to
  win (`YardkleDuel`; "Win probability: Yardkle, two players").
- `yardkle_race`, `yardkle_turns`: Yardkle for 2 to 10 players, the race to the target from
  each player's exact per-turn distribution ("Win probability: Yardkle, three or more
  players"); `yardkle_style`, each player's style from their choices so far;
  `calibrate_yardkle`, its calibration command.
- `yardzee`, `yardzee_spread`: Yardzee for 2 to 5 players, from each player's final total
  under the optimal solitaire strategy ("Win probability: Yardzee").
"""

from scoring.winprob.yardkle_duel import Position, YardkleDuel

__all__ = ["Position", "YardkleDuel"]
