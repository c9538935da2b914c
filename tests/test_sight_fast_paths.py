"""The quick paths of the sight and cover questions give the plain paths' answers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.core.table import COVER_REACH, Point, Table
from kriegsspiel.rulesets.bolt_action.game.candidates import _destinations, _goals
from kriegsspiel.rulesets.bolt_action.game.table_rules import _unit_cover, unit_cover
from tests.test_moves_fast import positions
from tests.test_table import points, tables


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


@settings(max_examples=100, deadline=None)
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
                    plain = _unit_cover(game.table, at, target)
                    assert unit_cover(game.table, at, target) == plain
                    asked += 1
                    opened += all(game.table.in_the_open(m.x, m.y) for m in target.alive_models)
    assert asked > 100 and opened > 10  # units were asked about, some of them in the open
