"""Every rule the odds apply is a row of their reasoning: an automaton's saving roll, the
crew's test a fire brings, the pins small arms bring (or not) to armour, the modifiers of
point-blank fire in close quarters; and a refusal names what was given, as it was given."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest
from conftest import run_cli

from kriegsspiel.core.report import OddsReport
from kriegsspiel.errors import ParameterError
from kriegsspiel.rulesets.bolt_action.odds import assault_odds, shoot_odds, vehicle_assault_odds
from kriegsspiel.rulesets.bolt_action.shot import Situation
from kriegsspiel.rulesets.house_clearing import odds as hc_odds
from kriegsspiel.rulesets.iron_cross import odds as ic_odds


def _row(report: OddsReport, topic: str) -> tuple[str, str] | None:
    """The (result, because) of the reasoning's row ``topic`` (indent ignored), or None."""
    return next(((r.result, r.because) for r in report.reasons if r.topic.strip() == topic), None)


def _shoot(weapon: str, target: str, ruleset: str = "konflikt47", **s: object) -> OddsReport:
    situation = Situation(**{"range_inches": 10, **s})  # type: ignore[arg-type]
    return shoot_odds(ruleset, weapons=[weapon], target=target, situation=situation)


def _assault_a_walker(automaton: bool) -> OddsReport:
    return vehicle_assault_odds(
        "konflikt47",
        models=6,
        quality="regular",
        target="heavy walker",
        vehicle_order="stationary",
        anti_tank=True,
        automaton=automaton,
    )


def test_an_automaton_says_it_ignores_crew_stunned_on_four_plus() -> None:
    """Sheet 001: an automaton ignores Crew stunned on a 4+. It halves that result's chance
    (1/12 to 1/24, by hand), and the reasoning names the rule with its sheet."""
    plain = _shoot("Heavy AT gun", "heavy walker", range_inches=40, facing="rear")
    machine = _shoot("Heavy AT gun", "heavy walker", range_inches=40, facing="rear", automaton=True)
    assert plain.probabilities["p_crew_stunned"] == F(1, 12)
    assert machine.probabilities["p_crew_stunned"] == F(1, 24)
    assert _row(plain, "automaton") is None
    assert _row(machine, "automaton") == (
        "ignores Crew stunned on 4+",
        "a D6 for each Crew stunned result: on 4+ the automaton ignores it and its pin (sheet 001)",
    )
    # infantry assaulting it: the same rule, the same row
    assaulted = _assault_a_walker(automaton=True)
    assert assaulted.probabilities["p_knocked_out"] == F(105145, 1990656)
    assert _assault_a_walker(automaton=False).probabilities["p_knocked_out"] == F(105157, 1990656)
    assert _row(assaulted, "automaton") == _row(machine, "automaton")
    # an attack that cannot bring the result: said to change nothing
    rifles = _shoot("rifle", "heavy walker", automaton=True)
    assert _row(rifles, "automaton") == (
        "no effect",
        "it ignores Crew stunned on 4+ (sheet 001), and this attack cannot bring that result",
    )


def test_a_vehicle_crews_test_is_shown_with_its_quality_and_pins() -> None:
    """The On fire check is the crew's morale check (sheets 001, 002): an inexperienced
    crew (8) with 3 pins knocks out 36839/139968 (by hand), the regular crew 10693/46656,
    and the reasoning shows the test each time, without an officer being given."""
    shaken = _shoot("Heavy AT gun", "medium tank", target_quality="inexperienced", target_pins=3)
    assert shaken.probabilities["p_knocked_out"] == F(36839, 139968)
    result, because = _row(shaken, "crew's tests") or ("", "")
    assert result == "5 or less on 2D6"
    assert because.startswith("on fire (sheet 001): inexperienced morale 8, 3 pins -3, and -1 ")
    plain = _shoot("Heavy AT gun", "medium tank")
    assert plain.probabilities["p_knocked_out"] == F(10693, 46656)
    assert (_row(plain, "crew's tests") or ("",))[0] == "9 or less on 2D6"
    bolt = _shoot("medium AT gun", "medium tank", "bolt-action-1", target_pins=1)
    assert (_row(bolt, "crew's tests") or ("", ""))[1].startswith("on fire (sheet 002): ")
    assaulted = vehicle_assault_odds(
        "konflikt47",
        models=6,
        quality="regular",
        target="medium tank",
        vehicle_order="stationary",
        anti_tank=True,
        target_quality="veteran",
    )
    assert (_row(assaulted, "crew's tests") or ("",))[0] == "10 or less on 2D6"


