"""What the tactical player keeps from one choice to the next gives what a fresh player
works out. To choose quickly the player keeps what a shooting at troops reads for its cap
(the gap, the squad's reach, the target's men) from an earlier choice while nothing it reads
has changed, and a move order's end (its worth and a vehicle's heading there) for the rest
of a choice; all through real games of both editions, as pins, losses, moves, Down and
ranging in change the table, each kept answer must equal the plain one, a new player's
worked out with nothing kept."""

from __future__ import annotations

import random

import pytest
from test_ai_caps import RULESETS, tactical_decisions

from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.bolt_action_tactics.shot_ceiling import TroopsShotCeilings
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
                        ceilings = player._troops_ceilings
                        before = ceilings._shootings.get((unit.uid, target.uid, moving))
                        found = ceilings.shooting(game, unit, target, moving)
                        kept += before is not None and found is before[4]
                        assert found == TroopsShotCeilings().shooting(game, unit, target, moving)
    assert kept > 100


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
