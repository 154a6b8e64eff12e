"""A service's sentence in the words of the organizer pages (organize.forms.words): the ids
its details name become names, a turn's JSON paths the correction form's labels, the API's
field names are left out or put as the form's labels; the API's sentence itself is not
changed."""

import pytest

from league.models import Event, Player, Stage
from league.standings import StandingsError
from organize.forms.words import boxes_named, ids_named, in_page_words, page_words, with_boxes
from organize.selectors import Names
from scoring.errors import DomainError


def test_the_ids_the_details_name_are_found_also_in_a_nested_refusal():
    details = {
        "turn": 4,
        "player": 15,
        "violation": {"code": "not_your_turn", "details": {"expected_player": 16}},
        "stages": [7, 8],
        "events": [9],
    }
    assert ids_named(details) == {"player": {15, 16}, "stage": {7, 8}, "event": {9}}


def test_players_stages_and_events_are_named_and_a_name_like_an_id_is_left_alone():
    names = Names(players={15: "Ana", 16: "Ben"}, stages={7: "Final"}, events={9: "Day 1"})
    assert (
        in_page_words("It is not player 15's turn; player 16 plays next.", names)
        == "It is not Ana's turn; Ben plays next."
    )
    assert (
        in_page_words("Stage 5 (Groups) has finished and Final (stage 7) took players.", names)
        == "Groups has finished and Final took players."
    )
    assert in_page_words("Event 9 is finished.", names) == "Day 1 is finished."
    # "Player 1" is a display name here, not an id the refusal names.
    assert in_page_words("Ana and Player 1 both played.", names) == "Ana and Player 1 both played."


def test_a_turns_json_paths_read_as_the_correction_forms_labels():
    none = Names()
    assert (
        in_page_words("Turn 2: rolls[0].dice must hold 5 dice, not 3.", none)
        == "Turn 2: roll 1's dice showing must hold 5 dice, not 3."
    )
    assert (
        in_page_words("rolls[2].keep[1] is not a die: dice are integers from 1 to 6.", none)
        == "Die 2 of roll 3's dice kept is not a die: dice are integers from 1 to 6."
    )
    assert in_page_words("throws[1].set_aside must be an array.", none) == (
        "Throw 2's set aside must be an array."
    )


def test_the_apis_reseed_field_is_not_named_on_a_page():
    said = in_page_words(
        "Send reseed_later_stages: true to put those stages back to draft and seat them again "
        "from the new ranking.",
        Names(),
    )
    assert "reseed_later_stages" not in said
    assert said.startswith("Re-seeding them would put those stages back to draft")
    assert said.endswith("back to draft and seat them again from the new ranking.")


def test_the_boxes_a_refusal_names_read_as_their_labels():
    details = {
        "turn": 12,
        "violation": {"details": {"box": "three_of_a_kind", "allowed": ["sixes", "chance"]}},
    }
    assert boxes_named(details) == {
        "three_of_a_kind": "3 of a kind",
        "sixes": "Sixes",
        "chance": "Chance",
    }
    said = in_page_words(
        "The three_of_a_kind box is already filled; the joker rule allows: sixes, chance.",
        with_boxes(Names(), details),
    )
    assert said == "The 3 of a kind box is already filled; the joker rule allows: Sixes, Chance."
    # Boxes the details do not name are words like any other.
    assert in_page_words("Take a chance.", Names()) == "Take a chance."


def _stage(event: Event, name: str, order: int) -> Stage:
    return Stage.objects.create(event=event, name=name, position=order, format="round_robin")


@pytest.mark.django_db
def test_the_events_stages_and_players_the_details_name_are_read_and_named_once(yardzee_event):
    groups, knockout = _stage(yardzee_event, "Groups", 1), _stage(yardzee_event, "Knockout", 2)
    ana = Player.objects.create(display_name="Ana Lima", handle="ana-words")
    refusal = DomainError(
        "x",
        f"Stage {groups.pk} ({groups.name}) has finished and Knockout (stage {knockout.pk}) "
        f"took players by its ranking; turn 4 (player {ana.pk}) no longer fits; "
        f"Event {yardzee_event.pk} is finished; Stage {groups.pk} must finish first.",
        details={
            "stages": [knockout.pk],
            "source_stage": groups.pk,
            "violation": {"details": {"player": ana.pk}},
            "event": yardzee_event.pk,
        },
    )
    assert page_words(refusal) == (
        "Groups has finished and Knockout took players by its ranking; turn 4 (Ana Lima) no "
        f"longer fits; {yardzee_event.name} is finished; Groups must finish first."
    )


@pytest.mark.django_db
def test_an_id_of_nothing_stays_and_a_refusal_naming_no_id_reads_nothing(
    django_assert_num_queries,
):
    with django_assert_num_queries(0):
        assert page_words(DomainError("x", "Match 39 has started.")) == "Match 39 has started."
    gone = DomainError("x", "Stage 999999 has started.", details={"stage": 999999})
    with django_assert_num_queries(1):
        assert page_words(gone) == "Stage 999999 has started."


def test_api_field_names_in_brackets_go_and_those_used_as_words_become_labels():
    none = Names()
    assert (
        in_page_words("Take the top N overall (source_top) or each group (source_per_group).", none)
        == "Take the top N overall or each group."
    )
    assert in_page_words("A walkover names who forfeit (`forfeits`).", none) == (
        "A walkover names who forfeit."
    )
    # Words in brackets stay; a one-word field name goes only where the form has that field.
    assert in_page_words("Keep (a walkover) as is.", none) == "Keep (a walkover) as is."
    assert in_page_words("Unknown setting(s): x.", none) == "Unknown setting(s): x."
    assert in_page_words("Name the stage (name).", none, {"name": "Name"}) == "Name the stage."
    assert (
        in_page_words("It goes with source_per_group.", none, {"source_per_group": "Each group"})
        == "It goes with “Each group”."
    )
    # A label is put as it is (a backslash in it is no reference to a group of the search).
    assert in_page_words("It goes with source_top.", none, {"source_top": r"Top \1"}) == (
        r"It goes with “Top \1”."
    )
    # A one-word field is a word of the sentence, not put as its label.
    assert in_page_words("Give the name.", none, {"name": "Stage name"}) == "Give the name."


def test_a_name_in_brackets_is_no_field_name():
    names = Names(players={20: "ana_b"})
    assert in_page_words("turn 4 (player 20) no longer fits.", names) == (
        "turn 4 (ana_b) no longer fits."
    )


def test_the_metric_a_tiebreak_refusal_names_reads_as_its_label():
    """As the tiebreak selects show it: "Points", not 'points'; a key no metric has, and the
    word "points" elsewhere in the sentence, are left as they are."""
    twice = StandingsError(
        "duplicate_metric",
        "Metric 'points' appears twice in the tiebreak order.",
        details={"metric": "points"},
    )
    assert page_words(twice) == "“Points” appears twice in the tiebreak order."
    other = StandingsError(
        "metric_not_for_game",
        "Metric 'yardkles' does not apply to Yardzee leagues: league points are kept.",
        details={"metric": "yardkles"},
    )
    assert (
        page_words(other) == "“Yardkles” does not apply to Yardzee leagues: league points are kept."
    )
    unknown = StandingsError(
        "unknown_metric", "Unknown standings metric 'luck'; ...", details={"metric": "luck"}
    )
    assert page_words(unknown) == "Unknown standings metric 'luck'; ..."
