"""A sweep's results as rich tables: the win rates (and the field), what each variant
changes, and how the units it changed fared."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from kriegsspiel.core.names import counted
from kriegsspiel.core.per_cent import chance_shown_whole
from kriegsspiel.render.evaluation_text import per_point, short_rate
from kriegsspiel.rulesets.bolt_action.game.set_up_order import LIST_ORDER, variant_units_note
from kriegsspiel.sim.tally import DAMAGE_LEFT_OUT


def print_variant_changes(
    columns: list[str], changes: list[dict[str, Any]], scenarios: int = 1
) -> None:
    """Each variant against its own list: the change in the list's win and loss rates (on
    all the sweep's ``scenarios`` together)."""

    def signed(rate: float) -> str:
        # one decimal, keeping the sign of what rounds to 0: a clear interval (the mark is
        # read from the unrounded one) that ends at "-0.0" is below 0, as its mark says
        points = rate * 100
        return "+0.0" if points == 0 else f"{points:+.1f}"

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
    compared = [cell for variant in changes for cell in variant["against"] if cell is not None]
    marked = sum(cell[way]["clear"] for cell in compared for way in ("wins", "losses"))
    Console(highlight=False).print(
        "*: a clear change (its interval leaves out 0); without it, these games cannot tell "
        "the variant from its list. Each interval is a 95% one: where nothing really "
        "changes, it is marked by chance about one time in twenty. "
        f"{marked} of the {2 * len(compared)} intervals here {'is' if marked == 1 else 'are'} "
        "marked (a win and a loss "
        f"change for each of {counted(len(compared), 'comparison')}), so a lone mark "
        "among many may be chance: trust a change that holds against several opponents or "
        "in a longer run.",
        markup=False,
    )


def print_variant_units(
    columns: list[str], changes: list[dict[str, Any]], deployment: str = LIST_ORDER
) -> None:
    """The units each variant took out (as they fared in its list's games) and brought in
    (in its own): is a unit worth its points, against each opponent; and, beside each unit
    and under the table, what their figures owe to where they set up (``deployment``)."""
    by_place = deployment == LIST_ORDER
    table = Table(
        title="The units each variant changes: how often each survived a game (95% "
        "interval), and the damage it dealt a game for each of its points (95% interval)"
        + (", at its place in the list (see the note under the table)" if by_place else ""),
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
            # (a unit brought in by add stands last in its list, so in the last place)
            place = f"\n(place {unit['slot'] + 1} in the list)" if by_place else ""
            table.add_row(
                variant["variant"] if line == 0 else "",
                f"{way}: {unit['unit']} ({counted(unit['points'], 'point')}){place}",
                *(
                    "—"
                    if cell is None
                    else f"{short_rate(cell[key][number]['survival'])}\n"
                    f"{per_point(cell[key][number])} a point"
                    for cell in against
                ),
                end_section=line == len(lines) - 1,
            )
    Console(highlight=False).print(table)
    Console(highlight=False).print(
        f"{DAMAGE_LEFT_OUT}\nPlace: {variant_units_note(deployment)}", markup=False
    )


def print_sweep_table(
    name: str,
    games: int,
    rows: list[str],
    columns: list[str],
    cells: list[list[dict[str, Any] | None]],
    overall: list[dict[str, Any] | None],
) -> None:
    """The sweep's table: each cell's win rate, and (where some row meets more than one
    opponent: else it would repeat a cell) each row's games against the field pooled."""
    short = any(cell is not None and cell["games"] < games for row in cells for cell in row)
    per_cell = (
        f"up to {counted(games, 'game')} a cell (fewer where shown)"
        if short
        else f"{counted(games, 'game')} a cell"
    )
    table = Table(
        title=f"{name}: win rate of the row's list (95% interval), {per_cell}",
        title_justify="left",
    )
    field = any(pooled is not None and pooled["opponents"] > 1 for pooled in overall)
    table.add_column("list", overflow="fold")  # (a file told with a name is read whole)
    for name in columns:
        table.add_column(f"v {name}", justify="right")
    if field:
        table.add_column("v the field (pooled)", justify="right", style="bold")

    def told(cell: dict[str, Any], most: int) -> str:
        return (
            f"{chance_shown_whole(cell['rate'])} ({chance_shown_whole(cell['low'])}–{chance_shown_whole(cell['high'])})\n"
            f"draws {chance_shown_whole(cell['draws']['rate'])}"
            + (f", {cell['games']} games" if cell["games"] < most else "")
            + ("\n(mirror)" if cell.get("mirrored") else "")
            # (rows' fields may differ: how many opponents this one holds)
            + (f"\nv {counted(cell['opponents'], 'opponent')}" if "opponents" in cell else "")
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
            "a variant, the list it was made from), taken together, each opponent alike "
            "(the mean of the row's rates, also where an early stop left its cells "
            "unequal games); compare rows that face the same columns.",
            markup=False,
        )
    if any(cell is None for row in cells for cell in row):
        Console(highlight=False).print(
            "—: the row's list against itself (the same list, whatever its file is called): "
            "not played.",
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


def print_sides(by_side: list[dict[str, Any]], zones: list[str] | None) -> None:
    """Each side's wins over every game the table above played, whichever army held it,
    and, where one side won clearly more, that the table favours it. ``zones``: the
    scenario's two sides (None for several scenarios together: each one's first and
    second)."""
    from kriegsspiel.sim.tally import side_favoured

    games = by_side[0]["games"]
    if not games:
        return
    named = (
        [f"side A (deploying {zones[0]})", f"side B (deploying {zones[1]})"]
        if zones
        else ["side A (each scenario's first zone)", "side B (its second)"]
    )
    draws = games - by_side[0]["count"] - by_side[1]["count"]
    Console(highlight=False).print(
        f"By side, whichever army held it, over the {counted(games, 'game')}: "
        + ", ".join(
            f"{who} won {p['count']}, {short_rate(p)}"
            for who, p in zip(named, by_side, strict=True)
        )
        + f"; {counted(draws, 'draw')}.",
        markup=False,
    )
    told = [f"the side deploying {zone}" for zone in zones] if zones else named
    favoured = side_favoured([p["count"] for p in by_side], told)
    if favoured is not None:
        Console(highlight=False).print(f"note: {favoured}", markup=False)
