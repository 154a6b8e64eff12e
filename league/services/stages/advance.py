"""A running stage brought up to date with its results (`stage_advance`; `_advance`, which every
write that decides a slot calls), and what each format does (`FORMATS`): the formats run the
advance and the advance runs the formats, so they live together."""

import itertools
from collections import defaultdict
from collections.abc import Iterable, Sequence

from django.db import transaction
from django.utils import timezone

from games import services as game_services
from games.models import MatchStatus
from league import draw, signals, standings
from league.models import (
    ForfeitReason,
    Stage,
    StageBye,
    StageEntry,
    StageForfeit,
    StageFormat,
    StageMatch,
    StageStatus,
    StandingsScope,
)
from league.services.organization import event_play_over, ruleset_for_event
from league.services.schedule import follow_on
from league.services.stages._common import _held, _locked, withdrawn_players
from league.services.standings_refresh import compute_table


def _seat(
    stage: Stage,
    players: Sequence[int],
    *,
    round_: int,
    group: int = 1,
    slot: str = "",
    follow: bool = True,
) -> StageMatch:
    """Seat `players` at a new match of the stage; scheduled at once where the stage follows
    on (`schedule.follow_on`), and announced as ready to play (`signals.match_ready`), unless
    `follow` is False (a round robin's rounds after its first, all seated when it starts, long
    before they are played: their players hear of them as their start nears, once scheduled)."""
    match = game_services.match_create(
        game=stage.event.league.game,
        player_ids=players,
        rules=ruleset_for_event(stage.event),
        event_id=stage.event_id,
        league_id=stage.event.league_id,
    )
    if follow:
        follow_on(stage, match, players)
        # Its players are known and it is played next: it is ready to play (notifications,
        # webhooks), once this commits.
        signals.send_on_commit(signals.match_ready, StageMatch, match_id=match.pk)
    return StageMatch.objects.create(stage=stage, match=match, round=round_, group=group, slot=slot)


def _seat_round(stage: Stage, round_: draw.Round, *, group: int = 1, follow: bool = True) -> None:
    for table in round_.tables:
        _seat(stage, table.players, round_=round_.number, group=group, follow=follow)
    StageBye.objects.bulk_create(
        StageBye(stage=stage, round=round_.number, player_id=player) for player in round_.byes
    )


# --- Advance ----------------------------------------------------------------------------------


def _stage_matches(stage: Stage) -> list[StageMatch]:
    return list(
        StageMatch.objects.filter(stage=stage)
        .select_related("match")
        .prefetch_related("forfeits", "match__seats")
    )


def _decide(stage: Stage, stage_match: StageMatch, seeds: dict[int, int]) -> None:
    """Freeze a finished match's finishing order: by placement; players tied at a place by
    the stage's tiebreak order (their standings rank when the match finished), then by seed,
    never by chance; forfeits last. Frozen once, so a later result never moves a cut."""
    match = stage_match.match
    if stage_match.order is not None or match is None or match.status != MatchStatus.FINISHED:
        return
    placements = [seat.placement for seat in match.seats.all()]
    tied = len(set(placements)) < len(placements)
    rank = {row.player: row.rank for row in _stage_table(stage)} if tied else {}
    seats = sorted(
        match.seats.all(),
        key=lambda s: (s.placement or 99, rank.get(s.player_id, 0), seeds.get(s.player_id, 0)),
    )
    stage_match.order = [seat.player_id for seat in seats] + [
        forfeit.player_id for forfeit in stage_match.forfeits.all()
    ]
    stage_match.save(update_fields=["order"])


def _advance(stage: Stage) -> None:
    if _held.get() == stage.pk:
        return
    seeds = dict(stage.entries.values_list("player_id", "seed"))
    stage_matches = _stage_matches(stage)
    for stage_match in stage_matches:
        _decide(stage, stage_match, seeds)
    format_of(stage).advance(stage, stage_matches, seeds)


def _stage_table(stage: Stage) -> tuple[standings.Standing, ...]:
    """The stage's standings now, ranked by its tiebreak order (docs/standings.md)."""
    return compute_table((StandingsScope.STAGE, stage.pk))[1]


def _swiss_standings(
    stage: Stage, stage_matches: Iterable[StageMatch], seeds: dict[int, int]
) -> list[draw.SwissStanding]:
    """Each player's league points so far and every opponent met, best first."""
    opponents: dict[int, list[int]] = defaultdict(list)
    for stage_match in stage_matches:
        order = stage_match.order or []
        for player in order:
            opponents[player].extend(p for p in order if p != player)
    table = _stage_table(stage)
    withdrawn = withdrawn_players(stage)
    return [
        draw.SwissStanding(
            player=row.player,
            score=row.points,
            opponents=tuple(opponents[row.player]),
            byes=row.byes,
        )
        for row in sorted(table, key=lambda row: (row.rank, seeds.get(row.player, 0)))
        if row.player not in withdrawn
    ]


