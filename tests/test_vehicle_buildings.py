"""A vehicle's hull stays out of buildings (and any ground it may never enter): its centre
ends a move half a 3" hull from one, as from the table's edge, and no move offered ends
nearer (docs/rules/konflikt47.md and bolt-action-1.md: "A vehicle's hull on the table")."""

from __future__ import annotations

import re

import pytest
import shapely
from test_game_rules import place
from test_spacing import _state, _tanks

from kriegsspiel.core.game import IllegalActionError
from kriegsspiel.core.table import Table, TerrainFeature, rectangle
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.candidates import order_candidates
from kriegsspiel.rulesets.bolt_action.game.spacing import HULL
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame

INTO = re.escape("its hull would reach into Barn (building), where a vehicle may not go")
BARN = TerrainFeature("Barn", "building", "hard", rectangle(57, 14, 63, 30), True)


def _beside_the_barn(ruleset: str) -> tuple[BoltActionGame, int]:
    """Side 0's first vehicle (a Universal Carrier; a walker in Konflikt '47) at (56, 10)
    facing up the table, the Barn ahead and to its right: 1" right of its straight path."""
    game, mine, _ = _tanks(ruleset)
    game.table = Table(72, 48, features=(BARN,))
    return game, mine


def _gap(to: tuple[float, float]) -> float:
    return float(shapely.Polygon(BARN.polygon).distance(shapely.Point(*to)))


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_a_vehicles_hull_stays_out_of_a_building(ruleset: str) -> None:
    """A move ending with the vehicle's centre 1" from the Barn (its hull half inside) is
    refused, saying so, and changes nothing; one ending 1.5" off it is allowed."""
    game, mine = _beside_the_barn(ruleset)
    before = _state(game)
    for to in ((56.0, 15.0), (56.0, 13.0)):  # beside it; off its corner, 1.4" away
        with pytest.raises(IllegalActionError, match=INTO):
            game.apply_action(Action("order", unit=mine, order="Advance", to=to))
        assert _state(game) == before
    game.apply_action(Action("order", unit=mine, order="Advance", to=(55.5, 15.0)))
    assert game.units[mine].anchor.x == 55.5 == 57 - HULL


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_a_vehicle_nearer_a_building_may_keep_its_distance_or_draw_away(ruleset: str) -> None:
    """A vehicle standing with its hull in a building (set up so, or an older record's move
    left it so) may turn where it stands, drive along it or away, not nearer."""
    game, mine = _beside_the_barn(ruleset)
    place(game.units[mine], 56, 16, 0)
    twin = game.clone()
    with pytest.raises(IllegalActionError, match=INTO):
        twin.apply_action(Action("order", unit=mine, order="Advance", to=(56.5, 18.0)))
    twin.apply_action(Action("order", unit=mine, order="Advance", to=(56.0, 16.0), facing=20))
    assert twin.units[mine].heading == 20
    game.apply_action(Action("order", unit=mine, order="Advance", to=(56.0, 20.0)))
    assert game.units[mine].anchor.y == 20.0


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_no_vehicle_is_offered_a_move_with_its_hull_in_a_building(ruleset: str) -> None:
    """The places offered a vehicle whose way straight on runs 1" past the Barn (the solo
    probe's carrier was offered a place 1.4" inside one) all keep its hull out of it, and
    each is legal."""
    game, mine = _beside_the_barn(ruleset)
    offered = order_candidates(game, game.units[mine])
    moves = [a for a in offered if a.to is not None and a.to != (56, 10)]
    assert moves and all(_gap(a.to) >= HULL - 1e-9 for a in moves if a.to is not None)
    for action in moves:
        game.validate(action)
