"""What ``kriegsspiel evaluate``, ``sweep`` and ``results`` do, behind the command line."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

from kriegsspiel.errors import UsageError
from kriegsspiel.outfiles import check_output, writing
from kriegsspiel.sim.matchup import Matchup, build_matchup
from kriegsspiel.sim.runner import (
    Evaluation,
    Interrupted,
    Progress,
    Workers,
    evaluate,
    evaluation_json,
)
from kriegsspiel.sim.store import Store, StoredRun, code_version

if TYPE_CHECKING:
    from kriegsspiel.sim.sweep import Sweep

ERR = Console(stderr=True, highlight=False)


def default_workers() -> int:
    return max(
        1,
        len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1),
    )


@dataclass(frozen=True, slots=True)
class RunOptions:
    """How to run the games of an evaluation or of each cell of a sweep."""

    workers: int | None = None  # None: one per core
    scheduler: str | None = None
    results: str | None = None  # None: --no-store
    precision: float | None = None

    def check(self, games: int) -> None:
        if games < 1:
            raise UsageError(f"--games must be at least 1 (got {games}).")
        if self.workers is not None and self.workers < 1:
            raise UsageError(f"--workers must be at least 1 (got {self.workers}).")
        if self.precision is not None and not 0 < self.precision < 0.5:
            raise UsageError(
                "--precision is how far a 95% interval may reach from its rate, between 0 and 0.5, e.g. "
                f"0.01 (got {self.precision})."
            )

    def pool(self) -> Workers:
        """The workers these options ask for (local processes, or a Dask cluster)."""
        return Workers(self.workers or default_workers(), self.scheduler)


def check_plot(plot: str | None) -> None:
    """Refuse a plot that could not be written before any game is played."""
    if plot:
        check_output(plot, "--plot", (".png", ".svg"))


BAR_ROOM = 54  # columns the bar, the count, the time taken and the time left need


@contextmanager
def progress_bar(show: bool, label: str) -> Iterator[Progress]:
    """A rich progress bar with the time left, on stderr so --json output stays clean.

    It is redrawn as games finish rather than by a thread of its own, so the worker
    processes can still be forked from this one (``executors.start_method``).
    """
    if not show:
        yield Progress(on_notice=lambda text: ERR.print(f"note: {text}", markup=False))
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.progress import Progress as Bar
    from rich.table import Column

    # the label gives way (cut short with an ellipsis) so that the count and the time
    # left always show, however narrow the terminal; a list's name is shown as written
    room = Column(no_wrap=True, overflow="ellipsis", max_width=max(12, ERR.width - BAR_ROOM))
    with Bar(
        TextColumn("{task.description}", markup=False, table_column=room),
        BarColumn(bar_width=20),
        MofNCompleteColumn(),
        TextColumn("taken"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=ERR,
        transient=True,
        auto_refresh=False,
    ) as bar:
        task = bar.add_task(label, total=None)
        yield Progress(
            on_game=lambda done, total: bar.update(task, completed=done, total=total, refresh=True),
            on_notice=lambda text: bar.console.print(f"note: {text}", markup=False),
        )


def open_store(results: str | None) -> Store | nullcontext[None]:
    if not results:
        return nullcontext(None)
    check_output(results, "--results")  # say plainly where a store cannot be made
    path = Path(results)
    if path.exists() and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
        return Store(results, read_only=True)  # what it holds can still be read back
    return Store(results)


def run_one(
    matchup: Matchup,
    games: int,
    seed: int,
    pool: Workers | None,
    options: RunOptions,
    store: Store | None,
    label: str,
    *,
    keep_winners: bool = False,
) -> Evaluation:
    """One evaluation with a progress bar; Ctrl-C says where the finished games are.

    ``pool``: the workers a sweep keeps for all its cells; None for a lone evaluation,
    which starts its own (or, one worker and no more than 1,000 games, plays in this
    process)."""
    try:
        with progress_bar(sys.stderr.isatty(), label) as progress:
            return evaluate(
                matchup,
                games,
                seed,
                workers=options.workers or default_workers(),
                scheduler=options.scheduler,
                pool=pool,
                store=store,
                precision=options.precision,
                progress=progress,
                keep_winners=keep_winners,
            )
    except KeyboardInterrupt:
        if store is None:
            raise Interrupted(
                "interrupted. Nothing was stored (--no-store): the same command starts afresh; "
                "leave --no-store out to keep finished games and resume where a run stops."
            ) from None
        raise Interrupted(
            f"interrupted. Finished games are stored in {store.path}; run the same command "
            "again to resume."
        ) from None


def run_evaluate(
    *,
    ruleset: str,
    scenario: str | None,
    armies: list[str],
    players: str,
    games: int,
    seed: int,
    options: RunOptions,
    plot: str | None,
    as_json: bool,
) -> None:
    options.check(games)
    check_plot(plot)
    matchup = build_matchup(ruleset, scenario, armies, players)
    with open_store(options.results) as store:
        result = run_one(matchup, games, seed, None, options, store, matchup.title)
    data = evaluation_json(result)
    # the report first: a plot that cannot be written must not take the results with it
    if as_json:
        print(json.dumps(data, indent=2))
    else:
        from kriegsspiel.render.evaluation_text import print_evaluation

        print_evaluation(data)
        if options.results:
            Console(highlight=False).print(f"Games stored in {options.results}.", markup=False)
    if plot:
        from kriegsspiel.render.plots import plot_evaluation

        plot_evaluation(data, result.tally.scores, plot)
        if not as_json:
            Console(highlight=False).print(f"Plot written to {plot}.", markup=False)


def run_results(
    results: str,
    export: str | None,
    out: str | None,
    matchup: str | None = None,
    prune: bool = False,
) -> None:
    if not Path(results).is_file():
        raise UsageError(
            f"no results file {results!r}; 'kriegsspiel evaluate' creates it (see --results)."
        )
    if out and not export:
        raise UsageError("--out names the file for --export; add --export csv or json.")
    if prune and export:
        raise UsageError("--prune deletes and --export writes out: give one at a time.")
    export = export.lower() if export else export  # CSV as csv, as other names
    if export and export not in ("csv", "json"):
        raise UsageError(f"--export takes csv or json, not {export!r}.")
    if out and out != "-":
        check_output(
            out,
            "--out",
            inputs={
                "the results file being exported": results,
                "the results file's write-ahead log": f"{results}-wal",
                "the results file's shared memory": f"{results}-shm",
            },
        )
    wanted = (matchup or "").strip().lower().removeprefix("id ").strip()
    if matchup is not None and not re.fullmatch(r"[0-9a-f]{1,20}", wanted):
        raise UsageError(
            f"--matchup takes a matchup's id as 'kriegsspiel results' lists it (e.g. "
            f"'id 3f9c02ab'), not {matchup!r}."
        )
    if prune:  # (refused as plain 'results' would refuse it, before it is opened to write)
        Store(results, read_only=True).close()
    with Store(results, read_only=not prune) as store:
        runs = store.runs(wanted) if wanted or not export else []  # (an export needs none)
        found = {run.matchup for run in runs} if wanted else set()
        if wanted and not found:
            ids = sorted({run.matchup[:8] for run in store.runs()})
            raise UsageError(
                f"no stored matchup has an id starting {wanted!r}; the ids in {results} are "
                + (", ".join(ids) if ids else "none (no games are stored)")
                + "."
            )
        if len(found) > 1:
            raise UsageError(
                f"--matchup {wanted!r} starts the ids of {len(found)} matchups ("
                + ", ".join(sorted(m[:12] for m in found))
                + "); give more of the one you mean."
            )
        if export:
            if out and out != "-":
                with writing(out, "--out"), open(out, "w", encoding="utf-8", newline="") as handle:
                    count = store.export(handle, export, wanted)
                ERR.print(f"{count} games exported to {out}.", markup=False)
            else:
                store.export(sys.stdout, export, wanted)
            return
        if prune:
            _prune(store, wanted, runs)
            return
    from rich.table import Table

    table = Table(title=f"Stored results in {results}", title_justify="left")
    table.add_column("matchup (ruleset, scenario, players, seed; matchup id, code version)")
    for col in ("games", "A wins", "draws", "B wins"):
        table.add_column(col, justify="right")
    this = code_version()
    for run in runs:
        whose = "this code" if run.code_version == this else "other code: not reused"
        table.add_row(
            f"{run.title}\n  {run.ruleset}, {run.scenario}, {run.players}, seed {run.run_seed}"
            f"\n  id {run.matchup[:8]}, code {run.code_version}\n  ({whose})",
            str(run.games),
            str(run.wins_a),
            str(run.draws),
            str(run.wins_b),
        )
    Console(highlight=False).print(table)
    if not runs:
        Console().print("(no games stored yet)")


def _prune(store: Store, matchup: str, runs: list[StoredRun]) -> None:
    """Delete the games of other code (of ``matchup`` only, if given) and say what went."""
    this = code_version()
    old = sorted({run.code_version for run in runs if run.code_version != this})
    size = _size(store.path)
    deleted, left = store.prune(matchup)
    which = f" of matchup {runs[0].matchup[:8]}" if matchup and runs else ""
    versions = f" ({', '.join(old)})" if old else ""
    Console(highlight=False).print(
        f"Deleted {_games(deleted)}{which} stored by other code versions{versions}; "
        f"{_games(left)} left in the file (this code is {this}). {store.path}: "
        f"{size / 1e6:.2f} MB before, {_size(store.path) / 1e6:.2f} MB now.",
        markup=False,
    )


def _games(count: int) -> str:
    return f"{count} game" if count == 1 else f"{count} games"


def _size(path: Path) -> int:
    """A results file's bytes, with its write-ahead log."""
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


