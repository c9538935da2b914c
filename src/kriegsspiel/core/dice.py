"""Exact probability distributions over dice outcomes.

A small API of our own in front of icepool: the rest of the engine never imports
icepool, so a change of library (or of icepool's API) touches this module only.
Probabilities are exact :class:`fractions.Fraction` values; floats are for output.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from functools import lru_cache
from operator import itemgetter
from typing import Any, Generic, TypeVar, cast

from kriegsspiel.errors import UsageError

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)


class Dist(Generic[T]):
    """An immutable finite probability distribution (outcome -> exact probability).

    Outcomes are any hashable values; sums of numeric outcomes are convolved by icepool.
    """

    __slots__ = ("_table",)

    def __init__(self, table: Mapping[T, Fraction]) -> None:
        self._table: dict[T, Fraction] = dict(_sorted(table))

    # -- construction -------------------------------------------------------
    @staticmethod
    def die(sides: int) -> Dist[int]:
        """A fair die numbered 1..sides."""
        return _die(sides)

    @staticmethod
    def constant(value: U) -> Dist[U]:
        return Dist({value: Fraction(1)})

    @staticmethod
    def from_probabilities(probabilities: Mapping[U, Fraction]) -> Dist[U]:
        """Build from exact probabilities (must be non-negative and sum to 1)."""
        items = {o: Fraction(p) for o, p in probabilities.items() if p != 0}
        if not items:
            raise ValueError("a distribution needs at least one outcome")
        if any(p < 0 for p in items.values()):
            raise ValueError("negative probability")
        if sum(items.values()) != 1:
            raise ValueError("probabilities do not sum to 1")
        return Dist(items)

    @staticmethod
    def bernoulli(p: Fraction) -> Dist[int]:
        """1 with probability p, else 0."""
        return Dist.from_probabilities({0: 1 - Fraction(p), 1: Fraction(p)})

    @staticmethod
    def from_fraction_sums(sums: Mapping[U, Mapping[int, int]]) -> Dist[U]:
        """Build from probabilities given as sums: outcome -> {denominator: total numerator}.

        The same distribution, and the same checks, as :meth:`from_probabilities` of the
        summed fractions; the terms are added as integers, not one Fraction at a time.
        """
        items: dict[U, Fraction] = {}
        parts: list[tuple[int, int]] = []  # each outcome's (numerator, denominator), unreduced
        negative = False  # a sign read off the integers: no Fraction compared
        for outcome, terms in sums.items():
            if len(terms) == 1:
                ((den, num),) = terms.items()
            else:
                den = math.lcm(*terms)
                num = sum(n * (den // d) for d, n in terms.items())
            if num:
                items[outcome] = Fraction(num, den)
                parts.append((num, den))
                if (num < 0) != (den < 0):
                    negative = True
        if not items:
            raise ValueError("a distribution needs at least one outcome")
        if negative:
            raise ValueError("negative probability")
        # the sum is 1 exactly when, over any common denominator, the numerators add up to
        # it: found from the integers at hand rather than each Fraction's (reduced) parts
        common = math.lcm(*(den for _, den in parts))
        if sum(num * (common // den) for num, den in parts) != common:
            raise ValueError("probabilities do not sum to 1")
        return Dist(items)

    @staticmethod
    def mixture(parts: Iterable[tuple[Fraction, Dist[U]]]) -> Dist[U]:
        """The distribution that picks part i with probability p_i."""
        parts = list(parts)
        if not all(isinstance(w, int | Fraction) for w, _ in parts):  # e.g. float weights
            total: dict[U, Fraction] = {}
            for weight, dist in parts:
                for outcome, p in dist._table.items():
                    total[outcome] = total.get(outcome, Fraction(0)) + weight * p
            return Dist.from_probabilities(total)
        return Dist.weighted((w.numerator, w.denominator, dist) for w, dist in parts)

    @staticmethod
    def weighted(parts: Iterable[tuple[int, int, Dist[U]]]) -> Dist[U]:
        """:meth:`mixture` with each weight given as integers ``(numerator, denominator)``.

        The products are summed as integers: no Fraction is built until the end.
        """
        sums: dict[U, dict[int, int]] = {}
        for wn, wd, dist in parts:
            for outcome, p in dist._table.items():
                terms = sums.get(outcome)
                if terms is None:
                    terms = sums[outcome] = {}
                den = wd * p.denominator
                terms[den] = terms.get(den, 0) + wn * p.numerator
        return Dist.from_fraction_sums(sums)

    # -- reading ------------------------------------------------------------
    def items(self) -> Iterator[tuple[T, Fraction]]:
        return iter(self._table.items())

    def outcomes(self) -> list[T]:
        return list(self._table)

    def probability(self, outcome_or_test: T | Callable[[T], bool]) -> Fraction:
        """P(outcome == x) or P(test(outcome))."""
        if callable(outcome_or_test):
            test = outcome_or_test
            return sum((p for o, p in self._table.items() if test(o)), Fraction(0))
        return self._table.get(outcome_or_test, Fraction(0))

    def mean(self) -> Fraction:
        table = cast(dict[int, Fraction], self._table)
        if all(type(o) is int for o in table):  # as integers over one denominator
            denominator = math.lcm(*(p.denominator for p in table.values()))
            total = sum(o * p.numerator * (denominator // p.denominator) for o, p in table.items())
            return Fraction(total, denominator)
        return sum((Fraction(o) * p for o, p in table.items()), Fraction(0))

    def variance(self) -> Fraction:
        mu = self.mean()
        return sum(
            ((Fraction(cast(int, o)) - mu) ** 2 * p for o, p in self._table.items()), Fraction(0)
        )

    def as_list(self) -> list[Fraction]:
        """For a distribution over counts 0..n: [P(0), P(1), ..., P(n)]."""
        top = max(self._table)  # type: ignore[type-var]
        return [self._table.get(i, Fraction(0)) for i in range(int(top) + 1)]  # type: ignore[arg-type,call-overload]

    def at_least(self, threshold: int) -> Fraction:
        return self.probability(lambda o: o >= threshold)  # type: ignore[operator]

    # -- combining ----------------------------------------------------------
    def map(self, f: Callable[[T], U]) -> Dist[U]:
        merged: dict[U, list[Fraction]] = {}
        for outcome, p in self._table.items():
            key = f(outcome)
            same = merged.get(key)
            if same is None:
                merged[key] = [p]
            else:
                same.append(p)
        # an outcome only one maps to keeps its probability: no Fraction arithmetic
        return Dist({key: sum(ps[1:], ps[0]) for key, ps in merged.items()})

    def bind(self, f: Callable[[T], Dist[U]]) -> Dist[U]:
        """Each outcome leads to a further distribution; the result mixes them."""
        return Dist.mixture((p, f(o)) for o, p in self._table.items())

    def __add__(self, other: Dist[T]) -> Dist[T]:
        """The sum of two independent numeric outcomes."""
        a, b = _dense(self), _dense(other)
        if a is None or b is None:
            return _from_die(_to_die(self) + _to_die(other))
        return _from_dense(_convolve(a, b))

    @staticmethod
    def sum_of(dists: Iterable[Dist[U]]) -> Dist[U]:
        """The sum of independent numeric outcomes (0 for none): as adding them in turn,
        but small integer ones are convolved without a Dist between."""
        dists = list(dists)
        dense = [_dense(d) for d in dists]
        if any(x is None for x in dense):
            total: Dist[Any] = Dist.constant(0)
            for d in dists:
                total = total + d
            return total
        result: _Dense = (0, [1], 1)
        for x in dense:
            assert x is not None
            result = _convolve(result, x)
        return _from_dense(result)

    def repeat_sum(self, count: int | Dist[int]) -> Dist[T]:
        """The sum of ``count`` independent copies (``count`` may itself be random)."""
        if isinstance(count, Dist):
            return _from_die(_to_die(count) @ _to_die(self))
        if count < 0:
            raise ValueError("count must be >= 0")
        if count == 0:
            return Dist({0: Fraction(1)})  # type: ignore[dict-item]
        if count == 1:
            return self
        dense = _dense(self)
        if dense is None:
            return _from_die(count @ _to_die(self))
        result: _Dense | None = None
        while count:  # exponentiation by squaring
            if count & 1:
                result = dense if result is None else _convolve(result, dense)
            count >>= 1
            if count:
                dense = _convolve(dense, dense)
        assert result is not None
        return _from_dense(result)

    def via_icepool(self, count: int) -> Dist[T]:
        """``repeat_sum`` computed by icepool: the reference the fast path is tested against."""
        return _from_die(count @ _to_die(self)) if count else Dist({0: Fraction(1)})  # type: ignore[dict-item]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dist) and self._table == other._table

    def __hash__(self) -> int:
        return hash(frozenset(self._table.items()))

    def __repr__(self) -> str:
        body = ", ".join(f"{o!r}: {p}" for o, p in self._table.items())
        return f"Dist({{{body}}})"


# A small integer distribution as (lowest outcome, integer weights, denominator): sums of
# counts (hits, casualties) are convolved on these directly, which measured ~5x faster
# than icepool's general operators for the sizes a unit's shooting produces. Tests check
# this fast path against icepool.
_Dense = tuple[int, list[int], int]


def _dense(dist: Dist[Any]) -> _Dense | None:
    table = dist._table
    if not all(type(o) is int for o in table):
        return None
    low, high = min(table), max(table)
    if high - low > 4096:
        return None
    denominator = math.lcm(*(p.denominator for p in table.values()))
    weights = [0] * (high - low + 1)
    for outcome, p in table.items():
        weights[outcome - low] = p.numerator * (denominator // p.denominator)
    return low, weights, denominator


def _convolve(a: _Dense, b: _Dense) -> _Dense:
    (la, wa, da), (lb, wb, db) = a, b
    out = [0] * (len(wa) + len(wb) - 1)
    for i, x in enumerate(wa):
        if x:
            for j, y in enumerate(wb):
                out[i + j] += x * y
    return la + lb, out, da * db


def capped_sum_mean(dists: Iterable[Dist[int]], cap: int) -> Fraction:
    """The mean of ``min(sum, cap)`` for independent counts (outcomes 0 or more): e.g. the
    casualties of several weapon groups at a unit of ``cap`` models.

    The same fraction as ``Dist.sum_of(dists).map(lambda c: min(c, cap)).mean()``, but
    only the sums below the cap are convolved (as integers): the rest count as the cap.
    """
    low, weights, denominator = 0, [1], 1  # the sums below the cap, as in _Dense
    for dist in dists:
        dense = _dense(dist)
        if dense is None or dense[0] < 0:
            raise ValueError("capped_sum_mean takes counts: integer outcomes, 0 or more")
        part_low, part, part_denominator = dense
        low += part_low
        below = cap - low  # how many sums (from low up) stay under the cap
        denominator *= part_denominator
        if below <= 0:
            return Fraction(cap)
        out = [0] * min(len(weights) + len(part) - 1, below)
        for i, x in enumerate(weights[:below]):
            if x:
                for j, y in enumerate(part[: below - i]):
                    out[i + j] += x * y
        weights = out
    shortfall = sum((cap - low - i) * w for i, w in enumerate(weights))  # each sum's from cap
    return Fraction(cap * denominator - shortfall, denominator)


def _from_dense(dense: _Dense) -> Dist[Any]:
    low, weights, denominator = dense
    return Dist({low + i: Fraction(w, denominator) for i, w in enumerate(weights) if w})


_outcome = itemgetter(0)


def _sorted(table: Mapping[T, Fraction]) -> list[tuple[T, Fraction]]:
    # by outcome alone: the order of the whole pairs (outcomes are distinct keys), but
    # without testing each pair's outcomes for equality first
    try:
        return sorted(table.items(), key=_outcome)
    except TypeError:
        return list(table.items())


def _to_die(dist: Dist[Any]) -> Any:
    import icepool  # imported on first use: most queries take the dense fast path

    table = dist._table
    denominator = math.lcm(*(p.denominator for p in table.values()))
    return icepool.Die({o: int(p * denominator) for o, p in table.items()})


def _from_die(die: Any) -> Dist[Any]:
    denominator = die.denominator()
    return Dist({o: Fraction(q, denominator) for o, q in die.items()})


@lru_cache(maxsize=64)
def _die(sides: int) -> Dist[int]:
    if sides < 1:
        raise ValueError("a die needs at least one side")
    return Dist({face: Fraction(1, sides) for face in range(1, sides + 1)})


@lru_cache(maxsize=512)
def dice_sum(count: int, sides: int) -> Dist[int]:
    """The sum of ``count`` dice of ``sides`` sides (0 when count is 0)."""
    return _die(sides).repeat_sum(count)


@lru_cache(maxsize=2048)
def successes(count: int, p: Fraction) -> Dist[int]:
    """How many of ``count`` independent tries succeed with probability ``p`` each."""
    return Dist.bernoulli(p).repeat_sum(count)


# -- dice expressions as printed on the sheets: "D6", "2D6-1", "D3+1", "3" ----
_EXPR = re.compile(r"^\s*(?:(\d*)\s*[dD]\s*(\d+))?\s*(?:([+-])\s*(\d+))?\s*$|^\s*(\d+)\s*$")


class DiceExpr:
    """A dice expression such as ``2D6-1``: count dice of sides sides plus a constant."""

    __slots__ = ("_hash", "constant", "count", "sides", "text")

    def __init__(self, text: str) -> None:
        match = _EXPR.match(str(text))
        if not match or not any(match.groups()):
            raise UsageError(f"{text!r} is not a dice expression (write e.g. 3, D6, 2D6-1, D3+1)")
        if match.group(5) is not None:
            self.count, self.sides, self.constant = 0, 0, int(match.group(5))
        else:
            self.count = int(match.group(1) or 1) if match.group(2) else 0
            self.sides = int(match.group(2) or 0)
            sign = -1 if match.group(3) == "-" else 1
            self.constant = sign * int(match.group(4) or 0)
        self.text = str(text).strip().upper()
        # worked out once: shots (and the caches keyed by them) hash their dice often
        self._hash = hash((self.count, self.sides, self.constant))

    def plus(self, number: int) -> DiceExpr:
        """The same dice with ``number`` added: ``DiceExpr("D3+1").plus(1)`` is D3+2."""
        constant = self.constant + number
        if not self.count:
            return DiceExpr(str(constant))
        dice = f"{self.count if self.count > 1 else ''}D{self.sides}"
        return DiceExpr(f"{dice}{constant:+d}" if constant else dice)

    @property
    def most(self) -> int:
        """The highest it can roll."""
        return self.count * self.sides + self.constant

    @property
    def least(self) -> int:
        """The lowest it can roll (each die a 1)."""
        return self.count * min(self.sides, 1) + self.constant

    def dist(self) -> Dist[int]:
        if self.count == 0:
            return Dist.constant(self.constant)
        base = dice_sum(self.count, self.sides)
        return base if self.constant == 0 else base.map(lambda v: v + self.constant)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DiceExpr) and (self.count, self.sides, self.constant) == (
            other.count,
            other.sides,
            other.constant,
        )

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"DiceExpr({self.text!r})"

    def __str__(self) -> str:
        return self.text
