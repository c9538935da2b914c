"""Whether a Konflikt '47 or Bolt Action game can take an action now, and if not, why.

:meth:`BoltActionGame.validate` asks :func:`check_action`; the game changes nothing
before it has passed, so a refused action leaves the state as it was.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from kriegsspiel.core.game import CHANCE, TERMINAL, IllegalActionError
from kriegsspiel.core.names import a_or_an
from kriegsspiel.core.table import Point
from kriegsspiel.rulesets.bolt_action.assault import fighting_modes, vehicle_hit_score
from kriegsspiel.rulesets.bolt_action.game.actions import ORDERS, Action, check_types
from kriegsspiel.rulesets.bolt_action.game.close_quarters import can_close
from kriegsspiel.rulesets.bolt_action.game.spacing import Clearance
from kriegsspiel.rulesets.bolt_action.game.support import SUPPORT, can_call
from kriegsspiel.rulesets.bolt_action.game.table_rules import check_order_move, movement_row
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.rulesets.bolt_action.shooting import FIRING_ORDERS

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame


def check_action(game: BoltActionGame, action: Action) -> None:
    """Raise IllegalActionError, saying why, unless the action can be taken now."""
    if not isinstance(action, Action):
        raise IllegalActionError(
            f"an action is an Action (Action.from_json reads one), not {type(action).__name__}"
        )
    check_types(action)
    player = game.current_player()
    if player == TERMINAL:
        raise IllegalActionError("the game is over")
    if player == CHANCE:
        sides = sorted({a.side for a, _ in game.chance_outcomes()})
        if action.kind != "draw":
            raise IllegalActionError(
                "a die must be drawn from the bag first (a chance outcome), not "
                f"{_a_kind(action.kind)} action"
            )
        if action.side not in sides:
            raise IllegalActionError(
                f"a draw names the side whose die comes out of the bag: "
                f"{' or '.join(map(str, sides))}, not {action.side}"
            )
        if action != Action("draw", side=action.side):
            raise IllegalActionError(
                "a draw from the bag carries only its side (no unit, order, place, target, "
                "choice or facing)"
            )
        return
    if game.pending is not None:
        choices = game.pending_choices()
        if action not in choices:
            if game.pending.kind == "friendly-fire":
                firer = game.units[game.pending.target]
                friends = ", ".join(
                    f"{game.units[uid].name} (unit {uid})" for uid in game.pending.friends
                )
                raise IllegalActionError(
                    f"waiting for side {player} to choose whom {firer.name} (unit "
                    f"{firer.uid}) fires at in its FUBAR friendly fire: a 'friendly fire' "
                    f"action with its target one of {friends}"
                )
            who = ", ".join(f"{game.units[u].name} (unit {u})" for u in game.deciding_units())
            raise IllegalActionError(
                f"waiting for side {player} to {game.pending.kind}"
                + (f" with {who}" if who else "")
                + f": choose one of {[a.choice for a in choices]}"
            )
        return
    if action.kind != "order":
        raise IllegalActionError(
            f"side {player} must give an order, not {_a_kind(action.kind)} action"
        )
    if not 0 <= action.unit < len(game.units):
        raise IllegalActionError(f"there is no unit {action.unit}")
    unit = game.units[action.unit]
    if unit.side != player:
        raise IllegalActionError(f"{unit.name} belongs to side {unit.side}, not side {player}")
    if unit.destroyed:
        raise IllegalActionError(f"{unit.name} has been destroyed")
    if unit.order is not None or unit.retained is not None:
        raise IllegalActionError(f"{unit.name} already has an order this turn")
    if action.order not in ORDERS:
        raise IllegalActionError(f"{action.order!r} is not an order ({', '.join(ORDERS)})")
    if action.side not in (-1, player):
        raise IllegalActionError(
            f"{unit.name} is side {player}'s unit; the order says side {action.side!r}"
        )
    _check_fields(game, action)
    if action.order == "Run" and unit.no_run:
        raise IllegalActionError(f"{unit.name} was hit by a gravity pulse and cannot Run now")
    if action.order in ("Advance", "Run"):
        if action.order == "Run" and action.target is not None:
            _check_assault(game, unit, action)
        elif action.to is None:
            raise IllegalActionError(f"{action.order} needs a destination")
        else:
            dest = Point(*action.to)
            check = check_order_move(game.rules, game.table, unit, action)
            if not check.allowed:
                raise IllegalActionError(f"{unit.name} cannot move there: {check.reason}")
            clash = Clearance(game.units, unit, unit.anchor.distance_to(dest)).clash(dest)
            if clash is not None:
                raise IllegalActionError(f"{unit.name} cannot move there: {clash}")
    if action.choice in SUPPORT:
        if action.order != "Fire" or action.target is None:
            raise IllegalActionError(f"a {action.choice} is called with a Fire order at a target")
        if not can_call(game, unit, action.choice):
            raise IllegalActionError(
                f"{unit.name} cannot call a {action.choice} (no observer, "
                "already used, or not in this edition)"
            )
        tgt = _target(game, action.target, unit)
        if not game.visible(unit, tgt):
            raise IllegalActionError(f"{unit.name} cannot see {tgt.name}")
        return
    if action.target is not None and action.order in FIRING_ORDERS:  # (an Ambush has none)
        tgt = _target(game, action.target, unit)
        at = Point(*action.to) if action.to else unit.anchor
        if not game.can_shoot(unit, tgt, moving=action.order == "Advance", origin=at):
            raise IllegalActionError(f"{tgt.name} is out of sight or range of {unit.name}")


def _check_fields(game: BoltActionGame, action: Action) -> None:
    """An order carries only what it uses: a destination to move (Advance, Run), a
    target to shoot or assault (Fire, Advance, Run), and a choice of assault mode or of
    support to call; anything else would be silently ignored, or worse."""
    order = action.order
    if action.facing is not None:
        _check_facing(game, action)
    if order in ("Down", "Rally", "Ambush"):
        if action.to is not None or action.target is not None or action.choice:
            raise IllegalActionError(f"a {order} order takes no destination, target or choice")
        return
    if order == "Fire":
        if action.to is not None:
            raise IllegalActionError("a Fire order does not move: give Advance to move and fire")
        if action.target is None:
            raise IllegalActionError("a Fire order needs a target")
        if action.choice and action.choice not in SUPPORT:
            raise IllegalActionError(
                f"a Fire order's choice is a support call ({', '.join(SUPPORT)}), "
                f"not {action.choice!r}"
            )
        return
    assaulting = order == "Run" and action.target is not None
    if action.choice == "reverse" and not assaulting:
        if order != "Advance" or game.units[action.unit].vehicle is None:
            raise IllegalActionError("only a vehicle reverses, and only on an Advance order")
        return
    # Bolt Action fights hand-to-hand only: its one mode may be named or left out
    modes = fighting_modes(game.rules)
    if action.choice and not (assaulting and action.choice in modes):
        raise IllegalActionError(
            f"an order's choice is an assault mode ({', '.join(modes)}), given with a Run "
            f"at a target, or 'reverse' for a vehicle's Advance; not {action.choice!r} "
            f"with {order}"
        )
    if assaulting:
        _check_assault_fields(game, action)


def _check_facing(game: BoltActionGame, action: Action) -> None:
    """A facing is where a vehicle turns at the end of an Advance or a Run (moving, or
    pivoting where it stands: its destination is then its own place)."""
    facing = action.facing
    if game.units[action.unit].vehicle is None:
        raise IllegalActionError("only a vehicle has a facing to choose; troops face any way")
    if action.order not in ("Advance", "Run") or action.to is None:
        raise IllegalActionError(
            "a vehicle chooses its facing with an Advance or a Run and its destination "
            "(its own place to turn where it stands)"
        )
    if facing is None or not 0 <= facing < 360:
        raise IllegalActionError(
            f"a facing is a heading in degrees, at least 0 (along +y) and under 360 "
            f"(90 is along +x); not {facing!r}"
        )


def _check_assault_fields(game: BoltActionGame, action: Action) -> None:
    """An assault moves by itself, straight at its target: a destination, if given, is
    the target's place (as offered); a mode is for fighting infantry."""
    if action.target is None:
        return
    if not 0 <= action.target < len(game.units):
        raise IllegalActionError(f"there is no unit {action.target}")
    tgt = game.units[action.target]
    if action.to is not None and math.dist(action.to, (tgt.anchor.x, tgt.anchor.y)) > 1e-6:
        raise IllegalActionError(
            f"an assault moves straight at {tgt.name}: leave out its destination, or give "
            f"the target's place ({tgt.anchor.x:.2f}, {tgt.anchor.y:.2f})"
        )
    if tgt.vehicle is not None and action.choice not in ("", "hand-to-hand"):
        raise IllegalActionError(
            f"infantry assault a vehicle one way; {action.choice!r} is for fighting infantry"
        )


