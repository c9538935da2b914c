"""A unit on the real table as the play aid keeps it: its models, its pins and its die,
and its men, taken as lost in the owner's usual order (what the odds of its shots and
assaults read)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from kriegsspiel.rulesets.bolt_action.edition import Rules
from kriegsspiel.rulesets.bolt_action.kit import one_shot_anti_tank


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


def one_shot_carried(rules: Rules, unit: TrackedUnit) -> list[str]:
    """The one-shot anti-tank weapons (a Panzerfaust) ``unit``'s men left carry, by name:
    those the players are asked whether they have fired (:func:`.kit.one_shot_anti_tank`)."""
    names = dict.fromkeys(w for kit in unit.survivors() for w in kit.weapons)
    return [w for w in names if one_shot_anti_tank(rules, (w,))]


def men_taken(before: TrackedUnit, after: TrackedUnit) -> str:
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


def count_of(n: int, thing: str) -> str:
    """``n`` things, said as a player says them ("1 pin", "3 pins")."""
    return f"{n} {thing}{'' if n == 1 else 's'}"
