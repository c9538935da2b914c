"""The odds' reasoning says every rule it applies, as a player reads the sheet: a
modifier the sheet prints that does not apply here is said not to, and why."""

from __future__ import annotations

import re
import shlex
from fractions import Fraction as F

import pytest

from kriegsspiel.core.report import OddsReport
from kriegsspiel.rulesets.bolt_action.odds import shoot_odds
from kriegsspiel.rulesets.bolt_action.shot import Situation

EDITIONS = ["konflikt47", "bolt-action-1"]


def _why(report: OddsReport, topic: str) -> str:
    """The result and because of the reasoning's row ``topic`` (indent ignored), or ""."""
    return next(
        (f"{r.result}: {r.because}" for r in report.reasons if r.topic.strip() == topic), ""
    )


def _shoot(
    weapon: str, target: str, ruleset: str = "konflikt47", **situation: object
) -> OddsReport:
    s = Situation(**{"range_inches": 10, **situation})  # type: ignore[arg-type]
    return shoot_odds(ruleset, weapons=[weapon], target=target, situation=s)


def test_a_walker_hit_in_the_rear_or_side_is_said_to_have_no_weaker_side() -> None:
    """Sheet 001: the side, top and rear bonuses are "(not walkers)"; --facing rear at a
    walker is taken, and the reasoning says why it adds nothing."""
    rear = _shoot("bazooka", "medium walker", facing="rear")
    assert rear.probabilities == _shoot("bazooka", "medium walker").probabilities
    assert "rear armour: no +2 against a walker (sheet: 'not walkers')" in _why(rear, "to damage")
    side = _shoot("bazooka", "medium walker", facing="side")
    assert "side armour: no +1 against a walker" in _why(side, "to damage")
    tank = _shoot("bazooka", "medium tank", facing="rear")
    assert "rear armour +2" in _why(tank, "to damage") and "walker" not in _why(tank, "to damage")


def test_indirect_fire_on_a_walker_says_it_gets_no_top_armour_bonus() -> None:
    """A mortar strikes the top: +1 on a tank, none on a walker; and a facing given with
    indirect fire is said to be replaced by the top."""
    walker = _shoot("medium mortar", "medium walker", range_inches=30, facing="side")
    said = _why(walker, "to damage")
    assert "D6 +2 against 8+" in said
    assert "top armour (indirect fire strikes it, not the side): no +1 against a walker" in said
    tank = _shoot("medium mortar", "medium tank", range_inches=30)
    assert "top armour (indirect fire strikes it) +1" in _why(tank, "to damage")
    flamed = _shoot("flamethrower (infantry)", "medium walker", range_inches=5)
    assert "top armour (a flamethrower strikes it): no +1 against a walker" in _why(
        flamed, "to damage"
    )


@pytest.mark.parametrize("ruleset", EDITIONS)
@pytest.mark.parametrize(
    ("weapon", "rng", "why"),
    [
        ("panzerschreck", 20, "shaped charge"),
        ("medium howitzer", 40, "HE"),
        ("vehicle flamethrower", 10, "flamethrower"),
    ],
)
def test_a_weapon_that_keeps_its_pen_at_long_range_says_so(
    ruleset: str, weapon: str, rng: float, why: str
) -> None:
    """The sheet's "Long range -1" pen does not vanish from the reasoning: it is said to
    have no effect, and on what; the pen is the weapon's own."""
    far = _shoot(weapon, "heavy tank", ruleset, range_inches=rng)
    assert f"long range: no effect on pen ({why})" in _why(far, "to damage")
    gun = _shoot("medium AT gun", "heavy tank", ruleset, range_inches=40)
    assert "long range -1" in _why(gun, "to damage")
    assert "D6 +4 against 10+" in _why(gun, "to damage")  # pen +5, long range -1


