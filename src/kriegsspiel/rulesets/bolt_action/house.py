"""What a designer's rules file changes from its edition's shipped data, table by table
and row by row: the data compared as data (comments, spacing and field order are no
change), rows matched by their table's first field (a weapon's name, a modifier's key).

A table rolled on a die (its rows keyed by ``die``, by ``rolls`` or by ``low`` and
``high``: the orders, FUBAR, the damage results, a barrage's and an air strike's charts,
and a barrage's ``pin_rolls`` and ``hit_rolls``) is compared as a player reads it, die
face by die face: "die 2: friendly fire → panic", "die 5 (Rally): pins_lost D6 → D6+1",
not as rows whose ``rolls`` lists changed."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import yaml

from kriegsspiel.core.datafile import yaml_data


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
    # the die faces the change is read on, in a table rolled on a die: the least and the
    # most (None: an open end, "or less", "or more"); None in any other table
    faces: tuple[int | None, int | None] | None = None

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
            "faces": None if self.faces is None else list(self.faces),
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
    if old == new or (field == "shots" and _same_shots(old, new)):
        return []
    if old is None or new is None:
        return [Change(table, row, field, old, new)]
    if isinstance(old, dict) and isinstance(new, dict):
        out: list[Change] = []
        keys = [*old, *(k for k in new if k not in old)]
        # (a barrage's pin_rolls and hit_rolls: one table of faces, told where the first is)
        faces = [k for k in keys if row is None and _face_list(k, old, new)]
        for key in keys:
            if key in faces:
                if key == faces[0]:
                    out += _compare_face_lists(table, field, faces, old, new)
                continue
            inner = str(key) if field is None else f"{field}.{key}"
            out += _compare(table, row, inner, old.get(key), new.get(key))
        return out
    if _rows(old) and _rows(new) and row is None:
        if _die_keyed(old) and _die_keyed(new):
            return _compare_faces(table, field, old, new)
        return _compare_rows(table, field, old, new)
    return [Change(table, row, field, old, new)]


def _same_shots(old: Any, new: Any) -> bool:
    """A weapon's shots written 2 and "2": the one number (shots are text, for dice, but
    a whole number is taken as its text), no change."""
    return {type(old), type(new)} == {int, str} and str(old) == str(new)


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


# -- tables rolled on a die ----------------------------------------------------------
#: The fields a row of a die table is keyed by (its faces), not told as its fields.
_FACE_KEYS = frozenset({"die", "rolls", "low", "high"})
_ENDLESS = 10**9  # (an open end of a damage result's range: "or less", "or more")


def _die_keyed(rows: list[dict[str, Any]]) -> bool:
    """Whether a table's rows are keyed by die faces (``die``, ``rolls``, ``low``/``high``)."""
    return all(_faces_of(row) is not None for row in rows)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _faces_of(row: dict[str, Any]) -> list[tuple[int, int]] | None:
    """The spans of faces (least, most) a die table's row is read on; None: not keyed so."""
    if _whole(row.get("die")):
        return [(row["die"], row["die"])]
    rolls = row.get("rolls")
    if isinstance(rolls, list) and rolls and all(_whole(r) for r in rolls):
        return [(r, r) for r in rolls]
    low, high = row.get("low", False), row.get("high", False)
    if (low is None or _whole(low)) and (high is None or _whole(high)):
        return [(-_ENDLESS if low is None else low, _ENDLESS if high is None else high)]
    return None


def _told_faces(least: int, most: int) -> str:
    """Faces as a player reads them off the table: "die 4", "die 2-3", "die 1 or less"."""
    if least <= -_ENDLESS:
        return "every die" if most >= _ENDLESS else f"die {most} or less"
    if most >= _ENDLESS:
        return f"die {least} or more"
    return f"die {least}" if least == most else f"die {least}-{most}"


def _ends(least: int, most: int) -> tuple[int | None, int | None]:
    """A run of faces as :attr:`Change.faces` holds it (None: an open end)."""
    return (None if least <= -_ENDLESS else least, None if most >= _ENDLESS else most)


def _spans(
    old: list[list[tuple[int, int]]], new: list[list[tuple[int, int]]]
) -> list[tuple[int, int, int | None, int | None]]:
    """The die read across both tables: each run of faces (least, most) that reads one row
    of the shipped table and one of the house table (their indexes; None: no row)."""
    edges = sorted(
        {least for spans in (*old, *new) for least, _ in spans if least > -_ENDLESS}
        | {most + 1 for spans in (*old, *new) for _, most in spans if most < _ENDLESS}
    )
    pieces = list(zip([-_ENDLESS, *edges], [e - 1 for e in edges] + [_ENDLESS], strict=True))

    def reads(table: list[list[tuple[int, int]]], face: int) -> int | None:
        return next(
            (i for i, spans in enumerate(table) if any(a <= face <= b for a, b in spans)), None
        )

    runs: list[tuple[int, int, int | None, int | None]] = []
    for least, most in pieces:
        face = least if least > -_ENDLESS else most
        pair = (reads(old, face), reads(new, face))
        if runs and runs[-1][2:] == pair:
            runs[-1] = (runs[-1][0], most, *pair)
        else:
            runs.append((least, most, *pair))
    return [run for run in runs if run[2:] != (None, None)]


