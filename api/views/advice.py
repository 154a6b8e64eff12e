"""Advice: the ranked options for one position, outside any match."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from analysis.advice import position_advice
from api import serializers as s
from api.throttles import AdviceRateThrottle
from core.error_shape import error_body
from scoring.analysis import StrategyTableError


class AdviceView(APIView):
    """The ranked options for one position, for practice and for clients that teach the game.
    Public and rate-limited per address; it never looks at a match (no hints in league play)."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [AdviceRateThrottle]

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={200: OpenApiTypes.OBJECT, 400: s.ErrorSerializer, 429: s.ErrorSerializer},
        examples=[
            OpenApiExample(
                "Yardzee, after the first roll",
                value={
                    "game": "yardzee",
                    "joker": "forced",
                    "filled": {"aces": 3, "chance": 22},
                    "dice": [3, 3, 3, 5, 6],
                    "rolls_left": 2,
                },
                request_only=True,
            ),
            OpenApiExample(
                "Yardkle, a throw",
                value={
                    "game": "yardkle",
                    "on_board": True,
                    "turn_total": 300,
                    "dice": [1, 5, 2, 3, 3, 3],
                    "need": None,
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        """Yardzee: `filled` (box to points), `dice` (five), `rolls_left` (2 after the first roll, 1
        after the second: the keeps; 0: the boxes), `joker`. Yardkle: `on_board`, `turn_total`
        (collected before this throw), `dice` (the throw), `need` (the final round: points needed to
        pass the leader; null otherwise), `rules`. The answer: `options`, best first, each with its
        `label`, `value`, `loss` and the choice in the turn JSON's terms (docs/api.md, Advice). A
        position the rules do not allow: 400 with the rule's code and `details.field`."""
        try:
            return Response(position_advice(request.data))
        except StrategyTableError:
            return Response(
                error_body(
                    "analysis_unavailable",
                    "The Yardzee strategy tables are not built on this server "
                    "(manage.py build_strategy).",
                ),
                status=status.HTTP_503_SERVICE_UNAVAILABLE,
            )