@dataclass
class _Cells:
    """What a sweep found on one scenario (or on all, pooled), by (row, column): each
    cell's summary; and, for the cells variants are compared on, each game's winner in
    order (on one scenario: pairs are made within a scenario) and how the row list's units
    fared."""

    found: dict[tuple[int, int], dict[str, Any]]
    winners: dict[tuple[int, int], bytes]
    units: dict[tuple[int, int], list[dict[str, Any]]]


def run_sweep(
    path: str,
    games: int | None,
    seed: int | None,
    options: RunOptions,
    plot: str | None,
    as_json: bool,
    lists_to: str | None = None,
) -> None:
    """Every cell of a sweep, one evaluation each on each of its scenarios, then the table
    (and heat map) of results: each scenario's, and with several, all of them pooled.

    ``games`` and ``seed`` left as None take the sweep file's values; ``lists_to``, a folder
    to write each variant's list into first (see :func:`write_variants`).
    """
    from kriegsspiel.sim.sweep import (
        column_names,
        evaluation_order,
        load_sweep,
        played,
        read_from_mirror,
        row_names,
        scenario_seed,
    )

    sweep = load_sweep(path)
    games = sweep.games if games is None else games
    seed = sweep.seed if seed is None else seed
    options.check(games)
    check_plot(plot)
    if lists_to is not None:
        for written in write_variants(sweep, lists_to):
            ERR.print(f"variant list written to {written}", markup=False)
        if not sweep.compared:
            ERR.print("note: the sweep has no variants: no list written.", markup=False)
    rows, columns = row_names(sweep), column_names(sweep)
    scenarios = [source.label for source in sweep.scenarios]
    seeds = [scenario_seed(seed, k) for k in range(len(scenarios))]
    many = len(scenarios) > 1
    evaluated: dict[Matchup, dict[str, Any]] = {}  # each matchup's tally, to read its mirror
    keep = bool(sweep.compared)  # (the winners and units of cells that variants are set on)
    to_play = len(played(sweep))
    games_played = games_reused = 0
    per_scenario: list[_Cells] = []
    # one set of workers plays every cell: what they work out in one, they know in the next
    with open_store(options.results) as store, options.pool() as pool:
        for k, grid in enumerate(sweep.grids):
            on = _Cells({}, {}, {})
            per_scenario.append(on)
            where = f"{scenarios[k]}: " if many else ""
            for r, c in evaluation_order(sweep):
                matchup = grid[r][c]
                label = f"{where}{rows[r]} v {columns[c]}"
                if read_from_mirror(sweep, (r, c), evaluated, k):
                    # B v A is A v B from the other side: the same games, read the other way
                    ERR.print(
                        f"{label}: the games of {columns[c]} v {rows[r]}, from the other side.",
                        markup=False,
                    )
                    body = evaluated[matchup.mirrored()]  # (never a cell a variant is set on)
                    wins, mirrored = body["army_b_wins"], True
                else:
                    count = f"({len(evaluated) + 1}/{to_play}) {label}"
                    result = run_one(
                        matchup, games, seeds[k], pool, options, store, count, keep_winners=keep
                    )
                    games_played += result.played
                    games_reused += result.reused
                    body = evaluated[matchup] = result.tally.to_json()
                    wins, mirrored = body["army_a_wins"], False
                    if keep:
                        on.winners[r, c] = bytes(result.tally.winners or b"")
                        on.units[r, c] = [u for u in body["units"] if u["army"] == "A"]
                on.found[r, c] = {
                    **wins,
                    "draws": body["draws"]["rate"],
                    "games": body["games"],
                    "mirrored": mirrored,
                }
    each = [_sweep_results(sweep, rows, columns, on, [on.winners]) for on in per_scenario]
    whole = (
        _sweep_results(
            sweep, rows, columns, _pooled(per_scenario), [on.winners for on in per_scenario]
        )
        if many
        else each[0]
    )
    # the table first: a heat map that cannot be written must not take the results with it
    if as_json:
        some = sweep.grids[0][0][0]  # (every cell has the sweep's ruleset and players)
        data: dict[str, Any] = {
            "sweep": sweep.name,
            "ruleset": some.ruleset,
            "scenario": scenarios if many else scenarios[0],
            "players": list(some.players),
            "games": games,
            "seed": seed,
            "rows": rows,
            "columns": columns,
            **whole,
        }
        if many:
            data["seeds"] = seeds
            data["by_scenario"] = [
                {"scenario": name, "seed": s, **found}
                for name, s, found in zip(scenarios, seeds, each, strict=True)
            ]
        print(json.dumps(data, indent=2))
    else:
        if many:
            for name, s, found in zip(scenarios, seeds, each, strict=True):
                _print_sweep_table(f"{sweep.name} on {name} (seed {s})", games, rows, columns,
                                   found["cells"], found["against_the_field"])  # fmt: skip
        title = f"{sweep.name}, all {len(scenarios)} scenarios together" if many else sweep.name
        _print_sweep_table(title, games * len(scenarios), rows, columns, whole["cells"],
                           whole["against_the_field"])  # fmt: skip
        changes = whole["variants"]
        if any(cell is not None for variant in changes for cell in variant["against"]):
            _print_variant_changes(columns, changes, len(scenarios))
            _print_variant_units(columns, changes)
        elif changes:
            Console(highlight=False).print(
                "note: no variant could be set against its list: each meets only its own list "
                "(add another opponent to 'against').",
                markup=False,
            )
        kept = f"; stored in {options.results}" if options.results else ""
        Console(highlight=False).print(
            f"Games: {games_played} played, {games_reused} from the results store{kept}.",
            markup=False,
        )
    if plot:
        from kriegsspiel.render.plots import plot_heatmap

        title = f"{sweep.name} (all {len(scenarios)} scenarios)" if many else sweep.name
        plot_heatmap(rows, columns, whole["cells"], title, plot, whole["variants"],
                     whole["against_the_field"])  # fmt: skip
        if not as_json:
            Console(highlight=False).print(f"Heat map written to {plot}.", markup=False)


