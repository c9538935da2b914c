"""The House Clearing data file (sheet 004) as validated, frozen models.

Every number the rules use is read from ``data/house_clearing.yaml``, or from a designer's
copy of it (a rules file); each table names its source: the sheet's file, or a text
starting with ``assumption`` (or, in a copy, ``house rule``).
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, ModelWrapValidatorHandler, field_validator, model_validator

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
from kriegsspiel.core.names import also_written, lookup, rows_named
from kriegsspiel.errors import UnknownNameError
from kriegsspiel.rulesets.rules_data import RulesData, other_data, source_check

SHEET = "004_2975a7839a1a7404.txt"
DATA_FILE = Path(__file__).parent / "data" / "house_clearing.yaml"

SheetSource = Annotated[str, source_check((SHEET,), ())]
AssumptionSource = Annotated[str, source_check((), ("assumption",))]
Positive = Annotated[WholeNumber, Field(ge=1)]
DiceText = Annotated[
    str,
    text_of_form(
        r"^\d*[dD]\d+([+-]\d+)?$|^\d+$",
        "a dice expression (write e.g. 3, D6, 2D6-1 or D3+1)",
    ),
]


class FigureClass(Strict):
    names: tuple[str, ...]
    initiative: DiceText
    weapon_skill_dice: DiceText
    weapon_skill_multiplier: Positive


class Figures(Strict):
    source: SheetSource
    officer: FigureClass
    other: FigureClass


class Step(Strict):
    phase: Literal["move", "fire"]
    initiative: Annotated[WholeNumber, Field(ge=0)]


class Sequence(Strict):
    source: SheetSource
    steps: tuple[Step, ...]


class MoveRate(Strict):
    terrain: str
    aliases: tuple[str, ...] = ()
    inches: Number


class WallClimb(Strict):
    height: str
    move_fraction: Number


class Movement(Strict):
    source: SheetSource
    rates: tuple[MoveRate, ...]
    wall_climb: WallClimb

    @field_validator("rates")
    @classmethod
    def _named_once(cls, rates: tuple[MoveRate, ...]) -> tuple[MoveRate, ...]:
        _one_row_each([(r.terrain, *r.aliases) for r in rates], "terrain", "rates")
        return rates


def _one_row_each(rows: list[tuple[str, ...]], noun: str, table: str) -> None:
    """A ValueError if a name or alias names two of ``rows`` (each row's names) as the
    look-up reads names (:func:`kriegsspiel.core.names.lookup`: in any case, punctuation
    and spacing): it would find one of them only."""
    for named in rows_named(rows).values():
        if len(named) > 1:
            first = named[0][1]
            alike = also_written(first, named)
            where = " and ".join(f"{table}.{i} ({rows[i][0]})" for i, _ in named)
            raise ValueError(
                f"{first!r} names {len(named)} {noun} rows ({where}; names are read in any "
                f"case, punctuation and spacing{': ' + alike if alike else ''}): each name "
                f"and alias names one {noun} only, as a look-up could not tell which was "
                "meant; rename one or drop a row"
            )


class BandRow(Strict):
    name: str
    divisor: Positive


class WeaponRow(Strict):
    name: str
    aliases: tuple[str, ...] = ()
    edges: tuple[Number, ...]
    automatic: TrueOrFalse
    crew_needed: Positive | None = None
    short_crewed_fires_as: str | None = None

    @field_validator("edges")
    @classmethod
    def _increasing(cls, edges: tuple[float, ...]) -> tuple[float, ...]:
        return _increasing(edges)


# the number of range bands of the file being read (from its raw range_bands.bands), so a
# weapon's or the grenade's edges of another count are told at their own line
_BANDS: ContextVar[int | None] = ContextVar("house_clearing_bands", default=None)


def _increasing(edges: tuple[float, ...]) -> tuple[float, ...]:
    if any(b <= a for a, b in zip((0.0, *edges), edges, strict=False)):
        raise ValueError("band edges must be positive and increasing")
    bands = _BANDS.get()
    if bands is not None and len(edges) != bands:
        raise ValueError(
            f"{len(edges)} band edges for {bands} range bands: give {bands}, one per band "
            "(the farthest inches of each, in the order of range_bands.bands)"
        )
    return edges


class AssaultRifle(Strict):
    name: str
    aliases: tuple[str, ...] = ()
    single_shot_as: str
    automatic_as: str


class RangeBands(Strict):
    source: SheetSource
    bands: tuple[BandRow, ...]
    weapons: tuple[WeaponRow, ...]
    assault_rifle: AssaultRifle

    def fires_as(self, name: str) -> WeaponRow:
        """The row of the range table ``name`` names (a row's name or alias, as every
        weapon's name is looked up): the row a weapon fires as."""
        return lookup("weapon", name, [((w.name, *w.aliases), w) for w in self.weapons])

    @model_validator(mode="after")
    def _consistent(self) -> RangeBands:
        rifle = self.assault_rifle
        _one_row_each(
            [*((w.name, *w.aliases) for w in self.weapons), (rifle.name, *rifle.aliases)],
            "weapon",
            "weapons",
        )
        for w in self.weapons:
            if len(w.edges) != len(self.bands):
                raise ValueError(f"{w.name} needs {len(self.bands)} band edges, one per band")
            if w.short_crewed_fires_as is not None:
                self._known(f"{w.name}: short_crewed_fires_as", w.short_crewed_fires_as)
        for field_name in ("single_shot_as", "automatic_as"):
            self._known(f"assault rifle: {field_name}", getattr(rifle, field_name))
        return self

    def _known(self, where: str, name: str) -> None:
        """A ValueError if ``name`` names no row of the range table, as the rules find it."""
        try:
            self.fires_as(name)
        except UnknownNameError as exc:
            raise ValueError(f"{where}: {exc}") from None


class AutomaticFire(Strict):
    source: SheetSource
    cone_width_fraction_of_range: Number
    chance_divisor: Positive


class ToHit(Strict):
    source: SheetSource
    die: Positive
    automatic_chance_per: Positive


class Visible(Strict):
    fifths: Positive
    shows: str


class Cover(Strict):
    source: SheetSource
    die: Positive
    visible: tuple[Visible, ...]

    @model_validator(mode="after")
    def _one_to_five(self) -> Cover:
        if [v.fifths for v in self.visible] != list(range(1, len(self.visible) + 1)):
            raise ValueError("visible rows must be numbered 1, 2, 3 ... in order")
        rows = len(self.visible)
        if self.die not in (rows, rows + 1):
            # n of the rows visible hits on n or less: only a die of one face a row (and at
            # most one above them, the sheet's D6 whose 6 misses or is rolled again) keeps
            # n/5 a chance of n in 5
            raise ValueError(
                f"the cover die needs one face per visible row ({rows}) and at most one face "
                f"above them (the sheet's D6: its 6 misses, or is rolled again), so that "
                f"{rows - 1} of {rows} visible hits {rows - 1} times in {rows}: give "
                f"{rows} or {rows + 1}, not {self.die}"
            )
        return self


class CoverRoll(Strict):
    """What a cover roll above the visible fifths (a 6 on the D6) does: misses, as the
    worked example's "2 or less on a D6" reads, or is rolled again (n/5 hits n times in 5)."""

    source: AssumptionSource
    above_the_fifths: Literal["miss", "roll again"]


class Damage(Strict):
    source: SheetSource
    initiative_lost_per_hit: DiceText
    can_fire_not_move_at: WholeNumber


class Rounding(Strict):
    source: AssumptionSource
    fractional_chance: Literal["down"]


class Grenade(Strict):
    """A hand grenade: thrown over range bands of its own, bursting where it lands."""

    source: AssumptionSource
    name: str
    aliases: tuple[str, ...] = ()
    edges: tuple[Number, ...]
    blast_radius_inches: Annotated[Number, Field(gt=0)]

    @field_validator("edges")
    @classmethod
    def _increasing(cls, edges: tuple[float, ...]) -> tuple[float, ...]:
        return _increasing(edges)


class HouseClearingData(RulesData):
    """The whole data file."""

    file_kind: ClassVar[str] = "rules data file"

    # whose data this is (a copy made before the field was there says nothing: it is read
    # where House Clearing's data is asked for)
    ruleset: Literal["house-clearing"] | None = None
    figures: Figures
    sequence: Sequence
    movement: Movement
    range_bands: RangeBands
    automatic_fire: AutomaticFire
    to_hit: ToHit
    cover: Cover
    damage: Damage
    rounding: Rounding
    cover_roll: CoverRoll
    grenade: Grenade

    def shipped(self) -> HouseClearingData:
        """The shipped data (the sheet's tables and the assumptions)."""
        return _packaged()

    @model_validator(mode="wrap")
    @classmethod
    def _bands_for_nested_checks(
        cls, data: Any, handler: ModelWrapValidatorHandler[HouseClearingData]
    ) -> HouseClearingData:
        """A weapon's band edges are counted against the file's range bands at the
        weapon's own row (the count read from the raw file before it is checked)."""
        section = data.get("range_bands") if isinstance(data, dict) else None
        bands = section.get("bands") if isinstance(section, dict) else None
        token = _BANDS.set(len(bands) if isinstance(bands, list) else None)
        try:
            return handler(data)
        finally:
            _BANDS.reset(token)

    @model_validator(mode="after")
    def _grenade_fits(self) -> HouseClearingData:
        if len(self.grenade.edges) != len(self.range_bands.bands):
            raise ValueError(
                f"grenade needs {len(self.range_bands.bands)} band edges, one per band"
            )
        rifle = self.range_bands.assault_rifle
        names = [(w.name, *w.aliases) for w in self.range_bands.weapons]
        names.append((rifle.name, *rifle.aliases))
        thrown = (self.grenade.name, *self.grenade.aliases)
        for named in rows_named([*names, thrown]).values():  # (as weapon_name reads them)
            if len(named) > 1 and named[-1][0] == len(names):
                other = named[0]
                clash = named[-1][1]
                alike = also_written(clash, [other])
                raise ValueError(
                    f"grenade: {clash!r} already names a weapon of the range table"
                    + (f" ({names[other[0]][0]}: {alike})" if alike else "")
                )
        return self


# -- the tables as the rules use them ------------------------------------------------
@dataclass(frozen=True, slots=True)
class RangeBand:
    """A band of one weapon's range: over ``nearest`` inches, up to ``farthest``."""

    name: str
    divisor: int
    nearest: float
    farthest: float


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon with its range bands."""

    name: str
    bands: tuple[RangeBand, ...]
    automatic: bool
    crew_needed: int | None = None
    short_crewed_fires_as: str | None = None

    @property
    def max_range(self) -> float:
        return self.bands[-1].farthest


def _bands(edges: tuple[float, ...], bands: tuple[BandRow, ...]) -> tuple[RangeBand, ...]:
    nearest = (0.0, *edges[:-1])
    return tuple(
        RangeBand(b.name, b.divisor, lo, hi)
        for b, lo, hi in zip(bands, nearest, edges, strict=True)
    )


def weapon(row: WeaponRow, bands: tuple[BandRow, ...]) -> Weapon:
    """A weapon row of the range table with its bands made explicit."""
    return Weapon(
        row.name,
        _bands(row.edges, bands),
        row.automatic,
        row.crew_needed,
        row.short_crewed_fires_as,
    )


def grenade(data: HouseClearingData) -> Weapon:
    """The grenade as a thrown weapon, over the range table's bands."""
    return Weapon(data.grenade.name, _bands(data.grenade.edges, data.range_bands.bands), False)


def load_data(path: str | Path | None = None) -> HouseClearingData:
    """Read and validate a House Clearing data file (the packaged one by default)."""
    if path is None:
        return _packaged()
    file = arguments.path("path", path)
    return load_yaml(file, HouseClearingData).named(str(path))


def read_data(text: str, name: str) -> HouseClearingData:
    """Validate the text of a House Clearing data file (a rules file, named ``name``);
    another ruleset's data is refused as such (a UsageError)."""
    other_data(name, text, "house-clearing")
    return parse_yaml(text, HouseClearingData, name).named(name)


@lru_cache(maxsize=1)
def _packaged() -> HouseClearingData:
    return load_yaml(DATA_FILE, HouseClearingData)
