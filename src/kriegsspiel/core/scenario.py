"""Scenarios: the table, its terrain, deployment zones, objectives and how the game is won.

Knows no ruleset: a terrain category is any text here (the Bolt Action family's games,
which refuse any other, take "open ground", "rough ground", "obstacle", "building" and
"road" and the other names of ``bolt_action.data.CATEGORY_SYNONYMS``), and ``notes`` holds a
remark per ruleset (by the name ``--ruleset`` takes). Every polygon must be simple (its edges never cross) and lie on the
table; shapely decides simplicity when it is installed, a small pure-Python check when not.

>>> from kriegsspiel.core.scenario import load_scenario, sample_scenarios
>>> scenario = load_scenario(sample_scenarios()[0])
>>> (scenario.table.width, scenario.table.height, scenario.turns, scenario.another_turn_on)
(72.0, 48.0, 6, 4)
>>> scenario.length_text()
'6 turns, a seventh on a D6 roll of 4+'
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import (
    AfterValidator,
    Field,
    ModelWrapValidatorHandler,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from kriegsspiel.core import arguments
from kriegsspiel.core.datafile import (
    AT_ITEM,
    Name,
    Number,
    Remark,
    Strict,
    TrueOrFalse,
    WholeNumber,
    load_yaml,
    parse_yaml,
)
from kriegsspiel.core.names import a_or_an, counted, ordinal
from kriegsspiel.errors import suggest
from kriegsspiel.rulesets import RULESETS

Point = tuple[Number, Number]
Cover = Literal["none", "soft", "hard"]
# Who a scenario may make a feature impassable to (sheets 000, 001: terrain "designated as
# an anti-tank obstacle, or impassable bocage ... impassable to all types of vehicle",
# "designated impassable to walkers"): "vehicles" are wheeled, half-tracked and tracked
# vehicles (walkers have their own designation), "everyone" every unit (a deep river).
Mover = Literal["everyone", "infantry", "artillery", "vehicles", "walkers"]
Victory = Literal["units destroyed", "objectives"]

# Limits of the tool, not rules (no scenario sheet caps them): each far above a real
# scenario's (the shipped ones are 6 turns, their objectives worth 1 or 2 points, their
# polygons at most 8 points), they catch a typo before it costs minutes or a run's games.
# At most MOST_TURNS turns: a turn takes about two actions a unit (a draw and an order;
# measured: at most 185 a turn with two lists at their limits, 40 units a side, and the
# random playouts of the tests check no more than five a unit), so even a game whose armies
# cannot harm each other ends well within the actions ``kriegsspiel.ai.players.play``
# allows a game (MAX_ACTIONS, 100,000), and plays in about a minute (measured: 30 turns of
# 40 unkillable units a side in 17 s).
MOST_TURNS = 100
# An objective's points at most MOST_OBJECTIVE_POINTS (as a unit's): the scores are stored
# as whole numbers in a results file, which takes no more than 2**63 - 1.
MOST_OBJECTIVE_POINTS = 10_000
# A polygon's points at most MOST_POLYGON_POINTS: every move and line of sight is checked
# against every edge (measured: a game over a 2,000-point polygon takes 1.6 s against
# 0.9 s; over 20,000 points, nearly 4 minutes).
MOST_POLYGON_POINTS = 1_000
# A table's side at most MOST_TABLE_INCHES (83 feet; a big club table is 12 feet): the
# environments for learning agents cut the table into 3" cells, and a table of 72 million
# inches asked them for 46 GiB (measured) where the game itself took it without a word.
MOST_TABLE_INCHES = 1_000


class Table(Strict):
    """The playing area in inches; (0, 0) is a corner, x runs along the width."""

    width: Number = Field(default=72.0, gt=0)
    height: Number = Field(default=48.0, gt=0)

    @field_validator("width", "height")
    @classmethod
    def _within_the_limit(cls, inches: float) -> float:
        if inches > MOST_TABLE_INCHES:
            raise _problem(
                f"must be {MOST_TABLE_INCHES:,} inches or less (not {inches:,.12g}): a tool "
                "limit, not a rule (a 6' x 4' table is 72 x 48)"
            )
        return inches

    def contains(self, x: float, y: float) -> bool:
        return 0 <= x <= self.width and 0 <= y <= self.height

    def describe(self) -> str:
        return f'the {self.width:g}" x {self.height:g}" table (x 0-{self.width:g}, y 0-{self.height:g})'


# The table of the scenario being validated, for the nested polygons (set by Scenario).
_TABLE: ContextVar[Table | None] = ContextVar("scenario_table", default=None)


@contextmanager
def _with_table(table: Table | None) -> Iterator[None]:
    token = _TABLE.set(table)
    try:
        yield
    finally:
        _TABLE.reset(token)


def _problem(text: str, item: int | str | None = None) -> PydanticCustomError:
    """A validation error whose message is ``text``; ``item``: the one item (index or key)
    of the list or mapping checked that is wrong, told at its own line."""
    where = {} if item is None else {AT_ITEM: item}
    return PydanticCustomError("scenario", "{problem}", {"problem": text, **where})


# ------------------------------------------------------------------------------ geometry
def _orientation(a: Point, b: Point, c: Point) -> int:
    cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (cross > 0) - (cross < 0)


def _on_segment(a: Point, b: Point, p: Point) -> bool:
    """``p``, known to be collinear with a-b, lies on the closed segment a-b."""
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def segments_intersect(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Do the closed segments a-b and c-d share at least one point?"""
    o1, o2, o3, o4 = (
        _orientation(a, b, c),
        _orientation(a, b, d),
        _orientation(c, d, a),
        _orientation(c, d, b),
    )
    if o1 != o2 and o3 != o4:
        return True
    return (
        (o1 == 0 and _on_segment(a, b, c))
        or (o2 == 0 and _on_segment(a, b, d))
        or (o3 == 0 and _on_segment(c, d, a))
        or (o4 == 0 and _on_segment(c, d, b))
    )


