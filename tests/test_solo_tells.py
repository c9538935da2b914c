"""Solo probe (second round): what ``look`` and the game's running account tell a player,
in one style and with the numbers the charts and the dice gave."""

from __future__ import annotations

import io

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
