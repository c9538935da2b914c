"""Round 17's fast paths in the table's sight and the exact odds, each held to the plain one."""

from __future__ import annotations

from itertools import permutations

import numpy as np
import pytest

from kriegsspiel.core.table import Point, Table, TerrainFeature, rectangle
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action import rules_for
from kriegsspiel.rulesets.bolt_action.attack import exact_vehicle, knock_out_chance
from kriegsspiel.rulesets.bolt_action.shooting import Group, Shot, Situation, plan_shot

EDITIONS = ["konflikt47", "bolt-action-1"]


def _shots(ruleset: str, target: str, pins: int) -> list[Shot]:
    """Shots that can hurt armour, set it on fire, or only pin it, at ``target``."""
    rules = rules_for(ruleset)
    situation = Situation(range_inches=6.0, facing="side", target_pins=pins)
    shots = []
    for weapon in rules.data.weapons.rows:
        if weapon.name not in {"Rifle", "Bazooka", "Flamethrower (infantry)"}:
            continue
        try:
            shots.append(plan_shot(rules, weapon, rules.target(target), situation)[0])
        except UsageError:
            continue
    return shots


# (Konflikt '47's, 9 s, with the slow tests: Bolt Action's asks the same)
@pytest.mark.parametrize(
    "ruleset", [pytest.param("konflikt47", marks=pytest.mark.slow), "bolt-action-1"]
)
def test_attacks_sharing_their_last_groups_keep_the_exact_knock_out_chance(ruleset: str) -> None:
    """:func:`knock_out_chance` keeps the odds of an attack's later groups from each state
    the first leaves, so attacks with other first groups (and pins carried) share them:
    every order of every pair and triple, asked in turn, is still the full chain's chance."""
    for pins in (0, 2):
        shots = _shots(ruleset, "light tank", pins)
        assert len(shots) == 3, [s.weapon for s in shots]
        for size in (2, 3):
            for order in permutations(shots, size):
                groups = [Group(shot, 1 + k % 2) for k, shot in enumerate(order)]
                whole = exact_vehicle(groups).probability(lambda v: v.knocked_out)
                assert knock_out_chance(groups) == whole, [g.shot.weapon for g in groups]


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
