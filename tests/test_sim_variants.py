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
            "Did you mean 'Rifle'",
        ),
        (
            f"    replace: MG 42 MMG Team\n    with: {_unit('Rifles', 40, 'Rilfe')}\n",
            "variants.0.with.models.0.weapons.0",
            "Did you mean 'Rifle'",
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
