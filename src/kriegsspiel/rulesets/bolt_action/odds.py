"""Exact odds for the Bolt Action family, as :class:`OddsReport` objects with their reasons."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache, partial
from pathlib import Path
from typing import get_args

from kriegsspiel.core import arguments
from kriegsspiel.core.dice import DiceExpr, Dist
from kriegsspiel.core.per_cent import chance_shown
from kriegsspiel.core.procedure import exact
from kriegsspiel.core.report import OddsReport, Reason
from kriegsspiel.errors import ParameterError, UnknownNameError, UsageError, named
from kriegsspiel.rulesets.bolt_action.attack import (
    exact_troops,
    exact_vehicle,
    hits_distribution,
    pen_levels,
    troops_context,
    troops_left,
)
from kriegsspiel.rulesets.bolt_action.data import Weapon
from kriegsspiel.rulesets.bolt_action.edition import (
    Rules,
    Target,
    house_text,
    rules_file_path,
    rules_for,
)
from kriegsspiel.rulesets.bolt_action.kit import counterparts
from kriegsspiel.rulesets.bolt_action.morale import (
    MoraleTest,
    destroyed_by_pins,
    morale_check,
    new_test,
    order_test,
    order_test_needed,
)
from kriegsspiel.rulesets.bolt_action.shooting import (
    SMALL_UNIT_MODELS,
    CannotFire,
    Cover,
    Facing,
    Group,
    Situation,
    can_fire_indirectly,
    describe_needs,
    infantry_quality,
    infantry_target,
    plan_shot,
    shots_per_model,
    to_hit_because,
)
from kriegsspiel.rulesets.bolt_action.shot_rolls import roll_to_hit
from kriegsspiel.rulesets.bolt_action.vehicle_damage import LEVELS, VehicleProfile, VehicleState


def _morale_reason(
    rules: Rules, test: MoraleTest, quality: str, officer: str | None, extra: str = ""
) -> Reason:
    d = rules.data
    parts = _morale_parts(rules, test, quality, officer)
    if test.modifier:
        cited = d.cited("vehicle_assault.order_test_modifier_without_at") if extra else ""
        parts.append(f"{extra or 'modifier'} {test.modifier:+d}{cited}")
    passing = test.double_pass // 2
    needs = (  # (at or below the lowest roll only the double that always passes passes)
        f"only a double {passing} passes"
        if test.value <= test.double_pass
        else f"{test.value} or less on 2D6"
    )
    return Reason(
        "needs",
        needs,
        ", ".join(parts)
        + f"; double {passing} always passes, double {test.double_fail // 2} always fails"
        + d.cited("procedure.always_passes_on", "procedure.fubar_on"),
    )


def _morale_parts(rules: Rules, test: MoraleTest, quality: str, officer: str | None) -> list[str]:
    """What made a unit's morale value: its quality's, an officer's bonus and its pins."""
    d = rules.data
    parts = [f"{quality} morale {test.base}{d.cited(f'quality.rows[{quality.lower()}]')}"]
    if test.officer_bonus:
        parts.append(f"{officer} {test.officer_bonus:+d}{_officer_cited(rules, officer)}")
    if test.pins:
        parts.append(f"{test.pins} pin{'s' if test.pins != 1 else ''} {-test.pins:+d}")
    return parts


def _officer_cited(rules: Rules, officer: str | None) -> str:
    """ " (rules file k47.yaml)" when a rules file changed ``officer``'s bonus; else ""."""
    return (
        ""
        if officer is None
        else rules.data.cited(f"officers.rows[{rules.officer_rank(officer)}].morale_bonus")
    )


def _faces(rolls: Sequence[int]) -> str:
    """A table row's D6 faces as the sheet prints them: 1-2, or 6."""
    return f"{min(rolls)}-{max(rolls)}" if min(rolls) != max(rolls) else f"{rolls[0]}"


def _check_parts(quality: str, test: MoraleTest, officer: str | None) -> str:
    """A forced check's morale before the attack's own pins: the quality's value, an
    officer's bonus and the pins already there (said only when there are some)."""
    parts = [f"{quality} morale {test.base}"]
    if officer and test.officer_bonus:
        parts.append(f"{officer} {test.officer_bonus:+d}")  # (see :func:`_morale_reason`)
    if test.pins:
        parts.append(f"{test.pins} pin{'s' * (test.pins != 1)} already there {-test.pins:+d}")
    return ", ".join(parts)


# The largest questions the exact odds take. These are limits of the tool, not rules: the
# time grows steeply with the hits a shooting could score (measured: rifles 1,000 shots
# 0.7 s, 3,000 17 s; heavy howitzers, up to 18 hits a shot, 100 shots 2.5 s, 200 18 s; at
# a medium tank, a heavy AT gun's 50 shots 5 s and 100 35 s; at a light tank, one vehicle
# flamethrower (2D6 hits, each with its crew's test) 0.3 s, two 9.5 s, three 19 s, and
# infantry flamethrowers (D6) three 1.6 s, four 2.2 s; close quarters, 20 a side 3.8 s at
# worst (point-blank fire, or assault weapons all round), 25 a side 15 s, 30 a side 70 s;
# after the defenders stand and fire, each number of pins it may leave is a fight of its
# own: 15 a side 3.9 s at worst, 20 a side 23 s; infantry assaulting a vehicle, 60 men 1.5 s,
# 200 men 5 s), while a unit on the table shoots a few dozen dice and fights with a dozen
# or two men.
MAX_HITS = 600  # the most hits a shooting at troops could score (shots x most hits a shot)
MAX_HITS_AT_VEHICLE = 60  # the same at a vehicle: each hit is followed through its damage
TESTED_HIT_WEIGHT = 3  # at a vehicle, a hit that brings its crew a morale test counts thrice
MAX_FIGHTERS = 20
MAX_FIGHTERS_AFTER_FIRE = 15
MAX_ASSAULTERS_OF_A_VEHICLE = 60


_AT_LEAST_ONE = frozenset({"models", "attackers", "defenders", "target_models", "start_models"})


def _check_unit(ruleset: object, quality: object, pins: object, officer: object) -> None:
    """The types of an order test's or a morale check's arguments (:mod:`.arguments`)."""
    arguments.text("ruleset", ruleset)
    arguments.text("quality", quality)
    arguments.whole("pins", pins)
    arguments.optional_text("officer", officer)


def _check_counts(**counts: int | None) -> None:
    """Refuse a count below 0, each named as its parameter ("situation.firer_pins")."""
    for name, value in counts.items():
        if value is not None and value < 0:
            least = 1 if name.rsplit(".", 1)[-1] in _AT_LEAST_ONE else 0
            raise ParameterError(
                f"{named(name)} cannot be negative (got {value}); give {least} or more."
            )


def _check_automaton(rules: Rules, automaton: bool, parameter: str = "automaton") -> None:
    """Only an edition whose damage table has an automaton rule knows automata."""
    if automaton and rules.data.damage_results.automaton_ignores_stunned_on is None:
        raise ParameterError(
            f"{named(parameter, True)} is a Konflikt '47 rule; {rules.data.title} has no automata."
        )


