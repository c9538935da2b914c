"""``kriegsspiel rules``: the shipped rules data of the four rulesets, a copy of it to edit
as house rules, and a house rules file checked and compared with its ruleset's data.

A designer's first step, as ``army --copy`` is a list builder's: take a copy of a
ruleset's data, edit it, then see it checked and what it changes, table by table and row
by row, before playing by it with ``--rules-file``.
"""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console

from kriegsspiel.core.datafile import yaml_data
from kriegsspiel.errors import UsageError
from kriegsspiel.outfiles import check_copy, write_copy
from kriegsspiel.rulesets import RULESETS, check_ruleset
from kriegsspiel.rulesets.bolt_action.house import Change, changes
from kriegsspiel.rulesets.rules_data import (
    BOLT_ACTION_FAMILY,
    name,
    named_ruleset,
    other_data,
    other_edition,
    shipped_data,
    whose,
)
from kriegsspiel.sim.matchup import Source, read_rules

#: What plays by each ruleset's rules file, as the list of shipped data says.
_PLAYED_BY = {
    "konflikt47": "play, evaluate, sweep, army, scenario, aid and odds",
    "bolt-action-1": "play, evaluate, sweep, army, scenario, aid and odds",
    "iron-cross": "odds (shoot, activation, reaction, smoke, terrain-test, close-combat)",
    "house-clearing": "odds (shoot, figure)",
}


def shipped_rules(ruleset: str) -> Path:
    """The shipped data file of the ruleset ``ruleset``."""
    return shipped_data(ruleset)


def run_rules(given: str | None, ruleset: str | None, copy: str | None, as_json: bool) -> None:
    """List the shipped rules data (nothing given); copy a ruleset's data (``given`` or
    ``ruleset`` a ruleset's name) or a rules file to ``copy``; check a rules file
    ``given`` and show what it changes from its ruleset's shipped data."""
    edition = check_ruleset(ruleset) if ruleset is not None else None
    if given is not None and not Path(given).is_file():
        edition = _named_edition(given, edition)
        given = None
    if given is None and edition is None:
        if copy is not None:
            raise UsageError(
                "--copy needs the ruleset to copy: kriegsspiel rules --ruleset bolt-action-1 "
                "--copy house.yaml (or konflikt47, iron-cross, house-clearing)."
            )
        _list_shipped(as_json)
        return
    path = Path(given) if given is not None else shipped_rules(str(edition))
    if copy is not None:
        check_copy(copy, path, "rules data")
    house = read_rules(str(path))
    if given is not None:  # a designer's file: checked against its ruleset's data
        edition = _file_ruleset(house, edition)
    title = check_rules_file(str(edition), house)  # a broken file: line, field
    if copy is not None:  # (written before anything is printed: a failure prints nothing)
        write_copy(path, copy)
        Console(stderr=True, highlight=False).print(
            f"Copied to {copy}: edit it, then 'kriegsspiel rules {copy}' checks it and lists "
            f"what it changes; play by it with '--rules-file {copy}'.",
            markup=False,
        )
    found = changes(yaml_data(shipped_rules(str(edition)).read_text()), yaml_data(house.text))
    if as_json:
        print(json.dumps(_as_json(str(edition), house, given is not None, found), indent=2))
    elif given is not None:
        _show_changes(str(edition), house, found)
    elif copy is None:
        print(f"{title} ({edition}): its shipped rules data is {path}.")
        print(f"Copy it to edit: kriegsspiel rules --ruleset {edition} --copy house.yaml")


def check_rules_file(ruleset: str, rules: Source) -> str:
    """Check the rules file ``rules`` as ``ruleset``'s data (its title, or the ruleset's
    name, if it is sound): another ruleset's data is told as such, a broken file at its
    line and field (DataFileError)."""
    if ruleset in BOLT_ACTION_FAMILY:
        from kriegsspiel.rulesets.bolt_action.edition import rules_for

        return rules_for(ruleset, rules.label, rules.text).data.title
    if ruleset == "iron-cross":
        from kriegsspiel.rulesets.iron_cross.data import read_data as read_iron_cross

        read_iron_cross(rules.text, rules.label)
    else:
        from kriegsspiel.rulesets.house_clearing.data import read_data as read_house_clearing

        read_house_clearing(rules.text, rules.label)
    return name(ruleset)


