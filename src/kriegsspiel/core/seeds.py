"""Seeds: the stream a game's chance outcomes (the order dice) are drawn from, and every
seed worked out from another (a run's games', a side's player's, an environment's).

Each function keeps the arithmetic it had where it was first written: the golden games,
the results store's keys (a run's games by their seeds) and the environments' replays
depend on these numbers, so none may change. Those that look alike differ on purpose
(:func:`game_seed` and :func:`openspiel_seed`: the same sequence, the second below 2**31).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

MAX_SEED = 2**63 - 1  # the largest seed: the results store keeps a run's as a SQLite integer
# the largest seed of a side's AI player: that of side 1 in a game of MAX_SEED (side_seed)
MAX_PLAYER_SEED = MAX_SEED + 1
SEEDS = 2**32  # a seed drawn (an environment reset without one) is below this
OPENSPIEL_SEEDS = 2**31  # an OpenSpiel game's new games' and rerolls' seeds are below this


def chance_stream(seed: int) -> random.Random:
    """The stream a game of ``seed`` draws its chance outcomes (order dice from the bag)
    from, wherever it is played: ``ai.players.play``, an environment's episode, ``kriegsspiel
    play``. The same seed, the same draws: a game played anywhere can be played again."""
    return random.Random(seed)


def side_seed(seed: int, side: int) -> int:
    """The seed of side ``side``'s AI player in a game of ``seed`` (the game's, and one
    more), so a game is the same wherever it is played."""
    return seed + side


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run of ``run_seed`` (evaluate, a sweep's cells): the
    first word of NumPy's ``SeedSequence(run_seed)``'s child ``index``, its own stream
    whatever else runs. The results store keeps the run's games by it."""
    from numpy.random import SeedSequence

    return int(SeedSequence(run_seed, spawn_key=(index,)).generate_state(1)[0])


def openspiel_seed(rng_seed: int, number: int) -> int:
    """The seed of new game ``number`` (from 1) of an OpenSpiel game loaded with
    ``rng_seed``: :func:`game_seed`'s, below ``OPENSPIEL_SEEDS``."""
    return game_seed(rng_seed, number) % OPENSPIEL_SEEDS


def reroll_stream(rng_seed: int) -> random.Random:
    """The stream an OpenSpiel game loaded with ``rng_seed`` draws a ``reroll_on_clone``
    clone's new seed from (:func:`reroll_seed`)."""
    return random.Random(rng_seed)


def reroll_seed(rerolls: random.Random) -> int:
    """The next seed of a :func:`reroll_stream`, below ``OPENSPIEL_SEEDS``."""
    return rerolls.randrange(OPENSPIEL_SEEDS)


def seeds_after(seed: int) -> np.random.Generator:
    """The generator the seeds of an environment's games reset without a seed are drawn
    from (:func:`next_seed`), after one reset with ``seed``."""
    import numpy as np

    return np.random.default_rng(seed)


def next_seed(seeds: np.random.Generator) -> int:
    """The next game's seed, drawn from ``seeds`` (:func:`seeds_after`, or a Gymnasium
    environment's own ``np_random``), below ``SEEDS``."""
    return int(seeds.integers(SEEDS))


def random_seed() -> int:
    """A seed no one chose (an environment reset with none, never seeded), below ``SEEDS``."""
    return random.SystemRandom().randrange(SEEDS)
