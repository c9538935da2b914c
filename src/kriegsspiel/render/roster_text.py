"""An army list as a roster: each unit with its points, figures and weapons, as checked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from rich.console import Console
from rich.table import Table

from kriegsspiel.core.names import counted
from kriegsspiel.rulesets.bolt_action.army import ArmyList, Model, Unit


def print_roster(
    army: ArmyList,
    source: str,
    edition: str,
    weapon_name: Callable[[str], str],
    console: Console,
) -> None:
    """The list ``army`` read from ``source``, for ``edition`` (its title): a table of its
    units and a line of totals. ``weapon_name`` gives a weapon's name as the edition's
    chart has it (the list may use an alias, e.g. SMG). The totals' line says what was
    checked, and that each unit's points were not."""
    figures = sum(unit.model_count for unit in army.units)
    vehicles = sum(unit.is_vehicle for unit in army.units)
    table = Table(title=f"{army.name} — {army.faction}, {edition} ({source})", title_justify="left")
    for column, justify in (
        ("unit", "left"),
        ("type, quality", "left"),
        ("points", "right"),
        ("figures and weapons", "left"),
    ):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for unit in army.units:
        table.add_row(
            unit.name,
            f"{unit.type}, {unit.quality}\nhit as {unit.damage_value_of}",
            str(unit.points),
            _contents(unit, weapon_name),
        )
    console.print(table)
    console.print(
        f"{counted(army.points, 'point')}: {_made_of(len(army.units), figures, vehicles)}.\n"
        # (an organiser read "the list is sound" as "the list is legal": say what was checked)
        f"Checked: the list is valid for {edition} (its units' types, qualities, weapons and "
        "vehicles are ones the edition knows and allows) and its units' points add up to its total, so it can be played, evaluated "
        "and swept.\nNot checked: whether each unit's points are right for what it holds "
        "(they are the list's own: no rule sheet gives a points table), nor the list's make-up "
        "against any force organisation chart; this is no check that a list is legal for a "
        "tournament.",
        markup=False,
    )


class _Traited(Protocol):
    """A vehicle as a list or a game holds it: what its traits are read from."""

    @property
    def open_topped(self) -> bool: ...
    @property
    def recce(self) -> bool: ...
    @property
    def automaton(self) -> bool: ...


def vehicle_traits(vehicle: _Traited) -> list[str]:
    """A vehicle's traits, as the roster and a unit's card name them ("open-topped")."""
    traits = (
        ("open-topped", vehicle.open_topped),
        ("recce", vehicle.recce),
        ("automaton", vehicle.automaton),
    )
    return [trait for trait, has in traits if has]


def _contents(unit: Unit, weapon_name: Callable[[str], str]) -> str:
    """A unit's figures, a line each ("2× Grenadier: Rifle"), or its vehicle."""
    if unit.vehicle is not None:
        vehicle = unit.vehicle
        head = ", ".join([vehicle.kind, *vehicle_traits(vehicle)])
        guns = [f"{weapon_name(w.weapon)} ({w.facing})" for w in vehicle.weapons]
        return "\n".join([head, *guns]) if guns else f"{head}\nunarmed"
    return "\n".join(_figure(model, weapon_name) for model in unit.models)


def _figure(model: Model, weapon_name: Callable[[str], str]) -> str:
    count = f"{model.count}× " if model.count > 1 else ""
    roles = [
        role
        for role in (
            model.officer,
            "NCO" if model.nco else None,
            f"{model.observer} observer" if model.observer else None,
        )
        if role
    ]
    title = f"{count}{model.name}" + (f" ({', '.join(roles)})" if roles else "")
    weapons = ", ".join(weapon_name(w) for w in model.weapons) or "unarmed"
    return f"{title}: {weapons}"


def _made_of(units: int, figures: int, vehicles: int) -> str:
    """ "5 units, 28 figures and 2 vehicles", a part of none left out ("5 units and 28
    figures")."""
    parts = [counted(units, "unit")]
    parts += [counted(n, noun) for n, noun in ((figures, "figure"), (vehicles, "vehicle")) if n]
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
