"""A sweep on two workers: every cell on the same workers, against a fresh pair a cell.

Run:  python benchmarks/bench_sweep.py [--games N] [--repeat R] [--out benchmarks/results/sweep.md]

Workers get faster as they play (exact odds worked out once, sight and moves remembered),
so a sweep hands all its cells to one set of workers (``runner.Workers``) rather than
starting two fresh ones for each cell. This measures what that saves on the shipped sweep
(``konflikt47-walker-or-tank``: every matchup it plays, N games each, tactical v
tactical, no results store), each run in a fresh process, the two ways taking turns with
the same seeds. It reports wall time and CPU time (this process and its workers together),
medians over R pairs, and each pair's ratio.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys

from _report import arguments, machine, publish

PROBE = """
import resource, sys, time
from kriegsspiel.sim.runner import Workers, evaluate
from kriegsspiel.sim.sweep import load_sweep, played
games, shared = int(sys.argv[1]), sys.argv[2] == 'shared'
sweep = load_sweep('konflikt47-walker-or-tank')
cells = played(sweep)
start = time.perf_counter()
if shared:
    with Workers(2) as pool:
        for matchup in cells:
            evaluate(matchup, games, sweep.seed, pool=pool)
else:
    for matchup in cells:
        evaluate(matchup, games, sweep.seed, workers=2)
wall = time.perf_counter() - start
cpu = sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF,
          resource.RUSAGE_CHILDREN) for f in ('ru_utime', 'ru_stime'))
print(len(cells), wall, cpu)
"""


def run(games: int, how: str) -> tuple[int, float, float]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(games), how], capture_output=True, text=True, check=True
    )
    cells, wall, cpu = out.stdout.split()
    return int(cells), float(wall), float(cpu)


def main() -> None:
    parser = arguments(__doc__, "sweep.md")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    opts = parser.parse_args()
    fresh: list[tuple[float, float]] = []
    shared: list[tuple[float, float]] = []
    cells = 0
    for _ in range(opts.repeat):  # in pairs, so a slow spell of the machine hits both
        cells, *f = run(opts.games, "fresh")
        _, *s = run(opts.games, "shared")
        fresh.append((f[0], f[1]))
        shared.append((s[0], s[1]))

    def med(runs: list[tuple[float, float]], k: int) -> float:
        return statistics.median(r[k] for r in runs)

    ratios = [sorted(f[k] / s[k] for f, s in zip(fresh, shared, strict=True)) for k in (0, 1)]
    load = os.getloadavg()[0]
    lines = [
        "# Sweep benchmark: one set of workers for every cell",
        "",
        f"{machine()}; load average {load:.2f} at the end of the run.",
        f"Command: `python benchmarks/bench_sweep.py --games {opts.games} --repeat {opts.repeat}`.",
        "",
        f"The shipped sweep `konflikt47-walker-or-tank`: the {cells} matchups it plays, "
        f"{opts.games} games each, on two workers, no results store; each run in a fresh "
        f"process, median of {opts.repeat} pairs (fresh, then shared, same seeds). CPU is "
        "the run's process and its workers together. The ratio is fresh / shared per pair, "
        "median (all pairs, lowest first).",
        "",
        "| workers | wall s | CPU s |",
        "|---|---:|---:|",
        f"| a fresh pair for each cell (before) | {med(fresh, 0):.2f} | {med(fresh, 1):.2f} |",
        f"| one pair for the whole sweep (now) | {med(shared, 0):.2f} | {med(shared, 1):.2f} |",
        "",
        *[
            f"{what}, fresh / shared: {statistics.median(r):.2f}× "
            f"({', '.join(f'{x:.2f}' for x in r)})."
            for what, r in zip(("Wall time", "CPU time"), ratios, strict=True)
        ],
        "",
    ]
    publish(opts.out, lines)


if __name__ == "__main__":
    main()
