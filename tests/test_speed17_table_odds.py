"""Round 17's fast paths in the table's sight, each held to the plain one."""

from __future__ import annotations

import numpy as np
import pytest

from kriegsspiel.core.table import Point, Table, TerrainFeature, rectangle


@pytest.mark.parametrize("reach", [0.5, 6.0, 24.0])
def test_targets_at_the_edge_of_reach_along_either_axis_are_answered_as_one_by_one(
    reach: float,
) -> None:
    """:meth:`Table.sees_within_each` turns away a target whose box misses the origins'
    box widened by the reach before the exact gap: targets a hair either side of the
    reach (straight off along x or y, and corner to corner) get the matrices' answers."""
    table = Table(
        features=(TerrainFeature("house", "building", "hard", rectangle(30, 30, 34, 34), True),)
    )
    origins = (10.0, 10.0, 12.0, 11.0)
    corner = reach / 2**0.5
    targets: list[tuple[float, ...]] = []
    for step in (-1e-5, -1e-7, 0.0, 1e-7, 1e-6, 3e-6, 1e-5):
        far = reach + step
        targets += [
            (12.0 + far, 11.0),
            (10.0 - far, 10.0),
            (12.0, 11.0 + far),
            (10.0, 10.0 - far),
            (12.0 + corner + step, 11.0 + corner + step),
            (12.0 + far, 11.0, 50.0, 50.0),  # a unit strung out past the reach
        ]
    points = [Point(origins[i], origins[i + 1]) for i in range(0, len(origins), 2)]
    expected = []
    for flat in targets:
        them = [Point(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]
        seen = table.visibility(points, them) & (table.distances(points, them) <= reach)
        expected.append(bool(np.any(seen)))
    assert Table(features=table.features).sees_within_each(origins, targets, reach) == expected
    assert any(expected) and not all(expected)
