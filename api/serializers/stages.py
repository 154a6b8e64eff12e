"""Stages as the API reads and writes them: their options and entries, forfeits and withdrawals."""

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.base import ID_MAX, RefusesUnknownFields
from api.serializers.organization import PlayerSerializer
from league.models import Stage, StageEntry, StageFormat
from league.selectors import stage_detail
from league.stage_options import (
    ADVANCE,
    GRAND_FINAL_RESET,
    GROUPS,
    MAX_ENTRANTS,
    MAX_TIEBREAK_KEY_LENGTH,
    MAX_TIEBREAK_KEYS,
    ROUNDS,
    SEEDING,
    SOURCE_BEST_REST,
    SOURCE_PER_GROUP,
    SOURCE_TOP,
    TABLE_SIZE,
    THIRD_PLACE,
    StageOption,
)


def option_field(option: StageOption) -> serializers.Field:  # type: ignore[type-arg]
    """A stage's option as the API takes it: its bounds, choices, default and help as the
    service declares them (`league.stage_options`); left out, it takes its default (an option
    off by default may also be sent as null)."""
    left_out: dict[str, Any] = (
        {"required": False, "allow_null": True} if option.nullable else {"default": option.default}
    )
    help_text = option.help or None
    if option.kind == "yes_no":
        return serializers.BooleanField(help_text=help_text, **left_out)
    if option.kind == "choice":
        return serializers.ChoiceField(choices=option.choices, help_text=help_text, **left_out)
    return serializers.IntegerField(
        min_value=option.low, max_value=option.high, help_text=help_text, **left_out
    )


class StageCreateSerializer(RefusesUnknownFields):
    name = serializers.CharField(max_length=120)
    format = serializers.ChoiceField(choices=StageFormat.choices)
    participants = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=ID_MAX),
        required=False,
        default=list,
        max_length=MAX_ENTRANTS,
        help_text="Player ids in seed order (manual seeding), unless taken from `source_stage`.",
    )
    table_size = option_field(TABLE_SIZE)
    advance = option_field(ADVANCE)
    rounds = option_field(ROUNDS)
    groups = option_field(GROUPS)
    seeding = option_field(SEEDING)
    third_place = option_field(THIRD_PLACE)
    grand_final_reset = option_field(GRAND_FINAL_RESET)
    tiebreak = serializers.ListField(
        child=serializers.CharField(max_length=MAX_TIEBREAK_KEY_LENGTH),
        required=False,
        allow_null=True,
        max_length=MAX_TIEBREAK_KEYS,
    )
    source_stage = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=ID_MAX
    )
    source_top = option_field(SOURCE_TOP)
    source_per_group = option_field(SOURCE_PER_GROUP)
    source_best_rest = option_field(SOURCE_BEST_REST)

    def stage_options(self) -> dict[str, Any]:
        """The validated fields under the names the stage services take."""
        names = {"participants": "player_ids", "source_stage": "source_stage_id"}
        return {names.get(name, name): value for name, value in self.validated_data.items()}


class StageUpdateSerializer(StageCreateSerializer):
    """A change to a stage that has not started: any field of a new stage; what is left out
    stays. New participants, or a new seeding, are seeded again; naming `source_top` or
    `source_per_group` drops the other; `source_stage: null` drops both."""


class StageEntrySerializer(serializers.ModelSerializer[StageEntry]):
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = StageEntry
        fields = ["player", "seed", "group"]


class StageSerializer(serializers.ModelSerializer[Stage]):
    class Meta:
        model = Stage
        fields = [
            "id",
            "event",
            "name",
            "position",
            "format",
            "status",
            "table_size",
            "advance",
            "rounds",
            "groups",
            "seeding",
            "random_seed",
            "third_place",
            "grand_final_reset",
            "tiebreak",
            "source_stage",
            "source_top",
            "source_per_group",
            "source_best_rest",
            "points",
            "ranking",
            "group_ranking",
            "created_at",
            "started_at",
            "finished_at",
        ]


class StageDetailSerializer(StageSerializer):
    entries = StageEntrySerializer(many=True, read_only=True)
    draw = serializers.SerializerMethodField()

    class Meta(StageSerializer.Meta):
        fields = [*StageSerializer.Meta.fields, "entries", "draw", "dropped"]
        extra_kwargs = {
            "dropped": {
                "help_text": "At an event using check-in: the players entered but not "
                "checked in when it started, dropped then (ids)."
            }
        }

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_draw(self, stage: Stage) -> dict[str, Any]:
        """Rounds with their matches (round robin, Swiss), or the bracket's slots with their
        sources, exits (where each place goes next), byes, seats and results; and the byes."""
        return stage_detail(stage).to_json()


class ForfeitSerializer(RefusesUnknownFields):
    stage_match = serializers.IntegerField(
        min_value=1, max_value=ID_MAX, help_text="The stage match (not yet started)."
    )
    player = serializers.IntegerField(
        min_value=1, max_value=ID_MAX, help_text="The player who does not show."
    )


class WithdrawSerializer(RefusesUnknownFields):
    player = serializers.IntegerField(
        min_value=1, max_value=ID_MAX, help_text="The player who withdraws."
    )


class ReplayedSlotSerializer(serializers.Serializer[Any]):
    stage_match = serializers.IntegerField()
    match = serializers.IntegerField()


class WithdrawalSerializer(serializers.Serializer[Any]):
    stage = serializers.IntegerField()
    player = serializers.IntegerField()
    walkovers = serializers.ListField(
        child=serializers.IntegerField(), help_text="Stage matches now decided as walkovers."
    )
    replayed = ReplayedSlotSerializer(
        many=True,
        help_text="Tables that play on without the player: the stage match and its new match.",
    )
    in_progress = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Their matches already in progress, left as they are: finish or void them.",
    )
    removed_from_draft = serializers.BooleanField(
        help_text="The stage had not started: the player was taken off its entries."
    )
