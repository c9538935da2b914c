"""The game registered with OpenSpiel (``pyspiel``), for its algorithms and tools.

Importing this module registers ``python_kriegsspiel``; then
``pyspiel.load_game("python_kriegsspiel", {"ruleset": "bolt-action-1"})`` gives a game of
the same set-ups, numbering and observation as the other environments
(:class:`.episode.Setup`, :mod:`.encoding`, :mod:`.observe`). The only module that knows
pyspiel (``pip install -e ".[openspiel]"``).

How it meets OpenSpiel's conventions:

- **Chance.** The draw from the order-dice bag is an explicit chance node (outcome 0 or
  1: the side whose die comes out, with its exact chance). The game's other dice (to hit,
  to damage, tests) are rolled inside an action, so the game is declared
  ``SAMPLED_STOCHASTIC``, as OpenSpiel's own games that roll inside an action are.
- **Seeds.** As in those games, the parameter ``rng_seed`` fixes the games' seeds: the
  n-th new initial state takes the n-th seed of ``rng_seed``'s sequence when it is made
  (however the states are then used), so a run is reproducible and successive games roll
  different dice. Clones and states read back take none.
- **Clones.** A clone is exact by default: it rolls the dice its original will, so
  OpenSpiel's conformance test (a clone and its original given the same action stay
  equal) holds. A search must not see the dice the real game is yet to roll: with
  ``reroll_on_clone=True`` each clone rolls dice of its own, drawn from a generator of
  the game's kept for them alone (the engine's ``reseed``), so MCTS and its kin plan
  against the chances, not against one known future, and how much they search changes no
  later game's seed.
- **History.** ``state.history()`` lists the actions taken, as OpenSpiel's states do,
  but cannot rebuild the state: the dice are rolled inside the actions, and a new
  initial state takes the next seed of the sequence, so replaying the list on it rolls
  other dice and soon meets an index not open. ``state.serialize()`` (with
  ``game.deserialize_state``) and ``state.clone()`` are the ways to save or copy one.
- **Information.** Everything on the table is open to both players, so the game is one
  of perfect information; the observation (``observation_tensor``, and its named parts
  ``planes``, ``units``, ``game`` in ``make_py_observer``) is the environments' own.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from kriegsspiel.ai.players import PlayerSpec, check_explore
from kriegsspiel.core import arguments
from kriegsspiel.core.seeds import openspiel_seed, reroll_seed, reroll_stream
from kriegsspiel.env.encoding import NotEncodedError
from kriegsspiel.env.episode import Episode, Setup
from kriegsspiel.env.render import render_episode
from kriegsspiel.errors import KriegsspielError, UsageError, UsageTypeError
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.sim.matchup import PLAYER_KINDS, new_player, set_up_game

SHORT_NAME = "python_kriegsspiel"
# decisions (indices, follow-ups included) allowed per unit and turn in max_game_length: a
# unit's order and its follow-up, a reaction or an ambush for each order that meets it, a
# FUBAR's target, the kept die; generous (random games of the shipped set-ups take at most
# about 170 decisions in all, against 1,296 and 1,512 allowed)
DECISIONS_PER_UNIT_TURN = 12

PARAMETERS: dict[str, Any] = {
    "ruleset": "konflikt47",
    "scenario": "",  # "": the ruleset's standard scenario
    "army_a": "",  # "": the ruleset's sample armies
    "army_b": "",
    "rules_file": "",  # "": the edition's shipped rules
    "cell": 3.0,  # inches a side of the numbering's square cells
    "rng_seed": 0,
    "reroll_on_clone": False,
}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="kriegsspiel: Konflikt '47 and Bolt Action 1st edition",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


class KriegsspielGame(pyspiel.Game):  # type: ignore[misc]
    """One set-up (ruleset, scenario, armies, rules file) and its numbering."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**PARAMETERS, **(params or {})}
        unknown = sorted(set(given) - set(PARAMETERS))
        if unknown:
            raise UsageError(
                f"{SHORT_NAME} has no parameter {', '.join(unknown)}; "
                f"its parameters are {', '.join(PARAMETERS)}"
            )
        armies = [given["army_a"], given["army_b"]]
        if bool(armies[0]) != bool(armies[1]):
            raise UsageError("give both army_a and army_b, or neither (the sample armies)")
        try:
            self.setup = Setup.of(
                str(given["ruleset"]),
                given["scenario"] or None,
                armies if armies[0] else (),
                float(given["cell"]),
                given["rules_file"] or None,
            )
        except UsageError as exc:  # (a wrong type stays a TypeError too)
            raise (UsageTypeError if isinstance(exc, TypeError) else UsageError)(str(exc)) from None
        self.reroll_on_clone = bool(given["reroll_on_clone"])
        self.rng_seed = arguments.seed(given["rng_seed"], "rng_seed")
        self.made = 0  # the new initial states made so far: the next takes seed number made
        self.rerolls = reroll_stream(self.rng_seed)  # a reroll_on_clone clone's seeds
        self.observer = KriegsspielObserver(self.setup)  # observation_tensor's
        encoding, units = self.setup.encoding, self.setup.encoding.units
        turns = set_up_game(self.setup.matchup, 0).scenario.most_turns  # (a roll may add one)
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.size,
            max_chance_outcomes=2,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=turns * units * DECISIONS_PER_UNIT_TURN,
        )
        super().__init__(GAME_TYPE, info, given)

    def new_initial_state(self) -> KriegsspielState:
        """A new game, its dice seeded by the next seed of ``rng_seed``'s sequence."""
        return KriegsspielState(self)

    def take_seed(self) -> tuple[int, int]:
        """The next game's number (from 1) and its seed: the number's place in the sequence
        of ``rng_seed`` (NumPy's ``SeedSequence``, so each is as good as a fresh one)."""
        self.made += 1
        return self.made, openspiel_seed(self.rng_seed, self.made)

    def give_back(self, number: int) -> None:
        """OpenSpiel made a new initial state only to copy another over it (a clone, a state
        read back): the seed it took is given back, if it was the last one taken, so that
        copies take no place in the sequence."""
        if number == self.made:
            self.made -= 1

    def deserialize_state(self, text: str) -> KriegsspielState:
        """The state ``state.serialize()`` saved as ``text``. The text holds a pickle, and
        reading one back runs what it names: read back only text you saved yourself, never
        one from a source you do not trust. Text that is not a saved state is refused as
        such (not with OpenSpiel's or pickle's own words)."""
        lines = text.split("\n") if isinstance(text, str) else []
        if [line.partition("=")[0] for line in lines] != ["history", "move_number", "__dict__"]:
            raise _not_saved(text, "it is not the three lines history=, move_number=, __dict__=")
        try:
            state: KriegsspielState = super().deserialize_state(text)
        except KriegsspielError:  # (saved on another set-up: said so by name)
            raise
        except Exception as exc:  # (a pickle cut short or altered fails in many ways)
            raise _not_saved(text, f"it is cut short or altered: {type(exc).__name__}") from None
        return state

    def observation_tensor_shape(self) -> list[int]:
        """The flat tensor's shape, ``[7920]`` for the standard set-ups (read from the
        observer: OpenSpiel's own makes and observes a new initial state each time,
        which would take a seed of the sequence)."""
        return [self.observer.tensor.size]

    def observation_tensor_size(self) -> int:
        return int(self.observer.tensor.size)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> KriegsspielObserver:
        if params:
            raise UsageError(f"{SHORT_NAME}'s observer takes no parameters (got {params})")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise UsageError(
                f"{SHORT_NAME} gives no information state (its play is open to both "
                "players): ask for the observation"
            )
        return KriegsspielObserver(self.setup)


