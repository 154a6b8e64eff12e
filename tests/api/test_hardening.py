"""Issue 14 (hardening): each defect the outside probe found, as a test named for its item,
and the same class of defect looked for across the API."""

import csv
import io
import json
import threading
import time
from typing import Any
from urllib.parse import urlencode

import pytest
from django.db import connection, transaction
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient
from rest_framework.views import APIView

from api.parsers import SafeJSONParser
from games.models import Match, SubmissionReceipt, Turn
from league.models import Event, EventStatus, Stage

pytestmark = pytest.mark.django_db


@pytest.fixture
def zee(players, seat_match, yardzee_event):
    return seat_match("yardzee", players[:2], event=yardzee_event)


@pytest.fixture
def kle(players, seat_match, yardkle_event):
    return seat_match("yardkle", players[:2], event=yardkle_event)


def _first_turn(match: dict[str, Any]) -> dict[str, Any]:
    return {
        "player": match["board"]["current_player"],
        "rolls": [{"dice": [1, 2, 3, 4, 6]}],
        "category": "chance",
    }


def _raw(client: APIClient, path: str, body: str, **headers: Any) -> Any:
    return client.generic("POST", path, body, content_type="application/json", **headers)


# --- Item 1: a scoring key with any characters ---------------------------------------------------


@pytest.mark.parametrize(
    "how",
    [
        {"HTTP_X_SCORE_KEY": "é".encode().decode("latin-1")},  # as a header arrives in WSGI
        {"HTTP_X_SCORE_KEY": "k" * 500},
        {"QUERY_STRING": "key=%C3%A9"},
        {"QUERY_STRING": "key=%00"},
        {"QUERY_STRING": "key=%ED%A0%80"},
    ],
)
@pytest.mark.parametrize("endpoint", ["turns", "result"])
def test_item_1_a_non_ascii_scoring_key_is_403_not_a_500(zee, how, endpoint):
    path = f"/api/v1/matches/{zee['id']}/{endpoint}/"
    response = APIClient().post(path, _first_turn(zee), format="json", **how)
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"
    assert not Turn.objects.exists()


# --- Item 2: lone surrogates and other text nothing can hold ------------------------------------


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("preview", {"throws": [{"dice": [1, 2, 3, 4, 5, 6], "set_aside": [1], "\ud800": 1}]}),
        ("turns", {"player": 1, "\ud800": 1}),
        ("turns", {"player": 1, "throws": [], "end": "\ud800"}),
        ("result", {"turns": [{"\ud800": 1}]}),
    ],
)
def test_item_2_a_lone_surrogate_in_a_turn_is_400_invalid_text(kle, as_organizer, path, body):
    client = APIClient() if path == "preview" else as_organizer
    response = _raw(client, f"/api/v1/matches/{kle['id']}/{path}/", json.dumps(body))
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_text"
    assert not Turn.objects.exists()


@pytest.mark.parametrize("text", ["\ud800", "a\x00b"])
@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/v1/leagues/", {"name": "x", "game": "@"}),
        ("/api/v1/leagues/", {"name": "x", "game": "yardzee", "rules": {"@": 1}}),
        ("/api/v1/leagues/", {"name": "x", "game": "yardzee", "points": {"@": 1}}),
        ("/api/v1/leagues/", {"name": "@", "game": "yardzee"}),
        ("/api/v1/events/", {"league": "@", "name": "x", "date": "2026-01-01"}),
        (
            "/api/v1/events/",
            {"league": "yardzee", "name": "x", "date": "2026-01-01", "status": "@"},
        ),
        ("/api/v1/events/", {"league": "yardzee", "status": "@"}),
        ("/api/v1/matches/", {"game": "@", "players": [1, 2]}),
        ("/api/v1/players/", {"display_name": "@", "handle": "h"}),
        ("/api/v1/auth/token/", {"username": "@", "password": "@"}),
    ],
)
def test_item_2_text_no_database_can_hold_is_refused_everywhere_it_is_parsed(
    as_organizer, yardzee_league, path, body, text
):
    raw = json.dumps(body).replace('"@"', json.dumps(text))
    response = _raw(as_organizer, path, raw)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid_text"


