"""A finite set of sensible orders for a unit: what an AI (or a menu) chooses from.

The table is continuous; a human may give any legal destination (validated by the game),
while the AI picks among these candidates: moves toward the nearest enemy, the nearest
objective and the nearest cover that does not block sight, and a withdrawal, each at full
and half distance, and all the way into the nearest building or thick wood the unit may
enter, where it gets in on this move.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any

# numpy imported before shapely (see deployment.py)
import numpy  # noqa: F401
import shapely
import shapely.affinity

from kriegsspiel.core.memo import MEMO_LIMIT, BoundedMemo
from kriegsspiel.core.scenario import Objective, Scenario
from kriegsspiel.core.table import Point, Table, TerrainFeature
from kriegsspiel.rulesets.bolt_action.assault import fighting_modes, vehicle_hit_score
from kriegsspiel.rulesets.bolt_action.edition import Rules
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.close_quarters import can_close
from kriegsspiel.rulesets.bolt_action.game.spacing import Clearance, within_reach
from kriegsspiel.rulesets.bolt_action.game.support import SUPPORT, can_call
from kriegsspiel.rulesets.bolt_action.game.table_rules import (
    check_move,
    heading_to,
    hull_room,
    last_legal,
    movement_row,
    nearest_road_point,
    on_road,
    road_rate,
    road_run,
    roads_at,
    terrain_column,
    terrain_refusal,
    toward_start,
    turn_between,
)
from kriegsspiel.rulesets.bolt_action.game.threats import nearest_threat
from kriegsspiel.rulesets.bolt_action.game.units import UnitState

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame


def _cover_centres(table: Table) -> list[Point]:
    """The centres of the features that give cover without blocking sight (worked out once)."""
    memo = table.memo("cover centres")
    centres: list[Point] | None = memo.get(None)
    if centres is None:
        covered = [f for f in table.features if f.cover != "none" and not f.blocks_line_of_sight]
        centres = memo[None] = [
            Point(
                sum(x for x, _ in f.polygon) / len(f.polygon),
                sum(y for _, y in f.polygon) / len(f.polygon),
            )
            for f in covered
        ]
    return centres


#: Inches a way into a building or a wood keeps each model in from the feature's edge, so
#: that rounding the destination (to 0.01") leaves every one inside.
WAY_IN_MARGIN = 0.1


def _shelters(table: Table) -> list[tuple[int, TerrainFeature, tuple[float, ...]]]:
    """The features that give cover and block sight (buildings, thick woods), with their
    indices and bounding boxes (worked out once)."""
    memo = table.memo("shelters")
    found: list[tuple[int, TerrainFeature, tuple[float, ...]]] | None = memo.get(None)
    if found is None:
        found = memo[None] = [
            (j, f, tuple(shapely.bounds(shapely.Polygon(f.polygon)).tolist()))
            for j, f in enumerate(table.features)
            if f.cover != "none" and f.blocks_line_of_sight
        ]
    return found


#: The places a unit's centre may take inside a feature, by its outline and the unit's
#: formation (see :func:`_entry`): the area (prepared) and its edges, or None if empty.
_AREAS: BoundedMemo[
    tuple[tuple[tuple[float, float], ...], tuple[float, ...]],
    tuple[shapely.Geometry, tuple[tuple[float, float, float, float], ...]] | None,
] = BoundedMemo("places inside a feature")


def _way_in(game: BoltActionGame, unit: UnitState, run: bool) -> Point | None:
    """Where the unit's centre goes to take the nearest building or sight-blocking wood it
    may enter on this order (the terrain table: :func:`terrain_refusal`), or None if there
    is none: the nearest point from which every live model stands inside it (and
    ``WAY_IN_MARGIN`` in from its edge), or its centre where the unit cannot stand wholly
    inside it. Nearest to the unit's centre (of equals, the one whose box is nearer, then
    the first in table order).

    Remembered by what the answer depends on besides the table, whose store this is: the
    edition, the order, the unit's terrain column and its live models' places."""
    table = game.table
    shelters = _shelters(table)
    if not shelters:
        return None
    rules, column, vehicle = game.rules, terrain_column(unit), unit.vehicle is not None
    start, coords = unit.anchor, unit.coords
    memo = table.memo("way in goal")
    key = (rules, run, column, vehicle, coords or start)
    if key in memo:
        found: Point | None = memo[key]
        return found
    # the features it may enter, nearest box first: a point in a feature is no nearer the
    # unit than the feature's box, so those whose box is farther than a point found are
    # not asked about
    sx, sy = start.x, start.y
    order = sorted(
        (math.hypot(max(x0 - sx, 0.0, sx - x1), max(y0 - sy, 0.0, sy - y1)), j, feature)
        for j, feature, (x0, y0, x1, y1) in shelters
        if terrain_refusal(rules, feature, column, vehicle, run) is None
    )
    # the models' places about the centre (rounded: a formation moved about keeps its key)
    about = (sx, sy)
    offsets = tuple([round(c - about[i % 2], 6) for i, c in enumerate(coords)])
    best: Point | None = None
    closest = 0.0
    for bound, _j, feature in order:
        if best is not None and bound > closest:
            break
        p = _entry(feature, offsets, start)
        gap = start.distance_to(p)
        if best is None or gap < closest:  # (ties: the first asked)
            best, closest = p, gap
    memo[key] = best
    return best


def _entry(feature: TerrainFeature, offsets: tuple[float, ...], start: Point) -> Point:
    """The point nearest ``start`` for a unit's centre to stand with every model (at
    ``offsets`` from it) inside ``feature``, ``WAY_IN_MARGIN`` in from its edge; its
    centre (the mean of its vertices) if there is no such point. The places the centre
    may take are worked out once per outline and formation (per process: a new table, as
    after a wreck, or a new game keeps them): the feature's outline drawn in by the
    margin, moved back by each model's offset, all of them overlapping. From outside
    them, the nearest is on one of their edges (the first of equals)."""
    key = (feature.polygon, offsets)
    if key in _AREAS:
        found = _AREAS[key]
    else:
        outline = shapely.Polygon(feature.polygon).buffer(-WAY_IN_MARGIN, join_style="mitre")
        moved = [
            shapely.affinity.translate(outline, -offsets[i], -offsets[i + 1])
            for i in range(0, len(offsets), 2)
        ] or [outline]
        area = shapely.intersection_all(moved)
        found = None
        if not area.is_empty:
            shapely.prepare(area)
            sides = [
                (float(ax), float(ay), float(bx), float(by))
                # (a feature with a neck or a notch may leave several pieces)
                for ring in shapely.get_rings(shapely.get_parts(area))
                for (ax, ay), (bx, by) in pairwise(shapely.get_coordinates(ring).tolist())
            ]
            found = (area, tuple(sides))
        _AREAS.keep(key, found)
    if found is None:
        xs, ys = zip(*feature.polygon, strict=True)
        return Point(sum(xs) / len(xs), sum(ys) / len(ys))
    area, edges = found
    x, y = start.x, start.y
    if shapely.intersects_xy(area, x, y):
        return start
    best, closest = start, math.inf
    for ax, ay, bx, by in edges:
        dx, dy = bx - ax, by - ay
        length = dx * dx + dy * dy
        t = 0.0 if length == 0 else ((x - ax) * dx + (y - ay) * dy) / length
        if t < 0.0:
            t = 0.0
        elif t > 1.0:
            t = 1.0
        qx, qy = ax + t * dx, ay + t * dy
        gap = (x - qx) * (x - qx) + (y - qy) * (y - qy)
        if gap < closest:
            best, closest = Point(qx, qy), gap
    return best


def destinations(game: BoltActionGame, unit: UnitState, *, run: bool) -> list[Point]:
    """Legal end points of a straight move for an Advance (or a Run)."""
    if unit.immobilised:
        return []
    return _remembered(game, unit, run, *_goals(game, unit))


# How much nearer an objective worth a point more counts, in inches (a tuning choice): the
# players go for the objective that is nearest once each is handicapped by what it lacks.
INCHES_A_POINT = 6.0


def objective_marks(objectives: Sequence[Objective]) -> list[tuple[float, float, float]]:
    """Each objective worth holding as (x, y, handicap): the handicap, in inches, is
    :data:`INCHES_A_POINT` for each point it is worth less than the best; an objective worth
    nothing is left out. Going for the least of distance + handicap goes for the nearest
    of equals, and for a richer one a little farther off."""
    best = max((o.points for o in objectives), default=0)
    return [
        (float(o.x), float(o.y), INCHES_A_POINT * (best - o.points))
        for o in objectives
        if o.points > 0
    ]


def _goals(game: BoltActionGame, unit: UnitState) -> tuple[Point | None, Point | None]:
    """The nearest enemy unit's centre and the objective nearest once handicapped by its
    worth (:func:`objective_marks`; the first of equals, as ``min`` picks), or None where
    there is none."""
    sx, sy = unit.anchor.x, unit.anchor.y
    dist = math.dist
    enemy: Point | None = None
    best = 0.0
    side = unit.side
    for u in game.units:
        if u.side != side and not u.destroyed:
            at = u.anchor
            gap = dist((sx, sy), (at.x, at.y))  # Point.distance_to's arithmetic
            if enemy is None or gap < best:
                enemy, best = at, gap
    objective: Point | None = None
    closest = 0.0
    for ox, oy, handicap in objective_marks(game.scenario.objectives):
        gap = dist((sx, sy), (ox, oy)) + handicap
        if objective is None or gap < closest:
            objective, closest = Point(ox, oy), gap
    return enemy, objective


def _remembered(
    game: BoltActionGame,
    unit: UnitState,
    run: bool,
    enemy: Point | None,
    objective: Point | None,
    *,
    near: Sequence[UnitState] | None = None,
) -> list[Point]:
    """:func:`destinations` toward these goals, remembered by what the answer depends on.
    ``near``, if given, holds at least the units ``within_reach`` finds for the move (those
    for any longer reach will do), so the game's other units are not looked at again; the
    answer is remembered by their places (one found for a longer reach is then asked for
    again only when a unit farther off than the move's reach has moved: rare, and cheaper
    than looking among them again at every request)."""
    # (the rest is the table's, whose store this is)
    key = (game.rules, run, unit.side, unit.kind, unit.vehicle, unit.heading)
    # the places of the other units that may be near enough for the move to keep clear of
    # (Clearance), and which are vehicles (their hulls keep it farther off)
    if near is None:
        near = within_reach(game.units, unit, _longest(game, unit, run))
    others = tuple([(o.side, o.coords, o.vehicle is None) for o in near])
    # (the goals and the unit's place by their coordinates, since a Point hashes in Python;
    # its live models' places fix its centre, which places it only when none is left)
    aims = (
        None if enemy is None else (enemy.x, enemy.y),
        None if objective is None else (objective.x, objective.y),
    )
    key_goals = (key, unit.coords or unit.anchor, aims, others)
    memo = game.table.memo("destinations")
    found: tuple[Point, ...] | None = memo.get(key_goals)
    if found is None:
        found = memo[key_goals] = tuple(_destinations(game, unit, run, enemy, objective, near))
    return list(found)


def _reach(game: BoltActionGame, unit: UnitState, run: bool) -> float:
    """How far the unit's candidate moves go off the roads (a Run's or an Advance's move)."""
    row = movement_row(game.rules, unit)
    return float(row.run if run else row.advance)


