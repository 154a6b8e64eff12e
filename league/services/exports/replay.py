"""One import's replay, step by step as the event was played, then compared with the file."""

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from games import services as game_services
from games.errors import MatchError
from games.models import Match, MatchStatus, Seat
from league.errors import ImportRefused
from league.models import (
    Event,
    ForfeitReason,
    League,
    StageEntry,
    StageMatch,
    StageStatus,
    StageVoid,
)
from league.services import stages as stage_services
from league.services.exports._common import (
    _order,
    _played_at,
    _time_of,
)
from league.services.exports.comparing import Comparison
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
from scoring import RuleViolation
from scoring.errors import DomainError


class _Replay(Comparison):
    """One import's replay: the file's ids to the new rows, step by step; then what it made
    compared with the file (`Comparison`)."""

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
