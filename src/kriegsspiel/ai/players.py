"""The player protocol and the random player; they work for every game that has the shape."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal, Protocol, TypeVar, cast, get_args

from kriegsspiel.core import arguments
from kriegsspiel.core.game import CHANCE
from kriegsspiel.core.seeds import MAX_PLAYER_SEED, chance_stream
from kriegsspiel.errors import GameDidNotEnd, UsageError


class Player(Protocol):
    """Chooses one of the legal actions for the side to move."""

    def choose(self, state: Any) -> Any: ...


PlayerKind = Literal["tactical", "random"]  # the players a matchup (many games) may name
# who may sit at a side of one game, and so be named in its record: an AI, or a person
# at the terminal (kriegsspiel.solo)
Seat = Literal["tactical", "random", "human"]
# who may be named at a side of a record: a seat, or a learning agent that played it
# through kriegsspiel.env (its game replays; it cannot be resumed at the terminal)
RecordedSeat = Literal["tactical", "random", "human", "agent"]


def parse_players(text: str) -> tuple[PlayerKind, PlayerKind] | None:
    """The two players of "tactical,random" (any case, spaces allowed), or None if not two."""
    kinds = parse_seats(text)
    if kinds is None or any(k not in get_args(PlayerKind) for k in kinds):
        return None
    return cast(PlayerKind, kinds[0]), cast(PlayerKind, kinds[1])


def parse_seats(text: str) -> tuple[Seat, Seat] | None:
    """The two seats of "human,tactical" (any case, spaces allowed), or None if not two."""
    kinds = [k.strip().lower() for k in text.split(",")]
    if len(kinds) != 2 or any(k not in get_args(Seat) for k in kinds):
        return None
    return cast(Seat, kinds[0]), cast(Seat, kinds[1])


class RandomPlayer:
    """Picks uniformly among the legal actions, with its own seeded generator.

    Its stream is seeded from the text "player <seed>", not the bare number: :func:`play`
    draws chance outcomes (the order dice) from ``chance_stream(seed)``, ``random.Random(seed)``
    (:mod:`kriegsspiel.core.seeds`), and a player given
    the same seed as the game would otherwise repeat the bag's draws in its choices.
    """

    def __init__(self, seed: int = 0) -> None:
        seed = arguments.seed(seed, most=MAX_PLAYER_SEED)
        self.rng = random.Random(f"player {seed}")

    def choose(self, state: Any) -> Any:
        """One of the legal actions of the side to decide; refused at a chance node or once
        the game is over (:func:`deciding_side`)."""
        deciding_side(state, "RandomPlayer")
        actions = state.legal_actions()
        return actions[self.rng.randrange(len(actions))]


def deciding_side(state: Any, player: str) -> int:
    """The side that decides now, for ``player`` (its name) to choose for; a chance node
    (``CHANCE``: a draw from the order-dice bag) or a finished game is refused, saying
    what to do instead: a player asked there would answer for the wrong side."""
    side: int = state.current_player()
    if side >= 0:
        return side
    if side == CHANCE:
        raise UsageError(
            f"{player} chooses a side's decisions, and this is a chance node (a draw from "
            "the order-dice bag): sample it with kriegsspiel.ai.players.chance_outcome(state, "
            "rng), or from state.chance_outcomes()"
        )
    raise UsageError(f"{player} was asked to choose, but the game is over (state.is_terminal())")


def chance_outcome(state: Any, rng: random.Random) -> Any:
    """Sample a chance node's outcome with its exact probabilities; refused at a decision
    (a player's ``choose`` answers there) or once the game is over."""
    side: int = state.current_player()
    if side != CHANCE:
        raise UsageError(
            "chance_outcome samples a chance node (a draw from the order-dice bag), and "
            + (
                f"here side {side} decides: ask its player's choose(state)"
                if side >= 0
                else "the game is over (state.is_terminal())"
            )
        )
    if not isinstance(rng, random.Random):
        raise UsageError(f"rng must be a random.Random, e.g. random.Random(7), not {rng!r}")
    outcomes: Sequence[tuple[Any, float]] = state.chance_outcomes()
    actions = [a for a, _ in outcomes]
    return rng.choices(actions, [p for _, p in outcomes])[0]


# The most actions (chance draws and decisions) a game may take before it is stopped as one
# that would never end. A Bolt Action family game takes about two a unit a turn (a draw and
# an order; reactions, ambushes and dice kept add a few), so a scenario's most turns
# (kriegsspiel.core.scenario.MOST_TURNS, 100) of two lists at their most units (40 a side)
# come to well under this, even where the armies cannot harm each other.
MAX_ACTIONS = 100_000


S = TypeVar("S")  # the game played: play() gives back the game it was given, played out


def play(state: S, players: Sequence[Player], seed: int = 0, max_actions: int | None = None) -> S:
    """Play a game to its end: chance from a generator seeded by ``seed``, decisions by
    players. A game still going after ``max_actions`` (by default MAX_ACTIONS) raises
    GameDidNotEnd, which holds the game as it stood. ``players`` are checked before any
    action is taken: two, one a side (side 0's first), each with ``choose(state)``."""
    if (
        isinstance(players, str)
        or not isinstance(players, Sequence)
        or len(players) != 2
        or not all(callable(getattr(p, "choose", None)) for p in players)
    ):
        raise UsageError(
            "players is a list of two players, side 0's then side 1's, each with a "
            f"choose(state) method (e.g. RandomPlayer(1)), not {players!r}"
        )
    seed = arguments.seed(seed)
    if max_actions is not None and arguments.whole("max_actions", max_actions) < 1:
        raise UsageError(f"max_actions must be 1 or more, not {max_actions!r}")
    limit = MAX_ACTIONS if max_actions is None else max_actions
    rng, game = chance_stream(seed), cast(Any, state)  # (any game of the shape)
    for _ in range(limit):
        if game.is_terminal():
            return state
        player = game.current_player()
        action = chance_outcome(game, rng) if player == CHANCE else players[player].choose(game)
        game.apply_action(action)
    if game.is_terminal():
        return state
    turn, turns = (
        getattr(game, "turn", None),
        getattr(getattr(game, "scenario", None), "turns", None),
    )
    at = f", at turn {turn} of {turns}" if turn is not None and turns is not None else ""
    if max_actions is not None:
        raise GameDidNotEnd(
            f"the game did not end within the {limit:,} actions max_actions allowed{at}",
            state,
        )
    raise GameDidNotEnd(
        f"the game did not end within {limit:,} actions{at}: the engine stops a game there, "
        "as one that would go on for ever (a game of a scenario's most turns and the most "
        "units takes far fewer); this is a bug of kriegsspiel's, or of a rules file's numbers",
        state,
    )
