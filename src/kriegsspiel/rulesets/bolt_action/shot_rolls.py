"""The dice a shot rolls before anything is damaged: its to-hit roll (every die making its
score, a 7+ being a 6 then a 4+) and a sheet's dice expression (HE's hits, a flamethrower's
pins, a Shockwave's D3). Shots at troops and shots at vehicles roll them alike; they sit
apart from shooting's planner so that the rolls of a shot at a vehicle, which the planner
reads for what a hit could do, can make them without importing the planner.
"""

from __future__ import annotations

from kriegsspiel.core.dice import DiceExpr
from kriegsspiel.core.procedure import Dice


def roll_expr(dice: Dice, expr: DiceExpr) -> int:
    """Roll a sheet dice expression such as 2D6-1 (never below 0)."""
    if expr.count == 0:
        return expr.constant
    return max(0, dice.total(expr.count, expr.sides) + expr.constant)


def roll_to_hit(dice: Dice, hit_on: tuple[int, ...] | None) -> bool:
    """Roll the to-hit dice: every one must make its score (a 7+ is a 6, then 4+)."""
    if hit_on is None:
        return False
    return all(dice.roll(6) >= need for need in hit_on)
