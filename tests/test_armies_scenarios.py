"""Army lists and scenarios: the shipped samples load, and broken files are refused clearly."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from conftest import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.core import scenario as scenario_module
from kriegsspiel.core.scenario import (
    Scenario,
    load_scenario,
    polygon_problem,
    sample_scenarios,
    self_intersection_pure,
)
from kriegsspiel.errors import DataFileError, UsageError
from kriegsspiel.rulesets.bolt_action import rules_for
from kriegsspiel.rulesets.bolt_action.army import (
    WEIRD_SCIENCE,
    ArmyList,
    load_army,
    sample_armies,
)

K47 = "konflikt47"
BA1 = "bolt-action-1"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def line_of(path: Path, needle: str) -> int:
    """The 1-based line of the first line of ``path`` containing ``needle``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def refused(load: object, *args: object) -> DataFileError:
    with pytest.raises(DataFileError) as info:
        load(*args)  # type: ignore[operator]
    return info.value


# ----------------------------------------------------------------------- shipped samples
@pytest.mark.parametrize("ruleset", [K47, BA1])
def test_at_least_two_sample_armies_per_ruleset(ruleset: str) -> None:
    assert len(sample_armies(ruleset)) >= 2


SAMPLE_ARMIES = [(r, p) for r in (K47, BA1) for p in sample_armies(r)]


@pytest.mark.parametrize(("ruleset", "path"), SAMPLE_ARMIES, ids=lambda x: getattr(x, "name", x))
def test_sample_army_loads_and_adds_up(ruleset: str, path: Path) -> None:
    army = load_army(path, ruleset)
    assert army.ruleset == ruleset
    assert army.points == sum(u.points for u in army.units)
    assert 900 <= army.points <= 1100
    assert "points are an assumption" in path.read_text(encoding="utf-8").lower()


@pytest.mark.parametrize(("ruleset", "path"), SAMPLE_ARMIES, ids=lambda x: getattr(x, "name", x))
def test_sample_army_has_the_brief_s_units(ruleset: str, path: Path) -> None:
    army, rules = load_army(path, ruleset), rules_for(ruleset)
    weapons = {rules.weapon(w).name for u in army.units for m in u.models for w in m.weapons} | {
        rules.weapon(w.weapon).name
        for u in army.units
        if u.vehicle is not None
        for w in u.vehicle.weapons
    }
    kinds = {u.type for u in army.units}
    assert {"infantry", "team", "vehicle"} <= kinds
    assert any(m.officer for u in army.units for m in u.models)
    assert {"Rifle", rules.weapon("SMG").name, rules.weapon("LMG").name} <= weapons
    assert rules.weapon("MMG").name in weapons
    assert {rules.weapon(w).name for w in ("Medium mortar", "Light mortar")} & weapons
    armoured = [u for u in army.vehicles if u.target(rules).kind == "armoured"]
    assert armoured, "every sample army has at least one armoured vehicle"


@pytest.mark.parametrize("path", sample_armies(K47), ids=lambda p: p.name)
def test_each_konflikt47_sample_has_a_walker_and_weird_science(path: Path) -> None:
    army, rules = load_army(path, K47), rules_for(K47)
    walkers = [u for u in army.vehicles if u.vehicle and u.vehicle.kind == "walker"]
    assert walkers and all(u.target(rules).walker for u in walkers)
    weird = [
        w
        for u in army.units
        for m in u.models
        for w in m.weapons
        if WEIRD_SCIENCE & set(rules.weapon(w).special)
    ]
    assert weird


@pytest.mark.parametrize("path", sample_armies(BA1), ids=lambda p: p.name)
def test_bolt_action_1_samples_have_no_weird_war(path: Path) -> None:
    army = load_army(path, BA1)
    assert all(u.vehicle.kind != "walker" and not u.vehicle.automaton for u in army.vehicles)  # type: ignore[union-attr]


def test_infantry_quality_sets_its_damage_value() -> None:
    army, rules = load_army(sample_armies(K47)[0]), rules_for(K47)
    for unit in army.units:
        if unit.type in ("infantry", "team"):
            assert (
                unit.target(rules).damage_value
                == {"inexperienced": 3, "regular": 4, "veteran": 5}[unit.quality]
            )
    veterans = load_army(next(p for p in sample_armies(K47) if "german" in p.name))
    assert any(u.quality == "veteran" and u.target(rules).damage_value == 5 for u in veterans.units)


def test_at_least_two_sample_scenarios() -> None:
    names = {load_scenario(p).victory for p in sample_scenarios()}
    assert names == {"units destroyed", "objectives"}


@pytest.mark.parametrize("path", sample_scenarios(), ids=lambda p: p.name)
def test_sample_scenario_loads_with_real_terrain(path: Path) -> None:
    s = load_scenario(path)
    assert (s.table.width, s.table.height, s.turns) == (72, 48, 6)
    categories = {t.category for t in s.terrain}
    assert {"building", "road", "obstacle"} <= categories
    assert categories & {"wood", "rough ground"}
    buildings = [t for t in s.terrain if t.category == "building"]
    assert len(buildings) >= 2 and all(
        b.cover == "hard" and b.blocks_line_of_sight for b in buildings
    )
    assert any(t.cover == "soft" and t.category in ("wood", "rough ground") for t in s.terrain)
    # deployment on opposite long edges
    assert len(s.sides()) == 2
    ys = {z.side: {y for _, y in z.polygon} for z in s.deployment}
    edges = {side: (0.0 in y, s.table.height in y) for side, y in ys.items()}
    assert sorted(edges.values()) == [(False, True), (True, False)]


# --------------------------------------------------------------------- broken army lists
ARMY = """
name: Test list
ruleset: {ruleset}
faction: Nowhere
points: {points}
units:
  - name: Rifle Squad
    type: infantry
    quality: regular
    points: 100
    models:
      - {{name: Sergeant, weapons: [SMG], nco: true}}
      - {{name: Rifleman, count: 9, weapons: [{weapon}]}}
{extra}"""


def army_file(
    tmp_path: Path,
    *,
    ruleset: str = K47,
    points: int = 100,
    weapon: str = "Rifle",
    extra: str = "",
) -> Path:
    text = ARMY.format(ruleset=ruleset, points=points, weapon=weapon, extra=extra)
    return write(tmp_path, "army.yaml", text)


def test_a_field_given_twice_is_refused_at_its_second_line(tmp_path: Path) -> None:
    """YAML itself keeps the last of two equal keys without a word; a list whose 'name'
    is written twice must not lose the first."""
    path = army_file(tmp_path)
    text = path.read_text().replace("faction: Nowhere\n", "faction: Nowhere\nname: Other\n")
    path.write_text(text)
    message = str(refused(load_army, path, K47))
    assert f"line {line_of(path, 'name: Other')}" in message
    first = line_of(path, "name: Test list")
    assert f"the field 'name' is given twice (first on line {first})" in message


def test_a_minimal_list_loads(tmp_path: Path) -> None:
    army = load_army(army_file(tmp_path), "k47")
    assert army.units[0].model_count == 10
    assert isinstance(army, ArmyList)


