"""A league's organizer pages (issue 17, "My leagues"): create a league, change its settings
with a live preview of the tiebreak order, add and remove its organizers. Every form is
checked by the services; a refusal is shown with its sentence, status 400, nothing saved."""

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from league.models import Event, League, Player


def _client(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def as_organizer(organizer) -> Client:
    return _client(organizer)


def _settings(league: League, **changes: object) -> dict[str, object]:
    """The settings form as the page sends it, unchanged but for `changes`."""
    form: dict[str, object] = {
        "name": league.name,
        "game": league.game,
        "joker": "forced",
        "win": "3",
        "draw": "1",
        "loss": "0",
        "placement": "",
        "tiebreak_1": "points",
        "tiebreak_2": "wins",
    }
    form.update(changes)
    return form


def _text(response) -> str:
    return str(response.content.decode())


# --- Who may open them ------------------------------------------------------------------------

PAGES = [
    ("get", "/organize/leagues/yardzee/", {}),
    ("post", "/organize/leagues/yardzee/", {"name": "Mine now"}),
    ("get", "/organize/leagues/yardzee/tiebreak/?tiebreak_1=points", {}),
    ("post", "/organize/leagues/yardzee/organizers/", {"username": "other-orga"}),
    ("post", "/organize/leagues/yardzee/organizers/remove/", {"user": "1"}),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "url", "data"), PAGES)
def test_another_league_s_organizer_gets_403_and_changes_nothing(
    other_organizer, yardzee_league, method, url, data
):
    response = getattr(_client(other_organizer), method)(url, data)
    assert response.status_code == 403
    assert "Only the organizers of Backyard Yardzee" in _text(response)
    assert "organize/leagues" not in _text(response)  # no organizer link on the refusal
    yardzee_league.refresh_from_db()
    assert yardzee_league.name == "Backyard Yardzee"
    assert list(yardzee_league.organizers.values_list("username", flat=True)) == ["orga"]


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "url", "data"), [*PAGES, ("get", "/organize/leagues/new/", {})])
def test_anonymous_is_sent_to_sign_in(yardzee_league, method, url, data):
    response = getattr(Client(), method)(url, data)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/organize/")


@pytest.mark.django_db
def test_staff_open_any_league_s_settings(staff, yardzee_league):
    assert _client(staff).get("/organize/leagues/yardzee/").status_code == 200


