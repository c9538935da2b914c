"""Iron Cross (sheet 003): golden data, hand-computed odds, oracles, assumptions, bad input."""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import run_cli, within_4_se
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.core.procedure import RandomDice, ScriptedDice, brute_force, exact
from kriegsspiel.core.report import OddsReport
from kriegsspiel.errors import DataFileError, UnknownNameError, UsageError
from kriegsspiel.rulesets.iron_cross import odds, rules
from kriegsspiel.rulesets.iron_cross.data import DATA_FILE, SHEET, IronCrossData, load_data
from kriegsspiel.rulesets.iron_cross.rules import FireOutcome, FireSituation

F = Fraction
DATA = load_data()


# -- golden: every row of the sheet read back ------------------------------------------
def test_every_table_names_its_source() -> None:
    """The sheet or an assumption: never "house rule", which a designer's copy may say."""
    assert DATA.ruleset == "iron-cross"
    for name in IronCrossData.model_fields.keys() - {"ruleset"}:
        source = getattr(DATA, name).source
        assert source == SHEET or source.startswith("assumption"), name


def test_turn_order_and_command_tokens() -> None:
    assert DATA.turn_order.steps == (
        "Collect command tokens: one per unit plus two for command unit",
        "Determine initiative: D6 roll",
        "Active player spends command tokens; reactive player may react",
        "Active player surrenders initiative or reactive player seizes initiative",
        "Reactive player becomes active player",
        "Continue from step 3 until both sides' command tokens are spent",
    )
    assert DATA.turn_order.repeat_from_step == 3
    assert DATA.turn_order.scenario_rules_may_change == (1, 2)
    assert (DATA.command_tokens.per_unit, DATA.command_tokens.per_command_unit) == (1, 2)
    assert rules.command_tokens(6) == 8
    assert rules.command_tokens(6, command_units=0) == 6
    assert DATA.initiative.die == 6


def test_activation_and_reaction_tables() -> None:
    assert DATA.activation.first_activation_needs_roll is False
    assert DATA.activation.die == 6
    assert (DATA.reaction.die, DATA.reaction.needs, DATA.reaction.per_token_or_marker) == (6, 3, 1)
    assert rules.activation_needs(1, 1) == 3  # the sheet's example: "would require a 3+"


@pytest.mark.parametrize(
    ("unit", "normal", "rapid", "road"),
    [
        ("Infantry and Support Squads", (6, 15), (9, 25), (12, 30)),
        ("Light Vehicle", (12, 30), (18, 45), (24, 60)),
        ("Medium Vehicles", (10, 25), (15, 35), (20, 50)),
        ("Heavy Vehicles", (8, 20), (10, 25), (12, 30)),
    ],
)
def test_move_rates(
    unit: str, normal: tuple[int, int], rapid: tuple[int, int], road: tuple[int, int]
) -> None:
    for move, (inches, cm) in (("normal", normal), ("rapid", rapid), ("rapid road", road)):
        rate = rules.move_rate(unit, move)
        assert (rate.inches, rate.cm) == (inches, cm)


def test_normal_move_may_fire_rapid_may_not() -> None:
    assert rules.may_fire_after("normal") is True
    assert rules.may_fire_after("rapid") is False
    assert rules.may_fire_after("rapid road") is False


@pytest.mark.parametrize(
    ("unit", "rough", "very_rough"),
    [
        ("Wheeled vehicle", "6", "Impassable"),
        ("Half-tracked vehicle", "3+", "4+"),
        ("Any other fully tracked vehicle/ scout car", "2+", "3+"),
        ("Heavy tank", "no test", "2+"),
        ("Infantry Detachment", "no test", "4+"),
        ("Support Squad (excluding below)", "no test", "4+"),
        ("Anti-tank or Infantry Gun", "2+", "Impassable"),
        ("medium tank", "2+", "3+"),  # not heavy: any other fully tracked vehicle
        ("light tank", "2+", "3+"),
    ],
)
def test_terrain_rows(unit: str, rough: str, very_rough: str) -> None:
    assert rules.find_terrain_test(unit, "rough")[1].text == rough
    assert rules.find_terrain_test(unit, "very rough")[1].text == very_rough


def test_firing_modifiers() -> None:
    m = DATA.firing_modifiers
    assert (m.close_range.inches, m.close_range.cm) == (12, 30)
    assert (m.enemy_near_vehicle.inches, m.enemy_near_vehicle.cm) == (12, 30)
    assert [
        m.firer_moved.value,
        m.target_moved.value,
        m.smoke.value,
        m.close_range_bonus.value,
        m.enemy_infantry_near_vehicle.value,
        m.per_morale_marker.value,
    ] == [-2, -1, -1, +1, -1, -1]
    assert m.firer_moved.text.startswith("Firer moved in this activation")


def test_morale_markers_and_cover() -> None:
    assert (DATA.morale_markers.per_hit, DATA.morale_markers.further_vs_infantry) == (1, 1)
    assert [(c.cover, c.further_marker_on) for c in DATA.cover.levels] == [
        ("open", 4),
        ("cover", 5),
        ("fortifications", 6),
    ]
    assert DATA.cover.mortar_treats_as == {
        "open": "open",
        "cover": "open",
        "fortifications": "cover",
    }


def test_armour_penetration_table() -> None:
    pen = DATA.armour_penetration
    rows = [
        (r.scores, r.key, r.extra_markers, r.vehicle_damaged, r.destroyed, r.kaboom)
        for r in pen.results
    ]
    assert rows == [
        ((1,), "rattled", 1, False, False, False),
        ((2,), "smoke_and_shrapnel", 2, False, False, False),
        ((3,), "screech", 0, True, False, False),
        ((4, 5), "foom", 0, False, True, False),
        ((6,), "kaboom", 0, False, True, True),
    ]
    assert [r.name for r in pen.results] == [
        "Rattled",
        "Crew cabin filled with smoke and shrapnel!",
        "Screech!",
        "Foom!",
        "Kaboom!",
    ]
    assert (pen.die, pen.markers_per_hit) == (6, 1)
    assert (pen.kaboom_radius_inches, pen.kaboom_radius_small_table_inches) == (12, 6)


def test_smoke_table() -> None:
    s = DATA.smoke
    assert (s.die, s.needs) == (10, 5)
    assert s.protected_unit_may_fire is False
    assert s.gives_target_cover == "cover"
    assert s.dissipates == "end of turn"


# -- hand-computed odds ----------------------------------------------------------------
def test_activation_odds() -> None:
    assert odds.activation(1, 1).probabilities["p_success"] == F(4, 6)
    assert odds.activation(0, 1).probabilities["p_success"] == F(5, 6)
    assert odds.activation(3, 3).probabilities["p_success"] == 0
    # a further activation finds the token its first activation left on the unit
    with pytest.raises(UsageError, match="at least the command token its first activation left"):
        odds.activation(2, 0)
    assert odds.activation(0, 0, first_activation=True).probabilities["p_success"] == 1
    first = odds.activation(2, first_activation=True)
    assert first.probabilities["p_success"] == 1
    assert first.reasons[0].result == "no roll needed"
    assert odds.activation(1, 1).reasons[0].result == "needs 3+ on a D6"


