"""Exact odds for the Bolt Action family, as :class:`OddsReport` objects with their reasons.

A module per kind of question: :mod:`.shooting` (a unit's shooting), :mod:`.order_and_morale`
(an order test, a morale check), :mod:`.close_quarters` (infantry assaulting infantry) and
:mod:`.vehicle_assault` (infantry assaulting a vehicle); with what they share:
:mod:`.checks` (what a question may ask), :mod:`.fire_at_assaulters` (fire before close
quarters) and :mod:`.vehicle_damage` (a target vehicle's damage results told). The questions
and the limits of the tool are imported from here.
"""

from __future__ import annotations

from kriegsspiel.rulesets.bolt_action.odds.checks import (
    FACINGS,
    MAX_ASSAULTERS_OF_A_VEHICLE,
    MAX_FIGHTERS,
    MAX_FIGHTERS_AFTER_FIRE,
    MAX_HITS,
    MAX_HITS_AT_VEHICLE,
    TESTED_HIT_WEIGHT,
    parse_weapons,
)
from kriegsspiel.rulesets.bolt_action.odds.close_quarters import assault_odds
from kriegsspiel.rulesets.bolt_action.odds.order_and_morale import (
    morale_check_odds,
    order_test_odds,
)
from kriegsspiel.rulesets.bolt_action.odds.shooting import shoot_odds
from kriegsspiel.rulesets.bolt_action.odds.vehicle_assault import vehicle_assault_odds

__all__ = [
    "FACINGS",
    "MAX_ASSAULTERS_OF_A_VEHICLE",
    "MAX_FIGHTERS",
    "MAX_FIGHTERS_AFTER_FIRE",
    "MAX_HITS",
    "MAX_HITS_AT_VEHICLE",
    "TESTED_HIT_WEIGHT",
    "assault_odds",
    "morale_check_odds",
    "order_test_odds",
    "parse_weapons",
    "shoot_odds",
    "vehicle_assault_odds",
]
