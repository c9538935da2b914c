"""The rules the game engine adds on the table (docs/rules: 'the game on the table')."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from kriegsspiel.core.game import IllegalActionError
from kriegsspiel.core.procedure import RandomDice, ScriptedDice
from kriegsspiel.core.scenario import load_scenario, sample_scenarios
from kriegsspiel.core.table import Point, Table, TerrainFeature, rectangle
from kriegsspiel.rulesets.bolt_action.army import load_army, sample_armies
from kriegsspiel.rulesets.bolt_action.edition import rules_for
from kriegsspiel.rulesets.bolt_action.game.actions import Action, Pending
from kriegsspiel.rulesets.bolt_action.game.candidates import order_candidates
from kriegsspiel.rulesets.bolt_action.game.close_quarters import chase, escape
from kriegsspiel.rulesets.bolt_action.game.fubar import panic
from kriegsspiel.rulesets.bolt_action.game.orders import order_test_of
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.table_rules import (
    check_move,
    facing_hit,
    in_arc,
    movement_row,
)
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.rulesets.bolt_action.shot import Group


def new_game(ruleset: str = "konflikt47", scenario: int = 1, seed: int = 1) -> BoltActionGame:
    armies = [load_army(p, ruleset) for p in sample_armies(ruleset)[:2]]
    return BoltActionGame(
        ruleset, load_scenario(sample_scenarios()[scenario]), (armies[0], armies[1]), seed=seed
    )


def only(game: BoltActionGame, *keep: int) -> None:
    """Take every other unit off the table (a hand-built position)."""
    for u in game.units:
        if u.uid not in keep:
            u.destroyed = True
    # off the table before the game began: their dice were never put in the cup
    game.turn_dice = tuple(u.uid for u in game.units if not u.destroyed and u.retained is None)


def place(unit: UnitState, x: float, y: float, heading: float | None = None) -> None:
    anchor = unit.anchor
    unit.translate(x - anchor.x, y - anchor.y)
    if heading is not None:
        unit.heading = heading


def _inside_own_zone(game: BoltActionGame) -> None:
    """Every model on the table, inside one of its side's zones, clear of buildings."""
    import shapely

    names = game.scenario.sides()
    for unit in game.units:
        zones = [
            shapely.Polygon(z.polygon).buffer(1e-6)
            for z in game.scenario.deployment
            if names.index(z.side) == unit.side
        ]
        for m in unit.models:
            assert game.table.contains(m.point), unit.name
            assert any(z.contains(shapely.Point(m.x, m.y)) for z in zones), (unit.name, m.point)
            assert not any(f.category == "building" for f in game.table.features_at(m.point))


def test_deployment_inside_zones() -> None:
    for ruleset in ("konflikt47", "bolt-action-1"):
        for scenario in (0, 1):
            _inside_own_zone(new_game(ruleset, scenario))


def _with_zones(zones: str, terrain: str = "terrain: []") -> BoltActionGame:
    from kriegsspiel.core.scenario import parse_scenario

    text = f"""
name: zones
turns: 3
victory: units destroyed
{terrain}
deployment:
{zones}
"""
    scenario = parse_scenario(text, "zones.yaml")
    armies = [load_army(p, "konflikt47") for p in sample_armies("konflikt47")[:2]]
    return BoltActionGame("konflikt47", scenario, (armies[0], armies[1]), seed=1)


NORTH = "  - {side: north, polygon: [[0, 36], [72, 36], [72, 48], [0, 48]]}"


def test_a_side_sets_up_in_all_its_zones_and_an_l_shaped_one() -> None:
    """A side may have several zones: its units are shared among them by area; and a zone
    of any shape holds its units inside it (not inside its bounding box)."""
    two = _with_zones(
        "  - {side: south, polygon: [[0, 0], [20, 0], [20, 12], [0, 12]]}\n"
        "  - {side: south, polygon: [[52, 0], [72, 0], [72, 12], [52, 12]]}\n" + NORTH
    )
    _inside_own_zone(two)
    xs = [u.anchor.x for u in two.units if u.side == 0]
    assert min(xs) < 20 and max(xs) > 52
    ell = _with_zones(
        "  - {side: south, polygon: [[0, 0], [72, 0], [72, 8], [12, 8], [12, 30], [0, 30]]}\n"
        + NORTH
    )
    _inside_own_zone(ell)


def test_a_zone_without_room_or_overlapping_the_enemys_is_refused() -> None:
    from kriegsspiel.errors import DataFileError, UsageError

    with pytest.raises(UsageError, match=r"has no room for .* make the zone larger"):
        _with_zones("  - {side: south, polygon: [[0, 0], [1, 0], [1, 0.01], [0, 0.01]]}\n" + NORTH)
    # a building over all of it: no list's unit could stand there
    with pytest.raises(UsageError, match="lies wholly in the building 'block'"):
        _with_zones(
            "  - {side: south, polygon: [[0, 0], [72, 0], [72, 12], [0, 12]]}\n" + NORTH,
            "terrain:\n  - {name: block, category: building, cover: hard,"
            " polygon: [[0, 0], [72, 0], [72, 13], [0, 13]]}",
        )
    with pytest.raises(DataFileError, match="'south' and 'north' overlap"):
        _with_zones("  - {side: south, polygon: [[0, 0], [72, 0], [72, 40], [0, 40]]}\n" + NORTH)


def test_set_up_reads_a_category_as_the_terrain_table_does() -> None:
    """A "Building" or a "wall" is a building or an obstacle at set-up as in a move (set-up
    compared the written name with 'building' and 'obstacle', so it put men in the one and
    tanks on the other)."""
    from kriegsspiel.errors import UsageError

    for category in ("Building", "BUILDING"):
        with pytest.raises(UsageError, match="lies wholly in the building 'block'"):
            _with_zones(
                "  - {side: south, polygon: [[0, 0], [72, 0], [72, 12], [0, 12]]}\n" + NORTH,
                f"terrain:\n  - {{name: block, category: {category}, cover: hard,"
                " polygon: [[0, 0], [72, 0], [72, 13], [0, 13]]}",
            )
    walled = _with_zones(
        "  - {side: south, polygon: [[0, 0], [72, 0], [72, 12], [0, 12]]}\n" + NORTH,
        "terrain:\n  - {name: walls, category: wall, cover: hard,"
        " polygon: [[0, 0], [72, 0], [72, 6], [0, 6]]}",
    )
    wall = walled.table.features[0]
    for unit in walled.units:
        if unit.vehicle is not None and unit.side == 0:
            assert not any(wall in walled.table.features_at(m.point) for m in unit.alive_models)


def test_move_checks_terrain_along_the_path() -> None:
    game = new_game()
    tank = game.units[8]  # Panzer IV
    building = next(f for f in game.table.features if f.category == "building")
    xs, ys = zip(*building.polygon, strict=True)
    place(tank, min(xs) - 4, sum(ys) / len(ys), heading=90)
    inside = Point(sum(xs) / len(xs), sum(ys) / len(ys))
    assert not check_move(game.rules, game.table, tank, inside, run=False).allowed
    infantry = game.units[1]
    place(infantry, min(xs) - 1, sum(ys) / len(ys))
    assert check_move(game.rules, game.table, infantry, inside, run=False).allowed


@pytest.mark.parametrize(
    ("ruleset", "uid", "profile"),
    [
        ("konflikt47", 8, "super-heavy tank"),
        ("bolt-action-1", 19, "heavy tank"),
        ("konflikt47", 7, "super-heavy walker"),
    ],
)
def test_a_heavy_tank_or_walker_cannot_enter_a_building(
    ruleset: str, uid: int, profile: str
) -> None:
    """The terrain table's "No (!)": heavy and super-heavy tanks (and in Konflikt '47
    walkers) "may move through and demolish some buildings in some situations" (sheets
    000, 001); we never demolish one, so a building is closed to them as to any vehicle."""
    game = new_game(ruleset)
    vehicle = game.units[uid]
    assert vehicle.vehicle is not None
    vehicle.vehicle = replace(vehicle.vehicle, target=game.rules.target(profile))
    building = next(f for f in game.table.features if f.category == "building")
    xs, ys = zip(*building.polygon, strict=True)
    place(vehicle, min(xs) - 4, sum(ys) / len(ys), heading=90)
    inside = Point(sum(xs) / len(xs), sum(ys) / len(ys))
    refused = check_move(game.rules, game.table, vehicle, inside, run=False)
    assert not refused.allowed and "impassable" in refused.reason


def test_vehicle_turn_limits_and_reverse() -> None:
    game = new_game()
    game.table = Table(72, 48)  # open ground: only the turn and reverse rules matter here
    tank = game.units[8]  # tracked: Advance 1 turn, Run none
    place(tank, 36, 10, heading=0)
    rules, table = game.rules, game.table
    assert check_move(rules, table, tank, Point(36, 19), run=True).allowed  # straight ahead
    assert not check_move(rules, table, tank, Point(45, 10), run=True).allowed  # a turn on a Run
    assert check_move(rules, table, tank, Point(44, 12), run=False).allowed  # one turn on Advance
    back = check_move(rules, table, tank, Point(36, 6), run=False)
    assert back.allowed and back.reverse  # 4" back: within half of 9"
    assert not check_move(rules, table, tank, Point(36, 4), run=False).allowed  # 6" back: too far


def test_facing_from_bearing() -> None:
    tank_at = Point(36, 24)
    assert facing_hit(0, tank_at, Point(36, 40)) == "front"
    assert facing_hit(0, tank_at, Point(50, 24)) == "side"
    assert facing_hit(0, tank_at, Point(36, 5)) == "rear"
    assert facing_hit(90, tank_at, Point(50, 24)) == "front"


def test_hull_weapon_arcs() -> None:
    at = Point(0, 0)
    assert in_arc("front", 0, at, Point(0, 10)) and not in_arc("front", 0, at, Point(0, -10))
    assert in_arc("turret", 0, at, Point(0, -10))


def _weapon_shots(groups: list[Group]) -> dict[str, int]:
    found: dict[str, int] = {}
    for g in groups:
        found[g.shot.weapon] = found.get(g.shot.weapon, 0) + g.shots
    return found


def test_each_mount_of_one_weapon_keeps_its_own_arc() -> None:
    """A Panzer IV carries a turret and a hull MMG: the turret one bears all round,
    the hull one only to the front (two mounts of one weapon are not one arc)."""
    game = new_game()
    game.table = Table(72, 48)
    only(game, 8, 10)
    tank, squad = game.units[8], game.units[10]
    place(tank, 36, 24, heading=0)  # facing +y
    place(squad, 36, 40)  # ahead: both MMGs bear
    ahead = _weapon_shots(game.shooting_groups(tank, squad, moving=False))
    place(squad, 36, 8)  # behind: only the turret's
    behind = _weapon_shots(game.shooting_groups(tank, squad, moving=False))
    mmg = "Medium machine gun (MMG)"
    assert ahead[mmg] == 2 * behind[mmg] > 0
    assert ahead["Heavy AT gun"] == behind["Heavy AT gun"] == 1


def test_a_vehicle_on_advance_fires_its_fixed_weapons_and_a_team_does_not() -> None:
    game = new_game()
    game.table = Table(72, 48)
    only(game, 3, 8, 10)
    tank, team, squad = game.units[8], game.units[3], game.units[10]  # Panzer IV, MG 42 team
    place(tank, 36, 24, heading=0)
    place(team, 30, 24)
    place(squad, 36, 40)
    assert game.can_shoot(tank, squad, moving=True)
    moving = _weapon_shots(game.shooting_groups(tank, squad, moving=True))
    assert moving == _weapon_shots(game.shooting_groups(tank, squad, moving=False))
    assert not game.can_shoot(team, squad, moving=True)
    assert game.can_shoot(team, squad, moving=False)
    advance = [
        a for a in order_candidates(game, tank) if a.order == "Advance" and a.target is not None
    ]
    assert advance  # the AI is offered Advance-and-fire for the tank


def test_immobilised_after_acting_halts_and_carries_into_later_attacks() -> None:
    """Sheets 000/001/002: immobilised after its action, the die turns to Down and the
    vehicle counts as halted (infantry hit it on 4+, and may assault it though it ran);
    a further Immobilised in a later attack knocks it out."""
    game = new_game()
    game.table = Table(72, 48)
    only(game, 8, 17)
    panzer, sherman = game.units[8], game.units[17]
    place(panzer, 36, 10, heading=0)
    place(sherman, 36, 40, heading=180)
    panzer.order, panzer.moved = "Run", "run"
    game.vehicle_damage(panzer, False, True, False, 1, by=None)
    assert panzer.immobilised and panzer.order == "Down" and panzer.moved is None
    game.vehicle_damage(sherman, False, True, False, 1, by=None)  # not yet activated
    assert sherman.immobilised and sherman.order is None
    groups = game.shooting_groups(sherman, panzer, moving=False)
    profiles = [g.shot.vehicle for g in groups if g.shot.vehicle is not None]
    assert profiles and all(p.immobilised for p in profiles)
    assert game.vehicle_profile_of(panzer, indirect=False).immobilised


def test_a_panicking_unit_that_cannot_move_away_goes_down() -> None:
    """Sheet 001's FUBAR chart: Panic is a Run away from the closest visible enemy, or
    Down if the unit can no longer move; one with room runs."""
    game = new_game()
    game.table = Table(72, 48)
    only(game, 1, 10)
    squad, enemy = game.units[1], game.units[10]
    place(enemy, 36, 30)
    place(squad, 36, 0)  # its back to the table's edge
    panic(game, squad)
    assert squad.order == "Down" and squad.anchor == Point(36, 0)
    place(squad, 36, 18)
    panic(game, squad)
    assert squad.order == "Run" and squad.anchor.y < 18


