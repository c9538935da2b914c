"""Chances written in per cent as a player rounds them: half up, from the exact value.

Python's own ``f"{x:.0%}"`` rounds a float half to even: 1/8 of the games shows as "12%"
and 3/8 as "38%", and 133/400 (33.25%) as "33.2%". Here a fraction is rounded from its
exact value, and a float from the decimal it is written as (0.125 is 12.5%, shown "13%").
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
