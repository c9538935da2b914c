"""House Clearing (sheet 004): golden data, the worked firefight, oracles, assumptions."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import copy_of, run_cli, within_4_se
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from kriegsspiel.core.names import a_or_an
from kriegsspiel.core.procedure import RandomDice, ScriptedDice, brute_force, exact
from kriegsspiel.core.report import OddsReport
from kriegsspiel.errors import DataFileError, UnknownNameError, UsageError
from kriegsspiel.rulesets.house_clearing import odds, rules
from kriegsspiel.rulesets.house_clearing.data import (
    DATA_FILE,
    SHEET,
    HouseClearingData,
    load_data,
    read_data,
)
from kriegsspiel.rulesets.house_clearing.rules import ShotOutcome, Status

F = Fraction
DATA = load_data()


# -- golden: every row of the sheet read back ------------------------------------------
def test_every_table_names_its_source() -> None:
    """The sheet or an assumption: never "house rule", which a designer's copy may say."""
    assert DATA.ruleset == "house-clearing"
    for name in HouseClearingData.model_fields.keys() - {"ruleset"}:
        source = getattr(DATA, name).source
        assert source == SHEET or source.startswith("assumption"), name


def test_figures() -> None:
    officer, other = DATA.figures.officer, DATA.figures.other
    assert officer.names == ("Officers", "NCOs", "Rambos")
    assert (officer.initiative, officer.weapon_skill_dice, officer.weapon_skill_multiplier) == (
        "D3+1",
        "4D6",
        10,
    )
    assert (other.initiative, other.weapon_skill_dice, other.weapon_skill_multiplier) == (
        "D3",
        "3D6",
        10,
    )


def test_sequence_moves_1_to_4_then_fires_4_to_0() -> None:
    steps = [(s.phase, s.initiative) for s in rules.turn_sequence()]
    assert steps == [("move", i) for i in (1, 2, 3, 4)] + [("fire", i) for i in (4, 3, 2, 1, 0)]
    assert rules.acts_in("move", 0) is None  # initiative 0 cannot move
    assert rules.acts_in("fire", 0) == 8
    assert rules.acts_in("fire", 4) < rules.acts_in("fire", 1)  # type: ignore[operator]
    assert rules.acts_in("fire", -1) is None


def test_movement() -> None:
    assert rules.move_rate("open") == 9
    assert rules.move_rate("Roads") == 9
    assert rules.move_rate("on a tile") == 6
    assert rules.move_rate("in buildings") == 3
    assert DATA.movement.wall_climb.height == "chest"
    assert rules.wall_climb_cost("open") == 4.5


def test_range_bands() -> None:
    assert [(b.name, b.divisor) for b in DATA.range_bands.bands] == [
        ("Full", 1),
        ("Half", 2),
        ("Quarter", 4),
        ("Eighth", 8),
        ("Sixteenth", 16),
    ]


@pytest.mark.parametrize(
    ("weapon", "edges", "automatic"),
    [
        ("Pistol", (1, 2, 3, 4, 5), False),
        ("SMG", (2, 4, 6, 8, 10), True),
        ("Carbine", (4, 8, 12, 16, 20), False),
        ("Rifle", (5, 10, 15, 20, 25), False),
        ("Box LMG", (4, 8, 12, 16, 20), True),
        ("Belt LMG", (5, 10, 15, 20, 25), True),
    ],
)
def test_weapon_rows(weapon: str, edges: tuple[int, ...], automatic: bool) -> None:
    _, arm, note = rules.find_weapon(weapon)
    assert note == ""
    assert tuple(b.farthest for b in arm.bands) == edges
    assert arm.automatic is automatic
    assert arm.max_range == edges[-1]


def test_weapon_notes() -> None:
    assert rules.find_weapon("assault rifle")[1].name == "Carbine"
    assert rules.find_weapon("assault rifle", automatic=True)[1].name == "SMG"
    belt = DATA.range_bands.weapons[-1]
    assert (belt.crew_needed, belt.short_crewed_fires_as) == (2, "Box LMG")
    assert rules.find_weapon("belt LMG", crew=1)[1].name == "Box LMG"
    assert rules.find_weapon("belt LMG", crew=2)[1].name == "Belt LMG"
    fire = DATA.automatic_fire
    assert (fire.cone_width_fraction_of_range, fire.chance_divisor) == (0.25, 2)
    assert rules.cone_width(4) == 1  # "A SMG on automatic at 4" range has a beaten zone 1" wide"


def test_to_hit_cover_and_damage_tables() -> None:
    assert (DATA.to_hit.die, DATA.to_hit.automatic_chance_per) == (100, 100)
    assert DATA.cover.die == 6
    assert [(v.fifths, v.shows) for v in DATA.cover.visible] == [
        (1, "Head"),
        (2, "Head and chest"),
        (3, "Head, chest and stomach"),
        (4, "Head, chest, stomach and groin"),
        (5, "Head to boots"),
    ]
    assert (DATA.damage.initiative_lost_per_hit, DATA.damage.can_fire_not_move_at) == ("D3", 0)


@pytest.mark.parametrize("visible", [1, 2, 3, 4, 5])
def test_cover_roll_hits_on_the_visible_fifths_or_less(visible: int) -> None:
    """The worked example's 2/5 target is hit on 2 or less on a D6; so a fully visible
    one is hit on 5 or less, and a 6 misses whatever shows (our reading)."""
    r = odds.shoot(weapon="rifle", range_inches=1, weapon_skill=100, visible=visible)
    assert r.details["automatic_chances"] == 1 and r.details["remainder"] == 0
    assert r.probabilities["p_hit"] == F(visible, 6)


def test_status_by_initiative() -> None:
    assert rules.status(3) is Status.FIT
    assert rules.status(0) is Status.CAN_FIRE_NOT_MOVE
    assert rules.status(0) == "can fire but not move"
    assert rules.status(-1) is Status.DEAD_OR_SERIOUSLY_WOUNDED


