"""The to-hit roll: the hit modifiers a shot takes (the sheet's table, in its order), the
score they make and the dice it needs (a 7+ is a 6, then the follow-up), its chance, and
the words the reasoning and a game's account tell it in (:class:`HitWords`).
:func:`plan_to_hit` is ``plan_shot``'s to-hit step.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from typing import NamedTuple

from kriegsspiel.core.report import Reason
from kriegsspiel.rulesets.bolt_action.data import Weapon
from kriegsspiel.rulesets.bolt_action.edition import Rules, Target
from kriegsspiel.rulesets.bolt_action.pen import vehicle_profile
from kriegsspiel.rulesets.bolt_action.shot import Firing, Situation, down_to_a_shot
from kriegsspiel.rulesets.bolt_action.vehicle_damage import can_reach_damage


def hit_needs(rules: Rules, score: int) -> tuple[int, ...] | None:
    """The scores a to-hit roll of ``score`` needs on each die (a 7+ is a 6, then 4+;
    docs/rules "Needing 7+"); None when it cannot hit."""
    proc = rules.data.procedure
    score = max(score, proc.natural_miss + 1)
    if score <= 6:
        return (score,)
    follow = proc.needs_seven_plus_follow_up
    return (6, follow[score]) if score in follow else None


def hit_score(rules: Rules, hit_on: tuple[int, ...] | None) -> int | None:
    """The to-hit score whose dice :func:`hit_needs` gives as ``hit_on`` (None, or no
    roll: None): one die's own score, or the 7+ the rules' table gives a 6 then this
    follow-up (the lowest, where it gives the same to more than one: they hit alike)."""
    if not hit_on or len(hit_on) == 1:
        return hit_on[0] if hit_on else None
    follow = rules.data.procedure.needs_seven_plus_follow_up
    return min((s for s, f in follow.items() if f == hit_on[1]), default=None)


def describe_score(rules: Rules, score: int | None) -> str:
    """A to-hit score in a player's words: "4+", a 7+ with its dice as :func:`hit_needs`
    reads the rules' table ("7+ (a 6, then 4+)"), or "cannot hit" (None, or past it)."""
    hit_on = None if score is None else hit_needs(rules, score)
    if hit_on is None or score is None:
        return "cannot hit"
    if len(hit_on) == 1:
        return f"{hit_on[0]}+"
    return f"{score}+ (a 6, then {hit_on[1]}+)"


def describe_needs(rules: Rules, hit_on: tuple[int, ...] | None) -> str:
    """The dice a shot needs (:attr:`Shot.hit_on`) told by their score: one die's as it
    is (a fixed score's too), a 6 and another die's as :func:`describe_score` tells it
    (:func:`hit_score`)."""
    if hit_on is not None and len(hit_on) == 1:
        return f"{hit_on[0]}+"
    if hit_on == ():
        return "a sure hit (no roll)"
    return describe_score(rules, hit_score(rules, hit_on))


class HitModifier(NamedTuple):
    """One modifier of a to-hit roll: its words, its value (added to the roll: +1 helps),
    the data it is read from (its rows and fields, as :meth:`cite` takes them) and its key
    (a hit_modifiers row's, or "shaped_charge")."""

    label: str
    value: int
    rows: tuple[str, ...]
    key: str


def hit_modifier(rules: Rules, label: str, key: str, times: int = 1, *fields: str) -> HitModifier:
    """The hit_modifiers row ``key`` taken ``times`` (a pin's, once a pin), in ``label``'s
    words; ``fields``: other data the modifier is read from (a range's inches)."""
    row = f"hit_modifiers.rows[{key}]"
    return HitModifier(label, rules.hit_modifier(key) * times, (row, *fields), key)


def firer_modifiers(
    rules: Rules, *, pins: int, inexperienced: bool, one_crew: bool = False
) -> list[HitModifier]:
    """The firer's own to-hit modifiers: its pins (told by their count: "2 pins"), a team
    weapon's lone crew, and Inexperienced (each told by its row's ``short``)."""
    mods = []
    if pins:
        mods.append(hit_modifier(rules, f"{pins} pin{'s' if pins > 1 else ''}", "per_pin", pins))
    if one_crew:
        mods.append(hit_modifier(rules, rules.hit_short("one_crew"), "one_crew"))
    if inexperienced:
        mods.append(hit_modifier(rules, rules.hit_short("inexperienced"), "inexperienced"))
    return mods


