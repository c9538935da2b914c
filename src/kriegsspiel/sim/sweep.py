"""Sweeps: many matchups from one YAML file — several lists against several, or a list
with some of its units changed — run one after another into the same results store.
"""

from __future__ import annotations

import math
import re
import shlex
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

import yaml
from pydantic import Field, ValidationInfo, field_validator, model_validator

from kriegsspiel.ai.players import SPEC_EXAMPLE, parse_players
from kriegsspiel.core.datafile import Name, Strict, WholeNumber, load_yaml, problem_at, yaml_data
from kriegsspiel.errors import DataFileError, UsageError, as_written, suggest
from kriegsspiel.rulesets.bolt_action.game.set_up_order import check_deployment
from kriegsspiel.sim import MAX_GAMES, MAX_SEED
from kriegsspiel.sim.matchup import (
    PLAYER_KINDS,
    Matchup,
    Source,
    check_rules,
    check_setup,
    game_ruleset,
    parsed,
    pick_file,
    read_rules,
    read_scenario,
    read_source,
    told_apart,
)
from kriegsspiel.sim.stats import wilson

Place = tuple[int | str, ...]  # a field's place in a variant: ("with",) or ("add", 1)


def _one_or_list(given: Any, kind: type, takes: str, hint: str = "") -> list[Any]:
    """A variant's field, one of ``kind`` or a list of them, as a list; anything else told
    in a wargamer's words (what it ``takes``), not pydantic's."""
    items = [given] if isinstance(given, kind) else given
    if not isinstance(items, list) or not all(isinstance(i, kind) and i != "" for i in items):
        raise ValueError(f"{takes}; not {given!r}{hint}")
    return items


class Variant(Strict):
    """A list with some of its units changed: ``replace`` names units and ``with`` gives
    what takes their place; ``remove`` names units to leave out; ``add`` gives units to
    bring. Each takes one name (or unit) or a list of them; ``replace`` and ``with`` come
    together, and a variant changes something."""

    name: Name
    list: str = Field(min_length=1)
    replace: tuple[Annotated[str, Field(min_length=1)], ...] = ()
    with_: tuple[dict[str, Any], ...] = Field(default=(), alias="with")
    remove: tuple[Annotated[str, Field(min_length=1)], ...] = ()
    add: tuple[dict[str, Any], ...] = ()

    @field_validator("replace", "remove", mode="before")
    @classmethod
    def _names(cls, given: Any) -> Any:
        return _one_or_list(
            given, str, "takes a unit's name, or a list of names, as the list calls its units"
        )

    @field_validator("with_", "add", mode="before")
    @classmethod
    def _units(cls, given: Any) -> Any:
        return _one_or_list(
            given,
            dict,
            "takes a unit, written out as in an army list (name, type, quality, points, "
            "models or vehicle), or a list of units",
            " (to take out a unit by its name, use replace or remove)",
        )

    @model_validator(mode="after")
    def _changes_something(self) -> Variant:
        if bool(self.replace) != bool(self.with_):
            given, missing = ("replace", "with") if self.replace else ("with", "replace")
            raise ValueError(
                f"'{given}' needs '{missing}': replace names the units to take out, with "
                "gives the units to put in their place (to leave units out, use remove; "
                "to bring more, use add)"
            )
        if not (self.replace or self.remove or self.add):
            raise ValueError("a variant changes its list: give replace and with, remove, or add")
        return self


