"""What an undo, a correction or a void of a match asks of the stages after it (re-seeded or
not), and a void's outcome."""

from typing import Any

from rest_framework import serializers

from api.serializers.base import ID_MAX, RefusesUnknownFields

RESEED_HELP = (
    "When the match's stage has finished and later stages took players by its ranking: put "
    "those later stages back to draft (refused once one of their matches has started). Without "
    "it such a change is refused with `stage_in_use`."
)


class ReseedSerializer(RefusesUnknownFields):
    reseed_later_stages = serializers.BooleanField(default=False, help_text=RESEED_HELP)


class ReseedQuerySerializer(serializers.Serializer[Any]):
    """`?reseed_later_stages=` of a correction, whose body is the turn: a query string, which
    may carry other parameters too (`format`, `key`), read for this one alone."""

    reseed_later_stages = serializers.BooleanField(default=False, help_text=RESEED_HELP)


class VoidSerializer(ReseedSerializer):
    outcome = serializers.ChoiceField(
        choices=["replay", "walkover", "no_result"],
        required=False,
        help_text="For a stage match: `replay` (default: the same players at a fresh match), "
        "`walkover` (the players in `forfeits` forfeit; the others go on, or play on when more "
        "remain than go on) or `no_result` (round robin and Swiss only).",
    )
    forfeits = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=ID_MAX),
        required=False,
        max_length=8,
        help_text="With `walkover`: the players who forfeit.",
    )
