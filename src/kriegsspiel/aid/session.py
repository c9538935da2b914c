"""One game of the play aid: its steps (for undo), its dice and the file it is saved in.

The save file is JSON Lines: a header with the game's start, then one line a step (the
game after it, with only the log lines it added) or an undo. Each step is appended and
flushed to the disk before it is shown, so a closed browser, a stopped server or a crashed
machine loses nothing, and a step costs the same late in a game as early; the same file,
given again, goes on where the game stopped.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from kriegsspiel.aid.tracker import MAX_PINS, ORDERS, AidError, Tracker
from kriegsspiel.core.datafile import JSON_FILE, other_kind, problems, strange_character
from kriegsspiel.core.procedure import RandomDice
from kriegsspiel.core.records import json_problem
from kriegsspiel.core.scenario import MOST_TURNS
from kriegsspiel.errors import DataFileError, UsageError, clause
from kriegsspiel.outfiles import check_output, writing
from kriegsspiel.rulesets.bolt_action.edition import rules_for

FORMAT = "kriegsspiel play aid"
KEPT_STEPS = 500  # how many steps back undo reaches (a game has a few hundred at most)
_TRACKER = TypeAdapter(Tracker)


def is_save(start: bytes) -> bool:
    """Whether a file's first bytes are a play aid's save (to replace it, and only it)."""
    return start.lstrip().startswith(b'{"format": "' + FORMAT.encode())


class AidSession:
    """The steps of one game on a real table, the newest last, saved as they are taken."""

    def __init__(self, first: Tracker, *, seed: int | None = None, save: str | None = None):
        self.steps: list[Tracker] = [first]
        self.start = first
        self.seed = seed
        self.dice = RandomDice(seed)
        self.save = save
        self.notes: list[str] = []  # what the players are told as the game is served
        self._served = secrets.token_hex(4)  # (a server started again is a new series)
        self._changes = 0
        self._rewrite()

    @property
    def now(self) -> Tracker:
        return self.steps[-1]

    @property
    def version(self) -> str:
        """A word that changes with every step, undo and new game (and when the server is
        started again): a page asks for the game only when it is no longer the one it has."""
        return f"{self._served}-{self._changes}"

    def step(self, change: Callable[[Tracker], Tracker]) -> Tracker:
        """Take a step (a refused one raises :class:`AidError` and changes nothing)."""
        after = change(self.now)
        self._append(_step_line(self.now, after))
        self.steps = [*self.steps[-KEPT_STEPS:], after]
        self._changes += 1
        return after

    def undo(self) -> Tracker:
        """Go back one step (a die drawn goes back in the bag; the dice rolled are not
        rolled again the same)."""
        refused = self.undo_refused()
        if refused is not None:
            raise AidError(refused)
        self._append({"undo": True})
        self.steps.pop()
        self._changes += 1
        return self.now

    def undo_refused(self) -> str | None:
        """Why there is no step to take back, or None if there is one: the game's start
        is reached, or the oldest step kept (undo reaches :data:`KEPT_STEPS` back)."""
        if len(self.steps) > 1:
            return None
        if self.steps[0] == self.start:
            return "nothing to undo: this is the game's start."
        return (
            f"nothing more to undo: only the last {KEPT_STEPS} steps can be taken back, "
            "and all of them have been."
        )

    def new_game(self) -> Tracker:
        """The same armies from the first turn again (undo goes back into the old game)."""
        return self.step(lambda _: self.start)

    # ------------------------------------------------------------------ the save file
    @classmethod
    def resume(cls, path: str, *, seed: int | None = None) -> AidSession:
        """Go on with the game saved at ``path``. A step cut off as it was written (the
        last line, unfinished) was never shown: it is left out, kept in a file beside the
        save, and :attr:`notes` says so. Anything else that is not a whole save is refused,
        naming the line and the field, and the file left as it is. The file is then
        written again, whole, as the steps now stand."""
        lines, cut, rows, start = _read(path)
        # the first line after the header is the oldest step kept; each step read keeps
        # the last KEPT_STEPS before it, as :meth:`step` kept them, so an undo takes back
        # what it took back then, and undo reaches as far back as before the game stopped
        steps: list[Tracker] = []
        for number, line in rows[1:]:
            row = _row((number, line), path, True)
            if row.get("undo") is True:
                if len(steps) < 2:
                    raise _damaged(path, number, "an undo with no step to undo")
                steps.pop()
                continue
            step = _step_from(row, steps[-1] if steps else None, path, number)
            if step.rules_file != start.rules_file or step.ruleset != start.ruleset:
                raise _damaged(
                    path,
                    number,
                    f"field step.rules_file: {step.rules_file!r}, but the game started under "
                    f"{start.rules_file!r}",
                )
            steps = [*steps[-KEPT_STEPS:], replace(step, rules_text=start.rules_text)]
        if not steps:
            raise _damaged(path, rows[-1][0], "no step saved after the header")
        session = cls.__new__(cls)
        session.steps, session.start, session.seed = steps, start, seed
        session.dice, session.save, session.notes = RandomDice(seed), path, []
        session._served, session._changes = secrets.token_hex(4), 0
        if cut is not None:
            aside = _set_aside(path, cut)
            session.notes.append(
                f"The last line of {path} (line {len(lines) + 1}) was cut off as it was "
                f"written (the machine stopped mid-write?), so its step was never shown: the "
                f"game goes on from the step before, and the line is kept in {aside}."
            )
        session._rewrite()
        return session

    @staticmethod
    def saved_start(path: str) -> Tracker:
        """The start of the game saved at ``path`` (its edition, lists, turns and rules),
        read without writing anything: refused as :meth:`resume` refuses a file that is
        not a save, or whose header is damaged."""
        return _read(path)[3]

    def _rewrite(self) -> None:
        """Write the save whole (under a temporary name renamed into place)."""
        if self.save is None:
            return
        head = {"format": FORMAT, "start": _TRACKER.dump_python(self.start, mode="json")}
        rows = [head]
        earlier: Tracker | None = None
        for tracker in self.steps:
            rows.append(_step_line(earlier, tracker))
            earlier = tracker
        with writing(self.save, "--save") as temp:
            Path(temp).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")

    def _append(self, row: dict[str, Any]) -> None:
        """Add a line to the save and flush it to the disk; a failed write is taken back
        (the file cut to its length before) and stops the step."""
        if self.save is None:
            return
        try:
            with open(self.save, "a", encoding="utf-8") as file:
                before = file.tell()
                try:
                    file.write(json.dumps(row) + "\n")
                    file.flush()
                    os.fsync(file.fileno())
                except OSError:
                    file.truncate(before)
                    raise
        except OSError as exc:
            raise UsageError(
                f"cannot write --save {self.save}: {exc.strerror or exc}; the step was not "
                "taken (the game is as it was)"
            ) from None


def _read(path: str) -> tuple[list[str], str | None, list[tuple[int, str]], Tracker]:
    """A save's lines (the last, if cut off mid-write, apart), its numbered lines that are
    not blank, and the game's start from its header."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"--save {path}: cannot read it ({exc})") from None
    lines = text.split("\n")
    cut = lines.pop() if lines[-1] and len(lines) > 1 else None  # cut off mid-write
    rows = [(n, line) for n, line in enumerate(lines, 1) if line.strip()]
    if not rows:
        raise UsageError(f"--save {path}: the file is empty, not a play aid save")
    saved = is_save(text.encode())
    if not saved:
        _refuse_other_kind(path, text)
    head = _row(rows[0], path, saved)
    if head.get("format") != FORMAT:
        raise UsageError(
            f'--save {path}, line {rows[0][0]}: not a play aid save (no "format": '
            f"{FORMAT!r}); give another --save file"
        )
    return lines, cut, rows, _validated(head.get("start"), "start", path, rows[0][0])


