"""Units keep 1" apart on an ordinary move, and a vehicle half its 3" hull more
(docs/rules/konflikt47.md and bolt-action-1.md: "Keeping apart on a move")."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_game_rules import new_game, only, place

from kriegsspiel.core.game import CHANCE, IllegalActionError
from kriegsspiel.core.table import Point, Table
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.candidates import order_candidates
from kriegsspiel.rulesets.bolt_action.game.close_quarters import assault_move
from kriegsspiel.rulesets.bolt_action.game.deployment import crowding
from kriegsspiel.rulesets.bolt_action.game.spacing import (
    HULL,
    UNIT_GAP,
    VEHICLE_LENGTH,
    Clearance,
    apart,
)
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


def _exempt_movers(action: Any, events: list[Any]) -> set[int]:
    """The units ``events`` (those one action logged) moved otherwise than by the
    action's own ordinary move: an assault's moves, an escape, a chase, a FUBAR panic."""
    mover = _mover(action)
    panicked = {e.data.get("unit") for e in events if e.kind == "fubar"}
    ordinary = None if mover is None else [round(action.to[0], 2), round(action.to[1], 2)]
    return {
        e.data["unit"]
        for e in events
        if e.kind == "move"
        and (e.data["unit"] != mover or e.data["to"] != ordinary or mover in panicked)
    }


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
@pytest.mark.parametrize("kind", ["random", "tactical"])
def test_players_are_offered_no_move_too_near_another_unit(ruleset: str, kind: str) -> None:
    """Whole games: after every ordinary move, the mover's models are 1" from every other
    unit's, and a vehicle's 1.5" more (or no nearer than they were: units an assault left
    in contact)."""
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
            logged = len(game.events)
            game.apply_action(action)
            if uid is None or game.units[uid].destroyed:
                continue
            if uid in _exempt_movers(action, game.events[logged:]):
                continue  # (its order test came up FUBAR: it ran in panic instead)
            moves += 1
            mover = game.units[uid]
            for other_id, (coords, was) in before.items():
                other = game.units[other_id]
                if other.destroyed or other.coords != coords:
                    continue  # (it moved too: fled a shot, say)
                kept = apart(mover, other)
                assert _gap(mover, other) >= min(kept, was) - 1e-6, (action, other.name)
    assert moves > 10


def _ending(
    game: BoltActionGame, uid: int, other: int, gap: float, way: tuple[float, float]
) -> tuple[float, float]:
    """Where unit ``uid``'s centre goes, moving ``way`` (a unit vector), for its nearest
    model to end ``gap`` from ``other``'s (found by halving, on a clone)."""
    twin = game.clone()
    start = twin.units[uid].anchor
    low, high = 0.0, _gap(twin.units[uid], twin.units[other])
    for _ in range(60):
        mid = (low + high) / 2
        place(twin.units[uid], start.x + way[0] * mid, start.y + way[1] * mid)
        low, high = (mid, high) if _gap(twin.units[uid], twin.units[other]) > gap else (low, mid)
    place(twin.units[uid], start.x + way[0] * low, start.y + way[1] * low)
    assert _gap(twin.units[uid], twin.units[other]) == pytest.approx(gap)
    return (start.x + way[0] * low, start.y + way[1] * low)


