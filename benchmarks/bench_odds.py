"""Time odds queries in-process and the CLI end to end; write a Markdown report.

Run:  python benchmarks/bench_odds.py [--repeat N] [--out benchmarks/results/odds.md]

Medians over repeated runs, all figures from the same run on the same machine.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from _report import arguments, machine, publish

from kriegsspiel.rulesets.bolt_action import odds as ba
from kriegsspiel.rulesets.bolt_action.attack import troops_shot_distribution
from kriegsspiel.rulesets.bolt_action.odds import shooting as ba_shooting
from kriegsspiel.rulesets.bolt_action.shot import Situation
from kriegsspiel.rulesets.house_clearing import odds as hc
from kriegsspiel.rulesets.iron_cross import odds as ic

SQUAD = dict(
    weapons=["rifle:9", "lmg"],
    target="regular infantry",
    situation=Situation(range_inches=18, cover="soft"),
)
TANK = dict(
    weapons=["medium AT gun"],
    target="medium tank",
    situation=Situation(range_inches=30, facing="side"),
)


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    fn()  # warm imports and data loading
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def uncached(query: dict[str, object]) -> Callable[[], object]:
    def run() -> object:
        ba_shooting._shoot_odds.cache_clear()
        troops_shot_distribution.cache_clear()
        return ba.shoot_odds("konflikt47", **query)  # type: ignore[arg-type]

    return run


def command_ms(args: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = arguments(__doc__, "odds.md")
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--cli-repeat", type=int, default=15)
    opts = parser.parse_args()
    r = opts.repeat
    rows = [
        ("10-model squad (9 rifles + LMG) at infantry, uncached", median_ms(uncached(SQUAD), r)),
        ("the same query, cached", median_ms(lambda: ba.shoot_odds("konflikt47", **SQUAD), r)),  # type: ignore[arg-type]
        ("medium AT gun at a medium tank's side, uncached", median_ms(uncached(TANK), r)),
        (
            "order test, regular, 2 pins",
            median_ms(lambda: ba.order_test_odds("konflikt47", quality="regular", pins=2), r),
        ),
        (
            "close quarters 10 v 10 (Bolt Action 1)",
            median_ms(
                lambda: ba.assault_odds(
                    "bolt-action-1",
                    attackers=10,
                    attacker_quality="regular",
                    defenders=10,
                    defender_quality="regular",
                ),
                max(5, r // 20),
            ),
        ),
        (
            "Iron Cross: tank gun at a vehicle",
            median_ms(
                lambda: ic.shoot(target="vehicle", range_inches=10, penetration=5, armour=3), r
            ),
        ),
        (
            'House Clearing: rifle, skill 120, 13"',
            median_ms(
                lambda: hc.shoot(weapon="rifle", range_inches=13, weapon_skill=120, visible=5), r
            ),
        ),
    ]
    script = Path(sys.executable).parent / "kriegsspiel"
    exe = [str(script)] if script.exists() else [shutil.which("kriegsspiel") or "kriegsspiel"]
    n = opts.cli_repeat
    bare = command_ms([sys.executable, "-c", "pass"], n)
    cli = command_ms(
        [
            *exe,
            "odds",
            "shoot",
            "--weapon",
            "rifle:9",
            "--weapon",
            "lmg",
            "--range",
            "18",
            "--json",
        ],
        n,
    )
    cli_table = command_ms(
        [*exe, "odds", "shoot", "--weapon", "rifle:9", "--weapon", "lmg", "--range", "18"], n
    )
    lines = [
        "# Odds benchmark",
        "",
        f"{machine()}.",
        f"Command: `python benchmarks/bench_odds.py --repeat {r} --cli-repeat {n}`. Medians.",
        "",
        "| in-process query | median (ms) |",
        "|---|---:|",
        *[f"| {name} | {ms:.3f} |" for name, ms in rows],
        "",
        "| end to end | median (ms) |",
        "|---|---:|",
        f"| `python -c pass` (interpreter start-up) | {bare:.1f} |",
        f"| `kriegsspiel odds shoot ... --json` | {cli:.1f} |",
        f"| `kriegsspiel odds shoot ...` (rich tables) | {cli_table:.1f} |",
        f"| CLI / bare interpreter | {cli / bare:.2f}x |",
        "",
    ]
    publish(opts.out, lines)


if __name__ == "__main__":
    main()
