"""``kriegsspiel evaluate``, ``sweep`` and ``results`` as a list builder uses them."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import run_cli

from kriegsspiel.errors import UsageError

DATA = Path(__file__).parent / "data" / "sim"
PATROLS = [
    "--ruleset", "konflikt47", "--scenario", str(DATA / "skirmish.yaml"),
    "--army", str(DATA / "patrol-a.yaml"), "--army", str(DATA / "patrol-b.yaml"),
]  # fmt: skip


def cli(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, cwd=tmp)


def test_evaluate_json_reports_everything_the_issue_asks(tmp_path: Path) -> None:
    done = cli(tmp_path, "evaluate", *PATROLS, "--players", "random,random", "--games", "12",
               "--seed", "3", "--workers", "1", "--json", "--plot", "p.png")  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["games"] == 12 and data["games_played"] == 12
    assert (data["army_a"]["points"], data["army_b"]["points"]) == (173, 158)
    # what the text says of the run, the JSON says too: its notes and where games are kept
    assert data["notices"][0] == "the lists are not of equal points (173 v 158)."
    assert data["store"] == "kriegsspiel-results.sqlite"
    total = data["army_a_wins"]["count"] + data["draws"]["count"] + data["army_b_wins"]["count"]
    assert total == 12
    for key in ("army_a_wins", "draws", "army_b_wins"):
        assert data[key]["low"] <= data[key]["rate"] <= data[key]["high"]
    assert [u["unit"] for u in data["units"] if u["army"] == "A"] == [
        "Grenadier Squad",
        "MG 42 MMG Team",
    ]
    # each unit's place in its list: "slot" from 0 (as stored), "place" from 1 (as said)
    assert [(u["slot"], u["place"]) for u in data["units"] if u["army"] == "A"] == [(0, 1), (1, 2)]
    for unit in data["units"]:
        assert 0 <= unit["survival"]["rate"] <= 1 and unit["damage_per_point"] >= 0
    # what the damage leaves out, as the text says it (a stunned crew, for one)
    assert data["damage_note"].startswith("Left out: pins") and "stunned" in data["damage_note"]
    assert 1 <= data["turns"]["mean"] <= 3  # three turns, fewer when a side is wiped out
    assert all("kriegsspiel play" in g["command"] for g in data["surprising"]["games"])
    assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "kriegsspiel-results.sqlite").exists()


def test_evaluate_again_reuses_the_store_and_results_exports_it(tmp_path: Path) -> None:
    args = ["evaluate", *PATROLS, "--players", "random,random", "--seed", "5", "--workers", "1"]
    first = cli(tmp_path, *args, "--games", "4", "--json")
    second = cli(tmp_path, *args, "--games", "6", "--json")
    assert json.loads(first.stdout)["games_played"] == 4
    again = json.loads(second.stdout)
    assert (again["games_reused"], again["games_played"]) == (4, 2)
    listed = cli(tmp_path, "results")
    assert listed.returncode == 0
    assert "Grenadier Patrol v" in listed.stdout and "Rifle Patrol" in listed.stdout
    exported = cli(tmp_path, "results", "--export", "CSV")  # as names are: in any case
    rows = list(csv.DictReader(io.StringIO(exported.stdout)))
    assert [int(r["game_index"]) for r in rows] == list(range(6))
    assert {r["swapped"] for r in rows} == {"0", "1"}
    assert len({r["code_version"] for r in rows}) == 1
    out = cli(tmp_path, "results", "--export", "json", "--out", "games.json")
    assert out.returncode == 0 and "6 games exported" in out.stderr
    games = json.loads((tmp_path / "games.json").read_text())
    assert games[0]["units"][0]["name"] == "Grenadier Squad"
    for where, said in [
        ("nowhere/games.csv", "--out 'nowhere/games.csv': there is no folder 'nowhere'"),
        ("/dev/full", "cannot write --out /dev/full: No space left on device"),
    ]:
        failed = cli(tmp_path, "results", "--export", "csv", "--out", where)
        assert failed.returncode == 2 and said in failed.stderr, failed.stderr
        assert "Traceback" not in failed.stderr


def test_evaluate_prints_readable_tables(tmp_path: Path) -> None:
    done = cli(tmp_path, "evaluate", *PATROLS, "--players", "random,random", "--games", "4",
               "--workers", "1", "--no-store")  # fmt: skip
    assert done.returncode == 0, done.stderr
    for text in ("95% Wilson intervals", "army A wins (Grenadier Patrol)", "Units", "Surprising",
                 "note: the lists are not of equal points (173 v 158).",
                 "army A wins deploying south", "army A wins deploying north"):  # fmt: skip
        assert text in done.stdout
    assert not (tmp_path / "kriegsspiel-results.sqlite").exists()
    # a surprising game with the sides swapped says whose the command's first army is
    games = [line for line in done.stdout.splitlines() if line.strip().startswith("game ")]
    assert games
    for line in games:
        index = int(line.split()[1].rstrip(":"))
        assert ("sides swapped" in line) == (index % 2 == 1), line


def test_one_game_has_no_spread_nor_swapped_side_and_says_so_rather_than_zero(
    tmp_path: Path,
) -> None:
    base = [*PATROLS, "--players", "random,random", "--workers", "1", "--no-store"]
    one = json.loads(cli(tmp_path, "evaluate", *base, "--games", "1", "--json").stdout)
    assert one["score_a"]["sd"] is None and one["turns"]["sd"] is None
    unplayed = one["army_a_wins_by_side"][1]  # one game: none with the sides swapped
    assert unplayed["games"] == 0 and unplayed["rate"] is None  # not 0% of no games
    text = cli(tmp_path, "evaluate", *base, "--games", "1").stdout
    assert "1 game (1 played" in text
    assert "– (no game)" in next(line for line in text.splitlines() if "0/0" in line)
    row = next(line for line in text.splitlines() if "turns" in line and "army" not in line)
    assert row.replace("│", " ").split()[-1] == "–", row
    two = json.loads(cli(tmp_path, "evaluate", *base, "--games", "2", "--json").stdout)
    assert isinstance(two["turns"]["sd"], float)


def test_evaluate_stops_early_and_says_so(tmp_path: Path) -> None:
    done = cli(tmp_path, "evaluate", *PATROLS, "--players", "random,random", "--games", "400",
               "--workers", "1", "--precision", "0.2", "--json", "--no-store")  # fmt: skip
    data = json.loads(done.stdout)
    assert data["stopped_early"] and data["games"] < 400
    assert done.stderr.count("stopped early") == 1
    assert any("stopped early" in note for note in data["notices"])
    text = cli(tmp_path, "evaluate", *PATROLS, "--players", "random,random", "--games", "400",
               "--workers", "1", "--precision", "0.2", "--no-store")  # fmt: skip
    said = " ".join((text.stdout + text.stderr).split())
    assert said.count("note: stopped early") == 1  # (in the report, not again beside it)


def test_sweep_runs_every_cell_and_draws_a_heat_map(tmp_path: Path) -> None:
    done = cli(tmp_path, "sweep", str(DATA / "sweep.yaml"), "--workers", "1", "--json",
               "--plot", "h.svg")  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["ruleset"], data["players"]) == ("konflikt47", ["random", "random"])
    assert data["scenario"].endswith("skirmish.yaml")
    assert data["rows"] == ["Grenadier Patrol", "Grenadier Patrol (riflemen for the MMG)"]
    assert data["columns"] == ["Rifle Patrol"]
    assert all(cell["games"] == 4 for row in data["cells"] for cell in row)
    drawn = (tmp_path / "h.svg").read_text()
    assert "<svg" in drawn
    # the title says the order the units set up in, which their figures depend on (matplotlib
    # writes each text beside its glyphs as a comment)
    assert "units set up in list order" in drawn and "deployment shuffled" not in drawn
    shuffled = cli(tmp_path, "sweep", str(DATA / "sweep.yaml"), "--workers", "1", "--no-store",
                   "--deployment", "shuffled", "--plot", "s.svg")  # fmt: skip
    assert shuffled.returncode == 0, shuffled.stderr
    assert "(deployment shuffled)" in (tmp_path / "s.svg").read_text()


def test_a_sweep_that_stops_early_says_how_many_games_each_cell_took(tmp_path: Path) -> None:
    done = cli(tmp_path, "sweep", str(DATA / "sweep.yaml"), "--workers", "1", "--games", "40",
               "--precision", "0.25")  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stdout.split())  # (as the terminal's width wrapped it)
    assert "up to 40 games a cell (fewer where shown)" in said
    assert said.count(", 20 games") == 2
    assert "Games: 40 played, 0 from the results store; stored in" in said
    told = " ".join(done.stderr.split())
    assert told.count("note: stopped early after 20 games") == 2  # (one a cell)
    again = cli(tmp_path, "sweep", str(DATA / "sweep.yaml"), "--workers", "1", "--games", "40",
                "--precision", "0.25")  # fmt: skip
    assert "Games: 0 played, 40 from the results store" in " ".join(again.stdout.split())


def test_a_sweeps_json_says_what_its_text_says_of_the_games_played(tmp_path: Path) -> None:
    """Games played and reused, the store, an early stop: each cell's and the sweep's, as
    evaluate's JSON gives them; "games" stays the games asked for a cell."""
    args = ["sweep", str(DATA / "sweep.yaml"), "--workers", "1", "--games", "40",
            "--precision", "0.25", "--json"]  # fmt: skip
    first = json.loads(cli(tmp_path, *args).stdout)
    assert (first["games"], first["games_requested"]) == (40, 40)
    assert (first["games_played"], first["games_reused"]) == (40, 0)
    assert first["stopped_early"] is True
    assert first["store"] == "kriegsspiel-results.sqlite"
    for cell in (row[0] for row in first["cells"]):
        assert (cell["games"], cell["games_played"], cell["games_reused"]) == (20, 20, 0)
        assert cell["stopped_early"] is True
        # its losses (the column's wins) as its wins are told
        from kriegsspiel.sim.stats import wilson

        lost = round((1 - cell["rate"] - cell["draws"]["rate"]) * 20)
        assert cell["draws"] == wilson(20 - lost - cell["count"], 20).to_json()
        assert cell["losses"] == wilson(lost, 20).to_json()
    uneven = (  # (patrol A and its variant, of 173 and 163 points, against 158)
        "the lists are not of equal points (158 to 173 points; each list's are given with its "
        "name)."
    )
    assert first["notices"][0] == uneven and len(first["notices"]) == 3
    for row, notice in zip(first["rows"], first["notices"][1:], strict=True):
        said = (
            f"{row} v Rifle Patrol: stopped early after 20 games: the 95% Wilson intervals of "
            "army A's wins, the draws and army B's wins each lie within ± 0.25 (25 percentage "
            "points) of their rates; the rates by side and each unit's survival are not held "
            "to it."
        )
        # (and the games its worker had finished or begun past the stop, stored untallied:
        # as many as it had in hand, which its timing decides)
        beyond = r"( \d+ more games? of this run (is|are) stored untallied \(.*)?"
        assert re.fullmatch(re.escape(said) + beyond, notice), notice
    again = json.loads(cli(tmp_path, *args).stdout)
    assert (again["games_played"], again["games_reused"]) == (0, 40)
    assert [row[0]["games_reused"] for row in again["cells"]] == [20, 20]
    alone = json.loads(cli(tmp_path, *args[:-3], "--no-store", "--json").stdout)
    assert alone["store"] is None and alone["notices"] == [uneven]
    assert not alone["stopped_early"]
    assert [row[0]["games_played"] for row in alone["cells"]] == [40, 40]


