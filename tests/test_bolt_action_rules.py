"""Bolt Action family rules: golden cases by hand, and exact vs brute force vs Monte Carlo."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import partial
from itertools import pairwise, product

import pytest
from conftest import bernoulli_ok, within_se
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.core.procedure import RandomDice, brute_force, exact
from kriegsspiel.core.report import OddsReport
from kriegsspiel.errors import DataFileError, UsageError
from kriegsspiel.rulesets.bolt_action import rules_for
from kriegsspiel.rulesets.bolt_action.assault import (
    FightNeverEnds,
    Side,
    attacker_win_chance,
    close_quarters,
    exact_close_quarters,
    fighting_side,
    step,
)
from kriegsspiel.rulesets.bolt_action.attack import (
    TroopsContext,
    attack_troops,
    attack_vehicle,
    exact_troops,
    exact_vehicle,
    expected_troops,
    knock_out_ceiling,
    knock_out_chance,
    troops_outcomes,
)
from kriegsspiel.rulesets.bolt_action.morale import MoraleTest, new_test, order_test
from kriegsspiel.rulesets.bolt_action.odds import (
    assault_odds,
    morale_check_odds,
    order_test_odds,
    shoot_odds,
    vehicle_assault_odds,
)
from kriegsspiel.rulesets.bolt_action.pen import vehicle_profile
from kriegsspiel.rulesets.bolt_action.shooting import plan_shot
from kriegsspiel.rulesets.bolt_action.shot import Facing, Group, Situation
from kriegsspiel.rulesets.bolt_action.vehicle_damage import (
    VehicleState,
    pin_vehicle,
    resolve_damage,
)

EDITIONS = ["konflikt47", "bolt-action-1"]
F = Fraction


# ----------------------------------------------------------------- order tests and morale
@pytest.mark.parametrize("ruleset", EDITIONS)
def test_order_test_with_pins_golden(ruleset: str) -> None:
    # regular 9, 2 pins -> 7 or less on 2D6; double six is FUBAR (1-2 friendly fire, 3-6 panic)
    r = order_test_odds(ruleset, quality="regular", pins=2)
    assert r.probabilities["p_pass"] == F(21, 36)
    assert r.probabilities["p_fubar"] == F(1, 36)
    assert r.probabilities["p_friendly_fire"] == F(1, 36) * F(2, 6)
    assert r.probabilities["p_panic"] == F(1, 36) * F(4, 6)
    assert r.probabilities["p_fail"] == 1 - F(21, 36) - F(1, 36)


def test_no_pins_no_order_test() -> None:
    r = order_test_odds("konflikt47", quality="inexperienced")
    assert r.probabilities["p_pass"] == 1 and r.probabilities["p_fubar"] == 0
    assert r.details["test_needed"] is False


def test_officer_bonus_and_assault_penalty() -> None:
    # veteran 10 + captain 3 - 1 pin - 3 (no AT weapons) = 9 or less
    r = order_test_odds(
        "konflikt47", quality="veteran", pins=1, officer="captain", assault_vehicle_without_at=True
    )
    assert r.details["morale_value"] == 9
    assert r.probabilities["p_pass"] == F(30, 36)


def test_an_officer_in_range_stiffens_a_side_in_close_quarters() -> None:
    """Konflikt '47's loser of a round tests morale, with a nearby officer's bonus as in
    the game (assault.fighting_side): a captain (+3) with the defenders makes them 12, and
    they win more often; Bolt Action's rounds take no test, so one is refused there."""
    asked = dict(attackers=6, attacker_quality="regular", defenders=6, defender_quality="regular")
    plain = assault_odds("konflikt47", **asked)  # type: ignore[arg-type]
    led = assault_odds("konflikt47", defender_officer="captain", **asked)  # type: ignore[arg-type]
    assert led.probabilities["p_defender_wins"] > plain.probabilities["p_defender_wins"]
    said = {r.topic: r.because for r in led.reasons}
    assert said["defenders"].endswith("morale 12 (regular morale 9, captain +3)")
    assert said["attackers"].endswith("morale 9")
    with pytest.raises(UsageError, match="no morale test for an officer"):
        assault_odds("bolt-action-1", attacker_officer="major", **asked)  # type: ignore[arg-type]


def test_assault_penalty_forces_a_test_without_pins() -> None:
    r = order_test_odds("bolt-action-1", quality="regular", assault_vehicle_without_at=True)
    assert r.details["test_needed"] is True
    assert r.probabilities["p_pass"] == F(15, 36)  # 6 or less


def test_double_one_always_passes_double_six_always_fails() -> None:
    hopeless = morale_check_odds("bolt-action-1", quality="inexperienced", pins=7)  # value 1
    assert hopeless.probabilities["p_pass"] == F(1, 36)
    certain = morale_check_odds("konflikt47", quality="veteran", officer="major")  # value 14
    assert certain.probabilities["p_pass"] == F(35, 36)


def test_order_test_exact_vs_brute_force_and_monte_carlo() -> None:
    rules = rules_for("konflikt47")
    test = new_test(rules, "regular", pins=3)
    proc = partial(order_test, rules=rules, test=test)
    dist = exact(proc)
    assert dist == brute_force(proc)
    rng = RandomDice(1)
    n = 30_000
    fubars = sum(proc(rng) in ("friendly fire", "panic") for _ in range(n))
    assert bernoulli_ok(fubars, n, dist.probability(lambda o: o in ("friendly fire", "panic")))


# ----------------------------------------------------------------- to hit
def _needs(ruleset: str, weapon: str, target: str, **kw: object) -> str:
    rules = rules_for(ruleset)
    shot, _ = plan_shot(rules, rules.weapon(weapon), rules.target(target), Situation(**kw))  # type: ignore[arg-type]
    from kriegsspiel.rulesets.bolt_action.to_hit import describe_needs

    return describe_needs(rules, shot.hit_on)


@pytest.mark.parametrize(
    ("kw", "needs"),
    [
        ({"range_inches": 10}, "3+"),  # base
        ({"range_inches": 6}, "2+"),  # point blank +1
        ({"range_inches": 3, "cover": "none"}, "2+"),
        ({"range_inches": 20, "cover": "soft"}, "5+"),  # long range, soft cover
        ({"range_inches": 20, "cover": "hard", "firer_pins": 1}, "7+ (a 6, then 4+)"),
        ({"range_inches": 20, "cover": "hard", "firer_pins": 2}, "8+ (a 6, then 5+)"),
        ({"range_inches": 20, "cover": "hard", "firer_pins": 3}, "9+ (a 6, then 6+)"),
        ({"range_inches": 20, "cover": "hard", "firer_pins": 4}, "cannot hit"),
        ({"range_inches": 10, "moving": True, "firer_inexperienced": True}, "5+"),
        ({"range_inches": 10, "target_down": True, "small_unit": True}, "5+"),
    ],
)
def test_rifle_needs(kw: dict[str, object], needs: str) -> None:
    assert _needs("bolt-action-1", "rifle", "regular infantry", **kw) == needs


def _to_hit(ruleset: str, weapon: str, range_inches: float) -> tuple[str, str]:
    """A shot's to-hit score and its reasoning, at regular infantry in the open."""
    rules = rules_for(ruleset)
    situation = Situation(range_inches=range_inches)
    _, reasons = plan_shot(rules, rules.weapon(weapon), rules.target("regular infantry"), situation)
    return next((r.result, r.because) for r in reasons if r.topic == "to hit")


@pytest.mark.parametrize("ruleset", EDITIONS)
@pytest.mark.parametrize(
    ("weapon", "range_inches"), [("pistol", 4), ("pistol", 6), ("flamethrower (infantry)", 5)]
)
def test_point_blank_overrides_long_range_and_says_so(
    ruleset: str, weapon: str, range_inches: float
) -> None:
    """Within 6" a short weapon's target is past half its range too: point blank +1 only,
    not long range -1 as well (assumption), and the reasoning says so."""
    needs, because = _to_hit(ruleset, weapon, range_inches)
    assert needs == "2+"
    assert 'point blank (within 6"; not long range) +1' in because
    assert "long range -1" not in because
    # a rifle at 6" is at point blank and not at long range: nothing to say
    assert 'point blank (within 6") +1' in _to_hit(ruleset, "rifle", range_inches)[1]


def _said(report: OddsReport, topic: str) -> str | None:
    """What the reasoning says under ``topic`` (None if it says nothing)."""
    return next((f"{r.result}: {r.because}" for r in report.reasons if r.topic == topic), None)


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_odds_inputs_without_effect_say_so(ruleset: str) -> None:
    """An input the question has no use for is told as having no effect, not ignored."""

    def shot(weapon: str, **kw: object) -> OddsReport:
        situation = Situation(range_inches=10, **kw)  # type: ignore[arg-type]
        return shoot_odds(ruleset, weapons=[weapon], target="regular infantry", situation=situation)

    # a vehicle firer changes only its Fixed weapons firing on the move
    assert _said(shot("rifle", mounted=True, moving=True), "firer vehicle") == (
        "no effect: it matters only to Fixed weapons moving"
    )
    assert _said(shot("HMG", mounted=True), "firer vehicle") is not None  # not moving
    assert _said(shot("HMG", mounted=True, moving=True), "firer vehicle") is None
    # the target's pins count only in a flamethrower's morale check
    said = _said(shot("rifle", target_pins=2), "target pins")
    assert said == (
        "no effect: the attack cannot bring them to the unit's morale value, and they "
        "matter otherwise only to a flamethrower's test"
    )
    flame = Situation(range_inches=5, target_pins=2)
    flamer = shoot_odds(
        ruleset, weapons=["flamethrower (infantry)"], target="regular infantry", situation=flame
    )
    assert _said(flamer, "target pins") is None
    # an officer's bonus helps only an order test that is taken
    idle = order_test_odds(ruleset, quality="regular", officer="captain")
    assert _said(idle, "officer") == "no effect: no order test for his bonus"
    assert (
        _said(order_test_odds(ruleset, quality="regular", officer="captain", pins=1), "officer")
        is None
    )
    assert _said(order_test_odds(ruleset, quality="regular"), "officer") is None


def test_a_vehicle_is_never_a_small_unit() -> None:
    """As in the game, which counts only troops of two models or fewer as small."""
    with pytest.raises(UsageError, match="no vehicle counts as small"):
        shoot_odds(
            "konflikt47",
            weapons=["bazooka"],
            target="medium tank",
            situation=Situation(range_inches=10, small_unit=True),
        )


