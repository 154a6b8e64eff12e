"""Pages: server-rendered, read-only for anyone.

`/` leagues, `/leagues/<slug>/` a league's table, leaderboard and events, `/events/<id>/` an
event's stages (standings, bracket as SVG, rounds), `/players/<id>/` a player's results and
rating history. The parts that move while an event is played also have a `live/` URL that
renders only them, which the page fetches to refresh itself (static/js/live.js). Every page
costs a fixed number of queries, whatever the size of the league (tests/web)."""

from collections.abc import Callable, Sequence
from dataclasses import fields
from typing import Any, Final

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString

from analysis.selectors import (
    current_chances,
    favourites,
    league_accuracy,
    league_analysis_version,
    player_accuracy,
)
from core.methods import read_only
from games.models import MatchStatus
from league import rating, selectors
from league.models import (
    Event,
    EventStatus,
    League,
    LeagueProjection,
    Player,
    RatingsState,
    SignUp,
    Stage,
    StageProjection,
    StageStatus,
    StandingsScope,
    StandingsTable,
)
from league.pages import home as presented_home
from league.pages import player as presented_player
from league.pages import stages, table_cache, tables
from league.services.standings_refresh import standings_table_computed_on_miss
from scoring.analysis.game_analysis import HALF_ACCURACY_LOSS

# Parts of a page that can change refresh this often while something is being played.
LIVE_SECONDS = 15
RESULTS_SHOWN = 50
# An event's matches outside any stage, newest first; a season's worth would be thousands.
MATCHES_SHOWN = 50
# The rendered list of them, and an event page, is kept this long per version.
MATCHES_KEEP_SECONDS = 5 * 60

Scope = tuple[str, int]
# How to read a page's version (None: not kept) and how to build its context when it is
# rendered; each is called only when needed (a reader signed in needs no version).
PageData = tuple[Callable[[], table_cache.Version | None], Callable[[], dict[str, Any]]]


def _page(
    request: HttpRequest,
    template: str,
    version_of: Callable[[], table_cache.Version | None],
    context: Callable[[], dict[str, Any]],
    *,
    keep: int = table_cache.KEEP_SECONDS,
) -> HttpResponse:
    """`template` rendered with `context()`; for anyone signed out, kept rendered under
    `version_of()` (`table_cache.page_cached`) and answered with its ETag, so a repeat request
    renders nothing. Signed in (the header shows who, with a CSRF token), in development (a
    template edited) or without a version, it is rendered for the request. The version is
    read before the context: what is rendered is at least as new as the version it is kept
    under, so a page is never kept under a version newer than what it shows. Without a
    version (no such league or event: the context answers 404) nothing is kept."""
    version = None
    if not settings.DEBUG and _signed_out(request):
        version = version_of()
    if version is None:
        return render(request, template, context())
    page = table_cache.page_cached(
        template, version, lambda: render_to_string(template, context(), request), keep=keep
    )
    response = HttpResponse(page.body, content_type="text/html; charset=utf-8")
    response["ETag"] = page.etag
    # Which body depends on whether the reader is signed in, that is on their cookie (the
    # session middleware says so only when it read the session, which `_signed_out` may skip).
    response["Vary"] = "Cookie"
    return response


def _signed_out(request: HttpRequest) -> bool:
    """Whether no one is signed in: a request without a session cookie is nobody's (readers
    sign in with the session alone), known without loading the session and its user."""
    if settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return True
    return not request.user.is_authenticated


# --- Home -------------------------------------------------------------------------------------


@read_only
def home(request: HttpRequest) -> HttpResponse:
    leagues = presented_home.home_leagues(
        selectors.leagues_with_events(), today=timezone.localdate()
    )
    return render(request, "league/home.html", {"leagues": leagues})


# --- Standings tables ---------------------------------------------------------------------------


def _tables(scopes: list[Scope]) -> dict[Scope, StandingsTable]:
    """The stored tables of `scopes` in one query, without their rows (`standings_html` loads
    them only to render a version not rendered yet); one not stored yet is computed now (as
    the API does), which happens once per scope."""
    found = selectors.stored_standings(scopes, rows=False)
    for scope in scopes:
        if scope not in found:
            found[scope] = standings_table_computed_on_miss(scope)
    return found


def _table_version(
    table: StandingsTable,
    caption: str,
    group: int | None = None,
    stage_format: str | None = None,
    projection: StageProjection | LeagueProjection | None = None,
) -> table_cache.Version:
    """Everything `league/_standings.html` shows changes with one of these (a stage's table
    shows its projection's chances too)."""
    return (
        table.pk,
        table.requested,
        table.computed,
        table.computed_at,
        tuple(table.tiebreak),
        caption,
        group,
        stage_format,
        None
        if projection is None
        else (
            type(projection).__name__,
            projection.pk,
            projection.version,
            projection.computed_at,
        ),
    )


