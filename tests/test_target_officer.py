"""An officer in range of a target vehicle (``odds shoot --target-officer``, ``odds
vehicle-assault --target-officer``): its crew's tests (On fire, a flamethrower's check)
take his bonus in the odds as in the game; golden values counted by hand, the odds against
the game resolving the same attack, a Monte Carlo check, and the inputs refused."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from functools import partial
from itertools import product
from typing import Any

import pytest
from conftest import bernoulli_ok, run_cli
from test_game_rules import new_game, only, place

from kriegsspiel.core.procedure import RandomDice, brute_force, exact
from kriegsspiel.core.table import Table
from kriegsspiel.rulesets.bolt_action import rules_for
from kriegsspiel.rulesets.bolt_action.attack import attack_vehicle, exact_vehicle
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.table_rules import facing_hit
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.rulesets.bolt_action.odds import shoot_odds, vehicle_assault_odds
from kriegsspiel.rulesets.bolt_action.pen import vehicle_profile
from kriegsspiel.rulesets.bolt_action.shooting import plan_shot
from kriegsspiel.rulesets.bolt_action.shot import Group, Situation

F = Fraction
BONUS = {None: 0, "second-lieutenant": 1, "first-lieutenant": 2, "captain": 3, "major": 4}


def _passes(value: int) -> Fraction:
    """A 2D6 test counted die by die: a double 1 passes, a double 6 fails, else the total
    must be ``value`` or less."""
    ok = sum(
        1
        for a, b in product(range(1, 7), repeat=2)
        if (a, b) == (1, 1) or ((a, b) != (6, 6) and a + b <= value)
    )
    return F(ok, 36)


def _bazooka_at_a_medium_tank(crew_value: int) -> tuple[Fraction, Fraction, Fraction]:
    """Bolt Action: one bazooka shot at a medium tank's front, counted die by die (not by
    the engine): 3+ to hit; D6 + 5 pen against 9: 4 superficial (D6-3 on the results
    table), 5-6 full (D6); 3 sets it on fire (the hit's pin and one additional, then the
    crew's test at ``crew_value`` less those two), 4+ knocks it out. (knocked out, on fire, on fire and knocked out)."""
    ko = fire = fire_ko = F(0)
    for to_hit, pen, result in product(range(1, 7), repeat=3):
        if to_hit < 3 or pen + 5 < 9:
            continue
        p = F(1, 6**3)
        effect = result - 3 if pen + 5 == 9 else result
        if effect >= 4:
            ko += p
        elif effect == 3:
            fire += p
            lost = p * (1 - _passes(crew_value - 2))
            ko, fire_ko = ko + lost, fire_ko + lost
    return ko, fire, fire_ko


def _bazooka_odds(officer: str | None) -> dict[str, Fraction]:
    return shoot_odds(
        "bolt-action-1",
        weapons=["bazooka"],
        target="medium tank",
        situation=Situation(range_inches=12, target_pins=1, target_officer=officer),
    ).probabilities


def test_an_officer_near_the_target_vehicle_golden() -> None:
    """A regular crew with 1 pin, hit (its pin) and set on fire (one additional pin: sheet
    002's "+1 Pin Marker then make a Morale check") tests 9 - 3 = 6 or less: it fails 21
    times in 36; with a captain in range (+3) 9 or less, failing on 10, 11, 12 (6 in 36).
    Hit 2/3, on fire 1/6 of a superficial (1/6) and of a full (2/6) damage: on fire
    2/3 x 3/36 = 1/18 either way; knocked out 2/3 x (2/6 x 3/6 + 3/36 x fail)."""
    alone, led = _bazooka_odds(None), _bazooka_odds("captain")
    assert alone["p_on_fire"] == led["p_on_fire"] == F(1, 18)
    assert alone["p_on_fire_and_knocked_out"] == F(2, 3) * F(3, 36) * F(21, 36) == F(7, 216)
    assert led["p_on_fire_and_knocked_out"] == F(2, 3) * F(3, 36) * F(6, 36) == F(1, 108)
    assert alone["p_knocked_out"] == F(31, 216)
    assert led["p_knocked_out"] == F(26, 216)


@pytest.mark.parametrize("officer", list(BONUS))
def test_each_rank_lends_its_bonus_to_the_crew_as_counted_die_by_die(officer: str | None) -> None:
    ko, fire, fire_ko = _bazooka_at_a_medium_tank(9 - 1 + BONUS[officer])
    odds = _bazooka_odds(officer)
    assert odds["p_knocked_out"] == ko
    assert odds["p_on_fire"] == fire
    assert odds["p_on_fire_and_knocked_out"] == fire_ko
    if officer is not None:  # the higher his rank, the rarer the crew abandons its tank
        lower = list(BONUS)[list(BONUS).index(officer) - 1]
        assert fire_ko < _bazooka_at_a_medium_tank(9 - 1 + BONUS[lower])[2]


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_the_crews_odds_with_an_officer_equal_brute_force(ruleset: str) -> None:
    rules = rules_for(ruleset)
    s = Situation(range_inches=12, facing="side", target_pins=2, target_officer="major")
    shot, _ = plan_shot(rules, rules.weapon("bazooka"), rules.target("medium tank"), s)
    assert shot.vehicle is not None and shot.vehicle.crew_morale.officer_bonus == 4
    groups = [Group(shot, 1)]
    assert exact_vehicle(groups) == brute_force(partial(attack_vehicle, groups=groups))


def test_a_flamethrowers_crew_check_takes_the_officer_exact_and_monte_carlo() -> None:
    """A flamethrower's morale check on the crew (Konflikt '47) takes his bonus too: the
    knock-out chance falls, and the exact odds hold against sampling the same attack
    (within 4 standard errors)."""
    rules = rules_for("konflikt47")
    target = rules.target("light tank")

    def groups(officer: str | None) -> list[Group]:
        s = Situation(range_inches=5, target_pins=2, target_officer=officer)
        shot, _ = plan_shot(rules, rules.weapon("infantry flamethrower"), target, s)
        return [Group(shot, 1)]

    led, alone = exact_vehicle(groups("major")), exact_vehicle(groups(None))
    p_led = led.probability(lambda v: v.knocked_out)
    assert p_led < alone.probability(lambda v: v.knocked_out)
    odds = shoot_odds(
        "konflikt47",
        weapons=["infantry flamethrower"],
        target="light tank",
        situation=Situation(range_inches=5, target_pins=2, target_officer="major"),
    )
    assert odds.probabilities["p_knocked_out"] == p_led
    rng, n = RandomDice(7), 20_000
    runs = [attack_vehicle(rng, groups("major")) for _ in range(n)]
    assert bernoulli_ok(sum(v.knocked_out for v in runs), n, p_led)


# ------------------------------------------------------------- the odds against the game
def _tank_before_tank(rank: str) -> tuple[BoltActionGame, UnitState, UnitState]:
    """Bolt Action: a Panzer IV 30" in front of a Sherman with 2 pins, the Sherman's
    platoon HQ 3" beside it led by an officer of ``rank``, nothing else on the table."""
    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    only(game, 0, 8, 19)
    hq, sherman, panzer = game.units[0], game.units[8], game.units[19]
    hq.models[0].officer = rank
    place(hq, 30, 10, 0)
    place(sherman, 33, 10, 0)
    place(panzer, 33, 40, 180)
    sherman.pins = 2
    return game, sherman, panzer


def _as_asked(game: BoltActionGame, groups: list[Group]) -> list[str]:
    """The game's groups as 'odds' takes the weapons (NAME:COUNT)."""
    shots: Counter[str] = Counter()
    for group in groups:
        weapon = game.rules.weapon(group.shot.weapon)
        shots[weapon.name] += group.shots // int(weapon.shots)
    return [f"{name}:{count}" for name, count in shots.items()]


def test_the_odds_with_target_officer_are_the_games_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """The attack the game resolves on a vehicle with its officer near (its groups, caught
    as they are rolled, followed exactly) has the odds' chances, asked with the officer's
    rank as a player types it; without him the odds differ. Then the game itself, played
    many times, lands within 4 standard errors of those odds."""
    from kriegsspiel.rulesets.bolt_action.game import firing as firing_module

    game, sherman, panzer = _tank_before_tank("Major")
    assert game.officer_near(sherman) == "Major"
    caught: list[list[Group]] = []
    real = firing_module.attack_vehicle

    def spy(dice: Any, groups: Any, tally: Any = None) -> Any:
        caught.append(groups)
        return real(dice, groups, tally)

    monkeypatch.setattr(firing_module, "attack_vehicle", spy)
    planned = game.shooting_groups(panzer, sherman, moving=False)
    trial = game.clone()
    trial.resolve_attack(trial.units[panzer.uid], trial.units[sherman.uid], planned)
    (played,) = caught
    games = exact_vehicle(played)
    asked = dict(
        weapons=_as_asked(game, planned),
        target=sherman.vehicle.target.name if sherman.vehicle else "",
    )
    situation = Situation(
        range_inches=game.gap(panzer, sherman),
        facing=facing_hit(sherman.heading, sherman.anchor, panzer.anchor),  # type: ignore[arg-type]
        target_pins=sherman.pins,
        target_quality=sherman.quality,
    )
    led = shoot_odds(
        "bolt-action-1",
        situation=replace(situation, target_officer="major"),
        **asked,  # type: ignore[arg-type]
    )
    alone = shoot_odds("bolt-action-1", situation=situation, **asked)  # type: ignore[arg-type]
    for key, event in (("p_knocked_out", "knocked_out"), ("p_on_fire", "on_fire")):
        assert led.probabilities[key] == games.probability(lambda v, e=event: getattr(v, e))
    fire_ko = games.probability(lambda v: v.fire_knocked_out)
    assert led.probabilities["p_on_fire_and_knocked_out"] == fire_ko
    assert fire_ko < alone.probabilities["p_on_fire_and_knocked_out"]
    # the crew test the profile carries is the one a hit in the game takes
    profile = vehicle_profile(
        game.rules,
        game.rules.target("medium tank"),
        Situation(range_inches=0, target_pins=2, target_officer="major"),
        indirect=False,
    )
    assert profile == game.vehicle_profile_of(sherman, indirect=False)
    assert profile.crew_morale.value == 9 + 4 - 2

    monkeypatch.setattr(firing_module, "attack_vehicle", real)
    n, knocked_out, on_fire = 6000, 0, 0
    for seed in range(n):
        trial = game.clone()
        trial.dice = RandomDice(seed)
        trial.resolve_attack(trial.units[panzer.uid], trial.units[sherman.uid], planned)
        shot = next(e for e in reversed(trial.events) if e.kind == "shoot")
        knocked_out += shot.data["knocked_out"]
        on_fire += shot.data["on_fire"]
    assert bernoulli_ok(knocked_out, n, led.probabilities["p_knocked_out"])
    assert bernoulli_ok(on_fire, n, led.probabilities["p_on_fire"])


def test_vehicle_assault_odds_with_target_officer_are_the_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Infantry without anti-tank weapons assault a tank whose side's captain stands near:
    the damage the game rolls (caught as it is rolled, followed exactly) is the odds'."""
    from kriegsspiel.rulesets.bolt_action.game import close_quarters

    game = new_game("bolt-action-1")
    game.table = Table(72, 48)
    only(game, 1, 11, 19)
    squad, hq, tank = game.units[1], game.units[11], game.units[19]
    hq.models[0].officer = "Captain"
    place(tank, 36, 30, 180)
    place(squad, 36, 24)
    place(hq, 42, 36)
    tank.pins = 1
    assert game.officer_near(tank) == "Captain" and not game.has_anti_tank(squad)
    caught: list[dict[str, Any]] = []
    real = close_quarters.assault_vehicle

    def spy(dice: Any, models: int, hit_on: Any, vehicle: Any, **kw: Any) -> Any:
        caught.append(dict(models=models, hit_on=hit_on, vehicle=vehicle, **kw))
        return real(dice, models, hit_on, vehicle, **kw)

    monkeypatch.setattr(close_quarters, "assault_vehicle", spy)
    trial = game.clone()
    close_quarters._infantry_against_vehicle(trial, trial.units[squad.uid], trial.units[tank.uid])
    (played,) = caught
    games = exact(partial(real, **played))
    kw = dict(
        models=len(squad.alive_models),
        quality=squad.quality,
        target=tank.vehicle.target.name if tank.vehicle else "",
        vehicle_order="stationary",
        target_pins=1,
    )
    led = vehicle_assault_odds("bolt-action-1", target_officer="captain", **kw)  # type: ignore[arg-type]
    alone = vehicle_assault_odds("bolt-action-1", **kw)  # type: ignore[arg-type]
    key = "p_knocked_out_if_assaulting"
    assert led.probabilities[key] == games.probability(lambda v: v.knocked_out)
    assert 0 < led.probabilities[key] < alone.probabilities[key]


def test_vehicle_assault_with_target_officer_golden() -> None:
    """One man, no anti-tank weapons, at a halted armoured car: hits on 4+ (1/2), then at
    most superficial, on fire on a 6 (D6-3 = 3), the crew testing 9 - 2 pins (the hit's
    and the fire's) = 7 (fails 15 in 36), with a captain near 10 (fails on 11, 12: 3 in
    36)."""
    kw: dict[str, Any] = dict(
        models=1, quality="regular", target="armoured car", vehicle_order="stationary"
    )
    alone = vehicle_assault_odds("bolt-action-1", **kw)
    led = vehicle_assault_odds("bolt-action-1", target_officer="captain", **kw)
    key = "p_knocked_out_if_assaulting"
    assert alone.probabilities[key] == F(1, 2) * F(1, 6) * F(1, 6) * F(15, 36)
    assert led.probabilities[key] == F(1, 2) * F(1, 6) * F(1, 6) * F(3, 36) == F(1, 864)
    assert ("crew's tests", "12 or less on 2D6") in [(r.topic, r.result) for r in led.reasons]


# ------------------------------------------------------------- shown, echoed and refused
def test_the_crews_test_is_shown_and_echoed_in_json() -> None:
    args = ("odds", "shoot", "-r", "bolt-action-1", "-w", "bazooka", "-t", "medium tank")
    done = run_cli(*args, "--target-pins", "1", "--target-officer", "captain", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    crew = next(r for r in out["reasoning"] if r["topic"] == "crew's tests")
    assert crew["result"] == "11 or less on 2D6"  # 9 + 3 - 1 pin
    assert "captain +3" in crew["because"] and "1 pin -1" in crew["because"]
    assert out["p_on_fire_and_knocked_out"] == pytest.approx(1 / 108)  # 9 + 3 - 3 pins
    text = run_cli(*args, "--target-officer", "captain")
    assert text.returncode == 0 and "crew's tests" in text.stdout
    # small arms at armour bring the crew no test: his bonus changes nothing, and it says so
    idle = shoot_odds(
        "bolt-action-1",
        weapons=["rifle:10"],
        target="light tank",
        situation=Situation(range_inches=12, target_officer="major"),
    )
    said = {r.topic: r.result for r in idle.reasons}
    assert said["target officer"] == "no effect"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["odds", "shoot", "-w", "bazooka", "-t", "medium tank", "--target-officer", "general"],
            "--target-officer 'general': Unknown officer 'general'",
        ),
        (
            ["odds", "shoot", "-r", "iron-cross", "--target-officer", "major"],
            "--target-officer does not apply to iron-cross",
        ),
        (
            ["odds", "shoot", "-r", "house-clearing", "-w", "rifle", "--target-officer", "major"],
            "--target-officer does not apply to house-clearing",
        ),
        (
            ["odds", "vehicle-assault", "--target-officer", "colonel"],
            "--target-officer 'colonel': Unknown officer 'colonel'",
        ),
        (
            ["odds", "vehicle-assault", "-r", "iron-cross", "--target-officer", "major"],
            "'odds vehicle-assault' is for konflikt47, bolt-action-1",
        ),
    ],
)
def test_target_officer_refusals_are_one_paragraph_and_exit_2(
    args: list[str], message: str
) -> None:
    done = run_cli(*args)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_a_troops_flamethrower_check_takes_the_target_officer_counted_die_by_die() -> None:
    """At troops, --target-officer lends his bonus to the morale check a flamethrower's hit
    forces (as the game's check takes it: test_a_flamethrowers_morale_check_takes_the_
    officers_bonus); where no test can come of the shooting he is said to have no effect.
    Konflikt '47, one infantry flamethrower at 5" (2+ to hit: 3+ and point blank), D3+1
    pins on a regular squad with one pin already: it fails 9 + bonus - pins on 2D6."""

    def fails(value: int) -> Fraction:  # 2D6 above value; double 1 passes, double 6 fails
        rolls = [(a, b) for a, b in product(range(1, 7), repeat=2)]
        bad = [r for r in rolls if r != (1, 1) and (r == (6, 6) or sum(r) > value)]
        return Fraction(len(bad), 36)

    def destroyed(bonus: int) -> Fraction:
        pins = [1 + d3 + 1 for d3 in (1, 2, 3)]  # already there, then D3+1
        return Fraction(5, 6) * sum((fails(9 + bonus - p) for p in pins), Fraction(0)) / 3

    assert (destroyed(0), destroyed(3)) == (Fraction(385, 648), Fraction(155, 648))
    for officer, bonus in ((None, 0), ("captain", 3), ("second-lieutenant", 1)):
        report = shoot_odds(
            "konflikt47",
            weapons=["Flamethrower (infantry)"],
            target="regular infantry",
            situation=Situation(range_inches=5, target_pins=1, target_officer=officer),
        )
        assert report.probabilities["p_destroyed_by_morale"] == destroyed(bonus), officer
    rifles = shoot_odds(
        "konflikt47",
        weapons=["rifle"],
        target="regular infantry",
        situation=Situation(range_inches=12, target_officer="captain"),
    )
    (said,) = [r for r in rifles.reasons if r.topic == "target officer"]
    assert (
        said.result == "no effect" and "morale_check_odds(officer=...)" in said.because
    )  # (a Python caller's words)
