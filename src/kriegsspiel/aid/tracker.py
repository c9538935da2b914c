"""The play aid's record of a game played on a real table: the order-dice bag, each unit's
die, pins and models, turn by turn.

The players move the miniatures and roll (or let the aid roll); the aid keeps what the
rules keep: which dice are in the bag (:mod:`kriegsspiel.rulesets.bolt_action.bag`, the
simulated game's own bag), the order test a unit takes (:mod:`.morale`, the same test and
FUBAR chart) and what follows from it, the pins that remove a unit, the dice kept at a
turn's end. A :class:`Tracker` is a frozen value: each step returns a new one, so undo is
the one before and nothing is changed by a step that is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from kriegsspiel.core.procedure import Dice
from kriegsspiel.core.scenario import MOST_TURNS, Victory
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action import bag
from kriegsspiel.rulesets.bolt_action.army import ArmyList
from kriegsspiel.rulesets.bolt_action.edition import Rules, rules_for
from kriegsspiel.rulesets.bolt_action.kit import keep_rank, one_shot_anti_tank
from kriegsspiel.rulesets.bolt_action.morale import (
    UNTESTED_ORDERS,
    MoraleTest,
    destroyed_by_pins,
    losses_force_test,
    morale_check,
    new_test,
    order_test,
    order_test_needed,
    rallied,
    rally_roll,
)
from kriegsspiel.rulesets.bolt_action.reactions import dice_reactions, die_shown

ORDERS = ("Fire", "Advance", "Run", "Ambush", "Rally", "Down")
MAX_PINS = 99  # more than any unit's morale: the count is kept, the unit removed at its morale
Outcome = Literal["pass", "fail", "friendly fire", "panic"]
Winner = Literal["attacker", "defender", "both"]  # "both": each struck the other's last down
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
# why a unit owes a morale check (the game takes both of one attack, the flamethrower's first)
FLAMED = "hit by a flamethrower"
HALF_STRENGTH = "at half strength or less"


class AidError(UsageError):
    """A step the rules do not allow now; says why and what would be allowed, in words the
    page shows. ``field``: the request's field at fault, where there is one
    (``weapons.0.count``), for other tools using the API."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True, slots=True)
class Kit:
    """Models of a unit alike in what they carry (a vehicle: itself and its mounted
    weapons), as its list gives them."""

    name: str
    count: int
    weapons: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TrackedUnit:
    """A unit on the real table as the aid keeps it (a vehicle is one model)."""

    uid: int
    side: int
    name: str
    kind: str  # infantry | artillery | team | vehicle (the list's unit type)
    quality: str
    points: int
    start_models: int
    officer: str | None = None  # the rank of the unit's own officer, if it has one
    models: int = 0
    pins: int = 0
    order: str | None = None  # the die taken for it this turn, showing its order
    retained: str | None = None  # a Down or Ambush die kept from the last turn
    destroyed: bool = False
    fubar: str | None = None  # this turn's FUBAR result (friendly fire or panic), if any
    reacted: bool = False  # its die was taken this turn as a reaction
    stood_and_fired: bool = False  # it stood and fired at assaulters this turn: die spent
    assaulted: bool = False  # it fought the assault of this turn's Run order: Run spent
    # the morale checks it owes and the players have not taken yet, why each, first first
    checks_due: tuple[str, ...] = ()
    immobilised: bool = False  # a vehicle that cannot move for the rest of the game
    # what the odds of its shots and assaults read (a save from before the aid asked
    # them has none: its weapons are then given by hand)
    target: str = ""  # the damage value it is hit on, as the sheet's table names it
    kit: tuple[Kit, ...] = ()  # in the order the owner removes casualties, first first
    open_topped: bool = False
    automaton: bool = False
    recce: bool = False  # a recce vehicle: it may escape a shot or an assault
    # what the players told the aid of it: the officer standing near it (the page's "Near";
    # one fallen since counts no more), and whether they roll its order test themselves
    near: str | None = None
    own_dice: bool = False
    # the players said its one-shot anti-tank weapons (Panzerfausts) are fired: the aid
    # records what befell a target, not who fired, so it cannot see them fired itself
    one_shot_fired: bool = False

    def survivors(self) -> tuple[Kit, ...]:
        """The models left, taking the losses as the simulated game does (riflemen first,
        then special weapons, NCOs, officers: :func:`.kit.keep_rank`), in list order
        among equals, since the aid cannot see which stood furthest from the shooter."""
        lost = self.start_models - self.models
        left: list[Kit] = []
        for kit in self.kit:
            taken = min(lost, kit.count)
            lost -= taken
            if kit.count > taken:
                left.append(replace(kit, count=kit.count - taken))
        return tuple(left)