# -- the sheet's worked example --------------------------------------------------------
def test_worked_example_braun_and_doxey() -> None:
    braun_initiative, doxey_initiative = 2, 2
    # same initiative: they fire at the same time
    assert rules.acts_in("fire", braun_initiative) == rules.acts_in("fire", doxey_initiative)

    # Braun: rifle, skill 110, at 7"; Doxey leans out of a doorway showing 3/5
    braun = rules.plan_shot(weapon="rifle", range_inches=7, weapon_skill=110, visible=3)
    assert (braun.band.name, braun.band.divisor, braun.chance) == ("Half", 2, 55)
    dice = ScriptedDice([78])
    braun_shot = rules.shoot(dice, braun)
    assert braun_shot == ShotOutcome(chances=0, hits=0, initiative_lost=0)  # 78 > 55: miss
    assert dice.used == [78] and dice.remaining == []

    # Doxey: SMG single shot, skill 160, at 7"; Braun in a window showing 2/5
    doxey = rules.plan_shot(weapon="SMG", range_inches=7, weapon_skill=160, visible=2)
    assert (doxey.band.name, doxey.band.divisor, doxey.chance) == ("Eighth", 8, 20)
    dice = ScriptedDice([7, 1, 2])  # D100 07: a chance; D6 1 (needs 2 or less): hit; D3 2
    doxey_shot = rules.shoot(dice, doxey)
    assert doxey_shot == ShotOutcome(chances=1, hits=1, initiative_lost=2)
    assert dice.remaining == []

    braun_after = rules.take_hits(braun_initiative, doxey_shot.initiative_lost)
    assert braun_after == 0
    assert rules.status(braun_after) is Status.CAN_FIRE_NOT_MOVE
    assert rules.take_hits(doxey_initiative, braun_shot.initiative_lost) == 2
    assert rules.status(2) is Status.FIT

    report = odds.shoot(
        weapon="SMG", range_inches=7, weapon_skill=160, visible=2, target_initiative=2
    )
    assert report.details["chance"] == 20
    assert report.reasons[1].topic == "score needed" and report.reasons[1].result == "20"
    assert report.reasons[1].because == (
        'weapon skill 160 ÷ 8 (eighth range band, over 6" to 8"); the score or less needed on '
        "a D100 for a chance of a hit (sheet)"
    )
    assert report.reasons[3].result == "needs 2 or less on a D6"
    assert report.probabilities["p_target_down"] == F(20, 100) * F(2, 6) * F(1, 3)
    braun_report = odds.shoot(weapon="rifle", range_inches=7, weapon_skill=110, visible=3)
    assert braun_report.reasons[1].result == "55"
    assert braun_report.reasons[1].because.startswith(
        'weapon skill 110 ÷ 2 (half range band, over 5" to 10"); the score or less needed'
    )


# -- hand-computed odds ----------------------------------------------------------------
def test_rifle_at_13_inches_skill_120() -> None:
    r = odds.shoot(weapon="rifle", range_inches=13, weapon_skill=120, visible=5)
    assert r.details["chance"] == 30
    assert r.probabilities == {"p_hit": F(3, 10) * F(5, 6), "p_chance": F(3, 10)}


def test_band_edges_belong_to_the_nearer_band() -> None:
    assert (
        rules.plan_shot(weapon="rifle", range_inches=5, weapon_skill=100, visible=5).chance == 100
    )
    assert (
        rules.plan_shot(weapon="rifle", range_inches=5.1, weapon_skill=100, visible=5).chance == 50
    )
    assert rules.plan_shot(weapon="pistol", range_inches=0, weapon_skill=90, visible=5).chance == 90


def test_fractional_chance_rounds_down() -> None:
    assert DATA.rounding.fractional_chance == "down"
    plan = rules.plan_shot(weapon="rifle", range_inches=17, weapon_skill=130, visible=5)
    assert plan.unrounded_chance == F(65, 4)
    assert plan.chance == 16
    r = odds.shoot(weapon="rifle", range_inches=17, weapon_skill=130, visible=5)
    assert "= 16.25, rounded down; the score or less needed" in r.reasons[1].because


def test_automatic_halves_chance() -> None:
    r = odds.shoot(weapon="SMG", range_inches=4, weapon_skill=160, visible=5, automatic=True)
    assert r.details["chance"] == 40
    assert r.details["cone_width_inches"] == 1
    single = odds.shoot(weapon="SMG", range_inches=4, weapon_skill=160, visible=5)
    assert single.details["chance"] == 80


def test_assault_rifle_and_short_crewed_belt_lmg() -> None:
    single = odds.shoot(weapon="assault rifle", range_inches=10, weapon_skill=120, visible=5)
    assert (single.details["fires_as"], single.details["chance"]) == ("Carbine", 30)
    auto = odds.shoot(
        weapon="assault rifle", range_inches=10, weapon_skill=120, visible=5, automatic=True
    )
    assert (auto.details["fires_as"], auto.details["chance"]) == ("SMG", 3)  # 120/16/2 = 3.75
    crewed = odds.shoot(weapon="belt lmg", range_inches=10, weapon_skill=120, visible=5)
    short = odds.shoot(weapon="belt lmg", range_inches=10, weapon_skill=120, visible=5, crew=1)
    assert (crewed.details["chance"], short.details["chance"]) == (60, 30)
    assert short.reasons[0].because == "a belt LMG with 1 crew (it needs 2) fires as a box LMG"
    assert auto.reasons[0].because == "an assault rifle on automatic fires as an SMG"
    assert single.reasons[0].because == "an assault rifle on single shot fires as a carbine"


def test_complete_hundreds_are_automatic_chances() -> None:
    plan = rules.plan_shot(weapon="rifle", range_inches=8, weapon_skill=200, visible=3)
    assert (plan.chance, plan.automatic_chances, plan.remainder) == (100, 1, 0)
    dice = ScriptedDice([2, 3])  # no D100 is thrown: D6 2 hits, D3 3
    assert rules.shoot(dice, plan) == ShotOutcome(1, 1, 3)
    r = odds.shoot(weapon="rifle", range_inches=5, weapon_skill=240, visible=5)
    assert (r.details["automatic_chances"], r.details["remainder"]) == (2, 40)
    assert r.probabilities["p_chance"] == 1
    assert r.probabilities["p_hit"] == 1 - F(6, 10) * F(1, 6) ** 2 - F(4, 10) * F(1, 6) ** 3


