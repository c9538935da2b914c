"""Who carries what: army lists that no table could play are refused, at their line, with
what is wrong and what would be right (docs/rules/konflikt47.md and bolt-action-1.md,
"Who carries what"); every shipped and test list still loads."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from conftest import run_cli

from kriegsspiel.errors import DataFileError
from kriegsspiel.rulesets.bolt_action import rules_for
from kriegsspiel.rulesets.bolt_action.army import ArmyList, load_army, sample_armies

K47 = "konflikt47"
BA1 = "bolt-action-1"
TESTS = Path(__file__).resolve().parent

LIST = """\
name: Test list
ruleset: {ruleset}
faction: Nowhere
points: 100
units:
  - name: {unit}
    type: {type}
    quality: regular
    points: 100
{body}"""


def army(
    tmp_path: Path, body: str, *, type: str, unit: str = "Test Unit", ruleset: str = K47
) -> Path:
    text = LIST.format(ruleset=ruleset, unit=unit, type=type, body=textwrap.indent(body, "    "))
    path = tmp_path / "army.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def models(*rows: str) -> str:
    return "models:\n" + "".join(f"  - {row}\n" for row in rows)


def refusal(path: Path, ruleset: str = K47) -> str:
    with pytest.raises(DataFileError) as info:
        load_army(path, ruleset)
    message = str(info.value)
    assert str(path) in message and "Traceback" not in message
    assert len(message.splitlines()) == 1, message  # one problem, one line
    return message


def line_of(path: Path, needle: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


# ------------------------------------------------------------------- team weapons' crews
@pytest.mark.parametrize("ruleset", [K47, BA1])
def test_a_team_weapon_without_a_crewman_is_refused_at_its_unit(
    tmp_path: Path, ruleset: str
) -> None:
    """A one-man MMG team: the MMG is fired by a crew of two, and no one crews it. The
    unit's models as a whole are wrong (one is missing), so it is told at 'models:'."""
    path = army(
        tmp_path, models("{name: Gunner, weapons: [MMG]}"), type="team", unit="MMG Team",
        ruleset=ruleset,
    )  # fmt: skip
    message = refusal(path, ruleset)
    assert f"line {line_of(path, 'models:')}, field units.0.models: " in message
    assert "unit 'MMG Team', model 'Gunner' (" in message
    assert "a team weapon (Team on the weapons chart) is fired by a crew of two or more" in message
    assert "the unit has 1 team weapon but 0 such men: add 1 crewman (e.g. {name: Loader})" in (
        message
    )
    fixed = army(
        tmp_path,
        models("{name: Gunner, weapons: [MMG]}", "{name: Loader, count: 2}"),
        type="team",
        ruleset=ruleset,
    )
    assert load_army(fixed, ruleset).units[0].model_count == 3


def test_each_team_weapon_needs_its_own_crewman(tmp_path: Path) -> None:
    """Bolt Action 1st edition's LMG is a team weapon: a squad's two Bren gunners need two
    men beside them who carry no team weapon; a lone Bren gunner is refused too."""
    two_brens = models(
        "{name: Corporal, weapons: [SMG], nco: true}",
        "{name: Bren gunner, count: 2, weapons: [LMG]}",
    )
    message = refusal(army(tmp_path, two_brens, type="infantry", ruleset=BA1), BA1)
    assert "model 'Bren gunner' (2 men, each with Light machine gun (LMG))" in message
    assert "the unit has 2 team weapons but 1 such man: add 1 crewman (e.g. {name: Loader})" in (
        message
    )
    crewed = two_brens + "  - {name: Rifleman, weapons: [Rifle]}\n"
    assert load_army(army(tmp_path, crewed, type="infantry", ruleset=BA1), BA1)
    alone = models("{name: Bren gunner, weapons: [LMG]}")
    assert "add 1 crewman" in refusal(army(tmp_path, alone, type="infantry", ruleset=BA1), BA1)
    # Konflikt '47's LMG is no team weapon: a lone gunner may carry it
    assert load_army(army(tmp_path, alone, type="infantry", ruleset=K47), K47)


def test_a_team_is_one_team_weapon(tmp_path: Path) -> None:
    path = army(
        tmp_path,
        models("{name: Gunner, count: 2, weapons: [MMG]}", "{name: Loader, count: 4}"),
        type="team",
        unit="Double MMG Team",
    )
    message = refusal(path)
    assert "field units.0.models: unit 'Double MMG Team' is a team with 2 team weapons" in message
    assert "a team is one team weapon and its crew, with one order die" in message
    # a team with no team weapon (a sniper team, say) is a team still
    assert load_army(
        army(tmp_path, models("{name: Sniper, count: 2, weapons: [Rifle]}"), type="team")
    )


