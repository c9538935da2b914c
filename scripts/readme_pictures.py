"""Redraw the README's pictures and print the figures its prose quotes from them.

python scripts/readme_pictures.py            # a few minutes: 200 games, then 100 a cell
python scripts/readme_pictures.py --solo     # only the table of a person's game (seconds)

It runs the README's own commands (with two workers and no results store, so nothing is
kept or reused), ``kriegsspiel evaluate --ruleset konflikt47 --games 200 --plot`` and
``kriegsspiel sweep konflikt47-walker-or-tank --games 100 --plot``, writes their pictures
over docs/img/evaluate-konflikt47.png and docs/img/sweep-walker-or-tank.png, and prints
the win rates and changes the README's text gives beside them: copy those into the text.
It also plays on the README's piped solo game (answering 1 to every question) to a decision
of turn 2 and writes the table drawn for it over docs/img/solo-konflikt47.png, through
headless Chromium (``scripts/install-test-browser``; or ``KRIEGSSPIEL_CHROMIUM``).
Run it whenever the game's rules or the AI change (their games change with them). The
play aid's screenshots are taken by scripts/aid_screenshots.py.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "img"
EVALUATE = ["evaluate", "--ruleset", "konflikt47", "--games", "200"]
SWEEP = ["sweep", "konflikt47-walker-or-tank", "--games", "100"]
PICTURES = {"evaluate": "evaluate-konflikt47.png", "sweep": "sweep-walker-or-tank.png"}
SOLO = "solo-konflikt47.png"
# the README's piped game (unit 2, advance, the first place), then 1 to every question: the
# 27th answer leaves side A to pick a unit in turn 2, two of its units lost, which the
# README's caption says
SOLO_ANSWERS = "auto\n2\nadvance\n1\n" + "1\n" * 29


def run(args: list[str], picture: Path) -> dict[str, Any]:
    """The command's JSON, its picture drawn to ``picture`` (two workers, nothing stored)."""
    command = [*args, "--workers", "2", "--no-store", "--json", "--plot", str(picture)]
    print("kriegsspiel " + " ".join(command), file=sys.stderr)
    env = {**os.environ, "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "kriegsspiel", *command],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        cwd=picture.parent,
    )
    if done.returncode:
        sys.exit(f"kriegsspiel {' '.join(command)} failed:\n{done.stderr}")
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def rate(outcome: dict[str, Any]) -> str:
    """A win rate as the README gives it: "49.5% [42.6%, 56.4%]"."""
    from kriegsspiel.core.per_cent import chance_shown

    return (
        f"{chance_shown(outcome['rate'])} [{chance_shown(outcome['low'])}, "
        f"{chance_shown(outcome['high'])}]"
    )


def points(change: dict[str, Any]) -> str:
    """A change in percentage points with its interval: "+24.0 (+10.7 to +36.1)", and "*"
    if the interval leaves out zero."""

    def signed(value: float) -> str:
        return f"{100 * value:+.1f}".replace("-", "−")

    mark = " *" if change["clear"] else ""
    return f"{signed(change['change'])} ({signed(change['low'])} to {signed(change['high'])}){mark}"


def fared(unit: dict[str, Any]) -> str:
    """How a unit a variant took out or brought in fared: its survival and damage a point."""
    from kriegsspiel.core.per_cent import chance_shown_whole

    alive = unit["survival"]
    low, high = unit["damage_per_point_interval"] or (None, None)
    per_point = f"{unit['damage_per_point']:.2f}" + (
        "" if low is None else f" ({low:.2f}–{high:.2f})"
    )
    return (
        f"{unit['unit']}: survived {chance_shown_whole(alive['rate'])} ({chance_shown_whole(alive['low'])}–"
        f"{chance_shown_whole(alive['high'])}), damage a game for each of its points {per_point}"
    )


