"""Round 11's fast paths give the plain computations' answers exactly."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_ai_fast_paths import positions

import kriegsspiel.rulesets.bolt_action.game.threats as threats
from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.core.memo import BoundedMemo
from kriegsspiel.core.table import Point
from kriegsspiel.rulesets.bolt_action.assault import (
    Side,
    Step,
    _step_odds,
    _steps,
    round_result,
)
from kriegsspiel.rulesets.bolt_action.attack import knock_out_ceiling, knock_out_chance
from kriegsspiel.rulesets.bolt_action.edition import Rules, Target, rules_for
from kriegsspiel.rulesets.bolt_action.game.candidates import destinations
from kriegsspiel.rulesets.bolt_action.game.threats import FACINGS, can_knock_out, harmless_to
from kriegsspiel.rulesets.bolt_action.morale import MoraleTest
from kriegsspiel.rulesets.bolt_action.shooting import CannotFire, Group, Situation, plan_shot


def plain_steps(
    procedure: str, attacker: Side, defender: Side, a: int, d: int
) -> tuple[int, tuple[Step, ...]]:
    """``_steps`` as it was: the step's exact chances, put over their least common
    denominator."""
    survivors = _step_odds(procedure, attacker, defender, a, d)
    denominator = math.lcm(*(p.denominator for _, p in survivors.items()))
    return denominator, tuple(
        (s, p.numerator * (denominator // p.denominator), *round_result(procedure, (a, d), s))
        for s, p in survivors.items()
    )


sides = st.builds(
    Side,
    damage_value=st.integers(2, 7),
    morale=st.just(MoraleTest(base=9)),
    attacks_per_model=st.integers(0, 2),
    assault_models=st.integers(0, 3),
    assault_attacks=st.integers(1, 3),
    mode=st.sampled_from(["hand-to-hand", "point-blank"]),
    shots_per_model=st.integers(1, 2),
    point_blank_hit=st.sampled_from([(2,), (3,), (5,), (6,), (6, 4), (6, 6)]),
)


@settings(max_examples=300)
@given(
    st.sampled_from(["rounds", "choice"]),
    sides,
    sides,
    st.integers(0, 8),
    st.integers(0, 8),
)
def test_steps_summed_as_integers_match_the_chances(
    procedure: str, attacker: Side, defender: Side, a: int, d: int
) -> None:
    """A fight's step weighed in integers has the same least denominator, survivors (in
    order), weights and results as the step's exact chances put over one denominator."""
    assert _steps.__wrapped__(procedure, attacker, defender, a, d) == plain_steps(
        procedure, attacker, defender, a, d
    )


def vehicle_profiles(rules: Rules) -> list[Target]:
    return [t for r in rules.data.damage_values.rows if (t := rules.target(r.names[0])).is_vehicle]


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_some_weapons_can_knock_out_a_vehicle_and_some_never(ruleset: str) -> None:
    rules = rules_for(ruleset)
    answers = {
        can_knock_out(rules, (w.name,), t)
        for w in rules.data.weapons.rows
        for t in vehicle_profiles(rules)
    }
    assert answers == {True, False}


def harmless_pairs(ruleset: str) -> list[tuple[Rules, Any, Target]]:
    rules = rules_for(ruleset)
    return [
        (rules, w, t)
        for w in rules.data.weapons.rows
        for t in vehicle_profiles(rules)
        if not can_knock_out(rules, (w.name,), t)
    ]


HARMLESS = harmless_pairs("konflikt47") + harmless_pairs("bolt-action-1")


@settings(max_examples=400)
@given(
    st.sampled_from(HARMLESS),
    st.floats(0.0, 80.0),
    st.sampled_from(FACINGS),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.integers(0, 3),
    st.booleans(),
    st.booleans(),
    st.integers(0, 4),
    st.booleans(),
)
def test_a_weapon_that_can_never_knock_out_a_vehicle_never_does(
    pair: tuple[Rules, Any, Target],
    rng: float,
    facing: Any,
    indirect: bool,
    moving: bool,
    mounted: bool,
    firer_pins: int,
    open_topped: bool,
    ranged_in: bool,
    target_pins: int,
    immobilised: bool,
) -> None:
    """Whatever the range, armour struck, way of firing and state of firer and vehicle,
    its shot (where it has one) cannot knock the vehicle out."""
    rules, weapon, target = pair
    situation = Situation(
        range_inches=rng,
        facing=facing,
        indirect=indirect,
        moving=moving,
        mounted=mounted,
        firer_pins=firer_pins,
        open_topped=open_topped,
        ranged_in=ranged_in,
        target_pins=target_pins,
        target_immobilised=immobilised,
    )
    try:
        shot = plan_shot(rules, weapon, target, situation)[0]
    except CannotFire:
        return
    assert knock_out_ceiling([Group(shot, 4)]) == 0
    assert knock_out_chance([Group(shot, 2)]) == 0


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_a_unit_that_can_never_knock_out_a_vehicle_is_capped_at_nothing(ruleset: str) -> None:
    """Where a unit's weapons could never knock out an enemy vehicle, its shootings at it
    (standing, or on the move from where it stands and from each end of an Advance) all
    have no chance of a knock-out, and the player's cap on them is 0 as the groups' is."""
    player = TacticalPlayer()
    harmless = 0
    for game in positions(ruleset, 4, every=5):
        live = [u for u in game.units if not u.destroyed]
        for unit in live:
            ends = [None, *destinations(game, unit, run=False)]
            for target in live:
                vehicle = target.vehicle
                if target.side == unit.side or vehicle is None:
                    continue
                if not harmless_to(game.rules, unit, vehicle.target):
                    continue
                harmless += 1
                for moving in (False, True):
                    for end in ends if moving else [None]:
                        to = None if end is None else (end.x, end.y)
                        origin = (Point(*to) if to else unit.anchor) if moving else None
                        groups = game.shot_groups(unit, target, moving=moving, origin=origin)
                        assert knock_out_ceiling(groups) == 0
                        assert knock_out_chance(groups) == 0
                        cap = player._knock_out_ceiling(game, unit, target, moving, to)
                        assert cap == 0.0
    assert harmless > 20


def test_the_knock_out_answers_are_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = rules_for("bolt-action-1")
    monkeypatch.setattr(threats, "_HARM", BoundedMemo("knock-out answers, 3 at most", 3))
    for weapon in rules.data.weapons.rows[:10]:
        can_knock_out(rules, (weapon.name,), vehicle_profiles(rules)[0])
        assert len(threats._HARM) <= 3


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_caps_found_together_are_each_orders_own(ruleset: str) -> None:
    """The caps the player sorts its orders by (moves capped inline) are :meth:`_ceiling`'s,
    order by order, and the orders without one are those it gives none."""
    player = TacticalPlayer()
    moves = 0
    for game in [g for seed in (5, 6) for g in positions(ruleset, seed, every=6)]:
        if game.pending is not None:
            continue
        actions = game.legal_actions()
        player._new_choice()
        uncapped, later = player._caps(game, actions)
        player._new_choice()
        ceilings = [player._ceiling(game, a) for a in actions]
        assert uncapped == [i for i, c in enumerate(ceilings) if c is None]
        assert later == [(-c, i) for i, c in enumerate(ceilings) if c is not None]
        moves += sum(a.target is None and a.order in ("Advance", "Run") for a in actions)
    assert moves > 300
