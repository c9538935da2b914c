"""Exact Iron Cross odds, explained like a playsheet.

Every function here enumerates the rule procedures of :mod:`.rules` exactly (or composes
exact distributions of their steps), so the odds can never disagree with the simulator.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from kriegsspiel.core import arguments
from kriegsspiel.core.dice import Dist
from kriegsspiel.core.procedure import exact, markov
from kriegsspiel.core.report import OddsReport, Reason
from kriegsspiel.errors import named
from kriegsspiel.rulesets.iron_cross import rules
from kriegsspiel.rulesets.iron_cross.data import IronCrossData, PenetrationResult, load_data
from kriegsspiel.rulesets.iron_cross.rules import (
    CloseCombatSituation,
    FireOutcome,
    FirePlan,
    FireSituation,
    VehicleState,
)

RULESET = "iron-cross"


def _tables(data: object) -> IronCrossData:
    """The rules data a question is asked under: ``data`` (refused by name if it is not
    Iron Cross rules data), else the shipped."""
    if data is None:
        return load_data()
    return arguments.instance(
        "data",
        data,
        IronCrossData,
        "Iron Cross rules data (IronCrossData; kriegsspiel.rulesets.iron_cross.data.load_data(path) "
        "reads a rules file), or None for the shipped rules",
    )


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _score(score: int, die: int) -> str:
    """'4+', or '6' when only the top face will do."""
    return str(score) if score >= die else f"{score}+"


def _needs(score: int, die: int) -> str:
    if score > die:
        return f"cannot succeed (would need {score}+ on a D{die})"
    if score <= 1:
        return f"automatic (any score on a D{die})"
    return f"needs {_score(score, die)} on a D{die}"


def activation(
    morale_markers: int,
    command_tokens: int | None = None,
    first_activation: bool = False,
    *,
    data: IronCrossData | None = None,
) -> OddsReport:
    """Chance that spending a command token activates the unit.

    ``command_tokens`` None: none on a first activation, else the one the first left
    (an assumption the reasoning says)."""
    arguments.whole("morale_markers", morale_markers)
    arguments.optional_whole("command_tokens", command_tokens)
    arguments.yes_no("first_activation", first_activation)
    tables = _tables(data)
    assumed = command_tokens is None
    tokens = (0 if first_activation else 1) if command_tokens is None else command_tokens
    needs = rules.activation_needs(morale_markers, tokens, first_activation, tables)
    p = exact(
        lambda d: rules.activate(d, morale_markers, tokens, first_activation, tables)
    ).probability(True)
    if needs is None:
        reason = Reason(
            "activation",
            "no roll needed",
            f"first activation of the turn ({tables.cite('sheet', 'activation')}: no dice "
            "roll, whatever the morale markers; docs/rules/iron-cross.md)",
        )
    else:
        because = (
            f"score higher than {_plural(morale_markers, 'morale marker')}"
            f" + {_plural(tokens, 'command token')} = {morale_markers + tokens}"
            + tables.cited("activation")
        )
        if assumed:
            because += (
                "; the command token is the one the first activation left (assumption: "
                f"{named('command_tokens')} not given)"
            )
        reason = Reason("activation", _needs(needs, tables.activation.die), because)
    return OddsReport(
        ruleset=RULESET,
        question="activation",
        title=(
            f"activate a unit with {_plural(morale_markers, 'morale marker')} and "
            f"{_plural(tokens, 'command token')}"
            + (" (first activation)" if first_activation else "")
        ),
        reasons=(reason,),
        probabilities={"p_success": p},
        details={"needs": needs},
    )


def reaction(
    morale_markers: int, command_tokens: int, *, data: IronCrossData | None = None
) -> OddsReport:
    """Chance that a reaction succeeds, and that it seizes the initiative (a successful 6)."""
    arguments.whole("morale_markers", morale_markers)
    arguments.whole("command_tokens", command_tokens)
    tables = _tables(data)
    needs = rules.reaction_needs(morale_markers, command_tokens, tables)
    outcomes = exact(lambda d: rules.react(d, morale_markers, command_tokens, tables))
    seize_on = tables.seize_initiative.on_roll
    changed = tables.cite("", "reaction")  # (nothing when the table is the sheet's)
    changed += "; " if changed else ""
    reasons = (
        Reason(
            "reaction",
            _needs(needs, tables.reaction.die),
            f"base {tables.reaction.needs}+, +{tables.reaction.per_token_or_marker} per "
            f"command token or morale marker ({changed}{morale_markers + command_tokens} on "
            "the unit; "
            + (
                "the token spent on this reaction is counted too"
                if tables.reaction_counts.count_token_being_spent
                else "the token spent on this reaction is not counted"
            )
            + f": {tables.cite('assumption', 'reaction_counts')})",
        ),
        Reason(
            "seize the initiative",
            f"on a {seize_on}" if needs <= seize_on else "impossible",
            f"a successful reaction roll of {seize_on} seizes the initiative "
            f"({tables.cite('published rule, as reviews report it', 'seize_initiative')})",
        ),
    )
    return OddsReport(
        ruleset=RULESET,
        question="reaction",
        title=(
            f"react with a unit with {_plural(morale_markers, 'morale marker')} and "
            f"{_plural(command_tokens, 'command token')}"
        ),
        reasons=reasons,
        probabilities={
            "p_success": outcomes.probability(lambda o: o.success),
            "p_seize_initiative": outcomes.probability(lambda o: o.seizes_initiative),
        },
        details={"needs": needs},
    )


def smoke(*, data: IronCrossData | None = None) -> OddsReport:
    """Chance of laying smoke (the sheet's 5+ on a D10, or a rules file's)."""
    tables = _tables(data)
    table = tables.smoke
    p = exact(lambda d: rules.lay_smoke(d, tables)).probability(True)
    told = tables.cite("sheet", "smoke")
    penalty = tables.firing_modifiers.smoke.value
    reasons = (
        Reason(
            "smoke",
            _needs(table.needs, table.die),
            f"{told}: successful on a {table.needs}+ on d{table.die}",
        ),
        Reason(
            "effect",
            f"target counts as in {table.gives_target_cover}; fire at it {penalty:+d}",
            f"the protected unit {'may' if table.protected_unit_may_fire else 'may not'} "
            f"fire for the rest of the turn; smoke dissipates at {table.dissipates}"
            + tables.cited("smoke", "firing_modifiers.smoke"),
        ),
    )
    return OddsReport(RULESET, "smoke", reasons, {"p_success": p}, title="lay smoke")


def terrain_test(unit: str, terrain: str, *, data: IronCrossData | None = None) -> OddsReport:
    """Chance that a unit passes its test to move through rough or very rough terrain."""
    arguments.text("unit", unit)
    arguments.text("terrain", terrain)
    tables = _tables(data)
    row, test = rules.find_terrain_test(unit, terrain, tables)
    p = exact(lambda d: rules.cross_terrain(d, test, tables)).probability(True)
    if test.impassable:
        result = "Impassable: cannot enter"
    elif test.needs is None:
        result = "no test: passes"
    else:
        result = _needs(test.needs, tables.terrain_tests.die)
    where = terrain.strip().lower().replace("_", " ")
    said = f"{row.unit}, {where}: {test.text}" + tables.cited("terrain_tests")
    reasons = (Reason("terrain test", result, said),)
    return OddsReport(
        RULESET,
        "terrain-test",
        reasons,
        {"p_pass": p},
        title=f"{row.unit} enters {where} terrain",
    )


def _effect(result: PenetrationResult) -> str:
    """What a penetration-table result does, in words: '+2 morale markers', 'vehicle
    destroyed'."""
    said = []
    if result.extra_markers:
        said.append(f"+{_plural(result.extra_markers, 'morale marker')}")
    if result.vehicle_damaged:
        said.append("vehicle damaged (below)")
    if result.destroyed:
        said.append("vehicle destroyed")
    if result.kaboom:
        said.append("a marker on friendly units near it (below)")
    return ", ".join(said) or "no effect"


