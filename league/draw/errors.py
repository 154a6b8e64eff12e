"""The one family of draw errors: a stage that cannot be drawn or a result that does not fit."""

from typing import Final

from scoring.errors import DomainError

# Every code a `DrawError` can carry, with what it means (the API can list them).
CODES: Final = {
    "too_few_players": "A stage needs at least two participants.",
    "duplicate_player": "A participant appears twice.",
    "table_size": "Tables hold 2 to 5 players.",
    "advance": "The places that advance from a table do not fit the table size.",
    "format_option": "The option does not apply to this format.",
    "groups": "The number of groups does not fit the participants.",
    "unknown_slot": "No slot of the bracket has this key.",
    "result_players": "A result's players are not the players seated in its slot.",
    "result_for_bye": "A slot decided by a bye has no result to record.",
    "qualifiers": "More qualifiers were asked for than the standings hold.",
}


class DrawError(DomainError, ValueError):
    """A draw that cannot be made or a result that does not fit the bracket; `code` is stable
    snake_case (one of `CODES`), `message` a sentence for people."""
