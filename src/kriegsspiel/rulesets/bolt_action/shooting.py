"""Shooting: from a weapon, a target and a situation to the dice that decide it.

``plan_shot`` turns the sheet's tables into a :class:`~.shot.Shot` (what each die needs,
with the reasons a player would give) in steps: whether and how the weapon fires (its
range, a Fixed weapon on the move: here), the to-hit roll (``to_hit.py``), a
flamethrower's hits (here), then what a hit does at troops (``troop_damage.py``) or at a
vehicle (``pen.py``). The shot is rolled at troops by ``troop_damage.py``, at a vehicle by
``vehicle_damage.py``. The procedures are the only coding of these rules: the odds
calculator enumerates them exactly, the simulator samples them.
"""

from __future__ import annotations

import math
from dataclasses import replace

from kriegsspiel.core.dice import DiceExpr
from kriegsspiel.core.report import Reason
from kriegsspiel.errors import ParameterError, named, not_a_distance
from kriegsspiel.rulesets.bolt_action.data import Weapon
from kriegsspiel.rulesets.bolt_action.edition import Rules, Target
from kriegsspiel.rulesets.bolt_action.pen import damage_to_vehicle
from kriegsspiel.rulesets.bolt_action.shot import Firing, Shot, Situation
from kriegsspiel.rulesets.bolt_action.to_hit import plan_to_hit
from kriegsspiel.rulesets.bolt_action.troop_damage import damage_to_troops


def shots_per_model(weapon: Weapon) -> int:
    """How many shots a model fires with ``weapon``: its Shots, but one for a flamethrower
    or a Shockwave (a template, whatever it hits)."""
    if "Flamethrower" in weapon.special or "Shockwave" in weapon.special:
        return 1
    return int(weapon.shots)


class CannotFire(ParameterError):
    """This weapon cannot fire in this situation (out of range, or Fixed on the move); in a
    unit with other weapons it simply does not fire. ``why``: the message without its
    advice to the asker (a reason in the odds' words: "... is out of range")."""

    def __init__(self, message: str, why: str | None = None) -> None:
        super().__init__(message)
        self.why = str(self) if why is None else why


def can_fire_indirectly(weapon: Weapon) -> bool:
    """Mortars (Indirect Fire) always do; howitzers and rifle grenades may."""
    return weapon.indirect_min_range is not None or "Indirect Fire" in weapon.special


def fires_on_spotting(weapon: Weapon) -> bool:
    """Whether a team's ``weapon`` may fire at a target that any man of its team sees (its
    spotter's eyes, the crew's), not only at what the man carrying it sees: a team weapon
    that always fires indirectly, a mortar (``Team`` and ``Indirect Fire``; an assumption,
    the published rule: "Spotters" in docs/rules)."""
    return "Team" in weapon.special and "Indirect Fire" in weapon.special


def least_range(weapon: Weapon, *, indirect: bool = False) -> int:
    """The closest a weapon fires at: its minimum range, and fired indirectly (a
    howitzer's lob) no closer than its indirect minimum either."""
    if indirect:
        return max(weapon.min_range, weapon.indirect_min_range or 0)
    return weapon.min_range


def in_range(weapon: Weapon, range_inches: float, *, indirect: bool = False) -> bool:
    """Whether a weapon can fire at a target ``range_inches`` away (fired indirectly, if
    ``indirect``): no farther than its range, no closer than :func:`least_range`."""
    return least_range(weapon, indirect=indirect) <= range_inches <= weapon.range


def check_range(rules: Rules, weapon: Weapon, situation: Situation) -> None:
    """Refuse a range the weapon cannot fire at (:func:`in_range`), saying what would be
    right."""
    r = situation.range_inches
    if not math.isfinite(r) or r < 0:
        raise not_a_distance("situation.range_inches", r)
    if r > weapon.range:
        shown = f"{r:g}" if r == round(r, 4) else str(r)
        why = f'{weapon.name} reaches {weapon.range}"; a target at {shown}" is out of range'
        advice = f"give {named('situation.range_inches', weapon.range)} or less"
        raise CannotFire(f"{why} ({advice}).", why)
    if situation.indirect and not can_fire_indirectly(weapon):
        raise CannotFire(
            f"{weapon.name} cannot fire indirectly (only mortars, rifle grenades and howitzers can)."
        )
    if not in_range(weapon, r, indirect=situation.indirect):
        minimum = least_range(weapon, indirect=situation.indirect)
        raise CannotFire(
            f'{weapon.name} cannot fire at targets closer than {minimum}" (the target is at {r:g}").'
        )