def _longest(game: BoltActionGame, unit: UnitState, run: bool) -> float:
    """How far the unit's candidate moves go at most: :func:`_reach`, times
    :func:`_road_factor`."""
    return _reach(game, unit, run) * _road_factor(game, unit)


def _road_factor(game: BoltActionGame, unit: UnitState) -> float:
    """How many times its plain move the unit's candidate moves go at most: the road's
    rate (:func:`table_rules.road_rate`) for a vehicle standing on a road, whose moves
    along it go that much farther (:func:`_road_rays`); 1 for any other unit."""
    if unit.vehicle is None:
        return 1.0
    at = unit.anchor
    if not on_road(game.rules, game.table, at.x, at.y):
        return 1.0
    return road_rate(game.rules, terrain_column(unit))


#: Inches a candidate move along a road stops short of where the road ends (or bends
#: away from its line), so that rounding it to 0.01" leaves its path on the road.
ROAD_MARGIN = 0.05


def _road_directions(game: BoltActionGame, x: float, y: float) -> tuple[tuple[float, float], ...]:
    """The ways along the roads at (x, y): the directions (unit vectors, each both ways) of
    the sides of the road features covering it, the first of any two within a degree of
    each other (a road's two kerbs, say, give one). Worked out once per table and roads."""
    rules, table = game.rules, game.table
    covering = roads_at(rules, table, x, y)
    if not covering:
        return ()
    memo = table.memo("road directions")
    key = (rules, covering)
    found: tuple[tuple[float, float], ...] | None = memo.get(key)
    if found is None:
        angles: list[float] = []
        ways: list[tuple[float, float]] = []
        for j in covering:
            outline = table.features[j].polygon
            for (ax, ay), (bx, by) in pairwise([*outline, outline[0]]):
                if math.dist((ax, ay), (bx, by)) < 1.0:  # (a corner's bevel, not a way)
                    continue
                base = math.degrees(math.atan2(bx - ax, by - ay))
                for angle in (base % 360, (base + 180) % 360):
                    if any(turn_between(angle, a) < 1.0 for a in angles):
                        continue
                    angles.append(angle)
                    rad = math.radians(angle)
                    ways.append((math.sin(rad), math.cos(rad)))
        found = memo[key] = tuple(ways)
    return found


