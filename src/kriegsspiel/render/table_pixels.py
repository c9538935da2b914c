"""Draw a Bolt Action family game's table as pixels (an RGB array), with matplotlib.

For frames of a video or a notebook (Gymnasium's ``rgb_array`` render mode), where the
SVG (:mod:`.table_svg`) would need a rasteriser the project does not depend on. It paints
what the SVG does, in its colours and sizes, without the labels and legend: terrain,
deployment zones, objectives, models and vehicles, the units a decision is about outlined,
and a caption below. A margin round the table shows whole a model or vehicle standing on
its edge. Every frame of a game is the same size (its sides whole blocks of 16 pixels, as
video encoders want), whatever the caption says: each caption line has two rows, a long
one wrapped, and set smaller only when two rows of legible text cannot hold it.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from kriegsspiel.render.table_svg import (
    IMPASSABLE_EDGE,
    MODEL_RADIUS,
    VEHICLE_SIZE,
    WALKER_RADIUS,
    caption,
    impassable_to,
    terrain_style,
)
from kriegsspiel.render.table_svg import SIDE_COLOURS as SIDES
from kriegsspiel.rulesets.bolt_action.game.state import OBJECTIVE_REACH

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
    from kriegsspiel.rulesets.bolt_action.game.units import UnitState

BLOCK = 16  # the picture's sides are whole blocks of this many pixels
LINE = 16  # pixels a caption row takes
ROWS = 2  # rows each caption line has (a long one wrapped)
TEXT = 9.0  # points: a caption row's text (12.5 pixels an em)
SMALLEST = 6.0  # points: the least a caption too long for its rows is set at
# inches round the table: a vehicle on the edge (its outline reaches 1.8" from its centre)
# and its dashed box show whole
EDGE = 2.25
DPI = 100
TABLE = "#dfe8c8"
MARKED = "#c8901a"
OBSTACLE = "#8d8d7a"  # (the SVG's hatch pattern's ground)


def table_pixels(
    game: BoltActionGame,
    *,
    scale: float = 8.0,
    marked: Collection[int] = (),
    lines: Sequence[str] = (),
) -> npt.NDArray[np.uint8]:
    """The table as a (height, width, 3) array of RGB bytes, ``scale`` pixels per inch;
    ``marked``: the uids of units to outline; below the table the caption (scenario, turn,
    score) and then ``lines``, two rows each; ``EDGE`` inches of margin round the table."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    if not (scale > 0 and math.isfinite(scale)):
        raise ValueError(f"scale must be a positive number, not {scale!r}")
    table = game.table
    across, down = (table.width + 2 * EDGE) * scale, (table.height + 2 * EDGE) * scale
    texts = [caption(game), *lines]
    wide = _blocks(across)
    high = _blocks(down + LINE * ROWS * len(texts) + 4)
    figure = Figure(figsize=(wide / DPI, high / DPI), dpi=DPI, facecolor="white")
    canvas = FigureCanvasAgg(figure)
    axes = figure.add_axes((0.0, 1 - down / high, across / wide, down / high))
    axes.set_xlim(-EDGE, table.width + EDGE)
    axes.set_ylim(-EDGE, table.height + EDGE)
    axes.set_axis_off()
    _table(axes, game)
    for uid in marked:
        unit = game.units[uid]
        if not unit.destroyed:
            _outline(axes, unit)
    for unit in game.units:
        if not unit.destroyed:
            _unit(axes, unit)
    row = 0
    for i, text in enumerate(texts):
        size, wrapped = caption_rows(text, wide - 8)
        for j, part in enumerate(wrapped):
            figure.text(
                4 / wide,
                1 - (down + LINE * (row + j + 1)) / high,
                part,
                fontsize=size,
                fontweight="bold" if i == 0 else "normal",
                color="#111111",
            )
        row += ROWS
    canvas.draw()  # type: ignore[no-untyped-call]  # (untyped in matplotlib)
    pixels = np.asarray(canvas.buffer_rgba())[..., :3].copy()  # type: ignore[no-untyped-call]
    figure.clear()
    return pixels


def caption_rows(text: str, pixels: float) -> tuple[float, list[str]]:
    """``text`` in at most ``ROWS`` rows ``pixels`` wide: its size in points (``TEXT``, or
    smaller down to ``SMALLEST`` if it needs it) and its rows, wrapped at spaces (at the
    smallest size, what still does not fit is cut short with an ellipsis). A sans-serif
    character is taken to be 0.64 em wide (bold DejaVu Sans, with room to spare)."""
    size = TEXT
    while True:
        chars = max(1, int(pixels / (size * DPI / 72 * 0.64)))
        wrapped = textwrap.wrap(text, chars) or [""]
        if len(wrapped) <= ROWS:
            return size, wrapped
        if size <= SMALLEST:
            return size, textwrap.wrap(text, chars, max_lines=ROWS, placeholder=" …")
        size = max(SMALLEST, size - 0.5)


