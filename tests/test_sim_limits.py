"""How far ``evaluate`` and ``sweep`` go: the workers they start, the games they take,
and worker processes that outlive a run killed from outside."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import run_cli

import kriegsspiel.sim.runner as runner

DATA = Path(__file__).parent / "data" / "sim"
PATROLS = [
    "--ruleset", "konflikt47", "--scenario", str(DATA / "skirmish.yaml"),
    "--army", str(DATA / "patrol-a.yaml"), "--army", str(DATA / "patrol-b.yaml"),
    "--players", "random,random",
]  # fmt: skip


@pytest.mark.parametrize("command", ["evaluate", "sweep"])
def test_workers_far_beyond_the_cores_are_refused_before_any_game(
    tmp_path: Path, command: str
) -> None:
    from kriegsspiel.sim.commands import most_workers

    most = most_workers()
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
    options = commands.RunOptions(workers=commands.most_workers(), results="r.sqlite")
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
            f"Invalid value for '--games' / '-n': {games} is not in the range x<={MAX_GAMES}"
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
    assert f"less than or equal to {MAX_GAMES}" in done.stderr
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
