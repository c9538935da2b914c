"""One game with a person at a side: played turn by turn at the terminal, told as it goes,
saved before each of the person's decisions, and resumable from its record.

The game runs as :func:`kriegsspiel.ai.players.play` runs it (chance from the seed, the AI
with the same seeds as in ``kriegsspiel play``), so a resumed game goes on exactly as if it
had never stopped, and its record replays like any other.
"""

from __future__ import annotations

import random
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from kriegsspiel.ai.players import Player, chance_outcome
from kriegsspiel.core.game import CHANCE
from kriegsspiel.core.records import dumps, read_lines, record_text
from kriegsspiel.core.seeds import chance_stream, side_seed
from kriegsspiel.errors import UsageError
from kriegsspiel.outfiles import writing
from kriegsspiel.render.game_account import (
    account_from,
    objectives_held,
    result_line,
    units_lost,
)
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.to_hit import hit_words
from kriegsspiel.sim.matchup import new_player
from kriegsspiel.solo.briefing import SIDE_NAMES
from kriegsspiel.solo.human import Ask, HumanPlayer, QuitGame
from kriegsspiel.solo.keep import keeping

INTERRUPTED = 130  # the exit status of a run stopped by Ctrl-C
GRID = 6.0  # inches between the lines drawn over the table a person plays on


@dataclass
class SoloGame:
    """A game under way with its seats, its record's header and where it is saved."""

    game: BoltActionGame
    seats: tuple[str, str]  # each side's player, as --players names it
    head: dict[str, Any]  # the record's header (written as it is, every save)
    record_path: str
    svg_path: str
    console: Console
    ask: Ask
    chance: random.Random = field(init=False)
    players: list[Player] = field(init=False)
    told: int = 0  # the events told so far
    # while a person sets up by hand: the drawing's title and the unit outlined
    setting_up: tuple[str, list[int]] | None = None
    turn: int = 0  # the turn they end in (for the account's headings)

    def __post_init__(self) -> None:
        self.chance = chance_stream(self.game.seed)
        self.players = [self._player(side, kind) for side, kind in enumerate(self.seats)]

    def _player(self, side: int, kind: str) -> Player:
        if kind != "human":
            return new_player(kind, side_seed(self.game.seed, side))
        return HumanPlayer(
            self.console,
            self.ask,
            adviser=lambda: new_player("tactical", side_seed(self.game.seed, side)),
        )

    # ------------------------------------------------------------------ going on
    def play(self) -> int:
        """Play to the end, or until the person stops; the exit status (0, or 130 after
        Ctrl-C). The record is saved either way."""
        game = self.game
        self.console.print(
            f"The table is drawn to {escape(self.svg_path)} before each of your decisions: "
            "open it in a browser and reload it. Type 'help' at any prompt."
        )
        settled = True  # False while an action is carried out (the game is then half-way)
        when = "during the set-up"  # (where a stop comes, as the person is told it)
        try:
            from kriegsspiel.solo.set_up import set_up, unfinished

            if unfinished(self):  # a person's side sets its units up first
                set_up(self)
                game = self.game  # (set up anew)
            when = ""
            while not game.is_terminal():
                side = game.current_player()
                if side == CHANCE:
                    action = chance_outcome(game, self.chance)
                else:
                    if self.seats[side] == "human":
                        self.tell()
                        self.save()
                    action = self.players[side].choose(game)
                settled = False
                game.apply_action(action)
                settled = True
        except QuitGame:
            self.stopped("Stopped", when)
            return 0
        except KeyboardInterrupt:
            # stopped in the middle of carrying out an action, the game is not saved: the
            # record keeps it as it stood at the person's last decision, to be asked again
            self.stopped("Interrupted", when, save=settled)
            return INTERRUPTED
        self.tell()
        self.save()
        self.finished()
        return 0

    def tell(self) -> None:
        """Print what has happened since the last telling."""
        events = self.game.events
        # (read from the last order told: what it began may go on now, an assault's chase)
        since = next(
            (i for i in range(self.told - 1, -1, -1) if events[i].kind == "order"), self.told
        )
        lines, self.turn = account_from(
            events[since:],
            self.game.units,
            self.turn,
            rally=self.game.rules.rally_pins.text,
            words=hit_words(self.game.rules),
            told=self.told - since,
        )
        self.told = len(events)
        for line in lines:
            self.console.print(line, markup=False)

    def save(self) -> None:
        """Write the record so far and draw the table (each whole, or not at all)."""
        from kriegsspiel.render.table_svg import write_svg

        text = record_text(self.head, self.game.events)
        with writing(self.record_path, "the record") as temp:
            Path(temp).write_text(text, encoding="utf-8")
        game = self.game
        title = f"Turn {game.scenario.turn_of(game.turn)}"
        side = game.current_player()
        marked: list[int] = []
        pending = game.pending
        if side in (0, 1) and self.seats[side] == "human":  # the units it is asked about
            if pending is None:
                marked, who = (
                    [u.uid for u in game.eligible(side)],
                    f"side {SIDE_NAMES[side]}'s units to order",
                )
            elif pending.kind == "friendly-fire":
                marked, who = list(pending.friends), "the units a FUBAR enemy may fire at"
            elif pending.kind == "retain":  # (asked at once: keep.keeping)
                marked, who = keeping(game), f"side {SIDE_NAMES[side]}'s units that may keep dice"
            else:
                marked, who = game.deciding_units(), f"side {SIDE_NAMES[side]}'s units to decide"
            title += f" — outlined: {who}"
        if self.setting_up is not None:
            title, marked = self.setting_up
        with writing(self.svg_path, "--svg") as temp:
            write_svg(game, temp, title=title, grid=GRID, marked=marked)

    def stopped(self, how: str, when: str = "", *, save: bool = True) -> None:
        """Tell the person the game stopped (``how``), ``when`` (else in its turn), where
        it is saved, how to go on, and that a new game is not written over it (the same
        ``play`` command again is refused: a new game needs another ``--record``)."""
        if save:
            self.save()
        kept = "The game so far is in" if save else "The game as at your last decision is in"
        self.console.print(
            f"{how} {when or f'in turn {self.game.turn}'}. {kept} {escape(self.record_path)};"
        )
        # the command on a line of its own, never broken, so it is copied whole
        self.console.print(
            f"go on with: kriegsspiel play --resume {escape(shlex.quote(self.record_path))}",
            soft_wrap=True,
        )
        self.console.print(
            "A new game does not write over it: give the new game another --record, or move "
            "this file aside."
        )

    def finished(self) -> None:
        self.console.print(result_line(self.game))
        held = objectives_held(self.game)  # (an objectives game: who holds which, as scored)
        if held:
            self.console.print("The objectives at the end:")
            for line in held:
                self.console.print(line, markup=False)
        lost = units_lost(self.game)  # (a game of units destroyed: whose, as scored)
        if lost:
            self.console.print("The units destroyed:")
            for line in lost:
                self.console.print(line, markup=False)
        self.console.print(
            f"Record written to {escape(self.record_path)} (replay with: kriegsspiel replay "
            f"{escape(shlex.quote(self.record_path))}); table drawn to {escape(self.svg_path)}"
        )


