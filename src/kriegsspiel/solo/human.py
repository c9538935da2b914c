"""A person choosing a side's decisions at the terminal: menus of the orders the AI would
weigh, or any place typed in inches (the game checks it and says why it is refused).

The player answers a numbered menu with a number, the start of a name or a word of it. At
any prompt:
``back`` steps back, ``units`` shows every unit, ``terrain`` the ground by inches,
``look NAME`` a unit's weapons, ``odds`` the shots of the unit being ordered (``odds NAME``
another's), ``hint`` what the tactical AI would do here, ``help`` these words, ``quit`` stops (the
game so far is saved by the session: :mod:`kriegsspiel.solo.session`).
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from rich.console import Console
from rich.markup import escape

from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.players import Player
from kriegsspiel.core.game import IllegalActionError
from kriegsspiel.core.names import facing_text
from kriegsspiel.core.per_cent import chance_shown_whole
from kriegsspiel.core.table import Point
from kriegsspiel.render.game_account import objectives_held, score_label
from kriegsspiel.rulesets.bolt_action.assault import vehicle_hit_score
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.close_quarters import vehicle_assault_outcomes
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.support import SUPPORT
from kriegsspiel.rulesets.bolt_action.game.table_rules import (
    check_order_move,
    dug_in,
    dug_in_refusal,
    heading_to,
    terrain_column,
    terrain_refusal,
)
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.rulesets.bolt_action.reactions import (
    REACTION_WORDS,
    die_shown,
    vehicle_move_shown,
)
from kriegsspiel.solo.briefing import (
    SIDE_NAMES,
    assault_line,
    call_line,
    end_heading,
    formation_refusal,
    place_line,
    shot_line,
    terrain_table,
    unit_card,
    units_table,
    vehicle_chances,
)
from kriegsspiel.solo.keep import KeepQuestion, keep_hint
from kriegsspiel.solo.odds_asked import odds_lines, odds_where
from kriegsspiel.solo.reasons import (
    assault_closed,
    fire_closed,
    no_shot_reason,
    out_of_sight,
    support_spent,
    unseen_line,
)

T = TypeVar("T")
Ask = Callable[[str], str]  # shows a prompt, returns the line typed (EOFError at the end)
# a place to move to, and how a vehicle drives there (its choice and facing; None: ask)
_Place = tuple[tuple[float, float], tuple[str, float | None] | None]

HELP = (
    "Answer with a number from the list, or a name: its start, or a whole word of it "
    "('Sherman' for M4 Sherman). At the end of a turn, the dice to keep out of the bag "
    "are given by their numbers at once ('1,3'), 'all', or Enter for none. At any prompt: 'back' "
    "steps back, 'units' shows every unit, 'look NAME' a unit's weapons (NAME as the "
    "lists write it, 'Platoon HQ (B)', or with A or B before or after it for the side; "
    "'look N': N its number in the table of units above), 'terrain' the ground and "
    "objectives by inches (and who holds each now), 'odds' the shots of the unit being "
    "ordered at each enemy, with their odds as a Fire list gives them ('odds NAME' or "
    "'odds N' any unit's), 'hint' what the tactical AI would do "
    "here (with the unit and the order picked), 'quit' stops (the game so far is saved and "
    "can be resumed). A move may also go to any place typed as x,y in inches, or (x, y) as "
    "the lists print it (a vehicle's may add 'reverse', or 'facing D': D in degrees, 0 "
    "facing +y (north), 90 facing +x (east)): the game checks it."
)
# the orders in the menu's order; "Assault" is a Run at an enemy
MENU = ("Fire", "Advance", "Run", "Assault", "Ambush", "Rally", "Down")
# (those that spend a die in the words the play aid's buttons use: REACTION_WORDS)
REACTIONS = {
    "none": "take the fire",
    "hand-to-hand": "fight hand-to-hand",
    "point-blank": "fight with point-blank fire",
    "stay": "stay and take the assault",
    **{reaction: f"{what}: {then}" for reaction, (what, then) in REACTION_WORDS.items()},
}


def _as_offered(action: Action, game: BoltActionGame) -> str:
    """An answer to a question the rules ask in the enemy's turn as its menu words it
    ("none: take the fire", "keep it"), so a hint reads as the choice to pick; any other
    action as it describes itself."""
    if action.kind == "react" and action.choice is not None:
        return f"{action.choice}: {_reaction_words(game, action)}"
    if action.kind == "retain":
        return "keep it" if action.choice == "keep" else "put it back in the bag"
    if action.kind == "ambush" and action.choice != "fire":
        return "hold: let it be (the rest stay on Ambush)"
    return action.describe(game)


_PLACE = re.compile(
    r"^\s*(?P<open>\()?\s*(-?\d+(?:\.\d+)?)\s*[, ]\s*(-?\d+(?:\.\d+)?)\s*(?(open)\))"
    r"(?P<rest>(?:\s+(?:reverse|facing\s+-?\d+(?:\.\d+)?))*)\s*$",
    re.IGNORECASE,
)


def terminal_asker(console: Console) -> Ask:
    """How a person is asked: the console's prompt at a terminal; from piped answers (a
    file of moves, a test), each answer is written after its prompt, as if typed, so the
    transcript reads as the game went."""
    if sys.stdin.isatty():
        return console.input

    def ask(prompt: str) -> str:
        console.print(prompt, end="", markup=False)
        line = sys.stdin.readline()
        if not line:
            console.print()
            raise EOFError
        console.print(line.rstrip("\n"), markup=False, highlight=False)
        return line.rstrip("\n")

    return ask


class QuitGame(Exception):
    """The player asked to stop (``quit``, or the end of the input)."""


class _Back(Exception):
    """The player stepped back to the menu before."""


class HumanPlayer:
    """Chooses each decision of its side by asking at the terminal (see the module)."""

    def __init__(
        self,
        console: Console,
        ask: Ask,
        *,
        adviser: Callable[[], Player] | None = None,
    ) -> None:
        self.console = console
        self.ask = ask
        self.adviser = adviser  # makes the player whose choice 'hint' tells
        self._game: BoltActionGame | None = None
        self._unit: UnitState | None = None  # the unit being given its order, once picked
        self._order_name: str | None = None  # the order picked for it (as the menu names it)
        self._moving_to: tuple[float, float] | None = None  # an Advance's place, at its targets
        self._shown: list[UnitState] | None = None  # the last numbered table of units shown
        self._keep = KeepQuestion(console, self._line)  # the dice kept at a turn's end
        # the move whose ambush was last announced: (the mover, its move's place in the record)
        self._ambush_told: tuple[int, int] | None = None

    # ------------------------------------------------------------------ the protocol
    def choose(self, state: BoltActionGame) -> Action:
        self._game = state
        self._shown = None
        if state.pending is not None:
            return self._pending(state)
        return self._order(state)

    # ------------------------------------------------------------------ asking
    def _pick(
        self,
        prompt: str,
        options: Sequence[tuple[str, T]],
        *,
        back: bool = True,
        typed: Callable[[str], T | None] | None = None,
        listed: bool = False,
        why: Callable[[str], str | None] | None = None,
    ) -> T:
        """One of ``options`` (label, value), by number or a name (:func:`_matching`); or, if
        ``typed`` reads the line as a value, that. Commands are answered and ask again.
        ``listed``: the options are on the screen already, numbered (a table); ``why``
        says why a word matching no option is not one (None: the usual words)."""
        if not listed:
            for number, (label, _) in enumerate(options, start=1):
                self.console.print(f"  {number:>2}  {escape(label)}")
        while True:
            line = self._line(prompt, back=back)
            if line is None:
                continue
            word = line.lower()
            if word.isdigit() and 1 <= int(word) <= len(options):
                return options[int(word) - 1][1]
            if typed is not None and word:
                value = typed(line)
                if value is not None:
                    return value
            named = _matching(word, options)
            if len(named) == 1:
                return named[0]
            told = "more than one choice is so named" if named else "not one of the choices"
            if not named and why is not None:
                told = why(word) or told
            give = f"give a number from 1 to {len(options)}" if options else ""
            if typed is not None:
                give = f"{give}, or x,y" if give else "type x,y in inches"
            self.console.print(f"{escape(line)!r}: {told}; {give} ('help' says more).")

    def _line(self, prompt: str, *, back: bool = True) -> str | None:
        """The line typed at ``prompt`` (stripped); None where it was a command, answered
        here ('help', 'units', 'terrain', 'hint', 'look NAME', 'odds'), so the prompt is asked
        again. ``QuitGame`` at 'quit' or the end of the input; ``_Back`` at 'back' where
        ``back`` lets it (else the player is told there is nothing to go back to)."""
        try:
            line = self.ask(f"{prompt}: ").strip()
        except EOFError:
            raise QuitGame from None
        word = line.lower()
        if word in ("quit", "q", "exit"):
            raise QuitGame
        if word in ("back", "b"):
            if back:
                raise _Back
            self.console.print("Nothing to go back to: this is the decision's first question.")
            return None
        if word in ("help", "?", "h"):
            self.console.print(HELP)
            return None
        if word in ("units", "terrain", "hint"):
            self._command(word)
            return None
        if word == "look" or word.startswith("look "):
            self._look(line[4:].strip())
            return None
        if word == "odds" or word.startswith("odds "):
            self._odds(line[4:].strip())
            return None
        return line

    def answer(self, game: BoltActionGame, line: str, shown: list[UnitState] | None = None) -> bool:
        """Answer ``line`` if it asks to see the game as any prompt lets it ('units',
        'terrain', 'look NAME'; ``shown``: the units 'look N' numbers), True if it did: the
        set-up's prompts (:mod:`kriegsspiel.solo.set_up`) take them too."""
        self._game, self._shown = game, shown
        word = line.strip().lower()
        if word in ("units", "terrain"):
            self._command(word)
        elif word == "look" or word.startswith("look "):
            self._look(line.strip()[4:].strip())
        else:
            return False
        return True

    def unit_named(
        self, game: BoltActionGame, name: str, command: str, shown: list[UnitState] | None
    ) -> UnitState | None:
        """The one unit ``name`` (typed after ``command``) names, as 'look NAME' reads it
        (``shown``: the units 'N' numbers); None, said why, where it names none: the
        set-up's 'odds NAME' (:mod:`kriegsspiel.solo.set_up`)."""
        self._game, self._shown = game, shown
        return self._unit_typed(name, command)

    def _command(self, word: str) -> None:
        game = self._game
        assert game is not None
        if word == "units":
            live = [u for u in game.units if not u.destroyed]
            self.console.print(units_table(game, live, "Every unit on the table", sides=True))
            self._shown = live
        elif word == "terrain":
            self.console.print(terrain_table(game))
            held = objectives_held(game)
            if held:
                self.console.print(
                    f"The objectives now ({score_label(game)}: {game.score()[0]} – "
                    f"{game.score()[1]}):"
                )
                for line in held:
                    self.console.print(line, markup=False)
        elif self.adviser is None:
            self.console.print("No hint here.")
        elif game.pending is not None and game.pending.kind == "retain":
            self.console.print(keep_hint(game, self.adviser()))
        else:
            self.console.print(self._hint(game))

    def _hint(self, game: BoltActionGame) -> str:
        """What the tactical AI would do here: with the unit picked, its order for that
        unit; with an order picked too, how it would carry out that order (and, if it would
        give the unit another, that one first)."""
        assert self.adviser is not None
        adviser, unit, order = self.adviser(), self._unit, self._order_name
        if unit is None or not isinstance(adviser, TacticalPlayer):
            return (
                f"The tactical AI would: {escape(_as_offered(adviser.choose(game.clone()), game))}"
            )
        state = game.clone()
        advice = adviser.choose_for(state, unit.uid)  # (for the unit picked)
        said = f"The tactical AI would: {escape(advice.describe(game))}"
        if order is None or _menu_name(advice) == order:
            return said
        acts = [
            a
            for a in game.legal_actions()
            if a.kind == "order" and a.unit == unit.uid and _menu_name(a) == order
        ]
        if not acts:
            return (
                f"{said}. It gives {escape(unit.name)} no {order} of its own here (none of "
                "the places it looks at is open to it)."
            )
        best = adviser.choose_among(state, acts)
        return (
            f"The tactical AI would give {escape(unit.name)} another order: "
            f"{escape(advice.describe(game))}. With {order}, it would: "
            f"{escape(best.describe(game))}"
        )

    def _look(self, name: str) -> None:
        """Show the card of one unit (:meth:`_unit_typed`)."""
        game = self._game
        assert game is not None
        unit = self._unit_typed(name, "look")
        if unit is not None:
            self.console.print(unit_card(game, unit))

    def _odds(self, name: str) -> None:
        """'odds': the shots the unit being ordered would fire now, with each target's
        odds as its Fire list gives them (:func:`.odds_asked.odds_lines`); 'odds NAME' (or
        N) another unit's, of either side; with no unit picked, where the odds are shown."""
        game = self._game
        assert game is not None
        if not name and self._unit is None:
            self.console.print(escape(odds_where(game)))
            return
        unit = self._unit if not name else self._unit_typed(name, "odds")
        if unit is not None and unit is self._unit and self._moving_to is not None:
            x, y = self._moving_to  # (asked at "Then fire at": its list is from there)
            self.console.print(
                f"(The list above gives its shots after the Advance, from ({x:.1f}, {y:.1f}); "
                "'odds' gives those from where it stands now.)",
                markup=False,
            )
        if unit is not None:
            for line in odds_lines(game, unit):
                self.console.print(line, markup=False, highlight=False)

    def _unit_typed(self, name: str, command: str) -> UnitState | None:
        """The one unit ``name`` (typed after ``command``: 'look', 'odds') names: by its
        number in the last table of units shown (the units to order, or 'units'; every
        unit as 'units' numbers them where none has been shown), or by its name (or a part
        of it) as the lists write it, ``Platoon HQ (B)``, with its side (A or B) before or
        after the name, or without it where the name is one side's only. None where it
        names none alive, said why (a destroyed unit is said to be, with its turn)."""
        game = self._game
        assert game is not None
        live = [u for u in game.units if not u.destroyed]  # (as 'units' numbers them)
        text = " ".join(name.lower().split())
        if text.isdigit():
            table = self._shown if self._shown is not None else live
            which = "the table above" if self._shown is not None else "'units'"
            if 1 <= int(text) <= len(table):
                return table[int(text) - 1]
            self.console.print(
                f"{command} {text}: {which} numbers its units 1 to {len(table)}; give one of "
                "those, or a name."
            )
            return None
        found = _named(text, live)
        if len(found) == 1:
            return found[0]
        lost = [] if found else _named(text, [u for u in game.units if u.destroyed])
        if lost:
            self.console.print(
                escape("; ".join(f"{u.name} ({SIDE_NAMES[u.side]}) {_lost(game, u)}" for u in lost))
                + "."
            )
            return None
        told = "More than one unit is so named: " if found else "Which unit? "
        names = ", ".join(f"{u.name} ({SIDE_NAMES[u.side]})" for u in (found or live))
        self.console.print(
            f"{told}{command} NAME, for one of {escape(names)} (or {command} N, N its number "
            "in the table of units above)."
        )
        return None

    # ------------------------------------------------------------------ orders
    def _order(self, game: BoltActionGame) -> Action:
        side = game.current_player()
        actions = game.legal_actions()
        units = game.eligible(side)
        cup, score = game.dice_in_cup(hand_out=True), game.score()  # (the die drawn: in hand)
        title = (
            f"Turn {game.scenario.turn_of(game.turn)}, score {score[0]} – {score[1]} "
            f"({score_label(game)}): "
            f"side {SIDE_NAMES[side]} drew an order die (left in the bag: A {cup[0]}, "
            f"B {cup[1]}). The units still to take one:"
        )
        while True:
            self.console.print(units_table(game, units, title))
            self._shown = units
            self._unit = None
            unit = self._pick(
                "Unit to order",
                [(u.name, u) for u in units],
                back=False,
                listed=True,
                why=_order_word,
            )
            self._unit = unit
            try:
                action = self._unit_order(game, unit, [a for a in actions if a.unit == unit.uid])
            except _Back:
                continue
            finally:
                self._unit = None
            try:
                game.validate(action)
            except IllegalActionError as exc:
                self.console.print(f"Not allowed: {escape(str(exc))}")
                continue
            return action

    def _unit_order(self, game: BoltActionGame, unit: UnitState, acts: list[Action]) -> Action:
        kinds: dict[str, list[Action]] = {}
        for a in acts:
            kinds.setdefault(_menu_name(a), []).append(a)
        mobile = unit.vehicle is None or not unit.immobilised
        closed: dict[str, str] = {}  # an order left off the menu for a reason of its own
        stuck_in = dug_in(game.rules, game.table, unit)
        if stuck_in is not None:  # a gun dug in: no move, so no Advance nor Run to offer
            mobile = False
            kinds.pop("Advance", None)
            closed["Advance"] = closed["Run"] = dug_in_refusal(stuck_in, unit)
        if mobile:  # a place may be typed even where no candidate is offered
            kinds.setdefault("Advance", [])
            # (no Run is offered where none is allowed: from where it stands, every Run)
            stuck = None if unit.no_run or "Run" in kinds else run_blocked(game, unit)
            if stuck is not None:
                closed["Run"] = stuck
            elif not unit.no_run:
                kinds.setdefault("Run", [])
        spent = support_spent(game, unit)
        if spent is not None:  # (its call is gone: said where the player looks for it)
            closed[spent[0]] = spent[1]
        order_names = [k for k in MENU if k in kinds] + sorted(k for k in kinds if k not in MENU)
        while True:
            self.console.print(f"[bold]{escape(unit.name)}[/bold]: which order?")
            for order, reason in closed.items():
                self.console.print(f"  ({order} is not open to it now: {escape(reason)}.)")
            name = self._pick(
                "Order",
                [(_order_label(k, unit), k) for k in order_names],
                why=lambda word: _closed(game, word, unit, order_names, closed),
            )
            self._order_name = name
            try:
                return self._details(game, unit, name, kinds[name])
            except _Back:
                continue
            finally:
                self._order_name = None

    def _details(
        self, game: BoltActionGame, unit: UnitState, name: str, acts: list[Action]
    ) -> Action:
        if name in ("Ambush", "Rally", "Down"):
            return acts[0]
        if name.startswith("Call "):  # (the support's own chart, not the unit's weapons)
            return self._pick(
                "Target",
                [
                    (call_line(game, unit, game.units[a.target], name.removeprefix("Call ")), a)  # type: ignore[index]
                    for a in acts
                ],
            )
        if name == "Fire":
            spent = support_spent(game, unit)
            if spent is not None:  # (its Fire is its own weapons' now)
                self.console.print(f"({escape(spent[1][0].upper() + spent[1][1:])}.)")
            lines = {
                a: shot_line(game, unit, game.units[a.target], moving=False)  # type: ignore[index]
                for a in acts
            }
            ordered = _with_shots_first([(a, lines[a]) for a in acts])  # (no shot: last)
            blind = {  # (why: the game lets a Fire order name a target none can shoot)
                a: no_shot_reason(game, unit, game.units[a.target], moving=False)  # type: ignore[index]
                for a, line in ordered
                if line == "no shot"
            }
            # the enemies in its reach that it does not see are not targets: named after
            # the list, with what hides them, so none is missing without a word
            hidden = out_of_sight(game, unit, [game.units[a.target] for a in acts])  # type: ignore[index]
            options = [
                (
                    f"{game.units[a.target].name}: {line}"  # type: ignore[index]
                    + (f" ({blind[a]})" if a in blind else ""),
                    a,
                )
                for a, line in ordered
            ]
            while True:
                fire = self._target("Target", options, hidden)
                if fire not in blind or self._confirm(
                    f"{unit.name} has no shot at {game.units[fire.target].name} from here "  # type: ignore[index]
                    f"({blind[fire]}): spend its order on it anyway?"
                ):
                    return fire
        if name == "Assault":
            return self._pick(
                "Assault",
                [
                    (
                        f"{game.units[a.target].name}"  # type: ignore[index]
                        + (f" ({a.choice})" if a.choice else "")
                        + ": "
                        + assault_line(game, unit, game.units[a.target], a.choice),  # type: ignore[index]
                        a,
                    )
                    for a in acts
                ],
            )
        return self._move(game, unit, name, acts)

    def _move(
        self, game: BoltActionGame, unit: UnitState, order: str, acts: list[Action]
    ) -> Action:
        """An Advance or a Run: a place offered or typed, how a vehicle drives there, and
        (an Advance) whom it fires at after."""
        places = list(dict.fromkeys(a.to for a in acts if a.to is not None))
        shooting: dict[tuple[float, float], list[str]] = {}
        for a in acts:  # (the targets it has a shot at from there, as it will then face)
            if a.to is not None and a.target is not None:
                shooting.setdefault(a.to, [])
                name = game.units[a.target].name
                if name not in shooting[a.to] and _shot_after(game, unit, a, a.target):
                    shooting[a.to].append(name)
        # a place every way offered to reaches backwards (a vehicle drives to a place
        # behind it in reverse, unbidden) is marked so
        backwards = {
            to
            for to in places
            if all(_reverses(game, unit, a) for a in acts if a.to == to)
            and unit.vehicle is not None
        }
        options: list[tuple[str, _Place]] = [
            (
                place_line(game, unit, to)
                + (", in reverse" if to in backwards else "")
                + (f"; may then fire at {', '.join(shooting[to])}" if shooting.get(to) else ""),
                (to, None),
            )
            for to in places
        ]
        where = (
            f"{escape(unit.name)} at ({unit.anchor.x:.1f}, {unit.anchor.y:.1f}): {order} where? "
            + (
                "Places worth a look, or type x,y in inches."
                if options
                else "None of the places looked at (toward the enemy, the objectives and "
                "cover) is open to it, so none is listed: type x,y in inches, or 'back' "
                "for the orders."
            )
        )
        self.console.print(where)
        listed = False
        # a place refused is asked again; 'back' at the place goes back to the orders, and
        # at a question after it (how a vehicle drives there, whom to fire at) to the place
        while True:
            to, way = self._pick(
                "Place", options, typed=lambda line: _typed_place(line, places), listed=listed
            )
            listed = True  # (the places are on the screen now)
            try:
                move = self._move_to(game, unit, order, acts, to, way)
            except _Back:
                self.console.print(where)
                listed = False
                continue
            if move is not None:
                return move

    def _move_to(
        self,
        game: BoltActionGame,
        unit: UnitState,
        order: str,
        acts: list[Action],
        to: tuple[float, float],
        way: tuple[str, float | None] | None,
    ) -> Action | None:
        """The move to the place picked, with the questions after it (how a vehicle drives
        there, whom an Advance fires at); None if the game refuses the place (said why)."""
        if way is None:  # offered: its ways, if more than one, are asked
            ways = list(dict.fromkeys((a.choice, a.facing) for a in acts if a.to == to))
            way = (
                ways[0]
                if len(ways) == 1
                else self._pick(
                    "How",
                    [
                        (
                            _way_name(
                                c, f, reverse=_reverses(game, unit, _way(unit, order, to, c, f))
                            ),
                            (c, f),
                        )
                        for c, f in ways
                    ],
                )
            )
        choice, facing = way
        if facing is not None and unit.vehicle is None:
            self.console.print(
                "'facing' turns a vehicle: troops see and fire all round, and a move takes "
                "their ranks as they stand (their facing at the set-up lays the ranks out). "
                "Type the place without it, or 'back' for the orders."
            )
            return None
        move = Action("order", unit=unit.uid, order=order, to=to, choice=choice, facing=facing)
        try:
            game.validate(move)
        except IllegalActionError as exc:
            told = f"Not allowed: {exc}"
            formation = formation_refusal(game, unit, to, run=order == "Run")
            if formation is not None:
                told += f" {formation[0].upper()}{formation[1:]}."
            places = list(dict.fromkeys(a.to for a in acts if a.to is not None))
            on_the_way = [_nearest_on_the_way(game, move), _nearest_ahead(game, move)]
            near = min(
                [*places, *[p for p in on_the_way if p is not None]],
                key=lambda p: math.dist(p, to),
                default=None,
            )
            if near is not None and near in places:  # (the game's own candidates)
                told += (
                    f" The nearest place that would do is listed: {places.index(near) + 1}  "
                    f"{place_line(game, unit, near)}."
                )
            elif near is not None:
                told += f" The nearest place that would do: {place_line(game, unit, near)}."
            self.console.print(escape(f"{told} Another place, or 'back' for the orders."))
            return None
        if order != "Advance":
            return move
        # the targets it will have a shot at there, facing as the move leaves it (a
        # vehicle's hull weapons may lose or gain their arc): only those are offered
        origin, heading = Point(*to), end_heading(game, unit, move)
        shots = [
            (e, shot_line(game, unit, e, moving=True, origin=origin, heading=heading))
            for e in game.units
            if e.side != unit.side
            and not e.destroyed
            and game.can_shoot(unit, e, moving=True, origin=origin)
        ]
        # an enemy it has a shot at where it stands, but would not from there, is told with
        # the reason (it may choose another place, or Fire instead); one it could not shoot
        # here either is no news, and is not
        shots = [(e, line) for e, line in shots if line != "no shot"]
        lost = [
            (e, no_shot_reason(game, unit, e, moving=True, origin=origin, heading=heading))
            for e in game.units
            if e.side != unit.side
            and not e.destroyed
            and e not in [t for t, _ in shots]
            and game.shot_groups(unit, e, moving=False)
        ]
        if lost:
            self.console.print(
                f"From there {escape(unit.name)} would have no shot at "
                + escape(
                    f"{lost[0][0].name}, as it has where it stands: {lost[0][1]}"
                    if len(lost) == 1
                    else "these, as it has where it stands: "
                    + "; ".join(f"{e.name}: {why}" for e, why in lost)
                )
                + "."
                + (
                    " Type the place with 'facing D' to turn toward it."
                    if any("bears on it" in why for _, why in lost)
                    else ""
                )
            )
        # the enemies in its reach from there that it will not see: named, as a Fire
        # list names them (those it loses a shot at are told above, with why)
        hidden = out_of_sight(
            game,
            unit,
            [e for e, _ in [*shots, *lost]],
            moving=True,
            origin=origin,
            heading=heading,
        )
        if not shots:
            unseen = unseen_line(hidden)
            if unseen is not None:
                self.console.print(
                    f"From there {escape(unit.name)} will have no target to fire at "
                    f"({escape(unseen)})."
                )
            return move
        self._moving_to = to
        try:
            target = self._target(
                "Then fire at",
                [("no one: only move", None)] + [(f"{e.name}: {line}", e.uid) for e, line in shots],
                hidden,
                lost=lost,
            )
        finally:
            self._moving_to = None
        return replace(move, target=target)

    def _target(
        self,
        prompt: str,
        options: Sequence[tuple[str, T]],
        hidden: Sequence[tuple[UnitState, str]],
        *,
        lost: Sequence[tuple[UnitState, str]] = (),
    ) -> T:
        """A target picked from ``options``, a Fire's or an Advance's (listed here), with
        the enemies in reach that it does not see named under them (``hidden``:
        :func:`~.reasons.out_of_sight`), so none is missing without a word; one of those
        typed (or of ``lost``: an Advance's shots lost from its place) is told why it is
        not a target."""
        for number, (label, _) in enumerate(options, start=1):
            self.console.print(f"  {number:>2}  {escape(label)}")
        unseen = unseen_line(hidden)
        if unseen is not None:
            self.console.print(f"  ({escape(unseen)})")
        told = [(enemy, f"it is not in sight ({why})") for enemy, why in hidden]
        told += [(enemy, f"no shot at it from there ({why})") for enemy, why in lost]
        return self._pick(prompt, options, listed=True, why=lambda word: _not_a_target(word, told))

    def _ambush_news(self, game: BoltActionGame, mover: UnitState) -> str:
        """The line that offers an ambush at ``mover``: where it has moved to; asked again
        after an ambusher's shot at the same move, only that the rest may still fire (its
        centre may have shifted as its men fell, but it has not moved again)."""
        told = (mover.uid, _last_move(game, mover))
        if told == self._ambush_told:
            return f"Your other units on Ambush may still fire at {mover.name}."
        self._ambush_told = told
        return (
            f"{mover.name} has moved to ({mover.anchor.x:.1f}, {mover.anchor.y:.1f}). "
            "Your units on Ambush may fire at it now."
        )

    def _confirm(self, question: str) -> bool:
        """Yes or no to a question (no: the choice before is asked again)."""
        self.console.print(escape(question))
        return self._pick("yes or no", [("yes", True), ("no", False)])

    # ------------------------------------------------------------------ reactions and the rest
    def _pending(self, game: BoltActionGame) -> Action:
        p = game.pending
        assert p is not None
        choices = game.pending_choices()
        order = p.action
        if p.kind == "retain":
            return self._keep.decide(game)
        if p.kind == "friendly-fire":
            firer = game.units[p.target]
            self.console.print(
                f"The enemy's {escape(firer.name)} is FUBAR and fires at a unit of its own "
                "side: you choose which."
            )
            options = [(game.units[a.target].name, a) for a in choices]  # type: ignore[index]
        elif p.kind == "ambush":
            mover = game.units[p.target]
            self.console.print(escape(self._ambush_news(game, mover)))
            options = [
                (
                    (
                        f"{game.units[a.unit].name} fires: "
                        + shot_line(game, game.units[a.unit], mover, moving=False)
                    )
                    if a.choice == "fire"
                    else "hold: let it be (the rest stay on Ambush)",
                    a,
                )
                for a in choices
            ]
        else:
            enemy, mine = game.units[order.unit], game.units[p.target]
            said = "fires at" if p.kind == "shot-reaction" else "assaults"
            self.console.print(
                f"The enemy's {escape(enemy.name)} ({order.order}) {said} your {escape(mine.name)}."
            )
            options = [(_as_offered(a, game), a) for a in choices]
            if p.kind == "shot-reaction":  # each with the shooting it would then take
                options = [
                    (f"{label} ({_fire_taken(game, order, mine.uid, a.choice)})", a)
                    for label, a in options
                ]
        while True:
            try:
                return self._pick("Choice", options, back=False)
            except _Back:  # (nothing before this to step back to)
                continue


