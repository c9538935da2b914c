"""``kriegsspiel army``: the shipped lists, a list checked and shown as a roster, a copy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

from kriegsspiel.army_command import run_army
from kriegsspiel.errors import DataFileError, UsageError
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
        "173 points: 2 units and 10 figures.",  # (no "0 vehicles")
    ):
        assert said in shown, said
    # what was checked, and that a unit's points were not: "sound" was read as "legal"
    assert "Checked: the list is valid for Konflikt '47 (its units' types" in shown
    assert "its units' points add up to its total, so it can be played, evaluated" in shown
    assert (
        "Not checked: whether each unit's points are right for what it holds (they are the "
        "list's own: no rule sheet gives a points table)" in shown
    )
    assert "sound" not in shown
    run_army("german-schwerefeld-battlegroup", None, None, False)
    shown = " ".join(capsys.readouterr().out.split())
    assert "(shipped list german-schwerefeld-battlegroup)" in shown
    assert "Heavy AT gun (turret)" in shown and "hit as medium walker" in shown
    assert "1000 points: 9 units, 33 figures and 2 vehicles" in shown


def test_a_unit_priced_far_below_what_it_holds_passes_and_the_check_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A squad of 7 at 1 point was "sound": no sheet gives points, so none are weighed,
    and the line under the roster says that rather than let an organiser read "legal"."""
    monkeypatch.setenv("COLUMNS", "200")
    text = (DATA / "patrol-a.yaml").read_text()
    cheap = text.replace("points: 173", "points: 51").replace("    points: 123", "    points: 1")
    assert cheap.count("points: 1\n") == 1 and "points: 51" in cheap
    (tmp_path / "cheap.yaml").write_text(cheap)
    run_army(str(tmp_path / "cheap.yaml"), None, None, False)
    shown = " ".join(capsys.readouterr().out.split())
    assert "51 points: 2 units and 10 figures. Checked:" in shown
    assert "Not checked: whether each unit's points are right for what it holds" in shown
    assert "this is no check that a list is legal for a tournament." in shown


def test_the_rosters_totals_leave_out_a_part_of_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "28 figures and 0 vehicles" read oddly: a list of no vehicles (or of vehicles
    alone) is totalled without them; one of both gives both."""
    monkeypatch.setenv("COLUMNS", "200")
    tank = (
        "name: Tanks\nruleset: konflikt47\nfaction: X\npoints: 150\nunits:\n"
        "  - name: Panzer IV\n    type: vehicle\n    quality: regular\n    points: 150\n"
        "    vehicle:\n      kind: tracked\n      damage_value_of: medium tank\n"
        "      weapons:\n        - {weapon: Medium AT gun, facing: turret}\n"
    )
    (tmp_path / "tanks.yaml").write_text(tank)
    run_army(str(tmp_path / "tanks.yaml"), None, None, False)
    shown = " ".join(capsys.readouterr().out.split())
    assert "150 points: 1 unit and 1 vehicle. Checked:" in shown
    run_army(str(DATA / "patrol-a.yaml"), None, None, False)
    assert "173 points: 2 units and 10 figures. Checked:" in " ".join(
        capsys.readouterr().out.split()
    )


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
    assert "mine.yaml: line " in broken.stderr and "(did you mean 'Rifle'?)" in broken.stderr


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
    assert done.returncode == 0 and "1 point: 1 unit and 1 figure." in said, said
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


@pytest.mark.parametrize("edition", ["konflikt47", "bolt-action-1"])
def test_the_weapons_chart_is_shown_as_a_list_writer_needs_it(
    edition: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A list writer sees every weapon the chart has, by the name a list gives it, with
    its range, shots, pen, HE and special rules, without provoking an error to learn them."""
    from kriegsspiel.rulesets.bolt_action.edition import rules_for

    monkeypatch.setenv("COLUMNS", "250")
    run_army(None, edition, None, False, charts=("weapons",))
    lines = capsys.readouterr().out.splitlines()
    rules = rules_for(edition)
    sheets = {"konflikt47": "sheet 000", "bolt-action-1": "sheets 002 and 000"}[edition]
    assert lines[0].strip() == f"{rules.data.title} weapons chart ({sheets})"
    rows = {line.split("│")[1].strip(): line for line in lines if line.startswith("│")}
    assert list(rows) == [w.name for w in rules.data.weapons.rows]  # every weapon, one row
    cells = [c.strip() for c in rows["Bazooka"].split("│")[2:-1]]
    assert cells == ['24"', "1", "+5", "", "Team, Shaped Charge", ""]
    mortar = [c.strip() for c in rows["Medium mortar"].split("│")[2:-1]]
    assert mortar[0] == '18-60"' and mortar[3] == "D6" and "Indirect Fire" in mortar[4]
    howitzer = [c.strip() for c in rows["Light howitzer"].split("│")[2:-1]]
    assert 'Howitzer (indirect 24"+)' in howitzer[4] and howitzer[5] == "artillery, vehicle"
    if edition == "konflikt47":
        tesla = [c.strip() for c in rows["M17 Tesla cannon"].split("│")[2:-1]]
        assert tesla[2] == "+1" and "Tesla (+7 pen vs armour)" in tesla[4]


