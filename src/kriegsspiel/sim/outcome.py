"""What one finished game contributes to an evaluation: a small, picklable summary."""

from __future__ import annotations

import json
import math
import os
import socket
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from typing import Any

from kriegsspiel.errors import GameDidNotEnd, clause
from kriegsspiel.sim.code import code_version
from kriegsspiel.sim.matchup import Matchup, play_game


@dataclass(frozen=True, slots=True)
class UnitOutcome:
    """One unit of army A or B at the end of a game."""

    army: str  # "A" or "B"
    slot: int  # the unit's place in its army list
    name: str
    points: int
    survived: bool
    damage_dealt: float  # points of enemy models and vehicles this unit removed


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game of a matchup: who won, the scores, its length and every unit's fate."""

    index: int
    seed: int
    swapped: bool
    winner: str  # "A", "B" or "draw"
    score_a: int
    score_b: int
    turns: int
    orders: int  # order dice given (activations), a measure of the game's length
    units: tuple[UnitOutcome, ...]

    def units_json(self) -> str:
        return json.dumps([asdict(u) for u in self.units], separators=(",", ":"))

    @staticmethod
    def units_from_json(text: str) -> tuple[UnitOutcome, ...]:
        """The units as :meth:`units_json` wrote them; ValueError, saying what is wrong,
        for anything else (a results file changed by hand or by another program)."""
        return units_from_rows(loaded_units(text))


def loaded_units(text: Any) -> Any:
    """The JSON of a game's units as :meth:`GameOutcome.units_json` wrote it, loaded (not
    yet checked: see :func:`units_from_rows`); ValueError if it is not JSON."""
    try:
        return json.loads(text)  # (what SQLite gave: a number or NULL is told as not JSON)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"its units are not JSON ({exc})") from None


def units_from_rows(rows: Any) -> tuple[UnitOutcome, ...]:
    """A game's units from their JSON, loaded; ValueError, saying what is wrong, if it is
    not a list of units as :meth:`GameOutcome.units_json` writes them."""
    if type(rows) is not list:
        raise ValueError(f"its units are {_shown(rows)}, not a list of units ([{{...}}, ...])")
    units = []
    for place, row in enumerate(rows, 1):
        if type(row) is dict and row.keys() == _UNIT_FIELDS:  # (the check made fast)
            army, slot, name, points = row["army"], row["slot"], row["name"], row["points"]
            survived, dealt = row["survived"], row["damage_dealt"]
            if (
                (army == "A" or army == "B")
                and type(slot) is int
                and slot >= 0
                and type(name) is str
                and type(points) is int
                and points >= 0
                and type(survived) is bool
                and (type(dealt) is float or type(dealt) is int)
                and 0 <= dealt < math.inf
            ):
                units.append(UnitOutcome(army, slot, name, points, survived, dealt))
                continue
        raise ValueError(f"unit {place} of its units {_unit_fault(row)}")
    return tuple(units)


_UNIT_FIELDS = {f.name: None for f in fields(UnitOutcome)}.keys()
# what each field of a stored unit must be, and how that is told
_UNIT_VALUES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "army": (lambda v: v in ("A", "B"), "A or B"),
    "slot": (lambda v: type(v) is int and v >= 0, "a whole number, 0 or more"),
    "name": (lambda v: type(v) is str, "text"),
    "points": (lambda v: type(v) is int and v >= 0, "a whole number, 0 or more"),
    "survived": (lambda v: type(v) is bool, "true or false"),
    "damage_dealt": (
        lambda v: type(v) in (int, float) and 0 <= v < math.inf,
        "a number, 0 or more",
    ),
}


