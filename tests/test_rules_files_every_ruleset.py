"""A designer's rules file in each of the four rulesets: Iron Cross's and House Clearing's
odds by a copy of their data, ``kriegsspiel rules`` for all four, a file of one ruleset's
data given where another's is wanted named as such, and a rules file's checks told in
words (sources, switches, dice, quoted numbers, the field ``ruleset``)."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import copy_of, run_cli

from kriegsspiel.core.datafile import yaml_data
from kriegsspiel.errors import DataFileError, UsageError
from kriegsspiel.rulesets.bolt_action.edition import rules_for
from kriegsspiel.rulesets.house_clearing import odds as hc_odds
from kriegsspiel.rulesets.house_clearing.data import read_data as read_house_clearing
from kriegsspiel.rulesets.iron_cross import odds as ic_odds
from kriegsspiel.rulesets.iron_cross.data import read_data as read_iron_cross
from kriegsspiel.rulesets.rules_data import shipped_data, whose
from kriegsspiel.sim.matchup import Source

RULESETS = ("konflikt47", "bolt-action-1", "iron-cross", "house-clearing")


SMOKE_4 = ("  die: 10\n  needs: 5\n  protected", "  die: 10\n  needs: 4\n  protected")


# -- Iron Cross ----------------------------------------------------------------------
def test_every_iron_cross_odds_command_answers_by_a_rules_file(tmp_path: Path) -> None:
    """Smoke at 4+ on a D10 is 7/10 (the sheet's 5+: 3/5); each Iron Cross command takes
    the file, and its title names it with its digest."""
    copy_of(tmp_path, "iron-cross", SMOKE_4, name="ic.yaml")
    shipped = json.loads(run_cli("odds", "smoke", "--json").stdout)
    house = run_cli("odds", "smoke", "--rules-file", "ic.yaml", "--json", cwd=tmp_path)
    assert house.returncode == 0, house.stderr
    out = json.loads(house.stdout)
    assert (shipped["exact"]["p_success"], out["exact"]["p_success"]) == ("3/5", "7/10")
    assert out["rules_file"] == "ic.yaml" and len(out["rules_digest"]) == 8
    assert out["reasoning"][0]["because"] == "rules file ic.yaml: successful on a 4+ on d10"
    assert shipped["reasoning"][0]["because"] == "sheet: successful on a 5+ on d10"
    commands = [
        ["activation", "--morale-markers", "1"],
        ["reaction"],
        ["terrain-test"],
        ["close-combat"],
        ["shoot", "--range", "10"],  # (the file's own ruleset: no --ruleset needed)
    ]
    for command in commands:
        done = run_cli("odds", *command, "--rules-file", "ic.yaml", cwd=tmp_path)
        assert done.returncode == 0, (command, done.stderr)
        title = " ".join(done.stdout.split())
        assert f"iron-cross, house rules from rules file ic.yaml ({out['rules_digest']})" in title


def test_an_iron_cross_rules_file_changes_the_odds_exactly(tmp_path: Path) -> None:
    """The tables reach the odds: smoke at 4+ is 7/10; a hit at 4+ on the D10 at
    infantry 20" away (one die, no modifier) is 7/10 too, the sheet's 5+ 3/5."""
    path = copy_of(
        tmp_path,
        "iron-cross",
        SMOKE_4,
        ("  machine_gun_dice_at_infantry: 2\n  needs: 5", "  machine_gun_dice_at_infantry: 2\n  needs: 4"),
    )  # fmt: skip
    data = read_iron_cross(path.read_text(), str(path))
    assert ic_odds.smoke(data=data).probabilities["p_success"] == Fraction(7, 10)
    ask = {"target": "infantry", "range_inches": 20.0}
    assert ic_odds.shoot(**ask).probabilities["p_hit"] == Fraction(3, 5)  # type: ignore[arg-type]
    house = ic_odds.shoot(**ask, data=data)  # type: ignore[arg-type]
    assert house.probabilities["p_hit"] == Fraction(7, 10)


VEHICLE = {"target": "vehicle", "range_inches": 20.0, "penetration": 5, "armour": 6}
# (a table changed in a copy, the question whose reason reads it, its topic, and that
# reason's words from the shipped data and from the copy)
CITED = [
    (
        ("  kaboom_radius_inches: 12", "  kaboom_radius_inches: 10"),
        ("shoot", VEHICLE),
        "Kaboom!",
        "6\" on a 6'x4' table (sheet);",
        "6\" on a 6'x4' table (rules file ic.yaml);",
    ),
    (
        ("  markers_per_hit: 1", "  markers_per_hit: 2"),
        ("shoot", VEHICLE),
        "armour",
        "; 1 morale marker per hit (sheet)",
        "; 2 morale markers per hit (rules file ic.yaml)",
    ),
    (
        ("  machine_gun_dice_at_infantry: 2\n  needs: 5",
         "  machine_gun_dice_at_infantry: 2\n  needs: 4"),
        ("shoot", {"target": "infantry", "range_inches": 20.0}),
        "to hit",
        "base 5+ (published rule, as reviews report it)",
        "base 4+ (rules file ic.yaml)",
    ),
    (
        ("  immobilised: true\n  extra_markers: 1", "  immobilised: true\n  extra_markers: 2"),
        ("shoot", VEHICLE),
        "Screech!",
        "+1 morale marker (assumption)",
        "+2 morale markers (rules file ic.yaml)",
    ),
    (
        ("first_activation_needs_roll: false\n  die: 6", "first_activation_needs_roll: false\n  die: 8"),
        ("activation", {"morale_markers": 0, "first_activation": True}),
        "activation",
        "first activation of the turn (sheet: no dice roll",
        "first activation of the turn (rules file ic.yaml: no dice roll",
    ),
    (
        ('      aliases: [half-track, halftrack, half tracked]\n      rough: "3+"',
         '      aliases: [half-track, halftrack, half tracked]\n      rough: "4+"'),
        ("terrain_test", {"unit": "half-track", "terrain": "rough"}),
        "terrain test",
        "Half-tracked vehicle, rough: 3+",
        "Half-tracked vehicle, rough: 4+ (rules file ic.yaml)",
    ),
    (
        ("  on_roll: 6", "  on_roll: 5"),
        ("reaction", {"morale_markers": 0, "command_tokens": 0}),
        "seize the initiative",
        "roll of 6 seizes the initiative (published rule, as reviews report it)",
        "roll of 5 seizes the initiative (rules file ic.yaml)",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("edit", "question", "topic", "shipped", "house"), CITED)
def test_an_iron_cross_reason_names_the_rules_file_that_changed_its_numbers(
    tmp_path: Path,
    edit: tuple[str, str],
    question: tuple[str, dict[str, object]],
    topic: str,
    shipped: str,
    house: str,
) -> None:
    """A number a copy changed is told as the file's, by its name, not as the sheet's (or
    an assumption's, or the published rule's); the shipped data's reason says its source."""
    path = copy_of(tmp_path, "iron-cross", edit, name="ic.yaml")
    data = read_iron_cross(path.read_text(), "ic.yaml")
    ask = getattr(ic_odds, question[0])

    def because(**extra: object) -> str:
        report = ask(**question[1], **extra)
        return next(r.because for r in report.reasons if r.topic == topic)

    assert shipped in because() and "rules file" not in because()
    assert house in because(data=data)


def test_a_table_the_copy_left_alone_is_still_the_sheets(tmp_path: Path) -> None:
    """Only the changed table's reasons name the file: the copy's own penetration table,
    as shipped, is the sheet's; and the command line says it as the Python call does."""
    copy_of(tmp_path, "iron-cross", CITED[0][0], name="ic.yaml")
    done = run_cli(
        "odds", "shoot", "--range", "20", "--target", "vehicle", "--penetration", "5",
        "--armour", "6", "--rules-file", "ic.yaml", "--json", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = {r["topic"]: r["because"] for r in json.loads(done.stdout)["reasoning"]}
    assert said["Kaboom!"].startswith("6\" on a 6'x4' table (rules file ic.yaml);")
    assert said["armour penetration"].endswith("(sheet; markers on top of the hit's own)")
    assert "1 morale marker per hit (sheet)" in said["armour"]


def test_house_clearings_reasons_name_the_rules_file_that_changed_their_numbers(
    tmp_path: Path,
) -> None:
    """A figure's rolls and a shot's divisor, changed in a copy, are the file's; the
    unchanged kind of figure says nothing of the file."""
    path = copy_of(
        tmp_path,
        "house-clearing",
        ("    weapon_skill_dice: 3D6\n    weapon_skill_multiplier: 10",
         "    weapon_skill_dice: 3D6\n    weapon_skill_multiplier: 12"),
        ("    - {name: Half, divisor: 2}", "    - {name: Half, divisor: 3}"),
    )  # fmt: skip
    data = read_house_clearing(path.read_text(), "hc.yaml")
    others = hc_odds.figure(False, data=data).reasons
    assert [r.because for r in others] == [
        "Others (rules file hc.yaml)",
        "Others (rules file hc.yaml): 36 to 216",
    ]
    assert "rules file" not in hc_odds.figure(True, data=data).reasons[0].because
    assert hc_odds.figure(False).reasons[0].because == "Others"
    ask = {"weapon": "rifle", "range_inches": 10.0, "weapon_skill": 100, "visible": 3}
    score = next(r for r in hc_odds.shoot(**ask, data=data).reasons if r.topic == "score needed")  # type: ignore[arg-type]
    assert score.because.endswith("for a chance of a hit (rules file hc.yaml)")
    shipped = next(r for r in hc_odds.shoot(**ask).reasons if r.topic == "score needed")  # type: ignore[arg-type]
    assert shipped.because.endswith("for a chance of a hit (sheet)")


def test_too_many_firing_dice_from_a_rules_file_name_the_file_not_dice(tmp_path: Path) -> None:
    """The firing dice a copy's to_hit gives are told as its, where to change them; the
    ones --dice gives are told as the option's."""
    copy_of(tmp_path, "iron-cross", ("  dice_per_unit: 1", "  dice_per_unit: 300"), name="ic.yaml")
    done = run_cli("odds", "shoot", "--range", "20", "--rules-file", "ic.yaml", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        "kriegsspiel: error: the rules file ic.yaml gives 300 firing dice here (to_hit: "
        "dice_per_unit); exact odds are worked out for at most 200 firing dice, as more would "
        "take minutes: give a smaller number there.\n"
    )
    given = run_cli("odds", "shoot", "-r", "iron-cross", "--range", "20", "--dice", "300")
    assert given.returncode == 2
    assert given.stderr.startswith("kriegsspiel: error: --dice: exact odds are worked out")


def test_the_untrue_fixed_in_the_code_message_is_gone(tmp_path: Path) -> None:
    """Iron Cross's data is a file that can be copied, not rules fixed in the code."""
    done = run_cli("rules", "--ruleset", "iron-cross", "--copy", "ic.yaml", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "ic.yaml").read_text() == shipped_data("iron-cross").read_text()
    assert "fixed in the code" not in done.stderr + done.stdout


# -- House Clearing ------------------------------------------------------------------
def test_house_clearings_figure_odds_answer_by_a_rules_file(tmp_path: Path) -> None:
    """Others rolling 3D6x12: their weapon skill runs 36 to 216 in steps of 12."""
    path = copy_of(
        tmp_path,
        "house-clearing",
        ("    weapon_skill_dice: 3D6\n    weapon_skill_multiplier: 10",
         "    weapon_skill_dice: 3D6\n    weapon_skill_multiplier: 12"),
    )  # fmt: skip
    data = read_house_clearing(path.read_text(), str(path))
    skills = hc_odds.figure(False, data=data).details["weapon_skill"]
    assert (min(skills), max(skills), sorted(skills)[1]) == (36, 216, 48)
    done = run_cli("odds", "figure", "--rules-file", path.name, "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rules_file"] == path.name


def test_weapon_skills_follow_each_kind_of_figures_own_multiplier(tmp_path: Path) -> None:
    """With Others at 3D6x12 and officers at 4D6x10, 38 is no figure's skill (it was taken,
    between 36 and 240 by a step of 2); 48 and 50 are; the limit is said to be the file's."""
    copy_of(
        tmp_path,
        "house-clearing",
        ("    weapon_skill_dice: 3D6\n    weapon_skill_multiplier: 10",
         "    weapon_skill_dice: 3D6\n    weapon_skill_multiplier: 12"),
        name="hc.yaml",
    )  # fmt: skip
    ask = ["odds", "shoot", "-r", "house-clearing", "-w", "rifle", "--range", "13",
           "--visible", "5", "--rules-file", "hc.yaml"]  # fmt: skip
    for skill in ("48", "50"):
        assert run_cli(*ask, "--weapon-skill", skill, cwd=tmp_path).returncode == 0
    refused = run_cli(*ask, "--weapon-skill", "38", cwd=tmp_path)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr == (
        "kriegsspiel: error: --weapon-skill 38: a figure's weapon skill is 4D6x10 or 3D6x12, "
        "so 40 to 240 in steps of 10 (4D6x10) or 36 to 216 in steps of 12 (3D6x12) (as the "
        "rules file hc.yaml has it).\n"
    )


def test_a_band_edge_count_is_told_at_the_weapons_row(tmp_path: Path) -> None:
    rifle = "    - name: Rifle\n      edges: [5, 10, 15, 20, 25]"
    path = copy_of(tmp_path, "house-clearing", (rifle, rifle.replace(", 25]", "]")))
    line = path.read_text().splitlines().index("      edges: [5, 10, 15, 20]") + 1
    with pytest.raises(DataFileError) as told:
        read_house_clearing(path.read_text(), "hc.yaml")
    assert f"line {line}, field range_bands.weapons." in str(told.value)
    assert "4 band edges for 5 range bands: give 5, one per band" in str(told.value)


@pytest.mark.parametrize(("die", "taken"), [(5, True), (6, True), (7, False), (10, False)])
def test_the_cover_die_keeps_the_fifths(tmp_path: Path, die: int, taken: bool) -> None:
    """A D10 would make 2 of 5 visible a chance of 2 in 10: refused, with what to give."""
    path = copy_of(
        tmp_path, "house-clearing", ("  die: 6\n  visible:", f"  die: {die}\n  visible:")
    )
    if taken:
        assert read_house_clearing(path.read_text(), "hc.yaml").cover.die == die
        return
    with pytest.raises(DataFileError, match=f"give 5 or 6, not {die}"):
        read_house_clearing(path.read_text(), "hc.yaml")


# -- kriegsspiel rules, for all four -------------------------------------------------
def test_rules_lists_copies_and_checks_every_ruleset(tmp_path: Path) -> None:
    listed = run_cli("rules", "--json")
    assert [row["ruleset"] for row in json.loads(listed.stdout)] == list(RULESETS)
    text = " ".join(run_cli("rules").stdout.split())
    for ruleset in RULESETS:
        assert str(shipped_data(ruleset)) in text
    for ruleset in ("iron-cross", "house-clearing"):
        copied = run_cli("rules", "-r", ruleset, "--copy", "c.yaml", cwd=tmp_path)
        assert copied.returncode == 0, copied.stderr
        same = run_cli("rules", "c.yaml", cwd=tmp_path)
        assert same.returncode == 0 and "changes nothing" in same.stdout, same.stderr
        (tmp_path / "c.yaml").unlink()
    copy_of(tmp_path, "iron-cross", SMOKE_4, name="ic.yaml")
    told = run_cli("rules", "ic.yaml", cwd=tmp_path)
    lines = [line.strip() for line in told.stdout.splitlines()]
    digest = Source("", (tmp_path / "ic.yaml").read_text()).short_digest
    assert (
        lines[0]
        == f"ic.yaml: rules data of Iron Cross (iron-cross), checked: it is sound ({digest})."
    )
    assert lines[1:4] == ["It changes 1 thing from the shipped data:", "smoke", "needs: 5 → 4"]
    data = json.loads(run_cli("rules", "ic.yaml", "--json", cwd=tmp_path).stdout)
    assert (data["ruleset"], data["rules_digest"], data["shipped"]) == (
        "iron-cross", digest, "iron_cross.yaml"
    )  # fmt: skip
    assert data["changes"] == [{"table": "smoke", "row": None, "field": "needs",
                                "change": "changed", "shipped": 5, "file": 4,
                                "faces": None}]  # fmt: skip


def test_rules_names_the_edition_the_file_is_played_as(tmp_path: Path) -> None:
    """A Konflikt '47 copy whose ruleset says bolt-action-1 is played as Bolt Action: the
    header said "rules data of Konflikt '47" (its title)."""
    copy_of(
        tmp_path, "konflikt47", ("ruleset: konflikt47", "ruleset: bolt-action-1"), name="k.yaml"
    )
    told = run_cli("rules", "k.yaml", cwd=tmp_path)
    assert told.returncode == 0, told.stderr
    assert "k.yaml: rules data of Bolt Action 1st edition (bolt-action-1), checked" in told.stdout


def test_an_old_copy_without_the_ruleset_field_is_read_where_the_ruleset_is_given(
    tmp_path: Path,
) -> None:
    """A copy made before the field was there: taken under --ruleset house-clearing;
    without it, told to give it (or add the field), from what its tables are."""
    path = copy_of(tmp_path, "house-clearing", ("ruleset: house-clearing", ""), name="old.yaml")
    assert read_house_clearing(path.read_text(), "old.yaml").ruleset is None
    ask = ["odds", "shoot", "-w", "rifle", "--range", "13", "--weapon-skill", "120",
           "--visible", "5", "--rules-file", "old.yaml"]  # fmt: skip
    assert run_cli(*ask, "-r", "house-clearing", cwd=tmp_path).returncode == 0
    assert run_cli("rules", "old.yaml", "-r", "house-clearing", cwd=tmp_path).returncode == 0
    bare = run_cli("rules", "old.yaml", cwd=tmp_path)
    assert bare.returncode == 2
    assert "give --ruleset house-clearing, or add 'ruleset: house-clearing'" in bare.stderr
    odds = run_cli(*ask, cwd=tmp_path)
    assert odds.returncode == 2 and "give --ruleset house-clearing" in odds.stderr


# -- another ruleset's data, named as such -------------------------------------------
HC_NAMED = (
    "is the rules data of house-clearing (House Clearing), as its field ruleset says (hc.yaml:5)"
)
IC_NAMED = "is the rules data of iron-cross (Iron Cross), as its field ruleset says (ic.yaml:5)"
K47_NAMED = "is the rules data of konflikt47 (Konflikt '47), as its field ruleset says (k47.yaml:6)"
GAMES = "games are played by konflikt47 and bolt-action-1: give a copy of"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["play", "--rules-file", "hc.yaml"], [HC_NAMED, GAMES]),
        (["evaluate", "--games", "1", "--rules-file", "ic.yaml"], [IC_NAMED, GAMES]),
        (["odds", "morale", "--rules-file", "hc.yaml"],
         [HC_NAMED, "'odds morale' is for konflikt47 and bolt-action-1: give a copy of"]),
        (["odds", "shoot", "-r", "bolt-action-1", "--rules-file", "hc.yaml"],
         [HC_NAMED, "not of bolt-action-1; give --ruleset house-clearing, or a copy"]),
        (["odds", "shoot", "-r", "house-clearing", "-w", "rifle", "--range", "13",
          "--weapon-skill", "120", "--visible", "5", "--rules-file", "k47.yaml"],
         [K47_NAMED, "not of house-clearing; give --ruleset konflikt47, or a copy of "
          "house-clearing's data (kriegsspiel rules --ruleset house-clearing --copy FILE)"]),
        (["odds", "activation", "--rules-file", "hc.yaml"],
         [HC_NAMED, "'odds activation' is for iron-cross: give a copy of iron-cross's data"]),
        (["odds", "figure", "--rules-file", "ic.yaml"], [IC_NAMED, "'odds figure' is for"]),
        (["rules", "k47.yaml", "-r", "house-clearing"],
         [K47_NAMED + ", not of house-clearing, the ruleset --ruleset asks for"]),
        (["army", "german-grenadier-platoon", "--rules-file", "ic.yaml"], [IC_NAMED, GAMES]),
    ],
)  # fmt: skip
def test_another_rulesets_data_is_named_as_such(
    tmp_path: Path, args: list[str], said: list[str]
) -> None:
    """Not "this does not look like a rules data file ... was another kind of file
    given?" for a file copied from the project."""
    for ruleset, name in (("house-clearing", "hc"), ("iron-cross", "ic"), ("konflikt47", "k47")):
        copy_of(tmp_path, ruleset, name=f"{name}.yaml")
    done = run_cli(*args, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    for words in said:
        assert words in done.stderr, done.stderr
    assert "does not look like" not in done.stderr


def test_a_copy_without_the_field_is_known_by_its_tables(tmp_path: Path) -> None:
    text = shipped_data("iron-cross").read_text().replace("ruleset: iron-cross", "")
    found = whose(text)
    assert found is not None and found.ruleset == "iron-cross" and not found.by_field
    line = text.splitlines().index("turn_order:") + 1
    told = f"its tables turn_order, command_tokens and initiative say (old-ic.yaml:{line})"
    assert found.told("old-ic.yaml") == f"the rules data of iron-cross (Iron Cross), as {told}"
    with pytest.raises(UsageError, match=re.escape(told)):
        rules_for("konflikt47", "old-ic.yaml", text)
    assert whose("name: a list\nunits: []\n") is None  # (another kind of file: not told so)


# -- a rules file's checks in words --------------------------------------------------
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_house_rule_source_is_taken_in_every_ruleset(tmp_path: Path, ruleset: str) -> None:
    """A designer marks a changed table "house rule: ..."; any other text is told what a
    source may be (for House Clearing it was the regular expression '^assumption')."""
    text = shipped_data(ruleset).read_text()
    first = next(line for line in text.splitlines() if line.startswith("  source: "))
    for source, taken in (("house rule: my change", True), ("my change", False)):
        path = tmp_path / "house.yaml"
        path.write_text(text.replace(first, f'  source: "{source}"', 1))
        read = {
            "iron-cross": lambda t: read_iron_cross(t, "house.yaml"),
            "house-clearing": lambda t: read_house_clearing(t, "house.yaml"),
        }.get(ruleset, lambda t: rules_for(ruleset, "house.yaml", t))
        if taken:
            read(path.read_text())
            continue
        with pytest.raises(DataFileError) as told:
            read(path.read_text())
        assert "source 'my change' must be " in str(told.value)
        assert "'house rule' (a designer's own change)" in str(told.value)
        assert "pattern" not in str(told.value)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_shipped_data_never_says_house_rule(ruleset: str) -> None:
    """Every table of the shipped data is a sheet's, a published rule or an assumption:
    "house rule" is a designer's word for a copy's change."""

    def sources(value: object) -> list[str]:
        if isinstance(value, dict):
            own = [str(value["source"])] if "source" in value else []
            return own + [s for v in value.values() for s in sources(v)]
        if isinstance(value, list):
            return [s for v in value for s in sources(v)]
        return []

    found = sources(yaml_data(shipped_data(ruleset).read_text()))
    assert found and not [s for s in found if s.lower().startswith("house rule")]


@pytest.mark.parametrize(
    ("ruleset", "old", "new", "message"),
    [
        ("konflikt47", "  down_halves_he_hits: true", "  down_halves_he_hits: yes please",
         "field procedure.down_halves_he_hits: should be true or false, not the text "
         "'yes please'"),
        ("konflikt47", "  down_halves_he_hits: true", '  down_halves_he_hits: "true"',
         "should be true or false, not the text 'true' (write it without quotes)"),
        ("house-clearing", "    initiative: D3+1", "    initiative: D3 plus 1",
         "field figures.officer.initiative: 'D3 plus 1' is not a dice expression (write "
         "e.g. 3, D6, 2D6-1 or D3+1)"),
        ("iron-cross", 'rough: "3+"', "rough: three",
         "'three' is not a terrain test: the score a die needs ('6' for a 6 only, '3+' for "
         "3 or more), 'no test' or 'Impassable'"),
        ("iron-cross", "  first_activation_needs_roll: false", "  first_activation_needs_roll: no way",
         "field activation.first_activation_needs_roll: should be true or false, not the "
         "text 'no way'"),
        ("konflikt47", "ruleset: konflikt47", "ruleset: konflict47",
         "line 6, field ruleset: 'konflict47' is not one of the choices here (did you mean "
         "'konflikt47'?); give 'konflikt47' or 'bolt-action-1'"),
        ("house-clearing", "ruleset: house-clearing", "ruleset: house-clearin",
         "line 5, field ruleset: 'house-clearin' is not one of the choices here (did you "
         "mean 'house-clearing'?)"),
        ("konflikt47", "{name: Rifle, category: small arms, range: 24,",
         "{name: Rifle, category: small arms, range: 0,",
         "field weapons.rows.0.range: must be 1 or more (not 0)"),
    ],
)  # fmt: skip
def test_a_rules_files_mistakes_are_told_in_words(
    tmp_path: Path, ruleset: str, old: str, new: str, message: str
) -> None:
    """pydantic's "unable to interpret input" and its regular expressions, and a typo of
    the edition (it advised --ruleset konflict47, which is then refused), told plainly."""
    text = shipped_data(ruleset).read_text()
    assert old in text, old
    (tmp_path / "house.yaml").write_text(text.replace(old, new, 1))
    args = {
        "iron-cross": ["odds", "smoke", "--rules-file", "house.yaml"],
        "house-clearing": ["odds", "figure", "--rules-file", "house.yaml"],
    }.get(ruleset, ["rules", "house.yaml"])
    done = run_cli(*args, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert message in done.stderr, done.stderr
    assert "--ruleset konflict47" not in done.stderr


@pytest.mark.parametrize(
    ("ruleset", "old", "new"),
    [
        ("konflikt47", "    - {quality: regular, morale: 9}", '    - {quality: regular, morale: "9"}'),
        ("house-clearing", "    weapon_skill_multiplier: 10\n  other", '    weapon_skill_multiplier: "10"\n  other'),
        ("iron-cross", "  needs: 5\n  protected", '  needs: "5"\n  protected'),
    ],
)  # fmt: skip
def test_a_number_in_quotes_is_refused(tmp_path: Path, ruleset: str, old: str, new: str) -> None:
    """A quoted 9 was taken, listed as a change "9 → 9" and given a digest of its own, so
    an identical variant was stored as another matchup; a number unquoted where text is
    wanted was already refused, so quoting is refused the other way too."""
    path = copy_of(tmp_path, ruleset, (old, new))
    done = run_cli("rules", path.name, "-r", ruleset, cwd=tmp_path)
    assert done.returncode == 2, done.stdout
    assert "should be a whole number, not the text" in done.stderr
    assert "(write it without quotes)" in done.stderr


@pytest.mark.parametrize(
    ("args", "subject", "asked"),
    [
        (["rules", "k47.yaml", "-r", "bolt-action-1"], "rules k47.yaml: this file",
         "the ruleset --ruleset asks for"),
        (["play", "-r", "bolt-action-1", "--rules-file", "k47.yaml"],
         "--rules-file k47.yaml: this file", "the edition --ruleset asks for"),
        (["army", "--weapons", "-r", "bolt-action-1", "--rules-file", "k47.yaml"],
         "--rules-file k47.yaml: this file", "the edition --ruleset asks for"),
        (["odds", "morale", "-r", "bolt-action-1", "--rules-file", "k47.yaml"],
         "k47.yaml: this file", "the edition asked for"),
    ],
)  # fmt: skip
def test_the_other_editions_file_is_named_one_way_at_the_line_that_tells_it(
    tmp_path: Path, args: list[str], subject: str, asked: str
) -> None:
    """A Konflikt '47 copy given for Bolt Action: every command names the editions by the
    names --ruleset takes (the file's own once with its full name: it was "Konflikt '47"
    in one command, "konflikt47" in another) and points at the file's line that says
    whose it is (it gave no line)."""
    path = copy_of(tmp_path, "konflikt47", name="k47.yaml")
    line = path.read_text().splitlines().index("ruleset: konflikt47") + 1
    done = run_cli(*args, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.startswith(
        f"kriegsspiel: error: {subject} is the rules data of konflikt47 (Konflikt '47), as "
        f"its field ruleset says (k47.yaml:{line}), not of bolt-action-1, {asked}; give "
    ), done.stderr
    assert done.stderr.count("Konflikt '47") == 1 and "Bolt Action 1st" not in done.stderr


def test_the_other_editions_file_is_told_in_words_that_fit_the_command(tmp_path: Path) -> None:
    """Odds asked under --ruleset konflikt47 of a Bolt Action copy; rules and play, which
    tell it in their own words (it was "--rules-file ...: the question is asked under")."""
    copy_of(tmp_path, "bolt-action-1", name="ba.yaml")
    odds = run_cli("odds", "morale", "-r", "konflikt47", "--rules-file", "ba.yaml", cwd=tmp_path)
    assert odds.returncode == 2
    assert odds.stderr == (
        "kriegsspiel: error: ba.yaml: this file is the rules data of bolt-action-1 (Bolt "
        "Action 1st edition), as its field ruleset says (ba.yaml:7), not of konflikt47, the "
        "edition asked for; give --ruleset bolt-action-1, or a copy of the konflikt47 data "
        "file.\n"
    )
    for args in (["rules", "ba.yaml", "-r", "konflikt47"], ["play", "-r", "konflikt47",
                 "--rules-file", "ba.yaml"]):  # fmt: skip
        done = run_cli(*args, cwd=tmp_path)
        assert done.returncode == 2 and "bolt-action-1" in done.stderr
        assert "question is asked" not in done.stderr


def test_an_iron_cross_die_has_at_most_100_faces(tmp_path: Path) -> None:
    """A D100 is taken; a D101 (a typo's million-sided die took seconds to enumerate) is
    refused at its line, as a limit of the tool."""
    for die, taken in ((100, True), (101, False)):
        path = copy_of(
            tmp_path,
            "iron-cross",
            ("  die: 10\n  needs: 5\n  protected", f"  die: {die}\n  needs: 5\n  protected"),
        )
        if taken:
            assert read_iron_cross(path.read_text(), "ic.yaml").smoke.die == die
            continue
        with pytest.raises(
            DataFileError, match=r"field smoke\.die: must be 100 or less \(not 101\)"
        ):
            read_iron_cross(path.read_text(), "ic.yaml")
