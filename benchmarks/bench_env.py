"""What the environments for learning agents cost, and what a random agent scores.

Run:  python benchmarks/bench_env.py [--games N] [--out benchmarks/results/env.md]

For each ruleset's standard matchup (its sample scenario and armies):

- two agents in the AEC environment, each picking an open index at random, with the
  acting agent's observation made at every step (as a learner's loop does): median
  milliseconds a game and a step, and the shares of a game spent listing the legal
  orders (the engine's own work, as for any player), numbering them, and making the
  observation and the mask;
- the same through OpenSpiel (``python_kriegsspiel``, where the ``openspiel`` extra is
  installed): random open indices, the bag's draws sampled by their chances, the acting
  player's observation made at every step;
- one agent in the Gymnasium environment against the tactical AI, picking open indices
  at random: median milliseconds a game, and its wins, draws and losses with the 95%
  Wilson interval of its win rate (the floor a learner has to rise above).

And what the numbering reaches: over games played by the random and the tactical
players, the share of the engine's offered orders that some index carries out (the rest
are a second place of one unit's move in one cell), the open indices at a decision, and
the share of the players' own choices an index carries out (for learning from the AI).

One process (one core); the first game of each kind is played untimed.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import numpy as np
from _report import arguments, machine, publish

import kriegsspiel
from kriegsspiel.ai.players import chance_outcome
from kriegsspiel.core.game import CHANCE
from kriegsspiel.core.seeds import side_seed
from kriegsspiel.env.aec import KriegsspielEnv
from kriegsspiel.env.encoding import ActionEncoding
from kriegsspiel.env.versus_ai import VersusAIEnv
from kriegsspiel.sim.matchup import new_player
from kriegsspiel.sim.stats import wilson


def reach(ruleset: str, kind: str, games: int) -> tuple[float, float, int, int]:
    """Over ``games`` games of ``kind`` players: the share of offered orders an index
    carries out, the share of the players' choices, and the median and most open indices."""
    offered = reached = chosen = choices = 0
    opened: list[int] = []
    for seed in range(games):
        game = kriegsspiel.new_game(ruleset, seed=seed)
        encoding, rng = ActionEncoding.of(game), random.Random(seed)
        players = [new_player(kind, side_seed(seed, side)) for side in (0, 1)]
        while not game.is_terminal():
            if game.current_player() == CHANCE:
                game.apply_action(chance_outcome(game, rng))
                continue
            legal, found = game.legal_actions(), encoding.choices(game)
            offered += len(legal)
            reached += sum(len(actions) for actions in found.values())
            opened.append(len(found))
            action = players[game.current_player()].choose(game)
            choices += 1
            chosen += action in found.get(encoding.first_index(game, action), ())
            game.apply_action(action)
    return reached / offered, chosen / choices, int(statistics.median(opened)), max(opened)


def two_agents(env: KriegsspielEnv, seed: int) -> tuple[float, int, float, float, float]:
    """One game of random indices: its seconds, its steps, and its seconds listing the
    legal orders (the engine), numbering them, and making the observation."""
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    env.reset(seed=seed)
    steps, listing, numbering, seeing = 0, 0.0, 0.0, 0.0
    for _agent in env.agent_iter():
        episode = env.episode
        assert episode is not None
        if not episode.over and episode.advance is None:
            t0 = time.perf_counter()
            episode.game.legal_actions()
            t1 = time.perf_counter()
            episode.open_indices()  # numbered (and kept for the mask)
            listing += t1 - t0
            numbering += time.perf_counter() - t1
        before = time.perf_counter()
        observation, _reward, ended, _cut, _info = env.last()
        seeing += time.perf_counter() - before
        if ended:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    return time.perf_counter() - start, steps, listing, numbering, seeing


def through_openspiel(game: Any, seed: int) -> tuple[float, int]:
    """One game of random indices through OpenSpiel: its seconds and its decisions (the
    observation made by the Python observer, in numpy arrays, as OpenSpiel's
    ``make_observation`` does: ``observation_tensor`` would copy the tensor first)."""
    rng, pick = random.Random(seed), np.random.default_rng(seed)
    observer = game.make_py_observer()
    start = time.perf_counter()
    state, steps = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, chances)[0])
            continue
        observer.set_from(state, state.current_player())
        state.apply_action(int(pick.choice(state.legal_actions())))
        steps += 1
    return time.perf_counter() - start, steps


def openspiel_game(ruleset: str) -> Any:
    """The registered game, or None where OpenSpiel is not installed."""
    try:
        import pyspiel

        from kriegsspiel.env import openspiel
    except ImportError:
        return None
    return pyspiel.load_game(openspiel.SHORT_NAME, {"ruleset": ruleset, "rng_seed": 0})


