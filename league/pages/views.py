"""Pages: server-rendered, read-only for anyone.

`/` leagues, `/leagues/<slug>/` a league's table, leaderboard and events, `/events/<id>/` an
event's stages (standings, bracket as SVG, rounds), `/players/<id>/` a player's results and
rating history. The parts that move while an event is played also have a `live/` URL that
renders only them, which the page fetches to refresh itself (static/js/live.js). Every page
costs a fixed number of queries, whatever the size of the league (tests/web)."""

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import SafeString, mark_safe

from analysis.selectors import league_accuracy, league_analysis_version, player_accuracy
from games.models import MatchStatus
from league import draw, selectors
from league.models import (
    Event,
    EventStatus,
    ForfeitReason,
    League,
    Player,
    RatingsState,
    Stage,
    StageEntry,
    StageStatus,
    StandingsScope,
    StandingsTable,
)
from league.pages import table_cache
from league.pages.svg import (
    ChartPoint,
    ChartSeries,
    SeatLine,
    SlotBox,
    SlotStatus,
    bracket_svg,
    rating_chart_svg,
)
from league.services.standings_refresh import standings_table_computed_on_miss
from league.standings import METRICS, GroupMetric

# Parts of a page that can change refresh this often while something is being played.
LIVE_SECONDS = 15
UPCOMING_SHOWN = 3
RECENT_SHOWN = 5
RESULTS_SHOWN = 50
# An event's matches outside any stage, newest first; a season's worth would be thousands.
MATCHES_SHOWN = 50
# The rendered list of them is kept this long per version (a renamed player shows after it).
MATCHES_KEEP_SECONDS = 5 * 60

Scope = tuple[str, int]


# --- Home -------------------------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    leagues = []
    for league in selectors.leagues_with_events():
        upcoming: list[Event] = []
        recent: list[Event] = []
        for event in league.events.all():
            if event.status == EventStatus.CANCELLED:
                continue
            ahead = event.status == EventStatus.RUNNING or (
                event.status == EventStatus.UPCOMING and event.date >= today
            )
            (upcoming if ahead else recent).append(event)
        upcoming.sort(key=lambda e: (e.status != EventStatus.RUNNING, e.date, e.pk))
        leagues.append(
            {
                "league": league,
                "upcoming": upcoming[:UPCOMING_SHOWN],
                "recent": recent[:RECENT_SHOWN],
            }
        )
    return render(request, "league/home.html", {"leagues": leagues})


# --- Standings tables ---------------------------------------------------------------------------


def _tables(scopes: list[Scope]) -> dict[Scope, StandingsTable]:
    """The stored tables of `scopes` in one query, without their rows (`standings_html` loads
    them only to render a version not rendered yet); one not stored yet is computed now (as
    the API does), which happens once per scope."""
    tables = selectors.stored_standings(scopes, rows=False)
    for scope in scopes:
        if scope not in tables:
            tables[scope] = standings_table_computed_on_miss(scope)
    return tables


def _metric_label(key: str) -> str:
    metric = METRICS.get(key)
    return str(metric.label) if metric is not None else key.replace("_", " ").capitalize()


def metric_text(key: str, value: object) -> str:
    """A metric's value as the table shows it: exact halves and thirds of points as
    decimals, averages to one decimal, counts with thousands separators, none as a dash."""
    if value is None:
        return "\u2013"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if key == "average_score":
            return f"{value:,.1f}"
        if value.is_integer():
            return f"{int(value):,}"
        return f"{value:,.2f}".rstrip("0").rstrip(".")
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def standings_view(
    table: StandingsTable, *, caption: str, group: int | None = None
) -> dict[str, Any]:
    """A stored table ready for `league/_standings.html`: one column per metric of the
    tiebreak order, in that order, then matches played and the win-draw-loss record (and the
    byes and forfeits, when the table has any); with `group`, that group's rows alone (a stage
    played in groups)."""
    answer = selectors.standings_answer(table, group=group)
    keys = [str(key) for key in answer["tiebreak"]]
    rows = []
    for row in answer["rows"]:
        metrics = row.get("metrics") or {}
        won = row["wins"] - row["byes"]
        rows.append(
            {
                "rank": row["rank"],
                "player": row["player"],
                "name": row["name"],
                "cells": [metric_text(key, metrics.get(key, row.get(key))) for key in keys],
                "matches": row["matches"],
                "record": f"{won}\u2013{row['draws']}\u2013{row['matches'] - won - row['draws']}",
                "byes": row["byes"],
                "forfeits": row.get("forfeits", 0),
            }
        )
    return {
        "caption": caption,
        "columns": [{"key": key, "label": _metric_label(key)} for key in keys],
        "rows": rows,
        "computed_at": answer["computed_at"],
        "pending": answer["pending"],
        "with_byes": any(row["byes"] for row in rows),
        "with_forfeits": any(row["forfeits"] for row in rows),
        "id": f"standings-{table.scope}-{table.scope_id}"
        + (f"-group-{group}" if group is not None else ""),
    }