def test_the_damage_values_are_shown_with_every_name_a_unit_is_hit_as(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    run_army(None, "konflikt47", None, False, charts=("targets",))
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].strip() == "Konflikt '47 damage values (sheet 001)"
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in lines if line.startswith("│")]
    assert ["4+", "regular infantry, regular artillery, regular", "infantry"] in rows
    assert ["8+", "medium walker", "armoured walker"] in rows
    assert len(rows) == 14


def test_the_charts_json_holds_every_row_as_the_data_gives_it() -> None:
    from kriegsspiel.rulesets.bolt_action.edition import rules_for

    done = run_cli("army", "--weapons", "--targets", "--json")
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert [edition["ruleset"] for edition in shown] == ["konflikt47", "bolt-action-1"]
    for edition in shown:
        rules = rules_for(edition["ruleset"])
        assert len(edition["weapons"]) == len(rules.data.weapons.rows)
        assert len(edition["targets"]) == len(rules.data.damage_values.rows)
    smg = next(w for w in shown[0]["weapons"] if w["name"] == "Submachine gun (SMG)")
    assert "SMG" in smg["aliases"] and smg["range"] == 12 and smg["pen"] is None
    assert {"names": ["medium tank"], "kind": "armoured", "walker": False,
            "damage_value": 9} in shown[1]["targets"]  # fmt: skip
    only = json.loads(run_cli("army", "--targets", "-r", "bolt-action-1", "--json").stdout)
    assert [sorted(edition) for edition in only] == [["ruleset", "targets"]]


