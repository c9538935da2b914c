"""Round 15's fast paths give the plain computation's answers exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest
from test_ai_caps import RULESETS, tactical_decisions
from test_ai_fast_paths import positions

from kriegsspiel.ai.bolt_action_tactics import COVERS, ROUNDING, TacticalPlayer, _one_man
from kriegsspiel.rulesets.bolt_action.attack import struck_distribution, troops_shot_distribution
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.units import Model, UnitState
from kriegsspiel.rulesets.bolt_action.shooting import infantry_target


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


def plain_reach(
    game: BoltActionGame, unit: UnitState, target: UnitState, model: Model, moving: bool
) -> tuple[list[Fraction], list[Fraction]]:
    """A man's most expected casualties and chance to strike at each range band or beyond,
    in exact fractions: every shot the game picks for him behind every cover, summed."""
    rules = game.rules
    reach = _one_man(game, unit, target, model, moving)
    profile = infantry_target(rules, target.quality)
    most: list[tuple[Fraction, Fraction]] = []
    for rng in reach.ranges:
        best = (Fraction(0), Fraction(0))
        for cover in COVERS:
            picked = game.model_shots(
                unit,
                target,
                model,
                moving,
                model.point,
                target.anchor,
                rng,
                cover,
                profile,
                "front",
                every_arc=True,
            )
            casualties = hit = Fraction(0)
            for shot, per, _ in picked:
                odds = troops_shot_distribution(shot)
                casualties += per * odds.map(lambda o: o[1]).mean()
                # (struck: its to-hit roll hit, though a Down target's halving left no hit)
                hit += per * struck_distribution(shot).probability(lambda o: o[0])
            best = (max(best[0], casualties), max(best[1], hit))
        most.append(best)
    for i in reversed(range(len(most) - 1)):  # (at each band the most of it and beyond)
        most[i] = (max(most[i][0], most[i + 1][0]), max(most[i][1], most[i + 1][1]))
    return [m[0] for m in most], [m[1] for m in most]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_mans_reach_summed_in_floats_is_no_less_than_the_exact_sums(ruleset: str) -> None:
    """What a man could do at each band, found in floats, is never below the exact
    fraction and above it by no more than its rounding allowance."""
    compared = 0
    for game in positions(ruleset, 13, every=11):
        live = [u for u in game.units if not u.destroyed]
        for unit in live:
            for target in live:
                if target.side == unit.side or target.vehicle is not None:
                    continue
                for model in {m.weapons: m for m in unit.alive_models}.values():
                    moving = compared % 2 == 1
                    reach = _one_man(game, unit, target, model, moving)
                    casualties, hits = plain_reach(game, unit, target, model, moving)
                    for found, exact in [
                        *zip(reach.casualties, casualties, strict=True),
                        *zip(reach.hits, hits, strict=True),
                    ]:
                        assert exact <= Fraction(found) <= exact * (1 + 2 * ROUNDING)
                    compared += 1
    assert compared > 50