def test_the_automatic_hit_is_read_as_a_chance_that_still_rolls_for_cover() -> None:
    """Sheet 004, line 15: "any complete 100's count as an automatic hit". Read with the
    worked example (a D100 success is "a chance of a hit", decided by the cover D6), each
    100 is a chance that still rolls for cover: skill 200 at 5" with a rifle (full range)
    against a head only is 1 - (5/6)^2, not the 2 certain hits of the literal words."""
    r = odds.shoot(weapon="rifle", range_inches=5, weapon_skill=200, visible=1)
    assert (r.details["automatic_chances"], r.details["remainder"]) == (2, 0)
    assert r.probabilities["p_hit"] == F(11, 36)
    assert r.distributions["hits"].as_list() == [F(25, 36), F(10, 36), F(1, 36)]
    said = {reason.topic: reason for reason in r.reasons}
    assert said["chances of a hit"].result == "2 automatic"
    assert "still decided by the cover roll (assumption" in said["chances of a hit"].because


def test_the_score_needed_and_the_chance_of_a_hit_are_told_apart() -> None:
    """The step is the D100 score (skill by the range band, 240 here: 2 complete 100s and
    40); the table's row is the chance of at least one chance of a hit."""
    r = odds.shoot(
        weapon="pistol", range_inches=0.5, weapon_skill=240, visible=1, target_initiative=4
    )
    step = next(reason for reason in r.reasons if reason.topic == "score needed")
    assert step.result == "240"
    assert step.because == (
        'weapon skill 240 ÷ 1 (full range band, up to 1"); the score or less needed on a D100 '
        "for a chance of a hit (sheet)"
    )
    assert not any(reason.topic == "chance" for reason in r.reasons)
    assert r.labels == {"p_chance": "at least one chance of a hit"}
    assert r.probabilities["p_chance"] == 1 and r.probabilities["p_hit"] == F(19, 54)
    out = r.to_json()  # the JSON keys stay: chance is the score, p_chance the probability
    assert out["chance"] == 240 and out["p_chance"] == 1.0
    half = odds.shoot(weapon="SMG", range_inches=7, weapon_skill=130, visible=2)
    assert next(x for x in half.reasons if x.topic == "score needed").because.startswith(
        'weapon skill 130 ÷ 8 (eighth range band, over 6" to 8") = 16.25, rounded down; the '
        "score or less"
    )


def test_each_hit_costs_its_own_d3() -> None:
    """Two hits cost two D3 (sheet: 'lose D3 initiative for each hit'), not one D3 a shot:
    skill 200 at 1" is two sure chances, each a hit on 5 in 6 (5/5 visible); a target on
    initiative 4 dies only from 5 or more lost, which two D3 make 3 times in 9."""
    r = odds.shoot(
        weapon="pistol", range_inches=1, weapon_skill=200, visible=5, target_initiative=4
    )
    assert r.probabilities["p_target_dead"] == F(5, 6) ** 2 * F(3, 9)
    lost = r.distributions["initiative_lost"].as_list()
    assert len(lost) == 7 and lost[6] == F(5, 6) ** 2 * F(1, 9)  # 6 lost: 3 and 3


def test_target_down_and_dead() -> None:
    r = odds.shoot(
        weapon="pistol", range_inches=1, weapon_skill=100, visible=5, target_initiative=2
    )
    assert r.probabilities["p_target_down"] == F(5, 6) * F(1, 3)
    assert r.probabilities["p_target_dead"] == F(5, 6) * F(1, 3)
    assert r.distributions["initiative_lost"].as_list() == [F(1, 6)] + [F(5, 18)] * 3
    # a target already on 0 is down before the shot: only whether it dies is asked
    at_zero = odds.shoot(
        weapon="pistol", range_inches=1, weapon_skill=100, visible=5, target_initiative=0
    )
    assert "p_target_down" not in at_zero.probabilities
    assert at_zero.probabilities["p_target_dead"] == F(5, 6)


def test_figure_odds() -> None:
    officer = odds.figure(True)
    assert officer.distributions["initiative"].as_list() == [0, 0, F(1, 3), F(1, 3), F(1, 3)]
    table = officer.details["weapon_skill"]
    assert (min(table), max(table)) == (40, 240)
    assert officer.details["weapon_skill_mean"] == 140
    assert table[140] == pytest.approx(146 / 1296)
    other = odds.figure(False)
    assert other.distributions["initiative"].as_list() == [0, F(1, 3), F(1, 3), F(1, 3)]
    assert (min(other.details["weapon_skill"]), max(other.details["weapon_skill"])) == (30, 180)
    assert other.details["weapon_skill_mean"] == 105
    # the weapon skill's chances as fractions too (3D6 x 10: 100 and 110 are 27/216 each)
    fractions = other.details["weapon_skill_exact"]
    assert fractions[100] == fractions[110] == "1/8" and fractions[30] == "1/216"
    assert sum(F(p) for p in fractions.values()) == 1
    assert set(fractions) == set(other.details["weapon_skill"])


# -- oracles ---------------------------------------------------------------------------
SMALL = [
    dict(weapon="rifle", range_inches=7, weapon_skill=110, visible=3),
    dict(weapon="SMG", range_inches=3, weapon_skill=90, visible=1, automatic=True),
    dict(weapon="pistol", range_inches=1, weapon_skill=100, visible=4),
]


@pytest.mark.parametrize("shot", SMALL)
def test_shoot_exact_equals_brute_force_and_odds(shot: dict[str, object]) -> None:
    plan = rules.plan_shot(**shot)  # type: ignore[arg-type]
    dist = exact(lambda d: rules.shoot(d, plan))
    assert dist == brute_force(lambda d: rules.shoot(d, plan))
    report = odds.shoot(**shot)  # type: ignore[arg-type]
    assert report.distributions["hits"] == dist.map(lambda o: o.hits)
    assert report.distributions["initiative_lost"] == dist.map(lambda o: o.initiative_lost)
    assert report.probabilities["p_chance"] == dist.probability(lambda o: o.chances >= 1)


def test_shoot_with_two_chances_exact_equals_odds() -> None:
    plan = rules.plan_shot(weapon="carbine", range_inches=3, weapon_skill=130, visible=2)
    dist = exact(lambda d: rules.shoot(d, plan))
    chances, hits, lost = odds.shot_distributions(plan)
    assert chances == dist.map(lambda o: o.chances)
    assert hits == dist.map(lambda o: o.hits)
    assert lost == dist.map(lambda o: o.initiative_lost)


