"""The checks an attack's target makes within it, recorded as events of their own (format
2 on) and told in the account: a vehicle's crew when it catches fire, a unit after a
flamethrower's hit, an automaton's D6 to ignore Crew stunned. Recording them draws no die
more and none in another order; a record of format 1, which has no such events, still
replays (its replay passes them over)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from test_game_rules import new_game, only, place
from test_record_rolls import format_1

from kriegsspiel.core.game import Event
from kriegsspiel.core.procedure import RandomDice
from kriegsspiel.core.records import write_record
from kriegsspiel.render.game_account import account, describe
from kriegsspiel.rulesets.bolt_action import rules_for
from kriegsspiel.rulesets.bolt_action.attack import TroopsContext, attack_troops, attack_vehicle
from kriegsspiel.rulesets.bolt_action.game import record
from kriegsspiel.rulesets.bolt_action.game.record_events import (
    ADDED_KINDS,
    EVENTS,
)
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.morale import new_test
from kriegsspiel.rulesets.bolt_action.shooting import plan_shot
from kriegsspiel.rulesets.bolt_action.shot import Group, Situation
from kriegsspiel.rulesets.bolt_action.vehicle_damage import Tally
from kriegsspiel.sim.matchup import build_matchup, play_game

CHECKS = ("on fire check", "flamethrower check", "automaton check")


def _vehicle_groups(weapon: str, target: str, **situation: Any) -> list[Group]:
    rules = rules_for("konflikt47")
    shot, _ = plan_shot(
        rules, rules.weapon(weapon), rules.target(target), Situation(range_inches=5, **situation)
    )
    return [Group(shot, 2)]


def _passes(check: Any) -> bool:
    if check.kind == "automaton check":
        return check.roll >= check.needs
    return check.roll == 2 or (check.roll != 12 and check.roll <= check.needs)


def test_writing_the_checks_down_rolls_the_same_dice_and_they_decide_as_recorded() -> None:
    """Over many seeds, an attack with a tally ends as one without, having drawn the same
    dice (the next die agrees); each check it wrote down passed as its roll says, and every
    kind of check turns up."""
    rules = rules_for("konflikt47")
    attacks = [
        ("vehicle", _vehicle_groups("bazooka", "medium tank", target_pins=2)),
        ("vehicle", _vehicle_groups("bazooka", "medium tank", automaton=True)),
        ("vehicle", _vehicle_groups("infantry flamethrower", "light tank", target_pins=1)),
        ("troops", _vehicle_groups("infantry flamethrower", "regular infantry", target_pins=1)),
    ]
    ctx = TroopsContext(models=6, morale=new_test(rules, "regular", pins=1), pins_per_attack=1)
    seen: set[str] = set()
    for kind, groups in attacks:
        for seed in range(150):
            plain, told, tally = RandomDice(seed), RandomDice(seed), Tally()
            if kind == "vehicle":
                assert attack_vehicle(plain, groups) == attack_vehicle(told, groups, tally)
            else:
                assert attack_troops(plain, groups, ctx) == attack_troops(told, groups, ctx, tally)
            assert plain.roll(6) == told.roll(6)
            for check in tally.checks:
                assert check.passed == _passes(check), check
                seen.add(check.kind)
    assert seen == set(CHECKS)


def _attack_until(game: BoltActionGame, kind: str, attack: Any) -> list[Event]:
    """The events of the first seed's attack that brings a check of ``kind``."""
    for seed in range(400):
        twin = game.clone()
        twin.dice = RandomDice(seed)
        start = len(twin.events)
        attack(twin)
        events = list(twin.events[start:])
        if any(e.kind == kind for e in events):
            return events
    raise AssertionError(f"no {kind} in 400 seeds")


def test_a_flamethrowers_check_is_an_event_after_the_shot_and_a_line_of_the_account() -> None:
    game = new_game()
    only(game, 1, 10)
    squad, flamer = game.units[10], game.units[1]
    place(squad, 20, 44)
    place(flamer, 20, 36)
    groups = [Group(_vehicle_groups("infantry flamethrower", "regular infantry")[0].shot, 1)]
    events = _attack_until(game, "flamethrower check", lambda g: g.resolve_attack(
        g.units[1], g.units[10], groups))  # fmt: skip
    shot, check = events[0], events[1]
    assert (shot.kind, check.kind) == ("shoot", "flamethrower check")
    d = check.data
    assert d["unit"] == squad.uid and d["needs"] == 9 - shot.data["pins"]  # regular, its pins
    EVENTS[check.kind].model_validate_json(json.dumps(check.to_json()))
    result = "passed" if d["passed"] else "failed"
    assert describe(check, game.units) == (
        f"    morale check for {squad.name} [{'AB'[squad.side]}] after a flamethrower: needs {d['needs']} or "
        f"less on 2D6, rolled {d['roll']} -> {result}"
    )
    if not d["passed"]:
        assert any(e.kind == "destroyed" and e.data["unit"] == squad.uid for e in events)