@pytest.mark.parametrize("form", ["multipart", "urlencoded"])
def test_item_2_a_form_body_with_a_nul_is_refused_as_json_is(as_organizer, yardzee_league, form):
    """The schema fuzz found it: a form-encoded body reached PostgreSQL with a NUL (a 500)."""
    body = {"league": "yardzee", "name": "x", "date": "2026-01-01", "venue": "the\x00park"}
    if form == "multipart":
        response = as_organizer.post("/api/v1/events/", body, format="multipart")
    else:
        response = as_organizer.post(
            "/api/v1/events/", urlencode(body), content_type="application/x-www-form-urlencoded"
        )
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid_text"
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    ("path", "raw", "key"),
    [
        (
            "turns",
            '{"player": 1, "rolls": [{"dice": [1,2,3,4,6]}], "category": "chance", '
            '"category": "aces"}',
            "category",
        ),
        (
            "turns",
            '{"player": 1, "rolls": [{"dice": [1,2,3,4,6], "dice": [6,6,6,6,6]}], '
            '"category": "chance"}',
            "dice",
        ),
        (
            "preview",
            '{"rolls": [{"dice": [1,2,3,4,6]}], "category": "chance", "category": "x"}',
            "category",
        ),
        ("result", '{"turns": [], "turns": []}', "turns"),
    ],
)
def test_a_json_object_naming_a_key_twice_is_400_duplicate_key_and_changes_nothing(
    zee, as_organizer, path, raw, key
):
    """Python's decoder keeps the last of two values: a turn naming two boxes would be scored
    as one of them, silently. Every JSON body is parsed by SafeJSONParser, which refuses it."""
    client = APIClient() if path == "preview" else as_organizer
    response = _raw(client, f"/api/v1/matches/{zee['id']}/{path}/", raw)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "duplicate_key"
    assert repr(key) in response.json()["message"]
    assert not Turn.objects.exists()


def test_the_same_key_in_two_objects_is_not_a_duplicate(zee, as_organizer):
    turn = {
        **_first_turn(zee),
        "rolls": [{"dice": [6, 6, 1, 2, 3]}, {"keep": [6, 6], "dice": [6, 6, 6, 1, 1]}],
    }
    response = _raw(as_organizer, f"/api/v1/matches/{zee['id']}/turns/", json.dumps(turn))
    assert response.status_code == 201, response.content


@pytest.mark.parametrize("number", ["1e400", "-1e400", "NaN", "Infinity"])
def test_item_2_numbers_that_are_not_finite_are_refused(as_organizer, number):
    raw = '{"name": "x", "game": "yardzee", "points": {"win": NUMBER}}'.replace("NUMBER", number)
    response = _raw(as_organizer, "/api/v1/leagues/", raw)
    assert response.status_code == 400
    assert response.json()["code"] in {"invalid_text", "malformed_json"}


