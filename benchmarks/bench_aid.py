"""What the play aid's answers cost: how quickly the page hears back after a click.

Run:  python benchmarks/bench_aid.py [--repeat N] [--out benchmarks/results/aid.md]

For each ruleset's sample armies, through the aid's own web app in this process (FastAPI's
test client: no network), with the game saved after every step as the command does (a line appended and
flushed to the disk):

- a whole game clicked through (every die drawn and given with the aid rolling the test,
  every turn ended): median milliseconds a step;
- the answers one at a time: the whole game read (``GET /api/state``), a pin added
  (``POST /api/pins``), a step taken back (``POST /api/undo``): medians over ``--repeat``;
- of an answer, the share spent making the page's view (the odds reports of every unit);
- the odds of a shot and of an assault (``POST /api/odds/shoot``, ``/api/odds/assault``)
  asked for the first time, every unit of side A at every unit of side B (shots at 6, 13,
  18 and 25 inches, each a new question: median and slowest), and a shot asked again
  (the page asks again after every step).

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


def questions(ruleset: str) -> str:
    """The report's row of ``ruleset``'s odds questions, each asked for the first time."""
    with tempfile.TemporaryDirectory() as folder:
        asked = GameAsked(ruleset, seed=1, save=str(Path(folder) / "aid.jsonl"))
        session, _ = set_up(asked)
        client = TestClient(create_app(session))
        units = session.now.units
        ours = [u.uid for u in units if u.side == 0]
        theirs = [u.uid for u in units if u.side == 1]
        shots: list[float] = []
        for rng in (6, 13, 18, 25):
            for firer in ours:
                for target in theirs:
                    body = {"firer": firer, "target": target, "range": rng}
                    start = time.perf_counter()
                    client.post("/api/odds/shoot", json=body)  # (some refused: out of range)
                    shots.append((time.perf_counter() - start) * 1000)
        fights: list[float] = []
        for attacker in [u.uid for u in units if u.side == 0 and u.kind != "vehicle"]:
            for defender in theirs:
                start = time.perf_counter()
                client.post("/api/odds/assault", json={"attacker": attacker, "defender": defender})
                fights.append((time.perf_counter() - start) * 1000)
        again = timed(
            lambda: client.post(
                "/api/odds/shoot", json={"firer": 1, "target": theirs[1], "range": 18}
            ),
            200,
        )
    return (
        f"| {ruleset} | {statistics.median(shots):.1f} / {max(shots):.0f} ({len(shots)}) | "
        f"{again:.1f} | {statistics.median(fights):.1f} / {max(fights):.0f} ({len(fights)}) |"
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
        "The odds of a shot or an assault, each question asked for the first time in the "
        "process (median / slowest milliseconds, and how many were asked), and a shot asked "
        "again:",
        "",
        "| ruleset | a shot, first time | a shot again | an assault, first time |",
        "|---|---:|---:|---:|",
    ]
    lines += [questions(ruleset) for ruleset in RULESETS]
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