def test_first_activation_needs_no_roll_even_with_morale_markers() -> None:
    """Sheet 003, line 17: "units need no dice roll for first activation", with no word of
    morale markers. A review reports the published rule as automatic only for a unit
    without morale markers; the sheet's reading is kept, and the reasoning says so."""
    assert DATA.activation.first_activation_needs_roll is False
    for markers in (0, 3, 9):
        report = odds.activation(markers, first_activation=True)
        assert report.probabilities["p_success"] == 1 and report.details["needs"] is None
    assert rules.activate(ScriptedDice([]), 3, 0, first_activation=True) is True
    said = odds.activation(3, first_activation=True).reasons[0].because
    assert said == (
        "first activation of the turn (sheet: no dice roll, whatever the morale markers; "
        "docs/rules/iron-cross.md)"
    )


def test_a_first_activation_finds_no_command_token_on_the_unit() -> None:
    """The tokens counted are those spent on the unit this turn: none before its first
    activation, so a first activation with tokens on the unit contradicts itself (told
    in the Python caller's words; the command line's: test_command_line_refusals)."""
    with pytest.raises(UsageError) as err:
        odds.activation(0, 2, first_activation=True)
    assert str(err.value) == (
        "first_activation=True with command_tokens=2: the tokens counted are those spent on "
        "the unit this turn, so its first activation finds none on it; drop command_tokens "
        "for a first activation, or first_activation=True for a further one."
    )
    assert odds.activation(0, 0, first_activation=True).probabilities["p_success"] == 1


def test_the_assumed_command_token_is_said_to_be_an_assumption() -> None:
    """Without command_tokens a further activation counts the token its first activation
    left: 1 + markers, and the reasoning labels it an assumption; a given count is not."""
    assumed = odds.activation(0)
    assert assumed.probabilities["p_success"] == F(5, 6)
    assert assumed.reasons[0].because == (
        "score higher than 0 morale markers + 1 command token = 1; the command token is the "
        "one the first activation left (assumption: command_tokens not given)"
    )
    given = odds.activation(1, 1)
    assert given.reasons[0].because == "score higher than 1 morale marker + 1 command token = 2"


def test_reaction_odds() -> None:
    r = odds.reaction(0, 0)
    assert r.probabilities == {"p_success": F(4, 6), "p_seize_initiative": F(1, 6)}
    assert odds.reaction(2, 1).probabilities == {
        "p_success": F(1, 6),
        "p_seize_initiative": F(1, 6),
    }
    assert odds.reaction(3, 1).probabilities == {"p_success": 0, "p_seize_initiative": 0}


def test_reaction_six_seizes_the_initiative() -> None:
    assert rules.react(ScriptedDice([6]), 0, 0) == rules.ReactionOutcome(True, True)
    assert rules.react(ScriptedDice([5]), 0, 0) == rules.ReactionOutcome(True, False)
    assert rules.react(ScriptedDice([2]), 0, 0) == rules.ReactionOutcome(False, False)


def test_reaction_token_being_spent_is_not_counted() -> None:
    assert DATA.reaction_counts.count_token_being_spent is False
    assert rules.reaction_needs(0, 0) == 3
    # the rule is the data's: counting the spent token makes the same reaction need 4+
    counted = DATA.model_copy(
        update={
            "reaction_counts": DATA.reaction_counts.model_copy(
                update={"count_token_being_spent": True}
            )
        }
    )
    assert rules.reaction_needs(0, 0, counted) == 4 and rules.reaction_needs(1, 1, counted) == 6
    # the reasoning says which reading is played, and where from: the shipped data's
    # assumption, or the data that changed it (here unnamed: not read from a file)
    assert odds.reaction(0, 0).reasons[0].because == (
        "base 3+, +1 per command token or morale marker (0 on the unit; the token spent on "
        "this reaction is not counted: assumption)"
    )
    assert "(0 on the unit; the token spent on this reaction is counted too: changed " in (
        odds.reaction(0, 0, data=counted).reasons[0].because
    )


def test_smoke_odds() -> None:
    assert odds.smoke().probabilities == {"p_success": F(6, 10)}
    said = odds.smoke().reasons[1].because
    assert "the protected unit may not fire for the rest of the turn" in said
    may = DATA.model_copy(
        update={"smoke": DATA.smoke.model_copy(update={"protected_unit_may_fire": True})}
    )
    assert "the protected unit may fire" in odds.smoke(data=may).reasons[1].because


@pytest.mark.parametrize(
    ("unit", "terrain", "p"),
    [
        ("wheeled vehicle", "rough", F(1, 6)),
        ("Wheeled", "VERY ROUGH", F(0)),
        ("half-track", "rough", F(4, 6)),
        ("Heavy Tank", "rough", F(1)),
        ("heavy tank", "very_rough", F(5, 6)),
        ("infantry", "very rough", F(3, 6)),
        ("anti-tank gun", "very rough", F(0)),
    ],
)
def test_terrain_test_odds(unit: str, terrain: str, p: Fraction) -> None:
    assert odds.terrain_test(unit, terrain).probabilities == {"p_pass": p}


def test_terrain_six_means_six_only_and_impassable_never_rolls() -> None:
    _, six = rules.find_terrain_test("wheeled", "rough")
    assert rules.cross_terrain(ScriptedDice([5]), six) is False
    assert rules.cross_terrain(ScriptedDice([6]), six) is True
    _, impassable = rules.find_terrain_test("wheeled", "very rough")
    assert rules.cross_terrain(ScriptedDice([]), impassable) is False
    assert odds.terrain_test("wheeled", "very rough").reasons[0].result.startswith("Impassable")


def test_one_d10_hits_on_5_plus() -> None:
    r = odds.shoot(target="infantry", range_inches=20)
    assert r.probabilities == {"p_hit": F(6, 10)}
    assert r.distributions["hits"].as_list() == [F(4, 10), F(6, 10)]
    # a hit: one marker, and a casualty roll of 4+ (open) adds another
    assert r.distributions["morale_markers"].as_list() == [F(4, 10), F(3, 10), F(3, 10)]
    assert r.reasons[1].result == "needs 5+ on a D10"


@pytest.mark.parametrize(
    ("kwargs", "needs"),
    [
        ({"firer_moved": True}, 7),
        ({"firer_moved": True, "firer_is_infantry_detachment": True}, 5),
        ({"target_moved": True}, 6),
        ({"smoke": True}, 6),
        ({"range_inches": 12}, 4),
        ({"range_inches": 12.5}, 5),
        ({"firer_is_vehicle": True, "enemy_infantry_near_vehicle": True}, 6),
        ({"morale_markers": 2}, 7),
        ({"target_moved": True, "range_inches": 6}, 5),
    ],
)
def test_firing_modifiers_change_the_score_needed(kwargs: dict[str, object], needs: int) -> None:
    args: dict[str, object] = {"target": "infantry", "range_inches": 20, **kwargs}
    r = odds.shoot(**args)  # type: ignore[arg-type]
    assert r.details["needs"] == needs
    dice = 2 if args["range_inches"] <= 12 else 1  # two D10s at infantry at close range
    assert r.details["dice"] == dice
    assert r.probabilities["p_hit"] == 1 - (1 - F(11 - needs, 10)) ** dice


