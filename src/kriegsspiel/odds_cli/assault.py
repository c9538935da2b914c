"""``odds assault`` and ``odds vehicle-assault``: Konflikt '47 and Bolt Action's close
quarters, infantry against infantry (hand-to-hand, point-blank or standing to fire) and
infantry against a vehicle. Apart because an assault is a fight of two units with options
of both sides, unlike a shot or a test; Iron Cross's close combat is its own command
(``odds close-combat``), which an assault asked for Iron Cross points to."""

from __future__ import annotations

from typing import Annotated

import typer

from kriegsspiel.cli_options import GivenOnce, JsonOpt, fail
from kriegsspiel.odds_cli.shared import (
    BA_FAMILY,
    EditionOpt,
    OfficerOpt,
    PinsOpt,
    QualityOpt,
    Ruleset,
    RulesFileOpt,
    edition,
    house_rules,
    only,
    show,
    told_as,
)
from kriegsspiel.odds_options import BOLT_ACTION_ASSAULT, BOLT_ACTION_VEHICLE_ASSAULT

commands = typer.Typer()


_CLOSE_COMBAT = (
    "Iron Cross's close combat has its own options: see 'kriegsspiel odds close-combat "
    "--help' (--attacker, --defender, --attacker-markers, --defender-markers, "
    "--defender-cover, --defender-moved)."
)


