"""Draw a Bolt Action family game's table as SVG: terrain, zones, objectives, units, score.

Stdlib only (:mod:`xml.etree.ElementTree` builds and escapes the XML). Table positions are
inches with y pointing up; the picture is ``scale`` pixels per inch with SVG's y pointing
down, so every point goes through :meth:`_Frame.at`. Elements carry ``class`` names
(``terrain``, ``model``, ``dead``, ``vehicle``, ``walker``, ``objective``...) and the layers
are ``<g>`` groups with ids, so tests and style sheets can find them.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from kriegsspiel.core.table import VEHICLE, TerrainFeature
from kriegsspiel.errors import UsageError
from kriegsspiel.outfiles import svg_mark
from kriegsspiel.rulesets.bolt_action.edition import Rules
from kriegsspiel.rulesets.bolt_action.game.state import OBJECTIVE_REACH, BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.table_rules import terrain_row
from kriegsspiel.rulesets.bolt_action.game.units import UnitState

SVG_NS: Final[str] = "http://www.w3.org/2000/svg"
MARGIN: Final[float] = 12.0  # pixels around the table
SIDE_COLOURS: Final[tuple[str, str]] = ("#1f5fbf", "#c62828")
NEUTRAL: Final[str] = "#666666"
VEHICLE_SIZE: Final[tuple[float, float]] = (2.0, 3.0)  # inches across, inches along heading
WALKER_RADIUS: Final[float] = 1.3  # inches
MODEL_RADIUS: Final[float] = 0.35  # inches
CAPTION_SIZE: Final[float] = 13
CHAR_WIDTH: Final[float] = 0.6  # a sans-serif character's width as a share of the font size
BOLD_CHAR_WIDTH: Final[float] = 0.62  # and a bold one's
LABEL_STEP: Final[float] = 10.0  # pixels between the places a crowded label tries


@dataclass(frozen=True, slots=True)
class _Style:
    """How one kind of terrain is painted."""

    label: str
    fill: str
    stroke: str
    opacity: float = 0.85


# Each row of the terrain table (as the rules read a feature's category), with a look of its
# own for the kinds of rough ground a player tells apart: first match of the words wins.
_ROUGH_LOOKS: Final[tuple[tuple[tuple[str, ...], _Style], ...]] = (
    (("wood", "forest", "copse"), _Style("wood (rough ground)", "#2e7d32", "#1b5e20", 0.6)),
    (("field", "crop"), _Style("field (rough ground)", "#d4a537", "#a67c00", 0.6)),
    (("ruin",), _Style("ruins (rough ground)", "#a1887f", "#5d4037", 0.6)),
)
_ROWS: Final[dict[str, _Style]] = {
    "road": _Style("road", "#9e9e9e", "#757575"),
    "building": _Style("building", "#5d4037", "#3e2723", 0.9),
    "rough ground": _Style("rough ground", "#7cb342", "#558b2f", 0.5),
    "obstacle": _Style("obstacle", "url(#hatch)", "#263238"),
    "open ground": _Style("open ground", "#f1ecd2", "#a19b7d", 0.5),
}
_WRECK: Final[_Style] = _Style("wreck", "#111111", "#000000", 0.9)
_OTHER: Final[_Style] = _Style("other terrain", "#bdbdbd", "#616161", 0.5)
# a row a rules file adds (a "marsh"): painted alike, in a blue-grey none of the shipped
# rows has, and labelled by its own category
_HOUSE_FILL: Final[tuple[str, str, float]] = ("#90a4ae", "#37474f", 0.55)
# the terrain table's columns, as a feature's own row is told
_COLUMNS: Final[tuple[str, ...]] = ("infantry", "artillery", "wheeled", "tracked", "walkers")
IMPASSABLE_EDGE: Final[str] = "#b71c1c"  # the edge of ground a scenario makes impassable


@dataclass(frozen=True, slots=True)
class _Frame:
    """Table inches to SVG pixels: x right, y flipped, offset by the picture's margins."""

    scale: float
    left: float
    top: float
    height: float  # the table's height in inches

    def at(self, x: float, y: float) -> tuple[float, float]:
        """The SVG point of table point (x, y)."""
        return self.left + x * self.scale, self.top + (self.height - y) * self.scale

    def points(self, vertices: Iterable[tuple[float, float]]) -> str:
        """An SVG ``points`` attribute for a polygon in table inches."""
        return " ".join(f"{_n(px)},{_n(py)}" for px, py in (self.at(x, y) for x, y in vertices))


