"""A refusal of the odds functions is written once and told in each caller's words: a
Python caller is told the parameter it gave (``range_inches=-3``), the command line the
option ("--range -3"), exit status 2 and no traceback."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from conftest import run_cli

from kriegsspiel import odds_options
from kriegsspiel.errors import ParameterError, UsageError, named
from kriegsspiel.rulesets.bolt_action import odds as ba_odds
from kriegsspiel.rulesets.bolt_action.shot import Situation
from kriegsspiel.rulesets.house_clearing import odds as hc_odds
from kriegsspiel.rulesets.iron_cross import odds as ic_odds

RIFLES = {"weapons": ["rifle:5"], "target": "regular infantry"}
TWO_FIVES = {"attackers": 5, "attacker_quality": "regular", "defenders": 5,
             "defender_quality": "regular"}  # fmt: skip
AT_A_TANK = {"models": 8, "quality": "regular", "target": "medium tank",
             "vehicle_order": "stationary"}  # fmt: skip

# (the Python call, its words; the same mistake on the command line, its words)
SAME_MISTAKE: list[tuple[Callable[[], Any], str, list[str], str]] = [
    (
        lambda: ic_odds.shoot(target="infantry", range_inches=-3),
        "range_inches must be a distance of 0 or more inches, not -3.",
        ["shoot", "-r", "iron-cross", "--range", "-3"],
        "--range must be a distance of 0 or more inches, not -3.",
    ),
    (
        lambda: ic_odds.shoot(target="infantry", range_inches=20, screened=True),
        "enemy_infantry_near_vehicle=True and screened=True apply only to a firing vehicle "
        "(add firer_is_vehicle=True).",
        ["shoot", "-r", "iron-cross", "--range", "20", "--screened"],
        "--enemy-infantry-near and --screened apply only to a firing vehicle (add "
        "--firer-vehicle).",
    ),
    (
        lambda: ic_odds.shoot(target="medium tank", range_inches=20),
        "a vehicle target needs penetration=N and armour=N (from the orders of battle).",
        ["shoot", "-r", "iron-cross", "-t", "medium tank", "--range", "20"],
        "a vehicle target needs --penetration N and --armour N (from the orders of battle).",
    ),
    (
        lambda: ic_odds.activation(0, 0),
        "command_tokens=0: a further activation finds at least the command token its first "
        "activation left on the unit (the sheet's example counts it); give command_tokens=1 "
        "or more, or first_activation=True for the unit's first activation.",
        ["activation", "--command-tokens", "0"],
        "--command-tokens 0: a further activation finds at least the command token its first "
        "activation left on the unit (the sheet's example counts it); give --command-tokens 1 "
        "or more, or --first for the unit's first activation.",
    ),
    (
        lambda: ic_odds.reaction(-1, 0),
        "morale_markers must be a whole number 0 or more, not -1.",
        ["reaction", "--morale-markers", "-1"],
        "--morale-markers must be a whole number 0 or more, not -1.",
    ),
    (
        lambda: ic_odds.close_combat(attacker="medium tank"),
        "attacker='medium tank': close combat odds are for infantry and support squads; a "
        "vehicle's fire, or fire at one, is kriegsspiel.rulesets.iron_cross.odds.shoot.",
        ["close-combat", "--attacker", "medium tank"],
        "--attacker 'medium tank': close combat odds are for infantry and support squads; a "
        "vehicle's fire, or fire at one, is 'kriegsspiel odds shoot -r iron-cross'.",
    ),
    (
        lambda: ic_odds.close_combat(defender_markers=-2),
        "defender_markers must be a whole number 0 or more, not -2.",
        ["close-combat", "--defender-markers", "-2"],
        "--defender-markers must be a whole number 0 or more, not -2.",
    ),
    (
        lambda: hc_odds.shoot(weapon="smg", range_inches=11, weapon_skill=120, visible=3),
        'range_inches=11: out of range, an SMG reaches 10" at most (sixteenth range).',
        ["shoot", "-r", "house-clearing", "-w", "smg", "--range", "11", "--weapon-skill",
         "120", "--visible", "3"],
        '--range 11: out of range, an SMG reaches 10" at most (sixteenth range).',
    ),
    (
        lambda: hc_odds.shoot(weapon="rifle", range_inches=5, weapon_skill=35, visible=3),
        "weapon_skill=35: a figure's weapon skill is 4D6x10 or 3D6x10, so a multiple of 10 "
        "from 30 to 240.",
        ["shoot", "-r", "house-clearing", "-w", "rifle", "--range", "5", "--weapon-skill",
         "35", "--visible", "3"],
        "--weapon-skill 35: a figure's weapon skill is 4D6x10 or 3D6x10, so a multiple of 10 "
        "from 30 to 240.",
    ),
    (
        lambda: hc_odds.shoot(
            weapon="grenade", range_inches=3, weapon_skill=100, visible=3, automatic=True
        ),
        "a grenade is thrown, not fired on automatic: drop automatic=True.",
        ["shoot", "-r", "house-clearing", "-w", "grenade", "--range", "3", "--weapon-skill",
         "100", "--visible", "3", "--auto"],
        "a grenade is thrown, not fired on automatic: drop --auto.",
    ),
    (
        lambda: hc_odds.shoot(
            weapon="rifle", range_inches=3, weapon_skill=100, visible=3, target_initiative=9
        ),
        "target_initiative must be 0 to 4 (below 0 the target is already dead or seriously "
        "wounded; no figure starts with more than 4), not 9.",
        ["shoot", "-r", "house-clearing", "-w", "rifle", "--range", "3", "--weapon-skill",
         "100", "--visible", "3", "--target-initiative", "9"],
        "--target-initiative must be 0 to 4 (below 0 the target is already dead or seriously "
        "wounded; no figure starts with more than 4), not 9.",
    ),
    (
        lambda: ba_odds.shoot_odds("konflikt47", **RIFLES, situation=Situation(-3)),
        "situation.range_inches must be a distance of 0 or more inches, not -3.",
        ["shoot", "-w", "rifle:5", "--range", "-3"],
        "--range must be a distance of 0 or more inches, not -3.",
    ),
    (
        lambda: ba_odds.shoot_odds("konflikt47", **RIFLES, situation=Situation(30)),
        'Rifle reaches 24"; a target at 30" is out of range (give situation.range_inches=24 '
        "or less).",
        ["shoot", "-w", "rifle:5", "--range", "30"],
        'Rifle reaches 24"; a target at 30" is out of range (give --range 24 or less).',
    ),
    (
        lambda: ba_odds.shoot_odds(
            "konflikt47", **RIFLES, situation=Situation(10, small_unit=True, target_models=3)
        ),
        "situation.small_unit=True with situation.target_models=3: a small unit is one of 2 "
        "models or fewer at the start of the game, and this one still has 3; drop "
        "situation.small_unit=True (or give situation.target_models=2 or fewer).",
        ["shoot", "-w", "rifle:5", "--small-unit", "--target-models", "3"],
        "--small-unit with --target-models 3: a small unit is one of 2 models or fewer at the "
        "start of the game, and this one still has 3; drop --small-unit (or give "
        "--target-models 2 or fewer).",
    ),
    (
        lambda: ba_odds.shoot_odds(
            "konflikt47", weapons=["rilfe:3"], target="regular infantry", situation=Situation(10)
        ),
        "'rilfe:3' in weapons: Unknown weapon 'rilfe' (did you mean 'Rifle'?).",
        ["shoot", "-w", "rilfe:3"],
        "--weapon 'rilfe:3': Unknown weapon 'rilfe' (did you mean 'Rifle'?).",
    ),
    (
        lambda: ba_odds.order_test_odds("bolt-action-1", quality="inexperienced", pins=8),
        "pins=8: a unit of inexperienced troops with 8 pins (its morale value is 8) is removed "
        "from play and takes no test; give pins=7 or fewer.",
        ["order-test", "-r", "bolt-action-1", "--quality", "inexperienced", "--pins", "8"],
        "--pins 8: a unit of inexperienced troops with 8 pins (its morale value is 8) is "
        "removed from play and takes no test; give --pins 7 or fewer.",
    ),
    (
        lambda: ba_odds.shoot_odds(
            "bolt-action-1",
            weapons=["rifle"],
            target="medium tank",
            situation=Situation(10, target_pins=12),
        ),
        "situation.target_pins=12: a vehicle (regular crew) with 12 pins (its morale value is "
        "9) is removed from play and cannot be shot at; give situation.target_pins=8 or fewer.",
        ["shoot", "-r", "bolt-action-1", "-w", "rifle", "--range", "10", "--target",
         "medium tank", "--target-pins", "12"],
        "--target-pins 12: a vehicle (regular crew) with 12 pins (its morale value is 9) is "
        "removed from play and cannot be shot at; give --target-pins 8 or fewer.",
    ),
    (
        lambda: ba_odds.assault_odds(
            "konflikt47",
            attackers=5,
            attacker_quality="regular",
            defenders=3,
            defender_quality="regular",
            defender_pins=9,
        ),
        "defender_pins=9: a unit of regular troops with 9 pins (its morale value is 9) is "
        "removed from play and fights no fight; give defender_pins=8 or fewer.",
        ["assault", "--defenders", "3", "--defender-pins", "9"],
        "--defender-pins 9: a unit of regular troops with 9 pins (its morale value is 9) is "
        "removed from play and fights no fight; give --defender-pins 8 or fewer.",
    ),
    (
        lambda: ba_odds.shoot_odds(
            "bolt-action-1",
            weapons=["Tesla cannon"],
            target="regular infantry",
            situation=Situation(10),
        ),
        "'Tesla cannon' in weapons: 'Tesla cannon' is a Konflikt '47 weapon, not on the Bolt "
        "Action (1st edition) weapon chart; give ruleset='konflikt47' for Konflikt '47's odds.",
        ["shoot", "-r", "bolt-action-1", "-w", "Tesla cannon", "--range", "10"],
        "--weapon 'Tesla cannon': 'Tesla cannon' is a Konflikt '47 weapon, not on the Bolt "
        "Action (1st edition) weapon chart; give --ruleset konflikt47 for Konflikt '47's odds.",
    ),
    (
        lambda: ba_odds.vehicle_assault_odds(
            "bolt-action-1",
            models=3,
            quality="regular",
            target="light walker",
            vehicle_order="stationary",
        ),
        "target='light walker': 'light walker' is a Konflikt '47 damage value, not on the Bolt "
        "Action (1st edition) damage value table; give ruleset='konflikt47' for Konflikt "
        "'47's odds.",
        ["vehicle-assault", "-r", "bolt-action-1", "--models", "3", "--target", "light walker"],
        "--target 'light walker': 'light walker' is a Konflikt '47 damage value, not on the "
        "Bolt Action (1st edition) damage value table; give --ruleset konflikt47 for Konflikt "
        "'47's odds.",
    ),
    (
        lambda: ba_odds.morale_check_odds("konflikt47", quality="elite"),
        "quality='elite': Unknown quality 'elite'. Known qualities: inexperienced, regular, veteran.",
        ["morale", "--quality", "elite"],
        "--quality 'elite': Unknown quality 'elite'. Known qualities: inexperienced, regular, veteran.",
    ),
    (
        lambda: ba_odds.assault_odds("konflikt47", **TWO_FIVES, defender_mode="stand-and-fire"),
        "defender_mode='stand-and-fire': give the weapons the defenders fire with "
        "defender_weapons=['NAME[:COUNT]', ...], e.g. defender_weapons=['rifle:8'].",
        ["assault", "--attackers", "5", "--defenders", "5", "--defender-mode",
         "stand-and-fire"],
        "--defender-mode stand-and-fire: give the weapons the defenders fire with "
        "--defender-weapon NAME[:COUNT], e.g. --defender-weapon rifle:8.",
    ),
    (
        lambda: ba_odds.vehicle_assault_odds("konflikt47", **AT_A_TANK, start_inches=13),
        "start_inches=13: an assault begins within the assaulters' Run (12\"); give "
        "start_inches=12 or less.",
        ["vehicle-assault", "--from", "13"],
        "--from 13: an assault begins within the assaulters' Run (12\"); give --from 12 or less.",
    ),
    (
        lambda: ba_odds.vehicle_assault_odds("konflikt47", **AT_A_TANK, start_inches=9),
        "start_inches=9: the vehicle fires at assaulters that begin more than 6\" away; give "
        "its weapons whose arc they are in with vehicle_weapons=['NAME[:COUNT]', ...] (or "
        "leave out start_inches if none bears on them).",
        ["vehicle-assault", "--from", "9"],
        "--from 9: the vehicle fires at assaulters that begin more than 6\" away; give its "
        "weapons whose arc they are in with --vehicle-weapon NAME[:COUNT] (or leave out "
        "--from if none bears on them).",
    ),
    (
        lambda: ba_odds.vehicle_assault_odds("bolt-action-1", **AT_A_TANK, automaton=True),
        "automaton=True is a Konflikt '47 rule; Bolt Action (1st edition) has no automata.",
        ["vehicle-assault", "-r", "bolt-action-1", "--automaton"],
        "--automaton is a Konflikt '47 rule; Bolt Action (1st edition) has no automata.",
    ),
    (
        lambda: ba_odds.vehicle_assault_odds("konflikt47", **(AT_A_TANK | {"target": "regular infantry"})),
        "regular infantry is not a vehicle; use assault_odds for infantry against infantry.",
        ["vehicle-assault", "--models", "8", "--target", "regular infantry"],
        "regular infantry is not a vehicle; use 'odds assault' for infantry against infantry.",
    ),
]  # fmt: skip
IDS = [" ".join(args[:3]) + f" ({i})" for i, (_, _, args, _) in enumerate(SAME_MISTAKE)]


@pytest.mark.parametrize(("call", "python", "args", "option"), SAME_MISTAKE, ids=IDS)
def test_a_python_caller_is_told_its_parameter(
    call: Callable[[], Any], python: str, args: list[str], option: str
) -> None:
    with pytest.raises(UsageError) as err:
        call()
    assert str(err.value) == python
    assert "--" not in str(err.value)


@pytest.mark.parametrize(("call", "python", "args", "option"), SAME_MISTAKE, ids=IDS)
def test_the_command_line_is_told_its_option(
    call: Callable[[], Any], python: str, args: list[str], option: str
) -> None:
    done = run_cli("odds", *args)
    assert done.returncode == 2, done.stdout
    assert done.stderr == f"kriegsspiel: error: {option}\n"
    assert "Traceback" not in done.stderr and done.stdout == ""


@pytest.mark.parametrize(
    ("function", "options"),
    [
        (ic_odds.shoot, odds_options.IRON_CROSS_SHOOT),
        (ic_odds.activation, odds_options.IRON_CROSS_ACTIVATION),
        (ic_odds.reaction, odds_options.IRON_CROSS_REACTION),
        (ic_odds.terrain_test, odds_options.IRON_CROSS_TERRAIN_TEST),
        (ic_odds.close_combat, odds_options.IRON_CROSS_CLOSE_COMBAT),
        (hc_odds.shoot, odds_options.HOUSE_CLEARING_SHOOT),
        (hc_odds.figure, odds_options.HOUSE_CLEARING_FIGURE),
        (ba_odds.shoot_odds, odds_options.BOLT_ACTION_SHOOT),
        (ba_odds.order_test_odds, odds_options.BOLT_ACTION_ORDER_TEST),
        (ba_odds.morale_check_odds, odds_options.BOLT_ACTION_MORALE),
        (ba_odds.assault_odds, odds_options.BOLT_ACTION_ASSAULT),
        (ba_odds.vehicle_assault_odds, odds_options.BOLT_ACTION_VEHICLE_ASSAULT),
    ],
    ids=lambda x: getattr(x, "__qualname__", ""),
)
def test_every_parameter_a_command_passes_has_its_option(
    function: Callable[..., Any], options: dict[str, str]
) -> None:
    """A refusal told on the command line never names a Python parameter: each one the
    command gives the odds function (all but the rules data, or its text read from the
    --rules-file) maps to an option; a Bolt Action situation's by each field."""
    parameters = set(inspect.signature(function).parameters) - {"data", "rules_text"}
    if "situation" in parameters:
        parameters.remove("situation")
        parameters |= {f"situation.{f.name}" for f in dataclasses.fields(Situation)}
    assert set(options) == parameters
    assert all(option.startswith("--") for option in options.values())


