"""What a rules file's summaries say of its numbers, checked against the numbers.

A row's ``summary`` is what a player is shown of it (the play aid's order chart, a game's
account), written beside the numbers the rules play by: Rally's "lose D6 pin markers"
beside its ``pins_lost``. A designer who changes one and not the other would be shown one
rule and played another, so a summary that names a number the file holds must name the
file's number: a file whose summary says another is refused at the summary's line, with
the words that would be right. A summary that does not say the number (reworded) is the
designer's own: nothing is checked in it.

Why refused, not written from the numbers: a designer edits the summary as often as the
number (it is the text in front of them), and one who writes "lose D6+1 pin markers"
expecting Rally to change would otherwise be shown their words and played the old dice;
a refusal tells either slip, and the summary the game shows stays the one in the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kriegsspiel.core.dice import DiceExpr

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.data import Edition

_DICE = r"(\d*[Dd]\d+(?:\s*[+-]\s*\d+)?|\d+)"  # (a dice expression, or a plain number)
_INCHES = r'(\d+(?:\.\d+)?)"'
_SIGNED = r"([+-]?\d+)"
#: Fractions of a move a summary may say in words ("at up to half its Advance rate",
#: "at its full Advance rate"); other words are not read.
_WORDS = {
    "its full": 1.0,
    "half its": 0.5,
    "three quarters of its": 0.75,
    "a third of its": 1 / 3,
    "a quarter of its": 0.25,
}
_FRACTION = "(" + "|".join(_WORDS) + ")"


@dataclass(frozen=True, slots=True)
class _Says:
    """A number a summary says: in ``table`` (the row whose ``key`` is ``name``; no key:
    the table's own summary), where ``pattern`` finds it (its first group), and the file's
    number it must be: ``field``'s (a path in the file; "orders.rows[order=Rally]
    .pins_lost": a row by a field's value) plus ``offset``, read as ``kind`` ("dice", "number",
    "fraction", "degrees")."""

    table: str
    key: str | None
    name: str | None
    pattern: str
    field: str
    kind: str = "number"
    offset: float = 0
    shown: str = ""  # the field as a message names it (default: its path)

    @property
    def named(self) -> str:
        return self.shown or self.field


#: Each number a shipped summary says, and the field that holds it.
SAID = (
    _Says("orders", "order", "Rally", r"lose " + _DICE + r" pin", "orders.rows[order=Rally].pins_lost",
          "dice", shown="its pins_lost"),
    _Says("orders", "order", "Down", r"extra " + _SIGNED + r" to be hit",
          "hit_modifiers.rows[key=target_down].value", shown="hit_modifiers' target_down value"),
    _Says("fubar", "result", "friendly fire", r"within " + _INCHES,
          "fubar.friendly_fire_enemy_within"),
    _Says("artillery_barrage", "effect", "miscalculation", r"up to " + _INCHES,
          "artillery_barrage.miscalculation_reach"),
    _Says("artillery_barrage", "effect", "fire for effect", r"within " + _DICE + '"',
          "artillery_barrage.radius", "dice"),
    _Says("air_strike", "effect", "here it comes", r"within " + _INCHES, "air_strike.radius"),
    _Says("air_strike", "effect", "here it comes", r"take " + _DICE + r" pins",
          "air_strike.pins", "dice"),
    _Says("reverse", None, None, r"at up to " + _FRACTION + r" Advance",
          "reverse.fraction_of_advance", "fraction"),
    _Says("reverse", None, None, r"reverses at " + _FRACTION + r" Advance",
          "reverse.recce_fraction_of_advance", "fraction"),
    _Says("turning", None, None, r"pivot of up to ((?:a|\d+(?:\.\d+)?) degrees?) is no turn",
          "turning.unnoticed_degrees", "degrees"),
    _Says("turning", None, None, r"of up to (\d+(?:\.\d+)?) degrees one",
          "turning.unnoticed_degrees", offset=90),
    _Says("turning", None, None, r"of up to (\d+(?:\.\d+)?) two", "turning.unnoticed_degrees",
          offset=180),
    _Says("turning", None, None, r"move of up to (\d+(?:\.\d+)?) inch",
          "turning.unnoticed_inches"),
)  # fmt: skip

_STEP = re.compile(r"([^.\[\]]+)(?:\[([^\]]*)\])?")


def _value(data: Edition, path: str) -> Any:
    """The value at ``path`` of ``data``: "fubar.friendly_fire_enemy_within", a row by a
    field's value "orders.rows[order=Rally].pins_lost"."""
    found: Any = data
    for step, row in _STEP.findall(path):
        found = getattr(found, step)
        if row:
            key, value = row.split("=")
            found = next(r for r in found if str(getattr(r, key)) == value)
    return found


