"""The SVG picture of a Bolt Action family game's table."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from kriegsspiel.core.scenario import load_scenario, sample_scenarios
from kriegsspiel.render.table_svg import table_svg, write_svg
from kriegsspiel.rulesets.bolt_action.army import load_army, sample_armies
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame

NS = "{http://www.w3.org/2000/svg}"


def _game(scenario: int = 1) -> BoltActionGame:
    army_a, army_b = (load_army(p, "konflikt47") for p in sample_armies("konflikt47")[:2])
    return BoltActionGame(
        "konflikt47", load_scenario(sample_scenarios()[scenario]), (army_a, army_b), seed=1
    )


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def _layer(root: ET.Element, name: str) -> ET.Element:
    found = root.find(f"{NS}g[@id='{name}']")
    assert found is not None, name
    return found


def _living_model_circles(root: ET.Element) -> list[ET.Element]:
    return [c for c in _layer(root, "units").iter(f"{NS}circle") if c.get("class") == "model"]


def _living_foot_models(game: BoltActionGame) -> int:
    return sum(len(u.alive_models) for u in game.units if u.vehicle is None and not u.destroyed)


def _texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}text")]


def test_draws_terrain_models_vehicles_and_caption() -> None:
    game = _game()
    root = _parse(table_svg(game))
    assert root.tag == f"{NS}svg"
    terrain = _layer(root, "terrain").findall(f".//{NS}polygon")
    assert len(terrain) == len(game.table.features)
    tips = [t.text or "" for t in _layer(root, "terrain").iter(f"{NS}title")]
    assert all(f.name in tip for f, tip in zip(game.table.features, tips, strict=True))
    assert len(_living_model_circles(root)) == _living_foot_models(game) > 0
    units = _layer(root, "units")
    walkers = sum(1 for u in game.units if u.vehicle and u.vehicle.kind == "walker")
    tanks = sum(1 for u in game.units if u.vehicle and u.vehicle.kind != "walker")
    assert len([p for p in units.iter(f"{NS}polygon") if p.get("class") == "walker"]) == walkers
    assert len([r for r in units.iter(f"{NS}rect") if r.get("class") == "vehicle"]) == tanks
    drawn = ET.tostring(units, encoding="unicode")
    assert all(f"rotate({u.heading:g} " in drawn for u in game.units if u.vehicle)
    assert {u.name for u in game.units} <= set(_texts(units))
    caption = root.find(f".//{NS}text[@id='caption']")
    assert caption is not None and caption.text is not None
    assert game.scenario.name in caption.text and "turn 1" in caption.text
    a, b = game.score()
    assert f"{a} : {b}" in caption.text
    assert len(_layer(root, "legend")) > 0


def test_a_long_caption_is_set_smaller_to_fit_the_table() -> None:
    """Two long army names made the caption run past the picture's right edge."""
    from kriegsspiel.render.table_svg import BOLD_CHAR_WIDTH, CAPTION_SIZE

    for scale in (12.0, 6.0):
        game = _game()
        root = _parse(table_svg(game, scale=scale))
        caption = root.find(f".//{NS}text[@id='caption']")
        assert caption is not None and caption.text is not None
        size = float(caption.get("font-size", "0"))
        assert 0 < size <= CAPTION_SIZE
        # as wide as the table at most (by the same per-character estimate the layout uses)
        assert len(caption.text) * size * BOLD_CHAR_WIDTH <= game.table.width * scale + 0.1
    assert size < CAPTION_SIZE  # at 6 pixels an inch this caption needed shrinking


def test_objectives_are_named() -> None:
    game = _game(0)  # the meeting engagement has no objectives; hold the crossroads has
    assert game.scenario.objectives
    root = _parse(table_svg(game, title="Crossroads <demo> & co"))
    texts = " ".join(_texts(_layer(root, "objectives")))
    assert all(obj.name in texts for obj in game.scenario.objectives)
    title = root.find(f"{NS}text[@id='title']")
    assert title is not None and title.text == "Crossroads <demo> & co"


def test_destroyed_units_are_no_longer_drawn_living() -> None:
    game = _game()
    unit = max((u for u in game.units if u.vehicle is None), key=lambda u: len(u.models))
    before = len(_living_model_circles(_parse(table_svg(game))))
    unit.destroyed = True
    for m in unit.models:
        m.alive = False
    root = _parse(table_svg(game))
    assert len(_living_model_circles(root)) == before - len(unit.models)
    group = _layer(root, "units").find(f"{NS}g[@id='unit-{unit.uid}']")
    assert group is not None and "destroyed" in (group.get("class") or "")
    assert not group.findall(f"{NS}circle")
    assert len(group.findall(f"{NS}path[@class='dead']")) == len(unit.models)


