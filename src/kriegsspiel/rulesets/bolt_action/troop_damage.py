"""Damage to troops: an infantry target's row by its quality (its damage value), what a
hit does to infantry or artillery (a Shockwave's, a Tesla's arc's or an HE shell's hits and
pins) as ``plan_shot`` plans it, and the procedures that roll a planned shot at troops
(hits and casualties), which the odds enumerate exactly and the game samples.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import lru_cache

from kriegsspiel.core.dice import DiceExpr
from kriegsspiel.core.procedure import Dice, chance_all
from kriegsspiel.core.report import Reason
from kriegsspiel.errors import ParameterError, UnknownNameError
from kriegsspiel.rulesets.bolt_action.data import HeRow, Weapon
from kriegsspiel.rulesets.bolt_action.edition import Rules, Target
from kriegsspiel.rulesets.bolt_action.shot import Shot, Situation
from kriegsspiel.rulesets.bolt_action.shot_rolls import ShotDice, roll_expr, roll_to_hit


@lru_cache(maxsize=256)
def infantry_target(rules: Rules, quality: str) -> Target:
    """``rules.target(f"{quality} infantry")``, looked up once per edition and quality."""
    return rules.target(f"{quality} infantry")


def infantry_quality(rules: Rules, target: Target) -> str:
    """The quality whose infantry ``target`` is: the quality table's whose
    :func:`infantry_target` is this row (whatever name it was asked by)."""
    qualities = [row.quality for row in rules.data.quality.rows]
    for quality in qualities:
        try:
            if infantry_target(rules, quality) == target:
                return quality
        except UnknownNameError:  # (a quality with no infantry row: not this one)
            continue
    raise ParameterError(
        f"The target {target.name!r} is no quality's infantry: the rules' damage values "
        f'give no "<quality> infantry" this row for any of {", ".join(qualities)}; give '
        "a target named so (regular infantry, say)."
    )


def damage_to_troops(
    rules: Rules,
    weapon: Weapon,
    target: Target,
    s: Situation,
    shot: Shot,
    he: HeRow | None,
    reasons: list[Reason],
) -> Shot:
    """What a hit does to infantry or artillery: the target's damage value, and the hits
    and pins of a Shockwave, a Tesla's arc or an HE shell (reasons added)."""
    d, proc = rules.data, rules.data.procedure
    special = weapon.special
    shot = replace(shot, damage_need=target.damage_value)
    value = d.cited(f"damage_values.rows[{target.name}]")
    reasons.append(
        Reason("to damage", f"{target.damage_value}+", f"{target.name} damage value{value}")
    )
    if "Shockwave" in special and d.shockwave is not None:
        shot = replace(
            shot,
            hits_per_hit=DiceExpr(d.shockwave.hits_vs_infantry),
            special_pins=DiceExpr(d.shockwave.pins),
        )
        said = "Shockwave" + d.cited("shockwave")
        reasons.append(Reason("hits", d.shockwave.hits_vs_infantry, said))
        reasons.append(Reason("pins", d.shockwave.pins, said))
    elif "Tesla" in special and d.tesla is not None:
        extra = DiceExpr(d.tesla.extra_hits_vs_infantry)
        shot = replace(shot, hits_per_hit=extra.plus(1))
        said = "Tesla arcs to nearby models" + d.cited("tesla")
        reasons.append(Reason("hits", f"1 + {extra.text}", said))
    elif he:
        shot = replace(
            shot,
            hits_per_hit=DiceExpr(he.he),
            special_pins=DiceExpr(he.pins),
            halve_hits=s.target_down and proc.down_halves_he_hits,
        )
        reasons.append(
            Reason(
                "hits",
                f"{he.he} per hit",
                f"HE ({he.he}); {he.pins} pin(s){d.cited(f'he.rows[{he.he}]')}"
                + ("; halved as the target is Down" if shot.halve_hits else "")
                + (d.cited("procedure.down_halves_he_hits") if shot.halve_hits else ""),
            )
        )
    return shot


def shot_at_troops(dice: Dice, shot: Shot) -> tuple[int, int]:
    """One shot at infantry or artillery: (hits, casualties)."""
    _, hits, casualties = struck_troops(dice, shot)
    return hits, casualties


def struck_troops(dice: Dice, shot: Shot, kept: ShotDice | None = None) -> tuple[bool, int, int]:
    """:func:`shot_at_troops` (the same dice) and whether its to-hit roll hit, before
    any multiplier (HE, a flamethrower, a Tesla's arc) or halving made its hits. Its
    to-hit and damage dice are added to ``kept``, if given (the game's record): the same
    dice, each as it fell."""
    if not roll_to_hit(dice, shot.hit_on, None if kept is None else kept.to_hit):
        return False, 0, 0
    hits = roll_expr(dice, shot.hits_per_hit)
    if kept is None:
        hits = hits // 2 if shot.halve_hits else hits
        return True, hits, dice.count_at_least(hits, 6, shot.damage_need)
    kept.per_hit.append(hits)
    hits = hits // 2 if shot.halve_hits else hits
    faces = dice.faces(hits, 6)
    kept.to_damage.extend(faces)
    return True, hits, sum(face >= shot.damage_need for face in faces)


def casualty_chance(damage_need: int) -> Fraction:
    """The chance that a hit on troops needing ``damage_need`` on its D6 (a shot's
    ``damage_need``, the target's damage value) is a casualty, as :func:`struck_troops`
    rolls it."""
    return chance_all(6, (damage_need,))


def multiplied(shot: Shot) -> bool:
    """Whether a hit of ``shot`` at troops is not simply one hit (HE, a flamethrower, a
    Tesla's arc: a roll of hits; or halved, HE at a Down target)."""
    per_hit = shot.hits_per_hit
    return shot.halve_hits or per_hit.count > 0 or per_hit.constant != 1