# --------------------------------------------------------------- Fixed weapons and guns
@pytest.mark.parametrize(
    ("weapon", "ruleset"),
    [("MMG", K47), ("Medium mortar", K47), ("Heavy mortar", BA1), ("HMG", BA1),
     ("Schwerefeld Projektor", K47)],
)  # fmt: skip
def test_a_fixed_weapon_in_an_infantry_squad_is_refused_at_its_line(
    tmp_path: Path, weapon: str, ruleset: str
) -> None:
    body = models(
        "{name: Sergeant, weapons: [SMG], nco: true}",
        f"{{name: Rifleman, count: 8, weapons: [Rifle, {weapon}]}}",
    )
    path = army(tmp_path, body, type="infantry", unit="Rifle Squad", ruleset=ruleset)
    message = refusal(path, ruleset)
    assert f"line {line_of(path, weapon)}, field units.0.models.1.weapons.1: " in message
    assert "unit 'Rifle Squad', model 'Rifleman': the " in message
    assert "is a Fixed team weapon (set up on its mount, it cannot fire on the move)" in message
    assert "give it a unit of its own with type: team (or artillery) and its crew" in message
    # as its own team with its crew it is taken
    team = models(f"{{name: Gunner, weapons: [{weapon}]}}", "{name: Loader, count: 2}")
    assert load_army(army(tmp_path, team, type="team", ruleset=ruleset), ruleset)


def test_a_light_mortar_and_a_flamethrower_may_go_with_a_squad_crewed(tmp_path: Path) -> None:
    """Team weapons that are not Fixed may be a squad's, each with its crewman."""
    body = models(
        "{name: Sergeant, weapons: [SMG], nco: true}",
        "{name: Mortarman, weapons: [Light mortar]}",
        "{name: Flamethrower, weapons: [Flamethrower (infantry)]}",
        "{name: Rifleman, count: 2, weapons: [Rifle]}",
    )
    assert load_army(army(tmp_path, body, type="infantry"))


@pytest.mark.parametrize("ruleset", [K47, BA1])
@pytest.mark.parametrize(
    ("type", "weapon"),
    [("infantry", "Heavy howitzer"), ("team", "Heavy howitzer"), ("team", "Medium AT gun"),
     ("team", "Light automatic cannon"), ("infantry", "Super-heavy AT gun")],
)  # fmt: skip
def test_a_gun_outside_an_artillery_unit_is_refused_at_its_line(
    tmp_path: Path, ruleset: str, type: str, weapon: str
) -> None:
    body = models(f"{{name: Rifleman, weapons: [{weapon}]}}", "{name: Crew, count: 3}")
    path = army(tmp_path, body, type=type, unit="Gun Crew", ruleset=ruleset)
    message = refusal(path, ruleset)
    assert f"line {line_of(path, weapon)}, field units.0.models.0.weapons.0: " in message
    assert f"unit 'Gun Crew', model 'Rifleman': the {weapon} is a gun, fielded as an " in message
    assert "moving by the terrain table's artillery column" in message
    assert {"infantry": "an infantry squad", "team": "a team"}[type] in message
    assert "give it a unit of its own with type: artillery and its crew" in message
    assert load_army(army(tmp_path, body, type="artillery", ruleset=ruleset), ruleset)


def test_an_artillery_unit_is_one_gun_and_its_crew(tmp_path: Path) -> None:
    riflemen = models("{name: Crew, count: 3, weapons: [Rifle]}")
    message = refusal(army(tmp_path, riflemen, type="artillery", unit="No Gun"))
    assert "field units.0.models: unit 'No Gun' is artillery, a gun and its crew, but none of" in (
        message
    )
    assert "give one model its gun, or make the unit infantry or a team" in message
    two = models("{name: 6-pdr, count: 2, weapons: [Medium AT gun]}", "{name: Crew, count: 4}")
    message = refusal(army(tmp_path, two, type="artillery", unit="Battery"))
    assert "unit 'Battery' is artillery with 2 guns ('6-pdr'): an artillery unit is one gun" in (
        message
    )
    assert "make each gun a unit of its own" in message


# -------------------------------------------------------------------------- flamethrowers
@pytest.mark.parametrize(
    ("ruleset", "weapon"),
    [(K47, "Flamethrower (vehicle)"), (K47, "Light flamethrower (vehicle)"),
     (BA1, "Flamethrower (vehicle)")],
)  # fmt: skip
def test_a_vehicle_flamethrower_on_a_man_is_refused(
    tmp_path: Path, ruleset: str, weapon: str
) -> None:
    body = models(f"{{name: Pioneer, weapons: [{weapon}]}}", "{name: Helper}")
    path = army(tmp_path, body, type="infantry", unit="Pioneers", ruleset=ruleset)
    message = refusal(path, ruleset)
    assert f"line {line_of(path, weapon)}, field units.0.models.0.weapons.0: " in message
    assert f"unit 'Pioneers', model 'Pioneer': the {weapon} is a vehicle's weapon" in message
    assert "only a vehicle mounts it, in its 'vehicle.weapons'; a man carries " in message
    assert "'Flamethrower (infantry)'" in message


