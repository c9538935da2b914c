"""An edition of the Bolt Action family: its data file plus a few declared flags.

Like python-chess's variants, an edition is a small subclass that sets class
attributes; the rule procedures read the flags and the tables, never the edition name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from pathlib import Path
from typing import ClassVar, Literal

from kriegsspiel.core import arguments
from kriegsspiel.core.datafile import parse_yaml, read_yaml_text
from kriegsspiel.core.dice import DiceExpr
from kriegsspiel.core.names import lookup, normalise
from kriegsspiel.errors import RULES_FILE_WANTED, ParameterError, UnknownNameError, named
from kriegsspiel.rulesets.bolt_action.data import (
    DamageValue,
    Edition,
    HeRow,
    OfficerRow,
    Weapon,
    load_edition,
    officer_rank,
)
from kriegsspiel.rulesets.rules_data import other_data, other_edition


@dataclass(frozen=True, slots=True)
class Target:
    """What is being shot at: a damage value and the kind of target."""

    name: str
    kind: str  # infantry | soft-skinned | armoured
    walker: bool
    damage_value: int

    @property
    def is_vehicle(self) -> bool:
        return self.kind != "infantry"


class Rules:
    """The tables of one edition with the look-ups the procedures need."""

    ruleset: ClassVar[str]
    has_walkers: ClassVar[bool] = False
    # the reactions ("target reacts") each edition plays, each asked where it applies:
    # a unit with no order yet this turn, shot at, may go Down (its die used);
    down_reaction: ClassVar[bool] = False
    # assaulted infantry with no order yet may stand and fire or escape;
    assault_reactions: ClassVar[bool] = False
    # a recce vehicle with no order yet, shot at or assaulted by infantry, may escape
    recce_escape: ClassVar[bool] = False
    # and its die then shows Down, halted (Bolt Action: "as if it had failed an order
    # test"), not the Run of Konflikt '47's escape move (:func:`.reactions.die_shown`)
    recce_escape_goes_down: ClassVar[bool] = False
    # where a player reads the recce escape (told when a vehicle's reaction is refused)
    recce_escape_source: ClassVar[str] = ""

    def __init__(self, rules_file: str | None = None, text: str | None = None) -> None:
        self.rules_file = rules_file
        # a designer's rules file's text (given as text: a matchup's, a record's; or as read
        # from the path ``rules_file`` once the data is), None for the shipped data
        self.text = text

    @cached_property
    def data(self) -> Edition:
        """The edition's tables: the shipped file, or a designer's own copy of it (read
        from ``rules_file``, or given as its ``text``, told by ``rules_file`` as its name)."""
        if self.rules_file is None and self.text is None:
            return load_edition(self.ruleset)
        if self.text is None:
            assert self.rules_file is not None
            self.text = _file_text(self.rules_file)
        data = parse_yaml(self.text, Edition, self.rules_file or "rules file")
        return data if self.rules_file is None else data.named(self.rules_file)

    @property
    def has_reactions(self) -> bool:
        """Whether the edition plays any reaction (a die taken out of turn): which, and by
        which unit, is :mod:`.reactions`' answer, for the game and the play aid alike."""
        return self.down_reaction or self.assault_reactions or self.recce_escape

    @property
    def destroyed_dice_stay_in_cup(self) -> bool:
        """Whether a unit destroyed during a turn leaves its order die in the cup until the
        turn end (the data's ``order_dice`` table), rather than taking it out at once."""
        return self.data.order_dice.destroyed_units_dice_leave == "turn end"

    # -- look-ups by the names on the sheet ---------------------------------
    def weapon(self, name: str) -> Weapon:
        cache: dict[str, Weapon] = self.__dict__.setdefault("_weapons", {})
        if name not in cache:
            cache[name] = lookup(
                "weapon", name, (([w.name, *w.aliases], w) for w in self.data.weapons.rows)
            )
        return cache[name]

    def target(self, name: str) -> Target:
        try:
            row: DamageValue = lookup(
                "target", name, ((r.names, r) for r in self.data.damage_values.rows)
            )
        except UnknownNameError:  # (told with every name a row goes by: its artillery too)
            raise UnknownNameError("target", name, self.known_targets()) from None
        return Target(row.names[0], row.kind, row.walker, row.needed)

    def known_targets(self, fits: Callable[[Target], bool] = lambda target: True) -> list[str]:
        """Every name a target may be given by, in the damage value table's order: each
        row's names ("regular infantry", "regular artillery", "regular"), a spelling of an
        earlier one once; only the rows ``fits`` is true of (a vehicle's, say)."""
        names: dict[str, str] = {}
        for row in self.data.damage_values.rows:
            if fits(Target(row.names[0], row.kind, row.walker, row.needed)):
                for name in row.names:
                    names.setdefault(normalise(name), name)
        return list(names.values())

    def morale(self, quality: str) -> int:
        for row in self.data.quality.rows:
            if row.quality == quality.lower():
                return row.morale
        raise UnknownNameError("quality", quality, [r.quality for r in self.data.quality.rows])

    def officer_bonus(self, rank: str | None) -> int:
        if rank is None:
            return 0
        return self._officers[self.officer_rank(rank)].morale_bonus

    def officer_range(self, rank: str) -> float:
        """How near (inches) a unit must be to an officer of ``rank`` for his bonus."""
        return float(self._officers[self.officer_rank(rank)].range)

    @cached_property
    def _officers(self) -> dict[str, OfficerRow]:
        """The officers table's rows by rank (a game asks at every order test)."""
        return {r.rank: r for r in self.data.officers.rows}

    @cached_property
    def _ranks_named(self) -> dict[str, str]:
        """The ranks :meth:`officer_rank` has found, by the name it was asked."""
        return {}

    @property
    def rally_pins(self) -> DiceExpr:
        """The dice of pins a Rally loses (the orders table's Rally row)."""
        return DiceExpr(self.data.orders.rally_pins)

    @property
    def rally_span(self) -> tuple[int, int]:
        """The least and the most a Rally's dice roll (pins lost: never below 0)."""
        lost = self.rally_pins
        least = max(0, lost.count + lost.constant)  # (each die at least 1; no dice: 0)
        return least, max(least, lost.most)

    @property
    def friendly_fire_reach(self) -> float:
        """How near an enemy unit must be to a friend for FUBAR's friendly fire at him."""
        return float(self.data.fubar.friendly_fire_enemy_within)

    def officer_rank(self, rank: str) -> str:
        """The officers table's rank that ``rank`` names ("Lt", "second-lieutenant")."""
        known = self._ranks_named.get(rank)
        if known is None:
            known = self._ranks_named[rank] = officer_rank(
                rank, [r.rank for r in self.data.officers.rows]
            )
        return known

    def hit_modifier(self, key: str) -> int:
        return next(r.value for r in self.data.hit_modifiers.rows if r.key == key)

    def hit_short(self, key: str) -> str:
        """The words the to-hit modifier ``key`` is told by ("long range"): its row's."""
        return self._hit_shorts[key]

    @cached_property
    def _hit_shorts(self) -> dict[str, str]:
        """Each hit modifier row's ``short``, by its key, in the table's order."""
        return {r.key: r.short for r in self.data.hit_modifiers.rows}

    def pen_modifier(self, key: str) -> int:
        return next(r.value for r in self.data.penetration_modifiers.rows if r.key == key)

    def he_row(self, he: str) -> HeRow:
        wanted = DiceExpr(he)
        return next(r for r in self.data.he.rows if DiceExpr(r.he) == wanted)