def _last_move(game: BoltActionGame, unit: UnitState) -> int:
    """Where in the record ``unit``'s last move is (-1: it has not moved)."""
    for i in range(len(game.events) - 1, -1, -1):
        event = game.events[i]
        if event.kind == "move" and event.data.get("unit") == unit.uid:
            return i
    return -1


def _matching(word: str, options: Sequence[tuple[str, T]]) -> list[T]:
    """The options a word typed (lower case) names: those whose label starts with it;
    where none does, those with it as a whole word (or words) in their name, the label
    before any ':' or ';' ("sherman" names "M4 Sherman: ..."). Empty: none."""
    if not word:
        return []
    named = [v for label, v in options if label.lower().startswith(word)]
    if named:
        return named
    whole = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")
    return [v for label, v in options if whole.search(re.split("[:;]", label.lower())[0])]


# inches between the places tried back along a refused move's line, and the farthest from
# the unit tried (longer than any move: a vehicle's Run on a road); see _nearest_on_the_way
ON_THE_WAY_STEP = 0.25
ON_THE_WAY_REACH = 40.0


def _nearest_on_the_way(game: BoltActionGame, move: Action) -> tuple[float, float] | None:
    """The place nearest ``move``'s destination, back along the straight line to it from
    where the unit stands, that the game would take the same order to (its own check:
    :meth:`~BoltActionGame.validate`), to the 0.1" the lists print; None if there is none
    (tried every :data:`ON_THE_WAY_STEP` inches from at most :data:`ON_THE_WAY_REACH`
    away, the unit's own place not counted)."""
    assert move.to is not None
    start = game.units[move.unit].anchor
    far = math.dist((start.x, start.y), move.to)
    first = min(far, ON_THE_WAY_REACH)
    for k in range(int(first / ON_THE_WAY_STEP) + 1):
        t = (first - k * ON_THE_WAY_STEP) / far
        place = (
            round(start.x + t * (move.to[0] - start.x), 1),
            round(start.y + t * (move.to[1] - start.y), 1),
        )
        if place != (round(start.x, 1), round(start.y, 1)) and game.is_legal(
            replace(move, to=place)
        ):
            return place
    return None


