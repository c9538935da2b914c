"""Files the commands write: refused before any game when they cannot be written, and
written whole or not at all."""

from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import PATROLS_RANDOM, run_cli

from kriegsspiel.cli import main

DATA = Path(__file__).parent / "data" / "sim"
PATROLS = PATROLS_RANDOM


def kriegsspiel(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str]:
    """Run the command line here (so that what is patched holds): its exit status and
    what it printed to stderr."""
    monkeypatch.setattr(sys, "argv", ["kriegsspiel", *args])
    with pytest.raises(SystemExit) as exited:
        main()
    code = exited.value.code
    return code if isinstance(code, int) else 1, capsys.readouterr().err


def no_game(*args: object, **kwargs: object) -> None:
    raise AssertionError("a game was played")


@pytest.mark.parametrize(
    ("args", "option", "folder"),
    [
        (["evaluate", *PATROLS, "--games", "4", "--no-store", "--plot", "locked/p.png"],
         "--plot 'locked/p.png'", "locked"),
        (["sweep", str(DATA / "sweep.yaml"), "--no-store", "--plot", "locked/p.svg"],
         "--plot 'locked/p.svg'", "locked"),
        (["sweep", str(DATA / "sweep.yaml"), "--no-store", "--lists-to", "locked"],
         "--lists-to 'locked'", None),
        (["results", "--results", "r.sqlite", "--export", "csv", "--out", "locked/g.csv"],
         "--out 'locked/g.csv'", "locked"),
        (["play", *PATROLS[:8], "-q", "--record", "locked/g.jsonl"],
         "--record 'locked/g.jsonl'", "locked"),
        (["play", *PATROLS[:8], "-q", "--record", "g.jsonl", "--svg", "locked/t.svg"],
         "--svg 'locked/t.svg'", "locked"),
        (["scenario", "meeting-engagement", "--svg", "locked/t.svg"],
         "--svg 'locked/t.svg'", "locked"),
        (["army", "us-tesla-company", "--copy", "locked/mine.yaml"],
         "--copy 'locked/mine.yaml'", "locked"),
    ],
    ids=["evaluate-plot", "sweep-plot", "sweep-lists-to", "results-out", "play-record",
         "play-svg", "scenario-svg", "army-copy"],
)  # fmt: skip
def test_an_output_in_a_folder_that_cannot_be_written_is_refused_before_any_game(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    option: str,
    folder: str | None,
) -> None:
    """Permissions are asked with ``os.access`` (which says yes to root, as the tests run:
    so it is told to say no to the folder "locked" here)."""
    import kriegsspiel.play as play
    import kriegsspiel.sim.commands as commands
    import kriegsspiel.sim.sweep_command as sweep_command
    from kriegsspiel.sim.store import Store

    locked = tmp_path / "locked"
    locked.mkdir()
    Store(str(tmp_path / "r.sqlite")).close()
    real_access = os.access
    monkeypatch.setattr(
        os,
        "access",
        lambda path, mode: Path(path).resolve() != locked.resolve() and real_access(path, mode),
    )
    for module, name in [(commands, "evaluate"), (sweep_command, "run_one"),
                         (play, "play_game")]:  # fmt: skip
        monkeypatch.setattr(module, name, no_game)
    monkeypatch.chdir(tmp_path)
    code, said = kriegsspiel(monkeypatch, capsys, *args)
    assert code == 2, said
    where = f"the folder {str(locked)!r}" if folder else "the folder"
    assert f"{option}: {where} cannot be written in (no permission, or a read-only" in said
    assert list(locked.iterdir()) == []


def test_an_output_where_no_file_can_be_made_is_refused_before_any_game(
    tmp_path: Path,
) -> None:
    """What the permissions do not tell (root may write in /sys, as they say, but sysfs
    takes no new file) is found by making a file there first."""
    if os.access("/sys", os.W_OK) and Path("/sys/kernel").is_dir():
        where, said = (
            "/sys/p.png",
            "the folder '/sys' cannot be written in (a file made there was refused: ",
        )
    else:
        where, said = "/proc/self/p.png", "cannot be written in (no permission"
    done = run_cli("evaluate", *PATROLS, "--games", "20", "--no-store", "--plot", where,
                   cwd=tmp_path, timeout=60)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert f"--plot {where!r}: " in done.stderr and said in done.stderr, done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr


