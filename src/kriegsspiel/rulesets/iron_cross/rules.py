"""Iron Cross rules as procedures over a :class:`Dice` (sheet 003).

Each rule is written once here. The odds calculator enumerates these same functions
exactly (``exact``), the tests sample them with ``RandomDice`` to check the odds (there is
no whole-game simulator for Iron Cross yet), and worked examples replay them with
``ScriptedDice``. Numbers come from the data file, never from code.

Situations (what is on the table) are validated once by the ``plan_*`` functions, which
raise :class:`UsageError` with a one-line explanation; the dice procedures trust a plan.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from kriegsspiel.core.names import lookup, normalise
from kriegsspiel.core.procedure import Dice
from kriegsspiel.errors import ParameterError, UsageError, named, not_a_distance
from kriegsspiel.rulesets.iron_cross.data import (
    CoverLevel,
    Distance,
    IronCrossData,
    TerrainRow,
    TerrainTest,
    load_data,
)

Target = Literal["infantry", "support squad", "vehicle"]
# a vehicle target also goes by the names of the data's vehicle rows ("medium tank")
TARGETS: tuple[tuple[tuple[str, ...], Target], ...] = (
    (("infantry", "infantry detachment", "infantry detachments"), "infantry"),
    (("support squad", "support squads", "support"), "support squad"),
    (("vehicle", "vehicles", "tank", "tanks"), "vehicle"),
)
MOVES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("normal", "normal move"), "normal"),
    (("rapid", "rapid move"), "rapid"),
    (("rapid road", "rapid road move", "road"), "rapid_road"),
)
TERRAINS: tuple[tuple[tuple[str, ...], Literal["rough", "very_rough"]], ...] = (
    (("rough",), "rough"),
    (("very rough",), "very_rough"),
)


def _data(data: IronCrossData | None) -> IronCrossData:
    return load_data() if data is None else data


# The most firing dice the exact odds take: a limit of the tool, not a rule (measured: at
# infantry 200 dice 1 s, 1,000 dice a minute; at a vehicle, whose hits are each followed
# through the penetration table, 100 dice 2.3 s, 150 6 s, 200 12-18 s).
MAX_DICE = 200
MAX_DICE_AT_VEHICLE = 150


def _count(name: str, value: int) -> None:
    """Refuse a count that is not a whole number 0 or more, naming its parameter (the
    command line tells it as its option)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ParameterError(f"{named(name)} must be a whole number 0 or more, not {value!r}")


# -- command ---------------------------------------------------------------------------
def command_tokens(units: int, command_units: int = 1, data: IronCrossData | None = None) -> int:
    """Tokens collected at the start of a turn: one per unit plus two per command unit.

    ``units`` counts every unit on the table, command units included.
    """
    table = _data(data).command_tokens
    _count("units", units)
    _count("command_units", command_units)
    if command_units > units:
        raise ParameterError(
            f"{named('command_units', command_units)} cannot exceed "
            f"{named('units', units)}: a command unit is one of the units."
        )
    return units * table.per_unit + command_units * table.per_command_unit


def roll_off(dice: Dice, data: IronCrossData | None = None) -> int:
    """Who takes the initiative: 0 (first side) or 1 (second side); a tie is rolled again
    where the data says so (``initiative_roll_off.reroll_ties``), else goes to the first."""
    table = _data(data)
    while True:
        first, second = dice.roll(table.initiative.die), dice.roll(table.initiative.die)
        if first != second or not table.initiative_roll_off.reroll_ties:
            return 0 if first >= second else 1


