"""A Down order needs no order test, pinned or not (so it cannot FUBAR): the published
rule as commonly summarised ("having at least one pin forces an order test for any order
except Down"); the sheets are silent. One rule, asked alike by the game, the odds, the
play aid and the solo hints."""

from __future__ import annotations

import pytest
from test_aid import new_tracker, with_die_in_hand
from test_game_bolt_action import place, small_game

from kriegsspiel.aid.tracker import AidError
from kriegsspiel.aid.view import view
from kriegsspiel.core.procedure import ScriptedDice
from kriegsspiel.rulesets.bolt_action import rules_for
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.morale import (
    new_test,
    order_test,
    order_test_needed,
)
from kriegsspiel.rulesets.bolt_action.odds import order_test_odds

EDITIONS = ("konflikt47", "bolt-action-1")
SQUADS = {
    "konflikt47": (["1st Grenadier Squad"], ["1st Rifle Squad"]),
    "bolt-action-1": (["1st Section"], ["1st Grenadier Squad"]),
}


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_pinned_unit_ordered_down_goes_down_without_an_order_test(ruleset: str) -> None:
    mine, theirs = SQUADS[ruleset]
    game = small_game(ruleset, mine, theirs)
    squad, enemy = game.units
    place(squad, 36.0, 10.0, 0.0)
    place(enemy, 36.0, 38.0, 180.0)
    squad.pins = 3
    game.dice = ScriptedDice([])  # no die may be rolled: a test would want 2D6
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=squad.uid, order="Down"))
    assert squad.order == "Down" and squad.pins == 3
    assert not any(e.kind in ("order test", "fubar") for e in game.events)
    # any other order of the same unit takes its test: a double six is a FUBAR
    game = small_game(ruleset, mine, theirs)
    squad, enemy = game.units
    place(squad, 36.0, 10.0, 0.0)
    place(enemy, 36.0, 38.0, 180.0)
    squad.pins = 3
    game.dice = ScriptedDice([6, 6, 1])
    game.apply_action(Action("draw", side=0))
    game.apply_action(Action("order", unit=squad.uid, order="Rally"))
    test = next(e for e in game.events if e.kind == "order test").data
    assert (test["roll"], test["result"]) == (12, "friendly fire")


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_the_rule_asks_no_test_of_down_alone(ruleset: str) -> None:
    rules = rules_for(ruleset)
    pinned = new_test(rules, "regular", pins=2)
    assert not order_test_needed(rules, pinned, "Down")
    assert all(
        order_test_needed(rules, pinned, order)
        for order in ("Fire", "Advance", "Run", "Ambush", "Rally", None)
    )
    # a Down order rolls nothing, whatever the dice would have said
    assert order_test(ScriptedDice([]), rules, pinned, "Down") == "no test"
    assert order_test(ScriptedDice([6, 6, 1]), rules, pinned, "Fire") == "friendly fire"
    # the odds of a test say a Down order needs none
    reasons = {
        r.topic: r.result for r in order_test_odds(ruleset, quality="regular", pins=2).reasons
    }
    assert reasons["Down order"] == "no test"


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_the_play_aid_gives_down_without_a_test(ruleset: str) -> None:
    tracker = with_die_in_hand(new_tracker(ruleset).set_pins(1, 2), 0)
    with pytest.raises(AidError, match="a Down order needs no order test"):
        tracker.give_order(1, "Down", outcome="fail")
    rolled = tracker.give_order(1, "Down", dice=ScriptedDice([]))
    assert rolled.units[1].order == "Down" and rolled.log[-1].endswith("(no test) -> Down")
    assert view(tracker, can_undo=False)["untested_orders"] == ["Down"]