def _road_rays(
    game: BoltActionGame, unit: UnitState, run: bool
) -> tuple[tuple[float, float, float], ...]:
    """A vehicle's runs along the roads from where it stands, for a move the road's rate
    makes longer (:func:`table_rules.road_rate`): for each way along the roads there
    (:func:`_road_directions`) on which the straight path stays on them
    (:func:`table_rules.road_run`) farther than its plain move, (ux, uy, length), the
    length up to the longer move (:data:`ROAD_MARGIN` short of where the road ends first).
    None (empty) for troops, a vehicle off the roads, or one whose move a road does not
    lengthen.

    Remembered by what the answer depends on besides the table, whose store this is: the
    edition, the terrain column, the move's lengths and the unit's centre."""
    if unit.vehicle is None:
        return ()
    rules, table = game.rules, game.table
    at = unit.anchor
    reach = _reach(game, unit, run)
    column = terrain_column(unit)
    key = (rules, column, reach, at.x, at.y)
    memo = table.memo("road rays")
    found: tuple[tuple[float, float, float], ...] | None = memo.get(key)
    if found is None:
        rays: list[tuple[float, float, float]] = []
        if (
            on_road(rules, table, at.x, at.y)
            and (longer := reach * road_rate(rules, column)) > reach
        ):
            for ux, uy in _road_directions(game, at.x, at.y):
                length = road_run(rules, table, at, ux, uy, longer + ROAD_MARGIN)
                length = min(longer, length - ROAD_MARGIN)
                if length > reach:
                    rays.append((ux, uy, length))
        found = memo[key] = tuple(rays)
    return found


