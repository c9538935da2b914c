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


def counted(number: int, noun: str) -> str:
    """A count and its noun, as said: "1 unit", "3 units", "0 units" (``noun`` singular)."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def lookup(kind: str, name: str, entries: Iterable[tuple[Iterable[str], T]]) -> T:
    """Return the entry one of whose names matches ``name``; else a helpful error."""
    wanted = normalise(name)
    known: list[str] = []
    aliases: dict[str, str] = {}
    for names, value in entries:
        names = list(names)
        known.append(names[0])
        if any(normalise(n) == wanted for n in names):
            return value
        aliases.update((n, names[0]) for n in names[1:])
    raise UnknownNameError(kind, name, known, aliases)
