"""A vehicle's hull stays out of buildings (and any ground it may never enter): its centre
ends a move half a 3" hull from one, as from the table's edge, and no move offered ends
nearer (docs/rules/konflikt47.md and bolt-action-1.md: "A vehicle's hull on the table")."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
import shapely
from conftest import run_cli
from test_game_rules import place
from test_set_up_by_hand import FARM, farm_game
from test_spacing import _state, _tanks

from kriegsspiel.core.game import IllegalActionError
from kriegsspiel.core.records import FORMAT
from kriegsspiel.core.scenario import parse_scenario
from kriegsspiel.core.table import Table, TerrainFeature, rectangle
from kriegsspiel.errors import DataFileError
from kriegsspiel.rulesets.bolt_action.army import load_army, sample_armies
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.candidates import order_candidates
from kriegsspiel.rulesets.bolt_action.game.close_quarters import escape
from kriegsspiel.rulesets.bolt_action.game.deployment import Placement, PlacementRefused
from kriegsspiel.rulesets.bolt_action.game.fubar import panic
from kriegsspiel.rulesets.bolt_action.game.record import header, new_game
from kriegsspiel.rulesets.bolt_action.game.spacing import HULL
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.table_rules import movement_row

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
    refused, saying so, and changes nothing; one whose centre passes and ends 1.5" off it
    is allowed."""
    game, mine = _beside_the_barn(ruleset)
    before = _state(game)
    for to in ((56.0, 15.0), (56.0, 13.0)):  # beside it; off its corner, 1.4" away
        with pytest.raises(IllegalActionError, match=INTO):
            game.apply_action(Action("order", unit=mine, order="Advance", to=to))
        assert _state(game) == before
    place(game.units[mine], 55.5, 10, 0)  # (from (56, 10) its way would pass the corner 1.1" off)
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


# ------------------------------------------------- the same rule on the way, at set-up, fleeing
def _houses(*xs: tuple[float, float], y0: float = 14, y1: float = 18) -> Table:
    """A table with a house between each pair of x (14" to 18" up the table, unless told)."""
    return Table(
        72,
        48,
        features=tuple(
            TerrainFeature(f"House {i}", "building", "hard", rectangle(a, y0, b, y1), True)
            for i, (a, b) in enumerate(xs, 1)
        ),
    )


def _path_gap(table: Table, a: tuple[float, float], b: tuple[float, float]) -> float:
    """How near the straight way from ``a`` to ``b`` comes to any of the table's features."""
    way = shapely.LineString([a, b]) if a != b else shapely.Point(*a)
    return min(float(shapely.Polygon(f.polygon).distance(way)) for f in table.features)


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_a_vehicle_does_not_squeeze_through_a_gap_narrower_than_its_hull(ruleset: str) -> None:
    """Two houses 2" apart straight ahead: a Run whose centre passes between them (1" from
    each) and ends well past them is refused, saying so, and changes nothing (before, only
    the centre's line was checked, and it went through); through a gap 3.2" wide (1.6"
    each side) it goes. No move offered squeezes through."""
    game, mine = _beside_the_barn(ruleset)
    game.table = _houses((50, 55), (57, 62))
    before = _state(game)
    with pytest.raises(IllegalActionError, match=re.escape("its hull would scrape House 1")):
        game.apply_action(Action("order", unit=mine, order="Run", to=(56.0, 26.0)))
    assert _state(game) == before
    offered = order_candidates(game, game.units[mine])
    moves = [a.to for a in offered if a.to is not None and a.to != (56, 10)]
    assert moves and all(_path_gap(game.table, (56, 10), to) >= HULL - 1e-9 for to in moves)
    game.table = _houses((50, 54.4), (57.6, 62))
    game.apply_action(Action("order", unit=mine, order="Run", to=(56.0, 26.0)))
    assert game.units[mine].anchor.y == 26.0


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
@pytest.mark.parametrize("how", ["escape", "panic"])
def test_a_vehicle_fleeing_past_buildings_keeps_its_hull_out_of_them(
    ruleset: str, how: str
) -> None:
    """A vehicle flees an enemy tank 10" behind it (a recce vehicle's escape, a FUBAR
    panic) toward two houses with a 2" gap: its whole Run would squeeze through. It stops
    where its hull would first touch a house, in the gap's mouth (its centre 1.5" from the
    corners at (55, 22) and (57, 22): y = 22 + sqrt(1.25)), found to within 1/64 of its
    Run as a move offered is cut short, its hull clear of both all the way (before the
    hull rule, it ran through the gap to (56, 12); before flights were cut short, it fell
    back to a quarter of its Run, (56, 25.5), 2.4" short of where it was blocked)."""
    game, mine, tank = _tanks(ruleset)
    game.table = _houses((50, 55), (57, 62), y0=18, y1=22)
    place(game.units[mine], 56, 30, 180)
    place(game.units[tank], 56, 40, 180)
    if how == "escape":
        assert escape(game, game.units[mine], game.units[tank])
    else:
        panic(game, game.units[mine])
        assert game.units[mine].order == "Run"
    at = game.units[mine].anchor
    blocked = 22 + math.sqrt(1.25)
    run = movement_row(game.rules, game.units[mine]).run
    assert at.x == 56 and blocked <= at.y <= blocked + run / 64
    assert _path_gap(game.table, (56, 30), (at.x, at.y)) >= HULL


