"""How the tactical player reacts to the enemy's orders, as it weighs its own.

A reaction is a decision between the enemy's order and its outcome: spring an ambush on a
mover, pick the friend a FUBAR enemy unit fires at, go Down (or drive a recce vehicle off)
before a shot lands, meet an assault. Each is weighed by the same reckoning as the
player's orders (a shot's worth, an assault's odds), and giving up a unit's die by the
orders it could otherwise be given; apart from the player because none of it is a choice
among the unit's orders, only an answer to the enemy's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kriegsspiel.ai.bolt_action_tactics.assault_value import chosen_defence
from kriegsspiel.ai.bolt_action_tactics.shot_value import damage
from kriegsspiel.rulesets.bolt_action.attack import futile
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.candidates import order_candidates
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.table_rules import heading_to
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.rulesets.bolt_action.reactions import die_shown

if TYPE_CHECKING:
    from kriegsspiel.ai.bolt_action_tactics.player import TacticalPlayer


def react(player: TacticalPlayer, state: BoltActionGame, actions: list[Action]) -> Action:
    """``player``'s answer at a reaction: an ambush sprung on a mover it can hurt, the
    friend a FUBAR enemy fires at, going Down (or a recce vehicle's escape) when it is
    worth its die, or the defence that leaves assaulters the least chance."""
    choices = {a.choice: a for a in actions}
    pending = state.pending
    assert pending is not None
    if pending.kind == "ambush":
        # (a shot that can do nothing, small arms at a tank, would spend the ambush:
        # it holds for a mover it can hurt)
        mover = state.units[pending.target]
        fire = [
            a
            for a in actions
            if a.choice == "fire"
            and not futile(state.shot_groups(state.units[a.unit], mover, moving=False))
        ]
        return fire[0] if fire else actions[-1]
    if pending.kind == "friendly-fire":
        return friendly_fire_target(state, state.units[pending.target], actions)
    if pending.kind == "shot-reaction":
        shooter = state.units[pending.action.unit]
        target = state.units[pending.target]
        moving = pending.action.order == "Advance"
        danger = damage(state, shooter, target, moving=moving)
        if danger < 0.25 * target.points:
            return choices["none"]
        if "escape" in choices:  # a recce vehicle: drive off before the shot
            saves = escape_saves(state, shooter, target, moving, danger)
            shown = die_shown(state.rules, "escape", vehicle=True)
            worth_it = down_worth_it(player, state, target, saves, shown=shown)
            return choices["escape"] if worth_it else choices["none"]
        saves = down_saves(state, shooter, target, moving, danger)
        return choices["down"] if down_worth_it(player, state, target, saves) else choices["none"]
    target = state.units[pending.target]
    if target.vehicle is not None:
        return choices.get("escape", actions[0])
    assault = pending.action
    mode = assault.choice or "hand-to-hand"
    return choices[chosen_defence(state, state.units[assault.unit], target, mode)[0]]


def down_saves(
    state: BoltActionGame,
    shooter: UnitState,
    target: UnitState,
    moving: bool,
    danger: float,
) -> float:
    """The points of ``target`` that going Down would save from this shooting: its
    worth (:func:`.shot_value.damage`) as it stands less its worth with the target Down (the
    target's order set to Down for the question, and back)."""
    order = target.order
    target.order = "Down"
    try:
        down = damage(state, shooter, target, moving=moving)
    finally:
        target.order = order
    return danger - down


def escape_saves(
    state: BoltActionGame,
    shooter: UnitState,
    target: UnitState,
    moving: bool,
    danger: float,
) -> float:
    """The points of the recce vehicle ``target`` its escape would save from this
    shooting: its worth (:func:`.shot_value.damage`) as it stands less its worth where the escape
    would leave it, facing as it would (:meth:`~BoltActionGame.flight`, asked of a copy
    of the vehicle: out of sight or range, nothing); none where it has no way out."""
    way = state.flight(target, heading_to(target.anchor, shooter.anchor))
    if way is None:
        return 0.0
    to, _, check = way
    there = target.copy()
    dx, dy = to.x - target.anchor.x, to.y - target.anchor.y
    there.translate(dx, dy)
    if check.heading is not None:
        there.heading = check.heading
    return danger - damage(state, shooter, there, moving=moving)


def down_worth_it(
    player: TacticalPlayer,
    state: BoltActionGame,
    unit: UnitState,
    saves: float,
    *,
    shown: str = "Down",
) -> bool:
    """Whether a reaction that takes the unit's die showing ``shown`` (going Down, or a
    recce vehicle's escape: Down in Bolt Action), saving ``saves`` points of ``unit``
    from the shot, is worth its die: the saving and a Down order's own worth
    (:meth:`TacticalPlayer.value`; nothing for an escape's Run) against the best order it could
    otherwise be given this turn, valued as an activation values its orders (its
    shots from where it stands or after a move, a move toward an objective, in the
    last turn what holding one swings, an assault, a spotter's call), answered at the
    first order found worth more (:meth:`TacticalPlayer._worth_more`: cheap). So a gun with a good
    shot, or a squad that would take an objective, stays up; a unit with nothing
    better to do, under dangerous fire, goes Down (or drives off)."""
    worth = saves
    if shown == "Down":
        down = Action("order", side=unit.side, unit=unit.uid, order="Down")
        worth += player.value(state, down)
    others = [a for a in order_candidates(state, unit) if a.order != "Down"]
    return not player._worth_more(state, others, worth)


def friendly_fire_target(state: BoltActionGame, firer: UnitState, actions: list[Action]) -> Action:
    """The friend of the enemy's FUBAR unit to have it fire at: the one its shooting
    would hurt the most, valued as the player values a shot of its own
    (:func:`.shot_value.damage`); the first in the list of those worth as much."""
    best, most = actions[0], float("-inf")
    for action in actions:
        assert action.target is not None
        hurt = damage(state, firer, state.units[action.target], moving=False)
        if hurt > most:
            best, most = action, hurt
    return best
