"""Konflikt '47's vehicle fire at assaulters (sheet 001): the odds of 'odds vehicle-assault
--from --vehicle-weapon' against the game playing the same assault, and the inputs it refuses."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest
from test_game_rules import squad_before_vehicle

from kriegsspiel.core.procedure import RandomDice
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.rulesets.bolt_action.odds import vehicle_assault_odds


def _assault_position() -> tuple[BoltActionGame, UnitState, UnitState]:
    """A K47 squad, worn down to 4 men, 9" in front of a vehicle that faces it, nothing
    else on the table."""
    game, squad, tank = squad_before_vehicle("konflikt47", 9.0)
    for model in squad.models[4:]:  # down to 4 of its men: any loss brings a morale check
        model.alive = False
    game.apply_action(Action("draw", side=0))
    return game, squad, tank


def _vehicle_weapons(game: BoltActionGame, tank: UnitState, squad: UnitState) -> list[str]:
    """The tank's weapons that bear on the squad, as 'odds' takes them (NAME:COUNT)."""
    shots: Counter[str] = Counter()
    for group in game.shooting_groups(tank, squad, moving=False):
        weapon = game.rules.weapon(group.shot.weapon)
        shots[weapon.name] += group.shots // int(weapon.shots)
    return [f"{name}:{count}" for name, count in shots.items()]


def test_the_odds_of_the_fire_at_assaulters_match_the_game_playing_it() -> None:
    """Monte Carlo of the game's own assault (order test, the vehicle's fire at 9", the half-
    strength check, then the survivors' attack) against the exact odds: the chance the
    assaulters are stopped before they strike, and the mean number who strike."""
    base, squad, tank = _assault_position()
    weapons = _vehicle_weapons(base, tank, squad)
    assert weapons  # the vehicle faces the squad: its guns bear
    odds = vehicle_assault_odds(
        "konflikt47",
        models=len(squad.alive_models),
        start_models=squad.start_models,
        quality=squad.quality,
        target=tank.vehicle.target.name if tank.vehicle else "",
        vehicle_order="stationary",
        anti_tank=base.has_anti_tank(squad),
        start_inches=9.0,
        vehicle_weapons=weapons,
    )
    trials, stopped, struck, strikers = 3000, 0, 0, 0
    for seed in range(trials):
        game = base.clone()
        game.dice = RandomDice(seed)
        game.apply_action(
            Action("order", unit=squad.uid, order="Run", target=tank.uid, choice="hand-to-hand")
        )
        kinds = [e.kind for e in game.events]
        if "vehicle fires at assaulters" not in kinds:
            continue  # the order test failed: no assault
        attack = next((e for e in game.events if e.kind == "assault vehicle"), None)
        if attack is None:
            stopped += 1
        else:
            struck += 1
            strikers += len(game.units[squad.uid].alive_models)
    fought = stopped + struck
    p_stopped = odds.probabilities["p_assaulters_stopped"]
    se = math.sqrt(float(p_stopped * (1 - p_stopped)) / fought)
    assert abs(stopped / fought - float(p_stopped)) < 4 * se, (stopped, fought, float(p_stopped))
    assert 0.02 < p_stopped < 0.98  # the vehicle's fire stops some assaults, not all
    left = odds.distributions["assaulters_left"]
    mean_if_striking = sum((n * p for n, p in left.items() if n), Fraction(0)) / (1 - p_stopped)
    spread = math.sqrt(float(left.variance())) / math.sqrt(struck)
    assert abs(strikers / struck - float(mean_if_striking)) < 4 * spread
    # the order test is the same one the game took
    p_pass = odds.probabilities["p_order_test"]
    se_pass = math.sqrt(float(p_pass * (1 - p_pass)) / trials)
    assert abs(fought / trials - float(p_pass)) < 4 * se_pass


def test_the_fire_lowers_the_knock_out_chance_and_is_no_fire_from_six_inches() -> None:
    kwargs = dict(models=8, quality="regular", target="medium tank", vehicle_order="stationary")
    plain = vehicle_assault_odds("konflikt47", anti_tank=True, **kwargs)  # type: ignore[arg-type]
    fired = vehicle_assault_odds(
        "konflikt47", anti_tank=True, start_inches=9, vehicle_weapons=["MMG:2"], **kwargs
    )  # type: ignore[arg-type]
    close = vehicle_assault_odds("konflikt47", anti_tank=True, start_inches=6, **kwargs)  # type: ignore[arg-type]
    ko = "p_knocked_out_if_assaulting"
    assert fired.probabilities[ko] < plain.probabilities[ko] == close.probabilities[ko]
    assert "p_assaulters_stopped" not in close.probabilities
    # in the open the MMGs stop more assaults than against men in hard cover
    covered = vehicle_assault_odds(
        "konflikt47",
        anti_tank=True,
        start_inches=9,
        vehicle_weapons=["MMG:2"],
        cover="hard",
        **kwargs,  # type: ignore[arg-type]
    )
    stop = "p_assaulters_stopped"
    assert 0 < covered.probabilities[stop] < fired.probabilities[stop]
    # a unit already down to half its starting strength tests on the first loss
    worn = vehicle_assault_odds(
        "konflikt47",
        anti_tank=True,
        start_inches=9,
        vehicle_weapons=["MMG:2"],
        start_models=16,
        **kwargs,  # type: ignore[arg-type]
    )
    assert worn.probabilities[stop] > fired.probabilities[stop]


