"""Each shot's dice as rolled (record format 8): the to-hit dice (a 7+'s second die too), a
roll of hits, and the damage dice at troops, kept in the shot's event and told in the
account, so a player can check a shot by hand (probe k47solo, finding 1)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from test_record_rolls import older_format, record_text

from kriegsspiel.core.game import Event
from kriegsspiel.core.procedure import RandomDice, ScriptedDice
from kriegsspiel.errors import DataFileError
from kriegsspiel.render.game_account import describe, hit_rolls
from kriegsspiel.rulesets.bolt_action.game import record
from kriegsspiel.rulesets.bolt_action.game.record_events import as_written_in
from kriegsspiel.rulesets.bolt_action.shot import Shot
from kriegsspiel.rulesets.bolt_action.shot_rolls import ShotDice
from kriegsspiel.rulesets.bolt_action.troop_damage import struck_troops

UNITS = [SimpleNamespace(name="1st Section", side=0), SimpleNamespace(name="Panzer IV", side=1)]


def _shot(weapons: list[dict[str, Any]], hits: int, casualties: int) -> Event:
    return Event(
        "shoot",
        {
            "unit": 1,
            "target": 0,
            "shots": sum(w["shots"] for w in weapons),
            "hits": hits,
            "casualties": casualties,
            "pins": 1,
            "weapons": weapons,
        },
    )


def test_the_account_tells_a_shots_dice_high_to_low_after_its_totals() -> None:
    """The probe's line gave only totals ("3 hits, 0 casualties"): the dice follow on a line
    of their own, each roll high to low, with what they made."""
    mmg = {"weapon": "Medium machine gun (MMG)", "shots": 5, "hits": 2, "needs": 5,
           "hit_dice": [2, 6, 1, 5, 4], "damage_dice": [3, 5], "damage_needs": 4}  # fmt: skip
    told = describe(_shot([mmg], 2, 1), UNITS)
    assert told is not None
    first, dice = told.split("\n")
    assert first.endswith(": 2 hits, 1 casualty, 1 pin on 1st Section [A]")
    assert dice == "      dice: to hit 5+: 6 5 4 2 1 (2 hits); to damage 4+: 5 3 (1 casualty)"


def test_several_weapons_a_7_plus_and_a_roll_of_hits_are_told_each_by_name() -> None:
    """Each weapon's to-hit dice after its short name; a 7+'s 6 with its second die
    ("6/4"); HE's roll of hits with its dice; then all the damage dice, and where they
    scored more than the models left, how many counted."""
    rifle = {"weapon": "Rifle", "shots": 3, "hits": 1, "needs": [6, 4],
             "hit_dice": [6, 4, 2, 6, 1], "damage_dice": [6], "damage_needs": 4}  # fmt: skip
    mortar = {"weapon": "Medium mortar", "shots": 1, "hits": 4, "needs": 6, "struck": 1,
              "per_hit": "D6", "hit_dice": [6], "per_hit_dice": [4],
              "damage_dice": [5, 4, 1, 4], "damage_needs": 4}  # fmt: skip
    told = describe(_shot([rifle, mortar], 5, 3), UNITS)
    assert told is not None
    assert told.split("\n")[1] == (
        "      dice: Rifle to hit 7+: 6/4 6/1 2 (1 hit); Medium mortar to hit 6+: 6 "
        "(1 hit x D6: 4 = 4 hits); to damage 4+: 6 5 4 4 1 (4 scored: 3 casualties, all it had)"
    )


def test_twenty_dice_are_told_one_by_one_and_more_by_face() -> None:
    """A line stays short: up to 20 dice one by one (39 characters), more counted by face."""
    twenty = [6, 5, 4, 3, 2, 1] * 3 + [6, 6]
    lmg = {"weapon": "LMG", "shots": 20, "hits": 8, "needs": 5, "hit_dice": twenty,
           "damage_dice": [], "damage_needs": 4}  # fmt: skip
    told = str(describe(_shot([lmg], 8, 0), UNITS)).split("\n")[1]
    assert "to hit 5+: 6 6 6 6 6 5 5 5 4 4 4 3 3 3 2 2 2 1 1 1 (8 hits)" in told
    lmg = {**lmg, "shots": 21, "hits": 9, "hit_dice": [*twenty, 5]}
    told = str(describe(_shot([lmg], 9, 0), UNITS)).split("\n")[1]
    assert "to hit 5+: 6s 5, 5s 4, 4s 3, 3s 3, 2s 3, 1s 3 (9 hits)" in told


def test_hit_rolls_pairs_a_6_with_the_second_die_a_7_plus_rolls() -> None:
    assert hit_rolls([6, 4, 2, 6, 1, 5], [6, 4]) == [(6, 4), (2,), (6, 1), (5,)]
    assert hit_rolls([6, 4, 2], [5]) == [(6,), (4,), (2,)]


def test_a_shot_rolls_the_same_dice_kept_or_not() -> None:
    """The game keeps a shot's dice; the odds and other callers do not: both take the very
    same dice from the same seed and come to the same result, and the dice kept make it."""
    shot = Shot("Rifle", (4,), damage_need=4)
    kept_dice, plain_dice = RandomDice(11), RandomDice(11)
    kept = ShotDice()
    results = [struck_troops(kept_dice, shot, kept) for _ in range(200)]
    assert results == [struck_troops(plain_dice, shot) for _ in range(200)]
    assert kept_dice.roll(6) == plain_dice.roll(6)  # (no die more or less was drawn)
    assert len(kept.to_hit) == 200 and len(kept.to_damage) == sum(r[1] for r in results)
    assert sum(die >= 4 for die in kept.to_hit) == sum(r[1] for r in results)
    assert sum(die >= 4 for die in kept.to_damage) == sum(r[2] for r in results)
    scripted = ScriptedDice([6, 3, 4, 2, 5, 6])  # a 7+: 6 then 3 misses; 4 misses; 2...
    kept = ShotDice()
    seven = Shot("Rifle", (6, 4), damage_need=5)
    assert [struck_troops(scripted, seven, kept) for _ in range(3)] == [
        (False, 0, 0),
        (False, 0, 0),
        (False, 0, 0),
    ]
    assert kept.to_hit == [6, 3, 4, 2] and scripted.remaining == [5, 6]


def test_random_dice_roll_each_die_and_count_them_as_faces_gives_them() -> None:
    """count_at_least rolls the dice it counts (no binomial draw), the same dice faces
    gives: so the game's record and an uncounted roll use one stream."""
    counted, faced = RandomDice(3), RandomDice(3)
    for count in (0, 1, 5, 20):
        faces = faced.faces(count, 6)
        assert len(faces) == count and all(1 <= f <= 6 for f in faces)
        assert counted.count_at_least(count, 6, 4) == sum(f >= 4 for f in faces)
    # two thresholds: the dice that pass the first are rolled again for the second
    counted, faced = RandomDice(5), RandomDice(5)
    first = faced.faces(10, 6)
    second = faced.faces(sum(f >= 6 for f in first), 6)
    assert counted.count_at_least(10, 6, 6, 4) == sum(f >= 4 for f in second)


