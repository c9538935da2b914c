"""Setting up: each side's units placed in its own deployment zones before the first turn.

A side's units are shared among its zones in list order, in proportion to each zone's area,
and spread along the zone from one end to the other, each facing the middle of the table.
A unit stands where all its models are inside the zone, on ground it may be set up on
(:func:`setup_refusal`: the terrain table as a move reads it, a gun dug in where "No*"
lets it; no one in a building; a vehicle clear of obstacles and of anything that blocks
sight) and at least ``UNIT_GAP`` from every model already set up; where its first place
fails, the nearest that passes is taken. A vehicle has no hull outline, but where the zone
has room it is set up as a move keeps it (:func:`spacing.apart`: ``UNIT_GAP`` and half a
vehicle's length more for each vehicle) from other units' models, and they from it; where
it has not, ``UNIT_GAP`` will do and the set-up is told as crowded (:func:`crowding`), not
refused. A zone with no place left is refused, naming the unit and what kept it out.

A game may instead set each side's units up in an order drawn from its seed
(``deployment="shuffled"``; the simulator's ``--deployment shuffled``), so that a unit's
place in its list does not decide where it stands, nor whom it faces: an order that leaves
a unit no room is drawn again, and after ``DRAWS`` such draws the list's order is taken.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

# numpy imported before shapely, whose C extension, importing numpy itself, would print the
# traceback of a Ctrl-C meanwhile and raise an ImportError in its place
import numpy  # noqa: F401
import shapely

from kriegsspiel.core.table import Point, TerrainFeature
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action.edition import Rules
from kriegsspiel.rulesets.bolt_action.game.set_up_order import SHUFFLED
from kriegsspiel.rulesets.bolt_action.game.spacing import UNIT_GAP, apart, hull
from kriegsspiel.rulesets.bolt_action.game.table_rules import (
    heading_to,
    terrain_column,
    terrain_refusal,
    terrain_row,
)
from kriegsspiel.rulesets.bolt_action.game.units import UnitState, formation

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame

STEP = 1.0  # inches between the places tried when a unit's first place will not do
EDGE = 1e-6  # inches: a model on a zone's very edge is in it
DRAWS = 20  # orders drawn for a shuffled set-up before the list's (which fits) is taken


def deploy(game: BoltActionGame) -> None:
    """Place every unit of both sides (see the module's description): in list order, or,
    for a shuffled deployment, in an order drawn from the game's seed (its own stream, so
    the dice are the same either way), drawn again while it leaves a unit no room."""
    if game.deployment == SHUFFLED:
        draw = random.Random(f"deployment {game.seed}")
        for _ in range(DRAWS):
            try:
                _deploy(game, draw)
            except ZoneFullError:
                continue
            return
    _deploy(game, None)


def _deploy(game: BoltActionGame, draw: random.Random | None) -> None:
    """Place every unit, each side's in list order or (``draw``) in an order drawn."""
    names = game.scenario.sides()  # side 0 takes the sides' first zone listed
    placed: list[tuple[float, float, float]] = []  # every model set up, and its unit's hull
    for side in (0, 1):
        mine = [
            (i, shapely.Polygon(z.polygon))
            for i, z in enumerate(game.scenario.deployment)
            if names.index(z.side) == side
        ]
        units = [u for u in game.units if u.side == side]
        if draw is not None:
            draw.shuffle(units)
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
    placed: list[tuple[float, float, float]],
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
        kept_out: dict[str, int] = {}  # why places were refused, and how often
        # first a place with room for vehicles' hulls, else the nearest kept UNIT_GAP apart
        for roomy in (True, False):
            for spot in _places_near(wanted, min_x, min_y, max_x, max_y):
                heading = heading_to(spot, Point(spot.x, centre_y))
                models = [spot] if unit.vehicle else formation(len(unit.models), spot, heading)
                why = _misfit(game, unit, inside, models, placed, roomy)
                if why is None:
                    break
                if not roomy:
                    kept_out[why] = kept_out.get(why, 0) + 1
            else:
                continue
            break
        else:
            raise ZoneFullError(
                f"scenario {game.scenario.name!r}: the deployment zone of side {side!r} has no room "
                f"for {unit.name} ({len(unit.models)} model{'s' * (len(unit.models) > 1)}) "
                f'inside it, on ground it may be set up on and {UNIT_GAP:g}" from the units '
                f"already set up ({_kept_out(kept_out)}); make the zone larger, or field fewer "
                "units in it."
            )
        unit.heading = heading
        for m, p in zip(unit.models, models, strict=True):
            m.x, m.y = p.x, p.y
        placed += [(p.x, p.y, hull(unit)) for p in models]


