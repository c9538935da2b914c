"""Units and models on the table during a game: positions, pins, orders, damage."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from kriegsspiel.core.table import Point
from kriegsspiel.rulesets.bolt_action.army import ArmyList
from kriegsspiel.rulesets.bolt_action.army import Unit as UnitSpec
from kriegsspiel.rulesets.bolt_action.edition import Rules, Target

SPACING = 1.0  # inches between infantry models in a unit's formation (assumption)
# The model fields a unit's remembered places (and officer, and arms) depend on.
_PLACE = frozenset({"x", "y", "alive", "officer", "weapons", "used_one_shot"})


@dataclass(frozen=True, slots=True)
class _Places:
    """What a unit's live models' places come to (and their officer and arms).

    A unit keeps one (see UnitState._places) until one of its models changes a field in
    ``_PLACE``, which counts a change on the unit's ``_changes`` (shared with its models
    when the places are worked out: a plain counter, so no reference cycle keeps a finished
    game's units alive). A new models tuple is noticed too (models are a tuple, so they
    cannot change in place unnoticed).
    """

    changes: int  # the unit's count of changes when these were worked out
    models: tuple[Model, ...]
    alive: tuple[Model, ...]
    anchor: Point
    coords: tuple[float, ...]
    officer: str | None  # the first live officer's rank
    arms: tuple[tuple[tuple[str, ...], bool], ...]  # each live model's weapons, one-shot used
    radius: float  # how far the farthest live model stands from the anchor

    @staticmethod
    def of(unit: UnitState) -> _Places:
        models, changes = unit.models, unit._changes
        for m in models:
            object.__setattr__(m, "_changes", changes)  # (Model.__setattr__ counts on it)
        alive = tuple([m for m in models if m.alive])
        placed = alive or models  # the centre of all of them when none is left
        anchor = Point(
            sum(m.x for m in placed) / len(placed), sum(m.y for m in placed) / len(placed)
        )
        coords = tuple([c for m in alive for c in (m.x, m.y)])
        officer = next((m.officer for m in alive if m.officer), None)
        arms = tuple([(m.weapons, m.used_one_shot) for m in alive])
        radius = max([math.hypot(m.x - anchor.x, m.y - anchor.y) for m in alive], default=0.0)
        return _Places(changes[0], models, alive, anchor, coords, officer, arms, radius)


@dataclass(slots=True)
class Model:
    """One figure (or the one vehicle model) with its weapons and place on the table."""

    name: str
    weapons: tuple[str, ...]
    x: float
    y: float
    officer: str | None = None
    nco: bool = False
    alive: bool = True
    used_one_shot: bool = False
    observer: str | None = None  # "artillery" or "air": may call in support
    # the change count of the unit whose remembered places this model is in (_Places.of)
    _changes: list[int] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def point(self) -> Point:
        return Point(self.x, self.y)

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if name in _PLACE:
            changes = getattr(self, "_changes", None)  # (unset while the model is made)
            if changes is not None:
                changes[0] += 1


@dataclass(frozen=True, slots=True)
class VehicleInfo:
    """What a vehicle is: its movement type, damage value and special rules."""

    kind: str  # wheeled | half-tracked | tracked | walker
    target: Target
    open_topped: bool
    recce: bool
    automaton: bool
    arcs: tuple[tuple[str, str], ...]  # (weapon, facing arc)

    def mounts(self, weapon: str) -> str:
        """Where the army list mounts each of its ``weapon``s, as a card says it: "turret,
        hull (front arc)" ("" if the list mounts none of them)."""
        said = {"turret": "turret", "all-round": "all round"}
        return ", ".join(
            said.get(arc, f"hull ({arc} arc)") for name, arc in self.arcs if name == weapon
        )