def _check_names(rules: Rules, **given: tuple[str, str | None]) -> None:
    """Refuse a quality, an officer's rank or a target the rules data does not know, naming the
    parameter it was given as: ``_check_names(rules, quality=("quality", "elite"))``."""
    look_up = {"quality": rules.morale, "officer": rules.officer_bonus, "target": rules.target}
    for kind, (parameter, value) in given.items():
        if value is None:
            continue
        try:
            look_up[kind.split("_")[0]](value)
        except UnknownNameError as exc:
            raise ParameterError(f"{named(parameter, value)}: {exc}") from None


def _check_not_removed(rules: Rules, quality: str, pins: int, parameter: str) -> None:
    """A unit whose pins reach its morale value is removed from play: it takes no test and
    fights no fight, so a question about it has no odds."""
    base = new_test(rules, quality).base
    if destroyed_by_pins(rules, quality, pins):
        raise ParameterError(
            f"{named(parameter, pins)}: a unit of {quality} troops with {pins} pins (its "
            f"morale value is {base}) is removed from play and takes no test; give "
            f"{named(parameter, base - 1)} or fewer."
        )


def _pins_reach_morale(
    rules: Rules, quality: str, before: int, chance: Callable[[Callable[[int], bool]], Fraction]
) -> tuple[Fraction, Reason] | None:
    """The chance that the pins an attack brings, with the ``before`` already there, reach
    the target's morale and remove it (as the game removes it, :func:`destroyed_by_pins`),
    and the reasoning row; None when they cannot. ``chance`` gives the chance of an event
    read from the attack's own pins (a vehicle's: not when it is knocked out anyway)."""
    base = new_test(rules, quality).base
    p = chance(lambda taken: destroyed_by_pins(rules, quality, before + taken))
    if p == 0:
        return None
    told = f"{before} pin{'s' * (before != 1)} already there" if before else "no pins before"
    return p, Reason(
        "target pins",
        f"{chance_shown(p)} removed",
        f"{told}; a unit whose pins reach its morale value ({base}, {quality}) is removed",
    )


def _house_rules(rules_file: object, rules_text: object) -> tuple[str | None, str | None]:
    """A Python caller's ``rules_file`` (a str or a pathlib.Path: its path as a str) and
    ``rules_text``, each refused by name if it is of the wrong type."""
    return (
        rules_file_path(rules_file),
        arguments.optional_text("rules_text", rules_text),
    )


def order_test_odds(
    ruleset: str,
    *,
    quality: str,
    pins: int = 0,
    officer: str | None = None,
    assault_vehicle_without_at: bool = False,
    rules_file: str | Path | None = None,
    rules_text: str | None = None,
) -> OddsReport:
    """Will the unit follow its order? Pass, fail (goes Down) or FUBAR, and what FUBAR does."""
    _check_unit(ruleset, quality, pins, officer)
    arguments.yes_no("assault_vehicle_without_at", assault_vehicle_without_at)
    rules_file, rules_text = _house_rules(rules_file, rules_text)
    rules = rules_for(ruleset, rules_file, rules_text)
    _check_counts(pins=pins)
    _check_names(rules, quality=("quality", quality), officer=("officer", officer))
    _check_not_removed(rules, quality, pins, "pins")
    modifier = (
        rules.data.vehicle_assault.order_test_modifier_without_at
        if assault_vehicle_without_at
        else 0
    )
    test = new_test(rules, quality, officer=officer, pins=pins, modifier=modifier)
    dist = exact(lambda d: order_test(d, rules, test))
    reasons = []
    if not order_test_needed(rules, test):
        reasons.append(Reason("order test", "not needed", "the unit has no pins"))
        if officer is not None:
            reasons.append(Reason("officer", "no effect", "no order test for his bonus"))
    else:
        reasons.append(
            _morale_reason(
                rules,
                test,
                quality,
                officer,
                "assaulting an enclosed armoured vehicle without AT weapons",
            )
        )
        chart = ", ".join(
            f"{min(row.rolls)}-{max(row.rolls)} {row.result}" for row in rules.data.fubar.rows
        )
        reasons.append(
            Reason("FUBAR", f"double {test.double_fail // 2}", chart + rules.data.cited("fubar"))
        )
        reasons.append(Reason("failed", "goes Down", "the order is not carried out"))
        reasons.append(Reason("Down order", "no test", "a unit ordered Down goes Down untested"))
    p_ff, p_panic = dist.probability("friendly fire"), dist.probability("panic")
    rolls = {row.result: row.rolls for row in rules.data.fubar.rows}
    return OddsReport(
        ruleset=ruleset,
        question="order-test",
        title="order test",
        reasons=tuple(reasons),
        # (friendly fire and panic are FUBAR's two results: told as its parts, not as
        # outcomes beside it)
        labels={
            "p_fubar": "FUBAR",
            **{
                f"p_{result.replace(' ', '_')}": f"  FUBAR {_faces(r)}: {result}"
                for result, r in rolls.items()
            },
        },
        probabilities={
            "p_pass": dist.probability(lambda o: o in ("pass", "no test")),
            "p_fail": dist.probability("fail"),
            "p_fubar": p_ff + p_panic,
            "p_friendly_fire": p_ff,
            "p_panic": p_panic,
        },
        details={"test_needed": order_test_needed(rules, test), "morale_value": test.value},
    )


def morale_check_odds(
    ruleset: str,
    *,
    quality: str,
    pins: int = 0,
    officer: str | None = None,
    rules_file: str | Path | None = None,
    rules_text: str | None = None,
) -> OddsReport:
    """Will the unit pass a morale check?"""
    _check_unit(ruleset, quality, pins, officer)
    rules_file, rules_text = _house_rules(rules_file, rules_text)
    rules = rules_for(ruleset, rules_file, rules_text)
    _check_counts(pins=pins)
    _check_names(rules, quality=("quality", quality), officer=("officer", officer))
    _check_not_removed(rules, quality, pins, "pins")
    test = new_test(rules, quality, officer=officer, pins=pins)
    dist = exact(lambda d: morale_check(d, test))
    return OddsReport(
        ruleset=ruleset,
        question="morale",
        title="morale check",
        reasons=(
            _morale_reason(rules, test, quality, officer),
            Reason("failed", "unit destroyed", "a unit failing a morale check is removed"),
        ),
        probabilities={"p_pass": dist.probability(True), "p_fail": dist.probability(False)},
        details={"morale_value": test.value},
    )


def _one_of(parameter: str, spec: str) -> str:
    """A weapon of the list ``parameter``, named in a refusal: "'rifle:x' in weapons" to a
    Python caller, "--weapon 'rifle:x'" on the command line."""
    return named(parameter, spec, python=f"{spec!r} in {parameter}")


