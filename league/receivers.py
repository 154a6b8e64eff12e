"""How `league` reacts to what happens to matches (`games.signals`), inside the transaction
that changed the match: stages advance, and a withdrawn result empties what it fed."""

from typing import Any

from django.dispatch import receiver

from games.models import Match
from games.signals import match_finished, match_reopened, match_voided
from league.models import StageMatch
from league.services import stages, standings_marks


@receiver(match_finished, sender=Match, dispatch_uid="league.stage_advance")
def advance_stage(sender: type[Match], match: Match, **kwargs: Any) -> None:
    stage_id = StageMatch.objects.filter(match=match).values_list("stage_id", flat=True).first()
    if stage_id is not None:
        stages.stage_advance(stage_id=stage_id)
    standings_marks.result_changed(match)


@receiver(match_reopened, sender=Match, dispatch_uid="league.stage_result_withdrawn")
def withdraw_stage_result(sender: type[Match], match: Match, **kwargs: Any) -> None:
    stages.stage_result_withdrawn(match_id=match.pk)
    standings_marks.result_changed(match, withdrawn=True)


@receiver(match_voided, sender=Match, dispatch_uid="league.stage_result_voided")
def void_stage_result(
    sender: type[Match], match: Match, was_finished: bool = False, **kwargs: Any
) -> None:
    if was_finished:
        stages.stage_result_withdrawn(match_id=match.pk)
        standings_marks.result_changed(match, withdrawn=True)
