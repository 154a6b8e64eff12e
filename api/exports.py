"""An event as one JSON file and back (league.services.exports; docs/api.md, "Event export and
import"): `GET events/{id}/export/` for anyone, as the event's pages are, and `POST
leagues/{slug}/import/` for the league's organizers."""

import uuid
from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api import serializers as s
from api.permissions import require_organizer
from league.models import Event, EventImportJob, League
from league.services import exports, imports

ERRORS = dict.fromkeys((400, 401, 403, 404, 409, 413, 422), s.ErrorSerializer)


def export_file_name(event: Event) -> str:
    """`backyard-event-12.json`: the league's slug and the event's id."""
    return f"{event.league.slug}-event-{event.pk}.json"


class EventExportView(APIView):
    """The event as an export file (`league/schemas/event-export.schema.json`)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, 404: s.ErrorSerializer})
    def get(self, request: Request, pk: int) -> Response:
        """The whole event as one JSON file, downloaded as `<league>-event-<id>.json`: the league's
        game and settings, its players (names and handles), its stages with their entries, every
        match with every turn, and its standings computed from its results. It follows the JSON
        Schema `league/schemas/event-export.schema.json` (docs/api.md, "Event export and
        import")."""
        event = get_object_or_404(Event.objects.select_related("league"), pk=pk)
        response = Response(exports.event_export(event=event))
        response["Content-Disposition"] = f'attachment; filename="{export_file_name(event)}"'
        return response


class ImportJobSerializer(serializers.ModelSerializer[EventImportJob]):
    league: serializers.SlugRelatedField[League] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    url = serializers.SerializerMethodField()
    event_url = serializers.SerializerMethodField(
        help_text="The imported event's API URL, once done."
    )

    class Meta:
        model = EventImportJob
        fields = [
            "id",
            "url",
            "league",
            "status",
            "created_at",
            "started_at",
            "finished_at",
            "result",
            "error",
            "event_url",
        ]
        read_only_fields = fields

    def get_url(self, job: EventImportJob) -> str:
        url = reverse("api:import-job", args=[job.pk])
        return str(self.context["request"].build_absolute_uri(url))

    def get_event_url(self, job: EventImportJob) -> str | None:
        if not job.result:
            return None
        url = reverse("api:event-detail", args=[job.result["event"]])
        return str(self.context["request"].build_absolute_uri(url))


class EventImportView(APIView):
    """An export file played again into an empty league of the caller's, as a job."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=OpenApiTypes.OBJECT, responses={202: ImportJobSerializer, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        """Organizers of the league: the body is an event export (`GET events/{id}/export/`). It is
        checked now and played again as a job through the rulebook into this league, which has no
        event or match yet (409 `league_not_empty`) and plays the file's game (400 `wrong_game`):
        its players are added to the roster (a handle taken here gets `-2`, ...), its stages drawn
        and every turn submitted, and every table compared with the file's. Refused now, changing
        nothing: a file that is not an export (400 `not_an_event_export`), of another version (400
        `unsupported_export_version`), not valid against the schema or with a match of more turns
        than its game takes, turns not numbered 1, 2, 3, ... or players it never seats (400
        `invalid_export`, `details.path`). Accepted: 202 with the job (`Location`: its URL), which
        the caller reads until its `status` is `done` (`result`: the new event, and the new id of
        each player and match of the file by its id there) or `failed` (`error`: e.g. 422
        `import_mismatch` when the replay does not give the file's results; nothing was
        imported)."""
        league = get_object_or_404(League, slug=slug)
        require_organizer(
            league, request.user, "Only an organizer of this league may import events into it."
        )
        user: Any = request.user
        job = imports.import_request(league=league, data=request.data, by=user)
        job.refresh_from_db()  # where it stands now (with in-process jobs: already run)
        answer = ImportJobSerializer(job, context={"request": request}).data
        return Response(
            answer, status=status.HTTP_202_ACCEPTED, headers={"Location": answer["url"]}
        )


class ImportJobView(APIView):
    """An event import sent to `leagues/{slug}/import/`, as it stands."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses={200: ImportJobSerializer, 401: s.ErrorSerializer, 404: s.ErrorSerializer}
    )
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        """Who sent the import, the league's organizers and staff: its `status` (`pending`,
        `running`, `done`, `failed`), then its `result` or its `error`. Anyone else: 404."""
        job = imports.import_job_for(pk, request.user)
        if job is None:
            raise NotFound("No such import.")
        return Response(ImportJobSerializer(job, context={"request": request}).data)
