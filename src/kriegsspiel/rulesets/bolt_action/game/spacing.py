"""Keeping units apart on an ordinary move (an assumption: "Keeping apart on a move" in
docs/rules/konflikt47.md and bolt-action-1.md).

Outside an assault's own moves (its closing move, the defenders' and escape moves) and a
FUBAR panic run, a unit's Advance or Run may not end with any of its models within its
gap (:func:`apart`) of another unit's model, nor take one of its models within that gap of
an enemy model on the way (every model moves in a straight line with the unit's centre).
The gap is ``UNIT_GAP``, and half a vehicle's length more for each of the two that is a
vehicle: the engine gives a vehicle no hull outline, only a point, so a round hull about
that point keeps its drawn hull clear of other models. A model already nearer than that to
another (after an assault, say) may keep its distance or draw away, not close in.

:class:`Clearance` is the one check: the game's validation of a move order and the
candidate destinations offered to players both use it. It looks at whole units first
(their centres and the farthest model from each) and at single models only for units near
enough to matter.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from kriegsspiel.core.table import Point
from kriegsspiel.rulesets.bolt_action.game.units import UnitState

UNIT_GAP = 1.0  # inches kept between models of different units (set-up and moves: assumption)
# inches a vehicle is long, as drawn (a 28mm tank's hull; the engine gives vehicles no hull
# outline, so a vehicle keeps others half of this farther off than UNIT_GAP: assumption)
VEHICLE_LENGTH = 3.0
HULL = VEHICLE_LENGTH / 2  # inches a vehicle's round hull reaches out from its point
STOP_MARGIN = 0.05  # how much farther than UNIT_GAP a move toward an enemy stops (candidates)
_EPS = 1e-9
_SLACK = 0.1  # inches: a rounded or clamped destination may lie a little beyond the reach


def segment_distance(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """Distance from (px, py) to the segment (ax, ay)-(bx, by)."""
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def hull(unit: UnitState) -> float:
    """How far a unit's model reaches out from its point: a vehicle's half-length
    (``HULL``), nothing for troops and guns."""
    return 0.0 if unit.vehicle is None else HULL


def apart(a: UnitState, b: UnitState) -> float:
    """The gap kept between a model of ``a`` and one of ``b`` (different units):
    ``UNIT_GAP``, and a hull's half-length more for each of them that is a vehicle."""
    return UNIT_GAP + hull(a) + hull(b)


def _too_near(enemy: bool, gap: float) -> str:
    """A move's refusal: a model would come (end) within ``gap`` of an enemy (friendly)
    model, and why the gap is more than ``UNIT_GAP``, where it is."""
    way = "come" if enemy else "end"
    whose = "an enemy" if enemy else "a friendly"
    hulls = ""
    if gap > UNIT_GAP:
        hulls = f' ({UNIT_GAP:g}", and half a {VEHICLE_LENGTH:g}" hull for each vehicle)'
    return f'a model would {way} within {gap:g}" of {whose} model{hulls}'


def within_reach(
    units: Sequence[UnitState], unit: UnitState, reach: float | None
) -> list[UnitState]:
    """The other units with a live model that a move of ``unit``'s centre no longer than
    ``reach`` (any length if None) might bring too near (by centres and radii)."""
    start, mine = unit.anchor, unit.radius
    gap = UNIT_GAP + hull(unit)
    far = math.inf if reach is None else reach + mine + gap + STOP_MARGIN + _SLACK
    sx, sy = start.x, start.y
    found = []
    for other in units:
        if other is unit or other.destroyed:
            continue
        places = other._places()  # (coords, anchor and radius at one look)
        if places.coords:
            # centres nearer than far + radius (and its hull), squared (a bound with room
            # to spare: _SLACK)
            centre = places.anchor
            bound = far + places.radius + (0.0 if other.vehicle is None else HULL)
            dx, dy = centre.x - sx, centre.y - sy
            if dx * dx + dy * dy < bound * bound:
                found.append(other)
    return found


