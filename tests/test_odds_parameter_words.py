"""A refusal of the odds functions is written once and told in each caller's words: a
Python caller is told the parameter it gave (``range_inches=-3``), the command line the
option ("--range -3"), exit status 2 and no traceback."""

from __future__ import annotations

import inspect
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from conftest import run_cli

from kriegsspiel import cli_odds
from kriegsspiel.errors import ParameterError, UsageError, named
from kriegsspiel.rulesets.house_clearing import odds as hc_odds
from kriegsspiel.rulesets.iron_cross import odds as ic_odds

# (the Python call, its words; the same mistake on the command line, its words)
SAME_MISTAKE: list[tuple[Callable[[], Any], str, list[str], str]] = [
    (
        lambda: ic_odds.shoot(target="infantry", range_inches=-3),
        "range_inches must be a distance of 0 or more inches, not -3",
        ["shoot", "-r", "iron-cross", "--range", "-3"],
        "--range must be a distance of 0 or more inches, not -3.0",
    ),
    (
        lambda: ic_odds.shoot(target="infantry", range_inches=20, screened=True),
        "enemy_infantry_near_vehicle=True and screened=True apply only to a firing vehicle "
        "(add firer_is_vehicle=True)",
        ["shoot", "-r", "iron-cross", "--range", "20", "--screened"],
        "--enemy-infantry-near and --screened apply only to a firing vehicle (add "
        "--firer-vehicle)",
    ),
    (
        lambda: ic_odds.shoot(target="medium tank", range_inches=20),
        "a vehicle target needs penetration=N and armour=N (from the orders of battle)",
        ["shoot", "-r", "iron-cross", "-t", "medium tank", "--range", "20"],
        "a vehicle target needs --penetration N and --armour N (from the orders of battle)",
    ),
    (
        lambda: ic_odds.activation(0, 0),
        "command_tokens=0: a further activation finds at least the command token its first "
        "activation left on the unit (the sheet's example counts it); give command_tokens=1 "
        "or more, or first_activation=True for the unit's first activation",
        ["activation", "--command-tokens", "0"],
        "--command-tokens 0: a further activation finds at least the command token its first "
        "activation left on the unit (the sheet's example counts it); give --command-tokens 1 "
        "or more, or --first for the unit's first activation",
    ),
    (
        lambda: ic_odds.reaction(-1, 0),
        "morale_markers must be a whole number 0 or more, not -1",
        ["reaction", "--morale-markers", "-1"],
        "--morale-markers must be a whole number 0 or more, not -1",
    ),
    (
        lambda: ic_odds.close_combat(attacker="medium tank"),
        "attacker='medium tank': close combat odds are for infantry and support squads; a "
        "vehicle's fire, or fire at one, is 'kriegsspiel odds shoot -r iron-cross'",
        ["close-combat", "--attacker", "medium tank"],
        "--attacker 'medium tank': close combat odds are for infantry and support squads; a "
        "vehicle's fire, or fire at one, is 'kriegsspiel odds shoot -r iron-cross'",
    ),
    (
        lambda: ic_odds.close_combat(defender_markers=-2),
        "defender_markers must be a whole number 0 or more, not -2",
        ["close-combat", "--defender-markers", "-2"],
        "--defender-markers must be a whole number 0 or more, not -2",
    ),
    (
        lambda: hc_odds.shoot(weapon="smg", range_inches=11, weapon_skill=120, visible=3),
        'range_inches=11: out of range, an SMG reaches 10" at most (sixteenth range)',
        ["shoot", "-r", "house-clearing", "-w", "smg", "--range", "11", "--weapon-skill",
         "120", "--visible", "3"],
        '--range 11: out of range, an SMG reaches 10" at most (sixteenth range)',
    ),
    (
        lambda: hc_odds.shoot(weapon="rifle", range_inches=5, weapon_skill=35, visible=3),
        "weapon_skill=35: a figure's weapon skill is 4D6x10 or 3D6x10, so a multiple of 10 "
        "from 30 to 240",
        ["shoot", "-r", "house-clearing", "-w", "rifle", "--range", "5", "--weapon-skill",
         "35", "--visible", "3"],
        "--weapon-skill 35: a figure's weapon skill is 4D6x10 or 3D6x10, so a multiple of 10 "
        "from 30 to 240",
    ),
    (
        lambda: hc_odds.shoot(
            weapon="grenade", range_inches=3, weapon_skill=100, visible=3, automatic=True
        ),
        "a grenade is thrown, not fired on automatic: drop automatic=True",
        ["shoot", "-r", "house-clearing", "-w", "grenade", "--range", "3", "--weapon-skill",
         "100", "--visible", "3", "--auto"],
        "a grenade is thrown, not fired on automatic: drop --auto",
    ),
    (
        lambda: hc_odds.shoot(
            weapon="rifle", range_inches=3, weapon_skill=100, visible=3, target_initiative=9
        ),
        "target_initiative must be 0 to 4 (below 0 the target is already dead or seriously "
        "wounded; no figure starts with more than 4), not 9",
        ["shoot", "-r", "house-clearing", "-w", "rifle", "--range", "3", "--weapon-skill",
         "100", "--visible", "3", "--target-initiative", "9"],
        "--target-initiative must be 0 to 4 (below 0 the target is already dead or seriously "
        "wounded; no figure starts with more than 4), not 9",
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
        (ic_odds.shoot, cli_odds.IRON_CROSS_SHOOT),
        (ic_odds.activation, cli_odds.IRON_CROSS_ACTIVATION),
        (ic_odds.reaction, cli_odds.IRON_CROSS_REACTION),
        (ic_odds.terrain_test, cli_odds.IRON_CROSS_TERRAIN_TEST),
        (ic_odds.close_combat, cli_odds.IRON_CROSS_CLOSE_COMBAT),
        (hc_odds.shoot, cli_odds.HOUSE_CLEARING_SHOOT),
        (hc_odds.figure, cli_odds.HOUSE_CLEARING_FIGURE),
    ],
    ids=lambda x: getattr(x, "__qualname__", ""),
)
def test_every_parameter_a_command_passes_has_its_option(
    function: Callable[..., Any], options: dict[str, str]
) -> None:
    """A refusal told on the command line never names a Python parameter: each one the
    command gives the odds function (all but the rules data) maps to an option."""
    parameters = set(inspect.signature(function).parameters) - {"data"}
    assert set(options) == parameters
    assert all(option.startswith("--") for option in options.values())


def test_a_parameter_error_is_told_each_way_and_keeps_its_python_words() -> None:
    err = ParameterError(
        f"{named('first_activation', True)} with {named('command_tokens', 2)}: drop "
        f"{named('command_tokens')} (not {named('target', 'tank')}, {named('dice', shown='N')})"
    )
    assert str(err) == (
        "first_activation=True with command_tokens=2: drop command_tokens "
        "(not target='tank', dice=N)"
    )
    options = {"first_activation": "--first", "command_tokens": "--command-tokens"}
    assert err.told_as(options | {"target": "-t", "dice": "--dice"}) == (
        "--first with --command-tokens 2: drop --command-tokens (not -t 'tank', --dice N)"
    )
    assert err.told_as(options).endswith("(not target='tank', dice=N)")  # (not mapped)
    assert err.parameters == ("first_activation", "command_tokens", "target", "dice")
    assert isinstance(err, UsageError) and isinstance(err, ValueError)
    assert str(pickle.loads(pickle.dumps(err))) == str(err)
