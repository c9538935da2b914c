"""FUBAR in Konflikt '47 and Bolt Action: what a unit does when its order test comes up a
double six and the FUBAR chart (``morale.fubar``, the sheets' chart) says friendly fire or
panic."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kriegsspiel.rulesets.bolt_action.game.actions import Action, Pending
from kriegsspiel.rulesets.bolt_action.game.ambush import ambush_check
from kriegsspiel.rulesets.bolt_action.game.moves import flight_point
from kriegsspiel.rulesets.bolt_action.game.table_rules import heading_to, movement_row
from kriegsspiel.rulesets.bolt_action.game.units import UnitState

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame


def friendly_targets(game: BoltActionGame, unit: UnitState) -> list[UnitState]:
    """The friends a FUBAR unit may fire on, in the order of the lists: each one it would
    have a shot at (in sight and range, not moving, and within its weapons' own limits:
    a mortar's least range, a vehicle's arcs) that has an enemy unit (one of the
    opponent's) within the FUBAR table's ``friendly_fire_enemy_within`` (the sheets' 12":
    000, 001, 002; with none, it goes Down)."""
    enemies = [e for e in game.units if e.side != unit.side and not e.destroyed]
    reach = game.rules.friendly_fire_reach
    return [
        u
        for u in game.units
        if u.side == unit.side
        and u.uid != unit.uid
        and not u.destroyed
        and any(game.gap(u, e) <= reach for e in enemies)
        and game.has_shot(unit, u)
    ]


def friendly_fire(game: BoltActionGame, unit: UnitState, order: Action) -> None:
    """FUBAR, friendly fire: the unit takes a Fire order and fires at a friend of
    :func:`friendly_targets`, which the opposing player chooses (sheets 000, 001, 002).
    With two or more, the game waits for that choice (a pending "friendly-fire" decision,
    ``order`` the order whose test came up FUBAR); with one, it is fired at; with none,
    the unit goes Down."""
    unit.order = "Fire"
    friends = friendly_targets(game, unit)
    if not friends:
        unit.order = "Down"
        game.log("fubar", unit=unit.uid, result="friendly fire: no target, goes Down")
        return
    if len(friends) == 1:
        fire_on_friend(game, unit, friends[0], chosen_by=None)
        return
    game.pending = Pending(
        "friendly-fire", 1 - unit.side, order, unit.uid, friends=tuple(f.uid for f in friends)
    )


def fire_on_friend(
    game: BoltActionGame, unit: UnitState, victim: UnitState, *, chosen_by: int | None
) -> None:
    """The friendly fire itself: ``chosen_by`` is the side that chose the target (None
    when it was the only one)."""
    if chosen_by is None:
        game.log("fubar", unit=unit.uid, result="friendly fire", target=victim.uid)
    else:
        game.log(
            "fubar", unit=unit.uid, result="friendly fire", target=victim.uid, chosen_by=chosen_by
        )
    game.shoot(unit, victim, moving=False)


def panic(game: BoltActionGame, unit: UnitState, order: Action | None = None) -> None:
    """FUBAR, panic: the unit runs straight away from the nearest enemy in sight; with none
    in sight, or no way to move (sheet 001), it goes Down. The Run is a move: the enemy
    may spring an ambush on it where it ends (``order``: the order whose test came up
    FUBAR, which the ambush's decision names; nothing of it follows)."""
    enemies = [
        e for e in game.units if e.side != unit.side and not e.destroyed and game.visible(unit, e)
    ]
    if not enemies or unit.immobilised:  # (two causes: the record says which)
        unit.order = "Down"
        cause = "cannot move (immobilised)" if enemies else "no enemy in sight"
        game.log("fubar", unit=unit.uid, result=f"panic: {cause}, goes Down")
        return
    closest = min(enemies, key=lambda e: game.gap(unit, e))
    threat = heading_to(unit.anchor, closest.anchor)
    start, run = unit.anchor, float(movement_row(game.rules, unit).run)
    edge = start.distance_to(flight_point(game.table, unit, threat, run)) < run - SHORT
    if not game.flee(unit, threat):
        unit.order = "Down"  # sheet 001: a unit that can no longer move goes Down instead
        game.log("fubar", unit=unit.uid, result="panic: cannot move away, goes Down")
        return
    unit.order = "Run"
    moved = game.events[-1]  # (the flight's move)
    why = short_flight(
        ran=bool(moved.data.get("run")), reverse=bool(moved.data.get("reverse")),
        short=start.distance_to(unit.anchor) < run - SHORT, edge=edge,
    )  # fmt: skip
    told = {"flight": why} if why is not None else {}
    game.log("fubar", unit=unit.uid, result="panic", away_from=closest.uid, **told)
    if order is None:
        order = Action("order", side=unit.side, unit=unit.uid, order="Run")
    ambush_check(game, unit, order, after="")


#: how much shorter than its Run a flight is before the record says why (a tenth of an
#: inch: the places it records are rounded to the hundredth)
SHORT = 0.1


def short_flight(*, ran: bool, reverse: bool, short: bool, edge: bool) -> str | None:
    """Why a panic's flight was shorter than the unit's whole Run, in a few words for its
    record and account (None: it ran the whole of it): ``ran``, it went as a Run (not a
    vehicle's Advance); ``reverse``, a vehicle reversed; ``short``, it ended short of its
    Run; ``edge``, the table's edge came first on its line (docs/rules, "FUBAR panic",
    "Vehicle turns and reversing")."""
    if not ran and reverse:
        return "an Advance: a vehicle reverses only on an Advance"
    if not ran:
        return "an Advance: a vehicle that may not Run there"
    if not short:
        return None
    return "cut short at the table's edge" if edge else "cut short where it was blocked"
