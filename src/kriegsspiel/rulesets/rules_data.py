"""The rules data files of the four rulesets, and whose data a designer's file is.

Each ruleset reads every number from one YAML file, and a designer's copy of it (a rules
file) may stand in for it. A copy given where another ruleset's data is wanted is told as
that ruleset's data, in so many words, not as a file of another kind: its field
``ruleset`` says whose it is, or, in a copy made before House Clearing's and Iron Cross's
files had that field, its tables do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from pydantic import AfterValidator, PrivateAttr

from kriegsspiel.core.datafile import Strict
from kriegsspiel.errors import ParameterError, named

_FAMILY = "bolt-action family"  # (a layout, not a ruleset: told by tables alone)
#: The rulesets by their short names, as a message names them.
NAMES = {
    "konflikt47": "Konflikt '47",
    "bolt-action-1": "Bolt Action 1st edition",
    "iron-cross": "Iron Cross",
    "house-clearing": "House Clearing",
    _FAMILY: "the Bolt Action family (Konflikt '47 or Bolt Action 1st edition)",
}
#: The rulesets whose data files share one layout (and whose games are played whole).
BOLT_ACTION_FAMILY = ("konflikt47", "bolt-action-1")


def shipped_data(ruleset: str) -> Path:
    """The shipped data file of ``ruleset`` (its command-line name)."""
    if ruleset in BOLT_ACTION_FAMILY:
        from kriegsspiel.rulesets.bolt_action.data import DATA_DIR

        return DATA_DIR / f"{ruleset.replace('-', '_')}.yaml"
    if ruleset == "iron-cross":
        from kriegsspiel.rulesets.iron_cross.data import DATA_FILE as IRON_CROSS

        return IRON_CROSS
    from kriegsspiel.rulesets.house_clearing.data import DATA_FILE as HOUSE_CLEARING

    assert ruleset == "house-clearing", ruleset
    return HOUSE_CLEARING


def _tables() -> dict[str, frozenset[str]]:
    """Each layout's top-level fields (the Bolt Action family's under its family's name)."""
    from kriegsspiel.rulesets.bolt_action.data import Edition
    from kriegsspiel.rulesets.house_clearing.data import HouseClearingData
    from kriegsspiel.rulesets.iron_cross.data import IronCrossData

    common = {"ruleset", "title", "sheets"}
    return {
        _FAMILY: frozenset(Edition.model_fields) - common,
        "iron-cross": frozenset(IronCrossData.model_fields) - common,
        "house-clearing": frozenset(HouseClearingData.model_fields) - common,
    }


@dataclass(frozen=True, slots=True)
class Whose:
    """Whose rules data a file is (``ruleset``: a ruleset's name, or the Bolt Action
    family's), and what in it tells so: its field ``ruleset``, or (a copy made before the
    file had that field) its ``tables``; ``line``, the line of the field or first table."""

    ruleset: str
    tables: tuple[str, ...] = ()
    line: int | None = None

    @property
    def by_field(self) -> bool:
        """Whether the file's field ``ruleset`` says it (not its tables)."""
        return not self.tables

    def told(self, path: str) -> str:
        """Whose data it is, as every message tells it, the file ``path`` pointed to at the
        line that tells it: "the rules data of konflikt47 (Konflikt '47), as its field
        ruleset says (k47.yaml:6)"."""
        if self.tables:
            shown = self.tables[:3]
            listed = ", ".join(shown[:-1]) + f" and {shown[-1]}" if len(shown) > 1 else shown[0]
            how = f"its table{'s' * (len(shown) > 1)} {listed} say{'s' * (len(shown) == 1)}"
        else:
            how = "its field ruleset says"
        at = f"{path}:{self.line}" if self.line is not None else path
        return f"the rules data of {first_named(self.ruleset)}, as {how} ({at})"


def whose(text: str) -> Whose | None:
    """Whose rules data the YAML ``text`` is, and how that is told: by its field
    ``ruleset`` when that names one of the four rulesets; else (a ruleset, or the Bolt
    Action family) by its tables when most of its fields are that layout's tables; None
    when neither tells (a broken file, another kind of file: its own check says what is
    wrong)."""
    import yaml

    from kriegsspiel.core.datafile import line_in, yaml_data

    try:
        data: Any = yaml_data(text)
    except (yaml.YAMLError, ValueError, TypeError, RecursionError):
        return None  # (not plain YAML data: its own check tells where)
    if not isinstance(data, dict):
        return None
    named = data.get("ruleset")
    if isinstance(named, str) and named in NAMES and named != _FAMILY:
        return Whose(named, line=line_in(text, ("ruleset",)))
    keys = [key for key in data if isinstance(key, str)]
    best, found = max(
        ((layout, [k for k in keys if k in tables]) for layout, tables in _tables().items()),
        key=lambda pair: len(pair[1]),
    )
    if not found or len(found) * 2 <= len(keys):
        return None
    heading = re.search(rf"^{re.escape(found[0])}\s*:", text, re.MULTILINE)  # (its key's line)
    line = text.count("\n", 0, heading.start()) + 1 if heading else line_in(text, (found[0],))
    return Whose(best, tuple(found), line)


