"""What the API's views share: whether an action reads, the schema's error answers, headers and
examples, the table renderers (JSON or CSV) and the standings answer."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from api import serializers as s
from api.renderers import CSVRenderer
from league import selectors
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