@pytest.mark.parametrize(
    "shot", [SMALL[0], dict(weapon="rifle", range_inches=3, weapon_skill=150, visible=3)]
)
def test_shoot_monte_carlo(shot: dict[str, object]) -> None:
    n = 20_000
    dice = RandomDice(1944)
    plan = rules.plan_shot(**shot)  # type: ignore[arg-type]
    samples = [rules.shoot(dice, plan) for _ in range(n)]
    report = odds.shoot(**shot, target_initiative=2)  # type: ignore[arg-type]
    p = report.probabilities
    assert within_4_se(p["p_hit"], sum(s.hits >= 1 for s in samples), n)
    assert within_4_se(p["p_chance"], sum(s.chances >= 1 for s in samples), n)
    assert within_4_se(p["p_target_down"], sum(s.initiative_lost == 2 for s in samples), n)
    assert within_4_se(p["p_target_dead"], sum(s.initiative_lost > 2 for s in samples), n)
    lost = report.distributions["initiative_lost"]
    mean = sum(s.initiative_lost for s in samples) / n
    assert abs(mean - float(lost.mean())) <= 4 * math.sqrt(float(lost.variance()) / n)


@pytest.mark.parametrize("officer", [False, True])
def test_figure_exact_equals_brute_force(officer: bool) -> None:
    dist = exact(lambda d: rules.roll_figure(d, officer))
    assert dist == brute_force(lambda d: rules.roll_figure(d, officer))


def test_figure_monte_carlo() -> None:
    n = 20_000
    dice = RandomDice(5)
    figures = [rules.roll_figure(dice, True) for _ in range(n)]
    skill = exact(lambda d: rules.roll_figure(d, True)).map(lambda f: f.weapon_skill)
    mean = sum(f.weapon_skill for f in figures) / n
    assert abs(mean - float(skill.mean())) <= 4 * math.sqrt(float(skill.variance()) / n)
    assert within_4_se(F(1, 3), sum(f.initiative == 4 for f in figures), n)


# -- properties ------------------------------------------------------------------------
WEAPONS = ["pistol", "SMG", "carbine", "rifle", "box LMG", "belt LMG", "assault rifle"]
AUTOMATIC = {"SMG", "box LMG", "belt LMG", "assault rifle"}
MAX_RANGE = {"pistol": 5, "SMG": 10, "carbine": 20, "rifle": 25, "box LMG": 20, "belt LMG": 25}


def _max_range(weapon: str, automatic: bool) -> int:
    if weapon == "assault rifle":
        return MAX_RANGE["SMG" if automatic else "carbine"]
    return MAX_RANGE[weapon]


shots: st.SearchStrategy[dict[str, object]] = st.builds(
    dict,
    weapon=st.sampled_from(WEAPONS),
    range_fraction=st.floats(0, 1),
    weapon_skill=st.integers(3, 24).map(lambda n: n * 10),  # 3D6x10 or 4D6x10
    visible=st.integers(1, 5),
    automatic=st.booleans(),
)


def _shoot(shot: dict[str, object], **change: object) -> OddsReport:
    args = {**shot, **change}
    weapon, automatic = str(args["weapon"]), bool(args["automatic"]) and args["weapon"] in AUTOMATIC
    fraction = float(args.pop("range_fraction"))  # type: ignore[arg-type]
    args["automatic"] = automatic
    args.setdefault("range_inches", fraction * _max_range(weapon, automatic))
    return odds.shoot(**args)  # type: ignore[arg-type]


@settings(max_examples=40)
@given(shots, st.integers(0, 4))
def test_shot_probabilities_are_probabilities(shot: dict[str, object], initiative: int) -> None:
    r = _shoot(shot, target_initiative=initiative)
    assert all(0 <= p <= 1 for p in r.probabilities.values())
    assert r.probabilities["p_hit"] <= r.probabilities["p_chance"]
    for dist in r.distributions.values():
        assert sum(dist.as_list()) == 1


@settings(max_examples=30)
@given(shots, st.floats(0, 1))
def test_p_hit_never_rises_with_range(shot: dict[str, object], other: float) -> None:
    near, far = sorted([float(shot["range_fraction"]), other])  # type: ignore[arg-type]
    assert (
        _shoot(shot, range_fraction=far).probabilities["p_hit"]
        <= _shoot(shot, range_fraction=near).probabilities["p_hit"]
    )


@settings(max_examples=30)
@given(shots, st.integers(1, 5))
def test_p_hit_never_falls_with_visibility(shot: dict[str, object], other: int) -> None:
    low, high = sorted([int(shot["visible"]), other])  # type: ignore[call-overload]
    assert (
        _shoot(shot, visible=low).probabilities["p_hit"]
        <= _shoot(shot, visible=high).probabilities["p_hit"]
    )


@settings(max_examples=30)
@given(shots, st.integers(3, 24).map(lambda n: n * 10))
def test_p_hit_never_falls_with_weapon_skill(shot: dict[str, object], other: int) -> None:
    low, high = sorted([int(shot["weapon_skill"]), other])  # type: ignore[call-overload]
    assume(low != high)
    assert (
        _shoot(shot, weapon_skill=low).probabilities["p_hit"]
        <= _shoot(shot, weapon_skill=high).probabilities["p_hit"]
    )


# -- bad input -------------------------------------------------------------------------
def test_unknown_weapon_lists_close_matches() -> None:
    with pytest.raises(UnknownNameError) as err:
        odds.shoot(weapon="rilfe", range_inches=5, weapon_skill=100, visible=5)
    assert "Rifle" in err.value.close_matches
    assert "(did you mean 'Rifle'?)" in str(err.value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"range_inches": 26}, 'range_inches=26: out of range, a rifle reaches 25" at most'),
        ({"range_inches": -1}, "^range_inches must be a distance of 0 or more inches"),
        ({"visible": 0}, "^visible must be 1 to 5 fifths"),
        ({"visible": 6}, "^visible must be 1 to 5 fifths"),
        ({"weapon_skill": -10}, "^weapon_skill must be a whole number 30 or more"),
        ({"weapon_skill": 35}, "^weapon_skill=35: a figure's weapon skill is 4D6x10 or 3D6x10"),
        ({"automatic": True}, "the rifle fires single shot only"),
        ({"target_initiative": -1}, "^target_initiative must be 0 to 4"),
        ({"target_initiative": 5}, "no figure starts with more than 4"),
        ({"weapon_skill": 241}, "a multiple of 10 from 30 to 240"),
        ({"weapon_skill": 250}, "a multiple of 10 from 30 to 240"),
        ({"weapon_skill": 20}, "a whole number 30 or more"),
        ({"weapon_skill": 115}, "a multiple of 10 from 30 to 240"),
        ({"weapon": "belt LMG", "crew": 0}, "^crew must be a whole number 1 or more"),
        ({"crew": 1}, "^crew is for a weapon .* the rifle is fired by one figure: drop crew\\.$"),
        ({"weapon": "belt LMG", "crew": 1, "range_inches": 22}, "as a box LMG, which reaches 20"),
    ],
)
def test_bad_shot_input(change: dict[str, object], message: str) -> None:
    args: dict[str, object] = {
        "weapon": "rifle",
        "range_inches": 10,
        "weapon_skill": 100,
        "visible": 3,
        **change,
    }
    with pytest.raises(UsageError, match=message) as err:
        odds.shoot(**args)  # type: ignore[arg-type]
    assert "--" not in str(err.value)  # (the Python caller's words, not the command line's)


