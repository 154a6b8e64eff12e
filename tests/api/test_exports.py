"""Issue 21, item 6, exports: an event as one JSON file (valid against the schema kept in the
repo: players, stages, matches, every turn, standings) and the same file imported into an empty
league through the services, reproducing every table; bad or foreign files refused with a 4xx
and nothing changed; every CSV the product serves downloads with a file name, the player's
rating history among them."""

import copy
import csv
import io
import json
import random
from typing import Any

import jsonschema
import pytest
from django.contrib.auth.models import User
from django.test import TestCase
from rest_framework.test import APIClient

from games import services as game_services
from games.models import Match, Turn
from league.errors import LeagueError
from league.models import (
    Event,
    League,
    Player,
    PlayerRating,
    Stage,
    StandingsScope,
    StandingsTable,
)
from league.services import exports, stages, standings_refresh
from league.services.organization import event_reopen
from tests.conftest import client_for, next_turn_for
from tests.playing import fed_stage, pad_of, play, play_stage, simulated_turns, start_stage

pytestmark = pytest.mark.django_db


# --- An event played every way ---------------------------------------------------------------


def _players(count: int, prefix: str) -> list[Player]:
    return [
        Player.objects.create(display_name=f"{prefix} {i}", handle=f"{prefix.lower()}-{i}")
        for i in range(1, count + 1)
    ]


def _play_by_api(client: APIClient, match_id: int, seed: int) -> None:
    """A match kept turn by turn through the API, each turn naming its player."""
    rng = random.Random(seed)
    while True:
        body = client.get(f"/api/v1/matches/{match_id}/").json()
        if body["status"] == "finished":
            return
        game = Match.objects.get(pk=match_id).scoring_game()
        answer = client.post(
            f"/api/v1/matches/{match_id}/turns/", next_turn_for(body, game, rng), format="json"
        )
        assert answer.status_code == 201, answer.json()


def _league(slug: str, game: str, organizer: User, **settings: Any) -> League:
    league = League.objects.create(name=slug.title(), slug=slug, game=game, **settings)
    league.organizers.add(organizer)
    return league


@pytest.fixture
def cup(organizer: User) -> Event:
    """A Yardzee cup with its own points: groups of a round robin, a knockout of the top two of
    each group, a Swiss stage, and matches outside the stages (finished, through the API with
    named players, in progress, voided, not started)."""
    league = _league(
        "home-club",
        "yardzee",
        organizer,
        tiebreak=["points", "total_score", "head_to_head"],
        points={"win": 3, "draw": 1, "loss": 0},
    )
    event = Event.objects.create(league=league, name="Summer Cup", date="2026-07-04", venue="Lawn")
    group_players = _players(6, "Ada")
    swiss_players = _players(4, "Bea")
    league.players.add(*group_players, *swiss_players)
    pools = stages.stage_create(
        event_id=event.pk,
        name="Pools",
        format="round_robin",
        player_ids=[p.pk for p in group_players],
        groups=2,
    )
    knockout = fed_stage(pools, source_per_group=2, third_place=True)
    swiss = start_stage(event, "swiss", swiss_players, name="Swiss", rounds=2, seeding="random")
    stages.stage_start(stage_id=pools.pk)
    play_stage(pools, seed=1)
    stages.stage_start(stage_id=knockout.pk)
    play_stage(knockout, seed=40)
    loose = [
        game_services.match_create(
            game="yardzee",
            player_ids=[p.pk for p in players],
            event_id=event.pk,
            league_id=league.pk,
        )
        for players in (
            group_players[:3],
            swiss_players[:2],
            group_players[3:5],
            swiss_players[2:4],
            group_players[4:6],
        )
    ]
    play(loose[0], seed=5)
    _play_by_api(client_for(organizer), loose[1].pk, seed=6)
    play(loose[2], seed=7, turns=5)
    play(loose[3], seed=8)
    game_services.match_void(match_id=loose[3].pk, voided_by=None)
    play_stage(swiss, seed=80)
    standings_refresh.standings_sweep()
    event.refresh_from_db()
    return event


@pytest.fixture
def night(organizer: User) -> Event:
    """A small Yardzee night: a round robin in two groups of two and a match of three outside
    it, all finished."""
    league = _league("home-club", "yardzee", organizer)
    event = Event.objects.create(league=league, name="Night", date="2026-05-01")
    players = _players(4, "Eve")
    stage = start_stage(event, "round_robin", players, name="Pools", groups=2)
    play(
        game_services.match_create(
            game="yardzee",
            player_ids=[p.pk for p in players[:3]],
            event_id=event.pk,
            league_id=league.pk,
        ),
        seed=4,
    )
    play_stage(stage, seed=3)
    standings_refresh.standings_sweep()
    event.refresh_from_db()
    return event


def _table(scope: tuple[str, int], players: dict[int, int] | None = None) -> list[dict[str, Any]]:
    """A stored table's rows, brought up to date as the jobs do, with its players renamed to
    the file's ids (`players`: new id -> file id)."""
    standings_refresh.standings_sweep()
    rows = StandingsTable.objects.get(scope=scope[0], scope_id=scope[1]).rows
    back = players or {}
    return [{**row, "player": back.get(row["player"], row["player"])} for row in rows]


