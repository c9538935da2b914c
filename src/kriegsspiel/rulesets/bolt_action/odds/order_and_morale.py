"""The odds of a unit's own tests: the order test (pass, Down, or FUBAR and what FUBAR does) and
the morale check, with the words that tell a unit's morale value (its quality's, an officer's
bonus, its pins), which the shooting and assault odds quote too, and the chance that an attack's
pins reach a unit's morale and remove it. Apart because these are tests a unit takes on its own
2D6, whatever brought them on."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path

from kriegsspiel.core import arguments
from kriegsspiel.core.per_cent import chance_shown
from kriegsspiel.core.procedure import exact
from kriegsspiel.core.report import OddsReport, Reason
from kriegsspiel.rulesets.bolt_action.edition import Rules, rules_for
from kriegsspiel.rulesets.bolt_action.morale import (
    MoraleTest,
    destroyed_by_pins,
    morale_check,
    new_test,
    order_test_needed,
    order_test_outcomes,
)
from kriegsspiel.rulesets.bolt_action.odds.checks import (
    check_counts,
    check_names,
    check_not_removed,
    check_unit,
    house_rules,
)


def morale_reason(
    rules: Rules, test: MoraleTest, quality: str, officer: str | None, extra: str = ""
) -> Reason:
    """The "needs" row of a test: the morale value to roll under on 2D6, what made it (and
    ``extra``, the words for a modifier), and the doubles that always pass and fail."""
    d = rules.data
    parts = morale_parts(rules, test, quality, officer)
    if test.modifier:
        cited = d.cited("vehicle_assault.order_test_modifier_without_at") if extra else ""
        parts.append(f"{extra or 'modifier'} {test.modifier:+d}{cited}")
    passing = test.double_pass // 2
    needs = (  # (at or below the lowest roll only the double that always passes passes)
        f"only a double {passing} passes"
        if test.value <= test.double_pass
        else f"{test.value} or less on 2D6"
    )
    return Reason(
        "needs",
        needs,
        ", ".join(parts)
        + f"; double {passing} always passes, double {test.double_fail // 2} always fails"
        + d.cited("procedure.always_passes_on", "procedure.fubar_on"),
    )


def morale_parts(rules: Rules, test: MoraleTest, quality: str, officer: str | None) -> list[str]:
    """What made a unit's morale value: its quality's, an officer's bonus and its pins."""
    d = rules.data
    parts = [f"{quality} morale {test.base}{d.cited(f'quality.rows[{quality.lower()}]')}"]
    if test.officer_bonus:
        parts.append(f"{officer} {test.officer_bonus:+d}{_officer_cited(rules, officer)}")
    if test.pins:
        parts.append(f"{test.pins} pin{'s' if test.pins != 1 else ''} {-test.pins:+d}")
    return parts


def _officer_cited(rules: Rules, officer: str | None) -> str:
    """ " (rules file k47.yaml)" when a rules file changed ``officer``'s bonus; else ""."""
    return (
        ""
        if officer is None
        else rules.data.cited(f"officers.rows[{rules.officer_rank(officer)}].morale_bonus")
    )


def _faces(rolls: Sequence[int]) -> str:
    """A table row's D6 faces as the sheet prints them: 1-2, or 6."""
    return f"{min(rolls)}-{max(rolls)}" if min(rolls) != max(rolls) else f"{rolls[0]}"


def check_parts(quality: str, test: MoraleTest, officer: str | None) -> str:
    """A forced check's morale before the attack's own pins: the quality's value, an
    officer's bonus and the pins already there (said only when there are some)."""
    parts = [f"{quality} morale {test.base}"]
    if officer and test.officer_bonus:
        parts.append(f"{officer} {test.officer_bonus:+d}")  # (see :func:`morale_reason`)
    if test.pins:
        parts.append(f"{test.pins} pin{'s' * (test.pins != 1)} already there {-test.pins:+d}")
    return ", ".join(parts)


def pins_reach_morale(
    rules: Rules, quality: str, before: int, chance: Callable[[Callable[[int], bool]], Fraction]
) -> tuple[Fraction, Reason] | None:
    """The chance that the pins an attack brings, with the ``before`` already there, reach
    the target's morale and remove it (as the game removes it, :func:`destroyed_by_pins`),
    and the reasoning row; None when they cannot. ``chance`` gives the chance of an event
    read from the attack's own pins (a vehicle's: not when it is knocked out anyway)."""
    base = new_test(rules, quality).base
    p = chance(lambda taken: destroyed_by_pins(rules, quality, before + taken))
    if p == 0:
        return None
    told = f"{before} pin{'s' * (before != 1)} already there" if before else "no pins before"
    return p, Reason(
        "target pins",
        f"{chance_shown(p)} removed",
        f"{told}; a unit whose pins reach its morale value ({base}, {quality}) is removed",
    )


