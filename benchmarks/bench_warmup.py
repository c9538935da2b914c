"""The work two workers repeat, counted in Python calls: a figure slow spells cannot move.

Run:  python benchmarks/bench_warmup.py [--games N] [--out benchmarks/results/warmup.md]

Two workers each work out their own exact odds, caps and remembered answers, so together
they do more than one worker playing the same games. This counts it: the N games of an
``evaluate`` (tactical v tactical, standard matchup, seed 0) played in one fresh process,
then split as the runner hands them to two workers (alternate tasks) and each half played
in a fresh process of its own, every call counted by cProfile. The repeated calls are the
halves' less the whole; ``2 x whole / (half + half)`` is the speed-up two workers could
reach if a call were all that time is made of (wall-clock ratios are in sim.md).
"""

from __future__ import annotations

import subprocess
import sys

from _report import arguments, machine, publish

PROBE = """
import cProfile, pstats, sys
from kriegsspiel.sim.matchup import build_matchup
from kriegsspiel.sim.outcome import play_batch
from kriegsspiel.sim.runner import batches, game_seed
ruleset, games, part = sys.argv[1], int(sys.argv[2]), sys.argv[3]
matchup = build_matchup(ruleset, None, [], 'tactical,tactical')
tasks = list(batches(range(games), games, 2))
mine = [i for k, task in enumerate(tasks) if part == 'all' or k % 2 == int(part) for i in task]
profile = cProfile.Profile()
profile.enable()
for i in mine:
    play_batch(matchup, ((i, game_seed(0, i)),))
profile.disable()
print(pstats.Stats(profile).total_calls)
"""


def calls(ruleset: str, games: int, part: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", PROBE, ruleset, str(games), part],
        stdout=subprocess.PIPE,
        text=True,
    )


def main() -> None:
    parser = arguments(__doc__, "warmup.md")
    parser.add_argument("--games", type=int, default=100)
    opts = parser.parse_args()
    rows = []
    for ruleset in ("konflikt47", "bolt-action-1"):
        runs = [calls(ruleset, opts.games, part) for part in ("all", "0", "1")]
        whole, first, second = (int(run.communicate()[0].split()[-1]) for run in runs)
        repeated = first + second - whole
        rows.append((ruleset, whole, first, second, repeated, 2 * whole / (first + second)))
    lines = [
        "# Work repeated by two workers",
        "",
        f"{machine()}.",
        f"Command: `python benchmarks/bench_warmup.py --games {opts.games}`.",
        "",
        f"Python calls (cProfile) to play the {opts.games} games of an `evaluate` in one fresh "
        "process, and in two (each half as the runner hands them to two workers). Repeated: "
        "what the halves make beyond the whole. Speed-up by calls: 2 × whole / (half + half).",
        "",
        "| ruleset | whole | first half | second half | repeated | speed-up by calls |",
        "|---|---:|---:|---:|---:|---:|",
        *[
            f"| {r} | {w / 1e6:.2f} M | {a / 1e6:.2f} M | {b / 1e6:.2f} M | {d / 1e6:.2f} M "
            f"({d / w:.1%}) | {s:.3f}× |"
            for r, w, a, b, d, s in rows
        ],
        "",
    ]
    publish(opts.out, lines)


if __name__ == "__main__":
    main()
