"""Shapes of the API's JSON. Reads come from models and `games.selectors`; writes are parsed
here and handed to services."""

import json
from collections.abc import Mapping
from typing import Any

from django.http import QueryDict
from django.utils.text import slugify
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import GameName, Match, MatchStatus, Seat, Turn, TurnCorrection
from games.selectors import LATEST_TURNS, match_board, with_corrections
from league.models import (
    Event,
    EventStatus,
    League,
    Player,
    Stage,
    StageEntry,
    StageFormat,
)
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

# Ids are 64-bit database integers: anything larger is refused as invalid, not sent to the DB.
ID_MAX = 2**63 - 1
# Ids in URLs: at most 18 digits, so a longer one is a plain 404 rather than an overflow.
ID_IN_URL = r"[0-9]{1,18}"


def validated(
    serializer_class: type[serializers.BaseSerializer[Any]], data: Any, **kwargs: Any
) -> Any:
    """`data` as `serializer_class` reads it (its `validated_data`), or the 400
    `invalid` naming each field that is wrong."""
    parsed = serializer_class(data=data, **kwargs)
    parsed.is_valid(raise_exception=True)
    return parsed.validated_data


# The JSON type each kind of field takes. DRF reads a JSON body as leniently as a form, whose
# values are all text: 123 would be stored as the text "123", "9" or 9.0 taken as the number 9,
# "yes" or 1 as true. In a JSON body those are a client's mistakes, refused (a form's values
# are left to DRF). The first kind a field is an instance of decides (SlugField is a CharField).
_JSON_TYPES: tuple[tuple[type[serializers.Field], type, str], ...] = (  # type: ignore[type-arg]
    (serializers.BooleanField, bool, "true or false"),
    (serializers.CharField, str, "text (a JSON string)"),
    (serializers.IntegerField, int, "a whole number"),
    (serializers.PrimaryKeyRelatedField, int, "an id (a whole number)"),
    # A league named by its slug: 5 would be read as the slug "5".
    (serializers.SlugRelatedField, str, "a slug (a JSON string)"),
    (serializers.ChoiceField, str, "one of its choices, as a JSON string"),
    (serializers.DateTimeField, str, "a date and time, as an ISO 8601 JSON string"),
    (serializers.DateField, str, "a date, as a YYYY-MM-DD JSON string"),
)


def json_type_refused(field: Any, value: Any) -> str | None:
    """Why `value`, read from a JSON body, is not of the type `field` takes (each item of a
    list field by its child), or None. `null` is left to the field (`allow_null`)."""
    if value is None:
        return None
    if isinstance(field, serializers.ListField):
        items = value if isinstance(value, list) else []
        return next(
            (
                f"Item {n}: {why}"
                for n, item in enumerate(items)
                if (why := json_type_refused(field.child, item))
            ),
            None,
        )
    for kind, wanted, words in _JSON_TYPES:
        if isinstance(field, kind):
            # True is an int to Python, never a number to a client.
            if not isinstance(value, wanted) or (isinstance(value, bool) and wanted is not bool):
                return f"Must be {words}, not {json.dumps(value)[:40]}."
            return None
    return None


class RefusesUnknownFields(serializers.Serializer[Any]):
    """A request body read field by field, in which a key that is no field to set is refused
    (400 `invalid`, `details.fields` naming it), never ignored: `{"rule": {...}}` for `rules`,
    or `"organizers"` on a league, would otherwise be answered 200 with nothing of it done.
    Read-only fields are named as such. A form's CSRF token is no field, and allowed. In a JSON
    body a value of the wrong JSON type is refused too (`json_type_refused`), never converted."""

    ALLOWED_EXTRA = frozenset({"csrfmiddlewaretoken"})

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            refused = {}
            as_json = not isinstance(data, QueryDict)
            for key in data:
                field = self.fields.get(key)
                if field is None and key not in self.ALLOWED_EXTRA:
                    known = ", ".join(n for n, f in self.fields.items() if not f.read_only)
                    refused[key] = [
                        f"No such field; the fields here are {known}."
                        if known
                        else "No such field; this request takes no fields (send {} or no body)."
                    ]
                elif field is not None and field.read_only:
                    refused[key] = ["This field is read only; it is not set here."]
                elif field is not None and as_json and (why := json_type_refused(field, data[key])):
                    refused[key] = [why]
            if refused:
                raise serializers.ValidationError(refused)
        return super().to_internal_value(data)


