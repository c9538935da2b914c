"""``kriegsspiel army``: the shipped lists, a list checked and shown as a roster, a copy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

from kriegsspiel.army_command import run_army
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action.army import load_army, sample_armies

DATA = Path(__file__).parent / "data" / "sim"


def test_army_lists_every_shipped_list_by_the_name_commands_take(tmp_path: Path) -> None:
    done = run_cli("army")
    assert done.returncode == 0, done.stderr
    shipped = sample_armies("konflikt47") + sample_armies("bolt-action-1")
    for path in shipped:
        army = load_army(path)
        assert f"  {path.stem}  —  {army.name} ({army.faction}), {army.ruleset}" in done.stdout
    listed = json.loads(run_cli("army", "--json", "--ruleset", "k47").stdout)
    assert [row["list"] for row in listed] == [p.stem for p in sample_armies("konflikt47")]
    assert all(row["points"] == 1000 for row in listed)
    one = run_cli(
        "play", "--army", listed[0]["list"], "--army", listed[1]["list"], "--quiet", cwd=tmp_path
    )  # (its record is written there, not into the folder the suite runs in)
    assert one.returncode == 0, one.stderr  # the names as listed are the names play takes


def test_a_list_is_shown_as_a_roster_with_weapons_as_the_chart_names_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    text = (DATA / "patrol-a.yaml").read_text()
    assert "weapons: [Submachine gun (SMG)]" in text
    (tmp_path / "mine.yaml").write_text(
        text.replace("weapons: [Submachine gun (SMG)]", "weapons: [smg]")
    )
    run_army(str(tmp_path / "mine.yaml"), None, None, False)
    shown = " ".join(capsys.readouterr().out.split())  # (as the table wrapped it)
    assert f"Grenadier Patrol — Germany, Konflikt '47 ({tmp_path / 'mine.yaml'})" in shown
    for said in (
        "Grenadier Squad",
        "infantry, regular",
        "hit as regular infantry",
        "123",
        "Unteroffizier (NCO): Submachine gun (SMG)",  # the alias, by the chart's name
        "MG gunner: Light machine gun (LMG)",
        "5× Grenadier: Rifle",
        "2× Loader: unarmed",
        "173 points: 2 units, 10 figures and 0 vehicles. The list is sound",
    ):
        assert said in shown, said
    run_army("german-schwerefeld-battlegroup", None, None, False)
    shown = " ".join(capsys.readouterr().out.split())
    assert "(shipped list german-schwerefeld-battlegroup)" in shown
    assert "Heavy AT gun (turret)" in shown and "hit as medium walker" in shown
    assert "1000 points: 9 units, 33 figures and 2 vehicles" in shown


def test_a_shipped_list_copied_is_the_start_of_ones_own(tmp_path: Path) -> None:
    done = run_cli("army", "us-tesla-company", "--copy", "mine.yaml", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Copied to mine.yaml: edit it, then 'kriegsspiel army mine.yaml' checks it." in (
        done.stderr
    )
    (shipped,) = [p for p in sample_armies("konflikt47") if p.stem == "us-tesla-company"]
    assert (tmp_path / "mine.yaml").read_text() == shipped.read_text()
    again = run_cli("army", "us-tesla-company", "--copy", "mine.yaml", cwd=tmp_path)
    assert again.returncode == 2 and "is there already; give a new file name" in again.stderr
    (tmp_path / "mine.yaml").write_text(shipped.read_text().replace("[Rifle]", "[Rilfe]", 1))
    broken = run_cli("army", "mine.yaml", cwd=tmp_path)
    assert broken.returncode == 2 and "Traceback" not in broken.stderr
    assert "mine.yaml: line " in broken.stderr and "Did you mean 'Rifle'?" in broken.stderr


@pytest.mark.parametrize(
    ("given", "ruleset", "copy", "said"),
    [
        ("nope", None, None, "army 'nope' is neither a file nor a shipped list (german-"),
        (
            "us-tesla-company",
            "bolt-action-1",
            None,
            "army 'us-tesla-company' is a shipped konflikt47 list, not a bolt-action-1 one; "
            "give --ruleset konflikt47, or none.",
        ),
        (None, "iron-cross", None, "army lists are for the Bolt Action family"),
        (None, None, "x.yaml", "--copy needs a list to copy"),
        ("us-tesla-company", None, "x.txt", "--copy writes a .yaml or .yml file"),
    ],
)
def test_army_refuses_what_it_cannot_do_and_says_why(
    given: str | None, ruleset: str | None, copy: str | None, said: str
) -> None:
    with pytest.raises(UsageError) as refused:
        run_army(given, ruleset, copy, False)
    assert said in str(refused.value)


def test_a_file_that_is_not_text_is_refused_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "bin.yaml").write_bytes(b"\x89PNG\r\n\x1a\n\x00")
    for args in (["army", "bin.yaml"], ["sweep", "bin.yaml"]):
        done = run_cli(*args, cwd=tmp_path)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert "bin.yaml: is not text (line 1: byte 1 is not UTF-8); expected" in done.stderr


def test_a_lists_json_is_its_roster_as_the_engine_reads_it(tmp_path: Path) -> None:
    text = (DATA / "patrol-a.yaml").read_text().replace("[Submachine gun (SMG)]", "[smg]")
    (tmp_path / "mine.yaml").write_text(text)
    done = run_cli("army", "mine.yaml", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    roster = json.loads(done.stdout)
    assert (roster["points"], roster["figures"], roster["vehicles"]) == (173, 10, 0)
    squad, team = roster["units"]
    assert squad["hit_as"] == "regular infantry" and squad["models"][0]["nco"] is True
    assert squad["models"][0]["weapons"] == ["Submachine gun (SMG)"]  # the alias, resolved
    assert team["models"][1] == {"name": "Loader", "count": 2, "officer": None, "nco": False,
                                 "observer": None, "weapons": []}  # fmt: skip
    tank = json.loads(run_cli("army", "german-schwerefeld-battlegroup", "--json").stdout)
    walker = next(u for u in tank["units"] if u["name"] == "Panzerlaeufer Walker")
    assert walker["hit_as"] == "medium walker" and walker["vehicle"]["kind"] == "walker"
    assert {"weapon": "Heavy automatic cannon", "facing": "front"} in walker["vehicle"]["weapons"]


def test_a_count_of_one_is_said_in_the_singular(tmp_path: Path) -> None:
    """'1 unit', '1 figure', '1 point', '1 turn', '1 feature': not '1 units'."""
    (tmp_path / "one.yaml").write_text(
        "name: One\nruleset: konflikt47\nfaction: X\npoints: 1\nunits:\n"
        "  - name: Lone\n    type: infantry\n    quality: regular\n    points: 1\n"
        "    models:\n      - {name: Man, weapons: [Rifle]}\n"
    )
    done = run_cli("army", "one.yaml", cwd=tmp_path)
    said = " ".join(done.stdout.split())
    assert done.returncode == 0 and "1 point: 1 unit, 1 figure and 0 vehicles." in said, said
    (tmp_path / "short.yaml").write_text(
        "name: Short\nturns: 1\nvictory: units destroyed\nterrain:\n"
        "  - {name: Hut, category: building, cover: hard, polygon: [[30, 20], [34, 20], [34, 24]]}\n"
        "deployment:\n  - {side: a, polygon: [[0, 0], [72, 0], [72, 12], [0, 12]]}\n"
        "  - {side: b, polygon: [[0, 36], [72, 36], [72, 48], [0, 48]]}\n"
    )
    done = run_cli("scenario", "short.yaml", cwd=tmp_path)
    said = " ".join(done.stdout.split())
    assert (
        done.returncode == 0 and "table, 1 turn; won by" in said and "Terrain (1 feature)" in said
    )
