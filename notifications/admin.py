"""The notifications in the admin: shown only. They are made and sent by the services."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from notifications.models import Notification, Unsubscribe


class ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Notification)
class NotificationAdmin(ReadOnly):
    list_display = ["created_at", "kind", "league", "registration", "status", "attempts"]
    list_filter = ["kind", "status"]


@admin.register(Unsubscribe)
class UnsubscribeAdmin(ReadOnly):
    list_display = ["created_at", "league"]
