"""Qualifying from a stage played in groups (issue 16, item 3): the top N of every group, plus
the best k of the rest, in the order the caller compares players of different groups
(docs/draw.md, "Round robin and groups")."""

import pytest

from league.draw import DrawError, group_qualifiers, snake_groups


def test_item3_the_top_of_each_group_comes_in_place_order_by_default():
    assert group_qualifiers([[1, 4, 5], [2, 3, 6]], 2) == (1, 2, 4, 3)


def test_item3_the_best_of_the_rest_are_the_first_others_in_the_overall_order():
    groups = [[1, 4, 5], [2, 3, 6]]
    overall = [2, 1, 3, 4, 6, 5]  # as the caller compares players of different groups
    assert group_qualifiers(groups, 1, best_rest=1, overall=overall) == (2, 1, 3)
    assert group_qualifiers(groups, 1, best_rest=3, overall=overall) == (2, 1, 3, 4, 6)


def test_item3_the_qualifiers_are_seeded_in_the_overall_order():
    groups = [[1, 4, 5], [2, 3, 6]]
    assert group_qualifiers(groups, 2, overall=[2, 3, 1, 4, 6, 5]) == (2, 3, 1, 4)


def test_item3_a_group_too_small_for_the_top_n_is_refused():
    with pytest.raises(DrawError) as error:
        group_qualifiers([[1, 4, 5], [2, 3]], 3)
    assert error.value.code == "qualifiers"


def test_item3_more_of_the_rest_than_there_are_is_refused():
    with pytest.raises(DrawError) as error:
        group_qualifiers([[1, 4, 5], [2, 3, 6]], 2, best_rest=3)
    assert error.value.code == "qualifiers"
    assert "2 players are left" in error.value.message


@pytest.mark.parametrize("overall", [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6, 6], [1, 2, 3, 4, 5, 7]])
def test_item3_an_overall_order_that_is_not_every_player_once_is_refused(overall):
    with pytest.raises(DrawError) as error:
        group_qualifiers([[1, 4, 5], [2, 3, 6]], 1, best_rest=1, overall=overall)
    assert error.value.code == "qualifiers"


def test_item3_twelve_players_in_three_groups_top_two_and_the_two_best_thirds():
    groups = snake_groups(list(range(1, 13)), 3)
    assert groups == ((1, 6, 7, 12), (2, 5, 8, 11), (3, 4, 9, 10))
    # Place by place, group order: the thirds are 7, 8, 9; the two best of the rest are 7, 8.
    taken = group_qualifiers(groups, 2, best_rest=2)
    assert taken == (1, 2, 3, 6, 5, 4, 7, 8)
