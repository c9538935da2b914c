"""A sweep's variants: a list with units replaced, removed or added, made as the file says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from conftest import run_cli

from kriegsspiel.errors import DataFileError
from kriegsspiel.sim.sweep import Sweep, load_sweep

DATA = Path(__file__).parent / "data" / "sim"

HEAD = """\
name: Patrols
ruleset: konflikt47
scenario: skirmish.yaml
players: random,random
games: 2
seed: 3
against: [patrol-b.yaml]
variants:
"""


def _unit(name: str, points: int, weapon: str = "Rifle") -> str:
    return (
        f"{{name: {name}, type: infantry, quality: regular, points: {points}, "
        f"models: [{{name: Grenadier, count: 4, weapons: [{weapon}]}}]}}"
    )


def _sweep(tmp_path: Path, variants: str) -> Path:
    """The sweep file, in ``tmp_path`` beside its lists (named from there: run in it)."""
    for name in ("patrol-a.yaml", "patrol-b.yaml", "skirmish.yaml"):
        (tmp_path / name).write_text((DATA / name).read_text())
    (tmp_path / "sweep.yaml").write_text(HEAD + variants)
    return Path("sweep.yaml")


def _units_and_points(sweep: Sweep, variant: int) -> tuple[list[str], int]:
    made = yaml.safe_load(sweep.rows[sweep.compared[variant].row].text)
    return [u["name"] for u in made["units"]], made["points"]


def test_a_variant_replaces_removes_and_adds_units(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """patrol-a is a Grenadier Squad (123 points) then an MG 42 MMG Team (50)."""
    monkeypatch.chdir(tmp_path)
    sweep = load_sweep(
        str(
            _sweep(
                tmp_path,
                f"""\
  - name: without the MMG
    list: patrol-a.yaml
    remove: MG 42 MMG Team
  - name: a second squad
    list: patrol-a.yaml
    add: {_unit("Second squad", 40)}
  - name: two sections for the squad
    list: patrol-a.yaml
    replace: [Grenadier Squad]
    with:
      - {_unit("First section", 40)}
      - {_unit("Second section", 45)}
  - name: all change
    list: patrol-a.yaml
    replace: MG 42 MMG Team
    with: {_unit("Rifles", 40)}
    remove: [Grenadier Squad]
    add: [{_unit("Scouts", 30)}]