def test_a_sweep_reads_a_mirrored_cell_from_the_games_of_its_mirror(tmp_path: Path) -> None:
    sweep = tmp_path / "round-robin.yaml"
    a, b = DATA / "patrol-a.yaml", DATA / "patrol-b.yaml"
    sweep.write_text(
        f"name: Round robin\nruleset: konflikt47\nscenario: {DATA / 'skirmish.yaml'}\n"
        f"players: random,random\ngames: 6\nseed: 5\nlists: [{a}, {b}]\nagainst: [{a}, {b}]\n"
    )
    done = cli(tmp_path, "sweep", str(sweep), "--workers", "1", "--json")
    assert done.returncode == 0, done.stderr
    (none_aa, a_v_b), (b_v_a, none_bb) = json.loads(done.stdout)["cells"]
    assert none_aa is None and none_bb is None
    assert not a_v_b["mirrored"] and b_v_a["mirrored"]
    assert (a_v_b["games_played"], b_v_a["games_played"], b_v_a["games_reused"]) == (6, 0, 0)
    said = " ".join(done.stderr.split())
    assert "the games of Grenadier Patrol v Rifle Patrol, from the other side" in said
    shown = cli(tmp_path, "sweep", str(sweep), "--workers", "1")  # read back from the store
    assert shown.stdout.count("(mirror)") == 2  # the cell and its note
    assert "the games of the two lists the other way round" in shown.stdout
    # B v A is exactly what A v B says of B: one set of games, no second run
    evaluated = cli(tmp_path, "evaluate", *PATROLS, "--players", "random,random", "--games",
                    "6", "--seed", "5", "--json", "--no-store")  # fmt: skip
    a_first = json.loads(evaluated.stdout)
    assert a_v_b["count"] == a_first["army_a_wins"]["count"]
    assert b_v_a["count"] == a_first["army_b_wins"]["count"]
    assert b_v_a["draws"] == a_v_b["draws"] == a_first["draws"]  # (a count and interval)
    stored = cli(tmp_path, "results", "--export", "json")
    assert len(json.loads(stored.stdout)) == 6  # only A v B was played
    # evaluate with B first is not the mirrored cell: the same seeds, with the sides
    # exchanged in every game, so games of its own, not the sweep's read back
    b_first = [*PATROLS[:4], "--army", str(b), "--army", str(a)]
    evaluated = cli(tmp_path, "evaluate", *b_first, "--players", "random,random", "--games",
                    "6", "--seed", "5", "--json", "--workers", "1")  # fmt: skip
    assert json.loads(evaluated.stdout)["games_played"] == 6
    stored = cli(tmp_path, "results", "--export", "json")
    assert len(json.loads(stored.stdout)) == 12


@pytest.mark.parametrize(
    ("args", "message"),
    [
        # (the help shows the range 1<=x<=..., and the parser refuses what lies outside it)
        (["evaluate", "--games", "0"], "'--games' / '-n': 0 is not in the range 1<=x<="),
        (["sweep", "x.yaml", "--games", "0"], "'--games' / '-n': 0 is not in the range 1<=x<="),
        (["evaluate", "--seed", "-1"], "Invalid value for '--seed'"),
        (["evaluate", "--seed", str(2**63)], "Invalid value for '--seed'"),
        # (play and aid took any seed, evaluate and sweep one of at most 2**63 - 1)
        (
            ["play", "--seed", str(10**20)],
            f"'--seed': '{10**20}' is neither a whole number 0 to {2**63 - 1} nor 'fresh'",
        ),
        (["aid", "--seed", str(2**63), "--no-open"], f"is neither a whole number 0 to {2**63 - 1}"),
        (["evaluate", "--scheduler", "nowhere"], "is not a scheduler's address"),
        (["evaluate", "--scheduler", "tcp://localhost"], "is not a scheduler's address"),
        (["evaluate", "--scheduler", "tcp://127.0.0.1:8786/"], "has a trailing slash"),
        (["sweep", "x.yaml", "--scheduler", "inproc://h/1/2"], "is an in-process address"),
        (
            ["evaluate", "--workers", "2", "--scheduler", "tcp://127.0.0.1:9"],
            "--workers counts local processes; with --scheduler the cluster's workers play",
        ),
        (
            ["sweep", str(DATA / "sweep.yaml"), "--workers", "9", "--scheduler", "10.0.0.5:8786"],
            "with --scheduler the cluster's workers play the games: leave --workers out",
        ),
        (["evaluate", "--results", ""], "--results needs a file name"),
        (
            ["evaluate", "--no-store", "--results", "r.sqlite"],
            "--results 'r.sqlite' would be unused",
        ),
        (["sweep", "x.yaml", "--no-store", "--results", "r.sqlite"], "would be unused"),
        (["sweep", str(DATA / "sweep.yaml"), "--seed", "-2"], "Invalid value for '--seed'"),
        (["evaluate", "--precision", "2"], "--precision is how far a 95% interval may reach"),
        (["evaluate", "--precision", "0.5"], "more than 0 and less than 0.5, e.g. 0.01 (got 0.5)"),
        (["evaluate", "--precision", "-1e-9"], "less than 0.5, e.g. 0.01 (got -0.000000001)"),
        (["evaluate", "--plot", "x.pdf"], "--plot writes a .png or .svg"),
        (["evaluate", "--plot", "no-such-folder/p.png"], "there is no folder 'no-such-folder'"),
        (["evaluate", "--plot", "."], "is a folder; give a file name in it"),
        (["evaluate", "--results", "nodir/r.sqlite"], "there is no folder 'nodir' to write"),
        (["evaluate", "--results", "."], "is a folder; give a file name in it"),
        (["sweep", str(DATA / "sweep.yaml"), "--plot", "nowhere/h.svg"], "there is no folder"),
        (["evaluate", "--players", "tactical"], "--players takes two of"),
        (["evaluate", "--ruleset", "iron-cross"], "whole games are built for"),
        (
            ["evaluate", "--army", "nowhere.yaml", "--army", "x"],
            "neither a file nor a shipped army",
        ),
        (["sweep", "no-such-sweep"], "neither a file nor a shipped sweep"),
        (["results", "--results", "missing.sqlite"], "no results file"),
    ],
)
def test_bad_input_is_one_clear_line_and_status_2(
    tmp_path: Path, args: list[str], message: str
) -> None:
    done = cli(tmp_path, *args)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr


def test_a_sweep_file_with_a_negative_seed_is_refused_at_its_line(tmp_path: Path) -> None:
    text = (DATA / "sweep.yaml").read_text().replace("seed: 3", "seed: -1")
    (tmp_path / "sweep.yaml").write_text(text)
    for name in ("patrol-a.yaml", "patrol-b.yaml", "skirmish.yaml"):
        (tmp_path / name).write_text((DATA / name).read_text())
    done = cli(tmp_path, "sweep", "sweep.yaml")
    assert done.returncode == 2
    assert "sweep.yaml: line 7, field seed: must be 0 or more (not -1)" in (done.stderr)


def test_a_sweep_files_games_and_seed_are_whole_numbers_as_written(tmp_path: Path) -> None:
    """``games: true`` would otherwise play one game a cell, and ``seed: "3"`` seed 3."""
    text = (DATA / "sweep.yaml").read_text()
    for old, new, said in [
        ("games: 4", "games: true", "field games: should be a whole number, not true"),
        (
            "seed: 3",
            'seed: "3"',
            "field seed: should be a whole number, not the text '3' (write it without quotes)",
        ),
    ]:
        done = cli(tmp_path, "sweep", str(_sweep_in(tmp_path, text.replace(old, new))))
        line = 1 + text.splitlines().index(old)
        assert done.returncode == 2, done.stderr
        assert f"my-sweep.yaml: line {line}, {said}" in done.stderr, done.stderr


def test_a_sweeps_lists_and_against_take_one_list_or_several(tmp_path: Path) -> None:
    """One list needs no brackets, as one scenario needs none; a name that is not there is
    told at the field's line, without an item number the file does not have."""
    text = (DATA / "sweep.yaml").read_text()
    one = text.replace("lists: [patrol-a.yaml]", "lists: patrol-a.yaml").replace(
        "against: [patrol-b.yaml]", "against: patrol-b.yaml"
    )
    done = cli(tmp_path, "sweep", str(_sweep_in(tmp_path, one)), "--json", "--no-store",
               "--workers", "1")  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["rows"][0] == "Grenadier Patrol" and data["columns"] == ["Rifle Patrol"]
    wrong = one.replace("against: patrol-b.yaml", "against: patrol-c.yaml")
    done = cli(tmp_path, "sweep", str(_sweep_in(tmp_path, wrong)))
    line = 1 + wrong.splitlines().index("against: patrol-c.yaml")
    assert done.returncode == 2
    assert f"my-sweep.yaml: line {line}, field against: " in done.stderr, done.stderr


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("against: [patrol-b.yaml]", "against: []",
         "field against: give the lists to play against: an army list (a file or a shipped "
         "list's name), or a list of them"),
        ("against: [patrol-b.yaml]", "against:",
         "field against: give the lists to play against: an army list"),
        ("lists: [patrol-a.yaml]", "lists: []",
         "field lists: give the lists of the rows: an army list (a file or a shipped list's "
         "name), or a list of them (leave the field out when the variants give the rows)"),
        ("against: [patrol-b.yaml]", "against: [patrol-b.yaml, 7]",
         "field against: takes an army list (a file or a shipped list's name), or a list of "
         "them; not ['patrol-b.yaml', 7]"),
    ],
)  # fmt: skip
def test_a_sweeps_lists_in_the_wrong_shape_are_told_in_plain_words(
    tmp_path: Path, old: str, new: str, said: str
) -> None:
    text = (DATA / "sweep.yaml").read_text()
    done = cli(tmp_path, "sweep", str(_sweep_in(tmp_path, text.replace(old, new))))
    line = 1 + text.splitlines().index(old)
    assert done.returncode == 2, done.stderr
    told = " ".join(done.stderr.split())
    assert f"my-sweep.yaml: line {line}, {said}" in told, told
    assert "Tuple" not in told and "tuple" not in told


def test_a_sweep_swapping_a_missing_unit_names_the_file_and_the_units(tmp_path: Path) -> None:
    text = (DATA / "sweep.yaml").read_text().replace("replace: MG 42 MMG Team", "replace: Tiger")
    sweep = tmp_path / "bad-sweep.yaml"
    sweep.write_text(text)
    for name in ("skirmish.yaml", "patrol-a.yaml", "patrol-b.yaml"):
        (tmp_path / name).write_text((DATA / name).read_text())
    done = cli(tmp_path, "sweep", str(sweep))
    assert done.returncode == 2
    line = 1 + text.splitlines().index("    replace: Tiger")
    assert f"bad-sweep.yaml: line {line}, field variants.0.replace: no unit 'Tiger'" in (
        done.stderr
    )
    assert "'MG 42 MMG Team'" in done.stderr