#: Inches in from a road's edge that a vehicle's move onto the road ends (where the road is
#: wide enough), so that its next moves may run along it.
ROAD_INSET = 1.0


def _road_entry(game: BoltActionGame, unit: UnitState, run: bool) -> Point | None:
    """Where a vehicle off the roads, whose move a road would lengthen, gets onto the
    nearest one (:data:`ROAD_INSET` in from its edge: ``nearest_road_point``) on this
    move, or None: troops, a vehicle on a road, or a road farther off than the move.
    Remembered by what it depends on besides the table, whose store this is: the edition,
    the terrain column, the move's length and the unit's centre."""
    if unit.vehicle is None:
        return None
    rules, table = game.rules, game.table
    at = unit.anchor
    reach = _reach(game, unit, run)
    column = terrain_column(unit)
    key = (rules, column, reach, at.x, at.y)
    memo = table.memo("road entry")
    if key in memo:
        known: Point | None = memo[key]
        return known
    found = None
    # (the road row asked only of a table with roads: a rules file's table may lack one)
    if (
        not on_road(rules, table, at.x, at.y)
        and (there := nearest_road_point(rules, table, at.x, at.y, ROAD_INSET)) is not None
        and at.distance_to(there) <= reach
        and road_rate(rules, column) > 1
    ):
        found = there
    memo[key] = found
    return found


def _road_steps(
    game: BoltActionGame, unit: UnitState, run: bool, goals: Sequence[Point | None]
) -> list[tuple[float, float]]:
    """The steps (:func:`_step`) of a vehicle's moves along the roads (:func:`_road_rays`):
    on each run, to its far end and half way, and to the points on it nearest each of
    ``goals`` (the nearest enemy, the objective) that lie along it; for a vehicle off the
    roads, the step onto the nearest (:func:`_road_entry`)."""
    start = unit.anchor
    sx, sy, box = start.x, start.y, hull_room(game.table, unit)
    rays = _road_rays(game, unit, run)
    if not rays:
        entry = _road_entry(game, unit, run)
        if entry is None:
            return []
        gap = start.distance_to(entry)
        return [_step(sx, sy, entry.x, entry.y, gap, box)]
    steps = []
    for ux, uy, length in rays:
        marks = [length, length * 0.5]
        for goal in goals:
            if goal is not None:
                along = (goal.x - sx) * ux + (goal.y - sy) * uy
                if 0.5 < along < length:
                    marks.append(along)
        for t in marks:
            steps.append(_step(sx, sy, sx + ux * t, sy + uy * t, t, box))
    return steps