def _outcomes(plan: FirePlan) -> Dist[FireOutcome]:
    """Exact distribution of a fire outcome, composed from the rule's own steps."""
    hits = exact(lambda d: rules.roll_to_hit(d, plan))
    if plan.target != "vehicle":
        return hits.bind(
            lambda h: exact(
                lambda d: FireOutcome(
                    h, h * plan.markers_per_hit + rules.casualty_markers(d, plan, h)
                )
            )
        )
    if not plan.capable:
        return hits.map(lambda h: rules.outcome_from(h, VehicleState()))
    states = markov(
        Dist.constant(VehicleState()), lambda d, s: rules.vehicle_hit(d, plan, s), plan.dice
    )
    return hits.bind(lambda h: states[h].map(lambda s: rules.outcome_from(h, s)))


def _fire_reasons(plan: FirePlan, tables: IronCrossData, moved_detachment: bool) -> list[Reason]:
    """A unit's firing dice and the score they need, with the modifiers that make it.

    ``moved_detachment``: the firer moved but is an infantry detachment (said: no penalty)."""
    published = "published rule, as reviews report it"
    because = ", ".join(
        [f"base {plan.base_needs}+ ({tables.cite(published, 'to_hit.needs', 'to_hit.die')})"]
        + [f"{m.text.lower()} {m.value:+d}{tables.cited(*m.rows)}" for m in plan.modifiers]
    )
    if moved_detachment:
        because += ", moved but an infantry detachment: no penalty (sheet)"
    raw = plan.base_needs - plan.modifier_total
    natural = tables.natural_rolls
    assumed = tables.cite("assumption", "natural_rolls")
    if raw > plan.needs:
        because += f" = {raw}+, but a natural {natural.always_hits} always hits ({assumed})"
    elif raw < plan.needs:
        because += f" = {raw}+, but a natural {natural.always_misses} always misses ({assumed})"
    dice_from = tables.cite(published, *plan.dice_from, "to_hit.die")
    return [
        Reason(
            "dice",
            f"{plan.dice} D{plan.die}" + ("s" if plan.dice > 1 else ""),
            plan.dice_because
            + ("" if plan.dice_because.startswith("given") else f" ({dice_from})"),
        ),
        Reason("to hit", _needs(plan.needs, plan.die), because),
    ]