def _compare_faces(
    table: str, field: str | None, old: list[dict[str, Any]], new: list[dict[str, Any]]
) -> list[Change]:
    """A die table compared face by face: what each run of faces reads, shipped and house.
    A face that reads another result is told by the results' names ("die 2: friendly fire
    → panic"); a face that reads the same result, by its changed fields ("die 5 (Rally):
    pins_lost D6 → D6+1")."""
    inner = None if field == "rows" else field
    named = next(
        (
            k
            for k, v in old[0].items()
            if k not in _FACE_KEYS and k != "summary" and isinstance(v, str)
        ),
        None,
    )
    faces_old = [_faces_of(row) or [] for row in old]
    faces_new = [_faces_of(row) or [] for row in new]
    out: list[Change] = []
    told: set[Any] = set()  # (the results whose changed fields are told at their faces)
    for least, most, i, j in _spans(faces_old, faces_new):
        was = None if i is None else _without_faces(old[i])
        now = None if j is None else _without_faces(new[j])
        if was == now:
            continue
        where = _told_faces(least, most)
        where = where if inner is None else f"{inner}, {where}"
        faces = _ends(least, most)
        if was is None or now is None or (named and was.get(named) != now.get(named)):
            shipped = was if was is None or not named else was.get(named)
            house = now if now is None or not named else now.get(named)
            out.append(Change(table, where, None, shipped, house, faces))
            continue
        label = where
        if named:
            label = f"{where} ({was[named]})"
            told.add(was[named])
        out += _changed_fields(table, label, was, now, faces)
    if named:  # a result whose row changed where no face reads it in both: by its name
        for row in old:
            name = row.get(named)
            now = next((r for r in new if r.get(named) == name), None)
            if name not in told and now is not None:
                was, now = _without_faces(row), _without_faces(now)
                out += _changed_fields(table, str(name), was, now, None)
    return out


def _without_faces(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k not in _FACE_KEYS}


def _changed_fields(
    table: str,
    label: str,
    was: dict[str, Any],
    now: dict[str, Any],
    faces: tuple[int | None, int | None] | None,
) -> list[Change]:
    """Each field of one result's row that changed (a field left out, or new, too)."""
    return [
        Change(table, label, key, was.get(key), now.get(key), faces)
        for key in [*was, *(k for k in now if k not in was)]
        if was.get(key) != now.get(key)
    ]


def _face_list(key: Any, old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether ``key`` of a table is a list of die faces read as one face table with its
    like (``pin_rolls``, ``hit_rolls``: what a unit's die does under a barrage)."""
    if not (isinstance(key, str) and key.endswith("_rolls")):
        return False
    values = [v for v in (old.get(key), new.get(key)) if v is not None]
    return bool(values) and all(isinstance(v, list) and all(_whole(f) for f in v) for v in values)


def _compare_face_lists(
    table: str, field: str | None, keys: list[str], old: dict[str, Any], new: dict[str, Any]
) -> list[Change]:
    """Lists of faces (``pin_rolls``, ``hit_rolls``) compared face by face: which list each
    face is in, shipped and house ("pin_rolls and hit_rolls, die 5: pin_rolls → neither")."""
    rows_old = [[(f, f) for f in old.get(k) or []] for k in keys]
    rows_new = [[(f, f) for f in new.get(k) or []] for k in keys]
    listed = " and ".join(keys) if len(keys) < 3 else ", ".join(keys)
    listed = listed if field is None else f"{field}.{listed}"
    none = "neither" if len(keys) == 2 else "none"
    out: list[Change] = []
    for least, most, i, j in _spans(rows_old, rows_new):
        if i == j:
            continue
        was = none if i is None else keys[i]
        now = none if j is None else keys[j]
        faces = _ends(least, most)
        out.append(Change(table, f"{listed}, {_told_faces(least, most)}", None, was, now, faces))
    return out


def shown(value: Any, *, inside: bool = False) -> str:
    """A value as the YAML file writes it, on one line: a row (a mapping or a list) as a
    flow mapping that pastes back into a file, its text in quotes where YAML would read it
    otherwise (shots "2", a summary holding ": "); a value alone as it reads."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {shown(v, inside=True)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(shown(v, inside=True) for v in value) + "]"
    if inside and isinstance(value, str) and not _reads_back(value):
        return json.dumps(value, ensure_ascii=False)  # (a double-quoted YAML scalar)
    return str(value)


def _reads_back(text: str) -> bool:
    """Whether ``text``, written without quotes in a flow list, reads back as that text."""
    try:
        return bool(yaml_data(f"[{text}]") == [text])
    except yaml.YAMLError:
        return False
