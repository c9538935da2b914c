"""Which enemies threaten a vehicle: those with a weapon that could ever knock it out.

The candidate orders turn a vehicle to face its nearest threat, and the tactical player
values its facing toward the same one; both ask here.
"""

from __future__ import annotations

from itertools import pairwise
from typing import get_args

from kriegsspiel.core.memo import BoundedMemo
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action.edition import Rules, Target
from kriegsspiel.rulesets.bolt_action.game.shooting_groups import range_marks
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.rulesets.bolt_action.shooting import plan_shot
from kriegsspiel.rulesets.bolt_action.shot import Facing, Situation
from kriegsspiel.rulesets.bolt_action.vehicle_damage import can_reach_damage

# Whether a model's weapons could ever knock out a vehicle, by edition, weapons and the
# vehicle's profile spelt out field by field (see can_knock_out)
_HARM: BoundedMemo[tuple[Rules, tuple[str, ...], str, str, bool, int], bool]
_HARM = BoundedMemo("weapons that could knock out a vehicle", 4096)
FACINGS: tuple[Facing, ...] = get_args(Facing)  # every armour a shot at a vehicle may strike


def can_knock_out(rules: Rules, weapons: tuple[str, ...], target: Target) -> bool:
    """Could a shot of any of these weapons ever knock out a vehicle of this profile?

    A shot's pen, and whether it brings an effect or a test of its own, depend on the
    weapon, the vehicle, the armour it strikes, indirect fire and the range band alone, so
    each of those is tried (each range between the weapon's marks). When no shot has an
    effect, a test, or a pen roll that can reach a damage level, none of its hits can
    knock the vehicle out (:func:`knock_out_ceiling` is 0), however it is fired.

    Remembered by the profile's fields, not the profile: a :class:`Target`'s own hash is
    a Python call (the dataclass's), and this is asked for every enemy of every vehicle."""
    key = (rules, weapons, target.name, target.kind, target.walker, target.damage_value)
    found = _HARM.get(key)
    if found is None:
        found = _HARM.keep(key, any(_weapon_can_knock_out(rules, n, target) for n in weapons))
    return found


def _weapon_can_knock_out(rules: Rules, name: str, target: Target) -> bool:
    weapon = rules.weapon(name)
    marks, _ = range_marks(rules, (name,))
    ranges = {0.0, *marks, *((a + b) / 2 for a, b in pairwise(marks)), marks[-1] + 1.0}
    for rng in ranges:
        for facing in FACINGS:
            for indirect in (False, True):
                situation = Situation(range_inches=rng, facing=facing, indirect=indirect)
                try:
                    shot = plan_shot(rules, weapon, target, situation)[0]
                except UsageError:  # (as the game's _planned: no shot from here)
                    continue
                if shot.auto_effect is not None or shot.morale_check:
                    return True
                pen, vehicle = shot.pen, shot.vehicle
                if pen is not None and vehicle and can_reach_damage(vehicle, pen):
                    return True
    return False


def harmless_to(rules: Rules, unit: UnitState, target: Target) -> bool:
    """None of the unit's live models could ever knock out a vehicle of this profile."""
    last: tuple[str, ...] | None = None
    for model in unit.alive_models:
        weapons = model.weapons
        if weapons is not last:  # (models of a kind share the tuple)
            last = weapons
            if can_knock_out(rules, weapons, target):
                return False
    return True


def nearest_threat(rules: Rules, units: list[UnitState], vehicle: UnitState) -> UnitState | None:
    """The live enemy nearest the vehicle that could knock it out (the first of equals);
    None for troops, or when no enemy could."""
    if vehicle.vehicle is None:
        return None
    target, here = vehicle.vehicle.target, vehicle.anchor
    found, best = None, 0.0
    for e in units:
        if e.side == vehicle.side or e.destroyed:
            continue
        gap = here.distance_to(e.anchor)
        if (found is None or gap < best) and not harmless_to(rules, e, target):
            found, best = e, gap
    return found
