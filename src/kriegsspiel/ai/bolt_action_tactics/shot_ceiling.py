"""The cheap ceiling on what a shooting is worth, so most shots need no exact odds.

Valuing every shot exactly (:func:`.shot_value.damage`) is the player's dearest work, and
most shots are not the best order. Each shot gets first a ceiling, no less than its exact
worth and far cheaper: at a vehicle the attack's own caps on the chance that any hit
damages it (all a knock-out, an immobilisation or a halt can come from) and on the pins it
adds (whose mean also caps the chance that they make its crew abandon it); at troops what each man could do at his range band behind the least cover the
target could have, remembered per man (his weapons and what the game's pick of his shot
reads) and per shooting (while neither unit has moved). An order whose ceiling cannot beat
the best so far is never valued. Apart from the player because it is a reckoning of its
own, proved against :func:`.shot_value.damage` by the tests, not a choice.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import get_args

from kriegsspiel.ai.bolt_action_tactics.shot_value import (
    HALTED_SHARE,
    IMMOBILISED_SHARE,
    PIN_VALUE,
)
from kriegsspiel.core.dice import DiceExpr
from kriegsspiel.core.memo import BoundedMemo
from kriegsspiel.core.table import Point, Table
from kriegsspiel.rulesets.bolt_action.attack import (
    knock_out_ceiling,
    troops_shot_distribution,
    vehicle_pins_ceiling,
)
from kriegsspiel.rulesets.bolt_action.edition import Rules
from kriegsspiel.rulesets.bolt_action.game.shooting_groups import range_marks
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.threats import harmless_to
from kriegsspiel.rulesets.bolt_action.game.units import Model, UnitState
from kriegsspiel.rulesets.bolt_action.morale import removed_at_pins
from kriegsspiel.rulesets.bolt_action.shot import Cover, Group, Shot
from kriegsspiel.rulesets.bolt_action.to_hit import hit_chance
from kriegsspiel.rulesets.bolt_action.troop_damage import infantry_target

COVERS: tuple[str, ...] = get_args(Cover)  # every cover a shot at troops may meet
ROUNDING = 1e-9  # a cap summed in floats is raised by this share, above any rounding
NEARER = 1e-6  # inches: a man's range found another way may come out this much shorter


# the ceiling takes an immobilisation and a halt together at no more than the vehicle's points
assert IMMOBILISED_SHARE + HALTED_SHARE <= 1


@lru_cache(maxsize=4096)
def _vehicle_caps(groups: tuple[Group, ...]) -> tuple[float, float]:
    """No less than the chance that any hit of the shooting damages the vehicle (or
    brings a set result or a test), and than the mean of the pins it adds (the floats of
    larger fractions are no smaller)."""
    return float(knock_out_ceiling(groups)), float(vehicle_pins_ceiling(groups))


def vehicle_shot_ceiling(
    state: BoltActionGame,
    unit: UnitState,
    target: UnitState,
    moving: bool,
    to: tuple[float, float] | None,
    heading: float | None = None,
) -> float:
    """No less than :func:`.shot_value.damage` answers for shooting at this vehicle: the
    same shooting (the game remembers it for ``damage``), worth no more than

    - its points by the chance that any hit damages it: a knock-out, an immobilisation
      and a halt each need one, and the last two together are worth no more than its
      points (:data:`IMMOBILISED_SHARE` and :data:`HALTED_SHARE`);
    - the pins' cap at :data:`PIN_VALUE` each;
    - its points by the chance its crew abandon it under its pins, no more than the pins'
      mean over the pins it still lacks (as no chance of at least ``n`` pins is above the
      mean over ``n``).

    0 for a unit that could never knock out a closed vehicle (its groups not found)."""
    vehicle = target.vehicle
    if (
        vehicle is not None
        and not vehicle.open_topped  # (small arms pin an open-topped one)
        and harmless_to(state.rules, unit, vehicle.target)
    ):
        return 0.0
    origin = (Point(*to) if to else unit.anchor) if moving else None
    groups = state.shot_groups(unit, target, moving=moving, origin=origin, heading=heading)
    if not groups:
        return 0.0
    damaged, pins = _vehicle_caps(groups)
    cap = damaged * target.points + pins * PIN_VALUE
    most = removed_at_pins(state.rules, target.quality)
    if most is not None:
        cap += min(1.0, pins / max(1, most - target.pins)) * target.points
    return cap * (1 + ROUNDING)


@lru_cache(maxsize=4096)
def _shot_expected(shot: Shot) -> tuple[float, float]:
    """One shot at troops: its expected casualties and its chance to strike them at all,
    pinning them (its to-hit roll: a Down target's halving may leave it no hits; exact,
    then as floats: summed in floats, a cap made of them is raised by ``ROUNDING``)."""
    odds = troops_shot_distribution(shot)
    return float(odds.map(lambda o: o[1]).mean()), float(hit_chance(shot.hit_on))


@dataclass(frozen=True, slots=True)
class _ManReach:
    """What one man could do to troops at each range band or beyond: ``ranges`` holds a
    range in each band (rising), the others at each place the most he could bring at that
    band or any farther one (floats no less than the exact fractions)."""

    ranges: tuple[float, ...]
    casualties: tuple[float, ...]  # the most casualties he could expect
    hits: tuple[float, ...]  # his best chance to hit at all
    pins: int  # the most pins a shot of his could bring of its own (HE, flame): 0 if none


# The most one man can do to a troops unit at each range band (see _squad_reach), by what
# the game's pick of his shot reads: its shooting context and his weapons.
_ONE_MANS_REACH: BoundedMemo[tuple[object, ...], _ManReach] = BoundedMemo("one man's reach", 4096)


# what a ceiling reads of a shooting at troops (see TroopsShotCeilings.shooting)
_TroopsShooting = tuple[float, list[tuple[int, _ManReach]], int, int, float]


def _men_by_weapons(unit: UnitState) -> list[tuple[int, Model]]:
    """The unit's live men by their weapons (and one-shot weapon used): how many, and the
    first of them."""
    men: dict[tuple[tuple[str, ...], bool], list[int]] = {}
    firsts: dict[tuple[tuple[str, ...], bool], Model] = {}
    for model in unit.alive_models:
        kind = (model.weapons, model.used_one_shot)
        if kind in men:
            men[kind][0] += 1
        else:
            men[kind], firsts[kind] = [1], model
    return [(count, firsts[kind]) for kind, (count,) in men.items()]


def _least_cover(table: Table, unit: UnitState) -> int:
    """The least cover (its place in ``COVERS``) a shot at the unit meets from anywhere:
    the cover of the features its worst-placed live model stands in. A model's cover from
    any shooter is at least that of the features it stands in (``Table.cover_between``),
    and a unit's is at least the least of some of its models' (``unit_cover``)."""
    least = None
    for model in unit.alive_models:
        here = max([COVERS.index(f.cover) for f in table.features_at(model.point)], default=0)
        if least is None or here < least:
            least = here
            if not least:
                break
    return least or 0


def _squad_reach(
    state: BoltActionGame,
    unit: UnitState,
    target: UnitState,
    moving: bool,
    men: list[tuple[int, Model]],
    least: int,
) -> list[tuple[int, _ManReach]]:
    """A unit's ``men`` (see :func:`_men_by_weapons`; a vehicle's one model) shooting at troops behind
    cover no less than ``COVERS[least]``, as (how many, what each could do).

    A man's pick of shot reads, besides his range and cover, only what the game's shooting
    context reads (its ``_shooting_groups``), so it is remembered by that, his weapons and
    the least cover.
    """
    context = (
        state.rules,
        unit.vehicle is None,  # (a vehicle fires all it can, and on the move as mounted)
        target.quality,
        len(unit.alive_models) < 2,
        moving,
        unit.pins,
        unit.quality,
        unit.ranged_in_on == target.uid,
        target.is_down,
        target.start_models <= 2,
    )
    squad: list[tuple[int, _ManReach]] = []
    for count, model in men:
        key = (context, model.weapons, model.used_one_shot, least)
        if key in _ONE_MANS_REACH:
            reach = _ONE_MANS_REACH[key]
        else:
            reach = _ONE_MANS_REACH.keep(
                key, _one_mans_reach(state, unit, target, model, moving, least)
            )
        squad.append((count, reach))
    return squad


def _one_mans_reach(
    state: BoltActionGame,
    unit: UnitState,
    target: UnitState,
    model: Model,
    moving: bool,
    least: int = 0,
) -> _ManReach:
    """:class:`_ManReach` of one man: his shots asked of the game at a range in each band
    between the ranges where his shooting changes, behind each cover from ``COVERS[least]``
    up. A man fires the one shot he picks; a vehicle's model every shot of a mount that
    could bear (all of them counted, its arcs aside), so what it could do is their sum.

    A man with one way to shoot (one weapon, not one that may also lob its shot) fires
    it behind any cover, and cover only makes hitting harder: he is asked behind the least.
    """
    rules = state.rules
    marks, _ = range_marks(rules, model.weapons)
    ranges = sorted({0.0, *marks, *((a + b) / 2 for a, b in pairwise(marks)), marks[-1] + 1.0})
    profile = infantry_target(rules, target.quality)
    lone = len(model.weapons) == 1 and rules.weapon(model.weapons[0]).indirect_min_range is None
    covers = COVERS[least : least + 1] if lone and _cover_only_hurts(rules) else COVERS[least:]
    at, nearest = model.point, target.anchor
    casualties: list[float] = []
    hits: list[float] = []
    pins = 0
    for rng in ranges:
        most_casualties = most_hit = 0.0
        for cover in covers:
            picked = state.model_shots(
                unit,
                target,
                model,
                moving,
                at,
                nearest,
                rng,
                cover,
                profile,
                "front",
                every_arc=True,
            )
            expected = hit = 0.0
            for shot, per, _ in picked:  # (the chances summed: no less than any hit's)
                if shot.special_pins is not None:
                    pins = max(pins, _most_rolled(shot.special_pins))
                mean, chance = _shot_expected(shot)
                expected += per * mean
                hit += per * chance
            if expected > most_casualties:
                most_casualties = expected
            if hit > most_hit:
                most_hit = hit
        casualties.append(most_casualties)
        hits.append(most_hit)
    return _ManReach(
        tuple(ranges), _most_from_here_out(casualties), _most_from_here_out(hits), pins
    )


@lru_cache(maxsize=8)
def _cover_only_hurts(rules: Rules) -> bool:
    """Does every cover make a shot at troops harder to hit (never easier)?"""
    return all(rules.hit_modifier(f"{c}_cover") <= 0 for c in COVERS if c != "none")


def _most_rolled(expr: DiceExpr) -> int:
    """The highest a dice expression can roll (as :func:`roll_expr` rolls it: a roll of
    dice is never below 0)."""
    return expr.most if expr.count == 0 else max(0, expr.most)


def _most_from_here_out(values: list[float]) -> tuple[float, ...]:
    """At each place the most of it and all after it, raised by ``ROUNDING`` (the values
    are float sums of a few floats, each within a few parts in 2**53 of the exact one):
    no less than the most of the exact sums."""
    most, found = 0.0, []
    for value in reversed(values):
        if value > most:
            most = value
        found.append(most * (1 + ROUNDING))
    return tuple(reversed(found))


class TroopsShotCeilings:
    """The ceilings on units' shootings at troops, and what they are worked out from,
    remembered by one player: the ceilings and each unit's men for one choice (forgotten
    by :meth:`new_choice`), each shooting and each target's least cover from choice to
    choice while what they read stands."""

    def __init__(self) -> None:
        # during a choice, the ceiling's reading of each shooting (None: at a vehicle)
        self._ceilings: dict[tuple[int, int, bool], _TroopsShooting | None] = {}
        # during a choice, each unit's live men by weapons (see _men_by_weapons)
        self._men: dict[int, list[tuple[int, Model]]] = {}
        # from choice to choice, each shooting at troops as ceiling reads it, with what it
        # was worked out from (see shooting)
        self._shootings: dict[
            tuple[int, int, bool],
            tuple[object, object, Rules, tuple[int, bool, bool], _TroopsShooting],
        ] = {}
        # by target uid, the least cover it has from any shooter, with its places then
        self._least: dict[int, tuple[object, int]] = {}

    def new_choice(self) -> None:
        """Forget the last choice's ceilings and men (the game has changed since)."""
        self._ceilings, self._men = {}, {}

    def ceiling(
        self, state: BoltActionGame, unit: UnitState, target: UnitState, moving: bool, shift: float
    ) -> float | None:
        """No less than :func:`.shot_value.damage` answers for this unit's shooting at troops with the
        unit moved ``shift`` inches (or less) any way; None at a vehicle.

        Every man fires the most telling shot he could pick (a vehicle every shot it could
        fire, each mount bearing) at any range he may then have (no nearer the target than
        the units' gap less the shift) and behind any cover it could have (no less than
        its :func:`_least_cover`); the casualties are no more than the target's men; the
        pins' mean is no more than the chance of any hit, or than the most pins a shot of
        their own could bring.
        """
        key = (unit.uid, target.uid, moving)
        if key in self._ceilings:
            found = self._ceilings[key]
        else:
            found = (
                None if target.vehicle is not None else self.shooting(state, unit, target, moving)
            )
            self._ceilings[key] = found
        if found is None:
            return None
        gap, squad, pins, aims, per_model = found
        near = gap - shift - NEARER
        casualties = hit = 0.0
        for count, reach in squad:
            i = bisect_right(reach.ranges, near) - 1
            if i < 0:  # (nearer than 0": the first band; max(0, i) by a comparison)
                i = 0
            casualties += count * reach.casualties[i]
            hit += count * reach.hits[i]
        casualties *= 1 + ROUNDING
        hit *= 1 + ROUNDING
        cap = casualties if casualties < aims else float(aims)
        # the pins are 1 if anything hits, or the most rolled for a shot of their own
        most_pins = float(pins) if pins > 1 else (hit if hit < 1 else 1.0)
        return cap * per_model + most_pins * PIN_VALUE

    def shooting(
        self, state: BoltActionGame, unit: UnitState, target: UnitState, moving: bool
    ) -> _TroopsShooting:
        """What :meth:`ceiling` reads of this unit's shooting at troops: the units'
        gap, the squad (see :func:`_squad_reach`; behind no less cover than the target's
        :func:`_least_cover`), its most pins of a shot's own, the target's men and its
        points a man.

        Kept from choice to choice while all it reads stands (most units have not moved
        between two choices): both units' live models (the same remembered places, so the
        same places, weapons and one-shots), the edition, the unit's pins and whether it has
        ranged in on the target, and whether the target is Down. The rest it reads, each
        unit's kind, quality, size at the start and points, never changes.
        """
        key = (unit.uid, target.uid, moving)
        ours, theirs, rules = unit.places_key(), target.places_key(), state.rules
        now = (unit.pins, unit.ranged_in_on == target.uid, target.is_down)
        kept = self._shootings.get(key)
        if (
            kept is not None
            and kept[0] is ours
            and kept[1] is theirs
            and kept[2] is rules
            and kept[3] == now
        ):
            return kept[4]
        men = self._men.get(unit.uid)
        if men is None:
            men = self._men[unit.uid] = _men_by_weapons(unit)
        least = self._least.get(target.uid)
        if least is None or least[0] is not theirs:
            least = self._least[target.uid] = theirs, _least_cover(state.table, target)
        squad = _squad_reach(state, unit, target, moving, men, least[1])
        pins = max([reach.pins for _, reach in squad], default=0)
        aims = len(target.coords) // 2  # what damage caps the casualties at
        per_model = target.points / max(1, target.start_models)
        found = state.gap(unit, target), squad, pins, aims, per_model
        self._shootings[key] = (ours, theirs, rules, now, found)
        return found