@pytest.mark.parametrize(
    ("ruleset", "extra", "message"),
    [
        ("konflikt47", {"start_inches": 9}, "give its weapons"),
        ("konflikt47", {"vehicle_weapons": ["MMG"]}, "give start_inches"),
        ("konflikt47", {"start_inches": 5, "vehicle_weapons": ["MMG"]}, "more than 6"),
        ("konflikt47", {"start_inches": -1}, "above 0"),
        ("konflikt47", {"start_inches": math.nan}, "above 0"),
        ("konflikt47", {"cover": "soft"}, "give start_inches"),
        ("konflikt47", {"start_inches": 9, "vehicle_weapons": ["MMG"], "cover": "x"}, "^cover is"),
        ("konflikt47", {"start_inches": 9, "vehicle_weapons": ["MMG:x"]}, "in vehicle_weapons"),
        ("konflikt47", {"start_models": 4}, "^start_models "),
        ("bolt-action-1", {"start_inches": 9, "vehicle_weapons": ["MMG"]}, "a vehicle has none"),
        ("bolt-action-1", {"start_inches": 9, "cover": "hard"}, "a vehicle has none"),
        ("konflikt47", {"start_inches": 5, "cover": "hard"}, "more than 6"),
        ("konflikt47", {"start_models": 12}, "give start_inches"),
        ("konflikt47", {"start_models": -1}, "give 1 or more"),
        (
            "konflikt47",
            {"start_inches": 13, "vehicle_weapons": ["MMG"]},
            "within the assaulters' Run",
        ),
        ("konflikt47", {"vehicle_order": "ran"}, "cannot assault a vehicle that ran"),
        ("bolt-action-1", {"vehicle_order": "ran"}, "cannot assault a vehicle that ran"),
        ("konflikt47", {"quality": "elite"}, "^quality='elite': Unknown quality"),
        ("konflikt47", {"target_quality": "green"}, "^target_quality='green': Unknown quality"),
        ("konflikt47", {"officer": "general"}, "^officer='general': Unknown officer"),
        ("konflikt47", {"models": 61}, "at most 60 men"),
    ],
)
def test_vehicle_fire_inputs_are_refused_with_a_reason(
    ruleset: str, extra: dict[str, object], message: str
) -> None:
    given: dict[str, object] = dict(
        models=8, quality="regular", target="medium tank", vehicle_order="stationary"
    )
    with pytest.raises(UsageError, match=message) as refused:
        vehicle_assault_odds(ruleset, **{**given, **extra})  # type: ignore[arg-type]
    assert "--" not in str(refused.value)  # (its parameters, not the command's options)


@pytest.mark.parametrize(
    ("weapons", "models", "range_"),
    [
        (["rifle:2"], 1, 15),
        (["HMG", "Light howitzer"], 3, 15),
        (["Flamethrower (infantry)", "rifle"], 3, 5),
        (["Light mortar", "Rifle grenade"], 2, 15),
    ],
)
def test_troops_outcomes_equal_the_attack_procedure_enumerated(
    weapons: list[str], models: int, range_: float
) -> None:
    """The joint casualties, pins and forced-test result folded shot by shot are the same
    exact distribution as the simulator's attack procedure, enumerated branch by branch."""
    from functools import partial

    from kriegsspiel.core.procedure import exact
    from kriegsspiel.rulesets.bolt_action.attack import (
        TroopsContext,
        attack_troops,
        troops_outcomes,
    )
    from kriegsspiel.rulesets.bolt_action.edition import rules_for
    from kriegsspiel.rulesets.bolt_action.morale import new_test
    from kriegsspiel.rulesets.bolt_action.odds import parse_weapons
    from kriegsspiel.rulesets.bolt_action.odds.shooting import _group
    from kriegsspiel.rulesets.bolt_action.shot import Situation

    rules = rules_for("konflikt47")
    target = rules.target("regular infantry")
    situation = Situation(range_inches=range_, target_models=models, target_pins=1)
    groups = [
        _group(rules, weapon, count, target, situation)[0]
        for weapon, count in parse_weapons(rules, weapons)
    ]
    ctx = TroopsContext(models=models, morale=new_test(rules, "regular", pins=1), pins_per_attack=1)
    enumerated = exact(partial(attack_troops, groups=groups, ctx=ctx)).map(
        lambda o: (o.casualties, o.pins, o.destroyed_by_morale)
    )
    assert troops_outcomes(groups, ctx) == enumerated


def test_bolt_action_from_is_said_to_change_nothing_not_ignored() -> None:
    """``--from`` asks only where a vehicle's fire at its assaulters begins; Bolt Action 1st
    edition's vehicles have none, so its odds are those without it, and the reasons say
    that it changes nothing (as of any input without effect), not silently the same."""
    given: dict[str, object] = dict(
        models=8, quality="regular", target="medium tank", vehicle_order="stationary"
    )
    plain = vehicle_assault_odds("bolt-action-1", **given)  # type: ignore[arg-type]
    far = vehicle_assault_odds("bolt-action-1", start_inches=10, **given)  # type: ignore[arg-type]
    assert far.probabilities == plain.probabilities
    said = [(r.result, r.because) for r in far.reasons if r.topic == "vehicle's fire"]
    assert said == [
        (
            "no effect",
            "in Bolt Action (1st edition) a vehicle does not fire at its assaulters: "
            "start_inches changes nothing",
        )
    ]
    assert not [r for r in plain.reasons if r.topic == "vehicle's fire"]