def _nearest_ahead(game: BoltActionGame, move: Action) -> tuple[float, float] | None:
    """For a vehicle, the place nearest ``move``'s destination on the line straight ahead
    of it (where it drives without a turn) that the game would take the same order to, as
    :func:`_nearest_on_the_way` finds it back along that line from the point on it nearest
    the destination; None for troops, a destination not ahead, or none found."""
    assert move.to is not None
    unit = game.units[move.unit]
    if unit.vehicle is None:
        return None
    start, rad = unit.anchor, math.radians(unit.heading)
    ux, uy = math.sin(rad), math.cos(rad)
    along = (move.to[0] - start.x) * ux + (move.to[1] - start.y) * uy
    if along < 0.5:
        return None
    return _nearest_on_the_way(game, replace(move, to=(start.x + ux * along, start.y + uy * along)))


def _shot_after(game: BoltActionGame, unit: UnitState, move: Action, target: int) -> bool:
    """Whether ``unit`` has a shot at ``target`` after the move order ``move``: from its
    place, facing as the move leaves it (:func:`~kriegsspiel.solo.briefing.end_heading`)."""
    assert move.to is not None
    return bool(
        game.shot_groups(
            unit,
            game.units[target],
            moving=True,
            origin=Point(*move.to),
            heading=end_heading(game, unit, move),
        )
    )