class SweepFile(Strict):
    """What a sweep file holds; rows are ``lists``, then the lists of ``variants`` that
    ``lists`` leave out, then ``variants``; columns are ``against``."""

    file_kind: ClassVar[str] = "sweep file"

    name: Name
    # the edition; left out, the one the lists say they are for (their ``ruleset:``)
    ruleset: str | None = None
    scenario: tuple[Annotated[str, Field(min_length=1)], ...] = ()  # none: the sample's
    players: str = "tactical,tactical"
    games: WholeNumber = Field(default=100, ge=1, le=MAX_GAMES)
    seed: WholeNumber = Field(default=1, ge=0, le=MAX_SEED)
    lists: tuple[str, ...] = ()
    variants: tuple[Variant, ...] = ()
    against: tuple[str, ...]
    # a designer's rules file (a copy of the edition's data file, looked for beside the
    # sweep file first): the lists are checked against it and every game played by it
    rules_file: str | None = Field(default=None, min_length=1)
    # the order each side's units set up in: the list's, or drawn for each game
    deployment: Literal["list-order", "shuffled"] = "list-order"

    @field_validator("scenario", mode="before")
    @classmethod
    def _one_or_more(cls, given: Any) -> Any:
        """One scenario is a list of one; none (left blank) is the ruleset's sample; an
        empty list is a mistake."""
        if given is None:
            return []
        if isinstance(given, list) and not given:
            raise ValueError(
                "give a scenario, or a list of them (leave the field out for the ruleset's "
                "sample scenario)"
            )
        return _one_or_list(
            given, str, "takes a scenario (a file or a shipped scenario's name), or a list of them"
        )

    @field_validator("lists", "against", mode="before")
    @classmethod
    def _armies(cls, given: Any, info: ValidationInfo) -> Any:
        """One list is a list of one, as one scenario is; none (an empty list, or the field
        left blank) is a mistake, told in a list builder's words."""
        takes = "an army list (a file or a shipped list's name), or a list of them"
        if given is None or (isinstance(given, list) and not given):
            if info.field_name == "against":
                raise ValueError(f"give the lists to play against: {takes}")
            raise ValueError(
                f"give the lists of the rows: {takes} (leave the field out when the variants "
                "give the rows)"
            )
        return _one_or_list(given, str, f"takes {takes}")

    @field_validator("players")
    @classmethod
    def _two_players(cls, players: str) -> str:
        two = parse_players(players)  # (an option refused: a UsageError, a ValueError)
        if two is None:
            raise ValueError(
                f"players takes two of {'/'.join(PLAYER_KINDS)} (the tactical AI with its "
                f"options, as {SPEC_EXAMPLE}), e.g. tactical,random"
            )
        return ",".join(two)

    @model_validator(mode="after")
    def _has_rows(self) -> SweepFile:
        if not self.lists and not self.variants:
            raise ValueError("a sweep needs 'lists' or 'variants' (the rows of its table)")
        return self


@dataclass(frozen=True, slots=True)
class Compared:
    """A variant's row and the row of the list it was made from, to be compared cell by
    cell; ``points`` is what the variant added to the list (None if a list gives no
    points); ``taken_out``, the places in the list of the units it replaced or removed, and
    ``brought_in``, the places in the variant's list of the units it brought."""

    name: str
    row: int
    base: int
    points: int | None
    taken_out: tuple[int, ...] = ()
    brought_in: tuple[int, ...] = ()


Grid = tuple[tuple[Matchup, ...], ...]  # a matchup per cell: [row][column]


@dataclass(frozen=True, slots=True)
class Sweep:
    """A checked sweep: its rows and columns as army sources, and a matchup per cell on
    each of its scenarios (``grids``, one a scenario, in the file's order).

    Every variant's own list is a row too (added after ``lists`` if they leave it out), so
    each variant is compared with it: ``compared``.
    """

    name: str
    games: int
    seed: int
    rows: tuple[Source, ...]
    columns: tuple[Source, ...]
    grids: tuple[Grid, ...]
    compared: tuple[Compared, ...] = ()

    @property
    def scenarios(self) -> list[Source]:
        return [grid[0][0].scenario for grid in self.grids]


def scenario_seed(seed: int, scenario: int) -> int:
    """The run seed of a sweep's ``scenario``-th scenario: the sweep's seed for the first,
    and the next seeds for the others, so that no two scenarios play games from the same
    seeds (their games are independent, and pooling them is sound); the first scenario's
    cells are what ``evaluate`` gives with the sweep's seed (a mirrored cell, its mirror's
    evaluation read from the other side). A sweep whose last scenario's seed would pass
    MAX_SEED is refused before any game (``run_sweep``), so none wraps round to 0."""
    if not 0 <= seed + scenario <= MAX_SEED:
        raise ValueError(f"scenario {scenario}'s seed {seed + scenario} is past {MAX_SEED}")
    return seed + scenario


def sample_sweeps() -> list[Path]:
    folder = resources.files("kriegsspiel") / "data" / "sweeps"
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.endswith(".yaml"))


