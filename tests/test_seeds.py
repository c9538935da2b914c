"""Every seed worked out from another is the number it has always been: stored results,
the golden games and environments' replays depend on them (core/seeds.py)."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from kriegsspiel import new_game
from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.players import RandomPlayer, play
from kriegsspiel.core import arguments, seeds
from kriegsspiel.env.episode import new_seed
from kriegsspiel.errors import ParameterError


def test_a_runs_game_seeds_are_the_numbers_stored_results_are_kept_by() -> None:
    assert [seeds.game_seed(7, i) for i in range(3)] == [1201125462, 3618983171, 3831650445]
    assert seeds.game_seed(seeds.MAX_SEED, 5) == 571573118


def test_an_openspiel_games_new_game_seeds_are_a_runs_below_2_to_the_31() -> None:
    assert [seeds.openspiel_seed(3, n) for n in (1, 2, 3)] == [1645421708, 1304316154, 118549108]
    # the same sequence as a run's, cut below 2**31: where a run's is above, they differ
    above = next(n for n in range(1, 50) if seeds.game_seed(3, n) >= 2**31)
    assert seeds.openspiel_seed(3, above) == seeds.game_seed(3, above) - 2**31


def test_an_environments_seeds_after_a_seeded_reset_and_a_clones_rerolls() -> None:
    after = seeds.seeds_after(11)
    assert [seeds.next_seed(after) for _ in range(3)] == [574671950, 552204816, 3423435367]
    rerolls = seeds.reroll_stream(4)
    assert [seeds.reroll_seed(rerolls) for _ in range(2)] == [1013818839, 1302657532]


def test_a_games_chance_stream_is_pythons_generator_of_its_seed() -> None:
    assert seeds.chance_stream(9).getstate() == random.Random(9).getstate()
    assert [seeds.side_seed(40, side) for side in (0, 1)] == [40, 41]


def test_a_seed_drawn_for_no_one_is_below_seeds() -> None:
    drawn = {seeds.random_seed() for _ in range(20)}
    assert all(0 <= s < seeds.SEEDS for s in drawn) and len(drawn) > 1


MAX = seeds.MAX_SEED


@pytest.mark.parametrize(
    ("make", "most", "given"),
    [
        (lambda: TacticalPlayer(seed=-5), MAX + 1, -5),  # (a player's: side_seed's last)
        (lambda: TacticalPlayer(seed=2**70), MAX + 1, 2**70),
        (lambda: RandomPlayer(-5), MAX + 1, -5),
        (lambda: play(None, [RandomPlayer(), RandomPlayer()], -1), MAX, -1),
        (lambda: new_seed(2**63), MAX, 2**63),
        (lambda: new_game(seed=-1), MAX, -1),
    ],
)
def test_every_seed_is_refused_in_the_same_words(
    make: Callable[[], object], most: int, given: int
) -> None:
    with pytest.raises(ParameterError) as refused:
        make()
    assert str(refused.value) == f"seed must be a whole number 0 to {most}, not {given}."
    assert not isinstance(refused.value, TypeError)


@pytest.mark.parametrize("seed", ["3", 1.5, True, None])
def test_a_seed_of_the_wrong_type_is_a_type_error_too(seed: object) -> None:
    for make in (RandomPlayer, TacticalPlayer, new_seed if seed is not None else RandomPlayer):
        with pytest.raises(TypeError, match=f"seed must be a whole number 0 to .*, not {seed!r}"):
            make(seed)  # type: ignore[operator]


def test_a_seed_refused_is_told_in_its_callers_words() -> None:
    with pytest.raises(ParameterError) as refused:
        arguments.seed(-3, "run_seed")
    assert str(refused.value) == f"run_seed must be a whole number 0 to {MAX}, not -3."
    told = refused.value.told_as({"run_seed": "--seed"})
    assert told == f"--seed must be a whole number 0 to {MAX}, not -3."


def test_the_players_of_the_last_seeds_game_are_taken() -> None:
    """A game of the largest seed has side 1's player one seed past it (side_seed)."""
    last = seeds.side_seed(MAX, 1)
    assert TacticalPlayer(last).seed == last and RandomPlayer(np.int64(MAX)).rng
    assert RandomPlayer(np.int64(7)).rng.getstate() == RandomPlayer(7).rng.getstate()
