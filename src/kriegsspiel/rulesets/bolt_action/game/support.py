"""Bolt Action 1st edition's artillery barrage and air strike, called in by observers.

The charts are the sheet's (``artillery_barrage`` and ``air_strike`` in the edition's data);
how an observer calls them in the game is listed in docs/rules/bolt-action-1.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from kriegsspiel.core.dice import DiceExpr
from kriegsspiel.core.table import Point
from kriegsspiel.rulesets.bolt_action.game.shooting_groups import aimed_at, target_profile
from kriegsspiel.rulesets.bolt_action.game.units import UnitState, points_lost
from kriegsspiel.rulesets.bolt_action.pen import facing_parts
from kriegsspiel.rulesets.bolt_action.shooting import plan_shot
from kriegsspiel.rulesets.bolt_action.shot import Group, Shot
from kriegsspiel.rulesets.bolt_action.shot_rolls import roll_expr
from kriegsspiel.rulesets.bolt_action.vehicle_damage import PenPart

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame

SUPPORT = {"barrage": "artillery", "air strike": "air"}


@dataclass(frozen=True, slots=True)
class Delayed:
    """A barrage or air strike that rolls again at the start of the next turn."""

    kind: str  # "barrage" | "air strike"
    side: int
    target: int
    point: tuple[float, float]
    caller: int = -1  # the observer's unit, credited with what it destroys


def observer_kind(unit: UnitState) -> str | None:
    """'artillery' or 'air' if a living model of the unit is such an observer."""
    for m in unit.alive_models:
        if m.observer:
            return m.observer
    return None


def can_call(game: BoltActionGame, unit: UnitState, kind: str) -> bool:
    """An observer may call its one barrage or air strike of the game, if the edition has it."""
    chart = game.rules.data.artillery_barrage if kind == "barrage" else game.rules.data.air_strike
    return chart is not None and not unit.support_used and observer_kind(unit) == SUPPORT[kind]


def call(game: BoltActionGame, observer: UnitState, target: UnitState, kind: str) -> None:
    """The observer calls it in on ``target``: roll on the chart."""
    observer.support_used = True
    point = (target.anchor.x, target.anchor.y)
    resolve(game, Delayed(kind, observer.side, target.uid, point, observer.uid))


def in_blast(unit: UnitState, point: Point, reach: float) -> bool:
    """Whether a barrage's fire for effect (or an air strike's pins) at ``point`` reaches
    ``unit``: one of its models is within ``reach`` of it, and it is still on the table."""
    if unit.destroyed:
        return False
    return min((m.point.distance_to(point) for m in unit.alive_models), default=math.inf) <= reach


def blast_reach(game: BoltActionGame, kind: str) -> tuple[int, int]:
    """How far from its target a barrage's fire for effect (its chart's radius, D6+6":
    7 to 12) or an air strike's pins (12") reach: the least and the most."""
    if kind == "barrage":
        chart = game.rules.data.artillery_barrage
        assert chart is not None
        radius = DiceExpr(chart.radius)
        return radius.least, radius.most
    strike = game.rules.data.air_strike
    assert strike is not None
    return strike.radius, strike.radius


def caught(
    game: BoltActionGame, target: UnitState, kind: str
) -> tuple[list[UnitState], list[UnitState]]:
    """The units (either side's) a barrage or air strike called on ``target`` reaches as it
    comes down where it was called (:func:`in_blast`, the game's own test): those within
    its least reach, and those within its most only (a barrage's radius is rolled). An air
    strike's target is always among the first."""
    least, most = blast_reach(game, kind)
    point = target.anchor
    struck = target if kind == "air strike" else None
    sure = [u for u in game.units if u is struck or in_blast(u, point, least)]
    maybe = [u for u in game.units if u not in sure and in_blast(u, point, most)]
    return sure, maybe


def come_back(game: BoltActionGame, call_in: Delayed) -> None:
    """A delayed barrage or air strike rolls again as the next turn begins. A barrage's
    marker stays where it was; an air strike whose skies were empty may have its target
    changed (sheet 002): its caller keeps the target still on the table, and nominates
    another for one gone (:func:`_renominated`)."""
    if call_in.kind == "air strike":
        renominated = _renominated(game, call_in)
        if renominated is None:
            return
        call_in = renominated
    resolve(game, call_in, again=True)


