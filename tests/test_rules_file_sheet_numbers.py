"""Sheet numbers the engine once held in code, now read from the rules data (Rally's D6,
FUBAR's 12", the officers' ranges, the barrage miscalculation's 24"; the hit modifiers'
words), and what a rules file may not change: the orders, each on its face."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from conftest import run_cli

from kriegsspiel.aid.tracker import AidError, Tracker
from kriegsspiel.core.game import Event
from kriegsspiel.core.procedure import ScriptedDice
from kriegsspiel.core.scenario import load_scenario, sample_scenarios
from kriegsspiel.core.table import Point
from kriegsspiel.errors import DataFileError
from kriegsspiel.render.game_account import describe
from kriegsspiel.rulesets.bolt_action.army import load_army, sample_armies
from kriegsspiel.rulesets.bolt_action.data import DATA_DIR, load_edition
from kriegsspiel.rulesets.bolt_action.edition import rules_for
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.fubar import friendly_targets
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.support import _worst_for_caller
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.rulesets.bolt_action.to_hit import hit_words
from kriegsspiel.rulesets.bolt_action.troop_damage import infantry_quality


def shipped(ruleset: str) -> str:
    return (DATA_DIR / f"{ruleset.replace('-', '_')}.yaml").read_text(encoding="utf-8")


def changed(ruleset: str, old: str, new: str, *more: tuple[str, str]) -> str:
    """The shipped data of ``ruleset`` with ``old`` made ``new`` (and each of ``more``),
    each found once: a number and, where its summary says it, the summary with it."""
    text = shipped(ruleset)
    for was, now in ((old, new), *more):
        assert text.count(was) == 1, was
        text = text.replace(was, now)
    return text


def game_by(ruleset: str, text: str | None) -> BoltActionGame:
    armies = [load_army(p, ruleset) for p in sample_armies(ruleset)[:2]]
    return BoltActionGame(
        ruleset,
        load_scenario(sample_scenarios()[1]),
        (armies[0], armies[1]),
        seed=1,
        rules_file=None if text is None else "house.yaml",
        rules_text=text,
    )


def move(unit: UnitState, x: float, y: float) -> None:
    anchor = unit.anchor
    unit.translate(x - anchor.x, y - anchor.y)


RALLY = "{die: 5, order: Rally, pins_lost: D6,"
#: Rally's row whole: its dice and its summary, which says them.
RALLY_ROW = RALLY + " summary: No move or fire but lose D6 pin markers}"


def test_a_rally_loses_the_pins_of_the_rules_files_dice() -> None:
    """Sheets 000-002: a Rally loses "D6 pin markers"; a rules file's dice are played."""
    for pins_lost, lost in (("D6", 4), ("D3+3", 3 + 3)):
        text = changed("konflikt47", RALLY_ROW, RALLY_ROW.replace("D6", pins_lost))
        game = game_by("konflikt47", text)
        unit = game.units[10]
        unit.pins = 9
        game.dice = ScriptedDice([1, 1, 4] if pins_lost == "D6" else [1, 1, 3])
        game.apply_action(Action("draw", side=unit.side))
        game.apply_action(Action("order", unit=unit.uid, order="Rally"))
        assert unit.pins == 9 - lost, pins_lost
    assert rules_for("konflikt47").rally_pins.text == "D6"


def test_the_play_aid_asks_for_the_rules_files_rally_dice() -> None:
    from kriegsspiel.sim.matchup import build_matchup, parsed

    text = changed("bolt-action-1", RALLY_ROW, RALLY_ROW.replace("D6", "D3"))
    scenario, army_a, army_b = parsed(build_matchup("bolt-action-1", None, []))
    tracker = Tracker.start(
        "bolt-action-1", (army_a, army_b), scenario.turns, rules_file="house.yaml", rules_text=text
    )
    assert tracker.rules.rally_span == (1, 3)
    assert rules_for("bolt-action-1").rally_span == (1, 6)
    unit = next(u for u in tracker.units if u.side == 0)
    tracker = tracker.set_pins(unit.uid, 3).draw(ScriptedDice([1]))
    assert tracker.in_hand == 0
    with pytest.raises(AidError, match=r"loses D3 pins: give pins_lost, the D3 rolled \(1-3\)"):
        tracker.give_order(unit.uid, "Rally", outcome="pass", pins_lost=4)
    rallied = tracker.give_order(unit.uid, "Rally", outcome="pass", pins_lost=2)
    assert rallied.units[unit.uid].pins == 1


