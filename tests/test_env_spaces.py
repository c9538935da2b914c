"""The environments' observation spaces: finite bounds worked out from the set-up, which
every observation of every game keeps to (docs/environment.md, "Bounds")."""

from __future__ import annotations

import json
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from test_bolt_action_rules import house_rules

import kriegsspiel.env  # noqa: F401 (registers kriegsspiel/VersusAI-v0)
from kriegsspiel.env import spaces
from kriegsspiel.env.aec import KriegsspielEnv
from kriegsspiel.env.episode import Episode, Setup
from kriegsspiel.env.observe import UNIT_FEATURES
from kriegsspiel.env.versus_ai import VersusAIEnv
from kriegsspiel.errors import DataFileError, UsageError
from kriegsspiel.rulesets.bolt_action.game.record import replay

SET_UPS = [
    (ruleset, scenario)
    for ruleset in ("konflikt47", "bolt-action-1")
    for scenario in ("hold-the-crossroads", "meeting-engagement")
]


def outside(space: gymnasium.spaces.Dict, observation: dict[str, np.ndarray]) -> list[str]:
    """The entries of ``observation`` outside ``space``, named for the failure message."""
    found = []
    for key, array in observation.items():
        box = space[key]
        for at in np.argwhere((array < box.low) | (array > box.high))[:3]:
            where = tuple(int(i) for i in at)
            found.append(
                f"{key}{list(where)} = {array[where]} (bounds {box.low[where]}, {box.high[where]})"
            )
    return found


@pytest.mark.parametrize(("ruleset", "scenario"), SET_UPS)
def test_every_observation_of_random_games_lies_in_its_space(ruleset: str, scenario: str) -> None:
    setup = Setup.of(ruleset, scenario)
    space = spaces.observation_arrays(setup)
    rng = np.random.default_rng(5)
    for seed in range(3):
        episode = Episode(setup, seed, swapped=seed == 1)
        while True:
            for side in (0, 1):
                observation = episode.observe(side)
                assert not outside(space, observation), (seed, outside(space, observation))
            if episode.over:
                break
            episode.take(int(rng.choice(np.flatnonzero(episode.mask()))))


