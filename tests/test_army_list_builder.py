"""A list builder's slips, each told by ``kriegsspiel army`` in one paragraph at its line
with what would be right (exit status 2, no traceback): the list-builder probe's findings."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

HEAD = """\
name: Test
ruleset: bolt-action-1
faction: Britain
points: 50
units:
"""
SECTION = """\
  - name: Section
    type: infantry
    quality: regular
    points: 50
"""


def told(tmp_path: Path, text: str) -> str:
    """What ``kriegsspiel army`` says of a list of ``text``: one paragraph, exit status 2."""
    (tmp_path / "list.yaml").write_bytes(text.encode("utf-8"))
    done = run_cli("army", "list.yaml", cwd=tmp_path)
    assert done.returncode == 2, done.stdout
    assert "Traceback" not in done.stderr
    return done.stderr


def one_paragraph(said: str) -> str:
    assert len(said.strip().splitlines()) == 1, said
    return said


def test_a_tab_in_a_lines_indentation_is_named_as_one(tmp_path: Path) -> None:
    """PyYAML says "found character that cannot start any token"; the builder sees nothing
    wrong (a tab looks like spaces)."""
    said = told(tmp_path, HEAD + SECTION + "    models:\n\t  - {name: Rifleman, count: 5}\n")
    assert one_paragraph(said).startswith(
        "kriegsspiel: error: list.yaml: line 11: not valid YAML (found character that cannot "
        "start any token): line 11 holds a tab; YAML indents with spaces only"
    )


def test_an_alias_naming_no_anchor_is_told_what_the_star_means(tmp_path: Path) -> None:
    body = "    models:\n      - {name: Rifleman, count: 5, weapons: [*rifle]}\n"
    said = one_paragraph(told(tmp_path, HEAD + SECTION + body))
    assert (
        "line 11: not valid YAML (found undefined alias): *rifle is read as an alias, YAML's "
        "name for a value marked &rifle above it, and nothing is so marked; if the text "
        "'*rifle' is meant, put it in quotes; if 'rifle' is, leave out the '*'"
    ) in said


def test_a_brace_never_closed_is_told_at_the_line_that_opens_it(tmp_path: Path) -> None:
    """PyYAML's "did not find expected ',' or '}'" comes at the end of the file, with "or
    line 12, where YAML began reading it" as a guess."""
    body = (
        "    models:\n      - {name: Rifleman, count: 5, weapons: [Rifle]}\n"
        "      - {name: Corporal, nco: true, weapons: [SMG]\n"
    )
    said = one_paragraph(told(tmp_path, HEAD + SECTION + body))
    assert (
        "list.yaml: line 13: not valid YAML (did not find expected ',' or '}'): the file ends "
        "inside the '{' of line 12, never closed: close it with '}'"
    ) in said


def test_one_unit_given_for_a_whole_list_is_told_where_it_goes(tmp_path: Path) -> None:
    """It was "this does not look like an army list ... was another kind of file given?"."""
    text = (
        "name: Section\ntype: infantry\nquality: regular\npoints: 50\n"
        "models:\n  - {name: Rifleman, count: 5, weapons: [Rifle]}\n"
    )
    said = one_paragraph(told(tmp_path, text))
    assert (
        "list.yaml: this holds the fields of one of an army list's units (name, type, quality, "
        "points, models), not an army list: an army list gives each of its units as an item "
        "under 'units:' (its first line '  - name: ...'), beside its name, ruleset, faction, "
        "points"
    ) in said


@pytest.mark.parametrize(
    ("body", "problems"),
    [
        ("    models:\n      - name: Rifleman\n        count: 5\n        weapons: Rifle, SMG\n",
         ["line 13, field units.0.models.0.weapons: should be a list, not the text 'Rifle, "
          "SMG'; write it as a list: [Rifle, SMG] (or each item on a line of its own, '- ...')"]),
        ("    models:\n      - Rifleman\n",
         ["line 11, field units.0.models.0: should be a mapping of fields, not the text "
          "'Rifleman'; write it as {name: Rifleman} (its fields: name, count, weapons, "
          "officer, nco, observer)"]),
    ],
)  # fmt: skip
def test_a_text_where_a_list_or_a_mapping_belongs_is_told_how_to_write_it(
    tmp_path: Path, body: str, problems: list[str]
) -> None:
    said = one_paragraph(told(tmp_path, HEAD + SECTION + body))
    for problem in problems:
        assert problem in said, said


