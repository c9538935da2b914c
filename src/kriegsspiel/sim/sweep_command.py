"""What ``kriegsspiel sweep`` does, behind the command line: every cell of a sweep
evaluated on each of its scenarios, then its tables, JSON and heat map."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from kriegsspiel.core.names import counted
from kriegsspiel.errors import UsageError, empty_name
from kriegsspiel.outfiles import check_folder, write_text
from kriegsspiel.render.evaluation_text import other_code_note
from kriegsspiel.render.sweep_text import (
    print_sides,
    print_sweep_table,
    print_variant_changes,
    print_variant_units,
)
from kriegsspiel.rulesets.bolt_action.game.set_up_order import variant_units_note
from kriegsspiel.sim import MAX_SEED
from kriegsspiel.sim.commands import (
    ERR,
    RunOptions,
    SweepCell,
    check_plot,
    open_store,
    plot_written,
    run_one,
)
from kriegsspiel.sim.matchup import Matchup, parsed, rules_named
from kriegsspiel.sim.runner import Evaluation
from kriegsspiel.sim.stats import wilson
from kriegsspiel.sim.sweep import Sweep, variant_files
from kriegsspiel.sim.tally import DAMAGE_LEFT_OUT


@dataclass
class _Cells:
    """What a sweep found on one scenario (or on all, pooled), by (row, column): each
    cell's summary; and, for the cells variants are compared on, each game's winner in
    order (on one scenario: pairs are made within a scenario) and how the row list's units
    fared."""

    found: dict[tuple[int, int], dict[str, Any]]
    winners: dict[tuple[int, int], bytes]
    units: dict[tuple[int, int], list[dict[str, Any]]]


#: how a sweep's heat map says the order its units set up in (a unit's figures, and so a
#: variant's, depend on it: docs/simulation.md, "deployment")
DEPLOYMENT_TOLD = {
    "list-order": "units set up in list order",
    "shuffled": "units set up in an order drawn from each game's seed (deployment shuffled)",
}


@dataclass
class _Plan:
    """A sweep loaded and checked, ready to play: its games a cell and seed, each scenario's
    name, sides and seed, and what its tables and heat map call each list."""

    sweep: Sweep
    games: int
    seed: int
    replaces: bool  # (the heat map takes the place of a picture already there)
    rows: list[str]
    columns: list[str]
    points: tuple[list[int], list[int]]  # each row's list's points, each column's
    shown_rows: list[str]  # (each list's name over its points, as the tables show it)
    shown_columns: list[str]
    uneven: str | None  # what to say of lists of unequal points; None if every cell is even
    scenarios: list[str]
    zones: list[list[str]]  # each scenario's two sides
    seeds: list[int]

    @property
    def many(self) -> bool:
        """Several scenarios (each told apart, then all of them pooled)?"""
        return len(self.scenarios) > 1


@dataclass
class _Played:
    """What a sweep's cells found, scenario by scenario, and what it says of their games:
    how many were played and read back, those stored by other code, the notices."""

    per_scenario: list[_Cells]
    notices: list[str]
    games_played: int = 0
    games_reused: int = 0
    games_done: int = 0  # the games of the cells evaluated (a Ctrl-C says how many are stored)
    other_code: dict[str, int] = field(default_factory=dict)  # stored, not reused
    read_only: bool = False  # (the store could not be written: every cell was read back)


def run_sweep(
    path: str,
    games: int | None,
    seed: int | None,
    options: RunOptions,
    plot: str | None,
    as_json: bool,
    lists_to: str | None = None,
    deployment: str | None = None,
) -> None:
    """Every cell of a sweep, one evaluation each on each of its scenarios, then the table
    (and heat map) of results: each scenario's, and with several, all of them pooled.

    ``games`` and ``seed`` left as None take the sweep file's values; ``lists_to``, a folder
    to write each variant's list into first (see :func:`write_variants`); ``deployment``
    left as None takes the file's.
    """
    plan = _planned(path, games, seed, options, plot, lists_to, deployment)
    played = _play_cells(plan, options)
    each = [
        _sweep_results(plan.sweep, plan.rows, plan.columns, on, [on.winners])
        for on in played.per_scenario
    ]
    whole = (
        _sweep_results(
            plan.sweep,
            plan.rows,
            plan.columns,
            _pooled(played.per_scenario),
            [on.winners for on in played.per_scenario],
        )
        if plan.many
        else each[0]
    )
    # the table first: a heat map that cannot be written must not take the results with it
    if as_json:
        _print_json(plan, played, each, whole, options)
    else:
        _print_tables(plan, played, each, whole, options)
    if plot:
        _draw_heat_map(plan, whole, plot, as_json)


def _planned(
    path: str,
    games: int | None,
    seed: int | None,
    options: RunOptions,
    plot: str | None,
    lists_to: str | None,
    deployment: str | None,
) -> _Plan:
    """Load and check a sweep, its games and seed (before a game is played, so that bad
    input costs nothing), write its variants' lists if asked, and name its lists."""
    from kriegsspiel.sim.sweep import (
        column_names,
        column_points,
        load_sweep,
        points_note,
        row_names,
        row_points,
        scenario_seed,
    )

    if lists_to is not None and not lists_to.strip():  # (Path("") is the current folder)
        raise empty_name("--lists-to", lists_to, "the folder to write the variants' lists in")
    sweep = load_sweep(path, lists_to, deployment)
    games = sweep.games if games is None else games
    from_line = seed is not None  # (--seed, not the file's)
    seed = sweep.seed if seed is None else seed
    options.check(games)
    if seed + len(sweep.grids) - 1 > MAX_SEED:  # (each next scenario plays from the next seed)
        given = "--seed" if from_line else f"the sweep file's seed ({path})"
        raise UsageError(
            f"{given} {seed} is too large for {len(sweep.grids)} scenarios: each scenario after "
            f"the first plays from the next seed, and the last would be past {MAX_SEED}, the "
            f"largest; give a seed of at most {MAX_SEED - len(sweep.grids) + 1}."
        )
    replaces = check_plot(plot, options.results)
    if lists_to is not None:
        for written in write_variants(sweep, lists_to):
            ERR.print(f"variant list written to {written}", markup=False)
        if not sweep.compared:
            ERR.print("note: the sweep has no variants: no list written.", markup=False)
    rows, columns = row_names(sweep), column_names(sweep)
    points = row_points(sweep), column_points(sweep)
    # the tables and the heat map give each list's points under its name
    shown_rows, shown_columns = (
        [f"{name}\n{counted(worth, 'point')}" for name, worth in zip(names, each, strict=True)]
        for names, each in zip((rows, columns), points, strict=True)
    )
    scenarios = [source.label for source in sweep.scenarios]
    return _Plan(
        sweep=sweep,
        games=games,
        seed=seed,
        replaces=replaces,
        rows=rows,
        columns=columns,
        points=points,
        shown_rows=shown_rows,
        shown_columns=shown_columns,
        uneven=points_note(sweep),  # (said as an evaluation says it, first among the notes)
        scenarios=scenarios,
        zones=[parsed(grid[0][0])[0].sides() for grid in sweep.grids],  # each one's two sides
        seeds=[scenario_seed(seed, k) for k in range(len(scenarios))],
    )


