"""Scheduling through the API (docs/api.md, "Scheduling"): a round's tables and start times
in one request, and one match moved. Organizers of the league only; the rules are
`league.services.schedule`'s."""

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import require_organizer
from api.serializers import ErrorSerializer, RefusesUnknownFields, validated
from games.models import TABLE_LABEL_MAX, Match
from league.errors import LeagueError
from league.models import Stage
from league.services import schedule as schedule_services

ERRORS = dict.fromkeys((400, 401, 403, 404, 409), ErrorSerializer)
# A pattern is a label with `{n}` in it: a few characters more than the longest label.
PATTERN_MAX = TABLE_LABEL_MAX + 8


def _when(value: str) -> datetime:
    """A field's date and time. Called from `validate_<field>`, so the error is the field's
    own sentence: DRF files it under the field (a dict here would nest it a second time)."""
    parsed = schedule_services.typed_start(value)
    if parsed is None:
        raise serializers.ValidationError(
            "Give a date and time as ISO 8601, e.g. 2026-07-04T18:30 or with an offset."
        )
    return parsed


@contextmanager
def _named_as_sent(names: Mapping[str, str]) -> Iterator[None]:
    """A refusal of the schedule service naming a field by its own name (`label`, `table`,
    `start`: the organizer pages' fields) renamed to the request's (`table_label`,
    `planned_at`), in `details.field` and at the head of its sentence, so a client finds the
    field it sent."""
    try:
        yield
    except LeagueError as error:
        field = error.details.get("field")
        if not isinstance(field, str) or field not in names:
            raise
        message = error.message
        if message.startswith((f"{field} ", f"{field}:")):
            message = names[field] + message[len(field) :]
        raise type(error)(
            error.code, message, details={**error.details, "field": names[field]}
        ) from error


class RoundScheduleSerializer(RefusesUnknownFields):
    first_start = serializers.CharField(
        max_length=40,
        help_text="ISO 8601. Without an offset it is wall-clock time in `time_zone`.",
    )
    interval_minutes = serializers.IntegerField(
        min_value=0,
        max_value=schedule_services.MAX_INTERVAL_MINUTES,
        default=0,
        help_text="Minutes between one start and the next (with `tables`: between waves).",
    )
    tables = serializers.IntegerField(
        min_value=1,
        max_value=schedule_services.MAX_TABLES,
        required=False,
        allow_null=True,
        help_text="How many tables play at once; the round's matches fill them in waves. "
        "Without it, one table a match, each starting `interval_minutes` after the last.",
    )
    table_label = serializers.CharField(
        max_length=PATTERN_MAX,
        default=schedule_services.DEFAULT_PATTERN,
        trim_whitespace=False,
        help_text="The tables' label, `{n}` the number: 'Table {n}', 'Yard {n}'.",
    )
    time_zone = serializers.CharField(
        max_length=64,
        required=False,
        allow_blank=True,
        help_text="IANA zone the pages show the times in (e.g. 'Europe/London'); "
        "default: the site's.",
    )

    follow_on_minutes = serializers.IntegerField(
        min_value=0,
        max_value=schedule_services.MAX_INTERVAL_MINUTES,
        required=False,
        allow_null=True,
        help_text="With it, every match the stage seats from now on (its next rounds, its "
        "bracket's later matches, and the first round of a stage it feeds) is scheduled as it "
        "is seated: at the table its players left, starting this many minutes later. null "
        "stops it; left out, the stage keeps what it had (by default, later rounds are "
        "scheduled by hand).",
    )

    def validate_first_start(self, value: str) -> datetime:
        return _when(value)


class MatchScheduleSerializer(RefusesUnknownFields):
    table_label = serializers.CharField(
        max_length=PATTERN_MAX,
        required=False,
        allow_null=True,
        allow_blank=True,
        trim_whitespace=False,
        help_text=f"The table or yard (at most {TABLE_LABEL_MAX} characters); null or '' "
        "takes it off.",
    )
    planned_at = serializers.CharField(
        max_length=40,
        required=False,
        allow_null=True,
        help_text="ISO 8601 (without an offset: the match's zone); null takes it off.",
    )
    time_zone = serializers.CharField(
        max_length=64, required=False, allow_null=True, allow_blank=True
    )

    def validate_planned_at(self, value: str | None) -> datetime | None:
        return None if value is None else _when(value)