def test_morale_markers_have_no_upper_limit() -> None:
    """The sheet gives no limit (unit morale values are in the orders of battle): any
    number is taken, and past what a roll can beat the odds are 0, or a natural 10 to hit."""
    assert odds.activation(5, 1).probabilities["p_success"] == 0
    assert odds.activation(100, 1).probabilities["p_success"] == 0
    assert odds.activation(100, first_activation=True).probabilities["p_success"] == 1
    assert odds.reaction(3, 0).probabilities["p_success"] == F(1, 6)
    assert odds.reaction(50, 0).probabilities["p_success"] == 0
    r = odds.shoot(target="infantry", range_inches=20, morale_markers=50)
    assert r.details["needs"] == 10 and r.probabilities["p_hit"] == F(1, 10)
    assert "per morale marker on firer (x50) -50" in r.reasons[1].because


def test_natural_ten_always_hits() -> None:
    r = odds.shoot(target="infantry", range_inches=20, morale_markers=9, firer_moved=True)
    assert r.details["needs"] == 10
    assert r.probabilities["p_hit"] == F(1, 10)
    assert "natural 10 always hits" in r.reasons[1].because


def test_natural_one_always_misses() -> None:
    easy = DATA.model_copy(update={"to_hit": DATA.to_hit.model_copy(update={"needs": 1})})
    r = odds.shoot(target="infantry", range_inches=20, data=easy)
    assert r.details["needs"] == 2
    assert r.probabilities["p_hit"] == F(9, 10)
    assert "natural 1 always misses" in r.reasons[1].because


def test_more_dice_for_special_rules() -> None:
    r = odds.shoot(target="infantry", range_inches=20, dice=3)
    assert r.probabilities["p_hit"] == 1 - F(4, 10) ** 3
    assert r.distributions["hits"].mean() == F(18, 10)


@pytest.mark.parametrize(
    ("target", "range_inches", "machine_gun", "dice"),
    [
        ("infantry", 20, False, 1),
        ("infantry", 500, False, 1),  # no maximum range on the sheet
        ("infantry", 12, False, 2),  # close range is up to 12", included
        ("infantry", 12.5, False, 1),
        ("support squad", 3, False, 2),
        ("infantry", 40, True, 2),  # a machine gun at infantry at any range
        ("support squad", 40, True, 2),
        ("vehicle", 6, False, 1),  # one D10 at a vehicle, however close
    ],
)
def test_firing_dice_two_at_infantry_at_close_range_or_from_a_machine_gun(
    target: str, range_inches: float, machine_gun: bool, dice: int
) -> None:
    vehicle = {"penetration": 5, "armour": 3} if target == "vehicle" else {}
    r = odds.shoot(
        target=target,
        range_inches=range_inches,
        machine_gun=machine_gun,
        **vehicle,  # type: ignore[arg-type]
    )
    assert r.details["dice"] == dice
    assert r.reasons[0].result == f"{dice} D10" + ("s" if dice > 1 else "")
    given = odds.shoot(target="infantry", range_inches=6, dice=3)  # an orders-of-battle rule
    assert given.details["dice"] == 3 and "orders-of-battle" in given.reasons[0].because


@pytest.mark.parametrize(
    ("cover", "mortar", "smoke", "on"),
    [
        ("open", False, False, 4),
        ("cover", False, False, 5),
        ("fortifications", False, False, 6),
        ("trenches", False, False, 6),
        ("cover", True, False, 4),
        ("fortifications", True, False, 5),
        ("open", False, True, 5),
        ("fortifications", False, True, 6),
        # smoke first (open ground counts as cover), then the mortar ignores that cover
        ("open", True, True, 4),
        ("cover", True, True, 4),
        ("trenches", True, True, 5),
    ],
)
def test_casualty_roll_cover(cover: str, mortar: bool, smoke: bool, on: int) -> None:
    r = odds.shoot(target="infantry", range_inches=20, cover=cover, mortar=mortar, smoke=smoke)
    assert r.details["further_marker_on"] == on
    p_hit = r.probabilities["p_hit"]
    assert r.distributions["morale_markers"].probability(2) == p_hit * F(7 - on, 6)


def test_casualty_roll_is_one_d6_per_hit_against_infantry_and_support_squads() -> None:
    assert (DATA.casualty_roll.die, DATA.casualty_roll.targets) == (
        6,
        ("infantry", "support squad"),
    )
    squad = odds.shoot(target="support squad", range_inches=20, dice=2)
    infantry = odds.shoot(target="infantry", range_inches=20, dice=2)
    assert squad.distributions == infantry.distributions
    plan = rules.plan_fire(FireSituation("infantry", 20, dice=2))
    # two hits, then two casualty rolls: 4 (marker) and 3 (none)
    assert rules.resolve_fire(ScriptedDice([7, 9, 4, 3]), plan) == FireOutcome(2, 3)


def test_vehicle_hit_needs_a_weapon_capable_of_exceeding_the_armour() -> None:
    # 4 + a D10 can reach 14 at most: armour 14 is beyond it, so hits do nothing at all
    r = odds.shoot(target="vehicle", range_inches=20, penetration=4, armour=14)
    assert r.probabilities["p_hit"] == F(6, 10)
    assert r.probabilities["p_penetrated"] == r.probabilities["p_destroyed"] == 0
    assert r.distributions["morale_markers"].as_list() == [F(1)]
    assert r.reasons[2].result == "hits have no effect"
    assert r.details["penetrates_on"] is None
    assert [reason.topic for reason in r.reasons] == ["dice", "to hit", "armour"]
    # armour 13: only a 10 exceeds it, and every hit now gives its morale marker
    r = odds.shoot(target="vehicle", range_inches=20, penetration=4, armour=13)
    assert r.details["penetrates_on"] == 10
    assert r.probabilities["p_penetrated"] == F(6, 10) / 10
    assert r.distributions["morale_markers"].probability(lambda m: m >= 1) == F(6, 10)


def test_penetration_throw() -> None:
    assert DATA.penetration_throw.die == 10
    assert DATA.penetration_throw.source.startswith("assumption")
    # the Panther's gun of 10 at the Tiger's front of 17: 10 + D10 > 17 on an 8, 9 or 10
    r = odds.shoot(target="vehicle", range_inches=30, penetration=10, armour=17)
    assert r.details["penetrates_on"] == 8
    assert r.reasons[2].result == "penetrates on 8+"
    hit = F(6, 10)
    assert r.probabilities["p_penetrated"] == hit * F(3, 10)
    assert r.probabilities["p_destroyed"] == hit * F(3, 10) * F(3, 6)
    # a hit that fails the throw still gives its marker and rolls no table
    s = FireSituation("vehicle", 30, penetration=10, armour=17)
    dice = ScriptedDice([5, 7])
    assert rules.fire(dice, s) == FireOutcome(hits=1, morale_markers=1)
    assert dice.remaining == []
    # equal is not enough: 10 + 7 = 17 does not exceed 17, but 10 + 8 does (then Foom!)
    assert rules.fire(ScriptedDice([5, 8, 4]), s) == FireOutcome(
        hits=1, morale_markers=1, worst_result=4, destroyed=True
    )
    # when even a 1 exceeds the armour, no throw is made: the table's D6 comes next
    easy = FireSituation("vehicle", 30, penetration=5, armour=5)
    dice = ScriptedDice([5, 1])
    assert rules.fire(dice, easy) == FireOutcome(hits=1, morale_markers=2, worst_result=1)
    assert dice.remaining == []