def test_a_sweep_naming_a_list_or_scenario_wrongly_is_refused_at_its_line(
    tmp_path: Path,
) -> None:
    text = (DATA / "sweep.yaml").read_text()
    for old, new, field in (
        ("[patrol-b.yaml]", "[patrol-c.yaml]", "against.0"),
        ("scenario: skirmish.yaml", "scenario: nowhere.yaml", "scenario"),
        ("ruleset: konflikt47", "ruleset: nope", "ruleset"),
        ("ruleset: konflikt47", "ruleset: iron-cross", "ruleset"),
    ):
        assert old in text
        changed = text.replace(old, new)
        done = cli(tmp_path, "sweep", str(_sweep_in(tmp_path, changed)))
        line = next(i for i, row in enumerate(changed.splitlines(), 1) if new in row)
        assert done.returncode == 2
        assert f"my-sweep.yaml: line {line}, field {field}: " in done.stderr, done.stderr


def test_a_sweeps_list_files_are_read_from_its_folder_and_a_missing_one_says_where(
    tmp_path: Path,
) -> None:
    """Run from another folder, the sweep still finds its lists beside it; one that is not
    there says where it was looked for."""
    text = (DATA / "sweep.yaml").read_text()
    sweep = _sweep_in(tmp_path, text.replace("[patrol-b.yaml]", "[patrol-c.yaml]"))
    (tmp_path / "elsewhere").mkdir()
    done = run_cli("sweep", str(sweep), "--no-store", cwd=tmp_path / "elsewhere")
    assert done.returncode == 2
    assert (
        f"army 'patrol-c.yaml' is neither a file nor a shipped army (german-schwerefeld-"
        f"battlegroup, us-tesla-company). A file is looked for in the sweep file's folder "
        f"({tmp_path}), then in the current one."
    ) in " ".join(done.stderr.split())
    _sweep_in(tmp_path, text)
    done = run_cli("sweep", str(sweep), "--no-store", "--games", "2", "--workers", "1",
                   cwd=tmp_path / "elsewhere")  # fmt: skip
    assert done.returncode == 0, done.stderr


def _sweep_in(tmp_path: Path, text: str) -> Path:
    for name in ("skirmish.yaml", "patrol-a.yaml", "patrol-b.yaml"):
        (tmp_path / name).write_text((DATA / name).read_text())
    sweep = tmp_path / "my-sweep.yaml"
    sweep.write_text(text)
    return sweep


def test_a_bad_unit_swapped_in_is_named_at_its_line_in_the_sweep_file(tmp_path: Path) -> None:
    text = (DATA / "sweep.yaml").read_text().replace("weapons: [Rifle]", "weapons: [Rilfe]")
    sweep = _sweep_in(tmp_path, text)
    done = cli(tmp_path, "sweep", str(sweep))
    assert done.returncode == 2
    line = 1 + text.splitlines().index("        - {name: Grenadier, count: 4, weapons: [Rilfe]}")
    assert f"my-sweep.yaml: line {line}, field variants.0.with.models.0.weapons.0" in done.stderr
    assert "(did you mean 'Rifle'?)" in done.stderr
    squad = "        - {name: Grenadier, count: 30, weapons: [Rifle]}"
    many = text.replace(
        "        - {name: Grenadier, count: 4, weapons: [Rilfe]}", f"{squad}\n{squad}"
    )
    done = cli(tmp_path, "sweep", str(_sweep_in(tmp_path, many)))
    # (the unit as a whole is wrong: told at 'with:', the key its block is written under)
    line = 1 + text.splitlines().index("      name: Rifle section") - 1
    assert text.splitlines()[line - 1].strip() == "with:"
    assert done.returncode == 2
    assert f"my-sweep.yaml: line {line}, field variants.0.with: unit" in done.stderr
    assert "has 60 models" in done.stderr


def test_a_tab_after_a_colon_reads_alike_in_every_check_of_a_sweep(tmp_path: Path) -> None:
    # libyaml takes "key:<tab>value" and pure-Python PyYAML refuses it: the sweep's second
    # reading of its file and of a variant's list once used the second and crashed
    sweep = _sweep_in(tmp_path, (DATA / "sweep.yaml").read_text().replace("games: 4", "games:\t4"))
    listed = tmp_path / "patrol-a.yaml"
    listed.write_text(listed.read_text().replace("points: 173", "points:\t173"))
    done = cli(tmp_path, "sweep", str(sweep), "--no-store", "--workers", "1", "--games", "2")
    assert "Traceback" not in done.stderr
    if hasattr(yaml, "CSafeLoader"):  # libyaml: taken, as play and evaluate take the list
        assert done.returncode == 0, done.stderr
    else:  # pure PyYAML refuses it at the first reading: one line, naming the file
        assert done.returncode == 2 and "my-sweep.yaml: line 7" in done.stderr, done.stderr


def test_a_sweep_files_players_and_ruleset_are_checked_as_the_file_says_them(
    tmp_path: Path,
) -> None:
    text = (DATA / "sweep.yaml").read_text()
    sweep = _sweep_in(tmp_path, text.replace("players: random,random", "players: tactical"))
    done = cli(tmp_path, "sweep", str(sweep))
    line = 1 + text.splitlines().index("players: random,random")
    assert done.returncode == 2
    assert f"my-sweep.yaml: line {line}, field players: players takes two" in (done.stderr)
    shipped = text.replace("[patrol-b.yaml]", "[us-tesla-company]").replace(
        "ruleset: konflikt47", "ruleset: bolt-action-1"
    )
    done = cli(tmp_path, "sweep", str(_sweep_in(tmp_path, shipped)))
    assert done.returncode == 2
    assert "army 'us-tesla-company' is a shipped konflikt47 list" in done.stderr
    assert "played under bolt-action-1" in done.stderr and "ruleset: konflikt47" in done.stderr


def test_a_list_named_twice_is_not_played_against_itself(tmp_path: Path) -> None:
    """Cells are matched by the lists' content: a copy of a list is the list itself, and
    the table says why its cell is empty."""
    (tmp_path / "copy-of-b.yaml").write_text(
        "# my copy\n" + (DATA / "patrol-b.yaml").read_text()  # (a comment changes nothing)
    )
    text = (
        (DATA / "sweep.yaml")
        .read_text()
        .replace("against: [patrol-b.yaml]", "against: [copy-of-b.yaml]")
        .replace("lists: [patrol-a.yaml]", "lists: [patrol-a.yaml, patrol-b.yaml]")
    )
    sweep = _sweep_in(tmp_path, text)
    done = cli(tmp_path, "sweep", str(sweep), "--json", "--workers", "1")
    assert done.returncode == 0, done.stderr
    cells = json.loads(done.stdout)["cells"]
    assert cells[1] == [None]  # patrol B against itself, under another name
    done = cli(tmp_path, "sweep", str(sweep), "--workers", "1")
    said = " ".join(done.stdout.split())
    assert "—: the row's list against itself (the same list, whatever its file is called): " in (
        said
    )


def test_a_sweep_with_nothing_to_play_says_so_instead_of_a_table_of_dashes(
    tmp_path: Path,
) -> None:
    text = (
        "name: Alone\nruleset: konflikt47\nlists: [us-tesla-company]\nagainst: us-tesla-company\n"
    )
    (tmp_path / "alone.yaml").write_text(text)
    done = cli(tmp_path, "sweep", "alone.yaml", "--no-store")
    assert done.returncode == 2, done.stderr
    assert (
        "alone.yaml: line 4, field against: nothing to play: 'us-tesla-company' would meet "
        "only itself (the list of 'lists'), and a list is not played against itself; add "
        "another list to 'against' for it to meet"
    ) in " ".join(done.stderr.split())
    assert done.stdout == ""


@pytest.mark.parametrize(
    ("field", "given", "said"),
    [
        ("lists", "[patrol-a.yaml, copy-of-a.yaml]",
         "field lists.1: 'copy-of-a.yaml' is the same list as lists.0 ('patrol-a.yaml'): they "
         "say the same (files, comments and spacing aside), so its row would be that one's "
         "again; give each list once"),
        ("against", "[patrol-b.yaml, patrol-a.yaml, patrol-b.yaml]",
         "field against.2: 'patrol-b.yaml' is given twice (against.0 too); give each list once"),
        ("against", "[us-tesla-company, copy-of-tesla.yaml]",
         "field against.1: 'copy-of-tesla.yaml' is the same list as against.0 "
         "('us-tesla-company'): they say the same (files, comments and spacing aside), so "
         "its column would be that one's again; give each list once"),
    ],
)  # fmt: skip
def test_a_list_given_twice_as_rows_or_as_columns_is_refused_at_its_second_line(
    tmp_path: Path, field: str, given: str, said: str
) -> None:
    """A copy of a list in the same field would be a second row (or column) of the same
    games, named alike: never what a list builder means."""
    from kriegsspiel.rulesets.bolt_action.army import sample_armies

    tesla = next(p for p in sample_armies("konflikt47") if p.stem == "us-tesla-company")
    (tmp_path / "copy-of-tesla.yaml").write_text("# mine\n" + tesla.read_text())
    (tmp_path / "copy-of-a.yaml").write_text((DATA / "patrol-a.yaml").read_text())
    old = {"lists": "lists: [patrol-a.yaml]", "against": "against: [patrol-b.yaml]"}[field]
    text = (DATA / "sweep.yaml").read_text().replace(old, f"{field}: {given}")
    done = cli(tmp_path, "sweep", str(_sweep_in(tmp_path, text)), "--no-store")
    line = 1 + text.splitlines().index(f"{field}: {given}")
    assert done.returncode == 2, done.stderr
    assert f"my-sweep.yaml: line {line}, {said}" in " ".join(done.stderr.split()), done.stderr


def test_a_corrupt_results_file_is_refused_with_exit_2(tmp_path: Path) -> None:
    (tmp_path / "bad.sqlite").write_text("not a database at all " * 50)
    done = cli(tmp_path, "results", "--results", "bad.sqlite")
    assert done.returncode == 2
    assert "not a kriegsspiel results file or it is damaged" in done.stderr


def test_a_damaged_results_file_is_left_as_it_was_with_nothing_beside_it(tmp_path: Path) -> None:
    """A results file cut short (its header still says write-ahead log) is refused by
    results, as left as it was: SQLite's -wal and -shm files, which its read made, are not
    left beside it (the read's connection was left open and kept them)."""
    from kriegsspiel.sim.store import Store

    with Store(tmp_path / "cut.sqlite"):
        pass
    path = tmp_path / "cut.sqlite"
    path.write_bytes(path.read_bytes()[:5000])
    before = path.read_bytes()
    done = cli(tmp_path, "results", "--results", "cut.sqlite")
    assert done.returncode == 2, done.stderr
    assert "it is damaged" in done.stderr and done.stderr.rstrip().endswith("left as it was.")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cut.sqlite"]
    assert path.read_bytes() == before