@dataclass(frozen=True)
class _SweepText:
    """A sweep file as read: its path, text and raw fields, so that a problem is told at
    the line of the field it is about, and a file it names is looked for beside it."""

    path: Path
    text: str
    raw: Any  # (valid: how the file gives its fields, one or a list)

    @property
    def base(self) -> Path:
        """The folder a file the sweep names is looked for in first (the sweep file's)."""
        return self.path.parent

    def field_at(self, *loc: int | str) -> Callable[[str], DataFileError]:
        """A problem with the field at ``loc``, told at its line in the sweep file."""

        def told(problem: str) -> DataFileError:
            return DataFileError(str(self.path), [problem_at(self.text, loc, problem)])

        return told

    def looked_for(self) -> str:
        """Where a file the sweep file names is looked for."""
        if self.base == Path():
            return " A file is looked for in the current folder, beside the sweep file."
        return (
            f" A file is looked for in the sweep file's folder ({self.base}), then in the "
            "current one."
        )

    def entry(self, field: str, number: int) -> tuple[int | str, ...]:
        """Where the file gives a list's name: an item of a list, or the field itself."""
        return (field, number) if isinstance(self.raw.get(field), list) else (field,)

    def army(self, name: str, samples: list[Path], *loc: int | str) -> Source:
        """The army list ``name`` (a file, or a shipped list's name), refused at ``loc``."""
        try:
            return read_source("army", name, samples, self.base)
        except UsageError as exc:
            a_file = "/" in name or name.lower().endswith((".yaml", ".yml"))
            more = self.looked_for() if a_file else ""
            raise self.field_at(*loc)(f"{as_written(exc)}{more}") from None

    def once(self, field: str, given: tuple[str, ...], sources: list[Source]) -> None:
        """Refuse a list given twice in one field (by what it says, whatever its file): a
        second row or column of the same games, under the same name, is never meant."""
        what = "row" if field == "lists" else "column"
        for number, source in enumerate(sources):
            first = next(i for i, s in enumerate(sources) if same_list(s, source))
            if first == number:
                continue
            if given[first] == given[number]:
                problem = f"{given[number]!r} is given twice ({field}.{first} too)"
            else:
                problem = (
                    f"{given[number]!r} is the same list as {field}.{first} "
                    f"({given[first]!r}): they say the same (files, comments and spacing "
                    f"aside), so its {what} would be that one's again"
                )
            raise self.field_at(*self.entry(field, number))(f"{problem}; give each list once")


def load_sweep(given: str, lists_to: str | None = None, deployment: str | None = None) -> Sweep:
    """Read a sweep file (or a shipped sample by name) and check every list it names.

    ``lists_to``: the folder the sweep writes its variants' lists to (``--lists-to``), so
    that the command replaying a variant's game names its file there; without it, the
    command names a folder LISTS and says how to write the list there. ``deployment``
    (``--deployment``) takes the place of the file's."""
    from kriegsspiel.rulesets.bolt_action.army import sample_armies

    order = None if deployment is None else check_deployment(deployment)
    path = pick_file("sweep", given, sample_sweeps())  # (a file, or a shipped name)
    spec = load_yaml(path, SweepFile)
    text = path.read_text(encoding="utf-8")
    read = _SweepText(path, text, yaml_data(text))
    if spec.ruleset is None:
        ruleset = _lists_edition(spec, read.base, path)
    else:
        try:
            ruleset = game_ruleset(spec.ruleset)
        except UsageError as exc:
            raise read.field_at("ruleset")(as_written(exc)) from None
    rules = _sweep_rules(spec, read, ruleset)
    scenarios = _sweep_scenarios(spec, read)
    players = parse_players(spec.players)
    assert players is not None  # (checked as the file was read)
    order = spec.deployment if order is None else order
    samples = sample_armies(ruleset)
    rows, compared, changed = _sweep_rows(spec, read, ruleset, samples)
    for comp, name in zip(compared, variant_files(rows, compared), strict=True):
        folder = "LISTS" if lists_to is None else lists_to
        how = (
            None
            if lists_to is not None
            else f"a variant's list: 'kriegsspiel sweep {shlex.quote(given)} --lists-to LISTS' "
            "writes it to a folder LISTS, before any game"
        )
        rows[comp.row] = replace(rows[comp.row], as_file=str(Path(folder) / name), how_to_write=how)
    columns = [
        read.army(name, samples, *read.entry("against", i)) for i, name in enumerate(spec.against)
    ]
    read.once("against", spec.against, columns)
    grids = tuple(
        tuple(
            tuple(Matchup(ruleset, on, (row, col), players, rules, order) for col in columns)
            for row in rows
        )
        for on in scenarios
    )
    _check_cells(grids, changed, read)
    sweep = Sweep(
        spec.name, spec.games, spec.seed, tuple(rows), tuple(columns), grids, tuple(compared)
    )
    if not evaluation_order(sweep):  # every row is every column: one list, and no variant
        names = " and ".join(repr(name) for name in spec.against)
        raise read.field_at("against")(
            f"nothing to play: {names} would meet only itself (the list of 'lists'), and a "
            "list is not played against itself; add another list to 'against' for it to meet"
        )
    return sweep


