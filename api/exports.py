"""An event as one JSON file and back (league.services.exports; docs/api.md, "Event export and
import"): `GET events/{id}/export/` for anyone, as the event's pages are, and `POST
leagues/{slug}/import/` for the league's organizers."""

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api import serializers as s
from api.permissions import require_organizer
from league.models import Event, League
from league.services import exports

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


class EventImportView(APIView):
    """An export file played again into an empty league of the caller's."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        """Organizers of the league: the body is an event export (`GET events/{id}/export/`). It is
        played again through the rulebook into this league, which has no event or match yet (409
        `league_not_empty`) and plays the file's game (400 `wrong_game`): its players are added to
        the roster (a handle taken here gets `-2`, ...), its stages drawn and every turn submitted,
        and every table compared with the file's. All or nothing: a file that is not an export (400
        `not_an_event_export`), of another version (400 `unsupported_export_version`), not valid
        against the schema (400 `invalid_export`, `details.path`) or whose replay does not give its
        results (422 `import_mismatch`) changes nothing. The answer: `{"event", "players",
        "matches"}`, the new event and the new id of each player and match of the file, by its id
        there."""
        league = get_object_or_404(League, slug=slug)
        require_organizer(
            league, request.user, "Only an organizer of this league may import events into it."
        )
        user: Any = request.user
        imported = exports.event_import(league=league, data=request.data, by=user)
        return Response(
            {
                "event": s.EventSerializer(imported.event).data,
                "players": {str(old): new for old, new in imported.players.items()},
                "matches": {str(old): new for old, new in imported.matches.items()},
            },
            status=status.HTTP_201_CREATED,
        )
