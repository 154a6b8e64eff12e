"""A whole league day that goes wrong and is put right (issue 16, "Done means"): twelve players
in three round-robin groups, then a knockout of the top two of each group and the best two of
the rest. On the way: a mid-game correction, a finished group match voided and replayed, a
player who withdraws, and an undo refused once the knockout has used the groups' ranking. At
the end the bracket, each group's table, the event's table and the ratings are checked
against a computation from scratch. On PostgreSQL, jobs running as each result commits."""

import random

import pytest

import scoring
from games import services as game_services
from games.errors import CorrectionBreaksLaterTurn
from games.models import Match, TurnCorrection
from league.errors import StageConflict
from league.models import Stage, StageEntry, StageMatch, StageVoid
from league.services import stages
from league.services.standings_refresh import compute_table
from scoring import RuleViolation, simulate
from tests.league.services.league_night import assert_converged, new_players
from tests.playing import fed_stage


def _scheduled(stage: Stage) -> list[Match]:
    return list(Match.objects.filter(stage_match__stage=stage, status="scheduled").order_by("pk"))


def _finish(match: Match, seed: int) -> None:
    """Play a match from where it stands to its end, turn by turn."""
    match.refresh_from_db()
    for turn in simulate.play_game(match.scoring_game(), seed=seed):
        game_services.turn_submit(match_id=match.pk, turn=turn)


def _correct_some_early_turn(match: Match) -> int:
    """Correct turn 1 of a match in progress with another legal turn whose later turns still
    fit; returns the sequence corrected."""
    fresh = scoring.new_game(match.game, match.seats.count(), match.rules)
    first = _seated(match)[0]
    for seed in range(50):
        turn = {"player": first, **simulate.next_turn(fresh, random.Random(seed))}
        try:
            game_services.turn_correct(match_id=match.pk, sequence=1, turn=turn, corrected_by=None)
        except (CorrectionBreaksLaterTurn, RuleViolation):
            continue
        return 1
    raise AssertionError("no correction of turn 1 kept the later turns legal")


def _tiers(rows) -> list[list[int]]:
    tiers: dict[int, list[int]] = {}
    for row in rows:
        tiers.setdefault(row.rank, []).append(row.player)
    return [sorted(tiers[rank]) for rank in sorted(tiers)]


@pytest.mark.django_db(transaction=True)
def test_a_mixed_league_day_with_a_void_a_withdrawal_a_correction_and_a_refused_undo(
    league_event,
):
    players = new_players("D", 12)
    groups = stages.stage_create(
        event_id=league_event.pk,
        name="Groups",
        format="round_robin",
        player_ids=players,
        groups=3,
    )
    knockout = fed_stage(groups, source_per_group=2, source_best_rest=2)
    stages.stage_start(stage_id=groups.pk)
    assert StageMatch.objects.filter(stage=groups).count() == 3 * 6

    # A correction in the middle of a game: three turns in, turn 1 was scored wrong.
    corrected = _scheduled(groups)[0]
    fresh = corrected.scoring_game()
    rng = random.Random(4)
    for _ in range(3):
        turn = simulate.next_turn(fresh, rng)
        game_services.turn_submit(match_id=corrected.pk, turn=turn)
    assert _correct_some_early_turn(corrected) == 1
    _finish(corrected, seed=5)
    assert TurnCorrection.objects.filter(turn__match=corrected).count() == 1

    # A finished group match is voided (wrong players sat down) and replayed.
    voided = _scheduled(groups)[0]
    _finish(voided, seed=6)
    game_services.match_void(match_id=voided.pk, voided_by=None)
    replay = StageVoid.objects.get(match=voided).replay
    assert replay is not None
    assert replay.status == "scheduled"

    # A player withdraws after their first game: the rest of theirs are walkovers.
    leaving = next(p for p in players if p not in _seated(corrected) + _seated(voided))
    first_of_theirs = next(m for m in _scheduled(groups) if leaving in _seated(m))
    _finish(first_of_theirs, seed=7)
    withdrawal = stages.stage_withdraw(stage_id=groups.pk, player_id=leaving)
    assert len(withdrawal.walkovers) == 2

    for number, match in enumerate(_scheduled(groups)):
        _finish(match, seed=100 + number)
    groups.refresh_from_db()
    assert groups.status == "finished"

    # Each group ranked on its own, as its table from scratch says.
    table = compute_table(("stage", groups.pk))[1]
    for group in (1, 2, 3):
        rows = [row for row in table if row.group == group]
        assert len(rows) == 4
        stored = [sorted(tier) for tier in groups.group_ranking[str(group)]]
        assert stored == _tiers(rows)

    stages.stage_start(stage_id=knockout.pk)
    entrants = list(knockout.entries.order_by("seed").values_list("player_id", flat=True))
    assert len(entrants) == 8
    assert leaving not in entrants
    for group in (1, 2, 3):
        tops = [p for tier in groups.group_ranking[str(group)] for p in tier if p != leaving]
        assert set(tops[:2]) <= set(entrants), f"the top two of group {group} go on"

    # The knockout has used the groups' ranking: an undo in the groups is refused.
    first_quarter = _scheduled(knockout)[0]
    _finish(first_quarter, seed=200)
    group_match = Match.objects.filter(stage_match__stage=groups, status="finished").first()
    with pytest.raises(StageConflict) as refused:
        game_services.turn_undo(match_id=group_match.pk, undone_by=None)
    assert refused.value.code == "stage_in_use"
    assert refused.value.details["stages"] == [knockout.pk]

    for number in range(10):
        waiting = _scheduled(knockout)
        if not waiting:
            break
        _finish(waiting[0], seed=300 + number)
    knockout.refresh_from_db()
    assert knockout.status == "finished"
    assert len(knockout.ranking[0]) == 1, "one champion"
    assert sorted(p for tier in knockout.ranking for p in tier) == sorted(entrants)
    assert StageEntry.objects.get(stage=groups, player_id=leaving).withdrawn_at is not None
    league_event.refresh_from_db()
    assert league_event.status == "finished", "the event finished with its last stage"

    # The event's table and the league's ratings, stored by the jobs, match a fresh count.
    assert_converged(league_event)
    leaving_row = next(
        row for row in compute_table(("event", league_event.pk))[1] if row.player == leaving
    )
    assert leaving_row.forfeits == 2


def _seated(match: Match) -> list[int]:
    return list(match.seats.order_by("order").values_list("player_id", flat=True))
