"""A designer's house rules (``--rules-file``, a sweep's ``rules_file``) played and simulated,
not only used for odds: lists are checked against them, games played by them (here, in
workers and on Dask), stored under their own key, recorded and replayed with them."""

from __future__ import annotations

import csv
import io
import json
import pickle
import shlex
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from conftest import SIM_DATA, in_a_fresh_process, run_cli

from kriegsspiel.errors import DataFileError, UsageError
from kriegsspiel.rulesets.bolt_action.data import DATA_DIR
from kriegsspiel.rulesets.rules_data import shipped_data
from kriegsspiel.sim.matchup import Matchup, Source, build_matchup, play_game
from kriegsspiel.sim.outcome import play_batch
from kriegsspiel.sim.runner import evaluate

RIFLE = '{name: Rifle, category: small arms, range: 24, shots: "1"}'
# the house rules: the Rifle reaches 36" and fires 5 shots, and a new weapon, the Heavy rifle
HOUSE_RIFLE = '{name: Rifle, category: small arms, range: 36, shots: "5"}'
HEAVY = '{name: Heavy rifle, category: small arms, range: 36, shots: "3", pen: 1}'
# the small patrols matchup's files, and the grenadiers' list given the Heavy rifle
FILES = ("skirmish.yaml", "patrol-a.yaml", "patrol-b.yaml")
GRENADIERS = "{name: Grenadier, count: 5, weapons: [Rifle]}"
HEAVY_GRENADIERS = "{name: Grenadier, count: 5, weapons: [Heavy rifle]}"


def house(folder: Path, name: str = "house.yaml") -> Path:
    """The shipped Konflikt '47 data with the house rules, written into ``folder`` with the
    patrols' files, and heavy.yaml: patrol A's list armed with the Heavy rifle."""
    text = (DATA_DIR / "konflikt47.yaml").read_text()
    assert text.count(RIFLE) == 1
    (folder / name).write_text(text.replace(RIFLE, f"{HOUSE_RIFLE}\n    - {HEAVY}"))
    for file in FILES:
        shutil.copy(SIM_DATA / file, folder / file)
    patrol = (SIM_DATA / "patrol-a.yaml").read_text()
    assert patrol.count(GRENADIERS) == 1
    (folder / "heavy.yaml").write_text(patrol.replace(GRENADIERS, HEAVY_GRENADIERS))
    return folder / name


def patrols(folder: Path, rules: Path | None, army_a: str = "patrol-a.yaml") -> Matchup:
    return build_matchup(
        "konflikt47",
        str(folder / "skirmish.yaml"),
        [str(folder / army_a), str(folder / "patrol-b.yaml")],
        "random,random",
        rules_file=None if rules is None else str(rules),
    )


def most_shots(matchup: Matchup, seeds: range = range(3)) -> int:
    """The most shots a unit fired at once, in games of ``seeds``."""
    return max(
        event.data["shots"]
        for seed in seeds
        for event in play_game(matchup, seed).events
        if event.kind == "shoot"
    )


def test_a_list_with_a_weapon_of_the_rules_file_is_refused_without_it_and_taken_with_it(
    tmp_path: Path,
) -> None:
    """The Heavy rifle is on the house rules' weapons chart only: the list is refused, at
    its line and field, by army, play and evaluate without them, and taken with them."""
    rules = house(tmp_path)
    matchup = ["--scenario", "skirmish.yaml", "--army", "heavy.yaml", "--army", "patrol-b.yaml"]
    where = "heavy.yaml: line 14, field units.0.models.2.weapons.0: "
    for args in (
        ["army", "heavy.yaml"],
        ["play", *matchup, "--quiet"],
        ["evaluate", *matchup, "--games", "2", "--no-store"],
    ):
        refused = run_cli(*args, cwd=tmp_path)
        assert refused.returncode == 2, refused.stderr
        assert where in refused.stderr and "Unknown weapon 'Heavy rifle'" in refused.stderr
        taken = run_cli(*args, "--rules-file", rules.name, cwd=tmp_path)
        assert taken.returncode == 0, taken.stderr
    shown = run_cli("army", "heavy.yaml", "--rules-file", "house.yaml", "--json", cwd=tmp_path)
    weapons = json.loads(shown.stdout)["units"][0]["models"][2]["weapons"]
    assert weapons == ["Heavy rifle"]
    roster = run_cli("army", "heavy.yaml", "--rules-file", "house.yaml", cwd=tmp_path).stdout
    assert "rules file house.yaml" in roster
    with pytest.raises(DataFileError, match="Unknown weapon 'Heavy rifle'"):
        patrols(tmp_path, None, "heavy.yaml")
    assert patrols(tmp_path, rules, "heavy.yaml").rules is not None