def _sweep_results(
    sweep: Sweep,
    rows: list[str],
    columns: list[str],
    on: _Cells,
    winners: list[dict[tuple[int, int], bytes]],
) -> dict[str, Any]:
    """A sweep's table, each row against the field, and each variant against its list, from
    what it found (``winners``: each cell's winners, a dict a scenario, so that pairs are
    made within each scenario): its JSON's ``cells``, ``against_the_field`` and
    ``variants``."""
    from kriegsspiel.sim.compare import variant_changes
    from kriegsspiel.sim.sweep import against_the_field, the_field

    # (a list against itself tells nothing: no cell)
    cells = [[on.found.get((r, c)) for c in range(len(columns))] for r in range(len(rows))]
    return {
        "cells": cells,
        "against_the_field": [
            against_the_field([cells[r][c] for c in the_field(sweep, r)]) for r in range(len(rows))
        ],
        "variants": variant_changes(sweep, rows, columns, winners, on.units),
    }


def _pooled(per_scenario: list[_Cells]) -> _Cells:
    """Each cell's games on every scenario taken together, and its units' survival and
    damage over all of them (its winners stay with their scenarios: see
    :func:`~kriegsspiel.sim.compare.paired_games`)."""
    from kriegsspiel.sim.sweep import pooled
    from kriegsspiel.sim.tally import pooled_units

    first = per_scenario[0]
    found = {}
    for cell in first.found:
        all_of = [on.found[cell] for on in per_scenario]
        found[cell] = {**(pooled(all_of) or {}), "mirrored": all(c["mirrored"] for c in all_of)}
    units = {cell: pooled_units([on.units[cell] for on in per_scenario]) for cell in first.units}
    return _Cells(found, {}, units)


