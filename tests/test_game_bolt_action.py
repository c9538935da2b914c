"""The Bolt Action family game engine: conformance, replays, illegal actions, golden rolls.

1. Conformance: seeded random playouts of both rulesets on both sample scenarios, every
   invariant checked after every single action (a stepping loop, not ``play``).
2. Records: a game's record replays byte for byte; a tampered record names its first bad line.
3. Illegal actions raise ``IllegalActionError`` and change nothing.
4. Golden situations on a hand-laid table with scripted dice: a shooting, a tank knocked
   out into a wreck, a FUBAR panic.
5. The simulator agrees with the exact odds (within 4 standard errors).
6. The tactical player beats the random player.

Run the long versions with ``pytest -m slow tests/test_game_bolt_action.py``.
"""

from __future__ import annotations

import gc
import json
import math
import os
import pickle
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import pytest
from conftest import bernoulli_ok, within_se

import kriegsspiel
from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.players import RandomPlayer, chance_outcome, play
from kriegsspiel.core.game import CHANCE, TERMINAL, IllegalActionError
from kriegsspiel.core.procedure import RandomDice, ScriptedDice
from kriegsspiel.core.records import dumps, read_lines, write_record
from kriegsspiel.core.scenario import Scenario, load_scenario, sample_scenarios
from kriegsspiel.core.table import Point, Table, TerrainFeature, rectangle
from kriegsspiel.rulesets.bolt_action.army import ArmyList, load_army, parse_army, sample_armies
from kriegsspiel.rulesets.bolt_action.attack import TroopsContext, exact_troops, exact_vehicle
from kriegsspiel.rulesets.bolt_action.game import record
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.table_rules import check_move
from kriegsspiel.rulesets.bolt_action.game.units import UnitState, formation
from kriegsspiel.rulesets.bolt_action.morale import new_test

RULESETS = ("konflikt47", "bolt-action-1")
SCENARIOS = tuple(p.name for p in sample_scenarios())
COMBINATIONS = [(r, s) for r in RULESETS for s in SCENARIOS]
FAST_GAMES = 15  # random playouts per ruleset and scenario in the fast suite (60 in all)
SLOW_GAMES = 1000  # ... and in the slow one (2,000 a ruleset)
ACTIONS_PER_UNIT_TURN = 5  # a draw, an order, an ambush, a reaction: the bound is generous
# whether a unit destroyed during a turn leaves its order die in the cup until the turn end
# (Bolt Action 1st edition's sheet 002, turn end phase) or takes it out at once (Konflikt '47)
DICE_STAY_TILL_TURN_END = {"konflikt47": False, "bolt-action-1": True}


# ----------------------------------------------------------------------------- set-up helpers
@cache
def scenario_path(name: str) -> Path:
    return next(p for p in sample_scenarios() if p.name == name)


@cache
def scenario(name: str) -> Scenario:
    return load_scenario(scenario_path(name))


@cache
def armies(ruleset: str) -> tuple[ArmyList, ArmyList]:
    first, second = (load_army(p, ruleset) for p in sample_armies(ruleset)[:2])
    return first, second


def new_game(ruleset: str, scenario_name: str, seed: int) -> BoltActionGame:
    return BoltActionGame(ruleset, scenario(scenario_name), armies(ruleset), seed=seed)


def only(army: ArmyList, *names: str) -> ArmyList:
    """The list cut down to the named units (in that order)."""
    units = tuple(next(u for u in army.units if u.name == n) for n in names)
    return army.model_copy(update={"units": units, "points": sum(u.points for u in units)})


def small_game(ruleset: str, side0: Sequence[str], side1: Sequence[str]) -> BoltActionGame:
    """A game of the named units only, on an empty table (terrain is added by each test)."""
    a, b = armies(ruleset)
    game = BoltActionGame(
        ruleset, scenario("meeting-engagement.yaml"), (only(a, *side0), only(b, *side1)), seed=1
    )
    game.table = Table(72.0, 48.0)
    return game


def place(unit: UnitState, x: float, y: float, heading: float) -> None:
    """Put a unit on the table by hand: its formation centred on (x, y), facing ``heading``."""
    unit.heading = heading
    spots = [Point(x, y)] if unit.vehicle else formation(len(unit.models), Point(x, y), heading)
    for model, spot in zip(unit.models, spots, strict=True):
        model.x, model.y = spot.x, spot.y


def named(game: BoltActionGame, side: int, name: str) -> UnitState:
    return next(u for u in game.units if u.side == side and u.name == name)


def unit_state(u: UnitState) -> tuple[Any, ...]:
    return (
        u.destroyed,
        u.order,
        u.retained,
        u.pins,
        u.moved,
        u.heading,
        u.immobilised,
        u.ranged_in_on,
        tuple((m.x, m.y, m.alive, m.used_one_shot) for m in u.models),
    )


def snapshot(game: BoltActionGame) -> tuple[Any, ...]:
    """Everything an action may change: units, turn, whose move, the table, the log."""
    return (
        tuple(unit_state(u) for u in game.units),
        game.turn,
        game.drawn,
        repr(game.pending),
        game.over,
        len(game.events),
        game.table.features,
    )


class _Offer:
    """What a player sees: the side deciding, and the legal actions already computed (and
    checked) by the harness."""

    def __init__(self, side: int, actions: list[Action]) -> None:
        self._side, self._actions = side, actions

    def current_player(self) -> int:
        return self._side

    def legal_actions(self) -> list[Action]:
        return self._actions


# ----------------------------------------------------------------------------- 1. conformance
UNIT_KEYS = ("unit", "target", "attacker", "defender", "away_from")


