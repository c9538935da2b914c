"""The command line as a player uses it: JSON keys, readable tables, and clear errors."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import typer
from conftest import run_cli
from typer.testing import CliRunner

from kriegsspiel.cli import app

runner = CliRunner()


def run_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)  # type: ignore[no-any-return]


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, cwd=cwd, timeout=60)


def _is_distribution(value: object) -> bool:
    assert isinstance(value, dict)
    dist = value["distribution"]
    return abs(sum(dist) - 1) < 1e-9 and isinstance(value["mean"], float)


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_shoot_json_soft_target(ruleset: str) -> None:
    out = run_json(
        "shoot",
        "--ruleset",
        ruleset,
        "--weapon",
        "rifle:9",
        "--weapon",
        "LMG",
        "--target",
        "Regular Infantry",
        "--range",
        "18",
        "--cover",
        "soft",
    )
    by_weapon = out["p_hit_by_weapon"]
    assert isinstance(by_weapon, dict) and by_weapon["Rifle"] == pytest.approx(1 / 3)
    from kriegsspiel.rulesets.bolt_action import rules_for

    lmg = rules_for(ruleset).weapon("LMG")
    missed = (2 / 3) ** 9 * (1 - by_weapon[lmg.name]) ** int(lmg.shots)
    assert out["p_hit"] == pytest.approx(1 - missed)  # at least one hit of all 9 + LMG
    for key in ("hits", "casualties", "pins"):
        assert _is_distribution(out[key])
    assert out["casualties"]["mean"] == pytest.approx(2.0)  # type: ignore[index]


def test_shoot_json_armoured_target() -> None:
    out = run_json(
        "shoot",
        "--ruleset",
        "bolt-action-1",
        "--weapon",
        "medium AT gun",
        "--target",
        "medium tank",
        "--range",
        "20",
        "--facing",
        "side",
    )
    assert out["p_hit"] == pytest.approx(2 / 3)
    assert 0 < out["p_knocked_out"] < 1  # type: ignore[operator]
    assert set(out["damage_results"]) == {  # type: ignore[arg-type]
        "crew stunned",
        "immobilised",
        "on fire",
        "on fire and knocked out",
        "knocked out",
    }
    assert _is_distribution(out["hits"])


@pytest.mark.parametrize(
    "question",
    [
        ["shoot", "-w", "medium AT gun", "-t", "medium tank", "--range", "20", "--facing", "side"],
        ["vehicle-assault", "--models", "6", "--target", "light tank", "--anti-tank"],
    ],
)
def test_a_vehicle_immobilised_before_is_knocked_out_more_often(question: list[str]) -> None:
    """--target-immobilised: a further Immobilised result knocks the vehicle out, so this
    attack knocks it out when it would have knocked out or immobilised a fresh one (the
    exact identity is checked in test_bolt_action_rules; a fresh one may be both)."""
    fresh = run_json(*question)
    hurt = run_json(*question, "--target-immobilised")
    assert hurt["p_immobilised"] == 0 < fresh["p_immobilised"]  # type: ignore[operator]
    more = hurt["p_knocked_out"] - fresh["p_knocked_out"]  # type: ignore[operator]
    assert 0 < more <= fresh["p_immobilised"]
    said = runner.invoke(app, ["odds", *question, "--target-immobilised"]).output
    assert "already immobilised" in said


def test_order_test_json() -> None:
    out = run_json("order-test", "--quality", "regular", "--pins", "2")
    assert out["p_pass"] == pytest.approx(21 / 36)
    assert out["p_fubar"] == pytest.approx(1 / 36)


def test_morale_assault_and_vehicle_assault_json() -> None:
    assert run_json("morale", "--quality", "veteran", "--pins", "6")["p_pass"] == pytest.approx(
        6 / 36
    )
    out = run_json("assault", "-r", "bolt-action-1", "--attackers", "1", "--defenders", "1")
    assert out["p_attacker_wins"] == pytest.approx(2 / 3)
    out = run_json("vehicle-assault", "--models", "6", "--target", "light tank", "--anti-tank")
    assert 0 < out["p_knocked_out"] < 1  # type: ignore[operator]


def test_a_vehicle_assaults_chances_say_which_count_the_order_test() -> None:
    """Its rows mix chances once the test is passed with chances of the whole assault."""
    done = cli("odds", "vehicle-assault", "-r", "bolt-action-1", "--models", "8")
    said = " ".join(done.stdout.split())
    assert done.returncode == 0, done.stderr
    assert "'if assaulting': once the order test is passed; every other row is of the" in said
    shot = " ".join(cli("odds", "shoot", "--weapon", "rifle:10", "--range", "20").stdout.split())
    assert "if assaulting" not in shot  # (said only where the rows mix)


def test_iron_cross_commands() -> None:
    out = run_json("activation", "--morale-markers", "1", "--command-tokens", "1")
    assert out["p_success"] == pytest.approx(4 / 6)
    assert run_json("smoke")["p_success"] == pytest.approx(0.6)
    out = run_json("shoot", "-r", "iron-cross", "--target", "infantry", "--range", "20")
    assert out["p_hit"] == pytest.approx(0.6)


def test_house_clearing_shoot_json() -> None:
    out = run_json(
        "shoot",
        "-r",
        "house-clearing",
        "--weapon",
        "rifle",
        "--range",
        "13",
        "--weapon-skill",
        "120",
        "--visible",
        "5",
    )
    assert out["p_hit"] == pytest.approx(0.3 * 5 / 6)


def test_table_output_shows_the_reasoning() -> None:
    result = runner.invoke(
        app, ["odds", "shoot", "--weapon", "rifle", "--range", "20", "--cover", "soft"]
    )
    assert result.exit_code == 0
    assert (
        "base 3+" in result.output
        and "long range" in result.output
        and "soft cover" in result.output
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["odds", "shoot", "--weapon", "panzerfausts"], "(did you mean 'Panzerfaust'?)."),
        (  # refused as an army list refuses it on a vehicle (docs/rules, "Who carries what")
            ["odds", "shoot", "-w", "flamethrower (infantry)", "--firer-vehicle", "--range", "5"],
            "not mounted on a vehicle; a vehicle mounts 'Light flamethrower (vehicle)' or "
            "'Flamethrower (vehicle)'.",
        ),
        (["odds", "shoot", "--weapon", "rifle", "--range", "30"], 'reaches 24"'),
        (["odds", "shoot", "--target", "medium tnak", "--weapon", "bazooka"], "medium tank"),
        (["odds", "order-test", "--pins", "-2"], "cannot be negative"),
        (["odds", "shoot", "--weapon", "rifle:5000"], "exact odds are worked out for at most"),
        (["odds", "assault", "--attackers", "50"], "at most 20 models a side"),
        (
            ["odds", "shoot", "-r", "iron-cross", "--range", "20", "--dice", "100000"],
            "at most 200 firing dice",
        ),
        (["odds", "shoot", "-r", "house-clearing", "--target", "x"], "--target does not apply"),
        (["odds", "activation", "-r", "iron-cross", "--morale-markers", "-1"], "--morale-markers"),
        (["play", "--seed", "-1"], "Invalid value for '--seed'"),
        (["odds", "shoot", "--weapon", "rifle", "--visible", "3"], "--visible does not apply"),
        (  # a forgotten -r is named, where the options are all one ruleset's (probe tableodds)
            [
                "odds",
                "shoot",
                "-w",
                "rifle",
                "--range",
                "7",
                "--weapon-skill",
                "110",
                "--visible",
                "3",
            ],
            "--weapon-skill, --visible do not apply to konflikt47; they are for house-clearing "
            "(-r house-clearing).",
        ),
        (["odds", "order-test", "-r", "iron-cross"], "odds activation"),
        (  # (House Clearing is not sent to Iron Cross's activation: probe tableodds)
            ["odds", "order-test", "-r", "house-clearing"],
            "for house-clearing it is not covered by this program.",
        ),
        (  # Bolt Action's reactions are asked with the odds they change
            ["odds", "reaction", "-r", "bolt-action-1"],
            "in bolt-action-1 a unit shot at reacts by going Down, taken without a test: "
            "'odds shoot --target-down' gives the shot's odds if it does.",
        ),
        (["odds", "reaction", "-r", "konflikt47"], "'odds assault --defender-mode stand-and-fire'"),
        (["odds", "shoot", "-r", "house-clearing", "--weapon", "rifle"], "--weapon-skill"),
        (
            [
                "odds",
                "shoot",
                "-r",
                "house-clearing",
                "-w",
                "smg",
                "--weapon-skill",
                "100",
                "--visible",
                "3",
            ],
            "needs --range N",
        ),
        (["odds", "shoot", "--weapon", "rifle", "--cover", "fortifications"], "none, soft or hard"),
        (["odds", "shoot", "--weapon", "rifle", "--target", ""], "--target needs a name"),
        (["odds", "shoot", "-w", "rifle", "--range", "nan"], "a distance of 0 or more inches"),
        (
            [
                "odds",
                "shoot",
                "-r",
                "bolt-action-1",
                "-w",
                "bazooka",
                "-t",
                "medium tank",
                "--automaton",
            ],
            "--automaton is a Konflikt '47 rule",
        ),
        (["odds", "vehicle-assault", "-r", "bolt-action-1", "--automaton"], "no automata"),
        (
            ["odds", "vehicle-assault", "--target-immobilised", "--vehicle-order", "ran"],
            "give --vehicle-order stationary",
        ),
        (["odds", "shoot", "-w", "rifle", "--target-quality", "veteran"], "a vehicle crew's"),
        (
            ["odds", "shoot", "-w", "bazooka", "-t", "medium tank", "--target-models", "3"],
            "a vehicle has none",
        ),
        (["odds", "assault", "--attacker-quality", "elite"], "--attacker-quality 'elite'"),
        (["odds", "assault", "--defender-officer", "general"], "--defender-officer 'general'"),
        (["odds", "morale", "--quality", "elite"], "--quality 'elite': Unknown quality"),
        (["odds", "shoot", "-w", "rifle", "--pins", "20"], "give --pins 9 or fewer"),
        (["odds", "shoot", "-w", "rifle", "--pins", "8", "--inexperienced"], "--pins 7 or fewer"),
        (
            ["odds", "shoot", "-w", "rifle", "--target-immobilised"],
            "--target-immobilised describes a vehicle;",
        ),
        (
            ["odds", "shoot", "-w", "bazooka", "-t", "medium tank", "--small-unit"],
            "no vehicle counts as small",
        ),
        (
            ["odds", "shoot", "-w", "rifle:5", "--small-unit", "--target-models", "10"],
            "--small-unit with --target-models 10: a small unit is one of 2 models or fewer",
        ),
        (
            ["odds", "shoot", "-w", "rifle", "--cover", "soft", "--cover", "hard"],
            "--cover is given more than once; it takes one value",
        ),
        (
            ["odds", "assault", "--attackers", "5", "--attackers=6"],
            "--attackers is given more than once",
        ),
        (["odds", "morale", "-r", "konflikt47", "--ruleset", "bolt-action-1"], "--ruleset or -r"),
        (["odds", "vehicle-assault", "--vehicle-order", "ran"], "cannot assault a vehicle"),
        (  # echoed as typed (it said "--vehicle-order ran")
            ["odds", "vehicle-assault", "--vehicle-order", "run"],
            "--vehicle-order run: infantry cannot assault a vehicle that ran this turn",
        ),
        (["odds", "terrain-test", "--unit", "transport"], "--unit 'transport': Unknown unit"),
        (["odds", "terrain-test", "--terrain", "swamp"], "--terrain 'swamp': Unknown terrain"),
        (
            ["odds", "shoot", "-r", "iron-cross", "--range", "5", "-t", "tank destroyer"],
            "--target 'tank destroyer'",
        ),
        (
            ["odds", "shoot", "-r", "iron-cross", "--range", "20", "--cover", "hedge"],
            "--cover 'hedge'",
        ),
        (["odds", "shoot", "-r", "iron-cross", "--target-initiative", "0"], "does not apply"),
        (["odds", "shoot", "-w", "rifle", "--dice", "0"], "--dice does not apply to konflikt47"),
        (["odds", "activation", "--command-tokens", "0"], "or --first"),
        (
            ["odds", "shoot", "-r", "house-clearing", "-w", "rifle:2"],
            "one --weapon NAME, without a count",
        ),
        (
            [
                "odds",
                "shoot",
                "-r",
                "house-clearing",
                "-w",
                "sten",
                "--weapon-skill",
                "100",
                "--visible",
                "3",
                "--range",
                "2",
            ],
            "--weapon 'sten': Unknown weapon",
        ),
        (["odds", "order-test", "--quality", ""], "Known qualities:"),
        (["odds", "assault", "--attackers", "-1"], "give 1 or more"),
        (
            ["odds", "shoot", "-r", "iron-cross", "--range", "20", "--enemy-infantry-near"],
            "add --firer-vehicle",
        ),
        (
            ["odds", "shoot", "-r", "iron-cross", "--range", "20", "--target", "vehicle"],
            "--penetration N",
        ),
        (
            ["odds", "shoot", "-r", "iron-cross", "--target", "infantry"],
            "Iron Cross shooting needs --range N, the inches from the firer to its target: "
            'up to 12" gives +1 to hit and two D10s at infantry, so no range is assumed.',
        ),
        (["odds", "order-test", "--pins", "9"], "is removed from play and takes no test"),
        (
            [
                "odds",
                "shoot",
                "-r",
                "house-clearing",
                "-w",
                "rifle",
                "--weapon-skill",
                "100000",
                "--visible",
                "5",
                "--range",
                "3",
            ],
            "a multiple of 10 from 30 to 240",
        ),
    ],
)
def test_bad_input_is_one_paragraph_and_exit_2(args: list[str], message: str) -> None:
    result = cli(*args)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_unknown_ruleset_is_a_usage_error() -> None:
    result = cli("odds", "shoot", "--ruleset", "warhammer")
    assert result.returncode == 2
    assert "konflikt47" in result.stderr and "Traceback" not in result.stderr


def test_malformed_rules_file_is_refused_with_its_line(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "bad.yaml"
    path.write_text("ruleset: konflikt47\ntitle: [unclosed\n")
    result = cli("odds", "order-test", "--pins", "1", "--rules-file", str(path))
    assert result.returncode == 2
    assert "bad.yaml" in result.stderr and "line" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_rules_file_of_another_ruleset_is_refused() -> None:
    """Bolt Action's data file asked under Konflikt '47 would give Bolt Action's numbers
    labelled Konflikt '47; without --ruleset, the file's own edition is asked under."""
    from kriegsspiel.rulesets.bolt_action.data import DATA_DIR

    ba1 = str(DATA_DIR / "bolt_action_1.yaml")
    args = ("odds", "shoot", "--weapon", "panzerfaust", "--target", "medium tank")
    result = cli(*args, "--rules-file", ba1, "--ruleset", "konflikt47")
    assert result.returncode == 2
    assert "--ruleset bolt-action-1" in result.stderr and "Traceback" not in result.stderr
    assert cli(*args, "--rules-file", ba1, "--ruleset", "bolt-action-1").returncode == 0
    own = cli(*args, "--rules-file", ba1, "--json")
    assert own.returncode == 0 and json.loads(own.stdout)["ruleset"] == "bolt-action-1"


def test_play_writes_a_record_that_replays(tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    record, svg = folder / "game.jsonl", folder / "table.svg"
    result = cli("play", "--seed", "11", "--record", str(record), "--svg", str(svg))
    assert result.returncode == 0, result.stderr
    assert "Turn 1" in result.stdout and "Game over after turn" in result.stdout
    assert record.exists() and svg.read_text().startswith("<?xml")
    again = cli("replay", str(record))
    assert again.returncode == 0 and "reproduced" in again.stdout
    kept = record.read_text()
    lines = kept.splitlines()
    head = json.loads(lines[0])
    record.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")  # the header re-spaced
    respaced = cli("replay", str(record))
    assert respaced.returncode == 1 and "first difference at line 1" in respaced.stdout
    assert len(respaced.stdout) < 1000 and "characters)" in respaced.stdout  # lists cut short
    record.write_text(kept)
    lines = record.read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if '"casualties":' in line)
    lines[i] = re.sub(
        r'"casualties":1?(\d+)', lambda m: f'"casualties":{int(m.group(1)) + 1}', lines[i]
    )
    record.write_text("\n".join(lines) + "\n")
    tampered = cli("replay", str(record))
    assert tampered.returncode == 1 and f"line {i + 1}" in tampered.stdout
    record.write_text("\n".join(lines[:3]) + "\n")
    cut = cli("replay", str(record))
    assert cut.returncode == 0 and "reproduced (2 events identical)" in cut.stdout
    assert "the record stops before the game's end" in cut.stdout


def test_the_first_game_says_how_it_is_won_who_won_and_what_to_try_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``kriegsspiel play`` as a new user first runs it: the opening gives the turns and
    what wins, the end names the winning side's army once and what the score counts, and
    a last line suggests what to try next (not under --quiet, nor --svg once it is given)."""
    monkeypatch.setenv("COLUMNS", "200")  # (each line whole, wherever a console would wrap)
    # (seed 2, the first seed whose game has a winner since seed 1's, the default, is drawn)
    played = cli("play", "--seed", "2", cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    lines = played.stdout.splitlines()
    assert lines[2] == (
        "6 turns, a seventh on a D6 roll of 4+; the side with more enemy units destroyed wins "
        "(a side wiped out loses)."
    )
    record = "kriegsspiel-konflikt47-meeting-engagement-seed2.jsonl"
    assert lines[-4:] == [
        "== Game over after turn 6",
        # (side B's, 4 - 8, units left 1 v 5, before each shot's dice were rolled one by one;
        # side A's, 4 - 3, units left 6 v 5, before the AI valued a shot at a vehicle by all
        # it does)
        "Result: Side B (US Army Tesla Company) wins; score 4 - 5 (enemy units destroyed); "
        "units left 4 v 5",
        f"Record written to {record} (replay with: kriegsspiel replay {record})",
        "Next: --players human,tactical to play side A yourself, --svg table.svg to draw the "
        "final table; kriegsspiel --help for every command.",
    ]
    assert sum("Side B wins" in line or "wins;" in line for line in lines) == 1  # said once
    drawn = cli("play", "--svg", "t.svg", "--record", "t.jsonl", cwd=tmp_path).stdout
    assert drawn.splitlines()[-1] == (
        "Next: --players human,tactical to play side A yourself; kriegsspiel --help for "
        "every command."
    )
    quiet = cli("play", "--quiet", "--record", "q.jsonl", cwd=tmp_path).stdout.splitlines()
    assert quiet[-1].startswith("Record written to q.jsonl") and len(quiet) == 5


def test_play_seed_fresh_draws_a_new_game_and_tells_its_seed_to_play_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seed 1 unless given (the same command, the same game); --seed fresh, the word the
    aid's --seed help uses, draws one, and the title, the record's name and a line say it,
    so that --seed N plays that game again."""
    monkeypatch.setenv("COLUMNS", "200")
    args = ["play", "--players", "random,random", "--quiet"]
    fresh = cli(*args, "--seed", "fresh", cwd=tmp_path)
    assert fresh.returncode == 0, fresh.stderr
    title, told, *_, written = fresh.stdout.splitlines()
    seed = int(title.rsplit("seed ", 1)[1])
    assert 0 <= seed < 1_000_000
    assert told == f"(a fresh seed, {seed}: --seed {seed} plays this game again)"
    record = tmp_path / f"kriegsspiel-konflikt47-meeting-engagement-seed{seed}.jsonl"
    assert written.startswith(f"Record written to {record.name} ")
    again = cli(*args, "--seed", str(seed), "--record", "again.jsonl", cwd=tmp_path)
    result = next(line for line in fresh.stdout.splitlines() if line.startswith("Result:"))
    assert result in again.stdout.splitlines() and "fresh" not in again.stdout
    replayed = cli("replay", record.name, cwd=tmp_path)
    assert replayed.returncode == 0 and "reproduced" in replayed.stdout
    seeds = {
        int(cli(*args, "--seed", "FRESH", "--record", f"{n}.jsonl", cwd=tmp_path).stdout.split(
            "seed ", 1)[1].split()[0].rstrip(")"))
        for n in range(2)
    } | {seed}  # fmt: skip
    assert len(seeds) > 1  # (drawn anew each time: three draws of a million agree 1 in 10**12)


def test_a_game_you_play_on_a_fresh_seed_tells_it_and_resumes_by_its_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess
    import sys

    monkeypatch.setenv("COLUMNS", "200")
    done = subprocess.run(
        [sys.executable, "-m", "kriegsspiel", "play", "--players", "human,tactical", "--seed",
         "fresh"], input="quit\n", capture_output=True, text=True, cwd=tmp_path, timeout=120,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    seed = int(done.stdout.split("seed ", 1)[1].split()[0])
    assert f"(a fresh seed, {seed}: --seed {seed} plays this game again)" in done.stdout
    record = f"kriegsspiel-konflikt47-meeting-engagement-seed{seed}.jsonl"
    assert f"go on with: kriegsspiel play --resume {record}" in done.stdout


def test_quit_tells_how_to_go_on_and_how_to_start_a_new_game_and_both_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's piped game run twice: the second is refused (the first is in progress),
    so quitting says so, and each way it names works: --resume, another --record, the
    file moved aside."""
    import subprocess
    import sys

    monkeypatch.setenv("COLUMNS", "100")

    def play(*more: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "kriegsspiel", "play", *more],
            input="auto\nquit\n", capture_output=True, text=True, cwd=tmp_path, timeout=120,
            check=False,
        )  # fmt: skip

    seats = ("--players", "human,tactical", "--seed", "3")
    record = "kriegsspiel-konflikt47-meeting-engagement-seed3.jsonl"
    first = play(*seats)
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[-2:] == [
        f"go on with: kriegsspiel play --resume {record}",
        "A new game does not write over it: give the new game another --record, or move this "
        "file aside.",
    ]
    again = play(*seats)
    assert again.returncode == 2 and "has not ended" in again.stderr
    other = play(*seats, "--record", "new.jsonl")
    assert other.returncode == 0 and "move this file aside" in other.stdout
    assert (tmp_path / "new.jsonl").exists()
    (tmp_path / record).rename(tmp_path / "aside.jsonl")
    moved = play(*seats)
    assert moved.returncode == 0 and (tmp_path / record).exists(), moved.stderr
    resumed = play("--resume", "aside.jsonl")
    assert resumed.returncode == 0 and "Resuming" in resumed.stdout, resumed.stderr
    assert "--resume aside.jsonl" in resumed.stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--record", "nowhere/game.jsonl"], "there is no folder 'nowhere' to write it in"),
        (["--svg", "table.png"], "--svg writes a .svg file, not 'table.png'"),
        (["--svg", "."], "--svg '.' is a folder"),
        (["--record", "/dev/full"], "cannot write the record /dev/full: No space left on device"),
    ],
)
def test_play_names_a_file_it_cannot_write(tmp_path: Path, args: list[str], said: str) -> None:
    """Checked before the game where it can be; a write that fails anyway is one line."""
    result = cli("play", "--quiet", "--players", "random,random", *args, cwd=tmp_path)
    assert result.returncode == 2 and said in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert ("Result:" in result.stdout) == (args[1] == "/dev/full")  # played only if it could


