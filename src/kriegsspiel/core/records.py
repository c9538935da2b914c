"""Game records as JSON Lines: a header, then one event per line.

The text is canonical (sorted keys, fixed separators) so that the same seed and the same
decisions give a byte-identical record, which is what a replay checks.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kriegsspiel.core.game import Event
from kriegsspiel.errors import DataFileError

#: every format a record may be of, oldest first: 1 before the rolls and the weapons
#: fired were recorded, 2 before an assault on a vehicle's dice were, 3 before a gravity
#: pulse's bar on a Run was, 4 before what each weapon's shots needed to hit was, 5 before
#: a team weapon's lone crew had a to-hit modifier of its own (counted as a pin), 6 before
#: a Rally's dice were (only the pins it lost), 7 before each shot's to-hit and damage
#: dice were (only the hits and casualties they made), 8 before each close quarters
#: round's dice, a shot's roll of hits at a vehicle and the parts of its pen were (only
#: the casualties, the hits and the pen they made), and before a FUBAR panic's flight
#: said why it fell short of a Run, and before a scenario could roll for another turn after
#: its last (its games lasted the scenario's turns, no more). Records
#: of them all are read and replayed (compared without what later formats added); this
#: version writes the last.
FORMATS = (
    "kriegsspiel-record/1",
    "kriegsspiel-record/2",
    "kriegsspiel-record/3",
    "kriegsspiel-record/4",
    "kriegsspiel-record/5",
    "kriegsspiel-record/6",
    "kriegsspiel-record/7",
    "kriegsspiel-record/8",
    "kriegsspiel-record/9",
)
FORMAT = FORMATS[-1]


def format_number(header: dict[str, Any]) -> int:
    """The number of the format a record's header names (this version's for one it does
    not name: the header's check says what is wrong with it)."""
    name = header.get("format")
    return FORMATS.index(name) + 1 if name in FORMATS else len(FORMATS)


def dumps(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def record_text(header: dict[str, Any], events: Iterable[Event]) -> str:
    """The whole record: the header line, then each event's line."""
    lines = [dumps({"format": FORMAT, **header})]
    lines += [dumps(e.to_json()) for e in events]
    return "\n".join(lines) + "\n"


def write_record(path: str | Path, header: dict[str, Any], events: Iterable[Event]) -> str:
    text = record_text(header, events)
    Path(path).write_text(text, encoding="utf-8")
    return text


@dataclass(frozen=True, slots=True)
class RecordFile:
    """A record file as read: its whole lines (the header first), each as JSON, and how
    the file ends (a record cut short mid-write still replays as far as it goes)."""

    text: str
    lines: tuple[str, ...]  # without their line ends; a cut last line and blank ones left out
    rows: tuple[dict[str, Any], ...]  # each line read as JSON
    cut: bool = False  # the file ends in the middle of a line (not JSON, no newline after)
    final_newline: bool = True  # the last whole line ends with a newline, as play writes it
    blank_at_end: int = 0  # blank lines after the last one
    bom: bool = False  # the file begins with a byte-order mark (play writes none): passed over


def read_lines(path: str | Path) -> RecordFile:
    """The record at ``path``, line by line; a broken line (not at the end) names itself."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        from kriegsspiel.core.datafile import not_a_file

        problem = not_a_file(Path(path), (".jsonl",)) or f"cannot be read ({exc.strerror})"
        raise DataFileError(name, [problem]) from None
    except UnicodeDecodeError as exc:
        from kriegsspiel.core.datafile import not_text

        raise DataFileError(name, [not_text(exc, "a game record")]) from None
    bom = text.startswith("\ufeff")  # (an editor's mark of UTF-8, as YAML files may begin)
    text = text.removeprefix("\ufeff")
    lines = text.split("\n")  # (read_text has made every line end a newline)
    final_newline = lines[-1] == ""
    if final_newline:
        lines.pop()
    blank = 0
    while lines and not lines[-1].strip():
        lines.pop()
        blank, final_newline = blank + 1, True
    cut = False
    if lines and not final_newline:
        try:
            json.loads(lines[-1])
        except (ValueError, RecursionError):
            lines.pop()  # the last line, cut short where the writing stopped
            cut, final_newline = True, True
    if not lines:
        said = "cut short within its header" if cut else "empty"
        raise DataFileError(
            name, [f"the file is {said}; expected a kriegsspiel record (format {FORMAT!r})"]
        )
    rows: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            raise DataFileError(name, [f"line {number}: blank; a record holds an event a line"])
        try:
            row = json.loads(line)
        except (ValueError, RecursionError) as exc:  # (nested too deep, a number too long)
            from kriegsspiel.core.datafile import other_kind

            kind = other_kind(text) if number == 1 else None
            if kind is not None:
                raise DataFileError(
                    name,
                    [
                        f"this does not look like a game record: it looks like {kind}; was "
                        "another kind of file given? (a record is lines of JSON, as "
                        "'kriegsspiel play --record' writes)"
                    ],
                ) from None
            raise DataFileError(name, [f"line {number}: not JSON ({json_problem(exc)})"]) from None
        if not isinstance(row, dict):
            raise DataFileError(name, [f"line {number}: expected a JSON object"])
        rows.append(row)
    if rows[0].get("format") not in FORMATS:
        raise DataFileError(
            name, [f"line 1: not a kriegsspiel record (expected format {FORMAT!r})"]
        )
    return RecordFile(text, tuple(lines), tuple(rows), cut, final_newline, blank, bom)


def json_problem(exc: ValueError | RecursionError) -> str:
    """Why a line is not JSON a record can hold, in a few words."""
    if isinstance(exc, json.JSONDecodeError):
        return exc.msg
    if isinstance(exc, RecursionError):
        return "nested too deep"
    return str(exc).split(";")[0]  # e.g. a number of more digits than Python reads
