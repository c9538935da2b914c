"""Memory over a long run: resident size of one process after N, 2N, 4N, ... games.

Run:  python benchmarks/bench_memory.py [--games 100] [--doublings 4] [--players tactical]
                                        [--out benchmarks/results/memory.md]

Every cache the engine keeps is capped, so memory should level off however many games one
process plays. Each ruleset runs in a fresh process (the standard matchup, no results
store; memory, unlike speed, does not depend on the machine's load). A real run replaces its
worker processes every `WORKER_LIFE` games; `bench_long_run.py` measures that. The report gives the
resident size at each mark and the peak so far: a peak that keeps rising while the size
now does not would be a passing spike, not growth.
"""

from __future__ import annotations

import json
import subprocess
import sys

from _report import arguments, machine, publish

PROBE = """
import json, resource, sys
from kriegsspiel.sim import runner
from kriegsspiel.sim.matchup import build_matchup
from kriegsspiel.sim.runner import evaluate
runner.WORKER_LIFE = 10**9  # every game in this one process: what one process's memory does
ruleset, first, doublings, players = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
matchup = build_matchup(ruleset, None, [], f'{players},{players}')
marks, done = [], 0
for n in [first * 2 ** k for k in range(doublings + 1)]:
    evaluate(matchup, n - done, 1000 + done, workers=1)
    done = n
    with open('/proc/self/statm') as statm:
        now = int(statm.read().split()[1]) * resource.getpagesize() / 2**20
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    marks.append((n, now, peak, sys.getallocatedblocks()))
print(json.dumps(marks))
"""


Mark = tuple[int, float, float, int]  # games played, resident MiB now, peak MiB, heap blocks


def marks(ruleset: str, first: int, doublings: int, players: str) -> list[Mark]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, ruleset, str(first), str(doublings), players],
        capture_output=True,
        text=True,
        check=True,
    )
    return [
        (int(n), float(now), float(peak), int(blocks))
        for n, now, peak, blocks in json.loads(out.stdout.splitlines()[-1])
    ]


def main() -> None:
    parser = arguments(__doc__, "memory.md")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--doublings", type=int, default=4)
    parser.add_argument("--players", choices=("tactical", "random"), default="tactical")
    opts = parser.parse_args()
    rows = {
        r: marks(r, opts.games, opts.doublings, opts.players)
        for r in ("konflikt47", "bolt-action-1")
    }
    counts = [mark[0] for mark in rows["konflikt47"]]
    lines = [
        "# Memory benchmark",
        "",
        f"{machine()}.",
        f"Command: `python benchmarks/bench_memory.py --games {opts.games} "
        f"--doublings {opts.doublings} --players {opts.players}`.",
        "",
        "Resident memory (MiB) of one process after playing so many games of the standard "
        f"matchup ({opts.players} v {opts.players}): now, and (in brackets) the peak so far "
        "(read from /proc/self/statm and getrusage, which can differ by a MiB).",
        "",
        "| ruleset | " + " | ".join(f"{n} games" for n in counts) + " |",
        "|---|" + "---:|" * len(counts),
        *[
            f"| {r} | " + " | ".join(f"{now:.0f} ({peak:.0f})" for _, now, peak, _ in v) + " |"
            for r, v in rows.items()
        ],
        "",
        "Live Python heap, in thousands of allocated blocks (`sys.getallocatedblocks()`): it "
        "rises as the capped caches fill and falls when they start afresh.",
        "",
        "| ruleset | " + " | ".join(f"{n} games" for n in counts) + " |",
        "|---|" + "---:|" * len(counts),
        *[
            f"| {r} | " + " | ".join(f"{blocks / 1000:.0f}k" for *_, blocks in v) + " |"
            for r, v in rows.items()
        ],
        "",
    ]
    publish(opts.out, lines)


if __name__ == "__main__":
    main()
