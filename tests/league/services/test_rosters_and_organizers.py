"""Adding players in bulk, a league's organizers and its game (`league.services.organization`):
all or nothing, every refusal with its code."""

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from league.errors import LeagueError
from league.models import Event, League, Player
from league.services import organization
from league.services.organization import NewPlayer, handle_from_name
from league.services.organization import leagues as organization_leagues
from league.services.organization import players as organization_players


@pytest.fixture
def league(organizer) -> League:
    league = League.objects.create(name="Lawn", slug="lawn", game="yardzee")
    league.organizers.add(organizer)
    league.players.add(Player.objects.create(display_name="Ana", handle="ana"))
    return league


@pytest.mark.parametrize(
    ("name", "handle"),
    [("Zoë Ná", "zoe-na"), ("  Bo  ", "bo"), ("李雷", "player"), ("x" * 80, "x" * 34)],
)
def test_a_handle_is_made_from_the_name(name, handle):
    assert handle_from_name(name) == handle


@pytest.mark.django_db
def test_players_are_added_with_handles_made_unique(league):
    Player.objects.create(display_name="Someone", handle="bo")
    Player.objects.create(display_name="Someone else", handle="bo-2")
    created = organization.players_create(
        league=league,
        players=[
            NewPlayer(2, "Bo"),
            NewPlayer(3, "Bo Two", "bo-3"),
            NewPlayer(4, "bo!"),  # slugifies to "bo" as well
        ],
    )
    assert [(p.display_name, p.handle) for p in created] == [
        ("Bo", "bo-4"),
        ("Bo Two", "bo-3"),
        ("bo!", "bo-5"),
    ]
    assert set(league.players.values_list("handle", flat=True)) == {"ana", "bo-3", "bo-4", "bo-5"}


@pytest.mark.django_db
def test_one_bad_row_saves_nothing_and_every_bad_row_is_named(league):
    Player.objects.create(display_name="Elsewhere", handle="taken")
    with pytest.raises(LeagueError) as refused:
        organization.players_create(
            league=league,
            players=[
                NewPlayer(2, "Cleo"),
                NewPlayer(3, "ANA"),
                NewPlayer(4, "Dan", "taken"),
                NewPlayer(5, "cleo"),
                NewPlayer(6, "Eve", "not a slug"),
                NewPlayer(7, "Fay", "fay"),
                NewPlayer(8, "Gus", "fay"),
                NewPlayer(9, "   "),
                NewPlayer(10, "Hal\u202e"),
                NewPlayer(11, "y" * 81),
            ],
        )
    assert refused.value.code == "players_invalid"
    assert [(row["row"], row["field"], row["code"]) for row in refused.value.details["rows"]] == [
        (3, "display_name", "name_taken"),
        (4, "handle", "handle_taken"),
        (5, "display_name", "name_repeated"),
        (6, "handle", "invalid_handle"),
        (8, "handle", "handle_repeated"),
        (9, "display_name", "invalid_name"),
        (10, "display_name", "invalid_name"),
        (11, "display_name", "invalid_name"),
    ]
    assert "rows 3, 4, 5, 6, 8, 9, 10, 11" in refused.value.message
    assert "Row 2 has the same name" in refused.value.details["rows"][2]["message"]
    assert list(league.players.values_list("display_name", flat=True)) == ["Ana"]
    assert not Player.objects.filter(display_name="Cleo").exists()


@pytest.mark.django_db
def test_organizers_are_added_and_removed_but_never_the_last(league, organizer):
    helper = User.objects.create_user("helper")
    organization.league_organizer_add(league=league, user=helper)
    assert set(league.organizers.all()) == {organizer, helper}
    with pytest.raises(LeagueError) as again:
        organization.league_organizer_add(league=league, user=helper)
    assert again.value.code == "already_organizer"
    organization.league_organizer_remove(league=league, user=organizer)
    assert list(league.organizers.all()) == [helper]
    with pytest.raises(LeagueError) as last:
        organization.league_organizer_remove(league=league, user=helper)
    assert last.value.code == "last_organizer"
    with pytest.raises(LeagueError) as stranger:
        organization.league_organizer_remove(league=league, user=organizer)
    assert stranger.value.code == "not_organizer"


@pytest.mark.django_db
def test_a_league_changes_its_game_only_before_it_has_events(league):
    league.rules = {"joker": "free_choice"}
    league.save()
    changed = organization.league_update(league=league, game="yardkle")
    assert changed.rules == {"target": 10_000, "entry_minimum": 500}  # the new game's defaults
    Event.objects.create(league=league, name="Night", date="2026-06-01")
    with pytest.raises(LeagueError) as settled:
        organization.league_update(league=league, game="yardzee")
    assert settled.value.code == "game_settled"
    league.refresh_from_db()
    assert league.game == "yardkle"


@pytest.mark.django_db
def test_a_game_change_keeps_a_tiebreak_order_only_if_it_suits_the_new_game(league):
    from league.standings import StandingsError

    organization.league_update(league=league, tiebreak=["points", "yardzees"])
    with pytest.raises(StandingsError) as refused:
        organization.league_update(league=league, game="yardkle")
    assert refused.value.code == "metric_not_for_game"


@pytest.mark.django_db
def test_the_same_points_scheme_written_otherwise_reranks_nothing(league, monkeypatch):
    reranked = []
    monkeypatch.setattr(
        organization_leagues,
        "league_settings_changed",
        lambda league_id: reranked.append(league_id),
    )
    organization.league_update(league=league, points={"win": 3.0, "draw": 1, "placement": {}})
    assert reranked == []
    organization.league_update(league=league, points={"win": 2})
    assert len(reranked) == 1