class Invariants:
    """Checks a game after every action; fails with the seed and the offending event."""

    def __init__(self, game: BoltActionGame, label: str) -> None:
        self.game, self.label = game, label
        self.alive = [len(u.alive_models) for u in game.units]
        self.frozen: dict[int, tuple[Any, ...]] = {}  # a destroyed unit's last state
        self.logged_dead: set[int] = set()
        self.seen = 0
        # the units whose dice went into the cup as the turn began: all live ones keeping no
        # die; worked out again from the log at each turn end (see scan_events)
        self.put_in = {u.uid for u in game.units if not u.destroyed and u.retained is None}
        self.max_actions = ACTIONS_PER_UNIT_TURN * len(game.units) * game.scenario.turns
        specs = [spec for army in armies(game.ruleset) for spec in army.units]
        assert [u.name for u in game.units] == [spec.name for spec in specs], label
        for u, spec in zip(game.units, specs, strict=True):  # the lists' own figure counts
            assert u.start_models == len(u.models) == (spec.model_count or 1), label
        self.after_action(None)

    def fail(self, what: str) -> str:
        last = self.game.events[-1].to_json() if self.game.events else None
        return f"{self.label}: {what} (turn {self.game.turn}, last event {last})"

    def unordered(self) -> list[int]:
        """Live units of each side without an order or a kept die (those still to act)."""
        return [
            sum(
                1
                for u in self.game.units
                if u.side == s and not u.destroyed and u.order is None and u.retained is None
            )
            for s in (0, 1)
        ]

    def in_hand(self, side: int) -> int:
        """1 if a die of ``side`` is drawn and not yet given to a unit."""
        game = self.game
        return int(game.drawn == side and game.pending is None and not game.over)

    def given(self) -> list[int]:
        """Dice taken out of the cup this turn, by side: those of the units it began with
        that have an order now (destroyed since or not), and a die drawn and not yet given."""
        units = self.game.units
        return [
            sum(1 for uid in self.put_in if units[uid].side == s and units[uid].order is not None)
            + self.in_hand(s)
            for s in (0, 1)
        ]

    def bag(self) -> list[int]:
        """Dice still in the bag, counted from the units and the log, not the engine's count.

        Bolt Action 1st edition: the dice put in as the turn began less those taken out, so
        the die of a unit destroyed this turn stays until the turn end. Konflikt '47: one
        per live unit without an order or a kept die."""
        if not DICE_STAY_TILL_TURN_END[self.game.ruleset]:
            return self.unordered()
        units = self.game.units
        put_in = [sum(1 for uid in self.put_in if units[uid].side == s) for s in (0, 1)]
        return [put_in[s] - self.given()[s] for s in (0, 1)]

    def after_action(self, action: Action | None) -> None:
        game = self.game
        # (the last fixed turn, or the one more a roll of another_turn_on adds: never past)
        last = game.scenario.most_turns
        assert game.turn <= last, self.fail("turn beyond the scenario's last")
        for u in game.units:
            alive = len(u.alive_models)
            assert u.pins >= 0, self.fail(f"{u.name} has {u.pins} pins")
            assert alive <= u.start_models, self.fail(f"{u.name} has more models than it began")
            assert alive <= self.alive[u.uid], self.fail(f"{u.name} gained models after {action}")
            self.alive[u.uid] = alive
            if u.uid in self.frozen:
                assert u.destroyed, self.fail(f"{u.name} came back from destruction")
                assert unit_state(u) == self.frozen[u.uid], self.fail(
                    f"{u.name} changed after it was destroyed ({action})"
                )
            elif u.destroyed:
                self.frozen[u.uid] = unit_state(u)
            if not u.destroyed:
                assert alive >= 1, self.fail(f"{u.name} has no models but is not destroyed")
            elif u.vehicle is None:
                assert alive == 0, self.fail(f"destroyed {u.name} still has models")
            for m in u.alive_models:
                assert game.table.contains(m.point), self.fail(
                    f"{u.name}'s {m.name} is off the table at ({m.x:.2f}, {m.y:.2f})"
                )
        self.scan_events()
        assert [len(game.eligible(s)) for s in (0, 1)] == self.unordered(), self.fail("eligible")
        in_bag = self.bag()
        assert list(game.dice_in_cup()) == in_bag, self.fail(f"bag {game.dice_in_cup()}")
        assert game.observation()["dice_in_bag"] == in_bag, self.fail("observed bag")
        assert all(n >= 0 for n in in_bag), self.fail(f"a bag of {in_bag}")
        if DICE_STAY_TILL_TURN_END[game.ruleset]:
            # dice in the bag plus dice given = the units that put a die in as the turn began
            put_in = [sum(1 for uid in self.put_in if game.units[uid].side == s) for s in (0, 1)]
            assert [b + g for b, g in zip(in_bag, self.given(), strict=True)] == put_in, self.fail(
                "bag and given vs the dice put in"
            )
        assert self.logged_dead == set(self.frozen), self.fail("destroyed units vs the log")

    def scan_events(self) -> None:
        """No destroyed unit appears in a later event; a unit is destroyed only once."""
        events = self.game.events
        turn_ended = False
        after_turn_end: set[int] = set()  # destroyed as the next turn began (a barrage)
        for event in events[self.seen :]:
            if event.kind == "turn end":
                turn_ended = True
            if event.kind == "destroyed":
                uid = event.data["unit"]
                assert uid not in self.logged_dead, self.fail(f"unit {uid} destroyed twice")
                self.logged_dead.add(uid)
                if turn_ended:
                    after_turn_end.add(uid)
                continue
            for key in UNIT_KEYS:
                uid = event.data.get(key)
                assert not (isinstance(uid, int) and uid in self.logged_dead), self.fail(
                    f"destroyed unit {uid} appears as {key!r} in {event.to_json()}"
                )
        self.seen = len(events)
        if turn_ended:  # the dice went back into the cup: every live unit's but a kept one's
            self.put_in = {
                u.uid
                for u in self.game.units
                if u.retained is None and (not u.destroyed or u.uid in after_turn_end)
            }

    def chance_node(self) -> list[tuple[Action, float]]:
        game = self.game
        outcomes = game.chance_outcomes()
        in_bag = self.bag()
        # a side with dice in the bag but no unit left to order is not drawn
        drawn_among = [s for s in (0, 1) if self.unordered()[s]]
        assert all(in_bag[s] >= self.unordered()[s] for s in (0, 1)), self.fail("dice < units")
        total = sum(in_bag[s] for s in drawn_among)
        assert total > 0, self.fail("a chance node with an empty bag")
        assert math.isclose(sum(p for _, p in outcomes), 1.0), self.fail("chances sum")
        assert all(p > 0 for _, p in outcomes), self.fail("a zero-chance outcome is offered")
        assert {a.side: p for a, p in outcomes} == {s: in_bag[s] / total for s in drawn_among}, (
            self.fail(f"draw chances {outcomes} for a bag of {in_bag}")
        )
        assert game.legal_actions() == [a for a, _ in outcomes], self.fail("chance actions")
        return outcomes

    def decision_node(self, player: int) -> list[Action]:
        game = self.game
        assert player in (0, 1), self.fail(f"current player {player}")
        assert game.chance_outcomes() == [], self.fail("chance outcomes at a decision node")
        actions = game.legal_actions()
        assert actions, self.fail(f"no legal action for side {player}")
        before = snapshot(game)
        for action in actions:
            try:
                game.validate(action)
            except IllegalActionError as exc:
                raise AssertionError(self.fail(f"legal {action} fails validate: {exc}")) from exc
        assert snapshot(game) == before, self.fail("validate changed the state")
        if game.pending is None:
            mine = {u.uid for u in game.eligible(player)}
            assert mine, self.fail(f"side {player} to order but has no die in the bag")
            assert all(a.kind == "order" and a.unit in mine for a in actions), self.fail(
                "an order for a unit not in the bag"
            )
        elif game.pending.kind == "retain":  # at a turn's end: keep a Down or Ambush die?
            unit = game.units[game.pending.target]
            assert unit.side == player and not unit.destroyed, self.fail("retain: whose unit")
            assert "Down" in (unit.order, unit.retained) or "Ambush" in (
                unit.order,
                unit.retained,
            ), self.fail(f"retain: {unit.name} holds no Down or Ambush order")
            assert {a.choice for a in actions} == {"keep", "return"}, self.fail("retain choices")
        elif game.pending.kind == "friendly-fire":  # the friend a FUBAR unit fires at
            firer = game.units[game.pending.target]
            assert firer.side != player and firer.order == "Fire", self.fail("friendly fire")
            assert len(actions) >= 2, self.fail("friendly fire asked with one target or none")
            for a in actions:
                assert a.kind == "friendly fire" and a.target is not None, self.fail("ff kind")
                friend = game.units[a.target]
                assert friend.side == firer.side and friend is not firer, self.fail("ff side")
                assert not friend.destroyed, self.fail("friendly fire at a destroyed unit")
                assert any(
                    game.gap(friend, e) <= 12
                    for e in game.units
                    if e.side == player and not e.destroyed
                ), self.fail(f'friendly fire at {friend.name}: no enemy within 12"')
        else:
            assert all(a.kind in ("react", "ambush") for a in actions), self.fail("pending")
        return actions

    def terminal(self) -> None:
        game = self.game
        assert game.current_player() == TERMINAL
        assert game.legal_actions() == [] and game.chance_outcomes() == []
        returns = game.returns()
        assert sum(returns) == 0, self.fail(f"returns {returns} do not sum to 0")
        assert set(returns) <= {-1.0, 0.0, 1.0}
        a, b = game.score()
        left = [any(not u.destroyed for u in game.units if u.side == s) for s in (0, 1)]
        if left[0] != left[1]:  # a side wiped out loses, whatever the score
            assert returns[0] == (1 if left[0] else -1), self.fail(f"returns {returns}: wiped out")
        else:
            assert returns[0] == (a > b) - (a < b), self.fail(f"returns {returns} for {a}-{b}")
        assert game.events[-1].kind == "game over"
        with pytest.raises(IllegalActionError):
            game.apply_action(Action("draw", side=0))


def test_a_game_of_the_most_turns_and_units_ends_within_the_actions_a_game_may_take(
    tmp_path: Path,
) -> None:
    """A scenario's most turns with two lists of the most units, at the generous bound of
    actions a unit takes a turn the random playouts check, is within the engine's limit; and
    a game of the most turns whose armies cannot harm each other (tanks with machine guns
    only) plays out to its last turn, where it once ran out of actions with a traceback."""
    from kriegsspiel.ai.players import MAX_ACTIONS
    from kriegsspiel.core.scenario import MOST_TURNS
    from kriegsspiel.rulesets.bolt_action.army import MOST_UNITS
    from kriegsspiel.sim.matchup import build_matchup, play_game

    assert ACTIONS_PER_UNIT_TURN * 2 * MOST_UNITS * MOST_TURNS <= MAX_ACTIONS
    hulk = (
        "  - {{name: Hulk {}, type: vehicle, quality: regular, points: 100, vehicle: {{kind: "
        "tracked, damage_value_of: heavy tank, weapons: [{{weapon: MMG, facing: front}}]}}}}\n"
    )
    hulks = tmp_path / "hulks.yaml"
    hulks.write_text(
        "name: Hulks\nruleset: konflikt47\nfaction: Nobody\npoints: 1000\nunits:\n"
        + "".join(hulk.format(i) for i in range(10))
    )
    scenario = tmp_path / "long.yaml"
    shipped = next(p for p in sample_scenarios() if p.name == "meeting-engagement.yaml")
    scenario.write_text(shipped.read_text().replace("turns: 6", f"turns: {MOST_TURNS}"))
    matchup = build_matchup(None, str(scenario), [str(hulks), str(hulks)], "random,random")
    game = play_game(matchup, 1)
    assert game.is_terminal() and game.turn == MOST_TURNS
    assert not any(u.destroyed for u in game.units)