def _sweep_rules(spec: SweepFile, read: _SweepText, ruleset: str) -> Source | None:
    """The designer's rules file the sweep is played by (its ``rules_file``), read and
    checked against its ruleset; None: the shipped rules."""
    if spec.rules_file is None:
        return None
    field_at = read.field_at
    if not spec.rules_file.strip():  # (Path("  ") is no file: said so, not looked for)
        raise field_at("rules_file")(
            f"{spec.rules_file!r} is blank: give the rules file's name, or leave "
            "rules_file out for the shipped rules"
        )
    try:
        rules = read_rules(spec.rules_file, read.base)
    except DataFileError as exc:  # (none there, a folder: told at the sweep file's line)
        said = "; ".join(exc.written)
        raise field_at("rules_file")(
            f"the rules file {spec.rules_file!r} {said}.{read.looked_for()}"
        ) from None
    try:  # (a broken rules file is told at its own lines)
        check_rules(ruleset, rules, "the sweep file's ruleset", sweep=True)
    except UsageError as exc:
        raise field_at("rules_file")(as_written(exc)) from None
    return rules


def _sweep_scenarios(spec: SweepFile, read: _SweepText) -> list[Source]:
    """The sweep's scenarios, each read and checked on its own and given once (whether the
    sweep's lists fit it, and its terrain the rules file, is checked cell by cell, with
    the lists it is played by: :func:`_check_cells`)."""
    from kriegsspiel.core.scenario import parse_scenario

    scenarios: list[Source] = []
    for number, scenario in enumerate(spec.scenario or [None]):  # (None: the sample's)
        where = (
            ("scenario", number) if isinstance(read.raw.get("scenario"), list) else ("scenario",)
        )
        told = read.field_at(*where)
        try:
            scenarios.append(read_scenario(scenario, read.base))
            parse_scenario(scenarios[-1].text, scenarios[-1].label)
        except UsageError as exc:
            raise told(as_written(exc)) from None
        first = next(i for i, s in enumerate(scenarios) if s.digest == scenarios[-1].digest)
        if first != number:
            raise told(f"the same scenario as scenario.{first}: give each scenario once")
    return scenarios


