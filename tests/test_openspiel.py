"""The game registered with OpenSpiel: loaded by name, checked by OpenSpiel's own
conformance test, its clones exact or rerolled as asked, and searched by its MCTS."""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import one_unit_armies

pyspiel = pytest.importorskip("pyspiel")

from kriegsspiel.env import openspiel  # noqa: E402  (registers python_kriegsspiel)
from kriegsspiel.env.episode import Setup  # noqa: E402
from kriegsspiel.errors import KriegsspielError  # noqa: E402


def load(**params):
    return pyspiel.load_game(openspiel.SHORT_NAME, params)


def first_open(state, rng: random.Random | None = None) -> int:
    """A chance outcome by its chances, else the first open index (or a random one)."""
    if state.is_chance_node():
        outcomes, chances = zip(*state.chance_outcomes(), strict=True)
        return (rng or random.Random(0)).choices(outcomes, chances)[0]
    actions = state.legal_actions()
    return rng.choice(actions) if rng else actions[0]


def play_on(state, moves: int, rng: random.Random | None = None):
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(first_open(state, rng))
    return state


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_the_game_loads_by_name_with_the_environments_numbering_and_observation(ruleset):
    game = load(ruleset=ruleset)
    setup = Setup.of(ruleset)
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_distinct_actions() == setup.encoding.size  # 15,640 and 18,559
    assert game.max_chance_outcomes() == 2 and game.num_players() == 2
    shapes = setup.observer.shapes
    size = int(np.prod(shapes.planes) + np.prod(shapes.units) + np.prod(shapes.game))
    assert game.observation_tensor_shape() == [size]
    state = game.new_initial_state()
    assert state.is_chance_node()  # the first draw from the bag
    outcomes = state.chance_outcomes()
    assert [side for side, _ in outcomes] == [0, 1] and sum(p for _, p in outcomes) == 1
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 1) == (
        "a die of side B drawn from the bag"
    )
    state.apply_action(0)
    assert state.current_player() == 0
    # the open indices are the environments' own, said in their words
    episode = state.episode
    assert state.legal_actions() == sorted(episode.open_indices())
    index = state.legal_actions()[0]
    assert state.action_to_string(0, index) == setup.encoding.describe(index, episode.game)
    # the observation is the environments' arrays, flat, seen from the player's side, in
    # the order gymnasium's flatten of the environments' Dict space gives them
    from gymnasium.spaces import flatten

    from kriegsspiel.env import spaces

    space = spaces.observation_arrays(setup)
    for side in (0, 1):
        arrays = episode.observe(side)
        flat = np.concatenate([arrays[k].ravel() for k in ("game", "planes", "units")])
        assert np.array_equal(np.asarray(state.observation_tensor(side), np.float32), flat)
        assert np.array_equal(flatten(space, arrays), flat)
    observer = game.make_py_observer()
    observer.set_from(state, 1)
    assert set(observer.dict) == {"planes", "units", "game"}
    assert np.array_equal(observer.dict["units"], episode.observe(1)["units"])
    assert state.observation_string(0).startswith("side A\nturn 1 of")


# (Bolt Action's with the slow tests: 13 s of the fast suite's 10 minutes)
@pytest.mark.parametrize(
    "ruleset", ["konflikt47", pytest.param("bolt-action-1", marks=pytest.mark.slow)]
)
def test_openspiels_own_conformance_test_passes(ruleset):
    """``random_sim_test``: random games to their end, every state cloned and checked
    against its clone, legal actions sorted and masked, returns within the utilities,
    and no game longer than ``max_game_length``. (A game's serialisation is left out:
    OpenSpiel cannot save a Python game that keeps a generator, sampled-stochastic ones.)"""
    pyspiel.random_sim_test(load(ruleset=ruleset, rng_seed=3), 1, False, False)


def test_a_state_is_saved_and_read_back_exactly():
    game = load(rng_seed=5)
    state = play_on(game.new_initial_state(), 40)
    read = game.deserialize_state(state.serialize())
    assert str(read) == str(state) and read.history() == state.history()
    assert str(play_on(read, 60)) == str(play_on(state, 60))  # the same dice to come