def test_unknown_weapon_names_unit_model_file_line_and_close_match(tmp_path: Path) -> None:
    path = army_file(tmp_path, weapon="Rilfe")
    error = refused(load_army, path, K47)
    message = str(error)
    assert str(path) in message
    assert f"line {line_of(path, 'Rilfe')}" in message
    assert "units.0.models.1.weapons.0" in message
    assert "'Rifle Squad'" in message and "'Rifleman'" in message
    assert "(did you mean 'Rifle'?)" in message


@pytest.mark.parametrize("ruleset", [K47, BA1])
def test_a_name_matches_with_its_spaces_and_punctuation_left_out(
    tmp_path: Path, ruleset: str
) -> None:
    """The docs say names are matched in any case and punctuation: "Panzer-faust" and
    "panzer faust" are the Panzerfaust (they were unknown, punctuation read as a word
    break), in a list as in the odds; a name that runs together as two names do is
    still unknown, told with the closest."""
    from kriegsspiel.core.names import lookup

    rules = rules_for(ruleset)
    for written in ("Panzer-faust", "panzer faust", "PANZER FAUST"):
        assert rules.weapon(written).name == "Panzerfaust"
    assert rules.target("medium-tank") == rules.target("mediumtank") == rules.target("Medium Tank")
    army = load_army(army_file(tmp_path, ruleset=ruleset, weapon="Panzer-faust"), ruleset)
    assert army.units[0].models[1].weapons == ("Panzer-faust",)
    odds = run_cli("odds", "shoot", "-r", ruleset, "--weapon", "panzer faust:1", "--json")
    assert odds.returncode == 0, odds.stderr
    two = [(["MG42"], "first"), (["MG 4-2"], "second")]
    with pytest.raises(UsageError, match=r"^Unknown weapon 'mg-42' \(did you mean"):
        lookup("weapon", "mg-42", two)
    assert lookup("weapon", "mg 4 2", two) == "second"  # (as written: no doubt)


def test_a_misspelt_field_is_told_with_the_fields_there(tmp_path: Path) -> None:
    """A field the file kind does not have, at any depth (the list, a unit, a model), is
    refused at its line with the fields that place has, the nearest first."""
    path = army_file(tmp_path)
    text = path.read_text()
    text = text.replace("    quality: regular\n", "    qualty: regular\n")
    text = text.replace("{name: Rifleman, count: 9", "{name: Rifleman, cuont: 9")
    text = text.replace("faction: Nowhere\n", "faction: Nowhere\ncolour: green\n")
    path.write_text(text)
    message = str(refused(load_army, path, K47))
    assert message.startswith(f"4 problems in {path}:\n")  # (one a line, each at its own)
    assert (
        f"{path}:{line_of(path, 'qualty')}: field units.0.qualty: there is no such field here "
        "(did you mean 'quality'?); the fields here are name, type, quality," in message
    )
    assert "field units.0.models.1.cuont: there is no such field here (did you mean 'count'?)" in (
        message
    )
    assert "field colour: there is no such field here; the fields here are name, ruleset," in (
        message
    )


def test_unknown_vehicle_weapon_names_the_unit(tmp_path: Path) -> None:
    extra = """\
  - name: Sherman
    type: vehicle
    quality: regular
    points: 0
    vehicle:
      kind: tracked
      damage_value_of: medium tank
      weapons:
        - {weapon: Medium AT gunn, facing: turret}
"""
    path = army_file(tmp_path, extra=extra)
    message = str(refused(load_army, path, K47))
    assert f"line {line_of(path, 'AT gunn')}" in message
    assert "'Sherman'" in message and "(did you mean 'Medium AT gun'?)" in message


def test_points_that_do_not_add_up_name_both_numbers(tmp_path: Path) -> None:
    path = army_file(tmp_path, points=1000)
    error = refused(load_army, path, K47)
    assert str(path) in str(error)
    assert f"line {line_of(path, 'points: 1000')}" in str(error)
    assert "1000" in str(error) and "add up to 100" in str(error)


def test_a_wrong_total_is_told_with_the_other_problems_of_its_units(tmp_path: Path) -> None:
    """A list builder fixing a list wants every problem at once: a total that its units'
    points do not add up to is told even when a unit has another problem (a weapon's
    typo), not only on the next run; a unit's own points that cannot be read leave the
    total untold (its own problem is told)."""
    extra = """\
  - name: Sherman
    type: vehicle
    quality: regular
    points: 150
    vehicle:
      kind: tracked
      damage_value_of: medium tnak
"""
    path = army_file(tmp_path, points=1000, weapon="Rilfe", extra=extra)
    error = refused(load_army, path, K47)
    total = line_of(path, "points: 1000")
    assert str(error).startswith(f"3 problems in {path}:\n  - {path}:{total}: field points: ")
    assert (
        f"line {total}, field points: the list says 1000 points but its units add up to 250 "
        "(Rifle Squad 100, Sherman 150)" in error.problems
    )
    assert "Rilfe" in error.problems[1] and "medium tnak" in error.problems[2]
    unreadable = army_file(tmp_path, points=1000, weapon="Rilfe", extra=extra.replace("150", "1.5"))
    told = refused(load_army, unreadable, K47).problems
    assert len(told) == 3 and not any("add up to" in problem for problem in told)
    assert any("field units.1.points: should be a whole number, not 1.5" in p for p in told)


def test_several_problems_are_told_in_the_order_of_their_lines(tmp_path: Path) -> None:
    """Problems found in different parts of a list (a unit's points, the list's own) come
    in line order, not in the order the checks found them."""
    path = army_file(tmp_path, points=1000)
    path.write_text(
        path.read_text()
        .replace("points: 1000", "points: 1000.5")
        .replace("points: 100\n", "points: 55.5\n")
    )
    error = refused(load_army, path, K47)
    lines = [line_of(path, "points: 1000.5"), line_of(path, "points: 55.5")]
    assert [int(p.split(",")[0].removeprefix("line ")) for p in error.problems] == lines
    told = str(error).splitlines()
    assert told[1].startswith(f"  - {path}:{lines[0]}: field points:")
    assert told[2].startswith(f"  - {path}:{lines[1]}: field units.0.points:")


def test_a_missing_field_is_named_with_file_and_line(tmp_path: Path) -> None:
    path = army_file(tmp_path)
    path.write_text(path.read_text().replace("    quality: regular\n", ""), encoding="utf-8")
    message = str(refused(load_army, path, K47))
    assert str(path) in message
    assert f"line {line_of(path, '- name: Rifle Squad')}" in message
    assert "units.0.quality" in message and "missing: it must be given here" in message


def test_a_unit_or_list_beyond_the_tools_limits_is_refused_at_its_line(tmp_path: Path) -> None:
    """Limits of the tool, not rules: far beyond a real list, they stop a typo (count:
    100000) from costing minutes a game."""
    from kriegsspiel.rulesets.bolt_action.army import MOST_MODELS, MOST_POINTS

    path = army_file(tmp_path)
    text = path.read_text()
    path.write_text(text.replace("count: 9", "count: 100000"), encoding="utf-8")
    message = str(refused(load_army, path, K47))
    assert f"line {line_of(path, 'count: 100000')}" in message
    assert f"must be {MOST_MODELS} or less" in message
    path.write_text(text.replace("count: 9", f"count: {MOST_MODELS}"), encoding="utf-8")
    message = str(refused(load_army, path, K47))  # with the sergeant, one too many
    assert f"has {MOST_MODELS + 1} models" in message and "a tool limit, not a rule" in message
    path.write_text(text.replace("count: 9", f"count: {MOST_MODELS - 1}"), encoding="utf-8")
    assert load_army(path, K47).units[0].model_count == MOST_MODELS
    path = army_file(tmp_path, points=MOST_POINTS + 1)
    path.write_text(
        path.read_text().replace("    points: 100\n", f"    points: {MOST_POINTS + 1}\n"),
        encoding="utf-8",
    )
    assert f"must be {MOST_POINTS} or less" in str(refused(load_army, path, K47))


