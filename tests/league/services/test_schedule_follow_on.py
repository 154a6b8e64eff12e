"""Issue 38, item 4: a stage's later rounds scheduled as they are seated, at the tables their
players left and from when the round before them ended (`round_schedule(...,
follow_on_minutes=)`, `league.services.schedule.follow_on`), in a Swiss stage, a bracket fed
by it, and never in a round robin's rounds seated at its start."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Match
from league.models import Event, Stage
from league.services import schedule, stages
from tests.organize.test_events import roster
from tests.playing import fed_stage, play, start_stage

pytestmark = pytest.mark.django_db


def _round(stage: Stage, number: int) -> list[Match]:
    return list(
        Match.objects.filter(stage_match__stage=stage, stage_match__round=number).order_by("pk")
    )


def _schedule_first(stage: Stage, **options: object) -> None:
    schedule.round_schedule(
        stage_id=stage.pk,
        round_number=1,
        first_start=timezone.now() + timedelta(hours=1),
        label="Yard {n}",
        time_zone="Europe/Berlin",
        **options,  # type: ignore[arg-type]
    )


def test_follow_on_seats_the_next_swiss_round_at_the_tables_left_from_when_the_round_ended(
    yardzee_event: Event,
):
    swiss = start_stage(yardzee_event, "swiss", roster(yardzee_event.league, 8), rounds=2)
    _schedule_first(swiss, follow_on_minutes=10)
    first = _round(swiss, 1)
    for number, match in enumerate(first):
        play(match, seed=number)
    ended = timezone.now()
    second = _round(swiss, 2)
    assert len(second) == 4
    labels = {m.table_label for m in second}
    assert labels == {"Yard 1", "Yard 2", "Yard 3", "Yard 4"}  # the tables left, each once
    for match in second:
        assert match.planned_zone == "Europe/Berlin"
        assert match.planned_at is not None
        assert ended + timedelta(minutes=9) < match.planned_at <= ended + timedelta(minutes=11)
        assert match.planned_at.second == 0
        assert match.schedule_sequence == 1
        # A table one of its players left, unless a match seated before it took those.
        players = list(match.seats.values_list("player_id", flat=True))
        left = {m.table_label for m in first if m.seats.filter(player_id__in=players).exists()}
        taken = {m.table_label for m in second if m.pk < match.pk}
        assert match.table_label in left or left <= taken


def test_follow_on_carries_into_the_stage_fed_by_the_followed_one(yardzee_event: Event):
    swiss = start_stage(yardzee_event, "swiss", roster(yardzee_event.league, 4), rounds=1)
    knockout = fed_stage(swiss, source_top=4)
    _schedule_first(swiss, follow_on_minutes=5)
    for number, match in enumerate(_round(swiss, 1)):
        play(match, seed=number)
    if Stage.objects.get(pk=knockout.pk).status == "draft":
        stages.stage_start(stage_id=knockout.pk)
    semis = _round(knockout, 1)
    assert len(semis) == 2
    assert {m.table_label for m in semis} == {"Yard 1", "Yard 2"}
    assert all(m.planned_at is not None for m in semis)
    for number, match in enumerate(semis):
        play(match, seed=number)
    final = [m for m in _round(knockout, 2) if m.status == "scheduled"]
    assert final
    assert final[0].table_label in {"Yard 1", "Yard 2"}


def test_follow_on_leaves_a_round_robins_later_rounds_and_can_be_stopped(yardzee_event: Event):
    pool = start_stage(yardzee_event, "round_robin", roster(yardzee_event.league, 4))
    _schedule_first(pool, follow_on_minutes=0)
    assert all(m.planned_at is None for m in _round(pool, 2))
    schedule.round_schedule(
        stage_id=pool.pk,
        round_number=2,
        first_start=timezone.now() + timedelta(hours=2),
        follow_on_minutes=None,
    )
    assert Stage.objects.get(pk=pool.pk).follow_minutes is None


def test_without_follow_on_later_rounds_stay_unscheduled(yardzee_event: Event):
    swiss = start_stage(yardzee_event, "swiss", roster(yardzee_event.league, 4), rounds=2)
    _schedule_first(swiss)
    for number, match in enumerate(_round(swiss, 1)):
        play(match, seed=number)
    assert [m.planned_at for m in _round(swiss, 2)] == [None, None]
