"""Answers kept by a target's profile spelt out field by field are the plain answers. A
:class:`Target`'s own hash is a slow Python call, so whether a weapon could ever knock out
a vehicle (:func:`can_knock_out`) and the shot a weapon plans at a target (:func:`_planned`)
are kept by the profile's fields written out instead; a key that left out a field that
matters would hand one profile another's answer. Each weapon is asked of every profile of
the edition and of variants differing in one field, in turn, and must get what the plain
rule gives: :func:`_weapon_can_knock_out`'s answer and :func:`plan_shot`'s shot."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

import kriegsspiel.rulesets.bolt_action.game.shooting_groups as shooting_groups
import kriegsspiel.rulesets.bolt_action.game.threats as threats
from kriegsspiel.core.memo import BoundedMemo
from kriegsspiel.rulesets.bolt_action.edition import Rules, Target, rules_for
from kriegsspiel.rulesets.bolt_action.game.shooting_groups import _planned
from kriegsspiel.rulesets.bolt_action.game.threats import can_knock_out
from kriegsspiel.rulesets.bolt_action.shooting import CannotFire, plan_shot
from kriegsspiel.rulesets.bolt_action.shot import Shot, Situation
from kriegsspiel.rulesets.bolt_action.troop_damage import infantry_target


def variants(rules: Rules) -> list[Target]:
    """Every profile of the edition (troops and vehicles), and each with one field given
    each other value another has: asked in turn, a key short of a field that matters is
    caught."""
    profiles = [rules.target(r.names[0]) for r in rules.data.damage_values.rows]
    found: list[Target] = []
    for profile in profiles:
        found.append(profile)
        for field in fields(Target):
            values = {getattr(o, field.name) for o in profiles} - {getattr(profile, field.name)}
            found += [replace(profile, **{field.name: v}) for v in sorted(values, key=str)]
    return found


# (Konflikt '47's, 10 s, with the slow tests: Bolt Action's asks the same of its profiles)
@pytest.mark.parametrize(
    "ruleset", [pytest.param("konflikt47", marks=pytest.mark.slow), "bolt-action-1"]
)
def test_knock_out_answers_are_kept_by_every_field_of_the_profile(
    ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """:func:`can_knock_out` keeps its answers by the profile's fields spelt out: each
    weapon is asked of every vehicle's profile and its variants in turn."""
    rules = rules_for(ruleset)
    monkeypatch.setattr(threats, "_HARM", BoundedMemo("knock-out answers, this test's"))
    vehicles = [t for t in variants(rules) if t.is_vehicle]
    answers = set()
    for weapon in rules.data.weapons.rows:
        for target in vehicles:
            plain = threats._weapon_can_knock_out(rules, weapon.name, target)
            assert can_knock_out(rules, (weapon.name,), target) == plain
            answers.add((weapon.name, plain))
    assert len(answers) > len({name for name, _ in answers})  # some weapons' answers differ


def _plain(rules: Rules, name: str, target: Target, situation: Situation) -> Shot | None:
    try:
        return plan_shot(rules, rules.weapon(name), target, situation)[0]
    except CannotFire:
        return None


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_planned_shots_are_kept_by_every_field_of_the_profile(
    ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """:func:`_planned` keeps its shots by the target's profile spelt out field by field:
    every weapon, asked of every profile and its variants in turn, plans the plain shot."""
    rules = rules_for(ruleset)
    monkeypatch.setattr(shooting_groups, "_SHOTS", BoundedMemo("planned shots, this test's"))
    targets = [*variants(rules), infantry_target(rules, "veteran")]
    shots = set()
    for weapon in rules.data.weapons.rows:
        for situation in (Situation(range_inches=6.0), Situation(range_inches=20.0)):
            for target in targets:
                plain = _plain(rules, weapon.name, target, situation)
                assert _planned(rules, rules.weapon(weapon.name), target, situation) == plain
                shots.add(plain)
    assert len(shots) > 100
