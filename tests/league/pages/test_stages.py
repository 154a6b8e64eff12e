"""A stage's lines, rounds and ranking as the event page shows them (league.pages.stages),
built from plain reads without a database."""

from typing import Any

from games.models import MatchStatus
from league.models import ForfeitReason
from league.pages.stages import match_line, play_line, ranking, rounds, stage_view
from league.selectors import Bye, Entry, StageDetail, StageRound, StageSummary

from .helpers import match, play

NAMES = {1: "Ann", 2: "Bo", 3: "Cy"}


def _summary(**kw: Any) -> StageSummary:
    values: dict[str, Any] = {
        "id": 7,
        "name": "Groups",
        "format_text": "Round robin",
        "table_size": 2,
        "advance": 1,
        "status": "running",
        "status_text": "Running",
        "groups": 1,
        "played_in_groups": False,
        "ranking": (),
        "bracket": None,
    }
    values.update(kw)
    return StageSummary(**values)


def test_only_the_first_place_of_a_finished_match_won() -> None:
    finished = match_line(match(5, (1, 200, 1), (2, 180, 2)))
    assert [(s.name, s.won) for s in finished.seats] == [("P1", True), ("P2", False)]
    assert finished.id == 5
    assert finished.status_text == "Finished"
    # A finished match voided afterwards keeps its places, but nobody won it.
    void = match_line(match(6, (1, 200, 1), (2, 180, 2), status=MatchStatus.VOID))
    assert not any(seat.won for seat in void.seats)
    assert void.status_text == "Void"


def test_a_walkover_reads_walkover_and_says_why_the_other_did_not_play() -> None:
    line = play_line(
        play(1, walkover=True, order=(1, 2), forfeits={2: ForfeitReason.NO_SHOW}), NAMES
    )
    assert (line.id, line.status, line.status_text) == (None, "walkover", "Walkover")
    assert [(s.name, s.won, s.note) for s in line.seats] == [
        ("Ann", True, None),
        ("Bo", False, "did not show"),
    ]


def test_a_player_who_withdrew_from_a_replayed_table_stays_on_its_line() -> None:
    replay = match(8, (1, 200, 1), (3, 150, 2))
    line = play_line(play(1, result=replay, forfeits={2: ForfeitReason.WITHDREW}), NAMES)
    assert line.id == 8
    assert [(s.name, s.note) for s in line.seats] == [
        ("P1", None),
        ("P3", None),
        ("Bo", "withdrew"),
    ]


def test_a_stage_match_not_seated_yet_is_waiting_and_an_unknown_player_has_a_name() -> None:
    line = play_line(play(1, walkover=True, order=(9,)), NAMES)
    assert line.seats[0].name == "Player 9"
    waiting = play_line(play(2), NAMES)
    assert (waiting.status, waiting.status_text, waiting.seats) == ("waiting", "Waiting", ())


def test_rounds_carry_their_byes_and_say_when_they_mix_groups() -> None:
    detail = StageDetail(
        rounds=(
            StageRound(number=1, matches=(play(1, group=1), play(2, group=2))),
            StageRound(number=2, matches=(play(3, round_=2),)),
        ),
        bracket_format=None,
        slots=(),
        byes=(Bye(round=2, player=3),),
    )
    shown = rounds(detail, NAMES)
    assert [(r.number, r.groups, [b.name for b in r.byes]) for r in shown] == [
        (1, True, []),
        (2, False, ["Cy"]),
    ]


def test_players_sharing_a_tier_share_the_place_and_the_next_is_skipped() -> None:
    tiers = ranking([(1,), (2, 3), (4,)], NAMES)
    assert [(t.place, [p.name for p in t.players]) for t in tiers] == [
        (1, ["Ann"]),
        (2, ["Bo", "Cy"]),
        (4, ["Player 4"]),
    ]


def test_a_stage_without_a_bracket_shows_its_rounds_ranking_and_tiebreak() -> None:
    detail = StageDetail(
        rounds=(StageRound(number=1, matches=(play(1, result=match(5, (1, 9, 1), (2, 8, 2))),)),),
        bracket_format=None,
        slots=(),
        byes=(),
    )
    entries = [Entry(player=1, name="Ann", seed=1), Entry(player=2, name="Bo", seed=2)]
    view = stage_view(
        _summary(ranking=((1,), (2,))),
        detail,
        entries,
        tiebreak=["head_to_head", "points"],
        standings=None,
    )
    assert view.players == 2
    assert view.bracket_svg is None
    assert [r.number for r in view.rounds] == [1]
    assert [t.players[0].name for t in view.ranking] == ["Ann", "Bo"]
    assert view.tiebreak == ("Head-to-head", "Points")
    assert view.across_groups == ("Points",)
