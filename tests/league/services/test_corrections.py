"""A league day survives mistakes (issue 16): a voided stage match is replayed, awarded or left
with no result (item 1); a change reaching a finished stage whose ranking a later stage used is
refused or, confirmed, re-seeds it (item 2); a player withdraws (item 8); a void made by
mistake is taken back (item 10). Played through the services on PostgreSQL, the simulator
playing every game."""

import random
from typing import Any

import pytest

import scoring
from games import services as game_services
from games.errors import CorrectionBreaksLaterTurn, MatchNotVoid, UndoBlocked
from games.models import Match, Seat
from league.errors import LeagueError, StageConflict
from league.models import (
    Stage,
    StageBye,
    StageEntry,
    StageForfeit,
    StageMatch,
    StageVoid,
)
from league.services import organization, stages
from league.services.standings_refresh import compute_table
from scoring import RuleViolation, simulate
from tests.league.services.league_night import new_players
from tests.playing import fed_stage, play


def _start_a_turn(match: Match, seed: int = 1) -> None:
    local = scoring.new_game(match.game, match.seats.count(), match.rules)
    turn = simulate.next_turn(local, random.Random(seed))
    game_services.turn_submit(match_id=match.pk, turn=turn)


def _scheduled(stage: Stage) -> list[Match]:
    return list(Match.objects.filter(stage_match__stage=stage, status="scheduled").order_by("pk"))


def _play_out(stage: Stage, seed: int = 0) -> None:
    for played in range(200):
        waiting = _scheduled(stage)
        if not waiting:
            return
        play(waiting[0], seed=seed + played)
    raise AssertionError("the stage never ran out of matches")


def _started(event_id: int, fmt: str, players: list[int], **options) -> Stage:
    stage = stages.stage_create(
        event_id=event_id, name=fmt, format=fmt, player_ids=players, **options
    )
    return stages.stage_start(stage_id=stage.pk)


def _first_match(event_id: int, fmt: str, players: list[int]) -> tuple[Stage, Match]:
    """A stage started with `players`, and its first match to play."""
    stage = _started(event_id, fmt, players)
    return stage, _scheduled(stage)[0]


def _seated(match: Match) -> list[int]:
    return list(match.seats.order_by("order").values_list("player_id", flat=True))


# --- Item 1: a voided stage match is replayed, awarded or left with no result ------------------


@pytest.mark.django_db
def test_item1_voiding_a_finished_grand_final_seats_a_replay_and_the_stage_finishes(
    league_event, field
):
    stage = _started(league_event.pk, "double_elimination", field[:4])
    while not StageMatch.objects.filter(stage=stage, slot__startswith="GF").exists():
        play(_scheduled(stage)[0], seed=3)
    final_slot = StageMatch.objects.filter(stage=stage, slot__startswith="GF").first()
    final = final_slot.match
    play(final, seed=5)
    while _scheduled(stage):  # a reset, if the losers' side won
        play(_scheduled(stage)[0], seed=8)
    stage.refresh_from_db()
    assert stage.status == "finished"
    organization.event_reopen(event_id=league_event.pk)  # its only stage finished: it closed
    last = StageMatch.objects.filter(stage=stage).exclude(match=None).order_by("-pk").first()
    voided = last.match
    players = _seated(voided)

    game_services.match_void(match_id=voided.pk, voided_by=None)

    last.refresh_from_db()
    stage.refresh_from_db()
    assert stage.status == "running", "the stage waits for the replay"
    replay = last.match
    assert replay.pk != voided.pk
    assert replay.status == "scheduled"
    assert _seated(replay) == players, "the same players, in the same seats"
    assert replay.score_key != voided.score_key, "a new scoring key"
    assert replay.event_id == league_event.pk
    assert replay.league_id == league_event.league_id
    record = StageVoid.objects.get(match=voided)
    assert (record.outcome, record.replay_id) == ("replay", replay.pk)
    play(replay, seed=21)
    while _scheduled(stage):
        play(_scheduled(stage)[0], seed=22)
    stage.refresh_from_db()
    assert stage.status == "finished"
    assert len(stage.ranking[0]) == 1


