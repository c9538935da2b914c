"""The odds of infantry assaulting infantry: close quarters fought as the edition fights them
(Bolt Action's rounds, or Konflikt '47's point-blank fire, hand-to-hand and the loser's morale
test), with officers' bonuses, assault weapons, pins, and defenders who stand and fire first.
Apart because it is a question of its own, with its own checks and its own reasoning rows, and
the longest after shooting."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from kriegsspiel.core import arguments
from kriegsspiel.core.dice import Dist
from kriegsspiel.core.report import OddsReport, Reason
from kriegsspiel.errors import ParameterError, UsageError, named
from kriegsspiel.rulesets.bolt_action.edition import Rules, rules_for
from kriegsspiel.rulesets.bolt_action.odds.checks import (
    MAX_FIGHTERS,
    MAX_FIGHTERS_AFTER_FIRE,
    check_counts,
    check_names,
    check_not_removed,
    house_rules,
)
from kriegsspiel.rulesets.bolt_action.odds.fire_at_assaulters import stand_and_fire_odds
from kriegsspiel.rulesets.bolt_action.odds.order_and_morale import morale_parts
from kriegsspiel.rulesets.bolt_action.to_hit import describe_needs, to_hit_because
from kriegsspiel.rulesets.bolt_action.troop_damage import infantry_target

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.assault import Fight, Side


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
    fight = _Fight(
        attackers=attackers,
        attacker_quality=attacker_quality,
        defenders=defenders,
        defender_quality=defender_quality,
        attacker_assault_weapons=attacker_assault_weapons,
        defender_assault_weapons=defender_assault_weapons,
        attacker_pins=attacker_pins,
        defender_pins=defender_pins,
        attacker_mode=attacker_mode,
        defender_mode=defender_mode,
        attacker_officer=attacker_officer,
        defender_officer=defender_officer,
        defender_weapons=defender_weapons,
        attacker_cover=attacker_cover,
        attacker_start_models=attacker_start_models,
    )
    _check_types(ruleset, fight)
    rules_file, rules_text = house_rules(rules_file, rules_text)
    rules = rules_for(ruleset, rules_file, rules_text)
    _check_sides(rules, fight)
    _check_modes(rules, fight)
    said = _Said(rules, fight)
    att, dfn = said.attackers(fight.attacker_pins), said.defenders()
    result, stopped, fired, attackers_said = _fought(said, att, dfn)
    return OddsReport(
        ruleset=ruleset,
        question="assault",
        reasons=tuple(_fight_reasons(said, att, dfn, attackers_said, fired)),
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


@dataclass(frozen=True, slots=True)
class _Fight:
    """A close quarters question as asked: each side's models, quality, assault weapons,
    pins, mode and officer, and, when the defenders stand and fire, their weapons and the
    assaulters' cover and size at the start of the game."""

    attackers: int
    attacker_quality: str
    defenders: int
    defender_quality: str
    attacker_assault_weapons: int
    defender_assault_weapons: int
    attacker_pins: int
    defender_pins: int
    attacker_mode: str
    defender_mode: str
    attacker_officer: str | None
    defender_officer: str | None
    defender_weapons: Sequence[str]
    attacker_cover: str
    attacker_start_models: int | None

    @property
    def stand_and_fire(self) -> bool:
        """The defenders stand and fire at the assaulters before the fight."""
        return self.defender_mode == "stand-and-fire"

    @property
    def start(self) -> int:
        """The assaulting unit's models at the start of the game."""
        return self.attackers if self.attacker_start_models is None else self.attacker_start_models


def _check_types(ruleset: str, f: _Fight) -> None:
    """The types of the question's arguments, each refused by name (:mod:`.arguments`)."""
    arguments.text("ruleset", ruleset)
    for name, value in (
        ("attackers", f.attackers),
        ("defenders", f.defenders),
        ("attacker_assault_weapons", f.attacker_assault_weapons),
        ("defender_assault_weapons", f.defender_assault_weapons),
        ("attacker_pins", f.attacker_pins),
        ("defender_pins", f.defender_pins),
    ):
        arguments.whole(name, value)
    arguments.optional_whole("attacker_start_models", f.attacker_start_models)
    for name, said in (
        ("attacker_quality", f.attacker_quality),
        ("defender_quality", f.defender_quality),
        ("attacker_mode", f.attacker_mode),
        ("defender_mode", f.defender_mode),
        ("attacker_cover", f.attacker_cover),
    ):
        arguments.text(name, said)
    arguments.optional_text("attacker_officer", f.attacker_officer)
    arguments.optional_text("defender_officer", f.defender_officer)
    arguments.names("defender_weapons", f.defender_weapons)


