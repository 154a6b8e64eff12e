"""Running an event from the organizer pages (issue 17, "Event", "Event close/reopen"): events
created, stages added, changed, deleted and started through the forms with the API's checks
(the service's sentence shown, nothing saved), each round's tables, closing (refused while a
match is played, naming it), reopening, withdrawals; 403 for anyone but the league's
organizers, and query counts that do not grow with the event."""

import re
from collections.abc import Sequence
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

import scoring
from games import services as game_services
from games.models import Match
from league.models import Event, EventStatus, League, Player, Stage, StageStatus
from league.services import stages as stage_services
from organize import selectors
from scoring import simulate
from tests.playing import fed_stage

pytestmark = pytest.mark.django_db


def roster(league: League, count: int, prefix: str = "Player") -> list[Player]:
    """`count` players on the league's roster, named so that they sort in order."""
    players = Player.objects.bulk_create(
        Player(display_name=f"{prefix} {i:02d}", handle=f"{prefix.lower()}-{league.pk}-{i}")
        for i in range(1, count + 1)
    )
    league.players.add(*players)
    return list(players)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def as_organizer(organizer: User) -> Client:
    return signed_in(organizer)


def stage_form(
    name: str,
    players: Sequence[Player] = (),
    *,
    seeds: dict[int, int] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """A POST of the stage form: a round robin of pairs of `players` unless told otherwise."""
    data: dict[str, Any] = {
        "name": name,
        "format": "round_robin",
        "source_stage": "",
        "table_size": 2,
        "advance": 1,
        "groups": 1,
        "rounds": "",
        "tiebreak": "",
        "seeding": "manual",
        "participants": [p.pk for p in players],
        "grand_final_reset": "on",
        "source_best_rest": 0,
        **options,
    }
    for player, seed in (seeds or {}).items():
        data[f"seed_{player}"] = seed
    return data


def drafted(event: Event, players: list[Player], **options: Any) -> Stage:
    """A stage of `players` not started yet: a round robin "Pool", unless `options` say."""
    return stage_services.stage_create(
        event_id=event.pk,
        name=options.pop("name", "Pool"),
        format=options.pop("format", "round_robin"),
        player_ids=[p.pk for p in players],
        **options,
    )


def started(event: Event, players: list[Player], **options: Any) -> Stage:
    stage = drafted(event, players, **options)
    return stage_services.stage_start(stage_id=stage.pk)


def _game(match: Match, seed: int) -> list[dict[str, Any]]:
    game = scoring.new_game(match.game, match.seats.count(), match.rules)
    return list(simulate.play_game(game, seed=seed))


def first_turn(match: Match) -> None:
    """The match's first turn (of the simulator's game with seed 1)."""
    game_services.turn_submit(match_id=match.pk, turn=_game(match, 1)[0])


def play_out(match: Match, seed: int = 1) -> None:
    """Play the match to its end: the simulator's game, or the rest of it after
    `first_turn`."""
    played = Match.objects.get(pk=match.pk).turns_played
    turns = _game(match, seed)
    if not played:
        game_services.result_submit(match_id=match.pk, turns=turns)
    for turn in turns[played:] if played else []:
        game_services.turn_submit(match_id=match.pk, turn=turn)


# --- Events -----------------------------------------------------------------------------------


def test_an_organizer_creates_an_event_on_the_leagues_events_page(as_organizer, yardzee_league):
    page = as_organizer.get("/organize/leagues/yardzee/events/")
    assert page.status_code == 200
    assert "New event" in page.content.decode()
    created = as_organizer.post(
        "/organize/leagues/yardzee/events/",
        {"name": "Week 2", "date": "2026-06-08", "venue": "Back lawn"},
    )
    event = Event.objects.get(name="Week 2")
    assert created.status_code == 302
    assert created["Location"] == f"/organize/events/{event.pk}/"
    assert (event.league, event.venue, str(event.date)) == (
        yardzee_league,
        "Back lawn",
        "2026-06-08",
    )
    listing = as_organizer.get("/organize/leagues/yardzee/events/").content.decode()
    assert f'href="/organize/events/{event.pk}/"' in listing


def test_an_event_name_the_service_refuses_is_shown_on_the_form_and_nothing_is_saved(
    as_organizer, yardzee_league
):
    page = as_organizer.post(
        "/organize/leagues/yardzee/events/", {"name": "Week\u202e 2", "date": "2026-06-08"}
    )
    assert page.status_code == 400
    assert "invisible or control characters" in page.content.decode()
    assert not Event.objects.filter(league=yardzee_league).exists()


# --- Stages -----------------------------------------------------------------------------------


def test_a_stage_added_through_the_form_seeds_its_players_as_numbered(as_organizer, yardzee_event):
    players = roster(yardzee_event.league, 4)
    numbered = {players[2].pk: 1, players[0].pk: 2}
    response = as_organizer.post(
        f"/organize/events/{yardzee_event.pk}/stages/add/",
        stage_form("Pool", players, seeds=numbered),
    )
    stage = Stage.objects.get(event=yardzee_event)
    assert response.status_code == 302
    assert response["Location"] == f"/organize/events/{yardzee_event.pk}/#stage-{stage.pk}"
    seeded = list(stage.entries.order_by("seed").values_list("player_id", flat=True))
    # Numbered first, then the others ticked, in the roster's order.
    assert seeded == [players[2].pk, players[0].pk, players[1].pk, players[3].pk]
    assert (stage.status, stage.format, stage.table_size) == (StageStatus.DRAFT, "round_robin", 2)


def test_one_seed_given_to_two_players_is_refused(as_organizer, yardzee_event):
    players = roster(yardzee_event.league, 4)
    page = as_organizer.post(
        f"/organize/events/{yardzee_event.pk}/stages/add/",
        stage_form("Pool", players, seeds={players[0].pk: 1, players[1].pk: 1}),
    )
    assert page.status_code == 400
    assert "Seed 1 is given to two players." in page.content.decode()
    assert not Stage.objects.exists()


@pytest.mark.parametrize(
    ("options", "sentence"),
    [
        # The draw: three groups of four players cannot each have two.
        ({"groups": 3}, "groups"),
        # The checks of the options: fewer than two players.
        ({"participants": []}, "A stage needs at least 2 participants."),
        # The standings: a metric no table knows.
        ({"tiebreak": "points, luck"}, "Unknown standings metric &#x27;luck&#x27;"),
        # Only the metrics of the league's game are offered (keys, as the field takes them).
        ({"tiebreak": "luck"}, "the metrics of Yardzee leagues: average_score, best_score"),
        ({"tiebreak": "points, points"}, "“Points” appears twice in the tiebreak order."),
    ],
)
def test_a_stage_the_service_refuses_shows_its_sentence_and_is_not_saved(
    as_organizer, yardzee_event, options, sentence
):
    players = roster(yardzee_event.league, 4)
    page = as_organizer.post(
        f"/organize/events/{yardzee_event.pk}/stages/add/", stage_form("Pool", players, **options)
    )
    assert page.status_code == 400
    assert sentence in page.content.decode()
    assert not Stage.objects.exists()


def test_without_scripts_a_button_posts_the_form_for_the_options_of_its_choices(
    as_organizer: Client, yardzee_event: Event
):
    """docs/organizing.md, "Running an event": without JavaScript the page cannot ask for the
    options of a new format by itself; a button (in <noscript>, after the save button, so
    Enter still saves) posts the form with `refresh=1`: the options of the format chosen come
    back, the values typed are kept, and nothing is saved."""
    roster(yardzee_event.league, 4)
    url = f"/organize/events/{yardzee_event.pk}/stages/add/"
    form = as_organizer.get(url).content.decode()
    noscript = form[form.index("<noscript>") : form.index("</noscript>")]
    assert 'name="refresh" value="1"' in noscript
    assert form.index("Add the stage</button>") < form.index("<noscript>")
    asked = {"name": "Finals", "format": "single_elimination", "refresh": "1"}
    page = as_organizer.post(url, asked)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="third_place"' in html
    assert 'value="Finals"' in html
    assert not Stage.objects.exists()


def test_the_form_shows_the_options_of_the_format_source_and_seeding_chosen(
    as_organizer: Client, yardzee_event: Event
):
    roster(yardzee_event.league, 4)
    groups = stage_services.stage_create(
        event_id=yardzee_event.pk,
        name="Groups",
        format="round_robin",
        groups=2,
        player_ids=list(yardzee_event.league.players.values_list("pk", flat=True)),
    )
    url = f"/organize/events/{yardzee_event.pk}/stages/add/"

    def fields(**asked: str) -> str:
        page = as_organizer.get(url, {"refresh": "1", **asked}, HTTP_HX_REQUEST="true")
        assert page.status_code == 200
        return page.content.decode()

    swiss = fields(format="swiss", seeding="rating")
    assert 'name="rounds"' in swiss
    assert 'name="groups"' not in swiss
    assert 'name="participants"' in swiss
    assert 'name="seed_' not in swiss
    single = fields(format="single_elimination", seeding="manual")
    assert 'name="third_place"' in single
    assert 'name="advance"' in single
    assert 'name="seed_' in single
    double = fields(format="double_elimination")
    # A box the page did not show starts as its default; one shown and unticked stays so.
    assert re.search(r'name="grand_final_reset"[^>]*checked', double)
    unticked = fields(format="double_elimination", shown="name,format,grand_final_reset")
    assert not re.search(r'name="grand_final_reset"[^>]*checked', unticked)
    assert 'name="advance" value="1"' in fields(format="single_elimination", shown="groups")
    assert 'name="grand_final_reset"' in double
    assert 'name="table_size"' not in double
    fed = fields(format="single_elimination", source_stage=str(groups.pk))
    assert 'name="source_per_group"' in fed
    assert 'name="source_best_rest"' in fed
    assert 'name="participants"' not in fed
    assert 'name="seeding"' not in fed
    # The fields that change the form ask for it again, without the CSRF token.
    fresh = as_organizer.get(url).content.decode()
    assert 'hx-get="/organize/events/' in fresh
    assert 'hx-params="not csrfmiddlewaretoken"' in fresh


def test_the_form_keeps_what_was_typed_in_options_a_change_hides(
    as_organizer: Client, yardzee_event: Event
):
    """Seeding manual -> random -> manual keeps the seeds typed; a format or a source that
    hides an option, a box or the players keeps them for when it shows them again. What is
    carried hidden is not the stage's: a form sent with an option hidden saves its default."""
    players = roster(yardzee_event.league, 4)
    groups = drafted(yardzee_event, players, name="Groups", groups=2)
    url = f"/organize/events/{yardzee_event.pk}/stages/add/"

    def again(html: str, **changed: str) -> str:
        """The form as the page sends it (its inputs, hidden ones too), changed, asked again."""
        sent: dict[str, list[str]] = {}
        for tag in re.findall(r"<(?:input|select)[^>]*>", html):
            name = re.search(r'name="([^"]+)"', tag)
            if name is None or name.group(1) == "csrfmiddlewaretoken":
                continue
            if 'type="checkbox"' in tag and "checked" not in tag:
                continue
            value = re.search(r'value="([^"]*)"', tag)
            sent.setdefault(name.group(1), []).append(value.group(1) if value else "")
        sent.update({name: [value] for name, value in changed.items()})
        page = as_organizer.get(url, {"refresh": "1", **sent}, HTTP_HX_REQUEST="true")
        assert page.status_code == 200
        return page.content.decode()

    seeded: dict[str, str | list[str]] = {"name": "Cup", "format": "round_robin"}
    seeded |= {"seeding": "manual", "groups": "2"}
    seeded |= {"participants": [str(players[0].pk), str(players[1].pk)]}
    seeded |= {f"seed_{players[0].pk}": "2", f"seed_{players[1].pk}": "1"}
    start = as_organizer.get(url, {"refresh": "1", **seeded}, HTTP_HX_REQUEST="true")
    typed = start.content.decode()
    seed = f'name="seed_{players[0].pk}" value="2"'
    assert seed in typed
    random = again(typed, seeding="random")
    assert f'id="id_seed_{players[0].pk}"' not in random  # not shown,
    assert f'type="hidden" name="seed_{players[0].pk}" value="2"' in random  # carried hidden
    manual = again(random, seeding="manual")
    assert seed in manual
    assert f'name="seed_{players[1].pk}" value="1"' in manual
    # A format without groups, then back: the groups typed; a box unticked stays unticked.
    swiss = again(manual, format="swiss", rounds="3")
    assert 'id="id_groups"' not in swiss
    back = again(swiss, format="round_robin")
    assert re.search(r'name="groups" value="2"[^>]*id="id_groups"', back)
    double = again(back, format="double_elimination")
    unticked = re.sub(r'(name="grand_final_reset"[^>]*?) checked', r"\1", double)
    assert not re.search(r'name="grand_final_reset"[^>]*checked', unticked)
    round_robin = again(unticked, format="round_robin")
    assert 'id="id_grand_final_reset"' not in round_robin
    double_again = again(round_robin, format="double_elimination")
    assert 'id="id_grand_final_reset"' in double_again
    assert not re.search(r'name="grand_final_reset"[^>]*checked', double_again)
    # Players from an earlier stage, then from the roster again: the ticks and seeds typed.
    fed = again(double_again, source_stage=str(groups.pk), format="round_robin")
    assert 'id="plays-' not in fed
    roster_again = again(fed, source_stage="")
    assert re.search(rf'id="plays-{players[0].pk}" checked', roster_again)
    assert not re.search(rf'id="plays-{players[2].pk}" checked', roster_again)
    assert seed in roster_again
    assert 'name="groups" value="2"' in roster_again
    # Sent with options hidden (groups typed, then Swiss chosen): the hidden ones are not saved.
    sent = as_organizer.post(
        url,
        stage_form("Swiss", players, format="swiss", rounds=3, groups=2, seeding="random")
        | {f"seed_{players[0].pk}": 1, "third_place": "on", "grand_final_reset": "false"},
    )
    assert sent.status_code == 302
    stage = Stage.objects.get(name="Swiss")
    assert (stage.groups, stage.rounds, stage.third_place, stage.grand_final_reset) == (
        1,
        3,
        False,
        True,
    )


def test_a_second_stage_of_the_same_name_is_refused_on_its_field(as_organizer, yardzee_event):
    """Sent twice (a page left open, the form sent again), or named as another: the pages
    name stages ("takes the top 2 of Pool"), so two of one name could not be told apart."""
    players = roster(yardzee_event.league, 4)
    url = f"/organize/events/{yardzee_event.pk}/stages/add/"
    assert as_organizer.post(url, stage_form("Pool", players)).status_code == 302
    again = as_organizer.post(url, stage_form("pool", players))
    assert again.status_code == 400
    html = again.content.decode()
    said = f"It is taken: another stage of {yardzee_event.name} is called &#x27;Pool&#x27;"
    assert said in html
    assert 'name="name" value="pool"' in html  # kept as typed, to change
    assert Stage.objects.filter(event=yardzee_event).count() == 1
    final = drafted(yardzee_event, players, name="Final")
    renamed = as_organizer.post(f"/organize/stages/{final.pk}/edit/", stage_form("POOL", players))
    assert renamed.status_code == 400
    assert "It is taken: another stage of" in renamed.content.decode()
    final.refresh_from_db()
    assert final.name == "Final"
    # Its own name, kept while other options change, is no one else's.
    kept = as_organizer.post(f"/organize/stages/{final.pk}/edit/", stage_form("Final", players))
    assert kept.status_code == 302


def test_a_knockout_fed_by_a_group_stage_through_the_form(as_organizer, yardzee_event):
    players = roster(yardzee_event.league, 8)
    as_organizer.post(
        f"/organize/events/{yardzee_event.pk}/stages/add/",
        stage_form("Groups", players, groups=2),
    )
    groups = Stage.objects.get(name="Groups")
    url = f"/organize/events/{yardzee_event.pk}/stages/add/"
    knockout = {
        "name": "Knockout",
        "format": "single_elimination",
        "source_stage": groups.pk,
        "table_size": 2,
        "advance": 1,
        "tiebreak": "",
        "source_top": "",
        "source_per_group": 2,
        "source_best_rest": 0,
    }
    both = as_organizer.post(url, {**knockout, "source_top": 4})
    assert both.status_code == 400
    said = both.content.decode()
    # In the page's words: the API's field names left out of the sentence.
    assert "Take the top N overall or the top N of each group, not both." in said
    assert "(source_" not in said
    rest = as_organizer.post(url, {**knockout, "source_per_group": "", "source_best_rest": 1})
    assert rest.status_code == 400
    said = rest.content.decode()
    assert "It adds the best of the rest to the top of each group: it goes with" in said
    assert "“Or the top of each group”" in said
    assert "with source_per_group" not in said
    assert as_organizer.post(url, knockout).status_code == 302
    stage = Stage.objects.get(name="Knockout")
    assert (stage.source_stage_id, stage.source_per_group, stage.source_top) == (groups.pk, 2, None)
    page = as_organizer.get(f"/organize/events/{yardzee_event.pk}/").content.decode()
    assert "takes the top 2 of each group of Groups" in page
    # It cannot start before Groups has finished: the page says so and offers no Start.
    assert f"/organize/stages/{stage.pk}/start/" not in page
    assert "Starts once Groups has finished." in page
    assert "its players are taken when Groups finishes" in page
    assert f"/organize/stages/{groups.pk}/start/" in page
    Stage.objects.filter(pk=groups.pk).update(status=StageStatus.FINISHED)
    page = as_organizer.get(f"/organize/events/{yardzee_event.pk}/").content.decode()
    assert f"/organize/stages/{stage.pk}/start/" in page
    assert "its players are taken from the earlier stage when it starts" in page


def test_a_draft_stage_is_changed_and_deleted_and_a_started_one_refuses_both(
    as_organizer, yardzee_event
):
    players = roster(yardzee_event.league, 4)
    stage = drafted(yardzee_event, players)
    edit = f"/organize/stages/{stage.pk}/edit/"
    form = as_organizer.get(edit).content.decode()
    assert 'value="Pool"' in form
    changed = as_organizer.post(edit, stage_form("Pool A", players[:3], format="swiss", rounds=2))
    assert changed.status_code == 302
    stage.refresh_from_db()
    assert (stage.name, stage.format, stage.rounds, stage.entries.count()) == (
        "Pool A",
        "swiss",
        2,
        3,
    )

    assert as_organizer.get(f"/organize/stages/{stage.pk}/delete/").status_code == 200
    assert as_organizer.post(f"/organize/stages/{stage.pk}/delete/").status_code == 302
    assert not Stage.objects.filter(pk=stage.pk).exists()

    running = started(yardzee_event, players)
    refused = as_organizer.post(
        f"/organize/stages/{running.pk}/edit/", stage_form("Renamed", players)
    )
    assert refused.status_code == 400
    assert "has started" in refused.content.decode()
    asked = as_organizer.get(f"/organize/stages/{running.pk}/delete/").content.decode()
    assert "Pool has started: it cannot be deleted." in asked  # said first, by name
    assert "<button" not in asked.split("<main", 1)[-1]  # no deletion offered to confirm
    gone = as_organizer.post(f"/organize/stages/{running.pk}/delete/", follow=True)
    assert "Pool has started: it cannot be deleted." in gone.content.decode()
    running.refresh_from_db()
    assert running.name == "Pool"


def test_a_stage_another_takes_its_players_from_is_not_offered_for_deletion(
    as_organizer, yardzee_event
):
    pool = drafted(yardzee_event, roster(yardzee_event.league, 4))
    fed_stage(pool, name="Final", source_top=2)
    url = f"/organize/stages/{pool.pk}/delete/"
    asked = as_organizer.get(url).content.decode()
    said = "Final takes its players from Pool: delete it, or give it another source, first."
    assert said in asked
    assert "<button" not in asked.split("<main", 1)[-1]
    assert f"stage {pool.pk}" not in asked
    assert said in as_organizer.post(url, follow=True).content.decode()
    assert Stage.objects.filter(pk=pool.pk).exists()


def test_a_refusal_names_the_stages_and_the_event_it_speaks_of_not_their_ids(
    as_organizer, yardzee_event
):
    """The API's sentences number them ("Stage 12 must finish before this one starts",
    "Event 7 is finished"); the pages name them."""
    pool = started(yardzee_event, roster(yardzee_event.league, 4))
    final = fed_stage(pool, name="Final", source_top=2)
    said = as_organizer.post(f"/organize/stages/{final.pk}/start/", follow=True)
    page = said.content.decode()
    assert "Pool must finish before this one starts." in page
    assert f"Stage {pool.pk}" not in page
    as_organizer.post(f"/organize/events/{yardzee_event.pk}/close/", {"status": "cancelled"})
    refused = as_organizer.post(
        f"/organize/events/{yardzee_event.pk}/close/", {"status": "finished"}
    ).content.decode()
    assert f"{yardzee_event.name} is cancelled: reopen it before closing it as finished" in refused
    assert f"Event {yardzee_event.pk}" not in refused


def test_a_refusal_about_a_field_is_said_on_it_without_its_api_name(as_organizer, yardzee_event):
    page = as_organizer.post(
        f"/organize/leagues/{yardzee_event.league.slug}/events/",
        {"name": "Week\u2066 2", "date": "2026-06-08", "venue": ""},
    )
    assert page.status_code == 400
    html = page.content.decode()
    assert "It holds invisible or control characters (U+2066)" in html
    assert "name holds" not in html


def test_starting_a_stage_seats_its_tables_and_the_page_lists_each_round(
    as_organizer, yardzee_event
):
    stage = drafted(yardzee_event, roster(yardzee_event.league, 4))
    page = as_organizer.post(f"/organize/stages/{stage.pk}/start/", follow=True)
    assert "Pool has started" in page.content.decode()
    stage.refresh_from_db()
    assert stage.status == StageStatus.RUNNING
    html = page.content.decode()
    matches = Match.objects.filter(stage_match__stage=stage)
    assert matches.count() == 6  # three rounds of two pairs
    for number in (1, 2, 3):
        assert f"Round {number}" in html
        assert f'href="/organize/stages/{stage.pk}/rounds/{number}/sheet/"' in html
    for match in matches:
        assert f'href="/matches/{match.pk}/"' in html
        assert f'href="/matches/{match.pk}/score/"' in html
    # The tables refresh themselves while played; the page carries no key.
    assert f'hx-get="/organize/events/{yardzee_event.pk}/tables/"' in html
    assert not any(match.score_key in html for match in matches)
    again = as_organizer.post(f"/organize/stages/{stage.pk}/start/", follow=True)
    assert "has already started" in again.content.decode()


def test_the_tables_give_scores_with_thousands(as_organizer, yardkle_event):
    stage = started(yardkle_event, roster(yardkle_event.league, 2))
    match = Match.objects.get(stage_match__stage=stage)
    play_out(match)
    tables = as_organizer.get(f"/organize/events/{yardkle_event.pk}/tables/").content.decode()
    assert re.search(r'<span class="hint">\(\d{1,3}(,\d{3})+\)</span>', tables), tables
    assert not re.search(r'<span class="hint">\(\d{4,}\)</span>', tables)


def test_the_tables_fragment_stops_refreshing_once_every_table_is_played(
    as_organizer, yardzee_event
):
    stage = started(yardzee_event, roster(yardzee_event.league, 2))
    url = f"/organize/events/{yardzee_event.pk}/tables/"
    assert "hx-trigger" in as_organizer.get(url).content.decode()
    play_out(Match.objects.get(stage_match__stage=stage))
    fragment = as_organizer.get(url).content.decode()
    assert "Finished" in fragment
    assert "hx-trigger" not in fragment


# --- Closing, reopening -----------------------------------------------------------------------


def test_closing_is_refused_while_a_match_is_played_and_the_page_names_it(
    as_organizer, yardzee_event
):
    stage = started(yardzee_event, roster(yardzee_event.league, 4))
    playing = Match.objects.filter(stage_match__stage=stage).order_by("pk").first()
    first_turn(playing)
    url = f"/organize/events/{yardzee_event.pk}/close/"
    assert as_organizer.get(url).status_code == 200
    refused = as_organizer.post(url, {"status": "finished"})
    html = refused.content.decode()
    assert refused.status_code == 400
    assert "finish or void them before closing it" in html
    # The page names the event and numbers the match as its pages do, not by the API's ids.
    assert f"{yardzee_event.name} still has matches being played (#{playing.pk})" in html
    assert f"Event {yardzee_event.pk}" not in html
    assert f'href="/matches/{playing.pk}/"' in html
    assert f"Match #{playing.pk}" in html
    yardzee_event.refresh_from_db()
    assert yardzee_event.status == EventStatus.RUNNING


def test_an_event_is_closed_as_cancelled_and_reopened(as_organizer, yardzee_event):
    closed = as_organizer.post(
        f"/organize/events/{yardzee_event.pk}/close/", {"status": "cancelled"}
    )
    assert closed.status_code == 302
    yardzee_event.refresh_from_db()
    assert yardzee_event.status == EventStatus.CANCELLED
    page = as_organizer.get(f"/organize/events/{yardzee_event.pk}/").content.decode()
    assert "Reopen the event" in page
    assert "Add a stage" not in page
    # Finished after cancelled goes through a reopen: the service's sentence, on the form.
    twice = as_organizer.post(f"/organize/events/{yardzee_event.pk}/close/", {"status": "finished"})
    assert "reopen it before closing it as finished" in twice.content.decode()
    assert f"{yardzee_event.name} is cancelled: reopen it" in twice.content.decode()
    assert f"Event {yardzee_event.pk}" not in twice.content.decode()
    # The close page of a closed event says so and offers a reopen, not a close refused.
    close_page = as_organizer.get(f"/organize/events/{yardzee_event.pk}/close/").content.decode()
    assert f"{yardzee_event.name} is cancelled already." in close_page
    assert "Close the event</button>" not in close_page
    assert f'action="/organize/events/{yardzee_event.pk}/reopen/"' in close_page
    reopened = as_organizer.post(f"/organize/events/{yardzee_event.pk}/reopen/", follow=True)
    assert "is open again (Upcoming)" in reopened.content.decode()
    yardzee_event.refresh_from_db()
    assert yardzee_event.status == EventStatus.UPCOMING
    # Sent again (a second submit): it was not closed, and the page does not say it reopened.
    again = as_organizer.post(f"/organize/events/{yardzee_event.pk}/reopen/", follow=True)
    assert "is not closed: there is nothing to reopen." in again.content.decode()
    assert "is open again" not in again.content.decode()


def test_a_stage_added_to_a_closed_event_is_refused(as_organizer, yardzee_event):
    players = roster(yardzee_event.league, 4)
    as_organizer.post(f"/organize/events/{yardzee_event.pk}/close/", {"status": "finished"})
    page = as_organizer.post(
        f"/organize/events/{yardzee_event.pk}/stages/add/", stage_form("Pool", players)
    )
    assert page.status_code == 400
    assert "reopen" in page.content.decode().lower()
    assert not Stage.objects.exists()


# --- Withdrawals ------------------------------------------------------------------------------


def checked_of(page: Any) -> str:
    """The fingerprint a withdrawal's preview sends back with its confirmation."""
    found = re.search(r'name="checked" value="([0-9a-f]{64})"', page.content.decode())
    assert found, "no preview to confirm"
    return found[1]


def mid_table(event: Event) -> tuple[Stage, Player, Match, str]:
    """A round robin of 4 started, the first player's first table being played: the stage,
    that player, that match and the event's withdrawal page."""
    players = roster(event.league, 4)
    stage = started(event, players)
    playing = (
        Match.objects.filter(stage_match__stage=stage, seats__player=players[0])
        .order_by("pk")
        .first()
    )
    assert playing is not None
    first_turn(playing)
    return stage, players[0], playing, f"/organize/events/{event.pk}/withdraw/"


def test_withdrawing_a_player_from_the_event_says_what_changed(as_organizer, yardzee_event):
    stage, leaving, playing, url = mid_table(yardzee_event)
    form = as_organizer.get(url).content.decode()
    assert f'<option value="{leaving.pk}">{leaving.display_name}</option>' in form
    # First what it would do, and nothing changes until it is confirmed.
    before = list(Match.objects.filter(stage_match__stage=stage).values_list("pk", "status"))
    checked = as_organizer.post(url, {"player": leaving.pk, "stage": ""})
    assert checked.status_code == 200
    preview = checked.content.decode()
    assert f"Withdrawing {leaving.display_name} does this" in preview
    assert "2 tables to be decided as a walkover." in preview
    assert f"Match #{playing.pk}</a> is being played: finish or void it." in preview
    assert f'<button type="submit">Withdraw {leaving.display_name}</button>' in preview
    assert (
        list(Match.objects.filter(stage_match__stage=stage).values_list("pk", "status")) == before
    )
    assert stage.entries.get(player=leaving).withdrawn_at is None
    confirmed = {"player": leaving.pk, "stage": "", "confirm": "1", "checked": checked_of(checked)}
    done = as_organizer.post(url, confirmed)
    assert done.status_code == 302
    assert done["Location"] == url
    page = as_organizer.get(url)
    html = page.content.decode()
    assert f"{leaving.display_name} is withdrawn." in html
    assert "2 tables decided as a walkover." in html
    assert f"Match #{playing.pk}</a> is being played: finish or void it." in html
    offered = html[html.index('name="player"') : html.index("</select>")]
    assert f'<option value="{leaving.pk}">' not in offered  # no longer entered
    # Said once: a reload shows the form alone.
    assert "What changed" not in as_organizer.get(url).content.decode()
    # Sent again (a second submit): refused with the reason, nothing changed.
    again = as_organizer.post(url, {"player": leaving.pk, "stage": ""})
    assert again.status_code == 400
    said = again.content.decode()
    assert (
        f"{leaving.display_name} has already withdrawn from every stage of "
        f"{yardzee_event.name} they are entered in."
    ) in said
    assert f"Player {leaving.pk}" not in said
    stranger = as_organizer.post(url, {"player": 999999, "stage": ""})
    assert stranger.status_code == 400
    assert "Select a valid choice" in stranger.content.decode()


def test_withdrawing_a_player_with_no_stage_left_to_play_says_so(as_organizer, yardzee_event):
    """Every stage they entered has finished (the event reopened, say, to add one): the
    withdrawal only marks their entries, and the page says that rather than an empty "What
    changed"."""
    players = roster(yardzee_event.league, 2)
    stage = started(yardzee_event, players)
    play_out(Match.objects.get(stage_match__stage=stage))
    stage.refresh_from_db()
    assert stage.status == StageStatus.FINISHED
    as_organizer.post(f"/organize/events/{yardzee_event.pk}/reopen/")
    url = f"/organize/events/{yardzee_event.pk}/withdraw/"
    chosen = {"player": players[0].pk, "stage": ""}
    checked = checked_of(as_organizer.post(url, chosen))
    assert as_organizer.post(url, {**chosen, "confirm": "1", "checked": checked}).status_code == 302
    html = as_organizer.get(url).content.decode()
    changes = html[html.index('id="changes-heading"') : html.index("</section>")]
    assert f"No stage of {yardzee_event.name} was left for them to play" in changes


@pytest.mark.parametrize(
    ("count", "status", "would", "says", "left"),
    [
        (
            3,
            200,
            "they are taken off its players (it has not started).",
            "taken off its players (it had not started).",
            [0, 2],
        ),
        # Refused: shown on the form when checked, and when confirmed from a page left open.
        (2, 400, "A stage needs at least 2 participants", "A stage needs at least 2", [0, 1]),
    ],
)
def test_withdrawing_from_a_draft_stage_takes_the_player_off_it_or_says_why_not(
    as_organizer, yardzee_event, count, status, would, says, left
):
    players = roster(yardzee_event.league, count)
    stage = drafted(yardzee_event, players)
    url = f"/organize/events/{yardzee_event.pk}/withdraw/"
    checked = as_organizer.post(url, {"player": players[1].pk, "stage": stage.pk})
    assert checked.status_code == status
    assert would in checked.content.decode()
    assert stage.entries.count() == count  # checking changes nothing
    fingerprint = checked_of(checked) if status == 200 else ""
    page = as_organizer.post(
        url,
        {"player": players[1].pk, "stage": stage.pk, "confirm": "1", "checked": fingerprint},
        follow=True,
    )
    assert page.status_code == status
    assert says in page.content.decode()
    seated = stage.entries.values_list("player_id", flat=True).order_by("seed")
    assert list(seated) == [players[i].pk for i in left]


@pytest.mark.parametrize("sent", ["as checked", "unchecked"])
def test_a_withdrawal_confirmed_after_its_tables_changed_shows_what_it_does_now_and_does_nothing(
    as_organizer, yardzee_event, sent
):
    """The organizer checked the withdrawal while a table of theirs was being played; it
    finished before they confirmed. The confirmation does nothing and shows what it does now
    (with a fingerprint to confirm that); a confirmation without a check does the same."""
    stage, leaving, playing, url = mid_table(yardzee_event)
    chosen = {"player": leaving.pk, "stage": ""}
    first = as_organizer.post(url, chosen)
    assert f"Match #{playing.pk}</a> is being played" in first.content.decode()
    play_out(playing)
    before = list(Match.objects.filter(stage_match__stage=stage).values_list("pk", "status"))
    checked = checked_of(first) if sent == "as checked" else ""
    stale = as_organizer.post(url, {**chosen, "confirm": "1", "checked": checked})
    assert stale.status_code == 200
    page = stale.content.decode()
    said = "has changed since it was checked" if checked else "check what it does first"
    assert said in page
    assert "is being played" not in page
    assert f'<button type="submit">Withdraw {leaving.display_name}</button>' in page
    assert (
        list(Match.objects.filter(stage_match__stage=stage).values_list("pk", "status")) == before
    )
    assert stage.entries.get(player=leaving).withdrawn_at is None
    # Confirmed as it is now: done.
    now = {**chosen, "confirm": "1", "checked": checked_of(stale)}
    assert as_organizer.post(url, now).status_code == 302
    assert stage.entries.get(player=leaving).withdrawn_at is not None


def test_the_tables_and_the_round_sheet_say_who_forfeited_a_walkover(as_organizer, yardzee_event):
    players = roster(yardzee_event.league, 4)
    stage = started(yardzee_event, players)
    leaving = players[0]
    stage_services.stage_withdraw(stage_id=stage.pk, player_id=leaving.pk)
    walkovers = stage.stage_matches.filter(walkover=True)
    assert walkovers.count() == 3  # a round robin of 4: one table a round is theirs
    tables = as_organizer.get(f"/organize/events/{yardzee_event.pk}/tables/").content.decode()
    lines = [line for line in tables.splitlines() if "status-walkover" in line]
    assert len(lines) == 3
    assert all(
        f'<span class="note">({leaving.display_name} withdrew)</span>' in line for line in lines
    )
    played = [line for line in tables.splitlines() if "status-scheduled" in line]
    assert played
    assert not any("withdrew" in line for line in played)
    sheet = as_organizer.get(f"/organize/stages/{stage.pk}/rounds/1/sheet/").content.decode()
    assert f"(walkover: {leaving.display_name} withdrew)</li>" in sheet


def test_the_matches_a_refused_close_names_are_read_in_two_queries_however_many(yardzee_event):
    stage = started(yardzee_event, roster(yardzee_event.league, 6))
    ids = list(Match.objects.filter(stage_match__stage=stage).values_list("pk", flat=True))
    Match.objects.filter(pk=min(ids)).update(table_label="Yard 1", planned_zone="Europe/London")
    assert len(ids) > 3
    with CaptureQueriesContext(connection) as captured:
        rows = selectors.event_matches(yardzee_event, ids)
    assert len(captured) == 2  # the matches, then their seats and players
    assert [row.match for row in rows] == sorted(ids)
    assert (rows[0].table_label, rows[0].time_zone) == ("Yard 1", "Europe/London")
    assert all(len(row.seats) == 2 for row in rows)


# --- Who may -----------------------------------------------------------------------------------


def organizer_pages(event: Event) -> dict[str, list[str]]:
    """Every organizer page of an event, by method."""
    stage = Stage.objects.filter(event=event).order_by("pk").first()
    match = Match.objects.filter(event=event).order_by("pk").first()
    assert stage is not None
    assert match is not None
    return {
        "get": [
            f"/organize/leagues/{event.league.slug}/events/",
            f"/organize/events/{event.pk}/",
            f"/organize/events/{event.pk}/tables/",
            f"/organize/events/{event.pk}/stages/add/",
            f"/organize/events/{event.pk}/close/",
            f"/organize/events/{event.pk}/withdraw/",
            f"/organize/stages/{stage.pk}/edit/",
            f"/organize/stages/{stage.pk}/delete/",
            f"/organize/stages/{stage.pk}/sheet/",
            f"/organize/stages/{stage.pk}/sheet/live/?tables={match.pk}",
            f"/organize/stages/{stage.pk}/rounds/1/sheet/",
            f"/organize/matches/{match.pk}/sheet/",
            f"/organize/matches/{match.pk}/sheet/live/",
        ],
        "post": [
            f"/organize/leagues/{event.league.slug}/events/",
            f"/organize/events/{event.pk}/stages/add/",
            f"/organize/events/{event.pk}/close/",
            f"/organize/events/{event.pk}/reopen/",
            f"/organize/events/{event.pk}/withdraw/",
            f"/organize/stages/{stage.pk}/edit/",
            f"/organize/stages/{stage.pk}/delete/",
            f"/organize/stages/{stage.pk}/start/",
        ],
    }


@pytest.fixture
def running_event(yardzee_event: Event) -> Event:
    started(yardzee_event, roster(yardzee_event.league, 4))
    return yardzee_event


def test_every_organizer_page_is_403_for_another_leagues_organizer_and_changes_nothing(
    other_organizer, player_account, running_event
):
    pages = organizer_pages(running_event)
    for user in (other_organizer, player_account):
        client = signed_in(user)
        for url in pages["get"]:
            assert client.get(url).status_code == 403, (user.username, url)
        for url in pages["post"]:
            assert client.post(url, {"status": "cancelled", "name": "X"}).status_code == 403, url
    running_event.refresh_from_db()
    assert running_event.status == EventStatus.RUNNING  # its stage has started (issue 38, item 9)
    assert Stage.objects.filter(event=running_event).count() == 1


def test_every_organizer_page_sends_the_anonymous_to_sign_in(running_event):
    pages = organizer_pages(running_event)
    client = Client()
    for url in pages["get"]:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/login/?next="), url
    for url in pages["post"]:
        assert client.post(url).status_code == 302, url


def test_staff_may_organize_any_league(staff, running_event):
    assert signed_in(staff).get(f"/organize/events/{running_event.pk}/").status_code == 200


# --- The public pages' links ------------------------------------------------------------------


def test_the_public_event_page_links_its_organizers_to_their_pages_and_no_one_else(
    as_organizer, other_organizer, running_event
):
    stage = Stage.objects.get(event=running_event)
    url = f"/events/{running_event.pk}/"
    mine = as_organizer.get(url).content.decode()
    assert f'href="/organize/events/{running_event.pk}/"' in mine
    assert f'href="/organize/stages/{stage.pk}/sheet/"' in mine
    keys = list(Match.objects.filter(event=running_event).values_list("score_key", flat=True))
    for reader in (Client(), signed_in(other_organizer)):
        page = reader.get(url).content.decode()
        assert "/organize/events/" not in page
        assert "/organize/stages/" not in page
        assert "Round sheet" not in page
        assert not any(key in page for key in keys)
    # The refreshing part is the same for everyone: no organizer link in it.
    assert (
        "/organize/" not in as_organizer.get(f"/events/{running_event.pk}/live/").content.decode()
    )


def test_the_public_match_page_shows_keep_score_and_round_sheet_to_its_organizers_only(
    as_organizer, other_organizer, running_event
):
    match = Match.objects.filter(event=running_event).order_by("pk").first()
    mine = as_organizer.get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/score/"' in mine
    assert f'href="/organize/matches/{match.pk}/sheet/"' in mine
    for reader in (Client(), signed_in(other_organizer)):
        page = reader.get(f"/matches/{match.pk}/").content.decode()
        assert "/organize/matches/" not in page
        assert "/score/" not in page
        assert match.score_key not in page


# --- Queries ----------------------------------------------------------------------------------


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(captured)


def _event_of(league: League, size: int, name: str) -> Event:
    """An event with a started round robin of `size` players, a turn played, a withdrawal,
    and a draft knockout fed by it."""
    event = Event.objects.create(league=league, name=name, date="2026-06-01")
    players = roster(league, size, prefix=name)
    stage = started(event, players)
    first_turn(Match.objects.filter(stage_match__stage=stage).order_by("pk").first())
    stage_services.stage_withdraw(stage_id=stage.pk, player_id=players[-1].pk)
    fed_stage(stage, name="Final", source_top=2)
    return event


def test_organizer_page_query_counts_do_not_grow_with_the_event(
    as_organizer, yardzee_league, django_assert_max_num_queries
):
    small = _event_of(yardzee_league, 4, "Small")
    large = _event_of(yardzee_league, 16, "Large")

    def pages(event: Event) -> list[str]:
        stage = Stage.objects.get(event=event, name="Pool")
        final = Stage.objects.get(event=event, name="Final")
        return [
            f"/organize/events/{event.pk}/",
            f"/organize/events/{event.pk}/tables/",
            f"/organize/events/{event.pk}/withdraw/",
            f"/organize/events/{event.pk}/close/",
            f"/organize/events/{event.pk}/stages/add/",
            f"/organize/stages/{final.pk}/edit/",
            f"/organize/stages/{stage.pk}/delete/",
        ]

    # The session and its user; the event with its league; whether the user organizes it; its
    # stages with their entrants; their stage matches with their matches; the seats with their
    # players; who forfeited (the withdrawn player's walkovers).
    assert _queries(as_organizer, f"/organize/events/{small.pk}/") == 8
    for few_url, many_url in zip(pages(small), pages(large), strict=True):
        few = _queries(as_organizer, few_url)
        with django_assert_max_num_queries(few):
            as_organizer.get(many_url)
        # (a page that checks what its write would refuse takes the event's lock first as the
        # write does, league.services.locks: two statements)
        assert few <= 16, (few_url, few)
    # The league's events page: one event or two.
    few = _queries(as_organizer, "/organize/leagues/yardzee/events/")
    assert few <= 8
