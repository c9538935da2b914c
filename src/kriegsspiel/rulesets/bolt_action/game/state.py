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
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from kriegsspiel.core import arguments
from kriegsspiel.core.game import CHANCE, TERMINAL, Event, IllegalActionError
from kriegsspiel.core.procedure import Dice, RandomDice
from kriegsspiel.core.scenario import Scenario
from kriegsspiel.core.table import Point, Table, shared_table
from kriegsspiel.errors import UnknownNameError
from kriegsspiel.rulesets.bolt_action import bag
from kriegsspiel.rulesets.bolt_action.army import ArmyList
from kriegsspiel.rulesets.bolt_action.assault import assault_order_modifier
from kriegsspiel.rulesets.bolt_action.attack import (
    TroopsContext,
    attack_troops,
    attack_vehicle,
    troops_context,
)
from kriegsspiel.rulesets.bolt_action.bag import held as _held
from kriegsspiel.rulesets.bolt_action.edition import Rules, rules_for

# (Action, Pending and ORDERS were defined here, range_marks too: still importable from here)
from kriegsspiel.rulesets.bolt_action.game.actions import ORDERS as ORDERS
from kriegsspiel.rulesets.bolt_action.game.actions import Action as Action
from kriegsspiel.rulesets.bolt_action.game.actions import Pending as Pending
from kriegsspiel.rulesets.bolt_action.game.close_quarters import (
    assault,
    chase,
    escape,
    fight,
    fight_on,
    reactions,
    shot_reactions_of,
)
from kriegsspiel.rulesets.bolt_action.game.deployment import (
    Placement,
    SetUpPlace,
    deploy,
    set_up_by_hand,
    table_feature,
)
from kriegsspiel.rulesets.bolt_action.game.fubar import fire_on_friend, friendly_fire, panic
from kriegsspiel.rulesets.bolt_action.game.set_up_order import LIST_ORDER, check_deployment
from kriegsspiel.rulesets.bolt_action.game.shooting_groups import (
    ShootingGroups,
    aimed_at,
    target_profile,
)
from kriegsspiel.rulesets.bolt_action.game.shooting_groups import range_marks as range_marks
from kriegsspiel.rulesets.bolt_action.game.spacing import segment_distance
from kriegsspiel.rulesets.bolt_action.game.support import SUPPORT, Delayed, call, come_back
from kriegsspiel.rulesets.bolt_action.game.table_rules import (
    MoveCheck,
    check_categories,
    check_move,
    hull_room,
    last_legal,
    movement_row,
    vehicle_drive,
)
from kriegsspiel.rulesets.bolt_action.game.units import Model, UnitState, build_units, credit
from kriegsspiel.rulesets.bolt_action.game.validation import check_action
from kriegsspiel.rulesets.bolt_action.kit import has_anti_tank, keep_rank
from kriegsspiel.rulesets.bolt_action.morale import (
    MoraleTest,
    destroyed_by_pins,
    losses_force_test,
    new_test,
    rallied,
    rally_roll,
    rolled_morale_check,
    rolled_order_test,
)
from kriegsspiel.rulesets.bolt_action.reactions import DIE_SHOWN
from kriegsspiel.rulesets.bolt_action.shooting import (
    Group,
    Shot,
    crew_with_officer,
    multiplied,
    plan_shot,
    vehicle_profile,
)
from kriegsspiel.rulesets.bolt_action.shot_rolls import write_dice
from kriegsspiel.rulesets.bolt_action.vehicle_damage import Tally, VehicleProfile, damage_roll_json

OBJECTIVE_REACH = 3.0  # inches: a unit this close holds an objective (assumption)


def holds_near(unit: UnitState, at: tuple[float, float], dx: float = 0.0, dy: float = 0.0) -> bool:
    """Could ``unit`` (moved by ``dx``, ``dy``) hold an objective at ``at``: live, not a
    vehicle, a live model within :data:`OBJECTIVE_REACH` (Point.distance_to's arithmetic)."""
    if unit.destroyed or unit.vehicle is not None:
        return False
    xy, dist = unit.coords, math.dist
    return any(
        dist((xy[i] + dx, xy[i + 1] + dy), at) <= OBJECTIVE_REACH for i in range(0, len(xy), 2)
    )


