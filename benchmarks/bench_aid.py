"""What the play aid's answers cost: how quickly the page hears back after a click.

Run:  python benchmarks/bench_aid.py [--repeat N] [--out benchmarks/results/aid.md]

For each ruleset's sample armies, through the aid's own web app in this process (FastAPI's
test client: no network), with the game saved after every step as the command does (a line appended and
flushed to the disk):

- a whole game clicked through (every die drawn and given with the aid rolling the test,
  every turn ended): median milliseconds a step;
- the answers one at a time: the whole game read (``GET /api/state``), a pin added
  (``POST /api/pins``), a step taken back (``POST /api/undo``): medians over ``--repeat``;
- of an answer, the share spent making the page's view (the odds reports of every unit).

One process (one core); each kind of request is made once untimed first.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from _report import arguments, machine, publish
from fastapi.testclient import TestClient

from kriegsspiel.aid.command import GameAsked, set_up
from kriegsspiel.aid.server import create_app
from kriegsspiel.aid.view import view

RULESETS = ("konflikt47", "bolt-action-1")


def timed(call, repeat: int) -> float:
    """Median milliseconds of ``call()`` over ``repeat`` calls, after one untimed."""
    call()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def whole_game(client: TestClient) -> tuple[int, float]:
    """Click a whole game through; the steps and the median milliseconds a step."""
    times: list[float] = []

    def post(path: str, body: dict | None = None) -> dict:
        start = time.perf_counter()
        answer = client.post(path, json=body) if body is not None else client.post(path)
        times.append((time.perf_counter() - start) * 1000)
        assert answer.status_code == 200, answer.text
        return answer.json()

    state = client.get("/api/state").json()
    while state["phase"] != "over":
        if state["phase"] == "turn end":
            state = post("/api/end-turn", {"keep": state["may_keep"]})
            continue
        state = post("/api/draw")
        side = state["in_hand"]
        unit = next(u for u in state["units"] if u["side"] == side and u["waiting"])
        state = post("/api/order", {"unit": unit["uid"], "order": "Fire"})
    return len(times), statistics.median(times)


def measure(ruleset: str, repeat: int) -> str:
    """The report's row of ``ruleset``."""
    with tempfile.TemporaryDirectory() as folder:
        asked = GameAsked(ruleset, seed=1, save=str(Path(folder) / "aid.jsonl"))
        session, _ = set_up(asked)
        client = TestClient(create_app(session))
        steps, per_step = whole_game(client)
        client.post("/api/new-game")
        read = timed(lambda: client.get("/api/state"), repeat)
        pins = [0]

        def add_pin() -> None:
            pins[0] = (pins[0] + 1) % 3
            client.post("/api/pins", json={"unit": 1, "pins": pins[0]})

        pin = timed(add_pin, repeat)
        undo = timed(lambda: (add_pin(), client.post("/api/undo")), repeat) - pin
        alone = timed(lambda: view(session.now, can_undo=True), repeat)
    return (
        f"| {ruleset} | {per_step:.1f} ({steps}) | {read:.1f} | {pin:.1f} | {undo:.1f} | "
        f"{alone:.1f} |"
    )


def main() -> None:
    parser = arguments(__doc__, "aid.md")
    parser.add_argument("--repeat", type=int, default=200)
    opts = parser.parse_args()
    lines = [
        "# The play aid's answers",
        "",
        f"{machine()}. `python benchmarks/bench_aid.py --repeat {opts.repeat}`; medians in "
        "milliseconds, in one process, through the web app's test client (no network), the "
        "game saved after every step.",
        "",
        "| ruleset | a step of a whole game (steps) | read the game | add a pin | undo | "
        "the view alone |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    lines += [measure(ruleset, opts.repeat) for ruleset in RULESETS]
    lines += [
        "",
        "A step appends its line to the save file and flushes it to the disk before it "
        "answers (before the save became one line a step, a step late in a game took "
        "46-53 ms: the whole history was written each time); the view works out every live unit's order-test and morale-check odds "
        "for each officer who may stand near it (remembered by question after the first).",
        "",
    ]
    publish(opts.out, lines)


if __name__ == "__main__":
    main()