def test_play_takes_the_players_in_any_case(tmp_path: Path) -> None:
    """As every name the odds take: 'Random,TACTICAL' is random against tactical."""
    from kriegsspiel.ai.players import parse_players
    from kriegsspiel.sim.matchup import build_matchup

    assert parse_players(" Random , TACTICAL") == ("random", "tactical")
    assert parse_players("random,bob") is None and parse_players("Random") is None
    assert build_matchup("konflikt47", None, [], "Random,TACTICAL").players == (
        "random",
        "tactical",
    )
    result = cli("play", "--quiet", "--players", "Random,TACTICAL", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "(random)" in result.stdout and "(tactical)" in result.stdout


def test_play_refuses_a_broken_army_list(tmp_path: object) -> None:
    from pathlib import Path

    bad = Path(str(tmp_path)) / "army.yaml"
    bad.write_text(
        "name: Broken\nruleset: konflikt47\nfaction: X\npoints: 10\nunits:\n"
        "  - {name: Squad, type: infantry, quality: regular, points: 10,\n"
        "     models: [{name: Rifleman, weapons: [Rilfe]}]}\n"
    )
    result = cli("play", "--army", str(bad), "--army", "us-tesla-company", "--quiet")
    assert result.returncode == 2
    assert "army.yaml" in result.stderr and "Rifle" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("command", "option", "default"),
    [
        ("evaluate", "--workers", "one per core"),
        ("sweep", "--workers", "one per core"),
        ("sweep", "--games", "the file's"),
        ("sweep", "--seed", "the file's"),
    ],
)
def test_help_shows_a_default_that_is_not_a_value(command: str, option: str, default: str) -> None:
    """A default written in brackets in a help text is eaten by rich's markup; it must show."""
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if option in line)
    assert f"default: ({default})" in line, line


