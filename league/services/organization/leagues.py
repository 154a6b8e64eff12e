"""A league made (`league_create`) and changed (`league_update`), its address (`check_slug`), and
its organizers (`league_organizer_add`, `league_organizer_remove`)."""

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from league import models, standings
from league.errors import LeagueConflict, LeagueError
from league.services.organization._common import (
    _another_has,
    _assign,
    _clean_names,
    _taken,
    _unless_taken,
    _validated_rules,
)
from league.services.organization.names import clean_name
from league.services.standings_marks import league_settings_changed


def _validated_standings(game: str, fields: dict[str, Any]) -> None:
    """A tiebreak order and a points scheme the standings can use (StandingsError if not)."""
    if "tiebreak" in fields:
        fields["tiebreak"] = list(standings.validate_tiebreak_order(fields["tiebreak"], game=game))
    if "points" in fields:
        standings.LeaguePoints.from_json(fields["points"])


# Addresses the organizer pages keep beside a league's: /organize/leagues/new/ creates one.
RESERVED_SLUGS = frozenset({"new"})


def check_slug(slug: str, *, league: models.League | None = None) -> None:
    """`slug_taken` when `slug` cannot be a league's address (`league`'s, when it moves):
    another league has it, or the organizer pages use it (`RESERVED_SLUGS`), in any case of
    its letters: `Backyard` beside `backyard` is another address that reads the same, one to
    pass a league off as another by. The API, the pages and the admin all come here."""
    if slug.lower() in RESERVED_SLUGS:
        raise _taken(
            "slug",
            slug,
            f"The address {slug!r} is the organizer pages' own "
            f"(/organize/leagues/{slug.lower()}/); choose another.",
        )
    if _another_has(models.League.objects.filter(slug__iexact=slug), league):
        raise _slug_taken(slug)


def _slug_taken(slug: str) -> LeagueError:
    return _taken("slug", slug, f"Another league has the address {slug!r}; choose another.")


@transaction.atomic
def league_create(
    *,
    name: str,
    slug: str,
    game: str,
    rules: dict[str, Any] | None = None,
    created_by: User,
    **settings: Any,
) -> models.League:
    """A new league; its creator is its first organizer. `rules`: its ruleset's options (None:
    the game's defaults; anything not a JSON object is `wrong_type`). `settings`: its standings
    `tiebreak` order and league `points` (docs/standings.md). `slug_taken` when the slug (the
    league's address) is another league's or the organizer pages' (`check_slug`)."""
    name = clean_name(name, field="name")
    check_slug(slug)
    _validated_standings(game, settings)
    with _unless_taken(lambda: _slug_taken(slug)):
        league = models.League.objects.create(
            name=name,
            slug=slug,
            game=game,
            rules=_validated_rules(game, {} if rules is None else rules),
            **settings,
        )
    league.organizers.add(created_by)
    league.owner = created_by
    league.save(update_fields=["owner"])
    return league


@transaction.atomic
def league_update(*, league: models.League, **fields: Any) -> models.League:
    """Change a league. A new tiebreak order or points scheme re-ranks every table of it
    (the same scheme written another way does not). The game changes only while the league
    has no event and no match (`game_settled`); its rules then start from the new game's
    defaults unless given, and its tiebreak order must suit the new game. A new slug must be
    free (`check_slug`)."""
    _clean_names(fields, "name")
    if "slug" in fields:
        check_slug(fields["slug"], league=league)
    game = fields.get("game", league.game)
    if game != league.game:
        if league.game_is_settled():
            raise LeagueError(
                "game_settled",
                f"{league.name} has events or matches of {league.get_game_display()}: its game "
                "can no longer change.",
                details={"field": "game", "game": league.game},
            )
        fields.setdefault("rules", {})
        fields.setdefault("tiebreak", league.tiebreak)
    if "rules" in fields:
        fields["rules"] = _validated_rules(game, fields["rules"])
    _validated_standings(game, fields)
    reranks = "tiebreak" in fields and fields["tiebreak"] != league.tiebreak
    if "points" in fields:
        current = standings.LeaguePoints.from_json(league.points)
        reranks |= standings.LeaguePoints.from_json(fields["points"]) != current
    _assign(league, fields)
    with _unless_taken(lambda: _slug_taken(league.slug)):
        league.save()
    if reranks:
        league_settings_changed(league_id=league.pk)
    return league


# --- A league's organizers ----------------------------------------------------------------------


@transaction.atomic
def league_organizer_add(*, league: models.League, user: User) -> None:
    """Make `user` an organizer of `league` (`already_organizer` when they are one)."""
    models.League.objects.select_for_update().filter(pk=league.pk).first()
    if league.organizers.filter(pk=user.pk).exists():
        raise LeagueError(
            "already_organizer",
            f"{user.get_username()} already organizes {league.name}.",
            details={"field": "username", "user": user.get_username()},
        )
    league.organizers.add(user)


@transaction.atomic
def league_organizer_remove(*, league: models.League, user: User) -> None:
    """`user` no longer organizes `league` (they may remove themselves). Refused for someone
    who is not one of its organizers (`not_organizer`), for the last one (`last_organizer`): a
    league always has someone to run it, and for its owner (`league_owner`, 409), who made it:
    a co-organizer added a moment ago could remove them. The league's row is locked, so two
    organizers removing each other at once cannot leave it with none."""
    locked = models.League.objects.select_for_update().filter(pk=league.pk).first()
    if locked is not None and locked.owner_id == user.pk:
        raise LeagueConflict(
            "league_owner",
            f"{user.get_username()} made {league.name} and owns it: no organizer removes its "
            "owner (staff can change the owner in the admin).",
            details={"user": user.get_username()},
        )
    organizers = set(league.organizers.values_list("pk", flat=True))
    if user.pk not in organizers:
        raise LeagueError(
            "not_organizer",
            f"{user.get_username()} does not organize {league.name}.",
            details={"user": user.get_username()},
        )
    if organizers == {user.pk}:
        raise LeagueError(
            "last_organizer",
            f"{user.get_username()} is the only organizer of {league.name}: add another "
            "before removing them.",
            details={"user": user.get_username()},
        )
    league.organizers.remove(user)
