"""The dice core: exact distributions, dice expressions and the three ways to run a procedure."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.core.dice import DiceExpr, Dist, capped_sum_mean, dice_sum, successes
from kriegsspiel.core.procedure import Dice, RandomDice, ScriptedDice, brute_force, exact, markov
from kriegsspiel.errors import UsageError


def test_die_is_uniform() -> None:
    d6 = Dist.die(6)
    assert d6.outcomes() == [1, 2, 3, 4, 5, 6]
    assert all(p == Fraction(1, 6) for _, p in d6.items())
    assert d6.mean() == Fraction(7, 2)


def test_two_d6_totals() -> None:
    two = dice_sum(2, 6)
    assert two.probability(7) == Fraction(6, 36)
    assert two.probability(2) == two.probability(12) == Fraction(1, 36)


@pytest.mark.parametrize(
    ("text", "low", "high", "mean"),
    [
        ("D6", 1, 6, Fraction(7, 2)),
        ("2D6-1", 1, 11, 6),
        ("D3+1", 2, 4, 3),
        ("3", 3, 3, 3),
        ("3D6", 3, 18, Fraction(21, 2)),
        ("D2", 1, 2, Fraction(3, 2)),
    ],
)
def test_dice_expressions(text: str, low: int, high: int, mean: Fraction) -> None:
    dist = DiceExpr(text).dist()
    assert min(dist.outcomes()) == low and max(dist.outcomes()) == high
    assert dist.mean() == mean


@pytest.mark.parametrize("text", ["", "D", "2X6", "six", "D6+", "--1"])
def test_bad_dice_expression_is_a_usage_error(text: str) -> None:
    with pytest.raises(UsageError, match="dice expression"):
        DiceExpr(text)


def test_successes_is_binomial() -> None:
    dist = successes(3, Fraction(1, 2))
    assert dist.as_list() == [Fraction(1, 8), Fraction(3, 8), Fraction(3, 8), Fraction(1, 8)]


def test_random_count_repeat_sum() -> None:
    # D2 dice of D6: 1/2 * one die + 1/2 * two dice
    dist = Dist.die(6).repeat_sum(Dist.die(2))
    assert dist.probability(2) == Fraction(1, 2) * Fraction(1, 6) + Fraction(1, 2) * Fraction(1, 36)


def test_from_probabilities_must_sum_to_one() -> None:
    with pytest.raises(ValueError, match="sum to 1"):
        Dist.from_probabilities({0: Fraction(1, 2)})


def _procedure(dice: Dice) -> tuple[int, int]:
    """A small procedure with a conditional roll and an aggregate roll."""
    first = dice.roll(6)
    extra = dice.total(1, 2) if first >= 4 else 0
    return first >= 4, dice.count_at_least(extra, 6, 5, 4)


def test_exact_equals_brute_force() -> None:
    assert exact(_procedure) == brute_force(_procedure)


def test_exact_matches_monte_carlo() -> None:
    dist = exact(_procedure)
    rng = RandomDice(20261122)
    n = 40_000
    samples = [_procedure(rng) for _ in range(n)]
    mean = sum(s[1] for s in samples) / n
    expected = dist.map(lambda o: o[1]).mean()
    variance = float(dist.map(lambda o: o[1]).variance())
    assert abs(mean - float(expected)) < 4 * (variance / n) ** 0.5


def test_scripted_dice_replay_in_order() -> None:
    dice = ScriptedDice([5, 2, 6, 3, 4])
    # first 5 -> extra 2 dice: 6 and 3 need 5+ (one passes), then 4 needs 4+ (passes)
    assert _procedure(dice) == (True, 1)
    assert dice.remaining == []


def test_scripted_dice_reject_impossible_faces() -> None:
    with pytest.raises(ValueError, match="not a face"):
        ScriptedDice([7]).roll(6)


def test_random_dice_are_seeded() -> None:
    a, b = RandomDice(7), RandomDice(7)
    assert [a.roll(6) for _ in range(20)] == [b.roll(6) for _ in range(20)]


def test_markov_chain_of_steps() -> None:
    def step(dice: Dice, state: int) -> int:
        return state + (dice.roll(6) == 6)

    history = markov(Dist.constant(0), step, 3)
    assert history[3] == successes(3, Fraction(1, 6))


@settings(max_examples=60)
@given(st.integers(0, 8), st.integers(2, 20), st.lists(st.integers(1, 21), min_size=1, max_size=3))
def test_count_at_least_exact_is_a_distribution(count: int, sides: int, needs: list[int]) -> None:
    def proc(dice: Dice) -> int:
        return dice.count_at_least(count, sides, *needs)

    dist = exact(proc)
    assert sum(p for _, p in dist.items()) == 1
    assert all(0 <= o <= count for o in dist.outcomes())
    if count <= 2 and sides <= 6:
        assert dist == brute_force(proc)


@settings(max_examples=60)
@given(
    st.dictionaries(st.integers(-3, 6), st.integers(1, 9), min_size=1, max_size=5),
    st.integers(0, 7),
)
def test_fast_convolution_matches_icepool(weights: dict[int, int], count: int) -> None:
    total = sum(weights.values())
    dist = Dist.from_probabilities({o: Fraction(w, total) for o, w in weights.items()})
    assert dist.repeat_sum(count) == dist.via_icepool(count)
    assert dist + dist == dist.via_icepool(2)
    assert Dist.sum_of([dist] * count) == dist.via_icepool(count)


@settings(max_examples=80)
@given(
    st.lists(
        st.dictionaries(st.integers(0, 7), st.integers(1, 9), min_size=1, max_size=5),
        max_size=4,
    ),
    st.integers(0, 14),
)
def test_capped_sum_mean_is_the_capped_sums_mean(parts: list[dict[int, int]], cap: int) -> None:
    """Convolving only the sums below the cap gives the whole capped sum's mean."""
    dists = [
        Dist.from_probabilities({o: Fraction(w, sum(ws.values())) for o, w in ws.items()})
        for ws in parts
    ]
    whole = Dist.sum_of(dists).map(lambda c: min(c, cap)).mean()
    assert capped_sum_mean(dists, cap) == whole


def test_capped_sum_mean_takes_counts_only() -> None:
    with pytest.raises(ValueError, match="counts"):
        capped_sum_mean([Dist.constant(-1)], 3)


def test_sum_of_mixed_outcomes_adds_in_turn() -> None:
    coin = Dist.from_probabilities({Fraction(1, 2): Fraction(1, 3), 2: Fraction(2, 3)})
    assert Dist.sum_of([coin, Dist.die(6)]) == coin + Dist.die(6)
    assert Dist.sum_of([]) == Dist.constant(0)


def test_mean_and_map_are_exact() -> None:
    dist = dice_sum(3, 6)
    assert dist.mean() == sum((Fraction(o) * p for o, p in dist.items()), Fraction(0))
    capped = dist.map(lambda t: min(t, 10))
    assert capped.probability(10) == dist.at_least(10)
    assert capped.mean() == sum(min(o, 10) * p for o, p in dist.items())


def test_from_fraction_sums_refuses_a_negative_probability() -> None:
    with pytest.raises(ValueError, match="negative"):
        Dist.from_fraction_sums({0: {2: -1}, 1: {2: 3}})
    with pytest.raises(ValueError, match="negative"):
        Dist.from_fraction_sums({0: {-2: 1}, 1: {2: 3}})
    assert Dist.from_fraction_sums({0: {-2: -1}, 1: {2: 1}}) == Dist.bernoulli(Fraction(1, 2))
