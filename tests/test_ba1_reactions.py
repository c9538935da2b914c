"""Bolt Action 1st edition's reactions ("target reacts", sheet 002): a unit shot at before
its order may go Down, and a recce vehicle shot at or assaulted may escape; assaulted
troops only fight (docs/rules/bolt-action-1.md, Reactions)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from test_game_bolt_action import played_record
from test_game_rules import new_game, only, place

from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.bolt_action_tactics.reactions import down_saves, down_worth_it
from kriegsspiel.core.procedure import ScriptedDice
from kriegsspiel.core.records import read_lines
from kriegsspiel.core.table import Point, Table
from kriegsspiel.rulesets.bolt_action.edition import rules_for
from kriegsspiel.rulesets.bolt_action.game import record
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame

SECTION, GRENADIERS = 1, 12  # the British 1st Section; the 1st Grenadier Squad


def _fire_at_grenadiers(**target: object) -> BoltActionGame:
    """The 1st Section, drawn, fires at the Grenadiers 9" away (every man of each within
    6"-12" of the other: no point blank, no long range), the Grenadiers set as ``target``
    says (an order, a kept die); nothing else on an empty table."""
    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    for key, value in target.items():
        setattr(game.units[GRENADIERS], key, value)
    only(game, SECTION, GRENADIERS)  # (a die kept is not put in the cup)
    place(game.units[SECTION], 36, 20, 0)
    place(game.units[GRENADIERS], 36, 30, 180)
    game.dice = ScriptedDice([3] * 60)  # every to-hit roll a 3, every damage roll a 3
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=SECTION, order="Fire", target=GRENADIERS))
    return game


def test_the_editions_reactions() -> None:
    """Each edition's reactions, asked by the game where they apply: Bolt Action 1st
    edition plays the Down reaction and the recce escape, not Konflikt '47's assault
    reactions (stand and fire, escape)."""
    ba1, k47 = rules_for("bolt-action-1"), rules_for("konflikt47")
    assert (ba1.down_reaction, ba1.recce_escape, ba1.assault_reactions) == (True, True, False)
    assert (k47.down_reaction, k47.recce_escape, k47.assault_reactions) == (True, True, True)
    assert ba1.has_reactions and k47.has_reactions  # (some reaction: a die out of turn)
    # the play aid offers each unit the dice the game's reactions take (one rule module)
    from kriegsspiel.rulesets.bolt_action.reactions import dice_faces

    squad = {"vehicle": False, "recce": False, "immobilised": False, "unordered": True}
    recce = {**squad, "vehicle": True, "recce": True}
    assert dice_faces(ba1, **squad) == ("Down",)
    assert dice_faces(k47, **squad) == ("Down", "Run", "Fire")
    # a recce vehicle's escape: Bolt Action's leaves it Down, Konflikt '47's shows its Run
    assert dice_faces(ba1, **recce) == ("Down",) and dice_faces(k47, **recce) == ("Run",)
    assert dice_faces(ba1, **{**squad, "unordered": False}) == ()
    assert dice_faces(ba1, **{**recce, "recce": False}) == ()


def test_a_unit_without_an_order_shot_at_may_go_down_with_its_die() -> None:
    """The target, with no order yet, is asked (its side decides: none or down); going
    Down uses its die: Down is its order this turn and its die leaves the cup."""
    game = _fire_at_grenadiers()
    assert game.pending is not None and game.pending.kind == "shot-reaction"
    assert game.current_player() == 1
    assert [a.choice for a in game.legal_actions()] == ["none", "down"]
    cup = game.dice_in_cup()[1]
    game.apply_action(Action("react", side=1, unit=GRENADIERS, choice="down"))
    grenadiers = game.units[GRENADIERS]
    assert grenadiers.order == "Down" and grenadiers not in game.eligible(1)
    assert game.dice_in_cup()[1] == cup - 1


@pytest.mark.parametrize(
    "target",
    [
        {"order": "Advance"},  # ordered already this turn
        {"retained": "Down"},  # a Down die kept from the last turn
        {"retained": "Ambush"},  # an Ambush die kept from the last turn
    ],
)
def test_only_a_unit_with_no_order_and_no_die_kept_may_go_down(target: dict[str, object]) -> None:
    """A unit that has its die out already (given this turn, or kept Down or Ambush from
    the last) is not asked: the shooting goes on at once."""
    game = _fire_at_grenadiers(**target)
    kinds = [e.kind for e in game.events]
    assert "shoot" in kinds and "react" not in kinds


def test_going_down_takes_one_off_that_shots_hits() -> None:
    """Every to-hit roll a 3: standing, the Section's rifles and LMG hit with each shot
    (3+; its SMG, at long range at 9", needs 4+); Down, each needs one more and every
    shot misses, so no pin either."""
    shots = {}
    for choice in ("none", "down"):
        game = _fire_at_grenadiers()
        game.apply_action(Action("react", side=1, unit=GRENADIERS, choice=choice))
        shots[choice] = next(e.data for e in game.events if e.kind == "shoot")
    standing = {w["weapon"]: (w["shots"], w["hits"]) for w in shots["none"]["weapons"]}
    assert standing["Rifle"] == (8, 8) and standing["Light machine gun (LMG)"] == (3, 3)
    assert standing["Sub-machine gun (SMG)"] == (2, 0)
    assert shots["down"]["shots"] == shots["none"]["shots"] == 13
    assert shots["down"]["hits"] == 0 and shots["down"]["pins"] == 0


CARRIER, PANZERSCHRECK, PAK = 7, 16, 17  # the Universal Carrier (recce); two German guns


def _fire_at_carrier(
    shooter: int = PANZERSCHRECK, ruleset: str = "bolt-action-1", **carrier: object
) -> BoltActionGame:
    """``shooter``, drawn, fires at the recce vehicle 18" away (the Universal Carrier; in
    Konflikt '47 the Panzer IV made recce, shot at by the Bazooka team), the vehicle
    facing it, set as ``carrier`` says; on an empty table but for the shooter's Platoon
    HQ, far off and still to be ordered (so the turn goes on)."""
    game = new_game(ruleset)
    game.table = Table(72, 48)
    vehicle, hq = (CARRIER, 11) if ruleset == "bolt-action-1" else (8, 9)
    target = game.units[vehicle]
    assert target.vehicle is not None
    target.vehicle = replace(target.vehicle, recce=True)
    for key, value in carrier.items():
        setattr(target, key, value)
    only(game, shooter, vehicle, hq)
    place(game.units[hq], 6, 6, 0)
    place(game.units[shooter], 36, 12, 0)
    place(target, 36, 30, 180)
    game.dice = ScriptedDice([3] * 60)
    shooting_side = game.units[shooter].side
    game.apply_action(Action("draw", side=shooting_side))
    game.apply_action(Action("order", unit=shooter, order="Fire", target=vehicle))
    return game


@pytest.mark.parametrize(
    ("carrier", "asked"),
    [
        ({}, True),  # a recce vehicle with no order yet
        ({"vehicle": "tank"}, False),  # any other vehicle
        ({"order": "Advance"}, False),  # ordered already this turn
        ({"retained": "Down"}, False),  # a Down die kept from the last turn
        ({"immobilised": True}, False),  # it cannot move
    ],
)
def test_a_vehicle_shot_at_does_not_go_down_and_only_a_recce_vehicle_may_escape(
    carrier: dict[str, object], asked: bool
) -> None:
    """Vehicles take no Down reaction; a recce vehicle shot at before its order, with no
    die kept and able to move, may escape (the recce rule: "If fired at or assaulted can
    attempt to Escape"), its side asked none or escape; any other shoots at once."""
    tank = carrier.pop("vehicle", None) == "tank"
    game = _fire_at_carrier(**carrier)
    if tank:  # (the carrier as a plain vehicle: the shot is declared again at it)
        game = new_game("bolt-action-1")
        game.table = Table(72, 48)
        plain = game.units[CARRIER]
        assert plain.vehicle is not None
        plain.vehicle = replace(plain.vehicle, recce=False)
        only(game, PANZERSCHRECK, CARRIER, 11)
        place(game.units[11], 6, 6, 0)
        place(game.units[PANZERSCHRECK], 36, 12, 0)
        place(plain, 36, 30, 180)
        game.apply_action(Action("draw", side=1))
        game.apply_action(Action("order", unit=PANZERSCHRECK, order="Fire", target=CARRIER))
    asked_now = game.pending is not None and game.pending.kind == "shot-reaction"
    assert asked_now == asked
    if asked:
        assert [a.choice for a in game.legal_actions()] == ["none", "escape"]
    else:
        assert any(e.kind in ("shoot", "no shot") for e in game.events)


@pytest.mark.parametrize(
    ("ruleset", "shooter", "shown", "shot"),
    [
        ("bolt-action-1", PANZERSCHRECK, "Down", "no shot"),  # 24": out of range after it
        ("bolt-action-1", PAK, "Down", "shoot"),  # 72": still in range
        ("konflikt47", 14, "Run", "no shot"),  # the Bazooka, 24"
    ],
)
def test_a_recce_vehicle_shot_at_escapes_before_the_shot_and_its_die_shows_the_editions_order(
    ruleset: str, shooter: int, shown: str, shot: str
) -> None:
    """The golden situation: the shot is declared 18" away, the recce vehicle escapes
    first, reversing straight back (it faces the shooter: a tracked vehicle cannot turn
    about on a Run) its full Advance, 9"; the shot is then fired at it where it stands,
    27" away: beyond the Panzerschreck's 24" it is no shot, within the PaK 40's 72" it is
    fired. Its die shows Down in Bolt Action ("as if it had failed an order test": halted,
    so it counts as not having moved), the escape's Run in Konflikt '47."""
    from kriegsspiel.rulesets.bolt_action.reactions import vehicle_move_shown

    game = _fire_at_carrier(shooter, ruleset)
    vehicle = game.pending.target if game.pending else -1
    side = game.units[vehicle].side
    cup = game.dice_in_cup()[side]
    game.apply_action(Action("react", side=side, unit=vehicle, choice="escape"))
    carrier = game.units[vehicle]
    assert carrier.anchor == Point(36, 39) and carrier.heading == 180  # reversed 9"
    assert carrier.order == shown and carrier.moved == vehicle_move_shown(shown)
    assert game.dice_in_cup()[side] == cup - 1 and carrier not in game.eligible(side)
    kinds = [e.kind for e in game.events]
    assert kinds[kinds.index("react") :][:4] == ["react", "move", "escape", shot]
    move = next(e.data for e in game.events if e.kind == "move" and e.data["unit"] == vehicle)
    assert move["reverse"] is True and move["run"] is False


@pytest.mark.parametrize("ambush", ["fire", "hold"])
def test_ambushers_may_fire_at_a_recce_vehicle_where_its_escape_ends_then_the_shot_follows(
    ambush: str,
) -> None:
    """The escape is a move: the MG 42 team, on an Ambush die kept from the last turn, may
    fire at the carrier where it ends (or hold), and then the declared shot is fired (the
    Panzerschreck's: out of its range, no shot)."""
    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    game.units[14].retained = "Ambush"
    only(game, PANZERSCHRECK, CARRIER, 11, 14)
    place(game.units[11], 6, 6, 0)
    place(game.units[14], 60, 39, 270)
    place(game.units[PANZERSCHRECK], 36, 12, 0)
    place(game.units[CARRIER], 36, 30, 180)
    game.dice = ScriptedDice([3] * 60)
    game.apply_action(Action("draw", side=1))
    game.apply_action(Action("order", unit=PANZERSCHRECK, order="Fire", target=CARRIER))
    game.apply_action(Action("react", side=0, unit=CARRIER, choice="escape"))
    assert game.pending is not None and game.pending.kind == "ambush"
    assert game.pending.target == CARRIER and game.pending.ambushers == (14,)
    choice = next(a for a in game.legal_actions() if a.choice == ambush)
    game.apply_action(choice)
    kinds = [e.kind for e in game.events]
    tail = kinds[kinds.index("escape") :]
    fired = ["ambush", "shoot"] if ambush == "fire" else ["ambush"]
    assert tail[: len(fired) + 1] == ["escape", *fired]
    assert tail[-1] == "no shot" and "no shot" not in tail[:-1]
    assert game.events[-1].data["unit"] == PANZERSCHRECK


@pytest.mark.parametrize(("shooter", "reaction"), [(PANZERSCHRECK, "escape"), (PAK, "none")])
def test_the_ai_drives_a_recce_vehicle_off_when_the_escape_saves_more_than_its_best_order(
    shooter: int, reaction: str
) -> None:
    """The tactical player weighs the escape as it weighs going Down, by where the escape
    would leave the vehicle: away from the Panzerschreck, out of its 24", it escapes;
    the PaK 40 still reaches it 27" away, so the escape saves little and it stays up."""
    game = _fire_at_carrier(shooter)
    assert TacticalPlayer().choose(game.clone()).choice == reaction


def test_a_person_whose_recce_vehicle_is_shot_at_is_told_where_the_escape_leaves_it() -> None:
    """Playing solo, the carrier's owner sees the escape as the game plays it (how it
    drives, the Down it ends in, then the shot) and the shooting each choice would take:
    standing, the Panzerschreck's shot; escaped, out of its range, none."""
    from test_solo import answers, quiet_console

    from kriegsspiel.solo.human import HumanPlayer

    game = _fire_at_carrier()
    console = quiet_console()
    action = HumanPlayer(console, answers("2")).choose(game)
    assert action == Action("react", side=0, unit=CARRIER, choice="escape")
    out = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert 'none: take the fire (18.0": 1 shot of Panzerschreck needing' in out
    assert (
        "escape: drive straight away from the shooters, a Run forward where it can turn so, "
        "else reversing at its Advance rate; its die then shows Down (another assault this "
        "turn hits it on 4+), and then the shot (no shot)"
    ) in out


@pytest.mark.parametrize(("uid", "reaction"), [(14, "none"), (15, "down")])
def test_the_ai_goes_down_in_bolt_action_when_that_saves_more_than_its_best_order(
    uid: int, reaction: str
) -> None:
    """The tactical player weighs the Down reaction as in Konflikt '47: the MG 42 team,
    whose own shot would take more than Down saves, stays up; the mortar, 9" from the
    only enemy (inside its least range: no shot of its own, and in a game won by units
    destroyed no objective to move to), goes Down."""
    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    only(game, SECTION, uid)
    squad, target = game.units[SECTION], game.units[uid]
    place(squad, 36, 20, 0)
    place(target, 36, 29, 180)
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=SECTION, order="Fire", target=uid))
    assert game.pending is not None and game.pending.kind == "shot-reaction"
    player = TacticalPlayer()
    danger = player.damage(game, squad, target, moving=False)
    assert danger >= 0.25 * target.points
    saves = down_saves(game, squad, target, False, danger)
    assert 0 < saves < danger and target.order is None
    assert down_worth_it(player, game, target, saves) == (reaction == "down")
    assert player.choose(game).choice == reaction