def _read(said: str, kind: str) -> Any:
    """What the summary's words say, as the field would hold it."""
    if kind == "dice":
        return DiceExpr(re.sub(r"\s+", "", said))
    if kind == "fraction":
        return _WORDS[said]
    if kind == "degrees":
        return 1.0 if said == "a degree" else float(said.split()[0])
    return float(said)


def _written(value: Any, kind: str) -> str:
    """A number as a summary (or the file) writes it."""
    if kind == "fraction":
        near = [w for w, f in _WORDS.items() if abs(f - float(value)) < 1e-9]
        return near[0] if near else f"{float(value):g} of its"
    if kind == "degrees":
        return "a degree" if float(value) == 1 else f"{float(value):g} degrees"
    if isinstance(value, DiceExpr):
        return value.text
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _same(said: Any, value: Any, kind: str) -> bool:
    if kind == "dice":
        return bool(said == DiceExpr(str(value)))
    return abs(float(said) - float(value)) < 1e-9


def summary_problems(data: Edition) -> list[tuple[tuple[str | int, ...], str, str]]:
    """Each summary of ``data`` that says another number than the file holds: its place in
    the file, what is wrong (with the summary that would be right: every number of it
    the file's), and the summary itself."""
    wrong: dict[tuple[str | int, ...], list[tuple[re.Match[str], _Says, Any, Any]]] = {}
    summaries: dict[tuple[str | int, ...], str] = {}
    for says in SAID:
        table = getattr(data, says.table, None)
        if table is None:  # (an edition without the table: Konflikt '47's barrage)
            continue
        loc: tuple[str | int, ...] = (says.table, "summary")
        summary = getattr(table, "summary", "")
        if says.key is not None:
            index = next(i for i, r in enumerate(table.rows) if getattr(r, says.key) == says.name)
            loc, summary = (says.table, "rows", index, "summary"), table.rows[index].summary
        match = re.search(says.pattern, summary)
        if match is None:  # (reworded: the designer's own words)
            continue
        held = _value(data, says.field)
        said = _read(match[1], says.kind)
        if _same(said, held + says.offset if says.offset else held, says.kind):
            continue
        summaries[loc] = summary
        wrong.setdefault(loc, []).append((match, says, held, said))
    found = []
    for loc, each in wrong.items():
        summary = right = summaries[loc]
        told: list[str] = []
        other: list[str] = []
        for match, says, held, said in sorted(each, key=lambda e: -e[0].start(1)):
            should = held + says.offset if says.offset else held
            right = right[: match.start(1)] + _written(should, says.kind) + right[match.end(1) :]
            plus = f" + {says.offset:g}" if says.offset else ""
            number = "dice" if says.kind == "dice" else "number"  # (as the file writes it)
            told.insert(0, f"{match[0]!r} where {says.named}{plus} is {_written(should, number)}")
            make = f"{says.named} {_written(said - says.offset if says.offset else said, number)}"
            other = [make, *(o for o in other if o != make)]
        found.append(
            (
                loc,
                f"the summary says {' and '.join(told)} (a player would be shown one rule "
                f"and the game play another): write {right!r}, or make {' and '.join(other)}",
                summary,
            )
        )
    return found