def _commands(group: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """Every leaf command under ``group`` with the words that call it (typer's own click)."""
    found = []
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            found += _commands(command, (*path, name))
        else:
            found.append(((*path, name), command))
    return found


def test_help_at_80_columns_shows_every_option_name_whole() -> None:
    """A reader on an 80-column terminal must see each option's name, not ``--attacker-as…``
    (rich cuts a column short when another, such as a long list of choices, is wide)."""
    commands = _commands(typer.main.get_command(app))
    assert len(commands) >= 15
    for words, command in commands:
        result = runner.invoke(app, [*words, "--help"], env={"COLUMNS": "80"})
        assert result.exit_code == 0, (words, result.output)
        assert "…" not in result.output, (words, result.output)
        for param in command.params:
            for name in param.opts:
                if name.startswith("--"):
                    assert name in result.output, (words, name)


def test_every_odds_json_names_its_command_as_its_question() -> None:
    """JSON readers key on ``question``: the name of the odds command that asked it."""
    import json

    for args in (
        ["shoot", "--weapon", "rifle:5"],
        ["order-test", "--pins", "1"],
        ["morale"],
        ["assault"],
        ["vehicle-assault"],
        ["shoot", "-r", "iron-cross", "--range", "10"],
        ["activation", "--morale-markers", "1", "--command-tokens", "1"],
        ["reaction"],
        ["smoke"],
        ["terrain-test", "--unit", "wheeled", "--terrain", "rough"],
        [
            "shoot",
            "-r",
            "house-clearing",
            "-w",
            "rifle",
            "--range",
            "5",
            "--visible",
            "3",
            "--weapon-skill",
            "100",
        ],
        ["figure", "-r", "house-clearing"],
    ):
        done = cli("odds", *args, "--json")
        assert done.returncode == 0, (args, done.stderr)
        data = json.loads(done.stdout)
        assert data["question"] == args[0] and data["title"], args


def test_a_chance_short_of_certain_is_never_shown_as_100_per_cent() -> None:
    """The odds tables round to a tenth of a per cent, but a chance just short of 1 (or
    just above 0) keeps the places that show it is not certain (nor impossible)."""
    from fractions import Fraction

    from kriegsspiel.core.per_cent import chance_shown

    assert chance_shown(Fraction(1)) == "100.0%" and chance_shown(Fraction(0)) == "0.0%"
    assert chance_shown(Fraction(9999, 10000)) == "99.990%"
    assert chance_shown(1 - Fraction(1, 10**7)) == ">99.999%"
    assert chance_shown(Fraction(1, 3000)) == "0.033%"
    assert chance_shown(Fraction(1, 10**7)) == "<0.001%"
    assert chance_shown(Fraction(1, 2)) == "50.0%"


def test_the_odds_tables_round_half_up_from_the_exact_chance() -> None:
    """Iron Cross at 12" (2 D10s on 4+, a marker per hit and one more per hit on 4+ on a
    D6): exactly 2 markers is 133/400 = 33.25% and 4 is 49/400 = 12.25%; a half is
    rounded up from the exact fraction, not to even from a float (33.2%, 12.2%)."""
    from fractions import Fraction

    from kriegsspiel.core.per_cent import chance_shown

    assert (
        chance_shown(Fraction(133, 400)) == "33.3%" and chance_shown(Fraction(49, 400)) == "12.3%"
    )
    assert chance_shown(Fraction(1, 8)) == "12.5%" and chance_shown(Fraction(1, 3)) == "33.3%"
    assert chance_shown(Fraction(5, 10**6)) == "0.001%"  # 0.0005%: a half up at three places
    assert chance_shown(Fraction(19999, 20000)) == "99.995%"
    shown = cli("odds", "shoot", "-r", "iron-cross", "--range", "12")
    rows = {line.split("│")[1].strip(): line for line in shown.stdout.splitlines() if "│" in line}
    assert "33.3%" in rows["2"] and "12.3%" in rows["4"], shown.stdout


def test_the_odds_tables_say_what_their_rows_count() -> None:
    """A weapon's row is one shot's chance (six rifles hit more often than each one), and
    the damage results overlap (a vehicle set on fire may be knocked out as well)."""
    done = cli("odds", "shoot", "-w", "panzerschreck", "--range", "10", "--target", "medium tank")
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())
    assert "one shot's chance to hit" in out and "p hit by weapon" not in out
    assert "damage results (rows overlap)" in out
    exact = json.loads(cli("odds", "shoot", "-w", "rifle:5", "--target-pins", "8", "--json").stdout)
    assert exact["exact"]["p_removed_by_pins"] == "242/243"
    assert exact["p_removed_by_pins"] == 242 / 243
    assert exact["pins"]["exact"] == ["1/243", "242/243"]


