"""Rules once written two to four times (game, odds, AI, play aid), now each in one home
that every copy calls: what each home says, at the points where a copy could part."""

from __future__ import annotations

from fractions import Fraction
from functools import partial

import pytest
from test_bolt_action_rules import house_rules

from kriegsspiel.core.procedure import ScriptedDice, exact
from kriegsspiel.core.table import TerrainFeature, rectangle
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action.assault import vehicle_fires_at_assaulters, vehicle_hits
from kriegsspiel.rulesets.bolt_action.attack import troops_context
from kriegsspiel.rulesets.bolt_action.edition import rules_for
from kriegsspiel.rulesets.bolt_action.game.shooting_groups import _worth, weapon_choice
from kriegsspiel.rulesets.bolt_action.game.table_rules import terrain_refusal
from kriegsspiel.rulesets.bolt_action.morale import destroyed_by_pins, removed_at_pins
from kriegsspiel.rulesets.bolt_action.odds import vehicle_assault_odds
from kriegsspiel.rulesets.bolt_action.shooting import CannotFire, check_range, in_range, least_range
from kriegsspiel.rulesets.bolt_action.shot import Group, Shot, Situation
from kriegsspiel.rulesets.bolt_action.to_hit import hit_chance
from kriegsspiel.rulesets.bolt_action.troop_damage import (
    casualty_chance,
    infantry_target,
    struck_troops,
)
from kriegsspiel.rulesets.house_clearing import odds as house_odds
from kriegsspiel.rulesets.house_clearing import rules as house_rules_module

K47, BA1 = rules_for("konflikt47"), rules_for("bolt-action-1")


def test_a_vehicle_fires_at_assaulters_only_from_beyond_the_sheets_distance() -> None:
    """Sheet 001: more than 6" away, not at 6" exactly; never in Bolt Action 1st edition,
    nor where the distance is not known (the play aid's From left empty)."""
    assert K47.data.vehicle_assault.fires_at_assaulters_beyond == 6
    assert not vehicle_fires_at_assaulters(K47, 6.0)
    assert vehicle_fires_at_assaulters(K47, 6.01)
    assert not vehicle_fires_at_assaulters(K47, None)
    assert not vehicle_fires_at_assaulters(BA1, 20.0)
    # the odds take it so: at 6" the fire is "none", past it they ask for its weapons
    asked = dict(models=6, quality="regular", target="medium tank", vehicle_order="stationary")
    at_six = vehicle_assault_odds("konflikt47", start_inches=6, **asked)
    assert any(r.topic == "vehicle's fire" and r.result == "none" for r in at_six.reasons)
    with pytest.raises(UsageError, match="give its weapons"):
        vehicle_assault_odds("konflikt47", start_inches=6.5, **asked)


def test_the_hits_of_infantry_on_a_vehicle_are_one_d6_each() -> None:
    assert vehicle_hits(ScriptedDice([4, 3, 6]), 3, 4) == 2
    hits = exact(partial(vehicle_hits, models=3, hit_on=4))
    assert hits.probability(lambda n: n == 3) == Fraction(1, 8)
    odds = vehicle_assault_odds(
        "konflikt47", models=3, quality="regular", target="medium tank", vehicle_order="stationary"
    )
    assert odds.distributions["hits_if_assaulting"] == hits  # (a stationary vehicle: 4+)


def test_pins_remove_a_unit_at_its_morale_value_unless_the_rules_file_says_not(
    tmp_path: object,
) -> None:
    """The game, the odds, the observation bounds and the play aid all read one rule."""
    assert removed_at_pins(K47, "regular") == K47.morale("regular") == 9
    assert not destroyed_by_pins(K47, "regular", 8)
    assert destroyed_by_pins(K47, "regular", 9)
    path = house_rules(
        tmp_path, "pins_destroy_at_base_morale: true", "pins_destroy_at_base_morale: false"
    )
    kept = rules_for("konflikt47", path)
    assert removed_at_pins(kept, "regular") is None
    assert not destroyed_by_pins(kept, "regular", 40)


def test_the_target_of_an_attack_takes_a_pin_unless_no_shot_pins_by_hitting() -> None:
    """An aircraft's hits bring no pin of their own (the chart gives its pins): only the
    game sees one, but every caller now reads the same rule; an officer near helps the
    target's morale test (a flamethrower's check)."""
    rifle = Group(Shot(weapon="Rifle", hit_on=(4,), damage_need=4), 5)
    strafing = Group(Shot(weapon="Strafing", hit_on=(), damage_need=4, pins_target=False), 1)
    ctx = troops_context(K47, [rifle], quality="regular", models=6, pins=2)
    assert (ctx.models, ctx.morale.pins, ctx.pins_per_attack) == (6, 2, 1)
    assert troops_context(K47, [strafing], quality="regular", models=6, pins=0).pins_per_attack == 0
    both = troops_context(K47, [strafing, rifle], quality="regular", models=None, pins=0)
    assert both.pins_per_attack == 1 and both.models is None
    led = troops_context(K47, [rifle], quality="regular", models=6, pins=0, officer="Major")
    assert led.morale.officer_bonus == K47.officer_bonus("Major") > 0


