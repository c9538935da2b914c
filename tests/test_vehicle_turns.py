"""How vehicles turn, drive, reverse and choose their facing (docs/rules: "Vehicle turns
and reversing", "Choosing a vehicle's facing")."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.bolt_action_tactics.move_value import FACING_WORTH
from kriegsspiel.core.game import IllegalActionError
from kriegsspiel.core.scenario import load_scenario, sample_scenarios
from kriegsspiel.core.table import Point, Table
from kriegsspiel.render.game_account import describe
from kriegsspiel.rulesets.bolt_action.army import load_army, sample_armies
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.candidates import order_candidates, toward_start
from kriegsspiel.rulesets.bolt_action.game.record_events import Order
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.table_rules import (
    check_move,
    check_order_move,
    turns_needed,
)
from kriegsspiel.rulesets.bolt_action.game.units import UnitState

WALKER, PANZER, SHERMAN = 7, 8, 17  # Konflikt '47 samples: 2 Advance turns; tracked, 1
CARRIER, HALF_TRACK = 7, 18  # Bolt Action samples: a recce carrier; a half-track (1 Run turn)


def new_game(ruleset: str = "konflikt47", *keep: int) -> BoltActionGame:
    """The sample lists on an open table, every unit but ``keep`` off it, the bag drawn
    for side A."""
    armies = [load_army(p, ruleset) for p in sample_armies(ruleset)[:2]]
    game = BoltActionGame(
        ruleset, load_scenario(sample_scenarios()[1]), (armies[0], armies[1]), seed=1
    )
    game.table = Table(72, 48)
    for u in game.units:
        if u.uid not in keep:
            u.destroyed = True
    game.turn_dice = tuple(u.uid for u in game.units if not u.destroyed)
    return game


def place(unit: UnitState, x: float, y: float, heading: float) -> None:
    anchor = unit.anchor
    unit.translate(x - anchor.x, y - anchor.y)
    unit.heading = heading


def order(game: BoltActionGame, action: Action) -> None:
    """Give side A's unit this order, its order test passed (a unit without pins)."""
    game.apply_action(Action("draw", side=0))
    game.apply_action(action)


def test_a_pivot_too_small_to_notice_is_no_turn() -> None:
    rules = new_game().rules
    assert [turns_needed(rules, d) for d in (0, 0.9, 1.0, 1.5, 90, 91.0, 91.5, 180)] == [
        0,
        0,
        0,
        1,
        1,
        1,
        2,
        2,
    ]


def test_a_vehicle_with_two_turns_turns_about_and_drives_at_its_full_rate() -> None:
    """The walker (12", two turns on an Advance) turns round and drives 10" away: before,
    every move over 135 degrees off its heading was a reverse at half rate, and refused."""
    game = new_game("konflikt47", WALKER, SHERMAN)
    place(game.units[SHERMAN], 36, 46, heading=180)
    walker = game.units[WALKER]
    place(walker, 36, 30, heading=0)
    about = check_move(game.rules, game.table, walker, Point(36, 20), run=False)
    assert about.allowed and not about.reverse and about.heading == 180
    order(game, Action("order", unit=WALKER, order="Advance", to=(36, 20)))
    assert walker.anchor == Point(36, 20) and walker.heading == 180


def test_a_vehicle_may_still_choose_to_reverse_keeping_its_front_to_the_enemy() -> None:
    game = new_game("konflikt47", WALKER, SHERMAN)
    place(game.units[SHERMAN], 36, 46, heading=180)
    walker = game.units[WALKER]
    place(walker, 36, 30, heading=0)
    back = check_move(game.rules, game.table, walker, Point(36, 24), run=False, way="reverse")
    assert back.allowed and back.reverse and back.heading == 0
    too_far = check_move(game.rules, game.table, walker, Point(36, 23), run=False, way="reverse")
    assert not too_far.allowed and 'beyond the 6" allowed' in too_far.reason  # half of 12"
    order(game, Action("order", unit=WALKER, order="Advance", to=(36, 24), choice="reverse"))
    assert walker.anchor == Point(36, 24) and walker.heading == 0
    moves = [e.data for e in game.events if e.kind == "move"]
    assert moves == [{"turn": 1, "unit": WALKER, "to": [36, 24], "run": False, "reverse": True}]