def _file_ruleset(house: Source, asked: str | None) -> str:
    """The ruleset the rules file ``house`` is checked as: the one its field ``ruleset``
    names (which ``--ruleset``, if given, must agree with); a file naming none (a copy made
    before House Clearing's and Iron Cross's data named their ruleset) is taken as
    ``--ruleset``'s, and without it told to give it, as its tables say."""
    named = named_ruleset(house.text)
    if asked is not None:
        said = other_edition(
            f"rules {house.label}: this file",
            house.label,
            house.text,
            asked,
            "the ruleset --ruleset asks for",
        )
        if said is not None:
            raise UsageError(f"{said}; give --ruleset {named}, or none.")
        other_data(house.label, house.text, asked, may_ask=tuple(RULESETS))
        return asked
    if named is not None:
        return named
    found = whose(house.text)
    if found is not None and found.ruleset in RULESETS:  # (Iron Cross's or House Clearing's)
        told = found.told(house.label).removeprefix("the rules data of ")
        raise UsageError(
            f"rules {house.label}: this file names no ruleset (it has no field 'ruleset'), "
            f"but it is the rules data of {told}: give --ruleset {found.ruleset}, or add "
            f"'ruleset: {found.ruleset}' at its top."
        )
    return "konflikt47"  # (whose check then says the field is missing, at its place)


def _named_edition(given: str, asked: str | None) -> str:
    """``given``, not a file, as a ruleset's name (agreeing with ``--ruleset``, if any)."""
    from kriegsspiel.errors import UnknownNameError
    from kriegsspiel.sim.matchup import refuse_non_file

    refuse_non_file("rules", given, [Path(given)])
    try:
        edition = check_ruleset(given)
    except UnknownNameError:
        raise UsageError(
            f"rules {given!r} is neither a file nor a ruleset's name ({', '.join(RULESETS)})."
        ) from None
    if asked is not None and asked != edition:
        raise UsageError(f"rules {given} and --ruleset {asked} name two rulesets; give one.")
    return edition


def _as_json(edition: str, house: Source, is_file: bool, found: list[Change]) -> dict[str, object]:
    return {
        "ruleset": edition,
        "rules_file": house.label if is_file else None,
        "rules_digest": house.short_digest,
        "shipped": shipped_rules(edition).name,
        "changes": [c.to_json() for c in found],
    }


def _show_changes(ruleset: str, house: Source, found: list[Change]) -> None:
    console = Console(highlight=False)

    def say(text: str) -> None:
        console.print(text, markup=False, soft_wrap=True)

    say(
        f"{house.label}: rules data of {name(ruleset)} ({ruleset}), checked: it is "
        f"sound ({house.short_digest})."
    )
    if not found:
        say(
            "It changes nothing from the shipped data: games by it are games by the shipped "
            "rules (though stored apart, as house rules)."
            if ruleset in BOLT_ACTION_FAMILY
            else "It changes nothing from the shipped data: odds by it are the shipped rules' odds."
        )
        return
    say(f"It changes {len(found)} thing{'s' if len(found) != 1 else ''} from the shipped data:")
    table = None
    for change in found:
        if change.table != table:
            table = change.table
            say(f"  {table}")
        say(f"    {change.told()}")
    say(f"Play by it with '--rules-file {house.label}'.")


def _list_shipped(as_json: bool) -> None:
    rows = [(r, check_rules_title(r), shipped_rules(r)) for r in RULESETS]
    if as_json:
        keys = ("ruleset", "title", "file", "played_by")
        print(
            json.dumps(
                [dict(zip(keys, (r, t, str(p), _PLAYED_BY[r]), strict=True)) for r, t, p in rows],
                indent=2,
            )
        )
        return
    console = Console(highlight=False)
    console.print("Shipped rules data (the tables a --rules-file replaces):", markup=False)
    for ruleset, title, path in rows:
        console.print(f"  {ruleset}  —  {title}: {path}", markup=False, soft_wrap=True)
        console.print(f"      played by {_PLAYED_BY[ruleset]}", markup=False, soft_wrap=True)
    console.print(
        "Start your own with 'kriegsspiel rules --ruleset RULESET --copy house.yaml'; "
        "'kriegsspiel rules house.yaml' checks it and lists what it changes.",
        markup=False,
        soft_wrap=True,
    )


def check_rules_title(ruleset: str) -> str:
    """The title of ``ruleset``'s shipped data (the Bolt Action family's file has one;
    the others are named by the ruleset's name)."""
    return check_rules_file(ruleset, read_rules(str(shipped_rules(ruleset))))