def _sweep_rows(
    spec: SweepFile, read: _SweepText, ruleset: str, samples: list[Path]
) -> tuple[list[Source], list[Compared], dict[Source, tuple[int, dict[int, Place]]]]:
    """The table's rows: the ``lists``, each variant's own list (if they leave it out), then
    the variants' lists, each compared with its own (``compared``); and, by each variant's
    list, its number and the places in the file of the units it brought (``changed``)."""
    named: dict[str, int] = {}
    for number, variant in enumerate(spec.variants):
        first = named.setdefault(variant.name, number)
        if first != number:
            raise read.field_at("variants", number, "name")(
                f"each variant needs a name of its own: {variant.name!r} is also the name of "
                f"variants.{first}"
            )
    entry = read.entry
    _one_edition(
        [(entry("lists", i), name) for i, name in enumerate(spec.lists)]
        + [(("variants", n, "list"), v.list) for n, v in enumerate(spec.variants)]
        + [(entry("against", i), name) for i, name in enumerate(spec.against)],
        ruleset,
        read.base,
        read.field_at,
    )
    rows = [read.army(name, samples, *entry("lists", i)) for i, name in enumerate(spec.lists)]
    read.once("lists", spec.lists, rows)
    originals = [
        read.army(v.list, samples, "variants", n, "list") for n, v in enumerate(spec.variants)
    ]
    for original in originals:  # a variant is compared with its own list: a row too
        if not any(same_list(original, row) for row in rows):
            rows.append(original)
    given_as_lists = [
        {field for field, value in entry.items() if isinstance(value, list)}
        for entry in read.raw.get("variants") or []
    ]
    changed: dict[Source, tuple[int, dict[int, Place]]] = {}  # a variant's list: see _change
    compared: list[Compared] = []
    for number, (variant, original) in enumerate(zip(spec.variants, originals, strict=True)):

        def at(*loc: int | str, number: int = number) -> Callable[[str], DataFileError]:
            return read.field_at("variants", number, *loc)

        row, out, brought = _change(original, variant, at, given_as_lists[number])
        its_list = next(i for i, r in enumerate(rows) if same_list(original, r))
        before, after = _points(original), _points(row)
        added = None if before is None or after is None else after - before
        compared.append(
            Compared(variant.name, len(rows), its_list, added, out, tuple(sorted(brought)))
        )
        rows.append(row)
        changed[row] = (number, brought)
    return rows, compared, changed


def _check_cells(
    grids: tuple[Grid, ...],
    changed: dict[Source, tuple[int, dict[int, Place]]],
    read: _SweepText,
) -> None:
    """Set every cell's game up, so that a broken list is refused before any game is
    played: a unit a variant brought in, told at its place in the sweep file."""
    for line in (line for grid in grids for line in grid):
        for matchup in line:
            try:
                check_setup(matchup)
            except DataFileError as exc:
                made = changed.get(matchup.armies[0])
                if made is None or exc.path != matchup.armies[0].label:
                    raise
                raise _in_the_sweep(exc, str(read.path), read.text, *made) from None


def _lists_edition(spec: SweepFile, base: Path, path: Path) -> str:
    """The edition of a sweep file that gives no ``ruleset``: the one its lists say they
    are for (their ``ruleset:``, or whose shipped lists they are), as ``evaluate`` takes it
    from its two lists. Lists of two editions are refused by :func:`_one_edition`, at the
    first list not of the first edition named; lists that name none, here."""
    from kriegsspiel.sim.matchup import list_edition

    names = [*spec.lists, *(v.list for v in spec.variants), *spec.against]
    named = [edition for name in names if (edition := list_edition(name, base)) is not None]
    if not named:
        raise DataFileError(
            str(path),
            [
                "field ruleset: missing, and no list of the sweep says its edition (its "
                "ruleset:): give ruleset: konflikt47 or ruleset: bolt-action-1"
            ],
        )
    return named[0]


def _one_edition(
    lists: list[tuple[tuple[int | str, ...], str]],
    ruleset: str,
    base: Path,
    field_at: Callable[..., Callable[[str], DataFileError]],
) -> None:
    """Refuse a sweep whose lists (each with its place in the file and its name as given,
    a file looked for from ``base`` first, or a shipped name) are for different editions,
    saying which is which, at the first list not of the sweep's ``ruleset``: each was
    refused as the other edition's, one edition at a time."""
    from kriegsspiel.rulesets import RULESETS
    from kriegsspiel.sim.matchup import list_edition

    editions = [(loc, name, list_edition(name, base)) for loc, name in lists]
    known = sorted({edition for *_, edition in editions if edition is not None})
    if len(known) < 2:
        return
    told = []
    for edition in known:
        names = list(
            dict.fromkeys(name for _, name, named in editions if named == edition)  # (once)
        )
        lists_of = f"{RULESETS[edition]} list" + ("s" if len(names) > 1 else "")
        told.append(
            f"{' and '.join(map(repr, names))} {'are' if len(names) > 1 else 'is a'} {lists_of}"
        )
    other = next(loc for loc, _, named in editions if named not in (None, ruleset))
    raise field_at(*other)(
        f"the sweep's lists are for different editions: {'; '.join(told)}; a sweep is played "
        f"under one edition (its ruleset, {ruleset}): give lists of one edition"
    )


