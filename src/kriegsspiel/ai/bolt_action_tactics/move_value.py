"""What a move is worth to the tactical player: the place it ends, and a vehicle's facing.

A place is worth more near the objectives (each with its handicap for the points it
lacks) and within 18" of the nearest enemy, and more in cover; a vehicle is worth more
showing its front to the nearest enemy able to knock it out; in the last turn of a game
won by objectives, a move is worth what it swings at them. These read the places of every
unit, so they are kept during a choice (and places from choice to choice while nothing has
moved): the state the player's choice starts and ends, which is why they are a mixin of
:class:`~.player.TacticalPlayer` (:class:`MoveValuing`) rather than plain functions.
"""

from __future__ import annotations

import math

from kriegsspiel.core.table import Point, Table
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.candidates import objective_marks
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame, holder, holds_near
from kriegsspiel.rulesets.bolt_action.game.table_rules import check_order_move, facing_hit
from kriegsspiel.rulesets.bolt_action.game.threats import nearest_threat
from kriegsspiel.rulesets.bolt_action.game.units import UnitState

# points a victory point won (or lost) at the objectives is worth to a move in the game's
# last turn, where the objectives held decide it (a tuning choice)
OBJECTIVE_SWING = 100.0
COVER_BONUS = {"none": 0.0, "soft": 3.0, "hard": 5.0}  # a place's worth to a unit, by cover
BEST_COVER_BONUS = max(COVER_BONUS.values())
# a vehicle's worth, by the facing it shows the nearest enemy able to knock it out (a
# tuning choice: front armour toward the threat, never the rear)
FACING_WORTH = {"front": 2.0, "side": 0.0, "rear": -2.0}
BEST_FACING = max(FACING_WORTH.values())
SLACK = 1e-6  # points added to a move's cap: more than the rounding of its distances

# a move order's end: its worth to the unit and a vehicle's heading there (see _move_end)
_MoveEnd = tuple[float, float | None]


def cover_bonus(table: Table, at: Point) -> float:
    """What the best cover of the features at a place adds to its worth to a unit (a
    vehicle's too: it takes cover as any target does)."""
    return max([COVER_BONUS[f.cover] for f in table.features_at(at)], default=0.0)