def test_a_tank_with_one_turn_cannot_turn_about_so_it_reverses() -> None:
    game = new_game("konflikt47", PANZER)
    tank = game.units[PANZER]
    place(tank, 36, 30, heading=0)
    back = check_move(game.rules, game.table, tank, Point(36, 26), run=False)
    assert back.allowed and back.reverse and back.heading == 0
    far = check_move(game.rules, game.table, tank, Point(36, 22), run=False)
    assert not far.allowed
    assert far.reason == (
        '8.0" is beyond the 4.5" allowed to reverse; '
        "it needs two 90° turns to drive there (a pivot of 180° (two turns); one allowed on "
        "an Advance)"
    )


def test_reversing_off_straight_back_takes_a_turn() -> None:
    """A tank reverses 30 degrees off straight back: it pivots first (its one turn), so it
    ends facing 30 degrees round; to end facing as it began it would need a second turn."""
    game = new_game("konflikt47", PANZER)
    tank = game.units[PANZER]
    place(tank, 36, 30, heading=0)
    to = Point(36 + 4 * 0.5, 30 - 4 * 3**0.5 / 2)  # 4" away, 30 degrees off straight back
    back = check_move(game.rules, game.table, tank, to, run=False, way="reverse")
    assert back.allowed and back.heading == pytest.approx(330)
    square = check_move(game.rules, game.table, tank, to, run=False, way="reverse", facing=0)
    assert not square.allowed and "two 90° turns to reverse there" in square.reason


def test_a_vehicle_may_turn_where_it_stands_within_its_turns() -> None:
    game = new_game("konflikt47", PANZER)
    tank = game.units[PANZER]
    place(tank, 36, 30, heading=0)
    here = Point(36, 30)
    assert check_move(game.rules, game.table, tank, here, run=False, facing=90).allowed
    half = check_move(game.rules, game.table, tank, here, run=False, facing=180)
    assert not half.allowed and "two 90° turns" in half.reason
    assert not check_move(game.rules, game.table, tank, here, run=True, facing=90).allowed
    order(game, Action("order", unit=PANZER, order="Advance", to=(36, 30), facing=90))
    assert tank.heading == 90 and tank.anchor == here and tank.moved == "advance"


def test_turns_before_and_after_a_move_add_up() -> None:
    game = new_game("konflikt47", PANZER)
    tank = game.units[PANZER]
    place(tank, 36, 30, heading=0)
    rules, table = game.rules, game.table
    ahead = Point(36, 38)
    assert check_move(rules, table, tank, ahead, run=False, facing=90).allowed  # one, at the end
    aside = Point(42, 36)  # 45 degrees round: one turn already
    assert check_move(rules, table, tank, aside, run=False).heading == pytest.approx(45)
    assert not check_move(rules, table, tank, aside, run=False, facing=0).allowed


def test_a_run_allows_only_the_run_turns() -> None:
    """A tank runs only straight on (a turn of a degree or less is not one); a half-track
    may turn once on a Run, before or after it drives, not both."""
    game = new_game("konflikt47", PANZER)
    tank = game.units[PANZER]
    place(tank, 36, 10, heading=0)
    rules, table = game.rules, game.table
    assert check_move(rules, table, tank, Point(36.2, 27.5), run=True).allowed  # 0.7 degrees off
    assert not check_move(rules, table, tank, Point(36.6, 27.5), run=True).allowed  # 2 degrees
    ba = new_game("bolt-action-1", HALF_TRACK)
    track = ba.units[HALF_TRACK]
    place(track, 36, 10, heading=0)
    here, ahead = Point(36, 10), Point(36, 28)
    assert check_move(ba.rules, ba.table, track, here, run=True, facing=90).allowed
    assert check_move(ba.rules, ba.table, track, ahead, run=True, facing=90).allowed
    assert not check_move(ba.rules, ba.table, track, Point(44, 20), run=True, facing=0).allowed
    assert not check_move(ba.rules, ba.table, track, Point(36, 5), run=True).allowed


