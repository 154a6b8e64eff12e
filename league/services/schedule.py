"""Where and when matches are played: a round's tables numbered and their start times
staggered in one request, or one match moved (docs/organizing.md, "Scheduling a round").

Times are stored aware, in UTC; each match keeps the IANA zone it was scheduled in, which the
pages and the round sheet show it in (the site's `TIME_ZONE` when none was given)."""

import functools
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.errors import MatchAlreadyStarted, MatchClosed
from games.models import OPEN_STATUSES, TABLE_LABEL_MAX, Match, MatchStatus
from league.errors import LeagueError, RoundNotFound, StageConflict
from league.models import Event, Stage, StageMatch
from league.services import locks

# `{n}` in a label pattern is the table's number.
NUMBER = "{n}"
DEFAULT_PATTERN = "Table {n}"
# How long before now a start may be set: a round typed in a little late is fine; a start
# further back is most likely a wrong date.
PAST_GRACE = timedelta(hours=1)
# The latest start accepted, from now (a later one is most likely a wrong year).
FUTURE_LIMIT = timedelta(days=2 * 366)
MAX_INTERVAL_MINUTES = 24 * 60
MAX_TABLES = 512


def typed_start(value: str) -> datetime | None:
    """A start as typed on the page or sent to the API (ISO 8601, with or without an offset),
    or None when it is not one: badly written, well written but impossible (2026-02-30), or a
    date without its time of day (`2026-07-04` would be read as its midnight)."""
    if not any(separator in value for separator in ("T", "t", " ")):
        return None
    try:
        return parse_datetime(value)
    except ValueError:
        return None


class Keep(Enum):
    """What `match_schedule` and `round_schedule` leave as it is when a value is not given."""

    UNCHANGED = 0


UNCHANGED = Keep.UNCHANGED


@dataclass(frozen=True, slots=True)
class Scheduled:
    """What a round's schedule set: each match with its table and start, in table order, and
    the matches of the round left as they were (started, finished or void)."""

    stage: Stage
    round: int
    matches: list[Match]
    skipped: list[int]


def zone_named(name: str | None) -> str:
    """An IANA time zone name as stored ("" for the site's own), or `invalid_time_zone`."""
    if not name:
        return ""
    if len(name) > 64 or name not in _zones():
        raise LeagueError(
            "invalid_time_zone",
            f"{name[:64]!r} is not a time zone name (e.g. 'Europe/London', 'America/Chicago').",
            details={"field": "time_zone"},
        )
    return name


# Names the machine's zoneinfo has that are not places: `localtime` (a link to whatever zone
# the server runs in) and `Factory` (the database's placeholder, "-00").
_NOT_PLACES = frozenset({"localtime", "Factory"})


@functools.cache
def _zones() -> frozenset[str]:
    """The IANA zone names a match may be scheduled in (read once: the list walks the disk)."""
    return frozenset((available_timezones() - _NOT_PLACES) | {"UTC"})


def local_start(value: datetime, zone: str) -> datetime:
    """An aware start: a naive time is read as wall-clock time in `zone` (the site's zone when
    empty); an aware one is kept as the instant it names."""
    if timezone.is_aware(value):
        return value
    try:
        tz = ZoneInfo(zone or str(settings.TIME_ZONE))
    except (ZoneInfoNotFoundError, ValueError) as exc:  # pragma: no cover - checked before
        raise LeagueError("invalid_time_zone", str(exc)) from exc
    return value.replace(tzinfo=tz)


def _check_start(start: datetime, *, field: str) -> datetime:
    now = timezone.now()
    if start < now - PAST_GRACE:
        raise LeagueError(
            "start_in_past",
            f"{field} is more than an hour in the past: check its date.",
            details={"field": field, "start": start.isoformat()},
        )
    if start > now + FUTURE_LIMIT:
        raise LeagueError(
            "start_too_far",
            f"{field} is more than two years ahead: check its year.",
            details={"field": field, "start": start.isoformat()},
        )
    return start.astimezone(ZoneInfo("UTC"))


def clean_label(value: str, *, field: str = "table") -> str:
    """A table label as stored: plain text, spaces collapsed, 1 to TABLE_LABEL_MAX characters."""
    text = unicodedata.normalize("NFC", value)
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in text):
        raise LeagueError(
            "invalid_label",
            f"{field} holds invisible or control characters; labels are plain text.",
            details={"field": field},
        )
    text = " ".join(text.split())
    if not text:
        raise LeagueError("invalid_label", f"{field} must not be blank.", details={"field": field})
    if len(text) > TABLE_LABEL_MAX:
        raise LeagueError(
            "label_too_long",
            f"{field} is {len(text)} characters long; at most {TABLE_LABEL_MAX}.",
            details={"field": field, "max_length": TABLE_LABEL_MAX},
        )
    return text