def activation_needs(
    morale_markers: int,
    command_tokens: int,
    first_activation: bool = False,
    data: IronCrossData | None = None,
) -> int | None:
    """The D6 score a further activation needs (higher than markers + tokens); None: no roll.

    The tokens counted are those spent on the unit this turn, so a further activation
    finds at least the one its first activation left (the sheet's example counts it)."""
    table = _data(data).activation
    _count("morale_markers", morale_markers)
    _count("command_tokens", command_tokens)
    first = named("first_activation", True)
    if first_activation and command_tokens:
        raise ParameterError(
            f"{first} with {named('command_tokens', command_tokens)}: the tokens counted are "
            "those spent on the unit this turn, so its first activation finds none on it; "
            f"drop {named('command_tokens')} for a first activation, or {first} for a "
            "further one"
        )
    if first_activation and not table.first_activation_needs_roll:
        return None
    if not first_activation and command_tokens < 1:
        raise ParameterError(
            f"{named('command_tokens', command_tokens)}: a further activation finds at least "
            "the command token its first activation left on the unit (the sheet's example "
            f"counts it); give {named('command_tokens', 1)} or more, or {first} for the "
            "unit's first activation"
        )
    return morale_markers + command_tokens + 1


def activate(
    dice: Dice,
    morale_markers: int,
    command_tokens: int,
    first_activation: bool = False,
    data: IronCrossData | None = None,
) -> bool:
    """Try to activate a unit; True if it may act."""
    table = _data(data).activation
    needs = activation_needs(morale_markers, command_tokens, first_activation, data)
    if needs is None:
        return True
    if needs > table.die:
        return False  # cannot succeed: no point rolling
    return dice.roll(table.die) >= needs


@dataclass(frozen=True, slots=True, order=True)
class ReactionOutcome:
    """Did the reacting unit act, and did its roll seize the initiative?"""

    success: bool
    seizes_initiative: bool


def reaction_needs(
    morale_markers: int, command_tokens: int, data: IronCrossData | None = None
) -> int:
    """The D6 score a reaction needs: 3+, +1 per command token or morale marker on the unit
    (the token spent on this reaction too, if the data's ``reaction_counts`` says so)."""
    tables = _data(data)
    table = tables.reaction
    _count("morale_markers", morale_markers)
    _count("command_tokens", command_tokens)
    spent = 1 if tables.reaction_counts.count_token_being_spent else 0
    return table.needs + table.per_token_or_marker * (morale_markers + command_tokens + spent)


def react(
    dice: Dice, morale_markers: int, command_tokens: int, data: IronCrossData | None = None
) -> ReactionOutcome:
    """Spend a token and roll to react; a successful 6 also seizes the initiative.

    The counts are those on the unit before this reaction's token is placed.
    """
    tables = _data(data)
    needs = reaction_needs(morale_markers, command_tokens, tables)
    if needs > tables.reaction.die:
        return ReactionOutcome(False, False)
    roll = dice.roll(tables.reaction.die)
    success = roll >= needs
    return ReactionOutcome(success, success and roll == tables.seize_initiative.on_roll)


# -- movement --------------------------------------------------------------------------
def move_rate(unit_type: str, move: str = "normal", data: IronCrossData | None = None) -> Distance:
    """How far a unit type moves (inches and cm) with a normal, rapid or rapid road move."""
    table = _data(data).movement
    row = lookup("unit type", unit_type, [((r.type, *r.aliases), r) for r in table.rates])
    kind = lookup("move", move, MOVES)
    distance: Distance = getattr(row, kind)
    return distance


def may_fire_after(move: str, data: IronCrossData | None = None) -> bool:
    """A normal move still allows firing; a rapid move does not."""
    kind = lookup("move", move, MOVES)
    return kind in _data(data).movement.may_fire_after


def find_terrain_test(
    unit: str, terrain: str, data: IronCrossData | None = None
) -> tuple[TerrainRow, TerrainTest]:
    """The sheet's row for ``unit`` and its test for entering ``terrain``."""
    table = _data(data).terrain_tests
    rows = (*table.vehicles, *table.infantry)
    row = lookup("unit", unit, [((r.unit, *r.aliases), r) for r in rows])
    kind = lookup("terrain", terrain, TERRAINS)
    return row, row.test(kind)