def _blocks(pixels: float) -> int:
    return max(1, math.ceil(pixels / BLOCK)) * BLOCK


def _table(axes: Axes, game: BoltActionGame) -> None:
    """The ground, the deployment zones, the terrain and the objectives."""
    from matplotlib import patches
    from matplotlib.colors import to_rgba

    add = axes.add_patch
    table = game.table
    add(patches.Rectangle((0, 0), table.width, table.height, facecolor=TABLE, edgecolor="none"))
    sides = game.scenario.sides()
    for zone in game.scenario.deployment:
        colour = SIDES[sides.index(zone.side) % 2]
        add(
            patches.Polygon(
                [(p[0], p[1]) for p in zone.polygon],
                facecolor=to_rgba(colour, 0.05),
                edgecolor=to_rgba(colour, 0.6),
                linestyle="--",
                linewidth=1.0,
            )
        )
    for feature in table.features:
        style = terrain_style(feature, game.rules)
        hatched = style.fill.startswith("url(")
        barred = bool(impassable_to(feature))
        add(
            patches.Polygon(
                feature.polygon,
                facecolor=to_rgba(OBSTACLE if hatched else style.fill, style.opacity),
                edgecolor=IMPASSABLE_EDGE if barred else style.stroke,
                hatch="//" if hatched else None,
                linestyle="--" if barred else "-",
                linewidth=1.5 if barred or feature.cover == "hard" else 0.8,
            )
        )
    for objective in game.scenario.objectives:
        at = (objective.x, objective.y)
        add(
            patches.Circle(
                at, OBJECTIVE_REACH, fill=False, edgecolor="#f9a825", linestyle=":", linewidth=0.8
            )
        )
        axes.plot(*at, marker="*", markersize=10, color="#fdd835", markeredgecolor="#5d4037")


def _unit(axes: Axes, unit: UnitState) -> None:
    """A live unit: a disc a model, or a vehicle's outline turned to its heading."""
    from matplotlib import patches

    add = axes.add_patch
    colour = SIDES[unit.side % 2]
    if unit.vehicle is None:
        for model in unit.alive_models:
            add(
                patches.Circle(
                    (model.x, model.y),
                    MODEL_RADIUS,
                    facecolor=colour,
                    edgecolor="#111111",
                    linewidth=0.5,
                )
            )
        return
    x, y, heading = unit.anchor.x, unit.anchor.y, math.radians(unit.heading)
    ahead = (math.sin(heading), math.cos(heading))  # (0 is +y, 90 is +x)
    aside = (ahead[1], -ahead[0])
    if unit.vehicle.kind == "walker":
        outline = [
            (
                x + WALKER_RADIUS * math.sin(heading + math.radians(a)),
                y + WALKER_RADIUS * math.cos(heading + math.radians(a)),
            )
            for a in range(0, 360, 60)
        ]
        nose = WALKER_RADIUS
    else:
        half_wide, half_long = VEHICLE_SIZE[0] / 2, VEHICLE_SIZE[1] / 2
        outline = [
            (
                x + a * half_wide * aside[0] + b * half_long * ahead[0],
                y + a * half_wide * aside[1] + b * half_long * ahead[1],
            )
            for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]
        nose = half_long
    add(patches.Polygon(outline, facecolor=colour, edgecolor="#111111", linewidth=0.8, alpha=0.8))
    axes.plot((x, x + nose * ahead[0]), (y, y + nose * ahead[1]), color="#ffffff", linewidth=1.5)


def _outline(axes: Axes, unit: UnitState) -> None:
    """A dashed box around a unit a decision is about (under its drawing)."""
    from matplotlib import patches

    if unit.vehicle is not None:
        reach = 1.8  # any heading: the half-diagonal of its 2" x 3" outline
        xs, ys = (
            (unit.anchor.x - reach, unit.anchor.x + reach),
            (
                unit.anchor.y - reach,
                unit.anchor.y + reach,
            ),
        )
    else:
        models = unit.alive_models
        xs = (min(m.x for m in models) - MODEL_RADIUS, max(m.x for m in models) + MODEL_RADIUS)
        ys = (min(m.y for m in models) - MODEL_RADIUS, max(m.y for m in models) + MODEL_RADIUS)
    pad = 0.4
    axes.add_patch(
        patches.Rectangle(
            (xs[0] - pad, ys[0] - pad),
            xs[1] - xs[0] + 2 * pad,
            ys[1] - ys[0] + 2 * pad,
            fill=False,
            edgecolor=MARKED,
            linestyle="--",
            linewidth=1.5,
        )
    )