def _pattern(pattern: str, tables: int) -> list[str]:
    """The label of tables 1..`tables`: `pattern` with `{n}` replaced by the number."""
    rest = pattern.replace(NUMBER, "")
    if "{" in rest or "}" in rest:
        raise LeagueError(
            "invalid_label",
            "label takes no placeholder but {n}, the table's number.",
            details={"field": "label"},
        )
    if NUMBER not in pattern and tables > 1:
        raise LeagueError(
            "invalid_label",
            "label must hold {n}, the table's number, when the round has more than one table.",
            details={"field": "label"},
        )
    return [
        clean_label(pattern.replace(NUMBER, str(n)), field="label") for n in range(1, tables + 1)
    ]


def _check_open(event: Event | None) -> None:
    if event is not None:
        event.ensure_open(then="reopen it to schedule its matches.")


@transaction.atomic
def round_schedule(
    *,
    stage_id: int,
    round_number: int,
    first_start: datetime,
    interval_minutes: int = 0,
    tables: int | None = None,
    label: str = DEFAULT_PATTERN,
    time_zone: str | None = None,
    follow_on_minutes: int | Keep | None = UNCHANGED,
) -> Scheduled:
    """Give every match of a round still to be played a table and a start: the round's tables
    in the order of its round sheet, numbered 1, 2, ... (`label`'s `{n}`); with `tables` set,
    that many play at once and the next wave starts `interval_minutes` later, on the same
    tables again; without it every table of the round plays at once, each starting
    `interval_minutes` after the one before (0: all at `first_start`).

    With `follow_on_minutes`, every match the stage seats from then on (its next rounds, its
    bracket's later slots, and the stages fed by it) is scheduled as it is seated
    (`follow_on`): at the table its players left, starting that many minutes later; None
    stops that, and leaving it out keeps what the stage had.

    A naive `first_start` is wall-clock time in `time_zone`. Matches already started, finished
    or void keep what they had. Refused: a round the stage does not have (`no_such_round`),
    one with nothing left to play (`round_played`), a closed event, a bad label, zone or time."""
    zone = zone_named(time_zone)
    if not 0 <= interval_minutes <= MAX_INTERVAL_MINUTES:
        raise LeagueError(
            "invalid_interval",
            f"interval_minutes must be 0 to {MAX_INTERVAL_MINUTES}.",
            details={"field": "interval_minutes"},
        )
    if isinstance(follow_on_minutes, int) and not 0 <= follow_on_minutes <= MAX_INTERVAL_MINUTES:
        raise LeagueError(
            "invalid_interval",
            f"follow_on_minutes must be 0 to {MAX_INTERVAL_MINUTES}.",
            details={"field": "follow_on_minutes"},
        )
    if tables is not None and not 1 <= tables <= MAX_TABLES:
        raise LeagueError(
            "invalid_tables", f"tables must be 1 to {MAX_TABLES}.", details={"field": "tables"}
        )
    start = _check_start(local_start(first_start, zone), field="first_start")
    locks.event_of_stage_first(stage_id)
    stage = Stage.objects.select_related("event__league").get(pk=stage_id)
    _check_open(stage.event)
    slots = list(
        StageMatch.objects.filter(stage=stage, round=round_number, walkover=False)
        .exclude(match=None)
        .order_by("group", "slot", "pk")
        .values_list("match_id", flat=True)
    )
    if not slots:
        raise RoundNotFound(
            "no_such_round",
            f"{stage.name} has no tables in round {round_number}.",
            details={"stage": stage.pk, "round": round_number},
        )
    # Locked in id order, as every writer of matches locks them.
    locked = {
        m.pk: m for m in Match.objects.select_for_update().filter(pk__in=slots).order_by("pk")
    }
    ordered = [locked[pk] for pk in slots if pk in locked]
    open_matches = [m for m in ordered if m.status == MatchStatus.SCHEDULED]
    if not open_matches:
        raise StageConflict(
            "round_played",
            f"Every match of round {round_number} of {stage.name} has started or is over.",
            details={"stage": stage.pk, "round": round_number},
        )
    width = tables or len(open_matches)
    labels = _pattern(label, min(width, len(open_matches)))
    step = timedelta(minutes=interval_minutes)
    now = timezone.now()
    for index, match in enumerate(open_matches):
        if tables is None:
            table, wave = index, index
        else:
            table, wave = index % tables, index // tables
        match.table_label = labels[table]
        match.planned_at = start + wave * step
        match.planned_zone = zone
        match.schedule_changed_at = now
        match.schedule_sequence += 1
    Match.objects.bulk_update(open_matches, SCHEDULE_FIELDS)
    if not isinstance(follow_on_minutes, Keep):
        stage.follow_minutes = follow_on_minutes
        stage.follow_label = label
        stage.follow_zone = zone
        stage.save(update_fields=["follow_minutes", "follow_label", "follow_zone"])
    return Scheduled(
        stage=stage,
        round=round_number,
        matches=open_matches,
        skipped=[m.pk for m in ordered if m.status != MatchStatus.SCHEDULED],
    )


