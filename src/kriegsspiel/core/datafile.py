"""Load YAML files into pydantic models with errors that name file, line and field."""

from __future__ import annotations

import datetime
import errno
import json
import os
import re
import types
import unicodedata
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, TypeVar, Union, get_args, get_origin

import yaml
from pydantic import (
    AfterValidator,
    AllowInfNan,
    BaseModel,
    ConfigDict,
    StringConstraints,
    ValidationError,
)
from pydantic import Strict as _NoCoercion
from pydantic_core import PydanticCustomError

from kriegsspiel.core import indentation
from kriegsspiel.errors import DataFileError, suggest

M = TypeVar("M", bound=BaseModel)


class Strict(BaseModel):
    """Base of every model read from a file: unknown fields are errors, values are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    file_kind: ClassVar[str] = "file"  # what a user calls such a file ("army list", "scenario")


# A data file's numbers and switches as YAML writes them: pydantic's lax mode would take
# true for 1, "8" for 8 and "yes" for true, so a slip (a quoted number, a switch where a
# count belongs) would play a game other than the one written. (Strict on these types only:
# strict models would refuse the lists YAML gives for tuples.)
WholeNumber = Annotated[int, _NoCoercion()]  # 3; not 3.0, true or "3"
# (.inf and .nan, which YAML reads as floats, are no measure: refused where they are read)
Number = Annotated[float, _NoCoercion(), AllowInfNan(False)]  # 3 or 2.5; not true, "2.5", .inf
TrueOrFalse = Annotated[bool, _NoCoercion()]  # true or false; not 1 or "yes"


# The text a pattern (a regular expression) stands for, as a reader is told it: a text that
# does not match is "'D3 plus 1' is not a dice expression (write e.g. ...)", not the regex.
_PATTERNS: dict[str, str] = {}


def text_of_form(pattern: str, told: str) -> StringConstraints:
    """A text field's constraint: it matches the regular expression ``pattern``; one that
    does not is told as not ``told`` ("a dice expression (write e.g. 3, D6, 2D6-1)")."""
    _PATTERNS[pattern] = told
    return StringConstraints(pattern=pattern)


# Characters a name or a remark may not hold: control characters (ESC, NUL, a line break in a
# name), which the terminal would obey and an SVG drawing (XML) cannot hold, line and
# paragraph separators, and the invisible marks that turn the direction of the text shown
# after them (a list's name would then read as something else).
_TOLD = {
    "\n": "a line break",
    "\r": "a carriage return",
    "\t": "a tab",
    "\x00": "a NUL character",
    "\x1b": "an escape character (ESC)",
    "\x7f": "a delete character (DEL)",
    "\u2028": "a line separator (U+2028)",
    "\u2029": "a paragraph separator (U+2029)",
}
_DIRECTION_MARKS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def _character(char: str) -> str:
    """A character a text may not hold, named for a reader: "an escape character (ESC)"."""
    if char in _TOLD:
        return _TOLD[char]
    if char in _DIRECTION_MARKS:
        return f"an invisible mark that turns the text's direction (U+{ord(char):04X})"
    if char in ("\ufffe", "\uffff"):
        return f"a character that is no character (U+{ord(char):04X})"
    return f"a control character (U+{ord(char):04X})"


def strange_character(text: str, *, lines: bool = False) -> tuple[int, str] | None:
    """The first character of ``text`` a name (``lines``: a remark of several lines, which
    may hold line breaks and tabs) may not hold, as its 1-based place and its name for a
    reader; None if there is none."""
    for place, char in enumerate(text, 1):
        if lines and char in "\n\t":
            continue
        if (
            unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp")
            or char in _DIRECTION_MARKS
            or char in ("\ufffe", "\uffff")
        ):
            return place, _character(char)
    return None


def _name_problem(kind: str, text: str) -> PydanticCustomError:
    return PydanticCustomError(kind, "{problem}", {"problem": text})


def _a_name(text: str) -> str:
    """A name, as a file gives one: some text on one line, of characters that print."""
    if not text:
        raise _name_problem("name", "is empty: give a name (some text)")
    if not text.strip():
        raise _name_problem("name", f"{text!r} is blank: give a name (some text, not only spaces)")
    found = strange_character(text)
    if found is not None:
        place, what = found
        raise _name_problem(
            "name",
            f"{text!r} holds {what} at character {place}: a name is one line of text that "
            "prints as it reads (it is shown on the terminal, in tables and in SVG drawings); "
            "leave it out",
        )
    return text


def _a_remark(text: str) -> str:
    """Free text (a description, a note): line breaks and tabs allowed, as YAML's block
    text writes them, but no other control character."""
    found = strange_character(text, lines=True)
    if found is not None:
        place, what = found
        raise _name_problem(
            "text",
            f"holds {what} at character {place}: it is shown on the terminal and in drawings, "
            "which cannot show it; leave it out",
        )
    return text


# a name (of a list, a unit, a model, a terrain feature, an objective): text on one line,
# not blank, with no control character; told plainly where pydantic would say "String
# should have at least 1 character"
Name = Annotated[str, AfterValidator(_a_name)]
# free text of a file (a description, a note): several lines allowed, no control character
Remark = Annotated[str, AfterValidator(_a_remark)]


def _line_of(node: yaml.Node, loc: tuple[int | str, ...]) -> int:
    """The 1-based line of the YAML node at ``loc`` (or of its nearest parent): where a
    reader looks for it. A field's value written as a block on the lines under its key
    ("weapons:" and its "- Rifle" items, "vehicle:" and its fields) is at the key's line,
    where the whole value is given, not at its first item's; one of its items is at its own."""
    line = node.start_mark.line + 1
    for key in loc:
        child: yaml.Node | None = None
        at = line
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if k.value == key:
                    child, at = v, k.start_mark.line + 1
                    break
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            child = node.value[key]
            at = child.start_mark.line + 1
        if child is None:
            break
        block = isinstance(child, yaml.CollectionNode) and not child.flow_style
        node, line = child, at if block else child.start_mark.line + 1
    return line