@pytest.mark.parametrize("weapon", ["pistol", "carbine", "rifle"])
def test_single_shot_weapons_cannot_fire_automatic(weapon: str) -> None:
    with pytest.raises(UsageError, match="fires single shot only"):
        odds.shoot(weapon=weapon, range_inches=1, weapon_skill=100, visible=5, automatic=True)


def test_malformed_data_file_names_line_and_field(tmp_path: Path) -> None:
    text = DATA_FILE.read_text(encoding="utf-8")
    lines = text.splitlines()
    row = lines.index("    - name: Rifle") + 1
    assert lines[row].strip() == "edges: [5, 10, 15, 20, 25]"
    lines[row] = "      edges: [5, 10, fifteen, 20, 25]"
    bad = tmp_path / "house_clearing.yaml"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        load_data(bad)
    assert f"line {row + 1}, field range_bands.weapons.3.edges.2" in str(err.value)


def test_the_json_question_is_the_commands_name_and_the_title_says_it_in_words() -> None:
    shot = odds.shoot(weapon="rifle", range_inches=13, weapon_skill=120, visible=5).to_json()
    assert shot["question"] == "shoot" and "weapon skill 120" in shot["title"]
    rolled = odds.figure(True).to_json()
    assert rolled["question"] == "figure" and "officer" in rolled["title"]


@pytest.mark.parametrize(
    ("weapon", "row"), [("MG42", "Belt LMG"), ("mg 34", "Belt LMG"), ("Bren", "Box LMG")]
)
def test_a_machine_gun_by_its_name_finds_its_feed(weapon: str, row: str) -> None:
    """An MG 42 or MG 34 is belt-fed, a Bren box-fed: named so, each finds its row."""
    report = odds.shoot(weapon=weapon, range_inches=3, weapon_skill=100, visible=5)
    assert report.title.startswith(f"{row} (single shot)")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["-w", "assault rifle", "--auto", "--range", "17"],
            '--range 17: out of range, an assault rifle on automatic fires as an SMG, which '
            'reaches 10" at most (sixteenth range).',
        ),
        (
            ["-w", "belt lmg", "--crew", "1", "--range", "25"],
            "--range 25: out of range, a belt LMG with 1 crew (it needs 2) fires as a box LMG, "
            'which reaches 20" at most (sixteenth range).',
        ),
        (["-w", "smg", "--range", "11"], '--range 11: out of range, an SMG reaches 10" at most (sixteenth range).'),
        (["-w", "box lmg", "--range", "20.5"], '--range 20.5: out of range, a box LMG reaches 20" at most (sixteenth range).'),
        (
            ["-w", "smg", "--crew", "1", "--range", "5"],
            "--crew is for a weapon that needs a crew (a belt-fed LMG); the SMG is fired by one "
            "figure: drop --crew.",
        ),
    ],
)  # fmt: skip
def test_out_of_range_says_which_row_applies_and_why(args: list[str], message: str) -> None:
    """Sheet 004, line 14: an assault rifle on automatic fires as an SMG, a belt-fed LMG
    without two crew as a box LMG; out of range, the message says so, and says "an SMG"."""
    done = run_cli("odds", "shoot", "-r", "house-clearing", "--weapon-skill", "120",
                   "--visible", "3", *args)  # fmt: skip
    assert done.returncode == 2, done.stdout
    assert done.stderr == f"kriegsspiel: error: {message}\n" and done.stdout == ""


@pytest.mark.parametrize(
    ("noun", "said"),
    [("SMG", "an SMG"), ("LMG", "an LMG"), ("MG42", "an MG42"), ("BAR", "a BAR"),
     ("box LMG", "a box LMG"), ("assault rifle", "an assault rifle"), ("rifle", "a rifle"),
     ("Fighter-bomber", "a Fighter-bomber"), ("Heavy howitzer", "a Heavy howitzer"),
     ("MMG", "an MMG"), ("HMG", "an HMG"), ("PIAT", "a PIAT")],
)  # fmt: skip
def test_weapon_names_take_a_or_an_by_sound(noun: str, said: str) -> None:
    assert a_or_an(noun) == said


