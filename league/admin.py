"""Admin pages for the organization (organizers use them)."""

from django.contrib import admin

from league.models import Event, League, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["display_name", "handle", "user", "created_at"]
    search_fields = ["display_name", "handle"]
    raw_id_fields = ["user"]


class EventInline(admin.TabularInline[Event, League]):
    model = Event
    extra = 0
    fields = ["name", "date", "venue", "status"]
    show_change_link = True


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin[League]):
    list_display = ["name", "slug", "game", "created_at"]
    list_filter = ["game"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organizers"]
    inlines = [EventInline]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin[Event]):
    list_display = ["name", "league", "date", "venue", "status"]
    list_filter = ["status", "league"]
    search_fields = ["name", "venue"]
    date_hierarchy = "date"
    list_select_related = ["league"]