def not_a_file(path: Path, suffixes: tuple[str, ...] = (".yaml", ".yml")) -> str | None:
    """Why ``path``, given for a file, is none, said plainly (None if it is not a folder or
    a broken link): a folder, with the files of ``suffixes`` in it; a link to nothing."""
    try:
        if path.is_dir():
            inside = sorted(p.name for p in path.iterdir() if p.suffix.lower() in suffixes)
            kinds = " or ".join(suffixes)
            held = f"it holds {_some(inside)}" if inside else f"it holds no {kinds} file"
            return f"is a folder; give a file in it ({held})"
        if path.is_symlink() and not path.exists():
            if _in_a_loop(path):
                return (
                    f"is a link in a loop: it points to {os.readlink(path)}, which leads back "
                    "to it through links, never to a file; give the file itself"
                )
            return f"is a broken link: it points to {os.readlink(path)}, which does not exist"
    except OSError:
        return None  # (unreadable: said by whatever reads it)
    return None


def _in_a_loop(path: Path) -> bool:
    """Is ``path`` a link whose links lead back round (the system stops following them)?"""
    try:
        os.stat(path)
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def load_yaml(path: Path, model: type[M]) -> M:
    """Parse ``path`` and validate it as ``model``; raise DataFileError on any problem."""
    return parse_yaml(read_yaml_text(path), model, str(path))


def read_yaml_text(path: Path) -> str:
    """The text of the YAML file at ``path``; DataFileError, naming it, if it cannot be
    read (no such file, a folder, a broken link) or is not text."""
    name = str(path)
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        problem = not_a_file(path) or f"cannot be read ({exc.strerror})"
        raise DataFileError(name, [problem]) from None
    except UnicodeDecodeError as exc:
        raise DataFileError(name, [not_text(exc, "a YAML file written in a text editor")]) from None


def not_text(exc: UnicodeDecodeError, expected: str) -> str:
    """What to say of a file that is not UTF-8: the line and byte where it stops being so,
    and, for a file of text (no NUL bytes: not a picture or a program), how to mend it."""
    data = bytes(exc.object)
    line = data.count(b"\n", 0, exc.start) + 1
    saved = "; was it saved as Latin-1 or another encoding? save it as UTF-8" * (b"\0" not in data)
    return (
        f"is not text (line {line}: byte {exc.start + 1} is not UTF-8{saved}); expected {expected}"
    )


_BASE: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available