def test_the_bounds_are_the_set_ups_counts() -> None:
    """Konflikt '47's samples at the crossroads: army B has 37 models (army A 35) and 9
    units a side, two vehicles a side; the dearest unit is 220 points; regulars have
    morale 9 and veterans 10, so a live unit holds at most 9 pins; the objectives are
    worth 4 points. At the meeting engagement the score is the enemy's 9 units and the
    all-0 objectives plane is bounded by one point."""
    names = Setup.of("konflikt47").observer.shapes.plane_names
    crossroads = Setup.of("konflikt47", "hold-the-crossroads").observer
    meeting = Setup.of("konflikt47", "meeting-engagement").observer
    high = {name: crossroads.high["planes"][i] for i, name in enumerate(names)}
    assert (high["my models"] == 37).all() and (high["enemy models"] == 37).all()
    assert (high["my vehicles"] == 2).all()
    assert (high["units deciding or acted on (models)"] == 72).all()
    assert (high["objective points / 10"] == np.float32(0.4)).all()
    assert (high["terrain: building"] == 1).all() and (high["the follow-up's place"] == 1).all()
    units = crossroads.high["units"]
    assert (units[:, UNIT_FEATURES.index("pins / 10")] == np.float32(0.9)).all()
    assert (units[:, UNIT_FEATURES.index("points / 1000")] == np.float32(0.22)).all()
    assert (
        crossroads.low["units"][:, UNIT_FEATURES.index("heading cosine (vehicles)")] == -1
    ).all()
    assert crossroads.high["game"][:5].tolist() == pytest.approx([1, 0.45, 0.45, 0.4, 0.4])
    assert meeting.high["game"][3:5].tolist() == pytest.approx([0.9, 0.9])
    assert (meeting.high["planes"][names.index("objective points / 10")] == np.float32(0.1)).all()
    for observer in (crossroads, meeting):
        for key in ("planes", "units", "game"):
            assert np.isfinite(observer.high[key]).all()
            assert (observer.high[key] > observer.low[key]).all(), key


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_gymnasiums_checker_passes_without_a_warning(ruleset: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(
            gymnasium.make("kriegsspiel/VersusAI-v0", ruleset=ruleset, illegal="lose").unwrapped
        )
    assert [str(w.message) for w in caught] == []


def test_a_rules_file_keeping_pinned_out_units_leaves_only_the_pins_unbounded(
    tmp_path: object,
) -> None:
    """With ``pins_destroy_at_base_morale: false`` pins may pile up without end: their
    entries (a unit's pins, the two pins planes) are infinite above, nothing else is, and
    the games are played by the file."""
    path = house_rules(
        tmp_path, "pins_destroy_at_base_morale: true", "pins_destroy_at_base_morale: false"
    )
    env = VersusAIEnv(rules_file=path, opponent="random")
    space = env.observation_space
    names = env.setup.observer.shapes.plane_names
    unbounded = [n for i, n in enumerate(names) if np.isinf(space["planes"].high[i]).all()]
    assert unbounded == ["my pins / 10", "enemy pins / 10"]
    assert np.isinf(space["planes"].high).sum() == 2 * space["planes"].high[0].size
    pins = UNIT_FEATURES.index("pins / 10")
    assert np.isinf(space["units"].high[:, pins]).all()
    assert np.isinf(space["units"].high).sum() == space["units"].high.shape[0]
    assert np.isfinite(space["game"].high).all()
    observation, info = env.reset(seed=2)
    assert not env.game.rules.data.procedure.pins_destroy_at_base_morale
    rng = np.random.default_rng(2)
    for _ in range(40):
        assert not outside(space, observation)
        index = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, _reward, ended, _cut, info = env.step(index)
        if ended:
            break
    record = f"{tmp_path}/house.jsonl"
    head = json.loads(env.record(record).splitlines()[0])
    assert "pins_destroy_at_base_morale: false" in head["rules"]
    assert replay(record).reproduced
    assert KriegsspielEnv(rules_file=path).setup.matchup.rules_text is not None
    assert VersusAIEnv().setup.matchup.rules_text is None


def test_a_rules_file_that_cannot_be_read_is_refused_by_name(tmp_path: object) -> None:
    with pytest.raises(DataFileError, match=r"nowhere\.yaml: cannot be read"):
        VersusAIEnv(rules_file=f"{tmp_path}/nowhere.yaml")


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_several_games_run_in_gymnasiums_vector_environments(mode: str) -> None:
    """make_vec gathers each game's observation and info (an info's values keep one type
    from reset to the last step), resets a finished game, and every observation lies in
    the vector space."""
    envs = gymnasium.make_vec("kriegsspiel/VersusAI-v0", num_envs=2, vectorization_mode=mode)
    try:
        observation, info = envs.reset(seed=1)
        rng = np.random.default_rng(1)
        ended = 0
        for _ in range(150):
            masks = info["action_mask"]
            indices = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks]
            observation, _reward, over, _cut, info = envs.step(np.array(indices))
            assert envs.observation_space.contains(observation)
            ended += int(over.sum())
        assert ended >= 2 and sorted(info) == [
            "_action",
            "_action_mask",
            "_seed",
            "action",
            "action_mask",
            "seed",
        ]
    finally:
        envs.close()


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_a_whole_side_pinned_to_the_limit_in_one_cell_meets_the_bound_exactly(
    ruleset: str,
) -> None:
    """The greatest sum a pins plane can hold (every unit of a side one pin short of its
    morale, all centred in one cell) equals its bound to the last bit: counts are summed
    whole and scaled once, as the bound is (summing tenths in float32 can overshoot)."""
    setup = Setup.of(ruleset, "hold-the-crossroads")
    game = Episode(setup, 0).game
    for unit in game.units:
        if unit.side == 0:
            anchor = unit.anchor
            unit.translate(10.5 - anchor.x, 10.5 - anchor.y)
            unit.pins = game.rules.morale(unit.quality) - 1
    observation = setup.observer.observe(game, 0)
    names = setup.observer.shapes.plane_names
    pins = observation["planes"][names.index("my pins / 10")]
    high = setup.observer.high["planes"][names.index("my pins / 10")]
    row, col = divmod(setup.encoding.cell_of(10.5, 10.5), setup.encoding.columns)
    assert pins[row, col] == high[row, col] and (pins <= high).all()
    assert spaces.observation_arrays(setup).contains(observation)


@pytest.mark.parametrize("make", [VersusAIEnv, KriegsspielEnv])
def test_set_up_errors_name_the_environments_parameters_not_the_options(
    tmp_path: object, make: type
) -> None:
    """The loaders are the command line's; their messages name ``ruleset`` and
    ``rules_file`` as a Python caller gave them, not ``--ruleset``, ``--rules-file``."""
    path = house_rules(
        tmp_path, "pins_destroy_at_base_morale: true", "pins_destroy_at_base_morale: true"
    )
    with pytest.raises(UsageError) as refused:
        make(ruleset="bolt-action-1", rules_file=path)
    said = str(refused.value)
    assert said.startswith(f"rules_file {path}: this file is the rules data of konflikt47")
    assert "(ruleset='konflikt47')" in said and "--" not in said
    with pytest.raises(UsageError, match=r"^give two armies \(army A, then army B: names"):
        make(armies=["us-tesla-company"])
    with pytest.raises(UsageError, match=r"^rules_file was given an empty name"):
        make(rules_file="")
