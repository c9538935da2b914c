"""Per cents as a player rounds them: half up from the exact value, the same in every
table and picture (the odds, evaluate, sweep, the heat map)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from kriegsspiel.core.per_cent import per_cent


def test_halves_round_up_where_a_float_rounds_them_to_even() -> None:
    """1/8 and 3/8 of the games showed as "12%" and "38%" (f"{x:.0%}" rounds to even)."""
    assert f"{0.125:.0%}" == "12%"  # (Python's own, which this replaces)
    assert per_cent(0.125) == "13%" and per_cent(0.375) == "38%"
    assert per_cent(Fraction(1, 8)) == "13%" and per_cent(0.025, 1) == "2.5%"
    assert per_cent(0.025) == "3%"  # (the heat map's 2.5%)
    assert per_cent(Fraction(133, 400), 1) == "33.3%" and per_cent(Fraction(49, 400), 1) == "12.3%"


def test_a_float_is_rounded_from_the_decimal_it_is_written_as() -> None:
    """57/200 is 0.285, whose float is a hair under it: still 29%, as by hand."""
    assert 0.285 * 100 < 28.5
    assert per_cent(0.285) == "29%" and per_cent(57 / 200) == "29%"
    assert per_cent(0.0) == "0%" and per_cent(1.0) == "100%" and per_cent(1) == "100%"
    assert per_cent(Fraction(1, 3), 2) == "33.33%" and per_cent(Fraction(2, 3), 2) == "66.67%"


@given(st.integers(min_value=1, max_value=10_000), st.data(), st.integers(0, 3))
def test_a_count_of_games_is_shown_as_decimal_rounding_half_up_shows_it(
    games: int, data: st.DataObject, places: int
) -> None:
    """k of n games, as a Fraction or as the float the results carry, in per cent to any
    number of places: what decimal arithmetic, rounding half up, makes of k/n exactly."""
    won = data.draw(st.integers(0, games))
    exact = Decimal(won) * 100 / Decimal(games)  # (28 digits: k/n's halves are exact)
    expected = f"{exact.quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)}%"
    assert per_cent(Fraction(won, games), places) == expected
    if len(repr(won / games)) < 17:  # (a float written short is its decimal exactly)
        assert per_cent(won / games, places) == expected
