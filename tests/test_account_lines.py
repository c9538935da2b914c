"""The account's lines for what a referee checks: a barrage or air strike delayed a turn
told under the turn it comes back in, naming its caller; close quarters round by round
(each side's casualties, the Konflikt '47 loser's morale check, the attacker's choice);
hits an HE (or flamethrower) hit multiplied; an order test's needs at the edges."""

from __future__ import annotations

import itertools
from functools import cache
from types import SimpleNamespace
from typing import Any

import pytest

from kriegsspiel.core.game import Event
from kriegsspiel.core.procedure import RandomDice
from kriegsspiel.render.game_account import account, describe
from kriegsspiel.rulesets.bolt_action import rules_for
from kriegsspiel.rulesets.bolt_action.assault import close_quarters, fighting_side
from kriegsspiel.rulesets.bolt_action.game.close_quarters import round_json
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.sim.matchup import build_matchup, play_game

UNITS = [
    SimpleNamespace(name="Forward Observer", side=0),
    SimpleNamespace(name="1st Section", side=0),
    SimpleNamespace(name="2nd Grenadier Squad", side=1),
]


def test_a_delayed_barrage_is_told_under_the_turn_it_comes_back_in_naming_its_caller() -> None:
    events = [
        Event("draw", {"turn": 1, "side": 0}),
        Event("order", {"turn": 1, "unit": 0, "order": "Fire", "target": 2, "choice": "barrage"}),
        Event("barrage", {"turn": 1, "side": 0, "roll": 2, "effect": "delay", "caller": 0}),
        Event("turn end", {"turn": 1, "score": [0, 0]}),
        Event(
            "barrage",
            {
                "turn": 2,
                "side": 0,
                "roll": 5,
                "effect": "fire for effect",
                "caller": 0,
                "again": True,
            },
        ),
        Event("fire for effect", {"turn": 2, "at": [11.0, 42.0], "radius": 12}),
        Event("draw", {"turn": 2, "side": 1}),
    ]
    assert account(events, UNITS) == [
        "Turn 1",
        "  Forward Observer [A]: calls a barrage on 2nd Grenadier Squad [B]",
        "    barrage: rolled 2 -> delay",
        "-- end of turn 1: score 0 - 0",
        "Turn 2",
        "    Forward Observer [A]'s barrage, delayed last turn, rolls again: 5 -> fire for effect",
        '    fire for effect: every unit within 12" of the target point (11", 42"): no unit within it',
        '      dice: radius D6+6: 6+6 = 12"',
    ]
    # a record of format 1 (no caller, no "again"): under its turn all the same
    old = [Event(e.kind, {k: v for k, v in e.data.items() if k not in ("caller", "again")})
           for e in events]  # fmt: skip
    assert account(old, UNITS)[3:6] == [
        "-- end of turn 1: score 0 - 0",
        "Turn 2",
        "    barrage: rolled 5 -> fire for effect",
    ]


@cache
def games(ruleset: str) -> tuple[BoltActionGame, ...]:
    matchup = build_matchup(ruleset, "meeting-engagement", [], "random,random")
    return tuple(play_game(matchup, seed) for seed in range(12))


def test_a_game_names_the_caller_of_a_call_that_comes_back_under_its_turns_heading() -> None:
    found = 0
    for game in games("bolt-action-1"):
        told = account(game.events, game.units)
        for event in game.events:
            if event.kind in ("barrage", "air strike") and event.data.get("again"):
                caller = game.units[event.data["caller"]]
                line = (
                    f"    {caller.name} [{'AB'[caller.side]}]'s {event.kind}, delayed last "
                    f"turn, rolls again: {event.data['roll']} -> {event.data['effect']}"
                )
                at = told.index(line)
                heading = max(i for i in range(at) if told[i].startswith(("Turn ", "-- end")))
                assert told[heading] == f"Turn {event.data['turn']}"
                found += 1
    assert found


# ----------------------------------------------------------------------------- close quarters
def _fight(rounds: list[dict[str, Any]], **outcome: Any) -> Event:
    return Event("close quarters", {"turn": 6, "attacker": 2, "defender": 1, **outcome,
                                    "rounds": rounds})  # fmt: skip


def test_a_fight_tells_each_rounds_casualties_and_why_the_loser_is_destroyed() -> None:
    """Bolt Action, the probe's fight: 6 attackers kill 3 of 7, lose 4, and their 2 left
    are destroyed as the side with more casualties (the line said "0 v 4 left")."""
    rounds = [{"attackers": 6, "defenders": 7, "attackers_lost": 4, "defenders_lost": 3}]
    fight = _fight(rounds, attacker_wins=False, attackers_left=0, defenders_left=4)
    assert describe(fight, UNITS) == (
        "    close quarters 2nd Grenadier Squad [B] v 1st Section [A]:\n"
        "      round 1: attackers 6 lose 4, defenders 7 lose 3\n"
        "      defenders win, 4 left (the attackers' 2 left, with more casualties, are destroyed)"
    )
    assert account([fight], UNITS)[-3:] == describe(fight, UNITS).split("\n")  # type: ignore[union-attr]
    # a record of format 1 has no rounds: the line as it was
    del fight.data["rounds"]
    assert describe(fight, UNITS) == (
        "    close quarters 2nd Grenadier Squad [B] v 1st Section [A]: defenders win (0 v 4 left)"
    )


