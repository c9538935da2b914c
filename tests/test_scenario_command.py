"""``kriegsspiel scenario``: the shipped scenarios, a briefing, a drawing, a copy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

from kriegsspiel.core.scenario import load_scenario, sample_scenarios
from kriegsspiel.errors import UsageError
from kriegsspiel.scenario_command import run_scenario

DATA = Path(__file__).parent / "data" / "sim"


def test_scenario_lists_every_shipped_scenario_by_the_name_commands_take() -> None:
    done = run_cli("scenario")
    assert done.returncode == 0, done.stderr
    for path in sample_scenarios():
        scenario = load_scenario(path)
        assert f"  {path.stem}  —  {scenario.name}: " in done.stdout
    listed = json.loads(run_cli("scenario", "--json").stdout)
    assert [row["scenario"] for row in listed] == [p.stem for p in sample_scenarios()]
    crossroads = next(row for row in listed if row["scenario"] == "hold-the-crossroads")
    assert (crossroads["victory"], crossroads["objectives"]) == ("objectives", 3)


def test_a_scenario_is_shown_as_a_briefing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    run_scenario("hold-the-crossroads", None, None, None, [], False)
    shown = " ".join(capsys.readouterr().out.split())
    for said in (
        "Hold the Crossroads (shipped scenario hold-the-crossroads)",
        'A 72" × 48" table, 6 turns, a seventh on a D6 roll of 4+; won by objectives.',
        "south │ A │ x 0–72, y 0–12 (864 sq in)",
        "Crossroads │ 35.5, 24 │ 2",
        "Church │ building │ hard │ blocks sight │ x 39–47, y 28–34",
        "note for konflikt47: The copse counts as rough ground",
    ):
        assert said in shown, said
    run_scenario(str(DATA / "skirmish.yaml"), None, None, None, [], True)
    data = json.loads(capsys.readouterr().out)
    assert data["name"] == "Skirmish at the ford" and data["terrain"][0]["cover"] == "soft"


def test_a_briefing_gives_the_notes_of_the_edition_it_was_checked_for(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Checked with two Konflikt '47 lists (or --ruleset), the briefing gives that
    edition's note alone, not Bolt Action's too; checked for no edition, each one's."""
    monkeypatch.setenv("COLUMNS", "200")
    lists = ["us-tesla-company", "german-schwerefeld-battlegroup"]
    run_scenario("meeting-engagement", None, None, None, lists, False)
    shown = " ".join(capsys.readouterr().out.split())
    assert "note for konflikt47: The woods count as rough ground" in shown
    assert "note for bolt-action-1" not in shown
    run_scenario("meeting-engagement", None, None, "bolt-action-1", [], False)
    shown = " ".join(capsys.readouterr().out.split())
    assert "note for bolt-action-1: The woods" in shown and "note for konflikt47" not in shown
    run_scenario("meeting-engagement", None, None, None, [], False)
    shown = " ".join(capsys.readouterr().out.split())
    assert "note for konflikt47" in shown and "note for bolt-action-1" in shown


