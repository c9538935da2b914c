"""How ``kriegsspiel odds`` shows what it found: a tiny chance is not printed as none, a
test is told once, the to-hit modifiers come in the data's order, and every refusal is a
sentence naming its option."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from fractions import Fraction as F
from pathlib import Path

import pytest
from conftest import copy_of, run_cli

from kriegsspiel.cli import main
from kriegsspiel.core.per_cent import chance_shown
from kriegsspiel.core.report import OddsReport
from kriegsspiel.render.game_account import needing
from kriegsspiel.rulesets.bolt_action.edition import Rules, rules_for
from kriegsspiel.rulesets.bolt_action.odds import shoot_odds
from kriegsspiel.rulesets.bolt_action.shooting import plan_shot
from kriegsspiel.rulesets.bolt_action.shot import Situation
from kriegsspiel.rulesets.bolt_action.to_hit import hit_words

# an infantry flamethrower at a medium tank: its D3+1 pins and the damage's can take the
# crew to their morale value only in a few of millions of attacks
FLAMED_TANK = ("--weapon", "flamethrower (infantry)", "--target", "medium tank", "--range", "5")


def _flamed_tank(situation: Situation) -> OddsReport:
    weapons = ["flamethrower (infantry)"]
    return shoot_odds("konflikt47", weapons=weapons, target="medium tank", situation=situation)


def test_a_tiny_chance_in_the_reasoning_is_not_shown_as_none() -> None:
    """Probe: the reasoning said "0.0% removed" of a chance of 3 in 10^7, which a player
    reads as impossible; it is told as the chances table tells it, and --json keeps it
    exact."""
    r = _flamed_tank(Situation(range_inches=5))
    removed = r.probabilities["p_removed_by_pins"]
    assert 0 < removed < F(1, 10**5)
    row = next(x for x in r.reasons if x.topic == "target pins")
    assert row.result == f"{chance_shown(removed)} removed" == "<0.001% removed"
    text = run_cli("odds", "shoot", *FLAMED_TANK)
    assert text.returncode == 0, text.stderr
    assert "<0.001% removed" in text.stdout and "0.0% removed" not in text.stdout
    out = json.loads(run_cli("odds", "shoot", *FLAMED_TANK, "--json").stdout)
    assert F(out["exact"]["p_removed_by_pins"]) == removed
    assert out["p_removed_by_pins"] == float(removed) > 0
    told = {row["topic"]: row["result"] for row in out["reasoning"]}
    assert told["target pins"] == "<0.001% removed"


def test_a_flamethrower_at_a_vehicle_tells_its_crews_test_once() -> None:
    """Probe: the morale check row after a flamethrower's hit repeated the crew's test that
    the crew's tests row tells (morale, officer, pins already there), in other words ("2
    pins already there -2" beside "2 pins -2"); the test is told in one row, and the
    morale check says what this check adds: the hit's pins, its chance of a knock-out."""
    s = Situation(range_inches=5, target_quality="veteran", target_pins=2)
    r = _flamed_tank(replace(s, target_officer="captain"))
    rows = [(x.topic, x.result, x.because) for x in r.reasons]
    topics = [topic for topic, _, _ in rows]
    assert topics.index("crew's tests") < topics.index("morale check")
    told = [because for _, _, because in rows if "veteran morale 10" in because]
    assert len(told) == 1 and "captain +3, 2 pins -2" in told[0]
    check = next(because for topic, _, because in rows if topic == "morale check")
    assert "captain" not in check and "pins already there" not in check
    assert "crew's tests" in check and "(D3+1)" in check


# the firer's pins and long range, the rows the probe found told in two orders
PINS = "    - {key: per_pin, label: Per pin marker on the firer, short: pins, value: -1}\n"
LONG = "    - {key: long_range, label: Long range, short: long range, value: -1}\n"


def _to_hit_orders(rules: Rules, s: Situation) -> tuple[list[str], list[str]]:
    """The to-hit modifiers' words in the order the odds' reasoning tells them and in the
    order a game's account tells them, given the same shot."""
    weapon, target = rules.weapon("LMG"), rules.target("regular infantry")
    shot, reasons = plan_shot(rules, weapon, target, s)
    because = next(r.because for r in reasons if r.topic == "to hit")
    odds = [part.rsplit(" ", 1)[0] for part in because.split(", ")[1:]]
    part = {"needs": shot.hit_on[-1] if shot.hit_on else 7, "modifiers": dict(shot.hit_modifiers)}
    told = needing(part, hit_words(rules))
    account = [m.rsplit(" ", 1)[0] for m in told[told.index("(") + 1 : -1].split(", ")]
    return odds, account