# -- small helpers ----------------------------------------------------------------------------


def _n(value: float) -> str:
    """A coordinate as short text (two decimals at most)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _el(parent: ET.Element, tag: str, text: str | None = None, /, **attrs: object) -> ET.Element:
    """A child element; ``class_`` and ``stroke_width`` spell ``class`` and ``stroke-width``."""
    node = ET.SubElement(
        parent,
        tag,
        {
            k.rstrip("_").replace("_", "-"): _n(v) if isinstance(v, float) else str(v)
            for k, v in attrs.items()
            if v is not None
        },
    )
    if text is not None:
        node.text = text
    return node


def _tooltip(parent: ET.Element, text: str) -> None:
    """A ``<title>`` child: the tooltip SVG viewers show on hover."""
    _el(parent, "title", text)


def terrain_style(feature: TerrainFeature, rules: Rules) -> _Style:
    """The paint for a feature: by the terrain table row the rules read its category as
    ("ruins" are rough ground, drawn as such; rough ground by its kind), a wreck (a
    feature impassable to vehicles as a wreck is, whatever its name) black."""
    if VEHICLE in feature.impassable_to:
        return _WRECK
    try:
        row = terrain_row(rules, feature.category).category
    except UsageError:  # (a game refuses such a category: never drawn)
        return _OTHER
    if row == "rough ground":
        category = feature.category.lower()
        for words, style in _ROUGH_LOOKS:
            if any(w in category for w in words):
                return style
    return _ROWS.get(row) or _Style(row, *_HOUSE_FILL)


def feature_kind(feature: TerrainFeature, rules: Rules) -> str:
    """A feature's kind as a player reads it, with the terrain table row it plays as where
    that is another ("wood, plays as rough ground"), and a row a rules file adds told by
    its cells ("marsh: infantry No Run, artillery No, ..."), as no player knows it: the
    drawing's tooltips and the solo game's terrain table both say it so."""
    style = terrain_style(feature, rules)
    row = style.label.split(" (")[-1].rstrip(")")  # (its table row)
    counts = "" if row in (feature.category.lower(), "wreck") else f", plays as {row}"
    if style != _Style(row, *_HOUSE_FILL):  # (a shipped row's, a wreck's)
        return f"{feature.category}{counts}"
    cells = terrain_row(rules, feature.category)
    told = ", ".join(
        f"{column} {cell}" for column in _COLUMNS if (cell := getattr(cells, column)) is not None
    )
    return f"{feature.category}{counts}: {told}"


def impassable_to(feature: TerrainFeature) -> str:
    """Who the scenario makes the feature impassable to, as a tooltip says it ("" none)."""
    movers = sorted(feature.impassable_to - {VEHICLE})
    return f", impassable to {' and '.join(movers)}" if movers else ""


def _centroid(vertices: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """The mean of a polygon's vertices (good enough to place a mark or a label)."""
    return (
        sum(x for x, _ in vertices) / len(vertices),
        sum(y for _, y in vertices) / len(vertices),
    )


def _star(cx: float, cy: float, outer: float, inner: float) -> list[tuple[float, float]]:
    """A five-pointed star's vertices (pixels), pointing up."""
    out = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        a = math.radians(-90 + 36 * i)
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return out


def _pixels(vertices: Iterable[tuple[float, float]]) -> str:
    """An SVG ``points`` attribute for vertices already in pixels."""
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in vertices)


def _cross(parent: ET.Element, cx: float, cy: float, r: float, **attrs: object) -> None:
    """An ✕ of two lines centred on (cx, cy) pixels."""
    _el(
        parent,
        "path",
        d=f"M{_n(cx - r)},{_n(cy - r)} L{_n(cx + r)},{_n(cy + r)} "
        f"M{_n(cx - r)},{_n(cy + r)} L{_n(cx + r)},{_n(cy - r)}",
        **attrs,
    )


def _side_colour(side: int) -> str:
    return SIDE_COLOURS[side] if 0 <= side < len(SIDE_COLOURS) else NEUTRAL


def side_names(game: BoltActionGame) -> tuple[str, str]:
    """The two armies' names from the game's start event, else "side 0" / "side 1"."""
    for event in game.events:
        armies = event.data.get("armies") if event.kind == "start" else None
        if isinstance(armies, list) and len(armies) == 2:
            return str(armies[0]), str(armies[1])
    return "side 0", "side 1"


