"""What a delivery's body says about each event (docs/api.md, "Webhooks"): plain JSON built
from the stored rows once the change has committed. Paths point into the API for the rest."""

from typing import Any

from django.db.models import Model

from games.models import Match, MatchStatus
from league.models import (
    Event,
    League,
    Registration,
    SignUp,
    Stage,
    StageMatch,
    StandingsScope,
)

API = "/api/v1"


def league_of_match(match_id: int) -> int | None:
    """The match's league: its own, or its event's (an event's match may leave its own empty)."""
    row = Match.objects.filter(pk=match_id).values_list("league_id", "event__league_id").first()
    return None if row is None else (row[0] or row[1])


def league_of_stage(stage_id: int) -> int | None:
    return Stage.objects.filter(pk=stage_id).values_list("event__league_id", flat=True).first()


def league_of_event(event_id: int) -> int | None:
    return Event.objects.filter(pk=event_id).values_list("league_id", flat=True).first()


def league_of_registration(registration_id: int) -> int | None:
    return (
        Registration.objects.filter(pk=registration_id)
        .values_list("event__league_id", flat=True)
        .first()
    )


def league(league_id: int) -> dict[str, Any]:
    slug = League.objects.values_list("slug", flat=True).get(pk=league_id)
    return {"id": league_id, "slug": slug, "path": f"{API}/leagues/{slug}/"}


def _match_head(match: Match) -> dict[str, Any]:
    """What every match payload says of the match: its id, game, event, stage and address."""
    stage_id = StageMatch.objects.filter(match=match).values_list("stage_id", flat=True).first()
    return {
        "id": match.pk,
        "game": match.game,
        "event": match.event_id,
        "stage": stage_id,
        "path": f"{API}/matches/{match.pk}/",
    }


def match_finished(match_id: int) -> dict[str, Any] | None:
    """None when the match no longer stands finished (its result withdrawn since)."""
    match = Match.objects.filter(pk=match_id, status=MatchStatus.FINISHED).first()
    if match is None:
        return None
    seats = match.seats.select_related("player").order_by("order")
    return {
        "match": {
            **_match_head(match),
            "finished_at": match.finished_at,
            "seats": [
                {
                    "player": seat.player_id,
                    "name": seat.player.display_name,
                    "total": seat.total,
                    "placement": seat.placement,
                }
                for seat in seats
            ],
        }
    }


def match_upset(match_id: int, player_id: int, chance: float) -> dict[str, Any] | None:
    """The finished match, its winner and the chance the ratings gave them before it; None
    when the result no longer stands."""
    finished = match_finished(match_id)
    if finished is None:
        return None
    return {**finished, "winner": player_id, "chance_before": round(chance, 4)}


def stage_finished(stage_id: int) -> dict[str, Any]:
    return _finished("stage", Stage, stage_id, "event", "name", "format", "finished_at", "ranking")


def event_finished(event_id: int) -> dict[str, Any]:
    return _finished("event", Event, event_id, "name", "date", "status")


def _finished(name: str, model: type[Model], pk: int, *fields: str) -> dict[str, Any]:
    """The row's id and `fields` (a foreign key as its id) under `name`, with its API path."""
    row = model._default_manager.values("id", *fields).get(pk=pk)
    return {name: {**row, "path": f"{API}/{name}s/{pk}/"}}


def standings_changed(scope: str, scope_id: int, version: int) -> dict[str, Any]:
    if scope == StandingsScope.LEAGUE:
        slug = League.objects.values_list("slug", flat=True).get(pk=scope_id)
        path = f"{API}/leagues/{slug}/standings/"
    else:
        path = f"{API}/{scope}s/{scope_id}/standings/"
    return {"table": {"scope": scope, "scope_id": scope_id, "version": version, "path": path}}


def registration_changed(registration_id: int) -> dict[str, Any] | None:
    """The registration as it stands (never its email nor its key); the organizers' list of
    the event's registrations at `path`."""
    row = (
        Registration.objects.filter(pk=registration_id)
        .values("id", "event", "display_name", "status", "player", "created_at", "decided_at")
        .first()
    )
    if row is None:
        return None
    return {"registration": {**row, "path": f"{API}/events/{row['event']}/registrations/"}}


def check_in_opened(event_id: int, opened_at: Any) -> dict[str, Any] | None:
    """The event and its check-in window; None when it no longer uses check-in."""
    sign_up = SignUp.objects.select_related("event").filter(event_id=event_id).first()
    if sign_up is None or not sign_up.check_in:
        return None
    event = sign_up.event
    return {
        "event": {
            "id": event.pk,
            "name": event.name,
            "date": event.date,
            "path": f"{API}/events/{event.pk}/",
        },
        "check_in": {
            "opened_at": opened_at,
            "opens": sign_up.check_in_opens,
            "closes": sign_up.check_in_closes,
        },
    }


def match_ready(match_id: int) -> dict[str, Any] | None:
    """The match seated and its table and start where scheduled; None when it is no longer
    waiting to be played (voided, or already under way)."""
    match = Match.objects.filter(pk=match_id, status=MatchStatus.SCHEDULED).first()
    if match is None:
        return None
    seats = match.seats.select_related("player").order_by("order")
    return {
        "match": {
            **_match_head(match),
            "table": match.table_label,
            "planned_at": match.planned_at,
            "seats": [
                {"player": seat.player_id, "name": seat.player.display_name} for seat in seats
            ],
        }
    }
