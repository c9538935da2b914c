"""The tactical player's caps on an order's worth: never below it, so every choice is the
plain one. To choose quickly the player values its orders highest cap first and stops once
no order left could beat the best so far; that equals the plain rule (every order valued in
turn, the first of the best kept) only if no cap ever undercuts the worth it stands for. In
real games of both editions each cap (an order's, and a shooting's from any place it might
fire from) is held to the worth worked out plainly, a man's reach summed in floats to the
exact fractions, the caps found together for sorting to each order's own, and whole games'
choices, a Down or Ambush die kept or returned included, to the plain choice; with the rules
facts the caps lean on (cover never helps a man with one weapon, the most pins a roll can
give)."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

import pytest
from test_ai_fast_paths import positions

from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.bolt_action_tactics.shot_ceiling import (
    COVERS,
    ROUNDING,
    TroopsShotCeilings,
    _cover_only_hurts,
    _most_rolled,
    _one_mans_reach,
    _shot_expected,
)
from kriegsspiel.ai.bolt_action_tactics.shot_value import damage
from kriegsspiel.ai.players import chance_outcome
from kriegsspiel.core.dice import DiceExpr
from kriegsspiel.core.game import CHANCE
from kriegsspiel.core.scenario import load_scenario, sample_scenarios
from kriegsspiel.core.table import Point
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action import rules_for
from kriegsspiel.rulesets.bolt_action.army import load_army, sample_armies
from kriegsspiel.rulesets.bolt_action.attack import struck_distribution, troops_shot_distribution
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.units import Model, UnitState
from kriegsspiel.rulesets.bolt_action.shooting import plan_shot
from kriegsspiel.rulesets.bolt_action.shot import Situation
from kriegsspiel.rulesets.bolt_action.troop_damage import infantry_target

RULESETS = ["konflikt47", "bolt-action-1"]


def new_game(ruleset: str, seed: int) -> BoltActionGame:
    armies = [load_army(p, ruleset) for p in sample_armies(ruleset)[:2]]
    scenario = load_scenario(sample_scenarios()[seed % 2])
    return BoltActionGame(ruleset, scenario, (armies[0], armies[1]), seed=seed)


def tactical_decisions(ruleset: str, seed: int) -> Iterator[tuple[BoltActionGame, Action]]:
    """Each decision of a whole tactical game, with the game as it stands before it."""
    game = new_game(ruleset, seed)
    players = [TacticalPlayer(seed), TacticalPlayer(seed + 1)]
    rng = random.Random(seed)
    while not game.is_terminal():
        side = game.current_player()
        if side == CHANCE:
            game.apply_action(chance_outcome(game, rng))
            continue
        action = players[side].choose(game)
        yield game, action
        game.apply_action(action)


def plain_choice(player: TacticalPlayer, game: BoltActionGame) -> Action:
    """Every order valued in turn, the first of the best kept (the choice before caps)."""
    actions = game.legal_actions()
    best, best_value = actions[0], float("-inf")
    for action in actions:
        value = player.value(game, action)
        if value > best_value:
            best, best_value = action, value
    return best


# (Bolt Action's takes 20 s of the fast suite's 10 minutes: with the slow ones)
@pytest.mark.parametrize(
    "ruleset", ["konflikt47", pytest.param("bolt-action-1", marks=pytest.mark.slow)]
)
def test_an_orders_cap_is_never_below_its_value(ruleset: str) -> None:
    """Shots at troops (a vehicle's too, each of its mounts bearing) and at vehicles alike
    (a vehicle's cap: its points by the chance any hit damages it, and its pins' cap), assaults on troops (capped by their worth were the defenders to fight hand-to-hand),
    Down and Ambush orders (capped at their worth under threat, with an enemy near), and
    moves that shoot nothing (capped by how far they go)."""
    player = TacticalPlayer()
    capped: Counter[str] = Counter()
    reached: Counter[str] = Counter()  # caps the order's value meets exactly
    # (enough positions for each kind of cap, assaults the rarest: terrain where the unit
    # may not Run stops many)
    for seed in (*range(11, 17), *range(18, 27), 29, 32, 34):
        for game in positions(ruleset, seed, every=5):
            if game.pending is not None:
                continue
            player._new_choice()
            for action in game.legal_actions():
                ceiling = player._ceiling(game, action)
                if ceiling is None:
                    continue
                value = player.value(game, action)
                assert ceiling >= value
                if action.target is None:
                    kind = action.order
                elif game.units[action.target].vehicle is not None:
                    kind = "at a vehicle"
                elif action.order == "Run":
                    kind = "assault"  # capped by its worth against hand-to-hand
                elif game.units[action.unit].vehicle is not None:
                    kind = "by a vehicle at troops"
                else:
                    kind = "at troops"
                capped[kind] += 1
                reached[kind] += ceiling == value
    assert capped["at troops"] > 100 and capped["at a vehicle"] > 20
    assert capped["by a vehicle at troops"] > 20
    assert capped["assault"] > 10  # (where the defence is hand-to-hand, the cap is the worth)
    assert reached["assault"] > 0
    assert capped["Down"] > 20 and capped["Ambush"] > 20
    assert capped["Advance"] > 200 and capped["Run"] > 200
    assert reached["Down"] > 0 and reached["Ambush"] > 0  # the caps are the best they can be


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_shootings_cap_holds_from_any_place(ruleset: str) -> None:
    """From the unit's place and from places all round it, moving or not, the damage is
    never above the cap (which does not know where the unit will be, nor so which of a
    vehicle's mounts bear)."""
    ceilings = TroopsShotCeilings()
    capped = hit = by_vehicles = 0
    for game in positions(ruleset, 13, every=9):
        live = [u for u in game.units if not u.destroyed]
        for unit in live:
            a = unit.anchor
            steps = [(0.0, 0.0)] + [(dx, dy) for dx in (-6, -1.5, 0, 4) for dy in (-6, 2, 6)]
            for target in live:
                if target.side == unit.side:
                    continue
                for moving in (False, True):
                    ceilings.new_choice()
                    for dx, dy in steps:
                        shift = math.hypot(dx, dy)
                        ceiling = ceilings.ceiling(game, unit, target, moving, shift)
                        if ceiling is None:
                            break
                        origin = Point(a.x + dx, a.y + dy) if shift else None
                        worth = damage(game, unit, target, moving=moving, origin=origin)
                        assert worth <= ceiling
                        # a longer shift is allowed for: the cap only grows
                        farther = ceilings.ceiling(game, unit, target, moving, shift + 5)
                        assert farther is not None and farther >= ceiling
                        capped += 1
                        hit += worth > 0
                        by_vehicles += unit.vehicle is not None and worth > 0
    assert capped > 50 and hit > 50 and by_vehicles > 10


@pytest.mark.parametrize("ruleset", RULESETS)
def test_choices_with_caps_match_valuing_every_order(ruleset: str) -> None:
    """Whole tactical games: at every decision the choice is the plain one."""
    checked = 0
    for seed in (21, 22):
        plain = TacticalPlayer(seed)
        for game, action in tactical_decisions(ruleset, seed):
            if game.pending is None:
                assert action == plain_choice(plain, game)
                checked += 1
    assert checked > 50


def test_a_die_is_kept_when_the_order_it_holds_is_worth_the_most() -> None:
    """At a turn's end the tactical player keeps a Down or Ambush die exactly when, valuing
    every order the unit could be given plainly, none is worth more than the one it holds;
    in real games it does both."""
    from kriegsspiel.rulesets.bolt_action.game.candidates import order_candidates

    seen: Counter[str] = Counter()
    for ruleset in RULESETS:
        for seed in range(3):
            plain = TacticalPlayer(seed)
            for game, action in tactical_decisions(ruleset, seed):
                pending = game.pending
                if pending is not None and pending.kind == "retain":
                    held = pending.action
                    unit = game.units[held.unit]
                    others = [a for a in order_candidates(game, unit) if a.order != held.order]
                    kept = plain.value(game, held)
                    best = max((plain.value(game, a) for a in others), default=-math.inf)
                    assert action.choice == ("keep" if kept >= best else "return")
                    seen[action.choice] += 1
    assert seen["keep"] > 0 and seen["return"] > 0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_man_with_one_weapon_does_no_better_behind_cover(ruleset: str) -> None:
    """What lets the cap ask a man with one way to shoot about the open only: for every
    weapon, target and range band, cover never raises his expected casualties or his
    chance to hit."""
    rules = rules_for(ruleset)
    assert _cover_only_hurts(rules)
    compared = 0
    for weapon in rules.data.weapons.rows:
        if weapon.indirect_min_range is not None:
            continue
        for quality in ("inexperienced", "regular", "veteran"):
            target = infantry_target(rules, quality)
            for rng in (0.0, 5.0, 10.0, 20.0, 40.0, 70.0):
                means = {}
                for cover in ("none", "soft", "hard"):
                    s = Situation(range_inches=rng, cover=cover, firer_pins=1, moving=True)
                    try:
                        shot = plan_shot(rules, weapon, target, s)[0]
                    except UsageError:
                        break
                    means[cover] = _shot_expected(shot) if shot.hit_on else (Fraction(0),) * 2
                if len(means) == 3:
                    assert means["none"] >= means["soft"] >= means["hard"]
                    compared += 1
    assert compared > 100


@pytest.mark.parametrize("text", ["D6", "2D6-1", "D3+1", "D2", "3", "D6-6"])
def test_the_most_pins_rolled_is_the_highest_roll(text: str) -> None:
    expr = DiceExpr(text)
    assert _most_rolled(expr) == max(max(0, v) for v in expr.dist().outcomes())


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_caps_found_together_are_each_orders_own(ruleset: str) -> None:
    """The caps the player sorts its orders by (moves capped inline) are :meth:`_ceiling`'s,
    order by order, and the orders without one are those it gives none."""
    player = TacticalPlayer()
    moves = 0
    for game in [g for seed in (5, 6) for g in positions(ruleset, seed, every=6)]:
        if game.pending is not None:
            continue
        actions = game.legal_actions()
        player._new_choice()
        uncapped, later = player._caps(game, actions)
        player._new_choice()
        ceilings = [player._ceiling(game, a) for a in actions]
        assert uncapped == [i for i, c in enumerate(ceilings) if c is None]
        assert later == [(-c, i) for i, c in enumerate(ceilings) if c is not None]
        moves += sum(a.target is None and a.order in ("Advance", "Run") for a in actions)
    assert moves > 300


def plain_reach(
    game: BoltActionGame, unit: UnitState, target: UnitState, model: Model, moving: bool
) -> tuple[list[Fraction], list[Fraction]]:
    """A man's most expected casualties and chance to strike at each range band or beyond,
    in exact fractions: every shot the game picks for him behind every cover, summed."""
    rules = game.rules
    reach = _one_mans_reach(game, unit, target, model, moving)
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
                    reach = _one_mans_reach(game, unit, target, model, moving)
                    casualties, hits = plain_reach(game, unit, target, model, moving)
                    for found, exact in [
                        *zip(reach.casualties, casualties, strict=True),
                        *zip(reach.hits, hits, strict=True),
                    ]:
                        assert exact <= Fraction(found) <= exact * (1 + 2 * ROUNDING)
                    compared += 1
    assert compared > 50