def test_a_game_by_house_rules_is_played_by_them(tmp_path: Path) -> None:
    """Riflemen of five shots each: a unit fires more shots at once than any unit of the
    patrols can by the shipped rules (a rifle squad, 5 rifles and two more weapons)."""
    rules = house(tmp_path)
    shipped, by_house = patrols(tmp_path, None), patrols(tmp_path, rules)
    assert most_shots(shipped) <= 12 < 25 <= most_shots(by_house)
    assert [e.to_json() for e in play_game(shipped, 1).events] != [
        e.to_json() for e in play_game(by_house, 1).events
    ]


def test_a_matchups_key_adds_its_rules_and_is_as_before_without_them(tmp_path: Path) -> None:
    """Stored games are found by the key: without a rules file it is what it was before
    rules files were played (so the games stored then are still reused); with one, it is
    another key, which a comment in the rules file leaves as it is and a number changes."""
    before = {  # the keys of the patrols' matchups, as the code before rules files gave them
        "random,random": "9b67b605e02247178b49",
        "tactical,random": "8c578d2afe3f23bedb08",
    }
    for players, key in before.items():
        matchup = build_matchup(
            "konflikt47",
            str(SIM_DATA / "skirmish.yaml"),
            [str(SIM_DATA / "patrol-a.yaml"), str(SIM_DATA / "patrol-b.yaml")],
            players,
        )
        assert matchup.key == key and matchup.rules is None
    # (the shipped scenarios' files changed in 0.9.0, another_turn_on: their keys with them,
    # so games stored of a six-turn game are not taken for the new one's)
    assert build_matchup(None, None, []).key == "d17950552619e1e9824f"
    assert build_matchup("bolt-action-1", None, []).key == "727681b20040fc04d5d8"
    rules = house(tmp_path)
    by_house = patrols(tmp_path, rules)
    assert by_house.key != before["random,random"]
    assert by_house.mirrored().rules == by_house.rules
    text = rules.read_text()
    rules.write_text("# my house rules\n" + text)
    assert patrols(tmp_path, rules).key == by_house.key
    rules.write_text(text.replace('shots: "5"', 'shots: "4"'))
    assert patrols(tmp_path, rules).key != by_house.key