@pytest.mark.django_db
def test_item1_voiding_a_round_robin_match_not_started_replays_it(league_event, field):
    stage, first = _first_match(league_event.pk, "round_robin", field[:4])
    game_services.match_void(match_id=first.pk, voided_by=None)
    slot = StageVoid.objects.get(match=first).stage_match
    assert slot.match.status == "scheduled"
    assert _seated(slot.match) == _seated(first)
    _play_out(stage)
    stage.refresh_from_db()
    assert stage.status == "finished"
    assert sorted(p for tier in stage.ranking for p in tier) == sorted(field[:4])


@pytest.mark.django_db
def test_item1_a_walkover_against_the_named_player_sends_the_other_on(league_event, field):
    stage, semi = _first_match(league_event.pk, "single_elimination", field[:4])
    _start_a_turn(semi)
    loser, winner = _seated(semi)
    game_services.match_void(
        match_id=semi.pk, voided_by=None, then={"outcome": "walkover", "forfeits": [loser]}
    )
    slot = StageMatch.objects.get(voids__match=semi)
    assert slot.walkover
    assert slot.order == [winner, loser]
    assert StageForfeit.objects.get(stage_match=slot).reason == "awarded"
    other_semi = _scheduled(stage)[0]
    play(other_semi, seed=4)
    final = _scheduled(stage)[0]
    assert winner in _seated(final), "the walkover's winner plays the final"


@pytest.mark.django_db
def test_item1_no_result_in_a_round_robin_finishes_the_stage_without_that_game(league_event, field):
    stage, voided = _first_match(league_event.pk, "round_robin", field[:4])
    play(voided, seed=2)
    game_services.match_void(match_id=voided.pk, voided_by=None, then={"outcome": "no_result"})
    _play_out(stage, seed=30)
    stage.refresh_from_db()
    assert stage.status == "finished"
    table = {row.player: row for row in compute_table(("stage", stage.pk))[1]}
    a, b = _seated(voided)
    assert (table[a].matches, table[b].matches) == (2, 2), "the voided game counts for no one"
    assert sum(row.matches for row in table.values()) == 2 * 5


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("then", "code"),
    [
        ({"outcome": "no_result"}, "invalid_option"),  # a bracket must send someone on
        ({"outcome": "walkover"}, "invalid_option"),  # who forfeits?
        ({"outcome": "walkover", "forfeits": [999_999]}, "not_seated"),
        ({"outcome": "replay", "forfeits": [1]}, "invalid_option"),
        ({"outcome": "rematch"}, "invalid_option"),
    ],
)
def test_item1_a_bad_choice_is_refused_and_the_match_is_not_voided(league_event, field, then, code):
    _, semi = _first_match(league_event.pk, "single_elimination", field[:4])
    if then.get("forfeits") == [1]:
        then = {**then, "forfeits": [_seated(semi)[0]]}
    with pytest.raises(LeagueError) as refused:
        game_services.match_void(match_id=semi.pk, voided_by=None, then=then)
    assert refused.value.code == code
    assert Match.objects.get(pk=semi.pk).status == "scheduled"
    assert not StageVoid.objects.exists()


@pytest.mark.django_db
def test_item1_a_choice_for_a_match_of_no_stage_is_refused(league_event, field):
    match = game_services.match_create(
        game="yardkle", player_ids=field[:2], event_id=league_event.pk
    )
    with pytest.raises(LeagueError) as refused:
        game_services.match_void(match_id=match.pk, voided_by=None, then={"outcome": "replay"})
    assert refused.value.code == "not_a_stage_match"
    assert Match.objects.get(pk=match.pk).status == "scheduled"


# --- Item 2: a change to a finished stage whose ranking a later stage used ---------------------


def _groups_then_playoff(event_id: int, players: list[int]) -> tuple[Stage, Stage]:
    groups = _started(event_id, "round_robin", players)
    playoff = fed_stage(groups, name="Playoff", source_top=2)
    _play_out(groups, seed=40)
    return groups, stages.stage_start(stage_id=playoff.pk)