def random_playout(
    ruleset: str, scenario_name: str, seed: int, game: BoltActionGame | None = None
) -> BoltActionGame:
    """One seeded random game, every invariant checked after every action."""
    game = game or new_game(ruleset, scenario_name, seed)
    checks = Invariants(game, f"{ruleset} {scenario_name} seed {seed}")
    rng = random.Random(seed)
    players = (RandomPlayer(seed), RandomPlayer(seed + 1))
    for _ in range(checks.max_actions):
        if game.is_terminal():
            break
        player = game.current_player()
        if player == CHANCE:
            checks.chance_node()
            action = chance_outcome(game, rng)
        else:
            action = players[player].choose(_Offer(player, checks.decision_node(player)))
        game.apply_action(action)
        checks.after_action(action)
    assert game.is_terminal(), checks.fail(f"not over after {checks.max_actions} actions")
    checks.terminal()
    return game


def _playout_summary(args: tuple[str, str, int]) -> tuple[float, ...]:
    game = random_playout(*args)
    return (*game.returns(), len(game.events), sum(u.destroyed for u in game.units))


@pytest.mark.parametrize(("ruleset", "scenario_name"), COMBINATIONS)
def test_random_playouts_keep_every_invariant(ruleset: str, scenario_name: str) -> None:
    jobs = [(ruleset, scenario_name, seed) for seed in range(FAST_GAMES)]
    outcomes = run_in_pool(_playout_summary, jobs)  # every invariant checked after every action
    assert len(outcomes) == FAST_GAMES
    # the seeds give different games, and something happens in them
    assert len({o[2] for o in outcomes}) > 1
    assert any(o[3] for o in outcomes)


def test_howitzers_play_out_and_fire_indirectly() -> None:
    """The sample lists with light howitzers for mortars: games keep every invariant, and
    the howitzers lob shells once ranged in (no sample list carries a howitzer). A howitzer
    is a gun, so its unit is artillery (a team carrying one is refused: docs/rules, "Who
    carries what")."""
    ruleset, name = "bolt-action-1", "meeting-engagement.yaml"
    texts = [
        re.sub(r"(Mortar Team\n    type:) team", r"\1 artillery", p.read_text()).replace(
            "Medium mortar", "Light howitzer"
        )
        for p in sample_armies(ruleset)[:2]
    ]
    assert all(t.count("type: artillery") == 2 for t in texts)  # the AT gun and the howitzer
    lists = [parse_army(t, "howitzer list", ruleset) for t in texts]
    lobbed = 0

    def spying(game: BoltActionGame) -> BoltActionGame:
        attack = game.resolve_attack

        def spy(unit: Any, tgt: Any, groups: Any, **kw: Any) -> None:
            nonlocal lobbed
            lobbed += any(g.shot.indirect and g.shot.weapon == "Light howitzer" for g in groups)
            attack(unit, tgt, groups, **kw)

        game.resolve_attack = spy  # type: ignore[method-assign]
        return game

    for seed in range(24):  # random players lob a shell in a few games in six
        game = BoltActionGame(ruleset, scenario(name), (lists[0], lists[1]), seed=seed)
        random_playout(ruleset, name, seed, spying(game))
    assert lobbed > 0


def test_the_stepping_loop_is_play() -> None:
    """The harness plays the same game as ``kriegsspiel.ai.players.play`` for the same seeds."""
    ruleset, name, seed = "konflikt47", "meeting-engagement.yaml", 3
    stepped = random_playout(ruleset, name, seed)
    played = play(new_game(ruleset, name, seed), [RandomPlayer(seed), RandomPlayer(seed + 1)], seed)
    assert [e.to_json() for e in played.events] == [e.to_json() for e in stepped.events]


@pytest.mark.parametrize(("ruleset", "scenario_name"), COMBINATIONS)
def test_side_0_deploys_in_the_first_zone_the_scenario_lists(
    ruleset: str, scenario_name: str
) -> None:
    game = new_game(ruleset, scenario_name, 0)
    for side, zone in enumerate(game.scenario.deployment[:2]):
        assert zone.side == game.scenario.sides()[side]
        xs, ys = [p[0] for p in zone.polygon], [p[1] for p in zone.polygon]
        for u in (u for u in game.units if u.side == side):
            for m in u.models:
                assert min(xs) <= m.x <= max(xs) and min(ys) <= m.y <= max(ys), (side, u.name)
    # so a withdrawal (towards the side's own edge) leads away from the enemy
    assert all(u.anchor.y < 24 for u in game.units if u.side == 0)


def run_in_pool(fn: Callable[[Any], Any], jobs: Iterable[Any]) -> list[Any]:
    workers = max(1, min(4, os.cpu_count() or 1))
    with ProcessPoolExecutor(workers, mp_context=get_context("fork")) as pool:
        return list(pool.map(fn, jobs, chunksize=4))


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "scenario_name"), COMBINATIONS)
def test_many_random_playouts_keep_every_invariant(ruleset: str, scenario_name: str) -> None:
    jobs = [(ruleset, scenario_name, 1000 + seed) for seed in range(SLOW_GAMES)]
    results = run_in_pool(_playout_summary, jobs)
    wins = Counter(r[0] for r in results)
    print(f"{ruleset} {scenario_name}: {len(results)} games, side 0 results {dict(wins)}")
    assert len(results) == SLOW_GAMES


# ----------------------------------------------------------------------------- 2. records
def played_record(ruleset: str, name: str, seed: int, path: Path) -> str:
    """Play a seeded game with two random players and write its record; return the text."""
    scen_text = scenario_path(name).read_text(encoding="utf-8")
    army_texts = tuple(p.read_text(encoding="utf-8") for p in sample_armies(ruleset)[:2])
    game = new_game(ruleset, name, seed)
    play(game, [RandomPlayer(seed), RandomPlayer(seed + 1)], seed=seed)
    head = record.header(game, scen_text, (army_texts[0], army_texts[1]), ("random", "random"))
    return write_record(path, head, game.events)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_record_replays_and_is_reproducible(ruleset: str, tmp_path: Path) -> None:
    name = "hold-the-crossroads.yaml"
    text = played_record(ruleset, name, 11, tmp_path / "a.jsonl")
    again = played_record(ruleset, name, 11, tmp_path / "b.jsonl")
    other = played_record(ruleset, name, 12, tmp_path / "c.jsonl")
    assert again == text  # byte for byte
    assert other != text  # the seed matters
    head, *events = read_lines(tmp_path / "a.jsonl").rows
    assert head["seed"] == 11 and events[-1]["event"] == "game over"
    result = record.replay(tmp_path / "a.jsonl")
    assert result.reproduced, (result.first_difference, result.expected, result.actual)
    assert result.events == len(events) and result.first_difference is None


def test_a_record_made_with_other_rules_data_that_does_not_reproduce_says_so(
    tmp_path: Path,
) -> None:
    """A record keeps the version and the rules data it was made with; when it no longer
    reproduces, the replay names what differs, which may be why (a rule fixed since)."""
    from typer.testing import CliRunner

    from kriegsspiel.cli import app

    path = tmp_path / "game.jsonl"
    rows = [
        json.loads(line)
        for line in played_record("konflikt47", "meeting-engagement.yaml", 3, path).splitlines()
    ]
    at = next(i for i, row in enumerate(rows) if row.get("event") == "order test")
    rows[at]["result"] = "a different roll"  # as a rule changed since would make it
    rows[0].update(kriegsspiel="0.0.1", rules_data_sha256="0" * 64)
    path.write_text("".join(dumps(row) + "\n" for row in rows), encoding="utf-8")
    result = record.replay(path)
    assert not result.reproduced and result.first_difference == at + 1
    assert result.made_otherwise == (
        f"kriegsspiel 0.0.1 (this is {kriegsspiel.__version__}) and other rules data than "
        "this version ships"
    )
    said = CliRunner().invoke(app, ["replay", str(path)])
    assert said.exit_code == 1
    assert "The record was made with kriegsspiel 0.0.1" in said.output
    rows[0].update(
        kriegsspiel=kriegsspiel.__version__,
        rules_data_sha256=record.rules_data_sha256("konflikt47"),
    )
    path.write_text("".join(dumps(row) + "\n" for row in rows), encoding="utf-8")
    assert record.replay(path).made_otherwise == ""  # made as this one: nothing to name