def _table_version(
    table: StandingsTable, caption: str, group: int | None = None
) -> table_cache.Version:
    """Everything `league/_standings.html` shows changes with one of these."""
    return (
        table.pk,
        table.requested,
        table.computed,
        table.computed_at,
        tuple(table.tiebreak),
        caption,
        group,
    )


def standings_html(
    table: StandingsTable,
    *,
    caption: str,
    group: int | None = None,
    stored: Callable[[], StandingsTable] | None = None,
) -> SafeString:
    """The table (with `group`, one group's rows) as `league/_standings.html` shows it,
    rendered once per stored version of it (`league.pages.table_cache`): a table computed
    again is shown at once. `stored` reads the rows on a miss (shared by a stage's groups)."""

    def load() -> tuple[table_cache.Version, dict[str, Any]]:
        # The rows with the version they belong to: one row, read in one statement.
        rows = stored() if stored is not None else StandingsTable.objects.get(pk=table.pk)
        return _table_version(rows, caption, group), {
            "table": standings_view(rows, caption=caption, group=group)
        }

    return table_cache.render_cached(
        "league/_standings.html", _table_version(table, caption, group), load
    )


def group_tables(stage: Stage, table: StandingsTable) -> list[dict[str, Any]]:
    """A stage played in groups: each group's own table ("Group 1", "Group 2", ...), each
    rendered once per stored version; on a miss the rows are read once for all groups."""
    read: list[StandingsTable] = []

    def stored() -> StandingsTable:
        if not read:
            read.append(StandingsTable.objects.get(pk=table.pk))
        return read[0]

    return [
        {
            "label": f"Group {number}",
            "html": standings_html(
                table, caption=f"{stage.name}: group {number}", group=number, stored=stored
            ),
        }
        for number in range(1, stage.groups + 1)
    ]


def _ratings_version(
    league: League, state: RatingsState | None
) -> tuple[int, str, int, int, object]:
    if state is None:
        return (league.pk, league.name, 0, 0, None)
    return (league.pk, league.name, state.requested, state.computed, state.computed_at)


def leaderboard_html(league: League, state: RatingsState | None) -> SafeString:
    """The league's ratings leaderboard (`league/_leaderboard.html`) with each player's
    accuracy, rendered once per stored version of its ratings (`state`, as read for this
    request) and of its matches' analyses."""
    analysed = league_analysis_version(league.pk)

    def load() -> tuple[table_cache.Version | None, dict[str, Any]]:
        before = selectors.ratings_state(league)
        board = selectors.leaderboard(league)
        accuracy = league_accuracy(league.pk)
        after = selectors.ratings_state(league)
        # Ratings computed between the reads: show them, but keep nothing under either version.
        same = _ratings_version(league, before) == _ratings_version(league, after)
        return (_ratings_version(league, after) + analysed if same else None), {
            "league": league,
            "leaderboard": board,
            "accuracy": {player: average.accuracy for player, average in accuracy.items()},
        }

    return table_cache.render_cached(
        "league/_leaderboard.html", _ratings_version(league, state) + analysed, load
    )


# --- League -----------------------------------------------------------------------------------


def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    return render(request, "league/league.html", league_context(slug))


def league_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The league page's tables alone, for the page to refresh them."""
    return render(request, "league/_league_live.html", league_context(slug))


def league_context(slug: str) -> dict[str, Any]:
    league = get_object_or_404(League, slug=slug)
    scope = (StandingsScope.LEAGUE.value, league.pk)
    table = _tables([scope])[scope]
    ratings = selectors.ratings_state(league)
    events = list(league.events.all())
    return {
        "league": league,
        "standings": standings_html(table, caption=f"{league.name}: league table"),
        "leaderboard": leaderboard_html(league, ratings),
        "events": events,
        "live": table.pending
        or (ratings is not None and ratings.pending)
        or any(event.status == EventStatus.RUNNING for event in events),
        "live_seconds": LIVE_SECONDS,
        "tiebreak": [_metric_label(key) for key in table.tiebreak],
    }


