"""A league's webhook endpoints over the API (docs/api.md, "Webhooks"): register, list, change,
delete, re-enable, rotate the secret, send a test event, read the delivery log. Only the
league's organizers (and staff) see or change them; a secret is in the answer only when it is
made (creation, rotation)."""

from collections.abc import Callable
from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.routers import SimpleRouter

from api.pagination import BoundedLimitOffsetPagination
from api.permissions import require_organizer
from api.serializers import (
    ID_IN_URL,
    ErrorSerializer,
    NoFields,
    RefusesUnknownFields,
    validated,
)
from league.models import League
from webhooks import selectors, services
from webhooks.models import SUBSCRIBABLE, Attempt, Delivery, Endpoint

ERRORS = dict.fromkeys((400, 401, 403, 404, 409), ErrorSerializer)


class EndpointSerializer(RefusesUnknownFields, serializers.ModelSerializer[Endpoint]):
    # Checked by the service (webhooks.sender.check_url), for one set of codes.
    url = serializers.CharField(
        max_length=2000, help_text="https:// only, to a public address; no user or password."
    )
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=SUBSCRIBABLE),
        help_text="The events it hears of: " + ", ".join(SUBSCRIBABLE) + ".",
    )

    class Meta:
        model = Endpoint
        fields = [
            "id",
            "url",
            "description",
            "events",
            "enabled",
            "failures",
            "disabled_at",
            "disabled_reason",
            "created_at",
            "secret_rotated_at",
        ]
        read_only_fields = [
            "id",
            "failures",
            "disabled_at",
            "disabled_reason",
            "created_at",
            "secret_rotated_at",
        ]
        extra_kwargs = {
            "enabled": {
                "required": False,
                "help_text": "false turns it off; true turns a disabled one on again.",
            },
        }


class EndpointWithSecretSerializer(EndpointSerializer):
    secret = serializers.CharField(
        read_only=True,
        help_text="Signs every delivery. Shown only now: keep it; rotate it if it is lost.",
    )

    class Meta(EndpointSerializer.Meta):
        fields = [*EndpointSerializer.Meta.fields, "secret"]


class AttemptSerializer(serializers.ModelSerializer[Attempt]):
    class Meta:
        model = Attempt
        fields = ["number", "at", "status_code", "error", "duration_ms", "response_excerpt"]


class DeliverySerializer(serializers.ModelSerializer[Delivery]):
    id = serializers.UUIDField(source="uuid", read_only=True)
    attempt_log = AttemptSerializer(many=True, read_only=True)

    class Meta:
        model = Delivery
        fields = [
            "id",
            "event",
            "status",
            "attempts",
            "next_attempt_at",
            "last_status_code",
            "last_error",
            "created_at",
            "finished_at",
            "body",
            "attempt_log",
        ]


class IsLeagueOrganizer(permissions.IsAuthenticated):
    message = "Only an organizer of this league may see or change its webhooks."


class WebhookViewSet(viewsets.ModelViewSet[Endpoint]):
    """leagues/{slug}/webhooks/: the league's endpoints."""

    serializer_class = EndpointSerializer
    permission_classes = [IsLeagueOrganizer]
    pagination_class = None
    queryset = Endpoint.objects.none()  # the schema's model; get_queryset is the league's
    lookup_value_regex = ID_IN_URL

    def league(self) -> League:
        league = get_object_or_404(League, slug=self.kwargs["slug"])
        require_organizer(league, self.request.user, IsLeagueOrganizer.message)
        return league

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return Endpoint.objects.none()
        return selectors.league_endpoints(self.league().pk)

    @extend_schema(
        request=EndpointSerializer, responses={201: EndpointWithSecretSerializer, **ERRORS}
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Register an endpoint. The answer holds its `secret`, this once."""
        league = self.league()  # 403 before the body is read
        data = validated(EndpointSerializer, request.data)
        endpoint = services.endpoint_create(
            league=league,
            url=data["url"],
            events=data["events"],
            description=data.get("description", ""),
            created_by=request.user,  # type: ignore[arg-type]
            enabled=data.get("enabled", True),
        )
        return Response(EndpointWithSecretSerializer(endpoint).data, status=201)

    @extend_schema(responses={200: EndpointSerializer, **ERRORS})
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Change its address, events, description, or turn it off (`enabled: false`) or on."""
        endpoint = self.get_object()
        changes = validated(EndpointSerializer, request.data, instance=endpoint, partial=True)
        changed = services.endpoint_update(endpoint_id=endpoint.pk, changes=changes)
        return Response(EndpointSerializer(changed).data)

    def perform_destroy(self, instance: Endpoint) -> None:
        services.endpoint_delete(endpoint_id=instance.pk)

    @extend_schema(request=NoFields, responses={200: EndpointSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def enable(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Turn a disabled endpoint on again; its failures count from zero."""
        return self._step(request, services.endpoint_enable, EndpointSerializer)

    @extend_schema(request=NoFields, responses={200: EndpointWithSecretSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="rotate-secret")
    def rotate_secret(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """A new secret, in this answer only; the old one signs nothing from now on."""
        return self._step(request, services.endpoint_secret_rotate, EndpointWithSecretSerializer)

    def _step(
        self,
        request: Request,
        service: Callable[..., Endpoint],
        answer: type[serializers.Serializer[Any]],
    ) -> Response:
        """A step that takes no body: the endpoint as `service` leaves it, as `answer` shows it."""
        endpoint = self.get_object()
        validated(NoFields, request.data)
        return Response(answer(service(endpoint_id=endpoint.pk)).data)

    @extend_schema(request=NoFields, responses={202: DeliverySerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def test(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Send it a test event (`ping`) now; the delivery is in its log."""
        endpoint = self.get_object()
        validated(NoFields, request.data)
        delivery = services.endpoint_ping(endpoint_id=endpoint.pk)
        delivery.refresh_from_db()
        return Response(DeliverySerializer(delivery).data, status=202)

    @extend_schema(
        request=None,
        responses={
            200: inline_serializer(
                "PaginatedDeliveryList",
                {
                    "count": serializers.IntegerField(),
                    "next": serializers.URLField(allow_null=True),
                    "previous": serializers.URLField(allow_null=True),
                    "results": DeliverySerializer(many=True),
                },
            ),
            **ERRORS,
        },
    )
    @action(detail=True, methods=["get"])
    def deliveries(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Its delivery log, newest first: each delivery with every attempt's status code or
        error and the start of the answer."""
        paginator = BoundedLimitOffsetPagination()
        page = paginator.paginate_queryset(
            selectors.endpoint_deliveries(self.get_object().pk), request, view=self
        )
        return paginator.get_paginated_response(DeliverySerializer(page, many=True).data)


router = SimpleRouter(trailing_slash=True)
router.register(r"leagues/(?P<slug>[-\w]+)/webhooks", WebhookViewSet, basename="webhook")
urlpatterns = router.urls
