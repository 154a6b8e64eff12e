"""OpenSkill's Plackett-Luce update for a free-for-all of one-player teams, in plain floats
(docs/standings.md, "Ratings", "Our own arithmetic").

Weng and Lin's algorithm 4 as `openskill` 6 implements it (`PlackettLuce.rate` with `ranks`, no
scores, weights, margin or balance), specialised to teams of one. Every float operation is the
one OpenSkill does, in the same order, so the results are the same floats, bit for bit; a test
holds it to that on random leagues. What OpenSkill does that the formulas do not say, kept here
because the floats depend on it:

- tau first: sigma becomes sqrt(sigma * sigma + tau * tau) before anything else;
- teams are sorted by rank (a stable sort: tied seats keep their seat order) and every sum runs
  in that order, left to right;
- a team's variance is `sigma ** 2` (libm's pow, which is not always `sigma * sigma`);
- a player's share of the team update is `sigma ** 2 / variance`, which for one-player teams
  is 1.0 (or NaN for a zero variance) and is computed rather than assumed;
- OpenSkill's averaging of the mu change over tied teams compares each rating with itself (it
  updates the ratings it compares with in place), so it adds the mean of `mu - mu`: 0.0, which
  only turns a -0.0 into 0.0 (and spreads a NaN over the tie).

`rate_free_for_all` is the update written as loops, to read and to test against. The replay uses
`straight_line`: the same operations unrolled for one table shape (its size and which places are
shared), without a loop, an index or a list, which is where plain Python spends its time."""

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from math import exp, sqrt
from typing import Any

from league.rating.model import RatingSettings


@dataclass(frozen=True, slots=True)
class PlackettLuceConstants:
    """The model's parameters as OpenSkill holds them: floats, tau and beta squared."""

    mu: float
    sigma: float
    tau_squared: float
    beta_squared: float
    kappa: float
    limit_sigma: bool

    @classmethod
    def of(cls, settings: RatingSettings) -> "PlackettLuceConstants":
        """The constants of `settings`' model (`RatingSettings.model()`)."""
        tau = float(settings.tau)
        beta = float(settings.beta)
        return cls(
            mu=float(settings.mu),
            sigma=float(settings.sigma),
            tau_squared=tau * tau,
            beta_squared=beta**2,
            kappa=float(settings.kappa),
            limit_sigma=settings.limit_sigma,
        )


def rate_free_for_all(
    mus: list[float], sigmas: list[float], ranks: list[int], model: PlackettLuceConstants
) -> tuple[list[float], list[float]]:
    """The mus and sigmas after a match of one-player teams, in the order given: the same floats
    as `PlackettLuce.rate([[rating] for each], ranks=ranks)` (lower rank is better, equal ranks
    tie). Two or more players."""
    n = len(mus)
    order = sorted(range(n), key=ranks.__getitem__)
    tau_squared = model.tau_squared
    beta_squared = model.beta_squared
    kappa = model.kappa
    # Sorted by rank from here on: every accumulation below runs in this order.
    mu = [mus[k] for k in order]
    rank = [ranks[k] for k in order]
    sigma = [sqrt(sigmas[k] * sigmas[k] + tau_squared) for k in order]
    variance = [s**2 for s in sigma]
    total = 0.0
    for v in variance:
        total += v + beta_squared
    c = sqrt(total)
    c_squared = c**2
    strength = [exp(m / c) for m in mu]
    # Each rank's tie group: where it ends, its size, and the sum of strengths from its start
    # to the last place (left to right, as OpenSkill adds them).
    end = [0] * n
    size = [0] * n
    suffix = [0.0] * n
    start = 0
    while start < n:
        stop = start + 1
        while stop < n and rank[stop] == rank[start]:
            stop += 1
        running = strength[start]
        for k in range(start + 1, n):
            running += strength[k]
        for q in range(start, stop):
            end[q] = stop
            size[q] = stop - start
            suffix[q] = running
        start = stop
    new_mu = [0.0] * n
    new_sigma = [0.0] * n
    for i in range(n):
        own = strength[i]
        omega = 0.0
        delta = 0.0
        for q in range(end[i]):
            share = own / suffix[q]
            delta += share * (1 - share) / size[q]
            if q == i:
                omega += (1 - share) / size[q]
            else:
                omega -= share / size[q]
        v = variance[i]
        omega *= v / c
        delta *= v / c_squared
        delta *= sqrt(v) / c
        s = sigma[i]
        part = s**2 / v
        new_mu[i] = mu[i] + part * omega
        shrink = 1 - part * delta
        new_sigma[i] = s * sqrt(kappa if kappa > shrink else shrink)  # max(shrink, kappa)
    start = 0
    while start < n:
        stop = end[start]
        if stop - start > 1:
            drift = sum(new_mu[k] - new_mu[k] for k in range(start, stop)) / (stop - start)
            for k in range(start, stop):
                new_mu[k] = new_mu[k] + drift
        start = stop
    out_mu = [0.0] * n
    out_sigma = [0.0] * n
    for position, k in enumerate(order):
        out_mu[k] = new_mu[position]
        out_sigma[k] = new_sigma[position]
    if model.limit_sigma:
        out_sigma = [
            before if before < after else after
            for after, before in zip(out_sigma, sigmas, strict=True)
        ]
    return out_mu, out_sigma