def test_vehicle_penetration_results() -> None:
    r = odds.shoot(target="vehicle", range_inches=20, penetration=5, armour=4)
    hit = F(6, 10)
    assert r.probabilities == {
        "p_hit": hit,
        "p_penetrated": hit,
        "p_destroyed": hit * F(3, 6),
        "p_rattled": hit / 6,
        "p_smoke_and_shrapnel": hit / 6,
        "p_screech": hit / 6,
        "p_foom": hit * F(2, 6),
        "p_kaboom": hit / 6,
    }
    markers = r.distributions["morale_markers"]
    # destroyed: the hit's marker; Rattled 1+1; smoke 1+2; Screech! 1+1 (assumption)
    assert markers.as_list() == [F(4, 10), hit / 2, hit / 3, hit / 6]
    assert r.details["kaboom_radius_inches"] == 12


def test_the_report_says_what_each_penetration_result_does() -> None:
    """Sheet 003, lines 84-88: Rattled +1 marker, smoke and shrapnel +2, Screech! damaged,
    Foom! destroyed, Kaboom! a marker on each friendly unit within 12" (6" on a 6'x4'
    table). The reasoning says each, so the markers table can be read from it."""
    r = odds.shoot(target="vehicle", range_inches=30, penetration=10, armour=17)
    said = {reason.topic: reason for reason in r.reasons}
    assert said["armour penetration"].because == (
        "1 Rattled: +1 morale marker; 2 Crew cabin filled with smoke and shrapnel!: +2 morale "
        "markers; 3 Screech!: vehicle damaged (below); 4/5 Foom!: vehicle destroyed; "
        "6 Kaboom!: vehicle destroyed, a marker on friendly units near it (below) (sheet; "
        "markers on top of the hit's own)"
    )
    assert said["Screech!"].result == "vehicle immobilised for the rest of the game"
    assert said["Kaboom!"].result == 'a morale marker on each friendly unit within 12"'
    assert said["Kaboom!"].because == (
        "6\" on a 6'x4' table (sheet); the vehicle is destroyed, as with Foom! (assumption)"
    )
    assert r.notes["morale_markers"] == (
        "The target's own markers; Kaboom!'s fall on the friendly units near it."
    )
    out = r.to_json()
    assert (out["kaboom_radius_inches"], out["kaboom_radius_small_table_inches"]) == (12, 6)
    # the radii are the data file's
    pen = DATA.armour_penetration.model_copy(
        update={"kaboom_radius_inches": 10, "kaboom_radius_small_table_inches": 5}
    )
    other = DATA.model_copy(update={"armour_penetration": pen})
    r = odds.shoot(target="vehicle", range_inches=30, penetration=10, armour=17, data=other)
    kaboom = next(reason for reason in r.reasons if reason.topic == "Kaboom!")
    assert kaboom.result.endswith('within 10"') and kaboom.because.startswith('5" on a')
    # a weapon that cannot exceed the armour has no penetration rows
    r = odds.shoot(target="vehicle", range_inches=30, penetration=5, armour=15)
    assert {"armour penetration", "Kaboom!"}.isdisjoint(x.topic for x in r.reasons)


def test_screech_immobilises_and_adds_one_marker() -> None:
    assert (DATA.screech.immobilised, DATA.screech.extra_markers) == (True, 1)
    s = FireSituation("vehicle", 20, penetration=5, armour=4)
    assert rules.fire(ScriptedDice([5, 3]), s) == FireOutcome(
        hits=1, morale_markers=2, worst_result=3, immobilised=True
    )


def test_kaboom_destroys_and_marks_friends() -> None:
    s = FireSituation("vehicle", 20, penetration=5, armour=4)
    out = rules.fire(ScriptedDice([10, 6]), s)
    assert out.destroyed and out.kaboom and out.worst_result == 5


def test_hits_after_a_vehicle_is_destroyed_have_no_effect() -> None:
    s = FireSituation("vehicle", 20, penetration=5, armour=4, dice=3)
    dice = ScriptedDice([9, 9, 9, 4, 1])
    out = rules.fire(dice, s)
    assert out == FireOutcome(hits=3, morale_markers=1, worst_result=4, destroyed=True)
    assert dice.remaining == [1]  # no roll for the hits after Foom!


def test_initiative_roll_off_rerolls_ties() -> None:
    dice = ScriptedDice([3, 3, 2, 5])
    assert rules.roll_off(dice) == 1
    assert dice.used == [3, 3, 2, 5]
    assert rules.roll_off(ScriptedDice([4, 1])) == 0


# -- oracles: exact vs brute force vs Monte Carlo ---------------------------------------
SMALL = [
    FireSituation("infantry", 20),
    FireSituation("infantry", 8, cover="cover", target_moved=True, dice=2),
    FireSituation("support squad", 30, mortar=True, cover="trenches", dice=2),
    FireSituation("vehicle", 10, penetration=6, armour=3, dice=2),
    FireSituation("vehicle", 10, penetration=2, armour=3),
    FireSituation("vehicle", 10, penetration=3, armour=9, dice=2),
    FireSituation("vehicle", 10, penetration=2, armour=12),
]


@pytest.mark.parametrize("situation", SMALL)
def test_fire_exact_equals_brute_force_and_odds(situation: FireSituation) -> None:
    dist = exact(lambda d: rules.fire(d, situation))
    assert dist == brute_force(lambda d: rules.fire(d, situation))
    report = odds.shoot(
        target=situation.target,
        range_inches=situation.range_inches,
        target_moved=situation.target_moved,
        cover=situation.cover,
        mortar=situation.mortar,
        dice=situation.dice,
        penetration=situation.penetration,
        armour=situation.armour,
    )
    assert report.distributions["hits"] == dist.map(lambda o: o.hits)
    assert report.distributions["morale_markers"] == dist.map(lambda o: o.morale_markers)
    if situation.target == "vehicle":
        assert report.probabilities["p_destroyed"] == dist.probability(lambda o: o.destroyed)


@pytest.mark.parametrize("situation", [SMALL[1], SMALL[3], SMALL[5]])
def test_fire_monte_carlo(situation: FireSituation) -> None:
    n = 20_000
    dice = RandomDice(20240611)
    plan = rules.plan_fire(situation)
    samples = [rules.resolve_fire(dice, plan) for _ in range(n)]
    dist = exact(lambda d: rules.resolve_fire(d, plan))
    p_hit = dist.probability(lambda o: o.hits >= 1)
    assert within_4_se(p_hit, sum(o.hits >= 1 for o in samples), n)
    markers = dist.map(lambda o: o.morale_markers)
    se = math.sqrt(float(markers.variance()) / n)
    mean = sum(o.morale_markers for o in samples) / n
    assert abs(mean - float(markers.mean())) <= 4 * se
    p_destroyed = dist.probability(lambda o: o.destroyed)
    assert within_4_se(p_destroyed, sum(o.destroyed for o in samples), n)