def test_an_officers_range_is_the_rules_files() -> None:
    """No sheet prints it (published rule): a First Lieutenant's 6" unless the file says."""
    text = changed(
        "konflikt47",
        "{rank: First Lieutenant, morale_bonus: 2, range: 6}",
        "{rank: First Lieutenant, morale_bonus: 2, range: 20}",
    )
    for rules, near in ((None, None), (text, "First Lieutenant")):
        game = game_by("konflikt47", rules)
        squad, hq = game.units[10], game.units[9]  # a First Lieutenant's HQ
        move(hq, 20, 30)
        move(squad, 20, 44)  # 10" or so off
        assert game.officer_near(squad) == near
    assert rules_for("konflikt47").officer_range("Captain") == 12.0


def test_friendly_fire_reaches_as_far_as_the_rules_file_says() -> None:
    """Sheets 000-002: FUBAR fires at a friend "that has an enemy unit within 12""."""
    text = changed(
        "bolt-action-1",
        "friendly_fire_enemy_within: 12",
        "friendly_fire_enemy_within: 40",
        ('unit within 12"; with no such target', 'unit within 40"; with no such target'),
    )
    found = []
    for rules in (None, text):
        game = game_by("bolt-action-1", rules)
        mine = [u for u in game.units if u.side == 0]
        theirs = [u for u in game.units if u.side == 1]
        for i, unit in enumerate(mine):
            move(unit, 10 + 6 * i, 4)
        for i, unit in enumerate(theirs):
            move(unit, 10 + 6 * i, 44)  # 40" off: within 40, not 12
        found.append(friendly_targets(game, mine[0]))
    assert found[0] == [] and found[1]
    assert all(game.gap(u, e) > 12 for u in found[1] for e in theirs)


def test_a_miscalculated_barrage_moves_as_far_as_the_rules_file_says() -> None:
    """Sheet 002: "Enemy may target point up to 24" in any direction": onto the caller's own
    nearest unit within that reach (the engine's choice for the enemy)."""
    text = changed(
        "bolt-action-1",
        "miscalculation_reach: 24",
        "miscalculation_reach: 40",
        ('move the target point up to 24"', 'move the target point up to 40"'),
    )
    for rules, moved in ((None, False), (text, True)):
        game = game_by("bolt-action-1", rules)
        own = next(u for u in game.units if u.side == 0)
        for u in game.units:
            u.destroyed = u is not own and u.side == 0
        move(own, 36, 4)
        point = Point(36, 34)  # 30" from the caller's unit
        landed = _worst_for_caller(game, 0, point)
        assert (landed == own.anchor) is moved


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (
            "    - {die: 4, order: Ambush, summary: No move or fire but wait for opportunity fire}\n",
            "",
            "field orders.rows: the engine plays (a rules file cannot take an order out, nor "
            "add one) every one of Fire, Advance, Run, Ambush, Rally, Down; missing: Ambush",
        ),
        (
            "order: Rally,",
            "order: Regroup,",
            "field orders.rows.4.order: 'Regroup' is not one of the choices here",
        ),
        ("{die: 1, order: Fire", "{die: 2, order: Fire", "die 2 with Fire: the engine plays six"),
        ("{die: 5, order: Rally", "{die: 9, order: Rally", "line 45, field orders.rows.4.order"),
        (RALLY_ROW, RALLY_ROW.replace("D6", "D6+70"), "pins_lost: 'D6+70' can come to"),
        (
            "{die: 6, order: Down,",
            "{die: 6, order: Down, pins_lost: D6,",
            "pins_lost is Rally's (the pins a Rally loses); a Down order loses none",
        ),
        (
            "  pin_rolls: [1, 2, 3, 4, 5]\n",
            "  pin_rolls: [1, 2, 3, 4, 5, 6]\n",
            "field artillery_barrage.hit_rolls: 6 in pin_rolls too: a unit's roll under fire",
        ),
    ],
)
def test_what_the_engine_cannot_play_is_refused_at_its_line(
    tmp_path: Path, old: str, new: str, said: str
) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(changed("bolt-action-1", old, new), encoding="utf-8")
    done = run_cli("rules", str(path))
    assert done.returncode == 2, done.stdout
    told = " ".join(done.stderr.split())
    assert said in told and "Traceback" not in told
    assert "line " in told


