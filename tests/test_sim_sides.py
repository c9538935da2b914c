"""What the table itself favours: each side's wins whichever army held it, in `evaluate`
and `sweep` (docs/simulation.md, "Statistics": "wins by side")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SIM_DATA, run_cli

from kriegsspiel.sim.outcome import GameOutcome
from kriegsspiel.sim.stats import wilson
from kriegsspiel.sim.sweep_command import sides_of
from kriegsspiel.sim.tally import Tally, side_favoured


def game(index: int, winner: str) -> GameOutcome:
    """Game ``index`` (odd games swap the armies' sides) won by army ``winner``."""
    return GameOutcome(index, index, index % 2 == 1, winner, 0, 0, 3, 20, ())


def test_each_sides_wins_are_counted_whichever_army_held_it() -> None:
    """Army A wins its even games (on side A) and army B its odd ones (A on side B, so B on
    side A): the armies are even, 2 to 2, but side A won all 4 of the decisive games."""
    tally = Tally()
    for index, winner in enumerate(["A", "B", "A", "B", "draw", "draw"]):
        tally.add(game(index, winner))
    body = tally.to_json()
    assert body["army_a_wins"]["count"] == body["army_b_wins"]["count"] == 2
    side_a, side_b = body["wins_by_side"]
    assert side_a == wilson(4, 6).to_json() and side_b == wilson(0, 6).to_json()
    # each army's wins and the draws add up to the games, as the sides' do
    assert side_a["count"] + side_b["count"] + body["draws"]["count"] == 6


@pytest.mark.parametrize(
    ("wins", "favoured"),
    [((20, 5), "the side deploying south"), ((5, 20), "the side deploying north"),
     ((3, 2), None), ((0, 0), None), ((9, 1), "the side deploying south")],
)  # fmt: skip
def test_a_lopsided_table_is_told_where_one_side_wins_clearly_more(
    wins: tuple[int, int], favoured: str | None
) -> None:
    """As the favourite among the armies: the 95% interval of the side's share of the games
    either side won lies above a half (9 to 1 is, 3 to 2 is not)."""
    told = side_favoured(wins, ["the side deploying south", "the side deploying north"])
    if favoured is None:
        assert told is None
    else:
        assert told is not None and told.startswith(f"the table favours {favoured}: it won")


def test_evaluate_gives_each_sides_wins_labelled_and_says_so_in_its_text(tmp_path: Path) -> None:
    args = ["evaluate", "--ruleset", "konflikt47", "--scenario", str(SIM_DATA / "skirmish.yaml"),
            "--army", str(SIM_DATA / "patrol-a.yaml"), "--army", str(SIM_DATA / "patrol-b.yaml"),
            "--players", "random,random", "--games", "6", "--workers", "1", "--no-store"]  # fmt: skip
    data = json.loads(run_cli(*args, "--json", cwd=tmp_path).stdout)
    sides = [p["side"] for p in data["wins_by_side"]]
    assert sides == data["sides"] == ["south", "north"]
    assert [p["side"] for p in data["army_a_wins_by_side"]] == sides
    decided = data["army_a_wins"]["count"] + data["army_b_wins"]["count"]
    assert sum(p["count"] for p in data["wins_by_side"]) == decided
    assert all(p["games"] == 6 for p in data["wins_by_side"])
    text = run_cli(*args, cwd=tmp_path).stdout
    assert "side deploying south wins (either army)" in text
    assert "side deploying north wins (either army)" in text


def test_a_sweep_gives_each_sides_wins_a_cell_and_over_the_games_it_played(
    tmp_path: Path,
) -> None:
    """Each cell has its sides' wins (a mirror its mirror's games'); the sweep's, on each
    scenario and over all of them, count each game it played once."""
    for name in ("patrol-a.yaml", "patrol-b.yaml", "skirmish.yaml", "farm.yaml"):
        (tmp_path / name).write_bytes((SIM_DATA / name).read_bytes())
    (tmp_path / "s.yaml").write_text(
        "name: Round\nruleset: konflikt47\nscenario: [skirmish.yaml, farm.yaml]\n"
        "players: random,random\ngames: 2\nlists: [patrol-a.yaml, patrol-b.yaml]\n"
        "against: [patrol-a.yaml, patrol-b.yaml]\n"
    )
    done = run_cli("sweep", "s.yaml", "--no-store", "--workers", "1", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    for part in data["by_scenario"]:
        cells = [c for row in part["cells"] for c in row if c is not None]
        assert all(len(c["wins_by_side"]) == 2 for c in cells)
        assert part["wins_by_side"][0]["games"] == 2  # (the mirror's games counted once)
        assert [p["side"] for p in part["wins_by_side"]] == ["south", "north"]
    assert data["wins_by_side"][0]["games"] == 4
    assert [p["side"] for p in data["wins_by_side"]] == ["A", "B"]
    assert data["wins_by_side"][0]["count"] == sum(
        part["wins_by_side"][0]["count"] for part in data["by_scenario"]
    )
    said = run_cli("sweep", "s.yaml", "--no-store", "--workers", "1", cwd=tmp_path).stdout
    text = " ".join(said.split())  # (lines wrapped to the console's width)
    # (not "games played": a resumed run's last line counts the games played apart from
    # those read from the store, and "played" would mean two things a few lines apart)
    assert "By side, whichever army held it, over the 2 games: side A" in text
    assert "games played" not in text
    assert "side A (each scenario's first zone) won" in text


def test_sides_of_counts_no_mirrored_cell() -> None:
    cell = {"games": 10, "mirrored": False,
            "wins_by_side": [wilson(6, 10).to_json(), wilson(3, 10).to_json()]}  # fmt: skip
    mirror = cell | {"mirrored": True}
    assert sides_of([cell, mirror]) == [wilson(6, 10).to_json(), wilson(3, 10).to_json()]