def test_a_record_cut_short_or_with_a_broken_line_says_so(tmp_path: Path) -> None:
    """A record read back is checked like any file given: a field of the wrong kind names
    its line; a decision that is not legal where it stands is where the replay parts from
    the record; a record cut short reproduces as far as it goes, and says it stops early."""
    from kriegsspiel.errors import DataFileError

    path = tmp_path / "game.jsonl"
    lines = played_record("konflikt47", "meeting-engagement.yaml", 3, path).splitlines()
    assert record.replay(path).finished
    rows = [json.loads(line) for line in lines]
    first = next(i for i, row in enumerate(rows) if row.get("event") == "order")

    def changed(line: int, **fields: object) -> Path:
        copy = [dict(row) for row in rows]
        copy[line].update(fields)
        out = tmp_path / "changed.jsonl"
        out.write_text("".join(dumps(row) + "\n" for row in copy), encoding="utf-8")
        return out

    for line, fields, said in [
        (first, {"unit": "x"}, f"line {first + 1}, field unit: should be a whole number, not the"),
        (first, {"to": "far"}, f"line {first + 1}, field to: should be a list, not the text 'far'"),
        (0, {"seed": "x"}, "line 1, field seed: should be a whole number, not the text 'x'"),
        (0, {"seed": -4}, "line 1, field seed: must be 0 or more (not -4)"),
        (
            0,
            {"ruleset": "chess"},
            "line 1, field ruleset: 'chess' is not one of the choices here; give 'konflikt47' or",
        ),
        (0, {"armies": ["one list"]}, "line 1, field armies.1: missing: it must be given here"),
        (
            0,
            {"players": ["minimax", "tactical"]},
            "line 1, field players.0: 'minimax' is not one of the choices here; give",
        ),
    ]:
        with pytest.raises(DataFileError, match=re.escape(said)):
            record.replay(changed(line, **fields))
    illegal = record.replay(changed(first, unit=99))
    assert not illegal.reproduced and illegal.first_difference == first + 1
    assert illegal.actual == "(not legal here: there is no unit 99)"
    # cut before the draw that follows the first order (all that order brought is kept)
    end = next(i for i in range(first + 1, len(rows)) if rows[i].get("event") == "draw")
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:end]) + "\n", encoding="utf-8")
    short = record.replay(cut)
    assert short.reproduced and not short.finished and short.events == end - 1