def _markers_reason(plan: FirePlan, tables: IronCrossData) -> Reason:
    """The morale markers fire at infantry gives: one per hit, and the casualty roll's."""
    on, die = plan.further_marker_on, plan.casualty_die
    if on is None or die is None:  # (a vehicle target: no casualty roll)
        raise ValueError("the casualty roll is for infantry and support squads")
    return Reason(
        "morale markers",
        f"{plan.markers_per_hit} per hit, +{plan.further_markers} more per hit on "
        f"{_score(on, die)} on a D{die}",
        plan.cover_because + tables.cited("morale_markers", "cover", "casualty_roll"),
    )


def shoot(
    *,
    target: str,
    range_inches: float,
    firer_moved: bool = False,
    firer_is_infantry_detachment: bool = False,
    target_moved: bool = False,
    smoke: bool = False,
    morale_markers: int = 0,
    enemy_infantry_near_vehicle: bool = False,
    firer_is_vehicle: bool = False,
    screened: bool = False,
    cover: str = "open",
    mortar: bool = False,
    machine_gun: bool = False,
    dice: int | None = None,
    penetration: int | None = None,
    armour: int | None = None,
    data: IronCrossData | None = None,
) -> OddsReport:
    """The odds of one unit's fire: hits, morale markers and, on a vehicle, the damage."""
    tables = _tables(data)
    situation = FireSituation(
        target=target,
        range_inches=range_inches,
        firer_moved=firer_moved,
        firer_is_infantry_detachment=firer_is_infantry_detachment,
        target_moved=target_moved,
        smoke=smoke,
        morale_markers=morale_markers,
        enemy_infantry_near_vehicle=enemy_infantry_near_vehicle,
        firer_is_vehicle=firer_is_vehicle,
        screened=screened,
        cover=cover,
        mortar=mortar,
        machine_gun=machine_gun,
        dice=dice,
        penetration=penetration,
        armour=armour,
    )
    arguments.fields("", situation, FireSituation)  # (each named as its parameter)
    plan = rules.plan_fire(situation, tables)
    outcomes = _outcomes(plan)
    hits = outcomes.map(lambda o: o.hits)
    markers = outcomes.map(lambda o: o.morale_markers)

    reasons = _fire_reasons(plan, tables, firer_moved and firer_is_infantry_detachment)
    probabilities: dict[str, Fraction] = {"p_hit": hits.at_least(1)}
    details: dict[str, object] = {
        "dice": plan.dice,
        "needs": plan.needs,
        "modifier": plan.modifier_total,
    }

    labels: dict[str, str] = {}
    notes: dict[str, str] = {}
    if plan.target == "vehicle":
        pen = tables.armour_penetration
        throw = f"D{plan.throw_die}"
        if plan.penetrates_on is None:
            reasons.append(
                Reason(
                    "armour",
                    "hits have no effect",
                    f"penetration {penetration} + {throw}{tables.cited('penetration_throw')} can "
                    f"never exceed armour {armour}: the weapon is not capable of it, so a hit "
                    "gives no morale marker (sheet)",
                )
            )
        else:
            per_hit = tables.cite("sheet", "armour_penetration.markers_per_hit")
            marker = f"{_plural(plan.markers_per_hit, 'morale marker')} per hit ({per_hit})"
            thrown = tables.cite("assumption, docs/rules/iron-cross.md", "penetration_throw")
            if plan.penetrates_on <= 1:
                verdict = "every hit penetrates"
                how = f"penetration {penetration} + any {throw} exceeds armour {armour}"
            else:
                verdict = f"penetrates on {_score(plan.penetrates_on, plan.throw_die)}"
                how = f"penetration {penetration} + a {throw} must exceed armour {armour}"
            reasons.append(
                Reason(
                    "armour",
                    verdict,
                    f"{how} (the penetration throw: {thrown}); {marker}",
                )
            )
            table_parts = ("armour_penetration.die", "armour_penetration.results")
            table = "; ".join(
                "/".join(str(s) for s in r.scores) + f" {r.name}: {_effect(r)}" for r in pen.results
            )
            reasons.append(
                Reason(
                    "armour penetration",
                    f"D{pen.die} per penetrating hit",
                    f"{table} ({tables.cite('sheet', *table_parts)}; markers on top of the "
                    "hit's own)",
                )
            )
            reasons.append(
                Reason(
                    "Screech!",
                    "vehicle immobilised for the rest of the game"
                    if tables.screech.immobilised
                    else "vehicle damaged",
                    f"+{_plural(tables.screech.extra_markers, 'morale marker')} "
                    f"({tables.cite('assumption', 'screech')})",
                )
            )
            radii = (
                "armour_penetration.kaboom_radius_inches",
                "armour_penetration.kaboom_radius_small_table_inches",
            )
            reasons.append(
                Reason(
                    "Kaboom!",
                    f'a morale marker on each friendly unit within {pen.kaboom_radius_inches:g}"',
                    f"{pen.kaboom_radius_small_table_inches:g}\" on a 6'x4' table "
                    f"({tables.cite('sheet', *radii)}); the vehicle is destroyed, as with "
                    f"Foom! ({tables.cite('assumption', 'armour_penetration.results')})",
                )
            )
            notes["morale_markers"] = (
                "The target's own markers; Kaboom!'s fall on the friendly units near it."
            )
        worst = outcomes.map(lambda o: o.worst_result)
        probabilities["p_penetrated"] = worst.probability(lambda row: row > 0)
        labels["p_penetrated"] = "at least one hit penetrates"
        probabilities["p_destroyed"] = outcomes.probability(lambda o: o.destroyed)
        for row, result in enumerate(pen.results, 1):
            probabilities[f"p_{result.key}"] = worst.probability(row)
            labels[f"p_{result.key}"] = f"worst result: {result.name}"
        details["penetrates_on"] = plan.penetrates_on
        details["kaboom_radius_inches"] = pen.kaboom_radius_inches
        details["kaboom_radius_small_table_inches"] = pen.kaboom_radius_small_table_inches
    elif plan.further_marker_on is not None:
        reasons.append(_markers_reason(plan, tables))
        details["further_marker_on"] = plan.further_marker_on

    dice_text = f"{plan.dice} D{plan.die}" + ("s" if plan.dice > 1 else "")
    question = f'{dice_text} at {plan.target}, {range_inches:g}"'
    if plan.target == "vehicle":
        question += f", penetration {penetration} vs armour {armour}"
    return OddsReport(
        ruleset=RULESET,
        question="shoot",
        title=question,
        reasons=tuple(reasons),
        probabilities=probabilities,
        distributions={"hits": hits, "morale_markers": markers},
        details=details,
        labels=labels,
        notes=notes,
    )


