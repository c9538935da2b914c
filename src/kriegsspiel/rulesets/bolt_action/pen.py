"""A hit on a vehicle, planned: the pen it adds to its D6 (the weapon's, the armour it
strikes, long range, a Gravity Pulse), each a :class:`PenPart` named for the reasoning;
the vehicle's profile its hits are rolled on (its crew taking a nearby officer's bonus); and
``plan_shot``'s step for a hit on a vehicle (:func:`damage_to_vehicle`). The rolls
themselves are ``vehicle_damage.py``'s.
"""

from __future__ import annotations

from dataclasses import replace

from kriegsspiel.core.dice import DiceExpr
from kriegsspiel.core.report import Reason
from kriegsspiel.rulesets.bolt_action.data import HeRow, Weapon
from kriegsspiel.rulesets.bolt_action.edition import Rules, Target
from kriegsspiel.rulesets.bolt_action.morale import new_test
from kriegsspiel.rulesets.bolt_action.shot import Firing, Shot, Situation
from kriegsspiel.rulesets.bolt_action.vehicle_damage import (
    PenPart,
    VehicleProfile,
    can_reach_damage,
)


def facing_modifier(rules: Rules, target: Target, facing: str) -> int:
    """The pen modifier for hitting ``target`` in its ``facing`` (side, rear, top): the
    sheets give it against armoured vehicles only, and (the data's ``walkers`` flag) not
    against a walker, which has no weaker side."""
    if target.kind == "soft-skinned" or facing == "front":
        return 0
    row = next(r for r in rules.data.penetration_modifiers.rows if r.key == facing)
    return 0 if target.walker and not row.walkers else row.value


def facing_parts(
    rules: Rules, target: Target, facing: str, *, struck_by: str = "", asked: str = "front"
) -> list[PenPart | str]:
    """What the armour a shot strikes (``facing``) does to its pen at an armoured target:
    its modifier (a :class:`PenPart`), or, in words for the reasoning, that a walker has
    none; ``struck_by``
    names what strikes the top whatever the facing (indirect fire, a flamethrower), and
    ``asked`` is the facing the player gave. (A soft-skin has no facing modifier: the
    reasoning says so with the range, in :func:`plan_shot`.)"""
    if facing == "front" or target.kind == "soft-skinned":
        return []
    how = ""
    if struck_by:
        instead = f", not the {asked}" if asked not in ("front", facing) else ""
        how = f" ({struck_by} strikes it{instead})"
    bonus = facing_modifier(rules, target, facing)
    row = f"penetration_modifiers.rows[{facing}]"
    if bonus or not target.walker:
        return [PenPart(f"{facing} armour", bonus, how, rules.data.cited(row))]
    return [
        f"{facing} armour{how}: no {rules.pen_modifier(facing):+d} against a walker "
        f"({rules.data.cite('sheet', row)}: 'not walkers')"
    ]


def keeps_pen_at_long_range(weapon: Weapon, he: bool) -> str:
    """Why ``weapon`` loses no pen at long range ("shaped charge", "Tesla", "a
    flamethrower", "HE": its pen is the HE table's), or "" if it does."""
    special = set(weapon.special)
    for rule, said in (
        ("Shaped Charge", "shaped charge"),
        ("Tesla", "Tesla"),
        ("Flamethrower", "flamethrower"),
    ):
        if rule in special:
            return said
    return "HE" if he and weapon.pen is None else ""


def weapon_pen(rules: Rules, weapon: Weapon, target: Target, he: HeRow | None) -> PenPart | None:
    """The pen a hit of ``weapon`` adds to its D6 before the facing and range, named by
    where it comes from: its pen against vehicles, its pen, its HE shell's, or small arms'
    0 at a soft-skin; None for small arms at an armoured target, which they cannot damage."""
    d = rules.data
    weapon_row = f"weapons.rows[{weapon.name}]"  # (its pen field: the file's only if changed)
    if weapon.pen_vs_armour is not None:
        after = f" against vehicles{d.cited(f'{weapon_row}.pen_vs_armour')}"
        return PenPart(f"{weapon.name} pen", weapon.pen_vs_armour, after=after)
    if weapon.pen is not None:
        return PenPart("pen", weapon.pen, after=d.cited(f"{weapon_row}.pen"))
    if he:
        return PenPart(f"HE ({he.he}) pen", he.pen, after=d.cited(f"he.rows[{he.he}]"))
    if target.kind == "soft-skinned":
        return PenPart("small arms", 0, numbered=False)
    return None