def _play_cells(plan: _Plan, options: RunOptions) -> _Played:
    """Evaluate every cell on every scenario in turn (a cell its mirror has played is read
    from its mirror's games), with one set of workers throughout: what they work out in
    one cell, they know in the next."""
    from kriegsspiel.sim.sweep import evaluation_order, played, read_from_mirror

    sweep = plan.sweep
    evaluated: dict[Matchup, dict[str, Any]] = {}  # each matchup's tally, to read its mirror
    keep = bool(sweep.compared)  # (the winners and units of cells that variants are set on)
    to_play = len(played(sweep))
    # the lists' points (if uneven), then each evaluation's after its cell's name
    done = _Played([], [] if plan.uneven is None else [plan.uneven])
    with open_store(options.results) as store, options.pool(plan.games) as pool:
        for k, grid in enumerate(sweep.grids):
            on = _Cells({}, {}, {})
            done.per_scenario.append(on)
            where = f"{plan.scenarios[k]}: " if plan.many else ""
            for r, c in evaluation_order(sweep):
                matchup = grid[r][c]
                label = f"{where}{plan.rows[r]} v {plan.columns[c]}"
                if read_from_mirror(sweep, (r, c), evaluated, k):
                    # B v A is A v B from the other side: the same games, read the other way
                    ERR.print(
                        f"{label}: the games of {plan.columns[c]} v {plan.rows[r]}, from the "
                        "other side.",
                        markup=False,
                    )
                    body = evaluated[matchup.mirrored()]  # (never a cell a variant is set on)
                    wins, losses, mirrored = body["army_b_wins"], body["army_a_wins"], True
                    played_here = reused_here = 0  # (its games are its mirror's)
                else:
                    count = f"({len(evaluated) + 1}/{to_play}) {label}"
                    result = run_one(
                        matchup,
                        plan.games,
                        plan.seeds[k],
                        pool,
                        options,
                        store,
                        count,
                        keep_winners=keep,
                        cell=SweepCell(len(evaluated) + 1, to_play, done.games_done),
                    )
                    _count_in(done, result, label)
                    played_here, reused_here = result.played, result.reused
                    body = evaluated[matchup] = {
                        **result.tally.to_json(),
                        "stopped_early": result.stopped_early,
                    }
                    wins, losses, mirrored = body["army_a_wins"], body["army_b_wins"], False
                    if keep:
                        on.winners[r, c] = bytes(result.tally.winners or b"")
                        on.units[r, c] = [u for u in body["units"] if u["army"] == "A"]
                on.found[r, c] = _cell_found(
                    body, (wins, losses), mirrored, (played_here, reused_here)
                )
    done.read_only = store is not None and store.read_only
    return done


