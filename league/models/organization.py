"""The organization: players, leagues (with their rosters and invitations of organizers) and
their events."""

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Count, OuterRef
from django.db.models.functions import Lower
from django.utils import timezone

from games.errors import EventClosed
from games.models import GameName
from league.standings import DEFAULT_TIEBREAK_ORDER


def default_tiebreak() -> list[str]:
    return list(DEFAULT_TIEBREAK_ORDER)


class PlayerQuerySet(models.QuerySet["Player"]):
    def changeable_by(self, user: Any) -> "PlayerQuerySet":
        """The players `user` may change: staff, any; an organizer, the players on the rosters
        of the leagues they organize (docs/api.md, "Whose data is whose")."""
        if not user.is_authenticated:
            return self.none()
        if user.is_staff:
            return self
        return self.filter(leagues__organizers=user).distinct()

    def with_counts(self) -> "PlayerQuerySet":
        """Each player with how many `matches` they sat at, `stages` they entered and `rosters`
        they are on: one query, a subquery each, so that the counts do not multiply."""

        def counted(relation: str) -> models.Subquery:
            per_player = Player.objects.filter(pk=OuterRef("pk")).order_by().values("pk")
            return models.Subquery(per_player.annotate(n=Count(relation)).values("n"))

        return self.annotate(
            matches=counted("seats"), stages=counted("stage_entries"), rosters=counted("leagues")
        )


def unique_in_any_case(field: str, *, name: str, said: str) -> models.UniqueConstraint:
    """`field` is one row's in any case of its letters: `Ada` beside `ada`, `Backyard` beside
    `backyard`, read as one. The services check it first (`handle_taken`, `slug_taken`); this
    holds when two requests store one at once."""
    return models.UniqueConstraint(Lower(field), name=name, violation_error_message=said)


