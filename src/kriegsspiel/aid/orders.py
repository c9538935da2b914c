"""The order-dice bag as the play aid keeps it: a die drawn (by the aid, or said drawn at
the table), given to a unit after its order test (rolled by the rules' own procedure, or
as the players rolled it), or taken out of turn by a reaction or a vehicle's damage; and
why each is refused when it is.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal, Self

from kriegsspiel.aid.record import AidError, Record
from kriegsspiel.aid.units import TrackedUnit, count_of
from kriegsspiel.core.procedure import Dice
from kriegsspiel.rulesets.bolt_action import bag
from kriegsspiel.rulesets.bolt_action.edition import Rules
from kriegsspiel.rulesets.bolt_action.morale import (
    UNTESTED_ORDERS,
    MoraleTest,
    order_test,
    order_test_needed,
    rallied,
    rally_roll,
)
from kriegsspiel.rulesets.bolt_action.reactions import dice_reactions, die_shown

ORDERS = ("Fire", "Advance", "Run", "Ambush", "Rally", "Down")
Outcome = Literal["pass", "fail", "friendly fire", "panic"]
OUTCOMES: tuple[Outcome, ...] = ("pass", "fail", "friendly fire", "panic")
# what a unit's die may show after each outcome of its order test (FUBAR: sheets 000-002;
# friendly fire with no friend to fire on, or panic with no enemy in sight or no way to
# move, goes Down: kriegsspiel.rulesets.bolt_action.game.fubar)
FUBAR_FACES: dict[Outcome, tuple[str, ...]] = {
    "friendly fire": ("Fire", "Down"),
    "panic": ("Run", "Down"),
}
# the orders a die taken out of the bag out of turn may show
DAMAGE_FACES = ("Down",)  # a vehicle's crew stunned (or immobilised): its die turned Down


class OrderSteps(Record):
    """The steps of the bag and the orders (a part of :class:`.tracker.Tracker`)."""

    __slots__ = ()

    def draw(self, dice: Dice, side: int | None = None) -> Self:
        """Draw a die from the bag: a side, each with its share of the dice there; or the
        ``side`` whose die the players drew from their own bag (refused if no die of its
        is there, or no unit of its waits for an order)."""
        refused = self.bag_draw_refused()
        if refused is not None:
            raise AidError(refused)
        weights = self._draw_weights()
        how = ""
        if side is None:
            roll = dice.roll(sum(w for _, w in weights))
            side = weights[0][0] if roll <= weights[0][1] else weights[-1][0]
        else:
            names = f"0 ({self.armies[0]}) or 1 ({self.armies[1]})"
            if side not in (0, 1):
                raise AidError(f"the side drawn is {names}, not {side!r}")
            refused = self.draw_refused(side)
            if refused is not None:
                raise AidError(refused)
            how = "drawn at the table; "
        drawn = replace(self, in_hand=side)
        return drawn.noted(f"Drew a die of {self.armies[side]} ({how}{drawn._bag_text()})")

    def _draw_weights(self) -> list[tuple[int, int]]:
        return bag.draw_weights(
            self.units, self.turn_dice, stay_until_turn_end=self.rules.destroyed_dice_stay_in_cup
        )

    def bag_draw_refused(self) -> str | None:
        """Why no die may be drawn from the bag now, or None if one may: none is drawn
        outside the orders (every unit has its order, or the game is over), nor with one
        still in hand."""
        phase = self._phase_refused("orders", "draw a die")
        if phase is not None:
            return phase
        if self.in_hand is not None:
            return f"{self.armies[self.in_hand]} has a die in hand: give it to a unit first"
        return None

    def draw_refused(self, side: int) -> str | None:
        """Why a die of ``side`` (0 or 1) cannot be said to be drawn from the players' bag
        now, or None if it may: the aid has none of its there, or none of its units to
        take it (and no die is drawn outside the orders, or with one still in hand)."""
        refused = self.bag_draw_refused()
        if refused is not None:
            return refused
        if side in dict(self._draw_weights()):
            return None
        army, left = self.armies[side], self.in_bag()[side]
        if not left:
            other = self.armies[1 - side]
            return (
                f"no die of {army} is left in the bag (every unit of its has its order, or "
                f"kept its die): the die drawn is {other}'s"
            )
        return (
            f"no unit of {army} waits for an order: its {left} {'die' if left == 1 else 'dice'}"
            " left in the bag (of units destroyed this turn) can order nothing; put it aside "
            "and draw again"
        )

    def give_order(
        self,
        uid: int,
        order: str,
        *,
        dice: Dice | None = None,
        outcome: Outcome | None = None,
        face: str | None = None,
        officer: str | None = None,
        pins_lost: int | None = None,
    ) -> Self:
        """Give the die in hand to ``uid`` with ``order``, after its order test.

        The test is rolled with ``dice``, or its ``outcome`` is given as the players rolled
        it (with ``pins_lost`` for a Rally's D6, and on a FUBAR the ``face`` the die shows:
        friendly fire Fire, or Down with no friend to fire at; panic Run, or Down).
        """
        unit = self._unit(uid)
        if order not in ORDERS:
            raise AidError(f"unknown order {order!r}; the orders are {', '.join(ORDERS)}")
        if self.in_hand is None:
            raise AidError("no die in hand: draw one from the bag first")
        if unit.side != self.in_hand:
            raise AidError(
                f"the die in hand is {self.armies[self.in_hand]}'s; {unit.name} is "
                f"{self.armies[unit.side]}'s"
            )
        if unit not in self.waiting(unit.side):
            raise AidError(f"{unit.name} {self._why_not_waiting(unit)}")
        if dice is None and outcome is None:
            raise AidError(
                "neither dice nor an outcome given: give dice to roll the order test, or its "
                f"outcome as the players rolled it ({', '.join(OUTCOMES)})"
            )
        if dice is not None and outcome is not None:
            raise AidError("both dice and an outcome given: give one, not both")
        refused = self.order_refused(uid, order)
        if refused is not None:
            raise AidError(refused)
        test = self.test_of(uid, officer)
        needed = order_test_needed(self.rules, test, order)
        rolled = ""
        if dice is not None:
            outcome, rolled = _roll_order_test(dice, self.rules, test) if needed else ("pass", "")
        assert outcome is not None
        if outcome not in OUTCOMES:
            raise AidError(f"unknown outcome {outcome!r}; give one of {', '.join(OUTCOMES)}")
        if not needed and outcome != "pass":
            why = "a Down order needs" if order in UNTESTED_ORDERS else "has no pins: it takes"
            raise AidError(f"{unit.name} {why} no order test and follows its order")
        shown = self._face(unit, order, outcome, face)
        lost = 0
        if shown == "Rally" and outcome == "pass":
            rally = self.rules.rally_pins  # (the rules file's dice: the sheets' D6)
            least, most = self.rules.rally_span
            if dice is not None:
                lost = rally_roll(dice, self.rules)
                rolled += f"; rally {rally.text} {lost}"
            elif pins_lost is None and not unit.pins:
                lost = 0  # (no pin to lose: no dice are asked)
            elif pins_lost is None or not least <= pins_lost <= most:
                got = "" if pins_lost is None else f" (got {pins_lost})"
                raise AidError(
                    f"a Rally loses {rally.text} pins: give pins_lost, the {rally.text} rolled "
                    f"({least}-{most}){got}"
                )
            else:
                lost = pins_lost
            lost = rallied(unit.pins, lost)
        fubar = outcome if outcome in FUBAR_FACES else None
        after = replace(unit, order=shown, pins=unit.pins - lost, fubar=fubar)
        step = replace(self._with(after), in_hand=None)
        test_text = (
            f"order test needs {test.value} or less{rolled}: {outcome}" if needed else "no test"
        )
        what = shown + (f", {count_of(lost, 'pin')} removed" if lost else "")
        return step.noted(f"{self.called(unit)}: {order} ({test_text}) -> {what}")

    def order_refused(self, uid: int, order: str) -> str | None:
        """Why ``uid`` cannot be given ``order`` whatever die is in hand, or None if it
        may: an immobilised vehicle cannot move, so it does not Run (the damage chart's
        "cannot move for the rest of the game")."""
        unit = self._unit(uid)
        if unit.immobilised and order == "Run":
            return (
                f"{unit.name} is immobilised: it cannot move for the rest of the game, so it "
                "cannot Run; give it Fire, Advance (it fires where it stands, as on the "
                "move), Ambush, Rally or Down"
            )
        return None

    def orders_refused(self, uid: int) -> dict[str, str]:
        """The orders ``uid`` cannot be given, each with why (:meth:`order_refused`)."""
        refused = {order: self.order_refused(uid, order) for order in ORDERS}
        return {order: why for order, why in refused.items() if why is not None}

    def take_die(self, uid: int, face: str, why: Literal["reaction", "damage"]) -> Self:
        """Take ``uid``'s die out of the bag out of turn: a reaction the edition plays
        (:meth:`reaction_faces`: Down when shot at; in Konflikt '47 an escape's Run and
        stand and fire's Fire; a recce vehicle's escape, its die Down in Bolt Action 1st
        edition, Run in Konflikt '47), or a vehicle's die turned Down by damage before it
        had an order."""
        unit = self._unit(uid)
        self._in_phase("orders", "take a die out of turn")
        if unit not in self.waiting(unit.side):
            raise AidError(f"{unit.name} {self._why_not_waiting(unit)}")
        faces: tuple[str, ...]
        if why == "reaction":
            if not self.rules.has_reactions:
                raise AidError(f"{self.rules.data.title} has no reactions")
            faces = self.reaction_faces(uid)
            if face not in faces:
                raise AidError(self._no_reaction(unit, face, faces))
        else:
            if unit.kind != "vehicle":
                raise AidError(
                    f"{unit.name} is not a vehicle: only damage to one turns its die Down"
                )
            faces = DAMAGE_FACES
        if face not in faces:
            raise AidError(f"a die taken by {why} shows {' or '.join(faces)}, not {face!r}")
        step = self._with(replace(unit, order=face, reacted=why == "reaction"))
        return step.noted(f"{self.called(unit)}: {face} ({why}; its die taken from the bag)")

    def reaction_faces(self, uid: int) -> tuple[str, ...]:
        """The orders ``uid``'s die may be taken for by a reaction now, as the game allows
        them (:func:`.reactions.dice_faces`): Down when shot at, an escape's Run, standing
        to fire's Fire; a vehicle only a recce vehicle's escape (Down in Bolt Action 1st
        edition, Run in Konflikt '47); none once it has its die."""
        return tuple(self.reactions_of(uid))

    def reactions_of(self, uid: int) -> dict[str, str]:
        """:meth:`reaction_faces`, each with the reaction it is taken for
        (:func:`.reactions.dice_reactions`: "down", "escape", "stand and fire")."""
        unit = self._unit(uid)
        if self.phase != "orders" or unit not in self.waiting(unit.side):
            return {}
        return dice_reactions(
            self.rules,
            vehicle=unit.kind == "vehicle",
            recce=unit.recce,
            immobilised=unit.immobilised,
            unordered=True,
        )

    def _no_reaction(self, unit: TrackedUnit, face: str, faces: tuple[str, ...]) -> str:
        """Why ``unit`` cannot react with ``face`` (``faces``: those it may), in the rules
        of its edition: a vehicle reacts only as a recce vehicle's escape, whose die shows
        Down in Bolt Action 1st edition and Run in Konflikt '47 (:func:`.reactions.die_shown`),
        and only in Konflikt '47 does a vehicle fire at its assaulters instead."""
        if unit.kind != "vehicle":
            return f"a die taken by reaction shows {' or '.join(faces)}, not {face!r}"
        rules = self.rules
        shown = die_shown(rules, "escape", vehicle=True)
        escape = f"an escape, its die then showing {shown} ({rules.recce_escape_source})"
        if not unit.recce:
            why = f"in {rules.data.title} only a recce vehicle reacts, by {escape}"
            if rules.data.vehicle_assault.fires_at_assaulters_beyond is not None:
                why += ", and a vehicle fires at assaulters without spending its die"
        elif unit.immobilised:
            why = "it is immobilised: a recce vehicle reacts only by an escape, a move"
        else:
            why = f"a recce vehicle reacts only by {escape}"
        return f"{unit.name} cannot react with {face}: {why}"

    def _why_not_waiting(self, unit: TrackedUnit) -> str:
        if self.over:
            return "takes no order: the game is over"
        if unit.destroyed:
            return "is destroyed"
        if unit.retained:
            return f"kept its {unit.retained} die from the last turn"
        return f"already has an order this turn ({unit.order})"

    def _face(self, unit: TrackedUnit, order: str, outcome: Outcome, face: str | None) -> str:
        if outcome == "pass":
            return order
        if outcome == "fail":
            return "Down"
        faces = FUBAR_FACES[outcome]
        if outcome == "panic" and unit.immobilised:
            # as the game's panic: a unit that cannot move goes Down (sheet 001)
            if face not in (None, "Down"):
                raise AidError(
                    f"{unit.name} is immobilised and cannot run away: after FUBAR panic its "
                    f"die shows Down, not {face!r}"
                )
            return "Down"
        if face is None:
            return faces[0]
        if face not in faces:
            raise AidError(
                f"after FUBAR {outcome} the die shows {' or '.join(faces)}, not {face!r}"
            )
        return face


def _roll_order_test(dice: Dice, rules: Rules, test: MoraleTest) -> tuple[Outcome, str]:
    """The order test rolled by the rules' own procedure (2D6, then the FUBAR chart's D6
    on a FUBAR), with the dice it rolled to show the players."""
    seen = SeenDice(dice)
    result = order_test(seen, rules, test)
    assert result != "no test"  # asked only when a test is needed
    fubar = " (FUBAR)" if result in FUBAR_FACES else ""
    return result, f", rolled {seen.text()}{fubar}"


class SeenDice:
    """Dice that remember what they rolled, to show the players."""

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.rolls: list[str] = []

    def roll(self, sides: int) -> int:
        value = self.dice.roll(sides)
        self.rolls.append(str(value))
        return value

    def total(self, count: int, sides: int) -> int:
        value = self.dice.total(count, sides)
        self.rolls.append(str(value))
        return value

    def count_at_least(self, count: int, sides: int, *at_least: int) -> int:
        return self.dice.count_at_least(count, sides, *at_least)

    def faces(self, count: int, sides: int) -> tuple[int, ...]:
        return self.dice.faces(count, sides)

    def text(self) -> str:
        return ", then ".join(self.rolls)