def test_a_raw_word_beyond_the_last_whole_set_of_faces_is_drawn_again() -> None:
    """Every face is exactly as likely: a raw word at the very top of the range (where
    the sides do not divide it evenly) is drawn again, not taken modulo the sides."""
    top = (1 << 64) - (1 << 64) % 6
    words = iter([np.array([5, top, 7], dtype=np.uint64), top + 1, 12])
    dice = RandomDice(1)
    dice.rng = SimpleNamespace(bit_generator=SimpleNamespace(random_raw=lambda *_: next(words)))  # type: ignore[assignment]
    assert dice.faces(3, 6) == (6, 1, 2)  # 5 % 6 + 1; the top word drawn again as 12; 7


def test_a_played_games_record_holds_every_shots_dice_and_they_make_its_totals() -> None:
    """In a whole game's record, every shot's parts hold their dice, and they make the
    hits and casualties the record gives (no more casualties than the dice scored)."""
    rows = [json.loads(line) for line in record_text().splitlines()[1:]]
    shots = [r for r in rows if r["event"] in ("shoot", "support damage")]
    assert shots
    for row in shots:
        scored = 0
        for part in row["weapons"]:
            if "needs" not in part:
                continue
            needs = part["needs"] if isinstance(part["needs"], list) else [part["needs"]]
            rolls = hit_rolls(part["hit_dice"], needs)
            assert len(rolls) == part["shots"]
            hit = sum(
                all(d >= n for d, n in zip(r, needs, strict=False)) and len(r) == len(needs)
                for r in rolls
            )
            if "per_hit_dice" in part:
                assert hit == part["struck"] == len(part["per_hit_dice"])
            else:
                assert hit == part["hits"]
            if "damage_dice" in part:
                assert len(part["damage_dice"]) == part["hits"]
                scored += sum(d >= part["damage_needs"] for d in part["damage_dice"])
        if "casualties" in row:
            assert row["casualties"] <= scored
        else:
            assert not any("damage_dice" in part for part in row["weapons"])


def test_a_format_7_record_without_the_dice_replays(tmp_path: Path) -> None:
    """A record of format 7, written before the dice were, has no dice in its weapons'
    parts and still replays, the replay saying once what it lacks; its account tells
    the dice (the replay rolls them again)."""
    text = record_text()
    assert '"hit_dice":' in text and '"damage_dice":' in text
    old = older_format(text, 7)
    assert '"hit_dice":' not in old and '"damage_dice":' not in old and '"damage_needs"' not in old
    path = tmp_path / "old.jsonl"
    path.write_text(old, encoding="utf-8")
    result = record.replay(path)
    assert result.reproduced and result.finished and result.older_format == 7
    (note,) = result.notes()
    assert "'kriegsspiel-record/7'" in note and "each shot's to-hit and damage dice" in note
    part = {"weapon": "Rifle", "shots": 2, "hits": 1, "needs": 4, "hit_dice": [4, 1]}
    row = {"event": "shoot", "weapons": [part]}
    assert as_written_in(row, 7)["weapons"] == [{k: v for k, v in part.items() if k != "hit_dice"}]
    assert as_written_in(row, 8) == row


@pytest.mark.parametrize("die", [0, 7])
def test_a_die_off_the_d6_in_a_record_is_named(die: int, tmp_path: Path) -> None:
    """A die changed by hand to what no D6 shows is a bad line, named as any other."""
    rows = record_text().splitlines()
    at = next(i for i, r in enumerate(rows) if '"hit_dice":[' in r)
    row = json.loads(rows[at])
    row["weapons"][0]["hit_dice"][0] = die
    rows[at] = json.dumps(row, sort_keys=True, separators=(",", ":"))
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(DataFileError) as caught:
        record.replay(path)
    assert f"field weapons.0.hit_dice.0: must be {'6 or less' if die else '1 or more'}" in str(
        caught.value
    )