class _Loader(_BASE):  # type: ignore[misc]
    """The safe loader, refusing a key given twice in one mapping (YAML would silently keep
    the last, so a list's second 'name:' would lose the first without a word)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> Any:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.get(key)
            except TypeError:  # an unhashable key: the constructor below reports it
                continue
            if first is not None:
                raise yaml.constructor.ConstructorError(
                    None,
                    None,
                    f"the field {key!r} is given twice (first on line {first})",
                    key_node.start_mark,
                )
            seen[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_timestamp(self, node: yaml.ScalarNode) -> Any:
        """A date as YAML reads one (2024-01-01); one no calendar has (2024-13-45) is a
        problem of the file at its line, not a crash."""
        try:
            return super().construct_yaml_timestamp(node)
        except ValueError as exc:
            raise yaml.constructor.ConstructorError(
                None, None, f"{node.value!r} is no date ({exc})", node.start_mark
            ) from None


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _Loader.construct_yaml_timestamp)
_LOADER: Any = _Loader


def yaml_data(text: str) -> Any:
    """The data of YAML ``text``, read by the same loader as every checked file: a file that
    passed its checks reads again alike (pure-Python PyYAML refuses some text libyaml
    takes, such as a tab after a colon). Raises yaml.YAMLError."""
    return yaml.load(text, Loader=_LOADER)


def parse_yaml(text: str, model: type[M], name: str) -> M:
    try:
        data: Any = yaml_data(text)
    except yaml.YAMLError as exc:
        kind = other_format(text)
        if kind is not None:
            wanted: str = getattr(model, "file_kind", "file")
            raise DataFileError(
                name,
                [
                    f"this does not look like {_a(wanted)}: it looks like {kind}; was another "
                    "kind of file given?"
                ],
            ) from None
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        begun = getattr(exc, "context_mark", None)  # where YAML began reading what broke
        first = None if mark is None else _first_of_block_above(text, mark.line)
        problem = getattr(exc, "problem", None) or str(exc)
        hint = None
        if mark is not None and first is not None:
            above, opener, opening = first
            where = (
                f"line {mark.line + 1}, or line {above + 1} above it (the first line under "
                f"'{opening}' sets the indentation the lines after it must keep: check both "
                "lines' indentation): "
            )
            hint = indentation.first_of_block(text, mark.line, above, opener, yaml_data)
        if mark is not None and hint is None and problem.startswith(indentation.OUT_OF_STEP):
            hint = indentation.out_of_step(text, mark.line, yaml_data)
            if hint is not None:
                where, first = f"line {mark.line + 1}: ", None
        if (
            mark is not None
            and first is None
            and hint is None
            and begun is not None
            and (begun.line < mark.line)
        ):
            where = (
                f"line {mark.line + 1} (or line {begun.line + 1}, where YAML began reading it): "
            )
        if mark is not None and hint is None and problem.startswith("mapping values are not"):
            hint = _colon_hint(text, mark.line)
        if mark is not None and hint is None and "expected <document start>" in problem:
            hint = indentation.top_level_out_of_step(text, mark.line, yaml_data)
            if hint is not None:
                where = f"line {mark.line + 1}: "
        if mark is not None and hint is None and "is given twice" in problem:
            hint = indentation.item_out_of_step(text, mark.line, yaml_data)
        if mark is not None and hint is None:
            hint = _token_hint(text, problem, mark, begun)
            if hint is not None and problem.startswith("did not find expected ','"):
                where = f"line {mark.line + 1}: "
        hint = hint or ""
        raise DataFileError(name, [f"{where}not valid YAML ({problem}){hint}"]) from None
    if data is None:
        held = "holds only comments" if text.strip(" \t\r\n\ufeff") else "is empty"
        raise DataFileError(name, [f"the file {held}; expected a mapping of fields"])
    what: str = getattr(model, "file_kind", "file")
    if not isinstance(data, dict):
        shape = {
            "str": "text",
            "list": "a list",
            "int": "a number",
            "float": "a number",
            "bool": "true or false",
        }.get(type(data).__name__, f"a {type(data).__name__}")
        raise DataFileError(
            name, [f"{_a(what)} is a mapping of fields (name: value, one a line), not {shape}"]
        )
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        node = yaml.compose(text, Loader=_LOADER)  # only now: to find each error's line
        line = None if node is None else (lambda loc: _line_of(node, loc))
        strange = [key for key in data if key not in model.model_fields]
        part = _part_of(model, data, strange)
        if part is not None:  # (one unit of a list, given for the list)
            raise DataFileError(name, [part]) from None
        if len(strange) * 2 > len(data):  # mostly fields it never has: another kind of file?
            # (that alone: each of its fields told missing or strange would bury it)
            needed = [f for f, info in model.model_fields.items() if info.is_required()]
            raise DataFileError(
                name,
                [
                    f"this does not look like {_a(what)}: most of its fields "
                    f"({_some(map(str, strange))}) are not {_a(what)}'s, which has "
                    f"{_some(needed)}; was another kind of file given?"
                ],
            ) from None
        raise DataFileError(name, problems(exc, line, model, node)) from None


JSON_FILE = "a file of JSON"  # (what other_format says of JSON it knows no more of)


def other_format(text: str) -> str | None:
    """What ``text`` plainly is, when it is a kind of file kriegsspiel writes or reads other
    than YAML's data: "a kriegsspiel game record (lines of JSON)", "an SVG drawing", "a web
    page (HTML)"; None
    when it is none of these (a broken YAML file, told by its parser)."""
    start = text.lstrip("\ufeff \t\r\n")[:2000].lower()
    if start.startswith("<"):
        if "<svg" in start:
            return "an SVG drawing"
        return "a web page (HTML)" if "<html" in start else "an XML file"
    first = start.split("\n", 1)[0]
    if first.startswith("{"):
        try:
            header = json.loads(text.lstrip("\ufeff \t\r\n").split("\n", 1)[0])
        except (ValueError, RecursionError):
            header = None
        if isinstance(header, dict):
            if str(header.get("format", "")).startswith("kriegsspiel-record"):
                return "a kriegsspiel game record (lines of JSON, as 'play --record' writes)"
            return JSON_FILE
    return None


def data_kind(data: Any) -> str | None:
    """What YAML ``data`` is by its fields: "an army list" (``units``), "a scenario"
    (``deployment``), "a rules data file" (a ``ruleset`` and tables); None if none of these."""
    if not isinstance(data, dict):
        return None
    if "units" in data:
        return "an army list"
    if "deployment" in data:
        return "a scenario"
    return "a rules data file" if "ruleset" in data and len(data) > 3 else None


def other_kind(text: str) -> str | None:
    """What a text given for a file of JSON lines kriegsspiel writes (a game record, a play
    aid save) plainly is instead: an SVG drawing, a game record, an army list, a scenario, a
    rules file (:func:`other_format`, then :func:`data_kind`); None if it is none of these."""
    try:
        return other_format(text) or data_kind(yaml_data(text))
    except (yaml.YAMLError, RecursionError):
        return None


def _colon_hint(text: str, line: int) -> str:
    """Why YAML found a ": " where no field may begin, on the 0-based ``line``, said plainly:
    the line is indented past the one above it (YAML reads it as more of that line's text:
    :func:`indentation.further_than_above`, its move tried before it is told), or a text
    holds ": " unquoted (YAML reads what follows as another field). Told with the line as
    it would be right where it can be; empty if the line is neither."""
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return ""
    here = lines[line]
    above = [k for k in range(line - 1, -1, -1) if lines[k].strip()[:1] not in ("", "#")]
    if above:
        before = lines[above[0]]
        deeper = len(here) - len(here.lstrip(" ")) > len(before) - len(before.lstrip(" "))
        opened = before.split(" #", 1)[0].rstrip().endswith((":", "-", "|", ">"))
        if deeper and not opened and ": " in before:
            return indentation.further_than_above(text, line, above[0], yaml_data)
    key, colon, value = here.strip().partition(": ")
    value = value.split(" #", 1)[0].strip()
    plain = re.fullmatch(r"(- )?[A-Za-z_][\w -]*", key) and value[:1] not in ("{", "[", '"', "'")
    if colon and plain and (": " in value or value.endswith(":")):
        written = f"{key}: {json.dumps(value, ensure_ascii=False)}"
        return (
            ': a text holding ": " must be in quotes, or YAML reads what follows it as '
            f"another field; write line {line + 1} as {written}"
        )
    return (
        ': a text holding ": " must be in quotes, or YAML reads what follows it as another '
        "field; or is this line indented wrong?"
    )


def _first_of_block_above(text: str, line: int) -> tuple[int, int, str] | None:
    """The 0-based line above ``line`` (blank lines and comments passed over), and the line
    opening its block (its number and text), if it is the first line of a block (the line before it ends in ":")
    and is indented otherwise than ``line``: YAML takes a block's indentation from its
    first line, so one indented wrong is refused only at the line after it, the line
    PyYAML names. None otherwise."""

    def content(k: int) -> bool:
        return bool(lines[k].strip()) and not lines[k].lstrip().startswith("#")

    def indent(k: int) -> int:
        return len(lines[k]) - len(lines[k].lstrip(" "))

    lines = text.splitlines()
    if not 0 < line < len(lines) or not content(line):
        return None
    above = [k for k in range(line - 1, -1, -1) if content(k)][:2]
    if len(above) < 2 or indent(above[0]) == indent(line):
        return None
    opening = lines[above[1]].split(" #", 1)[0].rstrip()
    return (above[0], above[1], opening.strip()) if opening.endswith(":") else None


def _token_hint(text: str, problem: str, mark: Any, begun: Any) -> str | None:
    """What PyYAML's words for a character it cannot read mean, said plainly: a tab in a
    line's indentation (YAML indents with spaces only), an alias ("*rifle") naming no
    anchor, a "{" or "[" the file ends inside. None for other problems."""
    lines = text.splitlines()
    here = lines[mark.line] if 0 <= mark.line < len(lines) else ""
    if "tab" in problem or (
        problem.startswith("found character that cannot start") and here[mark.column :][:1] == "\t"
    ):
        return (
            f": line {mark.line + 1} holds a tab; YAML indents with spaces only (a tab is "
            "no number of spaces): put spaces in its place, as many as the lines beside it "
            "are indented with"
        )
    if problem.startswith("found undefined alias"):
        alias = re.match(r"\*[^\s,\[\]{}]+", here[mark.column :])
        if alias is not None:
            anchor = alias[0][1:]
            return (
                f": {alias[0]} is read as an alias, YAML's name for a value marked &{anchor} "
                f"above it, and nothing is so marked; if the text {alias[0]!r} is meant, put "
                f"it in quotes; if {anchor!r} is, leave out the '*'"
            )
    closing = {"did not find expected ',' or '}'": "}", "did not find expected ',' or ']'": "]"}
    if problem in closing and begun is not None:
        after = [k for k in range(mark.line, len(lines)) if lines[k].strip()[:1] not in ("", "#")]
        if not after or (len(after) == 1 and after[0] == mark.line and mark.column == 0):
            opened = "{" if closing[problem] == "}" else "["
            return (
                f": the file ends inside the '{opened}' of line {begun.line + 1}, never "
                f"closed: close it with '{closing[problem]}' (and any '[' or '{{' opened "
                "before it)"
            )
    return None


def _part_of(model: type[BaseModel], data: dict[Any, Any], strange: list[Any]) -> str | None:
    """What to say of a file holding the fields of one item of one of ``model``'s lists
    (a unit alone, given for an army list): that it is one, and where it goes. None when
    its fields are not all of such an item's."""
    if not strange or len(strange) * 2 <= len(data):
        return None
    for field, info in model.model_fields.items():
        annotation = _unwrapped(info.annotation)
        if get_origin(annotation) not in (list, tuple) or not get_args(annotation):
            continue
        item = _unwrapped(get_args(annotation)[0])
        if not (isinstance(item, type) and issubclass(item, BaseModel)):
            continue
        if all(isinstance(key, str) and key in item.model_fields for key in data):
            what: str = getattr(model, "file_kind", "file")
            others = [f for f, i in model.model_fields.items() if i.is_required() and f != field]
            return (
                f"this holds the fields of one of {_a(what)}'s {field} ({_some(map(str, data))}), "
                f"not {_a(what)}: {_a(what)} gives each of its {field} as an item under "
                f"'{field}:' (its first line '  - {next(iter(data))}: ...'), beside its "
                f"{_some(others)}"
            )
    return None