@pytest.mark.parametrize("how", ["panic", "escape", "chase"])
def test_a_flight_blocked_on_its_way_stops_where_it_is_blocked(how: str) -> None:
    """A squad's Run north from y 26 (a FUBAR panic or an escape from an enemy squad south
    of it; the assaulters' chase after a unit escaped north) toward a river 4" wide at y 36
    that infantry may not cross: its whole Run is refused, so it is cut short where it is
    blocked, as a move offered is (``table_rules.last_legal``): its leading model stops
    short of the river, within 1/64 of the Run. Before, it fell back to 3/4, 1/2 or 1/4 of
    the way, the first that would do (3/4: its leading model 0.5" short of the river)."""
    game = new_game()
    river = TerrainFeature(
        "River", "rough ground", "none", rectangle(0, 36, 72, 40), False, frozenset({"infantry"})
    )
    game.table = Table(72, 60, features=(river,))
    only(game, 1, 10)
    squad, enemy = game.units[1], game.units[10]
    place(squad, 36, 26, 0)
    if how == "chase":
        place(enemy, 36, 50, 0)
        chase(game, squad, enemy, Action("order", side=0, unit=1, order="Run", target=10))
    else:
        place(enemy, 36, 16, 0)
        if how == "panic":
            panic(game, squad)
            assert squad.order == "Run"
        else:
            assert escape(game, squad, enemy)
    run = movement_row(game.rules, squad).run
    lead = max(m.y for m in squad.alive_models)
    assert 36 - run / 64 - 0.01 <= lead < 36 and squad.anchor.x == 36


def test_a_tank_fleeing_in_reverse_goes_the_whole_of_its_reverse() -> None:
    """A tank facing the enemy squad it flees (a FUBAR panic) cannot turn about on a Run
    (no turns), so it reverses on an Advance: the whole of its reverse, half its 9"
    Advance, not a place cut short within it, its front still to the enemy."""
    game = new_game()
    game.table = Table(72, 48)
    only(game, 8, 10)
    tank, enemy = game.units[8], game.units[10]
    place(tank, 36, 20, 0)
    place(enemy, 36, 30, 180)
    panic(game, tank)
    assert tank.order == "Run" and tank.anchor == Point(36, 15.5) and tank.heading == 0


def test_a_flamethrowers_morale_check_takes_the_officers_bonus(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The morale check a flamethrower forces is a morale check like any other: an officer
    in range lends his bonus (as to the check at half strength)."""
    from kriegsspiel.rulesets.bolt_action.game import firing as firing_module
    from kriegsspiel.rulesets.bolt_action.morale import new_test
    from kriegsspiel.rulesets.bolt_action.shooting import plan_shot
    from kriegsspiel.rulesets.bolt_action.shot import Situation

    game = new_game()
    only(game, 1, 9, 10)
    squad, hq, flamer = game.units[10], game.units[9], game.units[1]
    place(hq, 20, 40)
    place(squad, 20, 44)
    place(flamer, 20, 36)
    rules = game.rules
    shot, _ = plan_shot(
        rules,
        rules.weapon("Flamethrower (infantry)"),
        rules.target("regular infantry"),
        Situation(range_inches=5),
    )
    tests = []
    real = firing_module.attack_troops

    def spy(dice: object, groups: object, ctx: object, tally: object = None) -> object:
        tests.append(ctx.morale)  # type: ignore[attr-defined]
        return real(dice, groups, ctx, tally)  # type: ignore[arg-type]

    monkeypatch.setattr(firing_module, "attack_troops", spy)
    game.resolve_attack(flamer, squad, [Group(shot, 1)])
    assert tests == [new_test(rules, squad.quality, officer="First Lieutenant", pins=0)]


def test_a_vehicles_on_fire_check_takes_the_officers_bonus_as_its_order_tests_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A vehicle's crew tests its morale when it catches fire: a morale check like any
    other, so an officer in range lends his bonus, as he does to its order tests (shot at,
    assaulted, or struck from the air alike)."""
    from kriegsspiel.rulesets.bolt_action.game import firing as firing_module

    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    only(game, 0, 8, 19)
    hq, sherman, panzer = game.units[0], game.units[8], game.units[19]
    place(hq, 30, 10, 0)
    place(sherman, 33, 10, 0)
    place(panzer, 33, 40, 180)
    sherman.pins = 2
    officer = game.officer_near(sherman)
    assert officer is not None
    order = order_test_of(game, sherman, Action("order", unit=8, order="Fire", target=19))
    assert order.officer_bonus == game.rules.officer_bonus(officer) > 0
    tests = []
    real = firing_module.attack_vehicle

    def spy(dice: object, groups: Any, tally: Any = None) -> object:
        tests.extend(g.shot.vehicle.crew_morale for g in groups if g.shot.vehicle)
        return real(dice, groups, tally)  # type: ignore[arg-type]

    monkeypatch.setattr(firing_module, "attack_vehicle", spy)
    game.resolve_attack(panzer, sherman, game.shooting_groups(panzer, sherman, moving=False))
    assert tests and all(t.value == order.value for t in tests)  # its 2 pins, his bonus
    sherman.pins = 2
    crew = game.vehicle_profile_of(sherman, indirect=False).crew_morale  # assaulted, air strike
    assert crew.value == order.value
    place(hq, 60, 10, 0)  # out of his 6"
    assert game.vehicle_profile_of(sherman, indirect=False).crew_morale.officer_bonus == 0


def _rifle_needs(game: BoltActionGame, shooter: UnitState, target: UnitState) -> str:
    from kriegsspiel.rulesets.bolt_action.to_hit import describe_needs

    groups = game.shooting_groups(shooter, target, moving=False)
    return next(
        describe_needs(game.rules, g.shot.hit_on) for g in groups if g.shot.weapon == "Rifle"
    )


def test_a_small_unit_is_one_of_two_models_or_fewer_at_the_start() -> None:
    """Shots at a unit that began the game with two models or fewer take the small-unit
    -1; a squad whittled down to two does not (assumption: the sheets do not say)."""
    game = new_game()
    game.table = Table(72, 48)
    only(game, 9, 1, 5)
    hq, squad, team = game.units[9], game.units[1], game.units[5]  # 2 men, 10, 2
    place(hq, 20, 12, 0)
    place(team, 20, 26)
    small = _rifle_needs(game, hq, team)
    only(game, 9, 1)
    place(squad, 20, 26)
    for m in squad.models[2:]:
        m.alive = False
    assert len(squad.alive_models) == 2 and squad.start_models == 10
    assert (small, _rifle_needs(game, hq, squad)) == ("5+", "4+")  # long range -1 in both


def test_anti_tank_weapons_are_shaped_charges_or_pen_two_or_more() -> None:
    """Who counts as carrying anti-tank weapons, for the -3 to assault an enclosed armoured
    vehicle and for more than superficial damage in an assault (assumption)."""
    game = new_game()
    armed = {u.name: game.has_anti_tank(u) for u in game.units if u.vehicle is None}
    assert armed["Panzerschreck Team"] and armed["Bazooka Team"]  # shaped charges
    assert not armed["1st Grenadier Squad"] and not armed["MG 42 MMG Team"]  # pen 0 and 1


def test_spent_panzerfausts_no_longer_count_as_anti_tank_weapons() -> None:
    """A Panzerfaust is a one-shot weapon: once fired it is spent, so its squad no longer
    shoots it and no longer carries anti-tank weapons for an assault on an enclosed
    armoured vehicle (the -3 to the order test, at most superficial damage)."""
    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    only(game, 8, 12)
    sherman, squad = game.units[8], game.units[12]
    place(sherman, 36, 20, 180)
    place(squad, 36, 30, 180)
    assault = Action("order", unit=12, order="Run", target=8)
    assert game.has_anti_tank(squad) and order_test_of(game, squad, assault).modifier == 0
    fired = game.shooting_groups(squad, sherman, moving=False)
    assert any(g.shot.weapon == "Panzerfaust" for g in fired)
    for model in game.one_shots_fired:
        model.used_one_shot = True
    assert all(
        g.shot.weapon != "Panzerfaust" for g in game.shooting_groups(squad, sherman, moving=False)
    )
    assert not game.has_anti_tank(squad)
    assert order_test_of(game, squad, assault).modifier == -3


def test_escape_and_stand_and_fire_take_no_order_test_even_when_pinned() -> None:
    """The escape and stand-and-fire reactions are taken without an order test, pins or
    not, as the Down reaction (assumption: sheet 001 names no test for them)."""
    for choice in ("escape", "stand and fire"):
        game = new_game()
        game.table = Table(72, 48)
        only(game, 1, 10)
        place(game.units[1], 20, 20, 0)
        place(game.units[10], 20, 28, 180)
        game.units[10].pins = 3
        game.dice = RandomDice(5)
        game.apply_action(Action("draw", side=0))
        game.apply_action(Action("order", unit=1, order="Run", target=10, choice="hand-to-hand"))
        game.apply_action(Action("react", side=1, unit=10, choice=choice))
        tested = [e for e in game.events if e.kind == "order test" and e.data.get("unit") == 10]
        assert not tested, choice
        acted = "move" if choice == "escape" else "shoot"
        assert any(e.kind == acted and e.data.get("unit") == 10 for e in game.events), choice


def test_officer_in_range_helps() -> None:
    game = new_game()
    squad, hq = game.units[10], game.units[9]  # a First Lieutenant: +2 within 6"
    place(hq, 20, 40)
    place(squad, 20, 44)
    assert game.officer_near(squad) == "First Lieutenant"
    place(squad, 50, 44)
    assert game.officer_near(squad) is None


def _draw_and_order(game: BoltActionGame, action: Action) -> None:
    game.apply_action(Action("draw", side=game.units[action.unit].side))
    game.apply_action(action)


def _retain(game: BoltActionGame, uid: int, choice: str) -> None:
    assert game.pending is not None and game.pending.kind == "retain"
    assert game.pending.target == uid
    game.apply_action(Action("retain", side=game.units[uid].side, unit=uid, choice=choice))


def test_down_may_be_kept_at_the_turn_end_as_long_as_its_owner_likes() -> None:
    """Sheets 000/002: at the turn's end the dice return to the bag, except those of units
    retaining a Down or Ambush order: the owner says, unit by unit, each turn."""
    game = new_game()
    only(game, 1, 10)
    _draw_and_order(game, Action("order", unit=1, order="Down"))
    _draw_and_order(game, Action("order", unit=10, order="Rally"))
    assert game.turn == 1 and {a.choice for a in game.legal_actions()} == {"keep", "return"}
    _retain(game, 1, "keep")
    assert game.turn == 2 and game.units[1].retained == "Down" and game.units[1].is_down
    assert game.units[1] not in game.eligible(0)  # its die stays out of the bag
    _draw_and_order(game, Action("order", unit=10, order="Rally"))
    _retain(game, 1, "keep")  # and again
    assert game.turn == 3 and game.units[1].retained == "Down"
    _draw_and_order(game, Action("order", unit=10, order="Rally"))
    _retain(game, 1, "return")
    assert game.turn == 4 and game.units[1].retained is None
    assert game.units[1] in game.eligible(0)


def test_no_die_is_kept_after_the_last_turn() -> None:
    """No die is kept at the end of the turn a roll added (the seventh), nor of a last
    turn without a roll for another; at the end of a last turn with one (the sixth), a
    Down die may be kept, before the roll, into the turn that may come."""
    game = new_game()
    only(game, 1, 10)
    sixth = game.clone()
    game.turn = game.scenario.most_turns
    _draw_and_order(game, Action("order", unit=1, order="Down"))
    _draw_and_order(game, Action("order", unit=10, order="Rally"))
    assert game.is_terminal() and game.pending is None
    assert not any(e.kind == "another turn" for e in game.events)
    sixth.turn = sixth.scenario.turns
    assert sixth.scenario.rolls_after(sixth.turn)
    _draw_and_order(sixth, Action("order", unit=1, order="Down"))
    _draw_and_order(sixth, Action("order", unit=10, order="Rally"))
    assert sixth.pending is not None and sixth.pending.kind == "retain"
    assert not any(e.kind == "another turn" for e in sixth.events)  # (not yet rolled)
    sixth.apply_action(Action("retain", side=0, unit=1, choice="keep"))
    rolled = next(e for e in sixth.events if e.kind == "another turn")
    assert sixth.is_terminal() != rolled.data["played"]
    if rolled.data["played"]:
        assert sixth.turn == 7 and sixth.units[1].retained == "Down"


def test_a_squad_fires_each_weapon_at_its_own_range() -> None:
    """Each model fires at the nearest target model, so long range is per model (docs/rules
    'Ranges and cover'): the squad's front rank, 11.5" from the target, fires its rifles
    and LMG at normal range; its rear rank, 12.5" off, its rifles at long range (over
    12"); the SMG, 11.5" off, at long range (over 6")."""
    game = new_game()
    only(game, 1, 10)
    shooter, target = game.units[1], game.units[10]
    place(shooter, 20, 12, 0)  # ranks at y 12.5 (front) and 11.5
    place(target, 20, 24.5, 180)  # its nearest rank at y 24
    groups = game.shooting_groups(shooter, target, moving=False)
    long = (("long_range", -1),)
    assert sorted((g.shot.weapon, g.shot.hit_modifiers, g.shots) for g in groups) == [
        ("Light machine gun (LMG)", (), 3),
        ("Rifle", (), 3),
        ("Rifle", long, 5),
        ("Submachine gun (SMG)", long, 2),
    ]


#: a table with hard cover (rubble) west, soft (scrub) east and open ground between
_COVER = (
    "terrain:\n"
    "  - {name: rubble, category: rough ground, cover: hard,"
    " polygon: [[5, 20], [15, 20], [15, 30], [5, 30]]}\n"
    "  - {name: scrub, category: rough ground, cover: soft,"
    " polygon: [[55, 20], [65, 20], [65, 30], [55, 30]]}"
)


def _cover_of(covers: str) -> str:
    """The cover a squad has from a shooter at (35, 5) when its models stand, in turn, in
    the rubble ("h"), the scrub ("s") or the open ("-") between them (more than 1" from
    either, and no line of fire crossing them)."""
    from kriegsspiel.rulesets.bolt_action.game.table_rules import unit_cover
    from kriegsspiel.rulesets.bolt_action.game.units import Model

    south = "  - {side: south, polygon: [[0, 0], [72, 0], [72, 12], [0, 12]]}\n"
    game = _with_zones(south + NORTH, _COVER)
    squad = next(u for u in game.units if u.side == 1 and u.vehicle is None)
    spots = {"h": 8.0, "s": 58.0, "-": 33.0}  # each a few inches wide: x + 0.5 a model
    squad.models = tuple(
        Model("Rifleman", ("Rifle",), spots[c] + 0.5 * i, 25.0) for i, c in enumerate(covers)
    )
    return unit_cover(game.rules, game.table, Point(35, 5), squad)


@pytest.mark.parametrize(
    ("covers", "cover"),
    [
        ("hhh", "hard"),  # all in hard cover
        ("sss", "soft"),  # all in soft cover
        ("---", "none"),  # none in cover
        ("hh-", "hard"),  # most in hard cover
        ("h--", "none"),  # fewer than half in cover
        ("hs-", "soft"),  # two of three in cover, one of them hard: soft
        ("-sh", "soft"),  # the same, whichever models stand where
        ("hss", "soft"),
        ("ss-", "soft"),
        ("hh--", "hard"),  # exactly half in hard: hard
        ("h-", "hard"),
        ("hs", "hard"),
        ("ss--", "soft"),  # exactly half in cover: soft
        ("hs--", "soft"),  # half in cover, fewer than half in hard: soft
        ("hhss", "hard"),  # half hard, half soft: hard
        ("sshh", "hard"),
        ("hhs-", "hard"),
        ("hsss", "soft"),
        ("hhsss", "soft"),  # all in cover, fewer than half in hard
        ("hhs--", "soft"),  # most in cover, fewer than half in hard
        ("hss--", "soft"),
        ("hh---", "none"),  # fewer than half in cover
        ("s----", "none"),
    ],
)
def test_a_unit_has_the_cover_at_least_half_its_sampled_models_have(
    covers: str, cover: str
) -> None:
    """Docs/rules "A unit's cover: by half its models": hard if at least half the sampled
    models are in hard cover; else soft if at least half are in cover of either kind; else
    none. (Up to five models: all sampled.) The game's answer, from the table, is the
    rule's own."""
    from kriegsspiel.rulesets.bolt_action.game.table_rules import cover_by_half

    words = {"h": "hard", "s": "soft", "-": "none"}
    assert _cover_of(covers) == cover == cover_by_half([words[c] for c in covers])


def test_a_unit_with_no_models_asked_about_has_no_cover() -> None:
    """Docs/rules "A unit's cover: by half its models": half of nothing is not cover."""
    from kriegsspiel.rulesets.bolt_action.game.table_rules import cover_by_half

    assert cover_by_half([]) == "none"


def test_the_cover_sample_is_every_third_of_a_units_models() -> None:
    """The models whose cover stands for the unit's (docs/rules 'Ranges and cover', a speed
    shortcut): every (n // 3)th from the first, so all of up to five, then three or four;
    the others' cover is not looked at."""
    from kriegsspiel.rulesets.bolt_action.game.table_rules import cover_sample

    counts = [len(cover_sample(list(range(n)))) for n in range(1, 13)]
    assert counts == [1, 2, 3, 4, 5, 3, 4, 4, 3, 4, 4, 3]
    assert cover_sample(list(range(6))) == [0, 2, 4]
    assert cover_sample(list(range(10))) == [0, 3, 6, 9]
    # ten models: the 1st, 4th, 7th and 10th are sampled
    assert _cover_of("h--h--h--h") == "hard"  # all sampled in cover, 4 of 10 in all
    assert _cover_of("-hh-hh-hh-") == "none"  # 6 of 10 in cover, none sampled
    assert _cover_of("h--h------") == "hard"  # 2 of the 4 sampled: half
    assert _cover_of("h---------") == "none"


def test_objectives_scoring() -> None:
    game = new_game(scenario=0)  # hold-the-crossroads: objectives
    assert game.scenario.victory == "objectives"
    only(game, 1, 10)
    first = game.scenario.objectives[0]
    place(game.units[1], first.x, first.y)
    place(game.units[10], 70, 47)
    assert game.score() == (first.points, 0)
    place(game.units[10], first.x + 1, first.y)  # contested: nobody holds it
    assert game.score() == (0, 0)
    only(game, 1, 17)  # the M4 Sherman in the squad's place: a vehicle neither holds nor contests
    place(game.units[17], first.x + 1, first.y)
    assert game.score() == (first.points, 0)
    only(game, 17)
    assert game.score() == (0, 0)


@pytest.mark.parametrize(("off", "held"), [(2.9, True), (3.0, True), (3.1, False)])
def test_a_unit_on_foot_holds_an_objective_within_3_inches(off: float, held: bool) -> None:
    """Docs/rules 'Objectives and victory': a unit on foot with a model within 3" of an
    objective holds it (3" exactly too), and OBJECTIVE_REACH is the docs' 3"."""
    import re
    from pathlib import Path

    from kriegsspiel.rulesets.bolt_action.game.state import OBJECTIVE_REACH, holds_near

    docs = Path(__file__).parents[1] / "docs" / "rules"
    for name in ("bolt-action-1.md", "konflikt47.md"):
        section = (docs / name).read_text().split("### Objectives and victory")[1]
        said = re.search(r'artillery: not a vehicle\) within (\d+)"', section)
        assert said is not None and float(said.group(1)) == OBJECTIVE_REACH, name
    game = new_game(scenario=0)
    only(game, 1, 10)
    first = game.scenario.objectives[0]
    squad = game.units[1]
    squad.models = squad.models[:1]  # one man, ``off`` inches due east of the objective
    squad.models[0].x, squad.models[0].y = first.x + off, first.y
    place(game.units[10], 70, 47)
    assert holds_near(squad, (first.x, first.y)) is held
    assert game.score() == ((first.points if held else 0), 0)


def test_destroyed_units_score_in_a_meeting_engagement() -> None:
    game = new_game(scenario=1)
    assert game.scenario.victory == "units destroyed"
    game.units[10].destroyed = True
    assert game.score() == (1, 0)


def _wipe_out_the_last_enemy(game: BoltActionGame, shooter: int, last: int) -> None:
    """``shooter`` fires at the enemy's one man left, ``last``, and (dice made sure) kills
    him: he does not go Down."""
    game.table = Table(72, 48)
    place(game.units[shooter], 20, 5, 0)
    place(game.units[last], 20, 15, 180)
    for m in game.units[last].models[1:]:
        m.alive = False
    game.dice = ScriptedDice([6] * 40)  # every shot hits and kills
    game.apply_action(Action("draw", side=game.units[shooter].side))
    game.apply_action(Action("order", unit=shooter, order="Fire", target=last))
    assert game.pending is not None and game.pending.kind == "shot-reaction"
    game.apply_action(Action("react", side=game.units[last].side, unit=last, choice="none"))


def test_a_side_that_wipes_the_enemy_out_wins_whatever_the_objectives_say() -> None:
    """The game ends when a side has no units left, and the side with units left wins:
    in Hold the Crossroads the objectives held at that moment (none here) do not make it a
    draw (assumption: the sheets give no victory conditions)."""
    game = new_game("bolt-action-1", scenario=0)  # hold-the-crossroads: objectives
    assert game.scenario.victory == "objectives"
    only(game, 1, 20)
    _wipe_out_the_last_enemy(game, 1, 20)
    assert game.units[20].destroyed and game.is_terminal() and game.turn == 1
    assert game.score() == (0, 0)  # no objective held
    assert game.winner() == 0 and game.returns() == (1.0, -1.0)
    assert game.events[-1].kind == "game over" and game.events[-1].data["returns"] == [1.0, -1.0]


def test_a_side_that_wipes_the_enemy_out_wins_though_the_units_destroyed_are_level() -> None:
    """In a meeting engagement (a point a unit destroyed) a side wiped out loses though it
    destroyed as many units as it lost: the British (11 units) have lost 10 when they
    destroy the last of the Germans' 10."""
    game = new_game("bolt-action-1", scenario=1)
    assert game.scenario.victory == "units destroyed"
    only(game, 1, 20)
    _wipe_out_the_last_enemy(game, 1, 20)
    assert game.is_terminal() and game.score() == (10, 10)
    assert game.winner() == 0 and game.returns() == (1.0, -1.0)


def test_reaction_down_uses_the_die() -> None:
    game = new_game()
    only(game, 1, 2, 10)
    place(game.units[1], 20, 12, 0)
    place(game.units[10], 20, 26, 180)
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=1, order="Fire", target=10))
    assert game.current_player() == 1 and game.pending is not None  # the target may react
    choices = [a.choice for a in game.legal_actions()]
    assert choices == ["none", "down"]
    game.apply_action(Action("react", side=1, unit=10, choice="down"))
    assert game.units[10].order == "Down"
    assert game.units[10] not in game.eligible(1)


