"""Find things by the names players use: case-insensitive, forgiving about punctuation."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TypeVar

from kriegsspiel.errors import UnknownNameError

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
    match so (two would leave it unknown, told with the closest names)."""
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
    found = [value for names, value in rows if any(squashed(n) == run_together for n in names)]
    if run_together and len(found) == 1:
        return found[0]
    raise UnknownNameError(kind, name, known, aliases)