def order_test_odds(
    ruleset: str,
    *,
    quality: str,
    pins: int = 0,
    officer: str | None = None,
    assault_vehicle_without_at: bool = False,
    rules_file: str | Path | None = None,
    rules_text: str | None = None,
) -> OddsReport:
    """Will the unit follow its order? Pass, fail (goes Down) or FUBAR, and what FUBAR does."""
    check_unit(ruleset, quality, pins, officer)
    arguments.yes_no("assault_vehicle_without_at", assault_vehicle_without_at)
    rules_file, rules_text = house_rules(rules_file, rules_text)
    rules = rules_for(ruleset, rules_file, rules_text)
    check_counts(pins=pins)
    check_names(rules, quality=("quality", quality), officer=("officer", officer))
    check_not_removed(rules, quality, pins, "pins")
    modifier = (
        rules.data.vehicle_assault.order_test_modifier_without_at
        if assault_vehicle_without_at
        else 0
    )
    test = new_test(rules, quality, officer=officer, pins=pins, modifier=modifier)
    dist = order_test_outcomes(rules, test)
    reasons = []
    if not order_test_needed(rules, test):
        reasons.append(Reason("order test", "not needed", "the unit has no pins"))
        if officer is not None:
            reasons.append(Reason("officer", "no effect", "no order test for his bonus"))
    else:
        reasons.append(
            morale_reason(
                rules,
                test,
                quality,
                officer,
                "assaulting an enclosed armoured vehicle without AT weapons",
            )
        )
        chart = ", ".join(
            f"{min(row.rolls)}-{max(row.rolls)} {row.result}" for row in rules.data.fubar.rows
        )
        reasons.append(
            Reason("FUBAR", f"double {test.double_fail // 2}", chart + rules.data.cited("fubar"))
        )
        reasons.append(Reason("failed", "goes Down", "the order is not carried out"))
        reasons.append(Reason("Down order", "no test", "a unit ordered Down goes Down untested"))
    p_ff, p_panic = dist.probability("friendly fire"), dist.probability("panic")
    rolls = {row.result: row.rolls for row in rules.data.fubar.rows}
    return OddsReport(
        ruleset=ruleset,
        question="order-test",
        title="order test",
        reasons=tuple(reasons),
        # (friendly fire and panic are FUBAR's two results: told as its parts, not as
        # outcomes beside it)
        labels={
            "p_fubar": "FUBAR",
            **{
                f"p_{result.replace(' ', '_')}": f"  FUBAR {_faces(r)}: {result}"
                for result, r in rolls.items()
            },
        },
        probabilities={
            "p_pass": dist.probability(lambda o: o in ("pass", "no test")),
            "p_fail": dist.probability("fail"),
            "p_fubar": p_ff + p_panic,
            "p_friendly_fire": p_ff,
            "p_panic": p_panic,
        },
        details={"test_needed": order_test_needed(rules, test), "morale_value": test.value},
    )


def morale_check_odds(
    ruleset: str,
    *,
    quality: str,
    pins: int = 0,
    officer: str | None = None,
    rules_file: str | Path | None = None,
    rules_text: str | None = None,
) -> OddsReport:
    """Will the unit pass a morale check?"""
    check_unit(ruleset, quality, pins, officer)
    rules_file, rules_text = house_rules(rules_file, rules_text)
    rules = rules_for(ruleset, rules_file, rules_text)
    check_counts(pins=pins)
    check_names(rules, quality=("quality", quality), officer=("officer", officer))
    check_not_removed(rules, quality, pins, "pins")
    test = new_test(rules, quality, officer=officer, pins=pins)
    dist = exact(lambda d: morale_check(d, test))
    return OddsReport(
        ruleset=ruleset,
        question="morale",
        title="morale check",
        reasons=(
            morale_reason(rules, test, quality, officer),
            Reason("failed", "unit destroyed", "a unit failing a morale check is removed"),
        ),
        probabilities={"p_pass": dist.probability(True), "p_fail": dist.probability(False)},
        details={"morale_value": test.value},
    )
