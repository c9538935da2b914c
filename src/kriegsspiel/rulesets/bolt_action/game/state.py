"""A whole game of Konflikt '47 or Bolt Action 1st edition, in the OpenSpiel shape.

The order-dice bag is a chance node (``chance_outcomes`` gives each side's exact chance of
the next die); every other roll the rules call for is made with the game's own seeded
dice and written to the event log. Decisions are :class:`Action` values: the player whose
die was drawn picks a unit and an order; Konflikt '47 targets may react; ambushers may
fire. An illegal action raises :class:`IllegalActionError` and changes nothing.
"""

from __future__ import annotations

import copy
import math
from bisect import bisect_left, bisect_right
from dataclasses import replace
from functools import lru_cache
from itertools import count
from operator import attrgetter
from typing import Any

from kriegsspiel.core.dice import DiceExpr
from kriegsspiel.core.game import CHANCE, TERMINAL, Event, IllegalActionError
from kriegsspiel.core.procedure import Dice, RandomDice
from kriegsspiel.core.scenario import Scenario
from kriegsspiel.core.table import MEMO_LIMIT, Point, Table, shared_table
from kriegsspiel.core.table import TerrainFeature as TableFeature
from kriegsspiel.errors import UnknownNameError, UsageError
from kriegsspiel.rulesets.bolt_action.army import ArmyList
from kriegsspiel.rulesets.bolt_action.attack import (
    TroopsContext,
    attack_troops,
    attack_vehicle,
)
from kriegsspiel.rulesets.bolt_action.data import Weapon
from kriegsspiel.rulesets.bolt_action.edition import Rules, Target, rules_for
from kriegsspiel.rulesets.bolt_action.game.actions import Action, Pending
from kriegsspiel.rulesets.bolt_action.game.close_quarters import assault, fight
from kriegsspiel.rulesets.bolt_action.game.deployment import deploy
from kriegsspiel.rulesets.bolt_action.game.support import SUPPORT, Delayed, call, resolve
from kriegsspiel.rulesets.bolt_action.game.table_rules import (
    check_move,
    facing_hit,
    heading_to,
    in_arc,
    movement_row,
    unit_cover,
)
from kriegsspiel.rulesets.bolt_action.game.units import Model, UnitState, build_units, credit
from kriegsspiel.rulesets.bolt_action.game.validation import check_action
from kriegsspiel.rulesets.bolt_action.morale import (
    MoraleTest,
    destroyed_by_pins,
    losses_force_test,
    morale_check,
    new_test,
    order_test,
)
from kriegsspiel.rulesets.bolt_action.shooting import (
    Group,
    Shot,
    Situation,
    VehicleProfile,
    check_range,
    fires_on_the_move,
    infantry_target,
    plan_shot,
    range_bands,
    vehicle_profile,
)

OBJECTIVE_REACH = 3.0  # inches: a unit this close holds an objective (assumption)
SHOCKWAVE_WIDTH = (
    0.5  # inches either side of a Shockwave's line that count as under it (assumption)
)
OFFICER_RANGE = {"Second Lieutenant": 6.0, "First Lieutenant": 6.0, "Captain": 12.0, "Major": 12.0}


def _held(unit: UnitState) -> str | None:
    """The Down or Ambush order a unit holds (given this turn or kept from the last)."""
    for order in (unit.order, unit.retained):
        if order in ("Down", "Ambush"):
            return order
    return None


def _worth(option: tuple[Shot, int, bool], target: UnitState) -> tuple[float, ...]:
    """How a man picks his weapon: against armour the best pen, else the most expected hits;
    a one-shot weapon is kept for armour."""
    shot, per, one_shot = option
    p = 1.0
    for need in shot.hit_on or ():
        p *= max(0, 7 - need) / 6
    hits = p * per * _mean(shot.hits_per_hit)
    if target.vehicle is not None and target.vehicle.target.kind == "armoured":
        return (shot.pen is not None, shot.pen or 0, hits)
    return (1.0, 0.0, hits * (0.5 if one_shot else 1.0) * max(0, 7 - shot.damage_need) / 6)


