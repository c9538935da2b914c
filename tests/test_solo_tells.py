"""Solo probe (second round): what ``look`` and the game's running account tell a player,
in one style and with the numbers the charts and the dice gave."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.sim.matchup import build_matchup, set_up_game


def bolt_action(seed: int = 3) -> BoltActionGame:
    """The Bolt Action sample armies on the meeting engagement, before the first die."""
    return set_up_game(build_matchup("bolt-action-1", None, [], "human,tactical", seats=True), seed)


def unit_named(game: BoltActionGame, name: str, side: int = 0) -> UnitState:
    return next(u for u in game.units if u.name == name and u.side == side)


def card(game: BoltActionGame, name: str) -> str:
    from kriegsspiel.solo.briefing import unit_card

    console = Console(file=io.StringIO(), width=250)
    console.print(unit_card(game, unit_named(game, name)))
    return console.file.getvalue()  # type: ignore[attr-defined,no-any-return]


def test_look_gives_a_mortars_least_range_and_he_and_an_officers_rank_as_the_chart_does() -> None:
    """``look`` gave a mortar's range as 60" (the chart: 18-60"), no HE dice, and never
    said the HQ's officer was a Second Lieutenant (+1 within 6")."""
    game = bolt_action()
    mortar = card(game, "3-inch Mortar Team")
    assert '│ 18-60" │' in mortar
    assert "│ D6 │ Team, Fixed, Indirect Fire, HE │" in mortar
    assert "│ D2 │" in card(game, "M4 Sherman")
    hq = card(game, "Platoon HQ").splitlines()
    assert hq[2] == 'Second Lieutenant: +1 to order tests and morale within 6"'
    assert "Lieutenant" not in card(game, "1st Section")


def test_an_ambush_asked_again_after_a_shot_does_not_say_the_mover_moved_again() -> None:
    """Solo probe: after an ambusher's shot killed men, the next ambusher's prompt said
    "1st Grenadier Squad has moved to (11.0, 36.4)" (it said (10.7, 36.5) first): its
    centre had shifted with its casualties, and it read as a second move."""
    from test_game_bolt_action import place, small_game

    from kriegsspiel.rulesets.bolt_action.game.actions import Action
    from kriegsspiel.solo.human import HumanPlayer

    game = small_game("bolt-action-1", ["1st Section"], ["MG 42 MMG Team", "2nd Grenadier Squad"])
    section, mg, squad = game.units
    place(section, 36.0, 10.0, 0.0)
    place(mg, 30.0, 30.0, 180.0)
    place(squad, 42.0, 30.0, 180.0)
    mg.retained = squad.retained = "Ambush"
    game.turn_dice = (section.uid,)
    game.apply_action(Action("draw", side=0))
    to = (section.anchor.x, section.anchor.y + 5.0)
    game.apply_action(Action("order", unit=section.uid, order="Advance", to=to))
    console = Console(file=io.StringIO(), width=250)
    player = HumanPlayer(console, lambda prompt: "1")  # (its first ambusher fires each time)
    told: list[str] = []
    while game.pending is not None and game.pending.kind == "ambush":
        before = len(console.file.getvalue())  # type: ignore[attr-defined]
        game.apply_action(player.choose(game))
        told.append(console.file.getvalue()[before:].splitlines()[0])  # type: ignore[attr-defined]
    assert len(told) == 2, told
    assert told[0].startswith(f"1st Section has moved to ({to[0]:.1f}, {to[1]:.1f}).")
    assert told[1] == "Your other units on Ambush may still fire at 1st Section."


def test_a_spent_barrage_is_said_in_the_menu_and_at_fire() -> None:
    """Solo probe: once the observer's one barrage was called, its menu silently dropped
    "Call barrage", and its Fire never said the barrage was gone."""
    from kriegsspiel.rulesets.bolt_action.game.actions import Action
    from kriegsspiel.solo.human import HumanPlayer, QuitGame

    game = bolt_action()
    observer = unit_named(game, "Forward Observer")
    game.apply_action(Action("draw", side=0))
    call = next(a for a in game.legal_actions() if a.unit == observer.uid and a.choice)
    game.apply_action(call)
    assert observer.support_used
    while game.current_player() != 0 or not any(
        a.unit == observer.uid for a in game.legal_actions()
    ):  # (on to the next turn, in which it may be ordered again)
        game.apply_action(game.legal_actions()[0])
    console = Console(file=io.StringIO(), width=250)
    menu = str(game.eligible(0).index(observer) + 1)
    typed = iter([menu, "call", "fire"])
    with pytest.raises(QuitGame):
        HumanPlayer(console, lambda prompt: next(typed, "quit")).choose(game)
    told = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    spent = "its one barrage a game was called in turn 1"
    assert f"(Call barrage is not open to it now: {spent}.)" in told
    assert f"'call': not open to Forward Observer now: {spent};" in told
    assert "'fire': not open to Forward Observer now: no enemy is in its sight" in told
    assert f"; {spent}; give a number" in told  # (its rifle has no target either)
    enemy = min((u for u in game.units if u.side == 1), key=lambda e: game.gap(observer, e))
    for model in observer.models:  # (within its rifle's reach: Fire is offered)
        model.x += (enemy.anchor.x - observer.anchor.x) * 0.6
        model.y += (enemy.anchor.y - observer.anchor.y) * 0.6
    typed = iter([menu, "fire"])
    with pytest.raises(QuitGame):
        HumanPlayer(console, lambda prompt: next(typed, "quit")).choose(game)
    assert "(Its one barrage a game was called in turn 1.)" in console.file.getvalue()  # type: ignore[attr-defined]