@dataclass(frozen=True, slots=True)
class Tracker:
    """A game on a real table, between two of its steps."""

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
    ) -> Tracker:
        """The first turn's bag, every unit at full strength and without pins; played by
        the edition's rules, or a designer's (``rules_file`` names them, ``rules_text``);
        won as the scenario's ``victory`` says."""
        if turns < 1:
            raise AidError(f"a game lasts at least one turn (got --turns {turns})")
        if turns > MOST_TURNS:
            raise AidError(f"a game lasts at most {MOST_TURNS} turns (got --turns {turns:,})")
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
        )
        first = replace(first, turn_dice=bag.put_in(first.units))
        return first.noted(f"Turn 1: {first._bag_text()}")

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
        """The units that may keep their Down or Ambush die at this turn's end (none after
        the last turn)."""
        return bag.may_keep(self.units) if self.turn < self.turns else ()

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

    # ------------------------------------------------------------------ the bag
    def draw(self, dice: Dice, side: int | None = None) -> Tracker:
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
    ) -> Tracker:
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
        what = shown + (f", {_count(lost, 'pin')} removed" if lost else "")
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

    def take_die(self, uid: int, face: str, why: Literal["reaction", "damage"]) -> Tracker:
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

    # ------------------------------------------------------------------ the players' say
    def set_near(self, uid: int, officer: str | None) -> Tracker:
        """Name the live officer of its side the players say stands near ``uid`` (None:
        none); the page's tests and odds take his bonus, and every device sees him."""
        unit = self._alive(uid)
        if officer:
            self.officer_for(uid, officer)  # (refused unless a live officer of its side)
        step = self._with(replace(unit, near=officer or None))
        said = f"{officer} stands near it" if officer else "no other officer near it"
        return step.noted(f"{self.called(unit)}: {said}")

    def near_of(self, uid: int) -> str | None:
        """The officer the players said stands near ``uid``, while he lives."""
        unit = self._unit(uid)
        return unit.near if unit.near in self.officers(unit.side) else None

    def set_own_dice(self, uid: int, own: bool) -> Tracker:
        """Say whether the players roll ``uid``'s order test themselves (the page then asks
        for its outcome) or the aid rolls it."""
        unit = self._alive(uid)
        return self._with(replace(unit, own_dice=own))

    def set_one_shot_fired(self, uid: int, fired: bool) -> Tracker:
        """Say whether ``uid``'s one-shot anti-tank weapons (Panzerfausts) are fired: the
        odds of its shots and assaults then count them no more (or again, if said in
        error), until undone."""
        unit = self._alive(uid)
        refused = self.one_shot_refused(uid, fired)
        if refused is not None:
            raise AidError(refused)
        step = self._with(replace(unit, one_shot_fired=fired))
        carried = " and ".join(one_shot_carried(self.rules, unit))
        said = (
            f"its {carried} fired (it counts no more)"
            if fired
            else f"its {carried} not fired after all"
        )
        return step.noted(f"{self.called(unit)}: {said}")

    def one_shot_refused(self, uid: int, fired: bool) -> str | None:
        """Why ``uid``'s one-shot anti-tank weapons cannot be said to be ``fired`` (or not)
        now, or None if they may: its men left carry none, or it is said so already."""
        unit = self._unit(uid)
        if not one_shot_carried(self.rules, unit):
            return f"{unit.name}'s men left carry no one-shot anti-tank weapon (a Panzerfaust)"
        if unit.one_shot_fired == fired:
            said = "fired" if fired else "not fired"
            return f"{unit.name}'s one-shot anti-tank weapons are {said} already"
        return None

    def fubar_down(self, uid: int) -> Tracker:
        """Turn a FUBAR unit's die to Down: friendly fire with no friend it may fire on, or
        panic with no enemy in sight or no way to move (the players see the table)."""
        unit = self._alive(uid)
        if unit.fubar is None or unit.order == "Down":
            raise AidError(
                f"{unit.name} has no FUBAR this turn to turn Down"
                if unit.fubar is None
                else f"{unit.name} is Down already"
            )
        step = self._with(replace(unit, order="Down"))
        why = "no friend to fire on" if unit.fubar == "friendly fire" else "cannot run away"
        return step.noted(f"{self.called(unit)}: FUBAR {unit.fubar}, {why}: Down")

    # ------------------------------------------------------------------ pins and losses
    def set_pins(self, uid: int, pins: int) -> Tracker:
        """Set a unit's pins; as many as its morale value remove it from play."""
        unit = self._alive(uid)
        refused = self.pins_refused(uid, pins)
        if refused is not None:
            raise AidError(refused)
        base = new_test(self.rules, unit.quality).base
        if destroyed_by_pins(self.rules, unit.quality, pins):
            step = self._with(replace(unit, pins=pins, models=0, destroyed=True, checks_due=()))
            return step.noted(
                f"{self.called(unit)}: {_count(pins, 'pin')}, its morale {base}: removed from play"
            )._wiped_out()
        return self._with(replace(unit, pins=pins)).noted(
            f"{self.called(unit)}: {_count(pins, 'pin')}"
        )

    def set_models(self, uid: int, models: int) -> Tracker:
        """Set a unit's models left; none left destroys it. A loss that leaves it at half
        strength or less calls for a morale check, which the log says."""
        unit = self._alive(uid)
        refused = self.models_refused(uid, models)
        if refused is not None:
            raise AidError(refused)
        if models == 0:
            return self.destroy(uid)
        text = f"{self.called(unit)}: {models} of {unit.start_models} models"
        text += _men_taken(unit, replace(unit, models=models))
        due = unit.checks_due
        if models < unit.models and losses_force_test(unit.start_models, models):
            due = (*due, HALF_STRENGTH)
            text += f"; {HALF_STRENGTH}: a morale check (needs {self.test_of(uid).value} or less)"
        return self._with(replace(unit, models=models, checks_due=due)).noted(text)

    def pins_refused(self, uid: int, pins: int) -> str | None:
        """Why ``uid`` cannot be set to ``pins`` pins, or None if it may: pins are 0 to
        :data:`MAX_PINS` (where the rules remove a unit at its morale, it goes first)."""
        unit = self._unit(uid)
        if pins < 0 and unit.pins == 0:  # (the page's "−" at 0 says it so)
            return f"{unit.name} has no pins to take off: pins are 0 to {MAX_PINS} (got {pins})"
        if not 0 <= pins <= MAX_PINS:
            return f"{unit.name}'s pins are 0 to {MAX_PINS} (got {pins})"
        return None

    def models_refused(self, uid: int, models: int) -> str | None:
        """Why ``uid`` cannot be set to ``models`` models left, or None if it may: no unit
        has more than it started with."""
        unit = self._unit(uid)
        if not 0 <= models <= unit.start_models:
            return f"{unit.name} has 0 to {unit.start_models} models (got {models})"
        return None

    def shot_at(
        self,
        uid: int,
        casualties: int,
        pins: int,
        *,
        immobilised: bool = False,
        halted: bool = False,
        flamed: bool = False,
    ) -> Tracker:
        """What the dice did to a unit shot at, as one step: its ``pins`` first, then its
        ``casualties`` (a vehicle's one model: knocked out), so that a loss to half
        strength names the morale check with this shot's pins on it. ``flamed``: a
        flamethrower hit it, which calls for a morale check of its own (a vehicle's crew's
        too), owed before the half-strength one.

        A vehicle may also be ``immobilised`` (a second time: knocked out) or ``halted``
        (crew stunned, or on fire and not abandoned): as the game's vehicle damage, its
        die turns to Down, and so it does when it is immobilised after it took its order
        this turn."""
        unit = self._alive(uid)
        if casualties < 0 or pins < 0:
            raise AidError(f"casualties and pins are 0 or more (got {casualties} and {pins})")
        if casualties > unit.models:
            raise AidError(
                f"{unit.name} has {_count(unit.models, 'model')} left (got {casualties} casualties)"
            )
        if (immobilised or halted) and unit.kind != "vehicle":
            raise AidError(f"{unit.name} is not a vehicle: only a vehicle is immobilised or halted")
        if not casualties and not pins and not immobilised and not halted and not flamed:
            raise AidError(f"no casualties and no pins: nothing befell {unit.name}")
        again = immobilised and unit.immobilised and not casualties
        lost = (
            "knocked out"
            if unit.kind == "vehicle"
            else f"{casualties} casualt{'y' if casualties == 1 else 'ies'}"
        )
        what = [lost] if casualties else []
        if immobilised:
            what.append("immobilised again, so knocked out" if again else "immobilised")
        if halted:
            what.append("halted")
        if flamed:
            what.append(FLAMED)
        step = self.noted(f"{self.called(unit)} shot at: {', '.join([*what, _count(pins, 'pin')])}")
        if pins:
            step = step.set_pins(uid, unit.pins + pins)
        if flamed and not step.units[uid].destroyed and not again and casualties < unit.models:
            now = step.units[uid]
            step = step._with(replace(now, checks_due=(*now.checks_due, FLAMED)))
            needs = step.test_of(uid).value
            step = step.noted(
                f"{self.called(unit)}: {FLAMED}: a morale check (needs {needs} or less)"
            )
        if again:
            casualties = 1
        if casualties and not step.units[uid].destroyed:
            return step.set_models(uid, unit.models - casualties)
        now = step.units[uid]
        if now.destroyed or not (immobilised or halted):
            return step
        halted = halted or (immobilised and now.order is not None)
        if halted:  # its die (one kept from last turn too) turns to Down
            step = step._with(
                replace(
                    now,
                    immobilised=now.immobilised or immobilised,
                    order="Down",
                    retained=None,
                )
            )
            return step.noted(f"{self.called(unit)}: its die turned to Down (halted)")
        return step._with(replace(now, immobilised=True))

    def morale_check(
        self,
        uid: int,
        *,
        dice: Dice | None = None,
        passed: bool | None = None,
        officer: str | None = None,
        unowed: bool = False,
    ) -> Tracker:
        """A morale check (a loss to half strength, a flamethrower...): rolled with
        ``dice`` by the rules' own check, or ``passed`` as the players rolled it. A unit
        that fails is destroyed; one that passes fights on. The first check the unit owes
        is taken; one the aid does not know is owed (the table calls for it) only when
        ``unowed`` says so, so that a stray second click cannot destroy a unit."""
        unit = self._alive(uid)
        if dice is None and passed is None:
            raise AidError(
                "neither dice nor whether it passed given: give dice to roll the morale "
                "check, or whether it passed as the players rolled it"
            )
        if dice is not None and passed is not None:
            raise AidError("both dice and whether it passed given: give one, not both")
        if unowed and unit.checks_due:
            raise AidError(
                f"{unit.name} owes a morale check ({unit.checks_due[0]}): take that one "
                "(without unowed) first"
            )
        if not unowed and not unit.checks_due:
            raise AidError(
                f"{unit.name} owes no morale check the aid knows of (it was taken, or none "
                "was called for); to take one called for at the table, give unowed: true"
            )
        test = self.test_of(uid, officer)
        rolled = ""
        if dice is not None:
            seen = _Seen(dice)
            passed = morale_check(seen, test)
            rolled = f", rolled {seen.text()}"
        why = f" ({unit.checks_due[0] if unit.checks_due else 'called for at the table'})"
        said = f"{self.called(unit)}: morale check{why} needs {test.value} or less{rolled}"
        step = self._with(replace(unit, checks_due=unit.checks_due[1:]))
        if passed:
            return step.noted(f"{said}: passed")
        return step.noted(f"{said}: failed").destroy(uid)

    def fought(
        self,
        attacker: int,
        defender: int,
        winner: Winner,
        left: int = 0,
        *,
        stood_and_fired: bool = False,
    ) -> Tracker:
        """A close quarters fight's end, as one step: the loser destroyed and the winner
        left with ``left`` models, as the game ends a fight (either edition fights on until
        one side is gone; the winner's losses call for no check). ``winner`` "both": each
        side struck the other's last model down in the same round, and both are gone.
        ``stood_and_fired``: the defenders stood and fired (Konflikt '47), which takes
        their die as a Fire reaction if the players have not taken it yet."""
        a, d = self._alive(attacker), self._alive(defender)
        refuse_friends(a, d)
        if a.kind == "vehicle":
            raise AidError(f"{a.name} is a vehicle: vehicles do not assault")
        if d.kind == "vehicle":
            raise AidError(
                f"{d.name} is a vehicle: give what befell it as a shot's result (knocked out, pins)"
            )
        refused = self.assault_refused(attacker)
        if refused is not None:
            raise AidError(refused)
        if stood_and_fired:
            if d.stood_and_fired:
                raise AidError(
                    f"{d.name} stood and fired already this turn: its die is spent, it "
                    "fights hand-to-hand or at point blank"
                )
            step = self
            if not (d.reacted and d.order == "Fire"):
                step = self.take_die(defender, "Fire", "reaction")
            fired = replace(step.units[defender], stood_and_fired=True)
            return step._with(fired).fought(attacker, defender, winner, left)
        if winner == "both":
            if left:
                raise AidError(f"both wiped out leaves no models (got {left} left)")
            step = self._with(replace(a, models=0, destroyed=True, checks_due=()))
            step = step._with(replace(d, models=0, destroyed=True, checks_due=()))
            dice = (
                f"their dice leave the bag {self._dice_leave()}"
                if a.order is None and a.retained is None and d.order is None and d.retained is None
                else f"{self.called(a)}: {self._die_of(a)}; {self.called(d)}: {self._die_of(d)}"
            )
            return step.noted(
                f"{self.called(a)} and {self.called(d)} wiped each other out in close quarters: both "
                f"destroyed ({dice})"
            )._wiped_out()
        if winner not in ("attacker", "defender"):
            raise AidError(f"the winner is attacker, defender or both, not {winner!r}")
        won, lost = (a, d) if winner == "attacker" else (d, a)
        if not 1 <= left <= won.models:
            raise AidError(
                f"{won.name} won with 1 to {won.models} models left (got {left}); "
                "with none left, both were wiped out"
            )
        step = self._with(
            replace(won, models=left, assaulted=won.assaulted or winner == "attacker")
        )
        step = step._with(replace(lost, models=0, destroyed=True, checks_due=()))
        return step.noted(
            f"{self.called(won)} won the close quarters fight against {self.called(lost)}, "
            f"{left} of {won.start_models} models left"
            f"{_men_taken(won, replace(won, models=left))}; {self.called(lost)} destroyed "
            f"({self._die_of(lost)})"
        )._wiped_out()

    def assault_refused(self, uid: int) -> str | None:
        """Why ``uid`` cannot be the attacker of a fight now, or None if it may: an assault
        is a Run order (sheets 000-002: Run is "also used for assaulting"), given this
        turn and not spent on a FUBAR panic, an escape or an assault fought already (a
        unit that wins consolidates, or fights on in the same assault: it does not
        assault again)."""
        unit = self._unit(uid)
        if unit.kind == "artillery":
            return (
                f"{unit.name} is artillery, a gun and its crew, and does not assault: only "
                "infantry assault, as the sheets' close quarters have it"
            )
        if unit.assaulted:
            return (
                f"{unit.name} has fought its assault this turn: an assault is a Run order, "
                "and its one Run is spent"
            )
        if unit.order == "Run" and unit.reacted:
            return f"{unit.name} ran to escape an assault (a reaction): it does not assault"
        if unit.order == "Run" and unit.fubar == "panic":
            return f"{unit.name} runs away in a FUBAR panic: it does not assault"
        if unit.order == "Run":
            return None
        shows = (
            f"its die shows {unit.order}"
            if unit.order
            else f"it kept its {unit.retained} die"
            if unit.retained
            else "its die is still in the bag"
        )
        return (
            f"{unit.name} has no Run order this turn ({shows}): an assault is a Run order; "
            "give it Run when its die is drawn, then take the fight's end"
        )

    def attack_refused(self, uid: int) -> str | None:
        """Why ``uid`` cannot be the attacker of an assault asked now (its odds), or None if
        it may: a vehicle does not assault; nor does a unit :meth:`assault_refused` refuses,
        save one whose die is still in the bag, which may be asked, to weigh the Run to
        give it."""
        unit = self._unit(uid)
        if unit.kind == "vehicle":
            return f"{unit.name} is a vehicle: only infantry and teams assault"
        if unit.kind != "artillery" and unit.order is None and unit.retained is None:
            return None
        return self.assault_refused(uid)

    def destroy(self, uid: int) -> Tracker:
        """Remove a unit from play (its die leaves the bag as the edition says)."""
        unit = self._alive(uid)
        step = self._with(replace(unit, models=0, destroyed=True, checks_due=()))
        return step.noted(f"{self.called(unit)} destroyed ({self._die_of(unit)})")._wiped_out()

    def _dice_leave(self) -> str:
        return "at the turn end" if self.rules.destroyed_dice_stay_in_cup else "now"

    def _die_of(self, unit: TrackedUnit) -> str:
        """What becomes of the die of ``unit`` (as it was) now it is destroyed: one still in
        the bag leaves it as the edition says; one used or kept out of it stays out."""
        if unit.order is not None:
            return "its die was used this turn"
        if unit.retained is not None:
            return f"its {unit.retained} die, kept from the last turn, is put aside"
        return f"its die leaves the bag {self._dice_leave()}"

    # ------------------------------------------------------------------ the turn's end
    def end_turn(self, keep: Sequence[int] = ()) -> Tracker:
        """Close the turn: the units in ``keep`` (on Down or Ambush) keep their die for the
        next turn, every other live unit's die goes back in the bag; after the last turn
        the game is over. A morale check still owed is let pass, and the log says so."""
        self._in_phase("turn end", "end the turn")
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
                    if self.turn >= self.turns
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
        if self.turn >= self.turns:
            return closed._game_over("the last turn is played")
        nxt = replace(closed, turn=self.turn + 1, turn_dice=bag.put_in(units))
        return nxt.noted(f"Turn {nxt.turn}: {nxt._bag_text()}")

    # ------------------------------------------------------------------ inside
    def _wiped_out(self) -> Tracker:
        """The game ends at once when a side has no unit left (as the simulated game)."""
        gone = [s for s in (0, 1) if all(u.destroyed for u in self.units if u.side == s)]
        if len(gone) == 2:
            return self._game_over("neither side has a unit left")
        if gone:
            return self._game_over(f"{self.armies[gone[0]]} has no unit left")
        return self

    def _game_over(self, why: str) -> Tracker:
        return replace(self, over=True, in_hand=None).noted(
            f"Game over ({why}): {self.result()}; units lost: "
            f"{self.armies[0]} {self.destroyed_count(0)}, "
            f"{self.armies[1]} {self.destroyed_count(1)}"
        )

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
                return f"a draw ({_count(points[0], 'unit')} destroyed each)"
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

    def noted(self, text: str) -> Tracker:
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

    def _with(self, unit: TrackedUnit) -> Tracker:
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

    def _why_not_waiting(self, unit: TrackedUnit) -> str:
        if self.over:
            return "takes no order: the game is over"
        if unit.destroyed:
            return "is destroyed"
        if unit.retained:
            return f"kept its {unit.retained} die from the last turn"
        return f"already has an order this turn ({unit.order})"

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


