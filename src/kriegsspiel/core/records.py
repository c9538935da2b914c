"""Game records as JSON Lines: a header, then one event per line.

The text is canonical (sorted keys, fixed separators) so that the same seed and the same
decisions give a byte-identical record, which is what a replay checks.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from kriegsspiel.core.game import Event
from kriegsspiel.errors import DataFileError

FORMAT = "kriegsspiel-record/1"


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


def read_record(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    """Header, events and the raw text of a record; a broken file names its line."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise DataFileError(name, [f"cannot be read ({exc.strerror})"]) from None
    rows: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataFileError(name, [f"line {number}: not JSON ({exc.msg})"]) from None
        if not isinstance(row, dict):
            raise DataFileError(name, [f"line {number}: expected a JSON object"])
        rows.append(row)
    if not rows or rows[0].get("format") != FORMAT:
        raise DataFileError(
            name, [f"line 1: not a kriegsspiel record (expected format {FORMAT!r})"]
        )
    return rows[0], rows[1:], text
