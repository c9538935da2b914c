"""The odds of one unit's shooting: its weapons as groups of shots with a reason each, the chance
of a hit, and at troops the hits, casualties, pins and a flamethrower's morale check, or at a
vehicle the damage and its results. Apart because it is the longest question and the others
borrow only its weapon groups (a vehicle's fire at its assaulters and defenders standing to fire
are shootings too)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache, partial
from pathlib import Path

from kriegsspiel.core import arguments
from kriegsspiel.core.dice import Dist
from kriegsspiel.core.per_cent import chance_shown
from kriegsspiel.core.procedure import exact
from kriegsspiel.core.report import OddsReport, Reason
from kriegsspiel.errors import ParameterError, UsageError, named
from kriegsspiel.rulesets.bolt_action.attack import (
    exact_troops,
    exact_vehicle,
    hits_distribution,
    pen_levels,
    troops_context,
)
from kriegsspiel.rulesets.bolt_action.data import Weapon
from kriegsspiel.rulesets.bolt_action.edition import Rules, Target, house_text, rules_for
from kriegsspiel.rulesets.bolt_action.kit import counterparts
from kriegsspiel.rulesets.bolt_action.morale import destroyed_by_pins, new_test
from kriegsspiel.rulesets.bolt_action.odds.checks import (
    FACINGS,
    check_automaton,
    check_counts,
    check_most_hits,
    check_names,
    check_not_removed,
    house_rules,
    one_of,
    parse_cover,
    parse_weapons,
)
from kriegsspiel.rulesets.bolt_action.odds.order_and_morale import check_parts, pins_reach_morale
from kriegsspiel.rulesets.bolt_action.odds.vehicle_damage import (
    IMMOBILISED_BEFORE,
    automaton_reasons,
    crew_reasons,
    newly_immobilised,
)
from kriegsspiel.rulesets.bolt_action.shooting import (
    CannotFire,
    can_fire_indirectly,
    plan_shot,
    shots_per_model,
)
from kriegsspiel.rulesets.bolt_action.shot import (
    SMALL_UNIT_MODELS,
    Group,
    Situation,
    down_to_a_shot,
)
from kriegsspiel.rulesets.bolt_action.shot_rolls import roll_to_hit
from kriegsspiel.rulesets.bolt_action.to_hit import describe_needs
from kriegsspiel.rulesets.bolt_action.troop_damage import infantry_quality
from kriegsspiel.rulesets.bolt_action.vehicle_damage import LEVELS, VehicleState


def _group(
    rules: Rules, weapon: Weapon, count: int, target: Target, s: Situation
) -> tuple[Group, list[Reason]]:
    """``count`` models' shots with ``weapon`` at ``target`` as one group, and its reasons."""
    shot, reasons = plan_shot(rules, weapon, target, s)
    return Group(shot, count * shots_per_model(weapon)), reasons


def weapon_groups(
    rules: Rules,
    weapons: Sequence[str],
    tgt: Target,
    situation: Situation,
    *,
    parameter: str = "weapons",
    indent: str = "",
) -> tuple[list[Group], list[Reason], list[CannotFire]]:
    """A unit's weapons as groups of shots at the target, with a reason for each, and the
    weapons that cannot fire (as on the table, the rest of the unit still fires); a refusal
    names the weapons as ``parameter``."""
    groups: list[Group] = []
    reasons: list[Reason] = []
    idle: list[CannotFire] = []
    for weapon, count in parse_weapons(rules, weapons, parameter):
        label = indent + (f"{count} x {weapon.name}" if count > 1 else weapon.name)
        # --indirect is for the weapons that can lob a shell: the others fire straight
        direct = situation.indirect and not can_fire_indirectly(weapon)
        own = replace(situation, indirect=False, ranged_in=False) if direct else situation
        try:
            group, why = _group(rules, weapon, count, tgt, own)
        except CannotFire as exc:
            idle.append(exc)
            reasons.append(Reason(label, "does not fire", exc.why))
            continue
        groups.append(group)
        row = f"weapons.rows[{weapon.name}]"
        reasons.append(
            Reason(
                label,
                f"{group.shots} shot{'s' if group.shots != 1 else ''}",
                f'range {situation.range_inches:g}" of {weapon.range}"'
                # (the file's only where it changed the range or the shots, not the row)
                + rules.data.cited(f"{row}.range", f"{row}.shots"),
            )
        )
        reasons.extend(replace(r, topic=f"{indent}  {r.topic}") for r in why)
    return groups, reasons, idle