def named_ruleset(text: str) -> str | None:
    """The ruleset a rules file's field ``ruleset`` names, if it names one of the four."""
    found = whose(text)
    return found.ruleset if found is not None and found.by_field else None


def family(ruleset: str) -> str:
    """The layout of ``ruleset``'s data: the Bolt Action family's, or its own."""
    return _FAMILY if ruleset in BOLT_ACTION_FAMILY else ruleset


def name(ruleset: str) -> str:
    """A ruleset's (or the Bolt Action family's) full name: "Konflikt '47"."""
    return NAMES.get(ruleset, ruleset)


def first_named(ruleset: str) -> str:
    """A ruleset as a message first names it: the name --ruleset takes, with its full name
    ("konflikt47 (Konflikt '47)"; the family: "the Bolt Action family (konflikt47 or
    bolt-action-1)"); a message names it again, and names the others, as --ruleset does."""
    if ruleset == _FAMILY:
        return f"the Bolt Action family ({' or '.join(BOLT_ACTION_FAMILY)})"
    return f"{ruleset} ({NAMES[ruleset]})" if ruleset in NAMES else ruleset


def copy_hint(ruleset: str) -> str:
    """How to get a copy of ``ruleset``'s data to edit."""
    return f"give a copy of {ruleset}'s data (kriegsspiel rules --ruleset {ruleset} --copy FILE)"


def other_data(
    label: str,
    text: str,
    wanted: str,
    *,
    may_ask: tuple[str, ...] = (),
    asked_by: str | None = None,
    path: str | None = None,
) -> None:
    """Refuse a rules file ``label`` (its ``text``; the file ``path``, if ``label`` is more
    than its name: "--rules-file k47.yaml") that is another layout's data than ``wanted``'s
    (a UsageError naming whose it is, at the line that tells it), with what to give
    instead: the parameter ``ruleset`` (``--ruleset``; :func:`~kriegsspiel.errors.named`)
    of its own ruleset if that is one of ``may_ask``, else (after
    ``asked_by`` ``may_ask``: "'odds morale' is for konflikt47 and bolt-action-1") a copy
    of ``wanted``'s data. Another edition of the Bolt Action family is the callers' own
    check (it says which option or list names which edition): :func:`other_edition`."""
    found = whose(text)
    if found is None or family(found.ruleset) == family(wanted):
        return
    owner = found.ruleset
    could = [r for r in (BOLT_ACTION_FAMILY if owner == _FAMILY else (owner,)) if r in may_ask]
    advice = copy_hint(wanted)
    if could:
        ask = named(
            "ruleset",
            shown=" or ".join(could),
            python="ruleset=" + " or ".join(repr(ruleset) for ruleset in could),
        )
        advice = f"give {ask}, or {advice.removeprefix('give ')}"
    elif asked_by is not None and may_ask:
        advice = f"{asked_by} {' and '.join(may_ask)}: {advice}"
    raise ParameterError(f"{label} is {found.told(path or label)}, not of {wanted}; {advice}.")


def other_edition(label: str, path: str, text: str, wanted: str, asked: str) -> str | None:
    """What a message says of the rules file ``label`` ("--rules-file k47.yaml: this
    file"; the file ``path``, its ``text``) when its field ``ruleset`` names another
    ruleset than ``wanted`` (``asked``: what ``wanted`` is, "the edition --ruleset asks
    for"): "--rules-file k47.yaml: this file is the rules data of konflikt47 (Konflikt
    '47), as its field ruleset says (k47.yaml:6), not of bolt-action-1, the edition
    --ruleset asks for"; None if it names ``wanted``, or none (its own check tells)."""
    found = whose(text)
    if found is None or not found.by_field or found.ruleset == wanted:
        return None
    return f"{label} is {found.told(path)}, not of {wanted}, {asked}"


#: What a designer starts a changed table's ``source`` with, in a rules file (the shipped
#: files never say it: their every table is a sheet's, a published rule or an assumption).
HOUSE_RULE = "house rule"


