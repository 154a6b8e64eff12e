"""The organizers' decision on a registration: approved (linked to a player, or a new one),
refused, or withdrawn (also by its holder)."""

from typing import Any

from django.db import transaction
from django.utils import timezone

from league.errors import LeagueError, LeagueForbidden
from league.models import Player, Registration, RegistrationStatus, StageStatus
from league.models.registration import ACTIVE
from league.selectors import entered_stages
from league.services.organization import (
    free_handle,
    handle_from_name,
    handles_in_use,
    player_create,
)
from league.services.organization._common import _ensure_name_free
from league.services.registration._common import (
    RegistrationConflict,
    _changed,
    _ensure_status,
    _locked_registration,
    _move_up,
)
from league.services.registration.candidates import linkable, registration_candidates


def _new_player(registration: Registration) -> Player:
    """A new player from a registration: the handle they gave when no one has it, else one
    made from their name; on the league's roster (`name_taken` when a name there looks the
    same: link the registration to that player, or tell the two apart)."""
    handle = registration.handle
    base = handle_from_name(registration.display_name)
    taken = handles_in_use([handle] if handle else [], [base])
    if not handle or handle in taken:
        handle = free_handle(base, taken)
    return player_create(
        display_name=registration.display_name,
        handle=handle,
        league=registration.event.league,
        handle_free=True,  # chosen among the handles in use, just read
    )


def _is_candidate(registration: Registration, player_id: int) -> bool:
    return any(c.player.pk == player_id for c in registration_candidates(registration))


@transaction.atomic
def registration_approve(
    *,
    registration_id: int,
    player_id: int | None = None,
    new_player: bool = False,
    by: Any = None,
) -> Registration:
    """Confirm a registration waiting for approval: linked to an existing player (`player_id`:
    one it matches, or a player on the league's roster) or as a new player (`new_player`). A
    registration that matches existing players needs that choice (`player_match`, 409,
    `details.candidates`): two people are never merged, nor one split in two, behind anyone's
    back. A player is confirmed once per event (`already_registered`); the confirmed player
    joins the league's roster. Only a pending registration is approved (`registration_decided`;
    one on the waiting list moves up when a place frees: `on_waiting_list`).

    A player on other leagues' rosters is linked only when `by` (the approving organizer) may
    already change them (`linkable`; `permission_denied`, 403: make a new player instead), and
    `player_match` offers only the matches `by` may link; when there are none, `{}` makes a new
    player, as for a registration that matches no one. `by` None (a command, the demo) checks
    nothing."""
    _sign_up, registration = _locked_registration(registration_id)
    if registration.status == RegistrationStatus.WAITING:
        raise RegistrationConflict(
            "on_waiting_list",
            f"{registration.display_name} is on the waiting list: they move up when a place "
            "frees (refuse or withdraw someone, or raise the cap).",
            details={"registration": registration.pk},
        )
    _ensure_status(registration, RegistrationStatus.PENDING, doing="approved")
    league = registration.event.league
    if player_id is not None:
        player = Player.objects.filter(pk=player_id).first()
        on_roster = league.players.filter(pk=player_id).exists()
        if player is None or not (on_roster or _is_candidate(registration, player_id)):
            raise LeagueError(
                "unknown_player",
                f"Player {player_id} is neither a match of this registration nor on the roster "
                f"of {league.name}.",
                details={"field": "player", "player": player_id},
            )
        if registration.event.registrations.filter(
            player=player, status=RegistrationStatus.CONFIRMED
        ).exists():
            raise RegistrationConflict(
                "already_registered",
                f"{player.display_name} is already confirmed for this event.",
                details={"field": "player", "player": player.pk},
            )
        if not on_roster and player.pk not in linkable(league, by, [player.pk]):
            raise LeagueForbidden(
                "permission_denied",
                f"{player.display_name} plays in leagues you do not organize: only their "
                "organizers may put them on another roster. Make a new player of this "
                "registration instead.",
                details={"field": "player", "player": player.pk},
            )
        if not on_roster:
            _ensure_name_free(league, player.display_name, exclude=[player.pk])
            league.players.add(player)
    elif new_player:
        player = _new_player(registration)
    else:
        candidates_found = registration_candidates(registration, by=by)
        if candidates_found:
            raise RegistrationConflict(
                "player_match",
                f"{registration.display_name} may be a player there is already: link the "
                "registration to one of them, or make a new player.",
                details={
                    "candidates": [
                        {"player": c.player.pk, "display_name": c.player.display_name, "by": c.by}
                        for c in candidates_found
                    ]
                },
            )
        player = _new_player(registration)
    registration.player = player
    registration.status = RegistrationStatus.CONFIRMED
    registration.decided_at = timezone.now()
    registration.save(update_fields=["player", "status", "decided_at"])
    _changed(registration, "approved")
    return registration


@transaction.atomic
def registration_refuse(*, registration_id: int) -> Registration:
    """Refuse a registration waiting for approval or on the waiting list, while the event is
    open (`event_closed`). A place it held goes to the first on the waiting list."""
    sign_up, registration = _locked_registration(registration_id)
    _ensure_status(
        registration, RegistrationStatus.PENDING, RegistrationStatus.WAITING, doing="refused"
    )
    registration.status = RegistrationStatus.REFUSED
    registration.decided_at = timezone.now()
    registration.save(update_fields=["status", "decided_at"])
    _changed(registration, "refused")
    _move_up(sign_up)
    return registration


@transaction.atomic
def registration_withdraw(*, registration_id: int, by_player: bool = False) -> Registration:
    """The player is out (they withdrew, or an organizer took them off): from any active
    state, while the event is open (`event_closed`). A place it held goes to the first on the
    waiting list. A confirmed player stays on the league's roster (their record is theirs) but
    is no longer checked in. The player themselves (`by_player`) cannot leave while entered in
    a running stage (`still_playing`): their tables need an organizer's withdrawal, which
    settles them (docs/organizing.md, "Withdrawing a player")."""
    sign_up, registration = _locked_registration(registration_id)
    _ensure_status(registration, *ACTIVE, doing="withdrawn")
    if by_player:
        _ensure_not_playing(registration)
    registration.status = RegistrationStatus.WITHDRAWN
    registration.checked_in_at = None
    registration.decided_at = timezone.now()
    registration.save(update_fields=["status", "checked_in_at", "decided_at"])
    _move_up(sign_up)
    return registration


def _ensure_not_playing(registration: Registration) -> None:
    """Refuse (`still_playing`) while the registration's player is entered, and not withdrawn,
    in a stage of its event that is running."""
    if registration.player_id is None:
        return
    playing = entered_stages(registration.event_id, registration.player_id, (StageStatus.RUNNING,))
    if playing:
        names = ", ".join(name for _, name in playing)
        raise RegistrationConflict(
            "still_playing",
            f"You are playing in {names} of {registration.event.name}: ask an organizer to "
            "withdraw you, so that your tables are settled.",
            details={"stages": [stage_id for stage_id, _ in playing]},
        )
