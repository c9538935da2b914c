"""Exact chances summed as whole numbers give what summing the fractions gives. Adding
Fractions one at a time is slow, so :meth:`Dist.from_fraction_sums` takes each outcome's
chance as numerators over their denominators and adds them as integers, and an assault
round's step (:func:`_steps`) weighs its survivors in integers over one denominator. Each
must equal the plain way: the very distribution, and the very refusals, that
:meth:`Dist.from_probabilities` gives the fractions added up; the step's exact chances
(:func:`_step_odds`) put over their least common denominator."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.core.dice import Dist
from kriegsspiel.rulesets.bolt_action.assault import (
    Side,
    Step,
    _step_odds,
    _steps,
    round_result,
)
from kriegsspiel.rulesets.bolt_action.morale import MoraleTest


def plain_from_sums(sums: dict[int, dict[int, int]]) -> Dist[int] | str:
    """:meth:`Dist.from_probabilities` of the summed fractions, or its refusal."""
    total = {
        o: sum((Fraction(n, d) for d, n in terms.items()), Fraction(0)) for o, terms in sums.items()
    }
    try:
        return Dist.from_probabilities(total)
    except ValueError as refused:
        return str(refused)


fraction_sums = st.dictionaries(
    st.integers(0, 4),
    st.dictionaries(st.integers(-12, 12).filter(bool), st.integers(-3, 12), min_size=1, max_size=3),
    max_size=4,
)


@settings(max_examples=300)
@given(fraction_sums)
def test_fraction_sums_build_and_refuse_as_the_plain_way(sums: dict[int, dict[int, int]]) -> None:
    try:
        fast: Dist[int] | str = Dist.from_fraction_sums(sums)
    except ValueError as refused:
        fast = str(refused)
    assert fast == plain_from_sums(sums)


@pytest.mark.parametrize(
    "sums",
    [
        {0: {6: 1}, 1: {6: 5}},
        {0: {4: 1, 12: 2}, 1: {12: 7}},
        {0: {-2: -1}, 1: {2: 1}},
        {0: {9: 3}, 1: {3: 2}},
    ],
)
def test_fraction_sums_that_add_to_one_build(sums: dict[int, dict[int, int]]) -> None:
    assert Dist.from_fraction_sums(sums) == plain_from_sums(sums)


def plain_steps(
    procedure: str, attacker: Side, defender: Side, a: int, d: int
) -> tuple[int, tuple[Step, ...]]:
    """``_steps`` as it was: the step's exact chances, put over their least common
    denominator."""
    survivors = _step_odds(procedure, attacker, defender, a, d)
    denominator = math.lcm(*(p.denominator for _, p in survivors.items()))
    return denominator, tuple(
        (s, p.numerator * (denominator // p.denominator), *round_result(procedure, (a, d), s))
        for s, p in survivors.items()
    )


sides = st.builds(
    Side,
    damage_value=st.integers(2, 7),
    morale=st.just(MoraleTest(base=9)),
    attacks_per_model=st.integers(0, 2),
    assault_models=st.integers(0, 3),
    assault_attacks=st.integers(1, 3),
    mode=st.sampled_from(["hand-to-hand", "point-blank"]),
    shots_per_model=st.integers(1, 2),
    point_blank_hit=st.sampled_from([(2,), (3,), (5,), (6,), (6, 4), (6, 6)]),
)


@settings(max_examples=300)
@given(
    st.sampled_from(["rounds", "choice"]),
    sides,
    sides,
    st.integers(0, 8),
    st.integers(0, 8),
)
def test_steps_summed_as_integers_match_the_chances(
    procedure: str, attacker: Side, defender: Side, a: int, d: int
) -> None:
    """A fight's step weighed in integers has the same least denominator, survivors (in
    order), weights and results as the step's exact chances put over one denominator."""
    assert _steps.__wrapped__(procedure, attacker, defender, a, d) == plain_steps(
        procedure, attacker, defender, a, d
    )
