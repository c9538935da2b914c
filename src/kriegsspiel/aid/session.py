"""One game of the play aid: its steps (for undo), its dice and the file it is saved in.

Every step is written to the save file before it is shown (whole or not at all), so a
closed browser, a stopped server or a crashed machine loses nothing; the same file, given
again, goes on where the game stopped.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from kriegsspiel.aid.tracker import AidError, Tracker
from kriegsspiel.core.procedure import RandomDice
from kriegsspiel.errors import UsageError
from kriegsspiel.outfiles import check_output, writing

FORMAT = "kriegsspiel play aid"
KEPT_STEPS = 500  # how many steps back undo reaches (a game has a few hundred at most)
_STEPS = TypeAdapter(list[Tracker])
T = TypeVar("T")


def is_save(start: bytes) -> bool:
    """Whether a file's first bytes are a play aid's save (to replace it, and only it)."""
    return start.lstrip().startswith(b'{"format": "' + FORMAT.encode())


class AidSession:
    """The steps of one game on a real table, the newest last, saved after each step."""

    def __init__(self, first: Tracker, *, seed: int | None = None, save: str | None = None):
        self.steps: list[Tracker] = [first]
        self.start = first
        self.seed = seed
        self.dice = RandomDice(seed)
        self.save = save
        self._write()

    @property
    def now(self) -> Tracker:
        return self.steps[-1]

    def step(self, change: Callable[[Tracker], Tracker]) -> Tracker:
        """Take a step (a refused one raises :class:`AidError` and changes nothing)."""
        after = change(self.now)
        self.steps = [*self.steps[-KEPT_STEPS:], after]
        self._write()
        return after

    def undo(self) -> Tracker:
        """Go back one step (a die drawn goes back in the bag; the dice rolled are not
        rolled again the same)."""
        if len(self.steps) == 1:
            raise AidError("nothing to undo: this is the game's start")
        self.steps.pop()
        self._write()
        return self.now

    def new_game(self) -> Tracker:
        """The same armies from the first turn again (undo goes back into the old game)."""
        return self.step(lambda _: self.start)

    # ------------------------------------------------------------------ the save file
    @classmethod
    def resume(cls, path: str, *, seed: int | None = None) -> AidSession:
        """Go on with the game saved at ``path``; a file that is not a whole save is
        refused, naming what is wrong, and left as it is."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"--save {path}: cannot read it ({exc})") from None
        except json.JSONDecodeError as exc:
            raise UsageError(
                f"--save {path}, line {exc.lineno}: not a play aid save ({exc.msg}); "
                "give another file, or --new to start a new game there"
            ) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise UsageError(f'--save {path}: not a play aid save (no "format": {FORMAT!r})')
        steps = _validated(_STEPS, data.get("steps"), "steps", path)
        if not steps:
            raise UsageError(f"--save {path}: field steps: no step saved")
        start = _validated(TypeAdapter(Tracker), data.get("start"), "start", path)
        for tracker in (start, *steps):
            _check(tracker, path)
        session = cls.__new__(cls)
        session.steps, session.start, session.seed = steps, start, seed
        session.dice, session.save = RandomDice(seed), path
        return session

    def _write(self) -> None:
        if self.save is None:
            return
        data: dict[str, Any] = {
            "format": FORMAT,
            "start": TypeAdapter(Tracker).dump_python(self.start, mode="json"),
            "steps": _STEPS.dump_python(self.steps, mode="json"),
        }
        with writing(self.save, "--save") as temp:
            Path(temp).write_text(json.dumps(data), encoding="utf-8")


def check_save(path: str) -> None:
    """Refuse now a save file that could not be written."""
    check_output(path, "--save", (".json",))


def _validated(adapter: TypeAdapter[T], data: Any, field: str, path: str) -> T:
    """``data`` read as the save's ``field``, or a UsageError naming the first problem."""
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in (field, *first["loc"]))
        raise UsageError(
            f"--save {path}: field {where}: {first['msg']}; the file is left as it is "
            "(give --new to start a new game in its place)"
        ) from None


def _check(tracker: Tracker, path: str) -> None:
    """A saved step whose units are out of order or whose edition is unknown is refused."""
    try:
        tracker.rules  # noqa: B018 (an unknown edition raises)
    except UsageError as exc:
        raise UsageError(f"--save {path}: field ruleset: {exc}") from None
    for i, unit in enumerate(tracker.units):
        if unit.uid != i or unit.side not in (0, 1):
            raise UsageError(
                f"--save {path}: field units.{i}: uid {unit.uid}, side {unit.side}; "
                f"unit {i} must have uid {i} and side 0 or 1"
            )
