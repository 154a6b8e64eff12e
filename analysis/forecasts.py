"""Live win probability: each player's chance to win a match after every turn, kept per match
(`MatchForecast`) and brought up to date by the job `analysis.forecast_match`, which every
stored turn enqueues (`games.signals.turns_stored`). A page and the API read what is kept and
never wait for the job (docs/analysis.md, "Win probability").

The job is safe to run twice and to run late: it reads the match's turns, keeps the chances of
the turns that are still as they were when computed (`marks`: a turn taken back, voided or
corrected since is computed again), computes the rest from the rulebook's state after each turn
(`scoring.winprob.live`), and stores the whole at the match's `version` it read unless a newer
forecast is kept (a turn stored meanwhile sent the next job, which computes only what changed).
Its reads and its write are three statements written by hand (`analysis.forecast_sql`)."""

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from analysis import chances as live
from analysis import forecast_sql, signals
from analysis.models import MatchForecast
from core import jobs
from games.models import GameName, Match, MatchStatus
from games.scorecard import BOX_LABELS
from scoring import game_from_json, new_game
from scoring.analysis import StrategyTableError
from scoring.game import Game

logger = logging.getLogger(__name__)

FORECAST = "analysis.forecast_match"

# How many of the turns that moved a chance most the chart marks.
SWINGS = 3


def forecast_enqueue(match_id: int) -> None:
    """Send the forecast job for a match once the current transaction commits, unless one is
    waiting to start (`core.jobs.enqueue_once_on_commit`: a burst of turns costs one job and
    one Redis round trip a turn); beat's sweep catches up when the broker was down. Nothing
    when `FORECAST_EACH_TURN` is off: the sweep alone computes the forecasts then."""
    if settings.FORECAST_EACH_TURN:
        jobs.enqueue_once_on_commit(FORECAST, match_id)


def forecast_discard(*, match_id: int) -> None:
    """The match was voided: its chances no longer mean anything."""
    MatchForecast.objects.filter(match_id=match_id).delete()


@dataclass(frozen=True, slots=True)
class _Turn:
    mark: str
    seat: int
    points: int
    payload: Any


def _turns(match_id: int) -> list[_Turn]:
    return [
        _Turn(f"{pk}:{corrected.isoformat() if corrected else ''}", seat, points, payload)
        for pk, corrected, seat, points, payload in forecast_sql.turns(match_id)
    ]


def _kept(
    stored: forecast_sql.Kept | None, players: list[int], marks: list[str], *, losses: bool
) -> tuple[list[Any], list[float]]:
    """The stored chances still true: those after the turns that are as they were; and with
    `losses` (Yardzee) the losses of those turns, the chances kept only as far as their
    turns' losses are (a forecast stored before losses were kept is computed again)."""
    if stored is None or stored.players != players:
        return [], []
    same = 0
    for old, new in zip(stored.marks, marks, strict=False):
        if old != new:
            break
        same += 1
    if losses:
        same = min(same, len(stored.losses))
        return list(stored.chances[: same + 1]), [float(x) for x in stored.losses[:same]]
    return list(stored.chances[: same + 1]), []


def _chances(
    game: Game, turns: Sequence[_Turn], losses: Sequence[Sequence[float]] | None = None
) -> list[float]:
    payloads = [turn.payload for turn in turns]
    return [round(chance, 4) for chance in live.chances(game, losses, payloads)]


def _by_seat(turns: Sequence[_Turn], losses: Sequence[float], players: int) -> list[list[float]]:
    """The losses of the turns played (in order), by the seat that played them."""
    found: list[list[float]] = [[] for _ in range(players)]
    for turn, loss in zip(turns, losses, strict=False):
        found[turn.seat].append(loss)
    return found


def match_forecast(*, match_id: int) -> MatchForecast | None:
    """Bring the match's forecast up to date and return it; None for no such match, a void
    one, one entered from the paper pad, one whose game has no model here, or a Yardzee match
    on a server without its tables (logged: `manage.py build_strategy`)."""
    try:
        return _forecast(match_id)
    except StrategyTableError as error:
        logger.warning("No win probability for match %s: %s", match_id, error)
        return None


