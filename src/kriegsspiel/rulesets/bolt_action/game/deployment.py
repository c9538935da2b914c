"""Setting up: each side's units placed in its own deployment zones before the first turn.

A side's units are shared among its zones in list order, in proportion to each zone's area,
and spread along the zone from one end to the other, each facing the middle of the table.
A unit stands where all its models are inside the zone (a vehicle's whole round hull
too), on ground it may be set up on (:func:`setup_refusal`: the terrain table as a move
reads it, a gun dug in where "No*" lets it; no one in a building; a vehicle's whole hull,
as on a move, out of the table's edge and of any ground it may never enter, and clear of
obstacles and of anything that blocks sight: :func:`table_rules.hull_clash`) and at least
``UNIT_GAP`` from every model already set up; where its first place fails, the nearest
that passes is taken. A vehicle has no hull outline, but where the zone
has room it is set up as a move keeps it (:func:`spacing.apart`: ``UNIT_GAP`` and half a
vehicle's length more for each vehicle) from other units' models, and they from it; where
it has not, ``UNIT_GAP`` will do and the set-up is told as crowded (:func:`crowding`), not
refused. A zone with no place left is refused, naming the unit and what kept it out.

A game may instead set each side's units up in an order drawn from its seed
(``deployment="shuffled"``; the simulator's ``--deployment shuffled``), so that a unit's
place in its list does not decide where it stands, nor whom it faces: an order that leaves
a unit no room is drawn again, and after ``DRAWS`` such draws the list's order is taken.

A person may then set their side up by hand (:func:`set_up_by_hand`, ``kriegsspiel play``):
each unit at a place given, checked by the same rule, or at the place offered it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

# numpy imported before shapely, whose C extension, importing numpy itself, would print the
# traceback of a Ctrl-C meanwhile and raise an ImportError in its place
import numpy  # noqa: F401
import shapely

from kriegsspiel.core.table import Point, TerrainFeature
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action.edition import Rules
from kriegsspiel.rulesets.bolt_action.game.set_up_order import SHUFFLED
from kriegsspiel.rulesets.bolt_action.game.spacing import UNIT_GAP, VEHICLE_LENGTH, apart, hull
from kriegsspiel.rulesets.bolt_action.game.table_rules import (
    HULL_OFF_TABLE,
    heading_to,
    hull_clash,
    kept_clear_at_set_up,
    terrain_column,
    terrain_refusal,
    terrain_row,
)
from kriegsspiel.rulesets.bolt_action.game.units import UnitState, formation

if TYPE_CHECKING:
    from kriegsspiel.core.scenario import DeploymentZone
    from kriegsspiel.core.scenario import TerrainFeature as ScenarioFeature
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame

STEP = 1.0  # inches between the places tried when a unit's first place will not do
EDGE = 1e-6  # inches: a model on a zone's very edge is in it
#: why a vehicle may not be set up where its round hull would reach out of the zone
HULL_OUT_OF_ZONE = "its hull would reach outside the zone"
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
    for index, why in barren_zones(game.rules, game.table.features, game.scenario.deployment):
        raise ZoneFullError(f"scenario {game.scenario.name!r}: {why}", index)
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


def table_feature(feature: ScenarioFeature) -> TerrainFeature:
    """A scenario's terrain feature as the game's table holds it."""
    return TerrainFeature(
        name=feature.name,
        category=feature.category,
        cover=feature.cover,
        polygon=tuple((p[0], p[1]) for p in feature.polygon),
        blocks_line_of_sight=feature.blocks_line_of_sight,
        impassable_to=frozenset(feature.impassable_to),
    )


def barren_zones(
    rules: Rules, features: Sequence[TerrainFeature], zones: Sequence[DeploymentZone]
) -> list[tuple[int, str]]:
    """Each deployment zone lying wholly on ground no unit of any kind may be set up on (a
    building; ground the terrain table or the scenario makes impassable to every unit):
    no list can set up in it, whatever its size. Its place in the scenario's deployment
    list, and what covers it."""
    barring = [(f, shapely.Polygon(f.polygon)) for f in features if _bars_everyone(rules, f)]
    found = []
    for index, zone in enumerate(zones):
        ground = shapely.Polygon(zone.polygon)
        over = [(f, shape) for f, shape in barring if shape.intersects(ground)]
        if not over or ground.difference(shapely.union_all([s for _, s in over])).area > EDGE:
            continue
        told = " and ".join(
            f"the building {f.name!r}"
            if terrain_row(rules, f.category).category == "building"
            else f"{f.name!r} ({f.category}, impassable to every unit)"
            for f, _ in over
        )
        found.append(
            (
                index,
                f"the deployment zone of side {zone.side!r} lies wholly in {told}, where no "
                "unit sets up: it can hold no unit of any list; move the zone onto open "
                "ground, or make it larger",
            )
        )
    return found


def _bars_everyone(rules: Rules, feature: TerrainFeature) -> bool:
    """May no unit, of any column of the terrain table, be set up in ``feature``?"""
    if terrain_row(rules, feature.category).category == "building":
        return True
    return all(
        terrain_refusal(
            rules, feature, column, column not in ("infantry", "artillery"), False, setting_up=True
        )
        for column in WHO
    )


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
    models set up being ``placed`` (each with its unit's hull, :func:`spacing.hull`): a
    vehicle's centre also stays its hull's half-length in from the zone's edge (the whole
    hull in the zone, as every model is), the table's edge, any ground it may never enter
    and obstacles and what blocks sight (:func:`table_rules.hull_clash`, a move's own rule,
    setting up).
    ``roomy``: also if a vehicle's model would stand nearer another unit's model than a
    move keeps them (:func:`spacing.apart`), or a model so near a vehicle."""
    xs, ys = [p.x for p in models], [p.y for p in models]
    if not shapely.contains_xy(zone, xs, ys).all() or not all(map(game.table.contains, models)):
        return "outside the zone"
    reach = hull(unit)
    width, height = game.table.width, game.table.height
    if reach and any(min(p.x, p.y, width - p.x, height - p.y) < reach - EDGE for p in models):
        return HULL_OFF_TABLE
    if reach and any(
        shapely.distance(zone.boundary, shapely.Point(x, y)) < reach - EDGE
        for x, y in zip(xs, ys, strict=True)
    ):
        return HULL_OUT_OF_ZONE
    for p in models:
        for feature in game.table.features_at(p):
            refusal = setup_refusal(game.rules, feature, unit)
            if refusal is not None:
                return refusal
        if reach:
            clash = hull_clash(game.rules, game.table, unit, p, setting_up=True)
            if clash is not None:
                return clash
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
    obstacles and of anything that blocks sight (:func:`table_rules.kept_clear_at_set_up`,
    which keeps its whole hull clear too: :func:`table_rules.hull_clash`). A feature is a
    building or an obstacle by its terrain table row, as in a move ("Building", "wall")."""
    column = terrain_column(unit)
    vehicle = unit.vehicle is not None
    category = terrain_row(rules, feature.category).category
    if category == "building":
        return f"{feature.name} is a building (no unit sets up in one)"
    clear = kept_clear_at_set_up(rules, feature) if vehicle else None
    if clear is not None:  # (its hull too: table_rules.hull_clash, setting up)
        return f"{feature.name} {clear[0]} ({clear[1]})"
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


# ----------------------------------------------------------------------------- by hand
@dataclass(frozen=True, slots=True)
class Placement:
    """Where a player sets a unit up by hand (``kriegsspiel play``'s set-up): ``at`` is
    the centre of its models (as the tables show a unit and a move takes it), facing ``facing``
    degrees (0 north, +y; None: the middle of the table, as the automatic set-up faces);
    ``at`` None is the place the set-up offers it (:func:`set_up_by_hand`)."""

    unit: int
    at: tuple[float, float] | None = None
    facing: float | None = None


class PlacementRefused(UsageError):
    """A unit may not be set up where it was placed by hand: why, and (``nearest``) the
    nearest place on a 1" grid that would do, facing the same way (None: none would)."""

    def __init__(self, message: str, unit: int, nearest: Point | None = None) -> None:
        super().__init__(message)
        self.unit = unit
        self.nearest = nearest


#: a unit set up by hand: the centre of its models and its facing
SetUpPlace = tuple[Point, float]


def set_up_by_hand(
    game: BoltActionGame, placements: Mapping[int, Sequence[Placement]]
) -> dict[int, SetUpPlace]:
    """Set up again by hand the sides ``placements`` names (0, 1), after :func:`deploy`
    has set every unit up: those sides' units are taken off the table, and then, side 0
    first, each side's placements are set up in the order given and its other units after
    them in list order. A unit placed ``at`` a place stands there, refused
    (:class:`PlacementRefused`) unless it may be set up there by the automatic set-up's own
    rule (:func:`_misfit`: inside its side's zones, on ground it may be set up on, 1" from
    every model set up before it); one placed without a place, or not placed, is offered
    its place from the automatic set-up if that still will do, else the nearest that will.
    The other sides' units stand as the automatic set-up put them. Where each unit set up
    by hand stands and faces, by its number."""
    hand = {u.uid for u in game.units if u.side in placements}
    offered = {u.uid: ([Point(m.x, m.y) for m in u.models], u.heading) for u in game.units}
    placed: list[tuple[float, float, float]] = []  # every model set up, its unit's hull
    owners: list[str] = []  # ... and its unit's name
    for unit in game.units:
        if unit.uid not in hand:
            _stand(unit, offered[unit.uid][0], unit.heading, placed, owners)
    where: dict[int, SetUpPlace] = {}
    for side in sorted(placements):
        zone = _side_zone(game, side)
        mine = [u for u in game.units if u.side == side]
        given = list(placements[side])
        for p in given:
            if p.unit not in (u.uid for u in mine):
                raise PlacementRefused(
                    f"unit {p.unit} is not one of the units of side {'AB'[side]} "
                    f"(numbered {mine[0].uid} to {mine[-1].uid})",
                    p.unit,
                )
            if p.unit in where:
                raise PlacementRefused(f"{game.units[p.unit].name} is placed twice", p.unit)
            where[p.unit] = _hand_place(game, p, zone, offered, placed, owners)
        for unit in mine:
            if unit.uid not in where:
                where[unit.uid] = _hand_place(
                    game, Placement(unit.uid), zone, offered, placed, owners
                )
    return where


def _hand_place(
    game: BoltActionGame,
    p: Placement,
    zone: _Zone,
    offered: dict[int, tuple[list[Point], float]],
    placed: list[tuple[float, float, float]],
    owners: list[str],
) -> SetUpPlace:
    """Set up one unit by hand (see :func:`set_up_by_hand`): its place and facing."""
    unit = game.units[p.unit]
    if p.at is None:
        models, heading = offered[unit.uid]
        if _misfit(game, unit, zone.inside, models, placed, roomy=False) is not None:
            models, heading = _nearest_fit(game, unit, zone, _centre(models), None, placed)
    else:
        at = Point(*p.at)
        heading = _facing(game, at) if p.facing is None else p.facing % 360
        models = _models_at(unit, at, heading)
        why = _misfit(game, unit, zone.inside, models, placed, roomy=False)
        if why is not None:
            try:
                nearest: Point | None = _centre(
                    _nearest_fit(game, unit, zone, at, p.facing, placed)[0]
                )
            except PlacementRefused:
                nearest = None
            raise PlacementRefused(
                _refusal(game, unit, zone, why, models, placed, owners), unit.uid, nearest
            )
    _stand(unit, models, heading, placed, owners)
    return _centre(models), heading


def _stand(
    unit: UnitState,
    models: list[Point],
    heading: float,
    placed: list[tuple[float, float, float]],
    owners: list[str],
) -> None:
    """Set ``unit``'s models at ``models``, facing ``heading``, and count them set up."""
    unit.heading = heading
    for m, p in zip(unit.models, models, strict=True):
        m.x, m.y = p.x, p.y
    placed += [(p.x, p.y, hull(unit)) for p in models]
    owners += [unit.name] * len(models)


def _nearest_fit(
    game: BoltActionGame,
    unit: UnitState,
    zone: _Zone,
    wanted: Point,
    facing: float | None,
    placed: list[tuple[float, float, float]],
) -> tuple[list[Point], float]:
    """The models and facing of the place nearest ``wanted`` (it first, then a 1" grid
    over the zone) where ``unit`` may be set up: with room for vehicles' hulls if there is
    any, as the automatic set-up prefers, else kept 1" apart; facing ``facing`` (None:
    the middle of the table). Refused if there is none."""
    min_x, min_y, max_x, max_y = zone.bounds
    for roomy in (True, False):
        for spot in _places_near(wanted, min_x, min_y, max_x, max_y):
            heading = _facing(game, spot) if facing is None else facing % 360
            models = _models_at(unit, spot, heading)
            if _misfit(game, unit, zone.inside, models, placed, roomy) is None:
                return models, heading
    raise PlacementRefused(
        f'no place is left in {zone.name} where {unit.name} may be set up 1" from the '
        "units set up before it",
        unit.uid,
    )


def _refusal(
    game: BoltActionGame,
    unit: UnitState,
    zone: _Zone,
    why: str,
    models: list[Point],
    placed: list[tuple[float, float, float]],
    owners: list[str],
) -> str:
    """Why ``unit`` may not stand at ``models``, as a player reads it (``why``: the
    automatic set-up's reason, :func:`_misfit`)."""
    one = len(models) == 1  # (a vehicle, or a lone model)
    if why in ("outside the zone", HULL_OUT_OF_ZONE):
        ranks = "" if one else ' (its models stand in ranks of five, 1" apart, round the place)'
        if why == HULL_OUT_OF_ZONE:
            ranks = (
                f' (its hull reaches {hull(unit):g}" round its centre: half a '
                f'{VEHICLE_LENGTH:g}" hull)'
            )
        extent = zone_extent(game, unit.side)
        return f"{unit.name} would not stand wholly inside {zone.name} ({extent}){ranks}"
    if why.startswith("within"):
        gap, name = min(
            (math.dist((p.x, p.y), q[:2]), owner)
            for p in models
            for q, owner in zip(placed, owners, strict=True)
        )
        return f'{unit.name}: {why} ({name}, {gap:.1f}" away)'
    return f"{unit.name}: {why}"


def _side_zone(game: BoltActionGame, side: int) -> _Zone:
    """All ``side``'s deployment zones as one shape, a model on its very edge in it."""
    names = game.scenario.sides()
    zones = [
        shapely.Polygon(z.polygon) for z in game.scenario.deployment if names.index(z.side) == side
    ]
    union = shapely.union_all(zones)
    inside = union.buffer(EDGE, join_style="mitre")
    shapely.prepare(inside)
    # (side A or B, as the game speaks of them: the scenario's own name for it is no word
    # a player sees elsewhere)
    return _Zone(inside, union.bounds, f"the deployment zone of side {'AB'[side]}")


@dataclass(frozen=True, slots=True)
class _Zone:
    """A side's deployment zones: as one shape (its edge in it), the bounds of the places
    to try in it (whole inches where its corners are), and its name."""

    inside: shapely.Geometry
    bounds: tuple[float, float, float, float]
    name: str


def zone_extent(game: BoltActionGame, side: int) -> str:
    """Where ``side``'s deployment zones are, as a player reads them: a rectangle by its
    inches from and to ('x 0–72", y 0–12"'), any other shape by its corners."""
    names = game.scenario.sides()
    told = []
    for zone in game.scenario.deployment:
        if names.index(zone.side) != side:
            continue
        corners = [(p[0], p[1]) for p in zone.polygon]
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        shape = shapely.Polygon(corners)
        if math.isclose(shape.area, (max(xs) - min(xs)) * (max(ys) - min(ys))):
            told.append(f'x {min(xs):g}–{max(xs):g}", y {min(ys):g}–{max(ys):g}"')
        else:
            told.append("corners " + ", ".join(f"({x:g}, {y:g})" for x, y in corners))
    return "; ".join(told)


def _facing(game: BoltActionGame, at: Point) -> float:
    """The facing a unit set up at ``at`` takes unless told: the middle of the table."""
    return heading_to(at, Point(at.x, game.table.height / 2))


def _models_at(unit: UnitState, at: Point, heading: float) -> list[Point]:
    """``unit``'s models set up with their centre at ``at`` (where the tables show a unit,
    and a move takes it), facing ``heading``: a vehicle there, others in ranks of five
    (:func:`formation`)."""
    if unit.vehicle:
        return [at]
    ranks = formation(len(unit.models), at, heading)
    middle = _centre(ranks)
    return [Point(p.x + at.x - middle.x, p.y + at.y - middle.y) for p in ranks]


def _centre(models: list[Point]) -> Point:
    """The centre of a unit's models (:attr:`UnitState.anchor`, where the tables show it)."""
    return Point(sum(p.x for p in models) / len(models), sum(p.y for p in models) / len(models))
