"""The game's length: a scenario's last turn may be followed by one more on a D6 roll (the
published rulebooks' scenarios, and the shipped ones: six turns, a seventh on 4+)."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli

from kriegsspiel.core.procedure import ScriptedDice
from kriegsspiel.core.records import FORMATS, dumps, write_record
from kriegsspiel.core.scenario import load_scenario, parse_scenario, sample_scenarios
from kriegsspiel.env.encoding import ActionEncoding
from kriegsspiel.env.observe import GAME_FEATURES, Observer
from kriegsspiel.errors import DataFileError
from kriegsspiel.render.game_account import account
from kriegsspiel.rulesets.bolt_action.game import record
from kriegsspiel.rulesets.bolt_action.game.record_events import as_written_in, in_format
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.turn_end import turn_follows
from kriegsspiel.sim.matchup import Matchup, Source, build_matchup, play_game

RULESETS = ("konflikt47", "bolt-action-1")


def fixed(matchup: Matchup, turns: int) -> Matchup:
    """The matchup on its scenario made a fixed ``turns`` long (no roll for another)."""
    text = matchup.scenario.text.replace("another_turn_on: 4\n", "")
    text = text.replace("turns: 6\n", f"turns: {turns}\n")
    assert "another_turn_on" not in text
    return replace(matchup, scenario=Source(matchup.scenario.label, text))


@cache
def random_games(ruleset: str, seeds: int) -> list[BoltActionGame]:
    """Whole games of the shipped scenario between random players (fast)."""
    matchup = build_matchup(ruleset, "meeting-engagement", [], "random,random")
    return [play_game(matchup, seed) for seed in range(1, seeds + 1)]


def test_the_shipped_scenarios_play_six_turns_and_a_seventh_on_4_plus() -> None:
    for path in sample_scenarios():
        scenario = load_scenario(path)
        assert (scenario.turns, scenario.another_turn_on, scenario.most_turns) == (6, 4, 7)
        assert scenario.another_turn_chance == 0.5
        assert [scenario.last_turn_chance(t) for t in (5, 6, 7)] == [0.0, 0.5, 1.0]
        assert [scenario.may_follow(t) for t in (5, 6, 7)] == [True, True, False]
        assert scenario.length_text() == "6 turns, a seventh on a D6 roll of 4+"
        assert scenario.turn_of(6) == "6 of 6 (a seventh on 4+)"
        assert scenario.turn_of(7) == "7 of 7" and scenario.turn_of(3) == "3 of 6"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_roll_for_a_seventh_turn_comes_up_on_exactly_half_the_faces(ruleset: str) -> None:
    """At the end of turn 6 the game's own dice roll a D6: 4, 5 and 6 play a seventh turn,
    1, 2 and 3 end the game (exactly 1/2); each roll is recorded as it was made."""
    game = random_games(ruleset, 1)[0]
    played = []
    for face in range(1, 7):
        twin = game.clone()
        twin.turn = 6
        twin.dice = ScriptedDice([face])
        played.append(turn_follows(twin))
        rolled = twin.events[-1]
        assert rolled.kind == "another turn"
        assert rolled.data == {"turn": 6, "roll": face, "needs": 4, "played": face >= 4}
        twin.turn = 7  # the seventh turn ends the game, with no roll
        assert not turn_follows(twin) and twin.events[-1] is rolled
    assert played == [False] * 3 + [True] * 3
    for turn in range(1, 6):  # before the last, a turn follows without a roll
        twin = game.clone()
        twin.turn = turn
        assert turn_follows(twin) and twin.events == game.events


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_game_ends_after_6_turns_on_1_to_3_and_after_7_on_4_plus_never_an_eighth(
    ruleset: str,
) -> None:
    """Whole games: every one that lasts to its end rolls once, at the end of turn 6, and
    ends then on 1-3, after a seventh turn on 4+ (both seen); the account tells the roll."""
    seen = set()
    for game in random_games(ruleset, 8):
        rolls = [e for e in game.events if e.kind == "another turn"]
        over = game.events[-1]
        assert over.kind == "game over" and game.turn <= 7
        if len(rolls) == 0:  # (a side wiped out before the end of turn 6)
            assert game.turn <= 6 and any(
                all(u.destroyed for u in game.units if u.side == s) for s in (0, 1)
            )
            continue
        (roll,) = rolls
        assert roll.data["turn"] == 6 and roll.data["played"] == (roll.data["roll"] >= 4)
        wiped = any(all(u.destroyed for u in game.units if u.side == s) for s in (0, 1))
        assert game.turn == (7 if roll.data["played"] else 6) or wiped
        seen.add(roll.data["played"])
        told = "\n".join(account(game.events, game.units))
        outcome = "a seventh turn is played" if roll.data["played"] else "the game ends"
        line = f"-- end of turn 6: rolled {roll.data['roll']} (needs 4+ for another turn) -> "
        assert line + outcome in told
    assert seen == {True, False}


def test_down_and_ambush_dice_may_be_kept_at_the_end_of_turn_6_not_of_the_seventh() -> None:
    """A kept die is asked for at a turn end that a turn may follow: turn 6's (before the
    roll: it counts if the seventh comes), never the seventh's."""
    asked = {turn: 0 for turn in range(1, 8)}
    for game in random_games("bolt-action-1", 8) + random_games("konflikt47", 8):
        for event in game.events:
            if event.kind == "retain":
                asked[event.data["turn"]] += 1
        rolls = [i for i, e in enumerate(game.events) if e.kind == "another turn"]
        retains = [i for i, e in enumerate(game.events) if e.kind == "retain"]
        if rolls:
            assert all(i < rolls[0] for i in retains)  # (kept before the roll)
    assert asked[6] > 0 and asked[7] == 0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_scenario_without_the_roll_ends_after_its_turns(ruleset: str) -> None:
    matchup = fixed(build_matchup(ruleset, "meeting-engagement", [], "random,random"), 2)
    for seed in (1, 2, 3):
        game = play_game(matchup, seed)
        assert game.turn == 2 and game.events[-1].kind == "game over"
        assert not any(e.kind == "another turn" for e in game.events)
        assert not any(e.kind == "retain" and e.data["turn"] == 2 for e in game.events)
        assert game.scenario.length_text() == "2 turns"