def _refuse_vehicle_options(tgt: Target, situation: Situation) -> None:
    """Refuse the options that describe a target vehicle at a troops target, naming those
    given (and only those)."""
    given = []
    if situation.facing != "front":
        given.append(named("situation.facing", situation.facing, shown=situation.facing))
    given += [
        named(f"situation.{flag}", True)
        for flag in ("open_topped", "automaton", "target_immobilised")
        if getattr(situation, flag)
    ]
    if not given:
        return
    listed = given[0] if len(given) == 1 else f"{', '.join(given[:-1])} and {given[-1]}"
    verb = "describes a vehicle" if len(given) == 1 else "describe vehicles"
    raise ParameterError(f"{listed} {verb}; {tgt.name} is not one.")


def shoot_odds(
    ruleset: str,
    *,
    weapons: Sequence[str],
    target: str,
    situation: Situation,
    rules_file: str | Path | None = None,
    rules_text: str | None = None,
) -> OddsReport:
    """Odds of one unit's shooting: hits, casualties and pins, or damage to a vehicle.

    Answers are cached by question, so asking again (a play aid redrawing) is instant.
    """
    if isinstance(weapons, str):  # (a string is a sequence too: of one-letter weapons)
        raise UsageError(f"weapons is a list of weapon names, e.g. [{weapons!r}], not a string.")
    arguments.text("ruleset", ruleset)
    arguments.names("weapons", weapons)
    arguments.text("target", target)
    arguments.fields("situation", situation, Situation)
    parse_cover(situation.cover, "situation.cover")
    if situation.facing not in FACINGS:
        raise ParameterError(
            f"{named('situation.facing')} is {', '.join(FACINGS[:-1])} or "
            f"{FACINGS[-1]} (not {situation.facing!r})."
        )
    # keyed by the rules file's text as it is now: an edited file is a new question
    rules_file, rules_text = house_rules(rules_file, rules_text)
    text = house_text(rules_file, rules_text)
    return _shoot_odds(ruleset, tuple(weapons), target, situation, rules_file, text)


def _down_halving_said(
    groups: Sequence[Group], hits: Dist[int], probabilities: dict[str, Fraction]
) -> tuple[dict[str, str], dict[str, str]]:
    """Where a Down target halves a shell's hits, the two chances of a hit told apart: a
    shot landing (its to-hit roll, ``p_hit``) and at least one hit left after the halving
    (``p_hit_after_down``, added to ``probabilities``), with the words for each and a note
    under the hits table (docs/rules "HE at a Down target")."""
    if not any(g.shot.halve_hits for g in groups):
        return {}, {}
    probabilities["p_hit_after_down"] = 1 - hits.probability(0)
    labels = {
        "p_hit": "at least one shot lands (its to-hit roll)",
        "p_hit_after_down": "at least one hit after the Down halving",
    }
    chances = (
        "a shot lands on its to-hit roll; the Down target then halves each shell's hits "
        "(rounding down), so a shell that lands may leave none (it still pins the unit)"
    )
    hits_said = "the hits left after the Down halving (a shell that lands may leave none)"
    return labels, {"chances": chances, "hits": hits_said}


@lru_cache(maxsize=1024)
def _shoot_odds(
    ruleset: str,
    weapons: tuple[str, ...],
    target: str,
    situation: Situation,
    rules_file: str | None,
    rules_text: str | None = None,
) -> OddsReport:
    """The odds of :func:`shoot_odds`, worked out once per question: the question checked,
    the weapons grouped, the chance of a hit, then the shooting at troops or at a vehicle."""
    rules = rules_for(ruleset, rules_file, rules_text)
    tgt = _shooting_target(rules, target, situation)
    _check_firers_and_fire(rules, weapons, tgt, situation)
    groups, reasons = _firing_groups(rules, weapons, tgt, situation)
    probabilities, details = _hit_chances(rules, tgt, groups)
    if not tgt.is_vehicle:
        return _at_troops(ruleset, rules, tgt, situation, groups, reasons, probabilities, details)
    return _at_vehicle(ruleset, rules, tgt, situation, groups, reasons, probabilities, details)


