"""The Bolt Action family's rules tables, as read from one YAML file per edition.

Every table names the sheet it comes from (``source``): a seed file name, or a text
starting with ``assumption`` / ``published rule`` for procedure the sheets leave out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, get_args

from pydantic import (
    AfterValidator,
    Field,
    ModelWrapValidatorHandler,
    ValidationInfo,
    field_validator,
    model_validator,
)

from kriegsspiel.core.datafile import Strict, load_yaml
from kriegsspiel.core.dice import DiceExpr
from kriegsspiel.core.names import normalise
from kriegsspiel.errors import UsageError

DATA_DIR = Path(__file__).parent / "data"
SEED_FILES = {
    "000_ef10776f99e0df87.txt",
    "001_7881fecd9373e4fe.txt",
    "002_2811b7c446f8555e.txt",
}


# ------------------------------------------------------------------ checks of the numbers
#: The dice the rules roll: D6s, and D2 and D3 read off a D6.
DICE_SIDES = (2, 3, 6)


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
    return text


def _count_dice(text: str) -> str:
    return _dice(text, count=True)


def _roll_dice(text: str) -> str:
    return _dice(text, count=False)


#: Dice that count something (shots, hits, pins, inches): "3", "D6", "2D6-1", "D3+1".
CountDice = Annotated[str, AfterValidator(_count_dice)]
#: A roll whose result may fall below 0 (a damage result's "D6-3").
RollDice = Annotated[str, AfterValidator(_roll_dice)]
Count = Annotated[int, Field(ge=0)]
#: What a D6 must score: 2+ to 6+ (a 1 always fails, and 7+ is not one die's score).
D6Score = Annotated[int, Field(ge=2, le=6)]
#: The faces of a D6, each row of a D6 table takes some.
Face = Annotated[int, Field(ge=1, le=6)]


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
    weapons: frozenset[str]


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
    names = [
        normalise(str(name))
        for row in _rows(data, "weapons")
        for name in [row.get("name"), *(row.get("aliases") or [])]
        if isinstance(name, str)
    ]
    return _Chart(tuple(he), tuple(he_text), frozenset(names))


class Sourced(Strict):
    """A table that says where its numbers come from."""

    source: str

    @field_validator("source")
    @classmethod
    def _known_source(cls, value: str) -> str:
        sheets = [part.strip() for part in value.split("+")]
        if all(s in SEED_FILES for s in sheets) or value.startswith(
            ("assumption", "published rule")
        ):
            return value
        raise ValueError(
            f"source {value!r} must be a sheet file name ({', '.join(sorted(SEED_FILES))}), "
            "several joined by '+', or start with 'assumption' or 'published rule'"
        )


class Sequence(Sourced):
    """A procedure printed on the sheet as numbered steps."""

    steps: list[str]


class OrderRow(Strict):
    die: int
    order: str
    summary: str


class Orders(Sourced):
    rows: list[OrderRow]


class OrderDice(Sourced):
    """When the order die of a unit destroyed during a turn leaves the cup: at once, or
    only in the turn end phase (until then it may be drawn, for another unit of its side)."""

    destroyed_units_dice_leave: Literal["at once", "turn end"]


class FubarRow(Strict):
    rolls: list[Face]
    result: Literal["friendly fire", "panic"]
    summary: str


class Fubar(Sourced):
    trigger: str
    rows: Annotated[list[FubarRow], AfterValidator(_every_face_once)]


class QualityRow(Strict):
    quality: Literal["inexperienced", "regular", "veteran"]
    morale: int


class OfficerRow(Strict):
    rank: str
    morale_bonus: Count


class Qualities(Sourced):
    rows: list[QualityRow]


class Officers(Sourced):
    rows: list[OfficerRow]


class MovementRow(Strict):
    unit_type: str
    advance: Count
    run: Count
    advance_turns: Count | None = None
    run_turns: Count | None = None


class Movement(Sourced):
    rows: list[MovementRow]


class Reverse(Sourced):
    fraction_of_advance: float
    recce_fraction_of_advance: float
    summary: str


class Turning(Sourced):
    """How a vehicle's change of heading is counted in 90-degree turns."""

    # a change of heading no larger than this is no turn: a player measuring on the table
    # cannot tell it from straight on (nor can the engine, once places are rounded)
    unnoticed_degrees: float = Field(ge=0, lt=90)
    # a move no longer than this (inches) is no drive: the vehicle turns where it stands
    # (a place given to 0.01", as the observation's and the candidates' are, is its own)
    unnoticed_inches: float = Field(ge=0, lt=1)
    summary: str


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
    label: str
    value: int


