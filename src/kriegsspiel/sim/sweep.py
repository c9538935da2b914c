"""Sweeps: many matchups from one YAML file — several lists against several, or a list
with one unit swapped — run one after another into the same results store.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

import yaml
from pydantic import Field, field_validator, model_validator

from kriegsspiel.core.datafile import Strict, load_yaml, problem_at
from kriegsspiel.errors import DataFileError, UsageError
from kriegsspiel.sim import MAX_SEED
from kriegsspiel.sim.matchup import (
    PLAYER_KINDS,
    Matchup,
    Source,
    army_name,
    build_matchup,
    check_setup,
    game_ruleset,
    read_source,
)


class Variant(Strict):
    """A list with one unit swapped: ``replace`` names the unit, ``with`` is the new one."""

    name: str = Field(min_length=1)
    list: str = Field(min_length=1)
    replace: str = Field(min_length=1)
    with_: dict[str, Any] = Field(alias="with")


class SweepFile(Strict):
    """What a sweep file holds; rows are ``lists``, then the lists of ``variants`` that
    ``lists`` leave out, then ``variants``; columns are ``against``."""

    file_kind: ClassVar[str] = "sweep file"

    name: str = Field(min_length=1)
    ruleset: str
    scenario: str | None = None
    players: str = "tactical,tactical"
    games: int = Field(default=100, ge=1)
    seed: int = Field(default=1, ge=0, le=MAX_SEED)
    lists: tuple[str, ...] = ()
    variants: tuple[Variant, ...] = ()
    against: tuple[str, ...] = Field(min_length=1)

    @field_validator("players")
    @classmethod
    def _two_players(cls, players: str) -> str:
        kinds = [k.strip() for k in players.split(",")]
        if len(kinds) != 2 or any(k not in PLAYER_KINDS for k in kinds):
            raise ValueError(f"players takes two of {'/'.join(PLAYER_KINDS)}, e.g. tactical,random")
        return players

    @model_validator(mode="after")
    def _has_rows(self) -> SweepFile:
        if not self.lists and not self.variants:
            raise ValueError("a sweep needs 'lists' or 'variants' (the rows of its table)")
        return self


@dataclass(frozen=True, slots=True)
class Compared:
    """A variant's row and the row of the list it was made from, to be compared cell by
    cell; ``points`` is what the swap added to the list (None if a list gives no points)."""

    name: str
    row: int
    base: int
    points: int | None


@dataclass(frozen=True, slots=True)
class Sweep:
    """A checked sweep: its rows and columns as army sources, and a matchup per cell.

    Every variant's own list is a row too (added after ``lists`` if they leave it out), so
    each variant is compared with it: ``compared``.
    """

    name: str
    games: int
    seed: int
    rows: tuple[Source, ...]
    columns: tuple[Source, ...]
    cells: tuple[tuple[Matchup, ...], ...]
    compared: tuple[Compared, ...] = ()


def sample_sweeps() -> list[Path]:
    folder = resources.files("kriegsspiel") / "data" / "sweeps"
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.endswith(".yaml"))


def load_sweep(given: str) -> Sweep:
    """Read a sweep file (or a shipped sample by name) and check every list it names."""
    from kriegsspiel.rulesets.bolt_action.army import sample_armies

    path = Path(given)
    if not path.is_file():
        wanted = given.lower()
        path = next((p for p in sample_sweeps() if wanted in (p.stem, p.name.lower())), path)
    if not path.is_file():
        names = ", ".join(p.stem for p in sample_sweeps())
        raise UsageError(f"sweep {given!r} is neither a file nor a shipped sweep ({names}).")
    spec = load_yaml(path, SweepFile)
    text = path.read_text(encoding="utf-8")
    base = path.parent

    def field_at(*loc: int | str) -> Callable[[str], DataFileError]:
        """A problem with the field at ``loc``, told at its line in the sweep file."""

        def told(problem: str) -> DataFileError:
            return DataFileError(str(path), [problem_at(text, loc, problem)])

        return told

    try:
        game_ruleset(spec.ruleset)
    except UsageError as exc:
        raise field_at("ruleset")(str(exc)) from None
    try:
        probe = build_matchup(spec.ruleset, spec.scenario, [], spec.players, base)
    except UsageError as exc:
        raise field_at("scenario")(str(exc)) from None
    samples = sample_armies(probe.ruleset)

    def army(name: str, *loc: int | str) -> Source:
        try:
            return read_source("army", name, samples, base)
        except UsageError as exc:
            raise field_at(*loc)(str(exc)) from None

    named: dict[str, int] = {}
    for number, variant in enumerate(spec.variants):
        first = named.setdefault(variant.name, number)
        if first != number:
            raise field_at("variants", number, "name")(
                f"each variant needs a name of its own: {variant.name!r} is also the name of "
                f"variants.{first}"
            )
    rows = [army(name, "lists", i) for i, name in enumerate(spec.lists)]
    originals = [army(v.list, "variants", n, "list") for n, v in enumerate(spec.variants)]
    for original in originals:  # a variant is compared with its own list: a row too
        if not any(same_list(original, row) for row in rows):
            rows.append(original)
    swapped: dict[Source, tuple[int, int]] = {}  # a variant's list: its number, the unit's
    compared: list[Compared] = []
    for number, (variant, original) in enumerate(zip(spec.variants, originals, strict=True)):
        row, unit = _swap(original, variant, field_at("variants", number, "replace"))
        its_list = next(i for i, r in enumerate(rows) if same_list(original, r))
        before, after = _points(original), _points(row)
        added = None if before is None or after is None else after - before
        compared.append(Compared(variant.name, len(rows), its_list, added))
        rows.append(row)
        swapped[row] = (number, unit)
    columns = [army(name, "against", i) for i, name in enumerate(spec.against)]
    cells = tuple(
        tuple(Matchup(probe.ruleset, probe.scenario, (row, col), probe.players) for col in columns)
        for row in rows
    )
    for line in cells:
        for matchup in line:
            try:
                check_setup(matchup)  # a broken list is refused before any game is played
            except DataFileError as exc:
                at = swapped.get(matchup.armies[0])
                if at is None or exc.path != matchup.armies[0].label:
                    raise
                raise _in_the_sweep(exc, str(path), text, *at) from None
    return Sweep(
        spec.name, spec.games, spec.seed, tuple(rows), tuple(columns), cells, tuple(compared)
    )


def _points(source: Source) -> int | None:
    """The points an army list gives for itself (None if it gives none)."""
    data = yaml.safe_load(source.text)
    points = data.get("points") if isinstance(data, dict) else None
    return points if isinstance(points, int) else None


def _in_the_sweep(
    exc: DataFileError, path: str, text: str, number: int, unit: int
) -> DataFileError:
    """A swapped-in unit's problems, told at their place in the sweep file (the list it
    was swapped into is made by the sweep, so its lines are nowhere to be seen)."""
    told = []
    for problem in exc.problems:
        found = re.match(rf"(?:line \d+, )?field units\.{unit}(?:\.(\S+))?: (.*)", problem)
        if found is None:
            told.append(f"in the list made by variants.{number}: {problem}")
            continue
        inner = found[1] or ""
        rest = tuple(int(p) if p.isdigit() else p for p in inner.split(".") if p)
        told.append(problem_at(text, ("variants", number, "with", *rest), found[2]))
    return DataFileError(path, told)


def _swap(
    original: Source, variant: Variant, refuse: Callable[[str], DataFileError]
) -> tuple[Source, int]:
    """The list ``original`` with unit ``variant.replace`` swapped for ``variant.with_``,
    and the swapped unit's place in it."""
    data = yaml.safe_load(original.text)
    units = data.get("units", []) if isinstance(data, dict) else []
    names = [u.get("name") for u in units if isinstance(u, dict)]
    if variant.replace not in names:
        raise refuse(
            f"no unit {variant.replace!r} in {original.label}; its units are "
            + ", ".join(repr(n) for n in names)
        )
    if names.count(variant.replace) > 1:
        raise refuse(
            f"{original.label} has {names.count(variant.replace)} units called "
            f"{variant.replace!r}: give them names of their own so the swap names one unit"
        )
    unit = names.index(variant.replace)
    units[unit] = variant.with_
    points = [u.get("points") for u in units if isinstance(u, dict)]
    if all(isinstance(p, int) for p in points):
        data["points"] = sum(p for p in points if isinstance(p, int))
    data["name"] = f"{data.get('name', original.label)} ({variant.name})"
    text = (
        f"# {original.label} with {variant.replace!r} swapped: {variant.name}\n"
        + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    )
    return Source(f"{original.label}[{variant.name}]", text), unit


