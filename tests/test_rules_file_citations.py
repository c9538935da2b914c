"""Where a reason says its numbers came from, when a designer's rules file gave them: a
number from a table (or a row of one) the file changed is told as the file's, by its name;
a table the file left alone keeps its sheet. Konflikt '47's and Bolt Action's reasons here
(Iron Cross's and House Clearing's: test_rules_files_every_ruleset.py); and a file that
changes nothing is the shipped data's in every way that counts: its reasons, its odds, its
digest and the key its stored games are found by."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from pathlib import Path

import pytest
from conftest import copy_of, run_cli

from kriegsspiel.core.report import OddsReport
from kriegsspiel.rulesets.bolt_action import odds as ba_odds
from kriegsspiel.rulesets.bolt_action.edition import rules_for
from kriegsspiel.rulesets.bolt_action.shot import Situation
from kriegsspiel.rulesets.house_clearing import odds as hc_odds
from kriegsspiel.rulesets.house_clearing.data import read_data as read_house_clearing
from kriegsspiel.rulesets.iron_cross import odds as ic_odds
from kriegsspiel.rulesets.iron_cross.data import read_data as read_iron_cross
from kriegsspiel.rulesets.rules_data import shipped_data
from kriegsspiel.sim.matchup import Matchup, Source

LONG_RANGE_2 = (
    "    - {key: long_range, label: Long range, short: long range, value: -1}\n",
    "    - {key: long_range, label: Long range, short: long range, value: -2}\n",
)


def _shoot(rules_file: str | None = None, ruleset: str = "konflikt47") -> OddsReport:
    """Five rifles at long range, pinned, at troops in soft cover: three hit modifiers."""
    situation = Situation(range_inches=20.0, firer_pins=1, cover="soft")
    return ba_odds.shoot_odds(
        ruleset,
        weapons=["rifle:5"],
        target="regular infantry",
        situation=situation,
        rules_file=rules_file,
    )


def _at_a_tank(ruleset: str, rules_file: str | None = None) -> OddsReport:
    """A medium AT gun at a medium tank's side, at long range."""
    situation = Situation(range_inches=40.0, facing="side")
    return ba_odds.shoot_odds(
        ruleset,
        weapons=["medium AT gun"],
        target="medium tank",
        situation=situation,
        rules_file=rules_file,
    )


def _because(report: OddsReport, topic: str) -> str:
    return next(r.because for r in report.reasons if r.topic.strip() == topic)


def test_a_changed_hit_modifier_is_the_files_and_the_others_the_sheets(tmp_path: Path) -> None:
    """Long range at -2 in k47.yaml: its modifier names the file; the base, the pin and the
    cover, as shipped, say nothing of it (the sheet's, as the shipped data's reason says)."""
    path = copy_of(tmp_path, "konflikt47", LONG_RANGE_2, name="k47.yaml")
    shipped = _because(_shoot(), "to hit")
    assert shipped == 'base 3+, 1 pin -1, long range (over 12") -1, soft cover -1'
    house = _shoot(str(path))
    assert _because(house, "to hit") == (
        'base 3+, 1 pin -1, long range (over 12") -2 (rules file ' + str(path) + "), soft cover -1"
    )
    # the same file's damage value and weapon rows, as shipped, are still the sheet's
    assert _because(house, "to damage") == "regular infantry damage value"
    assert _because(house, "5 x Rifle") == 'range 20" of 24"'
    # and the odds are the file's: a 7+ (a 6, then 4+) where the sheet's is a 6+
    assert house.probabilities["p_hit"] == 1 - (1 - Fraction(1, 6) * Fraction(1, 2)) ** 5
    assert _shoot().probabilities["p_hit"] == 1 - Fraction(5, 6) ** 5