def caption(game: BoltActionGame) -> str:
    """The caption line: scenario, turn and score."""
    a, b = game.score()
    names = side_names(game)
    over = " (game over)" if game.over else ""
    return (
        f"{game.scenario.name} — turn {game.scenario.turn_of(game.turn)}{over} — "
        f"score {names[0]} {a} : {b} {names[1]}"
    )


# -- layers -----------------------------------------------------------------------------------


def _defs(root: ET.Element) -> None:
    """The hatch pattern obstacles are filled with."""
    defs = _el(root, "defs")
    pattern = _el(
        defs,
        "pattern",
        id="hatch",
        width=6,
        height=6,
        patternUnits="userSpaceOnUse",
        patternTransform="rotate(45)",
    )
    _el(pattern, "rect", width=6, height=6, fill="#8d8d7a")
    _el(pattern, "line", x1=0, y1=0, x2=0, y2=6, stroke="#263238", stroke_width=2.5)


def _terrain(root: ET.Element, game: BoltActionGame, frame: _Frame) -> None:
    """Every terrain feature as a polygon with a tooltip; wrecks get an ✕."""
    layer = _el(root, "g", id="terrain")
    for feature in game.table.features:
        style = terrain_style(feature, game.rules)
        barred = impassable_to(feature)
        kind = style.label.split(" (")[0].replace(" ", "-")
        group = _el(layer, "g", class_=f"feature {kind}" + (" impassable" if barred else ""))
        hides = ", blocks line of sight" if feature.blocks_line_of_sight else ""
        cover = "no" if feature.cover == "none" else feature.cover
        _tooltip(
            group,
            f"{feature.name} ({feature_kind(feature, game.rules)}): {cover} cover{hides}{barred}",
        )
        _el(
            group,
            "polygon",
            class_="terrain",
            points=frame.points(feature.polygon),
            fill=style.fill,
            fill_opacity=style.opacity,
            stroke=IMPASSABLE_EDGE if barred else style.stroke,
            stroke_width=3.0 if barred else 2.0 if feature.cover == "hard" else 1.0,
            stroke_dasharray="6 3" if barred else None,
        )
        if style is _WRECK:
            cx, cy = frame.at(*_centroid(feature.polygon))
            _cross(group, cx, cy, frame.scale * 0.8, stroke="#ffffff", stroke_width=2.0)


def _zones(root: ET.Element, game: BoltActionGame, frame: _Frame) -> None:
    """Deployment zones as faint dashed outlines in their side's colour (sides as deployed)."""
    layer = _el(root, "g", id="deployment")
    names = game.scenario.sides()  # side 0 deploys in the first side listed (deployment.py)
    for zone in game.scenario.deployment:
        colour = _side_colour(names.index(zone.side))
        vertices = [(p[0], p[1]) for p in zone.polygon]
        group = _el(layer, "g", class_="zone")
        _tooltip(group, f"{zone.side} deployment zone")
        _el(
            group,
            "polygon",
            class_="zone",
            points=frame.points(vertices),
            fill=colour,
            fill_opacity=0.05,
            stroke=colour,
            stroke_opacity=0.6,
            stroke_width=1.5,
            stroke_dasharray="8 5",
        )
        x0, y1 = min(v[0] for v in vertices), max(v[1] for v in vertices)
        px, py = frame.at(x0, y1)
        _el(
            group,
            "text",
            f"{zone.side} deployment",
            x=px + 4,
            y=py + 12,
            fill=colour,
            fill_opacity=0.7,
            font_size=10,
            font_style="italic",
        )


def _objectives(root: ET.Element, game: BoltActionGame, frame: _Frame, labels: _Labels) -> None:
    """Objectives: a star, the circle within which a unit holds it, and the name."""
    layer = _el(root, "g", id="objectives")
    for obj in game.scenario.objectives:
        cx, cy = frame.at(obj.x, obj.y)
        group = _el(layer, "g", class_="objective")
        _tooltip(group, f'objective {obj.name}: {obj.points} VP, held within {OBJECTIVE_REACH:g}"')
        _el(
            group,
            "circle",
            class_="reach",
            cx=cx,
            cy=cy,
            r=OBJECTIVE_REACH * frame.scale,
            fill="none",
            stroke="#f9a825",
            stroke_width=1.0,
            stroke_dasharray="3 3",
        )
        size = frame.scale * 0.9
        _el(
            group,
            "polygon",
            class_="objective",
            points=_pixels(_star(cx, cy, size, size * 0.45)),
            fill="#fdd835",
            stroke="#5d4037",
            stroke_width=1.0,
        )
        name = f"{obj.name} ({obj.points} VP)"
        star = (cx - size, cy - size, cx + size, cy + size)
        x, y = labels.place(name, star, first_below=False, weight="bold")
        _label(group, name, x, y, weight="bold")