class ScheduledMatchSerializer(serializers.ModelSerializer[Match]):
    """Where and when a match is played."""

    time_zone = serializers.CharField(source="display_zone", read_only=True)
    planned_local = serializers.SerializerMethodField(
        help_text="The planned start in `time_zone`, with its offset."
    )

    class Meta:
        model = Match
        fields = ["id", "status", "table_label", "planned_at", "planned_local", "time_zone"]

    def get_planned_local(self, match: Match) -> str | None:
        if match.planned_at is None:
            return None
        return timezone.localtime(match.planned_at, ZoneInfo(match.display_zone)).isoformat()


class RoundScheduledSerializer(serializers.Serializer[Any]):
    stage = serializers.IntegerField()
    round = serializers.IntegerField()
    matches = ScheduledMatchSerializer(many=True)
    skipped = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Matches of the round left as they were: started, finished or void.",
    )


class RoundScheduleView(APIView):
    """`POST stages/{id}/rounds/{n}/schedule/`: number a round's tables and stagger its starts."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=RoundScheduleSerializer, responses={200: RoundScheduledSerializer, **ERRORS}
    )
    def post(self, request: Request, stage_id: int, number: str) -> Response:
        """Give every match of round `n` not yet started a table ('Table 1', 'Table 2', ... from
        `label`) and a start, in the order of the round sheet, in one transaction. 404
        `no_such_round` for a round without tables; 409 `round_played` when every match of it has
        started; 400 `start_in_past` (over an hour ago), `start_too_far`, `invalid_label`,
        `label_too_long`, `invalid_time_zone`."""
        stage = get_object_or_404(Stage.objects.select_related("event__league"), pk=stage_id)
        require_organizer(
            stage.event.league,
            request.user,
            "Only an organizer of this league may schedule its rounds.",
        )
        data = validated(RoundScheduleSerializer, request.data)
        round_number = int(number)  # the path's digits (api/urls.py), as text
        with _named_as_sent({"label": "table_label"}):
            done = schedule_services.round_schedule(
                stage_id=stage.pk,
                round_number=round_number,
                first_start=data["first_start"],
                interval_minutes=data["interval_minutes"],
                tables=data.get("tables"),
                label=data["table_label"],
                time_zone=data.get("time_zone"),
                follow_on_minutes=data.get("follow_on_minutes", schedule_services.UNCHANGED),
            )
        body = {
            "stage": stage.pk,
            "round": round_number,
            "matches": done.matches,
            "skipped": done.skipped,
        }
        return Response(RoundScheduledSerializer(body).data)


class MatchScheduleView(APIView):
    """`POST matches/{id}/schedule/`: move one match to another table or time."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=MatchScheduleSerializer, responses={200: ScheduledMatchSerializer, **ERRORS}
    )
    def post(self, request: Request, match_id: int) -> Response:
        """Change a match's table, start or zone (what is left out stays). 409 `match_closed` for a
        finished or void match, `match_already_started` for a new start of a match being played (its
        table may still change)."""
        match = get_object_or_404(Match.objects.select_related("event__league"), pk=match_id)
        require_organizer(
            match, request.user, "Only an organizer of this match's league may schedule it."
        )
        data = validated(MatchScheduleSerializer, request.data)
        changes = {
            name: data[field]
            for field, name in (
                ("table_label", "table_label"),
                ("planned_at", "planned_at"),
                ("time_zone", "time_zone"),
            )
            if field in data
        }
        with _named_as_sent({"table": "table_label", "start": "planned_at"}):
            moved = schedule_services.match_schedule(match_id=match.pk, **changes)
        return Response(ScheduledMatchSerializer(moved).data)
