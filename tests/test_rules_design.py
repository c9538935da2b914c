"""A designer's rules file as a designer works on it: edited between two calls in one
process (a notebook), labelled in the odds, copied and compared with the shipped data."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import run_cli

import kriegsspiel
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action.data import DATA_DIR
from kriegsspiel.rulesets.bolt_action.edition import rules_for
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.odds import shoot_odds
from kriegsspiel.rulesets.bolt_action.shot import Situation
from kriegsspiel.sim.matchup import build_matchup, parsed

BAZOOKA = '{name: Bazooka, category: heavy weapons, range: 24, shots: "1", pen: 5,'


def ba1_copy(folder: Path, pen: int = 5) -> Path:
    """A copy of the shipped Bolt Action data whose Bazooka has penetration ``pen``."""
    text = (DATA_DIR / "bolt_action_1.yaml").read_text()
    assert text.count(BAZOOKA) == 1
    path = folder / "house.yaml"
    path.write_text(text.replace(BAZOOKA, BAZOOKA.replace("pen: 5", f"pen: {pen}")))
    return path


def test_a_rules_file_edited_within_one_process_is_read_again_everywhere(tmp_path: Path) -> None:
    """The rules, the odds and a game each follow the file as it is at the call, as the
    list check does: none keeps what the file said the first time it was read."""
    rules = str(ba1_copy(tmp_path, pen=5))
    table, army_a, army_b = parsed(build_matchup("bolt-action-1", None, []))

    def now() -> tuple[int, int, float]:
        odds = shoot_odds(
            "bolt-action-1",
            weapons=["Bazooka"],
            target="medium tank",
            situation=Situation(range_inches=10),
            rules_file=rules,
        )
        game = BoltActionGame("bolt-action-1", table, (army_a, army_b), rules_file=rules)
        return (
            rules_for("bolt-action-1", rules).weapon("Bazooka").pen,
            game.rules.weapon("Bazooka").pen,
            float(odds.probabilities["p_knocked_out"]),
        )

    pen5 = now()
    assert pen5[:2] == (5, 5)
    ba1_copy(tmp_path, pen=9)
    pen9 = now()
    assert pen9[:2] == (9, 9) and pen9[2] > pen5[2]
    assert rules_for("bolt-action-1", rules) is rules_for("bolt-action-1", rules)  # unedited


def test_odds_by_a_rules_file_name_it_and_take_its_edition(tmp_path: Path) -> None:
    """Without --ruleset, odds answer under the rules file's own edition (as play does);
    the table's title and the JSON name the file as house rules, with a digest of it."""
    ba1_copy(tmp_path, pen=9)
    ask = ["odds", "shoot", "-w", "Bazooka", "-t", "medium tank", "--range", "10"]
    shipped = run_cli(*ask, "-r", "bolt-action-1", "--json", cwd=tmp_path)
    house = run_cli(*ask, "--rules-file", "house.yaml", "--json", cwd=tmp_path)
    assert shipped.returncode == house.returncode == 0, house.stderr
    plain, by_house = json.loads(shipped.stdout), json.loads(house.stdout)
    assert "rules_file" not in plain and by_house["ruleset"] == "bolt-action-1"
    assert by_house["rules_file"] == "house.yaml" and len(by_house["rules_digest"]) == 8
    assert by_house["p_knocked_out"] > plain["p_knocked_out"]
    for question in (ask, ["odds", "morale"], ["odds", "order-test"]):
        table = run_cli(*question, "--rules-file", "house.yaml", cwd=tmp_path)
        assert table.returncode == 0, table.stderr
        title = (
            f"— bolt-action-1, house rules from rules file house.yaml ({by_house['rules_digest']})"
        )
        assert title in " ".join(table.stdout.split())  # (a long title wraps)
    asked = run_cli(*ask, "-r", "konflikt47", "--rules-file", "house.yaml", cwd=tmp_path)
    assert asked.returncode == 2 and "give --ruleset bolt-action-1" in asked.stderr