def test_the_command_line_names_the_file_that_changed_a_hit_modifier(tmp_path: Path) -> None:
    copy_of(tmp_path, "konflikt47", LONG_RANGE_2, name="k47.yaml")
    asked = ("odds", "shoot", "--weapon", "rifle:5", "--range", "20", "--pins", "1", "--cover")
    done = run_cli(*asked, "soft", "--rules-file", "k47.yaml", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    said = {r["topic"].strip(): r["because"] for r in json.loads(done.stdout)["reasoning"]}
    assert said["to hit"] == (
        'base 3+, 1 pin -1, long range (over 12") -2 (rules file k47.yaml), soft cover -1'
    )
    shipped = run_cli(*asked, "soft", "-r", "konflikt47", "--json")
    assert "rules file" not in shipped.stdout


def test_a_changed_table_with_a_sheet_citation_names_the_file(tmp_path: Path) -> None:
    """Close quarters cite their sheet; a copy whose close quarters changed cites itself
    there, while its unchanged weapons chart and damage values keep their sheet."""
    step = "    - Measure move distance and move assaulting models.\n"
    path = copy_of(tmp_path, "konflikt47", (step, step.replace("Measure", "Check")), name="cq.yaml")
    asked = {"attackers": 5, "attacker_quality": "regular", "defenders": 5}
    report = ba_odds.assault_odds(
        "konflikt47", **asked, defender_quality="regular", rules_file=str(path)
    )  # type: ignore[arg-type]
    assert _because(report, "procedure") == f"rules file {path}"
    assert f"(rules file {path}: 5a-d; at once: assumption)" in _because(report, "sequence")
    shipped = ba_odds.assault_odds("konflikt47", **asked, defender_quality="regular")  # type: ignore[arg-type]
    assert _because(shipped, "procedure") == "sheet 001 (rulebook summary)"
    chart = run_cli("army", "--weapons", "--rules-file", "cq.yaml", cwd=tmp_path)
    assert "weapons chart (sheet 000)" in chart.stdout, chart.stdout
    values = run_cli("army", "--targets", "--rules-file", "cq.yaml", cwd=tmp_path)
    assert "damage values (sheet 001)" in values.stdout, values.stdout


def test_a_changed_weapons_chart_names_the_file_once_in_its_title(tmp_path: Path) -> None:
    """The chart's heading names the rules file read; a chart it changed says so there,
    once, not again after the chart's name (the designer probe saw it twice)."""
    rifle = '{name: Rifle, category: small arms, range: 24, shots: "1"}'
    path = copy_of(tmp_path, "konflikt47", (rifle, rifle.replace("24", "30")), name="r.yaml")
    chart = run_cli("army", "--weapons", "--rules-file", path.name, cwd=tmp_path)
    title = chart.stdout.splitlines()[0].strip()
    assert title == "Konflikt '47 (rules file r.yaml) weapons chart", chart.stdout
    values = run_cli("army", "--targets", "--rules-file", path.name, cwd=tmp_path)
    title = values.stdout.splitlines()[0].strip()
    assert title == "Konflikt '47 (rules file r.yaml) damage values (sheet 001)", values.stdout


def test_a_changed_officer_and_quality_name_the_file(tmp_path: Path) -> None:
    """An order test by a copy whose Second Lieutenant gives +2: the officer's bonus is the
    file's, the quality's morale still the sheet's; the FUBAR chart too."""
    edit = (
        "{rank: Second Lieutenant, morale_bonus: 1,",
        "{rank: Second Lieutenant, morale_bonus: 2,",
    )
    path = copy_of(tmp_path, "konflikt47", edit, name="lt.yaml")
    report = ba_odds.order_test_odds(
        "konflikt47", quality="regular", pins=1, officer="Second Lt", rules_file=str(path)
    )
    assert _because(report, "needs").startswith(
        f"regular morale 9, Second Lt +2 (rules file {path}), 1 pin -1;"
    )
    assert "rules file" not in _because(report, "FUBAR")
    # an officer's range is his row's too, but not his bonus: the bonus is still the sheet's
    ranged = copy_of(
        tmp_path,
        "konflikt47",
        ("{rank: Second Lieutenant, morale_bonus: 1, range: 6}", "{rank: Second Lieutenant, "
         "morale_bonus: 1, range: 9}"),
        name="range.yaml",
    )  # fmt: skip
    report = ba_odds.order_test_odds(
        "konflikt47", quality="regular", pins=1, officer="Second Lt", rules_file=str(ranged)
    )
    assert _because(report, "needs").startswith("regular morale 9, Second Lt +1, 1 pin -1;")


def test_a_rules_file_that_changes_nothing_is_the_shipped_data(tmp_path: Path) -> None:
    """A copy as shipped cites the sheets as the shipped data does, gives the same odds,
    the same digest wherever it lives and whatever its name, and the same key for its
    stored games; its tables are the shipped tables (the data differs only in the name it
    was read by, which its reasons would say had it changed anything)."""
    for ruleset in ("konflikt47", "bolt-action-1"):
        path = copy_of(tmp_path, ruleset, name=f"{ruleset}-copy.yaml")
        fight = {"attackers": 6, "attacker_quality": "veteran", "defenders": 5}
        asked: list[Callable[..., OddsReport]] = [
            partial(_shoot, ruleset=ruleset),
            partial(_at_a_tank, ruleset),
            partial(ba_odds.assault_odds, ruleset, **fight, defender_quality="regular"),
            partial(
                ba_odds.order_test_odds, ruleset, quality="regular", pins=2, officer="Second Lt"
            ),
        ]
        for ask in asked:
            shipped, house = ask(), ask(rules_file=str(path))
            assert house.reasons == shipped.reasons
            assert house.probabilities == shipped.probabilities
        copy = rules_for(ruleset, str(path)).data
        assert copy.rules_file == str(path) and copy.shipped().rules_file is None
        assert copy.model_dump() == copy.shipped().model_dump()
        text = path.read_text()
        assert Source("a.yaml", text).digest == Source(str(shipped_data(ruleset)), text).digest
        scenario, army = Source("s.yaml", "name: s\n"), Source("a.yaml", "name: a\n")

        named = (Source("one.yaml", text), Source(str(shipped_data(ruleset)), text))
        players = ("random", "random")
        keys = {Matchup(ruleset, scenario, (army, army), players, rules).key for rules in named}
        assert len(keys) == 1
    ic = read_iron_cross(shipped_data("iron-cross").read_text(), "ic.yaml")
    ic.cite("sheet", "smoke")  # (what it has worked out is no part of what it is)
    assert ic == read_iron_cross(shipped_data("iron-cross").read_text(), "ic.yaml")
    assert ic != read_iron_cross(shipped_data("iron-cross").read_text(), "other.yaml")
    assert ic_odds.smoke(data=ic).reasons == ic_odds.smoke().reasons
    hc = read_house_clearing(shipped_data("house-clearing").read_text(), "hc.yaml")
    shot = {"weapon": "rifle", "range_inches": 10.0, "weapon_skill": 100, "visible": 3}
    assert hc_odds.shoot(**shot, data=hc).reasons == hc_odds.shoot(**shot).reasons  # type: ignore[arg-type]


# (a row a copy changes, the question whose reason reads it, that reason's topic, and its
# words from the shipped data and from the copy named cited.yaml)
ROWS = [
    (
        ("    - {names: [medium tank], kind: armoured, needed: 9}",
         "    - {names: [medium tank], kind: armoured, needed: 10}"),
        ["odds", "shoot", "--weapon", "medium AT gun", "--target", "medium tank"],
        "damage",
        "total 9 superficial, 10+ full, 12+ massive",
        "total 10 superficial, 11+ full, 13+ massive (rules file cited.yaml)",
    ),
    (
        # the damage results' dice (the designer probe: the reasoning never said them)
        ("  superficial: D6-3", "  superficial: D6-2"),
        ["odds", "shoot", "--weapon", "bazooka", "--range", "10", "--target", "medium tank"],
        "damage",
        "total 9 superficial, 10+ full, 12+ massive; the damage results roll D6-3 for "
        "superficial, D6 for full, 2 x D6 for massive",
        "total 9 superficial, 10+ full, 12+ massive; the damage results roll D6-2 (rules "
        "file cited.yaml) for superficial, D6 for full, 2 x D6 for massive",
    ),
    (
        ("    - {he: 2D6, pins: D3, pen: 3}", "    - {he: 2D6, pins: D6, pen: 3}"),
        ["odds", "shoot", "--weapon", "medium howitzer", "--range", "30"],
        "hits",
        "HE (2D6); D3 pin(s)",
        "HE (2D6); D6 pin(s) (rules file cited.yaml)",
    ),
    (
        ("    - {quality: veteran, morale: 10}", "    - {quality: veteran, morale: 11}"),
        ["odds", "morale", "--quality", "veteran", "--pins", "1"],
        "needs",
        "veteran morale 10, 1 pin -1;",
        "veteran morale 11 (rules file cited.yaml), 1 pin -1;",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("edit", "asked", "topic", "shipped", "house"), ROWS)
def test_a_changed_row_is_the_files_on_the_command_line(
    tmp_path: Path, edit: tuple[str, str], asked: list[str], topic: str, shipped: str, house: str
) -> None:
    """A damage value, an HE row and a quality's morale, each changed in a copy: the
    reason that reads it names the file; the shipped data's says nothing of one."""
    copy_of(tmp_path, "konflikt47", edit, name="cited.yaml")

    def because(*given: str) -> str:
        done = run_cli(*asked, *given, "--json", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        said = {r["topic"].strip(): r["because"] for r in json.loads(done.stdout)["reasoning"]}
        return said[topic]

    assert because("-r", "konflikt47").startswith(shipped)
    assert because("--rules-file", "cited.yaml").startswith(house)


BAZOOKA = '{name: Bazooka, category: heavy weapons, range: 24, shots: "1", pen: 5,'
TESLA = 'range: 36, shots: "1", pen: 1, pen_vs_armour: 7,'


@pytest.mark.parametrize(
    ("ruleset", "weapon", "edit", "changed", "kept"),
    [
        ("bolt-action-1", "bazooka", (BAZOOKA, BAZOOKA.replace("24", "30")),
         ("Bazooka", 'range 20" of 30" (rules file cited.yaml)'), ("to damage", "pen +5,")),
        ("bolt-action-1", "bazooka", (BAZOOKA, BAZOOKA.replace("pen: 5", "pen: 6")),
         ("to damage", "pen +6 (rules file cited.yaml),"), ("Bazooka", 'range 20" of 24"')),
        ("konflikt47", "tesla cannon", (TESLA, TESLA.replace("36", "40")),
         ("M17 Tesla cannon", 'range 20" of 40" (rules file cited.yaml)'),
         ("to damage", "M17 Tesla cannon pen +7 against vehicles")),
        ("konflikt47", "tesla cannon", (TESLA, TESLA.replace("armour: 7", "armour: 8")),
         ("to damage", "M17 Tesla cannon pen +8 against vehicles (rules file cited.yaml)"),
         ("M17 Tesla cannon", 'range 20" of 36"')),
    ],
)  # fmt: skip
def test_only_the_field_of_a_weapon_row_the_file_changed_is_the_files(
    tmp_path: Path,
    ruleset: str,
    weapon: str,
    edit: tuple[str, str],
    changed: tuple[str, str],
    kept: tuple[str, str],
) -> None:
    """A weapon's range changed in a copy: its range is told as the file's, its pen (as
    shipped) is not; its pen changed, the other way round (a row's fields each told by
    whether the file changed it, as 'kriegsspiel rules FILE' lists the changes)."""
    path = copy_of(tmp_path, ruleset, edit, name="cited.yaml")
    listed = run_cli("rules", str(path), cwd=tmp_path)
    assert listed.returncode == 0 and "It changes 1 thing" in listed.stdout, listed.stdout
    report = ba_odds.shoot_odds(
        ruleset,
        weapons=[weapon],
        target="medium tank",
        situation=Situation(range_inches=20.0),
        rules_file=str(path),
    )
    said = {r.topic.strip(): r.because.replace(str(path), "cited.yaml") for r in report.reasons}
    assert said[changed[0]].startswith(changed[1]), said[changed[0]]
    assert said[kept[0]].startswith(kept[1]), said[kept[0]]
    assert "rules file" not in said[kept[0]]
