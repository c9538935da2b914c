"""One game driven by fixed action indices: chance drawn, Advances finished by a follow-up.

Both environments (:mod:`.aec`, several agents; :mod:`.versus_ai`, one agent against the
tactical AI) play through an :class:`Episode`, so they number, mask and carry out
decisions the same way. A game of seed ``s`` draws its dice from the bag exactly as
``kriegsspiel play --seed s`` does, so an episode whose decisions match a played game's
is that game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from kriegsspiel.ai.players import chance_outcome
from kriegsspiel.core import arguments
from kriegsspiel.core.game import CHANCE, IllegalActionError
from kriegsspiel.core.seeds import chance_stream, random_seed
from kriegsspiel.env.encoding import ActionEncoding
from kriegsspiel.env.observe import Observer, plane_names
from kriegsspiel.errors import UsageError, UsageTypeError
from kriegsspiel.sim.matchup import Matchup, army_list, build_matchup, set_up_game

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from kriegsspiel.rulesets.bolt_action.game.actions import Action
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame


Interface = Literal["gymnasium", "pettingzoo", "openspiel"]  # the APIs an episode is played in
#: Where each interface shows a player the indices open now, in its own API's terms: its
#: refusal of an index not open points there.
OPEN_INDICES_SHOWN_BY: dict[Interface, str] = {
    "gymnasium": 'info["action_mask"]',
    "pettingzoo": 'the observation\'s "action_mask"',
    "openspiel": "state.legal_actions()",
}


class NotAnIndexError(IllegalActionError):
    """Not an index of the action space (a whole number from 0 to its size less 1): a
    caller's mistake rather than a move, refused even where an index not open forfeits."""


class IndexTypeError(NotAnIndexError, TypeError):
    """Not a whole number at all (a float, None, a string...)."""


@dataclass(slots=True)
class Setup:
    """What every episode of an environment shares: the matchup and its numbering."""

    matchup: Matchup
    encoding: ActionEncoding
    observer: Observer

    @classmethod
    def of(
        cls,
        ruleset: str | None = "konflikt47",
        scenario: str | None = None,
        armies: Sequence[str] = (),
        cell: float = 3.0,
        rules_file: str | Path | None = None,
    ) -> Setup:
        """The shipped samples or your files (and rules file), as ``kriegsspiel play``
        takes them; ``ruleset`` None, as :func:`kriegsspiel.new_game` takes it: the
        edition the armies are for, or the rules file's, else konflikt47."""
        given = army_list(armies)  # (anything but a list of them is refused by name)
        # (its refusals name the parameters, as the environments take them too)
        matchup = build_matchup(ruleset, scenario, given, rules_file=rules_file)  # type: ignore[arg-type]
        game = set_up_game(matchup, 0)
        encoding = ActionEncoding.of(game, cell, planes=len(plane_names(game)))
        return cls(matchup, encoding, Observer(game, encoding))