def test_history_does_not_rebuild_a_state_and_serialize_and_clone_do():
    """The dice are rolled inside the actions, so ``history()`` replayed on a new state
    (the sequence's next seed) does not give the state back; docs/environment.md
    ("Saving") points to ``serialize()`` and ``clone()``, which do."""
    game = load(rng_seed=1)
    state = play_on(game.new_initial_state(), 200, random.Random(0))
    history = state.history()
    rebuilt = game.new_initial_state()
    try:
        for action in history:
            rebuilt.apply_action(action)
    except KriegsspielError:
        pass  # (an index the other dice left not open)
    assert str(rebuilt) != str(state)
    read, clone = game.deserialize_state(state.serialize()), state.clone()
    assert str(read) == str(clone) == str(state)
    assert read.history() == clone.history() == history
    ahead = {str(play_on(s, 100, random.Random(2))) for s in (state, read, clone)}
    assert len(ahead) == 1  # (the same dice to come)


def test_each_new_game_takes_its_seed_from_the_games_generator():
    def seeds(game) -> list[int]:
        return [game.new_initial_state().episode.seed for _ in range(3)]

    first = seeds(load(rng_seed=7))
    assert seeds(load(rng_seed=7)) == first  # reproducible from rng_seed
    assert len(set(first)) == 3  # successive games roll different dice
    assert seeds(load(rng_seed=8))[0] != first[0]
    # a state's seed is fixed when it is made, whichever state is played first
    game = load(rng_seed=7)
    a, b = game.new_initial_state(), game.new_initial_state()
    assert (b.episode.seed, a.episode.seed) == (first[1], first[0])


def test_clones_and_states_read_back_take_no_seed_of_the_games_sequence():
    """However much a search clones (its clones rerolled or not) and however many states
    are read back, the next new game's seed is the one it would be without them: bots of
    different search budgets meet the same games."""
    plain = load(rng_seed=7)
    expected = [plain.new_initial_state().episode.seed for _ in range(2)]
    for reroll in (False, True):
        game = load(rng_seed=7, reroll_on_clone=reroll)
        state = play_on(game.new_initial_state(), 3)
        for _ in range(4):
            play_on(state.clone(), 5)
        game.deserialize_state(state.serialize())
        assert [state.episode.seed, game.new_initial_state().episode.seed] == expected


def test_a_clone_is_exact_unless_the_game_rerolls_clones():
    """By default a clone rolls the dice its original will (OpenSpiel's convention, which
    its conformance test checks); with reroll_on_clone each clone rolls dice of its own,
    so a search cannot know the real game's future, and the original is untouched."""

    def ahead(state) -> str:  # the same choices each time (a seeded pick of the open)
        return str(play_on(state, 150, random.Random(9)))

    exact = play_on(load(rng_seed=1).new_initial_state(), 30)
    assert len({ahead(exact.clone()) for _ in range(3)}) == 1
    rerolled = play_on(load(rng_seed=1, reroll_on_clone=True).new_initial_state(), 30)
    assert str(rerolled) == str(exact)  # (the same game so far: the parameter is for clones)
    assert len({ahead(rerolled.clone()) for _ in range(3)}) == 3  # other dice, other games
    assert ahead(rerolled) == ahead(exact)  # the original rolls its own dice still


def test_clones_of_a_new_state_reroll_too_when_the_game_rerolls_clones():
    """A state not yet looked at is cloned as one played on: with reroll_on_clone each
    clone rolls dice of its own, the original its own, and no seed is taken."""

    def ahead(state) -> str:
        return str(play_on(state, 10**6, random.Random(1)))

    plain = load(rng_seed=7)
    exact, second = plain.new_initial_state(), plain.new_initial_state()
    game = load(rng_seed=7, reroll_on_clone=True)
    fresh = game.new_initial_state()
    futures = {ahead(fresh.clone()) for _ in range(3)}
    assert len(futures) == 3 and ahead(fresh) == ahead(exact) not in futures
    assert game.new_initial_state().episode.seed == second.episode.seed


def test_observation_tensor_is_the_observers_and_takes_no_seed():
    """OpenSpiel's own observation_tensor of a Python game sets up and observes a new
    initial state for the tensor's size at every call; this game's reads its observer."""
    plain = load(rng_seed=7)
    expected = [plain.new_initial_state().episode.seed for _ in range(2)]
    game = load(rng_seed=7)
    state = play_on(game.new_initial_state(), 12)
    while state.is_chance_node():
        play_on(state, 1)
    assert game.observation_tensor_size() == game.observation_tensor_shape()[0] == 7920
    observer = game.make_py_observer()
    for player in (0, 1):
        observer.set_from(state, player)
        tensor = state.observation_tensor(player)
        assert isinstance(tensor, np.ndarray) and tensor.dtype == np.float32
        assert tensor.shape == (7920,) and np.array_equal(tensor, observer.tensor)
    # each answer is the caller's own: the next call, for the other side, leaves it be
    first = state.observation_tensor(0)
    kept = first.copy()
    other = state.observation_tensor(1)
    assert np.array_equal(first, kept) and not np.array_equal(first, other)
    assert not np.shares_memory(first, game.observer.tensor)
    assert np.array_equal(
        state.observation_tensor(), state.observation_tensor(state.current_player())
    )
    assert [state.episode.seed, game.new_initial_state().episode.seed] == expected
    with pytest.raises(ValueError, match="a player is 0 or 1, not 2"):
        state.observation_tensor(2)
    with pytest.raises(ValueError, match=r"not -1 \(no player acts now: name one\)"):
        game.new_initial_state().observation_tensor()  # (at the draw from the bag)


