"""What an odds question may ask, checked before any dice are counted: the types and ranges of its
arguments, the names of qualities, officers and targets the rules data knows, a unit not
already removed by its pins, the rules file it names, the weapons list (``["rifle:8", "LMG"]``)
and cover, and the largest questions the exact odds take. Apart because every question
(shooting, order test, morale check, close quarters, assault on a vehicle) refuses bad input in
the same words, and none of this is a rule of the game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, get_args

from kriegsspiel.core import arguments
from kriegsspiel.errors import ParameterError, UnknownNameError, named
from kriegsspiel.rulesets.bolt_action.data import Weapon
from kriegsspiel.rulesets.bolt_action.edition import Rules, edition_with, rules_file_path
from kriegsspiel.rulesets.bolt_action.morale import destroyed_by_pins, new_test
from kriegsspiel.rulesets.bolt_action.shot import Cover, Facing, Group

# The largest questions the exact odds take. These are limits of the tool, not rules: the
# time grows steeply with the hits a shooting could score (measured: rifles 1,000 shots
# 0.7 s, 3,000 17 s; heavy howitzers, up to 18 hits a shot, 100 shots 2.5 s, 200 18 s; at
# a medium tank, a heavy AT gun's 50 shots 5 s and 100 35 s; at a light tank, one vehicle
# flamethrower (2D6 hits, each with its crew's test) 0.3 s, two 9.5 s, three 19 s, and
# infantry flamethrowers (D6) three 1.6 s, four 2.2 s; close quarters, 20 a side 3.8 s at
# worst (point-blank fire, or assault weapons all round), 25 a side 15 s, 30 a side 70 s;
# after the defenders stand and fire, each number of pins it may leave is a fight of its
# own: 15 a side 3.9 s at worst, 20 a side 23 s; infantry assaulting a vehicle, 60 men 1.5 s,
# 200 men 5 s), while a unit on the table shoots a few dozen dice and fights with a dozen
# or two men.
MAX_HITS = 600  # the most hits a shooting at troops could score (shots x most hits a shot)
MAX_HITS_AT_VEHICLE = 60  # the same at a vehicle: each hit is followed through its damage
TESTED_HIT_WEIGHT = 3  # at a vehicle, a hit that brings its crew a morale test counts thrice
MAX_FIGHTERS = 20
MAX_FIGHTERS_AFTER_FIRE = 15
MAX_ASSAULTERS_OF_A_VEHICLE = 60


_AT_LEAST_ONE = frozenset({"models", "attackers", "defenders", "target_models", "start_models"})


def check_unit(ruleset: object, quality: object, pins: object, officer: object) -> None:
    """The types of an order test's or a morale check's arguments (:mod:`.arguments`)."""
    arguments.text("ruleset", ruleset)
    arguments.text("quality", quality)
    arguments.whole("pins", pins)
    arguments.optional_text("officer", officer)


def check_counts(**counts: int | None) -> None:
    """Refuse a count below 0, each named as its parameter ("situation.firer_pins")."""
    for name, value in counts.items():
        if value is not None and value < 0:
            least = 1 if name.rsplit(".", 1)[-1] in _AT_LEAST_ONE else 0
            raise ParameterError(
                f"{named(name)} cannot be negative (got {value}); give {least} or more."
            )


def check_automaton(rules: Rules, automaton: bool, parameter: str = "automaton") -> None:
    """Only an edition whose damage table has an automaton rule knows automata."""
    if automaton and rules.data.damage_results.automaton_ignores_stunned_on is None:
        raise ParameterError(
            f"{named(parameter, True)} is a Konflikt '47 rule; {rules.data.title} has no automata."
        )


def check_names(rules: Rules, **given: tuple[str, str | None]) -> None:
    """Refuse a quality, an officer's rank or a target the rules data does not know, naming the
    parameter it was given as: ``check_names(rules, quality=("quality", "elite"))``."""
    look_up = {"quality": rules.morale, "officer": rules.officer_bonus, "target": rules.target}
    for kind, (parameter, value) in given.items():
        if value is None:
            continue
        try:
            look_up[kind.split("_")[0]](value)
        except UnknownNameError as exc:
            if kind.startswith("target"):
                _check_other_edition(rules, value, "target", named(parameter, value))
            raise ParameterError(f"{named(parameter, value)}: {exc}") from None


def _check_other_edition(
    rules: Rules, name: str, chart: Literal["weapon", "target"], given: str
) -> None:
    """Refuse a weapon or target ``name`` this edition lacks but the other has (a Tesla gun
    or a walker asked of Bolt Action), saying whose it is and how to ask that edition."""
    other = edition_with(name, rules, chart)
    if other is not None:
        what, table = (
            ("weapon", "weapon chart")
            if chart == "weapon"
            else ("damage value", "damage value table")
        )
        ruleset = named("ruleset", other.ruleset, shown=other.ruleset)
        raise ParameterError(
            f"{given}: {name!r} is a {other.data.title} {what}, not on the "
            f"{rules.data.title} {table}; give {ruleset} for {other.data.title}'s odds."
        )


def check_not_removed(
    rules: Rules,
    quality: str,
    pins: int,
    parameter: str,
    *,
    crew: bool = False,
    fate: str = "takes no test",
) -> None:
    """A unit whose pins reach its morale value is removed from play: it takes no test,
    fights no fight and is no target, so a question about it has no odds. ``crew``: the unit
    is a vehicle, told by its crew's quality; ``fate``: what the question would have it do."""
    base = new_test(rules, quality).base
    if destroyed_by_pins(rules, quality, pins):
        who = f"a vehicle ({quality} crew)" if crew else f"a unit of {quality} troops"
        raise ParameterError(
            f"{named(parameter, pins)}: {who} with {pins} pins (its "
            f"morale value is {base}) is removed from play and {fate}; give "
            f"{named(parameter, base - 1)} or fewer."
        )


