"""The play aid's record of a game played on a real table: the order-dice bag, each unit's
die, pins and models, turn by turn.

The players move the miniatures and roll (or let the aid roll); the aid keeps what the
rules keep: which dice are in the bag (:mod:`kriegsspiel.rulesets.bolt_action.bag`, the
simulated game's own bag), the order test a unit takes (:mod:`.morale`, the same test and
FUBAR chart) and what follows from it, the pins that remove a unit, the dice kept at a
turn's end. A :class:`Tracker` is a frozen value: each step returns a new one, so undo is
the one before and nothing is changed by a step that is refused.

Here a game is started and its turns ended; what it keeps is :mod:`.record` (each unit:
:mod:`.units`), and its other steps, each with why it is refused when it is, are those of
the bag and the orders (:mod:`.orders`), of what the players say (:mod:`.players_say`) and
of what befalls the units (:mod:`.losses`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from kriegsspiel.aid.losses import (
    FLAMED,
    HALF_STRENGTH,
    MAX_PINS,
    LossSteps,
    Winner,
    refuse_friends,
)
from kriegsspiel.aid.orders import (
    DAMAGE_FACES,
    FUBAR_FACES,
    ORDERS,
    OUTCOMES,
    OrderSteps,
    Outcome,
)
from kriegsspiel.aid.players_say import PlayersSay
from kriegsspiel.aid.record import AidError
from kriegsspiel.aid.units import Kit, TrackedUnit, one_shot_carried
from kriegsspiel.core.names import a_or_an, ordinal
from kriegsspiel.core.procedure import Dice
from kriegsspiel.core.scenario import MOST_TURNS, Victory
from kriegsspiel.rulesets.bolt_action import bag
from kriegsspiel.rulesets.bolt_action.army import ArmyList
from kriegsspiel.rulesets.bolt_action.edition import rules_for
from kriegsspiel.rulesets.bolt_action.kit import keep_rank

__all__ = [  # (the aid's words, where its other modules and its callers find them)
    "DAMAGE_FACES",
    "FLAMED",
    "FUBAR_FACES",
    "HALF_STRENGTH",
    "MAX_PINS",
    "ORDERS",
    "OUTCOMES",
    "AidError",
    "Kit",
    "Outcome",
    "TrackedUnit",
    "Tracker",
    "Winner",
    "one_shot_carried",
    "refuse_friends",
]


@dataclass(frozen=True, slots=True)
class Tracker(LossSteps, OrderSteps, PlayersSay):
    """A game on a real table, between two of its steps (its record: :class:`.Record`):
    started here, its turn ended here; its other steps are those of the bag and the orders
    (:class:`.OrderSteps`), of what the players say (:class:`.PlayersSay`) and of what
    befalls the units (:class:`.LossSteps`)."""

    # ------------------------------------------------------------------ starting
    @classmethod
    def start(
        cls,
        ruleset: str,
        armies: tuple[ArmyList, ArmyList],
        turns: int,
        *,
        rules_file: str | None = None,
        rules_text: str | None = None,
        victory: Victory | None = None,
        another_turn_on: int | None = None,
    ) -> Tracker:
        """The first turn's bag, every unit at full strength and without pins; played by
        the edition's rules, or a designer's (``rules_file`` names them, ``rules_text``);
        won as the scenario's ``victory`` says; ``turns`` long, and one more after them on a
        D6 of ``another_turn_on`` or more (None: no roll)."""
        if turns < 1:
            raise AidError(f"a game lasts at least one turn (got --turns {turns})")
        if turns > MOST_TURNS:
            raise AidError(f"a game lasts at most {MOST_TURNS} turns (got --turns {turns:,})")
        if another_turn_on is not None and not 2 <= another_turn_on <= 6:
            raise AidError(
                f"one more turn is played on a D6 score of 2 to 6 (got {another_turn_on})"
            )
        # an unknown edition or a broken rules file is refused before the first step
        rules = rules_for(ruleset, rules_file, rules_text)
        units: list[TrackedUnit] = []
        for side, army in enumerate(armies):
            for spec in army.units:
                officer = next((m.officer for m in spec.models if m.officer), None)
                vehicle = spec.vehicle
                size = 1 if vehicle is not None else spec.model_count
                kit: tuple[Kit, ...]
                if vehicle is not None:
                    kit = (Kit(spec.name, 1, tuple(w.weapon for w in vehicle.weapons)),)
                else:
                    ranked = sorted(
                        spec.models,
                        key=lambda m: keep_rank(
                            rules, m.weapons, officer=m.officer is not None, nco=m.nco
                        ),
                    )
                    kit = tuple(Kit(m.name, m.count, tuple(m.weapons)) for m in ranked)
                units.append(
                    TrackedUnit(
                        uid=len(units),
                        side=side,
                        name=spec.name,
                        kind=spec.type,
                        quality=spec.quality,
                        points=spec.points,
                        start_models=size,
                        officer=officer,
                        models=size,
                        target=spec.damage_value_of,
                        kit=kit,
                        open_topped=bool(vehicle and vehicle.open_topped),
                        automaton=bool(vehicle and vehicle.automaton),
                        recce=bool(vehicle and vehicle.recce),
                    )
                )
        first = cls(
            ruleset,
            (armies[0].name, armies[1].name),
            turns,
            tuple(units),
            rules_file=rules_file,
            rules_text=rules_text,
            victory=victory,
            another_turn_on=another_turn_on,
        )
        first = replace(first, turn_dice=bag.put_in(first.units))
        return first.noted(f"Turn 1: {first._bag_text()}")

    # ------------------------------------------------------------------ the turn's end
    def _another_turn_roll(self, dice: Dice | None, rolled: int | None) -> int | None:
        """The D6 for one more turn at this turn's end: the one the players ``rolled``, or
        the aid's ``dice``'s; None where the turn's end rolls none. Refused: a roll given
        where none is made, a score that is no D6's, or none given where one is due."""
        if not self.rolls_for_another():
            if rolled is not None:
                why = (
                    f"turn {self.turn} is not the last"
                    if self.turn < self.turns
                    else "this game has no roll for another turn"
                )
                raise AidError(f"no roll for another turn at this turn's end: {why}", "rolled")
            return None
        if rolled is not None:
            if not 1 <= rolled <= 6:
                raise AidError(
                    f"the roll for another turn is a D6, 1 to 6 (got {rolled})", "rolled"
                )
            return rolled
        if dice is None:
            raise AidError(
                f"the end of turn {self.turn} rolls a D6 for another turn: give what the "
                "players rolled (1 to 6), or let the aid roll it",
                "rolled",
            )
        return dice.roll(6)

    def end_turn(
        self, keep: Sequence[int] = (), *, dice: Dice | None = None, rolled: int | None = None
    ) -> Tracker:
        """Close the turn: the units in ``keep`` (on Down or Ambush) keep their die for the
        next turn, every other live unit's die goes back in the bag; after the last turn
        the game is over, unless it rolls for one more: the D6 the players ``rolled``, or
        the aid's ``dice`` roll it (on ``another_turn_on`` or more one more turn is
        played, and the dice kept are kept into it). A morale check still owed is let
        pass, and the log says so."""
        self._in_phase("turn end", "end the turn")
        roll = self._another_turn_roll(dice, rolled)
        allowed = self.may_keep()
        for i, uid in enumerate(keep):
            if uid in keep[:i]:
                raise AidError(
                    f"keep names {self._unit(uid).name} (unit {uid}) twice: give each unit once"
                )
            if uid not in allowed:
                unit = self._unit(uid)
                why = (
                    "no die is kept after the last turn"
                    if not self.may_go_on()
                    else f"only a unit on Down or Ambush keeps its die, and {unit.name} is "
                    + ("destroyed" if unit.destroyed else f"on {unit.order}")
                )
                raise AidError(f"{unit.name} cannot keep its die: {why}")
        units = tuple(
            u
            if u.destroyed
            else replace(
                u,
                order=None,
                retained=bag.held(u) if u.uid in keep else None,
                fubar=None,
                reacted=False,
                stood_and_fired=False,
                assaulted=False,
                checks_due=(),
            )
            for u in self.units
        )
        kept = ", ".join(
            f"{self.called(self.units[uid])} ({bag.held(self.units[uid])})" for uid in keep
        )
        closed = self
        for unit in self.units:  # (said, so the players can see what was let pass)
            for why in unit.checks_due:
                closed = closed.noted(
                    f"{self.called(unit)}: its morale check ({why}) was not taken"
                )
        closed = replace(closed, units=units, in_hand=None).noted(
            f"Turn {self.turn} ends" + (f"; kept: {kept}" if kept else "")
        )
        if roll is not None:
            assert self.another_turn_on is not None  # (a roll is made only then)
            more = roll >= self.another_turn_on
            extra = ordinal(self.turn + 1)
            closed = closed.noted(
                f"Roll for {a_or_an(extra)} turn: {roll} (needs {self.another_turn_on}+) -> "
                + (f"{a_or_an(extra)} turn is played" if more else "the game ends")
            )
            if not more:
                return closed._game_over(f"the roll for {a_or_an(extra)} turn was {roll}")
            # the turn added is counted in the game's turns: no roll after it
            closed = replace(closed, turns=self.turns + 1, another_turn_on=None)
        elif self.turn >= self.turns:
            return closed._game_over("the last turn is played")
        nxt = replace(closed, turn=self.turn + 1, turn_dice=bag.put_in(units))
        return nxt.noted(f"Turn {nxt.turn}: {nxt._bag_text()}")