def test_assaulted_troops_fight_at_once() -> None:
    """Troops assaulted are not asked (what the 1st edition lets them do besides fight is
    not known): the fight follows hand-to-hand, though they have no order yet."""
    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    only(game, SECTION, GRENADIERS)
    place(game.units[SECTION], 36, 20, 0)
    place(game.units[GRENADIERS], 36, 28, 180)
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=SECTION, order="Run", target=GRENADIERS))
    assert game.pending is None
    assert any(e.kind == "close quarters" for e in game.events)


def test_a_recce_vehicle_without_an_order_may_escape_an_assault() -> None:
    """The Universal Carrier (recce), assaulted before its order, stays or escapes; it
    drives away. A tank in its place, or the carrier with its die out, is not asked."""
    for tank, retained, asked in (False, None, True), (True, None, False), (False, "Down", False):
        game = new_game("bolt-action-1")
        game.table = Table(72, 48)
        carrier, squad = game.units[7], game.units[GRENADIERS]
        assert carrier.vehicle is not None and carrier.vehicle.recce
        if tank:
            carrier.vehicle = replace(carrier.vehicle, recce=False)
        carrier.retained = retained
        only(game, GRENADIERS, 7)
        place(carrier, 30, 16, 0)
        place(squad, 30, 24, 180)
        game.dice = ScriptedDice([1, 1] + [3] * 30)  # the order test (-3, no AT weapon): 1, 1
        game.apply_action(Action("draw", side=1))
        game.apply_action(Action("order", unit=GRENADIERS, order="Run", target=7))
        asked_now = game.pending is not None and game.pending.kind == "assault-reaction"
        assert asked_now == asked, (tank, retained)
        if asked:
            assert {a.choice for a in game.legal_actions()} == {"stay", "escape"}
            before = carrier.anchor
            game.apply_action(Action("react", side=0, unit=7, choice="escape"))
            assert carrier.anchor.y < before.y and not carrier.destroyed


