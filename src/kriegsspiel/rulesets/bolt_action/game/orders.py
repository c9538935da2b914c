"""Orders carried out: a unit's order test and the order it was given (Fire, Advance, Run,
Ambush, Rally, Down), in a Konflikt '47 or Bolt Action game.

The procedure the game runs when a player gives the order for the die just drawn, apart from
the game's state because it is the rule sequence that hands on to all the others: a FUBAR
(:mod:`.fubar`), an assault (:mod:`.close_quarters`), a support call (:mod:`.support`), an
ambush (:mod:`.ambush`), a shot and its reaction. Plain functions taking the game, as those
are; the play aid's briefing asks :func:`order_test_of` for the test a unit would take.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kriegsspiel.core.table import Point
from kriegsspiel.rulesets.bolt_action.assault import assault_order_modifier
from kriegsspiel.rulesets.bolt_action.game.actions import Action, Pending
from kriegsspiel.rulesets.bolt_action.game.ambush import ambush_check
from kriegsspiel.rulesets.bolt_action.game.close_quarters import assault, shot_reactions_of
from kriegsspiel.rulesets.bolt_action.game.fubar import friendly_fire, panic
from kriegsspiel.rulesets.bolt_action.game.support import SUPPORT, call
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.rulesets.bolt_action.morale import (
    MoraleTest,
    new_test,
    rallied,
    rally_roll,
    rolled_order_test,
)

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame


def carry_out(game: BoltActionGame, action: Action) -> None:
    """Carry out an order given to the unit whose die was drawn: its order test (a FUBAR
    turns to friendly fire or panic), then the order itself (Rally's roll, a support call,
    a move with any ambush at its end, a shot, or an assault)."""
    unit = game.units[action.unit]
    unit.no_run = False  # a gravity pulse stops only the next activation's Run
    test = order_test_of(game, unit, action)
    rolled = rolled_order_test(game.dice, game.rules, test, action.order)
    result = rolled.result
    if result != "no test":
        fubar_roll = {} if rolled.fubar_roll is None else {"fubar_roll": rolled.fubar_roll}
        game.log(
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
        friendly_fire(game, unit, action)
        return
    if result == "panic":
        panic(game, unit, action)
        return
    unit.order = action.order
    if action.order == "Rally":
        roll = rally_roll(game.dice, game.rules)
        lost = rallied(unit.pins, roll)
        unit.pins -= lost
        game.log("rally", unit=unit.uid, pins_lost=lost, roll=roll)
    elif action.order == "Fire" and action.choice in SUPPORT and action.target is not None:
        call(game, unit, game.units[action.target], action.choice)
    elif action.order in ("Fire", "Advance", "Run"):
        if action.order == "Run" and action.target is not None:
            assault(game, unit, action)
            return
        if action.to is not None:
            game.move_unit(
                unit,
                Point(*action.to),
                run=action.order == "Run",
                way=action.choice,
                facing=action.facing,
            )
            if ambush_check(game, unit, action):
                return
        if action.target is not None and action.order != "Run":
            shoot_or_react(game, unit, action)


def order_test_of(game: BoltActionGame, unit: UnitState, action: Action) -> MoraleTest:
    """The order test ``unit`` takes for ``action`` (its quality, pins and an officer
    near; an assault on a vehicle's modifier), whether or not one is needed."""
    modifier = 0
    if action.order == "Run" and action.target is not None:
        tgt = game.units[action.target]
        if tgt.vehicle is not None:
            modifier = assault_order_modifier(
                game.rules,
                tgt.vehicle.target,
                open_topped=tgt.vehicle.open_topped,
                anti_tank=game.has_anti_tank(unit),
            )
    return new_test(
        game.rules,
        unit.quality,
        officer=game.officer_near(unit),
        pins=unit.pins,
        modifier=modifier,
    )


def shoot_or_react(game: BoltActionGame, unit: UnitState, action: Action) -> None:
    """The shot is declared: its target's side is asked for a reaction where it has
    one (:func:`shot_reactions_of`: Down, or a recce vehicle's escape), else it is fired."""
    tgt = game.units[action.target]  # type: ignore[index]
    if not tgt.destroyed and shot_reactions_of(game.rules, tgt):
        game.pending = Pending("shot-reaction", tgt.side, action, tgt.uid)
        return
    game.shoot(unit, tgt, moving=action.order == "Advance")
