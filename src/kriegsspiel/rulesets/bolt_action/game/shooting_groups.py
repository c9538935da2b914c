"""Who can shoot whom, from where, and with what: the shooting groups of a Konflikt '47 or
Bolt Action game.

Each model fires the weapons its owner would pick at the nearest target model in its sight
(:meth:`ShootingGroups.model_shots`), a team's mortar at the nearest its team sees (its
spotter's eyes: :func:`spotting`); the game fires them, and the tactical player weighs
them, with the same answers. These are the questions a game asks most, so each is
remembered by everything it reads (see :meth:`ShootingGroups._groups_found`).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import count
from operator import attrgetter
from typing import Any

from kriegsspiel.core.dice import DiceExpr
from kriegsspiel.core.game import GameState
from kriegsspiel.core.memo import BoundedMemo
from kriegsspiel.core.table import Point, Table
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action.data import Weapon
from kriegsspiel.rulesets.bolt_action.edition import Rules, Target
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.table_rules import facing_hit, in_arc, unit_cover
from kriegsspiel.rulesets.bolt_action.game.units import Model, UnitState
from kriegsspiel.rulesets.bolt_action.kit import one_shot, spent
from kriegsspiel.rulesets.bolt_action.shooting import (
    CannotFire,
    check_range,
    fires_on_spotting,
    fires_on_the_move,
    in_range,
    plan_shot,
    range_bands,
    shots_per_model,
)
from kriegsspiel.rulesets.bolt_action.shot import Group, Shot, Situation, target_situation
from kriegsspiel.rulesets.bolt_action.to_hit import hit_chance
from kriegsspiel.rulesets.bolt_action.troop_damage import casualty_chance, infantry_target
from kriegsspiel.rulesets.bolt_action.vehicle_damage import damage_chance


def _worth(option: tuple[Shot, int, bool], at_vehicle: bool) -> tuple[float, ...]:
    """How a man picks his weapon: against a vehicle (armoured or soft-skinned) the most
    hits expected to reach a damage result (then the most hits), else the most expected
    casualties; a one-shot weapon is kept for vehicles."""
    shot, per, one_shot = option
    hits = _hit_chance(shot.hit_on) * per * _mean(shot.hits_per_hit)
    if at_vehicle:
        return (hits * _damaging(shot), hits)
    return (hits * (0.5 if one_shot else 1.0) * _casualty_chance(shot.damage_need),)


@lru_cache(maxsize=64)
def _hit_chance(hit_on: tuple[int, ...] | None) -> float:
    """:func:`hit_chance`, as a float (remembered: asked for every weapon of every man)."""
    return float(hit_chance(hit_on))


@lru_cache(maxsize=16)
def _casualty_chance(damage_need: int) -> float:
    """:func:`casualty_chance`, as a float (remembered)."""
    return float(casualty_chance(damage_need))


@lru_cache(maxsize=1024)
def _damaging(shot: Shot) -> float:
    """The chance that a hit of ``shot`` on its vehicle reaches a damage result (a
    Shockwave's effect always comes)."""
    if shot.auto_effect is not None:
        return 1.0
    if shot.pen is None or shot.vehicle is None:
        return 0.0
    return float(damage_chance(shot.vehicle, shot.pen))


_REACH: BoundedMemo[tuple[Rules, tuple[str, ...], bool, bool, bool], float]
_REACH = BoundedMemo("a model's longest reach")  # see _reach
_GAPS: BoundedMemo[Any, float] = BoundedMemo("gaps between units")  # see gap
_SHOTS: BoundedMemo[Any, Shot | None] = BoundedMemo("planned shots")  # see _planned
# what plan_shot reads of a situation beyond its range: at a vehicle all but the target's
# size; at troops not the target's pins, quality (its Target says that), facing or armour
_AT_VEHICLE = attrgetter(
    *(f for f in Situation.__dataclass_fields__ if f not in ("range_inches", "target_models"))
)
_AT_TROOPS = attrgetter(
    "firer_pins",
    "one_crew",
    "firer_inexperienced",
    "moving",
    "target_down",
    "small_unit",
    "cover",
    "indirect",
    "ranged_in",
)


def _planned(rules: Rules, weapon: Weapon, target: Target, situation: Situation) -> Shot | None:
    """:func:`plan_shot`'s shot (None where it refuses), remembered. A range that
    :func:`check_range` allows counts only through :func:`range_bands`, so the key holds
    those in its place (the weapon is the edition's own, known by its name), with only
    the parts of the situation plan_shot reads at this kind of target. The target's
    profile is spelt out field by field: its own hash would be a Python call."""
    try:
        check_range(rules, weapon, situation)
    except UsageError:
        return None
    key = (
        rules,
        weapon.name,
        target.name,
        target.kind,
        target.walker,
        target.damage_value,
        _AT_VEHICLE(situation) if target.is_vehicle else _AT_TROOPS(situation),
        range_bands(rules, weapon, situation.range_inches),
    )
    if key in _SHOTS:
        return _SHOTS[key]
    try:
        shot: Shot | None = plan_shot(rules, weapon, target, situation)[0]
    except CannotFire:
        shot = None
    return _SHOTS.keep(key, shot)


_MARKS: BoundedMemo[tuple[Rules, tuple[str, ...]], tuple[tuple[float, ...], float]]
_MARKS = BoundedMemo("range marks")  # see range_marks
# what a model fires, by the shooting's context (numbered, never twice) and the model's
# weapons and range band: see ShootingGroups._shooting_groups
_CONTEXTS: BoundedMemo[Any, int] = BoundedMemo("shooting contexts")
_CHOICES: BoundedMemo[Any, tuple[tuple[Shot, int, bool], ...]]
_CHOICES = BoundedMemo("a model's shots")
_NUMBERS = count()


def range_marks(rules: Rules, weapons: tuple[str, ...]) -> tuple[tuple[float, ...], float]:
    """Every range (sorted) at which some answer about these weapons may change: their
    reach, minimum and indirect minimum, long range, and point blank. Where a range falls
    among them (:func:`bisect.bisect_left` and ``bisect_right``) settles every range test
    a model's shooting makes, :func:`range_bands` included. Also the longest reach:
    beyond it no weapon fires."""
    key = (rules, weapons)
    found = _MARKS.get(key)
    if found is None:
        proc = rules.data.procedure
        marks: set[float] = {proc.point_blank_inches}
        for name in weapons:
            weapon = rules.weapon(name)
            marks |= {weapon.range, weapon.min_range, weapon.range * proc.long_range_fraction}
            if weapon.indirect_min_range is not None:
                marks.add(weapon.indirect_min_range)
        reach = max((rules.weapon(name).range for name in weapons), default=0)
        found = _MARKS.keep(key, (tuple(sorted(marks)), reach))
    return found


_SPOTTING: BoundedMemo[tuple[Rules, tuple[str, ...]], tuple[str, ...]]
_SPOTTING = BoundedMemo("weapons fired on spotting")  # see spotting


def spotting(rules: Rules, weapons: tuple[str, ...]) -> tuple[str, ...]:
    """Those of a model's ``weapons`` that may fire at what any man of its team sees
    (:func:`fires_on_spotting`: a mortar, by its spotter's eyes), remembered."""
    key = (rules, weapons)
    found = _SPOTTING.get(key)
    if found is None:
        found = _SPOTTING.keep(
            key, tuple([w for w in weapons if fires_on_spotting(rules.weapon(w))])
        )
    return found


@lru_cache(maxsize=64)
def _mean(expr: DiceExpr) -> float:
    return float(expr.dist().mean())


def target_profile(rules: Rules, target: UnitState) -> Target:
    """What a unit is to a shot: its quality's infantry profile, or its vehicle's."""
    return (
        infantry_target(rules, target.quality) if target.vehicle is None else target.vehicle.target
    )


def aimed_at(target: UnitState, range_inches: float, **firer: Any) -> Situation:
    """A shot's situation at ``target``: the target's part (Down, a small unit, open-topped,
    an automaton, its pins, quality, size, immobilised) read from the unit, the rest (the
    firer's pins, moving, cover, indirect fire ...) as given. Every shot the game makes at
    a unit is set up here, so none of them forgets a part."""
    vehicle = target.vehicle
    return target_situation(
        range_inches,
        vehicle=vehicle is not None,
        down=target.is_down,
        start_models=target.start_models,
        models=len(target.alive_models),
        pins=target.pins,
        quality=target.quality,
        open_topped=bool(vehicle and vehicle.open_topped),
        automaton=bool(vehicle and vehicle.automaton),
        immobilised=target.immobilised,
        **firer,
    )


class ShootingGroups(GameState[Action]):
    """The game's shooting questions (a part of :class:`BoltActionGame`, which inherits it
    through :class:`.Firing`): gaps, sight, reach, and every shot a unit's models can fire at
    a target. As the game's deepest base it names the protocol the game follows, whose
    methods ``help()`` explains."""

    rules: Rules
    table: Table
    one_shots_fired: list[Model]  # the models whose one-shot weapon the last groups fire

    def gap(self, a: UnitState, b: UnitState) -> float:
        """The closest distance between the two units' models (inches), remembered by
        their live models' places."""
        key = (a.coords, b.coords)
        found: float | None = _GAPS.get(key)
        if found is None:
            xy, uv = key
            ours = [(xy[i], xy[i + 1]) for i in range(0, len(xy), 2)]
            theirs = [(uv[i], uv[i + 1]) for i in range(0, len(uv), 2)]
            dist = math.dist  # (a list, not a generator: no call resumed for each pair)
            found = _GAPS.keep(
                key, min([dist(p, q) for p in ours for q in theirs], default=float("inf"))
            )
        return found

    def visible(self, a: UnitState, b: UnitState, origin: Point | None = None) -> bool:
        starts = [origin] if origin else [m.point for m in a.alive_models]
        return any(self.table.line_of_sight(s, n.point) for s in starts for n in b.alive_models)

    def can_shoot(
        self, unit: UnitState, target: UnitState, *, moving: bool, origin: Point | None = None
    ) -> bool:
        """A quick test: could any model fire any weapon at ``target`` (range and sight)?"""
        return self.can_shoot_each(unit, [target], moving=moving, origin=origin)[0]

    def has_shot(self, unit: UnitState, target: UnitState) -> bool:
        """Whether the unit, standing, would fire at least one shot at ``target``: not only
        sight and range (:meth:`can_shoot`) but each weapon's own limits (a mortar's
        least range, a vehicle's arcs, a crewman who carries none). An ambush sprung, or
        a friend fired on in a FUBAR, needs a shot, not just a target in sight."""
        return self.can_shoot(unit, target, moving=False) and bool(
            self.shot_groups(unit, target, moving=False)
        )

    def can_shoot_each(
        self,
        unit: UnitState,
        targets: list[UnitState],
        *,
        moving: bool,
        origin: Point | None = None,
    ) -> list[bool]:
        """:meth:`can_shoot` for each of ``targets`` in turn. A team's mortar fires at what
        any man of the team sees (:func:`spotting`), its range from the mortar, so a team
        with one looks as far again as the team is wide."""
        reach = self.reach(unit, moving=moving)
        if reach == 0:
            return [False] * len(targets)
        alive = unit.alive_models
        if len(alive) > 1 and any(spotting(self.rules, m.weapons) for m in alive):
            reach += 2 * unit.radius
        if origin:
            anchor = unit.anchor
            dx, dy = origin.x - anchor.x, origin.y - anchor.y
            origins = tuple([c for m in unit.alive_models for c in (m.x + dx, m.y + dy)])
        else:
            origins = unit.coords
        return self.table.sees_within_each(origins, [t.coords for t in targets], reach)

    def reach(self, unit: UnitState, *, moving: bool) -> float:
        """The longest range at which any of the unit's live models can fire now (0 if none
        can), on the move or not: how far :meth:`can_shoot` looks."""
        reach, rules, known = 0.0, self.rules, _REACH.get
        mounted = unit.vehicle is not None
        last: tuple[str, ...] | None = None
        last_used = False
        for m in unit.alive_models:
            weapons, used = m.weapons, m.used_one_shot
            if weapons is last and used is last_used:
                continue  # armed as the model before it (models of a kind share the tuple)
            last, last_used = weapons, used
            most = known((rules, weapons, used, moving, mounted))
            if most is None:
                most = self._reach(weapons, used, moving, mounted)
            if most > reach:
                reach = most
        return reach

    def _reach(
        self, weapons: tuple[str, ...], used_one_shot: bool, moving: bool, mounted: bool
    ) -> float:
        """The longest range among a model's weapons that can fire now (0 if none)."""
        key = (self.rules, weapons, used_one_shot, moving, mounted)
        reach = _REACH.get(key)
        if reach is None:
            reach = 0.0
            for name in weapons:
                w = self.rules.weapon(name)
                if (not moving or fires_on_the_move(w, mounted=mounted)) and not spent(
                    w, used_one_shot
                ):
                    reach = max(reach, float(w.range))
            _REACH.keep(key, reach)
        return reach

    def shooting_groups(
        self, unit: UnitState, target: UnitState, *, moving: bool, origin: Point | None = None
    ) -> list[Group]:
        """Every shot the unit's models can fire at ``target`` (per weapon and range).

        Sets :attr:`one_shots_fired` to the models whose one-shot weapon these groups fire.
        Remembered by everything the answer depends on, so a repeated question is cheap.
        """
        groups, fired = self._groups_found(unit, target, moving, origin)
        alive = unit.alive_models
        self.one_shots_fired = [alive[i] for i in fired]
        return list(groups)

    def shot_groups(
        self,
        unit: UnitState,
        target: UnitState,
        *,
        moving: bool,
        origin: Point | None = None,
        heading: float | None = None,
    ) -> tuple[Group, ...]:
        """:meth:`shooting_groups` as a tuple, for weighing a shot that is not fired: it
        leaves :attr:`one_shots_fired` alone and copies nothing. A vehicle's ``heading``,
        if given, is the one it would fire with (after a move that turns it)."""
        return self._groups_found(unit, target, moving, origin, heading)[0]

    def _groups_found(
        self,
        unit: UnitState,
        target: UnitState,
        moving: bool,
        origin: Point | None,
        heading: float | None = None,
    ) -> tuple[tuple[Group, ...], tuple[int, ...]]:
        """:meth:`_shooting_groups`, remembered (in the table's store) by all it reads
        (a troops target's pins only a vehicle's shots read: see :func:`_planned`)."""
        vehicle, ours = target.vehicle, unit._places()  # (coords and arms at one look)
        if heading is None:
            heading = unit.heading
        key = (
            self.rules,
            moving,
            None if origin is None else (origin.x, origin.y),
            ours.coords,
            ours.arms,
            unit.vehicle,
            heading,
            unit.pins,
            unit.quality,
            unit.ranged_in_on == target.uid,
            target.uid,
            target.coords,
            vehicle,
            target.heading,
            target.is_down,
            target.start_models,
            None if vehicle is None else (target.pins, target.immobilised),
            target.quality,
        )
        memo = self.table.memo("shooting groups")
        found: tuple[tuple[Group, ...], tuple[int, ...]] | None = memo.get(key)
        if found is None:
            found = memo[key] = self._shooting_groups(unit, target, moving, origin, heading)
        return found

    def _shooting_groups(
        self,
        unit: UnitState,
        target: UnitState,
        moving: bool,
        origin: Point | None,
        heading: float | None = None,
    ) -> tuple[tuple[Group, ...], tuple[int, ...]]:
        """The groups, and the indices (in ``alive_models``) of the one-shot firers.

        Each model fires the weapons :meth:`model_shots` picks, at the nearest target model
        it sees; one carrying a mortar that sees none, with its mortar alone, at the nearest
        one any man of its team sees (:meth:`team_sight`). Its pick depends on the
        model's place only through the range bands of its weapons (and, for vehicles,
        facing and arcs), so it is remembered by those (see :func:`range_marks`) with
        everything about this firer and target that it reads.
        """
        if heading is None:  # a vehicle's arcs are from its own heading unless given
            heading = unit.heading
        ours, theirs = unit._places(), target._places()  # (each unit's places at one look)
        alive, aims, anchor = ours.alive, theirs.alive, ours.anchor
        if not alive or not aims:
            return (), ()
        if origin:
            dx, dy = origin.x - anchor.x, origin.y - anchor.y
            flat = tuple([c for m in alive for c in (m.x + dx, m.y + dy)])
        else:
            dx, dy = 0.0, 0.0
            flat = ours.coords
        # each model's nearest target model in sight (the first of equals)
        in_sight, spotted = self.team_sight(flat, theirs.coords, alive)
        rules, vehicle, firer = self.rules, target.vehicle, unit.vehicle
        # the models with a target model in sight within their longest reach
        able: list[tuple[int, Model, int, float, tuple[float, ...], bool]] = []
        known = _MARKS.get
        for i, model in enumerate(alive):
            seen = in_sight[i]
            if seen is not None:
                found = known((rules, model.weapons))
                marks, reach = found or range_marks(rules, model.weapons)
                if seen[1] <= reach:
                    able.append((i, model, seen[0], seen[1], marks, i in spotted))
        if not able:
            return (), ()
        tgt_profile = infantry_target(rules, target.quality) if vehicle is None else vehicle.target
        shooter = Point(anchor.x + dx, anchor.y + dy)
        cover = unit_cover(
            rules, self.table, shooter, target
        )  # (a vehicle's too: "Target is in cover")
        context = (
            rules,
            tgt_profile,
            vehicle is None,
            firer is None,
            len(alive) < 2,
            moving,
            unit.pins,
            unit.quality,
            unit.ranged_in_on == target.uid,
            target.is_down,
            target.start_models <= 2,
            cover,
            bool(vehicle and vehicle.open_topped),
            bool(vehicle and vehicle.automaton),
            # what only a vehicle's shots read (see _planned): at troops their pins,
            # quality (tgt_profile says it) and size change no model's choice
            None
            if vehicle is None
            else (target.pins, target.quality, len(aims), target.immobilised),
        )
        number = _CONTEXTS.get(context)
        if number is None:  # (a number is never given again, so _CHOICES stays right)
            number = _CONTEXTS.keep(context, next(_NUMBERS))
        counts: dict[Shot, int] = {}
        fired: list[int] = []
        choices = _CHOICES.get
        facing = "front"  # what an infantry firer's shots at troops see
        bearing: tuple[bool, ...] = ()
        for i, model, j, rng, marks, by_spotter in able:
            weapons = model.weapons
            if vehicle or firer:  # only these read the model's place beyond its range
                at = Point(model.x + dx, model.y + dy)
                nearest = aims[j].point
                if vehicle:
                    facing = facing_hit(target.heading, theirs.anchor, at)
                if firer:  # each mount's own arc, in the order of the model's weapons
                    bearing = tuple([in_arc(arc, heading, at, nearest) for _, arc in firer.arcs])
            key = (
                number,
                weapons,
                model.used_one_shot,
                bisect_left(marks, rng),
                bisect_right(marks, rng),
                facing,
                bearing,
                by_spotter,
            )
            chosen = choices(key)
            if chosen is None:
                at, nearest = Point(model.x + dx, model.y + dy), aims[j].point
                chosen = self.model_shots(
                    unit,
                    target,
                    model,
                    moving,
                    at,
                    nearest,
                    rng,
                    cover,
                    tgt_profile,
                    facing,
                    heading=heading,
                    by_spotter=by_spotter,
                )
                _CHOICES.keep(key, chosen)
            for shot, per, once in chosen:  # (once: its one-shot weapon)
                counts[shot] = counts.get(shot, 0) + per
                if once:
                    fired.append(i)
        return tuple([Group(shot, n) for shot, n in counts.items()]), tuple(fired)

    def team_sight(
        self, flat: tuple[float, ...], aims: tuple[float, ...], alive: Sequence[Model]
    ) -> tuple[tuple[tuple[int, float] | None, ...], tuple[int, ...]]:
        """For each of a unit's live models (``alive``, standing at ``flat``), the target
        model (of those at ``aims``) it fires at and how far it is, or None: the nearest
        it sees, or, for a man with a mortar who sees none, the nearest any other man of
        his team sees (:meth:`_spotted`); and the indices of those who fire by another's
        eyes. The game's shooting and the reasons it gives none both ask this."""
        in_sight = self.table.nearest_in_sight(flat, aims)
        if len(alive) > 1 and None in in_sight:
            return self._spotted(flat, aims, alive, in_sight)
        return in_sight, ()

    def _spotted(
        self,
        flat: tuple[float, ...],
        aims: tuple[float, ...],
        alive: Sequence[Model],
        in_sight: tuple[tuple[int, float] | None, ...],
    ) -> tuple[tuple[tuple[int, float] | None, ...], tuple[int, ...]]:
        """``in_sight`` (each model's nearest target model in its sight, from its place in
        ``flat``), with each model that sees none but carries a mortar given the target
        model nearest it that any other man of its team sees (the spotter's eyes:
        :func:`spotting`; the range still from the mortar), and those models' indices.
        Unchanged where no such model, or no man of the team, sees the target."""
        rules = self.rules
        blind = [
            i for i, s in enumerate(in_sight) if s is None and spotting(rules, alive[i].weapons)
        ]
        lookouts = [i for i, s in enumerate(in_sight) if s is not None]
        if not blind or not lookouts:
            return in_sight, ()
        marks = [Point(aims[j], aims[j + 1]) for j in range(0, len(aims), 2)]
        eyes = [Point(flat[2 * i], flat[2 * i + 1]) for i in lookouts]
        sights = self.table.visibility(eyes, marks)
        seen = [bool(sights[:, j].any()) for j in range(len(marks))]
        found = list(in_sight)
        for i in blind:
            x, y = flat[2 * i], flat[2 * i + 1]
            found[i] = min(
                [(j, math.hypot(p.x - x, p.y - y)) for j, p in enumerate(marks) if seen[j]],
                key=lambda jd: jd[1],  # (the first of equals, as nearest_in_sight)
            )
        return tuple(found), tuple(blind)

    def model_shots(
        self,
        unit: UnitState,
        target: UnitState,
        model: Model,
        moving: bool,
        at: Point,
        nearest: Point,
        rng: float,
        cover: str,
        tgt_profile: Target,
        facing: str,
        *,
        every_arc: bool = False,
        heading: float | None = None,
        by_spotter: bool = False,
    ) -> tuple[tuple[Shot, int, bool], ...]:
        """What one model at ``at`` fires at ``target`` (nearest model ``rng`` away):
        every weapon that can for a vehicle, else the one best at this target.

        Unless the model is a vehicle's (whose arcs read ``at``), its place counts only
        through ``rng`` (its band among :func:`range_marks`) and ``cover``, besides the
        shooting context: this game's shot memo and the tactical AI's caps on shots at
        troops both rely on that. With ``every_arc`` a vehicle's mounts all bear, as if
        the target were in each one's arc: what it could fire from any place (the AI's
        caps; the game never asks so). A vehicle's arcs are from ``heading`` (its own if
        None). ``by_spotter``: the model does not see the target itself, which another man
        of its team sees, so fires only a weapon that may (:func:`spotting`: a mortar)."""
        rules = self.rules
        if heading is None:
            heading = unit.heading
        # a vehicle's model carries its weapons in the order of its mounts, each with its arc
        # (two mounts of one weapon, as a hull and a turret MMG, each keep their own)
        arcs = [arc for _, arc in unit.vehicle.arcs] if unit.vehicle else []
        carried = spotting(rules, model.weapons) if by_spotter else model.weapons
        if model.used_one_shot or (unit.vehicle and not every_arc):
            carried = tuple(
                name
                for k, name in enumerate(model.weapons)
                if name in carried
                and not spent(rules.weapon(name), model.used_one_shot)
                and not (
                    unit.vehicle and not every_arc and not in_arc(arcs[k], heading, at, nearest)
                )
            )
        if not carried:
            return ()
        return weapon_choice(
            rules,
            carried,
            self.shot_situation(unit, target, rng, moving=moving, cover=cover, facing=facing),
            tgt_profile,
            at_vehicle=target.vehicle is not None,
            crew_short=one_crew_left(unit),
        )

    def shot_situation(
        self,
        unit: UnitState,
        target: UnitState,
        rng: float,
        *,
        moving: bool,
        cover: str,
        facing: str = "front",
    ) -> Situation:
        """The situation of a shot by ``unit`` at ``target`` (its nearest model ``rng``
        away, in ``cover``, hit on ``facing``): as each model's shot is planned."""
        return aimed_at(
            target,
            rng,
            firer_pins=unit.pins,
            firer_inexperienced=unit.quality == "inexperienced",
            moving=moving,
            mounted=unit.vehicle is not None,
            cover=cover,
            facing=facing,
            ranged_in=unit.ranged_in_on == target.uid,
        )


def one_crew_left(unit: UnitState) -> bool:
    """Whether a team weapon of ``unit`` has one man left to fire it (troops, not a
    vehicle, down to one live model)."""
    return len(unit.alive_models) < 2 and unit.vehicle is None


def crewed(situation: Situation, weapon: Weapon, short: bool) -> Situation:
    """``situation`` as ``weapon`` is fired in it: a team weapon whose crew is down to one
    man (``short``) fires at -1 (the hit modifier ``one_crew``, counted like a pin)."""
    if short and "Team" in weapon.special:
        return replace(situation, one_crew=True)
    return situation


def weapon_choice(
    rules: Rules,
    weapons: tuple[str, ...],
    situation: Situation,
    tgt_profile: Target,
    *,
    at_vehicle: bool,
    crew_short: bool = False,
) -> tuple[tuple[Shot, int, bool], ...]:
    """What one model carrying ``weapons`` fires in ``situation`` (its range, its moving,
    its being a vehicle's): (shot, shots, one-shot) for every weapon that can if it is a
    vehicle's, else for the one best at this target (:func:`_worth`). A team weapon whose
    crew is down to one man (``crew_short``) fires at -1. The game, the tactical player and
    the play aid's odds all pick so."""
    rng, moving, mounted = situation.range_inches, situation.moving, situation.mounted
    options: list[tuple[Shot, int, bool]] = []
    for name in weapons:
        weapon = rules.weapon(name)
        if moving and not fires_on_the_move(weapon, mounted=mounted):
            continue
        if not in_range(weapon, rng):
            continue
        own = crewed(situation, weapon, crew_short)
        per = shots_per_model(weapon)
        shot = _planned(rules, weapon, tgt_profile, own)
        if weapon.indirect_min_range is not None and in_range(weapon, rng, indirect=True):
            # a howitzer may lob it instead: its crew takes the way that hits more
            # easily, and on equal chances the lob (a hit ranges the crew in)
            lobbed = _planned(rules, weapon, tgt_profile, replace(own, indirect=True))
            if lobbed is not None and (
                shot is None or hit_chance(lobbed.hit_on) >= hit_chance(shot.hit_on)
            ):
                shot = lobbed
        if shot is not None and shot.hit_on is not None:
            options.append((shot, per, one_shot(weapon)))
    if not options:
        return ()
    # a vehicle fires all its weapons; a man fires one: the best at this target
    if mounted:
        return tuple(options)
    return (max(options, key=lambda o: _worth(o, at_vehicle)),)
