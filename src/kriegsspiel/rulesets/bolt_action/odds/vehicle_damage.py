"""What an attack's damage does to a target vehicle beyond the dice: its crew's tests (on fire, or
a flamethrower's check) and whether the attack can bring them, an automaton ignoring Crew
stunned, and an Immobilised result on a vehicle already immobilised. Apart because a shooting at
a vehicle and infantry assaulting one tell these the same way, from the same damage results."""

from __future__ import annotations

from fractions import Fraction

from kriegsspiel.core.dice import Dist
from kriegsspiel.core.report import Reason
from kriegsspiel.rulesets.bolt_action.edition import Rules
from kriegsspiel.rulesets.bolt_action.odds.order_and_morale import morale_reason
from kriegsspiel.rulesets.bolt_action.vehicle_damage import VehicleProfile, VehicleState

#: The reason a vehicle already immobilised is told: a further Immobilised knocks it out.
IMMOBILISED_BEFORE = Reason(
    "already immobilised", "a further Immobilised knocks it out", "damage results table"
)


def crew_reasons(
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
    said = morale_reason(rules, vehicle.crew_morale, quality, officer)
    parts, _, doubles = said.because.partition("; ")
    return [
        Reason(
            "crew's tests",
            said.result,
            f"{tests}: {parts}, and -1 for each pin this attack adds first; {doubles}",
        )
    ]


def automaton_reasons(rules: Rules, automaton: bool, *, stunned: bool) -> list[Reason]:
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


def newly_immobilised(final: Dist[VehicleState], before: bool) -> Fraction:
    """The chance this attack immobilises the vehicle (none if it already was: a further
    Immobilised result knocks it out instead)."""
    return Fraction(0) if before else final.probability(lambda v: v.immobilised)
