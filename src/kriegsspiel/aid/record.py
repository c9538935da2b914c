"""The play aid's record of a game on a real table, between two steps: each unit as the
aid keeps it, the turn, the dice put in the bag and the one in hand, the log; and what
is read from it (the dice in the bag, who waits for an order, the officers, the result).
The steps that change it are :class:`.tracker.Tracker`'s, by their concept (:mod:`.orders`,
:mod:`.players_say`, :mod:`.losses`), each a new record.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, Self

from kriegsspiel.aid.units import TrackedUnit, count_of
from kriegsspiel.core.scenario import Victory, length_text, may_follow
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action import bag
from kriegsspiel.rulesets.bolt_action.edition import Rules, rules_for
from kriegsspiel.rulesets.bolt_action.morale import MoraleTest, new_test


class AidError(UsageError):
    """A step the rules do not allow now; says why and what would be allowed, in words the
    page shows. ``field``: the request's field at fault, where there is one
    (``weapons.0.count``), for other tools using the API."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True, slots=True)
class Record:
    """A game on a real table, between two of its steps: what the aid keeps of it, and
    what it reads from that. Its steps are :class:`.tracker.Tracker`'s."""

    ruleset: str
    armies: tuple[str, str]
    turns: int
    units: tuple[TrackedUnit, ...]
    turn: int = 1
    turn_dice: tuple[int, ...] = ()  # the units whose dice went into the bag this turn
    in_hand: int | None = None  # the side whose die was drawn and has no order yet
    over: bool = False
    log: tuple[str, ...] = ()
    # a designer's rules (kriegsspiel aid --rules-file): its name and text; None: the
    # edition's shipped rules. The save holds the text once, with the game's start.
    rules_file: str | None = None
    rules_text: str | None = None
    # how the scenario is won: units destroyed (the aid counts them) or objectives held at
    # the end (the aid cannot see them); None: not known (a save from before it was kept)
    victory: Victory | None = None
    # the D6 score that plays one more turn after the last (the scenario's
    # ``another_turn_on``); None: the game lasts ``turns`` turns, no more (--turns given,
    # a save from before, or the roll made: a turn it added is counted in ``turns``)
    another_turn_on: int | None = None

    # ------------------------------------------------------------------ reading
    @property
    def rules(self) -> Rules:
        return rules_for(self.ruleset, self.rules_file, self.rules_text)

    @property
    def phase(self) -> Literal["orders", "turn end", "over"]:
        """Orders while a unit waits for its die; then the turn's end; then the game is over."""
        if self.over:
            return "over"
        if bag.waiting(self.units, 0) or bag.waiting(self.units, 1):
            return "orders"
        return "turn end"

    def in_bag(self) -> tuple[int, int]:
        """Each side's dice in the bag: a drawn die is in its player's hand, not in the bag
        (:func:`.bag.in_bag`'s count as the players see it); none once the game is over."""
        if self.over:
            return (0, 0)
        return bag.in_bag(
            self.units,
            self.turn_dice,
            stay_until_turn_end=self.rules.destroyed_dice_stay_in_cup,
            in_hand=self.in_hand,
            hand_out=True,
        )

    def draw_chances(self) -> list[tuple[int, float]]:
        """Each side's chance of the next die out of the bag."""
        if self.in_hand is not None or self.phase != "orders":
            return []
        return bag.draw_chances(
            self.units, self.turn_dice, stay_until_turn_end=self.rules.destroyed_dice_stay_in_cup
        )

    def waiting(self, side: int) -> list[TrackedUnit]:
        """The units of ``side`` still to be given an order this turn (none once the game
        is over)."""
        return [] if self.over else bag.waiting(self.units, side)

    def may_keep(self) -> tuple[int, ...]:
        """The units that may keep their Down or Ambush die at this turn's end, into the
        turn that may come (none after the last turn; after a last turn that rolls for
        another, kept if one comes: :func:`~kriegsspiel.core.scenario.may_follow`)."""
        return bag.may_keep(self.units) if self.may_go_on() else ()

    def may_go_on(self) -> bool:
        """Whether a turn may follow this one (:func:`~kriegsspiel.core.scenario.may_follow`)."""
        return may_follow(self.turn, self.turns, self.another_turn_on)

    def rolls_for_another(self) -> bool:
        """Whether this turn's end brings the roll for one more turn."""
        return self.turn == self.turns and self.another_turn_on is not None

    def length_text(self) -> str:
        """The game's length as said: "6 turns, a seventh on a D6 roll of 4+"."""
        return length_text(self.turns, self.another_turn_on)

    def officers(self, side: int) -> list[str]:
        """The ranks of the live officers of ``side``, best bonus first."""
        ranks = {u.officer for u in self.units if u.side == side and u.officer and not u.destroyed}
        return sorted(ranks, key=lambda r: -self.rules.officer_bonus(r))

    def test_of(self, uid: int, officer: str | None = None) -> MoraleTest:
        """The test ``uid`` takes for an order: its quality, pins and an officer near
        (its own officer counts without being named)."""
        unit = self._unit(uid)
        return new_test(
            self.rules, unit.quality, officer=self.officer_for(uid, officer), pins=unit.pins
        )

    def destroyed_count(self, side: int) -> int:
        """The units ``side`` lost (the enemy destroyed them): the other side's victory
        points where a scenario counts units destroyed (the page and the log say "units
        lost", since ``kriegsspiel play``'s score counts the units each side destroyed)."""
        return sum(1 for u in self.units if u.side == side and u.destroyed)

    # ------------------------------------------------------------------ inside
    def _wiped_out(self) -> Self:
        """The game ends at once when a side has no unit left (as the simulated game)."""
        gone = [s for s in (0, 1) if all(u.destroyed for u in self.units if u.side == s)]
        if len(gone) == 2:
            return self._game_over("neither side has a unit left")
        if gone:
            return self._game_over(f"{self.armies[gone[0]]} has no unit left")
        return self

    def _game_over(self, why: str) -> Self:
        return replace(self, over=True, in_hand=None).noted(
            f"Game over ({why}): {self.result()}; units lost: "
            f"{self.armies[0]} {self.destroyed_count(0)}, "
            f"{self.armies[1]} {self.destroyed_count(1)}"
        )

    def ended(self) -> str:
        """When the game ended, as the game's account says it: "Game over in turn 3" for a
        side wiped out before the turn's end (the aid ends it at once, :meth:`_wiped_out`),
        "Game over after turn 6" for the last turn played out."""
        wiped = any(all(u.destroyed for u in self.units if u.side == s) for s in (0, 1))
        return f"Game over {'in' if wiped else 'after'} turn {self.turn}"

    def result(self) -> str:
        """Who won, by the simulated game's rule (``BoltActionGame.winner``) as far as the
        aid can tell: a side with units left beats one with none, whatever the score;
        else the scenario's score, which the aid counts where it is units destroyed and
        cannot see where it is objectives held."""
        left = [any(not u.destroyed for u in self.units if u.side == s) for s in (0, 1)]
        if left[0] != left[1]:
            return f"{self.armies[0 if left[0] else 1]} wins (the only side with units left)"
        if self.victory == "objectives":
            if not any(left):
                return "a draw (no unit is left to hold an objective)"
            return "the objectives held now decide who won (the aid cannot see the table)"
        if self.victory == "units destroyed":
            points = (self.destroyed_count(1), self.destroyed_count(0))  # each side's
            if points[0] == points[1]:
                return f"a draw ({count_of(points[0], 'unit')} destroyed each)"
            won = 0 if points[0] > points[1] else 1
            return (
                f"{self.armies[won]} wins on units destroyed ({points[won]} to {points[1 - won]})"
            )
        return (
            "the scenario decides who won (units destroyed or objectives held: this save "
            "does not say which)"
        )

    def called(self, unit: TrackedUnit) -> str:
        """A unit's name as the log says it: with its army's where a unit of the other side
        has the same name (both Konflikt '47 sample armies have a "Platoon HQ")."""
        if any(u.name == unit.name and u.side != unit.side for u in self.units):
            return f"{unit.name} ({self.armies[unit.side]})"
        return unit.name

    def noted(self, text: str) -> Self:
        return replace(self, log=(*self.log, text))

    def _bag_text(self) -> str:
        a, b = self.in_bag()
        return f"in the bag {self.armies[0]} {a}, {self.armies[1]} {b}"

    def _unit(self, uid: int) -> TrackedUnit:
        if not 0 <= uid < len(self.units):
            raise AidError(f"no unit {uid}: the units are numbered 0 to {len(self.units) - 1}")
        return self.units[uid]

    def _alive(self, uid: int) -> TrackedUnit:
        unit = self._unit(uid)
        if unit.destroyed:
            raise AidError(f"{unit.name} is destroyed")
        if self.over:
            raise AidError("the game is over")
        return unit

    def _with(self, unit: TrackedUnit) -> Self:
        units = list(self.units)
        units[unit.uid] = unit
        step = replace(self, units=tuple(units))
        if step.in_hand is not None and not step.waiting(step.in_hand):
            step = replace(step, in_hand=None)  # no unit left to take the die in hand
        return step

    def _in_phase(self, phase: str, doing: str) -> None:
        refused = self._phase_refused(phase, doing)
        if refused is not None:
            raise AidError(refused)

    def _phase_refused(self, phase: str, doing: str) -> str | None:
        if self.phase == phase:
            return None
        now = {
            "orders": "units still wait for orders",
            "turn end": "every unit has its order: end the turn",
            "over": "the game is over",
        }[self.phase]
        return f"cannot {doing} now: {now}"

    def officer_for(self, uid: int, named: str | None) -> str | None:
        """The officer whose bonus ``uid``'s test takes: the better of its own and the
        live officer ``named`` as standing near it (the players measure)."""
        unit = self._unit(uid)
        ranks = [r for r in (unit.officer, named) if r]
        if named and named not in self.officers(unit.side):
            known = ", ".join(self.officers(unit.side)) or "none"
            raise AidError(
                f"{self.armies[unit.side]} has no live officer {named!r} (live: {known})"
            )
        if not ranks:
            return None
        return max(ranks, key=self.rules.officer_bonus)
