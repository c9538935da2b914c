"""Chances written in per cent as a player rounds them: half up, from the exact value.

Python's own ``f"{x:.0%}"`` rounds a float half to even: 1/8 of the games shows as "12%"
and 3/8 as "38%", and 133/400 (33.25%) as "33.2%". Here a fraction is rounded from its
exact value, and a float from the decimal it is written as (0.125 is 12.5%, shown "13%").

Every odds printer shows a chance with :func:`chance_shown`: the odds' tables, their
reasoning ("0.012% removed") and the play aid's page (its script keeps the same rule).
"""

from __future__ import annotations

import math
from fractions import Fraction


def per_cent(chance: Fraction | float, places: int = 0) -> str:
    """``chance`` (0 to 1) in per cent to ``places`` decimals, rounded half up: "13%",
    "33.3%"."""
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