def write_variants(sweep: Sweep, folder: str) -> list[Path]:
    """Write each variant's list (the list with its units changed, as the sweep plays it) to
    ``folder``, named after its list and the variant, so that it can be played, evaluated
    or edited like any list: the results store knows it by what it says, so an evaluation
    of the file reads back the games the sweep stored for it. A file already there with
    other contents is not overwritten."""
    place = Path(folder)
    if not place.is_dir():
        raise UsageError(f"--lists-to {folder!r} is not a folder; make it first.")
    files: list[tuple[Path, str]] = []
    for number, compared in enumerate(sweep.compared):
        source = sweep.rows[compared.row]
        stem = Path(sweep.rows[compared.base].label).stem
        slug = re.sub(r"[^a-z0-9]+", "-", compared.name.lower()).strip("-") or "variant"
        path = place / f"{stem}--{slug}.yaml"
        if any(path == taken for taken, _ in files):  # two names alike but for case or signs
            path = place / f"{stem}--{slug}-{number}.yaml"
        if path.exists() and path.read_text(encoding="utf-8") != source.text:
            raise UsageError(
                f"--lists-to: {path} is there already with other contents; move it "
                "aside or give another folder."
            )
        files.append((path, source.text))
    written = []
    for path, text in files:
        with writing(str(path), "--lists-to"):
            path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def _print_variant_changes(
    columns: list[str], changes: list[dict[str, Any]], scenarios: int = 1
) -> None:
    """Each variant against its own list: the change in the list's win and loss rates (on
    all the sweep's ``scenarios`` together)."""
    from rich.table import Table

    def signed(rate: float) -> str:
        # one decimal (the mark is read from the unrounded interval), and "+0.0", not "-0.0"
        points = rate * 100
        return f"{0.0 if abs(points) < 0.05 else points:+.1f}"

    def told(change: dict[str, Any]) -> str:
        mark = " *" if change["clear"] else ""
        low, high = signed(change["low"]), signed(change["high"])
        return f"{signed(change['change'])}{mark}\n({low} to {high})"

    table = Table(
        title="What each variant changes: the list's win and loss rates, in percentage "
        "points, game by game against the same seeds (95% interval)"
        + (f", on all {scenarios} scenarios" if scenarios > 1 else ""),
        title_justify="left",
    )
    table.add_column("variant")
    for name in columns:
        table.add_column(f"v {name}", justify="right")
    for variant in changes:
        points = variant["points_added"]
        added = "" if points is None else f", {points:+d} points"
        table.add_row(
            f"{variant['variant']}\n(compared with {variant['list']}{added})",
            *(
                "— (its own list)"
                if cell is None
                else f"wins {told(cell['wins'])}\nlosses {told(cell['losses'])}\n"
                f"{cell['wins']['pairs']} pairs of games"
                for cell in variant["against"]
            ),
        )
    Console(highlight=False).print(table)
    Console(highlight=False).print(
        "*: a clear change (its interval leaves out 0); without it, these games cannot tell "
        "the variant from its list. Each interval is a 95% one: of the changes that are not "
        "real, about one in twenty is marked by chance.",
        markup=False,
    )


