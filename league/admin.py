"""Admin pages for the organization (organizers use them)."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from games.admin import RecordAdmin, RecordInline
from league import models
from league.services import LeagueError
from league.services.organization import check_slug, clean_name, ensure_handle_free
from league.services.organization._common import _ensure_name_free
from league.services.standings_marks import player_renamed


@contextmanager
def refusal_as_validation_error() -> Iterator[None]:
    """A service's refusal (`LeagueError`) as the form field's error, with its message and code."""
    try:
        yield
    except LeagueError as error:
        raise forms.ValidationError(error.message, code=error.code) from None


class PlayerForm(forms.ModelForm[models.Player]):
    class Meta:
        model = models.Player
        fields = ["display_name", "handle", "user"]

    def clean_display_name(self) -> str:
        """The same name rules as the API's (league.services.organization.clean_name), and,
        as `player_update` checks a rename, no name that looks like another's on a roster the
        player is on (`name_taken`)."""
        with refusal_as_validation_error():
            name = clean_name(self.cleaned_data["display_name"], field="display_name")
            if self.instance.pk:
                for league in self.instance.leagues.all():
                    _ensure_name_free(league, name, exclude=[self.instance.pk])
        return name

    def clean_handle(self) -> str:
        """Not another player's handle in any case of its letters (`ensure_handle_free`, as
        the API and the pages check it)."""
        handle: str = self.cleaned_data["handle"]
        with refusal_as_validation_error():
            ensure_handle_free(handle, player=self.instance if self.instance.pk else None)
        return handle


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin[models.Player]):
    form = PlayerForm
    list_display = ["display_name", "handle", "user", "created_at"]
    search_fields = ["display_name", "handle"]
    raw_id_fields = ["user"]

    def save_model(self, request: HttpRequest, obj: models.Player, form: Any, change: bool) -> None:
        """A rename marks the tables that show the name, so they show the new one."""
        super().save_model(request, obj, form, change)
        if change and "display_name" in form.changed_data:
            player_renamed(player_id=obj.pk)


def checked_names(form: forms.ModelForm[Any], *names: str) -> None:
    """The names of `names` in `form.cleaned_data` as the services store them (`clean_name`:
    NFC, spaces as one, no invisible or control characters); a refusal on its field. A blank
    optional name (an event's venue) stays blank."""
    for name in names:
        value = form.cleaned_data.get(name)
        if value:
            try:
                form.cleaned_data[name] = clean_name(value, field=name)
            except LeagueError as error:
                form.add_error(name, forms.ValidationError(error.message, code=error.code))


class LeagueForm(forms.ModelForm[models.League]):
    def clean_name(self) -> str:
        """The same name rules as the API's and the pages' (`clean_name`)."""
        with refusal_as_validation_error():
            return clean_name(self.cleaned_data["name"], field="name")

    def clean_slug(self) -> str:
        """The same address rules as the API's and the pages' (`check_slug`): not another
        league's, not one the organizer pages use (`new`)."""
        slug: str = self.cleaned_data["slug"]
        with refusal_as_validation_error():
            check_slug(slug, league=self.instance if self.instance.pk else None)
        return slug


class EventForm(forms.ModelForm[models.Event]):
    def clean(self) -> dict[str, Any] | None:
        """The same name rules as `event_create` and `event_update` (`clean_name`)."""
        cleaned = super().clean()
        checked_names(self, "name", "venue")
        return cleaned


class EventInline(admin.TabularInline[models.Event, models.League]):
    model = models.Event
    form = EventForm
    extra = 0
    fields = ["name", "date", "venue", "status"]
    # An event's status follows play; its organizers close and reopen it (`event_close`,
    # `event_reopen`), which check its matches and tell the webhooks: not typed in here.
    readonly_fields = ["status"]
    show_change_link = True


@admin.register(models.League)
class LeagueAdmin(admin.ModelAdmin[models.League]):
    form = LeagueForm
    list_display = ["name", "slug", "game", "created_at"]
    list_filter = ["game"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organizers"]
    inlines = [EventInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        """A league's game, ruleset, points and tiebreak change only through its service
        (`league_update`, from the API or the organizer's pages), which checks them and
        re-ranks every table. Its ruleset, points and tiebreak are not written here even when
        it is added (`league_create` and `league_update` check them; JSON typed here would
        not be): a league added here takes the game's defaults. Its roster changes on the
        roster page and through the API (`roster_add`: no two names that look alike on it), and
        a player is never taken off it (their matches and tables stay the league's): not here."""
        settings = ["rules", "points", "tiebreak", "players"]
        return ["game", *settings] if obj is not None else settings


@admin.register(models.Event)
class EventAdmin(admin.ModelAdmin[models.Event]):
    list_display = ["name", "league", "date", "venue", "status"]
    list_filter = ["status", "league"]
    search_fields = ["name", "venue"]
    date_hierarchy = "date"
    list_select_related = ["league"]
    form = EventForm

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        """An event's rules are checked on top of its league's (`event_rules_checked`) by
        `event_create` and `event_update`, from the API or the organizer's pages; not here. Its
        status follows play, and its organizers close and reopen it (`event_close`,
        `event_reopen`: refused while a match is being played; a finished event tells the
        webhooks); typed in here it skipped all that. Its league is its matches', stages' and
        roster's: once added it stays in it (in another league of another game its matches
        would not be that league's game)."""
        return ["rules", "status", "league"] if obj is not None else ["rules", "status"]


class StageEntryInline(RecordInline[models.StageEntry]):
    model = models.StageEntry
    fields = ["seed", "player", "group", "withdrawn_at"]


class StageMatchInline(RecordInline[models.StageMatch]):
    model = models.StageMatch
    fields = ["round", "group", "slot", "match", "walkover", "order"]
    show_change_link = True


@admin.register(models.Stage)
class StageAdmin(RecordAdmin[models.Stage]):
    """A stage, its entries and its options are made, changed (while a draft), started,
    withdrawn from and deleted through the stage services (the API, the organizer's pages),
    which check its options, seed its entries and draw: here they are shown only. A table size,
    tiebreak or entry changed here skipped those checks, and on a drawn stage left its bracket
    and tables as they were drawn."""

    list_display = ["name", "event", "format", "status", "table_size", "started_at"]
    list_filter = ["format", "status"]
    list_select_related = ["event"]
    inlines = [StageEntryInline, StageMatchInline]


@admin.register(models.StageMatch)
class StageMatchAdmin(RecordAdmin[models.StageMatch]):
    list_display = ["stage", "round", "slot", "match", "walkover"]
    list_select_related = ["stage", "match"]


@admin.register(models.StageBye)
class StageByeAdmin(RecordAdmin[models.StageBye]):
    """A bye is given by the draw (and a forfeit by a withdrawal or a no-show) through the
    stage services, which score and advance it: a row typed or deleted here would not be."""


@admin.register(models.StageForfeit)
class StageForfeitAdmin(RecordAdmin[models.StageForfeit]):
    pass


@admin.register(models.OrganizerInvitation)
class OrganizerInvitationAdmin(RecordAdmin[models.OrganizerInvitation]):
    """An organizer's invitation, as the league's organizers page sends, revokes and its link
    accepts it (`league.services.organization.invitations`): shown only, and without its
    token's hash, which opens nothing but is no one's to read either."""

    list_display = ["email", "league", "state", "invited_by", "created_at", "expires_at"]
    list_select_related = ["league", "invited_by"]
    exclude = ["token_hash"]

    def get_readonly_fields(
        self, request: HttpRequest, obj: models.OrganizerInvitation | None = None
    ) -> list[str]:
        return [name for name in super().get_readonly_fields(request, obj) if name != "token_hash"]

    @admin.display(description="state")
    def state(self, invitation: models.OrganizerInvitation) -> str:
        return str(invitation.state.label)
