"""Finished Yardzee results in bulk, for the benchmarks and the system harness: what a busy
league's event holds after a season, without playing every game."""

import datetime
import random

from django.utils import timezone

from games.models import Match, Seat
from league.models import Event, Player


def finished_matches(
    event: Event, *, players: int, matches: int, table: int = 4, seed: int = 2026
) -> None:
    """`matches` finished matches of `table` seats at `event`, among `players` new players,
    with plausible totals and the placements they give."""
    rng = random.Random(seed)
    field = Player.objects.bulk_create(
        Player(display_name=f"Player {i}", handle=f"seed-{event.pk}-{i}") for i in range(players)
    )
    event.league.players.add(*field)
    start = timezone.now() - datetime.timedelta(days=30)
    created = Match.objects.bulk_create(
        Match(
            game="yardzee",
            rules={"joker": "forced"},
            state={},
            status="finished",
            event=event,
            league_id=event.league_id,
            score_key=f"seed-{event.pk}-{i}",
            finished_at=start + datetime.timedelta(seconds=i),
            turns_played=13 * table,
        )
        for i in range(matches)
    )
    seats = []
    for match in created:
        totals = [rng.randint(120, 320) for _ in range(table)]
        for order, player in enumerate(rng.sample(field, table)):
            seats.append(
                Seat(
                    match=match,
                    player=player,
                    order=order,
                    total=totals[order],
                    placement=1 + sum(t > totals[order] for t in totals),
                    yardzees=int(rng.random() < 0.2),
                    upper_bonus=rng.random() < 0.4,
                )
            )
    Seat.objects.bulk_create(seats, batch_size=5_000)
