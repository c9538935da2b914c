"""The play aid: its record of a game on a real table (bag, orders, pins, the turn's end),
its save file, its web API and its command."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest
from conftest import bernoulli_ok, out_of_turn, run_cli
from hypothesis import given
from hypothesis import strategies as st

from kriegsspiel.aid.session import AidSession
from kriegsspiel.aid.tracker import AidError, Tracker
from kriegsspiel.core.procedure import RandomDice, ScriptedDice
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action import bag
from kriegsspiel.rulesets.bolt_action.odds import order_test_odds
from kriegsspiel.sim.matchup import build_matchup, parsed, set_up_game

RULESETS = ("konflikt47", "bolt-action-1")


def new_tracker(ruleset: str, turns: int | None = None) -> Tracker:
    matchup = build_matchup(ruleset, None, [])
    scenario, army_a, army_b = parsed(matchup)
    return Tracker.start(
        ruleset, (army_a, army_b), turns or scenario.turns, victory=scenario.victory
    )


def with_die_in_hand(tracker: Tracker, side: int) -> Tracker:
    """The tracker with ``side``'s die drawn (the draw's die scripted to bring it out)."""
    weights = dict(
        bag.draw_weights(
            tracker.units,
            tracker.turn_dice,
            stay_until_turn_end=tracker.rules.destroyed_dice_stay_in_cup,
        )
    )
    roll = weights[0] + 1 if side == 1 and 0 in weights else 1
    drawn = tracker.draw(ScriptedDice([roll]))
    assert drawn.in_hand == side
    return drawn


# ----------------------------------------------------------------------------- the bag
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_first_bag_holds_a_die_for_every_unit_as_the_simulated_games_does(ruleset):
    tracker = new_tracker(ruleset)
    game = set_up_game(build_matchup(ruleset, None, []), seed=1)
    assert tracker.in_bag() == game.dice_in_cup()
    assert [u.name for u in tracker.units] == [u.name for u in game.units]
    assert [u.start_models for u in tracker.units] == [u.start_models for u in game.units]
    exact = dict((a.side, p) for a, p in game.chance_outcomes())
    assert dict(tracker.draw_chances()) == pytest.approx(exact)


def test_a_draw_comes_out_in_proportion_to_the_dice_in_the_bag():
    tracker = new_tracker("konflikt47")
    # leave side A one unit to order, side B three
    for side, keep in ((0, 1), (1, 3)):
        for unit in tracker.waiting(side)[keep:]:
            tracker = tracker.take_die(unit.uid, "Down", out_of_turn(unit))
    assert tracker.in_bag() == (1, 3)
    dice, n = RandomDice(7), 4000
    drawn = Counter(tracker.draw(dice).in_hand for _ in range(n))
    assert bernoulli_ok(drawn[0], n, 0.25)
    assert dict(tracker.draw_chances()) == {0: 0.25, 1: 0.75}


def test_a_die_drawn_from_the_players_bag_is_given_by_its_side():
    tracker = new_tracker("konflikt47")
    for unit in tracker.waiting(0)[1:]:  # side A: one unit left to order
        tracker = tracker.take_die(unit.uid, "Down", out_of_turn(unit))
    drawn = tracker.draw(ScriptedDice([]), side=0)  # (no die rolled)
    assert drawn.in_hand == 0 and drawn.in_bag() == (0, tracker.in_bag()[1])
    assert drawn.log[-1].startswith(f"Drew a die of {tracker.armies[0]} (drawn at the table; ")
    with pytest.raises(AidError, match="has a die in hand"):
        drawn.draw(ScriptedDice([]), side=1)
    gone = drawn.give_order(tracker.waiting(0)[0].uid, "Fire", outcome="pass")
    with pytest.raises(AidError, match=r"no die of .* is left in the bag .* the die drawn is "):
        gone.draw(ScriptedDice([]), side=0)
    with pytest.raises(AidError, match=r"the side drawn is 0 \(.*\) or 1 \(.*\), not 2"):
        gone.draw(ScriptedDice([]), side=2)
    assert gone.draw(ScriptedDice([]), side=1).in_hand == 1


def test_a_die_drawn_at_the_table_for_a_side_with_no_unit_left_to_order_is_refused():
    tracker = new_tracker("bolt-action-1")  # a destroyed unit's die stays in till the turn end
    last, *others = tracker.waiting(0)
    for unit in others:
        tracker = with_die_in_hand(tracker, 0).give_order(unit.uid, "Fire", outcome="pass")
    tracker = tracker.destroy(last.uid)
    assert tracker.in_bag()[0] == 1 and 0 not in dict(tracker.draw_chances())
    with pytest.raises(
        AidError,
        match=r"no unit of .* waits for an order: its 1 die left .* "
        "put it aside and draw again",
    ):
        tracker.draw(ScriptedDice([]), side=0)


def test_konflikt47_takes_a_destroyed_units_die_out_at_once():
    tracker = new_tracker("konflikt47")
    before = tracker.in_bag()
    tracker = tracker.destroy(tracker.waiting(1)[0].uid)
    assert tracker.in_bag() == (before[0], before[1] - 1)


def test_bolt_action_1_leaves_a_destroyed_units_die_in_the_bag_till_the_turn_end():
    tracker = new_tracker("bolt-action-1")
    before = tracker.in_bag()
    tracker = tracker.destroy(tracker.waiting(1)[0].uid)
    assert tracker.in_bag() == before  # still in the bag
    # every other unit ordered: the turn ends with the dead unit's die unused
    for side in (0, 1):
        for unit in tracker.waiting(side):
            tracker = with_die_in_hand(tracker, side).give_order(unit.uid, "Fire", outcome="pass")
    assert tracker.phase == "turn end"
    assert tracker.in_bag() == (0, 1)
    turn2 = tracker.end_turn()
    assert turn2.in_bag() == (before[0], before[1] - 1)


def test_a_die_in_hand_is_out_of_the_bag_until_given():
    tracker = with_die_in_hand(new_tracker("konflikt47"), 0)
    assert tracker.in_bag() == (8, 9)
    with pytest.raises(AidError, match="has a die in hand"):
        tracker.draw(RandomDice(1))


# ----------------------------------------------------------------------------- orders
def test_an_order_goes_to_a_unit_of_the_side_whose_die_is_in_hand():
    tracker = with_die_in_hand(new_tracker("konflikt47"), 0)
    enemy, own = tracker.waiting(1)[0], tracker.waiting(0)[0]
    with pytest.raises(AidError, match="die in hand is"):
        tracker.give_order(enemy.uid, "Fire", outcome="pass")
    with pytest.raises(AidError, match="unknown order 'Shoot'"):
        tracker.give_order(own.uid, "Shoot", outcome="pass")
    after = tracker.give_order(own.uid, "Advance", outcome="pass")
    assert after.units[own.uid].order == "Advance" and after.in_hand is None
    with pytest.raises(AidError, match="already has an order this turn"):
        with_die_in_hand(after, 0).give_order(own.uid, "Run", outcome="pass")
    with pytest.raises(AidError, match="no die in hand"):
        after.give_order(tracker.waiting(0)[1].uid, "Run", outcome="pass")


def test_a_unit_without_pins_takes_no_test_and_cannot_fail_one():
    tracker = with_die_in_hand(new_tracker("bolt-action-1"), 0)
    uid = tracker.waiting(0)[1].uid
    with pytest.raises(AidError, match="no pins: it takes no order test"):
        tracker.give_order(uid, "Fire", outcome="fail")
    rolled = tracker.give_order(uid, "Fire", dice=RandomDice(3))
    assert rolled.units[uid].order == "Fire" and "(no test)" in rolled.log[-1]


def test_order_test_outcomes_set_the_die_as_the_rules_say():
    start = new_tracker("konflikt47").set_pins(1, 2)
    tracker = with_die_in_hand(start, 0)
    assert tracker.give_order(1, "Advance", outcome="fail").units[1].order == "Down"
    assert tracker.give_order(1, "Advance", outcome="friendly fire").units[1].order == "Fire"
    assert tracker.give_order(1, "Advance", outcome="panic").units[1].order == "Run"
    assert tracker.give_order(1, "Advance", outcome="panic", face="Down").units[1].order == "Down"
    with pytest.raises(AidError, match="shows Run or Down, not 'Fire'"):
        tracker.give_order(1, "Advance", outcome="panic", face="Fire")
    assert tracker.give_order(1, "Rally", outcome="pass", pins_lost=5).units[1].pins == 0
    assert tracker.give_order(1, "Rally", outcome="pass", pins_lost=1).units[1].pins == 1
    with pytest.raises(AidError, match="give pins_lost"):
        tracker.give_order(1, "Rally", outcome="pass")


@pytest.mark.parametrize("d6", [0, 7, -1])
def test_a_rally_loses_a_d6_of_pins_and_no_d6_shows_0_or_7(d6):
    """Sheets 001 and 002: a Rally loses "D6 pin markers", so 1 to 6 are the rolls."""
    tracker = with_die_in_hand(new_tracker("bolt-action-1").set_pins(1, 3), 0)
    with pytest.raises(AidError, match=rf"the D6 rolled \(1-6\) \(got {d6}\)"):
        tracker.give_order(1, "Rally", outcome="pass", pins_lost=d6)
    unpinned = with_die_in_hand(new_tracker("bolt-action-1"), 0)  # no pin: no D6 asked
    assert unpinned.give_order(1, "Rally", outcome="pass").units[1].order == "Rally"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rolled_order_tests_come_out_as_the_exact_odds_say(ruleset):
    """The aid rolls the rules' own test: its outcomes over many seeds against the odds
    calculator's exact answer (Monte Carlo against exact)."""
    start = with_die_in_hand(new_tracker(ruleset).set_pins(1, 3), 0)
    unit = start.units[1]
    exact = order_test_odds(ruleset, quality=unit.quality, pins=3).probabilities
    dice, n = RandomDice(11), 3000
    seen = Counter()
    for _ in range(n):
        after = start.give_order(1, "Advance", dice=dice)
        seen[after.units[1].order] += 1
        assert "order test needs" in after.log[-1] and "rolled" in after.log[-1]
    assert bernoulli_ok(seen["Advance"], n, exact["p_pass"])
    # a fail goes Down; a FUBAR shows friendly fire's Fire or panic's Run (the players
    # turn it Down where there is no friend to fire on or no way to run)
    assert bernoulli_ok(seen["Down"], n, exact["p_fail"])
    assert bernoulli_ok(seen["Fire"], n, exact["p_friendly_fire"])
    assert bernoulli_ok(seen["Run"], n, exact["p_panic"])