def _shooting_target(rules: Rules, target: str, situation: Situation) -> Target:
    """The target named, checked with what the situation says of it: its models and pins,
    an automaton, a crew's quality and officer, and a vehicle's options only at a vehicle."""
    check_counts(
        **{
            "situation.firer_pins": situation.firer_pins,
            "situation.target_pins": situation.target_pins,
            "situation.target_models": situation.target_models,
        }
    )
    models = named("situation.target_models")
    if situation.target_models == 0:
        raise ParameterError(f"{models} must be 1 or more.")
    if not target.strip():
        raise ParameterError(
            f"{named('target')} needs a name from the damage value table, e.g. 'regular infantry'."
        )
    check_names(rules, target=("target", target))
    tgt = rules.target(target)
    check_automaton(rules, situation.automaton, "situation.automaton")
    if not tgt.is_vehicle and situation.target_quality != "regular":
        infantry = f"{situation.target_quality} infantry"
        raise ParameterError(
            f"{named('situation.target_quality')} is a vehicle crew's; an infantry target's "
            f"quality is in its name (e.g. {named('target', infantry)})."
        )
    check_names(rules, officer=("situation.target_officer", situation.target_officer))
    if tgt.is_vehicle and situation.target_models is not None:
        raise ParameterError(f"{models} caps casualties among troops; a vehicle has none.")
    if not tgt.is_vehicle:
        _refuse_vehicle_options(tgt, situation)
    return tgt


def _check_firers_and_fire(
    rules: Rules, weapons: tuple[str, ...], tgt: Target, situation: Situation
) -> None:
    """Refuse a shooting the table would not see: firers already removed by their pins, a
    Down or small vehicle, a small unit too large, ranged-in, indirect or lone-crew fire by
    weapons that cannot have it, and a target already removed by its pins."""
    # the firers' quality is not asked (but Inexperienced): the most pins any unit can hold
    firers = "inexperienced" if situation.firer_inexperienced else "veteran"
    most = new_test(rules, firers).base
    if destroyed_by_pins(rules, firers, situation.firer_pins):
        raise ParameterError(
            f"{named('situation.firer_pins', situation.firer_pins)}: a unit with as many pins "
            f"as its morale value ({most} at most, {firers} troops) is removed from play and "
            f"does not shoot; give {named('situation.firer_pins', most - 1)} or fewer."
        )
    if situation.target_down and not down_to_a_shot(True, vehicle=tgt.is_vehicle):
        raise ParameterError(
            f"{named('situation.target_down', True)} applies to infantry and artillery, not "
            "vehicles."
        )
    small = named("situation.small_unit", True)
    if tgt.is_vehicle and situation.small_unit:
        raise ParameterError(
            f"{small} applies to infantry and artillery (a unit of two models or fewer); "
            "no vehicle counts as small."
        )
    left = situation.target_models
    if situation.small_unit and left is not None and left > SMALL_UNIT_MODELS:
        raise ParameterError(
            f"{small} with {named('situation.target_models', left)}: a small unit is one of "
            f"{SMALL_UNIT_MODELS} models or fewer at the start of the game, and this one "
            f"still has {left}; drop {small} (or give "
            f"{named('situation.target_models', SMALL_UNIT_MODELS)} or fewer)."
        )
    if (
        situation.ranged_in
        and not situation.indirect
        and not any("Indirect Fire" in w.special for w, _ in parse_weapons(rules, weapons))
    ):
        raise ParameterError(
            f"{named('situation.ranged_in', True)} only applies to indirect fire (mortars, or "
            f"howitzers with {named('situation.indirect', True)})."
        )
    if situation.indirect and not any(
        can_fire_indirectly(w) for w, _ in parse_weapons(rules, weapons)
    ):
        raise ParameterError(
            f"{named('situation.indirect', True)}: none of these weapons can fire indirectly "
            "(only mortars, rifle grenades and howitzers can)."
        )
    if situation.one_crew and not all(
        "Team" in w.special for w, _ in parse_weapons(rules, weapons)
    ):
        raise ParameterError(
            f"{named('situation.one_crew', True)}: a lone crew is a team weapon's (a mortar, "
            "an MMG, a gun); give only team weapons with it, or leave it out."
        )
    target_quality = situation.target_quality if tgt.is_vehicle else infantry_quality(rules, tgt)
    check_not_removed(
        rules,
        target_quality,
        situation.target_pins,
        "situation.target_pins",
        crew=tgt.is_vehicle,
        fate="cannot be shot at",
    )


def _firing_groups(
    rules: Rules, weapons: tuple[str, ...], tgt: Target, situation: Situation
) -> tuple[list[Group], list[Reason]]:
    """The unit's weapons as groups of shots with their reasons (refused if none can fire,
    or a man's weapon is said mounted on a vehicle, or the shooting is too large to count)."""
    groups, reasons, idle = weapon_groups(rules, weapons, tgt, situation)
    if not groups:
        raise idle[0]  # no weapon of the unit can fire: say why the first cannot
    fixed = any("Fixed" in w.special for w, _ in parse_weapons(rules, weapons))
    if situation.mounted:  # (as an army list refuses it on a vehicle)
        for w, _ in parse_weapons(rules, weapons):
            if w.fielded == "not on vehicles":
                raise ParameterError(
                    f"{one_of('weapons', w.name)} with {named('situation.mounted', True)}: "
                    f"the {w.name} is carried by a "
                    "man (the weapons chart gives it for infantry), not mounted on a vehicle"
                    f"{counterparts(rules, w, on_vehicle=True)}."
                )
    if situation.mounted and not (situation.moving and fixed):
        reasons.append(
            Reason("firer vehicle", "no effect", "it matters only to Fixed weapons moving")
        )
    check_most_hits(groups, tgt.is_vehicle, "weapons")
    return groups, reasons


