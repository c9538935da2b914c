"""Close quarters: infantry against infantry as each edition fights it, and infantry against vehicles."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache, partial
from typing import Literal

from kriegsspiel.core.dice import Dist
from kriegsspiel.core.procedure import Dice, exact
from kriegsspiel.rulesets.bolt_action.morale import MoraleTest, morale_check
from kriegsspiel.rulesets.bolt_action.shooting import (
    VehicleProfile,
    VehicleState,
    damage_level,
    resolve_damage,
)

Mode = Literal["hand-to-hand", "point-blank"]


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a close quarters fight."""

    damage_value: int  # what the enemy needs to damage this side
    morale: MoraleTest
    attacks_per_model: int = 1  # hand-to-hand attacks of an ordinary model
    assault_models: int = 0  # models with assault weapons (more attacks)
    assault_attacks: int = 2
    mode: Mode = "hand-to-hand"
    shots_per_model: int = 1  # point-blank fire
    point_blank_hit: int = 2  # d6 score to hit with point-blank fire

    def attacks(self, models: int) -> int:
        """Hand-to-hand attacks of ``models`` survivors; assault weapons are lost first-last."""
        assault = min(self.assault_models, models)
        return assault * self.assault_attacks + (models - assault) * self.attacks_per_model


@dataclass(frozen=True, slots=True, order=True)
class Fight:
    """The outcome: who won and how many models each side has left."""

    attacker_wins: bool
    attackers_left: int
    defenders_left: int


# --------------------------------------------------------------- Bolt Action 1st edition
def rounds_step(dice: Dice, attacker: Side, defender: Side, a: int, d: int) -> tuple[int, int]:
    """One round: attackers strike, defenders take casualties, survivors strike back."""
    defenders_lost = min(d, dice.count_at_least(attacker.attacks(a), 6, defender.damage_value))
    attackers_lost = min(
        a, dice.count_at_least(defender.attacks(d - defenders_lost), 6, attacker.damage_value)
    )
    return attackers_lost, defenders_lost


# --------------------------------------------------------------- Konflikt '47
def _strike(dice: Dice, side: Side, models: int, enemy: Side, mode: Mode) -> int:
    if side.mode != mode or models == 0:
        return 0
    if mode == "point-blank":
        return dice.count_at_least(
            models * side.shots_per_model, 6, side.point_blank_hit, enemy.damage_value
        )
    return dice.count_at_least(side.attacks(models), 6, enemy.damage_value)


def choice_step(dice: Dice, attacker: Side, defender: Side, a: int, d: int) -> tuple[int, int]:
    """One step: point-blank fire from both sides first, then hand-to-hand with survivors."""
    d_lost = min(d, _strike(dice, attacker, a, defender, "point-blank"))
    a_lost = min(a, _strike(dice, defender, d, attacker, "point-blank"))
    a2, d2 = a - a_lost, d - d_lost
    d_lost += min(d2, _strike(dice, attacker, a2, defender, "hand-to-hand"))
    a_lost += min(a2, _strike(dice, defender, d2, attacker, "hand-to-hand"))
    return a_lost, d_lost


def step(
    dice: Dice, procedure: str, attacker: Side, defender: Side, a: int, d: int
) -> tuple[int, int]:
    """Fight one round (BA1) or one step (K47): the survivors of both sides."""
    fight = rounds_step if procedure == "rounds" else choice_step
    a_lost, d_lost = fight(dice, attacker, defender, a, d)
    return a - a_lost, d - d_lost


def settle(
    dice: Dice,
    procedure: str,
    attacker: Side,
    defender: Side,
    before: tuple[int, int],
    after: tuple[int, int],
) -> Fight | None:
    """Who lost the round, and does the fight go on? None: fight another round."""
    (a0, d0), (a, d) = before, after
    a_lost, d_lost = a0 - a, d0 - d
    if a and d and a_lost == d_lost:
        return None
    defender_lost = d == 0 or (a > 0 and d_lost > a_lost)
    won = Fight(True, a, 0) if defender_lost else Fight(False, 0, d)
    if procedure == "rounds" or a == 0 or d == 0:
        return won
    # Konflikt '47: the side with more casualties tests morale; if it holds, fight on
    loser = defender if defender_lost else attacker
    return None if morale_check(dice, loser.morale) else won