def _main_status(monkeypatch: pytest.MonkeyPatch, *argv: str) -> object:
    """``main()``'s exit status, or what it let out (a KeyboardInterrupt let out of a test
    would stop pytest itself); Python's own Ctrl-C handler back in place after."""
    import signal

    import kriegsspiel.cli as cli_module

    monkeypatch.setattr(cli_module, "_INTERRUPTS", [])
    monkeypatch.setattr("sys.argv", ["kriegsspiel", *argv])
    handler = signal.getsignal(signal.SIGINT)
    try:
        cli_module.main()
    except SystemExit as exc:
        return exc.code
    except BaseException as exc:
        return exc
    finally:
        signal.signal(signal.SIGINT, handler)
    return 0


def _ctrl_c_swallowed(**kwargs: object) -> None:
    """A Ctrl-C as a C extension's import meets it: told, then an ImportError in its place."""
    import signal
    from contextlib import suppress

    with suppress(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)  # (through main()'s handler, as a real Ctrl-C)
    raise ImportError("numpy._core.multiarray failed to import")


def _ctrl_c_wrapped(**kwargs: object) -> None:
    """A Ctrl-C as pydantic meets it while a module is imported: inside a RuntimeError."""
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt as exc:
        raise RuntimeError("Error calling __set_name__") from exc


