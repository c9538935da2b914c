"""Complete games per second on one core for the standard matchups; a Markdown report.

Run:  python benchmarks/bench_games.py [--games N] [--out benchmarks/results/games.md]

The standard matchup: each ruleset's two sample armies on the sample scenarios, tactical
against tactical (and random against random for comparison). One process, one core, with
the cycle collector set as the simulator sets it while it plays games (`games_collector`).
"""

from __future__ import annotations

import statistics
import time

from _report import arguments, machine, publish

from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.players import Player, RandomPlayer, play
from kriegsspiel.core.scenario import load_scenario, sample_scenarios
from kriegsspiel.rulesets.bolt_action.army import load_army, sample_armies
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.sim.executors import games_collector


def one_game(ruleset: str, scenario_index: int, seed: int, kind: str) -> tuple[float, int]:
    armies = [load_army(p, ruleset) for p in sample_armies(ruleset)[:2]]
    scenario = load_scenario(sample_scenarios()[scenario_index])
    game = BoltActionGame(ruleset, scenario, (armies[0], armies[1]), seed=seed)
    players: list[Player] = (
        [TacticalPlayer(seed), TacticalPlayer(seed + 1)]
        if kind == "tactical"
        else [RandomPlayer(seed), RandomPlayer(seed + 1)]
    )
    start = time.perf_counter()
    play(game, players, seed)
    return time.perf_counter() - start, len(game.events)


def main() -> None:
    parser = arguments(__doc__, "games.md")
    parser.add_argument("--games", type=int, default=10)
    opts = parser.parse_args()
    rows = []
    for ruleset in ("konflikt47", "bolt-action-1"):
        for kind in ("tactical", "random"):
            with games_collector():
                times = [one_game(ruleset, seed % 2, seed, kind)[0] for seed in range(opts.games)]
            median = statistics.median(times)
            rows.append((ruleset, kind, median, 1 / median))
    lines = [
        "# Games benchmark",
        "",
        f"{machine()}.",
        f"Command: `python benchmarks/bench_games.py --games {opts.games}`. One process (one core); "
        "median seconds per complete game over both sample scenarios (the first games of a fresh "
        "process, cold caches included), with the simulator's cycle-collector setting.",
        "",
        "| ruleset | players | median s/game | games/s |",
        "|---|---|---:|---:|",
        *[f"| {r} | {k} v {k} | {m:.2f} | {g:.2f} |" for r, k, m, g in rows],
        "",
    ]
    publish(opts.out, lines)


if __name__ == "__main__":
    main()