def self_intersection_pure(points: Sequence[Point]) -> str | None:
    """Pure Python: which two edges of the closed ring touch or cross, if any (O(n²))."""
    n = len(points)
    edges = [(points[i], points[(i + 1) % n]) for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            a, b = edges[i]
            c, d = edges[j]
            if j == i + 1 or (i == 0 and j == n - 1):
                # neighbours share one corner; they may only meet there (no fold-back)
                shared, other_i, other_j = (b, a, d) if j == i + 1 else (a, b, c)
                if _orientation(other_i, shared, other_j) == 0 and (
                    _on_segment(shared, other_i, other_j) or _on_segment(shared, other_j, other_i)
                ):
                    return f"edges {i + 1} and {j + 1} fold back onto each other"
                continue
            if segments_intersect(a, b, c, d):
                return f"edges {i + 1} and {j + 1} cross"
    return None


@cache
def _shapely() -> Any | None:
    """The shapely module when installed (an optional dependency), else None."""
    try:
        return importlib.import_module("shapely")
    except ImportError:
        return None


def self_intersection(points: Sequence[Point]) -> str | None:
    """Where a closed ring of at least three distinct points intersects itself, if it does."""
    shapely = _shapely()
    if shapely is None:
        return self_intersection_pure(points)
    polygon = shapely.Polygon(points)
    if polygon.is_valid:
        return None
    reason: str = shapely.is_valid_reason(polygon)
    return f"shapely finds: {reason}"


def polygon_problem(points: Sequence[Point]) -> str | None:
    """Why ``points`` (a closed ring, not repeating its first point) is no simple polygon."""
    if len(set(points)) < 3:
        return "a polygon needs at least 3 distinct points"
    for i in range(len(points)):
        if points[i] == points[i - 1]:
            return f"point {i + 1} repeats point {i or len(points)}"
    if all(_orientation(points[0], points[1], p) == 0 for p in points[2:]):
        return "the polygon has no area (its points lie on one line)"
    where = self_intersection(points)
    if where is not None:
        return f"the polygon intersects itself ({where}); its edges must not cross"
    return None


def _at_most(value: int, most: int, why: str) -> int:
    """``value``, if no more than the tool limit ``most``; else the problem, with ``why``."""
    if value > most:
        raise _problem(f"must be {most:,} or less (not {value:,}): {why}")
    return value


def _valid_polygon(points: tuple[Point, ...]) -> tuple[Point, ...]:
    if len(points) > MOST_POLYGON_POINTS + (points[:1] == points[-1:]):
        raise _problem(
            f"the polygon has {len(points):,} points; kriegsspiel takes at most "
            f"{MOST_POLYGON_POINTS:,} a polygon (a tool limit, not a rule: every move and "
            "line of sight is checked against each edge, so a game would take minutes)"
        )
    if len(points) > 3 and points[0] == points[-1]:
        points = points[:-1]  # a closed ring written out in full
    problem = polygon_problem(points)
    if problem is not None:
        raise _problem(problem)
    table = _TABLE.get()
    if table is not None:
        outside = [(i, p) for i, p in enumerate(points, 1) if not table.contains(*p)]
        if outside:
            listed = ", ".join(f"point {i} [{x:g}, {y:g}]" for i, (x, y) in outside)
            raise _problem(f"{listed} outside {table.describe()}")
    return points


# No Field(min_length=3): pydantic would add a confusing length error whenever a point is
# malformed; _valid_polygon counts the distinct points itself.
Polygon = Annotated[tuple[Point, ...], AfterValidator(_valid_polygon)]


# -------------------------------------------------------------------------------- models
class TerrainFeature(Strict):
    """A piece of terrain: its outline, what it counts as, the cover it gives, whether it hides."""

    name: Name
    category: str = Field(min_length=1)
    cover: Cover = "none"
    blocks_line_of_sight: TrueOrFalse = False
    impassable_to: tuple[Mover, ...] = ()
    polygon: Polygon

    @field_validator("impassable_to")
    @classmethod
    def _each_mover_once(cls, movers: tuple[str, ...]) -> tuple[str, ...]:
        twice = sorted({m for m in movers if movers.count(m) > 1})
        if twice:
            raise _problem(f"{', '.join(map(repr, twice))} is given twice: give each once")
        if "everyone" in movers and len(movers) > 1:
            raise _problem(
                "'everyone' already takes in infantry, artillery, vehicles and walkers: "
                "give it alone"
            )
        return movers


class DeploymentZone(Strict):
    """Where one side sets up; a side may have several zones."""

    side: Name
    polygon: Polygon


class Objective(Strict):
    """A point on the table worth ``points`` to the side holding it at the end."""

    name: Name
    x: Number
    y: Number
    points: WholeNumber = Field(default=1, ge=0)

    @field_validator("points")
    @classmethod
    def _within_the_limit(cls, points: int) -> int:
        return _at_most(
            points,
            MOST_OBJECTIVE_POINTS,
            f"an objective is worth at most {MOST_OBJECTIVE_POINTS:,} points to kriegsspiel, "
            "as a unit is (a tool limit, not a rule; the shipped objectives are worth 1 or 2)",
        )

    @model_validator(mode="after")
    def _on_the_table(self) -> Self:
        table = _TABLE.get()
        if table is not None and not table.contains(self.x, self.y):
            raise _problem(
                f"objective {self.name!r} at [{self.x:g}, {self.y:g}] is outside {table.describe()}"
            )
        return self


class Scenario(Strict):
    """A battle to fight: any ruleset can play it."""

    file_kind: ClassVar[str] = "scenario"

    name: Name
    description: Remark = ""
    table: Table = Field(default_factory=Table)
    turns: WholeNumber = Field(ge=1)
    # at the end of the last turn a D6 is rolled: on this score or more one more turn is
    # played (the published rulebooks' scenarios: "a seventh turn on 4+"); None (left
    # out): the game lasts ``turns`` turns, no more
    another_turn_on: WholeNumber | None = None
    victory: Victory
    terrain: tuple[TerrainFeature, ...] = ()
    deployment: tuple[DeploymentZone, ...]
    objectives: tuple[Objective, ...] = Field(default=(), validate_default=True)
    notes: dict[str, Remark] = Field(default_factory=dict)  # ruleset name -> remark

    @model_validator(mode="wrap")
    @classmethod
    def _table_for_nested_checks(
        cls, data: Any, handler: ModelWrapValidatorHandler[Scenario]
    ) -> Scenario:
        table: Table | None = Table()
        raw = data.get("table") if isinstance(data, dict) else getattr(data, "table", None)
        if raw is not None:
            try:
                table = Table.model_validate(raw)
            except ValidationError:
                table = None  # reported at the table itself; skip the containment checks
        with _with_table(table):
            return handler(data)

    @field_validator("notes")
    @classmethod
    def _notes_for_rulesets(cls, notes: dict[str, str]) -> dict[str, str]:
        """A note is kept for a ruleset by its command-line name: one misspelt would never
        be shown (the briefing shows a note under its ruleset's name)."""
        for name in notes:
            if name not in RULESETS:
                raise _problem(
                    f"{name!r}{suggest(name, RULESETS)} is not a ruleset's name: a note is kept by the name "
                    f"--ruleset takes, one of {', '.join(RULESETS)}",
                    item=name,
                )
        return notes

    @field_validator("turns")
    @classmethod
    def _within_the_limit(cls, turns: int) -> int:
        return _at_most(
            turns,
            MOST_TURNS,
            f"kriegsspiel plays games of at most {MOST_TURNS} turns (a tool limit, not a "
            "rule; the shipped scenarios are 6 turns)",
        )

    @field_validator("another_turn_on")
    @classmethod
    def _a_die_score(cls, on: int | None) -> int | None:
        if on is not None and not 2 <= on <= 6:
            raise _problem(
                f"is the D6 score that plays one more turn, 2 to 6 (not {on}): 4 is the "
                "published scenarios' (a seventh turn on 4+); for a game that always has "
                "one more turn give it in turns, and leave this out for a fixed length"
            )
        return on

    @field_validator("deployment")
    @classmethod
    def _two_sides(cls, zones: tuple[DeploymentZone, ...]) -> tuple[DeploymentZone, ...]:
        sides = {z.side for z in zones}
        if len(sides) < 2:
            raise _problem(
                f"deployment zones are needed for at least two sides (found: {', '.join(sorted(sides)) or 'none'})"
            )
        shapely = _shapely()
        for i, a in enumerate(zones):
            for j, b in enumerate(zones[i + 1 :], i + 1):
                if a.side == b.side or shapely is None:
                    continue
                shared = shapely.Polygon(a.polygon).intersection(shapely.Polygon(b.polygon)).area
                if shared > 0:
                    raise _problem(
                        f"the deployment zones of {a.side!r} and {b.side!r} overlap "
                        f"({shared:g} square inches); each side sets up on its own ground",
                        item=j,
                    )
        return zones

    @field_validator("objectives")
    @classmethod
    def _objectives(
        cls, objectives: tuple[Objective, ...], info: ValidationInfo
    ) -> tuple[Objective, ...]:
        if info.data.get("victory") == "objectives" and not objectives:
            raise _problem("victory is 'objectives', so the scenario needs at least one objective")
        if info.data.get("victory") == "units destroyed" and objectives:
            raise _problem(
                "victory is 'units destroyed', so these objectives would count for nothing: "
                "give victory: objectives, or leave the objectives out"
            )
        if objectives and not any(o.points for o in objectives):
            raise _problem(
                "every objective is worth 0 points, so no side could ever score and every "
                "game would end level: give at least one objective points (1 is the default)"
            )
        return objectives

    @model_validator(mode="after")
    def _terrain_told_apart(self) -> Self:
        """Each feature once, under a name of its own (the briefing, the table drawn and a
        move refused tell features by name), and no two buildings on the same ground
        (a building is entered and fought over as one: overlapping, which is which there?).
        Other features may overlap: a road over ground made impassable is a bridge."""
        problem = terrain_problem(self.terrain)
        if problem is None:
            return self
        loc, text = problem
        raise ValidationError.from_exception_data(
            "Scenario",
            [InitErrorDetails(type=_problem(text), loc=loc, input=self.terrain[int(loc[1])])],
        )

    @model_validator(mode="after")
    def _objectives_told_apart(self) -> Self:
        """Each objective under a name of its own (the score and the account tell them by
        name), told at the second one's own name."""
        for j, objective in enumerate(self.objectives):
            first = next(i for i, o in enumerate(self.objectives) if o.name == objective.name)
            if first == j:
                continue
            text = (
                f"objectives.{first} and objectives.{j} are both named {objective.name!r}: "
                "give each objective a name of its own (the score and the account of a game "
                "tell them by name)"
            )
            raise ValidationError.from_exception_data(
                "Scenario",
                [
                    InitErrorDetails(
                        type=_problem(text), loc=("objectives", j, "name"), input=objective.name
                    )
                ],
            )
        return self

    def sides(self) -> list[str]:
        """The sides in the order their first deployment zone is listed."""
        return list(dict.fromkeys(z.side for z in self.deployment))

    # ------------------------------------------------------------------ the game's length
    @property
    def most_turns(self) -> int:
        """The turns a game may last: ``turns``, one more where a roll may add it."""
        return self.turns + (self.another_turn_on is not None)

    @property
    def another_turn_chance(self) -> float:
        """The chance of the roll at the end of the last turn giving one more (0: none)."""
        on = self.another_turn_on
        return 0.0 if on is None else (7 - on) / 6

    def may_follow(self, turn: int) -> bool:
        """Whether a turn may come after ``turn`` (:func:`may_follow`)."""
        return may_follow(turn, self.turns, self.another_turn_on)

    def rolls_after(self, turn: int) -> bool:
        """Whether the end of ``turn`` brings the roll for one more turn."""
        return turn == self.turns and self.another_turn_on is not None

    def last_turn_chance(self, turn: int) -> float:
        """The chance that ``turn`` is the game's last, seen from within it: none before
        the last turn, all in it (or in the turn a roll added), the chance that the roll
        gives no other turn in a last turn that has one."""
        if turn < self.turns:
            return 0.0
        if turn == self.turns:
            return 1.0 - self.another_turn_chance
        return 1.0

    def length_text(self) -> str:
        """The game's length as said (:func:`length_text`)."""
        return length_text(self.turns, self.another_turn_on)

    def turn_of(self, turn: int) -> str:
        """Where ``turn`` stands in the game, as the headings say: "3 of 6"; the last turn
        where a roll may add one "6 of 6 (a seventh on 4+)"; the turn it added "7 of 7"."""
        if turn > self.turns:
            return f"{turn} of {turn}"
        if not self.rolls_after(turn):
            return f"{turn} of {self.turns}"
        return f"{turn} of {self.turns} ({a_or_an(ordinal(turn + 1))} on {self.another_turn_on}+)"


# ------------------------------------------------------------------ the game's length
# (functions of the turns and the roll, shared by the game and the play aid, which keeps
# them without a scenario)
def may_follow(turn: int, turns: int, another_turn_on: int | None) -> bool:
    """Whether a turn may come after ``turn`` of a game of ``turns`` whose last may be
    followed by one more on a D6 of ``another_turn_on`` or more (None: no roll): any
    before the last; after the last, where it rolls; never after the turn a roll added.
    A unit on Down or Ambush may keep its die into a turn that may come."""
    return turn < turns or (turn == turns and another_turn_on is not None)


def length_text(turns: int, another_turn_on: int | None) -> str:
    """A game's length as said: "6 turns", "6 turns, a seventh on a D6 roll of 4+"."""
    told = counted(turns, "turn")
    if another_turn_on is None:
        return told
    return f"{told}, {a_or_an(ordinal(turns + 1))} on a D6 roll of {another_turn_on}+"


def scenario_warnings(scenario: Scenario) -> list[tuple[tuple[str | int, ...], str]]:
    """What in a sound scenario is legal but probably a mistake: each at its place in the
    file and what is odd about it (with shapely: zones of one side that overlap)."""
    told: list[tuple[tuple[str | int, ...], str]] = []
    shapely = _shapely()
    zones = scenario.deployment
    for j, b in enumerate(zones):
        for i, a in enumerate(zones[:j]):
            if a.side != b.side or shapely is None:
                continue
            shared = shapely.Polygon(a.polygon).intersection(shapely.Polygon(b.polygon)).area
            if shared > 0:
                told.append(
                    (
                        ("deployment", j, "polygon"),
                        f"this zone of {b.side!r} overlaps its zone {i} by {shared:g} square "
                        "inches: a side's units are shared among its zones by their areas, so "
                        "the overlap counts twice; let the zones meet edge to edge",
                    )
                )
    sides = scenario.sides()
    for extra in sides[2:]:
        j = next(k for k, z in enumerate(zones) if z.side == extra)
        told.append(
            (
                ("deployment", j, "side"),
                f"a game has two armies, set up in the first two sides' zones "
                f"({sides[0]!r} and {sides[1]!r}): side {extra!r} is left unused",
            )
        )
    return told


def terrain_problem(
    terrain: Sequence[TerrainFeature],
) -> tuple[tuple[str | int, ...], str] | None:
    """The first feature that repeats another's name or the feature itself, or (with
    shapely) a building that overlaps an earlier one: its place in the scenario and what is
    wrong; None if there is none."""
    shapely = _shapely()
    for j, feature in enumerate(terrain):
        for i, earlier in enumerate(terrain[:j]):
            told = f"terrain.{j} ({feature.name!r})"
            if earlier.model_dump(exclude={"name"}) == feature.model_dump(exclude={"name"}):
                again = "again" if earlier.name == feature.name else f"again as {feature.name!r}"
                return ("terrain", j), (
                    f"{told} is terrain.{i} ({earlier.name!r}) {again}: the same feature, "
                    "defined twice; give each feature once"
                )
            if earlier.name == feature.name:
                return ("terrain", j, "name"), (
                    f"terrain.{i} and terrain.{j} are both named {feature.name!r}: give each "
                    "terrain feature a name of its own (the briefing, the table drawn and a "
                    "move refused tell them by name)"
                )
            both = {earlier.category.lower(), feature.category.lower()} == {"building"}
            if not both or shapely is None:
                continue
            shared = shapely.Polygon(earlier.polygon).intersection(shapely.Polygon(feature.polygon))
            if shared.area > 0:
                return ("terrain", j, "polygon"), (
                    f"the building {feature.name!r} overlaps the building {earlier.name!r} "
                    f"(terrain.{i}) by {shared.area:g} square inches: two buildings cannot "
                    "stand on the same ground; move one, or make them one building (two may "
                    "share a wall)"
                )
    return None


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario; raise DataFileError naming file, line and field."""
    return load_yaml(arguments.path("path", path), Scenario)


def parse_scenario(text: str, name: str) -> Scenario:
    """The same as :func:`load_scenario` for a scenario held as text."""
    return parse_yaml(text, Scenario, name)


def sample_scenarios() -> list[Path]:
    """The scenarios that ship with kriegsspiel, sorted by file name."""
    folder = resources.files("kriegsspiel") / "data" / "scenarios"
    if not folder.is_dir():
        return []
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.endswith(".yaml"))