@pytest.mark.parametrize("need", range(2, 8))
def test_a_hit_on_troops_is_a_casualty_as_the_dice_roll_it(need: int) -> None:
    shot = Shot(weapon="Rifle", hit_on=(1,), damage_need=need)
    rolled = exact(partial(struck_troops, shot=shot)).probability(lambda o: o[2] == 1)
    assert casualty_chance(need) == rolled == Fraction(7 - need, 6)


def test_a_man_picks_his_weapon_by_the_shared_hit_and_casualty_chances() -> None:
    """``_worth`` (the AI's hot path) reads :func:`hit_chance` and :func:`casualty_chance`:
    its value is theirs, as floats; a 7+ shot's two rolls too."""
    for hit_on, need, one_shot in (((4,), 4, False), ((6, 4), 5, True), ((6, 6), 7, False)):
        shot = Shot(weapon="Rifle", hit_on=hit_on, damage_need=need)
        expected = float(hit_chance(hit_on) * 2 * casualty_chance(need))
        (worth,) = _worth((shot, 2, one_shot), at_vehicle=False)
        assert worth == pytest.approx(expected * (0.5 if one_shot else 1.0), rel=1e-12)


def test_a_howitzer_inside_its_indirect_minimum_still_fires_direct() -> None:
    """The sheets print a howitzer's range as (0/24")-48": 0" least fired direct, 24" only
    for the lob. So the solo game's reasons, which test the direct range, are right to
    leave the indirect minimum out: the game gives the howitzer a direct shot at 12"."""
    howitzer = K47.weapon("Light howitzer")
    assert (least_range(howitzer), least_range(howitzer, indirect=True)) == (0, 24)
    assert in_range(howitzer, 12) and not in_range(howitzer, 12, indirect=True)
    assert in_range(howitzer, 30, indirect=True) and not in_range(howitzer, 49)
    with pytest.raises(CannotFire, match='closer than 24"'):
        check_range(K47, howitzer, Situation(range_inches=12, indirect=True))
    target = infantry_target(K47, "regular")
    (direct,) = weapon_choice(K47, ("Light howitzer",), Situation(12), target, at_vehicle=False)
    assert not direct[0].indirect
    mortar = K47.weapon("Light mortar")
    assert not in_range(mortar, 11) and in_range(mortar, 12)


@pytest.mark.parametrize("name", ["Rifle", "Light mortar", "Light howitzer", "Panzerfaust"])
def test_the_range_check_refuses_exactly_what_in_range_refuses(name: str) -> None:
    weapon = K47.weapon(name)
    for r in [x / 2 for x in range(0, 2 * weapon.range + 6)]:
        for indirect in (False, True) if weapon.indirect_min_range else (False,):
            try:
                check_range(K47, weapon, Situation(range_inches=r, indirect=indirect))
                allowed = True
            except CannotFire:
                allowed = False
            assert allowed == in_range(weapon, r, indirect=indirect), (r, indirect)


def test_a_wreck_stops_a_tank_but_not_infantry_or_a_walker() -> None:
    """What ``Table.passable`` (a second, simpler impassability rule, now gone) said of a
    wreck, said by the one rule the game moves by."""
    wreck = TerrainFeature(
        "wreck", "obstacle", "hard", rectangle(0, 0, 2, 2), False, frozenset({"vehicle"})
    )
    assert terrain_refusal(K47, wreck, "tracked", True, False) == "wreck is impassable to vehicles"
    assert terrain_refusal(K47, wreck, "walkers", True, False) is None
    assert terrain_refusal(K47, wreck, "infantry", False, False) is None
    assert terrain_refusal(K47, wreck, "infantry", False, True) is not None  # an obstacle: no Run


def test_house_clearing_odds_take_a_targets_hits_by_the_rules_take_hits() -> None:
    """The sheet's Braun (initiative 2) shot by Doxey: down at 0 after two points lost."""
    assert house_rules_module.take_hits(2, 2) == 0
    report = house_odds.shoot(
        weapon="SMG", range_inches=7, weapon_skill=160, visible=2, target_initiative=2
    )
    lost = report.distributions["initiative_lost"]
    assert report.probabilities["p_target_down"] == lost.probability(
        lambda x: house_rules_module.take_hits(2, x) == 0
    )