def test_a_vehicles_on_fire_check_is_an_event_and_a_line_of_the_account() -> None:
    game = new_game("bolt-action-1")
    only(game, 8, 19)
    sherman, panzer = game.units[8], game.units[19]
    place(sherman, 33, 10, 0)
    place(panzer, 33, 40, 180)
    groups = game.shooting_groups(panzer, sherman, moving=False)
    events = _attack_until(game, "on fire check", lambda g: g.resolve_attack(
        g.units[19], g.units[8], groups))  # fmt: skip
    check = next(e for e in events if e.kind == "on fire check")
    d = check.data
    assert events[0].kind == "shoot" and events[0].data["on_fire"]
    assert d["unit"] == sherman.uid and events.index(check) == 1
    knocked_out = events[0].data["knocked_out"]
    result = "passed: the fire is out" if d["passed"] else "failed: knocked out"
    if d["passed"] and not knocked_out:
        result += "; halted, Down"  # (sheets 001, 002)
    assert describe(check, game.units, out_after=knocked_out) == (
        f"    {sherman.name} [{'AB'[sherman.side]}] is on fire: its crew's morale check needs {d['needs']} or "
        f"less on 2D6, rolled {d['roll']} -> {result}"
    )
    assert knocked_out or d["passed"]  # a failed check knocks it out


def test_an_automatons_roll_is_told() -> None:
    event = Event("automaton check", {"turn": 2, "unit": 1, "needs": 4, "roll": 3, "passed": False})
    EVENTS[event.kind].model_validate_json(json.dumps(event.to_json()))
    game = new_game()
    name = f"{game.units[1].name} [{'AB'[game.units[1].side]}]"
    assert describe(event, game.units) == (
        f"    {name}, an automaton, ignores Crew stunned on 4+: rolled 3 -> stunned"
    )
    event.data["roll"], event.data["passed"] = 5, True
    assert describe(event, game.units).endswith("rolled 5 -> ignores it")  # type: ignore[union-attr]


# ----------------------------------------------------------------------------- format 1
@cache
def record_with_checks() -> str:
    """The record of a short game (random players) that holds a check event."""
    import tempfile

    for seed in range(40):
        matchup = build_matchup("konflikt47", "meeting-engagement", [], "random,random")
        game = play_game(matchup, seed)
        if any(e.kind in ADDED_KINDS[2] for e in game.events):
            texts = (matchup.armies[0].text, matchup.armies[1].text)
            head = record.header(game, matchup.scenario.text, texts, matchup.players)
            with tempfile.TemporaryDirectory() as folder:
                return write_record(Path(folder, "game.jsonl"), head, game.events)
    raise AssertionError("no game with a check in 40 seeds")


def test_a_format_1_record_lacks_the_check_events_and_its_replay_passes_them_over(
    tmp_path: Path,
) -> None:
    text = record_with_checks()
    old = format_1(text)
    assert not any(f'"event":"{kind}"' in old for kind in CHECKS)
    assert len(old.splitlines()) < len(text.splitlines())
    path = tmp_path / "old.jsonl"
    path.write_text(old, encoding="utf-8")
    result = record.replay(path)
    assert result.reproduced and result.finished and result.older_format
    # a line cut from the end of it is still found missing (the count passes them over)
    rows = old.splitlines()
    path.write_text("\n".join(rows[:-1]) + "\n", encoding="utf-8")
    short = record.replay(path)
    assert short.reproduced and not short.finished
    # ... and a record of format 2 that lacks a check line parts from its replay there
    new = text.splitlines()
    at = next(i for i, r in enumerate(new) if json.loads(r).get("event") in CHECKS)
    path.write_text("\n".join(new[:at] + new[at + 1 :]) + "\n", encoding="utf-8")
    parted = record.replay(path)
    assert not parted.reproduced and parted.first_difference == at + 1


def test_the_account_of_a_replayed_format_1_record_tells_the_checks(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_text(format_1(record_with_checks()), encoding="utf-8")
    result = record.replay(path)
    assert result.game is not None
    told = account(list(result.game.events), result.game.units)
    assert any(" is on fire: " in line or "after a flamethrower" in line or "automaton" in line
               for line in told)  # fmt: skip


@pytest.mark.parametrize("kind", CHECKS)
def test_a_check_line_is_read_strictly(kind: str) -> None:
    from pydantic import ValidationError

    good = {"event": kind, "turn": 1, "unit": 3, "needs": 7, "roll": 8, "passed": False}
    EVENTS[kind].model_validate_json(json.dumps(good))
    for bad in ({"roll": "8"}, {"passed": 0}, {"why": "x"}, {"roll": 13}):
        with pytest.raises(ValidationError):
            EVENTS[kind].model_validate_json(json.dumps({**good, **bad}))
