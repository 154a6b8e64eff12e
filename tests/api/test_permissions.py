"""Who may write what: a matrix over every write endpoint and every kind of caller.

Anonymous callers get 401; signed-in (or key-holding) callers who may not get 403; everyone
else gets through to the endpoint (whose own answer is then 2xx, 409 or 422)."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match
from league.models import League, Player
from league.services import registration as registration_services
from league.services import stages as stage_services
from tests.conftest import client_for
from webhooks.models import Endpoint

ROLES = [
    "anonymous",
    "player_account",
    "other_organizer",
    "wrong_key",
    "right_key",
    "organizer",
    "staff",
]
DENIED = {"anonymous": 401}


def _expected(allowed: set[str], role: str) -> str:
    if role in allowed:
        return "allowed"
    return "401" if role == "anonymous" else "403"


def _outcome(status_code: int) -> str:
    return str(status_code) if status_code in (401, 403) else "allowed"


@pytest.fixture
def world(request, players, yardzee_event, seat_match, organizer) -> dict[str, Any]:
    match = seat_match("yardzee", players[:2], event=yardzee_event)
    # The organizer's other league, where players[4] plays: so they may add them to this one.
    second = League.objects.create(name="Second", slug="second", game="yardzee")
    second.organizers.add(organizer)
    second.players.add(players[4])
    # A draft stage, a sign-up with one registration and a webhook endpoint of the league: the
    # objects of the organizer-only writes below.
    stage = stage_services.stage_create(
        event_id=yardzee_event.pk,
        name="Groups",
        format="round_robin",
        player_ids=[players[0].pk, players[1].pk],
    )
    registration_services.sign_up_set(event=yardzee_event)
    signed_up = registration_services.registration_create(
        event_id=yardzee_event.pk, display_name="Newcomer", email="new@example.org"
    )
    endpoint = Endpoint.objects.create(
        league=yardzee_event.league, url="https://hooks.example.org/yard", events=["ping"]
    )
    return {
        "match": match,
        "event": yardzee_event,
        "players": players,
        "stage": stage,
        "registration": signed_up.registration,
        "endpoint": endpoint,
    }


def _client(role: str, world: dict[str, Any], request: pytest.FixtureRequest) -> APIClient:
    if role in ("anonymous", "wrong_key", "right_key"):
        client = APIClient()
        if role != "anonymous":
            key = world["match"]["score_key"] if role == "right_key" else "not-the-key"
            client.credentials(HTTP_X_SCORE_KEY=key)
        return client
    return client_for(request.getfixturevalue(role))


def _first_turn(world: dict[str, Any]) -> dict[str, Any]:
    return {
        "player": world["players"][0].pk,
        "rolls": [{"dice": [3, 3, 5, 2, 6]}],
        "category": "threes",
    }


def _ids(world: dict[str, Any]) -> dict[str, Any]:
    """The ids a path of the world's objects is made with."""
    return {
        "match": world["match"]["id"],
        "event": world["event"].pk,
        "league": world["event"].league.slug,
        "stage": world["stage"].pk,
        "registration": world["registration"].pk,
        "endpoint": world["endpoint"].pk,
    }