def test_a_copy_made_before_the_numbers_moved_takes_the_shipped_ones() -> None:
    """A copy without the fields added since 0.4.0 plays as the engine played it then."""
    for ruleset in ("konflikt47", "bolt-action-1"):
        text = shipped(ruleset).replace(" pins_lost: D6,", "")
        for cut in ("friendly_fire_enemy_within: 12\n", "miscalculation_reach: 24\n"):
            text = text.replace(f"  {cut}", "")
        for reach in ("6", "12"):
            text = text.replace(f", range: {reach}}}", "}")
        assert "range:" not in text.split("officers:")[1].split("movement:")[0]
        one_crew = next(line for line in text.splitlines() if "key: one_crew" in line)
        text = text.replace(f"{one_crew}\n", "")  # (a row added in 0.6.0)
        text = re.sub(r", short: [^,]+,", ",", text)
        assert ", short:" not in text
        old = rules_for(ruleset, "old.yaml", text).data
        # the shipped numbers (compared as data: naming the cached shipped edition would
        # change it for every test after this one)
        assert old.model_dump() == load_edition(ruleset).model_dump()
        assert old.rules_file == "old.yaml" and load_edition(ruleset).rules_file is None


def test_the_shipped_files_give_every_field_added_since() -> None:
    for ruleset in ("konflikt47", "bolt-action-1"):
        text = shipped(ruleset)
        assert "pins_lost: D6" in text and "friendly_fire_enemy_within: 12" in text
        officers = yaml.safe_load(text)["officers"]["rows"]
        assert [row["range"] for row in officers] == [6, 6, 12, 12]
    assert "miscalculation_reach: 24" in shipped("bolt-action-1")
    for ruleset in ("konflikt47", "bolt-action-1"):
        assert hit_words(rules_for(ruleset))["long_range"] == "long range"


#: the hit modifier rows of long range and pins, as shipped (pins first, as the sheets)
PINS = "    - {key: per_pin, label: Per pin marker on the firer, short: pins, value: -1}\n"
LONG = "    - {key: long_range, label: Long range, short: long range, value: -1}\n"


def test_a_rules_files_words_for_a_hit_modifier_are_told_in_the_account(
    tmp_path: Path,
) -> None:
    """The account tells what made a score in the words of the rules' hit modifiers
    table, in its order (the sheets': pins before long range), as the odds' reasons do:
    a rules file that renames long range "far off" and puts it first is told so, in the
    game it plays and in its record's account."""
    shot = {"turn": 1, "unit": 0, "target": 1, "shots": 6, "hits": 2, "casualties": 1,
            "pins": 1, "weapons": [{"weapon": "Rifle", "shots": 6, "hits": 2, "needs": 6,
                                    "modifiers": {"long_range": -1, "per_pin": -1,
                                                  "soft_cover": -1}}]}  # fmt: skip
    line = describe(Event("shoot", shot), [])
    assert "needing 6+ (pins -1, long range -1, soft cover -1)" in str(line), line
    text = changed(
        "konflikt47", PINS + LONG, LONG.replace("short: long range", "short: far off") + PINS
    )
    house = tmp_path / "house.yaml"
    house.write_text(text, encoding="utf-8")
    words = hit_words(rules_for("konflikt47", "house.yaml", text))
    line = describe(Event("shoot", shot), [], words=words)
    assert "needing 6+ (far off -1, pins -1, soft cover -1)" in str(line), line
    # the odds' reasons, by the same words (the row changed: the file is named)
    reasons = run_cli("odds", "shoot", "-w", "rifle", "--range", "20", "--pins", "1",
                      "--rules-file", "house.yaml", "--json", cwd=tmp_path)  # fmt: skip
    assert reasons.returncode == 0, reasons.stderr
    to_hit = next(
        r for r in json.loads(reasons.stdout)["reasoning"] if r["topic"].strip() == "to hit"
    )
    assert 'far off (over 12") -1 (rules file house.yaml)' in to_hit["because"], to_hit
    # a game played by the file, told as it is played and from its record
    played = run_cli("play", "--rules-file", "house.yaml", "--seed", "1", "--record", "g.jsonl",
                     cwd=tmp_path, timeout=300)  # fmt: skip
    assert played.returncode == 0, played.stderr
    told = run_cli("replay", "g.jsonl", "--account", cwd=tmp_path, timeout=300)
    assert told.returncode == 0, told.stderr
    for account in (played.stdout, told.stdout):
        assert "far off -1, pins -1" in account and "long range" not in account