def test_evaluate_by_house_rules_stores_its_games_apart_and_reuses_only_those(
    tmp_path: Path,
) -> None:
    """The shipped rules' games of a matchup are not read back as its house-rules games,
    nor the other way round; each is reused by its own run; results lists the rules file."""
    house(tmp_path)
    args = ["evaluate", "--scenario", "skirmish.yaml", "--army", "patrol-a.yaml", "--army",
            "patrol-b.yaml", "--players", "random,random", "--games", "4", "--workers", "1",
            "--results", "r.sqlite", "--json"]  # fmt: skip
    runs = []
    for extra in ([], ["--rules-file", "house.yaml"], [], ["--rules-file", "house.yaml"]):
        done = run_cli(*args, *extra, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout))
    shipped, by_house, shipped_again, house_again = runs
    assert (shipped["games_played"], by_house["games_played"]) == (4, 4)
    assert by_house["games_reused"] == 0 and by_house["matchup"] != shipped["matchup"]
    assert (shipped_again["games_reused"], house_again["games_reused"]) == (4, 4)
    assert (shipped["rules_file"], by_house["rules_file"]) == (None, "house.yaml")
    # (two versions of one file told apart in the report, as results lists them)
    assert shipped["rules_digest"] is None and len(by_house["rules_digest"]) == 8
    assert house_again["army_a_wins"] == by_house["army_a_wins"]
    listed = run_cli("results", "--results", "r.sqlite", cwd=tmp_path)
    said = " ".join(listed.stdout.replace("│", " ").split())  # (the table wraps its lines)
    assert "konflikt47 with rules file house.yaml (" in said
    assert f"id {by_house['matchup'][:8]}" in said and f"id {shipped['matchup'][:8]}" in said
    with closing(sqlite3.connect(tmp_path / "r.sqlite")) as db:  # (the layout of before)
        columns = [row[1] for row in db.execute("PRAGMA table_info(matchups)")]
    assert "rules_file" not in columns and len(columns) == 10
    text = run_cli(*args[:-1], "--rules-file", "house.yaml", cwd=tmp_path).stdout
    told_rules = f"konflikt47 with rules file house.yaml ({by_house['rules_digest']})"
    assert told_rules in " ".join(text.split()) and told_rules in said
    # an export gives the edition and the rules file in columns of their own, so that its
    # ruleset column filters by edition (it held "konflikt47 with rules file ...")
    done = run_cli("results", "--results", "r.sqlite", "--export", "json", cwd=tmp_path)
    exported = json.loads(done.stdout)
    assert {game["ruleset"] for game in exported} == {"konflikt47"}
    told = {game["rules_file"] for game in exported}
    assert len(told) == 2 and None in told
    (house_file,) = told - {None}
    assert house_file == f"house.yaml ({by_house['rules_digest']})"
    done = run_cli("results", "--results", "r.sqlite", "--export", "csv", cwd=tmp_path)
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert len(rows) == 8 and {row["ruleset"] for row in rows} == {"konflikt47"}
    assert sorted({row["rules_file"] for row in rows}) == ["", house_file]