def test_openspiels_mcts_searches_a_decision():
    """MCTS from OpenSpiel (random rollouts; ``solve=False``, since a sampled game's
    outcomes are not proven by one rollout) picks an open index at a real decision."""
    from open_spiel.python.algorithms import mcts

    game = load(rng_seed=2, reroll_on_clone=True)
    state = play_on(game.new_initial_state(), 1)
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=3,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        solve=False,
        random_state=np.random.RandomState(0),
    )
    before = str(state)
    action = bot.step(state)
    assert action in state.legal_actions() and str(state) == before


@pytest.mark.parametrize(
    ("params", "said"),
    [
        ({"ruleset": "chess"}, "Unknown ruleset 'chess'"),
        ({"ruleset": "iron-cross"}, "whole games are built for konflikt47 and bolt-action-1"),
        ({"army_a": "us-tesla-company"}, "give both army_a and army_b, or neither"),
        ({"scenario": "nowhere"}, "scenario 'nowhere' is neither a file nor a shipped"),
        ({"cell": 0.0}, "a cell is a positive number of inches"),
    ],
)
def test_a_game_that_cannot_be_set_up_is_refused_saying_why(params, said):
    with pytest.raises(ValueError, match=said):
        load(**params)


def test_an_index_not_open_is_refused_and_changes_nothing():
    state = play_on(load().new_initial_state(), 1)
    before = str(state)
    open_now = set(state.legal_actions())
    closed = next(i for i in range(state.get_game().num_distinct_actions()) if i not in open_now)
    with pytest.raises(Exception, match="is not open now") as said:
        state.apply_action(closed)
    assert str(state) == before
    # in OpenSpiel's terms: its players read legal_actions(), not a mask
    assert str(said.value).endswith(f"; {len(open_now)} are (see state.legal_actions()).")


@pytest.mark.parametrize("side", [0, 1])
def test_the_tactical_ai_plays_as_an_openspiel_bot_and_beats_a_random_one(side):
    """``AIBot``: the engine's tactical AI through the numbering, in OpenSpiel's own
    ``evaluate_bots`` against its uniform random bot, every index it answers open."""
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    # (rng_seed 12: 11's game for side 1 is a draw since the AI valued a shot at a vehicle
    # by all it does, not its knock-out chance alone)
    game = load(rng_seed=12)
    bots = [pyspiel.make_uniform_random_bot(p, 5) for p in (0, 1)]
    bots[side] = openspiel.AIBot("tactical", seed=3)
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert returns[side] == 1.0 and returns[1 - side] == -1.0


def test_the_bot_answers_the_ais_own_choice_and_then_its_ending():
    from kriegsspiel.sim.matchup import new_player

    state = play_on(load(rng_seed=4).new_initial_state(), 1)
    episode = state.episode
    chosen = new_player("tactical", 3).choose(episode.game.clone())
    first, ending = episode.setup.encoding.encode(episode.game, chosen)
    bot = openspiel.AIBot("tactical", seed=3)
    assert bot.step(state) == first
    state.apply_action(first)
    assert ending is not None  # (here an Advance whose place has several endings)
    assert bot.step(state) == ending


def bots_game(bots, steps: int = 160) -> list[int]:
    """The indices of a game's first ``steps`` steps, the bots deciding (``bots[side]``)."""
    state, rng = load(rng_seed=4).new_initial_state(), random.Random(0)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(first_open(state, rng))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state.history()


