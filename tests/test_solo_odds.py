"""Solo probe (Konflikt '47, solo play): 'odds' at the game's prompts, a Rally by a unit
without pins, and the enemies a Fire list (or an Advance's "Then fire at") leaves off for
want of sight, said."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from test_game_bolt_action import place, small_game

from kriegsspiel.core.game import Event
from kriegsspiel.core.procedure import ScriptedDice
from kriegsspiel.core.table import Table, TerrainFeature, rectangle
from kriegsspiel.render.game_account import account_from, describe
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.solo.briefing import shot_line
from kriegsspiel.solo.human import HELP, HumanPlayer, QuitGame


def behind_the_barn() -> BoltActionGame:
    """Konflikt '47: a German MMG team at (36, 10) to order, side A's die drawn; of the
    enemy, a Bazooka Team in plain sight and an MMG team behind a barn, within the MG 42's
    reach."""
    game = small_game("konflikt47", ["MG 42 MMG Team"], ["Bazooka Team", "Browning M1919 MMG Team"])
    mg, bazooka, browning = game.units
    barn = TerrainFeature(
        "Barn", "building", "hard", rectangle(34.0, 20.0, 40.0, 24.0), blocks_line_of_sight=True
    )
    game.table = Table(72.0, 48.0, (barn,))
    place(mg, 36.0, 10.0, 0.0)
    place(bazooka, 20.0, 30.0, 180.0)
    place(browning, 37.0, 34.0, 180.0)
    assert game.gap(mg, browning) < game.reach(mg, moving=False)
    assert not game.visible(mg, browning) and game.visible(mg, bazooka)
    game.turn_dice = (mg.uid,)
    game.apply_action(Action("draw", side=0))
    return game


def told_after(game: BoltActionGame, *typed: str) -> tuple[str, Action | None]:
    """What the solo player is told while it types ``typed`` (then 'quit'), and the action
    it chose (None: it quit first)."""
    console = Console(file=io.StringIO(), width=250)
    answers = iter(typed)
    player = HumanPlayer(console, lambda prompt: next(answers, "quit"))
    try:
        action: Action | None = player.choose(game)
    except QuitGame:
        action = None
    return console.file.getvalue(), action  # type: ignore[attr-defined]


def test_odds_at_the_prompt_gives_the_ordered_units_shots_as_its_fire_list_does() -> None:
    """Solo probe: 'odds' at "Order:" was "not one of the choices", and 'help' did not name
    it. It now gives the unit's shot at each enemy, the Fire list's own line; before a unit
    is picked, where the odds are; 'odds NAME' any unit's."""
    game = behind_the_barn()
    mg, bazooka, _ = game.units
    told, action = told_after(game, "odds", "1", "odds", "odds browning", "fire", "1")
    assert "not one of the choices" not in told
    assert "'odds' gives the shots of the unit being ordered, once it is picked" in told
    line = shot_line(game, mg, bazooka, moving=False)
    assert line.startswith('24.7": 4 shots of Medium machine gun (MMG) needing 5+')
    assert told.count(f"  Bazooka Team: {line}\n") == 2  # ('odds', then the Fire list)
    assert "MG 42 MMG Team (A) firing now, from where it stands" in told
    assert "  (not in sight: Browning M1919 MMG Team (Barn in the way))" in told
    # the enemy's MMG behind the barn, asked by name: it sees no one
    assert "Browning M1919 MMG Team (B) firing now" in told
    assert "  (not in sight: MG 42 MMG Team (Barn in the way))" in told
    assert action == Action("order", unit=mg.uid, order="Fire", target=bazooka.uid)
    assert "'odds' the shots of the unit being ordered" in " ".join(HELP.split())


