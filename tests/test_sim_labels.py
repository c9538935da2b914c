"""What evaluate, sweep and results call each list: two lists of one name told apart by
their files, each list's points, and the wording of a few plain cases."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from rich.console import Console

from kriegsspiel.render.evaluation_text import print_evaluation
from kriegsspiel.sim.matchup import build_matchup
from kriegsspiel.sim.runner import evaluate, evaluation_json
from kriegsspiel.sim.stats import percentage_points, plain

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
            "objectives held: a unit that works so (an HQ, say) is worth more than its "
            "damage says."
        )


def _sweep_with_a_copy(folder: Path) -> Path:
    """The test sweep (patrol A, and its variant of 163 points, against patrol B, of 158),
    with copy.yaml as a second row."""
    _patrols_and_a_copy(folder)
    text = (DATA / "sweep.yaml").read_text()
    path = folder / "sweep.yaml"
    path.write_text(text.replace("lists: [patrol-a.yaml]", "lists: [patrol-a.yaml, copy.yaml]"))
    return path


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
