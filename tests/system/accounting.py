"""The accounting after a run: what the clients were told against what the database holds."""

from collections import defaultdict
from typing import Any

from tests.system.driver import Ledger
from tests.system.stack import Stack


def account(stack: Stack, ledger: Ledger, *, after_match: int = 0) -> list[str]:
    """Every discrepancy between the ledger and the database, one sentence each:
    - every accepted turn (201) is stored exactly once, in the order it was accepted, as sent;
    - nothing else is stored (so no refused turn is);
    - every finished match's totals and placements are those of the scoring module.
    Matches up to `after_match` belong to earlier runs and are left out."""
    problems = list(ledger.failures)
    stored: dict[int, list[tuple[int, Any]]] = defaultdict(list)
    for match_id, sequence, payload in stack.sql(
        "SELECT match_id, sequence, payload FROM games_turn WHERE match_id > %s"
        " ORDER BY match_id, sequence",
        (after_match,),
    ):
        stored[match_id].append((sequence, payload))
    for match_id in stored.keys() - ledger.matches.keys():
        problems.append(f"match {match_id}: {len(stored[match_id])} turns nobody was told of")
    for match_id, record in ledger.matches.items():
        turns = stored.get(match_id, [])
        if [sequence for sequence, _ in turns] != list(range(1, len(turns) + 1)):
            problems.append(f"match {match_id}: sequences {[s for s, _ in turns]}")
        if len(turns) != len(record.accepted):
            problems.append(
                f"match {match_id}: {len(record.accepted)} turns accepted, {len(turns)} stored"
            )
            continue
        for (sequence, payload), sent in zip(turns, record.accepted, strict=True):
            if {key: payload.get(key) for key in sent} != sent:
                problems.append(f"match {match_id} turn {sequence}: stored {payload}, sent {sent}")
    seats: dict[int, list[tuple[int, int | None]]] = defaultdict(list)
    for match_id, total, placement in stack.sql(
        "SELECT s.match_id, s.total, s.placement FROM games_seat s"
        " JOIN games_match m ON m.id = s.match_id WHERE m.status = 'finished'"
        ' ORDER BY s.match_id, s."order"'
    ):
        seats[match_id].append((total, placement))
    for match_id, record in ledger.matches.items():
        if not record.finished:
            if match_id in seats:
                problems.append(f"match {match_id}: finished on the server, not on the client")
            continue
        local = record.local
        expected = [(local.total(seat), place) for seat, place in enumerate(local.placements())]
        if seats.get(match_id) != expected:
            problems.append(f"match {match_id}: seats {seats.get(match_id)}, rulebook {expected}")
    return problems
