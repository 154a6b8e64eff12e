"""`league.draw.swiss`: one round at a time from the standings, similar scores together, no
rematch and no second bye while the draw can avoid them."""

import itertools
import random
from collections import Counter

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.draw import DrawError, Round, SwissStanding, swiss_round, swiss_rounds, table_sizes

from .playing import play_swiss


def pairs_of(round_: Round) -> list[frozenset[int]]:
    return [
        frozenset(pair)
        for table in round_.tables
        for pair in itertools.combinations(table.players, 2)
    ]


def repeat_free_pairing_exists(standings: list[SwissStanding]) -> bool:
    """Whether some pairing (with one bye for an odd count, to a player without one) has no
    rematch: a perfect matching on the pairs that have not met."""
    graph: nx.Graph[int | str] = nx.Graph()
    graph.add_nodes_from(s.player for s in standings)
    for a, b in itertools.combinations(standings, 2):
        if b.player not in a.opponents:
            graph.add_edge(a.player, b.player)
    if len(standings) % 2:
        graph.add_edges_from(("bye", s.player) for s in standings if not s.byes)
    matching: set[tuple[object, object]] = nx.max_weight_matching(graph, maxcardinality=True)
    return 2 * len(matching) == int(graph.number_of_nodes())


def repeat_free_seating_exists(standings: list[SwissStanding], table_size: int) -> bool:
    """Whether the players can sit at tables of these sizes with no two who met before."""
    sizes = list(table_sizes(len(standings), table_size))
    met = {s.player: set(s.opponents) for s in standings}
    tables: list[list[int]] = [[] for _ in sizes]

    def seat(i: int) -> bool:
        if i == len(standings):
            return True
        player = standings[i].player
        tried = set()
        for t, table in enumerate(tables):
            shape = (len(table), sizes[t])
            if len(table) == sizes[t] or (not table and shape in tried):
                continue  # full, or an empty table like one already tried
            tried.add(shape)
            if not any(q in met[player] for q in table):
                table.append(player)
                if seat(i + 1):
                    return True
                table.pop()
        return False

    return seat(0)


@pytest.mark.parametrize(
    ("players", "table_size", "rounds"),
    [(5, 2, 3), (8, 2, 3), (13, 2, 4), (16, 2, 4), (17, 2, 5), (5, 4, 2), (16, 4, 2), (17, 4, 3)],
)
def test_default_rounds_are_enough_to_single_out_a_winner(players, table_size, rounds):
    assert swiss_rounds(players, table_size) == rounds


def test_round_one_pairs_the_top_half_against_the_bottom_half():
    round_ = swiss_round([SwissStanding(p) for p in range(1, 9)], number=1)
    assert [t.players for t in round_.tables] == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert round_.byes == ()


def test_an_odd_player_out_gets_the_bye_lowest_ranked_first():
    round_ = swiss_round([SwissStanding(p) for p in range(1, 8)], number=1)
    assert round_.byes == (7,)
    assert [t.players for t in round_.tables] == [(1, 4), (2, 5), (3, 6)]


def test_a_player_with_a_bye_does_not_get_a_second_one():
    standings = [
        SwissStanding(1, score=2, opponents=(2, 3)),
        SwissStanding(2, score=1, opponents=(1, 4)),
        SwissStanding(3, score=1, opponents=(4, 1)),
        SwissStanding(4, score=1, opponents=(3, 2)),
        SwissStanding(5, score=2, byes=2),
    ]
    round_ = swiss_round(standings, number=3)
    assert round_.byes == (4,)
    assert sorted(t.players for t in round_.tables) == [(1, 5), (2, 3)]


def test_a_rematch_is_drawn_only_when_nothing_else_is_possible():
    # Three players who all met: one pair must meet again, the bye goes to the one without.
    standings = [
        SwissStanding(1, 2, (2, 3)),
        SwissStanding(2, 1, (1, 3), byes=1),
        SwissStanding(3, 1, (1, 2)),
    ]
    round_ = swiss_round(standings, number=3)
    assert round_.byes == (3,)
    assert [t.players for t in round_.tables] == [(1, 2)]