def _check_sides(rules: Rules, f: _Fight) -> None:
    """Refuse sides the fight cannot have: counts below 0, no models or more than the
    exact odds take, more assault weapons than models, names the rules data does not know,
    and a side its pins have already removed."""
    check_counts(
        attackers=f.attackers,
        defenders=f.defenders,
        attacker_pins=f.attacker_pins,
        defender_pins=f.defender_pins,
        attacker_assault_weapons=f.attacker_assault_weapons,
        defender_assault_weapons=f.defender_assault_weapons,
    )
    sides = f"{named('attackers')} and {named('defenders')}"
    if f.attackers == 0 or f.defenders == 0:
        raise ParameterError(f"{sides} must each be 1 or more models.")
    if max(f.attackers, f.defenders) > MAX_FIGHTERS:
        raise ParameterError(
            f"{sides}: exact odds are worked out for at most {MAX_FIGHTERS} models a side "
            f"(got {f.attackers} and {f.defenders}); larger fights would take minutes."
        )
    for who, n, k in (
        ("attacker", f.attackers, f.attacker_assault_weapons),
        ("defender", f.defenders, f.defender_assault_weapons),
    ):
        if k > n:
            raise ParameterError(
                f"{named(f'{who}_assault_weapons')} ({k}) cannot exceed the {who}'s models ({n})."
            )
    check_names(
        rules,
        quality_a=("attacker_quality", f.attacker_quality),
        quality_d=("defender_quality", f.defender_quality),
        officer_a=("attacker_officer", f.attacker_officer),
        officer_d=("defender_officer", f.defender_officer),
    )
    fights_none = "fights no fight"
    check_not_removed(rules, f.attacker_quality, f.attacker_pins, "attacker_pins", fate=fights_none)
    check_not_removed(rules, f.defender_quality, f.defender_pins, "defender_pins", fate=fights_none)


def _check_modes(rules: Rules, f: _Fight) -> None:
    """Refuse ways of fighting the edition does not have: a mode it does not know, standing
    to fire without assault reactions or without weapons (or its options without it), the
    assaulters' size at the start below their models, and officers or pins in Bolt Action's
    rounds, where no morale test is taken."""
    from kriegsspiel.rulesets.bolt_action.assault import fighting_modes

    procedure = rules.data.close_quarters.procedure
    modes = fighting_modes(rules)
    if f.attacker_mode not in ("hand-to-hand", "point-blank"):
        raise ParameterError(
            f"{named('attacker_mode')} is hand-to-hand or point-blank (not {f.attacker_mode!r})."
        )
    stand = named("defender_mode", "stand-and-fire", shown="stand-and-fire")
    if f.defender_mode not in ("hand-to-hand", "point-blank", "stand-and-fire"):
        raise ParameterError(
            f"{named('defender_mode')} is hand-to-hand, point-blank or stand-and-fire "
            f"(not {f.defender_mode!r})."
        )
    if f.stand_and_fire and not rules.assault_reactions:
        raise UsageError(
            f"{rules.data.title} has no assault reactions: an assaulted unit cannot stand and fire."
        )
    if "point-blank" in {f.attacker_mode, f.defender_mode} and "point-blank" not in modes:
        raise ParameterError(
            f"{rules.data.title} has no point-blank fire in close quarters; "
            f"drop {named('attacker_mode')}/{named('defender_mode')}."
        )
    _check_standing_to_fire(f, stand)
    if procedure == "rounds" and (f.attacker_officer or f.defender_officer):
        raise ParameterError(
            f"in {rules.data.title}'s close quarters the side with most casualties is destroyed, "
            "with no morale test for an officer to help; drop "
            f"{named('attacker_officer')}/{named('defender_officer')}."
        )
    if procedure == "rounds" and (f.attacker_pins or f.defender_pins):
        raise ParameterError(
            f"in {rules.data.title}'s close quarters pins change nothing (no point-blank fire, "
            f"no morale test): drop {named('attacker_pins')}/{named('defender_pins')}."
        )


