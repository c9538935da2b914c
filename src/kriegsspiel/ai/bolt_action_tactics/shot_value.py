"""What a shooting is worth to the tactical player: the target's points it is expected to
destroy, with pins valued too.

The exact odds are the game's own (:mod:`~kriegsspiel.rulesets.bolt_action.attack`): at a
vehicle, its points by the chance to knock it out; at troops, the casualties expected by
the points a man, and the pins expected at :data:`PIN_VALUE` each. It is apart from the
player because it reads nothing the player remembers, only the game: a plain function,
its odds remembered by the shooting groups the game hands back.
"""

from __future__ import annotations

from functools import lru_cache

from kriegsspiel.core.memo import BoundedMemo
from kriegsspiel.core.table import Point
from kriegsspiel.rulesets.bolt_action.attack import (
    TroopsContext,
    expected_troops,
    knock_out_chance,
    troops_context,
)
from kriegsspiel.rulesets.bolt_action.edition import Rules
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.threats import harmless_to
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.rulesets.bolt_action.shooting import Group

PIN_VALUE = 4.0  # points a pin on an enemy unit is worth to the AI (a tuning choice)


@lru_cache(maxsize=4096)
def _knock_out_odds(groups: tuple[Group, ...]) -> float:
    """The exact chance this shooting knocks the vehicle out (as a float)."""
    return float(knock_out_chance(groups))


@lru_cache(maxsize=4096)
def _troops_expected(groups: tuple[Group, ...], ctx: TroopsContext) -> tuple[float, float]:
    """Expected casualties and pins of this shooting at troops (exact, then as floats)."""
    casualties, pins = expected_troops(groups, ctx)
    return float(casualties), float(pins)


# The odds of each groups tuple :func:`damage` has weighed, by its identity: the game
# remembers its shooting groups, so the same tuple comes back while nothing it depends on
# changes, and its odds are found again without hashing every shot. An entry holds its
# tuple (so the identity is not reused while it stands) and checks the edition and the
# target's part (live models, quality, pins) it was worked out for.
_ODDS_BY_GROUPS: BoundedMemo[
    int, tuple[tuple[Group, ...], Rules, tuple[int, str, int] | None, tuple[float, float]]
]
_ODDS_BY_GROUPS = BoundedMemo("odds of shooting groups", 4096)


def damage(
    state: BoltActionGame,
    unit: UnitState,
    target: UnitState,
    *,
    moving: bool,
    origin: Point | None = None,
    heading: float | None = None,
) -> float:
    """Expected points of ``target`` destroyed by this shooting (pins valued too), by
    a vehicle facing ``heading`` if given (as a move would leave it)."""
    vehicle = target.vehicle
    if vehicle is not None and harmless_to(state.rules, unit, vehicle.target):
        return 0.0  # (its knock-out odds are 0, whatever its groups)
    groups = state.shot_groups(unit, target, moving=moving, origin=origin, heading=heading)
    if not groups:
        return 0.0
    rules = state.rules
    # the target's part of the odds (nothing for a vehicle): with the groups, all they read
    # (its live models counted by their places, two coordinates each: no list is made)
    about = None if vehicle is not None else (len(target.coords) // 2, target.quality, target.pins)
    found = _ODDS_BY_GROUPS.get(id(groups))
    if found is not None and found[0] is groups and found[1] is rules and found[2] == about:
        means = found[3]
    else:
        if about is None:
            means = (_knock_out_odds(groups), 0.0)
        else:
            ctx = troops_context(
                rules, groups, quality=target.quality, models=about[0], pins=target.pins
            )
            means = _troops_expected(groups, ctx)
        _ODDS_BY_GROUPS.keep(id(groups), (groups, rules, about, means))
    if vehicle is not None:
        return means[0] * target.points
    per_model = target.points / max(1, target.start_models)
    return means[0] * per_model + means[1] * PIN_VALUE
