"""Buildings and woods that block sight: the players are offered moves into them where the
unit may enter them (the terrain table), and a unit inside one sees out, is seen and takes
its cover. Docs: docs/rules, 'Into buildings and woods' and 'Sight and cover in buildings
and woods'."""

from __future__ import annotations

import pytest
import shapely
from test_game_rules import new_game, only, place

from kriegsspiel.core.table import Point, TerrainFeature
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.candidates import WAY_IN_MARGIN, _entry, destinations
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.table_rules import check_move, unit_cover
from kriegsspiel.rulesets.bolt_action.game.units import UnitState

RULESETS = ("konflikt47", "bolt-action-1")
MEETING = 1  # sample_scenarios()[1]: the meeting engagement (Farmhouse, Bois de la Croix)


def feature(game: BoltActionGame, name: str) -> TerrainFeature:
    return next(f for f in game.table.features if f.name == name)


def squad(game: BoltActionGame, side: int = 0) -> UnitState:
    return next(
        u for u in game.units if u.side == side and u.kind == "infantry" and len(u.models) >= 8
    )


def wholly_inside(unit: UnitState, to: Point, area: TerrainFeature) -> bool:
    """Would every live model of ``unit`` stand inside ``area`` (shapely: a plain
    reference) were its centre moved to ``to``?"""
    start = unit.anchor
    polygon = shapely.Polygon(area.polygon)
    return all(
        polygon.contains(shapely.Point(m.x + to.x - start.x, m.y + to.y - start.y))
        for m in unit.alive_models
    )


def any_inside(unit: UnitState, to: Point, area: TerrainFeature) -> bool:
    start = unit.anchor
    polygon = shapely.Polygon(area.polygon)
    return any(
        polygon.intersects(shapely.Point(m.x + to.x - start.x, m.y + to.y - start.y))
        for m in unit.alive_models
    )


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_squad_beside_a_farmhouse_is_offered_a_move_into_it(ruleset: str) -> None:
    """A squad 1.5" from the Farmhouse (a building: "OK" for infantry, Advance and Run) is
    offered an Advance and a Run that put every one of its men inside it, and the order
    is a legal action of the game; made, the squad stands in the building."""
    game = new_game(ruleset, MEETING)
    ours = squad(game)
    only(game, ours.uid)
    farmhouse = feature(game, "Farmhouse")  # x 24 to 31, y 20 to 27
    place(ours, 20.5, 23.5)
    for run in (False, True):
        inside = [p for p in destinations(game, ours, run=run) if wholly_inside(ours, p, farmhouse)]
        assert inside, run
        assert all(check_move(game.rules, game.table, ours, p, run=run).allowed for p in inside)
    game.apply_action(Action("draw", side=0))
    entries = [
        a
        for a in game.legal_actions()
        if a.order in ("Advance", "Run")
        and a.to is not None
        and wholly_inside(ours, Point(*a.to), farmhouse)
    ]
    assert {a.order for a in entries} == {"Advance", "Run"}
    game.apply_action(entries[0])
    assert all(farmhouse in game.table.features_at(m.point) for m in ours.alive_models)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_squad_is_offered_a_sight_blocking_wood_on_an_advance_not_a_run(ruleset: str) -> None:
    """The Bois de la Croix blocks sight and is rough ground ("No Run" for infantry): the
    squad beside it is offered an Advance into it, every man inside, but no Run that ends
    with a man in it."""
    game = new_game(ruleset, MEETING)
    ours = squad(game)
    only(game, ours.uid)
    wood = feature(game, "Bois de la Croix")
    place(ours, 20.5, 33)
    advances = destinations(game, ours, run=False)
    assert any(wholly_inside(ours, p, wood) for p in advances)
    assert not any(any_inside(ours, p, wood) for p in destinations(game, ours, run=True))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_vehicle_or_gun_is_offered_a_building(ruleset: str) -> None:
    """Vehicles never enter a building ("No", "No (!)"), nor artillery ("No*"): beside the
    Farmhouse, none of their destinations has one of their models in it."""
    game = new_game(ruleset, MEETING)
    movers = [u for u in game.units if u.side == 0 and (u.vehicle or u.kind == "artillery")]
    only(game, *(u.uid for u in movers))
    farmhouse = feature(game, "Farmhouse")
    assert movers
    for unit in movers:
        place(unit, 20, 23.5, heading=90)
        for run in (False, True):
            ends = destinations(game, unit, run=run)
            assert not any(any_inside(unit, p, farmhouse) for p in ends), (unit.name, run)
        place(unit, 60, 5)  # (out of the next one's way)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_tank_may_advance_into_a_wood_it_may_not_run_through(ruleset: str) -> None:
    """A tracked vehicle's column reads "No Run" for rough ground: beside the wood it is
    offered an Advance into it (a turn toward it), no Run into it."""
    game = new_game(ruleset, MEETING)
    tank = next(u for u in game.units if u.side == 0 and u.vehicle and u.vehicle.kind == "tracked")
    only(game, tank.uid)
    wood = feature(game, "Bois de la Croix")
    place(tank, 20.5, 33, heading=180)
    assert any(wholly_inside(tank, p, wood) for p in destinations(game, tank, run=False))
    assert not any(any_inside(tank, p, wood) for p in destinations(game, tank, run=True))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_unit_in_a_building_sees_out_is_seen_and_has_its_hard_cover(ruleset: str) -> None:
    """A squad inside the Farmhouse and an enemy squad in the open to its east see each
    other, and the squad in the building has hard cover from it; a squad behind the
    Farmhouse (west of it, outside) is hidden from the enemy by the building, but the
    squad inside sees it."""
    game = new_game(ruleset, MEETING)
    inside, behind, enemy = squad(game, 0), game.units[2], squad(game, 1)
    only(game, inside.uid, behind.uid, enemy.uid)
    place(inside, 27.5, 23.5)
    place(behind, 20, 23.5)
    place(enemy, 33, 10)
    farmhouse = feature(game, "Farmhouse")
    assert all(farmhouse in game.table.features_at(m.point) for m in inside.alive_models)
    assert game.visible(inside, enemy) and game.visible(enemy, inside)
    assert unit_cover(game.rules, game.table, enemy.anchor, inside) == "hard"
    place(enemy, 40, 22)  # due east: the building stands between it and the one behind
    assert not game.visible(enemy, behind) and not game.visible(behind, enemy)
    assert game.visible(inside, behind) and game.visible(inside, enemy)
    assert game.can_shoot(enemy, inside, moving=False)