def _reaction_words(game: BoltActionGame, action: Action) -> str:
    """What a reaction does, as the menu says it after its name: a recce vehicle's to an
    assault or a shot as :func:`_vehicle_reaction` gives it, any other as :data:`REACTIONS`
    does; troops' ways to fight an assault with the assaulters' exact chance to win each
    (the tactical AI's reckoning, :meth:`~TacticalPlayer.defence_odds`, by which it
    assaults)."""
    choice = action.choice or ""
    words = REACTIONS.get(choice, choice)
    p = game.pending
    reacting = ("assault-reaction", "shot-reaction")
    if p is not None and p.kind in reacting and action.unit is not None:
        mine = game.units[action.unit]
        if mine.vehicle is not None and (p.kind == "assault-reaction" or choice == "escape"):
            return _vehicle_reaction(game, p.action, mine, choice, shot=p.kind == "shot-reaction")
        if mine.vehicle is None and p.kind == "assault-reaction":
            assaulters = game.units[p.action.unit]
            mode = p.action.choice or "hand-to-hand"  # (as the fight takes it)
            odds = TacticalPlayer().defence_odds(game, assaulters, mine, mode)
            chance = odds.get(choice)
            if chance is not None:
                words += f" ({chance_shown_whole(chance)} that they win it, and your {mine.name} is destroyed)"
    return words


