"""What the modules of organization share: a name compared with a roster's (`_ensure_name_free`),
the names and fields of an update, a ruleset checked, and an address or a handle the database
finds taken after all (`_unless_taken`)."""

from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Model, QuerySet

import scoring
from league import models
from league.errors import LeagueError
from league.services.organization.names import clean_name, folded


def _ensure_name_free(league: models.League, name: str, *, exclude: Collection[int] = ()) -> None:
    """`name_taken` when another player on the league's roster (not one of `exclude`) has a
    name that looks the same."""
    key = folded(name)
    others = league.players.exclude(pk__in=exclude)
    for other_id, other_name in others.values_list("pk", "display_name"):
        if folded(other_name) == key:
            raise LeagueError(
                "name_taken",
                f"{other_name!r} already plays in {league.name}; two names that look alike "
                "would be confused. Add something to tell them apart.",
                details={"field": "display_name", "player": other_id, "league": league.slug},
            )


def _clean_names(fields: dict[str, Any], *names: str) -> None:
    for name in names:
        if fields.get(name):
            fields[name] = clean_name(fields[name], field=name)


def _assign(instance: models.League | models.Event | models.Player, fields: dict[str, Any]) -> None:
    """Set the checked `fields` of an update on the row, to be saved."""
    for name, value in fields.items():
        setattr(instance, name, value)


def _validated_rules(game: str, rules: object) -> dict[str, Any]:
    """The full ruleset for `game` with `rules` applied (RuleViolation on a bad option, and
    `wrong_type` when `rules` is not a JSON object)."""
    return scoring.new_game(game, 2, rules).rules.to_json()


def _taken(field: str, value: str, message: str) -> LeagueError:
    """`slug_taken` or `handle_taken`: `value` of `field` is another's."""
    return LeagueError(f"{field}_taken", message, details={"field": field, field: value})


@contextmanager
def _unless_taken(refusal: Callable[[], LeagueError]) -> Iterator[None]:
    """The write inside, refused as its check refuses (`refusal`) when the database finds its
    address or handle taken after all: another request stored it, in some case of its
    letters, between the check and this write (the unique constraints of `Player` and
    `League`). In a savepoint, so the caller's transaction may go on."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError:
        raise refusal() from None


def _another_has(rows: QuerySet[Any], this: Model | None) -> bool:
    """Whether `rows` (those holding a name or address) hold one other than `this`."""
    if this is not None:
        rows = rows.exclude(pk=this.pk)
    return rows.exists()
