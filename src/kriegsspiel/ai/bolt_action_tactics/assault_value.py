"""What an assault is worth to the tactical player, and how the assaulted fight back.

An assault on troops is worth the target's points by the assaulters' exact chance to win
the close quarters, less their own by the chance to lose, against the defence that leaves
them the least chance (hand-to-hand, standing to fire first, or springing an ambush): the
defence the player picks when it is assaulted, so the same reckoning serves both sides of
a fight. An assault on a vehicle is worth what a shot doing the same to it is worth
(:func:`.shot_value.vehicle_worth`): everything the game applies to it after the attack,
from the exact odds of the game's own procedure. Either is weighed by the order test the
assault takes (pins, or -3 at a closed armoured vehicle without anti-tank weapons): by
the chance to pass it, and a failure by the Down order it leaves.
None of it reads what the player remembers between orders, so these are plain functions
of the game.
"""

from __future__ import annotations

from functools import lru_cache

from kriegsspiel.ai.bolt_action_tactics.order_test_value import tested
from kriegsspiel.ai.bolt_action_tactics.shot_value import outcome_odds, vehicle_worth
from kriegsspiel.core.table import Point
from kriegsspiel.rulesets.bolt_action.assault import (
    FightNeverEnds,
    Side,
    attacker_win_chance,
    win_chance_after_fire,
)
from kriegsspiel.rulesets.bolt_action.attack import troops_left
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.close_quarters import (
    closing_move,
    reactions,
    side_of,
    vehicle_assault_outcomes,
)
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.units import UnitState

USELESS_ASSAULT = -5.0  # an assault on a vehicle that can do nothing to it (a tuning choice)
BIGGEST_FIGHT = 12  # models a side in the largest close quarters the AI solves (then: 0.0)


def too_big_to_solve(unit: UnitState, target: UnitState) -> bool:
    """Is either side of this fight more than :data:`BIGGEST_FIGHT` models?"""
    return len(unit.alive_models) > BIGGEST_FIGHT or len(target.alive_models) > BIGGEST_FIGHT


@lru_cache(maxsize=4096)
def _win_odds(procedure: str, attacker: Side, defender: Side, a: int, d: int) -> float | None:
    """The attacker's chance to win the close quarters fight; None if it can never end."""
    try:
        return float(attacker_win_chance(procedure, attacker, defender, a, d))
    except FightNeverEnds:
        return None


def assault_ceiling(state: BoltActionGame, action: Action) -> float | None:
    """No less than :func:`assault_value` of an assault on troops: its worth were the
    defenders to fight hand-to-hand, one of the defences :func:`chosen_defence` takes the
    worst of (one fight solved: the others only for an assault that could be the best
    order), weighed by the order test it takes as that worth is."""
    unit, target = state.units[action.unit], state.units[action.target]  # type: ignore[index]
    if target.vehicle is not None:
        return None
    if too_big_to_solve(unit, target):
        return tested(state, unit, action, 0.0)
    mode = action.choice or "hand-to-hand"
    p = _win_odds(
        state.rules.data.close_quarters.procedure,
        side_of(state, unit, mode),
        side_of(state, target, "hand-to-hand"),
        len(unit.alive_models),
        len(target.alive_models),
    )
    if p is None:
        return None
    return tested(state, unit, action, p * target.points - (1 - p) * unit.points)


def assault_chance(
    state: BoltActionGame, unit: UnitState, target: UnitState, mode: str = ""
) -> float | None:
    """``unit``'s chance to win its assault on the troops ``target`` (in ``mode``)
    against the defence that leaves it the least chance, as the tactical player weighs an
    assault; None where it is not worked out (a vehicle, a fight too big to solve, or
    one that could never end). A person choosing an assault is shown it."""
    if target.vehicle is not None:
        return None
    if too_big_to_solve(unit, target):
        return None
    return chosen_defence(state, unit, target, mode or "hand-to-hand")[1]


def assault_value(
    state: BoltActionGame, unit: UnitState, target: UnitState, action: Action
) -> float:
    """What the assault ``action`` of ``unit`` on ``target`` is worth, in points: its
    :func:`assault_worth` weighed by the order test it takes (:func:`.order_test_value.tested`:
    a failed test leaves the unit Down, and no assault)."""
    return tested(state, unit, action, assault_worth(state, unit, target, action))