def _renominated(game: BoltActionGame, call_in: Delayed) -> Delayed | None:
    """The air strike as it comes back: on its target if that is still on the table, else
    on the enemy unit nearest the old target's place that the observer (still there, his
    observer with him) can see, as he could call one in on; None (called off, with no one
    to aim it) if there is none."""
    old = game.units[call_in.target]
    if not old.destroyed:
        return call_in
    caller = game.units[call_in.caller] if 0 <= call_in.caller < len(game.units) else None
    seen: list[UnitState] = []
    if caller is not None and not caller.destroyed and observer_kind(caller) == "air":
        seen = [
            u
            for u in game.units
            if u.side != call_in.side and not u.destroyed and game.visible(caller, u)
        ]
    if not seen:
        game.log("air strike target", side=call_in.side, was=old.uid, target=None)
        return None
    point = Point(*call_in.point)
    new = min(seen, key=lambda u: u.anchor.distance_to(point))
    game.log("air strike target", side=call_in.side, was=old.uid, target=new.uid)
    return replace(call_in, target=new.uid, point=(new.anchor.x, new.anchor.y))


def resolve(game: BoltActionGame, call_in: Delayed, *, again: bool = False) -> None:
    """Roll the barrage or air strike on its chart and carry it out; the observer who
    called it is credited with the enemy points it destroys (its fire is no one's on the
    table, so it is resolved with no attacker: no unit ranges in, none is nearest).
    ``again``: it was delayed, and rolls again as a turn begins (the record says so)."""
    enemies = [u for u in game.units if u.side != call_in.side]
    before = [points_lost(u) for u in enemies]
    _resolve(game, call_in, again)
    if 0 <= call_in.caller < len(game.units):
        caller = game.units[call_in.caller]
        caller.damage_dealt += sum(points_lost(u) for u in enemies) - sum(before)


def _called(call_in: Delayed, again: bool) -> dict[str, object]:
    """What a barrage's or air strike's line says of its call (format 2 on): its caller
    (named though he may have fallen since: the call stands), and whether it was delayed
    and rolls again."""
    said: dict[str, object] = {}
    if call_in.caller >= 0:
        said["caller"] = call_in.caller
    if again:
        said["again"] = True
    return said


def _resolve(game: BoltActionGame, call_in: Delayed, again: bool) -> None:
    roll = game.dice.roll(6)
    if call_in.kind == "barrage":
        chart = game.rules.data.artillery_barrage
        assert chart is not None
        effect = next(r.effect for r in chart.rows if roll in r.rolls)
        game.log("barrage", side=call_in.side, roll=roll, effect=effect, **_called(call_in, again))
        point = Point(*call_in.point)
        if effect == "delay":
            game.delayed.append(call_in)
            return
        if effect == "miscalculation":
            point = _worst_for_caller(game, call_in.side, point)
        _fire_for_effect(game, point)
        return
    strike = game.rules.data.air_strike
    assert strike is not None
    outcome = next(r.effect for r in strike.rows if roll in r.rolls)
    game.log("air strike", side=call_in.side, roll=roll, effect=outcome, **_called(call_in, again))
    if outcome == "skies are empty":
        game.delayed.append(call_in)
        return
    target = game.units[call_in.target]
    if outcome == "rookie pilot":
        target = _victim_for_rookie(game, call_in.side, Point(*call_in.point)) or target
    if target.destroyed:
        return
    _here_it_comes(game, target)


MISCALCULATION_WAYS = 16  # the directions the enemy weighs for a barrage it moves away


def _worst_for_caller(game: BoltActionGame, side: int, point: Point) -> Point:
    """Where the enemy moves a miscalculated barrage: onto the caller's own nearest unit in
    reach; with none in reach, to the place (the point kept, or moved the whole reach in
    one of 16 directions and kept on the table) farthest from its own models, out of the
    largest radius the barrage could have if it can be, and then nearest the caller's.
    The reach is the barrage table's ``miscalculation_reach`` (the sheet's 24")."""
    chart = game.rules.data.artillery_barrage
    assert chart is not None
    reach = float(chart.miscalculation_reach)
    own = [
        u
        for u in game.units
        if u.side == side and not u.destroyed and u.anchor.distance_to(point) <= reach
    ]
    if own:
        return min(own, key=lambda u: u.anchor.distance_to(point)).anchor
    live = [u for u in game.units if not u.destroyed]
    theirs = [m.point for u in live if u.side != side for m in u.alive_models]
    callers = [m.point for u in live if u.side == side for m in u.alive_models]
    if not theirs:
        return point
    safe = DiceExpr(chart.radius).most
    table = game.table
    spots = [point]
    for k in range(MISCALCULATION_WAYS):
        angle = 2 * math.pi * k / MISCALCULATION_WAYS
        x = point.x + reach * math.cos(angle)
        y = point.y + reach * math.sin(angle)
        spots.append(Point(min(max(x, 0.0), table.width), min(max(y, 0.0), table.height)))

    def worth(at: Point) -> tuple[bool, float, float]:
        away = min(at.distance_to(m) for m in theirs)
        near = min((at.distance_to(m) for m in callers), default=math.inf)
        return away > safe, min(away, safe), -near

    return max(spots, key=worth)


