"""Matches as the API shows them (seats, turns, scorecards, boards), and what seating a match,
a result, a turn taken back and a correction send and get back."""

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.base import ID_MAX, RefusesUnknownFields
from api.serializers.organization import PlayerSerializer
from games.models import GameName, Match, MatchStatus, Seat, Turn, TurnCorrection
from games.selectors import LATEST_TURNS, match_board, with_corrections
from league.models import Event, League


class SeatSerializer(serializers.ModelSerializer[Seat]):
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = Seat
        fields = ["order", "player", "total", "placement"]


class TurnVersionSerializer(serializers.ModelSerializer[TurnCorrection]):
    """A version of a turn that a correction replaced, and who replaced it when."""

    corrected_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )

    class Meta:
        model = TurnCorrection
        fields = ["payload", "points", "bonus", "submitted_at", "corrected_by", "corrected_at"]


class TurnSerializer(serializers.ModelSerializer[Turn]):
    seat = serializers.IntegerField(source="seat.order", read_only=True)
    player = serializers.IntegerField(source="seat.player_id", read_only=True)
    corrected_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="username",
        read_only=True,
        allow_null=True,
        help_text="Who stored the latest correction of this turn (a username); null if none.",
    )
    corrections = serializers.SerializerMethodField(
        help_text="The versions corrections replaced, oldest first; empty if never corrected."
    )

    class Meta:
        model = Turn
        fields = [
            "sequence",
            "seat",
            "player",
            "points",
            "bonus",
            "payload",
            "submitted_at",
            "corrected_by",
            "corrected_at",
            "corrections",
        ]

    @extend_schema_field(TurnVersionSerializer(many=True))
    def get_corrections(self, turn: Turn) -> list[dict[str, Any]]:
        if turn.corrected_at is None:
            return []  # never corrected: nothing to read
        return list(TurnVersionSerializer(turn.corrections.all(), many=True).data)


class ScorecardSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    player = serializers.IntegerField()
    boxes = serializers.DictField(child=serializers.IntegerField(allow_null=True))
    upper_total = serializers.IntegerField()
    upper_bonus = serializers.IntegerField()
    lower_total = serializers.IntegerField()
    yardzee_bonus_count = serializers.IntegerField()
    yardzee_bonus = serializers.IntegerField()
    total = serializers.IntegerField()


class YardkleScoreSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    player = serializers.IntegerField()
    total = serializers.IntegerField()
    on_board = serializers.BooleanField()


class BoardSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    current_player = serializers.IntegerField(
        allow_null=True, help_text="Id of the player whose turn it is; null once over."
    )
    current_seat = serializers.IntegerField(allow_null=True)
    is_over = serializers.BooleanField()
    scorecards = ScorecardSerializer(many=True, required=False, help_text="Yardzee only.")
    scores = YardkleScoreSerializer(many=True, required=False, help_text="Yardkle only.")
    final_round = serializers.BooleanField(required=False, help_text="Yardkle only.")
    final_round_by = serializers.IntegerField(
        required=False, allow_null=True, help_text="Yardkle only: who reached the target."
    )


class MatchSerializer(serializers.ModelSerializer[Match]):
    """A match with its seats and board; the scoring key only for its organizers."""

    seats = SeatSerializer(many=True, read_only=True)
    board = serializers.SerializerMethodField()
    placements = serializers.SerializerMethodField()
    score_key = serializers.SerializerMethodField()
    league: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="slug",
        read_only=True,
        help_text="The league it counts in (its slug): its event's, or a casual match's own.",
    )
    time_zone = serializers.CharField(
        source="display_zone",
        read_only=True,
        help_text="The IANA zone the pages show `planned_at` in (docs/api.md, Scheduling).",
    )

    class Meta:
        model = Match
        fields = [
            "id",
            "game",
            "status",
            "event",
            "league",
            "rules",
            "turns_played",
            "seats",
            "board",
            "placements",
            "score_key",
            "created_at",
            "started_at",
            "finished_at",
            "table_label",
            "planned_at",
            "time_zone",
        ]

    @extend_schema_field(BoardSerializer)
    def get_board(self, match: Match) -> dict[str, Any]:
        game = self.context.get("games", {}).get(match.pk)
        return match_board(match, list(match.seats.all()), game)

    @extend_schema_field(serializers.ListField(child=serializers.DictField(), allow_null=True))
    def get_placements(self, match: Match) -> list[dict[str, int]] | None:
        """Per seat, its player and place (ties share the better place), once finished."""
        if match.status != MatchStatus.FINISHED:
            return None
        return [
            {"player": seat.player_id, "placement": seat.placement or 0, "total": seat.total or 0}
            for seat in match.seats.all()
        ]

    @extend_schema_field(
        serializers.CharField(
            allow_null=True,
            help_text="The match's private scoring key: shown to its organizers only, null "
            "otherwise.",
        )
    )
    def get_score_key(self, match: Match) -> str | None:
        """The match's private scoring key: shown to its organizers only, null otherwise."""
        return match.score_key if self.context.get("show_score_key") else None


class MatchDetailSerializer(MatchSerializer):
    turns = serializers.SerializerMethodField(
        help_text=f"The latest {LATEST_TURNS} turns (all of them in a shorter match), in play "
        "order; `turns_played` counts them all, and GET matches/{id}/turns/ pages through "
        "every turn."
    )

    pad = serializers.JSONField(
        read_only=True,
        help_text="For a result entered from the paper pad (POST matches/{id}/scorecard/): the "
        "pad as entered, a column a seat in seat order; it then has no turns. null otherwise.",
    )

    @extend_schema_field(TurnSerializer(many=True))
    def get_turns(self, match: Match) -> list[dict[str, Any]]:
        latest = getattr(match, "latest_turns", None)
        if latest is None:
            latest = list(
                match.turns.select_related("seat", "corrected_by").order_by("-sequence")[
                    :LATEST_TURNS
                ]
            )
        return list(TurnSerializer(with_corrections(latest[::-1]), many=True).data)

    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "turns", "pad"]