def test_the_tesla_keeps_its_pen_at_long_range_and_says_so() -> None:
    far = _shoot("tesla", "medium tank", range_inches=30)
    assert "D6 +7 against 9+" in _why(far, "to damage")
    assert "long range: no effect on pen (Tesla)" in _why(far, "to damage")


def test_at_point_blank_nothing_is_said_of_long_range() -> None:
    """An infantry flamethrower at 5" of 6" is at point blank only (the to-hit says "not
    long range"); the pen row does not speak of long range either."""
    close = _shoot("flamethrower (infantry)", "medium tank", range_inches=5)
    assert "long range" not in _why(close, "to damage")
    assert "D6 +3 against 9+" in _why(close, "to damage")  # pen +2, top +1


def test_a_soft_skin_takes_no_facing_or_long_range_modifier_and_says_so() -> None:
    hit = _shoot("medium AT gun", "soft-skinned vehicle", range_inches=40, facing="rear")
    assert "rear and long range: no effect on a soft-skin" in _why(hit, "to damage")
    assert "D6 +5 against 6+" in _why(hit, "to damage")


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_he_at_a_soft_skin_shows_its_hits_per_hit(ruleset: str) -> None:
    """Sheets 001/002: only an armoured vehicle is "not rolled for multiple hits", so HE
    at a soft-skin makes its HE dice in hits, each with its damage roll: the reasoning
    has the row, as at troops, and the number is the one it explains."""
    r = _shoot("medium mortar", "soft-skinned vehicle", ruleset, range_inches=30, ranged_in=True)
    assert _why(r, "hits").startswith("D6 per hit: HE (D6) at a soft-skin")
    # 2+ to hit, then D6 hits each destroying it on 4+ (D6 + 2 against 6+)
    survives = sum(F(1, 6) * F(1, 2) ** n for n in range(1, 7))  # each of n hits fails
    assert r.probabilities["p_knocked_out"] == F(5, 6) * (1 - survives) == F(535, 768)
    armour = _shoot("medium mortar", "medium tank", ruleset, range_inches=30, ranged_in=True)
    assert _why(armour, "hits") == ""  # one hit at the HE table's pen


def test_a_soft_skin_shows_no_meaningless_damage_levels() -> None:
    """Any damage destroys a soft-skin: no worst-damage levels, no zero damage results;
    per hit, the chance to destroy it."""
    r = _shoot("tesla", "soft-skinned vehicle", range_inches=20)
    assert "worst_damage" not in r.details and "damage_results" not in r.details
    assert r.details["damage_per_hit"] == {"none": 0.0, "destroyed": 1.0}
    assert "p_crew_stunned" not in r.probabilities
    assert "superficial, full or massive alike" in _why(r, "damage")
    tank = _shoot("tesla", "medium tank", range_inches=20)
    assert set(tank.details["worst_damage"]) == {"none", "superficial", "full", "massive"}
    assert "p_crew_stunned" in tank.probabilities


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_flamethrower_at_a_vehicle_shows_its_crews_check(ruleset: str) -> None:
    """The crew's check after a flamethrower's hit has its row, as troops' check has, with
    the share of the knock-outs it brings: one shot's check comes after its damage, so it
    is the knock-out chance less that of the same shot without the check."""
    from dataclasses import replace

    from kriegsspiel.rulesets.bolt_action.attack import exact_vehicle
    from kriegsspiel.rulesets.bolt_action.edition import rules_for
    from kriegsspiel.rulesets.bolt_action.shooting import plan_shot
    from kriegsspiel.rulesets.bolt_action.shot import Group

    s = Situation(range_inches=12, target_quality="veteran")
    r = shoot_odds(ruleset, weapons=["vehicle flamethrower"], target="medium tank", situation=s)
    rules = rules_for(ruleset)
    shot = plan_shot(rules, rules.weapon("vehicle flamethrower"), rules.target("medium tank"), s)[0]
    unchecked = exact_vehicle([Group(replace(shot, morale_check=False), 1)])
    by_check = r.probabilities["p_knocked_out"] - unchecked.probability(lambda v: v.knocked_out)
    assert by_check > F(1, 10)  # (a large share: 15.0% of 41.4%)
    said = _why(r, "morale check")
    assert said.startswith(f"{float(by_check):.1%} knocked out: the crew's test")
    assert "with its pins (D3+1) and its damage's taken first" in said
    assert "veteran morale 10" in _why(r, "crew's tests")  # (the test: told there alone)
    pinned = replace(s, target_pins=2)
    r = shoot_odds(
        ruleset, weapons=["vehicle flamethrower"], target="medium tank", situation=pinned
    )
    assert "veteran morale 10, 2 pins -2" in _why(r, "crew's tests")
    gun = _shoot("medium AT gun", "medium tank", ruleset)
    assert _why(gun, "morale check") == ""  # (no check without a flamethrower)


