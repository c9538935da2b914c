"""What the rules alone cost a game: the floor under any player written in Python.

Run:  python benchmarks/bench_floor.py [--games N] [--out benchmarks/results/floor.md]

Each game of the standard matchup is played once by the players (tactical, then random),
its decisions and chance outcomes recorded; then the same game is played again from its
seed with those decisions handed straight to ``apply_action`` (each still checked, as
always) and timed: no player thinks and no legal orders are listed. The games are the same
(the test asserts the events match). Both timings come from the same warm process, so the
second is what the rules themselves take: no player, however cheap, makes a game faster.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from _report import arguments, machine, publish

from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.players import Player, RandomPlayer, chance_outcome
from kriegsspiel.core.game import CHANCE
from kriegsspiel.core.scenario import load_scenario, sample_scenarios
from kriegsspiel.rulesets.bolt_action.army import load_army, sample_armies
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.sim.executors import games_collector


def new_game(ruleset: str, seed: int) -> BoltActionGame:
    armies = [load_army(p, ruleset) for p in sample_armies(ruleset)[:2]]
    scenario = load_scenario(sample_scenarios()[seed % 2])
    return BoltActionGame(ruleset, scenario, (armies[0], armies[1]), seed=seed)


def played(ruleset: str, seed: int, kind: str) -> tuple[float, list[Any], list[Any]]:
    """One game by the players: its seconds, its actions in order, and its events."""
    game = new_game(ruleset, seed)
    players: list[Player] = (
        [TacticalPlayer(seed), TacticalPlayer(seed + 1)]
        if kind == "tactical"
        else [RandomPlayer(seed), RandomPlayer(seed + 1)]
    )
    rng, actions = random.Random(seed), []
    start = time.perf_counter()
    while not game.is_terminal():
        side = game.current_player()
        action = chance_outcome(game, rng) if side == CHANCE else players[side].choose(game)
        actions.append(action)
        game.apply_action(action)
    return time.perf_counter() - start, actions, game.events


def replayed(ruleset: str, seed: int, actions: list[Any]) -> tuple[float, list[Any]]:
    """The same game with its decisions handed in: the rules' own seconds, and its events."""
    game = new_game(ruleset, seed)
    apply = game.apply_action
    start = time.perf_counter()
    for action in actions:
        apply(action)
    return time.perf_counter() - start, game.events


def main() -> None:
    parser = arguments(__doc__, "floor.md")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--warm", type=int, default=6, help="games played first, untimed")
    opts = parser.parse_args()
    rows = []
    for ruleset in ("konflikt47", "bolt-action-1"):
        for kind in ("tactical", "random"):
            whole, rules = [], []
            with games_collector():
                for seed in range(opts.warm + opts.games):
                    t_game, actions, events = played(ruleset, seed, kind)
                    t_rules, again = replayed(ruleset, seed, actions)
                    assert [e.to_json() for e in again] == [e.to_json() for e in events]
                    if seed >= opts.warm:
                        whole.append(t_game)
                        rules.append(t_rules)
            g, r = statistics.median(whole), statistics.median(rules)
            rows.append((ruleset, kind, g, r, r / g, 1 / r))
    lines = [
        "# The rules' floor",
        "",
        f"{machine()}.",
        f"Command: `python benchmarks/bench_floor.py --games {opts.games}`. One process (one "
        f"core), after {opts.warm} untimed games of each kind; median milliseconds a game. "
        "'Rules alone' replays the game's recorded decisions into a fresh game of the same "
        "seed (the same events): no player and no list of legal orders, every decision still "
        "checked. Its games a second are the most any player in this engine could reach.",
        "",
        "| ruleset | players | whole game, ms | rules alone, ms | rules' share | games/s at most |",
        "|---|---|---:|---:|---:|---:|",
        *[
            f"| {r} | {k} v {k} | {g * 1000:.0f} | {f * 1000:.1f} | {s:.0%} | {m:.0f} |"
            for r, k, g, f, s, m in rows
        ],
        "",
    ]
    publish(opts.out, lines)


if __name__ == "__main__":
    main()