""",
            )
        )
    )
    assert _units_and_points(sweep, 0) == (["Grenadier Squad"], 123)
    assert _units_and_points(sweep, 1) == (
        ["Grenadier Squad", "MG 42 MMG Team", "Second squad"],
        213,
    )
    # the new units take the place of the unit they replace; the rest keep their order
    assert _units_and_points(sweep, 2) == (
        ["First section", "Second section", "MG 42 MMG Team"],
        135,
    )
    assert _units_and_points(sweep, 3) == (["Rifles", "Scouts"], 70)
    assert [c.points for c in sweep.compared] == [-50, 40, -38, -103]
    assert [c.base for c in sweep.compared] == [0, 0, 0, 0]  # patrol-a, added as a row
    first_line = sweep.rows[sweep.compared[3].row].text.splitlines()[0]
    assert first_line == (
        "# patrol-a.yaml, variant 'all change': 'MG 42 MMG Team' replaced by 'Rifles'; "
        "'Grenadier Squad' removed; 'Scouts' added"
    )


def test_a_variant_without_a_unit_plays_and_shows_the_points_it_saves(tmp_path: Path) -> None:
    path = _sweep(
        tmp_path, "  - {name: without the MMG, list: patrol-a.yaml, remove: MG 42 MMG Team}\n"
    )
    (tmp_path / "out").mkdir()
    done = run_cli("sweep", str(path), "--workers", "1", "--no-store", "--lists-to", "out",
                   cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stdout.split())
    assert "(compared with Grenadier Patrol, -50 points)" in said and "2 pairs of games" in said
    written = (tmp_path / "out" / "patrol-a--without-the-mmg.yaml").read_text()
    assert written.startswith(
        "# patrol-a.yaml, variant 'without the MMG': 'MG 42 MMG Team' removed"
    )
    as_json = run_cli("sweep", str(path), "--workers", "1", "--no-store", "--json", cwd=tmp_path)
    assert json.loads(as_json.stdout)["variants"][0]["points_added"] == -50


@pytest.mark.parametrize(
    ("variant", "field", "problem"),
    [
        (
            "    replace: MG 42 MMG Team\n",
            "variants.0",
            "'replace' needs 'with': replace names the units to take out",
        ),
        (f"    with: {_unit('Rifles', 40)}\n", "variants.0", "'with' needs 'replace'"),
        ("    remove: []\n", "variants.0", "a variant changes its list: give replace and with"),
        (
            "    remove: [Grenadier Squad, Tiger]\n",
            "variants.0.remove.1",
            "no unit 'Tiger' in patrol-a.yaml; its units are 'Grenadier Squad', 'MG 42 MMG Team'",
        ),
        (  # a slip of case: the unit it likely means (the designer probe's 'Sniper team')
            f"    replace: MG 42 mmg team\n    with: {_unit('Rifles', 40)}\n",
            "variants.0.replace",
            "no unit 'MG 42 mmg team' (did you mean 'MG 42 MMG Team'?) in patrol-a.yaml",
        ),
        (
            f"    replace: MG 42 MMG Team\n    with: {_unit('Rifles', 40)}\n"
            "    remove: MG 42 MMG Team\n",
            "variants.0.remove",
            "'MG 42 MMG Team' is taken out already, by replace: name each unit once",
        ),
        (
            "    remove: [Grenadier Squad, MG 42 MMG Team]\n",
            "variants.0",
            "the variant leaves its list no units; a list needs at least one",
        ),
        (
            f"    add: [{_unit('Rifles', 40)}, {_unit('Scouts', 30, 'Rilfe')}]\n",
            "variants.0.add.1.models.0.weapons.0",
            "(did you mean 'Rifle'?)",
        ),
        (
            f"    replace: MG 42 MMG Team\n    with: {_unit('Rifles', 40, 'Rilfe')}\n",
            "variants.0.with.models.0.weapons.0",
            "(did you mean 'Rifle'?)",
        ),
        (
            "    replace: MG 42 MMG Team\n    with: {name: MG 42 MMG Team, type: team, quality:"
            " regular, points: 50, models: [{name: Gunner, weapons: [Medium machine gun (MMG)]},"
            " {name: Loader, count: 2}]}\n",
            "variants.0",
            "the variant leaves patrol-a.yaml's units as they were",
        ),
        ("    replace: 5\n", "variants.0.replace", "takes a unit's name, or a list of names"),
        (
            "    add: Rifle Squad\n",
            "variants.0.add",
            "takes a unit, written out as in an army list (name, type, quality, points, models "
            "or vehicle), or a list of units; not 'Rifle Squad'",
        ),
        (
            f"    add: {_unit('MG 42 MMG Team', 40)}\n",
            "variants.0.add.name",
            "the list would have 2 units called 'MG 42 MMG Team'; give the new unit a name",
        ),
    ],
)
def test_a_variant_that_cannot_be_made_is_refused_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variant: str, field: str, problem: str
) -> None:
    monkeypatch.chdir(tmp_path)
    text = f"  - name: broken\n    list: patrol-a.yaml\n{variant}"
    path = _sweep(tmp_path, text)
    with pytest.raises(DataFileError) as refused:
        load_sweep(str(path))
    assert refused.value.path == str(path)
    (said,) = refused.value.problems
    lines = (HEAD + text).splitlines()
    # the line of the field: the variant's own line for a problem with the whole variant
    first = {"variants.0": "  - name: broken"}.get(field)
    key = field.split(".")[2] if first is None else ""
    line = 1 + next(
        i
        for i, row in enumerate(lines)
        if (row == first if first else row.startswith(f"    {key}:"))
    )
    assert said.startswith(f"line {line}, field {field}: "), said
    assert problem in said, said


def test_the_units_table_puts_each_units_figures_in_its_own_row_and_column(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from kriegsspiel.render.sweep_text import print_variant_units

    def unit(name: str, survived: float, per_point: float) -> dict[str, object]:
        rate = {"rate": survived, "low": survived - 0.1, "high": survived + 0.1}
        return {
            "unit": name,
            "slot": 3,  # (its place in its list, counted from 0, as a cell's JSON has it)
            "points": 50,
            "survival": rate,
            "damage_per_point": per_point,
            "damage_per_point_interval": [per_point - 0.1, per_point + 0.1],
        }

    def against(out: tuple[float, float], brought: tuple[float, float]) -> dict[str, object]:
        return {"taken_out": [unit("MMG", *out)], "brought_in": [unit("Rifles", *brought)]}

    monkeypatch.setenv("COLUMNS", "200")
    changes = [
        {
            "variant": "v",
            "against": [
                against((0.11, 0.21), (0.33, 0.43)),
                None,
                against((0.55, 0.65), (0.77, 0.87)),
            ],
        }
    ]
    print_variant_units(["B", "A", "C"], changes)
    lines = capsys.readouterr().out.splitlines()
    out = next(i for i, line in enumerate(lines) if "out: MMG (50 points)" in line)
    brought = next(i for i, line in enumerate(lines) if "in: Rifles (50 points)" in line)
    for row, (first, second) in ((out, ("11% (1%–21%)", "55% (45%–65%)")),
                                 (brought, ("33% (23%–43%)", "77% (67%–87%)"))):  # fmt: skip
        line = lines[row]
        assert first in line and second in line and line.index(first) < line.index(second)
        assert "—" in line[line.index(first) : line.index(second)]  # (no cell against A)
    assert lines[out + 1].index("0.21 (0.11–0.31) a point") < lines[out + 1].index("0.65 (")
    assert lines[brought + 1].index("0.43 (0.33–0.53) a point") < lines[brought + 1].index("0.87")
    # in list order (the default here) each unit's place stands under its name
    assert "(place 4 in the list)" in lines[out + 1] and "(place 4" in lines[brought + 1]


def test_a_bad_unit_brought_in_is_told_at_its_lines_and_nowhere_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The list a variant makes is never seen, so its lines are never named; its points,
    the sum the sweep made, are not told apart from the unit that makes them wrong."""
    monkeypatch.chdir(tmp_path)
    text = (
        "  - name: broken\n    list: patrol-a.yaml\n    replace: [Grenadier Squad, MG 42 MMG Team]\n"
        f"    with: {_unit('Rifles', -500)}\n"
    )
    with pytest.raises(DataFileError) as refused:
        load_sweep(str(_sweep(tmp_path, text)))
    problems = refused.value.problems
    assert problems, problems
    line = 1 + (HEAD + text).splitlines().index(f"    with: {_unit('Rifles', -500)}")
    for problem in problems:
        assert problem.startswith(f"line {line}, field variants.0.with"), problems


def test_the_field_column_is_left_out_where_it_would_only_repeat_a_cell(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from kriegsspiel.render.sweep_text import print_sweep_table

    cell = {"rate": 0.5, "low": 0.2, "high": 0.8, "draws": {"rate": 0.1}, "games": 10,
            "mirrored": False}  # fmt: skip
    alone = {**cell, "opponents": 1}
    print_sweep_table("t", 10, ["a", "b"], ["b", "a"], [[cell, None], [None, cell]],
                      [alone, alone])  # fmt: skip
    assert "the field" not in capsys.readouterr().out
    print_sweep_table("t", 10, ["a", "b"], ["b", "a"], [[cell, None], [None, cell]],
                      [{**cell, "opponents": 2}, alone])  # fmt: skip
    assert "the field" in capsys.readouterr().out