class Player(models.Model):
    """Someone who plays. Optionally linked to a user account (to see their own results).
    A player belongs to the rosters of the leagues they play in (`leagues`)."""

    display_name = models.CharField(max_length=80)
    handle = models.SlugField(max_length=40, unique=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["display_name", "id"]
        constraints = [
            unique_in_any_case(
                "handle",
                name="player_handle_any_case",
                said="Another player has this handle, in some case of its letters.",
            )
        ]

    def __str__(self) -> str:
        return f"{self.display_name} (@{self.handle})"

    def is_changeable_by(self, user: Any) -> bool:
        return Player.objects.changeable_by(user).filter(pk=self.pk).exists()


class LeagueQuerySet(models.QuerySet["League"]):
    def organized_by(self, user: Any) -> "LeagueQuerySet":
        if not user.is_authenticated:
            return self.none()
        if user.is_staff:
            return self
        return self.filter(organizers=user)


class League(models.Model):
    """A league plays one game under a default ruleset; its organizers run its events."""

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    game = models.CharField(max_length=16, choices=GameName.choices)
    rules = models.JSONField(
        default=dict, blank=True, help_text="Default ruleset options for its matches."
    )
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organized_leagues", blank=True
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="owned_leagues",
        help_text="Who made the league: one of its organizers, whom no other removes.",
    )
    players = models.ManyToManyField(
        Player,
        related_name="leagues",
        blank=True,
        help_text="The league's roster: the players its matches and stages may seat, and whose "
        "records its organizers may change.",
    )
    tiebreak = models.JSONField(
        default=default_tiebreak, help_text="Standings metric keys, in order (docs/standings.md)."
    )
    points = models.JSONField(
        default=dict,
        blank=True,
        help_text='League points, e.g. {"win": 3, "draw": 1, "loss": 0, '
        '"placement": {"4": [3, 2, 1, 0]}}; see docs/standings.md.',
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = LeagueQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            unique_in_any_case(
                "slug",
                name="league_slug_any_case",
                said="Another league has this address, in some case of its letters.",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def is_organizer(self, user: Any) -> bool:
        if not user.is_authenticated:
            return False
        return bool(user.is_staff) or self.organizers.filter(pk=user.pk).exists()

    @staticmethod
    def organizes_matches(user: Any, event_id: int | None, league_id: int | None) -> bool:
        """Whether `user` organizes the league of the event `event_id` (else of the league
        `league_id`): who runs its matches (`games.gates`, `Match.is_organizer`). One query."""
        leagues = League.objects.filter(organizers=user.pk)
        if event_id is not None:
            return leagues.filter(events=event_id).exists()
        return league_id is not None and leagues.filter(pk=league_id).exists()

    def game_is_settled(self) -> bool:
        """Whether the league's game can no longer change: it has an event or a match (their
        rules, stages and results are the game's)."""
        return self.events.exists() or self.matches.exists()

    def missing_players(self, player_ids: Any) -> list[int]:
        """Those of `player_ids` who are not on this league's roster, in the order given."""
        ids = list(player_ids)
        on_roster = set(self.players.filter(pk__in=ids).values_list("pk", flat=True))
        return [pk for pk in ids if pk not in on_roster]


class InvitationQuerySet(models.QuerySet["OrganizerInvitation"]):
    def open(self) -> "InvitationQuerySet":
        """Neither accepted nor revoked (an expired one is open, and replaced by a new one)."""
        return self.filter(accepted_at__isnull=True, revoked_at__isnull=True)

    def pending(self) -> "InvitationQuerySet":
        """Open and not expired: its link still makes an organizer."""
        return self.open().filter(expires_at__gt=timezone.now())


class InvitationState(models.TextChoices):
    PENDING = "pending", "Pending"
    ACCEPTED = "accepted", "Accepted"
    REVOKED = "revoked", "Revoked"
    EXPIRED = "expired", "Expired"


class OrganizerInvitation(models.Model):
    """An organizer's invitation to a co-organizer, by email (docs/organizing.md, "Bringing
    a co-organizer"). Its link holds a secret token, of which only the SHA-256 is kept
    (`token_hash`): whoever opens the link before it expires becomes an organizer of the league,
    with the account they are signed in to or one they make there. Used once; revoked by an
    organizer, or by a newer invitation to the same address."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(max_length=254)
    token_hash = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = InvitationQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "id"]
        constraints = [
            # A new invitation to an address revokes the open one first (the service).
            models.UniqueConstraint(
                "league",
                Lower("email"),
                condition=models.Q(accepted_at__isnull=True, revoked_at__isnull=True),
                name="one_open_invitation_an_address",
                violation_error_message="This address has an open invitation to the league.",
            ),
            models.CheckConstraint(
                condition=models.Q(accepted_at__isnull=True) | models.Q(revoked_at__isnull=True),
                name="invitation_accepted_or_revoked",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.email} to {self.league}"

    @property
    def state(self) -> InvitationState:
        if self.accepted_at is not None:
            return InvitationState.ACCEPTED
        if self.revoked_at is not None:
            return InvitationState.REVOKED
        if self.expires_at <= timezone.now():
            return InvitationState.EXPIRED
        return InvitationState.PENDING


class EventStatus(models.TextChoices):
    UPCOMING = "upcoming", "Upcoming"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"
    CANCELLED = "cancelled", "Cancelled"


class Event(models.Model):
    """One league night or tournament: a date, a venue, its matches and stages."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="events")
    name = models.CharField(max_length=120)
    date = models.DateField()
    venue = models.CharField(max_length=120, blank=True)
    status = models.CharField(
        max_length=16, choices=EventStatus.choices, default=EventStatus.UPCOMING
    )
    rules = models.JSONField(
        default=dict, blank=True, help_text="Ruleset options overriding the league's."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "id"]
        indexes = [models.Index(fields=["league", "date"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"

    @property
    def is_closed(self) -> bool:
        """A finished or cancelled event takes no more matches, stages or turns."""
        return self.status in (EventStatus.FINISHED, EventStatus.CANCELLED)

    @staticmethod
    def closed_as(event_id: int) -> str:
        """The status that closes the event `event_id` ("finished", "cancelled"), or "" while
        it is open (`games.gates`: a match's turns, undos and voids ask it). One query."""
        found = Event.objects.filter(pk=event_id).order_by().values_list("status", flat=True)
        status = next(iter(found[:1]), "")
        return status if status in (EventStatus.FINISHED, EventStatus.CANCELLED) else ""

    def ensure_open(self, *, then: str = "") -> None:
        """EventClosed (409 `event_closed`) when the event is finished or cancelled. `then`:
        what the refusal says after "Event N is finished: " (default: that it takes no more
        matches or turns, until its organizers reopen it)."""
        if self.is_closed:
            raise EventClosed.of(self.pk, self.status, then)

    def ruleset(self) -> dict[str, Any]:
        """The league's default options with this event's overrides on top."""
        return {**self.league.rules, **self.rules}