def _count_in(done: _Played, result: Evaluation, label: str) -> None:
    """Add a cell's evaluation to the sweep's counts of games and its notices, and tell the
    notes on how it ended as it ends (under its progress line)."""
    done.games_done += result.tally.games
    done.games_played += result.played
    done.games_reused += result.reused
    for version, stored in result.other_code.items():
        done.other_code[version] = done.other_code.get(version, 0) + stored
    done.notices.extend(f"{label}: {notice}" for notice in result.notices)
    for note in result.ending:
        ERR.print(f"{label}: note: {note}", markup=False)


def _cell_found(
    body: dict[str, Any],
    wins_losses: tuple[dict[str, Any], dict[str, Any]],
    mirrored: bool,
    played_reused: tuple[int, int],
) -> dict[str, Any]:
    """A cell's summary from its evaluation's tally (``body``): its row's wins and losses
    (from the other side if ``mirrored``), and its games played and read back."""
    wins, losses = wins_losses
    played_here, reused_here = played_reused
    return {
        **wins,
        "draws": body["draws"],  # (as the wins and losses: count, interval)
        "losses": losses,
        "games": body["games"],
        "mirrored": mirrored,
        "games_played": played_here,
        "games_reused": reused_here,
        "stopped_early": body["stopped_early"],
        # each side's wins, whichever army held it (a mirror's are its games')
        "wins_by_side": body["wins_by_side"],
    }


