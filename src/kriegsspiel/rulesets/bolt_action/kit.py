"""What a model carries, as the rules read it: which men the owner keeps longest when
casualties are taken, who is armed for close quarters, what can hurt a vehicle.

The simulated game and the play aid both read a unit's models through these, so a man
with an SMG counts alike in both."""

from __future__ import annotations

from collections.abc import Iterable

from kriegsspiel.rulesets.bolt_action.data import Weapon
from kriegsspiel.rulesets.bolt_action.edition import Rules


def special_weapon(rules: Rules, name: str) -> bool:
    """Worth keeping: a heavy weapon, or one that fires more than a rifle's single shot."""
    weapon = rules.weapon(name)
    shots = weapon.shots
    return weapon.category == "heavy weapons" or (shots.isdigit() and int(shots) > 1)


def keep_rank(rules: Rules, weapons: Iterable[str], *, officer: bool, nco: bool) -> int:
    """The order the owner removes casualties in, lowest first (docs/rules, "Casualties"):
    ordinary men 0, special weapons 1, NCOs 2, officers 3."""
    if officer:
        return 3
    if nco:
        return 2
    return 1 if any(special_weapon(rules, w) for w in weapons) else 0


def assault_armed(rules: Rules, weapons: Iterable[str]) -> bool:
    """Whether a man fights close quarters with an assault weapon (SMG, pistol, ...)."""
    return any("Assault" in rules.weapon(w).special for w in weapons)


def anti_tank(weapon: Weapon) -> bool:
    """Whether a weapon lets infantry assault a vehicle without the order test's penalty:
    a shaped charge, or penetration +2 or better."""
    return "Shaped Charge" in weapon.special or (weapon.pen or 0) >= 2


def one_shot(weapon: Weapon) -> bool:
    """Whether a weapon fires once a game (a Panzerfaust): fired, its man has it no more."""
    return "One-shot" in weapon.special


def spent(weapon: Weapon, fired: bool) -> bool:
    """Whether ``weapon`` of a man who has ``fired`` his one-shot weapon can fire no more:
    it is that one-shot weapon (a fired Panzerfaust). The game, its reasons and the play
    aid all ask it here."""
    return fired and one_shot(weapon)


def unspent(rules: Rules, weapons: tuple[str, ...], fired: bool) -> tuple[str, ...]:
    """``weapons`` less those :func:`spent` (all of them if the man has not ``fired``)."""
    if not fired:
        return weapons
    return tuple(w for w in weapons if not spent(rules.weapon(w), fired))


def has_anti_tank(rules: Rules, models: Iterable[tuple[Iterable[str], bool]]) -> bool:
    """Whether any of these models (each its weapons, and whether it has fired its one-shot
    weapon) carries an anti-tank weapon it can still use: a fired Panzerfaust counts no
    more. The game and the play aid's assault on a vehicle both ask it here."""
    return any(
        anti_tank(w) and not spent(w, fired)
        for weapons, fired in models
        for w in map(rules.weapon, weapons)
    )


def one_shot_anti_tank(rules: Rules, weapons: Iterable[str]) -> bool:
    """Whether any of ``weapons`` is a one-shot anti-tank weapon (a Panzerfaust): the
    play aid asks whether it has been fired."""
    return any(anti_tank(w) and one_shot(w) for w in map(rules.weapon, weapons))


def counterparts(rules: Rules, weapon: Weapon, *, on_vehicle: bool) -> str:
    """The chart's other weapons of ``weapon``'s kind (the same special rules, Team and
    Fixed aside) that fit where it was put: ' (a vehicle mounts 'Flamethrower (vehicle)')'.
    The army lists and the odds say it alike."""
    kind = set(weapon.special) - {"Team", "Fixed"}
    barred = "not on vehicles" if on_vehicle else "vehicle only"
    names = [
        repr(w.name)
        for w in rules.data.weapons.rows
        if w.name != weapon.name
        and kind
        and set(w.special) - {"Team", "Fixed"} == kind
        and w.fielded != barred
    ]
    if not names:
        return ""
    return f"; {'a vehicle mounts' if on_vehicle else 'a man carries'} {' or '.join(names)}"