Box = tuple[float, float, float, float]  # left, top, right, bottom, in pixels


def _meets(a: Box, b: Box) -> bool:
    """Do two boxes overlap (more than along an edge)?"""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@dataclass(slots=True)
class _Labels:
    """Where the labels go: each clear of those already placed, and of the marks if it can.

    A label first tries its usual place, then the other side of its mark, then steps
    farther out on either side, then to the left and right; it takes the first place that
    meets no placed label, preferring one that covers no unit or objective either. Text
    widths are estimates (no font metrics in the stdlib), generous rather than tight.
    """

    marks: list[Box]
    placed: list[Box]

    @staticmethod
    def box(text: str, x: float, y: float, size: float, weight: str = "normal") -> Box:
        """The pixels a centred label of baseline ``y`` covers, by an estimate of its width."""
        width = len(text) * size * (BOLD_CHAR_WIDTH if weight == "bold" else CHAR_WIDTH)
        return (x - width / 2, y - 0.8 * size, x + width / 2, y + 0.25 * size)

    def place(
        self,
        text: str,
        mark: Box,
        *,
        first_below: bool,
        size: float = 9,
        weight: str = "normal",
    ) -> tuple[float, float]:
        """A baseline for ``text`` beside what it names (``mark``, pixels), centred on it."""
        x, below, above = (mark[0] + mark[2]) / 2, mark[3] + size, mark[1] - 3
        downs = [below + k * LABEL_STEP for k in range(4)]
        ups = [above - k * LABEL_STEP for k in range(4)]
        near, far = (downs, ups) if first_below else (ups, downs)
        tries = [(x, y) for pair in zip(near, far, strict=True) for y in pair]
        half = self.box(text, 0.0, 0.0, size, weight)[2]
        middle = (mark[1] + mark[3]) / 2 + 0.3 * size
        tries += [(mark[2] + half + 4, middle), (mark[0] - half - 4, middle)]
        boxes = [self.box(text, tx, ty, size, weight) for tx, ty in tries]
        clear = [i for i, b in enumerate(boxes) if not any(_meets(b, p) for p in self.placed)]
        best = next(
            (i for i in clear if not any(_meets(boxes[i], m) for m in self.marks)),
            clear[0] if clear else 0,
        )
        self.placed.append(boxes[best])
        return tries[best]


def _label(
    parent: ET.Element, text: str, x: float, y: float, *, weight: str = "normal", size: int = 9
) -> None:
    """Small centred text with a white halo so it reads over terrain."""
    _el(
        parent,
        "text",
        text,
        x=x,
        y=y,
        text_anchor="middle",
        font_size=size,
        font_weight=weight,
        fill="#111111",
        stroke="#ffffff",
        stroke_width=2.5,
        stroke_opacity=0.8,
        paint_order="stroke",
        class_="label",
    )


def unit_tooltip(unit: UnitState) -> str:
    """Name, models alive of those at the start, pins, and what has become of it."""
    bits = [
        f"{unit.name} ({unit.kind})",
        f"{len(unit.alive_models)}/{unit.start_models} models",
        f"{unit.pins} pin{'s' if unit.pins != 1 else ''}",
    ]
    if unit.vehicle is not None and unit.immobilised:
        bits.append("immobilised")
    if unit.order or unit.retained:
        bits.append(f"order {unit.order or unit.retained}")
    if unit.destroyed:
        bits.append("destroyed")
    return " — ".join(bits)


