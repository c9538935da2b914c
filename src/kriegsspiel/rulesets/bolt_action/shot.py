"""A shot as planned: the :class:`Situation` it is fired in (the firer, the target, the
table), the :class:`Shot` of one weapon at one target (what every die needs), a
:class:`Group` of identical shots, and :class:`Firing` (how a weapon fires at this target).
``shooting.py`` plans a shot in steps (``to_hit.py``, ``troop_damage.py``, ``pen.py``);
the rolls, the odds, the game and the AI read what it planned.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Literal, NamedTuple

from kriegsspiel.core.dice import DiceExpr
from kriegsspiel.rulesets.bolt_action.vehicle_damage import (
    PenParts,
    VehicleProfile,
)

#: A unit of this many models or fewer at the start of the game is small (docs/rules).
SMALL_UNIT_MODELS = 2


Cover = Literal["none", "soft", "hard"]


Facing = Literal["front", "side", "top", "rear"]


ONE = DiceExpr("1")


@dataclass(frozen=True, slots=True)
class Situation:
    """Everything about the firer, the target and the table that changes a shot."""

    range_inches: float
    firer_pins: int = 0
    one_crew: bool = False  # a team weapon with one crew left (its own -1, counted like a pin)
    firer_inexperienced: bool = False
    moving: bool = False
    mounted: bool = False  # the firer is a vehicle: its Fixed weapons may fire on the move
    target_down: bool = False
    small_unit: bool = False
    cover: Cover = "none"
    facing: Facing = "front"
    indirect: bool = False
    ranged_in: bool = False
    open_topped: bool = False
    automaton: bool = False
    target_pins: int = 0
    target_quality: str = "regular"
    target_models: int | None = None
    target_immobilised: bool = False  # a vehicle already immobilised: a second knocks it out
    # a friendly officer in range of a target vehicle (his rank): its crew's tests take his
    # bonus (the game plans its shots without him and adds him as it resolves them)
    target_officer: str | None = None


def down_to_a_shot(down: bool, *, vehicle: bool) -> bool:
    """Does a target count as Down to a shot? Only infantry and artillery go Down (the
    sheets' "target is Down" hit modifier); a vehicle's Down die (its crew stunned) gives a
    shooter nothing. The one place this is decided: :func:`target_situation` (the game's
    and the play aid's shots) and :func:`plan_shot` (every shot, the Python API's too) ask
    it; the odds and the aid refuse a Down vehicle asked for by name."""
    return down and not vehicle


def target_situation(
    range_inches: float,
    *,
    vehicle: bool,
    down: bool,
    start_models: int,
    models: int,
    pins: int,
    quality: str,
    open_topped: bool = False,
    automaton: bool = False,
    immobilised: bool = False,
    **firer: Any,
) -> Situation:
    """A shot's situation with the target's part read from what the target is: Down
    (troops only), a small unit (troops of two models or fewer at the start), open-topped,
    an automaton, its pins, quality and models, immobilised (vehicles only); the firer's
    part (pins, moving, cover ...) as given. The game's shots and the play aid's odds
    both set a target up here."""
    return Situation(
        range_inches=range_inches,
        target_down=down_to_a_shot(down, vehicle=vehicle),
        small_unit=not vehicle and start_models <= SMALL_UNIT_MODELS,
        open_topped=open_topped,
        automaton=automaton,
        target_pins=pins,
        target_quality=quality,
        target_models=models,
        target_immobilised=vehicle and immobilised,
        **firer,
    )


@dataclass(frozen=True, slots=True)
class Shot:
    """One shot of one weapon at one target: what every die needs."""

    weapon: str
    hit_on: tuple[int, ...] | None  # d6 scores needed in turn (7+ is (6, 4)); None: cannot hit
    hits_per_hit: DiceExpr = ONE
    halve_hits: bool = False
    damage_need: int = 7  # infantry: d6 >= this per hit
    pen: int | None = None  # vehicles: added to the d6; None: cannot damage
    special_pins: DiceExpr | None = None  # HE / flamethrower / shockwave pins
    pins_target: bool = True
    morale_check: bool = False  # flamethrower: target tests morale after the pins
    auto_effect: str | None = None  # shockwave on a vehicle
    vehicle: VehicleProfile | None = None
    indirect: bool = False  # fired indirectly: a hit ranges the firer in on the target
    # what made ``hit_on`` (for the record and its account; no die reads them, so a shot
    # is the same shot without them): the to-hit modifiers by their data keys
    # (hit_modifiers rows, "shaped_charge"), each with its value, or the rule that fixes
    # the score instead ("shockwave", "indirect_first_shot", "indirect_ranged_in")
    hit_modifiers: tuple[tuple[str, int], ...] = field(default=(), compare=False)
    hit_fixed: str = field(default="", compare=False)
    # what made ``pen`` (for the record: no die reads them either), each part by its name
    # as the reasoning tells it (:class:`PenPart`) with its value: they add up to ``pen``
    pen_parts: PenParts = field(default=(), compare=False)
    # the hash the dataclass would give, worked out once: shots (and the groups holding
    # them) key the odds' caches and are hashed very often, a vehicle's profile and all
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(_SHOT_COMPARED(self)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Shot], tuple[object, ...]]:
        # copied or unpickled, a shot works its hash out again (strings hash per process)
        return Shot, _SHOT_FIELDS(self)


# a shot's fields, in order: what it is built from; and those its hash is of (as the
# dataclass's: the ones it compares)
_SHOT_FIELDS = attrgetter(*(f for f in Shot.__dataclass_fields__ if f != "_hash"))


_SHOT_COMPARED = attrgetter(
    *(n for n, f in Shot.__dataclass_fields__.items() if n != "_hash" and f.compare)
)


@dataclass(frozen=True, slots=True)
class Group:
    """Several identical shots: models x shots per weapon."""

    shot: Shot
    shots: int


class Firing(NamedTuple):
    """How ``weapon`` fires at this target, as :func:`plan_shot`'s steps read it: its
    special rules, whether it is a flamethrower, whether it fires indirectly, and the range
    bands (point blank, long range)."""

    special: frozenset[str]
    flame: bool
    indirect: bool
    point_blank: bool
    long_range: bool

    @property
    def far(self) -> bool:
        """At long range as the rules read it: point blank wins when a short-ranged weapon
        is in both bands (the to-hit says "not long range"; assumption), so the pen roll
        takes no long-range modifier there either."""
        return self.long_range and not self.point_blank
