"""Each close quarters round's dice as rolled (record format 9): each side's rolls in turn
(point-blank fire to hit, a 7+'s 6 then its second die, then to damage) with the score each
needed, kept in the fight's event and told in the account after each round, so a player
can check a fight by hand as a shot (test_shot_dice)."""

from __future__ import annotations

import json
import tempfile
from fractions import Fraction
from functools import cache, partial
from itertools import pairwise
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import run_cli
from test_record_rolls import older_format

from kriegsspiel.core.game import Event
from kriegsspiel.core.procedure import RandomDice, ScriptedDice, exact
from kriegsspiel.core.records import write_record
from kriegsspiel.errors import DataFileError
from kriegsspiel.render.game_account import describe, staged_rolls
from kriegsspiel.rulesets.bolt_action.assault import (
    Round,
    RoundDice,
    Side,
    _step_odds,
    attacker_win_chance,
    close_quarters,
    step,
)
from kriegsspiel.rulesets.bolt_action.game import record
from kriegsspiel.rulesets.bolt_action.game.record_events import as_written_in
from kriegsspiel.rulesets.bolt_action.morale import MoraleTest
from kriegsspiel.sim.matchup import build_matchup, play_game

UNITS = [SimpleNamespace(name="1st Section", side=0), SimpleNamespace(name="Grenadiers", side=1)]

#: seeded games of random players with a fight in them (a Konflikt '47 one with point-blank
#: fire, three rounds; a Bolt Action one)
FOUGHT = {"konflikt47": 3, "bolt-action-1": 17}


@cache
def fight_record(ruleset: str) -> str:
    """A game's record, as play writes it, with a close quarters fight in it."""
    matchup = build_matchup(ruleset, "hold-the-crossroads", [], "random,random")
    game = play_game(matchup, FOUGHT[ruleset])
    texts = (matchup.armies[0].text, matchup.armies[1].text)
    head = record.header(game, matchup.scenario.text, texts, matchup.players)
    with tempfile.TemporaryDirectory() as folder:
        return write_record(Path(folder, "game.jsonl"), head, game.events)


def _fights(text: str) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in text.splitlines()[1:]]
    return [r for r in rows if r["event"] == "close quarters"]


def _made(rolls: list[dict[str, Any]]) -> int:
    """What a side's rolls made: each roll's dice that scored are rolled for the next
    (so there are as many dice in it), the last roll's that score are what it struck."""
    for roll, after in pairwise(rolls):
        assert len(after["dice"]) == sum(die >= roll["needs"] for die in roll["dice"])
    return sum(die >= rolls[-1]["needs"] for die in rolls[-1]["dice"]) if rolls else 0


@pytest.mark.parametrize("ruleset", sorted(FOUGHT))
def test_a_played_games_record_holds_every_rounds_dice_and_they_make_its_casualties(
    ruleset: str,
) -> None:
    """In a whole game's record, every round of a fight holds each side's dice, and they
    make the casualties the round gives: each side's blows that scored, no more than the
    models the other side had."""
    fights = _fights(fight_record(ruleset))
    assert fights
    for fight in fights:
        for r in fight["rounds"]:
            assert r["attackers_dice"], "the attackers always strike"
            assert r["defenders_lost"] == min(r["defenders"], _made(r["attackers_dice"]))
            assert r["attackers_lost"] == min(r["attackers"], _made(r["defenders_dice"]))
            for side in ("attackers", "defenders"):
                # hand-to-hand is one roll to damage; point-blank fire to hit first
                assert len(r[f"{side}_dice"]) in (
                    (0, 1) if ruleset == "bolt-action-1" else (0, 1, 2)
                )
                assert all(1 <= die <= 6 for roll in r[f"{side}_dice"] for die in roll["dice"])
    if ruleset == "konflikt47":  # (this fight's defenders met it with point-blank fire)
        assert any(len(r["defenders_dice"]) == 2 for f in fights for r in f["rounds"])


def _sides(seven: bool) -> tuple[Side, Side]:
    morale = MoraleTest(base=9)
    attacker = Side(4, morale, assault_models=2, assault_attacks=2)
    defender = Side(4, morale, mode="point-blank", point_blank_hit=(6, 4) if seven else (3,))
    return attacker, defender


#: the attacker's exact chance of :func:`_sides` at 4 v 4, as the chain gave it before
WIN_CHANCE = {
    "rounds": Fraction(11913592, 12782385),
    "point-blank-or-hand-to-hand": Fraction(16596534987023811048640883, 21591147947707651047134400),
}


