"""Terrain outlines, and the two ways a table asks about them: quickly and exactly.

A :class:`Shape` is a terrain feature's outline kept as plain numbers, so that the questions a
game asks thousands of times a turn (is this model in the wood? does this sight line or move
cross the hedge?) are settled in plain Python whenever the point or line clears the outline by
far more than rounding could move it (:data:`MARGIN`). A close call answers :data:`UNSURE`, and
the caller asks shapely instead, through the exact tests kept here beside the quick ones
(:func:`interiors_meet`, :func:`segment_between`), so both follow the same rules (see
:mod:`kriegsspiel.core.table`). They live apart from the table because they are geometry of one
outline at a time: they know nothing of tables, remembered answers or rules.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt
import shapely

if TYPE_CHECKING:
    from kriegsspiel.core.table import Point

#: DE-9IM pattern: the interiors of the two geometries meet.
_INTERIORS_MEET: Final[str] = "T********"
#: Inches a point or a segment must clear an outline by for the plain-Python tests (see
#: :class:`Shape`) to decide; closer calls, far beyond rounding error, go to shapely.
MARGIN: Final[float] = 1e-7
#: Coordinates beyond this many inches are left to shapely (rounding grows with size).
_FAR: Final[float] = 1e5
#: What a plain-Python test can say: certainly not / certainly / ask shapely.
NO, YES, UNSURE = 0, 1, 2

BoolArray = npt.NDArray[np.bool_]


def interiors_meet(segments: Any, polygons: Any, insets: Any) -> BoolArray:
    """Does each segment (of positive length) meet the interior of its polygon?

    A segment that meets the polygon's inset does; the rest take the DE-9IM test.
    """
    meet = np.asarray(shapely.intersects(insets, segments), dtype=np.bool_)
    rest = ~meet
    if rest.any():
        segments = segments[rest] if np.ndim(segments) else segments
        meet[rest] = shapely.relate_pattern(segments, polygons[rest], _INTERIORS_MEET)
    return meet


def segment_between(a: Point, b: Point) -> Any:
    """The segment a-b, always built from the lexicographically lower end (symmetry)."""
    if (b.x, b.y) < (a.x, a.y):
        a, b = b, a
    return shapely.LineString([(a.x, a.y), (b.x, b.y)])


def shapes_holding(shapes: Sequence[Shape], x: float, y: float) -> tuple[int, ...] | None:
    """The indices (ascending) of the shapes holding the point, or None if a close call needs
    shapely. Only a shape whose bounding box comes within ``MARGIN`` of the point can hold
    it; the others are not asked."""
    x0, y0, x1, y1 = x - MARGIN, y - MARGIN, x + MARGIN, y + MARGIN
    found = []
    for j, s in enumerate(shapes):
        if s.x0 <= x1 and x0 <= s.x1 and s.y0 <= y1 and y0 <= s.y1:
            answer = s.point(x, y)
            if answer == YES:
                found.append(j)
            elif answer == UNSURE:
                return None
    return tuple(found)


def shapes_crossed(
    shapes: Sequence[Shape], ax: float, ay: float, bx: float, by: float
) -> tuple[int, ...] | None:
    """The indices (ascending) of the shapes whose interior the segment a-b (of positive
    length) meets, or None if a close call needs shapely. Only a shape whose bounding box
    comes within ``MARGIN`` of the segment's can meet it; the others are not asked."""
    return shapes_crossed_among(enumerate(shapes), ax, ay, bx, by)


def shapes_crossed_among(
    shapes: Iterable[tuple[int, Shape]], ax: float, ay: float, bx: float, by: float
) -> tuple[int, ...] | None:
    """:func:`shapes_crossed` of some of the shapes, each with its index (ascending): the same
    answer as of all of them wherever the others' boxes miss the segment's."""
    x0, x1 = (ax, bx) if ax <= bx else (bx, ax)
    y0, y1 = (ay, by) if ay <= by else (by, ay)
    x0, y0, x1, y1 = x0 - MARGIN, y0 - MARGIN, x1 + MARGIN, y1 + MARGIN
    found = []
    for j, s in shapes:
        if s.x0 <= x1 and x0 <= s.x1 and s.y0 <= y1 and y0 <= s.y1:
            answer = s.crossed(ax, ay, bx, by)
            if answer == YES:
                found.append(j)
            elif answer == UNSURE:
                return None
    return tuple(found)


