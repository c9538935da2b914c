"""An order's worth to the tactical player when its order test may stop it.

A unit that fails its order test goes Down and the order is not carried out; so an order
that takes a test is worth its own worth by the chance to pass (the game's test, its exact
odds: :func:`.morale.order_test_passed`), and a Down order's worth by the chance to fail.
A FUBAR (a double six) is weighed as a failure. The assault's worth is weighed so (its test
may carry a modifier: -3 at a closed armoured vehicle without anti-tank weapons); other
orders still take the unit's pins off their worth instead.
"""

from __future__ import annotations

from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.orders import order_test_of
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.rulesets.bolt_action.morale import order_test_needed, order_test_passed


def down_value(pins: int, threatened: bool) -> float:
    """A Down order's worth: the more pins the unit carries the more it is worth (doctrine:
    a heavily pinned unit goes Down, out of harm's way), and it pays only under threat."""
    return 3.0 * pins + (2 if threatened else -5) - 4


def pass_chance(state: BoltActionGame, unit: UnitState, action: Action) -> float | None:
    """The chance ``unit`` passes the order test ``action`` takes (the game's own test:
    its quality, pins, an officer near, an assault on a vehicle's modifier); None where it
    takes none."""
    test = order_test_of(state, unit, action)
    if not order_test_needed(state.rules, test, action.order):
        return None
    return float(order_test_passed(state.rules, test, action.order))


def tested(state: BoltActionGame, unit: UnitState, action: Action, worth: float) -> float:
    """``worth``, the order's worth once carried out, weighed by its order test: by the
    chance to pass it, and a failure by the Down order it leaves (under threat: the unit
    is within an order's reach of the enemy). Rising with ``worth``, so a cap on ``worth``
    weighed so caps the result."""
    p = pass_chance(state, unit, action)
    if p is None:
        return worth
    return p * worth + (1 - p) * down_value(unit.pins, True)