def test_command_tests_monte_carlo() -> None:
    n = 20_000
    dice = RandomDice(7)
    wins = sum(rules.activate(dice, 1, 1) for _ in range(n))
    assert within_4_se(odds.activation(1, 1).probabilities["p_success"], wins, n)
    reactions = [rules.react(dice, 1, 0) for _ in range(n)]
    report = odds.reaction(1, 0)
    assert within_4_se(report.probabilities["p_success"], sum(r.success for r in reactions), n)
    assert within_4_se(
        report.probabilities["p_seize_initiative"],
        sum(r.seizes_initiative for r in reactions),
        n,
    )
    assert within_4_se(F(6, 10), sum(rules.lay_smoke(dice) for _ in range(n)), n)
    _, test = rules.find_terrain_test("half-track", "very rough")
    assert within_4_se(F(3, 6), sum(rules.cross_terrain(dice, test) for _ in range(n)), n)


@pytest.mark.parametrize(
    ("markers", "tokens", "first"),
    [(0, 1, False), (1, 2, False), (4, 4, False), (0, 0, True), (4, 0, True)],
)
def test_command_tests_exact_equals_brute_force(markers: int, tokens: int, first: bool) -> None:
    assert exact(lambda d: rules.activate(d, markers, tokens, first)) == brute_force(
        lambda d: rules.activate(d, markers, tokens, first)
    )
    assert exact(lambda d: rules.react(d, markers, tokens)) == brute_force(
        lambda d: rules.react(d, markers, tokens)
    )


# -- properties ------------------------------------------------------------------------
situations = st.fixed_dictionaries(
    {
        "target": st.sampled_from(["infantry", "support squad", "vehicle"]),
        "range_inches": st.floats(0, 60),
        "firer_moved": st.booleans(),
        "target_moved": st.booleans(),
        "smoke": st.booleans(),
        "morale_markers": st.integers(0, 8),
        "mortar": st.booleans(),
        "machine_gun": st.booleans(),
        "dice": st.one_of(st.none(), st.integers(1, 3)),
        "penetration": st.integers(0, 6),
        "armour": st.integers(0, 6),
        "cover": st.sampled_from(["open", "cover", "fortifications"]),
    }
)


def _shoot(args: dict[str, object]) -> OddsReport:
    args = dict(args)
    if args["target"] != "vehicle":
        args["penetration"] = args["armour"] = None
    else:
        args["cover"] = "open"
        args["mortar"] = args["machine_gun"] = False
    if args["dice"] is not None or args["mortar"]:  # an orders-of-battle count stands alone
        args["machine_gun"] = False  # (and a mortar is not a machine gun)
    return odds.shoot(**args)  # type: ignore[arg-type]


@settings(max_examples=60)
@given(situations)
def test_shoot_probabilities_are_probabilities(args: dict[str, object]) -> None:
    r = _shoot(args)
    assert all(0 <= p <= 1 for p in r.probabilities.values())
    for dist in r.distributions.values():
        assert sum(dist.as_list()) == 1
    if args["target"] == "vehicle":
        results = sum(r.probabilities[f"p_{x.key}"] for x in DATA.armour_penetration.results)
        assert results <= r.probabilities["p_hit"]


@settings(max_examples=40)
@given(situations)
def test_more_morale_markers_never_help(args: dict[str, object]) -> None:
    worse = {**args, "morale_markers": int(args["morale_markers"]) + 1}  # type: ignore[call-overload]
    assert _shoot(worse).probabilities["p_hit"] <= _shoot(args).probabilities["p_hit"]


@settings(max_examples=40)
@given(st.integers(0, 8), st.integers(1, 8))
def test_command_odds_are_probabilities(markers: int, tokens: int) -> None:
    a = odds.activation(markers, tokens).probabilities["p_success"]
    r = odds.reaction(markers, tokens).probabilities
    assert 0 <= a <= 1
    assert 0 <= r["p_seize_initiative"] <= r["p_success"] <= a


# -- bad input -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"morale_markers": -1}, "^morale_markers must be a whole number 0 or more"),
        ({"dice": 0}, "^dice must be 1 or more"),
        ({"dice": 151, "target": "vehicle", "penetration": 5, "armour": 3}, "at a vehicle"),
        (
            {"target": "vehicle", "penetration": 5, "armour": 3, "mortar": True},
            "drop it for a vehicle",
        ),
        (
            {"target": "vehicle", "penetration": 5, "armour": 3, "machine_gun": True},
            "drop it for a vehicle",
        ),
        ({"dice": 1, "machine_gun": True}, "give one of the two"),
        (
            {"mortar": True, "machine_gun": True},
            "^mortar=True and machine_gun=True together: the rules give a unit's fire as a mortar's "
            r"\(it ignores cover\) or a machine gun's \(2 D10s at infantry\), never both; give "
            "the one the firing unit is",
        ),
        ({"range_inches": -3}, "^range_inches must be a distance of 0 or more inches"),
        ({"target": "vehicle"}, "needs penetration=N and armour=N"),
        ({"penetration": 3, "armour": 2}, "^penetration and armour apply only to a vehicle"),
        ({"enemy_infantry_near_vehicle": True}, "apply only to a firing vehicle"),
        ({"screened": True}, "apply only to a firing vehicle"),
        (
            {"screened": True, "firer_is_vehicle": True, "range_inches": 20},
            "^screened=True drops the -1",
        ),
        (
            {"firer_is_vehicle": True, "firer_is_infantry_detachment": True},
            r"cannot be both a vehicle \(firer_is_vehicle=True\) and an infantry detachment "
            r"\(firer_is_infantry_detachment=True\)",
        ),
        (
            {"target": "vehicle", "penetration": 3, "armour": 2, "cover": "cover"},
            "leave cover='open'",
        ),
        ({"target": "vehicle", "penetration": -1, "armour": 2}, "^penetration must be"),
        ({"dice": rules.MAX_DICE + 1}, "at most 200 firing dice .got 201.; more would take"),
    ],
)
def test_bad_shoot_input(kwargs: dict[str, object], message: str) -> None:
    """Each refusal names the Python parameters, never the command line's options."""
    args: dict[str, object] = {"target": "infantry", "range_inches": 20, **kwargs}
    with pytest.raises(UsageError, match=message) as err:
        odds.shoot(**args)  # type: ignore[arg-type]
    assert "--" not in str(err.value)


def test_the_most_firing_dice_are_answered() -> None:
    """The limit is where the exact odds still come back in about a second."""
    result = odds.shoot(target="infantry", range_inches=20, dice=rules.MAX_DICE)
    assert result.probabilities["p_hit"] > Fraction(999, 1000)


def test_bad_counts() -> None:
    with pytest.raises(UsageError, match=r"^command_tokens must be a whole number 0 or more"):
        odds.activation(0, -1)
    with pytest.raises(UsageError, match=r"^morale_markers must be"):
        odds.reaction(-2, 0)
    with pytest.raises(UsageError, match="cannot exceed units=1: a command unit"):
        rules.command_tokens(1, command_units=2)


def test_unknown_names_suggest_close_matches() -> None:
    with pytest.raises(UnknownNameError) as err:
        odds.terrain_test("wheeled vehicel", "rough")
    assert err.value.close_matches[0] == "Wheeled vehicle"
    assert "(did you mean 'Wheeled vehicle'?)." in str(err.value)
    with pytest.raises(UnknownNameError, match="very rough"):
        odds.terrain_test("heavy tank", "very ruff")
    with pytest.raises(UnknownNameError, match="vehicle"):
        odds.shoot(target="vehical", range_inches=10)
    with pytest.raises(UnknownNameError, match="fortifications"):
        odds.shoot(target="infantry", range_inches=10, cover="fortification")