def _ctrl_c(**kwargs: object) -> None:  # (as app(standalone_mode=False) is called)
    raise KeyboardInterrupt


@pytest.mark.parametrize("app_run", [_ctrl_c, _ctrl_c_wrapped, _ctrl_c_swallowed, None])
def test_ctrl_c_whenever_it_comes_is_one_line_and_status_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], app_run: Any
) -> None:
    """Before a run can say where its games are (importing numpy and shapely, say): one line."""
    import kriegsspiel.cli as cli_module
    import kriegsspiel.sim.commands as commands

    if app_run is None:  # inside a command: typer makes it a silent exit 130
        monkeypatch.setattr(commands, "run_results", lambda *a: _ctrl_c())
    else:
        monkeypatch.setattr(cli_module, "app", app_run)
    assert _main_status(monkeypatch, "results") == 130
    assert capsys.readouterr().err == "kriegsspiel: interrupted.\n"


@pytest.mark.parametrize(("sent", "said"), [(None, "stopped"), (15, "stopped (SIGTERM)")])
def test_a_run_stopped_is_told_as_the_stop_it_is_not_as_an_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], sent: int | None, said: str
) -> None:
    """It said "kriegsspiel: error: interrupted. 2 of the 4 games ...": no error at all."""
    import kriegsspiel.cli as cli_module
    from kriegsspiel.sim.runner import Interrupted

    kept = "2 of the 4 games are stored in r.sqlite; run the same command again to resume."

    def stopped(**kwargs: object) -> None:
        if sent is not None:
            cli_module._INTERRUPTS.append(sent)  # (as main()'s handler notes a SIGTERM)
        raise Interrupted(kept)

    monkeypatch.setattr(cli_module, "app", stopped)
    assert _main_status(monkeypatch, "evaluate") == (143 if sent else 130)
    assert capsys.readouterr().err == f"kriegsspiel: {said}: {kept}\n"