@pytest.mark.parametrize(
    ("procedure", "seven"), [("rounds", False), ("point-blank-or-hand-to-hand", True)]
)
def test_a_fight_rolls_the_same_dice_kept_or_not(procedure: str, seven: bool) -> None:
    """The game keeps a fight's dice; the odds and the simulator's fights without rounds
    do not: both take the very same dice from the same seed and come to the same result,
    and the exact odds (which never roll) are what they were."""
    attacker, defender = _sides(seven)
    for seed in range(40):
        kept_dice, plain_dice = RandomDice(seed), RandomDice(seed)
        rounds: list[Round] = []
        fought = close_quarters(kept_dice, procedure, attacker, defender, 6, 7, rounds)
        assert fought == close_quarters(plain_dice, procedure, attacker, defender, 6, 7)
        assert kept_dice.roll(6) == plain_dice.roll(6)  # (no die more or less was drawn)
        for r in rounds:
            rolls = {
                side: [{"needs": n, "dice": d} for n, d in dice]
                for side, dice in (("a", r.attackers_dice), ("d", r.defenders_dice))
            }
            assert r.defenders_lost == min(r.defenders, _made(rolls["a"]))
            assert r.attackers_lost == min(r.attackers, _made(rolls["d"]))
    # the exact chain is the one it was: a step with no keeper enumerates to its odds,
    # and the attacker's chance is the fraction it was before the dice were kept
    assert exact(
        partial(step, procedure=procedure, attacker=attacker, defender=defender, a=3, d=2)
    ) == (_step_odds(procedure, attacker, defender, 3, 2))
    assert attacker_win_chance(procedure, *_sides(seven=False), 4, 4) == WIN_CHANCE[procedure]


def test_a_7_plus_rolls_its_second_dice_after_all_its_first() -> None:
    """Point-blank fire needing 7+ rolls each shot's die, then a second die for each 6 (the
    dice that scored are rolled again), then the damage dice: kept so, roll by roll."""
    attacker, defender = _sides(seven=True)
    attacker = Side(4, attacker.morale, mode="point-blank", point_blank_hit=(6, 4))
    # attackers: 3 shots 6 2 6, second dice 4 1, one damage die 5; defenders: 2 shots 1 1
    dice = ScriptedDice([6, 2, 6, 4, 1, 5, 1, 1])
    kept = RoundDice()
    assert step(dice, "point-blank-or-hand-to-hand", attacker, defender, 3, 2, kept) == (3, 1)
    assert kept.attackers == [(6, (6, 2, 6)), (4, (4, 1)), (4, (5,))]
    assert kept.defenders == [(6, (1, 1)), (4, ()), (4, ())]
    assert dice.remaining == []
    rolls = [{"needs": n, "dice": d} for n, d in kept.attackers[:-1]]
    assert staged_rolls(rolls) == [(6, 4), (2,), (6, 1)]


def _fight(rounds: list[dict[str, Any]], **outcome: Any) -> Event:
    return Event("close quarters", {"turn": 6, "attacker": 1, "defender": 0, **outcome,
                                    "rounds": rounds})  # fmt: skip


def test_the_account_tells_each_rounds_dice_after_it() -> None:
    """Each round's dice follow it on a line of their own, each side's as a shot's are
    told: to hit (a 7+'s 6 with its second die), then to damage, high to low; blows that
    scored more than the models left say how many counted; a side that struck no blow
    is left out. Point-blank fire against hand-to-hand came first, and is told first."""
    rounds = [
        {"attackers": 6, "defenders": 3, "attackers_lost": 1, "defenders_lost": 2,
         "attackers_dice": [{"needs": 4, "dice": [2, 5, 1, 6, 3, 3]}],
         "defenders_dice": [{"needs": 6, "dice": [6, 2, 6]}, {"needs": 4, "dice": [4, 1]},
                            {"needs": 5, "dice": [5]}],
         "check": {"side": "defenders", "needs": 9, "roll": 6, "passed": True}},
        {"attackers": 5, "defenders": 1, "attackers_lost": 0, "defenders_lost": 1,
         "attackers_dice": [{"needs": 4, "dice": [4, 6, 1, 5, 2]}], "defenders_dice": []},
    ]  # fmt: skip
    fight = _fight(rounds, attacker_wins=True, attackers_left=5, defenders_left=0)
    assert str(describe(fight, UNITS)).split("\n")[1:5] == [
        "      round 1: attackers 6 lose 1, defenders 3 lose 2; defenders' morale check: "
        "needs 9 or less on 2D6, rolled 6 -> passed, the fight goes on",
        "        dice: defenders first, point-blank fire: to hit 7+: 6/4 6/1 2 (1 hit); to damage "
        "5+: 5 (1 casualty); then attackers to damage 4+: 6 5 3 3 2 1 (2 casualties)",
        "      round 2: attackers 5 lose 0, defenders 1 lose 1",
        "        dice: attackers to damage 4+: 6 5 4 2 1 (3 scored: 1 casualty, all it had)",
    ]
    # a round without its dice (a record of format 8 or older, told as written): as it was
    bare = [{k: v for k, v in r.items() if not k.endswith("_dice")} for r in rounds]
    bare_fight = _fight(bare, attacker_wins=True, attackers_left=5, defenders_left=0)
    assert "dice:" not in str(describe(bare_fight, UNITS))