def test_malformed_data_file_names_line_and_field(tmp_path: Path) -> None:
    text = DATA_FILE.read_text(encoding="utf-8")
    lines = text.splitlines()
    smoke = lines.index("smoke:")
    needs = next(i for i in range(smoke, len(lines)) if lines[i].strip() == "needs: 5")
    lines[needs] = "  needs: five"
    bad = tmp_path / "iron_cross.yaml"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        load_data(bad)
    assert f"line {needs + 1}, field smoke.needs" in str(err.value)
    assert str(bad) in str(err.value)


def test_data_file_rejects_unsourced_tables(tmp_path: Path) -> None:
    """A source is the sheet, an assumption or (a designer's change) a house rule; else
    it is told what it may be, not a regular expression."""
    text = DATA_FILE.read_text(encoding="utf-8").replace(
        'source: "assumption: a natural 1', 'source: "my idea: a natural 1'
    )
    bad = tmp_path / "iron_cross.yaml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError, match=r"field natural_rolls\.source") as told:
        load_data(bad)
    assert "must be a text starting 'assumption' or 'house rule'" in str(told.value)
    bad.write_text(text.replace("my idea: a natural 1", "house rule: a natural 1"))
    assert load_data(bad).natural_rolls.source.startswith("house rule")


def test_the_json_question_is_the_commands_name_and_the_title_says_it_in_words() -> None:
    """JSON readers key on ``question``; the words with the numbers are the ``title``."""
    cases = [
        (odds.shoot(target="infantry", range_inches=10), "shoot", "2 D10s at infantry"),
        (odds.activation(1, 1), "activation", "activate a unit"),
        (odds.reaction(0, 0), "reaction", "react with a unit"),
        (odds.smoke(), "smoke", "lay smoke"),
        (odds.terrain_test("wheeled", "rough"), "terrain-test", "enters rough terrain"),
    ]
    for report, question, words in cases:
        out = report.to_json()
        assert out["question"] == question and words in out["title"]


def test_a_vehicle_firing_at_infantry_within_12_inches_has_that_infantry_near_it() -> None:
    """Sheet 003: -1 for enemy infantry or support squad within 12" of the firing vehicle.
    Infantry it fires at within 12" are such infantry, so the -1 applies without being
    asked, unless friendly infantry screen the vehicle (--screened, the sheet's footnote);
    at a vehicle, or beyond 12", only --enemy-infantry-near gives it."""

    def needs(**kw: object) -> object:
        return odds.shoot(firer_is_vehicle=True, **kw).details["needs"]  # type: ignore[arg-type]

    assert needs(target="infantry", range_inches=5) == 5  # base 5+, close +1, near -1
    assert needs(target="support squad", range_inches=12) == 5
    assert needs(target="infantry", range_inches=5, screened=True) == 4
    assert needs(target="infantry", range_inches=20) == 5  # no close bonus, nobody near
    assert needs(target="infantry", range_inches=20, enemy_infantry_near_vehicle=True) == 6
    assert odds.shoot(target="infantry", range_inches=5).details["needs"] == 4  # not a vehicle
    said = odds.shoot(target="infantry", range_inches=5, firer_is_vehicle=True).reasons[1]
    assert "(the target)" in said.because


def test_infantry_near_a_firing_vehicle_is_the_datas_enemy_near_vehicle_distance(
    tmp_path: Path,
) -> None:
    """Which infantry targets are near the firing vehicle is the data's
    firing_modifiers.enemy_near_vehicle (12"), not close_range (also 12"): a data file that
    makes it 4" gives a target 10" off the close-range +1 and no -1, one 3" off both; the
    --screened refusal names the data's distance."""
    shipped = "enemy_near_vehicle: {inches: 12, cm: 30}"
    text = DATA_FILE.read_text(encoding="utf-8")
    assert text.count(shipped) == 1
    changed = tmp_path / "iron_cross.yaml"
    changed.write_text(text.replace(shipped, "enemy_near_vehicle: {inches: 4, cm: 10}"))
    data = load_data(changed)
    near = data.firing_modifiers.enemy_infantry_near_vehicle.value

    def values(range_inches: float, tables: IronCrossData | None) -> list[int]:
        fire = FireSituation(target="infantry", range_inches=range_inches, firer_is_vehicle=True)
        return [m.value for m in rules.plan_fire(fire, tables).modifiers]

    bonus = data.firing_modifiers.close_range_bonus.value
    assert values(10, None) == [bonus, near]  # shipped: 12" both
    assert values(10, data) == [bonus]
    assert values(3, data) == [bonus, near]
    with pytest.raises(UsageError, match=r'or for a target of infantry within 4"\.$'):
        rules.plan_fire(
            FireSituation(target="infantry", range_inches=10, firer_is_vehicle=True, screened=True),
            data,
        )


def test_a_moving_infantry_detachment_is_told_why_it_takes_no_penalty() -> None:
    """Sheet 003: -2 for a firer that moved, unless it is an infantry detachment."""
    moved = odds.shoot(target="infantry", range_inches=20, firer_moved=True)
    detachment = odds.shoot(
        target="infantry", range_inches=20, firer_moved=True, firer_is_infantry_detachment=True
    )
    assert (moved.details["needs"], detachment.details["needs"]) == (7, 5)
    assert "infantry detachment: no penalty" in detachment.reasons[1].because


def test_the_sheets_own_words_for_a_unit_name_its_row() -> None:
    """The move table says "Heavy Vehicles"; the terrain test's row is "Heavy tank": a
    player who writes the one finds the other."""
    report = odds.terrain_test(unit="heavy vehicle", terrain="very rough")
    assert report.title == "Heavy tank enters very rough terrain"


# -- the command line: refusals told in one paragraph, exit status 2 -------------------
REFUSALS = [
    (
        ["shoot", "-r", "iron-cross", "--range", "20", "--mortar", "--machine-gun"],
        "--mortar and --machine-gun together: the rules give a unit's fire as a mortar's "
        "(it ignores cover) or a machine gun's (2 D10s at infantry), never both; give the "
        "one the firing unit is.",
    ),
    (
        ["activation", "--first", "--command-tokens", "2"],
        "--first with --command-tokens 2: the tokens counted are those spent on the unit "
        "this turn, so its first activation finds none on it; drop --command-tokens for a "
        "first activation, or --first for a further one.",
    ),
    (
        ["shoot", "-r", "iron-cross", "--target", "infantry"],
        "Iron Cross shooting needs --range N, the inches from the firer to its target: "
        'up to 12" gives +1 to hit and two D10s at infantry, so no range is assumed.',
    ),
]


@pytest.mark.parametrize(("args", "message"), REFUSALS, ids=[" ".join(a) for a, _ in REFUSALS])
def test_command_line_refusals(args: list[str], message: str) -> None:
    done = run_cli("odds", *args)
    assert done.returncode == 2, done.stdout
    assert done.stderr == f"kriegsspiel: error: {message}\n"
    assert done.stdout == ""


