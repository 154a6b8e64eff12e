"""Reads of the webhooks worth a name: a league's endpoints, an endpoint's delivery log."""

from django.db.models import Count, Prefetch, Q, QuerySet

from webhooks.models import OPEN_DELIVERY_STATUSES, Attempt, Delivery, DeliveryStatus, Endpoint


def league_endpoints(league_id: int) -> QuerySet[Endpoint]:
    """The league's endpoints, each with its count of failed deliveries (given up on) and of
    deliveries still being tried (a first attempt or a retry to come)."""
    return Endpoint.objects.filter(league_id=league_id).annotate(
        failed_deliveries=Count("deliveries", filter=Q(deliveries__status=DeliveryStatus.FAILED)),
        open_deliveries=Count(
            "deliveries", filter=Q(deliveries__status__in=OPEN_DELIVERY_STATUSES)
        ),
    )


def endpoint_deliveries(endpoint_id: int) -> QuerySet[Delivery]:
    """The endpoint's deliveries, newest first, each with its attempts in order."""
    return (
        Delivery.objects.filter(endpoint_id=endpoint_id)
        .order_by("-pk")
        .prefetch_related(Prefetch("attempt_log", queryset=Attempt.objects.order_by("number")))
    )