def test_a_crew_the_attack_cannot_test_is_said_to_take_no_test() -> None:
    """Rifles cannot set a tank on fire: the crew's quality and pins given enter no test
    (and nothing is said of a crew given as it is by default)."""
    rifles = _shoot("rifle:10", "light tank", target_quality="veteran", target_pins=2)
    assert _row(rifles, "crew's tests") == (
        "none",
        "the attack cannot set the vehicle on fire: the crew's veteran quality and 2 pins "
        "enter no test",
    )
    assert _row(_shoot("rifle:10", "light tank"), "crew's tests") is None


def test_small_arms_at_armour_say_why_they_pin_it_or_not() -> None:
    """Small arms pin an armoured vehicle only if it is open-topped (docs/rules "Small arms
    against armour"): the pins table shows it, and the reasoning says why."""
    closed = _shoot("rifle:10", "light tank")
    opened = _shoot("rifle:10", "light tank", open_topped=True)
    assert closed.distributions["pins"].probability(0) == 1
    assert opened.distributions["pins"].probability(1) == F(59048, 59049)
    assert _row(closed, "pins") == (
        "none",
        "small arms pin an armoured vehicle only if it is open-topped",
    )
    assert _row(opened, "pins") == (
        "1 if hit",
        "open-topped: small arms pin it (one pin for the attack), though they cannot damage it",
    )


def test_point_blank_fire_in_close_quarters_names_its_modifiers() -> None:
    """Konflikt '47's point-blank fire hits as a shot at point blank does, with the firers'
    pins and Inexperienced; the reasoning breaks the score and the morale down as a
    shooting's does (the odds 1/6, 5/8, 5/24 by hand)."""
    r = assault_odds(
        "konflikt47",
        attackers=1,
        attacker_quality="inexperienced",
        defenders=1,
        defender_quality="regular",
        attacker_mode="point-blank",
        defender_mode="point-blank",
        attacker_pins=1,
    )
    assert (
        r.probabilities["p_attacker_wins"],
        r.probabilities["p_defender_wins"],
        r.probabilities["p_both_destroyed"],
    ) == (F(1, 6), F(5, 8), F(5, 24))
    assert (_row(r, "attackers") or ("", ""))[1] == (
        "point-blank fire hits on 4+ (base 3+, point blank +1, 1 pin -1, inexperienced -1), "
        "damage on 4+; morale 7 (inexperienced morale 8, 1 pin -1)"
    )
    assert (_row(r, "defenders") or ("", ""))[1] == (
        "point-blank fire hits on 2+ (base 3+, point blank +1), damage on 3+; morale 9"
    )


def _refusal(**situation: object) -> str:
    with pytest.raises(ParameterError) as err:
        _shoot("rifle:8", "regular infantry", **situation)
    return str(err.value)