def small_arms_at_armour(s: Situation) -> list[Reason]:
    """The reasons of small arms at an armoured vehicle: no damage, and a pin only if it
    is open-topped."""
    return [
        Reason("to damage", "impossible", "small arms cannot damage armoured targets"),
        Reason(
            "pins",
            "1 if hit",
            "open-topped: small arms pin it (one pin for the attack), though they cannot damage it",
        )
        if s.open_topped
        else Reason("pins", "none", "small arms pin an armoured vehicle only if it is open-topped"),
    ]


def pen_modifiers(
    rules: Rules, weapon: Weapon, target: Target, s: Situation, f: Firing, he: bool
) -> list[PenPart | str]:
    """What the facing struck, long range and a Gravity Pulse add to a hit's pen roll on a
    vehicle, each a :class:`PenPart`, in the reasoning's order with what it says of those
    that add nothing ("long range: no effect on pen (HE)"; ``he``: the weapon fires an HE
    shell)."""
    d = rules.data
    parts: list[PenPart | str] = []
    # the sheets give the facing and long-range modifiers to heavy weapons against
    # armoured targets only: a soft-skin is damaged on 6+ from any side, at any range
    armoured = target.kind != "soft-skinned"
    # indirect fire, and a flamethrower (the data says where), strike the top armour
    facing = d.flamethrower.vehicle_facing if f.flame else ("top" if f.indirect else s.facing)
    struck_by = "a flamethrower" if f.flame else ("indirect fire" if f.indirect else "")
    parts += facing_parts(rules, target, facing, struck_by=struck_by, asked=s.facing)
    keeps = keeps_pen_at_long_range(weapon, he)
    far = f.far
    if not armoured:
        unused = [s.facing] * (s.facing != "front") + [rules.hit_short("long_range")] * far
        if unused:
            parts.append(f"{' and '.join(unused)}: no effect on a soft-skin")
    elif keeps or f.indirect:
        if far:
            parts.append(
                f"{rules.hit_short('long_range')}: no effect on pen ({keeps or 'indirect fire'})"
            )
    elif far:
        cited = d.cited("penetration_modifiers.rows[long_range]")
        parts.append(
            PenPart(rules.hit_short("long_range"), rules.pen_modifier("long_range"), after=cited)
        )
    if "Gravity Pulse" in f.special and d.gravity_pulse is not None:
        bonus = max(
            (
                b
                for dv, b in d.gravity_pulse.pen_bonus_by_damage_value.items()
                if dv <= target.damage_value
            ),
            default=0,
        )
        if bonus:
            against = f" against damage value {target.damage_value}{d.cited('gravity_pulse')}"
            parts.append(PenPart("gravity pulse", bonus, after=against))
    return parts


def damage_reasons(rules: Rules, target: Target, vehicle: VehicleProfile) -> list[Reason]:
    """The reasons of the damage a pen roll on ``vehicle`` can do: a soft-skin destroyed;
    armour's superficial / full / massive totals and the results rolls for each; an
    open-topped vehicle's bonus on the results table against indirect fire."""
    d = rules.data
    reasons: list[Reason] = []
    if vehicle.soft_skinned:
        reasons.append(
            Reason(
                "damage",
                "destroyed",
                "a damaged soft-skin is destroyed, superficial, full or massive alike "
                "(no damage results roll)",
            )
        )
    else:
        lo, full, massive = vehicle.thresholds
        reasons.append(
            Reason(
                "damage",
                "superficial / full / massive",
                f"total {target.damage_value + lo} superficial, {target.damage_value + full}+ full, "
                f"{target.damage_value + massive}+ massive"
                + d.cited("damage_thresholds", f"damage_values.rows[{target.name}]")
                + f"; the damage results roll {vehicle.superficial}"
                + d.cited("damage_results.superficial")
                + f" for superficial, {vehicle.full}"
                + d.cited("damage_results.full")
                + f" for full, {vehicle.massive_results} x {vehicle.full}"
                + d.cited("damage_results.massive_results", "damage_results.full")
                + " for massive",
            )
        )
    if vehicle.result_bonus:
        reasons.append(
            Reason(
                "damage results",
                f"{vehicle.result_bonus:+d}",
                "open-topped hit by indirect fire"
                + d.cited("damage_results.open_topped_indirect_bonus"),
            )
        )
    return reasons


