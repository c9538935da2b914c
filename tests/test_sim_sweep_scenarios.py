"""A sweep over several scenarios: each scenario's table, and all of them pooled."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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
        assert (cell["games_played"], cell["games_reused"]) == (12, 0)
        assert [on["cells"][row][0]["games_played"] for on in data["by_scenario"]] == [6, 6]
        assert (cell["low"], cell["high"]) == (wilson(count, 12).low, wilson(count, 12).high)
        lost = sum(on["cells"][row][0]["losses"]["count"] for on in data["by_scenario"])
        assert cell["losses"] == wilson(lost, 12).to_json()
    assert [on["games_played"] for on in data["by_scenario"]] == [12, 12]
    assert data["games_played"] == 24
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
        ("scenario: 5\n", "scenario", "takes a scenario (a file or a shipped scenario's "
         "name), or a list of them; not 5"),
        ("scenario: [skirmish.yaml, 7]\n", "scenario",
         "takes a scenario (a file or a shipped scenario's name), or a list of them; not "
         "['skirmish.yaml', 7]"),
        ("scenario: ''\n", "scenario", "takes a scenario"),
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


def test_a_blank_scenario_is_the_rulesets_sample(tmp_path: Path) -> None:
    """Left blank, as when it is left out: a sweep file written so before lists came in."""
    _in(tmp_path, "scenario:\n")
    sweep = load_sweep(str(tmp_path / "sweep.yaml"))
    assert [source.label for source in sweep.scenarios] == ["meeting-engagement"]


def _stopping_apart(sweep: Any, seed: int) -> tuple[list[tuple[bytes, bytes]], bool]:
    """Each scenario's winners of the list's cell and the variant's, stopped early at the
    test's precision as the sweep with ``seed`` plays them (scenario k with seed + k), and
    whether on some scenario the two cells stopped after different numbers of games."""
    found = []
    for k in range(len(sweep.scenarios)):
        cells = [
            evaluate(sweep.grids[k][row][0], 80, seed + k, precision=0.17, keep_winners=True)
            for row in (0, 1)
        ]
        first, second = (bytes(cell.tally.winners or b"") for cell in cells)
        found.append((first, second))
    return found, any(len(a) != len(b) for a, b in found)


def test_an_early_stop_pairs_a_variant_with_its_list_within_each_scenario(
    tmp_path: Path,
) -> None:
    """Each scenario's cells stop when they are precise enough, so a variant's cell and its
    list's can have different lengths on each: the pairs are each scenario's first games
    both have, one scenario after another, never a game of one scenario with one of
    another. (The sweep's seed is the first from 2 on whose cells stop apart somewhere:
    a change to the rules changes which.)"""
    _in(tmp_path, "scenario: [skirmish.yaml, farm.yaml]\n")
    sweep = load_sweep(str(tmp_path / "sweep.yaml"))
    seed = next(s for s in range(2, 40) if _stopping_apart(sweep, s)[1])
    winners, _ = _stopping_apart(sweep, seed)
    done = run_cli("sweep", "sweep.yaml", "--workers", "1", "--games", "80", "--seed", str(seed),
                   "--precision", "0.17", "--json", "--no-store", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["seeds"] == [seed, seed + 1]
    base, variant, lengths = b"", b"", []
    for first, second in winners:
        lengths.append((len(first), len(second)))
        both = min(len(first), len(second))
        base += first[:both]
        variant += second[:both]
    (change,) = data["variants"][0]["against"]
    assert change["wins"]["pairs"] == len(base) == sum(min(pair) for pair in lengths)
    assert {k: change[k] for k in ("wins", "losses")} == compare(base, variant).to_json()
