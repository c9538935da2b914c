"""The battlefield: a table in inches with terrain features, distances and line of sight.

This module knows geometry, not rules. A :class:`TerrainFeature` carries the few facts
geometry needs (its outline, whether it blocks line of sight, the cover it gives, which kinds
of mover may not enter it) and a free-text ``category`` that only a ruleset's terrain table
interprets ("rough ground", "building", "road", ...).

shapely 2 does the geometry and stays behind this module and its two helpers (the outline
tests of :mod:`kriegsspiel.core.table_shapes`, the batches of :mod:`kriegsspiel.core.table_batch`):
callers pass and receive :class:`Point`, :class:`TerrainFeature`, plain tuples and numpy arrays,
never shapely objects.
Each :class:`Table` builds its shapely polygons and STRtree spatial indexes once, on first use,
and remembers its answers by exact coordinates (a table never changes, so they never go stale).

The rules every query follows (the same in the one-pair questions here and the batches of
:class:`~kriegsspiel.core.table_batch.TableBatches`):

- A point *is in* a feature when the feature's closed polygon covers it (its edge counts).
- A straight line *passes through* a feature when the open segment meets the polygon's
  interior: running along an edge or touching a corner is not passing through.
- Every answer is symmetric in its two points where the rule is (line of sight is; cover and
  movement are about a target and a direction, so they are not).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cached_property, lru_cache
from typing import Any, Final, Literal, get_args

import numpy as np
import numpy.typing as npt
import shapely

from kriegsspiel.core.memo import MEMO_LIMIT
from kriegsspiel.core.table_batch import Coords, TableBatches, bounding_box
from kriegsspiel.core.table_shapes import (
    MARGIN,
    NO,
    UNSURE,
    YES,
    Shape,
    interiors_meet,
    segment_between,
    shapes_crossed,
    shapes_crossed_among,
    shapes_holding,
)
from kriegsspiel.errors import UsageError

Cover = Literal["none", "soft", "hard"]
COVERS: Final[tuple[Cover, ...]] = get_args(Cover)
_COVER_RANK: Final[dict[str, int]] = {name: rank for rank, name in enumerate(COVERS)}

#: How close to the target (inches) a feature the line of fire passes through gives cover.
COVER_REACH: Final[float] = 1.0
#: The mover kind a wreck is impassable to by default.
VEHICLE: Final[str] = "vehicle"
#: Inches a feature's outline is drawn in by for the quick "passes through" test.
_INSET: Final[float] = 0.01


# -- value types ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Point:
    """A position on the table, in inches from the bottom-left corner."""

    x: float
    y: float

    def distance_to(self, other: Point) -> float:
        """Straight-line distance in inches."""
        return math.dist((self.x, self.y), (other.x, other.y))


@dataclass(frozen=True, slots=True)
class TerrainFeature:
    """A piece of terrain: a simple polygon (vertices in inches) and what it does.

    ``category`` is a name from the ruleset's terrain table; this module never reads it.
    ``impassable_to`` names the kinds of mover (e.g. ``"vehicle"``) that may not enter it.
    """

    name: str
    category: str
    cover: Cover
    polygon: tuple[tuple[float, float], ...]
    blocks_line_of_sight: bool
    impassable_to: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.cover not in COVERS:
            raise UsageError(
                f"Terrain feature {self.name!r}: cover must be one of {', '.join(COVERS)}, "
                f"not {self.cover!r}."
            )
        vertices = tuple((float(x), float(y)) for x, y in self.polygon)
        if len(vertices) > 1 and vertices[0] == vertices[-1]:
            vertices = vertices[:-1]  # an explicitly closed ring: drop the repeat
        if len(vertices) < 3 or not all(math.isfinite(c) for v in vertices for c in v):
            raise UsageError(
                f"Terrain feature {self.name!r}: a polygon needs at least 3 finite vertices."
            )
        polygon = shapely.Polygon(vertices)
        if not shapely.is_valid(polygon) or polygon.area <= 0:
            reason = shapely.is_valid_reason(polygon)
            raise UsageError(
                f"Terrain feature {self.name!r}: the polygon is not a simple area ({reason})."
            )
        object.__setattr__(self, "polygon", vertices)
        object.__setattr__(self, "impassable_to", frozenset(self.impassable_to))

    @property
    def area(self) -> float:
        """Area in square inches."""
        return float(shapely.Polygon(self.polygon).area)


def rectangle(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    """The vertices of an axis-aligned rectangle with opposite corners (x0, y0), (x1, y1)."""
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def circle(centre: Point, radius: float, vertices: int = 16) -> tuple[tuple[float, float], ...]:
    """The vertices of a regular polygon inscribed in a circle (a round template)."""
    if radius <= 0 or vertices < 3:
        raise UsageError("A circle needs a positive radius and at least 3 vertices.")
    step = 2 * math.pi / vertices
    return tuple(
        (centre.x + radius * math.cos(i * step), centre.y + radius * math.sin(i * step))
        for i in range(vertices)
    )


# -- the table ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table(TableBatches):
    """An immutable rectangular table (inches) with terrain features.

    Changes return a new table (:meth:`with_features`, :meth:`wreck`); each table builds its
    spatial indexes once, on first use, and never pickles them. Its questions about many
    points at once (:meth:`visibility`, :meth:`sees_within`, :meth:`nearest_in_sight`, ...)
    are those of :class:`~kriegsspiel.core.table_batch.TableBatches`, which it inherits.
    """

    width: float = 72.0
    height: float = 48.0
    features: tuple[TerrainFeature, ...] = field(default=())

    def __post_init__(self) -> None:
        if not (math.isfinite(self.width) and math.isfinite(self.height)):
            raise UsageError("The table's width and height must be finite.")
        if self.width <= 0 or self.height <= 0:
            raise UsageError(f"A table needs a positive size, not {self.width}x{self.height}.")
        object.__setattr__(self, "features", tuple(self.features))

    def __getstate__(self) -> dict[str, Any]:
        # only the fields: the shapely caches are rebuilt on demand after unpickling
        return {f.name: getattr(self, f.name) for f in fields(self)}

    # -- cached geometry (shapely stays in here) ------------------------------------------------
    @cached_property
    def _polygons(self) -> Any:
        polygons = np.array([shapely.Polygon(f.polygon) for f in self.features], dtype=object)
        shapely.prepare(polygons)
        return polygons

    @cached_property
    def _tree(self) -> Any:
        return shapely.STRtree(self._polygons)

    @cached_property
    def _insets(self) -> Any:
        """Each polygon drawn in by ``_INSET`` (prepared), kept only where it lies strictly
        inside the polygon: a segment that meets it certainly meets the polygon's interior,
        so just the other candidates need the full interior test (the same answers)."""
        insets = shapely.buffer(self._polygons, -_INSET, join_style="mitre")
        inside = shapely.contains_properly(self._polygons, insets) & ~shapely.is_empty(insets)
        insets = np.where(inside, insets, shapely.Polygon())
        shapely.prepare(insets)
        return insets

    @cached_property
    def _blocker_index(self) -> npt.NDArray[np.intp]:
        """Indices (into ``features``) of the features that block line of sight."""
        return np.array(
            [i for i, f in enumerate(self.features) if f.blocks_line_of_sight], dtype=np.intp
        )

    @cached_property
    def _blocker_polygons(self) -> Any:
        return self._polygons[self._blocker_index]

    @cached_property
    def _blocker_insets(self) -> Any:
        return self._insets[self._blocker_index]

    @cached_property
    def _blocker_tree(self) -> Any:
        return shapely.STRtree(self._blocker_polygons)

    @cached_property
    def _cover_ranks(self) -> tuple[int, ...]:
        """Each feature's cover as its rank in ``COVERS`` (plain ints: read one at a time)."""
        return tuple(_COVER_RANK[f.cover] for f in self.features)

    @cached_property
    def _shapes(self) -> tuple[Shape, ...]:
        return tuple(Shape.of(f.polygon) for f in self.features)

    @cached_property
    def _blocker_shapes(self) -> tuple[Shape, ...]:
        return tuple(self._shapes[i] for i in self._blocker_index.tolist())

    @cached_property
    def _memo(self) -> dict[str, dict[Any, Any]]:
        """Answers already worked out, per query, keyed by exact coordinates.

        The table never changes, so an answer never goes stale; each query's store is
        emptied when it grows past ``MEMO_LIMIT`` (the answers stay the same either way).
        """
        return {}

    @cached_property
    def _callers(self) -> dict[str, dict[Any, Any]]:
        """The stores :meth:`memo` hands out, by name (apart from the table's own)."""
        return {}

    def _store(self, query: str) -> dict[Any, Any]:
        store = self._memo.get(query)
        if store is None or len(store) >= MEMO_LIMIT:
            store = self._memo[query] = {}
        return store

    def memo(self, name: str) -> dict[Any, Any]:
        """A store for a caller's answers that depend on this table (and what the key says).

        Ask for it each time rather than keeping it: it is replaced by an empty one when it
        grows large. Equal tables made by :func:`shared_table` share their stores.
        """
        stores = self._callers
        store = stores.get(name)  # (_store's rule, inline: callers ask very often)
        if store is None or len(store) >= MEMO_LIMIT:
            store = stores[name] = {}
        return store

    # -- single points ---------------------------------------------------------------------------
    def contains(self, point: Point) -> bool:
        """Is the point on the table (its edge included)?"""
        return 0.0 <= point.x <= self.width and 0.0 <= point.y <= self.height

    def clamp(self, point: Point) -> Point:
        """The nearest point on the table (the point itself when it is on the table)."""
        x = float(min(max(point.x, 0.0), self.width))
        return Point(x, float(min(max(point.y, 0.0), self.height)))

    def features_at(self, point: Point) -> list[TerrainFeature]:
        """The features whose polygon covers the point (its edge included), in table order."""
        memo = self._memo.get("features_at")  # (_store, inline on a hot path)
        if memo is None or len(memo) >= MEMO_LIMIT:
            memo = self._store("features_at")
        key = (point.x, point.y)
        found = memo.get(key)
        if found is None:
            found = memo[key] = tuple(self.features[i] for i in self._covering(point))
        return list(found)

    def distance(self, a: Point, b: Point) -> float:
        """Straight-line distance in inches (terrain does not lengthen it)."""
        return a.distance_to(b)

    # -- lines -----------------------------------------------------------------------------------
    def line_of_sight(self, a: Point, b: Point) -> bool:
        """Can a model at ``a`` see one at ``b`` (and so, the same answer, ``b`` see ``a``)?

        The rule: the sight line is the straight segment between the two points; it is
        blocked when it passes through the interior of any feature that blocks line of sight,
        *except* a feature that contains ``a`` or ``b`` itself (edge included): a model
        inside a building or a wood sees out of it and can be seen in it. A line that only
        runs along a feature's edge or touches a corner is not blocked. Models are points;
        heights and partial visibility are the ruleset's business. Symmetric by construction
        (the segment is always built from the lower point to the higher one).
        """
        memo = self._store("line_of_sight")
        key = (a.x, a.y, b.x, b.y)
        answer = memo.get(key)
        if answer is None:
            answer = memo[key] = self._line_of_sight(a, b)
        return answer

    def _line_of_sight(self, a: Point, b: Point) -> bool:
        if a == b or not len(self._blocker_index):
            return True
        quick = self._sight(self._blocker_shapes, a.x, a.y, b.x, b.y)
        return self._shapely_sight(a, b) if quick is None else quick

    @staticmethod
    def _sight(shapes: Sequence[Shape], ax: float, ay: float, bx: float, by: float) -> bool | None:
        """Line of sight between two different points past these blockers' outlines, or None
        where a close call needs shapely (see :class:`Shape`)."""
        unsure = False
        for shape in shapes:
            crossed = shape.crossed(ax, ay, bx, by)
            if crossed == NO:
                continue
            at_a = shape.point(ax, ay)
            if at_a == YES:
                continue
            at_b = shape.point(bx, by)
            if at_b == YES:
                continue
            if crossed == YES and at_a == NO and at_b == NO:
                return False
            unsure = True
        return None if unsure else True

    def _shapely_sight(self, a: Point, b: Point) -> bool:
        """:meth:`line_of_sight` by shapely alone."""
        segment = segment_between(a, b)
        candidates = self._blocker_tree.query(segment, predicate="intersects")
        if not len(candidates):
            return True
        polygons = self._blocker_polygons[candidates]
        # a blocker an end point is in (edge included) does not block
        foreign = ~(
            shapely.intersects_xy(polygons, a.x, a.y) | shapely.intersects_xy(polygons, b.x, b.y)
        )
        if not foreign.any():
            return True
        return not interiors_meet(
            segment, polygons[foreign], self._blocker_insets[candidates][foreign]
        ).any()

    def cover_between(
        self,
        a: Point,
        b: Point,
        *,
        reach: float = COVER_REACH,
        astride: frozenset[int] = frozenset(),
    ) -> Cover:
        """The cover a target at ``b`` has from a shooter at ``a``: "none", "soft" or "hard".

        The rule, kept simple: the best cover (hard beats soft beats none) of the features
        the target is in (edge included), and of the features the line of fire passes
        through within ``reach`` inches (default 1") of the target. A feature the shooter is
        in but the target is not gives the target nothing (shooting out of a wood). Whether
        the target can be seen at all is :meth:`line_of_sight`'s question.

        A feature of ``astride`` (by index: a wall a vehicle's centre stands on) that the
        target is in counts only where it stands between the shooter and the target: the
        line of fire runs at least as far through it within ``reach`` before reaching the
        target as it would run on through it beyond (the target at or past its middle, as
        the shooter sees it); with the wall behind it, none.
        """
        memo = self._memo.get("cover_between")  # (_store, inline on a hot path)
        if memo is None or len(memo) >= MEMO_LIMIT:
            memo = self._store("cover_between")
        key = (a.x, a.y, b.x, b.y, reach, astride)
        cover: Cover | None = memo.get(key)
        if cover is None:
            cover = memo[key] = self._cover_between(a, b, reach, astride)
        return cover

    def _behind(self, j: int, a: Point, b: Point, reach: float) -> bool:
        """Does feature ``j``, which holds the target at ``b``, lie more behind the target
        than before it, along the line of fire from ``a`` (within ``reach`` either way)?"""
        gap = a.distance_to(b)
        ux, uy = (b.x - a.x) / gap, (b.y - a.y) / gap
        polygon = self._polygons[j]
        ahead = shapely.LineString(
            [(b.x - ux * min(reach, gap), b.y - uy * min(reach, gap)), (b.x, b.y)]
        )
        beyond = shapely.LineString([(b.x, b.y), (b.x + ux * reach, b.y + uy * reach)])
        before = float(shapely.intersection(polygon, ahead).length)
        after = float(shapely.intersection(polygon, beyond).length)
        return before < after - 1e-9

    def in_the_open(self, x: float, y: float, *, reach: float = COVER_REACH) -> bool:
        """Is the point (x, y) more than ``reach`` inches from every feature's box? Then
        :meth:`cover_between` gives a target there "none" from anywhere: no feature holds
        it, and none is near enough for a line of fire to pass through within ``reach``."""
        return not self._near(Point(x, y), reach)

    def _cover_between(self, a: Point, b: Point, reach: float, astride: frozenset[int]) -> Cover:
        at_b = self._covering(b)
        same = (a.x, a.y) == (b.x, b.y)  # (Point's ==)
        behind = (
            {j for j in at_b if j in astride and self._behind(j, a, b, reach)}
            if astride and not same
            else set()
        )
        chosen = set(at_b) - behind
        shapes = () if same else self._near(b, reach)
        if shapes:
            gap = a.distance_to(b)
            t = 1.0 if gap <= reach else reach / gap
            nx, ny = b.x + (a.x - b.x) * t, b.y + (a.y - b.y) * t
            # _passes_through(near, b), asking only the features near b (the same answer)
            passed: Collection[int] | None = (
                () if (nx, ny) == (b.x, b.y) else shapes_crossed_among(shapes, nx, ny, b.x, b.y)
            )
            if passed is None:
                passed = self._passes_through(Point(nx, ny), b)
            if passed:
                at_a = set(self._covering(a))
                chosen.update(j for j in passed if (j not in at_a or j in at_b) and j not in behind)
        if not chosen:
            return "none"
        ranks = self._cover_ranks
        return COVERS[max([ranks[j] for j in chosen])]

    def path_crosses(self, a: Point, b: Point) -> list[TerrainFeature]:
        """The features a straight move from ``a`` to ``b`` enters, in table order.

        That is every feature whose interior the move passes through, the ones it starts or
        ends in included; skirting an edge enters nothing, and a move of length 0 enters
        nothing.
        """
        features = self.features
        return [features[j] for j in self.path_indices(a, b)]

    def path_indices(self, a: Point, b: Point) -> list[int]:
        """The indices (into ``features``, ascending) of the features :meth:`path_crosses`
        lists, for callers that want to know which features rather than what they are."""
        if a.x == b.x and a.y == b.y:  # (Point's ==, no call)
            return []
        return sorted(self._passes_through(a, b))

    def sweep_indices(
        self, coords: Coords, dx: float, dy: float, known: Collection[int] = ()
    ) -> list[int]:
        """The indices (ascending) of the features, ``known`` left out, that points moving
        together by (dx, dy) enter or end in: for each point (x, y) of the flat ``coords``,
        :meth:`path_indices` of its straight move to (x + dx, y + dy) and :meth:`indices_at`
        of that end (the same answers, without remembering them per point).

        Only the features whose bounding box meets the box the points sweep are asked about
        (no other can hold an end or meet a path), so a move far from any is cheap.
        """
        if not coords or not self.features:
            return []
        x0, y0, x1, y1 = bounding_box(coords)
        # the box the points sweep, widened by MARGIN (the test shapes_crossed starts with)
        if dx < 0.0:
            x0 += dx
        else:
            x1 += dx
        if dy < 0.0:
            y0 += dy
        else:
            y1 += dy
        x0, y0, x1, y1 = x0 - MARGIN, y0 - MARGIN, x1 + MARGIN, y1 + MARGIN
        near = [
            (j, s)
            for j, s in enumerate(self._shapes)
            if j not in known and s.x0 <= x1 and x0 <= s.x1 and s.y0 <= y1 and y0 <= s.y1
        ]
        if not near:
            return []
        found: set[int] = set()
        moving = dx != 0.0 or dy != 0.0
        for i in range(0, len(coords), 2):
            ax, ay = coords[i], coords[i + 1]
            bx, by = ax + dx, ay + dy
            for j, s in near:
                if j not in found:
                    at = s.point(bx, by)
                    if at == YES:
                        found.add(j)
                    elif at == UNSURE:  # a close call: shapely's answer, for every feature
                        found.update(k for k in self.indices_at(bx, by) if k not in known)
            if moving and (ax != bx or ay != by):
                crossed = shapes_crossed_among(
                    [(j, s) for j, s in near if j not in found], ax, ay, bx, by
                )
                if crossed is None:
                    crossed = tuple(
                        k
                        for k in self._passes_through(Point(ax, ay), Point(bx, by))
                        if k not in known
                    )
                found.update(crossed)
            if len(found) == len(near):
                break
        return sorted(found)

    def near_path(
        self, among: Sequence[int], a: Point, b: Point, reach: float
    ) -> list[tuple[int, float]]:
        """The features of ``among`` (indices, ascending) whose outline comes within
        ``reach`` of the straight path from ``a`` to ``b`` (the point ``a`` where they are
        one), each with its distance from the path: what the path, widened by ``reach`` on
        every side, touches. Bounding boxes first, so a path far from every one asks
        shapely nothing; then one exact test against the prepared outlines (no sampling)."""
        x0, x1 = (a.x, b.x) if a.x <= b.x else (b.x, a.x)
        y0, y1 = (a.y, b.y) if a.y <= b.y else (b.y, a.y)
        x0, y0, x1, y1 = x0 - reach, y0 - reach, x1 + reach, y1 + reach
        shapes = self._shapes
        near = [
            j
            for j in among
            if (s := shapes[j]).x0 <= x1 and x0 <= s.x1 and s.y0 <= y1 and y0 <= s.y1
        ]
        if not near:
            return []
        path = shapely.Point(a.x, a.y) if a == b else segment_between(a, b)
        touched = shapely.dwithin(self._polygons[near], path, reach)  # (prepared: _polygons)
        if not touched.any():
            return []
        hit = [j for j, t in zip(near, touched.tolist(), strict=True) if t]
        return list(zip(hit, shapely.distance(self._polygons[hit], path).tolist(), strict=True))

    # -- new tables ------------------------------------------------------------------------------
    def with_features(self, *features: TerrainFeature) -> Table:
        """A new table with these features added."""
        return replace(self, features=self.features + features)

    def wreck(
        self,
        at: Point,
        radius: float = 1.5,
        name: str = "wreck",
        *,
        category: str = "obstacle",
        impassable_to: frozenset[str] = frozenset({VEHICLE}),
    ) -> Table:
        """A new table with a wreck at ``at``: a round feature of ``radius`` inches.

        A wreck gives hard cover, does not block line of sight and is impassable to
        vehicles (``impassable_to``); its ``category`` is the ruleset's to choose.
        """
        return self.with_features(
            TerrainFeature(
                name=name,
                category=category,
                cover="hard",
                polygon=circle(at, radius),
                blocks_line_of_sight=False,
                impassable_to=impassable_to,
            )
        )

    # -- helpers -----------------------------------------------------------------------------------
    def _covering(self, point: Point) -> tuple[int, ...]:
        """Indices of the features covering the point, ascending."""
        return self.indices_at(point.x, point.y)

    def indices_at(self, x: float, y: float) -> tuple[int, ...]:
        """The indices (into ``features``, ascending) of the features covering the point
        (x, y): :meth:`features_at` without making a :class:`Point` or a list, for callers
        that ask about many points."""
        if not self.features:
            return ()
        memo = self._memo.get("covering")  # (_store, inline on a hot path)
        if memo is None or len(memo) >= MEMO_LIMIT:
            memo = self._store("covering")
        key = (x, y)
        found = memo.get(key)
        if found is None:
            found = shapes_holding(self._shapes, x, y)
            if found is None:
                query = self._tree.query(shapely.Point(x, y), predicate="intersects")
                found = tuple(sorted(query.tolist()))
            memo[key] = found
        return found

    def _near(self, point: Point, reach: float) -> tuple[tuple[int, Shape], ...]:
        """The features (index and outline, in table order) whose bounding box comes within
        ``reach`` (and a hair) of the point: the only ones a segment from the point no
        longer than ``reach`` can meet, since every other's box misses the segment's box
        widened by ``MARGIN`` (the test :func:`shapes_crossed` starts with)."""
        memo = self._memo.get("near")  # (_store, inline on a hot path)
        if memo is None or len(memo) >= MEMO_LIMIT:
            memo = self._store("near")
        key = (point.x, point.y, reach)
        found = memo.get(key)
        if found is None:
            # the hair covers MARGIN and the rounding of the segment's far end
            x, y, r = point.x, point.y, reach * (1.0 + 1e-9) + 1e-6
            found = memo[key] = tuple(
                [
                    (j, s)
                    for j, s in enumerate(self._shapes)
                    if s.x0 - r <= x <= s.x1 + r and s.y0 - r <= y <= s.y1 + r
                ]
            )
        return found

    def _passes_through(self, a: Point, b: Point) -> frozenset[int]:
        """Indices of the features whose interior the segment a-b meets."""
        if not self.features or (a.x == b.x and a.y == b.y):  # (Point's ==, no call)
            return frozenset()
        memo = self._memo.get("passes_through")  # (_store, inline on a hot path)
        if memo is None or len(memo) >= MEMO_LIMIT:
            memo = self._store("passes_through")
        key = (a.x, a.y, b.x, b.y)
        found = memo.get(key)
        if found is None:
            quick = shapes_crossed(self._shapes, a.x, a.y, b.x, b.y)
            if quick is None:
                segment = segment_between(a, b)
                near = self._tree.query(segment, predicate="intersects")
                crossing = interiors_meet(segment, self._polygons[near], self._insets[near])
                quick = tuple(near[crossing].tolist())
            found = memo[key] = frozenset(quick)
        return found


@lru_cache(maxsize=32)
def shared_table(table: Table) -> Table:
    """The first table made equal to ``table`` (per process), so equal tables share their
    spatial indexes and remembered answers (an answer depends only on the table)."""
    return table
