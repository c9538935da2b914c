"""The shape every ruleset's game takes (after OpenSpiel): state, actions, chance, events.

AIs, the batch simulator, the record/replay and the command line talk only to this
protocol, so they work for every ruleset that implements it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

CHANCE = -1  # ``current_player`` at a chance node
TERMINAL = -4  # ``current_player`` once the game is over

A = TypeVar("A")


class IllegalActionError(ValueError):
    """An action that is not legal in this state; the state is left unchanged."""


@dataclass(frozen=True, slots=True)
class Event:
    """One line of the game's record: what happened, with the numbers that decided it."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, **self.data}


class GameState(Protocol[A]):
    """A position in a game; ``apply_action`` moves it on (chance outcomes included)."""

    def current_player(self) -> int: ...

    def legal_actions(self) -> Sequence[A]: ...

    def chance_outcomes(self) -> Sequence[tuple[A, float]]: ...

    def apply_action(self, action: A) -> None: ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> tuple[float, float]: ...

    def clone(self) -> GameState[A]:
        """An independent copy, rolling the same dice as this state unless reseeded."""
        ...

    def reseed(self, seed: int) -> None:
        """Roll the dice from now on from ``seed`` (a look-ahead's own dice)."""
        ...

    @property
    def events(self) -> list[Event]: ...