def _victim_for_rookie(game: BoltActionGame, side: int, point: Point) -> UnitState | None:
    """A rookie pilot: the enemy picks the target, so the caller's own nearest unit."""
    own = [u for u in game.units if u.side == side and not u.destroyed]
    return min(own, key=lambda u: u.anchor.distance_to(point)) if own else None


def _fire_for_effect(game: BoltActionGame, point: Point) -> None:
    chart = game.rules.data.artillery_barrage
    assert chart is not None
    radius = roll_expr(game.dice, DiceExpr(chart.radius))
    game.log("fire for effect", at=[round(point.x, 2), round(point.y, 2)], radius=radius)
    for unit in list(game.units):
        if not in_blast(unit, point, radius):
            continue
        roll = game.dice.roll(6)
        if roll in chart.pin_rolls:
            pins = roll_expr(game.dice, DiceExpr(chart.pins))
            unit.pins += pins
            game.log("barrage pins", unit=unit.uid, roll=roll, pins=pins)
            game.check_pins(unit)
        elif roll in chart.hit_rolls:
            game.log("barrage hit", unit=unit.uid, roll=roll, weapon=chart.hit_as)
            _sure_hit(game, unit, chart.hit_as, point)


def _sure_hit(game: BoltActionGame, unit: UnitState, weapon_name: str, point: Point) -> None:
    """One automatic hit of ``weapon_name`` (the heavy howitzer) from above."""
    weapon = game.rules.weapon(weapon_name)
    reach = max(weapon.indirect_min_range or 0, weapon.min_range, 30.0)
    situation = aimed_at(unit, reach, indirect=True, ranged_in=True)
    shot, _ = plan_shot(game.rules, weapon, target_profile(game.rules, unit), situation)
    _resolve_hits(game, unit, replace(shot, hit_on=()))


def _here_it_comes(game: BoltActionGame, target: UnitState) -> None:
    strike = game.rules.data.air_strike
    assert strike is not None
    centre = target.anchor
    for unit in game.units:
        if unit.destroyed:
            continue
        if unit is target or in_blast(unit, centre, strike.radius):
            pins = roll_expr(game.dice, DiceExpr(strike.pins))
            unit.pins += pins
            game.log("air strike pins", unit=unit.uid, pins=pins)
            if unit is not target:  # (the target is checked once the aircraft has attacked)
                game.check_pins(unit)
    # no flak is fielded by the sample forces: the aircraft always survives (assumption)
    roll = game.dice.roll(6)
    plane = next(a for a in strike.aircraft if roll in a.rolls)
    game.log("aircraft", roll=roll, aircraft=plane.aircraft, target=target.uid, pins=plane.pins)
    # the chart's pins are the aircraft's attack's (as the HE table's are a shell's): its
    # hits bring no further pin of their own (pins_target=False)
    target.pins += plane.pins
    if target.vehicle is None:
        dv = game.rules.target(f"{target.quality} infantry").damage_value
        shot = Shot(
            weapon=plane.aircraft,
            hit_on=(),
            hits_per_hit=DiceExpr(plane.hits),
            damage_need=dv,
            pins_target=False,
        )
    else:
        profile = game.vehicle_profile_of(target, indirect=True, officer=False)  # (see below)
        # the chart's pen and the top armour's modifier (none at a walker), named as the
        # odds name a weapon's pen and the armour struck
        top = facing_parts(game.rules, target.vehicle.target, "top")
        parts = [PenPart("pen", plane.pen), *(p for p in top if isinstance(p, PenPart))]
        shot = Shot(
            weapon=plane.aircraft,
            hit_on=(),
            hits_per_hit=DiceExpr(plane.hits),
            pen=sum(p.value for p in parts),
            vehicle=profile,
            pins_target=False,
            pen_parts=tuple((p.name, p.value) for p in parts),
        )
    _resolve_hits(game, target, shot)  # (resolve_attack: the crew's officer, if one is near)
    game.check_pins(target)


def _resolve_hits(game: BoltActionGame, unit: UnitState, shot: Shot) -> None:
    """Hits that no enemy unit rolled (an aircraft's, a sure hit from above): no one is
    credited with what they destroy."""
    game.resolve_attack(None, unit, [Group(shot, 1)], event="support damage")
    game.check_pins(unit)
