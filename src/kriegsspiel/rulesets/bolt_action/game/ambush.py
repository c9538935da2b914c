"""Ambushes: the enemy units waiting on an Ambush die that may fire at a unit which has just
ended a move, in a Konflikt '47 or Bolt Action game.

Apart because every kind of move ends in this check (an order's, an assault's, a panic's,
an escape, a chase): the order procedure, close quarters and FUBAR panics all call
:func:`ambush_check`, which sets the game waiting for the ambushers' choice; the game's
answer to that choice (:mod:`.out_of_turn`) asks :func:`ambushers` again after each shot.
Plain functions taking the game, as the other rule procedures are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kriegsspiel.rulesets.bolt_action.game.actions import Action, Pending
from kriegsspiel.rulesets.bolt_action.game.units import UnitState

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame


def ambushers(
    game: BoltActionGame, mover: UnitState, among: tuple[int, ...] | None = None
) -> tuple[int, ...]:
    """The enemy units (of those ``among``, or all) still ambushing that can shoot at
    ``mover`` (none once it is destroyed)."""
    if mover.destroyed:
        return ()
    units = game.units if among is None else [game.units[uid] for uid in among]
    return tuple(
        u.uid
        for u in units
        if u.side != mover.side and not u.destroyed and u.is_ambushing and game.has_shot(u, mover)
    )


def ambush_check(
    game: BoltActionGame,
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
    able = tuple(uid for uid in ambushers(game, mover) if uid not in exclude)
    if not able:
        return False
    game.pending = Pending(
        "ambush",
        1 - mover.side,
        action,
        mover.uid,
        able,
        after=after,
        reaction=reaction,
    )
    return True
