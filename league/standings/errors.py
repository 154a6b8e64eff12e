"""The one family of standings errors: a tiebreak order, a league points scheme, a result or a
stored tally that cannot be used (docs/standings.md, "Errors")."""

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from scoring.errors import DomainError

# Every code a `StandingsError` can carry, with what it means (the API can list them).
CODES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "tiebreak_order": "A tiebreak order is a non-empty list of metric keys.",
        "unknown_metric": "No standings metric has this key.",
        "duplicate_metric": "A metric appears twice in the tiebreak order.",
        "metric_not_for_game": "The metric does not apply to this league's game.",
        "unknown_game": "Standings are kept for 'yardzee' or 'yardkle'.",
        "league_points": "The league points scheme is not valid.",
        "invalid_result": "A match result does not describe a finished match.",
        "invalid_bye": "A bye does not describe a round's bye.",
        "invalid_tally": "A stored tally cannot be read back.",
    }
)


class StandingsError(DomainError, ValueError):
    """Standings that cannot be computed as asked; `code` is stable snake_case (one of `CODES`),
    `message` a sentence for people."""
