"""The match page (/matches/<id>/): the scorecard as on the paper pad, the same totals the
match holds, each turn's dice on demand, and a part that refreshes while the match is played."""

import re

import pytest
from django.test import Client

from games import services as game_services
from games.models import Match, Seat, Turn
from tests.playing import play

from .conftest import make_players

pytestmark = pytest.mark.django_db


def _row(page: str, key: str) -> list[str]:
    """The cells of the scorecard line `data-row=key`, as shown."""
    found = re.search(rf'data-row="{key}">(.*?)</tr>', page, re.S)
    assert found, f"no line {key}"
    return [
        re.sub(r"<[^>]+>", "", cell).strip()
        for cell in re.findall(r"<td[^>]*>(.*?)</td>", found.group(1), re.S)
    ]


def _number(text: str) -> int:
    return int(text.replace(",", "").split()[-1])


def _finished_page(client: Client, match: Match, seed: int) -> tuple[str, list[Seat]]:
    """The page of `match` played to its end, and its seats in order; each grand total on the
    page must be the seat's stored total."""
    play(match, seed=seed)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    seats = list(match.seats.order_by("order"))
    assert [_number(cell) for cell in _row(page, "grand_total")] == [s.total for s in seats]
    return page, seats


def test_a_finished_yardzee_match_shows_each_players_grand_total_as_stored(
    client: Client, zee_event, seat
):
    page, seats = _finished_page(client, seat(zee_event, make_players(3)), seed=4)
    for seat_ in seats:
        assert seat_.player.display_name in page
    assert "Finished" in page
    # Its scores no longer change: only the Analysis section polls, until the job has run.
    live = page.split('id="match-live"', 1)[1].split(">", 1)[0]
    assert "data-live-url" not in live
    assert page.count("data-live-url") == page.count('id="match-analysis"') == 1


def test_the_yardzee_pad_has_every_line_of_the_paper_scorecard(client: Client, zee_event, seat):
    match = seat(zee_event, make_players(2))
    play(match, seed=1)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    lines = re.findall(r'data-row="([a-z_]+)"', page)
    assert lines == [
        "aces", "twos", "threes", "fours", "fives", "sixes",
        "upper_subtotal", "upper_bonus", "upper_total",
        "three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight",
        "yardzee", "chance",
        "yardzee_bonus", "lower_total", "upper_total_again", "grand_total",
    ]  # fmt: skip
    pad = page.split('<table class="pad"')[1].split("</table>")[0]
    assert pad.count("<tbody>") == 2  # the upper and the lower section
    assert '<th scope="rowgroup" colspan="3">Upper section</th>' in pad
    assert '<th scope="rowgroup" colspan="3">Lower section</th>' in pad
    assert '<th scope="col"' in page
    upper = [_number(c) for c in _row(page, "upper_total")]
    lower = [_number(c) for c in _row(page, "lower_total")]
    grand = [_number(c) for c in _row(page, "grand_total")]
    assert [u + lo for u, lo in zip(upper, lower, strict=True)] == grand


def test_yardzee_bonuses_show_a_check_mark_each(client: Client, zee_event, seat):
    match = seat(zee_event, make_players(2))
    play(match, seed=3)  # the simulator rolls a second Yardzee in this game
    game = Match.objects.get(pk=match.pk).scoring_game()
    counts = [game.scorecard(s).yardzee_bonus_count for s in range(2)]  # type: ignore[attr-defined]
    assert any(counts)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    cells = _row(page, "yardzee_bonus")
    assert [cell.count("\u2713") for cell in cells] == counts


def test_every_turn_can_be_opened_to_show_its_dice(client: Client, zee_event, seat):
    match = seat(zee_event, make_players(2))
    play(match, seed=3)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert page.count('<details id="turn-') == 26
    first = Turn.objects.get(match=match, sequence=1)
    section = page.split('<details id="turn-1">')[1].split("</details>")[0]
    first_roll = first.payload["rolls"][0]["dice"]
    shown = re.findall(r'<span class="die[^"]*">(\d)</span>', section)
    assert shown[:5] == [str(d) for d in first_roll]
    assert "Roll 1" in section


def test_an_unfinished_match_shows_whose_turn_it_is_and_refreshes_itself(
    client: Client, zee_event, seat
):
    players = make_players(2)
    match = seat(zee_event, players)
    play(match, seed=5, turns=3)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'data-live-url="/matches/{match.pk}/live/"' in page
    assert f"<strong>{players[1].display_name}</strong> to play" in page
    assert 'class="open"' in page  # boxes still to fill
    live = client.get(f"/matches/{match.pk}/live/")
    assert live.status_code == 200
    fragment = live.content.decode()
    assert fragment.lstrip().startswith('<div id="match-live"')
    assert "<html" not in fragment


def test_a_scheduled_match_renders_with_empty_scorecards(client: Client, zee_event, seat):
    match = seat(zee_event, make_players(3))
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Not started yet" in page
    assert "No turns yet" in page


def test_a_yardkle_match_shows_running_totals_board_entries_yardkles_and_the_final_round(
    client: Client, yardkle_event, seat
):
    match = seat(yardkle_event, make_players(3))
    page, _ = _finished_page(client, match, seed=8)
    assert _row(page, "on_board") == ["yes"] * 3
    assert page.count("on the board</span>") == 3
    yardkles = Turn.objects.filter(match=match, payload__end="yardkle").count()
    assert page.count('class="lost">Yardkle') == yardkles
    assert "Final round:" in page
    assert "final round</span>" in page
    assert "reached 10,000</span>" in page


def test_a_void_match_says_it_no_longer_counts(client: Client, zee_event, seat, organizer):
    match = seat(zee_event, make_players(2))
    play(match, seed=1, turns=2)
    game_services.match_void(match_id=match.pk, voided_by=organizer)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Void" in page
    assert "data-live-url" not in page


def test_a_match_outside_any_event_has_a_page_too(client: Client, seat):
    match = seat(None, make_players(2), game="yardkle")
    assert client.get(f"/matches/{match.pk}/").status_code == 200


def test_unknown_matches_are_not_found(client: Client):
    assert client.get("/matches/999999/").status_code == 404
    assert client.get("/matches/999999/live/").status_code == 404


def test_a_page_of_turns_past_the_last_is_404_however_many_digits_it_has(
    client: Client, zee_event, seat
):
    """docs/pages.md, "Turns": fifty a page, `?turns=2` for the next fifty, a page past the
    last 404. A number of seven digits or more was read as page 1 (200), and one no `int`
    reads is no 500. What is no whole number from 1 is page 1."""
    match = seat(zee_event, make_players(2))
    play(match, seed=5, turns=3)
    for path in (f"/matches/{match.pk}/", f"/matches/{match.pk}/live/"):
        for asked in ("1", "01", "0", "", "abc", "-1", "1.0", "²"):
            assert client.get(path, {"turns": asked}).status_code == 200, asked
        for asked in ("2", "999999", "1000000", "9" * 18, "1" * 5000):
            assert client.get(path, {"turns": asked}).status_code == 404, asked[:20]
