"""Precise exception classes: every user-facing failure names what and where."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence


class KriegsspielError(Exception):
    """Base class of every error the engine raises on purpose."""


class UsageError(KriegsspielError, ValueError):
    """The caller asked for something impossible or contradictory (exit status 2)."""


class UsageTypeError(UsageError, TypeError):
    """A Python caller gave an argument of the wrong type: a UsageError, and a TypeError
    as Python's own checks raise for one."""


RULES_FILE_WANTED = (
    "your copy of the edition's rules data (a YAML file), or leave it out for the shipped rules"
)


def empty_name(option: str, given: str, wanted: str) -> UsageError:
    """The error of an option given an empty name (a path of '' is the current folder:
    never what was meant): "--resume was given an empty name (''); give ..."."""
    return UsageError(f"{option} was given an empty name ({given!r}); give {wanted}.")


class GameDidNotEnd(KriegsspielError):
    """A game played out by :func:`kriegsspiel.ai.players.play` was still going after the
    most actions a game may take; ``state`` is the game as it stood then (its events so
    far, for a record)."""

    def __init__(self, message: str, state: object = None) -> None:
        super().__init__(message)
        self.state = state


def _plural(kind: str) -> str:
    return kind[:-1] + "ies" if kind.endswith("y") and kind[-2:-1] not in "aeiou" else kind + "s"


class UnknownNameError(UsageError, KeyError):
    """A weapon, target, ruleset or option value that is not on the sheet.

    ``aliases`` maps the other names a thing goes by (a chart's short names: "SMG",
    "LMG") to its own name: a typo of one ("SMGs") is matched to it and the thing is
    suggested by its own name."""

    def __init__(
        self, kind: str, name: str, known: Iterable[str], aliases: Mapping[str, str] | None = None
    ) -> None:
        known = sorted(set(known))
        lookup = {k.lower(): k for k in known}
        for alias, own in (aliases or {}).items():
            lookup.setdefault(alias.lower(), own)
        close = _nearest(name.lower(), lookup)
        hint = (
            f" Did you mean {', '.join(map(repr, close))}?"
            if close
            else f" Known {_plural(kind)}: {', '.join(known)}."
        )
        super().__init__(f"Unknown {kind} {name!r}.{hint}")
        self.kind, self.name, self.close_matches = kind, name, close

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


def _nearest(name: str, lookup: Mapping[str, str], cutoff: float = 0.5, most: int = 3) -> list[str]:
    """The things (``lookup``: each name -> the thing's own name) whose names are nearest
    ``name``: those within a tenth of the best match (at least ``cutoff``), nearest first,
    each once, at most ``most`` of them. "Rifel" is Rifle alone, not every rifle."""
    scored = []
    for key, own in lookup.items():
        matcher = difflib.SequenceMatcher(None, name, key)
        if matcher.real_quick_ratio() >= cutoff and matcher.quick_ratio() >= cutoff:
            score = matcher.ratio()
            if score >= cutoff:
                scored.append((score, own))
    if not scored:
        return []
    best = max(score for score, _ in scored)
    near = [own for score, own in sorted(scored, key=lambda s: -s[0]) if score >= best - 0.1]
    return list(dict.fromkeys(near))[:most]


def problems_in(where: str, problems: Sequence[str]) -> str:
    """The problems found in one file (or scenario, list...) ``where``, as an error tells
    them: one as "where: what is wrong"; several counted first, then one a line, each at
    its line of the file where it gives one::

        3 problems in my.yaml:
          - my.yaml:8: field units.0.quality: 'regulr' is not one of the choices ...
          - my.yaml:15: field units.1.points: should be a whole number, not ...
    """
    if len(problems) == 1:
        return f"{where}: {problems[0]}"
    told = "\n".join(f"  - {_at_its_line(where, problem)}" for problem in problems)
    return f"{len(problems)} problems in {where}:\n{told}"


def _at_its_line(where: str, problem: str) -> str:
    """A problem ("line 8, field x: ...") named by its file and line ("my.yaml:8: field x:
    ..."); one that gives no line of its own, by its file alone."""
    found = re.match(r"line (\d+)(?:, (?=field )|: )(.*)", problem, re.DOTALL)
    if found is None:
        return f"{where}: {problem}"
    return f"{where}:{found[1]}: {found[2]}"


class DataFileError(KriegsspielError):
    """A rules data file, army list or scenario is malformed; names file, line and field
    (several problems one a line, counted first: :func:`problems_in`)."""

    def __init__(self, path: str, problems: list[str]) -> None:
        self.path, self.problems = path, problems
        super().__init__(problems_in(path, problems))

    @property
    def in_one_line(self) -> str:
        """The problems in one line ("my.yaml: line 8, ...; line 15, ..."), for an error
        that tells this one inside its own sentence."""
        return f"{self.path}: " + "; ".join(self.problems)