def test_an_exploring_bot_varies_by_its_seed_as_versus_ais_opponent_does():
    """``AIBot(kind, seed, explore)``: explore as VersusAI-v0's (the tactical AI picking
    among its near-best orders by a generator seeded from the seed); the same seeds give
    the same game, others another; explore 0 is the bot without it; ``restart_at`` starts
    the draws again; the random bot takes no explore."""

    def bots(explore: float, seeds=(3, 4)):
        return [openspiel.AIBot("tactical", s, explore=explore) for s in seeds]

    plain = bots_game(bots(0.0))
    assert bots_game([openspiel.AIBot("tactical", s) for s in (3, 4)]) == plain
    exploring = bots(1.0)
    played = bots_game(exploring)
    assert played != plain
    assert bots_game(bots(1.0, (5, 6))) != played
    state = load(rng_seed=4).new_initial_state()
    for bot in exploring:
        bot.restart_at(state)
    assert bots_game(exploring) == played
    assert exploring[0].spec == "tactical:explore=1" and exploring[0].explore == 1.0
    with pytest.raises(KriegsspielError, match=r"explore .* varies the tactical AI's choices"):
        openspiel.AIBot("random", 1, explore=1.0)
    with pytest.raises(KriegsspielError, match="explore is 0 or more points"):
        openspiel.AIBot("tactical", 1, explore=-1.0)
    assert openspiel.AIBot("random", 1, explore=0.0).spec == "random"


def test_an_ending_the_numbering_cannot_carry_falls_back_to_the_nearest():
    """Where the AI's very Advance is not open (its place was not the one its cell
    carries), the bot takes the ending with its target and way, else its target."""
    from kriegsspiel.env.openspiel import _ending
    from kriegsspiel.rulesets.bolt_action.game.actions import Action

    def advance(target, choice=None, to=(10.0, 10.0)):
        return Action("order", unit=1, order="Advance", to=to, target=target, choice=choice)

    endings = {7: advance(None), 8: advance(4), 9: advance(4, "reverse"), 10: advance(5)}
    assert _ending(endings, advance(4, "reverse")) == 9
    assert _ending(endings, advance(4, "reverse", to=(11.0, 10.0))) == 9  # way and target
    assert _ending(endings, advance(5, "reverse", to=(11.0, 10.0))) == 10  # target only
    assert _ending(endings, advance(6, to=(11.0, 10.0))) == 7  # neither: the first
    assert _ending(endings, None) == 7


def test_a_new_states_clone_and_saved_copy_are_of_the_same_game():
    """A state not yet played takes its seed when first copied, so its clone and its
    saved copy roll the same dice as it (and the game's generator is not drawn on by
    the copies)."""
    game = load(rng_seed=4)
    state = game.new_initial_state()
    clone, read = state.clone(), game.deserialize_state(state.serialize())
    assert state.episode.seed == clone.episode.seed == read.episode.seed
    ahead = {str(play_on(s, 120, random.Random(1))) for s in (state, clone, read)}
    assert len(ahead) == 1
    assert load(rng_seed=4).new_initial_state().episode.seed == state.episode.seed


@pytest.mark.parametrize(
    "other", [{"ruleset": "bolt-action-1"}, {"cell": 4.0}, {"scenario": "hold-the-crossroads"}]
)
def test_a_state_saved_on_another_set_up_is_refused(other):
    saved = play_on(load().new_initial_state(), 3).serialize()
    with pytest.raises(ValueError, match="played on another set-up than this"):
        load(**other).deserialize_state(saved)
    assert str(load(rng_seed=9).deserialize_state(saved))  # (another seed: the same set-up)


def test_wrong_chance_outcomes_and_seeds_are_refused_by_name():
    state = load().new_initial_state()
    with pytest.raises(ValueError, match=r"a draw from the bag is 0 \(side A\) or 1"):
        state.action_to_string(pyspiel.PlayerId.CHANCE, 2)
    with pytest.raises(
        ValueError, match="rng_seed must be a whole number 0 to 9223372036854775807, not -5"
    ):
        load(rng_seed=-5)