def row_names(sweep: Sweep) -> list[str]:
    return _names(sweep)[: len(sweep.rows)]


def column_names(sweep: Sweep) -> list[str]:
    return _names(sweep)[len(sweep.rows) :]


def _names(sweep: Sweep) -> list[str]:
    """The rows' and then the columns' names: each list's own name, and where two different
    lists share one (a copy of a shipped list, changed but not renamed), its file too."""
    sources = [*sweep.rows, *sweep.columns]
    names = [army_name(s) for s in sources]
    texts: dict[str, set[str]] = {}
    for name, source in zip(names, sources, strict=True):
        texts.setdefault(name, set()).add(source.digest)
    return [
        f"{name} ({source.label})" if len(texts[name]) > 1 else name
        for name, source in zip(names, sources, strict=True)
    ]


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


def read_from_mirror(sweep: Sweep, cell: tuple[int, int], seen: Container[Matchup]) -> bool:
    """Is this cell read from its mirror (the same lists the other way round, evaluated
    before it: ``seen``)? Never a cell a variant is paired with."""
    matchup = sweep.cells[cell[0]][cell[1]]
    return matchup.mirrored() in seen and cell not in compared_cells(sweep)


def played(sweep: Sweep) -> list[Matchup]:
    """The matchups a sweep evaluates, in order (:func:`evaluation_order`), less the cells
    read from their mirrors (:func:`read_from_mirror`)."""
    out: list[Matchup] = []
    seen: set[Matchup] = set()
    for cell in evaluation_order(sweep):
        if not read_from_mirror(sweep, cell, seen):
            matchup = sweep.cells[cell[0]][cell[1]]
            seen.add(matchup)
            out.append(matchup)
    return out