def test_rules_copies_an_editions_data_and_lists_what_a_copy_changes(tmp_path: Path) -> None:
    """rules --ruleset R --copy FILE writes the shipped data; rules FILE checks it and says
    it changes nothing, then, edited, lists each change by table, row and field."""
    copied = run_cli("rules", "--ruleset", "bolt-action-1", "--copy", "mine.yaml", cwd=tmp_path)
    assert copied.returncode == 0, copied.stderr
    assert "Copied to mine.yaml" in copied.stderr
    shipped = (DATA_DIR / "bolt_action_1.yaml").read_text()
    assert (tmp_path / "mine.yaml").read_text() == shipped
    again = run_cli("rules", "bolt-action-1", "--copy", "mine.yaml", cwd=tmp_path)
    assert again.returncode == 2 and "is there already" in again.stderr
    same = run_cli("rules", "mine.yaml", cwd=tmp_path)
    assert same.returncode == 0 and "changes nothing from the shipped data" in same.stdout
    text = shipped.replace(BAZOOKA, BAZOOKA.replace("range: 24", "range: 30"))
    gone = "    - {name: Panzerschreck,"
    text = "\n".join(r for r in text.splitlines() if not r.startswith(gone))
    (tmp_path / "mine.yaml").write_text(
        text.replace("point_blank_inches: 6", "point_blank_inches: 9")
    )
    told = run_cli("rules", "mine.yaml", cwd=tmp_path)
    assert told.returncode == 0, told.stderr
    lines = [line.strip() for line in told.stdout.splitlines()]
    assert "It changes 3 things from the shipped data:" in lines
    for table, change in (
        ("weapons", "Bazooka: range 24 → 30"),
        ("procedure", "point_blank_inches: 6 → 9"),
    ):
        assert lines[lines.index(change) - 1] == table, lines  # (under its table)
    assert any(
        line.startswith("Panzerschreck: left out (shipped: {name: Panzerschreck") for line in lines
    )
    data = json.loads(run_cli("rules", "mine.yaml", "--json", cwd=tmp_path).stdout)
    assert data["ruleset"] == "bolt-action-1" and data["rules_file"] == "mine.yaml"
    assert {"table": "weapons", "row": "Bazooka", "field": "range", "change": "changed",
            "shipped": 24, "file": 30, "faces": None} in data["changes"]  # fmt: skip


#: Edits of the Bolt Action copy's die tables (each text found once), as a designer
#: makes them: FUBAR's friendly fire on a 1 only, the barrage's delay on a 2 only (fire
#: for effect from 3) and a unit under it pinned on 1-4, on fire from 3 to 3-4 (knocked
#: out from 5), a fighter-bomber's pins, Rally's dice (and its summary with them).
DIE_EDITS = (
    ("    - rolls: [1, 2]\n      result: friendly fire", "    - rolls: [1]\n      result: friendly fire"),
    ("    - rolls: [3, 4, 5, 6]\n      result: panic", "    - rolls: [2, 3, 4, 5, 6]\n      result: panic"),
    ("    - rolls: [2, 3]\n      effect: delay", "    - rolls: [2]\n      effect: delay"),
    ("    - rolls: [4, 5, 6]\n      effect: fire for effect",
     "    - rolls: [3, 4, 5, 6]\n      effect: fire for effect"),
    ("pin_rolls: [1, 2, 3, 4, 5]", "pin_rolls: [1, 2, 3, 4]"),
    ("    - low: 3\n      high: 3\n      effect: on fire",
     "    - low: 3\n      high: 4\n      effect: on fire"),
    ("    - low: 4\n      high: null\n      effect: knocked out",
     "    - low: 5\n      high: null\n      effect: knocked out"),
    ("aircraft: Fighter-bomber, pins: 2", "aircraft: Fighter-bomber, pins: 3"),
    ("pins_lost: D6, summary: No move or fire but lose D6 pin markers",
     "pins_lost: D6+1, summary: No move or fire but lose D6+1 pin markers"),
)  # fmt: skip


def test_rules_tells_a_die_tables_changes_as_a_player_reads_the_table(tmp_path: Path) -> None:
    """Each table rolled on a die, face by face: it was "1: rolls [1, 2] → [1]", then "3:
    left out (shipped: {rolls: [3, 4, 5, 6], ...})" and "2: new, {...}" for FUBAR's 2 now
    panicking, "5: pins_lost D6 → D6+1" for Rally's, "2: aircraft.pins 2 → 3"."""
    text = (DATA_DIR / "bolt_action_1.yaml").read_text()
    for old, new in DIE_EDITS:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    (tmp_path / "dice.yaml").write_text(text)
    told = run_cli("rules", "dice.yaml", cwd=tmp_path)
    assert told.returncode == 0, told.stderr
    lines = [line.strip() for line in told.stdout.splitlines()]
    assert lines[1:-1] == [
        "It changes 7 things from the shipped data:",
        "orders",
        "die 5 (Rally): pins_lost D6 → D6+1",
        "die 5 (Rally): summary No move or fire but lose D6 pin markers → No move or fire "
        "but lose D6+1 pin markers",
        "fubar",
        "die 2: friendly fire → panic",
        "damage_results",
        "die 4: knocked out → on fire",
        "artillery_barrage",
        "die 3: delay → fire for effect",
        "pin_rolls and hit_rolls, die 5: pin_rolls → neither",
        "air_strike",
        "aircraft, die 2-3 (Fighter-bomber): pins 2 → 3",
    ]
    data = json.loads(run_cli("rules", "dice.yaml", "--json", cwd=tmp_path).stdout)
    assert {"table": "fubar", "row": "die 2", "field": None, "change": "changed",
            "shipped": "friendly fire", "file": "panic", "faces": [2, 2]} in data["changes"]  # fmt: skip


