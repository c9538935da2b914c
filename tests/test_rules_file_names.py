"""A rules file's names of other rows (a barrage's ``hit_as``, a weapon's ``fires_as``, the
ranks and damage values army lists name, the terrain a scenario names) are checked by the
look-up the game finds them by (core.names.lookup): what the check takes, the game finds,
and what it refuses, the game could not find; two rows the look-up could not tell apart
are refused at their lines, naming both."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

from kriegsspiel.core.names import lookup
from kriegsspiel.errors import AmbiguousNameError, DataFileError, UnknownNameError
from kriegsspiel.rulesets.bolt_action.data import DATA_DIR
from kriegsspiel.rulesets.bolt_action.edition import rules_for
from kriegsspiel.rulesets.bolt_action.game.table_rules import category_problem, terrain_row
from kriegsspiel.rulesets.house_clearing import rules as house_clearing
from kriegsspiel.rulesets.house_clearing.data import DATA_FILE, load_data

BA1 = "bolt-action-1"


def edited(
    folder: Path, old: str, new: str, shipped: Path = DATA_DIR / "bolt_action_1.yaml"
) -> Path:
    text = shipped.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = folder / "house.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


HIT_AS = "  hit_as: Heavy howitzer\n"


@pytest.mark.parametrize(
    "written",
    ["Heavy-howitzer", "heavyhowitzer", "HEAVY HOWITZER", "heavy  howitzer!", "Heavy howizter",
     "Heavy", "howitzer heavy"],
)  # fmt: skip
def test_a_barrages_weapon_is_taken_exactly_when_the_game_finds_it(
    tmp_path: Path, written: str
) -> None:
    """'Heavy-howitzer' was refused ("not a weapon of the weapons table") though the game's
    look-up finds the Heavy howitzer by it; a name the look-up finds nothing by is
    refused at its line and field, with the nearest."""
    path = edited(tmp_path, HIT_AS, f"  hit_as: {written}\n")
    try:
        found = rules_for(BA1).weapon(written).name
    except UnknownNameError:
        found = None
    if found is not None:
        rules = rules_for(BA1, str(path))
        assert rules.weapon(rules.data.artillery_barrage.hit_as).name == found
        return
    with pytest.raises(DataFileError) as refused:
        rules_for(BA1, str(path))
    line = path.read_text().splitlines().index(f"  hit_as: {written}") + 1
    told = str(refused.value)
    assert f"line {line}, field artillery_barrage.hit_as: {written!r} (did you mean " in told
    assert "?) is not a weapon of the weapons table" in told


def test_an_unknown_barrage_weapon_is_told_with_the_nearest(tmp_path: Path) -> None:
    path = edited(tmp_path, HIT_AS, "  hit_as: Heavy howizter\n")
    done = run_cli("rules", str(path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert (
        "field artillery_barrage.hit_as: 'Heavy howizter' (did you mean 'Heavy howitzer'?) is "
        "not a weapon of the weapons table"
    ) in done.stderr


def test_two_weapons_whose_names_run_together_alike_are_refused(tmp_path: Path) -> None:
    """'Panzer-faust' and an alias 'Panzerfaust' of another row were taken: a list's
    'panzer faust' found one, its 'PanzerFaust' the other, without a word."""
    text = (DATA_DIR / "bolt_action_1.yaml").read_text()
    text = text.replace("{name: Panzerfaust,", "{name: Panzer-faust,")
    text = text.replace("{name: Heavy howitzer,", "{name: Heavy howitzer, aliases: [Panzerfaust],")
    path = tmp_path / "house.yaml"
    path.write_text(text)
    with pytest.raises(DataFileError) as refused:
        rules_for(BA1, str(path))
    message = str(refused.value)
    assert "field weapons.rows.14.name: 'Panzer-faust' names 2 rows (weapons.rows.14 and " in (
        message
    )
    assert "'Panzer-faust' and 'Panzerfaust' run together alike" in message
    assert "field weapons.rows.26.aliases: 'Panzerfaust' names 2 rows" in message


def test_the_look_up_names_the_rows_a_name_could_be() -> None:
    two = [(["MG42"], "first"), (["MG 4-2"], "second")]
    with pytest.raises(AmbiguousNameError) as refused:
        lookup("weapon", "mg-42", two)
    assert refused.value.candidates == ("MG42", "MG 4-2")
    assert "(did you mean 'MG42' or 'MG 4-2'?)." in str(refused.value)


def test_an_officer_rank_and_a_damage_value_are_checked_as_the_game_finds_them(
    tmp_path: Path,
) -> None:
    """'second-lieutenant' was refused ("missing: Second Lieutenant") though the game finds
    a list's Second Lieutenant by it; 'regularinfantry' too, as missing."""
    text = (DATA_DIR / "bolt_action_1.yaml").read_text()
    text = text.replace("{rank: Second Lieutenant,", "{rank: second-lieutenant,")
    text = text.replace("names: [regular infantry,", "names: [regularinfantry,")
    path = tmp_path / "house.yaml"
    path.write_text(text)
    rules = rules_for(BA1, str(path))
    assert rules.officer_rank("Second Lieutenant") == "second-lieutenant"
    assert rules.officer_bonus("Second Lieutenant") == 1
    assert rules.target("regular infantry").name == "regularinfantry"
    twice = text.replace("{rank: Captain,", "{rank: Second-Lieutenant,")
    path.write_text(twice)
    with pytest.raises(DataFileError, match="given twice: Second-Lieutenant"):
        rules_for(BA1, str(path))


