"""Every "did you mean" is worked out one way and said in one wording (errors.suggest)."""

from __future__ import annotations

from pathlib import Path

import kriegsspiel
from kriegsspiel.errors import UnknownNameError, did_you_mean, nearest, suggest


def test_a_suggestion_follows_the_name_refused_in_one_wording() -> None:
    assert suggest("Rifel", ["Rifle", "Pistol"]) == " (did you mean 'Rifle'?)"
    assert did_you_mean(["MG42", "MG 4-2"]) == " (did you mean 'MG42' or 'MG 4-2'?)"
    assert did_you_mean(["a", "b", "c"]) == " (did you mean 'a', 'b' or 'c'?)"
    assert suggest("xyz", ["Rifle", "Pistol"]) == did_you_mean([]) == ""


def test_the_nearest_names_are_more_than_half_alike_and_within_a_tenth_of_the_best() -> None:
    tanks = ["heavy tank", "light tank", "medium tank", "super-heavy tank"]
    assert nearest("tank", tanks) == ["heavy tank", "light tank", "medium tank"]
    assert nearest("MEDIUM", [*tanks, "medium walker"]) == ["medium tank", "medium walker"]
    assert nearest("medum tank", tanks) == ["medium tank"]  # (not every tank)
    assert nearest("elite", ["inexperienced", "regular", "veteran"]) == []  # (half alike)
    assert nearest("bogus", ["out"]) == []
    # a name another goes by (a chart's short name) suggests the thing by its own name
    assert nearest("SMGs", ["Rifle"], {"SMG": "Submachine gun (SMG)"}) == ["Submachine gun (SMG)"]


def test_an_unknown_name_is_told_with_the_nearest_or_every_name() -> None:
    assert str(UnknownNameError("quality", "veteren", ["regular", "veteran"])) == (
        "Unknown quality 'veteren' (did you mean 'veteran'?)."
    )
    assert str(UnknownNameError("quality", "elite", ["regular", "veteran"])) == (
        "Unknown quality 'elite'. Known qualities: regular, veteran."
    )


def test_no_module_but_errors_works_out_a_suggestion_of_its_own() -> None:
    package = Path(kriegsspiel.__file__).parent
    own = [
        str(path.relative_to(package))
        for path in sorted(package.rglob("*.py"))
        if path.name != "errors.py" and "difflib" in path.read_text(encoding="utf-8")
    ]
    assert own == [], "suggest a name with kriegsspiel.errors.suggest (or nearest)"


def test_half_alike_is_no_suggestion_unless_a_reader_would_take_it_for_a_slip() -> None:
    """The list-builder probe's `facing: forward` was asked "did you mean 'rear'?", and a
    unit's stray `weapons` "did you mean 'points'?": half their letters alike, but no one
    misspells "front" as "forward". A slip is a few letters off, a name cut short, or a
    long run of letters alike."""
    facings = ["front", "side", "rear", "turret", "all-round"]
    assert nearest("forward", facings) == []
    assert nearest("weapons", ["name", "type", "quality", "points", "models", "vehicle"]) == []
    assert nearest("frnot", facings) == ["front"]  # (two letters swapped)
    assert nearest("qualty", ["quality", "points"]) == ["quality"]
    assert nearest("crossroads", ["hold-the-crossroads", "meeting-engagement"]) == [
        "hold-the-crossroads"
    ]
    assert nearest("MG42", ["Rifle"], {"MMG": "Medium machine gun (MMG)"}) == [
        "Medium machine gun (MMG)"
    ]
