"""Two players of a roster who are one person entered twice, merged (`player_merge`; its refusals
checked without writing by `player_merge_check`)."""

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from games.models import MatchStatus, Seat, TurnUndo
from league import models
from league.errors import LeagueError, LeagueForbidden
from league.services.organization._common import _ensure_name_free
from league.services.organization.players import ensure_on_roster
from league.services.standings_marks import player_merged, stages_of_player


@dataclass(frozen=True, slots=True)
class PlayerMerge:
    """What a merge moved from the removed player (now deleted) onto the kept one."""

    kept: models.Player
    removed_name: str
    seats: int
    stage_entries: int
    rosters_joined: int
    leagues_rerated: tuple[int, ...]


def _replaced(ids: Any, old: int, new: int) -> Any:
    """A JSON list of player ids (or of lists of them: tiers) with `old` replaced by `new`."""
    if isinstance(ids, list):
        return [_replaced(item, old, new) for item in ids]
    return new if ids == old else ids


def _move_stage_records(stage_ids: Collection[int], old: int, new: int) -> None:
    """Player `old`'s id where a stage keeps ids as JSON (the bracket's participants, the final
    rankings, frozen finishing orders, the forfeits a void recorded) becomes `new`'s. Only
    stages `new` has no part in are touched, so no list ends up naming anyone twice."""
    for stage in models.Stage.objects.filter(pk__in=stage_ids):
        if stage.bracket:
            participants = _replaced(stage.bracket["participants"], old, new)
            stage.bracket = {**stage.bracket, "participants": participants}
        stage.ranking = _replaced(stage.ranking, old, new)
        if stage.group_ranking:
            stage.group_ranking = {
                group: _replaced(tiers, old, new) for group, tiers in stage.group_ranking.items()
            }
        stage.save(update_fields=["bracket", "ranking", "group_ranking"])
    for stage_match in models.StageMatch.objects.filter(stage_id__in=stage_ids).exclude(order=None):
        order = _replaced(stage_match.order, old, new)
        if order != stage_match.order:
            stage_match.order = order
            stage_match.save(update_fields=["order"])
    for void in models.StageVoid.objects.filter(stage_match__stage_id__in=stage_ids):
        if old in void.forfeits:
            void.forfeits = _replaced(void.forfeits, old, new)
            void.save(update_fields=["forfeits"])


def _ensure_mergeable(keep: models.Player, remove: models.Player) -> set[int]:
    """Refuse a merge that would seat one player twice or leave a game being played with a
    seat that changed hands; the stages of the removed player."""
    if keep.user_id is not None and remove.user_id is not None:
        raise LeagueError(
            "players_both_linked",
            f"{keep.display_name} and {remove.display_name} are each linked to a user account: "
            "two accounts are two people.",
            details={"players": [keep.pk, remove.pk]},
        )
    together = sorted(
        Seat.objects.filter(player=keep, match__seats__player=remove).values_list(
            "match_id", flat=True
        )
    )
    removed_stages = stages_of_player(remove.pk)
    both_stages = sorted(removed_stages & stages_of_player(keep.pk))
    if together or both_stages:
        where = f"match {together[0]}" if together else f"stage {both_stages[0]}"
        raise LeagueError(
            "players_met",
            f"{keep.display_name} and {remove.display_name} both played in {where}: they are "
            "two people, not one entered twice.",
            details={"matches": together, "stages": both_stages},
        )
    playing = sorted(
        Seat.objects.filter(player=remove, match__status=MatchStatus.IN_PROGRESS).values_list(
            "match_id", flat=True
        )
    )
    if playing:
        raise LeagueError(
            "matches_in_progress",
            f"{remove.display_name} is playing match {playing[0]} right now: merge once it is "
            "finished (or voided).",
            details={"matches": playing},
        )
    return removed_stages


def _ensure_registrations_apart(keep: models.Player, remove: models.Player) -> None:
    """Both confirmed for one event are two people (`players_met`)."""
    confirmed = models.Registration.objects.filter(status=models.RegistrationStatus.CONFIRMED)
    both = sorted(
        set(confirmed.filter(player=keep).values_list("event_id", flat=True))
        & set(confirmed.filter(player=remove).values_list("event_id", flat=True))
    )
    if both:
        raise LeagueError(
            "players_met",
            f"{keep.display_name} and {remove.display_name} are both confirmed for event "
            f"{both[0]}: they are two people, not one entered twice.",
            details={"events": both},
        )