def full_disk() -> OSError:
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_file_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    """What fails mid-write leaves no file, and a file written over keeps what it held;
    what is written whole takes the place of the old, with its permissions (a new file:
    those of any new file, not the owner-only ones of a temporary file)."""
    from kriegsspiel.errors import UsageError
    from kriegsspiel.outfiles import writing

    new, old = tmp_path / "new.csv", tmp_path / "old.csv"
    old.write_text("as it was\n")
    old.chmod(0o640)
    for path in (new, old):
        with (
            pytest.raises(UsageError, match=r"cannot write --out .*: No space left on device"),
            writing(str(path), "--out") as temp,
        ):
            Path(temp).write_text("half a li")
            raise full_disk()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.csv"]
    assert old.read_text() == "as it was\n"
    for path in (new, old):
        with writing(str(path), "--out") as temp:
            Path(temp).write_text("whole\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.csv", "old.csv"]
    assert new.read_text() == old.read_text() == "whole\n"
    umask = os.umask(0o022)
    os.umask(umask)
    assert (new.stat().st_mode & 0o777, old.stat().st_mode & 0o777) == (0o666 & ~umask, 0o640)
    with writing("/dev/null", "--out") as temp:  # a device is written as it is
        assert temp == "/dev/null"


def test_an_export_that_fails_mid_write_leaves_no_file_and_a_rerun_writes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from kriegsspiel.sim.matchup import build_matchup
    from kriegsspiel.sim.runner import evaluate
    from kriegsspiel.sim.store import Store

    matchup = build_matchup("konflikt47", PATROLS[3], [PATROLS[5], PATROLS[7]], "random,random")
    with Store(str(tmp_path / "r.sqlite")) as store:
        evaluate(matchup, 2, 1, store=store)
    real_export = Store.export

    def half_then_full(self: Store, handle: Any, kind: str, matchup: str = "") -> int:
        handle.write("game_index,seed\n0,")
        handle.flush()
        raise full_disk()

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(Store, "export", half_then_full)
    args = ["results", "--results", "r.sqlite", "--export", "csv", "--out", "games.csv"]
    code, said = kriegsspiel(monkeypatch, capsys, *args)
    assert code == 2 and "cannot write --out games.csv: No space left on device" in said, said
    assert not [p for p in tmp_path.iterdir() if "games" in p.name]
    monkeypatch.setattr(Store, "export", real_export)
    code, said = kriegsspiel(monkeypatch, capsys, *args)
    assert code == 0 and "2 games exported to games.csv" in said, said
    assert len((tmp_path / "games.csv").read_text().splitlines()) == 3


def test_a_plot_that_fails_mid_write_leaves_no_file_and_a_rerun_draws_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from matplotlib.figure import Figure

    real_savefig = Figure.savefig

    def half_then_full(self: Figure, fname: str, **kwargs: Any) -> None:
        Path(fname).write_bytes(b"\x89PNG\r\n\x1a\n half a picture")
        raise full_disk()

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(Figure, "savefig", half_then_full)
    args = ["evaluate", *PATROLS, "--games", "2", "--workers", "1", "--no-store", "--plot", "p.png"]
    code, said = kriegsspiel(monkeypatch, capsys, *args)
    assert code == 2 and "cannot write --plot p.png: No space left on device" in said, said
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr(Figure, "savefig", real_savefig)
    code, said = kriegsspiel(monkeypatch, capsys, *args)
    assert code == 0, said
    assert (tmp_path / "p.png").stat().st_size > 10_000 and list(tmp_path.iterdir()) == [
        tmp_path / "p.png"
    ]