@dataclass(slots=True)
class Episode:
    """A game in progress, waiting for a side's index. It draws from the bag itself
    (never waiting at a chance node), unless ``draws`` is false: then a draw waits for
    :meth:`draw`, as OpenSpiel's explicit chance node (:mod:`.openspiel`)."""

    setup: Setup
    seed: int
    swapped: bool = False
    draws: bool = True
    game: BoltActionGame = field(init=False)
    chance: random.Random = field(init=False)
    # an Advance whose place is chosen and whose ending (target, way) is not yet
    advance: dict[int, Action] | None = field(default=None, init=False)
    _open: dict[int, tuple[Action, ...]] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.game = set_up_game(self.setup.matchup, self.seed, self.swapped)
        self.chance = chance_stream(self.seed)  # as every game of this seed draws the bag
        self._settle()

    @classmethod
    def resumed(
        cls,
        setup: Setup,
        seed: int,
        game: BoltActionGame,
        *,
        swapped: bool = False,
        draws: bool = True,
        chance: random.Random | None = None,
        advance: dict[int, Action] | None = None,
    ) -> Episode:
        """An episode of ``game`` as it stands (a copy's, or one read back), with no new
        set-up: its bag drawn on by ``chance`` (a copy of the generator is kept)."""
        episode = cls.__new__(cls)
        episode.setup, episode.seed, episode.swapped, episode.draws = setup, seed, swapped, draws
        episode.game = game
        episode.chance = random.Random()
        episode.chance.setstate((chance or chance_stream(seed)).getstate())
        episode.advance = None if advance is None else dict(advance)
        episode._open = None
        return episode

    def copy(self) -> Episode:
        """An exact copy: the same dice to come and the same draws from the bag."""
        return Episode.resumed(
            self.setup,
            self.seed,
            self.game.clone(),
            swapped=self.swapped,
            draws=self.draws,
            chance=self.chance,
            advance=self.advance,
        )

    @property
    def over(self) -> bool:
        return self.game.is_terminal()

    @property
    def at_chance(self) -> bool:
        """Whether the next step is a draw from the bag (only where it waits for one)."""
        return self.advance is None and self.game.current_player() == CHANCE

    def draw(self, side: int) -> None:
        """Draw a die of ``side`` from the bag (at a draw that waits for one)."""
        drawn = [a for a, _ in self.game.chance_outcomes() if a.side == side]
        if not self.at_chance or not drawn:
            now = "no draw is due" if not self.at_chance else f"side {side} has no die there"
            raise IllegalActionError(f"cannot draw a die of side {side} from the bag: {now}")
        self.play(drawn[0])

    @property
    def side(self) -> int:
        """The side whose index is awaited (the game's player; TERMINAL once over)."""
        return self.game.current_player()

    def open_indices(self) -> dict[int, Action | tuple[Action, ...]]:
        """The indices open now, each with the action it carries out (an Advance whose
        ending is still open: its endings, chosen by a follow-up index)."""
        if self.advance is not None:
            return dict(self.advance)
        if self._open is None:
            self._open = self.setup.encoding.choices(self.game) if not self.over else {}
        return {i: acts[0] if len(acts) == 1 else acts for i, acts in self._open.items()}

    def mask(self) -> npt.NDArray[np.int8]:
        return self.setup.encoding.mask(self.open_indices())

    def take(self, index: int | np.integer[Any], api: Interface = "gymnasium") -> Action | None:
        """Carry out ``index`` for the side to move: the action carried out, or None if
        it chose an Advance's place and its ending is asked next. An index not open
        raises IllegalActionError, saying what it means and where ``api`` shows the
        open ones, and nothing is changed; anything not an index of the action space
        raises NotAnIndexError."""
        if self.over:
            raise IllegalActionError("the game is over: no index is open")
        index = self.checked(index)
        opened = self.open_indices()
        chosen = opened.get(index)
        if chosen is None:
            raise IllegalActionError(
                f"{self.named(index)} is not open now; {len(opened)} are "
                f"(see {OPEN_INDICES_SHOWN_BY[api]})"
            )
        if isinstance(chosen, tuple):
            self.advance = self.setup.encoding.follow_ups(chosen)
            return None
        self.play(chosen)
        return chosen

    def checked(self, index: object) -> int:
        """``index`` as an int if it is an index of the action space, else NotAnIndexError
        (IndexTypeError, also a TypeError, for what is not a whole number)."""
        if isinstance(index, np.ndarray) and index.shape == () and index.dtype.kind in "iu":
            index = index.item()  # (a 0-d array, as a policy's predict() gives one action)
        if isinstance(index, bool) or not isinstance(index, int | np.integer):
            raise IndexTypeError(f"an action is an index (a whole number), not {index!r}")
        size = self.setup.encoding.size
        if not 0 <= index < size:
            raise NotAnIndexError(f"index {index} is out of range: the indices are 0 to {size - 1}")
        return int(index)

    def named(self, index: int) -> str:
        """ "index i (what it means now)", for an index of the action space."""
        return f"index {index} ({self.setup.encoding.describe(index, self.game)})"

    def play(self, action: Action) -> None:
        """Carry out an engine action (an index's, or another player's) and draw chance."""
        self.game.apply_action(action)
        self.advance, self._open = None, None
        self._settle()

    def observe(self, side: int, *, closed: bool = False) -> dict[str, npt.NDArray[np.float32]]:
        """The position seen from ``side`` (``closed``: with no decision open, as after a
        forfeit)."""
        advance = None if self.advance is None else next(iter(self.advance.values()))
        return self.setup.observer.observe(self.game, side, advance, closed=closed)

    def write_record(self, path: str | Path, players: tuple[str, str]) -> str:
        """Write the game so far as a record (``kriegsspiel replay`` re-runs it); its
        ``players`` are "agent" for a learning agent, else the AI as ``--players`` names it
        ("tactical:explore=1"). The record's
        text is returned."""
        from kriegsspiel.core.records import write_record
        from kriegsspiel.rulesets.bolt_action.game.record import header

        matchup = self.setup.matchup
        armies = (matchup.armies[0].text, matchup.armies[1].text)
        if self.swapped:
            armies = (armies[1], armies[0])
        head = header(self.game, matchup.scenario.text, armies, players)
        try:
            return write_record(path, head, self.game.events)
        except OSError as exc:  # (a folder that is not there, say: named, not a traceback)
            raise UsageError(
                f"the record cannot be written to {str(path)!r} ({exc.strerror or exc})"
            ) from None

    def _settle(self) -> None:
        """Draw from the bag until a side must decide or the game is over (where the
        episode draws itself)."""
        game = self.game
        while self.draws and game.current_player() == CHANCE:
            game.apply_action(chance_outcome(game, self.chance))


def swap_option(options: object, known: tuple[str, ...] | None = ("swap",)) -> bool:
    """``options["swap"]`` (False if left out), which must be true or false; ``known``:
    the option names an environment takes (any other refused), or None to let others
    pass (PettingZoo's API test gives options of its own)."""
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise UsageTypeError(
            f"options is a dict of reset options, e.g. {{'swap': True}}, or None; not {options!r}"
        )
    if known is not None:
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise UsageError(
                f"no reset option {', '.join(map(repr, unknown))}: the options are "
                f"{', '.join(map(repr, known))}"
            )
    swap = options.get("swap", False)
    return arguments.yes_no("swap", swap, f"the swap option is True or False, not {swap!r}")


def new_seed(seed: int | None) -> int:
    """``seed`` checked (0 to MAX_SEED, as ``kriegsspiel play --seed`` takes it), or one
    drawn at random when it is left out."""
    return random_seed() if seed is None else arguments.seed(seed)
