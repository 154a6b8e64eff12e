"""An event's entrants in one step (docs/organizing.md, "Entrants from the roster"): players of
the league's roster entered at once, each as an organizer's add approved on the spot (a
confirmed registration linked to the player, or a place on the waiting list beyond the cap);
and the players shown checked in at once. Each goes through the registration services one
player at a time, so every rule of a single add, approval and check-in holds, and the whole
step is one transaction: a refusal changes nothing."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from league.errors import LeagueError
from league.models import Event, Registration, RegistrationStatus
from league.models.registration import ACTIVE
from league.services import registration
from league.stage_options import MAX_ENTRANTS


@dataclass(frozen=True, slots=True)
class Entered:
    """What `roster_enter` did with each player asked for: confirmed now, put on the waiting
    list (the event was full), or left as they were (already registered, or a registration of
    a name that looks the same is there)."""

    confirmed: list[int] = field(default_factory=list)
    waiting: list[int] = field(default_factory=list)
    already: list[int] = field(default_factory=list)


@transaction.atomic
def roster_enter(*, event_id: int, player_ids: Sequence[int], by: Any = None) -> Entered:
    """Enter players of the event's league roster, in the order given: each confirmed, as if
    an organizer added and approved them (`registration_create`, `registration_approve`),
    or on the waiting list once the event is full. Players already registered are skipped.
    Refused: a player not on the roster (`unknown_player`, naming them), more than
    MAX_ENTRANTS at once, a closed event; nothing changes then."""
    wanted = list(dict.fromkeys(player_ids))
    if len(wanted) > MAX_ENTRANTS:
        raise LeagueError(
            "too_many_players",
            f"At most {MAX_ENTRANTS} players are entered at once.",
            details={"field": "players", "max": MAX_ENTRANTS},
        )
    event = Event.objects.select_related("league").get(pk=event_id)
    players = dict(event.league.players.filter(pk__in=wanted).values_list("pk", "display_name"))
    if unknown := [player for player in wanted if player not in players]:
        raise LeagueError(
            "unknown_player",
            f"Player {unknown[0]} is not on the roster of {event.league.name}.",
            details={"field": "players", "players": unknown[:20]},
        )
    registered = set(
        Registration.objects.filter(
            event_id=event_id, status__in=ACTIVE, player_id__in=wanted
        ).values_list("player_id", flat=True)
    )
    done = Entered()
    for player in wanted:
        if player in registered:
            done.already.append(player)
            continue
        try:
            added = registration.registration_create(
                event_id=event_id, display_name=players[player], by_organizer=True
            )
        except registration.RegistrationConflict as conflict:
            if conflict.code != "already_registered":
                raise
            done.already.append(player)  # a registration of a name like theirs is there
            continue
        if added.registration.status == RegistrationStatus.WAITING:
            done.waiting.append(player)
            continue
        registration.registration_approve(
            registration_id=added.registration.pk, player_id=player, by=by
        )
        done.confirmed.append(player)
    return done


@transaction.atomic
def check_in_all(*, event_id: int, registration_ids: Sequence[int]) -> list[int]:
    """Check in the confirmed registrations of the event among `registration_ids` not checked
    in yet (`registration_check_in`, as an organizer); the ones checked in now. Ids of other
    events, or not confirmed, are passed over."""
    ids = list(
        Registration.objects.filter(
            event_id=event_id,
            pk__in=list(registration_ids)[:MAX_ENTRANTS],
            status=RegistrationStatus.CONFIRMED,
            checked_in_at__isnull=True,
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    for registration_id in ids:
        registration.registration_check_in(registration_id=registration_id)
    return ids