def test_a_troops_flamethrower_check_tells_the_pins_already_there_only_if_any() -> None:
    fresh = _shoot("flamethrower (infantry)", "regular infantry", range_inches=5)
    assert _why(fresh, "morale check").endswith("after the flamethrower's pins: regular morale 9")
    pinned = _shoot("flamethrower (infantry)", "regular infantry", range_inches=5, target_pins=1)
    assert _why(pinned, "morale check").endswith("regular morale 9, 1 pin already there -1")


def test_bolt_action_close_quarters_say_who_strikes_first_and_show_no_morale() -> None:
    """Sheet 002: attackers roll to damage, defenders take casualties, then the defenders
    (their survivors) roll: the reasoning says so; and with the side taking most
    casualties destroyed, no morale test, so no morale is shown."""
    from kriegsspiel.rulesets.bolt_action.odds import assault_odds

    r = assault_odds(
        "bolt-action-1",
        attackers=1,
        attacker_quality="regular",
        defenders=1,
        defender_quality="regular",
    )
    assert _why(r, "sequence") == (
        "attackers strike first: the defenders' casualties are removed before they strike "
        "back (sheet 002: a-d)"
    )
    assert "morale" not in _why(r, "attackers") and "morale" not in _why(r, "defenders")
    # one on one: the attacker wins on his 4+ at once, or on a later round's
    assert r.probabilities["p_attacker_wins"] == F(2, 3)
    k47 = assault_odds(
        "konflikt47",
        attackers=1,
        attacker_quality="regular",
        defenders=1,
        defender_quality="regular",
    )
    assert _why(k47, "sequence").startswith("both sides strike at once: hand-to-hand;")
    assert _why(k47, "attackers").endswith("morale 9")


def test_stand_and_fire_says_the_morale_the_attackers_fight_at_once_pinned() -> None:
    """Konflikt '47: the defenders' fire pins the assaulters, who then fight (and test) at
    morale 8, not the 9 they came in with; point-blank fire at one more pin."""
    from kriegsspiel.rulesets.bolt_action.odds import assault_odds

    asked = dict(
        attackers=6,
        attacker_quality="regular",
        defenders=5,
        defender_quality="regular",
        defender_mode="stand-and-fire",
        defender_weapons=["rifle:5"],
    )
    r = assault_odds("konflikt47", **asked)  # type: ignore[arg-type]
    said = _why(r, "attackers")
    assert said.endswith("morale 9, 8 once the defenders' fire pins them (-1 a pin)")
    assert _why(r, "sequence").startswith(
        "both sides strike at once: the defenders' fire as the assaulters stop, then hand-to-hand"
    )
    firing = assault_odds("konflikt47", attacker_mode="point-blank", **asked)  # type: ignore[arg-type]
    assert "; with 1 more pin: point-blank fire hits on 3+" in _why(firing, "attackers")
    flamed = assault_odds(
        "konflikt47",
        **{**asked, "defender_weapons": ["flamethrower (infantry)"]},  # type: ignore[arg-type]
    )
    assert "morale 9, 7 to 5 with the 2 to 4 pins the defenders' fire may leave" in _why(
        flamed, "attackers"
    )


