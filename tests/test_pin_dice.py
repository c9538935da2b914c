"""An HE or flame hit's own pins (D2/D3/D6 on the HE table, a flamethrower's) as rolled
(record format 9): kept in the weapon's part of the shot's event and told on its dice line
("pins D3: 2"), at troops and at a vehicle, with the dice stream unchanged (probe accounts,
finding 2)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from test_record_rolls import older_format, record_text

from kriegsspiel.core.game import Event
from kriegsspiel.core.procedure import RandomDice
from kriegsspiel.render.game_account import describe
from kriegsspiel.rulesets.bolt_action import rules_for
from kriegsspiel.rulesets.bolt_action.attack import attack_troops, attack_vehicle, troops_context
from kriegsspiel.rulesets.bolt_action.game import record
from kriegsspiel.rulesets.bolt_action.game.firing import weapons_fired
from kriegsspiel.rulesets.bolt_action.game.record_events import as_written_in
from kriegsspiel.rulesets.bolt_action.shooting import plan_shot
from kriegsspiel.rulesets.bolt_action.shot import Group, Situation
from kriegsspiel.rulesets.bolt_action.vehicle_damage import Tally

UNITS = [SimpleNamespace(name="Mortar team", side=0), SimpleNamespace(name="Target", side=1)]


def test_an_he_hits_pins_die_at_troops_is_kept_and_makes_its_pins() -> None:
    """A medium mortar ranged in on a squad (HE D6 hits, D2 pins: sheet 002's HE table)
    and a rifle with it, over a few seeds: the part of the mortar keeps its D2 as rolled,
    the pins are the most of 1 and it, and the dice are those of the attack rolled without
    a tally; some of the D2s are 2s, the pins they made."""
    rules = rules_for("bolt-action-1")
    s = Situation(range_inches=30, ranged_in=True)
    target = rules.target("regular infantry")
    mortar = plan_shot(rules, rules.weapon("Medium mortar"), target, s)[0]
    rifle = plan_shot(rules, rules.weapon("Rifle"), target, Situation(range_inches=20))[0]
    groups = [Group(rifle, 2), Group(mortar, 1)]
    ctx = troops_context(rules, groups, quality="regular", models=10, pins=0)
    twos = 0
    for seed in range(8):
        plain, kept, tally = RandomDice(seed), RandomDice(seed), Tally()
        out = attack_troops(kept, groups, ctx, tally)
        assert attack_troops(plain, groups, ctx) == out
        assert plain.rng.bit_generator.state == kept.rng.bit_generator.state
        rifles, mortars = weapons_fired(groups, tally)
        assert "pin_dice" not in rifles and "pin_roll" not in rifles
        if mortars["struck"]:
            assert mortars["pin_roll"] == "D2" and len(mortars["pin_dice"]) == 1
            assert out.pins == max(1, *mortars["pin_dice"])
            twos += mortars["pin_dice"] == (2,)
        else:
            assert "pin_dice" not in mortars
    assert twos


@pytest.mark.parametrize("seed", range(8))
def test_an_he_hits_pins_dice_at_a_vehicle_are_kept_one_a_shot_that_hit(seed: int) -> None:
    """Three medium mortar shots at a soft-skin: each shot that hit rolls its D2 pins
    (kept, as rolled, one for each), the dice as without a tally."""
    rules = rules_for("bolt-action-1")
    s = Situation(range_inches=30, ranged_in=True)
    mortar = plan_shot(rules, rules.weapon("Medium mortar"), rules.target("soft-skin"), s)[0]
    groups = [Group(mortar, 3)]
    plain, kept, tally = RandomDice(seed), RandomDice(seed), Tally()
    state = attack_vehicle(kept, groups, tally)
    assert attack_vehicle(plain, groups) == state
    assert plain.rng.bit_generator.state == kept.rng.bit_generator.state
    (part,) = weapons_fired(groups, tally)
    assert len(part.get("pin_dice", ())) == part["struck"] == len(part["per_hit_dice"])
    if part["struck"] and not state.knocked_out:
        assert part["pin_roll"] == "D2" and state.attack_pins == max(part["pin_dice"])


def _event(part: dict[str, object], **more: object) -> Event:
    return Event(
        "shoot", {"unit": 0, "target": 1, "shots": part["shots"], "weapons": [part]} | more
    )


def test_the_dice_line_tells_the_pins_die() -> None:
    """The probe's mortar (turn 5 of its seed-10 game): 2 pins from a D2 the account never
    showed. Now its dice line tells it after the roll of hits; where an attack rolled more
    than one pins die, it says the most counts."""
    part = {"weapon": "Medium mortar", "shots": 1, "hits": 0, "needs": 2, "hit_dice": [2],
            "struck": 1, "per_hit": "D6 halved", "per_hit_dice": [1], "pin_roll": "D2",
            "pin_dice": [2], "damage_dice": [], "damage_needs": 4}  # fmt: skip
    told = str(describe(_event(part, hits=0, casualties=0, pins=2), UNITS)).split("\n")
    assert (
        told[1] == "      dice: to hit 2+: 2 (1 shot on target x D6 halved: 1 = 0 hits), pins D2: 2"
    )
    many = part | {"shots": 2, "hit_dice": [4, 3], "struck": 2, "per_hit_dice": [1, 5],
                   "pin_dice": [1, 2], "hits": 2}  # fmt: skip
    told = str(describe(_event(many, hits=2, casualties=0, pins=2), UNITS)).split("\n")
    assert told[1].endswith(", pins D2: 1 2 (the most counts)")


def test_a_sure_hits_pins_die_is_told_alone() -> None:
    """A barrage's heavy howitzer hit on a half-track rolls no to-hit die: its dice line
    is its D6 pins alone (the probe's seed-106 '5 pins' is that D6's 4 and crew stunned)."""
    part = {"weapon": "Heavy howitzer", "shots": 1, "hits": 1, "hit_dice": [],
            "pin_roll": "D6", "pin_dice": [4]}  # fmt: skip
    event = Event(
        "support damage",
        {"target": 1, "shots": 1, "weapons": [part], "damage_rolls": [], "stunned": True,
         "knocked_out": False, "immobilised": False, "on_fire": False, "pins": 5},
    )  # fmt: skip
    assert str(describe(event, UNITS)).split("\n")[1] == "      dice: pins D6: 4"


def test_a_record_before_format_9_has_no_pins_dice_and_replays(tmp_path: Path) -> None:
    """A game's record holds the pins dice; a format-8 record, written without them, has
    none and replays, its note saying it lacks them."""
    text = record_text(2)
    assert '"pin_dice":' in text and '"pin_roll":' in text
    old = older_format(text, 8)
    assert '"pin_dice":' not in old and '"pin_roll":' not in old and '"hit_dice":' in old
    path = tmp_path / "old.jsonl"
    path.write_text(old, encoding="utf-8")
    result = record.replay(path)
    assert result.reproduced and result.older_format == 8
    assert "an HE or flame hit's own pins" in " ".join(result.notes())
    part = {"weapon": "Medium mortar", "shots": 1, "hits": 3, "hit_dice": [4], "pin_roll": "D2",
            "pin_dice": [2]}  # fmt: skip
    row = {"event": "shoot", "weapons": [part], "hits": 3, "casualties": 1}
    assert as_written_in(row, 8)["weapons"] == [{k: v for k, v in part.items() if "pin" not in k}]
    assert as_written_in(row, 9) == row
