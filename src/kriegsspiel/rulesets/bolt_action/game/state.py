"""A whole game of Konflikt '47 or Bolt Action 1st edition, in the OpenSpiel shape.

The order-dice bag is a chance node (``chance_outcomes`` gives each side's exact chance of
the next die); every other roll the rules call for is made with the game's own seeded
dice and written to the event log. Decisions are :class:`Action` values: the player whose
die was drawn picks a unit and an order; Konflikt '47 targets may react; ambushers may
fire. An illegal action raises :class:`IllegalActionError` and changes nothing.

Here is the game's state and what a player, an agent or a tool asks of it (legal actions,
apply an action, clone, observation, score and result). The rule procedures it runs are
beside it, each in its own module of functions taking the game: an order carried out
(:mod:`.orders`), an ambush (:mod:`.ambush`), a decision made out of turn and what follows it
(:mod:`.out_of_turn`), the turn's end (:mod:`.turn_end`), with close quarters, FUBAR,
support, set-up and validation as before. What those procedures, the AI and the play aid
ask of or do to the game's units the game inherits as methods: moves (:class:`.Moves`),
fire and its effects (:class:`.Firing`), and the shooting questions beneath that
(:class:`.ShootingGroups`).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping, Sequence
from typing import Any

from kriegsspiel.core import arguments
from kriegsspiel.core.game import CHANCE, TERMINAL, Event, IllegalActionError
from kriegsspiel.core.procedure import Dice, RandomDice
from kriegsspiel.core.scenario import Scenario
from kriegsspiel.core.table import Table, shared_table
from kriegsspiel.rulesets.bolt_action import bag
from kriegsspiel.rulesets.bolt_action.army import ArmyList
from kriegsspiel.rulesets.bolt_action.edition import Rules, rules_for

# (Action, Pending and ORDERS were defined here, range_marks too: still importable from here)
from kriegsspiel.rulesets.bolt_action.game.actions import ORDERS as ORDERS
from kriegsspiel.rulesets.bolt_action.game.actions import Action as Action
from kriegsspiel.rulesets.bolt_action.game.actions import Pending as Pending
from kriegsspiel.rulesets.bolt_action.game.close_quarters import reactions, shot_reactions_of
from kriegsspiel.rulesets.bolt_action.game.deployment import (
    Placement,
    SetUpPlace,
    deploy,
    set_up_by_hand,
    table_feature,
)
from kriegsspiel.rulesets.bolt_action.game.firing import Firing
from kriegsspiel.rulesets.bolt_action.game.moves import Moves
from kriegsspiel.rulesets.bolt_action.game.orders import carry_out
from kriegsspiel.rulesets.bolt_action.game.out_of_turn import resume
from kriegsspiel.rulesets.bolt_action.game.set_up_order import LIST_ORDER, check_deployment
from kriegsspiel.rulesets.bolt_action.game.shooting_groups import range_marks as range_marks
from kriegsspiel.rulesets.bolt_action.game.support import Delayed
from kriegsspiel.rulesets.bolt_action.game.table_rules import check_categories
from kriegsspiel.rulesets.bolt_action.game.turn_end import after_action
from kriegsspiel.rulesets.bolt_action.game.units import Model, UnitState, build_units
from kriegsspiel.rulesets.bolt_action.game.validation import check_action
from kriegsspiel.rulesets.bolt_action.kit import has_anti_tank

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


class BoltActionGame(Moves, Firing):
    """One game: two armies on a scenario's table, played turn by turn to a result.

    Its moves (``move_unit``, ``flee``, ``flight``) are :class:`.Moves`'; its fire and its
    effects (``shoot``, ``resolve_attack``, ``destroy`` ...) :class:`.Firing`'s; its
    shooting questions (``gap``, ``can_shoot``, ``shot_groups`` ...)
    :class:`.ShootingGroups`'."""

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
        self.turn_dice: tuple[int, ...] = bag.put_in(self.units)
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
            resume(self, action)
        else:
            self.log("order", **{k: v for k, v in action.to_json().items() if k != "kind"})
            carry_out(self, action)
        after_action(self)

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
            # the D6 score at the end of the last turn that plays one more (None: no roll)
            "another_turn_on": self.scenario.another_turn_on,
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

    # ------------------------------------------------------------------ questions about units
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

    # -- the choices of a decision made out of turn ------------------------------------
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

    # ------------------------------------------------------------------ the result
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

    # ------------------------------------------------------------------ the record
    def log(self, event: str, /, **data: Any) -> None:
        self._events.append(Event(event, {"turn": self.turn, **data}))
