"""Simulated games per second on one worker and on two, and memory over a long run.

Run:  python benchmarks/bench_sim.py [--games N] [--repeat R] [--out benchmarks/results/sim.md]

Each measurement is a whole ``evaluate`` run (no results store) of the standard matchup:
each ruleset's two sample armies on its default scenario, tactical against tactical, in a
fresh process (worker start-up and cold caches included, as a user's run has them).
Medians over ``--repeat`` runs, all in this one invocation, one worker and two taking
turns, so the ratios compare like with like. Memory: the peak resident size of a fresh
process that plays N games, then 2N.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys

from _report import arguments, machine, publish

MEMORY_PROBE = """
import resource, sys
from kriegsspiel.sim.matchup import build_matchup
from kriegsspiel.sim.runner import evaluate
evaluate(build_matchup(sys.argv[1], None, [], 'random,random'), int(sys.argv[2]), 1, workers=1)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


RATE_PROBE = """
import sys, time
from kriegsspiel.sim.matchup import build_matchup
from kriegsspiel.sim.runner import evaluate
ruleset, games, workers, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
matchup = build_matchup(ruleset, None, [], 'tactical,tactical')
start = time.perf_counter()
assert evaluate(matchup, games, seed, workers=workers).tally.games == games
print(games / (time.perf_counter() - start))
"""


def games_per_second(ruleset: str, games: int, workers: int, seed: int) -> float:
    """One run in a fresh process, so no run starts with caches an earlier one warmed."""
    out = subprocess.run(
        [sys.executable, "-c", RATE_PROBE, ruleset, str(games), str(workers), str(seed)],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.split()[-1])


def peak_rss_mib(ruleset: str, games: int) -> float:
    out = subprocess.run(
        [sys.executable, "-c", MEMORY_PROBE, ruleset, str(games)],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(out.stdout.split()[-1]) / 1024


def main() -> None:
    parser = arguments(__doc__, "sim.md")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--memory-games", type=int, default=100)
    opts = parser.parse_args()
    rows = []
    for ruleset in ("konflikt47", "bolt-action-1"):
        one: list[float] = []
        two: list[float] = []
        for r in range(opts.repeat):  # in pairs, so a slow spell of the machine hits both
            one.append(games_per_second(ruleset, opts.games, 1, r))
            two.append(games_per_second(ruleset, opts.games, 2, r))
        m1, m2 = statistics.median(one), statistics.median(two)
        ratios = sorted(b / a for a, b in zip(one, two, strict=True))
        small = peak_rss_mib(ruleset, opts.memory_games)
        large = peak_rss_mib(ruleset, 2 * opts.memory_games)
        rows.append((ruleset, m1, m2, statistics.median(ratios), ratios, small, large))
    load = os.getloadavg()[0]
    lines = [
        "# Simulation benchmark",
        "",
        f"{machine()}; load average {load:.2f} at the end of the run.",
        f"Command: `python benchmarks/bench_sim.py --games {opts.games} --repeat {opts.repeat} "
        f"--memory-games {opts.memory_games}`.",
        "",
        f"Games per second of a whole `evaluate` run of {opts.games} games (tactical v tactical, "
        f"standard matchup, no store), median of {opts.repeat} runs; the runs alternate one "
        "worker, two workers, with the same seed in each pair, and the speed-up is the median "
        "of the pairs' ratios (all of them, lowest first, in the next column). Peak memory of "
        f"one process playing {opts.memory_games} and {2 * opts.memory_games} random-v-random "
        "games.",
        "",
        "| ruleset | 1 worker games/s | 2 workers games/s | speed-up | each pair "
        "| peak MiB, N games | peak MiB, 2N games |",
        "|---|---:|---:|---:|---|---:|---:|",
        *[
            f"| {r} | {a:.2f} | {b:.2f} | {s:.2f}× | {', '.join(f'{x:.2f}' for x in each)} "
            f"| {m:.0f} | {n:.0f} |"
            for r, a, b, s, each, m, n in rows
        ],
        "",
    ]
    publish(opts.out, lines)


if __name__ == "__main__":
    main()
