"""Each metric on a small table checked by hand (docs/standings.md, "Metrics")."""

from league.standings import METRICS, Bye, Standing, Tally, compute_standings
from tests.league.standings.results import A, B, C, D, E, F, draw, result, seat, table


def by_player(standings: tuple[Standing, ...]) -> dict[int, Standing]:
    return {standing.player: standing for standing in standings}


def metric(key: str, tally: Tally) -> dict[int, float]:
    return dict(METRICS[key]().values(tally))


def tally_of(*results, game: str = "yardzee") -> Tally:
    tally = Tally(game=game)
    tally.add_results(results)
    return tally


# A round robin of four in pairs, 3/1/0: A 9, B 6, C 3, D 0.
ROUND_ROBIN = (
    table(1, A, B),
    table(2, A, C),
    table(3, A, D),
    table(4, B, C),
    table(5, B, D),
    table(6, C, D),
)


def test_points_metric_is_the_league_points():
    assert metric("points", tally_of(*ROUND_ROBIN)) == {A: 9, B: 6, C: 3, D: 0}


def test_wins_count_sole_first_places_and_a_shared_first_is_a_draw():
    standings = by_player(
        compute_standings(
            [
                table(1, A, B, C),
                result(2, seat(A, 1), seat(B, 1), seat(C, 3)),
                table(3, B, A),
                draw(4, A, C),
            ],
            game="yardzee",
            tiebreak_order=["wins"],
        )
    )
    assert (standings[A].wins, standings[A].draws, standings[A].matches) == (1, 2, 4)
    assert standings[A].placements == (3, 1)
    assert (standings[B].wins, standings[B].draws) == (1, 1)
    assert standings[C].placements == (1, 0, 2)
    assert standings[A].metrics == {"wins": 1}


def test_scores_give_total_average_and_best_game():
    standings = by_player(
        compute_standings(
            [
                result(1, seat(A, 1, 310), seat(B, 2, 200)),
                result(2, seat(A, 2, 150), seat(B, 1, 180)),
                result(3, seat(A, 1, 260), seat(C, 2, 100)),
            ],
            game="yardzee",
            tiebreak_order=["total_score", "average_score", "best_score"],
        )
    )
    assert (standings[A].total_score, standings[A].average_score, standings[A].best_score) == (
        720,
        240,
        310,
    )
    assert standings[A].metrics == {"total_score": 720, "average_score": 240, "best_score": 310}
    assert (standings[B].total_score, standings[B].average_score, standings[B].best_score) == (
        380,
        190,
        200,
    )


def test_a_player_entered_without_a_match_shows_zeros():
    standings = compute_standings(
        [table(1, A, B)], players=[C], game="yardzee", tiebreak_order=["points", "best_score"]
    )
    empty = by_player(standings)[C]
    assert (empty.matches, empty.points, empty.average_score, empty.best_score) == (0, 0, 0, None)
    assert empty.metrics == {"points": 0, "best_score": 0}
    assert empty.rank == 3


def test_yardzee_tables_count_yardzees_and_upper_bonuses():
    standings = by_player(
        compute_standings(
            [
                result(1, seat(A, 1, 420, yardzees=3, upper_bonus=1), seat(B, 2, 200)),
                result(2, seat(A, 1, 300, yardzees=1), seat(B, 2, 250, upper_bonus=1)),
            ],
            game="yardzee",
            tiebreak_order=["yardzees", "upper_bonuses"],
        )
    )
    assert (standings[A].yardzees, standings[A].upper_bonuses, standings[A].yardkles) == (
        4,
        1,
        None,
    )
    assert (standings[B].yardzees, standings[B].upper_bonuses) == (0, 1)


def test_yardkle_tables_count_yardkles_and_fewer_ranks_first():
    standings = compute_standings(
        [
            result(1, seat(A, 1, 10_050, yardkles=6), seat(B, 2, 8_000, yardkles=2)),
            result(2, seat(C, 1, 10_000, yardkles=4), seat(B, 2, 9_000, yardkles=1)),
        ],
        game="yardkle",
        tiebreak_order=["yardkles"],
    )
    assert [(s.player, s.yardkles, s.yardzees) for s in standings] == [
        (B, 3, None),
        (C, 4, None),
        (A, 6, None),
    ]


