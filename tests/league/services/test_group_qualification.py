"""A round robin played in groups (issue 16, item 3): each group has its own table, in which
no metric, and head-to-head least of all, compares players of different groups; the stage's
final order merges the groups place by place; and a later stage takes the top N of each group
plus the best k of the rest (docs/draw.md, "Round robin and groups")."""

import random

import pytest

from games.models import Match
from league import standings
from league.errors import DrawError, LeagueError
from league.models import Stage, StageEntry, StandingsScope
from league.results import load_results
from league.services import stages, standings_refresh
from tests.league.services.league_night import finish, groups_stage, new_players
from tests.playing import fed_stage


def _play_out(stage: Stage, seed: int = 0) -> None:
    """Finish every scheduled match of the stage, in a random order, until none is left."""
    rng = random.Random(seed)
    for played in range(500):
        waiting = list(Match.objects.filter(stage_match__stage=stage, status="scheduled"))
        if not waiting:
            return
        finish(rng.choice(waiting).pk, seed=seed * 1000 + played)
    raise AssertionError("the stage did not finish")


def _order(tiers: list[list[int]]) -> list[int]:
    return [player for tier in tiers for player in tier]


@pytest.mark.django_db
def test_item3_each_group_is_ranked_from_its_own_results_alone(event):
    players = new_players("G", 12)
    groups = groups_stage(event, players)
    stages.stage_start(stage_id=groups.pk)
    _play_out(groups, seed=1)
    groups.refresh_from_db()
    assert groups.status == "finished"
    tiebreak, table = standings_refresh.compute_table((StandingsScope.STAGE, groups.pk))
    members = dict(StageEntry.objects.filter(stage=groups).values_list("player_id", "group"))
    results, _ = load_results((StandingsScope.STAGE, groups.pk), with_times=False)
    points = standings.LeaguePoints.from_json(groups.points)
    for number in (1, 2, 3):
        group = [p for p, g in members.items() if g == number]
        own_results = [r for r in results if {s.player for s in r.seats} <= set(group)]
        alone = standings.compute_standings(
            own_results, game="yardzee", tiebreak_order=tiebreak, players=group, points=points
        )
        rows = [row for row in table if row.group == number]
        # The group's rows are its own table: same places, same values (head-to-head included).
        assert [(r.player, r.rank, dict(r.metrics)) for r in rows] == [
            (s.player, s.rank, dict(s.metrics)) for s in alone
        ]
        tiers: dict[int, list[int]] = {}
        for s in alone:
            tiers.setdefault(s.rank, []).append(s.player)
        assert groups.group_ranking[str(number)] == [tiers[r] for r in sorted(tiers)]
    assert sorted(_order(groups.ranking)) == sorted(players)


@pytest.mark.django_db
def test_item3_the_final_order_goes_place_by_place_group_winners_first(event):
    groups = groups_stage(event, new_players("G", 12))
    stages.stage_start(stage_id=groups.pk)
    _play_out(groups, seed=2)
    groups.refresh_from_db()
    place_of = {
        player: place
        for tiers in groups.group_ranking.values()
        for place, player in _with_places(tiers)
    }
    merged = _order(groups.ranking)
    assert [place_of[p] for p in merged] == sorted(place_of[p] for p in merged)
    table = standings_refresh.compute_table((StandingsScope.STAGE, groups.pk))[1]
    assert groups.ranking == [list(t) for t in standings.merge_groups(table, groups.tiebreak)]


def _with_places(tiers: list[list[int]]) -> list[tuple[int, int]]:
    placed: list[tuple[int, int]] = []
    place = 1
    for tier in tiers:
        placed.extend((place, player) for player in tier)
        place += len(tier)
    return placed


@pytest.mark.django_db
def test_item3_a_knockout_takes_the_top_two_of_each_group_and_the_two_best_thirds(event):
    groups = groups_stage(event, new_players("G", 12))
    knockout = fed_stage(groups, source_per_group=2, source_best_rest=2)
    stages.stage_start(stage_id=groups.pk)
    _play_out(groups, seed=3)
    groups.refresh_from_db()
    stages.stage_start(stage_id=knockout.pk)
    seeded = list(knockout.entries.order_by("seed").values_list("player_id", flat=True))
    seeds = dict(groups.entries.values_list("player_id", "seed"))

    def cut(tiers: list[list[int]]) -> list[int]:
        return [p for tier in tiers for p in sorted(tier, key=seeds.__getitem__)]

    top_two = {p for tiers in groups.group_ranking.values() for p in cut(tiers)[:2]}
    rest = [p for p in cut(groups.ranking) if p not in top_two]
    assert set(seeded) == top_two | set(rest[:2])
    assert len(seeded) == 8
    # Seeded place by place: the three group winners first, then the runners-up, then the two
    # best thirds (within a place, the final order but for swaps that keep group-mates apart).
    place_of = {
        p: cut(tiers).index(p) for tiers in groups.group_ranking.values() for p in cut(tiers)
    }
    assert [place_of[p] for p in seeded] == [0, 0, 0, 1, 1, 1, 2, 2]
    assert {seeded[0], seeded[1], seeded[2]} == {
        cut(tiers)[0] for tiers in groups.group_ranking.values()
    }
    _play_out(knockout, seed=4)
    knockout.refresh_from_db()
    assert knockout.status == "finished"


