"""How far ``evaluate`` and ``sweep`` go: the workers they start, the games they take,
and worker processes that outlive a run killed from outside."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from conftest import PATROLS_RANDOM, run_cli

import kriegsspiel.sim.runner as runner

DATA = Path(__file__).parent / "data" / "sim"
PATROLS = PATROLS_RANDOM


@pytest.mark.parametrize("command", ["evaluate", "sweep"])
def test_workers_far_beyond_the_cores_are_refused_before_any_game(
    tmp_path: Path, command: str
) -> None:
    most = runner.most_workers()
    assert most == 4 * (os.cpu_count() or 1)
    what = PATROLS if command == "evaluate" else [str(DATA / "sweep.yaml")]
    done = run_cli(command, *what, "--games", "2", "--workers", str(most + 1), cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert f"--workers {most + 1} is too many for this machine's" in done.stderr
    assert f"give at most {most} (4 a core)" in done.stderr
    assert "Traceback" not in done.stderr and list(tmp_path.iterdir()) == []  # no store made


def test_no_more_workers_start_than_there_are_games_to_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A lone evaluation starts a process for each game it has left at most (fewer on a
    resume); a sweep's workers, one for each game a cell at most."""
    import kriegsspiel.sim.commands as commands
    import kriegsspiel.sim.sweep_command as sweep_command

    pools: list[int] = []
    real_pool = runner.local_pool
    monkeypatch.setattr(runner, "local_pool", lambda n: pools.append(n) or real_pool(n))
    monkeypatch.chdir(tmp_path)
    options = commands.RunOptions(workers=runner.most_workers(), results="r.sqlite")
    assert options.workers is not None and options.workers >= 4

    def evaluate(games: int) -> None:
        commands.run_evaluate(ruleset="konflikt47", scenario=PATROLS[3],
                              armies=[PATROLS[5], PATROLS[7]], players="random,random",
                              games=games, seed=1, options=options, plot=None, as_json=True)  # fmt: skip

    evaluate(2)
    assert pools == [2]
    evaluate(5)  # two of them stored: three to play
    assert pools == [2, 3]
    sweep_command.run_sweep(str(DATA / "sweep.yaml"), 3, None, options, None, as_json=True)
    assert pools == [2, 3, 3]
    capsys.readouterr()


def test_a_pool_of_workers_is_started_as_its_options_ask() -> None:
    from kriegsspiel.sim.commands import RunOptions

    assert RunOptions(workers=3).pool().workers == 3
    assert RunOptions(workers=3).pool(2).workers == 2
    assert RunOptions(workers=3).pool(5).workers == 3


@pytest.mark.parametrize("command", ["evaluate", "sweep"])
def test_more_games_than_a_run_can_count_are_refused_before_any_game(
    tmp_path: Path, command: str
) -> None:
    """--games is bounded as --seed is, so the results store can count them: one past the
    bound (or one past SQLite's integers) is a usage error, not an OverflowError."""
    from kriegsspiel.sim import MAX_GAMES

    what = PATROLS if command == "evaluate" else [str(DATA / "sweep.yaml")]
    for games in (MAX_GAMES + 1, 99999999999999999999):
        done = run_cli(command, *what, "--games", str(games), "--precision", "0.4",
                       "--results", "r.sqlite", cwd=tmp_path)  # fmt: skip
        assert done.returncode == 2, done.stderr
        said = " ".join(done.stderr.replace("│", " ").split())  # (rich's box, unwrapped)
        assert (
            f"Invalid value for '--games' / '-n': {games} is not in the range 1<=x<={MAX_GAMES}"
            in said
        )
        assert "Traceback" not in done.stderr and list(tmp_path.iterdir()) == []


def test_a_sweep_file_asking_too_many_games_is_named_at_its_line(tmp_path: Path) -> None:
    from kriegsspiel.sim import MAX_GAMES

    for name in ("skirmish.yaml", "patrol-a.yaml", "patrol-b.yaml"):
        (tmp_path / name).write_text((DATA / name).read_text())
    text = (DATA / "sweep.yaml").read_text()
    line = text.splitlines().index("games: 4") + 1
    (tmp_path / "big.yaml").write_text(text.replace("games: 4", "games: 99999999999999999999"))
    done = run_cli("sweep", "big.yaml", "--results", "r.sqlite", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert f"big.yaml: line {line}, field games: " in done.stderr
    assert f"must be {MAX_GAMES} or less" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "r.sqlite").exists()


