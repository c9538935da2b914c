"""The tactical player values a shot at a vehicle by all the game applies to it after the
attack (a knock-out, or its crew abandoning it under its pins; an immobilisation, a halt,
the pins it adds), from the vehicle damage odds (:func:`vehicle_outcomes`), and its cheap
ceiling stands above that worth. (Probe k47weird 1: it valued a shot only by its knock-out
chance, so a Zvukovoy Proyektor, whose Shockwave stuns and pins but never knocks out,
never fired at a vehicle.)"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_bolt_action_rules import EDITIONS, _attack_on_a_vehicle

from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.bolt_action_tactics.shot_ceiling import vehicle_shot_ceiling
from kriegsspiel.ai.bolt_action_tactics.shot_value import (
    HALTED_SHARE,
    IMMOBILISED_SHARE,
    PIN_VALUE,
    damage,
)
from kriegsspiel.core.scenario import load_scenario, sample_scenarios
from kriegsspiel.core.table import Table
from kriegsspiel.rulesets.bolt_action.army import load_army, sample_armies
from kriegsspiel.rulesets.bolt_action.attack import (
    exact_vehicle,
    knock_out_ceiling,
    knock_out_chance,
    vehicle_outcomes,
    vehicle_pins_ceiling,
)
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.rulesets.bolt_action.vehicle_damage import VehicleState


def _applied(state: VehicleState) -> VehicleState:
    """What the game applies of a whole state (``resolve_attack``): the plain reading."""
    if state.knocked_out:
        return VehicleState(knocked_out=True)
    return VehicleState(
        immobilised=state.immobilised,
        damage_pins=state.damage_pins,
        attack_pins=state.attack_pins,
        crew_stunned=state.crew_stunned,
        on_fire=state.on_fire,
    )


@settings(max_examples=25)
@given(
    st.sampled_from(EDITIONS),
    st.data(),
    st.sampled_from([3.0, 10.0, 30.0]),
    st.sampled_from(["front", "side", "rear"]),
    st.integers(0, 5),
    st.booleans(),
)
def test_the_vehicle_outcomes_are_the_whole_states_as_the_game_applies_them(
    ruleset: str, data: st.DataObject, rng: float, facing: str, pins: int, open_topped: bool
) -> None:
    """:func:`vehicle_outcomes` lumps the chain (and counts the pins carried as taken
    first): the same fractions as reading every whole state of :func:`exact_vehicle`; and
    the caps the AI takes of them hold (any of a knock-out, an immobilisation or a halt
    needs a hit that damages: :func:`knock_out_ceiling`; the pins' mean)."""
    groups = _attack_on_a_vehicle(
        ruleset, data, rng, facing, most=3, target_pins=pins, open_topped=open_topped
    )
    outcomes = vehicle_outcomes(groups)
    assert outcomes == exact_vehicle(groups).map(_applied)
    harmed = outcomes.probability(
        lambda v: v.knocked_out or v.immobilised or v.crew_stunned or v.on_fire
    )
    assert knock_out_ceiling(groups) >= harmed
    assert vehicle_pins_ceiling(groups) >= outcomes.map(lambda v: v.pins).mean()


def _battery_and_tank(ruleset: str = "konflikt47") -> tuple[BoltActionGame, UnitState, UnitState]:
    """The US side to order, its Tesla Cannon given a Zvukovoy Proyektor, 15" from the
    Panzer IV (neither has an order yet): the only units on an open table."""
    armies = [load_army(p, ruleset) for p in sample_armies(ruleset)[:2]]
    game = BoltActionGame(ruleset, load_scenario(sample_scenarios()[1]), (armies[0], armies[1]))
    game.table = Table(72, 48)
    projector, tank = game.units[15], game.units[8]
    projector.models[0].weapons = ("Zvukovoy Proyektor",)
    for unit in game.units:
        unit.destroyed = unit not in (projector, tank)
    game.turn_dice = (projector.uid, tank.uid)
    for unit, (x, y, heading) in ((projector, (20, 40, 180)), (tank, (20, 25, 0))):
        anchor = unit.anchor
        unit.translate(x - anchor.x, y - anchor.y)
        unit.heading = heading
    game.apply_action(Action("draw", side=1))
    return game, projector, tank


def test_the_ai_fires_a_shockwave_at_a_vehicle_for_the_halt_and_pins_it_brings() -> None:
    """A Shockwave at a tank: hit on 4+ (1/2), Crew stunned with no damage roll, D3 pins
    and the stun's own (2 to 4, mean 3). No knock-out, but the tank is halted before it
    has acted and pinned: worth (3 pins at PIN_VALUE + the halt) by 1/2, and the AI
    fires (the probe saw only Ambush and Rally). Once the tank has had its order (or keeps
    a Down die from last turn), the halt is worth nothing, unless it ends the tank's Ambush; with 6 pins on a regular crew (morale 9) a hit bringing 3 or 4
    (2/3 of the hits) makes 9 or more and the crew abandon it, worth its points."""
    game, projector, tank = _battery_and_tank()
    groups = game.shot_groups(projector, tank, moving=False)
    assert knock_out_chance(groups) == 0
    fire = Action("order", unit=projector.uid, order="Fire", target=tank.uid)
    player = TacticalPlayer()
    worth = player.value(game, fire)
    assert worth == pytest.approx(0.5 * (3 * PIN_VALUE + HALTED_SHARE * tank.points))
    assert player.choose(game) == fire
    assert vehicle_shot_ceiling(game, projector, tank, False, None) >= worth
    pins_only = 0.5 * 3 * PIN_VALUE
    for order, kept, halt in (("Fire", None, 0), (None, "Down", 0), ("Ambush", None, 1)):
        tank.order, tank.retained = order, kept  # (a halt ends an Ambush; a kept Down acts not)
        worth = damage(game, projector, tank, moving=False)
        assert worth == pytest.approx(pins_only + halt * 0.5 * HALTED_SHARE * tank.points)
    tank.retained = None
    tank.order, tank.pins = None, 6
    hit = Fraction(1, 2)
    abandoned = hit * Fraction(2, 3) * tank.points
    stays = hit * Fraction(1, 3) * (2 * Fraction(PIN_VALUE) + Fraction(HALTED_SHARE) * tank.points)
    expected = abandoned + stays
    worth = damage(game, projector, tank, moving=False)
    assert worth == pytest.approx(float(expected))
    assert vehicle_shot_ceiling(game, projector, tank, False, None) >= worth


def test_an_immobilisation_is_worth_a_share_of_the_vehicle_once() -> None:
    """The worth of a shot that may immobilise counts the immobilisation only on a vehicle
    not yet immobilised (a second one knocks it out, counted at its points instead), and
    the same shot is worth more against a fresh vehicle's knock-out odds plus that share
    than its knock-out odds alone."""
    game, projector, tank = _battery_and_tank()
    projector.models[0].weapons = ("Medium AT gun",)
    groups = game.shot_groups(projector, tank, moving=False)
    outcomes = vehicle_outcomes(groups)
    immobilised = outcomes.probability(lambda v: not v.knocked_out and v.immobilised)
    assert 0 < immobilised < 1
    tank.order = "Fire"  # (no halt to count)
    worth = damage(game, projector, tank, moving=False)
    knocked_out = float(knock_out_chance(groups)) * tank.points
    pins = float(outcomes.map(lambda v: v.pins).mean()) * PIN_VALUE
    assert worth == pytest.approx(
        knocked_out + pins + float(immobilised) * IMMOBILISED_SHARE * tank.points
    )
    tank.immobilised = True
    again = game.shot_groups(projector, tank, moving=False)
    assert float(knock_out_chance(again)) > float(knock_out_chance(groups))
    assert damage(game, projector, tank, moving=False) == pytest.approx(
        float(knock_out_chance(again)) * tank.points
        + float(vehicle_outcomes(again).map(lambda v: v.pins).mean()) * PIN_VALUE
    )