def _some(names: Iterable[str], most: int = 6) -> str:
    """Names joined by commas, the first ``most`` of them: "a, b, c and 4 more"."""
    names = list(names)
    shown = ", ".join(names[:most])
    return shown if len(names) <= most else f"{shown} and {len(names) - most} more"


def problem_at(text: str, loc: tuple[int | str, ...], problem: str) -> str:
    """A problem with the field at ``loc`` of the YAML ``text``, told as every file error
    is: "line N, field a.b: what is wrong" (no line when the text holds no YAML)."""
    line = line_in(text, loc)
    where = f"line {line}, " if line is not None else ""
    return f"{where}field {'.'.join(map(str, loc))}: {problem}"


def _a(noun: str) -> str:
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


def line_in(text: str, loc: tuple[int | str, ...]) -> int | None:
    """The 1-based line of the field at ``loc`` in the YAML ``text`` (or of its nearest
    parent); None if the text holds no YAML."""
    node = yaml.compose(text, Loader=_LOADER)
    return None if node is None else _line_of(node, loc)


# The key of a validation error's context that names one item of the list (its index) or
# mapping (its key) a field validator checked, when that item alone is wrong (a weapon
# given twice, a note under no ruleset's name): the error is told at that item's line, not
# at the field's.
AT_ITEM = "at_item"