def player_merge_check(
    *, league: models.League, keep: models.Player, remove: models.Player, by: Any
) -> set[int]:
    """Every refusal of `player_merge`, checked without writing anything: the page that asks
    to confirm a merge shows the refusal instead of a merge the service would refuse. The
    stages of the removed player."""
    if keep.pk == remove.pk:
        raise LeagueError(
            "same_player",
            "Choose two different players: the one to keep and the duplicate to remove.",
            details={"field": "remove"},
        )
    ensure_on_roster(league, [keep.pk, remove.pk])
    _ensure_merges_only_own(keep, remove, by)
    stage_ids = _ensure_mergeable(keep, remove)
    for other in models.League.objects.filter(players=remove).exclude(players=keep):
        _ensure_name_free(other, keep.display_name, exclude=[keep.pk, remove.pk])
    _ensure_registrations_apart(keep, remove)
    return stage_ids


def _ensure_merges_only_own(keep: models.Player, remove: models.Player, by: Any) -> None:
    """A merge rewrites both players' records in every league they play in (seats, entries,
    rosters): the caller must organize each of those leagues, or be staff (`by` None: a
    caller inside the project that has checked it). Otherwise 403 `permission_denied`, naming
    the leagues: their organizers merge the two, or staff do."""
    if by is None or getattr(by, "is_staff", False):
        return
    others = (
        models.League.objects.filter(players__in=[keep.pk, remove.pk])
        .exclude(organizers=by.pk)
        .distinct()
        .order_by("name", "pk")
    )
    names = [league.name for league in others]
    if names:
        raise LeagueForbidden(
            "permission_denied",
            f"{keep.display_name} or {remove.display_name} also plays in "
            f"{', '.join(names)}, which you do not organize: a merge changes their records "
            "there too. Their organizers (or staff) can merge them.",
            details={"leagues": [league.slug for league in others]},
        )


@transaction.atomic
def player_merge(
    *, league: models.League, keep: models.Player, remove: models.Player, by: Any
) -> PlayerMerge:
    """Merge two players of `league`'s roster who are one person entered twice: everything of
    `remove` becomes `keep`'s (seats and the turns and undos at them, stage entries, byes,
    forfeits, the ids stages keep as JSON, the rosters of other leagues, a linked account)
    and `remove` is deleted. Refused when they are the same player (`same_player`), when
    either is not on the roster (`player_not_in_league`), when both played at one match or in
    one stage (`players_met`), when both have accounts (`players_both_linked`), while
    `remove` is playing (`matches_in_progress`), or when `keep`'s name looks like a name on a
    roster they join (`name_taken`), or when `by` does not organize every league either plays
    in (`permission_denied`, `_ensure_merges_only_own`). The tables listing `remove` are
    counted again and their leagues' ratings rate again from the start
    (`standings_marks.player_merged`). Turns keep the player id they were submitted with
    (they are a record of what was sent)."""
    # Both rows locked, lower id first, so two merges (or a merge and a rename) take turns.
    locked = {
        player.pk: player
        for player in models.Player.objects.select_for_update()
        .filter(pk__in={keep.pk, remove.pk})
        .order_by("pk")
    }
    for field, player in (("keep", keep), ("remove", remove)):
        if player.pk not in locked:  # another merge removed them while this one waited
            raise LeagueError(
                "unknown_player",
                f"{player.display_name} was merged into another player (or deleted) "
                "meanwhile: choose the two again.",
                details={"field": field, "player": player.pk},
            )
    keep, remove = locked[keep.pk], locked[remove.pk]
    stage_ids = player_merge_check(league=league, keep=keep, remove=remove, by=by)
    joining = list(models.League.objects.filter(players=remove).exclude(players=keep))
    models.Registration.objects.filter(player=remove).update(player=keep)
    rerated = player_merged(removed_id=remove.pk)
    seats = Seat.objects.filter(player=remove).update(player=keep)
    TurnUndo.objects.filter(player=remove).update(player=keep)
    entries = models.StageEntry.objects.filter(player=remove).update(player=keep)
    models.StageBye.objects.filter(player=remove).update(player=keep)
    models.StageForfeit.objects.filter(player=remove).update(player=keep)
    _move_stage_records(stage_ids, remove.pk, keep.pk)
    keep.leagues.add(*joining)
    account = remove.user_id
    removed_name = remove.display_name
    remove.delete()
    if account is not None:
        keep.user_id = account
        keep.save(update_fields=["user"])
    return PlayerMerge(
        kept=keep,
        removed_name=removed_name,
        seats=seats,
        stage_entries=entries,
        rosters_joined=len(joining),
        leagues_rerated=tuple(rerated),
    )