def test_a_konflikt47_fight_tells_the_losers_check_each_round() -> None:
    rounds = [
        {"attackers": 6, "defenders": 5, "attackers_lost": 1, "defenders_lost": 3,
         "check": {"side": "defenders", "needs": 9, "roll": 6, "passed": True}},
        {"attackers": 5, "defenders": 2, "attackers_lost": 0, "defenders_lost": 1,
         "check": {"side": "defenders", "needs": 12, "roll": 12, "passed": False}},
    ]  # fmt: skip
    fight = _fight(rounds, attacker_wins=True, attackers_left=5, defenders_left=0)
    assert describe(fight, UNITS) == (
        "    close quarters 2nd Grenadier Squad [B] v 1st Section [A]:\n"
        "      round 1: attackers 6 lose 1, defenders 5 lose 3; defenders' morale check: "
        "needs 9 or less on 2D6, rolled 6 -> passed, the fight goes on\n"
        "      round 2: attackers 5 lose 0, defenders 2 lose 1; defenders' morale check: "
        "needs 12 or less on 2D6 (a double six still fails), rolled 12 -> failed\n"
        "      attackers win, 5 left (the defenders' 1 left failed their check: destroyed)"
    )


def test_the_attackers_choice_is_told_on_its_order() -> None:
    order = {"turn": 4, "unit": 2, "order": "Run", "target": 1, "choice": "point-blank"}
    assert describe(Event("order", order), UNITS) == (
        "  2nd Grenadier Squad [B]: Run assaulting 1st Section [A] (point-blank)"
    )


@pytest.mark.parametrize(
    ("ruleset", "modes"),
    [
        ("konflikt47", ("hand-to-hand", "hand-to-hand")),
        ("konflikt47", ("point-blank", "hand-to-hand")),
        ("bolt-action-1", ("hand-to-hand", "hand-to-hand")),
    ],
)
def test_the_rounds_a_fight_records_add_up_and_roll_no_die_more(
    ruleset: str, modes: tuple[str, str]
) -> None:
    """Over many seeds: a fight with its rounds written down ends as one without, on the
    same dice (the next die agrees). Each round starts with what the last left; the last
    leaves the winner's count; a round's check is the side that lost more, and passed as
    its roll says (only Konflikt '47 has one); the fight goes on from a tie or a check
    held."""
    rules = rules_for(ruleset)
    procedure = rules.data.close_quarters.procedure
    attacker = fighting_side(rules, "regular", pins=1, assault_models=0, mode=modes[0])
    defender = fighting_side(rules, "veteran", pins=0, assault_models=2, mode=modes[1])
    checks = 0
    for seed in range(300):
        plain, told, fought = RandomDice(seed), RandomDice(seed), []
        result = close_quarters(told, procedure, attacker, defender, 7, 5, fought)
        assert result == close_quarters(plain, procedure, attacker, defender, 7, 5)
        assert plain.roll(6) == told.roll(6)
        rounds = [round_json(r) for r in fought]
        d = {"attacker_wins": result.attacker_wins, "attackers_left": result.attackers_left,
             "defenders_left": result.defenders_left}  # fmt: skip
        assert (rounds[0]["attackers"], rounds[0]["defenders"]) == (7, 5)
        for before, after in itertools.pairwise(rounds):
            assert after["attackers"] == before["attackers"] - before["attackers_lost"]
            assert after["defenders"] == before["defenders"] - before["defenders_lost"]
        last = rounds[-1]
        standing = (
            last["attackers"] - last["attackers_lost"],
            last["defenders"] - last["defenders_lost"],
        )
        if d["attacker_wins"]:
            assert d["attackers_left"] == standing[0]
        elif d["defenders_left"]:
            assert d["defenders_left"] == standing[1]
        for r in rounds:
            check = r.get("check")
            if check is None:
                continue
            checks += 1
            assert ruleset == "konflikt47"
            more = "defenders" if r["defenders_lost"] > r["attackers_lost"] else "attackers"
            assert check["side"] == more
            roll = check["roll"]
            assert check["passed"] == (roll == 2 or (roll != 12 and roll <= check["needs"]))
        for r in rounds[:-1]:  # a round the fight went on from: a tie, or a check held
            assert r["attackers_lost"] == r["defenders_lost"] or r["check"]["passed"]
    assert (checks > 0) == (ruleset == "konflikt47")