def _vehicle(group: ET.Element, unit: UnitState, frame: _Frame, colour: str) -> None:
    """A vehicle: a 2"×3" rectangle (walkers a hexagon) turned to its heading, a nose mark."""
    assert unit.vehicle is not None
    cx, cy = frame.at(unit.anchor.x, unit.anchor.y)
    turn = f"rotate({_n(unit.heading)} {_n(cx)} {_n(cy)})"
    dead = unit.destroyed
    paint: dict[str, object] = {
        "fill": colour,
        "fill_opacity": 0.15 if dead else 0.75,
        "stroke": colour if dead else "#111111",
        "stroke_width": 1.2,
        "stroke_dasharray": "4 3" if dead else None,
        "transform": turn,
    }
    if unit.vehicle.kind == "walker":
        r = WALKER_RADIUS * frame.scale
        hexagon = [
            (cx + r * math.sin(math.radians(a)), cy - r * math.cos(math.radians(a)))
            for a in range(0, 360, 60)
        ]
        _el(group, "polygon", class_="walker", points=_pixels(hexagon), **paint)
        nose = r
    else:
        w, h = (v * frame.scale for v in VEHICLE_SIZE)
        _el(
            group,
            "rect",
            class_="vehicle",
            x=cx - w / 2,
            y=cy - h / 2,
            width=w,
            height=h,
            rx=2,
            **paint,
        )
        nose = h / 2
    # the facing: a short line from the centre to the front
    _el(
        group,
        "line",
        x1=cx,
        y1=cy,
        x2=cx,
        y2=cy - nose,
        stroke="#ffffff" if not dead else colour,
        stroke_width=2.0,
        transform=turn,
    )
    if dead:
        _cross(group, cx, cy, frame.scale * 0.7, stroke=colour, stroke_width=1.5)


def _infantry(group: ET.Element, unit: UnitState, frame: _Frame, colour: str) -> None:
    """Foot models: a circle per living model; a destroyed unit's models as faint crosses."""
    r = MODEL_RADIUS * frame.scale
    for model in unit.models:
        px, py = frame.at(model.x, model.y)
        if model.alive and not unit.destroyed:
            _el(
                group,
                "circle",
                class_="model",
                cx=px,
                cy=py,
                r=r,
                fill=colour,
                stroke="#111111",
                stroke_width=0.6,
            )
        elif unit.destroyed:
            _cross(
                group, px, py, r, class_="dead", stroke=colour, stroke_opacity=0.4, stroke_width=1.2
            )


def _mark(unit: UnitState, frame: _Frame) -> Box:
    """The pixels a unit's drawing covers, centred on its anchor (its label goes beside it)."""
    cx, cy = frame.at(unit.anchor.x, unit.anchor.y)
    if unit.vehicle is not None:  # any heading: the half-diagonal of its 2"x3" outline
        wide = high = 1.8 * frame.scale
    else:
        r = MODEL_RADIUS * frame.scale
        places = [frame.at(m.x, m.y) for m in unit.models]
        wide = max(abs(x - cx) for x, _ in places) + r
        high = max(abs(y - cy) for _, y in places) + r + 2
    return (cx - wide, cy - high, cx + wide, cy + high)


def _units(root: ET.Element, game: BoltActionGame, frame: _Frame, labels: _Labels) -> None:
    """Every unit in its side's colour, labelled with its name (below or above, alternately,
    or where it is clear of the labels placed before it)."""
    layer = _el(root, "g", id="units")
    for unit in game.units:
        colour = _side_colour(unit.side)
        state = "destroyed" if unit.destroyed else "alive"
        group = _el(layer, "g", class_=f"unit side{unit.side} {state}", id=f"unit-{unit.uid}")
        _tooltip(group, unit_tooltip(unit))
        if unit.vehicle is not None:
            _vehicle(group, unit, frame, colour)
        else:
            _infantry(group, unit, frame, colour)
        x, y = labels.place(unit.name, _mark(unit, frame), first_below=unit.uid % 2 == 0)
        _label(group, unit.name, x, y)


def _legend(root: ET.Element, game: BoltActionGame, x: float, y: float, width: float) -> float:
    """A wrapped row of swatches; returns the height it took."""
    layer = _el(root, "g", id="legend")
    names = side_names(game)
    seen: dict[str, _Style] = {}
    for feature in game.table.features:
        style = terrain_style(feature, game.rules)
        seen.setdefault(style.label, style)
    items: list[tuple[str, str, str]] = [
        ("wreck" if style is _WRECK else "terrain", style.label, style.fill)
        for style in seen.values()
    ]
    if any(impassable_to(f) for f in game.table.features):
        items.append(("impassable", "impassable (red edge)", IMPASSABLE_EDGE))
    items += [
        ("model", names[0], SIDE_COLOURS[0]),
        ("model", names[1], SIDE_COLOURS[1]),
        ("vehicle", "vehicle", NEUTRAL),
        ("walker", "walker", NEUTRAL),
        ("dead", "destroyed", NEUTRAL),
        ("zone", "deployment zone", NEUTRAL),
    ]
    if game.scenario.objectives:
        items.append(("objective", "objective", "#fdd835"))
    cx, cy, row = x, y, 16.0
    for kind, text, colour in items:
        step = 22 + 5.5 * len(text) + 12
        if cx + step > x + width and cx > x:
            cx, cy = x, cy + row
        item = _el(layer, "g", class_="legend-item")
        _swatch(item, kind, colour, cx, cy)
        _el(item, "text", text, x=cx + 22, y=cy + 9, font_size=10, fill="#222222")
        cx += step
    return cy + row - y