def test_a_small_unit_of_more_than_two_models_is_refused() -> None:
    """A small unit is one of two models or fewer at the start of the game, so one that
    still has three or more is not: the contradiction is refused, not answered."""
    asked = dict(weapons=["rifle:5"], target="regular infantry")
    for models in (3, 10):
        with pytest.raises(
            UsageError, match=f"^situation.small_unit=True with situation.target_models={models}"
        ):
            shoot_odds(
                "konflikt47",
                situation=Situation(range_inches=10, small_unit=True, target_models=models),
                **asked,  # type: ignore[arg-type]
            )
    two = Situation(range_inches=10, small_unit=True, target_models=2)
    assert shoot_odds("konflikt47", situation=two, **asked).details["to_hit_by_weapon"] == {  # type: ignore[arg-type]
        "Rifle": "4+"
    }


def test_assault_weapons_ignore_moving_and_shaped_charge_penalty_k47_only() -> None:
    assert (
        _needs("konflikt47", "assault rifle", "regular infantry", range_inches=10, moving=True)
        == "3+"
    )
    assert _needs("konflikt47", "bazooka", "medium tank", range_inches=10) == "4+"
    assert _needs("bolt-action-1", "bazooka", "medium tank", range_inches=10) == "3+"


def test_indirect_fire_needs_six_then_two() -> None:
    assert _needs("konflikt47", "medium mortar", "regular infantry", range_inches=30) == "6+"
    assert (
        _needs(
            "konflikt47",
            "medium mortar",
            "regular infantry",
            range_inches=30,
            ranged_in=True,
            cover="hard",
        )
        == "2+"
    )


def test_seven_plus_to_hit_probability() -> None:
    r = shoot_odds(
        "bolt-action-1",
        weapons=["rifle"],
        target="regular infantry",
        situation=Situation(range_inches=20, cover="hard", firer_pins=1),
    )
    assert r.probabilities["p_hit"] == F(1, 6) * F(1, 2)


# ----------------------------------------------------------------- shooting soft targets
def test_rifles_and_lmg_golden_means() -> None:
    # 9 rifles + LMG (3 shots) at 20" in soft cover: 5+ to hit, 4+ to damage
    r = shoot_odds(
        "konflikt47",
        weapons=["rifle:9", "lmg"],
        target="regular infantry",
        situation=Situation(range_inches=20, cover="soft"),
    )
    assert r.distributions["hits"].mean() == 12 * F(1, 3)
    assert r.distributions["casualties"].mean() == 12 * F(1, 3) * F(1, 2)
    assert r.distributions["pins"].probability(0) == F(2, 3) ** 12


def test_he_multiplies_hits_and_pins() -> None:
    # ranged-in medium mortar (HE D6: D2 pins) at regular infantry: hit 5/6, D6 hits at 4+
    r = shoot_odds(
        "konflikt47",
        weapons=["medium mortar"],
        target="regular infantry",
        situation=Situation(range_inches=30, ranged_in=True),
    )
    assert r.distributions["hits"].mean() == F(5, 6) * F(7, 2)
    assert r.distributions["casualties"].mean() == F(5, 6) * F(7, 2) * F(1, 2)
    assert r.distributions["pins"].as_list() == [F(1, 6), F(5, 12), F(5, 12)]


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_an_he_shell_pins_a_vehicle_by_the_he_table(ruleset: str) -> None:
    """Sheets 001, 002 (and 000): an HE hit "can result in more pins on the target", a
    vehicle too. A heavy howitzer (3D6: D6 pins) at a tank rolls D6 for the attack's pin,
    on top of the damage results' own pins; a heavy mortar (2D6: D3) at a soft-skin, D3.
    A vehicle the shot knocks out keeps none (a wreck takes no pins)."""
    rules = rules_for(ruleset)
    s = Situation(range_inches=30, indirect=True, ranged_in=True)
    shot = plan_shot(rules, rules.weapon("heavy howitzer"), rules.target("medium tank"), s)[0]
    pinned = exact(partial(pin_vehicle, shot=shot, state=VehicleState()))
    assert pinned.map(lambda v: v.attack_pins).as_list() == [0] + [F(1, 6)] * 6
    final = exact_vehicle([Group(shot, 1)])
    standing = final.probability(lambda v: v.indirect_hit and not v.knocked_out)
    assert 0 < standing < F(5, 6)  # (it hits on 2+; some hits knock it out)
    # the D6 is rolled before the damage: an On fire check counts it, so the more pins the
    # shell brought, the fewer crews put the fire out (and a wreck keeps no pins)
    left = [0 * standing] * 7
    for v, p in final.items():
        if v.indirect_hit and not v.knocked_out:
            left[v.attack_pins] += p
    assert left[0] == 0 and sum(left) == standing
    assert all(a >= b for a, b in pairwise(left[1:])) and left[1] > left[6]
    assert final.probability(lambda v: v.knocked_out and v.pins > 0) == 0
    r = shoot_odds(
        ruleset,
        weapons=["heavy mortar"],
        target="soft-skinned vehicle",
        situation=Situation(range_inches=30, ranged_in=True),
    )
    knocked_out = r.probabilities["p_knocked_out"]
    assert 0 < knocked_out < F(5, 6)
    assert (
        r.distributions["pins"].as_list()
        == [F(1, 6) + knocked_out] + [(F(5, 6) - knocked_out) / 3] * 3
    )
    # an AT gun's shot at armour is its AP round, not its HE: one pin
    direct = Situation(range_inches=30)
    at = plan_shot(rules, rules.weapon("heavy AT gun"), rules.target("medium tank"), direct)[0]
    assert at.special_pins is None


def test_down_target_halves_he_hits() -> None:
    up = shoot_odds(
        "konflikt47",
        weapons=["medium mortar"],
        target="regular infantry",
        situation=Situation(range_inches=30, ranged_in=True),
    )
    down = shoot_odds(
        "konflikt47",
        weapons=["medium mortar"],
        target="regular infantry",
        situation=Situation(range_inches=30, ranged_in=True, target_down=True),
    )
    assert down.distributions["hits"].mean() == F(5, 6) * F(9, 6)  # mean of floor(D6/2) = 1.5
    assert down.distributions["hits"].mean() < up.distributions["hits"].mean()


def test_casualties_capped_by_target_models() -> None:
    r = shoot_odds(
        "bolt-action-1",
        weapons=["mmg"],
        target="inexperienced infantry",
        situation=Situation(range_inches=5, target_models=2),
    )
    assert max(r.distributions["casualties"].outcomes()) == 2


def test_flamethrower_forces_a_morale_check() -> None:
    r = shoot_odds(
        "konflikt47",
        weapons=["flamethrower (infantry)"],
        target="regular infantry",
        situation=Situation(range_inches=5, cover="hard"),
    )
    assert r.probabilities["p_hit"] == F(5, 6)  # point blank, cover ignored
    pins = r.distributions["pins"]
    assert pins.probability(0) == F(1, 6) and set(pins.outcomes()) == {0, 2, 3, 4}
    # check at 9 - pins (D3+1): P(fail) = sum over pins of P(2D6 > 9 - pins)
    fail = {2: F(15, 36), 3: F(21, 36), 4: F(26, 36)}
    assert r.probabilities["p_destroyed_by_morale"] == sum(
        F(5, 6) * F(1, 3) * f for f in fail.values()
    )


def test_tesla_arcs_against_infantry() -> None:
    r = shoot_odds(
        "konflikt47",
        weapons=["M17 Tesla cannon"],
        target="regular infantry",
        situation=Situation(range_inches=10),
    )
    assert r.distributions["hits"].mean() == F(2, 3) * (1 + F(7, 2))


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_troops_exact_equals_brute_force(ruleset: str) -> None:
    rules = rules_for(ruleset)
    target = rules.target("veteran infantry")
    s = Situation(range_inches=14, target_models=2)
    groups = [
        Group(plan_shot(rules, rules.weapon("rifle"), target, s)[0], 2),
        Group(plan_shot(rules, rules.weapon("light mortar"), target, s)[0], 1),
    ]
    ctx = TroopsContext(models=2, morale=new_test(rules, "veteran"), pins_per_attack=1)
    odds = exact_troops(groups, ctx)
    brute = brute_force(partial(attack_troops, groups=groups, ctx=ctx))
    assert odds.hits == brute.map(lambda o: o.hits)
    assert odds.casualties == brute.map(lambda o: o.casualties)
    assert odds.pins == brute.map(lambda o: o.pins)
    assert expected_troops(groups, ctx) == (odds.casualties.mean(), odds.pins.mean())