def _vehicle_reaction(
    game: BoltActionGame, order: Action, mine: UnitState, choice: str, *, shot: bool = False
) -> str:
    """A recce vehicle's answer to an assault (or, ``shot``, to a shot) as the rules play
    it: staying, with the exact chances of what the assaulters do to it once in contact
    (the game's own attack on it: :func:`.briefing.vehicle_chances`); the escape, how it drives (:meth:`~BoltActionGame.flee`)
    and the die it then shows, with what that means for another assault this turn
    (:func:`.reactions.die_shown`), and what follows (no fight; the shot from where it
    ends)."""
    if choice == "stay":
        assaulters = game.units[order.unit]
        contact = vehicle_assault_outcomes(game, assaulters, mine)
        said = vehicle_chances(game, mine, contact, knock_out="to be knocked out")
        fire = game.rules.data.vehicle_assault.fires_at_assaulters_beyond
        first = "" if fire is None else ", after any fire of its own at them as they come"
        return f"stay and take the assault (once in contact: {said}{first})"
    shown = die_shown(game.rules, "escape", vehicle=True)
    hit_on = vehicle_hit_score(game.rules, vehicle_move_shown(shown))
    again = (
        "no other assault may reach it this turn"
        if hit_on is None
        else f"another assault this turn hits it on {hit_on}+"
    )
    away, then = ("the shooters", "then the shot") if shot else ("the assaulters", "no fight")
    return (
        f"drive straight away from {away}, a Run forward where it can turn so, else "
        f"reversing at its Advance rate; its die then shows {shown} ({again}), and {then}"
    )