def _key_box(parent: ET.Element, x: float, y: float, fill: str, stroke: str, width: float) -> None:
    """A legend's key box (18×10 pixels): filled for terrain, or an outline drawn dashed
    (``fill`` "none": a deployment zone, impassable ground)."""
    dashes = {"stroke_dasharray": "4 2"} if fill == "none" else {}
    _el(
        parent,
        "rect",
        x=x,
        y=y,
        width=18,
        height=10,
        fill=fill,
        stroke=stroke,
        stroke_width=width,
        **dashes,
    )


def _swatch(parent: ET.Element, kind: str, colour: str, x: float, y: float) -> None:
    """The little picture in front of a legend entry (an 18×10 pixel box)."""
    if kind in ("terrain", "wreck"):
        _key_box(parent, x, y, colour, "#333333", 0.8)
        if kind == "wreck":
            _cross(parent, x + 9, y + 5, 3.5, stroke="#ffffff", stroke_width=1.2)
    elif kind == "impassable":
        _key_box(parent, x, y, "none", colour, 2.0)
    elif kind == "model":
        _el(
            parent,
            "circle",
            cx=x + 9,
            cy=y + 5,
            r=4,
            fill=colour,
            stroke="#111111",
            stroke_width=0.6,
        )
    elif kind == "vehicle":
        _el(
            parent,
            "rect",
            x=x + 3,
            y=y,
            width=12,
            height=10,
            rx=1.5,
            fill=colour,
            stroke="#111111",
            stroke_width=0.8,
        )
    elif kind == "walker":
        hexagon = [
            (x + 9 + 5.5 * math.cos(math.radians(a)), y + 5 + 5.5 * math.sin(math.radians(a)))
            for a in range(30, 390, 60)
        ]
        _el(
            parent,
            "polygon",
            points=_pixels(hexagon),
            fill=colour,
            stroke="#111111",
            stroke_width=0.8,
        )
    elif kind == "dead":
        _cross(parent, x + 9, y + 5, 4, stroke=colour, stroke_width=1.2)
    elif kind == "zone":
        _key_box(parent, x, y, "none", colour, 1.2)
    else:
        _el(
            parent,
            "polygon",
            points=_pixels(_star(x + 9, y + 5, 6, 2.7)),
            fill=colour,
            stroke="#5d4037",
            stroke_width=0.8,
        )


# -- the picture ------------------------------------------------------------------------------


def _grid(root: ET.Element, game: BoltActionGame, frame: _Frame, step: float) -> ET.Element:
    """Faint lines every ``step`` inches, numbered along the bottom and left edges, so a
    player can read a place off the picture and type it. The numbers are returned, to be
    put on top of the terrain."""
    table = game.table
    layer = _el(root, "g", id="grid", stroke="#8a9470", stroke_width=0.5, stroke_opacity=0.6)
    numbers = ET.Element("g", {"id": "grid-numbers", "font-size": "8", "fill": "#4a5040"})
    x = step
    while x < table.width:
        (x0, y0), (_, y1) = frame.at(x, 0.0), frame.at(x, table.height)
        _el(layer, "line", x1=x0, y1=y0, x2=x0, y2=y1)
        _el(numbers, "text", f"{x:g}", x=x0 + 2, y=y0 - 2)
        x += step
    y = step
    while y < table.height:
        (x0, y0), (x1, _) = frame.at(0.0, y), frame.at(table.width, y)
        _el(layer, "line", x1=x0, y1=y0, x2=x1, y2=y0)
        _el(numbers, "text", f"{y:g}", x=x0 + 2, y=y0 - 2)
        y += step
    return numbers


