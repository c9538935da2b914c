"""The player protocol and the random player; they work for every game that has the shape."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
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


#: the options each kind of player takes after its name, as ``--players`` and a record
#: name it ("tactical:explore=2"); the others take none
OPTIONS: dict[str, tuple[str, ...]] = {"tactical": ("explore",)}
SPEC_EXAMPLE = "tactical:explore=2"


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A seat's player as ``--players``, a matchup and a record name it: its kind, and for
    the tactical AI ``explore`` (points within which it picks among its best orders, by its
    seat's seed: the game's seed plus its side; 0, its best). Written as ``str(spec)``:
    the kind alone without explore (as every record before explore), else
    "tactical:explore=2" (the number written to come back exactly)."""

    kind: str
    explore: float = 0.0

    def __str__(self) -> str:
        if not self.explore:
            return self.kind
        shown = repr(self.explore)
        return f"{self.kind}:explore={shown.removesuffix('.0')}"


def check_explore(explore: object) -> float:
    """``explore`` as points (a float), if it is 0 or more and finite."""
    points = arguments.number("explore", explore)
    if not (points >= 0 and math.isfinite(points)):
        raise UsageError(
            f"explore is 0 or more points of an order's worth (0: the AI's best), not {explore!r}"
        )
    return points


def parse_spec(text: str, kinds: Sequence[str]) -> PlayerSpec | None:
    """The player ``text`` names ("tactical", "tactical:explore=2"; any case, spaces
    allowed), or None if its kind is not one of ``kinds``; an option its kind does not
    take, or a bad value, is refused (UsageError) saying what it takes."""
    kind, *options = (part.strip() for part in text.strip().lower().split(":"))
    if kind not in kinds:
        return None
    explore: float | None = None
    for option in options:
        name, equals, value = (part.strip() for part in option.partition("="))
        if kind not in OPTIONS:
            raise UsageError(
                f"{text.strip()!r}: the {kind} player takes no options (explore is the "
                f"tactical AI's, e.g. {SPEC_EXAMPLE})"
            )
        if name not in OPTIONS[kind] or not equals or explore is not None:
            raise UsageError(
                f"{text.strip()!r}: the tactical AI takes one option, explore=N (points of "
                f"an order's worth within which it picks among its best orders, e.g. "
                f"{SPEC_EXAMPLE}), not {option!r}"
            )
        try:
            explore = check_explore(float(value))
        except ValueError:
            raise UsageError(
                f"{text.strip()!r}: explore is 0 or more points of an order's worth, e.g. "
                f"{SPEC_EXAMPLE}, not {value!r}"
            ) from None
    return PlayerSpec(kind, explore or 0.0)


def parse_players(text: str) -> tuple[str, str] | None:
    """The two AI players of "tactical,random" (any case, spaces allowed; the tactical AI
    with its options, "tactical:explore=2,random"), each as :class:`PlayerSpec` writes it,
    or None if not two."""
    return _two(text, get_args(PlayerKind))


def parse_seats(text: str) -> tuple[str, str] | None:
    """The two seats of "human,tactical" (any case, spaces allowed; the tactical AI with
    its options, "human,tactical:explore=2"), each as :class:`PlayerSpec` writes it, or
    None if not two."""
    return _two(text, get_args(Seat))


def recorded_seat(player: object) -> str | None:
    """A record's name for who played a side ("tactical:explore=2", "agent"), as
    :class:`PlayerSpec` writes it, or None if it names no one a record may (refused
    (UsageError) if its options are not its kind's)."""
    if not isinstance(player, str):
        return None
    spec = parse_spec(player, get_args(RecordedSeat))
    return None if spec is None else str(spec)


def _two(text: str, kinds: Sequence[str]) -> tuple[str, str] | None:
    parts = text.split(",")
    if len(parts) != 2:
        return None
    specs = [parse_spec(part, kinds) for part in parts]
    if specs[0] is None or specs[1] is None:
        return None
    return str(specs[0]), str(specs[1])


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
    turn, scenario = getattr(game, "turn", None), getattr(game, "scenario", None)
    at = f", at turn {scenario.turn_of(turn)}" if turn is not None and scenario is not None else ""
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
