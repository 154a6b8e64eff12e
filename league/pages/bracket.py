"""An elimination stage's bracket as boxes to draw (`league.pages.svg.bracket_svg`): built
from the stored bracket and its slots' plays (`StageDetail.slots`), with no database."""

from collections.abc import Mapping, Sequence
from typing import Any

from django.urls import reverse

from games.models import MatchStatus
from league import draw
from league.pages.forfeits import forfeit_notes, player_name
from league.pages.svg import SeatLine, SlotBox, SlotStatus
from league.selectors import BracketSlot

_PLAY_STATUS: Mapping[str, SlotStatus] = {
    MatchStatus.SCHEDULED: "ready",
    MatchStatus.IN_PROGRESS: "in_progress",
    MatchStatus.FINISHED: "played",
    MatchStatus.VOID: "void",
}


def source_text(source: Mapping[str, Any]) -> str:
    """What will fill a seat not known yet: "Seed 3", "Winner of W1-2", "2nd of W1-1"."""
    if source.get("kind") == "seed":
        return f"Seed {source.get('seed')}"
    rank = int(source.get("rank") or 1)
    if source.get("kind") == "winner" and rank == 1:
        return f"Winner of {source.get('slot')}"
    if source.get("kind") == "loser" and rank == 2:  # a pair's loser
        return f"Loser of {source.get('slot')}"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(rank, "th")
    return f"{rank}{suffix} of {source.get('slot')}"


def bracket_state(
    bracket: Mapping[str, Any] | None, slots: Sequence[BracketSlot]
) -> Mapping[str, draw.SlotState]:
    """Where each slot of the bracket stands, as the stage service stored it when it last
    advanced the bracket (players that a bye sent on before their next match exists
    included). A bracket stored before the service kept slot states is advanced here from
    its finishing orders, as the service would."""
    stored = (bracket or {}).get("state")
    if isinstance(stored, dict):
        try:
            return draw.slot_states_from_json(stored)
        except (KeyError, TypeError):  # edited by hand: advance it from the orders below
            pass
    results = {
        slot.key: draw.SlotResult(
            placements={p: place for place, p in enumerate(slot.play.order, start=1)}
        )
        for slot in slots
        if slot.play is not None and slot.play.order is not None
    }
    try:
        return draw.advance_bracket(draw.Bracket.from_json(bracket or {}), results).slots
    except (draw.DrawError, KeyError, TypeError):  # a bracket edited by hand: draw what is stored
        return {}


def bracket_boxes(
    bracket: Mapping[str, Any] | None,
    slots: Sequence[BracketSlot],
    names: Mapping[int, str],
    seeds: Mapping[int, int],
    chances: Mapping[int, Mapping[int, float]] | None = None,
) -> list[SlotBox]:
    """The stage's bracket slots as boxes to draw: each seat's player (or what will fill
    it), seed and score, who goes on, byes, the match to link to, and for a match not yet
    finished each player's chance to win it (`chances`: by match id, by player)."""
    state = bracket_state(bracket, slots)
    return [_box(slot, state.get(slot.key), names, seeds, chances or {}) for slot in slots]


def _box(
    slot: BracketSlot,
    slot_state: draw.SlotState | None,
    names: Mapping[int, str],
    seeds: Mapping[int, int],
    chances: Mapping[int, Mapping[int, float]],
) -> SlotBox:
    play = slot.play
    match = play.match if play else None
    scores = {seat.player: seat.total for seat in match.seats} if match else {}
    open_match = match is not None and match.status in (
        MatchStatus.SCHEDULED,
        MatchStatus.IN_PROGRESS,
    )
    chance_of = chances.get(match.id, {}) if match is not None and open_match else {}
    notes = forfeit_notes(play)
    if play is not None and play.order is not None:
        order = list(play.order)
    elif slot_state is not None and slot_state.decided:
        order = list(slot_state.order)
    else:
        order = []
    going_on = set(order[: slot.advance])
    if slot_state is not None:
        seated: list[int | None] = list(slot_state.seats)
    elif match:
        seated = [seat.player for seat in match.seats]
    else:
        seated = []
    lines = []
    for number, source in enumerate(slot.sources):
        player = seated[number] if number < len(seated) else None
        from_slot = source.get("slot") if source.get("kind") == "winner" else None
        if player is not None:
            lines.append(
                SeatLine(
                    label=player_name(names, player),
                    seed=seeds.get(player),
                    score=scores.get(player),
                    advances=player in going_on,
                    from_slot=from_slot,
                    note=notes.get(player),
                    chance=round(100 * chance_of[player]) if player in chance_of else None,
                )
            )
        elif slot_state is not None and slot_state.status not in ("waiting", "skipped"):
            lines.append(SeatLine(label="bye", bye=True, from_slot=from_slot))
        else:
            lines.append(SeatLine(label=source_text(source), known=False, from_slot=from_slot))
    lines.extend(SeatLine(label="bye", bye=True) for _ in range(slot.byes))
    status: SlotStatus
    walkover = play is not None and play.walkover
    if walkover:  # decided without play: its match, if any, is void only in the books
        status = "walkover"
    elif match is not None:
        status = _PLAY_STATUS.get(match.status, "waiting")
    elif slot_state is not None:
        status = slot_state.status
    else:
        status = "waiting"
    return SlotBox(
        key=slot.key,
        section=slot.spec["bracket"],
        round=slot.spec["round"],
        index=slot.spec["index"],
        seats=tuple(lines),
        status=status,
        href=reverse("games:match", args=[match.id]) if match and not walkover else None,
    )
