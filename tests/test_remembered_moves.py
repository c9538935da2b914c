"""The move orders' steps and destinations remembered on the table give the ones found
afresh. Listing a unit's orders is asked at every decision, so the steps toward ground
(:func:`_steps_to_ground`) and the destinations they lead to (:func:`_remembered`) are kept
by what they depend on: the edition, the order, the unit's side, kind, heading and the
places of its models, the objective, and the units near enough to keep clear of. All
through real games, and for a unit turned, crossing sides, moved a little, re-formed about
the same centre or heading for another objective, the remembered answer must be the plain
one worked out with nothing remembered."""

from __future__ import annotations

import dataclasses
import math

import pytest
from test_moves_fast import positions

from kriegsspiel.core.table import Point
from kriegsspiel.rulesets.bolt_action.game.candidates import (
    _destinations,
    _goals,
    _longest,
    _remembered,
    _shelters,
    _steps_to_ground,
)
from kriegsspiel.rulesets.bolt_action.game.spacing import within_reach
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.units import UnitState


def fresh_steps(
    game: BoltActionGame, unit: UnitState, run: bool, objective: Point | None
) -> list[tuple[float, float]]:
    """_steps_to_ground with nothing remembered."""
    game.table.memo("steps to ground").clear()
    return _steps_to_ground(game, unit, run, objective)


@pytest.mark.parametrize(
    ("ruleset", "seed", "kind"),
    [("konflikt47", 1, "random"), ("bolt-action-1", 2, "tactical")],
)
def test_remembered_steps_and_destinations_are_those_found_afresh(
    ruleset: str, seed: int, kind: str
) -> None:
    for game in positions(ruleset, seed, kind, every=2):
        for unit in game.units:
            if unit.destroyed or unit.immobilised:
                continue
            goals = _goals(game, unit)
            # (as order_candidates asks: among the units near enough for the longer move)
            near = within_reach(game.units, unit, _longest(game, unit, True) + 3.0)
            for run in (False, True):
                remembered = _steps_to_ground(game, unit, run, goals[1])
                assert remembered == fresh_steps(game, unit, run, goals[1])
                fresh = _destinations(game, unit, run, *goals)
                assert _remembered(game, unit, run, *goals, near=near) == fresh
                assert _remembered(game, unit, run, *goals) == fresh


def mirror(unit: UnitState) -> None:
    """Mirror the unit's models left to right about its centre."""
    centre = unit.anchor.x
    for m in unit.models:
        m.x = 2 * centre - m.x


def test_steps_to_ground_follow_each_thing_they_are_remembered_by() -> None:
    """A unit turned, on the other side, moved a little or toward another objective is
    not given the steps remembered from before."""
    game = next(positions("konflikt47", 0, "random", every=2))
    vehicle = next(u for u in game.units if u.vehicle is not None and not u.destroyed)
    troops = next(u for u in game.units if u.vehicle is None and not u.destroyed)
    objective = Point(10.0, 20.0)
    for unit in (vehicle, troops):
        for run in (False, True):
            before = _steps_to_ground(game, unit, run, objective)
            for change in (
                lambda u: setattr(u, "heading", (u.heading + 90) % 360),
                lambda u: setattr(u, "side", 1 - u.side),
                lambda u: u.translate(0.5, -0.25),
                mirror,  # (another formation about the centre; the exact centre: below)
            ):
                change(unit)
                assert _steps_to_ground(game, unit, run, objective) == fresh_steps(
                    game, unit, run, objective
                )
            elsewhere = dataclasses.replace(objective, x=50.0)
            assert _steps_to_ground(game, unit, run, elsewhere) == fresh_steps(
                game, unit, run, elsewhere
            )
            assert before  # (there were steps to compare)
    # a vehicle's steps straight on do change with its heading
    heading = vehicle.heading
    ahead = _steps_to_ground(game, vehicle, False, None)
    vehicle.heading = (heading + 90) % 360
    assert _steps_to_ground(game, vehicle, False, None) != ahead


def test_a_formation_that_gets_into_a_building_otherwise_is_given_its_own_steps() -> None:
    """The way into a building or wood depends on where every model stands, not only on
    the centre: the very same centre with the models mirrored needs another place to stand
    wholly inside, so its steps are not the ones remembered for the first formation."""
    game = next(positions("konflikt47", 0, "random", every=2))
    # eight models on whole and half inches: their centre, mirrored or not, is exact
    unit = next(u for u in game.units if u.vehicle is None and len(u.models) == 8)
    found = 0
    for _j, _feature, (x0, y0, _x1, y1) in _shelters(game.table):
        # a step outside the feature's left side, in a row with one model above its right
        # end (not symmetric about the centre, so the mirror is another formation)
        cx, cy = float(math.floor(x0) - 2), float(round((y0 + y1) / 2))
        for i, model in enumerate(unit.models):
            model.x, model.y = cx - 3.0 + i, cy
        unit.models[-1].x, unit.models[-1].y = unit.models[-2].x, cy + 1.5
        centre = unit.anchor
        for run in (False, True):
            first = fresh_steps(game, unit, run, None)
            mirror(unit)
            assert unit.anchor == centre  # (only the formation differs)
            remembered = _steps_to_ground(game, unit, run, None)
            afresh = fresh_steps(game, unit, run, None)
            mirror(unit)
            if afresh != first:  # (the formation matters here: the memory must see it)
                found += 1
                assert remembered == afresh
    assert found  # (some wood's or building's way in depends on the formation)