def test_an_officer_near_adds_his_bonus_and_only_a_live_one_of_the_side():
    tracker = new_tracker("konflikt47").set_pins(1, 2)
    plain = tracker.test_of(1).value
    rank = tracker.officers(0)[0]
    assert tracker.test_of(1, rank).value == plain + tracker.rules.officer_bonus(rank)
    with pytest.raises(AidError, match="has no live officer 'Major'"):
        tracker.test_of(1, "Major")
    gone = tracker.destroy(next(u.uid for u in tracker.units if u.side == 0 and u.officer))
    assert gone.officers(0) == []


def test_a_reaction_takes_the_die_only_for_its_editions_faces_and_damage_only_a_vehicles():
    """A die taken by reaction shows only the faces the edition's reactions give (Konflikt
    '47: Down, Run, Fire; Bolt Action 1st edition troops: Down), and one taken by damage
    only a vehicle's (Down)."""
    k47 = new_tracker("konflikt47")
    uid = k47.waiting(1)[0].uid
    reacted = k47.take_die(uid, "Down", "reaction")
    assert reacted.units[uid].order == "Down" and reacted.in_bag()[1] == k47.in_bag()[1] - 1
    with pytest.raises(AidError, match="shows Down or Run or Fire"):
        k47.take_die(uid, "Ambush", "reaction")
    ba1 = new_tracker("bolt-action-1")  # (its reactions: the Down when shot at, a recce's escape)
    assert ba1.take_die(0, "Down", "reaction").units[0].order == "Down"
    with pytest.raises(AidError, match="shows Down, not 'Fire'"):
        ba1.take_die(0, "Fire", "reaction")
    with pytest.raises(AidError, match="not a vehicle"):
        ba1.take_die(0, "Down", "damage")
    vehicle = next(u for u in ba1.units if u.kind == "vehicle")
    assert ba1.take_die(vehicle.uid, "Down", "damage").units[vehicle.uid].order == "Down"


def test_a_bolt_action_recce_escape_takes_its_die_down_and_other_vehicles_none():
    """Bolt Action 1st edition: the Universal Carrier (recce) escapes an assault and is
    then Down, as the game leaves it (``reactions.die_shown``), so the aid takes its die
    for Down, not Run, and infantry assaulting it later that turn hit it as halted (4+),
    as the game does; the Sherman reacts not at all, and is told so in this edition's
    rule: no fire at assaulters, no Konflikt '47 sheet."""
    from test_aid_odds import uid

    from kriegsspiel.aid.questions import AssaultAsked, assault

    ba1 = new_tracker("bolt-action-1")
    carrier, sherman = uid(ba1, 0, "Universal Carrier"), uid(ba1, 0, "M4 Sherman")
    squad = uid(ba1, 1, "1st Grenadier Squad")
    assert ba1.reaction_faces(carrier) == ("Down",) and ba1.reaction_faces(sherman) == ()
    with pytest.raises(
        AidError, match="a recce vehicle reacts only by an escape, its die then showing Down"
    ) as ran:
        ba1.take_die(carrier, "Run", "reaction")
    assert "sheet 001" not in str(ran.value)
    escaped = ba1.take_die(carrier, "Down", "reaction")
    assert escaped.units[carrier].order == "Down" and escaped.units[carrier].reacted
    odds = assault(escaped, AssaultAsked(squad, carrier))
    assert odds["read"]["vehicle_move"] == "stationary"
    why = {r["topic"]: r["result"] for r in odds["report"]["reasoning"]}
    assert why["to hit"] == "4+ per model"
    with pytest.raises(AidError) as refused:
        ba1.take_die(sherman, "Down", "reaction")
    said = str(refused.value)
    assert said.startswith(
        "M4 Sherman cannot react with Down: in Bolt Action (1st edition) only a recce "
        "vehicle reacts, by an escape, its die then showing Down (Bolt Action's recce rule"
    )
    assert "fires at assaulters" not in said and "sheet 001" not in said


def test_konflikt47_reactions_are_offered_and_taken_only_as_the_game_allows_them():
    """Sheet 001: "Recce vehicles can react by making an escape move"; any other vehicle
    fires at its assaulters without spending its die (docs/rules/konflikt47.md), and the
    game asks no reaction of it (``reactions.asked_when_assaulted``)."""
    k47 = new_tracker("konflikt47")
    named = {(u.side, u.name): u.uid for u in k47.units}
    squad, tank = named[1, "1st Rifle Squad"], named[0, "Panzer IV Ausf. H"]
    gun = next(u.uid for u in k47.units if u.kind == "artillery")
    assert k47.reaction_faces(squad) == ("Down", "Run", "Fire")
    assert k47.reaction_faces(gun) == ("Down", "Run", "Fire")  # (the game's: not a vehicle)
    assert k47.reaction_faces(tank) == ()
    for face in ("Down", "Run", "Fire"):
        with pytest.raises(
            AidError,
            match=r"Panzer IV Ausf. H cannot react with .*: in Konflikt '47 only a "
            r"recce vehicle reacts, by an escape, its die then showing Run \(sheet 001.*, and "
            "a vehicle fires at assaulters without spending its die",
        ):
            k47.take_die(tank, face, "reaction")
    recce = k47._with(replace(k47.units[tank], recce=True))
    assert recce.reaction_faces(tank) == ("Run",)
    assert recce.take_die(tank, "Run", "reaction").units[tank].order == "Run"
    with pytest.raises(AidError, match="a recce vehicle reacts only by an escape"):
        recce.take_die(tank, "Down", "reaction")
    stuck = recce._with(replace(recce.units[tank], immobilised=True))
    assert stuck.reaction_faces(tank) == ()
    with pytest.raises(AidError, match="it is immobilised"):
        stuck.take_die(tank, "Run", "reaction")
    ordered = with_die_in_hand(k47, 1).give_order(squad, "Fire", outcome="pass")
    assert ordered.reaction_faces(squad) == ()  # (its die is used: it reacts no more)
    assert new_tracker("bolt-action-1").reaction_faces(0) == ("Down",)  # (no assault's)


def test_the_aids_recce_vehicles_are_the_lists_and_the_page_is_told_each_units_reactions():
    from kriegsspiel.aid.view import view

    ba1 = new_tracker("bolt-action-1")
    assert [u.name for u in ba1.units if u.recce] == ["Universal Carrier"]
    k47 = new_tracker("konflikt47")
    for shown in view(k47, can_undo=False)["units"]:
        vehicle = shown["kind"] == "vehicle"
        assert shown["reactions"] == ([] if vehicle else ["Down", "Run", "Fire"])
        # (infantry assault a vehicle by its own odds: it has no way to fight close quarters)
        assert shown["defender_modes"] == (
            [] if vehicle else ["hand-to-hand", "point-blank", "stand-and-fire"]
        )


