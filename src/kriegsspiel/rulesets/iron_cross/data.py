"""The Iron Cross data file (sheet 003) as validated, frozen models.

Every number the rules use is read from ``data/iron_cross.yaml``, or from a designer's copy
of it (a rules file); each table names its source: the sheet's file, or a text starting
with ``assumption`` for rules the sheet leaves out (or, in a copy, ``house rule``). The loaders turn the raw text cells ("3+", "no test", "Impassable") into small
typed values once, so the rules never parse strings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from kriegsspiel.core import arguments
from kriegsspiel.core.datafile import (
    Number,
    Strict,
    TrueOrFalse,
    WholeNumber,
    load_yaml,
    parse_yaml,
    text_of_form,
)
from kriegsspiel.rulesets.rules_data import RulesData, other_data, source_check

SHEET = "003_ecb1b023979fb393.txt"
DATA_FILE = Path(__file__).parent / "data" / "iron_cross.yaml"

SheetSource = Annotated[str, source_check((SHEET,), ())]
AssumptionSource = Annotated[str, source_check((), ("assumption",))]
Count = Annotated[WholeNumber, Field(ge=0)]
# A die's faces: 2 to 100 (the sheet rolls D6s and D10s; past a D100, a limit of the tool,
# not a rule, a rules file's typo would make the exact odds take minutes)
MOST_SIDES = 100
Sides = Annotated[WholeNumber, Field(ge=2, le=MOST_SIDES)]
TerrainCell = Annotated[
    str,
    text_of_form(
        r"^(\d\+?|no test|Impassable)$",
        "a terrain test: the score a die needs ('6' for a 6 only, '3+' for 3 or more), "
        "'no test' or 'Impassable'",
    ),
]
CoverName = Literal["open", "cover", "fortifications"]


# -- terrain cells, parsed ---------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TerrainTest:
    """One cell of a terrain table: no test, impassable, or a D6 score needed."""

    text: str
    needs: int | None  # score needed on the die; None when no roll is made
    impassable: bool = False

    @staticmethod
    def parse(text: str) -> TerrainTest:
        """'6' (a 6 only), '3+', 'no test', 'Impassable'."""
        if text == "no test":
            return TerrainTest(text, None)
        if text == "Impassable":
            return TerrainTest(text, None, impassable=True)
        match = re.fullmatch(r"(\d)\+?", text)
        if match is None:  # guarded by the model's pattern
            raise ValueError(f"not a terrain test: {text!r}")
        return TerrainTest(text, int(match.group(1)))


# -- sheet tables --------------------------------------------------------------------
class TurnOrder(Strict):
    source: SheetSource
    steps: tuple[str, ...]
    scenario_rules_may_change: tuple[WholeNumber, ...]
    repeat_from_step: WholeNumber


class CommandTokens(Strict):
    source: SheetSource
    per_unit: Count
    per_command_unit: Count


class Initiative(Strict):
    source: SheetSource
    die: Sides


class Activation(Strict):
    source: SheetSource
    first_activation_needs_roll: TrueOrFalse
    die: Sides


class Reaction(Strict):
    source: SheetSource
    die: Sides
    needs: WholeNumber
    per_token_or_marker: WholeNumber


class Distance(Strict):
    inches: Number
    cm: Number


class MoveRate(Strict):
    type: str
    aliases: tuple[str, ...] = ()
    vehicle: TrueOrFalse  # its names name a vehicle target too ("medium tank")
    normal: Distance
    rapid: Distance
    rapid_road: Distance


class Movement(Strict):
    source: SheetSource
    may_fire_after: tuple[Literal["normal", "rapid", "rapid_road"], ...]
    rates: tuple[MoveRate, ...]


class TerrainRow(Strict):
    unit: str
    aliases: tuple[str, ...] = ()
    rough: TerrainCell
    very_rough: TerrainCell

    def test(self, terrain: Literal["rough", "very_rough"]) -> TerrainTest:
        return TerrainTest.parse(self.rough if terrain == "rough" else self.very_rough)


class TerrainTests(Strict):
    source: SheetSource
    die: Sides
    vehicles: tuple[TerrainRow, ...]
    infantry: tuple[TerrainRow, ...]


class Modifier(Strict):
    text: str
    value: WholeNumber


class FiringModifiers(Strict):
    source: SheetSource
    close_range: Distance
    enemy_near_vehicle: Distance
    firer_moved: Modifier
    target_moved: Modifier
    smoke: Modifier
    close_range_bonus: Modifier
    enemy_infantry_near_vehicle: Modifier
    per_morale_marker: Modifier


class MoraleMarkers(Strict):
    source: SheetSource
    per_hit: Count
    further_vs_infantry: Count


class CoverLevel(Strict):
    cover: CoverName
    aliases: tuple[str, ...] = ()
    further_marker_on: WholeNumber


class Cover(Strict):
    source: SheetSource
    levels: tuple[CoverLevel, ...]
    mortar_treats_as: dict[CoverName, CoverName]

    def level(self, name: str) -> CoverLevel:
        return next(level for level in self.levels if level.cover == name)

    def rank(self, name: str) -> int:
        """0 for the open, higher for better cover (the order of the table)."""
        names: list[str] = [level.cover for level in self.levels]
        return names.index(name)


class PenetrationResult(Strict):
    scores: tuple[WholeNumber, ...]
    key: str
    name: str
    effect: str
    extra_markers: Count = 0
    vehicle_damaged: TrueOrFalse = False
    destroyed: TrueOrFalse = False
    kaboom: TrueOrFalse = False


class ArmourPenetration(Strict):
    source: SheetSource
    die: Sides
    markers_per_hit: Count  # only from a weapon capable of exceeding the armour
    results: tuple[PenetrationResult, ...]
    kaboom_radius_inches: Number
    kaboom_radius_small_table_inches: Number

    @model_validator(mode="after")
    def _every_score_once(self) -> ArmourPenetration:
        scores = sorted(s for r in self.results for s in r.scores)
        if scores != list(range(1, self.die + 1)):
            raise ValueError(f"results must cover the scores 1..{self.die} exactly once")
        return self

    def row_of(self, score: int) -> int:
        """The 1-based row of the table that a die score falls in."""
        return next(i for i, r in enumerate(self.results, 1) if score in r.scores)


class Smoke(Strict):
    source: SheetSource
    die: Sides
    needs: WholeNumber
    protected_unit_may_fire: TrueOrFalse
    gives_target_cover: CoverName
    dissipates: str


# -- assumption tables -------------------------------------------------------------
class ToHit(Strict):
    source: AssumptionSource
    die: Sides
    dice_per_unit: Annotated[WholeNumber, Field(ge=1)]
    dice_at_infantry_close: Annotated[
        WholeNumber, Field(ge=1)
    ]  # infantry: the casualty roll's targets
    machine_gun_dice_at_infantry: Annotated[WholeNumber, Field(ge=1)]
    needs: WholeNumber


class NaturalRolls(Strict):
    source: AssumptionSource
    always_misses: WholeNumber
    always_hits: WholeNumber


class CasualtyRoll(Strict):
    source: AssumptionSource
    die: Sides
    targets: tuple[str, ...]


class SeizeInitiative(Strict):
    source: AssumptionSource
    on_roll: WholeNumber


class ReactionCounts(Strict):
    source: AssumptionSource
    count_token_being_spent: TrueOrFalse


class Screech(Strict):
    source: AssumptionSource
    immobilised: TrueOrFalse
    extra_markers: Count


class PenetrationThrow(Strict):
    source: AssumptionSource
    die: Sides


class SeveralHits(Strict):
    source: AssumptionSource
    stop_when_destroyed: TrueOrFalse


class InitiativeRollOff(Strict):
    source: AssumptionSource
    reroll_ties: TrueOrFalse


class CloseCombat(Strict):
    """Close combat as both units' fire at once, at point blank (docs/rules/iron-cross.md)."""

    source: AssumptionSource
    range_inches: Annotated[Number, Field(ge=0)]  # within the firing modifiers' close range
    attacker_cover: CoverName  # where the assaulter stands as the defender fires


