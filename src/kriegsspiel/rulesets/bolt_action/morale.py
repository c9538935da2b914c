"""Order tests, FUBAR and morale checks: 2D6 against a morale value."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from kriegsspiel.core.dice import Dist
from kriegsspiel.core.procedure import Dice, exact
from kriegsspiel.rulesets.bolt_action.edition import Rules

OrderResult = Literal["no test", "pass", "fail", "friendly fire", "panic"]


@dataclass(frozen=True, slots=True)
class MoraleTest:
    """The numbers behind one 2D6 test."""

    base: int  # morale of the unit's quality
    officer_bonus: int = 0
    pins: int = 0
    modifier: int = 0  # e.g. -3 to assault an enclosed armoured vehicle without AT weapons
    double_pass: int = 2  # a double scoring this always passes (from the edition's data)
    double_fail: int = 12  # a double scoring this always fails (FUBAR on an order test)

    @property
    def value(self) -> int:
        """The score to roll equal or under."""
        return self.base + self.officer_bonus - self.pins + self.modifier


@lru_cache(maxsize=4096)  # the same few tests over and over; a test never changes
def new_test(
    rules: Rules, quality: str, *, officer: str | None = None, pins: int = 0, modifier: int = 0
) -> MoraleTest:
    """A test for a unit of ``quality`` with the edition's double-one / double-six rules."""
    proc = rules.data.procedure
    return MoraleTest(
        base=rules.morale(quality),
        officer_bonus=rules.officer_bonus(officer),
        pins=pins,
        modifier=modifier,
        double_pass=proc.always_passes_on,
        double_fail=proc.fubar_on,
    )


def roll_test(dice: Dice, test: MoraleTest) -> Literal["pass", "fail", "fubar"]:
    """Roll 2D6: double six fails (FUBAR on an order test), double one passes, else <= value."""
    return rolled_test(dice, test)[0]


def rolled_test(dice: Dice, test: MoraleTest) -> tuple[Literal["pass", "fail", "fubar"], int]:
    """:func:`roll_test` and the 2D6 total it rolled (the game records it; the odds
    enumerate :func:`roll_test`, whose outcomes are the results alone).

    Only a double makes 2 or 12 on 2D6, so the total alone tells the doubles apart.
    """
    total = dice.total(2, 6)
    if total == test.double_fail:
        return "fubar", total
    if total == test.double_pass:
        return "pass", total
    return ("pass" if total <= test.value else "fail"), total


def fubar(dice: Dice, rules: Rules) -> Literal["friendly fire", "panic"]:
    """Roll on the FUBAR chart."""
    return rolled_fubar(dice, rules)[0]


def rolled_fubar(dice: Dice, rules: Rules) -> tuple[Literal["friendly fire", "panic"], int]:
    """:func:`fubar` and the D6 it rolled on the chart."""
    roll = dice.roll(6)
    return next(r.result for r in rules.data.fubar.rows if roll in r.rolls), roll


def rally_roll(dice: Dice, rules: Rules) -> int:
    """The pins a Rally takes off, as rolled: the orders table's dice (the sheets' D6),
    never below 0; the unit loses no more than it has (:func:`rallied`)."""
    lost = rules.rally_pins
    rolled = dice.total(lost.count, lost.sides) if lost.count else 0
    return max(0, rolled + lost.constant)


def rallied(pins: int, rolled: int) -> int:
    """The pins a unit with ``pins`` loses to a Rally that rolled ``rolled``."""
    return min(pins, rolled)


@lru_cache(maxsize=256)
def expected_rallied(rules: Rules, pins: int) -> Fraction:
    """The pins a Rally is expected to take off a unit with ``pins``: the orders table's
    dice, as :func:`rally_roll` rolls them (never below 0), no more than the unit has
    (:func:`rallied`): for the sheets' D6, 1 of 1 pin, 11/6 of 2, 7/2 of 6 or more."""
    lost = rules.rally_pins
    return lost.dist().map(lambda rolled: rallied(pins, max(0, rolled))).mean()


