"""House Clearing rules as procedures over a :class:`Dice` (sheet 004).

Each rule is written once here. The odds calculator enumerates these functions exactly,
the tests sample them with ``RandomDice`` to check the odds (there is no whole-game
simulator for House Clearing yet) and the sheet's worked firefight replays them with
``ScriptedDice``. Numbers come from the data file, never from code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from kriegsspiel.core.dice import DiceExpr
from kriegsspiel.core.names import a_or_an, in_sentence, lookup
from kriegsspiel.core.procedure import Dice
from kriegsspiel.errors import ParameterError, UsageError, named, not_a_distance
from kriegsspiel.rulesets.house_clearing.data import (
    HouseClearingData,
    RangeBand,
    Step,
    Weapon,
    grenade,
    load_data,
    weapon,
)


def _data(data: HouseClearingData | None) -> HouseClearingData:
    return load_data() if data is None else data


def _a(weapon_name: str) -> str:
    """A weapon's name as said mid-sentence, after "a" or "an": "an SMG", "a box LMG"."""
    return a_or_an(in_sentence(weapon_name))


def _whole(name: str, value: object, least: int) -> int:
    """``value`` if it is a whole number ``least`` or more, else refused naming its
    parameter (the command line tells it as its option)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ParameterError(f"{named(name)} must be a whole number {least} or more, not {value!r}")
    return value


def _roll(dice: Dice, expr: DiceExpr, times: int = 1) -> int:
    """Roll a dice expression ``times`` times and add the results."""
    return dice.total(expr.count * times, expr.sides) + expr.constant * times


# -- figures -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, order=True)
class Figure:
    """A freshly rolled figure: initiative points and weapon skill."""

    initiative: int
    weapon_skill: int


def roll_figure(dice: Dice, officer: bool, data: HouseClearingData | None = None) -> Figure:
    """Roll a figure: officers, NCOs and 'Rambos' D3+1 and 4D6x10, others D3 and 3D6x10."""
    table = _data(data).figures
    kind = table.officer if officer else table.other
    initiative = _roll(dice, DiceExpr(kind.initiative))
    skill = _roll(dice, DiceExpr(kind.weapon_skill_dice)) * kind.weapon_skill_multiplier
    return Figure(initiative, skill)


class Status(StrEnum):
    """What a figure can still do, by its initiative points."""

    FIT = "fit to move and fire"
    CAN_FIRE_NOT_MOVE = "can fire but not move"
    DEAD_OR_SERIOUSLY_WOUNDED = "dead or seriously wounded"


def status(initiative: int, data: HouseClearingData | None = None) -> Status:
    """Above 0: fit; exactly 0: can fire but not move; below 0: dead or seriously wounded."""
    limit = _data(data).damage.can_fire_not_move_at
    if initiative > limit:
        return Status.FIT
    if initiative == limit:
        return Status.CAN_FIRE_NOT_MOVE
    return Status.DEAD_OR_SERIOUSLY_WOUNDED


def turn_sequence(data: HouseClearingData | None = None) -> tuple[Step, ...]:
    """The turn: everyone moves by initiative 1 to 4, then fires by initiative 4 down to 0."""
    return _data(data).sequence.steps


def acts_in(phase: str, initiative: int, data: HouseClearingData | None = None) -> int | None:
    """The step number (0-based) in which a figure with ``initiative`` moves or fires.

    None when the figure does not take part in that phase (e.g. initiative 0 cannot move,
    below 0 is out of the fight). Figures with the same initiative act at the same time.
    """
    for number, step in enumerate(turn_sequence(data)):
        if step.phase == phase and step.initiative == initiative:
            return number
    return None


def move_rate(terrain: str, data: HouseClearingData | None = None) -> float:
    """Inches moved: 9 in the open or on roads, 6 on a tile, 3 in buildings."""
    table = _data(data).movement
    row = lookup("terrain", terrain, [((r.terrain, *r.aliases), r) for r in table.rates])
    return row.inches


def wall_climb_cost(terrain: str, data: HouseClearingData | None = None) -> float:
    """Inches of move used to climb a wall up to chest height (half a move)."""
    return move_rate(terrain, data) * _data(data).movement.wall_climb.move_fraction


# -- shooting ------------------------------------------------------------------------
def find_weapon(
    name: str,
    automatic: bool = False,
    crew: int | None = None,
    data: HouseClearingData | None = None,
) -> tuple[str, Weapon, str]:
    """The weapon's name, the row it fires as after the sheet's notes, and why it changed.

    An assault rifle fires as a carbine (single shot) or an SMG (automatic); a belt-fed
    LMG with fewer than two crew fires as a box LMG.
    """
    tables = _data(data)
    table = tables.range_bands
    rifle = table.assault_rifle
    canonical = chosen = weapon_name(name, tables)
    if canonical == tables.grenade.name:
        raise UsageError(
            f"{_a(canonical)} is thrown, not fired: plan_throw plans it (odds shoot takes both)."
        )
    note = ""
    if chosen == rifle.name:
        chosen = table.fires_as(rifle.automatic_as if automatic else rifle.single_shot_as).name
        mode = "automatic" if automatic else "single shot"
        note = f"{a_or_an(in_sentence(rifle.name))} on {mode} fires as {_a(chosen)}"
    row = table.fires_as(chosen)
    if crew is not None:
        _whole("crew", crew, 1)
        if row.crew_needed is None:
            raise ParameterError(
                f"{named('crew')} is for a weapon that needs a crew (a belt-fed LMG); the "
                f"{in_sentence(row.name)} is fired by one figure: drop {named('crew')}"
            )
        if row.crew_needed is not None and crew < row.crew_needed and row.short_crewed_fires_as:
            note = (
                f"{_a(row.name)} with {crew} crew (it needs {row.crew_needed}) "
                f"fires as {_a(table.fires_as(row.short_crewed_fires_as).name)}"
            )
            row = table.fires_as(row.short_crewed_fires_as)
    return canonical, weapon(row, table.bands), note


def weapon_name(name: str, data: HouseClearingData | None = None) -> str:
    """The name of the weapon ``name`` names: a row of the range table, the assault rifle
    or the grenade; an unknown name is told with the closest."""
    tables = _data(data)
    table, thrown = tables.range_bands, tables.grenade
    rows = [((w.name, *w.aliases), w.name) for w in table.weapons]
    rows.append(
        ((table.assault_rifle.name, *table.assault_rifle.aliases), table.assault_rifle.name)
    )
    rows.append(((thrown.name, *thrown.aliases), thrown.name))
    return lookup("weapon", name, rows)


def is_grenade(name: str, data: HouseClearingData | None = None) -> bool:
    """Whether ``name`` names the grenade (UnknownNameError if it names nothing)."""
    tables = _data(data)
    return weapon_name(name, tables) == tables.grenade.name


def range_band(arm: Weapon, range_inches: float, note: str = "") -> RangeBand:
    """The band a range falls in (up to and including its far edge).

    ``note`` says why the weapon fires as ``arm`` (an assault rifle on automatic fires as an
    SMG), for the out-of-range message."""
    if (
        isinstance(range_inches, bool)
        or not isinstance(range_inches, int | float)
        or not math.isfinite(range_inches)
        or range_inches < 0
    ):
        raise not_a_distance("range_inches", range_inches)
    for band in arm.bands:
        if range_inches <= band.farthest:
            return band
    which = f"{note}, which" if note else _a(arm.name)
    raise ParameterError(
        f"{named('range_inches', float(range_inches))}: out of range, {which} reaches "
        f'{arm.max_range:g}" '
        f"at most ({arm.bands[-1].name.lower()} range)"
    )


def cone_width(range_inches: float, data: HouseClearingData | None = None) -> float:
    """Width of an automatic weapon's cone of fire at its wide end: a quarter of the range."""
    return range_inches * _data(data).automatic_fire.cone_width_fraction_of_range


