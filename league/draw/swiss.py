"""Swiss: a fixed number of rounds, each drawn from the standings so far (docs/draw.md,
"Swiss").

Pairs come from a maximum-weight matching (networkx) whose weights rank, most important
first: no second bye, no rematch, the smallest gaps between score groups, and the Swiss habit
of pairing the top half of a score group against its bottom half. Tables of 3 to 5 start from
the fold (the standings cut into tables, each score group dealt across the tables it fills) and
are improved by swapping players between tables while a swap lowers, in that order, repeated
meetings, score-group gaps and the number of players moved from the fold; then, unless that is
provably best, seated by an exhaustive search (up to 16 players) or CP-SAT (`seating.py`).
"""

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

from league.draw.model import PlayerId, Round, Table
from league.draw.seating import seat
from league.draw.seeding import checked_participants, checked_table_size, table_sizes

# CP-SAT's limit at tables, per phase (the fewest repeats, then the least spread), when the
# field is too large for the exhaustive search and the descent may not have found the best
# seating; in deterministic time (0.5 s is about 0.5 to 0.75 s of wall time on an idle core
# here), so that the same standings always give the same round.
EXACT_SECONDS = 0.5


@dataclass(frozen=True, slots=True)
class SwissStanding:
    """One player's standing before a Swiss round: the score (wins, or table points; a bye
    counts as a win), every opponent met so far (once per meeting), and byes received."""

    player: PlayerId
    score: float = 0.0
    opponents: tuple[PlayerId, ...] = ()
    byes: int = 0


def swiss_rounds(players: int, table_size: int = 2) -> int:
    """The default number of rounds: the smallest r with table_size ** r >= players, that is
    ceil(log2 N) for pairs and ceil(log_k N) at tables of k (enough to single out a winner)."""
    size = checked_table_size(table_size)
    rounds = 0
    while size**rounds < players:
        rounds += 1
    return rounds


def swiss_round(standings: Sequence[SwissStanding], *, number: int, table_size: int = 2) -> Round:
    """Round `number` of a Swiss stage, drawn from `standings` in ranking order (best first;
    the caller orders equal scores by the stage's tiebreaks, then seed).

    Pairs: players meet others of the same or the nearest score; no rematch and no second bye
    while any other draw avoids it; with an odd count the lowest-ranked player without a bye
    gets it. Tables of 3 to 5: as few tables as possible with sizes as equal as possible (never a
    bye), seated to avoid repeated meetings, then to keep similar scores together."""
    checked_participants(s.player for s in standings)
    size = checked_table_size(table_size)
    field = _Field(tuple(standings))
    if size == 2:
        return _pairs(field, number)
    return _tables(field, number, size)


class _Field:
    """The standings seen by the draw: positions, score groups and who met whom how often."""

    def __init__(self, standings: tuple[SwissStanding, ...]) -> None:
        # Higher scores first whatever the caller's order; equal scores keep it (the tiebreaks).
        standings = tuple(sorted(standings, key=lambda s: -s.score))
        self.standings = standings
        self.count = len(standings)
        scores = sorted({s.score for s in standings}, reverse=True)
        self.group = [scores.index(s.score) for s in standings]
        self.groups = len(scores)
        group_sizes = Counter(self.group)
        self.group_half = [group_sizes[g] // 2 for g in self.group]
        index = {s.player: i for i, s in enumerate(standings)}
        self.met = [[0] * self.count for _ in range(self.count)]
        for i, standing in enumerate(standings):
            for opponent in standing.opponents:
                if opponent in index:
                    self.met[i][index[opponent]] += 1
        # Meetings recorded on one side only (an opponent's record not passed in) still count.
        for i, j in itertools.combinations(range(self.count), 2):
            both = max(self.met[i][j], self.met[j][i])
            self.met[i][j] = self.met[j][i] = both

    def player(self, i: int) -> PlayerId:
        return self.standings[i].player


def _lexicographic(largest: Sequence[int], terms: int) -> list[int]:
    """Weights for penalty levels, given least important first by each level's largest value
    per term, such that no sum of `terms` terms of lower levels outweighs one unit above."""
    weights = []
    bound = 0
    for most in largest:
        weight = bound + 1
        weights.append(weight)
        bound += terms * most * weight
    return weights


def _pairs(field: _Field, number: int) -> Round:
    count = field.count
    bye = count if count % 2 else None
    most_met = max((max(row) for row in field.met), default=0)
    most_byes = max(s.byes for s in field.standings)
    position, gap, rematch, second_bye = _lexicographic(
        [count, (field.groups + 1) ** 2, most_met, most_byes], terms=count // 2 + 1
    )
    graph: nx.Graph[int] = nx.Graph()
    penalties: dict[tuple[int, int], int] = {}
    for i, j in itertools.combinations(range(count), 2):
        distance = j - i
        half = field.group_half[i] if field.group[i] == field.group[j] else 0
        penalties[i, j] = (
            rematch * field.met[i][j]
            + gap * (field.group[i] - field.group[j]) ** 2
            + position * abs(distance - half)
        )
    if bye is not None:
        # The bye sits below the lowest score group, so it goes to the lowest-ranked player.
        for i, standing in enumerate(field.standings):
            penalties[i, bye] = (
                second_bye * standing.byes
                + gap * (field.groups - field.group[i]) ** 2
                + position * (count - 1 - i)
            )
    heaviest = max(penalties.values(), default=0) + 1
    for (i, j), penalty in penalties.items():
        graph.add_edge(i, j, weight=heaviest - penalty)
    matching: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = sorted(tuple(sorted(pair)) for pair in matching)
    return Round(
        number=number,
        tables=tuple(Table((field.player(i), field.player(j))) for i, j in pairs if j != bye),
        byes=tuple(field.player(i) for i, j in pairs if j == bye),
    )


def _tables(field: _Field, number: int, table_size: int) -> Round:
    sizes = table_sizes(field.count, table_size)
    tables = seat(field.group, field.met, sizes, _fold(field, sizes), seconds=EXACT_SECONDS)
    seated = sorted(sorted(table) for table in tables)
    return Round(
        number=number,
        tables=tuple(Table(tuple(field.player(i) for i in table)) for table in seated),
    )


def _fold(field: _Field, sizes: Sequence[int]) -> list[int]:
    """The table of each standings position before any swap: the standings cut into tables in
    order (similar scores together), then each score group dealt across the seats it holds in
    those tables, one per table in turn, so the top of a group sits with its middle as a Swiss
    pairs the top half of a score group against the bottom half."""
    cut = [table for table, size in enumerate(sizes) for _ in range(size)]
    fold = list(cut)
    for group in range(field.groups):
        members = [i for i in range(field.count) if field.group[i] == group]
        seats = Counter(cut[i] for i in members)
        turn = itertools.cycle(sorted(seats))
        for member in members:
            table = next(turn)
            while not seats[table]:
                table = next(turn)
            fold[member] = table
            seats[table] -= 1
    return fold
