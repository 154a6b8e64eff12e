"""The organization: players, leagues and their events."""

from typing import Any

from django.conf import settings
from django.db import models

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

    def __str__(self) -> str:
        return self.name

    def is_organizer(self, user: Any) -> bool:
        if not user.is_authenticated:
            return False
        return bool(user.is_staff) or self.organizers.filter(pk=user.pk).exists()

    def missing_players(self, player_ids: Any) -> list[int]:
        """Those of `player_ids` who are not on this league's roster, in the order given."""
        ids = list(player_ids)
        on_roster = set(self.players.filter(pk__in=ids).values_list("pk", flat=True))
        return [pk for pk in ids if pk not in on_roster]


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

    def ruleset(self) -> dict[str, Any]:
        """The league's default options with this event's overrides on top."""
        return {**self.league.rules, **self.rules}


class StageFormat(models.TextChoices):
    ROUND_ROBIN = "round_robin", "Round robin"
    SWISS = "swiss", "Swiss"
    SINGLE_ELIMINATION = "single_elimination", "Single elimination"
    DOUBLE_ELIMINATION = "double_elimination", "Double elimination"


class StageStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"


class Seeding(models.TextChoices):
    MANUAL = "manual", "Manual (in the order given)"
    RATING = "rating", "By rating"
    RANDOM = "random", "Random (seeded, recorded)"


class Stage(models.Model):
    """One stage of an event: a format, its participants (StageEntry) and the matches it draws.

    Elimination stages keep their whole bracket (`league.draw.Bracket` as JSON), drawn at the
    start, so later code changes never redraw a running bracket."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="stages")
    name = models.CharField(max_length=120)
    position = models.PositiveSmallIntegerField(default=1, help_text="Order within the event.")
    format = models.CharField(max_length=24, choices=StageFormat.choices)
    status = models.CharField(max_length=16, choices=StageStatus.choices, default="draft")
    table_size = models.PositiveSmallIntegerField(default=2)
    advance = models.PositiveSmallIntegerField(
        default=1, help_text="Top places per table going on."
    )
    rounds = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Swiss rounds.")
    groups = models.PositiveSmallIntegerField(default=1, help_text="Round-robin groups.")
    seeding = models.CharField(max_length=16, choices=Seeding.choices, default=Seeding.MANUAL)
    random_seed = models.BigIntegerField(null=True, blank=True)
    third_place = models.BooleanField(default=False)
    grand_final_reset = models.BooleanField(default=True)
    tiebreak = models.JSONField(default=default_tiebreak, help_text="Metric keys, in order.")
    points = models.JSONField(
        default=dict, blank=True, help_text="League points for this stage; empty: the league's."
    )
    source_stage = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="next_stages"
    )
    source_top = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="How many of the source stage's final standings enter."
    )
    bracket = models.JSONField(null=True, blank=True)
    ranking = models.JSONField(
        null=True, blank=True, help_text="Final order once finished: tiers of player ids."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "position", "id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_format_display()})"

    @property
    def is_elimination(self) -> bool:
        return self.format in (StageFormat.SINGLE_ELIMINATION, StageFormat.DOUBLE_ELIMINATION)


class StageEntry(models.Model):
    """A participant of a stage with their seed (1 is the top seed) and group."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="stage_entries")
    seed = models.PositiveSmallIntegerField()
    group = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["stage", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "player"], name="entry_unique_player"),
            models.UniqueConstraint(fields=["stage", "seed"], name="entry_unique_seed"),
        ]

    def __str__(self) -> str:
        return f"seed {self.seed} of {self.stage}"