def _fire_taken(game: BoltActionGame, order: Action, uid: int, choice: str) -> str:
    """The shooting unit ``uid`` would take from ``order`` after reacting with ``choice``
    ("down", "escape": it is worked out on a copy of the game with the unit Down, or
    driven off as the escape takes it: :meth:`~BoltActionGame.flee`)."""
    if choice == "down":
        game = game.clone()
        game.units[uid].order = "Down"
    elif choice == "escape":
        game = game.clone()
        mine = game.units[uid]
        game.flee(mine, heading_to(mine.anchor, game.units[order.unit].anchor))
    shooter = game.units[order.unit]
    return shot_line(game, shooter, game.units[uid], moving=order.order == "Advance")


# why an order is missing from a unit's menu, as the menu names the order
CLOSED = {
    "Fire": "no enemy is in its sight and range",
    "Assault": "no enemy is within a Run it could make to it",
    "Run": "it cannot Run now",
    "Advance": "it cannot move",
}


def _closed(
    game: BoltActionGame,
    word: str,
    unit: UnitState,
    offered: Sequence[str],
    known: dict[str, str] | None = None,
) -> str | None:
    """Why the order ``word`` starts is not offered to ``unit`` (None: it names none);
    ``known``: the reasons found for this unit, by order; else a Fire's or an assault's as
    the game finds it (:mod:`kriegsspiel.solo.reasons`), or the usual one."""
    for name, reason in {**CLOSED, **(known or {})}.items():
        if name not in offered and name.lower().startswith(word):
            if known and name in known:
                return f"not open to {unit.name} now: {known[name]}"
            if name == "Assault" and unit.kind == "artillery":
                return f"not open to {unit.name}: artillery does not assault"
            if name == "Assault":
                reason = assault_closed(game, unit)
            elif name == "Fire":
                reason = fire_closed(game, unit, offered)
                spent = support_spent(game, unit)
                reason += "" if spent is None else f"; {spent[1]}"
            return f"not open to {unit.name} now: {reason}"
    return None