@pytest.mark.parametrize(("uid", "reaction"), [(15, "none"), (13, "down")])
def test_the_ai_goes_down_when_that_saves_more_than_its_best_order_would_take(
    uid: int, reaction: str
) -> None:
    """A unit shot at before its order goes Down (spending its die) when the fire is
    dangerous and Down saves more of it than its best order would take: the Tesla
    cannon, which can shoot back, stays up (a probe saw the K47 weird-science guns go
    Down all game and never fire); a mortar inside its least range of the only enemy
    goes Down."""
    from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
    from kriegsspiel.ai.bolt_action_tactics.reactions import down_saves, down_worth_it

    game = new_game()
    game.table = Table(72, 48)
    only(game, 1, uid)
    squad, target = game.units[1], game.units[uid]
    place(squad, 36, 20, 0)
    place(target, 36, 29, 180)
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=1, order="Fire", target=uid))
    assert game.pending is not None and game.pending.kind == "shot-reaction"
    player = TacticalPlayer()
    danger = player.damage(game, squad, target, moving=False)
    assert danger >= 0.25 * target.points  # dangerous: the old rule went Down at once
    saves = down_saves(game, squad, target, False, danger)
    assert 0 < saves < danger and target.order is None  # (asked, and put back)
    assert down_worth_it(player, game, target, saves) == (reaction == "down")
    assert player.choose(game).choice == reaction


def test_ambush_fires_after_a_move() -> None:
    game = new_game()
    only(game, 1, 11)
    place(game.units[11], 20, 40, 180)
    place(game.units[1], 20, 6, 0)
    game.units[11].retained = "Ambush"
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=1, order="Advance", to=(20.0, 12.0)))
    assert game.pending is not None and game.pending.kind == "ambush"
    assert {a.choice for a in game.legal_actions()} == {"fire", "hold"}


def _two_ambushers(ruleset: str = "bolt-action-1") -> BoltActionGame:
    """The British 1st Section (unit 1) facing a Grenadier squad and an MG 42 (12, 14), both
    holding an Ambush die kept from the turn before; side 0 has drawn a die."""
    game = new_game(ruleset)
    game.table = Table(72, 48)
    only(game, 1, 12, 14)
    place(game.units[1], 36, 10, 0)
    place(game.units[12], 36, 19, 180)
    place(game.units[14], 44, 22, 180)
    game.units[12].retained = game.units[14].retained = "Ambush"
    game.turn_dice = (1,)
    game.dice = RandomDice(4)  # (3 before each shot's dice were rolled one by one)
    game.apply_action(Action("draw", side=0))
    return game


def test_each_ambusher_may_fire_at_a_move_in_turn() -> None:
    """After one ambusher fires, the others that can still shoot at the mover are asked
    again, until all hold or the mover is destroyed; then the mover's order goes on (its
    Advance's shot)."""
    game = _two_ambushers()
    section = game.units[1]
    game.apply_action(Action("order", unit=1, order="Advance", to=(36.0, 12.0), target=12))
    assert game.pending is not None and game.pending.kind == "ambush"
    assert game.pending.ambushers == (12, 14)
    game.apply_action(Action("ambush", side=1, unit=12, target=1, choice="fire"))
    assert not section.destroyed
    assert game.pending is not None and game.pending.ambushers == (14,)  # asked again
    assert [a.choice for a in game.legal_actions()] == ["fire", "hold"]
    game.apply_action(Action("ambush", side=1, unit=14, target=1, choice="fire"))
    assert not game.units[12].is_ambushing and not game.units[14].is_ambushing  # dice used
    shots = [e.data["unit"] for e in game.events if e.kind == "shoot"]
    if section.destroyed:
        assert shots == [12, 14]
    else:  # then the section fires its Advance's shot
        assert shots == [12, 14, 1]


def test_a_hold_ends_the_ambush_for_every_ambusher() -> None:
    game = _two_ambushers()
    game.apply_action(Action("order", unit=1, order="Run", to=(36.0, 14.0)))
    game.apply_action(Action("ambush", side=1, unit=12, target=1, choice="fire"))
    assert game.pending is not None and game.pending.ambushers == (14,)
    game.apply_action(Action("ambush", side=1, choice="hold"))
    assert game.units[14].is_ambushing  # not asked again: the turn ends
    assert game.pending is not None and game.pending.kind == "retain"
    assert [e.data["unit"] for e in game.events if e.kind == "shoot"] == [12]


def test_no_ambusher_is_asked_once_the_mover_is_destroyed() -> None:
    game = _two_ambushers()
    section = game.units[1]
    for m in section.models[1:]:
        m.alive = False  # one man left
    game.dice = ScriptedDice([6] * 40)  # every shot hits and kills
    game.apply_action(Action("order", unit=1, order="Run", to=(36.0, 14.0)))
    game.apply_action(Action("ambush", side=1, unit=12, target=1, choice="fire"))
    assert section.destroyed and game.units[14].is_ambushing
    assert game.pending is None or game.pending.kind == "retain"


def _kinds(game: BoltActionGame, since: int) -> list[str]:
    return [e.kind for e in game.events[since:]]


def test_an_assaults_move_may_be_ambushed_by_its_target_and_others() -> None:
    """An assault's move is a move: once the assaulters have closed in, every ambusher
    that can shoot at them may fire (the target too, if it holds an Ambush die), one at a
    time, and then the fight goes on."""
    game = _two_ambushers()
    since = len(game.events)
    game.apply_action(Action("order", unit=1, order="Run", target=12))
    assert _kinds(game, since) == ["order", "move"]  # closed in, no fight yet
    assert game.pending is not None and game.pending.kind == "ambush"
    assert game.pending.ambushers == (12, 14) and game.pending.target == 1  # the target too
    game.apply_action(Action("ambush", side=1, unit=12, target=1, choice="fire"))
    assert not game.units[1].destroyed
    assert game.pending is not None and game.pending.ambushers == (14,)
    game.apply_action(Action("ambush", side=1, choice="hold"))
    kinds = _kinds(game, since)
    assert kinds[:5] == ["order", "move", "ambush", "shoot", "ambush"]
    assert "close quarters" in kinds  # the fight went on
    assert game.units[14].is_ambushing  # it held


