"""The Bolt Action family's rules tables, as read from one YAML file per edition.

Every table names the sheet it comes from (``source``): a seed file name, or a text
starting with ``assumption`` / ``published rule`` for procedure the sheets leave out (or,
in a designer's copy, ``house rule``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, get_args

from pydantic import (
    AfterValidator,
    Field,
    ModelWrapValidatorHandler,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from kriegsspiel.core.datafile import (
    Name,
    Number,
    Remark,
    Strict,
    TrueOrFalse,
    WholeNumber,
    load_yaml,
)
from kriegsspiel.core.dice import DiceExpr
from kriegsspiel.core.names import also_written, lookup, rows_named, squashed
from kriegsspiel.errors import AmbiguousNameError, UnknownNameError, UsageError, did_you_mean
from kriegsspiel.rulesets.rules_data import RulesData, source_check

DATA_DIR = Path(__file__).parent / "data"
SEED_FILES = {
    "000_ef10776f99e0df87.txt",
    "001_7881fecd9373e4fe.txt",
    "002_2811b7c446f8555e.txt",
}


# ------------------------------------------------------------------ checks of the numbers
#: The dice the rules roll: D6s, and D2 and D3 read off a D6.
DICE_SIDES = (2, 3, 6)

# Limits of the tool, not rules (no sheet caps them): far beyond every value the editions
# print, they refuse a typo of a rules file (shots: "1000000", 500D6 extra hits) that
# would make a game roll for ever; each is listed in the rules docs ("A designer's own data").
#: The most a dice expression of the data may come to (and, where it may fall below 0,
#: the least it may come to is minus this): 10D6, say (the editions' largest is 3D6).
MOST_FROM_DICE = 60
#: The most shots a weapon's Shots may be (the charts' largest is 4).
MOST_SHOTS = 20
#: The most damage results a massive hit rolls (the sheets say 2): the AI weighs each
#: hit's every sequence of results (measured: a game of the sample lists takes 1 s with
#: 2 or 3, 2 s with 4, 40 s with 6).
MOST_MASSIVE_RESULTS = 4
#: The most attacks a model makes in close quarters (the rules give 1, 2 with an
#: assault weapon).
MOST_ATTACKS = 10


def _dice(text: str, *, count: bool) -> str:
    """``text`` if it is a dice expression of the rules' dice (``count``: one that never
    comes to less than 0, as shots, hits, pins and inches cannot); else a ValueError."""
    try:
        expr = DiceExpr(text)
    except UsageError as exc:
        raise ValueError(str(exc)) from None
    if expr.count and expr.sides not in DICE_SIDES:
        raise ValueError(
            f"{text!r}: a D{expr.sides} is not a die the rules roll "
            "(they roll D6s, and D2 and D3 read off a D6)"
        )
    least = expr.count + expr.constant if expr.count else expr.constant
    if count and least < 0:
        raise ValueError(f"{text!r} can come to {least}; a count may not be less than 0")
    if expr.most > MOST_FROM_DICE or least < -MOST_FROM_DICE:
        reach = f"as much as {expr.most}" if expr.most > MOST_FROM_DICE else f"{least}"
        span = f"at most {MOST_FROM_DICE}" + ("" if count else f" and at least -{MOST_FROM_DICE}")
        raise ValueError(
            f"{text!r} can come to {reach}; kriegsspiel takes dice that come to {span} "
            f"(such as 3D6 or D6+6: a tool limit, not a rule, so that a typo cannot make a "
            f"game roll for ever)"
        )
    return text


def _count_dice(text: str) -> str:
    return _dice(text, count=True)


def _roll_dice(text: str) -> str:
    return _dice(text, count=False)


#: Dice that count something (shots, hits, pins, inches): "3", "D6", "2D6-1", "D3+1".
CountDice = Annotated[str, AfterValidator(_count_dice)]
#: A roll whose result may fall below 0 (a damage result's "D6-3").
RollDice = Annotated[str, AfterValidator(_roll_dice)]
Count = Annotated[WholeNumber, Field(ge=0)]
# A number added to the dice, or to a unit's pins, is held to what dice may come to (a tool
# limit, as MOST_FROM_DICE: the editions' largest are a pen of 7, a modifier of 2 and a pin
# or two; past it a typo would make numbers no game can mean, 10^24 pins, or store):
#: A pen, or pins given at once: 0 to MOST_FROM_DICE.
Added = Annotated[WholeNumber, Field(ge=0, le=MOST_FROM_DICE)]
#: A modifier to a roll (to hit, to pen): -MOST_FROM_DICE to MOST_FROM_DICE.
Modifier = Annotated[WholeNumber, Field(ge=-MOST_FROM_DICE, le=MOST_FROM_DICE)]
#: A weapon's range in whole inches: 1 or more (a range of 0 reaches nothing: a slip).
Reach = Annotated[WholeNumber, Field(ge=1)]
#: A distance in inches: a finite number (.inf and .nan are no distance), 0 or more.
Measure = Annotated[Number, Field(ge=0, allow_inf_nan=False)]
#: A fraction of a distance: 0 to 1.
Fraction = Annotated[Number, Field(ge=0, le=1, allow_inf_nan=False)]
#: What a D6 must score: 2+ to 6+ (a 1 always fails, and 7+ is not one die's score).
D6Score = Annotated[WholeNumber, Field(ge=2, le=6)]
#: The faces of a D6, each row of a D6 table takes some.
Face = Annotated[WholeNumber, Field(ge=1, le=6)]


def _every_face_once(rows: list[Any]) -> list[Any]:
    """A table rolled on a D6: each face in one row exactly (a face in none would leave a
    roll with no result)."""
    faces = [face for row in rows for face in row.rolls]
    twice = sorted({f for f in faces if faces.count(f) > 1})
    missing = [f for f in range(1, 7) if f not in faces]
    if twice or missing:
        said = [f"{', '.join(map(str, twice))} in more than one row"] if twice else []
        said += [f"{', '.join(map(str, missing))} in no row"] if missing else []
        raise ValueError(
            f"a D6 table gives each face, 1 to 6, in one row exactly: {' and '.join(said)}"
        )
    return rows


@dataclass(frozen=True, slots=True)
class _Chart:
    """What a row of one table may name in another (read from the raw file before it is
    checked): the HE table's rows, the weapons' names."""

    he: tuple[DiceExpr, ...]
    he_text: tuple[str, ...]
    # each weapon row's names (its name, then its aliases), as the game looks them up
    weapons: tuple[tuple[str, ...], ...]
    walkers: bool = False  # a damage value of the file is a walker's
    effects: frozenset[str] = frozenset()  # the damage results table's effects
    tables: frozenset[str] = frozenset()  # the file's tables given (each a mapping)
    # each table's names and aliases (as the look-up reads them: run together) -> the
    # rows naming it (weapons, damage_values), each with the name it gives: a name may
    # name one row only, as a look-up could not tell which was meant
    owners: dict[str, dict[str, list[tuple[int, str]]]] = field(default_factory=dict)

    def clash(self, table: str, name: str, noun: str) -> None:
        """A ValueError if ``name`` names more than one row of ``table``, as the game's
        look-up (:func:`kriegsspiel.core.names.lookup`) reads names."""
        named = self.owners.get(table, {}).get(squashed(name), [])
        if len(named) > 1:
            where = " and ".join(f"{table}.rows.{i}" for i, _ in named)
            alike = also_written(name, named)
            raise ValueError(
                f"{name!r} names {len(named)} rows ({where}; names are read in any case, "
                f"punctuation and spacing{': ' + alike if alike else ''}): each name and "
                f"alias names one {noun} only, as a look-up could not tell which was meant; "
                "rename one or drop a row"
            )

    def weapon(self, name: str) -> str:
        """The name of the weapon row ``name`` names, found as the game finds it (a
        ValueError naming the rows it could be, or the nearest names, if it names none)."""
        try:
            return lookup("weapon", name, ((names, names[0]) for names in self.weapons))
        except AmbiguousNameError as exc:
            raise ValueError(
                f"{name!r} could be any of the weapons {' or '.join(map(repr, exc.candidates))}"
                " (names are read in any case and punctuation, and run together where that "
                "names one row only): write it as one of them"
            ) from None
        except UnknownNameError as exc:
            raise ValueError(
                f"{name!r}{did_you_mean(exc.close_matches)} is not a weapon of the weapons "
                "table (its name or an alias)"
            ) from None


_CHART: ContextVar[_Chart | None] = ContextVar("bolt_action_chart", default=None)


@contextmanager
def _with_chart(chart: _Chart | None) -> Iterator[None]:
    token = _CHART.set(chart)
    try:
        yield
    finally:
        _CHART.reset(token)


def _rows(data: Any, table: str) -> list[dict[str, Any]]:
    section = data.get(table) if isinstance(data, dict) else None
    rows = section.get("rows") if isinstance(section, dict) else None
    return [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []


def _chart_of(data: Any) -> _Chart:
    he: list[DiceExpr] = []
    he_text: list[str] = []
    for row in _rows(data, "he"):
        try:
            he.append(DiceExpr(str(row.get("he"))))
            he_text.append(str(row.get("he")))
        except UsageError:
            pass  # told at the row itself
    weapons = tuple(names for row in _rows(data, "weapons") if (names := _names_of(row, "name")))
    walkers = any(row.get("walker") is True for row in _rows(data, "damage_values"))
    effects = frozenset(str(row.get("effect")) for row in _rows(data, "damage_results"))
    owners = {
        table: _owners(data, table, key)
        for table, key in (("weapons", "name"), ("damage_values", ""))
    }
    tables = frozenset(
        key
        for key, value in (data.items() if isinstance(data, dict) else ())
        if isinstance(value, dict)
    )
    return _Chart(
        tuple(he), tuple(he_text), weapons, walkers, effects, owners=owners, tables=tables
    )


def _names_of(row: Any, key: str) -> tuple[str, ...]:
    """A row's names as the raw file gives them: its ``key`` and its aliases (a weapon's),
    or its ``names`` (a damage value's); what is no text is left to the row's own check."""
    if not isinstance(row, dict):
        return ()
    aliases = row.get("aliases")
    named = (
        [row.get(key), *(aliases if isinstance(aliases, list) else [])] if key else row.get("names")
    )
    return tuple(n for n in (named if isinstance(named, list) else []) if isinstance(n, str))


def _owners(data: Any, table: str, key: str) -> dict[str, list[tuple[int, str]]]:
    """The rows of ``table`` (their places in its list) each of its names names, as the
    look-up reads names (:func:`kriegsspiel.core.names.rows_named`)."""
    section = data.get(table) if isinstance(data, dict) else None
    rows = section.get("rows") if isinstance(section, dict) else None
    return rows_named(_names_of(row, key) for row in (rows if isinstance(rows, list) else []))


class Sourced(Strict):
    """A table that says where its numbers come from (in a designer's copy, a text
    starting "house rule" may say the table is the designer's)."""

    source: Annotated[
        str, source_check(tuple(sorted(SEED_FILES)), ("assumption", "published rule"))
    ]


class Sequence(Sourced):
    """A procedure printed on the sheet as numbered steps."""

    steps: list[str]


OrderName = Literal["Fire", "Advance", "Run", "Ambush", "Rally", "Down"]
#: The orders the engine plays, in the sheets' order (die 1 to 6): a fixed set, as each is
#: played by code of its own; a rules file may change what a Rally loses, not the orders.
ORDER_NAMES: tuple[str, ...] = get_args(OrderName)


class OrderRow(Strict):
    die: WholeNumber
    order: OrderName
    # the pins a Rally loses (its row only): dice, as the sheets' "lose D6 pin markers"
    pins_lost: CountDice | None = None
    summary: Remark

    @field_validator("order")
    @classmethod
    def _on_its_die(cls, order: str, info: ValidationInfo) -> str:
        """The orders are the engine's six, each on the face the sheets number it by."""
        die = info.data.get("die")
        if die is not None and (not 1 <= die <= 6 or ORDER_NAMES[die - 1] != order):
            faces = ", ".join(f"{i} {name}" for i, name in enumerate(ORDER_NAMES, 1))
            raise ValueError(
                f"die {die} with {order}: the engine plays six orders, each on the die face "
                f"the sheets number it by ({faces}); a rules file may change a row's "
                "summary and Rally's pins_lost, not which order is on which face"
            )
        return order

    @model_validator(mode="after")
    def _rally_pins(self) -> OrderRow:
        """Rally's row says the pins it loses; no other order loses any."""
        if self.order == "Rally" and self.pins_lost is None:
            raise ValueError(
                'Rally\'s row needs pins_lost, the dice of pins a Rally loses (the sheets: "D6")'
            )
        if self.order != "Rally" and self.pins_lost is not None:
            raise ValueError(
                f"pins_lost is Rally's (the pins a Rally loses); a {self.order} order loses "
                "none: take it off this row"
            )
        return self


class Orders(Sourced):
    rows: list[OrderRow]

    @field_validator("rows")
    @classmethod
    def _every_order(cls, rows: list[OrderRow]) -> list[OrderRow]:
        _each_once(
            [row.order for row in rows],
            ORDER_NAMES,
            "order",
            "the engine plays (a rules file cannot take an order out, nor add one)",
        )
        return rows

    @property
    def rally_pins(self) -> str:
        """The dice of pins a Rally loses (its row's ``pins_lost``)."""
        lost = next(row.pins_lost for row in self.rows if row.order == "Rally")
        assert lost is not None  # (a Rally row without it is refused)
        return lost


class OrderDice(Sourced):
    """When the order die of a unit destroyed during a turn leaves the cup: at once, or
    only in the turn end phase (until then it may be drawn, for another unit of its side)."""

    destroyed_units_dice_leave: Literal["at once", "turn end"]


class FubarRow(Strict):
    rolls: list[Face]
    result: Literal["friendly fire", "panic"]
    summary: Remark


class Fubar(Sourced):
    trigger: str
    # friendly fire's target must have an enemy unit within this (inches): the sheets' 12"
    friendly_fire_enemy_within: Measure
    rows: Annotated[list[FubarRow], AfterValidator(_every_face_once)]


QualityName = Literal["inexperienced", "regular", "veteran"]
#: The qualities an army list gives its units: each needs its row (its morale) and its
#: damage values (``QUALITY infantry``, ``QUALITY artillery``).
QUALITIES: tuple[str, ...] = get_args(QualityName)
OfficerRank = Literal["Second Lieutenant", "First Lieutenant", "Captain", "Major"]
#: The officers' ranks an army list may give: each needs its bonus.
OFFICER_RANKS: tuple[str, ...] = get_args(OfficerRank)


class QualityRow(Strict):
    quality: QualityName
    # a 2D6 test passes on this or less: 2 to 12 (a unit of 0 would be gone at its first pin)
    morale: WholeNumber = Field(ge=2, le=12)


class OfficerRow(Strict):
    rank: str
    morale_bonus: Count
    # how near (inches) a unit must be for his bonus (his own unit always has it)
    range: Measure


class Qualities(Sourced):
    rows: list[QualityRow]

    @field_validator("rows")
    @classmethod
    def _every_quality(cls, rows: list[QualityRow]) -> list[QualityRow]:
        _each_once(
            [row.quality for row in rows],
            QUALITIES,
            "quality",
            "a unit's morale is its quality's, and army lists give their units",
        )
        return rows


class Officers(Sourced):
    rows: list[OfficerRow]

    @field_validator("rows")
    @classmethod
    def _every_rank(cls, rows: list[OfficerRow]) -> list[OfficerRow]:
        """Each rank an army list may give is a row, found as the game finds it
        (:func:`officer_rank`: "second-lieutenant" is Second Lieutenant), and no two rows
        are one rank to the look-up."""
        ranks = [row.rank for row in rows]
        named = rows_named((rank,) for rank in ranks)
        twice = [ranks[taken[1][0]] for taken in named.values() if len(taken) > 1]
        if twice:
            raise ValueError(
                f"each rank is given once (names are read in any case, punctuation and "
                f"spacing); given twice: {', '.join(twice)}"
            )
        missing = []
        for wanted in OFFICER_RANKS:
            try:
                officer_rank(wanted, ranks)
            except UnknownNameError:
                missing.append(wanted)
        if missing:
            raise ValueError(
                f"army lists give their officers every one of {', '.join(OFFICER_RANKS)}; "
                f"missing: {', '.join(missing)}"
            )
        return rows


def officer_rank(rank: str, ranks: list[str]) -> str:
    """The rank of the officers table (its ``ranks``) that ``rank`` names: "Lt",
    "second-lieutenant"; an UnknownNameError if none (the game's look-up and the check of
    a rules file's table alike)."""
    return lookup(
        "officer",
        rank.replace("-", " "),
        (([r, r.replace("Lieutenant", "Lt")], r) for r in ranks),
    )


UnitKind = Literal[
    "infantry", "tracked vehicle", "half-tracked vehicle", "wheeled vehicle", "walker"
]
#: The movement rows the game looks up for every edition (a walker's too where the damage
#: values have walkers): troops, artillery and teams move as infantry.
MOVERS = ("infantry", "tracked vehicle", "half-tracked vehicle", "wheeled vehicle")


class MovementRow(Strict):
    unit_type: UnitKind
    advance: Count
    run: Count
    advance_turns: Count | None = None
    run_turns: Count | None = None


class Movement(Sourced):
    rows: list[MovementRow]

    @field_validator("rows")
    @classmethod
    def _every_mover(cls, rows: list[MovementRow]) -> list[MovementRow]:
        chart = _CHART.get()
        walkers = chart is not None and chart.walkers
        wanted = (*MOVERS, "walker") if walkers else MOVERS
        _each_once(
            [row.unit_type for row in rows],
            wanted,
            "unit type",
            "the game (troops, artillery and teams move as infantry; "
            + ("a walker, of the damage values' walkers, as a walker; " if walkers else "")
            + "vehicles by their kind) looks up",
        )
        return rows


class Reverse(Sourced):
    # how far a vehicle reverses, as a fraction of its Advance: 0 (it never reverses) to 1
    fraction_of_advance: Fraction
    recce_fraction_of_advance: Fraction
    summary: Remark


class Turning(Sourced):
    """How a vehicle's change of heading is counted in 90-degree turns."""

    # a change of heading no larger than this is no turn: a player measuring on the table
    # cannot tell it from straight on (nor can the engine, once places are rounded)
    unnoticed_degrees: Number = Field(ge=0, lt=90, allow_inf_nan=False)
    # a move no longer than this (inches) is no drive: the vehicle turns where it stands
    # (a place given to 0.01", as the observation's and the candidates' are, is its own)
    unnoticed_inches: Number = Field(ge=0, lt=1, allow_inf_nan=False)
    summary: Remark


#: The to-hit modifiers the rules look up, by key: each must be in the table, once.
HitKey = Literal[
    "point_blank",
    "per_pin",
    "long_range",
    "inexperienced",
    "moving",
    "target_down",
    "small_unit",
    "soft_cover",
    "hard_cover",
    "one_crew",
]
#: The penetration modifiers the rules look up, by key.
PenKey = Literal["side", "top", "rear", "long_range"]


def _keyed(rows: list[Any], keys: tuple[str, ...]) -> list[Any]:
    """Rows with a ``key`` each: every one of ``keys`` there, none twice."""
    _each_once([row.key for row in rows], keys, "key", "the rules look up")
    return rows


def _each_once(given: list[str], wanted: tuple[str, ...], noun: str, who: str) -> None:
    """A ValueError unless every one of ``wanted`` is among ``given`` and none is given
    twice (``noun``: what they are; ``who``: what looks them up, and why)."""
    twice = sorted({k for k in given if given.count(k) > 1})
    missing = [k for k in wanted if k not in given]
    if twice:
        raise ValueError(f"each {noun} is given once; given twice: {', '.join(twice)}")
    if missing:
        raise ValueError(f"{who} every one of {', '.join(wanted)}; missing: {', '.join(missing)}")


class HitModifier(Strict):
    key: HitKey
    label: str  # (the sheet's words)
    # the words the odds' reasons and a game's account tell it by ("long range -1")
    short: Name
    value: Modifier


class HitModifiers(Sourced):
    base_to_hit: D6Score
    rows: list[HitModifier]

    @field_validator("rows")
    @classmethod
    def _every_key(cls, rows: list[HitModifier]) -> list[HitModifier]:
        return _keyed(rows, get_args(HitKey))


def _one_rows_names(table: str, noun: str) -> Any:
    """A check of a row's names (or name, or aliases): each names this row only."""

    def check(names: Any) -> Any:
        chart = _CHART.get()
        if chart is not None:
            for name in [names] if isinstance(names, str) else names:
                chart.clash(table, name, noun)
        return names

    return AfterValidator(check)


class DamageValue(Strict):
    names: Annotated[list[Name], _one_rows_names("damage_values", "damage value")]
    kind: Literal["infantry", "soft-skinned", "armoured"]
    walker: TrueOrFalse = False
    needed: WholeNumber

    @field_validator("needed")
    @classmethod
    def _on_a_d6(cls, needed: int, info: ValidationInfo) -> int:
        """Infantry is damaged on one D6 (2+ to 6+); a vehicle on a D6 plus the weapon's
        pen, so its value is 2 to the most a pen may be."""
        infantry = info.data.get("kind") == "infantry"
        if needed < 2 or (infantry and needed > 6):
            wanted = "2 to 6: infantry is damaged on a D6 roll" if infantry else "2 or more"
            raise ValueError(f"must be {wanted} (not {needed})")
        if needed > MOST_FROM_DICE:
            raise ValueError(
                f"must be {MOST_FROM_DICE} or less (not {needed}): a vehicle is damaged on a D6 "
                f"plus the pen, which is at most {MOST_FROM_DICE} (a tool limit, not a rule)"
            )
        return needed


class DamageValues(Sourced):
    rows: list[DamageValue]

    @field_validator("rows")
    @classmethod
    def _named_once_and_every_quality(cls, rows: list[DamageValue]) -> list[DamageValue]:
        """The infantry and artillery of every quality have theirs (a unit is hit as
        'QUALITY infantry' or 'QUALITY artillery')."""
        wanted = [f"{q} {kind}" for q in QUALITIES for kind in ("infantry", "artillery")]
        kinds: dict[str, str] = {}
        for name in wanted:  # (found as the game finds a unit's: Rules.target)
            with suppress(UnknownNameError):
                kinds[name] = lookup("target", name, ((row.names, row.kind) for row in rows))
        missing = [n for n in wanted if n not in kinds]
        if missing:
            raise ValueError(
                "army lists' units are hit as their quality's infantry or artillery: a "
                f"row (kind: infantry) must name each of {', '.join(wanted)}; missing: "
                f"{', '.join(missing)}"
            )
        wrong = [n for n in wanted if kinds[n] != "infantry"]
        if wrong:
            raise ValueError(
                f"{', '.join(wrong)} must be named by a row of kind infantry (troops are "
                "damaged on a D6, not as a vehicle)"
            )
        return rows


class HeRow(Strict):
    he: CountDice
    pins: CountDice
    pen: Added


class HeTable(Sourced):
    rows: list[HeRow]


class PenModifier(Strict):
    key: PenKey
    label: str
    value: Modifier
    walkers: TrueOrFalse


class PenModifiers(Sourced):
    rows: list[PenModifier]

    @field_validator("rows")
    @classmethod
    def _every_key(cls, rows: list[PenModifier]) -> list[PenModifier]:
        return _keyed(rows, get_args(PenKey))


class DamageThresholds(Sourced):
    """Margin = pen roll total - damage value: at least this much for each level."""

    superficial: WholeNumber
    full: WholeNumber
    massive: WholeNumber

    @field_validator("full", "massive")
    @classmethod
    def _in_order(cls, margin: int, info: ValidationInfo) -> int:
        """Each level needs at least the margin of the one below (a full hit that a
        smaller margin makes than a superficial one would be no rule)."""
        below = "superficial" if info.field_name == "full" else "full"
        least = info.data.get(below)
        if least is not None and margin < least:
            raise ValueError(
                f"must be {least} or more, the {below} margin (not {margin}): the margins "
                "go up from superficial to full to massive"
            )
        return margin


DamageEffect = Literal["crew stunned", "immobilised", "on fire", "knocked out"]


class DamageResultRow(Strict):
    low: WholeNumber | None  # None: "or less"
    high: WholeNumber | None  # None: "or more"
    effect: DamageEffect
    pins: Added
    summary: Remark


class DamageResults(Sourced):
    superficial: RollDice
    full: RollDice
    # how many results (each a roll of ``full``) a massive hit rolls: at most
    # MOST_MASSIVE_RESULTS (a tool limit; the sheets say 2)
    massive_results: Count = Field(le=MOST_MASSIVE_RESULTS)
    open_topped_indirect_bonus: WholeNumber = Field(ge=-MOST_FROM_DICE, le=MOST_FROM_DICE)
    rows: list[DamageResultRow]
    automaton_ignores_stunned_on: WholeNumber | None = None

    @field_validator("rows")
    @classmethod
    def _every_result(
        cls, rows: list[DamageResultRow], info: ValidationInfo
    ) -> list[DamageResultRow]:
        """Every result the dice can roll (superficial's, full's, each with and without
        the open-topped bonus) falls in one row exactly: a roll in none would stop the
        game, one in two would play the first row only."""
        for i, row in enumerate(rows):
            if row.low is not None and row.high is not None and row.low > row.high:
                raise ValueError(
                    f"row {i} runs from {row.low} to {row.high}: its low must be no more "
                    "than its high"
                )
        bonus = info.data.get("open_topped_indirect_bonus")
        rolled: dict[int, str] = {}
        for level in ("superficial", "full"):
            text = info.data.get(level)
            if text is None:
                return rows  # (told at its own field)
            expr = DiceExpr(text)
            least = expr.count + expr.constant if expr.count else expr.constant
            for extra in {0, bonus or 0}:
                for roll in range(least + extra, expr.most + extra + 1):
                    rolled.setdefault(
                        roll,
                        f"{level} damage's {text}"
                        + (f" with the open-topped bonus {extra:+d}" if extra else ""),
                    )
        for roll, how in sorted(rolled.items()):
            taken = [
                i
                for i, r in enumerate(rows)
                if (r.low is None or roll >= r.low) and (r.high is None or roll <= r.high)
            ]
            if len(taken) != 1:
                said = (
                    "no row" if not taken else f"{len(taken)} rows ({', '.join(map(str, taken))})"
                )
                raise ValueError(
                    f"a result of {roll} ({how} can roll it) falls in {said}; every result "
                    f"from {min(rolled)} to {max(rolled)} needs one row exactly (low: null "
                    "is 'or less', high: null 'or more')"
                )
        return rows


class VehicleAssault(Sourced):
    order_test_modifier_without_at: WholeNumber
    to_hit_advanced: D6Score
    to_hit_stationary: D6Score
    vehicle_that_ran_can_be_hit: TrueOrFalse
    damage_dice: CountDice
    # the vehicle fires at infantry that start their assault farther than this (inches),
    # with the weapons whose arc they are in; None where the sheet has no such fire
    fires_at_assaulters_beyond: Measure | None = None


class CloseQuarters(Sourced):
    procedure: Literal["rounds", "point-blank-or-hand-to-hand"]
    steps: list[str]


#: The special rules the engine plays, as the weapons charts name them ("HE" and
#: "Howitzer" are played through a weapon's ``he`` and ``indirect_min_range``).
Special = Literal[
    "Assault",
    "Fixed",
    "Flamethrower",
    "Gravity Pulse",
    "HE",
    "Howitzer",
    "Indirect Fire",
    "One-shot",
    "Shaped Charge",
    "Shockwave",
    "Team",
    "Tesla",
]

#: The special rules played by a table of their own, which a file whose weapons have one
#: must give (the flamethrower's every file gives), and what the table holds.
SPECIAL_TABLES = {
    "Tesla": ("tesla", "its extra hits against infantry"),
    "Shockwave": ("shockwave", "its score to hit, hits and pins"),
    "Gravity Pulse": ("gravity_pulse", "its pen bonus against heavy armour"),
}

#: Who may carry a weapon, where the rules field it one way only (an army list's check;
#: no sheet prints it, so each edition's rules document lists it):
#: ``gun`` - a gun: an artillery unit's (the gun and its crew, moving by the terrain
#: table's artillery column) or a vehicle's; ``vehicle only`` - mounted on a vehicle, never
#: carried by a man (the chart's "(vehicle)" rows); ``not on vehicles`` - carried by a man,
#: never mounted on a vehicle (the chart's "(infantry)" row). Unset: anyone may carry it.
Fielded = Literal["gun", "vehicle only", "not on vehicles"]


class Weapon(Strict):
    name: Annotated[Name, _one_rows_names("weapons", "weapon")]
    aliases: Annotated[tuple[Name, ...], _one_rows_names("weapons", "weapon")] = ()
    category: Literal["small arms", "heavy weapons"]
    range: Reach
    min_range: Count = 0
    indirect_min_range: Count | None = None
    special: tuple[Special, ...] = ()  # (before shots: what shots may be depends on it)
    shots: str
    pen: Added | None = None
    pen_vs_armour: Added | None = None
    he: CountDice | None = None
    fielded: Fielded | None = None

    @field_validator("special")
    @classmethod
    def _tables_given(cls, special: tuple[str, ...]) -> tuple[str, ...]:
        """A special rule played by a table of its own needs the table: without it the
        weapon would be played as a plain gun."""
        chart = _CHART.get()
        for rule in special:
            table, holds = SPECIAL_TABLES.get(rule, ("", ""))
            if table and chart is not None and table not in chart.tables:
                raise ValueError(
                    f"{rule} is played by the file's {table} table ({holds}), which it does "
                    f"not have: add a {table}: table (the shipped konflikt47.yaml has one), "
                    f"or take {rule} off this weapon"
                )
        return special

    @field_validator("shots", mode="before")
    @classmethod
    def _shots_as_written(cls, shots: Any) -> Any:
        """Shots are text, as they may be dice ("D6", "2D6-1"), but a whole number is
        unambiguous: 2 is taken as "2" (and 2.5 told as no whole number, not as no text)."""
        number = isinstance(shots, int | float) and not isinstance(shots, bool)
        return str(shots) if number else shots

    @field_validator("shots")
    @classmethod
    def _shots(cls, shots: str, info: ValidationInfo) -> str:
        special = info.data.get("special")
        if special is None or "Shockwave" in special:
            return shots  # (special told at its place; a Shockwave's hits are its table's)
        if "Flamethrower" in special:
            return _count_dice(shots)  # its hits on a hit (hit_dice_from_shots)
        if not re.fullmatch(r"[0-9]+", shots):
            raise ValueError(
                f"{shots!r} is not a number of shots: write a whole number, 0 or more, "
                'such as "2" (only a Flamethrower\'s shots are dice, such as "2D6-1")'
            )
        if int(shots) > MOST_SHOTS:
            raise ValueError(
                f"{shots!r} shots: kriegsspiel takes at most {MOST_SHOTS} shots a weapon (a "
                "tool limit, not a rule, so that a typo cannot make a game roll for ever; "
                "the charts' most is 4)"
            )
        return shots

    @field_validator("he")
    @classmethod
    def _an_he_row(cls, he: str | None) -> str | None:
        chart = _CHART.get()
        if he is None or chart is None or not chart.he or DiceExpr(he) in chart.he:
            return he  # (no HE rows read: the table's own problem is told at it)
        raise ValueError(
            f"{he!r} is not a row of the HE table (its rows: {', '.join(chart.he_text)})"
        )


class Weapons(Sourced):
    rows: list[Weapon]


#: What the terrain table's cells may say, as the game reads them: "No", "No*" and
#: "No (!)" keep the unit out, "No Run" lets it in on an Advance only, "x2" (a road's)
#: doubles a move made along it, "OK", "OK*" and "OK**" let it through.
TerrainCell = Literal["OK", "OK*", "OK**", "No Run", "No", "No*", "No (!)", "x2"]


class TerrainRow(Strict):
    category: Name
    infantry: TerrainCell
    artillery: TerrainCell
    wheeled: TerrainCell
    tracked: TerrainCell
    # a walker's cell: every row has one where the damage values have walkers (no edition
    # without walkers reads it)
    walkers: TerrainCell | None = Field(default=None, validate_default=True)

    @field_validator("walkers")
    @classmethod
    def _walkers_told(cls, cell: str | None) -> str | None:
        """A walker's cell in every row of a file whose damage values have walkers: a row
        without one would let walkers through unhindered, which no sheet says."""
        chart = _CHART.get()
        if cell is None and chart is not None and chart.walkers:
            raise ValueError(
                "missing: this file's damage values have walkers, so each terrain row says "
                'how they move: give walkers: "OK", "No Run", "No" ... as for the other '
                'columns (the shipped rough ground row has walkers: "No Run", its obstacle '
                'row walkers: "OK**")'
            )
        return cell


# terrain the engine itself names: scenario features' other names (wood, wall, ...: see
# CATEGORY_SYNONYMS), a wreck left on the table (an obstacle) and set-up (buildings keep
# men out)
ENGINE_CATEGORIES = ("open ground", "rough ground", "obstacle", "building")
#: Scenario terrain names that are not the terrain table's own categories (assumption):
#: each is taken for its row, as an alias of it (:func:`terrain_names`).
CATEGORY_SYNONYMS = {
    "wood": "rough ground",
    "woods": "rough ground",
    "forest": "rough ground",
    "rough": "rough ground",
    "field": "rough ground",
    "crops": "rough ground",
    "hedge": "obstacle",
    "wall": "obstacle",
    "bocage": "obstacle",
    "fence": "obstacle",
    "open": "open ground",
    "ruins": "rough ground",
    "wreck": "obstacle",
}


def terrain_names(categories: list[str]) -> list[tuple[str, ...]]:
    """Each terrain row's names, as a scenario's category is looked up: the row's category
    and the synonyms taken for it (the rough ground row's "wood", "ruins" ...)."""
    return [(c, *(k for k, v in CATEGORY_SYNONYMS.items() if v == c)) for c in categories]


class Terrain(Sourced):
    rows: list[TerrainRow]
    notes: dict[str, str]

    @field_validator("rows")
    @classmethod
    def _engine_rows(cls, rows: list[TerrainRow]) -> list[TerrainRow]:
        """A row for each category the engine names (a game would stop at the first wreck
        without an obstacle row), and none twice, nor two a scenario's category could not
        tell apart (as the look-up reads names, its synonyms too)."""
        categories = [row.category for row in rows]
        for named in rows_named(terrain_names(categories)).values():
            if len(named) > 1:
                (i, one), (j, other) = named[:2]
                told = [
                    repr(n) + ("" if n == categories[r] else f" (a name taken for {categories[r]})")
                    for r, n in ((i, one), (j, other))
                ]
                raise ValueError(
                    f"rows {i} ({categories[i]}) and {j} ({categories[j]}) are one category "
                    f"to a scenario, as names are read in any case, punctuation and spacing: "
                    f"{told[0]} and {told[1]} run together alike; give each category once"
                )
        _each_once(
            categories,
            ENGINE_CATEGORIES,
            "category",
            "the game (a wreck is an obstacle; woods, walls and hedges are read as rough "
            "ground and obstacles) looks up",
        )
        return rows


class FlamethrowerRule(Sourced):
    pins: CountDice
    morale_check: TrueOrFalse
    ignores: list[Literal["soft_cover", "hard_cover", "target_down"]]  # to-hit modifiers
    vehicle_facing: Literal["front", "side", "rear", "top"]  # the armour it strikes
    # a hit makes the chart's Shots value in hits: the only reading the engine plays
    hit_dice_from_shots: Literal[True]


class TeslaRule(Sourced):
    extra_hits_vs_infantry: CountDice


class ShockwaveRule(Sourced):
    to_hit: D6Score
    pins: CountDice
    hits_vs_infantry: CountDice
    vehicle_result: DamageEffect

    @field_validator("vehicle_result")
    @classmethod
    def _a_row(cls, effect: str) -> str:
        chart = _CHART.get()
        if chart is None or not chart.effects or effect in chart.effects:
            return effect
        raise ValueError(
            f"{effect!r} is no effect of the damage_results table's rows (they give "
            f"{', '.join(sorted(chart.effects))}): a shockwave's result is one of them"
        )


class GravityPulseRule(Sourced):
    # the pen bonus against a damage value (a vehicle's, 2 or more) and above
    pen_bonus_by_damage_value: dict[
        Annotated[WholeNumber, Field(ge=2, le=MOST_FROM_DICE)], Modifier
    ]


class BarrageRow(Strict):
    rolls: list[Face]
    effect: Literal["miscalculation", "delay", "fire for effect"]
    summary: Remark


class ArtilleryBarrage(Sourced):
    rows: Annotated[list[BarrageRow], AfterValidator(_every_face_once)]
    radius: CountDice
    pin_rolls: list[Face]
    pins: CountDice
    hit_rolls: list[Face]
    hit_as: str
    # how far (inches) the enemy may move the target point of a miscalculation
    miscalculation_reach: Measure

    @field_validator("hit_rolls")
    @classmethod
    def _pins_or_hit(cls, hit_rolls: list[int], info: ValidationInfo) -> list[int]:
        """A unit's roll under fire for effect gives pins or a hit, never both (the sheet:
        "On a 1-5, unit takes D3 Pin Markers. On a 6, unit is hit")."""
        both = sorted(set(hit_rolls) & set(info.data.get("pin_rolls") or ()))
        if both:
            raise ValueError(
                f"{', '.join(map(str, both))} in pin_rolls too: a unit's roll under fire for "
                "effect gives pins or a hit, not both (the sheet: 1-5 pins, 6 a hit); give "
                "each face to one of them (a face in neither does nothing)"
            )
        return hit_rolls

    @field_validator("hit_as")
    @classmethod
    def _a_weapon(cls, name: str) -> str:
        """A weapon of the file's weapons table, as the game finds the barrage's
        (``Rules.weapon``): "Heavy-howitzer" is the Heavy howitzer."""
        chart = _CHART.get()
        if chart is not None and chart.weapons:
            chart.weapon(name)
        return name


class AircraftRow(Strict):
    rolls: list[Face]
    aircraft: Name
    pins: Added
    hits: CountDice
    pen: Added


class AirStrikeRow(Strict):
    rolls: list[Face]
    effect: Literal["rookie pilot", "skies are empty", "here it comes"]
    summary: Remark


class AirStrike(Sourced):
    rows: Annotated[list[AirStrikeRow], AfterValidator(_every_face_once)]
    radius: Count
    pins: CountDice
    aircraft: Annotated[list[AircraftRow], AfterValidator(_every_face_once)]


class Procedure(Sourced):
    """Numbers of the published procedure that no sheet prints (each one listed in docs)."""

    point_blank_inches: Measure
    long_range_fraction: Fraction
    natural_miss: WholeNumber = Field(ge=0, le=5)  # a roll of this or less always misses
    needs_seven_plus_follow_up: dict[Annotated[WholeNumber, Field(ge=7)], D6Score]
    order_test_dice: Literal[2]  # tests are 2D6 (doubles decide FUBAR): the engine's only kind
    # the 2D6 totals of the doubles that always pass and that always fail (FUBAR on an
    # order test): 2 (double one) or 12 (double six), the totals only a double makes
    always_passes_on: WholeNumber
    fubar_on: WholeNumber
    order_test_needed_without_pins: TrueOrFalse
    pins_destroy_at_base_morale: TrueOrFalse
    indirect_first_shot: D6Score
    indirect_ranged_in: D6Score
    shaped_charge_to_hit: Modifier
    pins_per_attack: Added
    close_quarters_attacks: Count = Field(le=MOST_ATTACKS)
    assault_weapon_attacks: Count = Field(le=MOST_ATTACKS)
    down_halves_he_hits: TrueOrFalse

    @field_validator("always_passes_on", "fubar_on")
    @classmethod
    def _a_double(cls, total: int, info: ValidationInfo) -> int:
        """A double's total: the rules tell the double by the total of the 2D6 (only a
        double makes 2 or 12), and one double cannot both always pass and fail."""
        if total not in (2, 12):
            raise ValueError(
                f"must be 2 (double one) or 12 (double six), not {total}: the test is 2D6, "
                "and the rules tell the double by its total, which only a double makes at 2 "
                "and 12"
            )
        if info.field_name == "fubar_on" and total == info.data.get("always_passes_on"):
            raise ValueError(
                f"must not be {total}, always_passes_on's too: a double cannot both always "
                f"pass and always fail; give {14 - total}"
            )
        return total


class Edition(RulesData):
    """One whole ruleset file."""

    file_kind: ClassVar[str] = "rules data file"

    ruleset: Literal["konflikt47", "bolt-action-1"]  # the edition whose data it is
    title: str
    sheets: dict[str, str]
    turn_sequence: Sequence
    turn_end: Sequence
    order_dice: OrderDice
    shooting_sequence: Sequence
    orders: Orders
    fubar: Fubar
    quality: Qualities
    officers: Officers
    movement: Movement
    reverse: Reverse
    turning: Turning
    hit_modifiers: HitModifiers
    damage_values: DamageValues
    he: HeTable
    penetration_modifiers: PenModifiers
    damage_thresholds: DamageThresholds
    damage_results: DamageResults
    vehicle_assault: VehicleAssault
    close_quarters: CloseQuarters
    weapons: Weapons
    terrain: Terrain
    flamethrower: FlamethrowerRule
    procedure: Procedure
    tesla: TeslaRule | None = None
    shockwave: ShockwaveRule | None = None
    gravity_pulse: GravityPulseRule | None = None
    artillery_barrage: ArtilleryBarrage | None = None
    air_strike: AirStrike | None = None

    def shipped(self) -> Edition:
        """The shipped data of this file's edition."""
        return load_edition(self.ruleset)

    def told(self, source: str, *, described: bool = True) -> str:
        """A table's ``source`` as a reader is told it: each sheet by its number, not its
        hashed file name ("sheet 001", and with ``described`` what this file says the sheet
        is: "sheet 001 (rulebook summary)"); an assumption or published rule as written."""
        files = [part.strip() for part in source.split("+")]
        if not all(f in SEED_FILES for f in files):
            return source
        said = [
            f.split("_")[0] + (f" ({self.sheets[f]})" if described and f in self.sheets else "")
            for f in files
        ]
        return f"sheet{'s' * (len(said) > 1)} {' and '.join(said)}"

    def source_of(self, table: str, *parts: str, described: bool = True) -> str:
        """Where the numbers of ``table`` (or of its ``parts``, paths as :meth:`cite` takes
        them) came from: its ``source`` as told (:meth:`told`) while they are as shipped,
        else the rules file that changed them."""
        source: str = getattr(self, table).source
        return self.cite(self.told(source, described=described), *(parts or (table,)))

    @model_validator(mode="before")
    @classmethod
    def _fields_added_since(cls, data: Any) -> Any:
        """A copy of the data made before a field was added to it (see :data:`ADDED`) takes
        the shipped file's value: the number the engine played its games by then; one made
        before a row was added (:data:`ROWS_ADDED`), the shipped row, counted as before."""
        named = data.get("ruleset") if isinstance(data, dict) else None
        if named not in ("konflikt47", "bolt-action-1"):
            return data  # (told at its field)
        shipped: dict[str, Any] | None = None
        for table, key, field_name in ADDED:
            mine = _rows(data, table) if key else [data.get(table)]
            for row in mine:
                if not isinstance(row, dict) or field_name in row:
                    continue
                if shipped is None:
                    shipped = _shipped_text_data(named)
                theirs = _rows(shipped, table) if key else [shipped.get(table)]
                like = [r for r in theirs if isinstance(r, dict) and r.get(key) == row.get(key)]
                if like and field_name in like[0]:
                    row[field_name] = like[0][field_name]
        for table, key, name, like_row in ROWS_ADDED:
            mine = _rows(data, table)
            if not mine or any(r.get(key) == name for r in mine):
                continue
            if shipped is None:
                shipped = _shipped_text_data(named)
            added = [r for r in _rows(shipped, table) if r.get(key) == name]
            alike = [r for r in mine if r.get(key) == like_row]
            if added and alike and "value" in alike[0]:  # (counted like that row)
                # (last, so the copy's own rows keep their places, where its lines are told)
                data[table]["rows"].append({**added[0], "value": alike[0]["value"]})
        return data

    @model_validator(mode="after")
    def _summaries_say_the_numbers(self) -> Edition:
        """A summary that says a number of the file says the file's number (Rally's "lose
        D6 pin markers" its pins_lost): :mod:`.summaries`."""
        from kriegsspiel.rulesets.bolt_action.summaries import summary_problems

        found = summary_problems(self)
        if found:
            raise ValidationError.from_exception_data(
                "Edition",
                [
                    InitErrorDetails(type=_summary_problem(text), loc=loc, input=summary)
                    for loc, text, summary in found
                ],
            )
        return self

    @model_validator(mode="wrap")
    @classmethod
    def _chart_for_nested_checks(
        cls, data: Any, handler: ModelWrapValidatorHandler[Edition]
    ) -> Edition:
        """A weapon's HE names a row of the HE table, a barrage's weapon a weapon: the
        rows' own checks look them up in the file's tables."""
        with _with_chart(_chart_of(data)):
            return handler(data)


def _summary_problem(text: str) -> PydanticCustomError:
    return PydanticCustomError("summary", "{problem}", {"problem": text})


#: Fields added to the data files since 0.4.0 (a table; the field a row is told by, or ""
#: for the table itself; the field): numbers (and a hit modifier's words) the engine held
#: in code till then. A copy made before takes the shipped value of each it lacks, so its
#: games are played, and told, as they were (docs/rules, "A designer's own data").
ADDED = (
    ("orders", "order", "pins_lost"),
    ("fubar", "", "friendly_fire_enemy_within"),
    ("officers", "rank", "range"),
    ("artillery_barrage", "", "miscalculation_reach"),
    ("hit_modifiers", "key", "short"),
)

#: Rows added to the data files after 0.5.0 (a table; the field a row is told by; the
#: row's; the row whose value the engine counted it by till then): a copy made before
#: takes the shipped row with that row's value, so its games are played as they were (a
#: team weapon's lone crew was counted as one more pin).
ROWS_ADDED = (("hit_modifiers", "key", "one_crew", "per_pin"),)


@cache
def _shipped_text_data(ruleset: str) -> dict[str, Any]:
    """The shipped data file of ``ruleset`` as plain YAML data, unchecked."""
    from kriegsspiel.core.datafile import yaml_data

    text = (DATA_DIR / f"{ruleset.replace('-', '_')}.yaml").read_text(encoding="utf-8")
    data: dict[str, Any] = yaml_data(text)
    return data


@cache
def load_edition(ruleset: str) -> Edition:
    """The validated rules tables of ``konflikt47`` or ``bolt-action-1``."""
    return load_yaml(DATA_DIR / f"{ruleset.replace('-', '_')}.yaml", Edition)