def test_troops_exact_matches_monte_carlo() -> None:
    rules = rules_for("konflikt47")
    target = rules.target("regular infantry")
    s = Situation(range_inches=5)
    groups = [
        Group(plan_shot(rules, rules.weapon("smg"), target, s)[0], 8),
        Group(plan_shot(rules, rules.weapon("flamethrower (infantry)"), target, s)[0], 1),
    ]
    ctx = TroopsContext(models=10, morale=new_test(rules, "regular"), pins_per_attack=1)
    odds = exact_troops(groups, ctx)
    rng = RandomDice(47)
    n = 20_000
    runs = [attack_troops(rng, groups, ctx) for _ in range(n)]
    cas = odds.casualties
    assert within_se(sum(o.casualties for o in runs) / n, cas.mean(), float(cas.variance()), n)
    assert within_se(
        sum(o.pins for o in runs) / n, odds.pins.mean(), float(odds.pins.variance()), n
    )
    destroyed = sum(o.destroyed_by_morale for o in runs)
    assert bernoulli_ok(destroyed, n, odds.p_destroyed_by_morale)


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_shell_halved_to_no_hits_on_a_down_target_still_pins_and_ranges_in(ruleset: str) -> None:
    """docs/rules "HE at a Down target": a shell whose to-hit roll hit pins the Down unit
    (its HE pins) and ranges the mortar in, though the halving leaves it no hits. Ranged
    in (2+), a light mortar (D3: 1 pin) lands 5/6; a 1 on the D3 halves to none (5/18),
    so hits are 0 with 1/6 + 5/18 = 4/9, but pins 0 only on a miss, 1/6. A medium mortar
    (D6: D2 pins): pins 0 1/6, 1 and 2 each 5/12. The first shot (a 6) ranges the mortar
    in 1/6 of the time, Down or not."""
    down = Situation(range_inches=20, ranged_in=True, target_down=True)
    light = shoot_odds(ruleset, weapons=["light mortar"], target="regular infantry", situation=down)
    assert light.distributions["hits"].as_list() == [F(4, 9), F(5, 9)]
    assert light.distributions["pins"].as_list() == [F(1, 6), F(5, 6)]
    assert light.probabilities["p_hit"] == F(5, 6)
    assert light.probabilities["p_hit_after_down"] == F(5, 9)
    medium = shoot_odds(
        ruleset, weapons=["medium mortar"], target="regular infantry", situation=down
    )
    assert medium.distributions["hits"].as_list() == [F(11, 36), F(5, 18), F(5, 18), F(5, 36)]
    assert medium.distributions["pins"].as_list() == [F(1, 6), F(5, 12), F(5, 12)]
    rules = rules_for(ruleset)
    target = rules.target("regular infantry")
    ctx = TroopsContext(models=10, morale=new_test(rules, "regular"), pins_per_attack=1)
    for target_down in (False, True):
        first = Situation(range_inches=20, target_down=target_down)
        groups = [Group(plan_shot(rules, rules.weapon("light mortar"), target, first)[0], 1)]
        ranged = exact(partial(attack_troops, groups=groups, ctx=ctx))
        assert ranged.probability(lambda o: o.indirect_hit) == F(1, 6)
    # the game's procedure, sampled, agrees with the exact odds (a medium mortar ranged in
    # beside rifles, at a Down squad: the pins are the larger of the shell's and the rifles')
    groups = [
        Group(plan_shot(rules, rules.weapon("medium mortar"), target, down)[0], 1),
        Group(plan_shot(rules, rules.weapon("rifle"), target, down)[0], 3),
    ]
    odds = exact_troops(groups, ctx)
    rng = RandomDice(1947)
    n = 20_000
    runs = [attack_troops(rng, groups, ctx) for _ in range(n)]
    for pins in range(3):
        assert bernoulli_ok(sum(o.pins == pins for o in runs), n, odds.pins.probability(pins))
    hits = odds.hits
    assert within_se(sum(o.hits for o in runs) / n, hits.mean(), float(hits.variance()), n)
    assert expected_troops(groups, ctx)[1] == odds.pins.mean()
    assert troops_outcomes(groups, ctx).map(lambda o: o[1]) == odds.pins


def test_the_shoot_report_tells_a_shell_landing_from_the_hits_left_after_the_down_halving() -> None:
    """The chance that a shell lands (its to-hit roll) and the chance that a hit is left
    after the Down halving are named apart, in the tables and in the JSON (``labels``,
    ``p_hit_after_down``, ``notes``); a target standing has no such row."""
    down = Situation(range_inches=20, ranged_in=True, target_down=True)
    r = shoot_odds(
        "konflikt47", weapons=["light mortar"], target="regular infantry", situation=down
    )
    assert r.labels["p_hit"] == "at least one shot lands (its to-hit roll)"
    assert r.labels["p_hit_after_down"] == "at least one hit after the Down halving"
    out = r.to_json()
    assert out["p_hit"] == 5 / 6 and out["exact"]["p_hit_after_down"] == "5/9"
    assert out["labels"] == r.labels and "Down halving" in out["notes"]["hits"]
    up = shoot_odds(
        "konflikt47",
        weapons=["light mortar"],
        target="regular infantry",
        situation=Situation(range_inches=20, ranged_in=True),
    )
    assert "p_hit_after_down" not in up.probabilities and not up.labels


# ----------------------------------------------------------------- vehicles
def _vehicle(ruleset: str, target: str, **kw: object):  # type: ignore[no-untyped-def]
    rules = rules_for(ruleset)
    return vehicle_profile(
        rules,
        rules.target(target),
        Situation(range_inches=10, **kw),  # type: ignore[arg-type]
        indirect=False,
    )


def test_full_and_superficial_damage_results_golden() -> None:
    v = _vehicle("bolt-action-1", "medium tank")
    # full: D6; 4-6 knocked out, 3 on fire -> morale 9 - 1 pin fails on 9+ (10/36)
    full = exact(partial(resolve_damage, vehicle=v, state=VehicleState(), level=2))
    assert full.probability(lambda s: s.knocked_out) == F(1, 2) + F(1, 6) * F(10, 36)
    superficial = exact(partial(resolve_damage, vehicle=v, state=VehicleState(), level=1))
    assert superficial.probability(lambda s: s.knocked_out) == F(1, 6) * F(10, 36)
    assert superficial.probability(lambda s: s.crew_stunned) == F(4, 6)


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_on_fire_checks_with_the_hits_pin_and_its_additional_one(ruleset: str) -> None:
    """Sheet 001: On fire, "Add one additional pin marker and then make a morale check"
    (002: "+1 Pin Marker then make a Morale check"): the pin for the hit is on first, so a
    crew with no earlier pins tests with 2 (regular 9: 7 or less, failing 15/36). A medium
    AT gun at a medium tank's side at 40" (K47: hits 4+ at long range, pen D6+5 against 9:
    superficial on a 4, full on a 5 or 6): knocked out 1/2 x (2/6 x 1/2 + 3/36 x 15/36).
    A wreck keeps no pins: 0 pins is a miss or a knock-out."""
    v = _vehicle(ruleset, "medium tank")
    hit = VehicleState(attack_pins=1)
    full = exact(partial(resolve_damage, vehicle=v, state=hit, level=2))
    assert full.probability(lambda s: s.knocked_out) == F(1, 2) + F(1, 6) * F(15, 36)
    assert full.probability(lambda s: s.knocked_out and s.pins > 0) == 0
    if ruleset != "konflikt47":
        return
    r = shoot_odds(
        ruleset,
        weapons=["medium AT gun"],
        target="medium tank",
        situation=Situation(range_inches=40, facing="side"),
    )
    knocked_out = F(1, 2) * (F(2, 6) * F(1, 2) + F(3, 36) * F(15, 36))
    assert knocked_out == F(29, 288)
    assert r.probabilities["p_knocked_out"] == knocked_out
    assert r.probabilities["p_on_fire_and_knocked_out"] == F(1, 24) * F(15, 36)
    assert r.distributions["pins"].probability(0) == F(1, 2) + knocked_out


def test_second_immobilised_knocks_out() -> None:
    v = _vehicle("konflikt47", "light tank")
    from kriegsspiel.rulesets.bolt_action.vehicle_damage import apply_effect

    once = apply_effect(RandomDice(0), v, VehicleState(), "immobilised", 1)
    twice = apply_effect(RandomDice(0), v, once, "immobilised", 1)
    assert once.immobilised and not once.knocked_out and twice.knocked_out


def test_automaton_ignores_crew_stunned_on_four_plus() -> None:
    v = _vehicle("konflikt47", "medium walker", automaton=True)
    from kriegsspiel.rulesets.bolt_action.vehicle_damage import apply_effect

    dist = exact(
        partial(apply_effect, vehicle=v, state=VehicleState(), effect="crew stunned", pins=1)
    )
    assert dist.probability(lambda s: s.crew_stunned) == F(1, 2)


def test_open_topped_hit_by_indirect_fire_adds_one() -> None:
    r = shoot_odds(
        "konflikt47",
        weapons=["heavy howitzer"],
        target="armoured car",
        situation=Situation(range_inches=40, indirect=True, ranged_in=True, open_topped=True),
    )
    assert any("open-topped" in reason.because for reason in r.reasons)
    closed = shoot_odds(
        "konflikt47",
        weapons=["heavy howitzer"],
        target="armoured car",
        situation=Situation(range_inches=40, indirect=True, ranged_in=True),
    )
    assert r.probabilities["p_knocked_out"] > closed.probabilities["p_knocked_out"]


def test_walkers_get_no_facing_bonus() -> None:
    side = shoot_odds(
        "konflikt47",
        weapons=["bazooka"],
        target="medium walker",
        situation=Situation(range_inches=10, facing="rear"),
    )
    front = shoot_odds(
        "konflikt47",
        weapons=["bazooka"],
        target="medium walker",
        situation=Situation(range_inches=10),
    )
    assert side.probabilities == front.probabilities
    tank_rear = shoot_odds(
        "konflikt47",
        weapons=["bazooka"],
        target="medium tank",
        situation=Situation(range_inches=10, facing="rear"),
    )
    tank_front = shoot_odds(
        "konflikt47",
        weapons=["bazooka"],
        target="medium tank",
        situation=Situation(range_inches=10),
    )
    assert tank_rear.probabilities["p_knocked_out"] > tank_front.probabilities["p_knocked_out"]


def test_small_arms_cannot_hurt_armour() -> None:
    r = shoot_odds(
        "bolt-action-1",
        weapons=["rifle:10"],
        target="light tank",
        situation=Situation(range_inches=10),
    )
    assert r.probabilities["p_knocked_out"] == 0
    assert r.distributions["pins"].probability(0) == 1


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_hit_that_cannot_damage_a_vehicle_does_not_pin_it(ruleset: str) -> None:
    """An HMG (pen +1) hit on a super-heavy tank (11+) can total 7 at best (9 from the
    rear): no pin. On a medium tank (9+) it pins only from the rear (a 6 +1 +2 = 9); on
    an armoured car (7+) from the front too. An open-topped vehicle is pinned by any hit,
    as small arms pin it. (A vehicle knocked out keeps no pins: those are left out.)"""
    hmg = ["heavy machine gun"]

    def no_pin(target: str, facing: Facing = "front", open_topped: bool = False) -> Fraction:
        s = Situation(10, facing=facing, open_topped=open_topped)
        r = shoot_odds(ruleset, weapons=hmg, target=target, situation=s)
        return r.distributions["pins"].probability(0) - r.probabilities["p_knocked_out"]

    assert no_pin("super-heavy tank") == no_pin("super-heavy tank", "rear") == 1
    assert no_pin("medium tank") == 1
    missed = F(1, 3) ** 3  # three shots at 3+ (10" of 36")
    assert no_pin("medium tank", "rear") == no_pin("armoured car") == missed
    assert no_pin("medium tank", open_topped=True) == missed
    # the knock-out ceiling and the AI's test of harm read the same: nothing to fear
    rules = rules_for(ruleset)
    shot = plan_shot(rules, rules.weapon(hmg[0]), rules.target("super-heavy tank"), Situation(10))[
        0
    ]
    assert knock_out_ceiling([Group(shot, 3)]) == 0


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_vehicle_exact_equals_brute_force(ruleset: str) -> None:
    rules = rules_for(ruleset)
    target = rules.target("light tank")
    s = Situation(range_inches=30, facing="side")
    groups = [Group(plan_shot(rules, rules.weapon("light automatic cannon"), target, s)[0], 2)]
    assert exact_vehicle(groups) == brute_force(partial(attack_vehicle, groups=groups))