@dataclass(slots=True)
class UnitState:
    """A unit in play."""

    uid: int
    side: int
    name: str
    kind: str  # infantry | artillery | team | vehicle
    quality: str
    points: int
    models: tuple[Model, ...]  # never changed in place: a unit is handed a new tuple
    start_models: int
    vehicle: VehicleInfo | None = None
    heading: float = 0.0  # degrees, compass style: 0 points along +y, 90 along +x
    pins: int = 0
    order: str | None = None  # the order die this turn
    retained: str | None = None  # Down or Ambush kept from the last turn
    moved: str | None = None  # "advance" / "run" this turn, for infantry assaulting vehicles
    destroyed: bool = False
    immobilised: bool = False
    ranged_in_on: int | None = None
    damage_dealt: float = 0.0
    support_used: bool = False  # an observer's one barrage or air strike
    no_run: bool = False  # hit by a gravity pulse: no Run order at the next activation
    _remembered: _Places | None = field(default=None, init=False, repr=False, compare=False)
    _changes: list[int] = field(default_factory=lambda: [0], init=False, repr=False, compare=False)

    def _places(self) -> _Places:
        """The live models and their places, worked out again only after a model changed."""
        found, models = self._remembered, self.models
        if found is None or found.changes != self._changes[0] or found.models is not models:
            found = self._remembered = _Places.of(self)
        return found

    def places_key(self) -> object:
        """An object that stands for the live models' places, officer and arms: the same
        one while none of them changes, a new one after any does. Compare it by identity
        (held, it is never reused for another)."""
        return self._places()

    @property
    def arms(self) -> tuple[tuple[tuple[str, ...], bool], ...]:
        """Each live model's weapons and whether it has used its one-shot weapon."""
        return self._places().arms

    @property
    def radius(self) -> float:
        """How far the farthest live model stands from the centre (0 with none left)."""
        return self._places().radius

    def officer_rank(self) -> str | None:
        """The first live officer's rank, if any."""
        return self._places().officer

    # The properties below repeat _places's test inline: they are read very often, and a
    # remembered answer that still stands then costs no call.

    @property
    def alive_models(self) -> list[Model]:
        found, models = self._remembered, self.models
        if found is None or found.changes != self._changes[0] or found.models is not models:
            found = self._places()
        return list(found.alive)

    @property
    def anchor(self) -> Point:
        """The centre of the live models (of all of them when none is left)."""
        found, models = self._remembered, self.models
        if found is None or found.changes != self._changes[0] or found.models is not models:
            found = self._places()
        return found.anchor

    @property
    def coords(self) -> tuple[float, ...]:
        """The live models' places as one flat tuple: (x0, y0, x1, y1, ...)."""
        found, models = self._remembered, self.models
        if found is None or found.changes != self._changes[0] or found.models is not models:
            found = self._places()
        return found.coords

    @property
    def is_down(self) -> bool:
        return self.order == "Down" or self.retained == "Down"

    @property
    def is_ambushing(self) -> bool:
        return self.order == "Ambush" or self.retained == "Ambush"

    def translate(self, dx: float, dy: float) -> None:
        for m in self.models:
            m.x += dx
            m.y += dy

    def copy(self) -> UnitState:
        fields = {f: getattr(self, f) for f in _UNIT_FIELDS if f != "models"}
        clone = UnitState(**fields, models=())  # models are required: filled in just below
        clone.models = tuple(
            [
                Model(
                    m.name,
                    m.weapons,
                    m.x,
                    m.y,
                    m.officer,
                    m.nco,
                    m.alive,
                    m.used_one_shot,
                    m.observer,
                )
                for m in self.models
            ]
        )
        return clone


def points_lost(unit: UnitState) -> float:
    """The points of the unit the enemy has taken: its lost models' share, or all of it
    once destroyed (a vehicle: nothing until it is destroyed)."""
    if unit.destroyed:
        return float(unit.points)
    if unit.vehicle is not None:
        return 0.0
    alive = sum(1 for m in unit.models if m.alive)
    return unit.points * (unit.start_models - alive) / max(1, unit.start_models)


_UNIT_FIELDS = tuple(name for name, f in UnitState.__dataclass_fields__.items() if f.init)


def formation(count: int, centre: Point, heading: float) -> list[Point]:
    """Places for ``count`` models: ranks of five, 1" apart, facing ``heading``."""
    per_rank = 5
    rad = math.radians(heading)
    right = (math.cos(rad), -math.sin(rad))
    back = (-math.sin(rad), -math.cos(rad))
    points = []
    for i in range(count):
        rank, file = divmod(i, per_rank)
        in_rank = min(per_rank, count - rank * per_rank)
        offset = (file - (in_rank - 1) / 2) * SPACING
        points.append(
            Point(
                centre.x + right[0] * offset + back[0] * rank * SPACING,
                centre.y + right[1] * offset + back[1] * rank * SPACING,
            )
        )
    return points


def build_units(rules: Rules, army: ArmyList, side: int, first_uid: int) -> list[UnitState]:
    """Turn an army list into units (not yet deployed: all at the origin)."""
    units: list[UnitState] = []
    for i, spec in enumerate(army.units):
        units.append(_unit(rules, spec, side, first_uid + i))
    return units


def _unit(rules: Rules, spec: UnitSpec, side: int, uid: int) -> UnitState:
    vehicle = None
    models: list[Model] = []
    if spec.vehicle is not None:
        v = spec.vehicle
        vehicle = VehicleInfo(
            kind=v.kind,
            target=rules.target(v.damage_value_of),
            open_topped=v.open_topped,
            recce=v.recce,
            automaton=v.automaton,
            arcs=tuple((w.weapon, w.facing) for w in v.weapons),
        )
        models.append(Model(spec.name, tuple(w.weapon for w in v.weapons), 0.0, 0.0))
    else:
        for m in spec.models:
            for _ in range(m.count):
                models.append(
                    Model(m.name, tuple(m.weapons), 0.0, 0.0, m.officer, m.nco, observer=m.observer)
                )
    return UnitState(
        uid=uid,
        side=side,
        name=spec.name,
        kind=spec.type,
        quality=spec.quality,
        points=spec.points,
        models=tuple(models),
        start_models=len(models),
        vehicle=vehicle,
    )


def credit(by: UnitState | None, lost: UnitState, models: int) -> None:
    """Credit ``by`` with the points of ``models`` of ``lost``'s models (a vehicle: all its
    points) as damage dealt; not an attack on its own side (friendly fire, a shockwave)."""
    if by is None or by.side == lost.side or lost.destroyed or models <= 0:
        return
    share = 1.0 if lost.vehicle is not None else models / max(1, lost.start_models)
    by.damage_dealt += lost.points * share