def _marked(root: ET.Element, game: BoltActionGame, frame: _Frame, uids: Collection[int]) -> None:
    """A dashed outline around each live unit of ``uids`` (the units a player is asked
    about), under the units' drawings."""
    layer = _el(root, "g", id="marked", fill="none", stroke="#c8901a", stroke_width=2.0)
    for unit in game.units:
        if unit.uid in uids and not unit.destroyed:
            x0, y0, x1, y1 = _mark(unit, frame)
            pad = 3.0
            _el(
                layer,
                "rect",
                x=x0 - pad,
                y=y0 - pad,
                width=x1 - x0 + 2 * pad,
                height=y1 - y0 + 2 * pad,
                rx=4.0,
                stroke_dasharray="5 3",
                class_="marked",
            )


def table_svg(
    game: BoltActionGame,
    *,
    scale: float = 12.0,
    title: str | None = None,
    grid: float | None = None,
    marked: Collection[int] = (),
) -> str:
    """The game's table as an SVG document: ``scale`` pixels per inch, legend and caption below.

    ``title`` is drawn above the table (and is the document's ``<title>``; the scenario's
    name is the default ``<title>``). ``grid``: faint lines this many inches apart,
    numbered (for a person playing, who names places in inches); ``marked``: the uids of
    units to outline (those the person is asked about).
    """
    if not (scale > 0 and math.isfinite(scale)):
        raise ValueError(f"scale must be a positive number, not {scale!r}")
    table = game.table
    heading = 24.0 if title else 0.0
    frame = _Frame(scale, MARGIN, MARGIN + heading, table.height)
    width = table.width * scale + 2 * MARGIN
    root = ET.Element("svg", {"xmlns": SVG_NS, "version": "1.1"})
    root.set("font-family", "DejaVu Sans, Helvetica, Arial, sans-serif")
    _tooltip(root, title or game.scenario.name)
    _defs(root)
    if title:
        _el(
            root,
            "text",
            title,
            id="title",
            x=MARGIN,
            y=MARGIN + 14,
            font_size=16,
            font_weight="bold",
            fill="#111111",
        )
    left, top = frame.at(0.0, table.height)
    _el(
        root,
        "rect",
        id="table",
        x=left,
        y=top,
        width=table.width * scale,
        height=table.height * scale,
        fill="#dfe8c8",
        stroke="#4e4e3a",
        stroke_width=2.0,
    )
    numbers = _grid(root, game, frame, grid) if grid else None
    _zones(root, game, frame)
    _terrain(root, game, frame)
    if numbers is not None:
        root.append(numbers)
    size = frame.scale * 0.9  # (an objective's star)
    stars = [(*frame.at(o.x, o.y), size) for o in game.scenario.objectives]
    marks = [(x - r, y - r, x + r, y + r) for x, y, r in stars]
    labels = _Labels(marks + [_mark(u, frame) for u in game.units], [])
    _objectives(root, game, frame, labels)
    if marked:
        _marked(root, game, frame, marked)
    _units(root, game, frame, labels)
    bottom = top + table.height * scale
    words = caption(game)
    room = table.width * scale
    # a long caption (long army names) is set smaller to fit the table's width, not cut off
    size = min(CAPTION_SIZE, room / (len(words) * BOLD_CHAR_WIDTH))
    _el(
        root,
        "text",
        words,
        id="caption",
        x=MARGIN,
        y=bottom + 20,
        font_size=round(size, 1),
        font_weight="bold",
        fill="#111111",
    )
    used = _legend(root, game, MARGIN, bottom + 30, table.width * scale)
    height = bottom + 30 + used + MARGIN
    root.set("width", _n(width))
    root.set("height", _n(height))
    root.set("viewBox", f"0 0 {_n(width)} {_n(height)}")
    ET.indent(root, space=" ")
    # marked as kriegsspiel's, so that only a drawing it made is ever replaced
    head = f'<?xml version="1.0" encoding="UTF-8"?>\n{svg_mark()}\n'
    return head + ET.tostring(root, encoding="unicode")


def write_svg(
    game: BoltActionGame,
    path: str | Path,
    *,
    scale: float = 12.0,
    title: str | None = None,
    grid: float | None = None,
    marked: Collection[int] = (),
) -> None:
    """Write :func:`table_svg` of the game to ``path`` (UTF-8)."""
    text = table_svg(game, scale=scale, title=title, grid=grid, marked=marked)
    Path(path).write_text(text, encoding="utf-8")