def problems(
    exc: ValidationError,
    line: Callable[[tuple[int | str, ...]], int] | None,
    model: type[BaseModel] | None = None,
    node: yaml.Node | None = None,
) -> list[str]:
    """Each of a validation's errors as "line N, field a.b: what is wrong" (``line`` finds
    the line of a field's place; None when there is none to give). Given the ``model``
    validated, a field it does not have is told with the fields it does have there; given
    the file's YAML ``node`` too, one that is a field of a block beside it ("kind" beside
    "vehicle:") is told to be indented under that block."""
    found = []
    for error in exc.errors():
        loc = tuple(error["loc"])
        item = (error.get("ctx") or {}).get(AT_ITEM)
        if isinstance(item, int | str):  # (a check of a list or mapping: one item wrong)
            loc += (item,)
        field = ".".join(str(p) for p in loc) or "(top level)"
        where = f"line {line(loc)}, " if line is not None else ""
        message = error["msg"]
        if error["type"] == "value_error":  # (our own words, without pydantic's prefix)
            message = message.removeprefix("Value error, ")
        elif error["type"] in _WANTED:
            message = _not_of_type(error["type"], error["input"])
            message += _written_as(error["type"], error["input"], model, loc)
        elif error["type"] == "bool_parsing":  # (pydantic: "unable to interpret input")
            message = _not_of_type("bool_type", error["input"])
        elif error["type"] == "string_pattern_mismatch":  # (pydantic: the regex itself)
            pattern = error["ctx"]["pattern"]
            told = _PATTERNS.get(pattern, f"of the form this field takes (the pattern {pattern})")
            message = f"{_shown(error['input'])} is not {told}"
        elif error["type"] == "missing":  # (pydantic: "Field required")
            wanted = _wanted_at(model, loc) if model is not None else None
            message = "missing: it must be given here" + (f"; give {wanted}" if wanted else "")
        elif error["type"] in _BOUND:  # (pydantic: "Input should be greater than ...")
            bound = _BOUND[error["type"]].format(*map(_plain, error["ctx"].values()))
            message = f"must be {bound} (not {error['input']!r})"
        elif error["type"] in ("literal_error", "enum"):  # (pydantic: "Input should be 'a' or 'b'")
            message = _not_a_choice(error["input"], _choices(error["ctx"]["expected"]))
        elif error["type"] == "string_too_short":  # (pydantic: "String should have at least")
            least = error["ctx"]["min_length"]
            message = (
                "is empty: give some text here"
                if least == 1
                else f"{error['input']!r} is too short: give at least {least} characters"
            )
        elif error["type"] in ("too_long", "too_short"):  # (pydantic: "Tuple should have ...")
            message = _how_many(error, loc)
        elif error["type"] == "finite_number":  # (pydantic: "Input should be a finite number")
            message = f"must be a finite number, not {_yaml_float(error['input'])}"
        elif error["type"] in ("int_parsing", "float_parsing", "int_from_float"):
            wanted = "a whole number" if error["type"] != "float_parsing" else "a number"
            message = f"must be {wanted} (not {_shown(error['input'])})"
        owner = _model_at(model, loc[:-1]) if model is not None else None
        if error["type"] == "extra_forbidden" and owner is not None and loc:
            spelt = [info.alias or name for name, info in owner.model_fields.items()]
            block = None if node is None else _block_beside(node, owner, loc)
            message = (
                block or _of_its_items(owner, str(loc[-1])) or _unknown_field(str(loc[-1]), spelt)
            )
        found.append(f"{where}field {field}: {message}")
    return found


