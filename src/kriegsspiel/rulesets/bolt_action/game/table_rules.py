"""The Bolt Action family's rules that need the table: movement, terrain, arcs, cover, ranges."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar

# numpy imported before shapely (see deployment.py)
import numpy  # noqa: F401
import shapely

from kriegsspiel.core.datafile import problem_at
from kriegsspiel.core.names import counted_in_words, in_words, lookup
from kriegsspiel.core.scenario import Scenario
from kriegsspiel.core.table import VEHICLE, Point, Table, TerrainFeature
from kriegsspiel.errors import (
    AmbiguousNameError,
    DataFileError,
    UnknownNameError,
    UsageError,
    did_you_mean,
    nearest,
    problems_in,
)
from kriegsspiel.rulesets.bolt_action.data import (
    CATEGORY_SYNONYMS,
    MovementRow,
    TerrainRow,
    terrain_names,
)
from kriegsspiel.rulesets.bolt_action.edition import Rules, checked_against
from kriegsspiel.rulesets.bolt_action.game.spacing import HULL, VEHICLE_LENGTH, hull
from kriegsspiel.rulesets.bolt_action.game.units import UnitState

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.game.actions import Action

IMPASSABLE = {"No", "No*", "No (!)"}
# "No*": "cannot enter or move within this kind of terrain, except that it can be deployed
# within the terrain at the start of the game" (sheets 000, 001: guns dug in)
DUG_IN = "No*"
# Who each column of the terrain table is, as a scenario's ``impassable_to`` names them
# (core.scenario.Mover; half-tracks move as tracked, so are vehicles).
DESIGNATED = {
    "infantry": "infantry",
    "artillery": "artillery",
    "wheeled": "vehicles",
    "tracked": "vehicles",
    "walkers": "walkers",
}


@lru_cache(maxsize=1024)
def terrain_row(rules: Rules, category: str) -> TerrainRow:
    """The terrain table row for a scenario feature's category (a UsageError saying which
    categories there are if the table has none such: never open ground by default). Found
    as every name is (:func:`kriegsspiel.core.names.lookup`), a synonym taken for its row:
    "Open-Ground", "roughground" and "Woods" are rows of the table."""
    try:
        return _row_named(rules, category)
    except UnknownNameError:
        raise UsageError(f"terrain: {category_problem(rules, category)}") from None


def _row_named(rules: Rules, category: str) -> TerrainRow:
    rows = rules.data.terrain.rows
    names = terrain_names([r.category for r in rows])
    return lookup("terrain category", category, zip(names, rows, strict=True))


def terrain_cell(rules: Rules, category: str, column: str) -> str:
    """What the terrain table's row for ``category`` says in ``column`` ("OK", "No Run"
    ...): never "OK" by default. A row without the cell (a walker's, in a file whose damage
    values have no walkers: the file's check asks for it where they have) is a UsageError."""
    row = terrain_row(rules, category)
    cell: str | None = getattr(row, column)
    if cell is None:
        raise UsageError(
            f"{rules.data.title}'s terrain table: its {row.category} row has no {column} cell, "
            f"so how {DESIGNATED[column]} move through it is not told; give the row "
            f'{column}: "OK", "No Run", "No" ... as for the other columns'
        )
    return cell


class TerrainCategoryError(UsageError):
    """Scenario features whose categories the edition's terrain table does not have:
    ``problems`` holds each one's place in the scenario's ``terrain`` list and what is
    wrong, so the caller can name its line in the scenario file."""

    def __init__(self, scenario: str, problems: list[tuple[int, str]]) -> None:
        told = [f"field terrain.{i}.category: {problem}" for i, problem in problems]
        super().__init__(problems_in(f"scenario {scenario!r}", told))
        self.problems = problems

    def in_file(self, label: str, text: str) -> DataFileError:
        """The same problems told at their lines of the scenario file ``label`` (``text``)."""
        return DataFileError(
            label, [problem_at(text, ("terrain", i, "category"), p) for i, p in self.problems]
        )


def check_categories(rules: Rules, scenario: Scenario) -> None:
    """Refuse a scenario with a terrain category the edition's table lacks (TerrainCategoryError)."""
    problems = [
        (i, problem)
        for i, feature in enumerate(scenario.terrain)
        if (problem := category_problem(rules, feature.category)) is not None
    ]
    if problems:
        raise TerrainCategoryError(scenario.name, problems)


def category_problem(rules: Rules, category: str) -> str | None:
    """Why a scenario feature's ``category`` means nothing to the edition's terrain table
    (None if it names a row, or a synonym of one, in any case): the nearest names and all."""
    table = [r.category for r in rules.data.terrain.rows]
    synonyms = {k: v for k, v in CATEGORY_SYNONYMS.items() if v in table}
    try:
        _row_named(rules, category)
    except AmbiguousNameError as exc:  # (two rows alike run together: a broken rules file)
        near = list(exc.candidates)
    except UnknownNameError:
        near = nearest(category, [*table, *synonyms])
    else:
        return None
    hint = did_you_mean(near)
    taken = "; ".join(
        f"{', '.join(k for k, v in synonyms.items() if v == row)} for {row}"
        for row in table
        if row in synonyms.values()
    )
    told = (
        f"{terrain_table(rules)} has no category {category!r}{hint}; its categories are "
        f"{', '.join(table)} (also taken, in any case: {taken})"
    )
    if rules.rules_file is None:  # (a rules file's table is named: the hint would repeat it)
        told += "." + checked_against(rules, "terrain table", "The scenario")
    return told


def terrain_table(rules: Rules) -> str:
    """The terrain table a scenario's categories are looked up in, as a refusal names it:
    the edition's ("Konflikt '47's terrain table"), or a designer's rules file's."""
    if rules.rules_file is None:
        return f"{rules.data.title}'s terrain table"
    return f"the terrain table of the rules file {rules.rules_file}"


def terrain_column(unit: UnitState) -> str:
    """Which column of the terrain table a unit moves by."""
    if unit.vehicle is None:
        return "artillery" if unit.kind == "artillery" else "infantry"
    kind = unit.vehicle.kind
    if kind == "walker":
        return "walkers"
    return "wheeled" if kind == "wheeled" else "tracked"  # half-tracks move as tracked (assumption)


def movement_row(rules: Rules, unit: UnitState) -> MovementRow:
    return _movement_row(rules, None if unit.vehicle is None else unit.vehicle.kind)


@lru_cache(maxsize=64)
def _movement_row(rules: Rules, vehicle_kind: str | None) -> MovementRow:
    rows: dict[str, MovementRow] = {r.unit_type: r for r in rules.data.movement.rows}
    if vehicle_kind is None:
        return rows["infantry"]
    names = {
        "wheeled": "wheeled vehicle",
        "half-tracked": "half-tracked vehicle",
        "tracked": "tracked vehicle",
        "walker": "walker",
    }
    return rows[names[vehicle_kind]]


def heading_to(a: Point, b: Point) -> float:
    """Compass-style heading in degrees from a to b (0 = +y, 90 = +x)."""
    return math.degrees(math.atan2(b.x - a.x, b.y - a.y)) % 360


def turn_between(h1: float, h2: float) -> float:
    """The smallest turn in degrees from heading h1 to h2."""
    d = abs(h1 - h2) % 360
    return min(d, 360 - d)


@dataclass(frozen=True, slots=True)
class MoveCheck:
    """Whether a move may be made and why not; for a vehicle, whether it drives backwards
    and which way it faces at the end (None for troops, who have no facing)."""

    allowed: bool
    reason: str
    reverse: bool = False
    heading: float | None = None


def turns_needed(rules: Rules, change: float) -> int:
    """The 90-degree turns a pivot of ``change`` degrees takes (``turning`` in the data):
    none up to the unnoticed degree, one up to 90 degrees past it, two up to 180 past."""
    slack = rules.data.turning.unnoticed_degrees
    return 0 if change <= slack else math.ceil((change - slack) / 90 - 1e-9)


def pivots_text(pivots: list[tuple[float, int]]) -> str:
    """The pivots a vehicle's move needs, each (degrees, its 90-degree turns), as a
    refusal tells them: "two pivots: 38°, then 8°", "a pivot of 180° (two turns)"."""
    each = [f"{round(d)}°" + (f" ({in_words(t)} turns)" if t > 1 else "") for d, t in pivots]
    if len(each) == 1:
        return f"a pivot of {each[0]}"
    return f"two pivots: {', then '.join(each)}"


def too_far(distance: float, allowance: float) -> str:
    """Why a move is refused for its length, with enough decimals that the distance does
    not read as the allowance itself ('6.0" is beyond the 6" allowed')."""
    shown = next(
        text for d in range(1, 7) if float(text := f"{distance:.{d}f}") > allowance or d == 6
    )
    return f'{shown}" is beyond the {allowance:g}" allowed'


#: A vehicle's move refused for its hull (an assumption: "A vehicle's hull on the table"
#: in docs/rules).
HULL_OFF_TABLE = (
    f"its hull would hang off the table (a vehicle's centre stays {HULL:g}\" from the "
    f"table's edge: half a {VEHICLE_LENGTH:g}\" hull)"
)
_EDGE = 1e-9  # inches: a centre this near the hull's limit is on it (rounding)


def hull_room(table: Table, unit: UnitState) -> tuple[float, float, float, float]:
    """(left, bottom, right, top): where ``unit``'s centre may end a move for every model
    to stay on the table, hull and all. A vehicle's centre stays its hull's half-length
    (:func:`spacing.hull`) in from each edge, or, on a side where it already stands
    nearer the edge, no nearer than it stands (it may keep its distance or draw away);
    troops' and guns' models are points, each kept on the table, so the whole table."""
    reach = hull(unit)
    width, height = table.width, table.height
    if not reach:
        return 0.0, 0.0, width, height
    at = unit.anchor

    def room(gap: float) -> float:
        return min(reach, max(0.0, gap))

    return room(at.x), room(at.y), width - room(width - at.x), height - room(height - at.y)


def _barred(rules: Rules, table: Table, column: str) -> tuple[int, ...]:
    """The indices of the table's features that a vehicle moving by ``column`` may never
    enter, by the terrain table ("No": a building, a wood to a wheeled vehicle) or as a
    wreck (not to a walker, which crosses one) (worked out once per table and edition). A
    scenario's ``impassable_to`` is left to the centre's path (a road over it is a bridge,
    which a hull overhangs)."""
    memo = table.memo("barred to hulls")
    key = (rules, column)
    found: tuple[int, ...] | None = memo.get(key)
    if found is None:
        found = memo[key] = tuple(
            [
                j
                for j, f in enumerate(table.features)
                if terrain_refusal(rules, f, column, True, False, designated=False) is not None
            ]
        )
    return found


def kept_clear_at_set_up(rules: Rules, feature: TerrainFeature) -> tuple[str, str] | None:
    """What keeps a vehicle from being set up in ``feature`` besides ground it may never
    enter (assumptions: docs/rules "Deployment"), as (what the feature is, the rule): an
    obstacle (a wall, by the terrain table's row, as a move reads it), or a feature that
    blocks sight (a wood); None if neither. The one rule for its centre
    (``deployment.setup_refusal``) and its hull (:func:`hull_clash`, ``setting_up``)."""
    if terrain_row(rules, feature.category).category == "obstacle":
        return "is an obstacle", "no vehicle sets up on one"
    if feature.blocks_line_of_sight:
        return "blocks sight", "no vehicle sets up in it"
    return None


def _barred_at_set_up(rules: Rules, table: Table, column: str) -> tuple[int, ...]:
    """The indices of the table's features a vehicle moving by ``column`` keeps its hull
    out of where it is set up: those it may never enter (:func:`_barred`) and those it is
    kept clear of at set-up (:func:`kept_clear_at_set_up`), ascending."""
    memo = table.memo("barred to hulls at set-up")
    key = (rules, column)
    found: tuple[int, ...] | None = memo.get(key)
    if found is None:
        barred = set(_barred(rules, table, column))
        found = memo[key] = tuple(
            [
                j
                for j, f in enumerate(table.features)
                if j in barred or kept_clear_at_set_up(rules, f) is not None
            ]
        )
    return found


def hull_clash(
    rules: Rules, table: Table, unit: UnitState, to: Point, *, setting_up: bool = False
) -> str | None:
    """Why a vehicle may not drive its centre straight from where it stands to ``to`` (or,
    ``setting_up``, be set up with its centre at ``to``), or None: its round hull (half a
    hull's length about its centre, :data:`spacing.HULL`), swept along the whole way and
    where it ends, would reach into ground it may never enter (:func:`_barred`: a
    building), so it can neither end beside one nor squeeze through a gap narrower than
    itself; set up, nor into ground it is kept clear of at set-up
    (:func:`kept_clear_at_set_up`: an obstacle, a wood that blocks sight). As at the
    table's edge, a vehicle already nearer such ground (an older record's) may keep its
    distance or draw away, not come nearer. The one rule for every move and place: a
    move's check (:func:`check_move`, so the game, the moves offered, an escape, a panic
    and a chase) and the set-up's (``deployment._misfit``: automatic, by hand, a record's
    placements)."""
    reach = hull(unit)
    if not reach:
        return None
    column = terrain_column(unit)
    barred = (
        _barred_at_set_up(rules, table, column) if setting_up else _barred(rules, table, column)
    )
    if not barred:
        return None
    start = to if setting_up else unit.anchor
    near = table.near_path(barred, start, to, reach - _EDGE)
    if not near:
        return None
    kept = {} if setting_up else dict(table.near_path([j for j, _ in near], start, start, reach))
    never = _barred(rules, table, column) if setting_up else barred
    for j, gap in near:
        least = min(reach, kept.get(j, reach))  # (how near it may come)
        if gap < least - _EDGE:
            feature = table.features[j]
            ends = table.near_path([j], to, to, least - _EDGE)
            told = (
                f"reach into {feature.name} ({feature.category})"
                if ends and ends[0][1] < least - _EDGE
                else f"scrape {feature.name} ({feature.category}) on the way"
            )
            clear = None if j in never else kept_clear_at_set_up(rules, feature)
            why = "where a vehicle may not go" if clear is None else f"which {clear[0]}: {clear[1]}"
            return (
                f"its hull would {told}, {why} (a vehicle's centre stays "
                f'{reach:g}" from it: half a {VEHICLE_LENGTH:g}" hull)'
            )
    return None


def check_move(
    rules: Rules,
    table: Table,
    unit: UnitState,
    to: Point,
    run: bool,
    *,
    assault: bool = False,
    way: str = "",
    facing: float | None = None,
) -> MoveCheck:
    """Can ``unit`` make this straight move on an Advance (or Run) order? Why not?

    Its centre moves to ``to`` and every live model alike (parallel, as far): the terrain
    table is checked along the centre's path and each model's, and where each ends.

    An ``assault`` is a Run (sheets 000, 001, 002: Run is "also used for assaulting"),
    checked as one for the table, its path and where it ends, but not for its length: how
    far a unit may assault is measured from its models to the target's (the gap, within
    its Run), and its move to close (``closing_move`` in close_quarters) is that gap less
    an inch.

    A vehicle's ``way`` ("" to drive forward where it may, else in reverse; "reverse" to
    reverse) and the ``facing`` it turns to at the end are checked against its turns
    (:func:`vehicle_drive`)."""
    coords = unit.coords  # the live models' places, worked out once per move of the unit
    if not coords:
        return _check_move(rules, table, unit, to, run, assault, way, facing)
    key = (
        rules,
        run,
        assault,
        to.x,
        to.y,
        coords,
        unit.immobilised,
        unit.vehicle,
        unit.heading,
        unit.kind,
        way,
        facing,
    )
    memo = table.memo("check_move")  # everything the answer depends on is in the key
    found: MoveCheck | None = memo.get(key)
    if found is None:
        found = memo[key] = _check_move(rules, table, unit, to, run, assault, way, facing)
    return found


def check_order_move(rules: Rules, table: Table, unit: UnitState, action: Action) -> MoveCheck:
    """:func:`check_move` of a move order (an Advance or a Run with its destination; not
    an assault): its way and facing as the order gives them."""
    to = Point(*action.to) if action.to is not None else unit.anchor
    return check_move(
        rules,
        table,
        unit,
        to,
        run=action.order == "Run",
        way=action.choice,
        facing=action.facing,
    )


def _check_move(
    rules: Rules,
    table: Table,
    unit: UnitState,
    to: Point,
    run: bool,
    assault: bool = False,
    way: str = "",
    facing: float | None = None,
) -> MoveCheck:
    start = unit.anchor
    distance = start.distance_to(to)
    if not table.contains(to):
        return MoveCheck(False, "off the table")
    dx, dy = to.x - start.x, to.y - start.y  # every model moves with the unit's centre
    coords, width, height = unit.coords, table.width, table.height
    for i in range(0, len(coords), 2):  # Table.contains, without making Points
        if not (0.0 <= coords[i] + dx <= width and 0.0 <= coords[i + 1] + dy <= height):
            return MoveCheck(False, "a model would end off the table")
    if unit.vehicle is not None:
        left, bottom, right, top = hull_room(table, unit)
        if not (left - _EDGE <= to.x <= right + _EDGE and bottom - _EDGE <= to.y <= top + _EDGE):
            return MoveCheck(False, HULL_OFF_TABLE)
    if unit.immobilised:
        return MoveCheck(False, "immobilised")
    stuck = dug_in(rules, table, unit)
    if stuck is not None:
        return MoveCheck(False, dug_in_refusal(stuck, unit))
    row = movement_row(rules, unit)
    column = terrain_column(unit)
    # the features the centre's move enters, then any others it ends in, then any others a
    # model's own move enters or ends in (every model moves with the centre: see
    # Table.sweep_indices; by index: an equal feature twice answers alike below)
    features, passed = table.features, table.path_indices(start, to)
    here = table.indices_at(to.x, to.y)
    crossed = [features[j] for j in passed] + [features[j] for j in here if j not in passed]
    vehicle = unit.vehicle is not None
    if len(coords) > 2:  # (a unit of one model is its centre)
        known = {*passed, *here}
        # of the features the models alone enter, only those that refuse the move change
        # the answer, but for a vehicle's road rule, asked when the move enters any
        if crossed or not vehicle:
            known.update(_free(rules, table, column, vehicle, run))
        crossed += [features[j] for j in table.sweep_indices(coords, dx, dy, known)]
    road_only = False
    if crossed and vehicle:  # (the road rule is a vehicle's)
        roads = _roads(rules, table)
        for j in here:
            if not roads[j]:
                break
        else:
            road_only = _along_road(rules, table, start, to)
    allowance = float(row.run if run else row.advance)
    reverse, heading, note = False, None, ""
    if unit.vehicle is not None:
        drive = vehicle_drive(rules, unit, start, to, run, way, facing)
        if isinstance(drive, str):
            return MoveCheck(False, drive)
        reverse, heading, fraction, note = drive
        allowance *= fraction
    for feature in crossed:
        refusal = terrain_refusal(rules, feature, column, vehicle, run)
        if refusal is not None and not _bridged(rules, table, feature, column, run, unit, to):
            return MoveCheck(False, refusal)
    if vehicle:  # a walker crosses a wreck, as an obstacle, but does not stand on its hull
        for j in here:
            if VEHICLE in features[j].impassable_to:
                return MoveCheck(False, f"a vehicle may not end its move on {features[j].name}")
        clash = hull_clash(rules, table, unit, to)
        if clash is not None:
            return MoveCheck(False, clash)
    if road_only:
        allowance *= road_rate(rules, column)
    if distance > allowance + 1e-9 and not assault:
        return MoveCheck(False, too_far(distance, allowance) + note)
    return MoveCheck(True, "", reverse, heading)


def toward_start(v: float, s: float) -> float:
    """A candidate's coordinate ``v`` to 0.01": the nearer of the two hundredths about it
    that is no farther from the start's ``s`` (so a rounded move is never longer than the
    move worked out, and one of exactly half an Advance stays within a reverse); ``v``
    itself where neither is (it lies within 0.01" of ``s``)."""
    r = round(v, 2)
    if abs(r - s) <= abs(v - s):
        return r
    other = round(r - 0.01 if r > v else r + 0.01, 2)  # the hundredth on v's other side
    return other if abs(other - s) <= abs(v - s) else v


# How many halvings look for the last place a blocked move may reach (a tuning choice:
# six find it to within 1/64 of the move, some 0.3" of a vehicle's 18" Run)
SHORTEN_HALVINGS = 6


def last_legal(rules: Rules, table: Table, unit: UnitState, run: bool, to: Point) -> Point | None:
    """The farthest place found along the straight line from the unit's centre toward
    ``to``, short of it, that the table lets it move to on an Advance (or ``run``, a Run:
    :func:`check_move`), to the 0.01" (:func:`toward_start`), by
    :data:`SHORTEN_HALVINGS` halvings; None where there is none, or the place half an
    inch out is refused as well (a vehicle that would need a turn to go this way, say: no
    place along it will do). The one rule for a move cut short where it is blocked: the
    moves offered and a flight (an escape, a FUBAR panic, a chase)."""
    start = unit.anchor
    sx, sy, x, y = start.x, start.y, to.x, to.y
    length = math.dist((sx, sy), (x, y))
    if length < 1.0:
        return None

    def place(t: float) -> Point:
        return Point(toward_start(sx + (x - sx) * t, sx), toward_start(sy + (y - sy) * t, sy))

    def allowed(t: float) -> bool:
        return check_move(rules, table, unit, place(t), run=run).allowed

    least = 0.5 / length
    if not allowed(least):
        return None
    lo, hi = least, 1.0
    for _ in range(SHORTEN_HALVINGS):
        mid = (lo + hi) / 2
        if allowed(mid):
            lo = mid
        else:
            hi = mid
    found = place(lo)
    return found if math.dist((sx, sy), (found.x, found.y)) >= 0.5 else None


def vehicle_drive(
    rules: Rules,
    unit: UnitState,
    start: Point,
    to: Point,
    run: bool,
    way: str = "",
    facing: float | None = None,
) -> tuple[bool, float, float, str] | str:
    """How a vehicle makes a straight move from ``start`` to ``to``: (reversing, its
    heading at the end, the part of its move's allowance it may use, and why it does not
    drive forward where it reverses unbidden, to add to a refusal for its length), or why
    it cannot.

    It pivots to face the way it drives (straight ahead, or straight back to reverse),
    drives, then pivots to ``facing`` if one is given; the pivots' 90-degree turns
    (:func:`turns_needed`) must be within the movement table's for its order. Reversing
    is only on an Advance, at the data's fraction of the Advance rate. Way "" drives
    forward where that is allowed, and reverses otherwise. A move too short to notice
    (``turning`` in the data) is none: the vehicle turns where it stands."""
    row = _movement_row(rules, unit.vehicle.kind if unit.vehicle else None)
    limit = row.run_turns if run else row.advance_turns
    moving = start.distance_to(to) > rules.data.turning.unnoticed_inches
    path = heading_to(start, to) if moving else unit.heading

    def try_way(back: bool) -> tuple[bool, float, float, str] | str:
        if back and run:
            return "a vehicle reverses only on an Advance order"
        before = turn_between(unit.heading, (path + 180) % 360 if back else path)
        first = turns_needed(rules, before) if moving else 0
        # a pivot too small to notice leaves the heading as it was
        heading = unit.heading if first == 0 else (path + 180) % 360 if back else path
        end = heading if facing is None else facing % 360
        after = turn_between(heading, end)
        last = turns_needed(rules, after)
        turns = first + last
        if limit is not None and turns > limit:
            order = "a Run" if run else "an Advance"
            what = "reverse there" if back else "drive there" if moving else "turn so"
            pivots = [(d, t) for d, t in ((before, first), (after, last)) if t]
            return (
                f"it needs {counted_in_words(turns, '90° turn')} to {what} "
                f"({pivots_text(pivots)}; {in_words(limit) if limit else 'none'} allowed "
                f"on {order})"
            )
        if not back:
            return False, end, 1.0, ""
        reverse = rules.data.reverse
        fraction = (
            reverse.recce_fraction_of_advance
            if unit.vehicle is not None and unit.vehicle.recce
            else reverse.fraction_of_advance
        )
        return True, end, fraction, " to reverse"

    if way == "reverse":
        return try_way(True) if moving else "a reverse needs a move"
    forward = try_way(False)
    if not isinstance(forward, str) or not moving:
        return forward
    backward = try_way(True)
    if isinstance(backward, str):
        return f"{forward}; {backward}"
    return (*backward[:3], f"{backward[3]}; {forward}")


def terrain_refusal(
    rules: Rules,
    feature: TerrainFeature,
    column: str,
    vehicle: bool,
    run: bool,
    *,
    setting_up: bool = False,
    designated: bool = True,
) -> str | None:
    """Why a unit moving by this ``column`` of the terrain table (a ``vehicle`` or not) may
    not cross or end in ``feature`` on an Advance (or a Run), or None if it may.

    ``setting_up``: why it may not be set up there as the game begins ("No*", a gun dug
    in, may be; "No" may not). ``designated`` False leaves out the scenario's making the
    feature impassable (``impassable_to``: see :func:`_bridged`)."""
    # a wreck: "impassable terrain to tracked, wheeled, and half-tracked vehicles" (001),
    # not to a walker, which crosses it as the obstacle it is
    if VEHICLE in feature.impassable_to and vehicle and column != "walkers":
        return f"{feature.name} is impassable to vehicles"
    if designated and designated_against(feature, column):
        return f"{feature.name} is impassable to {DESIGNATED[column]}"
    cell = terrain_cell(rules, feature.category, column)
    if cell in IMPASSABLE and not (setting_up and cell == DUG_IN):
        return f"{feature.name} ({feature.category}) is impassable"
    if run and cell == "No Run":
        return f"cannot Run through {feature.name} ({feature.category})"
    return None


def dug_in(rules: Rules, table: Table, unit: UnitState) -> TerrainFeature | None:
    """The feature ``unit`` was set up dug in in, where it now cannot move at all (its
    column of the terrain table reads "No*" there: "may deploy in it at the start of the
    game and then cannot move", sheets 000, 001; a gun in rough ground), or None.

    It stands in a feature as the set-up reads it (:meth:`Table.indices_at`, the edge
    included: its centre or any model), the one test of standing in for the set-up, its
    telling of the ground, a move's end and this: a gun on the feature's very edge is in it
    and cannot move out (before, a move's start read only the feature's inside, so such a
    gun drove out of ground it had been told it stood in)."""
    column = terrain_column(unit)
    memo = table.memo("dug-in ground")  # the features "No*" to the column, once per table
    key = (rules, column)
    ground: frozenset[int] | None = memo.get(key)
    if ground is None:
        ground = memo[key] = frozenset(
            j
            for j, f in enumerate(table.features)
            if getattr(terrain_row(rules, f.category), column) == DUG_IN
        )
    if not ground or not unit.models:
        return None
    coords = unit.coords
    points = [(unit.anchor.x, unit.anchor.y)]
    points += [(coords[i], coords[i + 1]) for i in range(0, len(coords), 2)]
    for x, y in points:
        for j in table.indices_at(x, y):
            if j in ground:
                return table.features[j]
    return None


def dug_in_refusal(feature: TerrainFeature, unit: UnitState) -> str:
    """Why a unit dug in in ``feature`` (:func:`dug_in`) may not move, as a player reads it."""
    who = "artillery" if unit.kind == "artillery" else "it"
    return (
        f"it stands dug in in {feature.name} ({feature.category}), where {who} may be set up "
        "but cannot move once set up (terrain table No*)"
    )


def designated_against(feature: TerrainFeature, column: str) -> bool:
    """Has the scenario made ``feature`` impassable to units moving by this ``column`` of
    the terrain table (its ``impassable_to``)?"""
    return bool(feature.impassable_to & {"everyone", DESIGNATED[column]})


def _bridged(
    rules: Rules,
    table: Table,
    feature: TerrainFeature,
    column: str,
    run: bool,
    unit: UnitState,
    to: Point,
) -> bool:
    """Does a road carry this move over ``feature``, which the scenario made impassable to
    the unit (a road over a river is a bridge)? So it does where the feature refuses the
    move for that alone (its terrain table row would let the unit cross) and the part of
    the centre's path, and of every model's, that lies in the feature is on a road."""
    if not designated_against(feature, column):
        return False
    vehicle = unit.vehicle is not None
    if terrain_refusal(rules, feature, column, vehicle, run, designated=False):
        return False
    roads = road_area(rules, table)
    if roads is None:
        return False
    start, outline = unit.anchor, shapely.Polygon(feature.polygon)
    dx, dy = to.x - start.x, to.y - start.y
    coords = unit.coords
    ends = [(start.x, start.y)] + [(coords[i], coords[i + 1]) for i in range(0, len(coords), 2)]
    for x, y in ends:
        path = (
            shapely.LineString([(x, y), (x + dx, y + dy)])
            if dx or dy
            else shapely.Point(x + dx, y + dy)
        )
        over = path.intersection(outline)
        if not over.is_empty and not roads.covers(over):
            return False
    return True


def _free(rules: Rules, table: Table, column: str, vehicle: bool, run: bool) -> frozenset[int]:
    """The indices of the table's features that a unit moving by ``column`` (a ``vehicle``
    or not) may cross and end in on an Advance (or a Run): :func:`terrain_refusal` has no
    objection (worked out once per table and edition)."""
    memo = table.memo("free features")
    key = (rules, column, vehicle, run)
    found: frozenset[int] | None = memo.get(key)
    if found is None:
        found = memo[key] = frozenset(
            [
                j
                for j, f in enumerate(table.features)
                if terrain_refusal(rules, f, column, vehicle, run) is None
            ]
        )
    return found


def _along_road(rules: Rules, table: Table, a: Point, b: Point) -> bool:
    """Does the straight path from ``a`` to ``b`` lie wholly on roads ("moves entirely
    along a road")? Nine evenly spaced points are tried first, which turn most paths away
    cheaply; a path whose nine points are all on roads is then measured against the roads'
    outlines, so a break in a road, or a corner cut between two, is not missed."""
    roads = _roads(rules, table)
    steps = 8
    ax, ay, dx, dy = a.x, a.y, b.x - a.x, b.y - a.y
    at = table.indices_at
    for i in range(steps + 1):
        for j in at(ax + dx * i / steps, ay + dy * i / steps):  # (Point's arithmetic)
            if roads[j]:
                break
        else:
            return False
    return road_covers(rules, table, a, b)


def road_covers(rules: Rules, table: Table, a: Point, b: Point) -> bool:
    """Is the segment from ``a`` to ``b`` within the table's roads (their union, its edge
    included)?"""
    path = shapely.LineString([(a.x, a.y), (b.x, b.y)]) if a != b else shapely.Point(a.x, a.y)
    return bool(_road_area(rules, table).covers(path))


def road_area(rules: Rules, table: Table) -> shapely.Geometry | None:
    """The union of the table's roads, its edge included (prepared; None with no road)."""
    area = _road_area(rules, table)
    return None if area.is_empty else area


def _road_area(rules: Rules, table: Table) -> shapely.Geometry:
    """The union of the table's roads, its edge widened by :data:`EDGE` (prepared, empty
    with no road; worked out once per table and edition): where a move "entirely along a
    road" runs."""
    memo = table.memo("road_area")
    area: shapely.Geometry | None = memo.get(rules)
    if area is None:
        roads = _roads(rules, table)
        outlines = [
            shapely.Polygon(f.polygon) for f, r in zip(table.features, roads, strict=True) if r
        ]
        area = memo[rules] = shapely.unary_union(outlines).buffer(EDGE)
        shapely.prepare(area)
    return area


def nearest_road_point(
    rules: Rules, table: Table, x: float, y: float, inset: float
) -> Point | None:
    """The point of the table's roads nearest (x, y) that is at least ``inset`` in from
    their edge (where a road is narrower than twice that, any point of it); None where the
    table has no road. The roads drawn in are worked out once per table, edition and inset."""
    memo = table.memo("road inside")
    key = (rules, inset)
    inner: shapely.Geometry | None = memo.get(key)
    if inner is None:
        area = _road_area(rules, table)
        if area.is_empty:
            inner = area
        else:
            drawn = area.buffer(-inset - EDGE)
            # (a road too narrow to be drawn in is kept whole)
            kept = [
                part
                for part in shapely.get_parts(area).tolist()
                if not shapely.intersects(drawn, part)
            ]
            inner = shapely.union_all([drawn, *kept])
        memo[key] = inner
    if inner.is_empty:
        return None
    near = shapely.shortest_line(inner, shapely.Point(x, y))
    (px, py), _ = shapely.get_coordinates(near).tolist()
    return Point(px, py)


def road_rate(rules: Rules, column: str) -> float:
    """How many times its rate a unit moving by this ``column`` of the terrain table moves
    wholly along a road: 2 where the road row says "x2" (vehicles), else 1."""
    return 2.0 if terrain_cell(rules, "road", column) == "x2" else 1.0


def on_road(rules: Rules, table: Table, x: float, y: float) -> bool:
    """Does the point (x, y) lie on a road (a road feature covers it)?"""
    roads = _roads(rules, table)
    return any(roads[j] for j in table.indices_at(x, y))


def roads_at(rules: Rules, table: Table, x: float, y: float) -> tuple[int, ...]:
    """The indices (ascending) of the roads covering the point (x, y)."""
    roads = _roads(rules, table)
    return tuple([j for j in table.indices_at(x, y) if roads[j]])


def road_run(rules: Rules, table: Table, start: Point, ux: float, uy: float, limit: float) -> float:
    """How far, up to ``limit``, a straight path from ``start`` in the direction of the
    unit vector (ux, uy) stays wholly on the roads (the area :func:`road_covers` measures
    against); 0 where ``start`` is not on one."""
    area = _road_area(rules, table)
    sx, sy = start.x, start.y
    if limit <= 0 or not shapely.intersects_xy(area, sx, sy):
        return 0.0
    ray = shapely.LineString([(sx, sy), (sx + ux * limit, sy + uy * limit)])
    if area.covers(ray):
        return limit
    # the piece of the ray on the roads that starts where it does (pieces that meet are
    # one): how far it goes
    parts = shapely.get_parts(shapely.intersection(area, ray)).tolist()
    lines = shapely.MultiLineString([p for p in parts if isinstance(p, shapely.LineString)])
    best = 0.0
    for piece in shapely.get_parts(shapely.line_merge(lines, directed=True)).tolist():
        ends = shapely.get_coordinates(piece).tolist()
        if ends and min(math.dist(ends[0], (sx, sy)), math.dist(ends[-1], (sx, sy))) < 1e-7:
            best = max(best, *[math.dist(c, (sx, sy)) for c in ends])
    return min(best, limit)


EDGE = 1e-6  # inches: a path along a road's very edge is on it


def _roads(rules: Rules, table: Table) -> tuple[bool, ...]:
    """Whether each of the table's features is a road by the terrain table (worked out once
    per table and edition)."""
    memo = table.memo("roads")
    found: tuple[bool, ...] | None = memo.get(rules)
    if found is None:
        found = memo[rules] = tuple(
            [terrain_row(rules, f.category).category == "road" for f in table.features]
        )
    return found


def facing_hit(vehicle_heading: float, vehicle_at: Point, shooter_at: Point) -> str:
    """Which armour a shot from ``shooter_at`` strikes: front, side or rear (45-degree arcs)."""
    rel = turn_between(vehicle_heading, heading_to(vehicle_at, shooter_at))
    if rel <= 45:
        return "front"
    return "rear" if rel >= 135 else "side"


def in_arc(arc: str, heading: float, at: Point, target: Point) -> bool:
    """Can a weapon mounted on this arc bear on ``target``?"""
    if arc in ("turret", "all-round"):
        return True
    return (
        facing_hit(heading, at, target) == {"front": "front", "side": "side", "rear": "rear"}[arc]
    )


def unit_cover(rules: Rules, table: Table, shooter: Point, target: UnitState) -> str:
    """The target's cover from the shooter, by its sampled models' (:func:`cover_sample`,
    :func:`cover_by_half`): hard if at least half are in hard cover, else soft if at least
    half are in cover of either kind, else none.

    A vehicle's centre standing on an obstacle (a wall: the terrain table's row) has its
    cover only where the wall stands between it and the shooter (hull-down behind it), not
    where the wall is behind it (:meth:`Table.cover_between`'s ``astride``: an
    assumption, "Ranges and cover" in docs/rules); troops have the cover of whatever they
    stand in.

    Remembered by the shooter's point and the target's live models' places (all the answer
    depends on besides the table, whose store this is): a unit is often shot at from the
    same place again. A unit whose models asked about all stand in the open has none from
    anywhere, which is remembered by its places alone (see :func:`_in_the_open`).
    """
    coords = target.coords
    found: str | None
    if _in_the_open(table, target, coords):
        return "none"
    memo = table.memo("unit cover")
    key = (shooter.x, shooter.y, coords, target.vehicle is None)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _unit_cover(rules, table, shooter, target)
    return found


def obstacles(rules: Rules, table: Table) -> frozenset[int]:
    """The indices of the table's obstacles (walls: by the terrain table's row, as a move
    reads them), worked out once per table and edition."""
    memo = table.memo("obstacles")
    found: frozenset[int] | None = memo.get(rules)
    if found is None:
        found = memo[rules] = frozenset(
            j
            for j, f in enumerate(table.features)
            if terrain_row(rules, f.category).category == "obstacle"
        )
    return found


Sampled = TypeVar("Sampled")  # a model (or, in a test, whatever stands for one)


def _in_the_open(table: Table, target: UnitState, coords: tuple[float, ...]) -> bool:
    """Do all the models :func:`_unit_cover` asks about stand in the open (see
    :meth:`Table.in_the_open`)? Then each has no cover from any shooter, nor has the unit.
    Remembered by the live models' places (``coords``), all the answer depends on."""
    memo = table.memo("unit in the open")
    found: bool | None = memo.get(coords)
    if found is None:
        sample = cover_sample(target.alive_models)
        found = memo[coords] = all([table.in_the_open(m.x, m.y) for m in sample])
    return found


def cover_sample(models: list[Sampled]) -> list[Sampled]:
    """The live models whose cover stands for their unit's (a speed shortcut: an
    assumption, "Ranges and cover" in docs/rules): every (n // 3)th model from the first
    of ``n``, so all of up to five, then three or four (six: models 1, 3, 5 counting from
    one; ten: 1, 4, 7, 10)."""
    return models[:: max(1, len(models) // 3)]


def _unit_cover(rules: Rules, table: Table, shooter: Point, target: UnitState) -> str:
    """The unit's cover by its sampled models' (:func:`cover_sample`, :func:`cover_by_half`)."""
    astride = obstacles(rules, table) if target.vehicle is not None else frozenset()
    return cover_by_half(
        [
            table.cover_between(shooter, m.point, astride=astride)
            for m in cover_sample(target.alive_models)
        ]
    )


def cover_by_half(covers: list[str]) -> str:
    """A unit's cover from its models' ``covers`` ("hard", "soft" or "none"; an assumption,
    "A unit's cover: by half its models" in docs/rules): hard if at least half are in hard cover; else soft if
    at least half are in cover of either kind (one in hard, one in soft, one in the open:
    soft); else none."""
    hard = covers.count("hard")
    if hard * 2 >= len(covers) > 0:
        return "hard"
    return "soft" if (hard + covers.count("soft")) * 2 >= len(covers) > 0 else "none"