def variant_files(rows: Sequence[Source], compared: Sequence[Compared]) -> list[str]:
    """The file name of each variant's list (``--lists-to`` writes it): its list's, then
    the variant's name (``LIST--VARIANT.yaml``), with the variant's number added where two
    names come out alike."""
    names: list[str] = []
    for number, comp in enumerate(compared):
        stem = Path(rows[comp.base].label).stem
        slug = re.sub(r"[^a-z0-9]+", "-", comp.name.lower()).strip("-") or "variant"
        name = f"{stem}--{slug}.yaml"
        names.append(f"{stem}--{slug}-{number}.yaml" if name in names else name)
    return names


def _points(source: Source) -> int | None:
    """The points an army list gives for itself (None if it gives none)."""
    data = yaml_data(source.text)
    points = data.get("points") if isinstance(data, dict) else None
    return points if isinstance(points, int) else None


def _in_the_sweep(
    exc: DataFileError, path: str, text: str, number: int, brought: dict[int, Place]
) -> DataFileError:
    """Problems with the units a variant brought in, told at their place in the sweep file
    (the list they were brought into is made by the sweep, so its lines are nowhere to be
    seen); ``brought``: each such unit's place in the list, and in the variant."""
    told = []
    for problem in exc.written:  # (its parameters told as the sweep's caller tells them)
        found = re.match(r"(?:line \d+, )?field units\.(\d+)(?:\.(\S+))?: (.*)", problem)
        if found is None or int(found[1]) not in brought:
            # (the made list's lines are nowhere to be seen: its fields are named alone; its
            # points are the sum the sweep made, wrong only through a unit told elsewhere)
            alone = re.sub(r"^line \d+, ", "", problem)
            if not (alone.startswith("field points:") and len(exc.written) > 1):
                told.append(f"in the list variants.{number} makes: {alone}")
            continue
        inner = found[2] or ""
        rest = tuple(int(p) if p.isdigit() else p for p in inner.split(".") if p)
        told.append(
            problem_at(text, ("variants", number, *brought[int(found[1])], *rest), found[3])
        )
    return DataFileError(path, told)


def _change(
    original: Source,
    variant: Variant,
    at: Callable[..., Callable[[str], DataFileError]],
    listed: Container[str],
) -> tuple[Source, tuple[int, ...], dict[int, Place]]:
    """The list ``original`` changed as ``variant`` says, the places in ``original`` of the
    units it took out, and each unit it brought in: its place in the new list, and its
    place in the variant (to tell a problem with it at its line in the sweep file). The units of ``with`` take the place of the first unit
    replaced, so the rest keep their order; units added come last. ``at`` tells a problem
    with a field of the variant; ``listed``, the fields the file gives as lists."""
    data = yaml_data(original.text)
    units = data.get("units", []) if isinstance(data, dict) else []
    names = [u.get("name") if isinstance(u, dict) else None for u in units]

    def place(field: str, i: int) -> Place:
        return (field, i) if field in listed else (field,)

    gone: dict[int, Place] = {}  # each unit taken out: its place in the list, in the variant
    for field, named in (("replace", variant.replace), ("remove", variant.remove)):
        for i, name in enumerate(named):
            refuse = at(*place(field, i))
            if name not in names:
                near = suggest(name, [n for n in names if isinstance(n, str)])
                raise refuse(
                    f"no unit {name!r}{near} in {original.label}; its units are "
                    + ", ".join(repr(n) for n in names)
                )
            if names.count(name) > 1:
                raise refuse(
                    f"{original.label} has {names.count(name)} units called {name!r}: give "
                    "them names of their own so the variant names one unit"
                )
            unit = names.index(name)
            if unit in gone:
                raise refuse(
                    f"{name!r} is taken out already, by "
                    f"{'.'.join(map(str, gone[unit]))}: name each unit once"
                )
            gone[unit] = place(field, i)
    first = min((u for u, where in gone.items() if where[0] == "replace"), default=None)
    made: list[Any] = []
    brought: dict[int, Place] = {}

    def bring(field: str, new: tuple[dict[str, Any], ...]) -> None:
        for i, unit in enumerate(new):
            brought[len(made)] = place(field, i)
            made.append(unit)

    for number, unit in enumerate(units):
        if number == first:
            bring("with", variant.with_)
        if number not in gone:
            made.append(unit)
    bring("add", variant.add)
    if not made:
        raise at()("the variant leaves its list no units; a list needs at least one")
    if made == units:
        raise at()(
            f"the variant leaves {original.label}'s units as they were (it brings in the units "
            "it takes out): it would only play its list's games again"
        )
    now = [u.get("name") if isinstance(u, dict) else None for u in made]
    for number, where in brought.items():
        if now[number] is not None and now.count(now[number]) > 1:
            raise at(*where, "name")(
                f"the list would have {now.count(now[number])} units called {now[number]!r}; "
                "give the new unit a name of its own (results name units by their names)"
            )
    data["units"] = made
    points = [u.get("points") for u in made if isinstance(u, dict)]
    if all(isinstance(p, int) for p in points):
        data["points"] = sum(p for p in points if isinstance(p, int))
    data["name"] = f"{data.get('name', original.label)} ({variant.name})"
    text = (
        f"# {original.label}, variant {variant.name!r}: {_what_changed(variant)}\n"
        + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    )
    return Source(f"{original.label}[{variant.name}]", text), tuple(sorted(gone)), brought


