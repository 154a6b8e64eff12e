"""`league.draw.round_robin`: everyone meets everyone, in pairs or at tables."""

import itertools
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from league.draw import (
    DrawError,
    Round,
    group_round_robin,
    make_schedules,
    round_robin,
    schedule_report,
    snake_groups,
    table_sizes,
)
from league.draw.catalogue import SCHEDULES
from league.draw.covering import (
    counting_bound,
    decode,
    encode,
    exact,
    exact_one_repeat,
    greedy,
    one_to_spare,
    rounds_share_too_much,
    shorten,
    spread_floor,
)
from league.draw.designs import Schedule, exact_schedule


def meetings(rounds: tuple[Round, ...]) -> Counter[frozenset[int]]:
    return Counter(
        frozenset(pair)
        for round_ in rounds
        for table in round_.tables
        for pair in itertools.combinations(table.players, 2)
    )


def assert_valid_round_robin(players: list[int], rounds: tuple[Round, ...], table_size: int):
    for round_ in rounds:
        assert sorted(round_.players) == sorted(players), "everyone once in every round"
        sizes = [len(table.players) for table in round_.tables]
        assert all(2 <= size <= table_size for size in sizes)
        assert max(sizes) - min(sizes) <= 1, "tables as equal as the count allows"
        # A bye only for an odd count of pairs: tables of 3 to 5 never need one.
        assert len(round_.byes) == (len(players) % 2 if table_size == 2 else 0)
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))
    met = meetings(rounds)
    assert set(met) == {frozenset(p) for p in itertools.combinations(players, 2)}


@pytest.mark.parametrize("count", [2, 3, 5, 8, 13, 16])
@pytest.mark.parametrize("table_size", [2, 3, 4, 5])
def test_round_robin_meets_every_pair_with_everyone_once_a_round(count, table_size):
    players = list(range(101, 101 + count))
    rounds = round_robin(players, table_size=table_size)
    assert_valid_round_robin(players, rounds, table_size)


@pytest.mark.parametrize("count", [4, 5, 8, 13, 16])
def test_pairs_follow_the_circle_method_every_pair_exactly_once(count):
    rounds = round_robin(list(range(count)), table_size=2)
    assert len(rounds) == count - 1 + count % 2
    assert set(meetings(rounds).values()) == {1}
    if count % 2:
        assert sorted(p for r in rounds for p in r.byes) == list(range(count))


def test_four_players_in_pairs_play_the_circle_by_hand():
    rounds = round_robin([1, 2, 3, 4])
    assert [[t.players for t in r.tables] for r in rounds] == [
        [(1, 4), (2, 3)],
        [(1, 3), (2, 4)],
        [(1, 2), (3, 4)],
    ]


@pytest.mark.parametrize(("count", "table_size"), [(9, 3), (16, 4), (25, 5)])
def test_a_square_field_at_tables_meets_every_pair_exactly_once(count, table_size):
    rounds = round_robin(list(range(count)), table_size=table_size)
    assert len(rounds) == table_size + 1
    assert set(meetings(rounds).values()) == {1}


@pytest.mark.parametrize(("count", "most"), [(8, 3), (13, 2)])
def test_tables_of_four_spread_meetings_evenly(count, most):
    met = meetings(round_robin(list(range(count)), table_size=4))
    assert min(met.values()) == 1
    assert max(met.values()) <= most


def test_the_same_field_always_gets_the_same_schedule():
    first = round_robin(list(range(13)), table_size=4)
    assert round_robin(list(range(13)), table_size=4) == first
    assert round_robin(list(range(50, 63)), table_size=4)[0].tables[0].players == tuple(
        50 + p for p in first[0].tables[0].players
    )


def test_groups_each_play_their_own_round_robin():
    groups = snake_groups(list(range(1, 17)), 2)
    for group, rounds in zip(groups, group_round_robin(groups, table_size=4), strict=True):
        assert_valid_round_robin(list(group), rounds, 4)


@pytest.mark.parametrize("table_size", [1, 6])
def test_tables_hold_two_to_five_players(table_size):
    with pytest.raises(DrawError) as error:
        round_robin([1, 2, 3], table_size=table_size)
    assert error.value.code == "table_size"


def test_a_round_robin_needs_two_players():
    with pytest.raises(DrawError) as error:
        round_robin([1])
    assert error.value.code == "too_few_players"


FIELDS = [(count, size) for size in (3, 4, 5) for count in range(3, 25)]