ENDPOINTS: dict[str, tuple[set[str], Any]] = {
    "POST matches/{id}/turns/": (
        {"right_key", "organizer", "staff"},
        lambda c, w: c.post(
            f"/api/v1/matches/{w['match']['id']}/turns/", _first_turn(w), format="json"
        ),
    ),
    "POST matches/{id}/result/": (
        {"right_key", "organizer", "staff"},
        lambda c, w: c.post(
            f"/api/v1/matches/{w['match']['id']}/result/",
            {"turns": [_first_turn(w)]},
            format="json",
        ),
    ),
    "POST matches/{id}/undo/": (
        {"organizer", "staff"},
        lambda c, w: c.post(f"/api/v1/matches/{w['match']['id']}/undo/"),
    ),
    "POST matches/{id}/void/": (
        {"organizer", "staff"},
        lambda c, w: c.post(f"/api/v1/matches/{w['match']['id']}/void/"),
    ),
    "POST matches/ (event)": (
        {"organizer", "staff"},
        lambda c, w: c.post(
            "/api/v1/matches/",
            {
                "event": w["event"].pk,
                "game": "yardzee",
                "players": [w["players"][2].pk, w["players"][3].pk],
            },
            format="json",
        ),
    ),
    "POST matches/ (casual, of a league)": (
        {"organizer", "staff"},
        lambda c, w: c.post(
            "/api/v1/matches/",
            {
                "league": w["event"].league.slug,
                "game": "yardzee",
                "players": [w["players"][0].pk, w["players"][1].pk],
            },
            format="json",
        ),
    ),
    "POST players/ (to a league's roster)": (
        {"organizer", "staff"},
        lambda c, w: c.post(
            "/api/v1/players/",
            {"display_name": "New", "handle": "new-one", "league": w["event"].league.slug},
            format="json",
        ),
    ),
    # Issue 14, item 11: a player is changed only by the organizers of the leagues they play in.
    "PATCH players/{id}/": (
        {"organizer", "staff"},
        lambda c, w: c.patch(
            f"/api/v1/players/{w['players'][0].pk}/", {"display_name": "Renamed"}, format="json"
        ),
    ),
    "POST leagues/{slug}/players/": (
        {"organizer", "staff"},
        lambda c, w: c.post(
            f"/api/v1/leagues/{w['event'].league.slug}/players/",
            {"player": w["players"][4].pk},
            format="json",
        ),
    ),
    "PATCH leagues/{slug}/": (
        {"organizer", "staff"},
        lambda c, w: c.patch(
            f"/api/v1/leagues/{w['event'].league.slug}/", {"name": "Renamed"}, format="json"
        ),
    ),
    "POST events/": (
        {"organizer", "staff"},
        lambda c, w: c.post(
            "/api/v1/events/",
            {"league": w["event"].league.slug, "name": "Week 2", "date": "2026-06-08"},
            format="json",
        ),
    ),
    "PATCH events/{id}/": (
        {"organizer", "staff"},
        lambda c, w: c.patch(f"/api/v1/events/{w['event'].pk}/", {"venue": "Park"}, format="json"),
    ),
    **{
        f"POST {path}": (
            {"organizer", "staff"},
            lambda c, w, path=path, body=body: c.post(
                "/api/v1/" + path.format(**_ids(w)), body, format="json"
            ),
        )
        for path, body in [
            ("matches/{match}/turns/1/correct/", {}),
            ("matches/{match}/unvoid/", {}),
            ("matches/{match}/schedule/", {"table_label": "Yard 2"}),
            ("events/{event}/close/", {}),
            ("events/{event}/reopen/", {}),
            ("events/{event}/withdraw/", {"player": 1}),
            ("events/{event}/stages/", {}),
            ("stages/{stage}/start/", {}),
            ("stages/{stage}/forfeit/", {"stage_match": 1, "player": 1}),
            ("stages/{stage}/withdraw/", {"player": 1}),
            ("stages/{stage}/rounds/1/schedule/", {}),
            ("leagues/{league}/import/", {}),
            ("leagues/{league}/webhooks/", {}),
            ("leagues/{league}/webhooks/{endpoint}/enable/", {}),
            ("leagues/{league}/webhooks/{endpoint}/rotate-secret/", {}),
            ("registrations/{registration}/approve/", {}),
            ("registrations/{registration}/refuse/", {}),
            ("registrations/{registration}/withdraw/", {}),
            ("registrations/{registration}/check-in/", {"present": True}),
        ]
    },
    **{
        f"{method.upper()} {path}": (
            {"organizer", "staff"},
            lambda c, w, method=method, path=path, body=body: getattr(c, method)(
                "/api/v1/" + path.format(**_ids(w)), body, format="json"
            ),
        )
        for method, path, body in [
            ("patch", "stages/{stage}/", {"name": "Pools"}),
            ("delete", "stages/{stage}/", None),
            ("put", "events/{event}/sign-up/", {}),
            ("patch", "leagues/{league}/webhooks/{endpoint}/", {"description": "Ours"}),
            ("delete", "leagues/{league}/webhooks/{endpoint}/", None),
        ]
    },
    # Reads only the organizers make: emails, webhook addresses and their delivery logs.
    **{
        f"GET {path}": (
            {"organizer", "staff"},
            lambda c, w, path=path: c.get("/api/v1/" + path.format(**_ids(w))),
        )
        for path in [
            "events/{event}/registrations/",
            "leagues/{league}/webhooks/",
            "leagues/{league}/webhooks/{endpoint}/",
            "leagues/{league}/webhooks/{endpoint}/deliveries/",
        ]
    },
    # The scorekeeper who sent the last turn takes it back (here there is none: 409).
    "POST matches/{id}/turns/last/take-back/": (
        {"right_key", "organizer", "staff"},
        lambda c, w: c.post(
            f"/api/v1/matches/{w['match']['id']}/turns/last/take-back/", {}, format="json"
        ),
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", list(ENDPOINTS))
def test_permission_matrix(endpoint, role, world, request, other_organizer):
    allowed, call = ENDPOINTS[endpoint]
    response = call(_client(role, world, request), world)
    assert _outcome(response.status_code) == _expected(allowed, role), response.content
    if response.status_code in (401, 403):
        body = response.json()
        assert body["code"] in ("not_authenticated", "permission_denied")
        assert body["message"]


@pytest.mark.django_db
def test_creating_a_league_makes_its_creator_the_first_organizer(player_account):
    client = client_for(player_account)
    response = client.post(
        "/api/v1/leagues/", {"name": "Tuesday Yardkle", "game": "yardkle"}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["slug"] == "tuesday-yardkle"
    assert body["organizers"] == [player_account.username]
    assert body["rules"] == {"target": 10000, "entry_minimum": 500}
    assert (
        client.patch(
            "/api/v1/leagues/tuesday-yardkle/", {"rules": {"target": 5000}}, format="json"
        ).status_code
        == 200
    )


@pytest.mark.django_db
def test_a_league_with_a_bad_ruleset_is_refused(player_account):
    response = client_for(player_account).post(
        "/api/v1/leagues/",
        {"name": "X", "game": "yardzee", "rules": {"joker": "sometimes"}},
        format="json",
    )
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_rule_option"


@pytest.mark.django_db
def test_score_key_is_shown_to_organizers_only(world, as_organizer):
    url = f"/api/v1/matches/{world['match']['id']}/"
    assert as_organizer.get(url).json()["score_key"] == world["match"]["score_key"]
    assert APIClient().get(url).json()["score_key"] is None


@pytest.mark.django_db
def test_token_login_returns_a_token_that_authorizes_writes(organizer):
    response = APIClient().post(
        "/api/v1/auth/token/", {"username": "orga", "password": "pw-orga"}, format="json"
    )
    assert response.status_code == 200
    token = response.json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert (
        client.post(
            "/api/v1/leagues/", {"name": "Mine", "game": "yardzee"}, format="json"
        ).status_code
        == 201
    )


@pytest.mark.django_db
def test_token_login_with_a_wrong_password_answers_400_with_the_error_shape(organizer):
    response = APIClient().post(
        "/api/v1/auth/token/", {"username": "orga", "password": "nope"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("seats", "code"),
    [
        pytest.param(lambda first: [first, 987654], "unknown_player", id="unknown"),
        pytest.param(lambda first: [first, first], "duplicate_player", id="twice"),
        pytest.param(
            lambda first: [first, 27627487456780500992],
            "invalid",
            id="id-too-large-for-the-database",
        ),
    ],
)
def test_seating_an_unknown_duplicate_or_out_of_range_player_is_refused(
    as_organizer, players, seats, code
):
    response = as_organizer.post(
        "/api/v1/matches/", {"game": "yardzee", "players": seats(players[0].pk)}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == code


@pytest.mark.django_db
def test_seating_a_match_of_another_game_at_an_event_is_refused(
    as_organizer, players, yardzee_event
):
    yardzee_event.league.players.add(*players)
    response = as_organizer.post(
        "/api/v1/matches/",
        {"event": yardzee_event.pk, "game": "yardkle", "players": [players[0].pk, players[1].pk]},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "wrong_game"


@pytest.mark.django_db
def test_seating_too_many_yardzee_players_is_refused(as_organizer, players, yardzee_league):
    yardzee_league.players.add(*players)
    response = as_organizer.post(
        "/api/v1/matches/",
        {"league": "yardzee", "game": "yardzee", "players": [p.pk for p in players]},
        format="json",
    )
    assert response.status_code == 422
    assert response.json()["code"] == "player_count"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("game", "count", "message"),
    [
        ("yardzee", 1, "Yardzee is played by 2 to 5 players, not 1."),
        ("yardzee", 6, "Yardzee is played by 2 to 5 players, not 6."),
        ("yardkle", 1, "Yardkle is played by 2 to 10 players, not 1."),
        ("yardkle", 11, "Yardkle is played by 2 to 10 players, not 11."),
    ],
)
def test_seating_a_player_count_the_game_does_not_allow_names_the_game_rule(
    as_organizer, organizer, game, count, message
):
    """RULES.md, "Game": Yardzee is played by 2 to 5 players, Yardkle (as this project allows)
    by 2 to 10. Too few or too many is the rulebook's 422 `player_count` under "Game" whatever
    the count (one player, or eleven at Yardkle, was a 400 `invalid` naming no rule), and no
    match is stored."""
    league = League.objects.create(name="Counted", slug="counted", game=game)
    league.organizers.add(organizer)
    seated = [Player.objects.create(display_name=f"P{i}", handle=f"p{i}") for i in range(count)]
    league.players.add(*seated)
    response = as_organizer.post(
        "/api/v1/matches/",
        {"league": "counted", "game": game, "players": [p.pk for p in seated]},
        format="json",
    )
    assert response.status_code == 422, response.json()
    body = response.json()
    assert (body["code"], body["rule"], body["message"]) == ("player_count", "Game", message)
    assert not Match.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["new", "taken", "NEW", "Taken"])
def test_a_league_address_that_is_taken_or_the_pages_own_is_refused(player_account, slug):
    """`new` is /organize/leagues/new/, the page that creates a league (docs/organizing.md).
    An address is taken in any case of its letters: `Taken` reads as `taken`."""
    League.objects.create(name="Taken", slug="taken", game="yardzee")
    client = client_for(player_account)
    response = client.post(
        "/api/v1/leagues/", {"name": "Zz", "game": "yardzee", "slug": slug}, format="json"
    )
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "slug_taken"
    assert response.json()["details"] == {"field": "slug", "slug": slug}
    assert client.post("/api/v1/leagues/", {"name": "Zz", "game": "yardzee"}).status_code == 201
    moved = client.patch("/api/v1/leagues/zz/", {"slug": slug}, format="json")
    assert (moved.status_code, moved.json()["code"]) == (400, "slug_taken")
    assert League.objects.filter(slug="zz").exists()
    assert sorted(League.objects.values_list("slug", flat=True)) == ["taken", "zz"]


@pytest.mark.django_db
@pytest.mark.parametrize("taken", ["ADA", "ada"])
def test_a_player_handle_another_player_has_in_any_case_is_taken(
    as_organizer, yardzee_league, taken
):
    """POST players/ and PATCH players/{id}/: `Ada` beside `ada` is refused (400
    `handle_taken`, `details.field`), and nothing is stored; `ada` itself is refused the same
    way (not with the model's own uniqueness message, another code)."""
    yardzee_league.players.add(Player.objects.create(display_name="Ada", handle="ada"))
    made = as_organizer.post(
        "/api/v1/players/",
        {"display_name": "Ada Two", "handle": taken, "league": yardzee_league.slug},
        format="json",
    )
    assert made.status_code == 400, made.json()
    assert (made.json()["code"], made.json()["details"]["field"]) == ("handle_taken", "handle")
    bo = as_organizer.post(
        "/api/v1/players/",
        {"display_name": "Bo", "handle": "bo", "league": yardzee_league.slug},
        format="json",
    ).json()
    moved = as_organizer.patch(f"/api/v1/players/{bo['id']}/", {"handle": taken}, format="json")
    assert (moved.status_code, moved.json()["code"]) == (400, "handle_taken")
    assert Player.objects.get(pk=bo["id"]).handle == "bo"
    assert Player.objects.filter(handle__iexact="ada").count() == 1
    assert sorted(Player.objects.values_list("handle", flat=True)) == ["ada", "bo"]


@pytest.mark.django_db
def test_players_are_found_by_handle_in_any_case_of_its_letters():
    ada = Player.objects.create(display_name="Ada", handle="ada")
    for handle in ("ada", "ADA", "Ada"):
        found = APIClient().get(f"/api/v1/players/?handle={handle}").json()["results"]
        assert [p["id"] for p in found] == [ada.pk], handle
    assert APIClient().get("/api/v1/players/?handle=ad").json()["results"] == []


# Every write whose path names what it changes, as (method, path): who may not make it is told
# so (401 or 403) whatever the body holds, before the body is read; a refusal of the body (400,
# 422) would tell a caller who may not what the endpoint takes, and answer them as if they may.
NAMED_WRITES = [
    ("post", "matches/{match}/turns/"),
    ("post", "matches/{match}/result/"),
    ("post", "matches/{match}/turns/last/take-back/"),
    ("post", "matches/{match}/undo/"),
    ("post", "matches/{match}/void/"),
    ("post", "matches/{match}/unvoid/"),
    ("post", "matches/{match}/turns/1/correct/"),
    ("post", "matches/{match}/schedule/"),
    ("patch", "leagues/{league}/"),
    ("post", "leagues/{league}/players/"),
    ("post", "leagues/{league}/import/"),
    ("post", "leagues/{league}/webhooks/"),
    ("patch", "leagues/{league}/webhooks/{endpoint}/"),
    ("post", "leagues/{league}/webhooks/{endpoint}/enable/"),
    ("post", "leagues/{league}/webhooks/{endpoint}/rotate-secret/"),
    ("patch", "events/{event}/"),
    ("post", "events/{event}/close/"),
    ("post", "events/{event}/reopen/"),
    ("post", "events/{event}/withdraw/"),
    ("post", "events/{event}/stages/"),
    ("put", "events/{event}/sign-up/"),
    ("patch", "stages/{stage}/"),
    ("post", "stages/{stage}/start/"),
    ("post", "stages/{stage}/forfeit/"),
    ("post", "stages/{stage}/withdraw/"),
    ("post", "stages/{stage}/rounds/1/schedule/"),
    ("post", "registrations/{registration}/approve/"),
    ("post", "registrations/{registration}/check-in/"),
    ("patch", "players/{player}/"),
]
BAD_BODY = {"turn_number": "one", "player": "nobody", "not_a_field": True}


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["anonymous", "player_account", "other_organizer", "wrong_key"])
@pytest.mark.parametrize(("method", "path"), NAMED_WRITES)
def test_a_caller_who_may_not_write_is_refused_before_the_body_is_read(
    method, path, role, world, request, other_organizer
):
    ids = {**_ids(world), "player": world["players"][0].pk}
    client = _client(role, world, request)
    response = getattr(client, method)("/api/v1/" + path.format(**ids), BAD_BODY, format="json")
    assert response.status_code == (401 if role == "anonymous" else 403), response.content