# --- Event ------------------------------------------------------------------------------------


def event_detail(request: HttpRequest, event_id: int) -> HttpResponse:
    context = event_context(event_id)
    # Its organizers see their links (never a key) on the page itself, not in its live part,
    # which is the same for every reader.
    context["is_organizer"] = context["event"].league.is_organizer(request.user)
    return render(request, "league/event.html", context)


def event_live(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event page's stages and tables alone, for the page to refresh them."""
    return render(request, "league/_event_live.html", event_context(event_id))


def event_context(event_id: int) -> dict[str, Any]:
    """An event with every stage's standings, bracket or rounds, and its latest matches outside
    any stage: about three queries per stage plus six, however many players and matches."""
    event = get_object_or_404(Event.objects.select_related("league"), pk=event_id)
    stages = selectors.event_stages(event)
    entries = selectors.stage_entries([stage.pk for stage in stages])
    counts = selectors.event_loose_match_counts(event)
    event_scope = (StandingsScope.EVENT.value, event.pk)
    scopes = [(StandingsScope.STAGE.value, stage.pk) for stage in stages]
    if counts["all"]:
        scopes.append(event_scope)
    tables = _tables(scopes)
    stage_views = [
        _stage_view(stage, entries[stage.pk], tables[(StandingsScope.STAGE.value, stage.pk)])
        for stage in stages
    ]
    event_table = (
        standings_html(tables[event_scope], caption=f"{event.name}: standings")
        if counts["all"]
        else None
    )
    live = event.status != EventStatus.CANCELLED and (
        any(stage.status == StageStatus.RUNNING for stage in stages)
        or any(table.pending for table in tables.values())
        or counts["open"] > 0
    )
    return {
        "event": event,
        "league": event.league,
        "stages": stage_views,
        "event_table": event_table,
        "has_matches": bool(counts["all"]),
        "matches": event_matches_html(event, counts["all"]) if counts["all"] else "",
        "live": live,
        "live_seconds": LIVE_SECONDS,
    }


def _matches_version(event: Event, count: int, matches: Sequence[Any]) -> table_cache.Version:
    """What a line of the list shows changes with one of these: a match's status and turns,
    and `finished_at` for its totals (finished again after an undo is a new time)."""
    return (
        event.pk,
        count,
        tuple((m.pk, m.status, m.turns_played, m.finished_at) for m in matches),
    )


def event_matches_html(event: Event, count: int) -> SafeString:
    """The event's latest matches outside any stage (`league/_event_matches.html`), rendered
    once per version of them (`league.pages.table_cache`): the version is read without the seats
    and players, which are loaded only to render a version not rendered yet. A renamed player
    is the one change the version does not see: it shows within twice MATCHES_KEEP_SECONDS."""
    latest = selectors.event_loose_match_versions(event, limit=MATCHES_SHOWN)

    def load() -> tuple[table_cache.Version | None, dict[str, Any]]:
        loaded_count = selectors.event_loose_match_counts(event)["all"]
        matches = selectors.event_loose_matches(event, limit=MATCHES_SHOWN)
        context = {
            "matches": [_match_view(match, round_=None) for match in matches],
            "matches_hidden": loaded_count - len(matches),
        }
        return _matches_version(event, loaded_count, matches), context

    return table_cache.render_cached(
        "league/_event_matches.html",
        _matches_version(event, count, latest),
        load,
        keep=MATCHES_KEEP_SECONDS,
    )


def _match_view(match: Any, *, round_: int | None, group: int = 1) -> dict[str, Any]:
    """A match as a line of a round: its seats with names, totals and places."""
    seats = sorted(match.seats.all(), key=lambda seat: seat.order)
    return {
        "id": match.pk,
        "status": match.status,
        "status_text": match.get_status_display(),
        "round": round_,
        "group": group,
        "seats": [
            {
                "player": seat.player_id,
                "name": seat.player.display_name,
                "total": seat.total,
                "placement": seat.placement,
                "won": match.status == MatchStatus.FINISHED and seat.placement == 1,
            }
            for seat in seats
        ],
    }


def _stage_view(stage: Stage, entries: list[StageEntry], table: StandingsTable) -> dict[str, Any]:
    detail = selectors.stage_detail(stage)
    names = {entry.player_id: entry.player.display_name for entry in entries}
    seeds = {entry.player_id: entry.seed for entry in entries}
    grouped = stage.played_in_groups
    view: dict[str, Any] = {
        "stage": stage,
        "standings": None if grouped else standings_html(table, caption=f"{stage.name}: standings"),
        "group_tables": group_tables(stage, table) if grouped else [],
        # A place's players of different groups are compared by these (never head-to-head).
        "across_groups": [
            _metric_label(key)
            for key in table.tiebreak
            if key in METRICS and not issubclass(METRICS[key], GroupMetric)
        ],
        "tiebreak": [_metric_label(key) for key in table.tiebreak],
        "bracket_svg": None,
        "rounds": [],
        "ranking": _ranking_view(stage.ranking or [], names),
        "entries": entries,
    }
    if detail["bracket"] is not None:
        boxes = bracket_boxes(stage, detail["bracket"]["slots"], names, seeds)
        # Every text in the SVG is escaped by bracket_svg.
        view["bracket_svg"] = mark_safe(  # noqa: S308
            bracket_svg(boxes, title=f"Bracket of {stage.name}", id_prefix=f"stage-{stage.pk}")
        )
        view["slots"] = len(boxes)
    else:
        view["rounds"] = _rounds_view(detail, names)
    return view


def _ranking_view(tiers: list[list[int]], names: dict[int, str]) -> list[dict[str, Any]]:
    """A finished stage's ranking: each tier with its place (players sharing a tier share
    the place, and the next place is skipped)."""
    ranking = []
    place = 1
    for tier in tiers:
        ranking.append(
            {
                "place": place,
                "players": [{"id": p, "name": names.get(p, f"Player {p}")} for p in tier],
            }
        )
        place += len(tier)
    return ranking


# What a list or the bracket says of a player who forfeited a stage match, by its reason
# (`ForfeitReason`), instead of the "void" of the match the forfeit replaced.
FORFEIT_TEXT: Final[dict[str, str]] = {
    ForfeitReason.NO_SHOW: "did not show",
    ForfeitReason.WITHDREW: "withdrew",
    ForfeitReason.AWARDED: "forfeited",
}


def forfeit_text(reason: str) -> str:
    return FORFEIT_TEXT.get(reason, "forfeited")


def _forfeit_notes(play: dict[str, Any] | None) -> dict[int, str]:
    """Each player who forfeited a stage match (`stage_detail`'s play), with why."""
    if play is None:
        return {}
    return {forfeit["player"]: forfeit_text(forfeit["reason"]) for forfeit in play["forfeits"]}


def _seat_of(player: int, names: dict[int, str], **shown: Any) -> dict[str, Any]:
    return {
        "player": player,
        "name": names.get(player, f"Player {player}"),
        "total": None,
        "placement": None,
        "won": False,
        "note": None,
        **shown,
    }


def _play_view(summary: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """A stage match as a line of its round. A slot decided without play reads "Walkover"
    (the match a forfeit replaced is void, but nothing was voided in the players' eyes), and
    each player who forfeited says why ("withdrew", "did not show") beside their name, also
    when the rest of the table played on at a new match. A match voided for another reason
    still reads "Void"."""
    notes = _forfeit_notes(summary)
    if summary["walkover"]:
        return {
            "id": None,
            "status": "walkover",
            "status_text": "Walkover",
            "group": summary["group"],
            "seats": [
                _seat_of(p, names, won=p not in notes, note=notes.get(p))
                for p in summary["order"] or []
            ],
        }
    match = summary["match"]
    seats = [
        {
            **seat,
            "won": match["status"] == MatchStatus.FINISHED and seat["placement"] == 1,
            "note": None,
        }
        for seat in (match["seats"] if match else [])
    ]
    seated = {seat["player"] for seat in seats}
    seats += [_seat_of(p, names, note=note) for p, note in notes.items() if p not in seated]
    return {
        "id": match["id"] if match else None,
        "status": match["status"] if match else "waiting",
        "status_text": MatchStatus(match["status"]).label if match else "Waiting",
        "group": summary["group"],
        "seats": seats,
    }


def _rounds_view(detail: dict[str, Any], names: dict[int, str]) -> list[dict[str, Any]]:
    byes: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for bye in detail["byes"]:
        byes[bye["round"]].append(
            {"player": bye["player"], "name": names.get(bye["player"], f"Player {bye['player']}")}
        )
    rounds = []
    for round_ in detail["rounds"]:
        matches = [_play_view(summary, names) for summary in round_["matches"]]
        rounds.append(
            {
                "number": round_["number"],
                "matches": matches,
                "byes": byes.get(round_["number"], []),
                "groups": len({m["group"] for m in matches}) > 1,
            }
        )
    return rounds


_PLAY_STATUS: dict[str, SlotStatus] = {
    MatchStatus.SCHEDULED: "ready",
    MatchStatus.IN_PROGRESS: "in_progress",
    MatchStatus.FINISHED: "played",
    MatchStatus.VOID: "void",
}


def _source_text(source: dict[str, Any]) -> str:
    if source.get("kind") == "seed":
        return f"Seed {source.get('seed')}"
    rank = int(source.get("rank") or 1)
    if source.get("kind") == "winner" and rank == 1:
        return f"Winner of {source.get('slot')}"
    if source.get("kind") == "loser" and rank == 2:  # a pair's loser
        return f"Loser of {source.get('slot')}"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(rank, "th")
    return f"{rank}{suffix} of {source.get('slot')}"


def _bracket_state(stage: Stage, slots: list[dict[str, Any]]) -> Mapping[str, draw.SlotState]:
    """Where each slot of the bracket stands, as the stage service stored it when it last
    advanced the bracket (players that a bye sent on before their next match exists
    included). A bracket stored before the service kept slot states is advanced here from
    its finishing orders, as the service would."""
    stored = (stage.bracket or {}).get("state")
    if isinstance(stored, dict):
        try:
            return draw.slot_states_from_json(stored)
        except (KeyError, TypeError):  # edited by hand: advance it from the orders below
            pass
    results = {
        slot["key"]: draw.SlotResult(
            placements={p: place for place, p in enumerate(slot["play"]["order"], start=1)}
        )
        for slot in slots
        if slot["play"] is not None and slot["play"]["order"] is not None
    }
    try:
        return draw.advance_bracket(draw.Bracket.from_json(stage.bracket or {}), results).slots
    except (draw.DrawError, KeyError, TypeError):  # a bracket edited by hand: draw what is stored
        return {}


def bracket_boxes(
    stage: Stage, slots: list[dict[str, Any]], names: dict[int, str], seeds: dict[int, int]
) -> list[SlotBox]:
    """The stage's bracket slots (`stage_detail`) as boxes to draw: each seat's player (or
    what will fill it), seed and score, who goes on, byes, the match to link to."""
    state = _bracket_state(stage, slots)
    boxes = []
    for slot in slots:
        play = slot["play"]
        match = play["match"] if play else None
        slot_state = state.get(slot["key"])
        scores = {seat["player"]: seat["total"] for seat in match["seats"]} if match else {}
        notes = _forfeit_notes(play)
        if play is not None and play["order"] is not None:
            order = list(play["order"])
        elif slot_state is not None and slot_state.decided:
            order = list(slot_state.order)
        else:
            order = []
        going_on = set(order[: slot["advance"]])
        if slot_state is not None:
            seated: list[int | None] = list(slot_state.seats)
        elif match:
            seated = [seat["player"] for seat in match["seats"]]
        else:
            seated = []
        lines = []
        for number, source in enumerate(slot["sources"]):
            player = seated[number] if number < len(seated) else None
            from_slot = source.get("slot") if source.get("kind") == "winner" else None
            if player is not None:
                lines.append(
                    SeatLine(
                        label=names.get(player, f"Player {player}"),
                        seed=seeds.get(player),
                        score=scores.get(player),
                        advances=player in going_on,
                        from_slot=from_slot,
                        note=notes.get(player),
                    )
                )
            elif slot_state is not None and slot_state.status != "waiting":
                lines.append(SeatLine(label="bye", bye=True, from_slot=from_slot))
            else:
                lines.append(SeatLine(label=_source_text(source), known=False, from_slot=from_slot))
        lines.extend(SeatLine(label="bye", bye=True) for _ in range(slot["byes"]))
        status: SlotStatus
        walkover = play is not None and play["walkover"]
        if walkover:  # decided without play: its match, if any, is void only in the books
            status = "walkover"
        elif match is not None:
            status = _PLAY_STATUS.get(match["status"], "waiting")
        elif slot_state is not None:
            status = slot_state.status
        else:
            status = "waiting"
        boxes.append(
            SlotBox(
                key=slot["key"],
                section=slot["bracket"],
                round=slot["round"],
                index=slot["index"],
                seats=tuple(lines),
                status=status,
                href=reverse("games:match", args=[match["id"]]) if match and not walkover else None,
            )
        )
    return boxes


# --- Player -----------------------------------------------------------------------------------


def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id)
    seats = selectors.player_seats(player, limit=RESULTS_SHOWN)
    ratings = selectors.player_ratings(player)
    history = selectors.rating_history(player)
    league_names = {rating.league.slug: rating.league.name for rating in ratings}
    forfeits = selectors.forfeit_voids(
        [seat.match_id for seat in seats if seat.match.status == MatchStatus.VOID]
    )
    results = []
    for seat in seats:
        match = seat.match
        results.append(
            {
                "match": match,
                **_result_status(match, player.pk, forfeits.get(match.pk)),
                "event": match.event,
                "placement": seat.placement,
                "total": seat.total,
                "table": len(match.seats.all()),
                "opponents": [
                    other.player for other in match.seats.all() if other.player_id != player.pk
                ],
            }
        )
    counts = selectors.player_placement_counts(player)
    return render(
        request,
        "league/player.html",
        {
            "player": player,
            "results": results,
            "results_shown": RESULTS_SHOWN,
            "placements": [{"place": place, "count": count} for place, count in counts.items()],
            "played": sum(counts.values()),
            "finishes": selectors.player_stage_finishes(player),
            "ratings": ratings,
            "history": [
                {**row, "number": number, "league_name": league_names.get(row["league"], "")}
                for number, row in enumerate(history, start=1)
            ],
            "chart": rating_chart(player, history, league_names),
            **accuracy_context(player),
        },
    )


def accuracy_context(player: Player) -> dict[str, Any]:
    """The player's play against optimal play over their last analysed matches: a chart of
    each match's accuracy, the average accuracy and points lost per game (docs/pages.md)."""
    matches = player_accuracy(player.pk, limit=ACCURACY_SHOWN)
    if not matches:
        return {"accuracy_chart": None, "accuracy": None}
    points = tuple(
        ChartPoint(
            x=number,
            value=round(row.accuracy, 1),
            label=f"{date_format(timezone.localtime(row.finished_at), 'j M Y')}, "
            f"match #{row.match}",
        )
        for number, row in enumerate(matches, start=1)
    )
    svg = rating_chart_svg(
        [ChartSeries(label="Accuracy", points=points)],
        title=f"Accuracy of {player.display_name} in each analysed match",
        id_prefix=f"accuracy-{player.pk}",
    )
    return {
        # Every text in the SVG is escaped by rating_chart_svg.
        "accuracy_chart": mark_safe(svg),  # noqa: S308
        "accuracy": {
            "matches": len(matches),
            "mean": sum(row.accuracy for row in matches) / len(matches),
            "loss_per_game": sum(row.total_loss for row in matches) / len(matches),
        },
    }


def _result_status(
    match: Any, player_id: int, forfeit: selectors.ForfeitVoid | None
) -> dict[str, str]:
    """A match's status on a player's list of results: a match a forfeit replaced says what
    happened to this player ("withdrew", "did not show", "walkover", "replaced by #12"), not
    "void"; any other match, its own status."""
    if forfeit is None:
        return {"status": match.status, "status_text": match.get_status_display()}
    if player_id in forfeit.forfeits:
        return {"status": "walkover", "status_text": forfeit_text(forfeit.forfeits[player_id])}
    if forfeit.replay is not None:
        return {"status": "walkover", "status_text": f"replaced by #{forfeit.replay}"}
    return {"status": "walkover", "status_text": "walkover"}


# The analysed matches a player page charts (their last ones).
ACCURACY_SHOWN: Final = 30


def rating_chart(
    player: Player, history: list[dict[str, Any]], league_names: dict[str, str]
) -> SafeString | None:
    """The player's rating after each rated match as an SVG line chart, one line per league;
    None without rated matches."""
    by_league: dict[str, list[ChartPoint]] = defaultdict(list)
    for number, row in enumerate(history, start=1):
        when = date_format(timezone.localtime(row["finished_at"]), "j M Y")
        by_league[row["league"]].append(
            ChartPoint(x=number, value=row["ordinal"], label=f"{when}, match #{row['match']}")
        )
    series = [
        ChartSeries(label=league_names.get(slug, slug), points=tuple(points))
        for slug, points in by_league.items()
    ]
    svg = rating_chart_svg(
        series,
        title=f"Rating of {player.display_name} after each rated match",
        id_prefix=f"rating-{player.pk}",
    )
    # Every text in the SVG is escaped by rating_chart_svg.
    return mark_safe(svg) if svg else None  # noqa: S308
