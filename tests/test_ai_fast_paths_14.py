"""Round 14's fast path gives the plain computation's answers exactly."""

from __future__ import annotations

import random

import pytest

from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.players import chance_outcome
from kriegsspiel.core.game import CHANCE
from kriegsspiel.core.scenario import load_scenario, sample_scenarios
from kriegsspiel.rulesets.bolt_action.army import load_army, sample_armies
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_a_shooting_kept_from_an_earlier_choice_is_worked_out_alike_afresh(ruleset: str) -> None:
    """What the player answers for a shooting at troops, kept from an earlier choice or
    not, is what a fresh player works out, all through a game (pins, losses, moves, Down
    and ranging in change what it reads)."""
    armies = [load_army(p, ruleset) for p in sample_armies(ruleset)[:2]]
    game = BoltActionGame(ruleset, load_scenario(sample_scenarios()[0]), (armies[0], armies[1]))
    players = [TacticalPlayer(0), TacticalPlayer(1)]
    rng = random.Random(0)
    kept = 0
    while not game.is_terminal() and len(game.events) < 150:
        side = game.current_player()
        action = chance_outcome(game, rng) if side == CHANCE else players[side].choose(game)
        game.apply_action(action)
        for player in players:
            player._new_choice()  # (asked as during a choice: the units' men found afresh)
            for unit in game.units:
                for target in game.units:
                    if unit.side == target.side or unit.destroyed or target.destroyed:
                        continue
                    if target.vehicle is not None:
                        continue
                    for moving in (False, True):
                        before = player._shootings.get((unit.uid, target.uid, moving))
                        found = player._shooting(game, unit, target, moving)
                        kept += before is not None and found is before[4]
                        assert found == TacticalPlayer()._shooting(game, unit, target, moving)
    assert kept > 100