def test_the_play_aid_finds_each_bolt_action_parameters_one_option() -> None:
    """The aid tells a refusal by the options of whichever question it asked: a parameter
    two questions share is the same option in each."""
    maps = [
        odds_options.BOLT_ACTION_SHOOT,
        odds_options.BOLT_ACTION_ORDER_TEST,
        odds_options.BOLT_ACTION_MORALE,
        odds_options.BOLT_ACTION_ASSAULT,
        odds_options.BOLT_ACTION_VEHICLE_ASSAULT,
    ]
    for one in maps:
        assert all(odds_options.BOLT_ACTION[name] == option for name, option in one.items())


def test_a_rules_helper_names_the_rules_file_as_the_caller_gave_it() -> None:
    with pytest.raises(UsageError) as refused:
        ba_odds.morale_check_odds("konflikt47", quality="regular", rules_file="")
    assert str(refused.value).startswith("rules_file was given an empty name ('')")


def test_a_parameter_error_is_told_each_way_and_keeps_its_python_words() -> None:
    err = ParameterError(
        f"{named('first_activation', True)} with {named('command_tokens', 2)}: drop "
        f"{named('command_tokens')} (not {named('target', 'tank')}, {named('dice', shown='N')})"
    )
    assert str(err) == (
        "first_activation=True with command_tokens=2: drop command_tokens "
        "(not target='tank', dice=N)."  # (a sentence: its full stop added)
    )
    options = {"first_activation": "--first", "command_tokens": "--command-tokens"}
    assert err.told_as(options | {"target": "-t", "dice": "--dice"}) == (
        "--first with --command-tokens 2: drop --command-tokens (not -t 'tank', --dice N)."
    )
    assert err.told_as(options).endswith("(not target='tank', dice=N).")  # (not mapped)
    assert err.parameters == ("first_activation", "command_tokens", "target", "dice")
    assert isinstance(err, UsageError) and isinstance(err, ValueError)
    assert str(pickle.loads(pickle.dumps(err))) == str(err)
