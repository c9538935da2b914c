"""The quick paths of move generation give the plain paths' answers, all through real games."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest
import shapely

from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.players import RandomPlayer, chance_outcome
from kriegsspiel.core.game import CHANCE
from kriegsspiel.core.scenario import load_scenario, sample_scenarios
from kriegsspiel.core.table import Point, Table, TerrainFeature, rectangle
from kriegsspiel.rulesets.bolt_action.army import load_army, sample_armies
from kriegsspiel.rulesets.bolt_action.edition import Rules, rules_for
from kriegsspiel.rulesets.bolt_action.game.candidates import (
    FAR_SLACK,
    _advance_targets,
    _cover_centres,
    _destinations,
    _goals,
    _order_candidates,
    _road_steps,
    _way_in,
    destinations,
    order_candidates,
    targets,
    toward_start,
)
from kriegsspiel.rulesets.bolt_action.game.spacing import STOP_MARGIN, UNIT_GAP, VEHICLE_LENGTH
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.table_rules import (
    HULL_OFF_TABLE,
    IMPASSABLE,
    VEHICLE,
    MoveCheck,
    _along_road,
    _check_move,
    check_move,
    hull_clash,
    hull_room,
    last_legal,
    movement_row,
    terrain_column,
    terrain_row,
    too_far,
    unit_cover,
    vehicle_drive,
)
from kriegsspiel.rulesets.bolt_action.game.units import UnitState, _Places


def positions(ruleset: str, seed: int, kind: str, every: int = 3) -> Iterator[BoltActionGame]:
    """A game between random (or tactical) players, stopped at every ``every``-th decision
    (and played on after)."""
    armies = [load_army(p, ruleset) for p in sample_armies(ruleset)[:2]]
    scenario = load_scenario(sample_scenarios()[seed % 2])
    game = BoltActionGame(ruleset, scenario, (armies[0], armies[1]), seed=seed)
    player_kind = TacticalPlayer if kind == "tactical" else RandomPlayer
    rng, players = random.Random(seed), (player_kind(seed), player_kind(seed + 1))
    decisions = 0
    while not game.is_terminal():
        player = game.current_player()
        if player == CHANCE:
            action = chance_outcome(game, rng)
        else:
            decisions += 1
            if decisions % every == 0:
                yield game
            action = players[player].choose(game)
        game.apply_action(action)


def slow_goals(game: BoltActionGame, unit: UnitState) -> tuple[Point | None, Point | None]:
    """The nearest enemy centre by ``min``, as destinations once found them, and the
    objective nearest once each counts 6" farther for every point it is worth less than
    the best (none worth 0)."""
    start = unit.anchor
    enemies = [u for u in game.units if u.side != unit.side and not u.destroyed]
    enemy = min(enemies, key=lambda e: start.distance_to(e.anchor)).anchor if enemies else None
    best = max((o.points for o in game.scenario.objectives), default=0)
    worth = [
        (Point(o.x, o.y), 6.0 * (best - o.points)) for o in game.scenario.objectives if o.points
    ]
    objective = min(worth, key=lambda o: start.distance_to(o[0]) + o[1])[0] if worth else None
    return enemy, objective


def slow_destinations(
    game: BoltActionGame, unit: UnitState, run: bool, enemy: Point | None, objective: Point | None
) -> list[Point]:
    """_destinations as first written, with Points, a plain clamp (to the table, or where a
    vehicle's hull stays on it) and ``distance_to``."""
    row = movement_row(game.rules, unit)
    reach = float(row.run if run else row.advance)
    start = unit.anchor
    goals = [p for p in (enemy, objective) if p is not None]
    centres = _cover_centres(game.table)
    if centres:
        goals.append(min(centres, key=lambda p: start.distance_to(p)))
    way_in = _way_in(game, unit, run)  # (a goal added since, not a fast path: all the way in)
    if way_in is not None and start.distance_to(way_in) <= reach:
        goals.append(way_in)
    else:
        way_in = None
    goals.append(Point(start.x, 0.0 if unit.side == 0 else game.table.height))
    if unit.vehicle is not None:
        rad = math.radians(unit.heading)
        goals.append(Point(start.x + math.sin(rad) * reach, start.y + math.cos(rad) * reach))
    ends: list[Point] = []
    for goal in goals:
        for fraction in (1.0,) if goal is way_in else (1.0, 0.5):
            gap, distance = start.distance_to(goal), reach * fraction
            if gap <= distance or gap == 0:
                p = goal
            else:
                t = distance / gap
                p = Point(start.x + (goal.x - start.x) * t, start.y + (goal.y - start.y) * t)
            left, bottom, right, top = hull_room(game.table, unit)  # (the table, or its hull's)
            p = Point(float(min(max(p.x, left), right)), float(min(max(p.y, bottom), top)))
            ends.append(Point(toward_start(p.x, start.x), toward_start(p.y, start.y)))
    # a vehicle's moves along a road, at the road's rate (no quick path of these: the same)
    ends += [Point(x, y) for x, y in _road_steps(game, unit, run, (objective, enemy))]
    out: list[Point] = []
    for p in ends:
        clash = slow_clash(game, unit, p)
        if clash:
            short = slow_stop_short(game, unit, p)
            p = Point(round(short.x, 2), round(short.y, 2))
        if p.distance_to(start) < 0.5 or any(p.distance_to(q) < 0.5 for q in out):
            continue
        if check_move(game.rules, game.table, unit, p, run=run).allowed and not (
            clash and slow_clash(game, unit, p)
        ):
            out.append(p)
        elif not clash:
            # a step the table refuses on the way, cut short where it allows (no quick path
            # of this: the same)
            cut = last_legal(game.rules, game.table, unit, run, p)
            if (
                cut is not None
                and all(cut.distance_to(q) >= 0.5 for q in out)
                and not slow_clash(game, unit, cut)
            ):
                out.append(cut)
    return out


def kept(a: UnitState, b: UnitState) -> float:
    """The gap a move keeps between models of ``a`` and ``b``: 1", and half a vehicle's
    length more for each vehicle."""
    return UNIT_GAP + VEHICLE_LENGTH / 2 * ((a.vehicle is not None) + (b.vehicle is not None))


def slow_clash(game: BoltActionGame, unit: UnitState, to: Point) -> bool:
    """spacing.Clearance.clash as plainly as it goes: every model against every other
    unit's, no whole-unit look first."""
    start = unit.anchor
    dx, dy = to.x - start.x, to.y - start.y
    for other in game.units:
        if other is unit or other.destroyed:
            continue
        for m in unit.alive_models:
            a = m.point
            b = Point(a.x + dx, a.y + dy)
            for n in other.alive_models:
                limit = min(kept(unit, other), a.distance_to(n.point)) - 1e-9
                if other.side != unit.side:
                    path = (
                        shapely.LineString([(a.x, a.y), (b.x, b.y)])
                        if a != b
                        else shapely.Point(a.x, a.y)
                    )
                    if path.distance(shapely.Point(n.x, n.y)) < limit:
                        return True
                elif b.distance_to(n.point) < limit:
                    return True
    return False


def slow_stop_short(game: BoltActionGame, unit: UnitState, to: Point) -> Point:
    """spacing.Clearance.stop_short over every enemy model: where a model of the unit, on
    its way, first comes within the gap kept (kept) + STOP_MARGIN of one."""
    start = unit.anchor
    dx, dy = to.x - start.x, to.y - start.y
    a = dx * dx + dy * dy
    first = 1.0
    for other in game.units:
        if other.side == unit.side or other.destroyed:
            continue
        keep = kept(unit, other) + STOP_MARGIN
        for m in unit.alive_models:
            for n in other.alive_models:
                wx, wy = m.x - n.x, m.y - n.y
                c = wx * wx + wy * wy - keep * keep
                b = wx * dx + wy * dy
                if c > 0 and b < 0 and b * b - a * c >= 0:
                    first = min(first, (-b - math.sqrt(b * b - a * c)) / a)
    if a == 0 or first >= 1.0:
        return to
    first = max(0.0, first)
    return Point(start.x + dx * first, start.y + dy * first)


@pytest.mark.parametrize(
    ("ruleset", "seed", "kind"),
    [
        # the suite's longest tests (20-32 s each of its 10 minutes on this host): with the
        # slow ones (the fast suite compares the move checks, below, over random games)
        pytest.param("konflikt47", 3, "random", marks=pytest.mark.slow),
        pytest.param("bolt-action-1", 4, "random", marks=pytest.mark.slow),
        pytest.param("konflikt47", 5, "tactical", marks=pytest.mark.slow),
    ],
)
def test_quick_move_generation_is_the_plain_one(ruleset: str, seed: int, kind: str) -> None:
    for game in positions(ruleset, seed, kind):
        for unit in game.units:
            # the remembered places are the models' places now
            places = _Places.of(unit)
            assert unit.alive_models == list(places.alive)
            assert (unit.anchor, unit.coords) == (places.anchor, places.coords)
            if unit.destroyed:
                continue
            # remembered candidates are found afresh (each other unit's, too, is asked for)
            assert order_candidates(game, unit) == _order_candidates(game, unit)
            goals = _goals(game, unit)
            assert goals == slow_goals(game, unit)
            for run in (False, True):
                expected = [] if unit.immobilised else _destinations(game, unit, run, *goals)
                if not unit.immobilised:
                    found = slow_destinations(game, unit, run, *goals)
                    assert [repr(p) for p in found] == [repr(p) for p in expected]  # -0.0 too
                assert destinations(game, unit, run=run) == expected
                for p in [*expected, Point(unit.anchor.x + 30, unit.anchor.y - 5)]:
                    assert check_move(game.rules, game.table, unit, p, run) == _check_move(
                        game.rules, game.table, unit, p, run
                    )
            # an Advance's targets, remembered per enemy, are each end's own (asked twice:
            # once as found, once as remembered)
            enemies = [e for e in game.units if e.side != unit.side and not e.destroyed]
            ends = destinations(game, unit, run=False)
            each = [targets(game, unit, moving=True, origin=p, enemies=enemies) for p in ends]
            assert _advance_targets(game, unit, ends, enemies) == each
            assert _advance_targets(game, unit, ends, enemies) == each
            for enemy in game.units:
                if enemy.side != unit.side and not enemy.destroyed:
                    shooter = unit.anchor
                    models = enemy.alive_models
                    step = max(1, len(models) // 3)
                    covers = [game.table.cover_between(shooter, m.point) for m in models[::step]]
                    assert unit_cover(game.rules, game.table, shooter, enemy) == plain_cover(covers)


def plain_cover(covers: list[str]) -> str:
    """unit_cover's rule from the sampled models' covers: what most have (ties: the better)."""
    counts = {level: covers.count(level) for level in ("none", "soft", "hard")}
    best = max(counts.values())
    for level in ("hard", "soft", "none"):
        if counts[level] == best and best > 0:
            return level if counts[level] * 2 >= sum(counts.values()) else "none"
    return "none"


def slow_along_road(rules: Rules, table: Table, a: Point, b: Point) -> bool:
    """The rule itself, plainly: the path lies within the union of the road outlines (to
    a millionth of an inch)."""
    roads = [
        shapely.Polygon(f.polygon)
        for f in table.features
        if terrain_row(rules, f.category).category == "road"
    ]
    area = shapely.unary_union(roads).buffer(1e-6)
    path = shapely.LineString([(a.x, a.y), (b.x, b.y)]) if a != b else shapely.Point(a.x, a.y)
    return bool(area.covers(path))


def test_a_road_with_a_break_in_it_does_not_double_a_move() -> None:
    """ "Moves entirely along a road": a 3" break of open ground in the road is not along
    it, though the nine points spaced along this path all fall on road (they once decided
    it); a move along one piece of it is."""
    rules = rules_for("bolt-action-1")
    pieces = [
        TerrainFeature(f"road {i}", "road", "none", rectangle(x0, 20, x1, 24), False)
        for i, (x0, x1) in enumerate(((0, 34.5), (37.5, 72)))
    ]
    table = Table(72, 48, pieces)
    a, b = Point(2, 22), Point(66, 22)
    assert all(table.indices_at(2 + 8 * i, 22) for i in range(9))  # (every sample on road)
    assert not _along_road(rules, table, a, b)
    assert not slow_along_road(rules, table, a, b)
    assert _along_road(rules, table, Point(2, 22), Point(34, 23))
    assert _along_road(rules, table, Point(40, 21), Point(70, 24))  # (its very edge)


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_along_road_by_feature_indices_is_the_plain_one(ruleset: str) -> None:
    rules, rng = rules_for(ruleset), random.Random(7)
    for path in sample_scenarios()[:2]:
        armies = [load_army(p, ruleset) for p in sample_armies(ruleset)[:2]]
        table = BoltActionGame(ruleset, load_scenario(path), (armies[0], armies[1])).table
        roads = [f for f in table.features if terrain_row(rules, f.category).category == "road"]
        assert roads  # the sample tables have roads to move along
        ends: list[Point] = []
        for f in roads:  # corners, edges' midpoints, points inside and near each road
            xs, ys = [x for x, _ in f.polygon], [y for _, y in f.polygon]
            ends += [Point(x, y) for x, y in f.polygon]
            ends += [
                Point((xs[i] + xs[i - 1]) / 2, (ys[i] + ys[i - 1]) / 2) for i in range(len(xs))
            ]
            ends += [
                Point(rng.uniform(min(xs) - 1, max(xs) + 1), rng.uniform(min(ys) - 1, max(ys) + 1))
                for _ in range(40)
            ]
        for a in ends:
            for b in rng.sample(ends, 12):
                assert _along_road(rules, table, a, b) == slow_along_road(rules, table, a, b)
                expected = [table.features.index(f) for f in table.features_at(a)]
                assert list(table.indices_at(a.x, a.y)) == expected


def first_check_move(
    rules: Rules, table: Table, unit: UnitState, to: Point, run: bool
) -> MoveCheck:
    """_check_move as first written: the features by features_at and path_crosses (each
    model's too, since every model's path is checked)."""
    start = unit.anchor
    distance = start.distance_to(to)
    if not table.contains(to):
        return MoveCheck(False, "off the table")
    dx, dy = to.x - start.x, to.y - start.y  # every model moves with the unit's centre
    coords, width, height = unit.coords, table.width, table.height
    for i in range(0, len(coords), 2):  # Table.contains, without making Points
        if not (0.0 <= coords[i] + dx <= width and 0.0 <= coords[i + 1] + dy <= height):
            return MoveCheck(False, "a model would end off the table")
    left, bottom, right, top = hull_room(table, unit)  # (a vehicle's hull on the table)
    if not (left - 1e-9 <= to.x <= right + 1e-9 and bottom - 1e-9 <= to.y <= top + 1e-9):
        return MoveCheck(False, HULL_OFF_TABLE)
    if unit.immobilised:
        return MoveCheck(False, "immobilised")
    row = movement_row(rules, unit)
    column = terrain_column(unit)
    passed = table.path_crosses(start, to)
    here = table.features_at(to)
    crossed = passed + [f for f in here if f not in passed]
    # then, in table order, any other feature a model's own path enters or its end is in
    # (each model moves with the centre)
    models = set()
    for m in unit.alive_models:
        end = Point(m.x + dx, m.y + dy)
        models.update(table.path_crosses(m.point, end) + table.features_at(end))
    crossed += [f for f in table.features if f in models and f not in crossed]
    road_only = (
        bool(crossed)
        and all(terrain_row(rules, f.category).category == "road" for f in here)
        and slow_along_road(rules, table, start, to)
    )
    allowance = float(row.run if run else row.advance)
    reverse, heading, note = False, None, ""
    if unit.vehicle is not None:  # (the turns are vehicle_drive's, tested on their own)
        drive = vehicle_drive(rules, unit, start, to, run)
        if isinstance(drive, str):
            return MoveCheck(False, drive)
        reverse, heading, fraction, note = drive
        allowance *= fraction
    for feature in crossed:
        if VEHICLE in feature.impassable_to and unit.vehicle is not None and column != "walkers":
            return MoveCheck(False, f"{feature.name} is impassable to vehicles")
        cell = getattr(terrain_row(rules, feature.category), column) or "OK"
        if cell in IMPASSABLE:
            return MoveCheck(False, f"{feature.name} ({feature.category}) is impassable")
        if run and cell == "No Run":
            return MoveCheck(False, f"cannot Run through {feature.name} ({feature.category})")
    for feature in here:  # a walker crosses a wreck but does not end its move on one
        if VEHICLE in feature.impassable_to and unit.vehicle is not None:
            return MoveCheck(False, f"a vehicle may not end its move on {feature.name}")
    clash = hull_clash(rules, table, unit, to)  # (the hull's own rule, tested on its own)
    if clash is not None:
        return MoveCheck(False, clash)
    if road_only and unit.vehicle is not None:
        column_cell = getattr(terrain_row(rules, "road"), column) or "OK"
        if column_cell == "x2":
            allowance *= 2
    if distance > allowance + 1e-9:
        return MoveCheck(False, too_far(distance, allowance) + note)
    return MoveCheck(True, "", reverse, heading)


@pytest.mark.parametrize(
    ("ruleset", "seed", "kind"), [("konflikt47", 6, "random"), ("bolt-action-1", 7, "random")]
)
def test_a_move_checked_by_feature_indices_is_checked_as_first_written(
    ruleset: str, seed: int, kind: str
) -> None:
    rng = random.Random(seed)
    for game in positions(ruleset, seed, kind, every=5):
        for unit in game.units:
            if unit.destroyed:
                continue
            a = unit.anchor
            ends = [Point(a.x + rng.uniform(-14, 14), a.y + rng.uniform(-14, 14)) for _ in range(6)]
            ends += [Point(x, y) for f in game.table.features for x, y in f.polygon[:2]]
            for p in ends:
                for run in (False, True):
                    assert _check_move(game.rules, game.table, unit, p, run) == first_check_move(
                        game.rules, game.table, unit, p, run
                    )


def test_a_move_refused_for_its_length_never_reads_as_its_allowance() -> None:
    """A replayed record once said '6.0" is beyond the 6" allowed' of a 6.004" move."""
    assert too_far(6.3, 6) == '6.3" is beyond the 6" allowed'
    assert too_far(6.004, 6) == '6.004" is beyond the 6" allowed'
    assert too_far(12.04, 12).startswith('12.04"')
    assert too_far(6.0004, 6).startswith('6.0004"')


@pytest.mark.parametrize(
    ("ruleset", "seed", "kind"), [("konflikt47", 8, "random"), ("bolt-action-1", 9, "tactical")]
)
def test_the_gap_bound_by_centres_never_passes_over_an_enemy_in_reach(
    ruleset: str, seed: int, kind: str
) -> None:
    """_order_candidates measures an enemy's gap for an assault only where the centres'
    distance less both radii is within reach: that bound is never above the gap."""
    for game in positions(ruleset, seed, kind):
        live = [u for u in game.units if not u.destroyed]
        for unit in live:
            for enemy in live:
                if enemy.side != unit.side:
                    bound = unit.anchor.distance_to(enemy.anchor) - unit.radius - enemy.radius
                    assert bound <= game.gap(unit, enemy) + FAR_SLACK