def vehicle_profile(
    rules: Rules, target: Target, situation: Situation, *, indirect: bool
) -> VehicleProfile:
    """The profile a hit on vehicle ``target`` is rolled on: its damage value, the damage
    thresholds and results table, its crew's morale test (quality, pins and any officer in
    range), an open-topped vehicle's bonus against indirect fire, an automaton's
    stunned-crew rule, and whether it is already immobilised."""
    d = rules.data
    crew = new_test(rules, situation.target_quality, pins=situation.target_pins)
    bonus = (
        d.damage_results.open_topped_indirect_bonus if (situation.open_topped and indirect) else 0
    )
    profile = VehicleProfile(
        soft_skinned=target.kind == "soft-skinned",
        damage_value=target.damage_value,
        thresholds=(
            d.damage_thresholds.superficial,
            d.damage_thresholds.full,
            d.damage_thresholds.massive,
        ),
        superficial=DiceExpr(d.damage_results.superficial),
        full=DiceExpr(d.damage_results.full),
        massive_results=d.damage_results.massive_results,
        result_bonus=bonus,
        results=tuple((r.low, r.high, r.effect, r.pins) for r in d.damage_results.rows),
        crew_morale=crew,
        automaton_ignores_stunned_on=(
            d.damage_results.automaton_ignores_stunned_on if situation.automaton else None
        ),
        immobilised=situation.target_immobilised,
    )
    return crew_with_officer(rules, profile, situation.target_officer)


def crew_with_officer(rules: Rules, vehicle: VehicleProfile, officer: str | None) -> VehicleProfile:
    """The vehicle with its crew's tests (On fire, a flamethrower's check) taking the bonus
    of ``officer``, the best officer of its side in range, as its order tests do: the one
    place this rule is applied, for the game and the odds alike."""
    if officer is None:
        return vehicle
    crew = replace(vehicle.crew_morale, officer_bonus=rules.officer_bonus(officer))
    return replace(vehicle, crew_morale=crew)


def damage_to_vehicle(
    rules: Rules,
    weapon: Weapon,
    target: Target,
    s: Situation,
    f: Firing,
    shot: Shot,
    he: HeRow | None,
    reasons: list[Reason],
) -> Shot:
    """What a hit does to a vehicle (reasons added): a Shockwave's result; else the pen
    roll (:func:`weapon_pen` and :func:`pen_modifiers`) against the damage value, the
    damage it can do, and whether a hit that cannot damage it pins it."""
    d = rules.data
    vehicle = vehicle_profile(rules, target, s, indirect=f.indirect)
    shot = replace(shot, vehicle=vehicle)
    if "Shockwave" in f.special and d.shockwave is not None:
        said = "Shockwave on a vehicle: no damage roll" + d.cited("shockwave")
        reasons.append(Reason("effect", d.shockwave.vehicle_result, said))
        return replace(
            shot, auto_effect=d.shockwave.vehicle_result, special_pins=DiceExpr(d.shockwave.pins)
        )
    from_weapon = weapon_pen(rules, weapon, target, he)
    if from_weapon is None:  # small arms at armour
        reasons += small_arms_at_armour(s)
        return replace(shot, pins_target=s.open_topped)
    if he and weapon.pen_vs_armour is None and weapon.pen is None:  # (its pen is the shell's)
        # an HE shell pins a vehicle as it pins troops, by the HE table (sheets 000, 001,
        # 002: "more pins on the target"), in place of the one pin of being hit
        shot = replace(shot, special_pins=DiceExpr(he.pins))
    if he and weapon.pen is None and target.kind == "soft-skinned":
        shot = replace(shot, hits_per_hit=DiceExpr(he.he))
        reasons.append(
            Reason(
                "hits",
                f"{he.he} per hit",
                f"HE ({he.he}) at a soft-skin, each hit its own damage roll (sheet: only "
                "an armoured vehicle is 'not rolled for multiple hits')",
            )
        )
    told = [from_weapon, *pen_modifiers(rules, weapon, target, s, f, bool(he))]
    parts = tuple((p.name, p.value) for p in told if isinstance(p, PenPart))
    pen = sum(value for _, value in parts)
    shot = replace(shot, pen=pen, pen_parts=parts)
    reasons.append(
        Reason(
            "to damage",
            f"D6 {pen:+d} against {target.damage_value}+",
            ", ".join(p if isinstance(p, str) else p.said() for p in told),
        )
    )
    reasons += damage_reasons(rules, target, vehicle)
    if not f.flame and not s.open_topped and not can_reach_damage(vehicle, pen):
        # (a flamethrower's pins and test are its own rule, whatever its pen)
        reasons.append(
            Reason(
                "pins",
                "none",
                f"even a 6 {pen:+d} falls short of {target.damage_value}: "
                "a hit that cannot damage a closed vehicle does not pin it",
            )
        )
        return replace(shot, pins_target=False)
    if he and shot.special_pins is not None and not f.flame and he.pins != "1":
        said = f"HE ({he.he}): the HE table's, not one{d.cited(f'he.rows[{he.he}]')}"
        reasons.append(Reason("pins", he.pins, said))
    return shot
