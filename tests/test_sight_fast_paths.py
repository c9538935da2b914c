"""The quick paths of the sight and cover questions give the plain paths' answers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_moves_fast import positions
from test_table import points, tables

from kriegsspiel.core.scenario import load_scenario, sample_scenarios
from kriegsspiel.core.table import COVER_REACH, Point, Table, TerrainFeature, rectangle
from kriegsspiel.rulesets.bolt_action.army import load_army, sample_armies
from kriegsspiel.rulesets.bolt_action.game.candidates import _destinations, _goals
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.table_rules import _unit_cover, unit_cover
from kriegsspiel.rulesets.bolt_action.game.units import UnitState


@st.composite
def near_the_edges(draw: st.DrawFn) -> tuple[Table, list[Point]]:
    """A table and points just inside and just beyond cover reach of its features' boxes
    (where a line of fire may or may not pass through one within reach of the point)."""
    table = draw(tables())
    chosen = []
    for f in table.features:
        xs, ys = [x for x, _ in f.polygon], [y for _, y in f.polygon]
        off = draw(st.floats(0.5 * COVER_REACH, 1.5 * COVER_REACH))
        along = draw(st.floats(0.0, 1.0))
        x = min(xs) + along * (max(xs) - min(xs))
        y = min(ys) + along * (max(ys) - min(ys))
        chosen += [Point(min(xs) - off, y), Point(max(xs) + off, y)]
        chosen += [Point(x, min(ys) - off), Point(x, max(ys) + off)]
    return table, chosen


@settings(max_examples=100)
@given(near_the_edges(), st.lists(points, min_size=1, max_size=4))
def test_a_target_in_the_open_has_no_cover_from_anywhere(
    case: tuple[Table, list[Point]], shooters: list[Point]
) -> None:
    table, targets = case
    shooters = shooters + targets  # (one of them on the target)
    for b in targets:
        if table.in_the_open(b.x, b.y):
            fresh = Table(table.width, table.height, table.features)  # nothing remembered
            assert [fresh.cover_between(a, b) for a in shooters] == ["none"] * len(shooters)


@pytest.mark.parametrize(
    ("ruleset", "seed"), [("konflikt47", 1), ("konflikt47", 2), ("bolt-action-1", 3)]
)
def test_a_units_cover_is_the_plain_answer(ruleset: str, seed: int) -> None:
    """:func:`unit_cover` (remembered, and "none" at once for a unit in the open) answers
    as :func:`_unit_cover` from every other unit's place and some of its destinations."""
    asked = opened = 0
    for game in positions(ruleset, seed, "tactical", every=4):
        live = [u for u in game.units if not u.destroyed]
        for shooter in live:
            places = [shooter.anchor, *_destinations(game, shooter, False, *_goals(game, shooter))]
            for target in live:
                for at in places[:4]:
                    plain = _unit_cover(game.rules, game.table, at, target)
                    assert unit_cover(game.rules, game.table, at, target) == plain
                    asked += 1
                    opened += all(game.table.in_the_open(m.x, m.y) for m in target.alive_models)
    assert asked > 100 and opened > 10  # units were asked about, some of them in the open


def test_a_target_at_exactly_the_reach_is_within_it() -> None:
    """The batch's "within reach" is ``<=`` on numpy's distance, as one by one."""
    table = Table(
        features=(TerrainFeature("house", "building", "hard", rectangle(30, 30, 34, 34), True),)
    )
    origins = (10.0, 10.0, 40.0, 40.0)
    targets = [(13.0, 14.0), (16.0, 18.0, 13.5, 14.0), (43.0, 44.0)]
    for reach in (5.0, 10.0):
        fresh = Table(table.width, table.height, table.features)
        expected = [fresh.sees_within(origins, t, reach) for t in targets]
        assert table.sees_within_each(origins, targets, reach) == expected
        assert expected[0] and expected[2]  # exactly 5" away


