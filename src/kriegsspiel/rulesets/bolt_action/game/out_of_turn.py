"""Decisions made out of turn, and the game going on after them: a unit's reaction to a shot
or an assault, an ambush sprung or held, a die kept at the turn's end, the friend a FUBAR
unit fires at, in a Konflikt '47 or Bolt Action game.

When a rule asks a player to decide out of turn, the game stops with a
:class:`~.actions.Pending` (its legal actions are then that decision's choices); this is what
it does with the answer. Apart from the game's state because it is the procedure that
resumes the others where they stopped (the order's shot, close quarters, a chase, the
turn's end). Plain functions taking the game.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from kriegsspiel.rulesets.bolt_action.game.actions import Action, Pending
from kriegsspiel.rulesets.bolt_action.game.ambush import ambush_check, ambushers
from kriegsspiel.rulesets.bolt_action.game.close_quarters import chase, escape, fight, fight_on
from kriegsspiel.rulesets.bolt_action.game.fubar import fire_on_friend
from kriegsspiel.rulesets.bolt_action.game.orders import shoot_or_react
from kriegsspiel.rulesets.bolt_action.game.turn_end import ask_to_retain
from kriegsspiel.rulesets.bolt_action.reactions import DIE_SHOWN

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame


def resume(game: BoltActionGame, action: Action) -> None:
    """Take the answer to the decision the game waited on (:attr:`.BoltActionGame.pending`)
    and go on with what it interrupted: a die kept or returned, the friend a FUBAR unit
    fires at, a reaction to a shot or an assault, an ambusher firing or all holding."""
    p = game.pending
    assert p is not None
    game.pending = None
    game.log(action.kind, **{k: v for k, v in action.to_json().items() if k != "kind"})
    if p.kind == "retain":
        if action.choice == "keep":
            game.keeping += (p.target,)
        ask_to_retain(game)
        return
    if p.kind == "friendly-fire":
        victim = game.units[action.target]  # type: ignore[index]
        fire_on_friend(game, game.units[p.target], victim, chosen_by=p.side)
        return
    order = p.action
    unit = game.units[order.unit]
    if p.kind == "shot-reaction":
        tgt = game.units[p.target]
        if action.choice == "down":
            tgt.order = DIE_SHOWN["down"]
        # a recce vehicle's escape is a move made before the shot, which is then fired
        # from where it was declared at the vehicle where it ended (out of sight or
        # range: no shot); ambushers may fire at it there first
        escaped = action.choice == "escape" and escape(game, tgt, unit)
        if escaped and ambush_check(game, tgt, order, after="shot"):
            return
        game.shoot(unit, tgt, moving=order.order == "Advance")
    elif p.kind == "assault-reaction":
        fight(game, unit, game.units[p.target], order, action.choice)
    else:
        mover = game.units[p.target]
        if action.choice == "fire":
            ambusher = game.units[action.unit]
            ambusher.order, ambusher.retained = "Fire", None
            game.shoot(ambusher, mover, moving=False)
            # the other ambushers are asked again, those that can still shoot at it
            rest = ambushers(game, mover, p.ambushers)
            if rest:
                game.pending = replace(p, ambushers=rest)
                return
        after_ambush(game, p)


def after_ambush(game: BoltActionGame, p: Pending) -> None:
    """The ambush at ``p``'s mover is over: what was under way goes on (``p.after``)."""
    order = p.action
    unit = game.units[order.unit]
    if p.after == "order":
        # (a vehicle the ambush brought to a halt, its die turned Down, fires no more)
        halted = unit.order == "Down"
        shoots = order.target is not None and order.order == "Advance"
        if shoots and not unit.destroyed and not halted:
            shoot_or_react(game, unit, order)
    elif p.after == "fight":
        fight_on(game, unit, game.units[order.target], order, p.reaction)  # type: ignore[index]
    elif p.after == "chase":
        chase(game, unit, game.units[order.target], order)  # type: ignore[index]
    elif p.after == "shot" and not game.units[p.target].destroyed:
        game.shoot(unit, game.units[p.target], moving=order.order == "Advance")