def test_a_seven_plus_is_told_by_its_score_under_a_rules_files_follow_up_dice(
    tmp_path: Path,
) -> None:
    """A to-hit score past 6 is told by the score the modifiers make, with the rules'
    own follow-up die: a rules file whose 7+ is a 6 then 5+ (and 8+ a 6 then 6+) has a
    7+ shot told "7+ (a 6, then 5+)" in the odds' reasons and JSON and in the account
    of a game by it, never "8+" (as the shipped table would give a 6 then 5+)."""
    seven = "needs_seven_plus_follow_up: {7: 4, 8: 5, 9: 6}"
    text = changed("konflikt47", seven, "needs_seven_plus_follow_up: {7: 5, 8: 6}")
    (tmp_path / "house.yaml").write_text(text, encoding="utf-8")
    asked = run_cli("odds", "shoot", "--rules-file", "house.yaml", "-w", "Rifle:5",
                    "--target", "veteran infantry", "--range", "20", "--pins", "1",
                    "--moving", "--inexperienced", "--json", cwd=tmp_path)  # fmt: skip
    assert asked.returncode == 0, asked.stderr
    report = json.loads(asked.stdout)
    to_hit = next(r for r in report["reasoning"] if r["topic"].strip() == "to hit")
    assert to_hit["result"] == "7+ (a 6, then 5+)", to_hit  # base 3+, four -1s
    assert report["to_hit_by_weapon"] == {"Rifle": "7+ (a 6, then 5+)"}
    shot = {"turn": 1, "unit": 0, "target": 1, "shots": 5, "hits": 0, "casualties": 0,
            "pins": 1, "weapons": [{"weapon": "Rifle", "shots": 5, "hits": 0,
                                    "needs": [6, 5], "modifiers": {"long_range": -1,
                                    "per_pin": -1, "inexperienced": -1, "moving": -1}}]}  # fmt: skip
    words = hit_words(rules_for("konflikt47", "house.yaml", text))
    assert "needing 7+ (a 6, then 5+; " in str(describe(Event("shoot", shot), [], words=words))
    assert "needing 8+ (a 6, then 5+; " in str(describe(Event("shoot", shot), []))  # shipped


def test_an_infantry_targets_quality_is_its_rows_whatever_its_first_name(
    tmp_path: Path,
) -> None:
    """The odds take an infantry target's quality from the damage values row it names,
    as the game's infantry targets are found ("<quality> infantry"): a rules file that
    gives the inexperienced row a first name "green troops" has the same odds, its
    pins' morale test the inexperienced one, asked by any of the row's names."""
    row = "names: [inexperienced infantry, inexperienced artillery, inexperienced]"
    text = changed("konflikt47", row, row.replace("[", "[green troops, "))
    (tmp_path / "house.yaml").write_text(text, encoding="utf-8")
    rules = rules_for("konflikt47", "house.yaml", text)
    for quality in ("inexperienced", "regular", "veteran"):
        for name in (f"{quality} infantry", quality):
            assert infantry_quality(rules, rules.target(name)) == quality
    assert infantry_quality(rules, rules.target("green troops")) == "inexperienced"
    asked = ("odds", "shoot", "-w", "Rifle:5", "--target-pins", "7", "--json")
    shipped_odds = run_cli(*asked, "--target", "inexperienced infantry")
    assert shipped_odds.returncode == 0, shipped_odds.stderr
    for name in ("inexperienced infantry", "green troops"):
        house = run_cli(*asked, "--target", name, "--rules-file", "house.yaml", cwd=tmp_path)
        assert house.returncode == 0, house.stderr
        same = ("p_hit", "casualties", "pins", "p_removed_by_pins")
        ours, theirs = json.loads(house.stdout), json.loads(shipped_odds.stdout)
        assert "p_removed_by_pins" in theirs  # (7 pins and one more: its morale, 8)
        assert {k: ours.get(k) for k in same} == {k: theirs.get(k) for k in same}


def test_a_copy_made_before_the_one_crew_row_counts_a_lone_crew_like_its_pins() -> None:
    """A copy without the one_crew hit modifier (added in 0.6.0) takes the shipped row
    with its own per_pin value: a team weapon's lone crew counted like a pin, as then."""
    text = shipped("konflikt47")
    one_crew = next(line for line in text.splitlines() if "key: one_crew" in line)
    text = text.replace(f"{one_crew}\n", "").replace(PINS, PINS.replace("-1}", "-2}"))
    rules = rules_for("konflikt47", "old.yaml", text)
    assert rules.hit_modifier("one_crew") == -2 == rules.hit_modifier("per_pin")
    (row,) = [r for r in rules.data.hit_modifiers.rows if r.key == "one_crew"]
    assert row.label == "A team weapon with one crew left"


