"""Close quarters: infantry against infantry as each edition fights it, and infantry against vehicles."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache, partial
from typing import Literal, TypeVar

from kriegsspiel.core.dice import DiceExpr, Dist
from kriegsspiel.core.procedure import Dice, Weights, count_weights, exact
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action.edition import Rules, Target
from kriegsspiel.rulesets.bolt_action.morale import (
    MoraleTest,
    morale_check,
    new_test,
    rolled_morale_check,
)
from kriegsspiel.rulesets.bolt_action.shot_rolls import roll_expr
from kriegsspiel.rulesets.bolt_action.to_hit import (
    HitModifier,
    firer_modifiers,
    hit_modifier,
    hit_needs,
    sorted_modifiers,
    to_hit_score,
)
from kriegsspiel.rulesets.bolt_action.troop_damage import infantry_target
from kriegsspiel.rulesets.bolt_action.vehicle_damage import (
    LEVELS,
    DamageRoll,
    ResultRoll,
    Tally,
    VehicleProfile,
    VehicleState,
    damage_level,
    resolve_damage,
)

Mode = Literal["hand-to-hand", "point-blank"]


class FightNeverEnds(UsageError):
    """A close quarters fight that could never end: neither side can cause a casualty."""


CONTACT = 1.0  # inches: assaulters end their move this close to the target (assumption)


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
    point_blank_hit: tuple[int, ...] = (2,)  # the scores its to-hit dice need (7+: 6, 4)

    def attacks(self, models: int) -> int:
        """Hand-to-hand attacks of ``models`` survivors; the models with assault weapons are the last to fall."""
        assault = min(self.assault_models, models)
        return assault * self.assault_attacks + (models - assault) * self.attacks_per_model


def fighting_modes(rules: Rules) -> tuple[Mode, ...]:
    """How infantry may fight in close quarters: hand-to-hand, and in an edition whose
    fight is not fought in plain rounds (Konflikt '47) point-blank fire too."""
    if rules.data.close_quarters.procedure == "rounds":
        return ("hand-to-hand",)
    return ("hand-to-hand", "point-blank")


def point_blank_modifiers(rules: Rules, quality: str, pins: int) -> list[HitModifier]:
    """The to-hit modifiers of a side's point-blank fire in close quarters: a shot at point
    blank's, with the firers' own (pins, Inexperienced), as a shooting's are named."""
    return sorted_modifiers(
        rules,
        [
            hit_modifier(rules, rules.hit_short("point_blank"), "point_blank"),
            *firer_modifiers(rules, pins=pins, inexperienced=quality == "inexperienced"),
        ],
    )


def fighting_side(
    rules: Rules,
    quality: str,
    *,
    pins: int,
    assault_models: int,
    mode: str,
    officer: str | None = None,
) -> Side:
    """One side of a close quarters fight as the edition's data makes it: infantry of
    ``quality`` with ``pins`` (they hinder its morale and its point-blank fire), an officer
    in range (his morale bonus), ``assault_models`` models with assault weapons, fighting
    hand-to-hand or (Konflikt '47) with point-blank fire. The game, its odds and the AI's
    weighing of an assault all build their sides here.

    Point-blank fire rolls to hit as a shot at point blank does, with the firer's own
    modifiers (pins, Inexperienced) and "Needing 7+"; a side whose fire could not hit at
    all fights hand-to-hand instead (docs/rules/konflikt47.md)."""
    proc = rules.data.procedure
    needs = hit_needs(rules, to_hit_score(rules, point_blank_modifiers(rules, quality, pins)))
    if needs is None:
        mode = "hand-to-hand"
    return Side(
        damage_value=infantry_target(rules, quality).damage_value,
        morale=new_test(rules, quality, officer=officer, pins=pins),
        attacks_per_model=proc.close_quarters_attacks,
        assault_models=assault_models,
        assault_attacks=proc.assault_weapon_attacks,
        mode="point-blank" if mode == "point-blank" else "hand-to-hand",
        point_blank_hit=needs if needs is not None else (),  # () unread: hand-to-hand
    )


@dataclass(frozen=True, slots=True, order=True)
class Fight:
    """The outcome: who won and how many models each side has left (neither wins when
    both are wiped out in the same round)."""

    attacker_wins: bool
    attackers_left: int
    defenders_left: int

    @property
    def both_destroyed(self) -> bool:
        return self.attackers_left == 0 and self.defenders_left == 0

    @property
    def defender_wins(self) -> bool:
        return not self.attacker_wins and self.defenders_left > 0


# --------------------------------------------------------------- the dice kept
#: one roll of a side's in a round: the D6 score its dice needed and the dice as rolled
Roll = tuple[int, tuple[int, ...]]


@dataclass(slots=True)
class RoundDice:
    """The dice each side rolled in a round (or step), for the game's record: each roll
    in turn (point-blank, to hit, a 7+'s 6 then the second die of each 6; then to damage)
    with the score it needed. A side that struck no blow rolled none."""

    attackers: list[Roll] = field(default_factory=list)
    defenders: list[Roll] = field(default_factory=list)


def _roll(dice: Dice, count: int, needs: tuple[int, ...], kept: list[Roll] | None) -> int:
    """``dice.count_at_least(count, 6, *needs)``, each roll added to ``kept``, if given:
    the very same dice, each as it fell (the odds and the simulator's rounds keep none)."""
    if kept is None:
        return dice.count_at_least(count, 6, *needs)
    if count <= 0:
        return 0
    for need in needs:
        faces = dice.faces(count, 6)
        kept.append((need, faces))
        count = sum(face >= need for face in faces)
    return count


# --------------------------------------------------------------- Bolt Action 1st edition
def rounds_step(
    dice: Dice, attacker: Side, defender: Side, a: int, d: int, kept: RoundDice | None = None
) -> tuple[int, int]:
    """One round: attackers strike, defenders take casualties, survivors strike back
    (their dice added to ``kept``, if given)."""
    a_kept, d_kept = (None, None) if kept is None else (kept.attackers, kept.defenders)
    defenders_lost = min(d, _roll(dice, attacker.attacks(a), (defender.damage_value,), a_kept))
    attackers_lost = min(
        a, _roll(dice, defender.attacks(d - defenders_lost), (attacker.damage_value,), d_kept)
    )
    return attackers_lost, defenders_lost


# --------------------------------------------------------------- Konflikt '47
def _strike(
    dice: Dice, side: Side, models: int, enemy: Side, mode: Mode, kept: list[Roll] | None = None
) -> int:
    if side.mode != mode or models == 0:
        return 0
    if mode == "point-blank":
        return _roll(
            dice,
            models * side.shots_per_model,
            (*side.point_blank_hit, enemy.damage_value),
            kept,
        )
    return _roll(dice, side.attacks(models), (enemy.damage_value,), kept)


def choice_step(
    dice: Dice, attacker: Side, defender: Side, a: int, d: int, kept: RoundDice | None = None
) -> tuple[int, int]:
    """One step: point-blank fire from both sides first, then hand-to-hand with survivors
    (their dice added to ``kept``, if given)."""
    a_kept, d_kept = (None, None) if kept is None else (kept.attackers, kept.defenders)
    d_lost = min(d, _strike(dice, attacker, a, defender, "point-blank", a_kept))
    a_lost = min(a, _strike(dice, defender, d, attacker, "point-blank", d_kept))
    a2, d2 = a - a_lost, d - d_lost
    d_lost += min(d2, _strike(dice, attacker, a2, defender, "hand-to-hand", a_kept))
    a_lost += min(a2, _strike(dice, defender, d2, attacker, "hand-to-hand", d_kept))
    return a_lost, d_lost


def step(
    dice: Dice,
    procedure: str,
    attacker: Side,
    defender: Side,
    a: int,
    d: int,
    kept: RoundDice | None = None,
) -> tuple[int, int]:
    """Fight one round (BA1) or one step (K47): the survivors of both sides (the dice
    rolled added to ``kept``, if given: the same dice as without)."""
    fight = rounds_step if procedure == "rounds" else choice_step
    a_lost, d_lost = fight(dice, attacker, defender, a, d, kept)
    return a - a_lost, d - d_lost


def round_result(
    procedure: str, before: tuple[int, int], after: tuple[int, int]
) -> tuple[Fight | None, bool]:
    """How a round ended before any morale test: the fight's result (None: a tie, fight on)
    and whether its loser tests morale to fight on instead (Konflikt '47)."""
    (a0, d0), (a, d) = before, after
    a_lost, d_lost = a0 - a, d0 - d
    if a and d and a_lost == d_lost:
        return None, False
    if not a and not d:  # each side struck the other's last model down at once
        return Fight(False, 0, 0), False
    defender_lost = d == 0 or (a > 0 and d_lost > a_lost)
    won = Fight(True, a, 0) if defender_lost else Fight(False, 0, d)
    return won, procedure != "rounds" and a > 0 and d > 0


@dataclass(frozen=True, slots=True)
class Round:
    """One round (or Konflikt '47 step) of a fight as the game records it: each side's
    models at its start and the casualties each took, the morale check of the side
    that took more, where one was taken (Konflikt '47: passed, the fight goes on), and
    the dice each side rolled (:class:`RoundDice`)."""

    attackers: int
    defenders: int
    attackers_lost: int
    defenders_lost: int
    # the check: "attackers" or "defenders", what it needed, the 2D6 and whether it held
    check: tuple[str, int, int, bool] | None = None
    attackers_dice: tuple[Roll, ...] = ()
    defenders_dice: tuple[Roll, ...] = ()


def settle(
    dice: Dice,
    procedure: str,
    attacker: Side,
    defender: Side,
    before: tuple[int, int],
    after: tuple[int, int],
    rounds: list[Round] | None = None,
    kept: RoundDice | None = None,
) -> Fight | None:
    """Who lost the round, and does the fight go on? None: fight another round. The
    round is added to ``rounds``, if given (the same dice), with the dice ``kept`` of it."""
    won, tested = round_result(procedure, before, after)
    if rounds is not None:
        lost = (before[0] - after[0], before[1] - after[1])
        rolled = ((), ()) if kept is None else (tuple(kept.attackers), tuple(kept.defenders))
        rounds.append(Round(*before, *lost, None, *rolled))
    if won is None or not tested:
        return won
    # Konflikt '47: the side with more casualties tests morale; if it holds, fight on
    loser = defender if won.attacker_wins else attacker
    if rounds is None:
        return None if morale_check(dice, loser.morale) else won
    held, roll = rolled_morale_check(dice, loser.morale)
    who = "defenders" if won.attacker_wins else "attackers"
    rounds[-1] = replace(rounds[-1], check=(who, loser.morale.value, roll, held))
    return None if held else won


def close_quarters(
    dice: Dice,
    procedure: str,
    attacker: Side,
    defender: Side,
    a: int,
    d: int,
    rounds: list[Round] | None = None,
) -> Fight:
    """Fight until one side is destroyed (the simulator's procedure); each round added
    to ``rounds``, if given, with every die each side rolled in it (the same dice)."""
    while True:
        kept = None if rounds is None else RoundDice()
        survivors = step(dice, procedure, attacker, defender, a, d, kept)
        result = settle(dice, procedure, attacker, defender, (a, d), survivors, rounds, kept)
        if result is not None:
            return result
        a, d = survivors


def exact_close_quarters(
    procedure: str, attacker: Side, defender: Side, a: int, d: int
) -> Dist[Fight]:
    """Exact outcome of :func:`close_quarters`, solving for rounds that change nothing."""
    return _solve(procedure, attacker, defender, a, d, _whole)


def attacker_win_chance(procedure: str, attacker: Side, defender: Side, a: int, d: int) -> Fraction:
    """The attacker's exact chance to win :func:`close_quarters`.

    Solved as :func:`exact_close_quarters`, but only the attacker's chance of winning is
    carried through the fight (one fraction a state instead of a distribution over the
    survivors): many times faster, and the same exact fraction.
    """
    known = _win_solutions(procedure, attacker, defender)
    rounds = _Rounds.of(procedure, attacker, defender)

    def solve(a: int, d: int) -> Fraction:
        # what _solve does with a distribution, on the attacker's chance alone
        found = known.get((a, d))
        if found is not None:
            return found
        rest, ends, onward = rounds.state(a, d)
        wins = sum(n for won, n in ends if won.attacker_wins)
        total, common = wins, 1  # the attacker's chance times rest, over common
        for n, s in onward:
            p = known.get(s)
            if p is None:
                p = solve(*s)
            top, bottom = p.numerator, p.denominator
            if common % bottom:
                grown = math.lcm(common, bottom)
                total *= grown // common
                common = grown
            total += n * top * (common // bottom)
        known[(a, d)] = result = Fraction(total, rest * common)
        return result

    return solve(a, d)


def fight_after_fire(
    procedure: str,
    fire: Dist[tuple[int, int]],
    attacker: Callable[[int], Side],
    defender: Side,
    d: int,
) -> Dist[Fight]:
    """Close quarters after the defenders stood and fired at the assaulters coming in
    (Konflikt '47): ``fire`` is the assaulters left and their pins after that fire (none
    left: the assault is stopped and all ``d`` defenders stand), ``attacker(pins)`` their
    side with those pins; the defenders then fight hand-to-hand, as ``defender``."""

    def fought(left: tuple[int, int]) -> Dist[Fight]:
        alive, pins = left
        if alive == 0:
            return Dist.constant(Fight(False, 0, d))
        return exact_close_quarters(procedure, attacker(pins), defender, alive, d)

    return fire.bind(fought)


def win_chance_after_fire(
    procedure: str,
    fire: Dist[tuple[int, int]],
    attacker: Callable[[int], Side],
    defender: Side,
    d: int,
) -> Fraction:
    """The attacker's chance to win :func:`fight_after_fire`, each fight solved by
    :func:`attacker_win_chance` (the same fraction, faster)."""
    return sum(
        (
            p * attacker_win_chance(procedure, attacker(pins), defender, alive, d)
            for (alive, pins), p in fire.items()
            if alive
        ),
        Fraction(0),
    )


@dataclass(frozen=True, slots=True)
class _Rounds:
    """One fight's rounds as integer weights: what both exact solvers walk, state by state."""

    procedure: str
    fighting: tuple[Side, Side]  # each side as it fights (see _fighting)
    scale: int  # the morale checks' common denominator
    holds: dict[bool, int]  # the loser's chance to hold, over scale, by attacker_wins

    @staticmethod
    def of(procedure: str, attacker: Side, defender: Side) -> _Rounds:
        # the chance that the loser of a round holds, by whether the attacker won it
        chances = {True: _holds(defender.morale), False: _holds(attacker.morale)}
        scale = math.lcm(*(c.denominator for c in chances.values()))
        holds = {won: c.numerator * (scale // c.denominator) for won, c in chances.items()}
        return _Rounds(procedure, (_fighting(attacker), _fighting(defender)), scale, holds)

    def state(
        self, a: int, d: int
    ) -> tuple[int, list[tuple[Fight, int]], list[tuple[int, tuple[int, int]]]]:
        """From ``a`` v ``d``, over the weight of the rounds that change something: the
        fights that end here (by how they end) and the states fought on from.

        Each state's rounds are integer weights over one denominator: the steps' (shared by
        fights that differ only in morale) times the morale checks'.
        """
        denominator, steps = _steps(self.procedure, *self.fighting, a, d)
        whole, scale, holds = denominator * self.scale, self.scale, self.holds
        ended: list[tuple[Fight, int]] = []
        onward: list[tuple[int, tuple[int, int]]] = []
        stay = 0
        for survivors, weight, won, tested in steps:
            go = full = weight * scale  # the weight of fighting on from ``survivors``
            if won is not None:
                go = weight * holds[won.attacker_wins] if tested else 0
                if go != full:
                    ended.append((won, full - go))
            if go and survivors == (a, d):
                stay += go
            elif go:
                onward.append((go, survivors))
        if stay == whole:
            raise FightNeverEnds("this fight can never end: neither side can cause a casualty")
        return whole - stay, ended, onward


V = TypeVar("V", bound=Hashable)


def _whole(fight: Fight) -> Fight:
    return fight


def _solve(
    procedure: str, attacker: Side, defender: Side, a: int, d: int, view: Callable[[Fight], V]
) -> Dist[V]:
    """The fight from ``a`` attackers against ``d`` defenders on, as ``view`` sees its end."""
    known: dict[tuple[int, int], Dist[V]] = _solutions(procedure, attacker, defender, view)
    rounds = _Rounds.of(procedure, attacker, defender)

    def solve(a: int, d: int) -> Dist[V]:
        found = known.get((a, d))
        if found is not None:
            return found
        rest, ended, onward = rounds.state(a, d)
        ends: dict[V, int] = {}
        for won, n in ended:
            outcome = view(won)
            ends[outcome] = ends.get(outcome, 0) + n
        parts = [(n, rest, Dist.constant(v)) for v, n in ends.items()]
        parts += [(n, rest, solve(*s)) for n, s in onward]
        known[(a, d)] = result = Dist.weighted(parts)
        return result

    return solve(a, d)


# A fight's solved states are large (hundreds of objects) and new fights grow rare after the
# first few hundred games: small caps here let a long run's memory level off sooner.
@lru_cache(maxsize=128)
def _solutions(
    procedure: str, attacker: Side, defender: Side, view: Callable[[Fight], V]
) -> dict[tuple[int, int], Dist[V]]:
    """The states of one fight solved so far (filled in by :func:`_solve`, shared by queries)."""
    return {}


@lru_cache(maxsize=128)
def _win_solutions(
    procedure: str, attacker: Side, defender: Side
) -> dict[tuple[int, int], Fraction]:
    """The attacker's chance in each state of one fight solved so far (filled in by
    :func:`attacker_win_chance`, shared by queries)."""
    return {}


# Fights that differ only in morale (pins, officers) share their steps: :func:`step` never
# reads a side's morale and :func:`round_result` nothing of the sides, so both are cached
# by the sides without it.
_NO_MORALE = MoraleTest(base=0)


@lru_cache(maxsize=1024)
def _fighting(side: Side) -> Side:
    """The side with what :func:`step` reads (its morale left out)."""
    return replace(side, morale=_NO_MORALE)


Step = tuple[tuple[int, int], int, Fight | None, bool]


@lru_cache(maxsize=1024)
def _steps(
    procedure: str, attacker: Side, defender: Side, a: int, d: int
) -> tuple[int, tuple[Step, ...]]:
    """One round's survivors as integer weights over a common denominator, each with its
    :func:`round_result`: ``(denominator, ((survivors, weight, result, tested), ...))``.

    The weights of :func:`_step_odds`, summed as integers without a Fraction made: over
    the terms' common denominator, then divided by what it shares with every weight, which
    leaves the least common denominator of the reduced chances (the same answer)."""
    sums = _step_sums(procedure, attacker, defender, a, d)
    common = math.lcm(*[den for terms in sums.values() for den in terms])
    weights: list[tuple[tuple[int, int], int]] = []
    total = 0
    for s, terms in sorted(sums.items()):  # (Dist's order: by survivors)
        n = 0
        for den, num in terms.items():
            n += num * (common // den)
        if n:
            weights.append((s, n))
            total += n
    if total != common:
        raise ValueError("a step's chances do not sum to 1")
    shared = math.gcd(common, *[n for _, n in weights])
    before = (a, d)
    return common // shared, tuple(
        [(s, n // shared, *round_result(procedure, before, s)) for s, n in weights]
    )


def _step_odds(
    procedure: str, attacker: Side, defender: Side, a: int, d: int
) -> Dist[tuple[int, int]]:
    """:func:`step`'s survivors, exactly (``exact(step)``'s distribution)."""
    return Dist.from_fraction_sums(_step_sums(procedure, attacker, defender, a, d))


def _step_sums(
    procedure: str, attacker: Side, defender: Side, a: int, d: int
) -> dict[tuple[int, int], dict[int, int]]:
    """:func:`_step_odds` as sums: survivors -> {denominator: total numerator}. Each
    strike's hits are one count of successes, so the strikes' integer weights are
    multiplied out directly instead of every branch of the round being replayed."""
    sums: dict[tuple[int, int], dict[int, int]] = {}
    if procedure == "rounds":  # the defenders strike back with their survivors
        dx, xs = _hits(attacker.attacks(a), defender.damage_value)
        for d_left, wx in _left(d, xs):
            dy, ys = _hits(defender.attacks(d_left), attacker.damage_value)
            for a_left, wy in _left(a, ys):
                _add(sums, (a_left, d_left), dx * dy, wx * wy)
        return sums
    # point-blank fire from both sides at once, then hand-to-hand with the survivors
    dx, xs = _strike_odds(attacker, a, defender, "point-blank")
    dy, ys = _strike_odds(defender, d, attacker, "point-blank")
    attackers_left = _left(a, ys)
    for d2, wx in _left(d, xs):
        for a2, wy in attackers_left:
            dh, hs = _hand_to_hand(attacker, defender, a2, d2)
            den, w = dx * dy * dh, wx * wy
            for survivors, wh in hs:  # (_add, inline: the hottest loop of a fight)
                terms = sums.get(survivors)
                if terms is None:
                    terms = sums[survivors] = {}
                terms[den] = terms.get(den, 0) + w * wh
    return sums


def _add(
    sums: dict[tuple[int, int], dict[int, int]], key: tuple[int, int], den: int, num: int
) -> None:
    terms = sums.get(key)
    if terms is None:
        terms = sums[key] = {}
    terms[den] = terms.get(den, 0) + num


def _left(models: int, hits: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    """The models left by each number of ``hits`` (weighted), hits that leave as many
    taken together (their weights summed): more hits than models leave none. A step
    reads only who is left, so it is followed once for each, with the same sums."""
    left: dict[int, int] = {}
    for x, w in hits:
        n = models - x if x < models else 0
        left[n] = left.get(n, 0) + w
    return list(left.items())


_NO_HITS: Weights = (1, ((0, 1),))


def _hits(count: int, *at_least: int) -> Weights:
    """What ``dice.count_at_least(count, 6, *at_least)`` rolls, as integer weights."""
    return count_weights(count, 6, at_least) if count > 0 else _NO_HITS


def _strike_odds(side: Side, models: int, enemy: Side, mode: Mode) -> Weights:
    """What :func:`_strike` rolls, as integer weights."""
    if side.mode != mode or models == 0:
        return _NO_HITS
    if mode == "point-blank":
        return _hits(models * side.shots_per_model, *side.point_blank_hit, enemy.damage_value)
    return _hits(side.attacks(models), enemy.damage_value)


# survivors (a, d) as integer weights over one denominator
_Weights2 = tuple[int, tuple[tuple[tuple[int, int], int], ...]]


@lru_cache(maxsize=4096)
def _hand_to_hand(attacker: Side, defender: Side, a: int, d: int) -> _Weights2:
    """The survivors of a Konflikt '47 step's hand-to-hand blows, struck at once, as
    integer weights over one denominator."""
    dx, xs = _strike_odds(attacker, a, defender, "hand-to-hand")
    dy, ys = _strike_odds(defender, d, attacker, "hand-to-hand")
    defenders_left = _left(d, xs)
    return dx * dy, tuple(
        [((a2, d2), wy * wx) for a2, wy in _left(a, ys) for d2, wx in defenders_left]
    )


@lru_cache(maxsize=1024)
def _holds(morale: MoraleTest) -> Fraction:
    """The chance that a side passes a morale check (and so, having lost a round, fights on)."""
    return exact(partial(morale_check, test=morale)).probability(True)


# --------------------------------------------------------------- infantry against vehicles
def vehicle_hit_score(rules: Rules, moved: str | None) -> int | None:
    """What each model assaulting a vehicle needs on a D6 to hit it, by its move this turn
    ("run", "advance", or None: it stood still); None where it cannot be hit at all (a
    vehicle that ran, in an edition that says so): then it cannot be assaulted."""
    va = rules.data.vehicle_assault
    if moved == "run":
        return va.to_hit_advanced if va.vehicle_that_ran_can_be_hit else None
    if moved == "advance":
        return va.to_hit_advanced
    return va.to_hit_stationary


def vehicle_fires_at_assaulters(rules: Rules, start_inches: float | None) -> bool:
    """Konflikt '47 (sheet 001): whether a vehicle fires at infantry that begin their
    assault on it ``start_inches`` away (None: not known). Only from farther than the
    sheet's distance, and never in an edition without that fire (Bolt Action 1st)."""
    beyond = rules.data.vehicle_assault.fires_at_assaulters_beyond
    return beyond is not None and start_inches is not None and start_inches > beyond


def vehicle_hits(dice: Dice, models: int, hit_on: int) -> int:
    """How many of ``models`` assaulting a vehicle hit it: a D6 each, ``hit_on`` or more
    (:func:`vehicle_hit_score`)."""
    return dice.count_at_least(models, 6, hit_on)


def assault_order_modifier(
    rules: Rules, vehicle: Target, *, open_topped: bool, anti_tank: bool
) -> int:
    """The order test's modifier for infantry ordered to assault this vehicle: the
    edition's (-3) at a fully enclosed armoured vehicle without anti-tank weapons, else 0."""
    if vehicle.kind == "armoured" and not open_topped and not anti_tank:
        return rules.data.vehicle_assault.order_test_modifier_without_at
    return 0


def assault_vehicle(
    dice: Dice,
    models: int,
    hit_on: int | None,
    vehicle: VehicleProfile,
    *,
    anti_tank: bool,
    open_topped: bool,
    damage_dice: DiceExpr,
    tally: Tally | None = None,
) -> VehicleState:
    """Infantry attack a vehicle: each model rolls to hit; damage is hits + ``damage_dice``
    (the edition's D6) against its value; without anti-tank weapons no more than superficial;
    an open-topped vehicle (as a soft-skinned one) is destroyed if damaged. The hits, the
    damage roll (its dice, the hits added as its pen) and the checks the damage brings (on
    fire, an automaton's) are written down in ``tally``, if given: the same dice, in the
    same order."""
    if hit_on is None:
        return vehicle.untouched()
    hits = vehicle_hits(dice, models, hit_on)
    if tally is not None:
        tally.group_hits.append(hits)
    if hits == 0:
        return vehicle.untouched()
    rolled = roll_expr(dice, damage_dice)
    level = damage_level(vehicle, hits + rolled)
    if not anti_tank:
        level = min(level, 1)
    results: list[ResultRoll] | None = None if tally is None else []
    # the assault's own pin comes before its damage results, as in shooting (the On fire
    # check counts it; a wreck keeps none: docs/rules "Pins on vehicles")
    state = resolve_damage(
        dice,
        vehicle,
        replace(vehicle.untouched(), attack_pins=1),
        level,
        destroyed_if_damaged=open_topped,
        results=results,
        tally=tally,
    )
    if tally is not None and results is not None:
        tally.damage_rolls.append(
            DamageRoll("assault", rolled, hits, vehicle.damage_value, LEVELS[level], tuple(results))
        )
    return state
