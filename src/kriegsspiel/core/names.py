"""Find things by the names players use: case-insensitive, forgiving about punctuation."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TypeVar

from kriegsspiel.errors import AmbiguousNameError, UnknownNameError

T = TypeVar("T")


def normalise(name: str) -> str:
    """'Sub-machine gun (SMG)' -> 'sub machine gun smg'."""
    return " ".join(re.sub(r"[^a-z0-9+]+", " ", name.lower()).split())


def squashed(name: str) -> str:
    """'Panzer-faust' -> 'panzerfaust': a name with its spaces and punctuation left out."""
    return re.sub(r"[^a-z0-9+]+", "", name.lower())


def counted(number: int, noun: str) -> str:
    """A count and its noun, as said: "1 unit", "3 units", "0 units" (``noun`` singular)."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def in_words(number: int) -> str:
    """A small count as said in a sentence: "one", "two" (up to ten; "no" for none), a
    larger one in figures: "12"."""
    return _WORDS[number] if 0 <= number < len(_WORDS) else str(number)


_ORDINALS = (
    "zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
    "ninth", "tenth",
)  # fmt: skip


def ordinal(number: int) -> str:
    """A place in order as said: "seventh" (up to tenth), a later one in figures: "12th",
    "21st", "101st"."""
    if 0 <= number < len(_ORDINALS):
        return _ORDINALS[number]
    last = number % 10 if number % 100 not in (11, 12, 13) else 0
    return f"{number}{({1: 'st', 2: 'nd', 3: 'rd'}).get(last, 'th')}"


def counted_in_words(number: int, noun: str) -> str:
    """A small count and its noun, as said in a sentence: "one 90° turn", "two 90° turns",
    "no 90° turns", "12 90° turns" (``noun`` singular)."""
    return f"{in_words(number)} {noun}" + ("" if number == 1 else "s")


def facing_text(degrees: float) -> str:
    """A vehicle's heading as the tables print it: "facing 90°" (0° along +y, 90° along
    +x), to the whole degree: "facing 1°", not "facing 1 degrees"; 359.6 is "facing 0°"."""
    return f"facing {round(degrees) % 360}°"


# letters whose names start with a vowel sound: "an SMG", "an LMG", but "a BAR"
_SAID_WITH_A_VOWEL = frozenset("AEFHILMNORSX")


def a_or_an(noun: str) -> str:
    """The noun after "a" or "an" as it is said: "an SMG", "a box LMG", "an assault rifle"."""
    first = noun.split()[0] if noun.split() else noun
    letters = re.sub(r"[^A-Za-z]", "", first)
    if len(letters) > 1 and letters.isupper():  # an initialism, said letter by letter
        vowel = letters[0] in _SAID_WITH_A_VOWEL
    else:
        vowel = first[:1].lower() in "aeiou" and not first.lower().startswith(("uni", "eu", "one"))
    return f"{'an' if vowel else 'a'} {noun}"


def in_sentence(name: str) -> str:
    """A table's name as written mid-sentence: "Box LMG" -> "box LMG" (initialisms kept)."""
    return " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in name.split())


def lookup(kind: str, name: str, entries: Iterable[tuple[Iterable[str], T]]) -> T:
    """Return the entry one of whose names matches ``name``; else a helpful error.

    A name matches in any case, punctuation read as a space ("sub-machine gun (SMG)" is
    "Sub-machine gun (SMG)"); failing that, with spaces and punctuation left out
    ("Panzer-faust" and "panzer faust" are "Panzerfaust") when exactly one entry's names
    match so. Two would leave it unknown (AmbiguousNameError, told with both); none, told
    with the closest names (UnknownNameError). A rules file's check of a name it refers to
    calls this too, so that what the check takes is what the game finds."""
    wanted = normalise(name)
    known: list[str] = []
    aliases: dict[str, str] = {}
    rows: list[tuple[list[str], T]] = []
    for names, value in entries:
        names = list(names)
        known.append(names[0])
        if any(normalise(n) == wanted for n in names):
            return value
        aliases.update((n, names[0]) for n in names[1:])
        rows.append((names, value))
    run_together = squashed(name)
    found = [
        (names[0], value)
        for names, value in rows
        if any(squashed(n) == run_together for n in names)
    ]
    if run_together and len(found) == 1:
        return found[0][1]
    if run_together and len(found) > 1:
        raise AmbiguousNameError(kind, name, [own for own, _ in found])
    raise UnknownNameError(kind, name, known, aliases)


def rows_named(rows: Iterable[Iterable[object]]) -> dict[str, list[tuple[int, str]]]:
    """The rows of a table (each by its place in the table) each name of it names as
    :func:`lookup` reads it (run together: "panzerfaust" for "Panzer-faust" and
    "Panzerfaust" alike), with the name each row gives it by. A key with two rows is a
    name the look-up could not tell apart: a table's check refuses it (a non-text name
    is left to its field's own check)."""
    found: dict[str, list[tuple[int, str]]] = {}
    for i, names in enumerate(rows):
        for name in names:
            if isinstance(name, str):
                taken = found.setdefault(squashed(name), [])
                if i not in (row for row, _ in taken):
                    taken.append((i, name))
    return found


def also_written(name: str, named: Iterable[tuple[int, str]]) -> str:
    """How a clash of ``name`` with other rows' names (``named``: each row's place and
    name) is told where another row writes it otherwise: "'Panzer-faust' and
    'Panzerfaust' run together alike"; "" where every row writes it as ``name``."""
    others = list(dict.fromkeys(n for _, n in named if n != name))
    if not others:
        return ""
    return f"{' and '.join(map(repr, [name, *others]))} run together alike"
