"""Match control (issue 17; docs/organizing.md, "Match control"): on the match and scoring
pages the match's organizers, and only they, undo the last turn, correct a turn, void, award a
walkover and take a void back. Each control first says what it does and what else changes
(rehearsed with the service and rolled back: nothing is kept), then goes through the service
on confirmation."""

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import services as game_services
from games.models import Match, MatchStatus, Turn, TurnCorrection, TurnUndo
from league.models import Event, Player, Stage, StageMatch, StageStatus, StageVoid
from league.services import stages
from scoring.errors import DomainError
from tests.games.conftest import SCRIPTED_YARDZEE
from tests.playing import fed_stage, play, play_stage, start_stage
from tests.web.conftest import make_players

pytestmark = pytest.mark.django_db

CONTROLS = ("undo/", "correct/", "void/", "walkover/", "unvoid/")


def _client(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _match_of_two(event: Event, game: str, prefix: str) -> tuple[Match, list[Player]]:
    """A casual match of two new players of the event's league, not started."""
    players = make_players(2, prefix=prefix)
    event.league.players.add(*players)
    match = game_services.match_create(
        game=game,
        player_ids=[p.pk for p in players],
        event_id=event.pk,
        league_id=event.league_id,
    )
    return match, players


def _casual(event: Event, turns: int = 0, prefix: str = "Casual") -> Match:
    match, _ = _match_of_two(event, "yardzee", prefix)
    for turn in SCRIPTED_YARDZEE[:turns]:
        game_services.turn_submit(match_id=match.pk, turn=turn)
    return match


def _everything(match: Match) -> dict[str, Any]:
    """What a rehearsal must leave as it was: every match, turn, slot and stage of the event."""
    return {
        "matches": list(
            Match.objects.filter(event=match.event)
            .order_by("pk")
            .values_list("pk", "status", "turns_played", "state")
        ),
        "turns": list(Turn.objects.order_by("pk").values_list("pk", "points", "payload")),
        "slots": list(
            StageMatch.objects.order_by("pk").values_list("pk", "match_id", "order", "walkover")
        ),
        "stages": list(Stage.objects.order_by("pk").values_list("pk", "status", "ranking")),
        "undos": TurnUndo.objects.count(),
        "voids": StageVoid.objects.count(),
    }


@pytest.fixture
def bracket(yardzee_event: Event) -> Stage:
    """A four-player knockout whose two semi-finals are played: the final is seated, not
    started."""
    stage = start_stage(yardzee_event, "single_elimination", make_players(4), table_size=2)
    play_stage(stage, seed=1, limit=2)
    return stage


def _semi(stage: Stage) -> Match:
    sm = StageMatch.objects.filter(stage=stage, round=1).order_by("slot").first()
    return Match.objects.get(pk=sm.match_id)


def _final(stage: Stage) -> Match:
    sm = StageMatch.objects.filter(stage=stage).exclude(round=1).get()
    return Match.objects.get(pk=sm.match_id)


# --- Who sees and uses the controls --------------------------------------------------------------


@pytest.mark.parametrize("control", CONTROLS)
def test_a_non_organizer_gets_403_and_changes_nothing(
    control, yardzee_event, player_account, other_organizer
):
    match = _casual(yardzee_event, turns=2)
    before = _everything(match)
    for user in (player_account, other_organizer):
        client = _client(user)
        url = f"/organize/matches/{match.pk}/{control}"
        assert client.get(url).status_code == 403
        assert client.post(url, {"confirm": "1", "turn": "2"}).status_code == 403
    assert _everything(match) == before


@pytest.mark.parametrize("control", CONTROLS)
def test_anonymous_is_sent_to_sign_in(control, yardzee_event):
    match = _casual(yardzee_event, turns=1)
    response = _client(None).get(f"/organize/matches/{match.pk}/{control}")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_the_match_page_shows_the_controls_to_organizers_only(
    yardzee_event, organizer, player_account
):
    match = _casual(yardzee_event, turns=3)
    organizer_page = _client(organizer).get(f"/matches/{match.pk}/").content.decode()
    assert "Match control" in organizer_page
    assert f"/organize/matches/{match.pk}/undo/" in organizer_page
    assert "Undo the last turn: Turn 3: Casual 1, Twos, 4" in organizer_page
    for user in (None, player_account):
        page = _client(user).get(f"/matches/{match.pk}/").content.decode()
        assert "Match control" not in page
        assert "/organize/matches/" not in page
        assert match.score_key not in page


def test_the_live_part_of_the_match_page_is_the_same_for_everyone(yardzee_event, organizer):
    match = _casual(yardzee_event, turns=2)
    parts = [_client(user).get(f"/matches/{match.pk}/live/").content for user in (None, organizer)]
    assert parts[0] == parts[1]
    assert b"organize" not in parts[0]


# --- Undo the last turn ---------------------------------------------------------------------------


def test_undo_says_which_turn_and_whose_and_goes_through_the_service(yardzee_event, organizer):
    match = _casual(yardzee_event, turns=3)
    client = _client(organizer)
    url = f"/organize/matches/{match.pk}/undo/"
    before = _everything(match)
    page = client.get(url + f"?next=/matches/{match.pk}/").content.decode()
    assert "Undo <strong>Turn 3: Casual 1, Twos, 4</strong>?" in page
    assert "Casual 1 plays turn 3 again" in page
    assert "Nothing else" in page
    assert _everything(match) == before  # the rehearsal kept nothing
    done = client.post(url, {"turn": "3", "confirm": "1", "next": f"/matches/{match.pk}/"})
    assert done.status_code == 302
    assert done["Location"] == f"/matches/{match.pk}/"
    undo = TurnUndo.objects.get()
    assert (undo.sequence, undo.undone_by, undo.taken_back) == (3, organizer, False)
    shown = client.get(done["Location"]).content.decode()
    assert "Turn 3: Casual 1, Twos, 4 was undone." in shown


def test_an_undo_confirmed_for_a_turn_that_is_no_longer_last_is_not_applied(
    yardzee_event, organizer
):
    match = _casual(yardzee_event, turns=3)
    game_services.turn_submit(match_id=match.pk, turn=SCRIPTED_YARDZEE[3])
    response = _client(organizer).post(
        f"/organize/matches/{match.pk}/undo/", {"turn": "3", "confirm": "1"}
    )
    assert response.status_code == 200
    assert "The last turn is now Turn 4" in response.content.decode()
    assert not TurnUndo.objects.exists()


def test_undoing_a_finished_semi_final_says_the_final_is_taken_off_the_draw(bracket, organizer):
    semi, final = _semi(bracket), _final(bracket)
    client = _client(organizer)
    before = _everything(semi)
    page = client.get(f"/organize/matches/{semi.pk}/undo/").content.decode()
    assert f"Match #{semi.pk} is open again: its result is withdrawn" in page
    names = " v ".join(final.seats.order_by("order").values_list("player__display_name", flat=True))
    # The players as they are written (a capitalized sentence once lowercased them).
    assert f"Match #{final.pk} ({names}), not started yet, is taken off the draw" in page
    assert "The result that stood:" in page
    assert "standings of its event and league" in page
    assert _everything(semi) == before
    client.post(
        f"/organize/matches/{semi.pk}/undo/", {"turn": str(semi.turns_played), "confirm": "1"}
    )
    assert not Match.objects.filter(pk=final.pk).exists()
    assert Match.objects.get(pk=semi.pk).status == MatchStatus.IN_PROGRESS


def test_an_undo_the_bracket_refuses_is_shown_as_refused_with_no_confirm(bracket, organizer):
    semi, final = _semi(bracket), _final(bracket)
    play(final, seed=2, turns=1)  # the final has begun
    page = _client(organizer).get(f"/organize/matches/{semi.pk}/undo/").content.decode()
    assert "Not possible now" in page
    assert str(final.pk) in page
    assert 'id="confirm-undo"' not in page
    refused = _client(organizer).post(
        f"/organize/matches/{semi.pk}/undo/", {"turn": str(semi.turns_played), "confirm": "1"}
    )
    assert refused.status_code == 409
    assert "Refused, nothing changed" in refused.content.decode()
    assert not TurnUndo.objects.exists()


def test_a_later_stage_seeded_by_a_finished_stage_is_re_seeded_once_confirmed(
    yardzee_event, organizer
):
    groups = start_stage(yardzee_event, "round_robin", make_players(4), name="Groups")
    knockout = fed_stage(groups, source_top=2)
    play_stage(groups, seed=3)
    groups.refresh_from_db()
    assert groups.status == StageStatus.FINISHED
    stages.stage_start(stage_id=knockout.pk)
    last = Match.objects.filter(stage_match__stage=groups).order_by("-finished_at", "-pk").first()
    client = _client(organizer)
    page = client.get(f"/organize/matches/{last.pk}/undo/").content.decode()
    assert "Groups is running again" in page
    assert "Knockout goes back to draft" in page
    assert 'name="reseed" value="1"' in page
    client.post(
        f"/organize/matches/{last.pk}/undo/",
        {"turn": str(last.turns_played), "confirm": "1", "reseed": "1"},
    )
    knockout.refresh_from_db()
    assert knockout.status == StageStatus.DRAFT


# --- Void, walkover, un-void ----------------------------------------------------------------


def test_a_void_with_a_replay_says_the_new_match_is_seated(bracket, organizer):
    final = _final(bracket)
    play(final, seed=4, turns=2)
    client = _client(organizer)
    before = _everything(final)
    page = client.get(f"/organize/matches/{final.pk}/void/").content.decode()
    assert f"Match #{final.pk} becomes void" in page
    assert "is seated." in page
    assert "Replay: the same players" in page
    assert _everything(final) == before
    checked = _hidden(page, "checked")
    done = client.post(
        f"/organize/matches/{final.pk}/void/",
        {"outcome": "replay", "checked": checked, "confirm": "1"},
    )
    assert done.status_code == 302
    void = StageVoid.objects.get()
    assert (void.match_id, void.outcome, void.voided_by) == (final.pk, "replay", organizer)
    assert void.replay_id is not None


def test_a_walkover_names_who_forfeits_and_what_it_decides(bracket, organizer):
    final = _final(bracket)
    seats = list(final.seats.order_by("order"))
    client = _client(organizer)
    url = f"/organize/matches/{final.pk}/walkover/"
    page = client.get(url).content.decode()
    assert "Walkover at match" in page
    chosen: dict[str, Any] = {
        "outcome": "walkover",
        "forfeits": [seats[0].player_id],
        "reason": "no_show",
    }
    checked_page = client.get(url, chosen).content.decode()
    assert "decided by a walkover, without play" in checked_page
    assert "finishes" in checked_page  # the final decided: the knockout is over
    done = client.post(url, {**chosen, "checked": _hidden(checked_page, "checked"), "confirm": "1"})
    assert done.status_code == 302
    void = StageVoid.objects.get()
    assert (void.outcome, void.forfeits) == ("walkover", [seats[0].player_id])
    bracket.refresh_from_db()
    assert bracket.status == StageStatus.FINISHED


def test_a_match_being_played_by_a_player_who_withdrew_is_not_replayed_with_them(
    yardzee_event, organizer
):
    """The withdrawal left their match being played "to finish or void": the void starts at a
    walkover against them, and a replay (which would seat them again) is refused, naming them."""
    players = make_players(4, prefix="Leaver")
    stage = start_stage(yardzee_event, "round_robin", players, name="Pool")
    match = Match.objects.filter(stage_match__stage=stage).order_by("pk").first()
    play(match, seed=2, turns=1)
    leaver = match.seats.order_by("order").first().player
    stages.stage_withdraw(stage_id=stage.pk, player_id=leaver.pk)
    client = _client(organizer)
    url = f"/organize/matches/{match.pk}/void/"
    page = client.get(url).content.decode()
    assert re.search(r'value="walkover"[^>]* checked', page)
    assert re.search(rf'value="{leaver.pk}"[^>]* checked', page)
    assert "decided by a walkover, without play" in page
    before = _everything(match)
    replay = client.get(url, {"outcome": "replay"}).content.decode()
    assert (
        f"{leaver.display_name} has withdrawn from Pool, so cannot play on at this table: award "
        "a walkover against them or record no result." in replay
    )
    assert 'name="confirm"' not in replay
    response = client.post(
        url,
        {
            "outcome": "replay",
            "checked": game_services.request_fingerprint({"outcome": "replay"}),
            "confirm": "1",
        },
    )
    assert response.status_code == 409
    assert _everything(match) == before
    assert not StageVoid.objects.filter(match=match).exists()


def test_a_void_confirmed_with_other_options_than_checked_is_checked_again(bracket, organizer):
    final = _final(bracket)
    seats = list(final.seats.order_by("order"))
    response = _client(organizer).post(
        f"/organize/matches/{final.pk}/void/",
        {
            "outcome": "walkover",
            "forfeits": [seats[1].player_id],
            # What the page checked: a replay (a fingerprint, as the page sends, of others).
            "checked": game_services.request_fingerprint({"outcome": "replay"}),
            "confirm": "1",
        },
    )
    assert response.status_code == 200
    assert "check what it does now" in response.content.decode()
    assert not StageVoid.objects.exists()


def test_a_walkover_naming_no_one_is_refused_by_the_service(bracket, organizer):
    final = _final(bracket)
    page = _client(organizer).get(
        f"/organize/matches/{final.pk}/walkover/", {"outcome": "walkover", "reason": "awarded"}
    )
    assert "Not possible now" in page.content.decode()
    assert "names the players who forfeit." in page.content.decode()
    assert "`forfeits`" not in page.content.decode()  # the API's field name, not the page's


def test_a_walkover_naming_no_one_offers_no_confirm_until_someone_is_named(bracket, organizer):
    final = _final(bracket)
    client = _client(organizer)
    url = f"/organize/matches/{final.pk}/walkover/"
    page = client.get(url).content.decode()
    assert "Not possible now" in page
    assert 'name="confirm"' not in page
    # Ticking who forfeits swaps #void-check, with htmx: the confirm button is in it.
    forfeits = [final.seats.order_by("order")[0].player_id]
    chosen: dict[str, Any] = {"outcome": "walkover", "forfeits": forfeits, "reason": "no_show"}
    swapped = client.get(url, chosen, HTTP_HX_REQUEST="true").content.decode()
    check = swapped[swapped.index('id="void-check"') :]
    assert 'id="confirm-void"' in check
    assert "Not possible now" not in check


def test_on_a_closed_event_every_control_says_why_and_offers_no_confirm(
    bracket, yardzee_event, organizer
):
    """docs/organizing.md, "Match control": a refusal is shown, and no confirm button."""
    final = _final(bracket)
    play(final, seed=4, turns=2)
    voided = _casual(yardzee_event, turns=2)
    game_services.match_void(match_id=voided.pk, voided_by=organizer)
    Event.objects.filter(pk=yardzee_event.pk).update(status="finished")
    client = _client(organizer)
    before = _everything(final)
    pages = {
        "undo": client.get(f"/organize/matches/{final.pk}/undo/"),
        "void": client.get(f"/organize/matches/{final.pk}/void/"),
        "walkover": client.get(
            f"/organize/matches/{final.pk}/walkover/",
            {"outcome": "walkover", "forfeits": [str(final.seats.order_by("order")[0].player_id)]},
        ),
        "unvoid": client.get(f"/organize/matches/{voided.pk}/unvoid/"),
        "correct": client.post(
            f"/organize/matches/{final.pk}/correct/?turn=1",
            {"dice_1": "6 6 6 6 5", "category": "chance", "check": "1"},
        ),
    }
    for name, response in pages.items():
        page = response.content.decode()
        assert "Not possible" in page, name
        assert f"{yardzee_event.name} is finished" in page, name
        assert f"Event {yardzee_event.pk}" not in page, name
        assert 'name="confirm"' not in page, name
    assert _everything(final) == before


def test_a_control_the_match_cannot_take_says_why_and_a_post_of_it_is_a_409(
    yardzee_event, organizer
):
    """docs/organizing.md, "Match control": a control that cannot act on the match (no turn
    to undo or correct, a void of a void match, a walkover off-stage, taking back a void that
    is not there) says why and offers no confirm; posted anyway (a stale tab), it answers 409
    with the same sentence, and nothing changes."""
    fresh = _casual(yardzee_event)
    voided = _casual(yardzee_event, turns=2, prefix="Void")
    game_services.match_void(match_id=voided.pk, voided_by=organizer)
    client = _client(organizer)
    cases = {
        f"/organize/matches/{fresh.pk}/undo/": "This match has no turn to undo.",
        f"/organize/matches/{fresh.pk}/correct/": "This match has no turn to correct.",
        f"/organize/matches/{fresh.pk}/walkover/": "A walkover decides a stage match; this "
        "match is in no stage.",
        f"/organize/matches/{fresh.pk}/unvoid/": "This match is not void.",
        f"/organize/matches/{voided.pk}/void/": "This match is void already.",
        f"/organize/matches/{voided.pk}/undo/": "This match is void: take the void back first.",
    }
    before = _everything(fresh)
    for url, sentence in cases.items():
        shown = client.get(url)
        assert shown.status_code == 200, url
        assert sentence in shown.content.decode(), url
        assert 'name="confirm"' not in shown.content.decode(), url
        posted = client.post(url, {"confirm": "1", "turn": "1"})
        assert posted.status_code == 409, url
        assert sentence in posted.content.decode(), url
    assert _everything(fresh) == before


def test_a_casual_match_is_voided_and_the_void_taken_back(yardzee_event, organizer):
    match = _casual(yardzee_event, turns=2)
    client = _client(organizer)
    page = client.get(f"/organize/matches/{match.pk}/void/").content.decode()
    assert "What decides the slot" not in page  # no stage: a plain void
    assert f"Match #{match.pk} becomes void" in page
    client.post(
        f"/organize/matches/{match.pk}/void/", {"checked": _hidden(page, "checked"), "confirm": "1"}
    )
    assert Match.objects.get(pk=match.pk).status == MatchStatus.VOID
    assert client.get(f"/organize/matches/{match.pk}/walkover/").status_code == 200
    control = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Take back the void" in control
    assert "control-void" not in control
    page = client.get(f"/organize/matches/{match.pk}/unvoid/").content.decode()
    assert f"Match #{match.pk} counts again: it is in progress." in page
    client.post(f"/organize/matches/{match.pk}/unvoid/", {"confirm": "1"})
    assert Match.objects.get(pk=match.pk).status == MatchStatus.IN_PROGRESS


# --- Correct a turn -------------------------------------------------------------------------


def test_a_correction_is_typed_checked_then_confirmed(yardzee_event, organizer):
    match = _casual(yardzee_event, turns=4)
    client = _client(organizer)
    url = f"/organize/matches/{match.pk}/correct/?turn=2"
    form = client.get(url).content.decode()
    assert "As stored: <strong>Turn 2: Casual 2, Yardzee, 50</strong>" in form
    assert 'value="6 6 6 6 6"' in form
    typed = {"dice_1": "6 6 6 6 5", "category": "chance"}
    before = _everything(match)
    checked = client.post(url, {**typed, "check": "1"}).content.decode()
    assert "Turn 2: Casual 2, Chance, 29 (it was: Casual 2, Yardzee, 50)." in checked
    # Turn 4 was five sixes in Sixes, a forced joker with its 100 bonus while the Yardzee
    # box held 50; with the Yardzee box open again it is plain Sixes.
    assert "Turn 4 (Casual 2) is rescored: 130 → 30." in checked
    assert "Casual 2&#x27;s total: 180 → 59." in checked
    assert _everything(match) == before
    done = client.post(
        url, {**typed, "checked": _hidden(checked, "checked"), "confirm": "1", "next": "/"}
    )
    assert done.status_code == 302
    correction = TurnCorrection.objects.get()
    assert (correction.sequence, correction.corrected_by) == (2, organizer)
    assert Turn.objects.get(match=match, sequence=2).payload["category"] == "chance"


def test_a_correction_a_later_turn_no_longer_fits_is_refused_before_confirming(
    yardzee_event, organizer
):
    match = _casual(yardzee_event, turns=4)  # turn 4 fills Casual 2's sixes
    page = (
        _client(organizer)
        .post(
            f"/organize/matches/{match.pk}/correct/?turn=2",
            {"dice_1": "6 6 6 6 6", "category": "sixes", "check": "1"},
        )
        .content.decode()
    )
    assert "Not possible" in page
    # The later turn's player is named, as the page names players, not by their id.
    second = Turn.objects.get(match=match, sequence=4).seat.player
    assert "turn 4 (Casual 2) no longer fits: The Sixes box is already filled" in page
    assert f"player {second.pk}" not in page
    assert 'id="confirm-correct"' not in page


def test_a_refused_correction_names_the_dice_as_the_form_does_not_by_json_path(
    yardzee_event, organizer
):
    match = _casual(yardzee_event, turns=4)
    url = f"/organize/matches/{match.pk}/correct/?turn=2"
    client = _client(organizer)
    short = client.post(url, {"dice_1": "6 6 6", "category": "chance", "check": "1"})
    page = short.content.decode()
    # Bad input, said on the field it is about (the turn typed breaks a rule itself).
    assert short.status_code == 400
    assert re.search(
        r'id="id_dice_1_error">Roll 1&#x27;s dice showing must hold 5 dice, not 3.<', page
    )
    assert "rolls[" not in page
    assert 'id="confirm-correct"' not in page
    assert "What the correction does" not in page
    # Each row typed wrong, said on that row's field in the form's words.
    for second_roll, said in (
        (
            {"keep_2": "6 6", "dice_2": "6 6"},
            r'id="id_dice_2_error">Roll 2&#x27;s dice showing must hold 5 dice, not 2.<',
        ),
        (
            {"keep_2": "1 1", "dice_2": "1 1 2 3 4"},
            r'id="id_keep_2_error">Roll 2 keeps 1-1, but the dice showing were 5-6-6-6-6',
        ),
    ):
        form = {"dice_1": "6 6 6 6 5", **second_roll, "category": "chance", "check": "1"}
        answer = client.post(url, form).content.decode()
        assert re.search(said, answer)
        assert "rolls[" not in answer
    filled = client.post(  # turn 4 is Casual 2's again, who filled the Yardzee box at 2
        f"/organize/matches/{match.pk}/correct/?turn=4",
        {"dice_1": "6 6 6 6 5", "category": "yardzee", "check": "1"},
    ).content.decode()
    assert re.search(r'id="id_category_error">The Yardzee box is already filled', filled)
    # The API keeps its own sentence, which names the JSON path.
    with pytest.raises(DomainError, match=re.escape("Turn 2: rolls[0].dice must hold 5 dice")):
        game_services.turn_correct(
            match_id=match.pk,
            sequence=2,
            turn={"player": Turn.objects.get(match=match, sequence=2).seat.player_id}
            | {"rolls": [{"dice": [6, 6, 6]}], "category": "chance"},
            corrected_by=organizer,
        )


def test_a_yardkle_correction_refused_names_the_throw_as_the_form_does(yardkle_event, organizer):
    match, _ = _match_of_two(yardkle_event, "yardkle", "Kle")
    game_services.turn_submit(match_id=match.pk, turn=NOTHING_THROWN)
    page = (
        _client(organizer)
        .post(
            f"/organize/matches/{match.pk}/correct/?turn=1",
            {"dice_1": "1 2 3 4 6 6", "set_aside_1": "1", "dice_2": "2 3 4 6 6 2"}
            | {"end": "yardkle", "check": "1"},
        )
        .content.decode()
    )
    assert re.search(
        r'id="id_dice_2_error">Throw 2&#x27;s dice thrown must hold 5 dice, not 6', page
    )
    assert "throws[" not in page


def test_a_refused_undo_names_the_stages_and_not_their_ids(yardzee_event, organizer):
    groups = start_stage(yardzee_event, "round_robin", make_players(4), name="Groups")
    knockout = fed_stage(groups, source_top=4, table_size=2)
    play_stage(groups, seed=3)
    stages.stage_start(stage_id=knockout.pk)
    play_stage(knockout, seed=3, limit=1)  # one semi-final of two
    last = Match.objects.filter(stage_match__stage=groups).order_by("-finished_at", "-pk").first()
    page = _client(organizer).get(f"/organize/matches/{last.pk}/undo/").content.decode()
    assert "Not possible now" in page
    assert "Groups has finished and Knockout took players by its ranking" in page
    assert f"stage {knockout.pk}" not in page.lower()
    assert f"stage {groups.pk}" not in page.lower()


def test_dice_typed_wrong_are_shown_on_the_form(yardzee_event, organizer):
    match = _casual(yardzee_event, turns=1)
    response = _client(organizer).post(
        f"/organize/matches/{match.pk}/correct/", {"dice_1": "1 2 7 4 5", "category": "chance"}
    )
    assert response.status_code == 400
    assert "a digit from 1 to 6" in response.content.decode()


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        (
            {"dice_1": "6 6 6 6 5", "dice_3": "6 6 6 6 6", "keep_3": "6 6 6 6"},
            "Roll 2 has no dice, but roll 3 has",
        ),
        ({"dice_1": "6 6 6 6 5", "keep_2": "6 6 6 6"}, "Roll 2 has dice kept but none showing"),
    ],
)
def test_a_roll_the_correction_would_leave_out_is_a_form_error(
    yardzee_event, organizer, typed, said
):
    """The turn is its rolls up to the first empty one: a roll typed after an empty one, or
    dice kept in a roll with no dice showing, were dropped from the turn without a word."""
    match = _casual(yardzee_event, turns=2)
    before = _everything(match)
    response = _client(organizer).post(
        f"/organize/matches/{match.pk}/correct/?turn=2",
        {**typed, "category": "chance", "check": "1"},
    )
    assert response.status_code == 400
    assert said in response.content.decode()
    assert "What the correction does" not in response.content.decode()
    assert _everything(match) == before