class _Play:
    """The episode inside a state, made when first asked for, so that a clone (a new
    initial state whose attributes OpenSpiel then deep-copies over) costs no set-up.

    Its seed is fixed when it is made (``number``: its place in the game's sequence; 0 for
    a copy). Copied, it is as the engine clones a game, and with ``reroll_on_clone`` the
    copy then rolls dice of its own. Pickled (``state.serialize()``), it keeps the
    engine's game and where the episode stands, with the set-up it was played on, and
    takes the set-up back from the game it is read into, which must be the same."""

    def __init__(
        self, game: KriegsspielGame | None, seed: int | None = None, number: int = 0
    ) -> None:
        self.game = game  # None once read back, until the state links it again
        self.seed = seed  # None only once read back (the saved state has it)
        self.number = number  # its place in the game's sequence of seeds (0: a copy)
        self.episode: Episode | None = None
        self.saved: dict[str, Any] | None = None

    def made(self, game: KriegsspielGame) -> Episode:
        """The episode, made (or read back) for ``game`` if it is not yet."""
        self.game = game
        if self.episode is None and self.saved is not None:
            self.episode = _read_back(self.saved, game)
            self.saved = None
        if self.episode is None:
            assert self.seed is not None  # (made by a game, or read back with its seed)
            self.episode = Episode(game.setup, self.seed, draws=False)
        return self.episode

    def __deepcopy__(self, memo: dict[int, Any]) -> _Play:
        game = self.game
        assert game is not None  # (a state read back is linked as it is set)
        if self.episode is None and not game.reroll_on_clone:
            return _Play(game, self.seed)  # not begun: the copy begins the same game
        twin = _Play(game, self.seed)
        twin.episode = self.made(game).copy()  # (begun now if it was not: its dice rerolled)
        if game.reroll_on_clone:
            twin.episode.game.reseed(reroll_seed(game.rerolls))
        return twin

    def __getstate__(self) -> dict[str, Any]:
        assert self.game is not None  # (a state read back is linked as it is set)
        episode = self.made(self.game)
        return {
            "setup": _identity(self.game),
            "seed": episode.seed,
            "game": episode.game,
            "chance": episode.chance.getstate(),
            "advance": episode.advance,
        }

    def __setstate__(self, saved: dict[str, Any]) -> None:
        self.game, self.seed, self.episode, self.saved = None, None, None, saved
        self.number = 0


