"""Players: read by anyone, added and changed by the organizers of their leagues; a player's
rating history."""

from typing import Any

import django_filters  # type: ignore[import-untyped]
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from api import serializers as s
from api.permissions import IsOrganizerOrReadOnly
from api.views._common import CSV_PARAMETER, TABLE_RENDERERS
from league import selectors
from league import services as league_services
from league.models import Player
from league.services import LeagueError


class PlayerFilter(django_filters.FilterSet):
    """`?handle=`: the player with this handle, in any case of its letters (a handle is one
    player's in any case: `ADA` finds `ada`)."""

    handle = django_filters.CharFilter(lookup_expr="iexact")

    class Meta:
        model = Player
        fields = ["handle"]


class PlayerViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet[Player],
):
    """Players: anyone reads; an organizer adds players to a league they organize, and changes
    the players on the rosters of the leagues they organize (staff: any player)."""

    lookup_value_regex = s.ID_IN_URL

    queryset = Player.objects.all()
    permission_classes = [IsOrganizerOrReadOnly]
    filterset_class = PlayerFilter

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        if self.action in ("create", "update", "partial_update"):
            return s.PlayerWriteSerializer
        return s.PlayerSerializer

    def perform_create(self, serializer: serializers.BaseSerializer[Player]) -> None:
        data = dict(serializer.validated_data)
        league = data.pop("league", None)
        user = self.request.user
        if league is None and not user.is_staff:
            raise LeagueError(
                "league_required",
                "Name the league whose roster the new player joins (`league`, its slug).",
                details={"field": "league"},
            )
        if league is not None and not league.is_organizer(user):
            raise PermissionDenied("Only an organizer of this league may add players to it.")
        serializer.instance = league_services.player_create(league=league, **data)

    def perform_update(self, serializer: serializers.BaseSerializer[Player]) -> None:
        data = dict(serializer.validated_data)
        if data.pop("league", None) is not None:
            raise LeagueError(
                "invalid_option",
                "A player joins another league's roster through POST leagues/{slug}/players/.",
                details={"field": "league"},
            )
        player = serializer.instance
        if isinstance(player, Player):
            serializer.instance = league_services.player_update(player=player, **data)

    @extend_schema(
        parameters=[CSV_PARAMETER], responses={200: s.RatingHistorySerializer(many=True)}
    )
    @action(
        detail=True,
        methods=["get"],
        pagination_class=None,
        filter_backends=[],
        renderer_classes=TABLE_RENDERERS,
    )
    def ratings(self, request: Request, pk: str | None = None) -> Response:
        """The player's rating after each rated match, oldest first, in every league."""
        history = selectors.rating_history(self.get_object())
        return Response(s.RatingHistorySerializer(history, many=True).data)
