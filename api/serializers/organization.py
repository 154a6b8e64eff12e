"""Players, rosters, leagues and events as the API reads and writes them."""

from typing import Any

from django.utils.text import slugify
from rest_framework import serializers

from api.serializers.base import ID_MAX, RefusesUnknownFields
from league.models import Event, EventStatus, League, Player


class PlayerSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "display_name", "handle", "created_at"]
        read_only_fields = ["created_at"]


class PlayerWriteSerializer(RefusesUnknownFields, PlayerSerializer):
    """A new player, on the roster of `league` (which the caller organizes; only staff may
    leave it out), or a change to one."""

    league = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=League.objects.all(),
        write_only=True,
        required=False,
        allow_null=True,
        help_text="The league whose roster the new player joins (its slug).",
    )
    # Without the model's uniqueness validator: whether a handle is free, in any case of its
    # letters, is the service's (`ensure_handle_free`, 400 `handle_taken`), so `ada` beside
    # `ada` is refused as `ADA` is, with the same code.
    handle = serializers.SlugField(max_length=40)

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "league"]


class RosterAddSerializer(RefusesUnknownFields):
    player = serializers.IntegerField(
        min_value=1, max_value=ID_MAX, help_text="An existing player to put on the roster."
    )


class LeagueSerializer(RefusesUnknownFields, serializers.ModelSerializer[League]):
    organizers: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        many=True, read_only=True, slug_field="username"
    )
    slug = serializers.SlugField(max_length=60, required=False)

    class Meta:
        model = League
        fields = [
            "id",
            "name",
            "slug",
            "game",
            "rules",
            "tiebreak",
            "points",
            "organizers",
            "created_at",
        ]
        read_only_fields = ["created_at"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if self.instance is None and not attrs.get("slug"):
            attrs["slug"] = slugify(attrs.get("name", ""))[:60]
            if not attrs["slug"]:
                raise serializers.ValidationError(
                    {"slug": "Give the league a slug: its name has no letters to make one from."}
                )
        # Whether the slug is free (and not the organizer pages'): `check_slug`, in the service.
        return attrs


class EventSerializer(RefusesUnknownFields, serializers.ModelSerializer[Event]):
    league = serializers.SlugRelatedField(slug_field="slug", queryset=League.objects.all())

    class Meta:
        model = Event
        fields = ["id", "league", "name", "date", "venue", "status", "rules", "created_at"]
        read_only_fields = ["created_at"]
        extra_kwargs = {
            "status": {
                "help_text": "upcoming, running (a match has started), finished (its last "
                "stage finished, or closed) or cancelled. It follows play; organizers change "
                "it with close/ and reopen/ only."
            }
        }

    def validate_league(self, league: League) -> League:
        if self.instance is not None and league != self.instance.league:
            raise serializers.ValidationError("An event cannot move to another league.")
        return league

    def validate_status(self, status: str) -> str:
        current = self.instance.status if self.instance is not None else EventStatus.UPCOMING
        if status != current:
            raise serializers.ValidationError(
                "An event's status follows play: close or reopen it with POST "
                "events/{id}/close/ or events/{id}/reopen/."
            )
        return status


class EventCloseSerializer(RefusesUnknownFields):
    status = serializers.ChoiceField(
        choices=[EventStatus.FINISHED, EventStatus.CANCELLED],
        default=EventStatus.FINISHED,
        help_text="`finished` (its play is over; the default) or `cancelled` (it did not take "
        "place).",
    )