class Clearance:
    """Where ``unit`` may move among ``units`` (the game's) without coming too near another:
    moves of its centre no longer than ``reach`` (any length if None). Units too far away
    for such a move to come near are left out at once."""

    __slots__ = ("_coords", "_others", "_radius", "_start", "unit")

    def __init__(
        self, units: Sequence[UnitState], unit: UnitState, reach: float | None = None
    ) -> None:
        self.unit = unit
        mine = unit._places()  # (coords, anchor and radius at one look)
        self._coords, self._start, self._radius = mine.coords, mine.anchor, mine.radius
        # (coords, centre x, centre y, radius, enemy, gap kept: apart, inline) of every
        # other unit that may matter
        self._others = []
        gap = UNIT_GAP + hull(unit)
        for o in within_reach(units, unit, reach):
            places = o._places()
            centre = places.anchor
            self._others.append(
                (
                    places.coords,
                    centre.x,
                    centre.y,
                    places.radius,
                    o.side != unit.side,
                    gap if o.vehicle is None else gap + HULL,
                )
            )

    def clash(self, to: Point) -> str | None:
        """Why moving the unit's centre straight to ``to`` comes too near another unit's
        model (see the module), or None if it does not."""
        mine = self._coords
        if not mine:
            return None
        start = self._start
        sx, sy, ex, ey = start.x, start.y, to.x, to.y
        dx, dy = ex - sx, ey - sy
        dist, seg = math.dist, segment_distance
        length = dx * dx + dy * dy
        for coords, cx, cy, radius, enemy, kept in self._others:
            reach = self._radius + radius + kept
            limit = kept - _EPS
            # whole units first: the centres' distance less both radii bounds every model's
            if enemy:  # (the centre's path to theirs: segment_distance, inline)
                t = 0.0 if length == 0 else ((cx - sx) * dx + (cy - sy) * dy) / length
                t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
                if math.hypot(cx - sx - t * dx, cy - sy - t * dy) >= reach:
                    continue
            elif dist((ex, ey), (cx, cy)) >= reach:
                continue
            for i in range(0, len(mine), 2):
                ax, ay = mine[i], mine[i + 1]
                bx, by = ax + dx, ay + dy
                for j in range(0, len(coords), 2):
                    ox, oy = coords[j], coords[j + 1]
                    # nearer than min(the gap kept, the distance at the start) less _EPS;
                    # the start's distance is needed only when the move's is under the gap
                    gap = seg(ox, oy, ax, ay, bx, by) if enemy else dist((bx, by), (ox, oy))
                    if gap < limit and gap < dist((ax, ay), (ox, oy)) - _EPS:
                        return _too_near(enemy, kept)
        return None

    def stop_short(self, to: Point) -> Point:
        """``to``, or the point on the way to it where a model of the unit first comes
        within its gap (:func:`apart`) + ``STOP_MARGIN`` of an enemy model (the unit's own
        start if that is at once)."""
        mine = self._coords
        start = self._start
        sx, sy = start.x, start.y
        dx, dy = to.x - sx, to.y - sy
        a = dx * dx + dy * dy
        if not mine or a == 0:
            return to
        first = 1.0
        for coords, cx, cy, radius, enemy, kept in self._others:
            if not enemy:
                continue
            keep = kept + STOP_MARGIN
            if segment_distance(cx, cy, sx, sy, to.x, to.y) >= self._radius + radius + keep:
                continue
            for i in range(0, len(mine), 2):
                ax, ay = mine[i], mine[i + 1]
                for j in range(0, len(coords), 2):
                    # |w + t d| = keep, w from the enemy model to ours: the first t on the way
                    wx, wy = ax - coords[j], ay - coords[j + 1]
                    c = wx * wx + wy * wy - keep * keep
                    if c <= 0:
                        continue  # already that near: not closing in is clash's to judge
                    b = wx * dx + wy * dy
                    disc = b * b - a * c
                    if b >= 0 or disc < 0:
                        continue  # moving away, or passing wide
                    t = (-b - math.sqrt(disc)) / a
                    if t < first:
                        first = t
        if first >= 1.0:
            return to
        first = max(0.0, first)
        return Point(sx + dx * first, sy + dy * first)
