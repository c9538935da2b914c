"""The environments for learning agents: PettingZoo's AEC API (two agents) and
Gymnasium's (one agent against the AI), each checked by its library's own conformance
test, and against the engine (the same games, records that replay, returns as rewards)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import numpy.typing as npt
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import kriegsspiel.env  # (registers kriegsspiel/VersusAI-v0; binds kriegsspiel too)
from kriegsspiel.ai.players import play
from kriegsspiel.core.game import IllegalActionError
from kriegsspiel.core.seeds import side_seed
from kriegsspiel.env.aec import KriegsspielEnv
from kriegsspiel.env.episode import Episode, NotAnIndexError, Setup
from kriegsspiel.env.observe import GAME_FEATURES, UNIT_FEATURES
from kriegsspiel.env.versus_ai import VersusAIEnv
from kriegsspiel.errors import KriegsspielError, UsageError
from kriegsspiel.sim.matchup import new_player, set_up_game


def random_agents(env: KriegsspielEnv, seed: int) -> tuple[float, float]:
    """Play the env's game to its end, each agent picking an open index at random; the
    rewards each agent was given. Every observation is checked to lie in its space."""
    rng = np.random.default_rng(seed)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, ended, cut, _info = env.last()
        assert env.observation_space(agent).contains(observation), (seed, agent)
        rewards[agent] += reward
        if ended or cut:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return rewards["player_0"], rewards["player_1"]


def test_pettingzoo_api_test_passes() -> None:
    with warnings.catch_warnings():
        # (the observation is a dict of three arrays, which PettingZoo's test notes)
        warnings.simplefilter("ignore", UserWarning)
        api_test(KriegsspielEnv(), num_cycles=400)
        seed_test(KriegsspielEnv, num_cycles=100)


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_random_agents_play_whole_games_whose_returns_are_the_rewards(ruleset: str) -> None:
    env = KriegsspielEnv(ruleset)
    for seed in (0, 1):
        env.reset(seed=seed)
        rewards = {a: 0.0 for a in env.possible_agents}
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            observation, reward, ended, _cut, _info = env.last()
            rewards[agent] += reward
            if ended:
                assert not observation["action_mask"].any()
                env.step(None)
                continue
            mask = observation["action_mask"]
            side = env.possible_agents.index(agent)
            assert env.game.current_player() == side and mask.any()
            env.step(int(rng.choice(np.flatnonzero(mask))))
        game = env.game
        assert game.is_terminal()
        assert (rewards["player_0"], rewards["player_1"]) == game.returns()


def test_the_same_seed_gives_the_same_game_and_a_record_that_replays(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from kriegsspiel.rulesets.bolt_action.game.record import replay

    env = KriegsspielEnv("bolt-action-1")
    env.reset(seed=11)
    random_agents(env, 3)
    first = [e.to_json() for e in env.game.events]
    env.reset(seed=11)
    random_agents(env, 3)
    assert [e.to_json() for e in env.game.events] == first
    path = tmp_path / "agents.jsonl"
    env.record(str(path))
    assert replay(path).reproduced and replay(path).finished
    assert '"players":["agent","agent"]' in path.read_text().splitlines()[0]


def test_an_episode_draws_the_bag_as_play_does() -> None:
    """Driven by the players `kriegsspiel play --seed` would seat, an episode is that game."""
    setup = Setup.of("konflikt47")
    seed = 21
    episode = Episode(setup, seed)
    players = [new_player("random", side_seed(seed, side)) for side in (0, 1)]
    while not episode.over:
        episode.play(players[episode.side].choose(episode.game))
    played = set_up_game(setup.matchup, seed)
    play(played, [new_player("random", side_seed(seed, side)) for side in (0, 1)], seed)
    assert [e.to_json() for e in episode.game.events] == [e.to_json() for e in played.events]


def test_an_advance_with_several_endings_asks_for_its_ending_next() -> None:
    env = KriegsspielEnv()
    env.reset(seed=2)
    enc = env.setup.encoding
    rng = np.random.default_rng(0)
    for _ in range(400):
        opened = env.open_actions()
        several = [i for i, a in opened.items() if isinstance(a, tuple)]
        agent = env.agent_selection
        if not several:
            env.step(int(rng.choice(sorted(opened))))
            continue
        index = several[0]
        endings = opened[index]
        assert isinstance(endings, tuple)
        events = len(env.game.events)
        env.step(index)
        assert len(env.game.events) == events  # nothing carried out yet
        assert env.agent_selection == agent  # the same agent finishes its order
        observation = env.observe(agent)
        mask = observation["action_mask"]
        follow = np.flatnonzero(mask)
        assert len(follow) == len(endings)
        assert all(enc.follow_up <= i < enc.draw for i in follow)
        assert observation["observation"]["game"][5 + 6] == 1  # "decision follow-up"
        place = env.setup.observer.shapes.plane_names.index("the follow-up's place")
        assert observation["observation"]["planes"][place].sum() == 1
        ending = env.open_actions()[int(follow[-1])]
        env.step(int(follow[-1]))
        assert env.game.events[events].data["unit"] == endings[0].unit
        assert ending in endings and env.infos[agent]["action"] == ending.to_json()  # type: ignore[union-attr]
        return
    pytest.fail("no Advance with several endings came up")


def test_a_follow_up_shows_which_unit_is_advancing() -> None:
    """At an Advance's ending, its unit decides and its order is the one pending: the
    place alone may not say whose Advance it is."""
    env = KriegsspielEnv()
    rng = np.random.default_rng(0)
    names = env.setup.observer.shapes.plane_names
    deciding = names.index("units deciding or acted on (models)")
    seen = 0
    for seed in range(3):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, _reward, ended, _cut, _info = env.last()
            if ended:
                env.step(None)
                continue
            advance = env.episode.advance if env.episode is not None else None
            if advance is not None:
                seen += 1
                uid = next(iter(advance.values())).unit
                units = observation["observation"]["units"]
                for flag in ("decides now", "the pending order's unit"):
                    column = units[:, UNIT_FEATURES.index(flag)]
                    assert np.flatnonzero(column).tolist() == [uid], flag
                models = len(env.game.units[uid].alive_models)
                assert observation["observation"]["planes"][deciding].sum() == models
                other = env.observe(env.possible_agents[1 - env.possible_agents.index(agent)])
                assert other["observation"]["units"][uid, UNIT_FEATURES.index("decides now")] == 1
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert seen >= 10


def test_a_finished_games_observation_shows_no_dice_waiting() -> None:
    """The engine puts the dice back as the last turn ends, before the game is over; the
    final observation must not read as a new turn about to begin."""
    env = KriegsspielEnv("bolt-action-1", render_mode="ansi")
    env.reset(seed=3)
    random_agents(env, 3)
    assert env.game.is_terminal() and any(env.game.dice_in_cup())  # (the engine's bag)
    names = env.setup.observer.shapes.plane_names
    for agent in env.possible_agents:
        seen = env.observe(agent)["observation"]
        dice = GAME_FEATURES.index("my dice in the bag / 20")
        assert not seen["game"][dice : dice + 2].any()
        assert not seen["units"][:, UNIT_FEATURES.index("die in the bag")].any()
        assert not seen["planes"][names.index("my units to order (models)")].any()
    shown = env.render()
    assert shown is not None and "game over" in shown and "die in the bag" not in shown


def test_an_index_not_open_is_refused_and_changes_nothing() -> None:
    env = KriegsspielEnv()
    env.reset(seed=5)
    events = list(env.game.events)
    closed = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=f"index {closed} .* is not open now") as said:
        env.step(closed)
    # (pointing where PettingZoo shows the open indices)
    assert str(said.value).endswith(""" are (see the observation's "action_mask").""")
    with pytest.raises(IllegalActionError, match="out of range"):
        env.step(10**9)
    with pytest.raises(IllegalActionError, match="a whole number"):
        env.step("3")  # type: ignore[arg-type]
    assert env.game.events == events


def test_bad_set_ups_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="render_mode is ansi, svg, rgb_array, human or None"):
        KriegsspielEnv(render_mode="rgb")
    with pytest.raises(UsageError, match="no-such-army"):
        KriegsspielEnv(armies=["no-such-army", "no-such-army"])
    with pytest.raises(RuntimeError, match="call reset"):
        KriegsspielEnv().observe("player_0")
    with pytest.raises(ValueError, match="seed must be a whole number"):
        KriegsspielEnv().reset(seed=-1)
    with pytest.raises(ValueError, match="side is 0 or 1"):
        VersusAIEnv(side=2)
    with pytest.raises(ValueError, match="opponent is tactical or random"):
        VersusAIEnv(opponent="human")
    with pytest.raises(ValueError, match="illegal is raise or lose"):
        VersusAIEnv(illegal="ignore")


