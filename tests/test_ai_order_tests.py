"""The tactical player weighs an assault by the order test it takes: its worth by the chance
to pass (the game's own test, the odds calculator's chance), and a failure by the Down order
it leaves."""

from __future__ import annotations

import pytest
from test_game_rules import new_game, only, place

from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.bolt_action_tactics.assault_value import (
    assault_ceiling,
    assault_chance,
    assault_value,
)
from kriegsspiel.ai.bolt_action_tactics.shot_value import outcome_odds, vehicle_worth
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.close_quarters import vehicle_assault_outcomes
from kriegsspiel.rulesets.bolt_action.game.orders import order_test_of
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.rulesets.bolt_action.odds import order_test_odds

FAILED_UNDER_THREAT = -2.0  # a Down order's worth to a unit without pins, under threat


def worth_in_contact(game: BoltActionGame, unit: UnitState, tank: UnitState) -> float:
    """The assault's worth once carried out: what it does to the vehicle, as a shot doing
    the same is worth."""
    outcomes = vehicle_assault_outcomes(game, unit, tank)
    odds = outcome_odds(outcomes, game.rules, tank.quality, tank.pins, tank.immobilised)
    return vehicle_worth(odds, tank)


def test_an_assault_on_a_tank_without_anti_tank_weapons_is_weighed_by_its_order_test() -> None:
    """A 10-man section with no anti-tank weapon, unpinned, next to a Panzer IV: its
    assault takes an order test at -3 (regular 9: 6 or less, 15 in 36), so the AI values
    it at that chance of its worth in contact (about 28 points), and a failure at the Down
    it leaves (-2), not at the worth alone (as it once did: 23 points for an assault that
    fails more often than not). A PIAT team, which carries an anti-tank weapon, takes no
    test and is valued at its worth; the section's cap stays no less than its value."""
    game = new_game("bolt-action-1")
    only(game, 1, 5, 19)
    section, piat, tank = game.units[1], game.units[5], game.units[19]
    assert tank.vehicle is not None and not tank.vehicle.open_topped
    assert not game.has_anti_tank(section) and game.has_anti_tank(piat)
    place(tank, 40, 30, 0)
    place(section, 40, 24)
    place(piat, 34, 30)
    assault = Action("order", unit=section.uid, order="Run", target=tank.uid)
    assert order_test_of(game, section, assault).modifier == -3 and section.pins == 0
    passed = float(
        order_test_odds(
            "bolt-action-1", quality="regular", assault_vehicle_without_at=True
        ).probabilities["p_pass"]
    )
    assert passed == pytest.approx(15 / 36)
    worth = worth_in_contact(game, section, tank)
    assert worth > 15
    value = assault_value(game, section, tank, assault)
    assert value == pytest.approx(passed * worth + (1 - passed) * FAILED_UNDER_THREAT)
    assert value < worth / 2
    assert TacticalPlayer().value(game, assault) == value
    # the PIAT team takes no test: its worth in contact, whole
    piat_assault = Action("order", unit=piat.uid, order="Run", target=tank.uid)
    assert order_test_of(game, piat, piat_assault).modifier == 0
    assert assault_value(game, piat, tank, piat_assault) == pytest.approx(
        worth_in_contact(game, piat, tank)
    )


def test_a_pinned_units_assault_on_troops_is_weighed_by_its_order_test() -> None:
    """A pinned section's assault on troops takes an order test (regular 9, 2 pins: 7 or
    less, 21 in 36): valued at that chance of its worth were it carried out (the squad's
    points by its chance to win the fight, less its own by the chance to lose), and a
    failure at the Down it leaves (3 a pin, -2 under threat); its cap, weighed alike, is
    never below it. Unpinned, it takes no test: its worth, whole."""
    game = new_game("bolt-action-1")
    only(game, 1, 12)
    section, squad = game.units[1], game.units[12]
    place(squad, 40, 30, 180)
    place(section, 40, 25)
    assault = Action("order", unit=section.uid, order="Run", target=squad.uid)
    for pins, passed in ((0, 1.0), (2, 21 / 36)):
        section.pins = pins
        if pins:
            odds = order_test_odds("bolt-action-1", quality="regular", pins=pins)
            assert float(odds.probabilities["p_pass"]) == pytest.approx(passed)
        win = assault_chance(game, section, squad)
        assert win is not None and 0 < win < 1
        worth = win * squad.points - (1 - win) * section.points
        value = assault_value(game, section, squad, assault)
        failed = 3.0 * pins + FAILED_UNDER_THREAT
        assert value == pytest.approx(passed * worth + (1 - passed) * failed), pins
        ceiling = assault_ceiling(game, assault)
        assert ceiling is not None and ceiling >= value
