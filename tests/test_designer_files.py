"""A game designer writing their own rules file, scenario and lists (the designer probe):
each slip told in words that say what would be right, at its own line."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import copy_of, run_cli

from kriegsspiel.core.datafile import yaml_data
from kriegsspiel.core.scenario import sample_scenarios
from kriegsspiel.rulesets.bolt_action.army import sample_armies
from kriegsspiel.rulesets.bolt_action.house import shown

RIFLE = '{name: Rifle, category: small arms, range: 24, shots: "1"}'
DOCS = Path(__file__).parent.parent / "docs"


def _rules(tmp_path: Path, name: str) -> str:
    done = run_cli("rules", name, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _digest(listing: str) -> str:
    found = re.search(r"it is sound \(([0-9a-f]{8})\)", listing)
    assert found is not None, listing
    return found[1]


def test_a_weapons_shots_may_be_written_as_a_whole_number(tmp_path: Path) -> None:
    """shots: 2 was refused ("should be text, not 2; put it in quotes"), though 2 can mean
    nothing but "2" and every other number of the file is written without quotes."""
    copy_of(tmp_path, "konflikt47", (RIFLE, RIFLE.replace('"1"', "2")), name="two.yaml")
    copy_of(tmp_path, "konflikt47", (RIFLE, RIFLE.replace('"1"', '"2"')), name="quoted.yaml")
    two, quoted = _rules(tmp_path, "two.yaml"), _rules(tmp_path, "quoted.yaml")
    assert "Rifle: shots 1 → 2" in two
    # the one rules file, whichever way its shots are written: one digest (one stored game)
    assert _digest(two) == _digest(quoted)
    # the shipped number written unquoted is no change ("1 → 1" once, for a quoted 9)
    copy_of(tmp_path, "konflikt47", (RIFLE, RIFLE.replace('"1"', "1")), name="one.yaml")
    one = _rules(tmp_path, "one.yaml")
    assert "It changes nothing from the shipped data" in one, one
    # dice stay text, and a number that is not whole is told as no number of shots
    copy_of(tmp_path, "konflikt47", (RIFLE, RIFLE.replace('"1"', "2.5")), name="half.yaml")
    done = run_cli("rules", "half.yaml", cwd=tmp_path)
    assert done.returncode == 2
    assert "field weapons.rows.0.shots: '2.5' is not a number of shots" in done.stderr


def test_a_new_row_as_rules_prints_it_pastes_back_into_a_file(tmp_path: Path) -> None:
    """The change list printed a new weapon's row with its shots unquoted, which the file
    then refused; a row's text is now written as YAML reads it back."""
    new = (
        '    - {name: Tesla carbine, category: small arms, range: 18, shots: "2", pen: 1, '
        "special: [Assault]}"
    )
    copy_of(tmp_path, "konflikt47", (RIFLE, f"{RIFLE}\n{new}"), name="house.yaml")
    listing = _rules(tmp_path, "house.yaml")
    row = next(line for line in listing.splitlines() if "Tesla carbine: new, " in line)
    printed = row.split("Tesla carbine: new, ", 1)[1]
    assert "shots: " in printed
    copy_of(tmp_path, "konflikt47", (RIFLE, f"{RIFLE}\n    - {printed}"), name="pasted.yaml")
    assert _digest(_rules(tmp_path, "pasted.yaml")) == _digest(listing)
    # a text YAML would read otherwise is quoted: a number, a ": ", a switch
    row_text = shown({"name": "Gun", "shots": "2", "summary": "Note: read me", "x": "true"})
    assert row_text == '{name: Gun, shots: "2", summary: "Note: read me", x: "true"}'
    assert yaml_data(row_text) == {
        "name": "Gun",
        "shots": "2",
        "summary": "Note: read me",
        "x": "true",
    }


