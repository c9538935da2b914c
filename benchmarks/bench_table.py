"""Time line of sight on a 72x48 table with 12 features: scalar queries vs the LOS matrix.

Run:  python benchmarks/bench_table.py [--repeat N] [--out benchmarks/results/table.md]

Medians over repeated runs, all figures from the same run on the same machine. The points
are fixed by a seed. A table remembers every answer it worked out (by the points' exact
coordinates), so each timed run asks a fresh table, its spatial indexes built before timing
as they are in a game; the last row asks a table that has answered the same questions once.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from _report import arguments, machine, publish

from kriegsspiel.core.table import Point, Table, TerrainFeature, circle, rectangle

FEATURES = (
    TerrainFeature("farmhouse", "building", "hard", rectangle(30, 20, 38, 28), True),
    TerrainFeature("barn", "building", "hard", rectangle(44, 30, 52, 35), True),
    TerrainFeature("church", "building", "hard", rectangle(10, 8, 16, 18), True),
    TerrainFeature(
        "north wood", "rough ground", "soft", ((12, 32), (22, 30), (25, 42), (14, 45)), True
    ),
    TerrainFeature(
        "south wood", "rough ground", "soft", ((52, 4), (64, 6), (62, 16), (50, 14)), True
    ),
    TerrainFeature("hill crest", "rough ground", "none", circle(Point(62, 38), 5), True),
    TerrainFeature("hedge 1", "obstacle", "soft", rectangle(24, 4, 24.5, 18), False),
    TerrainFeature("hedge 2", "obstacle", "soft", rectangle(40, 10, 48, 10.5), False),
    TerrainFeature("wall", "obstacle", "hard", rectangle(4, 26, 14, 26.5), False),
    TerrainFeature("rubble", "rough ground", "hard", circle(Point(40, 40), 2.5), False),
    TerrainFeature("road", "road", "none", rectangle(0, 22, 72, 24), False),
    TerrainFeature("stream", "rough ground", "none", ((66, 0), (68, 0), (70, 48), (68, 48)), False),
)


def fresh_table() -> Table:
    """A new table with its spatial indexes built and nothing remembered about the points
    timed (the warm-up asks about points off the sample's ground)."""
    table = Table(features=FEATURES)
    table.line_of_sight(Point(0.5, 0.5), Point(71.5, 47.5))
    table.visibility([Point(0.5, 47.5)], [Point(71.5, 0.5)])
    return table


def median_ms(fn: Callable[[Table], object], repeat: int, *, same_table: bool = False) -> float:
    """Median wall time of ``fn`` on a fresh table each run (or, with ``same_table``, on one
    table that has already answered the same questions)."""
    kept = fresh_table()
    fn(kept)
    times = []
    for _ in range(repeat):
        table = kept if same_table else fresh_table()
        start = time.perf_counter()
        fn(table)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = arguments(__doc__, "table.md")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=47)
    opts = parser.parse_args()
    rng = random.Random(opts.seed)
    width, height = Table().width, Table().height

    def point() -> Point:
        return Point(rng.uniform(1, width - 1), rng.uniform(1, height - 1))

    pairs = [(point(), point()) for _ in range(1000)]
    origins = [point() for _ in range(20)]
    targets = [point() for _ in range(20)]
    blocked = sum(not fresh_table().line_of_sight(a, b) for a, b in pairs)

    def scalar_1000(table: Table) -> None:
        for a, b in pairs:
            table.line_of_sight(a, b)

    def scalar_400(table: Table) -> None:
        for a in origins:
            for b in targets:
                table.line_of_sight(a, b)

    r = opts.repeat
    scalar = median_ms(scalar_1000, r)
    scalar_matrix = median_ms(scalar_400, r)
    vector = median_ms(lambda t: t.visibility(origins, targets), r)
    distances = median_ms(lambda t: t.distances(origins, targets), r)
    remembered = median_ms(scalar_1000, r, same_table=True)
    rows = [
        ("1,000 scalar `line_of_sight` queries", scalar, scalar / 1000),
        ("20×20 matrix by scalar `line_of_sight` (400 pairs)", scalar_matrix, scalar_matrix / 400),
        ("20×20 matrix by `visibility` (400 pairs)", vector, vector / 400),
        ("20×20 `distances`", distances, distances / 400),
        ("1,000 `line_of_sight` queries asked before (remembered)", remembered, remembered / 1000),
    ]
    lines = [
        "# Table benchmark",
        "",
        f"{machine()}.",
        f"Command: `python benchmarks/bench_table.py --repeat {r} --seed {opts.seed}`. Medians; "
        "each run on a fresh table (indexes built, no answers remembered) but the last row's.",
        f"Table: 72×48 with {len(FEATURES)} features ({sum(f.blocks_line_of_sight for f in FEATURES)} "
        f"block line of sight); {blocked} of the 1,000 random sight lines are blocked.",
        "",
        "| query | median (ms) | per pair (µs) |",
        "|---|---:|---:|",
        *[f"| {name} | {ms:.3f} | {per * 1000:.2f} |" for name, ms, per in rows],
        "",
        f"`visibility` is {scalar_matrix / vector:.1f}× faster than the same 400 scalar queries; "
        f"a remembered answer is {scalar / remembered:.0f}× faster than a fresh one.",
        "",
    ]
    publish(opts.out, lines)


if __name__ == "__main__":
    main()
