"""One match at a table: its seats, the turns played, and the game state the rulebook keeps.

The match stores the game state as JSON (`scoring`'s `to_json`), so a turn is applied to the
stored state without replaying earlier turns. Every turn is kept as submitted; an undone turn
moves to `TurnUndo`, and a version a correction replaced to `TurnCorrection`: audit records,
never silently lost."""

import secrets
from typing import Any

from django.conf import settings
from django.db import models

import scoring
from games import gates
from scoring.game import Game as ScoringGame


class GameName(models.TextChoices):
    YARDZEE = "yardzee", "Yardzee"
    YARDKLE = "yardkle", "Yardkle"


class MatchStatus(models.TextChoices):
    SCHEDULED = "scheduled", "Scheduled"
    IN_PROGRESS = "in_progress", "In progress"
    FINISHED = "finished", "Finished"
    VOID = "void", "Void"


# A match still to be played or being played: one that may take turns.
OPEN_STATUSES = (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS)


# The longest table or yard label a match carries.
TABLE_LABEL_MAX = 40


def new_score_key() -> str:
    return secrets.token_urlsafe(24)


class Match(models.Model):
    """One game at one table, from the first roll to the placements."""

    game = models.CharField(max_length=16, choices=GameName.choices)
    rules = models.JSONField(help_text="Ruleset snapshot: later league changes never rescore it.")
    status = models.CharField(
        max_length=16, choices=MatchStatus.choices, default=MatchStatus.SCHEDULED
    )
    state = models.JSONField(help_text="The rulebook's game state after the last turn.")
    turns_played = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(
        default=0,
        help_text="One more with every write of games.services to the match (a turn, a "
        "result, an undo, a correction, a void): the turn's answer carries it.",
    )
    event = models.ForeignKey(
        "league.Event", on_delete=models.PROTECT, null=True, blank=True, related_name="matches"
    )
    league = models.ForeignKey(
        "league.League",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="matches",
        help_text="The league the match belongs to (its event's, or for a casual match the "
        "league it was seated in). Empty only for casual matches seated before leagues owned "
        "them.",
    )
    score_key = models.CharField(max_length=64, unique=True, default=new_score_key)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Where and when it is to be played (league.services.schedule; docs/organizing.md,
    # "Scheduling a round"): set by the organizer, shown on the pages and in the calendars.
    table_label = models.CharField(
        max_length=TABLE_LABEL_MAX, blank=True, help_text="The table or yard, e.g. 'Table 3'."
    )
    planned_at = models.DateTimeField(null=True, blank=True, help_text="Planned start (UTC).")
    planned_zone = models.CharField(
        max_length=64,
        blank=True,
        help_text="The IANA time zone the pages show the planned start in; empty: TIME_ZONE.",
    )
    schedule_changed_at = models.DateTimeField(
        null=True, blank=True, help_text="When the table or time was last set (a calendar's stamp)."
    )
    schedule_sequence = models.PositiveIntegerField(
        default=0, help_text="How many times the table or time was set (a calendar's SEQUENCE)."
    )
    # A match seated in another's place (a replay, or the rest of a table playing on without a
    # withdrawn player) keeps that table: its label, start, calendar UID and short link.
    origin = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The first match of this table when this one was seated in another's place "
        "(a replay or a play-on); its calendar UID and short link stay this table's.",
    )
    pad = models.JSONField(
        null=True,
        blank=True,
        help_text="The paper pad its result was entered from (games.services.scorecards: a "
        "column a seat, as typed), for a match not played turn by turn here; empty otherwise.",
    )
    pad_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="Who entered the pad (empty: the table's key, or a command).",
    )
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    voided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "matches"
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["event", "status"]),
            models.Index(fields=["status", "finished_at"]),
            # An event page's latest matches: read in order, not sorted from all of them.
            models.Index(fields=["event", "-created_at", "-id"], name="match_event_newest"),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_display()} match #{self.pk}"

    def scoring_game(self) -> ScoringGame:
        """The rulebook's game object for the stored state."""
        game_class: Any = scoring.GAMES[self.game]
        result: ScoringGame = game_class.from_json(self.state)
        return result

    def is_organizer(self, user: Any) -> bool:
        """Who may run this match (undo, void, score without its key): staff, an organizer of
        its league (its event's), or, for an old casual match of no league, whoever seated it."""
        if not user.is_authenticated:
            return False
        if user.is_staff:
            return True
        if self.event_id is not None or self.league_id is not None:
            return gates.organizes(user, event_id=self.event_id, league_id=self.league_id)
        return bool(self.created_by_id == user.pk)

    @property
    def table_id(self) -> int:
        """The table this match is played at, across replays: its first match's id (the
        calendar UID and the short link of every match seated in its place)."""
        return self.origin_id or self.pk

    def opens_with(self, key: str | None) -> bool:
        """Whether `key` is this match's scoring key. Compared as bytes in constant time: a key
        can arrive with any characters (a header or `?key=`), and `secrets.compare_digest`
        refuses non-ASCII text."""
        if not key:
            return False
        given = key.encode("utf-8", errors="surrogatepass")
        return secrets.compare_digest(given, self.score_key.encode())

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    @property
    def display_zone(self) -> str:
        """The time zone its planned start is shown in: the one it was scheduled in, or the
        site's (`TIME_ZONE`)."""
        return self.planned_zone or str(settings.TIME_ZONE)

    @property
    def is_scheduled(self) -> bool:
        """Whether it has a table or a planned start to show."""
        return bool(self.table_label) or self.planned_at is not None