def _not_saved(text: object, why: str) -> UsageError:
    shown = repr(text) if len(repr(text)) <= 40 else f"{repr(text)[:37]}..."
    return UsageError(
        f"{shown} is not a saved state of {SHORT_NAME} ({why}): give the text a state's "
        "serialize() gave, whole"
    )


def _identity(game: KriegsspielGame) -> tuple[str, float]:
    """What a saved state must have been played on: the matchup (its files' content) and
    the numbering's cell."""
    setup = game.setup
    return setup.matchup.key, setup.encoding.cell


def _read_back(saved: dict[str, Any], game: KriegsspielGame) -> Episode:
    if saved.get("setup") != _identity(game):
        raise UsageError(
            f"this saved state was played on another set-up than this {SHORT_NAME} game's "
            f"({game}): read it into a game loaded with the parameters it was saved from"
        )
    chance = random.Random()
    chance.setstate(saved["chance"])
    return Episode.resumed(
        game.setup,
        saved["seed"],
        saved["game"],
        draws=False,
        chance=chance,
        advance=saved["advance"],
    )


class KriegsspielState(pyspiel.State):  # type: ignore[misc]
    """A game in progress (its episode made when first asked for)."""

    def __init__(self, game: KriegsspielGame) -> None:
        super().__init__(game)
        # (no attribute may hold the game itself: a clone deep-copies every attribute,
        # and OpenSpiel cannot copy a game that keeps a generator)
        number, seed = game.take_seed()
        self.__dict__["_play"] = _Play(game, seed, number)

    @property
    def _play(self) -> _Play:
        play: _Play = self.__dict__["_play"]
        return play

    @_play.setter
    def _play(self, play: _Play) -> None:
        """OpenSpiel sets the attribute on a clone and on a state read back: one read
        back is checked against this game's set-up here, so a wrong one is refused by
        ``deserialize_state`` itself."""
        if play.saved is not None:
            play.made(self._game)
        replaced = self.__dict__.get("_play")
        if replaced is not None and replaced is not play:  # (made only to be copied over)
            self._game.give_back(replaced.number)
        self.__dict__["_play"] = play

    @property
    def _game(self) -> KriegsspielGame:
        game: KriegsspielGame = self.get_game()
        return game

    @property
    def episode(self) -> Episode:
        """The game as the environments play it (``episode.game``: the engine's game)."""
        return self._play.made(self._game)

    def current_player(self) -> int:
        episode = self.episode
        if episode.over:
            return int(pyspiel.PlayerId.TERMINAL)
        if episode.at_chance:
            return int(pyspiel.PlayerId.CHANCE)
        return episode.side

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.episode.open_indices())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return sorted((a.side, p) for a, p in self.episode.game.chance_outcomes())

    def apply_action(self, action: int) -> None:
        """OpenSpiel's ``apply_action``, but what is not a whole number (True, 2.0, None)
        is refused with the environments' IndexTypeError, and -1 (OpenSpiel's
        ``INVALID_ACTION``, which its own check refuses as "action_id != kInvalidAction")
        as any other number that is no index. OpenSpiel's C++ code calling the state (its
        C++ bots and tests) does not come here: it gets OpenSpiel's own errors."""
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            action = self.episode.checked(action)  # (a 0-d array of one: its int)
        if action == pyspiel.INVALID_ACTION:
            self._apply_action(action)  # (refuses it: no index, nor side, is -1)
        super().apply_action(action)

    def _apply_action(self, action: int) -> None:
        episode = self.episode
        if episode.at_chance:
            episode.draw(int(action))
        else:
            episode.take(int(action), "openspiel")

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if action not in (0, 1):
                raise UsageError(f"a draw from the bag is 0 (side A) or 1 (side B), not {action}")
            return f"a die of side {'AB'[action]} drawn from the bag"
        return self._game.setup.encoding.describe(int(action), self.episode.game)

    def is_terminal(self) -> bool:
        return self.episode.over

    def observation_tensor(self, player: int | None = None) -> npt.NDArray[np.float32]:
        """The observation of ``player`` (left out: the player to act), flat: a copy of the
        Python observer's tensor as ``set_from`` fills it, a float32 NumPy array (4 bytes
        a number; a list of Python floats took 34, about 80 MB at the finest cell allowed,
        uncounted in the environments' bound: :data:`~.encoding.PLANE_CELL_BYTES`). What
        OpenSpiel's Python algorithms do with it (``np.reshape``, ``np.asarray``, a torch
        tensor) takes an array as it takes a list; ``.tolist()`` gives the list. (OpenSpiel's
        own, for a Python game, sets up and observes a new initial state at every call to
        learn the tensor's size: about 20 times as slow, and it took a seed of the
        sequence.)"""
        if player is None:
            player = self.current_player()
        if isinstance(player, bool) or not isinstance(player, int | np.integer):
            raise UsageTypeError(f"a player is 0 or 1, not {player!r}")
        if player not in (0, 1):
            now = "" if self.current_player() >= 0 else " (no player acts now: name one)"
            raise UsageError(f"a player is 0 or 1, not {player}{now}")
        observer = self._game.observer
        observer.set_from(self, int(player))
        return observer.tensor.copy()

    def returns(self) -> list[float]:
        return list(self.episode.game.returns())

    def reseed(self, seed: int) -> None:
        """Roll every die from now on from ``seed`` (the engine's ``reseed``)."""
        self.episode.game.reseed(seed)

    def __str__(self) -> str:
        episode = self.episode
        position = json.dumps(episode.game.observation(), sort_keys=True, default=str)
        digest = hashlib.sha256(position.encode()).hexdigest()[:16]
        return f"{render_episode(episode, 'ansi')}\nposition {digest}"