class HitModifiers(Sourced):
    base_to_hit: D6Score
    rows: list[HitModifier]

    @field_validator("rows")
    @classmethod
    def _every_key(cls, rows: list[HitModifier]) -> list[HitModifier]:
        return _keyed(rows, get_args(HitKey))


class DamageValue(Strict):
    names: list[str]
    kind: Literal["infantry", "soft-skinned", "armoured"]
    walker: bool = False
    needed: int

    @field_validator("needed")
    @classmethod
    def _on_a_d6(cls, needed: int, info: ValidationInfo) -> int:
        """Infantry is damaged on one D6 (2+ to 6+); a vehicle on a D6 plus the weapon's
        pen, so its value has no top, but is 2 or more all the same."""
        infantry = info.data.get("kind") == "infantry"
        if needed < 2 or (infantry and needed > 6):
            wanted = "2 to 6: infantry is damaged on a D6 roll" if infantry else "2 or more"
            raise ValueError(f"must be {wanted} (not {needed})")
        return needed


class DamageValues(Sourced):
    rows: list[DamageValue]


class HeRow(Strict):
    he: CountDice
    pins: CountDice
    pen: Count


class HeTable(Sourced):
    rows: list[HeRow]


class PenModifier(Strict):
    key: PenKey
    label: str
    value: int
    walkers: bool


class PenModifiers(Sourced):
    rows: list[PenModifier]

    @field_validator("rows")
    @classmethod
    def _every_key(cls, rows: list[PenModifier]) -> list[PenModifier]:
        return _keyed(rows, get_args(PenKey))


class DamageThresholds(Sourced):
    """Margin = pen roll total - damage value: at least this much for each level."""

    superficial: int
    full: int
    massive: int


DamageEffect = Literal["crew stunned", "immobilised", "on fire", "knocked out"]


class DamageResultRow(Strict):
    low: int | None  # None: "or less"
    high: int | None  # None: "or more"
    effect: DamageEffect
    pins: Count
    summary: str


class DamageResults(Sourced):
    superficial: RollDice
    full: RollDice
    massive_results: Count
    open_topped_indirect_bonus: int
    rows: list[DamageResultRow]
    automaton_ignores_stunned_on: int | None = None


class VehicleAssault(Sourced):
    order_test_modifier_without_at: int
    to_hit_advanced: D6Score
    to_hit_stationary: D6Score
    vehicle_that_ran_can_be_hit: bool
    damage_dice: CountDice
    # the vehicle fires at infantry that start their assault farther than this (inches),
    # with the weapons whose arc they are in; None where the sheet has no such fire
    fires_at_assaulters_beyond: float | None = None


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
SPECIAL_RULES: tuple[str, ...] = get_args(Special)

#: Who may carry a weapon, where the rules field it one way only (an army list's check;
#: no sheet prints it, so each edition's rules document lists it):
#: ``gun`` - a gun: an artillery unit's (the gun and its crew, moving by the terrain
#: table's artillery column) or a vehicle's; ``vehicle only`` - mounted on a vehicle, never
#: carried by a man (the chart's "(vehicle)" rows); ``not on vehicles`` - carried by a man,
#: never mounted on a vehicle (the chart's "(infantry)" row). Unset: anyone may carry it.
Fielded = Literal["gun", "vehicle only", "not on vehicles"]


class Weapon(Strict):
    name: str = Field(min_length=1)
    aliases: tuple[str, ...] = ()
    category: Literal["small arms", "heavy weapons"]
    range: Count
    min_range: Count = 0
    indirect_min_range: Count | None = None
    special: tuple[Special, ...] = ()  # (before shots: what shots may be depends on it)
    shots: str
    pen: Count | None = None
    pen_vs_armour: Count | None = None
    he: CountDice | None = None
    fielded: Fielded | None = None

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


