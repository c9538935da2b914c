"""Rules as procedures over a :class:`Dice` object, run three ways.

A rule is written once, as a plain function that asks a ``Dice`` for rolls. The
same function is then

* **sampled** with :class:`RandomDice` (one seeded generator per game) by the simulator,
* **enumerated exactly** with :func:`exact`, which explores every branch of the
  procedure with its probability (aggregate rolls such as "how many of 8 dice
  score 4+" are one exact branch point), and
* **enumerated die by die** with :func:`brute_force`, the oracle that expands every
  aggregate roll into single dice, for tests on small cases.

So the odds calculator and the simulator can never disagree about a rule: there is
only one coding of it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol, TypeVar

from kriegsspiel.core.dice import Dist, dice_sum, successes

if TYPE_CHECKING:
    import numpy as np

T = TypeVar("T", bound=Hashable)


class Dice(Protocol):
    """Where rules get their random numbers from."""

    def roll(self, sides: int) -> int:
        """One die, 1..sides."""
        ...

    def total(self, count: int, sides: int) -> int:
        """The sum of ``count`` dice (0 when count is 0)."""
        ...

    def count_at_least(self, count: int, sides: int, *at_least: int) -> int:
        """Roll ``count`` dice; how many show ``at_least`` or more.

        With several thresholds the successes are rolled again for each in turn
        (to hit, then to damage): how many pass them all.
        """
        ...

    def faces(self, count: int, sides: int) -> tuple[int, ...]:
        """Roll ``count`` dice and give each as it fell (as :meth:`count_at_least` rolls
        them: the game keeps a shot's damage dice so a player can check them)."""
        ...


class RandomDice:
    """Seeded dice for simulation; never touches global random state."""

    def __init__(self, seed: int | np.random.Generator | None = None) -> None:
        import numpy as np  # only the simulator needs numpy; odds queries start faster without it

        self.rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)

    def roll(self, sides: int) -> int:
        return int(self.rng.integers(1, sides + 1))

    def total(self, count: int, sides: int) -> int:
        if count <= 0:
            return 0
        return int(self.rng.integers(1, sides + 1, size=count).sum())

    def count_at_least(self, count: int, sides: int, *at_least: int) -> int:
        # each die rolled and counted (not one binomial draw of the count: the same
        # chances), so that :meth:`faces` rolls the very same dice as this does
        for need in at_least:
            count = sum(face >= need for face in self.faces(count, sides))
        return count

    def faces(self, count: int, sides: int) -> tuple[int, ...]:
        if count <= 0:
            return ()
        # from the generator's raw 64-bit words (a tenth of the time of numpy's
        # ``integers`` for a few dice), each taken modulo the sides; the rare word at the
        # top of the range, beyond the last whole set of ``sides`` (less than one in 10**18),
        # is drawn again, so every face is exactly as likely
        words = self.rng.bit_generator.random_raw(count).tolist()
        top = _WORDS - _WORDS % sides
        if max(words) >= top:
            words = [self._word(top) if word >= top else word for word in words]
        return tuple(word % sides + 1 for word in words)

    def _word(self, top: int) -> int:
        word = top
        while word >= top:
            word = int(self.rng.bit_generator.random_raw())
        return word


#: how many raw words the generator draws from (64 bits)
_WORDS = 1 << 64


class ScriptedDice:
    """Dice that answer with given values, in order: replays of worked examples."""

    def __init__(self, rolls: Iterable[int]) -> None:
        self._rolls = list(rolls)
        self.used: list[int] = []

    def _next(self, sides: int) -> int:
        if not self._rolls:
            raise IndexError("the script has no more dice")
        value = self._rolls.pop(0)
        if not 1 <= value <= sides:
            raise ValueError(f"scripted roll {value} is not a face of a d{sides}")
        self.used.append(value)
        return value

    def roll(self, sides: int) -> int:
        return self._next(sides)

    def total(self, count: int, sides: int) -> int:
        return sum(self._next(sides) for _ in range(count))

    def count_at_least(self, count: int, sides: int, *at_least: int) -> int:
        for need in at_least:
            count = sum(self._next(sides) >= need for _ in range(count))
        return count

    def faces(self, count: int, sides: int) -> tuple[int, ...]:
        return tuple(self._next(sides) for _ in range(count))

    @property
    def remaining(self) -> list[int]:
        return list(self._rolls)


@lru_cache(maxsize=1024)
def chance_all(sides: int, at_least: tuple[int, ...]) -> Fraction:
    """The chance that one item passes every roll in turn."""
    p = Fraction(1)
    for need in at_least:
        p *= Fraction(min(sides, max(0, sides - need + 1)), sides)
    return p