def cross_terrain(dice: Dice, test: TerrainTest, data: IronCrossData | None = None) -> bool:
    """Take a terrain test: 'no test' passes, Impassable cannot be entered, else roll D6."""
    if test.impassable:
        return False
    if test.needs is None:
        return True
    return dice.roll(_data(data).terrain_tests.die) >= test.needs


# -- smoke -----------------------------------------------------------------------------
def lay_smoke(dice: Dice, data: IronCrossData | None = None) -> bool:
    """Try to lay smoke: 5+ on a D10."""
    table = _data(data).smoke
    return dice.roll(table.die) >= table.needs


# -- firing ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FireSituation:
    """What is on the table when a unit fires (names as a player would say them)."""

    target: str
    range_inches: float
    firer_moved: bool = False
    firer_is_infantry_detachment: bool = False
    target_moved: bool = False
    smoke: bool = False
    morale_markers: int = 0
    enemy_infantry_near_vehicle: bool = False
    firer_is_vehicle: bool = False
    screened: bool = False  # friendly infantry as near the firing vehicle (the sheet's footnote)
    cover: str = "open"
    mortar: bool = False
    machine_gun: bool = False
    dice: int | None = None  # None: as the rules give; a number: an orders-of-battle rule's
    penetration: int | None = None
    armour: int | None = None


@dataclass(frozen=True, slots=True)
class AppliedModifier:
    """A to-hit modifier that applies, as the sheet words it, and where the data gives it:
    its rows of the firing modifiers ("firing_modifiers.smoke")."""

    text: str
    value: int
    rows: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class VehicleEffect:
    """What one penetrating hit does, by penetration-table row."""

    row: int
    key: str
    name: str
    extra_markers: int
    destroyed: bool
    immobilised: bool
    kaboom: bool


@dataclass(frozen=True, slots=True)
class FirePlan:
    """A validated firing situation with every number the dice will be compared against."""

    target: Target
    dice: int
    dice_because: str
    dice_from: tuple[str, ...]  # where the data gives the dice ("to_hit.dice_per_unit"); () given
    die: int
    base_needs: int
    modifiers: tuple[AppliedModifier, ...]
    needs: int  # after modifiers and the natural 1 / natural 10 rule
    markers_per_hit: int
    casualty_die: int | None  # None: no casualty roll (vehicles)
    further_markers: int
    further_marker_on: int | None
    cover: str | None  # the cover level the casualty roll uses
    cover_because: str
    capable: bool | None  # the weapon can exceed the armour at all; None: not a vehicle
    penetrates_on: int | None  # the penetration throw's score needed; 1: no throw needed
    throw_die: int  # the penetration throw's die
    penetration_die: int  # the penetration table's die
    effects_by_score: tuple[VehicleEffect, ...]  # index = die score - 1
    stop_when_destroyed: bool

    @property
    def modifier_total(self) -> int:
        return sum(m.value for m in self.modifiers)


@dataclass(frozen=True, slots=True, order=True)
class VehicleState:
    """A vehicle's state while its hits are resolved one at a time."""

    markers: int = 0
    worst_result: int = 0  # penetration-table row of the worst result so far; 0: none
    destroyed: bool = False
    immobilised: bool = False
    kaboom: bool = False


@dataclass(frozen=True, slots=True, order=True)
class FireOutcome:
    """What one unit's fire did to its target."""

    hits: int
    morale_markers: int
    worst_result: int = 0  # vehicles: penetration-table row (1 Rattled .. 5 Kaboom!), 0 none
    destroyed: bool = False
    immobilised: bool = False
    kaboom: bool = False  # each friendly unit near the wreck suffers a morale marker


def firing_dice(
    tables: IronCrossData, target: Target, range_inches: float, machine_gun: bool
) -> tuple[int, str]:
    """How many D10s a unit fires, and why: one; against infantry, two at close range, and
    a machine gun two at any range (the published rule, docs/rules/iron-cross.md)."""
    field, because = _dice_rule(tables, target, range_inches, machine_gun)
    dice: int = getattr(tables.to_hit, field)
    return dice, because


