"""An import: the league checked (`ensure_importable`), then the file played again into it
(`event_import`, one transaction)."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from league.errors import LeagueConflict, LeagueError
from league.models import Event, League
from league.services.exports.checks import check_export
from league.services.exports.replay import _Replay
from league.services.organization import league_update


@dataclass(frozen=True, slots=True)
class EventImport:
    """What an import made: the new event, and the new id of each player and match of the file
    (by its id there)."""

    event: Event
    players: dict[int, int]
    matches: dict[int, int]


def ensure_importable(league: League, export: Mapping[str, Any]) -> None:
    """The league takes this export: it has no event or match yet (409 `league_not_empty`)
    and plays the file's game (400 `wrong_game`)."""
    if league.game_is_settled():
        raise LeagueConflict(
            "league_not_empty",
            f"{league.name} already has events or matches: an event is imported into an empty "
            "league, so that its tables are the file's.",
            details={"league": league.slug},
        )
    if export["league"]["game"] != league.game:
        raise LeagueError(
            "wrong_game",
            f"The file is an event of {export['league']['game']}; {league.name} plays "
            f"{league.game}.",
            details={"league_game": league.game, "file_game": export["league"]["game"]},
        )


@transaction.atomic
def event_import(*, league: League, data: object, by: User | None = None) -> EventImport:
    """Play an exported event again in `league`, which has no event or match yet (409
    `league_not_empty` otherwise) and plays the file's game (400 `wrong_game`). The league takes
    the file's rules, tiebreak order and points (so its tables rank as the original's did).
    All or nothing: see the module's docstring for the errors."""
    export = check_export(data)
    league = League.objects.select_for_update().get(pk=league.pk)
    ensure_importable(league, export)
    settings = export["league"]
    league = league_update(
        league=league,
        rules=settings["rules"],
        tiebreak=settings["tiebreak"],
        points=settings["points"],
    )
    replay = _Replay(league=league, export=export, by=by)
    replay.run()
    return EventImport(event=replay.event, players=replay.players, matches=replay.matches)