def _written_as(
    kind: str, given: Any, model: type[BaseModel] | None, loc: tuple[int | str, ...]
) -> str:
    """How a text given where a list or a mapping belongs is written as one: "Rifle" for
    weapons as [Rifle], "MMG" for a vehicle's weapon as {weapon: MMG, facing: ...}."""
    if isinstance(given, dict) and kind in ("list_type", "tuple_type") and model is not None:
        return _keyed_by_name(given, _model_at(model, (*loc, 0)))
    if not isinstance(given, str) or not given.strip() or "\n" in given:
        return ""
    if kind in ("list_type", "tuple_type"):
        return f"; write it as a list: [{given}] (or each item on a line of its own, '- ...')"
    owner = _model_at(model, loc) if kind == "model_type" and model is not None else None
    if owner is None:
        return ""
    fields = list(owner.model_fields.items())
    rest = [f"{name}: ..." for name, info in fields[1:] if info.is_required()]
    shown = ", ".join([f"{fields[0][0]}: {given}", *rest])
    return f"; write it as {{{shown}}} (its fields: {', '.join(n for n, _ in fields)})"


def _keyed_by_name(given: dict[Any, Any], item: type[BaseModel] | None) -> str:
    """How a list of named items (units) written as a mapping keyed by their names is
    written as a list: "- name: 1st Section", its fields under it ("  type: infantry")."""
    if item is None or "name" not in item.model_fields or not given:
        return ""
    if not all(isinstance(k, str) and isinstance(v, dict) for k, v in given.items()):
        return ""
    name, fields = next(iter(given.items()))
    plain = [(k, v) for k, v in fields.items() if v is not None and not isinstance(v, dict | list)]
    field = f"{plain[0][0]}: {_as_written(plain[0][1])}" if plain else "...: ..."
    return (
        f"; write it as a list, each key as its item's name, its fields under it lined up "
        f"with 'name': '- name: {name}' then '  {field}' on the next line"
    )


def _as_written(value: Any) -> str:
    """A plain YAML value as a file writes it: infantry, 50, true."""
    return "true" if value is True else "false" if value is False else str(value)


_WANTED = {
    "int_type": "a whole number",
    "float_type": "a number",
    "bool_type": "true or false",
    "string_type": "text",
    "list_type": "a list",
    "tuple_type": "a list",
    "dict_type": "a mapping of fields",
    "model_type": "a mapping of fields",
}
_BOUND = {  # a number's bounds, as a wargamer says them
    "greater_than_equal": "{} or more",
    "greater_than": "more than {}",
    "less_than_equal": "{} or less",
    "less_than": "less than {}",
}


def _plain(number: Any) -> Any:
    """A bound as a wargamer writes it: 0, not 0.0 (a float field's whole-number bound)."""
    return int(number) if isinstance(number, float) and number.is_integer() else number


