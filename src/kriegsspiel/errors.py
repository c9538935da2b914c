"""Precise exception classes: every user-facing failure names what and where."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence


class KriegsspielError(Exception):
    """Base class of every error the engine raises on purpose: its message told as a
    :func:`sentence` (a full stop added where it ends without one)."""

    def __init__(self, *args: object) -> None:
        if len(args) == 1 and isinstance(args[0], str):
            args = (sentence(args[0]),)
        super().__init__(*args)


class UsageError(KriegsspielError, ValueError):
    """The caller asked for something impossible or contradictory (exit status 2)."""


class UsageTypeError(UsageError, TypeError):
    """A Python caller gave an argument of the wrong type: a UsageError, and a TypeError
    as Python's own checks raise for one."""


# a parameter named in a ParameterError's message: "\x1e" its name "\x1d" the Python
# caller's words "\x1d" the words after the command line's option "\x1f" (control
# characters, which no message's words hold)
_NAMED = re.compile("\x1e([^\x1d]*)\x1d([^\x1d]*)\x1d([^\x1f]*)\x1f")


def named(
    parameter: str, value: object = None, *, shown: str | None = None, python: str | None = None
) -> str:
    """A parameter, named in a :class:`ParameterError`'s message: as a Python caller gives
    it ("range_inches", "range_inches=-3", "automatic=True") or, told by the command line,
    as its option ("--range", "--range -3", "--auto"). ``value`` None names the parameter
    alone. ``shown``: the value's words after the option as they are ("N", "stand-and-fire",
    not quoted); ``python``: the Python caller's words in full, where they are not
    ``parameter=value`` ("'rifle:x' in weapons")."""
    if value is None:
        said = parameter if shown is None else f"{parameter}={shown}"
        after = "" if shown is None else f" {shown}"
    else:
        text = as_given(value)
        said = f"{parameter}={text}"
        after = f" {text}" if shown is None else f" {shown}"
        if value is True and shown is None:  # (a flag: given, it is True)
            after = ""
    return f"\x1e{parameter}\x1d{said if python is None else python}\x1d{after}\x1f"


def as_given(value: object) -> str:
    """A value as a message echoes it: a number as it was typed (-3, not the -3.0 the
    command line reads it as; 2.5; nan), anything else as Python writes it ('far')."""
    return f"{value:.12g}" if isinstance(value, float) else repr(value)


class Worded(KriegsspielError):
    """An error naming the caller's parameters (:func:`named`), written once for both
    callers: ``str()`` names them as the Python function takes them ("range_inches=-3",
    "workers=1"); the command line tells it with its options (:meth:`told_as`: "--range
    -3", "--workers 1"). ``parameters``: the parameters named, in order (each once)."""

    def __init__(self, message: str) -> None:
        self.template = sentence(message)
        self.parameters = tuple(dict.fromkeys(m[1] for m in _NAMED.finditer(message)))
        super().__init__(self.told_as({}))

    def told_as(self, options: Mapping[str, str]) -> str:
        """The message with each parameter told as its option in ``options`` (parameter ->
        option, e.g. "range_inches" -> "--range"); one not there keeps its Python name."""
        return told_as(self.template, options)


class ParameterError(Worded, UsageError):
    """A refusal naming the caller's parameters (a :class:`Worded` UsageError): "range_inches
    must be ... not -3." to a Python caller, "--range must be ..." on the command line;
    told as a sentence, its full stop added where its message ends without one."""

    def __init__(self, message: str) -> None:
        super().__init__(sentence(message))


def sentence(text: str) -> str:
    """``text`` ending as a sentence: as it is where it ends with a full stop (or a question
    mark: "Did you mean 'rifle'?"; or a sentence closed in brackets: "(see /api/docs.)"),
    with a colon, a list introduced by one (its items one a line, indented), or a command to
    paste ("... with: kriegsspiel play --seed 5", "'kriegsspiel results --list'"), which a
    full stop would run into; else with one added ("... drop --auto.")."""
    text = text.rstrip(" \n")  # (not rstrip(): a named parameter's end mark is "space")
    if text.endswith((".", "?", "!", ":")) or _ENDED.search(text) or _COMMAND_AT_END.search(text):
        return text
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1][:1].isspace():  # (a list's last item)
        return text
    return f"{text}."


def clause(exc: BaseException) -> str:
    """An error's message told inside another sentence ("Not allowed: ... ; ..."): its
    closing full stop (the one :func:`sentence` adds) left off."""
    text = str(exc)
    return text[:-1] if text.endswith(".") and not text.endswith("..") else text