def test_a_choice_count_or_number_is_told_in_the_files_words(tmp_path: Path) -> None:
    """pydantic's own words ("Input should be 'infantry', ...", "Tuple should have at
    most 40 items after validation", "unable to parse string as an integer") are said as
    a wargamer would: the value given, the nearest choice, the noun counted."""
    from kriegsspiel.rulesets.bolt_action.army import MOST_UNITS

    path = army_file(tmp_path)
    text = path.read_text()
    path.write_text(text.replace("type: infantry", "type: infanty"))
    message = str(refused(load_army, path, K47))
    assert (
        f"line {line_of(path, 'infanty')}, field units.0.type: 'infanty' is not one of the "
        "choices here (did you mean 'infantry'?); give 'infantry', 'artillery', 'team' or "
        "'vehicle'" in message
    )
    path.write_text(text.replace("quality: regular", "quality: elite"))
    message = str(refused(load_army, path, K47))
    assert "'elite' is not one of the choices here; give 'inexperienced'" in message
    assert "did you mean" not in message and "Input should be" not in message
    unit = text[text.index("  - name: Rifle Squad") :]
    many = text.replace("points: 100\n", f"points: {100 * (MOST_UNITS + 1)}\n", 1)
    path.write_text(many + unit * MOST_UNITS)
    message = str(refused(load_army, path, K47))
    assert f"field units: must have at most {MOST_UNITS} units, not {MOST_UNITS + 1}" in message
    from kriegsspiel.rulesets.bolt_action.data import DATA_DIR

    rules = (DATA_DIR / "konflikt47.yaml").read_text()
    rules_file = write(
        tmp_path, "house.yaml", rules.replace("range: 24, shots", "range: thirty, shots", 1)
    )
    with pytest.raises(DataFileError) as told:
        rules_for(K47, str(rules_file))
    # (as a list's number is told: a rules file's numbers are read as YAML writes them)
    said = "field weapons.rows.0.range: should be a whole number, not the text 'thirty'"
    assert said in str(told.value)


def test_a_latin_1_file_is_told_with_the_line_of_its_first_strange_byte(tmp_path: Path) -> None:
    from conftest import run_cli

    path = army_file(tmp_path)
    text = path.read_text().replace("Rifleman", "Füsilier")
    path.write_bytes(text.encode("latin-1"))
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "Füsilier" in row)
    byte = text.encode("latin-1").index(b"\xfc") + 1
    said = f"is not text (line {line}: byte {byte} is not UTF-8; was it saved as Latin-1"
    assert said in str(refused(load_army, path, K47))
    for command in (["army", "army.yaml"], ["evaluate", "-a", "army.yaml", "-a", "army.yaml"]):
        done = run_cli(*command, cwd=tmp_path)
        assert done.returncode == 2 and said in done.stderr, done.stderr


def test_a_list_for_the_other_edition_is_refused(tmp_path: Path) -> None:
    path = army_file(tmp_path, ruleset=BA1)
    error = refused(load_army, path, K47)
    message = str(error)
    assert f"line {line_of(path, 'ruleset:')}" in message and "loaded for" in message
    # what to do about it, in the caller's words: the parameter to a Python caller (as
    # load_army and build_matchup take it), the option on the command line
    assert f"ask for {BA1} (ruleset='{BA1}') with lists" in message and "--" not in message
    told = told_on_the_command_line(error)
    assert f"ask for {BA1} (--ruleset {BA1}, or a sweep file's 'ruleset:') with lists" in told
    done = run_cli("evaluate", "-r", K47, "-a", "army.yaml", "-a", "army.yaml", cwd=tmp_path)
    assert done.returncode == 2 and f"(--ruleset {BA1}, or a sweep" in done.stderr, done.stderr
    assert load_army(path).ruleset == BA1  # None: the file's own ruleset


def told_on_the_command_line(exc: BaseException) -> str:
    """An error as the command line's entry point tells it."""
    from kriegsspiel.cli import _told

    assert isinstance(exc, Exception)
    return _told(exc)


def test_army_lists_are_bolt_action_family_only(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="Bolt Action family"):
        load_army(army_file(tmp_path), "iron-cross")


WALKER = """\
  - name: Walker
    type: vehicle
    quality: regular
    points: 0
    vehicle:
      kind: walker
      damage_value_of: {target}
      weapons:
        - {{weapon: MMG, facing: front}}
"""


def test_bolt_action_1_refuses_a_walker(tmp_path: Path) -> None:
    path = army_file(tmp_path, ruleset=BA1, extra=WALKER.format(target="medium tank"))
    message = str(refused(load_army, path, BA1))
    assert f"line {line_of(path, 'kind: walker')}" in message
    assert "walkers are Konflikt '47 only" in message


def test_a_damage_value_of_the_other_edition_is_said_to_be_one(tmp_path: Path) -> None:
    """A Konflikt '47 walker copied into a Bolt Action list was told "walkers are
    Konflikt '47 only" and then "Unknown vehicle damage value 'medium walker'", as if a
    misspelling: it is said to be Konflikt '47's, as a weapon of the other edition is."""
    path = army_file(tmp_path, ruleset=BA1, extra=WALKER.format(target="medium walker"))
    message = str(refused(load_army, path, BA1))
    assert "walkers are Konflikt '47 only" in message
    assert f"{path}:{line_of(path, 'damage_value_of: medium walker')}: " in message
    assert (
        "'medium walker' (did you mean 'medium tank'?) is a Konflikt '47 damage value, not on "
        "the Bolt Action (1st edition) damage value table (a list plays by its own edition's "
        "table)."
    ) in message
    assert "Unknown vehicle damage value" not in message
    # a misspelling of the list's own edition is told as before, with no edition named
    typo = army_file(tmp_path, ruleset=BA1, extra=WALKER.format(target="medium tnak"))
    told = str(refused(load_army, typo, BA1))
    assert "Unknown vehicle damage value 'medium tnak'" in told and "is a Konflikt" not in told


