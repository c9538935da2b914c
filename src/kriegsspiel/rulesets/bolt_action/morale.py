"""Order tests, FUBAR and morale checks: 2D6 against a morale value."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from kriegsspiel.core.procedure import Dice
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
    """Roll 2D6: double six fails (FUBAR on an order test), double one passes, else <= value.

    Only a double makes 2 or 12 on 2D6, so the total alone tells the doubles apart.
    """
    total = dice.total(2, 6)
    if total == test.double_fail:
        return "fubar"
    if total == test.double_pass:
        return "pass"
    return "pass" if total <= test.value else "fail"


def fubar(dice: Dice, rules: Rules) -> Literal["friendly fire", "panic"]:
    """Roll on the FUBAR chart."""
    roll = dice.roll(6)
    return next(r.result for r in rules.data.fubar.rows if roll in r.rolls)


def order_test_needed(rules: Rules, test: MoraleTest) -> bool:
    """A unit without pins follows its order without a test, unless a modifier forces one."""
    return (
        rules.data.procedure.order_test_needed_without_pins or test.pins > 0 or test.modifier != 0
    )


def order_test(dice: Dice, rules: Rules, test: MoraleTest) -> OrderResult:
    """The whole order test: pass, fail (the unit goes Down) or a FUBAR result."""
    if not order_test_needed(rules, test):
        return "no test"
    result = roll_test(dice, test)
    if result == "fubar":
        return fubar(dice, rules)
    return result


def morale_check(dice: Dice, test: MoraleTest) -> bool:
    """A morale check: the same 2D6 roll; double six simply fails."""
    return roll_test(dice, test) == "pass"


def destroyed_by_pins(rules: Rules, base_morale: int, pins: int) -> bool:
    """A unit with as many pins as its (unmodified) morale value is removed."""
    return rules.data.procedure.pins_destroy_at_base_morale and pins >= base_morale


def losses_force_test(start_models: int, alive: int) -> bool:
    """A unit of two or more models left at half its starting strength or less, by a loss
    just taken, takes a morale check (the published rule; docs/rules)."""
    return start_models > 1 and alive * 2 <= start_models