@pytest.mark.parametrize("field", ["hits", "casualties"])
def test_a_tampered_record_names_its_first_bad_line(field: str, tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    text = played_record("bolt-action-1", "meeting-engagement.yaml", 5, path)
    lines = text.splitlines()
    rows = read_lines(path).rows
    number = next(  # (a shot with the field of its own, not only in its weapons' parts)
        i for i, row in enumerate(rows) if row.get("event") == "shoot" and field in row
    )
    row = dict(rows[number])
    row[field] += 1
    lines[number] = dumps(row)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = record.replay(path)
    assert not result.reproduced
    assert result.first_difference == number + 1  # 1-based, the header is line 1
    assert result.expected == lines[number]
    assert result.actual == text.splitlines()[number]


# ----------------------------------------------------------------------------- 3. illegal actions
@pytest.fixture
def table_game() -> BoltActionGame:
    """Bolt Action, the meeting engagement's farm; side 0 has drawn a die."""
    game = new_game("bolt-action-1", "meeting-engagement.yaml", 7)
    game.apply_action(Action("draw", side=0))
    return game


def dice_state(game: BoltActionGame) -> str:
    dice: Any = game.dice
    return repr(dice.rng.bit_generator.state if isinstance(dice, RandomDice) else dice.remaining)


def assert_illegal(game: BoltActionGame, action: Action, match: str) -> None:
    """The action raises, and the units, the turn, the log, the table and the dice are as were."""
    before, dice_before = snapshot(game), dice_state(game)
    with pytest.raises(IllegalActionError, match=match):
        game.apply_action(action)
    assert snapshot(game) == before
    assert dice_state(game) == dice_before


def test_an_order_while_a_die_must_be_drawn_is_illegal() -> None:
    game = new_game("bolt-action-1", "meeting-engagement.yaml", 7)
    assert game.current_player() == CHANCE
    squad = named(game, 0, "1st Section")
    assert_illegal(game, Action("order", unit=squad.uid, order="Down"), "drawn")
    assert_illegal(game, Action("draw", side=2), "a draw names the side .*: 0 or 1, not 2")


def test_the_wrong_side_cannot_give_an_order(table_game: BoltActionGame) -> None:
    enemy = named(table_game, 1, "1st Grenadier Squad")
    assert table_game.current_player() == 0
    assert_illegal(table_game, Action("order", unit=enemy.uid, order="Down"), "side 1")


def test_a_unit_with_an_order_cannot_take_another(table_game: BoltActionGame) -> None:
    game = table_game
    squad = named(game, 0, "1st Section")
    game.apply_action(Action("order", unit=squad.uid, order="Down"))
    game.apply_action(Action("draw", side=0))
    assert game.current_player() == 0 and squad.order == "Down"
    assert_illegal(game, Action("order", unit=squad.uid, order="Rally"), "already has an order")
    assert_illegal(
        game, Action("order", unit=squad.uid, order="Advance", to=(squad.anchor.x, 14.0)), "already"
    )


def test_a_tank_cannot_drive_into_a_building_or_beyond_its_move(
    table_game: BoltActionGame,
) -> None:
    game = table_game
    tank = named(game, 0, "M4 Sherman")
    place(tank, 27.5, 14.0, 0.0)  # south of the farmhouse (24-31 x 20-27), facing it
    into_house = Action("order", unit=tank.uid, order="Advance", to=(27.5, 22.0))
    assert_illegal(game, into_house, "Farmhouse")
    place(tank, 70.0, 4.0, 0.0)  # open ground along the east edge
    assert_illegal(game, Action("order", unit=tank.uid, order="Advance", to=(70.0, 13.5)), "beyond")
    assert_illegal(game, Action("order", unit=tank.uid, order="Run", to=(70.0, 22.5)), "beyond")
    game.validate(Action("order", unit=tank.uid, order="Advance", to=(70.0, 12.9)))  # 8.9"
    game.validate(Action("order", unit=tank.uid, order="Run", to=(70.0, 21.9)))  # 17.9"


def test_no_model_may_end_a_move_off_the_table(table_game: BoltActionGame) -> None:
    squad = named(table_game, 0, "1st Section")
    place(squad, 36.0, 4.0, 180.0)  # facing the south edge: front rank at y=4, rear at y=5
    to_edge = Action("order", unit=squad.uid, order="Advance", to=(36.0, 0.2))
    assert table_game.table.contains(Point(*to_edge.to))  # the centre would be on the table
    assert_illegal(table_game, to_edge, "off the table")
    table_game.validate(Action("order", unit=squad.uid, order="Advance", to=(36.0, 1.6)))


def test_a_target_out_of_sight_or_range_is_illegal(table_game: BoltActionGame) -> None:
    game = table_game
    riflemen = named(game, 0, "2nd Section")
    enemy = named(game, 1, "1st Grenadier Squad")
    place(riflemen, 27.5, 14.0, 0.0)
    place(enemy, 27.5, 33.0, 180.0)  # 19" away, the farmhouse in between
    fire = Action("order", unit=riflemen.uid, order="Fire", target=enemy.uid)
    assert not game.visible(riflemen, enemy)
    assert_illegal(game, fire, "out of sight or range")
    place(riflemen, 70.0, 4.0, 0.0)  # open ground along the east edge
    place(enemy, 70.0, 36.0, 180.0)  # in plain sight, 32" away: beyond the Bren (30")
    assert game.visible(riflemen, enemy) and game.gap(riflemen, enemy) == pytest.approx(32.0)
    assert_illegal(game, fire, "out of sight or range")
    place(enemy, 70.0, 26.0, 180.0)  # 22": now it is legal
    game.validate(fire)
    friend = named(game, 0, "1st Section")
    assert_illegal(
        game, Action("order", unit=riflemen.uid, order="Fire", target=friend.uid), "same"
    )


# ----------------------------------------------------------------------------- 4. golden rolls
LMG, RIFLE = "Light machine gun (LMG)", "Rifle"


def squads_at_20_inches() -> tuple[BoltActionGame, UnitState, UnitState]:
    """Bolt Action: a British section 20" from a German squad, open ground, no officers."""
    game = small_game("bolt-action-1", ["1st Section"], ["1st Grenadier Squad"])
    section, squad = game.units
    place(section, 36.0, 10.0, 0.0)
    place(squad, 36.0, 30.0, 180.0)
    assert game.gap(section, squad) == pytest.approx(20.0)
    return game, section, squad


def fire_order(game: BoltActionGame, unit: UnitState, target: UnitState, rolls: list[int]) -> None:
    """``unit`` fires at ``target`` with the dice ``rolls``; the target, asked (it has no
    order yet), does not go Down."""
    game.dice = ScriptedDice(rolls)
    game.apply_action(Action("draw", side=unit.side))
    game.apply_action(Action("order", unit=unit.uid, order="Fire", target=target.uid))
    if game.pending is not None and game.pending.kind == "shot-reaction":
        game.apply_action(Action("react", side=target.side, unit=target.uid, choice="none"))
    assert game.dice.remaining == []  # type: ignore[attr-defined]


def test_a_shooting_rolled_die_by_die() -> None:
    game, section, squad = squads_at_20_inches()
    groups = game.shooting_groups(section, squad, moving=False)
    # the corporal's SMG (12") is out of range; Bren and rifles at long range need 4+
    assert [(g.shot.weapon, g.shots, g.shot.hit_on, g.shot.damage_need) for g in groups] == [
        (LMG, 3, (4,), 4),
        (RIFLE, 8, (4,), 4),
    ]
    far_first = sorted(
        (m for m in squad.models if m.name == "Grenadier"),
        key=lambda m: -m.point.distance_to(section.anchor),
    )
    # Bren: hit+kill, miss, hit+save. Rifles: hit+kill, miss, miss, hit+kill, hit+save,
    # miss, miss, hit+kill. No order test: the section has no pins.
    bren, rifles = [4, 4, 2, 6, 3], [5, 5, 1, 3, 4, 6, 6, 1, 2, 2, 5, 4]
    fire_order(game, section, squad, [*bren, *rifles])
    shot = game.events[-1].to_json()
    assert shot == {
        "event": "shoot",
        "turn": 1,
        "unit": section.uid,
        "target": squad.uid,
        "shots": 11,
        "weapons": [  # each weapon's shots and hits, as the dice above fell, and the
            # 4+ they needed: the base 3+, -1 at long range; and those dice, to hit and,
            # of the hits, to damage
            {
                "weapon": LMG,
                "shots": 3,
                "hits": 2,
                "needs": 4,
                "modifiers": {"long_range": -1},
                "hit_dice": (4, 2, 6),
                "damage_dice": (4, 3),
                "damage_needs": 4,
            },
            {
                "weapon": RIFLE,
                "shots": 8,
                "hits": 4,
                "needs": 4,
                "modifiers": {"long_range": -1},
                "hit_dice": (5, 1, 3, 4, 6, 2, 2, 5),
                "damage_dice": (5, 6, 1, 4),
                "damage_needs": 4,
            },
        ],
        "hits": 6,
        "casualties": 4,
        "pins": 1,
    }
    assert squad.pins == 1 and not squad.destroyed and section.order == "Fire"
    dead = [m for m in squad.models if not m.alive]
    assert [m.name for m in dead] == ["Grenadier"] * 4  # riflemen go first
    assert {id(m) for m in dead} == {id(m) for m in far_first[:4]}  # the furthest of them
    assert sum(m.alive for m in squad.models) == 6  # 6 of 10 left: no morale check
    assert not any(e.kind == "morale check" for e in game.events)


@pytest.mark.parametrize(("morale_roll", "passed"), [([3, 3], True), ([5, 5], False)])
def test_a_heavy_shooting_keeps_the_nco_to_last(morale_roll: list[int], passed: bool) -> None:
    game, section, squad = squads_at_20_inches()
    # every shot hits; 9 casualties: the Bren's three, then six of the eight rifles
    fire_order(game, section, squad, [*[4, 4] * 3, *[4, 4] * 6, *[4, 1] * 2, *morale_roll])
    kinds = [e.kind for e in game.events]
    shoot = game.events[kinds.index("shoot")].data
    assert (shoot["hits"], shoot["casualties"], shoot["pins"]) == (11, 9, 1)
    check = game.events[kinds.index("morale check")].data
    # 1 of 10 left (half or fewer): morale 9, -1 for the pin just taken, no officer near
    assert (check["unit"], check["needs"], check["passed"]) == (squad.uid, 8, passed)
    if passed:
        assert [m.name for m in squad.alive_models] == ["Unteroffizier"]
        assert not squad.destroyed
    else:
        assert squad.destroyed and squad.alive_models == []
        destroyed = next(e for e in game.events if e.kind == "destroyed").data
        assert destroyed == {"turn": 1, "unit": squad.uid, "why": "fails its morale check"}
        assert game.is_terminal()  # side 1 had nothing else: the game is over


def test_a_one_shot_weapon_is_spent_only_when_it_fires() -> None:
    game, section, squad = squads_at_20_inches()
    fausts = [m for m in squad.models if "Panzerfaust" in m.weapons]
    assert len(fausts) == 2
    game.shoot(squad, section, moving=False)  # 20": the Panzerfausts (12") cannot fire
    assert not any(m.used_one_shot for m in fausts)
    place(squad, 36.0, 20.0, 180.0)  # 10": in reach, but a man fires one weapon and
    weapons = [g.shot.weapon for g in game.shooting_groups(squad, section, moving=False)]
    assert "Panzerfaust" not in weapons  # keeps his Panzerfaust for armour
    game.shoot(squad, section, moving=False)
    assert not any(m.used_one_shot for m in fausts)


def tank_in_the_sights() -> tuple[BoltActionGame, UnitState, UnitState, UnitState, UnitState]:
    """Bolt Action: a 6-pdr 20" off a Panzer IV's side, a Sherman behind it, grenadiers far off."""
    game = small_game(
        "bolt-action-1",
        ["6-pdr Anti-tank Gun", "M4 Sherman"],
        ["Panzer IV Ausf. H", "1st Grenadier Squad"],
    )
    gun, sherman, panzer, squad = game.units
    place(gun, 36.0, 10.0, 0.0)
    place(panzer, 36.0, 30.0, 90.0)  # broadside on to the gun
    place(sherman, 36.0, 24.0, 0.0)
    place(squad, 6.0, 44.0, 180.0)
    return game, gun, sherman, panzer, squad


def test_a_knocked_out_tank_becomes_a_wreck_vehicles_cannot_cross() -> None:
    game, gun, sherman, panzer, squad = tank_in_the_sights()
    (group,) = game.shooting_groups(gun, panzer, moving=False)
    # Medium AT gun: 3+ to hit, pen 5 +1 for the side armour against a medium tank's 9
    assert (group.shot.weapon, group.shots, group.shot.hit_on, group.shot.pen) == (
        "Medium AT gun",
        1,
        (3,),
        6,
    )
    through = Action("order", unit=sherman.uid, order="Advance", to=(36.0, 32.5))
    before = game.clone()
    before.apply_action(Action("draw", side=0))
    # no wreck yet: the table lets the Sherman drive there (the live Panzer is in its way:
    # a move may not pass within 1" of an enemy model)
    assert check_move(before.rules, before.table, sherman, Point(36.0, 32.5), run=False).allowed
    assert_illegal(before, through, "enemy model")
    # to hit 4; pen 5 + 6 = 11 against 9: full damage; the damage roll 6 knocks it out
    fire_order(game, gun, panzer, [4, 5, 6])
    shot = game.events[-2].data
    assert (shot["knocked_out"], game.events[-1].kind) == (True, "destroyed")
    assert panzer.destroyed
    (wreck,) = [f for f in game.table.features if f.name == "wreck of Panzer IV Ausf. H"]
    assert wreck.impassable_to == {"vehicle"} and not wreck.blocks_line_of_sight
    assert game.table.features_at(Point(36.0, 30.0)) == [wreck]
    game.apply_action(Action("draw", side=0))
    assert_illegal(game, through, "impassable to vehicles")
    # infantry may still cross the wreck (an obstacle: no Run, but an Advance is fine)
    place(squad, 36.0, 25.0, 0.0)
    assert check_move(game.rules, game.table, squad, Point(36.0, 30.0), run=False).allowed
    assert not check_move(game.rules, game.table, sherman, Point(36.0, 30.0), run=False).allowed


def test_a_fubar_panic_runs_straight_away_from_the_nearest_visible_enemy() -> None:
    game = small_game("bolt-action-1", ["1st Section"], ["1st Grenadier Squad", "MG 42 MMG Team"])
    section, squad, mmg = game.units
    wall = TerrainFeature(
        "Barn", "building", "hard", rectangle(39.0, 21.0, 43.0, 27.0), blocks_line_of_sight=True
    )
    game.table = Table(72.0, 48.0, (wall,))
    place(section, 36.0, 24.0, 0.0)
    place(mmg, 46.0, 24.0, 180.0)  # nearer, but behind the barn
    place(squad, 26.0, 40.0, 180.0)  # further, in plain sight
    section.pins = 1  # so the order needs a test
    assert game.gap(section, mmg) < game.gap(section, squad)
    assert not game.visible(section, mmg) and game.visible(section, squad)
    start, threat = section.anchor, squad.anchor
    # the order test: double six is FUBAR; the FUBAR chart's 3 is panic
    game.dice = ScriptedDice([6, 6, 3])
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=section.uid, order="Fire", target=squad.uid))
    assert game.dice.remaining == []  # type: ignore[attr-defined]
    fubar = next(e for e in game.events if e.kind == "fubar").data
    assert (fubar["result"], fubar["away_from"]) == ("panic", squad.uid)
    end = section.anchor
    moved = (end.x - start.x, end.y - start.y)
    away = (start.x - threat.x, start.y - threat.y)
    assert math.hypot(*moved) == pytest.approx(12.0)  # a full Run
    cosine = (moved[0] * away[0] + moved[1] * away[1]) / (math.hypot(*moved) * math.hypot(*away))
    assert cosine == pytest.approx(1.0)  # directly away
    assert (
        section.order == "Run"
        and section.pins == 1
        and not any(e.kind == "shoot" for e in game.events)
    )