class MatchCreateSerializer(RefusesUnknownFields):
    event = serializers.PrimaryKeyRelatedField(
        queryset=Event.objects.select_related("league"), allow_null=True, required=False
    )
    league = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=League.objects.all(),
        allow_null=True,
        required=False,
        help_text="For a casual match (no event): the league it belongs to (its slug). Its "
        "players must be on the league's roster.",
    )
    game = serializers.ChoiceField(choices=GameName.choices)
    # How many players a game takes is the rulebook's to say (RULES.md, "Game": 422
    # `player_count`, one player as eleven at Yardkle); the list is only bounded in size here.
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=ID_MAX),
        max_length=100,
        help_text="Player ids in seat order (who plays first, second, ...): Yardzee 2 to 5, "
        "Yardkle 2 to 10 (422 `player_count` otherwise).",
    )
    # Any JSON, as a league's and an event's `rules`: the rulebook refuses what is not an
    # object (422 `wrong_type`, `read_rules_object`), as it does theirs; `null` is invalid.
    rules = serializers.JSONField(
        required=False,
        default=dict,
        help_text="Rule options over the league's and the event's (a JSON object; anything "
        "else is 422 `wrong_type`).",
    )


class StoredTurnSerializer(serializers.Serializer[Any]):
    """The turn just stored, as the turn's answer shows it (docs/api.md, "Submitting a turn")."""

    sequence = serializers.IntegerField(help_text="1-based position in the match.")
    seat = serializers.IntegerField(help_text="0-based seat that played it.")
    player = serializers.IntegerField()
    points = serializers.IntegerField()
    bonus = serializers.IntegerField()
    payload = serializers.JSONField(help_text="The turn as stored (without `turn_number`).")
    submitted_at = serializers.DateTimeField()


class MatchAfterTurnSerializer(serializers.Serializer[Any]):
    """The match after the turn: enough to go on; its whole board is `GET matches/{id}/`."""

    id = serializers.IntegerField()
    version = serializers.IntegerField(
        help_text="One more with every change to the match (turn, undo, correction, void)."
    )
    status = serializers.ChoiceField(choices=MatchStatus.choices)
    turns_played = serializers.IntegerField()
    next_seat = serializers.IntegerField(
        allow_null=True, help_text="The seat that plays next; null once the match is over."
    )
    next_player = serializers.IntegerField(
        allow_null=True, help_text="The player who plays next; null once the match is over."
    )


class TurnCreatedSerializer(serializers.Serializer[Any]):
    """The answer to a turn: built as plain JSON by games.services.turn_answer (this class
    describes it for the schema)."""

    turn = StoredTurnSerializer()
    match = MatchAfterTurnSerializer()


class ResultSerializer(RefusesUnknownFields):
    turns = serializers.ListField(
        # A null turn is a bad turn like any other that is no object: the rulebook names it
        # (422 wrong_type, details.turn_index), not the serializer (a 400 without the index).
        child=serializers.JSONField(allow_null=True),
        help_text="Every turn of the game, in play order.",
    )


class PadSerializer(RefusesUnknownFields):
    pad = serializers.ListField(
        # A column that is no object is the rulebook's to name (422 pad_invalid, the cell),
        # not the serializer's.
        child=serializers.JSONField(allow_null=True),
        max_length=5,
        help_text="The paper pad, a column a seat in seat order (docs/rules.md, 'What a pad "
        'can show\'). Yardzee: {"boxes": {box: points, all 13}, "yardzee_bonus_count": n}; '
        'Yardkle: {"turns": [banked totals in order, 0 for a Yardkle]}.',
    )


class UndoneTurnSerializer(serializers.Serializer[Any]):
    sequence = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    points = serializers.IntegerField()
    bonus = serializers.IntegerField()
    payload = serializers.JSONField()
    undone_at = serializers.DateTimeField()


@extend_schema_field(OpenApiTypes.INT)
class TurnNumberField(serializers.Field):  # type: ignore[type-arg]
    """A `turn_number` passed on as sent, for `games.services.turn_number_sent` to check as it
    checks a turn's (422 `wrong_type` unless a positive integer: "2", true or 2.0 are not);
    documented as the integer it must be."""

    def to_internal_value(self, data: Any) -> Any:
        return data

    def to_representation(self, value: Any) -> Any:
        return value


class TakeBackSerializer(RefusesUnknownFields):
    turn_number = TurnNumberField(
        required=False,
        allow_null=True,
        help_text="The turn you mean to take back (the last one): a positive integer, 422 "
        "`wrong_type` otherwise; another number is 409 `turn_number_mismatch` with the last "
        "turn's as `details.expected`.",
    )


class UndoSerializer(serializers.Serializer[Any]):
    undone = UndoneTurnSerializer()
    match = MatchSerializer()


class CorrectionSerializer(serializers.Serializer[Any]):
    turn = TurnSerializer(help_text="The corrected turn; `corrections` holds what it replaced.")
    changed = serializers.BooleanField(
        help_text="False when the turn sent was the one stored: nothing was changed."
    )
    later_turns_replayed = serializers.IntegerField(
        help_text="The later turns replayed on top of the correction (all still legal)."
    )
    match = MatchSerializer()