def _refuse_other_kind(path: str, text: str) -> None:
    """Refuse a file that plainly is another kind kriegsspiel reads or writes (an army
    list, a game record, an SVG drawing: :func:`.datafile.other_kind`), naming it so, as
    a game record's reader names what it was given instead."""
    kind = other_kind(text)
    if kind is not None and kind != JSON_FILE:
        raise UsageError(
            f"--save {path}: this does not look like a play aid save: it looks like {kind}; "
            "was another kind of file given? (a save is lines of JSON, as 'kriegsspiel aid' "
            "writes); give another --save file"
        )


def _set_aside(path: str, text: str) -> str:
    """Keep ``text`` (a save's last line, cut off) in a new file beside the save; its name."""
    aside, n = f"{path}.cut-off", 1
    while os.path.lexists(aside):
        n += 1
        aside = f"{path}.cut-off-{n}"
    try:
        with open(aside, "x", encoding="utf-8") as file:
            file.write(text)
    except OSError as exc:
        raise UsageError(
            f"--save {path}: its last line was cut off as it was written, and cannot be kept "
            f"in {aside} ({exc.strerror or exc}); the file is left as it is: move it aside "
            "(to keep it), or free the disk, and run the command again"
        ) from None
    return aside


def _damaged(path: str, number: int, what: str) -> UsageError:
    """A save whose header is a play aid's but whose line ``number`` is not whole: left as
    it is, with the steps that keep it (never --new, which would write over it)."""
    return UsageError(
        f"--save {path} is a damaged play aid save: line {number}: {what}. The file is left "
        "as it is: mend that line, or move the file aside (to keep it) and start a new game "
        "(--new would write over it)"
    )


