"""A registration matched with the players there are: those it may be linked to."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.db.models.functions import Lower

from league.models import League, Player, Registration, RegistrationStatus
from league.services.organization import folded


@dataclass(frozen=True, slots=True)
class Candidate:
    """An existing player a registration may be: matched by `email` (a registration of theirs,
    confirmed before, gave the same one), `handle`, or `name` (on the league's roster)."""

    player: Player
    by: tuple[str, ...]


def registration_candidates(registration: Registration, *, by: Any = None) -> list[Candidate]:
    """The existing players this registration matches, for its organizers to choose from: by
    the email a confirmed registration of theirs gave (in any league), by handle, and by a
    name that looks the same on the league's roster. With `by` (the organizer who chooses),
    only the players `by` may link it to (`linkable`); without, every match."""
    return candidates_of([registration], by=by)[registration.pk]


def linkable(league: League, user: Any, player_ids: Iterable[int]) -> set[int]:
    """Of `player_ids`, the players `user` may link a registration of `league` to: one on
    `league`'s roster or on none, or one `user` may already change (an organizer of a league
    whose roster they are on, or staff), as `POST leagues/{slug}/players/` has it. Being on a
    roster lets its organizers rename a player, so a sign-up naming someone's handle or email
    must not hand another league's player to whoever approves it. `user` None (a command, the
    demo): all of them. Two queries, however many players."""
    ids = set(player_ids)
    if user is None or not ids:
        return ids
    players = Player.objects.filter(pk__in=ids)
    free = players.filter(Q(leagues=league) | Q(leagues=None)).values_list("pk", flat=True)
    return set(free) | set(players.changeable_by(user).values_list("pk", flat=True))


def candidates_of(
    registrations: Sequence[Registration], *, by: Any = None
) -> dict[int, list[Candidate]]:
    """`registration_candidates` of several registrations of one event, by registration id
    (with `by`, only the players `by` may link them to): a fixed number of queries, however
    many there are."""
    if not registrations:
        return {}
    emails = {r.email.lower() for r in registrations if r.email}
    by_email: dict[str, list[Player]] = {}
    confirmed = (
        Registration.objects.annotate(email_key=Lower("email"))
        .filter(email_key__in=emails, status=RegistrationStatus.CONFIRMED)
        .select_related("player")
        .order_by("player_id")
    )
    for row in confirmed if emails else ():
        if row.player is not None and row.player not in by_email.get(row.email_key, []):
            by_email.setdefault(row.email_key, []).append(row.player)
    handles = {r.handle for r in registrations if r.handle}
    # In any case of its letters: a registration's handle is lowercased, a player's may not be.
    lowered = Player.objects.annotate(lowered=Lower("handle"))
    by_handle = (
        {p.handle.lower(): p for p in lowered.filter(lowered__in=handles)} if handles else {}
    )
    league = registrations[0].event.league
    by_name: dict[str, list[Player]] = {}
    for player in league.players.all():
        by_name.setdefault(folded(player.display_name), []).append(player)
    answer = {}
    for registration in registrations:
        found: dict[int, tuple[Player, list[str]]] = {}
        matched = (
            ("email", by_email.get(registration.email.lower(), []) if registration.email else []),
            (
                "handle",
                [by_handle[registration.handle]] if registration.handle in by_handle else [],
            ),
            ("name", by_name.get(folded(registration.display_name), [])),
        )
        for reason, players in matched:
            for player in players:
                found.setdefault(player.pk, (player, []))[1].append(reason)
        answer[registration.pk] = [Candidate(player, tuple(how)) for player, how in found.values()]
    if by is not None:
        allowed = linkable(league, by, {c.player.pk for found in answer.values() for c in found})
        answer = {pk: [c for c in found if c.player.pk in allowed] for pk, found in answer.items()}
    return answer