def test_a_recce_vehicle_reverses_at_its_full_advance_rate() -> None:
    game = new_game("bolt-action-1", CARRIER)
    carrier = game.units[CARRIER]
    place(carrier, 36, 30, heading=0)
    back = check_move(game.rules, game.table, carrier, Point(36, 22), run=False, way="reverse")
    assert carrier.vehicle is not None and carrier.vehicle.recce
    assert back.allowed and back.reverse


@pytest.mark.parametrize(
    ("action", "why"),
    [
        (Action("order", unit=0, order="Advance", to=(20, 10), facing=90), "only a vehicle"),
        (Action("order", unit=0, order="Advance", to=(20, 10), choice="reverse"), "only a vehicle"),
        (
            Action("order", unit=PANZER, order="Run", to=(36, 20), choice="reverse"),
            "only on an Advance",
        ),
        (Action("order", unit=PANZER, order="Fire", target=SHERMAN, facing=90), "with an Advance"),
        (Action("order", unit=PANZER, order="Down", facing=90), "with an Advance"),
        (Action("order", unit=PANZER, order="Advance", to=(36, 12), facing=360), "under 360"),
        (Action("order", unit=PANZER, order="Advance", to=(36, 12), facing=-5), "at least 0"),
        (
            Action("order", unit=PANZER, order="Advance", to=(36, 12), facing=float("nan")),
            "number of degrees",
        ),
        (Action("order", unit=PANZER, order="Advance", to=(36, 10), choice="reverse"), "a move"),
        (Action("order", unit=PANZER, order="Advance", to=(36, 10), facing=180), "two 90° turns"),
    ],
)
def test_a_facing_or_reverse_that_cannot_be_is_refused_and_changes_nothing(
    action: Action, why: str
) -> None:
    game = new_game("konflikt47", 0, PANZER, SHERMAN)
    place(game.units[0], 10, 10, heading=0)
    place(game.units[PANZER], 36, 10, heading=0)
    place(game.units[SHERMAN], 36, 40, heading=180)
    game.apply_action(Action("draw", side=0))
    before = [(u.anchor, u.heading, u.order, u.moved) for u in game.units]
    events = len(game.events)
    with pytest.raises(IllegalActionError, match=why):
        game.apply_action(action)
    assert [(u.anchor, u.heading, u.order, u.moved) for u in game.units] == before
    assert len(game.events) == events


def test_a_turn_and_a_reverse_are_recorded_and_told() -> None:
    pivot = Action("order", unit=PANZER, order="Advance", to=(36.0, 10.0), facing=90.0)
    back = Action("order", unit=PANZER, order="Advance", to=(36.0, 7.0), choice="reverse")
    for action in (pivot, back):
        assert Action.from_json(json.loads(json.dumps(action.to_json()))) == action
    game = new_game("konflikt47", PANZER, SHERMAN)
    place(game.units[PANZER], 36, 10, heading=0)
    place(game.units[SHERMAN], 36, 40, heading=180)
    order(game, pivot)
    told = [describe(e, game.units) for e in game.events if e.kind == "order"]
    assert told[-1] is not None and "then facing 90°" in told[-1]
    assert "facing 90°" in pivot.describe(game)
    assert "(reverse)" in back.describe(game)


def test_a_vehicle_is_offered_a_reverse_and_a_turn_to_face_the_enemy() -> None:
    game = new_game("konflikt47", 0, PANZER, SHERMAN)
    place(game.units[0], 10, 10, heading=0)
    tank = game.units[PANZER]
    place(tank, 36, 30, heading=0)
    place(game.units[SHERMAN], 60, 30, heading=270)  # on the tank's right flank
    offered = order_candidates(game, tank)
    turns = [a for a in offered if a.facing is not None]
    assert Action("order", unit=PANZER, order="Advance", to=(36, 30), facing=90.0) in turns
    for a in offered:
        if a.to is not None:
            check = check_move(
                game.rules,
                game.table,
                tank,
                Point(*a.to),
                a.order == "Run",
                way=a.choice,
                facing=a.facing,
            )
            assert check.allowed, a
    reverse = [a for a in offered if a.choice == "reverse"]
    assert reverse
    for a in reverse:
        assert a.to is not None
        assert not check_move(game.rules, game.table, tank, Point(*a.to), run=False).reverse
    squad = order_candidates(game, game.units[0])
    assert not [a for a in squad if a.facing is not None or a.choice == "reverse"]


