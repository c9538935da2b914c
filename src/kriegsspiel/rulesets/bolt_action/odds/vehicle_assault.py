"""The odds of infantry assaulting a vehicle: their order test (harder without anti-tank weapons
against an enclosed armoured vehicle), the vehicle's fire at them where the edition has it, then
their hits, the damage roll and the damage results. Apart because it is a question of its own:
the assaulters' fight is with the vehicle's armour and crew, not with men."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from functools import partial
from pathlib import Path

from kriegsspiel.core import arguments
from kriegsspiel.core.dice import DiceExpr, Dist
from kriegsspiel.core.procedure import exact
from kriegsspiel.core.report import OddsReport, Reason
from kriegsspiel.errors import ParameterError, named
from kriegsspiel.rulesets.bolt_action.edition import rules_for
from kriegsspiel.rulesets.bolt_action.odds.checks import (
    MAX_ASSAULTERS_OF_A_VEHICLE,
    _check_automaton,
    _check_counts,
    _check_names,
    _check_not_removed,
    _house_rules,
)
from kriegsspiel.rulesets.bolt_action.odds.fire_at_assaulters import _fire_at_assaulters
from kriegsspiel.rulesets.bolt_action.odds.order_and_morale import (
    _pins_reach_morale,
    order_test_odds,
)
from kriegsspiel.rulesets.bolt_action.odds.vehicle_damage import (
    _IMMOBILISED_BEFORE,
    _automaton_reasons,
    _crew_reasons,
    _newly_immobilised,
)
from kriegsspiel.rulesets.bolt_action.shooting import Situation, VehicleState


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
