"""A shot at a vehicle checked by hand (record format 9): its roll of hits (HE at a soft-skin,
a flamethrower, an aircraft) kept with its dice, and each damage roll's pen by its parts, in
the odds' words, kept in the shot's event and told in the account."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from test_record_rolls import older_format, record_text

from kriegsspiel.core.game import Event
from kriegsspiel.core.procedure import RandomDice
from kriegsspiel.render.game_account import describe
from kriegsspiel.rulesets.bolt_action import rules_for
from kriegsspiel.rulesets.bolt_action.attack import attack_vehicle
from kriegsspiel.rulesets.bolt_action.game import record
from kriegsspiel.rulesets.bolt_action.game.firing import weapons_fired
from kriegsspiel.rulesets.bolt_action.game.record_events import as_written_in
from kriegsspiel.rulesets.bolt_action.shooting import plan_shot
from kriegsspiel.rulesets.bolt_action.shot import Group, Situation
from kriegsspiel.rulesets.bolt_action.vehicle_damage import Tally, damage_roll_json

UNITS = [SimpleNamespace(name="Mortar team", side=0), SimpleNamespace(name="Opel Blitz", side=1)]


def _at_vehicle(
    weapons: list[dict[str, Any]], rolls: list[dict[str, Any]], *, knocked_out: bool = False
) -> Event:
    return Event(
        "shoot",
        {
            "unit": 0,
            "target": 1,
            "shots": sum(w["shots"] for w in weapons),
            "weapons": weapons,
            "damage_rolls": rolls,
            "knocked_out": knocked_out,
            "immobilised": False,
            "stunned": False,
            "on_fire": False,
            "pins": 1,
        },
    )


def _roll(weapon: str, roll: int, parts: list[tuple[str, int]]) -> dict[str, Any]:
    return {
        "weapon": weapon,
        "roll": roll,
        "pen": sum(v for _, v in parts),
        "damage_value": 10,
        "damage": "none",
        "results": [],
        "pen_parts": [{"name": n, "value": v} for n, v in parts],
    }


def test_a_shots_pen_parts_are_the_odds_own_words_and_make_its_pen() -> None:
    """The probe's Schwerefeld: the shot keeps its pen by the parts the odds' reasoning
    names (the weapon's pen, the armour struck, long range, the gravity pulse), and they
    add up to the pen its damage rolls take."""
    rules = rules_for("konflikt47")
    s = Situation(range_inches=40, facing="side")
    shot, reasons = plan_shot(rules, rules.weapon("Schwerefeld"), rules.target("heavy tank"), s)
    assert shot.pen_parts == (
        ("pen", 4),
        ("side armour", 1),
        ("long range", -1),
        ("gravity pulse", 2),
    )
    assert shot.pen == sum(value for _, value in shot.pen_parts) == 6
    why = next(r.because for r in reasons if r.topic == "to damage")
    assert why == "pen +4, side armour +1, long range -1, gravity pulse +2 against damage value 10"
    assert all(f"{name} {value:+d}" in why for name, value in shot.pen_parts)


def test_pen_parts_leave_out_what_adds_nothing_and_name_an_he_shell() -> None:
    """A walker's side (no modifier) and HE's long range (none) are said in the odds but
    are no parts; an HE shell's pen is named as the odds name it."""
    rules = rules_for("konflikt47")
    s = Situation(range_inches=40, facing="side")
    shot, reasons = plan_shot(rules, rules.weapon("Heavy AT gun"), rules.target("heavy walker"), s)
    assert shot.pen_parts == (("pen", 6), ("long range", -1)) and shot.pen == 5
    assert "side armour: no +1 against a walker" in next(
        r.because for r in reasons if r.topic == "to damage"
    )
    ba = rules_for("bolt-action-1")
    shot, _ = plan_shot(
        ba, ba.weapon("Medium mortar"), ba.target("soft-skinned vehicle"), Situation(30)
    )
    assert shot.pen_parts == (("HE (D6) pen", 2),) and shot.pen == 2


@pytest.mark.parametrize("seed", range(1, 4))
def test_the_pen_parts_in_a_played_games_record_add_up_to_the_pen(seed: int) -> None:
    """Every damage roll of a shot at a vehicle in a whole game's record keeps its pen's
    parts, and they add up to the pen it applied; the game holds modified pens."""
    rows = [json.loads(line) for line in record_text(seed).splitlines()[1:]]
    rolls = [
        roll
        for row in rows
        if row["event"] in ("shoot", "support damage")
        for roll in row.get("damage_rolls", ())
    ]
    assert rolls
    for roll in rolls:
        assert sum(part["value"] for part in roll["pen_parts"]) == roll["pen"], roll
    assert any(len(roll["pen_parts"]) > 1 for roll in rolls)


@pytest.mark.parametrize("seed", range(12))
def test_an_he_roll_of_hits_at_a_vehicle_is_kept_and_makes_its_hits(seed: int) -> None:
    """A medium mortar at a soft-skin rolls D6 hits for each shot that hits: the record
    keeps each roll (``per_hit_dice``) with the shots that hit (``struck``) and what each
    made (``per_hit``), the rolls make the hits, and the dice are those of an attack
    rolled without a tally (the odds', the simulator's)."""
    rules = rules_for("bolt-action-1")
    s = Situation(range_inches=30, ranged_in=True)  # (hits on 2+: most shots roll hits)
    mortar = plan_shot(rules, rules.weapon("Medium mortar"), rules.target("soft-skin"), s)[0]
    groups = [Group(mortar, 3)]
    plain, kept, tally = RandomDice(seed), RandomDice(seed), Tally()
    assert attack_vehicle(plain, groups) == attack_vehicle(kept, groups, tally)
    assert plain.rng.bit_generator.state == kept.rng.bit_generator.state
    (part,) = weapons_fired(groups, tally)
    hit = sum(die >= 2 for die in part["hit_dice"])
    assert part["struck"] == len(part["per_hit_dice"]) and part["per_hit"] == "D6"
    if len(tally.damage_rolls) < part["hits"]:  # (hits after a knock-out are not rolled)
        assert tally.damage_rolls and tally.damage_rolls[-1].damage != "none"
    else:
        assert part["struck"] == hit
    assert part["hits"] == sum(max(1, r) for r in part["per_hit_dice"])
    assert all(1 <= r <= 6 for r in part["per_hit_dice"])


def test_the_account_tells_a_roll_of_hits_at_a_vehicle_and_the_pens_parts() -> None:
    """The dice line tells HE's roll of hits at a vehicle as at troops; the damage rolls'
    line tells what made the pen after the damage value, once."""
    mortar = {"weapon": "Medium mortar", "shots": 1, "hits": 4, "needs": 2, "struck": 1,
              "per_hit": "D6", "hit_dice": [5], "per_hit_dice": [4]}  # fmt: skip
    rolls = [_roll("Medium mortar", d, [("HE (D6) pen", 2)]) for d in (6, 5, 3, 1)]
    told = str(describe(_at_vehicle([mortar], rolls), UNITS))
    first, rolled, dice = told.split("\n")
    assert first.endswith(": 4 hits -> no damage, 1 pin")  # (its damage rolls on their own line)
    assert rolled.startswith("      damage rolls v 10: 6+2=8 none")  # (an HE shell's own pen)
    assert dice == "      dice: to hit 2+: 5 (1 hit x D6: 4 = 4 hits)"
    schwere = {"weapon": "Schwerefeld Projektor", "shots": 2, "hits": 2, "needs": 4,
               "hit_dice": [6, 5]}  # fmt: skip
    parts = [("pen", 4), ("side armour", 1), ("long range", -1), ("gravity pulse", 2)]
    rolls = [_roll("Schwerefeld Projektor", d, parts) for d in (3, 4)]
    rolled = str(describe(_at_vehicle([schwere], rolls), UNITS)).split("\n")[1]
    assert rolled == (
        "      damage rolls v 10 (pen +4, side armour +1, long range -1, gravity pulse "
        "+2): 3+6=9 none, 4+6=10 none"
    )


def test_the_account_tells_each_weapons_pen_by_its_short_name() -> None:
    """Where several weapons made damage rolls, each one's pen after its short name (as the
    dice line names them); a weapon whose pen is its own alone is not told."""
    at = {"weapon": "Medium AT gun", "shots": 1, "hits": 1, "needs": 4, "hit_dice": [5]}
    hmg = {"weapon": "Heavy machine gun (HMG)", "shots": 3, "hits": 1, "needs": 5,
           "hit_dice": [5, 2, 1]}  # fmt: skip
    mg = {"weapon": "Rifle", "shots": 1, "hits": 1, "needs": 4, "hit_dice": [4]}
    rolls = [
        _roll("Medium AT gun", 4, [("pen", 5), ("side armour", 1)]),
        _roll("Heavy machine gun (HMG)", 2, [("pen", 1), ("long range", -1)]),
        _roll("Rifle", 6, [("small arms", 0)]),
    ]
    first = str(describe(_at_vehicle([at, hmg, mg], rolls), UNITS)).split("\n")[1]
    assert (
        "damage rolls v 10 (Medium AT gun: pen +5, side armour +1; HMG: pen +1, long range "
        "-1): Medium AT gun 4+6=10 none, Heavy machine gun (HMG) 2+0=2 none"
    ) in first
    # a record without the parts (before format 9) tells the rolls as before
    bare = [{k: v for k, v in r.items() if k != "pen_parts"} for r in rolls]
    first = str(describe(_at_vehicle([at, hmg, mg], bare), UNITS)).split("\n")[1]
    assert "damage rolls v 10: Medium AT gun 4+6=10 none" in first


def test_a_format_8_record_without_the_pens_parts_replays(tmp_path: Path) -> None:
    """A record of format 8, written before a pen's parts and a roll of hits at a vehicle
    were, has neither and still replays, the replay saying once what it lacks."""
    text = record_text()
    assert '"pen_parts":' in text
    old = older_format(text, 8)
    assert '"pen_parts":' not in old and '"hit_dice":' in old
    path = tmp_path / "old.jsonl"
    path.write_text(old, encoding="utf-8")
    result = record.replay(path)
    assert result.reproduced and result.finished and result.older_format == 8
    (note,) = result.notes()
    assert "'kriegsspiel-record/8'" in note and "what made its pen" in note
    part = {"weapon": "Medium mortar", "shots": 1, "hits": 3, "needs": 2, "hit_dice": [4],
            "struck": 1, "per_hit": "D6", "per_hit_dice": [3]}  # fmt: skip
    row = _at_vehicle([part], [_roll("Medium mortar", 2, [("HE (D6) pen", 2)])]).to_json()
    written = as_written_in(row, 8)
    assert written["weapons"] == [
        {k: v for k, v in part.items() if "per_hit" not in k and k != "struck"}
    ]
    assert "pen_parts" not in written["damage_rolls"][0]
    assert as_written_in(row, 9) == row
    troops = {"event": "shoot", "weapons": [part], "hits": 3, "casualties": 1}
    assert as_written_in(troops, 8) == troops  # (at troops, format 2 on has a roll of hits)


def test_shots_at_a_vehicle_after_it_was_knocked_out_are_said_not_rolled() -> None:
    """Probe accounts, finding 3: "2 shots ... : 1 hit ... -> knocked out" showed one to-hit
    die. The game rolls shot by shot and stops at a wreck; the account says so, as it does
    for hits ("(1 shot not rolled: it was out)"), with the hits too where both were left."""
    schwere = {"weapon": "Schwerefeld Projektor", "shots": 2, "hits": 1, "needs": 4,
               "hit_dice": [5]}  # fmt: skip
    out = _roll("Schwerefeld Projektor", 5, [("pen", 4)]) | {
        "damage": "full", "results": [{"roll": 6, "score": 6, "result": "knocked out"}]
    }  # fmt: skip
    event = _at_vehicle([schwere], [out], knocked_out=True)
    first, _, dice = str(describe(event, UNITS)).split("\n")
    assert first.endswith("-> knocked out (1 shot not rolled: it was out)")
    assert dice == "      dice: to hit 4+: 5 (1 hit)"
    # a 7+'s second die is no shot of its own; hits of the same shot after the knock-out too
    twice = schwere | {"needs": [6, 4], "shots": 3, "hits": 3, "hit_dice": [6, 5, 2]}
    event = _at_vehicle([twice], [out], knocked_out=True)
    first = str(describe(event, UNITS)).split("\n")[0]
    assert first.endswith("-> knocked out (its other 2 hits and 1 shot not rolled: it was out)")
    # every shot rolled, or the vehicle still running: nothing to say
    event = _at_vehicle([schwere | {"hit_dice": [5, 2]}], [out], knocked_out=True)
    assert "not rolled" not in str(describe(event, UNITS))
    assert "not rolled" not in str(describe(_at_vehicle([schwere], [out]), UNITS))


@pytest.mark.parametrize("seed", range(6))
def test_a_knocked_out_vehicles_unrolled_shots_are_those_the_game_did_not_roll(seed: int) -> None:
    """Six heavy AT gun shots at a light tank: where it is knocked out before the last,
    the to-hit dice are fewer than the shots, and the account counts the rest."""
    rules = rules_for("bolt-action-1")
    gun = plan_shot(rules, rules.weapon("Heavy AT gun"), rules.target("light tank"),
                    Situation(range_inches=20))[0]  # fmt: skip
    tally = Tally()
    state = attack_vehicle(RandomDice(seed), [Group(gun, 6)], tally)
    (part,) = weapons_fired([Group(gun, 6)], tally)
    rows = [damage_roll_json(r) for r in tally.damage_rolls]
    event = _at_vehicle([part], rows, knocked_out=state.knocked_out)
    left = 6 - len(part["hit_dice"])  # (one die a shot: no 7+ at 20")
    told = str(describe(event, UNITS))
    if left:
        assert state.knocked_out and f"({left} shot" in told and "not rolled: it was out" in told
    else:
        assert "shot not rolled" not in told and "shots not rolled" not in told


def test_a_damage_results_roll_tells_each_modifier_apart() -> None:
    """Probe accounts, finding 6: "result 1-2" for an open-topped half-track's superficial
    hit by a barrage (D6-3, and +1 for indirect fire at an open top: sheet 002) read as the
    table's range "1 to 2". Each modifier is told apart, as a massive hit's +1 was."""
    from kriegsspiel.rulesets.bolt_action.to_hit import hit_words

    words = hit_words(rules_for("bolt-action-1"))

    def told(damage: str, results: list[tuple[int, int, str]]) -> str:
        roll = _roll("Heavy howitzer", 2, [("HE (3D6) pen", 4), ("top armour", 1)]) | {
            "damage_value": 7, "damage": damage,
            "results": [{"roll": d, "score": s, "result": r} for d, s, r in results],
        }  # fmt: skip
        part = {"weapon": "Heavy howitzer", "shots": 1, "hits": 1, "hit_dice": []}
        return str(describe(_at_vehicle([part], [roll]), UNITS, words=words)).split("\n")[1]

    assert "superficial (result 1-3+1: crew stunned)" in told(
        "superficial", [(1, -1, "crew stunned")]
    )
    assert "superficial (result 5-3: immobilised)" in told("superficial", [(5, 2, "immobilised")])
    assert "full (result 3+1: knocked out)" in told("full", [(3, 4, "knocked out")])
    assert "full (result 5: immobilised)" in told("full", [(5, 5, "immobilised")])
    assert "(results 3+1: knocked out, 2+1: on fire)" in told(
        "massive", [(3, 4, "knocked out"), (2, 3, "on fire")]
    )
