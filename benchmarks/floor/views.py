"""The floors the benchmarks measure the product against (docs/benchmarks.md):

- `POST /bench/floor/`: authenticate (token), parse the JSON body, insert one row, answer 201.
  Turn submission does all of this and then the rules; the ratio of the two is the cost of the
  domain.
- `GET /bench/floor/page/<path>`: the bytes the page at `/<path>` answered the first time this
  process asked it, from memory: a bare Django view (the same middleware) returning the same
  body. A page's ratio to it is the cost of reading and rendering the page."""

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import resolve
from rest_framework import serializers, status
from rest_framework.authentication import TokenAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from benchmarks.floor.models import FloorRow


class FloorSerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField()
    payload = serializers.JSONField()


class FloorInsert(APIView):
    authentication_classes = [TokenAuthentication]
    permission_classes = [IsAuthenticated]

    def post(self, request: Request) -> Response:
        serializer = FloorSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        row = FloorRow.objects.create(
            match_id=serializer.validated_data["match"],
            payload=serializer.validated_data["payload"],
        )
        return Response({"id": row.pk}, status=status.HTTP_201_CREATED)


# The page bytes each process serves, by path, kept from their first rendering.
_PAGES: dict[str, bytes] = {}


def floor_page(request: HttpRequest, path: str) -> HttpResponse:
    body = _PAGES.get(path)
    if body is None:
        found = resolve("/" + path)
        page = found.func(request, *found.args, **found.kwargs)
        body = _PAGES[path] = page.content
    return HttpResponse(body, content_type="text/html; charset=utf-8")