def test_buchholz_sums_the_points_of_every_opponent():
    # A met B (6), C (3), D (0); B met A (9), C, D; C met A, B, D (0); D met A, B, C.
    assert metric("buchholz", tally_of(*ROUND_ROBIN)) == {A: 9, B: 12, C: 15, D: 18}


def test_buchholz_counts_an_opponent_once_per_match_and_every_seat_of_a_table():
    # Tables of three, 2/1/0: A 4, B 1, C 1. A met B and C at both tables: (1 + 1) twice;
    # B met A (4) and C (1) twice: 10.
    tally = tally_of(table(1, A, B, C), table(2, A, C, B))
    assert metric("points", tally) == {A: 4, B: 1, C: 1}
    assert metric("buchholz", tally) == {A: 4, B: 10, C: 10}


def test_buchholz_adds_nothing_for_a_bye():
    tally = tally_of(table(1, A, B))
    tally.add_bye(Bye(B, round=2, table_size=2))
    assert metric("buchholz", tally) == {A: 3, B: 3}


def test_median_buchholz_drops_the_best_and_the_worst_opponent():
    # A's opponents have 6, 3, 0: only 3 is left; D's have 9, 6, 3: only 6.
    assert metric("median_buchholz", tally_of(*ROUND_ROBIN)) == {A: 3, B: 3, C: 6, D: 6}


def test_median_buchholz_drops_one_entry_each_when_the_best_opponent_was_met_twice():
    # E beat F twice and G once; F and G beat H. E 9, F 3, G 3, H 0.
    g, h = 7, 8
    tally = tally_of(table(1, E, F), table(2, E, F), table(3, E, g), table(4, F, h), table(5, g, h))
    assert metric("points", tally) == {E: 9, F: 3, g: 3, h: 0}
    # F met E (9) twice and H (0): 9 + 9 + 0, less 9 and 0, leaves 9.
    assert metric("median_buchholz", tally)[F] == 9


def test_median_buchholz_is_zero_with_fewer_than_three_opponents():
    assert metric("median_buchholz", tally_of(table(1, E, F), table(2, E, F))) == {E: 0, F: 0}


def test_head_to_head_counts_only_matches_among_the_tied_players():
    # A 3 and B 3 are tied; C (6) beat A, which does not count; A beat B: A first of the two,
    # although B scored more overall.
    results = [
        result(1, seat(A, 1, 110), seat(B, 2, 100)),
        result(2, seat(C, 1, 110), seat(A, 2, 100)),
        result(3, seat(B, 1, 400), seat(D, 2, 100)),
        result(4, seat(C, 1, 110), seat(D, 2, 100)),
    ]
    standings = compute_standings(
        results, game="yardzee", tiebreak_order=["points", "head_to_head", "total_score"]
    )
    assert [(s.player, s.rank) for s in standings] == [(C, 1), (A, 2), (B, 3), (D, 4)]
    assert by_player(standings)[A].metrics["head_to_head"] == 1
    assert by_player(standings)[B].metrics["head_to_head"] == 0
    assert by_player(standings)[C].metrics["head_to_head"] is None


def test_head_to_head_at_a_table_compares_placements_among_the_tied_players_only():
    # Tables of four, 3/2/1/0: C 8, D 4, A 3, B 3, E 0. A and B met once, at match 1, where B
    # was 3rd and A 4th: B ranks ahead, whatever C and D did at that table.
    results = [table(1, C, D, B, A), table(2, A, C, D, E), table(3, C, B, D, E)]
    standings = compute_standings(
        results, game="yardzee", tiebreak_order=["points", "head_to_head", "total_score"]
    )
    assert [(s.player, s.points) for s in standings] == [(C, 8), (D, 4), (B, 3), (A, 3), (E, 0)]
    assert [s.rank for s in standings] == [1, 2, 3, 4, 5]
    assert (
        by_player(standings)[B].metrics["head_to_head"],
        by_player(standings)[A].metrics["head_to_head"],
    ) == (1, 0)
