"""How `league` reacts to what happens to matches (`games.signals`), inside the transaction
that changed the match: stages advance, a withdrawn result empties what it fed, and the
event's status follows play."""

from typing import Any

from django.dispatch import receiver

from analysis.models import MatchForecast
from analysis.signals import forecast_stored
from games.models import Match
from games.signals import (
    match_finished,
    match_reopened,
    match_started,
    match_unvoided,
    match_voided,
)
from league.models import StageMatch
from league.services import (
    league_projections,
    organization,
    projections,
    stages,
    standings_marks,
)


@receiver(match_finished, sender=Match, dispatch_uid="league.stage_advance")
def advance_stage(sender: type[Match], match: Match, **kwargs: Any) -> None:
    stage_id = StageMatch.objects.filter(match=match).values_list("stage_id", flat=True).first()
    if stage_id is not None:
        stages.stage_advance(stage_id=stage_id)
    standings_marks.result_changed(match)
    if stage_id is not None:  # after the marks: the projection is made at the new version
        projections.projection_mark(stage_id)
    if match.event_id is not None:  # the league table counts its events' matches
        league_projections.league_projection_mark(match.league_id)


@receiver(forecast_stored, sender=MatchForecast, dispatch_uid="league.stage_projection_live")
def project_with_live_chances(sender: type[MatchForecast], match_id: int, **kwargs: Any) -> None:
    """A stage match being played has new chances: its stage is projected again with them
    (once the forecast commits; the job keeps the figures when nothing it reads changed). The
    league's figures wait for the next result (docs/analysis.md, "Chance to win the league")."""
    stage_id = StageMatch.objects.filter(match_id=match_id).values_list("stage_id", flat=True)
    found = stage_id.first()
    if found is not None:
        projections.projection_mark(found)


@receiver(match_reopened, sender=Match, dispatch_uid="league.stage_result_withdrawn")
def withdraw_stage_result(
    sender: type[Match], match: Match, then: dict[str, Any] | None = None, **kwargs: Any
) -> None:
    reseed = bool((then or {}).get("reseed_later_stages"))
    stages.stage_result_withdrawn(match_id=match.pk, reseed=reseed)
    standings_marks.result_changed(match, withdrawn=True)
    stage_id = StageMatch.objects.filter(match=match).values_list("stage_id", flat=True).first()
    if stage_id is not None:
        projections.projection_mark(stage_id)
    if match.event_id is not None:
        league_projections.league_projection_mark(match.league_id)


@receiver(match_voided, sender=Match, dispatch_uid="league.stage_result_voided")
def void_stage_result(
    sender: type[Match],
    match: Match,
    was_finished: bool = False,
    then: dict[str, Any] | None = None,
    voided_by: Any = None,
    **kwargs: Any,
) -> None:
    stages.stage_match_voided(
        match=match, was_finished=was_finished, then=then or {}, voided_by=voided_by
    )
    if was_finished:
        standings_marks.result_changed(match, withdrawn=True)
    if match.event_id is not None:  # a result gone, or a match no longer left to play
        league_projections.league_projection_mark(match.league_id)


@receiver(match_unvoided, sender=Match, dispatch_uid="league.stage_match_unvoided")
def unvoid_stage_match(sender: type[Match], match: Match, **kwargs: Any) -> None:
    stages.stage_match_unvoided(match=match)


# --- An event's status follows play (docs/api.md, "An event's status") -------------------------


@receiver(match_started, sender=Match, dispatch_uid="league.event_running")
def event_running(sender: type[Match], match: Match, **kwargs: Any) -> None:
    if match.event_id is not None:
        organization.event_play_started(event_id=match.event_id)


@receiver(match_finished, sender=Match, dispatch_uid="league.event_play_over")
def event_play_over(sender: type[Match], match: Match, **kwargs: Any) -> None:
    # A stage's last match finishes its stage (and so the event) itself; this is for a match
    # outside the stages that was the last one still being played.
    if match.event_id is not None:
        organization.event_play_over(event_id=match.event_id)