def test_a_results_file_with_a_row_damaged_by_hand_is_told_with_exit_2(tmp_path: Path) -> None:
    """evaluate, the listing and both exports say which row is damaged and what to do,
    without a traceback; nothing is written, the file is kept as it was."""
    args = ["evaluate", *PATROLS, "--players", "random,random", "--seed", "5", "--workers", "1"]
    assert cli(tmp_path, *args, "--games", "2").returncode == 0
    path = tmp_path / "kriegsspiel-results.sqlite"
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE games SET winner = 'X' WHERE game_index = 1")
    before = path.read_bytes()
    for command in (
        [*args, "--games", "2"],
        ["results"],
        ["results", "--export", "json", "--out", "games.json"],
        ["results", "--export", "csv", "--out", "games.csv"],
    ):
        done = cli(tmp_path, *command)
        said = " ".join(done.stderr.split())
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr
        assert (
            "results file kriegsspiel-results.sqlite: row 2 of its games (game 1 of matchup "
        ) in said and "run with --seed 5) is damaged: its winner is 'X', not A, B or draw." in said
        assert "DELETE FROM games WHERE rowid = 2;" in said, said
    assert not (tmp_path / "games.json").exists() and not (tmp_path / "games.csv").exists()
    assert path.read_bytes() == before


def test_a_results_file_that_cannot_be_opened_claims_no_kept_games(tmp_path: Path) -> None:
    """Only a store this run has written to can have games "kept"; a folder given as the
    file is named as a folder."""
    (tmp_path / "not-a-store.yaml").write_text("a: 1\n" * 50)
    (tmp_path / "runs").mkdir()
    cases = {
        ("evaluate", "--results", "not-a-store.yaml"): "It is left as it was.",
        ("evaluate", "--results", "/proc/no-store-here.sqlite"): "folder you can write to",
        ("results", "--results", "runs"): "'runs' is a folder; give the results file inside",
    }
    for args, told in cases.items():
        done = (
            cli(tmp_path, *args, "--games", "2") if args[0] == "evaluate" else cli(tmp_path, *args)
        )
        assert done.returncode == 2, done.stderr
        assert told in done.stderr and "already stored" not in done.stderr
        assert "Traceback" not in done.stderr
    assert (tmp_path / "not-a-store.yaml").read_text() == "a: 1\n" * 50


def test_results_reads_without_writing_and_never_exports_over_its_store(tmp_path: Path) -> None:
    """Exporting to the store's own name would empty it: refused before it is opened.
    Listing or exporting changes nothing in the file (no WAL switch, no new tables), and
    another program's SQLite file is refused, left as it was."""
    import sqlite3

    made = cli(tmp_path, "evaluate", *PATROLS, "--players", "random,random", "--games", "2",
               "--workers", "1", "--results", "r.sqlite")  # fmt: skip
    assert made.returncode == 0, made.stderr
    store = tmp_path / "r.sqlite"
    for extra in ("-wal", "-shm"):
        (tmp_path / f"r.sqlite{extra}").unlink(missing_ok=True)
    before = store.read_bytes()
    over = cli(tmp_path, "results", "--results", "r.sqlite", "--export", "csv", "-o", "r.sqlite")
    assert over.returncode == 2 and "would destroy it" in over.stderr
    (tmp_path / "r.sqlite-wal").write_bytes(b"")
    log = cli(tmp_path, "results", "--results", "r.sqlite", "--export", "csv", "-o", "r.sqlite-wal")
    assert log.returncode == 2 and "write-ahead log; writing there would destroy it" in log.stderr
    (tmp_path / "r.sqlite-wal").unlink()
    listed = cli(tmp_path, "results", "--results", "r.sqlite")
    exported = cli(tmp_path, "results", "--results", "r.sqlite", "--export", "json", "-o", "-")
    assert listed.returncode == exported.returncode == 0
    assert len(json.loads(exported.stdout)) == 2  # "-": to the screen, not a file named "-"
    assert store.read_bytes() == before and not (tmp_path / "-").exists()
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE users (name TEXT)")
    kept = foreign.read_bytes()
    for args in (["results"], ["evaluate", *PATROLS, "--games", "1"]):
        done = cli(tmp_path, *args, "--results", "foreign.db")
        assert done.returncode == 2 and "not a kriegsspiel results file (its tables: users)" in (
            done.stderr
        ), done.stderr
    assert foreign.read_bytes() == kept
    lonely = cli(tmp_path, "results", "--results", "r.sqlite", "-o", "x.csv")
    assert lonely.returncode == 2 and "add --export csv or json" in lonely.stderr


def test_play_never_writes_over_its_own_inputs(tmp_path: Path) -> None:
    army = tmp_path / "mine.yaml"
    army.write_text((DATA / "patrol-a.yaml").read_text())
    kept = army.read_text()
    base = ["play", "--ruleset", "konflikt47", "--scenario", str(DATA / "skirmish.yaml"),
            "--army", "mine.yaml", "--army", str(DATA / "patrol-b.yaml"), "-q"]  # fmt: skip
    for extra, said in [
        (["--record", "mine.yaml"], "--record 'mine.yaml' is the army list 'mine.yaml'"),
        (["--svg", str(DATA / "skirmish.yaml")], "is the scenario file; writing there would"),
        (["--record", "t.svg", "--svg", "t.svg"], "--svg and --record both name 't.svg'"),
    ]:
        done = cli(tmp_path, *base, *extra)
        assert done.returncode == 2 and said in done.stderr, done.stderr
    assert army.read_text() == kept


def test_a_plot_that_cannot_be_written_keeps_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The games are played and the report printed before the plot is drawn: a plot that
    fails (a full disk, say) is an error, but the results are on the screen."""
    import kriegsspiel.render.plots as plots
    from kriegsspiel.errors import UsageError
    from kriegsspiel.sim.commands import RunOptions, run_evaluate

    def full_disk(*args: object) -> None:
        raise UsageError("cannot write the plot p.png: no space left on device")

    monkeypatch.setattr(plots, "plot_evaluation", full_disk)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError, match="no space left"):
        run_evaluate(ruleset="konflikt47", scenario=PATROLS[3], armies=[PATROLS[5], PATROLS[7]],
                     players="random,random", games=3, seed=2, options=RunOptions(workers=1),
                     plot="p.png", as_json=True)  # fmt: skip
    assert json.loads(capsys.readouterr().out)["games_played"] == 3


def test_a_deployment_zone_without_room_is_named_at_its_line(tmp_path: Path) -> None:
    """The zone is the scenario file's, so the refusal names that file, line and field."""
    from kriegsspiel.core.scenario import sample_scenarios

    shipped = next(p for p in sample_scenarios() if p.stem == "meeting-engagement")
    text = shipped.read_text().replace(
        "[[0, 0], [72, 0], [72, 12], [0, 12]]", "[[0, 0], [2, 0], [2, 2], [0, 2]]"
    )
    (tmp_path / "tiny.yaml").write_text(text)
    done = cli(tmp_path, "play", "--quiet", "--scenario", "tiny.yaml")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "[2, 0], [2, 2]" in row)
    zone = next(i for i, row in enumerate(text.splitlines(), 1) if row.strip() == "deployment:")
    assert done.returncode == 2
    assert "tiny.yaml: line " in done.stderr and "field deployment.0: " in done.stderr
    assert zone < int(done.stderr.split("line ")[1].split(",")[0]) <= line
    assert "has no room for" in done.stderr


def test_shipped_names_are_found_in_any_case() -> None:
    from kriegsspiel.rulesets.bolt_action.army import sample_armies
    from kriegsspiel.sim.matchup import pick_file

    samples = sample_armies("konflikt47")
    found = pick_file("army", "US-Tesla-Company", samples)
    assert found in samples and found.stem == "us-tesla-company"


def test_a_file_named_without_its_ending_is_suggested_not_guessed(tmp_path: Path) -> None:
    from kriegsspiel.errors import UsageError
    from kriegsspiel.rulesets.bolt_action.army import sample_armies
    from kriegsspiel.sim.matchup import pick_file

    (tmp_path / "my-list.yaml").write_text("name: mine\n")
    samples = sample_armies("konflikt47")
    with pytest.raises(
        UsageError,
        match=r"army 'my-list' \(did you mean '.*my-list\.yaml'\?\) is neither .*: give a",
    ):
        pick_file("army", "my-list", samples, tmp_path)
    with pytest.raises(UsageError) as nothing_near:
        pick_file("army", "their-list", samples, tmp_path)
    assert "did you mean" not in str(nothing_near.value)
    done = cli(tmp_path, "evaluate", "--army", "my-list", "--army", "us-tesla-company")
    assert (
        done.returncode == 2
        and "army 'my-list' (did you mean 'my-list.yaml'?) is neither" in done.stderr
    )


def test_a_shipped_name_half_given_is_suggested(tmp_path: Path) -> None:
    for args, said in (
        (["evaluate", "-a", "us-tesla", "-a", "us-tesla-company"],
         "army 'us-tesla' (did you mean 'us-tesla-company'?) is neither a file nor a shipped "
         "army (german-schwerefeld-battlegroup, us-tesla-company)."),
        (["evaluate", "-s", "crossroads"], "scenario 'crossroads' (did you mean 'hold-the-crossroads'?) is neither"),
        (["sweep", "walker-or-tank"], "sweep 'walker-or-tank' (did you mean 'konflikt47-walker-or-tank'?) is neither"),
        (["army", "us-tesla"], "army 'us-tesla' (did you mean 'us-tesla-company'?) is neither a file nor a shipped list"),
    ):  # fmt: skip
        done = cli(tmp_path, *args)
        assert done.returncode == 2 and said in " ".join(done.stderr.split()), done.stderr
    done = cli(tmp_path, "army", "nope")  # nothing near: the names alone
    assert done.returncode == 2 and "did you mean" not in done.stderr


