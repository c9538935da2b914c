"""Look-ahead on clones: a clone rolls its original's dice; ``reseed`` gives it its own.

A searcher (Monte Carlo, MCTS) plays its candidate futures on clones. Every roll but the
bag's is made inside ``apply_action`` from the game's seeded dice, so a clone that kept
them would meet the very dice the real game is about to roll. These tests hold the
contract the README gives: a plain clone is an exact copy (its future is the game's), a
reseeded one rolls dice of its own, neither takes a die from the original, and a record
of a reseeded game says so and replays.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

import kriegsspiel
from kriegsspiel.ai.players import RandomPlayer, chance_outcome
from kriegsspiel.core.game import CHANCE
from kriegsspiel.core.records import dumps, write_record
from kriegsspiel.errors import DataFileError, UsageError
from kriegsspiel.render.game_account import account
from kriegsspiel.rulesets.bolt_action.game import record
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.sim.matchup import build_matchup

RULESETS = ("konflikt47", "bolt-action-1")


def before_a_shot(ruleset: str, seed: int) -> tuple[BoltActionGame, Action]:
    """A sample game played by random players up to the first order to Fire that one of
    them may give; the game and that order."""
    game = kriegsspiel.new_game(ruleset, seed=seed)
    rng, player = random.Random(seed), RandomPlayer(seed)
    while not game.is_terminal():
        if game.current_player() == CHANCE:
            game.apply_action(chance_outcome(game, rng))
            continue
        fire = [a for a in game.legal_actions() if a.kind == "order" and a.order == "Fire"]
        if fire:
            return game, fire[0]
        game.apply_action(player.choose(game))
    raise AssertionError("no shot in the whole game")


def after(game: BoltActionGame, action: Action) -> list[str]:
    """The events ``action`` brings about on ``game`` up to its shot (any reaction it
    asks for answered by the first choice offered), as the record writes them."""
    start = len(game.events)
    game.apply_action(action)
    while not any(e.kind == "shoot" for e in game.events[start:]) and not game.is_terminal():
        assert game.current_player() != CHANCE, "the shot was never fired"
        game.apply_action(game.legal_actions()[0])
    return [dumps(e.to_json()) for e in game.events[start:]]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_clone_rolls_its_originals_dice_and_a_reseeded_one_its_own(ruleset: str) -> None:
    game, fire = before_a_shot(ruleset, 3)
    untouched = game.clone()  # never looked ahead from: what the real game does next
    plain = game.clone()
    reseeded = []
    for k in range(20):
        twin = game.clone()
        twin.reseed(k)
        reseeded.append(after(twin, fire))
    real = after(game, fire)
    assert after(plain, fire) == real  # a plain clone knows the real game's dice
    assert real == after(untouched, fire)  # no clone took a die from the original
    assert len({tuple(r) for r in reseeded}) > 1  # reseeded clones meet dice of their own


@settings(max_examples=15)
@given(seed=st.integers(0, 2**64 - 1))
def test_a_reseeded_future_depends_on_the_seed_alone(seed: int) -> None:
    game, fire = before_a_shot("konflikt47", 5)
    first, second = game.clone(), game.clone()
    first.reseed(seed)
    game.apply_action(game.legal_actions()[-1])  # the original goes its own way meanwhile
    second.reseed(seed)
    assert after(first, fire) == after(second, fire)


@pytest.mark.parametrize("bad", [-1, 2.5, "7", True, None])
def test_a_bad_seed_is_refused_and_changes_nothing(bad: object) -> None:
    game, fire = before_a_shot("bolt-action-1", 2)
    twin = game.clone()
    with pytest.raises(UsageError, match="seed must be a whole number 0 to 9223372036854775807"):
        game.reseed(bad)  # type: ignore[arg-type]
    assert game.events == twin.events and after(game, fire) == after(twin, fire)


def test_a_finished_game_is_not_reseeded() -> None:
    game = kriegsspiel.new_game("konflikt47", seed=4)
    rng, players = random.Random(4), (RandomPlayer(4), RandomPlayer(5))
    while not game.is_terminal():
        side = game.current_player()
        game.apply_action(
            chance_outcome(game, rng) if side == CHANCE else players[side].choose(game)
        )
    events = list(game.events)
    game.reseed(9)
    assert game.events == events and events[-1].kind == "game over"


def reseeded_record(path: Path, at: int = 40, seed: int = 77) -> tuple[str, int]:
    """A sample Konflikt '47 game by random players, reseeded after ``at`` actions, written
    to ``path``; its text and the record's line of the reseed."""
    matchup = build_matchup("konflikt47", None, [])
    game = kriegsspiel.new_game("konflikt47", seed=6)
    rng, players = random.Random(6), (RandomPlayer(6), RandomPlayer(7))
    actions = 0
    while not game.is_terminal():
        if actions == at:
            game.reseed(seed)
        side = game.current_player()
        game.apply_action(
            chance_outcome(game, rng) if side == CHANCE else players[side].choose(game)
        )
        actions += 1
    armies = (matchup.armies[0].text, matchup.armies[1].text)
    head = record.header(game, matchup.scenario.text, armies, ("random", "random"))
    text = write_record(path, head, game.events)
    line = next(n for n, row in enumerate(text.splitlines(), 1) if '"event":"dice"' in row)
    return text, line


def test_a_reseeded_games_record_says_so_and_replays(tmp_path: Path) -> None:
    text, line = reseeded_record(tmp_path / "game.jsonl")
    assert json.loads(text.splitlines()[line - 1])["seed"] == 77
    verdict = record.replay(tmp_path / "game.jsonl")
    assert verdict.reproduced and verdict.finished, (verdict.first_difference, verdict.actual)
    # without the reseed the same decisions meet other dice: the line matters
    lines = text.splitlines()
    (tmp_path / "other.jsonl").write_text(
        "\n".join(lines[: line - 1] + lines[line:]) + "\n", encoding="utf-8"
    )
    parted = record.replay(tmp_path / "other.jsonl")
    assert not parted.reproduced and parted.first_difference is not None
    assert parted.first_difference >= line


def test_a_reseed_line_changed_by_hand_is_named_at_its_line(tmp_path: Path) -> None:
    text, line = reseeded_record(tmp_path / "game.jsonl")
    lines = text.splitlines()
    lines[line - 1] = lines[line - 1].replace('"seed":77', '"seed":-77')
    (tmp_path / "bad.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=f"line {line}, field seed"):
        record.replay(tmp_path / "bad.jsonl")


def test_the_account_of_a_game_tells_where_its_dice_were_reseeded() -> None:
    game, _ = before_a_shot("bolt-action-1", 3)
    game.reseed(12)
    told = account(game.events, game.units)
    assert "  (the dice are rolled from seed 12 from here on)" in told


def test_a_reseeded_record_does_not_go_on_at_the_terminal(tmp_path: Path) -> None:
    text, line = reseeded_record(tmp_path / "game.jsonl", at=0)
    assert line == 3  # after the start, before the first draw
    unfinished = "".join(text.splitlines(keepends=True)[:30])  # a game stopped in turn 1
    (tmp_path / "game.jsonl").write_text(unfinished, encoding="utf-8")
    result = run_cli("play", "--resume", str(tmp_path / "game.jsonl"), cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "line 3: the dice were reseeded there" in result.stderr
    assert "Traceback" not in result.stderr