def test_a_recorded_down_reaction_replays_and_a_changed_one_is_caught(tmp_path: Path) -> None:
    """A seeded random game of Bolt Action 1st edition in which a unit went Down when shot
    at: its record replays byte for byte; the other choice put in its place parts from
    the record after it."""
    for seed in range(11, 41):
        text = played_record(
            "bolt-action-1", "hold-the-crossroads.yaml", seed, tmp_path / "a.jsonl"
        )
        lines = text.splitlines()
        found = next(
            (
                i
                for i, line in enumerate(lines)
                if json.loads(line).get("event") == "react" and '"choice":"down"' in line
            ),
            None,
        )
        if found is not None:
            break
    assert found is not None, "no game of thirty had a unit go Down when shot at"
    assert record.replay(tmp_path / "a.jsonl").reproduced
    lines[found] = lines[found].replace('"choice":"down"', '"choice":"none"')
    (tmp_path / "b.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = record.replay(tmp_path / "b.jsonl")
    assert not result.reproduced  # the choice is legal there; what follows it differs
    assert result.first_difference is not None and result.first_difference > found + 1
    head = read_lines(tmp_path / "a.jsonl").rows[0]
    assert head["ruleset"] == "bolt-action-1"


def test_a_person_shot_at_in_bolt_action_is_asked_to_go_down() -> None:
    """Playing solo, a Bolt Action 1st edition unit shot at before its order is asked, each
    choice with the shooting it would then take (Down: the harder rolls)."""
    from test_solo import answers, quiet_console

    from kriegsspiel.solo.human import HumanPlayer

    game = _fire_at_grenadiers()
    console = quiet_console()
    action = HumanPlayer(console, answers("2")).choose(game)
    assert action == Action("react", side=1, unit=GRENADIERS, choice="down")
    out = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert "none: take the fire" in out and "down: go Down" in out
    assert "8 shots of Rifle needing 3+" in out and "8 shots of Rifle needing 4+" in out


def _escaped(ruleset: str) -> tuple[BoltActionGame, int, int]:
    """A recce vehicle (the BA1 Universal Carrier; in Konflikt '47 the Panzer IV made
    recce), assaulted before its order by one squad, escapes; a second squad of that side,
    8" from where it now stands, is still to be ordered. The game, the vehicle and the
    second squad."""
    game = new_game(ruleset)
    game.table = Table(72, 48)
    vehicle, first, second = (7, 12, 13) if ruleset == "bolt-action-1" else (8, 10, 11)
    carrier = game.units[vehicle]
    assert carrier.vehicle is not None
    carrier.vehicle = replace(carrier.vehicle, recce=True)
    only(game, vehicle, first, second)
    place(carrier, 30, 24, 180)
    place(game.units[first], 30, 16, 0)
    place(game.units[second], 50, 40, 0)
    game.dice = ScriptedDice([1, 1] + [3] * 60)  # the order tests: double 1s
    game.apply_action(Action("draw", side=1))
    game.apply_action(Action("order", unit=first, order="Run", target=vehicle))
    game.apply_action(Action("react", side=0, unit=vehicle, choice="escape"))
    assert carrier.anchor.y > 24 and not carrier.destroyed  # it drove away
    place(game.units[second], carrier.anchor.x, carrier.anchor.y + 8, 180)
    return game, vehicle, second


def test_a_recce_vehicle_that_escaped_is_down_in_bolt_action_and_ran_in_konflikt47() -> None:
    """After its escape a Bolt Action recce vehicle is Down, "as if it had failed an order
    test" (the recce rule): halted, so a second assault that turn hits it on 4+, as the
    play aid reads its Down die; a Konflikt '47 one shows its escape's Run, and infantry
    cannot assault a vehicle that ran (sheet 001), whether it drove at its Run rate or
    reversed at its Advance: the game offers no second assault, as the aid refuses one."""
    from kriegsspiel.rulesets.bolt_action.game.close_quarters import vehicle_assault
    from kriegsspiel.rulesets.bolt_action.reactions import vehicle_move_shown

    for ruleset, face, hit_on in ("bolt-action-1", "Down", 4), ("konflikt47", "Run", None):
        game, vehicle, second = _escaped(ruleset)
        carrier = game.units[vehicle]
        assert carrier.order == face and carrier.moved == vehicle_move_shown(face)
        if game.pending is None:  # (the draw for the next order)
            game.apply_action(Action("draw", side=1))
        offered = [
            a
            for a in game.legal_actions()
            if a.kind == "order" and a.unit == second and a.order == "Run" and a.target == vehicle
        ]
        assert bool(offered) == (hit_on is not None), ruleset
        if hit_on is not None:
            assert vehicle_assault(game, game.units[second], carrier).keywords["hit_on"] == hit_on


def test_a_person_whose_recce_vehicle_is_assaulted_sees_both_choices_as_the_rules_play_them() -> (
    None
):
    """Playing solo, the carrier's owner is told what staying risks (the exact chances of
    what the assaulters do to it once in contact, the game's own attack) and what the escape
    does: how it drives and the Down it ends in, and so how a later assault hits it; the
    choice's name is not said twice ("escape: escape:")."""
    from test_solo import answers, quiet_console

    from kriegsspiel.core.per_cent import chance_shown_whole as percent
    from kriegsspiel.core.procedure import exact
    from kriegsspiel.rulesets.bolt_action.game.close_quarters import vehicle_assault
    from kriegsspiel.solo.human import HumanPlayer

    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    carrier, squad = game.units[7], game.units[GRENADIERS]
    only(game, GRENADIERS, 7)
    place(carrier, 30, 16, 0)
    place(squad, 30, 24, 180)
    game.dice = ScriptedDice([1, 1] + [3] * 30)
    game.apply_action(Action("draw", side=1))
    game.apply_action(Action("order", unit=GRENADIERS, order="Run", target=7))
    assert game.pending is not None and game.pending.kind == "assault-reaction"
    knocked_out = exact(vehicle_assault(game, squad, carrier)).probability(lambda s: s.knocked_out)
    assert 0 < knocked_out < 1
    console = quiet_console()
    action = HumanPlayer(console, answers("2")).choose(game)
    assert action == Action("react", side=0, unit=7, choice="escape")
    out = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert "escape: escape:" not in out
    said = f"stay: stay and take the assault (once in contact: {percent(knocked_out)} to be knocked out"
    assert said in out
    assert (
        "escape: drive straight away from the assaulters, a Run forward where it can turn so, "
        "else reversing at its Advance rate; its die then shows Down (another assault this "
        "turn hits it on 4+), and no fight"
    ) in out


@pytest.mark.parametrize(("last_turn", "reaction"), [(False, "down"), (True, "none")])
def test_the_ai_weighs_going_down_against_the_best_order_it_would_give_not_only_its_shot(
    last_turn: bool, reaction: str
) -> None:
    """The Panzerschreck team, 8" from the Crossroads and shot at by the 1st Section, has
    no shot worth what Down would save it (its bazooka is for tanks): early in the game
    it goes Down; in the last turn of an objectives game, where a Run onto the objective
    would win its points, it stays up to make it (going Down gave that move up: a probe
    saw such units sit out the last turn)."""
    game = new_game("bolt-action-1", scenario=0)  # Hold the Crossroads, won on objectives
    game.table = Table(72, 48)
    team = 16
    only(game, SECTION, team)
    if last_turn:
        game.turn = game.scenario.turns
    place(game.units[team], 35.5, 32, 0)  # 8" north of the Crossroads (35.5, 24)
    place(game.units[SECTION], 35.5, 44, 180)
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=SECTION, order="Fire", target=team))
    assert game.pending is not None and game.pending.kind == "shot-reaction"
    player = TacticalPlayer()
    squad, target = game.units[SECTION], game.units[team]
    danger = player.damage(game, squad, target, moving=False)
    assert danger >= 0.25 * target.points  # dangerous fire
    saves = down_saves(game, squad, target, False, danger)
    can = game.can_shoot(target, squad, moving=False)
    shot = player.damage(game, target, squad, moving=False) if can else 0.0
    assert saves > shot  # (its own shot from where it stands is worth less: the old rule's)
    assert player.choose(game).choice == reaction