def test_a_variants_list_that_fails_mid_write_does_not_block_the_rerun(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A list left half-written would be "there already with other contents" to the rerun,
    which would refuse to write over it."""
    real_write_text = Path.write_text

    def half_then_full(self: Path, text: str, *args: Any, **kwargs: Any) -> int:
        if "riflemen" not in self.name:
            return real_write_text(self, text, *args, **kwargs)
        real_write_text(self, text[: len(text) // 2], *args, **kwargs)
        raise full_disk()

    lists = tmp_path / "lists"
    lists.mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(Path, "write_text", half_then_full)
    args = ["sweep", str(DATA / "sweep.yaml"), "--games", "2", "--workers", "1", "--no-store",
            "--lists-to", "lists"]  # fmt: skip
    code, said = kriegsspiel(monkeypatch, capsys, *args)
    assert code == 2 and "cannot write --lists-to lists/patrol-a--riflemen" in said, said
    assert "No space left on device" in said and list(lists.iterdir()) == []
    monkeypatch.setattr(Path, "write_text", real_write_text)
    code, said = kriegsspiel(monkeypatch, capsys, *args)
    assert code == 0, said
    written = lists / "patrol-a--riflemen-for-the-mmg.yaml"
    assert list(lists.iterdir()) == [written] and "Rifle section" in written.read_text()


def test_play_replaces_only_a_file_of_the_kind_it_writes(tmp_path: Path) -> None:
    """A record replaces a record (and says so), a drawing a drawing; a list, notes or an
    empty name given by mistake are refused before the game, and the file is kept."""
    first = run_cli("play", *PATROLS, "--quiet", "--seed", "3", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    default = tmp_path / "kriegsspiel-konflikt47-skirmish-seed3.jsonl"
    assert default.is_file() and "in place of" not in first.stdout
    again = run_cli("play", *PATROLS, "--quiet", "--seed", "3", "--svg", "t.svg", cwd=tmp_path)
    assert again.returncode == 0 and "in place of the record that was there" in " ".join(
        again.stdout.split()
    )
    (tmp_path / "mine.yaml").write_text("name: my list\n")
    (tmp_path / "notes.svg").write_text("my notes\n")
    for args, told in [
        (("--record", "mine.yaml"), "--record 'mine.yaml' is there already and is not a game"),
        (("--svg", "notes.svg"), "--svg 'notes.svg' is there already and is not an SVG"),
        (("--record", ""), "--record needs a file name"),
        (("--svg", " "), "--svg needs a file name"),
    ]:
        done = run_cli("play", *PATROLS, "--quiet", *args, cwd=tmp_path)
        assert done.returncode == 2 and told in " ".join(done.stderr.split()), done.stderr
        assert not done.stdout  # (refused before the game)
    assert (tmp_path / "mine.yaml").read_text() == "name: my list\n"
    assert (tmp_path / "notes.svg").read_text() == "my notes\n"
    redrawn = run_cli("play", *PATROLS, "--quiet", "--svg", "t.svg", cwd=tmp_path)
    assert redrawn.returncode == 0, redrawn.stderr  # (its own drawing is replaced)
    drawn = run_cli("scenario", str(DATA / "skirmish.yaml"), "--svg", "notes.svg",
                    "--ruleset", "konflikt47", "--army", str(DATA / "patrol-a.yaml"),
                    "--army", str(DATA / "patrol-b.yaml"), cwd=tmp_path)  # fmt: skip
    assert drawn.returncode == 2 and "is not an SVG" in drawn.stderr


def test_a_results_file_that_cannot_be_written_is_said_to_be_read_and_is_not_pruned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A read-only results file answers what it holds, and the report says it was read,
    not that games were stored in it; --prune, which must write, is refused in those words
    (os.access is told to say no to the file: the tests run as root)."""
    monkeypatch.chdir(tmp_path)
    evaluate = ["evaluate", *PATROLS, "--games", "4", "--workers", "1", "--results", "r.sqlite"]
    sweep = ["sweep", str(DATA / "sweep.yaml"), "--workers", "1", "--results", "r.sqlite"]
    for args in (evaluate, sweep):
        assert kriegsspiel(monkeypatch, capsys, *args)[0] == 0
    capsys.readouterr()
    before = (tmp_path / "r.sqlite").read_bytes()
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda path, mode: Path(path).name != "r.sqlite" and real_access(path, mode)
    )

    def report(*args: str) -> str:
        monkeypatch.setattr(sys, "argv", ["kriegsspiel", *args])
        with pytest.raises(SystemExit) as exited:
            main()
        assert exited.value.code in (0, None)
        return " ".join(capsys.readouterr().out.split())

    said = report(*evaluate)
    assert "Games read from r.sqlite, which cannot be written: none stored." in said
    assert "Games stored in" not in said
    said = report(*sweep)
    assert "from the results store (r.sqlite cannot be written: nothing new was stored)." in said
    code, said = kriegsspiel(monkeypatch, capsys, "results", "--results", "r.sqlite", "--prune")
    assert code == 2
    assert "r.sqlite cannot be written (it or its folder is read-only), and --prune deletes" in said
    assert (tmp_path / "r.sqlite").read_bytes() == before