@pytest.mark.django_db
def test_item2_undo_in_a_finished_stage_that_seeded_a_started_one_is_refused(league_event, field):
    groups, playoff = _groups_then_playoff(league_event.pk, field[:4])
    last = Match.objects.filter(stage_match__stage=groups).order_by("-finished_at").first()
    final = _scheduled(playoff)[0]
    play(final, seed=1)
    organization.event_reopen(event_id=league_event.pk)  # every stage finished: it closed
    with pytest.raises(StageConflict) as refused:
        game_services.turn_undo(match_id=last.pk, undone_by=None)
    assert refused.value.code == "stage_in_use"
    assert refused.value.details["stages"] == [playoff.pk]
    assert refused.value.details["matches"] == [final.pk]
    groups.refresh_from_db()
    assert groups.status == "finished"
    assert Match.objects.get(pk=last.pk).status == "finished"
    with pytest.raises(StageConflict):  # confirming changes nothing once the playoff is played
        game_services.turn_undo(
            match_id=last.pk, undone_by=None, then={"reseed_later_stages": True}
        )
    with pytest.raises(StageConflict):  # and a void is refused the same way
        game_services.match_void(match_id=last.pk, voided_by=None)
    assert Match.objects.get(pk=last.pk).status == "finished"


@pytest.mark.django_db
def test_item2_confirmed_the_later_stage_goes_back_to_draft_and_is_seeded_again(
    league_event, field
):
    groups, playoff = _groups_then_playoff(league_event.pk, field[:4])
    final = _scheduled(playoff)[0]
    last = Match.objects.filter(stage_match__stage=groups).order_by("-finished_at").first()
    with pytest.raises(StageConflict) as refused:
        game_services.turn_undo(match_id=last.pk, undone_by=None)
    assert "reseed_later_stages" in refused.value.message
    game_services.turn_undo(match_id=last.pk, undone_by=None, then={"reseed_later_stages": True})
    playoff.refresh_from_db()
    groups.refresh_from_db()
    assert (groups.status, playoff.status) == ("running", "draft")
    assert not Match.objects.filter(pk=final.pk).exists(), "the unplayed final is gone"
    assert not StageMatch.objects.filter(stage=playoff).exists()
    reopened = Match.objects.get(pk=last.pk)
    for turn in simulate.play_game(reopened.scoring_game(), seed=50):
        game_services.turn_submit(match_id=reopened.pk, turn=turn)
    stages.stage_start(stage_id=playoff.pk)
    groups.refresh_from_db()
    top_two = [p for tier in groups.ranking for p in tier][:2]
    assert sorted(_seated(_scheduled(playoff)[0])) == sorted(top_two)


# --- Item 8: withdraw a player --------------------------------------------------------------


@pytest.mark.django_db
def test_item8_a_round_robin_withdrawal_turns_every_unplayed_match_into_a_walkover(
    league_event, field
):
    stage = _started(league_event.pk, "round_robin", field[:4])
    leaving = field[0]
    theirs = [m for m in _scheduled(stage) if leaving in _seated(m)]
    play(theirs[0], seed=1)
    in_progress = theirs[1]
    _start_a_turn(in_progress)

    withdrawal = stages.stage_withdraw(stage_id=stage.pk, player_id=leaving)

    assert withdrawal.in_progress == [in_progress.pk]
    assert len(withdrawal.walkovers) == 1
    assert not withdrawal.replayed
    walkover = StageMatch.objects.get(pk=withdrawal.walkovers[0])
    assert walkover.walkover
    assert walkover.order[-1] == leaving
    assert StageForfeit.objects.get(stage_match=walkover).reason == "withdrew"
    assert StageEntry.objects.get(stage=stage, player_id=leaving).withdrawn_at is not None
    assert not any(leaving in _seated(m) for m in _scheduled(stage))
    # Voided, their match being played is not replayed with them seated again.
    other = next(p for p in _seated(in_progress) if p != leaving)
    for then in ({}, {"outcome": "walkover", "forfeits": [other]}):
        with pytest.raises(LeagueError) as refused:
            game_services.match_void(match_id=in_progress.pk, voided_by=None, then=then)
        assert refused.value.code == "player_withdrawn"
        assert refused.value.details["players"] == [leaving]
    assert Match.objects.get(pk=in_progress.pk).status == "in_progress"
    game_services.match_void(
        match_id=in_progress.pk,
        voided_by=None,
        then={"outcome": "walkover", "forfeits": [leaving], "reason": "withdrew"},
    )
    _play_out(stage, seed=60)
    stage.refresh_from_db()
    assert stage.status == "finished"
    rows = {r.player: r for r in compute_table(("stage", stage.pk))[1]}
    row = rows[leaving]
    assert row.matches == 3, "the played game stands, the two walkovers are losses"
    assert row.forfeits == 2
    # docs/standings.md, "Forfeits in the table": a walkover has no game score, for either side.
    for player, standing in rows.items():
        totals = list(
            Seat.objects.filter(
                player_id=player, match__stage_match__stage=stage, match__status="finished"
            ).values_list("total", flat=True)
        )
        assert standing.total_score == sum(totals)
        assert standing.best_score == max(totals)
        assert standing.average_score == pytest.approx(sum(totals) / len(totals))
        if player == walkover.order[0]:
            assert (standing.matches, len(totals)) == (3, 2), "two games and the walkover won"