def test_a_folder_or_a_broken_link_given_for_a_file_is_told_so(tmp_path: Path) -> None:
    """Not "is neither a file nor a shipped list": a folder is a folder (with the files in
    it), a link to nothing a broken link, for a list, a scenario, a sweep, a rules file."""
    (tmp_path / "my lists").mkdir()
    (tmp_path / "my lists" / "mine.yaml").write_text("name: mine\n")
    (tmp_path / "empty").mkdir()
    (tmp_path / "gone.yaml").symlink_to(tmp_path / "nowhere.yaml")
    (tmp_path / "loop1.yaml").symlink_to("loop2.yaml")
    (tmp_path / "loop2.yaml").symlink_to("loop1.yaml")
    folder = "is a folder; give a file in it (it holds mine.yaml)"
    broken = f"is a broken link: it points to {tmp_path / 'nowhere.yaml'}, which does not exist"
    # (links in a loop were once "a broken link: it points to loop2.yaml, which does not exist")
    loop = "is a link in a loop: it points to loop2.yaml, which leads back to it through links"
    for args, said in (
        (["army", "my lists"], f"army 'my lists' {folder}."),
        (["army", "gone.yaml"], f"army 'gone.yaml' {broken}."),
        (["army", "loop1.yaml"], f"army 'loop1.yaml' {loop}"),
        (["evaluate", "-s", "loop1.yaml"], f"scenario 'loop1.yaml' {loop}"),
        (["replay", "loop1.yaml"], f"loop1.yaml: {loop}"),
        (
            ["odds", "shoot", "--weapon", "rifle", "--rules-file", "loop1.yaml"],
            f"loop1.yaml: {loop}",
        ),
        (["evaluate", "-a", "my lists", "-a", "us-tesla-company"], f"army 'my lists' {folder}."),
        (["evaluate", "-s", "my lists"], f"scenario 'my lists' {folder}."),
        (["evaluate", "-s", "gone.yaml"], f"scenario 'gone.yaml' {broken}."),
        (["sweep", "my lists"], f"sweep 'my lists' {folder}."),
        (
            ["sweep", "empty"],
            "sweep 'empty' is a folder; give a file in it (it holds no .yaml or .yml file).",
        ),
        (["scenario", "my lists"], f"scenario 'my lists' {folder}."),
        (["odds", "shoot", "--weapon", "rifle", "--rules-file", "my lists"], f"my lists: {folder}"),
        (["replay", "empty"], "empty: is a folder; give a file in it (it holds no .jsonl file)"),
    ):
        done = cli(tmp_path, *args)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert said in " ".join(done.stderr.split()), (args, done.stderr)
        assert "neither a file" not in done.stderr


def test_an_odd_number_of_games_says_the_sides_are_not_balanced(tmp_path: Path) -> None:
    done = cli(tmp_path, "evaluate", *PATROLS, "--players", "random,random", "--games", "3",
               "--workers", "1", "--json", "--no-store")  # fmt: skip
    data = json.loads(done.stdout)
    assert [p["games"] for p in data["army_a_wins_by_side"]] == [2, 1]
    assert any("an odd number of games (3): army A deployed south" in n for n in data["notices"])
    even = cli(tmp_path, "evaluate", *PATROLS, "--players", "random,random", "--games", "4",
               "--workers", "1", "--json", "--no-store")  # fmt: skip
    assert not any("odd" in n for n in json.loads(even.stdout)["notices"])


def test_a_sweep_of_an_odd_number_of_games_says_the_sides_are_not_balanced(
    tmp_path: Path,
) -> None:
    sweep = _sweep_in(tmp_path, (DATA / "sweep.yaml").read_text())
    done = cli(tmp_path, "sweep", str(sweep), "--games", "3", "--workers", "1", "--no-store")
    assert done.returncode == 0, done.stderr
    assert "an odd number of games a cell (3)" in " ".join(done.stdout.split())


