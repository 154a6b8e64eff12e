"""Events of a league: made and changed, their stages added, players withdrawn, standings, and
the event closed and reopened."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from api import serializers as s
from api.permissions import IsLeagueOrganizerOrReadOnly, require_organizer
from api.views._common import ERRORS, STANDINGS_SCHEMA, TABLE_RENDERERS, reads, standings_response
from league import services as league_services
from league.models import Event, StandingsScope
from league.services import stages as stage_services


class EventViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet[Event],
):
    """Events of a league: anyone reads; the league's organizers create and change them."""

    lookup_value_regex = s.ID_IN_URL

    queryset = Event.objects.select_related("league")
    serializer_class = s.EventSerializer
    permission_classes = [IsLeagueOrganizerOrReadOnly]
    filterset_fields = ["league__slug", "status", "date"]

    def perform_create(self, serializer: serializers.BaseSerializer[Event]) -> None:
        data = dict(serializer.validated_data)
        league = data.pop("league")
        require_organizer(
            league, self.request.user, "Only an organizer of this league may add events to it."
        )
        serializer.instance = league_services.event_create(league=league, **data)

    @extend_schema(methods=["GET"], request=None, responses={200: s.StageSerializer(many=True)})
    @extend_schema(
        methods=["POST"],
        request=s.StageCreateSerializer,
        responses={201: s.StageDetailSerializer, **ERRORS},
        description="Add a stage (draft) to the event: its format, participants in seed order "
        "(or, from an earlier `source_stage`, its top `source_top`, or the top "
        "`source_per_group` of each of its groups plus the best `source_best_rest` of the "
        "rest) and options, all checked now as at the start. Organizers only.",
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None, filter_backends=[])
    def stages(self, request: Request, pk: str | None = None) -> Response:
        event = self.get_object()
        if reads(request):
            return Response(s.StageSerializer(event.stages.all(), many=True).data)
        require_organizer(
            event.league, request.user, "Only an organizer of this league may add stages."
        )
        parsed = s.StageCreateSerializer(data=request.data)
        parsed.is_valid(raise_exception=True)
        stage = stage_services.stage_create(event_id=event.pk, **parsed.stage_options())
        return Response(s.StageDetailSerializer(stage).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.WithdrawSerializer, responses={200: s.WithdrawalSerializer(many=True), **ERRORS}
    )
    @action(detail=True, methods=["post"], pagination_class=None, filter_backends=[])
    def withdraw(self, request: Request, pk: str | None = None) -> Response:
        """Organizers only: withdraw a player from every stage of the event still to finish (one
        answer per stage, as `stages/{id}/withdraw/`); their entries in finished stages are marked
        too, so later stages fed by them do not take the player. 400 `not_entered` for a player
        entered in none of its stages; 409 `already_withdrawn` once every entry of theirs is
        withdrawn."""
        event = self.get_object()
        require_organizer(
            event.league, request.user, "Only an organizer of this league may withdraw players."
        )
        data = s.validated(s.WithdrawSerializer, request.data)
        withdrawals = stage_services.event_withdraw(
            event_id=event.pk, player_id=data["player"], by=request.user
        )
        return Response(s.WithdrawalSerializer(withdrawals, many=True).data)

    @STANDINGS_SCHEMA
    @action(detail=True, methods=["get"], renderer_classes=TABLE_RENDERERS, url_path="standings")
    def event_standings(self, request: Request, pk: str | None = None) -> Response:
        return standings_response(StandingsScope.EVENT, self.get_object().pk)

    @extend_schema(request=s.EventCloseSerializer, responses={200: s.EventSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: str | None = None) -> Response:
        """Organizers only: close the event as `finished` (the default) or `cancelled`. It then
        takes no more matches, stages, turns, undos or voids (409 `event_closed`) until reopened.
        Refused while matches of it are being played (409 `matches_in_progress`, `details.matches`);
        matches not started stay unplayed. Closing it again as it is changes nothing; finished to
        cancelled (or back) goes through a reopen (409 `event_closed`)."""
        event = self.get_object()
        data = s.validated(s.EventCloseSerializer, request.data)
        event = league_services.event_close(event_id=event.pk, status=data["status"])
        return Response(s.EventSerializer(event).data)

    @extend_schema(request=s.NoFields, responses={200: s.EventSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def reopen(self, request: Request, pk: str | None = None) -> Response:
        """Organizers only: reopen a finished or cancelled event (to correct a result, or closed by
        mistake): `running` when a match of it has started, `upcoming` otherwise. An open event is
        left as it is."""
        event = self.get_object()
        s.validated(s.NoFields, request.data)
        event = league_services.event_reopen(event_id=event.pk)
        return Response(s.EventSerializer(event).data)

    def perform_update(self, serializer: serializers.BaseSerializer[Event]) -> None:
        event = serializer.instance
        if isinstance(event, Event):
            data = dict(serializer.validated_data)
            data.pop("league", None)
            serializer.instance = league_services.event_update(event=event, **data)