# -- the cover roll's two readings (docs/rules/house-clearing.md, "Cover roll") ----------
def _house_rules(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of the shipped House Clearing data with ``old`` (found once) made ``new``: a
    rules file, as ``odds shoot --rules-file`` takes it."""
    text = DATA_FILE.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "house.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


ROLL_AGAIN = ("above_the_fifths: miss ", "above_the_fifths: roll again ")


def test_the_shipped_cover_roll_misses_on_a_six() -> None:
    """The worked example's reading: a 6 misses, so 5/5 is hit 5 times in 6 and the sheet's
    rifle at 13" with skill 120 (a 30% chance of a hit) hits a whole figure 25% of the time."""
    assert DATA.cover_roll.above_the_fifths == "miss"
    assert DATA.cover_roll.source.startswith("assumption")
    cover = rules.cover_roll()
    assert (cover.die, cover.fifths, cover.roll_again, cover.effective_die) == (6, 5, False, 6)
    assert all(cover.needs_roll(v) for v in range(1, 6))
    r = odds.shoot(weapon="rifle", range_inches=13, weapon_skill=120, visible=5)
    assert r.probabilities["p_hit"] == F(1, 4)
    assert not rules.chance_hits(ScriptedDice([6]), rules.plan_shot(
        weapon="rifle", range_inches=1, weapon_skill=100, visible=5))  # fmt: skip


@pytest.mark.parametrize("visible", [1, 2, 3, 4, 5])
def test_a_rules_file_can_roll_the_six_again(tmp_path: Path, visible: int) -> None:
    """The other reading: a 6 is rolled again, so n/5 visible is hit n times in 5 and a
    figure showing head to boots is hit without a cover roll."""
    data = load_data(_house_rules(tmp_path, *ROLL_AGAIN))
    plan = rules.plan_shot(
        weapon="rifle", range_inches=1, weapon_skill=100, visible=visible, data=data
    )
    r = odds.shoot(weapon="rifle", range_inches=1, weapon_skill=100, visible=visible, data=data)
    assert r.probabilities["p_hit"] == F(visible, 5)
    hit = next(reason for reason in r.reasons if reason.topic == "hit")
    if visible == 5:
        dice = ScriptedDice([2])  # the D100 is not rolled (100), nor the cover D6: D3 2
        assert rules.shoot(dice, plan) == ShotOutcome(1, 1, 2) and dice.remaining == []
        assert hit.result == "no cover roll: hit"
    else:
        assert hit.result == f"needs {visible} or less on a D6, a 6 rolled again"
        assert f"{visible}/5 hits {visible} times in 5" in hit.because
    assert "the data's cover_roll" in hit.because


def test_the_probes_rifle_at_13_is_30_percent_when_the_six_is_rolled_again(
    tmp_path: Path,
) -> None:
    data = load_data(_house_rules(tmp_path, *ROLL_AGAIN))
    r = odds.shoot(weapon="rifle", range_inches=13, weapon_skill=120, visible=5, data=data)
    assert r.probabilities["p_hit"] == F(3, 10) == r.probabilities["p_chance"]
    two = odds.shoot(weapon="rifle", range_inches=13, weapon_skill=120, visible=2, data=data)
    assert two.probabilities["p_hit"] == F(3, 10) * F(2, 5)


def test_rolling_the_six_again_is_rolling_a_d5(tmp_path: Path) -> None:
    """The procedure rolls one die of five faces for a D6 whose 6 is rolled again (an
    endless re-roll cannot be enumerated): a literal D6 re-rolled on a 6 agrees with it."""
    data = load_data(_house_rules(tmp_path, *ROLL_AGAIN))
    rng = RandomDice(36)
    n = 20_000

    def literal(visible: int) -> bool:
        while (score := rng.roll(6)) == 6:
            pass
        return score <= visible

    for visible in (1, 3, 4):
        plan = rules.plan_shot(
            weapon="pistol", range_inches=1, weapon_skill=100, visible=visible, data=data
        )
        assert exact(lambda d, plan=plan: rules.chance_hits(d, plan)).probability(True) == F(
            visible, 5
        )
        assert within_4_se(F(visible, 5), sum(literal(visible) for _ in range(n)), n)


@pytest.mark.parametrize(
    "shot",
    [
        dict(weapon="carbine", range_inches=3, weapon_skill=130, visible=2),
        dict(weapon="pistol", range_inches=2, weapon_skill=150, visible=5),
    ],
)
def test_roll_again_exact_equals_brute_force_and_odds(
    tmp_path: Path, shot: dict[str, object]
) -> None:
    data = load_data(_house_rules(tmp_path, *ROLL_AGAIN))
    plan = rules.plan_shot(**shot, data=data)  # type: ignore[arg-type]
    dist = exact(lambda d: rules.shoot(d, plan))
    assert dist == brute_force(lambda d: rules.shoot(d, plan))
    report = odds.shoot(**shot, data=data)  # type: ignore[arg-type]
    assert report.distributions["initiative_lost"] == dist.map(lambda o: o.initiative_lost)
    assert report.probabilities["p_hit"] == dist.probability(lambda o: o.hits >= 1)


def test_the_worked_example_plays_alike_by_either_reading(tmp_path: Path) -> None:
    """Doxey's cover roll of 1 against Braun's 2/5 hits by either reading."""
    data = load_data(_house_rules(tmp_path, *ROLL_AGAIN))
    for tables in (DATA, data):
        doxey = rules.plan_shot(weapon="SMG", range_inches=7, weapon_skill=160, visible=2,
                                data=tables)  # fmt: skip
        assert rules.shoot(ScriptedDice([7, 1, 2]), doxey) == ShotOutcome(1, 1, 2)


def test_the_cover_reading_by_rules_file_on_the_command_line(tmp_path: Path) -> None:
    house = _house_rules(tmp_path, *ROLL_AGAIN)
    args = ("odds", "shoot", "-r", "house-clearing", "-w", "rifle", "--range", "13",
            "--weapon-skill", "120", "--visible", "5", "--json")  # fmt: skip
    import json

    shipped = json.loads(run_cli(*args).stdout)
    assert shipped["exact"]["p_hit"] == "1/4" and "rules_file" not in shipped
    done = run_cli(*args, "--rules-file", str(house))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["exact"]["p_hit"] == "3/10"
    assert out["rules_file"] == str(house) and len(out["rules_digest"]) == 8
    table = run_cli(*args[:-1], "--rules-file", str(house))
    assert "house rules from rules file" in table.stdout and "3/10" in table.stdout


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("above_the_fifths: miss ", "above_the_fifths: maybe ",
         "field cover_roll.above_the_fifths: 'maybe' is not one of the choices here; give "
         "'miss' or 'roll again'"),
        ("  die: 6\n", "  die: 4\n", "the cover die needs one face per visible row"),
        ("  aliases: [grenades, hand grenade,", "  aliases: [Bren, hand grenade,",
         "grenade: 'Bren' already names a weapon of the range table"),
        ("  edges: [1, 2, 3, 4, 5]\n  blast", "  edges: [1, 2, 3, 4]\n  blast",
         "4 band edges for 5 range bands: give 5, one per band"),
        ("blast_radius_inches: 1", "blast_radius_inches: 0", "blast_radius_inches"),
        ("blast_radius_inches: 1", "blast_radius_inches: .inf", "blast_radius_inches"),
    ],
)  # fmt: skip
def test_a_broken_house_clearing_rules_file_is_refused_in_a_line(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    house = _house_rules(tmp_path, old, new)
    with pytest.raises(DataFileError, match=message):
        load_data(house)
    done = run_cli("odds", "shoot", "-r", "house-clearing", "-w", "rifle", "--range", "5",
                   "--weapon-skill", "100", "--visible", "5", "--rules-file", str(house))  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"kriegsspiel: error: {house}") and message in done.stderr
    assert "Traceback" not in done.stderr