def friendly_fire_game(
    near: Sequence[str], far: Sequence[str] = ()
) -> tuple[BoltActionGame, UnitState, UnitState]:
    """Bolt Action on an open table: the 1st Section (one pin, so its order is tested) and
    the friends named, those in ``near`` within 12" of the German squad and in the
    section's sight and range, those in ``far`` in its sight and range but far from the
    enemy; its order test comes up double six, and the FUBAR chart 1: friendly fire.
    Returns (game, the section, the enemy squad) once the order is given."""
    game = small_game("bolt-action-1", ["1st Section", *near, *far], ["1st Grenadier Squad"])
    section, enemy = game.units[0], game.units[-1]
    place(section, 36.0, 8.0, 0.0)
    place(enemy, 36.0, 30.0, 180.0)
    for i, name in enumerate(near):
        place(named(game, 0, name), 28.0 + 16.0 * i, 22.0, 0.0)  # 10" or so from the enemy
    for i, name in enumerate(far):
        place(named(game, 0, name), 16.0 + 40.0 * i, 8.0, 0.0)  # 20" or more from it
    section.pins = 1
    dice = ScriptedThenRandom([6, 6, 1])  # the order test's double six; the chart's 1
    game.dice = dice
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=section.uid, order="Fire", target=enemy.uid))
    assert dice.used[:3] == [6, 6, 1]
    return game, section, enemy


class ScriptedThenRandom(ScriptedDice):
    """The scripted rolls, then seeded random ones (for the shooting that follows)."""

    def __init__(self, rolls: list[int]) -> None:
        super().__init__(rolls)
        self.then = RandomDice(5)

    def _next(self, sides: int) -> int:
        if self.remaining:
            return super()._next(sides)
        value = self.then.roll(sides)
        self.used.append(value)
        return value


def test_friendly_fire_at_two_eligible_friends_is_the_opponents_choice() -> None:
    """Sheets 000, 001 and 002: "The opposing player chooses the target. The target must
    have an enemy unit within 12"". With two such friends in its sight and range, the
    game waits for the opponent (side 1), who is offered those two; a friend far from the
    enemy is not offered. The choice is checked, logged and carried out."""
    game, section, enemy = friendly_fire_game(["2nd Section", "Vickers MMG Team"], ["PIAT Team"])
    second, vickers, piat = (
        named(game, 0, n) for n in ("2nd Section", "Vickers MMG Team", "PIAT Team")
    )
    assert game.can_shoot(section, piat, moving=False)  # in sight and range, but no enemy near
    assert game.current_player() == 1 and game.pending is not None
    assert section.order == "Fire"
    offered = game.legal_actions()
    assert offered == [
        Action("friendly fire", side=1, target=second.uid),
        Action("friendly fire", side=1, target=vickers.uid),
    ]
    seen = game.observation()
    assert seen["decision"] == "friendly-fire" and seen["to_move"] == 1
    assert seen["units_to_decide"] == []  # no unit of side 1 decides: its player does
    assert seen["pending_order"] == {
        "kind": "order",
        "unit": 0,
        "order": "Fire",
        "target": enemy.uid,
    }
    # an illegal choice: an unoffered friend, the enemy, the wrong side, an order
    for wrong in (
        Action("friendly fire", side=1, target=piat.uid),
        Action("friendly fire", side=1, target=enemy.uid),
        Action("friendly fire", side=0, target=second.uid),
        Action("friendly fire", side=1),
    ):
        assert_illegal(game, wrong, "to choose whom 1st Section .unit 0.")
    assert_illegal(
        game,
        Action("order", unit=second.uid, order="Down"),
        r"one of 2nd Section \(unit 1\), Vickers MMG Team \(unit 2\)\.$",
    )
    # a clone waits for the same choice, and makes it on its own
    twin = game.clone()
    assert twin.pending == game.pending and twin.pending is not game.pending
    twin.apply_action(offered[0])
    assert game.pending is not None and game.legal_actions() == offered
    game.apply_action(offered[1])
    assert game.pending is None and game.current_player() == CHANCE
    at = next(i for i, e in enumerate(game.events) if e.kind == "friendly fire")
    choice, fubar, shot = (e.to_json() for e in game.events[at : at + 3])
    assert choice == {"event": "friendly fire", "turn": 1, "side": 1, "target": vickers.uid}
    assert fubar == {
        "event": "fubar",
        "turn": 1,
        "unit": section.uid,
        "result": "friendly fire",
        "target": vickers.uid,
        "chosen_by": 1,
    }
    assert shot["event"] == "shoot" and (shot["unit"], shot["target"]) == (0, vickers.uid)
    from kriegsspiel.render.game_account import account

    told = [line for line in account(game.events, game.units) if "FUBAR" in line]
    assert told == [
        "    order test: needs 8 or less on 2D6, rolled 12 (FUBAR), 1 on the FUBAR chart "
        "-> friendly fire",
        "    FUBAR! friendly fire: 1st Section [A] fires at Vickers MMG Team [A], "
        "the target Side B chose",
    ]


def test_friendly_fire_with_one_eligible_friend_asks_no_one() -> None:
    """One friend with an enemy within 12" in the unit's sight and range: it is shot at,
    with no decision asked of the opponent."""
    game, section, _ = friendly_fire_game(["2nd Section"], ["Vickers MMG Team"])
    second = named(game, 0, "2nd Section")
    assert game.pending is None and game.current_player() == CHANCE
    fubar = next(e for e in game.events if e.kind == "fubar").to_json()
    assert fubar == {
        "event": "fubar",
        "turn": 1,
        "unit": section.uid,
        "result": "friendly fire",
        "target": second.uid,
    }
    assert not any(e.kind == "friendly fire" for e in game.events)
    assert game.events[-1].kind in ("shoot", "morale check", "destroyed")
    from kriegsspiel.render.game_account import account

    told = [line for line in account(game.events, game.units) if "FUBAR" in line]
    assert told == [
        "    order test: needs 8 or less on 2D6, rolled 12 (FUBAR), 1 on the FUBAR chart "
        "-> friendly fire",
        "    FUBAR! friendly fire: 1st Section [A] fires at 2nd Section [A], the only friend "
        'it could shoot with an enemy within 12"',
    ]