class NoFields(RefusesUnknownFields):
    """The body of an action that takes none (start a stage, reopen an event, take a void
    back, refuse a registration, rotate a webhook's secret...): nothing, or `{}`. A key sent
    is refused (400 `invalid`, `details.fields`), never ignored: `{"seeding": "random"}` to a
    stage's start/ would otherwise draw it as it was, answered 200."""


# --- Errors (documentation of the one error shape) ---------------------------------------------


class ErrorSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="Stable snake_case name of the error.")
    message = serializers.CharField(help_text="A sentence for people.")
    details = serializers.DictField(help_text="Facts about the error, e.g. expected values.")
    rule = serializers.CharField(
        required=False, allow_null=True, help_text="RULES.md section, for a broken game rule."
    )


# --- Organization ---------------------------------------------------------------------------


class PlayerSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "display_name", "handle", "created_at"]
        read_only_fields = ["created_at"]


class PlayerWriteSerializer(RefusesUnknownFields, PlayerSerializer):
    """A new player, on the roster of `league` (which the caller organizes; only staff may
    leave it out), or a change to one."""

    league = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=League.objects.all(),
        write_only=True,
        required=False,
        allow_null=True,
        help_text="The league whose roster the new player joins (its slug).",
    )
    # Without the model's uniqueness validator: whether a handle is free, in any case of its
    # letters, is the service's (`ensure_handle_free`, 400 `handle_taken`), so `ada` beside
    # `ada` is refused as `ADA` is, with the same code.
    handle = serializers.SlugField(max_length=40)

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "league"]


class RosterAddSerializer(RefusesUnknownFields):
    player = serializers.IntegerField(
        min_value=1, max_value=ID_MAX, help_text="An existing player to put on the roster."
    )


class LeagueSerializer(RefusesUnknownFields, serializers.ModelSerializer[League]):
    organizers: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        many=True, read_only=True, slug_field="username"
    )
    slug = serializers.SlugField(max_length=60, required=False)

    class Meta:
        model = League
        fields = [
            "id",
            "name",
            "slug",
            "game",
            "rules",
            "tiebreak",
            "points",
            "organizers",
            "created_at",
        ]
        read_only_fields = ["created_at"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if self.instance is None and not attrs.get("slug"):
            attrs["slug"] = slugify(attrs.get("name", ""))[:60]
            if not attrs["slug"]:
                raise serializers.ValidationError(
                    {"slug": "Give the league a slug: its name has no letters to make one from."}
                )
        # Whether the slug is free (and not the organizer pages'): `check_slug`, in the service.
        return attrs


class EventSerializer(RefusesUnknownFields, serializers.ModelSerializer[Event]):
    league = serializers.SlugRelatedField(slug_field="slug", queryset=League.objects.all())

    class Meta:
        model = Event
        fields = ["id", "league", "name", "date", "venue", "status", "rules", "created_at"]
        read_only_fields = ["created_at"]
        extra_kwargs = {
            "status": {
                "help_text": "upcoming, running (a match has started), finished (its last "
                "stage finished, or closed) or cancelled. It follows play; organizers change "
                "it with close/ and reopen/ only."
            }
        }

    def validate_league(self, league: League) -> League:
        if self.instance is not None and league != self.instance.league:
            raise serializers.ValidationError("An event cannot move to another league.")
        return league

    def validate_status(self, status: str) -> str:
        current = self.instance.status if self.instance is not None else EventStatus.UPCOMING
        if status != current:
            raise serializers.ValidationError(
                "An event's status follows play: close or reopen it with POST "
                "events/{id}/close/ or events/{id}/reopen/."
            )
        return status


class EventCloseSerializer(RefusesUnknownFields):
    status = serializers.ChoiceField(
        choices=[EventStatus.FINISHED, EventStatus.CANCELLED],
        default=EventStatus.FINISHED,
        help_text="`finished` (its play is over; the default) or `cancelled` (it did not take "
        "place).",
    )


# --- Matches ----------------------------------------------------------------------------------


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
        fields = [*MatchSerializer.Meta.fields, "turns"]


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


# --- Stages -----------------------------------------------------------------------------------


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


class PlayerAnalysisSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    seat = serializers.IntegerField(help_text="0-based seat: the order of play.")
    decisions = serializers.IntegerField(help_text="Decisions judged in expected points.")
    optimal = serializers.IntegerField(help_text="Of them, the best choice (no loss).")
    total_loss = serializers.FloatField(help_text="Expected points given up in all.")
    mean_loss = serializers.FloatField(help_text="Expected points given up per decision.")
    accuracy = serializers.FloatField(help_text="0 to 100 (docs/analysis.md, Accuracy).")
    final_round_decisions = serializers.IntegerField(
        help_text="Yardkle: decisions of the final round, judged by the chance to win."
    )
    final_round_loss = serializers.FloatField(help_text="Their loss, in probability.")


class MatchAnalysisSerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField(source="match_id")
    status = serializers.SerializerMethodField()
    finished_at = serializers.DateTimeField(help_text="The finish this analysis is of.")
    players = PlayerAnalysisSerializer(many=True)
    turns = serializers.ListField(
        child=serializers.DictField(),
        help_text="Per turn in play order: its seat and decisions, each with the chosen and "
        "the best option, both values and the loss (docs/analysis.md).",
    )

    def get_status(self, analysis: Any) -> str:
        return "done"


class AnalysisPendingSerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["pending"])


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


