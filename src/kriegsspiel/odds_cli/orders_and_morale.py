"""``odds order-test`` and ``odds morale``: Konflikt '47 and Bolt Action's tests of a
unit's nerve, will it follow its order (pass, fail or FUBAR) and will it pass a morale
check, each on its quality, pins and an officer in range. Apart because they are the
order-dice rulesets' own tests; Iron Cross activates its units instead (``odds
activation``), which an order test asked for Iron Cross points to."""

from __future__ import annotations

from typing import Annotated

import typer

from kriegsspiel.cli_options import GivenOnce, JsonOpt
from kriegsspiel.odds_cli.shared import (
    BA_FAMILY,
    EditionOpt,
    OfficerOpt,
    PinsOpt,
    QualityOpt,
    Ruleset,
    RulesFileOpt,
    edition,
    house_rules,
    only,
    show,
    told_as,
)
from kriegsspiel.odds_options import BOLT_ACTION_MORALE, BOLT_ACTION_ORDER_TEST

commands = typer.Typer()


@commands.command(
    "order-test",
    cls=GivenOnce,
    epilog="Example: kriegsspiel odds order-test --pins 2 --officer first-lieutenant",
)
def order_test(
    ruleset: EditionOpt = None,
    quality: QualityOpt = "regular",
    pins: PinsOpt = 0,
    officer: OfficerOpt = None,
    assault_vehicle: Annotated[
        bool,
        typer.Option(
            "--assault-vehicle-without-at",
            help="Ordering an assault on an enclosed armoured vehicle without anti-tank weapons (-3).",
        ),
    ] = False,
    rules_file: RulesFileOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Will the unit follow its order? Pass, fail or FUBAR (Konflikt '47, Bolt Action)."""
    ruleset, rules = edition(ruleset, rules_file, "order-test")
    activation = "Iron Cross activates units: see 'odds activation'."
    only(ruleset, BA_FAMILY, "order-test", activation if ruleset is Ruleset.iron_cross else "")
    from kriegsspiel.rulesets.bolt_action.odds import order_test_odds

    with told_as(BOLT_ACTION_ORDER_TEST):
        report = order_test_odds(
            ruleset.value,
            quality=quality,
            pins=pins,
            officer=officer,
            assault_vehicle_without_at=assault_vehicle,
            **house_rules(rules),
        )
    show(report, as_json, rules, BOLT_ACTION_ORDER_TEST)


@commands.command(
    "morale",
    cls=GivenOnce,
    epilog="Example: kriegsspiel odds morale --quality veteran --pins 4 -r bolt-action-1",
)
def morale(
    ruleset: EditionOpt = None,
    quality: QualityOpt = "regular",
    pins: PinsOpt = 0,
    officer: OfficerOpt = None,
    rules_file: RulesFileOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Will the unit pass a morale check? (Konflikt '47, Bolt Action)."""
    ruleset, rules = edition(ruleset, rules_file, "morale")
    only(ruleset, BA_FAMILY, "morale")
    from kriegsspiel.rulesets.bolt_action.odds import morale_check_odds

    with told_as(BOLT_ACTION_MORALE):
        report = morale_check_odds(
            ruleset.value, quality=quality, pins=pins, officer=officer, **house_rules(rules)
        )
    show(report, as_json, rules, BOLT_ACTION_MORALE)
