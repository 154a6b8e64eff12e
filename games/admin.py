"""Admin pages for matches. Turns are read-only here: they change only through the rulebook
(the API's turn, result and undo endpoints), never by editing a row."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Match, Seat, SubmissionReceipt, Turn, TurnUndo


class SeatInline(admin.TabularInline[Seat, Match]):
    model = Seat
    extra = 0
    fields = ["order", "player", "total", "placement"]
    readonly_fields = ["total", "placement"]
    raw_id_fields = ["player"]


class TurnInline(admin.TabularInline[Turn, Match]):
    model = Turn
    extra = 0
    fields = ["sequence", "seat", "points", "bonus", "payload", "submitted_by", "submitted_at"]
    readonly_fields = ["sequence", "seat", "points", "bonus", "payload", "submitted_by"]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    list_display = ["id", "game", "status", "event", "turns_played", "created_at", "finished_at"]
    list_filter = ["game", "status"]
    list_select_related = ["event"]
    readonly_fields = ["state", "turns_played", "score_key", "started_at", "finished_at"]
    raw_id_fields = ["event", "created_by"]
    inlines = [SeatInline, TurnInline]


@admin.register(Turn)
class TurnAdmin(admin.ModelAdmin[Turn]):
    list_display = ["match", "sequence", "seat", "points", "bonus", "submitted_at"]
    list_select_related = ["match", "seat"]
    readonly_fields = [f.name for f in Turn._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(TurnUndo)
class TurnUndoAdmin(admin.ModelAdmin[TurnUndo]):
    list_display = ["match", "sequence", "player", "points", "undone_by", "undone_at"]
    list_select_related = ["match", "player", "undone_by"]
    readonly_fields = [f.name for f in TurnUndo._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(SubmissionReceipt)
class SubmissionReceiptAdmin(admin.ModelAdmin[SubmissionReceipt]):
    list_display = ["match", "key", "status_code", "created_at"]
    readonly_fields = [f.name for f in SubmissionReceipt._meta.fields]
