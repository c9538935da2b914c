"""The turn's-end question to a person playing a side: which of its units on Down or Ambush
keep their dice out of the bag for the next turn. Asked once, for all of them ("Keep
which? 1,3 / all / Enter for none"); the game still takes a decision a die, each given
from that one answer as the game asks it."""

from __future__ import annotations

import re
from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from kriegsspiel.ai.players import Player
from kriegsspiel.rulesets.bolt_action.bag import held
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame

# reads the line typed at a prompt (commands answered there: None, to ask again)
Line = Callable[..., str | None]


class KeepQuestion:
    """Asks which dice to keep at the first of a turn's keep decisions, and answers the
    game's later ones of that turn from the same reply."""

    def __init__(self, console: Console, line: Line) -> None:
        self.console = console
        self.line = line
        # the dice kept (True) or put back, by unit, answered at once for the units asked
        # after the first: (the turn, the answers not yet given the game)
        self._kept: tuple[int, dict[int, bool]] = (0, {})

    def decide(self, game: BoltActionGame) -> Action:
        """The game's keep decision now pending: asked of the player, for all the side's
        units that may keep theirs (:func:`keeping`), at the first; from that answer after."""
        p = game.pending
        assert p is not None and p.target is not None
        turn, kept = self._kept
        if turn != game.turn or p.target not in kept:
            units = keeping(game)
            self.console.print(
                f"Turn {game.turn} is over. Each of these units of yours may keep its die out "
                "of the bag for the next turn, and stay on its order; the rest go back in:"
            )
            for number, uid in enumerate(units, start=1):
                unit = game.units[uid]
                self.console.print(f"  {number:>2}  {escape(unit.name)}: {held(unit)}")
            chosen = self._which(units)
            kept = {uid: uid in chosen for uid in units}
        keep = kept.pop(p.target)
        self._kept = (game.turn, kept)
        return next(a for a in game.pending_choices() if (a.choice == "keep") == keep)

    def _which(self, units: list[int]) -> set[int]:
        """The units (of ``units``, numbered from 1) whose dice the player keeps: numbers
        ("1,3" or "1 3"), 'all', 'none' or Enter for none."""
        while True:
            line = self.line("Keep which? (numbers as 1,3; all; Enter for none)", back=False)
            if line is None:
                continue
            word = line.lower()
            if word in ("", "none", "0"):
                return set()
            if word == "all":
                return set(units)
            numbers = re.split(r"[,\s]+", word.strip(", "))
            if all(n.isdigit() and 1 <= int(n) <= len(units) for n in numbers):
                return {units[int(n) - 1] for n in numbers}
            self.console.print(
                f"{escape(line)!r}: give the numbers of the dice to keep, from 1 to "
                f"{len(units)} ('1,3'), 'all', or Enter for none ('help' says more)."
            )


def keep_hint(game: BoltActionGame, adviser: Player) -> str:
    """The dice ``adviser`` (the tactical AI) would keep of those asked about at a turn's
    end: its answer for each unit in turn, as the game asks them (on a copy of it)."""
    twin, side = game.clone(), game.current_player()
    units, kept = keeping(game), []
    while twin.pending is not None and twin.pending.kind == "retain":
        action = adviser.choose(twin)
        if twin.pending.side == side and action.choice == "keep":
            kept.append(twin.pending.target)
        twin.apply_action(action)
    if not kept:
        return "The tactical AI would keep none: Enter."
    names = ", ".join(f"{units.index(u) + 1} {twin.units[u].name}" for u in kept)
    numbers = ",".join(str(units.index(u) + 1) for u in kept)
    return f"The tactical AI would keep {escape(names)}: {numbers}."


def keeping(game: BoltActionGame) -> list[int]:
    """At a turn's end, the units of the side asked that may keep their dice: the one the
    game asks about now, then those of the same side it will ask about after it."""
    p = game.pending
    assert p is not None and p.kind == "retain" and p.target is not None
    later = [u for u in game.retaining if game.units[u].side == p.side]
    return [p.target, *later]