def _dice_rule(
    tables: IronCrossData, target: Target, range_inches: float, machine_gun: bool
) -> tuple[str, str]:
    """The to_hit field that gives a unit's firing dice (:func:`firing_dice`), and why."""
    close = tables.firing_modifiers.close_range.inches
    if target in tables.casualty_roll.targets:
        if machine_gun:
            return "machine_gun_dice_at_infantry", "a machine gun against infantry"
        if range_inches <= close:
            return "dice_at_infantry_close", f'against infantry within {close:g}"'
    return "dice_per_unit", "one per firing unit"


def _rows(*names: str) -> tuple[str, ...]:
    """The firing modifiers' rows ``names``, as paths into the data."""
    return tuple(f"firing_modifiers.{name}" for name in names)


def plan_fire(situation: FireSituation, data: IronCrossData | None = None) -> FirePlan:
    """Check a firing situation and work out what the dice need; UsageError if impossible."""
    tables = _data(data)
    s = situation
    target, cover_level = _check_situation(s, tables)
    dice, dice_because, dice_from = _dice_fired(s, tables, target)
    target_is_near = _check_firer(s, tables, target)
    capable, penetrates_on = _vehicle_target(s, tables, target, cover_level)
    applied = _to_hit_modifiers(s, tables, target_is_near)
    base = tables.to_hit.needs
    raw_needs = base - sum(m.value for m in applied)
    natural = tables.natural_rolls
    needs = min(max(raw_needs, natural.always_misses + 1), natural.always_hits)
    casualty_die, further_on, cover_used, because = _casualty_cover(s, tables, target, cover_level)
    pen = tables.armour_penetration
    if target == "vehicle":
        per_hit = pen.markers_per_hit if capable else 0
    else:
        per_hit = tables.morale_markers.per_hit
    return FirePlan(
        target=target,
        dice=dice,
        dice_because=dice_because,
        dice_from=dice_from,
        die=tables.to_hit.die,
        base_needs=base,
        modifiers=tuple(applied),
        needs=needs,
        markers_per_hit=per_hit,
        casualty_die=casualty_die,
        further_markers=tables.morale_markers.further_vs_infantry,
        further_marker_on=further_on,
        cover=cover_used,
        cover_because=because,
        capable=capable,
        penetrates_on=penetrates_on,
        throw_die=tables.penetration_throw.die,
        penetration_die=pen.die,
        effects_by_score=_vehicle_effects(tables),
        stop_when_destroyed=tables.several_hits_on_a_vehicle.stop_when_destroyed,
    )


def _check_situation(s: FireSituation, tables: IronCrossData) -> tuple[Target, CoverLevel]:
    """The target and cover as the data names them, once the range, the firer's morale
    markers and its kind of fire (a mortar's or a machine gun's) are checked."""
    target = lookup(
        "target",
        s.target,
        [
            (names + tables.vehicle_names(), t) if t == "vehicle" else (names, t)
            for names, t in TARGETS
        ],
    )
    cover_level = lookup(
        "cover", s.cover, [((c.cover, *c.aliases), c) for c in tables.cover.levels]
    )
    if (
        isinstance(s.range_inches, bool)
        or not isinstance(s.range_inches, int | float)
        or not math.isfinite(s.range_inches)
        or (s.range_inches < 0)
    ):
        raise not_a_distance("range_inches", s.range_inches)
    _count("morale_markers", s.morale_markers)
    mortar, machine_gun = named("mortar", True), named("machine_gun", True)
    if s.mortar and s.machine_gun:
        raise ParameterError(
            f"{mortar} and {machine_gun} together: the rules give a unit's fire as a mortar's "
            "(it ignores cover) or a machine gun's (2 D10s at infantry), never both; give the "
            "one the firing unit is"
        )
    if s.machine_gun and target not in tables.casualty_roll.targets:
        raise ParameterError(
            f"{machine_gun} changes the dice only against infantry and support squads; "
            f"drop it for a {target} target"
        )
    return target, cover_level


