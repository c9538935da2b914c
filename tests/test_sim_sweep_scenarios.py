"""A sweep over several scenarios: each scenario's table, and all of them pooled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

from kriegsspiel.sim.compare import compare
from kriegsspiel.sim.runner import evaluate
from kriegsspiel.sim.stats import wilson
from kriegsspiel.sim.sweep import load_sweep

DATA = Path(__file__).parent / "data" / "sim"


def _in(tmp_path: Path, scenario: str) -> None:
    for name in ("patrol-a.yaml", "patrol-b.yaml", "skirmish.yaml", "farm.yaml"):
        (tmp_path / name).write_text((DATA / name).read_text())
    text = (DATA / "sweep.yaml").read_text()
    assert "scenario: skirmish.yaml\n" in text
    (tmp_path / "sweep.yaml").write_text(text.replace("scenario: skirmish.yaml\n", scenario))


def test_a_sweep_over_two_scenarios_pools_their_games_and_shows_each(tmp_path: Path) -> None:
    _in(tmp_path, "scenario: [skirmish.yaml, farm.yaml]\n")
    done = run_cli("sweep", "sweep.yaml", "--workers", "1", "--games", "6", "--json",
                   "--no-store", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert [Path(s).name for s in data["scenario"]] == ["skirmish.yaml", "farm.yaml"]
    assert data["seeds"] == [3, 4]  # the file's seed, then the next: independent games
    sweep = load_sweep(str(tmp_path / "sweep.yaml"))
    winners = []
    for k, (seed, on) in enumerate(zip(data["seeds"], data["by_scenario"], strict=True)):
        assert on["seed"] == seed
        played = [evaluate(sweep.grids[k][row][0], 6, seed, keep_winners=True) for row in (0, 1)]
        for row, found in enumerate(played):
            assert on["cells"][row][0]["count"] == found.tally.wins["A"]
        winners.append([bytes(found.tally.winners or b"") for found in played])
    # all scenarios together: the counts summed, the interval over all the games
    for row in (0, 1):
        cell = data["cells"][row][0]
        count = sum(on["cells"][row][0]["count"] for on in data["by_scenario"])
        assert (cell["count"], cell["games"]) == (count, 12)
        assert (cell["low"], cell["high"]) == (wilson(count, 12).low, wilson(count, 12).high)
    # the variant against its list: the pairs of each scenario, one scenario after the other
    (change,) = (data["variants"][0]["against"],)
    base = winners[0][0] + winners[1][0]
    variant = winners[0][1] + winners[1][1]
    expected = compare(base, variant).to_json()
    assert {k: change[0][k] for k in ("wins", "losses")} == expected
    assert change[0]["wins"]["pairs"] == 12
    taken = change[0]["taken_out"][0]
    each = [on["variants"][0]["against"][0]["taken_out"][0] for on in data["by_scenario"]]
    assert taken["survival"]["count"] == sum(u["survival"]["count"] for u in each)
    assert taken["damage_dealt_mean"] == pytest.approx(
        sum(u["damage_dealt_mean"] for u in each) / 2
    )
    shown = " ".join(run_cli("sweep", "sweep.yaml", "--workers", "1", "--games", "6",
                             "--no-store", cwd=tmp_path).stdout.split())  # fmt: skip
    assert "Patrols on skirmish.yaml (seed 3)" in shown
    assert "Patrols on farm.yaml (seed 4)" in shown
    assert "Patrols, all 2 scenarios together" in shown and "12 pairs of games" in shown


@pytest.mark.parametrize(
    ("scenario", "field", "said"),
    [
        ("scenario: [skirmish.yaml, skirmish.yaml]\n", "scenario.1",
         "the same scenario as scenario.0: give each scenario once"),
        ("scenario: [skirmish.yaml, nowhere.yaml]\n", "scenario.1",
         "scenario 'nowhere.yaml' is neither a file nor a shipped scenario"),
        ("scenario: []\n", "scenario", "give a scenario"),
    ],
)  # fmt: skip
def test_a_sweeps_scenarios_are_each_checked_at_their_place(
    tmp_path: Path, scenario: str, field: str, said: str
) -> None:
    _in(tmp_path, scenario)
    done = run_cli("sweep", "sweep.yaml", "--no-store", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    line = 1 + (tmp_path / "sweep.yaml").read_text().splitlines().index(scenario.rstrip("\n"))
    assert f"sweep.yaml: line {line}, field {field}: {said}" in " ".join(done.stderr.split())
