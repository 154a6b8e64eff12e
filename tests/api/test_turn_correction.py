"""Issue 16, item 9 through the API: `POST matches/{id}/turns/{sequence}/correct/` corrects a
turn in the middle of a game (organizers only); the turns read back show it as corrected,
with who and when, and the version it replaced; a refusal answers a code and changes
nothing; a stage follows a changed winner, or the change is refused while a later match fed
by it has started."""

import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

import scoring
from games.models import Match, SubmissionReceipt, Turn, TurnCorrection
from league.models import StageMatch
from scoring import simulate
from tests.api.helpers import post_result, started_stage
from tests.conftest import client_for
from tests.games.test_turn_correction import CLOSE_YARDZEE, FEWER_FOURS

pytestmark = pytest.mark.django_db


def url(match_id: int, sequence: int | str) -> str:
    return f"/api/v1/matches/{match_id}/turns/{sequence}/correct/"


def with_players(match: dict[str, Any], turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`turns` of a two-seat match, each naming its player."""
    seats = [seat["player"]["id"] for seat in match["seats"]]
    return [{"player": seats[index % 2], **turn} for index, turn in enumerate(turns)]


def fours_of(match: dict[str, Any], sequence: int = 7) -> dict[str, Any]:
    """FEWER_FOURS as turn `sequence` of `match` (seat 0 plays the odd turns)."""
    return with_players(match, [{}] * 8)[sequence - 1] | FEWER_FOURS


def everything(match_id: int) -> Any:
    match = Match.objects.get(pk=match_id)
    return (
        match.state,
        match.status,
        match.turns_played,
        match.finished_at,
        list(match.seats.order_by("order").values_list("total", "placement")),
        list(match.turns.order_by("sequence").values_list("payload", "points", "bonus")),
        TurnCorrection.objects.filter(match=match).count(),
    )


@pytest.fixture
def played(seat_match, players, yardzee_event, as_organizer) -> dict[str, Any]:
    """The close Yardzee game at the event, every turn submitted: seat 0 wins 245 to 244."""
    match = seat_match("yardzee", players[:2], event=yardzee_event)
    response = as_organizer.post(
        f"/api/v1/matches/{match['id']}/result/",
        {"turns": with_players(match, CLOSE_YARDZEE)},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body: dict[str, Any] = response.json()
    return body


def test_an_organizer_corrects_a_middle_turn_and_the_answer_shows_it(
    played, as_organizer, organizer
):
    response = as_organizer.post(url(played["id"], 7), fours_of(played), format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["changed"], body["later_turns_replayed"]) == (True, 19)
    turn = body["turn"]
    assert (turn["sequence"], turn["points"], turn["corrected_by"]) == (7, 8, organizer.username)
    assert turn["payload"] == fours_of(played)
    assert turn["corrected_at"] is not None
    [old] = turn["corrections"]
    assert (old["payload"], old["points"], old["bonus"]) == (
        with_players(played, CLOSE_YARDZEE)[6],
        12,
        0,
    )
    assert (old["corrected_by"], old["corrected_at"]) == (organizer.username, turn["corrected_at"])
    assert old["submitted_at"] == played["turns"][6]["submitted_at"]
    # The upper bonus is gone and the lead changed: the match is finished with the new result.
    assert body["match"]["status"] == "finished"
    assert body["match"]["board"]["scorecards"][0]["upper_bonus"] == 0
    assert [(p["total"], p["placement"]) for p in body["match"]["placements"]] == [
        (206, 2),
        (244, 1),
    ]


def test_the_turns_read_back_show_the_corrected_turn_and_its_old_version(
    played, as_organizer, organizer
):
    as_organizer.post(url(played["id"], 7), fours_of(played), format="json")
    page = APIClient().get(f"/api/v1/matches/{played['id']}/turns/?limit=26").json()["results"]
    by_sequence = {turn["sequence"]: turn for turn in page}
    assert by_sequence[7]["corrected_by"] == organizer.username
    assert [old["points"] for old in by_sequence[7]["corrections"]] == [12]
    untouched = by_sequence[8]
    assert (untouched["corrected_by"], untouched["corrected_at"]) == (None, None)
    assert untouched["corrections"] == []
    detail = APIClient().get(f"/api/v1/matches/{played['id']}/").json()
    assert detail["turns"][6]["corrections"] == by_sequence[7]["corrections"]


def test_reading_turns_costs_one_query_more_for_corrections_however_many_there_are(
    played, as_organizer
):
    """One query for the replaced versions of every corrected turn on the page, none when
    no turn was corrected (so reading a match never corrected costs what it did)."""
    turns_url = f"/api/v1/matches/{played['id']}/turns/?limit=26"

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert APIClient().get(turns_url).status_code == 200
        return len(captured)

    none = queries()
    as_organizer.post(url(played["id"], 7), fours_of(played), format="json")
    one = queries()
    for sequence in (1, 3, 5):  # seat 0's aces, twos and threes: a six for the five
        turn = with_players(played, CLOSE_YARDZEE)[sequence - 1]
        dice = [6 if die == 5 else die for die in turn["rolls"][0]["dice"]]
        response = as_organizer.post(
            url(played["id"], sequence), turn | {"rolls": [{"dice": dice}]}, format="json"
        )
        assert response.status_code == 200, response.json()
    assert TurnCorrection.objects.count() == 4
    assert queries() == one == none + 1


def test_a_correction_a_later_turn_no_longer_fits_answers_409_naming_it(played, as_organizer):
    before = everything(played["id"])
    into_twos = with_players(played, CLOSE_YARDZEE)[0] | {"category": "twos"}
    response = as_organizer.post(url(played["id"], 1), into_twos, format="json")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "correction_breaks_later_turn"
    assert body["details"]["turn"] == 3
    assert body["details"]["corrected_turn"] == 1
    assert body["details"]["violation"]["code"] == "box_filled"
    assert "turn 3" in body["message"]
    assert everything(played["id"]) == before


@pytest.mark.parametrize(
    ("sequence", "body", "status", "code"),
    [
        (27, "fours", 404, "no_such_turn"),
        (0, "fours", 404, "no_such_turn"),
        (7, "other player", 422, "not_your_turn"),
        (7, "no player", 422, "missing_key"),
        (7, "not a turn", 422, "wrong_type"),
        (7, "box used", 422, "box_filled"),
        (7, "other turn number", 409, "turn_number_mismatch"),
        # Not a number at all is the body's type, as for a submission, not a mismatch.
        (7, "turn number as text", 422, "wrong_type"),
        (7, "turn number true", 422, "wrong_type"),
        (7, "turn number 7.0", 422, "wrong_type"),
        ("1234567890", "fours", 404, "not_found"),
    ],
)
def test_bad_corrections_are_refused_with_a_code_and_change_nothing(
    played, as_organizer, sequence, body, status, code
):
    bodies = {
        "fours": fours_of(played),
        "other player": fours_of(played) | {"player": played["seats"][1]["player"]["id"]},
        "no player": FEWER_FOURS,
        "not a turn": [fours_of(played)],
        "box used": fours_of(played) | {"category": "aces"},
        "other turn number": fours_of(played) | {"turn_number": 8},
        "turn number as text": fours_of(played) | {"turn_number": "7"},
        "turn number true": fours_of(played) | {"turn_number": True},
        "turn number 7.0": fours_of(played) | {"turn_number": 7.0},
    }
    before = everything(played["id"])
    response = as_organizer.post(url(played["id"], sequence), bodies[body], format="json")
    assert response.status_code == status, response.json()
    assert response.json()["code"] == code
    assert response.json()["message"]
    assert everything(played["id"]) == before


def test_a_match_that_does_not_exist_is_404(as_organizer):
    response = as_organizer.post(url(999999, 1), FEWER_FOURS, format="json")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("anonymous", 401),
        ("right_key", 403),
        ("player_account", 403),
        ("other_organizer", 403),
        ("staff", 200),
    ],
)
def test_only_organizers_may_correct_a_turn(played, request, role, status):
    if role == "anonymous":
        client = APIClient()
    elif role == "right_key":
        client = APIClient()
        client.credentials(HTTP_X_SCORE_KEY=played["score_key"])
    else:
        client = client_for(request.getfixturevalue(role))
    before = everything(played["id"])
    response = client.post(url(played["id"], 7), fours_of(played), format="json")
    assert response.status_code == status, response.json()
    if status != 200:
        assert everything(played["id"]) == before


def test_a_void_match_is_not_corrected(played, as_organizer):
    assert as_organizer.post(f"/api/v1/matches/{played['id']}/void/").status_code == 200
    before = everything(played["id"])
    response = as_organizer.post(url(played["id"], 7), fours_of(played), format="json")
    assert (response.status_code, response.json()["code"]) == (409, "match_closed")
    assert everything(played["id"]) == before


def test_sending_the_same_correction_again_changes_nothing(played, as_organizer):
    first = as_organizer.post(url(played["id"], 7), fours_of(played), format="json").json()
    before = everything(played["id"])
    again = as_organizer.post(url(played["id"], 7), fours_of(played), format="json")
    assert again.status_code == 200
    assert again.json()["changed"] is False
    assert again.json()["turn"] == first["turn"]
    assert everything(played["id"]) == before


def test_a_retry_of_a_turn_the_correction_changed_answers_turn_undone(
    seat_match, players, as_organizer
):
    match = seat_match("yardzee", players[:2])
    turns = with_players(match, CLOSE_YARDZEE[:8])
    key = {"HTTP_X_SCORE_KEY": match["score_key"]}
    client = APIClient()
    for number, turn in enumerate(turns, start=1):
        response = client.post(
            f"/api/v1/matches/{match['id']}/turns/",
            turn,
            format="json",
            HTTP_IDEMPOTENCY_KEY=f"turn-{number}",
            **key,
        )
        assert response.status_code == 201, response.json()
    assert as_organizer.post(url(match["id"], 7), fours_of(match), format="json").status_code == 200
    retry = client.post(
        f"/api/v1/matches/{match['id']}/turns/",
        turns[7],
        format="json",
        HTTP_IDEMPOTENCY_KEY="turn-8",
        **key,
    )
    assert (retry.status_code, retry.json()["code"]) == (409, "turn_undone")
    assert "corrected" in retry.json()["message"]
    earlier = client.post(
        f"/api/v1/matches/{match['id']}/turns/",
        turns[5],
        format="json",
        HTTP_IDEMPOTENCY_KEY="turn-6",
        **key,
    )
    assert earlier.status_code == 201  # turn 6 stands: its first answer again
    assert SubmissionReceipt.objects.filter(undone_at__isnull=False).count() == 2


def test_a_yardkle_turn_is_corrected_through_the_api(seat_match, players, as_organizer):
    match = seat_match("yardkle", players[:2], target=3000)
    turns = simulate.play_game(scoring.new_game("yardkle", 2, {"target": 3000}), seed=1)
    as_organizer.post(
        f"/api/v1/matches/{match['id']}/result/",
        {"turns": with_players(match, turns)},
        format="json",
    )
    banked = with_players(match, turns)[3] | {
        "throws": turns[3]["throws"][:2],
        "end": "bank",
        "points": 200,
    }
    response = as_organizer.post(url(match["id"], 4), banked, format="json")
    assert response.status_code == 200, response.json()
    assert (response.json()["turn"]["points"], response.json()["later_turns_replayed"]) == (200, 5)
    assert response.json()["turn"]["corrections"][0]["payload"]["end"] == "yardkle"
    assert [p["total"] for p in response.json()["match"]["placements"]] == [1400, 3600]


def test_the_correction_is_in_the_openapi_schema(client):
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    operation = schema["paths"]["/api/v1/matches/{id}/turns/{sequence}/correct/"]["post"]
    assert set(operation["responses"]) >= {"200", "404", "409", "422"}


# --- A stage match: the bracket follows a changed winner, or the change is refused -------------


@pytest.fixture
def cup(as_organizer, yardzee_event, players) -> dict[str, Any]:
    """A single-elimination cup of four at the event; the first semi is the close game (its
    seat 0, seed 1, wins by a point), the other is played by the simulator, so the final is
    seated."""
    yardzee_event.league.players.add(*players)
    stage = started_stage(
        as_organizer, yardzee_event.pk, [p.pk for p in players[:4]], format="single_elimination"
    )
    close, other = (
        as_organizer.get(f"/api/v1/matches/{slot['play']['match']['id']}/").json()
        for slot in stage["draw"]["bracket"]["slots"]
        if slot["play"]
    )
    post_result(as_organizer, close["id"], with_players(close, CLOSE_YARDZEE))
    other_turns = simulate.play_game(scoring.new_game("yardzee", 2, {}), seed=1)
    post_result(as_organizer, other["id"], with_players(other, other_turns))
    return {"stage": stage["id"], "close": close}


def _final(cup: dict[str, Any]) -> Match:
    final = StageMatch.objects.get(stage_id=cup["stage"], round=2).match
    assert final is not None
    return final


def test_a_correction_that_changes_the_winner_of_a_semi_reseats_the_final(cup, as_organizer):
    close = cup["close"]
    winner, loser = (seat["player"]["id"] for seat in close["seats"])
    assert winner in _final(cup).seats.values_list("player_id", flat=True)
    response = as_organizer.post(url(close["id"], 7), fours_of(close), format="json")
    assert response.status_code == 200, response.json()
    final_players = set(_final(cup).seats.values_list("player_id", flat=True))
    assert loser in final_players
    assert winner not in final_players
    stage = as_organizer.get(f"/api/v1/stages/{cup['stage']}/").json()
    semi = next(
        s
        for s in stage["draw"]["bracket"]["slots"]
        if s["play"] and s["play"]["match"]["id"] == close["id"]
    )
    assert semi["play"]["order"] == [loser, winner]


def test_a_correction_that_changes_a_result_is_refused_once_the_final_has_started(
    cup, as_organizer
):
    final = _final(cup)
    local = scoring.new_game("yardzee", 2, final.rules)
    first = {
        "player": final.seats.get(order=0).player_id,
        **simulate.next_turn(local, random.Random(2)),
    }
    started = as_organizer.post(f"/api/v1/matches/{final.pk}/turns/", first, format="json")
    assert started.status_code == 201, started.json()
    close = cup["close"]
    before = everything(close["id"])
    response = as_organizer.post(url(close["id"], 7), fours_of(close), format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "undo_blocked"
    assert response.json()["details"]["blocking_matches"] == [final.pk]
    assert everything(close["id"]) == before
    assert Turn.objects.filter(match_id=close["id"], corrected_at__isnull=False).count() == 0