# ----------------------------------------------------------------------------- HE hits
def _shot(weapons: list[dict[str, Any]], hits: int) -> Event:
    shots = sum(w["shots"] for w in weapons)
    return Event("shoot", {"turn": 3, "unit": 2, "target": 1, "shots": shots, "pins": 1,
                           "weapons": weapons, "hits": hits, "casualties": 2})  # fmt: skip


def test_hits_a_hit_multiplied_are_told_so() -> None:
    mortar = {"weapon": "Medium mortar", "shots": 1, "hits": 6, "struck": 1, "per_hit": "D6"}
    assert describe(_shot([mortar], 6), UNITS) == (
        "    1 shot (Medium mortar): 1 hit x D6 = 6 hits, 2 casualties, 1 pin on 1st Section [A]"
    )
    halved = {**mortar, "hits": 2, "per_hit": "D6 halved"}
    assert describe(_shot([halved], 2), UNITS).startswith(  # type: ignore[union-attr]
        "    1 shot (Medium mortar): 1 hit x D6 halved = 2 hits,"
    )
    gun = {"weapon": "Heavy AT gun", "shots": 1, "hits": 3, "struck": 1, "per_hit": "D3"}
    mmg = {"weapon": "MMG", "shots": 8, "hits": 6}
    assert describe(_shot([gun, mmg], 9), UNITS) == (
        "    9 shots (Heavy AT gun 1, MMG 8): 9 hits (Heavy AT gun 1 hit x D3 = 3, MMG 6), "
        "2 casualties, 1 pin on 1st Section [A]"
    )
    missed = {**mortar, "hits": 0, "struck": 0}
    assert describe(_shot([missed], 0), UNITS).startswith(  # type: ignore[union-attr]
        "    1 shot (Medium mortar): 0 hits, 2 casualties"
    )


def test_a_game_records_the_hits_that_were_multiplied() -> None:
    """A weapon's ``struck`` hits, each rolled up to its ``per_hit``, make its hits."""
    from kriegsspiel.core.dice import DiceExpr

    seen = 0
    for game in games("bolt-action-1"):
        for e in game.events:
            for w in e.data.get("weapons", []) if e.kind == "shoot" and "hits" in e.data else []:
                if "struck" not in w:
                    continue
                per_hit = DiceExpr(w["per_hit"].removesuffix(" halved"))
                most = w["struck"] * per_hit.most
                assert w["struck"] <= w["shots"] and w["hits"] <= most
                seen += w["struck"] > 0
    assert seen


# ----------------------------------------------------------------------------- order tests
@pytest.mark.parametrize(
    ("needs", "roll", "result", "line"),
    [
        (12, 12, "friendly fire", "needs 12 or less on 2D6 (a double six still fails), rolled 12"),
        (13, 11, "pass", "needs 13 or less on 2D6 (a double six still fails), rolled 11"),
        (0, 2, "pass", "needs 0 or less on 2D6 (only a double one passes), rolled 2"),
        (1, 5, "fail", "needs 1 or less on 2D6 (only a double one passes), rolled 5"),
        (7, 5, "pass", "needs 7 or less on 2D6, rolled 5"),
    ],
)
def test_an_order_tests_needs_at_the_edges_say_what_the_doubles_do(
    needs: int, roll: int, result: str, line: str
) -> None:
    data = {"turn": 2, "unit": 1, "needs": needs, "result": result, "roll": roll}
    if roll == 12:
        data["fubar_roll"] = 1
    said = describe(Event("order test", data), UNITS)
    assert said is not None and said.startswith(f"    order test: {line}")
    # (a failed test loses the order: the unit goes Down, and the line says so)
    assert said.endswith(f"-> {result}" + (": it goes Down instead" if result == "fail" else ""))


def test_a_delayed_barrages_marker_stays_where_the_target_stood() -> None:
    """Sheet 002's delay lets the caller move the marker up to 12"; the engine never does
    (docs/rules, "Barrage delay: the marker"): the barrage comes back where the target
    stood when it was called, though it has moved since. The account tells it under the
    turn it comes back in, naming its caller."""
    from test_game_rules import _observer_game, _retain, place

    from kriegsspiel.core.procedure import ScriptedDice
    from kriegsspiel.rulesets.bolt_action.game.actions import Action

    game, observer, target = _observer_game()
    called_at = target.anchor
    game.dice = ScriptedDice([2])  # delay
    game.apply_action(Action("draw", side=0))
    game.apply_action(
        Action("order", unit=observer.uid, order="Fire", target=target.uid, choice="barrage")
    )
    place(target, 50, 40)  # it moves off
    game.dice = ScriptedDice([4, 1] + [1] * 10)  # comes back: fire for effect, 7"
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=1, order="Down"))
    game.apply_action(Action("draw", side=1))
    game.apply_action(Action("order", unit=target.uid, order="Down"))
    for uid in sorted((1, target.uid)):
        _retain(game, uid, "return")
    fire = next(e for e in game.events if e.kind == "fire for effect")
    assert fire.data["at"] == [round(called_at.x, 2), round(called_at.y, 2)]
    told = account(game.events, game.units)
    at = told.index(
        "    Forward Observer [A]'s barrage, delayed last turn, rolls again: 4 -> fire for effect"
    )
    assert told[at - 1] == "Turn 2" and told[at - 2].startswith("-- end of turn 1")