@pytest.mark.parametrize("ruleset", [K47, BA1])
def test_the_infantry_flamethrower_on_a_vehicle_is_refused(tmp_path: Path, ruleset: str) -> None:
    body = """\
vehicle:
  kind: tracked
  damage_value_of: carrier
  weapons:
    - {weapon: Flamethrower (infantry), facing: front}
"""
    path = army(tmp_path, body, type="vehicle", unit="Wasp", ruleset=ruleset)
    message = refusal(path, ruleset)
    assert f"line {line_of(path, 'Flamethrower (infantry)')}, " in message
    assert "field units.0.vehicle.weapons.0.weapon: unit 'Wasp', vehicle weapon: the " in message
    assert "Flamethrower (infantry) is carried by a man" in message
    assert "a vehicle mounts " in message and "'Flamethrower (vehicle)'" in message
    mounted = body.replace("Flamethrower (infantry)", "Flamethrower (vehicle)")
    assert load_army(army(tmp_path, mounted, type="vehicle", ruleset=ruleset), ruleset)


def test_a_vehicle_still_mounts_any_other_weapon_of_the_chart(tmp_path: Path) -> None:
    """Guns, team weapons and small arms on a vehicle are its mounts: no crew is counted."""
    mounts = ["Heavy howitzer", "MMG", "Medium mortar", "Bazooka", "Rifle", "Heavy AT gun"]
    body = "vehicle:\n  kind: tracked\n  damage_value_of: medium tank\n  weapons:\n" + "".join(
        f"    - {{weapon: {w}, facing: turret}}\n" for w in mounts
    )
    assert load_army(army(tmp_path, body, type="vehicle"))


# ----------------------------------------------------------------- what still loads
def test_every_shipped_and_test_list_fields_its_weapons_as_the_rules_do() -> None:
    """The shipped samples and the test fixtures are all playable lists: none is refused."""
    paths = [p for r in (K47, BA1) for p in sample_armies(r)]
    paths += sorted((TESTS / "data" / "sim").glob("patrol-*.yaml"))
    assert len(paths) >= 6
    for path in paths:
        assert isinstance(load_army(path), ArmyList), path


@pytest.mark.parametrize("ruleset", [K47, BA1])
def test_the_weapons_charts_say_which_weapons_are_guns_and_which_vehicles_only(
    ruleset: str,
) -> None:
    rows = rules_for(ruleset).data.weapons.rows
    fielded = {w.name: w.fielded for w in rows if w.fielded is not None}
    guns = {n for n, f in fielded.items() if f == "gun"}
    assert guns == {
        "Light AT gun", "Medium AT gun", "Heavy AT gun", "Super-heavy AT gun",
        "Light howitzer", "Medium howitzer", "Heavy howitzer",
        "Light automatic cannon", "Heavy automatic cannon",
    }  # fmt: skip
    assert all("Fixed" in rules_for(ruleset).weapon(g).special for g in guns)
    vehicles = {n for n, f in fielded.items() if f == "vehicle only"}
    assert vehicles == {"Flamethrower (vehicle)"} | (
        {"Light flamethrower (vehicle)"} if ruleset == K47 else set()
    )
    assert {n for n, f in fielded.items() if f == "not on vehicles"} == {"Flamethrower (infantry)"}
    # the weird-science projectors are Fixed team weapons, fielded as a team or artillery
    if ruleset == K47:
        assert not {"M17 Tesla cannon", "Zvukovoy Proyektor", "Schwerefeld Projektor"} & set(
            fielded
        )


def test_a_refused_list_is_told_by_the_command_in_one_line_without_a_traceback(
    tmp_path: Path,
) -> None:
    path = army(tmp_path, models("{name: Rifleman, count: 9, weapons: [Heavy howitzer]}"),
                type="infantry", unit="Rifle Squad")  # fmt: skip
    done = run_cli("army", str(path))
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert "unit 'Rifle Squad', model 'Rifleman': the Heavy howitzer is a gun" in done.stderr