def _plain_can_shoot(
    game: BoltActionGame, unit: UnitState, target: UnitState, moving: bool
) -> bool:
    """Any of the unit's models' points in sight of a target model's within the longest
    range of any live model's weapons that can fire: the visibility and distance matrices."""
    reach = max(
        [
            game._reach(m.weapons, m.used_one_shot, moving, unit.vehicle is not None)
            for m in unit.alive_models
        ],
        default=0.0,
    )
    ours, theirs = [m.point for m in unit.alive_models], [m.point for m in target.alive_models]
    if reach == 0 or not ours or not theirs:
        return False
    table = Table(game.table.width, game.table.height, game.table.features)  # remembers nothing
    return bool((table.visibility(ours, theirs) & (table.distances(ours, theirs) <= reach)).any())


@pytest.mark.parametrize(("ruleset", "seed"), [("konflikt47", 4), ("bolt-action-1", 5)])
def test_can_shoot_is_the_plain_answer(ruleset: str, seed: int) -> None:
    """Through real games, and with every other model's one-shot weapon marked used (so
    that models armed alike, side by side, differ in it)."""
    asked = 0
    for game in positions(ruleset, seed, "tactical", every=6):
        live = [u for u in game.units if not u.destroyed]
        for flip in (False, True):
            if flip:
                for u in live:
                    for m in u.models[::2]:
                        m.used_one_shot = not m.used_one_shot
            for unit in live:
                for target in live:
                    if target.side != unit.side:
                        for moving in (False, True):
                            plain = _plain_can_shoot(game, unit, target, moving)
                            assert game.can_shoot(unit, target, moving=moving) == plain
                            asked += 1
            if flip:
                for u in live:
                    for m in u.models[::2]:
                        m.used_one_shot = not m.used_one_shot
    assert asked > 100


def test_models_armed_alike_that_differ_in_a_used_one_shot_weapon() -> None:
    """Two models sharing one weapons tuple, a one-shot weapon only, the first of them
    having fired it: the second still reaches a target 6" away."""
    armies = [load_army(p, "bolt-action-1") for p in sample_armies("bolt-action-1")[:2]]
    scenario = load_scenario(sample_scenarios()[0])
    game = BoltActionGame("bolt-action-1", scenario, (armies[0], armies[1]), seed=1)
    unit = next(u for u in game.units if any("Panzerfaust" in m.weapons for m in u.models))
    shared = ("Panzerfaust",)
    for i, m in enumerate(unit.models):
        m.weapons, m.used_one_shot, m.alive = shared, i == 0, i < 2
    first = unit.models[0]
    target = next(u for u in game.units if u.side != unit.side)
    for m in target.models:
        m.x, m.y = first.x, first.y + (6.0 if first.y < 24 else -6.0)
    assert _plain_can_shoot(game, unit, target, False)
    assert game.can_shoot(unit, target, moving=False)


@pytest.mark.parametrize("reach", [0.5, 6.0, 24.0])
def test_targets_at_the_edge_of_reach_along_either_axis_are_answered_as_one_by_one(
    reach: float,
) -> None:
    """:meth:`Table.sees_within_each` turns away a target whose box misses the origins'
    box widened by the reach before the exact gap: targets a hair either side of the
    reach (straight off along x or y, and corner to corner) get the matrices' answers."""
    table = Table(
        features=(TerrainFeature("house", "building", "hard", rectangle(30, 30, 34, 34), True),)
    )
    origins = (10.0, 10.0, 12.0, 11.0)
    corner = reach / 2**0.5
    targets: list[tuple[float, ...]] = []
    for step in (-1e-5, -1e-7, 0.0, 1e-7, 1e-6, 3e-6, 1e-5):
        far = reach + step
        targets += [
            (12.0 + far, 11.0),
            (10.0 - far, 10.0),
            (12.0, 11.0 + far),
            (10.0, 10.0 - far),
            (12.0 + corner + step, 11.0 + corner + step),
            (12.0 + far, 11.0, 50.0, 50.0),  # a unit strung out past the reach
        ]
    points = [Point(origins[i], origins[i + 1]) for i in range(0, len(origins), 2)]
    expected = []
    for flat in targets:
        them = [Point(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]
        seen = table.visibility(points, them) & (table.distances(points, them) <= reach)
        expected.append(bool(np.any(seen)))
    assert Table(features=table.features).sees_within_each(origins, targets, reach) == expected
    assert any(expected) and not all(expected)