def run_blocked(game: BoltActionGame, unit: UnitState) -> str | None:
    """Why ``unit`` can make no Run at all from where it stands, if the ground says so: a
    model (or its centre) stands in a feature that a Run may not cross (an obstacle, such
    as a wreck), and every Run's path, whichever way it goes, starts in it (as
    :func:`~kriegsspiel.rulesets.bolt_action.game.table_rules.check_move` sees the paths);
    None where that is not so (a Run may then still be refused for other reasons)."""
    table = game.table
    column, vehicle = terrain_column(unit), unit.vehicle is not None
    coords = unit.coords
    points = [(unit.anchor.x, unit.anchor.y)]
    points += [(coords[i], coords[i + 1]) for i in range(0, len(coords), 2)]
    for x, y in points:
        for j in table.indices_at(x, y):
            feature = table.features[j]
            if terrain_refusal(game.rules, feature, column, vehicle, True) is not None:
                advance = terrain_refusal(game.rules, feature, column, vehicle, False) is None
                return (
                    f"it stands at {feature.name} ({feature.category}), which a Run may not "
                    "cross, so it cannot Run from here"
                    + ("; Advance out of it instead" if advance else "")
                )
    return None


def _named(text: str, units: Sequence[UnitState]) -> list[UnitState]:
    """The units of ``units`` that a name typed (lower case) to 'look' names, by the
    first reading of it (:func:`_look_readings`) that names one alone; else those the
    last reading names (none, or more than one)."""
    found: list[UnitState] = []
    for start, side in _look_readings(text):
        found = [
            u
            for u in units
            if start and start in u.name.lower() and side in (None, SIDE_NAMES[u.side])
        ]
        if len(found) == 1:
            break
    return found


