"""Exact House Clearing odds, explained like the sheet's worked example.

The functions compose exact distributions of the rule steps in :mod:`.rules` (chances of
a hit, each chance becoming a hit, D3 per hit; a grenade landing, then the same cover roll
and D3), so they agree with the procedures the tests sample.
"""

from __future__ import annotations

from fractions import Fraction

from kriegsspiel.core import arguments
from kriegsspiel.core.dice import DiceExpr, Dist
from kriegsspiel.core.procedure import exact
from kriegsspiel.core.report import OddsReport, Reason
from kriegsspiel.errors import ParameterError, named
from kriegsspiel.rulesets.house_clearing import rules
from kriegsspiel.rulesets.house_clearing.data import HouseClearingData, load_data
from kriegsspiel.rulesets.house_clearing.rules import ShotPlan, ThrowPlan

RULESET = "house-clearing"


def _tables(data: object) -> HouseClearingData:
    """The rules data a question is asked under: ``data`` (refused by name if it is not
    House Clearing rules data), else the shipped."""
    if data is None:
        return load_data()
    return arguments.instance(
        "data",
        data,
        HouseClearingData,
        "House Clearing rules data (HouseClearingData; kriegsspiel.rulesets.house_clearing.data.load_data(path) "
        "reads a rules file), or None for the shipped rules",
    )


def _inches(value: float) -> str:
    return f'{value:g}"'