def _table_ranking(stage: Stage) -> tuple[list[list[int]], dict[str, list[list[int]]] | None]:
    """The final order of a round robin or Swiss stage from its standings by the tiebreak
    order, players equal on every metric sharing a tier; and for one played in groups each
    group's own order, the final order then merging them place by place
    (`standings.merge_groups`: never by head-to-head across groups)."""
    table = _stage_table(stage)
    ranking = [list(tier) for tier in standings.merge_groups(table, stage.tiebreak)]
    if not stage.played_in_groups:
        return ranking, None
    places: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for row in table:
        places[str(row.group)][row.rank].append(row.player)
    return ranking, {
        group: [tiers[rank] for rank in sorted(tiers)] for group, tiers in sorted(places.items())
    }


def _advance_bracket(stage: Stage, stage_matches: list[StageMatch], seeds: dict[int, int]) -> None:
    bracket = draw.Bracket.from_json(stage.bracket or {})
    by_slot = {sm.slot: sm for sm in stage_matches}
    results = {
        sm.slot: draw.SlotResult(
            placements={player: place for place, player in enumerate(sm.order, start=1)},
        )
        for sm in stage_matches
        if sm.order is not None
    }
    state = draw.advance_bracket(bracket, results)
    _store_slot_states(stage, state)
    withdrawn = withdrawn_players(stage)
    walkovers = False
    for key in state.ready:
        if key not in by_slot:
            slot = bracket.slot(key)
            players = state.slots[key].players
            if withdrawn.intersection(players):
                walkovers |= _seat_without(stage, slot, players, withdrawn, seeds)
            else:
                _seat(stage, players, round_=slot.round, slot=key)
    if walkovers:
        _advance(stage)  # a slot decided without play may make later ones ready
    elif state.finished:
        _finish(stage, [list(tier) for tier in state.ranking])


def _store_slot_states(stage: Stage, state: draw.BracketState) -> None:
    """Keep where every slot stands beside the bracket (`bracket["state"]`), so that pages
    draw it as the stage advanced it, never advancing it again themselves."""
    stored = draw.slot_states_to_json(state)
    if (stage.bracket or {}).get("state") != stored:
        stage.bracket = {**(stage.bracket or {}), "state": stored}
        stage.save(update_fields=["bracket"])


def _seat_without(
    stage: Stage,
    slot: draw.Slot,
    players: Sequence[int],
    withdrawn: set[int],
    seeds: dict[int, int],
) -> bool:
    """Seat a bracket slot some of whose players have withdrawn: they forfeit it, and the
    others play it, or go on without playing (a walkover, returns True) when no more remain
    than go on."""
    present = [p for p in players if p not in withdrawn]
    gone = [p for p in players if p in withdrawn]
    if len(present) > slot.advance and len(present) >= 2:
        stage_match = _seat(stage, present, round_=slot.round, slot=slot.key)
    else:
        stage_match = StageMatch.objects.create(
            stage=stage,
            round=slot.round,
            slot=slot.key,
            walkover=True,
            order=sorted(present, key=lambda p: seeds.get(p, 0)) + gone,
        )
    StageForfeit.objects.bulk_create(
        StageForfeit(stage_match=stage_match, player_id=p, reason=ForfeitReason.WITHDREW)
        for p in gone
    )
    return stage_match.walkover


def _finish(
    stage: Stage,
    ranking: list[list[int]],
    group_ranking: dict[str, list[list[int]]] | None = None,
) -> None:
    """Store the stage's final order, once: pages and later stages read it as stored."""
    stage.status = StageStatus.FINISHED
    stage.finished_at = timezone.now()
    stage.ranking = ranking
    stage.group_ranking = group_ranking
    stage.save(update_fields=["status", "finished_at", "ranking", "group_ranking"])
    signals.send_on_commit(signals.stage_finished, Stage, stage_id=stage.pk)
    event_play_over(event_id=stage.event_id)  # the event finishes with its last stage


@transaction.atomic
def stage_advance(*, stage_id: int) -> Stage:
    """Bring a running stage up to date with its finished matches: seat the matches whose
    feeders are decided, draw the next Swiss round, finish the stage. Idempotent: with nothing
    new it changes nothing."""
    stage = _locked(stage_id)
    if stage.status == StageStatus.RUNNING:
        _advance(stage)
    return stage


# --- What each format does ------------------------------------------------------------------
# One object per format (as Tabbycat maps draw types to managers): how it checks its options,
# draws at the start, advances after results, which later matches a result feeds, and what a
# withdrawn result takes back. A new format is a new class and a row of FORMATS
# (docs/draw.md, "Adding a format").


