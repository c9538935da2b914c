"""Chances written in per cent as a player rounds them: half up, from the exact value.

Python's own ``f"{x:.0%}"`` rounds a float half to even: 1/8 of the games shows as "12%"
and 3/8 as "38%", and 133/400 (33.25%) as "33.2%". Here a fraction is rounded from its
exact value, and a float from the decimal it is written as (0.125 is 12.5%, shown "13%").

A chance is shown one of two ways, both never rounding a chance that is not exactly 0 or 1
to "0%" or "100%" (a player reads those as impossible and certain):

- :func:`chance_shown`, to a tenth of a per cent: every odds printer (the odds' tables,
  their reasoning: "0.012% removed"; the play aid's page, whose script keeps the same
  rule) and a results table's rates ("50.0% [37.9%, 62.1%]");
- :func:`chance_shown_whole`, to the whole per cent: where a chance is a word in a line
  or a compact table, as the solo player's briefing and prompts tell them ("72% to knock
  it out") and the results' short rates ("50% (24%–76%)").
"""

from __future__ import annotations

import math
from fractions import Fraction


def per_cent(chance: Fraction | float, places: int = 0) -> str:
    """``chance`` (0 to 1) in per cent to ``places`` decimals, rounded half up: "13%",
    "33.3%" (the rounding both ways of showing a chance use; a chance is shown by one of
    them, which never round it to a certainty it is not)."""
    exact = chance if isinstance(chance, Fraction) else Fraction(repr(float(chance)))
    steps = math.floor(exact * 100 * 10**places + Fraction(1, 2))
    whole, part = divmod(steps, 10**places)
    return f"{whole}.{part:0{places}d}%" if places else f"{whole}%"


def chance_shown(chance: Fraction | float) -> str:
    """A chance as the odds show it: to a tenth of a per cent, but one that is not nothing
    never as "0.0%" (a player reads that as impossible) nor one short of certain as
    "100.0%": below 0.05% with three places ("0.012%", "<0.001%"), above 99.95% the same
    (">99.999%"). Only a chance of exactly 0 or 1 reads "0.0%" or "100.0%"."""
    value = Fraction(chance) * 100
    if value and value < Fraction(1, 20):
        return per_cent(chance, 3) if value >= Fraction(5, 10**4) else "<0.001%"
    if value != 100 and value >= Fraction(9995, 100):
        return per_cent(chance, 3) if value < Fraction(999995, 10**4) else ">99.999%"
    return per_cent(chance, 1)


def chance_shown_whole(chance: Fraction | float) -> str:
    """A chance to the whole per cent, for a line or a compact table: "13%"; one that is
    not nothing never as "0%", nor one short of certain as "100%", but "<1%" and ">99%"
    (the honesty of :func:`chance_shown`, a place shorter)."""
    value = Fraction(chance) * 100
    if value and value < Fraction(1, 2):
        return "<1%"
    if value != 100 and value >= Fraction(199, 2):
        return ">99%"
    return per_cent(chance)
