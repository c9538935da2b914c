"""Memory over a long run: peak resident size of one process after N, 2N, 4N, ... games.

Run:  python benchmarks/bench_memory.py [--games 100] [--doublings 4] [--out benchmarks/results/memory.md]

Every cache the engine keeps is capped, so the peak should level off however many games
one process plays. Each ruleset runs in a fresh process (random v random, the standard
matchup, no results store; memory, unlike speed, does not depend on the machine's load).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from _report import machine, publish

PROBE = """
import json, resource, sys
from kriegsspiel.sim.matchup import build_matchup
from kriegsspiel.sim.runner import evaluate
ruleset, first, doublings = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
matchup = build_matchup(ruleset, None, [], 'random,random')
marks, done = [], 0
for n in [first * 2 ** k for k in range(doublings + 1)]:
    evaluate(matchup, n - done, 1000 + done, workers=1)
    done = n
    marks.append((n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))
print(json.dumps(marks))
"""


def marks(ruleset: str, first: int, doublings: int) -> list[tuple[int, float]]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, ruleset, str(first), str(doublings)],
        capture_output=True,
        text=True,
        check=True,
    )
    return [(int(n), float(mib)) for n, mib in json.loads(out.stdout.splitlines()[-1])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--doublings", type=int, default=4)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "memory.md")
    opts = parser.parse_args()
    rows = {r: marks(r, opts.games, opts.doublings) for r in ("konflikt47", "bolt-action-1")}
    counts = [n for n, _ in rows["konflikt47"]]
    lines = [
        "# Memory benchmark",
        "",
        f"{machine()}.",
        f"Command: `python benchmarks/bench_memory.py --games {opts.games} "
        f"--doublings {opts.doublings}`.",
        "",
        "Peak resident memory (MiB) of one process after playing so many games of the "
        "standard matchup (random v random).",
        "",
        "| ruleset | " + " | ".join(f"{n} games" for n in counts) + " |",
        "|---|" + "---:|" * len(counts),
        *[f"| {r} | " + " | ".join(f"{m:.0f}" for _, m in v) + " |" for r, v in rows.items()],
        "",
    ]
    publish(opts.out, lines)


if __name__ == "__main__":
    main()
