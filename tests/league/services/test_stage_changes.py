"""A stage's options are checked when it is created, a fed stage's as for as many players as
it will take, and a stage that has not started can be changed or deleted (issue 16, item 4;
docs/draw.md, "Changing a stage before it starts")."""

from typing import Any

import pytest

from games.errors import EventClosed
from league.errors import DrawError, LeagueError, StageConflict
from league.models import Event, Stage
from league.services import stages
from league.services.stages import drafts
from tests.league.services.league_night import groups_stage, new_players
from tests.playing import fed_stage


def _groups(event: Event) -> Stage:
    return groups_stage(event, new_players("G", 12))


def _playoff(source: Stage, **options: Any) -> Stage:
    """A single-elimination "Playoff" fed by `source` (`source_top=4`, or `options`)."""
    if "source_per_group" not in options:
        options.setdefault("source_top", 4)
    return fed_stage(source, name="Playoff", **options)


def _seeds(stage: Stage) -> list[int]:
    return list(stage.entries.order_by("seed").values_list("player_id", flat=True))


@pytest.mark.django_db
def test_item4_a_fed_playoff_with_three_of_four_going_on_is_refused_at_creation(event):
    groups = _groups(event)
    with pytest.raises(DrawError) as error:
        _playoff(groups, source_top=8, table_size=4, advance=3)
    assert error.value.code == "advance"
    assert list(Stage.objects.filter(event=event)) == [groups]


@pytest.mark.django_db
def test_item4_a_fed_stage_is_checked_exactly_as_a_seeded_one_of_its_size(event):
    groups = _groups(event)
    seeded = new_players("S", 8)
    for table_size, advance in ((4, 2), (3, 1)):
        made = stages.stage_create(
            event_id=event.pk,
            name=f"Seeded {table_size}",
            format="single_elimination",
            player_ids=seeded,
            table_size=table_size,
            advance=advance,
        )
        fed = fed_stage(
            groups,
            name=f"Fed {table_size}",
            source_per_group=2,
            source_best_rest=2,
            table_size=table_size,
            advance=advance,
        )
        assert drafts._entrant_count(fed) == made.entries.count() == 8


@pytest.mark.django_db
def test_item4_a_fed_stage_taking_more_than_its_source_holds_is_refused_at_creation(event):
    groups = _groups(event)
    with pytest.raises(DrawError) as error:
        _playoff(groups, source_top=16)
    assert error.value.code == "qualifiers"


@pytest.mark.django_db
def test_item4_a_fed_stage_naming_its_own_participants_is_refused(event):
    groups = _groups(event)
    with pytest.raises(LeagueError) as error:
        _playoff(groups, player_ids=new_players("X", 4))
    assert (error.value.code, error.value.details["field"]) == ("invalid_option", "participants")


@pytest.mark.django_db
def test_a_fed_stage_asked_to_seed_by_rating_or_at_random_is_refused_on_that_field(event):
    # It is seeded by its source's final order. Random or rating seeding had nothing to sort
    # and was refused as `too_few_players` ("needs at least two participants"), on creation
    # and on a change that named a source for a stage seeded at random.
    groups = _groups(event)
    for seeding in ("random", "rating"):
        with pytest.raises(LeagueError) as error:
            _playoff(groups, seeding=seeding)
        assert (error.value.code, error.value.details["field"]) == ("invalid_option", "seeding")
    assert list(Stage.objects.filter(event=event)) == [groups]
    drawn = stages.stage_create(
        event_id=event.pk,
        name="SE",
        format="single_elimination",
        player_ids=new_players("P", 4),
        seeding="random",
    )
    with pytest.raises(LeagueError) as error:
        stages.stage_update(
            stage_id=drawn.pk, changes={"source_stage_id": groups.pk, "source_top": 4}
        )
    assert (error.value.code, error.value.details["field"]) == ("invalid_option", "seeding")
    fed = stages.stage_update(
        stage_id=drawn.pk,
        changes={"source_stage_id": groups.pk, "source_top": 4, "seeding": "manual"},
    )
    assert (fed.source_top, fed.random_seed, _seeds(fed)) == (4, None, [])


@pytest.mark.django_db
def test_item4_a_draft_playoff_with_a_bad_option_is_fixed_with_an_update(event):
    groups = _groups(event)
    playoff = _playoff(groups, source_top=8, table_size=4, advance=2)
    with pytest.raises(DrawError) as error:
        stages.stage_update(stage_id=playoff.pk, changes={"advance": 3})
    assert error.value.code == "advance"
    playoff.refresh_from_db()
    assert playoff.advance == 2  # nothing changed
    changed = stages.stage_update(
        stage_id=playoff.pk,
        changes={"name": "Knockout", "table_size": 2, "advance": 1, "source_per_group": 2},
    )
    assert (changed.name, changed.table_size, changed.source_top) == ("Knockout", 2, None)
    assert drafts._entrant_count(changed) == 6