def test_an_error_that_is_no_ctrl_c_is_not_told_as_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import kriegsspiel.cli as cli_module

    def broken(**kwargs: object) -> None:
        raise ValueError("a bug")

    monkeypatch.setattr(cli_module, "app", broken)
    assert isinstance(_main_status(monkeypatch), ValueError)
    assert "interrupted" not in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "told"),
    [
        (["evaluate", "--games", "abc"],
         "Invalid value for '--games' / '-n': 'abc' is not a whole number. "
         "See 'kriegsspiel evaluate --help'."),
        (["odds", "shoot", "--range", "far"],
         "Invalid value for '--range': 'far' is not a number. See 'kriegsspiel odds shoot --help'."),
        (["evaluate", "--gams", "3"], "No such option: --gams"),
        (["sweep"], "Missing argument 'sweep'. See 'kriegsspiel sweep --help'."),
        (["play", "--seed", "-1"], "Invalid value for '--seed': '-1' is neither a whole number "
         "0 to 9223372036854775807 nor 'fresh' (a new seed drawn)."),
        (["play", "--seed", "new"], "'new' is neither a whole number"),
    ],
)  # fmt: skip
def test_a_usage_error_the_parser_finds_is_one_line_as_every_other(
    args: list[str], told: str
) -> None:
    """Like the errors kriegsspiel finds itself: 'kriegsspiel: error: ...', one line, exit
    status 2, and where to read more; not typer's box under a usage line."""
    done = run_cli(*args)
    assert done.returncode == 2
    assert done.stderr.startswith("kriegsspiel: error: ") and done.stderr.count("\n") == 1
    assert told in done.stderr, done.stderr


