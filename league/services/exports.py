"""An event as one JSON file, and that file played again into an empty league.

`event_export` writes everything an event is: the league's game and settings, its players
(names and handles, nothing private), its stages with their entries, every match with every
turn as it stands (a corrected turn as corrected), and its standings computed afresh. The file
follows `league/schemas/event-export.schema.json` (docs/api.md, "Event export and import").

`event_import` replays such a file through the services, as if the event were played again:
it creates the players (on the league's roster), the event and its stages (each seeded as the
file lists its entries; a fed stage in draft that was started once keeps the entries the file
lists for it, who withdrew too), starts each stage, plays each match at the point in time it was
played (by its times in the file), turn by turn through the rulebook, and withdraws players and
voids stage matches when they were (with the outcome chosen then; a withdrawal from a stage
that had finished marks the entry, as `event_withdraw` did), so every draw, bracket move and
table follows from play as it did the first time. Then it compares each stage and match it
made (options, result, seats, turns' points) and every table of the new event with the file's:
the import stands only if each matches, else nothing is kept. It is one transaction: a bad
file, a foreign one or a replay that does not give the file's results changes nothing."""

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import Any, Final

import jsonschema
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import services as game_services
from games.errors import MatchError
from games.limits import turn_limit
from games.models import Match, MatchStatus, Seat, Turn
from league.errors import ImportRefused, LeagueConflict, LeagueError
from league.models import (
    Event,
    ForfeitReason,
    League,
    Player,
    Stage,
    StageBye,
    StageEntry,
    StageForfeit,
    StageMatch,
    StageStatus,
    StageVoid,
    StandingsScope,
)
from league.services import stages as stage_services
from league.services.organization import (
    CLOSED_STATUSES,
    NUMBERED_BASE,
    NewPlayer,
    event_close,
    event_create,
    event_reopen,
    free_handle,
    handles_in_use,
    league_update,
    match_create,
    players_create,
)
from league.services.standings_refresh import compute_rows
from scoring import RuleViolation
from scoring.errors import DomainError
from scoring.json_input import brief

FORMAT: Final = "yard-league/event-export"
VERSION: Final = 1
SCHEMA_PATH: Final = Path(__file__).resolve().parent.parent / "schemas" / "event-export.schema.json"


def _brief_unless_number(value: object) -> object:
    """A value a refusal's details give back: a number as it is, anything else cut short
    (`brief`: a file's field may be any size)."""
    return value if isinstance(value, int | float) else brief(value)


@cache
def export_schema() -> dict[str, Any]:
    """The JSON Schema every export follows and every import is checked against."""
    schema: dict[str, Any] = json.loads(SCHEMA_PATH.read_text())
    return schema


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


# --- Export ---------------------------------------------------------------------------------------