def _lost(game: BoltActionGame, unit: UnitState) -> str:
    """ "was destroyed in turn 2 (knocked out)": when and how a destroyed unit was lost,
    as the game logged it."""
    for event in game.events:
        if event.kind == "destroyed" and event.data.get("unit") == unit.uid:
            return f"was destroyed in turn {event.data['turn']} ({event.data['why']})"
    return "was destroyed"


def _look_readings(text: str) -> list[tuple[str, str | None]]:
    """The ways ``look`` may read a name typed (lower case): as (part of the name, side or
    None), the likeliest first: "platoon hq (b)", "platoon hq b" and "b platoon hq" are
    Platoon HQ of side B; the name as typed is tried too (a name may start "A ...")."""
    readings: list[tuple[str, str | None]] = []
    sided = re.fullmatch(r"(.*?)\s*\(([ab])\)", text)
    if sided is not None:
        readings.append((sided[1], sided[2].upper()))
    words = text.split()
    if len(words) > 1 and words[-1] in ("a", "b"):
        readings.append((" ".join(words[:-1]), words[-1].upper()))
    readings.append((text, None))
    if len(words) > 1 and words[0] in ("a", "b"):
        readings.append((" ".join(words[1:]), words[0].upper()))
    return readings


def _with_shots_first(targets: list[tuple[T, str]]) -> list[tuple[T, str]]:
    """Targets with the lines that weigh a shot at each: those with a shot first, those
    with "no shot" after them (each lot in the order given)."""
    return [t for t in targets if t[1] != "no shot"] + [t for t in targets if t[1] == "no shot"]


def _not_a_target(word: str, left_off: Sequence[tuple[UnitState, str]]) -> str | None:
    """Why an enemy a word typed at a list of targets names is not on it ("it is not in
    sight (Barn in the way)", as the line under the list says); None where it names none
    of ``left_off`` (each enemy with why)."""
    named = _matching(word, [(enemy.name, (enemy, why)) for enemy, why in left_off])
    if len(named) != 1:
        return None
    enemy, why = named[0]
    return f"{enemy.name} is not a target: {why}"


def _order_word(word: str) -> str | None:
    """Why an order's name typed where a unit is asked for picks none: the unit comes
    first ("advance" at "Unit to order"); None where it names no order (three letters at
    least, or the whole name)."""
    orders = [*MENU, *(f"Call {call}" for call in SUPPORT)]
    if len(word) >= 3 and any(order.lower().startswith(word) for order in orders):
        return "that is an order: pick the unit first, then its order"
    return None


def _order_label(order: str, unit: UnitState) -> str:
    """An order as the menu lists it: a Rally by a unit with no pins says it does nothing
    now (the rules allow it: it takes its die, and its dice are rolled, losing none)."""
    if order == "Rally" and unit.pins == 0:
        return "Rally (no pins to lose)"
    return order


def _menu_name(action: Action) -> str:
    """The order as the menu names it: a Run at an enemy is an assault; a support call is
    its own entry."""
    if action.order == "Run" and action.target is not None:
        return "Assault"
    if action.order == "Fire" and action.choice in SUPPORT:
        return f"Call {action.choice}"
    return action.order


def _way_name(choice: str, end: float | None, *, reverse: bool = False) -> str:
    """How a vehicle drives to a place: ``reverse``, it backs there (asked for, or where
    its turns leave it no way forward)."""
    how = "in reverse" if reverse or choice == "reverse" else "driving forward"
    return how if end is None else f"{how}, ending {facing_text(end)}"


def _way(
    unit: UnitState, order: str, to: tuple[float, float], choice: str, facing: float | None
) -> Action:
    """The move order to ``to`` by a way (its choice and facing)."""
    return Action("order", unit=unit.uid, order=order, to=to, choice=choice, facing=facing)


def _reverses(game: BoltActionGame, unit: UnitState, move: Action) -> bool:
    """Whether the move order ``move`` backs a vehicle to its place: asked for, or the
    game's move check finds it may not drive there forward (its turns) and reverses."""
    if unit.vehicle is None or move.to is None:
        return False
    return move.choice == "reverse" or check_order_move(game.rules, game.table, unit, move).reverse


def _typed_place(line: str, offered: Sequence[tuple[float, float]] = ()) -> _Place | None:
    """A place typed as "x,y" (or "x y", or "(x, y)" as the lists print it), with
    "reverse" and "facing D" for a vehicle. A place typed as a list printed it, to the
    tenth of an inch, is the place ``offered`` that it prints (its ways asked, unless
    typed): the lists round what the game holds to 0.1"."""
    found = _PLACE.match(line)
    if found is None:
        return None
    rest = found["rest"].lower()
    facing = re.search(r"facing\s+(-?\d+(?:\.\d+)?)", rest)
    at = (float(found[2]), float(found[3]))
    way = (
        "reverse" if "reverse" in rest else "",
        None if facing is None else float(facing[1]) % 360,
    )
    if all(v == round(v, 1) for v in at):  # (typed no finer than the lists print)
        for place in offered:
            if all(f"{p:.1f}" == f"{v:.1f}" for p, v in zip(place, at, strict=True)):
                return place, (None if not rest.strip() else way)
    return at, way
