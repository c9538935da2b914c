"""Questions about many points at once: distances and line of sight between whole units.

A unit's models come as one flat tuple of coordinates, ``(x0, y0, x1, y1, ...)``, and the game
asks about them together thousands of times a turn: does any of this squad's models see an
enemy within 24"? which target is nearest in sight for each? :class:`TableBatches` answers with
the same rule, and the same answers, as the table's one-pair questions
(:meth:`~kriegsspiel.core.table.Table.line_of_sight`), but shares the work: units' bounding
boxes first, each model's outline tests once for all its targets, numpy for the distances, and
shapely only for the close calls, all of them at once. It stands apart from
:mod:`kriegsspiel.core.table` as the table's vectorised half; the
:class:`~kriegsspiel.core.table.Table` inherits these methods, so asking one costs no extra call.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import shapely

from kriegsspiel.core.memo import MEMO_LIMIT, BoundedMemo
from kriegsspiel.core.table_shapes import NO, YES, BoolArray, Shape, interiors_meet

if TYPE_CHECKING:
    from kriegsspiel.core.table import Point

FloatArray = npt.NDArray[np.float64]
#: Points as one flat tuple of coordinates: (x0, y0, x1, y1, ...).
Coords = tuple[float, ...]
#: A bounding box: (min x, min y, max x, max y).
Box = tuple[float, float, float, float]


class TableBatches:
    """The :class:`~kriegsspiel.core.table.Table`'s questions about many points at once
    (a base class of the table, holding nothing of its own: what it asks of the table is
    declared below for the type checker)."""

    if TYPE_CHECKING:  # the table's own (see Table), which the batches ask

        @property
        def _memo(self) -> dict[str, dict[Any, Any]]: ...
        @property
        def _blocker_shapes(self) -> tuple[Shape, ...]: ...
        @property
        def _blocker_tree(self) -> Any: ...
        @property
        def _blocker_polygons(self) -> Any: ...
        @property
        def _blocker_insets(self) -> Any: ...
        def _store(self, query: str) -> dict[Any, Any]: ...
        def line_of_sight(self, a: Point, b: Point) -> bool: ...

    def distances(self, origins: Sequence[Point], targets: Sequence[Point]) -> FloatArray:
        """Distances from every origin to every target: an array of shape (origins, targets)."""
        return self.distances_flat(_key(origins), _key(targets))

    def visibility(self, origins: Sequence[Point], targets: Sequence[Point]) -> BoolArray:
        """The line-of-sight matrix: ``[i, j]`` is ``line_of_sight(origins[i], targets[j])``.

        One STRtree query for all the sight lines, one vectorised interior test for the
        candidates; the same rule, and the same answers, as :meth:`line_of_sight`.
        """
        return self._visible(_key(origins), _key(targets)).copy()

    def sees_within(self, origins: Coords, targets: Coords, reach: float) -> bool:
        """Does any origin see a target no more than ``reach`` inches away?

        Points come as flat coordinate tuples, ``(x0, y0, x1, y1, ...)``. The same answer
        as ``(visibility(o, t) & (distances(o, t) <= reach)).any()`` for those points.
        """
        memo = self._memo.get("sees_within")  # (asked very often: _store only when needed)
        if memo is None or len(memo) >= MEMO_LIMIT:
            memo = self._store("sees_within")
        key = (origins, targets, reach)
        found: bool | None = memo.get(key)
        if found is None:
            if not origins or not targets:
                found = memo[key] = False
            else:
                near, far = bounding_box(origins), bounding_box(targets)
                found = memo[key] = not _apart(near, far, reach) and self._sees_within(
                    origins, targets, reach, self._blockers_in(near, far)
                )
        return found

    def sees_within_each(
        self, origins: Coords, targets: Sequence[Coords], reach: float
    ) -> list[bool]:
        """:meth:`sees_within` for each of ``targets`` (e.g. every enemy unit) in one batch.

        The same answers; cheaper than asking one by one, since the origins are hashed, boxed
        and sighted from once for all the targets: answers are remembered per
        ``(origins, reach)``, and the blockers near any target and each origin's
        :func:`_past` are shared (a blocker whose box misses a target's points and the
        origins cannot cross a sight line between them, so sharing changes no answer).
        """
        memo = self._memo.get("sees_within each")  # (_store, inline on a hot path)
        if memo is None or len(memo) >= MEMO_LIMIT:
            memo = self._store("sees_within each")
        key = (origins, reach)
        known: dict[Coords, bool] | None = memo.get(key)
        if known is None or len(known) >= MEMO_LIMIT:
            known = memo[key] = {}
        answers = [False] * len(targets)  # (set where True: no append per target)
        todo: list[tuple[int, Coords]] = []
        get = known.get
        for k, flat in enumerate(targets):
            found = get(flat)
            if found is None:
                if origins and flat:
                    todo.append((k, flat))
                else:
                    known[flat] = False
            elif found:
                answers[k] = True
        if todo:
            near = bounding_box(origins)
            close: list[tuple[int, Coords]] = []
            x0, y0, x1, y1 = near
            # a box that misses the origins' widened by more than the reach is _apart
            # (asked first, inline: most targets far off are off along x or y)
            wide = reach + 2e-6
            west, south, east, north = x0 - wide, y0 - wide, x1 + wide, y1 + wide
            boxes = _BOUNDS.get  # (bounding_box, its look-up inline: asked once a target)
            for k, flat in todo:
                far = boxes(flat) or bounding_box(flat)
                if (
                    far[0] > east
                    or far[2] < west
                    or far[1] > north
                    or far[3] < south
                    or _apart(near, far, reach)
                ):
                    known[flat] = False
                else:
                    close.append((k, flat))
                    if far[0] < x0:  # (min and max by comparisons: the same values)
                        x0 = far[0]
                    if far[1] < y0:
                        y0 = far[1]
                    if far[2] > x1:
                        x1 = far[2]
                    if far[3] > y1:
                        y1 = far[3]
            if close:
                shapes = self._blockers_in(near, (x0, y0, x1, y1))
                pasts: list[list[tuple[int, Shape, int]] | None] = [None] * (len(origins) // 2)
                for k, flat in close:
                    found = known[flat] = self._sees_within(origins, flat, reach, shapes, pasts)
                    answers[k] = found
        return answers

    def _sees_within(
        self,
        origins: Coords,
        targets: Coords,
        reach: float,
        shapes: list[Shape],
        pasts: list[list[tuple[int, Shape, int]] | None] | None = None,
    ) -> bool:
        """Pair by pair, stopping at the first pair in reach and in sight (``shapes``: the
        blockers that may matter, see :meth:`_blockers_near`; ``pasts``: each origin's
        :func:`_past` of ``shapes``, filled in as needed, shared by calls with these shapes)."""
        size, count = len(targets), len(shapes)  # (asked once, not per origin or point)
        held: list[list[int] | None] = [None] * (size // 2)  # see _sight_past
        unsure: list[tuple[float, float, float, float]] = []
        hypot, close = math.hypot, 1e-9 * (1.0 + reach)  # (_within, inline)
        for i in range(0, len(origins), 2):
            ax, ay = origins[i], origins[i + 1]
            past = None if pasts is None else pasts[i // 2]
            for j in range(0, size, 2):
                bx, by = targets[j], targets[j + 1]
                off = hypot(ax - bx, ay - by) - reach
                if off > close or (off >= -close and not _within(ax - bx, ay - by, reach)):
                    continue
                if ax == bx and ay == by:
                    return True
                if past is None:
                    past = _past(shapes, ax, ay)
                    if pasts is not None:
                        pasts[i // 2] = past
                if not past:
                    return True
                at_b = held[j // 2]
                if at_b is None:  # _points, inline (once per target point)
                    at_b = held[j // 2] = [NO] * count
                    for k, s in enumerate(shapes):
                        if s.mx0 <= bx <= s.mx1 and s.my0 <= by <= s.my1:
                            at_b[k] = s.point(bx, by)
                seen = _sight_past(past, at_b, ax, ay, bx, by)
                if seen:
                    return True
                if seen is None:
                    unsure.append((ax, ay, bx, by))
        if not unsure:
            return False
        ends = np.array(unsure, dtype=np.float64)
        return bool(self._shapely_sights(ends[:, :2], ends[:, 2:]).any())

    def nearest_in_sight(
        self, origins: Coords, targets: Coords
    ) -> tuple[tuple[int, float] | None, ...]:
        """For each origin, the nearest target it sees (the first of equals) and how far it is
        (as :meth:`distances` gives it), or None if it sees none. Points as in
        :meth:`sees_within`; remembered (the answer is the table's)."""
        memo = self._memo.get("nearest in sight")  # (_store, inline on a hot path)
        if memo is None or len(memo) >= MEMO_LIMIT:
            memo = self._store("nearest in sight")
        key = (origins, targets)
        found = memo.get(key)
        if found is None:
            found = memo[key] = self._nearest_in_sight(origins, targets)
        return found

    def _nearest_in_sight(
        self, origins: Coords, targets: Coords
    ) -> tuple[tuple[int, float] | None, ...]:
        """Each origin tries its targets nearest first, up to the first one in sight."""
        if not targets:
            return (None,) * (len(origins) // 2)
        distances = self.distances_flat(origins, targets)
        far: list[list[float]] = distances.tolist()
        firsts: list[int] = distances.argmin(axis=1).tolist()  # each row's first least
        shapes = self._blockers_near(origins, targets)
        held: list[list[int] | None] = [None] * (len(targets) // 2)  # see _sight_past
        found: list[tuple[int, float] | None] = [None] * len(far)
        for i, row in enumerate(far):
            ax, ay = origins[2 * i], origins[2 * i + 1]
            past = _past(shapes, ax, ay)
            # the targets nearest first (stable: ties by index), sorted only when the
            # nearest, the first of them, is not in sight
            order: list[int] | None = None
            j, k = firsts[i], 0
            while True:
                bx, by = targets[2 * j], targets[2 * j + 1]
                if not past or (ax == bx and ay == by):
                    found[i] = (j, row[j])
                    break
                at_b = held[j]
                if at_b is None:
                    at_b = held[j] = _points(shapes, bx, by)
                seen = _sight_past(past, at_b, ax, ay, bx, by)
                if seen is None:  # a close call, rare: the table's own answer
                    from kriegsspiel.core.table import Point  # (table.py imports this module)

                    seen = self.line_of_sight(Point(ax, ay), Point(bx, by))
                if seen:
                    found[i] = (j, row[j])
                    break
                if order is None:
                    order = sorted(range(len(row)), key=row.__getitem__)
                k += 1
                if k == len(order):
                    break
                j = order[k]
        return tuple(found)

    def distances_flat(self, origins: Coords, targets: Coords) -> FloatArray:
        """:meth:`distances` of points as flat coordinate tuples."""
        (ox, oy), (tx, ty) = _columns(origins), _columns(targets)
        return np.hypot(ox[:, None] - tx[None, :], oy[:, None] - ty[None, :])

    def _visible(self, origins: Coords, targets: Coords) -> BoolArray:
        """:meth:`visibility` of flat coordinate tuples, remembered (do not modify it)."""
        memo = self._store("visibility")
        key = (origins, targets)
        found: BoolArray | None = memo.get(key)
        if found is None:
            found = self._visibility(origins, targets)
            found.setflags(write=False)
            memo[key] = found
        return found

    def _visibility(self, origins: Coords, targets: Coords) -> BoolArray:
        """Each pair by the plain-Python test; the close calls together by shapely."""
        n, m = len(origins) // 2, len(targets) // 2
        shapes = self._blockers_near(origins, targets)
        if not shapes or not n or not m:
            return np.ones((n, m), dtype=np.bool_)
        held = [_points(shapes, targets[2 * j], targets[2 * j + 1]) for j in range(m)]
        rows: list[list[bool]] = []
        unsure: list[tuple[int, int]] = []
        for i in range(n):
            ax, ay = origins[2 * i], origins[2 * i + 1]
            past = _past(shapes, ax, ay)
            row = []
            for j in range(m):
                bx, by = targets[2 * j], targets[2 * j + 1]
                seen = (
                    True
                    if not past or (ax == bx and ay == by)
                    else _sight_past(past, held[j], ax, ay, bx, by)
                )
                if seen is None:
                    unsure.append((i, j))
                    seen = True
                row.append(seen)
            rows.append(row)
        visible = np.array(rows, dtype=np.bool_)
        if unsure:
            o, t = _flat_coords(origins), _flat_coords(targets)
            oi, ti = (np.array(k, dtype=np.intp) for k in zip(*unsure, strict=True))
            visible[oi, ti] = self._shapely_sights(o[oi], t[ti])
        return visible

    def _blockers_near(self, origins: Coords, targets: Coords) -> list[Shape]:
        """The blockers whose bounding box meets the box around all the points: no sight
        line between them can meet another (the same test :meth:`Shape.crossed` starts with)."""
        if not origins or not targets:
            return []
        return self._blockers_in(bounding_box(origins), bounding_box(targets))

    def _blockers_in(self, near: Box, far: Box) -> list[Shape]:
        """:meth:`_blockers_near` of two non-empty sets of points, from their boxes."""
        x0, x1 = (
            (near[0] if near[0] < far[0] else far[0]),
            (near[2] if near[2] > far[2] else far[2]),
        )
        y0, y1 = (
            (near[1] if near[1] < far[1] else far[1]),
            (near[3] if near[3] > far[3] else far[3]),
        )
        return [
            s
            for s in self._blocker_shapes
            if s.x0 <= x1 and x0 <= s.x1 and s.y0 <= y1 and y0 <= s.y1
        ]

    def _shapely_sights(self, a: FloatArray, b: FloatArray) -> BoolArray:
        """Line of sight from each ``a[k]`` to ``b[k]`` by shapely alone, vectorised."""
        ends = np.stack([a, b], axis=1)  # segment k from a[k] to b[k], ...
        swap = (a[:, 0] > b[:, 0]) | ((a[:, 0] == b[:, 0]) & (a[:, 1] > b[:, 1]))
        ends[swap] = ends[swap, ::-1]  # ... from its lexicographically lower end (symmetry)
        segments = shapely.linestrings(ends)
        visible = np.ones(len(a), dtype=np.bool_)
        # candidates: the pairs that meet (by bounding box, then the prepared polygons)
        seg, blk = self._blocker_tree.query(segments)
        polygons = self._blocker_polygons[blk]
        meet = shapely.intersects(polygons, segments[seg])
        seg, blk, polygons = seg[meet], blk[meet], polygons[meet]
        # a blocker an end point is in (edge included) does not block; equal points see
        keep = ~(
            shapely.intersects_xy(polygons, a[seg, 0], a[seg, 1])
            | shapely.intersects_xy(polygons, b[seg, 0], b[seg, 1])
            | (a[seg] == b[seg]).all(axis=1)
        )
        seg, blk = seg[keep], blk[keep]
        crossing = interiors_meet(
            segments[seg], self._blocker_polygons[blk], self._blocker_insets[blk]
        )
        visible[seg[crossing]] = False
        return visible


#: Bounding boxes of flat coordinate tuples, see :func:`bounding_box`.
_BOUNDS: BoundedMemo[Coords, Box] = BoundedMemo("bounding boxes")
#: Coordinate columns of flat coordinate tuples, see :func:`_columns`.
_COLUMNS: BoundedMemo[Coords, tuple[FloatArray, FloatArray]] = BoundedMemo("coordinate columns")


def _key(points: Iterable[Point]) -> Coords:
    """Exact coordinates, flat: a memo key for a sequence of points."""
    return tuple([c for p in points for c in (p.x, p.y)])


def bounding_box(flat: Coords) -> Box:
    """The bounding box of non-empty flat coordinates, remembered (a unit's places, the same
    tuple, are asked about again and again)."""
    box = _BOUNDS.get(flat)
    if box is None:
        xs, ys = flat[0::2], flat[1::2]
        box = _BOUNDS.keep(flat, (min(xs), min(ys), max(xs), max(ys)))
    return box


def _columns(flat: Coords) -> tuple[FloatArray, FloatArray]:
    """The x and the y coordinates as (read-only) arrays, remembered like :func:`bounding_box`."""
    found = _COLUMNS.get(flat)
    if found is None:
        both = np.array(flat, dtype=np.float64)
        both.setflags(write=False)
        found = _COLUMNS.keep(flat, (both[0::2], both[1::2]))
    return found


def _apart(near: Box, far: Box, reach: float) -> bool:
    """Are two bounding boxes more than ``reach`` (and a hair) apart, so that no pair of
    points, one in each, is within ``reach``? A quick, safe "no" before the exact distances."""
    # the gaps along x and y, none where the boxes overlap (max(0.0, ...) by comparisons)
    dx, other = far[0] - near[2], near[0] - far[2]
    if other > dx:
        dx = other
    if dx < 0.0:
        dx = 0.0
    dy, other = far[1] - near[3], near[1] - far[3]
    if other > dy:
        dy = other
    if dy < 0.0:
        dy = 0.0
    return math.hypot(dx, dy) > reach + 1e-6


def _points(shapes: Sequence[Shape], x: float, y: float) -> list[int]:
    """Each shape's :meth:`Shape.point` answer for the point; its first test (the bounding
    box) inline, since most shapes are far from most points."""
    return [
        NO if x < s.mx0 or x > s.mx1 or y < s.my0 or y > s.my1 else s.point(x, y) for s in shapes
    ]


def _past(shapes: Sequence[Shape], x: float, y: float) -> list[tuple[int, Shape, int]]:
    """The shapes (with their indices and :meth:`Shape.point` answers) that do not hold
    the point: only these can block a sight line from it (see :meth:`Table._sight`).
    :func:`_points`, inline, keeping the shapes that do not answer ``YES``."""
    return [
        (k, s, at)
        for k, s in enumerate(shapes)
        if (at := NO if x < s.mx0 or x > s.mx1 or y < s.my0 or y > s.my1 else s.point(x, y)) != YES
    ]


def _sight_past(
    past: list[tuple[int, Shape, int]],
    held: list[int],
    ax: float,
    ay: float,
    bx: float,
    by: float,
) -> bool | None:
    """:meth:`Table._sight` from a (different) b, with the point tests worked out
    beforehand: ``past`` is :func:`_past` of a, ``held[k]`` is shape k's ``point`` of b.
    Each shape is judged on the same three answers, so the result is the same (the first
    test of :meth:`Shape.crossed`, the boxes, inline: most shapes are far from the line)."""
    unsure = False
    x0, x1 = (ax, bx) if ax < bx else (bx, ax)
    y0, y1 = (ay, by) if ay < by else (by, ay)
    for k, shape, at_a in past:
        at_b = held[k]
        if at_b == YES:
            continue
        if x1 < shape.x0 or x0 > shape.x1 or y1 < shape.y0 or y0 > shape.y1:
            continue
        crossed = shape.crossed(ax, ay, bx, by)
        if crossed == NO:
            continue
        if crossed == YES and at_a == NO and at_b == NO:
            return False
        unsure = True
    return None if unsure else True


def _within(dx: float, dy: float, reach: float) -> bool:
    """``np.hypot(dx, dy) <= reach`` (numpy's own answer in a close call: the same as the
    batch :meth:`Table.distances`), mostly without numpy's cost."""
    gap = math.hypot(dx, dy)
    if abs(gap - reach) > 1e-9 * (1.0 + reach):
        return gap < reach
    return bool(np.hypot(dx, dy) <= reach)


def _flat_coords(flat: Coords) -> FloatArray:
    return np.array(flat, dtype=np.float64).reshape(-1, 2)