def standings_html(
    table: StandingsTable,
    *,
    caption: str,
    group: int | None = None,
    stored: Callable[[], StandingsTable] | None = None,
    stage_format: str | None = None,
    projection: StageProjection | LeagueProjection | None = None,
) -> SafeString:
    """The table (with `group`, one group's rows) as `league/_standings.html` shows it,
    rendered once per stored version of it (`league.pages.table_cache`): a table computed
    again is shown at once. `stored` reads the rows on a miss (shared by a stage's groups);
    `stage_format`, a stage's, leaves out the columns it has no use for; `projection`, a
    running stage's, adds each player's chance to qualify and to win (a league's: to win the
    league)."""

    def load() -> tuple[table_cache.Version, dict[str, Any]]:
        # The rows with the version they belong to: one row, read in one statement.
        rows = stored() if stored is not None else selectors.standings_table(table.pk)
        answer = selectors.standings_answer(rows, group=group)
        return _table_version(rows, caption, group, stage_format, projection), {
            "table": tables.standings_table(
                answer,
                caption=caption,
                stage_format=stage_format,
                chances=None if projection is None else projection.chances(),
                of_league=isinstance(projection, LeagueProjection),
            )
        }

    return table_cache.render_cached(
        "league/_standings.html",
        _table_version(table, caption, group, stage_format, projection),
        load,
    )


def group_tables(
    stage: selectors.StageSummary,
    table: StandingsTable,
    stage_format: str,
    projection: StageProjection | LeagueProjection | None = None,
) -> list[stages.GroupTable]:
    """A stage played in groups: each group's own table ("Group 1", "Group 2", ...), each
    rendered once per stored version; on a miss the rows are read once for all groups."""
    read: list[StandingsTable] = []

    def stored() -> StandingsTable:
        if not read:
            read.append(selectors.standings_table(table.pk))
        return read[0]

    return [
        stages.GroupTable(
            label=f"Group {number}",
            html=standings_html(
                table,
                caption=f"{stage.name}: group {number}",
                group=number,
                stored=stored,
                stage_format=stage_format,
                projection=projection,
            ),
        )
        for number in range(1, stage.groups + 1)
    ]


def _ratings_version(
    league: League, state: RatingsState | None
) -> tuple[int, str, int, int, object]:
    if state is None:
        return (league.pk, league.name, 0, 0, None)
    return (league.pk, league.name, state.requested, state.computed, state.computed_at)


def leaderboard_html(
    league: League, state: RatingsState | None, analysed: tuple[object, ...] | None = None
) -> SafeString:
    """The league's ratings leaderboard (`league/_leaderboard.html`) with each player's
    accuracy, rendered once per stored version of its ratings (`state`, as read for this
    request) and of its matches' analyses (`analysed`, read here unless given)."""
    if analysed is None:
        analysed = league_analysis_version(league.pk)

    def load() -> tuple[table_cache.Version | None, dict[str, Any]]:
        before = selectors.ratings_state(league)
        board = selectors.leaderboard(league)
        accuracy = league_accuracy(league.pk)
        after = selectors.ratings_state(league)
        # Ratings computed between the reads: show them, but keep nothing under either version.
        same = _ratings_version(league, before) == _ratings_version(league, after)
        return (_ratings_version(league, after) + analysed if same else None), {
            "leaderboard": tables.leaderboard_table(
                board,
                league_name=league.name,
                accuracy={player: average.accuracy for player, average in accuracy.items()},
                half_accuracy_loss=HALF_ACCURACY_LOSS[league.game],
            )
        }

    return table_cache.render_cached(
        "league/_leaderboard.html", _ratings_version(league, state) + analysed, load
    )


# --- League -----------------------------------------------------------------------------------


@read_only
def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    return _page(request, "league/league.html", *league_context(slug))


@read_only
def league_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The league page's tables alone, for the page to refresh them."""
    return _page(request, "league/_league_live.html", *league_context(slug))


