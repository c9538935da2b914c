"""Setting up: each side's units placed in its own deployment zones before the first turn.

A side's units are shared among its zones in list order, in proportion to each zone's area,
and spread along the zone from one end to the other, each facing the middle of the table.
A unit stands where all its models are inside the zone, on open ground (a vehicle clear of
buildings, obstacles and anything that blocks sight; men clear of buildings) and at least
``UNIT_GAP`` from every model already set up; where its first place fails, the nearest that
passes is taken. A zone with no such place left is refused, naming the unit.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

# numpy imported before shapely, whose C extension, importing numpy itself, would print the
# traceback of a Ctrl-C meanwhile and raise an ImportError in its place
import numpy  # noqa: F401
import shapely

from kriegsspiel.core.table import Point
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action.game.spacing import UNIT_GAP
from kriegsspiel.rulesets.bolt_action.game.table_rules import heading_to, terrain_row
from kriegsspiel.rulesets.bolt_action.game.units import UnitState, formation

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame

STEP = 1.0  # inches between the places tried when a unit's first place will not do
EDGE = 1e-6  # inches: a model on a zone's very edge is in it


def deploy(game: BoltActionGame) -> None:
    """Place every unit of both sides (see the module's description)."""
    names = game.scenario.sides()  # side 0 takes the sides' first zone listed
    placed: list[tuple[float, float]] = []
    for side in (0, 1):
        mine = [
            (i, shapely.Polygon(z.polygon))
            for i, z in enumerate(game.scenario.deployment)
            if names.index(z.side) == side
        ]
        units = [u for u in game.units if u.side == side]
        shares = _shares(units, [zone.area for _, zone in mine])
        for (index, zone), share in zip(mine, shares, strict=True):
            try:
                _deploy_in(game, zone, share, placed, names[side])
            except ZoneFullError as exc:
                raise ZoneFullError(str(exc), index) from None


class ZoneFullError(UsageError):
    """A deployment zone has no room for a unit; ``zone`` is its place in the scenario's
    ``deployment`` list, so the caller can name its line in the scenario file."""

    def __init__(self, message: str, zone: int | None = None) -> None:
        super().__init__(message)
        self.zone = zone


def _shares(units: list[UnitState], areas: Sequence[float]) -> list[list[UnitState]]:
    """The units, in order, cut into one run per zone in proportion to the zones' areas."""
    total, runs, start, covered = sum(areas), [], 0, 0.0
    for area in areas:
        covered += area
        end = round(len(units) * covered / total) if total else len(units)
        runs.append(units[start:end])
        start = end
    return runs


def _deploy_in(
    game: BoltActionGame,
    zone: shapely.Polygon,
    units: list[UnitState],
    placed: list[tuple[float, float]],
    side: str,
) -> None:
    min_x, min_y, max_x, max_y = zone.bounds
    ys = zone.exterior.coords.xy[1]
    middle = sum(ys[:-1]) / (len(ys) - 1)  # (the ring repeats its first corner)
    centre_y = game.table.height / 2
    inside = zone.buffer(EDGE, join_style="mitre")
    shapely.prepare(inside)
    for i, unit in enumerate(units):
        wanted = Point(min_x + (max_x - min_x) * (i + 0.5) / len(units), middle)
        for spot in _places_near(wanted, min_x, min_y, max_x, max_y):
            heading = heading_to(spot, Point(spot.x, centre_y))
            models = [spot] if unit.vehicle else formation(len(unit.models), spot, heading)
            if _fits(game, unit, inside, models, placed):
                break
        else:
            raise ZoneFullError(
                f"scenario {game.scenario.name!r}: the deployment zone of side {side!r} has no room "
                f"for {unit.name} ({len(unit.models)} model{'s' * (len(unit.models) > 1)}) "
                f'inside it, clear of buildings and {UNIT_GAP:g}" from the units already '
                "set up; make the zone larger, or field fewer units in it."
            )
        unit.heading = heading
        for m, p in zip(unit.models, models, strict=True):
            m.x, m.y = p.x, p.y
        placed += [(p.x, p.y) for p in models]


def _places_near(
    wanted: Point, min_x: float, min_y: float, max_x: float, max_y: float
) -> Iterator[Point]:
    """``wanted``, then the points of a grid over the zone's bounds, nearest first."""
    yield wanted
    grid = [
        Point(min_x + STEP * i, min_y + STEP * j)
        for i in range(int((max_x - min_x) / STEP) + 1)
        for j in range(int((max_y - min_y) / STEP) + 1)
    ]
    grid.sort(key=lambda p: (math.dist((p.x, p.y), (wanted.x, wanted.y)), p.x, p.y))
    yield from grid


def _fits(
    game: BoltActionGame,
    unit: UnitState,
    zone: shapely.Polygon,
    models: list[Point],
    placed: list[tuple[float, float]],
) -> bool:
    xs, ys = [p.x for p in models], [p.y for p in models]
    if not shapely.contains_xy(zone, xs, ys).all() or not all(map(game.table.contains, models)):
        return False
    for p in models:
        for feature in game.table.features_at(p):
            # the terrain table's row, as moves read it ("Building", "wall": a building, an obstacle)
            category = terrain_row(game.rules, feature.category).category
            if category == "building" or (
                unit.vehicle and (feature.blocks_line_of_sight or category == "obstacle")
            ):
                return False
    return all(math.dist((p.x, p.y), q) >= UNIT_GAP for p in models for q in placed)