@pytest.mark.django_db
def test_a_league_address_is_one_league_s(organizer, league):
    with pytest.raises(LeagueError) as taken:
        organization.league_create(name="Lawn 2", slug="lawn", game="yardzee", created_by=organizer)
    assert taken.value.code == "slug_taken"
    assert taken.value.details["field"] == "slug"


@pytest.mark.django_db
def test_an_address_the_organizer_pages_use_is_no_league_s(organizer, league):
    """/organize/leagues/new/ is the page that creates a league: a league there could not
    reach its settings."""
    with pytest.raises(LeagueError) as refused:
        organization.league_create(name="New", slug="new", game="yardzee", created_by=organizer)
    assert refused.value.code == "slug_taken"
    assert refused.value.details == {"field": "slug", "slug": "new"}
    assert not League.objects.filter(slug="new").exists()
    with pytest.raises(LeagueError) as shouted:
        organization.league_create(name="New", slug="NEW", game="yardzee", created_by=organizer)
    assert "(/organize/leagues/new/)" in shouted.value.message  # the page it would shadow


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["new", "taken", "New", "TAKEN"])
def test_a_league_moves_only_to_a_free_address(organizer, league, slug):
    League.objects.create(name="Taken", slug="taken", game="yardzee")
    with pytest.raises(LeagueError) as refused:
        organization.league_update(league=league, slug=slug)
    assert refused.value.code == "slug_taken"
    assert refused.value.details["field"] == "slug"
    league.refresh_from_db()
    assert league.slug == "lawn"
    assert organization.league_update(league=league, slug="lawn").slug == "lawn"  # its own
    assert organization.league_update(league=league, slug="lawn-2").slug == "lawn-2"
    assert organization.league_update(league=league, slug="Lawn-2").slug == "Lawn-2"  # its own


@pytest.mark.django_db
def test_a_handle_is_taken_in_any_case_of_its_letters(league):
    """`@Bo` beside `@bo` reads as the same player: a handle another player has in another case
    is taken, on creation, on a change and in a file of players (where a name's handle moves on
    to "-2"), and a registration's handle finds the player whatever the case."""
    Player.objects.create(display_name="Someone", handle="Bo")
    for call in (
        lambda: organization.player_create(display_name="Other", handle="bo", league=league),
        lambda: organization.player_update(player=Player.objects.get(handle="ana"), handle="BO"),
    ):
        with pytest.raises(LeagueError) as refused:
            call()
        assert refused.value.code == "handle_taken"
        assert refused.value.details["field"] == "handle"
    with pytest.raises(LeagueError) as refused:
        organization.players_create(
            league=league,
            players=[
                NewPlayer(2, "Cleo", "BO"),
                NewPlayer(3, "Dan", "dan"),
                NewPlayer(4, "Dan Two", "DAN"),
            ],
        )
    assert [(r["row"], r["code"]) for r in refused.value.details["rows"]] == [
        (2, "handle_taken"),
        (4, "handle_repeated"),
    ]
    made = organization.players_create(league=league, players=[NewPlayer(2, "bo")])
    assert made[0].handle == "bo-2"
    assert set(Player.objects.values_list("handle", flat=True)) == {"Bo", "ana", "bo-2"}


@pytest.mark.django_db
@pytest.mark.parametrize("model", ["player", "league"])
def test_the_database_holds_a_handle_or_address_unique_in_any_case(model):
    """What the services check first, the database holds too: for two requests at once."""
    make = {
        "player": lambda key: Player.objects.create(display_name=key, handle=key),
        "league": lambda key: League.objects.create(name=key, slug=key, game="yardzee"),
    }[model]
    make("lawn-pals")
    with pytest.raises(IntegrityError), transaction.atomic():
        make("Lawn-Pals")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("write", "code"),
    [
        (lambda o, lg: organization.player_create(display_name="Bo", handle="BO"), "handle_taken"),
        (
            lambda o, lg: organization.player_update(
                player=Player.objects.get(handle="ana"), handle="Bo"
            ),
            "handle_taken",
        ),
        (
            lambda o, lg: organization.players_create(
                league=lg, players=[NewPlayer(2, "Cy", "bO")]
            ),
            "handle_taken",
        ),
        (
            lambda o, lg: organization.league_create(
                name="Yard", slug="TAKEN", game="yardzee", created_by=o
            ),
            "slug_taken",
        ),
        (lambda o, lg: organization.league_update(league=lg, slug="Taken"), "slug_taken"),
    ],
    ids=["player", "rename", "file of players", "league", "league moved"],
)
def test_a_handle_or_address_stored_by_another_request_meanwhile_is_refused_as_taken(
    organizer, league, monkeypatch, write, code
):
    """Another request stored `bo` (or the address `taken`) after this one checked: the
    database refuses the write, and the service says it as its check would, not with a
    server error; the caller's transaction goes on, and nothing of the write is kept."""
    monkeypatch.setattr(organization_players, "ensure_handle_free", lambda *a, **k: None)
    monkeypatch.setattr(organization_leagues, "check_slug", lambda *a, **k: None)
    monkeypatch.setattr(organization_players, "handles_in_use", lambda *a, **k: set())
    Player.objects.create(display_name="Someone", handle="bo")
    League.objects.create(name="Taken", slug="taken", game="yardzee")
    players, leagues = Player.objects.count(), League.objects.count()
    with transaction.atomic():
        with pytest.raises(LeagueError) as refused:
            write(organizer, league)
        assert refused.value.code == code
        assert Player.objects.count() == players  # the transaction is usable still
    assert (Player.objects.count(), League.objects.count()) == (players, leagues)
    assert set(Player.objects.values_list("handle", flat=True)) == {"ana", "bo"}
    assert set(League.objects.values_list("slug", flat=True)) == {"lawn", "taken"}