def test_a_die_tables_open_ends_and_a_results_own_changes_are_told() -> None:
    """A damage result's "or less" and "or more" ends are told as such; a result's row
    changed where no face reads it in both tables is told by its name."""
    from kriegsspiel.rulesets.bolt_action.house import changes

    def results(*rows: tuple[int | None, int | None, str, int]) -> dict[str, object]:
        keys = ("low", "high", "effect", "pins")
        return {"damage_results": {"rows": [dict(zip(keys, r, strict=True)) for r in rows]}}

    shipped = results((None, 1, "stunned", 1), (2, 3, "immobilised", 1), (4, None, "out", 0))
    house = results((None, 2, "stunned", 2), (3, 3, "immobilised", 1), (4, None, "out", 0))
    told = [(c.row, c.told()) for c in changes(shipped, house)]
    assert told == [
        ("die 1 or less (stunned)", "die 1 or less (stunned): pins 1 → 2"),
        ("die 2", "die 2: immobilised → stunned"),
    ]
    house = results((None, 3, "out", 0), (4, None, "stunned", 2))
    assert [c.told() for c in changes(shipped, house)] == [
        "die 1 or less: stunned → out",
        "die 2-3: immobilised → out",
        "die 4 or more: out → stunned",
        "stunned: pins 1 → 2",
    ]


def test_rules_refuses_a_broken_file_or_one_of_another_edition(tmp_path: Path) -> None:
    """At its line and field; another edition's data than --ruleset asks for, in words;
    with exit status 2 and nothing copied."""
    path = ba1_copy(tmp_path)
    path.write_text(path.read_text().replace("pen: 5,", "pn: 5,"))
    broken = run_cli("rules", "house.yaml", cwd=tmp_path)
    # (a misspelt field's row also lacks the field it meant: several problems, one a line)
    assert broken.returncode == 2 and re.search(r"house\.yaml(?:: line |:)\d+", broken.stderr)
    assert "(did you mean 'pen'?)" in broken.stderr
    ba1_copy(tmp_path)
    other = run_cli("rules", "house.yaml", "-r", "konflikt47", "--copy", "c.yaml", cwd=tmp_path)
    assert other.returncode == 2 and "give --ruleset bolt-action-1" in other.stderr
    assert not (tmp_path / "c.yaml").exists()
    listed = run_cli("rules", cwd=tmp_path)
    assert listed.returncode == 0 and "bolt_action_1.yaml" in listed.stdout


def test_new_game_plays_by_a_rules_file_in_its_edition(tmp_path: Path) -> None:
    """kriegsspiel.new_game(rules_file=...) checks the lists against the file and plays by
    it, in the file's edition when no ruleset is given; the record holds the file."""
    ba1_copy(tmp_path, pen=9)
    game = kriegsspiel.new_game(rules_file=str(tmp_path / "house.yaml"), seed=3)
    assert game.ruleset == "bolt-action-1" and game.rules.weapon("Bazooka").pen == 9
    assert game.rules.rules_file == str(tmp_path / "house.yaml")
    assert kriegsspiel.new_game("bolt-action-1").rules.weapon("Bazooka").pen == 5
    with pytest.raises(UsageError, match="rules data of bolt-action-1"):
        kriegsspiel.new_game("konflikt47", rules_file=str(tmp_path / "house.yaml"))


def test_replay_tells_a_held_rules_file_changed_since_even_when_it_reproduces(
    tmp_path: Path,
) -> None:
    """A record's rules text edited (here, a comment added) no longer matches the hash it
    was recorded with: the game still reproduces by it, and the replay says so."""
    ba1_copy(tmp_path)
    played = run_cli("play", "--rules-file", "house.yaml", "--seed", "2", "--quiet",
                     "--record", "g.jsonl", cwd=tmp_path)  # fmt: skip
    assert played.returncode == 0, played.stderr
    lines = (tmp_path / "g.jsonl").read_text().splitlines()
    clean = run_cli("replay", "g.jsonl", cwd=tmp_path)
    assert clean.returncode == 0 and "does not match the hash" not in clean.stdout
    head = json.loads(lines[0])
    head["rules"] = "# a note added by hand\n" + head["rules"]
    lines[0] = json.dumps(head, separators=(",", ":"), sort_keys=True)
    (tmp_path / "t.jsonl").write_text("\n".join(lines) + "\n")
    told = run_cli("replay", "t.jsonl", cwd=tmp_path)
    assert told.returncode == 0, told.stdout + told.stderr
    assert "reproduced" in told.stdout
    assert "the rules file the record holds (house.yaml) does not match the hash" in told.stdout


