"""Exact chances summed as whole numbers give what summing the fractions gives. Adding
Fractions one at a time is slow, so :meth:`Dist.from_fraction_sums` takes each outcome's
chance as numerators over their denominators and adds them as integers; it must build the
very distribution, and refuse the very sums, that :meth:`Dist.from_probabilities` does given
the fractions added up plainly."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.core.dice import Dist


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
