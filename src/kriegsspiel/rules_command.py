"""``kriegsspiel rules``: the shipped rules data of the Bolt Action family, a copy of it to
edit as house rules, and a house rules file checked and compared with its edition's data.

A designer's first step, as ``army --copy`` is a list builder's: take a copy of an
edition's data, edit it, then see it checked and what it changes, table by table and row
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
from kriegsspiel.rulesets.bolt_action.army import EDITIONS
from kriegsspiel.rulesets.bolt_action.data import DATA_DIR
from kriegsspiel.rulesets.bolt_action.edition import rules_for
from kriegsspiel.rulesets.bolt_action.house import Change, changes
from kriegsspiel.sim.matchup import Source, lists_ruleset, read_rules, rules_edition


def shipped_rules(ruleset: str) -> Path:
    """The shipped data file of the edition ``ruleset``."""
    return DATA_DIR / f"{ruleset.replace('-', '_')}.yaml"


def run_rules(given: str | None, ruleset: str | None, copy: str | None, as_json: bool) -> None:
    """List the shipped rules data (nothing given); copy an edition's data (``given`` or
    ``ruleset`` an edition's name) or a rules file to ``copy``; check a rules file
    ``given`` and show what it changes from its edition's shipped data."""
    edition = _edition(ruleset) if ruleset is not None else None
    if given is not None and not Path(given).is_file():
        edition = _named_edition(given, edition)
        given = None
    if given is None and edition is None:
        if copy is not None:
            raise UsageError(
                "--copy needs the edition to copy: kriegsspiel rules --ruleset bolt-action-1 "
                "--copy house.yaml (or konflikt47)."
            )
        _list_shipped(as_json)
        return
    path = Path(given) if given is not None else shipped_rules(str(edition))
    if copy is not None:
        check_copy(copy, path, "rules data")
    house = read_rules(str(path))
    if given is not None:  # a designer's file: checked against its edition's data
        named = rules_edition(house)
        if edition is not None and named not in (None, edition):
            raise UsageError(
                f"rules {given}: this file is the rules data of {named} (its field 'ruleset'), "
                f"not of {edition}, the edition --ruleset asks for; give --ruleset {named}, "
                "or none."
            )
        edition = edition or lists_ruleset([], None, house)
    rules = rules_for(str(edition), house.label, house.text)  # a broken file: line, field
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
        _show_changes(rules.data.title, house, found)
    elif copy is None:
        print(f"{rules.data.title} ({edition}): its shipped rules data is {path}.")
        print(f"Copy it to edit: kriegsspiel rules --ruleset {edition} --copy house.yaml")


def _edition(name: str) -> str:
    """The Bolt Action-family edition ``name`` names, or a UsageError saying which there are."""
    edition = check_ruleset(name)
    if edition == "house-clearing":
        from kriegsspiel.rulesets.house_clearing.data import DATA_FILE

        raise UsageError(
            f"rules data files are for the Bolt Action family ({', '.join(EDITIONS)}), not "
            f"{RULESETS[edition]}: copy its data, {DATA_FILE}, by hand and give the copy to "
            "'odds shoot --ruleset house-clearing --rules-file'."
        )
    if edition not in EDITIONS:
        raise UsageError(
            f"rules data files are for the Bolt Action family ({', '.join(EDITIONS)}), not "
            f"{RULESETS[edition]}: its rules are fixed in the code."
        )
    return edition


def _named_edition(given: str, asked: str | None) -> str:
    """``given``, not a file, as an edition's name (agreeing with ``--ruleset``, if any)."""
    from kriegsspiel.errors import UnknownNameError
    from kriegsspiel.sim.matchup import refuse_non_file

    refuse_non_file("rules", given, [Path(given)])
    try:
        edition = _edition(given)
    except UnknownNameError:
        raise UsageError(
            f"rules {given!r} is neither a file nor an edition's name ({', '.join(EDITIONS)})."
        ) from None
    if asked is not None and asked != edition:
        raise UsageError(f"rules {given} and --ruleset {asked} name two editions; give one.")
    return edition


def _as_json(edition: str, house: Source, is_file: bool, found: list[Change]) -> dict[str, object]:
    return {
        "ruleset": edition,
        "rules_file": house.label if is_file else None,
        "rules_digest": house.digest,
        "shipped": shipped_rules(edition).name,
        "changes": [c.to_json() for c in found],
    }


def _show_changes(title: str, house: Source, found: list[Change]) -> None:
    console = Console(highlight=False)

    def say(text: str) -> None:
        console.print(text, markup=False, soft_wrap=True)

    say(f"{house.label}: rules data of {title}, checked: it is sound ({house.digest[:8]}).")
    if not found:
        say(
            "It changes nothing from the shipped data: games by it are games by the shipped "
            "rules (though stored apart, as house rules)."
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
    rows = [(e, rules_for(e).data.title, shipped_rules(e)) for e in EDITIONS]
    if as_json:
        keys = ("ruleset", "title", "file")
        print(
            json.dumps([dict(zip(keys, (e, t, str(p)), strict=True)) for e, t, p in rows], indent=2)
        )
        return
    console = Console(highlight=False)
    console.print("Shipped rules data (the tables a --rules-file replaces):", markup=False)
    for edition, title, path in rows:
        console.print(f"  {edition}  —  {title}: {path}", markup=False, soft_wrap=True)
    console.print(
        "Start your own with 'kriegsspiel rules --ruleset EDITION --copy house.yaml'; "
        "'kriegsspiel rules house.yaml' checks it and lists what it changes.",
        markup=False,
        soft_wrap=True,
    )