def test_a_vehicles_weapons_given_by_name_alone_are_told_their_facing(tmp_path: Path) -> None:
    carrier = (
        "  - name: Carrier\n    type: vehicle\n    quality: regular\n    points: 50\n"
        "    vehicle:\n      kind: tracked\n      damage_value_of: armoured car\n"
        "      weapons: [MMG]\n"
    )
    said = one_paragraph(told(tmp_path, HEAD + carrier))
    assert (
        "line 13, field units.0.vehicle.weapons.0: should be a mapping of fields, not the text "
        "'MMG'; write it as {weapon: MMG, facing: ...} (its fields: weapon, facing)"
    ) in said


def test_a_models_field_given_to_its_unit_is_told_to_go_in_the_model(tmp_path: Path) -> None:
    body = "    weapons: [Rifle]\n    models:\n      - {name: Rifleman, count: 5}\n"
    said = one_paragraph(told(tmp_path, HEAD + SECTION + body))
    assert (
        "line 10, field units.0.weapons: there is no such field here: 'weapons' is a field of "
        "each of the items under 'models:', not of this mapping; give it to the item it "
        "belongs to (e.g. - {name: ..., weapons: ...}); the fields here are name, type, "
        "quality, points, models, vehicle"
    ) in said


def test_a_file_of_only_comments_is_not_called_empty(tmp_path: Path) -> None:
    said = one_paragraph(told(tmp_path, "# my Normandy list\n# to do: the units\n"))
    assert "list.yaml: the file holds only comments; expected a mapping of fields" in said
    assert "list.yaml: the file is empty" in told(tmp_path, "")


def test_too_many_units_are_told_at_units_not_at_the_first(tmp_path: Path) -> None:
    """A whole list's count is wrong: told at 'units:' (line 5), not at the first unit's
    line, where it was told when its units were written as blocks."""
    from kriegsspiel.rulesets.bolt_action.army import MOST_UNITS

    units = "".join(
        f"  - name: Section {n}\n    type: infantry\n    quality: regular\n    points: 1\n"
        "    models:\n      - {name: Rifleman}\n"
        for n in range(MOST_UNITS + 1)
    )
    said = one_paragraph(told(tmp_path, HEAD.replace("50", str(MOST_UNITS + 1)) + units))
    assert f"line 5, field units: must have at most {MOST_UNITS} units, not {MOST_UNITS + 1}" in (
        said
    )


@pytest.mark.parametrize(
    ("models", "line", "field"),
    [
        ("    models: []\n", 10, "units.0.models"),  # an empty 'models:': told at it
        ("", 6, "units.0"),  # no 'models:' at all: told at the unit's line
    ],
)
def test_a_unit_without_models_is_told_at_its_models_line_and_how_to_list_them(
    tmp_path: Path, models: str, line: int, field: str
) -> None:
    """It was told at the unit's '- name:' line even where an empty 'models:' stood, and
    said nothing of how to list them."""
    said = one_paragraph(told(tmp_path, HEAD + SECTION + models))
    assert (
        f"list.yaml: line {line}, field {field}: unit 'Section' has no models: list them "
        "under 'models:', one line for each kind of man (e.g. '- {name: Rifleman, weapons: "
        "[Rifle], count: 5}')"
    ) in said


def test_units_keyed_by_name_are_shown_how_to_write_them_as_a_list(tmp_path: Path) -> None:
    """'units:' written as a mapping keyed by each unit's name said only "should be a list,
    not a mapping of fields"; now it shows the two lines a unit begins with."""
    keyed = (
        "  1st Section:\n    type: infantry\n    quality: regular\n    points: 50\n"
        "    models:\n      - {name: Rifleman, count: 5, weapons: [Rifle]}\n"
    )
    said = one_paragraph(told(tmp_path, HEAD + keyed))
    assert (
        "list.yaml: line 5, field units: should be a list, not a mapping of fields; write it "
        "as a list, each key as its item's name, its fields under it lined up with 'name': "
        "'- name: 1st Section' then '  type: infantry' on the next line"
    ) in said
