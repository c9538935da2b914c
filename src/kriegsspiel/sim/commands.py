"""What ``kriegsspiel evaluate`` and ``results`` do, behind the command line, and what a
sweep (:mod:`kriegsspiel.sim.sweep_command`) shares with them: run options, the progress
bar, the results store, one evaluation."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from kriegsspiel.core.names import counted
from kriegsspiel.errors import RULES_FILE_WANTED, UsageError, empty_name
from kriegsspiel.outfiles import check_output, check_replacing, is_export, is_picture, writing
from kriegsspiel.sim import DEFAULT_STORE, MAX_GAMES
from kriegsspiel.sim.code import code_version
from kriegsspiel.sim.matchup import Matchup, build_matchup
from kriegsspiel.sim.runner import (
    COMMAND_LINE,
    Evaluation,
    Interrupted,
    Progress,
    Workers,
    check_request,
    evaluate,
    evaluation_json,
)
from kriegsspiel.sim.store import EXPORTS, Store, StoredRun, StoreError

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
        if games > MAX_GAMES:
            raise UsageError(
                f"--games must be at most {MAX_GAMES:,} (got {games:,}); with --precision, "
                "a run stops as soon as its rates are known that well."
            )
        if self.workers is not None and self.scheduler is not None:
            raise UsageError(
                "--workers counts local processes; with --scheduler the cluster's workers "
                "play the games: leave --workers out."
            )
        workers = 1 if self.workers is None else self.workers  # (None: one a core)
        check_request(games, 0, self.precision, workers, named=lambda name: f"--{name}")

    def pool(self, games: int | None = None) -> Workers:
        """The workers these options ask for (local processes, or a Dask cluster): no more
        local processes than ``games`` (a sweep's games a cell), if given."""
        workers = self.workers or default_workers()
        return Workers(workers if games is None else min(workers, games), self.scheduler)


def check_plot(plot: str | None, results: str | None = None) -> bool:
    """Refuse a plot that could not be written before any game is played, that would
    replace a file other than a picture kriegsspiel drew, or that is the ``results`` store
    itself (the picture would take the stored games' place); True if it replaces one."""
    if plot is None:
        return False
    check_output(plot, "--plot", (".png", ".svg"))  # ('' refused as an empty name)
    if results and _same_file(plot, results):
        raise UsageError(
            f"--plot and --results both name {plot!r}: the picture would be written over the "
            "stored games; give two files."
        )
    return check_replacing(plot, "--plot", "a PNG or SVG picture kriegsspiel drew", is_picture)


def _same_file(one: str, other: str) -> bool:
    """Do the paths ``one`` and ``other`` name one file (through links, or as one file
    under two names), whether it is there yet or not?"""
    a, b = Path(one), Path(other)
    try:
        if a.exists() and b.exists():
            return a.samefile(b)
    except OSError:
        pass
    return a.resolve() == b.resolve()


def plot_written(plot: str, what: str, replaces: bool, as_json: bool) -> None:
    """Say that the plot is written (``what``: "Plot", "Heat map"), and whether it took
    the place of an earlier one; with --json, only that, on stderr (stdout is the JSON)."""
    instead = ", in place of the picture that was there" if replaces else ""
    if not as_json:
        Console(highlight=False).print(f"{what} written to {plot}{instead}.", markup=False)
    elif replaces:
        ERR.print(f"{what} written to {plot}{instead}.", markup=False)


BAR_ROOM = 54  # columns the bar, the count, the time taken and the time left need


def _terminal_width() -> int:
    """The width of the terminal stderr shows in (COLUMNS, if it cannot be asked)."""
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns or ERR.width
    except (OSError, ValueError):
        return ERR.width


@contextmanager
def progress_bar(show: bool, label: str) -> Iterator[Progress]:
    """A rich progress bar with the time left, on stderr so --json output stays clean.

    It is redrawn as games finish, and every few seconds while none does (``Progress.on_wait``),
    rather than by a thread of its own, so the worker processes can still be forked from
    this one (``executors.start_method``).
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
    # (at most the terminal's own width: COLUMNS may be set wide for a stdout sent to a file)
    width = min(ERR.width, _terminal_width())
    room = Column(no_wrap=True, overflow="ellipsis", max_width=max(12, width - BAR_ROOM))
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
            on_wait=lambda: bar.refresh(),  # (the time taken moves on while no game ends)
        )


def open_store(results: str | None) -> Store | nullcontext[None]:
    if not results:
        return nullcontext(None)
    # say plainly where a store cannot be made (one that cannot be written is read)
    check_output(results, "--results", written=False)
    path = Path(results)
    if path.exists() and not writable(path):
        return Store(results, read_only=True)  # what it holds can still be read back
    return Store(results)


def writable(path: Path) -> bool:
    """Can the results file at ``path`` be written? SQLite writes beside it as well."""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


@dataclass(frozen=True, slots=True)
class SweepCell:
    """Where a sweep's evaluation stands: cell ``number`` (from 1) of ``cells`` it plays,
    the cells before it holding ``games_before`` games in all."""

    number: int
    cells: int
    games_before: int


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
    cell: SweepCell | None = None,
) -> Evaluation:
    """One evaluation with a progress bar; Ctrl-C says where the finished games are.

    ``pool``: the workers a sweep keeps for all its cells; None for a lone evaluation,
    which starts its own (or, one worker and no more than 1,000 games, plays in this
    process). ``cell``: a sweep's evaluation, where it stands among the sweep's cells."""
    command_line = COMMAND_LINE.set(True)  # (no script of the user's to tell of)
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
                "nothing was stored (--no-store): the same command starts afresh; leave "
                "--no-store out to keep finished games and resume where a run stops."
            ) from None
        try:
            kept: int | None = store.count(matchup, seed, games)
        except StoreError:  # (the store itself failing: what it holds cannot be told)
            kept = None
        if kept is None:
            stored = f"any game that finished is stored in {store.path}"
        elif cell is None:  # a lone evaluation
            stored = f"{kept} of the {games} games are stored in {store.path}"
        else:
            stored = _stored_of_sweep(cell, kept, games, store.path)
        raise Interrupted(f"{stored}; run the same command again to resume.") from None
    finally:
        COMMAND_LINE.reset(command_line)


def _stored_of_sweep(cell: SweepCell, kept: int, games: int, path: Path) -> str:
    """What a sweep stopped in ``cell`` has stored in ``path``: the cells complete ("cells
    1–4 of 8 are stored in r.sqlite (40 games)") and the ``kept`` of the ``games`` of the
    cell it stopped in, unless it is complete (stopped as it ended) or none is kept."""
    done = cell.number - (kept < games)  # the cells complete
    games_done = cell.games_before + (kept if kept >= games else 0)
    some = "none" if kept == 0 else str(kept)
    of_this = f"{some} of cell {cell.number}'s {games} games"
    if done == 0:
        if kept == 0:
            return f"no game is stored yet in {path} (stopped in cell 1 of {cell.cells})"
        verb = "is" if kept == 1 else "are"
        return f"{of_this} (the first of {cell.cells} cells) {verb} stored in {path}"
    cells = "cell 1" if done == 1 else f"cells 1–{done}"
    are = "is" if done == 1 else "are"
    stored = f"{cells} of {cell.cells} {are} stored in {path} ({counted(games_done, 'game')})"
    return stored if kept >= games else f"{stored}, and {of_this}"


def run_evaluate(
    *,
    ruleset: str | None,
    scenario: str | None,
    armies: list[str],
    players: str,
    games: int,
    seed: int,
    options: RunOptions,
    plot: str | None,
    as_json: bool,
    rules_file: str | None = None,
    deployment: str = "list-order",
) -> None:
    options.check(games)
    replaces = check_plot(plot, options.results)
    if rules_file is not None and not rules_file.strip():
        raise empty_name("--rules-file", rules_file, RULES_FILE_WANTED)
    matchup = build_matchup(
        ruleset, scenario, armies, players, rules_file=rules_file, deployment=deployment
    )
    with open_store(options.results) as store:
        result = run_one(matchup, games, seed, None, options, store, matchup.title)
    data = evaluation_json(result) | {"store": options.results}  # (None: --no-store)
    # the report first: a plot that cannot be written must not take the results with it
    if as_json:
        print(json.dumps(data, indent=2))
        for note in result.ending:  # (the report's notes are in the JSON: say this one aloud)
            ERR.print(f"note: {note}", markup=False)
    else:
        from kriegsspiel.render.evaluation_text import print_evaluation

        print_evaluation(data)
        if store is not None and store.read_only:  # (every game asked for was read back)
            said = f"Games read from {options.results}, which cannot be written: none stored."
            Console(highlight=False).print(said, markup=False)
        elif options.results and not result.played:  # (nothing new: say where they were)
            said = f"Every game was read back from {options.results}: none to play."
            Console(highlight=False).print(said, markup=False)
        elif options.results:
            Console(highlight=False).print(f"Games stored in {options.results}.", markup=False)
    if plot:
        from kriegsspiel.render.plots import plot_evaluation

        plot_evaluation(data, result.tally.scores, plot)
        plot_written(plot, "Plot", replaces, as_json)


def run_results(
    results: str,
    export: str | None,
    out: str | None,
    matchup: str | None = None,
    prune: bool = False,
) -> None:
    if Path(results).is_dir():
        raise UsageError(
            f"--results {results!r} is a folder; give the results file inside it (e.g. "
            f"{Path(results) / DEFAULT_STORE})."
        )
    if not Path(results).is_file():
        raise UsageError(
            f"no results file {results!r}; 'kriegsspiel evaluate' creates it (see --results)."
        )
    if out and not export:
        raise UsageError(
            "--out names the file for --export; add --export csv or json (or units-csv)."
        )
    if prune and export:
        raise UsageError("--prune deletes and --export writes out: give one at a time.")
    export = export.lower() if export else export  # CSV as csv, as other names
    if export and export not in EXPORTS:
        raise UsageError(
            f"--export takes csv or json (a row a game) or units-csv (a row a unit of each "
            f"game), not {export!r}."
        )
    if out and out != "-" and export:
        named = Path(out).suffix.lower().removeprefix(".")
        kind = export.removeprefix("units-")  # (units-csv writes CSV)
        if named in ("csv", "json") and named != kind:
            other = "csv" if named == "csv" else "json"
            raise UsageError(
                f"--out {out!r} names a .{named} file, but --export {export} writes "
                f"{kind.upper()}: give a .{kind} file (or --export {other})."
            )
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
        check_replacing(out, "--out", "an export of stored games", is_export)
    wanted = (matchup or "").strip().lower().removeprefix("id ").strip()
    if matchup is not None and not re.fullmatch(r"[0-9a-f]{1,20}", wanted):
        raise UsageError(
            f"--matchup takes a matchup's id as 'kriegsspiel results' lists it (e.g. "
            f"'id 3f9c02ab'), not {matchup!r}."
        )
    if prune:  # (refused as plain 'results' would refuse it, before it is opened to write)
        Store(results, read_only=True).close()
        if not writable(Path(results)):
            raise StoreError(
                f"results file {results} cannot be written (it or its folder is read-only), "
                "and --prune deletes games from it; it is left as it was. Make it writable, "
                "or copy it to a folder you can write to and prune the copy."
            )
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
                with (
                    writing(out, "--out") as temp,
                    open(temp, "w", encoding="utf-8", newline="") as handle,
                ):
                    count = store.export(handle, export, wanted)
                what = "the units of " if export == "units-csv" else ""
                ERR.print(f"{what}{_games(count)} exported to {out}.", markup=False)
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
    # where matchups of other lists share a title (a copy of a list, changed but not
    # renamed, against the same opponent), the lists as given tell them apart
    titled: dict[str, set[tuple[str, str]]] = {}
    for run in runs:
        titled.setdefault(run.title, set()).add((run.army_a, run.army_b))
    for run in runs:
        whose = "this code" if run.code_version == this else "other code: not reused"
        lists = f"\n  lists: {run.army_a} v {run.army_b}" if len(titled[run.title]) > 1 else ""
        table.add_row(
            f"{run.title}{lists}"
            f"\n  {run.ruleset}, {run.scenario}, {run.players}, seed {run.run_seed}"
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