def _target(game: BoltActionGame, uid: int, unit: UnitState) -> UnitState:
    if not 0 <= uid < len(game.units):
        raise IllegalActionError(f"there is no unit {uid}")
    tgt = game.units[uid]
    if tgt.destroyed:
        raise IllegalActionError(f"{tgt.name} has been destroyed")
    if tgt.side == unit.side:
        raise IllegalActionError(f"{tgt.name} is on the same side")
    return tgt


def _check_assault(game: BoltActionGame, unit: UnitState, action: Action) -> None:
    tgt = _target(game, action.target, unit)  # type: ignore[arg-type]
    if unit.vehicle is not None:
        raise IllegalActionError("vehicles do not assault")
    if unit.kind == "artillery":  # (the sheets' close quarters: infantry v infantry, v vehicles)
        raise IllegalActionError(
            f"{unit.name} is artillery, a gun and its crew, and does not assault: only "
            "infantry assault, as the sheets' close quarters have it"
        )
    run = movement_row(game.rules, unit).run
    gap = game.gap(unit, tgt)
    if gap > run:
        raise IllegalActionError(f'{tgt.name} is {gap:.1f}" away, beyond a {run}" Run')
    if tgt.vehicle is not None and vehicle_hit_score(game.rules, tgt.moved) is None:
        raise IllegalActionError(f"{tgt.name} ran this turn and cannot be assaulted")
    # an assault is a Run (sheets 000, 001, 002): its move into contact must be one
    close = can_close(game, unit, tgt)
    if not close.allowed:
        raise IllegalActionError(f"{unit.name} cannot assault {tgt.name}: {close.reason}")


def _a_kind(kind: str) -> str:
    """An action's kind, quoted, after "a" or "an" as it is said: "an 'order'"."""
    article = a_or_an(kind).split(" ", 1)[0]
    return f"{article} {kind!r}"