def refuse_friends(attacker: TrackedUnit, defender: TrackedUnit) -> None:
    """Refuse a fight between two units of one side, its odds or its end: no sheet lets a
    unit assault a friend (a FUBAR's friendly fire is a shot, its panic a Run away from the
    enemy)."""
    if attacker.side == defender.side:
        raise AidError(
            f"{attacker.name} and {defender.name} are on the same side: they do not fight; "
            "pick an enemy unit as the defender"
        )


def _roll_order_test(dice: Dice, rules: Rules, test: MoraleTest) -> tuple[Outcome, str]:
    """The order test rolled by the rules' own procedure (2D6, then the FUBAR chart's D6
    on a FUBAR), with the dice it rolled to show the players."""
    seen = _Seen(dice)
    result = order_test(seen, rules, test)
    assert result != "no test"  # asked only when a test is needed
    fubar = " (FUBAR)" if result in FUBAR_FACES else ""
    return result, f", rolled {seen.text()}{fubar}"


class _Seen:
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

    def text(self) -> str:
        return ", then ".join(self.rolls)


def one_shot_carried(rules: Rules, unit: TrackedUnit) -> list[str]:
    """The one-shot anti-tank weapons (a Panzerfaust) ``unit``'s men left carry, by name:
    those the players are asked whether they have fired (:func:`.kit.one_shot_anti_tank`)."""
    names = dict.fromkeys(w for kit in unit.survivors() for w in kit.weapons)
    return [w for w in names if one_shot_anti_tank(rules, (w,))]