def test_text_that_is_not_a_saved_state_is_refused_by_name():
    game = load()
    saved = play_on(game.new_initial_state(), 3).serialize()
    for text in ("hello", "", saved[: len(saved) // 2], saved.replace("__dict__=", "__dict__=x")):
        with pytest.raises(KriegsspielError, match="is not a saved state of python_kriegsspiel"):
            game.deserialize_state(text)
    assert str(game.deserialize_state(saved))  # (the whole text is read back)


def test_the_ai_bot_names_its_kinds_and_refuses_a_negative_seed():
    with pytest.raises(KriegsspielError, match="no AI player is called 'bogus': the AI players"):
        openspiel.AIBot("bogus")
    with pytest.raises(
        KriegsspielError, match="seed must be a whole number 0 to 9223372036854775807, not -1"
    ):
        openspiel.AIBot("tactical", -1)


def test_a_player_of_the_wrong_type_is_a_kriegsspiel_error_and_a_type_error():
    state = load().new_initial_state()
    with pytest.raises(TypeError, match="a player is 0 or 1, not 'a'") as refused:
        state.observation_tensor("a")
    assert isinstance(refused.value, KriegsspielError)


def test_minus_one_and_what_is_no_whole_number_get_the_environments_refusals():
    """-1 is OpenSpiel's INVALID_ACTION, which its own check refused in C++ words
    ("action_id != kInvalidAction") while 10**6 got kriegsspiel's; now both do, and True
    (once taken as index 1) and 2.0 are refused as not whole numbers."""
    from kriegsspiel.env.episode import IndexTypeError, NotAnIndexError

    state = load().new_initial_state()
    with pytest.raises(KriegsspielError, match="cannot draw a die of side -1 from the bag"):
        state.apply_action(-1)  # (at the draw: no side -1)
    play_on(state, 1)
    before = str(state)
    for number in (-1, np.int64(-1), 10**6):
        with pytest.raises(NotAnIndexError, match=f"index {number} is out of range: the indices"):
            state.apply_action(number)
    for wrong in (True, 2.0, None):
        with pytest.raises(IndexTypeError, match=f"an action is an index .*, not {wrong!r}"):
            state.apply_action(wrong)
    assert str(state) == before and len(state.history()) == 1
    state.apply_action(np.array(state.legal_actions()[0]))  # (a 0-d array: its int)
    assert len(state.history()) == 2


def test_the_ai_bots_arguments_of_the_wrong_type_are_type_errors_too():
    for kind, seed, said in (
        ("tactical", 1.5, "seed must be a whole number 0 to 9223372036854775807, not 1.5"),
        ("tactical", "3", "seed must be a whole number 0 to 9223372036854775807, not '3'"),
        (5, 0, "an AI bot is 'tactical' or 'random', not 5"),
    ):
        with pytest.raises(TypeError, match=said) as refused:
            openspiel.AIBot(kind, seed)
        assert isinstance(refused.value, KriegsspielError)


def test_a_cell_too_fine_is_refused_when_the_game_is_loaded(tmp_path):
    with pytest.raises(ValueError, match=r"cell=0\.01 cuts .* give a cell of 0\.25 inches"):
        load(cell=0.01)
    # where the memory binds (a unit a side), the refusal names the finest cell that fits
    army_a, army_b = one_unit_armies(tmp_path)
    with pytest.raises(ValueError, match="cell") as refused:
        load(army_a=army_a, army_b=army_b, cell=0.165)
    said = str(refused.value)
    assert isinstance(refused.value, KriegsspielError)
    for part in ("observation planes on", "at most 64 MB", "give a cell of 0.166 inches or more"):
        assert part in said


def test_observation_tensors_at_the_finest_cell_stay_within_the_bound(tmp_path):
    """observation_tensor made a list of Python floats, 34 bytes a number: 81 MB a call
    at a unit a side's finest cell (0.166", 2.4 million numbers), and OpenSpiel's
    rl_environment, holding both players' of this step and the last, peaked at 320 MB
    against the 64 MB the set-up is bounded by. An array of float32 takes 4 bytes a
    number, and the game's set-up, reset and steps through rl_environment stay within
    the bound (measured: 53 MB)."""
    import tracemalloc

    from open_spiel.python import rl_environment

    import kriegsspiel
    from kriegsspiel.env.encoding import MOST_RESET_BYTES, reset_bytes

    army_a, army_b = one_unit_armies(tmp_path)
    kriegsspiel.new_game()  # (the engine's imports and caches: not the game's)
    tracemalloc.start()
    try:
        game = load(army_a=army_a, army_b=army_b, cell=0.166)
        size = game.observation_tensor_size()
        env = rl_environment.Environment(game)
        step = env.reset()
        rng = random.Random(1)
        for _ in range(3):
            player = step.observations["current_player"]
            step = env.step([rng.choice(step.observations["legal_actions"][player])])
        state = env.get_state
        before = tracemalloc.get_traced_memory()[0]
        tensor = state.observation_tensor(0)
        one = tracemalloc.get_traced_memory()[0] - before
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert size == len(tensor) > 2_000_000
    assert one < 4.1 * size  # (a list of floats: 34 bytes a number)
    setup = state.episode.setup
    estimate = reset_bytes(2, setup.encoding.cells, setup.observer.shapes.planes[0])
    assert peak <= estimate <= MOST_RESET_BYTES