def test_a_test_only_a_double_one_passes_says_so() -> None:
    """Inexperienced (8) with 7 pins needs 1 or less, with 6 pins 2 or less: either way
    only a double 1 passes; with 5 pins, 3 or less is said as it is."""
    from kriegsspiel.rulesets.bolt_action.odds import morale_check_odds, order_test_odds

    for pins in (6, 7):
        r = order_test_odds("konflikt47", quality="inexperienced", pins=pins)
        assert _why(r, "needs").startswith("only a double 1 passes: inexperienced morale 8")
        assert r.probabilities["p_pass"] == F(1, 36)
        m = morale_check_odds("konflikt47", quality="inexperienced", pins=pins)
        assert _why(m, "needs").startswith("only a double 1 passes")
    r = order_test_odds("konflikt47", quality="inexperienced", pins=5)
    assert _why(r, "needs").startswith("3 or less on 2D6")


def test_friendly_fire_and_panic_are_told_as_parts_of_fubar() -> None:
    """The chances table shows FUBAR, then its two results under it, labelled as its
    parts (the chart's rolls), not as outcomes beside pass, fail and FUBAR."""
    from kriegsspiel.render.odds_text import render
    from kriegsspiel.rulesets.bolt_action.odds import order_test_odds

    r = order_test_odds("bolt-action-1", quality="regular", pins=2)
    assert r.labels == {
        "p_fubar": "FUBAR",
        "p_friendly_fire": "  FUBAR 1-2: friendly fire",
        "p_panic": "  FUBAR 3-6: panic",
    }
    assert (
        r.probabilities["p_fubar"]
        == r.probabilities["p_friendly_fire"] + r.probabilities["p_panic"]
    )
    from rich.console import Console

    console = Console(width=100, record=True)
    console.print(render(r))
    text = console.export_text()
    assert "│   FUBAR 1-2: friendly fire │" in text and "│   FUBAR 3-6: panic         │" in text


@pytest.mark.parametrize("target", ["open-topped", "soft-skinned vehicle"])
def test_a_vehicle_destroyed_if_damaged_is_not_also_said_to_take_superficial_at_most(
    target: str,
) -> None:
    """Without anti-tank weapons an assault does superficial damage at most, but a
    soft-skinned or open-topped vehicle is destroyed by any damage: only that is said."""
    from kriegsspiel.rulesets.bolt_action.odds import vehicle_assault_odds

    asked = dict(models=6, quality="regular", vehicle_order="stationary")
    if target == "open-topped":
        r = vehicle_assault_odds("konflikt47", target="light tank", open_topped=True, **asked)  # type: ignore[arg-type]
    else:
        r = vehicle_assault_odds("konflikt47", target=target, **asked)  # type: ignore[arg-type]
    assert "superficial at most" not in _why(r, "damage roll")
    assert "any damage destroys it" in _why(r, "damage roll")
    assert _why(r, "damage").startswith("destroyed: ")
    closed = vehicle_assault_odds("konflikt47", target="light tank", **asked)  # type: ignore[arg-type]
    assert "superficial at most without anti-tank weapons" in _why(closed, "damage roll")
    assert _why(closed, "damage") == ""