def _dice_fired(
    s: FireSituation, tables: IronCrossData, target: Target
) -> tuple[int, str, tuple[str, ...]]:
    """The firing dice, why, and where the data gives them (the rule's, or an orders-of-battle
    count given), within the most the exact odds are worked out for."""
    machine_gun = named("machine_gun", True)
    dice, dice_because = firing_dice(tables, target, s.range_inches, s.machine_gun)
    field = _dice_rule(tables, target, s.range_inches, s.machine_gun)[0]
    dice_from: tuple[str, ...] = (f"to_hit.{field}", "casualty_roll.targets")
    if field == "dice_at_infantry_close":
        dice_from += ("firing_modifiers.close_range",)
    if s.dice is not None:
        if isinstance(s.dice, bool) or not isinstance(s.dice, int) or s.dice < 1:
            raise ParameterError(f"{named('dice')} must be 1 or more firing dice, not {s.dice!r}")
        if s.machine_gun:
            raise ParameterError(
                f"{named('dice')} gives the firing dice itself (an orders-of-battle rule); "
                f"{machine_gun} would set them too: give one of the two"
            )
        dice, dice_because, dice_from = s.dice, "given: an orders-of-battle special rule", ()
    limit = MAX_DICE_AT_VEHICLE if target == "vehicle" else MAX_DICE
    if dice > limit:
        at = " at a vehicle" if target == "vehicle" else ""
        most = f"exact odds are worked out for at most {limit} firing dice{at}"
        if s.dice is not None:
            raise ParameterError(f"{named('dice')}: {most} (got {dice}); more would take minutes.")
        where = f"the rules file {tables.rules_file}" if tables.rules_file else "the rules data"
        raise UsageError(
            f"{where} gives {dice} firing dice here (to_hit: {field}); {most}, as more "
            "would take minutes: give a smaller number there."
        )
    return dice, dice_because, dice_from


def _check_firer(s: FireSituation, tables: IronCrossData, target: Target) -> bool:
    """Check what the firer is (a vehicle, an infantry detachment, never both) and the
    infantry near a firing vehicle; whether the target itself is infantry near it (within
    the data's enemy_near_vehicle, 12")."""
    if s.firer_is_vehicle and s.firer_is_infantry_detachment:
        raise ParameterError(
            f"the firer cannot be both a vehicle ({named('firer_is_vehicle', True)}) and an "
            f"infantry detachment ({named('firer_is_infantry_detachment', True)})"
        )
    if (s.enemy_infantry_near_vehicle or s.screened) and not s.firer_is_vehicle:
        raise ParameterError(
            f"{named('enemy_infantry_near_vehicle', True)} and {named('screened', True)} "
            f"apply only to a firing vehicle (add {named('firer_is_vehicle', True)})"
        )
    # a vehicle firing at infantry within the data's enemy_near_vehicle (12") has that
    # enemy infantry near it
    near = tables.firing_modifiers.enemy_near_vehicle.inches
    target_is_near = s.range_inches <= near and target in tables.casualty_roll.targets
    if s.screened and not (s.enemy_infantry_near_vehicle or target_is_near):
        raise ParameterError(
            f"{named('screened', True)} drops the -1 for enemy infantry near the firing "
            f"vehicle: give it with {named('enemy_infantry_near_vehicle', True)}, or for a "
            f'target of infantry within {near:g}"'
        )
    return target_is_near


