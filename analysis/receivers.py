"""How play analysis follows a match's result (`games.signals`), inside the transaction that
changed it: a finish enqueues the analysis; an undo, a correction's reopening or a void
forgets it; a correction that leaves the result as it was forgets it and enqueues it again
(the turns it was made from changed, the finish did not)."""

from typing import Any

from django.dispatch import receiver

from analysis import forecasts, services
from games.models import Match
from games.signals import (
    match_corrected,
    match_finished,
    match_reopened,
    match_unvoided,
    match_voided,
    turns_stored,
)


@receiver(match_finished, sender=Match, dispatch_uid="analysis.analyse_on_finish")
def analyse_on_finish(sender: type[Match], match: Match, **kwargs: Any) -> None:
    services.analysis_enqueue(match.pk)


@receiver(match_reopened, sender=Match, dispatch_uid="analysis.discard_on_reopen")
def discard_on_reopen(sender: type[Match], match: Match, **kwargs: Any) -> None:
    services.analysis_discard(match_id=match.pk)


@receiver(match_corrected, sender=Match, dispatch_uid="analysis.analyse_on_correction")
def analyse_on_correction(sender: type[Match], match: Match, **kwargs: Any) -> None:
    services.analysis_discard(match_id=match.pk)
    services.analysis_enqueue(match.pk)


@receiver(match_voided, sender=Match, dispatch_uid="analysis.discard_on_void")
def discard_on_void(sender: type[Match], match: Match, **kwargs: Any) -> None:
    services.analysis_discard(match_id=match.pk)


@receiver(turns_stored, sender=Match, dispatch_uid="analysis.forecast_on_turns")
def forecast_on_turns(sender: type[Match], match: Match, **kwargs: Any) -> None:
    forecasts.forecast_enqueue(match.pk)


@receiver(match_reopened, sender=Match, dispatch_uid="analysis.forecast_on_reopen")
@receiver(match_corrected, sender=Match, dispatch_uid="analysis.forecast_on_correction")
@receiver(match_unvoided, sender=Match, dispatch_uid="analysis.forecast_on_unvoid")
def forecast_again(sender: type[Match], match: Match, **kwargs: Any) -> None:
    forecasts.forecast_enqueue(match.pk)


@receiver(match_voided, sender=Match, dispatch_uid="analysis.forecast_discard_on_void")
def forecast_discard_on_void(sender: type[Match], match: Match, **kwargs: Any) -> None:
    forecasts.forecast_discard(match_id=match.pk)
