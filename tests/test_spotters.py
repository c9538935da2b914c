"""Spotters (an assumption, the published rule the sheets omit: "Spotters" in
docs/rules/bolt-action-1.md and konflikt47.md): a team's mortar fires at a target any man of
its team sees, its spotter's or crew's eyes, its range still measured from the mortar; a
direct-fire weapon fires only at what its own man sees."""

from __future__ import annotations

import random

import pytest

from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.players import chance_outcome
from kriegsspiel.core.game import CHANCE
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.sim.matchup import build_matchup, set_up_game
from kriegsspiel.solo.reasons import no_shot_reason


def _named(game: BoltActionGame, name: str) -> UnitState:
    return next(u for u in game.units if u.name == name)


def _mortar_behind_the_farmhouse(
    ruleset: str = "bolt-action-1",
) -> tuple[BoltActionGame, UnitState, UnitState]:
    """Bolt Action, seed 4, the first decision: the 3-inch Mortar Team's mortar (at
    28", 6") cannot see the 8cm Mortar Team behind the Farmhouse; its crew and spotter
    beside it can. The same position in Konflikt '47 (the US 81mm Mortar Team and the
    German 8cm Mortar Team), each moved there."""
    game = set_up_game(build_matchup("bolt-action-1", None, [], "human,tactical", seats=True), 4)
    game.apply_action(Action("draw", side=0))
    if ruleset == "bolt-action-1":
        return game, _named(game, "3-inch Mortar Team"), _named(game, "8cm Mortar Team")
    k47 = set_up_game(build_matchup("konflikt47", "meeting-engagement", [], "tactical,tactical"), 4)
    mortar, target = _named(k47, "81mm Mortar Team"), _named(k47, "8cm Mortar Team")
    for ours, theirs in ((mortar, "3-inch Mortar Team"), (target, "8cm Mortar Team")):
        for m, there in zip(ours.models, _named(game, theirs).models, strict=True):
            m.x, m.y = there.x, there.y
    return k47, mortar, target


@pytest.mark.parametrize("ruleset", ["bolt-action-1", "konflikt47"])
def test_a_mortar_fires_at_what_its_spotter_sees(ruleset: str) -> None:
    """The mortar's own man sees no model of the target, his team does: one indirect
    shot (6+ to hit). With the crew and spotter gone, it has none, out of sight."""
    game, mortar, target = _mortar_behind_the_farmhouse(ruleset)
    sights = game.table.nearest_in_sight(mortar.coords, target.coords)
    assert sights[0] is None and any(sights)  # (the mortar's man is blind, his team not)
    (group,) = game.shot_groups(mortar, target, moving=False)
    assert (group.shot.weapon, group.shots, group.shot.hit_on, group.shot.indirect) == (
        "Medium mortar",
        1,
        (6,),
        True,
    )
    for m in mortar.models[1:]:
        m.alive = False
    assert not game.shot_groups(mortar, target, moving=False)
    assert no_shot_reason(game, mortar, target, moving=False) == (
        "out of sight: Farmhouse in the way"
    )


def test_a_spotted_shots_range_is_measured_from_the_mortar() -> None:
    """The spotter 29" off sees the target; the mortar behind the Farmhouse is 15" from
    it, inside its 18" least range: no shot, too close. Drawn back to 20" it fires."""
    game, mortar, target = _mortar_behind_the_farmhouse()
    target.translate(27.5 - target.anchor.x, 34 - target.anchor.y)
    spotter = mortar.models[-1]
    assert spotter.name == "Spotter"
    mortar.models[0].x, mortar.models[0].y = 27.5, 19.0
    for m in mortar.models[1:3]:
        m.alive = False  # (the crew: only the spotter sees for it)
    spotter.x, spotter.y = 10.0, 10.0
    assert game.table.nearest_in_sight(mortar.coords, target.coords)[0] is None
    assert min(game.table.distances_flat(mortar.coords[2:], target.coords)[0]) > 18
    assert not game.shot_groups(mortar, target, moving=False)
    assert no_shot_reason(game, mortar, target, moving=False) == (
        'too close for its Medium mortar (at least 18")'
    )
    mortar.models[0].y = 14.0
    assert game.table.nearest_in_sight(mortar.coords, target.coords)[0] is None
    (group,) = game.shot_groups(mortar, target, moving=False)
    assert group.shot.weapon == "Medium mortar"


def test_the_game_fires_the_spotted_shot_and_the_ai_weighs_it() -> None:
    """The Fire order on the target only the team sees is offered, worth something to the
    tactical player, and fired by the game: a shot of the mortar's at it."""
    game, mortar, target = _mortar_behind_the_farmhouse()
    fire = Action("order", unit=mortar.uid, order="Fire", target=target.uid)
    assert fire in game.legal_actions()
    assert TacticalPlayer(0).value(game, fire) > 0
    game.apply_action(fire)
    rng = random.Random(0)
    for _ in range(20):
        if any(e.kind == "shoot" for e in game.events):
            break
        if game.current_player() == CHANCE:
            game.apply_action(chance_outcome(game, rng))
        else:
            game.apply_action(game.legal_actions()[0])
    shot = next(e for e in game.events if e.kind == "shoot")
    assert shot.data["unit"] == mortar.uid and shot.data["target"] == target.uid
    assert [w["weapon"] for w in shot.data["weapons"]] == ["Medium mortar"]
