"""The turn's end: the order dice back into the cup once both sides have acted, the dice
units on Down or Ambush may keep, the roll for one more turn after the last (where the
scenario has one), the next turn's start, and the game's end, in a Konflikt '47 or Bolt
Action game.

The procedure the game runs after each action (:func:`after_action`), apart from the game's
state because it is the turn sequence, not the position: it asks each unit that may keep
its die in turn (the game waits on a ``retain`` choice, answered in :mod:`.out_of_turn`),
and ends the game after the last turn (or the one a roll added) or once a side is wiped
out. The score it records is the
game's own (:meth:`.BoltActionGame.score`). Plain functions taking the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kriegsspiel.rulesets.bolt_action import bag
from kriegsspiel.rulesets.bolt_action.bag import held as _held
from kriegsspiel.rulesets.bolt_action.game.actions import Action, Pending
from kriegsspiel.rulesets.bolt_action.game.support import come_back

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame


def after_action(game: BoltActionGame) -> None:
    """An action is done: unless a decision is awaited, the die drawn is spent, and the game
    ends if a side is wiped out, or the turn does once both sides' dice are all out."""
    if game.pending is not None or game.over:
        return
    game.drawn = None
    if side_wiped_out(game):
        finish(game)
        return
    if not game.eligible(0) and not game.eligible(1):
        end_turn(game)


def side_wiped_out(game: BoltActionGame) -> bool:
    """Whether either side has no unit left."""
    return any(all(u.destroyed for u in game.units if u.side == s) for s in (0, 1))


def end_turn(game: BoltActionGame) -> None:
    """The turn's end: each unit on Down or Ambush may keep its die out of the bag
    (its owner says, unit by unit) for the turn that may come (none after the last turn;
    after a last turn that rolls for another, before the roll: a kept die counts only if
    one comes), then the dice return."""
    if game.scenario.may_follow(game.turn):
        game.retaining = bag.may_keep(game.units)
    game.keeping = ()
    ask_to_retain(game)


def ask_to_retain(game: BoltActionGame) -> None:
    """Ask the next unit that may keep its die, or close the turn when none is left."""
    if game.retaining:
        uid, game.retaining = game.retaining[0], game.retaining[1:]
        unit = game.units[uid]
        held = Action("order", side=unit.side, unit=uid, order=_held(unit) or "")
        game.pending = Pending("retain", unit.side, held, uid)
        return
    close_turn(game)


def close_turn(game: BoltActionGame) -> None:
    """Close the turn: dice kept stay out, the rest go back into the cup; then the game
    ends after its last turn (unless the roll for another gives one), or the next begins
    with any delayed barrages and air strikes rolling again."""
    for u in game.units:
        if u.destroyed:
            continue
        kept = _held(u) if u.uid in game.keeping else None
        u.retained, u.order, u.moved = kept, None, None
    game.keeping = ()
    # the dice go back into the cup, those of destroyed units removed (so before a
    # delayed barrage at the next turn's start may destroy a unit: its die is in)
    game.turn_dice = bag.put_in(game.units)
    game.log("turn end", turn=game.turn, score=list(game.score()))
    if not turn_follows(game):
        finish(game)
        return
    game.turn += 1
    waiting, game.delayed = game.delayed, []
    for call_in in waiting:  # delayed barrages and air strikes roll again
        come_back(game, call_in)
    if side_wiped_out(game):
        finish(game)


def turn_follows(game: BoltActionGame) -> bool:
    """Whether another turn follows the one closing: any before the scenario's last; after
    the last, where the scenario has it, as the D6 rolled now with the game's dice says
    (``another_turn_on`` or more: one more turn; recorded, and told in the account); none
    after the turn a roll added."""
    scenario = game.scenario
    if scenario.another_turn_on is None or not scenario.rolls_after(game.turn):
        return game.turn < scenario.turns
    roll = game.dice.roll(6)
    more = roll >= scenario.another_turn_on
    game.log("another turn", roll=roll, needs=scenario.another_turn_on, played=more)
    return more


def finish(game: BoltActionGame) -> None:
    """The game is over: its score and result are recorded."""
    game.over = True
    a, b = game.score()
    game.log("game over", turn=game.turn, score=[a, b], returns=list(game.returns()))
