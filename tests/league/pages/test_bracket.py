"""An elimination bracket as boxes to draw (league.pages.bracket), from the stored bracket and
its plays without a database, and the stage view that draws it."""

from typing import Any

from games.models import MatchStatus
from league import draw
from league.models import ForfeitReason
from league.pages.bracket import bracket_boxes, bracket_state, source_text
from league.pages.stages import stage_view
from league.selectors import BracketSlot, Entry, StageDetail, StagePlay, StageSummary

from .helpers import match, play

NAMES = {11: "Ann", 12: "Bo", 13: "Cy"}
SEEDS = {11: 1, 12: 2, 13: 3}


def _bracket(state: bool = False) -> dict[str, Any]:
    """Three players: seed 1 has a bye to the final, seeds 2 and 3 play W1-2."""
    bracket = draw.single_elimination([11, 12, 13])
    stored = bracket.to_json()
    if state:
        stored["state"] = draw.slot_states_to_json(draw.advance_bracket(bracket, {}))
    return stored


def _slots(stored: dict[str, Any], plays: dict[str, StagePlay]) -> list[BracketSlot]:
    return [
        BracketSlot(
            spec=slot, byes=slot["size"] - len(slot["sources"]), play=plays.get(slot["key"])
        )
        for slot in stored["slots"]
    ]


def test_a_seat_not_known_yet_says_what_will_fill_it() -> None:
    assert source_text({"kind": "seed", "seed": 3}) == "Seed 3"
    assert source_text({"kind": "winner", "slot": "W1-2", "rank": 1}) == "Winner of W1-2"
    assert source_text({"kind": "loser", "slot": "W2-1", "rank": 2}) == "Loser of W2-1"
    assert source_text({"kind": "winner", "slot": "W1-1", "rank": 3}) == "3rd of W1-1"
    assert source_text({"kind": "winner", "slot": "W1-1", "rank": 5}) == "5th of W1-1"


def test_the_state_stored_beside_the_bracket_is_read_not_advanced_again() -> None:
    stored = _bracket(state=True)
    # A stored state wins over the plays (the service advanced the bracket when it stored it).
    plays = {"W1-2": play(1, slot="W1-2", order=(13, 12))}
    state = bracket_state(stored, _slots(stored, plays))
    assert state["W1-2"].status != "played"
    assert state["W2-1"].seats[0] == 11  # seed 1 sent on by its bye


def test_a_bracket_stored_without_states_is_advanced_from_its_orders() -> None:
    stored = _bracket()
    plays = {"W1-2": play(1, slot="W1-2", order=(13, 12))}
    state = bracket_state(stored, _slots(stored, plays))
    assert state["W1-2"].status == "played"
    assert state["W2-1"].seats == (11, 13)


def test_a_bracket_edited_by_hand_is_drawn_as_stored() -> None:
    assert bracket_state({"format": "nonsense"}, []) == {}


def test_boxes_show_players_scores_who_goes_on_and_link_their_match() -> None:
    stored = _bracket()
    result = match(40, (12, 180, 2), (13, 210, 1))
    plays = {"W1-2": play(1, slot="W1-2", order=(13, 12), result=result)}
    boxes = {box.key: box for box in bracket_boxes(stored, _slots(stored, plays), NAMES, SEEDS)}
    semi = boxes["W1-2"]
    assert [(s.label, s.seed, s.score, s.advances) for s in semi.seats] == [
        ("Bo", 2, 180, False),
        ("Cy", 3, 210, True),
    ]
    assert semi.status == "played"
    assert semi.href == "/matches/40/"
    final = boxes["W2-1"]
    assert [s.label for s in final.seats] == ["Ann", "Cy"]
    assert final.status == "ready"
    assert final.href is None
    bye = boxes["W1-1"]
    assert [s.label for s in bye.seats] == ["Ann", "bye"]


def test_a_walkover_has_no_link_and_names_the_forfeit() -> None:
    stored = _bracket()
    void = match(41, (12, None, None), (13, None, None), status=MatchStatus.VOID)
    plays = {
        "W1-2": play(
            1,
            slot="W1-2",
            walkover=True,
            order=(13, 12),
            result=void,
            forfeits={12: ForfeitReason.WITHDREW},
        )
    }
    boxes = {box.key: box for box in bracket_boxes(stored, _slots(stored, plays), NAMES, SEEDS)}
    assert boxes["W1-2"].status == "walkover"
    assert boxes["W1-2"].href is None
    assert [(s.label, s.note) for s in boxes["W1-2"].seats] == [("Bo", "withdrew"), ("Cy", None)]


def test_a_seat_not_decided_yet_reads_its_source() -> None:
    stored = _bracket()
    boxes = {box.key: box for box in bracket_boxes(stored, _slots(stored, {}), NAMES, SEEDS)}
    assert [(s.label, s.known) for s in boxes["W2-1"].seats] == [
        ("Ann", True),
        ("Winner of W1-2", False),
    ]


def test_a_reset_not_needed_has_no_byes_only_the_seats_it_would_have_taken() -> None:
    # The winners-bracket player won the grand final: the reset is skipped. Its seats read
    # "bye" before, as if the draw had left them empty.
    bracket = draw.double_elimination([11, 12])
    stored = bracket.to_json()
    order = {"W1-1": (11, 12), "GF-1": (11, 12)}
    results = {
        key: draw.SlotResult(placements={p: place for place, p in enumerate(o, start=1)})
        for key, o in order.items()
    }
    stored["state"] = draw.slot_states_to_json(draw.advance_bracket(bracket, results))
    plays = {key: play(n, slot=key, order=o) for n, (key, o) in enumerate(order.items(), 1)}
    boxes = {box.key: box for box in bracket_boxes(stored, _slots(stored, plays), NAMES, SEEDS)}
    reset = boxes["GF-2"]
    assert reset.status == "skipped"
    assert [(s.label, s.bye, s.known) for s in reset.seats] == [
        ("Winner of GF-1", False, False),
        ("Loser of GF-1", False, False),
    ]


def test_an_elimination_stage_is_drawn_as_svg_without_rounds() -> None:
    stored = _bracket()
    summary = StageSummary(
        id=3,
        name="Finals <b>",
        format_text="Single elimination",
        table_size=2,
        advance=1,
        status="running",
        status_text="Running",
        groups=1,
        played_in_groups=False,
        ranking=(),
        bracket=stored,
    )
    detail = StageDetail(
        rounds=(),
        bracket_format="single_elimination",
        slots=tuple(_slots(stored, {})),
        byes=(),
    )
    entries = [Entry(player=p, name=NAMES[p], seed=SEEDS[p]) for p in NAMES]
    view = stage_view(summary, detail, entries, tiebreak=["points"], standings=None)
    assert view.slots == 3
    assert view.rounds == ()
    assert view.bracket_svg is not None
    assert 'id="stage-3-' in view.bracket_svg
    assert "Finals &lt;b&gt;" in view.bracket_svg
