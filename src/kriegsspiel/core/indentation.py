"""Which line of a YAML file is indented out of step, and how to mend it.

YAML tells a block's lines by their indentation, so a line a space out ends its block and
PyYAML says only "did not find expected key" (or "mapping values are not allowed"), often
at the line after the slip. The advice here is tried before it is given: a line is told to
move only where the file, so mended, reads (``reads`` raises yaml.YAMLError where not).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import yaml

Reads = Callable[[str], object]

# PyYAML's words (libyaml's, then pure Python's) for a line that ends its block out of step
OUT_OF_STEP = (
    "did not find expected key",
    "did not find expected '-' indicator",
    "expected <block end>",
)
# a field's key at the start of a text ("points: 5", "name:"), not a flow mapping or a quote
_KEY = re.compile(r"[^\s{\[#'\"-][^:#]*:(\s|$)")


@dataclass(frozen=True)
class _Level:
    """An indentation the lines above a line keep open: its spaces, whether it is one of a
    list's items ("- ") or a field, and the line (0-based) that opened it."""

    spaces: int
    item: bool
    line: int


def _spaces(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _content(line: str) -> bool:
    return bool(line.strip()) and not line.lstrip().startswith("#")


def _levels_above(lines: list[str], at: int) -> list[_Level]:
    """The indentations open at line ``at`` (0-based): those of the line above it and of
    each line it sits under, nearest first (a "- name: x" item opens two: its items' and
    its fields')."""
    levels: list[_Level] = []
    bound: int | None = None
    for k in range(at - 1, -1, -1):
        if not _content(lines[k]) or (bound is not None and _spaces(lines[k]) >= bound):
            continue
        bound = _spaces(lines[k])
        text = lines[k].lstrip(" ")
        if text.startswith("- ") or text == "-":
            rest = text[1:].lstrip(" ")
            if _KEY.match(rest):
                levels.append(_Level(len(lines[k]) - len(rest), False, k))
            levels.append(_Level(bound, True, k))
        else:
            levels.append(_Level(bound, False, k))
    return levels


def _reindented(lines: list[str], first: int, last: int, by: int) -> str:
    """The text with lines ``first`` to ``last`` moved ``by`` spaces (in, if negative)."""
    moved = list(lines)
    for k in range(first, last + 1):
        if _content(moved[k]):
            moved[k] = " " * (_spaces(moved[k]) + by) + moved[k].lstrip(" ")
    return "\n".join(moved) + "\n"


def _reads_past(text: str, at: int, reads: Reads) -> int:
    """How well ``text`` reads: 2 if whole, 1 if its first problem is after line ``at``
    (another slip), 0 if it is still wrong there."""
    try:
        reads(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return 1 if mark is not None and mark.line > at else 0
    return 2


def _spaced(count: int) -> str:
    return f"{count} space{'s' * (count != 1)}"


def _block_end(lines: list[str], at: int) -> int:
    """The last line (0-based) of the block line ``at`` opens: those after it indented further."""
    end = at
    for k in range(at + 1, len(lines)):
        if _content(lines[k]):
            if _spaces(lines[k]) <= _spaces(lines[at]):
                break
            end = k
    return end


def out_of_step(text: str, at: int, reads: Reads, *, whole: bool = False) -> str | None:
    """Advice for a line ``at`` (0-based) that ended its block (PyYAML's :data:`OUT_OF_STEP`
    words): it is indented otherwise than the items or fields beside it; indent it (with
    the lines under it, if they moved with it) as they are. None if no such move mends the
    file (``whole``: the whole file; else at least as far as line ``at``)."""
    lines = text.splitlines()
    if not 0 <= at < len(lines) or not _content(lines[at]):
        return None
    here, spaces = lines[at].lstrip(" "), _spaces(lines[at])
    item = here.startswith("- ") or here == "-"
    flow = here.lstrip("- ").startswith("{")

    def shape(level: _Level) -> tuple[int, int, int]:
        text = lines[level.line].lstrip(" ").lstrip("- ")
        return (abs(level.spaces - spaces), text.startswith("{") != flow, level.spaces)

    levels = [
        level
        for level in dict.fromkeys(_levels_above(lines, at))
        if level.item == item and level.spaces != spaces
    ]
    best: tuple[int, str] | None = None
    for level in sorted({(lv.spaces, lv.line): lv for lv in levels}.values(), key=shape):
        by = level.spaces - spaces
        for last, also in ((at, ""), (_block_end(lines, at), " and the lines under it")):
            if also and last == at:
                continue
            read = _reads_past(_reindented(lines, at, last, by), at, reads)
            if read == 2:
                return _told(lines, at, level, item, also, last)
            if read and best is None and not whole:
                best = (read, _told(lines, at, level, item, also, last))
    return None if best is None else best[1]


def _told(lines: list[str], at: int, level: _Level, item: bool, also: str, last: int) -> str:
    """The advice of :func:`out_of_step`: the line, its indentation, its neighbours', the fix."""
    what = "items" if item else "fields"
    beside = next(
        (
            k
            for k in range(at - 1, -1, -1)
            if _content(lines[k])
            and _spaces(lines[k]) == level.spaces
            and lines[k].lstrip(" ").startswith("-") == item
        ),
        None,
    )
    under = ""
    if beside is not None:
        parent = next(
            (
                k
                for k in range(beside - 1, -1, -1)
                if _content(lines[k]) and _spaces(lines[k]) < level.spaces
            ),
            None,
        )
        opening = "" if parent is None else lines[parent].split(" #", 1)[0].strip()
        if opening.endswith(":") and not opening.startswith("-"):
            under = f" under '{opening}'"
    seen = f" (as line {beside + 1} is)" if beside is not None else ""
    lines_moved = f"{also} (to line {last + 1})" if also else ""
    move = level.spaces - _spaces(lines[at])
    how = (
        f"{_spaced(level.spaces)}"
        if not also
        else f"{_spaced(abs(move))} {'further' if move > 0 else 'less'}"
    )
    return (
        f": line {at + 1} is indented {_spaced(_spaces(lines[at]))}, out of step with the "
        f"{what}{under} beside it, which are indented {level.spaces}{seen}; indent it"
        f"{lines_moved} {how}, as they are"
    )


def first_of_block(text: str, at: int, above: int, opener: int, reads: Reads) -> str | None:
    """Advice for a line ``at`` (0-based) refused after ``above``, the first line under
    ``opener`` (a "...:" line), when the two are indented otherwise: the first line sets the
    block's indentation, so either it or line ``at`` is out of step. Told is the move that
    mends the file (moving the first line when the lines after it agree with line ``at``);
    None if neither does."""
    lines = text.splitlines()
    first, then, opened = _spaces(lines[above]), _spaces(lines[at]), _spaces(lines[opener])
    opening = lines[opener].split(" #", 1)[0].strip()
    after = next((k for k in range(at + 1, len(lines)) if _content(lines[k])), None)
    keeps = after is not None and _spaces(lines[after]) == then
    # (a "- name: x" item's fields start after its "- ": that is where line ``at`` belongs)
    inner = first
    rest = lines[above].lstrip(" ")[1:].lstrip(" ")
    if (
        lines[above].lstrip(" ").startswith("- ")
        and _KEY.match(rest)
        and _KEY.match(lines[at].lstrip(" "))
    ):
        inner = len(lines[above]) - len(rest)
    moves = [("first", above, then - inner), ("then", at, inner - then)]
    if not keeps:
        moves.reverse()
    for which, line, by in moves:
        if which == "first" and then <= opened:
            continue  # (the first line would not be under its opener)
        if _reads_past(_reindented(lines, line, line, by), at, reads) == 2:
            if which == "first":
                why = (
                    f"as '{opening}' is, not under it"
                    if first <= opened
                    else "and sets the indentation of the lines after it"
                )
                fields = (
                    ", so that its fields line up with them" if inner != first else ", as they are"
                )
                return (
                    f": line {above + 1}, the first line under '{opening}' (line {opener + 1}), "
                    f"is indented {_spaced(first)}, {why}; line {at + 1} and those after it "
                    f"are indented {then}: indent line {above + 1} {_spaced(first + by)}{fields}"
                )
            return (
                f": line {at + 1} is indented {_spaced(then)}, out of step with line "
                f"{above + 1} above it ({_spaced(first)}), the first line under '{opening}', "
                f"which sets the block's indentation; indent line {at + 1} {_spaced(then + by)}, "
                f"as line {above + 1}'s {'fields are' if inner != first else 'is'}"
            )
    return None


def further_than_above(text: str, at: int, above: int, reads: Reads) -> str:
    """What to say of a line ``at`` (0-based) indented further than the line ``above`` it,
    which opens no block, so YAML reads it as more of that line's text ("mapping values
    are not allowed"). Told is a move that mends the file, tried first: to the line above's
    indentation (its fields', if it is a "- name: x" item), or the line above to this one's
    (the one that reads further), else to another the lines above keep open
    (:func:`out_of_step`); if no one move mends it (more than one line is out of step),
    where to look, with no move claimed."""
    lines = text.splitlines()
    spaces, before = _spaces(lines[at]), lines[above].lstrip(" ")
    why = (
        f": line {at + 1} is indented further than line {above + 1} above it, so YAML reads "
        "it as more of that line's text"
    )
    rest = before[1:].lstrip(" ")
    item = before.startswith("- ") and bool(_KEY.match(rest))
    target = len(lines[above]) - len(rest) if item else _spaces(lines[above])
    moving = _reads_past(_reindented(lines, at, at, target - spaces), at, reads)
    # (the line above moved instead, to this one's indentation: a slip of the line above)
    above_moving = 0
    if not item and moving < 2:
        by = spaces - _spaces(lines[above])
        above_moving = _reads_past(_reindented(lines, above, above, by), at, reads)
    if moving and moving >= above_moving:
        if item:
            return (
                f"{why}; indent it {_spaced(target)}, as the fields of line {above + 1}'s "
                "item are (a field of the same mapping starts where the one above it starts)"
            )
        return (
            f"{why}; indent it as line {above + 1} is (a field of the same mapping starts "
            "where the one above it starts)"
        )
    if above_moving:
        return (
            f"{why}; but it is line {above + 1}, indented {_spaced(_spaces(lines[above]))}, "
            f"that is out of step: indent line {above + 1} {_spaced(spaces)}, as line "
            f"{at + 1} is"
        )
    moved = out_of_step(text, at, reads, whole=True)
    if moved is not None:
        return f"{why}{moved.replace(f': line {at + 1} is', '; it is', 1)}"
    return (
        f"{why}; no move of line {at + 1} or line {above + 1} alone mends the file, so more "
        f"than one line near them is out of step: check the indentation of the lines about "
        f"lines {above + 1} and {at + 1} (the fields of one mapping each start as far in as "
        "the first, and a block's lines further in than the line that opens it)"
    )


def top_level_out_of_step(text: str, at: int, reads: Reads) -> str | None:
    """Advice for a line ``at`` (0-based) that YAML found after the file's top level ended
    ("did not find expected <document start>"): the top level starts at the first line of
    the file, so one indented further than the lines after it ends it at the first of them.
    Told is the move of the first line that mends the file, tried first; else the two
    lines to compare. None if the first line is indented no further than line ``at``."""
    lines = text.splitlines()
    first = next((k for k in range(len(lines)) if _content(lines[k])), None)
    if first is None or first >= at or _spaces(lines[first]) <= _spaces(lines[at]):
        return None
    told = (
        f": line {first + 1}, the file's first field, is indented "
        f"{_spaced(_spaces(lines[first]))} and sets where its top-level fields start; line "
        f"{at + 1} is indented {_spaced(_spaces(lines[at]))}"
    )
    by = _spaces(lines[at]) - _spaces(lines[first])
    if _reads_past(_reindented(lines, first, first, by), at, reads):
        return f"{told}: indent line {first + 1} {_spaced(_spaces(lines[at]))}, as line {at + 1} is"
    return (
        f"{told}; a file's top-level fields each start at the start of their line: check the "
        f"indentation of lines {first + 1} to {at + 1}"
    )


def item_out_of_step(text: str, at: int, reads: Reads) -> str | None:
    """Advice for a field at line ``at`` (0-based) that YAML found given twice, when the
    line above it is a list's item ("- name: x") indented otherwise than its fields: YAML
    read that item into the list above it and this field as one more of the mapping before
    it. Told is the move of the item's line that lines its fields up with line ``at``,
    tried first; None if the line above is no such item or the move does not mend it."""
    lines = text.splitlines()
    above = next((k for k in range(at - 1, -1, -1) if _content(lines[k])), None)
    if above is None or not _content(lines[at]):
        return None
    item = lines[above].lstrip(" ")
    rest = item[1:].lstrip(" ")
    if not item.startswith("- ") or not _KEY.match(rest):
        return None
    fields = len(lines[above]) - len(rest)
    spaces = _spaces(lines[at])
    by = spaces - fields
    if by == 0 or _spaces(lines[above]) + by < 0:
        return None
    if _reads_past(_reindented(lines, above, above, by), at, reads) < 2:
        return None
    return (
        f": line {above + 1}, an item ('- '), is indented {_spaced(_spaces(lines[above]))}, so "
        f"its fields would be {fields} in, but line {at + 1} and the lines after it are "
        f"indented {spaces}: YAML read line {above + 1} into the list above it and line "
        f"{at + 1} as a field of the mapping before it; indent line {above + 1} "
        f"{_spaced(_spaces(lines[above]) + by)}, so that its fields line up with them"
    )