_REACH: dict[tuple[Rules, tuple[str, ...], bool, bool, bool], float] = {}  # see _reach
_GAPS: dict[Any, float] = {}  # gaps between sets of model places, see gap
_SHOTS: dict[Any, Shot | None] = {}  # planned shots, see _planned
# what plan_shot reads of a situation beyond its range: at a vehicle all but the target's
# size; at troops not the target's pins, quality (its Target says that), facing or armour
_AT_VEHICLE = attrgetter(
    *(f for f in Situation.__dataclass_fields__ if f not in ("range_inches", "target_models"))
)
_AT_TROOPS = attrgetter(
    "firer_pins",
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
    the parts of the situation plan_shot reads at this kind of target."""
    try:
        check_range(rules, weapon, situation)
    except UsageError:
        return None
    key = (
        rules,
        weapon.name,
        target,
        _AT_VEHICLE(situation) if target.is_vehicle else _AT_TROOPS(situation),
        range_bands(rules, weapon, situation.range_inches),
    )
    if key in _SHOTS:
        return _SHOTS[key]
    try:
        shot: Shot | None = plan_shot(rules, weapon, target, situation)[0]
    except Exception:
        shot = None
    if len(_SHOTS) >= MEMO_LIMIT:
        _SHOTS.clear()
    _SHOTS[key] = shot
    return shot


_MARKS: dict[tuple[Rules, tuple[str, ...]], tuple[tuple[float, ...], float]] = {}
# what a model fires, by the shooting's context (numbered, never twice) and the model's
# weapons and range band: see BoltActionGame._shooting_groups
_CONTEXTS: dict[Any, int] = {}
_CHOICES: dict[Any, tuple[tuple[Shot, int, bool], ...]] = {}
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
        found = tuple(sorted(marks)), reach
        if len(_MARKS) >= MEMO_LIMIT:
            _MARKS.clear()
        _MARKS[key] = found
    return found


@lru_cache(maxsize=64)
def _mean(expr: DiceExpr) -> float:
    return float(expr.dist().mean())


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    """Distance from p to the segment a-b."""
    dx, dy = b.x - a.x, b.y - a.y
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length))
    return math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy))


class BoltActionGame:
    """One game: two armies on a scenario's table, played turn by turn to a result."""

    def __init__(
        self,
        ruleset: str,
        scenario: Scenario,
        armies: tuple[ArmyList, ArmyList],
        seed: int = 0,
        *,
        rules_file: str | None = None,
    ) -> None:
        self.rules: Rules = rules_for(ruleset, rules_file)
        self.ruleset = ruleset
        self.scenario = scenario
        self.seed = seed
        self.dice: Dice = RandomDice(seed)
        table = Table(
            width=scenario.table.width,
            height=scenario.table.height,
            features=tuple(
                TableFeature(
                    name=f.name,
                    category=f.category,
                    cover=f.cover,
                    polygon=tuple((p[0], p[1]) for p in f.polygon),
                    blocks_line_of_sight=f.blocks_line_of_sight,
                )
                for f in scenario.terrain
            ),
        )
        self.table = shared_table(table)  # games on one scenario share what it has worked out
        self.units: list[UnitState] = []
        for side, army in enumerate(armies):
            self.units += build_units(self.rules, army, side, len(self.units))
        self.turn = 1
        self.drawn: int | None = None
        self.pending: Pending | None = None
        self.delayed: list[Delayed] = []  # barrages and air strikes rolling again next turn
        # at a turn's end: the units still to say whether they keep a Down or Ambush die,
        # and those that keep it (tuples: a clone shares them safely)
        self.retaining: tuple[int, ...] = ()
        self.keeping: tuple[int, ...] = ()
        self.one_shots_fired: list[Any] = []
        self.over = False
        self._events: list[Event] = []
        deploy(self)
        self.log(
            "start",
            ruleset=ruleset,
            scenario=scenario.name,
            turns=scenario.turns,
            seed=seed,
            armies=[a.name for a in armies],
        )

    # ------------------------------------------------------------------ protocol
    @property
    def events(self) -> list[Event]:
        return self._events

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.pending is not None:
            return self.pending.side
        if self.drawn is None:
            return CHANCE
        return self.drawn

    def is_terminal(self) -> bool:
        return self.over

    def eligible(self, side: int) -> list[UnitState]:
        """Units of ``side`` whose die is still in the bag."""
        return [
            u
            for u in self.units
            if u.side == side and not u.destroyed and u.order is None and u.retained is None
        ]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.current_player() != CHANCE:
            return []
        counts = [len(self.eligible(0)), len(self.eligible(1))]
        total = sum(counts)
        return [(Action("draw", side=s), counts[s] / total) for s in (0, 1) if counts[s]]

    def legal_actions(self) -> list[Action]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if self.pending is not None:
            return self.pending_choices()
        from kriegsspiel.rulesets.bolt_action.game.candidates import order_candidates

        return [a for u in self.eligible(player) for a in order_candidates(self, u)]

    def apply_action(self, action: Action) -> None:
        """Carry out a decision or chance outcome; illegal ones raise and change nothing."""
        self.validate(action)
        if action.kind == "draw":
            self.drawn = action.side
            self.log("draw", side=action.side)
            return
        if action.kind in ("react", "ambush", "retain"):
            self._resume(action)
        else:
            self.log("order", **{k: v for k, v in action.to_json().items() if k != "kind"})
            self._carry_out(action)
        self._after_action()

    def returns(self) -> tuple[float, float]:
        if not self.over:
            return (0.0, 0.0)
        a, b = self.score()
        if a == b:
            return (0.0, 0.0)
        return (1.0, -1.0) if a > b else (-1.0, 1.0)

    def deciding_units(self) -> list[int]:
        """The units whose decision the game waits for: the one reacting or choosing to keep
        its die, or the ambushers who may fire (none while an order or a draw is awaited)."""
        if self.pending is None:
            return []
        return sorted({a.unit for a in self.pending_choices() if a.unit >= 0})

    def observation(self) -> dict[str, Any]:
        """The position as plain data (JSON-ready), as both players see it: everything on
        the table is open information, and so is the bag (how many dice each side has in
        it). For agents and tools that want the state without the engine's objects."""
        player = self.current_player()
        if self.pending is not None:
            deciding = self.pending.kind
        else:
            deciding = {CHANCE: "draw", TERMINAL: "game over"}.get(player, "order")
        return {
            "ruleset": self.ruleset,
            "turn": self.turn,
            "turns": self.scenario.turns,
            "to_move": player,
            "decision": deciding,
            "units_to_decide": self.deciding_units(),
            # at a reaction, an ambush or a keep-or-return choice: the order it is about
            "pending_order": None if self.pending is None else self.pending.action.to_json(),
            "dice_in_bag": [len(self.eligible(0)), len(self.eligible(1))],
            "score": list(self.score()),
            "table": [self.table.width, self.table.height],
            "terrain": [  # wrecks included: they are terrain once a vehicle is knocked out
                {
                    "name": f.name,
                    "category": f.category,
                    "cover": f.cover,
                    "blocks_line_of_sight": f.blocks_line_of_sight,
                    "polygon": [list(p) for p in f.polygon],
                }
                for f in self.table.features
            ],
            "deployment": [  # "side" is 0 or 1 as everywhere here; "name" the scenario's
                {
                    "side": self.scenario.sides().index(z.side),
                    "name": z.side,
                    "polygon": [list(p) for p in z.polygon],
                }
                for z in self.scenario.deployment
            ],
            "objectives": [
                {"name": o.name, "x": o.x, "y": o.y, "points": o.points}
                for o in self.scenario.objectives
            ],
            "units": [
                {
                    "uid": u.uid,
                    "side": u.side,
                    "name": u.name,
                    "kind": u.kind,
                    "quality": u.quality,
                    "points": u.points,
                    "models": len(u.alive_models),
                    "start_models": u.start_models,
                    "x": round(u.anchor.x, 3),
                    "y": round(u.anchor.y, 3),
                    "heading": u.heading,
                    "pins": u.pins,
                    "order": u.order,
                    "retained": u.retained,
                    "destroyed": u.destroyed,
                    "vehicle": u.vehicle is not None,
                    "immobilised": u.immobilised,
                    "moved": u.moved,
                    "ranged_in_on": u.ranged_in_on,
                    "support_used": u.support_used,
                    "no_run": u.no_run,
                    "living_models": [
                        {
                            "name": m.name,
                            "x": round(m.x, 3),
                            "y": round(m.y, 3),
                            "weapons": list(m.weapons),
                            "officer": m.officer,
                            "nco": m.nco,
                            "used_one_shot": m.used_one_shot,
                        }
                        for m in u.alive_models
                    ],
                }
                for u in self.units
            ],
        }

    def clone(self) -> BoltActionGame:
        twin = copy.copy(self)
        twin.units = [u.copy() for u in self.units]
        twin.dice = copy.deepcopy(self.dice)
        twin._events = list(self._events)
        twin.pending = copy.copy(self.pending)
        twin.delayed = list(self.delayed)  # a barrage called in one must not appear in the other
        return twin

    # ------------------------------------------------------------------ validation
    def is_legal(self, action: Action) -> bool:
        """Whether ``apply_action`` would take the action (it need not be one of
        ``legal_actions``, which offers a sensible set of moves, not every place)."""
        try:
            self.validate(action)
        except IllegalActionError:
            return False
        return True

    def validate(self, action: Action) -> None:
        """Raise IllegalActionError, saying why, unless the action can be taken now."""
        check_action(self, action)

    # ------------------------------------------------------------------ geometry
    def gap(self, a: UnitState, b: UnitState) -> float:
        """The closest distance between the two units' models (inches), remembered by
        their live models' places."""
        key = (a.coords, b.coords)
        found: float | None = _GAPS.get(key)
        if found is None:
            xy, uv = key
            ours = [(xy[i], xy[i + 1]) for i in range(0, len(xy), 2)]
            theirs = [(uv[i], uv[i + 1]) for i in range(0, len(uv), 2)]
            found = min((math.dist(p, q) for p in ours for q in theirs), default=float("inf"))
            if len(_GAPS) >= MEMO_LIMIT:
                _GAPS.clear()
            _GAPS[key] = found
        return found

    def visible(self, a: UnitState, b: UnitState, origin: Point | None = None) -> bool:
        starts = [origin] if origin else [m.point for m in a.alive_models]
        return any(self.table.line_of_sight(s, n.point) for s in starts for n in b.alive_models)

    def can_shoot(
        self, unit: UnitState, target: UnitState, *, moving: bool, origin: Point | None = None
    ) -> bool:
        """A quick test: could any model fire any weapon at ``target`` (range and sight)?"""
        return self.can_shoot_each(unit, [target], moving=moving, origin=origin)[0]

    def can_shoot_each(
        self,
        unit: UnitState,
        targets: list[UnitState],
        *,
        moving: bool,
        origin: Point | None = None,
    ) -> list[bool]:
        """:meth:`can_shoot` for each of ``targets`` in turn."""
        if origin:
            anchor = unit.anchor
            dx, dy = origin.x - anchor.x, origin.y - anchor.y
        else:
            dx, dy = 0.0, 0.0
        alive = unit.alive_models
        reach, rules, known = 0.0, self.rules, _REACH.get
        mounted = unit.vehicle is not None
        last: tuple[str, ...] | None = None
        last_used = False
        for m in alive:
            weapons, used = m.weapons, m.used_one_shot
            if weapons is last and used is last_used:
                continue  # armed as the model before it (models of a kind share the tuple)
            last, last_used = weapons, used
            most = known((rules, weapons, used, moving, mounted))
            if most is None:
                most = self._reach(weapons, used, moving, mounted)
            if most > reach:
                reach = most
        if reach == 0:
            return [False] * len(targets)
        origins = (
            unit.coords
            if origin is None
            else tuple([c for m in alive for c in (m.x + dx, m.y + dy)])
        )
        return self.table.sees_within_each(origins, [t.coords for t in targets], reach)

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
                if (not moving or fires_on_the_move(w, mounted=mounted)) and not (
                    used_one_shot and "One-shot" in w.special
                ):
                    reach = max(reach, float(w.range))
            _REACH[key] = reach
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
        self, unit: UnitState, target: UnitState, *, moving: bool, origin: Point | None = None
    ) -> tuple[Group, ...]:
        """:meth:`shooting_groups` as a tuple, for weighing a shot that is not fired: it
        leaves :attr:`one_shots_fired` alone and copies nothing."""
        return self._groups_found(unit, target, moving, origin)[0]

    def _groups_found(
        self, unit: UnitState, target: UnitState, moving: bool, origin: Point | None
    ) -> tuple[tuple[Group, ...], tuple[int, ...]]:
        """:meth:`_shooting_groups`, remembered (in the table's store) by all it reads
        (a troops target's pins only a vehicle's shots read: see :func:`_planned`)."""
        vehicle = target.vehicle
        key = (
            self.rules,
            moving,
            None if origin is None else (origin.x, origin.y),
            unit.coords,
            tuple([(m.weapons, m.used_one_shot) for m in unit.alive_models]),
            unit.vehicle,
            unit.heading,
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
            found = memo[key] = self._shooting_groups(unit, target, moving, origin)
        return found

    def _shooting_groups(
        self, unit: UnitState, target: UnitState, moving: bool, origin: Point | None
    ) -> tuple[tuple[Group, ...], tuple[int, ...]]:
        """The groups, and the indices (in ``alive_models``) of the one-shot firers.

        Each model fires the weapons :meth:`model_shots` picks. Its pick depends on the
        model's place only through the range bands of its weapons (and, for vehicles,
        facing and arcs), so it is remembered by those (see :func:`range_marks`) with
        everything about this firer and target that it reads.
        """
        alive = unit.alive_models
        aims = target.alive_models
        if not alive or not aims:
            return (), ()
        if origin:
            anchor = unit.anchor
            dx, dy = origin.x - anchor.x, origin.y - anchor.y
            flat = tuple([c for m in alive for c in (m.x + dx, m.y + dy)])
        else:
            dx, dy = 0.0, 0.0
            flat = unit.coords
        # each model's nearest target model in sight (the first of equals)
        in_sight = self.table.nearest_in_sight(flat, target.coords)
        rules, vehicle, firer = self.rules, target.vehicle, unit.vehicle
        # the models with a target model in sight within their longest reach
        able: list[tuple[int, Model, int, float, tuple[float, ...]]] = []
        known = _MARKS.get
        for i, model in enumerate(alive):
            seen = in_sight[i]
            if seen is not None:
                found = known((rules, model.weapons))
                marks, reach = found or range_marks(rules, model.weapons)
                if seen[1] <= reach:
                    able.append((i, model, seen[0], seen[1], marks))
        if not able:
            return (), ()
        tgt_profile = infantry_target(rules, target.quality) if vehicle is None else vehicle.target
        anchor = unit.anchor
        shooter = Point(anchor.x + dx, anchor.y + dy)
        cover = unit_cover(self.table, shooter, target) if vehicle is None else "none"
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
        if number is None:
            if len(_CONTEXTS) >= MEMO_LIMIT:
                _CONTEXTS.clear()  # a number is never given again, so _CHOICES stays right
            number = _CONTEXTS[context] = next(_NUMBERS)
        counts: dict[Shot, int] = {}
        fired: list[int] = []
        choices = _CHOICES.get
        facing = "front"  # what an infantry firer's shots at troops see
        bearing: tuple[bool, ...] = ()
        for i, model, j, rng, marks in able:
            weapons = model.weapons
            if vehicle or firer:  # only these read the model's place beyond its range
                at = Point(model.x + dx, model.y + dy)
                nearest = aims[j].point
                if vehicle:
                    facing = facing_hit(target.heading, target.anchor, at)
                if firer:  # each mount's own arc, in the order of the model's weapons
                    bearing = tuple(
                        [in_arc(arc, unit.heading, at, nearest) for _, arc in firer.arcs]
                    )
            key = (
                number,
                weapons,
                model.used_one_shot,
                bisect_left(marks, rng),
                bisect_right(marks, rng),
                facing,
                bearing,
            )
            chosen = choices(key)
            if chosen is None:
                if len(_CHOICES) >= MEMO_LIMIT:
                    _CHOICES.clear()
                at, nearest = Point(model.x + dx, model.y + dy), aims[j].point
                chosen = _CHOICES[key] = self.model_shots(
                    unit, target, model, moving, at, nearest, rng, cover, tgt_profile, facing
                )
            for shot, per, one_shot in chosen:
                counts[shot] = counts.get(shot, 0) + per
                if one_shot:
                    fired.append(i)
        return tuple([Group(shot, n) for shot, n in counts.items()]), tuple(fired)

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
    ) -> tuple[tuple[Shot, int, bool], ...]:
        """What one model at ``at`` fires at ``target`` (nearest model ``rng`` away):
        every weapon that can for a vehicle, else the one best at this target.

        Unless the model is a vehicle's (whose arcs read ``at``), its place counts only
        through ``rng`` (its band among :func:`range_marks`) and ``cover``, besides the
        shooting context: this game's shot memo and the tactical AI's caps on shots at
        troops both rely on that."""
        rules, vehicle = self.rules, target.vehicle
        # a vehicle's model carries its weapons in the order of its mounts, each with its arc
        # (two mounts of one weapon, as a hull and a turret MMG, each keep their own)
        arcs = [arc for _, arc in unit.vehicle.arcs] if unit.vehicle else []
        options: list[tuple[Shot, int, bool]] = []
        base: Situation | None = None  # the same for each weapon of this model
        for k, name in enumerate(model.weapons):
            weapon = rules.weapon(name)
            special = set(weapon.special)
            if moving and not fires_on_the_move(weapon, mounted=unit.vehicle is not None):
                continue
            if model.used_one_shot and "One-shot" in special:
                continue
            if unit.vehicle and not in_arc(arcs[k], unit.heading, at, nearest):
                continue
            if rng > weapon.range or rng < weapon.min_range:
                continue
            if base is None:
                base = Situation(
                    range_inches=rng,
                    firer_pins=unit.pins,
                    firer_inexperienced=unit.quality == "inexperienced",
                    moving=moving,
                    mounted=unit.vehicle is not None,
                    target_down=target.is_down and vehicle is None,
                    small_unit=vehicle is None and target.start_models <= 2,
                    cover=cover,  # type: ignore[arg-type]
                    facing=facing,  # type: ignore[arg-type]
                    ranged_in=unit.ranged_in_on == target.uid,
                    open_topped=bool(vehicle and vehicle.open_topped),
                    automaton=bool(vehicle and vehicle.automaton),
                    target_pins=target.pins,
                    target_quality=target.quality,
                    target_models=len(target.alive_models),
                    target_immobilised=vehicle is not None and target.immobilised,
                )
            situation = base
            if "Team" in special and len(unit.alive_models) < 2 and unit.vehicle is None:
                situation = replace(situation, firer_pins=situation.firer_pins + 1)  # one crew: -1
            per = 1 if ("Flamethrower" in special or "Shockwave" in special) else int(weapon.shots)
            ways = [situation]
            if weapon.indirect_min_range is not None and rng >= weapon.indirect_min_range:
                ways.append(replace(situation, indirect=True))  # a howitzer may lob it
            for way in ways:
                shot = _planned(rules, weapon, tgt_profile, way)
                if shot is not None and shot.hit_on is not None:
                    options.append((shot, per, "One-shot" in special))
        if not options:
            return ()
        # a vehicle fires all its weapons; a man fires one: the best at this target
        if unit.vehicle:
            return tuple(options)
        return (max(options, key=lambda o: _worth(o, target)),)

    # ------------------------------------------------------------------ carrying out orders
    def _carry_out(self, action: Action) -> None:
        unit = self.units[action.unit]
        unit.no_run = False  # a gravity pulse stops only the next activation's Run
        test = self._order_test(unit, action)
        result = order_test(self.dice, self.rules, test)
        if result != "no test":
            self.log("order test", unit=unit.uid, needs=test.value, result=result)
        if result == "fail":
            unit.order = "Down"
            return
        if result == "friendly fire":
            self._friendly_fire(unit)
            return
        if result == "panic":
            self._panic(unit)
            return
        unit.order = action.order
        if action.order == "Rally":
            lost = min(unit.pins, self.dice.roll(6))
            unit.pins -= lost
            self.log("rally", unit=unit.uid, pins_lost=lost)
        elif action.order == "Fire" and action.choice in SUPPORT and action.target is not None:
            call(self, unit, self.units[action.target], action.choice)
        elif action.order in ("Fire", "Advance", "Run"):
            if action.order == "Run" and action.target is not None:
                assault(self, unit, action)
                return
            if action.to is not None:
                self.move_unit(unit, Point(*action.to), run=action.order == "Run")
                if self._ambush_check(unit, action):
                    return
            if action.target is not None and action.order != "Run":
                self._shoot_or_react(unit, action)

    def _order_test(self, unit: UnitState, action: Action) -> MoraleTest:
        modifier = 0
        if action.order == "Run" and action.target is not None:
            tgt = self.units[action.target]
            if (
                tgt.vehicle is not None
                and tgt.vehicle.target.kind == "armoured"
                and not tgt.vehicle.open_topped
                and not self.has_anti_tank(unit)
            ):
                modifier = self.rules.data.vehicle_assault.order_test_modifier_without_at
        return new_test(
            self.rules,
            unit.quality,
            officer=self.officer_near(unit),
            pins=unit.pins,
            modifier=modifier,
        )

    def officer_near(self, unit: UnitState) -> str | None:
        best: tuple[int, str] | None = None
        for other in self.units:
            if other.side != unit.side or other.destroyed:
                continue
            rank = other.officer_rank()
            if rank is None:
                continue
            if other.uid == unit.uid or self.gap(unit, other) <= OFFICER_RANGE[rank]:
                bonus = self.rules.officer_bonus(rank)
                if best is None or bonus > best[0]:
                    best = (bonus, rank)
        return best[1] if best else None

    def has_anti_tank(self, unit: UnitState) -> bool:
        for m in unit.alive_models:
            for name in m.weapons:
                w = self.rules.weapon(name)
                if "Shaped Charge" in w.special or (w.pen or 0) >= 2:
                    return True
        return False

    def move_unit(self, unit: UnitState, to: Point, *, run: bool) -> None:
        start = unit.anchor
        if unit.vehicle is not None and start.distance_to(to) > 0:
            check = check_move(self.rules, self.table, unit, to, run=run)
            if not check.reverse:
                unit.heading = heading_to(start, to)
        unit.translate(to.x - start.x, to.y - start.y)
        unit.moved = "run" if run else "advance"
        unit.ranged_in_on = None
        self.log("move", unit=unit.uid, to=[round(to.x, 2), round(to.y, 2)], run=run)

    # -- shooting ---------------------------------------------------------------------
    def _shoot_or_react(self, unit: UnitState, action: Action) -> None:
        tgt = self.units[action.target]  # type: ignore[index]
        if (
            self.rules.has_reactions
            and tgt.order is None
            and tgt.retained is None
            and tgt.vehicle is None
            and not tgt.destroyed
        ):
            self.pending = Pending("shot-reaction", tgt.side, action, tgt.uid)
            return
        self.shoot(unit, tgt, moving=action.order == "Advance")

    def shoot(self, unit: UnitState, tgt: UnitState, *, moving: bool) -> None:
        """Resolve one unit's shooting at another with the rule procedures."""
        groups = self.shooting_groups(unit, tgt, moving=moving)
        if not groups:
            self.log("no shot", unit=unit.uid, target=tgt.uid)
            return
        for model in self.one_shots_fired:  # one-shot weapons that fired are spent
            model.used_one_shot = True
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
                    (_segment_distance(m.point, start, end) for m in other.alive_models),
                    default=math.inf,
                )
                > SHOCKWAVE_WIDTH
            ):
                continue
            profile = (
                self.rules.target(f"{other.quality} infantry")
                if other.vehicle is None
                else other.vehicle.target
            )
            situation = Situation(
                range_inches=min(weapon.range, start.distance_to(other.anchor)),
                target_pins=other.pins,
                target_quality=other.quality,
                target_models=len(other.alive_models),
                target_immobilised=other.immobilised,
            )
            shot, _ = plan_shot(self.rules, weapon, profile, situation)
            self.log("shockwave", unit=unit.uid, target=other.uid)
            self.resolve_attack(unit, other, [Group(shot, 1)])

    def resolve_attack(
        self, unit: UnitState | None, tgt: UnitState, groups: list[Group], *, event: str = "shoot"
    ) -> None:
        """Roll an attack on ``tgt`` and apply it: casualties, pins, tests, vehicle damage.

        ``unit`` is the attacker (None for a barrage or an aircraft).
        """
        gravity = any(self._has_rule(g.shot.weapon, "Gravity Pulse") for g in groups)
        indirect = any(g.shot.indirect for g in groups)
        uid = unit.uid if unit is not None else None
        if tgt.vehicle is not None:
            state = attack_vehicle(self.dice, groups)
            if unit is not None and indirect and (state.attack_pins or state.knocked_out):
                unit.ranged_in_on = tgt.uid  # a hit on a vehicle always pins it
            self.log(
                event,
                unit=uid,
                target=tgt.uid,
                shots=sum(g.shots for g in groups),
                knocked_out=state.knocked_out,
                immobilised=state.immobilised and not tgt.immobilised,
                stunned=state.crew_stunned,
                on_fire=state.on_fire,
                pins=state.pins,
            )
            self.vehicle_damage(
                tgt,
                state.knocked_out,
                state.immobilised,
                state.crew_stunned or (state.on_fire and not state.knocked_out),
                state.pins,
                by=unit,
            )
            if gravity and state.worst > 0:
                tgt.no_run = True
        else:
            # a flamethrower's morale check takes a nearby officer's bonus, as any other
            tested = any(g.shot.morale_check for g in groups)
            officer = self.officer_near(tgt) if tested else None
            ctx = TroopsContext(
                models=len(tgt.alive_models),
                morale=new_test(self.rules, tgt.quality, officer=officer, pins=tgt.pins),
                pins_per_attack=self.rules.data.procedure.pins_per_attack,
            )
            out = attack_troops(self.dice, groups, ctx)
            self.log(
                event,
                unit=uid,
                target=tgt.uid,
                shots=sum(g.shots for g in groups),
                hits=out.hits,
                casualties=out.casualties,
                pins=out.pins,
            )
            if unit is not None and out.hits and indirect:
                unit.ranged_in_on = tgt.uid  # indirect fire is ranged in once it hits
            tgt.pins += out.pins
            self.casualties(tgt, out.casualties, by=unit)
            if gravity and out.casualties:
                tgt.no_run = True
            if out.destroyed_by_morale and not tgt.destroyed:
                self.destroy(tgt, "fails its morale check after a flamethrower", by=unit)
            self.check_pins(tgt, by=unit)

    def casualties(self, tgt: UnitState, count: int, *, by: UnitState | None) -> None:
        """Remove ``count`` models (the owner's sensible choice), then any morale check."""
        if count <= 0:
            return
        shooter = by.anchor if by is not None else tgt.anchor

        def keep_order(m: Any) -> tuple[int, float]:
            special = any(self._special_weapon(w) for w in m.weapons)
            rank = 3 if m.officer else 2 if m.nco else 1 if special else 0
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
            passed = morale_check(self.dice, test)
            self.log("morale check", unit=tgt.uid, needs=test.value, passed=passed)
            if not passed:
                self.destroy(tgt, "fails its morale check", by=by)

    def _has_rule(self, weapon_name: str, rule: str) -> bool:
        """Does the weapon (aircraft are not on the chart) have this special rule?"""
        try:
            return rule in self.rules.weapon(weapon_name).special
        except UnknownNameError:
            return False

    def _special_weapon(self, name: str) -> bool:
        """Worth keeping: a heavy weapon, or one that fires more than a rifle's single shot."""
        weapon = self.rules.weapon(name)
        shots = weapon.shots
        return weapon.category == "heavy weapons" or (shots.isdigit() and int(shots) > 1)

    def check_pins(self, unit: UnitState, *, by: UnitState | None = None) -> None:
        """A unit with as many pins as its morale is removed (``by``: whose attack did it)."""
        if not unit.destroyed and destroyed_by_pins(
            self.rules, self.rules.morale(unit.quality), unit.pins
        ):
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
            self.destroy(tgt, "knocked out", by=by)
            if tgt.vehicle is not None and tgt.vehicle.target.kind == "armoured":
                self.table = self.table.wreck(tgt.anchor, name=f"wreck of {tgt.name}")
            return
        if halted:
            tgt.order = "Down"
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

    # -- reactions and ambushes -------------------------------------------------------
    def pending_choices(self) -> list[Action]:
        p = self.pending
        assert p is not None
        if p.kind == "shot-reaction":
            return [Action("react", side=p.side, unit=p.target, choice=c) for c in ("none", "down")]
        if p.kind == "assault-reaction":
            tgt = self.units[p.target]
            if tgt.vehicle is not None:  # a recce vehicle may drive off
                choices = ["stay", "escape"]
            else:
                choices = ["hand-to-hand", "point-blank"]
                if tgt.order is None and tgt.retained is None:
                    choices += ["escape", "stand and fire"]
            return [Action("react", side=p.side, unit=p.target, choice=c) for c in choices]
        if p.kind == "retain":
            return [
                Action("retain", side=p.side, unit=p.target, choice=c) for c in ("keep", "return")
            ]
        return [
            Action("ambush", side=p.side, unit=a, target=p.target, choice="fire")
            for a in p.ambushers
        ] + [Action("ambush", side=p.side, choice="hold")]

    def _resume(self, action: Action) -> None:
        p = self.pending
        assert p is not None
        self.pending = None
        self.log(action.kind, **{k: v for k, v in action.to_json().items() if k != "kind"})
        if p.kind == "retain":
            if action.choice == "keep":
                self.keeping += (p.target,)
            self._ask_to_retain()
            return
        order = p.action
        unit = self.units[order.unit]
        if p.kind == "shot-reaction":
            tgt = self.units[p.target]
            if action.choice == "down":
                tgt.order = "Down"
            self.shoot(unit, tgt, moving=order.order == "Advance")
        elif p.kind == "assault-reaction":
            fight(self, unit, self.units[p.target], order, action.choice)
        else:
            if action.choice == "fire":
                ambusher = self.units[action.unit]
                ambusher.order, ambusher.retained = "Fire", None
                self.shoot(ambusher, unit, moving=False)
            # (a vehicle the ambush brought to a halt, its die turned Down, fires no more)
            halted = unit.order == "Down"
            shoots = order.target is not None and order.order == "Advance"
            if shoots and not unit.destroyed and not halted:
                self._shoot_or_react(unit, order)

    def _ambush_check(self, mover: UnitState, action: Action) -> bool:
        if mover.destroyed:
            return False
        ambushers = tuple(
            u.uid
            for u in self.units
            if u.side != mover.side
            and not u.destroyed
            and u.is_ambushing
            and self.can_shoot(u, mover, moving=False)
        )
        if not ambushers:
            return False
        self.pending = Pending("ambush", 1 - mover.side, action, mover.uid, ambushers)
        return True

    def vehicle_profile_of(self, unit: UnitState, *, indirect: bool) -> VehicleProfile:
        """How hits on this vehicle are resolved now (its crew, pins and special rules)."""
        assert unit.vehicle is not None
        situation = Situation(
            range_inches=0,
            open_topped=unit.vehicle.open_topped,
            automaton=unit.vehicle.automaton,
            target_quality=unit.quality,
            target_pins=unit.pins,
            target_immobilised=unit.immobilised,
        )
        return vehicle_profile(self.rules, unit.vehicle.target, situation, indirect=indirect)

    # -- FUBAR ---------------------------------------------------------------------------
    def _friendly_fire(self, unit: UnitState) -> None:
        unit.order = "Fire"
        friends = [
            u
            for u in self.units
            if u.side == unit.side
            and u.uid != unit.uid
            and not u.destroyed
            and any(
                self.gap(u, e) <= 12 for e in self.units if e.side != unit.side and not e.destroyed
            )
            and self.can_shoot(unit, u, moving=False)
        ]
        if not friends:
            unit.order = "Down"
            self.log("fubar", unit=unit.uid, result="friendly fire: no target, goes Down")
            return
        victim = min(friends, key=lambda u: self.gap(unit, u))  # the opponent picks the closest
        self.log("fubar", unit=unit.uid, result="friendly fire", target=victim.uid)
        self.shoot(unit, victim, moving=False)

    def _panic(self, unit: UnitState) -> None:
        enemies = [
            e
            for e in self.units
            if e.side != unit.side and not e.destroyed and self.visible(unit, e)
        ]
        if not enemies or unit.immobilised:
            unit.order = "Down"
            self.log("fubar", unit=unit.uid, result="panic: no enemy in sight, goes Down")
            return
        closest = min(enemies, key=lambda e: self.gap(unit, e))
        if not self.flee(unit, heading_to(unit.anchor, closest.anchor)):
            unit.order = "Down"  # sheet 001: a unit that can no longer move goes Down instead
            self.log("fubar", unit=unit.uid, result="panic: cannot move away, goes Down")
            return
        unit.order = "Run"
        self.log("fubar", unit=unit.uid, result="panic", away_from=closest.uid)

    def flee(self, unit: UnitState, threat_heading: float) -> bool:
        """Run straight away from a threat, as far as the move allows (a vehicle may reverse);
        False if every such move is blocked."""
        run = movement_row(self.rules, unit).run
        start = unit.anchor
        rad = math.radians(threat_heading + 180)
        for fraction in (1.0, 0.75, 0.5, 0.25):
            to = self.table.clamp(
                Point(
                    start.x + math.sin(rad) * run * fraction,
                    start.y + math.cos(rad) * run * fraction,
                )
            )
            if to == start:
                return False  # at the table's edge with the threat straight behind: no way on
            if check_move(self.rules, self.table, unit, to, run=True).allowed:
                self.move_unit(unit, to, run=True)
                return True
            if (
                unit.vehicle is not None
                and check_move(self.rules, self.table, unit, to, run=False).allowed
            ):
                self.move_unit(unit, to, run=False)
                return True
        return False

    # ------------------------------------------------------------------ turns and the end
    def _after_action(self) -> None:
        if self.pending is not None or self.over:
            return
        self.drawn = None
        if self._side_wiped_out():
            self._finish()
            return
        if not self.eligible(0) and not self.eligible(1):
            self._end_turn()

    def _side_wiped_out(self) -> bool:
        return any(all(u.destroyed for u in self.units if u.side == s) for s in (0, 1))

    def _end_turn(self) -> None:
        """The turn's end: each unit on Down or Ambush may keep its die out of the bag
        (its owner says, unit by unit; not after the last turn), then the dice return."""
        if self.turn < self.scenario.turns:
            self.retaining = tuple(u.uid for u in self.units if not u.destroyed and _held(u))
        self.keeping = ()
        self._ask_to_retain()

    def _ask_to_retain(self) -> None:
        """Ask the next unit that may keep its die, or close the turn when none is left."""
        if self.retaining:
            uid, self.retaining = self.retaining[0], self.retaining[1:]
            unit = self.units[uid]
            held = Action("order", side=unit.side, unit=uid, order=_held(unit) or "")
            self.pending = Pending("retain", unit.side, held, uid)
            return
        self._close_turn()

    def _close_turn(self) -> None:
        for u in self.units:
            if u.destroyed:
                continue
            kept = _held(u) if u.uid in self.keeping else None
            u.retained, u.order, u.moved = kept, None, None
        self.keeping = ()
        self.log("turn end", turn=self.turn, score=list(self.score()))
        if self.turn >= self.scenario.turns:
            self._finish()
            return
        self.turn += 1
        waiting, self.delayed = self.delayed, []
        for call_in in waiting:  # delayed barrages and air strikes roll again
            resolve(self, call_in)
        if self._side_wiped_out():
            self._finish()

    def _finish(self) -> None:
        self.over = True
        a, b = self.score()
        self.log("game over", turn=self.turn, score=[a, b], returns=list(self.returns()))

    def score(self) -> tuple[int, int]:
        """Victory points: units destroyed, or objectives held, as the scenario says."""
        destroyed = [sum(1 for u in self.units if u.side != s and u.destroyed) for s in (0, 1)]
        if self.scenario.victory != "objectives":
            return destroyed[0], destroyed[1]
        held = [0, 0]
        for obj in self.scenario.objectives:
            at = Point(obj.x, obj.y)
            near = [
                u.side
                for u in self.units
                if not u.destroyed
                and u.vehicle is None
                and min((m.point.distance_to(at) for m in u.alive_models), default=99.0)
                <= OBJECTIVE_REACH
            ]
            if near and len(set(near)) == 1:
                held[near[0]] += obj.points
        return held[0], held[1]

    # ------------------------------------------------------------------ set-up
    def log(self, event: str, /, **data: Any) -> None:
        self._events.append(Event(event, {"turn": self.turn, **data}))
