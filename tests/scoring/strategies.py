"""Hypothesis strategies and settings shared by the scoring tests: random JSON, dice, games."""

from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from scoring.yardkle import YardkleGame, YardkleRules
from scoring.yardzee import CATEGORIES

# Two shared cores: modest example counts keep the whole suite well under a minute.
QUICK = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GAMES = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Words of the turn JSON, so that random objects often look almost right.
WORDS = (
    "rolls",
    "dice",
    "keep",
    "category",
    "points",
    "player",
    "throws",
    "set_aside",
    "end",
    "bank",
    "yardkle",
    *CATEGORIES,
)

dice = st.integers(min_value=1, max_value=6)


def yardkle_games(
    players: st.SearchStrategy[int], targets: Sequence[int], entry_minimums: Sequence[int]
) -> st.SearchStrategy[YardkleGame]:
    """New Yardkle games: a number of `players`, and a ruleset of one of the `targets` and
    one of the `entry_minimums`."""
    rules = st.builds(YardkleRules, st.sampled_from(targets), st.sampled_from(entry_minimums))
    return st.builds(YardkleGame, players=players, rules=rules)


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-2, max_value=8)
    | st.integers()
    | st.floats()
    | st.sampled_from(WORDS)
    | st.text(max_size=4)
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=7)
        | st.dictionaries(st.sampled_from(WORDS) | st.text(max_size=3), children, max_size=5)
    ),
    max_leaves=25,
)


def node_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every position inside a JSON value, the value itself first."""
    paths = [path]
    if isinstance(value, dict):
        for key, child in value.items():
            paths += node_paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            paths += node_paths(child, (*path, index))
    return paths


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """A copy of `value` with the node at `path` replaced by `new`."""
    if not path:
        return new
    head, *rest = path
    if isinstance(value, dict):
        return {
            key: replaced(child, tuple(rest), new) if key == head else child
            for key, child in value.items()
        }
    return [
        replaced(child, tuple(rest), new) if index == head else child
        for index, child in enumerate(value)
    ]


def node_at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


@st.composite
def mutations(draw: st.DrawFn, turn: Any) -> Any:
    """A legal turn with one node replaced by random JSON, or a key dropped from or added to
    one of its objects."""
    path = draw(st.sampled_from(node_paths(turn)))
    node = node_at(turn, path)
    change = draw(st.sampled_from(("replace", "drop", "add")))
    if change == "drop" and isinstance(node, dict) and node:
        key = draw(st.sampled_from(sorted(node)))
        return replaced(turn, path, {k: v for k, v in node.items() if k != key})
    if change == "add" and isinstance(node, dict):
        key = draw(st.sampled_from(WORDS) | st.text(max_size=3))
        return replaced(turn, path, {**node, key: draw(json_values)})
    return replaced(turn, path, draw(json_values))