def test_vehicle_odds_of_weapons_sharing_stages_equal_brute_force() -> None:
    # a shot's stages are cached by the part of the shot each reads: weapons share them
    rules = rules_for("konflikt47")
    target = rules.target("light tank")
    s = Situation(range_inches=30, facing="side")
    groups = [
        Group(plan_shot(rules, rules.weapon(w), target, s)[0], 1)
        for w in ("light automatic cannon", "heavy machine gun")
    ]
    assert exact_vehicle(groups) == brute_force(partial(attack_vehicle, groups=groups))


@pytest.mark.parametrize(
    "weapon",
    [
        "light automatic cannon",
        "heavy machine gun",
        pytest.param("light howitzer", marks=pytest.mark.slow),  # (HE's hits: 12 s)
    ],
)
def test_vehicle_odds_of_shots_sharing_their_stages_equal_the_procedure(
    weapon: str,
) -> None:
    # a shot's hits and its pins and tests are kept by the parts of the shot they read, so
    # a shot at another range (another roll to hit) finds them kept by the first, and each
    # hit's damage results by the parts of the vehicle they read (at another vehicle too)
    rules = rules_for("konflikt47")
    for name, rng in product(("medium tank", "light tank"), (3.0, 10.0, 14.0)):
        target = rules.target(name)
        s = Situation(range_inches=rng, facing="side", target_pins=1)
        groups = [Group(plan_shot(rules, rules.weapon(weapon), target, s)[0], 2)]
        whole = exact(partial(attack_vehicle, groups=groups))
        assert exact_vehicle(groups) == whole
        assert knock_out_chance(groups) == whole.probability(lambda v: v.knocked_out)


def test_vehicle_exact_matches_monte_carlo() -> None:
    rules = rules_for("konflikt47")
    target = rules.target("medium tank")
    s = Situation(range_inches=10, facing="side", target_pins=2)
    groups = [
        Group(plan_shot(rules, rules.weapon("bazooka"), target, s)[0], 1),
        Group(plan_shot(rules, rules.weapon("flamethrower (vehicle)"), target, s)[0], 1),
    ]
    dist = exact_vehicle(groups)
    rng = RandomDice(99)
    n = 20_000
    runs = [attack_vehicle(rng, groups) for _ in range(n)]
    assert bernoulli_ok(
        sum(v.knocked_out for v in runs), n, dist.probability(lambda v: v.knocked_out)
    )
    assert bernoulli_ok(
        sum(v.immobilised for v in runs), n, dist.probability(lambda v: v.immobilised)
    )


def _shots_at(
    ruleset: str, target: str, weapons: list[str], rng: float, facing: str, **more: object
) -> list:  # type: ignore[type-arg]
    """Each weapon's shot at the target (those that can fire at this range)."""
    rules = rules_for(ruleset)
    s = Situation(range_inches=rng, facing=facing, **more)  # type: ignore[arg-type]
    shots = []
    for name in weapons:
        try:
            shots.append(plan_shot(rules, rules.weapon(name), rules.target(target), s)[0])
        except UsageError:
            continue
    return shots


def _attack_on_a_vehicle(
    ruleset: str, data: st.DataObject, rng: float, facing: str, most: int, **more: object
) -> list[Group]:
    """Up to three of the edition's weapons, 1 to ``most`` shots each, at one of its vehicles."""
    rules = rules_for(ruleset)
    vehicles = [
        r.names[0] for r in rules.data.damage_values.rows if rules.target(r.names[0]).is_vehicle
    ]
    target = data.draw(st.sampled_from(vehicles))
    names = [w.name for w in rules.data.weapons.rows]
    weapons = data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=3))
    counts = data.draw(st.lists(st.integers(1, most), min_size=3, max_size=3))
    shots = _shots_at(ruleset, target, weapons, rng, facing, **more)
    return [Group(shot, n) for shot, n in zip(shots, counts, strict=False)]


@settings(max_examples=60)
@given(
    st.sampled_from(EDITIONS),
    st.data(),
    st.sampled_from([3.0, 10.0, 30.0]),
    st.sampled_from(["front", "side", "rear"]),
)
def test_the_knock_out_ceiling_is_never_below_the_exact_chance(
    ruleset: str, data: st.DataObject, rng: float, facing: str
) -> None:
    groups = _attack_on_a_vehicle(ruleset, data, rng, facing, most=3)
    knocked_out = exact_vehicle(groups).probability(lambda v: v.knocked_out)
    assert knock_out_ceiling(groups) >= knocked_out


@settings(max_examples=40)
@given(
    st.sampled_from(EDITIONS),
    st.data(),
    st.sampled_from([3.0, 10.0, 30.0]),
    st.sampled_from(["front", "side", "rear"]),
    st.integers(0, 5),
    st.booleans(),
)
def test_the_knock_out_chance_followed_alone_is_the_exact_chance(
    ruleset: str, data: st.DataObject, rng: float, facing: str, pins: int, open_topped: bool
) -> None:
    """:func:`knock_out_chance` lumps the states that cannot change the outcome and counts
    the pins carried as taken before the first shot: the same fraction as following the
    whole state (crew tests on fire and flamethrowers included)."""
    groups = _attack_on_a_vehicle(
        ruleset, data, rng, facing, most=3, target_pins=pins, open_topped=open_topped
    )
    assert knock_out_chance(groups) == exact_vehicle(groups).probability(lambda v: v.knocked_out)


@settings(max_examples=25)
@given(
    st.sampled_from(EDITIONS),
    st.data(),
    st.sampled_from([3.0, 10.0, 30.0]),
    st.sampled_from(["front", "side", "rear"]),
    st.integers(0, 2),
)
def test_a_vehicle_immobilised_before_is_knocked_out_by_the_next_immobilisation(
    ruleset: str, data: st.DataObject, rng: float, facing: str, pins: int
) -> None:
    """An immobilisation carries over from an earlier attack, so a further Immobilised
    result knocks the vehicle out: up to the first such result the attack goes as on a
    fresh vehicle, so it is knocked out exactly when a fresh one would end knocked out
    or immobilised. The lumped chain the AI reads agrees."""
    fresh = _attack_on_a_vehicle(ruleset, data, rng, facing, most=2, target_pins=pins)
    hurt = [
        Group(replace(g.shot, vehicle=replace(g.shot.vehicle, immobilised=True)), g.shots)
        if g.shot.vehicle is not None
        else g
        for g in fresh
    ]
    before = exact_vehicle(fresh)
    after = exact_vehicle(hurt)
    assert after.probability(lambda v: v.knocked_out) == before.probability(
        lambda v: v.knocked_out or v.immobilised
    )
    assert knock_out_chance(hurt) == after.probability(lambda v: v.knocked_out)


def test_the_knock_out_chance_reads_the_pins_carried_and_fire() -> None:
    """Golden cases for the shortcuts: a flamethrower's crew test is harder with pins
    carried, and a tank set on fire by bazookas is lost more often with pins on it."""
    for weapon, target in (("Flamethrower (infantry)", "medium tank"), ("Bazooka", "medium tank")):
        chances = []
        for pins in (0, 3):
            shots = _shots_at("konflikt47", target, [weapon], 5, "side", target_pins=pins)
            assert shots, weapon
            groups = [Group(shots[0], 3)]
            chance = knock_out_chance(groups)
            assert chance == exact_vehicle(groups).probability(lambda v: v.knocked_out)
            chances.append(chance)
        assert 0 < chances[0] < chances[1] < 1, weapon


def test_the_knock_out_ceiling_is_the_chance_for_a_soft_skin_and_above_it_for_armour() -> None:
    """A soft-skin dies of any damaging hit, so the cap is its exact chance; a tank may
    shrug off a damaging hit, so its cap lies above. Rifles cannot hurt a tank at all."""
    soft = [
        Group(s, 3) for s in _shots_at("konflikt47", "soft-skinned vehicle", ["Rifle"], 10, "front")
    ]
    chance = exact_vehicle(soft).probability(lambda v: v.knocked_out)
    assert 0 < chance == knock_out_ceiling(soft)
    tank = [Group(s, 2) for s in _shots_at("konflikt47", "medium tank", ["Bazooka"], 10, "side")]
    chance = exact_vehicle(tank).probability(lambda v: v.knocked_out)
    assert 0 < chance < knock_out_ceiling(tank) < 1
    rifles = [
        Group(s, 10) for s in _shots_at("bolt-action-1", "light tank", ["Rifle"], 10, "front")
    ]
    assert knock_out_ceiling(rifles) == 0


def test_gravity_pulse_bonus_against_heavy_armour() -> None:
    r = shoot_odds(
        "konflikt47",
        weapons=["schwerefeld projektor"],
        target="heavy tank",
        situation=Situation(range_inches=10),
    )
    assert any("gravity pulse +2" in reason.because for reason in r.reasons)


def test_shockwave_stuns_vehicles() -> None:
    r = shoot_odds(
        "konflikt47",
        weapons=["zvukovoy proyektor"],
        target="heavy tank",
        situation=Situation(range_inches=10),
    )
    assert r.probabilities["p_crew_stunned"] == F(1, 2)
    assert r.probabilities["p_knocked_out"] == 0


# ----------------------------------------------------------------- close quarters
def _side(ruleset: str, quality: str, **kw: object) -> Side:
    rules = rules_for(ruleset)
    return Side(
        damage_value=rules.target(f"{quality} infantry").damage_value,
        morale=new_test(rules, quality),
        **kw,
    )  # type: ignore[arg-type]