def resumed(path: str, *, svg_path: str, console: Console, ask: Ask) -> SoloGame:
    """The game of the record at ``path`` as it stood when it was saved, ready to go on.

    The record must replay exactly (:func:`~kriegsspiel.rulesets.bolt_action.game.record.replay`);
    its chance outcomes are drawn again from its seed, and the AI's decisions made again,
    so that what comes next is what would have come had the game never stopped.
    """
    from kriegsspiel.rulesets.bolt_action.game.record import decisions, new_game, replay
    from kriegsspiel.rulesets.bolt_action.game.record_events import Reseed

    verdict = replay(path)
    if not verdict.reproduced:
        raise UsageError(
            f"--resume {path!r} does not replay: it parts from this version's game at line "
            f"{verdict.first_difference}"
            + (f" (made with {verdict.made_otherwise})" if verdict.made_otherwise else "")
            + "; 'kriegsspiel replay' shows where. Only a record that replays can go on."
        )
    if verdict.finished:
        raise UsageError(f"--resume {path!r}: that game is over; 'kriegsspiel replay' re-runs it.")
    record = read_lines(path)
    if "agent" in record.rows[0]["players"]:
        raise UsageError(
            f"--resume {path!r}: a learning agent played that game (kriegsspiel.env); only "
            "a game of 'kriegsspiel play' goes on at the terminal."
        )
    game = new_game(record.rows[0], path)
    head = {k: v for k, v in record.rows[0].items() if k != "format"}  # (written again)
    solo = SoloGame(
        game,
        (head["players"][0], head["players"][1]),
        head,
        path,
        svg_path,
        console,
        ask,
    )
    for line, action in decisions(record.rows[1:], path):
        if isinstance(action, Reseed):
            raise UsageError(
                f"--resume {path!r}, line {line}: the dice were reseeded there (a game "
                "played from Python); only a game of 'kriegsspiel play' goes on at the "
                "terminal. 'kriegsspiel replay' re-runs it."
            )
        side = game.current_player()
        if side == CHANCE:
            again = chance_outcome(game, solo.chance)
        elif solo.seats[side] != "human":
            again = solo.players[side].choose(game)
        else:
            again = action
        if again != action:
            raise UsageError(
                f"--resume {path!r}, line {line}: the record has {dumps(action.to_json())}, "
                f"but this game's seed and AI give {dumps(again.to_json())}; it was not made "
                "by 'kriegsspiel play' as it plays now, so it cannot go on."
            )
        game.apply_action(action)
    solo.told = len(game.events)
    solo.turn = game.turn
    console.print(
        f"Resuming {escape(game.scenario.name)} at turn {game.turn} "
        f"(side A: {head['players'][0]}, side B: {head['players'][1]}), "
        f"{len(game.events)} events replayed from {escape(path)}."
    )
    return solo