def _vehicle_target(
    s: FireSituation, tables: IronCrossData, target: Target, cover_level: CoverLevel
) -> tuple[bool | None, int | None]:
    """At a vehicle (its penetration and armour given, no cover, no mortar): can the weapon
    exceed the armour at all, and the penetration throw's score needed (1: no throw); at
    anything else, (None, None), and no penetration or armour given."""
    capable: bool | None = None  # None: not a vehicle target
    penetrates_on: int | None = None
    throw_die = tables.penetration_throw.die
    if target == "vehicle":
        if s.penetration is None or s.armour is None:
            raise ParameterError(
                f"a vehicle target needs {named('penetration', shown='N')} and "
                f"{named('armour', shown='N')} (from the orders of battle)"
            )
        _count("penetration", s.penetration)
        _count("armour", s.armour)
        if cover_level.cover != "open":
            raise ParameterError(
                f"{named('cover')} only changes casualty rolls against infantry and support "
                f"squads; leave {named('cover', 'open')} for a vehicle target"
            )
        if s.mortar:
            raise ParameterError(
                f"{named('mortar', True)} only changes casualty rolls against infantry and "
                "support squads; drop it for a vehicle target"
            )
        capable = s.penetration + throw_die > s.armour
        penetrates_on = max(1, s.armour - s.penetration + 1) if capable else None
    elif s.penetration is not None or s.armour is not None:
        raise ParameterError(
            f"{named('penetration')} and {named('armour')} apply only to a vehicle target"
        )
    return capable, penetrates_on


def _to_hit_modifiers(
    s: FireSituation, tables: IronCrossData, target_is_near: bool
) -> list[AppliedModifier]:
    """The firing modifiers that apply, each with its rows in the data: the firer's or the
    target's move, smoke, close range, enemy infantry near a firing vehicle, morale
    markers."""
    mods = tables.firing_modifiers
    applied: list[AppliedModifier] = []
    if s.firer_moved and not s.firer_is_infantry_detachment:
        applied.append(
            AppliedModifier(mods.firer_moved.text, mods.firer_moved.value, _rows("firer_moved"))
        )
    if s.target_moved:
        applied.append(
            AppliedModifier(mods.target_moved.text, mods.target_moved.value, _rows("target_moved"))
        )
    if s.smoke:
        applied.append(AppliedModifier(mods.smoke.text, mods.smoke.value, _rows("smoke")))
    if s.range_inches <= mods.close_range.inches:
        bonus = mods.close_range_bonus
        applied.append(
            AppliedModifier(bonus.text, bonus.value, _rows("close_range_bonus", "close_range"))
        )
    if s.firer_is_vehicle and not s.screened and (s.enemy_infantry_near_vehicle or target_is_near):
        modifier = mods.enemy_infantry_near_vehicle
        text = modifier.text + ("" if s.enemy_infantry_near_vehicle else " (the target)")
        rows = _rows("enemy_infantry_near_vehicle", "enemy_near_vehicle")
        applied.append(AppliedModifier(text, modifier.value, rows))
    if s.morale_markers:
        modifier = mods.per_morale_marker
        applied.append(
            AppliedModifier(
                f"{modifier.text} (x{s.morale_markers})",
                modifier.value * s.morale_markers,
                _rows("per_morale_marker"),
            )
        )
    return applied


def _casualty_cover(
    s: FireSituation, tables: IronCrossData, target: Target, cover_level: CoverLevel
) -> tuple[int | None, int | None, str | None, str]:
    """Against infantry and support squads, the casualty roll's die, the score that adds a
    further marker, the cover it uses (smoke's if better; as a mortar treats it) and why;
    at a vehicle, no casualty roll: (None, None, None, "")."""
    if target not in tables.casualty_roll.targets:
        return None, None, None, ""
    cover_used = cover_level.cover
    reasons = [f"target in {cover_used}" if cover_used != "open" else "target in the open"]
    smoke_cover = tables.smoke.gives_target_cover
    if s.smoke and tables.cover.rank(smoke_cover) > tables.cover.rank(cover_used):
        cover_used = smoke_cover
        reasons.append(f"smoke gives {smoke_cover}")
    if s.mortar:
        treated = tables.cover.mortar_treats_as[cover_used]
        if treated != cover_used:
            reasons.append(f"mortar fire treats {cover_used} as {treated}")
        else:
            reasons.append("mortar fire ignores cover")
        cover_used = treated
    further_on = tables.cover.level(cover_used).further_marker_on
    return tables.casualty_roll.die, further_on, cover_used, ", ".join(reasons)


