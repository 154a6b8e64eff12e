"""Searches for round robins at tables where no known design fits (docs/draw.md, "Round robin
and groups"): `search` holds the bounds and the heuristic searches (annealing, developed base
rounds, greedy), `exact` the CP-SAT models used ahead of time for the catalogue."""

from league.draw.covering.exact import ExactResult, exact, exact_one_repeat, one_to_spare
from league.draw.covering.search import (
    anneal,
    counting_bound,
    decode,
    developed,
    encode,
    evenness,
    greedy,
    profile,
    rounds_share_too_much,
    shorten,
    spread_floor,
)

__all__ = [
    "ExactResult",
    "anneal",
    "counting_bound",
    "decode",
    "developed",
    "encode",
    "evenness",
    "exact",
    "exact_one_repeat",
    "greedy",
    "one_to_spare",
    "profile",
    "rounds_share_too_much",
    "shorten",
    "spread_floor",
]