# --- Standings and ratings ----------------------------------------------------------------------


class StandingRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    byes = serializers.IntegerField()
    forfeits = serializers.IntegerField()
    placements = serializers.ListField(child=serializers.IntegerField())
    points = serializers.FloatField()
    total_score = serializers.IntegerField()
    average_score = serializers.FloatField()
    best_score = serializers.IntegerField(allow_null=True)
    yardzees = serializers.IntegerField(allow_null=True)
    upper_bonuses = serializers.IntegerField(allow_null=True)
    yardkles = serializers.IntegerField(allow_null=True)
    metrics = serializers.DictField(child=serializers.FloatField(allow_null=True))
    group = serializers.IntegerField(
        allow_null=True,
        default=None,
        help_text="A stage played in groups: the player's group (`rank` is the place in it).",
    )


class StandingsSerializer(serializers.Serializer[Any]):
    scope = serializers.CharField()
    scope_id = serializers.IntegerField()
    tiebreak = serializers.ListField(
        child=serializers.CharField(), help_text="The metrics used, in tiebreak order."
    )
    computed_at = serializers.DateTimeField(allow_null=True)
    pending = serializers.BooleanField(help_text="Newer results are still being counted.")
    group = serializers.IntegerField(
        allow_null=True,
        default=None,
        help_text="The group these rows are of (`?group=`); null for the whole table.",
    )
    rows = StandingRowSerializer(many=True)


class StandingsGroupSerializer(serializers.Serializer[Any]):
    """`?group=` of a stage's standings: one group of a stage played in groups."""

    group = serializers.IntegerField(
        min_value=1,
        max_value=64,
        required=False,
        help_text="A stage played in groups: only this group's rows.",
    )

    def validate_group(self, group: int) -> int:
        stage: Stage = self.context["stage"]
        if not stage.played_in_groups:
            raise serializers.ValidationError(
                f"Stage {stage.pk} is not played in groups (or has not started)."
            )
        if group > stage.groups:
            raise serializers.ValidationError(f"Stage {stage.pk} has groups 1 to {stage.groups}.")
        return group


class LeaderboardRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
    matches = serializers.IntegerField()


class LeaderboardSerializer(serializers.Serializer[Any]):
    league = serializers.CharField()
    computed_at = serializers.DateTimeField(allow_null=True)
    pending = serializers.BooleanField()
    rows = LeaderboardRowSerializer(many=True)


class RatingHistorySerializer(serializers.Serializer[Any]):
    league = serializers.CharField()
    match = serializers.IntegerField()
    finished_at = serializers.DateTimeField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
