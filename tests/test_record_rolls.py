"""The dice a game's record writes (format 2) and its account tells: each test's 2D6 (a
FUBAR's D6 on its chart), each attack's shots and hits by weapon, each damage roll on a
vehicle; and a record of format 1, written without them, still replays."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from kriegsspiel.core.game import Event
from kriegsspiel.core.procedure import RandomDice, ScriptedDice
from kriegsspiel.core.records import FORMAT, FORMATS, dumps, write_record
from kriegsspiel.render.game_account import describe
from kriegsspiel.rulesets.bolt_action import rules_for
from kriegsspiel.rulesets.bolt_action.attack import attack_vehicle
from kriegsspiel.rulesets.bolt_action.edition import Rules
from kriegsspiel.rulesets.bolt_action.game import record
from kriegsspiel.rulesets.bolt_action.game.record_events import EVENTS, as_written_in, in_format
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.morale import (
    MoraleTest,
    order_test,
    roll_test,
    rolled_order_test,
    rolled_test,
)
from kriegsspiel.rulesets.bolt_action.shooting import plan_shot
from kriegsspiel.rulesets.bolt_action.shot import Group, Situation
from kriegsspiel.rulesets.bolt_action.vehicle_damage import LEVELS, Tally, damage_level
from kriegsspiel.sim.matchup import build_matchup, play_game

MATCHUPS = [
    (ruleset, scenario)
    for ruleset in ("konflikt47", "bolt-action-1")
    for scenario in ("meeting-engagement", "hold-the-crossroads")
]


@cache
def games(ruleset: str, scenario: str) -> tuple[BoltActionGame, ...]:
    """Six games of random players (fast, and they try every order)."""
    matchup = build_matchup(ruleset, scenario, [], "random,random")
    return tuple(play_game(matchup, seed) for seed in range(6))


def passes(rules: Rules, roll: int, needs: int) -> bool:
    """A 2D6 test as the sheets have it: a double one passes, a double six fails, else the
    roll must be the value or under."""
    proc = rules.data.procedure
    return roll == proc.always_passes_on or (roll != proc.fubar_on and roll <= needs)


def check_test(rules: Rules, event: Event) -> None:
    d = event.data
    roll = d["roll"]
    assert 2 <= roll <= 12
    if event.kind == "morale check":
        assert d["passed"] == passes(rules, roll, d["needs"]), d
        return
    fubar = roll == rules.data.procedure.fubar_on
    assert ("fubar_roll" in d) == fubar, d
    if fubar:
        chart = next(r.result for r in rules.data.fubar.rows if d["fubar_roll"] in r.rolls)
        assert d["result"] == chart, d
    else:
        assert d["result"] == ("pass" if passes(rules, roll, d["needs"]) else "fail"), d


def check_needs(rules: Rules, fired: dict[str, Any]) -> None:
    """A weapon's recorded to-hit is the sheets' base less its recorded modifiers (each
    one its data row's value; pins that value times the pins), a roll of the natural miss
    or less no hit, and a 7+ or worse a 6 and then the follow-up score; a fixed score
    is its rule's."""
    if "needs" not in fired:
        return  # (a sure hit: a barrage's, an aircraft's)
    d = rules.data
    needs, modifiers = fired["needs"], fired.get("modifiers", {})
    if "fixed" in fired:
        assert not modifiers, fired
        fixed = {
            "indirect_first_shot": d.procedure.indirect_first_shot,
            "indirect_ranged_in": d.procedure.indirect_ranged_in,
            "shockwave": d.shockwave.to_hit if d.shockwave else None,
        }[fired["fixed"]]
        assert needs == fixed, fired
        return
    for key, value in modifiers.items():
        if key == "shaped_charge":
            assert value == d.procedure.shaped_charge_to_hit, fired
            continue
        one = next(r.value for r in d.hit_modifiers.rows if r.key == key)
        assert value == one or (key == "per_pin" and value % one == 0 and value / one > 1)
    total = d.hit_modifiers.base_to_hit - sum(modifiers.values())
    if total <= 6:
        assert needs == max(total, d.procedure.natural_miss + 1), fired
    else:
        assert needs == [6, d.procedure.needs_seven_plus_follow_up[total]], fired


def check_attack(rules: Rules, event: Event) -> None:
    d = event.data
    fired = d["weapons"]
    assert sum(w["shots"] for w in fired) == d["shots"], d
    # each weapon once for each score its shots needed to hit
    assert len({(w["weapon"], str(w.get("needs"))) for w in fired}) == len(fired)
    assert all(w["hits"] >= 0 for w in fired)
    for w in fired:
        check_needs(rules, w)
    if "casualties" in d:  # at troops: the hits by weapon add up to the attack's
        assert sum(w["hits"] for w in fired) == d["hits"], d
        assert "damage_rolls" not in d
        return
    thresholds = rules.data.damage_thresholds
    table = rules.data.damage_results.rows
    for roll in d["damage_rolls"]:
        assert 1 <= roll["roll"] <= 6
        margin = roll["roll"] + roll["pen"] - roll["damage_value"]
        level = sum(
            margin >= t for t in (thresholds.superficial, thresholds.full, thresholds.massive)
        )
        assert roll["damage"] == LEVELS[level], roll
        assert roll["weapon"] in {w["weapon"] for w in fired}
        # (format 9) the pen's parts, as the shot's plan named them, make the pen
        assert sum(part["value"] for part in roll["pen_parts"]) == roll["pen"], roll
        for result in roll["results"]:
            row = next(
                r
                for r in table
                if (r.low is None or result["score"] >= r.low)
                and (r.high is None or result["score"] <= r.high)
            )
            assert result["result"] == row.effect, roll
        if level == 0:
            assert roll["results"] == [], roll
    if d["damage_rolls"] and any(r["damage"] != "none" for r in d["damage_rolls"]):
        effects = ("knocked_out", "immobilised", "stunned", "on_fire")
        assert any(d[e] for e in effects) or all(  # (a result may be ignored: an automaton)
            x["result"] == "crew stunned" for r in d["damage_rolls"] for x in r["results"]
        ), d


@pytest.mark.parametrize(("ruleset", "scenario"), MATCHUPS)
def test_the_recorded_rolls_agree_with_what_they_decided(ruleset: str, scenario: str) -> None:
    """In many seeded games each test's 2D6 gives its result by the sheets' rule (a double
    one passes, a double six fails: FUBAR on an order test, whose D6 gives the chart's
    result), each attack's shots and hits by weapon add up to its own, and each damage
    roll reaches the damage it says; every line passes its strict model, and the account
    tells each roll."""
    rules = rules_for(ruleset)
    counts = {"order test": 0, "morale check": 0, "shoot": 0, "damage": 0, "fubar": 0}
    for game in games(ruleset, scenario):
        for event in game.events:
            EVENTS[event.kind].model_validate_json(dumps(event.to_json()))
            if event.kind in ("order test", "morale check"):
                check_test(rules, event)
                counts[event.kind] += 1
                counts["fubar"] += "fubar_roll" in event.data
                told = describe(event, game.units)
                assert told is not None and f", rolled {event.data['roll']}" in told
            elif event.kind in ("shoot", "support damage"):
                check_attack(rules, event)
                counts["shoot"] += 1
                counts["damage"] += len(event.data.get("damage_rolls", []))
    assert counts["order test"] and counts["morale check"] and counts["shoot"], counts


def test_the_rolls_of_many_games_cover_fubars_and_damage() -> None:
    """The games above hold FUBARs and damage rolls on vehicles, in both editions (so the
    checks of them are not vacuous)."""
    for ruleset in ("konflikt47", "bolt-action-1"):
        events = [
            e
            for scenario in ("meeting-engagement", "hold-the-crossroads")
            for g in games(ruleset, scenario)
            for e in g.events
        ]
        assert any("fubar_roll" in e.data for e in events), ruleset
        rolls = [r for e in events for r in e.data.get("damage_rolls", [])]
        assert any(r["damage"] != "none" and r["results"] for r in rolls), ruleset


@given(st.integers(1, 6), st.integers(1, 6), st.integers(-2, 14))
def test_a_rolled_test_is_the_test_with_its_total(a: int, b: int, value: int) -> None:
    """:func:`rolled_test` reads the same dice as :func:`roll_test` and gives the same
    result, with their total; an order test's FUBAR adds the chart's D6."""
    test = MoraleTest(base=value)
    result, total = rolled_test(ScriptedDice([a, b]), test)
    assert total == a + b and result == roll_test(ScriptedDice([a, b]), test)
    rules = rules_for("konflikt47")
    test = MoraleTest(base=value, pins=1)  # (pinned: the test is taken)
    rolled = rolled_order_test(ScriptedDice([a, b, 4]), rules, test)
    assert rolled.result == order_test(ScriptedDice([a, b, 4]), rules, test)
    assert rolled.roll == a + b
    assert rolled.fubar_roll == (4 if a == b == 6 else None)


@pytest.mark.parametrize("seed", range(20))
def test_a_tallied_attack_on_a_vehicle_rolls_the_same_dice(seed: int) -> None:
    """The damage rolls are written down from the dice the attack rolls anyway: with a
    tally or without, the same outcome and the dice left where they were."""
    rules = rules_for("bolt-action-1")
    target = rules.target("medium tank")
    s = Situation(range_inches=10, facing="side", target_pins=1)
    groups = [
        Group(plan_shot(rules, rules.weapon(w), target, s)[0], n)
        for w, n in (("Medium AT gun", 2), ("Heavy machine gun (HMG)", 3))
    ]
    plain, tallied, tally = RandomDice(seed), RandomDice(seed), Tally()
    assert attack_vehicle(plain, groups) == attack_vehicle(tallied, groups, tally)
    assert plain.rng.bit_generator.state == tallied.rng.bit_generator.state
    assert len(tally.group_hits) == 2
    vehicle = groups[0].shot.vehicle
    assert vehicle is not None
    for roll in tally.damage_rolls:
        assert LEVELS[damage_level(vehicle, roll.roll + roll.pen)] == roll.damage


def test_the_account_tells_weapons_and_damage_rolls() -> None:
    """An attack's line names the weapons that fired and their shots (and hits by weapon),
    a vehicle's damage rolls against its damage value on a line of their own after it
    (probe accounts, finding 7: such lines ran to 628 characters)."""
    units = games("bolt-action-1", "meeting-engagement")[0].units
    at_troops = Event("shoot", {"turn": 1, "unit": 0, "target": 1, "shots": 9, "hits": 3,
                                "casualties": 1, "pins": 1,
                                "weapons": [{"weapon": "Rifle", "shots": 6, "hits": 3},
                                            {"weapon": "LMG", "shots": 3, "hits": 0}]})  # fmt: skip
    told = describe(at_troops, units)
    assert told is not None and told.startswith("    9 shots (Rifle 6, LMG 3): 3 hits (Rifle 3), ")
    rolls = [{"weapon": "PIAT", "roll": 1, "pen": 6, "damage_value": 9, "damage": "none",
              "results": []}] * 5 + [
             {"weapon": "PIAT", "roll": 6, "pen": 6, "damage_value": 9, "damage": "massive",
              "results": [{"roll": 2, "score": 2, "result": "immobilised"},
                          {"roll": None, "score": 6, "result": "knocked out"}]}]  # fmt: skip
    at_tank = Event("shoot", {"turn": 1, "unit": 0, "target": 1, "shots": 6, "pins": 1,
                              "weapons": [{"weapon": "PIAT", "shots": 6, "hits": 6}],
                              "damage_rolls": rolls, "knocked_out": True, "immobilised": True,
                              "stunned": False, "on_fire": False})  # fmt: skip
    told = describe(at_tank, units)
    assert told is not None
    first, rolled = told.split("\n")
    assert first.startswith("    6 shots (PIAT) at ")
    assert first.endswith(": 6 hits -> knocked out, immobilised"), told
    assert rolled == (
        "      damage rolls v 9: 6+6=12 massive (results 2: immobilised, 6: knocked out), "
        "5 more, none reached 9"
    ), told


def test_the_added_fields_are_checked_strictly() -> None:
    """A roll is a whole number in its range, a weapon's line has its three fields only."""
    base = {"event": "order test", "turn": 1, "unit": 0, "needs": 8, "result": "pass"}
    model = EVENTS["order test"]
    model.model_validate_json(dumps(base))  # (format 1: no roll)
    model.model_validate_json(dumps({**base, "roll": 7}))
    for bad in ({"roll": "7"}, {"roll": 13}, {"fubar_roll": 0}, {"roll": 7.0}):
        with pytest.raises(ValidationError):
            model.model_validate_json(dumps({**base, **bad}))
    shot = {"event": "shoot", "turn": 1, "unit": 0, "target": 1, "shots": 3, "pins": 0,
            "hits": 0, "casualties": 0}  # fmt: skip
    fired = {"weapon": "Rifle", "shots": 3, "hits": 0}
    EVENTS["shoot"].model_validate_json(dumps({**shot, "weapons": [fired]}))
    needing = {**fired, "needs": 5, "modifiers": {"long_range": -1, "soft_cover": -1}}
    EVENTS["shoot"].model_validate_json(dumps({**shot, "weapons": [needing]}))
    seven = {**fired, "needs": [6, 4], "modifiers": {"long_range": -1, "hard_cover": -2}}
    EVENTS["shoot"].model_validate_json(dumps({**shot, "weapons": [seven]}))
    for bad_fired in (
        {**fired, "range": 24},
        {"weapon": "Rifle", "shots": 3},
        {**fired, "needs": "5"},
        {**fired, "needs": [6, 4, 3]},
        {**fired, "modifiers": {"long_range": "-1"}},
        {**fired, "fixed": "lucky"},
    ):
        with pytest.raises(ValidationError):
            EVENTS["shoot"].model_validate_json(dumps({**shot, "weapons": [bad_fired]}))


# ----------------------------------------------------------------------------- format 1
def older_format(text: str, number: int) -> str:
    """A record as the code of format ``number`` wrote it: its header's format, and each
    line without the fields later formats added; no line of the kinds of event they added."""
    lines = [json.loads(line) for line in text.splitlines()]
    assert lines[0]["format"] == FORMAT
    lines[0]["format"] = FORMATS[number - 1]
    return "".join(
        dumps(as_written_in(row, number)) + "\n"
        for row in lines
        if in_format(row.get("event", ""), number)
    )


def format_1(text: str) -> str:
    """A record as the code before format 2 wrote it."""
    return older_format(text, 1)


@cache
def record_text(seed: int = 1) -> str:
    """A short game's record as play writes it (random players: fast)."""
    import tempfile

    matchup = build_matchup("konflikt47", "meeting-engagement", [], "random,random")
    game = play_game(matchup, seed)
    texts = (matchup.armies[0].text, matchup.armies[1].text)
    head = record.header(game, matchup.scenario.text, texts, matchup.players)
    with tempfile.TemporaryDirectory() as folder:
        return write_record(Path(folder, "game.jsonl"), head, game.events)


def test_a_format_1_record_replays_and_is_told_as_such(tmp_path: Path) -> None:
    """A record written before the rolls were recorded reproduces (compared without them),
    and the replay says once that it is of the older format; its account tells the rolls
    (the replay rolls them again). A line of it changed still parts from the game."""
    old = format_1(record_text())
    assert FORMATS[0] in old.split("\n", 1)[0] and '"weapons"' not in old
    path = tmp_path / "old.jsonl"
    path.write_text(old, encoding="utf-8")
    result = record.replay(path)
    assert result.reproduced and result.finished and result.older_format
    assert len(result.notes()) == 1 and FORMATS[0] in result.notes()[0]
    done = run_cli("replay", str(path), "--account", timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("older format") == 1
    assert ", rolled " in done.stdout  # the account of the replayed game
    # a line of it changed by hand (a test's needs) is a difference, as in any record
    rows = old.splitlines()
    at = next(i for i, r in enumerate(rows) if json.loads(r).get("event") == "order test")
    row = json.loads(rows[at])
    rows[at] = dumps({**row, "needs": row["needs"] + 1})
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    parted = record.replay(path)
    assert not parted.reproduced and parted.first_difference == at + 1


def test_the_record_play_writes_holds_the_rolls_and_a_changed_roll_parts(tmp_path: Path) -> None:
    """The record play writes now is of format 9 and replays with no note; a roll changed
    in it is a difference in the game, named at its line."""
    text = record_text()
    assert json.loads(text.split("\n", 1)[0])["format"] == FORMAT == "kriegsspiel-record/9"
    path = tmp_path / "new.jsonl"
    path.write_text(text, encoding="utf-8")
    result = record.replay(path)
    assert result.reproduced and result.notes() == [] and not result.older_format
    rows = text.splitlines()
    at = next(i for i, r in enumerate(rows) if json.loads(r).get("event") == "order test")
    row: dict[str, Any] = json.loads(rows[at])
    rows[at] = dumps({**row, "roll": 2 if row["roll"] != 2 else 3})
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    parted = record.replay(path)
    assert not parted.reproduced and parted.first_difference == at + 1
    assert "fields that differ: roll" in parted.difference()[-1]


def test_a_format_3_record_without_the_gravity_pulses_lines_replays(tmp_path: Path) -> None:
    """Format 4 records a gravity pulse's bar on its target's next Run (a line of its own,
    which the account tells); a record of format 3, written before, has no such line and
    still replays, the replay saying once what it lacks."""
    text = record_text(3)  # (seed 1's game had one before each die was rolled one by one)
    assert '"event":"gravity pulse"' in text  # (this game has one)
    old = older_format(text, 3)
    assert '"event":"gravity pulse"' not in old
    path = tmp_path / "old.jsonl"
    path.write_text(old, encoding="utf-8")
    result = record.replay(path)
    assert result.reproduced and result.finished and result.older_format == 3
    (note,) = result.notes()
    assert "'kriegsspiel-record/3'" in note and "a gravity pulse's bar on the next Run" in note


def test_a_format_4_record_without_what_the_shots_needed_replays(tmp_path: Path) -> None:
    """Format 5 records what each weapon's shots needed to hit (a part for each score, its
    modifiers by their data keys), and the account tells it; a record of format 4, written
    before, has one part per weapon without them and still replays, the replay saying once
    what it lacks; its account tells what the shots needed (the replay plans them again)."""
    text = record_text()
    assert '"needs":' in text and '"modifiers":' in text
    old = older_format(text, 4)
    assert '"modifiers":' not in old and '"fixed":' not in old
    for row in map(json.loads, old.splitlines()[1:]):
        if row["event"] in ("shoot", "support damage"):  # each weapon once, as format 4
            names = [w["weapon"] for w in row["weapons"]]
            assert len(set(names)) == len(names) and not any("needs" in w for w in row["weapons"])
    path = tmp_path / "old.jsonl"
    path.write_text(old, encoding="utf-8")
    result = record.replay(path)
    assert result.reproduced and result.finished and result.older_format == 4
    (note,) = result.notes()
    assert "'kriegsspiel-record/4'" in note and "what each weapon's shots needed to hit" in note
    done = run_cli("replay", str(path), "--account", timeout=120)
    assert done.returncode == 0, done.stderr
    assert "reproduced (" in done.stdout
    assert " needing " in done.stdout  # (the account of the replayed game: told anew)


def test_the_account_tells_what_each_weapon_needed() -> None:
    """An attack's line tells each weapon's shots with the score they needed and the
    modifiers that made it, in the sheets' order (the data's hit modifiers table: pins
    before long range, whatever the record's), a 6-then-N
    and a fixed score too; a weapon firing at two scores is told by each."""
    one = {"event": "shoot", "turn": 1, "unit": 0, "target": 1, "shots": 8, "pins": 1,
           "hits": 4, "casualties": 2,
           "weapons": [{"weapon": "MMG", "shots": 8, "hits": 4, "needs": 5,
                        "modifiers": {"soft_cover": -1, "long_range": -1}}]}  # fmt: skip
    told = describe(Event("shoot", one), [])
    assert told == (
        "    8 shots of MMG needing 5+ (long range -1, soft cover -1): 4 hits, "
        "2 casualties, 1 pin on ?"
    ), told
    many = {**one, "shots": 12, "hits": 3, "weapons": [
        {"weapon": "Rifle", "shots": 6, "hits": 2, "needs": 5,
         "modifiers": {"long_range": -1, "per_pin": -1}},
        {"weapon": "Rifle", "shots": 2, "hits": 0, "needs": [6, 4],
         "modifiers": {"long_range": -1, "per_pin": -1, "hard_cover": -2}},
        {"weapon": "Mortar", "shots": 1, "hits": 0, "needs": 6, "fixed": "indirect_first_shot"},
        {"weapon": "LMG", "shots": 3, "hits": 1, "needs": 4, "modifiers": {"per_pin": -1}},
    ]}  # fmt: skip
    told = describe(Event("shoot", many), [])
    assert told == (
        "    12 shots: 6 of Rifle needing 5+ (pins -1, long range -1), 2 of Rifle needing "
        "7+ (a 6, then 4+; pins -1, long range -1, hard cover -2), 1 of Mortar needing 6+ "
        "(indirect fire, first shot at this target), 3 of LMG needing 4+ (pins -1); "
        "3 hits (Rifle at 5+ 2, LMG 1), 2 casualties, 1 pin on ?"
    ), told
    # at a vehicle, a weapon's parts are one weapon for its hits and damage rolls
    roll = {"weapon": "HMG", "roll": 6, "pen": 1, "damage_value": 9, "damage": "none",
            "results": []}  # fmt: skip
    at_tank = {"event": "shoot", "turn": 1, "unit": 0, "target": 1, "shots": 6, "pins": 1,
               "weapons": [{"weapon": "HMG", "shots": 3, "hits": 1, "needs": 4,
                            "modifiers": {"per_pin": -1}},
                           {"weapon": "HMG", "shots": 3, "hits": 0, "needs": 5,
                            "modifiers": {"long_range": -1, "per_pin": -1}}],
               "damage_rolls": [roll], "knocked_out": False, "immobilised": False,
               "stunned": False, "on_fire": False}  # fmt: skip
    told = describe(Event("shoot", at_tank), [])
    assert told == (
        "    6 shots: 3 of HMG needing 4+ (pins -1), 3 of HMG needing 5+ (pins -1, long "
        "range -1) at ?: 1 hit -> no damage, 1 pin\n"
        "      damage roll v 9: 6+1=7 none (at best 6+1=7: short of 9)"
    ), told


def test_a_format_5_record_counted_a_lone_crew_as_a_pin_and_is_compared_so() -> None:
    """Format 6 tells a team weapon's lone crew by its own modifier (``one_crew``); a
    format 5 record counted it in its pins, and its replay is compared as it wrote it."""
    from kriegsspiel.rulesets.bolt_action.game.record_events import as_written_in

    part = {"weapon": "MMG", "shots": 4, "hits": 1, "needs": 6,
            "modifiers": {"long_range": -1, "one_crew": -1, "per_pin": -1}}  # fmt: skip
    row = {"event": "shoot", "weapons": [part, {**part, "modifiers": {"one_crew": -1}}]}
    assert [w["modifiers"] for w in as_written_in(row, 5)["weapons"]] == [
        {"long_range": -1, "per_pin": -2},
        {"per_pin": -1},
    ]
    assert as_written_in(row, 6) == row


def test_a_rally_tells_its_dice_and_a_format_6_record_without_them_replays(
    tmp_path: Path,
) -> None:
    """Solo probe: a Rally read "loses 3 pins (D6 pins off, at most all it has)" without
    the D6 rolled. Format 7 records it (``roll``) and the account tells it ("rolls 5 on D6:
    loses 3 pins (all it has)"); a record of format 6, written before, still replays, the
    replay saying once what it lacks, and its rallies are told as before."""
    rally = {"unit": 0, "pins_lost": 3, "turn": 1}
    assert (
        describe(Event("rally", {**rally, "roll": 3}), [])
        == "    rallies: rolls 3 on D6: loses 3 pins"
    )
    assert describe(Event("rally", {**rally, "roll": 5}), []) == (
        "    rallies: rolls 5 on D6: loses 3 pins (all it has)"
    )
    assert describe(Event("rally", rally), []) == (
        "    rallies: loses 3 pins (D6 pins off, at most all it has)"
    )
    text = record_text()
    rallies = [row for row in map(json.loads, text.splitlines()[1:]) if row["event"] == "rally"]
    assert rallies and all(row["roll"] >= row["pins_lost"] for row in rallies)
    old = older_format(text, 6)
    assert '"event":"rally"' in old and all(
        "roll" not in row
        for row in map(json.loads, old.splitlines()[1:])
        if row["event"] == "rally"
    )
    path = tmp_path / "old.jsonl"
    path.write_text(old, encoding="utf-8")
    result = record.replay(path)
    assert result.reproduced and result.finished and result.older_format == 6
    (note,) = result.notes()
    assert "'kriegsspiel-record/6'" in note and "a Rally's dice as rolled" in note


def test_an_older_records_note_marks_what_the_account_tells_from_the_re_run(
    tmp_path: Path,
) -> None:
    """Probe accounts, finding 4: a format-8 record's replay said it lacked a fight's dice
    and a pen's parts, then its account told both, unmarked (the replay's re-run rolls
    them). The closing note now says such lines are told from the re-run, not checked."""
    path = tmp_path / "old.jsonl"
    path.write_text(older_format(record_text(), 8), encoding="utf-8")
    done = run_cli("replay", str(path), "--account", timeout=120)
    assert done.returncode == 0, done.stderr
    assert "      dice: " in done.stdout  # (the re-run's dice, which the record lacks)
    note = done.stdout[done.stdout.index("older format") :]
    assert "written without each close quarters round's dice" in note
    assert "told from the replay's re-run, not checked against the record" in note
    # a record of this format has them all: no such note
    path.write_text(record_text(), encoding="utf-8")
    assert not record.replay(path).notes()
