"""Match control (docs/organizing.md, "Match control"): undo the last turn, correct a turn,
void (replay, walkover or no result) and take a void back, for the match's organizers.

Each control is a page (or, with htmx, the same page's fragment loaded into the match or
scorekeeping page) that says what the action would do and what else it would change, then a
form posting to it that calls the same service as the API. What else would change is not
guessed: `organize.consequences.rehearse` runs the service in a savepoint and rolls it back.
A confirmation also carries what it was shown (the turn, or a fingerprint of the options), so
a change made meanwhile is shown again instead of being applied unseen."""

import dataclasses
import re
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from games import services as game_services
from games.models import Match, MatchStatus, Seat, Turn
from games.scorecard import turn_summary
from league.models import StageEntry, StageFormat, StageMatch, VoidOutcome
from organize.consequences import Rehearsal, rehearse
from organize.forms.matches import CorrectionForm, VoidForm
from organize.forms.words import worded
from organize.permissions import require_match
from organize.selectors import Names
from scoring.errors import DomainError

# A Yardkle correction offers this many empty throws beyond the stored ones.
EXTRA_THROWS = 2
# What the controls' pages send: a turn's number, and the fingerprint of what was checked
# (`request_fingerprint`: a SHA-256 in hex).
_WHOLE_NUMBER = re.compile(r"[0-9]{1,9}")
_FINGERPRINT = re.compile(r"[0-9a-f]{64}")


def _organized(request: HttpRequest, match_id: int) -> Match:
    match = get_object_or_404(Match.objects.select_related("event__league", "league"), pk=match_id)
    return require_match(request.user, match)


def _back(request: HttpRequest, match: Match) -> str:
    """Where to go when done: `next` when it is a page of this site, else the match page."""
    asked = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        asked, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return asked
    return reverse("games:match", args=[match.pk])


def _show(
    request: HttpRequest, fragment: str, context: dict[str, Any], *, status: int | None = None
) -> HttpResponse:
    """The control's page, or with htmx only its fragment (loaded into the match page; htmx
    swaps only a 200, so a refusal's status is for the page alone): 409 when the service
    refused the action or a POST asked for one the match cannot take (`unavailable`), else
    200, unless `status` says otherwise."""
    if status is None:
        cannot = "unavailable" in context and request.method == "POST"
        status = 409 if "refused" in context or cannot else 200
    context = _in_page_words(context)
    if request.htmx:  # type: ignore[attr-defined]
        return render(request, fragment, {**context, "fragment": fragment})
    return render(
        request, "organize/matches/page.html", {**context, "fragment": fragment}, status=status
    )


def _in_page_words(context: dict[str, Any]) -> dict[str, Any]:
    """The services' refusals in `context` (the confirmed action's, the rehearsal's) as the
    page says them: players, stages and the event by their names, not the API's ids, and a
    turn's dice by the correction form's labels, not JSON paths (`worded`)."""
    refused = context.get("refused")
    if refused is not None:
        context = {**context, "refused": worded(refused)}
    rehearsal = context.get("rehearsal")
    if rehearsal is not None and rehearsal.refused is not None:
        context = {
            **context,
            "rehearsal": dataclasses.replace(rehearsal, refused=worded(rehearsal.refused)),
        }
    return context


def _done(request: HttpRequest, back: str) -> HttpResponse:
    """Back where the organizer came from. A form posted by htmx (from the scoring page,
    whose no-referrer policy would make a plain form's Origin "null" and fail the CSRF check)
    is told to go there itself."""
    if request.htmx:  # type: ignore[attr-defined]
        return HttpResponseClientRedirect(back)
    return redirect(back)


def _attempt(
    request: HttpRequest, context: dict[str, Any], back: str, act: Callable[[], object], done: str
) -> HttpResponse | None:
    """Do the confirmed action and go back, saying `done`; when the service refuses it, keep
    the refusal in `context` for the page to show, and answer None."""
    try:
        act()
    except DomainError as refusal:
        context["refused"] = refusal
        return None
    messages.success(request, done)
    return _done(request, back)


