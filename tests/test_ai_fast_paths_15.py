"""Round 15's fast paths give the plain computation's answers exactly."""

from __future__ import annotations

import pytest
from test_ai_fast_paths_7 import RULESETS, tactical_decisions

from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_move_end_kept_during_a_choice_is_worked_out_alike_afresh(ruleset: str) -> None:
    """Each move order's end (its worth and a vehicle's heading there), asked during a
    choice after its unit's other orders, is what a fresh player works out outside one."""
    kept = turned = 0
    for seed in (3, 4):
        player = TacticalPlayer(seed)
        for game, _ in tactical_decisions(ruleset, seed):
            if game.pending is not None:
                continue
            player._places, player._kept_places, player._marks = {}, {}, {}
            player._new_choice()
            moves = [a for a in game.legal_actions() if a.order in ("Advance", "Run")]
            for action in moves + moves:  # (the second time from the store)
                unit = game.units[action.unit]
                found = player._move_end(game, unit, action)
                fresh = TacticalPlayer()._move_end(game, unit, action)
                assert repr(found) == repr(fresh)
                kept += 1
                turned += found[1] is not None and action.facing is not None
            player._places = None
    assert kept > 1000 and turned > 20