@dataclass(frozen=True, slots=True)
class CoverRoll:
    """The D6 that makes a chance of a hit a hit: the target's visible fifths or less.

    A score above the fifths (a 6) misses, as the worked example reads the sheet, unless
    the data file's ``cover_roll`` says it is rolled again (then n/5 visible is hit n times
    in 5, and a figure showing all its fifths needs no roll)."""

    die: int
    fifths: int  # rows of the cover table: a whole figure, head to boots
    roll_again: bool

    @property
    def effective_die(self) -> int:
        """Faces of the die as rolled: a D6 whose 6 is rolled again is a D5, the same odds
        in one roll (which the exact odds can enumerate, where rolling again cannot end)."""
        return self.fifths if self.roll_again else self.die

    def needs_roll(self, visible: int) -> bool:
        return not (self.roll_again and visible >= self.fifths)

    def hits(self, dice: Dice, visible: int) -> bool:
        """Whether a chance of a hit on a figure showing ``visible`` fifths hits."""
        return not self.needs_roll(visible) or dice.roll(self.effective_die) <= visible


def cover_roll(data: HouseClearingData | None = None) -> CoverRoll:
    """The cover roll the data file gives: its die, the fifths of a figure, and a 6's fate."""
    tables = _data(data)
    return CoverRoll(
        tables.cover.die,
        len(tables.cover.visible),
        tables.cover_roll.above_the_fifths == "roll again",
    )