def draw_solo(folder: Path) -> None:
    """The table drawn for a person's decision, docs/img/solo-konflikt47.png."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    command = ["play", "--players", "human,tactical", "--seed", "3", "--svg", "table.svg"]
    print("kriegsspiel " + " ".join(command) + " (answers typed in)", file=sys.stderr)
    done = subprocess.run(
        [sys.executable, "-m", "kriegsspiel", *command],
        input=SOLO_ANSWERS + "quit\n",
        capture_output=True,
        text=True,
        env=env,
        check=False,
        cwd=folder,
    )
    if done.returncode or "Unit to order: quit" not in " ".join(done.stdout.split()):
        sys.exit(
            "the solo game no longer stops at a unit to order after its answers: choose "
            f"others (SOLO_ANSWERS) and the README's caption with them.\n{done.stdout[-2000:]}"
            f"{done.stderr}"
        )
    chromium = os.environ.get("KRIEGSSPIEL_CHROMIUM") or shutil.which("chromium")
    if not chromium:
        sys.exit("no Chromium to draw the solo picture: run scripts/install-test-browser")
    svg = folder / "table.svg"
    head = svg.read_text()[:1000]
    width = head.split(' width="', 1)[1].split('"', 1)[0]
    height = head.split(' height="', 1)[1].split('"', 1)[0]
    picture = IMAGES / SOLO
    subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         f"--window-size={width},{height}", f"--screenshot={picture}", svg.as_uri()],
        capture_output=True, check=True, timeout=120,
    )  # fmt: skip
    print(f"drew docs/img/{SOLO}")


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        draw_solo(Path(folder))
    if "--solo" in sys.argv:
        return 0
    with tempfile.TemporaryDirectory() as folder:
        drawn = {kind: Path(folder) / name for kind, name in PICTURES.items()}
        evaluation = run(EVALUATE, drawn["evaluate"])
        sweep = run(SWEEP, drawn["sweep"])
        for kind, name in PICTURES.items():
            shutil.copyfile(drawn[kind], IMAGES / name)
            print(f"drew docs/img/{name}")
    a, b = evaluation["army_a"]["name"], evaluation["army_b"]["name"]
    print(
        f"\nevaluate ({evaluation['games']} games): {b} wins {rate(evaluation['army_b_wins'])}"
        f" against {a}, which wins {rate(evaluation['army_a_wins'])}; "
        f"{rate(evaluation['draws']).split(' ')[0]} are drawn"
    )
    print(f"\nsweep ({sweep['games']} games a cell): each variant against its list")
    for variant in sweep["variants"]:
        for against in variant["against"]:
            if against is None:
                continue
            print(
                f"  {variant['variant']} ({variant['points_added']:+d} points) v "
                f"{against['opponent']}: wins {points(against['wins'])}, "
                f"losses {points(against['losses'])}"
            )
            for unit in against["taken_out"]:
                print(f"    taken out, {fared(unit)}")
            for unit in against["brought_in"]:
                print(f"    brought in, {fared(unit)}")
            print(f"    {widths(sweep, variant, against)}")
    return 0


def widths(sweep: dict[str, Any], variant: dict[str, Any], against: dict[str, Any]) -> str:
    """How wide the change in wins's paired interval is, beside the unpaired one the two
    cells' Wilson intervals give (Newcombe's method 10 for independent rates): what
    docs/simulation.md quotes of what the pairing gains."""
    column = sweep["columns"].index(against["opponent"])
    mine = sweep["cells"][sweep["rows"].index(variant["row"])][column]
    base = sweep["cells"][sweep["rows"].index(variant["list"])][column]
    change = mine["rate"] - base["rate"]
    low = change - ((mine["rate"] - mine["low"]) ** 2 + (base["high"] - base["rate"]) ** 2) ** 0.5
    high = change + ((mine["high"] - mine["rate"]) ** 2 + (base["rate"] - base["low"]) ** 2) ** 0.5
    paired = against["wins"]["high"] - against["wins"]["low"]
    return (
        f"change in wins: paired interval {100 * paired:.1f} points wide, "
        f"unpaired {100 * (high - low):.1f}"
    )


if __name__ == "__main__":
    raise SystemExit(main())