@pytest.mark.parametrize(
    "points", [{"win": 10**30}, {"win": 1e300, "draw": 0}, {"placement": {"3": [10**20, 0, 0]}}]
)
def test_league_points_too_large_for_the_exact_sums_are_refused(
    as_organizer, yardzee_league, points
):
    """A scheme of 10**30 for a win was taken, and every table of the league then failed to
    compute (an int64 overflow in Buchholz): the jobs failed, an import answered 500."""
    url = f"/api/v1/leagues/{yardzee_league.slug}/"
    response = as_organizer.patch(url, {"points": points}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "league_points"
    yardzee_league.refresh_from_db()
    assert yardzee_league.points == {}


@pytest.mark.django_db
@pytest.mark.parametrize("size", ["03", " 3", "+3"])
def test_a_placement_table_size_not_written_as_its_number_is_refused(
    as_organizer, yardzee_league, size
):
    """`{"placement": {"03": [...]}}` was read as a table of 3 and stored as written, so
    `{"3": [3, 2, 1], "03": [5, 1, 0]}` kept one of two schemes for tables of 3 without a word."""
    url = f"/api/v1/leagues/{yardzee_league.slug}/"
    points = {"placement": {"3": [3, 2, 1], size: [5, 1, 0]}}
    response = as_organizer.patch(url, {"points": points}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "league_points"
    assert repr(size) in response.json()["message"]
    yardzee_league.refresh_from_db()
    assert yardzee_league.points == {}


# --- Item 3: every view uses the project's parsers ------------------------------------------------


def test_item_3_deep_json_to_the_token_view_is_400_not_a_500():
    response = _raw(APIClient(), "/api/v1/auth/token/", "[" * 10_000 + "]" * 10_000)
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"


def _views(patterns: list[Any]) -> list[type[APIView]]:
    found = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            found += _views(pattern.url_patterns)
        elif isinstance(pattern, URLPattern):
            view = getattr(pattern.callback, "cls", None)
            if isinstance(view, type) and issubclass(view, APIView):
                found.append(view)
    return found


def test_item_3_every_api_view_parses_json_with_the_safe_parser():
    views = _views(get_resolver().url_patterns)
    assert len(views) > 5
    for view in views:
        json_parsers = [p for p in view.parser_classes if "json" in p.media_type]
        assert all(issubclass(p, SafeJSONParser) for p in json_parsers), view


# --- Item 4: Idempotency-Key length -------------------------------------------------------------


def test_item_4_an_idempotency_key_over_200_characters_is_400_with_the_limit(zee, as_organizer):
    def first_turn_with_key(length: int) -> Any:
        return as_organizer.post(
            f"/api/v1/matches/{zee['id']}/turns/",
            _first_turn(zee),
            format="json",
            HTTP_IDEMPOTENCY_KEY="k" * length,
        )

    response = first_turn_with_key(201)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "idempotency_key_too_long"
    assert body["details"] == {"limit": 200, "length": 201}
    assert not Turn.objects.exists()
    assert first_turn_with_key(200).status_code == 201


@pytest.mark.parametrize("endpoint", ["turns", "result"])
def test_item_4_an_idempotency_key_holding_nul_is_400_invalid_text(zee, as_organizer, endpoint):
    """PostgreSQL text cannot hold the NUL character: a valid turn sent with such a key
    failed storing its receipt, a 500. It is refused like any text of the request holding
    it (400 `invalid_text`), and nothing is stored."""
    body = _first_turn(zee) if endpoint == "turns" else {"turns": [_first_turn(zee)]}
    response = as_organizer.post(
        f"/api/v1/matches/{zee['id']}/{endpoint}/",
        body,
        format="json",
        HTTP_IDEMPOTENCY_KEY="a\x00b",
    )
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid_text"
    assert response.json()["details"] == {"field": "Idempotency-Key"}
    assert not Turn.objects.exists()


# --- Item 5: integers are bounded before the database sees them --------------------------------


@pytest.mark.parametrize(
    "field", ["source_top", "table_size", "advance", "rounds", "groups", "source_stage"]
)
@pytest.mark.parametrize("value", [32_768, 2**31, 2**63, 10**30])
def test_item_5_a_stage_option_too_large_for_its_column_is_400(
    as_organizer, yardzee_event, players, field, value
):
    response = as_organizer.post(
        f"/api/v1/events/{yardzee_event.pk}/stages/",
        {
            "name": "Groups",
            "format": "round_robin",
            "participants": [p.pk for p in players[:4]],
            field: value,
        },
        format="json",
    )
    assert response.status_code == 400, response.json()
    assert not Stage.objects.exists()


# --- Item 14: a finished or cancelled event takes nothing more -----------------------------------


@pytest.mark.parametrize("status", [EventStatus.FINISHED, EventStatus.CANCELLED])
def test_item_14_a_closed_event_refuses_turns_results_and_new_matches(
    zee, as_organizer, yardzee_event, players, status
):
    yardzee_event.status = status
    yardzee_event.save()
    turn = as_organizer.post(f"/api/v1/matches/{zee['id']}/turns/", _first_turn(zee), format="json")
    result = as_organizer.post(
        f"/api/v1/matches/{zee['id']}/result/", {"turns": [_first_turn(zee)]}, format="json"
    )
    seated = as_organizer.post(
        "/api/v1/matches/",
        {"event": yardzee_event.pk, "game": "yardzee", "players": [p.pk for p in players[:2]]},
        format="json",
    )
    stage = as_organizer.post(
        f"/api/v1/events/{yardzee_event.pk}/stages/",
        {"name": "Late", "format": "round_robin", "participants": [p.pk for p in players[:4]]},
        format="json",
    )
    for response in (turn, result, seated, stage):
        assert response.status_code == 409, response.json()
        assert response.json()["code"] == "event_closed"
        assert response.json()["details"]["status"] == status
    assert not Turn.objects.exists()
    assert Match.objects.count() == 1


def test_item_14_a_stage_of_a_closed_event_cannot_start(as_organizer, yardzee_event, players):
    yardzee_event.league.players.add(*players)
    created = as_organizer.post(
        f"/api/v1/events/{yardzee_event.pk}/stages/",
        {"name": "Groups", "format": "round_robin", "participants": [p.pk for p in players[:4]]},
        format="json",
    ).json()
    yardzee_event.status = EventStatus.FINISHED
    yardzee_event.save()
    response = as_organizer.post(f"/api/v1/stages/{created['id']}/start/")
    assert response.status_code == 409
    assert response.json()["code"] == "event_closed"
    assert not Match.objects.exists()


# --- Item 15: a retry of an undone turn ---------------------------------------------------------


def test_item_15_a_retry_of_an_undone_turn_is_409_turn_undone(zee, as_organizer):
    path = f"/api/v1/matches/{zee['id']}/turns/"
    first = as_organizer.post(path, _first_turn(zee), format="json", HTTP_IDEMPOTENCY_KEY="t1")
    assert first.status_code == 201
    assert as_organizer.post(f"/api/v1/matches/{zee['id']}/undo/").status_code == 200
    retry = as_organizer.post(path, _first_turn(zee), format="json", HTTP_IDEMPOTENCY_KEY="t1")
    assert retry.status_code == 409
    assert retry.json()["code"] == "turn_undone"
    assert retry.json()["details"] == {"turn_sequence": 1}
    assert not Turn.objects.exists()
    # A new key sends the turn again, as new.
    again = as_organizer.post(path, _first_turn(zee), format="json", HTTP_IDEMPOTENCY_KEY="t2")
    assert again.status_code == 201


def test_item_15_undoing_a_later_turn_leaves_earlier_receipts_standing(zee, as_organizer):
    path = f"/api/v1/matches/{zee['id']}/turns/"
    first = as_organizer.post(path, _first_turn(zee), format="json", HTTP_IDEMPOTENCY_KEY="t1")
    second_turn = {**_first_turn(zee), "player": zee["seats"][1]["player"]["id"]}
    as_organizer.post(path, second_turn, format="json", HTTP_IDEMPOTENCY_KEY="t2")
    as_organizer.post(f"/api/v1/matches/{zee['id']}/undo/")
    retry = as_organizer.post(path, _first_turn(zee), format="json", HTTP_IDEMPOTENCY_KEY="t1")
    assert retry.status_code == 201
    assert retry.json() == first.json()
    assert SubmissionReceipt.objects.get(key="t2").undone_at is not None


# --- Item 10: a wrong key never locks the match, and wrong keys are limited per address -----------


@pytest.mark.django_db(transaction=True)
def test_item_10_a_wrong_key_is_refused_without_waiting_for_the_matchs_lock(
    players, yardzee_league
):
    """A scorekeeper's transaction holds the match's row lock (in another thread); a request
    with a wrong key answers 403 at once instead of queueing behind it."""
    match = Match.objects.create(game="yardzee", rules={}, state={})
    locked, release = threading.Event(), threading.Event()

    def hold_the_lock() -> None:
        with transaction.atomic():
            Match.objects.select_for_update().get(pk=match.pk)
            locked.set()
            release.wait(10)
        connection.close()

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    try:
        assert locked.wait(10)
        started = time.monotonic()
        response = APIClient().post(
            f"/api/v1/matches/{match.pk}/turns/",
            {"player": players[0].pk},
            format="json",
            HTTP_X_SCORE_KEY="a-fresh-random-key",
        )
        waited = time.monotonic() - started
    finally:
        release.set()
        holder.join(10)
    assert response.status_code == 403
    assert waited < 2, f"waited {waited:.1f} s for the lock"


def test_item_10_wrong_keys_are_limited_per_client_address(zee, settings):
    settings.SCORE_KEY_FAILURES = 3
    path = f"/api/v1/matches/{zee['id']}/turns/"

    def post(key: str) -> int:
        return (
            APIClient()
            .post(path, _first_turn(zee), format="json", HTTP_X_SCORE_KEY=key)
            .status_code
        )

    assert [post(f"random-{i}") for i in range(4)] == [403, 403, 403, 429]
    assert post(zee["score_key"]) == 429  # the address waits out its minute
    other = APIClient().post(
        path,
        _first_turn(zee),
        format="json",
        HTTP_X_SCORE_KEY=zee["score_key"],
        REMOTE_ADDR="10.9.8.7",
    )
    assert other.status_code == 201  # another address is not held up


# --- Item 7: one turn is capped, and a match's turns are read a page at a time -------------------


def _hot_dice_turn(player: int, throws: int) -> dict[str, Any]:
    hot = {"dice": [1, 1, 1, 1, 1, 1], "set_aside": [1, 1, 1, 1, 1, 1]}
    last = {"dice": [1, 2, 3, 4, 6, 6], "set_aside": [1]}
    return {"player": player, "throws": [hot] * (throws - 1) + [last], "end": "bank"}


def test_item_7_a_yardkle_turn_of_more_than_100_throws_is_422(kle, as_organizer):
    player = kle["board"]["current_player"]
    response = as_organizer.post(
        f"/api/v1/matches/{kle['id']}/turns/", _hot_dice_turn(player, 101), format="json"
    )
    assert response.status_code == 422
    assert response.json()["code"] == "too_many_throws"
    assert response.json()["details"]["limit"] == 100
    assert not Turn.objects.exists()


def _play_yardkles(match: dict[str, Any], turns: int) -> None:
    """`turns` Yardkle turns (a single throw with no point dice), stored directly."""
    from games import services as game_services

    seats = [seat["player"]["id"] for seat in match["seats"]]
    for number in range(turns):
        game_services.turn_submit(
            match_id=match["id"],
            turn={
                "player": seats[number % len(seats)],
                "throws": [{"dice": [2, 2, 3, 3, 4, 6], "set_aside": []}],
                "end": "yardkle",
            },
        )


def test_item_7_a_matchs_answer_carries_its_latest_100_turns_and_the_rest_are_paged(kle):
    _play_yardkles(kle, 130)
    detail = APIClient().get(f"/api/v1/matches/{kle['id']}/").json()
    assert detail["turns_played"] == 130
    assert [t["sequence"] for t in detail["turns"]] == list(range(31, 131))
    first = APIClient().get(f"/api/v1/matches/{kle['id']}/turns/").json()
    assert first["count"] == 130
    assert [t["sequence"] for t in first["results"]] == list(range(130, 80, -1))
    last = APIClient().get(f"/api/v1/matches/{kle['id']}/turns/?limit=50&offset=100").json()
    assert [t["sequence"] for t in last["results"]] == list(range(30, 0, -1))
    assert last["next"] is None


def test_item_7_the_match_page_lists_50_turns_a_page(kle, client):
    _play_yardkles(kle, 120)
    first = client.get(f"/matches/{kle['id']}/").content.decode()
    assert first.count('id="turn-') == 50
    assert 'id="turn-120"' in first
    assert 'id="turn-70"' not in first
    assert "?turns=2" in first
    third = client.get(f"/matches/{kle['id']}/?turns=3").content.decode()
    assert third.count('id="turn-') == 20
    assert 'id="turn-1"' in third
    assert client.get(f"/matches/{kle['id']}/?turns=4").status_code == 404
    live = client.get(f"/matches/{kle['id']}/live/?turns=2").content.decode()
    assert 'id="turn-70"' in live


# --- Item 13: CSV exports ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ['=HYPERLINK("http://x","y")', "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rCR"]
)
def test_item_13_csv_cells_a_spreadsheet_would_run_as_formulas_are_neutralised(name):
    from rest_framework.response import Response

    from api.renderers import CSVRenderer

    table = {
        "scope": "event",
        "scope_id": 3,
        "tiebreak": ["points"],
        "rows": [
            {"rank": 1, "player": 7, "name": name, "points": -1.5, "metrics": {"points": -1.5}}
        ],
    }
    response = Response()
    text = CSVRenderer().render(table, renderer_context={"response": response}).decode()
    header, row = list(csv.reader(io.StringIO(text, newline="")))
    assert dict(zip(header, row, strict=True)) == {
        "rank": "1",
        "player": "7",
        "name": "'" + name,
        "points": "-1.5",  # numbers stay numbers
        "metric:points": "-1.5",
    }
    assert response["Content-Disposition"] == 'attachment; filename="event-3-standings.csv"'


def test_item_13_csv_exports_download_with_a_file_name(yardzee_event, yardzee_league):
    standings = APIClient().get(f"/api/v1/events/{yardzee_event.pk}/standings/?format=csv")
    assert standings["Content-Disposition"] == (
        f'attachment; filename="event-{yardzee_event.pk}-standings.csv"'
    )
    ratings = APIClient().get(f"/api/v1/leagues/{yardzee_league.slug}/ratings/?format=csv")
    assert ratings["Content-Disposition"] == 'attachment; filename="yardzee-ratings.csv"'


# --- Item 11: whose data is whose ----------------------------------------------------------------


def test_item_11_only_organizers_of_a_league_a_player_plays_in_may_rename_them(
    players, yardzee_league, other_organizer, player_account, staff
):
    from tests.conftest import client_for

    yardzee_league.players.add(players[0])
    path = f"/api/v1/players/{players[0].pk}/"
    for user in (other_organizer, player_account):
        refused = client_for(user).patch(path, {"display_name": "Hijacked"}, format="json")
        assert refused.status_code == 403
        assert refused.json()["code"] == "permission_denied"
    players[0].refresh_from_db()
    assert players[0].display_name == "Player 1"
    # A player of no league: only staff.
    assert (
        client_for(other_organizer)
        .patch(f"/api/v1/players/{players[5].pk}/", {"display_name": "X"}, format="json")
        .status_code
        == 403
    )
    assert (
        client_for(staff).patch(path, {"display_name": "Renamed"}, format="json").status_code == 200
    )


def test_item_11_a_new_player_joins_a_league_its_creator_organizes(
    as_organizer, yardzee_league, other_organizer
):
    from tests.conftest import client_for

    made = as_organizer.post(
        "/api/v1/players/",
        {"display_name": "Ana", "handle": "ana", "league": yardzee_league.slug},
        format="json",
    )
    assert made.status_code == 201, made.json()
    assert yardzee_league.players.filter(handle="ana").exists()
    no_league = as_organizer.post(
        "/api/v1/players/", {"display_name": "Bo", "handle": "bo"}, format="json"
    )
    assert no_league.status_code == 400
    assert no_league.json()["code"] == "league_required"
    elsewhere = client_for(other_organizer).post(
        "/api/v1/players/",
        {"display_name": "Cy", "handle": "cy", "league": yardzee_league.slug},
        format="json",
    )
    assert elsewhere.status_code == 403


def test_item_11_a_casual_match_belongs_to_a_league_and_seats_only_its_players(
    players, yardzee_league, other_organizer, player_account, as_organizer
):
    from tests.conftest import client_for

    yardzee_league.players.add(players[0], players[1])
    body = {"game": "yardzee", "players": [players[0].pk, players[1].pk]}
    no_league = as_organizer.post("/api/v1/matches/", body, format="json")
    assert no_league.status_code == 400
    assert no_league.json()["code"] == "league_required"
    for user in (other_organizer, player_account):
        refused = client_for(user).post(
            "/api/v1/matches/", {**body, "league": yardzee_league.slug}, format="json"
        )
        assert refused.status_code == 403
    stranger = as_organizer.post(
        "/api/v1/matches/",
        {**body, "league": yardzee_league.slug, "players": [players[0].pk, players[2].pk]},
        format="json",
    )
    assert stranger.status_code == 400
    assert stranger.json()["code"] == "player_not_in_league"
    assert stranger.json()["details"]["players"] == [players[2].pk]
    seated = as_organizer.post(
        "/api/v1/matches/", {**body, "league": yardzee_league.slug}, format="json"
    )
    assert seated.status_code == 201
    assert Match.objects.get(pk=seated.json()["id"]).league == yardzee_league
    assert not Match.objects.filter(league__isnull=True).exists()
    # The match shows the league it was seated in, as it shows its event (it named neither).
    assert (seated.json()["event"], seated.json()["league"]) == (None, yardzee_league.slug)
    shown = as_organizer.get(f"/api/v1/matches/{seated.json()['id']}/").json()
    assert shown["league"] == yardzee_league.slug
    listed = as_organizer.get("/api/v1/matches/").json()["results"]
    assert [m["league"] for m in listed] == [yardzee_league.slug]


def test_item_11_a_player_joins_another_roster_only_through_who_may_change_them(
    players, yardzee_league, yardkle_league, other_organizer, as_organizer
):
    from league.models import League
    from tests.conftest import client_for

    yardzee_league.players.add(players[0])
    elsewhere = League.objects.get(slug="elsewhere")
    grabbed = client_for(other_organizer).post(
        "/api/v1/leagues/elsewhere/players/", {"player": players[0].pk}, format="json"
    )
    assert grabbed.status_code == 403
    assert not elsewhere.players.exists()
    added = as_organizer.post(
        f"/api/v1/leagues/{yardkle_league.slug}/players/", {"player": players[0].pk}, format="json"
    )
    assert added.status_code == 200
    roster = APIClient().get(f"/api/v1/leagues/{yardkle_league.slug}/players/").json()
    assert [p["id"] for p in roster["results"]] == [players[0].pk]


# --- Item 12: names -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "Ana\u202e",  # right-to-left override
        "An\u200ba",  # zero-width space
        "\u2066Ana\u2069",  # isolates
        "Ana\u00ad",  # soft hyphen
        "Ana\ufeff",  # byte order mark
        "Ana\u2028B",  # line separator
        "Ana\x07",  # a control character
        "   ",
    ],
)
def test_item_12_names_with_invisible_or_control_characters_are_refused(
    as_organizer, yardzee_league, name
):
    response = as_organizer.post(
        "/api/v1/players/",
        {"display_name": name, "handle": "h", "league": yardzee_league.slug},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] in {"invalid_name", "invalid"}
    for path, body in (
        ("/api/v1/leagues/", {"name": name, "game": "yardzee", "slug": "named"}),
        ("/api/v1/events/", {"league": yardzee_league.slug, "name": name, "date": "2026-09-01"}),
    ):
        refused = as_organizer.post(path, body, format="json")
        assert refused.status_code == 400, (path, refused.json())