def _destinations(
    game: BoltActionGame,
    unit: UnitState,
    run: bool,
    enemy: Point | None,
    objective: Point | None,
    near: Sequence[UnitState] | None = None,
) -> list[Point]:
    """The destinations found afresh (``near``: as for :func:`_remembered`): the steps
    toward the nearest enemy (:func:`_step`) and :func:`_steps_to_ground`, each kept clear
    of the other units, at least half an inch from the start and from each other, and
    allowed by the table; a step the table refuses on the way (its path enters a building
    or a wall it may not cross, it would end in one) cut short at the last place along its
    line the table allows (:func:`table_rules.last_legal`), as a step to the table's edge
    stops there."""
    reach = _reach(game, unit, run)
    start = unit.anchor
    sx, sy = start.x, start.y
    box, dist = hull_room(game.table, unit), math.dist
    steps = _steps_to_ground(game, unit, run, objective)
    if enemy is not None:
        gx, gy = enemy.x, enemy.y
        steps = [
            _step(sx, sy, gx, gy, reach, box),
            _step(sx, sy, gx, gy, reach * 0.5, box),
            *steps,
        ]
    road = [] if unit.vehicle is None else _road_steps(game, unit, run, (objective, enemy))
    if road:
        steps = [*steps, *road]
        reach = max([reach, *[t for _, _, t in _road_rays(game, unit, run)]])
    out: list[Point] = []
    kept: list[tuple[float, float]] = []
    clear = Clearance(game.units if near is None else near, unit, reach)
    for x, y in steps:
        clash = clear.clash(Point(x, y))
        if clash is not None:
            # toward an enemy: stop short of it, where the move may still be clear
            short = clear.stop_short(Point(x, y))
            x, y = round(short.x, 2), round(short.y, 2)
        if dist((x, y), (sx, sy)) < 0.5:
            continue
        for q in kept:
            if dist((x, y), q) < 0.5:
                break
        else:
            p = Point(x, y)
            if check_move(game.rules, game.table, unit, p, run=run).allowed and (
                clash is None or clear.clash(p) is None
            ):
                out.append(p)
                kept.append((x, y))
                continue
            if clash is not None:  # (already cut short for the other units)
                continue
            cut = last_legal(game.rules, game.table, unit, run, p)
            if (
                cut is not None
                and all(dist((cut.x, cut.y), q) >= 0.5 for q in kept)
                and clear.clash(cut) is None
            ):
                out.append(cut)
                kept.append((cut.x, cut.y))
    return out


def _steps_to_ground(
    game: BoltActionGame, unit: UnitState, run: bool, objective: Point | None
) -> list[tuple[float, float]]:
    """The steps (:func:`_step`) of the unit's moves toward the nearest objective, the
    nearest cover that does not block sight, all the way into the nearest building or
    thick wood it gets into on this move, its own table edge and (a vehicle) straight on:
    a full and a half move toward each (all the way in: the full one only).

    Remembered, since they do not change while the unit stands where it is (only the
    nearest enemy and the other units' places do), by what they depend on besides the
    table, whose store this is: the edition, the order, the unit's side, kind, vehicle,
    heading and live models' places (its centre too), and the objective."""
    key = (
        game.rules,
        run,
        unit.side,
        unit.kind,
        unit.vehicle,
        unit.heading,
        unit.coords,
        unit.anchor,
        objective,
    )
    memo = game.table.memo("steps to ground")
    found: tuple[tuple[float, float], ...] | None = memo.get(key)
    if found is not None:
        return list(found)
    reach = _reach(game, unit, run)
    start = unit.anchor
    goals = [] if objective is None else [objective]
    centres = _cover_centres(game.table)
    if centres:
        nearest, closest = centres[0], start.distance_to(centres[0])
        for p in centres:  # min by distance, by comparisons: the first of equals
            gap = start.distance_to(p)
            if gap < closest:
                nearest, closest = p, gap
        goals.append(nearest)
    # into the nearest building or thick wood it may enter, where it gets in on this move
    way_in = _way_in(game, unit, run)
    if way_in is not None and start.distance_to(way_in) <= reach:
        goals.append(way_in)
    else:
        way_in = None
    home = 0.0 if unit.side == 0 else game.table.height
    goals.append(Point(start.x, home))
    if unit.vehicle is not None:
        rad = math.radians(unit.heading)
        goals.append(Point(start.x + math.sin(rad) * reach, start.y + math.cos(rad) * reach))
    sx, sy, box = start.x, start.y, hull_room(game.table, unit)
    steps = [
        _step(sx, sy, goal.x, goal.y, reach * fraction, box)
        for goal in goals
        for fraction in ((1.0,) if goal is way_in else (1.0, 0.5))  # (all the way in)
    ]
    memo[key] = tuple(steps)
    return steps