def _empty_league(organizer: User, game: str = "yardzee", suffix: str = "") -> League:
    return _league(f"new-home{suffix}", game, organizer)


def _everything() -> dict[str, int]:
    return {
        "players": Player.objects.count(),
        "events": Event.objects.count(),
        "stages": Stage.objects.count(),
        "matches": Match.objects.count(),
        "turns": Turn.objects.count(),
        "tables": StandingsTable.objects.count(),
    }


# --- Export -------------------------------------------------------------------------------------


def test_item6_the_export_follows_the_schema_and_holds_the_whole_event(cup: Event) -> None:
    response = APIClient().get(f"/api/v1/events/{cup.pk}/export/")
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        f'attachment; filename="home-club-event-{cup.pk}.json"'
    )
    data = response.json()
    schema = json.loads(exports.SCHEMA_PATH.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(data, schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    assert data["format"] == "yard-league/event-export"
    assert data["version"] == 1
    assert data["league"]["points"] == {"win": 3, "draw": 1, "loss": 0}
    assert len(data["players"]) == 10
    assert [s["name"] for s in data["stages"]] == ["Pools", "Knockout", "Swiss"]
    assert len(data["matches"]) == Match.objects.filter(event=cup).count()
    assert (
        sum(len(m["turns"]) for m in data["matches"])
        == Turn.objects.filter(match__event=cup).count()
    )
    statuses = sorted({m["status"] for m in data["matches"]})
    assert statuses == ["finished", "in_progress", "scheduled", "void"]
    knockout = next(s for s in data["stages"] if s["name"] == "Knockout")
    assert knockout["source_stage"] == data["stages"][0]["id"]
    assert all(m["slot"] for m in data["matches"] if m["stage"] == knockout["id"])
    # The tables are the stored ones, computed from the results.
    assert data["standings"]["event"]["rows"] == _table((StandingsScope.EVENT, cup.pk))
    for table in data["standings"]["stages"]:
        assert table["rows"] == _table((StandingsScope.STAGE, table["stage"]))
    # Nothing private: no scoring key, no account, no e-mail address.
    text = response.content.decode()
    assert all(m.score_key not in text for m in Match.objects.filter(event=cup))
    assert "@" not in text
    assert "orga" not in text


def test_item6_the_event_page_links_its_export_and_its_embed(night: Event) -> None:
    page = APIClient().get(f"/events/{night.pk}/").content.decode()
    assert f'href="/api/v1/events/{night.pk}/export/" download' in page
    assert f'href="/embed/events/{night.pk}/standings/"' in page


def test_item6_an_export_of_no_event_is_not_found() -> None:
    response = APIClient().get("/api/v1/events/999999/export/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


# --- Import -------------------------------------------------------------------------------------


def test_item6_an_import_into_an_empty_league_reproduces_every_table(
    cup: Event, organizer: User
) -> None:
    data = APIClient().get(f"/api/v1/events/{cup.pk}/export/").json()
    league = _empty_league(organizer)
    response = _post_import(client_for(organizer), league.slug, data, format="json")
    answer = _done(response)
    event = Event.objects.get(pk=answer["event"])
    assert event.league == league
    assert (event.name, str(event.date), event.venue) == ("Summer Cup", "2026-07-04", "Lawn")
    assert event.status == cup.status
    assert answer["event_url"].endswith(f"/api/v1/events/{event.pk}/")
    back = {new: int(old) for old, new in answer["players"].items()}
    assert len(back) == 10
    # The players are new ones on the league's roster (the handles here were taken).
    assert set(league.players.values_list("pk", flat=True)) == set(back)
    assert not set(back) & {int(old) for old in answer["players"]}
    assert Player.objects.get(pk=min(back)).handle.endswith("-2")
    # Every table, stage by stage, the event's and the league's, is the original's.
    assert _table((StandingsScope.EVENT, event.pk), back) == _table((StandingsScope.EVENT, cup.pk))
    assert _table((StandingsScope.LEAGUE, league.pk), back) == _table(
        (StandingsScope.LEAGUE, cup.league_id)
    )
    new_stages = list(event.stages.order_by("position"))
    old_stages = list(cup.stages.order_by("position"))
    assert [s.status for s in new_stages] == [s.status for s in old_stages]
    for new_stage, old_stage in zip(new_stages, old_stages, strict=True):
        assert _table((StandingsScope.STAGE, new_stage.pk), back) == _table(
            (StandingsScope.STAGE, old_stage.pk)
        )
        assert [[back[p] for p in tier] for tier in new_stage.ranking] == old_stage.ranking
    # Every match is there, as it was: status, seats, totals, every turn.
    for old_id, new_id in answer["matches"].items():
        old, new = Match.objects.get(pk=int(old_id)), Match.objects.get(pk=new_id)
        assert (new.status, new.turns_played, new.state) == (
            old.status,
            old.turns_played,
            old.state,
        )
        assert [(back[s.player_id], s.total, s.placement) for s in new.seats.all()] == [
            (s.player_id, s.total, s.placement) for s in old.seats.all()
        ]
    assert len(answer["matches"]) == Match.objects.filter(event=cup).count()
    # Ratings follow from the same results in the same order.
    ratings = {
        back[r.player_id]: (round(r.mu, 9), round(r.sigma, 9))
        for r in PlayerRating.objects.filter(league=league)
    }
    assert ratings == {
        r.player_id: (round(r.mu, 9), round(r.sigma, 9))
        for r in PlayerRating.objects.filter(league=cup.league)
    }
    # Exported again, the copy has the same matches and turns (but for ids and times).
    again = APIClient().get(f"/api/v1/events/{event.pk}/export/").json()
    assert sorted(len(m["turns"]) for m in again["matches"]) == sorted(
        len(m["turns"]) for m in data["matches"]
    )


def test_item6_a_yardkle_event_comes_back_too(organizer: User) -> None:
    league = _league("kle-club", "yardkle", organizer, rules={"target": 3000})
    event = Event.objects.create(league=league, name="Kle night", date="2026-08-01")
    players = _players(6, "Cal")
    stage = start_stage(event, "single_elimination", players, name="Tables of three", table_size=3)
    play_stage(stage, seed=11)
    standings_refresh.standings_sweep()
    data = exports.event_export(event=Event.objects.get(pk=event.pk))
    target = _empty_league(organizer, "yardkle")
    imported = exports.event_import(league=target, data=json.loads(json.dumps(data)))
    back = {new: old for old, new in imported.players.items()}
    assert imported.event.stages.get().status == "finished"
    assert _table((StandingsScope.STAGE, imported.event.stages.get().pk), back) == _table(
        (StandingsScope.STAGE, stage.pk)
    )
    target.refresh_from_db()
    assert target.rules["target"] == 3000


def test_item6_a_stage_not_played_yet_comes_back_with_its_draw(organizer: User) -> None:
    """Its matches were seated by its start, just before the start's time was stored: the
    replay still finds each where the draw put it (the demo's "Pairs evening")."""
    league = _league("pairs", "yardzee", organizer)
    event = Event.objects.create(league=league, name="Pairs evening", date="2026-06-01")
    players = _players(4, "Fay")
    start_stage(event, "round_robin", players, name="Pairs")
    data = json.loads(json.dumps(exports.event_export(event=Event.objects.get(pk=event.pk))))
    imported = exports.event_import(league=_empty_league(organizer), data=data)
    assert len(imported.matches) == 6
    seated = {
        tuple(m.seats.order_by("order").values_list("player_id", flat=True))
        for m in Match.objects.filter(event=imported.event)
    }
    back = {new: old for old, new in imported.players.items()}
    assert {tuple(back[p] for p in seats) for seats in seated} == {
        tuple(s["player"] for s in m["seats"]) for m in data["matches"]
    }


@pytest.mark.parametrize(
    ("fmt", "count", "options"),
    [
        ("swiss", 5, {"rounds": 3}),
        ("double_elimination", 5, {}),
        ("round_robin", 7, {"table_size": 3}),
        ("single_elimination", 9, {"table_size": 3, "seeding": "random"}),
    ],
)
def test_item6_every_format_comes_back(
    organizer: User, fmt: str, count: int, options: dict[str, Any]
) -> None:
    """Byes, a losers bracket and a grand final, tables of three, random seeds: replayed, each
    stage draws and ends as the original did."""
    league = _league("formats", "yardzee", organizer)
    event = Event.objects.create(league=league, name="Formats", date="2026-06-01")
    players = _players(count, "Gil")
    stage = start_stage(event, fmt, players, name=fmt, **options)
    play_stage(stage, seed=50)
    stage.refresh_from_db()
    assert stage.status == "finished"
    data = json.loads(json.dumps(exports.event_export(event=Event.objects.get(pk=event.pk))))
    imported = exports.event_import(league=_empty_league(organizer), data=data)
    back = {new: old for old, new in imported.players.items()}
    copy_stage = imported.event.stages.get()
    assert copy_stage.status == "finished"
    assert [[back[p] for p in tier] for tier in copy_stage.ranking] == stage.ranking
    assert _table((StandingsScope.STAGE, copy_stage.pk), back) == _table(
        (StandingsScope.STAGE, stage.pk)
    )


def _post_import(client: APIClient, slug: str, body: Any, **post: Any) -> Any:
    """POST leagues/{slug}/import/, its job run once the request's transaction commits (as
    in-process jobs run: the test's own transaction never commits)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = client.post(f"/api/v1/leagues/{slug}/import/", body, **post)
    if response.status_code == 202:  # the job as it stands once run
        response.job = client.get(response["Location"]).json()  # type: ignore[attr-defined]
    return response


def _done(response: Any) -> dict[str, Any]:
    """The import's result: accepted (202, the job's URL in `Location`) and, with jobs run in
    the process as in the tests, already done; `event_url` beside its result."""
    assert response.status_code == 202, response.json()
    assert response.json()["status"] in ("pending", "done")
    job: dict[str, Any] = response.job
    assert response["Location"] == job["url"]
    assert job["status"] == "done", job
    return {**job["result"], "event_url": job["event_url"]}


def _refused(
    organizer: User, league: League, body: Any, *, status: int, code: str, **post: Any
) -> dict[str, Any]:
    before = _everything()
    settings = (league.rules, league.tiebreak, league.points)
    response = _post_import(client_for(organizer), league.slug, body, **post)
    answer: dict[str, Any] = response.json()
    if response.status_code == 202:  # refused by its replay, in the job: the job says so
        answer = response.job
        assert answer["status"] == "failed", answer
        assert answer["result"] is None
        answer = answer["error"]
        # what the request would have answered: a replay that does not give the file's results
        # (422), a rule of the league refused (400)
        assert status == (422 if answer["code"] == "import_mismatch" else 400), answer
    else:  # refused before the job: by the request itself
        assert response.status_code == status, response.content
    assert answer["code"] == code, answer
    assert answer["message"]
    assert _everything() == before
    league.refresh_from_db()
    assert (league.rules, league.tiebreak, league.points) == settings
    return answer


def test_item6_a_bad_or_foreign_file_is_refused_and_changes_nothing(
    night: Event, organizer: User
) -> None:
    data = exports.event_export(event=night)
    data = json.loads(json.dumps(data))
    league = _empty_league(organizer)
    _refused(
        organizer,
        league,
        "not json {",
        status=400,
        code="malformed_json",
        content_type="application/json",
    )
    _refused(organizer, league, [1, 2], status=400, code="not_an_event_export", format="json")
    _refused(
        organizer,
        league,
        {"format": "challonge", "tournament": {}},
        status=400,
        code="not_an_event_export",
        format="json",
    )
    _refused(
        organizer,
        league,
        {**data, "version": 2},
        status=400,
        code="unsupported_export_version",
        format="json",
    )
    broken = copy.deepcopy(data)
    broken["matches"][0]["turns"][0]["sequence"] = "one"
    answer = _refused(organizer, league, broken, status=400, code="invalid_export", format="json")
    assert answer["details"]["path"] == "/matches/0/turns/0/sequence"
    missing = {k: v for k, v in data.items() if k != "players"}
    _refused(organizer, league, missing, status=400, code="invalid_export", format="json")
    stray = copy.deepcopy(data)
    stray["matches"][0]["seats"][0]["player"] = 999999
    answer = _refused(organizer, league, stray, status=400, code="invalid_export", format="json")
    assert answer["details"]["path"] == "/matches/0/seats"
    # A turn changed by hand: the rulebook or the tables give it away, late in the replay.
    cheated = copy.deepcopy(data)
    last = next(m for m in reversed(cheated["matches"]) if m["status"] == "finished")
    last["turns"][-1]["payload"].pop("category", None)
    last["turns"][-1]["payload"].pop("throws", None)
    _refused(organizer, league, cheated, status=422, code="import_mismatch", format="json")
    # A table that does not follow from the matches.
    tampered = copy.deepcopy(data)
    tampered["standings"]["event"]["rows"][0]["wins"] += 1
    answer = _refused(
        organizer, league, tampered, status=422, code="import_mismatch", format="json"
    )
    assert answer["details"] == {"table": "event"}
    # A league of another game, and one that is not empty.
    kle = _league("kle", "yardkle", organizer)
    _refused(organizer, kle, data, status=400, code="wrong_game", format="json")
    _refused(organizer, night.league, data, status=409, code="league_not_empty", format="json")


def _crafted(data: dict[str, Any], name: str) -> dict[str, Any]:
    """The file with one thing changed by hand, as a hostile or careless editor would."""
    crafted = copy.deepcopy(data)
    first_match, first_stage = crafted["matches"][0], crafted["stages"][0]
    if name == "a time that is no time":
        first_match["turns"][0]["submitted_at"] = "yesterday"
    elif name == "a time without its offset":
        first_match["finished_at"] = "2026-05-01T10:00:00"
    elif name == "a date for a time":
        first_match["created_at"] = "2026-05-01"
    elif name == "a withdrawal at no time":
        first_stage["entries"][0]["withdrawn_at"] = "soon"
    elif name == "a stage fed by itself":
        first_stage["source_stage"] = first_stage["id"]
    elif name == "a stage fed by a later one":
        later = {**copy.deepcopy(first_stage), "id": 777, "position": 9, "status": "draft"}
        crafted["stages"].append({**later, "started_at": None, "entries": [], "voids": []})
        first_stage["source_stage"] = 777
    elif name.startswith("a draft fed stage's entries"):
        player = first_stage["entries"][0]["player"]
        kept = [{"player": player, "seed": 1, "group": 1, "withdrawn": False, "withdrawn_at": None}]
        if name.endswith("seed beyond the database"):
            kept[0]["seed"] = 40000
        elif name.endswith("group beyond the stage's"):
            kept[0]["group"] = 40000
        else:  # a player twice
            kept.append({**kept[0], "seed": 2})
        fed = {**copy.deepcopy(first_stage), "id": 778, "position": 9, "status": "draft"}
        fed |= {"source_stage": first_stage["id"], "source_top": 2, "source_per_group": None}
        fed |= {"groups": 1, "started_at": None, "finished_at": None, "voids": []}
        crafted["stages"].append(fed | {"entries": kept, "forfeits": [], "byes": []})
    elif name == "rounds beyond the database":
        first_stage["rounds"] = 10**9
    elif name == "a turn naming a list as its player":
        first_match["turns"][0]["payload"]["player"] = [1]
    elif name == "points beyond the exact sums":
        crafted["league"]["points"] = {"win": 10**30}
    return crafted


@pytest.mark.parametrize(
    ("name", "status", "code"),
    [
        ("a time that is no time", 400, "invalid_export"),
        ("a time without its offset", 400, "invalid_export"),
        ("a date for a time", 400, "invalid_export"),
        ("a withdrawal at no time", 400, "invalid_export"),
        ("a stage fed by itself", 400, "invalid_export"),
        ("a stage fed by a later one", 400, "invalid_export"),
        ("rounds beyond the database", 400, "invalid_option"),
        ("a draft fed stage's entries: a seed beyond the database", 400, "invalid_option"),
        ("a draft fed stage's entries: a group beyond the stage's", 400, "invalid_option"),
        ("a draft fed stage's entries: a player twice", 400, "invalid_option"),
        ("a turn naming a list as its player", 422, "import_mismatch"),
        ("points beyond the exact sums", 400, "league_points"),
    ],
)
def test_item6_a_crafted_file_is_a_4xx_with_a_code_never_a_500(
    night: Event, organizer: User, name: str, status: int, code: str
) -> None:
    """Each had been taken (201, a time that is no time) or answered 500 (a KeyError, a naive
    and an aware time compared, smallint out of range, an unhashable list, an int64 overflow)."""
    data = json.loads(json.dumps(exports.event_export(event=night)))
    _refused(
        organizer,
        _empty_league(organizer),
        _crafted(data, name),
        status=status,
        code=code,
        format="json",
    )


def test_item6_only_the_league_organizers_import(night: Event, organizer: User, other_organizer):
    data = exports.event_export(event=night)
    league = _empty_league(organizer)
    before = _everything()
    anonymous = APIClient().post(f"/api/v1/leagues/{league.slug}/import/", data, format="json")
    assert anonymous.status_code == 401
    stranger = client_for(other_organizer).post(
        f"/api/v1/leagues/{league.slug}/import/", data, format="json"
    )
    assert stranger.status_code == 403
    assert stranger.json()["code"] == "permission_denied"
    assert (
        client_for(organizer).post("/api/v1/leagues/nope/import/", data, format="json").status_code
        == 404
    )
    assert _everything() == before


@pytest.mark.parametrize(
    "change", ["withdrawal", "forfeit", "void and replay", "walkover awarded", "no result"]
)
def test_item6_withdrawals_forfeits_and_voids_inside_stages_come_back(
    organizer: User, change: str
) -> None:
    """A round robin and a knockout where a player withdrew, did not show, or a match was
    voided (replayed, a walkover awarded, or no result): the file has each void and forfeit,
    and the import replays them at their time through the services; every table matches."""
    league = _league("leavers", "yardzee", organizer)
    event = Event.objects.create(league=league, name="Night", date="2026-06-01")
    players = _players(5, "Dee")
    knock = _players(4, "Kay")
    league.players.add(*players, *knock)
    stage = stages.stage_create(
        event_id=event.pk, name="RR", format="round_robin", player_ids=[p.pk for p in players]
    )
    knockout = stages.stage_create(
        event_id=event.pk,
        name="KO",
        format="single_elimination",
        player_ids=[p.pk for p in knock],
    )
    stages.stage_start(stage_id=stage.pk)
    stages.stage_start(stage_id=knockout.pk)
    target = stage if change in ("withdrawal", "forfeit", "no result") else knockout
    first = Match.objects.filter(stage_match__stage=target).order_by("pk").first()
    seated = list(first.seats.order_by("order").values_list("player_id", flat=True))
    if change == "withdrawal":
        play(first, seed=1)
        stages.stage_withdraw(stage_id=stage.pk, player_id=seated[0])
    elif change == "forfeit":
        stages.stage_forfeit(stage_match_id=first.stage_match.pk, player_id=seated[1])
    elif change == "void and replay":
        play(first, seed=1)
        game_services.match_void(match_id=first.pk, voided_by=None, then={"outcome": "replay"})
    elif change == "walkover awarded":
        play(first, seed=1, turns=4)
        game_services.match_void(
            match_id=first.pk,
            voided_by=None,
            then={"outcome": "walkover", "forfeits": [seated[0]]},
        )
    else:
        play(first, seed=1)
        game_services.match_void(match_id=first.pk, voided_by=None, then={"outcome": "no_result"})
    play_stage(stage, seed=20)
    play_stage(knockout, seed=30)
    event.refresh_from_db()
    data = exports.event_export(event=event)
    assert all(m["stage"] is not None for m in data["matches"])
    assert sum(len(s["voids"]) for s in data["stages"]) >= 1
    _comes_back(organizer, event)


def _comes_back(organizer: User, event: Event) -> Event:
    """Export `event` and import the file into an empty league through the API; every stage's
    status and entries (seeds, groups, who withdrew), every table and every void come back as
    the original's. The copy."""
    standings_refresh.standings_sweep()
    event.refresh_from_db()
    data = APIClient().get(f"/api/v1/events/{event.pk}/export/").json()
    jsonschema.validate(data, exports.export_schema())
    response = _post_import(
        client_for(organizer), _empty_league(organizer).slug, data, format="json"
    )
    answer = _done(response)
    back = {new: int(old) for old, new in answer["players"].items()}
    copy = Event.objects.get(pk=answer["event"])
    assert copy.status == event.status
    for new_stage, old_stage in zip(
        copy.stages.order_by("position"), event.stages.order_by("position"), strict=True
    ):
        assert new_stage.status == old_stage.status
        assert [
            (back[e.player_id], e.seed, e.group, e.withdrawn_at is not None)
            for e in new_stage.entries.order_by("seed")
        ] == [
            (e.player_id, e.seed, e.group, e.withdrawn_at is not None)
            for e in old_stage.entries.order_by("seed")
        ]
        assert _table((StandingsScope.STAGE, new_stage.pk), back) == _table(
            (StandingsScope.STAGE, old_stage.pk)
        )
    assert _table((StandingsScope.EVENT, copy.pk), back) == _table((StandingsScope.EVENT, event.pk))
    assert sorted(Match.objects.filter(event=copy).values_list("status", flat=True)) == sorted(
        Match.objects.filter(event=event).values_list("status", flat=True)
    )
    return copy


@pytest.mark.django_db(transaction=True)
def test_issue38_matches_entered_from_the_pad_come_back_from_their_pad(organizer: User) -> None:
    """A stage whose matches were entered from the paper pad, and one played turn by turn:
    the file carries each pad (no turns), the import enters each from it, and every table and
    the bracket come back as the original's."""
    league = _league("pad-club", "yardzee", organizer)
    event = Event.objects.create(league=league, name="Pad night", date="2026-08-01")
    stage = start_stage(event, "single_elimination", _players(4, "Pad"), name="Knockout")
    for seed in range(3):
        match = (
            Match.objects.filter(stage_match__stage=stage, status="scheduled")
            .order_by("pk")
            .first()
        )
        assert match is not None
        if seed == 1:
            play(match, seed=seed)
        else:
            game_services.scorecard_submit(match_id=match.pk, pad=pad_of(match, seed=seed))
    data = exports.event_export(event=Event.objects.get(pk=event.pk))
    pads = [m for m in data["matches"] if m["pad"] is not None]
    assert len(pads) == 2
    assert all(m["turns"] == [] for m in pads)
    imported = _comes_back(organizer, event)
    assert Match.objects.filter(event=imported, pad__isnull=False).count() == 2
    # A file giving a match both a pad and turns is refused before anything is replayed.
    both = json.loads(json.dumps(data))
    played = next(m for m in both["matches"] if m["turns"])
    played["pad"] = pads[0]["pad"]
    with pytest.raises(LeagueError) as refused:
        exports.event_import(league=_empty_league(organizer, suffix="-both"), data=both)
    assert refused.value.code == "invalid_export"


@pytest.mark.parametrize("knockout", ["started", "not started"])
def test_item6_a_withdrawal_from_the_event_after_a_stage_finished_comes_back(
    organizer: User, knockout: str
) -> None:
    """Withdrawn from the event once the groups have finished, a player's entry there is marked
    withdrawn (their results stand) and they leave the knockout: its matches of theirs become
    forfeits, or, not started yet, it passes them over. The import marks the finished entry as
    the original was and replays the knockout's withdrawal."""
    league = _league("leavers", "yardzee", organizer)
    event = Event.objects.create(league=league, name="Cup", date="2026-06-01")
    groups = start_stage(event, "round_robin", _players(8, "Hal"), name="Groups", groups=2)
    cut = fed_stage(groups, source_per_group=2)
    play_stage(groups, seed=60)
    groups.refresh_from_db()
    assert groups.status == "finished"
    if knockout == "started":
        stages.stage_start(stage_id=cut.pk)
        leaver = cut.entries.get(seed=1).player_id
    else:
        leaver = groups.group_ranking["1"][0][0]
    withdrawn = client_for(organizer).post(
        f"/api/v1/events/{event.pk}/withdraw/", {"player": leaver}, format="json"
    )
    assert withdrawn.status_code == 200, withdrawn.json()
    assert groups.entries.get(player_id=leaver).withdrawn_at is not None
    if knockout == "not started":
        stages.stage_start(stage_id=cut.pk)
        assert not cut.entries.filter(player_id=leaver).exists()
    play_stage(cut, seed=70)
    copy = _comes_back(organizer, event)
    assert copy.stages.get(name="Groups").entries.filter(withdrawn_at__isnull=False).count() == 1


def test_item6_what_was_done_after_the_event_finished_and_was_reopened_comes_back(
    organizer: User,
) -> None:
    """Its last stage finished, the event finished by itself; reopened, a player was withdrawn
    (their finished entry marked) and a match played outside the stages. The import reopens
    the event it replays where the original must have been reopened."""
    league = _league("leavers", "yardzee", organizer)
    event = Event.objects.create(league=league, name="Night", date="2026-06-01")
    players = _players(4, "Kit")
    stage = start_stage(event, "round_robin", players, name="RR")
    play_stage(stage, seed=40)
    event.refresh_from_db()
    assert event.status == "finished"
    event_reopen(event_id=event.pk)
    stages.event_withdraw(event_id=event.pk, player_id=players[0].pk)
    play(
        game_services.match_create(
            game="yardzee", player_ids=[p.pk for p in players[1:]], event_id=event.pk
        ),
        seed=41,
    )
    copy = _comes_back(organizer, event)
    assert copy.stages.get().entries.filter(withdrawn_at__isnull=False).count() == 1


def test_item6_a_withdrawal_while_a_match_of_theirs_is_being_played_comes_back(
    organizer: User,
) -> None:
    """Their match already being played is left as it is by the withdrawal and finished
    after it: the import has it in progress when it replays the withdrawal, so it is left
    again (not made a forfeit), and finished after."""
    league = _league("leavers", "yardzee", organizer)
    event = Event.objects.create(league=league, name="Night", date="2026-06-01")
    stage = start_stage(event, "round_robin", _players(4, "Ida"), name="RR")
    playing = Match.objects.filter(stage_match__stage=stage).order_by("pk").first()
    leaver = playing.seats.order_by("order").first().player_id
    turns = simulated_turns(playing, seed=3)
    for turn in turns[:3]:
        game_services.turn_submit(match_id=playing.pk, turn=turn)
    withdrawal = stages.stage_withdraw(stage_id=stage.pk, player_id=leaver)
    assert withdrawal.in_progress == [playing.pk]
    for turn in turns[3:]:
        game_services.turn_submit(match_id=playing.pk, turn=turn)
    play_stage(stage, seed=90)
    stage.refresh_from_db()
    assert stage.status == "finished"
    _comes_back(organizer, event)


def test_item6_a_withdrawal_forfeit_taken_back_comes_back(organizer: User) -> None:
    """The void a withdrawal made of a match of theirs, taken back (`unvoid`), leaves that match
    to be played: the file lists no void of it, so the import takes back the one its
    withdrawal makes again, and the match is played as it was."""
    league = _league("leavers", "yardzee", organizer)
    event = Event.objects.create(league=league, name="Night", date="2026-06-01")
    stage = start_stage(event, "round_robin", _players(4, "Jo"), name="RR")
    first = Match.objects.filter(stage_match__stage=stage).order_by("pk").first()
    leaver = first.seats.order_by("order").first().player_id
    withdrawal = stages.stage_withdraw(stage_id=stage.pk, player_id=leaver)
    assert len(withdrawal.walkovers) == 3
    game_services.match_unvoid(match_id=first.pk, unvoided_by=None)
    play_stage(stage, seed=95)
    assert Match.objects.get(pk=first.pk).status == "finished"
    _comes_back(organizer, event)


@pytest.mark.parametrize("withdrawal", [False, True])
def test_item6_a_fed_stage_back_in_draft_comes_back_with_the_entries_it_kept(
    organizer: User, withdrawal: bool
) -> None:
    """A knockout fed by the groups, started, then put back to draft (a groups result undone,
    re-seeding it): it keeps the entries its start took, a player who withdrew from it since
    marked so, until it is started again. The import has them as the file lists them."""
    league = _league("redraft", "yardzee", organizer)
    event = Event.objects.create(league=league, name="Cup", date="2026-06-01")
    groups = start_stage(event, "round_robin", _players(4, "Rex"), name="Groups")
    knockout = fed_stage(groups, source_top=3)  # seed 1 has a bye to the final
    play_stage(groups, seed=50)
    stages.stage_start(stage_id=knockout.pk)
    if withdrawal:  # the bye's player: no match of theirs is seated yet to forfeit
        stages.stage_withdraw(
            stage_id=knockout.pk, player_id=knockout.entries.get(seed=1).player_id
        )
    last = Match.objects.filter(stage_match__stage=groups).order_by("-finished_at", "-pk").first()
    undone = Turn.objects.filter(match=last).order_by("-sequence").first()
    game_services.turn_undo(match_id=last.pk, undone_by=None, then={"reseed_later_stages": True})
    game_services.turn_submit(match_id=last.pk, turn=undone.payload)  # finished again
    knockout.refresh_from_db()
    assert (knockout.status, knockout.entries.count()) == ("draft", 3)
    assert knockout.entries.filter(withdrawn_at__isnull=False).count() == int(withdrawal)
    copy = _comes_back(organizer, event)
    kept = copy.stages.get(name="Knockout").entries.order_by("seed")
    assert [e.withdrawn_at is not None for e in kept] == [withdrawal, False, False]


def test_item6_the_management_commands_export_and_import_a_file(
    night: Event, organizer: User, tmp_path: Any
) -> None:
    from django.core.management import CommandError, call_command

    path = tmp_path / "night.json"
    call_command("export_event", night.pk, output=str(path))
    league = _empty_league(organizer)
    out = io.StringIO()
    call_command("import_event", str(path), league=league.slug, stdout=out)
    event = league.events.get()
    assert f"event {event.pk}" in out.getvalue()
    assert league.players.count() == 4
    assert [row["name"] for row in _table((StandingsScope.EVENT, event.pk))] == [
        row["name"] for row in _table((StandingsScope.EVENT, night.pk))
    ]
    # JSON nested past Python's recursion limit: a RecursionError traceback.
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(CommandError, match=r"Cannot read .*nested too deeply"):
        call_command(
            "import_event", str(path), league=_empty_league(organizer, "yardzee", "c").slug
        )
    # A file that is not an export: the command says why, and nothing is made.
    path.write_text("[]")
    with pytest.raises(CommandError, match="not_an_event_export"):
        call_command(
            "import_event", str(path), league=_empty_league(organizer, "yardzee", "b").slug
        )


def test_export_event_to_a_file_it_cannot_write_is_a_command_error(night: Event, tmp_path: Any):
    from django.core.management import CommandError, call_command

    # It was a FileNotFoundError traceback.
    with pytest.raises(CommandError, match=r"Cannot write .*nowhere/night\.json"):
        call_command("export_event", night.pk, output=str(tmp_path / "nowhere" / "night.json"))
    with pytest.raises(CommandError, match="No event with id 0"):
        call_command("export_event", 0)


# --- CSV ----------------------------------------------------------------------------------------


def test_item6_every_csv_downloads_with_a_file_name(night: Event) -> None:
    pools = night.stages.get(name="Pools")
    player = PlayerRating.objects.filter(league=night.league).first().player
    league = night.league
    served = {
        f"/api/v1/leagues/{league.slug}/standings/": f"league-{league.pk}-standings.csv",
        f"/api/v1/events/{night.pk}/standings/": f"event-{night.pk}-standings.csv",
        f"/api/v1/stages/{pools.pk}/standings/": f"stage-{pools.pk}-standings.csv",
        f"/api/v1/stages/{pools.pk}/standings/?group=2": f"stage-{pools.pk}-group-2-standings.csv",
        f"/api/v1/leagues/{night.league.slug}/ratings/": "home-club-ratings.csv",
        f"/api/v1/players/{player.pk}/ratings/": f"player-{player.pk}-ratings.csv",
    }
    for path, name in served.items():
        joiner = "&" if "?" in path else "?"
        response = APIClient().get(f"{path}{joiner}format=csv")
        assert response.status_code == 200, path
        assert response["Content-Type"] == "text/csv; charset=utf-8", path
        assert response["Content-Disposition"] == f'attachment; filename="{name}"', path
        assert list(csv.reader(io.StringIO(response.content.decode(), newline="")))[1:], path


def test_item6_a_players_rating_history_downloads_as_csv(night: Event) -> None:
    player = PlayerRating.objects.filter(league=night.league).first().player
    history = APIClient().get(f"/api/v1/players/{player.pk}/ratings/").json()
    response = APIClient().get(f"/api/v1/players/{player.pk}/ratings/?format=csv")
    assert response.status_code == 200
    header, *rows = list(csv.reader(io.StringIO(response.content.decode(), newline="")))
    assert header == ["league", "match", "finished_at", "mu", "sigma", "ordinal"]
    assert len(rows) == len(history) > 0
    assert [(r[0], int(r[1]), r[2]) for r in rows] == [
        (h["league"], h["match"], h["finished_at"]) for h in history
    ]
    assert [round(float(r[5]), 3) for r in rows] == [round(h["ordinal"], 3) for h in history]
    # The player page links to it.
    page = APIClient().get(f"/players/{player.pk}/").content.decode()
    assert f'href="/api/v1/players/{player.pk}/ratings/?format=csv"' in page
    # A player of no such id: 404 in the error shape, not a file.
    missing = APIClient().get("/api/v1/players/999999/ratings/?format=csv")
    assert missing.status_code == 404
    assert "Content-Disposition" not in missing


def test_a_huge_version_is_named_cut_short(night: Event, organizer: User) -> None:
    data = json.loads(json.dumps(exports.event_export(event=night)))
    league = _empty_league(organizer)
    answer = _refused(
        organizer,
        league,
        {**data, "version": "9" * 100_000},
        status=400,
        code="unsupported_export_version",
        format="json",
    )
    assert len(answer["message"]) < 200
    assert len(answer["details"]["version"]) <= 40
    # Any JSON value, a list too (it was a 500: the cut was cached, and a list is unhashable).
    listed = _refused(
        organizer,
        league,
        {**data, "version": [1]},
        status=400,
        code="unsupported_export_version",
        format="json",
    )
    assert listed["details"]["version"] == "[1]"
    assert exports.export_schema() is exports.export_schema()  # read once, not every import


@pytest.mark.parametrize(
    ("where", "value", "path"),
    [
        (("matches", 0, "seats", 0, "total"), 999, "/matches/0/seats"),
        (("matches", 0, "seats", 0, "placement"), None, "/matches/0/seats"),
        (("matches", 0, "turns", 0, "points"), 10**20, "/matches/0/turns"),
        (("matches", 0, "turns", 0, "player"), 2**31, "/matches/0/turns"),
        (("matches", 0, "rules", "joker"), [], "/matches/0/rules"),
        (("matches", 0, "walkover"), True, "/matches/0/walkover"),
        (("stages", 0, "ranking"), [], "/stages/0/ranking"),
        (("stages", 0, "group_ranking", "1", 0, 0), 2**31, "/stages/0/group_ranking"),
        (("stages", 0, "byes"), [{"round": 1, "player": 1}], "/stages/0/byes"),
    ],
)
def test_a_result_edited_by_hand_is_refused_where_it_was_edited(
    night: Event, organizer: User, where: tuple[Any, ...], value: Any, path: str
) -> None:
    """A seat's total, a turn's points, a stage's ranking... changed in the file by hand were
    imported (201) as the replay made them, the file's silently dropped: now the replay's
    stages and matches are compared with the file's, and a difference is 422, naming where."""
    data = json.loads(json.dumps(exports.event_export(event=night)))
    edited = copy.deepcopy(data)
    target: Any = edited
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    answer = _refused(
        organizer,
        _empty_league(organizer),
        edited,
        status=422,
        code="import_mismatch",
        format="json",
    )
    assert answer["details"]["path"] == path
    assert path in answer["message"]