def test_assaulters_already_in_contact_make_no_move_to_ambush() -> None:
    """Within 1" of the target the assaulters do not move, so no ambusher is asked: the
    fight follows at once (an ambush answers a move's end)."""
    game = _two_ambushers()
    section, squad = game.units[1], game.units[12]
    place(section, 36, 10 + game.gap(section, squad) - 0.8)
    assert game.gap(section, squad) == pytest.approx(0.8)
    since = len(game.events)
    game.apply_action(Action("order", unit=1, order="Run", target=12))
    kinds = _kinds(game, since)
    assert "move" not in kinds and "ambush" not in kinds and "close quarters" in kinds
    assert game.pending is None or game.pending.kind != "ambush"


def test_assaulters_the_ambush_destroys_fight_no_more() -> None:
    game = _two_ambushers()
    section = game.units[1]
    for m in section.models[1:]:
        m.alive = False  # one man left
    game.apply_action(Action("order", unit=1, order="Run", target=12))
    game.dice = ScriptedDice([6] * 40)  # the ambush fire hits and kills
    game.apply_action(Action("ambush", side=1, unit=14, target=1, choice="fire"))
    assert section.destroyed and not game.units[12].destroyed
    assert "close quarters" not in _kinds(game, 0)


def test_k47_an_ambushing_target_fights_hand_to_hand_or_point_blank_after_its_ambush_fire() -> None:
    """Konflikt '47: a target holding a kept Ambush die reacts only by hand-to-hand or
    point-blank fire; once the assaulters have closed in it springs its ambush on them
    (its die used), and then, if they still stand, fights in the mode it chose."""
    fought = 0
    for seed in range(1, 11):
        game = new_game()
        game.table = Table(72, 48)
        only(game, 1, 10)
        squad, target = game.units[1], game.units[10]
        place(squad, 36, 10, 0)
        place(target, 36, 19, 180)
        target.retained = "Ambush"
        game.turn_dice = (1,)
        game.dice = RandomDice(seed)
        game.apply_action(Action("draw", side=0))
        game.apply_action(Action("order", unit=1, order="Run", target=10, choice="hand-to-hand"))
        assert [a.choice for a in game.legal_actions()] == ["hand-to-hand", "point-blank"]
        game.apply_action(Action("react", side=1, unit=10, choice="point-blank"))
        assert game.pending is not None and game.pending.kind == "ambush"
        assert game.pending.ambushers == (10,) and game.pending.reaction == "point-blank"
        since = len(game.events)
        game.apply_action(Action("ambush", side=1, unit=10, target=1, choice="fire"))
        kinds = _kinds(game, since)
        assert kinds[:2] == ["ambush", "shoot"] and not target.is_ambushing
        shot_down = next((e for e in game.events if e.kind == "destroyed"), None)
        if shot_down is not None and "close quarters" not in kinds:
            assert shot_down.data["unit"] == 1  # the ambush broke them: no fight
        else:
            assert "close quarters" in kinds
            fought += 1
    assert fought  # some seed's assaulters came through the fire and fought


def test_k47_a_vehicle_that_fired_at_its_assaulters_springs_no_ambush_on_them_too() -> None:
    """Konflikt '47: a vehicle fires at infantry assaulting it from beyond 6"; holding an
    Ambush die it is not asked again where their move ends (it has had its shot at them):
    it keeps the die."""
    game, squad, tank = squad_before_vehicle("konflikt47", 9.0)
    tank.retained = "Ambush"
    game.turn_dice = (squad.uid,)
    game.dice = ScriptedDice([1] * 200)  # the order test passes; every shot misses
    game.apply_action(Action("draw", side=0))
    game.apply_action(
        Action("order", unit=squad.uid, order="Run", target=tank.uid, choice="hand-to-hand")
    )
    while game.pending is not None and game.pending.kind != "retain":
        assert game.pending.kind != "ambush"
        game.apply_action(game.legal_actions()[0])
    assert "vehicle fires at assaulters" in _kinds(game, 0)
    assert "assault vehicle" in _kinds(game, 0) and tank.is_ambushing


def test_a_fubar_panic_run_may_be_ambushed() -> None:
    """A panicking unit's Run is a move like any other: the enemy may ambush it where it
    ends; nothing of its order follows."""
    game = _two_ambushers()
    section = game.units[1]
    place(section, 36, 30, 180)  # the squad and the MG 42 south of it, both in sight
    place(game.units[12], 36, 18, 0)
    place(game.units[14], 44, 14, 0)
    panic(game, section, Action("order", unit=1, order="Fire", target=12))
    assert section.order == "Run" and section.anchor.y > 30  # ran north, away from them
    assert game.pending is not None and game.pending.kind == "ambush"
    assert game.pending.after == "" and set(game.pending.ambushers) <= {12, 14}
    game.apply_action(Action("ambush", side=1, choice="hold"))
    assert not any(e.kind == "shoot" for e in game.events)  # nor does the section fire


def test_k47_an_escape_and_the_chase_after_it_may_each_be_ambushed() -> None:
    """Konflikt '47: a unit escaping an assault runs; the assaulting side's ambushers may
    fire at it where it stops. Then the assaulters chase it, a move too: the escaping
    side's ambushers may fire at them where they stop. No fight follows."""
    game = new_game()
    game.table = Table(72, 48)
    only(game, 1, 3, 10, 12)
    squad, mg42, target, browning = game.units[1], game.units[3], game.units[10], game.units[12]
    place(squad, 36, 10, 0)
    place(target, 36, 18, 180)
    place(mg42, 20, 28, 90)
    place(browning, 52, 20, 270)
    mg42.retained = browning.retained = "Ambush"
    game.turn_dice = (1, 10)
    game.dice = RandomDice(2)
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=1, order="Run", target=10, choice="hand-to-hand"))
    before = squad.anchor
    game.apply_action(Action("react", side=1, unit=10, choice="escape"))
    assert target.anchor.y > 18 and squad.anchor == before  # it ran; no chase yet
    assert game.pending is not None and game.pending.kind == "ambush"
    assert game.pending.ambushers == (3,) and game.pending.target == 10
    assert game.pending.after == "chase"
    game.apply_action(Action("ambush", side=0, choice="hold"))
    assert squad.anchor.y > before.y  # the chase
    assert game.pending is not None and game.pending.kind == "ambush"
    assert game.pending.ambushers == (12,) and game.pending.target == 1
    game.apply_action(Action("ambush", side=1, unit=12, target=1, choice="fire"))
    kinds = _kinds(game, 0)
    assert kinds.count("shoot") == 1 and "close quarters" not in kinds


def test_a_vehicle_halted_by_ambush_fire_takes_no_further_shot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A vehicle advancing to shoot, ambushed and brought to a halt (its die turned Down),
    cannot take a further action that turn (sheets 000/002): its shot is not fired."""
    game = new_game()
    game.table = Table(72, 48)
    only(game, 8, 11, 14)
    tank, squad, bazookas = game.units[8], game.units[11], game.units[14]
    place(tank, 36, 10, heading=0)
    place(squad, 36, 34)
    place(bazookas, 30, 30)
    bazookas.retained = "Ambush"
    shooters: list[int] = []

    def shoot(unit: UnitState, tgt: UnitState, *, moving: bool) -> None:
        shooters.append(unit.uid)
        if unit is bazookas:
            game.vehicle_damage(tank, False, False, True, 1, by=unit)  # crew stunned: halted

    monkeypatch.setattr(game, "shoot", shoot)
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=8, order="Advance", to=(36.0, 14.0), target=11))
    assert game.pending is not None and game.pending.kind == "ambush"
    game.apply_action(Action("ambush", side=1, unit=14, target=8, choice="fire"))
    assert shooters == [14] and tank.order == "Down"
    assert game.pending is None  # nor is its target asked to react to a shot


def test_illegal_orders_change_nothing() -> None:
    game = new_game()
    before = [(u.anchor, u.pins, u.order) for u in game.units]
    with pytest.raises(IllegalActionError, match="chance"):
        game.apply_action(Action("order", unit=1, order="Down"))
    game.apply_action(Action("draw", side=0))
    with pytest.raises(IllegalActionError, match="belongs to side 1"):
        game.apply_action(Action("order", unit=10, order="Down"))
    with pytest.raises(IllegalActionError, match="beyond"):
        game.apply_action(
            Action("order", unit=1, order="Advance", to=(game.units[1].anchor.x, 30.0))
        )
    assert [(u.anchor, u.pins, u.order) for u in game.units] == before


def test_team_with_one_crew_left_shoots_worse() -> None:
    game = new_game()
    only(game, 3, 10)
    mmg, target = game.units[3], game.units[10]
    place(mmg, 20, 12, 0)
    place(target, 20, 24, 180)
    full = game.shooting_groups(mmg, target, moving=False)
    for m in mmg.models[1:]:
        m.alive = False
    short = game.shooting_groups(mmg, target, moving=False)
    assert full[0].shot.hit_on is not None and short[0].shot.hit_on is not None
    assert short[0].shot.hit_on[0] == full[0].shot.hit_on[0] + 1
    # its own modifier, as the record keeps it, not a pin it does not have (docs/rules)
    assert mmg.pins == 0
    assert dict(short[0].shot.hit_modifiers) == {**dict(full[0].shot.hit_modifiers), "one_crew": -1}
    mmg.pins = 1
    pinned = game.shooting_groups(mmg, target, moving=False)[0].shot
    assert dict(pinned.hit_modifiers)["per_pin"] == -1 == dict(pinned.hit_modifiers)["one_crew"]


def test_casualties_spare_leaders_and_special_weapons() -> None:
    game = new_game()
    only(game, 1, 10)
    squad = game.units[10]
    place(squad, 20, 30, 180)
    game.casualties(squad, 8, by=game.units[1])
    survivors = squad.alive_models
    assert len(survivors) == 2
    assert all(any(w != "Rifle" for w in m.weapons) or m.nco or m.officer for m in survivors)


def test_morale_check_at_half_strength() -> None:
    game = new_game()
    only(game, 1, 10)
    squad = game.units[10]
    game.dice = ScriptedDice([6, 6])  # the morale check rolls a double six: fails
    game.casualties(squad, 5, by=game.units[1])
    assert squad.destroyed
    assert any(e.kind == "morale check" and e.data["passed"] is False for e in game.events)


def test_chance_node_probabilities() -> None:
    game = new_game()
    outcomes = game.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1)
    assert {a.side for a, _ in outcomes} == {0, 1}
    counts = [len(game.eligible(0)), len(game.eligible(1))]
    assert outcomes[0][1] == pytest.approx(Fraction(counts[0], sum(counts)))


def _odds(game: BoltActionGame) -> dict[int, Fraction]:
    """The next draw's chances, as exact fractions (each is a quotient of small counts)."""
    return {a.side: Fraction(p).limit_denominator(1000) for a, p in game.chance_outcomes()}


def _shot_to_pieces(game: BoltActionGame, shooter: int, target: int) -> None:
    """Draw the shooter's die and fire it at the target, every die a 6: the target, close
    by on an empty table, loses every model (a Konflikt '47 target does not react)."""
    game.table = Table(72, 48)
    place(game.units[shooter], 20, 12, 0)
    place(game.units[target], 20, 20, 180)
    game.dice = ScriptedDice([6] * 60)
    game.apply_action(Action("draw", side=game.units[shooter].side))
    game.apply_action(Action("order", unit=shooter, order="Fire", target=target))
    if game.pending is not None and game.pending.kind == "shot-reaction":
        game.apply_action(
            Action("react", side=1 - game.units[shooter].side, unit=target, choice="none")
        )
    assert game.units[target].destroyed
    game.dice = RandomDice(5)


def _order_all(game: BoltActionGame, order: str = "Rally") -> None:
    """Give every unit still to act the order, drawing as the odds allow, to the turn end."""
    turn = game.turn
    while game.turn == turn and not game.is_terminal():
        side = next(iter(_odds(game)))
        game.apply_action(Action("draw", side=side))
        game.apply_action(Action("order", unit=game.eligible(side)[0].uid, order=order))


def test_bolt_action_1_a_destroyed_units_die_stays_in_the_cup_till_the_turn_end() -> None:
    """Sheet 002: the orders phase draws until every eligible unit has an order; the turn
    end phase 'Remove[s] order dice for destroyed units'. So a unit destroyed during the
    turn leaves its die in the cup (to order another unit of its side) until then."""
    game = new_game("bolt-action-1")  # 11 British units, 10 German
    assert game.dice_in_cup() == (11, 10)
    assert _odds(game) == {0: Fraction(11, 21), 1: Fraction(10, 21)}
    # a unit destroyed before any die is drawn (as by a barrage at the turn's start)
    game.destroy(game.units[16], "by hand")
    assert game.dice_in_cup() == (11, 10)
    assert _odds(game) == {0: Fraction(11, 21), 1: Fraction(10, 21)}  # not 11/20 : 9/20
    assert len(game.eligible(1)) == 9
    # a unit shot to pieces by the first order: one British die drawn, no German die
    _shot_to_pieces(game, 1, 13)
    assert game.dice_in_cup() == (10, 10) and len(game.eligible(1)) == 8
    assert _odds(game) == {0: Fraction(1, 2), 1: Fraction(1, 2)}  # not 10/18 : 8/18
    assert game.observation()["dice_in_bag"] == [10, 10]
    twin = game.clone()  # a clone counts the same cup, and keeps its own
    assert twin.dice_in_cup() == (10, 10) and twin.chance_outcomes() == game.chance_outcomes()
    twin.apply_action(Action("draw", side=1))
    assert twin.dice_in_cup() == (10, 9)  # the drawn die is in the player's hand
    assert twin.observation()["dice_in_bag"] == [10, 9] and game.dice_in_cup() == (10, 10)
    # the turn ends when every live unit has an order; then the two dice are removed
    _order_all(game)
    assert game.turn == 2 and game.dice_in_cup() == (11, 8)
    assert _odds(game) == {0: Fraction(11, 19), 1: Fraction(8, 19)}