# ------------------------------------------------------------------- one leader to a unit
@pytest.mark.parametrize("ruleset", [K47, BA1])
def test_one_leader_to_a_unit_an_officer_with_up_to_two_men(tmp_path: Path, ruleset: str) -> None:
    """An officer leads an HQ of his own (himself and up to two men), one officer to a
    unit; a squad has one NCO. Each list that breaks it is refused at its 'models:' line."""
    two_captains = army(
        tmp_path, models("{name: Captain, count: 2, officer: Captain, weapons: [Pistol]}"),
        type="infantry", unit="Company HQ", ruleset=ruleset,
    )  # fmt: skip
    message = refusal(two_captains, ruleset)
    assert f"line {line_of(two_captains, 'models:')}, field units.0.models: " in message
    assert "unit 'Company HQ' has 2 officers ('Captain' (Captain, count 2))" in message
    major_leading_a_squad = army(
        tmp_path,
        models(
            "{name: Major, officer: Major, weapons: [SMG]}",
            "{name: Rifleman, count: 6, weapons: [Rifle]}",
        ),
        type="infantry",
        ruleset=ruleset,
    )
    message = refusal(major_leading_a_squad, ruleset)
    assert "leads an HQ, himself and up to two men, and the unit has 7 models" in message
    three_ncos = army(
        tmp_path,
        models("{name: Corporal, count: 3, nco: true, weapons: [Rifle]}"),
        type="infantry",
        ruleset=ruleset,
    )
    assert "has 3 NCOs: a squad has one NCO" in refusal(three_ncos, ruleset)
    hq = army(
        tmp_path,
        models(
            "{name: Major, officer: Major, weapons: [SMG]}",
            "{name: Runner, count: 2, weapons: [Rifle]}",
        ),
        type="infantry",
        ruleset=ruleset,
    )
    assert load_army(hq, ruleset).units[0].model_count == 3


# ------------------------------------------------------------------- a weapon given twice
@pytest.mark.parametrize(
    ("ruleset", "weapons", "twice", "once"),
    [(BA1, "Rifle, Rifle", "'Rifle'", "Rifle"),
     (K47, "SMG, Pistol, Submachine gun (SMG)", "'Submachine gun (SMG)'", "SMG, Pistol")],
)  # fmt: skip
def test_a_weapon_given_twice_to_one_model_is_refused_at_its_line(
    tmp_path: Path, ruleset: str, weapons: str, twice: str, once: str
) -> None:
    """The list-builder probe's `weapons: [Rifle, Rifle]` was accepted without a word: a man
    fires one weapon a turn, so the second did nothing (a typo, most likely). A weapon by
    its chart's short name and its own name is the same weapon. Told at the second one,
    the item to drop (written on one line, it is the model's line)."""
    body = models(f"{{name: Rifleman, count: 8, weapons: [{weapons}]}}", "{name: Sarge, nco: true}")
    path = army(tmp_path, body, type="infantry", unit="Squad B", ruleset=ruleset)
    message = refusal(path, ruleset)
    second = len(weapons.split(", ")) - 1
    assert f"line {line_of(path, 'Rifleman')}, field units.0.models.0.weapons.{second}: " in message
    assert (
        f"unit 'Squad B', model 'Rifleman': {twice} is given twice; a man fires one weapon a "
        f"turn, so a second of the same does nothing: give it once (weapons: [{once}])"
    ) in message
    done = run_cli("army", str(path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


# ------------------------------------------------------- where a block list's problem is told
BLOCK_WEAPONS = """\
models:
  - name: Corporal
    nco: true
    weapons:
      - Rifle
      - SMG
      - Rifle
  - name: Rifleman
    count: 4
    weapons:
      name: Rifle
"""


def test_a_block_lists_item_is_told_at_its_line_and_the_whole_list_at_its_key(
    tmp_path: Path,
) -> None:
    """A field written as a block ("weapons:" and its "- Rifle" lines under it) was told at
    its first item's line, whatever was wrong: a weapon given twice at the first Rifle, a
    mapping given for the list at its first field. Now one item wrong is told at that
    item's line (the second Rifle, the one to drop) and the whole value wrong at its key's
    line ("weapons:", "models:")."""
    path = army(tmp_path, BLOCK_WEAPONS, type="infantry", unit="Section", ruleset=BA1)
    with pytest.raises(DataFileError) as info:
        load_army(path, BA1)
    told = info.value.problems
    lines = path.read_text(encoding="utf-8").splitlines()
    second_rifle = max(i for i, line in enumerate(lines, 1) if line.strip() == "- Rifle")
    mapping_key = next(i for i, line in enumerate(lines, 1) if line.strip() == "name: Rifle") - 1
    assert lines[mapping_key - 1].strip() == "weapons:"
    assert told == [
        f"line {second_rifle}, field units.0.models.0.weapons.2: unit 'Section', model "
        "'Corporal': 'Rifle' is given twice; a man fires one weapon a turn, so a second of "
        "the same does nothing: give it once (weapons: [Rifle, SMG]), or count the men who "
        "carry it (count: N)",
        f"line {mapping_key}, field units.0.models.1.weapons: should be a list, not a "
        "mapping of fields",
    ]
    crewless = army(
        tmp_path, models("{name: Gunner, weapons: [MMG]}"), type="team", unit="MMG", ruleset=BA1
    )
    assert f"line {line_of(crewless, 'models:')}, field units.0.models: " in refusal(crewless, BA1)
