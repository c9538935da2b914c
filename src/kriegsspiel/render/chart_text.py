"""An edition's weapons chart and damage value table as a list writer reads them: the
names a list's weapons and a vehicle's ``damage_value_of`` are given by, with their numbers."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from kriegsspiel.rulesets.bolt_action.data import Weapon
from kriegsspiel.rulesets.bolt_action.edition import Rules


def print_weapons(rules: Rules, heading: str, console: Console) -> None:
    """``rules``' weapons chart, a row a weapon: its name, range, shots, penetration, HE
    and special rules, as the sheet prints them, and who may field it (``--json`` adds the
    other names each goes by)."""
    chart = rules.data.weapons
    table = Table(
        title=_title(heading, "weapons chart", rules.data.source_of("weapons", described=False)),
        title_justify="left",
    )
    for column in ("weapon", "range", "shots", "pen", "HE", "special", "fielded by"):
        table.add_column(column, justify="right" if column in ("range", "pen") else "left")
    for weapon in chart.rows:
        table.add_row(
            weapon.name,
            range_text(weapon),
            weapon.shots,
            pen_text(weapon),
            he_text(weapon),
            special_text(weapon),
            _FIELDED[weapon.fielded],
        )
    console.print(table)


def print_targets(rules: Rules, heading: str, console: Console) -> None:
    """``rules``' damage value table, a row a damage value: every name it goes by (a unit
    is hit as one: a vehicle's ``damage_value_of``, ``odds --target``) and its kind."""
    values = rules.data.damage_values
    table = Table(
        title=_title(
            heading, "damage values", rules.data.source_of("damage_values", described=False)
        ),
        title_justify="left",
    )
    for column in ("damage value", "target", "kind"):
        table.add_column(column, justify="right" if column == "damage value" else "left")
    for row in values.rows:
        kind = f"{row.kind} walker" if row.walker else row.kind
        table.add_row(f"{row.needed}+", ", ".join(row.names), kind)
    console.print(table)


def _title(heading: str, chart: str, source: str) -> str:
    """The chart's title: the heading (the edition, and the rules file read, if one was),
    the chart, and where its numbers are from, unless the heading has said it already
    ("rules file h.yaml" once, not twice)."""
    return f"{heading} {chart}" if source in heading else f"{heading} {chart} ({source})"


# who may carry a weapon (the data's ``fielded``; none: anyone)
_FIELDED = {
    None: "",
    "gun": "artillery, vehicle",
    "vehicle only": "vehicle",
    "not on vehicles": "infantry",
}


def range_text(weapon: Weapon) -> str:
    """Its range as the chart gives it: 24", and 6-18" with a least range (a unit's card
    in the solo game says it so too)."""
    least = f"{weapon.min_range:g}-" if weapon.min_range else ""
    return f'{least}{weapon.range:g}"'


def he_text(weapon: Weapon) -> str:
    """Its HE dice as the chart gives them: "D6" ("" for none)."""
    return weapon.he or ""


def officer_text(rules: Rules, rank: str) -> str:
    """An officer's rank and what he gives, by the officers table: "Second Lieutenant: +1
    to order tests and morale within 6\"" (his own unit's too)."""
    named = rules.officer_rank(rank)
    bonus, reach = rules.officer_bonus(named), rules.officer_range(named)
    return f'{named}: +{bonus} to order tests and morale within {reach:g}"'


def pen_text(weapon: Weapon) -> str:
    """Its penetration as the chart gives it: "+4" ("" for none)."""
    return "" if weapon.pen is None else f"+{weapon.pen}"


def special_text(weapon: Weapon) -> str:
    """Its special rules as the chart gives them: "Team, Fixed, Tesla (+7 pen vs armour)"
    (a unit's card in the solo game says them so too)."""
    return ", ".join(_special(weapon))


def _special(weapon: Weapon) -> list[str]:
    """Its special rules, each with the number the chart gives it: a howitzer's least range
    firing indirectly, a Tesla's penetration against armour."""
    said: list[str] = []
    for rule in weapon.special:
        if rule == "Howitzer" and weapon.indirect_min_range is not None:
            said.append(f'{rule} (indirect {weapon.indirect_min_range}"+)')
        elif rule == "Tesla" and weapon.pen_vs_armour is not None:
            said.append(f"{rule} (+{weapon.pen_vs_armour} pen vs armour)")
        else:
            said.append(rule)
    return said