def holder(sides: set[int]) -> int | None:
    """The side holding an objective, given the sides with a unit near it: the one side
    alone there (none where both are, or neither)."""
    return next(iter(sides)) if len(sides) == 1 else None


SHOCKWAVE_WIDTH = (
    0.5  # inches either side of a Shockwave's line that count as under it (assumption)
)


def weapons_fired(groups: Sequence[Group], tally: Tally) -> list[dict[str, Any]]:
    """An attack's shots and hits by weapon and what they needed, as the record writes
    them: each weapon with each to-hit once, in the order it first fired, its groups'
    shots and hits added up, with what its shots needed (:func:`needed`); at troops, of a
    weapon whose hit is not one hit (HE, a flamethrower...), the shots that hit
    (``struck``) and what each such hit made (``per_hit``: "D6", "D6 halved"); and the
    dice as rolled (:func:`write_dice`)."""
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
        if hit is not None and multiplied(shot):
            line["struck"] = line.get("struck", 0) + hit
            line["per_hit"] = shot.hits_per_hit.text + (" halved" if shot.halve_hits else "")
        write_dice(
            line, kept, shot.damage_need, at_troops=hit is not None, multiplied=multiplied(shot)
        )
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


class BoltActionGame(ShootingGroups):
    """One game: two armies on a scenario's table, played turn by turn to a result."""

    def __init__(
        self,
        ruleset: str,
        scenario: Scenario,
        armies: tuple[ArmyList, ArmyList],
        seed: int = 0,
        *,
        rules_file: str | None = None,
        rules_text: str | None = None,
        deployment: str = LIST_ORDER,
        placements: Mapping[int, Sequence[Placement]] | None = None,
    ) -> None:
        # a designer's rules file: read from its path, or (``rules_text``) given as its text
        self.rules: Rules = rules_for(ruleset, rules_file, rules_text)
        self.ruleset = ruleset
        self.scenario = scenario
        self.armies = armies  # (a game set up again by hand is made from them anew)
        self.seed = seed
        # the order each side's units set up in: the list's, or one drawn from the seed
        self.deployment = check_deployment(deployment)
        self.dice: Dice = RandomDice(seed)
        check_categories(self.rules, scenario)  # no feature is open ground by default
        table = Table(
            width=scenario.table.width,
            height=scenario.table.height,
            features=tuple(table_feature(f) for f in scenario.terrain),
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
        self.one_shots_fired: list[Model] = []
        self.over = False
        self._events: list[Event] = []
        deploy(self)
        # the sides a person sets up by hand (``kriegsspiel play``), and where each of
        # their units stands as the game begins (the account tells it); None: none is
        self.placements = placements
        self.set_up_places: dict[int, SetUpPlace] = (
            {} if placements is None else set_up_by_hand(self, placements)
        )
        # the units whose dice went into the cup as this turn began (a tuple: clones share it)
        self.turn_dice: tuple[int, ...] = self._dice_put_in()
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
        return bag.waiting(self.units, side)

    def dice_in_cup(self, *, hand_out: bool = False) -> tuple[int, int]:
        """Each side's order dice in the cup now (:func:`.bag.in_bag`: a die just drawn is
        in its player's hand where a destroyed unit's die stays until the turn end, and in
        both editions with ``hand_out``, the count a player at the table sees)."""
        in_hand = self.drawn if self.pending is None and not self.over else None
        return bag.in_bag(
            self.units,
            self.turn_dice,
            stay_until_turn_end=self.rules.destroyed_dice_stay_in_cup,
            in_hand=in_hand,
            hand_out=hand_out,
        )

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.current_player() != CHANCE:
            return []
        chances = bag.draw_chances(
            self.units,
            self.turn_dice,
            stay_until_turn_end=self.rules.destroyed_dice_stay_in_cup,
        )
        return [(Action("draw", side=s), p) for s, p in chances]

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
        if action.kind in ("react", "ambush", "retain", "friendly fire"):
            self._resume(action)
        else:
            self.log("order", **{k: v for k, v in action.to_json().items() if k != "kind"})
            self._carry_out(action)
        self._after_action()

    def returns(self) -> tuple[float, float]:
        if not self.over:
            return (0.0, 0.0)
        won = self.winner()
        if won is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if won == 0 else (-1.0, 1.0)

    def winner(self) -> int | None:
        """The side that has won the finished game (None: a draw, or not over yet). A side
        with units left beats one with none, whatever the score (so wiping the enemy out
        before the last turn wins, where objectives held then might not say so); otherwise
        the higher score wins."""
        if not self.over:
            return None
        left = [any(not u.destroyed for u in self.units if u.side == s) for s in (0, 1)]
        if left[0] != left[1]:
            return 0 if left[0] else 1
        a, b = self.score()
        return None if a == b else (0 if a > b else 1)

    def deciding_units(self) -> list[int]:
        """The units whose decision the game waits for: the one reacting or choosing to keep
        its die, or the ambushers who may fire (none while an order or a draw is awaited,
        nor while a player chooses the friend a FUBAR unit of the other side fires at)."""
        if self.pending is None:
            return []
        return sorted({a.unit for a in self.pending_choices() if a.unit >= 0})

    def observation(self) -> dict[str, Any]:
        """The position as plain data (JSON-ready), as both players see it: everything on
        the table is open information, and so is the bag (how many dice each side has in
        it: :meth:`dice_in_cup`, which in Bolt Action 1st edition counts the dice of units
        destroyed this turn until its end). For agents and tools that want the state
        without the engine's objects."""
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
            # (at a friendly fire's target: the order whose test came up FUBAR)
            "pending_order": None if self.pending is None else self.pending.action.to_json(),
            "dice_in_bag": list(self.dice_in_cup()),
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
        cls = type(self)
        twin = cls.__new__(cls)  # (a shallow copy, as copy.copy makes, then its parts anew)
        twin.__dict__.update(self.__dict__)
        twin.units = [u.copy() for u in self.units]
        twin.dice = copy.deepcopy(self.dice)
        twin._events = list(self._events)
        twin.pending = copy.copy(self.pending)
        twin.delayed = list(self.delayed)  # a barrage called in one must not appear in the other
        return twin

    def __copy__(self) -> BoltActionGame:
        """``copy.copy(game)`` is :meth:`clone`: a copy that shares the units and the
        events would be changed by the other's play."""
        return self.clone()

    def reseed(self, seed: int) -> None:
        """Roll every die from now on from ``seed``.

        A clone rolls the very dice its original will roll (it copies the generator), so
        a look-ahead played on clones would know the dice the real game is yet to roll.
        A searcher reseeds each clone (``twin = game.clone(); twin.reseed(k)``) to play
        it out on dice of its own. The record says so in a ``dice`` line, which a replay
        follows; a finished game rolls no more dice, so it is left as it is.
        """
        seed = arguments.seed(seed)  # (as new_game and play --seed take seeds)
        if self.over:
            return
        self.dice = RandomDice(seed)
        self.log("dice", seed=seed)

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

    # ------------------------------------------------------------------ carrying out orders
    def _carry_out(self, action: Action) -> None:
        unit = self.units[action.unit]
        unit.no_run = False  # a gravity pulse stops only the next activation's Run
        test = self.order_test_of(unit, action)
        rolled = rolled_order_test(self.dice, self.rules, test, action.order)
        result = rolled.result
        if result != "no test":
            fubar_roll = {} if rolled.fubar_roll is None else {"fubar_roll": rolled.fubar_roll}
            self.log(
                "order test",
                unit=unit.uid,
                needs=test.value,
                result=result,
                roll=rolled.roll,
                **fubar_roll,
            )
        if result == "fail":
            unit.order = "Down"
            return
        if result == "friendly fire":
            friendly_fire(self, unit, action)
            return
        if result == "panic":
            panic(self, unit, action)
            return
        unit.order = action.order
        if action.order == "Rally":
            roll = rally_roll(self.dice, self.rules)
            lost = rallied(unit.pins, roll)
            unit.pins -= lost
            self.log("rally", unit=unit.uid, pins_lost=lost, roll=roll)
        elif action.order == "Fire" and action.choice in SUPPORT and action.target is not None:
            call(self, unit, self.units[action.target], action.choice)
        elif action.order in ("Fire", "Advance", "Run"):
            if action.order == "Run" and action.target is not None:
                assault(self, unit, action)
                return
            if action.to is not None:
                self.move_unit(
                    unit,
                    Point(*action.to),
                    run=action.order == "Run",
                    way=action.choice,
                    facing=action.facing,
                )
                if self.ambush_check(unit, action):
                    return
            if action.target is not None and action.order != "Run":
                self._shoot_or_react(unit, action)

    def order_test_of(self, unit: UnitState, action: Action) -> MoraleTest:
        """The order test ``unit`` takes for ``action`` (its quality, pins and an officer
        near; an assault on a vehicle's modifier), whether or not one is needed."""
        modifier = 0
        if action.order == "Run" and action.target is not None:
            tgt = self.units[action.target]
            if tgt.vehicle is not None:
                modifier = assault_order_modifier(
                    self.rules,
                    tgt.vehicle.target,
                    open_topped=tgt.vehicle.open_topped,
                    anti_tank=self.has_anti_tank(unit),
                )
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
            if other.uid == unit.uid or self.gap(unit, other) <= self.rules.officer_range(rank):
                bonus = self.rules.officer_bonus(rank)
                if best is None or bonus > best[0]:
                    best = (bonus, rank)
        return best[1] if best else None

    def has_anti_tank(self, unit: UnitState) -> bool:
        """Whether a live model carries an anti-tank weapon it can still use (a spent
        one-shot weapon, as a fired Panzerfaust, no longer counts, as it no longer fires:
        :func:`.kit.has_anti_tank`)."""
        return has_anti_tank(self.rules, ((m.weapons, m.used_one_shot) for m in unit.alive_models))

    def move_unit(
        self, unit: UnitState, to: Point, *, run: bool, way: str = "", facing: float | None = None
    ) -> None:
        """Move a unit's models straight to ``to`` (checked before); a vehicle ends facing
        as its move leaves it (:func:`table_rules.vehicle_drive`)."""
        start = unit.anchor
        turned: dict[str, Any] = {}
        if unit.vehicle is not None:
            check = check_move(self.rules, self.table, unit, to, run=run, way=way, facing=facing)
            if check.heading is not None and check.heading != unit.heading:
                unit.heading = check.heading
                turned["heading"] = round(check.heading, 1)
            if check.reverse:
                turned["reverse"] = True
        unit.translate(to.x - start.x, to.y - start.y)
        unit.moved = "run" if run else "advance"
        unit.ranged_in_on = None
        self.log("move", unit=unit.uid, to=[round(to.x, 2), round(to.y, 2)], run=run, **turned)

    # -- shooting ---------------------------------------------------------------------
    def _shoot_or_react(self, unit: UnitState, action: Action) -> None:
        """The shot is declared: its target's side is asked for a reaction where it has
        one (:func:`shot_reactions_of`: Down, or a recce vehicle's escape), else it is fired."""
        tgt = self.units[action.target]  # type: ignore[index]
        if not tgt.destroyed and shot_reactions_of(self.rules, tgt):
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

    # -- reactions and ambushes -------------------------------------------------------
    def pending_choices(self) -> list[Action]:
        p = self.pending
        assert p is not None
        if p.kind == "shot-reaction":
            choices = shot_reactions_of(self.rules, self.units[p.target])
            return [Action("react", side=p.side, unit=p.target, choice=c) for c in choices]
        if p.kind == "assault-reaction":
            choices = reactions(self.rules, self.units[p.target])
            return [Action("react", side=p.side, unit=p.target, choice=c) for c in choices]
        if p.kind == "retain":
            return [
                Action("retain", side=p.side, unit=p.target, choice=c) for c in ("keep", "return")
            ]
        if p.kind == "friendly-fire":  # the opponent picks the friend a FUBAR unit fires at
            return [Action("friendly fire", side=p.side, target=uid) for uid in p.friends]
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
        if p.kind == "friendly-fire":
            victim = self.units[action.target]  # type: ignore[index]
            fire_on_friend(self, self.units[p.target], victim, chosen_by=p.side)
            return
        order = p.action
        unit = self.units[order.unit]
        if p.kind == "shot-reaction":
            tgt = self.units[p.target]
            if action.choice == "down":
                tgt.order = DIE_SHOWN["down"]
            # a recce vehicle's escape is a move made before the shot, which is then fired
            # from where it was declared at the vehicle where it ended (out of sight or
            # range: no shot); ambushers may fire at it there first
            escaped = action.choice == "escape" and escape(self, tgt, unit)
            if escaped and self.ambush_check(tgt, order, after="shot"):
                return
            self.shoot(unit, tgt, moving=order.order == "Advance")
        elif p.kind == "assault-reaction":
            fight(self, unit, self.units[p.target], order, action.choice)
        else:
            mover = self.units[p.target]
            if action.choice == "fire":
                ambusher = self.units[action.unit]
                ambusher.order, ambusher.retained = "Fire", None
                self.shoot(ambusher, mover, moving=False)
                # the other ambushers are asked again, those that can still shoot at it
                rest = self._ambushers(mover, p.ambushers)
                if rest:
                    self.pending = replace(p, ambushers=rest)
                    return
            self._after_ambush(p)

    def _after_ambush(self, p: Pending) -> None:
        """The ambush at ``p``'s mover is over: what was under way goes on (``p.after``)."""
        order = p.action
        unit = self.units[order.unit]
        if p.after == "order":
            # (a vehicle the ambush brought to a halt, its die turned Down, fires no more)
            halted = unit.order == "Down"
            shoots = order.target is not None and order.order == "Advance"
            if shoots and not unit.destroyed and not halted:
                self._shoot_or_react(unit, order)
        elif p.after == "fight":
            fight_on(self, unit, self.units[order.target], order, p.reaction)  # type: ignore[index]
        elif p.after == "chase":
            chase(self, unit, self.units[order.target], order)  # type: ignore[index]
        elif p.after == "shot" and not self.units[p.target].destroyed:
            self.shoot(unit, self.units[p.target], moving=order.order == "Advance")

    def _ambushers(self, mover: UnitState, among: tuple[int, ...] | None = None) -> tuple[int, ...]:
        """The enemy units (of those ``among``, or all) still ambushing that can shoot at
        ``mover`` (none once it is destroyed)."""
        if mover.destroyed:
            return ()
        units = self.units if among is None else [self.units[uid] for uid in among]
        return tuple(
            u.uid
            for u in units
            if u.side != mover.side
            and not u.destroyed
            and u.is_ambushing
            and self.has_shot(u, mover)
        )

    def ambush_check(
        self,
        mover: UnitState,
        action: Action,
        *,
        after: str = "order",
        reaction: str = "",
        exclude: tuple[int, ...] = (),
    ) -> bool:
        """Whether the enemy may spring an ambush on ``mover``, which has just ended a move
        (an order's, an assault's, a panic's, an escape or a chase): if so, the game waits
        for their choice (one fires, or all hold), asking again after each shot among the
        rest until all have held or none can shoot at it any more, and then goes on as
        ``after`` says (see :class:`Pending`). ``exclude``: units that may not fire."""
        ambushers = tuple(uid for uid in self._ambushers(mover) if uid not in exclude)
        if not ambushers:
            return False
        self.pending = Pending(
            "ambush",
            1 - mover.side,
            action,
            mover.uid,
            ambushers,
            after=after,
            reaction=reaction,
        )
        return True

    # -- moving away ---------------------------------------------------------------------
    def flee(self, unit: UnitState, threat_heading: float) -> bool:
        """Run straight away from a threat, as far as the move allows (a vehicle may reverse:
        :meth:`flight`); False if it cannot move away at all."""
        way = self.flight(unit, threat_heading)
        if way is None:
            return False
        to, run, _ = way
        self.move_unit(unit, to, run=run)
        return True

    def flight(
        self, unit: UnitState, threat_heading: float
    ) -> tuple[Point, bool, MoveCheck] | None:
        """Where :meth:`flee` would take ``unit``, without moving it: straight away from
        the threat, the whole of its Run if it may Run there (a vehicle also Advance there,
        as it may reverse); where that is blocked, as far along the line as it may go
        (:func:`table_rules.last_legal`, the moves offered's own rule: a Run cut short
        where it is blocked, or a vehicle's Advance, no longer than its Advance, or its
        reverse, allows, cut short so too; the farther, a Run where they tie). That place,
        whether it is a Run, and the move's check (a vehicle's heading at its end). None if
        it cannot move away at all. The tactical player weighs a recce vehicle's escape by
        it."""
        rules, table = self.rules, self.table
        row = movement_row(rules, unit)
        start = unit.anchor
        rad = math.radians(threat_heading + 180)
        left, bottom, right, top = hull_room(table, unit)  # (a vehicle's hull on it)

        def away(reach: float) -> Point:
            return Point(
                float(min(max(start.x + math.sin(rad) * reach, left), right)),
                float(min(max(start.y + math.cos(rad) * reach, bottom), top)),
            )

        whole = away(float(row.run))
        if whole == start:
            return None  # at the table's edge with the threat straight behind: no way on
        orders = (True, False) if unit.vehicle is not None else (True,)
        for run in orders:
            check = check_move(rules, table, unit, whole, run=run)
            if check.allowed:
                return whole, run, check
        best: tuple[Point, bool] | None = None
        for run in orders:
            if run:
                cut = last_legal(rules, table, unit, True, whole)
            else:  # no farther than its Advance (or its reverse) goes, then cut short
                drive = vehicle_drive(rules, unit, start, whole, False)
                if isinstance(drive, str):
                    continue
                cut = away(float(row.advance) * drive[2])
                if cut == start:
                    continue
                if not check_move(rules, table, unit, cut, run=False).allowed:
                    cut = last_legal(rules, table, unit, False, cut)
            if cut is not None and (
                best is None or start.distance_to(cut) > start.distance_to(best[0]) + 1e-9
            ):
                best = cut, run
        if best is None:
            return None
        to, run = best
        return to, run, check_move(rules, table, unit, to, run=run)

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
            self.retaining = bag.may_keep(self.units)
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
        # the dice go back into the cup, those of destroyed units removed (so before a
        # delayed barrage at the next turn's start may destroy a unit: its die is in)
        self.turn_dice = self._dice_put_in()
        self.log("turn end", turn=self.turn, score=list(self.score()))
        if self.turn >= self.scenario.turns:
            self._finish()
            return
        self.turn += 1
        waiting, self.delayed = self.delayed, []
        for call_in in waiting:  # delayed barrages and air strikes roll again
            come_back(self, call_in)
        if self._side_wiped_out():
            self._finish()

    def _dice_put_in(self) -> tuple[int, ...]:
        """The units whose dice are in the cup as a turn begins (:func:`.bag.put_in`)."""
        return bag.put_in(self.units)

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
            at = (obj.x, obj.y)
            side = holder({u.side for u in self.units if holds_near(u, at)})
            if side is not None:
                held[side] += obj.points
        return held[0], held[1]

    # ------------------------------------------------------------------ set-up
    def log(self, event: str, /, **data: Any) -> None:
        self._events.append(Event(event, {"turn": self.turn, **data}))
