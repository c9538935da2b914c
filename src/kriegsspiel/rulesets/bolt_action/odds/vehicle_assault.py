"""The odds of infantry assaulting a vehicle: their order test (harder without anti-tank weapons
against an enclosed armoured vehicle), the vehicle's fire at them where the edition has it, then
their hits, the damage roll and the damage results. Apart because it is a question of its own:
the assaulters' fight is with the vehicle's armour and crew, not with men."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import partial
from pathlib import Path

from kriegsspiel.core import arguments
from kriegsspiel.core.dice import DiceExpr, Dist
from kriegsspiel.core.procedure import exact
from kriegsspiel.core.report import OddsReport, Reason
from kriegsspiel.errors import ParameterError, named
from kriegsspiel.rulesets.bolt_action.edition import Rules, Target, rules_for
from kriegsspiel.rulesets.bolt_action.odds.checks import (
    MAX_ASSAULTERS_OF_A_VEHICLE,
    check_automaton,
    check_counts,
    check_names,
    check_not_removed,
    house_rules,
)
from kriegsspiel.rulesets.bolt_action.odds.fire_at_assaulters import VehicleFire, vehicle_fire_odds
from kriegsspiel.rulesets.bolt_action.odds.order_and_morale import (
    order_test_odds,
    pins_reach_morale,
)
from kriegsspiel.rulesets.bolt_action.odds.vehicle_damage import (
    IMMOBILISED_BEFORE,
    automaton_reasons,
    crew_reasons,
    newly_immobilised,
)
from kriegsspiel.rulesets.bolt_action.shot import Situation
from kriegsspiel.rulesets.bolt_action.vehicle_damage import VehicleProfile, VehicleState


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
    from kriegsspiel.rulesets.bolt_action.assault import assault_order_modifier

    a = _Assault(
        models=models,
        quality=quality,
        target=target,
        vehicle_order=vehicle_order,
        anti_tank=anti_tank,
        pins=pins,
        officer=officer,
        open_topped=open_topped,
        automaton=automaton,
        target_quality=target_quality,
        target_pins=target_pins,
        target_immobilised=target_immobilised,
        target_officer=target_officer,
        start_inches=start_inches,
        vehicle_weapons=vehicle_weapons,
        cover=cover,
        start_models=start_models,
    )
    _check_types(ruleset, a)
    rules_file, rules_text = house_rules(rules_file, rules_text)
    rules = rules_for(ruleset, rules_file, rules_text)
    tgt = _assaulted_vehicle(rules, a)
    vehicle_order, hit_on = _hit_score(rules, a)
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
    vehicle, fire, final = _assault(rules, a, tgt, hit_on)
    abandoned = _abandoned(rules, a, final)
    reasons = [*_order_reasons(rules, order, needs_test_mod), *fire.reasons]
    reasons += _hit_and_damage_reasons(rules, a, tgt, vehicle_order, hit_on)
    reasons += _damage_result_reasons(rules, a, tgt, vehicle, final, abandoned)
    return _report(ruleset, a, tgt, order, fire, final, hit_on, reasons, abandoned)


@dataclass(frozen=True, slots=True)
class _Assault:
    """An assault on a vehicle as asked: the assaulters (models, quality, anti-tank weapons,
    pins, officer), the vehicle (its last order, open-topped, automaton, its crew's quality,
    pins and officer, already immobilised), and where it fires at them (the distance the
    assault begins at, its weapons, the assaulters' cover and size at the start)."""

    models: int
    quality: str
    target: str
    vehicle_order: str
    anti_tank: bool
    pins: int
    officer: str | None
    open_topped: bool
    automaton: bool
    target_quality: str
    target_pins: int
    target_immobilised: bool
    target_officer: str | None
    start_inches: float | None
    vehicle_weapons: Sequence[str]
    cover: str
    start_models: int | None


def _check_types(ruleset: str, a: _Assault) -> None:
    """The types of the question's arguments, each refused by name (:mod:`.arguments`)."""
    arguments.text("ruleset", ruleset)
    for name, value in (("models", a.models), ("pins", a.pins), ("target_pins", a.target_pins)):
        arguments.whole(name, value)
    arguments.optional_whole("start_models", a.start_models)
    for name, said in (
        ("quality", a.quality),
        ("target", a.target),
        ("vehicle_order", a.vehicle_order),
        ("target_quality", a.target_quality),
        ("cover", a.cover),
    ):
        arguments.text(name, said)
    for name, flag in (
        ("anti_tank", a.anti_tank),
        ("open_topped", a.open_topped),
        ("automaton", a.automaton),
        ("target_immobilised", a.target_immobilised),
    ):
        arguments.yes_no(name, flag)
    arguments.optional_text("officer", a.officer)
    arguments.optional_text("target_officer", a.target_officer)
    if a.start_inches is not None:
        arguments.number("start_inches", a.start_inches)
    arguments.names("vehicle_weapons", a.vehicle_weapons)


def _assaulted_vehicle(rules: Rules, a: _Assault) -> Target:
    """The vehicle assaulted, with the assaulters and its crew checked: their numbers, the
    names the rules data knows, an automaton, an immobilised vehicle's order, and a crew
    its pins have already removed; a target that is no vehicle is refused."""
    check_counts(
        models=a.models, pins=a.pins, target_pins=a.target_pins, start_models=a.start_models
    )
    if a.models == 0:
        raise ParameterError(f"{named('models')} must be 1 or more.")
    if a.models > MAX_ASSAULTERS_OF_A_VEHICLE:
        raise ParameterError(
            f"{named('models', a.models)}: exact odds are worked out for at most "
            f"{MAX_ASSAULTERS_OF_A_VEHICLE} men assaulting a vehicle (more would take long)."
        )
    if a.start_models is not None and a.start_models < a.models:
        raise ParameterError(
            f"{named('start_models')} ({a.start_models}) is the unit's size at the start of the "
            f"game: it cannot be less than {named('models')} ({a.models})."
        )
    check_automaton(rules, a.automaton)
    check_names(
        rules,
        quality=("quality", a.quality),
        quality_crew=("target_quality", a.target_quality),
        officer=("officer", a.officer),
        officer_crew=("target_officer", a.target_officer),
    )
    if a.target_immobilised and a.vehicle_order != "stationary":
        stationary = named("vehicle_order", "stationary", shown="stationary")
        raise ParameterError(
            "an immobilised vehicle is brought to a halt, and is hit as a halted one: "
            f"give {stationary} with {named('target_immobilised', True)}."
        )
    check_not_removed(
        rules, a.target_quality, a.target_pins, "target_pins", crew=True, fate="cannot be assaulted"
    )
    check_names(rules, target=("target", a.target))
    tgt = rules.target(a.target)
    if not tgt.is_vehicle:
        raise ParameterError(
            f"{tgt.name} is not a vehicle; use {named('assault_odds')} for infantry against "
            "infantry."
        )
    return tgt


def _hit_score(rules: Rules, a: _Assault) -> tuple[str, int | None]:
    """The vehicle's last order as the game names it (ran, advanced, stationary) and the
    score the assaulters need to hit it (None: they cannot); refused if the edition lets no
    one assault a vehicle after that order, or if the assault begins beyond their Run."""
    from kriegsspiel.rulesets.bolt_action.assault import vehicle_hit_score

    orders: dict[str, int | None] = {
        "ran": vehicle_hit_score(rules, "run"),
        "advanced": vehicle_hit_score(rules, "advance"),
        "stationary": vehicle_hit_score(rules, None),
    }
    # (the order it was given, as the game names it, says the same)
    given = a.vehicle_order  # (echoed as typed)
    vehicle_order = {"run": "ran", "advance": "advanced"}.get(given.lower(), given)
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
    start_inches = a.start_inches
    if start_inches is not None and start_inches > run:
        raise ParameterError(
            f"{named('start_inches', start_inches, shown=f'{start_inches:g}')}: an assault "
            f"begins within the assaulters' Run ({run}\"); give {named('start_inches', run)} "
            "or less."
        )
    return vehicle_order, orders[vehicle_order]


def _assault(
    rules: Rules, a: _Assault, tgt: Target, hit_on: int | None
) -> tuple[VehicleProfile, VehicleFire, Dist[VehicleState]]:
    """The assault itself: the vehicle as the assaulters strike it, its fire at them first
    (where the edition has it), and its state after the survivors' hits and damage."""
    from kriegsspiel.rulesets.bolt_action.assault import assault_vehicle
    from kriegsspiel.rulesets.bolt_action.pen import vehicle_profile

    situation = Situation(
        range_inches=0,
        open_topped=a.open_topped,
        automaton=a.automaton,
        target_quality=a.target_quality,
        target_pins=a.target_pins,
        target_immobilised=a.target_immobilised,
        target_officer=a.target_officer,
    )
    vehicle = vehicle_profile(rules, tgt, situation, indirect=False)
    fire = vehicle_fire_odds(
        rules,
        start_inches=a.start_inches,
        weapons=a.vehicle_weapons,
        cover=a.cover,
        quality=a.quality,
        models=a.models,
        start_models=a.models if a.start_models is None else a.start_models,
        pins=a.pins,
        officer=a.officer,
        crew_quality=a.target_quality,
        crew_pins=a.target_pins,
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
                anti_tank=a.anti_tank,
                open_topped=a.open_topped,
                damage_dice=DiceExpr(rules.data.vehicle_assault.damage_dice),
            )
        )

    return vehicle, fire, fire.survivors.bind(assault_by)


