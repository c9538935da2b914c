"""Units keep 1" apart on an ordinary move (docs/rules/bolt-action-family.md: spacing)."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from test_game_rules import new_game, only, place

from kriegsspiel.core.game import CHANCE, IllegalActionError
from kriegsspiel.core.table import Point, Table
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.candidates import order_candidates
from kriegsspiel.rulesets.bolt_action.game.spacing import UNIT_GAP, Clearance
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.units import UnitState


def _gap(a: UnitState, b: UnitState) -> float:
    return min(math.dist((m.x, m.y), (n.x, n.y)) for m in a.alive_models for n in b.alive_models)


def _state(game: BoltActionGame) -> Any:
    return (
        [(u.coords, u.heading, u.pins, u.order, u.moved) for u in game.units],
        len(game.events),
        game.pending,
        game.current_player(),
    )


def _facing(ruleset: str = "konflikt47", gap: float = 10.0) -> tuple[BoltActionGame, int]:
    """Squad 1 (side 0) at (36, 10), squad 2 beside it at (26, 10), an enemy squad ``gap``
    inches of centres away up the table, on an open table; side 0 to order. The game and
    the enemy squad's number."""
    game = new_game(ruleset)
    game.table = Table(72, 48)
    enemy = next(u.uid for u in game.units if u.side == 1 and u.kind == "infantry")
    assert {game.units[1].side, game.units[2].side} == {0}
    only(game, 1, 2, enemy)
    place(game.units[1], 36, 10, 0)
    place(game.units[2], 26, 10, 0)
    place(game.units[enemy], 36, 10 + gap, 180)
    game.apply_action(Action("draw", side=0))
    assert game.current_player() == 0
    return game, enemy


@pytest.mark.parametrize(
    ("order", "to", "why"),
    [
        ("Advance", (36.0, 16.0), "enemy"),  # ends on the enemy's centre
        ("Advance", (36.0, -0.5), "enemy"),  # ends 0.5" from them (below)
        ("Run", (36.0, 22.0), "enemy"),  # runs through them to the far side
        ("Advance", (36.0, 10.5), "friendly"),  # squad 2 onto squad 1 (below)
    ],
)
def test_a_move_too_near_another_unit_is_refused_and_changes_nothing(
    order: str, to: tuple[float, float], why: str
) -> None:
    game, uid = _facing(gap=6.0)
    unit = 2 if why == "friendly" else 1
    if to[1] < 0:  # that far short of the enemy's nearest model
        to = (to[0], 10 + _gap(game.units[1], game.units[uid]) + to[1])
    if why == "friendly":
        to = (game.units[1].anchor.x, to[1])
        place(game.units[2], to[0] - 4.0, 10.0, 0)
    before = _state(game)
    with pytest.raises(IllegalActionError, match=f'within 1" of an? {why} model'):
        game.apply_action(Action("order", unit=unit, order=order, to=to))
    assert _state(game) == before


def test_a_move_that_stays_an_inch_away_is_allowed() -> None:
    game, uid = _facing(gap=6.0)
    squad, enemy = game.units[1], game.units[uid]
    clear = Clearance(game.units, squad)
    to = clear.stop_short(Point(36, 16))  # straight at them, as far as the move may go
    assert 10 < to.y < 16 and clear.clash(to) is None
    game.apply_action(Action("order", unit=1, order="Advance", to=(to.x, to.y)))
    assert squad.anchor.y == pytest.approx(to.y)
    assert UNIT_GAP <= _gap(squad, enemy) < UNIT_GAP + 0.1


def test_a_move_may_draw_away_from_a_unit_it_is_already_near() -> None:
    """After an assault, say: a model within 1" may keep its distance or move off."""
    game, uid = _facing(gap=6.0)
    squad, enemy = game.units[1], game.units[uid]
    for _ in range(30):  # up to 0.5" apart
        place(squad, 36, squad.anchor.y + _gap(squad, enemy) - 0.5, 0)
    assert _gap(squad, enemy) == pytest.approx(0.5, abs=0.01)
    away = Point(squad.anchor.x, squad.anchor.y - 3)
    assert Clearance(game.units, squad).clash(away) is None
    closer = Point(squad.anchor.x, squad.anchor.y + 0.3)
    assert Clearance(game.units, squad).clash(closer) is not None


def test_an_assault_still_closes_in() -> None:
    game, uid = _facing(gap=7.0)
    squad, enemy = game.units[1], game.units[uid]
    game.apply_action(Action("order", unit=1, order="Run", target=uid))
    while game.pending is not None and game.current_player() not in (CHANCE,):
        options = game.legal_actions()
        game.apply_action(options[0])
    kinds = [e.kind for e in game.events]
    assert "close quarters" in kinds
    assert squad.destroyed or enemy.destroyed or _gap(squad, enemy) < UNIT_GAP


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_candidates_toward_an_enemy_stop_short_of_it(ruleset: str) -> None:
    game, uid = _facing(ruleset, gap=9.0)
    squad, enemy = game.units[1], game.units[uid]
    moves = [
        a
        for a in order_candidates(game, squad)
        if a.order in ("Advance", "Run") and a.to is not None and a.target is None
    ]
    assert moves
    closest = math.inf
    for action in moves:
        twin = game.clone()
        twin.apply_action(action)  # each is legal
        gap = _gap(twin.units[1], twin.units[uid])
        assert gap >= UNIT_GAP
        closest = min(closest, gap)
    assert closest < UNIT_GAP + 0.2  # the Run at them stopped just short, not dropped
    assert _gap(squad, enemy) > 2  # (the game itself did not move)


def _mover(action: Any) -> int | None:
    """The unit an ordinary move order moves (not an assault's Run at a target)."""
    if getattr(action, "kind", None) != "order" or getattr(action, "to", None) is None:
        return None
    if action.order == "Advance" or (action.order == "Run" and action.target is None):
        return int(action.unit)
    return None


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
@pytest.mark.parametrize("kind", ["random", "tactical"])
def test_players_are_offered_no_move_too_near_another_unit(ruleset: str, kind: str) -> None:
    """Whole games: after every ordinary move, the mover's models are 1" from every other
    unit's (or no nearer than they were: units an assault left in contact)."""
    from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
    from kriegsspiel.ai.players import Player, RandomPlayer, chance_outcome

    moves = 0
    for seed in (1, 2):
        game = new_game(ruleset, scenario=seed % 2, seed=seed)
        players: list[Player] = (
            [TacticalPlayer(seed), TacticalPlayer(seed + 1)]
            if kind == "tactical"
            else [RandomPlayer(seed), RandomPlayer(seed + 1)]
        )
        rng = random.Random(seed)
        while not game.is_terminal():
            side = game.current_player()
            action = chance_outcome(game, rng) if side == CHANCE else players[side].choose(game)
            uid = _mover(action)
            before = {
                u.uid: (u.coords, _gap(game.units[uid], u))
                for u in game.units
                if uid is not None and u.uid != uid and not u.destroyed
            }
            game.apply_action(action)
            if uid is None or game.units[uid].destroyed:
                continue
            moves += 1
            mover = game.units[uid]
            for other_id, (coords, was) in before.items():
                other = game.units[other_id]
                if other.destroyed or other.coords != coords:
                    continue  # (it moved too: fled a shot, say)
                assert _gap(mover, other) >= min(UNIT_GAP, was) - 1e-6, (action, other.name)
    assert moves > 10