def _unsent(data: Any, *, turn: bool = False) -> str | None:
    """What is wrong with a control's fields, when one holds a value its page never sends:
    `turn` (when asked for) not a whole number, `reseed` other than "1", `checked` not a
    fingerprint. The control answers 400 with the sentence and does nothing; None: all is
    as the page sends it (a turn or a check that is no longer current is not bad input: it
    is shown again)."""
    if turn and not _WHOLE_NUMBER.fullmatch(data.get("turn", "")):
        return "The turn sent is not a turn's number (a whole number): nothing was done."
    if data.get("reseed", "1") != "1":
        return "Re-seeding the later stages is asked with 1 or not at all: nothing was done."
    if not _FINGERPRINT.fullmatch(data.get("checked", "0" * 64)):
        return "What was checked is not said as the page says it: nothing was done."
    return None


def _last_turn(match: Match) -> Turn | None:
    return match.turns.select_related("seat__player").order_by("-sequence").first()


def _summary(match: Match, turn: Turn) -> str:
    return turn_summary(
        sequence=turn.sequence,
        player=turn.seat.player.display_name,
        game=match.game,
        payload=turn.payload,
        points=turn.points,
        bonus=turn.bonus,
    )


def _stage_match(match: Match) -> StageMatch | None:
    return StageMatch.objects.filter(match=match).select_related("stage").first()


def control_panel(match: Match, *, back_url: str) -> dict[str, Any]:
    """What the controls of `match` show (organize/matches/_control.html): the last turn, and
    which controls apply. Two queries."""
    last = _last_turn(match)
    in_stage = match.status != MatchStatus.VOID and _stage_match(match) is not None
    return {
        "match": match,
        "back": back_url,
        "last": _summary(match, last) if last is not None else "",
        "can_undo": last is not None and match.status != MatchStatus.VOID,
        "can_void": match.status != MatchStatus.VOID,
        "can_walkover": in_stage,
        "can_unvoid": match.status == MatchStatus.VOID,
    }


def _confirmed_reseed(
    match: Match, action: Callable[[bool], list[str] | None]
) -> tuple[Rehearsal, bool]:
    """Rehearse `action(reseed)`; when it is refused only because later stages took players
    by this stage's ranking and none of their matches has started (`stage_in_use`, nothing
    played), rehearse it again re-seeding them: the organizer may confirm that."""
    plain = rehearse(match, lambda: action(False))
    refusal = plain.refused
    if (
        refusal is not None
        and refusal.code == "stage_in_use"
        and not (refusal.details or {}).get("played")
    ):
        reseeded = rehearse(match, lambda: action(True))
        if reseeded.refused is None:
            return reseeded, True
    return plain, False


def _seat_results(match: Match) -> str:
    seats = Seat.objects.filter(match=match, placement__isnull=False).select_related("player")
    return ", ".join(
        f"{seat.player.display_name} {seat.total} (place {seat.placement})"
        for seat in seats.order_by("placement", "order")
    )


# --- Undo the last turn --------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def match_undo(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _organized(request, match_id)
    last = _last_turn(match)
    back = _back(request, match)
    context: dict[str, Any] = {"match": match, "back": back, "last": last}
    if last is None or match.status == MatchStatus.VOID:
        context["unavailable"] = (
            "This match is void: take the void back first."
            if last is not None
            else "This match has no turn to undo."
        )
        return _show(request, "organize/matches/_undo.html", context)
    summary = _summary(match, last)

    def undo(reseed: bool) -> list[str]:
        game_services.turn_undo(
            match_id=match.pk, undone_by=request.user, then={"reseed_later_stages": reseed}
        )
        return []

    status = None
    if request.method == "POST":
        if bad := _unsent(request.POST, turn=True):
            context["bad"], status = bad, 400
        elif request.POST.get("turn") != str(last.sequence):
            context["stale"] = f"The last turn is now {summary}: check again what undoing it does."
        elif answer := _attempt(
            request,
            context,
            back,
            lambda: undo(request.POST.get("reseed") == "1"),
            f"{summary} was undone.",
        ):
            return answer
    rehearsal, reseed = _confirmed_reseed(match, undo)
    lines = [
        f"{summary} is taken off the scorecard (kept in the undo records); "
        f"{last.seat.player.display_name} plays turn {last.sequence} again."
    ]
    if match.status == MatchStatus.FINISHED:
        lines.append(f"The result that stood: {_seat_results(match)}.")
    context.update({"summary": summary, "lines": lines, "rehearsal": rehearsal, "reseed": reseed})
    return _show(request, "organize/matches/_undo.html", context, status=status)


