"""Vehicle damage: what a hit does to a vehicle, and the rolls of a shot at one. A
vehicle's profile (damage value, damage thresholds and results table, its crew's morale)
and its state (what an attack has done to it so far); the pen roll against the damage value,
superficial / full / massive damage and each roll on the damage results table (crew stunned,
immobilised, on fire, knocked out) with the crew's checks they bring; the stages of a shot
at a vehicle (to hit and its hits, the attack's pin, each hit's damage, a flamethrower's
test); and the :class:`Tally` the game writes an attack down in. It is apart from
shooting's planner (``shooting.py``: from a weapon, a target and a situation to a ``Shot``)
because it rolls a shot already planned, and close quarters (``assault.py``) and the exact
odds use the same tables: the odds enumerate these functions as the game samples them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from kriegsspiel.core.dice import DiceExpr
from kriegsspiel.core.procedure import Dice
from kriegsspiel.rulesets.bolt_action.morale import MoraleTest, morale_check, rolled_morale_check
from kriegsspiel.rulesets.bolt_action.shot_rolls import ShotDice, roll_expr, roll_to_hit

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.shot import Shot

Level = Literal["none", "superficial", "full", "massive"]


@dataclass(frozen=True, slots=True)
class VehicleProfile:
    """How hits on a vehicle are resolved (damage values, results table, crew morale)."""

    soft_skinned: bool
    damage_value: int
    thresholds: tuple[int, int, int]  # superficial, full, massive margins
    superficial: DiceExpr
    full: DiceExpr
    massive_results: int
    result_bonus: int
    results: tuple[tuple[int | None, int | None, str, int], ...]
    crew_morale: MoraleTest
    automaton_ignores_stunned_on: int | None
    immobilised: bool = False  # before this attack: a further Immobilised knocks it out

    def untouched(self) -> VehicleState:
        """The vehicle as an attack finds it: only an earlier immobilisation carries over
        (pins are in its crew's morale test)."""
        return VehicleState(immobilised=self.immobilised)


@dataclass(frozen=True, slots=True, order=True)
class VehicleState:
    """What an attack has done to a vehicle so far."""

    knocked_out: bool = False
    immobilised: bool = False
    damage_pins: int = 0
    attack_pins: int = 0
    crew_stunned: bool = False
    on_fire: bool = False
    fire_knocked_out: bool = False
    # knocked out by its crew failing a flamethrower's morale check (not by damage)
    check_knocked_out: bool = False
    worst: int = 0  # 0 none, 1 superficial, 2 full, 3 massive
    # an indirect shot of the attack hit it (pinning it or not): its firer is ranged in
    indirect_hit: bool = False

    @property
    def pins(self) -> int:
        return self.damage_pins + self.attack_pins


def _with(
    state: VehicleState,
    *,
    knocked_out: bool | None = None,
    immobilised: bool | None = None,
    damage_pins: int | None = None,
    attack_pins: int | None = None,
    crew_stunned: bool | None = None,
    on_fire: bool | None = None,
    fire_knocked_out: bool | None = None,
    check_knocked_out: bool | None = None,
    worst: int | None = None,
    indirect_hit: bool | None = None,
) -> VehicleState:
    """``dataclasses.replace`` of a vehicle's state (None: as it was), without its generic
    checks: the exact odds of shots at vehicles build these states many thousand times.
    A knocked-out vehicle keeps no pins: a wreck takes none (docs/rules "Several weapons")."""
    wrecked = state.knocked_out if knocked_out is None else knocked_out
    return VehicleState(
        knocked_out=wrecked,
        immobilised=state.immobilised if immobilised is None else immobilised,
        damage_pins=0 if wrecked else state.damage_pins if damage_pins is None else damage_pins,
        attack_pins=0 if wrecked else state.attack_pins if attack_pins is None else attack_pins,
        crew_stunned=state.crew_stunned if crew_stunned is None else crew_stunned,
        on_fire=state.on_fire if on_fire is None else on_fire,
        fire_knocked_out=state.fire_knocked_out if fire_knocked_out is None else fire_knocked_out,
        check_knocked_out=(
            state.check_knocked_out if check_knocked_out is None else check_knocked_out
        ),
        worst=state.worst if worst is None else worst,
        indirect_hit=state.indirect_hit if indirect_hit is None else indirect_hit,
    )


LEVELS: tuple[Level, ...] = ("none", "superficial", "full", "massive")


@dataclass(frozen=True, slots=True)
class PenPart:
    """One part of what a hit adds to its pen roll on a vehicle, as the odds' reasoning
    tells it and the record keeps it: its ``name`` ("pen", "HE (D6) pen", "side armour",
    "long range", "gravity pulse") and ``value``; in the reasoning only, ``how`` between
    them (" (indirect fire strikes it)") and ``after`` the value (" against damage value
    10", a changed rules file cited). A part adding nothing that is no number
    (``numbered`` False: "small arms") is told by its name alone."""

    name: str
    value: int
    how: str = ""
    after: str = ""
    numbered: bool = True

    def said(self) -> str:
        """ "side armour +1", "gravity pulse +2 against damage value 10": as the reasoning
        tells it."""
        if not self.numbered:
            return f"{self.name}{self.how}{self.after}"
        return f"{self.name}{self.how} {self.value:+d}{self.after}"


#: a hit's pen by its parts, as a shot keeps them (:attr:`PenPart.name`, its value)
PenParts = tuple[tuple[str, int], ...]


#: a roll on the damage results table: the dice rolled (None: a fixed score), the score
#: read on the table (the damage's modifier and any bonus in) and the result it gave
ResultRoll = tuple[int | None, int, str]


@dataclass(frozen=True, slots=True)
class DamageRoll:
    """One hit's damage roll on a vehicle as the game records it: the D6 and the pen added
    to it against the vehicle's damage value, the damage it made, each roll on the damage
    results table that followed, and (a shot's) what made the pen (:class:`PenPart`)."""

    weapon: str
    roll: int
    pen: int
    damage_value: int
    damage: Level
    results: tuple[ResultRoll, ...] = ()
    pen_parts: PenParts = ()


def damage_roll_json(roll: DamageRoll) -> dict[str, Any]:
    """A hit's damage roll on a vehicle as the record writes it (``pen_parts``, format 9
    on, only for a roll that has them: a shot's, not an assault's)."""
    written: dict[str, Any] = {
        "weapon": roll.weapon,
        "roll": roll.roll,
        "pen": roll.pen,
        "damage_value": roll.damage_value,
        "damage": roll.damage,
        "results": [
            {"roll": die, "score": score, "result": result} for die, score, result in roll.results
        ],
    }
    if roll.pen_parts:
        written["pen_parts"] = [{"name": name, "value": value} for name, value in roll.pen_parts]
    return written


#: the checks an attack's target makes within it: a vehicle's crew when it catches fire,
#: its target after a flamethrower's hit (a vehicle's crew or troops), an automaton's D6
#: to ignore Crew stunned
CheckKind = Literal["on fire check", "flamethrower check", "automaton check"]


@dataclass(frozen=True, slots=True)
class CheckRoll:
    """A check the target of an attack made within it, as the game records it: what it
    needed (a morale check's 2D6 score or under; an automaton's D6 score or over), the
    roll and whether it passed (the automaton: ignores the stun)."""

    kind: CheckKind
    needs: int
    roll: int
    passed: bool


@dataclass(slots=True)
class Tally:
    """What the game writes down of an attack as its procedure rolls it: each weapon
    group's hits, each damage roll on a vehicle and each check its target made. (Mutable:
    the procedure adds to it as it goes. The odds never pass one, so what they enumerate
    is unchanged.)"""

    group_hits: list[int] = field(default_factory=list)
    # at troops: each group's shots that hit, before a multiplier made their hits
    group_struck: list[int] = field(default_factory=list)
    # each group's dice as rolled (to hit; at troops, its rolls of hits and damage dice)
    group_dice: list[ShotDice] = field(default_factory=list)
    damage_rolls: list[DamageRoll] = field(default_factory=list)
    checks: list[CheckRoll] = field(default_factory=list)


def checked(dice: Dice, test: MoraleTest, tally: Tally | None, kind: CheckKind) -> bool:
    """A morale check (:func:`morale_check`'s dice), written down in ``tally`` if given."""
    if tally is None:
        return morale_check(dice, test)
    passed, roll = rolled_morale_check(dice, test)
    tally.checks.append(CheckRoll(kind, test.value, roll, passed))
    return passed


def damage_level(vehicle: VehicleProfile, total: int) -> int:
    """0..3 for none / superficial / full / massive, from the pen roll total."""
    margin = total - vehicle.damage_value
    superficial, full, massive = vehicle.thresholds
    if margin >= massive:
        return 3
    if margin >= full:
        return 2
    return 1 if margin >= superficial else 0


def can_reach_damage(vehicle: VehicleProfile, pen: int) -> bool:
    """Whether a pen roll of D6 + ``pen`` (its facing and range modifiers in ``pen``, as
    :func:`plan_shot` gives them) could reach a damage result on ``vehicle``: a 6 can.
    A hit whose best roll cannot does nothing to the vehicle, not even pin it (unless
    it is open-topped)."""
    return damage_level(vehicle, 6 + pen) > 0


def damage_chance(vehicle: VehicleProfile, pen: int) -> Fraction:
    """The chance that a pen roll of D6 + ``pen`` reaches a damage result on ``vehicle``
    (0 exactly when :func:`can_reach_damage` says it cannot)."""
    return Fraction(sum(damage_level(vehicle, face + pen) > 0 for face in range(1, 7)), 6)


def _effect_of(vehicle: VehicleProfile, roll: int) -> tuple[str, int]:
    for low, high, effect, pins in vehicle.results:
        if (low is None or roll >= low) and (high is None or roll <= high):
            return effect, pins
    raise AssertionError(f"damage results table has no row for {roll}")


def apply_effect(
    dice: Dice,
    vehicle: VehicleProfile,
    state: VehicleState,
    effect: str,
    pins: int,
    tally: Tally | None = None,
) -> VehicleState:
    """Apply one damage result (crew stunned, immobilised, on fire, knocked out); the
    checks it brings (on fire, an automaton's) written down in ``tally``, if given."""
    if state.knocked_out:
        return state
    if effect == "crew stunned":
        ignore = vehicle.automaton_ignores_stunned_on
        if ignore is not None:
            roll = dice.roll(6)
            if tally is not None:
                tally.checks.append(CheckRoll("automaton check", ignore, roll, roll >= ignore))
            if roll >= ignore:
                return state
        return _with(state, crew_stunned=True, damage_pins=state.damage_pins + pins)
    if effect == "immobilised":  # a second immobilisation knocks it out
        if state.immobilised:
            return _with(state, knocked_out=True, damage_pins=state.damage_pins + pins)
        return _with(state, immobilised=True, damage_pins=state.damage_pins + pins)
    if effect == "on fire":
        state = _with(state, on_fire=True, damage_pins=state.damage_pins + pins)
        test = replace(vehicle.crew_morale, pins=vehicle.crew_morale.pins + state.pins)
        if not checked(dice, test, tally, "on fire check"):
            return _with(state, knocked_out=True, fire_knocked_out=True)
        return state
    return _with(state, knocked_out=True)


def hit_vehicle(
    dice: Dice, shot: Shot, state: VehicleState, tally: Tally | None = None
) -> VehicleState:
    """Resolve one hit on a vehicle: the pen roll, then the damage results (written down
    in ``tally``, if given: the same dice, in the same order)."""
    vehicle = shot.vehicle
    assert vehicle is not None
    if state.knocked_out:
        return state
    if shot.auto_effect is not None:
        effect, pins = next((e, p) for _, _, e, p in vehicle.results if e == shot.auto_effect)
        return apply_effect(dice, vehicle, state, effect, pins, tally)
    if shot.pen is None:
        return state
    if tally is None:
        return resolve_damage(dice, vehicle, state, pen_roll(dice, vehicle, shot.pen))
    roll = dice.roll(6)  # (pen_roll's die)
    level = damage_level(vehicle, roll + shot.pen)
    results: list[ResultRoll] = []
    state = resolve_damage(dice, vehicle, state, level, results=results, tally=tally)
    tally.damage_rolls.append(
        DamageRoll(
            shot.weapon,
            roll,
            shot.pen,
            vehicle.damage_value,
            LEVELS[level],
            tuple(results),
            shot.pen_parts,
        )
    )
    return state


def pen_roll(dice: Dice, vehicle: VehicleProfile, pen: int) -> int:
    """A hit's pen roll, D6 + ``pen``, as the damage level (0..3) it reaches on ``vehicle``."""
    return damage_level(vehicle, dice.roll(6) + pen)


def resolve_damage(
    dice: Dice,
    vehicle: VehicleProfile,
    state: VehicleState,
    level: int,
    *,
    destroyed_if_damaged: bool = False,
    results: list[ResultRoll] | None = None,
    tally: Tally | None = None,
) -> VehicleState:
    """Apply a damage level (0 none .. 3 massive): soft-skins die, armour rolls on the table
    (each roll, its score and its result added to ``results``, and the checks the results
    bring to ``tally``, if given)."""
    if level > state.worst:
        state = _with(state, worst=level)
    if level == 0:
        return state
    if vehicle.soft_skinned or destroyed_if_damaged:
        return _with(state, knocked_out=True)
    # the dice rolled on the table (None: a fixed score), each before its modifier
    if level == 3:  # (as roll_expr rolls the full damage's dice, for each result)
        expr = vehicle.full
        rolled = [
            dice.total(expr.count, expr.sides) if expr.count else None
            for _ in range(vehicle.massive_results)
        ]
        scores = [expr.constant if r is None else max(0, r + expr.constant) for r in rolled]
    else:
        expr = vehicle.full if level == 2 else vehicle.superficial
        rolled = [dice.roll(expr.sides) if expr.count else None]
        scores = [expr.constant if r is None else r + expr.constant for r in rolled]
    for die, score in zip(rolled, scores, strict=True):
        effect, pins = _effect_of(vehicle, score + vehicle.result_bonus)
        if results is not None:
            results.append((die, score + vehicle.result_bonus, effect))
        state = apply_effect(dice, vehicle, state, effect, pins, tally)
    return state


def hits_on_vehicle(dice: Dice, shot: Shot, kept: ShotDice | None = None) -> int:
    """Stage 1 of a shot at a vehicle: 0 for a miss, else the hits it makes (its dice added
    to ``kept``, if given: the to-hit dice, and the roll of hits of a hit, as rolled)."""
    if not roll_to_hit(dice, shot.hit_on, None if kept is None else kept.to_hit):
        return 0
    if shot.auto_effect:
        return 1
    hits = roll_expr(dice, shot.hits_per_hit)
    if kept is not None:
        kept.per_hit.append(hits)
    return max(1, hits)


def pin_vehicle(
    dice: Dice, shot: Shot, state: VehicleState, kept: ShotDice | None = None
) -> VehicleState:
    """Stage 2 (of a shot that hit), before its hits' damage: an indirect shot's firer is
    ranged in, and the vehicle takes the attack's pin (one, or the weapon's own: HE, a
    flamethrower, a Shockwave, its roll added to ``kept``, if given), so that the pins a
    damage result adds and the On fire check count it (sheet ``001``: "Add one additional
    pin marker and then make a morale check"; docs/rules "Pins on vehicles")."""
    if shot.indirect and not state.indirect_hit:
        state = _with(state, indirect_hit=True)
    if not shot.pins_target and shot.auto_effect is None:  # (small arms at closed armour;
        return state  # an aircraft, whose pins the air strike chart gives)
    extra = 1
    if shot.special_pins:
        extra = roll_expr(dice, shot.special_pins)
        if kept is not None:
            kept.pins.append(extra)
    return _with(state, attack_pins=max(state.attack_pins, extra))


def after_shot(
    dice: Dice, shot: Shot, state: VehicleState, tally: Tally | None = None
) -> VehicleState:
    """Stage 4 (of a shot that hit), after its hits' damage: a flamethrower's test (written
    down in ``tally``, if given), counting the pins so far."""
    if shot.morale_check and not state.knocked_out and shot.vehicle is not None:
        test = replace(shot.vehicle.crew_morale, pins=shot.vehicle.crew_morale.pins + state.pins)
        if not checked(dice, test, tally, "flamethrower check"):
            state = _with(state, knocked_out=True, check_knocked_out=True)
    return state


def shot_at_vehicle(
    dice: Dice, shot: Shot, state: VehicleState, tally: Tally | None = None
) -> VehicleState:
    """One shot at a vehicle: to hit and how many hits, the attack's pin, each hit's damage,
    then a flamethrower's test (its hits and damage rolls added to ``tally``'s last group,
    if given)."""
    if state.knocked_out:
        return state
    kept = tally.group_dice[-1] if tally is not None and tally.group_dice else None
    hits = hits_on_vehicle(dice, shot, kept)
    if tally is not None and tally.group_hits:
        tally.group_hits[-1] += hits
    if hits == 0:
        return state
    state = pin_vehicle(dice, shot, state, kept)
    for _ in range(hits):
        state = hit_vehicle(dice, shot, state, tally)
    return after_shot(dice, shot, state, tally)
