"""`match_started` (issue 16 item 6): sent when a match takes its first turn, so `league` can
tell that an event's play has begun, and never on the turns after it."""

from typing import Any

from games import services, signals
from games.models import Match
from tests.games.conftest import SCRIPTED_YARDZEE


def _record(connect: Any) -> list[tuple[str, int, str]]:
    """Every `match_started` and `match_finished`, with the match's stored status then."""
    record: list[tuple[str, int, str]] = []
    for name in ("match_started", "match_finished"):

        def receiver(sender: type[Match], match: Match, name: str = name, **kwargs: Any) -> None:
            record.append((name, match.pk, Match.objects.get(pk=match.pk).status))

        connect(getattr(signals, name), receiver)
    return record


def test_item6_match_started_is_sent_on_the_first_turn_only(zee, connect):
    record = _record(connect)
    for turn in SCRIPTED_YARDZEE[:5]:
        services.turn_submit(match_id=zee.pk, turn=turn)
    assert record == [("match_started", zee.pk, "in_progress")]


def test_item6_a_whole_result_sends_match_started_then_match_finished(zee, connect):
    record = _record(connect)
    services.result_submit(match_id=zee.pk, turns=SCRIPTED_YARDZEE)
    assert record == [
        ("match_started", zee.pk, "finished"),
        ("match_finished", zee.pk, "finished"),
    ]


def test_item6_a_match_whose_every_turn_was_undone_starts_again(zee, connect, organizer):
    """Its start time goes with its last turn (it reads as not started: scheduled, no start),
    and the next first turn starts it again, at that turn's time."""
    services.turn_submit(match_id=zee.pk, turn=SCRIPTED_YARDZEE[0])
    first_start = Match.objects.get(pk=zee.pk).started_at
    assert first_start is not None
    services.turn_undo(match_id=zee.pk, undone_by=organizer)
    undone = Match.objects.get(pk=zee.pk)
    assert (undone.status, undone.started_at) == ("scheduled", None)
    record = _record(connect)
    services.turn_submit(match_id=zee.pk, turn=SCRIPTED_YARDZEE[0])
    services.turn_submit(match_id=zee.pk, turn=SCRIPTED_YARDZEE[1])
    assert record == [("match_started", zee.pk, "in_progress")]
    started_again = Match.objects.get(pk=zee.pk).started_at
    assert started_again is not None
    assert started_again > first_start