def event_export(*, event: Event) -> dict[str, Any]:
    """The event as the export file has it (a dict ready for JSON)."""
    league = event.league
    stages = list(event.stages.order_by("position", "pk"))
    stage_matches = {
        sm.match_id: sm for sm in StageMatch.objects.filter(stage__event=event, match__isnull=False)
    }
    # A stage match voided (also for a forfeit) left its slot: it still belongs to the stage.
    reasons = {
        (f.stage_match_id, f.player_id): f.reason
        for f in StageForfeit.objects.filter(stage_match__stage__event=event)
    }
    voids: dict[int, list[dict[str, Any]]] = {stage.pk: [] for stage in stages}
    for void in (
        StageVoid.objects.filter(stage_match__stage__event=event)
        .select_related("stage_match")
        .order_by("created_at", "pk")
    ):
        stage_matches.setdefault(void.match_id, void.stage_match)
        voids[void.stage_match.stage_id].append(
            {
                "match": void.match_id,
                "outcome": void.outcome,
                "forfeits": list(void.forfeits),
                "reason": next(
                    (
                        reasons[key]
                        for p in void.forfeits
                        if (key := (void.stage_match_id, p)) in reasons
                    ),
                    None,
                ),
                "created_at": void.created_at.isoformat(),
            }
        )
    forfeits: dict[int, list[dict[str, Any]]] = {stage.pk: [] for stage in stages}
    for forfeit in (
        StageForfeit.objects.filter(stage_match__stage__event=event)
        .select_related("stage_match")
        .order_by("created_at", "pk")
    ):
        forfeits[forfeit.stage_match.stage_id].append(
            {
                "player": forfeit.player_id,
                "reason": forfeit.reason,
                "round": forfeit.stage_match.round,
                "slot": forfeit.stage_match.slot or None,
            }
        )
    matches = list(
        Match.objects.filter(event=event).order_by("created_at", "pk").prefetch_related("seats")
    )
    turns: dict[int, list[Turn]] = {match.pk: [] for match in matches}
    for turn in (
        Turn.objects.filter(match__event=event).select_related("seat").order_by("match", "sequence")
    ):
        turns[turn.match_id].append(turn)
    player_ids = {seat.player_id for match in matches for seat in match.seats.all()}
    entries: dict[int, list[StageEntry]] = {stage.pk: [] for stage in stages}
    for entry in StageEntry.objects.filter(stage__event=event).order_by("stage", "seed"):
        entries[entry.stage_id].append(entry)
        player_ids.add(entry.player_id)
    byes: dict[int, list[StageBye]] = {stage.pk: [] for stage in stages}
    for bye in StageBye.objects.filter(stage__event=event).order_by("stage", "round", "player"):
        byes[bye.stage_id].append(bye)
    players = Player.objects.filter(pk__in=player_ids).order_by("pk")
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "league": {
            "slug": league.slug,
            "name": league.name,
            "game": league.game,
            "rules": league.rules,
            "tiebreak": league.tiebreak,
            "points": league.points,
        },
        "event": {
            "id": event.pk,
            "name": event.name,
            "date": event.date.isoformat(),
            "venue": event.venue,
            "status": event.status,
            "rules": event.rules,
        },
        "players": [
            {"id": p.pk, "display_name": p.display_name, "handle": p.handle} for p in players
        ],
        "stages": [
            {
                **_stage_json(stage, entries[stage.pk], byes[stage.pk]),
                "forfeits": forfeits[stage.pk],
                "voids": voids[stage.pk],
            }
            for stage in stages
        ],
        "matches": [
            _match_json(match, stage_matches.get(match.pk), turns[match.pk]) for match in matches
        ],
        "standings": {
            "event": _table_json((StandingsScope.EVENT.value, event.pk)),
            "stages": [
                {"stage": stage.pk, **_table_json((StandingsScope.STAGE.value, stage.pk))}
                for stage in stages
            ],
        },
    }


def _stage_json(stage: Stage, entries: list[StageEntry], byes: list[StageBye]) -> dict[str, Any]:
    return {
        "id": stage.pk,
        "position": stage.position,
        "name": stage.name,
        "format": stage.format,
        "status": stage.status,
        "table_size": stage.table_size,
        "advance": stage.advance,
        "rounds": stage.rounds,
        "groups": stage.groups,
        "seeding": stage.seeding,
        "third_place": stage.third_place,
        "grand_final_reset": stage.grand_final_reset,
        "tiebreak": stage.tiebreak,
        "points": stage.points,
        "source_stage": stage.source_stage_id,
        "source_top": stage.source_top,
        "source_per_group": stage.source_per_group,
        "source_best_rest": stage.source_best_rest,
        "entries": [
            {
                "player": entry.player_id,
                "seed": entry.seed,
                "group": entry.group,
                "withdrawn": entry.withdrawn_at is not None,
                "withdrawn_at": _time(entry.withdrawn_at),
            }
            for entry in entries
        ],
        "byes": [{"round": bye.round, "player": bye.player_id} for bye in byes],
        "ranking": stage.ranking,
        "group_ranking": stage.group_ranking,
        "started_at": _time(stage.started_at),
        "finished_at": _time(stage.finished_at),
    }


def _match_json(match: Match, stage_match: StageMatch | None, turns: list[Turn]) -> dict[str, Any]:
    return {
        "id": match.pk,
        "game": match.game,
        "rules": match.rules,
        "status": match.status,
        "stage": stage_match.stage_id if stage_match else None,
        "round": stage_match.round if stage_match else None,
        "group": stage_match.group if stage_match else None,
        "slot": (stage_match.slot or None) if stage_match else None,
        "walkover": stage_match.walkover if stage_match else False,
        "seats": [
            {
                "player": seat.player_id,
                "order": seat.order,
                "total": seat.total,
                "placement": seat.placement,
            }
            for seat in sorted(match.seats.all(), key=lambda seat: seat.order)
        ],
        "created_at": match.created_at.isoformat(),
        "started_at": _time(match.started_at),
        "finished_at": _time(match.finished_at),
        "turns": [
            {
                "sequence": turn.sequence,
                "player": turn.seat.player_id,
                "payload": turn.payload,
                "points": turn.points,
                "bonus": turn.bonus,
                "submitted_at": turn.submitted_at.isoformat(),
            }
            for turn in turns
        ],
        "pad": match.pad,
    }