@pytest.mark.parametrize(
    ("observer", "table"), [("artillery", "artillery_barrage"), ("air", "air_strike")]
)
def test_konflikt47_refuses_an_observer_with_no_support_to_call(
    tmp_path: Path, observer: str, table: str
) -> None:
    """Konflikt '47's data has no barrage or air strike chart, so an observer could never
    call one: the list is refused at the model's line, as a walker is in Bolt Action, not
    passed as sound to stand by all game. Bolt Action takes it; so does a Konflikt '47
    rules file given the chart."""
    from conftest import run_cli

    path = army_file(tmp_path)
    text = path.read_text().replace("nco: true}", f"nco: true, observer: {observer}}}")
    path.write_text(text)
    message = str(refused(load_army, path, K47))
    assert f"line {line_of(path, 'observer:')}, field units.0.models.0.observer: " in message
    assert f"unit 'Rifle Squad', model 'Sergeant': an {observer} observer calls in" in message
    assert f"Konflikt '47 has none (its rules data has no {table} table)" in message
    done = run_cli("army", "army.yaml", cwd=tmp_path)
    assert done.returncode == 2 and "give the model no observer" in done.stderr
    from kriegsspiel.rulesets.bolt_action.data import DATA_DIR

    ba1 = (DATA_DIR / "bolt_action_1.yaml").read_text()
    chart = ba1[ba1.index(f"{table}:") :].split("\n\n")[0]
    rules = (DATA_DIR / "konflikt47.yaml").read_text() + f"\n{chart}\n"
    rules_file = write(tmp_path, "house.yaml", rules)
    assert load_army(path, K47, rules_file=str(rules_file)).units[0].models[0].observer
    path.write_text(text.replace(f"ruleset: {K47}", f"ruleset: {BA1}"))
    assert load_army(path, BA1).units[0].models[0].observer == observer


def test_konflikt47_takes_the_same_walker(tmp_path: Path) -> None:
    path = army_file(tmp_path, extra=WALKER.format(target="medium walker"))
    assert load_army(path, K47).vehicles[0].target(rules_for(K47)).walker


def test_a_walker_needs_a_walker_damage_value(tmp_path: Path) -> None:
    path = army_file(tmp_path, extra=WALKER.format(target="medium tank"))
    message = str(refused(load_army, path, K47))
    assert "'medium tank' is not a walker's damage value" in message
    assert "light walker" in message  # what would fit
    tank = WALKER.format(target="medium walker").replace("kind: walker", "kind: tracked")
    message = str(refused(load_army, army_file(tmp_path, extra=tank), K47))
    assert (
        "'medium walker' is a walker's damage value, but the vehicle's kind is 'tracked'" in message
    )
    assert "medium tank" in message


@pytest.mark.parametrize(
    ("kind", "given", "said"),
    [
        ("tracked", "Sherman", ". Known vehicle damage values: armored car, armoured car, carrier, "
         "heavy tank, light tank, medium tank, soft-skin, soft-skinned vehicle, super-heavy tank."),
        ("tracked", "tank", " (did you mean 'heavy tank', 'light tank' or 'medium tank'?)."),
        ("tracked", "medium", " (did you mean 'medium tank'?)."),
        ("walker", "medium", " (did you mean 'medium walker'?)."),
    ],
)  # fmt: skip
def test_a_vehicles_unknown_damage_value_is_told_with_the_rows_that_could_fit(
    tmp_path: Path, kind: str, given: str, said: str
) -> None:
    """A vehicle's damage_value_of 'Sherman' was met with "Did you mean 'veteran
    infantry'?", and 'medium' on a tracked vehicle with 'medium walker': an infantry row
    never fits a vehicle, nor a walker's a tank (nor a tank's a walker)."""
    extra = WALKER.format(target=given).replace("kind: walker", f"kind: {kind}")
    message = str(refused(load_army, army_file(tmp_path, extra=extra), K47))
    assert f"unit 'Walker': Unknown vehicle damage value {given!r}{said}" in message
    assert "infantry" not in message.split("vehicle damage value")[1].split(" The list")[0]


def test_bolt_action_1_refuses_a_tesla_cannon(tmp_path: Path) -> None:
    path = army_file(tmp_path, ruleset=BA1, weapon="M17 Tesla cannon")
    message = str(refused(load_army, path, BA1))
    assert f"line {line_of(path, 'Tesla')}" in message
    assert "weird-science weapon" in message and "'Rifle Squad'" in message


@pytest.mark.parametrize(("weapon", "near"), [("Super-bazooka", " (did you mean 'Bazooka'?)"),
                                              ("Shotgun", "")])  # fmt: skip
def test_a_weapon_of_the_other_edition_is_said_to_be_one(
    tmp_path: Path, weapon: str, near: str
) -> None:
    """'Unknown weapon 'Super-bazooka'. Did you mean 'Bazooka'?' said nothing of where the
    name came from: a Konflikt '47 list's weapon copied into a Bolt Action one."""
    path = army_file(tmp_path, ruleset=BA1, weapon=weapon)
    message = str(refused(load_army, path, BA1))
    assert f"line {line_of(path, weapon)}" in message and "'Rifle Squad'" in message
    assert (
        f"{weapon!r}{near} is a Konflikt '47 weapon, not on the Bolt Action (1st edition) "
        f"weapons chart (a list plays by its own edition's chart)."
    ) in message
    assert "Konflikt" not in str(refused(load_army, army_file(tmp_path, ruleset=BA1,
                                                               weapon="Rilfe"), BA1))  # fmt: skip


def test_bolt_action_1_refuses_an_automaton(tmp_path: Path) -> None:
    extra = WALKER.format(target="medium tank").replace("kind: walker", "kind: tracked")
    extra += "      automaton: true\n"
    path = army_file(tmp_path, ruleset=BA1, extra=extra)
    assert "automatons are Konflikt '47 only" in str(refused(load_army, path, BA1))


def test_an_infantry_unit_cannot_carry_a_vehicle_damage_value(tmp_path: Path) -> None:
    extra = WALKER.format(target="regular infantry").replace("kind: walker", "kind: tracked")
    path = army_file(tmp_path, extra=extra)
    assert "infantry damage value" in str(refused(load_army, path, K47))


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("    points: 100\n", "    points: true\n", "should be a whole number, not true"),
        (
            "count: 9,",
            'count: "9",',
            "should be a whole number, not the text '9' (write it without quotes)",
        ),
        ("count: 9,", "count: 9.0,", "should be a whole number, not 9.0"),
        (
            "nco: true",
            'nco: "yes"',
            "should be true or false, not the text 'yes' (write it without quotes)",
        ),
        ("nco: true", "nco: 1", "should be true or false, not 1"),
        ("points: 100\nunits", "points:\nunits", "should be a whole number, not nothing"),
    ],
)
def test_a_number_or_switch_of_the_wrong_kind_is_refused_not_read_as_another(
    tmp_path: Path, old: str, new: str, said: str
) -> None:
    """YAML gives numbers and true/false as they are written: pydantic's lax mode would
    read true as 1, "9" as 9 and "yes" as true, so a slip would play another game."""
    path = army_file(tmp_path)
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new, 1))
    message = str(refused(load_army, path, K47))
    assert f"line {line_of(path, new.strip().splitlines()[0])}, field " in message
    assert said in message and "Input should be" not in message


def test_a_scenarios_numbers_and_switches_are_not_read_from_other_kinds(tmp_path: Path) -> None:
    for old, new, field, said in [
        ("turns: 6", "turns: true", "turns", "should be a whole number, not true"),
        ("blocks_line_of_sight: true", "blocks_line_of_sight: 1",
         "terrain.0.blocks_line_of_sight", "should be true or false, not 1"),
        ("[[10, 10], [20", "[[true, 10], [20", "terrain.0.polygon.0.0",
         "should be a number, not true"),
    ]:  # fmt: skip
        path = scenario_file(tmp_path)
        path.write_text(path.read_text().replace(old, new, 1))
        message = str(refused(load_scenario, path))
        assert f"line {line_of(path, new)}, field {field}: {said}" in message
    path = scenario_file(tmp_path, "[[10, 10], [20.5, 10], [20, 20], [10, 20]]")
    assert load_scenario(path).terrain[0].polygon[1] == (20.5, 10)  # whole or not: a number