def ordinal(mu: float, sigma: float) -> float:
    """OpenSkill's `ordinal()` with its defaults: alpha * ((mu - z sigma) + target / alpha) with
    z 3, alpha 1, target 0; the + 0.0 turns a -0.0 into 0.0 as it does."""
    return (mu - 3.0 * sigma) + 0.0


Shape = tuple[int, ...]
"""A table's shape: the sizes of its groups of equal rank, best first ((1, 2, 1): a winner, two
sharing second place, a last)."""

StraightLine = Callable[[list[float], list[float], list[int]], tuple[float, ...]]
"""`update(mus, sigmas, seated)`: rate the players `seated` (indices into `mus` and `sigmas`,
best rank first, ties in seat order; entries past the table's size are ignored), store their new
mu and sigma in `mus` and `sigmas` and return them (mu, sigma of the first, mu, sigma of the
second, ...)."""


@cache
def straight_line(shape: Shape, model: PlackettLuceConstants) -> StraightLine:
    """`rate_free_for_all` for tables of `shape`, unrolled: the same float operations in the same
    order, written out as one statement each (and compiled once per shape and model)."""
    n = sum(shape)
    starts = [start for k, size in enumerate(shape) for start in [sum(shape[:k])] * size]
    # The functions and constants as defaults: local names, the fastest Python looks up.
    lines = [
        "def update(mus, sigmas, seated, sqrt=sqrt, exp=exp, TAU_SQUARED=TAU_SQUARED,"
        " BETA_SQUARED=BETA_SQUARED, KAPPA=KAPPA):"
    ]
    for i in range(n):
        lines.append(f"    p{i} = seated[{i}]")
        lines.append(f"    m{i} = mus[p{i}]")
        lines.append(f"    b{i} = sigmas[p{i}]")
        lines.append(f"    s{i} = sqrt(b{i} * b{i} + TAU_SQUARED)")
        lines.append(f"    v{i} = s{i} ** 2")
    lines.append("    c = sqrt(" + " + ".join(f"(v{i} + BETA_SQUARED)" for i in range(n)) + ")")
    lines.append("    cc = c ** 2")
    for i in range(n):
        lines.append(f"    e{i} = exp(m{i} / c)")
    for start in sorted(set(starts)):
        lines.append(f"    q{start} = " + " + ".join(f"e{k}" for k in range(start, n)))
    for i in range(n):
        end = starts[i] + shape_size(shape, i)
        first = True
        for q in range(end):
            size = shape_size(shape, q)
            if q == starts[q]:  # a group's first place: its share, computed once for the group
                lines.append(f"    a = e{i} / q{q}")
                lines.append("    w = 1.0 - a")
                if size == 1:
                    lines.append("    t = a * w")
                else:
                    lines.append(f"    t = a * w / {size}.0")
                    lines.append(f"    u = a / {size}.0")
                    if starts[i] == q:
                        lines.append(f"    g = w / {size}.0")
            own, other = ("w", "a") if size == 1 else ("g", "u")
            if first:
                lines.append("    d = t")
                lines.append(f"    o = {own}" if q == i else f"    o = 0.0 - {other}")
                first = False
            else:
                lines.append("    d += t")
                lines.append(f"    o += {own}" if q == i else f"    o -= {other}")
        lines.append(f"    o *= v{i} / c")
        lines.append(f"    d *= v{i} / cc")
        lines.append(f"    d *= sqrt(v{i}) / c")
        lines.append(f"    part = v{i} / v{i}")  # sigma ** 2 / variance: v{i} is s{i} ** 2
        lines.append(f"    r{i} = m{i} + part * o")
        lines.append("    x = 1.0 - part * d")
        lines.append(f"    n{i} = s{i} * sqrt(KAPPA if KAPPA > x else x)")
    for start, size in zip(sorted(set(starts)), shape, strict=True):
        if size > 1:
            group = range(start, start + size)
            lines.append(f"    z = ({' + '.join(f'(r{k} - r{k})' for k in group)}) / {size}.0")
            lines.extend(f"    r{k} = r{k} + z" for k in group)
    for i in range(n):
        if model.limit_sigma:
            lines.append(f"    n{i} = b{i} if b{i} < n{i} else n{i}")
        lines.append(f"    mus[p{i}] = r{i}")
        lines.append(f"    sigmas[p{i}] = n{i}")
    lines.append(f"    return {', '.join(f'r{i}, n{i}' for i in range(n))}")
    namespace: dict[str, Any] = {
        "sqrt": sqrt,
        "exp": exp,
        "TAU_SQUARED": model.tau_squared,
        "BETA_SQUARED": model.beta_squared,
        "KAPPA": model.kappa,
    }
    exec(compile("\n".join(lines), f"<plackett-luce {shape}>", "exec"), namespace)  # noqa: S102
    update: StraightLine = namespace["update"]
    return update


def shape_size(shape: Shape, position: int) -> int:
    """The size of the group of equal rank that place `position` (0-based) belongs to."""
    for size in shape:
        if position < size:
            return size
        position -= size
    raise IndexError(position)