def test_item_12_names_are_stored_in_nfc_with_plain_spaces(as_organizer, yardzee_league):
    response = as_organizer.post(
        "/api/v1/players/",
        {"display_name": " Jose\u0301\u00a0 Luis ", "handle": "jl", "league": yardzee_league.slug},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["display_name"] == "Jos\u00e9 Luis"


@pytest.mark.parametrize("lookalike", ["ANA", "ana", "\uff21na", "  ana "])
def test_item_12_a_name_that_looks_like_another_in_the_same_league_is_refused(
    as_organizer, yardzee_league, yardkle_league, lookalike
):
    def add(name: str, handle: str, league: str) -> Any:
        return as_organizer.post(
            "/api/v1/players/",
            {"display_name": name, "handle": handle, "league": league},
            format="json",
        )

    assert add("Ana", "ana-1", yardzee_league.slug).status_code == 201
    clash = add(lookalike, "ana-2", yardzee_league.slug)
    assert clash.status_code == 400
    assert clash.json()["code"] == "name_taken"
    assert add(lookalike, "ana-3", yardkle_league.slug).status_code == 201  # another league
    other = add("Bea", "bea", yardzee_league.slug).json()
    renamed = as_organizer.patch(
        f"/api/v1/players/{other['id']}/", {"display_name": lookalike}, format="json"
    )
    assert renamed.status_code == 400
    assert renamed.json()["code"] == "name_taken"


@pytest.mark.parametrize("action", ["undo", "void"])
def test_item_14_a_closed_events_matches_cannot_be_undone_or_voided(
    zee, as_organizer, yardzee_event, action
):
    path = f"/api/v1/matches/{zee['id']}/turns/"
    assert as_organizer.post(path, _first_turn(zee), format="json").status_code == 201
    yardzee_event.status = EventStatus.FINISHED
    yardzee_event.save()
    response = as_organizer.post(f"/api/v1/matches/{zee['id']}/{action}/")
    assert response.status_code == 409
    assert response.json()["code"] == "event_closed"
    assert Turn.objects.count() == 1
    assert Match.objects.get(pk=zee["id"]).status == "in_progress"


def test_an_empty_idempotency_key_is_no_key(zee, as_organizer):
    path = f"/api/v1/matches/{zee['id']}/turns/"
    first = as_organizer.post(path, _first_turn(zee), format="json", HTTP_IDEMPOTENCY_KEY="")
    assert first.status_code == 201
    second_turn = {**_first_turn(zee), "player": zee["seats"][1]["player"]["id"]}
    second = as_organizer.post(path, second_turn, format="json", HTTP_IDEMPOTENCY_KEY="")
    assert second.status_code == 201
    assert not SubmissionReceipt.objects.exists()


def test_item_13_a_table_with_no_row_yet_has_the_header_of_a_filled_one(
    yardzee_event, yardzee_league
):
    """The CSV's columns were read from its first row: a league before its first result
    downloaded a leaderboard of one empty line and standings with only the metric columns."""
    standings = APIClient().get(f"/api/v1/events/{yardzee_event.pk}/standings/?format=csv")
    assert standings.content.decode() == (
        "rank,player,name,matches,wins,draws,byes,forfeits,points,total_score,average_score,"
        "best_score,yardzees,upper_bonuses,yardkles,"
        + ",".join(f"metric:{key}" for key in yardzee_league.tiebreak)
        + "\r\n"
    )
    ratings = APIClient().get(f"/api/v1/leagues/{yardzee_league.slug}/ratings/?format=csv")
    assert ratings.content.decode() == "rank,player,name,matches,mu,sigma,ordinal\r\n"