@pytest.mark.django_db
def test_item4_new_participants_are_seeded_again_and_a_new_seeding_reseeds(event):
    players = new_players("P", 6)
    stage = stages.stage_create(
        event_id=event.pk, name="SE", format="single_elimination", player_ids=players[:4]
    )
    stages.stage_update(stage_id=stage.pk, changes={"player_ids": players[2:]})
    assert _seeds(stage) == players[2:]
    stages.stage_update(stage_id=stage.pk, changes={"seeding": "random"})
    stage.refresh_from_db()
    assert stage.random_seed is not None
    assert sorted(_seeds(stage)) == sorted(players[2:])


@pytest.mark.django_db
def test_item4_a_stage_can_switch_from_its_own_players_to_a_source_and_back(event):
    groups = _groups(event)
    stage = stages.stage_create(
        event_id=event.pk, name="SE", format="single_elimination", player_ids=new_players("P", 4)
    )
    stages.stage_update(stage_id=stage.pk, changes={"source_stage_id": groups.pk, "source_top": 4})
    assert _seeds(stage) == []
    players = new_players("Q", 4)
    stages.stage_update(stage_id=stage.pk, changes={"source_stage_id": None, "player_ids": players})
    stage.refresh_from_db()
    assert (stage.source_stage_id, stage.source_top, _seeds(stage)) == (None, None, players)


@pytest.mark.django_db
def test_item4_a_change_to_a_source_that_a_later_stage_no_longer_fits_is_refused(event):
    groups = _groups(event)
    playoff = _playoff(groups, source_per_group=2)
    with pytest.raises(LeagueError) as later_refuses:
        stages.stage_update(stage_id=groups.pk, changes={"groups": 1})
    assert later_refuses.value.code == "invalid_option"
    assert later_refuses.value.details["stage"] == playoff.pk
    with pytest.raises(DrawError) as itself_refuses:
        stages.stage_update(stage_id=groups.pk, changes={"player_ids": new_players("F", 5)})
    assert itself_refuses.value.code == "groups"  # three groups of five players
    groups.refresh_from_db()
    assert groups.groups == 3


@pytest.mark.django_db
def test_item4_a_stage_cannot_take_its_players_from_a_stage_it_feeds(event):
    groups = _groups(event)
    playoff = _playoff(groups)
    with pytest.raises(LeagueError) as error:
        stages.stage_update(
            stage_id=groups.pk,
            changes={"source_stage_id": playoff.pk, "source_top": 2, "groups": 1},
        )
    assert (error.value.code, error.value.details["field"]) == ("invalid_option", "source_stage")


@pytest.mark.django_db
def test_item4_a_started_stage_is_neither_changed_nor_deleted(event):
    groups = _groups(event)
    stages.stage_start(stage_id=groups.pk)
    with pytest.raises(StageConflict) as changed:
        stages.stage_update(stage_id=groups.pk, changes={"name": "Renamed"})
    with pytest.raises(StageConflict) as deleted:
        stages.stage_delete(stage_id=groups.pk)
    assert changed.value.code == deleted.value.code == "stage_started"
    assert Stage.objects.get(pk=groups.pk).name == "Groups"


@pytest.mark.django_db
def test_item4_a_draft_is_deleted_and_the_stages_after_it_move_up(event):
    first = _groups(event)
    second = stages.stage_create(
        event_id=event.pk, name="Side", format="swiss", player_ids=new_players("S", 4)
    )
    third = _playoff(first)
    stages.stage_delete(stage_id=second.pk)
    assert list(Stage.objects.filter(event=event).values_list("pk", "position")) == [
        (first.pk, 1),
        (third.pk, 2),
    ]


@pytest.mark.django_db
def test_item4_a_stage_another_takes_its_players_from_is_not_deleted(event):
    groups = _groups(event)
    playoff = _playoff(groups)
    with pytest.raises(StageConflict) as error:
        stages.stage_delete(stage_id=groups.pk)
    assert error.value.code == "stage_is_source"
    assert error.value.details["stages"] == [playoff.pk]
    stages.stage_delete(stage_id=playoff.pk)
    stages.stage_delete(stage_id=groups.pk)
    assert not Stage.objects.filter(event=event).exists()


@pytest.mark.django_db
def test_item4_a_closed_event_takes_no_change_of_its_stages(event):
    groups = _groups(event)
    Event.objects.filter(pk=event.pk).update(status="cancelled")
    with pytest.raises(EventClosed):
        stages.stage_update(stage_id=groups.pk, changes={"name": "Renamed"})
    with pytest.raises(EventClosed):
        stages.stage_delete(stage_id=groups.pk)