def test_an_unquoted_colon_in_a_text_is_told_with_the_line_written_right(tmp_path: Path) -> None:
    """`source: House rule: regulars are shakier` was "not valid YAML (mapping values are
    not allowed in this context)", PyYAML's words alone."""
    path = copy_of(tmp_path, "konflikt47", name="house.yaml")
    lines = path.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("quality:")) + 1
    lines[at] = "  source: House rule: regulars are shakier"
    path.write_text("\n".join(lines) + "\n")
    done = run_cli("rules", "house.yaml", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"line {at + 1}: not valid YAML (mapping values are not allowed" in done.stderr
    assert (
        'a text holding ": " must be in quotes, or YAML reads what follows it as another '
        f'field; write line {at + 1} as source: "House rule: regulars are shakier"'
    ) in done.stderr


def test_a_line_indented_past_the_one_above_is_told_so(tmp_path: Path) -> None:
    """An over-indented `points:` under a unit got the same bare PyYAML message."""
    (sample,) = [p for p in sample_armies("konflikt47") if p.stem == "us-tesla-company"]
    lines = sample.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("    points:"))
    lines[at] = "  " + lines[at]
    (tmp_path / "slip.yaml").write_text("\n".join(lines) + "\n")
    done = run_cli("army", "slip.yaml", cwd=tmp_path)
    assert done.returncode == 2
    assert (
        f"line {at + 1}: not valid YAML (mapping values are not allowed in this context): "
        f"line {at + 1} is indented further than line {at} above it, so YAML reads it as "
        f"more of that line's text; indent it as line {at} is"
    ) in done.stderr