def follow_on(stage: Stage, match: Match, players: Sequence[int]) -> None:
    """Schedule `match`, just seated in `stage` for `players`, as the round it follows was
    (`round_schedule` with `follow_on_minutes`, on this stage or the stage that fed it): at the
    table of the match of the event one of its players finished last, when that table is free,
    else the lowest-numbered free table of the followed label pattern; and
    starting `follow_minutes` from now (the moment the round before it ended). Nothing when
    neither stage follows on."""
    rule = stage
    source = stage.source_stage_id
    if rule.follow_minutes is None and source is not None:
        rule = Stage.objects.only("follow_minutes", "follow_label", "follow_zone").get(pk=source)
    if rule.follow_minutes is None:
        return
    taken = set(
        Match.objects.filter(
            event_id=stage.event_id,
            status__in=OPEN_STATUSES,
        )
        .exclude(pk=match.pk)
        .exclude(table_label="")
        .values_list("table_label", flat=True)
    )
    left = (
        Match.objects.filter(
            event_id=stage.event_id, status=MatchStatus.FINISHED, seats__player_id__in=players
        )
        .exclude(table_label="")
        .order_by("-finished_at", "-pk")
        .values_list("table_label", flat=True)
        .first()
    )
    if left is None or left in taken:
        free = (
            label
            for number in range(1, MAX_TABLES + len(taken) + 2)
            if (label := rule.follow_label.replace(NUMBER, str(number))) not in taken
        )
        left = next(free)
    now = timezone.now()
    start = now + timedelta(minutes=rule.follow_minutes)
    whole_minute = start.replace(second=0, microsecond=0)
    match.table_label = left[:TABLE_LABEL_MAX]
    match.planned_at = (
        whole_minute if whole_minute == start else whole_minute + timedelta(minutes=1)
    )
    match.planned_zone = rule.follow_zone
    match.schedule_changed_at = now
    match.schedule_sequence += 1
    match.save(update_fields=SCHEDULE_FIELDS)


SCHEDULE_FIELDS = [
    "table_label",
    "planned_at",
    "planned_zone",
    "schedule_changed_at",
    "schedule_sequence",
]


@transaction.atomic
def match_schedule(
    *,
    match_id: int,
    table_label: str | Keep | None = UNCHANGED,
    planned_at: datetime | Keep | None = UNCHANGED,
    time_zone: str | Keep | None = UNCHANGED,
) -> Match:
    """Move one match: a new table (None or "" takes it off), a new start (None takes it
    off; naive: wall-clock time in its zone) or a new zone. Anything not given stays. A match
    that is finished or void is not moved (`match_closed`); one being played may change
    table (it moved) but not its start, which is past (`match_already_started`)."""
    locks.event_of_match_first(match_id)
    match = Match.objects.select_for_update(of=("self",)).select_related("event").get(pk=match_id)
    _check_open(match.event)
    if not match.is_open:
        raise MatchClosed(
            f"Match #{match.pk} is {match.get_status_display().lower()}: it is not scheduled "
            "any more.",
        )
    if not isinstance(time_zone, Keep):
        match.planned_zone = zone_named(time_zone)
    if not isinstance(table_label, Keep):
        match.table_label = clean_label(table_label) if table_label else ""
    if not isinstance(planned_at, Keep):
        if match.status != MatchStatus.SCHEDULED:
            raise MatchAlreadyStarted(
                f"Match #{match.pk} has started: its start time stays as it was.",
            )
        if planned_at is not None:
            match.planned_at = _check_start(
                local_start(planned_at, match.planned_zone), field="start"
            )
        else:
            match.planned_at = None
    match.schedule_changed_at = timezone.now()
    match.schedule_sequence += 1
    match.save(update_fields=SCHEDULE_FIELDS)
    return match