class Seat(models.Model):
    """A player's place at the table: seat order, and when finished their total and placement."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey("league.Player", on_delete=models.PROTECT, related_name="seats")
    order = models.PositiveSmallIntegerField(help_text="0-based seat index: the order of play.")
    total = models.IntegerField(null=True, blank=True)
    placement = models.PositiveSmallIntegerField(null=True, blank=True)
    # Game counts recorded when the match finishes, for standings without replaying turns.
    yardzees = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Yardzee: 50 in the Yardzee box (1) plus every bonus."
    )
    upper_bonus = models.BooleanField(null=True, blank=True, help_text="Yardzee: scored 35.")
    yardkles = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Yardkle: turns that ended in a Yardkle."
    )

    class Meta:
        ordering = ["match", "order"]
        constraints = [
            models.UniqueConstraint(fields=["match", "order"], name="seat_unique_order"),
            models.UniqueConstraint(fields=["match", "player"], name="seat_unique_player"),
        ]

    def __str__(self) -> str:
        return f"seat {self.order} of match #{self.match_id}"


class Turn(models.Model):
    """One turn as submitted, in play order (sequence 1, 2, ...), with what it scored. A
    corrected turn holds its latest version, says who corrected it and when, and keeps each
    version it replaced as a `TurnCorrection`."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="turns")
    sequence = models.PositiveIntegerField(help_text="1-based position in the match.")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="turns")
    payload = models.JSONField(help_text="The turn exactly as submitted.")
    points = models.IntegerField()
    bonus = models.IntegerField(default=0)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    submitted_at = models.DateTimeField(auto_now_add=True)
    scored_with_key = models.BooleanField(
        default=False,
        help_text="Sent with the match's scoring key: its holder may take it back for a short "
        "while (games.services.turn_take_back).",
    )
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    corrected_at = models.DateTimeField(
        null=True, blank=True, help_text="When the latest correction was stored; empty if none."
    )

    class Meta:
        ordering = ["match", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["match", "sequence"], name="turn_unique_sequence"),
        ]

    def __str__(self) -> str:
        return f"turn {self.sequence} of match #{self.match_id}"


class TurnUndo(models.Model):
    """Audit record of an undone turn: what it was, who submitted it, who undid it and when."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="undos")
    sequence = models.PositiveIntegerField()
    seat_order = models.PositiveSmallIntegerField()
    player = models.ForeignKey("league.Player", on_delete=models.PROTECT, related_name="+")
    payload = models.JSONField()
    points = models.IntegerField()
    bonus = models.IntegerField(default=0)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    submitted_at = models.DateTimeField()
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    undone_at = models.DateTimeField(auto_now_add=True)
    match_was_finished = models.BooleanField(default=False)
    taken_back = models.BooleanField(
        default=False, help_text="Taken back by the scorekeeper who sent it, not an organizer."
    )

    class Meta:
        ordering = ["match", "-undone_at"]

    def __str__(self) -> str:
        return f"undo of turn {self.sequence} of match #{self.match_id}"


class TurnCorrection(models.Model):
    """Audit record of a corrected turn: the version a correction replaced (what it was, who
    entered it and when), who corrected it and when, and the later turns the correction
    rescored with what they had scored before. The turn itself holds the new version."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="corrections")
    turn = models.ForeignKey(
        Turn,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="corrections",
        help_text="Empty once the turn itself is undone; `sequence` still names it.",
    )
    sequence = models.PositiveIntegerField()
    payload = models.JSONField(help_text="The replaced version, exactly as it was submitted.")
    points = models.IntegerField()
    bonus = models.IntegerField(default=0)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    submitted_at = models.DateTimeField(help_text="When the replaced version was entered.")
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    corrected_at = models.DateTimeField(auto_now_add=True)
    rescored = models.JSONField(
        default=list,
        help_text="Later turns whose points or bonus the correction changed, as they were: "
        '[{"sequence", "points", "bonus"}].',
    )

    class Meta:
        ordering = ["match", "sequence", "corrected_at", "id"]

    def __str__(self) -> str:
        return f"correction of turn {self.sequence} of match #{self.match_id}"


class SubmissionReceipt(models.Model):
    """The first response to a write sent with an `Idempotency-Key`, stored in the same
    transaction as the write, so a retry gets the same answer and nothing is applied twice."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="receipts")
    key = models.CharField(max_length=200)  # KEY_MAX_LENGTH
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of the request body.")
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField()
    turn_sequence = models.PositiveIntegerField(
        null=True, blank=True, help_text="The last turn the write stored."
    )
    undone_at = models.DateTimeField(
        null=True, blank=True, help_text="When a turn this write stored was undone."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    # The longest Idempotency-Key kept (the column's size); a longer one is refused with a 400.
    KEY_MAX_LENGTH = 200

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "key"], name="receipt_unique_key"),
        ]
        # Receipts expire after a day (games.receipts_expire): found by age.
        indexes = [models.Index(fields=["created_at"], name="receipt_created")]

    def __str__(self) -> str:
        return f"receipt {self.key} for match #{self.match_id}"
