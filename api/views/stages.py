"""Stages of events: read, changed or deleted before they start, started, forfeits, withdrawals
and their standings."""

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from api import serializers as s
from api.permissions import IsLeagueOrganizerOrReadOnly, require_organizer
from api.views._common import (
    CSV_PARAMETER,
    ERRORS,
    TABLE_RENDERERS,
    projection_answer,
    standings_response,
)
from league.models import Stage, StageMatch, StageStatus, StandingsScope
from league.services import projections
from league.services import stages as stage_services


class StageViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Stage]
):
    """Stages of events: anyone reads; the league's organizers start them, forfeit no-shows,
    and change or delete one not yet started. Create them with `POST events/{id}/stages/`."""

    lookup_value_regex = s.ID_IN_URL

    queryset = Stage.objects.select_related("event__league")
    permission_classes = [IsLeagueOrganizerOrReadOnly]
    # Not "format": DRF reads ?format= as the renderer (?format=csv).
    filterset_fields = ["event", "status"]

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        return s.StageDetailSerializer if self.action == "retrieve" else s.StageSerializer

    def get_queryset(self) -> QuerySet[Stage]:
        if self.action == "retrieve":
            return Stage.objects.select_related("event__league").prefetch_related("entries__player")
        return Stage.objects.select_related("event")

    def _organized(self) -> Stage:
        stage = self.get_object()
        require_organizer(
            stage.event.league,
            self.request.user,
            "Only an organizer of this league may run its stages.",
        )
        return stage

    @extend_schema(
        request=s.StageUpdateSerializer, responses={200: s.StageDetailSerializer, **ERRORS}
    )
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Change a stage that has not started (organizers): any field of a new stage, checked as at
        creation; a draft fed by this stage must still fit. 409 `stage_started` once drawn."""
        stage = self._organized()
        parsed = s.StageUpdateSerializer(data=request.data, partial=True)
        parsed.is_valid(raise_exception=True)
        stage_services.stage_update(stage_id=stage.pk, changes=parsed.stage_options())
        return Response(s.StageDetailSerializer(self._detail(stage.pk)).data)

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Delete a stage that has not started (organizers); the stages after it move up. 409
        `stage_started` once drawn, `stage_is_source` while another stage takes its players from
        it."""
        stage_services.stage_delete(stage_id=self._organized().pk)
        return Response(status=status.HTTP_204_NO_CONTENT)

    def _detail(self, stage_id: int) -> Stage:
        return (
            Stage.objects.select_related("event__league")
            .prefetch_related("entries__player")
            .get(pk=stage_id)
        )

    @extend_schema(
        parameters=[CSV_PARAMETER, s.StandingsGroupSerializer],
        responses={200: s.StandingsSerializer, **ERRORS},
    )
    @action(detail=True, methods=["get"], renderer_classes=TABLE_RENDERERS, url_path="standings")
    def stage_standings(self, request: Request, pk: str | None = None) -> Response:
        """The stage's stored standings table. A stage played in groups ranks each group on its own:
        every row has its `group` and `rank` is the place in it; `?group=N` gives one group's
        rows."""
        stage = self.get_object()
        data = s.validated(
            s.StandingsGroupSerializer, request.query_params, context={"stage": stage}
        )
        return standings_response(StandingsScope.STAGE, stage.pk, group=data.get("group"))

    @extend_schema(
        responses={200: s.StageProjectionSerializer, 202: s.ProjectionPendingSerializer, **ERRORS}
    )
    @action(detail=True, methods=["get"])
    def projection(self, request: Request, pk: str | None = None) -> Response:
        """Each player's chance to finish in each place, to qualify for the next stage and to win
        this one, from simulating the rest of the stage with the players' ratings, and for the
        matches being played (`live`) their live chances to win (docs/analysis.md, "Chance to
        qualify"). Worked out by a job after each result and each new live chance:
        `status` is `behind` while a later one is; 202 `{"status": "pending"}` before the first
        figures; 404 for a stage not started."""
        stage = self.get_object()
        if stage.status == StageStatus.DRAFT:
            raise NotFound(f"Stage {stage.pk} has not started: it has no projection yet.")
        stored = projections.current_projection(stage)
        if stored is None:
            projections.projection_mark(stage.pk)
            return Response(
                {"stage": stage.pk, "status": "pending"}, status=status.HTTP_202_ACCEPTED
            )
        version = projections.stage_version(stage.pk)
        return Response(projection_answer(stored, version, {"stage": stage.pk}))

    @extend_schema(request=s.NoFields, responses={200: s.StageDetailSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str | None = None) -> Response:
        """Draw the stage and seat its first matches (round robin: all of them)."""
        organized = self._organized()
        s.validated(s.NoFields, request.data)
        stage = stage_services.stage_start(stage_id=organized.pk)
        return Response(s.StageDetailSerializer(self.get_queryset().get(pk=stage.pk)).data)

    @extend_schema(request=s.ForfeitSerializer, responses={200: s.StageDetailSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def forfeit(self, request: Request, pk: str | None = None) -> Response:
        """A player does not show for a stage match not yet started: the others go on."""
        stage = self._organized()
        data = s.validated(s.ForfeitSerializer, request.data)
        stage_match = StageMatch.objects.filter(stage=stage, pk=data["stage_match"]).first()
        if stage_match is None:
            raise NotFound("This stage has no such stage match.")
        stage_services.stage_forfeit(
            stage_match_id=stage_match.pk,
            player_id=data["player"],
            by=request.user,
        )
        return Response(s.StageDetailSerializer(self.get_queryset().get(pk=stage.pk)).data)

    @extend_schema(request=s.WithdrawSerializer, responses={200: s.WithdrawalSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: str | None = None) -> Response:
        """A player leaves the stage: every match of theirs not started becomes a forfeit (a
        walkover, or the others play on), and they are seated no more. Their played results
        stand. From a stage not started, they are taken off its entries."""
        stage = self._organized()
        data = s.validated(s.WithdrawSerializer, request.data)
        withdrawal = stage_services.stage_withdraw(
            stage_id=stage.pk, player_id=data["player"], by=request.user
        )
        return Response(s.WithdrawalSerializer(withdrawal).data)
