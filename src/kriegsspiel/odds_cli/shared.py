"""What every ``kriegsspiel odds`` command shares: the four rulesets it answers for, the
options each command takes alike (the ruleset, a rules file of one's own, a unit's quality,
pins and officer), the rules file read and checked as the ruleset asked for, a ruleset the
command does not answer for refused, the odds functions' refusals told in the command's
own options, and the report printed. Apart from the commands so that each kind of question
(a shot, a test, an assault) reads on its own, and so that they all say things alike."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from kriegsspiel.cli_options import fail
from kriegsspiel.odds_options import ODDS_QUESTIONS

if TYPE_CHECKING:
    from kriegsspiel.core.report import OddsReport
    from kriegsspiel.rulesets.house_clearing.data import HouseClearingData
    from kriegsspiel.rulesets.iron_cross.data import IronCrossData
    from kriegsspiel.sim.matchup import Source


class Ruleset(StrEnum):
    konflikt47 = "konflikt47"
    bolt_action_1 = "bolt-action-1"
    iron_cross = "iron-cross"
    house_clearing = "house-clearing"


BA_FAMILY = (Ruleset.konflikt47, Ruleset.bolt_action_1)

RulesetOpt = Annotated[
    Ruleset,
    typer.Option(
        "--ruleset",
        "-r",
        metavar="RULESET",  # (the four names in the type column squeezed option names at 80)
        help="Which game's rules: konflikt47, bolt-action-1, iron-cross or house-clearing.",
        case_sensitive=False,
    ),
]
EditionOpt = Annotated[
    Ruleset | None,
    typer.Option(
        "--ruleset",
        "-r",
        metavar="RULESET",
        help="Which game's rules: konflikt47, bolt-action-1, iron-cross or house-clearing.",
        show_default="the --rules-file's edition, else konflikt47",
        case_sensitive=False,
    ),
]
QualityOpt = Annotated[str, typer.Option("--quality", help="inexperienced, regular or veteran.")]
PinsOpt = Annotated[int, typer.Option("--pins", help="Pin markers on the unit.")]
RulesFileOpt = Annotated[
    str | None,
    typer.Option(
        "--rules-file",
        help="Use your own copy of the ruleset's rules data (YAML; kriegsspiel rules --copy) "
        "instead of the shipped one.",
    ),
]
OfficerOpt = Annotated[
    str | None,
    typer.Option(
        "--officer",
        help="Officer morale bonus in range: second-lieutenant, first-lieutenant, captain, major.",
    ),
]


def edition(
    ruleset: Ruleset | None,
    rules_file: str | None,
    command: str,
    allowed: tuple[Ruleset, ...] = BA_FAMILY,
) -> tuple[Ruleset, Source | None]:
    """The ruleset asked for: ``--ruleset``; without it, the one the ``--rules-file`` says
    it is the data of (its field ``ruleset``, as ``play`` takes it), if ``odds command``
    answers for it (``allowed``), else the command's first. And the rules file, as read: a
    file of another ruleset's data is refused as such, saying what to give instead."""
    if rules_file is None:
        return ruleset or allowed[0], None
    from kriegsspiel.rulesets.rules_data import named_ruleset, other_data
    from kriegsspiel.sim.matchup import read_rules

    rules = read_rules(rules_file)
    named = named_ruleset(rules.text)
    if ruleset is None:
        ruleset = Ruleset(named) if named in list(allowed) else allowed[0]
    if ruleset in allowed:  # (else the command refuses the ruleset itself, by name)
        other_data(
            rules.label,
            rules.text,
            ruleset.value,
            may_ask=tuple(r.value for r in allowed),
            asked_by=f"'odds {command}' is for",
        )
    return ruleset, rules


def house_rules(rules: Source | None) -> dict[str, str | None]:
    """The rules file as the Bolt Action odds take it: its name and its text as read."""
    if rules is None:
        return {"rules_file": None, "rules_text": None}
    return {"rules_file": rules.label, "rules_text": rules.text}


def iron_cross_tables(rules: Source | None) -> IronCrossData | None:
    """A rules file's Iron Cross tables, checked (None: the shipped data)."""
    if rules is None:
        return None
    from kriegsspiel.rulesets.iron_cross.data import read_data

    return read_data(rules.text, rules.label)


def house_clearing_tables(rules: Source | None) -> HouseClearingData | None:
    """A rules file's House Clearing tables, checked (None: the shipped data)."""
    if rules is None:
        return None
    from kriegsspiel.rulesets.house_clearing.data import read_data

    return read_data(rules.text, rules.label)


def show(
    report: OddsReport, as_json: bool, rules: Source | None, options: Mapping[str, str]
) -> None:
    """Print the report, its reasons told with the command's options (``options``: its
    odds function's parameter -> option, as :func:`told_as` takes them)."""
    report = report.told_as({**options, **ODDS_QUESTIONS})
    if rules is not None:  # told as house rules, by the file's name and what it says
        report = replace(report, rules_file=rules.label, rules_digest=rules.short_digest)
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2))
        return
    from kriegsspiel.render.odds_text import print_report

    print_report(report)


def only(ruleset: Ruleset, allowed: tuple[Ruleset, ...], command: str, instead: str = "") -> None:
    """Refuse a ruleset the command does not answer for: ``instead`` names the command that
    does, else the program says it does not cover it (the game itself may have it)."""
    if ruleset not in allowed:
        names = ", ".join(r.value for r in allowed)
        fail(
            f"'odds {command}' is for {names}; "
            + (instead or f"for {ruleset.value} it is not covered by this program.")
        )


@contextmanager
def named(options: dict[str, str]) -> Iterator[None]:
    """Tell an unknown name with the option it was given with: ``options`` maps the kind
    of name (as the rules' look-up calls it) to its option."""
    from kriegsspiel.errors import UnknownNameError, UsageError

    try:
        yield
    except UnknownNameError as exc:
        option = options.get(exc.kind)
        if option is None:
            raise
        raise UsageError(f"{option} {exc.name!r}: {exc}") from None


@contextmanager
def told_as(options: dict[str, str]) -> Iterator[None]:
    """Tell a refusal that names the odds functions' parameters (a ParameterError: the
    Python caller's words, "range_inches") with the options they were given as here:
    ``options`` maps each parameter to its option ("--range")."""
    from kriegsspiel.errors import ParameterError, UsageError

    try:
        yield
    except ParameterError as exc:
        raise UsageError(exc.told_as({**options, **ODDS_QUESTIONS})) from None
