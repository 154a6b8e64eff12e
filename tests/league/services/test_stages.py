"""Stages as a league runs them: drawn, seated, advanced by the match_finished signal as the
simulator plays every match, to a finished stage with a champion or complete standings."""

import itertools
import random
from collections import Counter
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

import scoring
from games import services as game_services
from games.errors import UndoBlocked
from games.models import Match
from league.errors import LeagueError
from league.models import Event, League, Player, PlayerRating, Stage, StageBye, StageMatch
from league.services import stages
from scoring import simulate
from tests.playing import fed_stage, play


@pytest.fixture
def event(organizer) -> Event:
    league = League.objects.create(name="L", slug="l", game="yardkle")
    league.organizers.add(organizer)
    return Event.objects.create(league=league, name="Cup", date="2026-07-01")


def _field(count: int, league: str = "l") -> list[int]:
    """`count` new players on the roster of `league` (by default the league of `event`)."""
    players = [Player.objects.create(display_name=f"P{i}", handle=f"p{i}") for i in range(count)]
    League.objects.get(slug=league).players.add(*players)
    return [player.pk for player in players]


def _started(event: Event, name: str, fmt: str, player_ids: list[int], **options: Any) -> Stage:
    """A stage of `fmt` at the event seating `player_ids`, created and started."""
    stage = stages.stage_create(
        event_id=event.pk, name=name, format=fmt, player_ids=player_ids, **options
    )
    stages.stage_start(stage_id=stage.pk)
    return stage


def _play_out(stage: Stage, seed: int = 0, limit: int = 400) -> int:
    """Play every scheduled match of the stage, in random order, until none is left."""
    rng = random.Random(seed)
    played = 0
    while played < limit:
        waiting = list(
            Match.objects.filter(stage_match__stage=stage, status="scheduled").order_by("pk")
        )
        if not waiting:
            return played
        rng.shuffle(waiting)
        play(waiting[0], seed=played)
        played += 1
    raise AssertionError("stage did not finish")


def _assert_rounds_valid(stage: Stage) -> None:
    for _, in_round in itertools.groupby(
        StageMatch.objects.filter(stage=stage).order_by("round").prefetch_related("match__seats"),
        key=lambda sm: sm.round,
    ):
        matches = list(in_round)
        seated = [s.player_id for sm in matches for s in sm.match.seats.all()]
        byes = list(
            StageBye.objects.filter(stage=stage, round=matches[0].round).values_list(
                "player_id", flat=True
            )
        )
        assert len(seated + byes) == len(set(seated + byes)), "a player twice in one round"


FORMATS = [
    (fmt, size, count)
    for fmt in ("round_robin", "swiss", "single_elimination", "double_elimination")
    for size in (2, 4)
    for count in (5, 8, 13, 16)
    if not (fmt == "double_elimination" and size == 4)
]


@pytest.mark.django_db
@pytest.mark.parametrize(("fmt", "table_size", "count"), FORMATS)
def test_every_format_runs_to_finished_when_the_simulator_plays_every_match(
    event, fmt, table_size, count
):
    players = _field(count)
    advance = 2 if fmt == "single_elimination" and table_size > 2 else 1  # a bracket's option
    stage = _started(event, fmt, fmt, players, table_size=table_size, advance=advance)
    _play_out(stage, seed=count)
    stage.refresh_from_db()
    assert stage.status == "finished"
    ranked = [player for tier in stage.ranking for player in tier]
    if stage.is_elimination:
        assert len(stage.ranking[0]) == 1, "exactly one champion"
    else:
        _assert_rounds_valid(stage)
        assert sorted(ranked) == sorted(players), "complete final standings"
    if fmt == "round_robin" and table_size == 2:
        met = Counter(
            frozenset(s.player_id for s in sm.match.seats.all())
            for sm in StageMatch.objects.filter(stage=stage).prefetch_related("match__seats")
        )
        assert len(met) == count * (count - 1) // 2
        assert set(met.values()) == {1}


@pytest.mark.django_db
def test_double_elimination_of_8_plays_14_or_15_matches_and_two_losses_eliminate(event):
    players = _field(8)
    stage = _started(event, "DE", "double_elimination", players)
    played = _play_out(stage, seed=3)
    assert played in (14, 15)
    losses: Counter[int] = Counter()
    for sm in StageMatch.objects.filter(stage=stage).prefetch_related("match__seats"):
        losses.update(s.player_id for s in sm.match.seats.all() if s.placement != 1)
    stage.refresh_from_db()
    champion = stage.ranking[0][0]
    assert all(losses[p] == 2 for p in players if p != champion)
    assert losses[champion] <= 1


