"""The odds of infantry assaulting infantry: close quarters fought as the edition fights them
(Bolt Action's rounds, or Konflikt '47's point-blank fire, hand-to-hand and the loser's morale
test), with officers' bonuses, assault weapons, pins, and defenders who stand and fire first.
Apart because it is a question of its own, with its own checks and its own reasoning rows, and
the longest after shooting."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

from kriegsspiel.core import arguments
from kriegsspiel.core.report import OddsReport, Reason
from kriegsspiel.errors import ParameterError, UsageError, named
from kriegsspiel.rulesets.bolt_action.edition import rules_for
from kriegsspiel.rulesets.bolt_action.odds.checks import (
    MAX_FIGHTERS,
    MAX_FIGHTERS_AFTER_FIRE,
    _check_counts,
    _check_names,
    _check_not_removed,
    _house_rules,
)
from kriegsspiel.rulesets.bolt_action.odds.fire_at_assaulters import _stand_and_fire
from kriegsspiel.rulesets.bolt_action.odds.order_and_morale import _morale_parts
from kriegsspiel.rulesets.bolt_action.shooting import (
    describe_needs,
    infantry_target,
    to_hit_because,
)


def assault_odds(
    ruleset: str,
    *,
    attackers: int,
    attacker_quality: str,
    defenders: int,
    defender_quality: str,
    attacker_assault_weapons: int = 0,
    defender_assault_weapons: int = 0,
    attacker_pins: int = 0,
    defender_pins: int = 0,
    attacker_mode: str = "hand-to-hand",
    defender_mode: str = "hand-to-hand",
    attacker_officer: str | None = None,
    defender_officer: str | None = None,
    defender_weapons: Sequence[str] = (),
    attacker_cover: str = "none",
    attacker_start_models: int | None = None,
    rules_file: str | Path | None = None,
    rules_text: str | None = None,
) -> OddsReport:
    """Infantry against infantry in close quarters, fought as the edition fights it; an
    officer in range of a side adds his bonus to its morale, as in the game.

    ``defender_mode`` "stand-and-fire" (Konflikt '47: a unit assaulted before it has an
    order) has the defenders shoot ``defender_weapons`` at the assaulters where they
    come to a stop, at point blank, before the fight; they then fight hand-to-hand."""
    from kriegsspiel.rulesets.bolt_action.assault import (
        Side,
        exact_close_quarters,
        fight_after_fire,
        fighting_modes,
        fighting_side,
        point_blank_modifiers,
    )

    arguments.text("ruleset", ruleset)
    for name, value in (
        ("attackers", attackers),
        ("defenders", defenders),
        ("attacker_assault_weapons", attacker_assault_weapons),
        ("defender_assault_weapons", defender_assault_weapons),
        ("attacker_pins", attacker_pins),
        ("defender_pins", defender_pins),
    ):
        arguments.whole(name, value)
    arguments.optional_whole("attacker_start_models", attacker_start_models)
    for name, said in (
        ("attacker_quality", attacker_quality),
        ("defender_quality", defender_quality),
        ("attacker_mode", attacker_mode),
        ("defender_mode", defender_mode),
        ("attacker_cover", attacker_cover),
    ):
        arguments.text(name, said)
    arguments.optional_text("attacker_officer", attacker_officer)
    arguments.optional_text("defender_officer", defender_officer)
    arguments.names("defender_weapons", defender_weapons)
    rules_file, rules_text = _house_rules(rules_file, rules_text)
    rules = rules_for(ruleset, rules_file, rules_text)
    _check_counts(
        attackers=attackers,
        defenders=defenders,
        attacker_pins=attacker_pins,
        defender_pins=defender_pins,
        attacker_assault_weapons=attacker_assault_weapons,
        defender_assault_weapons=defender_assault_weapons,
    )
    sides = f"{named('attackers')} and {named('defenders')}"
    if attackers == 0 or defenders == 0:
        raise ParameterError(f"{sides} must each be 1 or more models.")
    if max(attackers, defenders) > MAX_FIGHTERS:
        raise ParameterError(
            f"{sides}: exact odds are worked out for at most {MAX_FIGHTERS} models a side "
            f"(got {attackers} and {defenders}); larger fights would take minutes."
        )
    for who, n, k in (
        ("attacker", attackers, attacker_assault_weapons),
        ("defender", defenders, defender_assault_weapons),
    ):
        if k > n:
            raise ParameterError(
                f"{named(f'{who}_assault_weapons')} ({k}) cannot exceed the {who}'s models ({n})."
            )
    _check_names(
        rules,
        quality_a=("attacker_quality", attacker_quality),
        quality_d=("defender_quality", defender_quality),
        officer_a=("attacker_officer", attacker_officer),
        officer_d=("defender_officer", defender_officer),
    )
    _check_not_removed(rules, attacker_quality, attacker_pins, "attacker_pins")
    _check_not_removed(rules, defender_quality, defender_pins, "defender_pins")
    procedure = rules.data.close_quarters.procedure
    modes = fighting_modes(rules)
    if attacker_mode not in ("hand-to-hand", "point-blank"):
        raise ParameterError(
            f"{named('attacker_mode')} is hand-to-hand or point-blank (not {attacker_mode!r})."
        )
    stand = named("defender_mode", "stand-and-fire", shown="stand-and-fire")
    if defender_mode not in ("hand-to-hand", "point-blank", "stand-and-fire"):
        raise ParameterError(
            f"{named('defender_mode')} is hand-to-hand, point-blank or stand-and-fire "
            f"(not {defender_mode!r})."
        )
    stand_and_fire = defender_mode == "stand-and-fire"
    if stand_and_fire and not rules.assault_reactions:
        raise UsageError(
            f"{rules.data.title} has no assault reactions: an assaulted unit cannot stand and fire."
        )
    if "point-blank" in {attacker_mode, defender_mode} and "point-blank" not in modes:
        raise ParameterError(
            f"{rules.data.title} has no point-blank fire in close quarters; "
            f"drop {named('attacker_mode')}/{named('defender_mode')}."
        )
    start = attackers if attacker_start_models is None else attacker_start_models
    if stand_and_fire and max(attackers, defenders) > MAX_FIGHTERS_AFTER_FIRE:
        raise ParameterError(
            f"{sides}: with the defenders standing to fire, exact odds "
            f"are worked out for at most {MAX_FIGHTERS_AFTER_FIRE} models a side (got "
            f"{attackers} and {defenders}); larger ones would take long."
        )
    if stand_and_fire and not defender_weapons:
        spec, example = "NAME[:COUNT]", "rifle:8"
        raise ParameterError(
            f"{stand}: give the weapons the defenders fire with "
            f"{named('defender_weapons', shown=spec, python=f'defender_weapons=[{spec!r}, ...]')}"
            f", e.g. {named('defender_weapons', shown=example, python=f'defender_weapons=[{example!r}]')}."
        )
    if not stand_and_fire and (
        defender_weapons or attacker_cover != "none" or attacker_start_models is not None
    ):
        raise ParameterError(
            f"{named('defender_weapons')}, {named('attacker_cover')} and "
            f"{named('attacker_start_models')} describe the defenders' fire as they stand "
            f"and fire: give {stand}, or drop them."
        )
    if start < attackers:
        raise ParameterError(
            f"{named('attacker_start_models')} ({start}) is the assaulting unit's size at the "
            f"start of the game: it cannot be less than {named('attackers')} ({attackers})."
        )
    if procedure == "rounds" and (attacker_officer or defender_officer):
        raise ParameterError(
            f"in {rules.data.title}'s close quarters the side with most casualties is destroyed, "
            "with no morale test for an officer to help; drop "
            f"{named('attacker_officer')}/{named('defender_officer')}."
        )
    if procedure == "rounds" and (attacker_pins or defender_pins):
        raise ParameterError(
            f"in {rules.data.title}'s close quarters pins change nothing (no point-blank fire, "
            f"no morale test): drop {named('attacker_pins')}/{named('defender_pins')}."
        )
    att = fighting_side(
        rules,
        attacker_quality,
        pins=attacker_pins,
        assault_models=attacker_assault_weapons,
        mode=attacker_mode,
        officer=attacker_officer,
    )
    dfn = fighting_side(
        rules,
        defender_quality,
        pins=defender_pins,
        assault_models=defender_assault_weapons,
        mode="hand-to-hand" if stand_and_fire else defender_mode,
        officer=defender_officer,
    )

    rounds = procedure == "rounds"

    def attacker_side(pins: int) -> Side:  # (after the defenders' fire: its pins hinder them)
        return fighting_side(
            rules,
            attacker_quality,
            pins=pins,
            assault_models=attacker_assault_weapons,
            mode=attacker_mode,
            officer=attacker_officer,
        )

    # each side's quality, pins and officer, as its reasoning tells them
    said_as = {
        "attackers": (attacker_quality, attacker_pins, attacker_officer),
        "defenders": (defender_quality, defender_pins, defender_officer),
    }

    def fights(side: Side, models: int, who: str, pins: int | None = None) -> str:
        """How ``side`` (``who``: attackers or defenders; with ``pins``, if not its own)
        strikes, with " (rules file k47.yaml)" where a rules file changed its numbers."""
        quality, own_pins, _ = said_as[who]
        enemy_quality = said_as["defenders" if who == "attackers" else "attackers"][0]
        enemy_value = infantry_target(rules, enemy_quality).damage_value
        rows = [f"damage_values.rows[{enemy_quality.lower()} infantry]"]
        if side.mode == "hand-to-hand":
            rows.append("procedure.close_quarters_attacks")
            rows += ["procedure.assault_weapon_attacks"] * (side.assault_models > 0)
            attacks = side.attacks(models)
            return (
                f"{attacks} attack{'s' if attacks != 1 else ''}, damage on {enemy_value}+"
                + rules.data.cited(*rows)
            )
        unused = min(side.assault_models, models)  # (their extra attacks are hand-to-hand's)
        aside = (
            f" (one shot a model: the {unused} assault weapon{'s' * (unused != 1)} add "
            "nothing to point-blank fire)"
            if unused
            else ""
        )
        fire = point_blank(side, quality, own_pins if pins is None else pins)
        return f"{fire}, damage on {enemy_value}+{rules.data.cited(*rows)}{aside}"

    def point_blank(side: Side, quality: str, pins: int) -> str:
        # (its modifiers named as a shooting's are: :func:`.assault.fighting_side`'s score)
        because = to_hit_because(rules, point_blank_modifiers(rules, quality, pins))
        needs = describe_needs(rules, side.point_blank_hit)
        return f"point-blank fire hits on {needs} ({because})"

    def morale(side: Side, who: str) -> str:
        quality, _, officer = said_as[who]
        parts = _morale_parts(rules, side.morale, quality, officer)
        told = f" ({', '.join(parts)})" if len(parts) > 1 else ""
        return f"morale {side.morale.value}{told}"

    def describe(side: Side, models: int, who: str) -> str:
        # (Bolt Action's rounds take no morale test: the side with most casualties is
        # destroyed, so its morale is not shown)
        return fights(side, models, who) + ("" if rounds else f"; {morale(side, who)}")

    stopped: dict[str, Fraction] = {}
    fired: list[Reason] = []
    attackers_said = describe(att, attackers, "attackers")
    if stand_and_fire:
        fire, fired = _stand_and_fire(
            rules,
            weapons=defender_weapons,
            quality=defender_quality,
            pins=defender_pins,
            models=defenders,
            at_quality=attacker_quality,
            at_models=attackers,
            at_start=start,
            at_pins=attacker_pins,
            at_cover=attacker_cover,
            at_officer=attacker_officer,
        )
        stopped["p_assaulters_stopped"] = fire.probability(lambda left: left[0] == 0)
        result = fight_after_fire(procedure, fire, attacker_side, dfn, defenders)
        added = sorted({pins - attacker_pins for alive, pins in fire.outcomes() if alive} - {0})
        if added:  # they fight with the pins the fire leaves them: say what those change
            most = attacker_side(attacker_pins + added[-1])
            if added == [1]:
                pinned = f"{most.morale.value} once the defenders' fire pins them"
            else:
                few = att.morale.value - added[0]
                pinned = (
                    f"{few} to {most.morale.value} with the {added[0]} to {added[-1]} pins "
                    "the defenders' fire may leave"
                )
            attackers_said = (
                f"{fights(att, attackers, 'attackers')}; {morale(att, 'attackers')}, {pinned} "
                "(-1 a pin)"
            )
            if att.mode == "point-blank":
                more = f"; with {added[-1]} more pin{'s' * (added[-1] != 1)}: "
                attackers_said += more + (
                    point_blank(most, attacker_quality, attacker_pins + added[-1])
                    if most.mode == "point-blank"
                    else "hand-to-hand, as their fire could not hit"
                )
    else:
        result = exact_close_quarters(procedure, att, dfn, attackers, defenders)
    sheet = rules.data.source_of("close_quarters", described=False)
    sequence = (
        Reason(
            "sequence",
            "attackers strike first",
            f"the defenders' casualties are removed before they strike back ({sheet}: a-d)",
        )
        if rounds
        else Reason(
            "sequence",
            "both sides strike at once",
            ", then ".join(
                ["the defenders' fire as the assaulters stop"] * stand_and_fire
                + (
                    ["point-blank fire", "hand-to-hand by the survivors"]
                    if "point-blank" in (att.mode, dfn.mode)
                    else ["hand-to-hand"]
                )
            )
            + f"; casualties are compared after the fight's step ({sheet}: 5a-d; at "
            "once: assumption)",
        )
    )
    reasons = [
        Reason(
            "procedure",
            procedure.replace("-", " "),
            rules.data.source_of("close_quarters"),
        ),
        sequence,
        Reason("attackers", f"{attackers} {attacker_quality}, {att.mode}", attackers_said),
        *[
            Reason(
                f"{who} fight hand-to-hand",
                "point-blank fire cannot hit",
                f"it would need 10+ with {pins} pins: a side fights hand-to-hand then",
            )
            for who, asked, side, pins in (
                ("attackers", attacker_mode, att, attacker_pins),
                ("defenders", defender_mode, dfn, defender_pins),
            )
            if asked == "point-blank" and side.mode == "hand-to-hand"
        ],
        Reason(
            "defenders",
            f"{defenders} {defender_quality}, "
            + ("stand and fire, then hand-to-hand" if stand_and_fire else dfn.mode),
            describe(dfn, defenders, "defenders"),
        ),
        *fired,
    ]
    reasons += [
        Reason(
            "decided",
            "most casualties is destroyed"
            if procedure == "rounds"
            else "most casualties tests morale; if it fails it is destroyed",
            "a tie fights another round"
            if procedure == "rounds"  # the defenders strike back only with their survivors
            else "a tie fights another round; both wiped out at once: both destroyed",
        ),
    ]
    return OddsReport(
        ruleset=ruleset,
        question="assault",
        reasons=tuple(reasons),
        probabilities={
            **stopped,
            "p_attacker_wins": result.probability(lambda f: f.attacker_wins),
            "p_defender_wins": result.probability(lambda f: f.defender_wins),
            "p_both_destroyed": result.probability(lambda f: f.both_destroyed),
        },
        distributions={
            "attackers_left": result.map(lambda f: f.attackers_left),
            "defenders_left": result.map(lambda f: f.defenders_left),
        },
    )
