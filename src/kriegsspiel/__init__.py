"""kriegsspiel: an engine for WWII tabletop miniature wargames.

Exact odds, games and simulations for Konflikt '47, Bolt Action 1st edition,
Iron Cross and House Clearing.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame

__version__ = "0.2.0"


def new_game(
    ruleset: str | None = None,
    scenario: str | None = None,
    armies: Sequence[str] = (),
    seed: int = 1,
    *,
    rules_file: str | None = None,
) -> BoltActionGame:
    """A game of ``ruleset`` set up and ready for its first action (a draw from the bag).

    ``ruleset`` None is the one the lists are for, or the ``rules_file``'s, else
    konflikt47. ``scenario`` and the two ``armies`` are files or the names of shipped
    samples; left out, the ruleset's sample scenario and armies. ``seed`` seeds the game's
    own dice. ``rules_file``, a designer's copy of the edition's rules data (``kriegsspiel
    rules --copy``), is what the lists are checked against and the game is played by. The
    game follows OpenSpiel's shape: ``current_player``, ``legal_actions``,
    ``chance_outcomes``, ``apply_action``, ``is_terminal``, ``returns``, ``clone``
    (``reseed`` gives a clone dice of its own, for a look-ahead), ``observation``.
    """
    from kriegsspiel.errors import UsageError
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
    from kriegsspiel.sim.matchup import army_list, build_matchup, parsed

    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise UsageError(f"seed must be a whole number 0 or more, not {seed!r}.")
    seed = int(seed)  # (a NumPy integer too: the record writes Python's)
    matchup = build_matchup(ruleset, scenario, army_list(armies), rules_file=rules_file)
    table, army_a, army_b = parsed(matchup)
    return BoltActionGame(
        matchup.ruleset,
        table,
        (army_a, army_b),
        seed=seed,
        rules_file=matchup.rules_file,
        rules_text=matchup.rules_text,
    )