def test_bolt_action_round_golden_one_on_one() -> None:
    # 1 v 1 regulars: attacker kills on 4+ (1/2); else defender strikes back on 4+; else again
    r = assault_odds(
        "bolt-action-1",
        attackers=1,
        attacker_quality="regular",
        defenders=1,
        defender_quality="regular",
    )
    # P(att wins) = 1/2 + 1/4 * P(att wins) -> 2/3
    assert r.probabilities["p_attacker_wins"] == F(2, 3)


def test_k47_one_on_one_may_end_with_both_destroyed() -> None:
    """Konflikt '47's hand-to-hand is struck at once: 1 v 1 regulars each kill on 4+, so a
    round ends one way or the other, or both, each with 1/4 (a quarter fights on). Both
    wiped out is neither side's win (it was counted as the attacker's)."""
    r = assault_odds(
        "konflikt47",
        attackers=1,
        attacker_quality="regular",
        defenders=1,
        defender_quality="regular",
    )
    p = r.probabilities
    assert p["p_attacker_wins"] == p["p_defender_wins"] == p["p_both_destroyed"] == F(1, 3)
    assert r.distributions["attackers_left"].probability(0) == F(2, 3)


@pytest.mark.parametrize("procedure", ["rounds", "point-blank-or-hand-to-hand"])
def test_close_quarters_step_exact_equals_brute_force(procedure: str) -> None:
    a, d = _side("konflikt47", "regular"), _side("konflikt47", "veteran", mode="point-blank")
    proc = partial(step, procedure=procedure, attacker=a, defender=d, a=2, d=2)
    assert exact(proc) == brute_force(proc)


@pytest.mark.parametrize("procedure", ["rounds", "point-blank-or-hand-to-hand"])
def test_close_quarters_exact_matches_monte_carlo(procedure: str) -> None:
    a = _side("konflikt47", "veteran", assault_models=2)
    d = _side(
        "konflikt47", "regular", mode="point-blank" if procedure != "rounds" else "hand-to-hand"
    )
    dist = exact_close_quarters(procedure, a, d, 6, 8)
    rng = RandomDice(3)
    n = 10_000
    wins = sum(close_quarters(rng, procedure, a, d, 6, 8).attacker_wins for _ in range(n))
    assert bernoulli_ok(wins, n, dist.probability(lambda f: f.attacker_wins))


@pytest.mark.parametrize("procedure", ["rounds", "point-blank-or-hand-to-hand"])
@pytest.mark.parametrize("pins", [0, 2])
def test_attacker_win_chance_is_the_exact_fights_chance(procedure: str, pins: int) -> None:
    a = _side("konflikt47", "veteran", assault_models=2)
    d = _side(
        "konflikt47", "regular", mode="point-blank" if procedure != "rounds" else "hand-to-hand"
    )
    d = replace(d, morale=replace(d.morale, pins=pins))
    for n_a, n_d in [(1, 1), (5, 3), (4, 9)]:
        fight = exact_close_quarters(procedure, a, d, n_a, n_d)
        assert attacker_win_chance(procedure, a, d, n_a, n_d) == fight.probability(
            lambda f: f.attacker_wins
        )


@settings(max_examples=60)
@given(
    st.sampled_from(["rounds", "point-blank-or-hand-to-hand"]),
    st.tuples(st.integers(3, 7), st.integers(3, 7)),
    st.tuples(st.integers(5, 10), st.integers(5, 10)),
    st.tuples(st.integers(0, 3), st.integers(0, 3)),
    st.tuples(st.sampled_from(["hand-to-hand", "point-blank"]), st.booleans()),
    st.tuples(st.integers(0, 8), st.integers(0, 8)),
)
def test_attacker_win_chance_matches_the_whole_fight(
    procedure: str,
    damage: tuple[int, int],
    morale: tuple[int, int],
    assault: tuple[int, int],
    modes: tuple[str, bool],
    models: tuple[int, int],
) -> None:
    """The chance carried alone through the fight is the whole distribution's, for sides
    of any toughness, morale, assault weapons and mode, every size up to eight (a fight
    nobody can end refused by both)."""
    mode, shoots_twice = modes
    a_side = Side(damage_value=damage[0], morale=MoraleTest(morale[0]), assault_models=assault[0])
    d_side = Side(
        damage_value=damage[1],
        morale=MoraleTest(morale[1], pins=assault[1]),
        mode=mode,  # type: ignore[arg-type]
        shots_per_model=2 if shoots_twice else 1,
    )
    try:
        whole = exact_close_quarters(procedure, a_side, d_side, *models)
    except FightNeverEnds:
        with pytest.raises(FightNeverEnds, match="never end"):
            attacker_win_chance(procedure, a_side, d_side, *models)
        return
    chance = attacker_win_chance(procedure, a_side, d_side, *models)
    assert chance == whole.probability(lambda f: f.attacker_wins)


def test_a_fight_nobody_can_win_is_refused() -> None:
    hopeless = Side(damage_value=7, morale=MoraleTest(9))
    with pytest.raises(FightNeverEnds, match="never end"):
        exact_close_quarters("rounds", hopeless, hopeless, 1, 1)
    with pytest.raises(FightNeverEnds, match="never end"):
        attacker_win_chance("rounds", hopeless, hopeless, 1, 1)


def test_ba1_has_no_point_blank_choice() -> None:
    with pytest.raises(UsageError, match="no point-blank"):
        assault_odds(
            "bolt-action-1",
            attackers=5,
            attacker_quality="regular",
            defenders=5,
            defender_quality="regular",
            defender_mode="point-blank",
        )


# ----------------------------------------------------------------- infantry against vehicles
def test_vehicle_assault_golden() -> None:
    # 1 model, stationary tank: hits on 4+; damage 1 + D6 against 7+ (armoured car): 6 -> equal = superficial
    r = vehicle_assault_odds(
        "bolt-action-1",
        models=1,
        quality="regular",
        target="armoured car",
        vehicle_order="stationary",
    )
    assert r.probabilities["p_order_test"] == F(15, 36)  # -3 without AT weapons
    assert r.distributions["hits_if_assaulting"].mean() == F(1, 2)
    # superficial only (no AT): knocked out only via on fire (roll 6 on D6-3) failing morale
    # 9-2 (the assault's pin, then On fire's "additional" one: 002 "+1 Pin Marker then make
    # a Morale check"), 15/36
    assert r.probabilities["p_knocked_out_if_assaulting"] == F(1, 2) * F(1, 6) * F(1, 6) * F(15, 36)


def test_vehicle_that_ran_cannot_be_hit() -> None:
    """Sheet 001: infantry cannot assault a vehicle that ran; the odds refuse the question
    (as the game refuses the order) rather than answer 0%."""
    with pytest.raises(UsageError, match="cannot assault a vehicle that ran"):
        vehicle_assault_odds(
            "konflikt47",
            models=10,
            quality="veteran",
            target="light tank",
            vehicle_order="ran",
            anti_tank=True,
        )


def test_soft_skin_destroyed_if_damaged() -> None:
    r = vehicle_assault_odds(
        "konflikt47",
        models=1,
        quality="regular",
        target="soft-skinned vehicle",
        vehicle_order="advanced",
    )
    # hit on 6, then 1 + D6 >= 6 (5 or 6)
    assert r.probabilities["p_knocked_out_if_assaulting"] == F(1, 6) * F(2, 6)


# ----------------------------------------------------------------- properties and bad input
RANGES = st.floats(min_value=0, max_value=12, allow_nan=False)  # the SMG's reach


@settings(max_examples=40)
@given(RANGES, st.integers(0, 4), st.sampled_from(["none", "soft", "hard"]), st.booleans())
def test_shooting_distributions_are_distributions(
    rng: float, pins: int, cover: str, down: bool
) -> None:
    r = shoot_odds(
        "konflikt47",
        weapons=["rifle:5", "smg:2"],
        target="veteran infantry",
        situation=Situation(
            range_inches=rng,
            firer_pins=pins,
            cover=cover,  # type: ignore[arg-type]
            target_down=down,
        ),
    )
    for dist in r.distributions.values():
        assert sum(dist.as_list()) == 1
        assert min(dist.outcomes()) >= 0
    assert 0 <= r.probabilities["p_hit"] <= 1


@settings(max_examples=25)
@given(st.integers(0, 3), st.integers(0, 4))  # (9 pins would remove a regular unit)
def test_more_pins_never_help(pins: int, more: int) -> None:
    a = order_test_odds("bolt-action-1", quality="regular", pins=pins + 1)
    b = order_test_odds("bolt-action-1", quality="regular", pins=pins + 1 + more)
    assert b.probabilities["p_pass"] <= a.probabilities["p_pass"]


def test_a_weapon_that_cannot_fire_leaves_the_rest_of_the_unit_shooting() -> None:
    """As on the table: at 13" a squad's SMGs cannot reach and its rifles fire; the odds
    are the rifles' alone, and the reasoning says why the SMGs are silent."""
    mixed = shoot_odds(
        "konflikt47",
        weapons=["rifle:3", "smg:2"],
        target="regular infantry",
        situation=Situation(range_inches=13),
    )
    rifles = shoot_odds(
        "konflikt47", weapons=["rifle:3"], target="regular infantry",
        situation=Situation(range_inches=13),
    )  # fmt: skip
    assert mixed.probabilities == rifles.probabilities
    silent = next(r for r in mixed.reasons if r.result == "does not fire")
    assert "SMG" in silent.topic and 'reaches 12"' in silent.because
    lobbed = shoot_odds(  # --indirect is the howitzer's: the rifles beside it fire straight
        "bolt-action-1",
        weapons=["rifle:3", "Light howitzer"],
        target="regular infantry",
        situation=Situation(range_inches=24, indirect=True),
    )
    assert lobbed.details["to_hit_by_weapon"] == {"Rifle": "4+", "Light howitzer": "6+"}
    with pytest.raises(UsageError, match="none of these weapons can fire indirectly"):
        shoot_odds("bolt-action-1", weapons=["rifle:3"], target="regular infantry",
                   situation=Situation(range_inches=24, indirect=True))  # fmt: skip
    with pytest.raises(UsageError, match=r"^situation.range_inches must be a distance of 0"):
        shoot_odds("konflikt47", weapons=["rifle"], target="regular infantry",
                   situation=Situation(range_inches=float("nan")))  # fmt: skip


def test_range_beyond_maximum_is_refused() -> None:
    with pytest.raises(UsageError, match='reaches 24"'):
        shoot_odds(
            "konflikt47",
            weapons=["rifle"],
            target="regular infantry",
            situation=Situation(range_inches=30),
        )


