"""The tactical player: the player protocol and its choice of order.

:class:`TacticalPlayer` values every legal order and gives the best (or, exploring, one
near the best), valuing the cheap caps first so most orders need no exact odds; its
reactions and kept dice are weighed as its orders are.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

from kriegsspiel.ai.bolt_action_tactics import assault_value
from kriegsspiel.ai.bolt_action_tactics.assault_value import assault_ceiling
from kriegsspiel.ai.bolt_action_tactics.reactions import react
from kriegsspiel.ai.bolt_action_tactics.shot_ceiling import TroopsShotCeilings, vehicle_shot_ceiling
from kriegsspiel.ai.bolt_action_tactics.shot_value import PIN_VALUE, damage
from kriegsspiel.ai.players import check_explore, deciding_side
from kriegsspiel.core import arguments
from kriegsspiel.core.seeds import MAX_PLAYER_SEED
from kriegsspiel.core.table import Point, Table
from kriegsspiel.rulesets.bolt_action.edition import Rules, rules_for
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.candidates import objective_marks, order_candidates
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame, holder, holds_near
from kriegsspiel.rulesets.bolt_action.game.table_rules import (
    check_order_move,
    facing_hit,
)
from kriegsspiel.rulesets.bolt_action.game.threats import nearest_threat
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.rulesets.bolt_action.morale import expected_rallied

# points a victory point won (or lost) at the objectives is worth to a move in the game's
# last turn, where the objectives held decide it (a tuning choice)
OBJECTIVE_SWING = 100.0
COVER_BONUS = {"none": 0.0, "soft": 3.0, "hard": 5.0}  # a place's worth to a unit, by cover
BEST_COVER_BONUS = max(COVER_BONUS.values())
# a vehicle's worth, by the facing it shows the nearest enemy able to knock it out (a
# tuning choice: front armour toward the threat, never the rear)
FACING_WORTH = {"front": 2.0, "side": 0.0, "rear": -2.0}
BEST_FACING = max(FACING_WORTH.values())


# a Rally's worth: this a pin the shipped dice would take off, less the cost (a tuning choice)
RALLY_PER_PIN = 6.0
RALLY_COST = 2.0
AMBUSH_WANTED = 3.0  # an Ambush's worth with an enemy near and none to shoot now
AMBUSH_IDLE = 0.5  # its worth otherwise
# orders capped without a target: Down, Ambush, and a move (Advance or Run) that shoots nothing
CAPPED_WITHOUT_TARGET = frozenset({"Down", "Ambush", "Advance", "Run"})
SLACK = 1e-6  # points added to a move's cap: more than the rounding of its distances


def _cover_bonus(table: Table, at: Point) -> float:
    """What the best cover of the features at a place adds to its worth to a unit (a
    vehicle's too: it takes cover as any target does)."""
    return max([COVER_BONUS[f.cover] for f in table.features_at(at)], default=0.0)


@lru_cache(maxsize=256)
def rally_value(rules: Rules, pins: int) -> float:
    """A Rally order's worth to a unit with ``pins``: RALLY_PER_PIN a pin, less
    RALLY_COST, as tuned by the shipped rules' Rally dice (the sheets' D6); a rules file's
    dice, in proportion to the pins they are expected to take off (:func:`expected_rallied`)
    against the pins the shipped dice are: a D3 Rally of a unit with 5 pins is worth 2 /
    (10/3) of a D6's. With the shipped dice it is RALLY_PER_PIN * pins - RALLY_COST."""
    shipped = expected_rallied(rules_for(rules.ruleset), pins)
    if not shipped:  # (no pins to lose)
        return RALLY_PER_PIN * pins - RALLY_COST
    share = expected_rallied(rules, pins) / shipped
    return RALLY_PER_PIN * pins * float(share) - RALLY_COST


def _down_value(pins: int, threatened: bool) -> float:
    """A Down order's worth: the more pins the unit carries the more it is worth (doctrine:
    a heavily pinned unit goes Down, out of harm's way), and it pays only under threat."""
    return 3.0 * pins + (2 if threatened else -5) - 4


class TacticalPlayer:
    """Greedy one-activation look-ahead on exact expected damage, plus simple doctrine.

    It is deterministic: the same position always gets the same choice, whatever
    ``seed`` (a game's variety comes from its dice). With ``explore`` above 0 (points of
    an order's worth, as :meth:`value` gives it) it gives each order the pick of the
    orders worth within ``explore`` of the best, one drawn with a generator seeded from
    ``seed``: a seeded variety of opponents, for learners. ``explore`` 0 (the default)
    plays as the AI always has.
    """

    def __init__(self, seed: int = 0, explore: float = 0.0) -> None:
        seed = arguments.seed(seed, most=MAX_PLAYER_SEED)
        self.seed, self.explore = seed, check_explore(explore)
        # (seeded from text, as RandomPlayer's: not the bare number the game's dice take)
        self._rng = random.Random(f"tactical {seed}")
        # places valued during a choice (None outside one), kept for later choices while the
        # game, its table and every unit's place stay the same: all a place's value reads
        self._places: dict[tuple[int, float, float], float] | None = None
        self._kept: tuple[BoltActionGame, Table, list[Point | None]] | None = None
        self._kept_places: dict[tuple[int, float, float], float] = {}
        # per side, where the objectives and the live enemies are, kept with the places
        self._marks: dict[
            int, tuple[list[tuple[float, float, float]], list[tuple[float, float]]]
        ] = {}
        # by unit uid, the enemy that could last shoot at it (asked first: see _threatened)
        self._threat: dict[int, int] = {}
        # the ceilings on its shootings at troops, and what they are worked out from
        self._troops_ceilings = TroopsShotCeilings()
        # per objective, the units that could hold it (:meth:`_holding_units`)
        self._holding: list[list[tuple[int, int]]] | None = None
        # during a choice, the cover bonus of the place each unit stands (see _gain_ceiling)
        self._cover_here: dict[int, float] = {}
        # during a choice, by vehicle uid, the nearest enemy able to knock it out (_menace)
        self._menaces: dict[int, Point | None] = {}
        # during a choice, what a move order's end is worth and faces (see _move_end)
        self._ends: dict[tuple[int, str, tuple[float, float] | None, str, float | None], _End] = {}

    # -- the protocol ---------------------------------------------------------------
    def choose(self, state: BoltActionGame) -> Action:
        """Its choice for the side to decide; refused at a chance node or once the game
        is over (:func:`~kriegsspiel.ai.players.deciding_side`)."""
        deciding_side(state, "TacticalPlayer")
        return self._choose(state, state.legal_actions())

    def choose_for(self, state: BoltActionGame, uid: int) -> Action:
        """The order it would give unit ``uid`` at this order decision, valued as
        :meth:`choose` values every unit's (a hint for a person who has picked the unit);
        at any other decision, its choice there."""
        deciding_side(state, "TacticalPlayer")
        actions = state.legal_actions()
        if state.pending is None:
            actions = [a for a in actions if a.kind == "order" and a.unit == uid] or actions
        return self._choose(state, actions)

    def choose_among(self, state: BoltActionGame, actions: list[Action]) -> Action:
        """The one of ``actions`` (some of this order decision's legal orders, such as one
        unit's Advances) it would give, valued as :meth:`choose` values every order (a
        hint for a person who has picked the unit and the order)."""
        return self._choose(state, actions)

    def assault_chance(
        self, state: BoltActionGame, unit: UnitState, target: UnitState, mode: str = ""
    ) -> float | None:
        """``unit``'s chance to win its assault on the troops ``target`` as this player
        weighs an assault (:func:`.assault_value.assault_chance`)."""
        return assault_value.assault_chance(state, unit, target, mode)

    def defence_odds(
        self, state: BoltActionGame, unit: UnitState, target: UnitState, mode: str
    ) -> dict[str, float | None]:
        """The assaulters' chance to win against each defence the assaulted troops may
        choose, as this player weighs them (:func:`.assault_value.defence_odds`)."""
        return assault_value.defence_odds(state, unit, target, mode)

    def _choose(self, state: BoltActionGame, actions: list[Action]) -> Action:
        pending = state.pending
        # (a shot's reaction weighs the unit's own orders, so it is asked as they are)
        if pending is not None and pending.kind not in ("retain", "shot-reaction"):
            return react(self, state, actions)
        places = [None if u.destroyed else u.anchor for u in state.units]
        kept = self._kept
        if kept is None or kept[0] is not state or kept[1] is not state.table or kept[2] != places:
            self._kept, self._kept_places, self._marks = (state, state.table, places), {}, {}
        self._places = self._kept_places
        self._new_choice()
        try:
            if pending is not None and pending.kind == "shot-reaction":
                return react(self, state, actions)
            if pending is not None:
                return self._retain(state, pending.action, actions)
            if self.explore > 0:
                return self._near_best(state, actions)
            return self._best(state, actions)
        finally:
            self._places = None

    def _retain(self, state: BoltActionGame, held: Action, actions: list[Action]) -> Action:
        """Keep a Down or Ambush die at the turn's end when the order it holds is worth as
        much as any the unit could be given now (valued as an activation's orders are)."""
        unit = state.units[held.unit]
        others = [a for a in order_candidates(state, unit) if a.order != held.order]
        keep = not self._worth_more(state, others, self.value(state, held))
        return next(a for a in actions if a.choice == ("keep" if keep else "return"))

    def _worth_more(self, state: BoltActionGame, actions: list[Action], worth: float) -> bool:
        """Is any of the actions worth more than ``worth``? Asked as :meth:`_best` asks,
        the highest cap first, and answered at the first that is (or the first cap no
        more than ``worth``): what the best of them is matters not."""
        uncapped, later = self._caps(state, actions)
        for i in uncapped:
            if self.value(state, actions[i]) > worth:
                return True
        later.sort()
        for minus_ceiling, i in later:
            if -minus_ceiling <= worth:
                return False
            if self.value(state, actions[i]) > worth:
                return True
        return False

    def _new_choice(self) -> None:
        """Forget the caps of the last choice (the game has changed since)."""
        self._troops_ceilings.new_choice()
        self._cover_here, self._menaces = {}, {}
        self._ends = {}
        self._holding = None

    def _best(self, state: BoltActionGame, actions: list[Action]) -> Action:
        """The first of the actions worth the most, as valuing each in turn finds it.

        An order whose worth can be capped cheaply (see :meth:`_ceiling`) is valued after
        the rest, the highest cap first, and not at all when its cap cannot beat the best
        so far (a cap equal to it beats it only from an earlier place in the list).
        """
        best, best_value, best_at = actions[0], float("-inf"), 0
        uncapped, later = self._caps(state, actions)
        for i in uncapped:
            value = self.value(state, actions[i])
            if value > best_value:
                best, best_value, best_at = actions[i], value, i
        later.sort()
        for minus_ceiling, i in later:
            ceiling = -minus_ceiling
            if ceiling < best_value:
                break  # (no cap after it is higher)
            if ceiling == best_value and i > best_at:
                continue
            value = self.value(state, actions[i])
            if value > best_value or (value == best_value and i < best_at):
                best, best_value, best_at = actions[i], value, i
        return best

    def _near_best(self, state: BoltActionGame, actions: list[Action]) -> Action:
        """One of the actions worth within ``explore`` of the best, drawn by the seeded
        generator (each as likely). As in :meth:`_best`, an order whose cap cannot come
        within ``explore`` of the best so far is not valued."""
        uncapped, later = self._caps(state, actions)
        worth: dict[int, float] = {}
        for i in uncapped:
            worth[i] = self.value(state, actions[i])
        best = max(worth.values(), default=float("-inf"))
        later.sort()
        for minus_ceiling, i in later:
            if -minus_ceiling < best - self.explore:
                break  # (no cap after it is higher)
            worth[i] = self.value(state, actions[i])
            best = max(best, worth[i])
        near = sorted(i for i, value in worth.items() if value >= best - self.explore)
        return actions[near[0] if len(near) == 1 else self._rng.choice(near)]

    def _caps(
        self, state: BoltActionGame, actions: list[Action]
    ) -> tuple[list[int], list[tuple[float, int]]]:
        """The places in ``actions`` of the orders without a cap, and (less the cap, place)
        of the rest, each cap as :meth:`_ceiling` gives it. A move that shoots nothing,
        the commonest order, is capped here as :meth:`_gain_ceiling` caps it, from its
        unit's place, cover and pins found once per unit (not one call for every move)."""
        uncapped: list[int] = []
        later: list[tuple[float, int]] = []
        movers: dict[int, tuple[float, float, float, float, int]] = {}
        dist = math.dist
        scenario = state.scenario  # (the last turn of an objectives game: see below)
        swinging = scenario.victory == "objectives" and state.turn >= scenario.turns
        for i, action in enumerate(actions):
            order = action.order
            if action.target is None and (order == "Advance" or order == "Run"):
                mover = movers.get(action.unit)
                if mover is None:
                    mover = movers[action.unit] = self._mover(state, state.units[action.unit])
                x, y, here, turn, pins = mover
                to = action.to
                gain = 0.0
                if to:  # in :meth:`_gain_ceiling`'s steps, so to the last bit its answer
                    gain = 0.9 * dist(to, (x, y)) + SLACK
                    if swinging:  # (0 otherwise)
                        gain += self._objective_swing(state, state.units[action.unit], to)
                    gain = gain + BEST_COVER_BONUS - here + turn
                later.append((-((0.0 + gain if order == "Advance" else 1.3 * gain) - pins), i))
                continue
            ceiling = None
            if action.target is not None or order in CAPPED_WITHOUT_TARGET:
                ceiling = self._ceiling(state, action)
            if ceiling is None:
                uncapped.append(i)
            else:
                later.append((-ceiling, i))
        return uncapped, later

    def _mover(
        self, state: BoltActionGame, unit: UnitState
    ) -> tuple[float, float, float, float, int]:
        """Where the unit stands, the cover bonus there, what turning could gain a vehicle
        (:meth:`_turn_ceiling`) and its pins: all :meth:`_caps` reads of a mover."""
        anchor = unit.anchor
        here = self._cover_here.get(unit.uid)
        if here is None:
            here = self._cover_here[unit.uid] = _cover_bonus(state.table, anchor)
        return anchor.x, anchor.y, here, self._turn_ceiling(state, unit), unit.pins

    # -- valuing an order ---------------------------------------------------------------
    def damage(
        self,
        state: BoltActionGame,
        unit: UnitState,
        target: UnitState,
        *,
        moving: bool,
        origin: Point | None = None,
        heading: float | None = None,
    ) -> float:
        """Expected points of ``target`` destroyed by this shooting, as this player values
        a shot (:func:`.shot_value.damage`)."""
        return damage(state, unit, target, moving=moving, origin=origin, heading=heading)

    def value(self, state: BoltActionGame, action: Action) -> float:
        unit = state.units[action.unit]
        pinned = unit.pins
        if action.order == "Rally":
            return rally_value(state.rules, pinned)
        if action.order in ("Down", "Ambush"):
            enemies = [u for u in state.units if u.side != unit.side and not u.destroyed]
            if action.order == "Down":
                return _down_value(pinned, self._threatened(state, unit, enemies))
            # an enemy within 24" (as the nearest one is), and none the unit can shoot now
            near = any(state.gap(unit, e) < 24 for e in enemies)
            return (
                AMBUSH_WANTED
                if near and not any(state.can_shoot(unit, e, moving=False) for e in enemies)
                else AMBUSH_IDLE
            )
        if action.order == "Fire" and action.choice in ("barrage", "air strike"):
            return self._support_value(state, unit, state.units[action.target])  # type: ignore[index]
        if action.order == "Fire" and action.target is not None:
            return damage(state, unit, state.units[action.target], moving=False) - pinned
        if action.order == "Run" and action.target is not None:
            return assault_value.assault_value(state, unit, state.units[action.target], action)
        to = action.to
        position, heading = self._move_end(state, unit, action)
        if action.order == "Advance":
            if action.target is None:
                return 0.0 + position - pinned  # (0.0: the shot it does not fire)
            dest = Point(*to) if to else unit.anchor
            shot = damage(
                state, unit, state.units[action.target], moving=True, origin=dest, heading=heading
            )
            return shot + position - pinned
        if action.order == "Run":
            return 1.3 * position - pinned
        return 0.0

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

    def _ceiling(self, state: BoltActionGame, action: Action) -> float | None:
        """No less than :meth:`value` of a Fire or an Advance that shoots, worked out in
        the same steps with the damage's cap in its place; of a Down or an Ambush (their
        worth at best: under threat; an enemy near); of a move that shoots nothing (see
        :meth:`_gain_ceiling`). None for other orders."""
        if action.target is None:
            order = action.order
            if order == "Down":
                return _down_value(state.units[action.unit].pins, True)
            if order == "Ambush":
                return AMBUSH_WANTED
            if order in ("Advance", "Run"):
                unit = state.units[action.unit]
                gain = self._gain_ceiling(state, unit, action.to)
                return (0.0 + gain if order == "Advance" else 1.3 * gain) - unit.pins
            return None
        order = action.order
        if order == "Run":
            return assault_ceiling(state, action)
        if order == "Fire" and action.choice not in ("barrage", "air strike"):
            moving = False
        elif order == "Advance":
            moving = True
        else:
            return None
        unit = state.units[action.unit]
        to = action.to if moving else None
        target = state.units[action.target]
        if target.vehicle is not None:
            heading = self._move_end(state, unit, action)[1] if moving else None
            shot = vehicle_shot_ceiling(state, unit, target, moving, to, heading)
        else:
            if to:
                anchor = unit.anchor
                shift = math.dist(to, (anchor.x, anchor.y))
            else:
                shift = 0.0
            found = self._troops_ceilings.ceiling(state, unit, target, moving, shift)
            if found is None:
                return None
            shot = found
        if not moving:
            return shot - unit.pins
        return shot + self._move_end(state, unit, action)[0] - unit.pins

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
            here = self._cover_here[unit.uid] = _cover_bonus(state.table, anchor)
        gain += self._objective_swing(state, unit, to)  # (exact: it is cheap)
        return gain + BEST_COVER_BONUS - here + self._turn_ceiling(state, unit)

    def _objective_swing(
        self, state: BoltActionGame, unit: UnitState, to: tuple[float, float] | None
    ) -> float:
        """In the last turn of a game won by objectives, the victory points a move of
        troops to ``to`` wins (or loses) its side at the objectives, :data:`OBJECTIVE_SWING`
        points each: there the objectives held decide the game, and no turn is left to
        come back (0 in any other turn, for a vehicle, or for a game won otherwise)."""
        scenario = state.scenario
        if (
            to is None
            or unit.vehicle is not None
            or scenario.victory != "objectives"
            or state.turn < scenario.turns
        ):
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
        return OBJECTIVE_SWING * swing

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

    def _facing_value(
        self, state: BoltActionGame, unit: UnitState, at: Point, heading: float
    ) -> float:
        """A vehicle's worth, by the facing it shows its :meth:`_menace` from ``at``."""
        threat = self._menace(state, unit)
        if threat is None or threat == at:
            return 0.0
        return FACING_WORTH[facing_hit(heading, at, threat)]

    def _move_end(self, state: BoltActionGame, unit: UnitState, action: Action) -> _End:
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

    def _threatened(self, state: BoltActionGame, unit: UnitState, enemies: list[UnitState]) -> bool:
        """Could any of ``enemies`` shoot at the unit where it stands? The one that could
        when last asked is asked first: the same answer in any order, most often found
        at the first question."""
        hint = self._threat.get(unit.uid)
        if hint is not None:
            for e in enemies:
                if e.uid == hint:
                    if state.can_shoot(e, unit, moving=False):
                        return True
                    break
        for e in enemies:
            if e.uid != hint and state.can_shoot(e, unit, moving=False):
                self._threat[unit.uid] = e.uid
                return True
        return False

    def _support_value(self, state: BoltActionGame, unit: UnitState, target: UnitState) -> float:
        """Half the time it arrives: pins all round the target (friends too), some damage."""
        value = 0.0
        for other in state.units:
            if other.destroyed or state.gap(other, target) > 9.0:
                continue
            sign = 1.0 if other.side != unit.side else -1.5
            value += sign * (2 * PIN_VALUE + 0.15 * other.points)
        return 0.5 * value

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
        return value + _cover_bonus(state.table, at)

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


# a move order's end: its worth to the unit and a vehicle's heading there (see _move_end)
_End = tuple[float, float | None]
