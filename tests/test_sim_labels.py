"""What evaluate, sweep and results call each list: two lists of one name told apart by
their files, each list's points, and the wording of a few plain cases."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from rich.console import Console

from kriegsspiel.render.evaluation_text import print_evaluation
from kriegsspiel.sim.matchup import build_matchup
from kriegsspiel.sim.runner import evaluate, evaluation_json
from kriegsspiel.sim.stats import percentage_points, plain
from kriegsspiel.sim.store import Store, told_title
from kriegsspiel.sim.sweep import column_points, load_sweep, points_note, row_points

DATA = Path(__file__).parent / "data" / "sim"


def _patrols_and_a_copy(folder: Path) -> None:
    """The test patrols, and copy.yaml: patrol A with its squad made veteran, not renamed
    (its name and its 173 points are patrol A's)."""
    for name in ("patrol-a.yaml", "patrol-b.yaml", "skirmish.yaml"):
        (folder / name).write_text((DATA / name).read_text())
    copy = (DATA / "patrol-a.yaml").read_text().replace("quality: regular", "quality: veteran", 1)
    assert copy != (DATA / "patrol-a.yaml").read_text()
    (folder / "copy.yaml").write_text(copy)


def _report(data: dict[str, Any], width: int = 100) -> str:
    out = io.StringIO()
    print_evaluation(data, Console(file=out, width=width, highlight=False))
    return out.getvalue()


@pytest.fixture(scope="module")
def copy_v_list(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """An evaluation (two games) of copy.yaml against the list it was copied from."""
    folder = tmp_path_factory.mktemp("copy")
    _patrols_and_a_copy(folder)
    matchup = build_matchup(
        "konflikt47",
        folder / "skirmish.yaml",
        [folder / "copy.yaml", folder / "patrol-a.yaml"],
        "random,random",
    )
    return evaluation_json(evaluate(matchup, 2, 1))


def test_two_lists_of_one_name_are_told_apart_by_their_files_in_an_evaluation(
    copy_v_list: dict[str, Any],
) -> None:
    """Both were "Grenadier Patrol" in the header and the outcome rows: which won was lost."""
    a, b = copy_v_list["army_a"], copy_v_list["army_b"]
    assert a["name"] == b["name"] == "Grenadier Patrol"  # (the list's own name, as it says)
    assert (a["shown_as"], b["shown_as"]) == (
        "Grenadier Patrol (copy.yaml)",
        "Grenadier Patrol (patrol-a.yaml)",
    )
    report = " ".join(_report(copy_v_list).split())
    assert "Grenadier Patrol (copy.yaml; 173 points, random) v Grenadier Patrol " in report
    assert "(patrol-a.yaml; 173 points, random)" in report
    assert "army A wins (Grenadier Patrol (copy.yaml))" in report
    assert "army B wins (Grenadier Patrol (patrol-a.yaml))" in report


def test_an_evaluation_gives_each_lists_points_whether_or_not_they_are_equal(
    copy_v_list: dict[str, Any],
) -> None:
    report = " ".join(_report(copy_v_list).split())
    assert "(copy.yaml; 173 points, random)" in report
    assert "not of equal points" not in report  # (173 v 173)
    matchup = build_matchup(
        "konflikt47",
        DATA / "skirmish.yaml",
        [DATA / "patrol-a.yaml", DATA / "patrol-b.yaml"],
        "random,random",
    )
    data = evaluation_json(evaluate(matchup, 2, 1))
    assert data["army_a"]["shown_as"] == "Grenadier Patrol"  # (no clash: the name alone)
    report = " ".join(_report(data).split())
    assert "Grenadier Patrol (173 points, random) v Rifle Patrol (158 points, random)" in report
    assert "note: the lists are not of equal points (173 v 158)." in report


def test_the_units_footnote_is_wrapped_by_the_console_not_broken_by_hand(
    copy_v_list: dict[str, Any],
) -> None:
    """At 80 columns, a hard line break left "objectives" alone on a line."""
    for width in (80, 100, 60):
        lines = [line.rstrip() for line in _report(copy_v_list, width).splitlines()]
        assert "objectives" not in lines
        assert all(len(line) <= width for line in lines if not line.startswith("  game "))
        start = next(i for i, line in enumerate(lines) if line.startswith("Left out:"))
        end = next(i for i in range(start, len(lines)) if lines[i].endswith("says."))
        said = " ".join(lines[start : end + 1])
        assert said == (
            "Left out: pins put on the enemy, an officer's bonus to the units near him, "
            "objectives held, and damage to a vehicle short of a knock-out (its crew "
            "stunned, immobilised, set on fire but not destroyed: only a vehicle knocked out "
            "counts, its whole points): a unit that works so (an HQ, an anti-tank gun, say) "
            "is worth more than its damage says."
        )


def test_a_stored_matchup_of_two_lists_of_one_name_is_titled_with_their_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`results` listed "Grenadier Patrol v Grenadier Patrol" twice, the export's title too:
    only the id told the matchups apart. Files stored before titles told them apart (their
    title is "X v X") are listed and exported so too."""
    monkeypatch.setenv("COLUMNS", "200")  # (a listing's title on one line)
    _patrols_and_a_copy(tmp_path)
    for armies in (["copy.yaml", "patrol-a.yaml"], ["patrol-a.yaml", "copy.yaml"]):
        done = run_cli("evaluate", "--scenario", "skirmish.yaml", "--army", armies[0], "--army",
                       armies[1], "--players", "random,random", "--games", "2", "--workers",
                       "1", "--results", "r.sqlite", "--json", cwd=tmp_path)  # fmt: skip
        assert done.returncode == 0, done.stderr
    with Store(tmp_path / "r.sqlite", read_only=True) as store:
        titles = sorted(run.title for run in store.runs())
    told = [
        "Grenadier Patrol (copy.yaml) v Grenadier Patrol (patrol-a.yaml)",
        "Grenadier Patrol (patrol-a.yaml) v Grenadier Patrol (copy.yaml)",
    ]
    assert titles == told
    # as a file written before titles told them apart holds them
    with sqlite3.connect(tmp_path / "r.sqlite") as db:
        db.execute("UPDATE matchups SET title = 'Grenadier Patrol v Grenadier Patrol'")
    db.close()
    listed = run_cli("results", "--results", "r.sqlite", cwd=tmp_path).stdout
    assert all(title in listed for title in told)
    export = run_cli("results", "--results", "r.sqlite", "--export", "csv", cwd=tmp_path)
    rows = list(csv.DictReader(io.StringIO(export.stdout)))
    assert {row["title"] for row in rows} == set(told)
    assert {(row["army_a"], row["army_b"]) for row in rows} == {
        ("copy.yaml", "patrol-a.yaml"),
        ("patrol-a.yaml", "copy.yaml"),
    }


@pytest.mark.parametrize(
    ("title", "army_a", "army_b", "told"),
    [
        ("X v X", "mine.yaml", "german", "X (mine.yaml) v X (german)"),
        ("X v X", "a/mine.yaml", "b/mine.yaml", "X (a/mine.yaml) v X (b/mine.yaml)"),
        ("X v X", "mine.yaml", "mine.yaml", "X v X"),  # (one list against itself)
        ("X v Y", "x.yaml", "y.yaml", "X v Y"),
        ("X (x.yaml) v X (y.yaml)", "x.yaml", "y.yaml", "X (x.yaml) v X (y.yaml)"),
        ("A v B v A v B", "p.yaml", "q.yaml", "A v B (p.yaml) v A v B (q.yaml)"),
    ],
)
def test_a_stored_title_is_told_apart_only_where_it_names_two_lists_alike(
    title: str, army_a: str, army_b: str, told: str
) -> None:
    assert told_title(title, army_a, army_b) == told


def test_results_lists_the_files_of_matchups_that_share_a_title(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A copy and its list against one opponent: two rows "Grenadier Patrol v Rifle
    Patrol" of different results, told apart only by their ids."""
    monkeypatch.setenv("COLUMNS", "200")
    _patrols_and_a_copy(tmp_path)
    for army in ("copy.yaml", "patrol-a.yaml"):
        done = run_cli("evaluate", "--scenario", "skirmish.yaml", "--army", army, "--army",
                       "patrol-b.yaml", "--players", "random,random", "--games", "2",
                       "--workers", "1", "--results", "r.sqlite", "--json", cwd=tmp_path)  # fmt: skip
        assert done.returncode == 0, done.stderr
    done = run_cli("results", "--results", "r.sqlite", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    titled = [i for i, line in enumerate(lines) if "Grenadier Patrol v Rifle Patrol" in line]
    assert len(titled) == 2  # (each matchup's lists under its title)
    assert sorted(lines[i + 1].split("│")[1].strip() for i in titled) == [
        "lists: copy.yaml v patrol-b.yaml",
        "lists: patrol-a.yaml v patrol-b.yaml",
    ]


def _sweep_with_a_copy(folder: Path) -> Path:
    """The test sweep (patrol A, and its variant of 163 points, against patrol B, of 158),
    with copy.yaml as a second row."""
    _patrols_and_a_copy(folder)
    text = (DATA / "sweep.yaml").read_text()
    path = folder / "sweep.yaml"
    path.write_text(text.replace("lists: [patrol-a.yaml]", "lists: [patrol-a.yaml, copy.yaml]"))
    return path


def test_a_sweep_gives_each_lists_points_and_says_when_they_differ(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No list's points were shown, and nothing said that the lists' points differ."""
    monkeypatch.setenv("COLUMNS", "200")
    _sweep_with_a_copy(tmp_path)
    args = ["sweep", "sweep.yaml", "--workers", "1", "--games", "2", "--no-store"]
    done = run_cli(*args, "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["rows"] == [
        "Grenadier Patrol (patrol-a.yaml)",
        "Grenadier Patrol (copy.yaml)",
        "Grenadier Patrol (riflemen for the MMG)",
    ]
    # (the MMG team, 50 points, gave way to a rifle section of 40)
    assert (data["row_points"], data["column_points"]) == ([173, 173, 163], [158])
    note = "the lists are not of equal points (158 to 173 points; each list's are given with its name)."
    assert data["notices"][0] == note
    text = run_cli(*args, cwd=tmp_path)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    row = next(i for i, line in enumerate(lines) if "Grenadier Patrol (copy.yaml)" in line)
    assert "173 points" in lines[row + 1]  # (under the row's name)
    assert "v Rifle Patrol" in text.stdout and "158 points" in text.stdout
    assert "163 points" in text.stdout
    assert f"note: {note}" in " ".join(text.stdout.split())


def test_a_sweep_of_lists_of_equal_points_says_nothing_of_points(tmp_path: Path) -> None:
    _patrols_and_a_copy(tmp_path)
    (tmp_path / "even.yaml").write_text(
        "name: Even\nruleset: konflikt47\nscenario: skirmish.yaml\nplayers: random,random\n"
        "lists: [patrol-a.yaml]\nagainst: [copy.yaml]\n"
    )
    sweep = load_sweep(str(tmp_path / "even.yaml"))
    assert (row_points(sweep), column_points(sweep)) == ([173], [173])
    assert points_note(sweep) is None


def test_precision_is_echoed_plainly_and_its_bound_said_as_it_is(tmp_path: Path) -> None:
    """0.5 was refused as not "between 0 and 0.5", and 1e-9 echoed as "± 1e-09"."""
    assert (plain(1e-9), plain(0.05), plain(0.5), plain(2.0)) == (
        "0.000000001",
        "0.05",
        "0.5",
        "2.0",
    )
    assert percentage_points(1e-9) == "0.0000001" and percentage_points(0.015) == "1.5"
    done = run_cli("evaluate", "--precision", "0.5", cwd=tmp_path)
    assert done.returncode == 2
    assert (
        "--precision is how far a 95% interval may reach from its rate: more than 0 and less "
        "than 0.5, e.g. 0.01 (got 0.5)."
    ) in done.stderr
    matchup = build_matchup(
        "konflikt47",
        DATA / "skirmish.yaml",
        [DATA / "patrol-a.yaml", DATA / "patrol-b.yaml"],
        "random,random",
    )
    result = evaluate(matchup, 2, 1, precision=1e-9)
    assert any(
        note.startswith("the precision asked for (± 0.000000001) was not reached in 2 games")
        for note in result.notices
    )


def test_a_run_with_no_upset_and_no_draw_says_so_in_one_line(
    copy_v_list: dict[str, Any],
) -> None:
    """It printed "no upset (...), so the draws:" and then "none"."""
    why = "no upset and no draw (army A won 2 of the 2 games either side won)"
    data = copy_v_list | {"surprising": {"why": why, "games": []}}
    lines = [line.strip() for line in _report(data, 200).splitlines()]
    assert f"Surprising games: {why}." in lines
    assert "none" not in lines


def test_a_variants_name_in_the_export_is_documented_with_the_file_that_plays_it(
    tmp_path: Path,
) -> None:
    """The export's army_a of a variant, LIST[VARIANT], is no file; the docs say so, and
    that --lists-to writes it as LIST--VARIANT.yaml, which the docs' rule names."""
    _patrols_and_a_copy(tmp_path)
    (tmp_path / "sweep.yaml").write_text((DATA / "sweep.yaml").read_text())
    done = run_cli("sweep", "sweep.yaml", "--workers", "1", "--games", "2", "--results",
                   "r.sqlite", "--lists-to", "lists", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    export = run_cli("results", "--results", "r.sqlite", "--export", "csv", cwd=tmp_path)
    lists = {row["army_a"] for row in csv.DictReader(io.StringIO(export.stdout))}
    assert "patrol-a.yaml[riflemen for the MMG]" in lists
    assert (tmp_path / "lists" / "patrol-a--riflemen-for-the-mmg.yaml").is_file()
    docs = (Path(__file__).parent.parent / "docs" / "simulation.md").read_text()
    row = next(line for line in docs.splitlines() if line.startswith("| `army_a`, `army_b` |"))
    assert "`LIST[VARIANT]`" in row and "--lists-to DIR" in row
    assert "`DIR/LIST--VARIANT.yaml`" in row