@pytest.mark.parametrize(("count", "table_size"), FIELDS)
def test_every_field_up_to_24_meets_every_pair_in_no_fewer_rounds_than_the_bound(count, table_size):
    players = list(range(count))
    rounds = round_robin(players, table_size=table_size)
    assert_valid_round_robin(players, rounds, table_size)
    for round_ in rounds:
        assert sorted((len(t.players) for t in round_.tables), reverse=True) == list(
            table_sizes(count, table_size)
        )
    sizes = table_sizes(count, table_size)
    if len(sizes) > 1:
        assert len(rounds) >= counting_bound(count, sizes)


@pytest.mark.parametrize(("count", "tables"), sorted(SCHEDULES))
def test_the_catalogue_holds_what_it_claims(count, tables):
    fewest, even, _ = SCHEDULES[count, tables]
    size = -(-count // tables)
    sizes = table_sizes(count, size)
    rounds = round_robin(list(range(count)), table_size=size)
    assert len(sizes) == tables
    if fewest == "bound":
        assert len(rounds) == counting_bound(count, sizes)
    if even == "arithmetic":
        met = meetings(rounds)
        total = sum(met.values())
        pairs = count * (count - 1) // 2
        assert max(met.values()) == -(-total // pairs)
    if even == "counting":
        met = meetings(rounds)
        most = max(met.values())
        assert (most, list(met.values()).count(most)) == spread_floor(count, sizes, len(rounds))


@pytest.mark.parametrize(
    ("count", "table_size", "rounds"),
    [
        (6, 3, 4),  # 3 rounds are impossible (below)
        (8, 3, 4),  # issue 20: every pair exactly once, 5 before
        (10, 5, 4),  # issue 20: 5 before
        (7, 4, 3),  # issue 20: 4 before
        (7, 5, 3),
        (14, 3, 7),  # Kirkman's 15 without one
        (15, 3, 7),  # Kirkman's schoolgirls, 8 before
        (20, 3, 10),
        (21, 3, 10),
        (15, 4, 5),  # the affine plane of order 4 without one seat
        (24, 5, 6),  # the affine plane of order 5 without one seat
        (22, 3, 12),  # the counting bound, 13 before
        (20, 4, 7),  # the counting bound, 8 before
        (19, 4, 7),  # 20's without a seat
        (21, 5, 7),  # the counting bound, 8 before
        (22, 5, 7),
    ],
)
def test_fields_named_in_issue_20_take_the_fewest_rounds_possible(count, table_size, rounds):
    assert len(round_robin(list(range(count)), table_size=table_size)) == rounds


@pytest.mark.parametrize(("count", "table_size"), [(6, 3), (10, 5)])
def test_cp_sat_proves_one_round_fewer_impossible_for_small_fields(count, table_size):
    sizes = table_sizes(count, table_size)
    # The counting bound says so (two rounds share too many pairs); CP-SAT agrees.
    assert counting_bound(count, sizes) == 4
    assert exact(count, sizes, 3, seconds=10).status == "none"


@pytest.mark.parametrize(
    ("count", "sizes", "rounds", "too_few"),
    [
        # 20 at 5: 10 spare meetings hold at most 23 shared pairs; two rounds share 4 each.
        ((20, (5, 5, 5, 5), 5, True)),
        ((20, (5, 5, 5, 5), 6, False)),
        ((19, (5, 5, 5, 4), 5, True)),
        ((18, (5, 5, 4, 4), 5, True)),
        ((6, (3, 3), 3, True)),
        ((6, (3, 3), 4, False)),
        # A table of 4 can sit at four of five tables: two rounds need share nothing.
        ((24, (4, 4, 4, 4, 4, 4), 8, False)),
        ((16, (4, 4, 4, 4), 5, False)),  # the affine plane of order 4: 5 rounds exist
        ((25, (5, 5, 5, 5, 5), 6, False)),  # and of order 5: 6
    ],
)
def test_two_rounds_that_must_share_too_many_pairs_raise_the_counting_bound(
    count, sizes, rounds, too_few
):
    assert rounds_share_too_much(count, sizes, rounds) is too_few


@pytest.mark.parametrize(
    ("count", "sizes", "rounds", "two_rounds", "floor"),
    [
        (12, (4, 4, 4), 5, False, (2, 24)),  # 90 meetings for 66 pairs: 24 twice
        (12, (4, 4, 4), 5, True, (3, 6)),  # but two rounds share 3 pairs: 30 in all
        (17, (5, 4, 4, 4), 5, True, (5, 1)),  # one pair meets in every round
        (20, (5, 5, 5, 5), 6, True, (3, 10)),
        (16, (4, 4, 4, 4), 5, True, (1, 120)),  # the affine plane: every pair once
        (6, (3, 3), 4, True, (3, 3)),  # below what is reached (CP-SAT: 4, once)
    ],
)
def test_the_spread_floor_counts_the_pairs_two_rounds_share(
    count, sizes, rounds, two_rounds, floor
):
    assert spread_floor(count, sizes, rounds, two_rounds=two_rounds) == floor


@pytest.mark.parametrize("count", [18, 19, 20])
def test_18_to_20_players_at_tables_of_5_need_6_rounds_by_counting(count):
    sizes = table_sizes(count, 5)
    assert counting_bound(count, sizes) == 6
    assert len(round_robin(list(range(count)), table_size=5)) == 6


@pytest.mark.parametrize(
    ("count", "sizes", "rounds", "status"),
    [
        (4, (2, 2), 4, "found"),
        (8, (2, 2, 2, 2), 8, "found"),
        (6, (3, 3), 3, "none"),  # as `exact` proves (above)
        (12, (4, 4, 4), 4, "none"),
    ],
)
def test_the_model_with_one_seat_to_spare_finds_or_refutes_small_fields(
    count, sizes, rounds, status
):
    assert one_to_spare(count, sizes, rounds)
    result = exact_one_repeat(count, sizes, rounds, seconds=30)
    assert result.status == status
    if result.schedule is not None:
        assert len(result.schedule) == rounds
        for tables in result.schedule:
            assert sorted(seat for table in tables for seat in table) == list(range(count))
            assert sorted(len(table) for table in tables) == sorted(sizes)
        met = Counter(
            frozenset(pair)
            for tables in result.schedule
            for table in tables
            for pair in itertools.combinations(table, 2)
        )
        assert len(met) == count * (count - 1) // 2, "every pair meets"


@pytest.mark.parametrize(("count", "table_size"), [(18, 3), (24, 3)])
def test_one_seat_to_spare_means_the_pairs_met_twice_are_a_perfect_matching(count, table_size):
    # The argument `exact_one_repeat` rests on, checked on the project's schedules of the
    # fields that reach the rounds where every seat has one to spare (9 and 12).
    rounds = round_robin(list(range(count)), table_size=table_size)
    assert one_to_spare(count, table_sizes(count, table_size), len(rounds))
    twice = [pair for pair, n in meetings(rounds).items() if n == 2]
    assert max(meetings(rounds).values()) == 2
    assert sorted(seat for pair in twice for seat in pair) == list(range(count))


@pytest.mark.parametrize(
    ("count", "table_size"),
    [
        (8, 3),
        (9, 3),
        (14, 3),
        (15, 3),
        (20, 3),
        (21, 3),
        (26, 3),
        (27, 3),
        (15, 4),
        (16, 4),
        (63, 4),
        (64, 4),
        (16, 5),
        (24, 5),
        (25, 5),
        (125, 5),
    ],
)
def test_known_designs_meet_every_pair_exactly_once(count, table_size):
    schedule = exact_schedule(count, table_sizes(count, table_size))
    assert schedule is not None
    rounds = round_robin(list(range(count)), table_size=table_size)
    assert_valid_round_robin(list(range(count)), rounds, table_size)
    assert set(meetings(rounds).values()) == {1}


@pytest.mark.parametrize(("count", "table_size"), [(29, 4), (31, 3), (38, 5)])
def test_fields_beyond_the_catalogue_are_searched_and_meet_every_pair(count, table_size):
    players = list(range(count))
    rounds = round_robin(players, table_size=table_size)
    assert_valid_round_robin(players, rounds, table_size)
    sizes = table_sizes(count, table_size)
    assert len(rounds) <= len(greedy(count, sizes))


def test_shortening_drops_rounds_from_a_greedy_schedule():
    sizes = table_sizes(25, 3)
    start = greedy(25, sizes)
    shorter = shorten(start, 25, seed="test", steps=20_000)
    assert len(shorter) < len(start)


def test_the_docs_table_of_rounds_and_meetings_is_what_the_command_prints():
    # docs/draw.md, "Rounds and meetings for 3 to 24 players": regenerate it with
    # `python -m league.draw.make_schedules table` when the catalogue changes.
    docs = (Path(__file__).resolve().parents[3] / "docs" / "draw.md").read_text()
    assert schedule_report.table() in docs


def test_prove_marks_a_field_proven_when_one_round_fewer_is_impossible(monkeypatch):
    # 10 players at tables of 5: 4 rounds, 3 impossible (above), its mark taken away first,
    # and the counting bound lowered to what its first two arguments give, so CP-SAT decides.
    key = (10, 2)
    _, even, rounds = SCHEDULES[key]
    monkeypatch.setitem(SCHEDULES, key, ("", even, rounds))
    monkeypatch.setattr(schedule_report.Field, "bound", property(lambda field: 3))
    written: list[dict[tuple[int, int], tuple[str, str, tuple[str, ...]]]] = []
    monkeypatch.setattr(make_schedules, "write_catalogue", written.append)
    assert make_schedules.prove(schedule_report.Field(10, 5), seconds=20)
    assert written[0][key] == ("cp-sat", even, rounds)
    # Already proven: nothing asked, nothing written.
    monkeypatch.setitem(SCHEDULES, key, ("cp-sat", even, rounds))
    assert not make_schedules.prove(schedule_report.Field(10, 5), seconds=20)
    assert len(written) == 1


def test_prove_marks_a_field_at_the_counting_bound_without_cp_sat(monkeypatch):
    key = (20, 4)  # 20 players at four tables of 5: 6 rounds, the bound
    _, even, rounds = SCHEDULES[key]
    monkeypatch.setitem(SCHEDULES, key, ("", even, rounds))
    written: list[dict[tuple[int, int], tuple[str, str, tuple[str, ...]]]] = []
    monkeypatch.setattr(make_schedules, "write_catalogue", written.append)

    def no_cp_sat(*args: object, **kwargs: object) -> None:
        raise AssertionError("CP-SAT asked")

    monkeypatch.setattr(make_schedules, "_exact", no_cp_sat)
    assert make_schedules.prove(schedule_report.Field(20, 5), seconds=20)
    assert written[0][key] == ("bound", even, rounds)


def test_prove_marks_a_spread_at_the_floor_of_counting(monkeypatch):
    key = (17, 4)  # 17 players at tables of 5: one pair meets in every round, as it must
    fewest, _, rounds = SCHEDULES[key]
    monkeypatch.setitem(SCHEDULES, key, (fewest, "", rounds))
    written: list[dict[tuple[int, int], tuple[str, str, tuple[str, ...]]]] = []
    monkeypatch.setattr(make_schedules, "write_catalogue", written.append)
    assert make_schedules.prove(schedule_report.Field(17, 5), seconds=1)
    assert written[0][key] == (fewest, "counting", rounds)


def _as_file(count: int, schedule: Schedule) -> str:
    return json.dumps({"players": count, "rounds": [list(map(list, t)) for t in schedule]})


def test_offer_keeps_a_schedule_found_elsewhere_with_fewer_rounds(monkeypatch):
    key = (7, 2)  # 7 players at tables of 4 (4 and 3): 3 rounds, the bound
    _, _, rounds = SCHEDULES[key]
    best = decode(rounds)
    worse = (*best, best[0])  # one round more
    monkeypatch.setitem(SCHEDULES, key, ("", "", encode(worse, 7)))
    written: list[dict[tuple[int, int], tuple[str, str, tuple[str, ...]]]] = []
    monkeypatch.setattr(make_schedules, "write_catalogue", written.append)
    # Seats listed in any order: the file need not be laid out as the catalogue is.
    shuffled = tuple(tuple(tuple(reversed(t)) for t in reversed(tables)) for tables in best)
    assert make_schedules.offer(_as_file(7, shuffled))
    assert written[-1][key] == ("bound", "counting", encode(best, 7))
    # The same again, or the worse one: not better, nothing written.
    monkeypatch.setitem(SCHEDULES, key, ("bound", "counting", rounds))
    assert not make_schedules.offer(_as_file(7, best))
    assert not make_schedules.offer(_as_file(7, worse))
    assert len(written) == 1


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("not json", "not a schedule"),
        ('{"players": 7}', "not a schedule"),
        ('{"players": 4, "rounds": [[[0, 1], [2, 3]], [[0, 2], [1, 3]]]}', "2 pairs never meet"),
        ('{"players": 4, "rounds": [[[0, 1], [2, 2]]]}', "does not seat players 0 to 3"),
        ('{"players": 5, "rounds": [[[0, 1, 2, 3], [4]]]}', "is not at tables of (3, 2)"),
    ],
)
def test_offer_refuses_what_is_not_a_round_robin_of_the_field(text, reason):
    with pytest.raises(make_schedules.Refused, match=re.escape(reason)):
        make_schedules.offer(text)


def test_the_offer_command_says_why_it_refuses_a_file(tmp_path, capsys):
    path = tmp_path / "found.json"
    path.write_text('{"players": 4, "rounds": [[[0, 1], [2, 3]]]}')
    with pytest.raises(SystemExit) as exit_:
        make_schedules.main(["offer", str(path)])
    assert exit_.value.code == 2
    assert "refused: 4 pairs never meet" in capsys.readouterr().err


def test_the_command_refuses_a_field_not_written_n_over_k(capsys):
    with pytest.raises(SystemExit):
        make_schedules.main(["prove", "12/x"])
    assert "'12/x' is not N/K" in capsys.readouterr().err
