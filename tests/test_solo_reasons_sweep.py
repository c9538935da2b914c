"""The reasons a person at the terminal is given for a shot they do not have, over many
game states: a newcomer's first Fire order crashed (the 3-inch Mortar Team's mortar could
not see its target, while its unarmed crew and spotter could), so every unit and target
of seeded games in both editions is asked here, as the Fire and Advance prompts ask."""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterator

import pytest
from rich.console import Console

from kriegsspiel.ai.players import RandomPlayer, chance_outcome
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.sim.matchup import build_matchup, set_up_game
from kriegsspiel.solo.briefing import end_heading, shot_line
from kriegsspiel.solo.human import HumanPlayer, QuitGame, run_blocked
from kriegsspiel.solo.reasons import assault_closed, fire_closed, no_shot_reason

# what no_shot_reason says when it found no cause it could name: a sweep that meets it has
# found a way the game gives no shot that the reasons do not know
UNNAMED = "none of its weapons in range can hurt"


def answers(*lines: str) -> Callable[[str], str]:
    """A person who types ``lines`` in turn (then quits)."""
    typed = iter(lines)
    return lambda prompt: next(typed, "quit")


def told(game: BoltActionGame, *lines: str) -> str:
    """What the terminal shows a person who types ``lines`` at this decision (then quits)."""
    out = Console(file=io.StringIO(), width=250)
    with pytest.raises(QuitGame):
        HumanPlayer(out, answers(*lines)).choose(game)
    return " ".join(out.file.getvalue().split())  # type: ignore[attr-defined]


def named(game: BoltActionGame, name: str) -> UnitState:
    return next(u for u in game.units if u.name == name)


def test_a_mortar_whose_spotter_alone_sees_the_target_fires_and_is_told_its_shot() -> None:
    """Bolt Action, seed 4, the first decision (the README's game with the set-up left to
    the game): the 3-inch Mortar Team's mortar cannot see the 8cm Mortar Team behind the
    Farmhouse, though its crew and spotter, who carry no weapon, can. A mortar fires at
    what its team sees (Spotters, docs/rules): the Fire menu gives its shot, not the "no
    shot ... seen only by its unarmed Crew and Spotter" it gave before. An MMG team's
    gunner gets no such help: its loaders' eyes do not count."""
    game = set_up_game(build_matchup("bolt-action-1", None, [], "human,tactical", seats=True), 4)
    game.apply_action(Action("draw", side=0))
    mortar, target = named(game, "3-inch Mortar Team"), named(game, "8cm Mortar Team")
    sights = game.table.nearest_in_sight(mortar.coords, target.coords)
    armed = [s for m, s in zip(mortar.alive_models, sights, strict=True) if m.weapons]
    assert armed == [None] and any(sights)  # (only the unarmed see it)
    assert game.shot_groups(mortar, target, moving=False)
    number = game.eligible(0).index(mortar) + 1
    shown = told(game, str(number), "fire")
    assert '8cm Mortar Team: 36.0": 1 shot of Medium mortar needing 6+' in shown
    assert "seen only by" not in shown
    # the Vickers MMG Team where the mortar team stands: its gunner blind, its loaders not
    vickers = named(game, "Vickers MMG Team")
    vickers.translate(mortar.anchor.x - vickers.anchor.x, 0)
    assert not game.shot_groups(vickers, target, moving=False)
    assert no_shot_reason(game, vickers, target, moving=False) == (
        "out of sight of its MMG: Farmhouse in the way; seen only by its unarmed Loader"
    )


def test_a_pinned_squad_is_told_its_pins_leave_it_no_hit() -> None:
    """A squad whose pins leave no roll that hits (past the 7+ that needs a 6 and then
    another) is told that, with the working of the roll, not that its weapons cannot
    hurt the target."""
    game = set_up_game(build_matchup("bolt-action-1", None, [], "human,tactical", seats=True), 3)
    section, squad = named(game, "1st Section"), named(game, "1st Grenadier Squad")
    section.translate(27.5 - section.anchor.x, 30 - section.anchor.y)
    squad.translate(40 - squad.anchor.x, 38 - squad.anchor.y)
    assert game.shot_groups(section, squad, moving=False)
    section.pins = 8
    assert not game.shot_groups(section, squad, moving=False)
    reason = no_shot_reason(game, section, squad, moving=False)
    assert reason.startswith("its ") and "cannot hit it (base 3+" in reason, reason
    assert "8 pins -8" in reason and UNNAMED not in reason


def decisions(ruleset: str, seed: int, every: int) -> Iterator[BoltActionGame]:
    """Every ``every``-th decision (not a reaction) of a game between two seeded random
    players (list order or shuffled deployment, by the seed's parity), on the scenarios
    in turn."""
    scenario = ("meeting-engagement", "hold-the-crossroads")[seed % 2]
    deployment = ("list-order", "shuffled")[seed // 2 % 2]
    matchup = build_matchup(ruleset, scenario, [], "random,random", deployment=deployment)
    game = set_up_game(matchup, seed)
    rng, players = random.Random(seed), [RandomPlayer(seed), RandomPlayer(seed + 1)]
    for step in range(400):
        if game.is_terminal():
            return
        side = game.current_player()
        if side < 0:
            game.apply_action(chance_outcome(game, rng))
            continue
        if step % every == 0 and game.pending is None:
            yield game
        game.apply_action(players[side].choose(game))


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
@pytest.mark.parametrize("seed", range(4))
def test_every_unit_without_a_shot_is_told_a_named_reason(ruleset: str, seed: int) -> None:
    """Over seeded games of each edition: each unit, at each enemy, standing, on the move
    and from the end of an Advance it may make, is told a shot (the briefing's line) or,
    where the game gives it none, a reason naming the cause; and its Fire and Assault
    prompts (the menu's reasons, and the orders not open) answer without a traceback."""
    asked = 0
    for game in decisions(ruleset, seed, every=5):
        side = game.current_player()
        advances = {
            a.unit: a for a in game.legal_actions() if a.order == "Advance" and a.to is not None
        }
        for unit in [u for u in game.units if not u.destroyed]:
            move = advances.get(unit.uid)
            for enemy in [e for e in game.units if e.side != unit.side and not e.destroyed]:
                froms = [(False, None, None), (True, None, None)]
                if move is not None and move.to is not None:
                    froms.append((True, move.to, end_heading(game, unit, move)))
                for moving, to, heading in froms:
                    origin = None if to is None else type(unit.anchor)(*to)
                    line = shot_line(
                        game, unit, enemy, moving=moving, origin=origin, heading=heading
                    )
                    groups = game.shot_groups(
                        unit, enemy, moving=moving, origin=origin, heading=heading
                    )
                    assert (line == "no shot") == (not groups)
                    if groups:
                        continue
                    reason = no_shot_reason(
                        game, unit, enemy, moving=moving, origin=origin, heading=heading
                    )
                    assert reason and UNNAMED not in reason, (unit.name, enemy.name, reason)
                    asked += 1
            if unit.side == side:
                assert fire_closed(game, unit, ["Advance"])
                assert assault_closed(game, unit)
                run_blocked(game, unit)
        for number in range(1, len(game.eligible(side)) + 1):
            told(game, str(number), "fire")
            told(game, str(number), "assault")
    assert asked > 1000  # (the games give many a unit no shot: each was asked why)