# --- A new league -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_anyone_signed_in_creates_a_league_and_organizes_it(player_account):
    client = _client(player_account)
    assert "Create a league" in _text(client.get("/organize/"))
    response = client.post(
        "/organize/leagues/new/", {"name": "Lawn  Dice ", "slug": "", "game": "yardkle"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/organize/leagues/lawn-dice/"
    league = League.objects.get(slug="lawn-dice")
    assert league.name == "Lawn Dice"
    assert league.rules == {"target": 10_000, "entry_minimum": 500}
    assert list(league.organizers.all()) == [player_account]
    page = client.get(response["Location"])
    assert "Lawn Dice is created, and you organize it." in _text(page)
    home = _text(client.get("/organize/"))
    assert 'href="/organize/leagues/lawn-dice/"' in home
    assert 'href="/organize/leagues/lawn-dice/players/"' in home
    assert "Yardkle, 0 events" in home
    Event.objects.create(league=league, name="Night", date="2026-06-06")
    assert "Yardkle, 1 event<" in _text(client.get("/organize/"))  # not "1 events"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("form", "says"),
    [
        ({"name": "Backyard Yardzee", "slug": "yardzee"}, "Another league has the address"),
        ({"name": "!!!", "slug": ""}, "no letters or digits to make an address"),
        ({"name": "New", "slug": ""}, "is the organizer pages&#x27; own"),
        # On its field, in the page's words: the API's sentence begins "name holds".
        ({"name": "Bad\u202ename", "slug": "bad"}, "It holds invisible or control characters"),
        ({"name": "Spaces", "slug": "not a slug"}, "Enter a valid"),
        ({"name": "", "slug": "blank"}, "This field is required."),
    ],
)
def test_a_league_that_cannot_be_created_is_not_and_the_form_says_why(
    as_organizer, yardzee_league, form, says
):
    response = as_organizer.post("/organize/leagues/new/", {**form, "game": "yardzee"})
    assert response.status_code == 400
    assert says in _text(response)
    assert League.objects.count() == 1


# --- Settings ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_settings_page_shows_the_league_as_it_is(as_organizer, yardzee_league):
    yardzee_league.points = {"placement": {"4": [5, 3, 1, 0]}}
    yardzee_league.save()
    page = _text(as_organizer.get("/organize/leagues/yardzee/"))
    assert 'value="Backyard Yardzee"' in page
    assert "4: 5, 3, 1, 0" in page
    assert '<option value="forced" selected>' in page
    # The default order's metrics, explained (league.standings.metrics descriptions).
    assert "Among exactly the players still tied" in page
    assert 'hx-get="/organize/leagues/yardzee/tiebreak/"' in page


@pytest.mark.django_db
def test_saved_settings_change_the_league_and_rerank_its_tables(as_organizer, yardzee_league):
    response = as_organizer.post(
        "/organize/leagues/yardzee/",
        _settings(
            yardzee_league,
            name="Front Yard Yardzee",
            joker="free_choice",
            win="2",
            draw="0.5",
            placement="3: 4, 2, 0\n\n4: 5, 3, 1, 0",
            tiebreak_1="wins",
            tiebreak_2="",
            tiebreak_3="yardzees",
        ),
    )
    assert response.status_code == 302
    yardzee_league.refresh_from_db()
    assert yardzee_league.name == "Front Yard Yardzee"
    assert yardzee_league.rules == {"joker": "free_choice"}
    assert yardzee_league.points == {
        "win": 2,
        "draw": 0.5,
        "loss": 0,
        "placement": {"3": [4, 2, 0], "4": [5, 3, 1, 0]},
    }
    assert yardzee_league.tiebreak == ["wins", "yardzees"]
    assert "are saved" in _text(as_organizer.get(response["Location"]))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("changes", "says"),
    [
        # The metric by its label, as the selects show it ("Points"), not its key ('points').
        ({"tiebreak_2": "points"}, "“Points” appears twice in the tiebreak order."),
        ({"tiebreak_1": "", "tiebreak_2": ""}, "Choose at least one metric"),
        ({"tiebreak_1": "luck"}, "Select a valid choice"),
        ({"placement": "4: 3, 2, 1"}, "A table of 4 needs 4 placement points, not 3."),
        ({"placement": "four: 3, 2, 1, 0"}, "is not a table size, a colon and points"),
        (
            {"placement": "3: 2, 1, 0\n4: 3, 2, 1, 0\n 3 : 4, 2, 0"},
            "Line 3 gives the points of a table of 3 again (line 1 did)",
        ),
        ({"win": "0", "draw": "1"}, "must not rise from win to draw to loss"),
        ({"name": "   "}, "This field is required."),
        ({"name": "Zero\u200bwidth"}, "It holds invisible or control characters"),
        ({"joker": "whatever"}, "Select a valid choice"),
    ],
)
def test_settings_that_cannot_be_used_are_refused_and_nothing_is_saved(
    as_organizer, yardzee_league, changes, says
):
    before = (yardzee_league.name, yardzee_league.points, yardzee_league.tiebreak)
    response = as_organizer.post("/organize/leagues/yardzee/", _settings(yardzee_league, **changes))
    assert response.status_code == 400
    assert says in _text(response)
    yardzee_league.refresh_from_db()
    assert (yardzee_league.name, yardzee_league.points, yardzee_league.tiebreak) == before


@pytest.mark.django_db
def test_the_game_changes_until_the_league_has_an_event(as_organizer, yardzee_league):
    changed = as_organizer.post(
        "/organize/leagues/yardzee/", _settings(yardzee_league, game="yardkle")
    )
    assert changed.status_code == 302
    yardzee_league.refresh_from_db()
    assert (yardzee_league.game, yardzee_league.rules) == (
        "yardkle",
        {"target": 10_000, "entry_minimum": 500},
    )
    Event.objects.create(league=yardzee_league, name="Night", date="2026-06-01")
    page = _text(as_organizer.get("/organize/leagues/yardzee/"))
    assert "Fixed: the league has events or matches." in page
    assert re.search(r'<select name="game"[^>]* disabled', page)
    form = _settings(yardzee_league, target="5000", entry_minimum="0")
    del form["joker"], form["game"]  # a disabled select is not sent
    kept = as_organizer.post("/organize/leagues/yardzee/", form)
    assert kept.status_code == 302
    yardzee_league.refresh_from_db()
    assert (yardzee_league.game, yardzee_league.rules["target"]) == ("yardkle", 5000)