class StageFormatRules:
    """A format played in rounds drawn all at once (round robin): the stage finishes once
    every match is decided, ranked by its standings."""

    def check(self, stage: Stage, players: list[int]) -> None:
        """Refuse options the format cannot draw (DrawError), at creation: groups of two or
        more players."""
        if stage.groups > 1:
            draw.snake_groups(players, stage.groups)

    def start(self, stage: Stage, players: list[int]) -> None:
        groups = draw.snake_groups(players, stage.groups) if stage.groups > 1 else (players,)
        for number, schedule in enumerate(
            draw.group_round_robin(groups, table_size=stage.table_size), start=1
        ):
            StageEntry.objects.filter(stage=stage, player_id__in=groups[number - 1]).update(
                group=number
            )
            for round_ in schedule:
                _seat_round(stage, round_, group=number, follow=round_.number == 1)

    def meetings(self, stage: Stage, count: int) -> dict[tuple[int, int], int]:
        """When the seeds of `count` players can first meet (lower seed first; pairs that
        never meet are left out), which `draw.groups_apart` reads to keep players of one
        earlier group apart: in a round robin played in groups, the seeds of one group
        (round 1: the whole group is one draw); without groups everyone meets anyway."""
        if stage.groups <= 1:
            return {}
        seeds = list(range(1, count + 1))
        return {
            pair: 1
            for group in draw.snake_groups(seeds, stage.groups)
            for pair in itertools.combinations(sorted(group), 2)
        }

    def advance(self, stage: Stage, stage_matches: list[StageMatch], seeds: dict[int, int]) -> None:
        if all(sm.order is not None for sm in stage_matches):
            _finish(stage, *_table_ranking(stage))

    def fed_by(self, stage_match: StageMatch) -> list[StageMatch]:
        """The later stage matches whose players this one's result decided."""
        return []

    def withdrawn(self, stage_match: StageMatch) -> None:
        """Take back what a result no longer standing had decided, beyond its later matches."""


class SwissRules(StageFormatRules):
    """Rounds drawn one at a time from the standings; byes count."""

    @staticmethod
    def _first_round(stage: Stage, players: Sequence[int]) -> draw.Round:
        """Round 1, drawn from the seeds alone (players in seed order)."""
        return draw.swiss_round(
            [draw.SwissStanding(player=p) for p in players], number=1, table_size=stage.table_size
        )

    def meetings(self, stage: Stage, count: int) -> dict[tuple[int, int], int]:
        """Round 1 is drawn from the seeds; later rounds from the results."""
        first = self._first_round(stage, range(1, count + 1))
        return {
            pair: 1
            for table in first.tables
            for pair in itertools.combinations(sorted(table.players), 2)
        }

    def start(self, stage: Stage, players: list[int]) -> None:
        stage.rounds = stage.rounds or draw.swiss_rounds(len(players), stage.table_size)
        _seat_round(stage, self._first_round(stage, players))

    def advance(self, stage: Stage, stage_matches: list[StageMatch], seeds: dict[int, int]) -> None:
        if not all(sm.order is not None for sm in stage_matches):
            return
        current = max((sm.round for sm in stage_matches), default=0)
        if current < (stage.rounds or 0):
            _seat_round(
                stage,
                draw.swiss_round(
                    _swiss_standings(stage, stage_matches, seeds),
                    number=current + 1,
                    table_size=stage.table_size,
                ),
            )
            return
        _finish(stage, *_table_ranking(stage))

    def fed_by(self, stage_match: StageMatch) -> list[StageMatch]:
        return list(
            StageMatch.objects.filter(
                stage=stage_match.stage, round__gt=stage_match.round
            ).select_related("match")
        )

    def withdrawn(self, stage_match: StageMatch) -> None:
        StageBye.objects.filter(stage=stage_match.stage, round__gt=stage_match.round).delete()


class EliminationRules(StageFormatRules):
    """A bracket drawn in full at the start, its matches seated as their players are known."""

    def bracket(self, stage: Stage, players: list[int]) -> draw.Bracket:
        return draw.single_elimination(
            players,
            table_size=stage.table_size,
            advance=stage.advance,
            third_place=stage.third_place,
        )

    def check(self, stage: Stage, players: list[int]) -> None:
        self.bracket(stage, players)

    def meetings(self, stage: Stage, count: int) -> dict[tuple[int, int], int]:
        return draw.meeting_rounds(self.bracket(stage, list(range(1, count + 1))))

    def start(self, stage: Stage, players: list[int]) -> None:
        stage.bracket = self.bracket(stage, players).to_json()

    def advance(self, stage: Stage, stage_matches: list[StageMatch], seeds: dict[int, int]) -> None:
        _advance_bracket(stage, stage_matches, seeds)

    def fed_by(self, stage_match: StageMatch) -> list[StageMatch]:
        stage = stage_match.stage
        bracket = draw.Bracket.from_json(stage.bracket or {})
        dependents = draw.dependent_slots(bracket, stage_match.slot)
        return list(
            StageMatch.objects.filter(stage=stage, slot__in=dependents).select_related("match")
        )


class DoubleEliminationRules(EliminationRules):
    def bracket(self, stage: Stage, players: list[int]) -> draw.Bracket:
        return draw.double_elimination(players, grand_final_reset=stage.grand_final_reset)


FORMATS: dict[str, StageFormatRules] = {
    StageFormat.ROUND_ROBIN: StageFormatRules(),
    StageFormat.SWISS: SwissRules(),
    StageFormat.SINGLE_ELIMINATION: EliminationRules(),
    StageFormat.DOUBLE_ELIMINATION: DoubleEliminationRules(),
}


def format_of(stage: Stage) -> StageFormatRules:
    return FORMATS[stage.format]
