"""Live win probability (issue 39): the chance each player wins from a position.

Pure code like the rest of `scoring` (the standard library and NumPy). `YardkleDuel` solves
two-player Yardkle exactly, both players maximising their chance to win; docs/analysis.md,
"Win probability: Yardkle, two players", has the model and the figures.
"""

from scoring.winprob.yardkle_duel import Position, YardkleDuel

__all__ = ["Position", "YardkleDuel"]