def test_a_fire_list_names_the_enemies_in_reach_it_does_not_see() -> None:
    """Solo probe: the walker's Fire list named the rifle squads outside its arc, with why,
    but left the teams behind the Barn off without a word. They are named under the list,
    with what hides them, and one typed there is told so."""
    game = behind_the_barn()
    told, action = told_after(game, "1", "fire", "browning", "1")
    listed = told[told.index("   1  Bazooka Team") :]
    assert listed.splitlines()[1] == "  (not in sight: Browning M1919 MMG Team (Barn in the way))"
    assert (
        "'browning': Browning M1919 MMG Team is not a target: it is not in sight (Barn in "
        "the way); give a number from 1 to 1"
    ) in told
    assert action is not None and action.target == game.units[1].uid
    # out of its reach, hidden or not, it is out of range: not named
    place(game.units[2], 37.0, 47.0, 180.0)
    assert game.gap(game.units[0], game.units[2]) > game.reach(game.units[0], moving=False)
    assert "not in sight" not in told_after(game, "1", "fire", "1")[0]


def squad_short_of_the_barn() -> BoltActionGame:
    """:func:`behind_the_barn` with a Grenadier squad at (36, 7.5) to order instead of the
    MMG team (its rifles fire on the move): an Advance to (36, 13.5) puts the Bazooka Team
    in its reach and sight, and the MMG team behind the barn in its reach only."""
    game = small_game(
        "konflikt47", ["1st Grenadier Squad"], ["Bazooka Team", "Browning M1919 MMG Team"]
    )
    squad, bazooka, browning = game.units
    barn = TerrainFeature(
        "Barn", "building", "hard", rectangle(34.0, 20.0, 40.0, 24.0), blocks_line_of_sight=True
    )
    game.table = Table(72.0, 48.0, (barn,))
    place(squad, 36.0, 8.0, 0.0)
    place(bazooka, 20.0, 30.0, 180.0)
    place(browning, 37.0, 34.0, 180.0)
    game.turn_dice = (squad.uid,)
    game.apply_action(Action("draw", side=0))
    return game


def test_then_fire_at_names_the_enemies_in_reach_it_will_not_see_as_the_fire_list_does() -> None:
    """Solo probe: after an Advance, "Then fire at" left the MMG team behind the barn off
    without a word, where the Fire list names it. It is named under the list, in the Fire
    list's words, and one typed there is told why it is not a target."""
    game = squad_short_of_the_barn()
    squad, bazooka, browning = game.units
    told, action = told_after(game, "1", "advance", "36,13.5", "browning", "2")
    listed = told[told.index("   1  no one: only move") :].splitlines()
    assert listed[1].startswith('   2  Bazooka Team: about 23" from there: ')
    assert listed[2] == "  (not in sight: Browning M1919 MMG Team (Barn in the way))"
    assert (
        "'browning': Browning M1919 MMG Team is not a target: it is not in sight (Barn in "
        "the way); give a number from 1 to 2"
    ) in told
    assert action == Action(
        "order", unit=squad.uid, order="Advance", to=(36.0, 13.5), target=bazooka.uid
    )
    # the Fire list's own line, from where it stands (both are then out of its reach)
    assert game.gap(squad, browning) < game.reach(squad, moving=False)
    fire_told, _ = told_after(game, "1", "fire")
    assert "  (not in sight: Browning M1919 MMG Team (Barn in the way))" in fire_told


def test_an_advance_with_no_target_after_it_says_who_it_will_not_see() -> None:
    """With no target from the place picked, no "Then fire at" is asked; the enemies in its
    reach it will not see from there are said, not left to be wondered at."""
    game = squad_short_of_the_barn()
    squad, bazooka, _ = game.units
    place(bazooka, 10.0, 45.0, 180.0)  # (out of its reach now)
    told, action = told_after(game, "1", "advance", "36,13.5")
    assert "no one: only move" not in told  # (no "Then fire at" asked)
    assert (
        "From there 1st Grenadier Squad will have no target to fire at (not in sight: "
        "Browning M1919 MMG Team (Barn in the way))."
    ) in told
    assert action == Action("order", unit=squad.uid, order="Advance", to=(36.0, 13.5))