# ----------------------------------------------------------------------------- pins and losses
@pytest.mark.parametrize("ruleset", RULESETS)
def test_pins_at_the_morale_value_remove_the_unit(ruleset):
    tracker = new_tracker(ruleset)
    morale = tracker.test_of(1).base
    assert not tracker.set_pins(1, morale - 1).units[1].destroyed
    removed = tracker.set_pins(1, morale)
    assert removed.units[1].destroyed and "removed from play" in removed.log[-1]


def test_losses_to_half_strength_call_for_a_morale_check_and_none_left_destroy():
    tracker = new_tracker("bolt-action-1")
    unit = next(u for u in tracker.units if u.start_models >= 8)
    half = unit.start_models // 2
    assert "morale check" not in tracker.set_models(unit.uid, half + 1).log[-1]
    assert "morale check" in tracker.set_models(unit.uid, half).log[-1]
    gone = tracker.set_models(unit.uid, 0)
    assert gone.units[unit.uid].destroyed and gone.destroyed_count(unit.side) == 1
    with pytest.raises(AidError, match=f"has 0 to {unit.start_models} models"):
        tracker.set_models(unit.uid, unit.start_models + 1)
    with pytest.raises(AidError, match="is destroyed"):
        gone.set_pins(unit.uid, 1)


# ----------------------------------------------------------------------------- the turn's end
def ordered_all(tracker: Tracker, order_of=lambda unit: "Fire") -> Tracker:
    for side in (0, 1):
        for unit in tracker.waiting(side):
            tracker = with_die_in_hand(tracker, side)
            tracker = tracker.give_order(unit.uid, order_of(unit), outcome="pass")
    return tracker


def test_down_and_ambush_dice_may_be_kept_and_stay_out_of_the_next_bag():
    tracker = ordered_all(
        new_tracker("konflikt47"),
        lambda u: {0: "Down", 1: "Ambush"}.get(u.uid, "Advance"),
    )
    assert tracker.phase == "turn end" and tracker.may_keep() == (0, 1)
    with pytest.raises(AidError, match="cannot end the turn now"):
        new_tracker("konflikt47").end_turn()
    with pytest.raises(AidError, match="only a unit on Down or Ambush keeps its die"):
        tracker.end_turn(keep=[2])
    with pytest.raises(
        AidError, match=r"keep names Platoon HQ \(unit 0\) twice: give each unit once"
    ):
        tracker.end_turn(keep=[0, 1, 0])
    turn2 = tracker.end_turn(keep=[0])
    assert turn2.turn == 2 and turn2.units[0].retained == "Down"
    assert turn2.units[1].retained is None and turn2.units[1].order is None
    assert turn2.in_bag() == (tracker.in_bag()[0] + 8, 9)  # unit 0's die stays out
    with pytest.raises(AidError, match="kept its Down die from the last turn"):
        with_die_in_hand(turn2, 0).give_order(0, "Fire", outcome="pass")


def test_the_game_ends_after_its_last_turn_and_no_die_is_kept_then():
    tracker = ordered_all(new_tracker("bolt-action-1", turns=1), lambda u: "Down")
    assert tracker.may_keep() == ()
    with pytest.raises(AidError, match="no die is kept after the last turn"):
        tracker.end_turn(keep=[0])
    over = tracker.end_turn()
    assert over.phase == "over" and over.log[-1].startswith("Game over (the last turn")
    with pytest.raises(AidError, match="the game is over"):
        over.draw(RandomDice(1))


def rolling_tracker(ruleset: str = "bolt-action-1") -> Tracker:
    """A game of one turn with the shipped scenarios' roll for another (on 4+), at the end
    of that turn, units 0 and 1 on Down."""
    matchup = build_matchup(ruleset, None, [])
    scenario, army_a, army_b = parsed(matchup)
    assert scenario.another_turn_on == 4  # (the shipped scenarios')
    first = Tracker.start(ruleset, (army_a, army_b), 1, victory=scenario.victory, another_turn_on=4)
    return ordered_all(first, lambda u: "Down" if u.uid < 2 else "Fire")


def test_the_aid_rolls_for_another_turn_after_the_last_and_dice_may_be_kept_into_it():
    """At the end of a last turn that rolls for another, the Down units may keep their die
    (into the turn that may come); the D6 is the players' or the aid's: 1-3 ends the game
    (the kept dice count for nothing), 4-6 plays one more turn (the dice kept stay out of
    its bag), after which no die is kept and no roll made: the game ends."""
    tracker = rolling_tracker()
    assert tracker.rolls_for_another() and tracker.may_keep() == (0, 1)
    assert tracker.length_text() == "1 turn, a second on a D6 roll of 4+"
    with pytest.raises(AidError, match="rolls a D6 for another turn: give what the players"):
        tracker.end_turn(keep=[0])
    for bad in (0, 7):
        with pytest.raises(AidError, match=rf"a D6, 1 to 6 \(got {bad}\)"):
            tracker.end_turn(rolled=bad)
    ended = tracker.end_turn(keep=[0], rolled=3)
    assert ended.phase == "over" and ended.turn == 1
    assert ended.log[-2] == "Roll for a second turn: 3 (needs 4+) -> the game ends"
    assert ended.log[-1].startswith("Game over (the roll for a second turn was 3)")
    more = tracker.end_turn(keep=[0], rolled=4)
    assert more.log[-2] == "Roll for a second turn: 4 (needs 4+) -> a second turn is played"
    assert (more.turn, more.turns, more.another_turn_on) == (2, 2, None)
    assert more.units[0].retained == "Down" and more.units[1].retained is None
    assert (
        more.in_bag()[0]
        == tracker.in_bag()[0]
        + sum(1 for u in tracker.units if u.side == 0 and not u.destroyed)
        - 1
    )  # (unit 0's die kept out)
    last = ordered_all(more, lambda u: "Down")
    assert not last.rolls_for_another() and last.may_keep() == ()
    with pytest.raises(AidError, match="this game has no roll for another turn"):
        last.end_turn(rolled=6)
    assert last.end_turn().log[-1].startswith("Game over (the last turn is played)")
    # the aid's own dice: a second turn on exactly half the faces
    played = [tracker.end_turn(dice=ScriptedDice([n])).phase == "orders" for n in range(1, 7)]
    assert played == [False, False, False, True, True, True]
    with pytest.raises(AidError, match="turn 1 is not the last"):
        ordered_all(new_tracker("bolt-action-1", turns=2)).end_turn(rolled=4)


def test_the_api_ends_a_last_turn_with_the_aid_s_roll_or_the_players(tmp_path):
    """POST /api/end-turn rolls the D6 for another turn with the aid's dice, or takes the
    players' (roll: false, rolled: N); the page's game says the roll is due."""
    from fastapi.testclient import TestClient

    from kriegsspiel.aid.server import create_app

    session = AidSession(rolling_tracker(), seed=2, save=str(tmp_path / "aid.jsonl"))
    client = TestClient(create_app(session))
    state = client.get("/api/state").json()
    assert state["rolls_for_another"] and state["another_turn_on"] == 4
    assert state["extra_turn"] == "second" and state["may_keep"] == [0, 1]
    both = client.post("/api/end-turn", json={"rolled": 5})
    assert both.status_code == 409 and "give roll: false with rolled" in both.json()["error"]
    said = client.post("/api/end-turn", json={"keep": [1], "roll": False, "rolled": 6}).json()
    assert said["turn"] == 2 and said["units"][1]["retained"] == "Down"
    assert not said["rolls_for_another"]
    client.post("/api/undo")
    rolled = client.post("/api/end-turn", json={"keep": []}).json()  # the aid rolls
    assert "Roll for a second turn: " in "\n".join(rolled["log"])


def test_aid_turns_option_is_a_fixed_length_without_the_roll(tmp_path):
    """kriegsspiel aid with the scenario's length rolls for a seventh turn (the shipped
    scenarios'); with --turns the game lasts that many turns, no roll."""
    from kriegsspiel.aid.command import GameAsked, set_up

    rolled, told = set_up(GameAsked("konflikt47", save=str(tmp_path / "a.jsonl")))
    assert (rolled.now.turns, rolled.now.another_turn_on) == (6, 4)
    assert "6 turns, a seventh on a D6 roll of 4+" in told
    fixed, told = set_up(GameAsked("konflikt47", turns=6, save=str(tmp_path / "b.jsonl")))
    assert (fixed.now.turns, fixed.now.another_turn_on) == (6, None)
    assert ", 6 turns;" in told


def test_once_the_game_is_over_no_unit_waits_and_no_die_is_in_the_bag():
    tracker = ordered_all(new_tracker("konflikt47", turns=1))
    over = tracker.end_turn()
    assert over.in_bag() == (0, 0) and over.waiting(0) == over.waiting(1) == []
    with pytest.raises(AidError, match="the game is over"):
        over.take_die(0, "Down", "reaction")
    from kriegsspiel.aid.view import view

    shown = view(over, can_undo=True)
    assert shown["phase"] == "over" and shown["in_bag"] == [0, 0] and shown["chances"] == []
    assert not any(u["waiting"] for u in shown["units"])
    assert shown["result"] == "a draw (0 units destroyed each)"
    assert shown["ended"] == "Game over after turn 1"
    assert view(tracker, can_undo=True)["result"] is None  # (not before the end)
    assert view(tracker, can_undo=True)["ended"] is None