def test_a_vehicle_is_not_set_up_with_its_hull_in_a_building() -> None:
    """Houses 4" wide with 2" gaps across side A's zone: the automatic set-up (the places
    offered a person too) stands no vehicle with its hull in one (before, the centre alone
    was kept out, and vehicles stood in the gaps), and a tank placed by hand in a gap is
    refused, saying why and the nearest place that would do, which is taken."""
    houses = "\n".join(
        f"  - {{name: House {k}, category: building, cover: hard, polygon: "
        f"[[{6 * k}, 4], [{6 * k + 4}, 4], [{6 * k + 4}, 8], [{6 * k}, 8]]}}"
        for k in range(12)
    )
    text = FARM.replace(
        "terrain:\n  - {name: Farmhouse, category: building, cover: hard, polygon: "
        "[[30, 2], [36, 2], [36, 8], [30, 8]]}",
        f"terrain:\n{houses}",
    )
    scenario = parse_scenario(text, "houses.yaml")
    armies = [load_army(p, "konflikt47") for p in sample_armies("konflikt47")[:2]]

    def houses_game(placements: dict[int, list[Placement]] | None = None) -> BoltActionGame:
        return BoltActionGame(
            "konflikt47", scenario, (armies[0], armies[1]), seed=1, placements=placements
        )

    game = houses_game()
    vehicles = [u for u in game.units if u.vehicle is not None and u.side == 0]
    assert vehicles
    for unit in vehicles:
        at = (unit.anchor.x, unit.anchor.y)
        assert _path_gap(game.table, at, at) >= HULL - 1e-9, unit.name
    tank = vehicles[0].uid
    with pytest.raises(PlacementRefused) as caught:
        houses_game({0: [Placement(tank, (5.0, 6.0))]})
    assert re.search(r": its hull would reach into House 0 \(building\)", str(caught.value))
    nearest = caught.value.nearest
    assert (
        nearest is not None
        and _path_gap(game.table, (nearest.x, nearest.y), (nearest.x, nearest.y)) >= HULL
    )
    placed = houses_game({0: [Placement(tank, (nearest.x, nearest.y))]})
    assert placed.units[tank].anchor == nearest


def test_a_record_placing_a_vehicle_with_its_hull_in_a_building_is_refused(
    tmp_path: Path,
) -> None:
    """A record's placements (the header's, written by ``kriegsspiel play``, or changed by
    hand) that stand the Panzer IV 1" beside the Farmhouse are refused naming the file,
    line 1 and the placement's field, why, and the nearest place that would do: exit 2."""
    texts = [Path(p).read_text() for p in sample_armies("konflikt47")[:2]]
    head = {"format": FORMAT, **header(farm_game(), FARM, (texts[0], texts[1]), ("tactical",) * 2)}
    head["placements"] = {"A": [{"unit": 1}, {"unit": 8, "at": [37.0, 5.0]}]}
    with pytest.raises(DataFileError) as caught:
        new_game(head, "changed.jsonl")
    told = str(caught.value)
    assert "changed.jsonl" in told and "line 1, field placements.A.1: Panzer IV" in told
    assert "its hull would reach into Farmhouse (building)" in told
    assert re.search(r"the nearest place that would do: at \[[\d.]+, [\d.]+\]", told)
    path = tmp_path / "changed.jsonl"
    path.write_text(json.dumps(head) + "\n")
    done = run_cli("replay", str(path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "field placements.A.1" in done.stderr and "Farmhouse" in done.stderr