def to_hit_score(rules: Rules, mods: list[HitModifier]) -> int:
    """The score a to-hit roll needs: the base less the modifiers (a 7 or more is met as
    :func:`hit_needs` says)."""
    return rules.data.hit_modifiers.base_to_hit - sum(m.value for m in mods)


def to_hit_because(rules: Rules, mods: list[HitModifier]) -> str:
    """What made a to-hit score, in the reasoning's words: the base, each modifier (cited
    where a rules file changed it), and the natural miss or the 7+ where they decide it."""
    d, proc = rules.data, rules.data.procedure
    total = to_hit_score(rules, mods)
    because = ", ".join(
        [f"base {d.hit_modifiers.base_to_hit}+{d.cited('hit_modifiers.base_to_hit')}"]
        + [f"{m.label} {m.value:+d}{d.cited(*m.rows)}" for m in mods]
    )
    if total <= proc.natural_miss:  # (the modifiers bring it below the natural miss)
        because += f"; {natural_miss(proc.natural_miss)}{d.cited('procedure.natural_miss')}"
    elif hit_needs(rules, total) != (total,):  # (a 7+, or past hitting)
        because += d.cited("procedure.natural_miss", "procedure.needs_seven_plus_follow_up")
    return because


def natural_miss(miss: int) -> str:
    """Why a to-hit score is no better than ``miss`` + 1, the procedure's natural miss."""
    if miss == 0:
        return "1+ at best (no roll always misses)"
    return f"{'a 1' if miss == 1 else f'a roll of {miss} or less'} always misses"


def hit_chance(hit_on: tuple[int, ...] | None) -> Fraction:
    """The chance that a shot needing ``hit_on`` (see :func:`hit_needs`) hits."""
    chance = Fraction(0 if hit_on is None else 1)
    for need in hit_on or ():
        chance *= Fraction(max(0, 7 - need), 6)
    return chance


#: what makes or fixes a to-hit score but is no row of the hit modifiers table (a shaped
#: charge's modifier; the rules that fix a score), by the key a record keeps it by, in
#: the words the reasons and a game's account tell it
SCORE_RULES = {
    "shaped_charge": "shaped charge",
    "shockwave": "Shockwave: a fixed score",
    "indirect_first_shot": "indirect fire, first shot at this target",
    "indirect_ranged_in": "indirect fire, ranged in",
}