# -- grenades (not on the sheet: every step an assumption) ------------------------------
def test_the_grenade_table() -> None:
    thrown = DATA.grenade
    assert thrown.source.startswith("assumption")
    assert (thrown.name, thrown.edges, thrown.blast_radius_inches) == (
        "Grenade",
        (1, 2, 3, 4, 5),
        1,
    )
    pistol = next(w for w in DATA.range_bands.weapons if w.name == "Pistol")
    assert thrown.edges == pistol.edges  # thrown over the pistol's bands
    for name in ("grenade", "Mills bomb", "potato masher", "Stielhandgranate", "hand grenade"):
        assert rules.is_grenade(name)
    assert not rules.is_grenade("rifle")


def test_a_grenade_is_thrown_like_a_shot_over_the_pistols_bands() -> None:
    """By hand: skill 120 at 3" is the quarter band, 30 on the D100 to land; the burst sees
    3/5, hit on 3 or less on a D6 (1/2); so hit 3/20, and a target on 2 initiative is down
    (loses 2) or dead (loses 3) 1/20 each."""
    r = odds.shoot(weapon="grenade", range_inches=3, weapon_skill=120, visible=3,
                   target_initiative=2)  # fmt: skip
    assert r.question == "shoot" and r.title.startswith("Grenade (thrown), weapon skill 120")
    assert (r.details["chance"], r.details["band"], r.details["divisor"]) == (30, "Quarter", 4)
    assert r.probabilities == {
        "p_hit": F(3, 20),
        "p_lands": F(3, 10),
        "p_target_down": F(1, 20),
        "p_target_dead": F(1, 20),
    }
    assert r.distributions["initiative_lost"].as_list() == [F(17, 20)] + [F(1, 20)] * 3
    assert r.labels == {"p_hit": "the target is hit", "p_lands": "the grenade lands where aimed"}
    said = {reason.topic: reason.result for reason in r.reasons}
    assert said["D100"] == "needs 30 or less" and said["hit"] == "needs 3 or less on a D6"
    assert said["burst"] == '1" radius'
    # band edges belong to the nearer band, as a shot's do
    assert rules.plan_throw(range_inches=2, weapon_skill=120, visible=3).chance == 60
    assert rules.plan_throw(range_inches=2.5, weapon_skill=130, visible=3).chance == 32  # 32.5


def test_a_grenade_astray_hurts_no_one() -> None:
    plan = rules.plan_throw(range_inches=3, weapon_skill=120, visible=5)
    dice = ScriptedDice([31])  # over 30: astray; no cover roll, no D3
    assert rules.throw_grenade(dice, plan) == rules.ThrowOutcome(False, False, 0)
    assert dice.remaining == []
    dice = ScriptedDice([30, 5, 3])  # lands; 5 on the D6 hits 5/5; D3 3
    assert rules.throw_grenade(dice, plan) == rules.ThrowOutcome(True, True, 3)


def test_a_sure_grenade_rolls_no_d100_and_lands_once() -> None:
    """A score of 100 or more lands the grenade without a D100; the rest of the hundreds
    is no second grenade (a shot's would be a second chance of a hit)."""
    plan = rules.plan_throw(range_inches=1, weapon_skill=240, visible=5)
    assert plan.chance == 240 and plan.sure
    dice = ScriptedDice([6])  # only the cover D6 is rolled: a 6 misses
    assert rules.throw_grenade(dice, plan) == rules.ThrowOutcome(True, False, 0)
    r = odds.shoot(weapon="grenade", range_inches=1, weapon_skill=240, visible=5)
    assert r.probabilities == {"p_hit": F(5, 6), "p_lands": 1}
    assert r.distributions["hits"].as_list() == [F(1, 6), F(5, 6)]
    assert next(x for x in r.reasons if x.topic == "D100").result == "none: it lands"
    assert rules.plan_throw(range_inches=1, weapon_skill=100, visible=5).sure
    assert not rules.plan_throw(range_inches=1, weapon_skill=90, visible=5).sure


@pytest.mark.parametrize("visible", [1, 2, 3, 4, 5])
def test_a_grenade_hits_on_what_the_burst_sees(tmp_path: Path, visible: int) -> None:
    """A sure grenade hits a figure on the cover roll against the fifths of it the burst
    can see: by the shipped reading v/6, with the 6 rolled again v/5."""
    r = odds.throw_grenade(range_inches=1, weapon_skill=100, visible=visible)
    assert r.probabilities["p_hit"] == F(visible, 6)
    data = load_data(_house_rules(tmp_path, *ROLL_AGAIN))
    again = odds.throw_grenade(range_inches=1, weapon_skill=100, visible=visible, data=data)
    assert again.probabilities["p_hit"] == F(visible, 5)
    assert again.title.endswith(f"the burst sees {visible}/5 of the target")


def test_the_thrower_within_the_blast_is_told() -> None:
    near = odds.throw_grenade(range_inches=1, weapon_skill=100, visible=5)
    far = odds.throw_grenade(range_inches=1.5, weapon_skill=100, visible=5)
    assert near.details["blast_radius_inches"] == 1
    assert 'the thrower, 1" away, is within it too' in near.reasons[3].because
    assert "thrower" not in far.reasons[3].because


GRENADES = [
    dict(range_inches=3, weapon_skill=120, visible=3),
    dict(range_inches=0.5, weapon_skill=150, visible=2),
    dict(range_inches=4.5, weapon_skill=90, visible=5),
]


@pytest.mark.parametrize("throw", GRENADES)
def test_grenade_exact_equals_brute_force_and_odds(throw: dict[str, object]) -> None:
    plan = rules.plan_throw(**throw)  # type: ignore[arg-type]
    dist = exact(lambda d: rules.throw_grenade(d, plan))
    assert dist == brute_force(lambda d: rules.throw_grenade(d, plan))
    report = odds.throw_grenade(**throw)  # type: ignore[arg-type]
    assert report.distributions["hits"] == dist.map(lambda o: int(o.hit))
    assert report.distributions["initiative_lost"] == dist.map(lambda o: o.initiative_lost)
    assert report.probabilities["p_lands"] == dist.probability(lambda o: o.lands)