def _fraction(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def shot_distributions(plan: ShotPlan) -> tuple[Dist[int], Dist[int], Dist[int]]:
    """Exact distributions of chances of a hit, hits and initiative lost for one shot."""
    chances = exact(lambda d: rules.roll_chances(d, plan))
    return (chances, *_hits_and_lost(chances, plan))


def _hits_and_lost(chances: Dist[int], plan: ShotPlan | ThrowPlan) -> tuple[Dist[int], Dist[int]]:
    """The hits of ``chances`` of a hit (each its own cover roll) and the initiative they
    cost: one procedure for a shot and a grenade's burst."""
    one = exact(lambda d: int(rules.chance_hits(d, plan)))
    hits = chances.bind(lambda n: one.repeat_sum(n))
    lost = hits.bind(lambda h: exact(lambda d: rules.roll_initiative_lost(d, plan, h)))
    return hits, lost


def shoot(
    *,
    weapon: str,
    range_inches: float,
    weapon_skill: int,
    visible: int,
    automatic: bool = False,
    target_initiative: int | None = None,
    crew: int | None = None,
    data: HouseClearingData | None = None,
) -> OddsReport:
    """The odds of one figure's shot at one target."""
    arguments.text("weapon", weapon)
    arguments.number("range_inches", range_inches)
    arguments.whole("weapon_skill", weapon_skill)
    arguments.whole("visible", visible)
    arguments.yes_no("automatic", automatic)
    arguments.optional_whole("target_initiative", target_initiative)
    arguments.optional_whole("crew", crew)
    tables = _tables(data)
    if rules.is_grenade(weapon, tables):
        name = tables.grenade.name.lower()
        if automatic:
            raise ParameterError(
                f"a {name} is thrown, not fired on automatic: drop {named('automatic', True)}"
            )
        if crew is not None:
            raise ParameterError(f"a {name} is thrown by one figure: drop {named('crew')}")
        return throw_grenade(
            range_inches=range_inches,
            weapon_skill=weapon_skill,
            visible=visible,
            target_initiative=target_initiative,
            data=tables,
        )
    plan = rules.plan_shot(
        weapon=weapon,
        range_inches=range_inches,
        weapon_skill=weapon_skill,
        visible=visible,
        automatic=automatic,
        crew=crew,
        data=tables,
    )
    _check_target(target_initiative, tables)
    chances, hits, lost = shot_distributions(plan)

    band = plan.band
    span = (
        f'over {band.nearest:g}" to {band.farthest:g}"'
        if band.nearest
        else f'up to {band.farthest:g}"'
    )
    reasons: list[Reason] = []
    if plan.note:
        reasons.append(Reason("weapon", f"fires as {plan.fires_as}", plan.note))
    reasons.append(
        Reason(
            "range band",
            f"{band.name.lower()} (÷{band.divisor})",
            f"{plan.fires_as} at {_inches(range_inches)}: {band.name.lower()} range is {span}"
            + tables.cited("range_bands"),
        )
    )
    because = (
        f"weapon skill {plan.weapon_skill} ÷ {band.divisor} ({band.name.lower()} range band, "
        f"{span})"
    )
    if plan.automatic:
        because += f" ÷ {plan.automatic_divisor} (automatic fire)"
    if plan.unrounded_chance != plan.chance:
        because += f" = {_fraction(plan.unrounded_chance)}, rounded down"
    sheet = tables.cite("sheet", "range_bands", "automatic_fire.chance_divisor", "to_hit.die")
    rounded = tables.cited("rounding") if plan.unrounded_chance != plan.chance else ""
    because += f"{rounded}; the score or less needed on a D100 for a chance of a hit ({sheet})"
    reasons.append(Reason("score needed", str(plan.chance), because))
    if plan.automatic_chances:
        extra = f" + {plan.remainder}% for another" if plan.remainder else ""
        reasons.append(
            Reason(
                "chances of a hit",
                f"{plan.automatic_chances} automatic{extra}",
                f"each complete {plan.chance_per_automatic} is an automatic chance of a hit, "
                "still decided by the cover roll (assumption: the sheet's 'automatic hit', "
                "read with its cover rule; docs/rules/house-clearing.md)"
                + tables.cited("to_hit.automatic_chance_per"),
            )
        )
    if plan.remainder:
        reasons.append(
            Reason(
                "D100",
                f"needs {plan.remainder} or less",
                "score or less on a D100 for a chance of a hit",
            )
        )
    reasons.append(_cover_reason(plan, tables, "target shows"))
    reasons.append(_damage_reason(plan, tables))
    details: dict[str, object] = {
        "chance": plan.chance,
        "band": band.name,
        "divisor": band.divisor,
        "automatic_chances": plan.automatic_chances,
        "remainder": plan.remainder,
        "fires_as": plan.fires_as,
    }
    if plan.automatic:
        width = rules.cone_width(range_inches, tables)
        details["cone_width_inches"] = width
        reasons.append(
            Reason(
                "cone of fire",
                f"{_inches(width)} wide at its wide end",
                _cone(tables),
            )
        )

    probabilities = {"p_hit": hits.at_least(1), "p_chance": chances.at_least(1)}
    _target_odds(target_initiative, lost, probabilities, details, tables)

    mode = "automatic" if plan.automatic else "single shot"
    return OddsReport(
        ruleset=RULESET,
        question="shoot",
        title=(
            f"{plan.weapon} ({mode}), weapon skill {plan.weapon_skill}, at "
            f"{_inches(range_inches)}, target shows {plan.visible}/5"
        ),
        reasons=tuple(reasons),
        probabilities=probabilities,
        distributions={"hits": hits, "initiative_lost": lost},
        details=details,
        labels={"p_chance": "at least one chance of a hit"},
    )


def _cone(tables: HouseClearingData) -> str:
    """How wide automatic fire's cone is and what it does to the chance, as the data has it."""
    table = tables.automatic_fire
    fraction = table.cone_width_fraction_of_range
    wide = {0.25: "a quarter", 0.5: "half"}.get(fraction, f"{fraction:g} times")
    divisor = table.chance_divisor
    divides = "halves the chance" if divisor == 2 else f"divides the chance by {divisor}"
    return f"{wide} of the range; automatic fire {divides}" + tables.cited("automatic_fire")


def _check_target(target_initiative: int | None, tables: HouseClearingData) -> None:
    most = max(DiceExpr(k.initiative).most for k in (tables.figures.officer, tables.figures.other))
    least = tables.damage.can_fire_not_move_at  # (below it, the target is out of the fight)
    if target_initiative is not None and (
        isinstance(target_initiative, bool)
        or not isinstance(target_initiative, int)
        or not least <= target_initiative <= most
    ):
        raise ParameterError(
            f"{named('target_initiative')} must be {least} to {most} (below {least} the target is "
            "already dead or seriously wounded; no figure starts with more than "
            f"{most}), not {target_initiative!r}"
        )


def _target_odds(
    target_initiative: int | None,
    lost: Dist[int],
    probabilities: dict[str, Fraction],
    details: dict[str, object],
    tables: HouseClearingData,
) -> None:
    """Add whether the target is down (can fire but not move: the data's
    ``can_fire_not_move_at``, 0 on the sheet) or dead (below it) after the initiative lost,
    as :func:`.rules.status` tells a figure."""
    if target_initiative is None:
        return

    def after(lost_points: int) -> rules.Status:
        return rules.status(rules.take_hits(target_initiative, lost_points), tables)

    if after(0) is rules.Status.FIT:  # (a target already down is down before the shot)
        probabilities["p_target_down"] = lost.probability(
            lambda x: after(x) is rules.Status.CAN_FIRE_NOT_MOVE
        )
    probabilities["p_target_dead"] = lost.probability(
        lambda x: after(x) is rules.Status.DEAD_OR_SERIOUSLY_WOUNDED
    )
    details["target_initiative"] = target_initiative


def _cover_reason(plan: ShotPlan | ThrowPlan, tables: HouseClearingData, seen: str) -> Reason:
    """The cover roll's step: the D6 against the fifths ``seen`` ("target shows"), by the
    reading the data file's ``cover_roll`` gives."""
    cover, visible = plan.cover, plan.visible
    shows = f"{seen} {visible}/{cover.fifths}: {tables.cover.visible[visible - 1].shows.lower()}"
    if not cover.roll_again:
        return Reason(
            "hit",
            f"needs {visible} or less on a D{cover.die}",
            f"{shows} ({tables.cite('assumption', 'cover_roll', 'cover')}: hit on the visible "
            f"fifths or less, so a {cover.die} always misses)",
        )
    above = "a 6" if cover.die == cover.fifths + 1 else f"a roll over {cover.fifths}"
    if not cover.needs_roll(visible):
        return Reason(
            "hit",
            "no cover roll: hit",
            f"{shows}, the whole figure (the data's cover_roll: {above} is rolled again, so "
            f"all {cover.fifths} fifths are hit without a roll)",
        )
    return Reason(
        "hit",
        f"needs {visible} or less on a D{cover.die}, {above} rolled again",
        f"{shows} (the data's cover_roll: {above} is rolled again, so {visible}/{cover.fifths} "
        f"hits {visible} times in {cover.fifths})",
    )


def _damage_reason(plan: ShotPlan | ThrowPlan, tables: HouseClearingData) -> Reason:
    at = tables.damage.can_fire_not_move_at
    return Reason(
        "damage",
        f"{plan.damage} initiative lost per hit",
        f"{at} = can fire but not move; below {at} = dead or seriously wounded"
        + tables.cited("damage"),
    )


def throw_distributions(plan: ThrowPlan) -> tuple[Dist[int], Dist[int], Dist[int]]:
    """Exact distributions of the grenade landing (0 or 1), the figure hit (0 or 1) and the
    initiative it loses."""
    lands = exact(lambda d: int(rules.grenade_lands(d, plan)))
    return (lands, *_hits_and_lost(lands, plan))


def throw_grenade(
    *,
    range_inches: float,
    weapon_skill: int,
    visible: int,
    target_initiative: int | None = None,
    data: HouseClearingData | None = None,
) -> OddsReport:
    """The odds of one figure's grenade thrown at another (not on the sheet: each step is
    an assumption of docs/rules/house-clearing.md). ``visible`` is the fifths of the
    target the burst can see: all of a figure in the room it lands in."""
    arguments.number("range_inches", range_inches)
    arguments.whole("weapon_skill", weapon_skill)
    arguments.whole("visible", visible)
    arguments.optional_whole("target_initiative", target_initiative)
    tables = _tables(data)
    plan = rules.plan_throw(
        range_inches=range_inches, weapon_skill=weapon_skill, visible=visible, data=tables
    )
    _check_target(target_initiative, tables)
    lands, hits, lost = throw_distributions(plan)

    band = plan.band
    bands = ("grenade.edges", "range_bands.bands")  # (where the thrown bands come from)
    span = (
        f'over {band.nearest:g}" to {band.farthest:g}"'
        if band.nearest
        else f'up to {band.farthest:g}"'
    )
    because = (
        f"weapon skill {plan.weapon_skill} ÷ {band.divisor} ({band.name.lower()} range band, "
        f"{span})"
    )
    if plan.unrounded_chance != plan.chance:
        because += f" = {_fraction(plan.unrounded_chance)}, rounded down"
    because += (
        "; the score or less needed on a D100 to land it where aimed "
        f"({tables.cite('assumption', *bands, 'rounding')}: thrown "
        "as a shot is fired)"
    )
    if plan.sure:
        d100 = Reason(
            "D100",
            "none: it lands",
            f"{plan.chance} is {plan.sure_at} or more; one grenade lands once (assumption)",
        )
    else:
        d100 = Reason(
            "D100",
            f"needs {plan.chance} or less",
            "score or less on a D100 lands it; else it goes astray and hurts no one (assumption)",
        )
    blast = (
        "every figure within it is hit alike, each rolling for itself: ask again with its "
        f"{named('visible', python='visible=N')} "
        f"({tables.cite('assumption', 'grenade.blast_radius_inches')})"
    )
    if range_inches <= plan.blast_radius:
        blast += (
            f"; the thrower, {_inches(range_inches)} away, is within it too, hit by what of "
            "him the burst sees"
        )
    reasons = (
        Reason(
            "range band",
            f"{band.name.lower()} (÷{band.divisor})",
            f"{plan.weapon} thrown {_inches(range_inches)}: {band.name.lower()} range is "
            f"{span} ({tables.cite('assumption', *bands)}: the pistol's bands)",
        ),
        Reason("score needed", str(plan.chance), because),
        d100,
        Reason("burst", f"{_inches(plan.blast_radius)} radius", blast),
        _cover_reason(plan, tables, "the burst sees"),
        _damage_reason(plan, tables),
    )
    probabilities = {"p_hit": hits.at_least(1), "p_lands": lands.at_least(1)}
    details: dict[str, object] = {
        "chance": plan.chance,
        "band": band.name,
        "divisor": band.divisor,
        "blast_radius_inches": plan.blast_radius,
        "thrown": plan.weapon,
    }
    _target_odds(target_initiative, lost, probabilities, details, tables)
    return OddsReport(
        ruleset=RULESET,
        question="shoot",
        title=(
            f"{plan.weapon} (thrown), weapon skill {plan.weapon_skill}, at "
            f"{_inches(range_inches)}, the burst sees {plan.visible}/{plan.cover.fifths} "
            "of the target"
        ),
        reasons=reasons,
        probabilities=probabilities,
        distributions={"hits": hits, "initiative_lost": lost},
        details=details,
        labels={"p_hit": "the target is hit", "p_lands": "the grenade lands where aimed"},
    )


def figure(officer: bool, *, data: HouseClearingData | None = None) -> OddsReport:
    """What a freshly rolled figure's initiative and weapon skill may be."""
    arguments.yes_no("officer", officer)
    tables = _tables(data)
    kind = tables.figures.officer if officer else tables.figures.other
    joint = exact(lambda d: rules.roll_figure(d, officer, tables))
    initiative = joint.map(lambda f: f.initiative)
    skill = joint.map(lambda f: f.weapon_skill)
    who = ", ".join(kind.names) + tables.cited(f"figures.{'officer' if officer else 'other'}")
    reasons = (
        Reason("initiative", kind.initiative, who),
        Reason(
            "weapon skill",
            f"{kind.weapon_skill_dice}×{kind.weapon_skill_multiplier}",
            f"{who}: {min(skill.outcomes())} to {max(skill.outcomes())}",
        ),
    )
    return OddsReport(
        ruleset=RULESET,
        question="figure",
        title=f"roll up {'an officer, NCO or Rambo' if officer else 'a figure'}",
        reasons=reasons,
        distributions={"initiative": initiative},
        details={
            "weapon_skill": {value: float(p) for value, p in skill.items()},
            # the same chances as fractions (the scores go by tens: no table by count)
            "weapon_skill_exact": {value: str(p) for value, p in skill.items()},
            "weapon_skill_mean": float(skill.mean()),
        },
    )