def test_friendly_fire_with_no_eligible_friend_goes_down() -> None:
    """No friend with an enemy within 12": the unit does not fire and goes Down."""
    game, section, _ = friendly_fire_game([], ["2nd Section", "Vickers MMG Team"])
    assert game.pending is None and game.current_player() == CHANCE
    assert section.order == "Down"
    fubar = next(e for e in game.events if e.kind == "fubar").data
    assert fubar["result"] == "friendly fire: no target, goes Down" and "target" not in fubar
    assert not any(e.kind in ("shoot", "no shot", "friendly fire") for e in game.events)


def test_friendly_fire_needs_a_shot_not_only_a_friend_in_sight() -> None:
    """The friends a FUBAR unit may fire on are those it would have a shot at: a mortar's
    friend inside its 18" least range is none, so the mortar goes Down (sheet 002: with no
    target it "does not fire and simply goes down")."""
    game = small_game(
        "bolt-action-1", ["3-inch Mortar Team", "2nd Section"], ["1st Grenadier Squad"]
    )
    mortar, second, enemy = game.units
    place(mortar, 36.0, 8.0, 0.0)
    place(second, 36.0, 20.0, 0.0)  # 12" off: in sight and range, inside the least range
    place(enemy, 36.0, 30.0, 180.0)  # 10" from the 2nd Section
    assert game.can_shoot(mortar, second, moving=False) and not game.has_shot(mortar, second)
    mortar.pins = 1
    game.dice = ScriptedDice([6, 6, 1])  # the order test's double six; the chart's 1
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=mortar.uid, order="Fire", target=enemy.uid))
    assert mortar.order == "Down" and game.pending is None
    fubar = next(e for e in game.events if e.kind == "fubar").data
    assert fubar["result"] == "friendly fire: no target, goes Down"
    assert not any(e.kind in ("shoot", "no shot") for e in game.events)


@pytest.mark.parametrize(("start", "asked"), [(20.0, False), (10.0, True)])
def test_an_ambush_is_sprung_only_by_a_unit_that_has_a_shot(start: float, asked: bool) -> None:
    """A mortar on Ambush is not asked to fire at a unit that ends its move inside its
    18" least range (it would spend its die for no shot), and is asked beyond it."""
    game = small_game("bolt-action-1", ["1st Section"], ["8cm Mortar Team"])
    section, mortar = game.units
    place(section, 36.0, start, 0.0)
    place(mortar, 36.0, 40.0, 180.0)
    mortar.retained = "Ambush"
    game.turn_dice = (section.uid,)
    game.dice = ScriptedDice([])
    game.apply_action(Action("draw", side=0))
    to = (section.anchor.x, section.anchor.y + 5.0)  # 15" from the mortar, or 25"
    game.apply_action(Action("order", unit=section.uid, order="Advance", to=to))
    ambush = game.pending is not None and game.pending.kind == "ambush"
    assert ambush == asked, game.pending
    assert mortar.is_ambushing


def test_the_tactical_player_turns_friendly_fire_where_it_hurts_most() -> None:
    """Choosing for the opponent, the tactical player sends the FUBAR unit's fire where it
    does the most expected damage, valued as it values its own shots (:meth:`damage`):
    here the Vickers team in the open (offered second), not the 2nd Section behind a wall."""
    game = small_game(
        "bolt-action-1", ["1st Section", "2nd Section", "Vickers MMG Team"], ["1st Grenadier Squad"]
    )
    section, second, vickers, enemy = game.units
    wall = TerrainFeature(
        "Wall", "building", "hard", rectangle(16.0, 19.0, 28.0, 21.0), blocks_line_of_sight=False
    )
    game.table = Table(72.0, 48.0, (wall,))
    place(section, 36.0, 6.0, 0.0)
    place(enemy, 30.0, 30.0, 180.0)
    place(second, 22.0, 23.0, 0.0)  # behind the wall, seen from the section
    place(vickers, 40.0, 23.0, 0.0)  # in the open
    section.pins = 1
    game.dice = ScriptedDice([6, 6, 1])
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=section.uid, order="Fire", target=enemy.uid))
    offered = game.legal_actions()
    assert game.current_player() == 1
    assert [a.target for a in offered] == [second.uid, vickers.uid]
    player = TacticalPlayer(0)

    def hurt(uid: int | None) -> float:
        assert uid is not None
        return player.damage(game, section, game.units[uid], moving=False)

    assert hurt(vickers.uid) > hurt(second.uid) > 0
    assert player.choose(game) == offered[1]
    # the other way round (the Vickers team behind the wall, the 2nd Section in the open),
    # the choice is still the one its shooting value puts higher
    place(vickers, 22.0, 23.0, 0.0)
    place(second, 40.0, 23.0, 0.0)
    assert hurt(second.uid) != hurt(vickers.uid)
    assert player.choose(game) == max(offered, key=lambda a: hurt(a.target))


def test_a_recorded_friendly_fire_choice_replays_and_a_changed_one_is_caught(
    tmp_path: Path,
) -> None:
    """A random game whose FUBAR friendly fire had two targets to choose from: the choice
    is a line of its record, which replays byte for byte; the other target put in its
    place parts from the record at the next line, an ineligible one is not legal there."""

    def choice_line(text: str) -> int | None:
        lines = text.splitlines()
        return next(
            (i for i, line in enumerate(lines) if line.startswith('{"event":"friendly fire"')),
            None,
        )

    # the first seeded game with such a choice (from 26: one had it when this was written)
    for seed in range(26, 126):
        text = played_record(
            "bolt-action-1", "hold-the-crossroads.yaml", seed, tmp_path / "a.jsonl"
        )
        found = choice_line(text)
        if found is not None:
            break
    assert found is not None, "no game of a hundred had a friendly fire choice"
    number, lines = found, text.splitlines()
    choice = json.loads(lines[number])
    fubar = json.loads(lines[number + 1])
    assert fubar["event"] == "fubar" and fubar["chosen_by"] == choice["side"]
    assert fubar["target"] == choice["target"]
    assert record.replay(tmp_path / "a.jsonl").reproduced
    assert (
        played_record("bolt-action-1", "hold-the-crossroads.yaml", seed, tmp_path / "b.jsonl")
        == text
    )
    # the game as it stood at the choice: the targets that were offered
    head, *rows = read_lines(tmp_path / "a.jsonl").rows
    game = record.new_game(head)
    for _, action in record.decisions(rows)[:-1]:
        if game.pending is not None and game.pending.kind == "friendly-fire":
            break
        game.apply_action(action)
    offered = [a.target for a in game.legal_actions()]
    assert choice["target"] in offered and len(offered) >= 2
    other = next(t for t in offered if t != choice["target"])
    firer = game.units[fubar["unit"]]
    stranger = next(u.uid for u in game.units if u.side != firer.side and not u.destroyed)
    for target, parted_at, said in (  # (the choice is line number + 1 of the record)
        (other, number + 2, '"target":' + str(other)),
        (stranger, number + 1, "not legal here"),
    ):
        changed = dict(choice, target=target)
        path = tmp_path / f"changed-{target}.jsonl"
        path.write_text("\n".join([*lines[:number], dumps(changed), *lines[number + 1 :]]) + "\n")
        result = record.replay(path)
        assert not result.reproduced and result.first_difference == parted_at
        assert said in result.actual


# ----------------------------------------------------------------------------- 5. sim vs odds
TRIALS = 4000


def destroyed_in_trials(game: BoltActionGame, shooter: UnitState, target: UnitState) -> int:
    """In how many of ``TRIALS`` shootings, each on its own clone with its own seeded dice,
    the target is destroyed (the game itself left as it was)."""
    destroyed = 0
    for seed in range(TRIALS):
        twin = game.clone()
        twin.dice = RandomDice(seed)
        twin.shoot(twin.units[shooter.uid], twin.units[target.uid], moving=False)
        destroyed += twin.units[target.uid].destroyed
    assert not game.units[target.uid].destroyed  # the clones are clones
    return destroyed


def troop_trials(game: BoltActionGame, shooter: UnitState, target: UnitState) -> Counter[int]:
    """Casualties of ``TRIALS`` shootings, each on its own clone with its own seeded dice."""
    counts: Counter[int] = Counter()
    for seed in range(TRIALS):
        twin = game.clone()
        twin.dice = RandomDice(seed)
        twin.shoot(twin.units[shooter.uid], twin.units[target.uid], moving=False)
        shot = next(e for e in reversed(twin.events) if e.kind == "shoot")
        counts[shot.data["casualties"]] += 1
    return counts