def _check_standing_to_fire(f: _Fight, stand: str) -> None:
    """Refuse a stand and fire the exact odds do not take, or without the defenders'
    weapons; its options without it; and the assaulters' size at the start below their
    models (``stand``: the stand-and-fire mode as named to the caller)."""
    sides = f"{named('attackers')} and {named('defenders')}"
    if f.stand_and_fire and max(f.attackers, f.defenders) > MAX_FIGHTERS_AFTER_FIRE:
        raise ParameterError(
            f"{sides}: with the defenders standing to fire, exact odds "
            f"are worked out for at most {MAX_FIGHTERS_AFTER_FIRE} models a side (got "
            f"{f.attackers} and {f.defenders}); larger ones would take long."
        )
    if f.stand_and_fire and not f.defender_weapons:
        spec, example = "NAME[:COUNT]", "rifle:8"
        raise ParameterError(
            f"{stand}: give the weapons the defenders fire with "
            f"{named('defender_weapons', shown=spec, python=f'defender_weapons=[{spec!r}, ...]')}"
            f", e.g. {named('defender_weapons', shown=example, python=f'defender_weapons=[{example!r}]')}."
        )
    if not f.stand_and_fire and (
        f.defender_weapons or f.attacker_cover != "none" or f.attacker_start_models is not None
    ):
        raise ParameterError(
            f"{named('defender_weapons')}, {named('attacker_cover')} and "
            f"{named('attacker_start_models')} describe the defenders' fire as they stand "
            f"and fire: give {stand}, or drop them."
        )
    if f.start < f.attackers:
        raise ParameterError(
            f"{named('attacker_start_models')} ({f.start}) is the assaulting unit's size at the "
            f"start of the game: it cannot be less than {named('attackers')} ({f.attackers})."
        )


@dataclass(frozen=True, slots=True)
class _Said:
    """Each side as the edition makes it, and how the reasoning tells its fighting: its
    attacks or point-blank fire, its morale, with the rules file's citations."""

    rules: Rules
    fight: _Fight

    @property
    def rounds(self) -> bool:
        """Bolt Action's rounds: no morale test, the side with most casualties destroyed."""
        return self.rules.data.close_quarters.procedure == "rounds"

    def attackers(self, pins: int) -> Side:
        """The assaulters' side with ``pins`` (after the defenders' fire: its pins hinder them)."""
        from kriegsspiel.rulesets.bolt_action.assault import fighting_side

        f = self.fight
        return fighting_side(
            self.rules,
            f.attacker_quality,
            pins=pins,
            assault_models=f.attacker_assault_weapons,
            mode=f.attacker_mode,
            officer=f.attacker_officer,
        )

    def defenders(self) -> Side:
        """The defenders' side (hand-to-hand after they stand and fire)."""
        from kriegsspiel.rulesets.bolt_action.assault import fighting_side

        f = self.fight
        return fighting_side(
            self.rules,
            f.defender_quality,
            pins=f.defender_pins,
            assault_models=f.defender_assault_weapons,
            mode="hand-to-hand" if f.stand_and_fire else f.defender_mode,
            officer=f.defender_officer,
        )

    def said_as(self, who: str) -> tuple[str, int, str | None]:
        """A side's quality, pins and officer, as its reasoning tells them."""
        f = self.fight
        if who == "attackers":
            return f.attacker_quality, f.attacker_pins, f.attacker_officer
        return f.defender_quality, f.defender_pins, f.defender_officer

    def fights(self, side: Side, models: int, who: str, pins: int | None = None) -> str:
        """How ``side`` (``who``: attackers or defenders; with ``pins``, if not its own)
        strikes, with " (rules file k47.yaml)" where a rules file changed its numbers."""
        rules = self.rules
        quality, own_pins, _ = self.said_as(who)
        enemy_quality = self.said_as("defenders" if who == "attackers" else "attackers")[0]
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
        fire = self.point_blank(side, quality, own_pins if pins is None else pins)
        return f"{fire}, damage on {enemy_value}+{rules.data.cited(*rows)}{aside}"

    def point_blank(self, side: Side, quality: str, pins: int) -> str:
        """What ``side``'s point-blank fire hits on, and why."""
        from kriegsspiel.rulesets.bolt_action.assault import point_blank_modifiers

        # (its modifiers named as a shooting's are: :func:`.assault.fighting_side`'s score)
        because = to_hit_because(self.rules, point_blank_modifiers(self.rules, quality, pins))
        needs = describe_needs(self.rules, side.point_blank_hit)
        return f"point-blank fire hits on {needs} ({because})"

    def morale(self, side: Side, who: str) -> str:
        """A side's morale value, with what made it."""
        quality, _, officer = self.said_as(who)
        parts = morale_parts(self.rules, side.morale, quality, officer)
        told = f" ({', '.join(parts)})" if len(parts) > 1 else ""
        return f"morale {side.morale.value}{told}"

    def describe(self, side: Side, models: int, who: str) -> str:
        """How a side fights, and (but in Bolt Action's rounds) its morale."""
        # (Bolt Action's rounds take no morale test: the side with most casualties is
        # destroyed, so its morale is not shown)
        return self.fights(side, models, who) + (
            "" if self.rounds else f"; {self.morale(side, who)}"
        )


