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
from kriegsspiel.ai.bolt_action_tactics.move_value import (
    BEST_COVER_BONUS,
    SLACK,
    MoveValuing,
    cover_bonus,
)
from kriegsspiel.ai.bolt_action_tactics.order_test_value import down_value
from kriegsspiel.ai.bolt_action_tactics.reactions import react
from kriegsspiel.ai.bolt_action_tactics.shot_ceiling import TroopsShotCeilings, vehicle_shot_ceiling
from kriegsspiel.ai.bolt_action_tactics.shot_value import PIN_VALUE, damage
from kriegsspiel.ai.players import check_explore, deciding_side
from kriegsspiel.core import arguments
from kriegsspiel.core.seeds import MAX_PLAYER_SEED
from kriegsspiel.core.table import Point
from kriegsspiel.rulesets.bolt_action.edition import Rules, rules_for
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.candidates import order_candidates
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.rulesets.bolt_action.morale import expected_rallied

# a Rally's worth: this a pin the shipped dice would take off, less the cost (a tuning choice)
RALLY_PER_PIN = 6.0
RALLY_COST = 2.0
AMBUSH_WANTED = 3.0  # an Ambush's worth with an enemy near and none to shoot now
AMBUSH_IDLE = 0.5  # its worth otherwise
# orders capped without a target: Down, Ambush, and a move (Advance or Run) that shoots nothing
CAPPED_WITHOUT_TARGET = frozenset({"Down", "Ambush", "Advance", "Run"})


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


class TacticalPlayer(MoveValuing):
    """Greedy one-activation look-ahead on exact expected damage, plus simple doctrine.

    It is deterministic: the same position always gets the same choice, whatever
    ``seed`` (a game's variety comes from its dice). With ``explore`` above 0 (points of
    an order's worth, as :meth:`value` gives it) it gives each order the pick of the
    orders worth within ``explore`` of the best, one drawn with a generator seeded from
    ``seed``: a seeded variety of opponents, for learners. ``explore`` 0 (the default)
    plays as the AI always has.
    """

    def __init__(self, seed: int = 0, explore: float = 0.0) -> None:
        super().__init__()
        seed = arguments.seed(seed, most=MAX_PLAYER_SEED)
        self.seed, self.explore = seed, check_explore(explore)
        # (seeded from text, as RandomPlayer's: not the bare number the game's dice take)
        self._rng = random.Random(f"tactical {seed}")
        # by unit uid, the enemy that could last shoot at it (asked first: see _threatened)
        self._threat: dict[int, int] = {}
        # the ceilings on its shootings at troops, and what they are worked out from
        self._troops_ceilings = TroopsShotCeilings()

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
        self._start_valuing_places(state)
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
            self._places = None  # (outside a choice)

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
        self._forget_move_ends()

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
        swinging = scenario.victory == "objectives" and scenario.last_turn_chance(state.turn) > 0
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
            here = self._cover_here[unit.uid] = cover_bonus(state.table, anchor)
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
                return down_value(pinned, self._threatened(state, unit, enemies))
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

    def _ceiling(self, state: BoltActionGame, action: Action) -> float | None:
        """No less than :meth:`value` of a Fire or an Advance that shoots, worked out in
        the same steps with the damage's cap in its place; of a Down or an Ambush (their
        worth at best: under threat; an enemy near); of a move that shoots nothing (see
        :meth:`_gain_ceiling`). None for other orders."""
        if action.target is None:
            order = action.order
            if order == "Down":
                return down_value(state.units[action.unit].pins, True)
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