class MoveValuing:
    """The tactical player's valuing of moves, with what it keeps of places and ends
    (during a choice, ``_places`` is the store of places valued; None outside one)."""

    def __init__(self) -> None:
        # places valued during a choice (None outside one), kept for later choices while the
        # game, its table and every unit's place stay the same: all a place's value reads
        self._places: dict[tuple[int, float, float], float] | None = None
        self._kept: tuple[BoltActionGame, Table, list[Point | None]] | None = None
        self._kept_places: dict[tuple[int, float, float], float] = {}
        # per side, where the objectives and the live enemies are, kept with the places
        self._marks: dict[
            int, tuple[list[tuple[float, float, float]], list[tuple[float, float]]]
        ] = {}
        # per objective, the units that could hold it (:meth:`_holding_units`)
        self._holding: list[list[tuple[int, int]]] | None = None
        # during a choice, the cover bonus of the place each unit stands (see _gain_ceiling)
        self._cover_here: dict[int, float] = {}
        # during a choice, by vehicle uid, the nearest enemy able to knock it out (_menace)
        self._menaces: dict[int, Point | None] = {}
        # during a choice, what a move order's end is worth and faces (see _move_end)
        self._ends: dict[
            tuple[int, str, tuple[float, float] | None, str, float | None], _MoveEnd
        ] = {}

    def _start_valuing_places(self, state: BoltActionGame) -> None:
        """Begin a choice: the places kept from the last, while the game, its table and
        every unit's place stay the same (all a place's value reads), else none."""
        places = [None if u.destroyed else u.anchor for u in state.units]
        kept = self._kept
        if kept is None or kept[0] is not state or kept[1] is not state.table or kept[2] != places:
            self._kept, self._kept_places, self._marks = (state, state.table, places), {}, {}
        self._places = self._kept_places

    def _forget_move_ends(self) -> None:
        """Forget the last choice's move ends, cover, threats and holders."""
        self._cover_here, self._menaces = {}, {}
        self._ends = {}
        self._holding = None

    def _position(self, state: BoltActionGame, unit: UnitState, at: Point) -> float:
        """How good a place is: near objectives (or the enemy), in cover, not in the open."""
        if self._places is None:
            return self._place_value(state, unit, at)
        key = (unit.uid, at.x, at.y)
        value = self._places.get(key)
        if value is None:
            value = self._places[key] = self._place_value(state, unit, at)
        return value

    def _place_value(self, state: BoltActionGame, unit: UnitState, at: Point) -> float:
        objectives, enemies = self._marks_for(state, unit.side)
        here, dist = (at.x, at.y), math.dist
        value = 0.0
        if objectives:  # (each with its handicap for the points it lacks)
            value -= 0.6 * min([dist(here, (x, y)) + h for x, y, h in objectives])
        if enemies:
            d = min([dist(here, e) for e in enemies])
            # close in to 18" of the nearest enemy (a tuning choice), no nearer
            value -= 0.3 * max(0.0, d - 18.0)
        # the best cover of the features here (the bonus grows with the cover)
        return value + cover_bonus(state.table, at)

    def _marks_for(
        self, state: BoltActionGame, side: int
    ) -> tuple[list[tuple[float, float, float]], list[tuple[float, float]]]:
        """The objectives' places with their handicaps (:func:`objective_marks`) and the
        live enemies' places: the same for every place valued
        while nothing moves, so found once (outside a choice, every time)."""
        marks = self._marks.get(side) if self._places is not None else None
        if marks is None:
            objectives = objective_marks(state.scenario.objectives)
            enemies = [u.anchor for u in state.units if u.side != side and not u.destroyed]
            marks = objectives, [(e.x, e.y) for e in enemies]
            if self._places is not None:
                self._marks[side] = marks
        return marks

    def _gain(
        self, state: BoltActionGame, unit: UnitState, to: tuple[float, float] | None
    ) -> float:
        """How much better the place ``to`` is than where the unit stands (0 for no move)."""
        places = self._places
        if to and places is not None:
            # during a choice, a destination valued before (by this or another candidate
            # of the unit) and the unit's own place are read straight from the store
            here = places.get((unit.uid, to[0], to[1]))
            there = here if here is not None else self._position(state, unit, Point(*to))
            anchor = unit.anchor
            here = places.get((unit.uid, anchor.x, anchor.y))
            return there - (here if here is not None else self._position(state, unit, anchor))
        dest = Point(*to) if to else unit.anchor
        return self._position(state, unit, dest) - self._position(state, unit, unit.anchor)

    def _gain_ceiling(
        self, state: BoltActionGame, unit: UnitState, to: tuple[float, float] | None
    ) -> float:
        """No less than :meth:`_gain` of moving to ``to``, without valuing the place there.

        A place's worth falls 0.6 a inch from the nearest objective and 0.3 an inch from the
        nearest enemy beyond 18": moved ``d`` inches, neither distance changes by more than
        ``d``. Its cover bonus is at most the best there is, less the bonus where it stands;
        a vehicle's turn gains at most :meth:`_turn_ceiling`.
        """
        if not to:
            return 0.0
        anchor = unit.anchor
        gain = 0.9 * math.dist(to, (anchor.x, anchor.y)) + SLACK
        here = self._cover_here.get(unit.uid)
        if here is None:
            here = self._cover_here[unit.uid] = cover_bonus(state.table, anchor)
        gain += self._objective_swing(state, unit, to)  # (exact: it is cheap)
        return gain + BEST_COVER_BONUS - here + self._turn_ceiling(state, unit)

    def _move_end(self, state: BoltActionGame, unit: UnitState, action: Action) -> _MoveEnd:
        """What a move order's end is worth (:meth:`_gain` and :meth:`_turn_gain`) and the
        heading a vehicle fires with there (None: troops, or as now). During a choice kept
        by all they read of the order: its unit, kind (Run or not), destination, way and
        facing; an order's cap and value, and each shot from one end, ask alike."""
        key = (unit.uid, action.order, action.to, action.choice, action.facing)
        found = self._ends.get(key) if self._places is not None else None
        if found is None:
            heading = None
            if unit.vehicle is not None and action.to is not None:
                heading = check_order_move(state.rules, state.table, unit, action).heading
            gain = self._gain(state, unit, action.to) + self._turn_gain(state, unit, action)
            gain += self._objective_swing(state, unit, action.to)
            found = gain, heading
            if self._places is not None:
                self._ends[key] = found
        return found

    def _turn_gain(self, state: BoltActionGame, unit: UnitState, action: Action) -> float:
        """How much better a vehicle faces its threat after this move than now (0 for
        troops): its heading at the end as the game would leave it (``check_move``)."""
        if unit.vehicle is None or action.to is None or self._menace(state, unit) is None:
            return 0.0
        check = check_order_move(state.rules, state.table, unit, action)
        if check.heading is None:
            return 0.0
        now = self._facing_value(state, unit, unit.anchor, unit.heading)
        return self._facing_value(state, unit, Point(*action.to), check.heading) - now

    def _turn_ceiling(self, state: BoltActionGame, unit: UnitState) -> float:
        """No less than :meth:`_turn_gain` of any move of the unit."""
        if unit.vehicle is None or self._menace(state, unit) is None:
            return 0.0
        return BEST_FACING - self._facing_value(state, unit, unit.anchor, unit.heading)

    def _facing_value(
        self, state: BoltActionGame, unit: UnitState, at: Point, heading: float
    ) -> float:
        """A vehicle's worth, by the facing it shows its :meth:`_menace` from ``at``."""
        threat = self._menace(state, unit)
        if threat is None or threat == at:
            return 0.0
        return FACING_WORTH[facing_hit(heading, at, threat)]

    def _menace(self, state: BoltActionGame, unit: UnitState) -> Point | None:
        """Where the vehicle's nearest threat stands (:func:`threats.nearest_threat`; None
        for troops, or when no enemy could knock it out): what it would keep its front to."""
        uid = unit.uid
        if self._places is not None and uid in self._menaces:  # (kept during a choice)
            return self._menaces[uid]
        threat = nearest_threat(state.rules, state.units, unit)
        found = None if threat is None else threat.anchor
        if self._places is not None:
            self._menaces[uid] = found
        return found

    def _objective_swing(
        self, state: BoltActionGame, unit: UnitState, to: tuple[float, float] | None
    ) -> float:
        """In a turn that may be the last of a game won by objectives, the victory points a
        move of troops to ``to`` wins (or loses) its side at the objectives,
        :data:`OBJECTIVE_SWING` points each, weighed by the chance that no turn is left to
        come back (all of it in the last turn; in a last turn that rolls for another, the
        chance the roll gives none): there the objectives held decide the game (0 in a turn
        that is not the last, for a vehicle, or for a game won otherwise)."""
        scenario = state.scenario
        last = scenario.last_turn_chance(state.turn)
        if to is None or unit.vehicle is not None or scenario.victory != "objectives" or not last:
            return 0.0
        anchor = unit.anchor
        dx, dy = to[0] - anchor.x, to[1] - anchor.y
        swing = 0
        for obj, near in zip(scenario.objectives, self._holding_units(state), strict=True):
            at = (obj.x, obj.y)
            now, then = holds_near(unit, at), holds_near(unit, at, dx, dy)
            if now == then:
                continue
            others = {side for uid, side in near if uid != unit.uid}
            for there, sign in ((then, 1), (now, -1)):
                side = holder(others | {unit.side} if there else others)
                if side is not None:
                    swing += sign * (obj.points if side == unit.side else -obj.points)
        return OBJECTIVE_SWING * swing * last

    def _holding_units(self, state: BoltActionGame) -> list[list[tuple[int, int]]]:
        """For each objective, the units (uid, side) that could hold it where they stand
        (kept for a choice: nothing moves while it is made)."""
        if self._places is not None and self._holding is not None:
            return self._holding
        found = [
            [(u.uid, u.side) for u in state.units if holds_near(u, (obj.x, obj.y))]
            for obj in state.scenario.objectives
        ]
        if self._places is not None:
            self._holding = found
        return found