def _hit_chances(
    rules: Rules, tgt: Target, groups: Sequence[Group]
) -> tuple[dict[str, Fraction], dict[str, object]]:
    """The chance of at least one hit among all the shots, and each weapon's chance and
    score to hit with one shot."""
    p_hits = {
        g.shot.weapon: exact(partial(roll_to_hit, hit_on=g.shot.hit_on)).probability(True)
        for g in groups
    }
    missed_all = Fraction(1)
    for g in groups:
        missed_all *= (1 - p_hits[g.shot.weapon]) ** g.shots
    # at least one hit among all the shots, as Iron Cross and House Clearing give it (each
    # weapon's chance for one shot is p_hit_by_weapon)
    probabilities: dict[str, Fraction] = {"p_hit": 1 - missed_all}
    details: dict[str, object] = {
        "target": tgt.name,
        "p_hit_by_weapon": {w: float(p) for w, p in p_hits.items()},
        "to_hit_by_weapon": {g.shot.weapon: describe_needs(rules, g.shot.hit_on) for g in groups},
    }
    return probabilities, details


def _at_troops(
    ruleset: str,
    rules: Rules,
    tgt: Target,
    situation: Situation,
    groups: Sequence[Group],
    reasons: list[Reason],
    probabilities: dict[str, Fraction],
    details: dict[str, object],
) -> OddsReport:
    """A shooting at troops: hits, casualties and pins, removal by pins, and a
    flamethrower's morale check (the only test an officer's bonus helps in a shooting)."""
    quality = infantry_quality(rules, tgt)
    officer = situation.target_officer
    ctx = troops_context(
        rules,
        groups,
        quality=quality,
        models=situation.target_models,
        pins=situation.target_pins,
        officer=officer,
    )
    troops = exact_troops(groups, ctx)
    removal = pins_reach_morale(rules, quality, situation.target_pins, troops.pins.probability)
    if removal is not None:
        probabilities["p_removed_by_pins"] = removal[0]
        reasons.append(removal[1])
    elif situation.target_pins and not any(g.shot.morale_check for g in groups):
        reasons.append(
            Reason(
                "target pins",
                "no effect",
                "the attack cannot bring them to the unit's morale value, and they "
                "matter otherwise only to a flamethrower's test",
            )
        )
    if any(g.shot.morale_check for g in groups):
        probabilities["p_destroyed_by_morale"] = troops.p_destroyed_by_morale
        reasons.append(
            Reason(
                "morale check",
                f"{chance_shown(troops.p_destroyed_by_morale)} destroyed",
                f"after the flamethrower's pins: {check_parts(quality, ctx.morale, officer)}",
            )
        )
    elif officer is not None:
        reasons.append(
            Reason(
                "target officer",
                "no effect",
                "no test for his bonus here: only a flamethrower's hit brings troops a "
                "morale check in a shooting (the check at half strength: "
                f"{named('morale_check_odds(officer=...)')})",
            )
        )
    labels, said = _down_halving_said(groups, troops.hits, probabilities)
    return OddsReport(
        ruleset=ruleset,
        question="shoot",
        reasons=tuple(reasons),
        probabilities=probabilities,
        distributions={
            "hits": troops.hits,
            "casualties": troops.casualties,
            "pins": troops.pins,
        },
        details=details,
        labels=labels,
        notes=said,
    )