def parse_weapons(
    rules: Rules, specs: Sequence[str], parameter: str = "weapons"
) -> list[tuple[Weapon, int]]:
    """``["rifle:8", "LMG"]`` -> weapons with how many models carry each; a refusal names
    the list as ``parameter`` (the command line: its option)."""
    if not specs:
        spec, example = "NAME[:COUNT]", "rifle:9"
        raise ParameterError(
            "Give the shooting unit's weapons with "
            f"{named(parameter, shown=spec, python=f'{parameter}=[{spec!r}, ...]')}, e.g. "
            f"{named(parameter, shown=example, python=f'{parameter}=[{example!r}]')}."
        )
    out: list[tuple[Weapon, int]] = []
    for spec in specs:
        name, _, count_text = spec.rpartition(":") if ":" in spec else (spec, "", "1")
        try:
            count = int(count_text)
        except ValueError:
            raise ParameterError(
                f"{_one_of(parameter, spec)}: the count after ':' must be a whole number, "
                "e.g. rifle:8."
            ) from None
        if count < 1:
            raise ParameterError(f"{_one_of(parameter, spec)}: the count must be 1 or more.")
        try:
            weapon = rules.weapon(name)
        except UnknownNameError as exc:
            raise ParameterError(f"{_one_of(parameter, spec)}: {exc}") from None
        out.append((weapon, count))
    return out


FACINGS: tuple[str, ...] = get_args(Facing)


def _cover(text: str, parameter: str = "cover") -> Cover:
    if text == "none":
        return "none"
    if text == "soft":
        return "soft"
    if text == "hard":
        return "hard"
    raise ParameterError(f"{named(parameter)} is none, soft or hard (not {text!r}).")


def _group(
    rules: Rules, weapon: Weapon, count: int, target: Target, s: Situation
) -> tuple[Group, list[Reason]]:
    shot, reasons = plan_shot(rules, weapon, target, s)
    return Group(shot, count * shots_per_model(weapon)), reasons


