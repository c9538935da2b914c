"""Moves along a road at the road's rate are offered (docs/rules, 'Moving a unit': "Roads ×2
for vehicles moving wholly along a road"): a vehicle on a road is given destinations along
it beyond its plain move, up to the doubled move and no farther, each legal and each wholly
on the road; a vehicle off the roads, or troops on one, are given none beyond the plain
move; a vehicle beside a road is given a move onto it; and the tactical player takes the
road when it leads to the objective."""

from __future__ import annotations

import pytest
from test_game_rules import new_game, only, place

from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.core.table import Point, Table, TerrainFeature, rectangle
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.candidates import ROAD_INSET, ROAD_MARGIN
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.table_rules import (
    movement_row,
    road_covers,
    road_rate,
    terrain_column,
)
from kriegsspiel.rulesets.bolt_action.game.units import UnitState

RULESETS = ("konflikt47", "bolt-action-1")

#: An east-west road 4" wide across the middle of a 72" x 48" table, a wood beside it.
ROAD = TerrainFeature("road", "road", "none", rectangle(0, 22, 72, 26), False)
WOOD = TerrainFeature("wood", "wood", "soft", rectangle(20, 30, 40, 40), True)


def road_game(ruleset: str) -> tuple[BoltActionGame, UnitState, UnitState, UnitState]:
    """A game on the road table with three units left: side 0's tank and a squad, and an
    enemy squad far off; side 0 to give an order."""
    game = new_game(ruleset, scenario=1)
    game.table = Table(72, 48, features=(ROAD, WOOD))
    tank = next(u for u in game.units if u.side == 0 and u.vehicle is not None)
    troops = next(u for u in game.units if u.side == 0 and u.kind == "infantry")
    enemy = next(u for u in game.units if u.side == 1 and u.kind == "infantry")
    only(game, tank.uid, troops.uid, enemy.uid)
    place(enemy, 66, 44)
    place(troops, 40, 10)
    game.apply_action(Action("draw", side=0))
    return game, tank, troops, enemy


def moves(game: BoltActionGame, unit: UnitState) -> list[tuple[Action, float]]:
    """The unit's offered Advances and Runs (not assaults) and each one's length."""
    return [
        (a, unit.anchor.distance_to(Point(*a.to)))
        for a in game.legal_actions()
        if a.kind == "order"
        and a.unit == unit.uid
        and a.order in ("Advance", "Run")
        and a.target is None
        and a.to is not None
        and a.to != (unit.anchor.x, unit.anchor.y)
    ]


def plain(game: BoltActionGame, unit: UnitState, order: str) -> float:
    row = movement_row(game.rules, unit)
    return float(row.run if order == "Run" else row.advance)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_vehicle_on_a_road_is_offered_moves_along_it_up_to_the_doubled_move(
    ruleset: str,
) -> None:
    game, tank, _, _ = road_game(ruleset)
    place(tank, 10, 24, 90)  # on the road, facing along it (east)
    assert road_rate(game.rules, terrain_column(tank)) == 2
    offered = moves(game, tank)
    beyond = [(a, d) for a, d in offered if d > plain(game, tank, a.order) + 1e-9]
    # a Run and an Advance east along the road, to the doubled move (less the margin kept
    # from the road's end: none here, the road runs on) and to points between
    for order in ("Advance", "Run"):
        farthest = max(d for a, d in beyond if a.order == order)
        assert farthest == pytest.approx(2 * plain(game, tank, order), abs=0.02)
    for action, distance in offered:
        assert distance <= 2 * plain(game, tank, action.order) + 1e-9
        assert game.is_legal(action)
    for action, _ in beyond:
        assert road_covers(game.rules, game.table, tank.anchor, Point(*action.to))
        assert action.to[1] == 24  # (along the road, straight on)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_road_move_stops_where_the_road_ends(ruleset: str) -> None:
    """A road ending 20" ahead: the farthest move along it ends :data:`ROAD_MARGIN` short
    of its end, still on it (the move is doubled); none goes past it."""
    game, tank, _, _ = road_game(ruleset)
    short = TerrainFeature("lane", "road", "none", rectangle(0, 22, 30, 26), False)
    game.table = Table(72, 48, features=(short,))
    place(tank, 10, 24, 90)
    ends = [Point(*a.to) for a, d in moves(game, tank) if d > plain(game, tank, a.order) + 1e-9]
    assert ends
    assert max(p.x for p in ends) == pytest.approx(30 - ROAD_MARGIN, abs=0.01)
    assert all(road_covers(game.rules, game.table, tank.anchor, p) for p in ends)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_off_the_road_or_on_foot_no_move_goes_beyond_the_plain_one(ruleset: str) -> None:
    game, tank, troops, _ = road_game(ruleset)
    place(tank, 10, 8, 90)  # off the road, 14" from it
    place(troops, 40, 24)  # troops on the road: the road does not double their move
    for unit in (tank, troops):
        offered = moves(game, unit)
        assert offered
        assert all(d <= plain(game, unit, a.order) + 1e-9 for a, d in offered)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_vehicle_beside_a_road_is_offered_a_move_onto_it(ruleset: str) -> None:
    """3" south of the road's edge: a move onto the road, :data:`ROAD_INSET` in from its
    edge (the nearest such point), from where its next move may run along it."""
    game, tank, _, _ = road_game(ruleset)
    place(tank, 10, 19, 0)
    onto = [a for a, _ in moves(game, tank) if a.to == (10.0, 22 + ROAD_INSET)]
    assert {a.order for a in onto} >= {"Advance", "Run"}
    assert all(game.is_legal(a) for a in onto)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_tactical_player_takes_the_road_to_the_objective(ruleset: str) -> None:
    """Hold the Crossroads: a tank on the main road 30.5" west of the Crossroads (the
    2-point objective, on the road) and no enemy in sight. Its plain move falls short;
    the road's doubled move reaches it, and the tactical player takes it."""
    game = new_game(ruleset, scenario=0)
    tank = next(u for u in game.units if u.side == 0 and u.vehicle is not None)
    enemy = next(u for u in game.units if u.side == 1 and u.kind == "infantry")
    only(game, tank.uid, enemy.uid)
    place(tank, 5, 24, 90)
    place(enemy, 60, 45)
    game.apply_action(Action("draw", side=0))
    chosen = TacticalPlayer(0).choose_for(game, tank.uid)
    assert chosen.order in ("Advance", "Run") and chosen.to is not None
    distance = tank.anchor.distance_to(Point(*chosen.to))
    assert distance > plain(game, tank, chosen.order)
    assert chosen.to[1] == 24 and chosen.to[0] > 5  # east along the road
    assert game.is_legal(chosen)
