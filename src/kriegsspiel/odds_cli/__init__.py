"""``kriegsspiel odds``: exact odds for a shot, test or assault in each of the four rulesets.

Each command checks that its options belong to the ruleset asked for, then hands them to
that ruleset's odds module; heavy modules are imported inside the commands. One module
for each kind of question (``shoot``; ``orders_and_morale``; ``assault``; Iron Cross's and
House Clearing's own), what they share in ``shared``; each module's commands are merged
into ``odds`` here, in the order its help lists them.
"""

from __future__ import annotations

import typer

from kriegsspiel.odds_cli import assault, house_clearing, iron_cross, orders_and_morale, shoot

odds_app = typer.Typer(
    help="Exact odds for a shot, test or assault, with the reasoning shown.",
    epilog="Example: kriegsspiel odds shoot --weapon rifle:5 --range 20",
    no_args_is_help=True,
)

# each module's commands, in the order the help lists them
odds_app.add_typer(shoot.commands)
odds_app.add_typer(orders_and_morale.commands)
odds_app.add_typer(assault.commands)
odds_app.add_typer(iron_cross.commands)
odds_app.add_typer(house_clearing.commands)
