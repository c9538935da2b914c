"""Terrain on a move is checked for every model of the unit, not its centre alone: each
live model moves in a straight line with the unit, and its path and its end are checked
against the terrain table as the centre's are. Docs: docs/rules, 'Moving a unit'."""

from __future__ import annotations

import pytest
import shapely
from test_game_rules import new_game, only, place

from kriegsspiel.core.table import Point, Table, TerrainFeature, rectangle
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.candidates import destinations
from kriegsspiel.rulesets.bolt_action.game.close_quarters import can_close
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.table_rules import (
    IMPASSABLE,
    check_move,
    terrain_column,
    terrain_row,
)
from kriegsspiel.rulesets.bolt_action.game.units import UnitState

RULESETS = ("konflikt47", "bolt-action-1")


def wall(x0: float, x1: float, y: float = 28, name: str = "wall") -> TerrainFeature:
    """A low wall (an obstacle: No for artillery, No Run for infantry) along y from x0 to x1."""
    return TerrainFeature(name, "obstacle", "hard", rectangle(x0, y, x1, y + 0.5), False)


def gun(game: BoltActionGame) -> UnitState:
    """Side 0's artillery piece (its gun and crew stand in a row across the table)."""
    return next(u for u in game.units if u.side == 0 and u.kind == "artillery")


def squad(game: BoltActionGame, side: int = 0) -> UnitState:
    return next(
        u for u in game.units if u.side == side and u.kind == "infantry" and len(u.models) >= 8
    )


def left_edge(unit: UnitState) -> float:
    return min(m.x for m in unit.alive_models)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_gun_may_not_take_a_crewman_over_the_end_of_a_wall(ruleset: str) -> None:
    """Golden: a gun's centre passes just beyond the end of a wall, its left-hand crewman
    crosses it; artillery may not cross an obstacle ("No"), so the move is refused with the
    wall named. With the wall's end beyond every model's path it goes."""
    game = new_game(ruleset)
    artillery = gun(game)
    place(artillery, 36, 24)
    game.table = Table(72, 48, features=(wall(0, 35.5),))
    refused = check_move(game.rules, game.table, artillery, Point(36, 30), run=False)
    assert left_edge(artillery) < 35.5
    assert not refused.allowed and refused.reason == "wall (obstacle) is impassable"
    game.table = Table(72, 48, features=(wall(0, left_edge(artillery) - 0.1),))
    assert check_move(game.rules, game.table, artillery, Point(36, 30), run=False).allowed


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_gun_may_not_stop_with_a_crewman_in_a_wood(ruleset: str) -> None:
    """The gun's centre stops beside a wood; a crewman would stand in it. Artillery may not
    enter rough ground ("No*"): refused. The same move short of the wood goes."""
    game = new_game(ruleset)
    artillery = gun(game)
    place(artillery, 36, 21)
    wood = TerrainFeature("copse", "wood", "soft", rectangle(20, 25, 35.2, 35), True)
    game.table = Table(72, 48, features=(wood,))
    refused = check_move(game.rules, game.table, artillery, Point(36, 26), run=False)
    assert not refused.allowed and refused.reason == "copse (wood) is impassable"
    assert check_move(game.rules, game.table, artillery, Point(36, 24.5), run=False).allowed
    assert check_move(game.rules, game.table, artillery, Point(37.5, 26), run=False).allowed


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_squad_may_not_run_a_man_over_a_wall_its_centre_misses(ruleset: str) -> None:
    """A squad 4" wide runs past the end of a wall its centre misses and its flank crosses:
    not as a Run ("No Run"), as an Advance it may."""
    game = new_game(ruleset)
    infantry = squad(game)
    place(infantry, 36, 22)
    game.table = Table(72, 48, features=(wall(0, 35),))
    run = check_move(game.rules, game.table, infantry, Point(36, 32), run=True)
    assert not run.allowed and run.reason == "cannot Run through wall (obstacle)"
    assert check_move(game.rules, game.table, infantry, Point(36, 28), run=False).allowed
    game.table = Table(72, 48, features=(wall(0, left_edge(infantry) - 0.1),))
    assert check_move(game.rules, game.table, infantry, Point(36, 32), run=True).allowed


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_assault_through_a_gap_narrower_than_the_squad_is_refused(ruleset: str) -> None:
    """An assault is a Run for every assaulter: a gap in a wall wide enough for the centre
    but not for the squad's 4" front is no way in (a gap wider than the front is: see
    test_assault_terrain)."""
    game = new_game(ruleset)
    ours, theirs = squad(game, 0), squad(game, 1)
    only(game, ours.uid, theirs.uid)
    game.table = Table(72, 48, features=(wall(0, 35, name="west wall"), wall(37, 72)))
    place(ours, 36, 20, 0)
    place(theirs, 36, 36, 180)
    place(ours, 36, 20 + game.gap(ours, theirs) - 11)
    game.apply_action(Action("draw", side=0))
    check = can_close(game, ours, theirs)
    assert not check.allowed and check.reason == "cannot Run through west wall (obstacle)"
    assault = Action("order", unit=ours.uid, order="Run", target=theirs.uid)
    assert not game.is_legal(assault)
    assert not any(a.order == "Run" and a.target == theirs.uid for a in game.legal_actions())


def _forbidden(game: BoltActionGame, unit: UnitState, to: Point, run: bool) -> list[str]:
    """The features a model of ``unit`` would cross or end in, moving with its centre to
    ``to``, that the terrain table forbids it (measured by shapely: a plain reference)."""
    column = terrain_column(unit)
    start = unit.anchor
    dx, dy = to.x - start.x, to.y - start.y
    found = []
    for feature in game.table.features:
        cell = getattr(terrain_row(game.rules, feature.category), column) or "OK"
        if cell not in IMPASSABLE and not (run and cell == "No Run"):
            continue
        area = shapely.Polygon(feature.polygon)
        for m in unit.alive_models:
            end = shapely.Point(m.x + dx, m.y + dy)
            path = shapely.LineString([(m.x, m.y), (m.x + dx, m.y + dy)])
            if area.covers(end) or ((dx or dy) and path.relate_pattern(area, "T********")):
                found.append(feature.name)
                break
    return found


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("scenario", [0, 1])
def test_no_candidate_move_takes_a_model_where_the_terrain_table_forbids(
    ruleset: str, scenario: int
) -> None:
    """Every unit, set down in turn on a grid of places across the table (in the open),
    is offered no Advance or Run that takes any of its models over or into terrain the
    terrain table forbids it, as measured by shapely model by model."""
    game = new_game(ruleset, scenario)
    for unit in game.units:
        if unit.side != 0:
            continue
        for x in range(6, 70, 8):
            for y in range(6, 44, 6):
                place(unit, x, y)
                if any(game.table.features_at(m.point) for m in unit.alive_models):
                    continue
                for run in (False, True):
                    for p in destinations(game, unit, run=run):
                        assert _forbidden(game, unit, p, run) == [], (unit.name, x, y, p, run)
