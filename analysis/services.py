"""Analyse finished matches and keep their analysis; forget it when the result goes.

`match_analyse` is the job's body: idempotent (an analysis of the match as it finished now is
kept, not redone) and safe to run twice at once (the row is written with update_or_create on
the match). A result withdrawn (undo, correction, void) deletes the row in the transaction that
withdrew it (`analysis_discard`); the next finish enqueues the job again. A correction that
keeps the result deletes it and enqueues the job again; a job that read the turns before a
change to the match (its `version`) stores nothing."""

import json
import logging
import time
from typing import Any

from django.db import transaction
from django.db.models import F, Q, QuerySet

from analysis.models import MatchAnalysis, PlayerAccuracy
from analysis.strategies import yardzee_strategy
from core import jobs
from games.models import GameName, Match, MatchStatus
from scoring.analysis import StrategyTableError, analyse_game

logger = logging.getLogger(__name__)

ANALYSE = "analysis.analyse_match"


def analysis_enqueue(match_id: int) -> None:
    """Send the analysis job for a match once the current transaction commits (a second
    later, so a finish undone at once is never analysed); a broker that cannot be reached is
    logged, and beat's sweep (`unanalysed`) catches up."""
    jobs.enqueue_on_commit(ANALYSE, match_id)


def analysis_discard(*, match_id: int) -> None:
    """The match's result no longer stands: its analysis goes with it."""
    MatchAnalysis.objects.filter(match_id=match_id).delete()


def current_analysis(match: Match) -> MatchAnalysis | None:
    """The stored analysis of the match as it finished, or None (not finished, not analysed
    yet, or analysed before a later finish)."""
    if match.status != MatchStatus.FINISHED or match.finished_at is None:
        return None
    return MatchAnalysis.objects.filter(match=match, finished_at=match.finished_at).first()


def match_analyse(*, match_id: int) -> MatchAnalysis | None:
    """Analyse a finished match and store it; None when the match is not finished (or gone),
    or its result was entered from the paper pad (no turns).
    A match already analysed as it finished is left as it is."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != MatchStatus.FINISHED or match.finished_at is None:
        return None
    if match.pad is not None:  # a result from the paper pad has no turns to analyse
        return None
    if (stored := current_analysis(match)) is not None:
        return stored
    started = time.perf_counter()
    seats = list(match.seats.order_by("order").values_list("player_id", flat=True))
    turns = list(match.turns.order_by("sequence").values_list("payload", flat=True))
    strategy = None
    if match.game == GameName.YARDZEE:
        strategy = yardzee_strategy(match.rules)
    start = {"game": match.game, "players": len(seats), "rules": match.rules, "turns": turns}
    result = analyse_game(start, strategy=strategy)
    players = [{"player": seats[summary.seat], **summary.to_json()} for summary in result.players]
    seconds = time.perf_counter() - started
    with transaction.atomic():
        # The match may have been reopened, or a turn corrected (which keeps the finish),
        # while this ran: store only an analysis of the turns as they still stand.
        still = Match.objects.select_for_update().filter(
            pk=match_id,
            status=MatchStatus.FINISHED,
            finished_at=match.finished_at,
            version=match.version,
        )
        if not still.exists():
            return None
        analysis, _ = MatchAnalysis.objects.update_or_create(
            match=match,
            defaults={
                "finished_at": match.finished_at,
                "players": players,
                "turns": [turn.to_json() for turn in result.turns],
                "seconds": seconds,
            },
        )
        PlayerAccuracy.objects.filter(analysis=analysis).delete()
        PlayerAccuracy.objects.bulk_create(
            PlayerAccuracy(
                analysis=analysis,
                player_id=summary["player"],
                finished_at=match.finished_at,
                decisions=summary["decisions"],
                accuracy=summary["accuracy"],
                mean_loss=summary["mean_loss"],
                total_loss=summary["total_loss"],
            )
            for summary in players
        )
    logger.info(
        "Analysed match %s (%s, %d turns) in %.2f s.", match_id, match.game, len(turns), seconds
    )
    return analysis


def unanalysed(limit: int | None = None) -> QuerySet[Match]:
    """Finished matches with no analysis of their current result, oldest finish first (a
    result from the paper pad has none to make)."""
    matches = (
        Match.objects.filter(status=MatchStatus.FINISHED, pad__isnull=True)
        .filter(Q(analysis__isnull=True) | ~Q(analysis__finished_at=F("finished_at")))
        .order_by("finished_at", "pk")
    )
    return matches[:limit] if limit is not None else matches


# The sweep enqueues at most this many a run (every ANALYSIS_SWEEP_SECONDS).
SWEEP_BATCH = 200


def analysis_sweep() -> int:
    """Enqueue the analysis of finished matches left unanalysed (a broker that was down, a
    worker that died mid-job). Returns how many were enqueued.

    A Yardzee match whose strategy table this server lacks is passed over (its job could only
    fail), and the sweep says once how many wait for `manage.py build_strategy`, so a server
    without tables neither resends those jobs every run nor starves the other matches."""
    ready: dict[str, bool] = {}
    ids: list[int] = []
    waiting = 0
    for match_id, game, rules in unanalysed().values_list("pk", "game", "rules").iterator():
        if game == GameName.YARDZEE and not _table_ready(rules, ready):
            waiting += 1
            continue
        ids.append(match_id)
        if len(ids) == SWEEP_BATCH:
            break
    for match_id in ids:
        jobs.send(ANALYSE, (match_id,))
    if waiting:
        logger.warning(
            "%d finished Yardzee matches wait for their strategy table: "
            "run manage.py build_strategy (docs/analysis.md).",
            waiting,
        )
    return len(ids)


def _table_ready(rules: Any, ready: dict[str, bool]) -> bool:
    """Whether this process can load the strategy table of a Yardzee ruleset (asked once a
    sweep per ruleset)."""
    key = json.dumps(rules, sort_keys=True)
    if key not in ready:
        try:
            yardzee_strategy(rules)
        except StrategyTableError:
            ready[key] = False
        else:
            ready[key] = True
    return ready[key]
