"""A scenario as a briefing: its table, turns, victory, deployment, objectives and terrain."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from kriegsspiel.core.names import counted
from kriegsspiel.core.scenario import Scenario


def _span(polygon: Sequence[tuple[float, float]]) -> str:
    """Where an outline lies, as the box around it: "x 0–72, y 0–12"."""
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    return f"x {min(xs):g}–{max(xs):g}, y {min(ys):g}–{max(ys):g}"


def _area(polygon: Sequence[tuple[float, float]]) -> float:
    """The outline's area in square inches (the shoelace formula)."""
    pairs = zip(polygon, [*polygon[1:], polygon[0]], strict=True)
    return abs(sum(a[0] * b[1] - b[0] * a[1] for a, b in pairs)) / 2


def print_briefing(
    scenario: Scenario, source: str, console: Console, editions: Sequence[str] | None = None
) -> None:
    """The scenario read from ``source``: a heading, then deployment, objectives, terrain,
    and its notes for ``editions`` (the editions it was checked for; None: every one)."""
    table = scenario.table
    console.print(f"{scenario.name} ({source})", markup=False, style="bold")
    if scenario.description:
        console.print(scenario.description, markup=False)
    console.print(
        f'A {table.width:g}" × {table.height:g}" table, {scenario.length_text()}; won by '
        f"{scenario.victory}.",
        markup=False,
    )
    sides = scenario.sides()
    zones = Table(title="Deployment (in inches from the bottom-left corner)", title_justify="left")
    for column in ("side", "army", "zone (the box around it)"):
        zones.add_column(column)
    for zone in scenario.deployment:
        army = {0: "A", 1: "B"}.get(sides.index(zone.side), "none: unused")
        zones.add_row(zone.side, army, f"{_span(zone.polygon)} ({_area(zone.polygon):g} sq in)")
    console.print(zones)
    console.print(
        f"Army A (the first --army) deploys {sides[0]}, army B {sides[1]}; an evaluation "
        "swaps them every other game."
        + (
            f" A game has two armies: {', '.join(sides[2:])} is left unused."
            if len(sides) > 2
            else ""
        ),
        markup=False,
    )
    if scenario.objectives:
        marks = Table(title="Objectives", title_justify="left")
        for column in ("objective", "at", "points"):
            marks.add_column(column)
        for mark in scenario.objectives:
            marks.add_row(mark.name, f"{mark.x:g}, {mark.y:g}", str(mark.points))
        console.print(marks)
    count = len(scenario.terrain)
    terrain = Table(title=f"Terrain ({counted(count, 'feature')})", title_justify="left")
    for column in ("feature", "category", "cover", "hides", "where (the box around it)"):
        terrain.add_column(column)
    for feature in scenario.terrain:
        terrain.add_row(
            feature.name,
            plays_as(feature.category)
            + (
                f"; impassable to {', '.join(feature.impassable_to)}"
                if feature.impassable_to
                else ""
            ),
            feature.cover,
            "blocks sight" if feature.blocks_line_of_sight else "",
            _span(feature.polygon),
        )
    console.print(terrain)
    for ruleset, remark in scenario.notes.items():
        if editions is None or ruleset in editions:
            console.print(f"note for {ruleset}: {remark}", markup=False)


def plays_as(category: str) -> str:
    """A feature's category as written, with the terrain table row it counts as where the
    name is another ("ruins (rough ground)")."""
    from kriegsspiel.rulesets.bolt_action.data import CATEGORY_SYNONYMS

    row = CATEGORY_SYNONYMS.get(category.lower())
    return f"{category} ({row})" if row is not None else category