def against_the_ai(env: VersusAIEnv, seed: int) -> tuple[float, float]:
    """One game of random indices against the AI: its seconds and the agent's return."""
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    _observation, info = env.reset(seed=seed)
    ended, reward = False, 0.0
    while not ended:
        mask = info["action_mask"]
        _observation, reward, ended, _cut, info = env.step(int(rng.choice(np.flatnonzero(mask))))
    return time.perf_counter() - start, float(reward)


def main() -> None:
    parser = arguments(__doc__, "env.md")
    parser.add_argument("--games", type=int, default=20)
    opts = parser.parse_args()
    rows, results, reached, spiel = [], [], [], []
    for ruleset in ("konflikt47", "bolt-action-1"):
        for kind in ("random", "tactical"):
            reached.append((ruleset, kind, *reach(ruleset, kind, min(opts.games, 10))))
        env = KriegsspielEnv(ruleset)
        two_agents(env, 10_000)
        games = [two_agents(env, seed) for seed in range(opts.games)]
        per_game = statistics.median(g[0] for g in games)
        per_step = statistics.median(g[0] / g[1] for g in games)
        whole = sum(g[0] for g in games)
        shares = tuple(sum(g[i] for g in games) / whole for i in (2, 3, 4))
        steps = statistics.median(g[1] for g in games)
        game = openspiel_game(ruleset)
        if game is not None:
            through_openspiel(game, 10_000)
            runs = [through_openspiel(game, seed) for seed in range(opts.games)]
            median = statistics.median(t for t, _ in runs)
            spiel.append((ruleset, median, statistics.median(n for _, n in runs), per_game))
        versus = VersusAIEnv(ruleset, side=0, opponent="tactical")
        against_the_ai(versus, 10_000)
        played = [against_the_ai(versus, seed) for seed in range(opts.games)]
        wins = sum(r > 0 for _, r in played)
        draws = sum(r == 0 for _, r in played)
        rate = wilson(wins, len(played))
        rows.append((ruleset, per_game, steps, per_step, *shares))
        results.append(
            (ruleset, statistics.median(t for t, _ in played), wins, draws, len(played), rate)
        )
    lines = [
        "# The environments for learning agents",
        "",
        f"{machine()}.",
        f"Command: `python benchmarks/bench_env.py --games {opts.games}`. One process (one "
        "core); the standard matchup of each ruleset, seeds 0 to "
        f"{opts.games - 1}, after one untimed game; medians.",
        "",
        "Two agents in the AEC environment (`kriegsspiel.env.aec`), each picking an open "
        "index at random, the acting agent's observation and mask made at every step:",
        "",
        "| ruleset | ms a game | steps a game | ms a step | listing legal orders (engine) "
        "| numbering them | observation and mask |",
        "|---|---:|---:|---:|---:|---:|---:|",
        *[
            f"| {r} | {g * 1000:.0f} | {s:.0f} | {p * 1000:.2f} | {a:.0%} | {b:.0%} | {c:.0%} |"
            for r, g, s, p, a, b, c in rows
        ],
        "",
        "(The rest of a game is the engine carrying the orders out and drawing the bag.)",
        "",
        "The same through OpenSpiel (`python_kriegsspiel`, `kriegsspiel.env.openspiel`): "
        "random open indices, the draws by their chances, the acting player's observation "
        "at every step (its Python observer's arrays); the AEC figure above for comparison:",
        "",
        "| ruleset | ms a game | decisions a game | ms a decision | AEC ms a game | ratio |",
        "|---|---:|---:|---:|---:|---:|",
        *(
            [
                f"| {r} | {t * 1000:.0f} | {n:.0f} | {t / n * 1000:.2f} | {a * 1000:.0f} | "
                f"{t / a:.2f} |"
                for r, t, n, a in spiel
            ]
            or ['| (OpenSpiel is not installed: `pip install -e ".[openspiel]"`) | | | | | |']
        ),
        "",
        "One agent picking open indices at random in the Gymnasium environment "
        "(`kriegsspiel/VersusAI-v0`, side 0) against the tactical AI:",
        "",
        "| ruleset | ms a game | random agent's wins | draws | losses | win rate, 95% Wilson |",
        "|---|---:|---:|---:|---:|---|",
        *[
            f"| {r} | {t * 1000:.0f} | {w} | {d} | {n - w - d} | "
            f"{p.rate:.0%} ({p.low:.0%} to {p.high:.0%}) |"
            for r, t, w, d, n, p in results
        ],
        "",
        f"What the numbering reaches, over {min(opts.games, 10)} games of each kind of "
        "player (seeds from 0):",
        "",
        "| ruleset | players | offered orders an index carries out | the players' choices "
        "an index carries out | open indices at a decision: median | most |",
        "|---|---|---:|---:|---:|---:|",
        *[f"| {r} | {k} v {k} | {o:.1%} | {c:.1%} | {m} | {x} |" for r, k, o, c, m, x in reached],
        "",
    ]
    publish(opts.out, lines)


if __name__ == "__main__":
    main()