def test_wrecks_and_knocked_out_vehicles() -> None:
    game = _game()
    tank = next(u for u in game.units if u.vehicle and u.vehicle.kind != "walker")
    tank.destroyed = True  # as the game does it: the model stays "alive", a wreck appears
    game.table = game.table.wreck(tank.anchor, name=f"wreck of {tank.name}")
    root = _parse(table_svg(game))
    wreck = next(g for g in _layer(root, "terrain") if "wreck" in (g.get("class") or ""))
    assert wreck.find(f"{NS}path") is not None  # the ✕
    group = _layer(root, "units").find(f"{NS}g[@id='unit-{tank.uid}']")
    assert group is not None and "destroyed" in (group.get("class") or "")
    assert group.find(f"{NS}rect[@class='vehicle']") is not None


def test_write_svg(tmp_path: Path) -> None:
    game = _game()
    path = tmp_path / "table.svg"
    write_svg(game, path, scale=6.0)
    root = _parse(path.read_text(encoding="utf-8"))
    assert float(root.get("width") or 0) == pytest.approx(72 * 6.0 + 24)
    table = root.find(f"{NS}rect[@id='table']")
    assert table is not None and table.get("width") == "432"


@pytest.mark.parametrize("scenario", [0, 1])
def test_each_deployment_zone_is_outlined_in_the_colour_of_the_side_deployed_in_it(
    scenario: int,
) -> None:
    """A zone's outline is the colour of the side whose units stand in it at the start
    (side 0 takes the first side listed, whatever the names sort as)."""
    import shapely

    from kriegsspiel.render.table_svg import SIDE_COLOURS

    game = _game(scenario)
    zones = _layer(_parse(table_svg(game)), "deployment").findall(f".//{NS}polygon")
    assert len(zones) == len(game.scenario.deployment)
    for zone, drawn in zip(game.scenario.deployment, zones, strict=True):
        area = shapely.Polygon(zone.polygon).buffer(1e-6)
        inside = {
            u.side for u in game.units for m in u.models if area.contains(shapely.Point(m.x, m.y))
        }
        assert len(inside) == 1, zone.side
        assert drawn.get("stroke") == SIDE_COLOURS[inside.pop()]


def _label_boxes(root: ET.Element) -> list[tuple[str, float, float, float, float]]:
    """Each label's text and the pixels it covers: 0.6 of the font size a character (0.62
    bold), as wide as DejaVu Sans's average letter, from 0.8 of the size above the baseline
    to 0.25 below."""
    boxes = []
    for t in root.iter(f"{NS}text"):
        if t.get("class") != "label":
            continue
        size, text = float(t.get("font-size") or 0), t.text or ""
        width = len(text) * size * (0.62 if t.get("font-weight") == "bold" else 0.6)
        x, y = float(t.get("x") or 0), float(t.get("y") or 0)
        boxes.append((text, x - width / 2, y - 0.8 * size, x + width / 2, y + 0.25 * size))
    return boxes


def _overlapping(root: ET.Element) -> list[tuple[str, str]]:
    boxes = _label_boxes(root)
    return [
        (a[0], b[0])
        for i, a in enumerate(boxes)
        for b in boxes[:i]
        if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]
    ]