# --- Void, walkover, and taking a void back ------------------------------------------------------


def _outcomes(stage_match: StageMatch | None) -> list[str]:
    if stage_match is None:
        return []
    outcomes = [VoidOutcome.REPLAY.value, VoidOutcome.WALKOVER.value]
    if stage_match.stage.format in (StageFormat.ROUND_ROBIN, StageFormat.SWISS):
        outcomes.append(VoidOutcome.NO_RESULT.value)
    return outcomes


@login_required
@require_http_methods(["GET", "POST"])
def match_void(request: HttpRequest, match_id: int, walkover: bool = False) -> HttpResponse:
    """Void the match; for a stage match, with what decides its slot. `walkover`: the same
    control, with the walkover chosen (a player who did not show, or forfeited)."""
    match = _organized(request, match_id)
    back = _back(request, match)
    stage_match = _stage_match(match)
    players = list(
        Seat.objects.filter(match=match)
        .order_by("order")
        .values_list("player_id", "player__display_name")
    )
    context: dict[str, Any] = {"match": match, "back": back, "walkover": walkover}
    if match.status == MatchStatus.VOID:
        context["unavailable"] = "This match is void already."
        return _show(request, "organize/matches/_void.html", context)
    if walkover and stage_match is None:
        context["unavailable"] = "A walkover decides a stage match; this match is in no stage."
        return _show(request, "organize/matches/_void.html", context)
    data = request.POST if request.method == "POST" else request.GET
    chosen = data if "outcome" in data or "forfeits" in data else None
    # Players of the table who have withdrawn from its stage cannot play on (`player_withdrawn`):
    # the form starts at a walkover against them.
    gone = _withdrawn_at(stage_match, [player for player, _name in players])
    initial: dict[str, Any] = {
        "outcome": VoidOutcome.WALKOVER if walkover or gone else VoidOutcome.REPLAY,
        "forfeits": gone,
    }
    form = VoidForm(chosen, players=players, outcomes=_outcomes(stage_match), initial=initial)
    context.update({"form": form, "in_stage": stage_match is not None})
    if chosen is not None and not form.is_valid():
        return _show(request, "organize/matches/_void.html", context, status=400)
    then = form.then() if chosen is not None else _initial_then(stage_match, walkover, gone)
    fingerprint = game_services.request_fingerprint(then)
    status = None
    if request.method == "POST" and (bad := _unsent(request.POST)):
        context["bad"], status = bad, 400

    def void(reseed: bool) -> list[str]:
        game_services.match_void(
            match_id=match.pk,
            voided_by=request.user,
            then={**then, "reseed_later_stages": reseed} if reseed else then,
        )
        return []

    if request.method == "POST" and "confirm" in request.POST and status is None:
        if request.POST.get("checked") != fingerprint:
            context["stale"] = "The choice changed since it was checked: check what it does now."
        elif answer := _attempt(
            request, context, back, lambda: void(False), f"Match #{match.pk} was voided."
        ):
            return answer
    rehearsal, reseed = _confirmed_reseed(match, void)
    if reseed:
        then = {**then, "reseed_later_stages": True}
        fingerprint = game_services.request_fingerprint(then)
    context.update({"rehearsal": rehearsal, "checked": fingerprint, "reseed": reseed})
    return _show(request, "organize/matches/_void.html", context, status=status)