@pytest.mark.django_db
def test_advancing_twice_after_the_same_result_changes_nothing(event):
    stage = _started(event, "SE", "single_elimination", _field(8))
    play(Match.objects.filter(stage_match__stage=stage).first(), seed=1)
    before = list(StageMatch.objects.filter(stage=stage).values_list("slot", "match_id", "order"))
    stages.stage_advance(stage_id=stage.pk)
    stages.stage_advance(stage_id=stage.pk)
    assert (
        list(StageMatch.objects.filter(stage=stage).values_list("slot", "match_id", "order"))
        == before
    )


@pytest.mark.django_db
def test_advancing_after_one_match_costs_the_same_queries_whatever_the_stage_size(event):
    """Measured for 8 and 32 players in one test (each in a savepoint rolled back), so that
    parallel test processes never split the two measurements from their comparison."""
    counts: dict[int, int] = {}
    for count in (8, 32):
        with transaction.atomic():
            stage = _started(event, "SE", "single_elimination", _field(count))
            first, second = Match.objects.filter(stage_match__stage=stage).order_by("pk")[:2]
            play(first, seed=1)
            with CaptureQueriesContext(connection) as captured:
                play(second, seed=2)
            counts[count] = len(captured)
            transaction.set_rollback(True)
    assert counts[8] == counts[32], counts


@pytest.mark.django_db
def test_a_forfeit_before_the_match_advances_the_opponent_by_walkover(event):
    players = _field(4)
    stage = _started(event, "SE", "single_elimination", players)
    first = StageMatch.objects.filter(stage=stage).order_by("slot").first()
    no_show = first.match.seats.order_by("order").first().player_id
    stages.stage_forfeit(stage_match_id=first.pk, player_id=no_show)
    first.refresh_from_db()
    assert first.walkover is True
    assert first.order[-1] == no_show
    assert first.match.status == "void"
    _play_out(stage, seed=5)
    stage.refresh_from_db()
    assert stage.status == "finished"
    assert no_show not in stage.ranking[0]


def _semis_played(event: Event) -> tuple[Stage, list[Match]]:
    """A started single elimination of four whose two semi-finals are finished (the final
    seated); the stage and the semis, in id order."""
    stage = _started(event, "SE", "single_elimination", _field(4))
    semis = list(Match.objects.filter(stage_match__stage=stage).order_by("pk"))
    for seed, match in enumerate(semis):
        play(match, seed=seed)
    return stage, semis


@pytest.mark.django_db
def test_undo_is_refused_while_a_match_fed_by_the_result_has_started(event):
    stage, semis = _semis_played(event)
    final = Match.objects.filter(stage_match__stage=stage, status="scheduled").get()
    local = scoring.new_game(final.game, 2, final.rules)
    game_services.turn_submit(match_id=final.pk, turn=simulate.next_turn(local, random.Random(1)))
    with pytest.raises(UndoBlocked) as blocked:
        game_services.turn_undo(match_id=semis[0].pk, undone_by=None)
    assert blocked.value.details["blocking_matches"] == [final.pk]
    assert Match.objects.get(pk=semis[0].pk).status == "finished"


@pytest.mark.django_db
def test_undo_before_the_next_match_starts_empties_the_slot_it_fed(event):
    stage, semis = _semis_played(event)
    assert StageMatch.objects.filter(stage=stage).count() == 3
    game_services.turn_undo(match_id=semis[0].pk, undone_by=None)
    assert StageMatch.objects.filter(stage=stage).count() == 2
    assert StageMatch.objects.get(match=semis[0]).order is None
    reopened = Match.objects.get(pk=semis[0].pk)
    for turn in simulate.play_game(reopened.scoring_game(), seed=11):
        game_services.turn_submit(match_id=reopened.pk, turn=turn)
    assert StageMatch.objects.filter(stage=stage).count() == 3
    _play_out(stage, seed=9)
    stage.refresh_from_db()
    assert stage.status == "finished"


