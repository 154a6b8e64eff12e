"""A player's page (league.pages.player), built from plain reads without a database."""

from datetime import UTC, datetime, timedelta
from typing import Any

from analysis.selectors import MatchAccuracy
from games.models import MatchStatus
from league.models import ForfeitReason
from league.pages.player import PlayerPage, player_page, result_status
from league.selectors import (
    EventRef,
    ForfeitVoid,
    LeagueRating,
    Opponent,
    PlayerMatch,
    RatingPoint,
    StageFinish,
)

START = datetime(2026, 5, 2, 19, 0, tzinfo=UTC)


def _match(match_id: int, status: str = MatchStatus.FINISHED) -> PlayerMatch:
    return PlayerMatch(
        match=match_id,
        game_text="Yardzee",
        status=status,
        status_text=MatchStatus(status).label,
        event=EventRef(id=3, name="Night 1", date=START.date()),
        placement=1 if status == MatchStatus.FINISHED else None,
        total=230 if status == MatchStatus.FINISHED else None,
        table=2,
        opponents=(Opponent(player=8, name="Bo"),),
    )


def _point(league: str, match_id: int, ordinal: float, hours: int) -> RatingPoint:
    return RatingPoint(
        league=league,
        match=match_id,
        finished_at=START + timedelta(hours=hours),
        mu=25.0,
        sigma=8.0,
        ordinal=ordinal,
    )


def _page(**kw: Any) -> PlayerPage:
    values: dict[str, Any] = {
        "player": 7,
        "name": "Ann <3",
        "matches": [],
        "results_shown": 50,
        "forfeits": {},
        "placements": {},
        "finishes": [],
        "ratings": [],
        "history": [],
        "analysed": [],
    }
    values.update(kw)
    return player_page(**values)


def test_a_void_match_a_forfeit_replaced_says_what_happened_to_this_player() -> None:
    void = (MatchStatus.VOID, "Void")
    assert result_status(*void, 7, None) == void
    assert result_status(*void, 7, ForfeitVoid(True, None, {7: ForfeitReason.NO_SHOW})) == (
        "walkover",
        "did not show",
    )
    assert result_status(*void, 7, ForfeitVoid(False, 12, {8: ForfeitReason.WITHDREW})) == (
        "walkover",
        "replaced by #12",
    )
    assert result_status(*void, 7, ForfeitVoid(True, None, {8: ForfeitReason.AWARDED})) == (
        "walkover",
        "walkover",
    )


def test_results_placements_finishes_and_ratings_as_the_page_lists_them() -> None:
    finish = StageFinish(
        stage="Final", event=3, event_name="Night 1", league_name="Spring", place=2, shared=True
    )
    rating = LeagueRating(
        league="spring", league_name="Spring", mu=25.0, sigma=8.0, ordinal=1.0, matches=1
    )
    page = _page(
        matches=[_match(21), _match(20, MatchStatus.VOID)],
        forfeits={20: ForfeitVoid(True, None, {7: ForfeitReason.WITHDREW})},
        placements={1: 3, 2: 1},
        finishes=[finish],
        ratings=[rating],
    )
    assert [(r.match, r.status, r.status_text) for r in page.results] == [
        (21, "finished", "Finished"),
        (20, "walkover", "withdrew"),
    ]
    assert [(p.place, p.count) for p in page.placements] == [(1, 3), (2, 1)]
    assert page.played == 4
    assert page.finishes == (finish,)
    assert page.ratings == (rating,)


def test_the_history_is_numbered_across_leagues_and_charted_one_line_a_league() -> None:
    rating = LeagueRating(
        league="spring", league_name="Spring", mu=25.0, sigma=8.0, ordinal=1.0, matches=2
    )
    history = [
        _point("spring", 1, 0.5, 0),
        _point("autumn", 2, 1.5, 1),
        _point("spring", 3, 2.0, 2),
    ]
    page = _page(history=history, ratings=[rating])
    assert [(h.number, h.point.league, h.league_name) for h in page.history] == [
        (1, "spring", "Spring"),
        (2, "autumn", ""),
        (3, "spring", "Spring"),
    ]
    chart = page.chart
    assert chart is not None
    assert 'id="rating-7-' in chart
    assert "Ann &lt;3" in chart
    assert "Spring" in chart
    assert "autumn" in chart  # a league the player has no rating in now: its slug


def test_no_history_no_chart_and_no_analysis_no_play_section() -> None:
    page = _page()
    assert page.chart is None
    assert page.accuracy == ()
    assert page.accuracy_chart is None


def _analysed(match: int, accuracy: float, total_loss: float, game: str = "yardzee"):
    return MatchAccuracy(
        match=match,
        league=1,
        finished_at=START,
        accuracy=accuracy,
        total_loss=total_loss,
        game=game,
    )


def test_accuracy_is_averaged_over_the_analysed_matches() -> None:
    page = _page(analysed=[_analysed(5, 90.0, 12.0), _analysed(6, 80.0, 20.0)])
    (accuracy,) = page.accuracy
    assert page.accuracy_chart is not None
    assert (accuracy.game, accuracy.matches, accuracy.mean, accuracy.loss_per_game) == (
        "Yardzee",
        2,
        85.0,
        16.0,
    )
    assert 'id="accuracy-7-' in page.accuracy_chart


def test_accuracy_and_points_lost_are_given_per_game() -> None:
    """A player of both games read "192.4 points lost a game": Yardzee's points (about 40 a
    game) and Yardkle's (about 400) averaged together. Each game now has its own line and its
    own line of the chart."""
    analysed = [
        _analysed(5, 40.0, 40.0),
        _analysed(6, 60.0, 400.0, "yardkle"),
        _analysed(7, 50.0, 20.0),
    ]
    page = _page(analysed=analysed)
    assert [(a.game, a.matches, a.mean, a.loss_per_game) for a in page.accuracy] == [
        ("Yardzee", 2, 45.0, 30.0),
        ("Yardkle", 1, 60.0, 400.0),
    ]
    assert page.accuracy_chart is not None
    assert 'data-series="Yardzee"' in page.accuracy_chart
    assert 'data-series="Yardkle"' in page.accuracy_chart


def test_the_accuracy_chart_names_each_value_to_the_hundredth_as_it_was_measured() -> None:
    """The points' titles give two decimals: of the accuracy, not of it rounded to one first
    (15.115 was titled 15.10)."""
    analysed = [_analysed(5, 15.126, 12.0), _analysed(6, 80.0, 20.0)]
    chart = _page(analysed=analysed).accuracy_chart
    assert chart is not None
    assert "match #5: 15.13</title>" in chart