def _print_json(
    plan: _Plan,
    done: _Played,
    each: list[dict[str, Any]],
    whole: dict[str, Any],
    options: RunOptions,
) -> None:
    """Print the sweep's results as JSON: the whole table, and with several scenarios each
    scenario's too."""
    sweep, scenarios, many = plan.sweep, plan.scenarios, plan.many
    some = sweep.grids[0][0][0]  # (every cell has the sweep's ruleset and players)
    data: dict[str, Any] = {
        "sweep": sweep.name,
        "ruleset": some.ruleset,
        **rules_named(some.rules),  # a designer's rules file every game was played by
        "scenario": scenarios if many else scenarios[0],
        "players": list(some.players),
        "deployment": some.deployment,  # the order each side's units set up in
        "games": plan.games,  # asked for a cell; each cell's "games" is what it tallied
        "games_requested": plan.games,
        "games_played": done.games_played,
        "games_reused": done.games_reused,
        "games_of_other_code": sum(done.other_code.values()),  # stored, never reused
        "other_code_versions": sorted(done.other_code),
        "stopped_early": any(
            cell["stopped_early"] for on in done.per_scenario for cell in on.found.values()
        ),
        "store": options.results,
        "notices": done.notices,
        "seed": plan.seed,
        "rows": plan.rows,
        "columns": plan.columns,
        "row_points": plan.points[0],  # each row's list's points, in the order of "rows"
        "column_points": plan.points[1],
        **whole,
        "units_note": variant_units_note(some.deployment),  # (of the variants' units)
        "damage_note": DAMAGE_LEFT_OUT,  # (what their damage dealt does not count)
    }
    for variant in data["variants"]:  # (beside the figures it is about, too)
        variant["units_note"] = data["units_note"]
    for side, figures in enumerate(data["wins_by_side"]):
        figures["side"] = plan.zones[0][side] if not many else "AB"[side]
    if many:
        data["seeds"] = plan.seeds
        data["by_scenario"] = [
            {
                "scenario": name,
                "seed": s,
                "games_played": sum(c["games_played"] for c in on.found.values()),
                "games_reused": sum(c["games_reused"] for c in on.found.values()),
                **found,
                "wins_by_side": [
                    {**figures, "side": plan.zones[k][side]}
                    for side, figures in enumerate(found["wins_by_side"])
                ],
            }
            for k, (name, s, on, found) in enumerate(
                zip(scenarios, plan.seeds, done.per_scenario, each, strict=True)
            )
        ]
    print(json.dumps(data, indent=2))


def _print_tables(
    plan: _Plan,
    done: _Played,
    each: list[dict[str, Any]],
    whole: dict[str, Any],
    options: RunOptions,
) -> None:
    """Print the sweep's tables (each scenario's, then all pooled), its variants' changes and
    what its games were: played, read back, by which rules file."""
    sweep, scenarios, many, games = plan.sweep, plan.scenarios, plan.many, plan.games
    shown_rows, shown_columns = plan.shown_rows, plan.shown_columns
    if many:
        for k, (name, s, found) in enumerate(zip(scenarios, plan.seeds, each, strict=True)):
            table = f"{sweep.name} on {name} (seed {s})"
            print_sweep_table(table, games, shown_rows, shown_columns, found["cells"],
                              found["against_the_field"])  # fmt: skip
            print_sides(found["wins_by_side"], plan.zones[k])
    title = f"{sweep.name}, all {len(scenarios)} scenarios together" if many else sweep.name
    print_sweep_table(title, games * len(scenarios), shown_rows, shown_columns,
                      whole["cells"], whole["against_the_field"])  # fmt: skip
    print_sides(whole["wins_by_side"], None if many else plan.zones[0])
    if plan.uneven is not None:
        Console(highlight=False).print(f"note: {plan.uneven}", markup=False)
    changes = whole["variants"]
    if any(cell is not None for variant in changes for cell in variant["against"]):
        print_variant_changes(plan.columns, changes, len(scenarios))
        print_variant_units(plan.columns, changes, sweep.grids[0][0][0].deployment)
    elif changes:
        Console(highlight=False).print(
            "note: no variant could be set against its list: each meets only its own list "
            "(add another opponent to 'against').",
            markup=False,
        )
    _print_games(plan, done, options)


def _print_games(plan: _Plan, done: _Played, options: RunOptions) -> None:
    """Say how many games were played and how many read back (and from where), the rules
    file they were played by, and those of other code left unused."""
    kept = f"; stored in {options.results}" if options.results else ""
    if options.results and not done.games_played:  # (nothing new stored: all read back)
        kept = f", every one read back from {options.results}"
    if done.read_only:  # (every cell was read back whole)
        kept = f" ({options.results} cannot be written: nothing new was stored)"
    house = plan.sweep.grids[0][0][0].rules
    by = (
        ""
        if house is None
        else f" Every game was played by the rules file {house.label} ({house.short_digest})."
    )
    Console(highlight=False).print(
        f"Games: {done.games_played} played, {done.games_reused} from the results store{kept}.{by}",
        markup=False,
    )
    other = other_code_note(
        sum(done.other_code.values()), sorted(done.other_code), "these matchups"
    )
    if other:
        Console(highlight=False).print(other, markup=False)