def _vehicle_effects(tables: IronCrossData) -> tuple[VehicleEffect, ...]:
    """What a penetrating hit does on each score of the penetration table's die (a damaged
    vehicle's Screech! markers and immobilisation added)."""
    pen = tables.armour_penetration
    effects = []
    for score in range(1, pen.die + 1):
        row = pen.row_of(score)
        result = pen.results[row - 1]
        extra = result.extra_markers
        immobilised = False
        if result.vehicle_damaged:
            extra += tables.screech.extra_markers
            immobilised = tables.screech.immobilised
        effects.append(
            VehicleEffect(
                row, result.key, result.name, extra, result.destroyed, immobilised, result.kaboom
            )
        )
    return tuple(effects)


def roll_to_hit(dice: Dice, plan: FirePlan) -> int:
    """Roll the firing D10s; how many hit (a natural 1 misses, a natural 10 hits)."""
    return dice.count_at_least(plan.dice, plan.die, plan.needs)


def casualty_markers(dice: Dice, plan: FirePlan, hits: int) -> int:
    """Further morale markers from the casualty rolls (one per hit) against infantry."""
    if plan.casualty_die is None or plan.further_marker_on is None or hits == 0:
        return 0
    successes = dice.count_at_least(hits, plan.casualty_die, plan.further_marker_on)
    return plan.further_markers * successes


def penetrates(dice: Dice, plan: FirePlan) -> bool:
    """The penetration throw: a D10 plus the weapon's penetration must exceed the armour.

    No die is thrown when even its lowest score would do."""
    if plan.penetrates_on is None:
        return False
    return plan.penetrates_on <= 1 or dice.roll(plan.throw_die) >= plan.penetrates_on


def vehicle_hit(dice: Dice, plan: FirePlan, state: VehicleState) -> VehicleState:
    """Resolve one hit by a weapon capable of exceeding the armour: a morale marker, then
    the penetration throw, and if it penetrates a D6 on the penetration table."""
    if state.destroyed and plan.stop_when_destroyed:
        return state
    markers = state.markers + plan.markers_per_hit
    if not penetrates(dice, plan):
        return VehicleState(
            markers, state.worst_result, state.destroyed, state.immobilised, state.kaboom
        )
    effect = plan.effects_by_score[dice.roll(plan.penetration_die) - 1]
    return VehicleState(
        markers=markers + effect.extra_markers,
        worst_result=max(state.worst_result, effect.row),
        destroyed=state.destroyed or effect.destroyed,
        immobilised=state.immobilised or effect.immobilised,
        kaboom=state.kaboom or effect.kaboom,
    )


def resolve_vehicle_hits(dice: Dice, plan: FirePlan, hits: int) -> VehicleState:
    """All hits on a vehicle; none count unless the weapon is capable of exceeding the armour."""
    state = VehicleState()
    if plan.capable:
        for _ in range(hits):
            state = vehicle_hit(dice, plan, state)
    return state


def outcome_from(hits: int, state: VehicleState) -> FireOutcome:
    """The fire outcome for a vehicle target after its hits are resolved."""
    return FireOutcome(
        hits, state.markers, state.worst_result, state.destroyed, state.immobilised, state.kaboom
    )


def resolve_fire(dice: Dice, plan: FirePlan) -> FireOutcome:
    """Roll to hit, then morale markers (and casualty rolls, or armour penetration)."""
    hits = roll_to_hit(dice, plan)
    if plan.target == "vehicle":
        return outcome_from(hits, resolve_vehicle_hits(dice, plan, hits))
    return FireOutcome(hits, hits * plan.markers_per_hit + casualty_markers(dice, plan, hits))


def fire(dice: Dice, situation: FireSituation, data: IronCrossData | None = None) -> FireOutcome:
    """One unit fires at one target."""
    return resolve_fire(dice, plan_fire(situation, data))