def test_an_interrupt_while_an_error_is_told_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once main() is telling an error it ignores Ctrl-C and SIGTERM: a second signal there
    printed a traceback tangled into the message (found by stopping `aid` as it failed)."""
    import signal

    import kriegsspiel.cli as cli
    from kriegsspiel.errors import UsageError

    def failing(**_: object) -> None:
        raise UsageError("a bad option")

    monkeypatch.setattr(cli, "app", failing)
    saved = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    try:
        with pytest.raises(SystemExit) as stop:
            cli.main()
        told = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    finally:
        signal.signal(signal.SIGINT, saved[0])
        signal.signal(signal.SIGTERM, saved[1])
    assert stop.value.code == 2
    assert told == (cli._passed_over, cli._passed_over)
    assert signal.SIG_IGN not in told  # (which programs it starts would inherit)


def test_a_repeatable_option_or_a_flag_may_still_be_given_more_than_once() -> None:
    """Only an option of one value given twice is refused: --weapon adds a weapon each
    time, and a flag said twice says the same thing."""
    out = run_json("shoot", "-w", "rifle:5", "--weapon", "lmg", "--moving", "--moving")
    assert set(out["p_hit_by_weapon"]) == {"Rifle", "Light machine gun (LMG)"}  # type: ignore[arg-type]
    two = run_json("shoot", "-w", "rifle:2", "--small-unit", "--target-models", "2")
    assert two["to_hit_by_weapon"] == {"Rifle": "4+"}  # base 3+, small unit -1


def test_a_long_exact_fraction_is_left_to_json_not_cut_to_a_wrong_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 10 v 10 fight's chances are fractions of some 140 digits: a console of 80 columns
    cut them to their first digits, which read as a whole number. The table shows a
    fraction whole where it is short, else says where it is (--json holds it whole); and a
    folded tail's row ("6+") has its chance in both columns."""
    from fractions import Fraction

    from kriegsspiel.render.odds_text import _exact

    assert _exact(Fraction(133, 400)) == "133/400"
    assert _exact(Fraction(10**19 - 1, 10**20)) == "see --json (21 digits)"  # 41 characters
    assert _exact(Fraction(10**18 - 1, 10**20)) == "999999999999999999/100000000000000000000"
    long = Fraction(10**70 + 1, 3 * 10**70)
    assert _exact(long) == "see --json (71 digits)"
    monkeypatch.setenv("COLUMNS", "80")  # (the console the probe saw it in)
    shown = cli("odds", "assault")
    rows = [line for line in shown.stdout.splitlines() if "attacker wins" in line]
    assert len(rows) == 1 and "see --json (" in rows[0] and "…" not in rows[0], rows
    exact = json.loads(cli("odds", "assault", "--json").stdout)["exact"]["p_attacker_wins"]
    assert "/" in exact and len(exact) > 100  # (the fraction whole)
    folded = cli("odds", "shoot", "-w", "heavy mortar", "--ranged-in", "--range", "40",
                 "--target-down")  # fmt: skip
    tail = next(line for line in folded.stdout.splitlines() if "6+" in line)
    assert [cell.strip() for cell in tail.split("│")[1:4]] == ["6+", "0.036%", "0.036%"], tail


@pytest.mark.parametrize(("given", "seed"), [([], None), (["--seed", "fresh"], None),
                                             (["--seed", "7"], 7)])  # fmt: skip
def test_the_aid_takes_seed_fresh_as_its_help_names_its_default(
    monkeypatch: pytest.MonkeyPatch, given: list[str], seed: int | None
) -> None:
    """The aid's --seed help says 'default: fresh': the word is taken as play takes it."""
    import kriegsspiel.aid.command as aid_command

    asked: list[Any] = []
    monkeypatch.setattr(aid_command, "run_aid", lambda game, **kw: asked.append(game) or 0)
    result = runner.invoke(app, ["aid", "--no-open", *given])
    assert result.exit_code == 0, result.output
    assert asked[0].seed == seed