@commands.command(
    "assault",
    cls=GivenOnce,
    epilog="Example: kriegsspiel odds assault --attackers 10 --defenders 8",
)
def assault(
    ruleset: EditionOpt = None,
    attackers: Annotated[
        int, typer.Option("--attackers", help="Models in the assaulting unit.")
    ] = 10,
    attacker_quality: Annotated[
        str,
        typer.Option("--attacker-quality", help="inexperienced, regular or veteran attackers."),
    ] = "regular",
    defenders: Annotated[
        int, typer.Option("--defenders", help="Models in the assaulted unit.")
    ] = 10,
    defender_quality: Annotated[
        str,
        typer.Option("--defender-quality", help="inexperienced, regular or veteran defenders."),
    ] = "regular",
    attacker_assault_weapons: Annotated[
        int,
        typer.Option(
            "--attacker-assault-weapons",
            help="Attacking models with assault weapons (SMG, pistol...).",
        ),
    ] = 0,
    defender_assault_weapons: Annotated[
        int,
        typer.Option(
            "--defender-assault-weapons",
            help="Defending models with assault weapons (SMG, pistol...).",
        ),
    ] = 0,
    attacker_pins: Annotated[
        int, typer.Option("--attacker-pins", help="Pins on the attackers (their morale).")
    ] = 0,
    defender_pins: Annotated[
        int, typer.Option("--defender-pins", help="Pins on the defenders (their morale).")
    ] = 0,
    attacker_mode: Annotated[
        str, typer.Option("--attacker-mode", help="hand-to-hand or point-blank (Konflikt '47).")
    ] = "hand-to-hand",
    defender_mode: Annotated[
        str,
        typer.Option(
            "--defender-mode",
            help="hand-to-hand, or in Konflikt '47 point-blank or stand-and-fire (a unit "
            "without an order: it shoots first, then fights hand-to-hand).",
        ),
    ] = "hand-to-hand",
    attacker_officer: Annotated[
        str | None,
        typer.Option(
            "--attacker-officer",
            help="An officer in range of the attackers (his morale bonus): second-lieutenant, "
            "first-lieutenant, captain, major.",
        ),
    ] = None,
    defender_officer: Annotated[
        str | None,
        typer.Option(
            "--defender-officer",
            help="An officer in range of the defenders: second-lieutenant ... major.",
        ),
    ] = None,
    defender_weapon: Annotated[
        list[str],
        typer.Option(
            "--defender-weapon",
            help="NAME[:COUNT], repeatable: the weapons the defenders fire as they stand and fire.",
        ),
    ] = [],  # noqa: B006
    attacker_cover: Annotated[
        str,
        typer.Option(
            "--attacker-cover",
            help="none|soft|hard: the assaulters' cover where they stop, as the defenders "
            "stand and fire.",
        ),
    ] = "none",
    attacker_start_models: Annotated[
        int | None,
        typer.Option(
            "--attacker-start-models",
            help="The assaulting unit's models at the start of the game (its half-strength "
            "check under the defenders' fire).",
            show_default="--attackers",
        ),
    ] = None,
    rules_file: RulesFileOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Infantry against infantry in close quarters (Konflikt '47, Bolt Action)."""
    ruleset, rules = edition(ruleset, rules_file, "assault")
    only(ruleset, BA_FAMILY, "assault", _CLOSE_COMBAT if ruleset is Ruleset.iron_cross else "")
    from kriegsspiel.rulesets.bolt_action.odds import assault_odds

    with told_as(BOLT_ACTION_ASSAULT):
        report = assault_odds(
            ruleset.value,
            attackers=attackers,
            attacker_quality=attacker_quality,
            defenders=defenders,
            defender_quality=defender_quality,
            attacker_assault_weapons=attacker_assault_weapons,
            defender_assault_weapons=defender_assault_weapons,
            attacker_pins=attacker_pins,
            defender_pins=defender_pins,
            attacker_mode=attacker_mode,
            defender_mode=defender_mode,
            attacker_officer=attacker_officer,
            defender_officer=defender_officer,
            defender_weapons=defender_weapon,
            attacker_cover=attacker_cover,
            attacker_start_models=attacker_start_models,
            **house_rules(rules),
        )
    show(report, as_json, rules, BOLT_ACTION_ASSAULT)


@commands.command(
    "vehicle-assault",
    cls=GivenOnce,
    epilog='Example: kriegsspiel odds vehicle-assault --target "medium tank" --anti-tank',
)
def vehicle_assault(
    ruleset: EditionOpt = None,
    models: Annotated[
        int, typer.Option("--models", help="Models in the assaulting infantry unit.")
    ] = 8,
    quality: QualityOpt = "regular",
    target: Annotated[
        str,
        typer.Option(
            "--target",
            "-t",
            help="The vehicle, as on the damage value table (kriegsspiel army --targets).",
        ),
    ] = "medium tank",
    vehicle_order: Annotated[
        str,
        typer.Option("--vehicle-order", help="What the vehicle did: stationary, advanced or ran."),
    ] = "stationary",
    anti_tank: Annotated[
        bool, typer.Option("--anti-tank", help="The infantry carry anti-tank weapons.")
    ] = False,
    pins: PinsOpt = 0,
    officer: OfficerOpt = None,
    open_topped: Annotated[
        bool, typer.Option("--open-topped", help="The vehicle is open-topped.")
    ] = False,
    automaton: Annotated[
        bool, typer.Option("--automaton", help="The vehicle is an automaton (K47).")
    ] = False,
    target_quality: Annotated[
        str, typer.Option("--target-quality", help="The vehicle crew's quality.")
    ] = "regular",
    target_pins: Annotated[
        int, typer.Option("--target-pins", help="Pins on the vehicle (its crew's tests, its fire).")
    ] = 0,
    target_immobilised: Annotated[
        bool,
        typer.Option(
            "--target-immobilised",
            help="The vehicle was immobilised before: a further Immobilised knocks it out.",
        ),
    ] = False,
    target_officer: Annotated[
        str | None,
        typer.Option(
            "--target-officer",
            help="An officer in range of the vehicle: his morale bonus to its crew's test "
            "when it catches fire: second-lieutenant, first-lieutenant, captain, major.",
        ),
    ] = None,
    start_inches: Annotated[
        float | None,
        typer.Option(
            "--from",
            help='Inches between the assaulters and the vehicle as the assault begins (K47: from beyond 6" the vehicle fires first).',
        ),
    ] = None,
    vehicle_weapon: Annotated[
        list[str],
        typer.Option(
            "--vehicle-weapon",
            help="NAME[:COUNT], repeatable: the vehicle's weapons whose arc the assaulters are in (K47, with --from).",
        ),
    ] = [],  # noqa: B006
    cover: Annotated[
        str,
        typer.Option("--cover", help="none|soft|hard: the assaulters' cover as the vehicle fires."),
    ] = "none",
    start_models: Annotated[
        int | None,
        typer.Option(
            "--start-models",
            help="The assaulting unit's models at the start of the game (its half-strength "
            "check); also taken as --attacker-start-models, assault's name for it.",
            show_default="--models",
        ),
    ] = None,
    rules_file: RulesFileOpt = None,
    as_json: JsonOpt = False,
    attacker_start_models: Annotated[
        int | None,
        # (hidden: a second name in the help's first column cut the names at 80 columns)
        typer.Option("--attacker-start-models", hidden=True),
    ] = None,
) -> None:
    """Infantry assaulting a vehicle (Konflikt '47, Bolt Action)."""
    if attacker_start_models is not None:  # (assault's name for --start-models)
        if start_models is not None:
            fail(
                "--start-models and --attacker-start-models are the same option (the "
                "second is assault's name for it): give it once."
            )
        start_models = attacker_start_models
    ruleset, rules = edition(ruleset, rules_file, "vehicle-assault")
    only(ruleset, BA_FAMILY, "vehicle-assault")
    from kriegsspiel.rulesets.bolt_action.odds import vehicle_assault_odds

    with told_as(BOLT_ACTION_VEHICLE_ASSAULT):
        report = vehicle_assault_odds(
            ruleset.value,
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
            vehicle_weapons=vehicle_weapon,
            cover=cover,
            start_models=start_models,
            **house_rules(rules),
        )
    show(report, as_json, rules, BOLT_ACTION_VEHICLE_ASSAULT)