def test_the_tactical_player_turns_its_front_to_the_threat() -> None:
    """With an enemy tank on its flank, a turn to face it is worth more to the tactical
    player than staying side on; and driving off showing its rear, less."""
    game = new_game("konflikt47", PANZER, SHERMAN)
    tank = game.units[PANZER]
    place(tank, 36, 30, heading=0)
    place(game.units[SHERMAN], 60, 30, heading=270)
    game.apply_action(Action("draw", side=0))
    player = TacticalPlayer(1)
    face = Action("order", unit=PANZER, order="Advance", to=(36, 30), facing=90.0)
    ahead = Action("order", unit=PANZER, order="Advance", to=(36, 36))
    away = Action("order", unit=PANZER, order="Advance", to=(30, 30))  # 90 degrees left: rear
    gain = FACING_WORTH["front"] - FACING_WORTH["side"]
    assert player.value(game, face) == pytest.approx(gain)
    assert player._turn_gain(game, tank, ahead) == 0
    assert player._turn_gain(game, tank, away) == FACING_WORTH["rear"] - FACING_WORTH["side"]
    for action in game.legal_actions():  # the caps stay caps with the turns in the worth
        cap = player._ceiling(game, action)
        if cap is not None:
            assert player.value(game, action) <= cap + 1e-9


def test_the_tactical_player_weighs_a_turning_vehicles_shot_as_the_game_fires_it() -> None:
    """A Panzer IV turning to face troops on its flank brings its hull MMG to bear: the
    shot the tactical player weighs for that order is the one the game then fires (once
    it weighed the shot from the heading before the turn, without the hull gun)."""
    game = new_game("konflikt47", PANZER, 10)
    tank, squad = game.units[PANZER], game.units[10]
    place(tank, 36, 20, heading=0)
    place(squad, 50, 20, heading=270)
    game.apply_action(Action("draw", side=0))
    turn = Action("order", unit=PANZER, order="Advance", to=(36, 20), target=10, facing=90.0)
    player = TacticalPlayer(1)
    before = game.shot_groups(tank, squad, moving=True, origin=Point(36, 20))
    weighed = game.shot_groups(tank, squad, moving=True, origin=Point(36, 20), heading=90)
    assert sum(g.shots for g in weighed) > sum(g.shots for g in before)  # the hull MMG
    expected = player.damage(game, tank, squad, moving=True, origin=Point(36, 20), heading=90)
    assert player.value(game, turn) == pytest.approx(
        expected + player._turn_gain(game, tank, turn) - tank.pins
    )
    tank.heading = 90  # as the order leaves it: the game's own shooting from there
    assert game.shot_groups(tank, squad, moving=True) == weighed


@given(
    st.floats(min_value=0, max_value=72, allow_nan=False),
    st.floats(min_value=0, max_value=72, allow_nan=False),
)
def test_a_candidates_coordinate_is_rounded_toward_the_start(v: float, s: float) -> None:
    """A rounded coordinate never lies farther from the start than the one worked out,
    and is within a hundredth of it (on the hundredths unless it is the start's own)."""
    r = toward_start(v, s)
    assert abs(r - s) <= abs(v - s)
    assert abs(r - v) <= 0.01 + 1e-9
    assert r == v or r == round(r, 2)


def test_a_move_of_half_an_advance_back_is_offered_in_reverse_from_any_place() -> None:
    """The half-way withdrawal is exactly the reverse's allowance: rounded away from the
    start it was often a few thousandths too long, and the reverse was not offered."""
    game = new_game("konflikt47", WALKER, PANZER, SHERMAN)
    place(game.units[SHERMAN], 36, 46, heading=180)
    rng = random.Random(5)
    for uid in (WALKER, PANZER):
        vehicle = game.units[uid]
        for other in {WALKER, PANZER} - {uid}:  # (parked out of the way: vehicles keep 4")
            place(game.units[other], 6, 6, heading=0)
        for _ in range(40):
            place(vehicle, rng.uniform(20, 50), rng.uniform(14, 30), heading=0)
            offered = [a for a in order_candidates(game, vehicle) if a.to is not None]
            backing = [
                a
                for a in offered
                if a.order == "Advance"
                and a.to[1] < vehicle.anchor.y  # type: ignore[index]
                and check_order_move(game.rules, game.table, vehicle, a).reverse
            ]
            assert backing, (vehicle.name, vehicle.anchor)