def assert_casualties_match(game: BoltActionGame, shooter: UnitState, target: UnitState) -> Any:
    groups = game.shooting_groups(shooter, target, moving=False)
    ctx = TroopsContext(
        models=len(target.alive_models),
        morale=new_test(game.rules, target.quality, pins=target.pins),
        pins_per_attack=game.rules.data.procedure.pins_per_attack,
    )
    odds = exact_troops(groups, ctx)
    counts = troop_trials(game, shooter, target)
    for k in set(counts) | set(odds.casualties.outcomes()):
        assert bernoulli_ok(counts[k], TRIALS, odds.casualties.probability(k)), (k, counts)
    mean = sum(k * n for k, n in counts.items()) / TRIALS
    variance = float(odds.casualties.map(lambda c: c * c).mean() - odds.casualties.mean() ** 2)
    assert within_se(mean, odds.casualties.mean(), variance, TRIALS)
    return odds


def test_the_simulator_agrees_with_the_odds_in_the_open_and_in_cover() -> None:
    game, section, squad = squads_at_20_inches()
    open_odds = assert_casualties_match(game, section, squad)
    crops = TerrainFeature("Crops", "field", "soft", rectangle(28.0, 27.0, 44.0, 34.0), False)
    game.table = Table(72.0, 48.0, (crops,))
    groups = game.shooting_groups(section, squad, moving=False)
    assert [g.shot.hit_on for g in groups] == [(5,), (5,)]  # soft cover: -1 to hit
    cover_odds = assert_casualties_match(game, section, squad)
    assert cover_odds.casualties.mean() < open_odds.casualties.mean()


def test_the_simulator_removes_a_unit_as_often_as_the_odds_say_its_pins_reach_morale() -> None:
    game, section, squad = squads_at_20_inches()
    squad.pins = game.rules.morale(squad.quality) - 1  # one more and it is gone
    for model in section.models[2:]:  # two riflemen left: a chance well short of certain
        model.alive = False
    groups = game.shooting_groups(section, squad, moving=False)
    ctx = TroopsContext(
        models=len(squad.alive_models),
        morale=new_test(game.rules, squad.quality, pins=squad.pins),
        pins_per_attack=game.rules.data.procedure.pins_per_attack,
    )
    p_removed = exact_troops(groups, ctx).pins.probability(lambda p: p >= 1)
    removed = destroyed_in_trials(game, section, squad)
    assert 0.5 < p_removed < 0.9
    assert bernoulli_ok(removed, TRIALS, p_removed), (removed, float(p_removed))


def test_the_simulator_agrees_with_the_odds_of_a_knock_out() -> None:
    game, gun, _sherman, panzer, _squad = tank_in_the_sights()
    groups = game.shooting_groups(gun, panzer, moving=False)
    p_ko = exact_vehicle(groups).probability(lambda v: v.knocked_out)
    knocked_out = destroyed_in_trials(game, gun, panzer)
    assert 0.1 < p_ko < 0.9
    assert bernoulli_ok(knocked_out, TRIALS, p_ko), (knocked_out, float(p_ko))


# ----------------------------------------------------------------------------- 6. tactics
def _tactical_game(args: tuple[str, int]) -> tuple[int, float, tuple[int, int]]:
    """One seeded game of the tactical player against the random one; (its side, its result)."""
    ruleset, seed = args
    side = seed % 2
    name = SCENARIOS[(seed // 2) % len(SCENARIOS)]
    players: list[Any] = [RandomPlayer(seed), RandomPlayer(seed)]
    players[side] = TacticalPlayer(seed)
    game = play(new_game(ruleset, name, seed), players, seed=seed)
    return side, game.returns()[side], game.score()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_tactical_player_beats_the_random_one(ruleset: str) -> None:
    results = [_tactical_game((ruleset, seed)) for seed in range(10)]
    wins = sum(r == 1.0 for _, r, _ in results)
    assert wins >= 8, results


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_tactical_player_wins_nine_games_in_ten_on_either_side(ruleset: str) -> None:
    results = run_in_pool(_tactical_game, [(ruleset, 100 + seed) for seed in range(200)])
    wins = [sum(1 for s, r, _ in results if s == side and r == 1.0) for side in (0, 1)]
    draws = [sum(1 for s, r, _ in results if s == side and r == 0.0) for side in (0, 1)]
    games = [sum(1 for s, _, _ in results if s == side) for side in (0, 1)]
    print(f"{ruleset}: tactical wins {wins} of {games} (side 0, side 1), draws {draws}")
    assert games == [100, 100]
    assert all(w >= 90 for w in wins), (wins, draws)


def test_closing_in_after_an_escape_stops_at_the_table_edge() -> None:
    """Found by the slow playouts: assaulters followed an escaped unit off the table."""
    random_playout("konflikt47", "hold-the-crossroads.yaml", 1274)


def test_a_units_remembered_places_follow_its_models_and_copies() -> None:
    game = new_game("konflikt47", "meeting-engagement.yaml", 1)
    unit = next(u for u in game.units if len(u.models) > 2)
    first = unit.models[0]
    before, coords = unit.anchor, unit.coords
    unit.translate(1.0, 0.0)
    assert unit.anchor == Point(before.x + 1.0, before.y)
    assert unit.coords[0] == coords[0] + 1.0
    first.alive = False
    assert first not in unit.alive_models and len(unit.coords) == len(coords) - 2
    twin = pickle.loads(pickle.dumps(unit))
    twin.models[1].x += 5.0
    assert twin.anchor != unit.anchor and twin.coords[0] == unit.coords[0] + 5.0
    clone = unit.copy()
    clone.models = clone.models[:2]
    assert clone.alive_models == [clone.models[1]]


def test_a_units_remembered_officer_and_arms_follow_its_own_models_only() -> None:
    game = new_game("konflikt47", "meeting-engagement.yaml", 1)
    unit = next(u for u in game.units if any(m.officer for m in u.models))
    other = next(u for u in game.units if u is not unit and len(u.models) > 1)
    kept = other.coords
    officer = next(m for m in unit.alive_models if m.officer)
    assert unit.officer_rank() == officer.officer
    assert unit.arms == tuple((m.weapons, m.used_one_shot) for m in unit.alive_models)
    officer.alive = False
    assert unit.officer_rank() == next((m.officer for m in unit.alive_models if m.officer), None)
    unit.models[-1].used_one_shot = True
    assert unit.arms[-1] == (unit.models[-1].weapons, True)
    unit.translate(1.0, 0.0)
    assert other.coords is kept  # another unit's models did not change: its places stand
    other.models[0].x += 1.0
    assert other.coords[0] == kept[0] + 1.0
    # a model refers to no unit (only to a shared counter): no reference cycle keeps a
    # finished game's units waiting for the cycle collector
    assert not any(isinstance(r, UnitState) for m in unit.models for r in gc.get_referents(m))


def test_the_players_go_for_the_objective_worth_most_for_its_distance() -> None:
    """The moves offered go toward the objective nearest once each is handicapped 6" for
    every point it is worth less than the best, and the tactical player values places so:
    raising an objective's points draws the players to it; one worth nothing draws no one."""
    from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
    from kriegsspiel.rulesets.bolt_action.game.candidates import _goals, objective_marks

    game = new_game("konflikt47", "hold-the-crossroads.yaml", 3)
    objectives = game.scenario.objectives  # Crossroads 2, Church 1, Smithy 1
    assert objective_marks(objectives) == [
        (objectives[0].x, objectives[0].y, 0.0),
        (objectives[1].x, objectives[1].y, 6.0),
        (objectives[2].x, objectives[2].y, 6.0),
    ]
    unit = min(
        game.units,
        key=lambda u: math.dist((u.anchor.x, u.anchor.y), (objectives[1].x, objectives[1].y)),
    )
    _, goal = _goals(game, unit)
    crossroads = Point(objectives[0].x, objectives[0].y)
    church = Point(objectives[1].x, objectives[1].y)
    near_church = Point(church.x, church.y + 1)
    value_before = TacticalPlayer()._place_value(game, unit, near_church)

    def with_points(*points: int) -> None:
        changed = tuple(
            o.model_copy(update={"points": p}) for o, p in zip(objectives, points, strict=True)
        )
        game.scenario = game.scenario.model_copy(update={"objectives": changed})

    with_points(0, 9, 1)  # the church worth far more, the crossroads nothing
    _, goal = _goals(game, unit)
    assert goal == church
    assert TacticalPlayer()._place_value(game, unit, near_church) > value_before
    with_points(9, 0, 0)
    assert _goals(game, unit)[1] == crossroads
    with_points(0, 0, 0)  # (an objectives game would refuse it; the players go for none)
    assert _goals(game, unit)[1] is None