@dataclass(frozen=True, slots=True)
class ShotPlan:
    """A validated shot and every number the dice will be compared against."""

    weapon: str
    fires_as: str
    note: str
    band: RangeBand
    weapon_skill: int
    automatic: bool
    automatic_divisor: int  # 1 single shot, 2 automatic
    unrounded_chance: Fraction
    chance: int  # percent, may exceed 100
    chance_per_automatic: int  # each complete 100 is an automatic chance of a hit
    to_hit_die: int
    visible: int
    cover: CoverRoll
    damage: DiceExpr

    @property
    def automatic_chances(self) -> int:
        return self.chance // self.chance_per_automatic

    @property
    def remainder(self) -> int:
        """The percentage (score or less on a D100) for one more chance of a hit."""
        return self.chance % self.chance_per_automatic


def plan_shot(
    *,
    weapon: str,
    range_inches: float,
    weapon_skill: int,
    visible: int,
    automatic: bool = False,
    crew: int | None = None,
    data: HouseClearingData | None = None,
) -> ShotPlan:
    """Check a shot and work out the chance; UsageError if it is impossible."""
    tables = _data(data)
    name, arm, note = find_weapon(weapon, automatic, crew, tables)
    if automatic and not arm.automatic:
        raise ParameterError(
            f"{named('automatic', True)}: the {in_sentence(arm.name)} fires single shot only; "
            "automatic fire needs an SMG, a box or belt LMG, or an assault rifle."
        )
    band = range_band(arm, range_inches, note)
    _check_skill_and_visible(weapon_skill, visible, tables)
    divisor = tables.automatic_fire.chance_divisor if automatic else 1
    unrounded = Fraction(weapon_skill, band.divisor * divisor)
    return ShotPlan(
        weapon=name,
        fires_as=arm.name,
        note=note,
        band=band,
        weapon_skill=weapon_skill,
        automatic=automatic,
        automatic_divisor=divisor,
        unrounded_chance=unrounded,
        chance=math.floor(unrounded),  # the data file's rounding rule: down
        chance_per_automatic=tables.to_hit.automatic_chance_per,
        to_hit_die=tables.to_hit.die,
        visible=visible,
        cover=cover_roll(tables),
        damage=DiceExpr(tables.damage.initiative_lost_per_hit),
    )


def _check_skill_and_visible(weapon_skill: int, visible: int, tables: HouseClearingData) -> None:
    """UsageError unless the weapon skill is one the dice can give and 1 to 5 fifths show."""
    kinds = (tables.figures.officer, tables.figures.other)
    # the skills each kind of figure may roll: its dice's every score times its multiplier
    skills = [
        sorted(
            v * k.weapon_skill_multiplier for v in DiceExpr(k.weapon_skill_dice).dist().outcomes()
        )
        for k in kinds
    ]
    given = {skill for each in skills for skill in each}
    least, best = min(given), max(given)
    step = math.gcd(*(k.weapon_skill_multiplier for k in kinds))
    _whole("weapon_skill", weapon_skill, least)
    if weapon_skill not in given:
        rolled = " or ".join(f"{k.weapon_skill_dice}x{k.weapon_skill_multiplier}" for k in kinds)
        if given == set(range(least, best + 1, step)):  # (the sheet's: both times 10)
            told = f"a multiple of {step} from {least} to {best}"
        else:  # (a rules file's multipliers differ: each kind's own skills)
            told = " or ".join(
                f"{each[0]} to {each[-1]} in steps of {k.weapon_skill_multiplier}"
                f" ({k.weapon_skill_dice}x{k.weapon_skill_multiplier})"
                for k, each in zip(kinds, skills, strict=True)
            )
        raise ParameterError(
            f"{named('weapon_skill', weapon_skill)}: a figure's weapon skill is {rolled}, so {told}"
        )
    fifths = len(tables.cover.visible)
    if isinstance(visible, bool) or not isinstance(visible, int) or not 1 <= visible <= fifths:
        raise ParameterError(
            f"{named('visible')} must be 1 to {fifths} fifths (1 = head only, {fifths} = head to boots), "
            f"not {visible!r}"
        )


