"""A fixed numbering of every decision of one game set-up, for learning agents.

The engine offers a decision as a list of :class:`Action` values whose length and order
change from one decision to the next. A learned policy wants the opposite: the same
index meaning the same thing at every decision, and a mask of the indices open now.
This module gives that numbering for a game of ``N`` units on a table cut into square
cells (``cell`` inches; 3" by default, so 24 x 16 cells on a 72" x 48" table).

Order decisions, one block of ``4 + 5N + 2G`` indices a unit (``G`` cells), in unit order:

- Ambush, Rally, Down, and an Advance where the unit stands (a vehicle's turn on the spot);
- Fire at unit ``t``; a barrage, then an air strike, called on ``t``; an assault on ``t``
  fighting hand-to-hand (or in the edition's only way), then with point-blank fire;
- an Advance ending in cell ``c``, then a Run ending in cell ``c``.

A move's place is the engine's own candidate in that cell nearest the cell's centre
(candidates are the sensible places the engine offers every player: towards objectives,
cover and the enemy, into buildings and woods, away). Where an Advance to that place can
end in more than one way (firing at one of several targets or at none; a vehicle driving
forwards, in reverse, or turning to a facing), the choice is a second decision, a
follow-up of ``(N + 1) x 4`` indices: target ``t`` (``N``: no shot) by way (forward,
reverse, the first facing offered, the second). Then the other decisions: a draw from
the bag for side 0 or 1 (chance), the reactions by name, which ambusher fires or hold,
keep or return a die, and the friend a FUBAR unit fires at.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from kriegsspiel.core import arguments
from kriegsspiel.errors import UsageError, UsageTypeError, sentence
from kriegsspiel.rulesets.bolt_action.game.actions import Action

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame

SUPPORT_CALLS = ("barrage", "air strike")  # a Fire order's ``choice`` calling support
MODES = ("hand-to-hand", "point-blank")  # an assault's fighting mode ("": the only one)
REACTIONS = ("none", "down", "hand-to-hand", "point-blank", "escape", "stand and fire", "stay")
WAYS = 4  # an Advance's end: forward, reverse, the first facing offered, the second
# the most indices a numbering may have (a policy's output; a mask, a byte an index, at
# every step): 0.5" cells on a 72" x 48" table are 0.5 million (3", the default, 15,640)
MOST_INDICES = 2_000_000
# what an environment's set-up and reset allocate, measured (tracemalloc's peak, through
# construction, reset and a few steps; docs/environment.md): about 4 MB whatever the cells
# (the engine's game), 24 bytes a cell of each observation plane and 5 an index (the
# masks, the mask space's bounds); at most MOST_RESET_BYTES, about twice what the standard
# Konflikt '47 set-up's 18 units on 0.25" cells, the most indices, take (36 MB measured).
# A plane's cell is six float32 numbers, the most any environment holds of it: the AEC
# and Gymnasium environments, the observation space's two bounds, the terrain planes and
# an observation; the OpenSpiel game, its observer's tensor, the observation it is filled
# from and both players' observation_tensor arrays of a step and of the step before (as
# OpenSpiel's rl_environment holds them: 53 MB measured on 2 units' finest cell, 0.166")
GAME_BYTES = 4_000_000
PLANE_CELL_BYTES = 6 * 4  # (six float32 numbers)
INDEX_BYTES = 5
MOST_RESET_BYTES = 64_000_000
_FIXED = ("Ambush", "Rally", "Down")


class NotEncodedError(ValueError):
    """An action the numbering does not reach: a move's place other than the one its
    cell stands for, or not a decision of this set-up (told as a sentence)."""

    def __init__(self, message: str) -> None:
        super().__init__(sentence(message))


class ActionEncoding:
    """The numbering for games of ``units`` units on a ``width`` x ``height`` table."""

    def __init__(
        self, units: int, width: float, height: float, cell: float = 3.0, *, planes: int = 0
    ) -> None:
        """``planes``: the observation planes an environment lays on the cells (0: the
        numbering alone), counted in what its reset allocates, which is bounded."""
        wanted = f"a cell is a positive number of inches, not {cell!r}"
        cell = arguments.number("cell", cell, wanted)
        if not (cell > 0 and math.isfinite(cell)):
            raise UsageError(wanted)
        counted = f"planes is a whole number 0 or more, not {planes!r}"
        if arguments.whole("planes", planes, counted) < 0:
            raise UsageError(counted)
        grid = _grid(width, height, cell)
        size = None if grid is None else indices(units, grid[0] * grid[1])
        if grid is None or not _fits(units, grid, planes):
            raise UsageError(_too_fine(units, width, height, cell, grid, size, planes))
        self.units, self.cell = units, cell
        self.columns, self.rows = grid
        self.cells = self.columns * self.rows
        n, g = units, self.cells
        self._fire = 4
        self._support = self._fire + n
        self._assault = self._support + len(SUPPORT_CALLS) * n
        self._advance = self._assault + len(MODES) * n
        self._run = self._advance + g
        self.per_unit = self._run + g
        self.follow_up = n * self.per_unit  # (target or none) x way
        self.draw = self.follow_up + (n + 1) * WAYS
        self.react = self.draw + 2
        self.ambush = self.react + len(REACTIONS)  # which ambusher fires; then hold
        self.retain = self.ambush + n + 1
        self.friendly_fire = self.retain + 2
        self.size = self.friendly_fire + n
        assert self.size == size

    @classmethod
    def of(cls, game: BoltActionGame, cell: float = 3.0, *, planes: int = 0) -> ActionEncoding:
        """The numbering for ``game``'s units and table (``planes`` as the constructor)."""
        return cls(len(game.units), game.table.width, game.table.height, cell, planes=planes)

    # -- cells -------------------------------------------------------------------------
    def cell_of(self, x: float, y: float) -> int:
        """The cell a place on the table falls in (row by row from (0, 0); a place off the
        table, in the nearest cell)."""
        try:
            col = min(max(int(x // self.cell), 0), self.columns - 1)
            row = min(max(int(y // self.cell), 0), self.rows - 1)
        except (TypeError, ValueError, OverflowError):  # (not numbers, NaN, infinite)
            raise UsageError(
                f"a place is two finite numbers of inches (x, y), not ({x!r}, {y!r})"
            ) from None
        return row * self.columns + col

    def centre(self, cell: int) -> tuple[float, float]:
        """The centre of ``cell`` (a cell of the numbering: 0 to ``cells`` less 1)."""
        if isinstance(cell, bool) or not isinstance(cell, numbers.Integral):
            raise UsageTypeError(
                f"a cell is a whole number from 0 to {self.cells - 1}, not {cell!r}"
            )
        if not 0 <= cell < self.cells:
            raise UsageError(
                f"no cell {cell} in this numbering: the cells are 0 to {self.cells - 1}"
            )
        row, col = divmod(int(cell), self.columns)
        return ((col + 0.5) * self.cell, (row + 0.5) * self.cell)

    def move_cell(self, index: int) -> int | None:
        """The cell an Advance or Run index ends in (None for any other index)."""
        if not 0 <= index < self.follow_up:
            return None
        at = index % self.per_unit
        if at >= self._run:
            return at - self._run
        if at >= self._advance:
            return at - self._advance
        return None

    # -- one action's first index --------------------------------------------------------
    def first_index(self, game: BoltActionGame, action: Action) -> int:
        """The index an action falls under (a move: its cell's), whatever its place."""
        n, kind = self.units, action.kind
        if kind == "draw":
            return self.draw + action.side
        if kind == "react":
            return self.react + _position(REACTIONS, action.choice, "reaction")
        if kind == "ambush":
            return self.ambush + (n if action.choice == "hold" else _uid(action.unit, n))
        if kind == "retain":
            return self.retain + _position(("keep", "return"), action.choice, "choice")
        if kind == "friendly fire":
            return self.friendly_fire + _uid(action.target, n)
        if kind != "order":
            raise NotEncodedError(f"no index stands for an action of kind {kind!r}")
        base, order = _uid(action.unit, n) * self.per_unit, action.order
        if order in _FIXED:
            return base + _FIXED.index(order)
        if order == "Fire":
            target = _uid(action.target, n)
            if not action.choice:
                return base + self._fire + target
            call = _position(SUPPORT_CALLS, action.choice, "support call")
            return base + self._support + call * n + target
        if order == "Run" and action.target is not None:  # an assault
            mode = 0 if not action.choice else _position(MODES, action.choice, "fighting mode")
            return base + self._assault + mode * n + _uid(action.target, n)
        if action.to is None:
            raise NotEncodedError(f"{order} needs a place to end, and this one has none")
        if order == "Advance":
            unit = game.units[action.unit]
            here = unit.anchor
            if action.to == (here.x, here.y):
                return base + 3
            return base + self._advance + self.cell_of(*action.to)
        if order == "Run":
            return base + self._run + self.cell_of(*action.to)
        raise NotEncodedError(f"no index stands for the order {order!r}")

    def follow_up_index(self, action: Action, facings: tuple[float, ...]) -> int:
        """An Advance's follow-up index: its target (or none) by the way it ends;
        ``facings`` are the facings offered for its place, in the engine's order."""
        n = self.units
        target = n if action.target is None else _uid(action.target, n)
        if action.choice == "reverse":
            way = 1
        elif action.facing is None:
            way = 0
        else:
            if action.facing not in facings[: WAYS - 2]:
                raise NotEncodedError(f"the facing {action.facing} is not one offered here")
            way = 2 + facings.index(action.facing)
        return self.follow_up + target * WAYS + way

    # -- a decision's indices --------------------------------------------------------------
    def choices(self, game: BoltActionGame) -> dict[int, tuple[Action, ...]]:
        """The indices open at the game's decision (or draw), each with the actions it
        stands for: one, or an Advance's endings still to be chosen by a follow-up."""
        found: dict[int, list[Action]] = {}
        for action in game.legal_actions():
            found.setdefault(self.first_index(game, action), []).append(action)
        chosen: dict[int, tuple[Action, ...]] = {}
        for index, actions in found.items():
            if len(actions) > 1 and actions[0].to is not None:
                centre = self._place_centre(game, index, actions[0])
                best = min(
                    dict.fromkeys(a.to for a in actions if a.to is not None),
                    key=lambda to: (math.dist(to, centre), to),
                )
                actions = [a for a in actions if a.to == best]
            chosen[index] = tuple(actions)
        return chosen

    def follow_ups(self, actions: tuple[Action, ...]) -> dict[int, Action]:
        """The follow-up indices of an Advance's endings (as :meth:`choices` gives them)."""
        facings = _facings(actions)
        return {self.follow_up_index(a, facings): a for a in actions}

    def encode(self, game: BoltActionGame, action: Action) -> tuple[int, int | None]:
        """The index (and follow-up index, where one is asked) that give ``action`` at the
        game's decision; NotEncodedError if none does (a place its cell does not stand for)."""
        first = self.first_index(game, action)
        actions = self.choices(game).get(first)
        if actions is None or action not in actions:
            raise NotEncodedError(
                f"{action.describe(game)} is not what index {first} stands for here"
                + ("" if actions is None else f" ({actions[0].describe(game)})")
            )
        if len(actions) == 1:
            return first, None
        return first, self.follow_up_index(action, _facings(actions))

    def mask(self, open_indices: Iterable[int]) -> npt.NDArray[np.int8]:
        """1 at each of ``open_indices``, 0 elsewhere."""
        mask = np.zeros(self.size, dtype=np.int8)
        mask[np.fromiter(open_indices, dtype=np.int64)] = 1
        return mask

    # -- words --------------------------------------------------------------------------
    def describe(self, index: int, game: BoltActionGame | None = None) -> str:
        """What ``index`` means; with ``game``, units by name."""
        n = self.units
        if isinstance(index, bool) or not isinstance(index, numbers.Integral):
            raise UsageTypeError(
                f"an index is a whole number from 0 to {self.size - 1}, not {index!r}"
            )
        if not 0 <= index < self.size:
            raise UsageError(f"an index is from 0 to {self.size - 1}, not {index}")
        index = int(index)

        def name(uid: int) -> str:
            return game.units[uid].name if game is not None else f"unit {uid}"

        if index < self.follow_up:
            uid, at = divmod(index, self.per_unit)
            who = name(uid)
            if at < 3:
                return f"{who}: {_FIXED[at]}"
            if at == 3:
                return f"{who}: Advance where it stands"
            if at < self._support:
                return f"{who}: Fire at {name(at - self._fire)}"
            if at < self._assault:
                call, target = divmod(at - self._support, n)
                called = ("a barrage", "an air strike")[call]
                return f"{who}: Fire, calling {called} on {name(target)}"
            if at < self._advance:
                mode, target = divmod(at - self._assault, n)
                how = ("hand-to-hand, or the only way", "point-blank fire")[mode]
                return f"{who}: assault {name(target)} ({how})"
            run = at >= self._run
            cell = at - (self._run if run else self._advance)
            x, y = self.centre(cell)
            half = self.cell / 2
            return (
                f"{who}: {'Run' if run else 'Advance'} to the cell "
                f'{x - half:g}-{x + half:g}", {y - half:g}-{y + half:g}"'
            )
        if index < self.draw:
            target, way = divmod(index - self.follow_up, WAYS)
            shot = "no shot" if target == n else f"firing at {name(target)}"
            ways = ("driving forward", "in reverse", "turning to the first facing offered")
            return f"ending the Advance {shot}, " + (
                ways[way] if way < 3 else "turning to the second facing offered"
            )
        if index < self.react:
            return f"draw a die for side {index - self.draw}"
        if index < self.ambush:
            return f"react: {REACTIONS[index - self.react]}"
        if index < self.retain:
            at = index - self.ambush
            return "ambush: hold fire" if at == n else f"ambush: {name(at)} fires"
        if index < self.friendly_fire:
            return f"{('keep', 'return')[index - self.retain]} the die"
        return f"friendly fire at {name(index - self.friendly_fire)}"

    def _place_centre(
        self, game: BoltActionGame, index: int, action: Action
    ) -> tuple[float, float]:
        cell = self.move_cell(index)
        if cell is None:  # where it stands: every candidate has the one place
            return action.to or (0.0, 0.0)
        return self.centre(cell)


def indices(units: int, cells: int) -> int:
    """How many indices number the decisions of ``units`` units on ``cells`` cells (each
    unit's orders, an Advance's endings, the draws, reactions, ambushes, kept dice and a
    FUBAR unit's friend, as the blocks above)."""
    n = units
    per_unit = 4 + (1 + len(SUPPORT_CALLS) + len(MODES)) * n + 2 * cells
    return n * per_unit + (n + 1) * WAYS + 2 + len(REACTIONS) + (n + 1) + 2 + n


def _grid(width: float, height: float, cell: float) -> tuple[int, int] | None:
    """The columns and rows of ``cell``-inch cells on the table (a place on the far edge
    is in the last), or None where a side has more than MOST_INDICES (a cell of 1e-300
    inches: too many to number, and to print)."""
    if max(width, height) / cell > MOST_INDICES:
        return None
    columns = max(1, math.ceil(width / cell - 1e-9))
    rows = max(1, math.ceil(height / cell - 1e-9))
    return columns, rows


def reset_bytes(units: int, cells: int, planes: int = 0) -> int:
    """About what an environment of ``units`` units, with ``planes`` observation planes
    on ``cells`` cells, allocates at its set-up and reset (measured: GAME_BYTES,
    PLANE_CELL_BYTES, INDEX_BYTES)."""
    return GAME_BYTES + PLANE_CELL_BYTES * planes * cells + INDEX_BYTES * indices(units, cells)


def _fits(units: int, grid: tuple[int, int], planes: int) -> bool:
    """Whether the numbering of ``grid``'s cells stays within MOST_INDICES, and an
    environment laying ``planes`` planes on them within MOST_RESET_BYTES."""
    cells = grid[0] * grid[1]
    return (
        indices(units, cells) <= MOST_INDICES
        and reset_bytes(units, cells, planes) <= MOST_RESET_BYTES
    )


def smallest_cell(units: int, width: float, height: float, planes: int = 0) -> float:
    """The smallest cell, in inches rounded up to a thousandth, whose numbering of
    ``units`` units on a ``width`` x ``height`` table stays within MOST_INDICES, and
    whose environment, laying ``planes`` planes on the cells, within MOST_RESET_BYTES."""
    base = indices(units, 0)  # (each cell adds 2 indices a unit: its Advance and Run)
    per_cell = 2 * max(units, 1)
    most_cells = max(
        1,
        min(
            (MOST_INDICES - base) // per_cell,
            (MOST_RESET_BYTES - GAME_BYTES - INDEX_BYTES * base)
            // (INDEX_BYTES * per_cell + PLANE_CELL_BYTES * planes),
        ),
    )
    # the columns c and rows r (c x r cells at most) that a cell of max(width / c,
    # height / r) inches gives; the least such cell
    exact = min(max(width / c, height / (most_cells // c)) for c in range(1, most_cells + 1))
    cell = math.ceil(exact * 1000) / 1000
    grid = _grid(width, height, cell)
    while grid is None or not _fits(units, grid, planes):  # (rounding)
        cell += 0.001
        grid = _grid(width, height, cell)
    return cell


def _too_fine(
    units: int,
    width: float,
    height: float,
    cell: float,
    grid: tuple[int, int] | None,
    size: int | None,
    planes: int,
) -> str:
    """The refusal of a cell so small its numbering, or an environment's arrays on its
    cells, would be too large to hold."""
    table = f'{width:g}" x {height:g}" table'
    least = f"give a cell of {smallest_cell(units, width, height, planes):g} inches or more"
    if grid is None or size is None or size > MOST_INDICES:
        cells = (
            f"more than {MOST_INDICES:,} cells a side"
            if grid is None
            else f"{grid[0]} x {grid[1]} cells"
        )
        made = f"more than {MOST_INDICES:,}" if size is None else f"{size:,}"
        return (
            f"cell={cell!r} cuts the {table} into {cells}: {made} action indices for its "
            f"{units} units, and the numbering holds at most {MOST_INDICES:,} (every index "
            f"costs memory in each mask, observation space and policy): {least} for this "
            f"set-up"
        )
    count = grid[0] * grid[1]
    needed = reset_bytes(units, count, planes)
    return (
        f"cell={cell!r} cuts the {table} into {grid[0]} x {grid[1]} cells: the "
        f"environment's {planes} observation planes on {count:,} cells and its {size:,} "
        f"action indices would take about {needed / 1e6:,.0f} MB to set up and reset, and "
        f"an environment takes at most {MOST_RESET_BYTES / 1e6:g} MB: {least} for this "
        f"set-up ({units} units on this table)"
    )


def _uid(value: int | None, units: int) -> int:
    if value is None or not 0 <= value < units:
        raise NotEncodedError(f"{value!r} is not a unit of this game (0 to {units - 1})")
    return value


def _position(names: tuple[str, ...], value: str, what: str) -> int:
    if value not in names:
        raise NotEncodedError(f"{value!r} is not a {what} ({', '.join(names)})")
    return names.index(value)


def _facings(actions: tuple[Action, ...]) -> tuple[float, ...]:
    """The facings offered among an Advance's endings, in the engine's order."""
    return tuple(dict.fromkeys(a.facing for a in actions if a.facing is not None))
