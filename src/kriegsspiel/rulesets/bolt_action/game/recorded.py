"""A game set up from Python (:func:`kriegsspiel.new_game`) that can write its own record.

It is the engine's game, played the same way, holding besides the scenario and list texts
it was set up from: what a record's header needs so that ``kriegsspiel replay`` (or
:func:`kriegsspiel.replay`) re-runs it, as ``kriegsspiel play`` writes one.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, get_args

from kriegsspiel.ai.players import SPEC_EXAMPLE, RecordedSeat, recorded_seat
from kriegsspiel.core import records
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action.game.record import header
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame

if TYPE_CHECKING:
    from kriegsspiel.sim.matchup import Matchup

SEATS: tuple[str, ...] = get_args(RecordedSeat)


class RecordedGame(BoltActionGame):
    """A game that knows the scenario and lists it was set up from (their texts), so that
    :meth:`write_record` can write the record of the game so far. Its clones know them too."""

    def __init__(self, matchup: Matchup, seed: int) -> None:
        from kriegsspiel.sim.matchup import parsed

        scenario, army_a, army_b = parsed(matchup)
        super().__init__(
            matchup.ruleset,
            scenario,
            (army_a, army_b),
            seed=seed,
            rules_file=matchup.rules_file,
            rules_text=matchup.rules_text,
        )
        self.scenario_text = matchup.scenario.text
        self.army_texts = (matchup.armies[0].text, matchup.armies[1].text)

    def clone(self) -> RecordedGame:
        twin = super().clone()  # (a copy of this object: its class and texts too)
        assert isinstance(twin, RecordedGame)
        return twin

    def record_text(self, players: tuple[str, str] = ("agent", "agent")) -> str:
        """The record of the game so far, as :meth:`write_record` writes it."""
        return records.record_text(self._header(players), self.events)

    def write_record(self, path: str | Path, players: tuple[str, str] = ("agent", "agent")) -> str:
        """Write the record of the game so far to ``path`` (JSON Lines, as ``kriegsspiel
        play --record`` writes one; ``kriegsspiel replay`` re-runs it, and so does
        :func:`kriegsspiel.replay`) and return its text. ``players`` names who played
        each side: "agent" (a program of yours, the default), "tactical", "random" or
        "human". A folder that is not there, or a file that cannot be written, is refused
        by name."""
        if not isinstance(path, str | Path) or not str(path).strip():
            raise UsageError(f"path is the record file's name (a str or a Path), not {path!r}")
        head = self._header(players)
        try:
            return records.write_record(path, head, self.events)
        except OSError as exc:
            raise UsageError(
                f"the record cannot be written to {str(path)!r} ({exc.strerror or exc})"
            ) from None

    def _header(self, players: tuple[str, str]) -> dict[str, object]:
        wanted = (
            f"players is two of {', '.join(SEATS)} (side 0's, then side 1's; the tactical AI "
            f"with its options, as {SPEC_EXAMPLE}), not {players!r}"
        )
        if not isinstance(players, tuple | list) or len(players) != 2:
            raise UsageError(wanted)
        try:
            named = [recorded_seat(p) for p in players]
        except UsageError as exc:
            raise UsageError(f"{wanted}: {exc}") from None
        if named[0] is None or named[1] is None:
            raise UsageError(wanted)
        return header(self, self.scenario_text, self.army_texts, (named[0], named[1]))
