"""`POST /bench/floor/`: authenticate (token), parse the JSON body, insert one row, answer 201.
Turn submission does all of this and then the rules; the ratio of the two is the cost of the
domain (docs/benchmarks.md)."""

from typing import Any

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