@pytest.mark.parametrize("throw", GRENADES[:2])
def test_grenade_monte_carlo(throw: dict[str, object]) -> None:
    n = 20_000
    dice = RandomDice(1944)
    plan = rules.plan_throw(**throw)  # type: ignore[arg-type]
    samples = [rules.throw_grenade(dice, plan) for _ in range(n)]
    p = odds.throw_grenade(**throw, target_initiative=2).probabilities  # type: ignore[arg-type]
    assert within_4_se(p["p_lands"], sum(s.lands for s in samples), n)
    assert within_4_se(p["p_hit"], sum(s.hit for s in samples), n)
    assert within_4_se(p["p_target_down"], sum(s.initiative_lost == 2 for s in samples), n)
    assert within_4_se(p["p_target_dead"], sum(s.initiative_lost > 2 for s in samples), n)


@settings(max_examples=40)
@given(
    st.floats(0, 5),
    st.floats(0, 5),
    st.integers(3, 24).map(lambda n: n * 10),
    st.integers(1, 5),
)
def test_a_grenade_nearer_never_lands_less_and_hits_as_it_lands(
    near: float, far: float, skill: int, visible: int
) -> None:
    near, far = sorted([near, far])
    a = odds.throw_grenade(range_inches=near, weapon_skill=skill, visible=visible)
    b = odds.throw_grenade(range_inches=far, weapon_skill=skill, visible=visible)
    assert b.probabilities["p_lands"] <= a.probabilities["p_lands"] <= 1
    for r in (a, b):
        assert r.probabilities["p_hit"] == r.probabilities["p_lands"] * F(visible, 6)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"range_inches": 5.5}, '^range_inches=5.5: out of range, a grenade reaches 5" at most'),
        ({"range_inches": -1}, "^range_inches must be a distance of 0 or more inches"),
        ({"automatic": True}, "a grenade is thrown, not fired on automatic: drop automatic=True"),
        ({"crew": 2}, r"a grenade is thrown by one figure: drop crew\.$"),
        ({"visible": 0}, "^visible must be 1 to 5 fifths"),
        ({"weapon_skill": 115}, "a multiple of 10 from 30 to 240"),
        ({"target_initiative": 5}, "^target_initiative must be 0 to 4"),
    ],
)
def test_bad_grenade_input(change: dict[str, object], message: str) -> None:
    args: dict[str, object] = {
        "weapon": "grenade",
        "range_inches": 3,
        "weapon_skill": 100,
        "visible": 3,
        **change,
    }
    with pytest.raises(UsageError, match=message) as err:
        odds.shoot(**args)  # type: ignore[arg-type]
    assert "--" not in str(err.value)


def test_a_grenade_is_not_planned_as_a_shot_and_a_typo_finds_it() -> None:
    with pytest.raises(UsageError, match="a grenade is thrown, not fired"):
        rules.plan_shot(weapon="Mills bomb", range_inches=3, weapon_skill=100, visible=3)
    with pytest.raises(UnknownNameError) as err:
        odds.shoot(weapon="granade", range_inches=3, weapon_skill=100, visible=3)
    assert "Grenade" in err.value.close_matches


def test_a_grenade_on_the_command_line() -> None:
    import json

    args = ("odds", "shoot", "-r", "house-clearing", "-w", "grenade", "--weapon-skill", "120",
            "--range", "3", "--visible", "3")  # fmt: skip
    done = run_cli(*args, "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["exact"] == {"p_hit": "3/20", "p_lands": "3/10"}
    assert (out["thrown"], out["blast_radius_inches"], out["chance"]) == ("Grenade", 1, 30)
    bad = run_cli(*args, "--auto")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == (
        "kriegsspiel: error: a grenade is thrown, not fired on automatic: drop --auto.\n"
    )


def test_the_rules_command_says_where_house_clearings_data_is() -> None:
    done = run_cli("rules", "-r", "house-clearing")
    assert done.returncode == 0, done.stderr
    assert str(DATA_FILE) in " ".join(done.stdout.split())
    assert "kriegsspiel rules --ruleset house-clearing --copy house.yaml" in done.stdout


def test_house_clearings_down_and_dead_follow_the_files_limit(tmp_path: Path) -> None:
    """A copy where a figure can fire but not move at 1 (the sheet's 0): a pistol at 1"
    with skill 100 at a whole figure has one sure chance, a hit on 5 in 6 (1 to 3
    initiative lost, a third each). A target on 2 is down at 1 lost (5/18), dead at 2 or 3
    (10/18); by the sheet, down at 2 and dead at 3 (5/18 each). A target on 1 is down
    already: dead at any loss (5/6); on 0 it is out of the fight, so not asked."""
    edit = ("  can_fire_not_move_at: 0", "  can_fire_not_move_at: 1")
    path = copy_of(tmp_path, "house-clearing", edit, name="hc.yaml")
    data = read_data(path.read_text(), "hc.yaml")
    shot = {"weapon": "pistol", "range_inches": 1.0, "weapon_skill": 100, "visible": 5}
    house = odds.shoot(**shot, target_initiative=2, data=data).probabilities  # type: ignore[arg-type]
    assert (house["p_target_down"], house["p_target_dead"]) == (F(5, 18), F(5, 9))
    shipped = odds.shoot(**shot, target_initiative=2).probabilities  # type: ignore[arg-type]
    assert (shipped["p_target_down"], shipped["p_target_dead"]) == (F(5, 18),) * 2
    down = odds.shoot(**shot, target_initiative=1, data=data).probabilities  # type: ignore[arg-type]
    assert "p_target_down" not in down and down["p_target_dead"] == F(5, 6)
    thrown = {"range_inches": 5.0, "weapon_skill": 100, "visible": 5}
    dead = odds.throw_grenade(**thrown, target_initiative=1, data=data).probabilities  # type: ignore[arg-type]
    assert dead["p_target_dead"] == dead["p_hit"]  # (any hit costs at least 1)
    done = run_cli(
        "odds", "shoot", "--weapon", "pistol", "--range", "1", "--weapon-skill", "100",
        "--visible", "5", "--target-initiative", "0", "--rules-file", "hc.yaml", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 2 and "--target-initiative must be 1 to 4 (below 1" in done.stderr
    asked = run_cli(
        "odds", "shoot", "--weapon", "pistol", "--range", "1", "--weapon-skill", "100",
        "--visible", "5", "--target-initiative", "2", "--rules-file", "hc.yaml", "--json",
        cwd=tmp_path,
    )  # fmt: skip
    exact = json.loads(asked.stdout)["exact"]
    assert (exact["p_target_down"], exact["p_target_dead"]) == ("5/18", "5/9")
