"""Fire at assaulters as they come in, before close quarters (Konflikt '47, sheets 000 and 001): a
vehicle's fire at infantry who begin their assault on it far enough away, and defenders who
stand and fire at the assaulters where they stop; each gives the assaulters left, their pins and
how often the fire stops the assault. Apart because both assaults (on a vehicle and on infantry)
take the same fire, worked out the same way, before their own fight."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from kriegsspiel.core.dice import Dist
from kriegsspiel.core.per_cent import chance_shown
from kriegsspiel.core.report import Reason
from kriegsspiel.errors import ParameterError, named
from kriegsspiel.rulesets.bolt_action.attack import troops_left
from kriegsspiel.rulesets.bolt_action.edition import Rules
from kriegsspiel.rulesets.bolt_action.odds.checks import check_most_hits, parse_cover, parse_weapons
from kriegsspiel.rulesets.bolt_action.odds.shooting import weapon_groups
from kriegsspiel.rulesets.bolt_action.shot import SMALL_UNIT_MODELS, Group, Situation


@dataclass(frozen=True, slots=True)
class VehicleFire:
    """The vehicle's fire at the assaulters: how many are left to strike, and why."""

    survivors: Dist[int]
    reasons: list[Reason]
    fired: bool = False  # the vehicle had a weapon to fire at them


def vehicle_fire_odds(
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
) -> VehicleFire:
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
        return VehicleFire(Dist.constant(models), unasked)
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
        return VehicleFire(Dist.constant(models), [Reason("vehicle's fire", "no effect", said)])
    if not vehicle_fires_at_assaulters(rules, start_inches):
        if weapons or cover != "none" or start_models != models:
            raise ParameterError(
                f"{described} describe the vehicle's fire, and it fires only at assaulters "
                f'that begin more than {beyond:g}" away '
                f"({named('start_inches', start_inches, shown=f'{start_inches:g}')}); drop them."
            )
        return VehicleFire(
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
        cover=parse_cover(cover),
        target_pins=pins,
        target_quality=quality,
        target_models=models,
    )
    groups, reasons, _ = weapon_groups(
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
        return VehicleFire(Dist.constant(models), reasons)
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
    return VehicleFire(under_fire.map(lambda left: left[0]), reasons, fired=True)


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
    check_most_hits(groups, False, parameter)
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


def stand_and_fire_odds(
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
        cover=parse_cover(at_cover, "attacker_cover"),
        target_pins=at_pins,
        target_quality=at_quality,
        target_models=at_models,
    )
    groups, reasons, _ = weapon_groups(
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