def _union(answers: list[int]) -> int:
    """A test's answer for a whole from its parts' answers (see :class:`Shape`)."""
    if YES in answers:
        return YES
    return UNSURE if UNSURE in answers or not answers else NO


class Shape:
    """A feature's outline for quick plain-Python tests that settle the clear cases.

    Each test answers ``YES`` or ``NO`` only when the point or segment clears the outline
    by ``MARGIN`` (far more than rounding can move it), else ``UNSURE``, which the caller
    hands to shapely: the answers are shapely's. A convex outline is kept as its edges'
    half-planes (for Cyrus-Beck clipping); any other as convex parts (triangles) that cover
    it: in or through a part's interior is in or through the whole's, and missing every part
    misses the whole (a call along the seam between two parts stays unsure).
    """

    __slots__ = ("box", "edges", "mx0", "mx1", "my0", "my1", "parts", "x0", "x1", "y0", "y1")

    def __init__(
        self,
        box: tuple[float, float, float, float],
        edges: tuple[tuple[float, float, float, float], ...] | None,
        parts: tuple[Shape, ...] = (),
    ) -> None:
        self.x0, self.y0, self.x1, self.y1 = box
        #: the box widened by ``MARGIN``: a point outside it is certainly not in the outline
        self.mx0, self.my0 = self.x0 - MARGIN, self.y0 - MARGIN
        self.mx1, self.my1 = self.x1 + MARGIN, self.y1 + MARGIN
        #: (x, y) of an edge's start and its unit inward normal, when the outline is convex
        self.edges = edges
        #: convex parts covering the outline, when it is not convex
        self.parts = parts
        #: is the outline its bounding box (an upright rectangle)? Its edges' normals are
        #: then exactly +-1 and +-0, so each edge's depth and rate come to a coordinate
        #: difference: the tests take them so, the same numbers without the products
        self.box = edges is not None and sorted(
            (nx, ny, vx if nx else vy) for vx, vy, nx, ny in edges
        ) == [(-1.0, 0.0, self.x1), (0.0, -1.0, self.y1), (0.0, 1.0, self.y0), (1.0, 0.0, self.x0)]

    @staticmethod
    def of(vertices: Sequence[tuple[float, float]]) -> Shape:
        xs, ys = [x for x, _ in vertices], [y for _, y in vertices]
        box = (min(xs), min(ys), max(xs), max(ys))
        # a repeated vertex would hide the corner it repeats from the convexity test below
        ring = [v for i, v in enumerate(vertices) if v != vertices[i - 1]]
        n = len(ring)
        area = sum(ring[i][0] * ring[i - 1][1] - ring[i - 1][0] * ring[i][1] for i in range(n))
        if area > 0:  # clockwise: turn it round, so the inside is on each edge's left
            ring.reverse()
        edges = []
        for i in range(n):
            (x, y), (x1, y1), (x2, y2) = ring[i - 1], ring[i], ring[(i + 1) % n]
            if (x1 - x) * (y2 - y1) - (y1 - y) * (x2 - x1) < 0:  # a reflex corner
                triangles = shapely.constrained_delaunay_triangles(shapely.Polygon(ring))
                parts = tuple(
                    Shape.of(list(t.exterior.coords)[:-1]) for t in shapely.get_parts(triangles)
                )
                return Shape(box, None, parts)
            length = math.hypot(x1 - x, y1 - y)
            if length > 0:
                edges.append((x, y, -(y1 - y) / length, (x1 - x) / length))
        return Shape(box, tuple(edges))

    def point(self, x: float, y: float) -> int:
        """Is the point in the closed outline?"""
        if x < self.mx0 or x > self.mx1 or y < self.my0 or y > self.my1:
            return NO
        if self.edges is None:
            return _union([part.point(x, y) for part in self.parts])
        if not (-_FAR < x < _FAR and -_FAR < y < _FAR):
            return UNSURE
        if self.box:  # (the edges' depths: x - x0, x1 - x, y - y0, y1 - y)
            depth = x - self.x0  # (min by comparisons)
            other = self.x1 - x
            if other < depth:
                depth = other
            other = y - self.y0
            if other < depth:
                depth = other
            other = self.y1 - y
            if other < depth:
                depth = other
        else:  # the least of the edges' depths (by comparisons: the same value, no list)
            depth = math.inf
            for vx, vy, nx, ny in self.edges:
                other = nx * (x - vx) + ny * (y - vy)
                if other < depth:
                    depth = other
        return YES if depth > MARGIN else NO if depth < -MARGIN else UNSURE

    def crossed(self, ax: float, ay: float, bx: float, by: float) -> int:
        """Does the open segment a-b (of positive length) meet the outline's interior?"""
        if (ax if ax > bx else bx) < self.x0 or (ax if ax < bx else bx) > self.x1:
            return NO
        if (ay if ay > by else by) < self.y0 or (ay if ay < by else by) > self.y1:
            return NO
        if self.edges is None:
            return _union([part.crossed(ax, ay, bx, by) for part in self.parts])
        if not (
            -_FAR < ax < _FAR and -_FAR < ay < _FAR and -_FAR < bx < _FAR and -_FAR < by < _FAR
        ):
            return UNSURE
        # Cyrus-Beck: the part of the segment at least MARGIN inside every edge (in), and
        # the part no more than MARGIN outside any (near); t runs from a (0) to b (1)
        # (max and min by comparisons: the same values, no calls; near_lo only grows and
        # near_hi only shrinks, so once they cross the answer is NO whatever follows)
        dx, dy, margin = bx - ax, by - ay, MARGIN
        in_lo, in_hi, near_lo, near_hi = 0.0, 1.0, 0.0, 1.0
        if self.box:
            # the same, edge by edge, for an upright rectangle: the edge x = x0 has depth
            # ax - x0 and rate dx, x = x1 has x1 - ax and -dx, y alike (see ``box``); the
            # order of the edges changes no answer, each bound only tightening
            low, high = ax - self.x0, self.x1 - ax
            if dx > 0:
                in_lo, near_lo = (margin - low) / dx, (-margin - low) / dx
                in_hi, near_hi = (margin - high) / -dx, (-margin - high) / -dx
            elif dx < 0:
                in_lo, near_lo = (margin - high) / -dx, (-margin - high) / -dx
                in_hi, near_hi = (margin - low) / dx, (-margin - low) / dx
            elif low < -margin or high < -margin:
                return NO
            elif low < margin or high < margin:
                in_hi = -1.0
            if in_lo < 0.0:
                in_lo = 0.0
            if near_lo < 0.0:
                near_lo = 0.0
            if in_hi > 1.0:
                in_hi = 1.0
            if near_hi > 1.0:
                near_hi = 1.0
            if near_lo > near_hi:
                return NO
            low, high = ay - self.y0, self.y1 - ay
            if dy > 0:
                t, u = (margin - low) / dy, (-margin - low) / dy
                v, w = (margin - high) / -dy, (-margin - high) / -dy
            elif dy < 0:
                t, u = (margin - high) / -dy, (-margin - high) / -dy
                v, w = (margin - low) / dy, (-margin - low) / dy
            elif low < -margin or high < -margin:
                return NO
            else:
                if low < margin or high < margin:
                    in_hi = -1.0
                return YES if in_lo < in_hi else UNSURE
            if t > in_lo:
                in_lo = t
            if u > near_lo:
                near_lo = u
            if v < in_hi:
                in_hi = v
            if w < near_hi:
                near_hi = w
            if near_lo > near_hi:
                return NO
            return YES if in_lo < in_hi else UNSURE
        for vx, vy, nx, ny in self.edges:
            depth = nx * (ax - vx) + ny * (ay - vy)
            rate = nx * dx + ny * dy
            if rate > 0:
                t = (margin - depth) / rate
                if t > in_lo:
                    in_lo = t
                t = (-margin - depth) / rate
                if t > near_lo:
                    near_lo = t
                    if near_lo > near_hi:
                        return NO
            elif rate < 0:
                t = (margin - depth) / rate
                if t < in_hi:
                    in_hi = t
                t = (-margin - depth) / rate
                if t < near_hi:
                    near_hi = t
                    if near_lo > near_hi:
                        return NO
            elif depth < -margin:
                return NO
            elif depth < margin:
                in_hi = -1.0
        if near_lo > near_hi:
            return NO
        return YES if in_lo < in_hi else UNSURE
