"""What the players tell the play aid of the table, which it cannot see: the officer
standing near a unit, who rolls its order test, its one-shot anti-tank weapons fired, a
FUBAR that cannot be carried out; and why each is refused when it is.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Self

from kriegsspiel.aid.record import AidError, Record
from kriegsspiel.aid.units import one_shot_carried


class PlayersSay(Record):
    """The steps the players say (a part of :class:`.tracker.Tracker`)."""

    __slots__ = ()

    def set_near(self, uid: int, officer: str | None) -> Self:
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

    def set_own_dice(self, uid: int, own: bool) -> Self:
        """Say whether the players roll ``uid``'s order test themselves (the page then asks
        for its outcome) or the aid rolls it."""
        unit = self._alive(uid)
        return self._with(replace(unit, own_dice=own))

    def set_one_shot_fired(self, uid: int, fired: bool) -> Self:
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

    def fubar_down(self, uid: int) -> Self:
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
