"""The shape every ruleset's game takes (after OpenSpiel): state, actions, chance, events.

AIs, the batch simulator, the record/replay and the command line talk only to this
protocol, so they work for every ruleset that implements it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from kriegsspiel.errors import KriegsspielError

CHANCE = -1  # ``current_player`` at a chance node
TERMINAL = -4  # ``current_player`` once the game is over

A = TypeVar("A")


class IllegalActionError(KriegsspielError, ValueError):
    """An action that is not legal in this state; the state is left unchanged."""


@dataclass(frozen=True, slots=True)
class Event:
    """One line of the game's record: what happened, with the numbers that decided it."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, **self.data}


class GameState(Protocol[A]):
    """A position in a game; ``apply_action`` moves it on (chance outcomes included).

    A game's own class (``BoltActionGame``) implements these; ``help()`` on this protocol
    says what each means."""

    def current_player(self) -> int:
        """Who decides now: a side (0 or 1), ``CHANCE`` (-1) at a chance node (a draw from
        the order-dice bag: sample ``chance_outcomes``), or ``TERMINAL`` (-4) once the game
        is over. (-1 is a valid list index: test for ``CHANCE`` before indexing players.)"""
        ...

    def legal_actions(self) -> Sequence[A]:
        """The actions offered now, a new list each call: at a decision, a sensible set
        (a move is offered to some places worth a look; any other reachable place is legal
        too, which ``is_legal`` tells); at a chance node, the draws; once over, none."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[A, float]]:
        """At a chance node, each outcome with its probability (a float; they sum to 1);
        elsewhere none."""
        ...

    def apply_action(self, action: A) -> None:
        """Carry out a decision or chance outcome; an illegal one raises
        IllegalActionError and changes nothing."""
        ...

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        ...

    def returns(self) -> tuple[float, float]:
        """Each side's result: +1 for a win, -1 for a loss, 0 for a draw, and (0, 0)
        while the game goes on."""
        ...

    def clone(self) -> GameState[A]:
        """An independent copy, rolling the same dice as this state unless reseeded
        (``copy.copy`` of a game gives one too)."""
        ...

    def reseed(self, seed: int) -> None:
        """Roll the dice from now on from ``seed`` (a look-ahead's own dice)."""
        ...

    @property
    def events(self) -> list[Event]:
        """What happened so far, as the record has it: the game's own live list (copy it
        to keep it as it stands)."""
        ...
