"""Playing stages with seeded random results, the way the service will: draw, play whatever is
ready, advance, repeat until the stage is over."""

import random
from collections import Counter
from collections.abc import Sequence

from league.draw import (
    Bracket,
    BracketState,
    PlayerId,
    Round,
    SlotResult,
    SwissStanding,
    advance_bracket,
    swiss_round,
)


def random_result(players: Sequence[PlayerId], rng: random.Random) -> SlotResult:
    """Places drawn at random, ties likely (two players may both finish second)."""
    return SlotResult(placements={p: rng.randint(1, len(players)) for p in players})


def tiebreak(player: PlayerId) -> tuple[float, ...]:
    """A fixed stage tiebreak for tests: higher ids first (so it differs from seed order)."""
    return (-player,)


def play_bracket(
    bracket: Bracket, rng: random.Random
) -> tuple[dict[str, SlotResult], list[BracketState]]:
    """Every ready slot gets a random result until the bracket is finished; the results (in
    the order they were played) and every state seen on the way."""
    results: dict[str, SlotResult] = {}
    states = [advance_bracket(bracket, results, tiebreak=tiebreak)]
    while not states[-1].finished:
        ready = states[-1].ready
        assert ready, "a bracket that is not finished has a slot to play"
        key = rng.choice(ready)  # any ready slot: the service does not play them in order
        results[key] = random_result(states[-1].slots[key].players, rng)
        states.append(advance_bracket(bracket, results, tiebreak=tiebreak))
    return results, states


def table_points(round_: Round, rng: random.Random) -> Counter[PlayerId]:
    """Points from one round played at random: at a table of n, first place scores n - 1 down
    to 0 for last (ties share the better points); a bye scores a win at a pair."""
    points: Counter[PlayerId] = Counter()
    for table in round_.tables:
        places = random_result(table.players, rng).placements
        for player, place in places.items():
            points[player] += len(table.players) - place
    for player in round_.byes:
        points[player] += 1
    return points


def final_order(points: Counter[PlayerId], seeds: Sequence[PlayerId]) -> list[PlayerId]:
    """Final standings: points, then seed."""
    return sorted(seeds, key=lambda p: (-points[p], seeds.index(p)))


def play_swiss(
    players: Sequence[PlayerId], rounds: int, table_size: int, rng: random.Random
) -> tuple[list[Round], list[PlayerId], list[list[SwissStanding]]]:
    """A Swiss stage played at random: its rounds, final standings, and the standings each
    round was drawn from."""
    points: Counter[PlayerId] = Counter()
    opponents: dict[PlayerId, list[PlayerId]] = {p: [] for p in players}
    byes: Counter[PlayerId] = Counter()
    played = []
    drawn_from = []
    for number in range(1, rounds + 1):
        standings = [
            SwissStanding(p, points[p], tuple(opponents[p]), byes[p])
            for p in final_order(points, players)
        ]
        round_ = swiss_round(standings, number=number, table_size=table_size)
        played.append(round_)
        drawn_from.append(standings)
        points.update(table_points(round_, rng))
        for table in round_.tables:
            for p in table.players:
                opponents[p] += [q for q in table.players if q != p]
        byes.update(round_.byes)
    return played, final_order(points, players), drawn_from