def _forecast(match_id: int) -> MatchForecast | None:
    match = forecast_sql.read(match_id)
    if match is None or match.status == MatchStatus.VOID or match.from_pad:
        return None
    stored = match.kept
    if stored is not None and stored.version == match.version:
        return MatchForecast.objects.filter(match_id=match_id).first()
    started = time.perf_counter()
    players = match.players
    if not live.supports(match.game, len(players)):
        return None
    turns = _turns(match_id)
    marks = [turn.mark for turn in turns]
    # Yardzee judges each player's strength by their turns' losses so far (kept per turn).
    rated = match.game == GameName.YARDZEE
    chances, losses = _kept(stored, players, marks, losses=rated)
    missing = len(turns) + 1 - len(chances)
    now = game_from_json(match.state)
    if missing == 1 and turns and not rated:
        chances.append(_chances(now, turns))  # the usual case: one turn more
    elif missing > 0:
        game = new_game(match.game, len(players), match.rules)
        for played, turn in enumerate(turns):  # `game` stands after `played` turns here
            if played >= len(chances):
                before = turns[:played]
                chances.append(_chances(game, before, _by_seat(before, losses, len(players))))
            if rated and played >= len(losses):
                losses.append(float(live.turn_loss(game, turn.payload) or 0.0))
            game.play(turn.payload)
        chances.append(
            _chances(game, turns, _by_seat(turns, losses, len(players)) if rated else None)
        )
    chances = chances[: len(turns) + 1]
    forecast = MatchForecast(
        match_id=match_id,
        version=match.version,
        model=live.model_name(now),
        players=players,
        chances=chances,
        marks=marks,
        losses=losses[: len(turns)],
        swings=turning_points(match.game, chances, turns),
        seconds=time.perf_counter() - started,
        updated_at=timezone.now(),
    )
    # Stored unless a newer forecast is kept, as behind when the match moved on meanwhile (the
    # job that change sent keeps what is still true): one statement, `forecast_sql.store`.
    stored_id = forecast_sql.store(forecast)
    if stored_id is None:
        return None
    forecast.pk, forecast._state.adding = stored_id, False  # as if read from the database
    signals.forecast_stored.send(sender=MatchForecast, match_id=match_id, forecast=forecast)
    return forecast


def turning_points(
    game: str, chances: Sequence[Sequence[float]], turns: Sequence[_Turn]
) -> list[dict[str, Any]]:
    """The `SWINGS` turns that moved a player's chance most, in play order: the turn, its
    player's seat, what they did, and that seat's chance before and after it."""
    moves = []
    for number, turn in enumerate(turns, start=1):
        before, after = chances[number - 1], chances[number]
        moved = max(abs(a - b) for a, b in zip(after, before, strict=True))
        moves.append((moved, number, turn))
    top = sorted(moves, key=lambda move: (-move[0], move[1]))[:SWINGS]
    return [
        {
            "turn": number,
            "seat": turn.seat,
            "what": _what(game, turn),
            "before": chances[number - 1][turn.seat],
            "after": chances[number][turn.seat],
        }
        for moved, number, turn in sorted(top, key=lambda move: move[1])
        if moved > 0
    ]


def _what(game: str, turn: _Turn) -> str:
    """A turn in a few words: "Yardzee (50)", "Chance (23)"; "banked 1,500", "Yardkle"."""
    if game == GameName.YARDZEE:
        category = turn.payload.get("category") if isinstance(turn.payload, dict) else None
        label = BOX_LABELS.get(category, str(category)) if isinstance(category, str) else "turn"
        return f"{label} ({turn.points:,})"
    return f"banked {turn.points:,}" if turn.points > 0 else "Yardkle"


# The sweep looks at matches played this recently, and enqueues at most this many a run.
SWEEP_HOURS = 24
SWEEP_BATCH = 200


def forecast_sweep() -> int:
    """Enqueue the forecast of matches being played, or finished in the last `SWEEP_HOURS`,
    whose forecast is missing or behind (a broker that was down, a take-back, a worker that
    died mid-job). Returns how many were enqueued."""
    since = timezone.now() - timedelta(hours=SWEEP_HOURS)
    behind = (
        Match.objects.filter(turns_played__gt=0, pad__isnull=True)
        .filter(
            Q(status=MatchStatus.IN_PROGRESS)
            | Q(status=MatchStatus.FINISHED, finished_at__gte=since)
        )
        .filter(Q(forecast__isnull=True) | ~Q(forecast__version=F("version")))
        .order_by("pk")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    ids = list(behind)
    for match_id in ids:
        jobs.send(FORECAST, (match_id,))
    return len(ids)
