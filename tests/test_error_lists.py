"""A file with several problems is told them one a line, counted first, each at its file
and line, by one formatter for every kind of file (army list, scenario, sweep, rules)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

from kriegsspiel.errors import DataFileError, problems_in
from kriegsspiel.rulesets.bolt_action.army import load_army

DATA = Path(__file__).parents[1] / "src" / "kriegsspiel" / "data"

# a list with three deliberate mistakes: a misspelt quality (line 8), points in words
# (line 15) and a field no model has (line 17)
THREE_MISTAKES = """\
name: Bad Platoon
ruleset: bolt-action-1
faction: Great Britain
points: 100
units:
  - name: Platoon HQ
    type: infantry
    quality: regulr
    points: 60
    models:
      - {name: Lieutenant, weapons: [Rifle], officer: Second Lieutenant}
  - name: 1st Section
    type: infantry
    quality: regular
    points: forty
    models:
      - {name: Corporal, weapons: [Rifle], nco: true, colour: red}
"""


def told_lines(stderr: str, path: Path, count: int) -> list[str]:
    """The problems an error told of ``path``, after checking its first line counts them
    and each of the others is a bullet naming the file."""
    lines = stderr.rstrip("\n").split("\n")
    assert lines[0] == f"kriegsspiel: error: {count} problems in {path}:", stderr
    assert len(lines) == count + 1, stderr
    assert all(line.startswith(f"  - {path}:") for line in lines[1:]), stderr
    return lines[1:]


@pytest.mark.parametrize("command", ["army", "play", "evaluate"])
def test_a_list_with_three_mistakes_is_told_them_one_a_line(tmp_path: Path, command: str) -> None:
    path = tmp_path / "my.yaml"
    path.write_text(THREE_MISTAKES, encoding="utf-8")
    given = {
        "army": [str(path)],
        "play": ["--army", str(path), "--army", "german-grenadier-platoon", "--quiet"],
        "evaluate": ["--army", str(path), "--army", "german-grenadier-platoon"],
    }[command]
    result = run_cli(command, *given, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    quality, points, colour = told_lines(result.stderr, path, 3)
    assert quality.startswith(f"  - {path}:8: field units.0.quality: 'regulr' is not one")
    assert "did you mean 'regular'?" in quality
    assert points == (
        f"  - {path}:15: field units.1.points: should be a whole number, not the text 'forty'"
    )
    assert colour.startswith(f"  - {path}:17: field units.1.models.0.colour: there is no such")
    assert "the fields here are name, count, weapons" in colour


def test_one_problem_is_still_one_paragraph(tmp_path: Path) -> None:
    path = tmp_path / "my.yaml"
    text = THREE_MISTAKES.replace("forty", "40").replace(", colour: red", "")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as refused:
        load_army(path)
    message = str(refused.value)
    assert message.startswith(f"{path}: line 8, field units.0.quality: 'regulr' is not one")
    assert "\n" not in message


def test_the_formatter_names_each_problem_at_its_line_or_its_file_alone() -> None:
    told = problems_in(
        "my.yaml",
        [
            "line 3, field points: must be at least 1 (not 0)",
            "line 9: not JSON (Expecting value)",
            "the file is empty; expected a mapping of fields",
            "line 5, or line 4 above it (check both lines' indentation): not valid YAML",
        ],
    )
    # in line order, the whole file's (no line of its own) first
    assert told.split("\n") == [
        "4 problems in my.yaml:",
        "  - my.yaml: the file is empty; expected a mapping of fields",
        "  - my.yaml:3: field points: must be at least 1 (not 0)",
        "  - my.yaml: line 5, or line 4 above it (check both lines' indentation): not valid YAML",
        "  - my.yaml:9: not JSON (Expecting value)",
    ]
    assert problems_in("my.yaml", ["line 3, field points: 0"]) == "my.yaml: line 3, field points: 0"


def test_a_scenario_with_two_unknown_terrains_is_told_them_one_a_line(tmp_path: Path) -> None:
    text = (DATA / "scenarios" / "meeting-engagement.yaml").read_text(encoding="utf-8")
    lines = text.split("\n")
    first, second = [i for i, line in enumerate(lines) if "category: building" in line][:2]
    lines[first] = lines[first].replace("building", "bilding")
    lines[second] = lines[second].replace("building", "swamp")
    path = tmp_path / "farm.yaml"
    path.write_text("\n".join(lines), encoding="utf-8")
    result = run_cli("scenario", str(path), "--ruleset", "bolt-action-1", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    bilding, swamp = told_lines(result.stderr, path, 2)
    assert bilding.startswith(f"  - {path}:{first + 1}: field terrain.")
    assert "no category 'bilding' (did you mean 'building'?)" in bilding
    assert swamp.startswith(f"  - {path}:{second + 1}: field terrain.")
    assert "no category 'swamp'; its categories are open ground" in swamp


def test_a_sweep_file_with_two_mistakes_is_told_them_one_a_line(tmp_path: Path) -> None:
    text = (DATA / "sweeps" / "konflikt47-walker-or-tank.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "      quality: regular\n", "      quality: vetern\n      colour: grey\n", 1
    )
    path = tmp_path / "sweep.yaml"
    path.write_text(text, encoding="utf-8")
    lines = text.split("\n")
    result = run_cli("sweep", str(path), cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    quality, colour = told_lines(result.stderr, path, 2)
    assert quality.startswith(f"  - {path}:{lines.index('      quality: vetern') + 1}: field ")
    assert "did you mean 'veteran'?" in quality
    assert colour.startswith(f"  - {path}:{lines.index('      colour: grey') + 1}: field ")


def test_a_rules_file_with_two_mistakes_is_told_them_one_a_line(tmp_path: Path) -> None:
    assert run_cli("rules", "--ruleset", "bolt-action-1", "--copy", "house.yaml", cwd=tmp_path)
    path = tmp_path / "house.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("{quality: regular, morale: 9}", "{quality: regular, moral: 9}")
    text = text.replace("{unit_type: infantry, advance: 6,", "{unit_type: infantry, advance: six,")
    path.write_text(text, encoding="utf-8")
    lines = text.split("\n")
    result = run_cli("rules", "house.yaml", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    morale, moral, advance = told_lines(result.stderr, Path("house.yaml"), 3)
    quality = next(i for i, line in enumerate(lines) if "moral: 9" in line) + 1
    assert morale == (
        f"  - house.yaml:{quality}: field quality.rows.1.morale: missing: it must be given here; "
        "give a whole number"
    )
    assert moral.startswith(f"  - house.yaml:{quality}: field quality.rows.1.moral: there is no")
    assert "(did you mean 'morale'?)" in moral
    at = next(i for i, line in enumerate(lines) if "advance: six" in line) + 1
    assert advance == (
        f"  - house.yaml:{at}: field movement.rows.0.advance: should be a whole number, "
        "not the text 'six'"
    )
