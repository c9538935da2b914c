"""Fire and what it does: a shot resolved, its casualties, pins and vehicle damage, units
destroyed, in a Konflikt '47 or Bolt Action game.

These are the effects every other rule procedure of the game ends in (an order's shot, an
ambush, a close quarters fight, a barrage, a FUBAR's friendly fire), so they are methods the
game inherits from :class:`Firing` (itself the game's shooting questions,
:class:`.ShootingGroups`): each reads and writes the game's dice, units, table and record,
and the other procedures, the AI and the tests call them as ``game.shoot(...)``,
``game.destroy(...)``, at no cost beyond the method call they always made.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from kriegsspiel.core.procedure import Dice
from kriegsspiel.core.table import Point
from kriegsspiel.errors import UnknownNameError
from kriegsspiel.rulesets.bolt_action.attack import (
    TroopsContext,
    attack_troops,
    attack_vehicle,
    troops_context,
)
from kriegsspiel.rulesets.bolt_action.game.shooting_groups import (
    ShootingGroups,
    aimed_at,
    target_profile,
)
from kriegsspiel.rulesets.bolt_action.game.spacing import segment_distance
from kriegsspiel.rulesets.bolt_action.game.units import UnitState, credit
from kriegsspiel.rulesets.bolt_action.kit import keep_rank
from kriegsspiel.rulesets.bolt_action.morale import (
    destroyed_by_pins,
    losses_force_test,
    new_test,
    rolled_morale_check,
)
from kriegsspiel.rulesets.bolt_action.pen import crew_with_officer, vehicle_profile
from kriegsspiel.rulesets.bolt_action.shooting import plan_shot
from kriegsspiel.rulesets.bolt_action.shot import Group, Shot
from kriegsspiel.rulesets.bolt_action.shot_rolls import write_dice
from kriegsspiel.rulesets.bolt_action.troop_damage import multiplied
from kriegsspiel.rulesets.bolt_action.vehicle_damage import Tally, VehicleProfile, damage_roll_json

SHOCKWAVE_WIDTH = (
    0.5  # inches either side of a Shockwave's line that count as under it (assumption)
)


def weapons_fired(groups: Sequence[Group], tally: Tally) -> list[dict[str, Any]]:
    """An attack's shots and hits by weapon and what they needed, as the record writes
    them: each weapon with each to-hit once, in the order it first fired, its groups'
    shots and hits added up, with what its shots needed (:func:`needed`); of a weapon
    whose hit is not one hit (HE, a flamethrower...), the shots that hit (``struck``) and
    what each such hit made (``per_hit``: "D6", "D6 halved"; at a vehicle, format 9 on);
    and the dice as rolled (:func:`write_dice`)."""
    fired: dict[tuple[Any, ...], dict[str, Any]] = {}
    struck: Sequence[int | None] = tally.group_struck or [None] * len(groups)
    for group, hits, hit, kept in zip(
        groups, tally.group_hits, struck, tally.group_dice, strict=True
    ):
        shot = group.shot
        key = (shot.weapon, shot.hit_on, shot.hit_fixed, shot.hit_modifiers)
        line = fired.get(key)
        if line is None:
            line = fired[key] = {"weapon": shot.weapon, "shots": 0, "hits": 0, **needed(shot)}
        line["shots"] += group.shots
        line["hits"] += hits
        rolls_hits = multiplied(shot) and shot.auto_effect is None
        if rolls_hits:  # (at a vehicle, each shot that hit rolled its hits: ``per_hit``)
            line["struck"] = line.get("struck", 0) + (len(kept.per_hit) if hit is None else hit)
            line["per_hit"] = shot.hits_per_hit.text + (" halved" if shot.halve_hits else "")
        write_dice(
            line, kept, shot.damage_need, at_troops=hit is not None, multiplied=rolls_hits,
            pins=shot.special_pins,
        )  # fmt: skip
    return list(fired.values())


def needed(shot: Shot) -> dict[str, Any]:
    """What a shot needed to hit, as its plan worked it out, for the record: ``needs``,
    the D6 score (a 6-then-N as [6, N]); ``modifiers``, those that made it by their data
    keys (hit_modifiers rows) with their values, or ``fixed``, the rule that set it
    instead (indirect fire's first shot or ranged in, a Shockwave). Nothing for a sure
    hit (a barrage's, an aircraft's), which rolls none."""
    if not shot.hit_on:
        return {}
    plan: dict[str, Any] = {"needs": shot.hit_on[0] if len(shot.hit_on) == 1 else list(shot.hit_on)}
    if shot.hit_fixed:
        plan["fixed"] = shot.hit_fixed
    elif shot.hit_modifiers:
        plan["modifiers"] = dict(shot.hit_modifiers)
    return plan


class Firing(ShootingGroups):
    """The game's fire and its effects (a part of :class:`.BoltActionGame`, which inherits
    it): a unit's shooting, an attack rolled and applied, casualties, pins, vehicle damage,
    a unit destroyed."""

    dice: Dice
    units: list[UnitState]

    if TYPE_CHECKING:  # (the game's own, in state.py)

        def log(self, event: str, /, **data: Any) -> None: ...

        def officer_near(self, unit: UnitState) -> str | None: ...

    def shoot(self, unit: UnitState, tgt: UnitState, *, moving: bool) -> None:
        """Resolve one unit's shooting at another with the rule procedures."""
        groups = self.shooting_groups(unit, tgt, moving=moving)
        if not groups:
            self.log("no shot", unit=unit.uid, target=tgt.uid)
            return
        for model in self.one_shots_fired:  # one-shot weapons that fired are spent
            model.used_one_shot = True
        if unit.ranged_in_on not in (None, tgt.uid):
            unit.ranged_in_on = None  # firing at another target loses the ranging on the first
        self.resolve_attack(unit, tgt, groups)
        for group in groups:
            if "Shockwave" in self.rules.weapon(group.shot.weapon).special:
                self._shockwave_line(unit, tgt, group.shot.weapon)

    def _shockwave_line(self, unit: UnitState, tgt: UnitState, weapon_name: str) -> None:
        """A Shockwave also strikes every other unit with a model under its line (friends too)."""
        weapon = self.rules.weapon(weapon_name)
        start, aim = unit.anchor, tgt.anchor
        gap = start.distance_to(aim) or 1.0
        end = Point(
            start.x + (aim.x - start.x) * weapon.range / gap,
            start.y + (aim.y - start.y) * weapon.range / gap,
        )
        for other in self.units:
            if other.destroyed or other.uid in (unit.uid, tgt.uid):
                continue
            if (
                min(
                    (
                        segment_distance(m.x, m.y, start.x, start.y, end.x, end.y)
                        for m in other.alive_models
                    ),
                    default=math.inf,
                )
                > SHOCKWAVE_WIDTH
            ):
                continue
            situation = aimed_at(other, min(weapon.range, start.distance_to(other.anchor)))
            shot, _ = plan_shot(self.rules, weapon, target_profile(self.rules, other), situation)
            self.log("shockwave", unit=unit.uid, target=other.uid)
            self.resolve_attack(unit, other, [Group(shot, 1)])

    def resolve_attack(
        self, unit: UnitState | None, tgt: UnitState, groups: list[Group], *, event: str = "shoot"
    ) -> None:
        """Roll an attack on ``tgt`` and apply it: casualties, pins, tests, vehicle damage.

        ``unit`` is the attacker (None for a barrage or an aircraft).
        """
        gravity = any(self._has_rule(g.shot.weapon, "Gravity Pulse") for g in groups)
        uid = unit.uid if unit is not None else None
        groups, ctx = self.attack_setup(tgt, groups)
        tally = Tally()
        if ctx is None:
            state = attack_vehicle(self.dice, groups, tally)
            if unit is not None and state.indirect_hit:
                unit.ranged_in_on = tgt.uid  # an indirect shot is ranged in once it hits
            self.log(
                event,
                unit=uid,
                target=tgt.uid,
                shots=sum(g.shots for g in groups),
                weapons=weapons_fired(groups, tally),
                damage_rolls=[damage_roll_json(r) for r in tally.damage_rolls],
                knocked_out=state.knocked_out,
                immobilised=state.immobilised and not tgt.immobilised,
                stunned=state.crew_stunned,
                on_fire=state.on_fire,
                pins=state.pins,
            )
            self.log_checks(tgt, tally)
            self.vehicle_damage(
                tgt,
                state.knocked_out,
                state.immobilised,
                state.crew_stunned or (state.on_fire and not state.knocked_out),
                state.pins,
                by=unit,
            )
            if gravity and state.worst > 0:
                self.gravity_pulse(tgt)
        else:
            out = attack_troops(self.dice, groups, ctx, tally)
            self.log(
                event,
                unit=uid,
                target=tgt.uid,
                shots=sum(g.shots for g in groups),
                weapons=weapons_fired(groups, tally),
                hits=out.hits,
                casualties=out.casualties,
                pins=out.pins,
            )
            self.log_checks(tgt, tally)
            if unit is not None and out.indirect_hit:
                unit.ranged_in_on = tgt.uid  # an indirect shot is ranged in once it hits
            tgt.pins += out.pins
            self.casualties(tgt, out.casualties, by=unit)
            if gravity and out.casualties:
                self.gravity_pulse(tgt)
            if out.destroyed_by_morale and not tgt.destroyed:
                self.destroy(tgt, "fails its morale check after a flamethrower", by=unit)
            self.check_pins(tgt, by=unit)

    def gravity_pulse(self, tgt: UnitState) -> None:
        """A unit damaged by a gravity pulse may not be given a Run order at its next
        activation (Konflikt '47): so marked, and recorded where it is still in the game."""
        tgt.no_run = True
        if not tgt.destroyed:
            self.log("gravity pulse", unit=tgt.uid)

    def log_checks(self, tgt: UnitState, tally: Tally) -> None:
        """Record the checks ``tgt`` made within an attack (on fire, a flamethrower's, an
        automaton's D6 to ignore a stun), in the order rolled, after the attack's line."""
        for check in tally.checks:
            self.log(
                check.kind, unit=tgt.uid, needs=check.needs, roll=check.roll, passed=check.passed
            )

    def attack_setup(
        self, tgt: UnitState, groups: Sequence[Group]
    ) -> tuple[list[Group], TroopsContext | None]:
        """The groups as an attack on ``tgt`` resolves them, and, for troops, what it
        reads of them (None for a vehicle): a nearby officer's bonus goes to a vehicle
        crew's tests and to a flamethrower's morale check. The odds a player is shown
        for a shot (:mod:`kriegsspiel.solo.briefing`) are worked out from the same."""
        if tgt.vehicle is not None:
            officer = self.officer_near(tgt)  # the crew's tests (On fire, a flamethrower's)
            if officer is not None:
                return [self._crew_with_officer(g, officer) for g in groups], None
            return list(groups), None
        tested = any(g.shot.morale_check for g in groups)
        officer = self.officer_near(tgt) if tested else None
        ctx = troops_context(
            self.rules,
            groups,
            quality=tgt.quality,
            models=len(tgt.alive_models),
            pins=tgt.pins,
            officer=officer,
        )
        return list(groups), ctx

    def casualties(self, tgt: UnitState, count: int, *, by: UnitState | None) -> None:
        """Remove ``count`` models (the owner's sensible choice), then any morale check."""
        if count <= 0:
            return
        shooter = by.anchor if by is not None else tgt.anchor

        def keep_order(m: Any) -> tuple[int, float]:
            rank = keep_rank(self.rules, m.weapons, officer=bool(m.officer), nco=m.nco)
            return (rank, -m.point.distance_to(shooter))

        for model in sorted(tgt.alive_models, key=keep_order)[:count]:
            model.alive = False
        credit(by, tgt, count)
        if not tgt.alive_models:
            self.destroy(tgt, "all models lost")
            return
        alive = len(tgt.alive_models)
        if losses_force_test(tgt.start_models, alive):
            test = new_test(self.rules, tgt.quality, officer=self.officer_near(tgt), pins=tgt.pins)
            passed, roll = rolled_morale_check(self.dice, test)
            self.log("morale check", unit=tgt.uid, needs=test.value, passed=passed, roll=roll)
            if not passed:
                self.destroy(tgt, "fails its morale check", by=by)

    def _has_rule(self, weapon_name: str, rule: str) -> bool:
        """Does the weapon (aircraft are not on the chart) have this special rule?"""
        try:
            return rule in self.rules.weapon(weapon_name).special
        except UnknownNameError:
            return False

    def check_pins(self, unit: UnitState, *, by: UnitState | None = None) -> None:
        """A unit with as many pins as its morale is removed (``by``: whose attack did it)."""
        if not unit.destroyed and destroyed_by_pins(self.rules, unit.quality, unit.pins):
            self.destroy(unit, f"{unit.pins} pins reach its morale", by=by)

    def vehicle_damage(
        self,
        tgt: UnitState,
        ko: bool,
        immobilised: bool,
        halted: bool,
        pins: int,
        *,
        by: UnitState | None,
    ) -> None:
        """Apply a vehicle's damage results: wreck, immobilised, halted (Down), pins.

        A vehicle immobilised after it took its action this turn is brought to a halt, as
        one whose crew were stunned: its die turns to Down, and it counts as halted (not as
        having moved) for infantry assaulting it (sheets 000, 001, 002)."""
        tgt.pins += pins
        if immobilised and not tgt.immobilised:
            tgt.immobilised = True
            halted = halted or tgt.order is not None
        if ko:
            self.destroy(tgt, "knocked out", by=by)  # (an armoured one leaves a wreck)
            return
        if halted:  # its die (one kept from last turn too: an Ambush) turns to Down
            tgt.order, tgt.retained = "Down", None
            tgt.moved = None
        self.check_pins(tgt, by=by)

    def destroy(self, unit: UnitState, why: str, *, by: UnitState | None = None) -> None:
        """Take a unit out of the game; ``by`` (the enemy whose attack broke it) is credited
        with the points of what was left of it."""
        credit(by, unit, len(unit.alive_models))
        unit.destroyed = True
        for m in unit.models:
            m.alive = False if unit.vehicle is None else m.alive
        self.log("destroyed", unit=unit.uid, why=why)
        # an armoured vehicle destroyed by any cause (knocked out, or abandoned by its crew
        # under as many pins as its morale) is knocked out, and becomes a wreck (001)
        if unit.vehicle is not None and unit.vehicle.target.kind == "armoured":
            self.table = self.table.wreck(unit.anchor, name=f"wreck of {unit.name}")

    def vehicle_profile_of(
        self, unit: UnitState, *, indirect: bool, officer: bool = True
    ) -> VehicleProfile:
        """How hits on this vehicle are resolved now (its crew, pins and special rules, and
        the best officer of its side in range, whose bonus its crew's tests take; not with
        ``officer`` False, for hits that :meth:`resolve_attack` resolves: it adds him)."""
        assert unit.vehicle is not None
        near = self.officer_near(unit) if officer else None
        situation = replace(aimed_at(unit, 0), target_officer=near)
        return vehicle_profile(self.rules, unit.vehicle.target, situation, indirect=indirect)

    def _crew_with_officer(self, group: Group, officer: str) -> Group:
        """The group with its target vehicle's crew tests (On fire, a flamethrower's check)
        taking ``officer``'s bonus, as the vehicle's order tests do. (Shots are planned
        without it, so the tactical player's weighing of them leaves it out.)"""
        shot = group.shot
        if shot.vehicle is None:
            return group
        vehicle = crew_with_officer(self.rules, shot.vehicle, officer)
        return replace(group, shot=replace(shot, vehicle=vehicle))