@pytest.mark.django_db
def test_item8_at_tables_of_four_the_others_play_on_without_the_player(league_event):
    players = new_players("T", 8)
    stage = _started(league_event.pk, "round_robin", players, table_size=4)
    leaving = players[0]
    withdrawal = stages.stage_withdraw(stage_id=stage.pk, player_id=leaving)
    assert withdrawal.replayed
    assert not withdrawal.walkovers
    for item in withdrawal.replayed:
        match = Match.objects.get(pk=item["match"])
        assert len(_seated(match)) == 3
        assert leaving not in _seated(match)


@pytest.mark.django_db
def test_item8_a_withdrawal_advances_the_stage_once_not_once_per_forfeit(league_event, monkeypatch):
    players = new_players("W", 8)
    stage = _started(league_event.pk, "round_robin", players)  # 7 rounds of pairs
    rules = stages.format_of(stage)
    advanced: list[int] = []
    real_advance = rules.advance

    def counted(stage: Stage, *args: Any) -> None:
        advanced.append(stage.pk)
        real_advance(stage, *args)

    monkeypatch.setattr(rules, "advance", counted)
    withdrawal = stages.stage_withdraw(stage_id=stage.pk, player_id=players[0])
    assert len(withdrawal.walkovers) == 7
    assert advanced == [stage.pk]
    # The stage still moved on: every walkover is decided, the withdrawn player last.
    decided = StageMatch.objects.filter(pk__in=withdrawal.walkovers)
    assert all(sm.order and sm.order[-1] == players[0] for sm in decided)


@pytest.mark.django_db
def test_item8_a_double_elimination_player_who_withdrew_does_not_drop_to_the_losers_bracket(
    league_event, field
):
    stage, first = _first_match(league_event.pk, "double_elimination", field[:4])
    play(first, seed=7)
    leaving = StageMatch.objects.get(match=first).order[1]  # lost: would drop
    stages.stage_withdraw(stage_id=stage.pk, player_id=leaving)
    for _ in range(10):
        if not _scheduled(stage):
            break
        match = _scheduled(stage)[0]
        assert leaving not in _seated(match), "a withdrawn player is seated no more"
        play(match, seed=9)
    stage.refresh_from_db()
    assert stage.status == "finished"
    walkovers = StageMatch.objects.filter(stage=stage, walkover=True)
    assert [sm.order[-1] for sm in walkovers] == [leaving]
    assert leaving in stage.ranking[-1]


@pytest.mark.django_db
def test_item8_a_swiss_withdrawal_is_not_paired_again(league_event, field):
    stage = _started(league_event.pk, "swiss", field[:6], rounds=3)
    leaving = field[0]
    for match in _scheduled(stage):
        play(match, seed=match.pk)
    stages.stage_withdraw(stage_id=stage.pk, player_id=leaving)
    _play_out(stage, seed=70)
    stage.refresh_from_db()
    assert stage.status == "finished"
    later = StageMatch.objects.filter(stage=stage, round__gt=2, walkover=False)
    assert not any(leaving in _seated(sm.match) for sm in later)
    assert not StageBye.objects.filter(stage=stage, player_id=leaving).exists()


@pytest.mark.django_db
def test_item8_from_a_draft_the_player_is_taken_off_and_the_seeds_close_up(league_event, field):
    stage = stages.stage_create(
        event_id=league_event.pk, name="RR", format="round_robin", player_ids=field[:4]
    )
    withdrawal = stages.stage_withdraw(stage_id=stage.pk, player_id=field[1])
    assert withdrawal.removed_from_draft
    assert list(stage.entries.order_by("seed").values_list("player_id", "seed")) == [
        (field[0], 1),
        (field[2], 2),
        (field[3], 3),
    ]