def close_quarters(
    dice: Dice, procedure: str, attacker: Side, defender: Side, a: int, d: int
) -> Fight:
    """Fight until one side is destroyed (the simulator's procedure)."""
    while True:
        survivors = step(dice, procedure, attacker, defender, a, d)
        result = settle(dice, procedure, attacker, defender, (a, d), survivors)
        if result is not None:
            return result
        a, d = survivors


def exact_close_quarters(
    procedure: str, attacker: Side, defender: Side, a: int, d: int
) -> Dist[Fight]:
    """Exact outcome of :func:`close_quarters`, solving for rounds that change nothing."""
    return _solve(procedure, attacker, defender, a, d)


@lru_cache(maxsize=10_000)
def _solve(procedure: str, attacker: Side, defender: Side, a: int, d: int) -> Dist[Fight]:
    """The fight from ``a`` attackers against ``d`` defenders on (shared by every query)."""
    survivors = _step_odds(procedure, _fighting(attacker), _fighting(defender), a, d)
    ends: list[tuple[Fraction, Dist[Fight | None], tuple[int, int]]] = [
        (p, _settle_odds(procedure, attacker.morale, defender.morale, (a, d), s), s)
        for s, p in survivors.items()
    ]
    stay = sum((p * end.probability(None) for p, end, s in ends if s == (a, d)), Fraction(0))
    if stay == 1:
        raise ValueError("this fight can never end: neither side can cause a casualty")
    parts: list[tuple[Fraction, Dist[Fight]]] = []
    for p, end, s in ends:
        for result, q in end.items():
            if result is not None:
                parts.append((p * q / (1 - stay), Dist.constant(result)))
            elif s != (a, d):
                parts.append((p * q / (1 - stay), _solve(procedure, attacker, defender, *s)))
    return Dist.mixture(parts)


# Fights that differ only in morale (pins, officers) share their steps: :func:`step` never
# reads a side's morale and :func:`settle` reads nothing else, so each is cached by just that.
_NO_MORALE = MoraleTest(base=0)


@lru_cache(maxsize=1024)
def _fighting(side: Side) -> Side:
    """The side with what :func:`step` reads (its morale left out)."""
    return replace(side, morale=_NO_MORALE)


@lru_cache(maxsize=10_000)
def _step_odds(
    procedure: str, attacker: Side, defender: Side, a: int, d: int
) -> Dist[tuple[int, int]]:
    return exact(partial(step, procedure=procedure, attacker=attacker, defender=defender, a=a, d=d))


@lru_cache(maxsize=20_000)
def _settle_odds(
    procedure: str,
    attacker_morale: MoraleTest,
    defender_morale: MoraleTest,
    before: tuple[int, int],
    after: tuple[int, int],
) -> Dist[Fight | None]:
    attacker, defender = Side(0, attacker_morale), Side(0, defender_morale)
    return exact(
        partial(
            settle,
            procedure=procedure,
            attacker=attacker,
            defender=defender,
            before=before,
            after=after,
        )
    )


# --------------------------------------------------------------- infantry against vehicles
def assault_vehicle(
    dice: Dice,
    models: int,
    hit_on: int | None,
    vehicle: VehicleProfile,
    *,
    anti_tank: bool,
    destroyed_if_damaged: bool,
) -> VehicleState:
    """Infantry attack a vehicle: each model rolls to hit; damage is hits + D6 against its value."""
    if hit_on is None:
        return VehicleState()
    hits = dice.count_at_least(models, 6, hit_on)
    if hits == 0:
        return VehicleState()
    level = damage_level(vehicle, hits + dice.roll(6))
    if not anti_tank:
        level = min(level, 1)
    state = resolve_damage(
        dice, vehicle, VehicleState(), level, destroyed_if_damaged=destroyed_if_damaged
    )
    return replace(
        state, attack_pins=1
    )  # the assault's own pin comes after its damage, as in shooting