@pytest.mark.parametrize(
    "outline",
    [
        ((24, 20), (31, 20), (31, 27), (24, 27)),  # the Farmhouse
        ((4, 28), (12, 25), (18, 30), (16, 38), (7, 39), (3, 34)),  # the Bois de la Croix
        ((30, 10), (44, 10), (44, 14), (34, 14), (34, 24), (30, 24)),  # an L-shaped block
    ],
)
def test_the_way_in_is_the_nearest_place_with_every_model_inside(
    outline: tuple[tuple[float, float], ...],
) -> None:
    """From places all round a feature, the way in a squad is offered puts every man 0.1"
    inside it, and no nearer place does (shapely's nearest point of the places the squad's
    centre may take, found independently: a plain reference)."""
    game = new_game("konflikt47", MEETING)
    ours = squad(game)
    area = TerrainFeature("block", "building", "hard", outline, True)
    offsets = tuple(
        c for m in ours.alive_models for c in (m.x - ours.anchor.x, m.y - ours.anchor.y)
    )
    inset = shapely.Polygon(outline).buffer(-WAY_IN_MARGIN, join_style="mitre")
    places = shapely.intersection_all(
        [
            shapely.Polygon(
                [(x - offsets[i], y - offsets[i + 1]) for x, y in inset.exterior.coords]
            )
            for i in range(0, len(offsets), 2)
        ]
    )
    assert not places.is_empty
    for x in range(0, 50, 3):
        for y in range(5, 45, 3):
            start = Point(x + 0.3, y + 0.7)
            way_in = _entry(area, offsets, start)
            nearest = shapely.shortest_line(places, shapely.Point(start.x, start.y))
            assert start.distance_to(way_in) == pytest.approx(nearest.length, abs=1e-9)
            inside = shapely.Polygon(outline).buffer(-WAY_IN_MARGIN + 1e-6)
            assert all(
                inside.covers(shapely.Point(way_in.x + offsets[i], way_in.y + offsets[i + 1]))
                for i in range(0, len(offsets), 2)
            )


def test_a_building_whose_inside_splits_in_two_still_shows_its_way_in() -> None:
    """A U-shaped block's two wings leave the squad's centre two places to stand, not one:
    the way in was lost (the squad's own place was taken for it, in the notch), and with
    it the way into every other building."""
    from kriegsspiel.core.table import Table
    from kriegsspiel.rulesets.bolt_action.game.candidates import _way_in

    game = new_game("konflikt47", 1)
    ours = squad(game)
    only(game, ours.uid)
    u_block = ((30, 10), (50, 10), (50, 30), (44, 30), (44, 10.8), (36, 10.8), (36, 30), (30, 30))
    game.table = Table(72, 48, [TerrainFeature("U block", "building", "hard", u_block, True)])
    place(ours, 40, 25)
    offsets = tuple(c for m in ours.alive_models for c in (m.x - 40, m.y - 25))
    way_in = _entry(game.table.features[0], offsets, ours.anchor)
    assert way_in != ours.anchor and wholly_inside(ours, way_in, game.table.features[0])
    assert _way_in(game, ours, run=True) == way_in
    assert any(
        wholly_inside(ours, p, game.table.features[0]) for p in destinations(game, ours, run=True)
    )