def _fought(
    said: _Said, att: Side, dfn: Side
) -> tuple[Dist[Fight], dict[str, Fraction], list[Reason], str]:
    """The fight of ``att`` and ``dfn``: the defenders' fire first if they stand and fire, then close quarters
    between the sides left; with how often that fire stops the assault, its reasoning
    rows, and the attackers told with the pins it may leave them."""
    from kriegsspiel.rulesets.bolt_action.assault import exact_close_quarters, fight_after_fire

    f, rules = said.fight, said.rules
    procedure = rules.data.close_quarters.procedure
    attackers_said = said.describe(att, f.attackers, "attackers")
    if not f.stand_and_fire:
        result = exact_close_quarters(procedure, att, dfn, f.attackers, f.defenders)
        return result, {}, [], attackers_said
    fire, fired = stand_and_fire_odds(
        rules,
        weapons=f.defender_weapons,
        quality=f.defender_quality,
        pins=f.defender_pins,
        models=f.defenders,
        at_quality=f.attacker_quality,
        at_models=f.attackers,
        at_start=f.start,
        at_pins=f.attacker_pins,
        at_cover=f.attacker_cover,
        at_officer=f.attacker_officer,
    )
    stopped = {"p_assaulters_stopped": fire.probability(lambda left: left[0] == 0)}
    result = fight_after_fire(procedure, fire, said.attackers, dfn, f.defenders)
    added = sorted({pins - f.attacker_pins for alive, pins in fire.outcomes() if alive} - {0})
    if added:  # they fight with the pins the fire leaves them: say what those change
        most = said.attackers(f.attacker_pins + added[-1])
        if added == [1]:
            pinned = f"{most.morale.value} once the defenders' fire pins them"
        else:
            few = att.morale.value - added[0]
            pinned = (
                f"{few} to {most.morale.value} with the {added[0]} to {added[-1]} pins "
                "the defenders' fire may leave"
            )
        attackers_said = (
            f"{said.fights(att, f.attackers, 'attackers')}; {said.morale(att, 'attackers')}, "
            f"{pinned} (-1 a pin)"
        )
        if att.mode == "point-blank":
            more = f"; with {added[-1]} more pin{'s' * (added[-1] != 1)}: "
            attackers_said += more + (
                said.point_blank(most, f.attacker_quality, f.attacker_pins + added[-1])
                if most.mode == "point-blank"
                else "hand-to-hand, as their fire could not hit"
            )
    return result, stopped, fired, attackers_said


def _fight_reasons(
    said: _Said, att: Side, dfn: Side, attackers_said: str, fired: list[Reason]
) -> list[Reason]:
    """The reasoning rows: the procedure and its sequence, each side and how it fights,
    the defenders' fire, and how the fight is decided."""
    f, rules = said.fight, said.rules
    procedure = rules.data.close_quarters.procedure
    reasons = [
        Reason(
            "procedure",
            procedure.replace("-", " "),
            rules.data.source_of("close_quarters"),
        ),
        _sequence(said, att, dfn),
        Reason("attackers", f"{f.attackers} {f.attacker_quality}, {att.mode}", attackers_said),
        *[
            Reason(
                f"{who} fight hand-to-hand",
                "point-blank fire cannot hit",
                f"it would need 10+ with {pins} pins: a side fights hand-to-hand then",
            )
            for who, asked, side, pins in (
                ("attackers", f.attacker_mode, att, f.attacker_pins),
                ("defenders", f.defender_mode, dfn, f.defender_pins),
            )
            if asked == "point-blank" and side.mode == "hand-to-hand"
        ],
        Reason(
            "defenders",
            f"{f.defenders} {f.defender_quality}, "
            + ("stand and fire, then hand-to-hand" if f.stand_and_fire else dfn.mode),
            said.describe(dfn, f.defenders, "defenders"),
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
    return reasons


def _sequence(said: _Said, att: Side, dfn: Side) -> Reason:
    """Who strikes when: in rounds the attackers first; else both at once, after the
    defenders' fire and point-blank fire where there is any."""
    sheet = said.rules.data.source_of("close_quarters", described=False)
    if said.rounds:
        return Reason(
            "sequence",
            "attackers strike first",
            f"the defenders' casualties are removed before they strike back ({sheet}: a-d)",
        )
    return Reason(
        "sequence",
        "both sides strike at once",
        ", then ".join(
            ["the defenders' fire as the assaulters stop"] * said.fight.stand_and_fire
            + (
                ["point-blank fire", "hand-to-hand by the survivors"]
                if "point-blank" in (att.mode, dfn.mode)
                else ["hand-to-hand"]
            )
        )
        + f"; casualties are compared after the fight's step ({sheet}: 5a-d; at "
        "once: assumption)",
    )
