"""What befalls the units on the table, as the players give it: pins, models lost, a
shot's result, a morale check, a close quarters fight's end, a unit destroyed (its die
leaving the bag as the edition says), the game ending when a side has none left; and why
each is refused when it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Literal, Self

from kriegsspiel.aid.orders import OrderSteps, SeenDice
from kriegsspiel.aid.players_say import PlayersSay
from kriegsspiel.aid.record import AidError
from kriegsspiel.aid.units import TrackedUnit, count_of, men_taken
from kriegsspiel.core.procedure import Dice
from kriegsspiel.errors import UnknownNameError
from kriegsspiel.rulesets.bolt_action.kit import one_shot_anti_tank
from kriegsspiel.rulesets.bolt_action.morale import (
    destroyed_by_pins,
    losses_force_test,
    morale_check,
    new_test,
)

MAX_PINS = 99  # more than any unit's morale: the count is kept, the unit removed at its morale
Winner = Literal["attacker", "defender", "both"]  # "both": each struck the other's last down
# why a unit owes a morale check (the game takes both of one attack, the flamethrower's first)
FLAMED = "hit by a flamethrower"
HALF_STRENGTH = "at half strength or less"


class LossSteps(OrderSteps, PlayersSay):
    """The steps of what befalls the units (a part of :class:`.tracker.Tracker`)."""

    __slots__ = ()

    def set_pins(self, uid: int, pins: int) -> Self:
        """Set a unit's pins; as many as its morale value remove it from play."""
        unit = self._alive(uid)
        refused = self.pins_refused(uid, pins)
        if refused is not None:
            raise AidError(refused)
        base = new_test(self.rules, unit.quality).base
        if destroyed_by_pins(self.rules, unit.quality, pins):
            step = self._with(replace(unit, pins=pins, models=0, destroyed=True, checks_due=()))
            return step.noted(
                f"{self.called(unit)}: {count_of(pins, 'pin')}, its morale {base}: removed from play"
            )._wiped_out()
        return self._with(replace(unit, pins=pins)).noted(
            f"{self.called(unit)}: {count_of(pins, 'pin')}"
        )

    def set_models(self, uid: int, models: int) -> Self:
        """Set a unit's models left; none left destroys it. A loss that leaves it at half
        strength or less calls for a morale check, which the log says."""
        unit = self._alive(uid)
        refused = self.models_refused(uid, models)
        if refused is not None:
            raise AidError(refused)
        if models == 0:
            return self.destroy(uid)
        text = f"{self.called(unit)}: {models} of {unit.start_models} models"
        text += men_taken(unit, replace(unit, models=models))
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
        firer: int | None = None,
        weapons: Sequence[tuple[str, int]] = (),
    ) -> Self:
        """What the dice did to a unit shot at, as one step: its ``pins`` first, then its
        ``casualties`` (a vehicle's one model: knocked out), so that a loss to half
        strength names the morale check with this shot's pins on it. ``flamed``: a
        flamethrower hit it, which calls for a morale check of its own (a vehicle's crew's
        too), owed before the half-strength one.

        A vehicle may also be ``immobilised`` (a second time: knocked out) or ``halted``
        (crew stunned, or on fire and not abandoned): as the game's vehicle damage, its
        die turns to Down, and so it does when it is immobilised after it took its order
        this turn.

        ``firer`` and the ``weapons`` it fired (each by name with its count, as the shot's
        odds gave them or the players set them): a one-shot anti-tank weapon among them
        with a count of 1 or more (a Panzerfaust) is fired with this shot, so its unit's are marked fired (:meth:`set_one_shot_fired`)
        in the same step, before the target's result, as the game spends them as it fires;
        one undo takes both back. Without them nothing is marked (a shot taken off the
        aid: the players tick it on the firer's card)."""
        unit = self._alive(uid)
        if casualties < 0 or pins < 0:
            raise AidError(f"casualties and pins are 0 or more (got {casualties} and {pins})")
        if casualties > unit.models:
            raise AidError(
                f"{unit.name} has {count_of(unit.models, 'model')} left (got {casualties} casualties)"
            )
        if (immobilised or halted) and unit.kind != "vehicle":
            raise AidError(f"{unit.name} is not a vehicle: only a vehicle is immobilised or halted")
        if not casualties and not pins and not immobilised and not halted and not flamed:
            raise AidError(f"no casualties and no pins: nothing befell {unit.name}")
        fired = self._fired_with(firer, weapons)
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
        step = fired.noted(
            f"{self.called(unit)} shot at: {', '.join([*what, count_of(pins, 'pin')])}"
        )
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

    def _fired_with(self, firer: int | None, weapons: Sequence[tuple[str, int]]) -> Self:
        """The game with ``firer``'s one-shot anti-tank weapons marked fired if ``weapons``,
        those it fired in a shot (a count of 0: not fired), hold one (a Panzerfaust); else
        as it is. Refused if the
        weapons are not a sheet's, are given without their firer, or hold a one-shot
        weapon its men no longer carry or have fired already."""
        if firer is None:
            if weapons:
                raise AidError(
                    "weapons fired given without the firer: give firer, the unit that fired "
                    "them, or leave the weapons out",
                    field="firer",
                )
            return self
        names: list[str] = []
        for i, (name, count) in enumerate(weapons):
            try:
                weapon = self.rules.weapon(name).name
            except UnknownNameError as exc:
                raise AidError(f"Weapons: {exc}", field=f"weapons.{i}.name") from None
            if count > 0:
                names.append(weapon)
        spent = [name for name in names if one_shot_anti_tank(self.rules, (name,))]
        if not spent:
            return self
        refused = self.one_shot_refused(firer, True)
        if refused is not None:
            already = self._unit(firer).one_shot_fired
            untick = (
                " (or untick 'its one-shot anti-tank weapons fired' on its card if they were not)"
                if already
                else ""
            )
            raise AidError(
                f"{refused}: the shot's weapons cannot hold its {spent[0]}; give those it "
                f"fired{untick}",
                field="weapons",
            )
        return self.set_one_shot_fired(firer, True)

    def morale_check(
        self,
        uid: int,
        *,
        dice: Dice | None = None,
        passed: bool | None = None,
        officer: str | None = None,
        unowed: bool = False,
    ) -> Self:
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
            seen = SeenDice(dice)
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
    ) -> Self:
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
            f"{men_taken(won, replace(won, models=left))}; {self.called(lost)} destroyed "
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

    def destroy(self, uid: int) -> Self:
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


def refuse_friends(attacker: TrackedUnit, defender: TrackedUnit) -> None:
    """Refuse a fight between two units of one side, its odds or its end: no sheet lets a
    unit assault a friend (a FUBAR's friendly fire is a shot, its panic a Run away from the
    enemy)."""
    if attacker.side == defender.side:
        raise AidError(
            f"{attacker.name} and {defender.name} are on the same side: they do not fight; "
            "pick an enemy unit as the defender"
        )
