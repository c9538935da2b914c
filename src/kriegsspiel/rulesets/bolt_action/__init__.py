"""Konflikt '47 and Bolt Action 1st edition: one engine, two editions told apart by data and flags."""

from kriegsspiel.rulesets.bolt_action.edition import BoltAction1, Konflikt47, Rules, rules_for

__all__ = ["BoltAction1", "Konflikt47", "Rules", "rules_for"]
