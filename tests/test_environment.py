"""The game as an environment for agents: ``kriegsspiel.new_game`` and ``observation``."""

from __future__ import annotations

import json
import random

import pytest

import kriegsspiel
from kriegsspiel.ai.players import chance_outcome
from kriegsspiel.core.game import CHANCE, TERMINAL
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame


def test_new_game_sets_up_the_samples_ready_for_the_first_draw() -> None:
    game = kriegsspiel.new_game()
    assert game.ruleset == "konflikt47" and game.current_player() == CHANCE
    seen = game.observation()
    assert seen["decision"] == "draw" and seen["turn"] == 1
    live = [u for u in seen["units"] if not u["destroyed"]]
    assert sum(seen["dice_in_bag"]) == len(live) == len(game.units)
    chances = dict((a.side, p) for a, p in game.chance_outcomes())
    assert chances[0] == pytest.approx(seen["dice_in_bag"][0] / sum(seen["dice_in_bag"]))
    assert json.loads(json.dumps(seen)) == seen  # plain data
    assert len(seen["terrain"]) == len(game.table.features) > 0
    assert len(seen["deployment"]) == len(game.scenario.deployment)
    assert {z["side"] for z in seen["deployment"]} == {0, 1}  # sides as units have them
    assert seen["deployment"][0]["name"] == game.scenario.sides()[0]
    for unit, said in zip(game.units, seen["units"], strict=True):
        assert len(said["living_models"]) == said["models"] == len(unit.alive_models)
        assert said["living_models"][0]["weapons"] == list(unit.alive_models[0].weapons)


def test_observation_follows_the_game_and_a_clone_is_its_own() -> None:
    game = kriegsspiel.new_game("bolt-action-1", "hold-the-crossroads", seed=4)
    assert game.observation()["objectives"]
    rng = random.Random(4)
    game.apply_action(chance_outcome(game, rng))
    seen = game.observation()
    assert seen["decision"] == "order" and seen["to_move"] == game.current_player()
    before = json.dumps(seen)
    twin = game.clone()
    while not twin.is_terminal():
        if twin.current_player() == CHANCE:
            twin.apply_action(chance_outcome(twin, rng))
        else:
            twin.apply_action(rng.choice(twin.legal_actions()))
    assert json.dumps(game.observation()) == before  # the look-ahead left the game alone
    after = twin.observation()
    assert after["decision"] == "game over" and after["to_move"] == TERMINAL
    assert after["score"] == list(twin.score())
    lost = [u for u in after["units"] if u["destroyed"]]
    assert all(u["models"] == 0 or u["vehicle"] or u["destroyed"] for u in lost)


@pytest.mark.parametrize("kind", ["shot-reaction", "ambush", "retain"])
def test_a_pending_decision_names_the_units_of_the_side_that_decides(kind: str) -> None:
    """The units named are the deciding side's own: for an ambush, the ambushers (not the
    enemy unit that moves)."""
    for seed in range(40):
        game = kriegsspiel.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.is_terminal() and (game.pending is None or game.pending.kind != kind):
            if game.current_player() == CHANCE:
                game.apply_action(chance_outcome(game, rng))
            else:
                game.apply_action(rng.choice(game.legal_actions()))
        if game.pending is not None:
            break
    assert game.pending is not None and game.pending.kind == kind
    seen = game.observation()
    assert seen["decision"] == kind and seen["units_to_decide"]
    assert seen["pending_order"] == game.pending.action.to_json()
    sides = {game.units[u].side for u in seen["units_to_decide"]}
    assert sides == {seen["to_move"]}
    acting = {a.unit for a in game.legal_actions() if a.unit >= 0}
    assert set(seen["units_to_decide"]) == acting


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seed": -1}, "seed must be a whole number 0 to 9223372036854775807"),
        ({"ruleset": "iron-cross"}, "whole games are built for"),
        ({"armies": ["nowhere"]}, "give two armies"),
        ({"armies": ["nowhere", "us-tesla-company"]}, "neither a file nor a shipped army"),
        ({"ruleset": 3}, "the ruleset is a name such as konflikt47, not 3"),
        ({"scenario": 7}, "the scenario is a file or a shipped one's name, not 7"),
        ({"armies": None}, "the armies are a list of two files or shipped names"),
        ({"armies": "us-tesla-company"}, "the armies are a list of two .*not 'us-tesla"),
        ({"armies": ["us-tesla-company", 5]}, "an army is a file or a shipped list's name, not 5"),
        ({"seed": 2.0}, "seed must be a whole number 0 to 9223372036854775807, not 2.0"),
    ],
)
def test_new_game_refuses_bad_input_with_a_reason(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        kriegsspiel.new_game(**kwargs)  # type: ignore[arg-type]


def _at_first_order(seed: int = 7) -> tuple[BoltActionGame, int, int]:
    """A game at its first order: (game, a unit of the side to move, an enemy unit)."""
    game = kriegsspiel.new_game("konflikt47", "hold-the-crossroads", seed=seed)
    game.apply_action(chance_outcome(game, random.Random(seed)))
    side = game.current_player()
    mine = next(u.uid for u in game.units if u.side == side)
    theirs = next(u.uid for u in game.units if u.side != side)
    return game, mine, theirs


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"order": "Fire", "to": (68.0, 42.0)}, "a Fire order does not move"),
        ({"order": "Fire", "to": (-500.0, -500.0)}, "a Fire order does not move"),
        ({"order": "Fire"}, "a Fire order needs a target"),
        ({"order": "Down", "to": (10.0, 10.0)}, "a Down order takes no destination"),
        ({"order": "Rally", "choice": "escape"}, "a Rally order takes no destination"),
        ({"order": "Advance", "to": (5.0, 8.0), "choice": "barrage"}, "assault mode"),
        ({"order": "Down", "side": "wrong"}, "the order says side"),
    ],
)
def test_an_order_carrying_fields_it_does_not_use_is_refused_and_changes_nothing(
    fields: dict[str, object], message: str
) -> None:
    """Found by using the game as an environment: a Fire order with a destination moved
    the unit anywhere, even off the table, and an order's side was never read."""
    from kriegsspiel.core.game import IllegalActionError
    from kriegsspiel.rulesets.bolt_action.game.actions import Action

    game, mine, _ = _at_first_order()
    before = json.dumps(game.observation())
    if fields.get("side") == "wrong":
        fields = {**fields, "side": 1 - game.current_player()}
    action = Action("order", unit=mine, **fields)  # type: ignore[arg-type]
    assert not game.is_legal(action)
    with pytest.raises(IllegalActionError, match=message):
        game.apply_action(action)
    assert json.dumps(game.observation()) == before