class HitWords(Mapping[str, str]):
    """What made or fixed a to-hit score, by the key a record keeps it by, in the words
    the reasons and a game's account tell it: the hit modifiers table's rows (each its
    ``short``), in the table's order (the sheets'), then :data:`SCORE_RULES`; and
    :meth:`needs`, the dice a shot needed told by their score, by these rules."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        rows: dict[str, str] = {r.key: r.short for r in rules.data.hit_modifiers.rows}
        self._words = {**rows, **SCORE_RULES}

    def __getitem__(self, key: str) -> str:
        return self._words[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def __len__(self) -> int:
        return len(self._words)

    def needs(self, hit_on: tuple[int, ...] | None) -> str:
        """:func:`describe_needs` by these rules ("7+ (a 6, then 4+)")."""
        return describe_needs(self.rules, hit_on)

    def can_damage(self, damage_value: int, pen: int) -> bool:
        """:func:`can_reach_damage` by these rules: could a pen roll of D6 + ``pen`` (a 6)
        damage a vehicle of ``damage_value``? (A game's account says when it could not.)"""
        vehicle = Target("vehicle", "armoured", False, damage_value)
        situation = Situation(range_inches=0.0)
        return can_reach_damage(
            vehicle_profile(self.rules, vehicle, situation, indirect=False), pen
        )


def hit_words(rules: Rules) -> HitWords:
    """The rules' :class:`HitWords`."""
    return HitWords(rules)


def in_sheet_order(keys: Iterable[str], words: Mapping[str, str]) -> list[str]:
    """To-hit modifiers (by the keys a record keeps them by) in the order of ``words``
    (:func:`hit_words`: the hit modifiers table's rows as the data lists them, the sheets'
    order, then :data:`SCORE_RULES`); a key not there last, by name. The one order the
    odds' reasoning and a game's account tell them in."""
    told = list(words)
    return sorted(keys, key=lambda k: (told.index(k) if k in told else len(told), k))


def sorted_modifiers(rules: Rules, mods: list[HitModifier]) -> list[HitModifier]:
    """``mods`` in the order :func:`in_sheet_order` puts their keys in."""
    if len(mods) < 2:
        return mods
    order = in_sheet_order({m.key for m in mods}, hit_words(rules))
    return sorted(mods, key=lambda m: order.index(m.key))


def plan_to_hit(
    rules: Rules, weapon: Weapon, target: Target, s: Situation, f: Firing
) -> tuple[tuple[int, ...] | None, str, list[HitModifier], Reason]:
    """The to-hit roll: (the scores its dice need, the rule that fixes the score or "",
    the hit modifiers that make it instead, its reason). A Shockwave and indirect fire
    have a fixed score; any other shot takes the modifiers of :func:`to_hit_modifiers`."""
    d, proc = rules.data, rules.data.procedure
    if "Shockwave" in f.special and d.shockwave is not None:
        said = "Shockwave: fixed score, no modifiers" + d.cited("shockwave.to_hit")
        reason = Reason("to hit", f"{d.shockwave.to_hit}+", said)
        return (d.shockwave.to_hit,), "shockwave", [], reason
    if f.indirect:
        need = proc.indirect_ranged_in if s.ranged_in else proc.indirect_first_shot
        fixed = "indirect_ranged_in" if s.ranged_in else "indirect_first_shot"
        why = SCORE_RULES[fixed] + d.cited(f"procedure.{fixed}")
        return (need,), fixed, [], Reason("to hit", f"{need}+", f"{why}; no other modifiers")
    # what a flamethrower's to-hit roll ignores (the data: cover, a Down target)
    ignored: set[str] = set(d.flamethrower.ignores) if f.flame else set()
    mods = to_hit_modifiers(rules, weapon, target, s, f, ignored)
    score = to_hit_score(rules, mods)
    hit_on = hit_needs(rules, score)
    because = to_hit_because(rules, mods)
    skipped = []
    if s.cover != "none" and f"{s.cover}_cover" in ignored:
        skipped.append("cover")
    if down_to_a_shot(s.target_down, vehicle=target.is_vehicle) and "target_down" in ignored:
        skipped.append("Down")
    if skipped:
        because += f"; flamethrower ignores {' and '.join(skipped)}"
        because += d.cited("flamethrower.ignores")
    if s.moving and "Assault" in f.special:  # (said, as the sheet's -1 is not taken)
        because += "; fire on the move: no effect (Assault weapon)"
    return hit_on, "", mods, Reason("to hit", describe_score(rules, score), because)


def to_hit_modifiers(
    rules: Rules, weapon: Weapon, target: Target, s: Situation, f: Firing, ignored: set[str]
) -> list[HitModifier]:
    """The hit modifiers a shot with no fixed score takes, in the sheet's order: its range
    band, the firer's pins and state, moving, a Down or small target, cover (less what a
    flamethrower ignores, ``ignored``), a shaped charge."""
    proc = rules.data.procedure
    mods: list[HitModifier] = []

    def modifier(key: str, times: int = 1, *fields: str, told: str = "") -> None:
        """A hit modifier row's, told by its ``short`` (or ``told``: with more said)."""
        mods.append(hit_modifier(rules, told or rules.hit_short(key), key, times, *fields))

    if f.point_blank:  # and not long range too, as a pistol within 6" would be (assumption)
        also_long = f"; not {rules.hit_short('long_range')}" if f.long_range else ""
        told = f'{rules.hit_short("point_blank")} (within {proc.point_blank_inches:g}"'
        modifier("point_blank", 1, "procedure.point_blank_inches", told=f"{told}{also_long})")
    elif f.long_range:
        told = (
            f'{rules.hit_short("long_range")} (over {weapon.range * proc.long_range_fraction:g}")'
        )
        modifier("long_range", 1, "procedure.long_range_fraction", told=told)
    mods += firer_modifiers(
        rules, pins=s.firer_pins, one_crew=s.one_crew, inexperienced=s.firer_inexperienced
    )
    if s.moving and "Assault" not in f.special:
        modifier("moving")
    if down_to_a_shot(s.target_down, vehicle=target.is_vehicle) and "target_down" not in ignored:
        modifier("target_down")
    if s.small_unit:
        modifier("small_unit")
    if s.cover != "none" and f"{s.cover}_cover" not in ignored:
        modifier(f"{s.cover}_cover")
    if "Shaped Charge" in f.special and proc.shaped_charge_to_hit:
        shaped = ("procedure.shaped_charge_to_hit",)
        said = SCORE_RULES["shaped_charge"]
        mods.append(HitModifier(said, proc.shaped_charge_to_hit, shaped, "shaped_charge"))
    return sorted_modifiers(rules, mods)
