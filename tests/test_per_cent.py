"""Per cents as a player rounds them: half up from the exact value, the same in every
table and picture (the odds, evaluate, sweep, the heat map)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from kriegsspiel.core.per_cent import chance_shown_whole, per_cent


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


@given(st.integers(min_value=1, max_value=100_000), st.data())
def test_a_chance_to_the_whole_per_cent_is_never_rounded_to_a_certainty(
    games: int, data: st.DataObject
) -> None:
    """The solo briefing's and the results' short form: "0%" and "100%" only for a chance
    of exactly 0 or 1, "<1%" and ">99%" short of them; else as :func:`per_cent` rounds."""
    won = data.draw(st.integers(0, games))
    chance = Fraction(won, games)
    for given_as in (chance, won / games):
        shown = chance_shown_whole(given_as)
        if won in (0, games):
            assert shown == ("0%" if won == 0 else "100%")
        elif chance < Fraction(1, 200):
            assert shown == "<1%"
        elif chance >= Fraction(199, 200):
            assert shown == ">99%"
        else:
            assert shown == per_cent(given_as) not in ("0%", "100%")


def test_a_results_rate_short_of_certain_is_not_shown_as_certain() -> None:
    """Probe: 999 wins of 1000 games read "100% (99%-100%)" in the results' short form and
    "99.9% [...]" in the long one, whose bounds were rounded with no care for certainty;
    both now show a rate as the odds show a chance."""
    from kriegsspiel.render.evaluation_text import _pct, short_rate

    rate = {"rate": 0.999, "low": 0.9944, "high": 0.99995}
    assert short_rate(rate) == "99.9% (99.4%–99.995%)"
    assert short_rate({"rate": 0.5, "low": 0.004, "high": 0.996}) == "50.0% (0.4%–99.6%)"
    assert short_rate({"rate": 0.5, "low": 0.24, "high": 0.76}) == "50% (24%–76%)"
    assert _pct(rate) == "99.9% [99.4%, 99.995%]"
    assert short_rate({"rate": 1.0, "low": 0.99, "high": 1.0}) == "100% (99%–100%)"


def test_every_chance_shown_in_the_code_is_shown_one_of_the_two_ways() -> None:
    """No chance is formatted by hand (f"{p:.0%}", "p * 100", per_cent() itself) outside
    kriegsspiel.core.per_cent: each is chance_shown's or chance_shown_whole's."""
    import re
    from pathlib import Path

    import kriegsspiel

    root = Path(kriegsspiel.__file__).parent
    by_hand = re.compile(r":\.\d+%\}|[^_]per_cent\(|\bpercent\(")
    found = [
        f"{path.relative_to(root)}:{n}: {line.strip()}"
        for path in sorted(root.rglob("*.py"))
        if path.name != "per_cent.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if by_hand.search(line)
    ]
    assert found == []