def test_bolt_action_1_a_side_with_dice_but_no_unit_to_order_is_not_drawn() -> None:
    """A die drawn for a side with no unit left to order would change nothing: the draw is
    among the sides that have one, and the orders phase ends when neither has."""
    game = new_game("bolt-action-1")
    only(game, 1, 2, 12, 13)  # two British sections, two German squads
    assert game.dice_in_cup() == (2, 2)
    game.apply_action(Action("draw", side=1))
    game.apply_action(Action("order", unit=12, order="Rally"))
    _shot_to_pieces(game, 1, 13)  # the last German unit still to act is destroyed
    assert game.dice_in_cup() == (1, 1) and game.eligible(1) == []
    assert _odds(game) == {0: Fraction(1)}  # its die is in the cup, but not drawn
    assert game.observation()["dice_in_bag"] == [1, 1]
    with pytest.raises(IllegalActionError):
        game.apply_action(Action("draw", side=1))
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=2, order="Rally"))
    # the orders phase is over with the German die still in the cup; the turn end takes it
    assert game.turn == 2 and game.dice_in_cup() == (2, 1)
    assert _odds(game) == {0: Fraction(2, 3), 1: Fraction(1, 3)}


def test_konflikt47_a_destroyed_units_die_leaves_the_cup_at_once() -> None:
    """Konflikt '47's sheets do not say; the engine takes the die out with the unit
    (docs/rules/konflikt47.md), as it always has."""
    assert not rules_for("konflikt47").destroyed_dice_stay_in_cup
    assert rules_for("bolt-action-1").destroyed_dice_stay_in_cup
    game = new_game("konflikt47")  # 9 units a side
    assert _odds(game) == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    game.destroy(game.units[14], "by hand")
    assert game.dice_in_cup() == (9, 8)
    assert _odds(game) == {0: Fraction(9, 17), 1: Fraction(8, 17)}
    _shot_to_pieces(game, 1, 10)
    assert game.dice_in_cup() == (8, 7)
    assert _odds(game) == {0: Fraction(8, 15), 1: Fraction(7, 15)}
    game = new_game("konflikt47")
    only(game, 1, 2, 10, 11)
    game.apply_action(Action("draw", side=1))
    game.apply_action(Action("order", unit=10, order="Rally"))
    _shot_to_pieces(game, 1, 11)
    assert game.dice_in_cup() == (1, 0) and _odds(game) == {0: Fraction(1)}
    assert game.observation()["dice_in_bag"] == [1, 0]


def test_k47_assault_reactions() -> None:
    game = new_game()
    game.table = Table(72, 48)
    only(game, 1, 2, 10, 11)
    place(game.units[1], 20, 20, 0)
    place(game.units[10], 20, 28, 180)
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=1, order="Run", target=10, choice="hand-to-hand"))
    assert game.pending is not None and game.pending.kind == "assault-reaction"
    choices = {a.choice for a in game.legal_actions()}
    assert choices == {"hand-to-hand", "point-blank", "escape", "stand and fire"}
    before = game.units[10].anchor
    game.apply_action(Action("react", side=1, unit=10, choice="escape"))
    after = game.units[10].anchor
    assert after.y > before.y  # ran away from the assault
    assert not game.units[10].destroyed and game.units[10].order == "Run"
    chased = game.units[1].anchor.distance_to(Point(20, 20))
    assert chased == pytest.approx(12)  # the assaulters follow as far as their Run, no farther


def test_a_unit_hemmed_in_cannot_escape_and_fights() -> None:
    """Escaping is a Run away from the assaulters; with its back to the table's edge the
    unit cannot get away, so the assault goes on to a fight."""
    game = new_game()
    game.table = Table(72, 48)
    only(game, 1, 10)
    place(game.units[1], 20, 40, 0)
    place(game.units[10], 20, 48, 180)  # at the northern edge, the assault coming from the south
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=1, order="Run", target=10, choice="hand-to-hand"))
    game.apply_action(Action("react", side=1, unit=10, choice="escape"))
    kinds = [e.kind for e in game.events]
    assert "no escape" in kinds and "escape" not in kinds and "close quarters" in kinds


def squad_before_vehicle(
    ruleset: str, start_gap: float
) -> tuple[BoltActionGame, UnitState, UnitState]:
    """A squad ``start_gap`` inches in front of an enemy vehicle that faces it, nothing else
    on an empty table."""
    game = new_game(ruleset)
    game.table = Table(72, 48)
    squad = next(
        u
        for u in game.units
        if u.side == 0 and u.vehicle is None and u.kind == "infantry" and len(u.models) > 4
    )
    tank = next(
        u for u in game.units if u.side == 1 and u.vehicle is not None and not u.vehicle.recce
    )
    only(game, squad.uid, tank.uid)
    place(tank, 36, 30, heading=180)  # facing the squad
    place(squad, 36, 10)
    place(squad, 36, 10 + game.gap(squad, tank) - start_gap)
    assert abs(game.gap(squad, tank) - start_gap) < 1e-9
    return game, squad, tank


def _shots_taken(game: BoltActionGame, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, float]]:
    """Each shooting in the game from now on: (shooter, its gap to the target then)."""
    taken: list[tuple[int, float]] = []
    real = game.shoot

    def spy(unit: UnitState, tgt: UnitState, *, moving: bool) -> None:
        taken.append((unit.uid, game.gap(unit, tgt)))
        real(unit, tgt, moving=moving)

    monkeypatch.setattr(game, "shoot", spy)
    return taken


def test_stand_and_fire_shoots_the_assaulters_as_they_come_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Sheets 000/001: the assaulters move, then the target may stand and fire, at them
    where they now stand (point blank), then hand-to-hand."""
    game = new_game()
    game.table = Table(72, 48)
    only(game, 1, 10)
    place(game.units[1], 20, 20, 0)
    place(game.units[10], 20, 28, 180)
    taken = _shots_taken(game, monkeypatch)
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=1, order="Run", target=10, choice="hand-to-hand"))
    game.apply_action(Action("react", side=1, unit=10, choice="stand and fire"))
    assert taken and taken[0][0] == 10 and taken[0][1] <= 1 + 1e-9


def test_k47_vehicle_fires_at_infantry_assaulting_from_beyond_six_inches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Sheet 001: a vehicle may fire at infantry that begin their assault on it more than
    6" away (from its data: fires_at_assaulters_beyond); from 6" or less it may not, and
    Bolt Action's sheet 002 has no such fire."""
    for ruleset, start_gap, fires in (
        ("konflikt47", 9.0, True),
        ("konflikt47", 5.0, False),
        ("bolt-action-1", 9.0, False),
    ):
        game, squad, tank = squad_before_vehicle(ruleset, start_gap)
        taken = _shots_taken(game, monkeypatch)
        game.dice = ScriptedDice([1] * 200)  # the order test passes; every shot misses
        game.apply_action(Action("draw", side=0))
        game.apply_action(
            Action("order", unit=squad.uid, order="Run", target=tank.uid, choice="hand-to-hand")
        )
        while game.pending is not None:
            game.apply_action(game.legal_actions()[0])
        assert bool(taken) == fires, (ruleset, start_gap)
        if fires:
            assert taken[0][0] == tank.uid and taken[0][1] > 6


def test_a_close_quarters_fight_that_wipes_out_both_sides_destroys_both() -> None:
    game = new_game()
    game.table = Table(72, 48)
    only(game, 1, 10)
    attackers, defenders = game.units[1], game.units[10]
    for unit in (attackers, defenders):
        for m in unit.models[1:]:
            m.alive = False
    place(attackers, 20, 20, 0)
    place(defenders, 20, 24, 180)
    game.dice = ScriptedDice([6] * 4)  # each last man strikes the other down
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=1, order="Run", target=10, choice="hand-to-hand"))
    game.apply_action(Action("react", side=1, unit=10, choice="hand-to-hand"))
    fought = next(e for e in game.events if e.kind == "close quarters")
    assert fought.data["attackers_left"] == fought.data["defenders_left"] == 0
    assert not fought.data["attacker_wins"]
    assert attackers.destroyed and defenders.destroyed
    # each is credited with the one man it struck down, not the whole unit (the rest fell
    # before the fight, to no one's credit here)
    assert attackers.damage_dealt == pytest.approx(defenders.points / defenders.start_models)
    assert defenders.damage_dealt == pytest.approx(attackers.points / attackers.start_models)