def _step(
    sx: float, sy: float, gx: float, gy: float, distance: float, box: tuple[float, ...]
) -> tuple[float, float]:
    """Where a move of ``distance`` from (sx, sy) toward (gx, gy) ends (the goal itself if
    that is nearer), kept within ``box`` (left, bottom, right, top: the table, or where a
    vehicle's hull stays on it, :func:`table_rules.hull_room`) and rounded to 0.01"
    (toward_start): _towards, the clamp and the rounding, in plain floats."""
    gap = math.dist((sx, sy), (gx, gy))
    if gap <= distance or gap == 0:
        x, y = gx, gy
    else:
        t = distance / gap
        x, y = sx + (gx - sx) * t, sy + (gy - sy) * t
    left, bottom, right, top = box
    # min(max(x, left), right) by comparisons (the same value: max keeps x unless left is
    # larger, min keeps it unless right is smaller)
    if x < left:
        x = left
    if x > right:
        x = right
    if y < bottom:
        y = bottom
    if y > top:
        y = top
    # toward_start, its usual answer inline (the rounded value, where no farther)
    x, y = float(x), float(y)
    r = round(x, 2)
    x = r if abs(r - sx) <= abs(x - sx) else toward_start(x, sx)
    r = round(y, 2)
    y = r if abs(r - sy) <= abs(y - sy) else toward_start(y, sy)
    return x, y


def targets(
    game: BoltActionGame,
    unit: UnitState,
    *,
    moving: bool,
    origin: Point | None = None,
    enemies: list[UnitState] | None = None,
) -> list[UnitState]:
    """The live enemy units ``unit`` could shoot at (from ``origin``); ``enemies``, when
    given, must be those units, in game order (found once for many destinations)."""
    if enemies is None:
        enemies = [e for e in game.units if e.side != unit.side and not e.destroyed]
    able = game.can_shoot_each(unit, enemies, moving=moving, origin=origin)
    return [e for e, ok in zip(enemies, able, strict=True) if ok]


def _advance_targets(
    game: BoltActionGame, unit: UnitState, ends: list[Point], enemies: list[UnitState]
) -> list[list[UnitState]]:
    """For each end of an Advance, the enemies ``unit`` could shoot at from there: the
    same as ``targets(moving=True, origin=end)`` for each end, in one batch.

    Remembered per enemy, by its models' places: when one enemy has moved, only it is
    asked about again, from every end (the rest are one look-up each, not one per end).
    The answers also depend on the unit's live models' places (which fix its centre), how
    far it can fire on the move, and the ends, which key the store; and on the table,
    whose store it is.
    """
    reach = game.reach(unit, moving=True)
    if reach == 0:
        return [[] for _ in ends]
    memo = game.table.memo("advance targets")
    key = (unit.coords, reach, tuple([c for p in ends for c in (p.x, p.y)]))
    known: dict[tuple[float, ...], tuple[bool, ...]] | None = memo.get(key)
    if known is None or len(known) >= MEMO_LIMIT:
        known = memo[key] = {}
    places = [e.coords for e in enemies]
    seen = [known.get(flat) for flat in places]
    asked = [flat for flat, row in zip(places, seen, strict=True) if row is None]
    found: dict[tuple[float, ...], tuple[bool, ...]] = {}
    if asked:  # from each end, as can_shoot_each would look from it
        anchor, alive, sees = unit.anchor, unit.alive_models, game.table.sees_within_each
        columns = []
        for p in ends:
            dx, dy = p.x - anchor.x, p.y - anchor.y
            origins = tuple([c for m in alive for c in (m.x + dx, m.y + dy)])
            columns.append(sees(origins, asked, reach))
        found = {flat: tuple([col[i] for col in columns]) for i, flat in enumerate(asked)}
        known.update(found)
    rows = [found[flat] if row is None else row for flat, row in zip(places, seen, strict=True)]
    return [[e for e, row in zip(enemies, rows, strict=True) if row[i]] for i in range(len(ends))]


