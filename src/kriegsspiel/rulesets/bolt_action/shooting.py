"""Shooting: from a weapon, a target and a situation to the dice that decide it.

``plan_shot`` turns the sheet's tables into a :class:`Shot` (what each die needs, with
the reasons a player would give), and the procedures below roll it at troops (at a
vehicle: ``vehicle_damage.py``). The procedures are the only coding of these rules: the
odds calculator enumerates them exactly, the simulator samples them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from operator import attrgetter
from typing import Any, Literal, NamedTuple

from kriegsspiel.core.dice import DiceExpr
from kriegsspiel.core.procedure import Dice, chance_all
from kriegsspiel.core.report import Reason
from kriegsspiel.errors import ParameterError, UnknownNameError, named, not_a_distance
from kriegsspiel.rulesets.bolt_action.data import HeRow, Weapon
from kriegsspiel.rulesets.bolt_action.edition import Rules, Target
from kriegsspiel.rulesets.bolt_action.morale import new_test
from kriegsspiel.rulesets.bolt_action.shot_rolls import ShotDice, roll_expr, roll_to_hit
from kriegsspiel.rulesets.bolt_action.vehicle_damage import (
    PenPart,
    PenParts,
    VehicleProfile,
    can_reach_damage,
)

#: A unit of this many models or fewer at the start of the game is small (docs/rules).
SMALL_UNIT_MODELS = 2

Cover = Literal["none", "soft", "hard"]
Facing = Literal["front", "side", "top", "rear"]
ONE = DiceExpr("1")


@dataclass(frozen=True, slots=True)
class Situation:
    """Everything about the firer, the target and the table that changes a shot."""

    range_inches: float
    firer_pins: int = 0
    one_crew: bool = False  # a team weapon with one crew left (its own -1, counted like a pin)
    firer_inexperienced: bool = False
    moving: bool = False
    mounted: bool = False  # the firer is a vehicle: its Fixed weapons may fire on the move
    target_down: bool = False
    small_unit: bool = False
    cover: Cover = "none"
    facing: Facing = "front"
    indirect: bool = False
    ranged_in: bool = False
    open_topped: bool = False
    automaton: bool = False
    target_pins: int = 0
    target_quality: str = "regular"
    target_models: int | None = None
    target_immobilised: bool = False  # a vehicle already immobilised: a second knocks it out
    # a friendly officer in range of a target vehicle (his rank): its crew's tests take his
    # bonus (the game plans its shots without him and adds him as it resolves them)
    target_officer: str | None = None


def down_to_a_shot(down: bool, *, vehicle: bool) -> bool:
    """Does a target count as Down to a shot? Only infantry and artillery go Down (the
    sheets' "target is Down" hit modifier); a vehicle's Down die (its crew stunned) gives a
    shooter nothing. The one place this is decided: :func:`target_situation` (the game's
    and the play aid's shots) and :func:`plan_shot` (every shot, the Python API's too) ask
    it; the odds and the aid refuse a Down vehicle asked for by name."""
    return down and not vehicle


def target_situation(
    range_inches: float,
    *,
    vehicle: bool,
    down: bool,
    start_models: int,
    models: int,
    pins: int,
    quality: str,
    open_topped: bool = False,
    automaton: bool = False,
    immobilised: bool = False,
    **firer: Any,
) -> Situation:
    """A shot's situation with the target's part read from what the target is: Down
    (troops only), a small unit (troops of two models or fewer at the start), open-topped,
    an automaton, its pins, quality and models, immobilised (vehicles only); the firer's
    part (pins, moving, cover ...) as given. The game's shots and the play aid's odds
    both set a target up here."""
    return Situation(
        range_inches=range_inches,
        target_down=down_to_a_shot(down, vehicle=vehicle),
        small_unit=not vehicle and start_models <= SMALL_UNIT_MODELS,
        open_topped=open_topped,
        automaton=automaton,
        target_pins=pins,
        target_quality=quality,
        target_models=models,
        target_immobilised=vehicle and immobilised,
        **firer,
    )


@dataclass(frozen=True, slots=True)
class Shot:
    """One shot of one weapon at one target: what every die needs."""

    weapon: str
    hit_on: tuple[int, ...] | None  # d6 scores needed in turn (7+ is (6, 4)); None: cannot hit
    hits_per_hit: DiceExpr = ONE
    halve_hits: bool = False
    damage_need: int = 7  # infantry: d6 >= this per hit
    pen: int | None = None  # vehicles: added to the d6; None: cannot damage
    special_pins: DiceExpr | None = None  # HE / flamethrower / shockwave pins
    pins_target: bool = True
    morale_check: bool = False  # flamethrower: target tests morale after the pins
    auto_effect: str | None = None  # shockwave on a vehicle
    vehicle: VehicleProfile | None = None
    indirect: bool = False  # fired indirectly: a hit ranges the firer in on the target
    # what made ``hit_on`` (for the record and its account; no die reads them, so a shot
    # is the same shot without them): the to-hit modifiers by their data keys
    # (hit_modifiers rows, "shaped_charge"), each with its value, or the rule that fixes
    # the score instead ("shockwave", "indirect_first_shot", "indirect_ranged_in")
    hit_modifiers: tuple[tuple[str, int], ...] = field(default=(), compare=False)
    hit_fixed: str = field(default="", compare=False)
    # what made ``pen`` (for the record: no die reads them either), each part by its name
    # as the reasoning tells it (:class:`PenPart`) with its value: they add up to ``pen``
    pen_parts: PenParts = field(default=(), compare=False)
    # the hash the dataclass would give, worked out once: shots (and the groups holding
    # them) key the odds' caches and are hashed very often, a vehicle's profile and all
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(_SHOT_COMPARED(self)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Shot], tuple[object, ...]]:
        # copied or unpickled, a shot works its hash out again (strings hash per process)
        return Shot, _SHOT_FIELDS(self)


# a shot's fields, in order: what it is built from; and those its hash is of (as the
# dataclass's: the ones it compares)
_SHOT_FIELDS = attrgetter(*(f for f in Shot.__dataclass_fields__ if f != "_hash"))
_SHOT_COMPARED = attrgetter(
    *(n for n, f in Shot.__dataclass_fields__.items() if n != "_hash" and f.compare)
)


@dataclass(frozen=True, slots=True)
class Group:
    """Several identical shots: models x shots per weapon."""

    shot: Shot
    shots: int


# --------------------------------------------------------------------------- planning
@lru_cache(maxsize=256)
def infantry_target(rules: Rules, quality: str) -> Target:
    """``rules.target(f"{quality} infantry")``, looked up once per edition and quality."""
    return rules.target(f"{quality} infantry")


def infantry_quality(rules: Rules, target: Target) -> str:
    """The quality whose infantry ``target`` is: the quality table's whose
    :func:`infantry_target` is this row (whatever name it was asked by)."""
    qualities = [row.quality for row in rules.data.quality.rows]
    for quality in qualities:
        try:
            if infantry_target(rules, quality) == target:
                return quality
        except UnknownNameError:  # (a quality with no infantry row: not this one)
            continue
    raise ParameterError(
        f"The target {target.name!r} is no quality's infantry: the rules' damage values "
        f'give no "<quality> infantry" this row for any of {", ".join(qualities)}; give '
        "a target named so (regular infantry, say)."
    )


def facing_modifier(rules: Rules, target: Target, facing: str) -> int:
    """The pen modifier for hitting ``target`` in its ``facing`` (side, rear, top): the
    sheets give it against armoured vehicles only, and (the data's ``walkers`` flag) not
    against a walker, which has no weaker side."""
    if target.kind == "soft-skinned" or facing == "front":
        return 0
    row = next(r for r in rules.data.penetration_modifiers.rows if r.key == facing)
    return 0 if target.walker and not row.walkers else row.value


def facing_parts(
    rules: Rules, target: Target, facing: str, *, struck_by: str = "", asked: str = "front"
) -> list[PenPart | str]:
    """What the armour a shot strikes (``facing``) does to its pen at an armoured target:
    its modifier (a :class:`PenPart`), or, in words for the reasoning, that a walker has
    none; ``struck_by``
    names what strikes the top whatever the facing (indirect fire, a flamethrower), and
    ``asked`` is the facing the player gave. (A soft-skin has no facing modifier: the
    reasoning says so with the range, in :func:`plan_shot`.)"""
    if facing == "front" or target.kind == "soft-skinned":
        return []
    how = ""
    if struck_by:
        instead = f", not the {asked}" if asked not in ("front", facing) else ""
        how = f" ({struck_by} strikes it{instead})"
    bonus = facing_modifier(rules, target, facing)
    row = f"penetration_modifiers.rows[{facing}]"
    if bonus or not target.walker:
        return [PenPart(f"{facing} armour", bonus, how, rules.data.cited(row))]
    return [
        f"{facing} armour{how}: no {rules.pen_modifier(facing):+d} against a walker "
        f"({rules.data.cite('sheet', row)}: 'not walkers')"
    ]


def keeps_pen_at_long_range(weapon: Weapon, he: bool) -> str:
    """Why ``weapon`` loses no pen at long range ("shaped charge", "Tesla", "a
    flamethrower", "HE": its pen is the HE table's), or "" if it does."""
    special = set(weapon.special)
    for rule, said in (
        ("Shaped Charge", "shaped charge"),
        ("Tesla", "Tesla"),
        ("Flamethrower", "flamethrower"),
    ):
        if rule in special:
            return said
    return "HE" if he and weapon.pen is None else ""


def shots_per_model(weapon: Weapon) -> int:
    """How many shots a model fires with ``weapon``: its Shots, but one for a flamethrower
    or a Shockwave (a template, whatever it hits)."""
    if "Flamethrower" in weapon.special or "Shockwave" in weapon.special:
        return 1
    return int(weapon.shots)


def hit_needs(rules: Rules, score: int) -> tuple[int, ...] | None:
    """The scores a to-hit roll of ``score`` needs on each die (a 7+ is a 6, then 4+;
    docs/rules "Needing 7+"); None when it cannot hit."""
    proc = rules.data.procedure
    score = max(score, proc.natural_miss + 1)
    if score <= 6:
        return (score,)
    follow = proc.needs_seven_plus_follow_up
    return (6, follow[score]) if score in follow else None


def hit_score(rules: Rules, hit_on: tuple[int, ...] | None) -> int | None:
    """The to-hit score whose dice :func:`hit_needs` gives as ``hit_on`` (None, or no
    roll: None): one die's own score, or the 7+ the rules' table gives a 6 then this
    follow-up (the lowest, where it gives the same to more than one: they hit alike)."""
    if not hit_on or len(hit_on) == 1:
        return hit_on[0] if hit_on else None
    follow = rules.data.procedure.needs_seven_plus_follow_up
    return min((s for s, f in follow.items() if f == hit_on[1]), default=None)


def describe_score(rules: Rules, score: int | None) -> str:
    """A to-hit score in a player's words: "4+", a 7+ with its dice as :func:`hit_needs`
    reads the rules' table ("7+ (a 6, then 4+)"), or "cannot hit" (None, or past it)."""
    hit_on = None if score is None else hit_needs(rules, score)
    if hit_on is None or score is None:
        return "cannot hit"
    if len(hit_on) == 1:
        return f"{hit_on[0]}+"
    return f"{score}+ (a 6, then {hit_on[1]}+)"


def describe_needs(rules: Rules, hit_on: tuple[int, ...] | None) -> str:
    """The dice a shot needs (:attr:`Shot.hit_on`) told by their score: one die's as it
    is (a fixed score's too), a 6 and another die's as :func:`describe_score` tells it
    (:func:`hit_score`)."""
    if hit_on is not None and len(hit_on) == 1:
        return f"{hit_on[0]}+"
    if hit_on == ():
        return "a sure hit (no roll)"
    return describe_score(rules, hit_score(rules, hit_on))


class HitModifier(NamedTuple):
    """One modifier of a to-hit roll: its words, its value (added to the roll: +1 helps),
    the data it is read from (its rows and fields, as :meth:`cite` takes them) and its key
    (a hit_modifiers row's, or "shaped_charge")."""

    label: str
    value: int
    rows: tuple[str, ...]
    key: str


def hit_modifier(rules: Rules, label: str, key: str, times: int = 1, *fields: str) -> HitModifier:
    """The hit_modifiers row ``key`` taken ``times`` (a pin's, once a pin), in ``label``'s
    words; ``fields``: other data the modifier is read from (a range's inches)."""
    row = f"hit_modifiers.rows[{key}]"
    return HitModifier(label, rules.hit_modifier(key) * times, (row, *fields), key)


def firer_modifiers(
    rules: Rules, *, pins: int, inexperienced: bool, one_crew: bool = False
) -> list[HitModifier]:
    """The firer's own to-hit modifiers: its pins (told by their count: "2 pins"), a team
    weapon's lone crew, and Inexperienced (each told by its row's ``short``)."""
    mods = []
    if pins:
        mods.append(hit_modifier(rules, f"{pins} pin{'s' if pins > 1 else ''}", "per_pin", pins))
    if one_crew:
        mods.append(hit_modifier(rules, rules.hit_short("one_crew"), "one_crew"))
    if inexperienced:
        mods.append(hit_modifier(rules, rules.hit_short("inexperienced"), "inexperienced"))
    return mods


def to_hit_score(rules: Rules, mods: list[HitModifier]) -> int:
    """The score a to-hit roll needs: the base less the modifiers (a 7 or more is met as
    :func:`hit_needs` says)."""
    return rules.data.hit_modifiers.base_to_hit - sum(m.value for m in mods)


def to_hit_because(rules: Rules, mods: list[HitModifier]) -> str:
    """What made a to-hit score, in the reasoning's words: the base, each modifier (cited
    where a rules file changed it), and the natural miss or the 7+ where they decide it."""
    d, proc = rules.data, rules.data.procedure
    total = to_hit_score(rules, mods)
    because = ", ".join(
        [f"base {d.hit_modifiers.base_to_hit}+{d.cited('hit_modifiers.base_to_hit')}"]
        + [f"{m.label} {m.value:+d}{d.cited(*m.rows)}" for m in mods]
    )
    if total <= proc.natural_miss:  # (the modifiers bring it below the natural miss)
        because += f"; {natural_miss(proc.natural_miss)}{d.cited('procedure.natural_miss')}"
    elif hit_needs(rules, total) != (total,):  # (a 7+, or past hitting)
        because += d.cited("procedure.natural_miss", "procedure.needs_seven_plus_follow_up")
    return because


def natural_miss(miss: int) -> str:
    """Why a to-hit score is no better than ``miss`` + 1, the procedure's natural miss."""
    if miss == 0:
        return "1+ at best (no roll always misses)"
    return f"{'a 1' if miss == 1 else f'a roll of {miss} or less'} always misses"


def hit_chance(hit_on: tuple[int, ...] | None) -> Fraction:
    """The chance that a shot needing ``hit_on`` (see :func:`hit_needs`) hits."""
    chance = Fraction(0 if hit_on is None else 1)
    for need in hit_on or ():
        chance *= Fraction(max(0, 7 - need), 6)
    return chance


#: what makes or fixes a to-hit score but is no row of the hit modifiers table (a shaped
#: charge's modifier; the rules that fix a score), by the key a record keeps it by, in
#: the words the reasons and a game's account tell it
SCORE_RULES = {
    "shaped_charge": "shaped charge",
    "shockwave": "Shockwave: a fixed score",
    "indirect_first_shot": "indirect fire, first shot at this target",
    "indirect_ranged_in": "indirect fire, ranged in",
}


class HitWords(Mapping[str, str]):
    """What made or fixed a to-hit score, by the key a record keeps it by, in the words
    the reasons and a game's account tell it: the hit modifiers table's rows (each its
    ``short``), in the table's order (the sheets'), then :data:`SCORE_RULES`; and
    :meth:`needs`, the dice a shot needed told by their score, by these rules."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        rows: dict[str, str] = {r.key: r.short for r in rules.data.hit_modifiers.rows}
        self._words = {**rows, **SCORE_RULES}

    def __getitem__(self, key: str) -> str:
        return self._words[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def __len__(self) -> int:
        return len(self._words)

    def needs(self, hit_on: tuple[int, ...] | None) -> str:
        """:func:`describe_needs` by these rules ("7+ (a 6, then 4+)")."""
        return describe_needs(self.rules, hit_on)

    def can_damage(self, damage_value: int, pen: int) -> bool:
        """:func:`can_reach_damage` by these rules: could a pen roll of D6 + ``pen`` (a 6)
        damage a vehicle of ``damage_value``? (A game's account says when it could not.)"""
        vehicle = Target("vehicle", "armoured", False, damage_value)
        situation = Situation(range_inches=0.0)
        return can_reach_damage(
            vehicle_profile(self.rules, vehicle, situation, indirect=False), pen
        )


def hit_words(rules: Rules) -> HitWords:
    """The rules' :class:`HitWords`."""
    return HitWords(rules)


def in_sheet_order(keys: Iterable[str], words: Mapping[str, str]) -> list[str]:
    """To-hit modifiers (by the keys a record keeps them by) in the order of ``words``
    (:func:`hit_words`: the hit modifiers table's rows as the data lists them, the sheets'
    order, then :data:`SCORE_RULES`); a key not there last, by name. The one order the
    odds' reasoning and a game's account tell them in."""
    told = list(words)
    return sorted(keys, key=lambda k: (told.index(k) if k in told else len(told), k))


def sorted_modifiers(rules: Rules, mods: list[HitModifier]) -> list[HitModifier]:
    """``mods`` in the order :func:`in_sheet_order` puts their keys in."""
    if len(mods) < 2:
        return mods
    order = in_sheet_order({m.key for m in mods}, hit_words(rules))
    return sorted(mods, key=lambda m: order.index(m.key))


class CannotFire(ParameterError):
    """This weapon cannot fire in this situation (out of range, or Fixed on the move); in a
    unit with other weapons it simply does not fire. ``why``: the message without its
    advice to the asker (a reason in the odds' words: "... is out of range")."""

    def __init__(self, message: str, why: str | None = None) -> None:
        super().__init__(message)
        self.why = str(self) if why is None else why


def can_fire_indirectly(weapon: Weapon) -> bool:
    """Mortars (Indirect Fire) always do; howitzers and rifle grenades may."""
    return weapon.indirect_min_range is not None or "Indirect Fire" in weapon.special


def fires_on_spotting(weapon: Weapon) -> bool:
    """Whether a team's ``weapon`` may fire at a target that any man of its team sees (its
    spotter's eyes, the crew's), not only at what the man carrying it sees: a team weapon
    that always fires indirectly, a mortar (``Team`` and ``Indirect Fire``; an assumption,
    the published rule: "Spotters" in docs/rules)."""
    return "Team" in weapon.special and "Indirect Fire" in weapon.special


def least_range(weapon: Weapon, *, indirect: bool = False) -> int:
    """The closest a weapon fires at: its minimum range, and fired indirectly (a
    howitzer's lob) no closer than its indirect minimum either."""
    if indirect:
        return max(weapon.min_range, weapon.indirect_min_range or 0)
    return weapon.min_range


def in_range(weapon: Weapon, range_inches: float, *, indirect: bool = False) -> bool:
    """Whether a weapon can fire at a target ``range_inches`` away (fired indirectly, if
    ``indirect``): no farther than its range, no closer than :func:`least_range`."""
    return least_range(weapon, indirect=indirect) <= range_inches <= weapon.range


def check_range(rules: Rules, weapon: Weapon, situation: Situation) -> None:
    """Refuse a range the weapon cannot fire at (:func:`in_range`), saying what would be
    right."""
    r = situation.range_inches
    if not math.isfinite(r) or r < 0:
        raise not_a_distance("situation.range_inches", r)
    if r > weapon.range:
        shown = f"{r:g}" if r == round(r, 4) else str(r)
        why = f'{weapon.name} reaches {weapon.range}"; a target at {shown}" is out of range'
        advice = f"give {named('situation.range_inches', weapon.range)} or less"
        raise CannotFire(f"{why} ({advice}).", why)
    if situation.indirect and not can_fire_indirectly(weapon):
        raise CannotFire(
            f"{weapon.name} cannot fire indirectly (only mortars, rifle grenades and howitzers can)."
        )
    if not in_range(weapon, r, indirect=situation.indirect):
        minimum = least_range(weapon, indirect=situation.indirect)
        raise CannotFire(
            f'{weapon.name} cannot fire at targets closer than {minimum}" (the target is at {r:g}").'
        )


def vehicle_profile(
    rules: Rules, target: Target, situation: Situation, *, indirect: bool
) -> VehicleProfile:
    d = rules.data
    crew = new_test(rules, situation.target_quality, pins=situation.target_pins)
    bonus = (
        d.damage_results.open_topped_indirect_bonus if (situation.open_topped and indirect) else 0
    )
    profile = VehicleProfile(
        soft_skinned=target.kind == "soft-skinned",
        damage_value=target.damage_value,
        thresholds=(
            d.damage_thresholds.superficial,
            d.damage_thresholds.full,
            d.damage_thresholds.massive,
        ),
        superficial=DiceExpr(d.damage_results.superficial),
        full=DiceExpr(d.damage_results.full),
        massive_results=d.damage_results.massive_results,
        result_bonus=bonus,
        results=tuple((r.low, r.high, r.effect, r.pins) for r in d.damage_results.rows),
        crew_morale=crew,
        automaton_ignores_stunned_on=(
            d.damage_results.automaton_ignores_stunned_on if situation.automaton else None
        ),
        immobilised=situation.target_immobilised,
    )
    return crew_with_officer(rules, profile, situation.target_officer)


def crew_with_officer(rules: Rules, vehicle: VehicleProfile, officer: str | None) -> VehicleProfile:
    """The vehicle with its crew's tests (On fire, a flamethrower's check) taking the bonus
    of ``officer``, the best officer of its side in range, as its order tests do: the one
    place this rule is applied, for the game and the odds alike."""
    if officer is None:
        return vehicle
    crew = replace(vehicle.crew_morale, officer_bonus=rules.officer_bonus(officer))
    return replace(vehicle, crew_morale=crew)


def fires_on_the_move(weapon: Weapon, *, mounted: bool) -> bool:
    """Whether ``weapon`` may fire on an Advance: a Fixed weapon is a team's, which must
    set up to fire; the same weapon mounted on a vehicle fires on the move (at -1)."""
    return mounted or "Fixed" not in weapon.special


# The orders whose die lets a unit shoot in its turn (sheet 002, ORDERS: Fire "fire at full
# effect without moving", Advance "move and then fire", Ambush "wait for opportunity
# fire"); a Run is "double speed no firing", a Rally and a Down "no move/fire". The game
# takes a shot's target only with these (an Ambush's when it springs), the play aid asks a
# shot's odds only of a firer whose die shows one (or that has no die yet).
FIRING_ORDERS = frozenset({"Fire", "Advance", "Ambush"})


def range_bands(rules: Rules, weapon: Weapon, range_inches: float) -> tuple[bool, bool]:
    """(point blank, long range): all :func:`plan_shot` reads of a range that
    :func:`check_range` allows."""
    proc = rules.data.procedure
    return (
        range_inches <= proc.point_blank_inches,
        range_inches > weapon.range * proc.long_range_fraction,
    )


class Firing(NamedTuple):
    """How ``weapon`` fires at this target, as :func:`plan_shot`'s steps read it: its
    special rules, whether it is a flamethrower, whether it fires indirectly, and the range
    bands (point blank, long range)."""

    special: frozenset[str]
    flame: bool
    indirect: bool
    point_blank: bool
    long_range: bool

    @property
    def far(self) -> bool:
        """At long range as the rules read it: point blank wins when a short-ranged weapon
        is in both bands (the to-hit says "not long range"; assumption), so the pen roll
        takes no long-range modifier there either."""
        return self.long_range and not self.point_blank


def plan_shot(
    rules: Rules, weapon: Weapon, target: Target, s: Situation
) -> tuple[Shot, list[Reason]]:
    """Work out what one shot needs, with the reasons, as a player reads the playsheet:
    whether and how the weapon fires, the to-hit roll, what a hit does (a flamethrower's
    hits and pins), then the damage at troops or at a vehicle."""
    f = firing(rules, weapon, s)
    hit_on, fixed, mods, to_hit_reason = plan_to_hit(rules, weapon, target, s, f)
    reasons = [to_hit_reason]
    shot = Shot(
        weapon=weapon.name,
        hit_on=hit_on,
        indirect=f.indirect,
        hit_modifiers=tuple((m.key, m.value) for m in mods),
        hit_fixed=fixed,
    )
    if f.flame:
        shot = flamethrower_hits(rules, weapon, shot, reasons)
    d = rules.data
    he = rules.he_row(weapon.he) if d.he.rows and weapon.he else None
    if not target.is_vehicle:
        return damage_to_troops(rules, weapon, target, s, shot, he, reasons), reasons
    return damage_to_vehicle(rules, weapon, target, s, f, shot, he, reasons), reasons


def firing(rules: Rules, weapon: Weapon, s: Situation) -> Firing:
    """Whether ``weapon`` may fire at all (its range; a Fixed weapon not on the move),
    refused with :class:`CannotFire`, and how it fires: :class:`Firing`."""
    special = frozenset(weapon.special)
    check_range(rules, weapon, s)
    point_blank, long_range = range_bands(rules, weapon, s.range_inches)
    if s.moving and not fires_on_the_move(weapon, mounted=s.mounted):
        why = f"{weapon.name} is a Fixed weapon and cannot fire on the move"
        raise CannotFire(
            f"{why} (drop {named('situation.moving', True)}, or add "
            f"{named('situation.mounted', True)} if a vehicle fires it).",
            why,
        )
    indirect = "Indirect Fire" in special or (s.indirect and weapon.indirect_min_range is not None)
    return Firing(special, "Flamethrower" in special, indirect, point_blank, long_range)


def plan_to_hit(
    rules: Rules, weapon: Weapon, target: Target, s: Situation, f: Firing
) -> tuple[tuple[int, ...] | None, str, list[HitModifier], Reason]:
    """The to-hit roll: (the scores its dice need, the rule that fixes the score or "",
    the hit modifiers that make it instead, its reason). A Shockwave and indirect fire
    have a fixed score; any other shot takes the modifiers of :func:`to_hit_modifiers`."""
    d, proc = rules.data, rules.data.procedure
    if "Shockwave" in f.special and d.shockwave is not None:
        said = "Shockwave: fixed score, no modifiers" + d.cited("shockwave.to_hit")
        reason = Reason("to hit", f"{d.shockwave.to_hit}+", said)
        return (d.shockwave.to_hit,), "shockwave", [], reason
    if f.indirect:
        need = proc.indirect_ranged_in if s.ranged_in else proc.indirect_first_shot
        fixed = "indirect_ranged_in" if s.ranged_in else "indirect_first_shot"
        why = SCORE_RULES[fixed] + d.cited(f"procedure.{fixed}")
        return (need,), fixed, [], Reason("to hit", f"{need}+", f"{why}; no other modifiers")
    # what a flamethrower's to-hit roll ignores (the data: cover, a Down target)
    ignored: set[str] = set(d.flamethrower.ignores) if f.flame else set()
    mods = to_hit_modifiers(rules, weapon, target, s, f, ignored)
    score = to_hit_score(rules, mods)
    hit_on = hit_needs(rules, score)
    because = to_hit_because(rules, mods)
    skipped = []
    if s.cover != "none" and f"{s.cover}_cover" in ignored:
        skipped.append("cover")
    if down_to_a_shot(s.target_down, vehicle=target.is_vehicle) and "target_down" in ignored:
        skipped.append("Down")
    if skipped:
        because += f"; flamethrower ignores {' and '.join(skipped)}"
        because += d.cited("flamethrower.ignores")
    if s.moving and "Assault" in f.special:  # (said, as the sheet's -1 is not taken)
        because += "; fire on the move: no effect (Assault weapon)"
    return hit_on, "", mods, Reason("to hit", describe_score(rules, score), because)


def to_hit_modifiers(
    rules: Rules, weapon: Weapon, target: Target, s: Situation, f: Firing, ignored: set[str]
) -> list[HitModifier]:
    """The hit modifiers a shot with no fixed score takes, in the sheet's order: its range
    band, the firer's pins and state, moving, a Down or small target, cover (less what a
    flamethrower ignores, ``ignored``), a shaped charge."""
    proc = rules.data.procedure
    mods: list[HitModifier] = []

    def modifier(key: str, times: int = 1, *fields: str, told: str = "") -> None:
        """A hit modifier row's, told by its ``short`` (or ``told``: with more said)."""
        mods.append(hit_modifier(rules, told or rules.hit_short(key), key, times, *fields))

    if f.point_blank:  # and not long range too, as a pistol within 6" would be (assumption)
        also_long = f"; not {rules.hit_short('long_range')}" if f.long_range else ""
        told = f'{rules.hit_short("point_blank")} (within {proc.point_blank_inches:g}"'
        modifier("point_blank", 1, "procedure.point_blank_inches", told=f"{told}{also_long})")
    elif f.long_range:
        told = (
            f'{rules.hit_short("long_range")} (over {weapon.range * proc.long_range_fraction:g}")'
        )
        modifier("long_range", 1, "procedure.long_range_fraction", told=told)
    mods += firer_modifiers(
        rules, pins=s.firer_pins, one_crew=s.one_crew, inexperienced=s.firer_inexperienced
    )
    if s.moving and "Assault" not in f.special:
        modifier("moving")
    if down_to_a_shot(s.target_down, vehicle=target.is_vehicle) and "target_down" not in ignored:
        modifier("target_down")
    if s.small_unit:
        modifier("small_unit")
    if s.cover != "none" and f"{s.cover}_cover" not in ignored:
        modifier(f"{s.cover}_cover")
    if "Shaped Charge" in f.special and proc.shaped_charge_to_hit:
        shaped = ("procedure.shaped_charge_to_hit",)
        said = SCORE_RULES["shaped_charge"]
        mods.append(HitModifier(said, proc.shaped_charge_to_hit, shaped, "shaped_charge"))
    return sorted_modifiers(rules, mods)


def flamethrower_hits(rules: Rules, weapon: Weapon, shot: Shot, reasons: list[Reason]) -> Shot:
    """A flamethrower's hit, at troops or a vehicle: one roll to hit, then the weapon's
    multiplier of hits, the flamethrower's pins and its morale check (reasons added)."""
    d = rules.data
    shot = replace(
        shot,
        hits_per_hit=DiceExpr(weapon.shots),
        special_pins=DiceExpr(d.flamethrower.pins),
        morale_check=d.flamethrower.morale_check,
    )
    reasons.append(
        Reason(
            "hits",
            f"{weapon.shots} per hit",
            "flamethrower: one roll to hit, then the multiplier"
            + d.cited(f"weapons.rows[{weapon.name}].shots"),
        )
    )
    reasons.append(
        Reason(
            "pins",
            d.flamethrower.pins,
            "flamethrower; then the target takes a morale check"
            + d.cited("flamethrower.pins", "flamethrower.morale_check"),
        )
    )
    return shot


def damage_to_troops(
    rules: Rules,
    weapon: Weapon,
    target: Target,
    s: Situation,
    shot: Shot,
    he: HeRow | None,
    reasons: list[Reason],
) -> Shot:
    """What a hit does to infantry or artillery: the target's damage value, and the hits
    and pins of a Shockwave, a Tesla's arc or an HE shell (reasons added)."""
    d, proc = rules.data, rules.data.procedure
    special = weapon.special
    shot = replace(shot, damage_need=target.damage_value)
    value = d.cited(f"damage_values.rows[{target.name}]")
    reasons.append(
        Reason("to damage", f"{target.damage_value}+", f"{target.name} damage value{value}")
    )
    if "Shockwave" in special and d.shockwave is not None:
        shot = replace(
            shot,
            hits_per_hit=DiceExpr(d.shockwave.hits_vs_infantry),
            special_pins=DiceExpr(d.shockwave.pins),
        )
        said = "Shockwave" + d.cited("shockwave")
        reasons.append(Reason("hits", d.shockwave.hits_vs_infantry, said))
        reasons.append(Reason("pins", d.shockwave.pins, said))
    elif "Tesla" in special and d.tesla is not None:
        extra = DiceExpr(d.tesla.extra_hits_vs_infantry)
        shot = replace(shot, hits_per_hit=extra.plus(1))
        said = "Tesla arcs to nearby models" + d.cited("tesla")
        reasons.append(Reason("hits", f"1 + {extra.text}", said))
    elif he:
        shot = replace(
            shot,
            hits_per_hit=DiceExpr(he.he),
            special_pins=DiceExpr(he.pins),
            halve_hits=s.target_down and proc.down_halves_he_hits,
        )
        reasons.append(
            Reason(
                "hits",
                f"{he.he} per hit",
                f"HE ({he.he}); {he.pins} pin(s){d.cited(f'he.rows[{he.he}]')}"
                + ("; halved as the target is Down" if shot.halve_hits else "")
                + (d.cited("procedure.down_halves_he_hits") if shot.halve_hits else ""),
            )
        )
    return shot


def damage_to_vehicle(
    rules: Rules,
    weapon: Weapon,
    target: Target,
    s: Situation,
    f: Firing,
    shot: Shot,
    he: HeRow | None,
    reasons: list[Reason],
) -> Shot:
    """What a hit does to a vehicle (reasons added): a Shockwave's result; else the pen
    roll (:func:`weapon_pen` and :func:`pen_modifiers`) against the damage value, the
    damage it can do, and whether a hit that cannot damage it pins it."""
    d = rules.data
    vehicle = vehicle_profile(rules, target, s, indirect=f.indirect)
    shot = replace(shot, vehicle=vehicle)
    if "Shockwave" in f.special and d.shockwave is not None:
        said = "Shockwave on a vehicle: no damage roll" + d.cited("shockwave")
        reasons.append(Reason("effect", d.shockwave.vehicle_result, said))
        return replace(
            shot, auto_effect=d.shockwave.vehicle_result, special_pins=DiceExpr(d.shockwave.pins)
        )
    from_weapon = weapon_pen(rules, weapon, target, he)
    if from_weapon is None:  # small arms at armour
        reasons += small_arms_at_armour(s)
        return replace(shot, pins_target=s.open_topped)
    if he and weapon.pen_vs_armour is None and weapon.pen is None:  # (its pen is the shell's)
        # an HE shell pins a vehicle as it pins troops, by the HE table (sheets 000, 001,
        # 002: "more pins on the target"), in place of the one pin of being hit
        shot = replace(shot, special_pins=DiceExpr(he.pins))
    if he and weapon.pen is None and target.kind == "soft-skinned":
        shot = replace(shot, hits_per_hit=DiceExpr(he.he))
        reasons.append(
            Reason(
                "hits",
                f"{he.he} per hit",
                f"HE ({he.he}) at a soft-skin, each hit its own damage roll (sheet: only "
                "an armoured vehicle is 'not rolled for multiple hits')",
            )
        )
    told = [from_weapon, *pen_modifiers(rules, weapon, target, s, f, bool(he))]
    parts = tuple((p.name, p.value) for p in told if isinstance(p, PenPart))
    pen = sum(value for _, value in parts)
    shot = replace(shot, pen=pen, pen_parts=parts)
    reasons.append(
        Reason(
            "to damage",
            f"D6 {pen:+d} against {target.damage_value}+",
            ", ".join(p if isinstance(p, str) else p.said() for p in told),
        )
    )
    reasons += damage_reasons(rules, target, vehicle)
    if not f.flame and not s.open_topped and not can_reach_damage(vehicle, pen):
        # (a flamethrower's pins and test are its own rule, whatever its pen)
        reasons.append(
            Reason(
                "pins",
                "none",
                f"even a 6 {pen:+d} falls short of {target.damage_value}: "
                "a hit that cannot damage a closed vehicle does not pin it",
            )
        )
        return replace(shot, pins_target=False)
    if he and shot.special_pins is not None and not f.flame and he.pins != "1":
        said = f"HE ({he.he}): the HE table's, not one{d.cited(f'he.rows[{he.he}]')}"
        reasons.append(Reason("pins", he.pins, said))
    return shot


def weapon_pen(rules: Rules, weapon: Weapon, target: Target, he: HeRow | None) -> PenPart | None:
    """The pen a hit of ``weapon`` adds to its D6 before the facing and range, named by
    where it comes from: its pen against vehicles, its pen, its HE shell's, or small arms'
    0 at a soft-skin; None for small arms at an armoured target, which they cannot damage."""
    d = rules.data
    weapon_row = f"weapons.rows[{weapon.name}]"  # (its pen field: the file's only if changed)
    if weapon.pen_vs_armour is not None:
        after = f" against vehicles{d.cited(f'{weapon_row}.pen_vs_armour')}"
        return PenPart(f"{weapon.name} pen", weapon.pen_vs_armour, after=after)
    if weapon.pen is not None:
        return PenPart("pen", weapon.pen, after=d.cited(f"{weapon_row}.pen"))
    if he:
        return PenPart(f"HE ({he.he}) pen", he.pen, after=d.cited(f"he.rows[{he.he}]"))
    if target.kind == "soft-skinned":
        return PenPart("small arms", 0, numbered=False)
    return None


def small_arms_at_armour(s: Situation) -> list[Reason]:
    """The reasons of small arms at an armoured vehicle: no damage, and a pin only if it
    is open-topped."""
    return [
        Reason("to damage", "impossible", "small arms cannot damage armoured targets"),
        Reason(
            "pins",
            "1 if hit",
            "open-topped: small arms pin it (one pin for the attack), though they cannot damage it",
        )
        if s.open_topped
        else Reason("pins", "none", "small arms pin an armoured vehicle only if it is open-topped"),
    ]


def pen_modifiers(
    rules: Rules, weapon: Weapon, target: Target, s: Situation, f: Firing, he: bool
) -> list[PenPart | str]:
    """What the facing struck, long range and a Gravity Pulse add to a hit's pen roll on a
    vehicle, each a :class:`PenPart`, in the reasoning's order with what it says of those
    that add nothing ("long range: no effect on pen (HE)"; ``he``: the weapon fires an HE
    shell)."""
    d = rules.data
    parts: list[PenPart | str] = []
    # the sheets give the facing and long-range modifiers to heavy weapons against
    # armoured targets only: a soft-skin is damaged on 6+ from any side, at any range
    armoured = target.kind != "soft-skinned"
    # indirect fire, and a flamethrower (the data says where), strike the top armour
    facing = d.flamethrower.vehicle_facing if f.flame else ("top" if f.indirect else s.facing)
    struck_by = "a flamethrower" if f.flame else ("indirect fire" if f.indirect else "")
    parts += facing_parts(rules, target, facing, struck_by=struck_by, asked=s.facing)
    keeps = keeps_pen_at_long_range(weapon, he)
    far = f.far
    if not armoured:
        unused = [s.facing] * (s.facing != "front") + [rules.hit_short("long_range")] * far
        if unused:
            parts.append(f"{' and '.join(unused)}: no effect on a soft-skin")
    elif keeps or f.indirect:
        if far:
            parts.append(
                f"{rules.hit_short('long_range')}: no effect on pen ({keeps or 'indirect fire'})"
            )
    elif far:
        cited = d.cited("penetration_modifiers.rows[long_range]")
        parts.append(
            PenPart(rules.hit_short("long_range"), rules.pen_modifier("long_range"), after=cited)
        )
    if "Gravity Pulse" in f.special and d.gravity_pulse is not None:
        bonus = max(
            (
                b
                for dv, b in d.gravity_pulse.pen_bonus_by_damage_value.items()
                if dv <= target.damage_value
            ),
            default=0,
        )
        if bonus:
            against = f" against damage value {target.damage_value}{d.cited('gravity_pulse')}"
            parts.append(PenPart("gravity pulse", bonus, after=against))
    return parts


def damage_reasons(rules: Rules, target: Target, vehicle: VehicleProfile) -> list[Reason]:
    """The reasons of the damage a pen roll on ``vehicle`` can do: a soft-skin destroyed;
    armour's superficial / full / massive totals and the results rolls for each; an
    open-topped vehicle's bonus on the results table against indirect fire."""
    d = rules.data
    reasons: list[Reason] = []
    if vehicle.soft_skinned:
        reasons.append(
            Reason(
                "damage",
                "destroyed",
                "a damaged soft-skin is destroyed, superficial, full or massive alike "
                "(no damage results roll)",
            )
        )
    else:
        lo, full, massive = vehicle.thresholds
        reasons.append(
            Reason(
                "damage",
                "superficial / full / massive",
                f"total {target.damage_value + lo} superficial, {target.damage_value + full}+ full, "
                f"{target.damage_value + massive}+ massive"
                + d.cited("damage_thresholds", f"damage_values.rows[{target.name}]")
                + f"; the damage results roll {vehicle.superficial}"
                + d.cited("damage_results.superficial")
                + f" for superficial, {vehicle.full}"
                + d.cited("damage_results.full")
                + f" for full, {vehicle.massive_results} x {vehicle.full}"
                + d.cited("damage_results.massive_results", "damage_results.full")
                + " for massive",
            )
        )
    if vehicle.result_bonus:
        reasons.append(
            Reason(
                "damage results",
                f"{vehicle.result_bonus:+d}",
                "open-topped hit by indirect fire"
                + d.cited("damage_results.open_topped_indirect_bonus"),
            )
        )
    return reasons


# --------------------------------------------------------------------------- procedures
def shot_at_troops(dice: Dice, shot: Shot) -> tuple[int, int]:
    """One shot at infantry or artillery: (hits, casualties)."""
    _, hits, casualties = struck_troops(dice, shot)
    return hits, casualties


def struck_troops(dice: Dice, shot: Shot, kept: ShotDice | None = None) -> tuple[bool, int, int]:
    """:func:`shot_at_troops` (the same dice) and whether its to-hit roll hit, before
    any multiplier (HE, a flamethrower, a Tesla's arc) or halving made its hits. Its
    to-hit and damage dice are added to ``kept``, if given (the game's record): the same
    dice, each as it fell."""
    if not roll_to_hit(dice, shot.hit_on, None if kept is None else kept.to_hit):
        return False, 0, 0
    hits = roll_expr(dice, shot.hits_per_hit)
    if kept is None:
        hits = hits // 2 if shot.halve_hits else hits
        return True, hits, dice.count_at_least(hits, 6, shot.damage_need)
    kept.per_hit.append(hits)
    hits = hits // 2 if shot.halve_hits else hits
    faces = dice.faces(hits, 6)
    kept.to_damage.extend(faces)
    return True, hits, sum(face >= shot.damage_need for face in faces)


def casualty_chance(damage_need: int) -> Fraction:
    """The chance that a hit on troops needing ``damage_need`` on its D6 (a shot's
    ``damage_need``, the target's damage value) is a casualty, as :func:`struck_troops`
    rolls it."""
    return chance_all(6, (damage_need,))


def multiplied(shot: Shot) -> bool:
    """Whether a hit of ``shot`` at troops is not simply one hit (HE, a flamethrower, a
    Tesla's arc: a roll of hits; or halved, HE at a Down target)."""
    per_hit = shot.hits_per_hit
    return shot.halve_hits or per_hit.count > 0 or per_hit.constant != 1