def _not_of_type(kind: str, given: Any) -> str:
    """What to say of a value of the wrong kind (``kind``: pydantic's error type), in the
    file's words: "should be a whole number, not true"."""
    wanted = _WANTED[kind]
    if isinstance(given, bool):
        shown = "true" if given else "false"
    elif given is None:
        shown = "nothing (the field is blank)"
    elif isinstance(given, str):
        shown = f"the text {given!r}"
        try:
            read = yaml.safe_load(given)
        except yaml.YAMLError:
            read = None
        number = isinstance(read, int | float) and not isinstance(read, bool)
        if (kind == "bool_type" and isinstance(read, bool)) or (
            kind in ("int_type", "float_type") and number
        ):
            shown += " (write it without quotes)"
        elif kind in ("int_type", "float_type"):
            shown += _exponent_hint(given, kind)
    elif isinstance(given, list | tuple):
        shown = "a list"
    elif isinstance(given, dict):
        shown = "a mapping of fields"
    elif isinstance(given, datetime.date):  # (YAML reads 2024-01-01 as a date)
        shown = f"the date {given.isoformat()}"
    else:
        shown = _yaml_float(given)  # (.inf, as the file wrote it)
    if kind == "string_type" and isinstance(given, bool | int | float | datetime.date):
        # YAML read it as a number, a switch or a date: in quotes it is text
        written = given.isoformat() if isinstance(given, datetime.date) else None
        example = f' (e.g. "{written}")' if written else ""
        shown += f"; put it in quotes to make it text{example}"
    return f"should be {wanted}, not {shown}"


# a number with an exponent as Python (and YAML 1.2) write it: 1e300, 2.5E-3, .5e2
_EXPONENT = re.compile(r"([-+]?)(\d*)(?:\.(\d*))?[eE]([-+]?)(\d+)")


def _exponent_hint(text: str, kind: str) -> str:
    """Why a number written with an exponent (1e300) was read as text, and how to write it:
    YAML 1.1, which PyYAML reads, takes an exponent only after a point and with its sign
    (1.0e+300); a whole number is written in digits. Empty if ``text`` is no such number."""
    found = _EXPONENT.fullmatch(text.strip())
    if found is None or not (found[2] or found[3]):
        return ""
    if kind == "int_type":
        return " (a whole number is written in digits, without an exponent)"
    sign, whole, fraction, exponent_sign, exponent = found.groups()
    written = f"{sign}{whole or 0}.{fraction or 0}e{exponent_sign or '+'}{exponent}"
    return f" (YAML reads a number with an exponent only as {written})"