@pytest.mark.django_db
def test_item8_refusals_name_the_reason_and_change_nothing(league_event, field):
    stage = _started(league_event.pk, "round_robin", field[:4])
    with pytest.raises(LeagueError) as not_entered:
        stages.stage_withdraw(stage_id=stage.pk, player_id=field[5])
    assert not_entered.value.code == "not_entered"
    stages.stage_withdraw(stage_id=stage.pk, player_id=field[0])
    with pytest.raises(StageConflict) as again:
        stages.stage_withdraw(stage_id=stage.pk, player_id=field[0])
    assert again.value.code == "already_withdrawn"
    draft = stages.stage_create(
        event_id=league_event.pk, name="Pair", format="round_robin", player_ids=field[4:6]
    )
    with pytest.raises(LeagueError) as too_few:
        stages.stage_withdraw(stage_id=draft.pk, player_id=field[4])
    assert too_few.value.code == "invalid_option"
    assert draft.entries.count() == 2


@pytest.mark.django_db
def test_item8_an_event_withdrawal_covers_every_stage_still_to_play(league_event, field):
    first = _started(league_event.pk, "round_robin", field[:4])
    second = stages.stage_create(
        event_id=league_event.pk, name="Side", format="round_robin", player_ids=field[:3]
    )
    withdrawals = stages.event_withdraw(event_id=league_event.pk, player_id=field[0])
    assert [w.stage for w in withdrawals] == [first.pk, second.pk]
    assert len(withdrawals[0].walkovers) == 3
    assert withdrawals[1].removed_from_draft


# --- Item 10: take back a void made by mistake -------------------------------------------------


@pytest.mark.django_db
def test_item10_unvoid_gives_the_slot_its_match_back_and_deletes_the_unplayed_replay(
    league_event, field
):
    _, semi = _first_match(league_event.pk, "single_elimination", field[:4])
    play(semi, seed=3)
    slot = StageMatch.objects.get(match=semi)
    decided = slot.order
    game_services.match_void(match_id=semi.pk, voided_by=None)
    replay = StageMatch.objects.get(pk=slot.pk).match

    game_services.match_unvoid(match_id=semi.pk, unvoided_by=None)

    slot.refresh_from_db()
    assert slot.match_id == semi.pk
    assert slot.order == decided
    assert Match.objects.get(pk=semi.pk).status == "finished"
    assert not Match.objects.filter(pk=replay.pk).exists()
    assert not StageVoid.objects.exists()


@pytest.mark.django_db
def test_item10_unvoid_of_a_walkover_takes_its_forfeit_back(league_event, field):
    _, semi = _first_match(league_event.pk, "single_elimination", field[:4])
    stages.stage_forfeit(stage_match_id=semi.stage_match.pk, player_id=_seated(semi)[0])
    assert StageMatch.objects.get(pk=semi.stage_match.pk).walkover
    game_services.match_unvoid(match_id=semi.pk, unvoided_by=None)
    slot = StageMatch.objects.get(pk=semi.stage_match.pk)
    assert (slot.walkover, slot.order, slot.match_id) == (False, None, semi.pk)
    assert not StageForfeit.objects.filter(stage_match=slot).exists()
    assert Match.objects.get(pk=semi.pk).status == "scheduled"


@pytest.mark.django_db
def test_item10_unvoid_is_refused_once_the_replay_has_started(league_event, field):
    _, semi = _first_match(league_event.pk, "single_elimination", field[:4])
    game_services.match_void(match_id=semi.pk, voided_by=None)
    replay = StageVoid.objects.get(match=semi).replay
    _start_a_turn(replay)
    with pytest.raises(StageConflict) as refused:
        game_services.match_unvoid(match_id=semi.pk, unvoided_by=None)
    assert refused.value.code == "void_in_use"
    assert refused.value.details == {"replay": replay.pk}
    assert Match.objects.get(pk=semi.pk).status == "void"


@pytest.mark.django_db
def test_item10_unvoid_is_refused_when_a_match_fed_by_the_walkover_has_started(league_event, field):
    stage = _started(league_event.pk, "single_elimination", field[:4])
    first, second = _scheduled(stage)
    stages.stage_forfeit(stage_match_id=first.stage_match.pk, player_id=_seated(first)[0])
    play(second, seed=1)
    final = _scheduled(stage)[0]
    _start_a_turn(final)
    with pytest.raises(UndoBlocked):
        game_services.match_unvoid(match_id=first.pk, unvoided_by=None)
    assert Match.objects.get(pk=first.pk).status == "void"