#: Inches a bound on the gap between two units (their centres' distance less both radii)
#: must exceed a reach by before they are taken to be out of it without measuring the gap:
#: far more than the bound's rounding.
FAR_SLACK = 1e-6


#: Per game (while it lives): its table, rules and scenario, and the candidates found on them.
_CANDIDATES: weakref.WeakKeyDictionary[
    BoltActionGame, tuple[Table, Rules, Scenario, dict[Any, tuple[Action, ...]]]
] = weakref.WeakKeyDictionary()


def order_candidates(game: BoltActionGame, unit: UnitState) -> list[Action]:
    """Every candidate order for ``unit``: a few moves, every target, every assault.

    Remembered per game by everything the answer depends on besides the game's table, rules
    and scenario: the unit's place, heading, state and models, each live enemy's place,
    kind and move, and where its moves end (:func:`destinations`, remembered too): friends
    change nothing else, so one that moved near it without changing those is no miss.
    A player asks again for the units that did not act since it last chose, and between
    its turns often nothing they depend on has changed.
    """
    kept = _CANDIDATES.get(game)
    if (
        kept is None
        or kept[0] is not game.table  # a new table after a wreck
        or kept[1] is not game.rules
        or kept[2] is not game.scenario
    ):
        kept = _CANDIDATES[game] = (game.table, game.rules, game.scenario, {})
    side = unit.side
    # the units near enough for its moves (the longer of a Run and an Advance) to keep
    # clear of: found once for both its moves' destinations (spacing.within_reach)
    longest = max(_reach(game, unit, True), _reach(game, unit, False))
    if unit.vehicle is not None:  # (a road may lengthen its moves)
        longest *= _road_factor(game, unit)
    near = within_reach(game.units, unit, longest)
    goals = (None, None) if unit.immobilised else _goals(game, unit)  # (as destinations)
    ends = [] if unit.immobilised else _remembered(game, unit, False, *goals, near=near)
    runs = (
        [] if unit.no_run or unit.immobilised else _remembered(game, unit, True, *goals, near=near)
    )
    # A unit's place is its live models' places (``coords``), which fix its centre (the
    # anchor) too; only a unit with no live model is placed by its anchor (a Point, which
    # hashes in Python, so it is left out of the key wherever the places say it).
    key = (
        unit.uid,
        side,
        unit.kind,
        unit.vehicle,
        unit.coords or unit.anchor,
        unit.heading,
        unit.immobilised,
        unit.no_run,
        unit.support_used,
        tuple([(m.alive, m.used_one_shot, m.weapons, m.observer) for m in unit.models]),
        tuple(
            [
                (e.uid, e.side, e.coords or e.anchor, e.vehicle is None, e.moved)
                for e in game.units
                if e.side != side and not e.destroyed
            ]
        ),
        # where its Advances and Runs end: all that its friends change (spacing.Clearance)
        tuple([(p.x, p.y) for p in ends]),
        tuple([(p.x, p.y) for p in runs]),
    )
    memo = kept[3]
    found = memo.get(key)
    if found is None:
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        found = memo[key] = tuple(_order_candidates(game, unit, (ends, runs)))
    return list(found)


def _vehicle_ways(
    game: BoltActionGame, unit: UnitState, to: Point, faces: tuple[Point, ...]
) -> list[tuple[str, float | None]]:
    """The ways ("" or "reverse": table_rules.vehicle_drive) and end facings offered for
    an Advance to ``to``.

    Troops: the move alone. A vehicle: the move as it drives (forward where it may), and
    besides, where its turns and the move's length allow, in reverse (to back away with
    its front kept to the enemy), and ending turned to face each of ``faces`` that it
    would not face (more than 45 degrees off); turning where it stands (``to`` its own
    place) only those.
    """
    if unit.vehicle is None:
        return [("", None)]
    rules, table = game.rules, game.table
    here = to == unit.anchor
    plain = check_move(rules, table, unit, to, run=False)
    ways: list[tuple[str, float | None]] = [] if here else [("", None)]
    if (
        not here
        and not plain.reverse
        and check_move(rules, table, unit, to, run=False, way="reverse").allowed
    ):
        ways.append(("reverse", None))
    if plain.heading is None:
        return ways
    for point in faces:
        if point == to:
            continue
        face = round(heading_to(to, point), 1) % 360
        if (
            turn_between(plain.heading, face) > 45
            and ("", face) not in ways
            and check_move(rules, table, unit, to, run=False, facing=face).allowed
        ):
            ways.append(("", face))
    return ways


