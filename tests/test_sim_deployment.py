"""A shuffled deployment (``--deployment shuffled``): each game sets each side's units up in
an order drawn from its seed, so a unit's place in its list does not decide where it stands
(docs/rules: "Deployment order"; docs/simulation.md: "deployment")."""

from __future__ import annotations

import csv
import io
import json
import shlex
from pathlib import Path

import pytest
from conftest import PATROLS_RANDOM, SIM_DATA, run_cli
from test_table_setup_terrain import JEEP, SQUAD

from kriegsspiel.core.scenario import load_scenario, parse_scenario, sample_scenarios
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action.army import load_army, parse_army, sample_armies
from kriegsspiel.rulesets.bolt_action.game import deployment
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.sim.matchup import Matchup, build_matchup, play_game
from kriegsspiel.sim.outcome import play_one
from kriegsspiel.sim.runner import evaluate
from kriegsspiel.sim.stats import wilson


def patrols(order: str = "shuffled") -> Matchup:
    return build_matchup(
        "konflikt47",
        str(SIM_DATA / "skirmish.yaml"),
        [str(SIM_DATA / "patrol-a.yaml"), str(SIM_DATA / "patrol-b.yaml")],
        "random,random",
        deployment=order,
    )


def sample_game(seed: int, order: str) -> BoltActionGame:
    armies = [load_army(p, "konflikt47") for p in sample_armies("konflikt47")[:2]]
    scenario = load_scenario(sample_scenarios()[-1])  # (meeting-engagement)
    return BoltActionGame("konflikt47", scenario, (armies[0], armies[1]), seed, deployment=order)


def places(game: BoltActionGame, side: int) -> list[str]:
    """A side's units by name, from the left of its zone to the right."""
    mine = [u for u in game.units if u.side == side]
    return [u.name for u in sorted(mine, key=lambda u: u.anchor.x)]


def test_a_shuffled_deployment_sets_units_up_in_an_order_drawn_from_the_seed() -> None:
    """List order stands the units left to right as the list gives them; a shuffled
    deployment stands them in an order that changes with the seed and is the same for the
    same seed, the units themselves (their numbers, names, points) left as the list has them,
    and the dice as they would be."""
    listed = sample_game(3, "list-order")
    names = [[u.name for u in listed.units if u.side == s] for s in (0, 1)]
    assert [places(listed, s) for s in (0, 1)] == names
    orders = set()
    for seed in range(8):
        shuffled = sample_game(seed, "shuffled")
        assert [(u.uid, u.name, u.side) for u in shuffled.units] == [
            (u.uid, u.name, u.side) for u in listed.units
        ]
        assert sorted(places(shuffled, 0)) == sorted(names[0])
        orders.add(tuple(places(shuffled, 0)))
        again = sample_game(seed, "shuffled")
        assert [m.point for u in again.units for m in u.models] == [
            m.point for u in shuffled.units for m in u.models
        ]
        same_dice = sample_game(seed, "list-order")
        assert [shuffled.dice.roll(6) for _ in range(20)] == [
            same_dice.dice.roll(6) for _ in range(20)
        ]  # (its own stream: the dice alike)
    assert len(orders) == 8  # (9 units: 8 seeds, 8 orders)
    assert tuple(names[0]) not in orders


def test_each_order_is_as_likely_as_another() -> None:
    """Over 400 seeds, the patrol's two units stand in each of their two orders about half
    the time (the share's 95% Wilson interval holds a half)."""
    armies = [load_army(SIM_DATA / f"patrol-{x}.yaml", "konflikt47") for x in "ab"]
    scenario = load_scenario(SIM_DATA / "skirmish.yaml")
    first = 0
    for seed in range(400):
        game = BoltActionGame(
            "konflikt47", scenario, (armies[0], armies[1]), seed, deployment="shuffled"
        )
        first += places(game, 0)[0] == "Grenadier Squad"
    share = wilson(first, 400)
    assert share.low < 0.5 < share.high


def _woods_game(seed: int, order: str) -> BoltActionGame:
    """Side south has two zones alike, the second all wood (no place for a jeep): in list
    order the jeep takes the first, the squad the second."""
    text = """name: Two fields
table: {width: 48, height: 48}
turns: 3
victory: units destroyed
terrain:
  - {name: Big wood, category: wood, cover: soft, polygon: [[28, 0], [48, 0], [48, 11], [28, 11]]}
deployment:
  - {side: south, polygon: [[0, 0], [20, 0], [20, 10], [0, 10]]}
  - {side: south, polygon: [[28, 0], [48, 0], [48, 10], [28, 10]]}
  - {side: north, polygon: [[0, 38], [48, 38], [48, 48], [0, 48]]}
"""
    army_text = (
        "name: Test force\nruleset: bolt-action-1\nfaction: United States\npoints: {}\nunits:\n{}"
    )
    mine = parse_army(army_text.format(80, JEEP + SQUAD), "a.yaml", "bolt-action-1")
    theirs = parse_army(army_text.format(50, SQUAD), "b.yaml", "bolt-action-1")
    scenario = parse_scenario(text, "two-fields.yaml")
    return BoltActionGame("bolt-action-1", scenario, (mine, theirs), seed, deployment=order)