def test_a_turn_where_it_stands_may_name_its_place_as_the_observation_gives_it() -> None:
    """The observation gives places to 0.001": a turn ordered there is a turn where it
    stands, not a drive of a thousandth of an inch that needs a turn to face its way."""
    game = new_game("konflikt47", PANZER, SHERMAN)
    tank = game.units[PANZER]
    place(tank, 40.0909091, 20.0, heading=0)
    place(game.units[SHERMAN], 36, 46, heading=180)
    game.apply_action(Action("draw", side=0))
    seen = next(u for u in game.observation()["units"] if u["uid"] == PANZER)
    turn = Action("order", unit=PANZER, order="Advance", to=(seen["x"], seen["y"]), facing=90.0)
    game.apply_action(turn)
    assert tank.heading == 90
    half = check_move(game.rules, game.table, tank, tank.anchor, run=False, facing=270.0)
    assert half.reason == (
        "it needs two 90° turns to turn so (a pivot of 180° (two turns); one allowed on an Advance)"
    )
    back = check_move(game.rules, game.table, tank, Point(37.0, 20), run=False, way="reverse")
    assert back.allowed and back.reverse  # a reverse straight back from a heading of 90
    long = check_move(game.rules, game.table, tank, Point(35.0, 20), run=False, way="reverse")
    assert long.reason.endswith("allowed to reverse")


def test_an_order_given_in_whole_numbers_replays_from_its_record() -> None:
    """A facing (or a place) given as a whole number is written as the float a record's
    reader reads back, so the replay takes the same order (it parted at that line)."""
    game = new_game("konflikt47", PANZER, SHERMAN)
    place(game.units[PANZER], 36, 10, heading=0)
    place(game.units[SHERMAN], 36, 40, heading=180)
    order(game, Action("order", unit=PANZER, order="Advance", to=(36, 14), facing=90))
    line = next(e for e in game.events if e.kind == "order")
    read = Order.model_validate_json(json.dumps({"event": "order", **line.data}))
    assert json.dumps(read.action().to_json()) == json.dumps(
        Action("order", unit=PANZER, order="Advance", to=(36, 14), facing=90).to_json()
    )
    assert line.data["facing"] == 90.0 and isinstance(line.data["facing"], float)
    assert line.data["to"] == [36.0, 14.0] and all(isinstance(v, float) for v in line.data["to"])


def test_a_vehicle_is_offered_a_turn_to_face_the_threat_beyond_harmless_troops() -> None:
    """Riflemen nearer on one flank cannot hurt a Panzer IV; the Sherman on the other can:
    the tank is offered a turn to face each, and the tactical player values the Sherman's."""
    game = new_game("konflikt47", PANZER, 10, SHERMAN)
    tank = game.units[PANZER]
    place(tank, 36, 24, heading=0)
    place(game.units[10], 46, 24, heading=270)
    place(game.units[SHERMAN], 10, 24, heading=90)
    facings = {a.facing for a in order_candidates(game, tank) if a.to == (36, 24)}
    assert {90.0, 270.0} <= facings
    game.apply_action(Action("draw", side=0))
    player = TacticalPlayer(1)
    to_sherman = Action("order", unit=PANZER, order="Advance", to=(36, 24), facing=270.0)
    to_squad = Action("order", unit=PANZER, order="Advance", to=(36, 24), facing=90.0)
    assert player.value(game, to_sherman) > player.value(game, to_squad)