def test_a_to_hit_clamped_by_the_natural_miss_says_so_and_cites_the_file(tmp_path: Path) -> None:
    """A raised natural miss makes a rifle at 3" need 4+, not base 3+ less point blank's
    +1: the reason adds up, naming the natural miss and the file that set it."""
    path = tmp_path / "nm3.yaml"
    path.write_text(changed("konflikt47", "natural_miss: 1", "natural_miss: 3"), encoding="utf-8")
    done = run_cli("odds", "shoot", "-w", "rifle", "--range", "3", "--rules-file", "nm3.yaml",
                   "--json", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    to_hit = next(r for r in json.loads(done.stdout)["reasoning"] if r["topic"].strip() == "to hit")
    assert to_hit["result"] == "4+"
    assert to_hit["because"] == (
        'base 3+, point blank (within 6") +1; a roll of 3 or less always misses '
        "(rules file nm3.yaml)"
    )
    plain = run_cli("odds", "shoot", "-w", "rifle", "--range", "3", "--json")
    reasoning = json.loads(plain.stdout)["reasoning"]
    shipped_why = next(r for r in reasoning if r["topic"].strip() == "to hit")
    assert shipped_why["result"] == "2+" and "always misses" not in shipped_why["because"]


# -- a summary says the file's numbers -----------------------------------------------
def test_a_summary_that_contradicts_its_numbers_is_refused_with_the_right_words(
    tmp_path: Path,
) -> None:
    """Rally's dice made D3 with its summary still saying "lose D6 pin markers": the play
    aid showed D6 and the game rolled D3; now refused at the summary's line and field,
    with the summary that would be right (and the dice the summary's words would need)."""
    path = tmp_path / "house.yaml"
    path.write_text(changed("bolt-action-1", RALLY, RALLY.replace("D6", "D3")))
    line = next(n for n, row in enumerate(path.read_text().splitlines(), 1) if "Rally" in row)
    done = run_cli("rules", "house.yaml", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        f"kriegsspiel: error: house.yaml: line {line}, field orders.rows.4.summary: the "
        "summary says 'lose D6 pin' where its pins_lost is D3 (a player would be shown one "
        "rule and the game play another): write 'No move or fire but lose D3 pin markers', "
        "or make its pins_lost D6.\n"
    )
    with pytest.raises(DataFileError, match=re.escape("field orders.rows.4.summary")):
        rules_for("bolt-action-1", "house.yaml", path.read_text())


def test_every_number_a_summary_says_is_checked_and_told_at_once() -> None:
    """Each number the check reads is found in the shipped summaries (a pattern that found
    none would check nothing), and each, changed alone, is refused; two numbers of one
    summary (the air strike's 12" and D3-1 pins) are told in one problem, fixed at once."""
    from kriegsspiel.rulesets.bolt_action.summaries import SAID, summary_problems

    for ruleset in ("konflikt47", "bolt-action-1"):
        data = load_edition(ruleset)
        assert summary_problems(data) == []
        raw = yaml.safe_load(shipped(ruleset))
        for says in SAID:
            if says.table not in raw:
                continue
            table = raw[says.table]
            summary = (
                next(r for r in table["rows"] if r[says.key] == says.name)["summary"]
                if says.key
                else table["summary"]
            )
            assert re.search(says.pattern, " ".join(summary.split())), (ruleset, says)
    text = changed("bolt-action-1", "  radius: 12\n  pins: D3-1\n", "  radius: 10\n  pins: D3\n")
    with pytest.raises(DataFileError) as refused:
        rules_for("bolt-action-1", "strike.yaml", text)
    (problem,) = refused.value.problems
    assert (
        problem.startswith("line ")
        and "field air_strike.rows.2.summary: the summary says" in problem
    )
    assert "'within 12\"' where air_strike.radius is 10 and 'take D3-1 pins' where " in problem
    assert (
        "write 'Target and all units within 10\" take D3 pins; resolve flak; if the aircraft "
        "survives roll for its type.', or make air_strike.radius 12 and air_strike.pins D3-1"
    ) in problem


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (RALLY_ROW, RALLY_ROW.replace("lose D6 pin markers", "lose a die's worth of pins")),
        (RALLY_ROW, RALLY_ROW.replace("D6", "D3")),
        ("  unnoticed_degrees: 1.0\n", "  unnoticed_degrees: 1\n"),
    ],
)
def test_a_summary_reworded_or_changed_with_its_number_is_taken(old: str, new: str) -> None:
    """A summary in the designer's own words says no number to check; one changed with
    its number agrees with it; 1 and 1.0 are one number."""
    rules_for("bolt-action-1", "house.yaml", changed("bolt-action-1", old, new))


