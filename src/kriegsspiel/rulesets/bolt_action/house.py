"""What a designer's rules file changes from its edition's shipped data, table by table
and row by row: the data compared as data (comments, spacing and field order are no
change), rows matched by their table's first field (a weapon's name, a modifier's key)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Change:
    """One difference: in ``table`` (a top-level field), at ``row`` (a row's name, if the
    change is in a table's rows) and ``field``; ``shipped`` and ``house`` are the two values
    (``house`` None: left out; ``shipped`` None: new)."""

    table: str
    row: str | None
    field: str | None
    shipped: Any
    house: Any

    @property
    def kind(self) -> str:
        return "new" if self.shipped is None else "left out" if self.house is None else "changed"

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "row": self.row,
            "field": self.field,
            "change": self.kind,
            "shipped": self.shipped,
            "file": self.house,
        }

    def told(self) -> str:
        """The change in words, without its table: "Bazooka: range 24 → 30"."""
        if self.row is not None and self.field is not None:
            where = f"{self.row}: {self.field} "
        else:
            where = f"{self.row or self.field}: " if (self.row or self.field) else ""
        if self.shipped is None:
            return f"{where}new, {shown(self.house)}"
        if self.house is None:
            return f"{where}left out (shipped: {shown(self.shipped)})"
        return f"{where}{shown(self.shipped)} → {shown(self.house)}"


def changes(shipped: dict[str, Any], house: dict[str, Any]) -> list[Change]:
    """Every difference between the shipped data and a house copy, in the shipped file's
    order (then the house file's new tables)."""
    out: list[Change] = []
    for table in [*shipped, *(k for k in house if k not in shipped)]:
        out += _compare(table, None, None, shipped.get(table), house.get(table))
    return out


def _compare(table: str, row: str | None, field: str | None, old: Any, new: Any) -> list[Change]:
    if old == new:
        return []
    if old is None or new is None:
        return [Change(table, row, field, old, new)]
    if isinstance(old, dict) and isinstance(new, dict):
        out: list[Change] = []
        for key in [*old, *(k for k in new if k not in old)]:
            inner = str(key) if field is None else f"{field}.{key}"
            out += _compare(table, row, inner, old.get(key), new.get(key))
        return out
    if _rows(old) and _rows(new) and row is None:
        return _compare_rows(table, field, old, new)
    return [Change(table, row, field, old, new)]


def _rows(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(r, dict) for r in value)


def _compare_rows(
    table: str, field: str | None, old: list[dict[str, Any]], new: list[dict[str, Any]]
) -> list[Change]:
    """Rows matched by the first field of the table's first shipped row (its name)."""
    key = next(iter(old[0]))
    inner = None if field == "rows" else field
    olds, news = _by_name(old, key), _by_name(new, key)
    out: list[Change] = []
    for name in [*olds, *(n for n in news if n not in olds)]:
        out += _compare(table, name, inner, olds.get(name), news.get(name))
    return out


def _by_name(rows: list[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    named: dict[str, dict[str, Any]] = {}
    for number, row in enumerate(rows, 1):
        value = row.get(key)
        name = value[0] if isinstance(value, list) and value else value
        label = str(name) if name is not None else f"row {number}"
        named.setdefault(label if label not in named else f"{label} (row {number})", row)
    return named


def shown(value: Any) -> str:
    """A value as the YAML file writes it, on one line."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {shown(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(shown(v) for v in value) + "]"
    return str(value)