def test_exports_and_plots_replace_only_a_file_of_the_kind_they_write(tmp_path: Path) -> None:
    """As play's record and drawing: an export replaces an earlier export (CSV or JSON, with
    games or none), a plot a PNG or SVG picture; a list, notes or a picture of another kind
    given by mistake are refused before any work, and kept."""
    made = run_cli("evaluate", *PATROLS, "--games", "2", "--workers", "1", "--results",
                   "r.sqlite", "--plot", "p.png", cwd=tmp_path)  # fmt: skip
    assert made.returncode == 0, made.stderr
    export = ["results", "--results", "r.sqlite", "--export"]
    for fmt in ("csv", "json"):
        for _ in range(2):  # (the second replaces the first)
            done = run_cli(*export, fmt, "--out", f"games.{fmt}", cwd=tmp_path)
            assert done.returncode == 0, done.stderr
    (tmp_path / "none.json").write_text("[]\n")
    assert run_cli(*export, "json", "--out", "none.json", cwd=tmp_path).returncode == 0
    again = run_cli("evaluate", *PATROLS, "--games", "2", "--workers", "1", "--results",
                    "r.sqlite", "--plot", "p.png", cwd=tmp_path)  # fmt: skip
    assert again.returncode == 0, again.stderr  # (its own picture is replaced)
    (tmp_path / "mine.yaml").write_text("name: my list\n")
    (tmp_path / "notes.png").write_text("my notes\n")
    (tmp_path / "notes.csv").write_text("date,what\n")
    for args, told in [
        ([*export, "csv", "--out", "mine.yaml"], "--out 'mine.yaml' is there already and is not an export"),
        ([*export, "csv", "--out", "notes.csv"], "--out 'notes.csv' is there already and is not an export"),
        # (CSV was once written into a .json file, and JSON into a .csv one)
        ([*export, "csv", "--out", "e.json"],
         "--out 'e.json' names a .json file, but --export csv writes CSV: give a .csv file"),
        ([*export, "json", "--out", "e.CSV"],
         "--out 'e.CSV' names a .csv file, but --export json writes JSON: give a .json file"),
        (["evaluate", *PATROLS, "--games", "2", "--no-store", "--plot", "notes.png"],
         "--plot 'notes.png' is there already and is not a PNG or SVG picture"),
        (["sweep", str(DATA / "sweep.yaml"), "--no-store", "--plot", "notes.png"],
         "--plot 'notes.png' is there already and is not a PNG or SVG picture"),
    ]:  # fmt: skip
        done = run_cli(*args, cwd=tmp_path)
        assert done.returncode == 2 and told in " ".join(done.stderr.split()), done.stderr
    assert (tmp_path / "mine.yaml").read_text() == "name: my list\n"
    assert (tmp_path / "notes.png").read_text() == "my notes\n"
    assert (tmp_path / "notes.csv").read_text() == "date,what\n"