def _withdrawn_at(stage_match: StageMatch | None, seated: list[int]) -> list[int]:
    """The players of the table who have withdrawn from its stage, in seat order."""
    if stage_match is None:
        return []
    gone = set(
        StageEntry.objects.filter(
            stage_id=stage_match.stage_id, player_id__in=seated, withdrawn_at__isnull=False
        ).values_list("player_id", flat=True)
    )
    return [player for player in seated if player in gone]


def _initial_then(
    stage_match: StageMatch | None, walkover: bool, withdrawn: list[int]
) -> dict[str, Any]:
    """What the form starts with: a replay (or a walkover to choose); a plain void off-stage.
    A walkover names no one until the organizer ticks who forfeits, but the players who have
    withdrawn from the stage (a replay would seat them again)."""
    if stage_match is None:
        return {}
    if walkover or withdrawn:
        return {"outcome": VoidOutcome.WALKOVER, "forfeits": withdrawn, "reason": "awarded"}
    return {"outcome": VoidOutcome.REPLAY}


@login_required
@require_http_methods(["GET", "POST"])
def match_unvoid(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _organized(request, match_id)
    back = _back(request, match)
    context: dict[str, Any] = {"match": match, "back": back}
    if match.status != MatchStatus.VOID:
        context["unavailable"] = "This match is not void."
        return _show(request, "organize/matches/_unvoid.html", context)

    def unvoid() -> list[str]:
        game_services.match_unvoid(match_id=match.pk, unvoided_by=request.user)
        return []

    status = None
    if request.method == "POST" and (bad := _unsent(request.POST)):
        context["bad"], status = bad, 400
    elif request.method == "POST" and (
        answer := _attempt(
            request, context, back, unvoid, f"The void of match #{match.pk} was taken back."
        )
    ):
        return answer
    context["rehearsal"] = rehearse(match, unvoid)
    return _show(request, "organize/matches/_unvoid.html", context, status=status)


# --- Correct a turn ------------------------------------------------------------------------------


def _asked_turn(asked: str | None, match: Match) -> int:
    """The turn `?turn=` asks for (a whole number: `_unsent` checked it) when the match has
    played it; else its last turn."""
    if asked is not None and 1 <= int(asked) <= match.turns_played:
        return int(asked)
    return match.turns_played


@login_required
@require_http_methods(["GET", "POST"])
def match_correct(request: HttpRequest, match_id: int) -> HttpResponse:
    """Correct turn `?turn=N` (the last by default): type the turn as it was, check what the
    correction changes (its points, later turns rescored, totals, the result and what it fed),
    then confirm."""
    match = _organized(request, match_id)
    back = _back(request, match)
    context: dict[str, Any] = {"match": match, "back": back}
    if match.status == MatchStatus.VOID or not match.turns_played:
        context["unavailable"] = (
            "This match is void: take the void back first."
            if match.turns_played
            else "This match has no turn to correct."
        )
        return _show(request, "organize/matches/_correct.html", context)
    asked = request.GET.get("turn")
    bad = _unsent(request.GET, turn=asked is not None) or (
        _unsent(request.POST) if request.method == "POST" else None
    )
    number = _asked_turn(None if bad else asked, match)
    status = 400 if bad else None
    if bad:
        context["bad"] = bad
    elif asked is not None and int(asked) != number:
        # A turn undone since the page was shown, or never played: its last is shown.
        context["stale"] = (
            f"This match has no turn {int(asked)} (it has {match.turns_played}): "
            f"here is turn {number}, nothing was done."
        )
    turn = match.turns.select_related("seat__player").get(sequence=number)
    stored = turn.payload if isinstance(turn.payload, dict) else {}
    rows = 3 if match.game == "yardzee" else len(stored.get("throws") or []) + EXTRA_THROWS
    data = request.POST if request.method == "POST" else None
    form = CorrectionForm(data, game=match.game, stored=stored, rows=rows)
    context.update({"turn": turn, "summary": _summary(match, turn), "form": form})
    if data is None:
        return _show(request, "organize/matches/_correct.html", context, status=status)
    if not form.is_valid():
        return _show(request, "organize/matches/_correct.html", context, status=400)
    corrected = form.turn(turn.seat.player_id)
    fingerprint = game_services.request_fingerprint(corrected)
    confirmed = "confirm" in request.POST and "stale" not in context and status is None
    if confirmed and request.POST.get("checked") == fingerprint:
        try:
            outcome = game_services.turn_correct(
                match_id=match.pk,
                sequence=number,
                turn=corrected,
                corrected_by=request.user,
                then={"reseed_later_stages": request.POST.get("reseed") == "1"},
            )
        except DomainError as refusal:
            context["refused"] = refusal
        else:
            if outcome.correction is None:
                messages.info(request, f"Turn {number} was already so: nothing changed.")
            else:
                messages.success(request, f"Turn {number} was corrected.")
            return _done(request, back)
    elif confirmed:
        context["stale"] = "The turn changed since it was checked: check what it does now."

    def correct(reseed: bool) -> list[str]:
        return _correction_lines(match, turn, corrected, request.user, reseed)

    rehearsal, reseed = _confirmed_reseed(match, correct)
    names = Names(players={turn.seat.player_id: turn.seat.player.display_name})
    if form.refuses(rehearsal.refused, number, names):
        # The turn typed breaks a rule itself: bad input, shown on the form (400), not a
        # consequence to weigh.
        context.pop("refused", None)
        return _show(request, "organize/matches/_correct.html", context, status=400)
    context.update({"rehearsal": rehearsal, "checked": fingerprint, "reseed": reseed})
    return _show(request, "organize/matches/_correct.html", context, status=status)


def _correction_lines(
    match: Match, turn: Turn, corrected: dict[str, Any], user: Any, reseed: bool
) -> list[str]:
    """Correct the turn (inside the rehearsal's savepoint) and say what it did to the match:
    the turn's new line, later turns rescored, and each player whose total moves."""
    seats = list(match.seats.select_related("player").order_by("order"))
    before_game = match.scoring_game()
    outcome = game_services.turn_correct(
        match_id=match.pk,
        sequence=turn.sequence,
        turn=corrected,
        corrected_by=user,
        then={"reseed_later_stages": reseed},
    )
    if outcome.correction is None:
        return ["This is the turn as stored: nothing changes."]
    lines = [
        f"{_summary(match, outcome.turn)} (it was: {_summary(match, turn).split(': ', 1)[1]})."
    ]
    rescored = {row["sequence"]: row for row in outcome.correction.rescored}
    if rescored:
        now = Turn.objects.filter(match=match, sequence__in=rescored).select_related("seat__player")
        lines.extend(
            f"Turn {row.sequence} ({row.seat.player.display_name}) is rescored: "
            f"{rescored[row.sequence]['points'] + rescored[row.sequence]['bonus']:,} → "
            f"{row.points + row.bonus:,}."
            for row in now.order_by("sequence")
        )
    if outcome.replayed and not rescored:
        lines.append(
            "The later turn is played again and scores the same."
            if outcome.replayed == 1
            else f"The {outcome.replayed} later turns are played again and score the same."
        )
    moved = [
        f"{seat.player.display_name}'s total: {before_game.total(seat.order):,} → "
        f"{outcome.game.total(seat.order):,}."
        for seat in seats
        if before_game.total(seat.order) != outcome.game.total(seat.order)
    ]
    lines.extend(moved)
    if moved and match.status == MatchStatus.FINISHED and match.event_id is not None:
        lines.append(
            "The result changes: the standings of its event and league (and stage) are counted "
            "again, and the league's ratings."
        )
    return lines
