"""The tactical AI is deterministic whatever its seed; given ``explore`` it picks among
its near-best orders by its seed (docs/environment.md, "A varied opponent")."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import kriegsspiel
from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.players import chance_outcome
from kriegsspiel.core.game import CHANCE
from kriegsspiel.errors import UsageError

gymnasium = pytest.importorskip("gymnasium")
from kriegsspiel.env.versus_ai import VersusAIEnv  # noqa: E402


def decisions(players: dict[str, TacticalPlayer], seed: int = 3) -> dict[str, list[object]]:
    """Each player's choice at every decision of one Konflikt '47 game, played on by the
    first player's choices."""
    game = kriegsspiel.new_game("konflikt47", seed=seed)
    rng, lead = random.Random(seed), next(iter(players))
    chosen: dict[str, list[object]] = {name: [] for name in players}
    while not game.is_terminal():
        if game.current_player() == CHANCE:
            game.apply_action(chance_outcome(game, rng))
            continue
        state = game.clone()
        for name, player in players.items():
            chosen[name].append(player.choose(state))
        game.apply_action(chosen[lead][-1])
    return chosen


def test_the_tactical_ai_is_deterministic_whatever_its_seed() -> None:
    chosen = decisions({"1": TacticalPlayer(1), "987654": TacticalPlayer(987654)})
    assert len(chosen["1"]) > 50
    assert chosen["1"] == chosen["987654"]


def test_an_exploring_tactical_ai_varies_with_its_seed() -> None:
    """The same seed gives the same choices, another seed others; explore 0 is the AI's
    own play; every exploring order is worth within ``explore`` of the best."""
    chosen = decisions(
        {
            "explore 1": TacticalPlayer(1, explore=1.0),
            "explore 1 again": TacticalPlayer(1, explore=1.0),
            "explore 987654": TacticalPlayer(987654, explore=1.0),
            "explore 0": TacticalPlayer(1, explore=0.0),
            "default": TacticalPlayer(1),
        }
    )
    assert chosen["explore 1"] == chosen["explore 1 again"]
    differ = sum(a != b for a, b in zip(chosen["explore 1"], chosen["explore 987654"], strict=True))
    assert differ >= 5, differ
    assert chosen["explore 0"] == chosen["default"]
    assert chosen["explore 1"] != chosen["default"]


def test_an_exploring_order_is_worth_within_explore_of_the_best() -> None:
    game = kriegsspiel.new_game("konflikt47", seed=5)
    rng, judge = random.Random(5), TacticalPlayer()
    explorer, picked_other = TacticalPlayer(2, explore=2.0), 0
    for _ in range(60):
        if game.current_player() == CHANCE:
            game.apply_action(chance_outcome(game, rng))
            continue
        choice = explorer.choose(game)
        if game.pending is None:  # an order: valued as the AI values orders
            best = judge.choose(game)
            assert judge.value(game, choice) >= judge.value(game, best) - 2.0
            picked_other += choice != best
        else:  # a reaction or a kept die: its best, as without explore
            assert choice == judge.choose(game)
        game.apply_action(choice)
    assert picked_other > 0


@pytest.mark.parametrize(
    ("explore", "says"),
    [(-1.0, "explore is 0 or more"), (float("nan"), "explore is 0 or more"), ("1", "explore")],
)
def test_a_bad_explore_is_refused(explore: object, says: str) -> None:
    with pytest.raises(UsageError, match=says):
        TacticalPlayer(1, explore=explore)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=says):
        VersusAIEnv(explore=explore)  # type: ignore[arg-type]


def test_versus_ai_explores_by_the_episode_seed_and_not_by_default() -> None:
    def trajectory(seed: int, **kwargs: object) -> list[object]:
        env = VersusAIEnv(**kwargs)  # type: ignore[arg-type]
        _observation, info = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        while True:
            index = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _observation, _reward, over, _cut, info = env.step(index)
            if over:
                return [e.to_json() for e in env.game.events]

    plain = trajectory(4)
    assert trajectory(4, explore=0.0) == plain
    exploring = trajectory(4, explore=1.0)
    assert trajectory(4, explore=1.0) == exploring
    assert exploring != plain
    assert trajectory(5, explore=1.0) != trajectory(5)


def test_explore_is_refused_with_the_random_opponent() -> None:
    with pytest.raises(UsageError, match="varies the tactical AI's choices"):
        VersusAIEnv(opponent="random", explore=1.0)
    assert VersusAIEnv(opponent="random", explore=0.0).explore == 0.0


def test_versus_ais_record_names_the_exploring_opponent_as_play_takes_it(tmp_path) -> None:
    """The agent's side is "agent", the AI's "tactical:explore=1" (as ``play --players``
    takes it), and the record replays; without explore the AI is "tactical" as before."""
    for explore, named in ((1.0, "tactical:explore=1"), (0.0, "tactical")):
        env = VersusAIEnv(side=1, explore=explore)
        _observation, info = env.reset(seed=4)
        for _ in range(20):
            index = int(np.flatnonzero(info["action_mask"])[0])
            _observation, _reward, _over, _cut, info = env.step(index)
        path = tmp_path / f"{explore}.jsonl"
        env.record(str(path))
        head = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        assert head["players"] == [named, "agent"]
        assert kriegsspiel.replay(path).reproduced