def test_a_drawn_order_that_leaves_a_unit_no_room_is_drawn_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An order that puts the jeep in the wood leaves it no room: it is drawn again, so
    every game sets up (the jeep always in the open field); after ``DRAWS`` draws that
    fail, the list's own order (which the matchup's check found to fit) is taken."""
    tried: list[int] = []
    real = deployment._deploy
    monkeypatch.setattr(deployment, "_deploy", lambda g, d: tried.append(g.seed) or real(g, d))
    for seed in range(12):
        game = _woods_game(seed, "shuffled")
        jeep = next(u for u in game.units if u.name == "Jeep")
        assert jeep.anchor.x < 20
    assert len(tried) > 12  # (some seeds drew the jeep into the wood first)
    monkeypatch.setattr(deployment, "DRAWS", 0)
    assert places(_woods_game(1, "shuffled"), 0) == ["Jeep", "Rifle Squad"]


def test_a_shuffled_deployment_is_a_matchup_of_its_own_and_its_games_replay() -> None:
    """Its games are other games: another key (the list order's is as it was), carried to
    the mirror; the printed play command names it and plays the same game."""
    listed, shuffled = patrols("list-order"), patrols()
    assert listed.key == patrols("list-order").key != shuffled.key
    assert shuffled.mirrored().deployment == "shuffled"
    assert shuffled.described_ruleset == "konflikt47, deployment shuffled"
    assert listed.described_ruleset == "konflikt47"
    assert "--deployment" not in listed.play_command(5, False)
    outcome = play_one(shuffled, 1, 1234)
    words = shlex.split(shuffled.play_command(1234, swapped=True))
    assert words[-2:] == ["--deployment", "shuffled"]
    armies = [words[i + 1] for i, word in enumerate(words) if word == "--army"]
    scenario = words[words.index("--scenario") + 1]
    replayed = build_matchup("konflikt47", scenario, armies, "random,random", deployment="shuffled")
    assert play_game(replayed, 1234).score() == (outcome.score_b, outcome.score_a)
    with pytest.raises(UsageError, match=r"^deployment takes list-order or shuffled"):
        patrols("random")


def test_a_shuffled_run_does_not_depend_on_the_number_of_workers() -> None:
    one = evaluate(patrols(), 6, 5, workers=1)
    two = evaluate(patrols(), 6, 5, workers=2, batch=1)
    assert one.tally.to_json() == two.tally.to_json()


def test_evaluate_and_play_take_the_deployment_and_store_its_games_apart(tmp_path: Path) -> None:
    """The shuffled games are stored and reused apart from the list order's; results and the
    export tell them so; the JSON and the text say what a unit's figures owe to its place;
    play records the deployment, and its record replays; a bad value is one line."""
    args = [*PATROLS_RANDOM, "--games", "2", "--workers", "1", "--results", "r.sqlite"]
    runs = []
    for extra in (["--deployment", "shuffled"], [], ["--deployment", "shuffled"]):
        done = run_cli("evaluate", *args, "--json", *extra, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout))
    assert [r["games_played"] for r in runs] == [2, 2, 0]
    assert [r["deployment"] for r in runs] == ["shuffled", "list-order", "shuffled"]
    assert "place in the list sets" in runs[1]["units_note"]
    assert "drawn from its seed" in runs[0]["units_note"]
    text = run_cli("evaluate", *args, "--deployment", "shuffled", cwd=tmp_path).stdout
    assert "konflikt47, deployment shuffled" in text and "Place: each game" in text
    listed = run_cli("results", "--results", "r.sqlite", cwd=tmp_path).stdout
    assert "deployment shuffled" in listed
    exported = run_cli("results", "--results", "r.sqlite", "--export", "csv", cwd=tmp_path)
    rows = list(csv.DictReader(io.StringIO(exported.stdout)))
    assert sorted(row["deployment"] for row in rows) == ["list-order"] * 2 + ["shuffled"] * 2
    assert {row["ruleset"] for row in rows} == {"konflikt47"}
    played = run_cli(
        "play", *PATROLS_RANDOM, "--seed", "4", "--deployment", "shuffled", "--quiet",
        "--record", "g.jsonl", cwd=tmp_path,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert "seed 4, deployment shuffled" in played.stdout
    head = json.loads((tmp_path / "g.jsonl").read_text().splitlines()[0])
    assert head["deployment"] == "shuffled"
    replayed = run_cli("replay", "g.jsonl", cwd=tmp_path)
    assert replayed.returncode == 0 and "reproduced" in replayed.stdout
    bad = run_cli("evaluate", *args, "--deployment", "random", cwd=tmp_path)
    assert bad.returncode == 2
    assert bad.stderr.strip().count("\n") == 0 and "list-order or shuffled" in bad.stderr


def test_a_sweep_takes_the_deployment_from_its_file_or_the_command_line(tmp_path: Path) -> None:
    for name in ("patrol-a.yaml", "patrol-b.yaml", "skirmish.yaml"):
        (tmp_path / name).write_bytes((SIM_DATA / name).read_bytes())
    sweep = (SIM_DATA / "sweep.yaml").read_text().replace("games: 4", "games: 2")
    (tmp_path / "s.yaml").write_text(sweep + "deployment: shuffled\n")
    (tmp_path / "bad.yaml").write_text(sweep + "deployment: random\n")
    args = ["--no-store", "--workers", "1", "--json"]
    from_file = json.loads(run_cli("sweep", "s.yaml", *args, cwd=tmp_path).stdout)
    told = run_cli("sweep", "s.yaml", *args, "--deployment", "list-order", cwd=tmp_path)
    overridden = json.loads(told.stdout)
    assert from_file["deployment"] == "shuffled" and overridden["deployment"] == "list-order"
    assert "drawn from its seed" in from_file["units_note"]
    bad = run_cli("sweep", "bad.yaml", *args, cwd=tmp_path)
    assert bad.returncode == 2 and "field deployment" in bad.stderr


def test_a_sweeps_variant_units_say_their_figures_are_the_slots_beside_them(
    tmp_path: Path,
) -> None:
    """A list builder read "0.09 a point" for a 6-pdr in the variants' units table before
    the note far below said that was its place's: in list order the table now says so in
    its title, gives each unit's place beside it and says under it how to have the unit's
    own (text and JSON); shuffled, it says the figures are the unit's own."""
    for name in ("patrol-a.yaml", "patrol-b.yaml", "skirmish.yaml"):
        (tmp_path / name).write_bytes((SIM_DATA / name).read_bytes())
    sweep = (SIM_DATA / "sweep.yaml").read_text().replace("games: 4", "games: 2")
    (tmp_path / "s.yaml").write_text(sweep)
    args = ["s.yaml", "--no-store", "--workers", "1"]
    text = " ".join(run_cli("sweep", *args, cwd=tmp_path).stdout.split())
    assert "at its place in the list (see the note under the table)" in text
    # the MMG team is the second unit of patrol-a.yaml, and its riflemen take its place
    assert text.count("(place 2 in the list)") == 2
    assert "these figures are the slot's as much as the unit's" in text
    assert "--deployment shuffled, or put 'deployment: shuffled' in the sweep file" in text
    data = json.loads(run_cli("sweep", *args, "--json", cwd=tmp_path).stdout)
    (variant,) = data["variants"]
    assert variant["units_note"] == data["units_note"]
    assert "slot's as much as the unit's" in variant["units_note"]
    assert "deployment: shuffled" in variant["units_note"]
    # the JSON gives the place the text gives, beside the slot (counted from 0)
    taken_out = variant["against"][0]["taken_out"][0]
    assert (taken_out["slot"], taken_out["place"]) == (1, 2)
    assert "short of a knock-out" in data["damage_note"] and "short of a knock-out" in text
    shuffled = run_cli("sweep", *args, "--deployment", "shuffled", cwd=tmp_path).stdout
    shuffled = " ".join(shuffled.split())
    assert "(place" not in shuffled and "at its place in the list" not in shuffled
    assert "these figures are each unit's own, over the places it drew" in shuffled


def test_the_shipped_sample_sweep_asks_a_units_worth_with_a_shuffled_deployment() -> None:
    """Its question is "is the walker worth its points?": in list order its answer was the
    walker's slot's."""
    from kriegsspiel.sim.sweep import load_sweep

    sweep = load_sweep("konflikt47-walker-or-tank")
    assert {cell.deployment for grid in sweep.grids for row in grid for cell in row} == {"shuffled"}