def _what_changed(variant: Variant) -> str:
    """A variant's changes in a line: "'MMG' replaced by 'Rifles'; 'Sniper' added"."""

    def said(names: Sequence[object]) -> str:
        return ", ".join(repr(n) for n in names)

    def named(units: tuple[dict[str, Any], ...]) -> str:
        return said([u.get("name", "a unit with no name") for u in units])

    parts = []
    if variant.replace:
        parts.append(f"{said(variant.replace)} replaced by {named(variant.with_)}")
    if variant.remove:
        parts.append(f"{said(variant.remove)} removed")
    if variant.add:
        parts.append(f"{named(variant.add)} added")
    return "; ".join(parts)


def row_names(sweep: Sweep) -> list[str]:
    return _names(sweep)[: len(sweep.rows)]


def column_names(sweep: Sweep) -> list[str]:
    return _names(sweep)[len(sweep.rows) :]


def _names(sweep: Sweep) -> list[str]:
    """The rows' and then the columns' names, told apart where two lists share one
    (:func:`~kriegsspiel.sim.matchup.told_apart`)."""
    return told_apart([*sweep.rows, *sweep.columns])


def row_points(sweep: Sweep) -> list[int]:
    """Each row's list's points (as checked: the sum of its units')."""
    return [parsed(line[0])[1].points for line in sweep.grids[0]]


def column_points(sweep: Sweep) -> list[int]:
    """Each column's list's points."""
    return [parsed(matchup)[2].points for matchup in sweep.grids[0][0]]


def points_note(sweep: Sweep) -> str | None:
    """What to say where a cell sets lists of unequal points against each other (as an
    evaluation says it of its two lists); None where every cell played is even."""
    rows, columns = row_points(sweep), column_points(sweep)
    cells = [(rows[r], columns[c]) for r, c in evaluation_order(sweep)]
    if all(a == b for a, b in cells):
        return None
    every = [points for cell in cells for points in cell]
    return (
        f"the lists are not of equal points ({min(every)} to {max(every)} points; each "
        "list's are given with its name)."
    )


def same_list(a: Source, b: Source) -> bool:
    """The same army list, whatever it is called (a shipped name, or a copy in a file), and
    however it is written (comments, spacing, the order of fields)."""
    return a.digest == b.digest


def compared_cells(sweep: Sweep) -> set[tuple[int, int]]:
    """The cells (row, column) of the lists that variants are set against."""
    return {(c.base, column) for c in sweep.compared for column in range(len(sweep.columns))}


def evaluation_order(sweep: Sweep) -> list[tuple[int, int]]:
    """The cells (row, column) in the order a sweep evaluates them: those of the lists that
    variants are set against first, then the rest in the table's order; a list against
    itself is left out. So a cell a variant is paired with is played from its own list's
    side (its games start as the variant's do, on the same side), and a mirror of it later
    in the table is read from it."""
    first = compared_cells(sweep)
    cells = [
        (r, c)
        for r, row in enumerate(sweep.rows)
        for c, column in enumerate(sweep.columns)
        if not same_list(row, column)
    ]
    return [rc for rc in cells if rc in first] + [rc for rc in cells if rc not in first]