def _tanks(ruleset: str) -> tuple[BoltActionGame, int, int]:
    """Squads 1 and 2 (side 0) at (36, 10) and (26, 10), side 0's first vehicle at (56,
    10) and side 1's first tank (a tracked vehicle) at (36, 18) facing them, on an open
    table; side 0 to order. The game and the two vehicles' numbers."""
    game = new_game(ruleset)
    game.table = Table(72, 48)
    mine = next(u.uid for u in game.units if u.side == 0 and u.vehicle is not None)
    tank = next(
        u.uid
        for u in game.units
        if u.side == 1 and u.vehicle is not None and u.vehicle.kind == "tracked"
    )
    only(game, 1, 2, mine, tank)
    place(game.units[1], 36, 10, 0)
    place(game.units[2], 26, 10, 0)
    place(game.units[mine], 56, 10, 0)
    place(game.units[tank], 36, 18, 180)
    game.apply_action(Action("draw", side=0))
    assert game.current_player() == 0
    return game, mine, tank


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_a_move_ending_two_inches_from_a_tank_is_refused(ruleset: str) -> None:
    """A tank keeps others half its 3" hull farther off than 1": a squad's Advance whose
    nearest man would end 2" from the tank's centre is refused (1" would have let it), and
    one ending 2.6" from it is allowed."""
    game, _, tank = _tanks(ruleset)
    squad = game.units[1]
    assert apart(squad, game.units[tank]) == UNIT_GAP + VEHICLE_LENGTH / 2 == 2.5

    def advance_to(gap: float) -> tuple[float, float]:
        return _ending(game, 1, tank, gap, (0.0, 1.0))

    before = _state(game)
    refused = 'within 2.5" of an enemy model \\(1", and half a 3" hull for each vehicle\\)'
    with pytest.raises(IllegalActionError, match=refused):
        game.apply_action(Action("order", unit=1, order="Advance", to=advance_to(2.0)))
    assert _state(game) == before
    game.apply_action(Action("order", unit=1, order="Advance", to=advance_to(2.6)))
    assert _gap(squad, game.units[tank]) == pytest.approx(2.6)


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_two_vehicles_keep_a_hull_apart_and_a_squad_still_assaults_one(ruleset: str) -> None:
    """Two vehicles' centres keep 1" and a whole hull (4") apart on a move, a friend's as an
    enemy's; infantry's assault on a vehicle still closes to 1" of it."""
    game, mine, tank = _tanks(ruleset)
    place(game.units[tank], 56, 20, 180)
    assert apart(game.units[mine], game.units[tank]) == 4.0
    with pytest.raises(IllegalActionError, match='within 4" of an enemy model'):
        game.apply_action(Action("order", unit=mine, order="Advance", to=(56.0, 16.5)))
    clear = Clearance(game.units, game.units[mine])
    assert clear.clash(Point(56, 15.9)) is None
    short = clear.stop_short(Point(56, 20))  # the candidates' stop short of it
    assert short.y == pytest.approx(20 - 4.0 - 0.05)
    place(game.units[2], 46, 10, 0)  # a friendly squad beside it keeps 2.5" off
    beside = Clearance(game.units, game.units[2])
    assert 'end within 2.5" of a friendly model' in str(
        beside.clash(Point(*_ending(game, 2, mine, 2.4, (1.0, 0.0))))
    )
    assert beside.clash(Point(*_ending(game, 2, mine, 2.6, (1.0, 0.0)))) is None
    # the squad assaults the enemy tank: its closing move ends 1" from it
    place(game.units[tank], 36, 16, 180)
    squad = game.units[1]
    move = assault_move(game, squad, game.units[tank])
    assert move is not None and move[1].allowed
    twin = game.clone()
    place(twin.units[1], move[0].x, move[0].y)
    assert _gap(twin.units[1], twin.units[tank]) == pytest.approx(UNIT_GAP)
    game.validate(Action("order", unit=1, order="Run", target=tank))  # (the order: allowed)


def _too_near(game: BoltActionGame) -> dict[tuple[int, int], float]:
    """Every pair of live units, one of them a vehicle, nearer than a move keeps them
    (spacing.apart), with their gap."""
    live = [u for u in game.units if not u.destroyed and u.alive_models]
    found = {}
    for a in live:
        for b in live:
            if a.uid < b.uid and (a.vehicle is not None or b.vehicle is not None):
                gap = _gap(a, b)
                if gap < apart(a, b) - 1e-6:
                    found[a.uid, b.uid] = gap
    return found


@settings(
    max_examples=6,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,  # (whole games: the same few each run, chosen by hypothesis)
)
@given(
    ruleset=st.sampled_from(["konflikt47", "bolt-action-1"]),
    seed=st.integers(1, 10_000),
    kind=st.sampled_from(["random", "tactical"]),
)
def test_no_vehicle_ends_a_move_within_its_hull_of_another_model(
    ruleset: str, seed: int, kind: str
) -> None:
    """Whole games: after every action, no two live vehicles' centres are nearer than 1"
    and a hull (4"), and no vehicle nearer than 1" and half a hull (2.5") to another unit's
    model, unless an assault's, an escape's, a chase's or a panic's move brought them so
    near (which keep their own rules), and then no ordinary move brings them nearer; and
    every vehicle's hull stays on the table (its centre 1.5" in from the edge)."""
    from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
    from kriegsspiel.ai.players import Player, RandomPlayer, chance_outcome

    game = new_game(ruleset, scenario=seed % 2, seed=seed)
    assert crowding(game) == [] and _too_near(game) == {}  # the set-up keeps them apart
    players: list[Player] = (
        [TacticalPlayer(seed), TacticalPlayer(seed + 1)]
        if kind == "tactical"
        else [RandomPlayer(seed), RandomPlayer(seed + 1)]
    )
    rng = random.Random(seed)
    excused: dict[tuple[int, int], float] = {}  # pairs an exempt move left near: their gap
    moved = 0
    while not game.is_terminal():
        side = game.current_player()
        action = chance_outcome(game, rng) if side == CHANCE else players[side].choose(game)
        logged = len(game.events)
        game.apply_action(action)
        exempt = _exempt_movers(action, game.events[logged:])
        moved += _mover(action) is not None
        for unit in game.units:  # a vehicle's hull stays on the table
            if unit.vehicle is not None and not unit.destroyed:
                x, y = unit.anchor.x, unit.anchor.y
                width, height = game.table.width, game.table.height
                assert min(x, y, width - x, height - y) >= HULL - 1e-9, (action, unit.name)
        near = _too_near(game)
        for pair, gap in near.items():
            if exempt & set(pair):
                excused[pair] = gap
                continue
            assert pair in excused, (action, [game.units[u].name for u in pair], gap)
            assert gap >= excused[pair] - 1e-6, (action, pair)  # kept its distance, or away
            excused[pair] = gap
        excused = {pair: gap for pair, gap in excused.items() if pair in near}
    assert moved > 10