def _shown(value: object) -> str:
    """A stored value as it is told: its JSON, cut short."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _unit_fault(row: object) -> str:
    """What is wrong with a stored unit (as the end of a sentence)."""
    if type(row) is not dict:
        return f'is {_shown(row)}, not an object ({{"army": ..., ...}})'
    missing = [name for name in _UNIT_FIELDS if name not in row]
    if missing:
        return f"lacks {', '.join(missing)}"
    extra = [name for name in row if name not in _UNIT_FIELDS]
    if extra:
        return f"has {', '.join(extra)}, which a unit does not (it has {', '.join(_UNIT_FIELDS)})"
    for name, (right, told) in _UNIT_VALUES.items():
        if not right(row[name]):
            return f"has {name} {_shown(row[name])}, not {told}"
    return "is not one"  # (not reached: every field is checked above)


def play_one(matchup: Matchup, index: int, seed: int) -> GameOutcome:
    """Play game ``index`` (odd games swap the armies' sides) and summarise it."""
    swapped = index % 2 == 1
    game = play_game(matchup, seed, swapped)
    by_side = game.score()
    score_a, score_b = (by_side[1], by_side[0]) if swapped else by_side
    side_of_a = 1 if swapped else 0
    won = game.winner()  # (a side wiped out loses, whatever the score)
    winner = "draw" if won is None else ("A" if won == side_of_a else "B")
    slots = {0: 0, 1: 0}
    units = []
    for unit in game.units:
        army = "A" if unit.side == side_of_a else "B"
        units.append(
            UnitOutcome(
                army=army,
                slot=slots[unit.side],
                name=unit.name,
                points=unit.points,
                survived=not unit.destroyed,
                damage_dealt=round(unit.damage_dealt, 6),
            )
        )
        slots[unit.side] += 1
    units.sort(key=lambda u: (u.army, u.slot))
    return GameOutcome(
        index=index,
        seed=seed,
        swapped=swapped,
        winner=winner,
        score_a=score_a,
        score_b=score_b,
        turns=game.turn,
        orders=sum(1 for e in game.events if e.kind == "order"),
        units=tuple(units),
    )


class BatchFailed(Exception):
    """A game of a task raised: which game it was (its number and seed), what it raised, and
    the games of the task that finished before it (so that they can still be stored)."""

    def __init__(
        self,
        index: int,
        seed: int,
        error: str,
        finished: list[GameOutcome],
        endless: bool = False,
    ) -> None:
        super().__init__(index, seed, error, finished, endless)  # (how it crosses processes)
        self.index, self.seed, self.error, self.finished = index, seed, error, finished
        self.endless = endless  # the game did not end (GameDidNotEnd): no error of the code's

    def __str__(self) -> str:
        return f"game {self.index} failed: {self.error}"


class OtherCode(Exception):
    """The worker's code is not its run's (another kriegsspiel on a Dask worker, or the
    installed files changed during the run): its games would be stored as the run's code's."""

    def __init__(self, worker: str, run: str, where: str = "") -> None:
        super().__init__(worker, run, where)  # (args: how it crosses processes)
        self.worker, self.run, self.where = worker, run, where

    def __str__(self) -> str:
        at = f" (on {self.where})" if self.where else ""
        return f"a worker{at} plays with kriegsspiel {self.worker}, this run with {self.run}"


def play_batch(
    matchup: Matchup, jobs: tuple[tuple[int, int], ...], code: str | None = None
) -> list[GameOutcome]:
    """Several (index, seed) games in one task, to spread a worker's start-up and messaging;
    none if ``code`` (the run's code version) is not this worker's (OtherCode)."""
    if code is not None and code != code_version():
        raise OtherCode(code_version(), code, f"{socket.gethostname()}, process {os.getpid()}")
    finished: list[GameOutcome] = []
    for index, seed in jobs:
        try:
            finished.append(play_one(matchup, index, seed))
        except GameDidNotEnd as exc:
            raise BatchFailed(index, seed, clause(exc), finished, endless=True) from None
        except Exception as exc:
            raise BatchFailed(index, seed, f"{type(exc).__name__}: {exc}", finished) from exc
    return finished
