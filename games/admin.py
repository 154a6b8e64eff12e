"""Admin pages for matches. A match's game, status, rules, event, league, seats and turns are
read-only here: they change only through the services (the API's and pages' turn, result,
correction, undo and void), never by editing a row, so standings, brackets and ratings always
follow. Voiding is an admin action that calls the service."""

from typing import Any, TypeVar

from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from games import services
from games.models import Match, Seat, SubmissionReceipt, Turn, TurnCorrection, TurnUndo
from scoring.errors import DomainError

RecordModel = TypeVar("RecordModel", bound=Model)


class RecordAdmin(admin.ModelAdmin[RecordModel]):
    """A record kept as it was written (a turn, an undo, a correction, a receipt, a stage's
    match, bye or forfeit): every field shown, nothing added, changed or deleted here (a turn
    deleted here would leave its match's state and totals as they were; a receipt typed in was
    a 500)."""

    def get_readonly_fields(
        self, request: HttpRequest, obj: RecordModel | None = None
    ) -> list[str]:
        return [field.name for field in self.model._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: RecordModel | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: RecordModel | None = None) -> bool:
        return False


class RecordInline(admin.TabularInline[RecordModel, Any]):
    """The rows of a record shown beside it (a match's seats, a stage's entries and matches):
    its `fields` shown, none added, changed or deleted here."""

    extra = 0
    can_delete = False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [field for field in self.fields or [] if isinstance(field, str)]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(RecordInline[Seat]):
    model = Seat
    fields = ["order", "player", "total", "placement"]


class TurnInline(admin.TabularInline[Turn, Match]):
    model = Turn
    extra = 0
    fields = ["sequence", "seat", "points", "bonus", "payload", "submitted_by", "submitted_at"]
    readonly_fields = [
        "sequence",
        "seat",
        "points",
        "bonus",
        "payload",
        "submitted_by",
        "submitted_at",
    ]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    list_display = ["id", "game", "status", "event", "turns_played", "created_at", "finished_at"]
    list_filter = ["game", "status"]
    list_select_related = ["event"]
    readonly_fields = [
        "game",
        "status",
        "rules",
        "event",
        "league",
        "state",
        "turns_played",
        "score_key",
        "created_by",
        "started_at",
        "finished_at",
    ]
    inlines = [SeatInline, TurnInline]
    actions = ["void"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # matches are seated through the services (API, pages, stages)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a match that should not count is voided, and its turns kept

    @admin.action(description="Void the selected matches (they no longer count anywhere)")
    def void(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        voided, refused = 0, []
        for match in queryset:
            try:
                services.match_void(match_id=match.pk, voided_by=request.user)
                voided += 1
            except DomainError as error:
                refused.append(f"#{match.pk}: {error.message}")
        self.message_user(request, f"Voided {voided} match(es).")
        if refused:
            self.message_user(request, "Not voided: " + "; ".join(refused), level=messages.ERROR)


@admin.register(Turn)
class TurnAdmin(RecordAdmin[Turn]):
    list_display = ["match", "sequence", "seat", "points", "bonus", "submitted_at"]
    list_select_related = ["match", "seat"]


@admin.register(TurnUndo)
class TurnUndoAdmin(RecordAdmin[TurnUndo]):
    list_display = ["match", "sequence", "player", "points", "undone_by", "taken_back", "undone_at"]
    list_filter = ["taken_back"]
    list_select_related = ["match", "player", "undone_by"]


@admin.register(TurnCorrection)
class TurnCorrectionAdmin(RecordAdmin[TurnCorrection]):
    list_display = ["match", "sequence", "points", "corrected_by", "corrected_at"]
    list_select_related = ["match", "corrected_by"]


@admin.register(SubmissionReceipt)
class SubmissionReceiptAdmin(RecordAdmin[SubmissionReceipt]):
    list_display = ["match", "key", "status_code", "created_at"]
    list_select_related = ["match"]