def test_shooting_needs_a_range() -> None:
    """No range is assumed (12" would be the most favourable case); given, it is used."""
    done = run_cli("odds", "shoot", "-r", "iron-cross", "--range", "12.5", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["title"] == '1 D10 at infantry, 12.5"' and out["needs"] == 5


@pytest.mark.parametrize(
    "name",
    ["medium tank", "Heavy Tank", "light tank", "Medium Vehicles", "half-track", "scout car",
     "wheeled vehicle", "tank", "vehicles"],
)  # fmt: skip
def test_a_vehicle_target_goes_by_the_sheets_vehicle_names(name: str) -> None:
    """Sheet 003 names vehicles in its move table ("Medium Vehicles (most tanks)") and its
    terrain table; those rows' names and the data file's aliases name a vehicle target."""
    report = odds.shoot(target=name, range_inches=20, penetration=10, armour=12)
    assert report.title == '1 D10 at vehicle, 20", penetration 10 vs armour 12'
    assert report.probabilities["p_hit"] == F(6, 10)


def test_vehicle_names_come_from_the_data_file() -> None:
    assert "medium tank" in DATA.vehicle_names() and "Half-tracked vehicle" in DATA.vehicle_names()
    assert "infantry" not in DATA.vehicle_names()  # the infantry move row is not a vehicle's
    renamed = DATA.model_copy(
        update={
            "movement": DATA.movement.model_copy(
                update={
                    "rates": tuple(
                        r.model_copy(update={"aliases": (*r.aliases, "panzer")})
                        for r in DATA.movement.rates
                    )
                }
            )
        }
    )
    plan = rules.plan_fire(FireSituation("panzer", 20, penetration=1, armour=1), renamed)
    assert plan.target == "vehicle"
    with pytest.raises(UnknownNameError, match="Unknown target 'panzer'"):
        rules.plan_fire(FireSituation("panzer", 20, penetration=1, armour=1))


# -- close combat (an assumption: both units fire at point blank) ----------------------
def _fire_per_die(hit: Fraction, further: Fraction) -> list[Fraction]:
    """Markers from one D10 at infantry, by hand: 0 (a miss), 1 (a hit), 2 (a hit and a
    casualty roll that adds one)."""
    return [1 - hit, hit * (1 - further), hit * further]


def _two_dice(per_die: list[Fraction]) -> list[Fraction]:
    out = [F(0)] * 5
    for a, pa in enumerate(per_die):
        for b, pb in enumerate(per_die):
            out[a + b] += pa * pb
    return out


def test_close_combat_is_both_units_fire_at_point_blank() -> None:
    """Infantry assaults infantry in the open, by hand: the assaulter (an infantry
    detachment: no penalty for moving) rolls 2 D10s needing 4+ (5+, close range +1); the
    defender 2 D10s needing 5+ (close range +1, its target moved -1). Each hit is a marker
    and a D6 casualty roll adds one on 4+ (both in the open)."""
    report = odds.close_combat()
    on_defender = _two_dice(_fire_per_die(F(7, 10), F(1, 2)))
    on_attacker = _two_dice(_fire_per_die(F(6, 10), F(1, 2)))
    assert on_defender == [F(9, 100), F(21, 100), F(133, 400), F(49, 200), F(49, 400)]
    assert report.distributions["defender_markers_taken"].as_list() == on_defender
    assert report.distributions["attacker_markers_taken"].as_list() == on_attacker
    draw = sum(d * a for d, a in zip(on_defender, on_attacker, strict=True))
    wins = sum(on_defender[d] * on_attacker[a] for d in range(5) for a in range(d))
    assert report.probabilities["p_draw"] == draw == F(4593, 20000)
    assert report.probabilities["p_attacker_wins"] == wins == F(18277, 40000)
    assert report.probabilities["p_defender_wins"] == 1 - wins - draw
    assert (report.details["attacker_needs"], report.details["defender_needs"]) == (4, 5)
    assert report.question == "close-combat"
    assert report.title == (
        "infantry with 0 morale markers assaults infantry with 0 morale markers in the open"
    )


def test_close_combat_worked_example_with_scripted_dice() -> None:
    """The assaulter's dice first (2 D10s, then a D6 per hit), then the defender's."""
    dice = ScriptedDice([7, 2, 5, 5, 9, 1, 4])
    outcome = rules.close_combat(dice, rules.CloseCombatSituation())
    assert dice.remaining == []
    # assaulter: 7 hits, 2 misses; its casualty roll 5 adds one: 2 markers on the defender
    # defender: 5 and 9 hit; casualty rolls 1 (nothing) and 4 (one more): 3 on the assaulter
    assert outcome == rules.CloseCombatOutcome(attacker_markers=3, defender_markers=2)
    assert outcome.defender_wins and not outcome.attacker_wins and not outcome.draw
    tie = rules.close_combat(ScriptedDice([1, 1, 1, 1]), rules.CloseCombatSituation())
    assert tie.draw and not tie.attacker_wins and not tie.defender_wins  # the defender holds


@pytest.mark.parametrize(
    ("kwargs", "attacker_needs", "defender_needs", "defender_cover_on"),
    [
        ({}, 4, 5, 4),
        ({"attacker": "support squad"}, 6, 5, 4),  # a support squad pays -2 for moving in
        ({"defender_moved": True}, 5, 5, 4),  # the assaulter's target moved -1
        ({"attacker_markers": 2, "defender_markers": 1}, 6, 6, 4),  # -1 a marker on the firer
        ({"defender_cover": "cover"}, 4, 5, 5),  # cover protects the defender only
        ({"defender_cover": "trenches", "defender": "support squad"}, 4, 5, 6),
        ({"attacker_markers": 9}, 10, 5, 4),  # a natural 10 still hits
    ],
)
def test_close_combat_takes_the_sheets_firing_modifiers_and_cover(
    kwargs: dict[str, object], attacker_needs: int, defender_needs: int, defender_cover_on: int
) -> None:
    plan = rules.plan_close_combat(rules.CloseCombatSituation(**kwargs))  # type: ignore[arg-type]
    assert (plan.attack.needs, plan.defence.needs) == (attacker_needs, defender_needs)
    assert plan.attack.further_marker_on == defender_cover_on
    assert plan.defence.further_marker_on == 4  # the assaulter stands in the open
    assert plan.attack.dice == plan.defence.dice == 2  # infantry within 12"
    assert DATA.close_combat.range_inches <= DATA.firing_modifiers.close_range.inches


CLOSE = [
    rules.CloseCombatSituation(),
    rules.CloseCombatSituation("support squad", "infantry", 1, 0, "cover", True),
    rules.CloseCombatSituation("infantry", "support squad", 0, 3, "fortifications"),
]


@pytest.mark.parametrize("situation", CLOSE)
def test_close_combat_exact_equals_brute_force(situation: rules.CloseCombatSituation) -> None:
    """With one D10 a side (a data file whose close-range dice are 1), every die is
    enumerated one by one; with the sheet's two, each side's fire is brute-forced alone and
    the two combined, as both fire at once."""
    one_die = DATA.model_copy(
        update={"to_hit": DATA.to_hit.model_copy(update={"dice_at_infantry_close": 1})}
    )
    small = lambda d: rules.close_combat(d, situation, one_die)  # noqa: E731
    assert exact(small) == brute_force(small)
    plan = rules.plan_close_combat(situation)
    attack = brute_force(lambda d: rules.resolve_fire(d, plan.attack))
    defence = brute_force(lambda d: rules.resolve_fire(d, plan.defence))
    both = attack.bind(
        lambda a: defence.map(
            lambda b: rules.CloseCombatOutcome(b.morale_markers, a.morale_markers)
        )
    )
    assert exact(lambda d: rules.close_combat(d, situation)) == both
    report = odds.close_combat(
        attacker=situation.attacker,
        defender=situation.defender,
        attacker_markers=situation.attacker_markers,
        defender_markers=situation.defender_markers,
        defender_cover=situation.defender_cover,
        defender_moved=situation.defender_moved,
    )
    assert report.probabilities["p_attacker_wins"] == both.probability(lambda o: o.attacker_wins)
    assert report.distributions["attacker_markers_taken"] == both.map(lambda o: o.attacker_markers)


@pytest.mark.parametrize("situation", CLOSE[:2])
def test_close_combat_monte_carlo(situation: rules.CloseCombatSituation) -> None:
    n = 20_000
    dice = RandomDice(19440606)
    samples = [rules.close_combat(dice, situation) for _ in range(n)]
    dist = exact(lambda d: rules.close_combat(d, situation))
    for won in ("attacker_wins", "defender_wins", "draw"):
        p = dist.probability(lambda o, w=won: bool(getattr(o, w)))  # type: ignore[misc]
        assert within_4_se(p, sum(bool(getattr(o, won)) for o in samples), n), won


@settings(max_examples=40)
@given(
    st.sampled_from(["infantry", "support squad"]),
    st.sampled_from(["infantry", "support squad"]),
    st.integers(0, 8),
    st.integers(0, 8),
    st.sampled_from(["open", "cover", "fortifications"]),
    st.booleans(),
)
def test_close_combat_odds_add_up_and_markers_never_help(
    attacker: str, defender: str, a_markers: int, d_markers: int, cover: str, moved: bool
) -> None:
    def report(extra_a: int = 0, extra_d: int = 0) -> dict[str, Fraction]:
        return odds.close_combat(
            attacker=attacker,
            defender=defender,
            attacker_markers=a_markers + extra_a,
            defender_markers=d_markers + extra_d,
            defender_cover=cover,
            defender_moved=moved,
        ).probabilities

    p = report()
    assert p["p_attacker_wins"] + p["p_defender_wins"] + p["p_draw"] == 1
    assert report(extra_a=1)["p_attacker_wins"] <= p["p_attacker_wins"]
    assert report(extra_d=1)["p_defender_wins"] <= p["p_defender_wins"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"attacker": "medium tank"}, "attacker='medium tank': close combat odds are for"),
        ({"defender": "vehicle"}, "defender='vehicle': close combat odds are for infantry"),
        ({"attacker_markers": -1}, "attacker_markers must be a whole number 0 or more"),
        ({"defender_markers": True}, "defender_markers must be a whole number"),
        ({"defender_moved": "yes"}, "defender_moved is True or False"),
    ],
)
def test_bad_close_combat_input(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(UsageError, match="^" + re.escape(message)) as err:
        odds.close_combat(**kwargs)  # type: ignore[arg-type]
    assert "--" not in str(err.value)


def test_close_combat_unknown_names_suggest_close_matches() -> None:
    with pytest.raises(UnknownNameError, match="Known defenders: infantry, support squad"):
        odds.close_combat(defender="cavalry")
    with pytest.raises(UnknownNameError, match=r"\(did you mean 'fortifications'\?\)\."):
        odds.close_combat(defender_cover="fortification")


CLOSE_COMBAT_REFUSALS = [
    (
        ["assault", "-r", "iron-cross", "--attackers", "5"],
        "'odds assault' is for konflikt47, bolt-action-1; Iron Cross's close combat has its "
        "own options: see 'kriegsspiel odds close-combat --help' (--attacker, --defender, "
        "--attacker-markers, --defender-markers, --defender-cover, --defender-moved).",
    ),
    (
        ["close-combat", "-r", "konflikt47"],
        "'odds close-combat' is for iron-cross; Konflikt '47 and Bolt Action fight close "
        "quarters: see 'kriegsspiel odds assault'.",
    ),
    (
        ["close-combat", "-r", "house-clearing"],
        "'odds close-combat' is for iron-cross; for house-clearing it is not covered by this "
        "program.",
    ),
    (
        ["close-combat", "--attacker-quality", "veteran", "--defender-pins", "1"],
        "--attacker-quality, --defender-pins are for 'odds assault' (Konflikt '47, Bolt "
        "Action); Iron Cross's close combat takes --attacker, --defender, --attacker-markers, "
        "--defender-markers, --defender-cover and --defender-moved.",
    ),
    (
        ["close-combat", "--defender-mod"],
        "No such option: --defender-mod (did you mean '--defender-moved'?). See 'kriegsspiel "
        "odds close-combat --help'.",
    ),
    (
        ["close-combat", "stray"],
        "Got unexpected extra argument(s) (stray). See 'kriegsspiel odds close-combat --help'.",
    ),
    (
        ["close-combat", "--attacker", "tank"],
        "--attacker 'tank': close combat odds are for infantry and support squads; a "
        "vehicle's fire, or fire at one, is 'kriegsspiel odds shoot -r iron-cross'.",
    ),
    (
        ["close-combat", "--defender-cover", "bunkr"],
        "--defender-cover 'bunkr': Unknown cover 'bunkr' (did you mean 'fortifications'?).",
    ),
    (
        ["morale", "-r", "iron-cross"],
        "'odds morale' is for konflikt47, bolt-action-1; for iron-cross it is not covered by "
        "this program.",
    ),
]


@pytest.mark.parametrize(
    ("args", "message"), CLOSE_COMBAT_REFUSALS, ids=[" ".join(a) for a, _ in CLOSE_COMBAT_REFUSALS]
)
def test_close_combat_command_line_refusals(args: list[str], message: str) -> None:
    done = run_cli("odds", *args)
    assert done.returncode == 2, done.stdout
    assert done.stderr == f"kriegsspiel: error: {message}\n"
    assert done.stdout == ""


def test_close_combat_json() -> None:
    done = run_cli(
        "odds", "close-combat", "--attacker", "support squad", "--defender-cover", "cover",
        "--defender-markers", "1", "--defender-moved", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["question"] == "close-combat" and out["ruleset"] == "iron-cross"
    assert out["title"] == (
        "support squad with 0 morale markers assaults infantry with 1 morale marker in cover"
    )
    assert (out["attacker_needs"], out["defender_needs"], out["defender_cover"]) == (7, 6, "cover")
    assert math.isclose(out["p_attacker_wins"] + out["p_defender_wins"] + out["p_draw"], 1)
    for key in ("defender_markers_taken", "attacker_markers_taken"):
        assert math.isclose(sum(out[key]["distribution"]), 1)
    topics = [r["topic"] for r in out["reasoning"]]
    assert topics[0] == "close combat" and "assaulter's fire" in topics and topics[-1] == "winner"
    assert "assumption" in out["reasoning"][0]["because"]