def test_what_is_not_an_action_is_refused_as_illegal() -> None:
    from kriegsspiel.core.game import IllegalActionError

    game, _, _ = _at_first_order()
    for given in ("Fire", None, {"kind": "order"}):
        with pytest.raises(IllegalActionError, match="an action is an Action"):
            game.apply_action(given)  # type: ignore[arg-type]
    assert all(game.is_legal(a) for a in game.legal_actions())


def test_an_assault_takes_no_other_destination_and_no_mode_at_a_vehicle() -> None:
    """An assault moves straight at its target: any other destination was accepted and
    ignored, as was a fighting mode against a vehicle."""
    from test_game_rules import new_game, only, place, squad_before_vehicle

    from kriegsspiel.core.game import IllegalActionError
    from kriegsspiel.core.table import Table
    from kriegsspiel.rulesets.bolt_action.game.actions import Action

    game = new_game()
    game.table = Table(72, 48)
    only(game, 1, 10)
    place(game.units[1], 20, 20, 0)
    place(game.units[10], 20, 28, 180)
    game.apply_action(Action("draw", side=0))
    far = Action("order", unit=1, order="Run", target=10, to=(-500.0, -500.0))
    with pytest.raises(IllegalActionError, match="an assault moves straight at"):
        game.apply_action(far)
    at = game.units[10].anchor
    assert game.is_legal(Action("order", unit=1, order="Run", target=10))
    assert game.is_legal(Action("order", unit=1, order="Run", target=10, to=(at.x, at.y)))

    game, squad, tank = squad_before_vehicle("konflikt47", 5.0)
    game.apply_action(Action("draw", side=0))
    point_blank = Action(
        "order", unit=squad.uid, order="Run", target=tank.uid, choice="point-blank"
    )
    with pytest.raises(IllegalActionError, match="infantry assault a vehicle one way"):
        game.apply_action(point_blank)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"order": "Down", "unit": "3"}, "unit is a whole number"),
        ({"order": "Down", "unit": True}, "unit is a whole number"),
        ({"order": "Fire", "target": "2"}, "target is a unit's number"),
        ({"order": "Advance", "to": ("1", "2")}, "a pair of numbers"),
        ({"order": "Advance", "to": [1.0, 2.0]}, "a pair of numbers"),
        ({"order": "Down", "side": "0"}, "side is a whole number"),
    ],
)
def test_an_action_with_fields_of_the_wrong_kind_is_refused_not_crashed(
    fields: dict[str, object], message: str
) -> None:
    from kriegsspiel.core.game import IllegalActionError
    from kriegsspiel.rulesets.bolt_action.game.actions import Action

    game, mine, _ = _at_first_order()
    action = Action("order", **{"unit": mine, **fields})  # type: ignore[arg-type]
    assert not game.is_legal(action)
    with pytest.raises(IllegalActionError, match=message):
        game.apply_action(action)


def test_names_that_moved_out_of_the_state_module_are_still_exported_there() -> None:
    """Action, Pending, ORDERS and range_marks were defined in game/state.py; code that
    imports them from there (as the README once showed) keeps working: state.py re-exports
    them by name (``import X as X``), which mypy --strict also accepts."""
    from kriegsspiel.rulesets.bolt_action.game import actions, shooting_groups, state

    assert state.Action is actions.Action and state.Pending is actions.Pending
    assert state.ORDERS is actions.ORDERS and state.range_marks is shooting_groups.range_marks