def test_a_terrain_category_is_found_as_every_name_is(tmp_path: Path) -> None:
    """A scenario's 'Open-Ground' and 'roughground' were refused ('no category'): they are
    rows of the table, as a weapon's name is found; a row two names of the table would
    both name (its own, a name taken for another row) is refused at its line."""
    rules = rules_for(BA1)
    assert terrain_row(rules, "Open-Ground").category == "open ground"
    assert terrain_row(rules, "roughground").category == "rough ground"
    assert terrain_row(rules, "Woods").category == "rough ground"
    assert category_problem(rules, "Open-Ground") is None
    assert "no category 'swamp'" in str(category_problem(rules, "swamp"))
    row = '    - {category: road, infantry: "OK"'
    for category, said in (
        ("Open-Ground", "'open ground' and 'Open-Ground' run together alike"),
        ("wood", "'wood' (a name taken for rough ground) and 'wood' run together alike"),
    ):
        path = edited(tmp_path, row, row.replace("road", category))
        with pytest.raises(DataFileError) as refused:
            rules_for(BA1, str(path))
        assert "field terrain.rows: rows " in str(refused.value)
        assert said in str(refused.value)


def test_a_house_clearing_weapon_fires_as_the_row_its_name_finds(tmp_path: Path) -> None:
    """'box-lmg' and 'carbine' were refused ("unknown weapon"), and a name the check took
    but the rules did not find by the same look-up stopped the odds (StopIteration)."""
    text = DATA_FILE.read_text(encoding="utf-8")
    text = text.replace("short_crewed_fires_as: Box LMG", "short_crewed_fires_as: box-lmg")
    text = text.replace("single_shot_as: Carbine", "single_shot_as: carbine")
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    data = load_data(path)
    _, fired, note = house_clearing.find_weapon("Belt LMG", crew=1, data=data)
    assert fired.name == "Box LMG" and "fires as a box LMG" in note
    _, fired, note = house_clearing.find_weapon("assault rifle", data=data)
    assert fired.name == "Carbine"
    path.write_text(text.replace("single_shot_as: carbine", "single_shot_as: carbyne"))
    with pytest.raises(DataFileError, match=r"assault rifle: single_shot_as: Unknown weapon "
                       r"'carbyne' \(did you mean 'Carbine'\?\)"):  # fmt: skip
        load_data(path)


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("name: Pistol", "name: S-M-G",
         "'S-M-G' names 2 weapon rows (weapons.0 (S-M-G) and weapons.1 (SMG)"),
        ("  aliases: [grenades, hand grenade,", "  aliases: [grenades, B-ren, hand grenade,",
         "grenade: 'B-ren' already names a weapon of the range table"),
    ],
)  # fmt: skip
def test_house_clearing_weapons_the_look_up_cannot_tell_apart_are_refused(
    tmp_path: Path, old: str, new: str, said: str
) -> None:
    path = edited(tmp_path, old, new, DATA_FILE)
    with pytest.raises(DataFileError) as refused:
        load_data(path)
    assert said in str(refused.value)