def test_the_hits_at_a_vehicle_count_every_shot_and_say_so() -> None:
    """Three Panzerfausts at a light tank: the hits table is every shot's (binomial, as
    the players roll the dice together), though the first hit may knock it out; a note
    says so, in the JSON too. One shot of one hit needs no note; troops none either."""
    import json

    from typer.testing import CliRunner

    from kriegsspiel.cli import app

    r = _shoot("panzerfaust:3", "light tank")
    assert r.distributions["hits"].as_list() == [F(8, 27), F(12, 27), F(6, 27), F(1, 27)]
    assert r.notes["hits"].startswith("every hit the dice score, as rolled on the table")
    assert "notes" not in _shoot("panzerfaust", "light tank").to_json()
    assert _shoot("vehicle flamethrower", "light tank").notes  # (2D6 hits from one shot)
    assert not _shoot("rifle:5", "regular infantry").notes
    done = CliRunner().invoke(
        app, ["odds", "shoot", "-w", "panzerfaust:3", "--range", "10", "-t", "light tank", "--json"]
    )
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["notes"] == {"hits": r.notes["hits"]}


def test_a_vehicle_assaults_json_carries_the_note_on_its_if_assaulting_rows() -> None:
    """The text shows it under the chances; --json has it under "notes"."""
    import json

    from typer.testing import CliRunner

    from kriegsspiel.cli import app

    done = CliRunner().invoke(app, ["odds", "vehicle-assault", "--models", "8", "--json"])
    assert done.exit_code == 0, done.output
    out = json.loads(done.output)
    assert out["notes"]["chances"].startswith("'if assaulting': once the order test is passed")
    assert "p_knocked_out_if_assaulting" in out
    shot = CliRunner().invoke(app, ["odds", "shoot", "-w", "rifle:10", "--json"])
    assert "notes" not in json.loads(shot.output)


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_an_assault_weapon_fired_on_the_move_says_it_takes_no_minus_one(ruleset: str) -> None:
    """Sheets 001/002: fire on the move -1, but not for Assault weapons (an SMG). The SMG's
    reasoning was silent, so a player with the sheet could not see why it escaped the -1."""
    smg = _shoot("smg", "regular infantry", ruleset, moving=True)
    assert smg.probabilities == _shoot("smg", "regular infantry", ruleset).probabilities
    assert _why(smg, "to hit").endswith("; fire on the move: no effect (Assault weapon)")
    rifle = _shoot("rifle", "regular infantry", ruleset, moving=True)
    assert "fire on the move -1" in _why(rifle, "to hit") and "Assault" not in _why(rifle, "to hit")
    still = _shoot("smg", "regular infantry", ruleset)
    assert "fire on the move" not in _why(still, "to hit")


def test_point_blank_fire_says_the_assault_weapons_add_nothing_to_it() -> None:
    """Konflikt '47: point-blank fire is one plain shot a model (docs/rules, "Close
    quarters"), so assault weapons count only hand-to-hand. Typed with point-blank fire,
    they changed nothing and the reasoning did not say so."""
    from kriegsspiel.rulesets.bolt_action.odds import assault_odds

    def fight(mode: str, weapons: int) -> OddsReport:
        return assault_odds(
            "konflikt47",
            attackers=5,
            attacker_quality="regular",
            defenders=5,
            defender_quality="regular",
            attacker_assault_weapons=weapons,
            attacker_mode=mode,
        )

    armed, plain = fight("point-blank", 3), fight("point-blank", 0)
    assert armed.probabilities == plain.probabilities
    assert _why(armed, "attackers").endswith(
        "damage on 4+ (one shot a model: the 3 assault weapons add nothing to point-blank "
        "fire); morale 9"
    ), _why(armed, "attackers")
    assert "assault weapon" not in _why(plain, "attackers")
    close = fight("hand-to-hand", 3)
    assert close.probabilities != plain.probabilities
    assert _why(close, "attackers").startswith("5 regular, hand-to-hand: 8 attacks")


_HASHED = re.compile(r"\d{3}_[0-9a-f]{16}")  # a sheet's file name: 001_7881fecd9373e4fe.txt