@pytest.mark.parametrize(
    ("heading", "said"),
    [(1.0, "then facing 1°"), (90.0, "then facing 90°"), (359.6, "then facing 0°")],
)
def test_a_vehicles_end_facing_is_told_as_the_tables_print_a_heading(
    heading: float, said: str
) -> None:
    """'then facing 1 degrees' read oddly: a heading is told as the units table prints it,
    in whole degrees under 360."""
    order = {"turn": 6, "unit": 1, "order": "Advance", "to": [59.0, 18.0], "facing": heading}
    told = describe(Event("order", order), UNITS)
    assert told == f'  1st Section [A]: Advance to (59", 18") {said}'


@pytest.mark.parametrize("kind", ["air strike pins", "barrage pins"])
@pytest.mark.parametrize(("pins", "said"), [(0, "takes no pins"), (1, "takes 1 pin"),
                                            (2, "takes 2 pins")])  # fmt: skip
def test_a_support_strikes_pins_are_told_none_when_none(kind: str, pins: int, said: str) -> None:
    """An air strike's D3-1 pins may come to 0: 'takes 0 pins' read oddly."""
    told = describe(Event(kind, {"turn": 2, "unit": 2, "pins": pins}), UNITS)
    assert told is not None and told.split("\n")[0] == f"    2nd Grenadier Squad [B] {said}"


@pytest.mark.parametrize("kind", ["barrage", "air strike"])
def test_a_delayed_call_comes_in_after_its_observer_fell_and_the_account_says_so(
    kind: str,
) -> None:
    """No sheet says whether a delayed barrage or air strike outlives its caller (sheet
    002: "Roll again ... next turn"): the call stands (docs/rules, "A call outlives its
    observer"), for both alike. The solo probe's account then named the dead observer's
    strike as if he still stood; it now says it was called before its observer fell. A
    call whose observer still stands is told as before."""
    from test_game_rules import _observer_game, _retain, new_game, only, place

    from kriegsspiel.core.procedure import ScriptedDice
    from kriegsspiel.core.table import Table
    from kriegsspiel.rulesets.bolt_action.game.actions import Action

    def played(fall: bool) -> list[str]:
        if kind == "barrage":
            game, observer, target = _observer_game()
            friend, delay, comes = game.units[1], 2, [4, 1] + [1] * 10
        else:
            game = new_game("bolt-action-1")
            game.table = Table(72, 48)
            observer = next(u for u in game.units if u.name == "Air Observer")
            target = next(u for u in game.units if u.name == "1st Section")
            friend = next(u for u in game.units if u.name == "2nd Grenadier Squad")
            only(game, observer.uid, target.uid, friend.uid)
            place(observer, 20, 42, 180)
            place(friend, 60, 42, 180)
            place(target, 20, 20, 0)
            delay, comes = 2, [4, 3, 1, 1, 1, 1, 5, 2, 6]
        game.dice = ScriptedDice([delay])
        game.apply_action(Action("draw", side=observer.side))
        game.apply_action(
            Action("order", unit=observer.uid, order="Fire", target=target.uid, choice=kind)
        )
        if fall:
            game.destroy(observer, "test")
        game.dice = ScriptedDice(comes)
        for unit in (friend, target):
            game.apply_action(Action("draw", side=unit.side))
            game.apply_action(Action("order", unit=unit.uid, order="Down"))
        for uid in sorted((friend.uid, target.uid)):
            _retain(game, uid, "return")
        again = [e for e in game.events if e.kind == kind and e.data.get("again")]
        assert len(again) == 1 and again[0].data["effect"] != "delay"  # it came in
        return [line for line in account(game.events, game.units) if "rolls again" in line]

    name = "Forward Observer [A]" if kind == "barrage" else "Air Observer [B]"
    fell = played(fall=True)
    assert len(fell) == 1
    assert fell[0].startswith(
        f"    {name}'s {kind}, called before its observer fell, delayed last turn, rolls again"
    )
    stood = played(fall=False)
    assert stood[0].startswith(f"    {name}'s {kind}, delayed last turn, rolls again")