def fires_on_the_move(weapon: Weapon, *, mounted: bool) -> bool:
    """Whether ``weapon`` may fire on an Advance: a Fixed weapon is a team's, which must
    set up to fire; the same weapon mounted on a vehicle fires on the move (at -1)."""
    return mounted or "Fixed" not in weapon.special


# The orders whose die lets a unit shoot in its turn (sheet 002, ORDERS: Fire "fire at full
# effect without moving", Advance "move and then fire", Ambush "wait for opportunity
# fire"); a Run is "double speed no firing", a Rally and a Down "no move/fire". The game
# takes a shot's target only with these (an Ambush's when it springs), the play aid asks a
# shot's odds only of a firer whose die shows one (or that has no die yet).
FIRING_ORDERS = frozenset({"Fire", "Advance", "Ambush"})


def range_bands(rules: Rules, weapon: Weapon, range_inches: float) -> tuple[bool, bool]:
    """(point blank, long range): all :func:`plan_shot` reads of a range that
    :func:`check_range` allows."""
    proc = rules.data.procedure
    return (
        range_inches <= proc.point_blank_inches,
        range_inches > weapon.range * proc.long_range_fraction,
    )


def plan_shot(
    rules: Rules, weapon: Weapon, target: Target, s: Situation
) -> tuple[Shot, list[Reason]]:
    """Work out what one shot needs, with the reasons, as a player reads the playsheet:
    whether and how the weapon fires, the to-hit roll, what a hit does (a flamethrower's
    hits and pins), then the damage at troops or at a vehicle."""
    f = firing(rules, weapon, s)
    hit_on, fixed, mods, to_hit_reason = plan_to_hit(rules, weapon, target, s, f)
    reasons = [to_hit_reason]
    shot = Shot(
        weapon=weapon.name,
        hit_on=hit_on,
        indirect=f.indirect,
        hit_modifiers=tuple((m.key, m.value) for m in mods),
        hit_fixed=fixed,
    )
    if f.flame:
        shot = flamethrower_hits(rules, weapon, shot, reasons)
    d = rules.data
    he = rules.he_row(weapon.he) if d.he.rows and weapon.he else None
    if not target.is_vehicle:
        return damage_to_troops(rules, weapon, target, s, shot, he, reasons), reasons
    return damage_to_vehicle(rules, weapon, target, s, f, shot, he, reasons), reasons


def firing(rules: Rules, weapon: Weapon, s: Situation) -> Firing:
    """Whether ``weapon`` may fire at all (its range; a Fixed weapon not on the move),
    refused with :class:`CannotFire`, and how it fires: :class:`Firing`."""
    special = frozenset(weapon.special)
    check_range(rules, weapon, s)
    point_blank, long_range = range_bands(rules, weapon, s.range_inches)
    if s.moving and not fires_on_the_move(weapon, mounted=s.mounted):
        why = f"{weapon.name} is a Fixed weapon and cannot fire on the move"
        raise CannotFire(
            f"{why} (drop {named('situation.moving', True)}, or add "
            f"{named('situation.mounted', True)} if a vehicle fires it).",
            why,
        )
    indirect = "Indirect Fire" in special or (s.indirect and weapon.indirect_min_range is not None)
    return Firing(special, "Flamethrower" in special, indirect, point_blank, long_range)


def flamethrower_hits(rules: Rules, weapon: Weapon, shot: Shot, reasons: list[Reason]) -> Shot:
    """A flamethrower's hit, at troops or a vehicle: one roll to hit, then the weapon's
    multiplier of hits, the flamethrower's pins and its morale check (reasons added)."""
    d = rules.data
    shot = replace(
        shot,
        hits_per_hit=DiceExpr(weapon.shots),
        special_pins=DiceExpr(d.flamethrower.pins),
        morale_check=d.flamethrower.morale_check,
    )
    reasons.append(
        Reason(
            "hits",
            f"{weapon.shots} per hit",
            "flamethrower: one roll to hit, then the multiplier"
            + d.cited(f"weapons.rows[{weapon.name}].shots"),
        )
    )
    reasons.append(
        Reason(
            "pins",
            d.flamethrower.pins,
            "flamethrower; then the target takes a morale check"
            + d.cited("flamethrower.pins", "flamethrower.morale_check"),
        )
    )
    return shot