def test_point_blank_fire_before_hand_to_hand_is_told_first() -> None:
    """Probe accounts, finding 5 (seed 17, turn 3): the defenders' point-blank fire came
    before the attackers' hand-to-hand (sheet 001's step 5a before 5c), but the dice line
    told the attackers first, the lone defender killed "with all it had" and then firing.
    The fire is told first and says so; both sides firing (at once) or both hand-to-hand
    are told attackers first, as before."""
    probe = {"attackers": 2, "defenders": 1, "attackers_lost": 0, "defenders_lost": 1,
             "attackers_dice": [{"needs": 4, "dice": [6, 6]}],
             "defenders_dice": [{"needs": 4, "dice": [4]}, {"needs": 4, "dice": [1]}]}  # fmt: skip
    fight = _fight([probe], attacker_wins=True, attackers_left=2, defenders_left=0)
    assert str(describe(fight, UNITS)).split("\n")[2] == (
        "        dice: defenders first, point-blank fire: to hit 4+: 4 (1 hit); to damage 4+: 1 "
        "(0 casualties); then attackers to damage 4+: 6 6 (2 scored: 1 casualty, all it had)"
    )
    both = probe | {"attackers_dice": [{"needs": 4, "dice": [5, 6]}, {"needs": 4, "dice": [6, 6]}]}
    told = str(describe(_fight([both], attacker_wins=True, attackers_left=2, defenders_left=0),
                        UNITS)).split("\n")[2]  # fmt: skip
    assert (
        told.startswith("        dice: attackers to hit 4+: 6 5 (2 hits); ") and "first" not in told
    )


def test_more_hand_to_hand_dice_than_models_say_assault_weapons_strike_twice() -> None:
    """Probe accounts, finding 5 (Bolt Action, seed 52, turn 6): 4 attackers rolled 7 dice,
    rightly (docs/rules: two attacks with an assault weapon), but the line did not say why.
    It says so where a side rolls more dice than it has models, and not otherwise."""
    r = {"attackers": 4, "defenders": 6, "attackers_lost": 2, "defenders_lost": 2,
         "attackers_dice": [{"needs": 4, "dice": [2, 3, 6, 3, 5, 2, 3]}],
         "defenders_dice": [{"needs": 5, "dice": [5, 4, 2, 1]}]}  # fmt: skip
    told = str(describe(_fight([r], attacker_wins=True, attackers_left=2, defenders_left=0),
                        UNITS)).split("\n")[2]  # fmt: skip
    assert told == (
        "        dice: attackers to damage 4+, 7 dice from 4 models (assault weapons strike "
        "twice): 6 5 3 3 3 2 2 (2 casualties); defenders to damage 5+: 5 4 2 1 (2 casualties)"
    )


def test_a_format_8_record_without_the_fights_dice_replays(tmp_path: Path) -> None:
    """A record of format 8, written before a fight's dice were, has none in its rounds
    and still replays, the replay saying once what it lacks; its account tells them (the
    replay rolls them again)."""
    text = fight_record("konflikt47")
    assert '"attackers_dice":' in text
    old = older_format(text, 8)
    assert '"attackers_dice":' not in old and '"defenders_dice":' not in old
    assert '"hit_dice":' in old  # (format 8's own dice stay)
    path = tmp_path / "old.jsonl"
    path.write_text(old, encoding="utf-8")
    result = record.replay(path)
    assert result.reproduced and result.finished and result.older_format == 8
    (note,) = result.notes()
    assert "'kriegsspiel-record/8'" in note and "each close quarters round's dice" in note
    done = run_cli("replay", str(path), "--account", timeout=120)
    assert done.returncode == 0, done.stderr
    assert "\n        dice: " in done.stdout  # (a round's dice: indented under it)
    round_ = {"attackers": 2, "defenders": 1, "attackers_lost": 0, "defenders_lost": 1,
              "attackers_dice": [{"needs": 4, "dice": [5, 1]}], "defenders_dice": []}  # fmt: skip
    row = {"event": "close quarters", "rounds": [round_]}
    assert as_written_in(row, 8)["rounds"] == [
        {k: v for k, v in round_.items() if not k.endswith("_dice")}
    ]
    assert as_written_in(row, 9) == row


def test_a_die_off_the_d6_in_a_round_is_named(tmp_path: Path) -> None:
    """A fight's die changed by hand to what no D6 shows is a bad line, named as any other."""
    rows = fight_record("bolt-action-1").splitlines()
    at = next(i for i, r in enumerate(rows) if '"attackers_dice":[' in r)
    row = json.loads(rows[at])
    row["rounds"][0]["attackers_dice"][0]["dice"][0] = 7
    rows[at] = json.dumps(row, sort_keys=True, separators=(",", ":"))
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(DataFileError) as caught:
        record.replay(path)
    assert "field rounds.0.attackers_dice.0.dice.0: must be 6 or less" in str(caught.value)