def _order_reasons(rules: Rules, order: OddsReport, needs_test_mod: bool) -> list[Reason]:
    """The assaulters' order test (or none without pins), and its modifier without
    anti-tank weapons against an enclosed armoured vehicle."""
    va = rules.data.vehicle_assault
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
    return reasons


def _destroyed_if_damaged(a: _Assault, tgt: Target) -> bool:
    """A soft-skin or an open-topped vehicle is destroyed by any damage."""
    return tgt.kind == "soft-skinned" or a.open_topped


def _hit_and_damage_reasons(
    rules: Rules, a: _Assault, tgt: Target, vehicle_order: str, hit_on: int | None
) -> list[Reason]:
    """What the assaulters need to hit the vehicle after its order, and their damage roll."""
    return [
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
                if _destroyed_if_damaged(a, tgt)
                else "anti-tank weapons"
                if a.anti_tank
                else "superficial at most without anti-tank weapons"
            )
            + rules.data.cited("vehicle_assault.damage_dice", f"damage_values.rows[{tgt.name}]"),
        ),
    ]


def _damage_result_reasons(
    rules: Rules,
    a: _Assault,
    tgt: Target,
    vehicle: VehicleProfile,
    final: Dist[VehicleState],
    abandoned: tuple[Fraction, Reason] | None,
) -> list[Reason]:
    """What the damage does: already immobilised, destroyed if damaged, an automaton, the
    crew's tests, and the crew abandoning it to the pins (if the assault goes in)."""
    reasons: list[Reason] = []
    destroyed_if_damaged = _destroyed_if_damaged(a, tgt)
    if a.target_immobilised:
        reasons.append(IMMOBILISED_BEFORE)
    if destroyed_if_damaged:
        reasons.append(
            Reason(
                "damage",
                "destroyed",
                f"{'open-topped' if a.open_topped else 'soft-skinned'}: destroyed if damaged, "
                "superficial damage too",
            )
        )
    reasons += automaton_reasons(
        rules,
        a.automaton,
        stunned=not destroyed_if_damaged
        and final.probability(lambda v: v.worst > 0 or v.crew_stunned) > 0,
    )
    reasons += crew_reasons(
        rules,
        vehicle,
        a.target_quality,
        a.target_officer,
        tested=final.probability(lambda v: v.on_fire) > 0,
        flamethrower=False,
    )
    if abandoned is not None:
        reasons.append(replace(abandoned[1], result=f"{abandoned[1].result} if assaulting"))
    return reasons