def _kept_out(kept_out: dict[str, int]) -> str:
    """What kept a unit out of the places tried, most often first (at most three)."""
    told = sorted(kept_out.items(), key=lambda item: -item[1])
    return "; ".join(f"{why}: {counted_places(n)}" for why, n in told[:3]) or "no place tried"


def counted_places(n: int) -> str:
    return f"{n} place{'s' * (n != 1)}"


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


def _misfit(
    game: BoltActionGame,
    unit: UnitState,
    zone: shapely.Polygon,
    models: list[Point],
    placed: list[tuple[float, float, float]],
    roomy: bool,
) -> str | None:
    """Why ``unit`` may not be set up with its models at ``models`` (None if it may), the
    models set up being ``placed`` (each with its unit's hull, :func:`spacing.hull`).
    ``roomy``: also if a vehicle's model would stand nearer another unit's model than a
    move keeps them (:func:`spacing.apart`), or a model so near a vehicle."""
    xs, ys = [p.x for p in models], [p.y for p in models]
    if not shapely.contains_xy(zone, xs, ys).all() or not all(map(game.table.contains, models)):
        return "outside the zone"
    for p in models:
        for feature in game.table.features_at(p):
            refusal = setup_refusal(game.rules, feature, unit)
            if refusal is not None:
                return refusal
    if any(math.dist((p.x, p.y), (x, y)) < UNIT_GAP for p in models for x, y, _ in placed):
        return f'within {UNIT_GAP:g}" of a unit already set up'
    if roomy:
        mine = UNIT_GAP + hull(unit)
        for p in models:
            for x, y, theirs in placed:
                if (mine > UNIT_GAP or theirs) and math.dist((p.x, p.y), (x, y)) < mine + theirs:
                    return "no room for a vehicle's hull"
    return None


def setup_refusal(rules: Rules, feature: TerrainFeature, unit: UnitState) -> str | None:
    """Why a model of ``unit`` may not be set up in ``feature`` as the game begins, or None.

    The terrain table, as a move reads it (:func:`terrain_refusal`: "No" keeps a unit out,
    wheeled vehicles out of woods, guns off walls; a gun may be dug in where "No*" lets it,
    then cannot move), and a scenario's ``impassable_to``; besides (assumptions), no one
    in a building (it is entered and fought over in play), and a vehicle clear of
    obstacles and of anything that blocks sight. A feature is a building or an obstacle by
    its terrain table row, as in a move ("Building", "wall")."""
    column = terrain_column(unit)
    vehicle = unit.vehicle is not None
    category = terrain_row(rules, feature.category).category
    if category == "building":
        return f"{feature.name} is a building (no unit sets up in one)"
    if vehicle and category == "obstacle":
        return f"{feature.name} is an obstacle (no vehicle sets up on one)"
    if vehicle and feature.blocks_line_of_sight:
        return f"{feature.name} blocks sight (no vehicle sets up in it)"
    refusal = terrain_refusal(rules, feature, column, vehicle, run=False, setting_up=True)
    if refusal is None:
        return None
    return f"{refusal} to {WHO[column]}"


# each column of the terrain table, as a refusal names it
WHO = {
    "infantry": "infantry",
    "artillery": "artillery",
    "wheeled": "wheeled vehicles",
    "tracked": "tracked vehicles",
    "walkers": "walkers",
}


def crowding(game: BoltActionGame) -> list[str]:
    """The vehicles set up nearer another unit's model than a move keeps them
    (:func:`spacing.apart`: ``UNIT_GAP`` and half a vehicle's length for each vehicle): the
    engine gives a vehicle no hull outline, so where a zone has no room it stands as a
    point kept ``UNIT_GAP`` from others, but on a real table their hulls would overlap.
    Each told once, with the nearest such model: legal, so said, not refused."""
    told = []
    for unit in game.units:
        if unit.vehicle is None or not unit.models:
            continue
        at = unit.anchor
        near = [
            (gap, other.name)
            for other in game.units
            if other is not unit
            for m in other.models
            if (gap := math.dist((at.x, at.y), (m.x, m.y))) < apart(unit, other)
        ]
        if near:
            gap, name = min(near)
            told.append(f'{unit.name} stands {gap:.1f}" from {name}')
    return told