def test_a_side_wiped_out_ends_the_game_in_its_turn_as_the_account_says():
    """The game's account says "Game over in turn N" of a side wiped out before the turn's
    end (render/game_account.py); the page said "Game over after turn N" of it too. It
    now says what the account says: in the turn, or after the last one."""
    from kriegsspiel.aid.view import view

    tracker = new_tracker("konflikt47", turns=3)
    wiped = tracker
    for uid in (u.uid for u in tracker.units if u.side == 1):
        wiped = wiped.destroy(uid)
    assert wiped.phase == "over" and wiped.turn == 1
    assert view(wiped, can_undo=True)["ended"] == "Game over in turn 1"
    played = ordered_all(new_tracker("konflikt47", turns=1)).end_turn()
    assert view(played, can_undo=True)["ended"] == "Game over after turn 1"


@given(
    steps=st.lists(
        st.tuples(st.integers(0, 6), st.integers(0, 40), st.integers(0, 12)), max_size=60
    ),
    ruleset=st.sampled_from(RULESETS),
)
def test_any_steps_keep_the_bag_honest(steps, ruleset):
    """Whatever the players do, in any order: the bag never holds fewer dice than units
    wait for orders, a side with a die in hand has a unit to give it to, a refused step
    is refused with a reason, and the units' count never changes."""
    tracker = new_tracker(ruleset, turns=2)
    count, dice = len(tracker.units), RandomDice(5)
    for kind, who, number in steps:
        uid = who % len(tracker.units)
        try:
            tracker = _step(tracker, kind, uid, number, dice)
        except AidError as exc:
            assert str(exc)
            continue
        dice_left = tracker.in_bag()
        for side in (0, 1):
            in_hand = 1 if tracker.in_hand == side else 0
            assert dice_left[side] + in_hand >= len(tracker.waiting(side))
        if tracker.in_hand is not None:
            assert tracker.waiting(tracker.in_hand)
        assert len(tracker.units) == count
        assert all(u.models == 0 for u in tracker.units if u.destroyed)


def _step(tracker: Tracker, kind: int, uid: int, number: int, dice: RandomDice) -> Tracker:
    if kind == 0:
        return tracker.draw(dice)
    if kind == 1:
        return tracker.give_order(uid, "Fire", dice=dice)
    if kind == 2:
        return tracker.set_pins(uid, number)
    if kind == 3:
        return tracker.set_models(uid, number)
    if kind == 4:
        return tracker.destroy(uid)
    if kind == 5:
        return tracker.end_turn(tracker.may_keep()[: number % 3])
    return tracker.take_die(uid, "Down", "damage")


# ----------------------------------------------------------------------------- saving
def test_every_step_is_saved_and_the_game_resumes_where_it_stopped(tmp_path):
    save = str(tmp_path / "game.jsonl")
    session = AidSession(new_tracker("konflikt47"), seed=3, save=save)
    session.step(lambda t: t.draw(session.dice))
    session.step(lambda t: t.set_pins(2, 1))
    again = AidSession.resume(save)
    assert again.now == session.now and again.start == session.start
    assert again.steps == session.steps
    assert again.undo() == session.steps[1]
    assert AidSession.resume(save).now == session.steps[1]  # the undo was saved too
    fresh = again.new_game()
    assert AidSession.resume(save).now == fresh == session.start


def test_a_step_adds_one_line_with_only_its_new_log_lines(tmp_path):
    save = tmp_path / "game.jsonl"
    session = AidSession(new_tracker("bolt-action-1"), save=str(save))
    for pins in (1, 2, 3):
        session.step(lambda t, p=pins: t.set_pins(1, p))
    lines = save.read_text().splitlines()
    assert len(lines) == 5  # the header, the start, three steps
    last = json.loads(lines[-1])
    assert last["log_kept"] == len(session.now.log) - 1 and len(last["log_new"]) == 1
    assert last["step"]["log"] == []


def test_a_step_cut_off_as_it_was_written_is_left_out_and_the_file_mended(tmp_path):
    from kriegsspiel.aid.command import GameAsked, set_up

    save = tmp_path / "game.jsonl"
    session = AidSession(new_tracker("konflikt47"), save=str(save))
    session.step(lambda t: t.set_pins(1, 1))
    whole = save.read_text()
    cut = '{"step": {"ruleset": "konfl'
    save.write_text(whole + cut)  # the machine stopped mid-write
    again, said = set_up(GameAsked(save=str(save)))
    assert again.now == session.now
    assert save.read_text() == whole  # written again whole
    aside = tmp_path / "game.jsonl.cut-off"
    assert aside.read_text() == cut  # (kept, not destroyed)
    assert f"The last line of {save} (line 4) was cut off as it was written" in said
    assert f"kept in {aside}" in said
    save.write_text(whole + cut)  # again: the first line set aside is not written over
    assert "game.jsonl.cut-off-2" in AidSession.resume(str(save)).notes[0]
    assert aside.read_text() == (tmp_path / "game.jsonl.cut-off-2").read_text() == cut
    again = AidSession.resume(str(save))
    assert again.notes == []
    again.step(lambda t: t.set_pins(1, 2))
    assert AidSession.resume(str(save)).now.units[1].pins == 2


def test_a_damaged_save_is_told_as_damaged_and_no_step_that_loses_it_is_offered(tmp_path):
    save = tmp_path / "game.jsonl"
    session = AidSession(new_tracker("konflikt47"), save=str(save))
    for pins in (1, 2):
        session.step(lambda t, p=pins: t.set_pins(1, p))
    lines = save.read_text().splitlines(keepends=True)
    lines[2] = '{"step": {"rules' + "\n"  # a line in the middle garbled
    text = "".join(lines)
    save.write_text(text)
    with pytest.raises(UsageError) as refused:
        AidSession.resume(str(save))
    said = str(refused.value)
    assert said.startswith(f"--save {save} is a damaged play aid save: line 3: not JSON (")
    assert "mend that line, or move the file aside" in said and "give --new" not in said
    assert save.read_text() == text
    lines[2] = '{"step": 5, "log_kept": 0, "log_new": []}\n'  # or a field no game holds
    save.write_text("".join(lines))
    with pytest.raises(UsageError, match=r"damaged play aid save: line 3: field step: should"):
        AidSession.resume(str(save))


def test_a_failed_write_takes_no_step(tmp_path, monkeypatch):
    save = tmp_path / "game.jsonl"
    session = AidSession(new_tracker("konflikt47"), save=str(save))
    before, text = session.now, save.read_text()

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.fsync", full)
    with pytest.raises(UsageError, match="No space left on device; the step was not taken"):
        session.step(lambda t: t.set_pins(1, 1))
    assert session.now is before and save.read_text() == text


def test_undo_past_the_steps_kept_says_so_not_that_this_is_the_start(tmp_path, monkeypatch):
    """Undo reaches the last KEPT_STEPS steps back; taken back, it said "this is the game's
    start" of a game many steps on."""
    from kriegsspiel.aid import session as saving

    monkeypatch.setattr(saving, "KEPT_STEPS", 3)
    save = str(tmp_path / "game.jsonl")
    session = AidSession(new_tracker("konflikt47"), save=save)
    assert session.undo_refused() == "nothing to undo: this is the game's start."
    for pins in range(1, 6):
        session.step(lambda t, n=pins: t.set_pins(1, n))
    told = (
        "nothing more to undo: only the last 3 steps can be taken back, and all of them have been."
    )
    resumed = AidSession.resume(save)  # (so too once the game is resumed)
    for kept in (session, resumed):
        for _ in range(3):
            kept.undo()
        assert kept.undo_refused() == told and kept.now.units[1].pins == 2
    with pytest.raises(AidError, match="only the last 3 steps"):
        session.undo()
    session.new_game()
    session.undo()  # (back to the old game's pins)
    assert session.undo_refused() == told