def house_rules(rules_file: object, rules_text: object) -> tuple[str | None, str | None]:
    """A Python caller's ``rules_file`` (a str or a pathlib.Path: its path as a str) and
    ``rules_text``, each refused by name if it is of the wrong type."""
    return (
        rules_file_path(rules_file),
        arguments.optional_text("rules_text", rules_text),
    )


def one_of(parameter: str, spec: str) -> str:
    """A weapon of the list ``parameter``, named in a refusal: "'rifle:x' in weapons" to a
    Python caller, "--weapon 'rifle:x'" on the command line."""
    return named(parameter, spec, python=f"{spec!r} in {parameter}")


def parse_weapons(
    rules: Rules, specs: Sequence[str], parameter: str = "weapons"
) -> list[tuple[Weapon, int]]:
    """``["rifle:8", "LMG"]`` -> weapons with how many models carry each; a refusal names
    the list as ``parameter`` (the command line: its option)."""
    if not specs:
        spec, example = "NAME[:COUNT]", "rifle:9"
        raise ParameterError(
            "Give the shooting unit's weapons with "
            f"{named(parameter, shown=spec, python=f'{parameter}=[{spec!r}, ...]')}, e.g. "
            f"{named(parameter, shown=example, python=f'{parameter}=[{example!r}]')}."
        )
    out: list[tuple[Weapon, int]] = []
    for spec in specs:
        name, _, count_text = spec.rpartition(":") if ":" in spec else (spec, "", "1")
        try:
            count = int(count_text)
        except ValueError:
            raise ParameterError(
                f"{one_of(parameter, spec)}: the count after ':' must be a whole number, "
                "e.g. rifle:8."
            ) from None
        if count < 1:
            raise ParameterError(f"{one_of(parameter, spec)}: the count must be 1 or more.")
        try:
            weapon = rules.weapon(name)
        except UnknownNameError as exc:
            _check_other_edition(rules, name, "weapon", one_of(parameter, spec))
            raise ParameterError(f"{one_of(parameter, spec)}: {exc}") from None
        out.append((weapon, count))
    return out


FACINGS: tuple[str, ...] = get_args(Facing)


def parse_cover(text: str, parameter: str = "cover") -> Cover:
    """Cover as asked (none, soft or hard); anything else refused, named as ``parameter``."""
    if text == "none":
        return "none"
    if text == "soft":
        return "soft"
    if text == "hard":
        return "hard"
    raise ParameterError(f"{named(parameter)} is none, soft or hard (not {text!r}).")


def check_most_hits(groups: Sequence[Group], at_vehicle: bool, parameter: str) -> None:
    """Refuse a question whose exact odds would take minutes (the limits above)."""
    most_hits = sum(
        g.shots
        * max(1, g.shot.hits_per_hit.most)
        * (TESTED_HIT_WEIGHT if at_vehicle and g.shot.morale_check else 1)
        for g in groups
    )
    limit = MAX_HITS_AT_VEHICLE if at_vehicle else MAX_HITS
    if most_hits > limit:
        at = " at a vehicle" if at_vehicle else ""
        raise ParameterError(
            f"{named(parameter)}: up to {most_hits:,} hits{at}; exact odds are worked out for at most "
            f"{limit:,} (more would take minutes; a unit on the table shoots a few dozen dice)."
        )
