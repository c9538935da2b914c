"""kriegsspiel: an engine for WWII tabletop miniature wargames.

Exact odds, games and simulations for Konflikt '47, Bolt Action 1st edition,
Iron Cross and House Clearing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.game.record import Replay
    from kriegsspiel.rulesets.bolt_action.game.recorded import RecordedGame

__version__ = "0.9.0"


def new_game(
    ruleset: str | None = None,
    scenario: str | Path | None = None,
    armies: Sequence[str | Path] = (),
    seed: int = 1,
    *,
    rules_file: str | Path | None = None,
) -> RecordedGame:
    """A game of ``ruleset`` set up and ready for its first action (a draw from the bag).

    ``ruleset`` None is the one the lists are for, or the ``rules_file``'s, else
    konflikt47. ``scenario`` and the two ``armies`` are files or the names of shipped
    samples; left out, the ruleset's sample scenario and armies. ``seed`` (0 to 2**63 - 1,
    as ``kriegsspiel play --seed``) seeds the game's own dice. ``rules_file``, a
    designer's copy of the edition's rules data (``kriegsspiel rules --copy``), is what
    the lists are checked against and the game is played by. The game follows OpenSpiel's
    shape: ``current_player``, ``legal_actions``, ``chance_outcomes``, ``apply_action``,
    ``is_terminal``, ``returns``, ``clone`` (``reseed`` gives a clone dice of its own, for
    a look-ahead), ``observation``; ``write_record(path)`` writes the record of the game
    so far, which :func:`replay` (and ``kriegsspiel replay``) re-runs.
    """
    from kriegsspiel.core import arguments
    from kriegsspiel.rulesets.bolt_action.game.recorded import RecordedGame
    from kriegsspiel.sim.matchup import army_list, build_matchup

    seed = arguments.seed(seed)
    # (whatever the caller gave: build_matchup refuses what is not two armies by name, its
    # refusals naming the parameters, not the command line's options)
    given = cast("Sequence[str | Path]", army_list(armies))
    matchup = build_matchup(ruleset, scenario, given, rules_file=rules_file)
    return RecordedGame(matchup, seed)


def replay(path: str | Path) -> Replay:
    """Re-run the record at ``path`` (one that ``write_record`` or ``kriegsspiel play``
    wrote) with its seed and decisions, and say whether it reproduces: ``.reproduced``,
    else ``.first_difference`` (the record's line), ``.expected`` and ``.actual``; the
    replayed game is ``.game``. A file that is no record is a DataFileError naming it."""
    from kriegsspiel.rulesets.bolt_action.game.record import replay as replay_record

    return replay_record(path)