def test_a_resumed_game_undoes_exactly_as_far_back_as_it_did_before_it_stopped(
    tmp_path, monkeypatch
):
    """The save holds every step since it was last written whole, and its undos; read back,
    the steps undone were taken off a history that kept them all, and only then cut to the
    last KEPT_STEPS: a game stopped after undos could be undone further back once resumed
    (here to the start, where it had stopped two steps short of it)."""
    from kriegsspiel.aid import session as saving

    monkeypatch.setattr(saving, "KEPT_STEPS", 3)
    save = str(tmp_path / "game.jsonl")
    session = AidSession(new_tracker("konflikt47"), save=save)
    for pins in range(1, 6):
        session.step(lambda t, n=pins: t.set_pins(1, n))
    session.undo()
    session.undo()  # (pins 3; one more undo reaches pins 2, the oldest step kept)
    resumed = AidSession.resume(save)
    assert resumed.steps == session.steps
    again = AidSession.resume(save)  # (written whole when resumed: read alike once more)
    assert again.steps == session.steps
    resumed.undo()
    assert resumed.now.units[1].pins == 2
    with pytest.raises(AidError, match="only the last 3 steps can be taken back"):
        resumed.undo()
    resumed.step(lambda t: t.set_pins(1, 7))  # (steps after resuming are kept as before)
    for _ in range(3):
        resumed.step(lambda t: t.set_pins(1, 8))
    resumed.undo()
    assert AidSession.resume(save).steps == resumed.steps


def test_a_refused_step_changes_nothing_in_the_game_or_its_file(tmp_path):
    save = tmp_path / "game.jsonl"
    session = AidSession(new_tracker("bolt-action-1"), save=str(save))
    before, text = session.now, save.read_text()
    with pytest.raises(AidError):
        session.step(lambda t: t.give_order(0, "Fire", outcome="pass"))
    with pytest.raises(AidError, match="nothing to undo"):
        session.undo()
    assert session.now is before and save.read_text() == text


def test_a_file_of_another_kind_given_as_a_save_is_named_as_such(tmp_path):
    """An army list, a game record or a drawing given as the save was "not a play aid save
    (Expecting value)" or "(no "format" ...)": it is named, as a record's reader names it;
    the command, which would not write over it, says so too."""
    from kriegsspiel.rulesets.bolt_action.army import sample_armies

    record = json.dumps({"format": "kriegsspiel-record/6", "ruleset": "konflikt47"})
    army = sample_armies("konflikt47")[0].read_text(encoding="utf-8")
    given = {
        "army.jsonl": (army, "an army list"),
        "game.jsonl": (record + "\n", "a kriegsspiel game record"),
        "table.jsonl": ('<svg xmlns="http://www.w3.org/2000/svg">\n</svg>\n', "an SVG drawing"),
    }
    for name, (text, kind) in given.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        with pytest.raises(UsageError) as refused:
            AidSession.resume(str(tmp_path / name))
        assert str(refused.value).startswith(
            f"--save {tmp_path / name}: this does not look like a play aid save: it looks "
            f"like {kind}"
        )
    out = run_cli("aid", "--no-open", "--save", "army.jsonl", cwd=tmp_path)
    assert out.returncode == 2 and "is not a play aid save (it looks like an army list)" in (
        out.stderr
    )
    assert (tmp_path / "army.jsonl").read_text(encoding="utf-8") == army


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("{not json\n", "line 1: not a play aid save"),
        ('{"format": "something else"}\n', "line 1: not a play aid save"),
        ("", "the file is empty"),
        ('{"format": "kriegsspiel play aid", "start": {}}\n', "line 1: field start.ruleset"),
        (
            '{"format": "kriegsspiel play aid", "start": {"ruleset": "konflikt47", "armies": '
            '["a", "b"], "turns": 1, "units": []}}\n',
            r"line 1: field start\.units: side 0 has no unit",
        ),
        (
            '{"format": "kriegsspiel play aid", "start": {"ruleset": "konflikt47", "armies": '
            '["a", "b"], "turns": 1, "units": ['
            '{"uid": 0, "side": 0, "name": "A", "kind": "infantry", "quality": "regular", '
            '"points": 50, "start_models": 5, "models": 5}, '
            '{"uid": 1, "side": 1, "name": "B", "kind": "infantry", "quality": "regular", '
            '"points": 50, "start_models": 5, "models": 5}]}}\n',
            "no step saved after the header",
        ),
    ],
)
def test_a_broken_save_is_refused_by_name_and_left_as_it_is(tmp_path, text, said):
    save = tmp_path / "game.jsonl"
    save.write_text(text)
    with pytest.raises(UsageError, match=said):
        AidSession.resume(str(save))
    assert save.read_text() == text


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (
            lambda step: step["units"][1].update(pins=-5),
            r"step\.units\.1\.pins: -5; pins are 0 to 99",
        ),
        (
            lambda step: step["units"][0].update(models=1_000_000),
            r"step\.units\.0\.models: 1000000 of 2",
        ),
        (lambda step: step.update(turn=-1), r"step\.turn: turn -1 of 6; a game is on turn 1"),
        (lambda step: step.update(turn=99), r"step\.turn: turn 99 of 6"),
        (
            lambda step: step.update(turns=10**12),
            r"step\.turns: 1000000000000; a game lasts 1 to 100",
        ),
        (lambda step: step.update(units=[]), r"step\.units: side 0 has no unit"),
        (
            lambda step: step["units"][2].update(destroyed=True),
            r"step\.units\.2\.destroyed: True with 8",
        ),
        (lambda step: step["units"][2].update(order="Dance"), r"step\.units\.2\.order: 'Dance'"),
        (lambda step: step.update(in_hand=7), r"step\.in_hand: 7"),
        (
            lambda step: step["units"][2].update(name="Rifle\x1b[2J squad"),
            r"step\.units\.2\.name: 'Rifle\\x1b\[2J squad' holds an escape character",
        ),
        (
            lambda step: step["units"][2]["kit"][0].update(name="  "),
            r"step\.units\.2\.kit\.0\.name: '  ' holds nothing but spaces",
        ),
        (
            lambda step: step["units"][2]["kit"][0].update(weapons=["Rifle\nBazooka"]),
            r"step\.units\.2\.kit\.0\.weapons\.0: 'Rifle\\nBazooka' holds a line break",
        ),
        (
            lambda step: step.update(armies=["US\u202eynapmoc", "Germans"]),
            r"step\.armies\.0: .* holds an invisible mark that turns the text's direction",
        ),
    ],
)
def test_a_save_edited_into_a_game_no_game_could_be_is_refused(tmp_path, edit, said):
    """A hand-edited save is read back only as a game the rules could have reached: its
    numbers within what they can be (else the page would fail at every request)."""
    save = tmp_path / "game.jsonl"
    session = AidSession(new_tracker("konflikt47"), save=str(save))
    session.step(lambda t: t.set_pins(1, 1))
    lines = save.read_text().splitlines()
    row = json.loads(lines[2])
    edit(row["step"])
    text = "\n".join([*lines[:2], json.dumps(row)]) + "\n"
    save.write_text(text)
    with pytest.raises(UsageError, match=f"line 3: field {said}"):
        AidSession.resume(str(save))
    assert save.read_text() == text
    nested = tmp_path / "deep.jsonl"
    nested.write_text("[" * 100_000 + "\n")
    with pytest.raises(UsageError, match=r"line 1: not a play aid save \(nested too deep\)"):
        AidSession.resume(str(nested))


def test_a_save_with_a_bad_step_names_its_line_and_field(tmp_path):
    save = tmp_path / "game.jsonl"
    session = AidSession(new_tracker("konflikt47"), save=str(save))
    session.step(lambda t: t.set_pins(1, 1))
    lines = save.read_text().splitlines()
    row = json.loads(lines[2])
    row["step"]["units"][3]["uid"] = 7
    save.write_text("\n".join([*lines[:2], json.dumps(row)]) + "\n")
    with pytest.raises(UsageError, match=r"line 3: field step\.units\.3: uid 7"):
        AidSession.resume(str(save))
    row["step"]["units"][3]["pins"] = "many"
    save.write_text("\n".join([*lines[:2], json.dumps(row)]) + "\n")
    with pytest.raises(
        UsageError,
        match=r"line 3: field step\.units\.3\.pins: must be a whole number \(not 'many'\)",
    ):  # (in the data files' words, not pydantic's "Input should be a valid integer")
        AidSession.resume(str(save))
    row["step"] = 5
    save.write_text("\n".join([*lines[:2], json.dumps(row)]) + "\n")
    with pytest.raises(UsageError, match=r"line 3: field step: should be a game \(a mapping"):
        AidSession.resume(str(save))
    row = json.loads(lines[2])
    del row["log_kept"]
    save.write_text("\n".join([*lines[:2], json.dumps(row)]) + "\n")
    with pytest.raises(UsageError, match="line 3: field log_kept: missing; it is a count"):
        AidSession.resume(str(save))
    row = json.loads(lines[2])
    row["log_kept"] = 99
    save.write_text("\n".join([*lines[:2], json.dumps(row)]) + "\n")
    with pytest.raises(UsageError, match="line 3: field log_kept: 99"):
        AidSession.resume(str(save))