class Konflikt47(Rules):
    ruleset = "konflikt47"
    has_walkers = True
    down_reaction = True
    assault_reactions = True
    recce_escape = True
    recce_escape_source = 'sheet 001: "Recce vehicles can react by making an escape move"'


class BoltAction1(Rules):
    ruleset = "bolt-action-1"
    # the Bolt Action core's Down reaction and recce escape; what an assaulted unit may
    # do besides fight is not known for this edition (docs/rules/bolt-action-1.md)
    down_reaction = True
    recce_escape = True
    recce_escape_goes_down = True
    recce_escape_source = "Bolt Action's recce rule: docs/rules/bolt-action-1.md, Recce escape"


def edition_with(name: str, rules: Rules, chart: Literal["weapon", "target"]) -> Rules | None:
    """The other edition (its shipped rules) whose ``chart`` (its weapons, or its damage
    values) has ``name``, if one has it and ``rules``' own edition's shipped chart does not
    (a rules file may leave out a name of its edition: that is no other edition's)."""
    for edition in (
        rules.ruleset,
        *(e for e in ("konflikt47", "bolt-action-1") if e != rules.ruleset),
    ):
        other = rules_for(edition)
        try:
            other.weapon(name) if chart == "weapon" else other.target(name)
        except UnknownNameError:
            continue
        return None if edition == rules.ruleset else other
    return None


