"""The position as fixed-shape arrays, seen from one side, for learning agents.

Three arrays, their shapes fixed for a game set-up (its units and table), so a network
can read any decision of any game of that set-up:

- ``planes`` (C, rows, cols): the table on the same cells as the action numbering
  (:mod:`kriegsspiel.env.encoding`): how much of each cell each terrain category of the
  edition's table covers, soft and hard cover, what blocks sight, what no vehicle may
  enter, the objectives' points; then the side's own and the enemy's models, vehicles
  and pins, its units still to order, and the units the decision is about;
- ``units`` (N, F): each unit in the game's order, "mine" or the enemy's, with its
  models, place, heading, pins, order, kept die, quality, kind and state;
- ``game`` (K,): the turn, the dice in the bag, the score and which decision this is.

Everything on the table is open to both players (the bag is counted, not seen), so the
two sides' observations hold the same facts, each from its own side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import shapely

from kriegsspiel.core import arguments
from kriegsspiel.core.table import VEHICLE
from kriegsspiel.env.encoding import ActionEncoding
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action.game.actions import ORDERS
from kriegsspiel.rulesets.bolt_action.game.table_rules import terrain_row
from kriegsspiel.rulesets.bolt_action.morale import removed_at_pins

if TYPE_CHECKING:
    from collections.abc import Mapping

    from kriegsspiel.core.table import Table
    from kriegsspiel.rulesets.bolt_action.game.actions import Action
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame

Array = npt.NDArray[np.float32]

DECISIONS = (
    "order",
    "shot-reaction",
    "assault-reaction",
    "ambush",
    "retain",
    "friendly-fire",
    "follow-up",
)
QUALITIES = ("inexperienced", "regular", "veteran")
KINDS = ("infantry", "artillery", "team", "vehicle")
UNIT_FEATURES = (
    "mine",
    "alive",
    "models (share of its start)",
    "x (share of the table's width)",
    "y (share of the table's height)",
    "heading sine (vehicles)",
    "heading cosine (vehicles)",
    "pins / 10",
    *(f"order {o}" for o in ORDERS),
    "kept Ambush",
    "kept Down",
    "die in the bag",
    *(f"quality {q}" for q in QUALITIES),
    *(f"kind {k}" for k in KINDS),
    "immobilised",
    "moved: advanced",
    "moved: ran",
    "points / 1000",
    "ranged in on a target",
    "support call used",
    "may not Run (gravity)",
    "decides now",
    "the pending order's unit",
    "the pending order's target",
)
GAME_FEATURES = (
    "turn / most turns",
    "my dice in the bag / 20",
    "enemy dice in the bag / 20",
    "my score / 10",
    "enemy score / 10",
    *(f"decision {d}" for d in DECISIONS),
)
_UNIT_PLANES = (
    "my models",
    "enemy models",
    "my vehicles",
    "enemy vehicles",
    "my pins / 10",
    "enemy pins / 10",
    "my units to order (models)",
    "units deciding or acted on (models)",
    "the follow-up's place",
)
_SAMPLES = 4  # a cell's terrain is sampled on a 4 x 4 grid of points


_PINS = UNIT_FEATURES.index("pins / 10")
_POINTS = UNIT_FEATURES.index("points / 1000")
_HEADING = UNIT_FEATURES.index("heading sine (vehicles)")  # then its cosine
_DICE = GAME_FEATURES.index("my dice in the bag / 20")  # then the enemy's
_SCORE = GAME_FEATURES.index("my score / 10")  # then the enemy's


@dataclass(frozen=True, slots=True)
class Shapes:
    """The arrays' shapes, and the names of their planes and features: ``plane_names``
    (the planes' first axis), ``unit_features`` (the units' columns, UNIT_FEATURES) and
    ``game_features`` (the game vector's entries, GAME_FEATURES), each in its array's
    order, so ``units[:, shapes.unit_features.index("decides now")]`` is that column."""

    planes: tuple[int, int, int]
    units: tuple[int, int]
    game: tuple[int]
    plane_names: tuple[str, ...]
    unit_features: tuple[str, ...] = UNIT_FEATURES
    game_features: tuple[str, ...] = GAME_FEATURES


class Observer:
    """Builds observations of one game set-up's positions (terrain planes kept per table);
    ``low`` and ``high`` bound each entry over all the set-up's games."""

    def __init__(self, game: BoltActionGame, encoding: ActionEncoding) -> None:
        self.encoding = encoding
        self.categories = _categories(game)
        names = plane_names(game)
        rows, cols = encoding.rows, encoding.columns
        self.shapes = Shapes(
            (len(names), rows, cols),
            (encoding.units, len(UNIT_FEATURES)),
            (len(GAME_FEATURES),),
            names,
        )
        self._table: Table | None = None
        self._terrain: Array = np.zeros((0, rows, cols), np.float32)
        # each entry's bounds, a plane's as one value (spread over its cells when asked)
        self._low, self._high = _bounds(game, self.shapes, len(self.categories))

    @property
    def low(self) -> dict[str, Array]:
        """Each entry's least value over the set-up's games, by array (made anew when
        asked: the spaces keep their own copy, so the planes' cells are not held twice)."""
        return self._spread(self._low)

    @property
    def high(self) -> dict[str, Array]:
        """Each entry's greatest value over the set-up's games (as :attr:`low`)."""
        return self._spread(self._high)

    def forget(self) -> None:
        """Let go of the terrain planes kept for the last table (worked out again when
        next observed): what an environment's close() releases."""
        rows, cols = self.encoding.rows, self.encoding.columns
        self._table, self._terrain = None, np.zeros((0, rows, cols), np.float32)

    def _spread(self, bounds: dict[str, Array]) -> dict[str, Array]:
        shapes = {
            "planes": self.shapes.planes,
            "units": self.shapes.units,
            "game": self.shapes.game,
        }
        return {key: np.array(np.broadcast_to(bounds[key], shapes[key])) for key in shapes}

    def observe(
        self,
        game: BoltActionGame,
        side: int,
        follow_up: Action | None = None,
        *,
        closed: bool = False,
    ) -> dict[str, Array]:
        """The position seen from ``side``; ``follow_up``: an Advance whose place is
        chosen and whose ending is being chosen (the decision is then "follow-up": its
        unit decides, its order pending, and its place is marked); ``closed``: no decision
        is open (a game ended by a forfeit), so none is marked, as once a game is over."""
        wanted = f"side is 0 or 1 (the side whose view it is), not {side!r}"
        if arguments.whole("side", side, wanted) not in (0, 1):
            raise UsageError(wanted)
        planes = np.zeros(self.shapes.planes, np.float32)
        fixed = self._terrain_planes(game)
        planes[: len(fixed)] = fixed
        at = len(fixed)
        for o in game.scenario.objectives:
            row, col = self._cell(o.x, o.y)
            planes[at, row, col] += o.points  # (whole numbers: scaled once, below)
        objectives, at = at, at + 1
        units = np.zeros(self.shapes.units, np.float32)
        pending = None if closed else game.pending
        deciding = set() if closed else set(game.deciding_units())
        if closed:
            follow_up = None
        acted_on: set[int] = set()
        pending_unit = pending_target = None
        if pending is not None:
            pending_unit, pending_target = pending.action.unit, pending.action.target
            acted_on = {pending.action.unit, pending.target} | deciding
            if pending.action.target is not None:
                acted_on.add(pending.action.target)
        elif follow_up is not None:  # (held by the episode, not yet the game's)
            pending_unit = follow_up.unit
            deciding = acted_on = {follow_up.unit}
        # once over, no die waits: the engine puts them back as the last turn ends
        over = game.is_terminal()
        to_order = set() if over else {u.uid for u in game.eligible(side)}
        width, height = game.table.width, game.table.height
        for u in game.units:
            row = units[u.uid]
            mine = u.side == side
            row[0] = mine
            if u.destroyed:
                continue
            models = u.alive_models
            anchor = u.anchor
            row[1] = 1
            row[2] = len(models) / max(u.start_models, 1)
            row[3], row[4] = anchor.x / width, anchor.y / height
            if u.vehicle is not None:
                row[5] = math.sin(math.radians(u.heading))
                row[6] = math.cos(math.radians(u.heading))
            row[7] = u.pins / 10
            i = 8
            if u.order in ORDERS:
                row[i + ORDERS.index(u.order)] = 1
            i += len(ORDERS)
            row[i] = u.retained == "Ambush"
            row[i + 1] = u.retained == "Down"
            row[i + 2] = not over and u.order is None and u.retained is None  # die in the bag
            i += 3
            if u.quality in QUALITIES:
                row[i + QUALITIES.index(u.quality)] = 1
            i += len(QUALITIES)
            row[i + (KINDS.index(u.kind) if u.kind in KINDS else 0)] = 1
            i += len(KINDS)
            row[i] = u.immobilised
            row[i + 1] = u.moved == "advance"
            row[i + 2] = u.moved == "run"
            row[i + 3] = u.points / 1000
            row[i + 4] = u.ranged_in_on is not None
            row[i + 5] = u.support_used
            row[i + 6] = u.no_run
            row[i + 7] = u.uid in deciding
            row[i + 8] = pending_unit == u.uid
            row[i + 9] = pending_target == u.uid
            mover = 0 if mine else 1
            for m in models:
                r, c = self._cell(m.x, m.y)
                planes[at + mover, r, c] += 1
                if u.vehicle is not None:
                    planes[at + 2 + mover, r, c] += 1
                if u.uid in to_order:
                    planes[at + 6, r, c] += 1
                if u.uid in acted_on:
                    planes[at + 7, r, c] += 1
            r, c = self._cell(anchor.x, anchor.y)
            planes[at + 4 + mover, r, c] += u.pins
        # counts summed whole, then scaled: a sum rounds as its bound does (_bounds)
        _tenths(planes[objectives])
        _tenths(planes[at + 4 : at + 6])
        if follow_up is not None and follow_up.to is not None:
            r, c = self._cell(*follow_up.to)
            planes[at + 8, r, c] = 1
        vector = self._game_vector(game, side, follow_up, closed)
        return {"planes": planes, "units": units, "game": vector}

    def _game_vector(
        self,
        game: BoltActionGame,
        side: int,
        follow_up: Action | None,
        closed: bool,
    ) -> Array:
        vector = np.zeros(self.shapes.game, np.float32)
        dice = (0, 0) if game.is_terminal() else game.dice_in_cup()
        score = game.score()
        vector[0] = game.turn / game.scenario.most_turns  # (a turn a roll added: 1)
        vector[1], vector[2] = dice[side] / 20, dice[1 - side] / 20
        vector[3], vector[4] = score[side] / 10, score[1 - side] / 10
        if follow_up is not None:
            decision = "follow-up"
        elif game.pending is not None:
            decision = game.pending.kind
        else:
            decision = "order"
        if not closed and not game.is_terminal():
            vector[5 + DECISIONS.index(decision)] = 1
        return vector

    def _cell(self, x: float, y: float) -> tuple[int, int]:
        return divmod(self.encoding.cell_of(x, y), self.encoding.columns)

    def _terrain_planes(self, game: BoltActionGame) -> Array:
        """The terrain planes (each cell's share covered), worked out once per table:
        the table changes only when a wreck is added to it."""
        table = game.table
        if self._table is table:
            return self._terrain
        rows, cols = self.encoding.rows, self.encoding.columns
        count = len(self.categories) + 4
        # each cell's sample points: the columns' x across, the rows' y down, broadcast
        # (no grid of points held: a byte a point of each plane, while worked out)
        step = self.encoding.cell / _SAMPLES
        offsets = (np.arange(_SAMPLES) + 0.5) * step
        xs = (np.arange(cols)[:, None] * self.encoding.cell + offsets[None, :]).reshape(1, -1)
        ys = (np.arange(rows)[:, None] * self.encoding.cell + offsets[None, :]).reshape(-1, 1)
        covered = np.zeros((count, rows * _SAMPLES, cols * _SAMPLES), np.bool_)
        for feature in table.features:
            inside = shapely.contains_xy(shapely.Polygon(feature.polygon), xs, ys)
            category = terrain_row(game.rules, feature.category).category
            layers = [self.categories.index(category)]
            base = len(self.categories)
            if feature.cover == "soft":
                layers.append(base)
            elif feature.cover == "hard":
                layers.append(base + 1)
            if feature.blocks_line_of_sight:
                layers.append(base + 2)
            # a wreck, or ground the scenario makes impassable to vehicles
            if feature.impassable_to & {VEHICLE, "vehicles", "everyone"}:
                layers.append(base + 3)
            for layer in layers:
                covered[layer] |= inside
        samples = covered.reshape(count, rows, _SAMPLES, cols, _SAMPLES)
        shares = samples.sum(axis=(2, 4), dtype=np.float32) / np.float32(_SAMPLES**2)
        self._table, self._terrain = table, shares
        return self._terrain


def plane_names(game: BoltActionGame) -> tuple[str, ...]:
    """The planes' names, in order, for ``game``'s set-up (its edition's terrain table)."""
    return (
        *(f"terrain: {c}" for c in _categories(game)),
        "soft cover",
        "hard cover",
        "blocks sight",
        "impassable to vehicles",
        "objective points / 10",
        *_UNIT_PLANES,
    )


def _categories(game: BoltActionGame) -> tuple[str, ...]:
    return tuple(r.category for r in game.rules.data.terrain.rows)


def _bounds(
    game: BoltActionGame, shapes: Shapes, categories: int
) -> tuple[dict[str, Array], dict[str, Array]]:
    """Each entry's least and greatest value over every game of the set-up (its units,
    scenario and rules), so the observation spaces are finite boxes.

    Models are only ever lost, each side's units and dice are those it starts with, and
    the score is the scenario's objectives' points or the enemy units destroyed. A live
    unit's pins stay below its morale value where the rules remove a unit that reaches
    it (both shipped editions do); where a rules file turns that off, pins have no bound
    and their entries stay infinite."""
    rules, units = game.rules, game.units
    removed = {u.uid: removed_at_pins(rules, u.quality) for u in units}
    pin_cap = {uid: math.inf if at is None else at - 1.0 for uid, at in removed.items()}

    def most(per_unit: Mapping[int, float] | None = None, *, vehicles: bool = False) -> float:
        """The most of a count, over the two sides, summed over a side's units (models if
        ``per_unit`` is left out)."""
        totals = [0.0, 0.0]
        for u in units:
            if vehicles and u.vehicle is None:
                continue
            totals[u.side] += u.start_models if per_unit is None else per_unit[u.uid]
        return max(totals)

    all_models = float(sum(u.start_models for u in units))
    points = sum(o.points for o in game.scenario.objectives)
    objective_points = points / 10
    planes = np.ones((shapes.planes[0], 1, 1), np.float32)  # a plane's bound, on every cell
    at = categories + 4
    # a plane always 0 (no objectives, no vehicles) is bounded by one point or one model
    # all the same, so a learner scaling by high - low never divides by 0
    planes[at] = points or 1
    _tenths(planes[at])
    planes[at + 1 : at + 3] = most()
    planes[at + 3 : at + 5] = most(vehicles=True) or 1
    planes[at + 5 : at + 7] = most(pin_cap)
    _tenths(planes[at + 5 : at + 7])
    planes[at + 7] = most()
    planes[at + 8] = all_models
    unit_rows = np.ones(shapes.units, np.float32)
    unit_rows[:, _PINS] = max(pin_cap.values(), default=0) / 10
    unit_rows[:, _POINTS] = max((u.points for u in units), default=0) / 1000
    unit_low = np.zeros(shapes.units, np.float32)
    unit_low[:, _HEADING : _HEADING + 2] = -1.0
    side_units = most(dict.fromkeys(pin_cap, 1.0))
    game_row = np.ones(shapes.game, np.float32)
    game_row[_DICE : _DICE + 2] = side_units / 20
    victory = game.scenario.victory == "objectives"
    game_row[_SCORE : _SCORE + 2] = objective_points if victory else side_units / 10
    low = {
        "planes": np.zeros((shapes.planes[0], 1, 1), np.float32),
        "units": unit_low,
        "game": np.zeros(shapes.game, np.float32),
    }
    return low, {"planes": planes, "units": unit_rows, "game": game_row}


def _tenths(counts: Array) -> None:
    """Scale whole counts to tenths in place (float32), as the observation and its bounds
    both do, so a sum at its greatest equals its bound to the last bit."""
    counts /= np.float32(10)
