"""``kriegsspiel army``: the shipped army lists, and any list checked and shown as a roster.

A list builder's first step: see what a list holds as the engine reads it (weapons by their
chart names, points added up, the damage value each unit is hit as), or take a copy of a
shipped list to start one's own.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from kriegsspiel.core.names import counted
from kriegsspiel.errors import UsageError, did_you_mean
from kriegsspiel.outfiles import check_copy, write_copy
from kriegsspiel.rulesets import RULESETS, check_ruleset
from kriegsspiel.rulesets.bolt_action.army import EDITIONS, ArmyList, load_army, sample_armies
from kriegsspiel.rulesets.bolt_action.edition import Rules, rules_for
from kriegsspiel.sim.matchup import (
    check_rules,
    lists_ruleset,
    read_rules,
    refuse_non_file,
    shipped_near,
)


def run_army(
    given: str | None,
    ruleset: str | None,
    copy: str | None,
    as_json: bool,
    rules_file: str | None = None,
    charts: tuple[str, ...] = (),
) -> None:
    """List the shipped lists (``given`` None), or check and show the list ``given`` (a
    file or a shipped name); ``copy`` writes its text to a new file, before anything is
    printed; ``rules_file``, a designer's own rules data, is what the list is checked
    against (its weapons, its damage values), in place of the edition's shipped data.
    ``charts`` ("weapons", "targets") shows those tables of each edition instead, of the
    ``rules_file`` if given: the names a list is written with."""
    console = Console(highlight=False)
    editions = [check_ruleset(ruleset)] if ruleset else list(EDITIONS)
    if editions[0] not in EDITIONS:
        raise UsageError(
            f"army lists are for the Bolt Action family ({', '.join(EDITIONS)}), "
            f"not {RULESETS[editions[0]]}."
        )
    if charts:
        flags = " and ".join(f"--{chart}" for chart in charts)
        if given is not None or copy is not None:
            raise UsageError(
                f"{flags} show{'s' * (len(charts) == 1)} an edition's tables, not a list: "
                f"kriegsspiel army {flags} --ruleset EDITION, without a list"
                + (" or --copy." if copy is not None else ".")
            )
        _show_charts(editions, ruleset, rules_file, charts, console, as_json)
        return
    if given is None:
        if copy is not None:
            raise UsageError("--copy needs a list to copy: kriegsspiel army NAME --copy FILE.")
        if rules_file is not None:
            raise UsageError(
                "--rules-file says what a list is checked against: give the list, "
                "kriegsspiel army FILE --rules-file RULES."
            )
        _list_samples(editions, console, as_json)
        return
    path = _find(given, editions)
    if copy is not None:
        check_copy(copy, path, "list")
    house = None
    if rules_file is not None:  # (refused first if it cannot be read, or is not the list's)
        house = read_rules(rules_file)
        if ruleset:
            check_rules(check_ruleset(ruleset), house, "the edition --ruleset asks for")
        else:  # (a list that names no edition is told so by its own check)
            check_rules(
                lists_ruleset([str(path)], None, house), house, "the edition the list is for"
            )
    army = load_army(path, ruleset, rules_file=rules_file)  # a broken list: file, line, field
    rules = rules_for(army.ruleset, rules_file)
    if copy is not None:  # (written before anything is printed: a failure prints nothing)
        write_copy(path, copy)
        Console(stderr=True, highlight=False).print(
            f"Copied to {copy}: edit it, then 'kriegsspiel army {copy}' checks it.",
            markup=False,
        )
    if as_json:
        print(json.dumps(roster(army, lambda w: rules.weapon(w).name), indent=2))
    else:
        from kriegsspiel.render.roster_text import print_roster

        shipped = path in sample_armies(army.ruleset)
        source = f"shipped list {path.stem}" if shipped else str(path)
        title = (
            rules.data.title if house is None else f"{rules.data.title}, rules file {house.label}"
        )
        print_roster(army, source, title, lambda w: rules.weapon(w).name, console)


def _show_charts(
    editions: list[str],
    ruleset: str | None,
    rules_file: str | None,
    charts: tuple[str, ...],
    console: Console,
    as_json: bool,
) -> None:
    """The ``charts`` of each of ``editions`` (of the rules file's edition if one is
    given: its own tables, checked as a game would read them)."""
    house = None
    if rules_file is not None:
        house = read_rules(rules_file)
        editions = [editions[0] if ruleset else lists_ruleset([], None, house)]
        check_rules(editions[0], house, "the edition --ruleset asks for", charts=True)
    shown = []
    for edition in editions:
        rules = rules_for(edition) if house is None else rules_for(edition, house.label, house.text)
        shown.append({"ruleset": edition, **chart_rows(rules, charts)})
        if as_json:
            continue
        from kriegsspiel.render.chart_text import print_targets, print_weapons

        heading = rules.data.title + ("" if house is None else f" (rules file {house.label})")
        for chart in charts:
            (print_weapons if chart == "weapons" else print_targets)(rules, heading, console)
    if as_json:
        print(json.dumps(shown, indent=2))
        return
    told = {
        "weapons": "a list gives its weapons by the chart's names (--json adds the others "
        "each goes by)",
        "targets": "a vehicle's damage_value_of (and odds --target) is one of the targets' "
        "names; an infantry unit is hit as its quality's infantry, an artillery unit as its "
        "artillery",
    }
    said = "; ".join(told[chart] for chart in charts)
    console.print(said[0].upper() + said[1:] + ".", markup=False)


def chart_rows(rules: Rules, charts: tuple[str, ...]) -> dict[str, Any]:
    """The tables ``charts`` names ("weapons", "targets") of ``rules``, for ``--json``:
    each weapon's row as the data file gives it, each damage value's names and kind."""
    shown: dict[str, Any] = {}
    if "weapons" in charts:
        shown["weapons"] = [weapon.model_dump(mode="json") for weapon in rules.data.weapons.rows]
    if "targets" in charts:
        shown["targets"] = [
            {"names": row.names, "kind": row.kind, "walker": row.walker, "damage_value": row.needed}
            for row in rules.data.damage_values.rows
        ]
    return shown


def roster(army: ArmyList, weapon_name: Callable[[str], str]) -> dict[str, Any]:
    """The list as the engine reads it, for ``--json``: as the roster shows it (weapons by
    their chart names, the damage value each unit is hit as, the totals)."""
    units = []
    for unit in army.units:
        entry: dict[str, Any] = {
            "name": unit.name,
            "type": unit.type,
            "quality": unit.quality,
            "points": unit.points,
            "hit_as": unit.damage_value_of,
        }
        if unit.vehicle is not None:
            entry["vehicle"] = {
                **unit.vehicle.model_dump(mode="json", exclude={"weapons"}),
                "weapons": [
                    {"weapon": weapon_name(w.weapon), "facing": w.facing}
                    for w in unit.vehicle.weapons
                ],
            }
        else:
            entry["models"] = [
                {
                    **model.model_dump(mode="json", exclude={"weapons"}),
                    "weapons": [weapon_name(w) for w in model.weapons],
                }
                for model in unit.models
            ]
        units.append(entry)
    return {
        "name": army.name,
        "faction": army.faction,
        "ruleset": army.ruleset,
        "points": army.points,
        "units": units,
        "figures": sum(unit.model_count for unit in army.units),
        "vehicles": sum(unit.is_vehicle for unit in army.units),
    }


def _find(given: str, editions: list[str]) -> Path:
    """A list's file: a path, or a shipped list's name in any of ``editions``."""
    if Path(given).is_file():
        return Path(given)
    shipped = [p for edition in editions for p in sample_armies(edition)]
    if not given.strip():  # (Path("") is the current folder: not what was meant)
        names = ", ".join(p.stem for p in shipped)
        raise UsageError(
            f"army was given an empty name ({given!r}); give a list's file, or a shipped "
            f"list: {names}."
        )
    for path in shipped:
        if given.lower() in (path.stem.lower(), path.name.lower()):
            return path
    for other in EDITIONS:
        if any(given.lower() in (p.stem.lower(), p.name.lower()) for p in sample_armies(other)):
            raise UsageError(
                f"army {given!r} is a shipped {other} list, not a {editions[0]} one; give "
                f"--ruleset {other}, or none."
            )
    refuse_non_file("army", given, [Path(given)])
    names = ", ".join(p.stem for p in shipped)
    hint = did_you_mean(shipped_near(given, shipped))
    raise UsageError(f"army {given!r}{hint} is neither a file nor a shipped list ({names}).")


def _list_samples(editions: list[str], console: Console, as_json: bool) -> None:
    rows = []
    for edition in editions:
        for path in sample_armies(edition):
            army = load_army(path, edition)
            rows.append((edition, path.stem, army.name, army.faction, army.points, len(army.units)))
    if as_json:
        keys = ("ruleset", "list", "name", "faction", "points", "units")
        print(json.dumps([dict(zip(keys, row, strict=True)) for row in rows], indent=2))
        return
    console.print("Shipped army lists (give the name on the left):", markup=False)
    for edition, stem, name, faction, points, units in rows:
        console.print(
            f"  {stem}  —  {name} ({faction}), {edition}, {counted(points, 'point')}, "
            f"{counted(units, 'unit')}",
            markup=False,
            soft_wrap=True,  # (a name cut at the edge could not be copied)
        )
    console.print(
        "See one with 'kriegsspiel army NAME'; start your own with "
        "'kriegsspiel army NAME --copy mine.yaml'.",
        markup=False,
    )