def _side(label: str, plan: FirePlan, tables: IronCrossData, detachment: bool) -> list[Reason]:
    """One side's fire in a close combat, its steps indented under ``label``."""
    said = f"{plan.dice} D{plan.die}" + ("s" if plan.dice > 1 else "")
    steps = [*_fire_reasons(plan, tables, detachment), _markers_reason(plan, tables)]
    return [
        Reason(label, f"{said} at {plan.target}"),
        *(replace(r, topic="  " + r.topic) for r in steps),
    ]


def close_combat(
    *,
    attacker: str = "infantry",
    defender: str = "infantry",
    attacker_markers: int = 0,
    defender_markers: int = 0,
    defender_cover: str = "open",
    defender_moved: bool = False,
    data: IronCrossData | None = None,
) -> OddsReport:
    """Who wins a close combat: both units fire at point blank at once, and the one that
    inflicts more morale markers wins (an assumption: docs/rules/iron-cross.md)."""
    tables = _tables(data)
    situation = CloseCombatSituation(
        attacker=attacker,
        defender=defender,
        attacker_markers=attacker_markers,
        defender_markers=defender_markers,
        defender_cover=defender_cover,
        defender_moved=defender_moved,
    )
    arguments.fields("", situation, CloseCombatSituation)  # (each named as its parameter)
    plan = rules.plan_close_combat(situation, tables)
    outcomes = exact(lambda d: rules.resolve_close_combat(d, plan))
    table = tables.close_combat
    assumed = tables.cite(
        "assumption: the rulebook's close combat rule was not to hand, docs/rules/iron-cross.md",
        "close_combat",
    )
    reasons = [
        Reason(
            "close combat",
            "both units fire at once, at point blank",
            f"the sheet's firing at {table.range_inches:g}\"; the assaulter moved into contact "
            f"and stands in the {table.attacker_cover} ({assumed})",
        ),
        *_side("assaulter's fire", plan.attack, tables, plan.defence.target == "infantry"),
        *_side("defender's fire", plan.defence, tables, False),
        Reason(
            "winner",
            "the unit that inflicts more morale markers",
            "a draw leaves the defender holding its ground (assumption); what the loser does "
            "(the rulebook's Fall Back) is not covered by this program",
        ),
    ]
    cover = plan.attack.cover or "open"
    return OddsReport(
        ruleset=RULESET,
        question="close-combat",
        title=(
            f"{plan.defence.target} with {_plural(attacker_markers, 'morale marker')} assaults "
            f"{plan.attack.target} with {_plural(defender_markers, 'morale marker')}"
            + (" in the open" if cover == "open" else f" in {cover}")
        ),
        reasons=tuple(reasons),
        probabilities={
            "p_attacker_wins": outcomes.probability(lambda o: o.attacker_wins),
            "p_defender_wins": outcomes.probability(lambda o: o.defender_wins),
            "p_draw": outcomes.probability(lambda o: o.draw),
        },
        distributions={
            "defender_markers_taken": outcomes.map(lambda o: o.defender_markers),
            "attacker_markers_taken": outcomes.map(lambda o: o.attacker_markers),
        },
        details={
            "attacker_dice": plan.attack.dice,
            "attacker_needs": plan.attack.needs,
            "defender_dice": plan.defence.dice,
            "defender_needs": plan.defence.needs,
            "defender_cover": cover,
        },
        labels={"p_draw": "draw: the defender holds"},
    )