def _order_candidates(
    game: BoltActionGame, unit: UnitState, moves: tuple[list[Point], list[Point]] | None = None
) -> list[Action]:
    """The candidate orders found afresh; ``moves``, if given, are the ends of its Advances
    and its Runs (as :func:`destinations` finds them)."""
    uid = unit.uid
    enemies = [e for e in game.units if e.side != unit.side and not e.destroyed]
    acts = [Action("order", unit=uid, order=o) for o in ("Ambush", "Rally", "Down")]
    acts += [
        Action("order", unit=uid, order="Fire", target=t.uid)
        for t in targets(game, unit, moving=False, enemies=enemies)
    ]
    if moves is None:
        moves = (
            destinations(game, unit, run=False),
            [] if unit.no_run else destinations(game, unit, run=True),
        )
    ends, runs = moves
    # a vehicle ends a move turned to face the nearest enemy that could knock it out (its
    # front armour to the threat), and turns where it stands to face that one or the
    # nearest enemy (a hull weapon's arc): a few turns offered, not every one
    faces: tuple[Point, ...] = ()
    faces_here: tuple[Point, ...] = ()
    if unit.vehicle is not None and not unit.immobilised:
        enemy, threat = _goals(game, unit)[0], nearest_threat(game.rules, game.units, unit)
        faces = () if threat is None else (threat.anchor,)
        faces_here = tuple(dict.fromkeys(p for p in (enemy, *faces) if p is not None))
        if faces_here:
            ends = [*ends, unit.anchor]  # a vehicle may turn where it stands
    here = unit.anchor
    # (the many Advances by position: Action(kind, side, unit, order, to, target, choice,
    # facing), a quarter cheaper to make than by keyword)
    for p, shots in zip(ends, _advance_targets(game, unit, ends, enemies), strict=True):
        to = (p.x, p.y)
        for way, facing in _vehicle_ways(game, unit, p, faces_here if p == here else faces):
            acts.append(Action("order", -1, uid, "Advance", to, None, way, facing))
            acts += [Action("order", -1, uid, "Advance", to, t.uid, way, facing) for t in shots]
    for p in runs:
        acts.append(Action("order", unit=uid, order="Run", to=(p.x, p.y)))  # no_run: gravity
    for kind in SUPPORT:
        if can_call(game, unit, kind):
            acts += [
                Action("order", unit=uid, order="Fire", target=e.uid, choice=kind)
                for e in enemies
                if game.visible(unit, e)
            ]
    if unit.vehicle is None and unit.kind != "artillery" and not unit.no_run:
        run = movement_row(game.rules, unit).run
        # a mode is named where there is a choice of them (Konflikt '47)
        modes: tuple[str, ...] = fighting_modes(game.rules)
        if len(modes) == 1:
            modes = ("",)
        at, mine, dist = unit.anchor, unit.radius, math.dist
        for e in enemies:
            # by centres and radii, a bound on the gap (with room to spare: FAR_SLACK) that
            # spares measuring it for most enemies, far out of reach
            there = e.anchor
            if dist((at.x, at.y), (there.x, there.y)) - mine - e.radius > run + FAR_SLACK:
                continue
            if game.gap(unit, e) <= run:
                if e.vehicle is not None and vehicle_hit_score(game.rules, e.moved) is None:
                    continue  # (a vehicle that ran cannot be assaulted)
                if not can_close(game, unit, e).allowed:
                    continue  # (nor where the unit may not Run to it: see validation)
                for mode in modes if e.vehicle is None else ("",):
                    acts.append(
                        Action(
                            "order",
                            unit=uid,
                            order="Run",
                            target=e.uid,
                            choice=mode,
                            to=(e.anchor.x, e.anchor.y),
                        )
                    )
    return acts