def _print_variant_units(columns: list[str], changes: list[dict[str, Any]]) -> None:
    """The units each variant took out (as they fared in its list's games) and brought in
    (in its own): is a unit worth its points, against each opponent."""
    from rich.table import Table

    from kriegsspiel.render.evaluation_text import short_rate

    table = Table(
        title="The units each variant changes: how often each survived a game (95% "
        "interval), and the damage it dealt a game for each of its points",
        title_justify="left",
    )
    table.add_column("variant")
    table.add_column("unit")
    for name in columns:
        table.add_column(f"v {name}", justify="right")
    for variant in changes:
        against = variant["against"]
        cells = [cell for cell in against if cell is not None]
        if not cells:
            continue
        lines = [
            (way, key, number)
            for way, key in (("out", "taken_out"), ("in", "brought_in"))
            for number in range(len(cells[0][key]))
        ]
        for line, (way, key, number) in enumerate(lines):
            unit = cells[0][key][number]
            table.add_row(
                variant["variant"] if line == 0 else "",
                f"{way}: {unit['unit']} ({unit['points']} points)",
                *(
                    "—"
                    if cell is None
                    else f"{short_rate(cell[key][number]['survival'])}\n"
                    f"{cell[key][number]['damage_per_point']:.2f} a point"
                    for cell in against
                ),
                end_section=line == len(lines) - 1,
            )
    Console(highlight=False).print(table)