def test_a_refusal_for_its_turns_names_the_pivots() -> None:
    """A solo probe's Panzer IV at (68, 15) facing 0° was refused a move to (62.5, 22)
    facing 330° for "two 90° turns", and the pivots were only some 38° and 8°: each
    pivot of up to 90° is a turn, and the refusal now names them."""
    game = new_game("konflikt47", PANZER)
    tank = game.units[PANZER]
    place(tank, 68, 15, heading=0)
    two = check_move(game.rules, game.table, tank, Point(62.5, 22), run=False, facing=330)
    assert two.reason == (
        "it needs two 90° turns to drive there (two pivots: 38°, then 8°; one allowed on "
        "an Advance); it needs four 90° turns to reverse there (two pivots: 142° (two "
        "turns), then 172° (two turns); one allowed on an Advance)"
    )
    assert check_move(game.rules, game.table, tank, Point(62.5, 22), run=False).allowed


def test_the_account_says_which_way_a_vehicle_faces_after_its_move() -> None:
    """A solo probe could not tell from the account which way the Cromwell faced after a
    move (its hull MMG's arc then dropped out of the fire list unsaid): an order's line
    ends with the facing the move left it with, where the move turned it and the order
    did not name it; a drive straight ahead leaves it as it was, unsaid."""
    from kriegsspiel.render.game_account import account_from

    game = new_game("konflikt47", PANZER, SHERMAN)
    tank = game.units[PANZER]
    place(tank, 68, 15, heading=0)
    place(game.units[SHERMAN], 10, 46, heading=180)
    told = []
    for action in (
        Action("order", unit=PANZER, order="Advance", to=(62.5, 22.0)),
        Action("order", unit=PANZER, order="Advance", to=(62.5, 22.0), facing=330.0),
        Action("order", unit=PANZER, order="Advance", to=(62.5, 26.0)),
    ):
        start = len(game.events)
        order(game, action)
        told += account_from(game.events[start:], game.units, game.turn)[0]
        game.units[PANZER].order = None  # (its die back in the bag: it may be ordered again)
        game.turn_dice = (PANZER, SHERMAN)
    assert told == [
        '  Panzer IV Ausf. H [A]: Advance to (62.5", 22") (now facing 322°)',
        '  Panzer IV Ausf. H [A]: Advance to (62.5", 22") then facing 330°',
        '  Panzer IV Ausf. H [A]: Advance to (62.5", 26") (now facing 0°)',
    ]


def test_look_at_a_vehicle_says_where_each_weapon_is_mounted() -> None:
    """A solo probe's 'look' showed "MMG carried 2" on a Pz IV, not which is in the turret
    and which in the hull (whose arc the fire list keeps to): a vehicle's card has a
    "mounted" column from its army list; troops' cards have none."""
    import io

    from rich.console import Console

    from kriegsspiel.solo.briefing import unit_card

    game = new_game("konflikt47", PANZER)
    out = io.StringIO()
    console = Console(file=out, width=200)
    console.print(unit_card(game, game.units[PANZER]))
    console.print(unit_card(game, game.units[1]))
    rows = out.getvalue().splitlines()
    assert game.units[PANZER].vehicle is not None
    assert game.units[PANZER].vehicle.mounts("Medium machine gun (MMG)") == (
        "turret, hull (front arc)"
    )
    mmg = next(r for r in rows if "│ Medium machine gun (MMG) " in r)
    assert "│ 2       │ turret, hull (front arc) │" in mmg
    assert sum("mounted" in r for r in rows) == 1  # (the squad's card has no such column)


def test_a_refusal_for_its_turns_says_small_numbers_in_words() -> None:
    """Solo probe: "it needs 1 90-degree turn" read oddly; it reads "one 90° turn", and
    a Run that allows no turn says "none allowed"."""
    from kriegsspiel.core.names import counted_in_words

    assert counted_in_words(1, "90° turn") == "one 90° turn"
    assert counted_in_words(0, "pin") == "no pins" and counted_in_words(12, "pin") == "12 pins"
    game = new_game("bolt-action-1", CARRIER)
    carrier = game.units[CARRIER]
    place(carrier, 36, 20, heading=0)
    run = check_move(game.rules, game.table, carrier, Point(46, 20), run=True)
    assert run.reason.startswith(
        "it needs one 90° turn to drive there (a pivot of 90°; none allowed on a Run);"
    ), run.reason