def test_an_unknown_weapon_tells_which_chart_the_list_was_checked_against(
    tmp_path: Path,
) -> None:
    """Without a rules file, a name on no shipped chart hints at --rules-file; with one
    that leaves out a shipped weapon, the message names the file and says so."""
    path = ba1_copy(tmp_path)
    panzerschreck = "    - {name: Panzerschreck,"
    rows = [r for r in path.read_text().splitlines() if not r.startswith(panzerschreck)]
    path.write_text("\n".join(rows) + "\n")
    grenadiers = "german-grenadier-platoon"
    refused = run_cli("army", grenadiers, "--rules-file", "house.yaml", cwd=tmp_path)
    assert refused.returncode == 2
    assert "Unknown weapon 'Panzerschreck'" in refused.stderr
    assert (
        "checked against the weapons chart of the rules file house.yaml, which leaves out "
        "this weapon of the shipped chart" in refused.stderr
    )
    (tmp_path / "mine.yaml").write_text(
        (DATA_DIR.parents[2] / "data" / "armies" / "bolt-action-1" / f"{grenadiers}.yaml")
        .read_text()
        .replace("weapons: [Panzerschreck]", "weapons: [Hyper bazooka]")
    )
    unknown = run_cli("army", "mine.yaml", cwd=tmp_path)
    assert unknown.returncode == 2 and "Unknown weapon 'Hyper bazooka'" in unknown.stderr
    assert "give that file (--rules-file FILE)" in unknown.stderr
    shipped = run_cli("army", "mine.yaml", "--rules-file", "house.yaml", cwd=tmp_path)
    assert "--rules-file FILE" not in shipped.stderr and "rules file house.yaml" in shipped.stderr


def test_a_name_not_on_the_chart_says_how_to_list_the_chart(tmp_path: Path) -> None:
    """The message ends with the command that lists the chart the list was checked
    against: the weapons chart for a weapon, the damage values for a vehicle's, with the
    rules file when one was given; and that command lists it."""
    ba1_copy(tmp_path)
    grenadiers = (
        DATA_DIR.parents[2] / "data" / "armies" / "bolt-action-1" / "german-grenadier-platoon.yaml"
    ).read_text()
    assert grenadiers.count("weapons: [Panzerschreck]") == 1
    (tmp_path / "mine.yaml").write_text(
        grenadiers.replace("weapons: [Panzerschreck]", "weapons: [Hyper bazooka]")
    )
    shipped = run_cli("army", "mine.yaml", cwd=tmp_path)
    assert shipped.returncode == 2
    assert (
        "The list was checked against the shipped weapons chart ('kriegsspiel army --weapons "
        "-r bolt-action-1' lists it); if the name is on your own rules file's, give that file "
        "(--rules-file FILE).\n"
    ) in shipped.stderr
    house = run_cli("army", "mine.yaml", "--rules-file", "house.yaml", cwd=tmp_path)
    assert house.stderr.endswith(
        "of the rules file house.yaml; 'kriegsspiel army --weapons -r bolt-action-1 "
        "--rules-file house.yaml' lists it.\n"
    )
    listed = run_cli(
        "army", "--weapons", "-r", "bolt-action-1", "--rules-file", "house.yaml", cwd=tmp_path
    )
    assert listed.returncode == 0 and "Panzerschreck" in listed.stdout
    vehicle = grenadiers.splitlines()
    damage = next(line for line in vehicle if "damage_value_of:" in line)
    (tmp_path / "tank.yaml").write_text(
        grenadiers.replace(damage, damage.split(":")[0] + ": medium tanx", 1)
    )
    tanx = run_cli("army", "tank.yaml", "--rules-file", "house.yaml", cwd=tmp_path)
    assert tanx.returncode == 2 and "Unknown vehicle damage value 'medium tanx'" in tanx.stderr
    assert tanx.stderr.endswith(
        "'kriegsspiel army --targets -r bolt-action-1 --rules-file house.yaml' lists it.\n"
    )