class StageMatch(models.Model):
    """A match drawn by a stage: its round (and group), or for a bracket its slot key.

    `match` is null for a slot decided without playing (a walkover after forfeits)."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="stage_matches")
    match = models.OneToOneField(
        "games.Match", on_delete=models.PROTECT, null=True, blank=True, related_name="stage_match"
    )
    round = models.PositiveSmallIntegerField()
    group = models.PositiveSmallIntegerField(default=1)
    slot = models.CharField(max_length=32, blank=True, help_text="Bracket slot key.")
    walkover = models.BooleanField(default=False)
    order = models.JSONField(
        null=True,
        blank=True,
        help_text="Finishing order once decided, ties at the cut broken then and kept.",
    )

    class Meta:
        ordering = ["stage", "round", "slot", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "slot"], condition=~models.Q(slot=""), name="stage_match_slot"
            ),
        ]

    def __str__(self) -> str:
        where = self.slot or f"round {self.round}"
        return f"{where} of {self.stage}"


class StageForfeit(models.Model):
    """A player who did not show for a stage match: last place there (a loss in standings)."""

    stage_match = models.ForeignKey(StageMatch, on_delete=models.CASCADE, related_name="forfeits")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["stage_match", "player"], name="forfeit_unique"),
        ]

    def __str__(self) -> str:
        return f"forfeit of player {self.player_id} in {self.stage_match}"


class StageBye(models.Model):
    """A player sitting out a round of a Swiss or round-robin stage: counts as a win."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="byes")
    round = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["stage", "round"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "round", "player"], name="bye_unique"),
        ]

    def __str__(self) -> str:
        return f"bye for player {self.player_id} in round {self.round} of {self.stage}"


class StandingsScope(models.TextChoices):
    STAGE = "stage", "Stage"
    EVENT = "event", "Event"
    LEAGUE = "league", "League"


class StandingsTable(models.Model):
    """A computed standings table, served as stored.

    Every change that can move it bumps `requested` in the same transaction; a refresh records
    the value it computed from in `computed`. So `pending` (requested > computed) survives a
    broker outage, and the beat sweep finds what was missed."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="standings_tables")
    scope = models.CharField(max_length=16, choices=StandingsScope.choices)
    scope_id = models.PositiveBigIntegerField()
    tiebreak = models.JSONField(default=list)
    rows = models.JSONField(default=list)
    requested = models.PositiveIntegerField(default=1)
    computed = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(null=True, blank=True)
    # The `requested` of the last change that a tally cannot absorb by adding (a result
    # withdrawn, the points scheme changed): a stored tally counted before it is rebuilt.
    rebuild_from = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "scope_id"], name="standings_unique_scope"),
        ]
        indexes = [models.Index(fields=["league", "scope"])]

    def __str__(self) -> str:
        return f"{self.scope} {self.scope_id} standings"

    @property
    def pending(self) -> bool:
        return self.requested > self.computed


class StandingsTally(models.Model):
    """The running totals behind a standings table (`league.standings.Tally` as JSON), as they
    were when the table was computed with `requested` at `counted`. A refresh adds the results
    finished since to it instead of counting every result again (docs/standings.md).

    Kept apart from `StandingsTable` so that serving a table never reads it."""

    table = models.OneToOneField(
        StandingsTable, on_delete=models.CASCADE, primary_key=True, related_name="tally"
    )
    counted = models.PositiveIntegerField()
    data = models.JSONField()

    def __str__(self) -> str:
        return f"tally of {self.table}"


class PlayerRating(models.Model):
    """A player's current OpenSkill rating in a league (the leaderboard)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    matches = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["league", "-ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="rating_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.league}: {self.ordinal:.2f}"


class RatingChange(models.Model):
    """A player's rating right after one match: the history behind charts and replays."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    finished_at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        ordering = ["league", "finished_at", "match_id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="rating_change_unique"),
        ]
        indexes = [models.Index(fields=["league", "finished_at", "match"])]

    def __str__(self) -> str:
        return f"{self.player} after match #{self.match_id}"


class RatingsState(models.Model):
    """Whether a league's ratings are up to date (same `requested`/`computed` scheme as
    StandingsTable)."""

    league = models.OneToOneField(League, on_delete=models.CASCADE, related_name="ratings_state")
    requested = models.PositiveIntegerField(default=1)
    computed = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"ratings of {self.league}"

    @property
    def pending(self) -> bool:
        return self.requested > self.computed