def test_a_meeting_engagements_end_lists_the_units_each_side_lost(tmp_path: Path) -> None:
    """Solo probe: a meeting engagement ended with "score 0 - 8 (enemy units destroyed);
    units left 3 v 10" and never said which units were lost (an objectives game lists each
    objective's holder). It lists each side's units destroyed, adding up to the score."""
    from kriegsspiel.solo.session import SoloGame

    game = bolt_action()
    for name in ("Platoon HQ", "PIAT Team"):
        game.destroy(unit_named(game, name), "shot", by=unit_named(game, "Platoon HQ", 1))
    assert [u.name for u in game.units if u.destroyed] == ["Platoon HQ", "PIAT Team"]
    console = Console(file=io.StringIO(), width=250)
    solo = SoloGame(
        game,
        ("human", "tactical"),
        {"players": ["human", "tactical"]},
        str(tmp_path / "g.jsonl"),
        str(tmp_path / "g.svg"),
        console,
        lambda prompt: "quit",
    )
    solo.finished()
    end = console.file.getvalue()  # type: ignore[attr-defined]
    assert "score 0 - 2 (enemy units destroyed)" in end
    assert (
        "The units destroyed:\n  side A lost 2: Platoon HQ, PIAT Team\n  side B lost none\n"
    ) in end


def run_refusal(game: BoltActionGame, typed: str) -> str:
    """What the game says to a Run of the Universal Carrier typed at ``typed``."""
    from kriegsspiel.rulesets.bolt_action.game.actions import Action
    from kriegsspiel.solo.human import HumanPlayer, QuitGame

    carrier = unit_named(game, "Universal Carrier")
    game.apply_action(Action("draw", side=0))
    menu = str(game.eligible(0).index(carrier) + 1)
    answers = iter([menu, "run", typed])
    console = Console(file=io.StringIO(), width=400)
    with pytest.raises(QuitGame):
        HumanPlayer(console, lambda prompt: next(answers, "quit")).choose(game)
    return console.file.getvalue()  # type: ignore[attr-defined,no-any-return]


def test_a_run_blocked_by_a_building_is_offered_up_to_the_building() -> None:
    """Solo probe (seed 41): the carrier's full 18" Run straight ahead ends in the Barn,
    and was dropped, so only the half Run (9") was offered, though a Run of 16.4" straight
    ahead is allowed. The full move is cut short at the last place before the Barn."""
    from kriegsspiel.core.table import Point
    from kriegsspiel.rulesets.bolt_action.game.candidates import destinations
    from kriegsspiel.rulesets.bolt_action.game.table_rules import check_move

    game = bolt_action(41)
    carrier = unit_named(game, "Universal Carrier")
    start = carrier.anchor
    assert (start.y, carrier.heading) == (6.0, 0.0)
    full = Point(start.x, start.y + 18.0)
    assert not check_move(game.rules, game.table, carrier, full, run=True).allowed
    ahead = [p for p in destinations(game, carrier, run=True) if abs(p.x - start.x) < 0.01]
    farthest = max(p.y for p in ahead) - start.y
    assert 16.0 <= farthest < 18.0, ahead
    assert not check_move(
        game.rules, game.table, carrier, Point(start.x, start.y + farthest + 0.5), run=True
    ).allowed  # (within half an inch of the last place allowed)
    told = " ".join(run_refusal(game, "51,23").split())
    assert re.search(r"The nearest place that would do[^(]*\(49\.1, 22\.\d\), 16\.\d\" away", told)


def test_a_refused_runs_nearest_place_may_be_straight_ahead_of_a_vehicle() -> None:
    """Solo probe: a Run refused for the turn it needs named a listed place as the nearest
    that would do, though a nearer one straight ahead was allowed: the search went back
    only along the line to the place typed, all of which needs the same turn."""
    told = " ".join(run_refusal(bolt_action(41), "51,20").split())
    assert "it needs one 90° turn to drive there" in told
    assert "The nearest place that would do: (49.1, 20.0)" in told, told