def _scenario(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    (shipped,) = [p for p in sample_scenarios() if p.stem == "hold-the-crossroads"]
    text = shipped.read_text()
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "scenario.yaml"
    path.write_text(text)
    return path


def test_a_second_objective_of_a_name_is_told_at_its_own_line_as_units_are(
    tmp_path: Path,
) -> None:
    """Two objectives of one name were told at the first's line, with no number
    ("objective names must differ"), where units and terrain name the second's line; all
    three now number them as the field path does (from 0) and name both."""
    second = "  - {name: Crossroads, x: 43, y: 31, points: 1}"
    path = _scenario(tmp_path, ("  - {name: Church, x: 43, y: 31, points: 1}", second))
    line = path.read_text().splitlines().index(second) + 1
    done = run_cli("scenario", path.name, cwd=tmp_path)
    assert done.returncode == 2
    assert (
        f"line {line}, field objectives.1.name: objectives.0 and objectives.1 are both named "
        "'Crossroads': give each objective a name of its own"
    ) in done.stderr
    # terrain, as units: both named, as their field paths number them
    path = _scenario(tmp_path, ("- name: Inn\n", "- name: Church\n"))
    lines = path.read_text().splitlines()
    line = [i for i, text in enumerate(lines) if text == "  - name: Church"][1] + 1
    done = run_cli("scenario", path.name, cwd=tmp_path)
    assert (
        f"line {line}, field terrain.3.name: terrain.2 and terrain.3 are both named 'Church'"
        in done.stderr
    )


def test_a_missing_field_is_told_with_what_it_takes(tmp_path: Path) -> None:
    """ "missing: it must be given here" said nothing of what to give, where a wrong value
    of the same field lists its choices."""
    path = _scenario(tmp_path, ("victory: objectives\n", ""))
    done = run_cli("scenario", path.name, cwd=tmp_path)
    assert done.returncode == 2
    assert (
        "field victory: missing: it must be given here; give 'units destroyed' or 'objectives'"
        in done.stderr
    )
    (sample,) = [p for p in sample_armies("konflikt47") if p.stem == "us-tesla-company"]
    text = sample.read_text()
    (tmp_path / "list.yaml").write_text(text.replace("    type: infantry\n", "", 1))
    done = run_cli("army", "list.yaml", cwd=tmp_path)
    assert done.returncode == 2
    assert (
        "missing: it must be given here; give 'infantry', 'artillery', 'team' or 'vehicle'"
        in done.stderr
    )


def test_a_zone_wholly_in_a_building_is_refused_at_its_line(tmp_path: Path) -> None:
    """A zone inside the church was "sound, but a game given no --army cannot be played
    on it", as if its lists were too large: no list of any size sets up there."""
    zone = "    polygon: [[0, 36], [72, 36], [72, 48], [0, 48]]"
    path = _scenario(tmp_path, (zone, "    polygon: [[40, 29], [46, 29], [46, 33], [40, 33]]"))
    line = path.read_text().splitlines().index("  - side: north") + 1
    said = (
        f"line {line}, field deployment.1: the deployment zone of side 'north' lies wholly in "
        "the building 'Church', where no unit sets up: it can hold no unit of any list"
    )
    done = run_cli("scenario", path.name, cwd=tmp_path)
    assert done.returncode == 2 and "is sound" not in done.stdout + done.stderr
    assert said in done.stderr
    done = run_cli("play", "--scenario", path.name, "--players", "random,random", cwd=tmp_path)
    assert done.returncode == 2 and "field deployment.1: scenario " in done.stderr
    assert "lies wholly in the building 'Church'" in done.stderr
    # a zone the building only shares is a zone: its lists are checked as ever
    path = _scenario(tmp_path, (zone, "    polygon: [[40, 29], [60, 29], [60, 33], [40, 33]]"))
    done = run_cli("scenario", path.name, cwd=tmp_path)
    assert "lies wholly" not in done.stderr


def test_the_docs_say_a_summary_is_checked_not_text_only() -> None:
    """The house rules section said "a row's `summary` is text only" beside the rule that
    refuses a summary whose number is not its row's."""
    text = " ".join((DOCS / "armies-and-scenarios.md").read_text().split())
    assert "`summary` is text only" not in text
    assert "one that says a number other than its row's" in text


def test_a_file_of_another_format_is_named_as_such(tmp_path: Path) -> None:
    """A game record given as a list, a drawing as a scenario and a list to replay were
    each told in their parser's words ("did not find expected <document start>")."""
    header = {"format": "kriegsspiel-record/6", "ruleset": "konflikt47"}
    (tmp_path / "game.jsonl").write_text(json.dumps(header) + '\n{"event": "start"}\n')
    (tmp_path / "table.svg").write_text(
        '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg">\n'
        '  <text x="1" y="2">Crossroads: 2 points</text>\n</svg>\n'
    )
    (sample,) = [p for p in sample_armies("konflikt47") if p.stem == "us-tesla-company"]
    cases = [
        (["army", "game.jsonl"], "this does not look like an army list: it looks like a "
         "kriegsspiel game record"),
        (["scenario", "table.svg"], "this does not look like a scenario: it looks like an SVG "
         "drawing; was another kind of file given?"),
        (["replay", str(sample)], "this does not look like a game record: it looks like an "
         "army list; was another kind of file given?"),
        (["replay", "table.svg"], "this does not look like a game record: it looks like an "
         "SVG drawing"),
    ]  # fmt: skip
    for args, said in cases:
        done = run_cli(*args, cwd=tmp_path)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert said in done.stderr, done.stderr


def test_a_date_no_calendar_has_is_a_problem_of_the_file_not_a_crash(tmp_path: Path) -> None:
    """YAML reads 2024-01-01 as a date, and 2024-13-45 crashed its reader (ValueError), in
    a list and in a file given to replay (asking what kind of file it is)."""
    (tmp_path / "list.yaml").write_text("name: Mine\nwritten: 2024-13-45\nunits: []\n")
    for args, said in [
        (["army", "list.yaml"], "line 2: not valid YAML ('2024-13-45' is no date (month must"),
        (["replay", "list.yaml"], "line 1: not JSON"),
    ]:
        done = run_cli(*args, cwd=tmp_path)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert said in done.stderr, done.stderr


def test_the_charts_of_another_editions_file_are_not_told_to_give_lists(tmp_path: Path) -> None:
    """`army --weapons` takes no lists, but a Konflikt '47 copy given for Bolt Action was
    told "or lists of konflikt47"."""
    copy_of(tmp_path, "konflikt47", name="k47.yaml")
    done = run_cli("army", "--weapons", "--rules-file", "k47.yaml", "-r", "bolt-action-1",
                   cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2
    assert "lists of" not in done.stderr
    assert done.stderr.rstrip().endswith(
        "give a copy of the bolt-action-1 data file, or ask for the konflikt47 charts "
        "(--ruleset konflikt47)."
    )