def check_save(path: str) -> None:
    """Refuse now a save file that could not be written."""
    check_output(path, "--save", (".jsonl",))


def _step_line(earlier: Tracker | None, now: Tracker) -> dict[str, Any]:
    """A step's line: the game after it without its log, and how the log changed (the
    lines kept from the step before, then the new ones)."""
    kept = 0
    if earlier is not None:
        for old, new in zip(earlier.log, now.log, strict=False):
            if old is not new and old != new:
                break
            kept += 1
    return {
        # (a designer's rules text is the start's, written once with it in the header)
        "step": _TRACKER.dump_python(replace(now, log=(), rules_text=None), mode="json"),
        "log_kept": kept,
        "log_new": list(now.log[kept:]),
    }


def _step_from(row: dict[str, Any], earlier: Tracker | None, path: str, number: int) -> Tracker:
    step = _validated(row.get("step"), "step", path, number)
    kept, new = row.get("log_kept"), row.get("log_new")
    before = () if earlier is None else earlier.log
    if not isinstance(kept, int) or not 0 <= kept <= len(before):
        said = "missing" if "log_kept" not in row else repr(kept)
        raise _damaged(
            path,
            number,
            f"field log_kept: {said}; it is a count of the log lines kept from the step "
            f"before (0 to {len(before)})",
        )
    if not isinstance(new, list) or not all(isinstance(line, str) for line in new):
        raise _damaged(path, number, "field log_new: not a list of lines")
    return replace(step, log=(*before[:kept], *new))


def _row(numbered: tuple[int, str], path: str, saved: bool) -> dict[str, Any]:
    """A line read as a mapping; ``saved``: the file is a play aid's save (so a line that
    is not one is damage, not another kind of file)."""
    number, line = numbered
    try:
        row = json.loads(line)
    except (ValueError, RecursionError) as exc:
        if saved:
            raise _damaged(path, number, f"not JSON ({json_problem(exc)})") from None
        raise UsageError(
            f"--save {path}, line {number}: not a play aid save ({json_problem(exc)}); give "
            "another --save file"
        ) from None
    if not isinstance(row, dict):
        if saved:
            raise _damaged(path, number, "not a mapping of fields")
        raise UsageError(f"--save {path}, line {number}: not a play aid save (not an object)")
    return row