# -- the tactical AI's Rally, by the rules file's dice -------------------------------
def test_the_pins_a_rally_is_expected_to_take_off_are_its_dice_as_rolled() -> None:
    """One reading of the Rally dice for the AI and the game: the expectation the AI
    values is the mean of what :func:`rally_roll` takes off, and is exact for the D6."""
    from fractions import Fraction

    from kriegsspiel.core.procedure import RandomDice
    from kriegsspiel.rulesets.bolt_action.morale import expected_rallied, rallied, rally_roll

    d6 = rules_for("bolt-action-1")
    assert [expected_rallied(d6, pins) for pins in (0, 1, 2, 6, 9)] == [
        0, 1, Fraction(11, 6), Fraction(7, 2), Fraction(7, 2)
    ]  # fmt: skip
    text = changed("bolt-action-1", RALLY_ROW, RALLY_ROW.replace("D6", "D3+1"))
    d3 = rules_for("bolt-action-1", "d3.yaml", text)
    assert expected_rallied(d3, 9) == 3 and expected_rallied(d3, 3) == Fraction(2 + 3 + 3, 3)
    dice = RandomDice(7)
    rolls = [rallied(3, rally_roll(dice, d3)) for _ in range(6000)]
    assert abs(sum(rolls) / len(rolls) - 8 / 3) < 0.03


def test_the_tactical_ai_values_a_rally_by_the_rules_files_dice() -> None:
    """It valued a Rally at 6 a pin less 2 whatever the file's dice (a D3 Rally as a
    D6's); now as the shipped dice's worth, scaled by the pins the file's dice are
    expected to take off against the shipped dice's: the same with the shipped data (so
    every game by it is as it was), less with a D3 for a unit with pins a D3 may leave."""
    from fractions import Fraction

    from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer

    def worth(text: str | None, pins: int) -> float:
        game = game_by("bolt-action-1", text)
        unit = game.units[10]
        unit.pins = pins
        rally = Action("order", side=unit.side, unit=unit.uid, order="Rally")
        return TacticalPlayer(0).value(game, rally)

    d3 = changed("bolt-action-1", RALLY_ROW, RALLY_ROW.replace("D6", "D3"))
    assert [worth(None, pins) for pins in (0, 1, 2, 5)] == [-2.0, 4.0, 10.0, 28.0]
    assert worth(d3, 1) == 4.0  # (a D3 takes the one pin off as surely as a D6)
    assert worth(d3, 5) == 6 * 5 * float(Fraction(2) / Fraction(10, 3)) - 2  # 16, not 28
    assert worth(d3, 2) < worth(None, 2)


def test_the_accounts_short_of_the_damage_value_follows_the_rules_damage_thresholds() -> None:
    """A damage roll whose best (a 6) cannot damage the vehicle is told "at best 6+0=6:
    short of 7" by vehicle_damage.can_reach_damage, the rule the odds and game use: a rules
    file whose superficial damage starts a point below the damage value (threshold -1)
    lets a 6+0 against 7 do damage, and the account no longer calls it short (it once
    compared 6 + pen with the damage value itself)."""
    roll = {"weapon": "HMG", "roll": 2, "pen": 0, "damage": "none", "damage_value": 7,
            "results": []}  # fmt: skip
    shot = {"turn": 1, "unit": 0, "target": 1, "shots": 3, "pins": 1, "weapons":
            [{"weapon": "HMG", "shots": 3, "hits": 1}], "damage_rolls": [roll],
            "knocked_out": False, "immobilised": False, "stunned": False,
            "on_fire": False}  # fmt: skip
    text = changed("konflikt47", "  superficial: 0\n  full: 1\n", "  superficial: -1\n  full: 1\n")
    house = hit_words(rules_for("konflikt47", "house.yaml", text))
    assert not hit_words(rules_for("konflikt47")).can_damage(7, 0)
    assert house.can_damage(7, 0) and not house.can_damage(8, 0)
    assert "(at best 6+0=6: short of 7)" in str(describe(Event("shoot", shot), []))
    told = str(describe(Event("shoot", shot), [], words=house))
    assert "2+0=2 none" in told and "short of" not in told, told
