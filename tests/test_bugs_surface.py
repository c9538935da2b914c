"""A bug in the rules' code stops a game with its exception: it is never taken for a
rule's "no" (a weapon that cannot fire, a fight that never ends), which would finish a
quieter game that a sweep stores as valid."""

from __future__ import annotations

from typing import Any

import pytest

import kriegsspiel
import kriegsspiel.rulesets.bolt_action.game.shooting_groups as shooting_groups
from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.players import play
from kriegsspiel.core.memo import BoundedMemo
from kriegsspiel.rulesets.bolt_action import to_hit
from kriegsspiel.rulesets.bolt_action.edition import Rules


def test_a_bug_in_a_pinned_firers_shot_stops_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A TypeError planning a pinned unit's shot reaches the caller of play: pinned
    units do not quietly stop shooting (seed 3's game has pinned units shoot)."""
    real = to_hit.firer_modifiers

    def buggy(rules: Rules, *, pins: int, **more: Any) -> list[to_hit.HitModifier]:
        if pins:
            raise TypeError("a bug in a pinned firer's modifiers")
        return real(rules, pins=pins, **more)

    monkeypatch.setattr(to_hit, "firer_modifiers", buggy)
    for memo in ("_SHOTS", "_CONTEXTS", "_CHOICES"):  # (shots planned before the bug)
        monkeypatch.setattr(shooting_groups, memo, BoundedMemo(f"{memo}, this test's"))
    game = kriegsspiel.new_game("konflikt47", seed=3)
    with pytest.raises(TypeError, match="pinned firer"):
        play(game, [TacticalPlayer(1), TacticalPlayer(2)], seed=3)