def test_mortar_minimum_range_is_refused() -> None:
    with pytest.raises(UsageError, match="closer than 12"):
        shoot_odds(
            "konflikt47",
            weapons=["light mortar"],
            target="regular infantry",
            situation=Situation(range_inches=6),
        )


def test_fixed_weapon_cannot_fire_on_the_move() -> None:
    with pytest.raises(UsageError, match="Fixed"):
        shoot_odds(
            "konflikt47",
            weapons=["mmg"],
            target="regular infantry",
            situation=Situation(range_inches=10, moving=True),
        )


def test_a_vehicle_fires_its_fixed_weapons_on_the_move() -> None:
    """Fixed is a team weapon's rule: the same MMG on a vehicle fires on an Advance, at -1."""
    mmg = "Medium machine gun (MMG)"
    assert _needs("konflikt47", mmg, "regular infantry", range_inches=10, mounted=True) == "3+"
    assert (
        _needs("konflikt47", mmg, "regular infantry", range_inches=10, moving=True, mounted=True)
        == "4+"
    )


def test_negative_counts_are_refused() -> None:
    with pytest.raises(UsageError, match="cannot be negative"):
        order_test_odds("konflikt47", quality="regular", pins=-1)
    with pytest.raises(UsageError, match="count must be 1 or more"):
        shoot_odds(
            "konflikt47",
            weapons=["rifle:0"],
            target="regular infantry",
            situation=Situation(range_inches=10),
        )


def test_questions_larger_than_the_exact_odds_take_are_refused_and_the_largest_answered() -> None:
    """Not rules: limits of the tool (the time grows steeply with the hits a shooting could
    score, and faster at a vehicle, whose every hit is followed through its damage)."""
    from kriegsspiel.rulesets.bolt_action.odds import (
        MAX_FIGHTERS,
        MAX_HITS,
        MAX_HITS_AT_VEHICLE,
        assault_odds,
    )

    def shoot(weapons: list[str], target: str = "regular infantry") -> object:
        return shoot_odds("konflikt47", weapons=weapons, target=target,
                          situation=Situation(range_inches=6))  # fmt: skip

    assert shoot([f"rifle:{MAX_HITS}"]).probabilities["p_hit"] > 0  # type: ignore[attr-defined]
    for weapons, said in [
        ([f"rifle:{MAX_HITS + 1}"], "up to 601 hits; "),
        (["MMG:150", "rifle"], "up to 601 hits; "),  # 4 shots an MMG
        (["Heavy howitzer:34"], "up to 612 hits; "),  # up to 18 hits a shot
    ]:
        with pytest.raises(UsageError, match=said):
            shoot(weapons)
    soft = shoot([f"rifle:{MAX_HITS_AT_VEHICLE}"], "soft-skinned vehicle")
    assert soft.probabilities["p_knocked_out"] > 0.99  # type: ignore[attr-defined]
    for weapons, said in [
        ([f"Heavy AT gun:{MAX_HITS_AT_VEHICLE + 1}"], "up to 61 hits at a vehicle"),
        (["Flamethrower (infantry):4"], "up to 72 hits at a vehicle"),  # 6 hits, tests: x3
        (["Flamethrower (vehicle):2"], "up to 72 hits at a vehicle"),  # 12 hits a shot, x3
    ]:
        with pytest.raises(UsageError, match=said):
            shoot(weapons, "medium tank")
    fight = assault_odds("konflikt47", attackers=MAX_FIGHTERS, attacker_quality="regular",
                         defenders=1, defender_quality="regular")  # fmt: skip
    assert fight.probabilities["p_attacker_wins"] > 0.99
    flamed = shoot(["Flamethrower (infantry):3"], "medium tank")  # 54 of 60
    assert flamed.probabilities["p_knocked_out"] > 0  # type: ignore[attr-defined]
    with pytest.raises(UsageError, match="at most 20 models a side"):
        assault_odds("konflikt47", attackers=2, attacker_quality="regular",
                     defenders=MAX_FIGHTERS + 1, defender_quality="regular")  # fmt: skip


# ----------------------------------------------------------------- rules no sheet states
def test_failed_order_test_goes_down_and_pins_at_morale_remove_the_unit() -> None:
    r = order_test_odds("bolt-action-1", quality="inexperienced", pins=7)
    topics = {reason.topic: reason.result for reason in r.reasons}
    assert topics["failed"] == "goes Down"
    # at 8 pins (its morale) an inexperienced unit is gone: no test, so no odds; the same
    # unit on either side of a fight, or hit by a flamethrower (its forced morale check)
    with pytest.raises(UsageError, match="removed from play and takes no test; give pins=7"):
        order_test_odds("bolt-action-1", quality="inexperienced", pins=8)
    with pytest.raises(UsageError, match=r"^defender_pins=8: a unit of inexperienced troops"):
        assault_odds(
            "bolt-action-1",
            attackers=5,
            attacker_quality="regular",
            defenders=5,
            defender_quality="inexperienced",
            defender_pins=8,
        )
    with pytest.raises(UsageError, match=r"^situation.target_pins=8"):
        shoot_odds(
            "konflikt47",
            weapons=["flamethrower (infantry)"],
            target="inexperienced infantry",
            situation=Situation(range_inches=5, target_pins=8),
        )


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_pins_an_attack_brings_up_to_the_morale_value_remove_the_target(ruleset: str) -> None:
    # regular troops (morale 9) with 8 pins: any hit's pin removes them
    rifles = shoot_odds(
        ruleset,
        weapons=["rifle:5"],
        target="regular infantry",
        situation=Situation(range_inches=12, target_pins=8),
    )
    assert rifles.probabilities["p_removed_by_pins"] == 1 - F(1, 3) ** 5 == F(242, 243)
    assert _said(rifles, "target pins") == (
        f"{float(F(242, 243)):.1%} removed: 8 pins already there; a unit whose pins reach "
        "its morale value (9, regular) is removed"
    )
    seven = Situation(range_inches=12, target_pins=7)
    fewer = shoot_odds(ruleset, weapons=["rifle:5"], target="regular infantry", situation=seven)
    assert "p_removed_by_pins" not in fewer.probabilities  # one pin an attack: 8 at most
    # a vehicle: every Panzerfaust hit damages (6 + D6 against 9+) and so pins it; a hit
    # that does not knock it out leaves it abandoned
    faust = shoot_odds(
        "konflikt47",
        weapons=["panzerfaust"],
        target="medium tank",
        situation=Situation(range_inches=4, target_pins=8),
    )
    gone = faust.probabilities["p_knocked_out"] + faust.probabilities["p_removed_by_pins"]
    assert gone == faust.probabilities["p_hit"] == F(2, 3)
    assert faust.probabilities["p_removed_by_pins"] > 0
    # an assault on a vehicle: its own pin comes with any hit
    for pins, removed in ((8, True), (0, False)):
        va = vehicle_assault_odds(
            ruleset,
            models=8,
            quality="regular",
            target="medium tank",
            vehicle_order="stationary",
            anti_tank=True,
            target_pins=pins,
        )
        if not removed:
            assert "p_removed_by_pins" not in va.probabilities
            continue
        if_in = va.probabilities["p_removed_by_pins_if_assaulting"]
        assert if_in + va.probabilities["p_knocked_out_if_assaulting"] == 1 - F(1, 2) ** 8
        assert va.probabilities["p_removed_by_pins"] == if_in * va.probabilities["p_order_test"]


def test_shaped_charge_keeps_its_pen_at_long_range() -> None:
    near = shoot_odds(
        "konflikt47",
        weapons=["bazooka"],
        target="medium tank",
        situation=Situation(range_inches=12),
    )
    far = shoot_odds(
        "konflikt47",
        weapons=["bazooka"],
        target="medium tank",
        situation=Situation(range_inches=20),
    )
    assert near.details["damage_per_hit"] == far.details["damage_per_hit"]
    gun_near = shoot_odds(
        "konflikt47",
        weapons=["light AT gun"],
        target="medium tank",
        situation=Situation(range_inches=24),
    )
    gun_far = shoot_odds(
        "konflikt47",
        weapons=["light AT gun"],
        target="medium tank",
        situation=Situation(range_inches=25),
    )
    assert gun_far.details["damage_per_hit"]["none"] > gun_near.details["damage_per_hit"]["none"]  # type: ignore[index]


def test_soft_skinned_vehicle_destroyed_if_damaged() -> None:
    r = shoot_odds(
        "bolt-action-1",
        weapons=["rifle"],
        target="soft-skinned vehicle",
        situation=Situation(range_inches=10),
    )
    assert r.probabilities["p_knocked_out"] == F(4, 6) * F(1, 6)  # 3+ to hit, a 6 to damage


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_soft_skin_is_damaged_on_six_from_any_side_at_any_range(ruleset: str) -> None:
    """Sheets 001/002 give the side, top, rear and long-range penetration modifiers to
    heavy weapons against armoured targets: a soft-skin takes none of them."""
    for weapon in ("rifle", "Light automatic cannon"):
        knocked_out = set()
        for facing in ("front", "side", "rear"):
            r = shoot_odds(
                ruleset,
                weapons=[weapon],
                target="soft-skinned vehicle",
                situation=Situation(range_inches=5, facing=facing),  # type: ignore[arg-type]
            )
            knocked_out.add(r.probabilities["p_knocked_out"])
        assert len(knocked_out) == 1, weapon
    far = shoot_odds(
        ruleset,
        weapons=["rifle"],
        target="soft-skinned vehicle",
        situation=Situation(range_inches=13),
    )
    assert far.probabilities["p_knocked_out"] == F(3, 6) * F(1, 6)  # long range hits on 4+


@pytest.mark.parametrize(("total", "level"), [(8, 0), (9, 1), (10, 2), (11, 2), (12, 3), (15, 3)])
def test_damage_thresholds_equal_over_and_three_over(total: int, level: int) -> None:
    from kriegsspiel.rulesets.bolt_action.vehicle_damage import damage_level

    for ruleset in EDITIONS:
        assert damage_level(_vehicle(ruleset, "medium tank"), total) == level