def source_check(sheets: tuple[str, ...], starts: tuple[str, ...]) -> Any:
    """The check of a table's ``source``: one of ``sheets`` (several joined by '+'), or a
    text starting with one of ``starts`` or with "house rule" (a designer's own)."""
    begins = (*starts, HOUSE_RULE)

    def check(value: str) -> str:
        parts = [part.strip() for part in value.split("+")]
        if (sheets and all(p in sheets for p in parts)) or value.startswith(begins):
            return value
        said = [f"the sheet's file name ({', '.join(sheets)})"] if len(sheets) == 1 else []
        if len(sheets) > 1:
            said = [f"a sheet's file name ({', '.join(sheets)}), several joined by '+'"]
        quoted = [f"'{begin}'" for begin in begins]
        told = ", ".join(quoted[:-1]) + " or " if len(quoted) > 1 else ""
        said.append(f"a text starting {told}{quoted[-1]} (a designer's own change)")
        raise ValueError(f"source {value!r} must be {' or '.join(said)}")

    return AfterValidator(check)


class RulesData(Strict):
    """A ruleset's whole data file, the shipped one or a designer's copy (a rules file),
    which knows the name it was read by, so a reason can say where its numbers came from.

    Two are equal when their tables are and they were read by one name (a copy as shipped,
    read from a rules file, is not the shipped data: its reasons would name the file had it
    changed anything). Caches of answers are keyed by a file's text and name, not by this
    data, and a digest is of the text (:class:`kriegsspiel.sim.matchup.Source`)."""

    _rules_file: str | None = PrivateAttr(default=None)
    # each part of a table asked of :meth:`cite` and whether it is as shipped, worked out
    # once (a game asks the same few at every shot), with the data it was worked out for:
    # a copy (model_copy) takes its private attributes along, not its answers; not part of
    # what the data is
    _as_shipped: tuple[object, dict[str, bool]] | None = PrivateAttr(default=None)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RulesData):
            return NotImplemented
        return (
            type(self) is type(other)
            and self.__dict__ == other.__dict__
            and self._rules_file == other._rules_file
        )

    __hash__ = Strict.__hash__  # (as a frozen model's: of its fields)

    def shipped(self) -> Self:
        """The shipped data this is (or stands in for)."""
        raise NotImplementedError

    @property
    def rules_file(self) -> str | None:
        """The name this data was read by (a rules file's); None for the shipped data."""
        return self._rules_file

    def named(self, rules_file: str) -> Self:
        """This data, known by the name of the file it was read from."""
        self._rules_file = rules_file
        return self

    def cite(self, said: str, *tables: str) -> str:
        """Where the numbers of ``tables`` came from (each a table's field name, or a path
        to a part of one: "firing_modifiers.smoke", a row by its first field
        "hit_modifiers.rows[long_range]", a field of a row "weapons.rows[Rifle].pen"):
        ``said`` (as the shipped data is told:
        "sheet", "assumption") when each is as shipped, else the rules file that changed
        one ("rules file ic.yaml")."""
        shipped = self.shipped()
        if shipped is self:
            return said
        private = self.__pydantic_private__  # (read as a dict: a game asks at every shot)
        assert private is not None
        memo = private["_as_shipped"]
        if memo is None or memo[0] is not self:
            memo = private["_as_shipped"] = (self, {})
        known = memo[1]
        for path in tables:
            same = known.get(path)
            if same is None:
                same = known[path] = _part(self, path) == _part(shipped, path)
            if not same:
                name = private["_rules_file"]
                return f"rules file {name}" if name else "changed rules data"
        return said

    def cited(self, *tables: str) -> str:
        """What follows a reason that names no source when a rules file changed its
        ``tables`` (see :meth:`cite`): " (rules file ic.yaml)"; else nothing."""
        told = self.cite("", *tables)
        return f" ({told})" if told else ""


_STEP = re.compile(r"([^.\[\]]+)(?:\[([^\]]*)\])?")


def _part(data: object, path: str) -> object:
    """The table (or part of one) of ``data`` at ``path``: "smoke", "firing_modifiers.smoke",
    a row of a list by what its first field says: "weapons.rows[Rifle]" (None when no
    row says it: a row the shipped data has not, or a copy left out), or one field of a
    row: "weapons.rows[Rifle].range" (None, too, of a row none says)."""
    for field, row in _STEP.findall(path):
        if data is None:  # (a field of a row that is not there)
            return None
        data = getattr(data, field)
        if row:
            assert isinstance(data, (list, tuple)), path
            data = next((r for r in data if row in _row_names(r)), None)
    return data


def _row_names(row: object) -> tuple[str, ...]:
    """What a row of a table is told by: its first field (a weapon's name, a modifier's key;
    each of a damage value's names)."""
    assert isinstance(row, Strict)
    first = getattr(row, next(iter(type(row).model_fields)))
    return tuple(str(v) for v in first) if isinstance(first, (list, tuple)) else (str(first),)