def _abandoned(
    rules: Rules, a: _Assault, final: Dist[VehicleState]
) -> tuple[Fraction, Reason] | None:
    """The chance the pins the assault brings remove the vehicle (its crew abandon it) when
    it is not knocked out anyway, and why; None when they cannot."""
    return pins_reach_morale(
        rules,
        a.target_quality,
        a.target_pins,
        lambda reach: final.probability(lambda v: not v.knocked_out and reach(v.pins)),
    )


def _report(
    ruleset: str,
    a: _Assault,
    tgt: Target,
    order: OddsReport,
    fire: VehicleFire,
    final: Dist[VehicleState],
    hit_on: int | None,
    reasons: list[Reason],
    abandoned: tuple[Fraction, Reason] | None,
) -> OddsReport:
    """The report: each chance once the order test is passed ("if assaulting") and of the
    assault as a whole, the assaulters' hits, and how many the vehicle's fire leaves."""
    from kriegsspiel.rulesets.bolt_action.assault import vehicle_hits

    p_ko = final.probability(lambda v: v.knocked_out)
    goes_in = order.probabilities["p_pass"]
    removed: dict[str, Fraction] = {}
    if abandoned is not None:
        removed = {
            "p_removed_by_pins_if_assaulting": abandoned[0],
            "p_removed_by_pins": goes_in * abandoned[0],
        }
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
            "p_immobilised": goes_in * newly_immobilised(final, a.target_immobilised),
            "p_on_fire": goes_in * final.probability(lambda v: v.on_fire),
            **removed,
        },
        distributions=distributions,
        details={"target": tgt.name},
    )
