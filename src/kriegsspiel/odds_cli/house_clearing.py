"""``odds figure``: House Clearing's one question besides a shot (``odds shoot``), the
initiative and weapon skill a new figure rolls. Apart because House Clearing's figures
are its own: no other ruleset rolls a man's qualities."""

from __future__ import annotations

from typing import Annotated

import typer

from kriegsspiel.cli_options import GivenOnce, JsonOpt
from kriegsspiel.odds_cli.shared import (
    Ruleset,
    RulesetOpt,
    RulesFileOpt,
    edition,
    house_clearing_tables,
    only,
    show,
    told_as,
)
from kriegsspiel.odds_options import HOUSE_CLEARING_FIGURE

commands = typer.Typer()


@commands.command(
    "figure",
    cls=GivenOnce,
    epilog="Example: kriegsspiel odds figure --officer --ruleset house-clearing",
)
def figure(
    ruleset: RulesetOpt = Ruleset.house_clearing,
    officer: Annotated[bool, typer.Option("--officer", help="An officer, NCO or 'Rambo'.")] = False,
    rules_file: RulesFileOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A new figure's initiative and weapon skill (House Clearing)."""
    only(ruleset, (Ruleset.house_clearing,), "figure")
    _, rules = edition(ruleset, rules_file, "figure", (Ruleset.house_clearing,))
    from kriegsspiel.rulesets.house_clearing import odds as hc_odds

    with told_as(HOUSE_CLEARING_FIGURE):
        report = hc_odds.figure(officer, data=house_clearing_tables(rules))
    show(report, as_json, rules, HOUSE_CLEARING_FIGURE)