def test_howitzer_fires_direct_or_indirect() -> None:
    direct = _needs("konflikt47", "light howitzer", "regular infantry", range_inches=10)
    assert direct == "3+"
    with pytest.raises(UsageError, match="closer than 24"):
        _needs("konflikt47", "light howitzer", "regular infantry", range_inches=10, indirect=True)
    assert (
        _needs("konflikt47", "light howitzer", "regular infantry", range_inches=30, indirect=True)
        == "6+"
    )


def house_rules(tmp_path: object, old: str, new: str) -> str:
    """A copy of the shipped Konflikt '47 rules data with ``old`` (found once) made ``new``:
    a designer's house rule, given with ``--rules-file``."""
    from pathlib import Path

    from kriegsspiel.rulesets.bolt_action.data import DATA_DIR

    text = (DATA_DIR / "konflikt47.yaml").read_text()
    assert text.count(old) == 1, old
    path = Path(str(tmp_path)) / "house.yaml"
    path.write_text(text.replace(old, new))
    return str(path)


def test_a_rules_file_with_a_field_the_rules_data_has_not_is_refused(tmp_path: object) -> None:
    """The Shockwave's Pen against infantry was once in the data, read by no rule (pen does
    not change damage against infantry): a file that still gives it is told so, at its line,
    with the fields the Shockwave's rule has."""
    path = house_rules(
        tmp_path, "  hits_vs_infantry: D3\n", "  hits_vs_infantry: D3\n  pen_vs_infantry: 1\n"
    )
    with pytest.raises(
        DataFileError,
        match=r"field shockwave.pen_vs_infantry: there is no such field here \(did you mean 'hits_vs_infantry'\?\); the fields here are source, to_hit, pins, hits_vs_infantry, vehicle_result",
    ):
        rules_for("konflikt47", path)


def test_a_designers_rules_file_changes_the_odds(tmp_path: object) -> None:
    path = house_rules(
        tmp_path,
        '{name: Bazooka, category: heavy weapons, range: 24, shots: "1", pen: 5,',
        '{name: Bazooka, category: heavy weapons, range: 24, shots: "1", pen: 7,',
    )
    s = Situation(range_inches=10)
    base = shoot_odds("konflikt47", weapons=["bazooka"], target="heavy tank", situation=s)
    house = shoot_odds(
        "konflikt47", weapons=["bazooka"], target="heavy tank", situation=s, rules_file=path
    )
    assert house.probabilities["p_knocked_out"] > base.probabilities["p_knocked_out"]


def test_an_assaults_damage_dice_are_read_from_the_rules_data(tmp_path: object) -> None:
    """Infantry against a vehicle add the data's damage dice (D6) to their hits: a house
    rule of 2D6 makes a knock-out likelier, in the odds as in the game (assault_vehicle)."""
    path = house_rules(tmp_path, "  damage_dice: D6\n", "  damage_dice: 2D6\n")
    asked = dict(models=10, quality="veteran", target="light tank", vehicle_order="stationary")
    base = vehicle_assault_odds("konflikt47", anti_tank=True, **asked)  # type: ignore[arg-type]
    house = vehicle_assault_odds(
        "konflikt47",
        anti_tank=True,
        rules_file=path,
        **asked,  # type: ignore[arg-type]
    )
    key = "p_knocked_out_if_assaulting"
    assert house.probabilities[key] > base.probabilities[key]


def test_whether_a_facing_modifier_applies_to_walkers_is_read_from_the_data(
    tmp_path: object,
) -> None:
    """A walker has no weaker side because the data's rear-armour row says ``walkers:
    false``; a house rule saying true gives a rear shot at a walker its +2."""
    path = house_rules(tmp_path, "value: 2, walkers: false}", "value: 2, walkers: true}")
    s = Situation(range_inches=10, facing="rear")
    asked = dict(weapons=["bazooka"], target="medium walker", situation=s)
    base = shoot_odds("konflikt47", **asked)  # type: ignore[arg-type]
    front = shoot_odds(
        "konflikt47", weapons=["bazooka"], target="medium walker", situation=Situation(10)
    )
    house = shoot_odds("konflikt47", rules_file=path, **asked)  # type: ignore[arg-type]
    key = "p_knocked_out"
    assert base.probabilities[key] == front.probabilities[key]
    assert house.probabilities[key] > base.probabilities[key]


def test_what_a_flamethrower_ignores_is_read_from_the_rules_data(tmp_path: object) -> None:
    """A flamethrower ignores cover because the data's ``ignores`` says so: a house rule
    that drops soft cover from the list makes the same shot into soft cover miss more."""
    path = house_rules(
        tmp_path,
        "  ignores: [soft_cover, hard_cover, target_down]\n",
        "  ignores: [hard_cover, target_down]\n",
    )
    s = Situation(range_inches=4, cover="soft")
    asked = dict(weapons=["infantry flamethrower"], target="regular infantry", situation=s)
    base = shoot_odds("konflikt47", **asked)  # type: ignore[arg-type]
    opened = shoot_odds(
        "konflikt47",
        weapons=["infantry flamethrower"],
        target="regular infantry",
        situation=Situation(4),
    )
    house = shoot_odds("konflikt47", rules_file=path, **asked)  # type: ignore[arg-type]
    assert base.probabilities["p_hit"] == opened.probabilities["p_hit"]
    assert house.probabilities["p_hit"] < base.probabilities["p_hit"]
    assert "flamethrower ignores cover" in str(base.to_json())


def test_a_rules_file_asking_what_the_engine_cannot_play_is_refused(tmp_path: object) -> None:
    """Some data values describe the only way the engine plays a rule (tests are 2D6,
    a flamethrower's Shots are its hits): another value is refused at its line, not
    silently played the usual way."""
    from kriegsspiel.errors import DataFileError

    for old, new, field in (
        ("  order_test_dice: 2\n", "  order_test_dice: 3\n", "procedure.order_test_dice"),
        ("  hit_dice_from_shots: true\n", "  hit_dice_from_shots: false\n", "flamethrower"),
    ):
        path = house_rules(tmp_path, old, new)
        with pytest.raises(DataFileError, match=rf"line \d+, field {field}"):
            order_test_odds("konflikt47", quality="regular", pins=1, rules_file=path)


@pytest.mark.parametrize(
    ("old", "new", "field", "said"),
    [
        ('range: 24, shots: "1"}', 'range: 24, shots: "D7"}', "weapons.rows.0.shots",
         "'D7' is not a number of shots: write a whole number, 0 or more"),
        ('range: 24, shots: "1"}', 'range: 24, shots: "-1"}', "weapons.rows.0.shots",
         "'-1' is not a number of shots"),
        ('range: 24, shots: "1"}', 'range: 24, shots: ""}', "weapons.rows.0.shots",
         "'' is not a number of shots"),
        ('range: 24, shots: "1"}', 'range: 24, shots: "1d"}', "weapons.rows.0.shots",
         "'1d' is not a number of shots"),
        ("range: 6, shots: D6, pen: 2", "range: 6, shots: 1d, pen: 2", "weapons.rows.23.shots",
         "'1d' is not a dice expression (write e.g. 3, D6, 2D6-1, D3+1)"),
        ("range: 6, shots: D6, pen: 2", "range: 6, shots: D7, pen: 2", "weapons.rows.23.shots",
         "'D7': a D7 is not a die the rules roll"),
        ("Rifle, category: small arms, range: 24,", "Rifle, category: small arms, range: -5,",
         "weapons.rows.0.range", "must be 1 or more (not -5)"),
        ("Rifle, category: small arms, range: 24,", "Rifle, category: small arms, range: 0,",
         "weapons.rows.0.range", "must be 1 or more (not 0)"),  # (a range that reaches nothing)
        ("min_range: 12, shots", "min_range: -12, shots", "weapons.rows.27.min_range",
         "must be 0 or more"),
        ("{names: [regular infantry, regular artillery, regular], kind: infantry, needed: 4}",
         "{names: [regular infantry, regular artillery, regular], kind: infantry, needed: 44}",
         "damage_values.rows.1.needed", "must be 2 to 6: infantry is damaged on a D6 roll (not 44)"),
        ("{names: [light tank], kind: armoured, needed: 8}",
         "{names: [light tank], kind: armoured, needed: 0}",
         "damage_values.rows.7.needed", "must be 2 or more (not 0)"),
        ("{key: long_range, label: Long range, short: long range, value: -1}",
         "{key: long_rang, label: Long range, short: long range, value: -1}", "hit_modifiers.rows.2.key", "'long_rang' is not one of the choices here (did you mean 'long_range'?)"),
        ("{key: long_range, label: Long range, short: long range, value: -1}",
         "{key: long_range, label: Long range, short: '', value: -1}", "hit_modifiers.rows.2.short", "is empty: give a name"),
        ("    - {key: small_unit, label: Target is a small unit, short: small unit, value: -1}\n", "",
         "hit_modifiers.rows", "the rules look up every one of point_blank, per_pin, long_range"),
        ("{key: rear, label:", "{key: side, label:", "penetration_modifiers.rows",
         "given twice: side"),
        ('range: 6, shots: "1", special: [Assault]}', 'range: 6, shots: "1", special: [Asault]}',
         "weapons.rows.1.special.0", "'Asault' is not one of the choices here (did you mean 'Assault'?)"),
        ("he: D3, special: [Team, Indirect", "he: 2D3, special: [Team, Indirect",
         "weapons.rows.27.he", "'2D3' is not a row of the HE table (its rows: D2, D3, D6, 2D6, 3D6)"),
        ("{he: D6, pins: D2, pen: 2}", "{he: D6, pins: D2-3, pen: 2}", "he.rows.2.pins",
         "'D2-3' can come to -2; a count may not be less than 0"),
        ("rolls: [3, 4, 5, 6]", "rolls: [3, 4, 5]", "fubar.rows",
         "a D6 table gives each face, 1 to 6, in one row exactly: 6 in no row"),
        ("  base_to_hit: 3\n", "  base_to_hit: 9\n", "hit_modifiers.base_to_hit",
         "must be 6 or less (not 9)"),
        # a game would stop at its first wreck (an obstacle) with no such row
        ("{category: obstacle, infantry", "{category: linear obstacle, infantry",
         "terrain.rows", "missing: obstacle"),
    ],
)  # fmt: skip
def test_a_rules_file_whose_numbers_the_rules_cannot_play_is_refused_at_its_line(
    tmp_path: object, old: str, new: str, field: str, said: str
) -> None:
    """A designer's copy of the data is checked as it is read: dice that do not parse,
    counts and ranges below 0, a damage value no D6 can mean, a special rule or a modifier
    key the rules do not know (each was a traceback, a bare StopIteration, or silently
    played) is told at its line and field."""
    from pathlib import Path

    from conftest import run_cli

    from kriegsspiel.errors import DataFileError

    path = house_rules(tmp_path, old, new)
    rows = Path(path).read_text().splitlines()
    line = next(i for i, row in enumerate(rows, 1) if new.strip() and new.strip() in row) if (
        field.split(".")[-1] in new  # (else the error is the table's, at its own line)
    ) else None  # fmt: skip
    with pytest.raises(DataFileError) as refused:
        rules_for("konflikt47", path)
    message = str(refused.value)
    assert f"field {field}: " in message and said in message, message
    assert f"line {'' if line is None else line}" in message
    done = run_cli("odds", "shoot", "--weapon", "rifle:10", "--range", "20", "--rules-file", path)
    assert done.returncode == 2 and "Traceback" not in done.stderr and said in done.stderr


