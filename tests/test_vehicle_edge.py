"""A vehicle's hull stays on the table: its centre keeps half a 3" hull in from the edge on
a move, in the places offered and at set-up (docs/rules/konflikt47.md and
bolt-action-1.md: "A vehicle's hull on the table")."""

from __future__ import annotations

import pytest
from test_game_rules import place
from test_set_up_by_hand import farm_game, refused
from test_spacing import _state, _tanks

from kriegsspiel.core.game import IllegalActionError
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.candidates import order_candidates
from kriegsspiel.rulesets.bolt_action.game.deployment import Placement
from kriegsspiel.rulesets.bolt_action.game.spacing import HULL
from kriegsspiel.rulesets.bolt_action.game.table_rules import hull_room

OFF = "its hull would hang off the table"


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_a_vehicles_hull_stays_on_the_table(ruleset: str) -> None:
    """A vehicle's move ending with its centre nearer an edge than half its hull (1.5") is
    refused, saying so, and changes nothing; one ending 1.5" in is allowed. Troops' models
    may still stand on the edge itself."""
    game, mine, _ = _tanks(ruleset)
    place(game.units[mine], 56, 5, 0)
    before = _state(game)
    for to in ((56.0, 1.0), (70.6, 5.0)):  # in reverse to the near edge; to the side
        with pytest.raises(IllegalActionError, match=OFF):
            game.apply_action(Action("order", unit=mine, order="Advance", to=to, choice="reverse"))
        assert _state(game) == before
    assert hull_room(game.table, game.units[mine]) == (HULL, HULL, 72 - HULL, 48 - HULL)
    game.apply_action(Action("order", unit=mine, order="Advance", to=(56.0, 1.5), choice="reverse"))
    assert game.units[mine].anchor.y == 1.5
    assert hull_room(game.table, game.units[1]) == (0.0, 0.0, 72, 48)  # (troops: the table)


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_a_vehicle_nearer_the_edge_may_keep_its_distance_or_draw_away(ruleset: str) -> None:
    """A vehicle standing nearer an edge than its hull (an older record's move left it so)
    may drive along it or away from it, not nearer."""
    game, mine, _ = _tanks(ruleset)
    place(game.units[mine], 56, 0.5, 90)
    assert hull_room(game.table, game.units[mine])[1] == 0.5
    twin = game.clone()
    with pytest.raises(IllegalActionError, match=OFF):
        twin.apply_action(Action("order", unit=mine, order="Advance", to=(58.0, 0.2)))
    twin.apply_action(Action("order", unit=mine, order="Advance", to=(60.0, 0.5)))
    game.apply_action(Action("order", unit=mine, order="Advance", to=(58.0, 2.0)))
    assert game.units[mine].anchor.y == 2.0


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_no_vehicle_is_offered_a_move_with_its_hull_off_the_table(ruleset: str) -> None:
    """The places offered a vehicle near its own edge (the solo probe's carrier was offered
    (49.1, 0.0) in reverse) are clamped to 1.5" in, not to the edge: the move to its home
    edge ends there, and no move offered ends nearer."""
    game, mine, _ = _tanks(ruleset)
    place(game.units[mine], 56, 3, 0)
    offered = order_candidates(game, game.units[mine])
    moves = [a.to for a in offered if a.to is not None and a.to != (56, 3)]
    assert moves and all(
        HULL - 1e-9 <= x <= 72 - HULL + 1e-9 and HULL - 1e-9 <= y <= 48 - HULL + 1e-9
        for x, y in moves
    )
    home = [a for a in offered if a.to == (56.0, HULL)]
    assert home  # (a carrier backs there, a walker turns and walks)
    for action in home:
        twin = game.clone()
        twin.apply_action(action)  # (each offered is legal)
        moved = next(e.data for e in twin.events if e.kind == "move")
        assert (moved["unit"], moved["to"]) == (mine, [56.0, HULL])


def test_a_vehicle_is_not_set_up_with_its_hull_off_the_table() -> None:
    """Set-up by hand refuses a vehicle's centre nearer the table's edge than half its hull
    (its zone runs to the edge), naming why, and names the nearest place that will do;
    troops may stand at the edge. The automatic set-up keeps every vehicle so."""
    tank = 8  # the Panzer IV
    exc = refused({0: [Placement(tank, (66.0, 1.0))]})
    assert str(exc).startswith(f"Panzer IV Ausf. H: {OFF}")
    assert exc.nearest is not None and exc.nearest.y >= HULL
    game = farm_game({0: [Placement(tank, (exc.nearest.x, exc.nearest.y))]})
    assert game.units[tank].anchor == exc.nearest
    farm_game({0: [Placement(1, (40.0, 1.0))]})  # a squad's front rank on the edge
    for unit in farm_game().units:
        if unit.vehicle is not None:
            x, y = unit.anchor.x, unit.anchor.y
            assert min(x, y, 72 - x, 48 - y) >= HULL


def test_a_vehicles_whole_hull_is_set_up_inside_its_zone() -> None:
    """The solo probe's carrier was set up with its centre 0.1" inside the zone (y 0-12),
    its hull reaching 1.4" out of it, where troops may not stand 0.4" out. Set-up by hand
    now refuses a vehicle's centre nearer the zone's edge than half its hull, naming the
    hull, with the nearest place that will do; 1.5" in is taken. The automatic set-up keeps
    every vehicle's hull in its zone."""
    tank = 8  # the Panzer IV
    exc = refused({0: [Placement(tank, (56.0, 11.9))]})
    assert str(exc).startswith("Panzer IV Ausf. H would not stand wholly inside")
    assert 'its hull reaches 1.5" round its centre' in str(exc)
    assert exc.nearest is not None and exc.nearest.y <= 12 - HULL
    game = farm_game({0: [Placement(tank, (56.0, 12 - HULL))]})
    assert game.units[tank].anchor.y == 12 - HULL
    farm_game({0: [Placement(1, (40.0, 11.0))]})  # a squad's back rank on the zone's edge
    for unit in farm_game().units:
        if unit.vehicle is not None:
            y = unit.anchor.y
            assert HULL <= y <= 12 - HULL or 36 + HULL <= y <= 48 - HULL, unit.name


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_a_vehicle_fleeing_toward_the_edge_stops_with_its_hull_on_the_table(ruleset: str) -> None:
    """A flight from a threat (a recce vehicle's escape, a FUBAR panic) toward the table's
    edge stops 1.5" in, where before it stopped on the edge itself."""
    game, mine, _ = _tanks(ruleset)
    place(game.units[mine], 56, 5, 0)
    way = game.flight(game.units[mine], 0.0)  # the threat straight ahead: it backs off
    assert way is not None and way[0].y == HULL and way[2].allowed