def test_players_with_the_same_score_meet_before_the_scores_mix():
    standings = [SwissStanding(p, score=3 - (p - 1) // 2) for p in range(1, 9)]
    round_ = swiss_round(standings, number=3)
    assert [t.players for t in round_.tables] == [(1, 2), (3, 4), (5, 6), (7, 8)]


def test_tables_seat_a_score_group_dealt_across_its_tables():
    round_ = swiss_round([SwissStanding(p) for p in range(1, 14)], number=1, table_size=4)
    assert [t.players for t in round_.tables] == [
        (1, 5, 9, 13),
        (2, 6, 10),
        (3, 7, 11),
        (4, 8, 12),
    ]


@pytest.mark.parametrize("count", [5, 8, 13, 16])
@pytest.mark.parametrize("table_size", [2, 4])
def test_swiss_rounds_are_valid_and_end_with_complete_standings(count, table_size):
    players = list(range(201, 201 + count))
    rng = random.Random(count * 10 + table_size)
    rounds, standings, drawn_from = play_swiss(
        players, swiss_rounds(count, table_size), table_size, rng
    )
    assert sorted(standings) == players
    byes: Counter[int] = Counter()
    for round_, before in zip(rounds, drawn_from, strict=True):
        met = {frozenset((s.player, q)) for s in before for q in s.opponents}
        repeats = [pair for pair in pairs_of(round_) if pair in met]
        avoidable = (
            repeat_free_pairing_exists(before)
            if table_size == 2
            else repeat_free_seating_exists(before, table_size)
        )
        assert not (repeats and avoidable), "no rematch while a draw without one exists"
        assert sorted(round_.players) == players, "everyone once a round"
        assert all(2 <= len(t.players) <= table_size for t in round_.tables)
        expected_byes = count % 2 if table_size == 2 else 0
        assert len(round_.byes) == expected_byes, "a bye only for an odd count of pairs"
        byes.update(round_.byes)
    assert max(byes.values(), default=0) <= 1


@settings(max_examples=25, deadline=None)
@given(count=st.integers(2, 14), seed=st.integers(0, 2**16), rounds=st.integers(1, 6))
def test_no_rematch_while_a_pairing_without_one_exists(count, seed, rounds):
    rng = random.Random(seed)
    players = list(range(count))
    played, _, _ = play_swiss(players, rounds - 1, 2, rng)
    met = {
        p: [q for r in played for t in r.tables if p in t.players for q in t.players if q != p]
        for p in players
    }
    byes = Counter(p for r in played for p in r.byes)
    standings = [SwissStanding(p, rng.randint(0, 3), tuple(met[p]), byes[p]) for p in players]
    standings.sort(key=lambda s: -s.score)
    round_ = swiss_round(standings, number=rounds)
    rematches = [pair for pair in pairs_of(round_) if max(pair) in met[min(pair)]]
    if repeat_free_pairing_exists(standings):
        assert not rematches


@pytest.mark.parametrize("count", [5, 8, 13, 16])
def test_tables_repeat_no_meeting_while_a_seating_without_one_exists(count):
    rng = random.Random(count)
    players = list(range(count))
    played, _, _ = play_swiss(players, 1, 4, rng)
    standings = [
        SwissStanding(
            p,
            rng.randint(0, 3),
            tuple(q for t in played[0].tables if p in t.players for q in t.players if q != p),
        )
        for p in players
    ]
    round_ = swiss_round(standings, number=2, table_size=4)
    met = {frozenset((s.player, q)) for s in standings for q in s.opponents}
    repeats = [pair for pair in pairs_of(round_) if pair in met]
    assert bool(repeats) == (not repeat_free_seating_exists(standings, 4))


def test_a_player_listed_twice_is_refused():
    with pytest.raises(DrawError) as error:
        swiss_round([SwissStanding(1), SwissStanding(1)], number=1)
    assert error.value.code == "duplicate_player"


def best_seating(standings: list[SwissStanding], table_size: int) -> tuple[int, int]:
    """The fewest repeated meetings any seating has, then the least score spread (each
    table's highest score group minus its lowest, summed), by exhaustive search: seats in
    standings order, a table left empty tried once per size, branches cut once no better."""
    sizes = list(table_sizes(len(standings), table_size))
    scores = sorted({s.score for s in standings}, reverse=True)
    group = [scores.index(s.score) for s in standings]
    index = {s.player: i for i, s in enumerate(standings)}
    met = [[0] * len(standings) for _ in standings]
    for i, s in enumerate(standings):
        for q in s.opponents:
            met[i][index[q]] += 1
    tables: list[list[int]] = [[] for _ in sizes]
    best = [(10**9, 10**9)]

    def spread() -> int:
        return sum(max(group[p] for p in t) - min(group[p] for p in t) for t in tables if t)

    def place(i: int, repeats: int) -> None:
        if (repeats, spread()) >= best[0]:
            return
        if i == len(standings):
            best[0] = (repeats, spread())
            return
        tried = set()
        for t, table in enumerate(tables):
            if len(table) == sizes[t] or (not table and sizes[t] in tried):
                continue
            if not table:
                tried.add(sizes[t])
            table.append(i)
            place(i + 1, repeats + sum(met[i][q] for q in table[:-1]))
            table.pop()

    place(0, 0)
    return best[0]


def drawn(round_: Round, standings: list[SwissStanding]) -> tuple[int, int]:
    """The repeats and score spread of a drawn round, counted as `best_seating` counts."""
    scores = sorted({s.score for s in standings}, reverse=True)
    group = {s.player: scores.index(s.score) for s in standings}
    opponents = {s.player: Counter(s.opponents) for s in standings}
    repeats = sum(opponents[a][b] for a, b in (p for p in map(tuple, pairs_of(round_))))
    spread = sum(
        max(group[p] for p in t.players) - min(group[p] for p in t.players) for t in round_.tables
    )
    return repeats, spread


def standings_after(players: list[int], rounds: list[Round], rng: random.Random):
    """Standings after these rounds with random scores (0 to 3 a round, so groups mix)."""
    score = dict.fromkeys(players, 0)
    for _ in rounds:
        for p in players:
            score[p] += rng.randint(0, 3)
    met = {
        p: tuple(q for r in rounds for t in r.tables if p in t.players for q in t.players if q != p)
        for p in players
    }
    return sorted(
        (SwissStanding(p, score[p], met[p]) for p in players), key=lambda s: (-s.score, s.player)
    )


@settings(max_examples=30, deadline=None)
@given(
    count=st.integers(5, 11),
    table_size=st.integers(3, 5),
    played=st.integers(1, 4),
    seed=st.integers(0, 2**16),
)
def test_tables_have_the_fewest_repeats_then_the_least_spread_of_any_seating(
    count, table_size, played, seed
):
    # Exhaustive search proves the seating best on small fields with random histories.
    rng = random.Random(seed)
    players = list(range(count))
    rounds = []
    for number in range(1, played + 1):
        order = players[:]
        rng.shuffle(order)
        rounds.append(
            swiss_round([SwissStanding(p) for p in order], number=number, table_size=table_size)
        )
    standings = standings_after(players, rounds, rng)
    round_ = swiss_round(standings, number=played + 1, table_size=table_size)
    assert drawn(round_, standings) == best_seating(standings, table_size)


def test_a_long_swiss_of_nine_at_tables_of_four_is_seated_as_well_as_any_seating_can_be():
    # Every round of an 8-round Swiss of 9 players (repeats unavoidable from round 4 on) has
    # the fewest repeats, then the least spread, that exhaustive search finds.
    players = list(range(1, 10))
    played, _, drawn_from = play_swiss(players, 8, 4, random.Random(9))
    for round_, before in zip(played, drawn_from, strict=True):
        assert drawn(round_, before) == best_seating(before, 4)


@pytest.mark.parametrize(("count", "table_size", "rounds"), [(13, 4, 6), (16, 4, 6), (14, 3, 8)])
def test_a_long_swiss_at_tables_repeats_no_meeting_while_a_seating_without_one_exists(
    count, table_size, rounds
):
    # The case of issue 20 (13 players at tables of 4 kept avoidable repeats), played until
    # repeats cannot be avoided any more.
    players = list(range(1, count + 1))
    played, _, drawn_from = play_swiss(players, rounds, table_size, random.Random(count))
    for round_, before in zip(played, drawn_from, strict=True):
        repeats, _ = drawn(round_, before)
        assert not repeats or not repeat_free_seating_exists(before, table_size)
