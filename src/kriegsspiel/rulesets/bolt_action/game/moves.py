"""Moves a game makes a unit carry out: an order's move, and a flight straight away from a
threat (a panic, a recce vehicle's escape, troops broken in close quarters), in a Konflikt
'47 or Bolt Action game.

Apart from the order procedure because more than orders move units: close quarters, FUBAR
panics and escapes all end in one of these moves, and the tactical player asks where a
flight would end (:meth:`Moves.flight`) before it chooses. The game inherits them from
:class:`Moves` (``game.flee(...)``, as the rules notes name it), each reading the game's
rules and table and writing its record.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from kriegsspiel.core.table import Point, Table
from kriegsspiel.rulesets.bolt_action.edition import Rules
from kriegsspiel.rulesets.bolt_action.game.table_rules import (
    MoveCheck,
    check_move,
    hull_room,
    last_legal,
    movement_row,
    vehicle_drive,
)
from kriegsspiel.rulesets.bolt_action.game.units import UnitState


class Moves:
    """The game's moves (a part of :class:`.BoltActionGame`, which inherits it): a unit
    moved to a place, or fleeing straight away from a threat."""

    rules: Rules
    table: Table

    if TYPE_CHECKING:  # (the game's own, in state.py)

        def log(self, event: str, /, **data: Any) -> None: ...

    def move_unit(
        self, unit: UnitState, to: Point, *, run: bool, way: str = "", facing: float | None = None
    ) -> None:
        """Move a unit's models straight to ``to`` (checked before); a vehicle ends facing
        as its move leaves it (:func:`table_rules.vehicle_drive`)."""
        start = unit.anchor
        turned: dict[str, Any] = {}
        if unit.vehicle is not None:
            check = check_move(self.rules, self.table, unit, to, run=run, way=way, facing=facing)
            if check.heading is not None and check.heading != unit.heading:
                unit.heading = check.heading
                turned["heading"] = round(check.heading, 1)
            if check.reverse:
                turned["reverse"] = True
        unit.translate(to.x - start.x, to.y - start.y)
        unit.moved = "run" if run else "advance"
        unit.ranged_in_on = None
        self.log("move", unit=unit.uid, to=[round(to.x, 2), round(to.y, 2)], run=run, **turned)

    def flee(self, unit: UnitState, threat_heading: float) -> bool:
        """Run straight away from a threat, as far as the move allows (a vehicle may reverse:
        :meth:`flight`); False if it cannot move away at all."""
        way = self.flight(unit, threat_heading)
        if way is None:
            return False
        to, run, _ = way
        self.move_unit(unit, to, run=run)
        return True

    def flight(
        self, unit: UnitState, threat_heading: float
    ) -> tuple[Point, bool, MoveCheck] | None:
        """Where :meth:`flee` would take ``unit``, without moving it: straight away from
        the threat, the whole of its Run if it may Run there (a vehicle also Advance there,
        as it may reverse); where that is blocked, as far along the line as it may go
        (:func:`table_rules.last_legal`, the moves offered's own rule: a Run cut short
        where it is blocked, or a vehicle's Advance, no longer than its Advance, or its
        reverse, allows, cut short so too; the farther, a Run where they tie). That place,
        whether it is a Run, and the move's check (a vehicle's heading at its end). None if
        it cannot move away at all. The tactical player weighs a recce vehicle's escape by
        it."""
        rules, table = self.rules, self.table
        row = movement_row(rules, unit)
        start = unit.anchor

        def away(reach: float) -> Point:
            return flight_point(table, unit, threat_heading, reach)

        whole = away(float(row.run))
        if whole == start:
            return None  # at the table's edge with the threat straight behind: no way on
        orders = (True, False) if unit.vehicle is not None else (True,)
        for run in orders:
            check = check_move(rules, table, unit, whole, run=run)
            if check.allowed:
                return whole, run, check
        best: tuple[Point, bool] | None = None
        for run in orders:
            if run:
                cut = last_legal(rules, table, unit, True, whole)
            else:  # no farther than its Advance (or its reverse) goes, then cut short
                drive = vehicle_drive(rules, unit, start, whole, False)
                if isinstance(drive, str):
                    continue
                cut = away(float(row.advance) * drive[2])
                if cut == start:
                    continue
                if not check_move(rules, table, unit, cut, run=False).allowed:
                    cut = last_legal(rules, table, unit, False, cut)
            if cut is not None and (
                best is None or start.distance_to(cut) > start.distance_to(best[0]) + 1e-9
            ):
                best = cut, run
        if best is None:
            return None
        to, run = best
        return to, run, check_move(rules, table, unit, to, run=run)


def flight_point(table: Table, unit: UnitState, threat_heading: float, reach: float) -> Point:
    """The place ``reach`` inches straight away from a threat (at ``threat_heading`` from
    ``unit``), brought back to the table's edge (a vehicle's hull on it) where it is off."""
    start = unit.anchor
    rad = math.radians(threat_heading + 180)
    left, bottom, right, top = hull_room(table, unit)  # (a vehicle's hull on it)
    return Point(
        float(min(max(start.x + math.sin(rad) * reach, left), right)),
        float(min(max(start.y + math.cos(rad) * reach, bottom), top)),
    )