def _choices(expected: str) -> list[str]:
    """The choices of pydantic's "'a', 'b' or 'c'" (each as its repr: quoted if text)."""
    found = re.findall(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|[^\s,'\"]+", expected)
    return [token for token in found if token != "or"]


def _not_a_choice(given: Any, choices: list[str]) -> str:
    """What to say of a value that is none of a field's choices: it, the nearest, all."""
    hint = suggest(str(given), [c.strip("'\"") for c in choices])
    listed = ", ".join(choices[:-1]) + f" or {choices[-1]}" if len(choices) > 1 else choices[0]
    return f"{_shown(given)} is not one of the choices here{hint}; give {listed}"


def _how_many(error: Any, loc: tuple[int | str, ...]) -> str:
    """Too many or too few items, counted in the field's own word: "at most 40 units, not 41"."""
    ctx = error["ctx"]
    named = loc and isinstance(loc[-1], str) and loc[-1].endswith("s")  # ("units", not "to")
    noun = str(loc[-1]).replace("_", " ") if named else "items"
    if error["type"] == "too_long":
        bound, what = ctx["max_length"], "at most"
    else:
        bound, what = ctx["min_length"], "at least"
    return f"must have {what} {_counted(bound, noun)}, not {ctx['actual_length']}"


def _counted(number: int, noun: str) -> str:
    """'1 unit', '2 units' (``noun`` given in the plural, as a field of several is named)."""
    if number == 1 and noun.endswith("s"):
        noun = noun[:-3] + "y" if noun.endswith("ies") else noun[:-1]
    return f"{number} {noun}"


def _yaml_float(number: Any) -> str:
    """A float as YAML writes it: .inf, -.inf and .nan as such (Python says inf and nan)."""
    if isinstance(number, float) and number != number:
        return ".nan (not a number)"
    if isinstance(number, float) and number in (float("inf"), float("-inf")):
        return f"{'-' if number < 0 else ''}.inf (infinity)"
    return _shown(number)


def _shown(given: Any) -> str:
    """A value as the file wrote it: 'thirty', 2.5, true, a list."""
    if isinstance(given, bool):
        return "true" if given else "false"
    if given is None:
        return "nothing (the field is blank)"
    if isinstance(given, list | tuple):
        return "a list"
    if isinstance(given, dict):
        return "a mapping of fields"
    return repr(given)


def _unknown_field(name: str, known: list[str]) -> str:
    """What to say of a field the model does not have: the ones it has, the nearest first."""
    hint = suggest(name, known)
    return f"there is no such field here{hint}; the fields here are {', '.join(known)}"


def _block_beside(
    node: yaml.Node, owner: type[BaseModel], loc: tuple[int | str, ...]
) -> str | None:
    """What to say of a field ``loc`` that ``owner`` does not have but a block field of it
    beside it does ("kind" beside "vehicle:", its line indented as the block's, not under
    it): that it belongs under that block, and how far to indent it. None otherwise."""
    here: yaml.Node | None = node
    for key in loc[:-1]:
        here = _child(here, key)
    if not isinstance(here, yaml.MappingNode):
        return None
    stray = next((k for k, _ in here.value if k.value == loc[-1]), None)
    for key, value in here.value:
        info = owner.model_fields.get(key.value) if isinstance(key.value, str) else None
        block = None if info is None else _unwrapped(info.annotation)  # (a block, not a list)
        if not (isinstance(block, type) and issubclass(block, BaseModel)) or stray is None:
            continue
        if any(loc[-1] in (name, info.alias) for name, info in block.model_fields.items()):
            blank = isinstance(value, yaml.ScalarNode) and value.tag.endswith(":null")
            spaces = key.start_mark.column + 2
            return (
                f"'{loc[-1]}' at line {stray.start_mark.line + 1} belongs under "
                f"'{key.value}:' (line {key.start_mark.line + 1}){', which is left blank' * blank}"
                f": indent it {spaces} spaces, under '{key.value}:' (a block's fields are "
                "indented further than its name)"
            )
    return None


def _of_its_items(owner: type[BaseModel], name: str) -> str | None:
    """What to say of a field ``name`` that ``owner`` does not have but the items of one of
    its lists do ("weapons" given to a unit, whose models carry them): that it goes in
    those items. None otherwise."""
    for field, info in owner.model_fields.items():
        annotation = _unwrapped(info.annotation)
        if get_origin(annotation) not in (list, tuple) or not get_args(annotation):
            continue
        item = _unwrapped(get_args(annotation)[0])
        if isinstance(item, type) and issubclass(item, BaseModel) and name in item.model_fields:
            first = next(iter(item.model_fields))
            shown = f"{first}: ..., {name}: ..." if first != name else f"{name}: ..."
            return (
                f"there is no such field here: '{name}' is a field of each of the items under "
                f"'{field}:', not of this mapping; give it to the item it belongs to (e.g. "
                f"- {{{shown}}}); the fields here are {', '.join(owner.model_fields)}"
            )
    return None


def _child(node: yaml.Node | None, key: int | str) -> yaml.Node | None:
    """The node at ``key`` of a mapping or list ``node``; None if there is none."""
    if isinstance(node, yaml.MappingNode):
        return next((v for k, v in node.value if k.value == key), None)
    if isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
        child: yaml.Node = node.value[key]
        return child
    return None


def _wanted_at(model: type[BaseModel], loc: tuple[int | str, ...]) -> str | None:
    """What the field at ``loc`` of ``model`` takes, as a wrong value of it is told: its
    choices ("'infantry', 'artillery', 'team' or 'vehicle'") or its kind ("a whole number");
    None when that cannot be said simply (a field of several kinds)."""
    owner = _model_at(model, loc[:-1]) if loc else None
    if owner is None or not isinstance(loc[-1], str):
        return None
    info = next(
        (f for n, f in owner.model_fields.items() if loc[-1] in (n, f.alias)),
        None,
    )
    return None if info is None else _wanted_of(info.annotation)


def _wanted_of(annotation: Any) -> str | None:
    """The words for what a field of ``annotation`` takes (see :func:`_wanted_at`)."""
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    annotation = _unwrapped(annotation)
    if get_origin(annotation) is Literal:
        choices = [repr(c) for c in get_args(annotation)]
        return ", ".join(choices[:-1]) + f" or {choices[-1]}" if len(choices) > 1 else choices[0]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "a mapping of fields"
    kinds = {bool: "true or false", int: "a whole number", float: "a number", str: "text"}
    if annotation in kinds:
        return kinds[annotation]
    return "a list" if get_origin(annotation) in (list, tuple) else None


def _model_at(model: type[BaseModel], loc: tuple[int | str, ...]) -> type[BaseModel] | None:
    """The model of the mapping at ``loc`` inside ``model`` (through lists, dicts and
    optional values); None when the place holds no model."""
    here: Any = model
    for key in loc:
        here = _unwrapped(here)
        if isinstance(here, type) and issubclass(here, BaseModel):
            info = here.model_fields.get(key) if isinstance(key, str) else None
            if info is None:
                return None
            here = info.annotation
        elif get_origin(here) in (list, tuple):
            here = get_args(here)[0] if get_args(here) else None
        elif get_origin(here) is dict:
            here = get_args(here)[1] if get_args(here) else None
        else:
            return None
    here = _unwrapped(here)
    return here if isinstance(here, type) and issubclass(here, BaseModel) else None


def _unwrapped(annotation: Any) -> Any:
    """``M`` from ``M | None`` (the first of a union's members that is not None)."""
    if get_origin(annotation) in (Union, types.UnionType):
        members = [a for a in get_args(annotation) if a is not type(None)]
        return members[0] if members else None
    return annotation
