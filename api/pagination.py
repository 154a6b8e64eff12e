"""Paging of list answers, with bounds: a huge `limit` or `offset` is clamped instead of
overflowing the database's 64-bit LIMIT/OFFSET (a 500)."""

from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 500
    max_offset = 10**9

    def get_offset(self, request: Request) -> int:
        return min(super().get_offset(request), self.max_offset)