@dataclass(frozen=True, slots=True, order=True)
class ShotOutcome:
    """What one shot did: chances of a hit, hits, and initiative points the target lost."""

    chances: int
    hits: int
    initiative_lost: int


def roll_chances(dice: Dice, plan: ShotPlan) -> int:
    """Chances of a hit: one per complete 100, and one more on a D100 of the rest or less."""
    extra = 0
    if plan.remainder:
        extra = int(dice.roll(plan.to_hit_die) <= plan.remainder)
    return plan.automatic_chances + extra


def chance_hits(dice: Dice, plan: ShotPlan | ThrowPlan) -> bool:
    """A chance of a hit becomes a hit on a D6 of the target's visible fifths or less."""
    return plan.cover.hits(dice, plan.visible)


def roll_initiative_lost(dice: Dice, plan: ShotPlan | ThrowPlan, hits: int) -> int:
    """Each hit costs the target D3 initiative points."""
    return _roll(dice, plan.damage, hits) if hits else 0


def shoot(dice: Dice, plan: ShotPlan) -> ShotOutcome:
    """One figure fires at one target."""
    chances = roll_chances(dice, plan)
    hits = sum(1 for _ in range(chances) if chance_hits(dice, plan))
    return ShotOutcome(chances, hits, roll_initiative_lost(dice, plan, hits))


def take_hits(initiative: int, initiative_lost: int) -> int:
    """The target's initiative after its hits cost it ``initiative_lost`` points (a shot's
    or a grenade's, :attr:`ShotOutcome.initiative_lost`)."""
    return initiative - initiative_lost


# -- grenades (not on the sheet: docs/rules/house-clearing.md) --------------------------
@dataclass(frozen=True, slots=True)
class ThrowPlan:
    """A validated grenade throw at a figure, and every number the dice meet.

    ``visible`` is the fifths of the figure the burst can see: all of a figure in the room
    it lands in, less of one behind a wall (the fifths the shot's cover roll counts)."""

    weapon: str
    band: RangeBand
    weapon_skill: int
    unrounded_chance: Fraction
    chance: int  # percent, may exceed 100
    sure_at: int  # a chance this high lands the grenade without a D100
    to_hit_die: int
    visible: int
    cover: CoverRoll
    damage: DiceExpr
    blast_radius: float

    @property
    def sure(self) -> bool:
        return self.chance >= self.sure_at


def plan_throw(
    *,
    range_inches: float,
    weapon_skill: int,
    visible: int,
    data: HouseClearingData | None = None,
) -> ThrowPlan:
    """Check a grenade throw and work out the chance it lands; UsageError if impossible."""
    tables = _data(data)
    arm = grenade(tables)
    band = range_band(arm, range_inches)
    _check_skill_and_visible(weapon_skill, visible, tables)
    unrounded = Fraction(weapon_skill, band.divisor)
    return ThrowPlan(
        weapon=arm.name,
        band=band,
        weapon_skill=weapon_skill,
        unrounded_chance=unrounded,
        chance=math.floor(unrounded),  # the data file's rounding rule: down
        sure_at=tables.to_hit.automatic_chance_per,
        to_hit_die=tables.to_hit.die,
        visible=visible,
        cover=cover_roll(tables),
        damage=DiceExpr(tables.damage.initiative_lost_per_hit),
        blast_radius=tables.grenade.blast_radius_inches,
    )


@dataclass(frozen=True, slots=True, order=True)
class ThrowOutcome:
    """What one grenade did to one figure: landed where aimed, hit it, initiative lost."""

    lands: bool
    hit: bool
    initiative_lost: int


def grenade_lands(dice: Dice, plan: ThrowPlan) -> bool:
    """The grenade lands where aimed on the score or less on a D100; one grenade lands
    once, so a score of 100 or more lands it without a roll (no second grenade)."""
    return plan.sure or dice.roll(plan.to_hit_die) <= plan.chance


def throw_grenade(dice: Dice, plan: ThrowPlan) -> ThrowOutcome:
    """One figure throws a grenade at another: if it lands it bursts, and the figure (as
    every other within the blast radius, each rolling for itself) is hit on the cover roll
    against the fifths the burst can see, losing D3 initiative. Astray, it hurts no one."""
    if not grenade_lands(dice, plan):
        return ThrowOutcome(False, False, 0)
    hit = chance_hits(dice, plan)
    return ThrowOutcome(True, hit, roll_initiative_lost(dice, plan, int(hit)))