# ---------------------------------------------------------------------- broken scenarios
SCENARIO = """
name: Test scenario
turns: 6
victory: units destroyed
terrain:
  - name: Farmhouse
    category: building
    cover: hard
    blocks_line_of_sight: true
    polygon: {polygon}
deployment:
  - {{side: south, polygon: [[0, 0], [72, 0], [72, 12], [0, 12]]}}
  - {{side: north, polygon: [[0, 36], [72, 36], [72, 48], [0, 48]]}}
"""


def scenario_file(
    tmp_path: Path, polygon: str = "[[10, 10], [20, 10], [20, 20], [10, 20]]"
) -> Path:
    return write(tmp_path, "scenario.yaml", SCENARIO.format(polygon=polygon))


def test_a_minimal_scenario_takes_the_default_table(tmp_path: Path) -> None:
    s = load_scenario(scenario_file(tmp_path))
    assert (s.table.width, s.table.height) == (72, 48)
    assert s.terrain[0].polygon == ((10, 10), (20, 10), (20, 20), (10, 20))


def test_polygon_outside_the_table_is_refused(tmp_path: Path) -> None:
    path = scenario_file(tmp_path, "[[60, 10], [80, 10], [80, 20], [60, 20]]")
    message = str(refused(load_scenario, path))
    assert str(path) in message
    assert f"line {line_of(path, '[80, 10]')}" in message
    assert "terrain.0.polygon" in message and "point 2 [80, 10]" in message
    assert 'outside the 72" x 48" table' in message


def test_a_note_is_kept_by_a_rulesets_name_and_a_misspelt_one_is_refused(
    tmp_path: Path,
) -> None:
    """A note under "konflict47" was once taken and never shown: the briefing shows a note
    under the ruleset it is for. Told at the misspelt note's own line, not the first
    note's."""
    path = scenario_file(tmp_path)
    text = path.read_text()
    path.write_text(text + "notes:\n  iron-cross: Not yet.\n  konflict47: Play it at night.\n")
    message = str(refused(load_scenario, path))
    assert (
        f"line {line_of(path, 'konflict47:')}, field notes.konflict47: 'konflict47' (did you mean "
        in message
    )
    assert (
        "'konflikt47'?) is not a ruleset's name" in message
        and "one of konflikt47, bolt-action-1" in message
    )
    path.write_text(text + "notes:\n  konflikt47: Play it at night.\n  iron-cross: Not yet.\n")
    assert load_scenario(path).notes == {
        "konflikt47": "Play it at night.",
        "iron-cross": "Not yet.",
    }
    done = run_cli("scenario", str(path))
    assert done.returncode == 0 and "Play it at night." in done.stdout


def test_a_zone_overlapping_the_enemys_is_told_at_its_own_line(tmp_path: Path) -> None:
    """The deployment list is sound but one zone of it is not: told at that zone's line
    (it was told at the first zone's, south's, which is not the one that overlaps)."""
    path = scenario_file(tmp_path)
    path.write_text(
        path.read_text() + "  - {side: north, polygon: [[0, 6], [72, 6], [72, 20], [0, 20]]}\n"
    )
    message = str(refused(load_scenario, path))
    assert (
        f"line {line_of(path, '[0, 6]')}, field deployment.2: the deployment zones of 'south' "
        "and 'north' overlap (432 square inches)"
    ) in message


def test_an_objective_off_the_table_is_refused(tmp_path: Path) -> None:
    path = scenario_file(tmp_path)
    text = path.read_text().replace("units destroyed", "objectives")
    path.write_text(text + "objectives:\n  - {name: Hill, x: 100, y: 5}\n")
    message = str(refused(load_scenario, path))
    assert f"line {line_of(path, 'Hill')}" in message and "outside" in message


FARMHOUSE = "[[10, 10], [20, 10], [20, 20], [10, 20]]"