def checked_against(rules: Rules, table: str, what: str, lists: str | None = None) -> str:
    """Where a name that ``rules``' ``table`` lacks was looked for, in the one wording of
    every such refusal (``what``: "The list", "The scenario"; ``lists``: the command that
    lists the table): the shipped data, with the hint that a name a designer's file adds
    needs that file given, or the rules file, named."""
    if rules.rules_file is None:
        listed = f" ('{lists}' lists it)" if lists else ""
        return (
            f" {what} was checked against the shipped {table}{listed}; if the name is on "
            f"your own rules file's, give that file ({named('rules_file', shown='FILE')})."
        )
    return f" {what} was checked against the {table} of the rules file {rules.rules_file}"


def rules_file_path(rules_file: object) -> str | None:
    """A Python caller's ``rules_file``: None, or a str or a pathlib.Path (its path as a
    str); anything else refused by name (a UsageTypeError)."""
    return arguments.optional_file(
        "rules_file",
        rules_file,
        "your copy of the edition's rules data (a YAML file), or None for the shipped rules",
    )


def rules_for(ruleset: str, rules_file: str | Path | None = None, text: str | None = None) -> Rules:
    """The rules of ``konflikt47`` or ``bolt-action-1``, optionally from a modified data
    file: read from the path ``rules_file``, or, given its ``text`` (a game carries the
    text to its workers, a record holds it), from that text, ``rules_file`` naming it.

    A rules file is read again at every call and its rules are cached by what it holds,
    so an edit made between two calls in one process (a notebook) takes effect."""
    rules_file = rules_file_path(rules_file)
    if text is None and rules_file is not None:
        _edition_class(ruleset)  # an unknown ruleset is told before the file is read
        text = _file_text(rules_file)
    if text is not None:
        return _from_text(ruleset, rules_file, text)
    return _shipped(ruleset)


def house_text(rules_file: str | Path | None, text: str | None = None) -> str | None:
    """The text of a designer's rules: ``text`` if given, else the file at ``rules_file``
    as it is now (None for the shipped data): a key for caches of answers by rules."""
    rules_file = rules_file_path(rules_file)
    if text is None and rules_file is not None:
        return _file_text(rules_file)
    return text


def _file_text(rules_file: str) -> str:
    """The text of the designer's rules file at the path ``rules_file``."""
    if not rules_file.strip():  # (Path("") is the current folder)
        raise ParameterError(
            f"{named('rules_file')} was given an empty name ({rules_file!r}); give "
            f"{RULES_FILE_WANTED}."
        )
    return read_yaml_text(Path(rules_file))


@cache
def _shipped(ruleset: str) -> Rules:
    """The rules of the shipped data file of ``ruleset``, loaded once."""
    return _rules(ruleset, None, None)


@lru_cache(maxsize=8)
def _from_text(ruleset: str, rules_file: str | None, text: str) -> Rules:
    """A designer's rules given as text, parsed once: the same text is the same rules (a
    play aid asks them for every unit at every step)."""
    return _rules(ruleset, rules_file, text)


def _edition_class(ruleset: str) -> type[Rules]:
    editions: dict[str, type[Rules]] = {"konflikt47": Konflikt47, "bolt-action-1": BoltAction1}
    if ruleset not in editions:
        raise UnknownNameError("Bolt Action-family ruleset", ruleset, editions)
    return editions[ruleset]


def _rules(ruleset: str, rules_file: str | None, text: str | None) -> Rules:
    rules = _edition_class(ruleset)(rules_file, text)
    if text is not None:  # another ruleset's data is told as such, not as a broken file
        other_data(rules_file or "the rules file", text, ruleset)
    data = rules.data  # validate now, so a broken file is reported before any rule runs
    if data.ruleset != ruleset:
        # (play, army, scenario, a sweep and rules say it in their own words first: the
        # odds, asked under --ruleset, and a Python caller come here)
        own = named("ruleset", data.ruleset, shown=data.ruleset)
        label = rules_file or "the rules file"
        said = other_edition(
            f"{label}: this file", label, text or "", ruleset, "the edition asked for"
        )
        assert said is not None  # (its field names another edition: data.ruleset)
        raise ParameterError(f"{said}; give {own}, or a copy of the {ruleset} data file.")
    return rules