def league_context(slug: str) -> PageData:
    """The league page's version, one row read in one query (`selectors.league_page_version`:
    PostgreSQL's triggers move it with every write of what the page shows), and its context
    (five queries)."""

    def version() -> table_cache.Version | None:
        return selectors.league_page_version(slug)

    def context() -> dict[str, Any]:
        # With its projection (the chances its table shows), no query more.
        league = get_object_or_404(League.objects.select_related("projection"), slug=slug)
        scope = (StandingsScope.LEAGUE.value, league.pk)
        table = _tables([scope])[scope]
        ratings = selectors.ratings_state(league)
        events = selectors.league_events(league)
        analysed = league_analysis_version(league.pk)
        caption = f"{league.name}: league table"
        projection = getattr(league, "projection", None)
        live = (
            table.pending
            or (ratings is not None and ratings.pending)
            or any(event.status == EventStatus.RUNNING for event in events)
        )
        return {
            "league": league,
            "standings": standings_html(table, caption=caption, projection=projection),
            "leaderboard": leaderboard_html(league, ratings, analysed),
            "events": events,
            "live": live,
            "live_seconds": LIVE_SECONDS,
            "tiebreak": tables.tiebreak_labels(table.tiebreak),
        }

    return version, context


# --- Event ------------------------------------------------------------------------------------


@read_only
def event_detail(request: HttpRequest, event_id: int) -> HttpResponse:
    version, event_context_of = event_context(event_id)

    def context() -> dict[str, Any]:
        event_context = event_context_of()
        event = event_context["event"]
        sign_up = SignUp.objects.filter(event=event).first()
        # Its organizers see their links (never a key) on the page itself, not in its live
        # part, which is the same for every reader (the page is kept only for readers signed
        # out, never organizers).
        return {
            **event_context,
            "is_organizer": event.league.is_organizer(request.user),
            "takes_sign_ups": sign_up is not None and sign_up.takes_sign_ups(),
        }

    return _page(request, "league/event.html", version, context, keep=MATCHES_KEEP_SECONDS)