def _table_json(scope: tuple[str, int]) -> dict[str, Any]:
    """A table computed from the results now (never a stored one still pending)."""
    tiebreak, rows = compute_rows(scope)
    return {"tiebreak": tiebreak, "rows": rows}


# --- Import ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EventImport:
    """What an import made: the new event, and the new id of each player and match of the file
    (by its id there)."""

    event: Event
    players: dict[int, int]
    matches: dict[int, int]


def check_export(data: object) -> dict[str, Any]:
    """The file as a dict, once it is an event export this server reads (LeagueError, 400,
    otherwise): `not_an_event_export` (not a JSON object, or no `format` of ours),
    `unsupported_export_version`, `invalid_export` (the schema's first complaint, with where in
    the file: `details.path`), or ids that refer to nothing in the file."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LeagueError(
            "not_an_event_export",
            f'This is not an event export: its "format" must be "{FORMAT}".',
            details={"field": "format"},
        )
    if data.get("version") != VERSION:
        raise LeagueError(
            "unsupported_export_version",
            f"This server reads version {VERSION} of event exports, not "
            f"{brief(data.get('version'))}.",
            details={"field": "version", "version": _brief_unless_number(data.get("version"))},
        )
    validator = jsonschema.Draft202012Validator(export_schema(), format_checker=FORMATS)
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is not None:
        path = "/".join(str(part) for part in error.absolute_path)
        raise LeagueError(
            "invalid_export",
            f"The file does not follow the event export schema at /{path}: {error.message}",
            details={"path": f"/{path}"},
        )
    _check_references(data)
    return data


# The schema's formats, "date-time" among them: jsonschema checks it only with an optional
# package this project does not install, so it is checked here as the replay reads it (an
# ISO 8601 time the standard library reads, with its offset: times of the file are compared).
FORMATS: Final = jsonschema.FormatChecker()


@FORMATS.checks("date-time", raises=ValueError)
def _is_date_time(value: object) -> bool:
    if not isinstance(value, str):
        return True  # the type is the schema's to check
    return datetime.fromisoformat(value).tzinfo is not None


def _check_references(data: dict[str, Any]) -> None:
    players = {player["id"] for player in data["players"]}
    stages = {stage["id"] for stage in data["stages"]}

    def refused(where: str, message: str) -> LeagueError:
        return LeagueError("invalid_export", message, details={"path": where})

    if len(players) != len(data["players"]):
        raise refused("/players", "Two players of the file have the same id.")
    if len(stages) != len(data["stages"]):
        raise refused("/stages", "Two stages of the file have the same id.")
    # Stages are made in the order of their positions: one is fed by a stage made before it.
    made: set[int] = set()
    for stage in sorted(data["stages"], key=lambda s: s["position"]):
        number = data["stages"].index(stage)
        if stage["source_stage"] is not None and stage["source_stage"] not in made:
            raise refused(
                f"/stages/{number}/source_stage",
                "It names no stage of the file before this one (by position).",
            )
        made.add(stage["id"])
    for number, stage in enumerate(data["stages"]):
        for entry in stage["entries"]:
            if entry["player"] not in players:
                raise refused(f"/stages/{number}/entries", f"Player {entry['player']} is unknown.")
    matches = {match["id"]: match for match in data["matches"]}
    for number, stage in enumerate(data["stages"]):
        for void in stage["voids"]:
            voided = matches.get(void["match"])
            if voided is None or voided["stage"] != stage["id"]:
                raise refused(f"/stages/{number}/voids", f"Match {void['match']} is unknown.")
            if any(p not in players for p in void["forfeits"]):
                raise refused(f"/stages/{number}/voids", "A forfeit names an unknown player.")
    seen: set[int] = set()
    for number, match in enumerate(data["matches"]):
        if match["id"] in seen:
            raise refused(f"/matches/{number}/id", "Two matches of the file have the same id.")
        seen.add(match["id"])
        if match["stage"] is not None and match["stage"] not in stages:
            raise refused(f"/matches/{number}/stage", "It names no stage of the file.")
        for seat in match["seats"]:
            if seat["player"] not in players:
                raise refused(f"/matches/{number}/seats", f"Player {seat['player']} is unknown.")
        if match["game"] != data["league"]["game"]:
            raise refused(f"/matches/{number}/game", "A match of another game than the league's.")
        _check_turns(match, number, refused)
        if match.get("pad") is not None and match["turns"]:
            raise refused(
                f"/matches/{number}/pad",
                "A match entered from its paper pad has no turns: the file gives both.",
            )
    # An export lists the players its matches seat and its stages enter, and no one else.
    seated = {seat["player"] for match in data["matches"] for seat in match["seats"]}
    entered = {entry["player"] for stage in data["stages"] for entry in stage["entries"]}
    unseated = sorted(players - seated - entered)
    if unseated:
        raise LeagueError(
            "invalid_export",
            f"{len(unseated)} player{'s' if len(unseated) > 1 else ''} of the file "
            f"(first: {unseated[0]}) play in no match and enter no stage of it: an export lists "
            "only the players of its event.",
            details={"path": "/players", "players": unseated[:20]},
        )


def _check_turns(
    match: Mapping[str, Any], number: int, refused: Callable[[str, str], LeagueError]
) -> None:
    """A match's turns are numbered 1, 2, 3, ... and are at most as many as its game takes
    (`games.limits`): an import's replay costs what the file's turns cost, and no more."""
    sequences = sorted(turn["sequence"] for turn in match["turns"])
    if sequences != list(range(1, len(sequences) + 1)):
        raise refused(
            f"/matches/{number}/turns",
            "The turns of a match are numbered 1, 2, 3, ..., each once.",
        )
    rules = match["rules"] if isinstance(match["rules"], dict) else {}
    limit = turn_limit(match["game"], len(match["seats"]), rules)
    if len(sequences) > limit:
        error = refused(
            f"/matches/{number}/turns",
            f"Match {match['id']} has {len(sequences)} turns; a game of {match['game']} with "
            f"{len(match['seats'])} players takes at most {limit}.",
        )
        error.details["limit"] = limit
        raise error


def _time_of(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value is not None else None


def _played_at(match: Mapping[str, Any]) -> datetime:
    """When a match counts as played in the replay: its finish, else its last turn, else when it
    was seated."""
    if match["finished_at"] is not None:
        return datetime.fromisoformat(match["finished_at"])
    if match["turns"]:
        return datetime.fromisoformat(match["turns"][-1]["submitted_at"])
    return datetime.fromisoformat(match["created_at"])


def ensure_importable(league: League, export: Mapping[str, Any]) -> None:
    """The league takes this export: it has no event or match yet (409 `league_not_empty`)
    and plays the file's game (400 `wrong_game`)."""
    if league.game_is_settled():
        raise LeagueConflict(
            "league_not_empty",
            f"{league.name} already has events or matches: an event is imported into an empty "
            "league, so that its tables are the file's.",
            details={"league": league.slug},
        )
    if export["league"]["game"] != league.game:
        raise LeagueError(
            "wrong_game",
            f"The file is an event of {export['league']['game']}; {league.name} plays "
            f"{league.game}.",
            details={"league_game": league.game, "file_game": export["league"]["game"]},
        )