def _men_taken(before: TrackedUnit, after: TrackedUnit) -> str:
    """Which men a change of a unit's models took away (or gave back) and which are left,
    as the aid takes losses (:meth:`TrackedUnit.survivors`: the owner's usual order, in
    list order among equals): what the odds of its shots and assaults then read, said so
    that the players can see it and set a shot's weapons by hand where other men fell.
    Nothing for a vehicle, a unit of men all alike, or one whose kit the save lacks."""
    if before.kind == "vehicle" or len(before.kit) < 2 or before.models == after.models:
        return ""
    was, now = _by_name(before.survivors()), _by_name(after.survivors())
    gone = [(n, was[n] - now.get(n, 0)) for n in was if was[n] > now.get(n, 0)]
    back = [(n, now[n] - was.get(n, 0)) for n in now if now[n] > was.get(n, 0)]
    left = ", ".join(f"{count} {name}" for name, count in now.items())
    if not gone:  # (models given back: the last taken come back first)
        changed = ", ".join(f"{count} {name}" for name, count in back)
        return f" (back: {changed}; left: {left})"
    changed = ", ".join(f"{count} {name}" for name, count in gone)
    return (
        f" (taken as lost, riflemen first, then special weapons in the list's order, NCOs, "
        f"officers: {changed}; left: {left}. The odds read these men: where others fell, "
        "set a shot's weapons by hand)"
    )


def _by_name(kits: tuple[Kit, ...]) -> dict[str, int]:
    counted: dict[str, int] = {}
    for kit in kits:
        counted[kit.name] = counted.get(kit.name, 0) + kit.count
    return counted


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"