# -- close combat ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CloseCombatSituation:
    """An infantry detachment or support squad moves into contact with enemy infantry."""

    attacker: str = "infantry"
    defender: str = "infantry"
    attacker_markers: int = 0  # morale markers on the assaulting unit
    defender_markers: int = 0
    defender_cover: str = "open"
    defender_moved: bool = False  # the defender moved at any point this turn


@dataclass(frozen=True, slots=True)
class CloseCombatPlan:
    """Both units' fire at point blank, each a validated :class:`FirePlan`."""

    attack: FirePlan  # the assaulter's fire at the defender
    defence: FirePlan  # the defender's fire at the assaulter


@dataclass(frozen=True, slots=True, order=True)
class CloseCombatOutcome:
    """The morale markers each side took; the one that inflicted more wins."""

    attacker_markers: int  # taken by the assaulter, from the defender's fire
    defender_markers: int  # taken by the defender, from the assaulter's fire

    @property
    def attacker_wins(self) -> bool:
        return self.defender_markers > self.attacker_markers

    @property
    def defender_wins(self) -> bool:
        return self.attacker_markers > self.defender_markers

    @property
    def draw(self) -> bool:
        """Equal markers: the defender holds its ground."""
        return self.attacker_markers == self.defender_markers


def _fighter(role: str, name: str, tables: IronCrossData) -> Target:
    """The unit type of one side of a close combat: infantry or a support squad (a vehicle
    is refused by name: close combat is infantry's)."""
    fighters = [(names, t) for names, t in TARGETS if t in tables.casualty_roll.targets]
    vehicles = {normalise(n) for names, t in TARGETS if t == "vehicle" for n in names}
    if isinstance(name, str) and normalise(name) in vehicles | {
        normalise(n) for n in tables.vehicle_names()
    }:
        raise ParameterError(
            f"{named(role, name)}: close combat odds are for infantry and support squads; a "
            f"vehicle's fire, or fire at one, is {named('kriegsspiel.rulesets.iron_cross.odds.shoot')}"
        )
    return lookup(role, name, fighters)


def plan_close_combat(
    situation: CloseCombatSituation, data: IronCrossData | None = None
) -> CloseCombatPlan:
    """Check a close combat and plan both units' fire at point blank; UsageError if wrong.

    The assaulter moved into contact: its own fire takes the firer-moved modifier (not an
    infantry detachment's) and the defender's fire the target-moved one; it stands in the
    data's ``attacker_cover`` (the open)."""
    tables = _data(data)
    s = situation
    attacker = _fighter("attacker", s.attacker, tables)
    defender = _fighter("defender", s.defender, tables)
    _count("attacker_markers", s.attacker_markers)
    _count("defender_markers", s.defender_markers)
    table = tables.close_combat
    attack = plan_fire(
        FireSituation(
            target=defender,
            range_inches=table.range_inches,
            firer_moved=True,
            firer_is_infantry_detachment=attacker == "infantry",
            target_moved=s.defender_moved,
            morale_markers=s.attacker_markers,
            cover=s.defender_cover,
        ),
        tables,
    )
    defence = plan_fire(
        FireSituation(
            target=attacker,
            range_inches=table.range_inches,
            target_moved=True,
            morale_markers=s.defender_markers,
            cover=table.attacker_cover,
        ),
        tables,
    )
    return CloseCombatPlan(attack, defence)


def resolve_close_combat(dice: Dice, plan: CloseCombatPlan) -> CloseCombatOutcome:
    """Both units fire at once: the assaulter's dice are rolled first, then the defender's
    (the defender's fire is not weakened by the markers the assaulter's fire gives it)."""
    attack = resolve_fire(dice, plan.attack)
    defence = resolve_fire(dice, plan.defence)
    return CloseCombatOutcome(defence.morale_markers, attack.morale_markers)


def close_combat(
    dice: Dice, situation: CloseCombatSituation, data: IronCrossData | None = None
) -> CloseCombatOutcome:
    """One unit assaults another: both fire at point blank; more markers inflicted wins."""
    return resolve_close_combat(dice, plan_close_combat(situation, data))
