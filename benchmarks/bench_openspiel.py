"""What reading the OpenSpiel game's observation costs, and a step of its RL API.

Run:  python benchmarks/bench_openspiel.py [--games N] [--out benchmarks/results/openspiel.md]

For each ruleset's standard matchup, over the decisions of N random games:

- ``state.observation_tensor(player)`` (a float32 array, a copy of the observer's tensor,
  as OpenSpiel's algorithms and ``rl_environment`` read it; it was a list of floats) against the Python observer's ``set_from(state, player)``
  (numpy arrays filled in place): median milliseconds a call;
- a step of OpenSpiel's ``rl_environment.Environment`` (its DQN and PPO examples' API),
  random open indices, both players' observations read at every step, as it does:
  median milliseconds a step over the N games.

Needs the ``openspiel`` extra. One process (one core); one game of each kind untimed.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import numpy as np
import pyspiel
from _report import arguments, machine, publish
from open_spiel.python import rl_environment

from kriegsspiel.env import openspiel


def reads(game: Any, seed: int) -> tuple[list[float], list[float]]:
    """One random game: the seconds of each observation_tensor and set_from call, made at
    each decision for the player to act."""
    rng, observer = random.Random(seed), game.make_py_observer()
    state, tensor, arrays = game.new_initial_state(), [], []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, chances)[0])
            continue
        player = state.current_player()
        start = time.perf_counter()
        state.observation_tensor(player)
        tensor.append(time.perf_counter() - start)
        start = time.perf_counter()
        observer.set_from(state, player)
        arrays.append(time.perf_counter() - start)
        state.apply_action(rng.choice(state.legal_actions()))
    return tensor, arrays


def rl_steps(env: Any, seed: int) -> tuple[float, int]:
    """One random game through rl_environment: its seconds and its steps."""
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    step, steps = env.reset(), 0
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([int(rng.choice(step.observations["legal_actions"][player]))])
        steps += 1
    return time.perf_counter() - start, steps


def main() -> None:
    parser = arguments(__doc__, "openspiel.md")
    parser.add_argument("--games", type=int, default=5)
    opts = parser.parse_args()
    rows = []
    for ruleset in ("konflikt47", "bolt-action-1"):
        game = pyspiel.load_game(openspiel.SHORT_NAME, {"ruleset": ruleset, "rng_seed": 0})
        reads(game, 10_000)
        tensor, arrays = [], []
        for seed in range(opts.games):
            t, a = reads(game, seed)
            tensor += t
            arrays += a
        env = rl_environment.Environment(game)
        rl_steps(env, 10_000)
        runs = [rl_steps(env, seed) for seed in range(opts.games)]
        per_step = statistics.median(t / n for t, n in runs)
        rows.append(
            (ruleset, statistics.median(tensor), statistics.median(arrays), len(tensor), per_step)
        )
    lines = [
        "# Reading the OpenSpiel game's observation",
        "",
        f"{machine()}.",
        f"Command: `python benchmarks/bench_openspiel.py --games {opts.games}`. One process "
        f"(one core); the standard matchup of each ruleset, random games of seeds 0 to "
        f"{opts.games - 1}, after one untimed game; medians.",
        "",
        "| ruleset | `observation_tensor`, ms | `set_from`, ms | calls | "
        "`rl_environment`, ms a step |",
        "|---|---:|---:|---:|---:|",
        *[
            f"| {r} | {t * 1000:.2f} | {a * 1000:.2f} | {n} | {s * 1000:.2f} |"
            for r, t, a, n, s in rows
        ],
        "",
    ]
    publish(opts.out, lines)


if __name__ == "__main__":
    main()