def test_the_charts_of_a_rules_file_are_its_own(tmp_path: Path) -> None:
    """A designer's rules file's chart is the one shown with it, as a list is checked."""
    from kriegsspiel.rulesets.bolt_action.data import DATA_DIR

    text = (DATA_DIR / "konflikt47.yaml").read_text()
    piat = "{name: PIAT, category: heavy weapons, range: 12,"
    assert piat in text
    (tmp_path / "house.yaml").write_text(text.replace(piat, piat.replace("12", "14")))
    done = run_cli("army", "--weapons", "--rules-file", "house.yaml", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (edition,) = json.loads(done.stdout)
    assert edition["ruleset"] == "konflikt47"
    assert next(w for w in edition["weapons"] if w["name"] == "PIAT")["range"] == 14
    other = run_cli("army", "--weapons", "--rules-file", "house.yaml", "-r", "bolt-action-1",
                    cwd=tmp_path)  # fmt: skip
    assert other.returncode == 2 and "is the rules data of konflikt47" in other.stderr


@pytest.mark.parametrize(
    ("given", "copy", "said"),
    [
        ("us-tesla-company", None, "--weapons shows an edition's tables, not a list"),
        (None, "x.yaml", "without a list or --copy"),
    ],
)
def test_the_charts_are_not_asked_of_a_list(given: str | None, copy: str | None, said: str) -> None:
    with pytest.raises(UsageError, match=said):
        run_army(given, "konflikt47", copy, False, charts=("weapons",))


@pytest.mark.parametrize(
    ("line", "indent", "named"),
    [
        # a key one space short among its own: told at its own line alone, with the move
        # (PyYAML named the line where it began reading the list, line 13, too)
        ("    points: 85", "   ", "line {n}"),
        # the first figure under models: two too far; PyYAML names the next figure
        (
            "      - {name: Lieutenant, weapons: [Submachine gun (SMG)], officer: First "
            "Lieutenant}",
            "        ",
            "line {next}, or line {n} above it (the first line under 'models:' sets the "
            "indentation the lines after it must keep: check both lines' indentation)",
        ),
        # the first key under the walker's vehicle: one short; PyYAML names the next key
        (
            "      kind: walker",
            "     ",
            "line {next}, or line {n} above it (the first line under 'vehicle:' sets the "
            "indentation the lines after it must keep: check both lines' indentation)",
        ),
    ],
)
def test_a_mis_indented_line_is_named_where_pyyaml_names_the_line_after_it(
    tmp_path: Path, line: str, indent: str, named: str
) -> None:
    """The list-builder probe's three indentation slips: two were told at the line after
    the one indented wrong, as PyYAML finds them, with no word of the line above."""
    (shipped,) = [p for p in sample_armies("konflikt47") if p.stem == "us-tesla-company"]
    lines = shipped.read_text().splitlines()
    n = lines.index(line) + 1
    lines[n - 1] = indent + line.lstrip()
    (tmp_path / "slip.yaml").write_text("\n".join(lines) + "\n")
    with pytest.raises(DataFileError) as told:
        load_army(tmp_path / "slip.yaml")
    said = str(told.value)
    assert f"slip.yaml: {named.format(n=n, next=n + 1)}: not valid YAML" in said, said


BRITISH = "british-rifle-platoon"


def _slipped(tmp_path: Path, line: str, spaces: int) -> tuple[Path, list[str], int]:
    """The shipped British list with its (first) ``line`` indented ``spaces`` spaces."""
    (shipped,) = [p for p in sample_armies("bolt-action-1") if p.stem == BRITISH]
    lines = shipped.read_text().splitlines()
    n = lines.index(line) + 1
    lines[n - 1] = " " * spaces + line.lstrip()
    (tmp_path / "slip.yaml").write_text("\n".join(lines) + "\n")
    return tmp_path / "slip.yaml", lines, n


@pytest.mark.parametrize(
    ("line", "spaces", "advice"),
    [
        # the first field under a vehicle's 'vehicle:' as far in as 'vehicle:' itself
        ("      kind: tracked", 4, "line {n}, the first line under 'vehicle:' (line {up}), is "
         "indented 4 spaces, as 'vehicle:' is, not under it; line {down} and those after it "
         "are indented 6: indent line {n} 6 spaces, as they are"),
        # the first unit at the indentation of 'units:' itself, its fields still at 4
        ("  - name: Platoon HQ", 0, "line {n}, the first line under 'units:' (line {up}), is "
         "indented 0 spaces, as 'units:' is, not under it; line {down} and those after it are "
         "indented 4: indent line {n} 2 spaces, so that its fields line up with them"),
        # a unit a space out, either way, and one as far in as the fields
        ("  - name: 1st Section", 1, "line {n} is indented 1 space, out of step with the items "
         "under 'units:' beside it, which are indented 2 (as line 15 is); indent it 2 spaces"),
        ("  - name: PIAT Team", 3, "line {n} is indented 3 spaces, out of step with the items "
         "under 'units:' beside it, which are indented 2 (as line 49 is); indent it 2 spaces"),
        ("  - name: M4 Sherman", 4, "line {n} is indented 4 spaces, out of step with the items "
         "under 'units:' beside it, which are indented 2 (as line 74 is); indent it 2 spaces"),
        # a unit's field a space short
        ("    points: 123", 3, "line {n} is indented 3 spaces, out of step with the fields "
         "beside it, which are indented 4 (as line 25 is); indent it 4 spaces"),
    ],
)  # fmt: skip
def test_a_line_out_of_step_is_told_how_to_mend_it_and_the_advice_mends_it(
    tmp_path: Path, line: str, spaces: int, advice: str
) -> None:
    """The list-builder probe's slips: "indent it as line 56 is" moved the wrong line (the
    M8's 'kind:' at the indentation of 'vehicle:'), and a unit or field a space out got
    PyYAML's bare "did not find expected key" at the line where YAML began reading. Each is
    told at its line, with its neighbours' indentation and the move; making it mends the file."""
    path, lines, n = _slipped(tmp_path, line, spaces)
    done = run_cli("army", "slip.yaml", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    said = done.stderr
    assert "where YAML began reading" not in said
    assert advice.format(n=n, up=n - 1, down=n + 1) in said, said
    mended = int(said.split("indent line ")[1].split()[0]) if "indent line " in said else n
    wanted = (
        int(said.split("indent line ")[1].split()[1])
        if "indent line " in said
        else (int(said.split("; indent it ")[1].split()[0]))
    )
    lines[mended - 1] = " " * wanted + lines[mended - 1].lstrip()
    path.write_text("\n".join(lines) + "\n")
    assert load_army(path).name  # (the advice followed, the list reads)


def test_a_vehicles_fields_beside_its_blank_vehicle_block_are_told_to_go_under_it(
    tmp_path: Path,
) -> None:
    """The probe's M8 with its whole block as far in as 'vehicle:': each field was "no such
    field here (did you mean 'points'?)", and the unit's want of a vehicle block went
    untold while they stood. Now each belongs under 'vehicle:', told with the want."""
    (shipped,) = [p for p in sample_armies("bolt-action-1") if p.stem == BRITISH]
    lines = shipped.read_text().splitlines()
    at = lines.index("    vehicle:")  # (the Universal Carrier's)
    for k in range(at + 1, at + 6):
        lines[k] = lines[k][2:]
    (tmp_path / "slip.yaml").write_text("\n".join(lines) + "\n")
    with pytest.raises(DataFileError) as told:
        load_army(tmp_path / "slip.yaml")
    said = str(told.value)
    assert "6 problems in" in said, said
    assert (
        f"slip.yaml:{at + 1}: field units.7.vehicle: unit 'Universal Carrier' is a vehicle and "
        "needs a 'vehicle' block"
    ) in said
    for k, field in enumerate(("kind", "damage_value_of", "open_topped", "recce", "weapons")):
        assert (
            f"field units.7.{field}: '{field}' at line {at + 2 + k} belongs under 'vehicle:' "
            f"(line {at + 1}), which is left blank: indent it 6 spaces, under 'vehicle:'"
        ) in said
    assert "did you mean" not in said


def _read_after(path: Path, lines: list[str], said: str) -> None:
    """Follow the advice "indent line N S spaces" of ``said`` and read the list again."""
    line, spaces = said.split("indent line ")[1].split()[:2]
    lines[int(line) - 1] = " " * int(spaces) + lines[int(line) - 1].lstrip()
    path.write_text("\n".join(lines) + "\n")
    assert load_army(path).name


def test_a_slip_no_one_move_mends_is_told_where_to_look_with_no_move_claimed(
    tmp_path: Path,
) -> None:
    """A line indented past the one above it was told "indent it as line N is", a move never
    tried: where two lines slipped (the PIAT team's '- name:' and its 'quality:' both
    indented as the models above them) no move of one line mends the file, and the advice
    did not. Now the move is tried first; a slip of the line above is told as that line's;
    and where no one move mends it, the lines to check are named and no move is claimed."""
    path, lines, piat = _slipped(tmp_path, "  - name: PIAT Team", 6)
    quality = piat + 2
    assert lines[quality - 1] == "    quality: regular"
    lines[quality - 1] = "      quality: regular"
    path.write_text("\n".join(lines) + "\n")
    done = run_cli("army", "slip.yaml", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    said = done.stderr
    assert len(said.strip().splitlines()) == 1, said
    assert f"line {quality}: not valid YAML (mapping values are not allowed" in said, said
    assert (
        f"no move of line {quality} or line {quality - 1} alone mends the file, so more than "
        f"one line near them is out of step: check the indentation of the lines about lines "
        f"{quality - 1} and {quality}"
    ) in said
    assert "indent it" not in said and "indent line" not in said
    # the line above slipped out, the line after it kept its place: the line above is told
    path, lines, n = _slipped(tmp_path, "    quality: regular", 0)
    said = run_cli("army", "slip.yaml", cwd=tmp_path).stderr
    assert (
        f"line {n + 1} is indented further than line {n} above it, so YAML reads it as more "
        f"of that line's text; but it is line {n}, indented 0 spaces, that is out of step: "
        f"indent line {n} 4 spaces, as line {n + 1} is"
    ) in said, said
    _read_after(path, lines, said)
    # a unit's field indented past the "- name:" line of its unit: its fields' place
    path, lines, n = _slipped(tmp_path, "    type: team", 6)
    said = run_cli("army", "slip.yaml", cwd=tmp_path).stderr
    assert f"indent it 4 spaces, as the fields of line {n - 1}'s item are" in said, said


def test_a_first_line_indented_past_the_top_level_is_told_with_the_move_that_mends_it(
    tmp_path: Path,
) -> None:
    """A list whose first field ('name:') is indented was told only PyYAML's "did not find
    expected <document start>" at the line after it."""
    path, lines, n = _slipped(tmp_path, "name: British Rifle Platoon, Normandy 1944", 2)
    done = run_cli("army", "slip.yaml", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert (
        f"line {n + 1}: not valid YAML (did not find expected <document start>): line {n}, the "
        f"file's first field, is indented 2 spaces and sets where its top-level fields start; "
        f"line {n + 1} is indented 0 spaces: indent line {n} 0 spaces, as line {n + 1} is"
    ) in done.stderr, done.stderr
    _read_after(path, lines, done.stderr)


def test_a_units_name_line_indented_as_the_models_above_is_told_as_that_line(
    tmp_path: Path,
) -> None:
    """'  - name: 2nd Section' indented 6 spaces joins the models of the unit above it, and
    its 'type:' becomes that unit's second 'type': PyYAML said only "the field 'type' is
    given twice (first on line 24)", of a line that is right."""
    path, lines, n = _slipped(tmp_path, "  - name: 2nd Section", 6)
    said = run_cli("army", "slip.yaml", cwd=tmp_path).stderr
    assert (
        f"line {n + 1}: not valid YAML (the field 'type' is given twice (first on line {n - 8})): "
        f"line {n}, an item ('- '), is indented 6 spaces, so its fields would be 8 in, but "
        f"line {n + 1} and the lines after it are indented 4: YAML read line {n} into the list "
        f"above it and line {n + 1} as a field of the mapping before it; indent line {n} 2 "
        "spaces, so that its fields line up with them"
    ) in said, said
    _read_after(path, lines, said)