def test_an_order_typed_for_the_unit_and_odds_at_then_fire_at_are_told_plainly() -> None:
    """Solo games: 'advance' at "Unit to order" was "not one of the choices", with no word
    that the unit comes first; 'odds' at "Then fire at" gave the shots from where the unit
    stands, under a list of those from the place picked, without saying which is which."""
    game = squad_short_of_the_barn()
    bazooka = game.units[1]
    told, action = told_after(game, "advance", "1", "advance", "36,13.5", "odds", "2")
    assert (
        "'advance': that is an order: pick the unit first, then its order; give a number "
        "from 1 to 1"
    ) in told
    assert (
        "(The list above gives its shots after the Advance, from (36.0, 13.5); 'odds' gives "
        "those from where it stands now.)\n1st Grenadier Squad (A) firing now, from where it "
        "stands"
    ) in told
    assert action is not None and action.target == bazooka.uid
    # 'odds' at the orders, before any place: no such word
    told, _ = told_after(game, "1", "odds", "quit")
    assert "1st Grenadier Squad (A) firing now" in told and "The list above" not in told


@pytest.mark.parametrize(("pins", "label"), [(0, "Rally (no pins to lose)"), (1, "Rally")])
def test_rally_says_in_the_menu_when_it_has_no_pins_to_lose(pins: int, label: str) -> None:
    """Solo probe: Rally was offered to a unit with no pins as if it did something. The
    rules allow it; the menu says it loses none, and the word still picks it."""
    game = behind_the_barn()
    game.units[0].pins = pins
    told, action = told_after(game, "1", "rally")
    assert f"\n   5  {label}\n   6  Down\n" in told
    assert action == Action("order", unit=game.units[0].uid, order="Rally")


def test_a_rally_with_no_pins_rolls_its_die_and_reads_it_had_none_to_lose() -> None:
    """Solo probe: "rallies: rolls 5 on D6: loses 0 pins (all it has)". The game rolls the
    Rally's D6 as before (the dice stream unchanged); the account says it had no pins to
    lose, with the die."""
    game = behind_the_barn()
    mg = game.units[0]
    game.dice = ScriptedDice([5])
    start = len(game.events)
    game.apply_action(Action("order", unit=mg.uid, order="Rally"))
    assert game.dice.remaining == []  # type: ignore[attr-defined]
    rally = next(e for e in game.events[start:] if e.kind == "rally")
    assert (rally.data["roll"], rally.data["pins_lost"]) == (5, 0)
    told, _ = account_from(game.events[start:], game.units, game.turn)
    assert told[-1] == "    rallies: has no pins to lose (its D6 rolled 5)"
    # a unit with pins reads as before
    event = Event("rally", {"unit": mg.uid, "pins_lost": 2, "roll": 5, "turn": 1})
    assert describe(event, game.units) == "    rallies: rolls 5 on D6: loses 2 pins (all it has)"


def test_odds_for_an_observer_with_no_shot_but_its_call_points_to_the_call() -> None:
    """Solo games: 'odds' for an observer whose only shot is its call (the Forward
    Observer's barrage, the Air Observer's air strike) said "no enemy is in its sight and
    range" and no more. It now says its shot is the call, how the menu gives it, and each
    target as the call's own list shows it (whom it would reach); once called, that it is
    spent."""
    from test_solo_mends import bolt_action

    from kriegsspiel.solo.briefing import call_line
    from kriegsspiel.solo.odds_asked import odds_lines

    game = bolt_action()
    game.apply_action(Action("draw", side=0))
    observer = next(u for u in game.units if u.name == "Forward Observer")
    airman = next(u for u in game.units if u.name == "Air Observer")
    seen = [e for e in game.units if e.side == 1 and game.visible(observer, e)]
    assert seen and airman in seen
    said = odds_lines(game, airman)
    assert said[1].startswith("  no enemy is in its sight and range")
    assert said[2] == (
        "  its shot is the air strike it may call (one a game): the order Call air strike in "
        "the menu, then its target, any enemy it sees, however far:"
    )
    number = game.eligible(0).index(observer) + 1
    told, action = told_after(game, "odds forward observer", str(number), "call barrage", "1")
    assert "its shot is the barrage it may call (one a game): the order Call barrage" in told
    for enemy in seen:  # (the odds' line, then the call's own list's)
        line = call_line(game, observer, enemy, "barrage")
        assert line.startswith(f"{enemy.name}, ") and f"    {line}\n" in told
        assert told.count(f"{line}\n") == 2, line
    assert action is not None and action.choice == "barrage"
    game.apply_action(action)
    assert odds_lines(game, observer)[-1].startswith(
        "  (Call barrage is not open to it now: its one barrage a game was called in turn 1"
    )