_EVERY_QUESTION = [
    *(
        f"{question} --ruleset {edition}"
        for edition in EDITIONS
        for question in (
            "shoot --weapon rifle:5",
            "shoot --weapon bazooka --target 'medium tank' --facing side",
            "shoot --weapon 'flamethrower (infantry)' --range 5",
            "shoot --weapon 'medium mortar' --range 30 --indirect",
            "order-test --pins 2",
            "morale --pins 1",
            "assault",
            "vehicle-assault --anti-tank",
        )
    ),
    "assault -r konflikt47 --defender-mode stand-and-fire --defender-weapon rifle:8",
    "assault -r konflikt47 --defender-mode point-blank",
    "shoot -r iron-cross --range 10",
    "shoot -r iron-cross --range 20 --target 'medium tank' --penetration 4 --armour 3",
    "activation -r iron-cross",
    "reaction -r iron-cross",
    "smoke -r iron-cross",
    "terrain-test -r iron-cross",
    "close-combat -r iron-cross",
    "figure -r house-clearing",
    "shoot -r house-clearing -w rifle --range 10 --weapon-skill 40 --visible 5",
]


@pytest.mark.parametrize("question", _EVERY_QUESTION)
def test_no_reason_names_a_sheet_by_its_hashed_file_name(question: str) -> None:
    """Every odds command of every ruleset names a sheet as the other rows do, "sheet
    001", never by the file's hashed name (a close quarters' procedure row once did)."""
    from typer.testing import CliRunner

    from kriegsspiel.cli import app

    for as_json in ([], ["--json"]):
        asked = ["odds", *shlex.split(question), *as_json]
        result = CliRunner().invoke(app, asked, env={"COLUMNS": "200"})
        assert result.exit_code == 0, result.output
        assert not _HASHED.search(result.output), result.output


@pytest.mark.parametrize(
    ("edition", "procedure"),
    [("konflikt47", "sheet 001 (rulebook summary)"), ("bolt-action-1", "sheet 002 (playsheet)")],
)
def test_a_close_quarters_procedure_is_cited_by_its_sheets_number_and_kind(
    edition: str, procedure: str
) -> None:
    """The procedure row says which sheet prints it, and what that sheet is."""
    from kriegsspiel.rulesets.bolt_action.odds import assault_odds

    asked = {"attackers": 5, "attacker_quality": "regular", "defenders": 5}
    report = assault_odds(edition, **asked, defender_quality="regular")  # type: ignore[arg-type]
    assert _why(report, "procedure").endswith(f": {procedure}")


def test_a_source_is_cited_by_sheet_numbers_and_an_assumption_as_written() -> None:
    from kriegsspiel.rulesets.bolt_action.data import load_edition

    k47 = load_edition("konflikt47")
    both = "000_ef10776f99e0df87.txt + 001_7881fecd9373e4fe.txt"
    assert k47.told(both) == "sheets 000 (playsheet (OCR)) and 001 (rulebook summary)"
    assert k47.told(both, described=False) == "sheets 000 and 001"
    ba1 = load_edition("bolt-action-1")  # (a sheet it does not describe: its number alone)
    assert ba1.told("002_2811b7c446f8555e.txt + 001_7881fecd9373e4fe.txt") == (
        "sheets 002 (playsheet) and 001"
    )
    assert k47.told("assumption (a gap)") == "assumption (a gap)"


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_unknown_target_is_told_with_every_name_a_target_goes_by(edition: str) -> None:
    """The known targets left out artillery, though --target 'regular artillery' is taken
    and a gun team's roster says "hit as regular artillery"."""
    from kriegsspiel.errors import UnknownNameError
    from kriegsspiel.rulesets.bolt_action import rules_for

    rules = rules_for(edition)
    with pytest.raises(UnknownNameError) as raised:
        rules.target("foo")
    known = str(raised.value).split("Known targets: ")[1].rstrip(".").split(", ")
    for name in ("regular artillery", "veteran infantry", "carrier", "medium tank"):
        assert name in known and rules.target(name)
    every = {name for row in rules.data.damage_values.rows for name in row.names}
    assert set(known) == every - {"soft skinned vehicle"}  # (a spelling of one listed)