def test_a_throw_the_correction_would_leave_out_is_a_form_error(yardkle_event, organizer):
    match, _ = _match_of_two(yardkle_event, "yardkle", "Kle")
    game_services.turn_submit(match_id=match.pk, turn=NOTHING_THROWN)
    response = _client(organizer).post(
        f"/organize/matches/{match.pk}/correct/?turn=1",
        {"dice_1": "1 2 3 4 6 6", "set_aside_1": "1", "set_aside_2": "5"}
        | {"end": "yardkle", "check": "1"},
    )
    assert response.status_code == 400
    assert "Throw 2 has dice set aside but none thrown" in response.content.decode()


def test_with_htmx_a_control_answers_its_fragment_alone(yardzee_event, organizer):
    match = _casual(yardzee_event, turns=1)
    response = _client(organizer).get(f"/organize/matches/{match.pk}/undo/", HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert body.lstrip().startswith('<section class="match-control-step"')
    assert "<html" not in body


def test_the_undo_page_costs_the_same_queries_in_a_small_and_a_large_event(
    yardzee_event, organizer
):
    small = _casual(yardzee_event, turns=3)
    client = _client(organizer)
    with CaptureQueriesContext(connection) as few:
        assert client.get(f"/organize/matches/{small.pk}/undo/").status_code == 200
    for table in range(6):
        _casual(yardzee_event, turns=2, prefix=f"Table{table}")
    with CaptureQueriesContext(connection) as many:
        assert client.get(f"/organize/matches/{small.pk}/undo/").status_code == 200
    assert len(many) == len(few)


# A Yardkle turn with no point dice, called a Yardkle (whoever's turn it is: `turn_submit`).
NOTHING_THROWN = {"throws": [{"dice": [2, 3, 4, 6, 6, 2], "set_aside": []}], "end": "yardkle"}


def _hidden(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert found, f"no hidden {name}"
    return found.group(1)


@pytest.mark.parametrize("control", CONTROLS)
def test_a_match_control_page_has_one_h1_and_its_htmx_fragment_none(
    control: str, yardzee_event: Event, organizer: User
) -> None:
    """Each page has one <h1>; the fragment htmx loads into the match or scoring page (under
    its "Match control" heading) adds none to it."""
    match = _casual(yardzee_event, turns=1)
    client = _client(organizer)
    url = f"/organize/matches/{match.pk}/{control}"
    page = client.get(url).content.decode()
    fragment = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert page.count("<h1") == 1, url
    assert "<h1" not in fragment, url
    assert "match-control-step" in fragment, url


def test_a_correction_says_one_later_turn_and_totals_with_thousands(yardkle_event, organizer):
    """ "The 1 later turns are played again" and "total: 0 → 1000" read as the pages say:
    one later turn in the singular, points with a thousands separator as the scorecard."""
    match, players = _match_of_two(yardkle_event, "yardkle", "Kle")
    bank = {"throws": [{"dice": [1, 1, 1, 2, 3, 4], "set_aside": [1, 1, 1]}], "end": "bank"}
    for turn in (bank, NOTHING_THROWN, NOTHING_THROWN):
        game_services.turn_submit(match_id=match.pk, turn=turn)
    checked = (
        _client(organizer)
        .post(
            f"/organize/matches/{match.pk}/correct/?turn=2",
            {"dice_1": "1 1 1 2 3 4", "set_aside_1": "1 1 1", "end": "bank", "check": "1"},
        )
        .content.decode()
    )
    assert "The later turn is played again and scores the same." in checked
    assert "1 later turns" not in checked
    assert f"{players[1].display_name}&#x27;s total: 0 → 1,000." in checked


# --- Values the pages never send ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("control", "sent", "said"),
    [
        ("undo/", {"turn": "abc"}, "not a turn&#x27;s number"),
        ("undo/", {"turn": "3.0"}, "not a turn&#x27;s number"),
        ("undo/", {}, "not a turn&#x27;s number"),
        ("undo/", {"turn": "3", "reseed": "yes"}, "Re-seeding the later stages is asked"),
        ("correct/?turn=abc", {}, "not a turn&#x27;s number"),
        ("correct/?turn=2", {"reseed": "2"}, "Re-seeding the later stages is asked"),
        ("correct/?turn=2", {"checked": "2a"}, "What was checked is not said"),
        ("void/", {"checked": "abc"}, "What was checked is not said as the page says it"),
        ("walkover/", {"checked": "abc"}, "What was checked is not said"),
        ("unvoid/", {"reseed": "on"}, "Re-seeding the later stages is asked"),
    ],
)
def test_a_control_posted_a_value_its_page_never_sends_is_a_400_and_does_nothing(
    control: str, sent: dict[str, str], said: str, bracket: Stage, organizer: User
) -> None:
    """A turn that is not a whole number, a re-seed other than 1, a check that is no
    fingerprint: 400 with a sentence, nothing changed (not "the last turn is now ..., check
    again", as for a page out of date)."""
    match = _casual(bracket.event, turns=3) if control != "walkover/" else _final(bracket)
    if control == "unvoid/":
        game_services.match_void(match_id=match.pk, voided_by=organizer)
    client = _client(organizer)
    url = f"/organize/matches/{match.pk}/{control}"
    if control.startswith("correct/"):
        # A correction typed and checked as the page does: only the value above is not so.
        typed = {"dice_1": "6 6 6 6 5", "category": "chance"}
        page = client.post(f"/organize/matches/{match.pk}/correct/?turn=2", typed)
        sent = {**typed, "checked": _hidden(page.content.decode(), "checked"), **sent}
    before = _everything(match)
    answer = client.post(url, {**sent, "confirm": "1"})
    assert answer.status_code == 400
    assert said in answer.content.decode()
    assert "The last turn is now" not in answer.content.decode()
    assert _everything(match) == before
    assert not TurnUndo.objects.exists()
    assert not TurnCorrection.objects.exists()


def test_a_turn_asked_for_correction_that_is_not_played_is_shown_and_never_corrected(
    yardzee_event: Event, organizer: User
) -> None:
    """?turn=9 of a match of three turns: its last turn is shown, saying so; confirmed, the
    last turn is not corrected in its place."""
    match = _casual(yardzee_event, turns=3)
    client = _client(organizer)
    url = f"/organize/matches/{match.pk}/correct/?turn=9"
    assert client.get(f"/organize/matches/{match.pk}/correct/?turn=abc").status_code == 400
    shown = client.get(url)
    assert shown.status_code == 200
    assert "This match has no turn 9 (it has 3): here is turn 3" in shown.content.decode()
    typed = {"dice_1": "6 6 6 6 5", "category": "chance"}
    checked = client.post(f"/organize/matches/{match.pk}/correct/?turn=3", {**typed, "check": "1"})
    confirm = {**typed, "checked": _hidden(checked.content.decode(), "checked"), "confirm": "1"}
    answer = client.post(url, confirm)
    assert answer.status_code == 200
    assert "This match has no turn 9" in answer.content.decode()
    assert not TurnCorrection.objects.exists()