# Orders a unit follows without an order test, pinned or not: a unit ordered Down goes
# Down (the published rule, as commonly summarised: "having at least one pin forces an
# order test for any order except Down"; the sheets are silent; docs/rules).
UNTESTED_ORDERS = frozenset({"Down"})


def order_test_needed(rules: Rules, test: MoraleTest, order: str | None = None) -> bool:
    """Whether ``order`` takes an order test: a Down order never does; for any other
    (``None``: an order not yet chosen, or any but Down), a unit without pins follows its
    order without a test, unless a modifier forces one."""
    if order in UNTESTED_ORDERS:
        return False
    return (
        rules.data.procedure.order_test_needed_without_pins or test.pins > 0 or test.modifier != 0
    )


@dataclass(frozen=True, slots=True)
class OrderRoll:
    """An order test as rolled: its result, the 2D6 total (None: no test was needed) and,
    on a FUBAR, the D6 rolled on the FUBAR chart."""

    result: OrderResult
    roll: int | None = None
    fubar_roll: int | None = None


def order_test(dice: Dice, rules: Rules, test: MoraleTest, order: str | None = None) -> OrderResult:
    """The whole order test for ``order`` (see :func:`order_test_needed`): no test, pass,
    fail (the unit goes Down) or a FUBAR result."""
    return rolled_order_test(dice, rules, test, order).result


@lru_cache(maxsize=1024)  # (a test never changes: the AI asks the same few again and again)
def order_test_outcomes(
    rules: Rules, test: MoraleTest, order: str | None = None
) -> Dist[OrderResult]:
    """The exact outcomes of :func:`order_test`: the one reading of an order test's odds
    that the odds calculator, the solo lines and the tactical AI share."""
    return exact(lambda dice: order_test(dice, rules, test, order))


def order_test_passed(rules: Rules, test: MoraleTest, order: str | None = None) -> Fraction:
    """The chance the unit carries out ``order``: it passes its order test or needs none."""
    return order_test_outcomes(rules, test, order).probability(lambda o: o in ("pass", "no test"))


def rolled_order_test(
    dice: Dice, rules: Rules, test: MoraleTest, order: str | None = None
) -> OrderRoll:
    """:func:`order_test` with the dice it rolled (the same dice, in the same order)."""
    if not order_test_needed(rules, test, order):
        return OrderRoll("no test")
    result, roll = rolled_test(dice, test)
    if result == "fubar":
        chart, fubar_roll = rolled_fubar(dice, rules)
        return OrderRoll(chart, roll, fubar_roll)
    return OrderRoll(result, roll)


def morale_check(dice: Dice, test: MoraleTest) -> bool:
    """A morale check: the same 2D6 roll; double six simply fails."""
    return roll_test(dice, test) == "pass"


def rolled_morale_check(dice: Dice, test: MoraleTest) -> tuple[bool, int]:
    """:func:`morale_check` and the 2D6 total it rolled."""
    result, roll = rolled_test(dice, test)
    return result == "pass", roll


def removed_at_pins(rules: Rules, quality: str) -> int | None:
    """The pins that remove a unit of ``quality`` from play: as many as its (unmodified)
    morale value; None where the rules remove no unit for its pins."""
    return rules.morale(quality) if rules.data.procedure.pins_destroy_at_base_morale else None


def destroyed_by_pins(rules: Rules, quality: str, pins: int) -> bool:
    """Whether a unit of ``quality`` with ``pins`` is removed (:func:`removed_at_pins`)."""
    most = removed_at_pins(rules, quality)
    return most is not None and pins >= most


def losses_force_test(start_models: int, alive: int) -> bool:
    """A unit of two or more models left at half its starting strength or less, by a loss
    just taken, takes a morale check (the published rule; docs/rules)."""
    return start_models > 1 and alive * 2 <= start_models