# a sentence closed inside brackets or quotes (a question in them is not: "(did you mean
# --seed?)."); a command to paste at a message's end (after a colon or a line's start, or
# quoted whole)
_ENDED = re.compile(r"\.[)\]'\"’`]+$")
_COMMAND_AT_END = re.compile(
    r"(?:^|:[ \t]+|\n\s*)(?:kriegsspiel|pip) [^\n]*$|(['\"`])(?:kriegsspiel|pip) [^\n]*\1$"
)


class ParameterTypeError(ParameterError, UsageTypeError):
    """A :class:`ParameterError` of a value of the wrong type: a TypeError too."""


def told_as(text: str, options: Mapping[str, str]) -> str:
    """``text`` (a refusal's, a reason's) with each parameter :func:`named` in it told as
    its option in ``options`` (parameter -> option); one not there, and every one when
    ``options`` is empty, as the Python caller gives it."""

    def one(m: re.Match[str]) -> str:
        name, python, after = m.groups()
        option = options.get(name)
        return python if option is None else option + after

    return _NAMED.sub(one, text)


def names_any(text: str) -> bool:
    """Does ``text`` name a parameter (:func:`named`), to be told in its caller's words?"""
    return _NAMED.search(text) is not None


def as_written(exc: BaseException) -> str:
    """An error's message as written, its parameters still to be told in the caller's
    words (a :class:`Worded` error's template): for an error that tells it inside its own
    (a sweep file's problem at its line), which its caller then tells as it tells its own."""
    return exc.template if isinstance(exc, Worded) else str(exc)


def not_a_distance(parameter: str, value: object) -> ParameterError:
    """The refusal of a range that is no distance (negative, NaN, infinite, not a number),
    in every ruleset's words: "--range must be a distance of 0 or more inches, not -3."."""
    return ParameterError(
        f"{named(parameter)} must be a distance of 0 or more inches, not {as_given(value)}."
    )


RULES_FILE_WANTED = (
    "your copy of the edition's rules data (a YAML file), or leave it out for the shipped rules"
)


def empty_name(option: str, given: str, wanted: str) -> ParameterError:
    """The error of an option given an empty name (a path of '' is the current folder:
    never what was meant): "--resume was given an empty name (''); give ...". ``option``
    may be a parameter :func:`named` ("rules_file" to a Python caller, "--rules-file" on
    the command line)."""
    return ParameterError(f"{option} was given an empty name ({given!r}); give {wanted}.")


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
        close = nearest(name, known, aliases)
        hint = (
            did_you_mean(close) + "." if close else f". Known {_plural(kind)}: {', '.join(known)}."
        )
        super().__init__(f"Unknown {kind} {name!r}{hint}")
        self.kind, self.name, self.close_matches = kind, name, close

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class AmbiguousNameError(UnknownNameError):
    """A name that, run together, is as much one thing's as another's ("mg-42" where
    "MG42" and "MG 4-2" are two weapons): unknown, told with those it could be
    (``candidates``, each by its own name)."""

    def __init__(self, kind: str, name: str, candidates: Sequence[str]) -> None:
        super().__init__(kind, name, candidates)
        self.candidates = tuple(dict.fromkeys(candidates))
        self.args = (
            f"Unknown {kind} {name!r}{did_you_mean(self.candidates)}. Written run together, "
            f"it is each one's name alike: write it as one of them.",
        )
        self.close_matches = list(self.candidates)


def suggest(name: str, known: Iterable[str], aliases: Mapping[str, str] | None = None) -> str:
    """What a refusal says after a name that names nothing: " (did you mean 'Rifle'?)", the
    :func:`nearest` of the ``known`` names (and ``aliases``), or "" if none is near."""
    return did_you_mean(nearest(name, known, aliases))


def did_you_mean(names: Sequence[str]) -> str:
    """The one wording of a suggestion, to follow the name refused: " (did you mean 'A', 'B'
    or 'C'?)" (each as Python quotes it); "" for no names."""
    if not names:
        return ""
    quoted = [repr(n) for n in names]
    told = quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"
    return f" (did you mean {told}?)"


def nearest(name: str, known: Iterable[str], aliases: Mapping[str, str] | None = None) -> list[str]:
    """The ``known`` names nearest ``name``, in any case (:func:`_nearest`: at most three,
    nearest first). ``aliases`` maps other names a thing goes by (a chart's "LMG") to its
    own name: a near alias suggests its thing, by its own name."""
    lookup = {k.lower(): k for k in sorted(set(known))}
    for alias, own in (aliases or {}).items():
        lookup.setdefault(alias.lower(), own)
    return _nearest(name.lower(), lookup)


