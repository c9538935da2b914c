"""One side of a game against an AI, as a Gymnasium environment.

The agent plays ``side`` (0 holds army A); the other side is the tactical AI (or the
random player), seeded as in ``kriegsspiel play``: an episode of seed ``s`` draws the
bag, rolls the dice and has the AI decide as ``kriegsspiel play --seed s`` would. The
tactical AI is deterministic (only the dice vary); ``explore`` makes it pick among its
near-best orders by the episode's seed, a varied opponent. A step
is one index: an order, a reaction, an ambush, keeping a die, a FUBAR unit's friend, or
the ending of an Advance whose place the last index chose. The AI's decisions and the
draws between two of the agent's are made inside the step. The reward is the game's
return at its end (+1 a win, -1 a loss, 0 a draw); a game always ends (its last turn),
so nothing is truncated. The open indices are ``info["action_mask"]`` and
:meth:`VersusAIEnv.action_masks` (the name maskable learners look for). Gymnasium's
wrappers round an environment made by ``gymnasium.make`` pass on none of this class's
own methods: reach them as ``env.unwrapped.record(path)`` or
``env.get_wrapper_attr("action_masks")()``. An index not
open raises IllegalActionError; with ``illegal="lose"`` it ends the game as the agent's
loss instead (reward -1, ``info["illegal"]`` saying why), for learners without a mask.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

try:
    import gymnasium
except ImportError as missing:  # the env extra is not installed
    raise ImportError(
        "kriegsspiel.env.versus_ai needs Gymnasium and PettingZoo, the env extra: "
        f"pip install -e '.[env]' in the checkout ({missing})."
    ) from missing
import numpy as np
import numpy.typing as npt

from kriegsspiel.ai.players import Player, PlayerSpec, check_explore
from kriegsspiel.core import arguments
from kriegsspiel.core.game import IllegalActionError
from kriegsspiel.core.seeds import next_seed, side_seed
from kriegsspiel.env import spaces
from kriegsspiel.env.closed import EnvironmentClosedError
from kriegsspiel.env.episode import Episode, Setup, new_seed, swap_option
from kriegsspiel.env.render import RENDER_MODES, render_episode
from kriegsspiel.errors import UsageError
from kriegsspiel.sim.matchup import new_player

Observation = dict[str, Any]  # the arrays of kriegsspiel.env.observe, by name


class VersusAIEnv(gymnasium.Env[Observation, np.int64]):
    """Konflikt '47 or Bolt Action 1st edition, one agent against an AI."""

    # render_fps: the pace of a recording of the drawings (nothing here runs in real time)
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012 (Gymnasium's)

    def __init__(
        self,
        ruleset: str | None = "konflikt47",
        scenario: str | None = None,
        armies: Sequence[str] = (),
        *,
        side: int = 0,
        opponent: str = "tactical",
        explore: float = 0.0,
        illegal: str = "raise",
        cell: float = 3.0,
        render_mode: str | None = None,
        rules_file: str | Path | None = None,
    ) -> None:
        """``side``: the agent's side (0 or 1); ``opponent``: "tactical" or "random";
        ``explore``: points of an order's worth within which the tactical AI picks among
        its best orders by the episode's seed (0, the default: always its best, as
        ``play``'s AI); ``illegal``: "raise" or "lose" (what an index not open does); the
        rest as :class:`kriegsspiel.env.aec.KriegsspielEnv` takes them."""
        wanted = f"side is 0 or 1, not {side!r}"
        side = arguments.whole("side", side, wanted)
        if side not in (0, 1):
            raise UsageError(wanted)
        arguments.one_of("opponent", opponent, ("tactical", "random"))
        explore = arguments.number("explore", explore)
        if explore != 0 and opponent != "tactical":
            raise UsageError(
                f"explore (here {explore!r}) varies the tactical AI's choices, and the "
                f"opponent is {opponent!r}: give opponent='tactical', or leave explore out"
            )
        # the opponent as --players and the game's record name it ("tactical:explore=2")
        self.opponent_spec = str(PlayerSpec(opponent, check_explore(explore)))
        arguments.one_of("illegal", illegal, ("raise", "lose"))
        arguments.one_of("render_mode", render_mode, (*RENDER_MODES, None))
        self.side, self.opponent_kind, self.render_mode = side, opponent, render_mode
        self.explore = explore
        self.illegal = illegal
        self.forfeit: str | None = None  # why the agent lost by an index not open
        self._forfeited = ""  # the same, told after the game (no index open any more)
        self.setup = Setup.of(ruleset, scenario, armies, cell, rules_file)
        self.observation_space = spaces.observation_arrays(self.setup)
        self.action_space = spaces.actions(self.setup)
        self.episode: Episode | None = None
        self.opponent: Player | None = None
        self.closed = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new game: ``seed`` seeds its dice, its draws and the AI (left out: a random
        one); ``options={"swap": True}`` puts army B on side 0."""
        if self.closed:
            raise EnvironmentClosedError("reset()")
        checked = None if seed is None else new_seed(seed)
        swap = swap_option(options)
        super().reset(seed=checked)
        game_seed = checked if checked is not None else next_seed(self.np_random)
        self.episode = Episode(self.setup, game_seed, swap)
        self.forfeit = None
        self.opponent = new_player(self.opponent_spec, side_seed(game_seed, 1 - self.side))
        self._opponent_moves()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info(None)

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        episode = self._episode("step()")
        if self.forfeit is not None:
            raise IllegalActionError(
                f"the game is over, forfeited by the agent: {self._forfeited}; call reset()"
            )
        if episode.over:
            raise IllegalActionError("the game is over: no index is open; call reset()")
        index = episode.checked(action)  # (not an index at all: refused, never forfeited)
        if self.illegal == "lose" and index not in episode.open_indices():
            self._forfeited = f"{episode.named(index)} was not open"
            self.forfeit = f"{episode.named(index)} is not open now; the agent forfeits"
            info = {**self._info(None), "illegal": self.forfeit}
            info["action_mask"] = self.action_masks()
            if self.render_mode == "human":
                self.render()
            return self._observation(), -1.0, True, False, info
        done = episode.take(action, "gymnasium")
        if done is not None:
            self._opponent_moves()
        reward = float(episode.game.returns()[self.side]) if episode.over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, episode.over, False, self._info(done)

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The indices open now, 1 each (all 0 once the game is over): the same int8
        array as ``info["action_mask"]``, which ``action_space.sample(mask=...)`` takes."""
        if self.forfeit is not None:
            return np.zeros(self.setup.encoding.size, np.int8)
        return self._episode("action_masks()").mask()

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        if self.closed:
            raise EnvironmentClosedError("render()")
        if self.render_mode is None or self.episode is None:
            return None
        forfeit = None if self.forfeit is None else self._forfeited
        return render_episode(self.episode, self.render_mode, forfeit=forfeit)

    def close(self) -> None:
        """Let go of the game, the AI and the terrain planes kept for the table; the
        spaces stay (Gymnasium's wrappers read them). Anything else the environment is
        asked after it raises EnvironmentClosedError; closing it again does nothing."""
        self.episode, self.opponent = None, None
        self.forfeit, self._forfeited = None, ""
        self.setup.observer.forget()
        self.closed = True

    @property
    def game(self) -> Any:
        """The engine's game (its events, record and every rule's own query)."""
        return self._episode("game").game

    def record(self, path: str) -> str:
        """Write the game so far as a record that ``kriegsspiel replay`` re-runs (the
        agent's side named "agent", the AI's as ``--players`` names it: with its explore,
        "tactical:explore=1"); returns its text."""
        players = ["agent", "agent"]
        players[1 - self.side] = self.opponent_spec
        return self._episode("record()").write_record(path, (players[0], players[1]))

    def describe(self, index: int) -> str:
        """What an index means now, in words."""
        return self.setup.encoding.describe(index, self._episode("describe()").game)

    def _opponent_moves(self) -> None:
        episode, opponent = self._episode(), self.opponent
        assert opponent is not None
        while not episode.over and episode.side != self.side:
            episode.play(opponent.choose(episode.game))

    def _observation(self) -> Observation:
        return self._episode().observe(self.side, closed=self.forfeit is not None)

    def _info(self, done: Any) -> dict[str, Any]:
        episode = self._episode()
        return {
            "action_mask": episode.mask(),
            "action": {} if done is None else done.to_json(),
            "seed": episode.seed,
        }

    def _episode(self, asked: str = "an episode") -> Episode:
        if self.closed:
            raise EnvironmentClosedError(asked)
        if self.episode is None:
            raise RuntimeError("call reset() before using the environment.")
        return self.episode