# One roll's outcomes as integer weights over a common denominator:
# ``(denominator, ((outcome, weight), ...))``, in the order of the roll's distribution.
#: A distribution of whole numbers as integer weights: (denominator, ((value, weight), ...))
Weights = tuple[int, tuple[tuple[int, int], ...]]


def _weights(dist: Dist[int]) -> Weights:
    denominator = math.lcm(*(p.denominator for _, p in dist.items()))
    return denominator, tuple(
        (value, p.numerator * (denominator // p.denominator)) for value, p in dist.items()
    )


# the rolls a procedure asks for, cached by their plain arguments (cheap keys)
@lru_cache(maxsize=64)
def _die_weights(sides: int) -> Weights:
    return _weights(Dist.die(sides))


@lru_cache(maxsize=512)
def _sum_weights(count: int, sides: int) -> Weights:
    return _weights(dice_sum(count, sides))


@lru_cache(maxsize=4096)
def count_weights(count: int, sides: int, at_least: tuple[int, ...]) -> Weights:
    """How many of ``count`` dice of ``sides`` sides roll one of ``at_least`` (or better),
    as weights."""
    return _weights(successes(count, chance_all(sides, at_least)))


class _Branch(Exception):
    def __init__(self, weights: Weights) -> None:
        self.weights = weights


class _ReplayDice:
    """Follows a fixed list of earlier choices; raises _Branch at the first new roll."""

    __slots__ = ("die_by_die", "position", "prefix")

    def __init__(self, prefix: tuple[int, ...], die_by_die: bool) -> None:
        self.prefix, self.position, self.die_by_die = prefix, 0, die_by_die

    def _choose(self, weights: Weights) -> int:
        position = self.position
        if position < len(self.prefix):
            self.position = position + 1
            return self.prefix[position]
        raise _Branch(weights)

    def roll(self, sides: int) -> int:
        return self._choose(_die_weights(sides))

    def total(self, count: int, sides: int) -> int:
        if count <= 0:
            return 0
        if self.die_by_die:
            return sum(self.roll(sides) for _ in range(count))
        return self._choose(_sum_weights(count, sides))

    def count_at_least(self, count: int, sides: int, *at_least: int) -> int:
        if count <= 0:
            return 0
        if self.die_by_die:
            for need in at_least:
                count = sum(self.roll(sides) >= need for _ in range(count))
            return count
        return self._choose(count_weights(count, sides, at_least))

    def faces(self, count: int, sides: int) -> tuple[int, ...]:
        return tuple(self.roll(sides) for _ in range(count))  # (die by die: no aggregate)


def _enumerate(procedure: Callable[[Dice], T], die_by_die: bool) -> Dist[T]:
    # a branch's weight is an exact fraction kept as (numerator, denominator) integers;
    # each outcome's weights are summed per denominator, as integers, at the end
    results: dict[T, dict[int, int]] = {}
    stack: list[tuple[tuple[int, ...], int, int]] = [((), 1, 1)]
    while stack:
        prefix, num, den = stack.pop()
        try:
            outcome = procedure(_ReplayDice(prefix, die_by_die))
        except _Branch as branch:
            denominator, weights = branch.weights
            den *= denominator
            for value, weight in weights:
                stack.append(((*prefix, value), num * weight, den))
            continue
        terms = results.get(outcome)
        if terms is None:
            terms = results[outcome] = {}
        terms[den] = terms.get(den, 0) + num
    return Dist.from_fraction_sums(results)


def exact(procedure: Callable[[Dice], T]) -> Dist[T]:
    """The exact outcome distribution of a procedure (aggregate rolls as one branch)."""
    return _enumerate(procedure, die_by_die=False)


def brute_force(procedure: Callable[[Dice], T]) -> Dist[T]:
    """The same, expanding every die separately: the slow oracle for tests."""
    return _enumerate(procedure, die_by_die=True)


def markov(start: Dist[T], step: Callable[[Dice, T], T], times: int) -> list[Dist[T]]:
    """Apply a random ``step`` repeatedly: the state distribution after 0..times steps."""
    history = [start]
    current = start
    transitions: dict[T, Dist[T]] = {}

    def after(state: T) -> Dist[T]:
        if state not in transitions:
            transitions[state] = exact(lambda dice: step(dice, state))
        return transitions[state]

    for _ in range(times):
        current = current.bind(after)
        history.append(current)
    return history