def test_another_turn_on_is_a_die_score_and_told_so_where_it_is_not() -> None:
    text = sample_scenarios()[0].read_text(encoding="utf-8")
    for bad in ("1", "7", "0"):
        with pytest.raises(DataFileError) as refused:
            parse_scenario(text.replace("another_turn_on: 4", f"another_turn_on: {bad}"), "s")
        said = str(refused.value)
        assert "field another_turn_on: is the D6 score that plays one more turn, 2 to 6" in said
        assert f"(not {bad})" in said
    assert parse_scenario(text.replace("another_turn_on: 4\n", ""), "s").another_turn_on is None


def test_the_scenario_command_shows_the_roll() -> None:
    done = run_cli("scenario", "meeting-engagement")
    assert done.returncode == 0, done.stderr
    assert "6 turns, a seventh on a D6 roll of 4+" in done.stdout
    listed = run_cli("scenario", "--json")
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)
    assert {(r["turns"], r["another_turn_on"]) for r in rows} == {(6, 4)}


def older(text: str, number: int) -> str:
    """A record as the code of format ``number`` wrote it."""
    lines = [json.loads(line) for line in text.splitlines()]
    lines[0]["format"] = FORMATS[number - 1]
    return "".join(
        dumps(as_written_in(row, number)) + "\n"
        for row in lines
        if in_format(row.get("event", ""), number)
    )


def test_a_record_of_format_8_replays_as_it_was_played(tmp_path: Path) -> None:
    """A record made before the roll (format 8, its scenario of fixed length, as every
    scenario then was) replays as before: its game ends after the scenario's turns, and
    the replay says only that it is of the older format. A record of now holds the roll,
    and a roll changed in it parts from the replay there."""
    matchup = fixed(build_matchup("konflikt47", "meeting-engagement", [], "random,random"), 6)
    game = play_game(matchup, 3)
    texts = (matchup.armies[0].text, matchup.armies[1].text)
    head = record.header(game, matchup.scenario.text, texts, matchup.players)
    now = write_record(tmp_path / "now.jsonl", head, game.events)
    path = tmp_path / "old.jsonl"
    path.write_text(older(now, 8), encoding="utf-8")
    replayed = record.replay(path)
    assert replayed.reproduced and replayed.finished and replayed.older_format == 8
    assert replayed.game is not None and replayed.game.turn == 6
    assert "the roll for another turn after the last" in replayed.notes()[0]
    # a record of now, with the roll: reproduced; its roll changed by hand parts from it
    rolled = build_matchup("konflikt47", "meeting-engagement", [], "random,random")
    game = play_game(rolled, 1)
    head = record.header(game, rolled.scenario.text, texts, rolled.players)
    text = write_record(tmp_path / "rolled.jsonl", head, game.events)
    assert record.replay(tmp_path / "rolled.jsonl").reproduced
    rows = text.splitlines()
    at = next(i for i, r in enumerate(rows) if json.loads(r).get("event") == "another turn")
    row = json.loads(rows[at])
    rows[at] = dumps({**row, "roll": 7 - row["roll"]})
    (tmp_path / "changed.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")
    parted = record.replay(tmp_path / "changed.jsonl")
    assert not parted.reproduced and parted.first_difference == at + 1


def test_the_observation_stays_in_bounds_in_a_seventh_turn() -> None:
    """The observation's turn is over the scenario's most turns: a turn the roll added is
    1, its bound, not past it."""
    game = next(g for g in random_games("bolt-action-1", 8) if g.turn == 7)
    observer = Observer(game, ActionEncoding.of(game))
    turn_at = GAME_FEATURES.index("turn / most turns")
    for side in (0, 1):
        seen = observer.observe(game, side)
        assert seen["game"][turn_at] == np.float32(1.0)
        for key, values in seen.items():
            assert (values >= observer.low[key]).all() and (values <= observer.high[key]).all()