def _at_vehicle(
    ruleset: str,
    rules: Rules,
    tgt: Target,
    situation: Situation,
    groups: Sequence[Group],
    reasons: list[Reason],
    probabilities: dict[str, Fraction],
    details: dict[str, object],
) -> OddsReport:
    """A shooting at a vehicle: each hit followed through its damage to the knock-out, the
    crew abandoning it to pins, how its crew tests, and its damage results."""
    final = exact_vehicle(groups)
    probabilities["p_knocked_out"] = final.probability(lambda v: v.knocked_out)
    abandoned = pins_reach_morale(
        rules,
        situation.target_quality,
        situation.target_pins,
        lambda reach: final.probability(lambda v: not v.knocked_out and reach(v.pins)),
    )
    if abandoned is not None:
        probabilities["p_removed_by_pins"] = abandoned[0]
        reasons.append(abandoned[1])
    reasons += _crew_said(rules, situation, groups, final)
    _damage_results(tgt, situation, groups, final, probabilities, details)
    notes: dict[str, str] = {}
    if sum(g.shots * max(1, g.shot.hits_per_hit.most) for g in groups) > 1:
        # (a knock-out may come before the last hit: the table counts them all)
        notes["hits"] = (
            "every hit the dice score, as rolled on the table; hits after a knock-out change "
            "nothing (the damage and pins count only those before it)."
        )
    return OddsReport(
        ruleset=ruleset,
        question="shoot",
        reasons=tuple(reasons),
        probabilities=probabilities,
        distributions={"hits": hits_distribution(groups), "pins": final.map(lambda v: v.pins)},
        details=details,
        notes=notes,
    )


def _crew_said(
    rules: Rules, situation: Situation, groups: Sequence[Group], final: Dist[VehicleState]
) -> list[Reason]:
    """The rows for a target vehicle's crew: already immobilised, an automaton, how the
    crew tests, and the knock-outs a flamethrower's check brings."""
    reasons: list[Reason] = []
    if situation.target_immobilised:
        reasons.append(IMMOBILISED_BEFORE)
    flamethrower = any(g.shot.morale_check for g in groups)
    crew = groups[0].shot.vehicle
    assert crew is not None
    reasons += automaton_reasons(
        rules,
        situation.automaton,
        stunned=not crew.soft_skinned
        and final.probability(lambda v: v.worst > 0 or v.crew_stunned) > 0,
    )
    reasons += crew_reasons(
        rules,
        crew,
        situation.target_quality,
        situation.target_officer,
        tested=final.probability(lambda v: v.on_fire) > 0 or flamethrower,
        flamethrower=flamethrower,
    )
    flamed = next((g.shot for g in groups if g.shot.morale_check), None)
    if flamed is not None:
        # (the crew's check after a hit that may also damage it: the share of the
        # knock-outs it brings, which the damage results rows do not show; the test
        # itself, its morale and modifiers, is told once: by the crew's tests row above)
        pins = flamed.special_pins.text if flamed.special_pins is not None else "1"
        reasons.append(
            Reason(
                "morale check",
                f"{chance_shown(final.probability(lambda v: v.check_knocked_out))} knocked out",
                "the crew's test (crew's tests, above) after a flamethrower's hit, with its "
                f"pins ({pins}) and its damage's taken first; failed, the crew abandon it",
            )
        )
    return reasons


def _damage_results(
    tgt: Target,
    situation: Situation,
    groups: Sequence[Group],
    final: Dist[VehicleState],
    probabilities: dict[str, Fraction],
    details: dict[str, object],
) -> None:
    """Add to ``probabilities`` and ``details`` the damage results (stunned, immobilised, on
    fire, knocked out), the worst damage and one hit's damage; a soft-skin shows only what
    can happen to it, as any damage destroys it."""
    effects = {
        "crew stunned": final.probability(lambda v: v.crew_stunned),
        "immobilised": newly_immobilised(final, situation.target_immobilised),
        "on fire": final.probability(lambda v: v.on_fire),
        "on fire and knocked out": final.probability(lambda v: v.fire_knocked_out),
        "knocked out": probabilities["p_knocked_out"],
    }
    soft = tgt.kind == "soft-skinned"
    if soft:  # any damage destroys a soft-skin: no results roll, no levels that matter
        effects = {k: p for k, p in effects.items() if p or k == "knocked out"}
    probabilities.update(
        {"p_" + k.replace(" ", "_"): p for k, p in effects.items() if k != "knocked out"}
    )
    if not soft or len(effects) > 1:  # (a soft-skin's lone row is the knock-out above)
        details["damage_results"] = {k: float(p) for k, p in effects.items()}
    if not soft:
        details["worst_damage"] = {
            level: float(final.probability(lambda v, i=i: v.worst == i))  # type: ignore[misc]
            for i, level in enumerate(LEVELS)
        }
    first = groups[0].shot
    if first.pen is not None and first.vehicle is not None:
        per_hit = pen_levels(first.vehicle, first.pen)
        if soft:
            details["damage_per_hit"] = {
                "none": float(per_hit.probability(0)),
                "destroyed": float(1 - per_hit.probability(0)),
            }
        else:
            details["damage_per_hit"] = {LEVELS[i]: float(per_hit.probability(i)) for i in range(4)}