def test_a_surprising_games_command_replays_the_game_by_the_rules_file(tmp_path: Path) -> None:
    """The ready-to-run command of a surprising game gives --rules-file: run as printed,
    it plays that game again, by the house rules, to the score the evaluation stored."""
    house(tmp_path)
    # (6 games: the first 4 have had no surprising game since blocked moves were cut short)
    done = run_cli("evaluate", "--scenario", "skirmish.yaml", "--army", "patrol-a.yaml",
                   "--army", "patrol-b.yaml", "--players", "random,random", "--games", "6",
                   "--workers", "1", "--no-store", "--json", "--rules-file", "house.yaml",
                   cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    games = json.loads(done.stdout)["surprising"]["games"]
    assert games
    for number, game in enumerate(games):
        command = shlex.split(game["command"])
        assert command[:2] == ["kriegsspiel", "play"]
        assert command[command.index("--rules-file") + 1] == "house.yaml"
        record = f"game{number}.jsonl"
        played = run_cli(*command[1:], "--quiet", "--record", record, cwd=tmp_path)
        assert played.returncode == 0, played.stderr
        a, b = game["score_a"], game["score_b"]
        score = f"score {b} - {a}" if game["swapped"] else f"score {a} - {b}"
        said = " ".join(played.stdout.split())  # (as one line, wherever the console wraps)
        result = said[said.index("Result:") :]
        assert result.split(";")[1].strip().startswith(score), said
        assert "(rules file house.yaml)" in said
        replayed = run_cli("replay", record, cwd=tmp_path)
        assert replayed.returncode == 0 and "reproduced" in replayed.stdout


def test_a_record_of_a_house_rules_game_holds_them_and_replays(tmp_path: Path) -> None:
    """The record holds the rules file's name and text, as it holds the scenario and lists:
    it replays byte for byte with the rules file gone; changed in the record, the rules
    play another game, and the replay says the rules data differ."""
    rules = house(tmp_path)
    played = run_cli("play", "--scenario", "skirmish.yaml", "--army", "heavy.yaml", "--army",
                     "patrol-b.yaml", "--rules-file", "house.yaml", "--record", "g.jsonl",
                     "--quiet", cwd=tmp_path)  # fmt: skip
    assert played.returncode == 0, played.stderr
    record = tmp_path / "g.jsonl"
    head = json.loads(record.read_text().splitlines()[0])
    assert head["rules_file"] == "house.yaml" and head["rules"] == rules.read_text()
    rules.unlink()
    replayed = run_cli("replay", "g.jsonl", cwd=tmp_path)
    assert replayed.returncode == 0 and "reproduced" in replayed.stdout, replayed.stdout
    lines = record.read_text().splitlines()
    head["rules"] = head["rules"].replace(HEAVY, HEAVY.replace('shots: "3"', 'shots: "1"'))
    lines[0] = json.dumps(head, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    record.write_text("\n".join(lines) + "\n")
    changed = run_cli("replay", "g.jsonl", cwd=tmp_path)
    assert changed.returncode == 1, changed.stdout
    assert "other rules data than the rules file the record holds" in changed.stdout
    del head["rules"]  # a rules file's name without its text: a bad record, told at its field
    lines[0] = json.dumps(head, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    record.write_text("\n".join(lines) + "\n")
    broken = run_cli("replay", "g.jsonl", cwd=tmp_path)
    assert broken.returncode == 2 and "rules_file needs rules" in broken.stderr, broken.stderr


def test_a_games_header_holds_the_rules_file_it_was_played_by_however_given(
    tmp_path: Path,
) -> None:
    """From Python, a game given its rules file by path records the file's text as a game
    given the text does; a game by the shipped rules records no rules file at all."""
    from kriegsspiel.rulesets.bolt_action.game.record import header
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
    from kriegsspiel.sim.matchup import parsed

    rules = house(tmp_path)
    matchup = patrols(tmp_path, rules)
    scenario, army_a, army_b = parsed(matchup)
    texts = (matchup.armies[0].text, matchup.armies[1].text)
    by_path = BoltActionGame("konflikt47", scenario, (army_a, army_b), rules_file=str(rules))
    head = header(by_path, matchup.scenario.text, texts, matchup.players)
    assert (head["rules_file"], head["rules"]) == (str(rules), rules.read_text())
    shipped = BoltActionGame("konflikt47", scenario, (army_a, army_b))
    plain = header(shipped, matchup.scenario.text, texts, matchup.players)
    assert "rules" not in plain and "rules_file" not in plain
    assert plain["rules_data_sha256"] != head["rules_data_sha256"]


def test_workers_and_dask_play_by_the_rules_file(tmp_path: Path) -> None:
    """A task carries the rules file's text: one worker or two, a fresh interpreter after
    the file is gone, or a Dask cluster, every game is played by the house rules alike."""
    rules = house(tmp_path)
    matchup = patrols(tmp_path, rules)
    one = evaluate(matchup, 8, 5, workers=1)
    two = evaluate(matchup, 8, 5, workers=2, batch=1)
    shipped = evaluate(patrols(tmp_path, None), 8, 5, workers=1)
    assert one.tally.to_json() == two.tally.to_json() != shipped.tally.to_json()
    sent = pickle.dumps(matchup)
    jobs = ((0, 5), (1, 6))
    here = play_batch(matchup, jobs)
    shutil.rmtree(tmp_path)
    assert in_a_fresh_process(play_batch, pickle.loads(sent), jobs) == here
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        remote = evaluate(matchup, 8, 5, scheduler=cluster.scheduler_address)
    assert remote.tally.to_json() == one.tally.to_json()


def test_a_sweep_file_plays_by_its_rules_file(tmp_path: Path) -> None:
    """A sweep file's rules_file (beside the sweep file, as its lists are) checks its lists
    and variants and plays every cell by it; one that is not there is told at its line."""
    folder = tmp_path / "sweeps"
    folder.mkdir()
    house(folder)
    text = (SIM_DATA / "sweep.yaml").read_text()
    assert "weapons: [Rifle]}" in text and "ruleset: konflikt47\n" in text
    text = text.replace("weapons: [Rifle]}", "weapons: [Heavy rifle]}")  # (a variant's)
    (folder / "plain.yaml").write_text(text)
    (folder / "sweep.yaml").write_text(
        text.replace("ruleset: konflikt47\n", "ruleset: konflikt47\nrules_file: house.yaml\n")
    )
    refused = run_cli("sweep", "sweeps/plain.yaml", "--no-store", cwd=tmp_path)
    assert refused.returncode == 2 and "Unknown weapon 'Heavy rifle'" in refused.stderr
    done = run_cli("sweep", "sweeps/sweep.yaml", "--workers", "1", "--results", "r.sqlite",
                   "--json", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["rules_file"] == "sweeps/house.yaml" and data["games_played"] == 8
    digest = data["rules_digest"]  # (which version of the file, as evaluate and odds say)
    assert (
        len(digest) == 8 and digest == Source("", (folder / "house.yaml").read_text()).short_digest
    )
    # the cell of patrol A against patrol B is evaluate's, by the same rules file
    evaluated = run_cli("evaluate", "--scenario", "sweeps/skirmish.yaml", "--army",
                        "sweeps/patrol-a.yaml", "--army", "sweeps/patrol-b.yaml", "--players",
                        "random,random", "--games", "4", "--seed", "3", "--workers", "1",
                        "--results", "r.sqlite", "--rules-file", "sweeps/house.yaml", "--json",
                        cwd=tmp_path)  # fmt: skip
    assert json.loads(evaluated.stdout)["games_reused"] == 4, evaluated.stderr
    text_out = run_cli("sweep", "sweeps/sweep.yaml", "--results", "r.sqlite", "--plot", "h.svg",
                       cwd=tmp_path)  # fmt: skip
    said = f"played by the rules file sweeps/house.yaml ({digest})."
    assert said in " ".join(text_out.stdout.split())
    # the heat map names the rules too, as evaluate's picture does (matplotlib writes each
    # text beside its glyphs as a comment)
    assert (
        f"konflikt47, rules file sweeps/house.yaml ({digest})" in (tmp_path / "h.svg").read_text()
    )
    (folder / "gone.yaml").write_text(
        text.replace("ruleset: konflikt47\n", "ruleset: konflikt47\nrules_file: nothere.yaml\n")
    )
    gone = run_cli("sweep", "sweeps/gone.yaml", "--no-store", cwd=tmp_path)
    assert gone.returncode == 2, gone.stderr
    assert (
        "sweeps/gone.yaml: line 4, field rules_file: the rules file 'nothere.yaml' cannot be read"
        in gone.stderr
    )
    assert "looked for in the sweep file's folder (sweeps)" in gone.stderr
    # a folder beside the sweep file is told as one (it was "No such file or directory",
    # looked for in the current folder), as a list's or a scenario's is; a blank name so
    (tmp_path / "d").mkdir()
    for given, said in [
        ("../d", "field rules_file: the rules file '../d' is a folder; give a file in it"),
        ('"  "', "field rules_file: '  ' is blank: give the rules file's name"),
        # another ruleset's data, told as such at the sweep file's line (it was "does not
        # look like a rules data file", naming the rules file alone)
        ("hc.yaml", "sweeps/odd.yaml: line 4, field rules_file: this file (sweeps/hc.yaml) "
         "is the rules data of house-clearing (House Clearing), as its field ruleset says "
         "(sweeps/hc.yaml:5), not of konflikt47; games are played by konflikt47 and "
         "bolt-action-1: give a copy of konflikt47's data (kriegsspiel rules --ruleset "
         "konflikt47 --copy FILE)"),
    ]:  # fmt: skip
        (folder / "hc.yaml").write_text(shipped_data("house-clearing").read_text())
        (folder / "odd.yaml").write_text(
            text.replace("ruleset: konflikt47\n", f"ruleset: konflikt47\nrules_file: {given}\n")
        )
        odd = run_cli("sweep", "sweeps/odd.yaml", "--no-store", cwd=tmp_path)
        assert odd.returncode == 2 and said in odd.stderr, odd.stderr
        assert "No such file" not in odd.stderr and "--rules-file" not in odd.stderr


def test_a_sweep_by_house_rules_checks_its_scenario_with_its_own_lists(tmp_path: Path) -> None:
    """A rules file without a weapon the shipped sample lists carry (the Bazooka) is no
    matter to a sweep whose lists do not carry it: its scenario is read and checked alone,
    and the lists it plays are checked against it cell by cell. So is a scenario too small
    for the samples. (Before, each scenario was tried with the sample lists, and the sweep
    was refused for the US sample's Bazooka, or for the samples' want of room.)"""
    from kriegsspiel.sim.sweep import load_sweep

    bazooka = (
        '    - {name: Bazooka, category: heavy weapons, range: 24, shots: "1", pen: 5, '
        "special: [Team, Shaped Charge]}\n"
    )
    text = (DATA_DIR / "konflikt47.yaml").read_text()
    assert text.count(bazooka) == 1
    (tmp_path / "no-bazooka.yaml").write_text(text.replace(bazooka, ""))
    for file in (*FILES, "sweep.yaml"):
        shutil.copy(SIM_DATA / file, tmp_path / file)
    sweep_text = (tmp_path / "sweep.yaml").read_text()
    (tmp_path / "sweep.yaml").write_text(
        sweep_text.replace(
            "ruleset: konflikt47\n", "ruleset: konflikt47\nrules_file: no-bazooka.yaml\n"
        )
    )
    sweep = load_sweep(str(tmp_path / "sweep.yaml"))
    cells = [matchup for grid in sweep.grids for line in grid for matchup in line]
    assert cells and all(
        m.rules is not None and m.rules.label.endswith("no-bazooka.yaml") for m in cells
    )
    assert {m.scenario.label for m in cells} == {str(tmp_path / "skirmish.yaml")}
    # the sample lists, which carry it, are refused by the same rules file
    with pytest.raises(DataFileError, match="Unknown weapon 'Bazooka'"):
        build_matchup("konflikt47", None, [], rules_file=str(tmp_path / "no-bazooka.yaml"))
    # so with a scenario: zones 8" by 3" hold the patrols, not the 1,000-point samples
    scenario = (tmp_path / "skirmish.yaml").read_text()
    zones = ("[[0, 0], [36, 0], [36, 6], [0, 6]]", "[[0, 18], [36, 18], [36, 24], [0, 24]]")
    small = ("[[0, 0], [8, 0], [8, 3], [0, 3]]", "[[0, 21], [8, 21], [8, 24], [0, 24]]")
    for zone, smaller in zip(zones, small, strict=True):
        assert scenario.count(zone) == 1
        scenario = scenario.replace(zone, smaller)
    (tmp_path / "small.yaml").write_text(scenario)
    (tmp_path / "sweep.yaml").write_text(sweep_text.replace("skirmish.yaml", "small.yaml"))
    (cell,) = {m.scenario.label for g in load_sweep(str(tmp_path / "sweep.yaml")).grids for
               line in g for m in line}  # fmt: skip
    assert cell == str(tmp_path / "small.yaml")
    with pytest.raises(DataFileError, match="has no room for"):
        build_matchup("konflikt47", str(tmp_path / "small.yaml"), [])  # (the samples)


@pytest.mark.parametrize(
    "command",
    [
        ["army", "patrol-a.yaml"],
        ["play", "--scenario", "skirmish.yaml", "--quiet"],
        ["evaluate", "--scenario", "skirmish.yaml", "--games", "2", "--no-store"],
        ["scenario", "skirmish.yaml", "--svg", "t.svg"],
    ],
    ids=["army", "play", "evaluate", "scenario"],
)
def test_a_rules_file_missing_broken_or_of_the_other_edition_is_refused(
    tmp_path: Path, command: list[str]
) -> None:
    """As odds tells them: a file not there, a broken one at its line and field, one of the
    other edition's data, each in a paragraph, with exit status 2, and no game played."""
    rules = house(tmp_path)
    if command[0] != "army":
        command += ["--army", "patrol-a.yaml", "--army", "patrol-b.yaml"]
    rows = rules.read_text().splitlines()
    line = next(n for n, row in enumerate(rows, 1) if row.strip() == f"- {HOUSE_RIFLE}")
    (tmp_path / "broken.yaml").write_text(
        rules.read_text().replace(HOUSE_RIFLE, HOUSE_RIFLE.replace('"5"', '"x5"'))
    )
    shutil.copy(DATA_DIR / "bolt_action_1.yaml", tmp_path / "ba1.yaml")
    for given, said in (
        ("nothere.yaml", "nothere.yaml: cannot be read (No such file or directory)"),
        ("broken.yaml", f"broken.yaml: line {line}, field weapons.rows.0.shots: 'x5' is not"),
        ("ba1.yaml", "--rules-file ba1.yaml: this file is the rules data of bolt-action-1 "
                     "(Bolt Action 1st edition), as its field ruleset says (ba1.yaml:7), not "
                     "of konflikt47,"),
        ("patrol-b.yaml", "patrol-b.yaml: this does not look like a rules data file"),
    ):  # fmt: skip
        done = run_cli(*command, "--rules-file", given, cwd=tmp_path)
        assert done.returncode == 2, (given, done.stderr)
        assert said in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert not list(tmp_path.glob("*.jsonl")) and not (tmp_path / "t.svg").exists()


def test_a_scenario_is_drawn_with_lists_of_the_rules_file_and_checked_by_its_terrain(
    tmp_path: Path,
) -> None:
    """scenario --svg deploys lists checked against the rules file; a terrain category the
    rules file adds (a house rule of terrain) is one the scenario may use."""
    rules = house(tmp_path)
    args = ["scenario", "skirmish.yaml", "--svg", "t.svg", "--army", "heavy.yaml", "--army",
            "patrol-b.yaml"]  # fmt: skip
    assert run_cli(*args, cwd=tmp_path).returncode == 2
    drawn = run_cli(*args, "--rules-file", "house.yaml", cwd=tmp_path)
    assert drawn.returncode == 0, drawn.stderr
    assert (tmp_path / "t.svg").read_text().startswith("<")
    text = rules.read_text()
    rough = "    - {category: rough ground,"
    row = next(r for r in text.splitlines() if r.startswith(rough))
    rules.write_text(text.replace(row, row + "\n" + row.replace("rough ground", "marsh")))
    scenario = (tmp_path / "skirmish.yaml").read_text()
    (tmp_path / "marsh.yaml").write_text(scenario.replace("category: wood", "category: marsh"))
    refused = run_cli("scenario", "marsh.yaml", cwd=tmp_path)
    assert refused.returncode == 2 and "no category 'marsh'" in refused.stderr
    checked = run_cli("scenario", "marsh.yaml", "--rules-file", "house.yaml", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    matchup = build_matchup(
        None, str(tmp_path / "marsh.yaml"), [], "random,random", rules_file=str(rules)
    )
    assert play_game(matchup, 1).is_terminal()


def test_a_matchup_given_rules_of_the_other_edition_is_refused() -> None:
    """From Python as from the command line: the words say whose edition is whose."""
    rules = Source("ba1.yaml", (DATA_DIR / "bolt_action_1.yaml").read_text())
    with pytest.raises(UsageError, match=r"rules data of bolt-action-1 .* not of konflikt47"):
        build_matchup("konflikt47", None, [], rules_file=rules)
    assert build_matchup(None, None, [], rules_file=rules).ruleset == "bolt-action-1"