# ----------------------------------------------------------------------------- the web API
@pytest.fixture
def client(tmp_path):
    from fastapi.testclient import TestClient

    from kriegsspiel.aid.command import GameAsked, set_up
    from kriegsspiel.aid.server import create_app

    session, _ = set_up(
        GameAsked("bolt-action-1", turns=None, seed=2, save=str(tmp_path / "aid.jsonl"))
    )
    return TestClient(create_app(session))


def test_the_api_takes_steps_and_answers_the_whole_game(client):
    page = client.get("/")
    assert page.status_code == 200 and "/static/aid.js" in page.text
    assert client.get("/static/aid.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/static/secrets.txt").status_code == 404
    state = client.get("/api/state").json()
    assert state["phase"] == "orders" and state["in_hand"] is None and not state["can_undo"]
    # (Bolt Action 1's reactions: going Down, and a recce's escape, which ends Down too)
    assert state["destroyed_dice_leave"] == "at the turn end" and state["reactions"] == ["Down"]
    state = client.post("/api/draw").json()
    side = state["in_hand"]
    uid = next(u["uid"] for u in state["units"] if u["side"] == side and u["waiting"])
    state = client.post("/api/order", json={"unit": uid, "order": "Ambush"}).json()
    assert state["units"][uid]["order"] == "Ambush" and state["can_undo"]
    state = client.post("/api/undo").json()
    assert state["units"][uid]["order"] is None and state["in_hand"] == side


def test_the_api_takes_the_side_of_a_die_drawn_from_the_players_bag(client):
    state = client.post("/api/draw", json={"side": 1}).json()
    assert state["in_hand"] == 1 and "drawn at the table" in state["log"][-1]
    client.post("/api/undo")
    refused = client.post("/api/draw", json={"side": 5})
    assert refused.status_code == 409 and "the side drawn is 0" in refused.json()["error"]
    assert client.post("/api/draw", json={"side": "B"}).status_code == 422
    assert client.post("/api/draw", json={}).json()["in_hand"] in (0, 1)  # the aid draws


def test_a_page_asking_for_the_game_it_has_gets_304_till_the_game_changes(client):
    state = client.get("/api/state")
    tag = state.headers["etag"]
    assert tag == f'"{state.json()["version"]}"'
    assert client.get("/api/state", headers={"If-None-Match": tag}).status_code == 304
    moved = client.post("/api/pins", json={"unit": 0, "pins": 1}).json()
    assert f'"{moved["version"]}"' != tag  # (a step's answer has the new version)
    again = client.get("/api/state", headers={"If-None-Match": tag})
    assert again.status_code == 200 and again.json()["units"][0]["pins"] == 1
    back = client.post("/api/undo").json()  # undo is a change too, back to an old game
    assert back["version"] not in (tag.strip('"'), moved["version"])


def test_the_officer_near_and_our_own_dice_are_kept_in_the_save_for_every_device(tmp_path):
    from fastapi.testclient import TestClient

    from kriegsspiel.aid.command import GameAsked, set_up
    from kriegsspiel.aid.server import create_app

    save = tmp_path / "aid.jsonl"
    session, _ = set_up(GameAsked("konflikt47", turns=None, seed=2, save=str(save)))
    client = TestClient(create_app(session))
    squad = next(u for u in session.now.units if u.name == "2nd Grenadier Squad")
    rank = session.now.officers(squad.side)[0]
    plain = client.get("/api/state").json()["units"][squad.uid]
    assert (plain["near"], plain["own_dice"]) == (None, False)
    client.post("/api/near", json={"unit": squad.uid, "officer": rank})
    state = client.post("/api/own-dice", json={"unit": squad.uid, "own": True}).json()
    assert (state["units"][squad.uid]["near"], state["units"][squad.uid]["own_dice"]) == (
        rank,
        True,
    )
    assert state["log"][-1] == f"2nd Grenadier Squad: {rank} stands near it"
    again = AidSession.resume(str(save)).now.units[squad.uid]  # (the server started again)
    assert (again.near, again.own_dice) == (rank, True)
    refused = client.post("/api/near", json={"unit": squad.uid, "officer": "Field Marshal"})
    assert (
        refused.status_code == 409 and "no live officer 'Field Marshal'" in refused.json()["error"]
    )
    # his unit destroyed, the officer is near no one any more
    his = next(u.uid for u in session.now.units if u.side == squad.side and u.officer == rank)
    gone = client.post("/api/destroy", json={"unit": his}).json()
    assert gone["units"][squad.uid]["near"] is None


def test_a_save_from_before_the_aid_kept_the_players_say_resumes(tmp_path):
    """Saves written before a unit kept its officer near, own dice and recce still load
    (each field takes its default)."""
    save = tmp_path / "aid.jsonl"
    session = AidSession(new_tracker("bolt-action-1"), save=str(save))
    session.step(lambda t: t.set_pins(0, 1))
    rows = [json.loads(line) for line in save.read_text().splitlines()]
    for row in rows:
        game = row.get("start") or row.get("step")
        for unit in game["units"]:
            for newer in ("near", "own_dice", "recce"):
                del unit[newer]
    save.write_text("".join(json.dumps(r) + "\n" for r in rows))
    resumed = AidSession.resume(str(save)).now
    assert resumed.units[0].pins == 1
    assert all(u.near is None and not u.own_dice and not u.recce for u in resumed.units)


def test_the_whole_log_is_asked_apart_and_the_browsers_icon_quietly_has_none(client):
    for pins in range(70):
        state = client.post("/api/pins", json={"unit": 1, "pins": pins % 3}).json()
    whole = client.get("/api/log").json()["log"]
    assert state["log_total"] == len(whole) > len(state["log"]) == 60
    assert whole[-60:] == state["log"] and whole[0].startswith("Turn 1: ")
    assert client.get("/favicon.ico").status_code == 204


def test_log_lines_name_the_side_of_a_unit_whose_name_the_other_side_shares():
    tracker = new_tracker("konflikt47")  # both sample armies have a "Platoon HQ"
    hqs = [u for u in tracker.units if u.name == "Platoon HQ"]
    assert {u.side for u in hqs} == {0, 1}
    pinned = tracker.set_pins(hqs[1].uid, 1)
    assert pinned.log[-1] == f"Platoon HQ ({tracker.armies[1]}): 1 pin"
    squad = next(u for u in tracker.units if u.name == "1st Rifle Squad")
    assert tracker.set_pins(squad.uid, 1).log[-1] == "1st Rifle Squad: 1 pin"  # (its own)


def test_the_api_shows_each_units_exact_odds_with_their_reasons(client):
    state = client.post("/api/pins", json={"unit": 1, "pins": 2}).json()
    unit = state["units"][1]
    test = unit["odds"][""]["order_test"]
    exact = order_test_odds("bolt-action-1", quality=unit["quality"], pins=2)
    assert test["p_pass"] == pytest.approx(float(exact.probabilities["p_pass"]))
    assert (
        test["reasoning"][0]["topic"] == "needs" and "2 pins -2" in test["reasoning"][0]["because"]
    )
    assert state["officers"][unit["side"]]
    for rank in state["officers"][unit["side"]]:
        with_officer = unit["odds"][rank]["order_test"]
        assert with_officer["morale_value"] > test["morale_value"]


def test_the_api_refuses_with_a_reason_and_changes_nothing(client):
    before = client.get("/api/state").json()
    refused = client.post("/api/order", json={"unit": 0, "order": "Fire"})
    assert refused.status_code == 409 and refused.json()["error"].startswith("no die in hand")
    malformed = client.post("/api/pins", json={"unit": 0, "pins": "lots"})
    assert malformed.status_code == 422
    assert malformed.json()["error"].startswith("pins: Input should be a valid integer")
    extra = client.post("/api/destroy", json={"unit": 0, "why": "boom"})
    assert (
        extra.status_code == 422 and "why: Extra inputs are not permitted" in extra.json()["error"]
    )
    both = client.post("/api/order", json={"unit": 0, "order": "Fire", "outcome": "pass"})
    assert both.status_code == 409 and "roll: false" in both.json()["error"]
    assert client.get("/api/state").json() == before


def test_new_game_starts_the_same_armies_again_and_undo_goes_back(client):
    client.post("/api/pins", json={"unit": 0, "pins": 1})
    fresh = client.post("/api/new-game").json()
    assert fresh["units"][0]["pins"] == 0 and fresh["turn"] == 1
    assert client.post("/api/undo").json()["units"][0]["pins"] == 1


