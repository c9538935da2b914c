"""The Bolt Action family's rules tables, as read from one YAML file per edition.

Every table names the sheet it comes from (``source``): a seed file name, or a text
starting with ``assumption`` / ``published rule`` for procedure the sheets leave out.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import ClassVar, Literal

from pydantic import field_validator

from kriegsspiel.core.datafile import Strict, load_yaml

DATA_DIR = Path(__file__).parent / "data"
SEED_FILES = {
    "000_ef10776f99e0df87.txt",
    "001_7881fecd9373e4fe.txt",
    "002_2811b7c446f8555e.txt",
}


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
    rolls: list[int]
    result: Literal["friendly fire", "panic"]
    summary: str


class Fubar(Sourced):
    trigger: str
    rows: list[FubarRow]


class QualityRow(Strict):
    quality: Literal["inexperienced", "regular", "veteran"]
    morale: int


class OfficerRow(Strict):
    rank: str
    morale_bonus: int


class Qualities(Sourced):
    rows: list[QualityRow]


class Officers(Sourced):
    rows: list[OfficerRow]


class MovementRow(Strict):
    unit_type: str
    advance: int
    run: int
    advance_turns: int | None = None
    run_turns: int | None = None


class Movement(Sourced):
    rows: list[MovementRow]


class Reverse(Sourced):
    fraction_of_advance: float
    recce_fraction_of_advance: float
    summary: str


class HitModifier(Strict):
    key: str
    label: str
    value: int


class HitModifiers(Sourced):
    base_to_hit: int
    rows: list[HitModifier]


class DamageValue(Strict):
    names: list[str]
    kind: Literal["infantry", "soft-skinned", "armoured"]
    walker: bool = False
    needed: int


class DamageValues(Sourced):
    rows: list[DamageValue]


class HeRow(Strict):
    he: str
    pins: str
    pen: int


class HeTable(Sourced):
    rows: list[HeRow]


class PenModifier(Strict):
    key: str
    label: str
    value: int
    walkers: bool


class PenModifiers(Sourced):
    rows: list[PenModifier]


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
    pins: int
    summary: str


class DamageResults(Sourced):
    superficial: str
    full: str
    massive_results: int
    open_topped_indirect_bonus: int
    rows: list[DamageResultRow]
    automaton_ignores_stunned_on: int | None = None


class VehicleAssault(Sourced):
    order_test_modifier_without_at: int
    to_hit_advanced: int
    to_hit_stationary: int
    vehicle_that_ran_can_be_hit: bool
    damage_dice: str
    # the vehicle fires at infantry that start their assault farther than this (inches),
    # with the weapons whose arc they are in; None where the sheet has no such fire
    fires_at_assaulters_beyond: float | None = None


class CloseQuarters(Sourced):
    procedure: Literal["rounds", "point-blank-or-hand-to-hand"]
    steps: list[str]


class Weapon(Strict):
    name: str
    aliases: tuple[str, ...] = ()
    category: Literal["small arms", "heavy weapons"]
    range: int
    min_range: int = 0
    indirect_min_range: int | None = None
    shots: str
    pen: int | None = None
    pen_vs_armour: int | None = None
    he: str | None = None
    special: tuple[str, ...] = ()


class Weapons(Sourced):
    rows: list[Weapon]


class TerrainRow(Strict):
    category: str
    infantry: str
    artillery: str
    wheeled: str
    tracked: str
    walkers: str | None = None


class Terrain(Sourced):
    rows: list[TerrainRow]
    notes: dict[str, str]


class FlamethrowerRule(Sourced):
    pins: str
    morale_check: bool
    ignores: list[Literal["soft_cover", "hard_cover", "target_down"]]  # to-hit modifiers
    vehicle_facing: Literal["front", "side", "rear", "top"]  # the armour it strikes
    # a hit makes the chart's Shots value in hits: the only reading the engine plays
    hit_dice_from_shots: Literal[True]


class TeslaRule(Sourced):
    extra_hits_vs_infantry: str


class ShockwaveRule(Sourced):
    to_hit: int
    pins: str
    hits_vs_infantry: str
    vehicle_result: DamageEffect


class GravityPulseRule(Sourced):
    pen_bonus_by_damage_value: dict[int, int]


class BarrageRow(Strict):
    rolls: list[int]
    effect: Literal["miscalculation", "delay", "fire for effect"]
    summary: str


class ArtilleryBarrage(Sourced):
    rows: list[BarrageRow]
    radius: str
    pin_rolls: list[int]
    pins: str
    hit_rolls: list[int]
    hit_as: str


class AircraftRow(Strict):
    rolls: list[int]
    aircraft: str
    pins: int
    hits: str
    pen: int


class AirStrikeRow(Strict):
    rolls: list[int]
    effect: Literal["rookie pilot", "skies are empty", "here it comes"]
    summary: str


class AirStrike(Sourced):
    rows: list[AirStrikeRow]
    radius: int
    pins: str
    aircraft: list[AircraftRow]


class Procedure(Sourced):
    """Numbers of the published procedure that no sheet prints (each one listed in docs)."""

    point_blank_inches: float
    long_range_fraction: float
    natural_miss: int
    needs_seven_plus_follow_up: dict[int, int]
    order_test_dice: Literal[2]  # tests are 2D6 (doubles decide FUBAR): the engine's only kind
    always_passes_on: int
    fubar_on: int
    order_test_needed_without_pins: bool
    pins_destroy_at_base_morale: bool
    indirect_first_shot: int
    indirect_ranged_in: int
    shaped_charge_to_hit: int
    pins_per_attack: int
    close_quarters_attacks: int
    assault_weapon_attacks: int
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


@cache
def load_edition(ruleset: str) -> Edition:
    """The validated rules tables of ``konflikt47`` or ``bolt-action-1``."""
    return load_yaml(DATA_DIR / f"{ruleset.replace('-', '_')}.yaml", Edition)
