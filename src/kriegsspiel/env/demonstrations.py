"""Games of the AI as numbered steps, for learning by imitation.

Each decision of a game between two AI players becomes a :class:`Step`: the observation
of the side deciding, its mask, and the index that carries out the AI's choice (an
Advance whose place has several endings is two steps, as in the environments). The game
is the one ``kriegsspiel play --seed s --players A,B`` plays, event for event. A choice no
index carries out (a second place of a move in one cell: 1-3% of the tactical AI's, see
docs/environment.md) is played all the same but gives no step; :class:`Demonstrations`
counts them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kriegsspiel.core.seeds import side_seed
from kriegsspiel.env.encoding import NotEncodedError
from kriegsspiel.env.episode import Episode, Setup, new_seed
from kriegsspiel.sim.matchup import new_player


@dataclass(frozen=True, slots=True)
class Step:
    """One decision of a demonstration: who decided, what it saw, what was open, what it chose."""

    seed: int
    side: int
    observation: dict[str, npt.NDArray[np.float32]]
    mask: npt.NDArray[np.int8]
    index: int


@dataclass(slots=True)
class Demonstrations:
    """The steps of AI games of one set-up; ``skipped`` counts the choices no index
    carries out, ``games`` the games played to their end, ``last`` the latest game."""

    setup: Setup
    players: tuple[str, str] = ("tactical", "tactical")
    skipped: int = 0
    games: int = 0
    last: Episode | None = None

    def __post_init__(self) -> None:
        for kind in self.players:  # (refused now, not at the first game)
            new_player(kind, 0)

    def steps(self, seeds: Iterable[int]) -> Iterator[Step]:
        """The steps of one game for each of ``seeds``, in order."""
        encoding = self.setup.encoding
        for given in seeds:
            seed = new_seed(given)
            episode = self.last = Episode(self.setup, seed)
            players = [new_player(kind, side_seed(seed, s)) for s, kind in enumerate(self.players)]
            while not episode.over:
                side = episode.side
                action = players[side].choose(episode.game)
                try:
                    first, second = encoding.encode(episode.game, action)
                except NotEncodedError:
                    self.skipped += 1
                    episode.play(action)
                    continue
                for index in (first, second):
                    if index is None:
                        continue
                    yield Step(seed, side, episode.observe(side), episode.mask(), index)
                    episode.take(index)
            self.games += 1