def _print_sweep_table(
    name: str,
    games: int,
    rows: list[str],
    columns: list[str],
    cells: list[list[dict[str, Any] | None]],
    overall: list[dict[str, Any] | None],
) -> None:
    """The sweep's table: each cell's win rate, and (with more than one column) each row's
    games against the field pooled."""
    from rich.table import Table

    short = any(cell is not None and cell["games"] < games for row in cells for cell in row)
    per_cell = (
        f"up to {games} games a cell (fewer where shown)" if short else f"{games} games a cell"
    )
    table = Table(
        title=f"{name}: win rate of the row's list (95% interval), {per_cell}",
        title_justify="left",
    )
    field = len(columns) > 1
    table.add_column("list")
    for name in columns:
        table.add_column(f"v {name}", justify="right")
    if field:
        table.add_column("v the field (pooled)", justify="right", style="bold")

    def told(cell: dict[str, Any], most: int) -> str:
        return (
            f"{cell['rate']:.0%} ({cell['low']:.0%}–{cell['high']:.0%})\n"
            f"draws {cell['draws']:.0%}"
            + (f", {cell['games']} games" if cell["games"] < most else "")
            + ("\n(mirror)" if cell.get("mirrored") else "")
        )

    for name, row, pooled in zip(rows, cells, overall, strict=True):
        table.add_row(
            name,
            *("—" if cell is None else told(cell, games) for cell in row),
            *(
                ["—" if pooled is None else told(pooled, games * pooled["opponents"])]
                if field
                else []
            ),
        )
    Console(highlight=False).print(table)
    if field:
        Console(highlight=False).print(
            "v the field: the row's games against every column but its own list (and, for "
            "a variant, the list it was made from), taken together; compare rows that face "
            "the same columns.",
            markup=False,
        )
    if any(cell is not None and cell["mirrored"] for row in cells for cell in row):
        Console(highlight=False).print(
            "(mirror): the games of the two lists the other way round, read from this list's side.",
            markup=False,
        )
    if games % 2:
        Console(highlight=False).print(
            f"note: an odd number of games a cell ({games}): the row's list deployed first "
            "once more than second; an even number balances the sides.",
            markup=False,
        )