def _draw_heat_map(plan: _Plan, whole: dict[str, Any], plot: str, as_json: bool) -> None:
    """Draw the pooled table as a heat map, titled with the sweep, how its units set up and
    the rules it was played by, and say where it was written."""
    from kriegsspiel.render.plots import plot_heatmap

    sweep = plan.sweep
    title = f"{sweep.name} (all {len(plan.scenarios)} scenarios)" if plan.many else sweep.name
    some = sweep.grids[0][0][0]
    title += "\n" + DEPLOYMENT_TOLD[some.deployment]
    # (the rules, as evaluate's picture names them: the file's too, with its digest)
    title += (
        "\n"
        + some.ruleset
        + (
            ""
            if some.rules is None
            else f", rules file {some.rules.label} ({some.rules.short_digest})"
        )
    )
    plot_heatmap(plan.shown_rows, plan.shown_columns, whole["cells"], title, plot,
                 whole["variants"], whole["against_the_field"])  # fmt: skip
    plot_written(plot, "Heat map", plan.replaces, as_json)


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
        "wins_by_side": sides_of(on.found.values()),
        "against_the_field": [
            against_the_field([cells[r][c] for c in the_field(sweep, r)]) for r in range(len(rows))
        ],
        "variants": variant_changes(sweep, rows, columns, winners, on.units),
    }


def sides_of(cells: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each side's wins over every game the ``cells`` played (a mirrored cell's are its
    mirror's games, counted once), whichever army held it: side A's, then side B's, with
    their 95% Wilson intervals; what the table itself favours."""
    played = [cell for cell in cells if not cell["mirrored"]]
    games = sum(cell["games"] for cell in played)
    return [
        wilson(sum(cell["wins_by_side"][side]["count"] for cell in played), games).to_json()
        for side in (0, 1)
    ]


def _pooled(per_scenario: list[_Cells]) -> _Cells:
    """Each cell's games on every scenario taken together, and its units' survival and
    damage over all of them (its winners stay with their scenarios: see
    :func:`~kriegsspiel.sim.compare.paired_games`)."""
    from kriegsspiel.sim.sweep import pooled, pooled_rate
    from kriegsspiel.sim.tally import pooled_units

    first = per_scenario[0]
    found = {}
    for cell in first.found:
        all_of = [on.found[cell] for on in per_scenario]
        found[cell] = {
            **(pooled(all_of) or {}),
            "losses": pooled_rate([(c["losses"]["count"], c["losses"]["games"]) for c in all_of]),
            "mirrored": all(c["mirrored"] for c in all_of),
            "games_played": sum(c["games_played"] for c in all_of),
            "games_reused": sum(c["games_reused"] for c in all_of),
            "stopped_early": any(c["stopped_early"] for c in all_of),
            "wins_by_side": [
                wilson(
                    sum(c["wins_by_side"][side]["count"] for c in all_of),
                    sum(c["games"] for c in all_of),
                ).to_json()
                for side in (0, 1)
            ],
        }
    units = {cell: pooled_units([on.units[cell] for on in per_scenario]) for cell in first.units}
    return _Cells(found, {}, units)


def write_variants(sweep: Sweep, folder: str) -> list[Path]:
    """Write each variant's list (the list with its units changed, as the sweep plays it) to
    ``folder``, named after its list and the variant, so that it can be played, evaluated
    or edited like any list: the results store knows it by what it says, so an evaluation
    of the file reads back the games the sweep stored for it. A file already there with
    other contents is not overwritten."""
    check_folder(folder, "--lists-to", make=True)
    place = Path(folder)
    files: list[tuple[Path, str]] = []
    names = variant_files(sweep.rows, sweep.compared)  # (as load_sweep names them)
    for compared, name in zip(sweep.compared, names, strict=True):
        source = sweep.rows[compared.row]
        path = place / name
        if path.exists() and path.read_text(encoding="utf-8") != source.text:
            raise UsageError(
                f"--lists-to: {path} is there already with other contents; move it "
                "aside or give another folder."
            )
        files.append((path, source.text))
    written = []
    for path, text in files:
        write_text(str(path), "--lists-to", text)
        written.append(path)
    return written
