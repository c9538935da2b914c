"""A person setting up their side's units by hand before the first turn (``kriegsspiel
play``), as a player deploys their own force at the table.

Each unit in turn is offered the place the automatic set-up gives it (the AI's own way of
setting up: :mod:`~kriegsspiel.rulesets.bolt_action.game.deployment`). Enter takes it; a
place typed in inches as a move takes one ("30 8", "(30, 8)", with "facing D") puts the
unit there if the set-up's own rule lets it, else says why and the nearest place that
would do; "auto" sets up the rest at the places offered. Each answer goes into the record's
header (``placements``) and the record is saved, so a set-up stopped goes on with
``play --resume``; the game is set up anew from the placements after each, as a replay
sets it up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich import box
from rich.table import Table as RichTable

from kriegsspiel.core.table import Point
from kriegsspiel.render.game_account import army_names, set_up_lines
from kriegsspiel.rulesets.bolt_action.game.deployment import (
    Placement,
    PlacementRefused,
    zone_extent,
)
from kriegsspiel.rulesets.bolt_action.game.record import SIDES, placements_json
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.table_rules import dug_in, dug_in_refusal
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.solo.briefing import ground
from kriegsspiel.solo.human import HumanPlayer, QuitGame, _typed_place
from kriegsspiel.solo.odds_asked import odds_lines

if TYPE_CHECKING:
    from collections.abc import Sequence

    from kriegsspiel.solo.session import SoloGame

SET_UP_HELP = (
    "Set each unit up in turn: Enter sets it up at the place offered (where the automatic "
    "set-up, the AI's own, puts it); or type its place as x,y in inches, or (x, y): the "
    "unit's centre, as the tables show it and a move takes it (its models stand in ranks "
    "of five, 1\" apart, round it), with 'facing D' to face D degrees (0 north, +y; 90 "
    "east, +x), say '30 8 facing 45': a vehicle's front, or the way troops' ranks face "
    "(troops see and fire all round, and a move takes their ranks as they stand, so only "
    "a vehicle chooses a facing on a move). The game checks it as the automatic set-up checks its "
    'own places: inside your zone, on ground it may be set up on, 1" from the units set up '
    "before it. 'auto' sets up all the rest at the places offered; 'back' takes back the "
    "unit set up last; 'units', 'terrain' and 'look NAME' show the table; 'odds' gives the "
    "shots the unit would have in the first turn from the place offered, at each enemy as it "
    "stands now, as 'odds' gives them in the game ('odds x,y' from a place typed, checked "
    "as it would be to set it up there; 'odds NAME' or 'odds N' any unit's from where it "
    "stands; 'kriegsspiel odds shoot' any shot you describe); 'quit' stops (the set-up so "
    "far is saved: play --resume goes on with it)."
)

SET_UP_SHORT = (
    "For each unit: Enter sets it up at the place offered; or type its place, x,y in inches "
    "(its centre, as the tables show it; add 'facing D' to turn it: 0 north, 90 east); "
    "'odds' its shots from the place offered in the first turn ('odds x,y' from another); 'auto' "
    "sets up all the rest at the places offered ('help' says more)."
)


def hand_set_up(kinds: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    """A new game's placements, as its record's header holds them: none yet for each side
    a person plays (a record with them sets those sides up by hand; without, as before)."""
    return {SIDES[side]: [] for side, kind in enumerate(kinds) if kind == "human"}


def unfinished(solo: SoloGame) -> list[int]:
    """The sides a person plays whose set-up by hand is still to do: named in the record's
    placements with fewer units than the side has, and no decision taken yet."""
    held = solo.head.get("placements")
    game = solo.game
    if not isinstance(held, dict) or any(e.kind != "start" for e in game.events):
        return []
    return [
        side
        for side, letter in enumerate(SIDES)
        if solo.seats[side] == "human"
        and letter in held
        and len(held[letter]) < sum(u.side == side for u in game.units)
    ]


def set_up(solo: SoloGame) -> None:
    """Ask the person to set up each side of theirs still to set up (side A first), then
    say where every unit of theirs stands (:func:`set_up_lines`). ``QuitGame`` at 'quit' or the end of the input
    (the record is saved at each unit)."""
    held = solo.head["placements"]
    placements = {
        SIDES.index(letter): [
            Placement(p["unit"], None if "at" not in p else tuple(p["at"]), p.get("facing"))
            for p in placed
        ]
        for letter, placed in held.items()
    }
    solo.game = placed_anew(solo.game, placements)
    for side in unfinished(solo):
        _SideSetUp(solo, side, placements).run()
    solo.setting_up = None
    for line in set_up_lines(solo.game):
        solo.console.print(line, markup=False)


def placed_anew(game: BoltActionGame, placements: dict[int, list[Placement]]) -> BoltActionGame:
    """``game`` set up anew with ``placements`` (as a replay of its record sets it up):
    :class:`PlacementRefused` if one may not be."""
    return BoltActionGame(
        game.ruleset,
        game.scenario,
        game.armies,
        seed=game.seed,
        rules_file=game.rules.rules_file,
        rules_text=game.rules.text,
        deployment=game.deployment,
        placements=placements,
    )


class _SideSetUp:
    """One side's set-up by hand, unit by unit (see the module)."""

    def __init__(self, solo: SoloGame, side: int, placements: dict[int, list[Placement]]) -> None:
        self.solo, self.side, self.placements = solo, side, placements
        self.console = solo.console
        self.player = HumanPlayer(solo.console, solo.ask)  # (answers 'units', 'look' ...)
        self.letter = SIDES[side]

    def run(self) -> None:
        self._introduce()
        while True:
            game = self.solo.game
            mine = [u for u in game.units if u.side == self.side]
            done = {p.unit for p in self.placements[self.side]}
            rest = [u for u in mine if u.uid not in done]
            if not rest:
                return
            self._ask(game, mine, rest)

    def _introduce(self) -> None:
        game, side = self.solo.game, self.side
        army = (army_names(game) or ("army A", "army B"))[side]
        other = 1 - side
        if self.solo.seats[other] == "human" and other > side:
            then = f"side {SIDES[other]} sets up after"
        else:
            then = (
                f"side {SIDES[other]}'s units stand where its set-up put them ('units' lists them)"
            )
        self.console.print(
            f"Set-up: side {self.letter} ({army}) sets up its units one at a time, in its "
            f"deployment zone ({zone_extent(game, side)}), before the first turn; {then}.",
            markup=False,
        )
        self.console.print(SET_UP_SHORT, markup=False)
        mine = [u for u in game.units if u.side == side]
        self.console.print(
            _places_table(game, mine, f"Side {self.letter}'s units, the places offered:")
        )

    def _ask(self, game: BoltActionGame, mine: list[UnitState], rest: list[UnitState]) -> None:
        """Ask where the next unit (``rest[0]``) sets up, and set it up (or all the rest,
        or take one back) if the answer lets it."""
        unit = rest[0]
        at, facing = game.set_up_places[unit.uid]
        title = f"Set-up of side {self.letter} — outlined: {unit.name}, at the place offered"
        self.solo.setting_up = (title, [unit.uid])
        self.solo.save()
        number = mine.index(unit) + 1
        try:
            line = self.solo.ask(
                f"Set up {unit.name} ({number} of {len(mine)}; Enter: ({at.x:.1f}, "
                f"{at.y:.1f}) facing {facing:.0f}°): "
            ).strip()
        except EOFError:
            raise QuitGame from None
        word = line.lower()
        placed = self.placements[self.side]
        if word in ("quit", "q", "exit"):
            raise QuitGame
        if word in ("help", "?", "h"):
            self.console.print(SET_UP_HELP, markup=False)
            return
        if word == "hint":
            self.console.print(
                "The place offered is where the automatic set-up puts it, as the tactical AI "
                "sets its own side up: Enter takes it."
            )
            return
        if word in ("back", "b"):
            if not placed:
                self.console.print("Nothing to go back to: this is the side's first unit.")
                return
            taken = game.units[placed[-1].unit]
            self._try(placed[:-1], f"Took back {taken.name}: set it up again.")
            return
        if word == "odds" or word.startswith("odds "):
            self._odds(game, mine, unit, placed, line[4:].strip())
            return
        if self.player.answer(game, line, shown=mine):
            return
        if word in ("auto", "a"):
            self._try(placed + [Placement(u.uid) for u in rest], "")  # (the account says)
            return
        if not line:
            self._try([*placed, Placement(unit.uid)], None)
            return
        typed = _typed_place(line)
        if typed is None:
            self.console.print(
                f"{line!r}: not a place; press Enter for the place offered, or type x,y in "
                "inches, 'auto' for the rest ('help' says more).",
                markup=False,
            )
            return
        to, way = typed
        if way is not None and way[0] == "reverse":
            self.console.print(
                "'reverse' is for a move: at the set-up, turn a unit with 'facing D'."
            )
            return
        self._try([*placed, Placement(unit.uid, to, None if way is None else way[1])], None)

    def _odds(
        self,
        game: BoltActionGame,
        mine: list[UnitState],
        unit: UnitState,
        placed: list[Placement],
        asked: str,
    ) -> None:
        """'odds' at the set-up: ``unit``'s shots in the first turn (a Fire order) from the
        place offered, or ('odds x,y', 'facing D' too) from a place typed where it may be
        set up (else why not, as a place typed is refused), at the enemy as it stands now;
        'odds NAME' (or N) any unit's from where it stands now. The game's own odds, as
        'odds' gives them in the game (:func:`.odds_asked.odds_lines`)."""
        other = 1 - self.side
        later = (
            f"; side {SIDES[other]} sets up after, so its units stand at the places offered "
            "them for now"
            if self.solo.seats[other] == "human" and other > self.side
            else ""
        )
        typed = _typed_place(asked) if asked else None
        if asked and typed is None:
            named = self.player.unit_named(game, asked, "odds", mine)
            if named is not None:
                self._said(
                    odds_lines(
                        game,
                        named,
                        f"firing in the first turn from where it stands now (a Fire order){later}",
                    )
                )
            return
        if typed is None:
            at = game.set_up_places[unit.uid][0]
            where = f"at the place offered, ({at.x:.1f}, {at.y:.1f})"
        else:
            to, way = typed
            if way is not None and way[0] == "reverse":
                self.console.print(
                    "'reverse' is for a move: at the set-up, turn a unit with 'facing D'."
                )
                return
            trial = [*placed, Placement(unit.uid, to, None if way is None else way[1])]
            try:
                game = placed_anew(self.solo.game, {**self.placements, self.side: trial})
            except PlacementRefused as exc:
                self.console.print(
                    f"No odds from there: it may not be set up there: {exc} ('odds' alone "
                    "gives its odds from the place offered.)",
                    markup=False,
                )
                return
            at, facing = game.set_up_places[unit.uid]
            turned = f" facing {facing:.0f}°" if unit.vehicle is not None else ""
            where = f"at ({at.x:.1f}, {at.y:.1f}){turned}"
        self._said(
            odds_lines(
                game,
                game.units[unit.uid],
                f"set up {where}, firing in the first turn (a Fire order) at the enemy as it stands "
                f"now{later}",
            )
        )

    def _said(self, lines: list[str]) -> None:
        for line in lines:
            self.console.print(line, markup=False, highlight=False)

    def _try(self, placed: list[Placement], said: str | None) -> None:
        """Set the side up anew with ``placed``, and say so (``said``, or where the unit
        placed last stands); or, if that may not be, say why and change nothing."""
        trial = {**self.placements, self.side: placed}
        try:
            game = placed_anew(self.solo.game, trial)
        except PlacementRefused as exc:
            nearest = exc.nearest
            told = f"Not allowed: {exc}"
            if nearest is not None:
                told += f" The nearest place that would do: ({nearest.x:.1f}, {nearest.y:.1f})."
            self.console.print(
                f"{told} Another place, Enter for the place offered, or 'back'.", markup=False
            )
            return
        self.placements[self.side] = placed
        self.solo.game = game
        self.solo.head["placements"] = placements_json(self.placements)
        if said is None:
            unit = game.units[placed[-1].unit]
            at, facing = game.set_up_places[unit.uid]
            faces = (
                f"facing {facing:.0f}°"
                if unit.vehicle is not None
                else f"its ranks facing {facing:.0f}° (troops see and fire all round; a move "
                "takes the ranks as they stand)"
            )
            said = f"{unit.name} set up at ({at.x:.1f}, {at.y:.1f}), {faces}, {ground(game, at)}."
            stuck = dug_in(game.rules, game.table, unit)
            if stuck is not None:  # "No*": may be set up there, then cannot move
                said += (
                    f" Mind: {dug_in_refusal(stuck, unit)}, so it will not move all game "
                    "('back' to set it up elsewhere)."
                )
        if said:
            self.console.print(said, markup=False)


def _places_table(game: BoltActionGame, units: list[UnitState], title: str) -> RichTable:
    """A side's units with the places offered them (each unit's centre), the facing and
    the ground there."""
    table = RichTable(title=title, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False)
    for name in ("#", "unit", "models", "x, y", "facing", "ground"):
        table.add_column(name, justify="right" if name in ("#", "models") else "left")
    for number, unit in enumerate(units, start=1):
        at, facing = game.set_up_places[unit.uid]
        table.add_row(
            str(number),
            unit.name,
            str(len(unit.models)),
            f"{at.x:.1f}, {at.y:.1f}",
            f"{facing:.0f}°",
            ground(game, Point(at.x, at.y)),
        )
    return table