def _weapon_groups(
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
        reasons.append(
            Reason(
                label,
                f"{group.shots} shot{'s' if group.shots != 1 else ''}",
                f'range {situation.range_inches:g}" of {weapon.range}"'
                + rules.data.cited(f"weapons.rows[{weapon.name}]"),
            )
        )
        reasons.extend(replace(r, topic=f"{indent}  {r.topic}") for r in why)
    return groups, reasons, idle


def _check_most_hits(groups: Sequence[Group], at_vehicle: bool, parameter: str) -> None:
    """Refuse a question whose exact odds would take minutes (the limits above)."""
    most_hits = sum(
        g.shots
        * max(1, g.shot.hits_per_hit.most)
        * (TESTED_HIT_WEIGHT if at_vehicle and g.shot.morale_check else 1)
        for g in groups
    )
    limit = MAX_HITS_AT_VEHICLE if at_vehicle else MAX_HITS
    if most_hits > limit:
        at = " at a vehicle" if at_vehicle else ""
        raise ParameterError(
            f"{named(parameter)}: up to {most_hits:,} hits{at}; exact odds are worked out for at most "
            f"{limit:,} (more would take minutes; a unit on the table shoots a few dozen dice)."
        )


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
    _cover(situation.cover, "situation.cover")
    if situation.facing not in FACINGS:
        raise ParameterError(
            f"{named('situation.facing')} is {', '.join(FACINGS[:-1])} or "
            f"{FACINGS[-1]} (not {situation.facing!r})."
        )
    # keyed by the rules file's text as it is now: an edited file is a new question
    rules_file, rules_text = _house_rules(rules_file, rules_text)
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
    rules = rules_for(ruleset, rules_file, rules_text)
    _check_counts(
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
    _check_names(rules, target=("target", target))
    tgt = rules.target(target)
    _check_automaton(rules, situation.automaton, "situation.automaton")
    if not tgt.is_vehicle and situation.target_quality != "regular":
        infantry = f"{situation.target_quality} infantry"
        raise ParameterError(
            f"{named('situation.target_quality')} is a vehicle crew's; an infantry target's "
            f"quality is in its name (e.g. {named('target', infantry)})."
        )
    _check_names(rules, officer=("situation.target_officer", situation.target_officer))
    if tgt.is_vehicle and situation.target_models is not None:
        raise ParameterError(f"{models} caps casualties among troops; a vehicle has none.")
    if not tgt.is_vehicle:
        _refuse_vehicle_options(tgt, situation)
    # the firers' quality is not asked (but Inexperienced): the most pins any unit can hold
    firers = "inexperienced" if situation.firer_inexperienced else "veteran"
    most = new_test(rules, firers).base
    if destroyed_by_pins(rules, firers, situation.firer_pins):
        raise ParameterError(
            f"{named('situation.firer_pins', situation.firer_pins)}: a unit with as many pins "
            f"as its morale value ({most} at most, {firers} troops) is removed from play and "
            f"does not shoot; give {named('situation.firer_pins', most - 1)} or fewer."
        )
    if tgt.is_vehicle and situation.target_down:
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
    _check_not_removed(rules, target_quality, situation.target_pins, "situation.target_pins")
    groups, reasons, idle = _weapon_groups(rules, weapons, tgt, situation)
    if not groups:
        raise idle[0]  # no weapon of the unit can fire: say why the first cannot
    fixed = any("Fixed" in w.special for w, _ in parse_weapons(rules, weapons))
    if situation.mounted:  # (as an army list refuses it on a vehicle)
        for w, _ in parse_weapons(rules, weapons):
            if w.fielded == "not on vehicles":
                raise ParameterError(
                    f"{_one_of('weapons', w.name)} with {named('situation.mounted', True)}: "
                    f"the {w.name} is carried by a "
                    "man (the weapons chart gives it for infantry), not mounted on a vehicle"
                    f"{counterparts(rules, w, on_vehicle=True)}."
                )
    if situation.mounted and not (situation.moving and fixed):
        reasons.append(
            Reason("firer vehicle", "no effect", "it matters only to Fixed weapons moving")
        )
    _check_most_hits(groups, tgt.is_vehicle, "weapons")
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
    if not tgt.is_vehicle:
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
        removal = _pins_reach_morale(rules, quality, situation.target_pins, troops.pins.probability)
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
                    f"after the flamethrower's pins: {_check_parts(quality, ctx.morale, officer)}",
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

    final = exact_vehicle(groups)
    probabilities["p_knocked_out"] = final.probability(lambda v: v.knocked_out)
    abandoned = _pins_reach_morale(
        rules,
        situation.target_quality,
        situation.target_pins,
        lambda reach: final.probability(lambda v: not v.knocked_out and reach(v.pins)),
    )
    if abandoned is not None:
        probabilities["p_removed_by_pins"] = abandoned[0]
        reasons.append(abandoned[1])
    if situation.target_immobilised:
        reasons.append(_IMMOBILISED_BEFORE)
    flamethrower = any(g.shot.morale_check for g in groups)
    crew = groups[0].shot.vehicle
    assert crew is not None
    reasons += _automaton_reasons(
        rules,
        situation.automaton,
        stunned=not crew.soft_skinned
        and final.probability(lambda v: v.worst > 0 or v.crew_stunned) > 0,
    )
    reasons += _crew_reasons(
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
    effects = {
        "crew stunned": final.probability(lambda v: v.crew_stunned),
        "immobilised": _newly_immobilised(final, situation.target_immobilised),
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


def assault_odds(
    ruleset: str,
    *,
    attackers: int,
    attacker_quality: str,
    defenders: int,
    defender_quality: str,
    attacker_assault_weapons: int = 0,
    defender_assault_weapons: int = 0,
    attacker_pins: int = 0,
    defender_pins: int = 0,
    attacker_mode: str = "hand-to-hand",
    defender_mode: str = "hand-to-hand",
    attacker_officer: str | None = None,
    defender_officer: str | None = None,
    defender_weapons: Sequence[str] = (),
    attacker_cover: str = "none",
    attacker_start_models: int | None = None,
    rules_file: str | Path | None = None,
    rules_text: str | None = None,
) -> OddsReport:
    """Infantry against infantry in close quarters, fought as the edition fights it; an
    officer in range of a side adds his bonus to its morale, as in the game.

    ``defender_mode`` "stand-and-fire" (Konflikt '47: a unit assaulted before it has an
    order) has the defenders shoot ``defender_weapons`` at the assaulters where they
    come to a stop, at point blank, before the fight; they then fight hand-to-hand."""
    from kriegsspiel.rulesets.bolt_action.assault import (
        Side,
        exact_close_quarters,
        fight_after_fire,
        fighting_modes,
        fighting_side,
        point_blank_modifiers,
    )

    arguments.text("ruleset", ruleset)
    for name, value in (
        ("attackers", attackers),
        ("defenders", defenders),
        ("attacker_assault_weapons", attacker_assault_weapons),
        ("defender_assault_weapons", defender_assault_weapons),
        ("attacker_pins", attacker_pins),
        ("defender_pins", defender_pins),
    ):
        arguments.whole(name, value)
    arguments.optional_whole("attacker_start_models", attacker_start_models)
    for name, said in (
        ("attacker_quality", attacker_quality),
        ("defender_quality", defender_quality),
        ("attacker_mode", attacker_mode),
        ("defender_mode", defender_mode),
        ("attacker_cover", attacker_cover),
    ):
        arguments.text(name, said)
    arguments.optional_text("attacker_officer", attacker_officer)
    arguments.optional_text("defender_officer", defender_officer)
    arguments.names("defender_weapons", defender_weapons)
    rules_file, rules_text = _house_rules(rules_file, rules_text)
    rules = rules_for(ruleset, rules_file, rules_text)
    _check_counts(
        attackers=attackers,
        defenders=defenders,
        attacker_pins=attacker_pins,
        defender_pins=defender_pins,
        attacker_assault_weapons=attacker_assault_weapons,
        defender_assault_weapons=defender_assault_weapons,
    )
    sides = f"{named('attackers')} and {named('defenders')}"
    if attackers == 0 or defenders == 0:
        raise ParameterError(f"{sides} must each be 1 or more models.")
    if max(attackers, defenders) > MAX_FIGHTERS:
        raise ParameterError(
            f"{sides}: exact odds are worked out for at most {MAX_FIGHTERS} models a side "
            f"(got {attackers} and {defenders}); larger fights would take minutes."
        )
    for who, n, k in (
        ("attacker", attackers, attacker_assault_weapons),
        ("defender", defenders, defender_assault_weapons),
    ):
        if k > n:
            raise ParameterError(
                f"{named(f'{who}_assault_weapons')} ({k}) cannot exceed the {who}'s models ({n})."
            )
    _check_names(
        rules,
        quality_a=("attacker_quality", attacker_quality),
        quality_d=("defender_quality", defender_quality),
        officer_a=("attacker_officer", attacker_officer),
        officer_d=("defender_officer", defender_officer),
    )
    _check_not_removed(rules, attacker_quality, attacker_pins, "attacker_pins")
    _check_not_removed(rules, defender_quality, defender_pins, "defender_pins")
    procedure = rules.data.close_quarters.procedure
    modes = fighting_modes(rules)
    if attacker_mode not in ("hand-to-hand", "point-blank"):
        raise ParameterError(
            f"{named('attacker_mode')} is hand-to-hand or point-blank (not {attacker_mode!r})."
        )
    stand = named("defender_mode", "stand-and-fire", shown="stand-and-fire")
    if defender_mode not in ("hand-to-hand", "point-blank", "stand-and-fire"):
        raise ParameterError(
            f"{named('defender_mode')} is hand-to-hand, point-blank or stand-and-fire "
            f"(not {defender_mode!r})."
        )
    stand_and_fire = defender_mode == "stand-and-fire"
    if stand_and_fire and not rules.assault_reactions:
        raise UsageError(
            f"{rules.data.title} has no assault reactions: an assaulted unit cannot stand and fire."
        )
    if "point-blank" in {attacker_mode, defender_mode} and "point-blank" not in modes:
        raise ParameterError(
            f"{rules.data.title} has no point-blank fire in close quarters; "
            f"drop {named('attacker_mode')}/{named('defender_mode')}."
        )
    start = attackers if attacker_start_models is None else attacker_start_models
    if stand_and_fire and max(attackers, defenders) > MAX_FIGHTERS_AFTER_FIRE:
        raise ParameterError(
            f"{sides}: with the defenders standing to fire, exact odds "
            f"are worked out for at most {MAX_FIGHTERS_AFTER_FIRE} models a side (got "
            f"{attackers} and {defenders}); larger ones would take long."
        )
    if stand_and_fire and not defender_weapons:
        spec, example = "NAME[:COUNT]", "rifle:8"
        raise ParameterError(
            f"{stand}: give the weapons the defenders fire with "
            f"{named('defender_weapons', shown=spec, python=f'defender_weapons=[{spec!r}, ...]')}"
            f", e.g. {named('defender_weapons', shown=example, python=f'defender_weapons=[{example!r}]')}."
        )
    if not stand_and_fire and (
        defender_weapons or attacker_cover != "none" or attacker_start_models is not None
    ):
        raise ParameterError(
            f"{named('defender_weapons')}, {named('attacker_cover')} and "
            f"{named('attacker_start_models')} describe the defenders' fire as they stand "
            f"and fire: give {stand}, or drop them."
        )
    if start < attackers:
        raise ParameterError(
            f"{named('attacker_start_models')} ({start}) is the assaulting unit's size at the "
            f"start of the game: it cannot be less than {named('attackers')} ({attackers})."
        )
    if procedure == "rounds" and (attacker_officer or defender_officer):
        raise ParameterError(
            f"in {rules.data.title}'s close quarters the side with most casualties is destroyed, "
            "with no morale test for an officer to help; drop "
            f"{named('attacker_officer')}/{named('defender_officer')}."
        )
    if procedure == "rounds" and (attacker_pins or defender_pins):
        raise ParameterError(
            f"in {rules.data.title}'s close quarters pins change nothing (no point-blank fire, "
            f"no morale test): drop {named('attacker_pins')}/{named('defender_pins')}."
        )
    att = fighting_side(
        rules,
        attacker_quality,
        pins=attacker_pins,
        assault_models=attacker_assault_weapons,
        mode=attacker_mode,
        officer=attacker_officer,
    )
    dfn = fighting_side(
        rules,
        defender_quality,
        pins=defender_pins,
        assault_models=defender_assault_weapons,
        mode="hand-to-hand" if stand_and_fire else defender_mode,
        officer=defender_officer,
    )

    rounds = procedure == "rounds"

    def attacker_side(pins: int) -> Side:  # (after the defenders' fire: its pins hinder them)
        return fighting_side(
            rules,
            attacker_quality,
            pins=pins,
            assault_models=attacker_assault_weapons,
            mode=attacker_mode,
            officer=attacker_officer,
        )

    # each side's quality, pins and officer, as its reasoning tells them
    said_as = {
        "attackers": (attacker_quality, attacker_pins, attacker_officer),
        "defenders": (defender_quality, defender_pins, defender_officer),
    }

    def fights(side: Side, models: int, who: str, pins: int | None = None) -> str:
        """How ``side`` (``who``: attackers or defenders; with ``pins``, if not its own)
        strikes, with " (rules file k47.yaml)" where a rules file changed its numbers."""
        quality, own_pins, _ = said_as[who]
        enemy_quality = said_as["defenders" if who == "attackers" else "attackers"][0]
        enemy_value = infantry_target(rules, enemy_quality).damage_value
        rows = [f"damage_values.rows[{enemy_quality.lower()} infantry]"]
        if side.mode == "hand-to-hand":
            rows.append("procedure.close_quarters_attacks")
            rows += ["procedure.assault_weapon_attacks"] * (side.assault_models > 0)
            attacks = side.attacks(models)
            return (
                f"{attacks} attack{'s' if attacks != 1 else ''}, damage on {enemy_value}+"
                + rules.data.cited(*rows)
            )
        unused = min(side.assault_models, models)  # (their extra attacks are hand-to-hand's)
        aside = (
            f" (one shot a model: the {unused} assault weapon{'s' * (unused != 1)} add "
            "nothing to point-blank fire)"
            if unused
            else ""
        )
        fire = point_blank(side, quality, own_pins if pins is None else pins)
        return f"{fire}, damage on {enemy_value}+{rules.data.cited(*rows)}{aside}"

    def point_blank(side: Side, quality: str, pins: int) -> str:
        # (its modifiers named as a shooting's are: :func:`.assault.fighting_side`'s score)
        because = to_hit_because(rules, point_blank_modifiers(rules, quality, pins))
        needs = describe_needs(rules, side.point_blank_hit)
        return f"point-blank fire hits on {needs} ({because})"

    def morale(side: Side, who: str) -> str:
        quality, _, officer = said_as[who]
        parts = _morale_parts(rules, side.morale, quality, officer)
        told = f" ({', '.join(parts)})" if len(parts) > 1 else ""
        return f"morale {side.morale.value}{told}"

    def describe(side: Side, models: int, who: str) -> str:
        # (Bolt Action's rounds take no morale test: the side with most casualties is
        # destroyed, so its morale is not shown)
        return fights(side, models, who) + ("" if rounds else f"; {morale(side, who)}")

    stopped: dict[str, Fraction] = {}
    fired: list[Reason] = []
    attackers_said = describe(att, attackers, "attackers")
    if stand_and_fire:
        fire, fired = _stand_and_fire(
            rules,
            weapons=defender_weapons,
            quality=defender_quality,
            pins=defender_pins,
            models=defenders,
            at_quality=attacker_quality,
            at_models=attackers,
            at_start=start,
            at_pins=attacker_pins,
            at_cover=attacker_cover,
            at_officer=attacker_officer,
        )
        stopped["p_assaulters_stopped"] = fire.probability(lambda left: left[0] == 0)
        result = fight_after_fire(procedure, fire, attacker_side, dfn, defenders)
        added = sorted({pins - attacker_pins for alive, pins in fire.outcomes() if alive} - {0})
        if added:  # they fight with the pins the fire leaves them: say what those change
            most = attacker_side(attacker_pins + added[-1])
            if added == [1]:
                pinned = f"{most.morale.value} once the defenders' fire pins them"
            else:
                few = att.morale.value - added[0]
                pinned = (
                    f"{few} to {most.morale.value} with the {added[0]} to {added[-1]} pins "
                    "the defenders' fire may leave"
                )
            attackers_said = (
                f"{fights(att, attackers, 'attackers')}; {morale(att, 'attackers')}, {pinned} "
                "(-1 a pin)"
            )
            if att.mode == "point-blank":
                more = f"; with {added[-1]} more pin{'s' * (added[-1] != 1)}: "
                attackers_said += more + (
                    point_blank(most, attacker_quality, attacker_pins + added[-1])
                    if most.mode == "point-blank"
                    else "hand-to-hand, as their fire could not hit"
                )
    else:
        result = exact_close_quarters(procedure, att, dfn, attackers, defenders)
    sheet = rules.data.source_of("close_quarters", described=False)
    sequence = (
        Reason(
            "sequence",
            "attackers strike first",
            f"the defenders' casualties are removed before they strike back ({sheet}: a-d)",
        )
        if rounds
        else Reason(
            "sequence",
            "both sides strike at once",
            ", then ".join(
                ["the defenders' fire as the assaulters stop"] * stand_and_fire
                + (
                    ["point-blank fire", "hand-to-hand by the survivors"]
                    if "point-blank" in (att.mode, dfn.mode)
                    else ["hand-to-hand"]
                )
            )
            + f"; casualties are compared after the fight's step ({sheet}: 5a-d; at "
            "once: assumption)",
        )
    )
    reasons = [
        Reason(
            "procedure",
            procedure.replace("-", " "),
            rules.data.source_of("close_quarters"),
        ),
        sequence,
        Reason("attackers", f"{attackers} {attacker_quality}, {att.mode}", attackers_said),
        *[
            Reason(
                f"{who} fight hand-to-hand",
                "point-blank fire cannot hit",
                f"it would need 10+ with {pins} pins: a side fights hand-to-hand then",
            )
            for who, asked, side, pins in (
                ("attackers", attacker_mode, att, attacker_pins),
                ("defenders", defender_mode, dfn, defender_pins),
            )
            if asked == "point-blank" and side.mode == "hand-to-hand"
        ],
        Reason(
            "defenders",
            f"{defenders} {defender_quality}, "
            + ("stand and fire, then hand-to-hand" if stand_and_fire else dfn.mode),
            describe(dfn, defenders, "defenders"),
        ),
        *fired,
    ]
    reasons += [
        Reason(
            "decided",
            "most casualties is destroyed"
            if procedure == "rounds"
            else "most casualties tests morale; if it fails it is destroyed",
            "a tie fights another round"
            if procedure == "rounds"  # the defenders strike back only with their survivors
            else "a tie fights another round; both wiped out at once: both destroyed",
        ),
    ]
    return OddsReport(
        ruleset=ruleset,
        question="assault",
        reasons=tuple(reasons),
        probabilities={
            **stopped,
            "p_attacker_wins": result.probability(lambda f: f.attacker_wins),
            "p_defender_wins": result.probability(lambda f: f.defender_wins),
            "p_both_destroyed": result.probability(lambda f: f.both_destroyed),
        },
        distributions={
            "attackers_left": result.map(lambda f: f.attackers_left),
            "defenders_left": result.map(lambda f: f.defenders_left),
        },
    )


def vehicle_assault_odds(
    ruleset: str,
    *,
    models: int,
    quality: str,
    target: str,
    vehicle_order: str,
    anti_tank: bool = False,
    pins: int = 0,
    officer: str | None = None,
    open_topped: bool = False,
    automaton: bool = False,
    target_quality: str = "regular",
    target_pins: int = 0,
    target_immobilised: bool = False,
    target_officer: str | None = None,
    start_inches: float | None = None,
    vehicle_weapons: Sequence[str] = (),
    cover: str = "none",
    start_models: int | None = None,
    rules_file: str | Path | None = None,
    rules_text: str | None = None,
) -> OddsReport:
    """Infantry assaulting a vehicle: the order test, the vehicle's fire at them where the
    edition has it, then hits, damage and damage results. ``officer`` is one in range of
    the assaulters (their order test and morale), ``target_officer`` one in range of the
    vehicle (its crew's test when it catches fire)."""
    from kriegsspiel.rulesets.bolt_action.assault import (
        assault_order_modifier,
        assault_vehicle,
        vehicle_hit_score,
        vehicle_hits,
    )
    from kriegsspiel.rulesets.bolt_action.shooting import vehicle_profile

    arguments.text("ruleset", ruleset)
    for name, value in (("models", models), ("pins", pins), ("target_pins", target_pins)):
        arguments.whole(name, value)
    arguments.optional_whole("start_models", start_models)
    for name, said in (
        ("quality", quality),
        ("target", target),
        ("vehicle_order", vehicle_order),
        ("target_quality", target_quality),
        ("cover", cover),
    ):
        arguments.text(name, said)
    for name, flag in (
        ("anti_tank", anti_tank),
        ("open_topped", open_topped),
        ("automaton", automaton),
        ("target_immobilised", target_immobilised),
    ):
        arguments.yes_no(name, flag)
    arguments.optional_text("officer", officer)
    arguments.optional_text("target_officer", target_officer)
    if start_inches is not None:
        arguments.number("start_inches", start_inches)
    arguments.names("vehicle_weapons", vehicle_weapons)
    rules_file, rules_text = _house_rules(rules_file, rules_text)
    rules = rules_for(ruleset, rules_file, rules_text)
    _check_counts(models=models, pins=pins, target_pins=target_pins, start_models=start_models)
    if models == 0:
        raise ParameterError(f"{named('models')} must be 1 or more.")
    if models > MAX_ASSAULTERS_OF_A_VEHICLE:
        raise ParameterError(
            f"{named('models', models)}: exact odds are worked out for at most "
            f"{MAX_ASSAULTERS_OF_A_VEHICLE} men assaulting a vehicle (more would take long)."
        )
    if start_models is not None and start_models < models:
        raise ParameterError(
            f"{named('start_models')} ({start_models}) is the unit's size at the start of the "
            f"game: it cannot be less than {named('models')} ({models})."
        )
    _check_automaton(rules, automaton)
    _check_names(
        rules,
        quality=("quality", quality),
        quality_crew=("target_quality", target_quality),
        officer=("officer", officer),
        officer_crew=("target_officer", target_officer),
    )
    if target_immobilised and vehicle_order != "stationary":
        stationary = named("vehicle_order", "stationary", shown="stationary")
        raise ParameterError(
            "an immobilised vehicle is brought to a halt, and is hit as a halted one: "
            f"give {stationary} with {named('target_immobilised', True)}."
        )
    _check_not_removed(rules, target_quality, target_pins, "target_pins")
    _check_names(rules, target=("target", target))
    tgt = rules.target(target)
    if not tgt.is_vehicle:
        raise ParameterError(
            f"{tgt.name} is not a vehicle; use {named('assault_odds')} for infantry against "
            "infantry."
        )
    va = rules.data.vehicle_assault
    orders: dict[str, int | None] = {
        "ran": vehicle_hit_score(rules, "run"),
        "advanced": vehicle_hit_score(rules, "advance"),
        "stationary": vehicle_hit_score(rules, None),
    }
    # (the order it was given, as the game names it, says the same)
    given = vehicle_order  # (echoed as typed)
    vehicle_order = {"run": "ran", "advance": "advanced"}.get(vehicle_order.lower(), vehicle_order)
    if vehicle_order not in orders:
        raise ParameterError(
            f"{named('vehicle_order')} must be one of {', '.join(orders)}, not {given!r} "
            "(its last order: Run or Advance, else stationary)."
        )
    if orders[vehicle_order] is None:  # as the game refuses the order (sheet 001)
        raise ParameterError(
            f"{named('vehicle_order', given, shown=given)}: infantry cannot assault a vehicle "
            f"that {vehicle_order} this turn in {rules.data.title}."
        )
    run = next(r.run for r in rules.data.movement.rows if r.unit_type == "infantry")
    if start_inches is not None and start_inches > run:
        raise ParameterError(
            f"{named('start_inches', start_inches, shown=f'{start_inches:g}')}: an assault "
            f"begins within the assaulters' Run ({run}\"); give {named('start_inches', run)} "
            "or less."
        )
    needs_test_mod = (
        assault_order_modifier(rules, tgt, open_topped=open_topped, anti_tank=anti_tank) != 0
    )
    order = order_test_odds(
        ruleset,
        rules_file=rules_file,
        rules_text=rules_text,
        quality=quality,
        pins=pins,
        officer=officer,
        assault_vehicle_without_at=needs_test_mod,
    )
    situation = Situation(
        range_inches=0,
        open_topped=open_topped,
        automaton=automaton,
        target_quality=target_quality,
        target_pins=target_pins,
        target_immobilised=target_immobilised,
        target_officer=target_officer,
    )
    vehicle = vehicle_profile(rules, tgt, situation, indirect=False)
    hit_on = orders[vehicle_order]
    fire = _fire_at_assaulters(
        rules,
        start_inches=start_inches,
        weapons=vehicle_weapons,
        cover=cover,
        quality=quality,
        models=models,
        start_models=models if start_models is None else start_models,
        pins=pins,
        officer=officer,
        crew_quality=target_quality,
        crew_pins=target_pins,
    )

    def assault_by(survivors: int) -> Dist[VehicleState]:
        if survivors == 0:  # none left to strike: the vehicle is as it was
            return Dist.constant(vehicle.untouched())
        return exact(
            partial(
                assault_vehicle,
                models=survivors,
                hit_on=hit_on,
                vehicle=vehicle,
                anti_tank=anti_tank,
                open_topped=open_topped,
                damage_dice=DiceExpr(va.damage_dice),
            )
        )

    final = fire.survivors.bind(assault_by)
    p_ko = final.probability(lambda v: v.knocked_out)
    abandoned = _pins_reach_morale(
        rules,
        target_quality,
        target_pins,
        lambda reach: final.probability(lambda v: not v.knocked_out and reach(v.pins)),
    )
    goes_in = order.probabilities["p_pass"]
    destroyed_if_damaged = tgt.kind == "soft-skinned" or open_topped
    reasons = [
        order.reasons[0]
        if order.details["test_needed"]
        else Reason("order test", "not needed", "no pins")
    ]
    if needs_test_mod:
        reasons.append(
            Reason(
                "order test",
                f"{va.order_test_modifier_without_at:+d}",
                "no anti-tank weapons against an enclosed armoured vehicle"
                + rules.data.cited("vehicle_assault.order_test_modifier_without_at"),
            )
        )
    reasons += fire.reasons
    reasons += [
        Reason(
            "to hit",
            "impossible" if hit_on is None else f"{hit_on}+ per model",
            f"the vehicle {vehicle_order}"
            + rules.data.cited(
                "vehicle_assault.to_hit_stationary"
                if vehicle_order == "stationary"
                else "vehicle_assault.to_hit_advanced",
                *("vehicle_assault.vehicle_that_ran_can_be_hit",) * (vehicle_order == "ran"),
            ),
        ),
        Reason(
            "damage roll",
            f"hits + D6 against {tgt.damage_value}+",
            (
                "with or without anti-tank weapons: any damage destroys it (below)"
                if destroyed_if_damaged
                else "anti-tank weapons"
                if anti_tank
                else "superficial at most without anti-tank weapons"
            )
            + rules.data.cited("vehicle_assault.damage_dice", f"damage_values.rows[{tgt.name}]"),
        ),
    ]
    if target_immobilised:
        reasons.append(_IMMOBILISED_BEFORE)
    if destroyed_if_damaged:
        reasons.append(
            Reason(
                "damage",
                "destroyed",
                f"{'open-topped' if open_topped else 'soft-skinned'}: destroyed if damaged, "
                "superficial damage too",
            )
        )
    reasons += _automaton_reasons(
        rules,
        automaton,
        stunned=not destroyed_if_damaged
        and final.probability(lambda v: v.worst > 0 or v.crew_stunned) > 0,
    )
    reasons += _crew_reasons(
        rules,
        vehicle,
        target_quality,
        target_officer,
        tested=final.probability(lambda v: v.on_fire) > 0,
        flamethrower=False,
    )
    removed: dict[str, Fraction] = {}
    if abandoned is not None:
        removed = {
            "p_removed_by_pins_if_assaulting": abandoned[0],
            "p_removed_by_pins": goes_in * abandoned[0],
        }
        reasons.append(replace(abandoned[1], result=f"{abandoned[1].result} if assaulting"))
    hits: Dist[int] = (
        Dist.constant(0)
        if hit_on is None
        else fire.survivors.bind(lambda n: exact(partial(vehicle_hits, models=n, hit_on=hit_on)))
    )
    stopped: dict[str, Fraction] = {}
    distributions: dict[str, Dist[int]] = {"hits_if_assaulting": hits}
    if fire.fired:
        stopped["p_assaulters_stopped"] = fire.survivors.probability(0)
        distributions["assaulters_left"] = fire.survivors
    return OddsReport(
        ruleset=ruleset,
        question="vehicle-assault",
        title="vehicle assault",
        reasons=tuple(reasons),
        notes={  # (the rows mix two kinds of chance: say which is which)
            "chances": "'if assaulting': once the order test is passed; every other row is of "
            "the assault as a whole, the order test included."
        },
        probabilities={
            **stopped,
            "p_order_test": goes_in,
            "p_knocked_out_if_assaulting": p_ko,
            # each chance of the assault as a whole: the order test passed first
            "p_knocked_out": goes_in * p_ko,
            "p_crew_stunned": goes_in * final.probability(lambda v: v.crew_stunned),
            "p_immobilised": goes_in * _newly_immobilised(final, target_immobilised),
            "p_on_fire": goes_in * final.probability(lambda v: v.on_fire),
            **removed,
        },
        distributions=distributions,
        details={"target": tgt.name},
    )


@dataclass(frozen=True, slots=True)
class _Fire:
    """The vehicle's fire at the assaulters: how many are left to strike, and why."""

    survivors: Dist[int]
    reasons: list[Reason]
    fired: bool = False  # the vehicle had a weapon to fire at them


def _fire_at_assaulters(
    rules: Rules,
    *,
    start_inches: float | None,
    weapons: Sequence[str],
    cover: str,
    quality: str,
    models: int,
    start_models: int,
    pins: int,
    officer: str | None,
    crew_quality: str,
    crew_pins: int,
) -> _Fire:
    """Konflikt '47 (sheet 001): a vehicle fires at infantry who begin their assault on it
    from farther than the sheet's distance, with the weapons whose arc they are in, as the
    game has it (``close_quarters._fire_at_assaulters``): casualties, pins, the morale check
    at half strength or a flamethrower's, and removal by pins, before the survivors strike."""
    from kriegsspiel.rulesets.bolt_action.assault import vehicle_fires_at_assaulters

    beyond = rules.data.vehicle_assault.fires_at_assaulters_beyond
    fire, start = named("vehicle_weapons"), named("start_inches")
    described = f"{fire}, {named('cover')} and {named('start_models')}"
    if start_inches is None:
        if weapons:
            raise ParameterError(
                f"{fire}: give {start}, the distance the assault begins at; the "
                "vehicle fires only at assaulters that begin far enough away."
            )
        if cover != "none" or start_models != models:
            raise ParameterError(
                f"{named('cover')} and {named('start_models')} describe the assaulters as the "
                f"vehicle fires at them: give {start} (and {fire})."
            )
        unasked: list[Reason] = []
        if beyond is not None:
            unasked.append(
                Reason(
                    "vehicle's fire",
                    "not asked",
                    f'the vehicle fires first at assaulters that begin more than {beyond:g}" '
                    f"away: give {start} and {fire}",
                )
            )
        return _Fire(Dist.constant(models), unasked)
    if not math.isfinite(start_inches) or start_inches <= 0:
        raise ParameterError(f"{start} must be a distance in inches above 0 (got {start_inches}).")
    if beyond is None:
        if weapons or cover != "none" or start_models != models:
            raise ParameterError(
                f"{described} describe the vehicle's fire at its assaulters, and in "
                f"{rules.data.title} a vehicle has none; drop them."
            )
        # (told, not ignored: the distance is asked only for that fire)
        said = f"in {rules.data.title} a vehicle does not fire at its assaulters: {start} changes nothing"
        return _Fire(Dist.constant(models), [Reason("vehicle's fire", "no effect", said)])
    if not vehicle_fires_at_assaulters(rules, start_inches):
        if weapons or cover != "none" or start_models != models:
            raise ParameterError(
                f"{described} describe the vehicle's fire, and it fires only at assaulters "
                f'that begin more than {beyond:g}" away '
                f"({named('start_inches', start_inches, shown=f'{start_inches:g}')}); drop them."
            )
        return _Fire(
            Dist.constant(models),
            [Reason("vehicle's fire", "none", f'the assault begins within {beyond:g}"')],
        )
    if not weapons:
        spec = "NAME[:COUNT]"
        listed = named("vehicle_weapons", shown=spec, python=f"vehicle_weapons=[{spec!r}, ...]")
        raise ParameterError(
            f"{named('start_inches', start_inches, shown=f'{start_inches:g}')}: the vehicle "
            f'fires at assaulters that begin more than {beyond:g}" away; give its weapons '
            f"whose arc they are in with {listed} (or leave out {start} if none bears on them)."
        )
    target = rules.target(f"{quality} infantry")
    situation = Situation(
        range_inches=start_inches,
        firer_pins=crew_pins,
        firer_inexperienced=crew_quality == "inexperienced",
        mounted=True,
        small_unit=start_models <= SMALL_UNIT_MODELS,
        cover=_cover(cover),
        target_pins=pins,
        target_quality=quality,
        target_models=models,
    )
    groups, reasons, _ = _weapon_groups(
        rules, weapons, target, situation, parameter="vehicle_weapons", indent="  "
    )
    reasons.insert(
        0,
        Reason(
            "vehicle's fire",
            f'at {start_inches:g}"',
            f'the assault begins more than {beyond:g}" away '
            f"({rules.data.cite('sheet 001', 'vehicle_assault.fires_at_assaulters_beyond')})",
        ),
    )
    if not groups:
        return _Fire(Dist.constant(models), reasons)
    under_fire, stopped = _assaulters_under_fire(
        rules,
        groups,
        "vehicle_weapons",
        quality=quality,
        models=models,
        start_models=start_models,
        pins=pins,
        officer=officer,
    )
    reasons.append(stopped)
    return _Fire(under_fire.map(lambda left: left[0]), reasons, fired=True)


def _assaulters_under_fire(
    rules: Rules,
    groups: Sequence[Group],
    parameter: str,
    *,
    quality: str,
    models: int,
    start_models: int,
    pins: int,
    officer: str | None,
) -> tuple[Dist[tuple[int, int]], Reason]:
    """Assaulters after fire at them as they come in (a vehicle's, or defenders standing to
    fire): the men left and their pins, and how often the fire stops the assault."""
    _check_most_hits(groups, False, parameter)
    fire = troops_left(
        rules,
        groups,
        quality=quality,
        models=models,
        start_models=start_models,
        pins=pins,
        officer=officer,
    )
    stopped = Reason(
        "  assaulters stopped",
        f"{chance_shown(fire.probability(lambda left: left[0] == 0))}",
        "all down, or failing a morale check at half strength, or pinned out",
    )
    return fire, stopped


def _stand_and_fire(
    rules: Rules,
    *,
    weapons: Sequence[str],
    quality: str,
    pins: int,
    models: int,
    at_quality: str,
    at_models: int,
    at_start: int,
    at_pins: int,
    at_cover: str,
    at_officer: str | None,
) -> tuple[Dist[tuple[int, int]], list[Reason]]:
    """Konflikt '47 (sheets 000, 001): defenders who stand and fire shoot at the assaulters
    where their assault move ends, at point blank (the game's close-quarters contact), as
    they would on a Fire order: the assaulters left and their pins after it, and why."""
    from kriegsspiel.rulesets.bolt_action.assault import CONTACT

    carried = parse_weapons(rules, weapons, "defender_weapons")
    fired = sum(count for _, count in carried)
    if fired > models:
        raise ParameterError(
            f"{named('defender_weapons')}: {fired} models fire, but the defenders are {models}; each "
            "model fires one weapon."
        )
    # a team weapon with one crew left shoots at -1, counted like a pin (as in the game)
    lone_team = models < 2 and any("Team" in weapon.special for weapon, _ in carried)
    situation = Situation(
        range_inches=CONTACT,
        firer_pins=pins,
        one_crew=lone_team,
        firer_inexperienced=quality == "inexperienced",
        small_unit=at_start <= SMALL_UNIT_MODELS,
        cover=_cover(at_cover, "attacker_cover"),
        target_pins=at_pins,
        target_quality=at_quality,
        target_models=at_models,
    )
    groups, reasons, _ = _weapon_groups(
        rules,
        weapons,
        rules.target(f"{at_quality} infantry"),
        situation,
        parameter="defender_weapons",
        indent="  ",
    )
    reasons.insert(
        0,
        Reason(
            "defenders' fire",
            f'at {CONTACT:g}"',
            "they stand and fire at the assaulters where they stop (sheets 000, 001)",
        ),
    )
    if lone_team:
        reasons.insert(
            1, Reason("  one crew left", "-1 to hit", "a team weapon's lone crew, as a pin")
        )
    if not groups:
        return Dist.constant((at_models, at_pins)), reasons
    fire, stopped = _assaulters_under_fire(
        rules,
        groups,
        "defender_weapons",
        quality=at_quality,
        models=at_models,
        start_models=at_start,
        pins=at_pins,
        officer=at_officer,
    )
    reasons.append(stopped)
    return fire, reasons


_IMMOBILISED_BEFORE = Reason(
    "already immobilised", "a further Immobilised knocks it out", "damage results table"
)


def _crew_reasons(
    rules: Rules,
    vehicle: VehicleProfile,
    quality: str,
    officer: str | None,
    *,
    tested: bool,
    flamethrower: bool,
) -> list[Reason]:
    """How a target vehicle's crew tests (On fire, and in a shooting a flamethrower's
    check): its quality's morale, the bonus of an officer in range (``--target-officer``)
    and the pins it carries, told whenever the attack can bring the crew a test. Where it
    cannot, that the officer, the quality and the pins given enter no test (nothing, if
    none was given)."""
    tests = f"on fire ({rules.data.source_of('damage_results', described=False)})"
    if flamethrower:
        tests += ", or a flamethrower's check"
    if not tested:
        nor = ", nor is it a flamethrower's" if flamethrower else ""
        if officer is not None:
            return [
                Reason(
                    "target officer",
                    "no effect",
                    f"no test for his bonus: the attack cannot set the vehicle on fire{nor}",
                )
            ]
        pins = vehicle.crew_morale.pins
        given = [f"{quality} quality"] * (quality != "regular")
        given += [f"{pins} pin{'s' * (pins != 1)}"] * (pins > 0)
        if not given:
            return []
        return [
            Reason(
                "crew's tests",
                "none",
                f"the attack cannot set the vehicle on fire{nor}: the crew's "
                f"{' and '.join(given)} {'enter' if len(given) > 1 else 'enters'} no test",
            )
        ]
    said = _morale_reason(rules, vehicle.crew_morale, quality, officer)
    parts, _, doubles = said.because.partition("; ")
    return [
        Reason(
            "crew's tests",
            said.result,
            f"{tests}: {parts}, and -1 for each pin this attack adds first; {doubles}",
        )
    ]


def _automaton_reasons(rules: Rules, automaton: bool, *, stunned: bool) -> list[Reason]:
    """What an automaton target (Konflikt '47) does with a Crew stunned result: ignores it
    on a D6 score; ``stunned``: whether the attack can bring that result at all."""
    if not automaton:
        return []
    on = rules.data.damage_results.automaton_ignores_stunned_on
    source = rules.data.source_of(
        "damage_results", "damage_results.automaton_ignores_stunned_on", described=False
    )
    if not stunned:
        return [
            Reason(
                "automaton",
                "no effect",
                f"it ignores Crew stunned on {on}+ ({source}), and this attack cannot bring "
                "that result",
            )
        ]
    return [
        Reason(
            "automaton",
            f"ignores Crew stunned on {on}+",
            f"a D6 for each Crew stunned result: on {on}+ the automaton ignores it and its "
            f"pin ({source})",
        )
    ]


def _newly_immobilised(final: Dist[VehicleState], before: bool) -> Fraction:
    """The chance this attack immobilises the vehicle (none if it already was: a further
    Immobilised result knocks it out instead)."""
    return Fraction(0) if before else final.probability(lambda v: v.immobilised)