def test_ctrl_c_says_whether_finished_games_were_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kriegsspiel.sim.commands as commands
    from kriegsspiel.sim.executors import InProcess
    from kriegsspiel.sim.matchup import build_matchup
    from kriegsspiel.sim.runner import Interrupted
    from kriegsspiel.sim.store import Store

    def pressed(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    real_evaluate = commands.evaluate
    monkeypatch.setattr(commands, "evaluate", pressed)
    matchup = build_matchup("konflikt47", PATROLS[3], [PATROLS[5], PATROLS[7]], "random,random")
    options = commands.RunOptions(workers=1)
    with pytest.raises(Interrupted, match=r"^nothing was stored \(--no-store\)") as unkept:
        commands.run_one(matchup, 4, 1, None, options, None, "patrols")
    assert "resume" not in str(unkept.value).split(";")[0]
    with Store(str(tmp_path / "r.sqlite")) as store:
        real_evaluate(matchup, 2, 1, store=store)  # the first two of the four games
        with pytest.raises(Interrupted, match=r"^2 of the 4 games are stored in "
                           r".*r\.sqlite; run the same command again to resume\."):  # fmt: skip
            commands.run_one(matchup, 4, 1, None, options, store, "patrols")
        # a sweep's cell: the cells stored whole, as its progress lines count them, then
        # how much of the cell it stopped in
        cell = commands.SweepCell
        with pytest.raises(Interrupted, match=r"^cells 1–4 of 8 are stored in .*r\.sqlite "
                           r"\(40 games\), and 2 of cell 5's 4 games; run the same command "
                           r"again to resume\.$"):  # fmt: skip
            commands.run_one(matchup, 4, 1, InProcess(), options, store, "(5/8) patrols",
                             cell=cell(5, 8, 40))  # fmt: skip
        with pytest.raises(Interrupted, match=r"^cell 1 of 3 is stored in .*r\.sqlite "
                           r"\(4 games\), and 2 of cell 2's 4 games; run the same"):  # fmt: skip
            commands.run_one(matchup, 4, 1, InProcess(), options, store, "(2/3) patrols",
                             cell=cell(2, 3, 4))  # fmt: skip
        # stopped in its first cell: no cell before it to speak of
        with pytest.raises(Interrupted, match=r"^2 of cell 1's 4 games \(the first of 3 "
                           r"cells\) are stored in .*r\.sqlite; run the same"):  # fmt: skip
            commands.run_one(matchup, 4, 1, InProcess(), options, store, "(1/3) patrols",
                             cell=cell(1, 3, 0))  # fmt: skip
        # stopped as a cell's last game was stored: that cell is complete, said as one
        with pytest.raises(Interrupted, match=r"^cells 1–2 of 3 are stored in .*r\.sqlite "
                           r"\(6 games\); run the same command again to resume\.$"):  # fmt: skip
            commands.run_one(matchup, 2, 1, InProcess(), options, store, "(2/3) patrols",
                             cell=cell(2, 3, 4))  # fmt: skip
        with pytest.raises(Interrupted, match=r"^cell 1 of 3 is stored in .*r\.sqlite "
                           r"\(2 games\); run"):  # fmt: skip
            commands.run_one(matchup, 2, 1, InProcess(), options, store, "(1/3) patrols",
                             cell=cell(1, 3, 0))  # fmt: skip
        # nothing of the cell yet
        with pytest.raises(Interrupted, match=r"^cell 1 of 3 is stored in .*r\.sqlite "
                           r"\(4 games\), and none of cell 2's 4 games; run"):  # fmt: skip
            commands.run_one(matchup, 4, 2, InProcess(), options, store, "(2/3) patrols",
                             cell=cell(2, 3, 4))  # fmt: skip
        with pytest.raises(Interrupted, match=r"^no game is stored yet in .*r\.sqlite "
                           r"\(stopped in cell 1 of 3\); run"):  # fmt: skip
            commands.run_one(matchup, 4, 2, InProcess(), options, store, "(1/3) patrols",
                             cell=cell(1, 3, 0))  # fmt: skip


def test_a_sweep_stopped_in_a_cell_counts_the_cells_and_games_stored_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A list builder read "every cell finished before (4/8) ... is stored, and 10 of its
    10 games" several times over: the stop names the cells stored whole, as the progress
    lines count them, their games, and how much of the cell it stopped in."""
    import sys

    import kriegsspiel.sim.commands as commands
    from kriegsspiel.cli import main

    real_evaluate = commands.evaluate
    calls: list[int] = []

    def second_stopped(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real_evaluate(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(commands, "evaluate", second_stopped)
    sweep = _sweep_in(tmp_path, (DATA / "sweep.yaml").read_text())
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["kriegsspiel", "sweep", str(sweep), "--workers", "1",
                                      "--results", "r.sqlite"])  # fmt: skip
    with pytest.raises(SystemExit) as exited:
        main()
    said = " ".join(capsys.readouterr().err.split())
    assert exited.value.code == 130, said
    assert (
        "stopped: cell 1 of 2 is stored in r.sqlite (4 games), and none of cell 2's 4 games; "
        "run the same command again to resume." in said
    )


def test_a_list_whose_comments_changed_keeps_its_stored_games(tmp_path: Path) -> None:
    """The store knows a list by what it says: a note added, the spacing or the order of
    its fields changed, its games are read back; a value changed, they are played anew."""
    args = ["evaluate", "--ruleset", "konflikt47", "--scenario", str(DATA / "skirmish.yaml"),
            "--players", "random,random", "--games", "4", "--seed", "2", "--workers", "1",
            "--json", "--army", "b.yaml"]  # fmt: skip
    text = (DATA / "patrol-a.yaml").read_text()
    (tmp_path / "b.yaml").write_text((DATA / "patrol-b.yaml").read_text())
    (tmp_path / "a.yaml").write_text(text)
    first = json.loads(cli(tmp_path, *args[:-2], "--army", "a.yaml", *args[-2:]).stdout)
    assert first["games_played"] == 4
    (tmp_path / "a.yaml").write_text("# my own copy\n" + text.replace(": ", ":   ") + "# end\n")
    again = json.loads(cli(tmp_path, *args[:-2], "--army", "a.yaml", *args[-2:]).stdout)
    assert (again["games_reused"], again["games_played"]) == (4, 0)
    (tmp_path / "a.yaml").write_text(text.replace("quality: regular", "quality: veteran", 1))
    changed = json.loads(cli(tmp_path, *args[:-2], "--army", "a.yaml", *args[-2:]).stdout)
    assert (changed["games_reused"], changed["games_played"]) == (0, 4)


def test_results_lists_and_exports_one_matchup_by_its_id(tmp_path: Path) -> None:
    base = ["--players", "random,random", "--games", "2", "--workers", "1", "--json"]
    first = cli(tmp_path, "evaluate", *PATROLS, *base)
    swapped = [*PATROLS[:4], "--army", PATROLS[7], "--army", PATROLS[5]]
    second = cli(tmp_path, "evaluate", *swapped, *base, "--seed", "9")
    ids = [json.loads(done.stdout)["matchup"][:8] for done in (first, second)]
    assert ids[0] != ids[1]
    listed = cli(tmp_path, "results", "--matchup", ids[1])
    assert listed.returncode == 0, listed.stderr
    assert f"id {ids[1]}" in listed.stdout and f"id {ids[0]}" not in listed.stdout
    exported = cli(tmp_path, "results", "--export", "json", "--matchup", ids[0][:5].upper())
    rows = json.loads(exported.stdout)
    assert len(rows) == 2 and {row["matchup"][:8] for row in rows} == {ids[0]}
    everything = json.loads(cli(tmp_path, "results", "--export", "json").stdout)
    assert len(everything) == 4
    for wrong, said in (("ffffffff", "no stored matchup has an id starting 'ffffffff'"),
                        ("12%", "--matchup takes a matchup's id")):  # fmt: skip
        done = cli(tmp_path, "results", "--matchup", wrong)
        assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr
    assert ids[0] in cli(tmp_path, "results", "--matchup", "ffffffff").stderr  # (the ids known)


def test_results_refuses_an_id_start_that_several_matchups_share(tmp_path: Path) -> None:
    """Matchups stored until two ids begin alike (17 at most: there are 16 hex digits);
    their shared start is refused and names both, and an id pasted as listed is taken."""
    from kriegsspiel.sim.matchup import Matchup, Source
    from kriegsspiel.sim.outcome import GameOutcome
    from kriegsspiel.sim.store import Store

    path = tmp_path / "r.sqlite"
    first_of: dict[str, str] = {}
    with Store(str(path)) as store:
        for i in range(17):
            army = Source(f"list-{i}.yaml", f"name: List {i}\n")
            m = Matchup("konflikt47", Source("s.yaml", "name: s\n"), (army, army), ("random",) * 2)
            store.register(m)
            store.add(m, 1, GameOutcome(0, 1, False, "draw", 1, 1, 1, 1, ()))
            if m.key[0] in first_of:
                shared, other = m.key[0], first_of[m.key[0]]
                break
            first_of[m.key[0]] = m.key
    done = cli(tmp_path, "results", "--results", "r.sqlite", "--matchup", shared)
    assert done.returncode == 2, done.stderr
    assert f"--matchup '{shared}' starts the ids of 2 matchups" in done.stderr
    assert other[:12] in done.stderr and m.key[:12] in done.stderr
    pasted = cli(tmp_path, "results", "--results", "r.sqlite", "--matchup", f"id {m.key[:8]}")
    assert pasted.returncode == 0 and f"id {m.key[:8]}" in pasted.stdout


def test_results_prune_deletes_only_the_games_of_other_code(tmp_path: Path) -> None:
    """Games stored by another code version are never reused; --prune deletes them (of one
    matchup with --matchup), and the matchups left with none, and keeps this code's."""
    import sqlite3

    args = ["evaluate", *PATROLS, "--players", "random,random", "--games", "4", "--workers", "1"]
    ours = json.loads(cli(tmp_path, *args, "--json").stdout)["matchup"]
    db = sqlite3.connect(tmp_path / "kriegsspiel-results.sqlite", isolation_level=None)
    # the same games as an older version stored them, and a matchup only it played
    db.execute("INSERT INTO games SELECT matchup, '0.1.0+old', run_seed, game_index, seed,"
               " swapped, winner, score_a, score_b, turns, orders, units, finished_at"
               " FROM games")  # fmt: skip
    db.execute("INSERT INTO matchups SELECT 'ff' || substr(matchup, 3), ruleset, scenario,"
               " army_a, army_b, army_a_hash, army_b_hash, scenario_hash, players, 'Gone v Old'"
               " FROM matchups")  # fmt: skip
    db.execute("INSERT INTO games SELECT 'ff' || substr(matchup, 3), code_version, run_seed,"
               " game_index, seed, swapped, winner, score_a, score_b, turns, orders, units,"
               " finished_at FROM games WHERE code_version = '0.1.0+old' AND game_index = 0")  # fmt: skip
    db.close()
    listed = " ".join(cli(tmp_path, "results").stdout.split())
    assert "(this code)" in listed and "(other code: not reused)" in listed

    def stored() -> list[tuple[str, str]]:
        rows = json.loads(cli(tmp_path, "results", "--export", "json").stdout)
        return sorted((row["matchup"][:2], row["code_version"]) for row in rows)

    (this,) = {version for _, version in stored()} - {"0.1.0+old"}
    assert len(stored()) == 9
    one = cli(tmp_path, "results", "--prune", "--matchup", ours[:5])  # (its start will do)
    assert one.returncode == 0, one.stderr
    said = " ".join(one.stdout.split())
    assert f"Deleted 4 games of matchup {ours[:8]} stored by other code versions (0.1.0+old)" in (
        said
    )
    assert "5 games left in the file" in said
    assert stored() == sorted([(ours[:2], this)] * 4 + [("ff", "0.1.0+old")])
    every = cli(tmp_path, "results", "--prune")
    assert every.returncode == 0 and "Deleted 1 game stored" in " ".join(every.stdout.split())
    assert stored() == [(ours[:2], this)] * 4
    assert "Gone v Old" not in cli(tmp_path, "results").stdout  # its matchup went with it
    again = json.loads(cli(tmp_path, *args, "--json").stdout)
    assert (again["games_reused"], again["games_played"]) == (4, 0)  # this code's are kept
    both = cli(tmp_path, "results", "--prune", "--export", "csv")
    assert both.returncode == 2 and "give one at a time" in both.stderr


def test_games_stored_by_other_code_are_said_not_reused_with_how_to_remove_them(
    tmp_path: Path,
) -> None:
    """A results file holding this matchup's games from an earlier code version said "4
    played, 0 from the results store", nothing of the games it passed over."""
    import sqlite3

    matchup = ["evaluate", *PATROLS, "--players", "random,random", "--workers", "1"]
    args = [*matchup, "--games", "4"]
    assert cli(tmp_path, *args).returncode == 0
    for name in ("patrol-a.yaml", "patrol-b.yaml", "skirmish.yaml", "sweep.yaml"):
        (tmp_path / name).write_text((DATA / name).read_text())
    sweep = ["sweep", "sweep.yaml", "--workers", "1", "--games", "2"]
    assert cli(tmp_path, *sweep).returncode == 0
    with contextlib.closing(sqlite3.connect(tmp_path / "kriegsspiel-results.sqlite")) as db:
        db.execute("UPDATE games SET code_version = '0.1.0+old'")
        db.commit()
    again = cli(tmp_path, *matchup, "--games", "6")
    said = " ".join(again.stdout.split())
    assert "6 games (6 played, 0 from the results store)" in said
    assert (
        "4 games of this matchup stored by other code (code version 0.1.0+old) were not "
        "reused (a change to the code may change a game); 'kriegsspiel results --prune' "
        "removes them."
    ) in said
    data = json.loads(cli(tmp_path, *args, "--json", "--seed", "2").stdout)
    assert (data["games_of_other_code"], data["other_code_versions"]) == (0, [])  # other seed
    swept = cli(tmp_path, *sweep)
    said = " ".join(swept.stdout.split())
    assert "games of these matchups stored by other code (code version 0.1.0+old)" in said
    assert cli(tmp_path, "results", "--prune").returncode == 0
    pruned = " ".join(cli(tmp_path, *args).stdout.split())
    assert "stored by other code" not in pruned and "4 from the results store" in pruned


def _field_sweep(tmp_path: Path) -> dict[str, Any]:
    """Patrol A and its variant against patrol B, a veteran copy of B, and patrol A."""
    for name in ("patrol-a.yaml", "patrol-b.yaml", "skirmish.yaml"):
        (tmp_path / name).write_text((DATA / name).read_text())
    veteran = (DATA / "patrol-b.yaml").read_text().replace("quality: regular", "quality: veteran")
    (tmp_path / "patrol-c.yaml").write_text(veteran.replace("name: Rifle Patrol", "name: Vets"))
    text = (DATA / "sweep.yaml").read_text()
    against = "against: [patrol-b.yaml, patrol-c.yaml, patrol-a.yaml]"
    (tmp_path / "sweep.yaml").write_text(text.replace("against: [patrol-b.yaml]", against))
    done = cli(tmp_path, "sweep", "sweep.yaml", "--workers", "1", "--games", "6", "--json")
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def test_a_sweep_pools_each_rows_games_against_the_field(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kriegsspiel.sim.stats import wilson

    monkeypatch.setenv("COLUMNS", "200")  # (a table wide enough for its cells' lines)

    data = _field_sweep(tmp_path)
    (a_v_b, a_v_c, a_v_a), _ = data["cells"]
    assert a_v_a is None
    field, _ = data["against_the_field"]
    count = a_v_b["count"] + a_v_c["count"]
    assert (field["count"], field["games"], field["opponents"]) == (count, 12, 2)
    assert (field["low"], field["high"]) == (wilson(count, 12).low, wilson(count, 12).high)
    assert field["rate"] == pytest.approx((a_v_b["rate"] + a_v_c["rate"]) / 2)
    assert field["draws"]["rate"] == pytest.approx(
        (a_v_b["draws"]["rate"] + a_v_c["draws"]["rate"]) / 2
    )
    shown = " ".join(cli(tmp_path, "sweep", "sweep.yaml", "--games", "6").stdout.split())
    assert "v the field" in shown and "(pooled)" in shown
    assert f"{field['rate']:.0%} ({field['low']:.0%}–{field['high']:.0%})" in shown
    assert "v 2 opponents" in shown  # (the row's field: patrol B and the veterans)
    assert "the row's games against every column but its own list (and, for a variant" in shown


def test_a_sweeps_json_has_each_rows_field_even_where_the_table_leaves_it_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where no row meets more than one opponent the table has no field column (it would
    repeat a cell), but the JSON keeps its keys: "against_the_field" is there, a row each,
    with its one opponent."""
    monkeypatch.setenv("COLUMNS", "200")
    sweep = ["sweep", str(DATA / "sweep.yaml"), "--workers", "1", "--games", "2"]
    data = json.loads(cli(tmp_path, *sweep, "--json").stdout)
    assert len(data["columns"]) == 1  # (the variant's own list is not in its field)
    field = data["against_the_field"]
    assert [row["opponents"] for row in field] == [1, 1]
    for (cell,), pooled in zip(data["cells"], field, strict=True):
        assert (pooled["count"], pooled["games"]) == (cell["count"], cell["games"])
    assert "the field" not in cli(tmp_path, *sweep).stdout


def test_a_variant_faces_the_field_its_list_faces(tmp_path: Path) -> None:
    """Its game against the list it was made from is its comparison, not the field."""
    data = _field_sweep(tmp_path)
    _, (variant_v_b, variant_v_c, variant_v_a) = data["cells"]
    assert variant_v_a is not None  # (played: the variant against its own list)
    _, field = data["against_the_field"]
    assert (field["count"], field["games"], field["opponents"]) == (
        variant_v_b["count"] + variant_v_c["count"],
        12,
        2,
    )


def test_a_prune_leaves_a_matchup_whose_games_are_still_to_come(tmp_path: Path) -> None:
    """An evaluation registers its matchup before its first game is stored: a prune in
    between must not take the matchup away (its games would then be stored but never
    listed); and a file that is not a results store is refused, not made one."""
    from kriegsspiel.sim.matchup import Matchup, Source
    from kriegsspiel.sim.outcome import GameOutcome
    from kriegsspiel.sim.store import Store

    path = tmp_path / "r.sqlite"
    army = Source("a.yaml", "name: A\n")
    waiting = Matchup("konflikt47", Source("s.yaml", "name: s\n"), (army, army), ("random",) * 2)
    with Store(str(path)) as store:
        store.register(waiting)
    done = cli(tmp_path, "results", "--results", "r.sqlite", "--prune")
    assert done.returncode == 0, done.stderr
    with Store(str(path)) as store:
        store.add(waiting, 1, GameOutcome(0, 1, False, "draw", 1, 1, 1, 1, ()))
    listed = cli(tmp_path, "results", "--results", "r.sqlite")
    assert f"id {waiting.key[:8]}" in listed.stdout  # its game is listed
    (tmp_path / "empty.sqlite").write_bytes(b"")
    refused = cli(tmp_path, "results", "--results", "empty.sqlite", "--prune")
    assert refused.returncode == 2 and "is not a kriegsspiel results file" in refused.stderr
    assert (tmp_path / "empty.sqlite").read_bytes() == b""


def test_an_export_tells_games_of_an_edited_scenario_apart(tmp_path: Path) -> None:
    """A scenario file edited between runs keeps its name: its hash tells its games apart."""
    for name in ("skirmish.yaml", "patrol-a.yaml", "patrol-b.yaml"):
        (tmp_path / name).write_text((DATA / name).read_text())
    run = ["evaluate", "--ruleset", "konflikt47", "--scenario", "skirmish.yaml", "--army",
           "patrol-a.yaml", "--army", "patrol-b.yaml", "--players", "random,random",
           "--games", "1", "--workers", "1", "--results", "r.sqlite"]  # fmt: skip
    assert cli(tmp_path, *run).returncode == 0
    scenario = tmp_path / "skirmish.yaml"
    scenario.write_text(scenario.read_text().replace("turns: 3", "turns: 2"))
    assert cli(tmp_path, *run).returncode == 0
    done = cli(tmp_path, "results", "--results", "r.sqlite", "--export", "csv")
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert [r["scenario"] for r in rows] == ["skirmish.yaml"] * 2
    assert len({r["scenario_hash"] for r in rows}) == 2
    from kriegsspiel.sim.store import Store

    with Store(tmp_path / "r.sqlite") as store:
        with pytest.raises(UsageError, match="not 'parquet'"):
            store.export(io.StringIO(), "parquet")
        # from Python, a matchup id that matches none is refused as the command refuses it
        # (it wrote an export of no games), and so is a Matchup given for its id
        keys = sorted(r["matchup"][:8] for r in rows)  # (the two scenarios' matchups)
        assert store.export(io.StringIO(), "csv", keys[0]) == 1
        with pytest.raises(UsageError, match=rf"no stored matchup has an id starting 'nomatch'; "
                           rf"the ids in .*r\.sqlite are {keys[0]}, {keys[1]}\.$"):  # fmt: skip
            store.export(io.StringIO(), "csv", "nomatch")
        with pytest.raises(UsageError, match=r"by its id as text .* not int 3"):
            store.export(io.StringIO(), "csv", 3)  # type: ignore[arg-type]


def _wait_until_stored(path: Path, run: subprocess.Popen[str], games: int) -> None:
    """Wait until the results file at ``path`` holds ``games`` games; fail, saying so, if
    ``run`` ends first or has not stored them within 5 minutes (a loaded machine's)."""
    import sqlite3
    import time

    deadline, stored = time.monotonic() + 300, 0
    while stored < games and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.2)
        if path.exists():
            with (
                contextlib.suppress(sqlite3.Error),
                contextlib.closing(sqlite3.connect(path, timeout=1)) as db,
            ):
                stored = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    ended = "ended" if run.poll() is not None else "was still playing after 300 s"
    assert stored >= games, f"the run {ended} with {stored} of the {games} games to stop at"


@contextlib.contextmanager
def _ended(run: subprocess.Popen[str], *, group: bool = False) -> Iterator[None]:
    """``run`` (and its process group, with ``group``) is killed if it outlives the block:
    a test that fails leaves no run behind."""
    import os

    try:
        yield
    finally:
        if run.poll() is None:
            if group:
                os.killpg(run.pid, signal.SIGKILL)
            else:
                run.kill()
            run.communicate()


@pytest.mark.parametrize(("sent", "status", "said"), [
    (signal.SIGTERM, 143, "kriegsspiel: stopped (SIGTERM):"),
    (signal.SIGINT, 130, "kriegsspiel: stopped:"),
])  # fmt: skip
def test_a_run_stopped_by_a_signal_says_what_it_stored_and_resumes(
    tmp_path: Path, sent: signal.Signals, status: int, said: str
) -> None:
    """A batch system stops a job with SIGTERM: the run stops as on Ctrl-C, says how many
    games it kept (exit status 143, as shells give it), and the same command resumes. One
    worker plays the games in order, so those kept are the first ones, whenever the signal
    comes (it once came as a game was taken back: that game was lost and the two played
    after it stored, so a resume of the 17 said to be kept reused 16)."""
    import sys

    args = [*PATROLS, "--players", "random,random", "--games", "900", "--workers", "1",
            "--results", "r.sqlite"]  # fmt: skip
    run = subprocess.Popen(
        [sys.executable, "-c", "from kriegsspiel.cli import main; main()", "evaluate", *args],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    with _ended(run):
        _wait_until_stored(tmp_path / "r.sqlite", run, 5)
        run.send_signal(sent)
        _, err = run.communicate(timeout=300)
    assert run.returncode == status, err
    kept = int(err.split(f"{said} ")[1].split(" of the 900 games")[0])
    assert kept >= 5 and "run the same command again to resume" in err
    with contextlib.closing(sqlite3.connect(tmp_path / "r.sqlite")) as db:
        indices = sorted(row[0] for row in db.execute("SELECT game_index FROM games"))
    assert indices == list(range(kept)), f"said {kept} kept; stored: {indices}"
    again = cli(tmp_path, "evaluate", *args[:-6], "--games", str(kept), "--workers", "1",
                "--results", "r.sqlite", "--json")  # fmt: skip
    resumed = json.loads(again.stdout)
    assert (resumed["games_reused"], resumed["games_played"]) == (kept, 0)


# a wrapper of the command line that logs each game a worker finishes (its number), and
# starts fresh workers every WORKER_LIFE games (so that later ones start from the fork server)
LOGGING_CLI = """
import os, sys
import kriegsspiel.sim.executors as executors
import kriegsspiel.sim.outcome as outcome
import kriegsspiel.sim.runner as runner

runner.WORKER_LIFE = int(os.environ["WORKER_LIFE"])
executors.STOP_WAIT = float(os.environ["STOP_WAIT"])
played = outcome.play_one

def play_one(matchup, index, seed):
    result = played(matchup, index, seed)
    with open(os.environ["GAME_LOG"], "a") as log:
        log.write(f"{index}\\n")
    return result

outcome.play_one = play_one
if __name__ == "__main__":
    from kriegsspiel.cli import main
    sys.argv = ["kriegsspiel", *sys.argv[1:]]
    main()
"""


@pytest.mark.parametrize(("sent", "status", "said"), [
    (signal.SIGTERM, 143, "kriegsspiel: stopped (SIGTERM):"),
    (signal.SIGINT, 130, "kriegsspiel: stopped:"),
], ids=["SIGTERM", "SIGINT"])  # fmt: skip
def test_a_run_stopped_by_a_signal_to_its_process_group_stores_every_game_its_workers_finish(
    tmp_path: Path, sent: signal.Signals, status: int, said: str
) -> None:
    """A batch system's SIGTERM, as a terminal's Ctrl-C, reaches the workers too: they
    leave it to the run, which stores the games of the tasks they had begun (a task handed
    to a worker cannot be called back) and counts them in what it says it kept. Workers
    that SIGTERM ended at once lost them; those a Ctrl-C spared played them for nothing.
    Fresh workers every 10 games: most of the run's start from the fork server, which a
    SIGTERM to the group must not end either (its workers would be taken for dead)."""
    import os
    import sqlite3
    import sys

    (tmp_path / "logging_cli.py").write_text(LOGGING_CLI)
    args = [*PATROLS, "--players", "tactical,tactical", "--games", "5000", "--workers", "2",
            "--results", "r.sqlite"]  # fmt: skip
    # (the tasks begun are waited for however slowly a loaded machine plays them: the run's
    # 30 s limit, past which games are given up, is not what is tested here)
    env = os.environ | {"GAME_LOG": str(tmp_path / "games.log"), "WORKER_LIFE": "5",
                        "STOP_WAIT": "300"}  # fmt: skip
    run = subprocess.Popen(
        [sys.executable, "logging_cli.py", "evaluate", *args], cwd=tmp_path, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    with _ended(run, group=True):
        _wait_until_stored(tmp_path / "r.sqlite", run, 60)
        os.killpg(run.pid, sent)
        _, err = run.communicate(timeout=600)
    assert run.returncode == status, err
    kept = int(err.split(f"{said} ")[1].split(" of the 5000 games")[0])
    with contextlib.closing(sqlite3.connect(tmp_path / "r.sqlite")) as db:
        indices = {row[0] for row in db.execute("SELECT game_index FROM games")}
    finished = {int(line) for line in (tmp_path / "games.log").read_text().split()}
    assert finished <= indices, f"finished, not stored: {sorted(finished - indices)}"
    assert len(indices) == kept >= 60
    assert "Traceback" not in err and "stopping: storing the games the workers" in err, err


def cli_within(tmp: Path, limit: int, *args: str) -> subprocess.CompletedProcess[str]:
    """The command line, allowed to write no file beyond ``limit`` bytes (``ulimit -f``),
    as a quota or a device that fails to write would stop it (SIGXFSZ ignored: the write
    fails, with EFBIG)."""
    import sys

    code = (
        "import resource, signal; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit})); "
        "from kriegsspiel.cli import main; main()"
    )
    return subprocess.run([sys.executable, "-c", code, *args], cwd=tmp, capture_output=True,
                          text=True, timeout=300, check=False)  # fmt: skip


@pytest.mark.skipif(sys.platform == "win32", reason="file-size limits are POSIX's")
def test_a_write_the_disk_refuses_is_told_as_such_and_the_run_resumes(tmp_path: Path) -> None:
    """A write that fails for another reason than a full disk (a quota, a file-size limit,
    a device error) says so, not a bare "disk I/O error"; the games stored are kept and the
    same command resumes."""
    args = ["evaluate", *PATROLS, "--players", "random,random", "--seed", "4", "--workers", "1",
            "--results", "r.sqlite", "--json"]  # fmt: skip
    assert cli(tmp_path, *args, "--games", "2").returncode == 0
    stopped = cli_within(tmp_path, 40_000, *args, "--games", "400")
    assert stopped.returncode == 2 and "Traceback" not in stopped.stderr
    said = " ".join(stopped.stderr.split())
    assert "r.sqlite: could not store a game: could not write to the disk (a quota, a " in said
    assert "file-size limit or a device error): disk I/O error (SQLITE_IOERR_WRITE); run the " in (
        said
    )
    assert said.endswith("run the same command again to resume. Games already stored are kept.")
    again = json.loads(cli(tmp_path, *args, "--games", "30").stdout)
    assert again["games_reused"] >= 2 and again["games_played"] + again["games_reused"] == 30


def test_workers_that_keep_dying_under_the_command_line_get_no_hint_about_a_script(
    tmp_path: Path,
) -> None:
    """The hint to put a script's call of evaluate under a main guard is for a script of
    the user's: under kriegsspiel's own command line there is none to guard."""
    (tmp_path / "dying_cli.py").write_text(
        "import os, sys\n"
        "import kriegsspiel.sim.outcome as outcome\n"
        "outcome.play_one = lambda *args: os._exit(1)  # every worker dies at its first game\n"
        "if __name__ == '__main__':\n"
        "    from kriegsspiel.cli import main\n"
        "    sys.argv = ['kriegsspiel', *sys.argv[1:]]\n"
        "    main()\n"
    )
    done = subprocess.run(
        [sys.executable, "dying_cli.py", "evaluate", *PATROLS, "--games", "4", "--workers", "2",
         "--no-store"], cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    said = " ".join(done.stderr.split())
    assert "worker processes died 4 times with no game coming back in between" in said
    # (the hint's own words: "script" alone is in "Bad file descriptor", which a dying
    # pool once printed under load)
    assert "if a script of yours" not in said and "__main__" not in said, said
    assert "Traceback" not in said, said


@pytest.mark.skipif(sys.platform == "win32", reason="file-size limits are POSIX's")
def test_a_new_results_file_that_cannot_be_made_is_not_left_behind(tmp_path: Path) -> None:
    """A full disk (or a quota, a file-size limit) as a new results file is made: the empty
    file SQLite began is removed, as are the files beside it, and the message does not say
    it was "left as it was"; a file that was there before stays as it was."""
    args = ["evaluate", *PATROLS, "--players", "random,random", "--games", "2", "--workers", "1"]
    for limit in (0, 1_000, 10_000):  # nothing written; a bare header; its tables not begun
        done = cli_within(tmp_path, limit, *args, "--results", f"new{limit}.sqlite")
        said = " ".join(done.stderr.split())
        assert done.returncode == 2 and "Traceback" not in said, said
        assert said.endswith("No file is left there (there was none before)."), said
        assert "left as it was" not in said
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    (tmp_path / "mine.sqlite").write_bytes(b"")
    done = cli_within(tmp_path, 0, *args, "--results", "mine.sqlite")
    assert done.returncode == 2 and done.stderr.rstrip().endswith("It is left as it was.")
    assert (tmp_path / "mine.sqlite").read_bytes() == b""


def test_with_no_ruleset_given_the_lists_own_is_played(tmp_path: Path) -> None:
    """Two Bolt Action lists (files that say `ruleset: bolt-action-1`, or shipped names)
    are played as Bolt Action without --ruleset; lists that disagree, or say nothing, are
    played under the default, konflikt47, whose check says what a list is for."""
    from kriegsspiel.rulesets.bolt_action.army import sample_armies
    from kriegsspiel.sim.matchup import build_matchup, lists_ruleset

    british, german = (p.read_text() for p in sample_armies("bolt-action-1")[:2])
    (tmp_path / "ours.yaml").write_text(british)
    (tmp_path / "theirs.yaml").write_text(german)
    assert lists_ruleset(["ours.yaml", "theirs.yaml"], tmp_path) == "bolt-action-1"
    assert lists_ruleset(["ours.yaml", "german-grenadier-platoon"], tmp_path) == "bolt-action-1"
    assert lists_ruleset(["ours.yaml", "us-tesla-company"], tmp_path) == "konflikt47"
    assert lists_ruleset([]) == "konflikt47"
    assert build_matchup(None, None, ["ours.yaml", "theirs.yaml"], base=tmp_path).ruleset == (
        "bolt-action-1"
    )
    done = cli(tmp_path, "play", "-a", "ours.yaml", "-a", "theirs.yaml", "--quiet", "--seed", "2")
    assert done.returncode == 0, done.stderr
    assert "Bolt Action (1st edition), seed 2" in done.stdout
    mixed = cli(tmp_path, "evaluate", "-a", "ours.yaml", "-a", "us-tesla-company", "--games", "2",
                "--no-store")  # fmt: skip
    assert mixed.returncode == 2 and "the two lists are for different editions" in mixed.stderr
    drawn = cli(tmp_path, "scenario", "meeting-engagement", "--svg", "t.svg",
                "-a", "ours.yaml", "-a", "theirs.yaml")  # fmt: skip
    assert drawn.returncode == 0, drawn.stderr


@pytest.mark.parametrize(
    "ruleset", [[], ["--ruleset", "konflikt47"], ["--ruleset", "bolt-action-1"]]
)
def test_two_lists_of_different_editions_are_told_which_is_which(
    tmp_path: Path, ruleset: list[str]
) -> None:
    """Without --ruleset the Bolt Action list was refused as loaded for Konflikt '47 ("ask
    for bolt-action-1"), and with it the other list as loaded for Bolt Action."""
    (tmp_path / "ours.yaml").write_text((DATA / "patrol-a.yaml").read_text())
    for command in ("evaluate", "play"):
        done = cli(tmp_path, command, *ruleset, "-a", "german-grenadier-platoon",
                   "-a", "ours.yaml", "--no-store" if command == "evaluate" else "--quiet")  # fmt: skip
        said = " ".join(done.stderr.split())
        assert done.returncode == 2 and "Traceback" not in said, said
        assert (
            "the two lists are for different editions: army A (german-grenadier-platoon) is a "
            "Bolt Action 1st edition list (bolt-action-1), army B (ours.yaml) is a Konflikt "
            "'47 list (konflikt47); a game is played under one edition" in said
        ), said


def test_a_sweep_of_lists_of_different_editions_is_told_which_is_which(tmp_path: Path) -> None:
    text = (DATA / "sweep.yaml").read_text()
    mixed = text.replace(
        "against: [patrol-b.yaml]", "against: [patrol-b.yaml, british-rifle-platoon]"
    )
    for ruleset in ("konflikt47", "bolt-action-1"):
        sweep = _sweep_in(tmp_path, mixed.replace("ruleset: konflikt47", f"ruleset: {ruleset}"))
        said = " ".join(cli(tmp_path, "sweep", str(sweep)).stderr.split())
        at = "against.1" if ruleset == "konflikt47" else "lists.0"
        assert f"field {at}: the sweep's lists are for different editions: " in said, said
        assert "'british-rifle-platoon' is a Bolt Action 1st edition list; " in said
        assert "'patrol-a.yaml' and 'patrol-b.yaml' are Konflikt '47 lists;" in said
        assert f"a sweep is played under one edition (its ruleset, {ruleset})" in said


def test_results_exports_one_row_a_unit_of_each_game_for_a_spreadsheet(tmp_path: Path) -> None:
    """--export units-csv: a row for each unit of each game, its game's columns first, then
    the unit's (its army and list, the side it set up on, as the games' export stores it),
    so survival or damage can be pivoted by unit with no script; the same figures as the
    game export's units, and refused under a .json name."""
    assert cli(tmp_path, "evaluate", *PATROLS, "--games", "2", "--workers", "1").returncode == 0
    games = list(csv.DictReader(io.StringIO(cli(tmp_path, "results", "--export", "csv").stdout)))
    done = cli(tmp_path, "results", "--export", "units-csv", "--out", "units.csv")
    assert done.returncode == 0 and "the units of 2 games exported to units.csv" in done.stderr
    rows = list(csv.DictReader(io.StringIO((tmp_path / "units.csv").read_text())))
    units = [unit for game in games for unit in json.loads(game["units"])]
    assert len(rows) == len(units) == 8  # (2 games of 2 units a side)
    for row, unit in zip(rows, units, strict=True):
        game = next(g for g in games if g["game_index"] == row["game_index"])
        assert {k: row[k] for k in ("army", "slot", "name", "points")} == {
            k: str(unit[k]) for k in ("army", "slot", "name", "points")
        }
        assert row["survived"] == str(int(unit["survived"]))  # (0 or 1, as swapped is)
        assert float(row["damage_dealt"]) == unit["damage_dealt"]
        assert row["list"] == game["army_a" if unit["army"] == "A" else "army_b"]
        on_a = (unit["army"] == "A") != (game["swapped"] == "1")
        assert row["side"] == ("A" if on_a else "B")
        assert row["seed"] == game["seed"] and row["winner"] == game["winner"]
    assert "units" not in rows[0] and "finished_at" not in rows[0]
    wrong = cli(tmp_path, "results", "--export", "units-csv", "--out", "units.json")
    assert wrong.returncode == 2 and "writes CSV: give a .csv file" in wrong.stderr
    again = cli(tmp_path, "results", "--export", "units-csv", "--out", "units.csv")
    assert again.returncode == 0  # (an export of units is an export: replaced)
    bad = cli(tmp_path, "results", "--export", "units")
    assert bad.returncode == 2 and "units-csv (a row a unit of each game)" in bad.stderr


def test_a_run_that_played_nothing_says_its_games_were_read_back(tmp_path: Path) -> None:
    """After a run whose every game was in the store, "Games stored in FILE" read as if it
    had stored some: it says they were read back, an evaluation and a sweep alike."""
    args = ["evaluate", *PATROLS, "--players", "random,random", "--games", "2", "--workers",
            "1", "--results", "r.sqlite"]  # fmt: skip
    first = " ".join(cli(tmp_path, *args).stdout.split())
    assert "Games stored in r.sqlite." in first
    again = " ".join(cli(tmp_path, *args).stdout.split())
    assert "Every game was read back from r.sqlite: none to play." in again
    assert "Games stored in" not in again
    sweep = _sweep_in(tmp_path, (DATA / "sweep.yaml").read_text())
    for _ in range(2):
        said = cli(tmp_path, "sweep", str(sweep), "--games", "2", "--workers", "1", "--results",
                   "s.sqlite")  # fmt: skip
    told = " ".join(said.stdout.split())
    assert "Games: 0 played, 4 from the results store, every one read back from s.sqlite." in told


def test_a_sweep_file_may_leave_its_ruleset_to_its_lists(tmp_path: Path) -> None:
    """As evaluate takes the edition from its lists' ruleset:, a sweep file may leave it out;
    lists of two editions are still refused, naming them."""
    text = (DATA / "sweep.yaml").read_text().replace("ruleset: konflikt47\n", "")
    sweep = _sweep_in(tmp_path, text)
    done = cli(tmp_path, "sweep", str(sweep), "--games", "2", "--workers", "1", "--no-store",
               "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ruleset"] == "konflikt47"
    mixed = _sweep_in(tmp_path, text.replace("against: [patrol-b.yaml]",
                                             "against: [patrol-b.yaml, british-rifle-platoon]"))  # fmt: skip
    refused = cli(tmp_path, "sweep", str(mixed), "--no-store")
    assert refused.returncode == 2 and "lists are for different editions" in refused.stderr


def test_a_sweep_seed_whose_last_scenario_would_pass_the_largest_is_refused(
    tmp_path: Path,
) -> None:
    """Each scenario after the first plays from the next seed: at the largest seed the
    second wrapped round to seed 0. It is refused before any game, saying the largest seed
    that will do."""
    from kriegsspiel.sim import MAX_SEED
    from kriegsspiel.sim.sweep import scenario_seed

    (tmp_path / "farm.yaml").write_text((DATA / "farm.yaml").read_text())
    text = (
        (DATA / "sweep.yaml")
        .read_text()
        .replace("scenario: skirmish.yaml", "scenario: [skirmish.yaml, farm.yaml]")
    )
    sweep = _sweep_in(tmp_path, text)
    done = cli(tmp_path, "sweep", str(sweep), "--seed", str(MAX_SEED), "--no-store")
    assert done.returncode == 2 and done.stdout == ""
    assert f"--seed {MAX_SEED} is too large for 2 scenarios" in done.stderr
    assert f"give a seed of at most {MAX_SEED - 1}" in done.stderr
    assert scenario_seed(MAX_SEED - 1, 1) == MAX_SEED
    with pytest.raises(ValueError, match="past"):
        scenario_seed(MAX_SEED, 1)