def test_a_one_shot_weapon_said_fired_over_the_api_is_kept_and_read_by_the_odds(client):
    units = client.get("/api/state").json()["units"]
    squad = next(u for u in units if u["name"] == "1st Grenadier Squad")
    sherman = next(u["uid"] for u in units if u["name"] == "M4 Sherman")
    assert squad["one_shot_anti_tank"] and not squad["one_shot_fired"]
    shot = {"firer": squad["uid"], "target": sherman, "range": 10}
    before = client.post("/api/odds/shoot", json=shot).json()
    said = client.post("/api/one-shot-fired", json={"unit": squad["uid"], "fired": True})
    assert said.json()["units"][squad["uid"]]["one_shot_fired"]
    after = client.post("/api/odds/shoot", json=shot).json()
    assert {w["name"] for w in before["weapons"]} - {w["name"] for w in after["weapons"]} == {
        "Panzerfaust"
    }
    assert client.post("/api/odds/shoot", json={**shot, "one_shot_fired": False}).json() == before
    again = client.post("/api/one-shot-fired", json={"unit": squad["uid"], "fired": True})
    assert again.status_code == 409 and "fired already" in again.json()["error"]
    assert not client.post("/api/undo").json()["units"][squad["uid"]]["one_shot_fired"]


def test_a_shots_result_taken_with_a_panzerfaust_over_the_api_is_one_step_undone_whole(client):
    """The page sends the shot's firer and weapons with its result: the Panzerfaust is
    marked fired with the target's pins, and one undo takes back both."""
    units = client.get("/api/state").json()["units"]
    squad = next(u["uid"] for u in units if u["name"] == "1st Grenadier Squad")
    sherman = next(u["uid"] for u in units if u["name"] == "M4 Sherman")
    shot = client.post("/api/odds/shoot", json={"firer": squad, "target": sherman, "range": 10})
    weapons = shot.json()["weapons"]
    assert any(w["name"] == "Panzerfaust" for w in weapons)
    taken = {"unit": sherman, "pins": 1, "firer": squad, "weapons": weapons}
    after = client.post("/api/shot-at", json=taken).json()["units"]
    assert after[squad]["one_shot_fired"] and after[sherman]["pins"] == 1
    again = client.post("/api/shot-at", json=taken)  # (its Panzerfaust is spent)
    assert again.status_code == 409 and again.json()["field"] == "weapons"
    back = client.post("/api/undo").json()["units"]
    assert not back[squad]["one_shot_fired"] and back[sherman]["pins"] == 0
    # a weapon set to 0 was not fired: nothing is marked (and a row is named by its place)
    unfired = [{**w, "count": 0} if w["name"] == "Panzerfaust" else w for w in weapons]
    wrong = client.post(
        "/api/shot-at", json={**taken, "weapons": [*unfired, {"name": "X", "count": 1}]}
    )
    assert wrong.status_code == 409 and wrong.json()["field"] == f"weapons.{len(unfired)}.name"
    kept = client.post("/api/shot-at", json={**taken, "weapons": unfired}).json()["units"]
    assert not kept[squad]["one_shot_fired"] and kept[sherman]["pins"] == 1


# ----------------------------------------------------------------------------- the command
def test_the_command_refuses_bad_input_with_exit_status_2(tmp_path):
    notes = tmp_path / "notes.jsonl"
    notes.write_text('{"my": "notes"}')
    out = run_cli("aid", "--no-open", "--save", str(notes), cwd=tmp_path)
    assert out.returncode == 2 and "is not a play aid save" in out.stderr
    assert notes.read_text() == '{"my": "notes"}'
    out = run_cli("aid", "--no-open", "--turns", "0", cwd=tmp_path)
    assert out.returncode == 2 and "at least one turn" in out.stderr
    for turns in ("101", "1000000000000"):  # (a tool limit, as a scenario's turns)
        out = run_cli("aid", "--no-open", "--turns", turns, cwd=tmp_path)
        assert out.returncode == 2 and "at most 100 turns" in out.stderr
        assert "Traceback" not in out.stderr
    for host, said in [
        ("999.1.1.1", "--host 999.1.1.1: there is no such address"),
        ("", "--host was given an empty name"),
    ]:  # (the host told as what is wrong, not the port)
        out = run_cli("aid", "--no-open", "--host", host, cwd=tmp_path)
        assert out.returncode == 2 and said in out.stderr and "--port" not in out.stderr
    out = run_cli("aid", "--no-open", "--save", "game.txt", cwd=tmp_path)
    assert out.returncode == 2 and "writes a .jsonl file" in out.stderr
    out = run_cli("aid", "--no-open", "--ruleset", "iron-cross", cwd=tmp_path)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "--ruleset iron-cross: the play aid keeps an order-dice bag" in out.stderr
    assert "whole games" not in out.stderr
    out = run_cli("aid", "--no-open", "--rules-file", "house.yaml", cwd=tmp_path)
    assert out.returncode == 2 and "house.yaml: cannot be read" in out.stderr
    assert list(tmp_path.glob("*.jsonl")) == [notes]  # nothing written


def test_a_port_in_use_is_refused_before_anything_is_written(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = run_cli("aid", "--no-open", "--port", str(port), cwd=tmp_path)
    assert out.returncode == 2 and f"--port {port}: cannot serve there" in out.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_saved_game_is_not_replaced_without_new(tmp_path):
    save = tmp_path / "aid.jsonl"
    AidSession(new_tracker("konflikt47"), save=str(save))
    before = save.read_text()
    out = run_cli(
        "aid", "--no-open", "--save", str(save), "--ruleset", "bolt-action-1", cwd=tmp_path
    )
    said = " ".join(out.stderr.split())
    assert out.returncode == 2 and "holds a game" in said
    assert "--ruleset bolt-action-1 (the saved game is konflikt47)" in said
    assert f"run kriegsspiel aid --save {save} (the options that agree" in said
    assert "add --new (it writes over the save)" in said
    assert save.read_text() == before  # (refused: not written)


BA1_LISTS = ("british-rifle-platoon", "german-grenadier-platoon")


def test_the_command_that_started_a_game_goes_on_with_it(tmp_path):
    """The same command again, --ruleset, --army, --turns and --scenario as they were,
    goes on with the saved game (as docs/play-aid.md says), not a new one."""
    from kriegsspiel.aid.command import GameAsked, set_up

    save = str(tmp_path / "aid.jsonl")
    asked = GameAsked("bolt-action-1", "meeting-engagement", BA1_LISTS, turns=7, seed=5, save=save)
    session, said = set_up(asked)
    assert said.startswith("A new game of Bolt Action")
    session.step(lambda t: t.set_pins(1, 2))
    again, said = set_up(asked)
    assert said.startswith(f"Going on with the game saved in {save}: turn 1 of 7")
    assert again.now == session.now and again.now.units[1].pins == 2
    for part in (  # each option alone, as it was, goes on too
        GameAsked("bolt-action-1", save=save),
        GameAsked(armies=BA1_LISTS, save=save),
        GameAsked(turns=7, save=save),
        GameAsked(scenario="meeting-engagement", turns=7, save=save),
    ):
        assert set_up(part)[0].now == session.now


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"ruleset": "konflikt47"}, "--ruleset konflikt47 (the saved game is bolt-action-1)"),
        ({"turns": 6}, "--turns 6 (the saved game has 7 turns)"),
        (
            {"armies": BA1_LISTS[::-1]},
            f"--army {BA1_LISTS[1]} --army {BA1_LISTS[0]} (the saved game is British Rifle "
            "Platoon, Normandy 1944 against Grenadier Platoon",
        ),
        (
            {"turns": None, "scenario": "meeting-engagement"},
            "--scenario meeting-engagement (6 turns, a seventh on a D6 roll of 4+; the saved "
            "game has 7 turns: give --turns 7 with it, or leave it out)",
        ),
    ],
)
def test_an_option_that_disagrees_with_the_save_is_named_with_the_saved_value(
    tmp_path, change, named
):
    from dataclasses import replace as changed

    from kriegsspiel.aid.command import GameAsked, set_up
    from kriegsspiel.errors import UsageError

    save = tmp_path / "aid.jsonl"
    asked = GameAsked("bolt-action-1", None, BA1_LISTS, turns=7, save=str(save))
    set_up(asked)
    before = save.read_text()
    with pytest.raises(UsageError) as refused:
        set_up(changed(asked, **change))
    said = str(refused.value)
    assert named in said, said
    assert f"To go on with the saved game, run kriegsspiel aid --save {save}" in said
    assert "add --new" in said and save.read_text() == before
    if "ruleset" not in change:  # (--new: a new game there; BA1's lists are not K47's)
        fresh, told = set_up(changed(asked, new=True, **change))
        assert told.startswith("A new game of") and fresh.now.turn == 1


def test_without_the_web_server_the_command_says_what_to_install(monkeypatch, tmp_path):
    import sys

    from kriegsspiel.aid.command import GameAsked, run_aid
    from kriegsspiel.errors import UsageError

    monkeypatch.setitem(sys.modules, "fastapi", None)
    monkeypatch.delitem(sys.modules, "kriegsspiel.aid.server", raising=False)
    with pytest.raises(UsageError, match=r"pip install 'kriegsspiel\[aid\]'"):
        run_aid(
            GameAsked(save=str(tmp_path / "a.jsonl")),
            host="127.0.0.1",
            port=1,
            open_browser=False,
        )