@read_only
def event_live(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event page's stages and tables alone, for the page to refresh them."""
    version, context = event_context(event_id)

    def live_version() -> table_cache.Version | None:
        found = version()
        # Without the sign-up's part: the live part does not show it.
        return None if found is None else found[:2]

    return _page(
        request, "league/_event_live.html", live_version, context, keep=MATCHES_KEEP_SECONDS
    )


def event_context(event_id: int) -> PageData:
    """The event page's version, one row read in one query (`selectors.event_page_version`:
    PostgreSQL's triggers move it with every write of what the page shows, its sign-up apart),
    and its context:
    every stage's standings, bracket or rounds, and its latest matches outside any stage,
    in about three queries per stage plus six, however many players and matches. The matches'
    list is kept MATCHES_KEEP_SECONDS per version of its lines, and so is the page."""

    def version() -> table_cache.Version | None:
        return selectors.event_page_version(event_id)

    def context() -> dict[str, Any]:
        # With its page's versions (`play_version` keeps its list of matches): no query more.
        event = get_object_or_404(Event.objects.select_related("league", "page"), pk=event_id)
        event_stages = selectors.event_stages(event, with_projections=True)
        counts, latest = selectors.event_loose_matches_latest(event, limit=MATCHES_SHOWN)
        event_scope = (StandingsScope.EVENT.value, event.pk)
        scopes = [(StandingsScope.STAGE.value, stage.pk) for stage in event_stages]
        if counts.count:
            scopes.append(event_scope)
        stored = _tables(scopes)
        caption = f"{event.name}: standings"
        live = event.status != EventStatus.CANCELLED and (
            any(stage.status == StageStatus.RUNNING for stage in event_stages)
            or any(table.pending for table in stored.values())
            or counts.open > 0
        )
        entries = selectors.stage_entries([stage.pk for stage in event_stages])
        return {
            "event": event,
            "league": event.league,
            "stages": [
                _stage_view(
                    stage,
                    entries[stage.pk],
                    stored[(StandingsScope.STAGE.value, stage.pk)],
                    selectors.stage_projection(stage),
                )
                for stage in event_stages
            ],
            "event_table": standings_html(stored[event_scope], caption=caption)
            if counts.count
            else None,
            "has_matches": bool(counts.count),
            "matches": event_matches_html(event, counts.count, latest) if counts.count else "",
            "live": live,
            "live_seconds": LIVE_SECONDS,
        }

    return version, context


def _matches_version(
    event: Event, count: int, matches: Sequence[selectors.MatchVersion]
) -> table_cache.Version:
    """What a line of the list shows changes with one of these (`MatchVersion`), its table
    and time among them (`schedule_sequence` counts each change); a renamed player moves the
    event page's `play_version` (league migrations 0009 and 0024; None without them)."""
    page = getattr(event, "page", None)
    return (
        event.pk,
        None if page is None else page.play_version,
        count,
        tuple(
            (m.id, m.status, m.turns_played, m.finished_at, m.schedule_sequence) for m in matches
        ),
    )


def event_matches_html(
    event: Event, count: int, latest: Sequence[selectors.MatchVersion] | None = None
) -> SafeString:
    """The event's latest matches outside any stage (`league/_event_matches.html`), rendered
    once per version of them (`league.pages.table_cache`): the version is read without the seats
    and players, which are loaded only to render a version not rendered yet. A renamed player
    is seen through the event page's `play_version` (without it, within twice
    MATCHES_KEEP_SECONDS)."""
    if latest is None:
        latest = selectors.event_loose_match_versions(event, limit=MATCHES_SHOWN)

    def load() -> tuple[table_cache.Version | None, dict[str, Any]]:
        loaded_count = selectors.event_loose_match_counts(event).count
        matches = selectors.event_loose_matches(event, limit=MATCHES_SHOWN)
        playing = [m.id for m in matches if m.status == MatchStatus.IN_PROGRESS]
        likeliest = favourites(playing)
        context = {
            "matches": [
                stages.with_favourite(stages.match_line(match), likeliest) for match in matches
            ],
            "matches_hidden": loaded_count - len(matches),
        }
        versions = [match.version for match in matches]
        return _matches_version(event, loaded_count, versions), context

    return table_cache.render_cached(
        "league/_event_matches.html",
        _matches_version(event, count, latest),
        load,
        keep=MATCHES_KEEP_SECONDS,
    )


def _stage_view(
    stage_row: Stage,
    entries: list[selectors.Entry],
    table: StandingsTable,
    projection: StageProjection | LeagueProjection | None = None,
) -> stages.StageView:
    stage = selectors.stage_summary(stage_row)
    grouped = stage.played_in_groups
    detail = selectors.stage_detail(stage_row)
    plays = [play for r in detail.rounds for play in r.matches]
    plays += [slot.play for slot in detail.slots if slot.play is not None]
    playing = [
        play.match.id
        for play in plays
        if play.match is not None and play.match.status == MatchStatus.IN_PROGRESS
    ]
    chances = _bracket_chances(stage_row, detail, playing) if detail.bracket_format else {}
    return stages.stage_view(
        stage,
        detail,
        entries,
        tiebreak=tables.shown_metrics([str(key) for key in table.tiebreak], stage_row.format),
        standings=None
        if grouped
        else standings_html(
            table,
            caption=f"{stage.name}: standings",
            stage_format=stage_row.format,
            projection=projection,
        ),
        group_tables=group_tables(stage, table, stage_row.format, projection) if grouped else (),
        favourites=favourites(playing),
        chances=chances,
    )


def _bracket_chances(
    stage: Stage, detail: selectors.StageDetail, playing: list[int]
) -> dict[int, dict[int, float]]:
    """Each player's chance to win each bracket match not finished: from its win probability
    while it is played, from the league's ratings before (`league.rating.win_chances`; a player
    not rated yet counts as new). Two queries."""
    found: dict[int, dict[int, float]] = {}
    live = current_chances(playing)
    waiting = [
        slot.play.match
        for slot in detail.slots
        if slot.play is not None
        and slot.play.match is not None
        and slot.play.match.status == MatchStatus.SCHEDULED
        and slot.play.match.seats
    ]
    seated = {seat.player for match in waiting for seat in match.seats}
    ratings = selectors.current_ratings(stage.event_id, seated) if seated else {}
    initial = rating.RatingSettings().initial
    for match in waiting:
        players = [seat.player for seat in match.seats]
        odds = rating.win_chances([ratings.get(p, initial) for p in players])
        found[match.id] = dict(zip(players, odds, strict=True))
    for slot in detail.slots:
        played = slot.play.match if slot.play is not None else None
        if played is not None and played.id in live:
            players = [seat.player for seat in played.seats]
            found[played.id] = dict(zip(players, live[played.id], strict=False))
    return found


# --- Player -----------------------------------------------------------------------------------


@read_only
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id)
    matches = selectors.player_matches(player, limit=RESULTS_SHOWN)
    page = presented_player.player_page(
        player=player.pk,
        name=player.display_name,
        matches=matches,
        results_shown=RESULTS_SHOWN,
        forfeits=selectors.forfeit_voids(
            [match.match for match in matches if match.status == MatchStatus.VOID]
        ),
        ratings=selectors.player_ratings(player),
        history=selectors.rating_history(player),
        placements=selectors.player_placement_counts(player),
        finishes=selectors.player_stage_finishes(player),
        analysed=player_accuracy(player.pk, limit=ACCURACY_SHOWN),
    )
    return render(request, "league/player.html", {"player": player, **_context(page)})


def _context(page: object) -> dict[str, object]:
    """A presenter's frozen page as a template's context: one name per field."""
    return {field.name: getattr(page, field.name) for field in fields(page)}  # type: ignore[arg-type]


# The analysed matches a player page charts (their last ones).
ACCURACY_SHOWN: Final = 30
