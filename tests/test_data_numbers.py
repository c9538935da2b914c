"""Numbers in data files: .inf and .nan are refused where the file is read (file, line,
field), and a number written with an exponent YAML reads as text is told how to write it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

from kriegsspiel.core.scenario import sample_scenarios
from kriegsspiel.errors import DataFileError
from kriegsspiel.rulesets.bolt_action.army import load_army

MEETING = next(p for p in sample_scenarios() if p.stem == "meeting-engagement")
TABLE = "table: {width: 72, height: 48}"
POINT = "[[34, 0], [38, 0]"


def _scenario(folder: Path, old: str, new: str) -> Path:
    text = MEETING.read_text(encoding="utf-8")
    assert old in text
    path = folder / "sc.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "told"),
    [
        (TABLE, "table: {width: .inf, height: 48}",
         "sc.yaml: line 8, field table.width: must be a finite number, not .inf (infinity)"),
        (TABLE, "table: {width: 72, height: -.inf}",
         "line 8, field table.height: must be a finite number, not -.inf"),
        (TABLE, "table: {width: .nan, height: 48}",
         "line 8, field table.width: must be a finite number, not .nan (not a number)"),
        (TABLE, "table: {width: 1.0e+400, height: 48}",
         "line 8, field table.width: must be a finite number, not .inf"),
        (POINT, "[[34, 0], [.nan, 0]",
         "line 18, field terrain.0.polygon.1.0: must be a finite number, not .nan"),
        (TABLE, "table: {width: 1e300, height: 48}", "line 8, field table.width: should be a "
         "number, not the text '1e300' (YAML reads a number with an exponent only as 1.0e+300)"),
        (POINT, "[[34, 0], [1e-12, 0]", "field terrain.0.polygon.1.0: should be a number, not "
         "the text '1e-12' (YAML reads a number with an exponent only as 1.0e-12)"),
        (POINT, "[[34, 0], [2.5E3, 0]", "not the text '2.5E3' (YAML reads a number with an "
         "exponent only as 2.5e+3)"),
    ],
)  # fmt: skip
def test_a_scenario_number_that_is_no_measure_is_refused_naming_its_line_and_field(
    tmp_path: Path, old: str, new: str, told: str
) -> None:
    path = _scenario(tmp_path, old, new)
    for args in (["scenario", "sc.yaml"], ["scenario", "sc.yaml", "--json"],
                 ["play", "--scenario", "sc.yaml", "--quiet"]):  # fmt: skip
        done = run_cli(*args, cwd=tmp_path)
        said = " ".join(done.stderr.split())
        assert done.returncode == 2 and told in said, said
        assert "Traceback" not in said and not done.stdout
        assert "no area" not in said
    assert path.read_text(encoding="utf-8") == MEETING.read_text(encoding="utf-8").replace(
        old, new, 1
    )


def test_the_json_of_a_scenario_is_always_json(tmp_path: Path) -> None:
    """(Infinity, which json.dumps writes for .inf, is no JSON: such a table is refused.)"""
    done = run_cli("scenario", str(MEETING), "--json", cwd=tmp_path)
    assert done.returncode == 0
    json.loads(done.stdout, parse_constant=lambda name: pytest.fail(f"{name} in the JSON"))


@pytest.mark.parametrize(
    ("points", "told"),
    [
        ("1e400", "field points: should be a whole number, not the text '1e400' "
         "(a whole number is written in digits, without an exponent)"),
        ("1.0e+400", "field points: should be a whole number, not .inf (infinity)"),
        ("'1000'", "field points: should be a whole number, not the text '1000' "
         "(write it without quotes)"),
        ("e3", "field points: should be a whole number, not the text 'e3'"),
    ],
)  # fmt: skip
def test_a_lists_points_with_an_exponent_are_told_how_to_write_them(
    tmp_path: Path, points: str, told: str
) -> None:
    source = next(Path(p) for p in _shipped_lists() if Path(p).stem == "us-tesla-company")
    text = source.read_text(encoding="utf-8")
    assert "\npoints: 1000\n" in text
    path = tmp_path / "a.yaml"
    path.write_text(text.replace("\npoints: 1000\n", f"\npoints: {points}\n", 1))
    with pytest.raises(DataFileError) as raised:
        load_army(path)
    said = " ".join(str(raised.value).split())
    assert told in said, said
    if points == "e3":
        assert "exponent" not in said and "quotes" not in said


def _shipped_lists() -> list[Path]:
    from kriegsspiel.rulesets.bolt_action.army import sample_armies

    return list(sample_armies("konflikt47"))