def test_a_run_of_as_many_games_as_can_be_asked_stops_once_precise(tmp_path: Path) -> None:
    """The bound still lets --games mean "until precise": a run of the most games asked
    with --precision stops early, with a store counting them."""
    import json

    from kriegsspiel.errors import UsageError
    from kriegsspiel.sim import MAX_GAMES
    from kriegsspiel.sim.commands import RunOptions

    done = run_cli("evaluate", *PATROLS, "--games", str(MAX_GAMES), "--precision", "0.2",
                   "--workers", "1", "--results", "r.sqlite", "--json", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["stopped_early"] and data["games_requested"] == MAX_GAMES
    with pytest.raises(UsageError, match=f"--games must be at most {MAX_GAMES:,}"):
        RunOptions().check(MAX_GAMES + 1)


RUN_IN_A_THREADED_PROCESS = """
import sys
import threading

from kriegsspiel.sim.matchup import build_matchup
from kriegsspiel.sim.runner import evaluate
from kriegsspiel.sim.store import Store

if __name__ == "__main__":
    threading.Thread(target=threading.Event().wait, daemon=True).start()  # no fork, then
    scenario, army_a, army_b, store = sys.argv[1:]
    matchup = build_matchup("konflikt47", scenario, [army_a, army_b], "random,random")
    with Store(store) as results:
        evaluate(matchup, 10**6, 1, workers=2, store=results)
"""


def stored_games(path: Path) -> int:
    import sqlite3

    if not path.exists():
        return 0
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1)
    try:
        return int(db.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.OperationalError:  # (its tables not made yet)
        return 0
    finally:
        db.close()


@pytest.mark.parametrize("forked", [True, False], ids=["forked", "started-clean"])
def test_the_workers_end_when_the_run_is_killed(tmp_path: Path, forked: bool) -> None:
    """Killing the run's own process (SIGKILL, the OOM killer) ends its workers too,
    forked from it (``evaluate`` on the command line) or started from the fork server (a
    threaded process): they are not left waiting for games for good, the store open."""
    import signal
    import subprocess
    import sys
    import time

    psutil = pytest.importorskip("psutil")  # comes with Dask distributed
    store = tmp_path / "r.sqlite"
    if forked:
        command = [sys.executable, "-c", "from kriegsspiel.cli import main; main()", "evaluate",
                   *PATROLS, "--games", "1000000", "--workers", "2", "--results", str(store)]  # fmt: skip
    else:
        (tmp_path / "run.py").write_text(RUN_IN_A_THREADED_PROCESS)
        command = [sys.executable, "run.py", PATROLS[3], PATROLS[5], PATROLS[7], str(store)]
    run = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip
    family: list[Any] = []
    try:
        deadline = time.monotonic() + 60
        while stored_games(store) < 4:  # the workers are playing
            assert run.poll() is None and time.monotonic() < deadline, run.stderr
            time.sleep(0.05)
        family = psutil.Process(run.pid).children(recursive=True)
        workers = [p for p in family if not p.children() and "resource_tracker" not in
                   " ".join(p.cmdline())]  # fmt: skip
        assert len(workers) == 2, [p.cmdline() for p in family]
        os.kill(run.pid, signal.SIGKILL)
        run.wait(timeout=10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(running(p) for p in family):
            time.sleep(0.05)
        left = [(p.pid, " ".join(p.cmdline())[:60]) for p in family if running(p)]
        assert left == [], "worker processes outlived the run"
    finally:
        for process in [psutil.Process(run.pid), *family] if run.poll() is None else family:
            if running(process):
                process.kill()
        if run.stderr:
            run.stderr.close()


def running(process: Any) -> bool:
    """Is ``process`` (a psutil.Process) still running? (one ended but not waited for, by
    an init that waits for no one, is not)."""
    import psutil

    try:
        return bool(process.is_running() and process.status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False


def test_a_worker_looking_at_its_run_sees_it_end() -> None:
    """Where the system cannot wait on a process (not Linux), a worker looks whether its
    run's process is still there."""
    import subprocess
    import sys

    from kriegsspiel.sim.executors import _alive

    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    assert _alive(os.getpid()) and not _alive(ended.pid)
