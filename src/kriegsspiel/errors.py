"""Precise exception classes: every user-facing failure names what and where."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class KriegsspielError(Exception):
    """Base class of every error the engine raises on purpose."""


class UsageError(KriegsspielError, ValueError):
    """The caller asked for something impossible or contradictory (exit status 2)."""


def _plural(kind: str) -> str:
    return kind[:-1] + "ies" if kind.endswith("y") and kind[-2:-1] not in "aeiou" else kind + "s"


class UnknownNameError(UsageError, KeyError):
    """A weapon, target, ruleset or option value that is not on the sheet."""

    def __init__(self, kind: str, name: str, known: Iterable[str]) -> None:
        known = sorted(set(known))
        close = difflib.get_close_matches(name.lower(), [k.lower() for k in known], n=3, cutoff=0.5)
        lookup = {k.lower(): k for k in known}
        hint = (
            f" Did you mean {', '.join(repr(lookup[c]) for c in close)}?"
            if close
            else f" Known {_plural(kind)}: {', '.join(known)}."
        )
        super().__init__(f"Unknown {kind} {name!r}.{hint}")
        self.kind, self.name, self.close_matches = kind, name, [lookup[c] for c in close]

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class DataFileError(KriegsspielError):
    """A rules data file, army list or scenario is malformed; names file, line and field."""

    def __init__(self, path: str, problems: list[str]) -> None:
        self.path, self.problems = path, problems
        super().__init__(f"{path}: " + "; ".join(problems))