@pytest.mark.django_db
def test_item3_source_top_still_takes_the_top_n_of_the_final_order(event):
    groups = groups_stage(event, new_players("G", 12))
    final = fed_stage(groups, name="Final table", format="round_robin", source_top=4, table_size=4)
    stages.stage_start(stage_id=groups.pk)
    _play_out(groups, seed=5)
    groups.refresh_from_db()
    stages.stage_start(stage_id=final.pk)
    seeds = dict(groups.entries.values_list("player_id", "seed"))
    order = [p for tier in groups.ranking for p in sorted(tier, key=seeds.__getitem__)]
    assert list(final.entries.order_by("seed").values_list("player_id", flat=True)) == order[:4]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"source_top": 4, "source_per_group": 2}, "source_per_group"),
        ({"source_top": 4, "source_best_rest": 2}, "source_best_rest"),
        ({"source_best_rest": 2}, "source_best_rest"),
        ({"source_per_group": 0}, "source_per_group"),
    ],
)
def test_item3_contradictory_ways_of_taking_players_are_refused(event, options, field):
    groups = groups_stage(event, new_players("G", 12))
    with pytest.raises(LeagueError) as error:
        fed_stage(groups, **options)
    assert error.value.code == "invalid_option"
    assert error.value.details["field"] == field
    assert Stage.objects.filter(event=event).count() == 1


@pytest.mark.django_db
def test_item3_the_top_of_each_group_is_refused_from_a_stage_not_played_ingroups_stage(event):
    swiss = stages.stage_create(
        event_id=event.pk, name="Swiss", format="swiss", player_ids=new_players("S", 8)
    )
    with pytest.raises(LeagueError) as error:
        fed_stage(swiss, source_per_group=2)
    assert error.value.code == "invalid_option"
    assert "source_top" in error.value.message


@pytest.mark.django_db
@pytest.mark.parametrize(("per_group", "best_rest"), [(5, 0), (4, 1), (3, 4)])
def test_item3_taking_more_than_the_groups_hold_is_refused_at_creation(event, per_group, best_rest):
    groups = groups_stage(event, new_players("G", 12))  # three groups of four
    with pytest.raises(DrawError) as error:
        fed_stage(groups, source_per_group=per_group, source_best_rest=best_rest)
    assert error.value.code == "qualifiers"


@pytest.mark.django_db
def test_item3_only_a_round_robin_is_played_ingroups_stage(event):
    with pytest.raises(LeagueError) as error:
        stages.stage_create(
            event_id=event.pk,
            name="Swiss",
            format="swiss",
            player_ids=new_players("S", 8),
            groups=2,
        )
    assert error.value.code == "invalid_option"
    assert error.value.details["field"] == "groups"


@pytest.mark.django_db
def test_item3_more_groups_than_pairs_of_players_is_refused_at_creation(event):
    with pytest.raises(DrawError) as error:
        groups_stage(event, new_players("G", 5))  # three groups need six players
    assert error.value.code == "groups"


def _group_of(stage: Stage) -> dict[int, int]:
    return dict(stage.entries.values_list("player_id", "group"))


def _first_round_tables(stage: Stage) -> list[set[int]]:
    return [
        set(Match.objects.get(pk=sm.match_id).seats.values_list("player_id", flat=True))
        for sm in stage.stage_matches.filter(round=1).exclude(match=None)
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("format", "options", "seated"),
    [
        # The merged order alone can seat a group's winner against its own runner-up or third
        # (seeds 1 v 8, 2 v 7, 3 v 6); swaps within a place keep them apart.
        ("single_elimination", {"source_per_group": 2, "source_best_rest": 2}, 8),
        ("swiss", {"source_top": 12}, 12),  # round 1 pairs seeds 1 v 7, 2 v 8, ...
    ],
)
@pytest.mark.parametrize("seed", range(5))
def test_item3_group_mates_sit_apart_in_the_next_stages_first_round(
    event, format, options, seated, seed
):
    groups = groups_stage(event, new_players("G", 12))
    following = fed_stage(groups, name="Next", format=format, **options)
    stages.stage_start(stage_id=groups.pk)
    _play_out(groups, seed=10 + seed)
    groups.refresh_from_db()
    stages.stage_start(stage_id=following.pk)
    group_of = _group_of(groups)
    tables = _first_round_tables(following)
    assert sum(len(table) for table in tables) == seated
    for table in tables:
        assert len({group_of[p] for p in table}) == len(table), table


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(3))
def test_item3_a_round_robin_in_groups_after_groups_deals_group_mates_apart(event, seed):
    """Four groups of three, then three groups of four: each new group can hold one player of
    every old group (the snake alone would put the best two of a group together)."""
    first = groups_stage(event, new_players("G", 12), groups=4, table_size=3)
    second = fed_stage(first, name="Second groups", format="round_robin", source_top=12, groups=3)
    stages.stage_start(stage_id=first.pk)
    _play_out(first, seed=30 + seed)
    first.refresh_from_db()
    stages.stage_start(stage_id=second.pk)
    old_group = _group_of(first)
    new_groups: dict[int, list[int]] = {}
    for player, group in _group_of(second).items():
        new_groups.setdefault(group, []).append(player)
    assert sorted(len(g) for g in new_groups.values()) == [4, 4, 4]
    for players in new_groups.values():
        assert len({old_group[p] for p in players}) == 4, players