@transaction.atomic
def event_import(*, league: League, data: object, by: User | None = None) -> EventImport:
    """Play an exported event again in `league`, which has no event or match yet (409
    `league_not_empty` otherwise) and plays the file's game (400 `wrong_game`). The league takes
    the file's rules, tiebreak order and points (so its tables rank as the original's did).
    All or nothing: see the module's docstring for the errors."""
    export = check_export(data)
    league = League.objects.select_for_update().get(pk=league.pk)
    ensure_importable(league, export)
    settings = export["league"]
    league = league_update(
        league=league,
        rules=settings["rules"],
        tiebreak=settings["tiebreak"],
        points=settings["points"],
    )
    replay = _Replay(league=league, export=export, by=by)
    replay.run()
    return EventImport(event=replay.event, players=replay.players, matches=replay.matches)


class _Replay:
    """One import's replay: the file's ids to the new rows, step by step."""

    def __init__(self, *, league: League, export: dict[str, Any], by: User | None) -> None:
        self.league = league
        self.export = export
        self.by = by
        self.players: dict[int, int] = {}
        self.matches: dict[int, int] = {}
        self.stages: dict[int, int] = {}
        self.event = Event(league=league)

    def run(self) -> None:
        self._create_players()
        source = self.export["event"]
        self.event = event_create(
            league=self.league,
            name=source["name"],
            date=date.fromisoformat(source["date"]),
            venue=source["venue"],
            rules=source["rules"],
        )
        for stage in sorted(self.export["stages"], key=lambda s: s["position"]):
            self._create_stage(stage)
        for _, _, step, item in sorted(self._steps(), key=lambda s: (s[0], s[1])):
            # The event finishes by itself once its stages and matches are over; a step after
            # that was taken once the original's organizers had reopened it: so here too.
            self._reopen()
            if step == "start":
                self._start(item)
            elif step == "withdraw":
                self._withdraw(item)
            elif step == "void":
                self._void(item)
            elif step == "begin":
                self._play(item, turns=1)
            else:
                self._play(item)
        if Event.objects.get(pk=self.event.pk).status != source["status"]:
            self._reopen()  # finished by itself, the original's was reopened, or is cancelled
            if source["status"] in CLOSED_STATUSES:
                self.event = event_close(event_id=self.event.pk, status=source["status"])
        if self.league.points != self.export["league"]["points"]:
            self.league = league_update(league=self.league, points=self.export["league"]["points"])
        self._compare_results()
        self._compare_tables()
        self.event.refresh_from_db()

    def _reopen(self) -> None:
        if Event.objects.filter(pk=self.event.pk, status__in=CLOSED_STATUSES).exists():
            self.event = event_reopen(event_id=self.event.pk)

    # Players, the event, its stages

    def _create_players(self) -> None:
        rows = self.export["players"]
        # Lowercased, as handles are taken in any case of their letters (`handles_in_use`).
        taken = handles_in_use([row["handle"] for row in rows])
        if taken:  # the handles "-2", "-3", ... could take instead, in one more query
            taken |= handles_in_use([], [f"{handle[:NUMBERED_BASE]}-" for handle in taken])
        wanted: list[NewPlayer] = []
        for row in rows:
            handle = free_handle(row["handle"], taken)  # one in use here gets "-2", "-3", ...
            taken.add(handle.lower())
            wanted.append(
                NewPlayer(row=len(wanted) + 1, display_name=row["display_name"], handle=handle)
            )
        created = players_create(league=self.league, players=wanted)
        self.players = {row["id"]: player.pk for row, player in zip(rows, created, strict=True)}

    def _create_stage(self, stage: dict[str, Any]) -> None:
        fed = stage["source_stage"] is not None
        entries = sorted(stage["entries"], key=lambda e: e["seed"])
        created = stage_services.stage_create(
            event_id=self.event.pk,
            name=stage["name"],
            format=stage["format"],
            # Seeded as the file lists the entries: the draw is the original's.
            player_ids=[] if fed else [self.players[e["player"]] for e in entries],
            table_size=stage["table_size"],
            advance=stage["advance"],
            rounds=stage["rounds"],
            groups=stage["groups"],
            seeding="manual",
            third_place=stage["third_place"],
            grand_final_reset=stage["grand_final_reset"],
            tiebreak=stage["tiebreak"],
            source_stage_id=self.stages[stage["source_stage"]] if fed else None,
            source_top=stage["source_top"],
            source_per_group=stage["source_per_group"],
            source_best_rest=stage["source_best_rest"],
        )
        self.stages[stage["id"]] = created.pk
        if fed and stage["status"] == StageStatus.DRAFT and entries:
            # Started once and back to draft since: the entries its start took, kept as the
            # file lists them (who withdrew too) until it starts again.
            stage_services.draft_entries_keep(
                stage_id=created.pk,
                entries=[
                    stage_services.KeptEntry(
                        player_id=self.players[e["player"]],
                        seed=e["seed"],
                        group=e["group"],
                        withdrawn_at=_time_of(e["withdrawn_at"])
                        or (timezone.now() if e["withdrawn"] else None),
                    )
                    for e in entries
                ],
            )

    def _steps(self) -> Iterable[tuple[datetime, int, str, dict[str, Any]]]:
        """Each stage start and each match, at its time; at the same time a start comes first.
        A match of more than one turn begins (its first turn) at that turn's time: what
        happened while it was being played (a withdrawal leaves it alone) finds it so."""
        starts: dict[int, datetime] = {}
        for stage in self.export["stages"]:
            started = _time_of(stage["started_at"])
            if stage["status"] != StageStatus.DRAFT and started is not None:
                starts[stage["id"]] = started
                yield started, 0, "start", stage
        played: dict[int, datetime] = {}
        for match in self.export["matches"]:
            # A stage match is seated by its stage's start (before `started_at` is stored).
            at = _played_at(match)
            played[match["id"]] = max(at, starts.get(match["stage"], at))
            if len(match["turns"]) > 1:
                first = min(match["turns"], key=lambda t: t["sequence"])
                begun = max(
                    datetime.fromisoformat(first["submitted_at"]), starts.get(match["stage"], at)
                )
                # Never after its finish (a file's times may say otherwise).
                yield min(begun, played[match["id"]]), 1, "begin", match
            yield played[match["id"]], 1, "play", match
        for stage in self.export["stages"]:
            for entry in stage["entries"]:
                withdrawn = _time_of(entry["withdrawn_at"])
                if withdrawn is not None and stage["id"] in starts:
                    # Never before the stage's start (a file's times may say otherwise).
                    at = max(withdrawn, starts[stage["id"]])
                    yield at, 2, "withdraw", {"stage": stage["id"], **entry}
            for void in stage["voids"]:
                # A withdrawal's forfeits are its own: stage_withdraw makes them again.
                if void["reason"] != ForfeitReason.WITHDREW:
                    # Never before its match is seated (a file's times may say otherwise).
                    at = max(datetime.fromisoformat(void["created_at"]), played[void["match"]])
                    yield at, 2, "void", void

    def _start(self, stage: dict[str, Any]) -> None:
        points = stage["points"] or self.export["league"]["points"]
        if points != self.league.points:  # the scheme it was started under is kept by the stage
            self.league = league_update(league=self.league, points=points)
        started = stage_services.stage_start(stage_id=self.stages[stage["id"]])
        seeded = list(
            StageEntry.objects.filter(stage=started)
            .order_by("seed")
            .values_list("player_id", "group")
        )
        wanted = [
            (self.players[e["player"]], e["group"])
            for e in sorted(stage["entries"], key=lambda e: e["seed"])
        ]
        if seeded != wanted:
            raise ImportRefused(
                "import_mismatch",
                f"Stage {stage['name']!r} did not take the players, seeds and groups the file "
                "lists: the file's results cannot be replayed.",
                details={"stage": stage["id"]},
            )

    # Matches

    def _play(self, match: dict[str, Any], turns: int | None = None) -> None:
        """Seat the match (unless it has begun) and submit its turns not submitted yet: all of
        them, or up to `turns` of them (its beginning)."""
        if match["id"] in self.matches:
            seated = Match.objects.get(pk=self.matches[match["id"]])
        else:
            seated = self._seat(match)
            self.matches[match["id"]] = seated.pk
        chunk = sorted(match["turns"], key=lambda t: t["sequence"])[seated.turns_played : turns]
        payloads = [self._payload(turn) for turn in chunk]
        if payloads:
            # All of them under one lock, in one statement: linear in the turns of the file.
            try:
                game_services.turns_submit(match_id=seated.pk, turns=payloads, submitted_by=self.by)
            except (RuleViolation, MatchError) as refused:
                sequence = refused.details.get("turn", seated.turns_played + 1)
                raise ImportRefused(
                    "import_mismatch",
                    f"Match {match['id']} cannot be replayed: {refused.message}",
                    details={
                        "match": match["id"],
                        "turn": sequence,
                        "refused": refused.to_json(),
                    },
                ) from refused
        if turns is None and match.get("pad") is not None and not seated.turns_played:
            self._from_pad(match, seated)
        if turns is None and match["status"] == MatchStatus.VOID and match["stage"] is None:
            game_services.match_void(match_id=seated.pk, voided_by=self.by)
        # A stage match is voided at the time of its void (a step of its own).

    def _from_pad(self, match: dict[str, Any], seated: Match) -> None:
        """A result entered from the paper pad, entered again from the file's pad."""
        if seated.status != MatchStatus.SCHEDULED:
            return
        try:
            game_services.scorecard_submit(
                match_id=seated.pk, pad=match["pad"], submitted_by=self.by
            )
        except DomainError as refused:
            raise ImportRefused(
                "import_mismatch",
                f"Match {match['id']} cannot be entered from its pad: {refused.message}",
                details={"match": match["id"], "refused": refused.to_json()},
            ) from refused

    def _payload(self, turn: Mapping[str, Any]) -> Any:
        """The turn as the file has it, naming its player by the new id."""
        payload = dict(turn["payload"])
        named = payload.get("player")
        if isinstance(named, int) and not isinstance(named, bool):
            payload["player"] = self.players.get(named, named)
        return payload

    def _seat(self, match: dict[str, Any]) -> Match:
        seats = [self.players[seat["player"]] for seat in sorted(match["seats"], key=_order)]
        if match["stage"] is None:
            return match_create(
                game=match["game"],
                player_ids=seats,
                rules=match["rules"],
                event=self.event,
                created_by=self.by,
            )
        return self._drawn(match, seats)

    def _withdraw(self, entry: dict[str, Any]) -> None:
        """A player's withdrawal from a stage: from one still to finish, `stage_withdraw`; from
        a finished one (an event withdrawal), their entry is marked, as the original's was
        (`entry_withdraw`). A forfeit it makes again that the file does not list (its void was
        taken back since, and the match left to be played) is taken back here too."""
        withdrawal = stage_services.entry_withdraw(
            stage_id=self.stages[entry["stage"]],
            player_id=self.players[entry["player"]],
            by=self.by,
        )
        if withdrawal is None:
            return
        matches = {match["id"]: match for match in self.export["matches"]}
        stage = next(s for s in self.export["stages"] if s["id"] == entry["stage"])
        listed = {
            self._slot_of(matches[void["match"]])
            for void in stage["voids"]
            if void["reason"] == ForfeitReason.WITHDREW
        }
        decided = [*withdrawal.walkovers, *(r["stage_match"] for r in withdrawal.replayed)]
        made: dict[int, StageVoid] = {}
        for void in StageVoid.objects.filter(stage_match_id__in=decided).order_by(
            "created_at", "pk"
        ):
            made[void.stage_match_id] = void  # a slot's latest void: the withdrawal's
        for void in made.values():
            stage_match = StageMatch.objects.get(pk=void.stage_match_id)
            seats = Seat.objects.filter(match_id=void.match_id).order_by("order")
            slot = (
                stage_match.round,
                stage_match.group,
                stage_match.slot,
                tuple(seats.values_list("player_id", flat=True)),
            )
            if slot not in listed:
                game_services.match_unvoid(match_id=void.match_id, unvoided_by=self.by)

    def _slot_of(self, match: Mapping[str, Any]) -> tuple[int, int, str, tuple[int, ...]]:
        """Where a stage match of the file sits (round, group, bracket slot) and who at it, in
        seat order, by their new ids."""
        return (
            match["round"],
            match["group"],
            match["slot"] or "",
            tuple(self.players[seat["player"]] for seat in sorted(match["seats"], key=_order)),
        )

    def _void(self, void: dict[str, Any]) -> None:
        """A stage match voided by an organizer or for a no-show, with what was done with its
        slot; a replay or a table playing on is seated by the service as it was."""
        then: dict[str, Any] = {"outcome": void["outcome"]}
        if void["forfeits"]:
            then["forfeits"] = [self.players[p] for p in void["forfeits"]]
        if void["reason"] is not None:
            then["reason"] = void["reason"]
        game_services.match_void(match_id=self.matches[void["match"]], voided_by=self.by, then=then)

    def _drawn(self, match: dict[str, Any], seats: Sequence[int]) -> Match:
        """The match the stage's draw seated where the file has it, with the same players in
        the same order (ImportRefused otherwise)."""
        candidates = StageMatch.objects.filter(
            stage_id=self.stages[match["stage"]],
            round=match["round"],
            group=match["group"],
            slot=match["slot"] or "",
            match__status=MatchStatus.SCHEDULED,
        ).select_related("match")
        for candidate in candidates:
            assert candidate.match is not None  # noqa: S101 - the filter above
            order = list(
                Seat.objects.filter(match=candidate.match)
                .order_by("order")
                .values_list("player_id", flat=True)
            )
            if order == list(seats):
                return candidate.match
        raise ImportRefused(
            "import_mismatch",
            f"The draw did not seat match {match['id']} of the file (round {match['round']}"
            f"{', slot ' + match['slot'] if match['slot'] else ''}) with its players: the file's "
            "results cannot be replayed.",
            details={"match": match["id"]},
        )

    # The result

    def _compare_results(self) -> None:
        """Every stage and match of the new event, written as an export, against the file's:
        what the replay made of them (a stage's options, status, ranking, byes and forfeits; a
        match's rules, status, place in its stage, seats with their totals and placements, and
        each turn's points) must be what the file says, else the file was changed by hand and
        is not imported as if it had been (`import_mismatch`, `details.path`: where in the
        file)."""
        replayed = event_export(event=Event.objects.get(pk=self.event.pk))
        stages = {self.stages[stage["id"]]: stage for stage in self.export["stages"]}
        for stage in replayed["stages"]:
            original = stages[stage["id"]]
            where = f"/stages/{self.export['stages'].index(original)}"
            self._same(where, original, stage, STAGE_FIELDS)
            if original["status"] != StageStatus.DRAFT:  # the scheme its start kept
                self._same(where, original, stage, ["points"])
            self._same(where, original, stage, {"ranking": self._tiers})
            self._same(where, original, stage, {"group_ranking": self._group_tiers})
            self._same(
                where, original, stage, {"byes": self._with_players, "forfeits": self._with_players}
            )
        by_new = {new: old for old, new in self.matches.items()}
        matches = {match["id"]: (n, match) for n, match in enumerate(self.export["matches"])}
        for match in replayed["matches"]:
            if match["id"] not in by_new:
                raise ImportRefused(
                    "import_mismatch",
                    "Replayed, the event has a match the file does not list: the file's results "
                    "cannot be replayed.",
                    details={"path": "/matches"},
                )
            number, original = matches[by_new[match["id"]]]
            where = f"/matches/{number}"
            self._same(where, original, match, MATCH_FIELDS)
            self._same(where, original, match, {"stage": self._stage, "seats": self._seats})
            turns = [self._turn(t) for t in original["turns"]]
            if sorted(turns, key=_first) != [_turn_result(t) for t in match["turns"]]:
                self._mismatch(f"{where}/turns", "its turns' points")

    def _same(
        self,
        where: str,
        original: Mapping[str, Any],
        replayed: Mapping[str, Any],
        fields: Iterable[str] | Mapping[str, Any],
    ) -> None:
        """Each of `fields` of the file's row (mapped to the new ids by the callable given for
        it) is the replay's."""
        mapping = fields if isinstance(fields, Mapping) else dict.fromkeys(fields)
        for field, mapped in mapping.items():
            value = original[field] if mapped is None else mapped(original[field])
            if value != replayed[field]:
                self._mismatch(f"{where}/{field}", f"its {field.replace('_', ' ')}")

    def _mismatch(self, path: str, what: str) -> None:
        raise ImportRefused(
            "import_mismatch",
            f"Replayed, {what} at {path} differs from the file's: the file was changed after "
            "it was exported, and its results cannot be replayed.",
            details={"path": path},
        )

    def _player(self, player: Any) -> Any:
        return self.players.get(player, -1) if _is_id(player) else player

    def _tiers(self, tiers: Any) -> Any:
        if not isinstance(tiers, list):
            return tiers
        return [[self._player(p) for p in tier] for tier in tiers]

    def _group_tiers(self, groups: Any) -> Any:
        if not isinstance(groups, dict):
            return groups
        return {group: self._tiers(tiers) for group, tiers in groups.items()}

    def _with_players(self, rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """Rows of the file (byes, forfeits, seats) with their players' new ids."""
        return [self._mapped_row(row) for row in rows]

    def _stage(self, stage: Any) -> Any:
        return None if stage is None else self.stages.get(stage, -1)

    def _seats(self, seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return self._with_players(sorted(seats, key=_order))

    def _turn(self, turn: Mapping[str, Any]) -> tuple[Any, ...]:
        return _turn_result({**turn, "player": self._player(turn["player"])})

    def _compare_tables(self) -> None:
        """Every table of the new event, computed from its results, against the file's."""
        expected = self.export["standings"]
        tables = [((StandingsScope.EVENT.value, self.event.pk), expected["event"], "event")]
        tables += [
            (
                (StandingsScope.STAGE.value, self.stages[table["stage"]]),
                table,
                f"stage {table['stage']}",
            )
            for table in expected["stages"]
            if table["stage"] in self.stages
        ]
        for scope, table, name in tables:
            tiebreak, rows = compute_rows(scope)
            wanted = self._with_players(table["rows"])
            if tiebreak != table["tiebreak"] or _comparable(rows) != _comparable(wanted):
                raise ImportRefused(
                    "import_mismatch",
                    f"Replayed, the {name} table differs from the file's: the file's standings "
                    "do not follow from its matches.",
                    details={"table": name},
                )

    def _mapped_row(self, row: Mapping[str, Any]) -> dict[str, Any]:
        return {**row, "player": self._player(row["player"])}


# What the replay must give as the file has it (besides the tables): a stage's options and
# outcome, a match's rules, result and place in its stage.
STAGE_FIELDS: Final = (
    "name",
    "format",
    "status",
    "table_size",
    "advance",
    "rounds",
    "groups",
    "third_place",
    "grand_final_reset",
    "tiebreak",
    "source_top",
    "source_per_group",
    "source_best_rest",
)
MATCH_FIELDS: Final = ("game", "rules", "status", "round", "group", "slot", "walkover")


def _is_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _turn_result(turn: Mapping[str, Any]) -> tuple[Any, ...]:
    """A turn as its result: its number, whose it is, its points and bonus."""
    return (turn["sequence"], turn["player"], turn["points"], turn["bonus"])


def _first(row: tuple[Any, ...]) -> Any:
    return row[0]


def _order(seat: Mapping[str, Any]) -> int:
    return int(seat["order"])


def _comparable(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    return sorted(json.dumps(row, sort_keys=True) for row in rows)


__all__ = [
    "FORMAT",
    "VERSION",
    "EventImport",
    "check_export",
    "event_export",
    "event_import",
    "export_schema",
]
