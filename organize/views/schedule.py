"""Scheduling a round from the organizer pages (docs/organizing.md, "Scheduling a round"): the
round's tables numbered and their starts staggered in one go (`round_schedule`), then back to
the round sheet, which shows them."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponseBase
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from league.services import schedule
from organize import selectors
from organize.forms import page_status
from organize.forms.schedule import RoundScheduleForm
from organize.views.events import organized_stage
from scoring.errors import DomainError


@login_required
@require_http_methods(["GET", "POST"])
def round_schedule_page(request: HttpRequest, stage_id: int, number: int) -> HttpResponseBase:
    """The form, with the round's tables as they are scheduled now; done, the round sheet."""
    stage = organized_stage(request, stage_id)
    rows = selectors.stage_tables([stage.pk], round_=number)[stage.pk]
    if not rows:
        raise Http404(f"Round {number} of {stage.name} has no tables yet.")
    form = RoundScheduleForm(
        request.POST or None, initial={"follow_on_minutes": stage.follow_minutes}
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            done = schedule.round_schedule(
                stage_id=stage.pk,
                round_number=number,
                first_start=data["first_start"],
                interval_minutes=data["interval_minutes"],
                tables=data["tables"],
                label=data["label"],
                time_zone=data["time_zone"],
                follow_on_minutes=data["follow_on_minutes"],
            )
        except DomainError as error:
            form.refuse(error)
        else:
            left = f"; {len(done.skipped)} already started kept theirs" if done.skipped else ""
            messages.success(
                request,
                f"Round {number} of {stage.name} is scheduled: "
                f"{len(done.matches)} table{'s' if len(done.matches) != 1 else ''}{left}.",
            )
            return redirect("organize:round_sheet", stage.pk, number)
    return render(
        request,
        "organize/events/schedule.html",
        {
            "stage": stage,
            "event": stage.event,
            "league": stage.event.league,
            "number": number,
            "rows": [row for row in rows if row.match is not None],
            "form": form,
        },
        status=page_status(form),
    )
