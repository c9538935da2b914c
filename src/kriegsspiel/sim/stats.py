"""Honest statistics for a batch of games: Wilson intervals, means and the early stop."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

Z95 = 1.959963984540054  # the standard normal's 97.5th percentile


@dataclass(frozen=True, slots=True)
class Proportion:
    """``hits`` out of ``n`` with its 95% Wilson score interval."""

    hits: int
    n: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.hits / self.n if self.n else 0.0

    @property
    def reach(self) -> float:
        """How far the interval reaches from the observed rate, on its longer side (a Wilson
        interval is lopsided near 0 and 1: 20 of 20 is 100% with a low of 84%)."""
        return max(self.high - self.rate, self.rate - self.low)

    def to_json(self) -> dict[str, float | int | None]:
        """As JSON; out of no games at all the rate is null (0 of 0 is no rate, not 0%)."""
        return {
            "count": self.hits,
            "games": self.n,
            "rate": self.rate if self.n else None,
            "low": self.low,
            "high": self.high,
        }


def wilson(hits: int, n: int, z: float = Z95) -> Proportion:
    """The Wilson score interval: sound near 0 and 1 and for small ``n``, unlike p ± z·se."""
    if not 0 <= hits <= n:
        raise ValueError(f"hits must be between 0 and n, got {hits} of {n}")
    if n == 0:
        return Proportion(0, 0, 0.0, 1.0)
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # exact at the ends: rounding must not push the bound past the observed rate
    low = 0.0 if hits == 0 else min(p, centre - spread)
    high = 1.0 if hits == n else max(p, centre + spread)
    return Proportion(hits, n, low, high)


@dataclass(frozen=True, slots=True)
class Spread:
    """Mean and sample standard deviation; the deviation is None for a single value, where
    it is undefined (printing 0 would claim the games never vary)."""

    mean: float
    sd: float | None

    def to_json(self) -> dict[str, float | None]:
        return {"mean": self.mean, "sd": self.sd}


def percentage_points(precision: float) -> str:
    """A precision as percentage points, to the digits it was given with: 0.1 is "10",
    0.015 is "1.5" (a rate's ± 0.1 is ± 10 points, not 0.1 of one); written out, as
    :func:`plain` writes a number."""
    points = f"{precision * 100:.6g}"
    return plain(float(points)) if "e" in points else points


def plain(number: float) -> str:
    """A number as it is written by hand, never in exponent form: 1e-09 is "0.000000001",
    0.05 is "0.05" (nan and inf as Python writes them)."""
    if not math.isfinite(number):
        return str(number)
    return format(Decimal(repr(float(number))), "f")


def within_precision(counts: Sequence[int], precision: float) -> bool:
    """True when every count's rate, out of their total, is known to ± ``precision``: its
    95% Wilson interval reaches no farther than that from it on either side."""
    n = sum(counts)
    return n > 0 and all(wilson(c, n).reach <= precision for c in counts)


@dataclass(slots=True)
class Running:
    """Mean and variance accumulated one value at a time (Welford), in constant memory."""

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0

    def add(self, value: float) -> None:
        self.n += 1
        delta = value - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (value - self.mean)

    def spread(self) -> Spread:
        sd = math.sqrt(self.m2 / (self.n - 1)) if self.n > 1 else None
        return Spread(self.mean, sd)

    def interval(self) -> tuple[float, float] | None:
        """The mean's 95% interval, mean ± t·sd/√n (Student's t, so it is honest for a few
        games too); None for fewer than two values, where no spread is known, and for
        values all alike (a unit that dealt no damage in any game), where mean ± t·0 would
        claim the mean known exactly: no spread seen is not no spread."""
        sd = self.spread().sd
        if not sd:  # (None, or 0: exactly 0 for values all alike, as Welford adds them)
            return None
        reach = t975(self.n - 1) * sd / math.sqrt(self.n)
        return self.mean - reach, self.mean + reach

    @classmethod
    def of(cls, n: int, mean: float, sd: float | None) -> Running:
        """The running totals that a summary of ``n`` values (their mean and sd) came from,
        so summaries of several runs can be taken together exactly (:meth:`merge`)."""
        return cls(n, mean, (sd or 0.0) ** 2 * (n - 1) if n > 1 else 0.0)

    def merge(self, other: Running) -> None:
        """Take ``other``'s values in as if each had been added here (Chan et al.)."""
        n = self.n + other.n
        if n == 0:
            return
        delta = other.mean - self.mean
        self.m2 += other.m2 + delta * delta * self.n * other.n / n
        self.mean += delta * other.n / n
        self.n = n


_T975_SMALL = {
    1: 12.706204736174698,
    2: 4.302652729749464,
    3: 3.182446305284263,
    4: 2.776445105197793,
}


def t975(df: int) -> float:
    """Student's t 97.5th percentile for ``df`` degrees of freedom: from a table up to 4,
    beyond that the Cornish-Fisher expansion about the normal's (Abramowitz and Stegun
    26.7.5), within 0.0003 of it from 5 on."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be 1 or more, got {df}")
    if df in _T975_SMALL:
        return _T975_SMALL[df]
    z = Z95
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


@dataclass(frozen=True, slots=True)
class Difference:
    """How much a rate changed between two runs of the same games, paired game by game,
    with its 95% interval: ``change`` is the second rate less the first."""

    change: float
    low: float
    high: float
    pairs: int

    @property
    def clear(self) -> bool:
        """Does the interval leave out no change at all?"""
        return self.low > 0 or self.high < 0

    def to_json(self) -> dict[str, float | int | bool]:
        return {
            "change": self.change,
            "low": self.low,
            "high": self.high,
            "pairs": self.pairs,
            "clear": self.clear,
        }


def paired_difference(both: int, first_only: int, second_only: int, neither: int) -> Difference:
    """The change from the first rate to the second over pairs of games, with Newcombe's
    (1998) interval for paired proportions (his method 10): each rate's Wilson interval,
    combined with the correlation of the pairs.

    The counts are pairs in which the outcome happened in both games, in the first only,
    in the second only, or in neither. Pairing (the same seed in both games of a pair) makes
    the interval narrower than comparing the two rates as if independent, whenever the
    pairs' outcomes go together.
    """
    counts = (both, first_only, second_only, neither)
    if min(counts) < 0:
        raise ValueError(f"pair counts cannot be negative, got {counts}")
    n = sum(counts)
    if n == 0:
        return Difference(0.0, -1.0, 1.0, 0)
    first, second = wilson(both + first_only, n), wilson(both + second_only, n)
    p1, p2 = first.rate, second.rate
    change = p2 - p1
    # the correlation of the pairs, as Newcombe corrects it (0 while it is small)
    spread = (
        (both + first_only)
        * (second_only + neither)
        * (both + second_only)
        * (first_only + neither)
    )
    across = both * neither - first_only * second_only
    if across > n / 2:
        corrected = across - n / 2
    elif across < 0:
        corrected = float(across)
    else:
        corrected = 0.0
    phi = corrected / math.sqrt(spread) if spread else 0.0
    # (second less first: the second rate's room below it pairs with the first's above it)
    down_2, up_1 = p2 - second.low, first.high - p1
    up_2, down_1 = second.high - p2, p1 - first.low
    low = change - math.sqrt(max(0.0, down_2**2 - 2 * phi * down_2 * up_1 + up_1**2))
    high = change + math.sqrt(max(0.0, up_2**2 - 2 * phi * up_2 * down_1 + down_1**2))
    return Difference(change, max(-1.0, min(low, change)), min(1.0, max(high, change)), n)
