"""Issue 38, paper results (`games.services.scorecard_submit`, docs/rules.md "What a pad can
show"): a match finished from its pad is a finished match like any other (totals, placements,
game counts, the signals), the pad kept; a pad no legal game writes is refused cell by cell
with nothing stored; a match with turns, or over, takes no pad."""

import pytest
from django.test import Client

from games import services as game_services
from games.errors import MatchAlreadyStarted, MatchClosed
from games.models import Match, MatchStatus, Seat
from league.models import Player
from scoring.pad import PadInvalid
from tests.playing import pad_of, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def four() -> list[int]:
    return [Player.objects.create(display_name=f"Pad {n}", handle=f"pad-{n}").pk for n in range(4)]


def _seat(game: str, players: list[int]) -> Match:
    return game_services.match_create(game=game, player_ids=players)


def _results(match: Match) -> list[tuple[int | None, int | None, object, object, object]]:
    return [
        (s.total, s.placement, s.yardzees, s.upper_bonus, s.yardkles)
        for s in Seat.objects.filter(match=match).order_by("order")
    ]


@pytest.mark.parametrize("game", ["yardzee", "yardkle"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_pad_finishes_the_match_as_its_turns_would(game: str, seed: int, four: list[int]):
    by_turns, by_pad = _seat(game, four[:3]), _seat(game, four[:3])
    play(by_turns, seed=seed)
    pad = pad_of(by_pad, seed=seed)
    game_services.scorecard_submit(match_id=by_pad.pk, pad=pad)
    by_turns.refresh_from_db()
    by_pad.refresh_from_db()
    assert by_pad.status == MatchStatus.FINISHED
    assert by_pad.finished_at is not None
    assert by_pad.pad == pad
    assert by_pad.turns_played == 0
    assert _results(by_pad) == _results(by_turns)
    assert by_pad.scoring_game().is_over
    assert by_pad.scoring_game().placements() == by_turns.scoring_game().placements()


def test_a_pad_no_game_writes_is_refused_cell_by_cell_and_nothing_is_stored(four: list[int]):
    match = _seat("yardzee", four[:2])
    pad = pad_of(match, seed=4)
    pad[1]["boxes"]["threes"] = 7  # not a multiple of three
    pad[0]["boxes"]["yardzee"] = 0
    pad[0]["yardzee_bonus_count"] = 1  # a bonus without the Yardzee box
    with pytest.raises(PadInvalid) as refused:
        game_services.scorecard_submit(match_id=match.pk, pad=pad)
    cells = {(e["player"], e["box"], e["code"]) for e in refused.value.details["errors"]}
    assert (1, "threes", "box_value_impossible") in cells
    assert any(p == 0 and code == "yardzee_bonus_without_yardzee" for p, _b, code in cells)
    match.refresh_from_db()
    assert (match.status, match.pad, match.version) == (MatchStatus.SCHEDULED, None, 0)
    assert _results(match) == [(None, None, None, None, None)] * 2


def test_a_yardkle_total_no_throw_gives_is_refused_with_its_turn_named(four: list[int]):
    match = _seat("yardkle", four[:2])
    pad = pad_of(match, seed=5)
    first = next(i for i, points in enumerate(pad[0]["turns"]) if points)
    pad[0]["turns"][first] += 25
    with pytest.raises(PadInvalid) as refused:
        game_services.scorecard_submit(match_id=match.pk, pad=pad)
    errors = refused.value.details["errors"]
    assert {"player": 0, "turn": first, "code": "turn_total_impossible"}.items() <= errors[
        0
    ].items()
    assert Match.objects.get(pk=match.pk).status == MatchStatus.SCHEDULED


def test_a_match_with_turns_or_finished_takes_no_pad(four: list[int]):
    started = _seat("yardzee", four[:2])
    play(started, seed=1, turns=1)
    with pytest.raises(MatchAlreadyStarted):
        game_services.scorecard_submit(match_id=started.pk, pad=pad_of(started, seed=1))
    finished = _seat("yardzee", four[2:])
    game_services.scorecard_submit(match_id=finished.pk, pad=pad_of(finished, seed=2))
    with pytest.raises(MatchClosed):
        game_services.scorecard_submit(match_id=finished.pk, pad=pad_of(finished, seed=3))


def test_a_pad_result_voided_and_taken_back_is_finished_again(four: list[int]):
    match = _seat("yardkle", four[:2])
    game_services.scorecard_submit(match_id=match.pk, pad=pad_of(match, seed=6))
    before = _results(match)
    game_services.match_void(match_id=match.pk, voided_by=None)
    game_services.match_unvoid(match_id=match.pk, unvoided_by=None)
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED
    assert _results(match) == before


# --- The page: /matches/<id>/score/pad/ --------------------------------------------------------


def _yardzee_form(pad: list[dict[str, object]]) -> dict[str, str]:
    form: dict[str, str] = {}
    for order, column in enumerate(pad):
        boxes = column["boxes"]
        assert isinstance(boxes, dict)
        for box, points in boxes.items():
            form[f"p{order}-{box}"] = str(points)
        form[f"p{order}-bonus"] = str(column["yardzee_bonus_count"])
    return form


def _with_key(match: Match) -> Client:
    client = Client()
    opened = client.get(f"/matches/{match.pk}/score/?key={match.score_key}")
    assert opened.status_code == 302
    return client


def test_the_pad_page_with_the_tables_key_finishes_the_match_from_the_pad(four: list[int]):
    match = _seat("yardzee", four[:2])
    client = _with_key(match)
    page = client.get(f"/matches/{match.pk}/score/pad/")
    assert page.status_code == 200
    assert page["Cache-Control"] == "no-store"
    assert 'name="p1-large_straight"' in page.content.decode()
    pad = pad_of(match, seed=8)
    done = client.post(f"/matches/{match.pk}/score/pad/", _yardzee_form(pad))
    assert done.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.pad) == (MatchStatus.FINISHED, pad)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert "From the pad: this result was entered from the paper score pad" in html
    assert "there are no turns to analyse" in html


def test_the_pad_page_shows_each_refused_cell_with_its_rule_and_keeps_what_was_typed(
    four: list[int],
):
    match = _seat("yardzee", four[:2])
    client = _with_key(match)
    form = _yardzee_form(pad_of(match, seed=9))
    form["p0-fours"] = "14"
    form["p1-chance"] = "lots"
    refused = client.post(f"/matches/{match.pk}/score/pad/", form)
    assert refused.status_code == 400  # a cell that is not a number: read before the rules
    html = refused.content.decode()
    assert "“lots” is not a number of points." in html
    assert 'value="14"' in html
    form["p1-chance"] = "20"
    refused = client.post(f"/matches/{match.pk}/score/pad/", form)
    assert refused.status_code == 422
    html = refused.content.decode()
    assert 'id="p0-fours-error"' in html
    assert Match.objects.get(pk=match.pk).status == MatchStatus.SCHEDULED


def test_the_pad_page_takes_yardkle_totals_as_written(four: list[int]):
    match = _seat("yardkle", four[:2])
    client = _with_key(match)
    pad = pad_of(match, seed=10)
    form = {
        f"p{order}-turns": ", ".join(f"{points:,}" for points in column["turns"])
        for order, column in enumerate(pad)
    }
    done = client.post(f"/matches/{match.pk}/score/pad/", form)
    assert done.status_code == 302
    match.refresh_from_db()
    assert match.pad == pad
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert "From the pad" in html


def test_the_pad_page_is_refused_without_the_key_or_an_organizer(four: list[int]):
    match = _seat("yardzee", four[:2])
    assert Client().get(f"/matches/{match.pk}/score/pad/").status_code == 403
    assert Client().post(f"/matches/{match.pk}/score/pad/", {}).status_code == 403
    assert Match.objects.get(pk=match.pk).status == MatchStatus.SCHEDULED
