"""What the API's views share: whether an action reads, the schema's error answers, headers and
examples, the table renderers (JSON or CSV) and the standings answer."""

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from api import serializers as s
from api.renderers import CSVRenderer
from league import selectors
from league.models import Player
from league.services import standings_refresh
from scoring import yardkle, yardzee


def reads(request: Request) -> bool:
    """Whether an action that both reads and writes (GET and POST) is asked to read: a GET, or
    a HEAD, which DRF routes to the GET handler. A HEAD must never take the write branch (it
    would store a turn or a stage with no throttle and no CSRF check, and answer no body)."""
    return request.method in ("GET", "HEAD")


ERRORS = dict.fromkeys((400, 401, 403, 404, 409, 422), s.ErrorSerializer)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="Any unique string (e.g. a UUID). A retry with the same key and body returns "
    "the first answer and applies nothing again; the same key with another body is 422.",
)
SCORE_KEY = OpenApiParameter(
    "X-Score-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="The match's scoring key (or `?key=`): lets its holder keep score for it.",
)
YARDZEE_TURN = OpenApiExample(
    "Yardzee turn", value={"player": 7, "turn_number": 1, **yardzee.EXAMPLE_TURN}
)
YARDKLE_TURN = OpenApiExample(
    "Yardkle turn",
    value={"player": 7, **yardkle.EXAMPLE_TURN},
    description="Banks 450: a player already on the board may; a player's first bank needs the "
    "entry minimum (500 by default), or is 422 `bank_below_entry_minimum`.",
)


TABLE_RENDERERS = [JSONRenderer, BrowsableAPIRenderer, CSVRenderer]
CSV_PARAMETER = OpenApiParameter(
    "format", OpenApiTypes.STR, enum=["json", "csv"], description="`csv` for a spreadsheet."
)


def standings_response(kind: str, scope_id: int, *, group: int | None = None) -> Response:
    table = standings_refresh.standings_table_computed_on_miss((kind, scope_id))
    return Response(s.StandingsSerializer(selectors.standings_answer(table, group=group)).data)


STANDINGS_SCHEMA = extend_schema(
    parameters=[CSV_PARAMETER],
    responses={200: s.StandingsSerializer, 404: s.ErrorSerializer},
    description="The stored standings table: one row per player, ranked by the metrics in "
    "`tiebreak` order (ties share the place), with when it was computed and whether newer "
    "results are still pending.",
)


def projection_answer(
    stored: Any, version: int, head: dict[str, Any], fields: tuple[str, ...] = ()
) -> dict[str, Any]:
    """A kept projection (a stage's or a league's) as the API answers it: `head` (which stage or
    league, and what only that kind has), whether it is current, how it was simulated, and each
    player's row with their name (only the row's `fields` when given, else all of it)."""
    figures = stored.figures
    rows = figures.get("players", [])
    names = dict(
        Player.objects.filter(pk__in=[row["player"] for row in rows]).values_list(
            "pk", "display_name"
        )
    )
    return {
        **head,
        "status": "current" if stored.version >= version else "behind",
        "version": stored.version,
        "runs": stored.runs,
        "seed": stored.seed,
        "standard_error": figures.get("standard_error", 0.0),
        "computed_at": stored.computed_at,
        "live": sorted(int(match_id) for match_id in stored.live),
        "players": [
            {
                **({k: row[k] for k in ("player", *fields)} if fields else row),
                "name": names.get(row["player"], ""),
            }
            for row in rows
        ],
    }