def _with_feature(tmp_path: Path, name: str, category: str, polygon: str) -> Path:
    """The test scenario with a second terrain feature after its farmhouse (hard cover,
    hiding, as the farmhouse is)."""
    path = scenario_file(tmp_path)
    text = path.read_text().replace(
        "deployment:",
        f"  - {{name: {name}, category: {category}, cover: hard, blocks_line_of_sight: true,\n"
        f"     polygon: {polygon}}}\ndeployment:",
    )
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("name", "category", "polygon", "field", "said"),
    [
        ("Farmhouse", "rough ground", "[[30, 20], [40, 20], [40, 30], [30, 30]]",
         "terrain.1.name", "terrain.0 and terrain.1 are both named 'Farmhouse': give each "
         "terrain feature a name of its own"),
        ("Farmhouse", "building", FARMHOUSE,
         "terrain.1", "terrain.1 ('Farmhouse') is terrain.0 ('Farmhouse') again: the same "
         "feature, defined twice; give each feature once"),
        ("Farm", "building", FARMHOUSE, "terrain.1", "terrain.1 ('Farm') is terrain.0 "
         "('Farmhouse') again as 'Farm': the same feature, defined twice"),
        ("Barn", "Building", "[[15, 15], [25, 15], [25, 25], [15, 25]]", "terrain.1.polygon",
         "the building 'Barn' overlaps the building 'Farmhouse' (terrain.0) by 25 square "
         "inches: two buildings cannot stand on the same ground"),
    ],
)  # fmt: skip
def test_terrain_features_are_told_apart_and_buildings_do_not_overlap(
    tmp_path: Path, name: str, category: str, polygon: str, field: str, said: str
) -> None:
    """Two features of one name, one feature given twice, and two buildings on the same
    ground were taken without a word."""
    path = _with_feature(tmp_path, name, category, polygon)
    message = " ".join(str(refused(load_scenario, path)).split())
    line = line_of(path, polygon) if field.endswith("polygon") else line_of(path, f"{name},")
    assert f"line {line}, field {field}: {said}" in message, message
    done = run_cli("scenario", str(path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert said in " ".join(done.stderr.split())


def test_a_road_may_cross_other_terrain_and_buildings_may_share_a_wall(tmp_path: Path) -> None:
    road = "[[0, 14], [72, 14], [72, 16], [0, 16]]"  # through the farmhouse
    assert load_scenario(_with_feature(tmp_path, "Lane", "road", road))
    wood = "[[15, 15], [25, 15], [25, 25], [15, 25]]"
    assert load_scenario(_with_feature(tmp_path, "Copse", "wood", wood))
    barn = "[[20, 10], [30, 10], [30, 20], [20, 20]]"  # against its east wall
    assert load_scenario(_with_feature(tmp_path, "Barn", "building", barn))
    for shipped in sample_scenarios():
        assert load_scenario(shipped).terrain


@pytest.mark.parametrize("pure", [False, True], ids=["shapely", "pure-python"])
def test_self_intersecting_polygon_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pure: bool
) -> None:
    if pure:
        monkeypatch.setattr(scenario_module, "_shapely", lambda: None)
    else:
        pytest.importorskip("shapely")
    path = scenario_file(tmp_path, "[[10, 10], [20, 20], [20, 10], [10, 20]]")  # a bow tie
    message = str(refused(load_scenario, path))
    assert str(path) in message
    assert f"line {line_of(path, '[20, 20], [20, 10]')}" in message
    assert "intersects itself" in message


def test_missing_scenario_field_names_file_and_line(tmp_path: Path) -> None:
    path = scenario_file(tmp_path)
    path.write_text(path.read_text().replace("victory: units destroyed\n", ""))
    message = str(refused(load_scenario, path))
    assert str(path) in message and "line 1" in message and "victory" in message


@pytest.mark.parametrize(
    ("category", "hint"),
    [
        ("buildings", "(did you mean 'building'?)"),
        ("rough grund", "(did you mean 'rough ground'"),
        ("hedgerow", "(did you mean 'hedge'?)"),
        ("river", ""),
        ("impassable", ""),
    ],
)
@pytest.mark.parametrize("ruleset", [K47, BA1])
def test_a_terrain_category_the_terrain_table_lacks_is_refused_at_its_line(
    tmp_path: Path, ruleset: str, category: str, hint: str
) -> None:
    """It was read as open ground, so a tank drove through "buildings"; a game of either
    edition refuses it, as does the check of a scenario, with the categories there are."""
    from conftest import run_cli

    path = scenario_file(tmp_path)
    path.write_text(path.read_text().replace("category: building", f"category: {category}"))
    load_scenario(path)  # a scenario knows no ruleset: its own checks pass it
    line = line_of(path, category)
    for command in (
        ["play", "--ruleset", ruleset, "-s", path.name, "--quiet"],
        ["scenario", path.name],
    ):
        done = run_cli(*command, cwd=tmp_path)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        said = " ".join(done.stderr.split())
        assert f"scenario.yaml: line {line}, field terrain.0.category: " in said
        assert f"terrain table has no category {category!r}" in said
        assert hint in said
        assert "its categories are open ground, rough ground, obstacle, building, road" in said
        assert "wood, woods, forest" in said and "for rough ground" in said
        assert not list(tmp_path.glob("*.jsonl"))  # no game was played


def test_a_terrain_category_is_taken_in_any_case_and_by_its_other_names(tmp_path: Path) -> None:
    from kriegsspiel.rulesets.bolt_action.game.table_rules import check_categories, terrain_row

    rules = rules_for(K47)
    for category, row in (
        ("Building", "building"),
        ("WOODS", "rough ground"),
        ("wall", "obstacle"),
    ):
        assert terrain_row(rules, category).category == row
    check_categories(rules, load_scenario(scenario_file(tmp_path)))
    with pytest.raises(UsageError, match="has no category 'house'"):
        terrain_row(rules, "house")  # never open ground by default


def test_a_record_with_a_category_no_longer_taken_is_refused_at_its_line(tmp_path: Path) -> None:
    """A record written before categories were checked holds its scenario's text: the
    replay names the line in it."""
    import json

    from conftest import run_cli

    assert run_cli("play", "--quiet", "--record", "g.jsonl", cwd=tmp_path).returncode == 0
    lines = (tmp_path / "g.jsonl").read_text().splitlines()
    head = json.loads(lines[0])
    head["scenario"] = head["scenario"].replace("category: building", "category: buildings", 1)
    (tmp_path / "g.jsonl").write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    done = run_cli("replay", "g.jsonl", cwd=tmp_path)
    line = 1 + head["scenario"].splitlines().index(
        next(r for r in head["scenario"].splitlines() if "category: buildings" in r)
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"g.jsonl: scenario: line {line}, field terrain." in done.stderr
    assert "(did you mean 'building'?)" in done.stderr


def test_objectives_victory_needs_objectives(tmp_path: Path) -> None:
    path = scenario_file(tmp_path)
    path.write_text(path.read_text().replace("units destroyed", "objectives"))
    assert "at least one objective" in str(refused(load_scenario, path))


def test_objectives_in_a_units_destroyed_scenario_are_refused_as_counting_for_nothing(
    tmp_path: Path,
) -> None:
    """They would be drawn and briefed, then never scored: a copy-paste slip, told at the
    objectives' line (the 'objectives:' key: the whole list is what is wrong)."""
    path = scenario_file(tmp_path)
    path.write_text(path.read_text() + "objectives:\n  - {name: Hill, x: 30, y: 20}\n")
    message = str(refused(load_scenario, path))
    assert f"line {line_of(path, 'objectives:')}, field objectives: " in message
    assert "victory is 'units destroyed', so these objectives would count for nothing" in message
    path.write_text(path.read_text().replace("units destroyed", "objectives"))
    assert load_scenario(path).objectives[0].name == "Hill"


def test_an_objective_worth_more_than_the_tools_limit_is_refused_at_its_line(
    tmp_path: Path,
) -> None:
    """A typo's points (1e23) were once taken, played, and then lost a run's games: a
    results file stores a score as a whole number of at most 2**63 - 1."""
    from kriegsspiel.core.scenario import MOST_OBJECTIVE_POINTS

    path = scenario_file(tmp_path)
    text = path.read_text().replace("units destroyed", "objectives")
    huge = 10**23
    path.write_text(text + f"objectives:\n  - {{name: Hill, x: 30, y: 20, points: {huge}}}\n")
    message = str(refused(load_scenario, path))
    assert f"line {line_of(path, 'Hill')}, field objectives.0.points: " in message
    assert f"must be {MOST_OBJECTIVE_POINTS:,} or less (not {huge:,})" in message
    assert "a tool limit, not a rule" in message
    done = run_cli("evaluate", "-s", str(path), "--games", "2", "--no-store")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "field objectives.0.points: must be" in done.stderr
    path.write_text(
        text + f"objectives:\n  - {{name: Hill, x: 30, y: 20, points: {MOST_OBJECTIVE_POINTS}}}\n"
    )
    assert load_scenario(path).objectives[0].points == MOST_OBJECTIVE_POINTS
    assert MOST_OBJECTIVE_POINTS * 1000 < 2**63 - 1  # (a thousand such objectives still store)


def test_a_scenario_of_more_turns_than_the_tools_limit_is_refused_at_its_line(
    tmp_path: Path,
) -> None:
    """turns: 10000 was once taken, and a game whose armies could not harm each other ran
    out of actions with a traceback; turns: 1000000000000 was taken too."""
    from kriegsspiel.core.scenario import MOST_TURNS

    path = scenario_file(tmp_path)
    text = path.read_text()
    for turns in (MOST_TURNS + 1, 10**12):
        path.write_text(text.replace("turns: 6", f"turns: {turns}"))
        message = str(refused(load_scenario, path))
        assert (
            f"line {line_of(path, 'turns:')}, field turns: must be {MOST_TURNS} or less" in message
        )
        assert f"(not {turns:,})" in message and "a tool limit, not a rule" in message
    done = run_cli("play", "-q", "-s", str(path), "--record", str(tmp_path / "g.jsonl"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "field turns: must be" in done.stderr and not (tmp_path / "g.jsonl").exists()
    path.write_text(text.replace("turns: 6", f"turns: {MOST_TURNS}"))
    assert load_scenario(path).turns == MOST_TURNS


def test_a_table_larger_than_the_tools_limit_is_refused_at_its_line(tmp_path: Path) -> None:
    """A table 72,000,000 inches wide was once taken: the game played on it, but the
    environments for learning agents asked for 46 GiB to cut it into cells."""
    from kriegsspiel.core.scenario import MOST_TABLE_INCHES

    path = scenario_file(tmp_path)
    text = path.read_text() + "table: {width: 72, height: 48}\n"
    for side, size in (("width", 72_000_000), ("height", MOST_TABLE_INCHES + 0.5)):
        path.write_text(text.replace(f"{side}: {72 if side == 'width' else 48}", f"{side}: {size}"))
        message = str(refused(load_scenario, path))
        assert (
            f"line {line_of(path, 'table:')}, field table.{side}: must be 1,000 inches" in message
        )
        assert f"(not {size:,})" in message and "a tool limit, not a rule" in message
    path.write_text(
        text.replace("width: 72, height: 48", f"width: {MOST_TABLE_INCHES}, height: 1000")
    )
    assert load_scenario(path).table.width == MOST_TABLE_INCHES


def test_a_polygon_of_more_points_than_the_tools_limit_is_refused_at_its_line(
    tmp_path: Path,
) -> None:
    """20,000 points were once taken, and a game over them took minutes."""
    import math

    from kriegsspiel.core.scenario import MOST_POLYGON_POINTS

    def circle(n: int, closed: bool = False) -> str:
        ring = [
            (round(40 + 8 * math.cos(2 * math.pi * i / n), 6),
             round(24 + 8 * math.sin(2 * math.pi * i / n), 6))
            for i in range(n)
        ]  # fmt: skip
        return "[" + ", ".join(f"[{x}, {y}]" for x, y in ring + ring[:1] * closed) + "]"

    path = scenario_file(tmp_path, circle(MOST_POLYGON_POINTS + 1))
    message = str(refused(load_scenario, path))
    assert f"line {line_of(path, 'polygon: [[')}, field terrain.0.polygon: " in message
    assert (
        f"the polygon has {MOST_POLYGON_POINTS + 1:,} points; kriegsspiel takes at most " in message
    )
    assert "a tool limit, not a rule" in message
    for closed in (False, True):  # (its first point repeated at the end is no point more)
        path = scenario_file(tmp_path, circle(MOST_POLYGON_POINTS, closed))
        assert len(load_scenario(path).terrain[0].polygon) == MOST_POLYGON_POINTS


def test_deployment_needs_two_sides() -> None:
    with pytest.raises(ValueError, match="at least two sides"):
        Scenario.model_validate(
            {
                "name": "x",
                "turns": 6,
                "victory": "units destroyed",
                "deployment": [{"side": "south", "polygon": [[0, 0], [72, 0], [72, 12]]}],
            }
        )


@pytest.mark.parametrize(
    ("points", "problem"),
    [
        ([(0, 0), (1, 0)], "at least 3 distinct points"),
        ([(0, 0), (1, 0), (2, 0)], "no area"),
        ([(0, 0), (4, 0), (4, 4), (4, 4), (0, 4)], "repeats"),
        ([(0, 0), (4, 0), (4, 4), (0, 4), (2, 0)], "intersects itself"),
        ([(0, 0), (4, 0), (2, 0), (2, 3)], "intersects itself"),  # folds back on an edge
    ],
)
def test_polygon_problems(
    monkeypatch: pytest.MonkeyPatch, points: list[tuple[float, float]], problem: str
) -> None:
    for shapely in (True, False):
        if not shapely:
            monkeypatch.setattr(scenario_module, "_shapely", lambda: None)
        found = polygon_problem(points)
        assert found is not None and problem in found


coordinate = st.integers(min_value=0, max_value=8).map(float)


@settings(max_examples=400)
@given(st.lists(st.tuples(coordinate, coordinate), min_size=3, max_size=6, unique=True))
def test_pure_python_simplicity_agrees_with_shapely(points: list[tuple[float, float]]) -> None:
    shapely = pytest.importorskip("shapely")
    problem = polygon_problem(points)
    if problem is not None and "intersects itself" not in problem:
        return  # a degenerate ring (all on one line) is refused before either check runs
    assert (self_intersection_pure(points) is None) == shapely.Polygon(points).is_valid, points


def test_error_messages_keep_to_one_line_per_problem(tmp_path: Path) -> None:
    path = army_file(tmp_path, weapon="Rilfe")
    path.write_text(path.read_text().replace("faction: Nowhere\n", ""))
    error = refused(load_army, path, K47)
    assert len(error.problems) == 2
    assert all(re.match(r"line \d+, field ", p) for p in error.problems)


def test_the_documented_examples_load(tmp_path: Path) -> None:
    doc = Path(__file__).resolve().parent.parent / "docs" / "armies-and-scenarios.md"
    army, bridge, scenario = re.findall(r"```yaml\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
    assert load_army(write(tmp_path, "army.yaml", army), K47).points == 303
    assert load_scenario(write(tmp_path, "scenario.yaml", scenario)).turns == 6
    # the river, its bridge and the bocage, in place of the example scenario's terrain
    bridged = re.sub(r"terrain:\n.*?(?=deployment:)", bridge, scenario, flags=re.S)
    terrain = load_scenario(write(tmp_path, "bridged.yaml", bridged)).terrain
    assert [f.impassable_to for f in terrain] == [("everyone",), (), ("vehicles",)]


def test_an_army_list_given_as_a_scenario_is_named_for_what_it_is(tmp_path: Path) -> None:
    path = army_file(tmp_path)
    message = str(refused(load_scenario, path))
    assert message.startswith(f"{path}: this does not look like a scenario: most of its fields")
    assert "was another kind of file given?" in message


def test_a_file_of_another_kind_is_told_so_in_one_sentence(tmp_path: Path) -> None:
    """Given where another kind is wanted (a list as a scenario, a sweep or a rules file; a
    scenario as a list), the file is told what it does not look like, once: not also
    each field it lacks and each it has, every one with all the fields there."""
    from conftest import run_cli

    army = army_file(tmp_path)
    scenario = scenario_file(tmp_path)
    for command, kind in (
        (["play", "-s", "army.yaml", "--quiet"], "a scenario"),
        (["sweep", "army.yaml"], "a sweep file"),
        (["odds", "shoot", "--weapon", "rifle", "--rules-file", "army.yaml"], "a rules data file"),
        (["army", "scenario.yaml"], "an army list"),
        (["evaluate", "-a", "scenario.yaml", "-a", "army.yaml"], "an army list"),
    ):
        done = run_cli(*command, cwd=tmp_path)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        said = done.stderr.strip()
        assert f": this does not look like {kind}: most of its fields (" in said
        assert said.endswith("was another kind of file given?"), said
        assert "missing" not in said and "no such field" not in said and len(said) < 400
        if kind == "a rules data file":  # its 25 fields: the first few named
            assert (
                "which has ruleset, title, sheets, turn_sequence, turn_end, order_dice and " in said
            )
    assert len(refused(load_scenario, army).problems) == 1
    assert len(refused(load_army, scenario, K47).problems) == 1


def test_a_file_that_is_not_a_mapping_says_what_a_list_is(tmp_path: Path) -> None:
    path = write(tmp_path, "army.yaml", "- Rifle Squad\n- MMG Team\n")
    message = str(refused(load_army, path, K47))
    assert "an army list is a mapping of fields (name: value, one a line), not a list" in message
    assert "ArmyList" not in message


def test_every_number_and_switch_of_a_list_scenario_or_sweep_is_taken_only_as_written() -> None:
    """A guard on the models: a field added later as a bare int, float or bool would take
    true for 1 and "8" for 8 again."""
    from typing import Annotated, get_args, get_origin

    from pydantic import BaseModel
    from pydantic import Strict as NoCoercion

    from kriegsspiel.sim.sweep import SweepFile

    loose: list[str] = []

    def walk(kind: object, where: str, meta: tuple[object, ...] = ()) -> None:
        if get_origin(kind) is Annotated:
            base, *more = get_args(kind)
            walk(base, where, (*meta, *more))
        elif kind in (int, float, bool):
            if not any(isinstance(m, NoCoercion) for m in meta):
                loose.append(where)
        elif isinstance(kind, type) and issubclass(kind, BaseModel):
            for name, info in kind.model_fields.items():
                walk(info.annotation, f"{kind.__name__}.{name}", tuple(info.metadata))
        else:
            for inner in get_args(kind):
                walk(inner, where)

    for model in (ArmyList, Scenario, SweepFile):
        walk(model, model.__name__)
    assert loose == []


@pytest.mark.parametrize(
    ("old", "new", "field", "said"),
    [
        ("name: Test list", 'name: "Test\\e[31m list"', "name", "holds an escape character (ESC) at character 5"),
        ("faction: Nowhere", 'faction: "Now\\0here"', "faction", "holds a NUL character at character 4"),
        ("- name: Rifle Squad", '- name: "Rifle\\nSquad"', "units.0.name", "holds a line break at character 6"),
        ("- name: Rifle Squad", '- name: "\\u202eRifle Squad"', "units.0.name",
         "holds an invisible mark that turns the text's direction (U+202E) at character 1"),
        ("{name: Sergeant,", '{name: "Ser\\tgeant",', "units.0.models.0.name", "holds a tab at character 4"),
        ("- name: Rifle Squad", '- name: "   "', "units.0.name", "'   ' is blank: give a name"),
        ("{name: Sergeant,", '{name: "",', "units.0.models.0.name", "is empty: give a name"),
        ("name: Test list", "name: 2024-01-01", "name",
         'should be text, not the date 2024-01-01; put it in quotes to make it text (e.g. "2024-01-01")'),
        ("name: Test list", "name: 1944", "name", "should be text, not 1944; put it in quotes"),
    ],
    ids=["esc-list", "nul-faction", "newline-unit", "direction-mark-unit", "tab-model",
         "blank-unit", "empty-model", "date-list", "number-list"],
)  # fmt: skip
def test_a_name_that_would_not_print_as_it_reads_is_refused_at_its_line(
    tmp_path: Path, old: str, new: str, field: str, said: str
) -> None:
    """Control characters (ESC, NUL, a line break) in a name were taken, then obeyed by
    the terminal and left the SVG drawing no well-formed XML; a blank name was taken as a
    name; a date or a number YAML read was told as Python shows it, "String should have at
    least 1 character" in pydantic's words."""
    path = army_file(tmp_path)
    path.write_text(path.read_text().replace(old, new, 1))
    message = str(refused(load_army, path, K47))
    assert f"line {line_of(path, new.split(',')[0])}, field {field}: " in message
    assert said in message
    assert "String should" not in message and "datetime" not in message
    assert "\x1b" not in message and "\x00" not in message and "\n" not in message


def test_a_scenarios_names_and_remarks_print_as_they_read(tmp_path: Path) -> None:
    """A feature's, an objective's and a side's name are names (one line, not blank, no
    control character); a description or a note may run over lines, with no control
    character."""
    path = scenario_file(tmp_path)
    text = path.read_text().replace("units destroyed", "objectives")
    text += "objectives:\n  - {name: Hill, x: 30, y: 20}\n"
    for old, new, field, said in [
        ("name: Farmhouse", 'name: "Farm\\ehouse"', "terrain.0.name", "holds an escape character"),
        ("{name: Hill,", '{name: " ",', "objectives.0.name", "' ' is blank"),
        ("{side: south,", '{side: "so\\nuth",', "deployment.0.side", "holds a line break"),
        ("name: Test scenario", 'name: "Test\\x07 scenario"', "name", "holds a control character (U+0007)"),
        ("turns: 6", 'turns: 6\ndescription: "Two\\e[2J forces"', "description", "holds an escape character"),
        # (pydantic's "String should have at least 1 character", said plainly)
        ("category: building", 'category: ""', "terrain.0.category", "is empty: give some text here"),
    ]:  # fmt: skip
        path.write_text(text.replace(old, new, 1))
        message = str(refused(load_scenario, path))
        assert (
            f"line {line_of(path, new.splitlines()[-1].split(',')[0])}, field {field}: " in message
        )
        assert said in message
    path.write_text(text.replace("turns: 6", 'turns: 6\ndescription: "Two forces\\n\\tmeet"'))
    assert load_scenario(path).description == "Two forces\n\tmeet"


def test_a_name_with_control_characters_is_refused_by_the_commands_not_drawn(
    tmp_path: Path,
) -> None:
    path = army_file(tmp_path)
    path.write_text(path.read_text().replace("- name: Rifle Squad", '- name: "\\e[31mRED\\0Squad"'))
    svg = tmp_path / "t.svg"
    for args in (["army", str(path)],
                 ["scenario", "meeting-engagement", "-a", str(path), "-a", str(path), "--svg", str(svg)]):  # fmt: skip
        done = run_cli(*args)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert (
            "field units.0.name: '\\x1b[31mRED\\x00Squad' holds an escape character" in done.stderr
        )
        assert "\x1b" not in done.stdout + done.stderr and not svg.exists()


def test_two_units_of_one_name_are_refused(tmp_path: Path) -> None:
    """Results, the play aid and a game's account tell units by their names: two units of
    one name (two "Platoon HQ") made evaluate's table show two rows alike."""
    from kriegsspiel.rulesets.bolt_action.army import sample_armies

    sample = sample_armies("konflikt47")[0]
    text = sample.read_text(encoding="utf-8")
    names = re.findall(r"^  - name: (.+)$", text, re.MULTILINE)
    path = tmp_path / "twins.yaml"
    path.write_text(text.replace(f"- name: {names[1]}\n", f"- name: {names[0]}\n", 1))
    message = str(refused(load_army, path, K47))
    assert f"units.0 and units.1 are both named '{names[0]}': give each unit a name" in message
    # told at the second unit's name, not the 'units:' line (as once)
    second = text.splitlines().index(f"  - name: {names[1]}") + 1
    assert f"line {second}, field units.1.name: units.0 and units.1" in message
    # a third of the name is told too, as the first's second twin (not of the second)
    third = text.replace(f"- name: {names[2]}\n", f"- name: {names[0]}\n", 1)
    path.write_text(third.replace(f"- name: {names[1]}\n", "- name: Other\n", 1))
    assert "units.0 and units.2 are both named" in str(refused(load_army, path, K47))
