"""Files the commands write: refused before any game when they cannot be written, and
written whole or not at all."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from conftest import run_cli

from kriegsspiel.cli import main

DATA = Path(__file__).parent / "data" / "sim"
PATROLS = [
    "--ruleset", "konflikt47", "--scenario", str(DATA / "skirmish.yaml"),
    "--army", str(DATA / "patrol-a.yaml"), "--army", str(DATA / "patrol-b.yaml"),
    "--players", "random,random",
]  # fmt: skip


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
