"""Stages of an event: formats, entries, the matches they draw, forfeits and byes."""

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower

from league.models.organization import Event, Player, default_tiebreak


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
    status = models.CharField(max_length=16, choices=StageStatus.choices, default=StageStatus.DRAFT)
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
    source_per_group = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="From a source stage played in groups: the top N of each group enter.",
    )
    source_best_rest = models.PositiveSmallIntegerField(
        default=0,
        help_text="With source_per_group: the best k of the rest, across groups, enter too.",
    )
    bracket = models.JSONField(null=True, blank=True)
    ranking = models.JSONField(
        null=True, blank=True, help_text="Final order once finished: tiers of player ids."
    )
    group_ranking = models.JSONField(
        null=True,
        blank=True,
        help_text="A stage played in groups, once finished: each group's final order "
        '({"1": tiers, "2": tiers, ...}).',
    )
    dropped = models.JSONField(
        default=list,
        blank=True,
        help_text="Players entered but not checked in when it started (an event using "
        "check-in), taken off its entries then: their ids.",
    )
    # Later rounds scheduled as they are seated (league.services.schedule.follow_on), set by
    # scheduling a round with `follow_on_minutes`; a stage fed by this one follows it too.
    follow_minutes = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Each match seated after the scheduled round starts this many minutes after "
        "it is seated, at the table its players left; empty: scheduled by hand.",
    )
    follow_label = models.CharField(
        max_length=56, blank=True, help_text="The tables' label pattern of the followed round."
    )
    follow_zone = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "position", "id"]
        constraints = [
            # The services number an event's stages 1, 2, ... and name each its own way (the
            # pages name stages); these hold it when two requests add or change one at once.
            models.UniqueConstraint(fields=["event", "position"], name="stage_unique_position"),
            models.UniqueConstraint(
                models.F("event"),
                Lower("name"),
                name="stage_name_any_case",
                violation_error_message="Another stage of this event has this name, in some "
                "case of its letters.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_format_display()})"

    @property
    def is_elimination(self) -> bool:
        return self.format in (StageFormat.SINGLE_ELIMINATION, StageFormat.DOUBLE_ELIMINATION)

    @property
    def played_in_groups(self) -> bool:
        """A round robin drawn in groups: each group has its own table (its players ranked
        among themselves alone) and its own final order (`group_ranking`)."""
        return (
            self.format == StageFormat.ROUND_ROBIN
            and self.groups > 1
            and self.status != StageStatus.DRAFT
        )


class StageEntry(models.Model):
    """A participant of a stage with their seed (1 is the top seed) and group."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="stage_entries")
    seed = models.PositiveSmallIntegerField()
    group = models.PositiveSmallIntegerField(default=1)
    withdrawn_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the player withdrew: their unplayed matches are walkovers, and they are "
        "seated no more.",
    )

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


class ForfeitReason(models.TextChoices):
    NO_SHOW = "no_show", "Did not show"
    WITHDREW = "withdrew", "Withdrew"
    AWARDED = "awarded", "Walkover awarded"


class StageForfeit(models.Model):
    """A player who did not play a stage match (no-show, withdrawal, or a walkover the organizer
    awarded against them): last place there (a loss in standings)."""

    stage_match = models.ForeignKey(StageMatch, on_delete=models.CASCADE, related_name="forfeits")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(
        max_length=16, choices=ForfeitReason.choices, default=ForfeitReason.NO_SHOW
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["stage_match", "player"], name="forfeit_unique"),
        ]

    def __str__(self) -> str:
        return f"forfeit of player {self.player_id} in {self.stage_match}"


class VoidOutcome(models.TextChoices):
    REPLAY = "replay", "Replayed"
    WALKOVER = "walkover", "Walkover"
    NO_RESULT = "no_result", "No result"


class StageVoid(models.Model):
    """A stage match voided by an organizer, and what was done with its slot: a fresh match
    for the same players (replay), a walkover, or (round robin, Swiss) no result. Kept so a
    void made by mistake can be taken back (un-void) and the page can say what happened."""

    stage_match = models.ForeignKey(StageMatch, on_delete=models.CASCADE, related_name="voids")
    match = models.OneToOneField("games.Match", on_delete=models.CASCADE, related_name="stage_void")
    outcome = models.CharField(max_length=16, choices=VoidOutcome.choices)
    replay = models.OneToOneField(
        "games.Match",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="replay_of",
        help_text="The match seated in its place (replay, or the rest of a table playing on).",
    )
    forfeits = models.JSONField(
        default=list, blank=True, help_text="Players this void recorded a forfeit for."
    )
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["stage_match", "created_at", "id"]

    def __str__(self) -> str:
        return f"void of match #{self.match_id} in {self.stage_match}"


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