class KriegsspielObserver:
    """OpenSpiel's Python observer: the environments' arrays, as one flat tensor and its
    named parts (``game``, ``planes``, ``units``, in that order), seen from a player's side."""

    def __init__(self, setup: Setup) -> None:
        shapes = setup.observer.shapes
        # in the order of the keys' names, as Gymnasium's Dict space flattens them, so the
        # flat tensor is gymnasium.spaces.flatten's of the environments' observation
        parts = {"game": shapes.game, "planes": shapes.planes, "units": shapes.units}
        size = sum(int(np.prod(shape)) for shape in parts.values())
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        start = 0
        for name, shape in parts.items():
            end = start + int(np.prod(shape))
            self.dict[name] = self.tensor[start:end].reshape(shape)
            start = end

    def set_from(self, state: KriegsspielState, player: int) -> None:
        for name, array in state.episode.observe(player).items():
            self.dict[name][...] = array

    def string_from(self, state: KriegsspielState, player: int) -> str:
        return f"side {'AB'[player]}\n{state}"


class AIBot(pyspiel.Bot):  # type: ignore[misc]
    """The engine's AI (``tactical`` or ``random``) as an OpenSpiel bot, to play against
    OpenSpiel's agents (``evaluate_bots``, a learner's evaluation).

    The AI picks an engine order; the bot answers its index, and at an Advance with
    several endings the ending's index at the next step. Where the numbering does not
    carry the AI's very place (a second place of one move in one cell: 1-3% of the
    tactical AI's choices), the index of its cell is played, the place offered there
    nearest the cell's centre, with the AI's target and way of ending where open."""

    def __init__(self, kind: str = "tactical", seed: int = 0, explore: float = 0.0) -> None:
        """``kind``: "tactical" or "random"; ``seed``: a whole number 0 to 2**63 - 1, as
        a game's. The random player's choices follow the seed; the tactical AI is
        deterministic, the same choice in the same position whatever the seed (the
        seed is taken so that the two are asked alike). ``explore``: points of an
        order's worth within which the tactical AI picks among its best orders, by a
        generator seeded from ``seed`` (0, the default: always its best), as
        ``VersusAIEnv``'s ``explore``; a ``restart_at`` starts its draws again."""
        pyspiel.Bot.__init__(self)
        arguments.text("kind", kind, f"an AI bot is 'tactical' or 'random', not {kind!r}")
        seed = arguments.seed(seed)
        if kind not in PLAYER_KINDS:  # (the tactical AI's explore is given by name here)
            raise UsageError(
                f"no AI player is called {kind!r}: the AI players are "
                f"{' and '.join(PLAYER_KINDS)} (the tactical AI's explore: AIBot('tactical', "
                f"seed, explore=2))"
            )
        explore = check_explore(explore)
        if explore != 0 and kind != "tactical":
            raise UsageError(
                f"explore (here {explore!r}) varies the tactical AI's choices, and the "
                f"kind is {kind!r}: give kind='tactical', or leave explore out"
            )
        self.kind, self.seed, self.explore = kind, seed, explore
        # the bot as --players and a record name it ("tactical:explore=2")
        self.spec = str(PlayerSpec(kind, explore))
        self.player = new_player(self.spec, self.seed)
        self.pending: Action | None = None  # the AI's Advance, its place chosen

    def restart_at(self, state: KriegsspielState) -> None:
        self.player, self.pending = new_player(self.spec, self.seed), None

    def inform_action(self, state: KriegsspielState, player: int, action: int) -> None:
        """Other players' steps change nothing the AI keeps between its own."""

    def step(self, state: KriegsspielState) -> int:
        episode = state.episode
        encoding = episode.setup.encoding
        if episode.advance is not None:  # the ending of the Advance chosen last step
            wanted, self.pending = self.pending, None
            return _ending(episode.advance, wanted)
        action = self.player.choose(episode.game)
        try:
            first, _ = encoding.encode(episode.game, action)
        except NotEncodedError:  # another place in the same cell
            first = encoding.first_index(episode.game, action)
        # (every legal order falls under an open index; an Advance with endings asks one)
        ends = isinstance(episode.open_indices().get(first), tuple)
        self.pending = action if ends else None
        return first


def _ending(endings: dict[int, Action], wanted: Action | None) -> int:
    """The follow-up index carrying out ``wanted`` (the AI's Advance), else one with its
    target and way of ending, else its target, else the first open."""
    for index, action in endings.items():
        if action == wanted:
            return index
    if wanted is not None:
        for same in (
            lambda a: (
                (a.target, a.choice, a.facing) == (wanted.target, wanted.choice, wanted.facing)
            ),
            lambda a: a.target == wanted.target,
        ):
            for index, action in endings.items():
                if same(action):
                    return index
    return min(endings)


pyspiel.register_game(GAME_TYPE, KriegsspielGame)