def test_a_fubar_that_cannot_be_carried_out_turns_the_die_down():
    tracker = with_die_in_hand(new_tracker("konflikt47").set_pins(1, 1), 0)
    with pytest.raises(AidError, match="no FUBAR this turn"):
        tracker.give_order(1, "Fire", outcome="fail").fubar_down(1)
    fired = tracker.give_order(1, "Advance", outcome="friendly fire")
    down = fired.fubar_down(1)
    assert down.units[1].order == "Down" and "no friend to fire on" in down.log[-1]
    with pytest.raises(AidError, match="is Down already"):
        down.fubar_down(1)
    ran = tracker.give_order(1, "Advance", outcome="panic").fubar_down(1)
    assert "cannot run away" in ran.log[-1]
    turn2 = ordered_all(down).end_turn()
    assert turn2.units[1].fubar is None


def test_clicks_at_once_are_taken_one_at_a_time(client):
    """Two players clicking together: every pin added is counted once."""
    from concurrent.futures import ThreadPoolExecutor

    def add(uid: int) -> None:
        for _ in range(5):
            pins = client.get("/api/state").json()["units"][uid]["pins"]
            client.post("/api/pins", json={"unit": uid, "pins": pins + 1})

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(add, [1, 2, 3, 4]))
    state = client.get("/api/state").json()
    assert [state["units"][uid]["pins"] for uid in (1, 2, 3, 4)] == [5, 5, 5, 5]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_game_ends_at_once_when_a_side_has_no_unit_left(ruleset):
    tracker = new_tracker(ruleset)
    side_b = [u.uid for u in tracker.units if u.side == 1]
    for uid in side_b[:-1]:
        tracker = tracker.destroy(uid)
    assert tracker.phase == "orders"
    over = tracker.set_pins(side_b[-1], 20)
    assert over.phase == "over" and over.in_hand is None
    assert "has no unit left" in over.log[-1] and over.destroyed_count(1) == len(side_b)


def test_the_api_schema_is_served_under_api_beside_its_docs(client):
    """The schema is at /api/openapi.json, where /api/docs reads it (and still at
    /openapi.json, where it was first served)."""
    spec = client.get("/api/openapi.json")
    assert spec.status_code == 200 and "/api/fought" in spec.json()["paths"]
    assert "/api/openapi.json" in client.get("/api/docs").text
    assert client.get("/openapi.json").json() == spec.json()


def test_a_roll_the_players_made_but_did_not_give_is_asked_for_by_name(client):
    """roll: false says the players rolled: the result they left out is named (not
    taken for a request that gave both)."""
    state = client.post("/api/draw").json()
    uid = next(u["uid"] for u in state["units"] if u["side"] == state["in_hand"] and u["waiting"])
    order = client.post("/api/order", json={"unit": uid, "order": "Advance", "roll": False})
    assert order.status_code == 409
    said = order.json()["error"]
    assert "no outcome" in said and "both" not in said and "pass, fail" in said
    check = client.post("/api/morale-check", json={"unit": 12, "roll": False})
    assert check.status_code == 409
    said = check.json()["error"]
    assert "no passed" in said and "both" not in said
    both = client.post("/api/morale-check", json={"unit": 12, "roll": True, "passed": True})
    assert both.status_code == 409 and "both" in both.json()["error"]
    with pytest.raises(AidError, match="neither dice nor an outcome"):
        with_die_in_hand(new_tracker("konflikt47"), 0).give_order(0, "Fire")
    with pytest.raises(AidError, match="neither dice nor whether it passed"):
        new_tracker("konflikt47").morale_check(0)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_destroyed_units_die_is_said_as_it_is_in_the_bag_used_or_kept(ruleset):
    tracker = new_tracker(ruleset)
    when = "at the turn end" if tracker.rules.destroyed_dice_stay_in_cup else "now"
    assert (
        tracker.destroy(1).log[-1]
        == f"{tracker.units[1].name} destroyed (its die leaves the bag {when})"
    )
    ordered = with_die_in_hand(tracker, 0).give_order(1, "Down", outcome="pass")
    used = ordered.destroy(1).log[-1]
    assert "leaves the bag" not in used and used.endswith("(its die was used this turn)")
    kept = ordered_all(ordered).end_turn(keep=[1])
    assert kept.destroy(1).log[-1].endswith("(its Down die, kept from the last turn, is put aside)")
    enemy = next(u.uid for u in tracker.units if u.side == 1 and u.start_models == 10)
    ran = with_die_in_hand(tracker, 0).give_order(1, "Run", outcome="pass")
    both = ran.fought(1, enemy, "both").log[-1]
    assert both.endswith(
        f"both destroyed ({tracker.units[1].name}: its die was used this turn; "
        f"{tracker.units[enemy].name}: its die leaves the bag {when})"
    )


def test_the_game_over_line_says_who_won_as_far_as_the_aid_can_tell():
    tracker = new_tracker("konflikt47")  # a meeting engagement: won on units destroyed
    side_b = [u.uid for u in tracker.units if u.side == 1]
    wiped = tracker
    for uid in side_b:
        wiped = wiped.destroy(uid)
    armies = tracker.armies
    assert wiped.log[-1].startswith(
        f"Game over ({armies[1]} has no unit left): {armies[0]} wins (the only side with "
        f"units left); units lost: {armies[0]} 0, {armies[1]} {len(side_b)}"
    )
    last = ordered_all(new_tracker("konflikt47", turns=1).destroy(side_b[0]))
    assert f"{armies[0]} wins on units destroyed (1 to 0)" in last.end_turn().log[-1]
    level = ordered_all(new_tracker("konflikt47", turns=1))
    assert "a draw (0 units destroyed each)" in level.end_turn().log[-1]
    held = replace(level, victory="objectives").end_turn().log[-1]
    assert "the objectives held now decide who won (the aid cannot see the table)" in held
    old = replace(level, victory=None).end_turn().log[-1]  # (a save from before it was kept)
    assert "the scenario decides who won" in old
    both = tracker  # each side's last squad wipes the other's out: level, a draw
    for uid in (u.uid for u in tracker.units if u.uid not in (1, 10)):
        both = both.destroy(uid)
    over = with_die_in_hand(both, 0).give_order(1, "Run", outcome="pass").fought(1, 10, "both")
    assert over.log[-1].startswith(
        "Game over (neither side has a unit left): a draw (9 units destroyed each)"
    )


@pytest.mark.parametrize(
    ("options", "again"),
    [
        ([], "kriegsspiel aid"),
        (["--port", "8123"], "kriegsspiel aid --port 8123"),
        (
            ["--save", "my game.jsonl", "--host", "0.0.0.0", "--port", "8123", "--no-open"],
            "kriegsspiel aid --save 'my game.jsonl' --host 0.0.0.0 --port 8123 --no-open",
        ),
        (["--password", "tiger"], "kriegsspiel aid"),
    ],
)
def test_the_stop_message_goes_on_where_the_aid_was_served(
    tmp_path, monkeypatch, capsys, options, again
):
    """The stopped aid's "goes on with it" names the options it was started with that the
    save does not hold (a --port chosen because the default was busy, above all); typed
    back, that command is served the same way. A password is asked for, not shown."""
    import shlex

    from typer.testing import CliRunner

    import kriegsspiel.aid.command as aid_command
    from kriegsspiel.aid import server
    from kriegsspiel.cli import app

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(aid_command, "_check_free", lambda host, port: None)
    monkeypatch.setattr(server, "serve", lambda app, host, port: None)
    monkeypatch.setattr(aid_command.webbrowser, "open", lambda address: True)
    served: list[dict[str, object]] = []
    real_run_aid = aid_command.run_aid

    def run_aid(asked, **how):
        served.append({"save": asked.save, **how})
        return real_run_aid(asked, **how)

    monkeypatch.setattr(aid_command, "run_aid", run_aid)
    runner = CliRunner()
    first = runner.invoke(app, ["aid", "--seed", "1", *options])
    assert first.exit_code == 0, first.output
    stop = first.output.strip().splitlines()[-1]
    keyed = ", given --password and its word again" if "--password" in options else ""
    assert stop.endswith(f": {again} goes on with it{keyed}."), stop
    assert "tiger" not in stop
    command = shlex.split(again)
    assert command[:2] == ["kriegsspiel", "aid"]
    back = runner.invoke(app, [*command[1:], *(["--password", "tiger"] if keyed else [])])
    assert back.exit_code == 0 and "Going on with the game saved in" in back.output
    assert served[1] == served[0]  # (the same save, address, port, browser and password)
