"""The engine and the environments refuse what a Python caller may get wrong, saying
what and why, and change nothing (found by probing the API as a researcher would)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import kriegsspiel
from kriegsspiel.ai.players import chance_outcome
from kriegsspiel.core.game import IllegalActionError
from kriegsspiel.env.aec import KriegsspielEnv
from kriegsspiel.env.episode import Setup
from kriegsspiel.env.versus_ai import VersusAIEnv
from kriegsspiel.rulesets.bolt_action.game.actions import Action


def at_first_order(seed: int = 3):
    game = kriegsspiel.new_game("konflikt47", seed=seed)
    game.apply_action(chance_outcome(game, random.Random(seed)))
    unit = next(a.unit for a in game.legal_actions() if a.kind == "order")
    return game, unit


def refused(game, action, match: str) -> None:
    """``action`` is refused saying ``match``, is not legal, and changes nothing."""
    before = (len(game.events), game.observation())
    assert not game.is_legal(action)
    with pytest.raises(IllegalActionError, match=match):
        game.apply_action(action)
    assert (len(game.events), game.observation()) == before


@pytest.mark.parametrize(
    "fields",
    [{"to": (10.0, 10.0)}, {"choice": "hand-to-hand"}, {}],
)
@pytest.mark.parametrize("target", [999, -1])
def test_an_assault_at_a_unit_that_does_not_exist_is_refused(fields, target):
    game, unit = at_first_order()
    action = Action("order", unit=unit, order="Run", target=target, **fields)
    refused(game, action, f"there is no unit {target}")


def test_a_draw_carries_only_its_side_and_names_the_sides_with_dice():
    game = kriegsspiel.new_game("konflikt47", seed=3)
    for extra in ({"unit": 5}, {"order": "Fire"}, {"to": (1.0, 2.0)}, {"facing": 5.0}):
        refused(game, Action("draw", side=0, **extra), "a draw from the bag carries only its side")
    refused(game, Action("draw"), r"a draw names the side .*: 0 or 1, not -1")
    refused(game, Action("order", unit=1, order="Down"), "not an 'order' action")
    game.apply_action(Action("draw", side=0))  # (the draw itself is taken)
    refused(game, Action("explode", unit=1), "must give an order, not an 'explode' action")


def test_numpy_numbers_are_refused_saying_to_give_pythons():
    game, unit = at_first_order()
    hint = r"a NumPy number: give Python's, int\(x\) or float\(x\)"
    refused(game, Action("order", unit=np.int64(unit), order="Down"), hint)
    refused(game, Action("order", unit=unit, order="Advance", to=(np.float32(5), 5.0)), hint)
    # a seed is only a number: NumPy's is taken, and plays the same game as Python's
    same = kriegsspiel.new_game(seed=np.int64(3))
    assert same.observation() == kriegsspiel.new_game(seed=3).observation()
    twin = same.clone()
    twin.reseed(np.int64(5))
    seed = twin.events[-1].data["seed"]
    assert seed == 5 and type(seed) is int  # (the record writes Python's number)


@pytest.mark.parametrize(
    ("data", "match"),
    [
        ({}, "an action in JSON needs a 'kind'"),
        ("order", "an action in JSON is an object with a 'kind', not str"),
        (None, "not NoneType"),
        ({"kind": "order", "unti": 3}, "an action has no field 'unti'; its fields are kind, side"),
    ],
)
def test_an_action_read_from_json_that_is_not_one_is_refused_by_name(data, match):
    with pytest.raises(IllegalActionError, match=match):
        Action.from_json(data)


def test_an_action_read_from_json_keeps_any_destination_hashable():
    hash(Action.from_json({"kind": "order", "to": [1]}))  # (refused when taken, by name)
    assert Action.from_json({"kind": "order", "to": [1, 2]}).to == (1, 2)


def test_describe_names_a_unit_that_does_not_exist_plainly():
    game, _ = at_first_order()
    assert Action("order", unit=999, order="Down").describe(game) == "unit 999: Down"


def test_the_environments_refuse_wrong_arguments_by_name():
    with pytest.raises(ValueError, match=r"side is 0 or 1, not 1\.0"):
        VersusAIEnv("konflikt47", side=1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a cell is a positive number of inches, not '3'"):
        Setup.of("konflikt47", cell="3")  # type: ignore[arg-type]
    env = KriegsspielEnv("konflikt47")
    for call in (lambda: env.step(0), env.last):
        with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
            call()
    env.reset(seed=1)
    for call in (env.observe, env.observation_space, env.action_space):
        with pytest.raises(ValueError, match="no agent 'player_2': the agents are player_0"):
            call("player_2")
    with pytest.raises(ValueError, match="an index is a whole number from 0 to 15639, not 'a'"):
        env.describe("a")  # type: ignore[arg-type]
    assert env.describe(np.int64(0)) == env.describe(0)


WRONG_TYPES = [
    (
        lambda env: env.reset(seed="3"),
        "seed must be a whole number 0 to 9223372036854775807, not '3'",
    ),
    (
        lambda env: env.reset(seed=1.5),
        "seed must be a whole number 0 to 9223372036854775807, not 1.5",
    ),
    (lambda env: env.reset(options={"swap": "yes"}), "swap option is True or False, not 'yes'"),
    (lambda env: type(env)(cell="3"), "a cell is a positive number of inches, not '3'"),
    (lambda env: type(env)(ruleset=5), "the ruleset is a name such as konflikt47, not 5"),
    (lambda env: type(env)(armies=5), "the armies are a list of two files or shipped names"),
    (lambda env: type(env)(render_mode=5), "render_mode is ansi, svg, rgb_array, human or None"),
]
WRONG_VALUES = [
    (
        lambda env: env.reset(seed=-1),
        "seed must be a whole number 0 to 9223372036854775807, not -1",
    ),
    (lambda env: type(env)(cell=0), "a cell is a positive number of inches, not 0"),
    (lambda env: type(env)(cell=0.01), r"give a cell of 0\.25 inches or more"),
    (lambda env: type(env)(ruleset="konflict47"), r"\(did you mean 'konflikt47'\?\)"),
    (lambda env: type(env)(armies=["x"]), "give two armies"),
    (
        lambda env: type(env)(render_mode="rgb"),
        "render_mode is ansi, svg, rgb_array, human or None",
    ),
]
VERSUS_WRONG_TYPES = [
    ({"side": "0"}, "side is 0 or 1, not '0'"),
    ({"side": True}, "side is 0 or 1, not True"),
    ({"opponent": 5}, "opponent is tactical or random, not 5"),
    ({"illegal": None}, "illegal is raise or lose, not None"),
]
VERSUS_WRONG_VALUES = [
    ({"side": 2}, "side is 0 or 1, not 2"),
    ({"opponent": "human"}, "opponent is tactical or random, not 'human'"),
]


@pytest.fixture(scope="module", params=[VersusAIEnv, KriegsspielEnv])
def environment(request):  # type: ignore[no-untyped-def]
    return request.param()


def _refused(call, match: str):  # type: ignore[no-untyped-def]
    from kriegsspiel.errors import UsageError

    with pytest.raises(UsageError, match=match) as refused:
        call()
    return refused.value


@pytest.mark.parametrize(("call", "match"), WRONG_TYPES)
def test_an_argument_of_the_wrong_type_is_a_usage_error_and_a_type_error(environment, call, match):
    """As docs/environment.md says: a KriegsspielError saying what is right, a ValueError,
    and a TypeError too (found by a probe: these were ValueErrors only)."""
    refused = _refused(lambda: call(environment), match)
    assert isinstance(refused, TypeError) and isinstance(refused, ValueError)


@pytest.mark.parametrize(("call", "match"), WRONG_VALUES)
def test_an_argument_of_the_right_type_and_a_wrong_value_is_a_value_error_only(
    environment, call, match
):
    refused = _refused(lambda: call(environment), match)
    assert isinstance(refused, ValueError) and not isinstance(refused, TypeError)


@pytest.mark.parametrize(("kwargs", "match"), VERSUS_WRONG_TYPES + VERSUS_WRONG_VALUES)
def test_the_versus_ai_environments_own_arguments_say_type_or_value(kwargs, match):
    refused = _refused(lambda: VersusAIEnv(**kwargs), match)
    assert isinstance(refused, TypeError) == ((kwargs, match) in VERSUS_WRONG_TYPES)


def test_new_games_arguments_of_the_wrong_type_are_type_errors_too():
    for kwargs in ({"seed": 2.0}, {"ruleset": 3}, {"armies": ["us-tesla-company", 5]}):
        with pytest.raises(TypeError):
            kriegsspiel.new_game(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(
        ValueError, match="seed must be a whole number 0 to 9223372036854775807"
    ) as refused:
        kriegsspiel.new_game(seed=-1)
    assert not isinstance(refused.value, TypeError)


def test_a_sensible_fine_cell_plays_and_a_ruleset_of_none_is_the_armies_edition():
    """0.5" cells (half a million indices) still make a working environment; None, as
    new_game takes it, is the edition the armies are for, else Konflikt '47."""
    env = VersusAIEnv(cell=0.5)
    assert env.action_space.n == 499_480
    observation, info = env.reset(seed=1)
    assert env.observation_space.contains(observation)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert Setup.of(None).matchup.ruleset == "konflikt47"
    british = ["british-rifle-platoon", "german-grenadier-platoon"]
    assert KriegsspielEnv(None, armies=british).setup.matchup.ruleset == "bolt-action-1"