def test_labels_of_crowded_units_do_not_overlap() -> None:
    """Every unit moved into a block by an objective, four a row, 3" apart and 5" between
    rows: the usual places (below, above) put seven names on others; each label finds a
    clear place instead."""
    game = _game(0)  # (the crossroads: it has objectives)
    objective = game.scenario.objectives[0]
    for k, unit in enumerate(game.units):
        dx = objective.x - 4 + 3 * (k % 4) - unit.anchor.x
        dy = objective.y + 5 - 5 * (k // 4) - unit.anchor.y
        for m in unit.models:
            m.x, m.y = m.x + dx, m.y + dy
    root = _parse(table_svg(game))
    assert len(_label_boxes(root)) == len(game.units) + len(game.scenario.objectives)
    assert _overlapping(root) == []


def test_a_label_with_room_stays_in_its_usual_place() -> None:
    """At the start nothing is crowded: a unit's name is 9 px under its models (even ids)
    or 3 px over them (odd ids), centred on it, as before labels were placed with care."""
    game = _game(1)
    root = _parse(table_svg(game))
    assert _overlapping(root) == []
    scale, top, height = 12.0, 12.0, game.table.height
    for unit in game.units:
        group = _layer(root, "units").find(f"{NS}g[@id='unit-{unit.uid}']")
        assert group is not None
        label = group.find(f"{NS}text[@class='label']")
        assert label is not None and label.text == unit.name
        cx, cy = 12.0 + unit.anchor.x * scale, top + (height - unit.anchor.y) * scale
        if unit.vehicle is not None:
            half = 1.8 * scale
        else:
            half = max(abs(m.y - unit.anchor.y) for m in unit.models) * scale + 0.35 * scale + 2
        want = cy + half + 9 if unit.uid % 2 == 0 else cy - half - 3
        assert float(label.get("x") or 0) == pytest.approx(cx, abs=0.01)
        assert float(label.get("y") or 0) == pytest.approx(want, abs=0.01)


def test_a_grid_is_drawn_only_when_asked_with_each_line_numbered_in_inches() -> None:
    game = _game()
    assert _parse(table_svg(game)).find(f"{NS}g[@id='grid']") is None
    root = _parse(table_svg(game, grid=6.0))
    lines = _layer(root, "grid").findall(f"{NS}line")
    numbers = [t.text for t in _layer(root, "grid-numbers").findall(f"{NS}text")]
    width, height = game.table.width, game.table.height  # 72 by 48: 11 and 7 lines inside
    across = [f"{x:g}" for x in range(6, int(width), 6)]
    up = [f"{y:g}" for y in range(6, int(height), 6)]
    assert numbers == across + up and len(lines) == len(numbers) == 18
    # the line at x = 12" runs from the bottom edge to the top, 12 inches from the left edge
    table = root.find(f"{NS}rect[@id='table']")
    assert table is not None
    left, top = float(table.get("x", 0)), float(table.get("y", 0))
    second = lines[1]
    assert float(second.get("x1", 0)) == pytest.approx(left + 12 * 12.0)
    assert float(second.get("y2", 0)) == pytest.approx(top)
    # the numbers are drawn over the terrain, which would hide them
    order = [child.get("id") for child in root]
    assert order.index("grid") < order.index("terrain") < order.index("grid-numbers")


def test_the_units_a_player_is_asked_about_are_outlined_and_no_others() -> None:
    game = _game()
    assert _parse(table_svg(game)).find(f"{NS}g[@id='marked']") is None
    asked = [u.uid for u in game.units if u.side == 0][:3]
    game.units[asked[2]].destroyed = True  # (a destroyed unit is not outlined)
    root = _parse(table_svg(game, marked=asked))
    outlines = _layer(root, "marked").findall(f"{NS}rect")
    assert len(outlines) == 2 and all(o.get("class") == "marked" for o in outlines)
    order = [child.get("id") for child in root]
    assert order.index("marked") < order.index("units")  # (under the units' drawings)


def test_terrain_is_drawn_as_the_rules_read_it() -> None:
    """Ruins play as rough ground, so are drawn and told as "ruins (rough ground)", not
    as a building; open ground is drawn as open ground, not "other terrain"; a feature
    named "Wreck..." is drawn as what it is, not as a wreck; ground a scenario makes
    impassable has a red edge and says so (probe findings)."""
    from kriegsspiel.core.scenario import parse_scenario

    text = """name: Looks
turns: 3
victory: units destroyed
terrain:
  - {name: Ruined chapel, category: ruins, cover: hard, polygon: [[30, 20], [36, 20], [36, 26], [30, 26]]}
  - {name: Meadow, category: open, polygon: [[2, 20], [12, 20], [12, 26], [2, 26]]}
  - {name: Wreck of the old mill, category: building, cover: hard, polygon: [[50, 20], [56, 20], [56, 26], [50, 26]]}
  - {name: River, category: open ground, impassable_to: [everyone], polygon: [[0, 28], [72, 28], [72, 30], [0, 30]]}
deployment:
  - {side: south, polygon: [[0, 0], [72, 0], [72, 12], [0, 12]]}
  - {side: north, polygon: [[0, 36], [72, 36], [72, 48], [0, 48]]}
"""
    army_a, army_b = (load_army(p, "konflikt47") for p in sample_armies("konflikt47")[:2])
    game = BoltActionGame("konflikt47", parse_scenario(text, "looks.yaml"), (army_a, army_b))
    root = _parse(table_svg(game))
    groups = list(_layer(root, "terrain"))
    classes = [g.get("class") for g in groups]
    assert classes == [
        "feature ruins",
        "feature open-ground",
        "feature building",
        "feature open-ground impassable",
    ]
    tips = [g.findtext(f"{NS}title") for g in groups]
    assert tips[0] == "Ruined chapel (ruins, plays as rough ground): hard cover"
    assert tips[1] == "Meadow (open, plays as open ground): no cover"
    assert tips[3] == "River (open ground): no cover, impassable to everyone"
    assert groups[2].find(f"{NS}path") is None  # no wreck's ✕ on the mill
    legend = [t.text for t in _layer(root, "legend").iter(f"{NS}text")]
    assert "ruins (rough ground)" in legend and "building" in legend
    assert "impassable (red edge)" in legend and "other terrain" not in legend
