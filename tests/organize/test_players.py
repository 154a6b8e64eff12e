"""A league's roster pages (issue 17, "Players"): add one player, import a CSV of them (all or
nothing, every bad row named), rename one, merge two that are one person entered twice."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import services as game_services
from league.models import League, Player
from tests.league.services.league_night import finish

ROSTER = "/organize/leagues/yardzee/players/"
IMPORT = ROSTER + "import/"
MERGE = ROSTER + "merge/"


@pytest.fixture
def as_organizer(organizer) -> Client:
    client = Client()
    client.force_login(organizer)
    return client


@pytest.fixture
def ana(yardzee_league) -> Player:
    player = Player.objects.create(display_name="Ana", handle="ana")
    yardzee_league.players.add(player)
    return player


def _text(response) -> str:
    return str(response.content.decode())


def _roster(league: League) -> list[tuple[str, str]]:
    return list(league.players.order_by("display_name").values_list("display_name", "handle"))


# --- Who may open them --------------------------------------------------------------------------


def _pages(player: Player) -> list[tuple[str, str, dict[str, object]]]:
    return [
        ("get", ROSTER, {}),
        ("post", ROSTER, {"display_name": "Intruder"}),
        ("get", IMPORT, {}),
        ("post", IMPORT, {"text": "Intruder"}),
        ("get", f"{ROSTER}{player.pk}/", {}),
        ("post", f"{ROSTER}{player.pk}/", {"display_name": "Renamed"}),
        ("get", MERGE, {}),
        ("post", MERGE, {"keep": player.pk, "remove": player.pk, "confirmed": "yes"}),
    ]


@pytest.mark.django_db
def test_another_league_s_organizer_gets_403_on_every_roster_page(other_organizer, ana):
    client = Client()
    client.force_login(other_organizer)
    for method, url, data in _pages(ana):
        assert getattr(client, method)(url, data).status_code == 403, (method, url)
    assert _roster(League.objects.get(slug="yardzee")) == [("Ana", "ana")]


@pytest.mark.django_db
def test_anonymous_is_sent_to_sign_in_from_every_roster_page(ana):
    for method, url, data in _pages(ana):
        response = getattr(Client(), method)(url, data)
        assert response.status_code == 302, (method, url)
        assert response["Location"].startswith("/accounts/login/?next=/organize/")


@pytest.mark.django_db
def test_a_player_of_another_roster_is_not_found_here(as_organizer, yardzee_league, players):
    assert as_organizer.get(f"{ROSTER}{players[0].pk}/").status_code == 404


# --- The roster and one player ----------------------------------------------------------------


@pytest.mark.django_db
def test_the_roster_lists_players_with_their_matches(as_organizer, ana, yardzee_league, players):
    yardzee_league.players.add(players[0])
    match = game_services.match_create(
        game="yardzee", player_ids=[ana.pk, players[0].pk], league_id=yardzee_league.pk
    )
    finish(match.pk, seed=1)
    page = _text(as_organizer.get(ROSTER))
    assert "2 players" in page
    assert f'href="{ROSTER}{ana.pk}/">Ana</a></td><td>@ana</td><td>1</td>' in page


@pytest.mark.django_db
def test_a_player_is_added_with_a_handle_made_from_the_name(as_organizer, ana, yardzee_league):
    Player.objects.create(display_name="Elsewhere", handle="zoe-lima")
    response = as_organizer.post(ROSTER, {"display_name": " Zoë  Lima ", "handle": ""})
    assert response.status_code == 302
    assert _roster(yardzee_league) == [("Ana", "ana"), ("Zoë Lima", "zoe-lima-2")]
    assert "Zoë Lima (@zoe-lima-2) is on the roster." in _text(as_organizer.get(ROSTER))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("form", "says"),
    [
        ({"display_name": "ANA"}, "&#x27;Ana&#x27; already plays in this league"),
        ({"display_name": "Bo", "handle": "ana"}, "Another player has the handle &#x27;ana&#x27;."),
        ({"display_name": "Bo", "handle": "b o"}, "A handle is letters, digits, hyphens"),
        ({"display_name": "\u2066Bo"}, "It holds invisible or control characters (U+2066)"),
        ({"display_name": ""}, "This field is required."),
    ],
)
def test_a_player_who_cannot_be_added_is_not(as_organizer, ana, yardzee_league, form, says):
    response = as_organizer.post(ROSTER, form)
    assert response.status_code == 400
    assert says in _text(response)
    assert "display_name holds" not in _text(response)  # the page's words, not the API's
    assert _roster(yardzee_league) == [("Ana", "ana")]


@pytest.mark.django_db
def test_a_player_is_renamed_and_their_tables_will_show_it(as_organizer, ana, yardzee_league):
    page = as_organizer.get(f"{ROSTER}{ana.pk}/")
    assert 'value="Ana"' in _text(page)
    response = as_organizer.post(f"{ROSTER}{ana.pk}/", {"display_name": "Ana Lima"})
    assert response.status_code == 302
    ana.refresh_from_db()
    assert ana.display_name == "Ana Lima"
    assert "Ana is now Ana Lima." in _text(as_organizer.get(response["Location"]))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("bea", "&#x27;Bea&#x27; already plays in Elsewhere"),  # taken on any roster of theirs
        ("Ana\u202e", "It holds invisible or control characters (U+202E)"),
    ],
)
def test_a_rename_refused_says_why_in_the_page_s_words_and_changes_nothing(
    as_organizer, ana, yardzee_league, other_organizer, name, says
):
    elsewhere = League.objects.get(slug="elsewhere")
    elsewhere.players.add(ana, Player.objects.create(display_name="Bea", handle="bea"))
    page = _text(as_organizer.get(f"{ROSTER}{ana.pk}/"))
    assert "Also on the roster of Elsewhere" in page
    response = as_organizer.post(f"{ROSTER}{ana.pk}/", {"display_name": name})
    assert response.status_code == 400
    assert says in _text(response)
    assert "display_name holds" not in _text(response)  # the page's words, not the API's
    ana.refresh_from_db()
    assert ana.display_name == "Ana"


@pytest.mark.django_db
def test_a_rename_to_the_same_name_changes_nothing_and_says_so(as_organizer, ana, yardzee_league):
    response = as_organizer.post(f"{ROSTER}{ana.pk}/", {"display_name": " Ana "})
    assert response.status_code == 302
    page = _text(as_organizer.get(response["Location"]))
    assert "Ana is already the name: nothing changed." in page
    assert "is now" not in page
    ana.refresh_from_db()
    assert ana.display_name == "Ana"


# --- Importing a CSV --------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_pasted_csv_with_a_header_adds_every_player(as_organizer, ana, yardzee_league):
    text = 'handle,name\r\ncleo,Cleo Park\r\n,Dan O\'Neil\r\n\r\n,"Lima, Eve"\n'
    response = as_organizer.post(IMPORT, {"text": text})
    assert response.status_code == 302
    assert _roster(yardzee_league) == [
        ("Ana", "ana"),
        ("Cleo Park", "cleo"),
        ("Dan O'Neil", "dan-oneil"),
        ("Lima, Eve", "lima-eve"),
    ]
    assert "3 players are added to the roster." in _text(as_organizer.get(ROSTER))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "names"),
    [
        ("\ufeffname\nBo\nCy\n".encode(), ["Bo", "Cy"]),  # a spreadsheet's UTF-8 with BOM
        (b"Bo;bo-x\nCy;\n", ["Bo", "Cy"]),  # semicolons
        (b"Bo\tbo-x\nCy\n", ["Bo", "Cy"]),  # cells copied from a spreadsheet
    ],
)
def test_an_uploaded_csv_adds_every_player(as_organizer, yardzee_league, content, names):
    upload = SimpleUploadedFile("players.csv", content, content_type="text/csv")
    response = as_organizer.post(IMPORT, {"file": upload, "text": ""})
    assert response.status_code == 302, _text(response)
    assert [name for name, _ in _roster(yardzee_league)] == names


@pytest.mark.django_db
def test_one_bad_row_saves_nothing_and_each_bad_row_is_listed_with_its_number(
    as_organizer, ana, yardzee_league
):
    Player.objects.create(display_name="Elsewhere", handle="taken")
    text = "name,handle\nBo\nana\nCy,taken\nDee\nbo\nEd\u200b\n"
    response = as_organizer.post(IMPORT, {"text": text})
    assert response.status_code == 400
    page = _text(response)
    assert "4 of 6 rows cannot be added (rows 3, 4, 6, 7); nothing was saved." in page
    assert "<td>3</td><td>ana</td><td>&#x27;Ana&#x27; already plays in this league" in page
    assert "<td>4</td><td>Cy</td><td>Another player has the handle &#x27;taken&#x27;." in page
    assert "<td>6</td><td>bo</td><td>Row 2 has the same name" in page
    assert "The name holds invisible or control characters (U+200B)" in page
    assert "display_name holds" not in page
    assert "<td>5</td>" not in page
    assert _roster(yardzee_league) == [("Ana", "ana")]
    assert "Bo\nana\nCy,taken" in page  # the text is kept to correct it


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"text": ""}, "Paste the players or upload a file: one of the two."),
        ({"text": "\n \n"}, "Paste the players or upload a file: one of the two."),
        ({"text": "name,handle\n"}, "There are no players in it"),
        ({"text": "Bo,bo,extra\nCy\nDee,dee,1,2"}, "Rows 1, 3 have more than 2 columns"),
        ({"text": "Bo\n" * 1001}, "1001 players is more than one import takes (1000)"),
        (
            {"text": "Bo", "file": SimpleUploadedFile("p.csv", b"Cy")},
            "Paste the players or upload a file: one of the two.",
        ),
        (
            {"file": SimpleUploadedFile("p.csv", "Zoë".encode("latin-1"))},
            "The file is not UTF-8 text",
        ),
        ({"file": SimpleUploadedFile("p.csv", b"Bo\x00,bo\nCy")}, "holds NUL characters"),
        # Under 256 KB, but one cell longer than the csv module reads (131,072 characters).
        ({"text": "X" * 140_000}, "Row 1 cannot be read"),
        ({"file": SimpleUploadedFile("p.csv", b"Bo\n" + b"X" * 140_000)}, "Row 2 cannot be read"),
        ({"text": 'Bo\n"Cy\n' + "Dee\n" * 50_000}, "Row 2 cannot be read"),  # a quote left open
        ({"text": "Bo\n" * 90_000}, "The text is larger than 256 KB"),
    ],
)
def test_a_file_that_is_not_a_list_of_players_is_refused(
    as_organizer, ana, yardzee_league, data, says
):
    response = as_organizer.post(IMPORT, data)
    assert response.status_code == 400
    assert says in _text(response)
    assert _roster(yardzee_league) == [("Ana", "ana")]


# --- Merging duplicates -----------------------------------------------------------------------


@pytest.mark.django_db
def test_merging_asks_to_confirm_then_merges(as_organizer, ana, yardzee_league, players):
    duplicate, opponent = players[:2]
    yardzee_league.players.add(duplicate, opponent)
    match = game_services.match_create(
        game="yardzee", player_ids=[duplicate.pk, opponent.pk], league_id=yardzee_league.pk
    )
    finish(match.pk, seed=2)
    asked = as_organizer.post(MERGE, {"keep": ana.pk, "remove": duplicate.pk})
    assert asked.status_code == 200
    page = _text(asked)
    assert "Merge Player 1 into Ana?" in page
    assert '<th scope="row">Matches</th><td>0</td><td>1</td>' in page
    assert Player.objects.filter(pk=duplicate.pk).exists()  # nothing yet
    merged = as_organizer.post(MERGE, {"keep": ana.pk, "remove": duplicate.pk, "confirmed": "yes"})
    assert merged.status_code == 302
    assert not Player.objects.filter(pk=duplicate.pk).exists()
    assert list(match.seats.values_list("player_id", flat=True)) == [ana.pk, opponent.pk]
    said = "Player 1 is merged into Ana: 1 match and 0 stage entries moved."  # not "1 matches"
    assert said in _text(as_organizer.get(ROSTER))


@pytest.mark.django_db
@pytest.mark.parametrize("confirmed", [{}, {"confirmed": "yes"}], ids=["asked", "confirmed"])
def test_two_people_who_met_are_not_merged_nor_offered_to_confirm_and_the_page_says_why(
    as_organizer, ana, yardzee_league, players, confirmed
):
    other = players[0]
    yardzee_league.players.add(other)
    match = game_services.match_create(
        game="yardzee", player_ids=[ana.pk, other.pk], league_id=yardzee_league.pk
    )
    response = as_organizer.post(MERGE, {"keep": ana.pk, "remove": other.pk, **confirmed})
    assert response.status_code == 400
    page = _text(response)
    assert f"Ana and Player 1 both played in match {match.pk}" in page
    assert "Merge them" not in page
    assert "This cannot be undone" not in page
    assert Player.objects.filter(pk=other.pk).exists()


@pytest.mark.django_db
def test_no_merge_is_offered_to_confirm_when_the_kept_name_is_taken_on_a_roster_they_join(
    as_organizer, ana, yardzee_league, other_organizer
):
    duplicate = Player.objects.create(display_name="Ana L", handle="ana-l")
    yardzee_league.players.add(duplicate)
    elsewhere = League.objects.get(slug="elsewhere")
    elsewhere.organizers.add(yardzee_league.organizers.get())  # a merge needs both leagues'
    elsewhere.players.add(duplicate, Player.objects.create(display_name="ana", handle="ana-2"))
    response = as_organizer.post(MERGE, {"keep": ana.pk, "remove": duplicate.pk})
    assert response.status_code == 400
    assert "already plays in Elsewhere" in _text(response)
    assert "Merge them" not in _text(response)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("pick", "says"),
    [
        (lambda ana, stranger: {"keep": ana.pk, "remove": ana.pk}, "Choose two different"),
        (lambda ana, stranger: {"keep": ana.pk, "remove": stranger.pk}, "Select a valid choice"),
        (lambda ana, stranger: {"keep": ana.pk}, "This field is required."),
    ],
)
def test_a_merge_of_anything_but_two_players_of_the_roster_is_refused(
    as_organizer, ana, players, pick, says
):
    response = as_organizer.post(MERGE, {**pick(ana, players[0]), "confirmed": "yes"})
    assert response.status_code == 400
    assert says in _text(response)
    assert Player.objects.filter(pk=players[0].pk).exists()


# --- Query counts -------------------------------------------------------------------------------


def _league_of(size: int, organizer) -> League:
    league = League.objects.create(name=f"Size {size}", slug=f"size-{size}", game="yardzee")
    league.organizers.add(organizer)
    league.players.add(
        *Player.objects.bulk_create(
            Player(display_name=f"P{size}-{i}", handle=f"p{size}-{i}") for i in range(size)
        )
    )
    return league


def _queries(client: Client, method: str, url: str, data: dict[str, object] | None = None) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = getattr(client, method)(url, data or {})
    assert response.status_code in (200, 302), (url, response.status_code)
    return len(captured)


@pytest.mark.django_db
def test_roster_pages_cost_the_same_queries_for_5_and_for_50_players(
    as_organizer, organizer, django_assert_max_num_queries
):
    small, large = _league_of(5, organizer), _league_of(50, organizer)
    counts: dict[str, list[int]] = {}
    for league in (small, large):
        base = f"/organize/leagues/{league.slug}/players/"
        first, second = league.players.order_by("pk")[:2]
        size = league.players.count()
        rows = "\n".join(f"New {size}-{i}" for i in range(size))
        pages: list[tuple[str, str, str, dict[str, object] | None]] = [
            ("roster", "get", base, None),
            ("import form", "get", f"{base}import/", None),
            ("import", "post", f"{base}import/", {"text": rows}),
            ("rename form", "get", f"{base}{first.pk}/", None),
            ("merge form", "get", f"{base}merge/", None),
            ("merge asked", "post", f"{base}merge/", {"keep": first.pk, "remove": second.pk}),
        ]
        for name, method, url, data in pages:
            counts.setdefault(name, []).append(_queries(as_organizer, method, url, data))
    for name, (few, many) in counts.items():
        assert few == many, (name, few, many)
    # The roster: the session, its user, the league, whether they organize it, the players
    # with their counts.
    with django_assert_max_num_queries(5):
        as_organizer.get(f"/organize/leagues/{large.slug}/players/")


@pytest.mark.django_db
@pytest.mark.parametrize("confirmed", [{}, {"confirmed": "yes"}], ids=["asked", "confirmed"])
def test_a_player_who_also_plays_in_another_organizers_league_is_not_merged_by_this_one(
    as_organizer, ana, yardzee_league, other_organizer, players, confirmed
):
    """Issue 37, item 2: org1 merged a player who is also on org2's roster into its own: org2's
    match then seated org1's player, who joined org2's roster. A merge rewrites both players'
    records in every league they play in: the caller must organize each of them."""
    shared, opponent = players[:2]
    yardzee_league.players.add(shared)
    elsewhere = League.objects.get(slug="elsewhere")
    elsewhere.players.add(shared, opponent)
    theirs = game_services.match_create(
        game="yardzee", player_ids=[shared.pk, opponent.pk], league_id=elsewhere.pk
    )
    refused = as_organizer.post(MERGE, {"keep": ana.pk, "remove": shared.pk, **confirmed})
    assert refused.status_code == 400
    page = _text(refused)
    assert "also plays in Elsewhere, which you do not organize" in page
    assert "Merge them" not in page
    assert Player.objects.filter(pk=shared.pk).exists()
    assert list(theirs.seats.values_list("player_id", flat=True)) == [shared.pk, opponent.pk]
    assert not elsewhere.players.filter(pk=ana.pk).exists()
    # an organizer of both leagues may
    elsewhere.organizers.add(yardzee_league.organizers.get())
    merged = as_organizer.post(MERGE, {"keep": ana.pk, "remove": shared.pk, "confirmed": "yes"})
    assert merged.status_code == 302
    assert list(theirs.seats.values_list("player_id", flat=True)) == [ana.pk, opponent.pk]
