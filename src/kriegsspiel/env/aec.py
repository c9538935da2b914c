"""A game as a PettingZoo AEC environment: two agents, one index at a time.

``player_0`` and ``player_1`` are the two sides (side 0 holds army A, unless reset with
``options={"swap": True}``). The agent to act is whoever the game waits for: the side
with the die just drawn, or the other side for a reaction, an ambush or a FUBAR unit's
friend; so one agent often acts several times running. Draws from the bag are made by
the environment from the episode's seed. An observation is a dict of ``observation``
(the arrays of :mod:`kriegsspiel.env.observe`, seen from that agent's side) and
``action_mask`` (1 at each index open to it now). The rewards are the game's returns at
its end: +1 and -1 for a win, 0 for a draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

try:
    from gymnasium import spaces as gym_spaces
    from pettingzoo import AECEnv
except ImportError as missing:  # the env extra is not installed
    raise ImportError(
        "kriegsspiel.env.aec needs Gymnasium and PettingZoo, the env extra: "
        f"pip install -e '.[env]' in the checkout ({missing})."
    ) from missing

from kriegsspiel.core import arguments
from kriegsspiel.core.seeds import next_seed, seeds_after
from kriegsspiel.env import spaces
from kriegsspiel.env.closed import EnvironmentClosedError
from kriegsspiel.env.episode import Episode, Setup, new_seed, swap_option
from kriegsspiel.env.render import RENDER_MODES, render_episode
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action.game.actions import Action

AGENTS = ("player_0", "player_1")
# what a reset sets, and PettingZoo's OrderEnforcingWrapper refuses to give before one
PER_GAME = (
    "agent_selection",
    "rewards",
    "_cumulative_rewards",
    "terminations",
    "truncations",
    "infos",
)


class KriegsspielEnv(AECEnv):  # type: ignore[misc]  # (PettingZoo is untyped)
    """Konflikt '47 or Bolt Action 1st edition for two agents (PettingZoo's AEC API)."""

    metadata = {  # noqa: RUF012 (PettingZoo's class attribute)
        "name": "kriegsspiel_v0",
        "render_modes": list(RENDER_MODES),
        "render_fps": 4,  # the pace of a recording of the drawings
        "is_parallelizable": False,
    }

    def __init__(
        self,
        ruleset: str | None = "konflikt47",
        scenario: str | None = None,
        armies: Sequence[str] = (),
        *,
        cell: float = 3.0,
        render_mode: str | None = None,
        rules_file: str | Path | None = None,
    ) -> None:
        """``ruleset``: konflikt47 or bolt-action-1 (None, as :func:`kriegsspiel.new_game`
        takes it: the edition the armies or the rules file are for, else konflikt47);
        ``scenario`` and ``armies``: files or shipped names, as ``kriegsspiel play``
        takes them; ``cell``: the side of the action and observation grid's cells, in
        inches; ``render_mode``: "ansi" (text), "svg" (the table drawn), "rgb_array" (the
        table as pixels, for a video) or "human" (the text printed after every reset and
        step);
        ``rules_file``: a designer's copy of the edition's rules data, as
        ``kriegsspiel play --rules-file`` takes it (left out: the shipped rules)."""
        super().__init__()
        arguments.one_of("render_mode", render_mode, (*RENDER_MODES, None))
        self.render_mode = render_mode
        self.setup = Setup.of(ruleset, scenario, armies, cell, rules_file)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        observation = gym_spaces.Dict(
            {
                "observation": spaces.observation_arrays(self.setup),
                "action_mask": spaces.action_mask(self.setup),
            }
        )
        self.observation_spaces = dict.fromkeys(AGENTS, observation)
        self.action_spaces = dict.fromkeys(AGENTS, spaces.actions(self.setup))
        self.episode: Episode | None = None
        self._seeds: np.random.Generator | None = None  # a seeded reset's, for those after
        self.closed = False

    if not TYPE_CHECKING:  # (mypy still checks every attribute's name)

        def __getattr__(self, name: str) -> Any:
            """Only for what is not set: ``agent_selection``, ``rewards`` and the other
            per-game attributes before the first ``reset()`` (an AttributeError in
            PettingZoo's words, as its OrderEnforcingWrapper gives) or after ``close()``."""
            if name in PER_GAME:
                if self.__dict__.get("closed"):
                    raise AttributeError(
                        f"{name} cannot be accessed: the environment is closed (close() let go "
                        "of its game); make a new one."
                    )
                raise AttributeError(
                    f"{name} cannot be accessed before reset(): call reset() first."
                )
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # -- PettingZoo's API ---------------------------------------------------------------
    def observation_space(self, agent: str) -> gym_spaces.Space[Any]:
        return self.observation_spaces[_agent(agent)]

    def action_space(self, agent: str) -> gym_spaces.Space[Any]:
        return self.action_spaces[_agent(agent)]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: ``seed`` seeds its dice and its draws, and the seeds of the games
        reset without one after it, as Gymnasium's environments do (never seeded: a random
        one); ``options={"swap": True}`` puts army B on side 0 (other options are ignored,
        as PettingZoo's API test expects of an environment)."""
        if self.closed:
            raise EnvironmentClosedError("reset()")
        swap = swap_option(options, known=None)
        if seed is not None:
            game_seed = new_seed(seed)
            self._seeds = seeds_after(game_seed)
        elif self._seeds is not None:
            game_seed = next_seed(self._seeds)
        else:
            game_seed = new_seed(None)
        self.episode = Episode(self.setup, game_seed, swap)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self._after_step()

    def observe(self, agent: str) -> dict[str, Any]:
        episode = self._episode("observe()")
        side = AGENTS.index(_agent(agent))
        acting = agent == self.agent_selection and not episode.over
        mask = episode.mask() if acting else np.zeros(self.setup.encoding.size, np.int8)
        return {"observation": episode.observe(side), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._acting("last()")
        return super().last(observe)  # type: ignore[no-any-return]

    def step(self, action: int | None) -> None:
        """Carry out an index for the agent to act (None once its game is over)."""
        agent = self._acting("step()")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise UsageError(f"{agent} must give an index: its game is not over")
        self._cumulative_rewards[agent] = 0.0
        done = self._episode().take(action, "pettingzoo")
        self.infos[agent] = {"action": {} if done is None else done.to_json()}
        self._after_step()

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        if self.closed:
            raise EnvironmentClosedError("render()")
        if self.render_mode is None or self.episode is None:
            return None
        return render_episode(self.episode, self.render_mode)

    def close(self) -> None:
        """Let go of the game, the per-game attributes (``agent_selection``, ``rewards``,
        ...) and the terrain planes kept for the table; the spaces stay. Anything else
        asked after it raises EnvironmentClosedError (an attribute: AttributeError);
        closing it again does nothing."""
        self.episode = None
        for name in PER_GAME:
            self.__dict__.pop(name, None)
        self.setup.observer.forget()
        self.closed = True

    # -- ours -----------------------------------------------------------------------------
    @property
    def game(self) -> Any:
        """The engine's game (its events, record and every rule's own query)."""
        return self._episode("game").game

    def record(self, path: str) -> str:
        """Write the game so far as a record that ``kriegsspiel replay`` re-runs (both
        sides named "agent"); returns its text."""
        return self._episode("record()").write_record(path, ("agent", "agent"))

    def describe(self, index: int) -> str:
        """What an index means now, in words."""
        return self.setup.encoding.describe(index, self._episode("describe()").game)

    def open_actions(self) -> dict[int, Action | tuple[Action, ...]]:
        """The open indices with the engine action each carries out."""
        return self._episode("open_actions()").open_indices()

    def _episode(self, asked: str = "an episode") -> Episode:
        if self.closed:
            raise EnvironmentClosedError(asked)
        if self.episode is None:
            raise RuntimeError("call reset() before using the environment.")
        return self.episode

    def _acting(self, asked: str) -> str:
        """The agent to act; RuntimeError before reset() and once every agent has left
        the game (``agents`` empty: its agent_iter() loop is done)."""
        self._episode(asked)
        if not self.agents:
            raise RuntimeError(
                "the game is over and both agents have left it (agents is empty, "
                "agent_iter() is done): call reset() to play another."
            )
        return str(self.agent_selection)

    def _after_step(self) -> None:
        episode = self._episode()
        if episode.over:
            returns = episode.game.returns()
            for side, agent in enumerate(AGENTS):
                self.rewards[agent] = float(returns[side])
                self.terminations[agent] = True
            self.agent_selection = AGENTS[0]
        else:
            self.rewards = dict.fromkeys(AGENTS, 0.0)
            self.agent_selection = AGENTS[episode.side]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()


def _agent(agent: str) -> str:
    """``agent`` if it is one of the game's, else a ValueError naming them (a TypeError
    too if it is not even a name)."""
    refusal = f"no agent {agent!r}: the agents are {', '.join(AGENTS)}"
    if arguments.text("agent", agent, refusal) not in AGENTS:
        raise UsageError(refusal)
    return agent
