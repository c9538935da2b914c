"""Every rule the odds apply is a row of their reasoning: an automaton's saving roll, the
crew's test a fire brings, the pins small arms bring (or not) to armour, the modifiers of
point-blank fire in close quarters; and a refusal names what was given, as it was given."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from conftest import run_cli

from kriegsspiel.core.report import OddsReport
from kriegsspiel.errors import ParameterError
from kriegsspiel.rulesets.bolt_action.odds import assault_odds, shoot_odds
from kriegsspiel.rulesets.bolt_action.shooting import Situation
from kriegsspiel.rulesets.house_clearing import odds as hc_odds
from kriegsspiel.rulesets.iron_cross import odds as ic_odds


def _row(report: OddsReport, topic: str) -> tuple[str, str] | None:
    """The (result, because) of the reasoning's row ``topic`` (indent ignored), or None."""
    return next(((r.result, r.because) for r in report.reasons if r.topic.strip() == topic), None)


def _shoot(weapon: str, target: str, ruleset: str = "konflikt47", **s: object) -> OddsReport:
    situation = Situation(**{"range_inches": 10, **s})  # type: ignore[arg-type]
    return shoot_odds(ruleset, weapons=[weapon], target=target, situation=situation)


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