def _validated(data: Any, field: str, path: str, number: int) -> Tracker:
    """``data`` read as a game, or a UsageError naming the line and the first problem."""
    if not isinstance(data, dict):
        raise _damaged(
            path,
            number,
            f"field {field}: should be a game (a mapping of fields), not {json.dumps(data)[:40]}",
        )
    try:
        tracker = _TRACKER.validate_python(data)
    except ValidationError as exc:
        # the first problem, in the data files' words ("should be a whole number, not
        # 'many'"), its field under the line's ``field``
        told = problems(exc, None)[0].removeprefix("field ").removeprefix("(top level)")
        where = field if told.startswith(":") else f"{field}."
        raise _damaged(path, number, f"field {where}{told}") from None
    try:  # an unknown edition, or a designer's rules text that is broken, raises (a
        # step's line leaves the text to the header: only its edition is checked there)
        text = tracker.rules_text
        rules_for(tracker.ruleset, tracker.rules_file if text is not None else None, text)
    except (UsageError, DataFileError) as exc:
        which = "rules_text" if tracker.rules_text is not None else "ruleset"
        told = exc.in_one_line if isinstance(exc, DataFileError) else clause(exc)
        raise _damaged(path, number, f"field {field}.{which}: {told}") from None
    for i, unit in enumerate(tracker.units):
        if unit.uid != i or unit.side not in (0, 1):
            raise _damaged(
                path,
                number,
                f"field {field}.units.{i}: uid {unit.uid}, side {unit.side}; unit {i} must "
                f"have uid {i} and side 0 or 1",
            )
    problem = _impossible(tracker)
    if problem is not None:
        where, said = problem
        raise _damaged(path, number, f"field {field}.{where}: {said}")
    return tracker


def _names(tracker: Tracker) -> list[tuple[str, str]]:
    """Every name a game shows, with its field: the armies', the units', their models' and
    weapons' (a hand-edited save may hold any text there)."""
    found = [(f"armies.{side}", army) for side, army in enumerate(tracker.armies)]
    for i, unit in enumerate(tracker.units):
        found.append((f"units.{i}.name", unit.name))
        if unit.near is not None:
            found.append((f"units.{i}.near", unit.near))
        for k, kit in enumerate(unit.kit):
            found.append((f"units.{i}.kit.{k}.name", kit.name))
            found += [(f"units.{i}.kit.{k}.weapons.{w}", n) for w, n in enumerate(kit.weapons)]
    return found


def _impossible(tracker: Tracker) -> tuple[str, str] | None:
    """What in a game read back no game could hold (a hand-edited save), as the field and
    what is wrong with it; None if nothing."""
    if not 1 <= tracker.turns <= MOST_TURNS + 1:  # (the last may be followed by a turn rolled)
        return "turns", f"{tracker.turns}; a game lasts 1 to {MOST_TURNS} turns"
    if tracker.another_turn_on is not None and not 2 <= tracker.another_turn_on <= 6:
        return "another_turn_on", (
            f"{tracker.another_turn_on}; one more turn is played on a D6 score of 2 to 6"
        )
    if not 1 <= tracker.turn <= tracker.turns:
        return "turn", f"turn {tracker.turn} of {tracker.turns}; a game is on turn 1 to its last"
    for side in (0, 1):
        if not any(u.side == side for u in tracker.units):
            return "units", f"side {side} has no unit; each side has at least one"
    if tracker.in_hand not in (None, 0, 1):
        return "in_hand", f"{tracker.in_hand!r}; a die in hand is side 0's or 1's, or none"
    for i, unit in enumerate(tracker.units):
        if unit.start_models < 1 or not 0 <= unit.models <= unit.start_models:
            return (
                f"units.{i}.models",
                f"{unit.models} of {unit.start_models}; a unit has 0 to its starting models",
            )
        if not 0 <= unit.pins <= MAX_PINS:
            return f"units.{i}.pins", f"{unit.pins}; pins are 0 to {MAX_PINS}"
        if unit.destroyed != (unit.models == 0):
            return f"units.{i}.destroyed", (
                f"{unit.destroyed} with {unit.models} models; a unit is destroyed when it "
                "has none left, and only then"
            )
        for name in ("order", "retained"):
            shown = getattr(unit, name)
            if shown is not None and shown not in ORDERS:
                return f"units.{i}.{name}", f"{shown!r}; a die shows one of {', '.join(ORDERS)}"
    for field, name in _names(tracker):
        found = strange_character(name) if name.strip() else (1, "nothing but spaces")
        if found is not None:
            return field, (
                f"{name!r} holds {found[1]} at character {found[0]}; a name is one line of "
                "text that prints as it reads (the page and the terminal show it)"
            )
    if any(not 0 <= uid < len(tracker.units) for uid in tracker.turn_dice):
        return "turn_dice", f"{list(tracker.turn_dice)}; the dice are the units' numbers"
    return None
