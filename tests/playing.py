"""Play set up through the services for the tests that need it and do not care how it went:
matches played by the simulator (one home for "seat, let the simulator play, submit") and
stages fed by another."""

from collections.abc import Sequence
from typing import Any

import scoring
from games import services as game_services
from games.models import Match
from league.models import Event, Player, Stage
from league.services import stages
from scoring import simulate


def simulated_turns(match: Match, seed: int = 0) -> list[dict[str, Any]]:
    """A whole legal game for the match's seats and rules, from the simulator; nothing stored."""
    game = scoring.new_game(match.game, match.seats.count(), match.rules)
    return simulate.play_game(game, seed=seed)


def play(match: Match, seed: int = 0, *, turns: int | None = None) -> None:
    """Play a seated match with the simulator: to the end as one result, or only its first
    `turns` turns one by one."""
    played = simulated_turns(match, seed)
    if turns is None:
        game_services.result_submit(match_id=match.pk, turns=played)
        return
    for turn in played[:turns]:
        game_services.turn_submit(match_id=match.pk, turn=turn)


def pad_of(match: Match, seed: int = 0) -> list[dict[str, Any]]:
    """The paper pad of the simulator's game for the match (the one `play` would play with
    the same seed): Yardzee each seat's boxes and Yardzee bonus count, Yardkle each seat's
    banked turn totals in order (0 for a Yardkle)."""
    game = scoring.new_game(match.game, match.seats.count(), match.rules)
    banked: list[list[int]] = [[] for _ in range(match.seats.count())]
    for turn in simulated_turns(match, seed):
        done = game.play(turn)
        banked[done.seat].append(done.points)
    if match.game == "yardzee":
        return [
            {"boxes": card["boxes"], "yardzee_bonus_count": card["yardzee_bonus_count"]}
            for card in game.to_json()["scorecards"]
        ]
    return [{"turns": turns} for turns in banked]


def play_stage(stage: Stage, seed: int = 0, limit: int | None = None) -> int:
    """Play the stage's scheduled matches in id order (match n with seed `seed` + n) until
    none is left, or `limit` are played; how many were."""
    played = 0
    while limit is None or played < limit:
        match = (
            Match.objects.filter(stage_match__stage=stage, status="scheduled")
            .order_by("pk")
            .first()
        )
        if match is None:
            break
        play(match, seed=seed + played)
        played += 1
    return played


def finished(game: str, players: Sequence[Player], seed: int = 1) -> Match:
    """A casual match of `game` between `players`, seated and played to its end."""
    match = game_services.match_create(game=game, player_ids=[p.pk for p in players])
    play(match, seed)
    return Match.objects.get(pk=match.pk)


def start_stage(event: Event, fmt: str, players: list[Player], **options: object) -> Stage:
    """A stage of `fmt` at `event` seating `players` (put on the league's roster first),
    started; named after its format unless `name=` says."""
    event.league.players.add(*players)
    stage = stages.stage_create(
        event_id=event.pk,
        name=options.pop("name", fmt.replace("_", " ").capitalize()),  # type: ignore[arg-type]
        format=fmt,
        player_ids=[p.pk for p in players],
        **options,  # type: ignore[arg-type]
    )
    return stages.stage_start(stage_id=stage.pk)


def fed_stage(
    source: Stage, name: str = "Knockout", format: str = "single_elimination", **options: Any
) -> Stage:
    """A stage created (not started) at the event of `source` that takes its players from
    `source` (`source_top=`, `source_per_group=`, ... in `options`)."""
    return stages.stage_create(
        event_id=source.event_id,
        name=name,
        format=format,
        source_stage_id=source.pk,
        **options,
    )
