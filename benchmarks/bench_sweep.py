"""A sweep on two workers: every cell on the same workers, against a fresh pair a cell.

Run:  python benchmarks/bench_sweep.py [--games N] [--repeat R] [--out benchmarks/results/sweep.md]

Workers get faster as they play (exact odds worked out once, sight and moves remembered),
so a sweep hands all its cells to one set of workers (``runner.Workers``) rather than
starting two fresh ones for each cell. This measures what that saves on the shipped sweep
(``konflikt47-walker-or-tank``: every matchup it plays, N games each, tactical v
tactical, no results store), each run in a fresh process, the two ways taking turns with
the same seeds. It reports wall time, medians over R pairs, and each pair's ratio.

CPU time is not reported: worker processes started from the forkserver (as a process with
threads starts them) are not this process's children, so ``getrusage`` misses their time
and the fresh runs' CPU came out lower than the shared runs', which cannot be.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys

from _report import arguments, machine, publish

PROBE = """
import sys, time
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
print(len(cells), time.perf_counter() - start)
"""


def run(games: int, how: str) -> tuple[int, float]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(games), how], capture_output=True, text=True, check=True
    )
    cells, wall = out.stdout.split()
    return int(cells), float(wall)


def main() -> None:
    parser = arguments(__doc__, "sweep.md")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    opts = parser.parse_args()
    fresh: list[float] = []
    shared: list[float] = []
    cells = 0
    for _ in range(opts.repeat):  # in pairs, so a slow spell of the machine hits both
        cells, wall = run(opts.games, "fresh")
        fresh.append(wall)
        shared.append(run(opts.games, "shared")[1])
    ratios = sorted(f / s for f, s in zip(fresh, shared, strict=True))
    load = os.getloadavg()[0]
    lines = [
        "# Sweep benchmark: one set of workers for every cell",
        "",
        f"{machine()}; load average {load:.2f} at the end of the run.",
        f"Command: `python benchmarks/bench_sweep.py --games {opts.games} --repeat {opts.repeat}`.",
        "",
        f"The shipped sweep `konflikt47-walker-or-tank`: the {cells} matchups it plays, "
        f"{opts.games} games each, on two workers, no results store; each run in a fresh "
        f"process, median of {opts.repeat} pairs (fresh, then shared, same seeds). The ratio "
        "is fresh / shared per pair, median (all pairs, lowest first). (No CPU time: see the "
        "script's docstring.)",
        "",
        "| workers | wall s |",
        "|---|---:|",
        f"| a fresh pair for each cell (before) | {statistics.median(fresh):.2f} |",
        f"| one pair for the whole sweep (now) | {statistics.median(shared):.2f} |",
        "",
        f"Wall time, fresh / shared: {statistics.median(ratios):.2f}× "
        f"({', '.join(f'{x:.2f}' for x in ratios)}).",
        "",
    ]
    publish(opts.out, lines)


if __name__ == "__main__":
    main()