class TerrainRow(Strict):
    category: str
    infantry: str
    artillery: str
    wheeled: str
    tracked: str
    walkers: str | None = None


# terrain the engine itself names: scenario features' other names (wood, wall, ...: see
# table_rules.CATEGORY_SYNONYMS), a wreck left on the table (an obstacle) and set-up
# (buildings keep men out)
ENGINE_CATEGORIES = ("open ground", "rough ground", "obstacle", "building")


class Terrain(Sourced):
    rows: list[TerrainRow]
    notes: dict[str, str]

    @field_validator("rows")
    @classmethod
    def _engine_rows(cls, rows: list[TerrainRow]) -> list[TerrainRow]:
        """A row for each category the engine names (a game would stop at the first wreck
        without an obstacle row), and none twice."""
        _each_once(
            [row.category for row in rows],
            ENGINE_CATEGORIES,
            "category",
            "the game (a wreck is an obstacle; woods, walls and hedges are read as rough "
            "ground and obstacles) looks up",
        )
        return rows


class FlamethrowerRule(Sourced):
    pins: CountDice
    morale_check: bool
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


class GravityPulseRule(Sourced):
    pen_bonus_by_damage_value: dict[int, int]


class BarrageRow(Strict):
    rolls: list[Face]
    effect: Literal["miscalculation", "delay", "fire for effect"]
    summary: str


class ArtilleryBarrage(Sourced):
    rows: Annotated[list[BarrageRow], AfterValidator(_every_face_once)]
    radius: CountDice
    pin_rolls: list[Face]
    pins: CountDice
    hit_rolls: list[Face]
    hit_as: str

    @field_validator("hit_as")
    @classmethod
    def _a_weapon(cls, name: str) -> str:
        chart = _CHART.get()
        if chart is None or not chart.weapons or normalise(name) in chart.weapons:
            return name
        raise ValueError(f"{name!r} is not a weapon of the weapons table (its name or an alias)")


class AircraftRow(Strict):
    rolls: list[Face]
    aircraft: str
    pins: Count
    hits: CountDice
    pen: Count


class AirStrikeRow(Strict):
    rolls: list[Face]
    effect: Literal["rookie pilot", "skies are empty", "here it comes"]
    summary: str


class AirStrike(Sourced):
    rows: Annotated[list[AirStrikeRow], AfterValidator(_every_face_once)]
    radius: Count
    pins: CountDice
    aircraft: Annotated[list[AircraftRow], AfterValidator(_every_face_once)]


class Procedure(Sourced):
    """Numbers of the published procedure that no sheet prints (each one listed in docs)."""

    point_blank_inches: float = Field(ge=0)
    long_range_fraction: float = Field(ge=0, le=1)
    natural_miss: int = Field(ge=0, le=5)  # a roll of this or less always misses
    needs_seven_plus_follow_up: dict[Annotated[int, Field(ge=7)], D6Score]
    order_test_dice: Literal[2]  # tests are 2D6 (doubles decide FUBAR): the engine's only kind
    always_passes_on: int
    fubar_on: int
    order_test_needed_without_pins: bool
    pins_destroy_at_base_morale: bool
    indirect_first_shot: D6Score
    indirect_ranged_in: D6Score
    shaped_charge_to_hit: int
    pins_per_attack: Count
    close_quarters_attacks: Count
    assault_weapon_attacks: Count
    down_halves_he_hits: bool


class Edition(Strict):
    """One whole ruleset file."""

    file_kind: ClassVar[str] = "rules data file"

    ruleset: str
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

    @model_validator(mode="wrap")
    @classmethod
    def _chart_for_nested_checks(
        cls, data: Any, handler: ModelWrapValidatorHandler[Edition]
    ) -> Edition:
        """A weapon's HE names a row of the HE table, a barrage's weapon a weapon: the
        rows' own checks look them up in the file's tables."""
        with _with_chart(_chart_of(data)):
            return handler(data)


@cache
def load_edition(ruleset: str) -> Edition:
    """The validated rules tables of ``konflikt47`` or ``bolt-action-1``."""
    return load_yaml(DATA_DIR / f"{ruleset.replace('-', '_')}.yaml", Edition)
