"""Memory of a whole long `evaluate`: the parent and its worker processes, as games add up.

Run:  python benchmarks/bench_long_run.py [--games 4000] [--workers 2] [--players tactical]
                                          [--ruleset konflikt47]
                                          [--out benchmarks/results/long_run.md]

`bench_memory.py` follows one process that plays every game. This one runs the real thing
(`evaluate` with local workers and a results store, in a fresh process) and samples, every
half second, the resident size of the run's own process and of every worker process it has
(read from /proc, so any Linux will do). A worker is replaced by a fresh one after
`WORKER_LIFE` games, so the largest worker should stop growing once the first workers have
been replaced, however long the run.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

from _report import arguments, machine, publish

PROBE = """
import json, os, resource, sys, tempfile, threading, time
from pathlib import Path
from kriegsspiel.sim.matchup import build_matchup
from kriegsspiel.sim.runner import WORKER_LIFE, Progress, evaluate
from kriegsspiel.sim.store import Store

ruleset, games, workers, players = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
page = resource.getpagesize() / 2**20
me = os.getpid()

def resident(pid):
    try:
        with open(f'/proc/{pid}/statm') as statm:
            return int(statm.read().split()[1]) * page
    except OSError:
        return None

def descendants():
    found, todo = [], [me]
    while todo:
        pid = todo.pop()
        for task in Path(f'/proc/{pid}/task').glob('*/children'):
            try:
                kids = [int(k) for k in task.read_text().split()]
            except OSError:
                continue
            found += kids
            todo += kids
    return found

done = [0]
samples = []  # (games finished, parent MiB, largest worker MiB, worker processes seen so far)
seen = set()
stop = threading.Event()

def sample():
    while not stop.is_set():
        sizes = {}
        for pid in descendants():
            size = resident(pid)
            if size is not None and size > 40:  # a worker with the engine loaded, not the forkserver
                sizes[pid] = size
        seen.update(sizes)
        samples.append((done[0], resident(me), max(sizes.values(), default=0.0), len(seen)))
        stop.wait(0.5)

def on_game(finished, total):
    done[0] = finished

matchup = build_matchup(ruleset, None, [], f'{players},{players}')
thread = threading.Thread(target=sample, daemon=True)
thread.start()
start = time.perf_counter()
with Store(Path(tempfile.mkdtemp()) / 'run.sqlite') as store:
    evaluate(matchup, games, 2026, workers=workers, store=store, progress=Progress(on_game=on_game))
seconds = time.perf_counter() - start
stop.set()
thread.join()
print(json.dumps({'samples': samples, 'seconds': seconds, 'life': WORKER_LIFE}))
"""


def main() -> None:
    parser = arguments(__doc__, "long_run.md")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--players", choices=("tactical", "random"), default="tactical")
    parser.add_argument("--ruleset", default="konflikt47")
    opts = parser.parse_args()
    started = time.strftime("%Y-%m-%d")
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            PROBE,
            opts.ruleset,
            str(opts.games),
            str(opts.workers),
            opts.players,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(out.stdout.splitlines()[-1])
    samples: list[tuple[int, float, float, int]] = [tuple(s) for s in result["samples"]]
    marks = [opts.games * k // 8 for k in range(1, 9)]
    rows = []
    low = 0
    for mark in marks:
        window = [s for s in samples if low < s[0] <= mark] or [samples[-1]]
        rows.append(
            (
                mark,
                max(s[1] for s in window),
                max(s[2] for s in window),
                max(s[3] for s in window),
            )
        )
        low = mark
    lines = [
        "# Memory of a long evaluate",
        "",
        f"{machine()}; measured {started}.",
        f"Command: `python benchmarks/bench_long_run.py --games {opts.games} "
        f"--workers {opts.workers} --players {opts.players} --ruleset {opts.ruleset}`.",
        "",
        f"`evaluate` of {opts.games} games of the standard {opts.ruleset} matchup "
        f"({opts.players} v {opts.players}) on {opts.workers} local workers, with a results "
        f"store, took {result['seconds']:.0f} s. A worker process is replaced after "
        f"{result['life']} games. Resident memory (MiB), the largest sample (every 0.5 s) "
        "within each eighth of the run: the run's own process, the largest worker, and how "
        "many worker processes the run has started so far.",
        "",
        "| games finished | run's own process | largest worker | workers started |",
        "|---:|---:|---:|---:|",
        *[f"| {m} | {p:.0f} | {w:.0f} | {n} |" for m, p, w, n in rows],
        "",
    ]
    publish(opts.out, lines)


if __name__ == "__main__":
    main()
