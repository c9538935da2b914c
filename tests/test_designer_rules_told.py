"""What a designer's rules file adds, told as what it is (the second designer probe): a
terrain row of its own drawn and briefed by its own cells, a scenario's category that only
a rules file has hinted at, the rules file a scenario was checked by named, and the special
rules a weapon may carry listed where a designer reads first."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import get_args

from conftest import copy_of, run_cli

from kriegsspiel.core.table import TerrainFeature
from kriegsspiel.render.table_svg import feature_kind, terrain_style
from kriegsspiel.rulesets.bolt_action.data import Special
from kriegsspiel.rulesets.bolt_action.edition import rules_for

ROOT = Path(__file__).parent.parent
ROAD = '    - {category: road, infantry: "OK", artillery: "OK", wheeled: "x2", tracked: "x2"}'
MARSH = (
    '    - {category: marsh, infantry: "No Run", artillery: "No", wheeled: "No", tracked: "No Run"}'
)
SCENARIO = """\
name: River Crossing
table: {width: 48, height: 48}
turns: 6
victory: units destroyed
terrain:
  - {name: Water meadow, category: marsh, cover: none,
     polygon: [[4, 20], [24, 20], [24, 28], [4, 28]]}
  - {name: Orchard, category: wood, cover: soft, polygon: [[30, 20], [40, 20], [40, 28], [30, 28]]}
deployment:
  - {side: south, polygon: [[0, 0], [48, 0], [48, 12], [0, 12]]}
  - {side: north, polygon: [[0, 36], [48, 36], [48, 48], [0, 48]]}
"""


def _house(folder: Path) -> Path:
    """A Bolt Action copy adding a marsh row, and a scenario with a water meadow of it."""
    (folder / "river.yaml").write_text(SCENARIO)
    return copy_of(folder, "bolt-action-1", (ROAD, f"{ROAD}\n{MARSH}"), name="house.yaml")


def test_a_rules_files_own_terrain_row_is_told_by_its_cells_not_as_other_terrain(
    tmp_path: Path,
) -> None:
    """A marsh a rules file adds was drawn and briefed as "(marsh, plays as other terrain)",
    in the grey of a category no table has, though the game plays it by its own row."""
    rules = rules_for("bolt-action-1", _house(tmp_path))
    meadow = TerrainFeature("Water meadow", "marsh", "none", ((4, 20), (24, 20), (24, 28)), False)
    told = "marsh: infantry No Run, artillery No, wheeled No, tracked No Run"
    assert feature_kind(meadow, rules) == told  # (the solo game's terrain briefing too)
    style = terrain_style(meadow, rules)
    assert style.label == "marsh" and style.fill != "#bdbdbd"  # (the other terrain's grey)
    drawn = run_cli(
        "scenario", "river.yaml", "--rules-file", "house.yaml", "--svg", "t.svg", cwd=tmp_path
    )
    assert drawn.returncode == 0, drawn.stderr
    svg = (tmp_path / "t.svg").read_text()
    assert f"<title>Water meadow ({told}): no cover</title>" in svg
    assert "<title>Orchard (wood, plays as rough ground): soft cover</title>" in svg
    assert "other terrain" not in svg


def test_a_category_only_a_rules_file_has_is_hinted_at_and_the_files_table_named(
    tmp_path: Path,
) -> None:
    """Without --rules-file a marsh was refused with no hint to give one (a weapon or a
    damage value is given it); with a file lacking it the refusal named Konflikt '47's
    table, not the file's."""
    _house(tmp_path)
    shipped = run_cli("scenario", "river.yaml", "-r", "bolt-action-1", cwd=tmp_path)
    assert shipped.returncode == 2, shipped.stderr
    said = " ".join(shipped.stderr.split())
    assert "field terrain.0.category: Bolt Action (1st edition)'s terrain table has no " in said
    assert (
        "The scenario was checked against the shipped terrain table; if the name is on your "
        "own rules file's, give that file (--rules-file FILE)." in said
    ), said
    assert "Traceback" not in said
    copy_of(tmp_path, "konflikt47", name="k47.yaml")  # (no marsh)
    theirs = run_cli("scenario", "river.yaml", "--rules-file", "k47.yaml", cwd=tmp_path)
    assert theirs.returncode == 2, theirs.stderr
    said = " ".join(theirs.stderr.split())
    assert "the terrain table of the rules file k47.yaml has no category 'marsh'" in said, said
    assert "Konflikt '47's terrain table" not in said and "--rules-file FILE" not in said


def test_a_scenario_checked_by_a_rules_file_names_it_and_its_digest(tmp_path: Path) -> None:
    """The verdict "sound on it" was true only by the rules file, which neither the text
    nor --json named (evaluate, sweep, odds and rules do, with its digest)."""
    _house(tmp_path)
    listing = run_cli("rules", "house.yaml", cwd=tmp_path)
    digest = re.search(r"it is sound \(([0-9a-f]{8})\)", listing.stdout)
    assert digest is not None, listing.stdout
    text = run_cli("scenario", "river.yaml", "--rules-file", "house.yaml", cwd=tmp_path)
    assert text.returncode == 0, text.stderr
    said = " ".join(text.stdout.split())
    assert f"All checked by the rules file house.yaml ({digest[1]}), not the shipped data." in said
    data = run_cli("scenario", "river.yaml", "--rules-file", "house.yaml", "--json", cwd=tmp_path)
    told = json.loads(data.stdout)
    assert (told["rules_file"], told["rules_digest"]) == ("house.yaml", digest[1])
    shipped = json.loads(run_cli("scenario", "meeting-engagement", "--json").stdout)
    assert (shipped["rules_file"], shipped["rules_digest"]) == (None, None)


def test_the_designers_pages_list_the_special_rules_a_weapon_may_carry() -> None:
    """The README's "Your own rules" and the armies-and-scenarios guide said only that a
    rules file cannot change code; the special rules a weapon may name were in the rules
    pages alone, unlisted. Each is now named where a designer looks first, with a link to
    the full list."""
    readme = ROOT.joinpath("README.md").read_text()
    own_rules = readme.split("### Your own rules", 1)[1].split("\n### ", 1)[0]
    guide = ROOT.joinpath("docs", "armies-and-scenarios.md").read_text()
    cannot = guide.split("What a rules file cannot change is code", 1)[1][:600]
    for page, where in ((own_rules, "README"), (cannot, "armies-and-scenarios")):
        flat = " ".join(page.split())
        missing = [rule for rule in get_args(Special) if rule not in flat]
        assert not missing, (where, missing)
        assert "konflikt47.md#the-special-rules-a-weapon-may-carry" in flat, where
    for ruleset in ("konflikt47", "bolt-action-1"):
        rules_page = ROOT.joinpath("docs", "rules", f"{ruleset}.md").read_text()
        listed = rules_page.split("### The special rules a weapon may carry", 1)[1][:1200]
        flat = " ".join(listed.split())
        assert not [rule for rule in get_args(Special) if rule not in flat], ruleset