def read_from_mirror(
    sweep: Sweep, cell: tuple[int, int], seen: Container[Matchup], scenario: int = 0
) -> bool:
    """Is this cell (on the ``scenario``-th scenario) read from its mirror (the same lists
    the other way round, evaluated before it: ``seen``)? Never a cell a variant is paired
    with."""
    matchup = sweep.grids[scenario][cell[0]][cell[1]]
    return matchup.mirrored() in seen and cell not in compared_cells(sweep)


def played(sweep: Sweep) -> list[Matchup]:
    """The matchups a sweep evaluates, in order (scenario by scenario, each in
    :func:`evaluation_order`), less the cells read from their mirrors
    (:func:`read_from_mirror`)."""
    out: list[Matchup] = []
    seen: set[Matchup] = set()
    for scenario, grid in enumerate(sweep.grids):
        for cell in evaluation_order(sweep):
            if not read_from_mirror(sweep, cell, seen, scenario):
                matchup = grid[cell[0]][cell[1]]
                seen.add(matchup)
                out.append(matchup)
    return out


def the_field(sweep: Sweep, row: int) -> list[int]:
    """The columns a row's list is set against "in the field": every column but its own
    list and, for a variant, the list it was made from (that cell is its comparison, not an
    opponent), so a variant faces the field its list faces."""
    made_from = {c.row: sweep.rows[c.base] for c in sweep.compared}
    own = [sweep.rows[row], *([made_from[row]] if row in made_from else [])]
    return [
        c
        for c, column in enumerate(sweep.columns)
        if not any(same_list(column, mine) for mine in own)
    ]


def pooled(cells: Sequence[dict[str, Any] | None]) -> dict[str, Any] | None:
    """Cells' games taken together (None if there is no cell): the win rate with its 95%
    interval, and the draws (``"draws"``, as the wins: count, games, rate and interval),
    each cell counting alike (:func:`pooled_rate`)."""
    present = [cell for cell in cells if cell is not None]
    if not present:
        return None
    return {
        **pooled_rate([(cell["count"], cell["games"]) for cell in present]),
        "draws": pooled_rate([(cell["draws"]["count"], cell["games"]) for cell in present]),
    }


def pooled_rate(counts: Sequence[tuple[int, int]]) -> dict[str, Any]:
    """Outcomes of several cells, each (its count, its games), taken together, each cell
    counting alike: with the same games in every cell, that is all their games as one (the
    Wilson interval of the count over the games); cells of unequal games (an early stop ends
    a lopsided cell sooner than a close one) would weigh the longer cells more, so then the
    rate is the mean of the cells' rates, with the MOVER interval of that mean built from
    each cell's Wilson interval (Zou and Donner 2008): "count" and "games" stay the totals."""
    games = sum(n for _, n in counts)
    hits = sum(c for c, _ in counts)
    if len({n for _, n in counts}) == 1:
        return wilson(hits, games).to_json()
    k = len(counts)
    each = [wilson(c, n) for c, n in counts]
    rate = sum(p.rate for p in each) / k
    below = math.sqrt(sum((p.rate - p.low) ** 2 for p in each))
    above = math.sqrt(sum((p.high - p.rate) ** 2 for p in each))
    return {
        "count": hits,
        "games": games,
        "rate": rate,
        "low": max(0.0, rate - below / k),
        "high": min(1.0, rate + above / k),
    }


def against_the_field(cells: Sequence[dict[str, Any] | None]) -> dict[str, Any] | None:
    """A row's games against the columns of :func:`the_field`, :func:`pooled`, and how many
    opponents they were against.

    Its opponents differ, so its games are not one binomial draw: their wins vary less
    than a binomial's would. Worked out exactly, the interval's coverage is never below
    that of one binomial of the same mean rate (tested), so it is as sound as a cell's.
    """
    found = pooled(cells)
    if found is None:
        return None
    return {**found, "opponents": sum(cell is not None for cell in cells)}
