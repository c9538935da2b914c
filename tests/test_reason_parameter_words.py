"""A reason (not only a refusal) that points the caller to a parameter is told in the
caller's words: a Python caller reads the parameter it would give (``command_tokens``),
the command line the option (``--command-tokens``), the play aid the page's field; each
written once, with :func:`~kriegsspiel.errors.named`, and told as a refusal is."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

import pytest
from conftest import run_cli
from test_aid import new_tracker
from test_aid_odds import uid

from kriegsspiel.aid.questions import AssaultAsked, assault
from kriegsspiel.core.report import OddsReport, Reason
from kriegsspiel.errors import named
from kriegsspiel.rulesets.bolt_action import odds as ba_odds
from kriegsspiel.rulesets.bolt_action.shot import Situation
from kriegsspiel.rulesets.house_clearing import odds as hc_odds
from kriegsspiel.rulesets.iron_cross import odds as ic_odds

AT_A_TANK = {"models": 8, "quality": "regular", "target": "medium tank",
             "vehicle_order": "stationary"}  # fmt: skip

# (the Python call, the reason's topic, its words; the same question on the command line,
# the reason's words there)
SAME_REASON: list[tuple[Callable[[], OddsReport], str, str, list[str], str]] = [
    (
        lambda: ic_odds.activation(1),
        "activation",
        "the command token is the one the first activation left (assumption: "
        "command_tokens not given)",
        ["activation", "-r", "iron-cross", "--morale-markers", "1"],
        "the command token is the one the first activation left (assumption: "
        "--command-tokens not given)",
    ),
    (
        lambda: hc_odds.shoot(weapon="grenade", range_inches=5, weapon_skill=50, visible=3),
        "burst",
        "every figure within it is hit alike, each rolling for itself: ask again with its "
        "visible=N (assumption)",
        ["shoot", "-r", "house-clearing", "--weapon", "grenade", "--range", "5",
         "--weapon-skill", "50", "--visible", "3"],
        "every figure within it is hit alike, each rolling for itself: ask again with its "
        "--visible (assumption)",
    ),
    (
        lambda: ba_odds.vehicle_assault_odds("konflikt47", **AT_A_TANK),
        "vehicle's fire",
        'the vehicle fires first at assaulters that begin more than 6" away: give '
        "start_inches and vehicle_weapons",
        ["vehicle-assault", "-r", "konflikt47", "--models", "8", "--target", "medium tank"],
        'the vehicle fires first at assaulters that begin more than 6" away: give --from '
        "and --vehicle-weapon",
    ),
    (
        lambda: ba_odds.vehicle_assault_odds("bolt-action-1", **AT_A_TANK, start_inches=10),
        "vehicle's fire",
        "in Bolt Action (1st edition) a vehicle does not fire at its assaulters: "
        "start_inches changes nothing",
        ["vehicle-assault", "-r", "bolt-action-1", "--models", "8", "--target", "medium tank",
         "--from", "10"],
        "in Bolt Action (1st edition) a vehicle does not fire at its assaulters: --from "
        "changes nothing",
    ),
    (
        lambda: ba_odds.shoot_odds(
            "konflikt47", weapons=["rifle:5"], target="regular infantry",
            situation=Situation(12, target_officer="captain"),
        ),
        "target officer",
        "only a flamethrower's hit brings troops a morale check in a shooting (the check at "
        "half strength: morale_check_odds(officer=...))",
        ["shoot", "-r", "konflikt47", "--weapon", "rifle:5", "--target-officer", "captain"],
        "only a flamethrower's hit brings troops a morale check in a shooting (the check at "
        "half strength: odds morale --officer)",
    ),
]  # fmt: skip
IDS = [" ".join(args[:3]) for _, _, _, args, _ in SAME_REASON]


def _because(reasons: list[dict[str, str]] | tuple[Reason, ...], topic: str) -> str:
    found = [r["because"] if isinstance(r, dict) else r.because for r in reasons
             if (r["topic"] if isinstance(r, dict) else r.topic) == topic]  # fmt: skip
    assert len(found) == 1, reasons
    return found[0]


@pytest.mark.parametrize(("call", "topic", "python", "args", "option"), SAME_REASON, ids=IDS)
def test_a_python_caller_reads_its_parameter_in_the_reasons(
    call: Callable[[], OddsReport], topic: str, python: str, args: list[str], option: str
) -> None:
    report = call()
    assert _because(report.reasons, topic).endswith(python)
    assert _because(report.to_json()["reasoning"], topic).endswith(python)
    assert not any("--" in r.because for r in report.reasons)


@pytest.mark.parametrize(("call", "topic", "python", "args", "option"), SAME_REASON, ids=IDS)
def test_the_command_line_reads_its_option_in_the_reasons(
    call: Callable[[], OddsReport], topic: str, python: str, args: list[str], option: str
) -> None:
    done = run_cli("odds", *args, "--json")
    assert done.returncode == 0, done.stderr
    assert _because(json.loads(done.stdout)["reasoning"], topic).endswith(option)


def test_a_reason_is_told_each_way_and_keeps_its_words_when_indented() -> None:
    reason = Reason("range", "far", f"give {named('start_inches')} and {named('cover', 'soft')}")
    assert reason.because == "give start_inches and cover='soft'"
    assert reason.told_as({"start_inches": "--from", "cover": "--cover"}).because == (
        "give --from and --cover 'soft'"
    )
    indented = replace(reason, topic="  range")  # (as a step is put under its side)
    assert indented.told_as({"start_inches": "--from"}).because == "give --from and cover='soft'"
    assert reason == Reason("range", "far", "give start_inches and cover='soft'")
    plain = Reason("range", "far", "no parameter here")
    assert plain.told_as({"start_inches": "--from"}) is plain


def test_the_play_aid_reads_its_fields_in_the_reasons() -> None:
    """The aid asks the calculator as a Python caller does, and tells its reasons by the
    page's fields: never a parameter's Python name, nor an option."""
    t = new_tracker("konflikt47")
    squad, panzer = uid(t, 1, "1st Rifle Squad"), uid(t, 0, "Panzer IV Ausf. H")
    reasons = assault(t, AssaultAsked(squad, panzer))["report"]["reasoning"]
    fire = _because(reasons, "vehicle's fire")
    assert fire.endswith(
        "give From, the inches the assault begins at (the vehicle fires every mount)"
    )
    assert not any("--" in r["because"] or "start_inches" in r["because"] for r in reasons)