@pytest.mark.django_db
def test_a_game_change_from_a_page_opened_before_the_first_event_is_refused(
    as_organizer, yardzee_league
):
    """The page offered the game; an event was created meanwhile: the change is refused, not
    dropped with "saved" for the rest."""
    Event.objects.create(league=yardzee_league, name="Night", date="2026-06-01")
    form = _settings(yardzee_league, game="yardkle", name="Renamed")
    response = as_organizer.post("/organize/leagues/yardzee/", form)
    assert response.status_code == 400
    assert "its game can no longer change" in _text(response)
    yardzee_league.refresh_from_db()
    assert (yardzee_league.game, yardzee_league.name) == ("yardzee", "Backyard Yardzee")


@pytest.mark.django_db
def test_a_game_change_with_a_metric_of_the_old_game_is_refused_on_the_tiebreak(
    as_organizer, yardzee_league
):
    response = as_organizer.post(
        "/organize/leagues/yardzee/",
        _settings(yardzee_league, game="yardkle", tiebreak_2="yardzees"),
    )
    assert response.status_code == 400
    assert "“Yardzees” does not apply to Yardkle leagues." in _text(response)
    yardzee_league.refresh_from_db()
    assert yardzee_league.game == "yardzee"


@pytest.mark.django_db
def test_the_tiebreak_preview_explains_the_order_being_chosen(as_organizer, yardzee_league):
    url = "/organize/leagues/yardzee/tiebreak/"
    preview = _text(
        as_organizer.get(url, {"tiebreak_1": "yardzees", "tiebreak_2": "", "tiebreak_3": "wins"})
    )
    assert preview.index("Yardzee boxes scored at 50") < preview.index("Sole first places")
    assert "<html" not in preview  # a fragment, swapped in by htmx
    twice = _text(as_organizer.get(url, {"tiebreak_1": "wins", "tiebreak_2": "wins"}))
    assert "“Wins” appears twice in the tiebreak order." in twice
    assert "No metric chosen" in _text(as_organizer.get(url))


@pytest.mark.django_db
def test_a_yardkle_league_offers_its_own_rules_and_metrics(as_organizer, yardkle_league):
    page = _text(as_organizer.get("/organize/leagues/yardkle/"))
    assert 'name="target"' in page
    assert 'name="joker"' not in page
    assert 'value="yardkles"' in page
    assert 'value="yardzees"' not in page
    low = _text(as_organizer.get("/organize/leagues/yardkle/tiebreak/", {"tiebreak_1": "yardkles"}))
    assert "(lower ranks first)" in low


# --- Organizers -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_organizers_add_a_co_organizer_by_username_and_remove_them(
    as_organizer, organizer, other_organizer, yardzee_league
):
    added = as_organizer.post("/organize/leagues/yardzee/organizers/", {"username": "other-orga"})
    assert added.status_code == 302
    assert set(yardzee_league.organizers.all()) == {organizer, other_organizer}
    assert _client(other_organizer).get("/organize/leagues/yardzee/").status_code == 200
    asked = as_organizer.post(
        "/organize/leagues/yardzee/organizers/remove/", {"user": other_organizer.pk}
    )
    assert asked.status_code == 200  # a removal asks to confirm first
    assert "Remove other-orga?" in _text(asked)
    assert set(yardzee_league.organizers.all()) == {organizer, other_organizer}
    removed = as_organizer.post(
        "/organize/leagues/yardzee/organizers/remove/",
        {"user": other_organizer.pk, "confirmed": "yes"},
    )
    assert removed.status_code == 302
    assert list(yardzee_league.organizers.all()) == [organizer]
    assert _client(other_organizer).get("/organize/leagues/yardzee/").status_code == 403


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("username", "says"),
    [
        ("nobody", "No one has the username &#x27;nobody&#x27;"),
        ("orga", "orga already organizes Backyard Yardzee."),
        ("", "This field is required."),
    ],
)
def test_an_organizer_who_cannot_be_added_is_not(as_organizer, yardzee_league, username, says):
    response = as_organizer.post("/organize/leagues/yardzee/organizers/", {"username": username})
    assert response.status_code == 400
    assert says in _text(response)
    assert yardzee_league.organizers.count() == 1


