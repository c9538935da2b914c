"""The order-dice bag of Konflikt '47 and Bolt Action: which dice are in it, the chance of
each side's die coming out next, and which dice go back in at a turn's end.

One implementation for the simulated game (:class:`~.game.state.BoltActionGame`) and the
table-side play aid (:mod:`kriegsspiel.aid`): both keep their units as records with the
few fields read here, indexed by ``uid``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar


class DieOwner(Protocol):
    """A unit as the bag sees it: whose die it is and what became of it this turn."""

    @property
    def uid(self) -> int: ...
    @property
    def side(self) -> int: ...
    @property
    def destroyed(self) -> bool: ...
    @property
    def order(self) -> str | None: ...  # the die taken for it this turn, showing its order
    @property
    def retained(self) -> str | None: ...  # a Down or Ambush die kept from the last turn


def held(unit: DieOwner) -> str | None:
    """The Down or Ambush order a unit holds (given this turn or kept from the last)."""
    for order in (unit.order, unit.retained):
        if order in ("Down", "Ambush"):
            return order
    return None


U = TypeVar("U", bound=DieOwner)


def waiting(units: Sequence[U], side: int) -> list[U]:
    """The units of ``side`` still to be given an order this turn (their die in the bag)."""
    return [
        u
        for u in units
        if u.side == side and not u.destroyed and u.order is None and u.retained is None
    ]


def put_in(units: Sequence[DieOwner]) -> tuple[int, ...]:
    """The units whose dice go into the bag as a turn begins: the live ones not keeping a
    Down or Ambush die from the turn before (the dice of destroyed units are out)."""
    return tuple(u.uid for u in units if not u.destroyed and u.retained is None)


def may_keep(units: Sequence[DieOwner]) -> tuple[int, ...]:
    """At a turn's end, the units that may keep their die out of the bag for the next turn:
    the live ones on Down or Ambush (their owner says, unit by unit)."""
    return tuple(u.uid for u in units if not u.destroyed and held(u))


def in_bag(
    units: Sequence[DieOwner],
    turn_dice: Sequence[int],
    *,
    stay_until_turn_end: bool,
    in_hand: int | None = None,
    hand_out: bool = False,
) -> tuple[int, int]:
    """Each side's order dice in the bag now.

    Where a destroyed unit's die stays until the turn end (Bolt Action 1st edition, its
    sheet's turn end phase: "Remove order dice for destroyed units"): the dice put in as
    the turn began (``turn_dice``, by unit), less those taken out since (drawn, and a
    vehicle's die turned Down by damage before it had an order); a die drawn and not yet
    given (``in_hand``: its side) is out of the bag, in its player's hand. Where it leaves
    at once (Konflikt '47, an assumption): one die per unit still to be given an order, a
    die just drawn counted until its order is given, unless ``hand_out`` (the count the
    players see, the die in hand out of the bag in both editions; the simulated game's
    observation keeps the count it has always given).
    """
    if not stay_until_turn_end:
        counts = [len(waiting(units, 0)), len(waiting(units, 1))]
        if hand_out and in_hand is not None:
            counts[in_hand] -= 1
        return counts[0], counts[1]
    bag = [0, 0]
    for uid in turn_dice:
        unit = units[uid]
        if unit.order is None:  # no die taken for it yet, destroyed or not
            bag[unit.side] += 1
    if in_hand is not None:
        bag[in_hand] -= 1
    return bag[0], bag[1]


def draw_weights(
    units: Sequence[DieOwner],
    turn_dice: Sequence[int],
    *,
    stay_until_turn_end: bool,
) -> list[tuple[int, int]]:
    """Each side that may come out of the bag next, with its dice there: its chance is its
    share of the dice listed.

    A side whose units all have an order (or are destroyed) could do nothing with a die of
    its own it drew: drawing it would change nothing, so the draw is among the sides that
    still have a unit to order, in proportion to their dice in the bag. (A destroyed
    unit's die left in the bag can thus only ever bring an order to another unit of its
    side.)
    """
    counts = (len(waiting(units, 0)), len(waiting(units, 1)))
    bag = in_bag(units, turn_dice, stay_until_turn_end=True) if stay_until_turn_end else counts
    return [(s, bag[s]) for s in (0, 1) if bag[s] and counts[s]]


def draw_chances(
    units: Sequence[DieOwner],
    turn_dice: Sequence[int],
    *,
    stay_until_turn_end: bool,
) -> list[tuple[int, float]]:
    """Each side that may come out of the bag next, with its chance (:func:`draw_weights`)."""
    weights = draw_weights(units, turn_dice, stay_until_turn_end=stay_until_turn_end)
    total = sum(w for _, w in weights)
    return [(s, w / total) for s, w in weights]