def assault_worth(
    state: BoltActionGame, unit: UnitState, target: UnitState, action: Action
) -> float:
    """What the assault ``action`` of ``unit`` on ``target`` is worth once it is carried out
    (its order test passed), in points."""
    if target.vehicle is not None:
        # what it does to the vehicle, valued as a shot doing the same is; an assault that
        # can do nothing to it (no hit possible) only exposes the men
        outcomes = vehicle_assault_outcomes(state, unit, target)
        odds = outcome_odds(outcomes, state.rules, target.quality, target.pins, target.immobilised)
        worth = vehicle_worth(odds, target)
        return worth if worth > 0 else USELESS_ASSAULT
    if too_big_to_solve(unit, target):
        return 0.0
    p = assault_chance(state, unit, target, action.choice)
    if p is None:
        return -10.0
    return p * target.points - (1 - p) * unit.points


def chosen_defence(
    state: BoltActionGame, unit: UnitState, target: UnitState, mode: str
) -> tuple[str, float | None]:
    """How the assaulted ``target`` would fight ``unit`` (assaulting in ``mode``): the
    reaction that leaves the assaulters the least chance to win (it never escapes),
    and that chance (None if the fight could never end). The attacker weighs an
    assault by this same choice, so it expects the defence it will meet."""
    choices = [c for c in reactions(state.rules, target) if c != "escape"]
    if too_big_to_solve(unit, target):
        # not solved: fire first where it may
        return ("stand and fire" if "stand and fire" in choices else choices[0]), None
    best: tuple[str, float | None] | None = None
    for choice, p in defence_odds(state, unit, target, mode).items():
        if best is None or (p is not None and (best[1] is None or p < best[1])):
            best = (choice, p)
    assert best is not None
    return best


def defence_odds(
    state: BoltActionGame, unit: UnitState, target: UnitState, mode: str
) -> dict[str, float | None]:
    """For each way the assaulted troops ``target`` may meet ``unit``'s assault (in
    ``mode``) but escape, the assaulters' exact chance to win (None where it is not
    worked out: a fight too big to solve, or one that could never end). The defence
    :func:`chosen_defence` picks, and a person assaulted is shown, by these."""
    rules = state.rules
    procedure = rules.data.close_quarters.procedure
    a, d = len(unit.alive_models), len(target.alive_models)
    choices = [c for c in reactions(rules, target) if c != "escape"]
    if a > BIGGEST_FIGHT or d > BIGGEST_FIGHT:
        return dict.fromkeys(choices)
    # a target holding an Ambush die fires it at the assaulters once they have closed
    # in (if they move), then fights as it chose (other ambushers are not counted)
    ambush = target.is_ambushing and closing_move(unit, target) != (0.0, 0.0)
    odds: dict[str, float | None] = {}
    for choice in choices:
        if choice == "stand and fire":
            odds[choice] = win_chance_through_fire(state, unit, target, mode)
        elif ambush:
            odds[choice] = win_chance_through_fire(state, unit, target, mode, defence=choice)
        else:
            odds[choice] = _win_odds(
                procedure, side_of(state, unit, mode), side_of(state, target, choice), a, d
            )
    return odds


def win_chance_through_fire(
    state: BoltActionGame,
    unit: UnitState,
    target: UnitState,
    mode: str,
    defence: str = "hand-to-hand",
) -> float | None:
    """``unit``'s chance to win its assault if ``target`` fires at them where their
    assault move will end (standing to fire, or springing its ambush) and then fights
    in ``defence`` (:func:`closing_move`: the defenders' places are moved by as much
    the other way, so the ranges are the game's; sight is asked from there)."""
    rules = state.rules
    dx, dy = closing_move(unit, target)
    origin = Point(target.anchor.x - dx, target.anchor.y - dy) if dx or dy else None
    fire = troops_left(
        rules,
        state.shot_groups(target, unit, moving=False, origin=origin),
        quality=unit.quality,
        models=len(unit.alive_models),
        start_models=unit.start_models,
        pins=unit.pins,
        officer=state.officer_near(unit),
    )
    try:
        p = win_chance_after_fire(
            rules.data.close_quarters.procedure,
            fire,
            lambda pins: side_of(state, unit, mode, pins=pins),
            side_of(state, target, defence),
            len(target.alive_models),
        )
    except FightNeverEnds:
        return None
    return float(p)