def _nearest(name: str, lookup: Mapping[str, str], cutoff: float = 0.5, most: int = 3) -> list[str]:
    """The things (``lookup``: each name -> the thing's own name) whose names are nearest
    ``name``: those within a tenth of the best match (more than ``cutoff`` alike: "elite"
    and "veteran", or "bogus" and "out", half alike, are not near), nearest first, each
    once, at most ``most`` of them. "Rifel" is Rifle alone, not every rifle."""
    scored = []
    for key, own in lookup.items():
        matcher = difflib.SequenceMatcher(None, name, key)
        if matcher.real_quick_ratio() > cutoff and matcher.quick_ratio() > cutoff:
            score = matcher.ratio()
            if score > cutoff and _a_likely_slip(name, key, score):
                scored.append((score, own))
    if not scored:
        return []
    best = max(score for score, _ in scored)
    near = [own for score, own in sorted(scored, key=lambda s: -s[0]) if score >= best - 0.1]
    return list(dict.fromkeys(near))[:most]


def _a_likely_slip(name: str, key: str, score: float) -> bool:
    """Would a reader take ``name`` for ``key`` mistyped or cut short: much alike (three
    quarters), a few letters off (one left out, added, changed or two swapped for every
    three: "Rifel", "qualty"), one a run of the other's words ("tank" of "heavy tank",
    "crossroads" of "hold-the-crossroads"), or sharing a run of letters longer than half the
    shorter ("MG42" and "MMG")? Half alike is not enough: "forward" is no slip of "rear", nor
    "weapons" of "points", though they share half their letters."""
    if score >= 0.75 or _letters_off(name, key) <= max(1, max(len(name), len(key)) // 3):
        return True
    short, long = sorted((name, key), key=len)
    if short and re.search(rf"(?<![^\W_]){re.escape(short)}(?![^\W_])", long):
        return True
    block = difflib.SequenceMatcher(None, name, key).find_longest_match()
    return block.size >= 2 and block.size * 2 > len(short)


def _letters_off(a: str, b: str) -> int:
    """The fewest letters left out, added or changed, or pairs swapped, that make ``a``
    of ``b`` (the optimal string alignment distance)."""
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        here = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            here[j] = min(row[j] + 1, here[j - 1] + 1, row[j - 1] + (x != y))
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                here[j] = min(here[j], before[j - 2] + 1)
        before, row = row, here
    return row[-1]


def problems_in(where: str, problems: Sequence[str]) -> str:
    """The problems found in one file (or scenario, list...) ``where``, as an error tells
    them: one as "where: what is wrong"; several counted first, then one a line in line
    order, each at its line of the file where it gives one::

        3 problems in my.yaml:
          - my.yaml:8: field units.0.quality: 'regulr' is not one of the choices ...
          - my.yaml:15: field units.1.points: should be a whole number, not ...
    """
    if len(problems) == 1:
        return f"{where}: {problems[0]}"
    told = "\n".join(f"  - {_at_its_line(where, problem)}" for problem in in_line_order(problems))
    return f"{len(problems)} problems in {where}:\n{told}"


def in_line_order(problems: Iterable[str]) -> list[str]:
    """Problems in the order of their lines in the file ("line 6, ..." before "line 81,
    ..."), those of one line (or of none: the whole file's, first) in the order found."""
    return sorted(problems, key=_line_number)


def _line_number(problem: str) -> int:
    found = re.match(r"line (\d+)\b", problem)
    return 0 if found is None else int(found[1])


def _at_its_line(where: str, problem: str) -> str:
    """A problem ("line 8, field x: ...") named by its file and line ("my.yaml:8: field x:
    ..."); one that gives no line of its own, by its file alone."""
    found = re.match(r"line (\d+)(?:, (?=field )|: )(.*)", problem, re.DOTALL)
    if found is None:
        return f"{where}: {problem}"
    return f"{where}:{found[1]}: {found[2]}"


class DataFileError(Worded):
    """A rules data file, army list or scenario is malformed; names file, line and field
    (several problems one a line, counted first, in line order: :func:`problems_in`).
    A problem may name the caller's parameters (:func:`named`: "ruleset='konflikt47'" to
    a Python caller, "--ruleset konflikt47" on the command line): ``problems`` tells them
    as a Python caller gives them, ``written`` keeps them to be told (:meth:`told_as`)."""

    def __init__(self, path: str, problems: list[str]) -> None:
        self.path, self.written = path, in_line_order(problems)
        self.problems = [told_as(problem, {}) for problem in self.written]
        super().__init__(problems_in(path, self.written))

    @property
    def in_one_line(self) -> str:
        """The problems in one line ("my.yaml: line 8, ...; line 15, ..."), for an error
        that tells this one inside its own sentence (in a Python caller's words)."""
        return self.one_line_told_as({})

    def one_line_told_as(self, options: Mapping[str, str]) -> str:
        """:attr:`in_one_line`, each parameter told as its option in ``options``."""
        return told_as(f"{self.path}: " + "; ".join(self.written), options)
