"""Leagues: made and changed by their organizers, their rosters, season standings and ratings."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from api import serializers as s
from api.pagination import BoundedLimitOffsetPagination
from api.permissions import IsLeagueOrganizerOrReadOnly
from api.views._common import (
    CSV_PARAMETER,
    ERRORS,
    STANDINGS_SCHEMA,
    TABLE_RENDERERS,
    projection_answer,
    reads,
    standings_response,
)
from league import selectors
from league import services as league_services
from league.models import League, Player, StandingsScope
from league.services import league_projections


class LeagueViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet[League],
):
    """Leagues, by slug: anyone reads; any signed-in user may start one and becomes its first
    organizer; its organizers change it."""

    queryset = League.objects.prefetch_related("organizers")
    serializer_class = s.LeagueSerializer
    permission_classes = [IsLeagueOrganizerOrReadOnly]
    lookup_field = "slug"
    filterset_fields = ["game"]

    @STANDINGS_SCHEMA
    @action(detail=True, methods=["get"], renderer_classes=TABLE_RENDERERS)
    def standings(self, request: Request, slug: str | None = None) -> Response:
        """The season table: every event of the league."""
        return standings_response(StandingsScope.LEAGUE, self.get_object().pk)

    @extend_schema(
        methods=["GET"], request=None, responses={200: s.PlayerSerializer(many=True), **ERRORS}
    )
    @extend_schema(
        methods=["POST"],
        request=s.RosterAddSerializer,
        responses={200: s.PlayerSerializer, **ERRORS},
        description="Put an existing player on this league's roster, so its matches and "
        "stages may seat them. The caller organizes this league and may already change the "
        "player (an organizer of a league they play in, or staff): players' records stay "
        "with the leagues they play in. A new player is made with POST players/.",
    )
    @action(detail=True, methods=["get", "post"], filter_backends=[])
    def players(self, request: Request, slug: str | None = None) -> Response:
        """The league's roster: the players its matches and stages may seat."""
        league = self.get_object()
        if reads(request):
            paginator = BoundedLimitOffsetPagination()
            page = paginator.paginate_queryset(league.players.all(), request, view=self)
            return paginator.get_paginated_response(s.PlayerSerializer(page, many=True).data)
        data = s.validated(s.RosterAddSerializer, request.data)
        player = Player.objects.filter(pk=data["player"]).first()
        if player is None:
            raise NotFound("No such player.")
        if not player.is_changeable_by(request.user):
            raise PermissionDenied(
                "Only an organizer of a league this player plays in may add them to another."
            )
        league_services.roster_add(league=league, player=player)
        return Response(s.PlayerSerializer(player).data)

    @extend_schema(
        responses={
            200: s.LeagueProjectionSerializer,
            202: s.LeagueProjectionPendingSerializer,
            **ERRORS,
        }
    )
    @action(detail=True, methods=["get"])
    def projection(self, request: Request, slug: str | None = None) -> Response:
        """Each player's chance to finish the season in each place of the league table and to
        win the league, from simulating the matches of the league's events left to play with
        the players' ratings (and, while played, their live chances to win): docs/analysis.md,
        "Chance to win the league". Worked out by a job after each result: `status` is
        `behind` while a later result is; 202 `{"status": "pending"}` before the first
        figures (asking enqueues the job)."""
        league = self.get_object()
        stored = league_projections.current_league_projection(league)
        if stored is None:
            league_projections.league_projection_mark(league.pk)
            return Response(
                {"league": league.slug, "status": "pending"}, status=status.HTTP_202_ACCEPTED
            )
        version = league_projections.league_version(league.pk)
        head = {"league": league.slug, "left": stored.left}
        return Response(projection_answer(stored, version, head, fields=("places", "win")))

    @extend_schema(parameters=[CSV_PARAMETER], responses={200: s.LeaderboardSerializer})
    @action(detail=True, methods=["get"], renderer_classes=TABLE_RENDERERS)
    def ratings(self, request: Request, slug: str | None = None) -> Response:
        """The OpenSkill leaderboard by ordinal (mu - 3 sigma)."""
        return Response(s.LeaderboardSerializer(selectors.leaderboard(self.get_object())).data)

    def perform_create(self, serializer: serializers.BaseSerializer[League]) -> None:
        serializer.instance = league_services.league_create(
            created_by=self.request.user,  # type: ignore[arg-type]
            **serializer.validated_data,
        )

    def perform_update(self, serializer: serializers.BaseSerializer[League]) -> None:
        league = serializer.instance
        if isinstance(league, League):
            serializer.instance = league_services.league_update(
                league=league, **serializer.validated_data
            )
