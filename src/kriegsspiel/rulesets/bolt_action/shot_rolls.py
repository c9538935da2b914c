"""The dice a shot rolls before anything is damaged: its to-hit roll (every die making its
score, a 7+ being a 6 then a 4+) and a sheet's dice expression (HE's hits, a flamethrower's
pins, a Shockwave's D3). Shots at troops and shots at vehicles roll them alike; they sit
apart from shooting's planner so that the rolls of a shot at a vehicle, which the planner
reads for what a hit could do, can make them without importing the planner.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kriegsspiel.core.dice import DiceExpr
from kriegsspiel.core.procedure import Dice


def roll_expr(dice: Dice, expr: DiceExpr) -> int:
    """Roll a sheet dice expression such as 2D6-1 (never below 0)."""
    if expr.count == 0:
        return expr.constant
    return max(0, dice.total(expr.count, expr.sides) + expr.constant)


def roll_to_hit(dice: Dice, hit_on: tuple[int, ...] | None, kept: list[int] | None = None) -> bool:
    """Roll the to-hit dice: every one must make its score (a 7+ is a 6, then 4+); each
    die rolled is added to ``kept``, if given (a 7+'s second die only after a 6)."""
    if hit_on is None:
        return False
    if kept is None:
        return all(dice.roll(6) >= need for need in hit_on)
    for need in hit_on:
        die = dice.roll(6)
        kept.append(die)
        if die < need:
            return False
    return True


@dataclass(slots=True)
class ShotDice:
    """A weapon group's dice as rolled, for the record: every to-hit die (a 7+'s second
    die after its 6), what each shot that hit made of a roll of hits (HE's D6, before a
    Down target halves it; at a vehicle too), every damage die at troops and each roll of
    its own pins (HE's D2/D3/D6, a flamethrower's: at troops one for the group that hit;
    at a vehicle one for each shot that hit)."""

    to_hit: list[int] = field(default_factory=list)
    per_hit: list[int] = field(default_factory=list)
    to_damage: list[int] = field(default_factory=list)
    pins: list[int] = field(default_factory=list)


def write_dice(
    line: dict[str, Any],
    kept: ShotDice,
    damage_need: int,
    *,
    at_troops: bool,
    multiplied: bool,
    pins: DiceExpr | None = None,
) -> None:
    """Add a weapon group's dice to its weapon's part of the record (``line``; a part
    several groups share gets each group's after the last's): ``hit_dice``, every to-hit
    die as rolled (none for a sure hit); of a shot whose hit is a roll of hits,
    ``per_hit_dice``, each roll as made (before a Down target halves it; at a vehicle,
    format 9 on); of a weapon with its own ``pins`` (HE, a flamethrower) that rolled them,
    ``pin_roll``, the dice ("D3"), and ``pin_dice``, each roll as made (format 9 on); at
    troops, ``damage_dice``, every damage die, and ``damage_needs``, the D6 score each
    needed."""
    line["hit_dice"] = line.get("hit_dice", ()) + tuple(kept.to_hit)
    if multiplied:
        line["per_hit_dice"] = line.get("per_hit_dice", ()) + tuple(kept.per_hit)
    if kept.pins and pins is not None:
        line["pin_roll"] = pins.text
        line["pin_dice"] = line.get("pin_dice", ()) + tuple(kept.pins)
    if not at_troops:
        return
    line["damage_dice"] = line.get("damage_dice", ()) + tuple(kept.to_damage)
    line["damage_needs"] = damage_need
