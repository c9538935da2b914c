"""What a shooting is worth to the tactical player: the target's points it is expected to
destroy, with pins and a vehicle's damage valued too (an assault on a vehicle is valued by
the same :func:`outcome_odds` and :func:`vehicle_worth`).

The exact odds are the game's own (:mod:`~kriegsspiel.rulesets.bolt_action.attack`): at
troops, the casualties expected by the points a man, and the pins expected at
:data:`PIN_VALUE` each; at a vehicle, everything the game applies after the attack
(:func:`~kriegsspiel.rulesets.bolt_action.attack.vehicle_outcomes`): its points by the
chance it is gone (knocked out, or its crew abandon it under as many pins as its morale),
and if it stays the pins expected at :data:`PIN_VALUE` each, an immobilisation at
:data:`IMMOBILISED_SHARE` of its points and a halt (crew stunned, on fire) at
:data:`HALTED_SHARE` of them when it still has its order to lose. It is apart from the
player because it reads nothing the player remembers, only the game: a plain function,
its odds remembered by the shooting groups the game hands back.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from kriegsspiel.core.dice import Dist
from kriegsspiel.core.memo import BoundedMemo
from kriegsspiel.core.table import Point
from kriegsspiel.rulesets.bolt_action.attack import (
    TroopsContext,
    expected_troops,
    troops_context,
    vehicle_gone,
    vehicle_outcomes,
)
from kriegsspiel.rulesets.bolt_action.edition import Rules
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.threats import harmless_to
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.rulesets.bolt_action.shot import Group
from kriegsspiel.rulesets.bolt_action.vehicle_damage import VehicleState

PIN_VALUE = 4.0  # points a pin on an enemy unit is worth to the AI (a tuning choice)
# shares of an enemy vehicle's points the AI gives (tuning choices; together no more than 1,
# as the cheap ceiling takes them, :func:`.shot_ceiling.vehicle_shot_ceiling`): its being
# immobilised for the rest of the game, and its being halted while it still has its order
# this turn (or an Ambush) to lose
IMMOBILISED_SHARE = 0.25
HALTED_SHARE = 0.1


@dataclass(frozen=True, slots=True)
class VehicleOdds:
    """What a shooting is expected to do to a vehicle, as the AI weighs it: the chance it
    is gone, and the chances and pins of what it keeps if it stays (floats of the exact
    fractions)."""

    gone: float  # knocked out, or abandoned at as many pins as its morale
    pins: float  # the mean of the pins added, counted only where it stays
    immobilised: float  # newly immobilised, and still there
    halted: float  # still there, its crew stunned or on fire
    halted_or_immobilised: float  # still there, halted or newly immobilised (either halts
    # a vehicle that has had its order this turn)


@lru_cache(maxsize=4096)
def vehicle_odds(
    groups: tuple[Group, ...], rules: Rules, quality: str, pins: int, immobilised: bool
) -> VehicleOdds:
    """:class:`VehicleOdds` of this shooting at a vehicle of ``quality`` that carries
    ``pins`` (and is already ``immobilised`` or not), from the game's own odds
    (:func:`vehicle_outcomes`)."""
    return outcome_odds(vehicle_outcomes(groups), rules, quality, pins, immobilised)


@lru_cache(maxsize=4096)
def outcome_odds(
    outcomes: Dist[VehicleState], rules: Rules, quality: str, pins: int, immobilised: bool
) -> VehicleOdds:
    """:class:`VehicleOdds` of an attack that leaves a vehicle of ``quality`` that carries
    ``pins`` (and is already ``immobilised`` or not) in these ``outcomes``, as the game
    applies them (``attack.as_applied``: a shooting's :func:`vehicle_outcomes`, or an
    assault's), and its removal of a unit under too many pins (``attack.vehicle_gone``)."""
    gone = added = stopped = newly = either = Fraction(0)
    for state, p in outcomes.items():
        if vehicle_gone(rules, quality, pins, state):
            gone += p
            continue
        added += p * state.pins
        halted = state.crew_stunned or state.on_fire
        fresh = state.immobilised and not immobilised
        stopped += p * halted
        newly += p * fresh
        either += p * (halted or fresh)
    return VehicleOdds(float(gone), float(added), float(newly), float(stopped), float(either))


def vehicle_worth(odds: VehicleOdds, target: UnitState) -> float:
    """The points :class:`VehicleOdds` are worth against the vehicle ``target`` as it
    stands. A halt turns its die to Down (``BoltActionGame.vehicle_damage``), so it is
    worth something only to a vehicle with an order still to lose: one yet to act or
    keeping an Ambush die from last turn, halted by a stun or a fire; one that took an
    Ambush this turn, by those or an immobilisation (which halts a vehicle that has had
    its order)."""
    points = target.points
    worth = (
        odds.gone * points + odds.pins * PIN_VALUE + odds.immobilised * IMMOBILISED_SHARE * points
    )
    if target.order is None and target.retained != "Down":
        worth += odds.halted * HALTED_SHARE * points
    elif target.order == "Ambush":
        worth += odds.halted_or_immobilised * HALTED_SHARE * points
    return worth


@lru_cache(maxsize=4096)
def _troops_expected(groups: tuple[Group, ...], ctx: TroopsContext) -> tuple[float, float]:
    """Expected casualties and pins of this shooting at troops (exact, then as floats)."""
    casualties, pins = expected_troops(groups, ctx)
    return float(casualties), float(pins)


# The odds of each groups tuple :func:`damage` has weighed, by its identity: the game
# remembers its shooting groups, so the same tuple comes back while nothing it depends on
# changes, and its odds are found again without hashing every shot. An entry holds its
# tuple (so the identity is not reused while it stands) and checks the edition and the
# target's part it was worked out for (live models, quality, pins; a vehicle's quality,
# pins and whether it is immobilised).
_ODDS_BY_GROUPS: BoundedMemo[
    int,
    tuple[tuple[Group, ...], Rules, tuple[object, ...], tuple[float, float] | VehicleOdds],
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
    """Expected points of ``target`` destroyed by this shooting (pins valued too, and a
    vehicle's damage: see the module), by a vehicle facing ``heading`` if given (as a
    move would leave it)."""
    vehicle = target.vehicle
    if (
        vehicle is not None
        and not vehicle.open_topped  # (small arms pin an open-topped one)
        and harmless_to(state.rules, unit, vehicle.target)
    ):
        return 0.0  # (no hit of it could damage, nor so pin, a closed vehicle)
    groups = state.shot_groups(unit, target, moving=moving, origin=origin, heading=heading)
    if not groups:
        return 0.0
    rules = state.rules
    # the target's part of the odds: with the groups, all they read (troops: its live
    # models counted by their places, two coordinates each: no list is made)
    about: tuple[object, ...] = (
        (target.quality, target.pins, target.immobilised)
        if vehicle is not None
        else (len(target.coords) // 2, target.quality, target.pins)
    )
    found = _ODDS_BY_GROUPS.get(id(groups))
    if found is not None and found[0] is groups and found[1] is rules and found[2] == about:
        means = found[3]
    else:
        if vehicle is not None:
            means = vehicle_odds(groups, rules, target.quality, target.pins, target.immobilised)
        else:
            models = len(target.coords) // 2
            ctx = troops_context(
                rules, groups, quality=target.quality, models=models, pins=target.pins
            )
            means = _troops_expected(groups, ctx)
        _ODDS_BY_GROUPS.keep(id(groups), (groups, rules, about, means))
    if isinstance(means, VehicleOdds):
        return vehicle_worth(means, target)
    per_model = target.points / max(1, target.start_models)
    return means[0] * per_model + means[1] * PIN_VALUE