def test_vehicle_options_at_troops_name_only_those_given() -> None:
    """A vehicle's options at a troops target are refused, naming the ones given: to a
    Python caller as its parameters, on the command line as its options."""
    assert _refusal(facing="side") == (
        "situation.facing='side' describes a vehicle; regular infantry is not one."
    )
    assert _refusal(automaton=True, target_immobilised=True) == (
        "situation.automaton=True and situation.target_immobilised=True describe vehicles; "
        "regular infantry is not one."
    )
    cli = run_cli("odds", "shoot", "-w", "rifle", "--range", "10", "--facing", "side")
    assert cli.returncode == 2
    assert "--facing side describes a vehicle; regular infantry is not one." in cli.stderr
    cli = run_cli("odds", "shoot", "-w", "rifle", "--range", "10", "--open-topped", "--automaton")
    assert cli.returncode == 2
    assert "--open-topped and --automaton describe vehicles;" in cli.stderr
    assert "--facing" not in cli.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["-w", "rifle", "--range", "-3"], "--range must be a distance of 0 or more inches, not -3."),
        (["-r", "bolt-action-1", "-w", "rifle", "--range", "-0.5"], "not -0.5."),
        (["-r", "iron-cross", "--range", "-1"], "--range must be a distance of 0 or more inches, not -1."),
        (["-r", "house-clearing", "-w", "rifle", "--range", "-2.5", "--weapon-skill", "120",
          "--visible", "5"], "--range must be a distance of 0 or more inches, not -2.5."),
    ],
)  # fmt: skip
def test_a_range_is_refused_echoing_the_number_as_given(args: list[str], said: str) -> None:
    """Every ruleset refuses a negative range in the same words, the number as it was typed
    (-3, not -3.0) and with its full stop."""
    cli = run_cli("odds", "shoot", *args)
    assert cli.returncode == 2 and "Traceback" not in cli.stderr
    assert cli.stderr.strip().endswith(said)


def test_a_python_caller_is_told_the_range_it_gave() -> None:
    """From Python, the number as given too: -3 (an int) as -3, NaN as nan."""
    calls = [
        lambda: _shoot("rifle", "regular infantry", range_inches=-3),
        lambda: ic_odds.shoot(target="infantry", range_inches=-3),
        lambda: hc_odds.shoot(weapon="rifle", range_inches=-3, weapon_skill=120, visible=5),
    ]
    for call in calls:
        with pytest.raises(ParameterError) as err:
            call()
        assert str(err.value).endswith("must be a distance of 0 or more inches, not -3.")
    with pytest.raises(ParameterError) as err:
        ic_odds.shoot(target="infantry", range_inches=float("nan"))
    assert str(err.value).endswith("not nan.")


def test_the_json_reasoning_carries_the_rows() -> None:
    """The command line's --json gives the same rows (here the automaton's)."""
    cli = run_cli(
        "odds", "shoot", "-w", "Heavy AT gun", "-t", "heavy walker", "--range", "40",
        "--facing", "rear", "--automaton", "--json",
    )  # fmt: skip
    assert cli.returncode == 0, cli.stderr
    rows = {r["topic"].strip(): r["result"] for r in json.loads(cli.stdout)["reasoning"]}
    assert rows["automaton"] == "ignores Crew stunned on 4+"
    assert rows["crew's tests"] == "9 or less on 2D6"


def test_a_lone_crew_is_asked_by_its_own_option_and_only_of_team_weapons() -> None:
    """Record format 6 made a team weapon's lone crew its own -1 (``one_crew``), so the
    odds ask it as such: an MMG with 1 pin and one crew left needs 5+, named each way."""
    done = run_cli("odds", "shoot", "-w", "MMG", "--range", "10", "--pins", "1", "--one-crew",
                   "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    to_hit = next(r for r in json.loads(done.stdout)["reasoning"] if r["topic"].strip() == "to hit")
    assert (to_hit["result"], to_hit["because"]) == ("5+", "base 3+, 1 pin -1, one crew left -1")
    refused = run_cli("odds", "shoot", "-w", "rifle", "--range", "10", "--one-crew")
    assert (
        refused.returncode == 2 and "--one-crew: a lone crew is a team weapon's" in refused.stderr
    )
    with pytest.raises(ParameterError, match=r"situation.one_crew=True: a lone crew"):
        shoot_odds("konflikt47", weapons=["rifle"], target="regular infantry",
                   situation=Situation(range_inches=10, one_crew=True))  # fmt: skip