@pytest.mark.django_db
def test_multi_stage_takes_the_top_of_the_earlier_stage(event):
    players = _field(8)
    swiss = stages.stage_create(event_id=event.pk, name="Swiss", format="swiss", player_ids=players)
    final = fed_stage(swiss, name="Top 4", source_top=4)
    stages.stage_start(stage_id=swiss.pk)
    _play_out(swiss, seed=1)
    swiss.refresh_from_db()
    stages.stage_start(stage_id=final.pk)
    top4 = [p for tier in swiss.ranking for p in tier][:4]
    assert list(final.entries.order_by("seed").values_list("player_id", flat=True)) == top4
    _play_out(final, seed=2)
    final.refresh_from_db()
    assert final.status == "finished"


@pytest.mark.django_db
def test_seeding_by_rating_puts_the_best_rated_first_and_the_unrated_after(league_event, field):
    for index, player in enumerate(field[:3]):
        PlayerRating.objects.create(
            league=league_event.league,
            player_id=player,
            mu=20 + index,
            sigma=3,
            ordinal=11 + index,
            matches=1,
        )
    stage = stages.stage_create(
        event_id=league_event.pk,
        name="Seeded",
        format="single_elimination",
        player_ids=field,
        seeding="rating",
    )
    seeds = list(stage.entries.order_by("seed").values_list("player_id", flat=True))
    assert seeds == [field[2], field[1], field[0], *field[3:]]


def _mirror_game(match: Match, seed: int) -> None:
    """Both players of a Yardzee pair play the very same turns: their totals tie exactly."""
    local = scoring.new_game("yardzee", 2, match.rules)
    rng = random.Random(seed)
    while not local.is_over:
        turn = simulate.next_turn(local, rng)
        for _ in range(2):
            local.play(turn)
            game_services.turn_submit(match_id=match.pk, turn=turn)


@pytest.mark.django_db
def test_a_tie_at_the_cut_is_broken_by_the_stage_tiebreak_order_then_by_seed(organizer):
    league = League.objects.create(name="Z", slug="z", game="yardzee")
    event = Event.objects.create(league=league, name="Cup", date="2026-07-01")
    players = _field(4, "z")
    stage = _started(event, "SE", "single_elimination", players, tiebreak=["points", "total_score"])
    for seed, match in enumerate(Match.objects.filter(stage_match__stage=stage).order_by("pk")):
        play(match, seed=seed)
    final = Match.objects.get(stage_match__stage=stage, status="scheduled")
    _mirror_game(final, seed=8)
    assert set(final.seats.values_list("placement", flat=True)) == {1}
    finalists = list(final.seats.values_list("player_id", flat=True))
    semi_totals = dict(
        Match.objects.filter(stage_match__stage=stage, stage_match__round=1)
        .exclude(pk=final.pk)
        .values_list("seats__player_id", "seats__total")
    )
    stage.refresh_from_db()
    champion = stage.ranking[0][0]
    if semi_totals[finalists[0]] != semi_totals[finalists[1]]:
        assert champion == max(finalists, key=lambda p: semi_totals[p])
    else:
        assert champion == min(finalists, key=lambda p: players.index(p))  # the better seed
    order = StageMatch.objects.get(match=final).order
    assert order[0] == champion


@pytest.mark.django_db
def test_a_stage_takes_a_name_no_other_stage_of_its_event_has(event):
    """The pages name stages ("takes the top 2 of Groups", "Groups must finish before this one
    starts"): two of one name in an event could not be told apart, so a second is refused,
    case aside, when created or renamed; another event may use it."""
    players = _field(4)
    stages.stage_create(event_id=event.pk, name="Groups", format="round_robin", player_ids=players)
    with pytest.raises(LeagueError) as refused:
        stages.stage_create(
            event_id=event.pk, name=" groups ", format="round_robin", player_ids=players
        )
    assert (refused.value.code, refused.value.details) == ("invalid_option", {"field": "name"})
    assert refused.value.message.startswith(
        "name is taken: another stage of Cup is called 'Groups'"  # as it is called
    )
    final = stages.stage_create(
        event_id=event.pk, name="Final", format="round_robin", player_ids=players
    )
    with pytest.raises(LeagueError):
        stages.stage_update(stage_id=final.pk, changes={"name": "GROUPS"})
    stages.stage_update(stage_id=final.pk, changes={"name": "Final", "groups": 1})
    later = Event.objects.create(league=event.league, name="Cup 2", date="2026-07-08")
    stages.stage_create(event_id=later.pk, name="Groups", format="round_robin", player_ids=players)
    assert Stage.objects.filter(name__iexact="groups").count() == 2
