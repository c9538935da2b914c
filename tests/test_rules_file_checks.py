"""A designer's rules file (``--rules-file``) that a game could not play, or would play for
ever, is refused as it is read, at its line and field, with what would be right: a table
the game looks up left without a row it reads (movement, damage results, qualities,
officers, damage values), sizes past the tool's limits, names that two rows share, numbers
the rules cannot mean. Each file is the shipped Konflikt '47 data with one edit."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import run_cli

from kriegsspiel.errors import DataFileError
from kriegsspiel.rulesets.bolt_action.data import (
    DATA_DIR,
    MOST_FROM_DICE,
    MOST_MASSIVE_RESULTS,
    MOST_SHOTS,
)
from kriegsspiel.rulesets.bolt_action.edition import rules_for

RIFLE = '{name: Rifle, category: small arms, range: 24, shots: "1"}'
SMG = "aliases: [SMG, submachine gun, sub-machine gun]"
REGULAR = "{names: [regular infantry, regular artillery, regular], kind: infantry, needed: 4}"
MEDIUM_TANK = "{names: [medium tank], kind: armoured, needed: 9}"
HUGE = "100000000000000000000000"  # 10^24, as a typo (or a test of the tool) gives it


def table_of(name: str) -> str:
    """The text of the shipped Konflikt '47 data's table ``name``, its blank line after."""
    text = (DATA_DIR / "konflikt47.yaml").read_text()
    start = text.index(f"\n{name}:\n") + 1
    end = text.find("\n\n", start)
    return text[start : len(text) if end < 0 else end + 2]


def edited(folder: Path, old: str, new: str, edition: str = "konflikt47") -> Path:
    """The shipped data of ``edition`` with its one ``old`` text made ``new``."""
    text = (DATA_DIR / f"{edition.replace('-', '_')}.yaml").read_text()
    assert text.count(old) == 1, old
    path = folder / "house.yaml"
    path.write_text(text.replace(old, new))
    return path


def line_of(path: Path, text: str) -> int:
    """The line of ``path`` where ``text`` first is."""
    return next(n for n, row in enumerate(path.read_text().splitlines(), 1) if text in row)


# (what is edited, to what, the field told, the line it is told at: that of this text, and
# what the message says)
CASES = [
    pytest.param(
        "    - {unit_type: infantry, advance: 6, run: 12}\n", "", "movement.rows",
        "{unit_type: tracked vehicle", "looks up every one of infantry, tracked vehicle, "
        "half-tracked vehicle, wheeled vehicle, walker; missing: infantry",
        id="1-movement-without-infantry",
    ),
    pytest.param(
        "    - {unit_type: walker, advance: 12, run: 18, advance_turns: 2, run_turns: 1}\n",
        "", "movement.rows", "{unit_type: infantry", "missing: walker",
        id="movement-without-walker-of-a-file-with-walkers",
    ),
    pytest.param(
        'tracked: "No Run", walkers: "No Run"}', 'tracked: "No Run"}', "terrain.rows.1.walkers",
        "{category: rough ground", 'missing: this file\'s damage values have walkers, so each '
        'terrain row says how they move: give walkers: "OK", "No Run", "No"',
        id="terrain-row-without-walkers-of-a-file-with-walkers",
    ),
    pytest.param(
        '    - {category: road,', '    - {category: marsh, infantry: "No Run", artillery: "No", '
        'wheeled: "No", tracked: "No Run"}\n    - {category: road,', "terrain.rows.4.walkers",
        "{category: marsh", 'the shipped rough ground row has walkers: "No Run"',
        id="new-terrain-row-without-walkers-of-a-file-with-walkers",
    ),
    pytest.param(
        "    - {unit_type: infantry, advance: 6, run: 12}",
        "    - {unit_type: infantry, advance: 6, run: 12}\n"
        "    - {unit_type: infantry, advance: 5, run: 10}",
        "movement.rows", "{unit_type: infantry", "given twice: infantry",
        id="movement-infantry-twice",
    ),
    pytest.param(
        "    - low: 2\n      high: 2\n", "    - low: 5\n      high: 5\n", "damage_results.rows",
        "    - low: null", "a result of 2 (superficial damage's D6-3 can roll it) falls in no "
        "row; every result from -2 to 7 needs one row exactly",
        id="2-damage-results-without-2",
    ),
    pytest.param(
        "    - low: 3\n      high: 3\n", "    - low: 3\n      high: 4\n", "damage_results.rows",
        "    - low: null", "a result of 4 (", id="damage-results-4-in-two-rows",
    ),
    pytest.param(
        "  open_topped_indirect_bonus: 1\n", "  open_topped_indirect_bonus: 1000\n",
        "damage_results.open_topped_indirect_bonus", "open_topped_indirect_bonus",
        f"must be {MOST_FROM_DICE} or less (not 1000)", id="open-topped-bonus-huge",
    ),
    pytest.param(
        RIFLE, RIFLE.replace('"1"', '"1000000"'), "weapons.rows.0.shots", "{name: Rifle,",
        f"'1000000' shots: kriegsspiel takes at most {MOST_SHOTS} shots a weapon",
        id="3-shots-a-million",
    ),
    pytest.param(
        "extra_hits_vs_infantry: D6", "extra_hits_vs_infantry: 500D6",
        "tesla.extra_hits_vs_infantry", "extra_hits_vs_infantry",
        f"'500D6' can come to as much as 3000; kriegsspiel takes dice that come to at most "
        f"{MOST_FROM_DICE}", id="3-tesla-500D6",
    ),
    pytest.param(
        "  massive_results: 2\n", "  massive_results: 1000000\n",
        "damage_results.massive_results", "massive_results",
        f"must be {MOST_MASSIVE_RESULTS} or less (not 1000000)", id="3-massive-results-a-million",
    ),
    pytest.param(
        "  superficial: D6-3\n", "  superficial: D6-300\n", "damage_results.superficial",
        "superficial: D6", f"'D6-300' can come to -299; kriegsspiel takes dice that come to "
        f"at most {MOST_FROM_DICE} and at least -{MOST_FROM_DICE}", id="roll-far-below-0",
    ),
    pytest.param(
        "  close_quarters_attacks: 1\n", "  close_quarters_attacks: 1000000\n",
        "procedure.close_quarters_attacks", "close_quarters_attacks", "must be 10 or less",
        id="attacks-a-million",
    ),
    pytest.param(
        "    - {quality: regular, morale: 9}\n", "", "quality.rows", "{quality: inexperienced",
        "a unit's morale is its quality's, and army lists give their units every one of "
        "inexperienced, regular, veteran; missing: regular", id="4-no-regular-quality",
    ),
    pytest.param(
        "    - {rank: First Lieutenant, morale_bonus: 2, range: 6}\n", "", "officers.rows",
        "{rank: Second Lieutenant", "army lists give their officers every one of Second "
        "Lieutenant, First Lieutenant, Captain, Major; missing: First Lieutenant",
        id="4-no-first-lieutenant",
    ),
    pytest.param(
        REGULAR, REGULAR.replace("regular infantry, ", ""), "damage_values.rows",
        "{names: [inexperienced infantry", "missing: regular infantry",
        id="4-no-regular-infantry-damage-value",
    ),
    pytest.param(
        f"    - {REGULAR}\n", "", "damage_values.rows", "{names: [inexperienced infantry",
        "missing: regular infantry, regular artillery", id="4-no-regular-damage-value-row",
    ),
    pytest.param(
        REGULAR, REGULAR.replace("kind: infantry, needed: 4", "kind: armoured, needed: 4"),
        "damage_values.rows", "{names: [inexperienced infantry",
        "regular infantry, regular artillery must be named by a row of kind infantry",
        id="regular-infantry-armoured",
    ),
    pytest.param(
        RIFLE, f"{RIFLE}\n    - {RIFLE}", "weapons.rows.0.name", "{name: Rifle,",
        "'Rifle' names 2 rows (weapons.rows.0 and weapons.rows.1;", id="5-two-rifle-rows",
    ),
    pytest.param(
        SMG, "aliases: [SMG, Rifle]", "weapons.rows.2.aliases", "aliases: [SMG, Rifle]",
        "'Rifle' names 2 rows (weapons.rows.0 and weapons.rows.2;", id="5-alias-of-another",
    ),
    pytest.param(
        "{names: [light tank]", "{names: [light tank, medium tank]", "damage_values.rows.7.names",
        "{names: [light tank, medium tank]", "'medium tank' names 2 rows "
        "(damage_values.rows.7 and damage_values.rows.9;", id="damage-value-named-twice",
    ),
    pytest.param(
        "{quality: regular, morale: 9}", "{quality: regular, morale: 0}", "quality.rows.1.morale",
        "{quality: regular, morale: 0}", "must be 2 or more (not 0)", id="5-morale-0",
    ),
    pytest.param(
        "{quality: regular, morale: 9}", "{quality: regular, morale: -3}",
        "quality.rows.1.morale", "{quality: regular, morale: -3}", "must be 2 or more (not -3)",
        id="5-morale-minus-3",
    ),
    pytest.param(
        "  superficial: 0\n  full: 1\n  massive: 3\n", "  superficial: 3\n  full: 1\n  massive: 0\n",
        "damage_thresholds.full", "  full: 1", "must be 3 or more, the superficial margin "
        "(not 1): the margins go up from superficial to full to massive",
        id="5-thresholds-out-of-order",
    ),
    pytest.param(
        "fires_at_assaulters_beyond: 6", "fires_at_assaulters_beyond: -6",
        "vehicle_assault.fires_at_assaulters_beyond", "fires_at_assaulters_beyond: -6",
        "must be 0 or more (not -6", id="5-fires-at-assaulters-beyond-minus-6",
    ),
    pytest.param(
        '{category: open ground, infantry: "OK"', '{category: open ground, infantry: "Maybe"',
        "terrain.rows.0.infantry", "infantry: \"Maybe\"",
        "'Maybe' is not one of the choices here; give 'OK', 'OK*', 'OK**', 'No Run', 'No', "
        "'No*', 'No (!)' or 'x2'", id="5-terrain-maybe",
    ),
    pytest.param(
        "      effect: crew stunned\n", "      effect: immobilised\n",
        "shockwave.vehicle_result", "vehicle_result: crew stunned",
        "'crew stunned' is no effect of the damage_results table's rows",
        id="shockwave-result-of-no-row",
    ),
    # a fraction of the Advance: .nan reversed without limit, a negative one was told as
    # "beyond the -4.5\" allowed"
    pytest.param(
        "  fraction_of_advance: 0.5\n", "  fraction_of_advance: .nan\n",
        "reverse.fraction_of_advance", "fraction_of_advance: .nan",
        "must be a finite number, not .nan (not a number)", id="reverse-nan",
    ),
    pytest.param(
        "  fraction_of_advance: 0.5\n", "  fraction_of_advance: .inf\n",
        "reverse.fraction_of_advance", "fraction_of_advance: .inf",
        "must be a finite number, not .inf (infinity)", id="reverse-inf",
    ),
    pytest.param(
        "  fraction_of_advance: 0.5\n", "  fraction_of_advance: 1.0e+300\n",
        "reverse.fraction_of_advance", "fraction_of_advance: 1.0e+300",
        "must be 1 or less (not 1e+300)", id="reverse-1e300",
    ),
    pytest.param(
        "  recce_fraction_of_advance: 1.0\n", "  recce_fraction_of_advance: -0.5\n",
        "reverse.recce_fraction_of_advance", "recce_fraction_of_advance: -0.5",
        "must be 0 or more (not -0.5)", id="recce-reverse-negative",
    ),
    # a 2D6 test's doubles: fubar_on 1 made FUBAR never happen, 13 too
    pytest.param(
        "  fubar_on: 12\n", "  fubar_on: 1\n", "procedure.fubar_on", "fubar_on: 1",
        "must be 2 (double one) or 12 (double six), not 1: the test is 2D6", id="fubar-on-1",
    ),
    pytest.param(
        "  fubar_on: 12\n", "  fubar_on: -5\n", "procedure.fubar_on", "fubar_on: -5",
        "must be 2 (double one) or 12 (double six), not -5", id="fubar-on-minus-5",
    ),
    pytest.param(
        "  always_passes_on: 2\n", "  always_passes_on: 13\n", "procedure.always_passes_on",
        "always_passes_on: 13", "must be 2 (double one) or 12 (double six), not 13",
        id="always-passes-on-13",
    ),
    pytest.param(
        "  fubar_on: 12\n", "  fubar_on: 2\n", "procedure.fubar_on", "fubar_on: 2",
        "must not be 2, always_passes_on's too: a double cannot both always pass and always "
        "fail; give 12", id="fubar-on-always-passes-on",
    ),
    # distances: movement's .inf was refused, these were not
    pytest.param(
        "  point_blank_inches: 6\n", "  point_blank_inches: .inf\n",
        "procedure.point_blank_inches", "point_blank_inches", "must be a finite number, not "
        ".inf (infinity)", id="point-blank-inf",
    ),
    pytest.param(
        "fires_at_assaulters_beyond: 6", "fires_at_assaulters_beyond: .inf",
        "vehicle_assault.fires_at_assaulters_beyond", "fires_at_assaulters_beyond: .inf",
        "must be a finite number, not .inf (infinity)", id="fires-at-assaulters-beyond-inf",
    ),
    # numbers met by the dice or added to them, held to what dice may come to
    pytest.param(
        "      effect: crew stunned\n      pins: 1\n", f"      effect: crew stunned\n      pins: {HUGE}\n",
        "damage_results.rows.0.pins", f"pins: {HUGE}", f"must be {MOST_FROM_DICE} or less "
        f"(not {HUGE})", id="damage-result-pins-huge",
    ),
    pytest.param(
        "  pins_per_attack: 1\n", f"  pins_per_attack: {HUGE}\n", "procedure.pins_per_attack",
        "pins_per_attack", f"must be {MOST_FROM_DICE} or less", id="pins-per-attack-huge",
    ),
    pytest.param(
        "{8: 1, 9: 1, 10: 2, 11: 2}", f"{{8: {HUGE}, 9: 1}}",
        "gravity_pulse.pen_bonus_by_damage_value.8", "pen_bonus_by_damage_value",
        f"must be {MOST_FROM_DICE} or less", id="gravity-pulse-bonus-huge",
    ),
    pytest.param(
        "hard cover, value: -2}", f"hard cover, value: -{HUGE}}}", "hit_modifiers.rows.8.value",
        "{key: hard_cover", f"must be -{MOST_FROM_DICE} or more (not -{HUGE})",
        id="hit-modifier-huge",
    ),
    pytest.param(
        MEDIUM_TANK, MEDIUM_TANK.replace("needed: 9", "needed: 99"),
        "damage_values.rows.9.needed", "{names: [medium tank]", f"must be {MOST_FROM_DICE} or "
        "less (not 99): a vehicle is damaged on a D6 plus the pen", id="armoured-damage-value-99",
    ),
    pytest.param(
        "  shaped_charge_to_hit: -1\n", f"  shaped_charge_to_hit: {HUGE}\n",
        "procedure.shaped_charge_to_hit", "shaped_charge_to_hit", f"must be {MOST_FROM_DICE} "
        "or less", id="shaped-charge-to-hit-huge",
    ),
    pytest.param(
        "{name: Bazooka, category: heavy weapons, range: 24, shots: \"1\", pen: 5,",
        "{name: Bazooka, category: heavy weapons, range: 24, shots: \"1\", pen: 500,",
        "weapons.rows.15.pen",
        "{name: Bazooka", f"must be {MOST_FROM_DICE} or less (not 500)", id="pen-500",
    ),
    # a special rule played by a table of its own, without it: played as a plain gun
    pytest.param(
        table_of("tesla"), "", "weapons.rows.33.special", "{name: M17 Tesla cannon",
        "Tesla is played by the file's tesla table (its extra hits against infantry), which "
        "it does not have: add a tesla: table", id="tesla-without-its-table",
    ),
    pytest.param(
        table_of("shockwave"), "", "weapons.rows.34.special", "{name: Zvukovoy Proyektor",
        "Shockwave is played by the file's shockwave table", id="shockwave-without-its-table",
    ),
    pytest.param(
        table_of("gravity_pulse"), "", "weapons.rows.35.special", "{name: Schwerefeld",
        "Gravity Pulse is played by the file's gravity_pulse table",
        id="gravity-pulse-without-its-table",
    ),
    # names the account, the odds' tables and the SVG drawing show: one printable line
    pytest.param(
        "{name: Bazooka,", '{name: "Baz\\e[31mooka",', "weapons.rows.15.name", '{name: "Baz',
        "holds an escape character (ESC) at character 4", id="weapon-name-with-an-escape",
    ),
    pytest.param(
        "{name: Bazooka,", '{name: "  ",', "weapons.rows.15.name", '{name: "  "',
        "is blank: give a name", id="weapon-name-blank",
    ),
    pytest.param(
        SMG, 'aliases: [SMG, "sub\\tmachine gun"]', "weapons.rows.2.aliases.1", SMG[:12],
        "holds a tab at character 4", id="weapon-alias-with-a-tab",
    ),
    pytest.param(
        MEDIUM_TANK, '{names: ["medium\\x00tank"], kind: armoured, needed: 9}',
        "damage_values.rows.9.names.0", "{names: [\"medium", "holds a NUL character",
        id="damage-value-name-with-a-nul",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new", "field", "at", "said"), CASES)
def test_a_rules_file_the_game_cannot_play_is_refused_at_its_line_and_field(
    tmp_path: Path, old: str, new: str, field: str, at: str, said: str
) -> None:
    """Each was taken without a word, then crashed a game (KeyError, AssertionError, an
    unknown quality naming no file), ran it for ever, or played what no rule means."""
    path = edited(tmp_path, old, new)
    with pytest.raises(DataFileError) as refused:
        rules_for("konflikt47", str(path))
    message = str(refused.value)
    line = line_of(path, at)
    if field.endswith(".rows"):  # a whole table's rows at fault: told at its key, the line
        line -= 1  # above its first row (``at``), as any block's whole value is
        assert path.read_text().splitlines()[line - 1].strip() == "rows:"
    told = f"{path}: line {line}, field {field}: "  # (of several, each "path:line: field")
    if len(refused.value.problems) > 1:
        told = f"\n  - {path}:{line}: field {field}: "
    assert told in message and said in message.split(told, 1)[1].split("\n")[0], message


def test_the_limits_take_their_own_values(tmp_path: Path) -> None:
    """A limit is a largest value taken, not one past it: a weapon of 20 shots, a Tesla's
    D6+54 hits, four massive results, a hit modifier of -60, a tank's damage value of 60,
    a pen of 60 are played, and a game by them ends in seconds; so are a FUBAR on double
    one (the test's doubles the other way round) and reversing a whole Advance."""
    path = edited(tmp_path, RIFLE, RIFLE.replace('"1"', f'"{MOST_SHOTS}"'))
    text = path.read_text()
    text = text.replace("extra_hits_vs_infantry: D6", "extra_hits_vs_infantry: D6+54")
    text = text.replace("  massive_results: 2\n", f"  massive_results: {MOST_MASSIVE_RESULTS}\n")
    text = text.replace("hard cover, value: -2}", f"hard cover, value: -{MOST_FROM_DICE}}}")
    text = text.replace(MEDIUM_TANK, MEDIUM_TANK.replace("needed: 9", f"needed: {MOST_FROM_DICE}"))
    text = text.replace(
        'range: 24, shots: "1", pen: 5,', f'range: 24, shots: "1", pen: {MOST_FROM_DICE},'
    )
    text = text.replace(
        "  always_passes_on: 2\n  fubar_on: 12\n", "  always_passes_on: 12\n  fubar_on: 2\n"
    )
    text = text.replace("  fraction_of_advance: 0.5\n", "  fraction_of_advance: 1.0\n")
    text = text.replace("at up to half its Advance", "at up to its full Advance")  # (its summary)
    path.write_text(text)
    rules = rules_for("konflikt47", str(path))
    assert rules.weapon("Rifle").shots == str(MOST_SHOTS)
    assert rules.data.damage_results.massive_results == MOST_MASSIVE_RESULTS
    assert rules.hit_modifier("hard_cover") == -MOST_FROM_DICE
    assert rules.target("medium tank").damage_value == MOST_FROM_DICE
    assert rules.weapon("Bazooka").pen == MOST_FROM_DICE
    procedure = rules.data.procedure
    assert (procedure.always_passes_on, procedure.fubar_on) == (12, 2)
    assert rules.data.reverse.fraction_of_advance == 1.0
    played = run_cli("play", "--quiet", "--rules-file", path.name, cwd=tmp_path, timeout=120)
    assert played.returncode == 0 and "Result:" in played.stdout, played.stderr


def test_bolt_action_needs_no_walker_row() -> None:
    """An edition without walkers (no damage value is a walker's) moves none: Bolt Action
    1st edition's data has no walker row, and needs none."""
    rows = [row.unit_type for row in rules_for("bolt-action-1").data.movement.rows]
    assert "walker" not in rows


def test_a_terrain_cell_left_out_is_never_taken_as_ok() -> None:
    """A walker moving by a row without a walkers cell (Bolt Action 1st edition's rows have
    none; a file with walkers must give one) was let through it, even on a Run, as "OK"."""
    from kriegsspiel.core.table import TerrainFeature
    from kriegsspiel.errors import UsageError
    from kriegsspiel.rulesets.bolt_action.game.table_rules import terrain_refusal

    rules = rules_for("bolt-action-1")
    wood = TerrainFeature("Orchard", "wood", "soft", ((0, 0), (6, 0), (6, 6)), False)
    assert (
        terrain_refusal(rules, wood, "tracked", True, True) == "cannot Run through Orchard (wood)"
    )
    with pytest.raises(UsageError, match="its rough ground row has no walkers cell"):
        terrain_refusal(rules, wood, "walkers", True, True)


@pytest.mark.parametrize(
    ("old", "new", "command", "field"),
    [
        ("    - {unit_type: infantry, advance: 6, run: 12}\n", "", ["play", "--quiet"],
         "movement.rows"),
        ("    - low: 2\n      high: 2\n", "    - low: 5\n      high: 5\n",
         ["odds", "shoot", "--weapon", "medium AT gun", "--target", "medium tank"],
         "damage_results.rows"),
        (RIFLE, RIFLE.replace('"1"', '"1000000"'), ["play", "--quiet"], "weapons.rows.0.shots"),
        ("    - {quality: regular, morale: 9}\n", "",
         ["army", "us-tesla-company"], "quality.rows"),
        (SMG, "aliases: [SMG, Rifle]", ["evaluate", "--games", "2", "--no-store"],
         "weapons.rows.2.aliases"),
        (table_of("shockwave"), "", ["odds", "shoot", "--weapon", "zvukovoy"],
         "weapons.rows.34.special"),
        ("  fraction_of_advance: 0.5\n", "  fraction_of_advance: .nan\n", ["play", "--quiet"],
         "reverse.fraction_of_advance"),
    ],
    ids=["play-no-infantry-row", "odds-no-result-2", "play-a-million-shots",
         "army-no-regular", "evaluate-alias-clash", "odds-shockwave-without-its-table",
         "play-reverse-nan"],
)  # fmt: skip
def test_the_commands_refuse_it_in_a_line_with_exit_status_2(
    tmp_path: Path, old: str, new: str, command: list[str], field: str
) -> None:
    """As the tester met them: play, odds, army and evaluate stop with the file's line and
    field, exit status 2, no traceback, and play no game."""
    path = edited(tmp_path, old, new)
    done = run_cli(*command, "--rules-file", path.name, cwd=tmp_path, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    # one problem: "house.yaml: line N, field F: ..."; several, one a line: "house.yaml:N: field F: ..."
    assert re.search(r"house\.yaml(?:: line |:)\d+", done.stderr), done.stderr
    assert f"field {field}: " in done.stderr
    assert "sound" not in done.stdout
    assert not list(tmp_path.glob("*.jsonl"))