def test_a_scenario_is_drawn_with_two_lists_deployed_and_copied(tmp_path: Path) -> None:
    done = run_cli("scenario", str(DATA / "skirmish.yaml"), "--svg", "t.svg", "--army",
                   str(DATA / "patrol-a.yaml"), "--army", str(DATA / "patrol-b.yaml"),
                   "--copy", "mine.yaml", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    drawing = (tmp_path / "t.svg").read_text()
    assert "Skirmish at the ford: deployed" in drawing and "Copse" in drawing
    assert drawing.count('class="model') == 20  # both patrols' men, as deployed
    assert "Grenadier Squad" in drawing and "Rifle Squad" in drawing
    assert (tmp_path / "mine.yaml").read_text() == (DATA / "skirmish.yaml").read_text()
    assert "Copied to mine.yaml" in done.stderr and "Table drawn to t.svg" in done.stderr
    onto = run_cli("scenario", "mine.yaml", "--copy", "mine.yaml", cwd=tmp_path)
    assert onto.returncode == 2 and "is the scenario being copied" in onto.stderr
    again = run_cli("scenario", "meeting-engagement", "--copy", "mine.yaml", cwd=tmp_path)
    assert again.returncode == 2 and "is there already" in again.stderr
    assert (tmp_path / "mine.yaml").read_text() == (DATA / "skirmish.yaml").read_text()


@pytest.mark.parametrize(
    ("given", "copy", "svg", "said"),
    [
        ("nowhere", None, None, "scenario 'nowhere' is neither a file nor a shipped scenario"),
        (None, "x.yaml", None, "--copy, --svg, --ruleset and --army need a scenario"),
        ("meeting-engagement", None, "x.png", "--svg writes a .svg file"),
        ("meeting-engagement", None, "", "--svg was given an empty name ('')"),
        ("meeting-engagement", "", None, "--copy was given an empty name ('')"),
    ],
)
def test_scenario_refuses_what_it_cannot_do_and_says_why(
    given: str | None, copy: str | None, svg: str | None, said: str
) -> None:
    with pytest.raises(UsageError) as refused:
        run_scenario(given, copy, svg, None, [], False)
    assert said in str(refused.value)


def _swamp(tmp_path: Path) -> Path:
    """The skirmish with its copse in a swamp: a category no edition's table has."""
    path = tmp_path / "swamp.yaml"
    path.write_text(
        (DATA / "skirmish.yaml").read_text().replace("category: wood", "category: swamp")
    )
    return path


def test_a_scenario_names_no_edition_so_its_terrain_is_checked_by_every_editions_table(
    tmp_path: Path,
) -> None:
    """It was checked by Konflikt '47's table alone, and its refusal named Konflikt '47 for a
    scenario of no edition (lists of Bolt Action given made no difference)."""
    done = run_cli("scenario", str(_swamp(tmp_path)))
    said = " ".join(done.stderr.split())
    assert done.returncode == 2 and "Traceback" not in said
    assert (
        "swamp.yaml: line 9, field terrain.0.category: Konflikt '47 and Bolt Action (1st "
        "edition) alike: the terrain table has no category 'swamp'; its categories are open "
        "ground, rough ground, obstacle, building, road"
    ) in said
    for edition in ("--ruleset", "bolt-action-1"), ("-a", "british-rifle-platoon", "-a",
                                                     "german-grenadier-platoon"):  # fmt: skip
        done = run_cli("scenario", str(_swamp(tmp_path)), *edition)
        said = " ".join(done.stderr.split())
        assert done.returncode == 2 and "Konflikt" not in said, said
        assert "field terrain.0.category: Bolt Action (1st edition)'s terrain table has no " in said


def test_a_category_only_some_editions_lack_is_noted_not_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import kriegsspiel.rulesets.bolt_action as bolt_action
    from kriegsspiel.rulesets.bolt_action.data import DATA_DIR

    shipped = bolt_action.rules_for
    row = "    - {category: open ground,"
    text = (DATA_DIR / "bolt_action_1.yaml").read_text()
    assert text.count(row) == 1
    swampy = text.replace(
        row, '    - {category: swamp, infantry: "No Run", artillery: "No", wheeled: "No", '
        'tracked: "No"}\n' + row, 1
    )  # fmt: skip

    def rules_for(edition: str, *house: str | None) -> object:
        if edition == "bolt-action-1":  # (a table with a swamp in it)
            return shipped(edition, "swampy.yaml", swampy)
        return shipped(edition, *house)

    monkeypatch.setattr(bolt_action, "rules_for", rules_for)
    # (the swampy table is this test's alone: a game of the sample lists, which would be
    # checked next on the edition that takes the swamp, is played by the shipped one)
    import kriegsspiel.scenario_command as scenario_command

    checked: list[list[str]] = []
    monkeypatch.setattr(
        scenario_command, "_check_lists", lambda *args: (checked.append(args[-1]), ("", []))[1]
    )
    run_scenario(str(_swamp(tmp_path)), None, None, None, [], False)
    assert checked == [["bolt-action-1"]]  # the samples of the edition that takes it alone
    said = " ".join(capsys.readouterr().err.split())
    assert (
        "note: " in said
        and "line 9, field terrain.0.category: Konflikt '47's terrain table" in said
    )
    assert "a game of Konflikt '47 refuses this scenario (--ruleset konflikt47 checks it" in said


def test_lists_without_a_drawing_are_checked_on_the_scenario_by_their_edition(
    tmp_path: Path,
) -> None:
    """--army and --ruleset were refused without --svg; they say which edition's table
    checks the scenario, and the lists are checked on it as a game checks them."""
    patrols = ["-a", str(DATA / "patrol-a.yaml"), "-a", str(DATA / "patrol-b.yaml")]
    done = run_cli("scenario", str(DATA / "skirmish.yaml"), *patrols)
    assert done.returncode == 0 and "Skirmish at the ford" in done.stdout, done.stderr
    # (the verdict ends the briefing, as army's ends its roster)
    assert " ".join(done.stdout.split()).endswith(
        "are sound on it, for konflikt47: a game of them can be played here."
    )
    small = tmp_path / "small.yaml"
    small.write_text(
        (DATA / "skirmish.yaml").read_text().replace("[36, 0], [36, 6]", "[3, 0], [3, 6]")
    )
    done = run_cli("scenario", str(small), *patrols)
    assert done.returncode == 2 and "small.yaml: line" in done.stderr, done.stderr
    assert "field deployment" in done.stderr
    mixed = run_cli("scenario", "meeting-engagement", "-a", "us-tesla-company", "-a",
                    "british-rifle-platoon")  # fmt: skip
    assert mixed.returncode == 2 and "the two lists are for different editions" in mixed.stderr


def test_the_briefing_says_which_army_deploys_where_and_which_side_no_game_uses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    text = (DATA / "skirmish.yaml").read_text() + (
        "  - side: east\n    polygon: [[30, 8], [36, 8], [36, 16], [30, 16]]\n"
    )
    (tmp_path / "three.yaml").write_text(text)
    run_scenario(str(tmp_path / "three.yaml"), None, None, None, [], False)
    shown = " ".join(capsys.readouterr().out.split())
    assert "south │ A │" in shown and "north │ B │" in shown and "east │ none: unused │" in shown
    assert "Army A (the first --army) deploys south, army B north" in shown
    assert "A game has two armies: east is left unused." in shown
    assert "Terrain (1 feature)" in shown


def test_a_broken_scenario_is_told_at_its_line(tmp_path: Path) -> None:
    text = (DATA / "skirmish.yaml").read_text().replace("cover: soft", "cover: sofft")
    (tmp_path / "bad.yaml").write_text(text)
    done = run_cli("scenario", "bad.yaml", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    line = 1 + text.splitlines().index("    cover: sofft")
    assert f"bad.yaml: line {line}, field terrain.0.cover" in done.stderr


def test_a_copy_that_cannot_be_written_prints_nothing_else(tmp_path: Path) -> None:
    """Files are written before anything is printed: a failure leaves no output that a
    script could take for a success."""
    for command in ("scenario", "army"):
        name = "meeting-engagement" if command == "scenario" else "us-tesla-company"
        done = run_cli(command, name, "--copy", "/proc/kriegsspiel-copy.yaml", "--json",
                       cwd=tmp_path)  # fmt: skip
        assert done.returncode == 2 and done.stdout == "", (command, done.stdout[:200])
        assert "--copy '/proc/kriegsspiel-copy.yaml': the folder '/proc' cannot be" in (done.stderr)