@pytest.mark.django_db
def test_the_last_organizer_stays(as_organizer, organizer, yardzee_league, other_organizer):
    page = _text(as_organizer.get("/organize/leagues/yardzee/"))
    assert "Leave" not in page  # no button for what would be refused
    last = as_organizer.post(
        "/organize/leagues/yardzee/organizers/remove/", {"user": organizer.pk, "confirmed": "yes"}
    )
    assert last.status_code == 400
    assert "orga is the only organizer of Backyard Yardzee" in _text(last)
    stranger = as_organizer.post(
        "/organize/leagues/yardzee/organizers/remove/", {"user": other_organizer.pk}
    )
    assert stranger.status_code == 400
    assert "They do not organize this league." in _text(stranger)
    assert list(yardzee_league.organizers.all()) == [organizer]


@pytest.mark.django_db
def test_an_organizer_leaves_a_league_another_runs_and_loses_its_pages(
    as_organizer, organizer, other_organizer, yardzee_league
):
    yardzee_league.organizers.add(other_organizer)
    assert "Leave" in _text(as_organizer.get("/organize/leagues/yardzee/"))
    asked = as_organizer.post(
        "/organize/leagues/yardzee/organizers/remove/", {"user": organizer.pk}
    )
    assert "Leave Backyard Yardzee?" in _text(asked)
    left = as_organizer.post(
        "/organize/leagues/yardzee/organizers/remove/", {"user": organizer.pk, "confirmed": "yes"}
    )
    assert left.status_code == 302
    assert left["Location"] == "/organize/"
    assert "You no longer organize Backyard Yardzee." in _text(as_organizer.get("/organize/"))
    assert as_organizer.get("/organize/leagues/yardzee/").status_code == 403


# --- Query counts -------------------------------------------------------------------------------


def _grow(league: League, players: int, organizers: int) -> None:
    league.players.add(
        *Player.objects.bulk_create(
            Player(display_name=f"{league.slug} {i}", handle=f"{league.slug}-{i}")
            for i in range(players)
        )
    )
    league.organizers.add(
        *(User.objects.create_user(f"{league.slug}-orga-{i}") for i in range(organizers))
    )
    for i in range(3 if players > 10 else 1):
        Event.objects.create(league=league, name=f"Night {i}", date="2026-06-01")


def _count(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured)


@pytest.mark.django_db
def test_league_pages_cost_the_same_queries_for_a_small_and_a_large_league(
    organizer, django_assert_max_num_queries
):
    small = League.objects.create(name="Small", slug="small", game="yardzee")
    large = League.objects.create(name="Large", slug="large", game="yardzee")
    for league, players, organizers in ((small, 5, 1), (large, 50, 6)):
        league.organizers.add(organizer)
        _grow(league, players, organizers)
    client = _client(organizer)
    for page in ("", "tiebreak/?tiebreak_1=points"):
        counts = [_count(client, f"/organize/leagues/{slug}/{page}") for slug in ("small", "large")]
        assert counts[0] == counts[1], (page, counts)
    # The settings page: the session, its user, the league, whether they organize it, whether
    # it has an event (its game is then settled; without one, whether it has a match), its
    # organizers, its pending invitations (with who sent them).
    with django_assert_max_num_queries(7):
        client.get("/organize/leagues/large/")
    with django_assert_max_num_queries(2):  # the session and its user
        client.get("/organize/leagues/new/")


@pytest.mark.django_db
def test_a_co_organizer_added_a_moment_ago_cannot_remove_the_leagues_owner(
    organizer, other_organizer
):
    """Issue 37, item 9: a co-organizer just added could remove the league's creator."""
    made = _client(organizer).post(
        "/organize/leagues/new/", {"name": "Owned", "slug": "owned", "game": "yardzee"}
    )
    assert made.status_code == 302, _text(made)
    league = League.objects.get(slug="owned")
    assert league.owner == organizer
    league.organizers.add(other_organizer)
    page = _text(_client(other_organizer).get("/organize/leagues/owned/"))
    assert "orga (owner)" in page
    for body in ({"user": organizer.pk}, {"user": organizer.pk, "confirmed": "yes"}):
        refused = _client(other_organizer).post("/organize/leagues/owned/organizers/remove/", body)
        assert refused.status_code == 400
        assert "made Owned and owns it" in _text(refused)
    assert set(league.organizers.all()) == {organizer, other_organizer}