class IronCrossData(RulesData):
    """The whole data file."""

    file_kind: ClassVar[str] = "rules data file"

    ruleset: Literal["iron-cross"] | None = None  # whose data this is (a copy may omit it)
    turn_order: TurnOrder
    command_tokens: CommandTokens
    initiative: Initiative
    activation: Activation
    reaction: Reaction
    movement: Movement
    terrain_tests: TerrainTests
    firing_modifiers: FiringModifiers
    morale_markers: MoraleMarkers
    cover: Cover
    armour_penetration: ArmourPenetration
    smoke: Smoke
    to_hit: ToHit
    natural_rolls: NaturalRolls
    casualty_roll: CasualtyRoll
    seize_initiative: SeizeInitiative
    reaction_counts: ReactionCounts
    screech: Screech
    penetration_throw: PenetrationThrow
    several_hits_on_a_vehicle: SeveralHits
    initiative_roll_off: InitiativeRollOff
    close_combat: CloseCombat

    def shipped(self) -> IronCrossData:
        """The shipped data (the sheet's tables and the assumptions)."""
        return _packaged()

    def vehicle_names(self) -> tuple[str, ...]:
        """Every name the sheet's vehicle rows go by (move rates and terrain tests), with
        their aliases: each names a vehicle target."""
        rows = [(r.type, *r.aliases) for r in self.movement.rates if r.vehicle]
        rows += [(r.unit, *r.aliases) for r in self.terrain_tests.vehicles]
        return tuple(name for names in rows for name in names)

    @field_validator("cover")
    @classmethod
    def _cover_levels_complete(cls, cover: Cover) -> Cover:
        names = [level.cover for level in cover.levels]
        if sorted(names) != sorted(("open", "cover", "fortifications")):
            raise ValueError("cover levels must be open, cover and fortifications, once each")
        return cover


def load_data(path: str | Path | None = None) -> IronCrossData:
    """Read and validate an Iron Cross data file (the packaged one by default)."""
    if path is None:
        return _packaged()
    file = arguments.path("path", path)
    return load_yaml(file, IronCrossData).named(str(path))


def read_data(text: str, name: str) -> IronCrossData:
    """Validate the text of an Iron Cross data file (a rules file, named ``name``);
    another ruleset's data is refused as such (a UsageError)."""
    other_data(name, text, "iron-cross")
    return parse_yaml(text, IronCrossData, name).named(name)


@lru_cache(maxsize=1)
def _packaged() -> IronCrossData:
    return load_yaml(DATA_FILE, IronCrossData)
