"""FUBAR in Konflikt '47 and Bolt Action: what a unit does when its order test comes up a
double six and the FUBAR chart (``morale.fubar``, the sheets' chart) says friendly fire or
panic."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kriegsspiel.rulesets.bolt_action.game.table_rules import heading_to
from kriegsspiel.rulesets.bolt_action.game.units import UnitState

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame


def friendly_fire(game: BoltActionGame, unit: UnitState) -> None:
    """FUBAR, friendly fire: the unit fires at a friend it could shoot that has an enemy
    within 12" (the opponent chooses it: the closest); with none, it goes Down."""
    unit.order = "Fire"
    friends = [
        u
        for u in game.units
        if u.side == unit.side
        and u.uid != unit.uid
        and not u.destroyed
        and any(game.gap(u, e) <= 12 for e in game.units if e.side != unit.side and not e.destroyed)
        and game.can_shoot(unit, u, moving=False)
    ]
    if not friends:
        unit.order = "Down"
        game.log("fubar", unit=unit.uid, result="friendly fire: no target, goes Down")
        return
    victim = min(friends, key=lambda u: game.gap(unit, u))  # the opponent picks the closest
    game.log("fubar", unit=unit.uid, result="friendly fire", target=victim.uid)
    game.shoot(unit, victim, moving=False)


def panic(game: BoltActionGame, unit: UnitState) -> None:
    """FUBAR, panic: the unit runs straight away from the nearest enemy in sight; with none
    in sight, or no way to move (sheet 001), it goes Down."""
    enemies = [
        e for e in game.units if e.side != unit.side and not e.destroyed and game.visible(unit, e)
    ]
    if not enemies or unit.immobilised:
        unit.order = "Down"
        game.log("fubar", unit=unit.uid, result="panic: no enemy in sight, goes Down")
        return
    closest = min(enemies, key=lambda e: game.gap(unit, e))
    if not game.flee(unit, heading_to(unit.anchor, closest.anchor)):
        unit.order = "Down"  # sheet 001: a unit that can no longer move goes Down instead
        game.log("fubar", unit=unit.uid, result="panic: cannot move away, goes Down")
        return
    unit.order = "Run"
    game.log("fubar", unit=unit.uid, result="panic", away_from=closest.uid)