@pytest.mark.django_db
def test_item10_an_undo_blocked_by_a_no_show_says_so_and_not_that_it_started(league_event, field):
    """A final decided by a no-show was never started: the refusal says it was decided by a
    void, to take back first; then the undo goes through."""
    stage = _started(league_event.pk, "single_elimination", field[:4])
    first, second = _scheduled(stage)
    play(first, seed=1)
    play(second, seed=2)
    final = _scheduled(stage)[0]
    stages.stage_forfeit(stage_match_id=final.stage_match.pk, player_id=_seated(final)[0])
    organization.event_reopen(event_id=league_event.pk)  # every stage finished: it closed
    with pytest.raises(UndoBlocked) as refused:
        game_services.turn_undo(match_id=first.pk, undone_by=None)
    assert refused.value.details == {"blocking_matches": [final.pk]}
    assert "started" not in refused.value.message
    assert f"match {final.pk}, fed by this result, was voided" in refused.value.message
    game_services.match_unvoid(match_id=final.pk, unvoided_by=None)
    game_services.turn_undo(match_id=first.pk, undone_by=None)
    assert Match.objects.get(pk=first.pk).status == "in_progress"


@pytest.mark.django_db
def test_item10_unvoid_of_a_match_of_no_stage_counts_it_again(league_event, field):
    match = game_services.match_create(
        game="yardkle", player_ids=field[:2], event_id=league_event.pk
    )
    play(match, seed=4)
    game_services.match_void(match_id=match.pk, voided_by=None)
    assert not [row for row in compute_table(("event", league_event.pk))[1] if row.matches]
    game_services.match_unvoid(match_id=match.pk, unvoided_by=None)
    assert Match.objects.get(pk=match.pk).status == "finished"
    assert [row.matches for row in compute_table(("event", league_event.pk))[1]] == [1, 1]
    with pytest.raises(MatchNotVoid):
        game_services.match_unvoid(match_id=match.pk, unvoided_by=None)


@pytest.mark.django_db
def test_item8_a_player_who_withdrew_after_the_groups_is_passed_over_by_the_playoff(
    league_event, field
):
    groups = _started(league_event.pk, "round_robin", field[:4])
    playoff = fed_stage(groups, name="Playoff", source_top=2)
    _play_out(groups, seed=80)
    groups.refresh_from_db()
    order = [p for tier in groups.ranking for p in tier]
    assert stages.event_withdraw(event_id=league_event.pk, player_id=order[0]) == []
    with pytest.raises(StageConflict) as again:  # only their finished entry, marked already
        stages.event_withdraw(event_id=league_event.pk, player_id=order[0])
    assert again.value.code == "already_withdrawn"
    stages.stage_start(stage_id=playoff.pk)
    entered = list(playoff.entries.order_by("seed").values_list("player_id", flat=True))
    assert entered == order[1:3], "the next best takes the place"


@pytest.mark.django_db
def test_item2_a_correction_that_changes_a_used_result_is_refused_unless_confirmed(
    league_event, field
):
    groups, playoff = _groups_then_playoff(league_event.pk, field[:4])
    last = Match.objects.filter(stage_match__stage=groups).order_by("-finished_at").first()
    first = _seated(last)[0]
    fresh = scoring.new_game(last.game, 2, last.rules)
    refusal = None
    for seed in range(200):
        turn = {"player": first, **simulate.next_turn(fresh, random.Random(seed))}
        try:
            game_services.turn_correct(match_id=last.pk, sequence=1, turn=turn, corrected_by=None)
        except StageConflict as refused:
            refusal = refused
            break
        except (CorrectionBreaksLaterTurn, RuleViolation):
            continue  # a turn the later ones do not fit: try another
    assert refusal is not None, "no correction of turn 1 changed the result"
    assert refusal.code == "stage_in_use"
    assert refusal.details["stages"] == [playoff.pk]
    game_services.turn_correct(
        match_id=last.pk,
        sequence=1,
        turn=turn,
        corrected_by=None,
        then={"reseed_later_stages": True},
    )
    playoff.refresh_from_db()
    assert playoff.status == "draft"