def _unmarked_pictures(folder: Path) -> dict[str, bytes]:
    """A PNG and an SVG of the user's (matplotlib's, but not drawn by kriegsspiel), and a
    hand-written SVG: what a --plot or --svg of the same name must not replace."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.plot([1, 2])
    fig.savefig(folder / "photo.png")
    fig.savefig(folder / "photo.svg")
    plt.close(fig)
    (folder / "mine.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"></svg>\n')
    return {name: (folder / name).read_bytes() for name in ("photo.png", "photo.svg", "mine.svg")}


@pytest.mark.slow  # (17 commands, 40 s: the mark itself is read in the fast test below)
def test_only_a_picture_kriegsspiel_drew_is_replaced_and_the_replacing_is_said(
    tmp_path: Path,
) -> None:
    """--plot and --svg replace a picture only if kriegsspiel drew it (its mark: a PNG's
    "Software", an SVG's creator or comment); a screenshot or hand-made drawing of the same
    name is refused before any game, named, and kept. Replacing its own says so."""
    kept = _unmarked_pictures(tmp_path)
    evaluate = ["evaluate", *PATROLS, "--games", "2", "--workers", "1", "--no-store"]
    sweep = ["sweep", str(DATA / "sweep.yaml"), "--games", "2", "--workers", "1", "--no-store"]
    scenario = ["scenario", str(DATA / "skirmish.yaml"), "--ruleset", "konflikt47"]
    for args, told in [
        ([*evaluate, "--plot", "photo.png"], "--plot 'photo.png' is there already and is "
         "not a PNG or SVG picture kriegsspiel drew"),
        ([*evaluate, "--plot", "photo.svg"], "--plot 'photo.svg' is there already"),
        ([*sweep, "--plot", "mine.svg"], "--plot 'mine.svg' is there already"),
        (["play", *PATROLS, "--quiet", "--svg", "mine.svg"], "--svg 'mine.svg' is there "
         "already and is not an SVG drawing kriegsspiel made"),
        (["play", *PATROLS, "--quiet", "--svg", "photo.svg"], "--svg 'photo.svg' is there"),
        ([*scenario, "--svg", "mine.svg"], "--svg 'mine.svg' is there already"),
    ]:  # fmt: skip
        done = run_cli(*args, cwd=tmp_path)
        said = " ".join(done.stderr.split())
        assert done.returncode == 2 and told in said, said
        assert "Give another file name, or move it aside." in said and "Traceback" not in said
        assert not done.stdout  # (refused before any game)
    for name, start in kept.items():
        assert (tmp_path / name).read_bytes() == start, name
    # its own pictures: marked, and replaced with a word
    for args, first, then in [
        ([*evaluate, "--plot", "p.png"], "Plot written to p.png.",
         "Plot written to p.png, in place of the picture that was there."),
        ([*evaluate, "--plot", "p.svg"], "Plot written to p.svg.",
         "Plot written to p.svg, in place of the picture that was there."),
        ([*sweep, "--plot", "h.png"], "Heat map written to h.png.",
         "Heat map written to h.png, in place of the picture that was there."),
        (["play", *PATROLS, "--quiet", "--svg", "t.svg"], "Table drawn to t.svg\n",
         "Table drawn to t.svg, in place of the drawing that was there"),
    ]:  # fmt: skip
        for expected in (first, then):
            done = run_cli(*args, cwd=tmp_path)
            assert done.returncode == 0 and expected in done.stdout, done.stderr
    assert b"tEXtSoftware\x00kriegsspiel " in (tmp_path / "p.png").read_bytes()[:200]
    assert b"<dc:title>kriegsspiel " in (tmp_path / "p.svg").read_bytes()
    assert (tmp_path / "t.svg").read_text().split("\n")[1].startswith("<!-- Drawn by kriegsspiel")
    drawn = run_cli(*scenario, "--svg", "t.svg", cwd=tmp_path)
    said = " ".join(drawn.stderr.split())
    assert drawn.returncode == 0 and "Table drawn to t.svg in place of the drawing" in said, said
    as_json = run_cli(*evaluate, "--json", "--plot", "p.png", cwd=tmp_path)
    assert as_json.returncode == 0 and "in place of the picture" in as_json.stderr
    assert json.loads(as_json.stdout)["games"] == 2  # (stdout stays JSON)


@pytest.mark.parametrize(
    ("start", "picture", "svg"),
    [
        (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + b"\0" * 17 + b"tEXtSoftware\0kriegsspiel 0.2.0", True, False),
        (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + b"\0" * 17 + b"tEXtSoftware\0Matplotlib", False, False),
        (b"\x89PNG\r\n\x1a\n", False, False),
        (b'<?xml version="1.0"?>\n<!-- Drawn by kriegsspiel 0.1.0 -->\n<svg>', True, True),
        (b"<svg><metadata><cc:Agent><dc:title>kriegsspiel 0.2.0</dc:title>", True, True),
        (b'<svg xmlns="http://www.w3.org/2000/svg"><text>kriegsspiel</text></svg>', False, False),
        (b"my notes about kriegsspiel", False, False),
    ],
)  # fmt: skip
def test_a_picture_is_kriegsspiels_by_its_mark(start: bytes, picture: bool, svg: bool) -> None:
    from kriegsspiel.outfiles import is_picture, is_svg

    assert is_picture(start) is picture and is_svg(start) is svg


@pytest.mark.parametrize(
    ("args", "told"),
    [
        (["army", ""], "army was given an empty name (''); give a list's file, or a shipped "
         "list: "),
        (["army", " "], "army was given an empty name (' ')"),
        (["sweep", ""], "sweep was given an empty name (''); give a sweep file, or a shipped "
         "sweep: konflikt47-walker-or-tank."),
        (["scenario", ""], "scenario was given an empty name (''); give a scenario file, or a "
         "shipped scenario: hold-the-crossroads, meeting-engagement."),
        (["army", "us-tesla-company", "--copy", ""],
         "--copy was given an empty name (''); give a .yaml or .yml file's name."),
        (["scenario", "meeting-engagement", "--copy", ""], "--copy was given an empty name"),
        (["scenario", "meeting-engagement", "--svg", ""],
         "--svg was given an empty name (''); give a .svg file's name."),
        # (these once read the current folder, or wrote into it, or told of a default)
        (["replay", ""], "replay was given an empty name (''); give a game record"),
        (["odds", "shoot", "-w", "rifle", "--rules-file", ""],
         "--rules-file was given an empty name (''); give your copy of the edition's rules "
         "data (a YAML file), or leave it out for the shipped rules."),
        (["army", "us-tesla-company", "--rules-file", " "], "--rules-file was given an empty name (' ')"),
        (["play", "--rules-file", ""], "--rules-file was given an empty name ('')"),
        (["play", "--resume", ""],
         "--resume was given an empty name (''); give the record of the game to go on with."),
    ],
)  # fmt: skip
def test_an_empty_name_is_said_to_be_empty_not_a_folder(
    tmp_path: Path, args: list[str], told: str
) -> None:
    (tmp_path / "mine.yaml").write_text("name: my list\n")
    done = run_cli(*args, cwd=tmp_path)
    said = " ".join(done.stderr.split())
    assert done.returncode == 2 and told in said and "folder" not in said, said
    assert "Traceback" not in said and not done.stdout
    assert [p.name for p in tmp_path.iterdir()] == ["mine.yaml"]


@pytest.mark.parametrize("option", ["--scenario", "--army"])
def test_a_matchup_file_that_cannot_be_read_is_said_so_without_an_error_number(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    option: str,
) -> None:
    """(Path.read_text is told to refuse the file: the tests run as root, whom chmod 000
    does not stop.)"""
    monkeypatch.chdir(tmp_path)
    source = DATA / ("skirmish.yaml" if option == "--scenario" else "patrol-a.yaml")
    (tmp_path / "mine.yaml").write_text(source.read_text())
    real_read_text = Path.read_text

    def refused(self: Path, *args: Any, **kwargs: Any) -> str:
        if self.name == "mine.yaml":
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_read_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", refused)
    args = [*PATROLS, "--quiet"]
    args[args.index(option) + 1] = "mine.yaml"
    code, said = kriegsspiel(monkeypatch, capsys, "play", *args)
    said = " ".join(said.split())
    kind = "scenario" if option == "--scenario" else "army"
    assert code == 2, said
    assert f"{kind} file mine.yaml cannot be read (Permission denied); make it readable" in said
    assert "Errno" not in said and "Traceback" not in said


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["play", "--scenario", "", "--quiet"], "scenario was given an empty name ('')"),
        (
            ["evaluate", "--games", "2", "--workers", "1", "--no-store", "--plot", ""],
            "--plot was given an empty name (''); give a .png or .svg file's name",
        ),
        (["odds", "morale", "--pins", "abc"], "'abc' is not a whole number"),
        (  # (once the variants' lists written into the current folder, without a word)
            ["sweep", "konflikt47-walker-or-tank", "--games", "2", "--no-store", "--lists-to", ""],
            "--lists-to was given an empty name (''); give the folder to write the variants' "
            "lists in.",
        ),
    ],
)
def test_an_empty_name_or_a_word_for_a_number_is_refused_not_passed_over(
    tmp_path: Path, args: list[str], said: str
) -> None:
    """An empty --scenario was the sample and an empty --plot no plot, without a word;
    a word for a whole number was "not a valid int" in click's words."""
    run = run_cli(*args, cwd=tmp_path)
    assert run.returncode == 2, run.stdout
    assert said in run.stderr and "Traceback" not in run.stderr
    assert list(tmp_path.iterdir()) == []  # (no game was played, nothing written)


def test_a_file_that_can_be_neither_read_nor_written_is_said_so(
    tmp_path: Path, monkeypatch
) -> None:
    """A save or record the command reads back and writes (mode 000, to a user who is not
    root) was told "read-only"; it is told it can be neither read nor written."""
    import kriegsspiel.outfiles as outfiles
    from kriegsspiel.errors import UsageError

    save = tmp_path / "aid.jsonl"
    save.write_text("{}\n")
    real = os.access
    monkeypatch.setattr(
        outfiles.os, "access", lambda p, mode: False if Path(p) == save else real(p, mode)
    )
    with pytest.raises(UsageError, match=r"can be neither read nor written \(no permission\)"):
        outfiles.check_output(str(save), "--save")


def test_a_results_file_that_cannot_be_read_is_said_so(tmp_path: Path, monkeypatch) -> None:
    """SQLite's "unable to open" on a results file that is there but unreadable was told
    as a folder that cannot be written."""
    import sqlite3

    import kriegsspiel.sim.store as store

    results = tmp_path / "res.sqlite"
    results.write_bytes(b"")
    real = os.access
    monkeypatch.setattr(
        store.os, "access", lambda p, mode: False if Path(p) == results else real(p, mode)
    )

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(store.sqlite3, "connect", refused)
    with pytest.raises(
        store.StoreError, match=r"it cannot be read \(no permission\); make it readable"
    ):
        store.Store(results)


def test_a_game_that_does_not_end_is_told_plainly_and_play_keeps_its_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A game still going after the most actions a game may take (a bug's, or a rules
    file's) once ended play and evaluate with a RuntimeError: play's traceback wrote no
    record, and evaluate told it as the code's failure. Here the limit is made small."""
    from kriegsspiel.ai import players
    from kriegsspiel.rulesets.bolt_action.game.record import replay

    monkeypatch.setattr(players, "MAX_ACTIONS", 10)
    monkeypatch.chdir(tmp_path)
    code, said = kriegsspiel(monkeypatch, capsys, "play", *PATROLS[:8], "-q", "--record", "g.jsonl")
    assert code == 2 and "Traceback" not in said, said
    assert "error: the game did not end within 10 actions, at turn " in said
    assert "The game so far is recorded in g.jsonl (see it with: kriegsspiel replay" in said
    done = replay("g.jsonl")
    assert done.reproduced and done.events > 0 and not done.game.is_terminal()
    args = ["evaluate", *PATROLS, "--games", "2", "--workers", "1", "--results", "r.sqlite"]
    code, said = kriegsspiel(monkeypatch, capsys, *args)
    assert code == 2 and "Traceback" not in said, said
    assert "error: game 0 was stopped: the game did not end within 10 actions" in said
    assert "RuntimeError" not in said and "kriegsspiel play --ruleset konflikt47" in said


@pytest.mark.parametrize(
    ("command", "plot"),
    [(["evaluate", *PATROLS, "--games", "2"], "both.png"),
     (["sweep", str(DATA / "sweep.yaml"), "--games", "2"], "both.svg"),
     (["evaluate", *PATROLS, "--games", "2"], "./sub/../both.png")],
    ids=["evaluate", "sweep", "evaluate-spelt-otherwise"],
)  # fmt: skip
def test_a_plot_naming_the_results_file_is_refused_before_any_game(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    command: list[str],
    plot: str,
) -> None:
    """--results X --plot X once stored the games in X and then drew the picture over
    them: the games were lost. Refused as --record and --svg on one file are."""
    from kriegsspiel.sim import commands, sweep_command
    from kriegsspiel.sim.store import Store

    monkeypatch.setattr(commands, "evaluate", no_game)
    monkeypatch.setattr(sweep_command, "run_one", no_game)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    store = Path(plot).name
    Store(store).close()  # a store holding games already, under a picture's name
    before = (tmp_path / store).read_bytes()
    code, said = kriegsspiel(monkeypatch, capsys, *command, "--results", store, "--plot", plot)
    assert code == 2, said
    assert f"--plot and --results both name {plot!r}" in said and "give two files" in said
    assert (tmp_path / store).read_bytes() == before