def test_support_fire_reads_an_earlier_immobilisation_and_a_soft_skin_has_no_top_armour(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from dataclasses import replace as swap

    from kriegsspiel.rulesets.bolt_action.game import support

    game = new_game("bolt-action-1")
    tank = next(u for u in game.units if u.name == "Panzer IV Ausf. H")
    only(game, tank.uid)
    tank.immobilised = True
    seen: list[list[Group]] = []
    monkeypatch.setattr(game, "resolve_attack", lambda by, unit, groups, **kw: seen.append(groups))
    support._sure_hit(game, tank, "Heavy howitzer", tank.anchor)
    profile = seen[-1][0].shot.vehicle
    assert profile is not None and profile.immobilised  # a second Immobilised knocks it out
    assert tank.vehicle is not None
    tank.vehicle = swap(tank.vehicle, target=game.rules.target("soft-skinned vehicle"))
    game.dice = ScriptedDice([1] * 10)
    support._here_it_comes(game, tank)
    strike = game.rules.data.air_strike
    assert strike is not None
    plane = next(a for a in strike.aircraft if 1 in a.rolls)
    assert seen[-1][0].shot.pen == plane.pen  # no top-armour +1 against a soft-skin


def _observer_game() -> tuple[BoltActionGame, UnitState, UnitState]:
    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    observer = next(u for u in game.units if u.name == "Forward Observer")
    target = next(u for u in game.units if u.name == "1st Grenadier Squad")
    only(game, observer.uid, target.uid, 1)
    place(observer, 20, 6, 0)
    place(target, 20, 30, 180)
    place(game.units[1], 60, 6, 0)  # a friendly unit far from the barrage
    return game, observer, target


def test_barrage_fire_for_effect_golden() -> None:
    game, observer, target = _observer_game()
    # chart 4: fire for effect; radius D6+6 = 1+6 = 7"; the squad rolls 3: D3 pins -> 2
    game.dice = ScriptedDice([4, 1, 3, 2])
    game.apply_action(Action("draw", side=0))
    game.apply_action(
        Action("order", unit=observer.uid, order="Fire", target=target.uid, choice="barrage")
    )
    assert target.pins == 2 and not target.destroyed
    assert game.units[1].pins == 0  # outside the 7"
    assert observer.support_used
    from kriegsspiel.rulesets.bolt_action.game.support import can_call

    assert not can_call(game, observer, "barrage")  # one barrage a game


def test_a_miscalculated_barrage_with_none_of_the_callers_in_reach_is_moved_off_the_enemy() -> None:
    """Sheet 002: on a 1 the enemy may move the point up to 24" in any direction. With no
    unit of the caller's within 24" to move it onto, the enemy moves it out of reach of its
    own (beyond the largest radius, 12"), as near the caller's own as that allows."""
    game, observer, target = _observer_game()
    place(observer, 20, 2, 0)  # 28" from the squad: out of the enemy's reach
    # miscalculation; radius D6+6 = 6+6 = 12"; the observer, 4" off, rolls 3: D3 pins -> 2
    game.dice = ScriptedDice([1, 6, 3, 2])
    game.apply_action(Action("draw", side=0))
    game.apply_action(
        Action("order", unit=observer.uid, order="Fire", target=target.uid, choice="barrage")
    )
    landed = next(e for e in game.events if e.kind == "fire for effect")
    at = Point(*landed.data["at"])
    assert at.distance_to(Point(20, 30)) == pytest.approx(24.0)  # moved the whole reach
    assert min(m.point.distance_to(at) for m in target.alive_models) > 12
    assert target.pins == 0 and observer.pins == 2
    assert game.dice.remaining == []  # type: ignore[attr-defined]


def test_a_barrage_delayed_in_a_clone_is_not_delayed_in_the_original() -> None:
    """clone() is for looking ahead: what is called in on the copy stays on the copy."""
    game, observer, target = _observer_game()
    twin = game.clone()
    twin.dice = ScriptedDice([2])  # delay
    twin.apply_action(Action("draw", side=0))
    twin.apply_action(
        Action("order", unit=observer.uid, order="Fire", target=target.uid, choice="barrage")
    )
    assert len(twin.delayed) == 1 and game.delayed == []


def test_barrage_delay_rolls_again_next_turn() -> None:
    game, observer, target = _observer_game()
    game.dice = ScriptedDice([2])  # delay
    game.apply_action(Action("draw", side=0))
    game.apply_action(
        Action("order", unit=observer.uid, order="Fire", target=target.uid, choice="barrage")
    )
    assert len(game.delayed) == 1 and target.pins == 0
    game.dice = ScriptedDice([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=1, order="Down"))
    game.apply_action(Action("draw", side=1))
    game.apply_action(Action("order", unit=target.uid, order="Down"))
    for uid in sorted((1, target.uid)):  # the two Down units give their dice back
        _retain(game, uid, "return")
    assert game.turn == 2 and not game.delayed  # rolled again at the start of turn 2
    assert any(e.kind == "barrage" and e.data["turn"] == 2 for e in game.events)


def test_air_strike_golden() -> None:
    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    observer = next(u for u in game.units if u.name == "Air Observer")
    target = next(u for u in game.units if u.name == "1st Section")
    only(game, observer.uid, target.uid)
    place(observer, 20, 42, 180)
    place(target, 20, 20, 0)
    # here it comes (4); D3-1 pins on the target: 3 -> 2; aircraft 1: strafing fighter,
    # +1 pin, 3D6 hits (1+1+1 = 3) at the regulars' 4+: two of 5, 2, 6 -> 2 casualties
    game.dice = ScriptedDice([4, 3, 1, 1, 1, 1, 5, 2, 6])
    game.apply_action(Action("draw", side=1))
    game.apply_action(
        Action("order", unit=observer.uid, order="Fire", target=target.uid, choice="air strike")
    )
    assert len(target.alive_models) == 8
    assert target.pins == 2 + 1  # strike pins, the aircraft's pin: its hits add none (002)


def test_an_air_strike_s_pins_remove_a_unit_near_the_target_at_its_morale() -> None:
    """Sheet 002: the target and every unit within 12" take D3-1 pins; a unit whose pins
    reach its morale is removed, as the barrage's pins do (a probe found the units near the
    target kept on the table with 9 pins against morale 9)."""
    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    observer = next(u for u in game.units if u.name == "Air Observer")
    target, near = game.units[1], game.units[2]
    only(game, observer.uid, target.uid, near.uid)
    place(observer, 20, 42, 180)
    place(target, 20, 20, 0)
    place(near, 30, 20, 0)
    morale = game.rules.morale(near.quality)
    near.pins = morale - 2
    # here it comes (4); D3-1 pins: the target 1 -> 0, the unit near it 3 -> 2; aircraft 1
    # (the strafing fighter: +1 pin, 3D6 hits: 1+1+1 = 3 at the regulars' 4+: 1, 1, 1)
    game.dice = ScriptedDice([4, 1, 3, 1, 1, 1, 1, 1, 1, 1])
    game.apply_action(Action("draw", side=1))
    game.apply_action(
        Action("order", unit=observer.uid, order="Fire", target=target.uid, choice="air strike")
    )
    assert near.destroyed and near.pins == morale
    assert any(e.kind == "destroyed" and e.data["unit"] == near.uid for e in game.events), [
        e.kind for e in game.events
    ]
    aircraft = next(e for e in game.events if e.kind == "aircraft")
    assert aircraft.data["pins"] == 1 and target.pins == 1 and not target.destroyed


def _skies_empty_then(
    keep: bool, observer_there: bool = True
) -> tuple[BoltActionGame, UnitState, UnitState]:
    """The German air observer calls an air strike on the 1st Section; the skies are
    empty (2). Unless ``keep``, the section is then destroyed; unless ``observer_there``,
    so is the observer. The British 2nd Section stands 10" east of the first. The turn
    ends and the strike comes back (here it comes, a 6)."""
    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    observer = next(u for u in game.units if u.name == "Air Observer")
    first, second = game.units[1], game.units[2]
    only(game, observer.uid, 1, 2, 12)
    place(first, 30, 10, 0)
    place(second, 40, 10, 0)
    place(observer, 35, 30, 180)
    place(game.units[12], 60, 40, 180)  # the Germans' other unit, far from it all
    game.dice = ScriptedDice([2])  # the skies are empty
    game.apply_action(Action("draw", side=1))
    game.apply_action(
        Action("order", unit=observer.uid, order="Fire", target=1, choice="air strike")
    )
    assert [d.target for d in game.delayed] == [1]
    if not keep:
        game.destroy(first, "destroyed by other fire")
    if not observer_there:
        game.destroy(observer, "destroyed by other fire")
    game.dice = ScriptedDice([6] + [1] * 60)  # here it comes; then every die a 1
    for uid in (1, 2, 12):  # the rest go Down
        if not game.units[uid].destroyed and game.units[uid].order is None:
            game.apply_action(Action("draw", side=game.units[uid].side))
            game.apply_action(Action("order", unit=uid, order="Down"))
    while game.pending is not None:
        game.apply_action(
            Action("retain", side=game.pending.side, unit=game.pending.target, choice="return")
        )
    assert game.turn == 2 and not game.delayed
    return game, first, second


def test_an_air_strike_back_from_empty_skies_keeps_a_target_still_there() -> None:
    game, first, _ = _skies_empty_then(keep=True)
    aircraft = next(e for e in game.events if e.kind == "aircraft")
    assert aircraft.data["target"] == first.uid
    assert not any(e.kind == "air strike target" for e in game.events)


def test_an_air_strike_back_from_empty_skies_is_aimed_anew_when_its_target_is_gone() -> None:
    """Sheet 002, the skies are empty: the nominated target may be changed, and the strike
    rolls again next turn. One whose target has gone since is aimed at the enemy unit
    nearest its place that the observer can see (it was dropped before)."""
    game, first, second = _skies_empty_then(keep=False)
    changed = next(e for e in game.events if e.kind == "air strike target")
    assert changed.data == {"turn": 2, "side": 1, "was": first.uid, "target": second.uid}
    aircraft = next(e for e in game.events if e.kind == "aircraft")
    assert aircraft.data["target"] == second.uid and second.pins > 0


def test_an_air_strike_with_no_one_to_aim_it_anew_is_called_off() -> None:
    game, _, second = _skies_empty_then(keep=False, observer_there=False)
    changed = next(e for e in game.events if e.kind == "air strike target")
    assert changed.data["target"] is None
    assert not any(e.kind == "aircraft" for e in game.events) and second.pins == 0


def test_konflikt47_has_no_barrages() -> None:
    game = new_game("konflikt47")
    from kriegsspiel.rulesets.bolt_action.game.support import can_call

    assert not any(
        can_call(game, u, "barrage") or can_call(game, u, "air strike") for u in game.units
    )


def test_gravity_pulse_stops_the_next_run() -> None:
    game = new_game()
    game.table = Table(72, 48)
    projector, squad = game.units[6], game.units[10]  # Schwerefeld Projektor, 1st Rifle Squad
    only(game, 6, 10, 11)
    place(projector, 20, 6, 0)
    place(squad, 20, 26, 180)
    # 2 shots at 20" (long range: 4+): 5 and 6 hit; both damage on 4+ (6, 6): 2 casualties
    game.dice = ScriptedDice([5, 6, 6, 6] + [3] * 10)
    game.shoot(projector, squad, moving=False)
    assert len(squad.alive_models) == 8 and squad.no_run
    # the record and the account say so (a solo probe read only the shot's casualties)
    from kriegsspiel.render.game_account import account

    assert game.events[-1].kind == "gravity pulse" and game.events[-1].data["unit"] == 10
    assert account(game.events, game.units)[-1] == (
        "    1st Rifle Squad [B] may not be given a Run order at its next activation "
        "(gravity pulse)"
    )
    game.dice = ScriptedDice([3] * 20)
    game.apply_action(Action("draw", side=1))
    with pytest.raises(IllegalActionError, match="gravity pulse"):
        game.apply_action(Action("order", unit=10, order="Run", to=(20.0, 30.0)))
    game.apply_action(Action("order", unit=10, order="Down"))
    assert not squad.no_run  # only the next activation


def test_shockwave_strikes_every_unit_under_its_line() -> None:
    game = new_game()
    game.table = Table(72, 48)
    projector = game.units[15]  # the US artillery unit, given a Zvukovoy Proyektor
    projector.models[0].weapons = ("Zvukovoy Proyektor",)
    near, far = game.units[1], game.units[2]  # two German squads in a line
    only(game, 15, 1, 2)
    place(projector, 20, 40, 180)
    place(near, 20, 30, 0)
    place(far, 20, 22, 0)
    game.dice = RandomDice(5)  # the line, not the rolls, is what this checks
    game.shoot(projector, near, moving=False)
    struck = {e.data["target"] for e in game.events if e.kind == "shockwave"}
    assert struck == {2}  # the far squad is under the line; the firer is not struck
    attacked = [e.data["target"] for e in game.events if e.kind == "shoot"]
    assert attacked == [1, 2]  # the declared target, then the squad under the line


def test_a_vehicle_under_a_shockwaves_line_is_struck_as_what_it_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The line's other victims are set up as any shot's target is (aimed_at): an automaton
    keeps its roll to shrug off "crew stunned", an open-topped vehicle is open. (The line
    once left both out, so an automaton under it was stunned like any crew.)"""
    import kriegsspiel.rulesets.bolt_action.game.firing as firing_module

    game = new_game()
    game.table = Table(72, 48)
    projector, walker = game.units[15], game.units[7]
    projector.models[0].weapons = ("Zvukovoy Proyektor",)
    only(game, 15, 1, 7)
    assert walker.vehicle is not None
    walker.vehicle = replace(walker.vehicle, automaton=True, open_topped=True)
    place(projector, 20, 40, 180)
    place(game.units[1], 20, 30, 0)
    place(walker, 20, 20, 0)
    seen = []
    real = firing_module.plan_shot

    def plan(rules: object, weapon: object, target: object, situation: Any) -> Any:
        seen.append(situation)
        return real(rules, weapon, target, situation)  # type: ignore[arg-type]

    monkeypatch.setattr(firing_module, "plan_shot", plan)
    game.dice = RandomDice(5)
    game.shoot(projector, game.units[1], moving=False)
    assert [e.data["target"] for e in game.events if e.kind == "shockwave"] == [7]
    assert len(seen) == 1 and seen[0].automaton and seen[0].open_topped


def test_recce_vehicle_may_escape_an_assault() -> None:
    game = new_game()
    game.table = Table(72, 48)
    squad, tank = game.units[10], game.units[8]
    only(game, 10, 8, 1)
    from dataclasses import replace as _replace

    assert tank.vehicle is not None
    tank.vehicle = _replace(tank.vehicle, recce=True)
    place(tank, 30, 24, 180)
    place(squad, 30, 16, 0)
    game.dice = ScriptedDice([1, 1] + [3] * 30)  # the order test (-3, no AT weapons): double 1
    game.apply_action(Action("draw", side=1))
    game.apply_action(Action("order", unit=10, order="Run", target=8))
    assert {a.choice for a in game.legal_actions()} == {"stay", "escape"}
    before = tank.anchor
    game.apply_action(Action("react", side=0, unit=8, choice="escape"))
    assert tank.anchor.y > before.y and not tank.destroyed


def test_each_man_fires_one_weapon() -> None:
    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    squad = game.units[11]  # a German squad; give every man a Panzerfaust as well
    for m in squad.models:
        m.weapons = (*m.weapons, "Panzerfaust")
    infantry, tank = game.units[1], game.units[8]
    only(game, 11, 1, 8)
    place(squad, 20, 30, 180)
    place(infantry, 20, 22, 0)
    place(tank, 26, 24, 0)
    at_men = game.shooting_groups(squad, infantry, moving=False)
    assert sum(g.shots for g in at_men) == sum(
        int(game.rules.weapon(m.weapons[0]).shots) for m in squad.alive_models
    )
    assert all(g.shot.weapon != "Panzerfaust" for g in at_men)  # kept for armour
    at_tank = game.shooting_groups(squad, tank, moving=False)
    assert {g.shot.weapon for g in at_tank if g.shot.pen is not None} == {"Panzerfaust"}
    assert all(g.shot.weapon == "Panzerfaust" for g in at_tank)  # no rifle fire at a tank
    game.shoot(squad, tank, moving=False)
    assert all(m.used_one_shot for m in squad.models)  # each fired his one Panzerfaust


@pytest.mark.parametrize("profile", ["soft-skinned vehicle", "armoured car"])
def test_a_man_picks_the_weapon_likelier_to_damage_a_vehicle(profile: str) -> None:
    """A grenadier with a rifle and a Panzerfaust fires the Panzerfaust at a truck as at
    an armoured car: a rifle hit (pen 0) damages a soft-skin on a 6 only, a Panzerfaust
    hit (pen 6) always. (Every shot at a vehicle used to score 0 but at armour, so the
    first weapon listed, the rifle, fired at the truck.)"""
    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    squad, carrier = game.units[12], game.units[7]
    only(game, 12, 7)
    assert carrier.vehicle is not None
    carrier.vehicle = replace(carrier.vehicle, target=game.rules.target(profile))
    place(squad, 20, 30, 180)
    place(carrier, 20, 22, 0)
    armed = [m for m in squad.alive_models if m.weapons == ("Rifle", "Panzerfaust")]
    assert armed
    groups = game.shooting_groups(squad, carrier, moving=False)
    fired = {g.shot.weapon: g.shots for g in groups}
    assert fired["Panzerfaust"] == len(armed)
    riflemen = sum(1 for m in squad.alive_models if m.weapons == ("Rifle",))
    assert fired.get("Rifle", 0) == riflemen  # only the men with no Panzerfaust


class TopFaces:
    """Dice that always roll their highest face: every shot hits (a hand-built test)."""

    def roll(self, sides: int) -> int:
        return sides

    def total(self, count: int, sides: int) -> int:
        return count * sides

    def count_at_least(self, count: int, sides: int, *at_least: int) -> int:
        return count

    def faces(self, count: int, sides: int) -> tuple[int, ...]:
        return (sides,) * count


def _howitzer_game() -> tuple[BoltActionGame, UnitState, UnitState]:
    """The British mortar team given a light howitzer (0/24"-48"), a German squad ahead."""
    game = new_game("bolt-action-1")
    game.table = Table(72, 48)  # open ground: only range and ranging in matter here
    only(game, 4, 13)
    gun, target = game.units[4], game.units[13]
    gun.models[0].weapons = ("Light howitzer",)
    place(gun, 36, 4, 0)
    place(target, 36, 40, 180)
    return game, gun, target


def test_howitzer_fires_direct_until_ranged_in_then_indirect() -> None:
    game, gun, target = _howitzer_game()
    (direct,) = game.shooting_groups(gun, target, moving=False)
    # beyond 24": direct needs 4+ (3+, long range -1), indirect would need a 6: it fires direct
    assert not direct.shot.indirect and direct.shot.hit_on == (4,)
    gun.ranged_in_on = target.uid
    (lobbed,) = game.shooting_groups(gun, target, moving=False)
    assert lobbed.shot.indirect and lobbed.shot.hit_on == (2,)  # ranged in: 2+
    place(target, 36, 22, 180)  # inside the 24" indirect minimum: direct fire only
    (close,) = game.shooting_groups(gun, target, moving=False)
    assert not close.shot.indirect


def test_a_howitzer_at_a_vehicle_fires_the_way_that_hits_more_easily() -> None:
    """At a tank too: direct until ranged in (though a lob would strike the weaker top
    armour, at a 6 it hits less often), then indirect at 2+."""
    game, gun, _ = _howitzer_game()
    tank = game.units[19]  # the Panzer IV
    tank.destroyed = False
    place(tank, 36, 40, 180)
    (direct,) = game.shooting_groups(gun, tank, moving=False)
    # 36" of 48": direct 3+ at long range -1 = 4+; a lob not ranged in would need a 6
    assert not direct.shot.indirect and direct.shot.hit_on == (4,)
    assert direct.shot.pen == 2  # HE D6's pen on the front armour (no long-range -1 for HE)
    gun.ranged_in_on = tank.uid
    (lobbed,) = game.shooting_groups(gun, tank, moving=False)
    assert lobbed.shot.indirect and lobbed.shot.hit_on == (2,)
    assert lobbed.shot.pen == 3  # top armour +1
    # a vehicle's howitzer also fires one way, not both (a vehicle fires all its weapons)
    sherman = game.units[8]
    sherman.destroyed = False
    sherman.models[0].weapons = ("Light howitzer", "MMG", "MMG")
    place(sherman, 36, 4, 0)
    howitzer = [
        g
        for g in game.shooting_groups(sherman, tank, moving=False)
        if g.shot.weapon == "Light howitzer"
    ]
    assert len(howitzer) == 1 and howitzer[0].shots == 1 and not howitzer[0].shot.indirect


def test_only_an_indirect_hit_ranges_in() -> None:
    game, gun, target = _howitzer_game()
    (direct,) = game.shooting_groups(gun, target, moving=False)
    game.dice = TopFaces()
    game.resolve_attack(gun, target, [direct])
    assert gun.ranged_in_on is None  # a direct hit does not range the gun in
    indirect = replace(direct.shot, hit_on=(6,), indirect=True)
    game.resolve_attack(gun, target, [Group(indirect, 1)])
    assert gun.ranged_in_on == target.uid


def test_firing_at_another_target_loses_the_ranging_on_the_first() -> None:
    """A mortar ranged in on one squad that fires at another, and misses, is no longer
    ranged in on the first: back at it, it needs a 6 again."""
    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    only(game, 4, 12, 13)
    mortar, first, second = game.units[4], game.units[13], game.units[12]
    place(mortar, 36, 4, 0)
    place(first, 28, 40, 180)
    place(second, 48, 40, 180)
    mortar.ranged_in_on = first.uid
    (group,) = game.shooting_groups(mortar, first, moving=False)
    assert group.shot.hit_on == (2,)
    game.dice = ScriptedDice([1])  # the shot at the other squad misses
    game.shoot(mortar, second, moving=False)
    assert mortar.ranged_in_on is None
    (group,) = game.shooting_groups(mortar, first, moving=False)
    assert group.shot.hit_on == (6,)


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_a_shell_that_lands_on_a_down_squad_pins_it_and_ranges_in_though_halved_to_none(
    ruleset: str,
) -> None:
    """A mortar's first shell lands (a 6) on a Down squad and rolls 1 for its hits, which
    the Down halving leaves at none: the squad, struck all the same, takes the shell's pin,
    and the mortar is ranged in (docs/rules "HE at a Down target")."""
    game = new_game(ruleset)
    game.table = Table(72, 48)
    squad_uid = {"konflikt47": 10, "bolt-action-1": 13}[ruleset]  # (a squad of the other side)
    only(game, 4, squad_uid)
    mortar, squad = game.units[4], game.units[squad_uid]
    place(mortar, 36, 4, 0)
    place(squad, 36, 40, 180)
    squad.order = "Down"
    (group,) = game.shooting_groups(mortar, squad, moving=False)
    shot = group.shot
    assert shot.indirect and shot.halve_hits and shot.hit_on == (6,) and group.shots == 1
    # a medium mortar: HE D6, its pins D2; the die for the pins rolls 1
    assert shot.hits_per_hit.text == "D6" and shot.special_pins is not None
    models, pins = len(squad.alive_models), squad.pins
    game.dice = ScriptedDice([6, 1, 1])
    game.shoot(mortar, squad, moving=False)
    assert game.dice.remaining == []
    logged = next(e for e in reversed(game.events) if e.kind == "shoot").data
    assert logged["hits"] == 0 and logged["casualties"] == 0 and logged["pins"] == 1
    assert squad.pins == pins + 1 and len(squad.alive_models) == models
    assert mortar.ranged_in_on == squad.uid
    (group,) = game.shooting_groups(mortar, squad, moving=False)
    assert group.shot.hit_on == (2,)  # ranged in: the next shell needs only 2+


def test_indirect_fire_ranges_in_on_a_vehicle_it_hits() -> None:
    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    only(game, 4, 18)
    mortar, halftrack = game.units[4], game.units[18]
    place(mortar, 36, 4, 0)
    place(halftrack, 36, 40, 180)
    (group,) = game.shooting_groups(mortar, halftrack, moving=False)
    assert group.shot.indirect
    game.dice = TopFaces()
    game.resolve_attack(mortar, halftrack, [group])
    assert mortar.ranged_in_on == halftrack.uid


def test_an_indirect_hit_that_cannot_pin_a_vehicle_still_ranges_in() -> None:
    """A light mortar (HE D3: pen +1, top armour +1) hits a Panzer IV (9+): even a 6
    makes 8, so the hit neither damages nor pins it; it still ranges the mortar in."""
    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    only(game, 4, 19)
    mortar, tank = game.units[4], game.units[19]
    mortar.models[0].weapons = ("Light mortar",)
    place(mortar, 36, 4, 0)
    place(tank, 36, 24, 180)
    (group,) = game.shooting_groups(mortar, tank, moving=False)
    assert group.shot.indirect and not group.shot.pins_target
    game.dice = TopFaces()
    game.resolve_attack(mortar, tank, [group])
    assert tank.pins == 0 and not tank.destroyed
    assert mortar.ranged_in_on == tank.uid


def test_only_an_indirect_shots_hit_ranges_a_unit_in_not_its_other_weapons() -> None:
    """A squad with a light mortar (a man of the squad, crewed by the rest) whose mortar
    misses while its rifles hit is not ranged in; nor is a vehicle whose MMGs hit a tank
    while its howitzer misses. When the indirect shot hits, it is."""
    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    only(game, 1, 13)
    squad, target = game.units[1], game.units[13]
    next(m for m in squad.models if m.weapons == ("Rifle",)).weapons = ("Light mortar",)
    place(squad, 36, 4, 0)
    place(target, 36, 22, 180)
    groups = game.shooting_groups(squad, target, moving=False)
    assert any(g.shot.indirect for g in groups) and not all(g.shot.indirect for g in groups)
    mortar = next(g for g in groups if g.shot.indirect)
    rifle = next(replace(g, shots=1) for g in groups if g.shot.weapon == "Rifle")
    game.dice = TopFaces()
    game.resolve_attack(
        squad, target, [replace(mortar, shot=replace(mortar.shot, hit_on=None)), rifle]
    )
    assert target.pins == 1 and not target.destroyed and squad.ranged_in_on is None
    game.resolve_attack(squad, target, [mortar, rifle])
    assert squad.ranged_in_on == target.uid  # (its shells hit, whatever came of them)

    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    only(game, 8, 19)
    gun, tank = game.units[8], game.units[19]
    gun.models[0].weapons = ("Light howitzer", "MMG", "MMG")
    place(gun, 36, 4, 0)
    place(tank, 36, 34, 180)
    game.dice = TopFaces()
    game.resolve_attack(gun, tank, [])  # (nothing fired: nothing ranged)
    lobbed = Group(replace(game.shooting_groups(gun, tank, moving=False)[0].shot, indirect=True), 1)
    assert lobbed.shot.weapon == "Light howitzer"
    mmg = Group(replace(lobbed.shot, weapon="MMG", indirect=False), 1)
    game.resolve_attack(gun, tank, [replace(lobbed, shot=replace(lobbed.shot, hit_on=None)), mmg])
    assert gun.ranged_in_on is None
    game.resolve_attack(gun, tank, [lobbed])
    assert gun.ranged_in_on == tank.uid


def test_a_choice_for_the_wrong_unit_is_refused_naming_the_unit_that_decides() -> None:
    """A replayed record whose reaction names another unit used to read as if its choice
    were not offered at all."""
    game = new_game()
    game.table = Table(72, 48)
    only(game, 1, 10, 11)
    place(game.units[1], 20, 20, 0)
    place(game.units[10], 20, 28, 180)
    place(game.units[11], 50, 40, 180)
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=1, order="Run", target=10, choice="hand-to-hand"))
    with pytest.raises(IllegalActionError, match=r"with .* \(unit 10\): choose one of"):
        game.apply_action(Action("react", side=1, unit=11, choice="hand-to-hand"))


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_damage_dealt_adds_up_to_the_enemy_points_lost(ruleset: str) -> None:
    """Each side's damage dealt is the points the enemy lost: models shot, units broken by
    morale or pins (credited to whoever broke them), close quarters counted once each way,
    and an observer's barrage or air strike credited to the observer. Only losses a side
    inflicts on itself (friendly fire, a miscalculated barrage, a rookie pilot) are no
    one's (a barrage striking friends near its target too)."""
    import kriegsspiel
    from kriegsspiel.ai.players import RandomPlayer, play
    from kriegsspiel.rulesets.bolt_action.game.units import points_lost

    own_goals = {"friendly fire", "rookie pilot", "miscalculation"}

    def struck_own(game: BoltActionGame) -> bool:
        """Did a barrage or an air strike strike a unit of the side that called it (a
        friend within its radius)?"""
        caller = None
        for e in game.events:
            if e.kind in ("barrage", "air strike"):
                caller = e.data["side"]
            elif e.kind == "support damage" and game.units[e.data["target"]].side == caller:
                return True
        return False

    checked = 0
    for seed in range(48):  # until six games without an own goal are checked
        if checked == 6:
            break
        game = kriegsspiel.new_game(ruleset, sample_scenarios()[seed % 2].stem, seed=seed)
        play(game, [RandomPlayer(seed), RandomPlayer(seed + 1)], seed)
        said = {str(v) for e in game.events for v in e.data.values()} | {
            e.kind for e in game.events
        }
        if said & own_goals or struck_own(game):
            continue
        checked += 1
        for side in (0, 1):
            dealt = sum(u.damage_dealt for u in game.units if u.side == side)
            lost = sum(points_lost(u) for u in game.units if u.side != side)
            assert dealt == pytest.approx(lost), (seed, side)
    assert checked == 6


def test_the_ai_weighs_an_assault_with_the_sides_the_odds_and_the_game_fight() -> None:
    """One builder of close-quarters sides (assault.fighting_side): the AI's chance that a
    pinned unit wins a point-blank assault is the odds calculator's, against the defence
    the assaulted unit's own AI would choose, the one that leaves the assaulters least.
    (The AI's own copy once left out point-blank fire's pins: 10 regulars with 3 pins read
    0.55, not 0.023; and it once expected every defender to fight hand-to-hand.)"""
    from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
    from kriegsspiel.ai.bolt_action_tactics.assault_value import assault_worth
    from kriegsspiel.rulesets.bolt_action.odds import assault_odds

    game = new_game()
    only(game, 1, 10)  # no officer near either side (the odds of an assault take none)
    unit, target = game.units[1], game.units[10]
    target.order = "Fire"  # it has acted: it fights hand-to-hand or with point-blank fire

    def armed(u: UnitState) -> int:
        weapon = game.rules.weapon
        return sum(any("Assault" in weapon(w).special for w in m.weapons) for m in u.alive_models)

    chosen = set()
    for pins in (0, 3):
        unit.pins = pins
        action = Action("order", unit=1, order="Run", target=10, choice="point-blank")
        value = assault_worth(game, unit, target, action)  # (its order test apart)
        p_ai = (value + unit.points) / (target.points + unit.points)
        p_odds = {
            mode: assault_odds(
                "konflikt47",
                attackers=len(unit.alive_models),
                attacker_quality=unit.quality,
                attacker_pins=pins,
                attacker_assault_weapons=armed(unit),
                attacker_mode="point-blank",
                defenders=len(target.alive_models),
                defender_quality=target.quality,
                defender_assault_weapons=armed(target),
                defender_mode=mode,
            ).probabilities["p_attacker_wins"]
            for mode in ("hand-to-hand", "point-blank")
        }
        best = min(p_odds, key=lambda mode: p_odds[mode])
        assert abs(p_ai - float(p_odds[best])) < 1e-9, (pins, p_ai, p_odds)
        # the defender's AI, asked, makes that same choice
        game.pending = Pending("assault-reaction", 1, action, 10)
        reaction = TacticalPlayer().choose(game)
        game.pending = None
        assert reaction.choice == best, (pins, reaction, p_odds)
        chosen.add(best)
    assert chosen == {"hand-to-hand", "point-blank"}  # each defence is the better one once


def test_the_ai_values_an_assault_on_a_vehicle_as_a_shot_doing_the_same() -> None:
    """The tactical player values infantry assaulting a vehicle as it values a shot at one
    (shot_value.vehicle_worth): its points by the chance to knock it out, the game's own
    procedure (the odds calculator's chance), and what else the assault applies where it
    stays (an immobilisation, a stun or fire while it has its order to lose, pins). An
    assault that cannot damage it (2 men hitting on 6s: hits + D6 short of 9) is worth its
    pins alone (once worth less than nothing: only the knock-out counted); one on a
    vehicle that ran, which no model can hit, only exposes the men."""
    from kriegsspiel.ai.bolt_action_tactics.assault_value import USELESS_ASSAULT, assault_value
    from kriegsspiel.ai.bolt_action_tactics.shot_value import (
        HALTED_SHARE,
        IMMOBILISED_SHARE,
        PIN_VALUE,
    )
    from kriegsspiel.rulesets.bolt_action.game.close_quarters import vehicle_assault_outcomes
    from kriegsspiel.rulesets.bolt_action.odds import vehicle_assault_odds

    game = new_game("bolt-action-1")
    only(game, 8, 12, 16)
    sherman, squad, team = game.units[8], game.units[12], game.units[16]
    assert sherman.vehicle is not None and game.has_anti_tank(squad)
    assert sherman.order is None  # (yet to act: a halt costs it its order)
    for moved, order in ((None, "stationary"), ("advance", "advanced")):
        sherman.moved = moved
        action = Action("order", unit=squad.uid, order="Run", target=sherman.uid)
        value = assault_value(game, squad, sherman, action)
        odds = vehicle_assault_odds(
            "bolt-action-1",
            models=len(squad.alive_models),
            quality=squad.quality,
            target=sherman.vehicle.target.name,
            vehicle_order=order,
            anti_tank=True,
            target_quality=sherman.quality,
        )
        ko = float(odds.probabilities["p_knocked_out_if_assaulting"])
        outcomes = vehicle_assault_outcomes(game, squad, sherman)
        assert float(outcomes.probability(lambda s: s.knocked_out)) == pytest.approx(ko)
        stays = [(s, float(p)) for s, p in outcomes.items() if not s.knocked_out]
        immobilised = sum(p for s, p in stays if s.immobilised)
        halted = sum(p for s, p in stays if s.crew_stunned or s.on_fire)
        pins = sum(p * s.pins for s, p in stays)
        assert immobilised > 0 and halted > 0 and pins > 0, order
        assert value == pytest.approx(
            (ko + immobilised * IMMOBILISED_SHARE + halted * HALTED_SHARE) * sherman.points
            + pins * PIN_VALUE
        ), order
        assert value > ko * sherman.points  # (the knock-out alone, as it was valued)
    # the Panzerschreck team at a Sherman that advanced: no damage, a pin on a hit
    sherman.moved = "advance"
    team_assault = Action("order", unit=team.uid, order="Run", target=sherman.uid)
    hit = 1 - (5 / 6) ** len(team.alive_models)
    assert assault_value(game, team, sherman, team_assault) == pytest.approx(hit * PIN_VALUE)
    sherman.moved = "run"  # (no model can hit it: nothing it could do)
    assert assault_value(game, team, sherman, team_assault) == USELESS_ASSAULT


def test_in_the_last_turn_the_ai_takes_the_objective_that_wins_rather_than_shoot() -> None:
    """In the last turn of a game won by objectives, the objectives held decide it: the
    tactical player values a move by the victory points it wins or loses there
    (OBJECTIVE_SWING each; in turn 6, which a roll of 4+ follows with a seventh, half), so the 2nd Section Runs onto the Crossroads (2 points) instead
    of firing at the squad, as it fires a turn earlier; and it does not leave the
    objective it holds alone. (A probe saw a section shoot at a pinned squad in the last
    turn, a legal Run away from a 2-0 win: a draw instead.)"""
    from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
    from kriegsspiel.ai.bolt_action_tactics.move_value import OBJECTIVE_SWING

    game = new_game("bolt-action-1", scenario=0)  # hold-the-crossroads: the Crossroads 2
    only(game, 2, 12)
    section, squad = game.units[2], game.units[12]
    place(section, 35.5, 13, 0)  # 11" south of the Crossroads (35.5, 24)
    place(squad, 50, 4, 180)  # in its rifles' range
    onto = Action("order", unit=section.uid, order="Run", to=(35.5, 24.0))
    chosen, worth = {}, {}
    for turn in (5, 6, 7):
        game.turn = turn
        twin = game.clone()
        twin.apply_action(Action("draw", side=0))
        chosen[turn] = TacticalPlayer().choose(twin)
        worth[turn] = TacticalPlayer().value(twin, onto)
    assert chosen[5].order == "Fire" and chosen[5].target == squad.uid
    assert chosen[6] == chosen[7] == onto
    assert worth[7] - worth[5] == pytest.approx(1.3 * 2 * OBJECTIVE_SWING)  # (a Run's 1.3)
    # turn 6 may be the last (a seventh on 4+): the swing weighed by its chance, a half
    assert worth[6] - worth[5] == pytest.approx(1.3 * 2 * OBJECTIVE_SWING / 2)
    # standing on it in the last turn, alone: a Run off it loses those 2 points
    place(section, 35.5, 24, 0)
    game.turn = 7
    game.apply_action(Action("draw", side=0))
    off = Action("order", unit=section.uid, order="Run", to=(35.5, 13.0))
    assert game.score() == (2, 0)
    player = TacticalPlayer()
    assert player._objective_swing(game, section, off.to) == -2 * OBJECTIVE_SWING
    assert player.choose(game) != off


def test_the_ai_expects_an_unordered_unit_to_stand_and_fire() -> None:
    """A unit assaulted before it has an order may stand and fire (Konflikt '47): the AI
    defending chooses it when its fire is strong, and the AI assaulting expects it, so it
    thinks less of assaulting a unit that has not acted than the same unit that has."""
    from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
    from kriegsspiel.ai.bolt_action_tactics.assault_value import assault_value

    game = new_game()
    game.table = Table(72, 48)
    only(game, 1, 10)
    place(game.units[1], 20, 20, 0)
    place(game.units[10], 20, 28, 180)
    unit, target = game.units[1], game.units[10]
    for model in unit.models[6:]:  # six assaulters against ten, eight inches away
        model.alive = False
    action = Action("order", unit=1, order="Run", target=10, choice="hand-to-hand")
    player = TacticalPlayer()
    unordered = assault_value(game, unit, target, action)
    game.pending = Pending("assault-reaction", 1, action, 10)
    assert player.choose(game).choice == "stand and fire"
    game.pending = None
    target.order = "Fire"
    ordered = assault_value(game, unit, target, action)
    assert unordered < ordered


def test_a_vehicle_behind_a_wall_is_in_cover_as_the_odds_say() -> None:
    """The sheets' 'Target is in soft/hard cover' applies to every target (only Down is
    limited to infantry and artillery): a tank behind a wall takes the hard-cover -2 in a
    game, as `odds shoot --cover hard` gives it (the game once gave vehicles no cover).
    Its cover is measured from its centre, as a man's from his (assumption)."""
    from kriegsspiel.rulesets.bolt_action.to_hit import describe_needs

    south = "  - {side: south, polygon: [[0, 0], [72, 0], [72, 12], [0, 12]]}\n"
    wall = (
        "terrain:\n  - {name: wall, category: obstacle, cover: hard,"
        " polygon: [[20, 27], [50, 27], [50, 27.5], [20, 27.5]]}"
    )
    needs = {}
    for terrain, cover in (("terrain: []", "none"), (wall, "hard")):
        game = _with_zones(south + NORTH, terrain)
        squad = next(u for u in game.units if u.side == 0 and u.vehicle is None)
        tank = next(u for u in game.units if u.side == 1 and u.vehicle is not None)
        only(game, squad.uid, tank.uid)
        place(squad, 35, 20, 0)
        place(tank, 35, 28, 180)  # hull-down: the wall half an inch before it
        rifles = [g for g in game.shooting_groups(squad, tank, moving=False)
                  if g.shot.weapon == "Rifle"]  # fmt: skip
        needs[cover] = describe_needs(game.rules, rifles[0].shot.hit_on)
    assert needs == {"none": "3+", "hard": "5+"}  # base 3+, hard cover -2 (sheet 001)


def test_a_vehicle_on_a_wall_is_in_cover_only_from_the_side_the_wall_shields() -> None:
    """The solo probe's half-track, its centre on a churchyard wall's strip, had hard cover
    from every side, the wall behind it too. A vehicle's centre on a wall (an obstacle)
    now counts the wall only where the line of fire crosses it before the centre (at or
    past the wall's middle, as the shooter sees it: hull-down behind it); a wall within 1"
    behind a vehicle off it gives none. Troops have the cover of the wall they stand in
    from every side, as the docs say (cover is per model: terrain it stands in)."""
    from kriegsspiel.core.table import Point
    from kriegsspiel.rulesets.bolt_action.game.table_rules import unit_cover

    south = "  - {side: south, polygon: [[0, 0], [72, 0], [72, 12], [0, 12]]}\n"
    wall = (
        "terrain:\n  - {name: wall, category: obstacle, cover: hard,"
        " polygon: [[20, 27], [50, 27], [50, 28], [20, 28]]}"
    )
    game = _with_zones(south + NORTH, wall)
    tank = next(u for u in game.units if u.vehicle is not None)
    rules, table = game.rules, game.table
    from_south, from_north = Point(35, 15), Point(35, 40)
    place(tank, 35, 27.2, 0)  # on the wall's south half: the wall mostly north of it
    assert unit_cover(rules, table, from_south, tank) == "none"
    assert unit_cover(rules, table, from_north, tank) == "hard"
    place(tank, 35, 27.8, 0)  # on its north half
    assert unit_cover(rules, table, from_south, tank) == "hard"
    assert unit_cover(rules, table, from_north, tank) == "none"
    place(tank, 35, 27.5, 0)  # astride its middle: both ways
    assert unit_cover(rules, table, from_south, tank) == "hard"
    assert unit_cover(rules, table, from_north, tank) == "hard"
    place(tank, 35, 26.5, 0)  # off it, half an inch south: hull-down from the north only
    assert unit_cover(rules, table, from_south, tank) == "none"
    assert unit_cover(rules, table, from_north, tank) == "hard"
    assert table.cover_between(from_south, Point(35, 27.2)) == "hard"  # a man there: both
    assert table.cover_between(from_north, Point(35, 27.2)) == "hard"


def test_a_stunned_vehicle_holding_a_kept_ambush_die_ambushes_no_more() -> None:
    """Crew stunned: 'change its current order die to Down' (sheets 000, 001, 002). A die
    kept from last turn as Ambush is its current die: it turns to Down, and the vehicle,
    halted, springs no ambush."""
    game = new_game()
    tank = next(u for u in game.units if u.vehicle is not None)
    tank.retained = "Ambush"
    assert tank.is_ambushing
    game.vehicle_damage(tank, ko=False, immobilised=False, halted=True, pins=1, by=None)
    assert (tank.order, tank.retained, tank.is_ambushing) == ("Down", None, False)


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_a_vehicle_abandoned_under_its_pins_leaves_a_wreck(ruleset: str) -> None:
    """A vehicle whose pins reach its morale is removed: its crew abandon it, and an
    abandoned vehicle "is considered to be knocked out", which "becomes a wreck" (001).
    As for a knock-out, a soft-skin leaves none (the sheet gives armoured wrecks only)."""
    game = new_game(ruleset)
    tank, truck = [u for u in game.units if u.vehicle is not None and u.side == 0][-2:]
    assert tank.vehicle is not None and truck.vehicle is not None
    truck.vehicle = replace(truck.vehicle, target=game.rules.target("soft-skinned vehicle"))
    for vehicle in (tank, truck):
        vehicle.pins = game.rules.morale(vehicle.quality)
        game.check_pins(vehicle)
        assert vehicle.destroyed
    wrecks = [f.name for f in game.table.features if f.name.startswith("wreck of")]
    assert wrecks == [f"wreck of {tank.name}"]
    (wreck,) = game.table.features_at(tank.anchor)
    assert wreck.impassable_to == {"vehicle"}


def test_a_walker_crosses_a_wreck_that_stops_a_tank() -> None:
    """'Wrecks of armoured vehicles count as impassable terrain to tracked, wheeled, and
    half-tracked vehicles' (001): not to walkers, which cross one as the obstacle it is."""
    from kriegsspiel.rulesets.bolt_action.game.table_rules import check_move

    game = new_game()
    walker = next(u for u in game.units if u.vehicle is not None and u.vehicle.kind == "walker")
    tank = next(u for u in game.units if u.vehicle is not None and u.vehicle.kind == "tracked")
    only(game, walker.uid, tank.uid)
    game.table = game.table.wreck(Point(36.0, 30.0), name="wreck")
    for unit in (walker, tank):
        place(unit, 36.0, 25.0, 0.0)
    across = Point(36.0, 34.0)
    assert check_move(game.rules, game.table, walker, across, run=False).allowed
    refused = check_move(game.rules, game.table, tank, across, run=False)
    assert not refused.allowed and refused.reason == "wreck is impassable to vehicles"
    # it crosses the wreck, but does not end its move standing on it (nor gain its cover)
    on = check_move(game.rules, game.table, walker, Point(36.0, 30.2), run=False)
    assert not on.allowed and on.reason == "a vehicle may not end its move on wreck"


def test_the_tactical_player_holds_an_ambush_that_could_do_nothing() -> None:
    """A solo probe's MG 42 on Ambush was offered a shot at an M4 Sherman "needing 5+; 0%
    to knock it out": an MMG can neither damage nor pin a closed tank, and springing the
    ambush spends it. The game still offers the shot (it is legal), the human's list says
    it cannot hurt or pin it, and the tactical player holds (keeping the ambush for a
    mover it can hurt); with a Panzerschreck Team also on Ambush, that one fires."""
    import io

    from rich.console import Console

    from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
    from kriegsspiel.rulesets.bolt_action.attack import futile
    from kriegsspiel.solo.briefing import shot_line

    game = new_game()  # Konflikt '47: the MG 42 MMG Team (3), the Panzerschreck (5), a Sherman
    game.table = Table(72, 48)
    only(game, 3, 5, 17)
    place(game.units[3], 36, 10, 0)
    place(game.units[5], 20, 10, 0)
    place(game.units[17], 36, 30, 180)
    game.units[3].retained = "Ambush"
    game.turn_dice = (17,)
    game.apply_action(Action("draw", side=1))
    game.apply_action(Action("order", unit=17, order="Advance", to=(36.0, 26.0)))
    assert game.pending is not None and game.pending.kind == "ambush"
    assert game.pending.ambushers == (3,)
    assert {a.choice for a in game.legal_actions()} == {"fire", "hold"}
    mmg, tank = game.units[3], game.units[17]
    assert futile(game.shot_groups(mmg, tank, moving=False))
    assert shot_line(game, mmg, tank, moving=False).endswith("; it cannot hurt or pin it")
    assert TacticalPlayer().choose(game).choice == "hold"
    # with an anti-tank weapon among the ambushers, it springs that one
    twin = new_game()
    twin.table = Table(72, 48)
    only(twin, 3, 5, 17)
    place(twin.units[3], 36, 10, 0)
    place(twin.units[5], 30, 14, 0)
    place(twin.units[17], 36, 30, 180)
    twin.units[3].retained = twin.units[5].retained = "Ambush"
    twin.turn_dice = (17,)
    twin.apply_action(Action("draw", side=1))
    twin.apply_action(Action("order", unit=17, order="Advance", to=(36.0, 26.0)))
    assert twin.pending is not None and twin.pending.ambushers == (3, 5)
    assert not futile(twin.shot_groups(twin.units[5], twin.units[17], moving=False))
    chosen = TacticalPlayer().choose(twin)
    assert (chosen.choice, chosen.unit) == ("fire", 5)
    out = io.StringIO()
    Console(file=out, width=200).print(shot_line(twin, twin.units[5], twin.units[17], moving=False))
    assert "to knock it out" in out.getvalue()


def test_an_immobilised_vehicles_panic_says_it_cannot_move_not_that_no_enemy_is_in_sight() -> None:
    """Probe finding 1: a FUBAR panic goes Down for either of two causes (sheet 001: no
    enemy in sight; it can no longer move). An immobilised Sherman with a Panzer IV in
    sight goes Down because it cannot move, and its record says so; with none in sight,
    that is the cause it gives."""
    game = new_game("bolt-action-1", 0)
    game.table = Table(72, 48)
    only(game, 8, 19)
    sherman, panzer = game.units[8], game.units[19]
    place(sherman, 36, 10, 0)
    place(panzer, 36, 20, 180)
    assert game.visible(sherman, panzer)
    sherman.immobilised = True
    panic(game, sherman)
    assert sherman.order == "Down"
    assert game.events[-1].data["result"] == "panic: cannot move (immobilised), goes Down"
    panzer.destroyed = True
    panic(game, sherman)
    assert game.events[-1].data["result"] == "panic: no enemy in sight, goes Down"