def test_a_tesla_rule_of_dice_and_a_constant_is_played(tmp_path: object) -> None:
    """The Tesla rule's extra hits were joined to "+1" as text: "D3+1" made "D3+1+1",
    which no dice expression reads."""
    path = house_rules(tmp_path, "extra_hits_vs_infantry: D6", "extra_hits_vs_infantry: D3+1")
    odds = shoot_odds(
        "konflikt47", weapons=["tesla"], target="regular infantry", situation=Situation(range_inches=10),
        rules_file=path,
    )  # fmt: skip
    assert "1 + D3+1" in str(odds.to_json())


def test_a_broken_rules_file_names_line_and_field(tmp_path: object) -> None:
    from pathlib import Path

    from kriegsspiel.errors import DataFileError
    from kriegsspiel.rulesets.bolt_action.data import DATA_DIR

    lines = (DATA_DIR / "bolt_action_1.yaml").read_text().splitlines()
    number = next(i for i, line in enumerate(lines) if "{quality: veteran, morale: 10}" in line)
    lines[number] = lines[number].replace("morale: 10", "morale: ten")
    path = Path(str(tmp_path)) / "broken.yaml"
    path.write_text("\n".join(lines))
    with pytest.raises(DataFileError, match=rf"line {number + 1}, field quality.rows.2.morale"):
        order_test_odds("bolt-action-1", quality="veteran", pins=1, rules_file=str(path))


@pytest.mark.parametrize(
    ("ruleset", "reaction_step", "removes_dead"),
    [("konflikt47", True, False), ("bolt-action-1", False, True)],
)
def test_turn_sequences_as_printed(ruleset: str, reaction_step: bool, removes_dead: bool) -> None:
    data = rules_for(ruleset).data
    assert any("reaction" in step for step in data.turn_sequence.steps) is reaction_step
    assert any("destroyed" in step for step in data.turn_end.steps) is removes_dead
    assert data.shooting_sequence.steps[0] == "Declare target"
    assert data.shooting_sequence.steps[-1] == "Target checks morale"


def test_point_blank_fire_rolls_to_hit_as_a_shot_does() -> None:
    """Konflikt '47's point-blank fire in close quarters (sheet 001: it "rolls to hit"):
    2+ less the firer's pins and Inexperienced -1, a 7+ as a 6 then 4+, and a side that
    could not hit at all (10+) fights hand-to-hand instead; Bolt Action's rounds read no
    pins at all, so the odds refuse them there."""
    rules = rules_for("konflikt47")

    def needs(quality: str, pins: int) -> tuple[str, tuple[int, ...]]:
        side = fighting_side(rules, quality, pins=pins, assault_models=0, mode="point-blank")
        return side.mode, side.point_blank_hit

    assert needs("regular", 0) == ("point-blank", (2,))
    assert needs("inexperienced", 0) == ("point-blank", (3,))
    assert needs("regular", 5) == ("point-blank", (6, 4))
    assert needs("veteran", 7) == ("point-blank", (6, 6))
    assert needs("regular", 8)[0] == "hand-to-hand"
    green = assault_odds(
        "konflikt47",
        attackers=10,
        attacker_quality="inexperienced",
        attacker_mode="point-blank",
        defenders=10,
        defender_quality="regular",
    )
    assert "point-blank fire hits on 3+" in str(_said(green, "attackers"))
    # two sides that cannot hit with point-blank fire fight hand-to-hand (not for ever)
    kwargs: dict[str, object] = dict(
        attackers=5, attacker_quality="regular", defenders=5, defender_quality="regular"
    )
    stuck = assault_odds(
        "konflikt47",
        attacker_mode="point-blank",
        defender_mode="point-blank",
        attacker_pins=8,
        defender_pins=8,
        **kwargs,  # type: ignore[arg-type]
    )
    plain = assault_odds("konflikt47", attacker_pins=8, defender_pins=8, **kwargs)  # type: ignore[arg-type]
    assert stuck.probabilities == plain.probabilities
    assert [r.topic for r in stuck.reasons if "fight hand-to-hand" in r.topic] == [
        "attackers fight hand-to-hand",
        "defenders fight hand-to-hand",
    ]
    with pytest.raises(UsageError, match="pins change nothing"):
        assault_odds("bolt-action-1", attacker_pins=2, **kwargs)  # type: ignore[arg-type]
    rounds = assault_odds("bolt-action-1", **kwargs)  # type: ignore[arg-type]
    assert "both destroyed" not in rounds.reasons[-1].because
    with pytest.raises(UsageError, match=r"^attacker_quality='elite': Unknown quality"):
        assault_odds("konflikt47", **{**kwargs, "attacker_quality": "elite"})  # type: ignore[arg-type]


def test_the_odds_api_names_a_mistyped_cover_facing_or_weapon_list() -> None:
    """From Python, as on the command line: a clear error, not a bare StopIteration from
    the modifier tables or 'Unknown weapon r' from a string read letter by letter."""
    ask = partial(shoot_odds, "konflikt47", target="regular infantry")
    with pytest.raises(UsageError, match=r"^situation.cover is none, soft or hard \(not 'sof'\)"):
        ask(weapons=["Rifle"], situation=Situation(10, cover="sof"))  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"front, side, top or rear \(not 'back'\)"):
        ask(weapons=["Rifle"], situation=Situation(10, facing="back"))  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"a list of weapon names, e\.g\. \['Rifle'\]"):
        ask(weapons="Rifle", situation=Situation(10))
    assert ask(weapons=["Rifle"], situation=Situation(10, cover="soft")).probabilities


def test_an_aircrafts_hits_on_a_vehicle_bring_no_pin_of_their_own() -> None:
    """The air strike chart gives each aircraft's pins (002: '+1 Pin Marker; 3D6 hits'),
    as the HE table gives a shell's: the hits add no pin as a shot's hit does."""
    from kriegsspiel.rulesets.bolt_action.shot import Shot

    strafing = Shot(weapon="Strafing Fighter", hit_on=(), pen=1, pins_target=False)
    assert pin_vehicle(RandomDice(1), strafing, VehicleState()) == VehicleState()
    gun = replace(strafing, pins_target=True)
    assert pin_vehicle(RandomDice(1), gun, VehicleState()).attack_pins == 1


# ----------------------------------------------------------------- rules pinned one by one
@pytest.mark.parametrize(
    ("start", "alive", "test"),
    [
        (10, 5, True),  # exactly half: a morale check
        (10, 4, True),  # below half
        (10, 6, False),  # above half
        (5, 2, True),  # an odd unit: 2 is under its half (2.5)
        (5, 3, False),  # 3 is over it
        (2, 1, True),  # two models, one left: half
        (1, 0, False),  # a lone model is not a unit of two or more
    ],
)
def test_losses_to_half_strength_force_a_morale_check(start: int, alive: int, test: bool) -> None:
    """Docs/rules 'Morale at half strength': a unit of two or more models left at half its
    starting strength or less takes a morale check (the game, odds and aid ask this)."""
    from kriegsspiel.rulesets.bolt_action.morale import losses_force_test

    assert losses_force_test(start, alive) is test


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_point_blank_within_a_short_weapons_long_range_takes_no_long_range_pen(
    ruleset: str,
) -> None:
    """A weapon with a pen and a range under 12" (a rules file's): at 5" its target is
    past half the range and within 6", at point blank only (assumption): +1 to hit and no
    long-range -1 on the pen roll either (it once took the -1 there); at 7" long range
    takes both."""
    rules = rules_for(ruleset)
    cannon = rules.weapon("Light automatic cannon")
    short = cannon.model_copy(update={"range": 8})
    tank = rules.target("medium tank")
    near, near_why = plan_shot(rules, short, tank, Situation(range_inches=5.0))
    far, far_why = plan_shot(rules, short, tank, Situation(range_inches=7.0))
    assert near.hit_modifiers == (("point_blank", 1),)
    assert near.pen == cannon.pen
    assert "long range" not in next(r.because for r in near_why if r.topic == "to damage")
    assert far.hit_modifiers == (("long_range", -1),)
    assert far.pen == cannon.pen - 1
    assert "long range -1" in next(r.because for r in far_why if r.topic == "to damage")


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_down_vehicle_shot_at_through_the_python_api_takes_no_down_modifier(
    ruleset: str,
) -> None:
    """Only infantry and artillery go Down to a shot (docs/rules 'Ranges and cover'):
    plan_shot, which the odds, the game and the account share, gives a vehicle no -1
    for Down, though a Situation says it is Down; infantry do take it."""
    from kriegsspiel.rulesets.bolt_action.shot import down_to_a_shot

    rules = rules_for(ruleset)
    rifle = rules.weapon("rifle")
    for target, down_counts in (("medium tank", False), ("regular infantry", True)):
        aimed = rules.target(target)
        down, _ = plan_shot(rules, rifle, aimed, Situation(range_inches=10, target_down=True))
        up, _ = plan_shot(rules, rifle, aimed, Situation(range_inches=10))
        assert (("target_down", -1) in down.hit_modifiers) is down_counts, target
        assert (down.hit_on == up.hit_on) is not down_counts, target
        assert down_to_a_shot(True, vehicle=aimed.is_vehicle) is down_counts
    assert down_to_a_shot(False, vehicle=False) is False