def test_the_to_hit_modifiers_come_in_the_datas_order_in_odds_and_account(
    tmp_path: Path,
) -> None:
    """Probe: the odds told long range before the firer's pins, where a game's account
    follows the data's hit modifiers table (pins first); both follow the data, and a
    rules file that lists the rows in another order has them told in its order."""
    s = Situation(
        range_inches=20, firer_pins=2, one_crew=True, firer_inexperienced=True, cover="soft"
    )
    odds, account = _to_hit_orders(rules_for("konflikt47"), s)
    assert odds == [
        "2 pins",
        'long range (over 15")',
        "inexperienced",
        "soft cover",
        "one crew left",
    ]
    assert account == ["pins", "long range", "inexperienced", "soft cover", "one crew left"]
    path = copy_of(tmp_path, "konflikt47", (PINS + LONG, LONG + PINS))
    odds, account = _to_hit_orders(rules_for("konflikt47", path), s)
    assert odds[:2] == ['long range (over 15")', "2 pins"]
    assert account[:2] == ["long range", "pins"]


HC = ("shoot", "-r", "house-clearing", "--range", "5", "--weapon-skill", "120", "--visible", "3")
IC = ("shoot", "-r", "iron-cross", "--range", "20")
# (the arguments, the option the refusal must name), across the four rulesets: bad
# combinations of options, values out of range, options of another ruleset
REFUSALS = [
    (("shoot", "-w", "rifle:5", "--range", "-3"), "--range"),
    (("shoot", "-w", "rifle:5", "--small-unit", "--target-models", "3"), "--small-unit"),
    (("shoot", "-w", "rifle:5", "--mortar"), "--mortar"),
    (("vehicle-assault", "--from", "13"), "--from"),
    (("order-test", "-r", "bolt-action-1", "--quality", "inexperienced", "--pins", "8"), "--pins"),
    (("vehicle-assault", "-r", "bolt-action-1", "--automaton"), "--automaton"),
    (("morale", "-r", "bolt-action-1", "--pins", "-1"), "--pins"),
    ((*IC, "--mortar", "--machine-gun"), "--machine-gun"),
    ((*IC, "--screened"), "--screened"),
    ((*IC, "--firer-vehicle", "--infantry-detachment"), "--infantry-detachment"),
    ((*IC, "-t", "medium tank"), "--penetration"),
    ((*IC, "-t", "vehicle", "--penetration", "5", "--armour", "3", "--cover", "cover"), "--cover"),
    ((*IC, "--penetration", "3", "--armour", "2"), "--armour"),
    ((*IC, "--dice", "0"), "--dice"),
    ((*IC, "--morale-markers", "-1"), "--morale-markers"),
    ((*IC, "--weapon", "rifle"), "--weapon"),
    (("activation", "--first", "--command-tokens", "2"), "--command-tokens"),
    (("activation", "--command-tokens", "0"), "--command-tokens"),
    (("reaction", "--morale-markers", "-1"), "--morale-markers"),
    (("close-combat", "--attacker", "tank"), "--attacker"),
    (("close-combat", "--defender-markers", "-2"), "--defender-markers"),
    ((*HC, "-w", "smg", "--range", "11"), "--range"),
    ((*HC, "-w", "rifle", "--weapon-skill", "35"), "--weapon-skill"),
    ((*HC, "-w", "rifle", "--visible", "9"), "--visible"),
    ((*HC, "-w", "rifle", "--auto"), "--auto"),
    ((*HC, "-w", "smg", "--crew", "1"), "--crew"),
    ((*HC, "-w", "grenade", "--auto"), "--auto"),
    ((*HC, "-w", "grenade", "--crew", "2"), "--crew"),
    ((*HC, "-w", "rifle", "--target-initiative", "9"), "--target-initiative"),
    ((*HC, "-w", "rifle", "--pins", "2"), "--pins"),
]


def test_every_ruleset_refuses_in_a_sentence_naming_the_option(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Probe: most Iron Cross and House Clearing refusals ended without a full stop (Bolt
    Action's had one), and a rifle on --auto was refused without naming --auto. Each is
    one line, a sentence, names the option at fault, and exits with status 2 (run here,
    as the entry point runs: its own process's are test_odds_parameter_words')."""
    wrong = []
    for args, option in REFUSALS:
        monkeypatch.setattr(sys, "argv", ["kriegsspiel", "odds", *args])
        with pytest.raises(SystemExit) as exited:
            main()
        out, err = capsys.readouterr()
        said = err.removeprefix("kriegsspiel: error: ").removesuffix("\n")
        if not (
            exited.value.code == 2
            and out == ""
            and err == f"kriegsspiel: error: {said}\n"
            and "\n" not in said
            and said.endswith(".")
            and option in said
        ):
            wrong.append((" ".join(args), exited.value.code, err))
    assert not wrong, "\n".join(map(str, wrong))