def test_renders_the_table_and_a_text_summary() -> None:
    env = KriegsspielEnv(render_mode="svg")
    env.reset(seed=1)
    drawing = env.render()
    assert drawing is not None and "<svg" in drawing
    text = VersusAIEnv(render_mode="ansi")
    text.reset(seed=1)
    shown = text.render()
    assert shown is not None and shown.startswith("turn 1 of ")
    assert shown.count("models,") == sum(not u.destroyed for u in text.game.units)


def test_rgb_array_frames_are_one_size_and_show_the_table(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Gymnasium's RecordVideo takes frames of rgb_array: bytes, (height, width, 3), each
    of one size (blocks of 16 pixels, as video encoders want)."""
    from kriegsspiel.render.table_svg import SIDE_COLOURS

    env = gymnasium.make("kriegsspiel/VersusAI-v0", render_mode="rgb_array", opponent="random")
    _observation, info = env.reset(seed=1)
    frames = [env.render()]
    rng = np.random.default_rng(1)
    for _ in range(3):
        env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        frames.append(env.render())
        info = {"action_mask": env.unwrapped.action_masks()}  # type: ignore[attr-defined]
    for frame in frames:
        assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
        assert frame.shape == frames[0].shape and frame.shape[2] == 3
        assert frame.shape[0] % 16 == 0 and frame.shape[1] % 16 == 0
    frame = frames[0]
    assert frame.shape[1] >= 72 * 8  # 8 pixels an inch across the table
    for colour in SIDE_COLOURS:  # each side's models are painted in its colour
        rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
        assert (np.abs(frame.astype(int) - rgb).sum(axis=2) < 12).sum() > 20, colour
    assert not np.array_equal(frames[0], frames[-1])  # the table changes as units move


def test_rgb_array_shows_models_on_the_tables_edge_whole_and_a_legible_caption() -> None:
    """A model may stand on the table's edge (y = 48): the frame's margin shows its disc
    whole, as many pixels of its side's colour as the same models in mid-table; each
    caption line is set at 9 points (wrapped to two rows), not shrunk to fit one."""
    from kriegsspiel.render.table_pixels import EDGE, TEXT, caption_rows, table_pixels
    from kriegsspiel.render.table_svg import SIDE_COLOURS

    game = kriegsspiel.new_game("konflikt47", seed=1)
    unit = next(u for u in game.units if u.side == 1 and u.vehicle is None)
    rgb = [int(SIDE_COLOURS[1][i : i + 2], 16) for i in (1, 3, 5)]

    def painted(y: float) -> tuple[int, npt.NDArray[np.uint8]]:
        for k, model in enumerate(unit.models):
            model.x, model.y = 6.0 + 3.0 * k, y
        frame = table_pixels(game)
        near = np.abs(frame.astype(int) - rgb).sum(axis=2) < 12
        return int(near.sum()), frame

    inside, _frame = painted(24.0)
    on_edge, frame = painted(48.0)
    assert on_edge >= inside * 0.95, (on_edge, inside)
    # the far edge is EDGE inches (8 pixels an inch) from the frame's top: a disc there
    # is painted above it too, in the margin
    top = round(EDGE * 8)
    near = np.abs(frame[: top + 3].astype(int) - rgb).sum(axis=2) < 12
    assert near[: top - 1].any() and near[top + 1 :].any()
    assert frame.shape[0] % 16 == 0 and frame.shape[1] % 16 == 0
    line = (
        "Meeting Engagement at Les Hauts Champs — turn 6 of 6 (game over) — score British "
        "Rifle Platoon, Normandy 1944 0 : 3 Grenadier Platoon, Normandy 1944"
    )
    size, rows = caption_rows(line, frame.shape[1] - 8)
    assert size == TEXT and len(rows) == 2 and " ".join(rows) == line


def test_the_text_says_which_decision_is_pending() -> None:
    env = KriegsspielEnv(render_mode="ansi")
    env.reset(seed=2)
    shown = env.render()
    side = env.possible_agents.index(env.agent_selection)
    eligible = len(env.game.eligible(side))
    assert isinstance(shown, str)
    assert (
        shown.splitlines()[1] == f"deciding: side {side}, an order for one of its {eligible} units"
    )
    rng = np.random.default_rng(0)
    said = set()
    for _ in range(400):
        opened = env.open_actions()
        several = [i for i, a in opened.items() if isinstance(a, tuple)]
        if several:
            endings = opened[several[0]]
            assert isinstance(endings, tuple)
            side = env.possible_agents.index(env.agent_selection)
            env.step(several[0])
            line = str(env.render()).splitlines()[1]
            unit = env.game.units[endings[0].unit].name
            assert line.startswith(f"deciding: side {side}, how {unit}'s Advance to (")
            assert line.endswith(f" ends ({len(endings)} endings open)")
            said.add("follow-up")
        pending = env.game.pending
        if pending is not None and pending.kind == "shot-reaction":
            target = env.game.units[pending.target].name
            line = str(env.render()).splitlines()[1]
            assert line.startswith(f"deciding: side {pending.side}, {target}'s reaction to ")
            said.add("reaction")
        if len(said) == 2:
            return
        env.step(int(rng.choice(sorted(env.open_actions()))))
    pytest.fail(f"only {said} came up")


def test_human_mode_prints_the_text_after_each_reset_and_step(
    capsys: pytest.CaptureFixture[str],
) -> None:
    env = VersusAIEnv(render_mode="human", opponent="random")
    env.reset(seed=1)
    shown = capsys.readouterr().out
    assert shown.startswith("turn 1 of ") and shown.count("models,") >= 2
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert capsys.readouterr().out.count("turn ") == 1  # (one print a step)
    assert env.render() is None and capsys.readouterr().out.startswith("turn ")
    aec = KriegsspielEnv(render_mode="human")
    aec.reset(seed=1)
    assert capsys.readouterr().out.startswith("turn 1 of ")


def test_pettingzoo_render_test_passes(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: KriegsspielEnv(render_mode=render_mode))
    assert "turn 1 of " in capsys.readouterr().out  # (human mode printed)


@pytest.mark.parametrize("opponent", ["tactical", "random"])
def test_one_agent_plays_the_ai_to_a_result(opponent: str) -> None:
    env = gymnasium.make(
        "kriegsspiel/VersusAI-v0", ruleset="bolt-action-1", side=1, opponent=opponent
    )
    _observation, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    total, ended = 0.0, False
    while not ended:
        mask = info["action_mask"]
        assert mask.any() and (mask == env.unwrapped.action_masks()).all()  # type: ignore[attr-defined]
        assert env.unwrapped.game.current_player() == 1  # type: ignore[attr-defined]
        _observation, reward, ended, cut, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not cut
        total += float(reward)
    game = env.unwrapped.game  # type: ignore[attr-defined]
    assert total == game.returns()[1] and not info["action_mask"].any()


def test_the_ai_side_plays_as_in_kriegsspiel_play() -> None:
    """The AI is seeded as `kriegsspiel play --seed` seats it: handed the same decisions
    the AI would make for the agent's side, the episode is the played game."""
    seed = 8
    env = VersusAIEnv(opponent="random")
    env.reset(seed=seed)
    mine = new_player("random", side_seed(seed, 0))
    episode = env.episode
    assert episode is not None
    while not episode.over:
        episode.play(mine.choose(episode.game))
        env._opponent_moves()
    played = set_up_game(env.setup.matchup, seed)
    play(played, [new_player("random", side_seed(seed, s)) for s in (0, 1)], seed)
    assert [e.to_json() for e in episode.game.events] == [e.to_json() for e in played.events]


def test_an_index_not_open_loses_the_game_when_asked_to() -> None:
    env = VersusAIEnv(illegal="lose")
    _observation, info = env.reset(seed=4)
    closed = int(np.flatnonzero(info["action_mask"] == 0)[0])
    observation, reward, ended, _cut, info = env.step(closed)
    assert (reward, ended) == (-1.0, True) and "is not open now" in info["illegal"]
    assert not env.action_masks().any() and not info["action_mask"].any()
    # the final observation shows no decision open, as a finished game's does
    decisions = GAME_FEATURES.index("decision order")
    assert not observation["game"][decisions:].any()
    assert not observation["units"][:, UNIT_FEATURES.index("decides now")].any()
    with pytest.raises(
        IllegalActionError, match="the game is over, forfeited by the agent"
    ) as said:
        env.step(0)
    assert f"index {closed} (" in str(said.value) and "action mask" not in str(said.value)
    strict = VersusAIEnv()
    strict.reset(seed=4)
    with pytest.raises(IllegalActionError, match="is not open now") as said:
        strict.step(closed)
    assert str(said.value).endswith(""" are (see info["action_mask"]).""")  # (Gymnasium's)


@pytest.mark.parametrize(
    ("action", "error", "said"),
    [
        (2.0, TypeError, "an action is an index .a whole number., not 2.0"),
        (None, TypeError, "not None"),
        ("3", TypeError, "not '3'"),
        (-1, ValueError, "index -1 is out of range: the indices are 0 to 15639"),
        (15640, ValueError, "index 15640 is out of range"),
    ],
)
@pytest.mark.parametrize("illegal", ["raise", "lose"])
def test_what_is_not_an_index_is_refused_and_never_forfeits(
    action: object, error: type[Exception], said: str, illegal: str
) -> None:
    """A float, None, a string or a number outside the action space is a caller's mistake,
    refused in both modes: only an index of the space that is not open forfeits."""
    env = VersusAIEnv(illegal=illegal)
    _observation, info = env.reset(seed=4)
    with pytest.raises(error, match=said) as refused:
        env.step(action)  # type: ignore[arg-type]
    assert isinstance(refused.value, NotAnIndexError)  # (an IllegalActionError too)
    assert env.forfeit is None and (env.action_masks() == info["action_mask"]).all()
    _observation, reward, ended, _cut, _info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert reward == 0.0 and not ended


def test_both_masks_are_the_same_int8_array_that_sample_takes() -> None:
    env = gymnasium.make("kriegsspiel/VersusAI-v0")
    _observation, info = env.reset(seed=2)
    mask = env.unwrapped.action_masks()  # type: ignore[attr-defined]
    assert mask.dtype == info["action_mask"].dtype == np.int8
    assert (mask == info["action_mask"]).all()
    for given in (mask, info["action_mask"]):
        assert given[env.action_space.sample(mask=given)] == 1


def test_bad_reset_options_and_seeds_are_refused_by_name() -> None:
    for env in (VersusAIEnv(), KriegsspielEnv()):
        with pytest.raises(
            TypeError, match=r"options is a dict of reset options, e.g. \{'swap'"
        ) as wrong:
            env.reset(options=["swap"])  # type: ignore[arg-type]
        assert isinstance(wrong.value, KriegsspielError)  # (the project's, and Python's)
        with pytest.raises(
            ValueError,
            match=r"seed must be a whole number 0 to 9223372036854775807, not 9223372036854775808",
        ):
            env.reset(seed=2**63)
        env.reset(seed=2**63 - 1)  # (the largest kriegsspiel play --seed takes)
        assert env.episode is not None and env.episode.seed == 2**63 - 1


def test_stepping_after_a_game_ends_says_to_reset() -> None:
    env = VersusAIEnv(opponent="random")
    _observation, info = env.reset(seed=6)
    rng = np.random.default_rng(6)
    ended = False
    while not ended:
        _observation, _reward, ended, _cut, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
    with pytest.raises(
        IllegalActionError, match=r"the game is over: no index is open; call reset\(\)"
    ):
        env.step(0)
    env.reset(seed=6)  # (and a new game is open)
    assert env.action_masks().any()


def test_the_aec_env_says_so_once_its_agents_have_all_left_the_game() -> None:
    env = KriegsspielEnv()
    env.reset(seed=0)
    random_agents(env, 0)
    assert env.agents == []
    for call in (lambda: env.step(None), env.last):
        with pytest.raises(RuntimeError, match=r"the game is over .*call reset\(\)"):
            call()
    env.reset(seed=0)
    assert env.last()[0]["action_mask"].any()


def test_agent_selection_before_reset_says_to_reset_as_pettingzoo_does() -> None:
    """PettingZoo's AEC API sets agent_selection (and rewards, terminations, ...) at
    reset(); read before it, they are an AttributeError saying so, in the words of
    PettingZoo's OrderEnforcingWrapper (it was Python's bare "no attribute")."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    env = KriegsspielEnv()
    for name in ("agent_selection", "rewards", "terminations", "truncations", "infos"):
        with pytest.raises(AttributeError, match=f"^{name} cannot be accessed before reset"):
            getattr(env, name)
        with pytest.raises(AttributeError, match=f"^{name} cannot be accessed before reset"):
            getattr(OrderEnforcingWrapper(KriegsspielEnv()), name)
    assert getattr(env, "agent_selection", None) is None  # (hasattr and getattr still work)
    with pytest.raises(AttributeError, match="object has no attribute 'agent_selected'"):
        env.agent_selected  # type: ignore[attr-defined]  # noqa: B018 (a typo is no reset's)
    env.reset(seed=3)
    assert env.agent_selection == "player_0"
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}


@pytest.mark.parametrize("kind", ["aec", "versus-ai"])
def test_close_lets_go_of_the_game_and_use_after_it_is_a_clear_error(kind: str) -> None:
    """close() releases the game (and the AI, and the terrain planes kept for the table);
    anything asked after it is Gymnasium's ClosedEnvironmentError (a RuntimeError too),
    not the state left behind; closing twice does nothing, as Gymnasium asks."""
    import gc
    import weakref

    from gymnasium.error import ClosedEnvironmentError

    env: KriegsspielEnv | VersusAIEnv
    if kind == "aec":
        env = KriegsspielEnv(render_mode="ansi")
        env.reset(seed=5)
        env.observe("player_0")  # (the terrain planes are worked out at the first)
    else:
        env = VersusAIEnv(render_mode="ansi")
        env.reset(seed=5)
    game = weakref.ref(env.game)
    observer = env.setup.observer
    assert observer._terrain.size > 0
    env.close()
    env.close()  # (again: nothing)
    gc.collect()
    assert game() is None and observer._terrain.size == 0
    calls = {
        "reset()": lambda: env.reset(seed=5),
        "step()": lambda: env.step(0),
        "render()": env.render,
        "game": lambda: env.game,
        "describe()": lambda: env.describe(0),
    }
    if isinstance(env, KriegsspielEnv):
        calls |= {"observe()": lambda: env.observe("player_0"), "last()": env.last}
    else:
        calls["action_masks()"] = env.action_masks
    for asked, call in calls.items():
        with pytest.raises(ClosedEnvironmentError) as closed:
            call()
        assert isinstance(closed.value, RuntimeError)
        assert str(closed.value) == (
            f"{asked} was asked of a closed environment (close() let go of its game): "
            "make a new one."
        )
    if isinstance(env, KriegsspielEnv):  # (not the last game's agent, left behind)
        with pytest.raises(AttributeError, match="agent_selection cannot be accessed: the"):
            env.agent_selection  # noqa: B018
    assert env.action_space is not None  # (the spaces stay: Gymnasium's wrappers read them)


def test_an_agents_game_against_the_ai_replays_and_is_not_resumed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from conftest import run_cli

    env = VersusAIEnv(side=1, opponent="random")
    _observation, info = env.reset(seed=6, options={"swap": True})
    rng = np.random.default_rng(6)
    for _ in range(30):  # part of a game
        env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        info = env._info(None)
    path = tmp_path / "part.jsonl"
    env.record(str(path))
    head = json.loads(path.read_text().splitlines()[0])
    assert head["players"] == ["random", "agent"]
    # swapped: army B holds side 0, in the record as in the game
    armies = env.setup.matchup.armies
    assert head["armies"] == [armies[1].text, armies[0].text]
    replayed = run_cli("replay", str(path))
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    resumed = run_cli("play", "--resume", str(path))
    assert resumed.returncode == 2 and "a learning agent played that game" in resumed.stderr
    assert "Traceback" not in resumed.stderr


def test_demonstrations_name_the_ai_players_at_once() -> None:
    from kriegsspiel.env.demonstrations import Demonstrations

    with pytest.raises(KriegsspielError, match="no AI player is called 'bogus': the AI players"):
        Demonstrations(Setup.of("konflikt47"), players=("tactical", "bogus"))


def test_demonstrations_are_the_ais_games_as_indices() -> None:
    """Each step's index, taken in an environment, makes the AI's choice: the game is
    the one `kriegsspiel play` plays, and the indices were open when they were chosen."""
    from kriegsspiel.env.demonstrations import Demonstrations
    from kriegsspiel.rulesets.bolt_action.game.record import decisions
    from kriegsspiel.sim.matchup import play_game

    setup = Setup.of("konflikt47")
    demos = Demonstrations(setup)
    steps = list(demos.steps([4]))
    assert demos.games == 1 and steps
    for step in steps:
        assert step.mask[step.index] == 1 and step.seed == 4
        assert step.observation["planes"].shape == setup.observer.shapes.planes
    follow_ups = [s for s in steps if setup.encoding.follow_up <= s.index < setup.encoding.draw]
    assert follow_ups  # an Advance's ending is a step of its own
    assert setup.matchup.players == ("tactical", "tactical")
    played = play_game(setup.matchup, 4)
    events = [e.to_json() for e in played.events]
    assert demos.last is not None
    assert [e.to_json() for e in demos.last.game.events] == events
    # every decision of the game is a step (its first), or one no index carries out
    chosen = [a for _, a in decisions(events) if a.kind != "draw"]
    assert len(steps) - len(follow_ups) + demos.skipped == len(chosen)


def test_without_the_env_extra_the_environments_say_what_to_install() -> None:
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['pettingzoo'] = sys.modules['gymnasium'] = None\n"
        "import kriegsspiel.env.encoding, kriegsspiel.env.observe  # need only numpy\n"
        "for name in ('aec', 'versus_ai'):\n"
        "    try:\n"
        "        __import__('kriegsspiel.env.' + name)\n"
        "    except ImportError as missing:\n"
        "        print(missing)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = done.stdout.splitlines()
    assert len(said) == 2 and all("pip install -e '.[env]'" in line for line in said), said


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_many_games_of_random_agents_end_and_replay(ruleset: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """100 games a ruleset through the AEC environment, both sides swapped in half: each
    ends, its rewards are its returns, and its record replays."""
    from kriegsspiel.rulesets.bolt_action.game.record import replay

    env = KriegsspielEnv(ruleset)
    for seed in range(100):
        env.reset(seed=seed, options={"swap": seed % 2 == 1})
        rewards = random_agents(env, seed)
        assert env.game.is_terminal() and rewards == env.game.returns()
        path = tmp_path / f"{seed}.jsonl"
        env.record(str(path))
        assert replay(path).reproduced


def test_a_policys_zero_dimensional_array_is_an_index() -> None:
    """A policy's predict() for one environment gives its action as a 0-d integer array
    (as Stable-Baselines3's does): taken as the index it holds, not refused."""
    env = VersusAIEnv()
    _, info = env.reset(seed=3)
    index = int(np.flatnonzero(info["action_mask"])[0])
    twin = VersusAIEnv()
    twin.reset(seed=3)
    stepped = env.step(np.asarray(index))  # type: ignore[arg-type]
    assert np.array_equal(stepped[0]["units"], twin.step(index)[0]["units"])
    with pytest.raises(IllegalActionError, match="an action is an index"):
        env.step(np.asarray([index]))  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="an action is an index"):
        env.step(np.asarray(float(index)))  # type: ignore[arg-type]


def test_aec_resets_after_a_seeded_one_are_reproducible() -> None:
    """Seeded once, the resets after it without a seed are the same games every run, as
    Gymnasium's environments do (PettingZoo's seed test seeds every reset)."""

    def seeds() -> list[int]:
        env = KriegsspielEnv()
        env.reset(seed=42)
        found = [env.episode.seed]  # type: ignore[union-attr]
        for _ in range(3):
            env.reset()
            found.append(env.episode.seed)  # type: ignore[union-attr]
        return found

    first = seeds()
    assert seeds() == first and len(set(first)) == 4 and first[0] == 42


@pytest.mark.parametrize("options", [{"swap": "no"}, {"swap": 1}, {"swop": True}])
def test_a_reset_option_is_true_or_false_and_known(options: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=r"swap option is True or False|no reset option"):
        VersusAIEnv().reset(seed=1, options=options)
    if "swap" in options:
        with pytest.raises(ValueError, match="swap option is True or False"):
            KriegsspielEnv().reset(seed=1, options=options)
    else:
        KriegsspielEnv().reset(seed=1, options=options)  # (PettingZoo's test gives its own)
    assert VersusAIEnv(side=np.int64(1)).side == 1


@pytest.mark.parametrize("mode", ["ansi", "svg"])
def test_a_forfeited_game_is_shown_over_with_no_decision_open(mode: str) -> None:
    """After a forfeit the engine's game goes on no further, but the agent's game is over:
    the render says so and why, and outlines no unit as deciding."""
    env = VersusAIEnv(illegal="lose", render_mode=mode)
    _observation, info = env.reset(seed=4)
    before = str(env.render())
    closed = int(np.flatnonzero(info["action_mask"] == 0)[0])
    env.step(closed)
    shown = str(env.render())
    if mode == "ansi":
        assert "deciding:" in before and "deciding:" not in shown
        first = shown.splitlines()[0]
        assert f", game over, forfeited by the agent: index {closed} (" in first
        assert first.endswith("was not open")
    else:
        assert 'class="marked"' in before and 'class="marked"' not in shown
    env.reset(seed=4)
    assert str(env.render()) == before


GUIDE = Path(__file__).resolve().parent.parent / "docs" / "environment.md"
# the environment's own methods, which Gymnasium's wrappers do not pass on
OWN = re.compile(r"`(env\.(?:unwrapped\.|get_wrapper_attr\()?[^`…]*?)`")


def test_the_guides_calls_work_on_an_environment_made_by_gymnasium_make(tmp_path: Path) -> None:
    """docs/environment.md's example of an environment made by ``gymnasium.make`` runs as
    pasted, and its record replays; and every call the guide writes of the environment's
    own methods (``record``, ``action_masks``, ``describe``, ``game``) does what the guide
    says, exactly as written: through ``env.unwrapped`` or ``env.get_wrapper_attr`` it
    works on the wrapped environment, and written bare it is the AttributeError the guide
    warns of there, and works on a VersusAIEnv made directly."""
    text = GUIDE.read_text()
    before, section = text.split("**Made by `gymnasium.make`", 1)
    _warning, code = section.split("```python\n", 1)
    code, after = code.split("```", 1)
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"Platoon HQ: .+\n\d+ events; returns \(0\.0, 0\.0\)\n", done.stdout)
    assert kriegsspiel.replay(tmp_path / "versus-ai.jsonl").reproduced
    calls = {
        call
        for call in OWN.findall(text)
        if re.search(r"\b(record|action_masks|describe|game)\b", call) and "..." not in call
    }
    through = {c for c in calls if c.startswith(("env.unwrapped.", "env.get_wrapper_attr("))}
    # a call written bare is the wrapped environment's AttributeError: only the paragraph
    # warning of it may write one
    assert not {c for c in OWN.findall(before + after) if c in calls} - through
    assert {"env.unwrapped.record(path)", 'env.get_wrapper_attr("action_masks")()'} <= through
    wrapped = gymnasium.make("kriegsspiel/VersusAI-v0")
    direct = VersusAIEnv()
    for env in (wrapped, direct):
        _observation, info = env.reset(seed=1)
    index = int(np.flatnonzero(info["action_mask"])[0])
    for call in sorted(calls):
        names = {"path": str(tmp_path / "r.jsonl"), "index": index, "name": "action_masks"}
        if call in through:
            eval(call, {**names, "env": wrapped})  # (raises if the guide's call fails)
        else:
            with pytest.raises(AttributeError, match="'OrderEnforcing' object has no attr"):
                eval(call, {**names, "env": wrapped})
            eval(call, {**names, "env": direct})
    assert len(through) >= 6 and len(calls - through) >= 4, sorted(calls)
