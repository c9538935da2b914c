"""Long runs: memory that does not grow with the number of games, fresh workers (started
warm where that is safe), and the cycle collector set for playing games."""

from __future__ import annotations

import gc
import io
import json
import sys
import threading
import tracemalloc
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from conftest import in_a_fresh_process

import kriegsspiel.sim.runner as runner
from kriegsspiel.sim.commands import progress_bar
from kriegsspiel.sim.executors import GC_THRESHOLDS, InProcess, local_pool, start_method
from kriegsspiel.sim.matchup import Matchup, build_matchup, parsed
from kriegsspiel.sim.outcome import GameOutcome, UnitOutcome
from kriegsspiel.sim.runner import StoredIndices, evaluate
from kriegsspiel.sim.store import Store

DATA = Path(__file__).parent / "data" / "sim"


def patrols() -> Matchup:
    return build_matchup(
        "konflikt47",
        str(DATA / "skirmish.yaml"),
        [str(DATA / "patrol-a.yaml"), str(DATA / "patrol-b.yaml")],
        "random,random",
    )


def quick_game(index: int, seed: int) -> GameOutcome:
    """A made-up finished game, so that tens of thousands take a second."""
    units = tuple(
        UnitOutcome(army, slot, f"unit {slot}", 50, (seed >> slot) % 2 == 0, float(seed % 7))
        for army in ("A", "B")
        for slot in range(3)
    )
    score_a, score_b = seed % 4, (seed >> 3) % 4
    winner = "draw" if score_a == score_b else ("A" if score_a > score_b else "B")
    return GameOutcome(index, seed, index % 2 == 1, winner, score_a, score_b, 6, 40, units)


def quick_batch(
    matchup: Matchup, jobs: tuple[tuple[int, int], ...], code: str | None = None
) -> list[GameOutcome]:
    return [quick_game(index, seed) for index, seed in jobs]


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """Made-up games, played in this process (where the stand-in is), for long runs."""
    monkeypatch.setattr(runner, "play_batch", quick_batch)
    monkeypatch.setattr(runner, "WORKER_LIFE", 10**9)
    return monkeypatch


def peak_bytes(run: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _quickly() -> None:
    """What the ``quick`` fixture does, for a process of its own."""
    runner.play_batch = quick_batch  # type: ignore[assignment]
    runner.WORKER_LIFE = 10**9


def _peaks_of_more_games() -> tuple[int, int]:
    _quickly()
    m = patrols()
    peak_bytes(lambda: evaluate(m, 100, 1))  # one-off costs (imports, first traces) first
    return peak_bytes(lambda: evaluate(m, 2_000, 1)), peak_bytes(lambda: evaluate(m, 20_000, 1))


def _peaks_of_more_stored_games(folder: Path) -> tuple[int, int, bool]:
    _quickly()
    runner.READ_BLOCK = 50
    m = patrols()
    with Store(folder / "r.sqlite") as store:
        first = evaluate(m, 6_000, 3, store=store)
        peak_bytes(lambda: evaluate(m, 100, 3, store=store))
        small = peak_bytes(lambda: evaluate(m, 600, 3, store=store))
        large = peak_bytes(lambda: evaluate(m, 6_000, 3, store=store))
        again = evaluate(m, 6_000, 3, store=store)
    same = (again.reused, again.played) == (6_000, 0) and (
        again.tally.to_json() == first.tally.to_json()
    )
    return small, large, same


# Memory is measured in a fresh interpreter: tracemalloc counts every thread's allocations,
# and a Dask client earlier in the session leaves its event loop's thread running.
@pytest.mark.slow  # (11 s; test_memory_bounds checks every cache has its cap in the fast suite)
def test_an_evaluation_takes_no_more_memory_for_ten_times_the_games() -> None:
    small, large = in_a_fresh_process(_peaks_of_more_games)
    # about 30 kB either way; holding the list of games to play took 5 MB at 20,000
    assert large < small + 100_000, (small, large)


def test_a_resumed_evaluation_reads_its_stored_games_in_blocks(tmp_path: Path) -> None:
    small, large, same = in_a_fresh_process(_peaks_of_more_stored_games, tmp_path)
    assert same  # (every game read back, the same tally)
    # about 10 kB more; holding the set of stored games took 375 kB more
    assert large < small + 50_000, (small, large)


def test_a_run_with_gaps_in_the_store_plays_exactly_the_missing_games(
    tmp_path: Path, quick: pytest.MonkeyPatch
) -> None:
    quick.setattr(runner, "READ_BLOCK", 7)  # blocks end in the middle of gaps
    m = patrols()
    stored = [i for i in range(300) if i % 5 in (0, 1) or 120 <= i < 170]
    with Store(tmp_path / "r.sqlite") as store:
        store.register(m)
        for i in stored:
            store.add(m, 8, quick_game(i, runner.game_seed(8, i)))
        played: list[int] = []
        real = quick_batch

        def record(
            matchup: Matchup, jobs: tuple[tuple[int, int], ...], code: str | None = None
        ) -> list[GameOutcome]:
            played.extend(i for i, _ in jobs)
            return real(matchup, jobs)

        quick.setattr(runner, "play_batch", record)
        result = evaluate(m, 300, 8, store=store)
        marks = StoredIndices(store, m, 8)
        assert [i for i in range(320) if marks.contains(i)] == list(range(300))
    assert played == [i for i in range(300) if i not in set(stored)]
    assert (result.reused, result.played) == (len(stored), 300 - len(stored))
    assert result.tally.to_json() == evaluate(m, 300, 8).tally.to_json()


def test_exporting_many_games_streams_them(tmp_path: Path, quick: pytest.MonkeyPatch) -> None:
    m = patrols()
    with Store(tmp_path / "r.sqlite") as store:
        evaluate(m, 3_000, 2, store=store)
        for fmt in ("csv", "json"):
            sink = io.StringIO()
            assert store.export(sink, fmt) == 3_000
            text = sink.getvalue()
            if fmt == "json":
                rows = json.loads(text)
                assert [r["game_index"] for r in rows] == list(range(3_000))
                assert isinstance(rows[0]["units"], list) and isinstance(rows[0]["swapped"], bool)
            else:
                assert len(text.splitlines()) == 3_001

            # written as it is read: the text itself is the only thing that grows
            class Discard(io.StringIO):
                def write(self, s: str) -> int:
                    return len(s)

            peak = peak_bytes(lambda fmt=fmt: store.export(Discard(), fmt))  # type: ignore[misc]
            assert peak < len(text) // 4, (fmt, peak, len(text))


def test_long_runs_replace_their_worker_processes_and_play_the_same_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pools: list[ProcessPoolExecutor] = []
    real_pool = runner.local_pool

    def counted(workers: int) -> ProcessPoolExecutor:
        pools.append(real_pool(workers))
        return pools[-1]

    monkeypatch.setattr(runner, "local_pool", counted)
    in_process = evaluate(patrols(), 10, 12, workers=1)
    assert pools == []  # a short run plays in this process
    monkeypatch.setattr(runner, "WORKER_LIFE", 2)
    two = evaluate(patrols(), 10, 12, workers=2, batch=1)
    assert len(pools) == 3  # 4 games a pool of two workers, then a fresh pool
    one = evaluate(patrols(), 10, 12, workers=1)
    assert len(pools) == 3 + 5  # one worker, in its own process, 2 games a life
    assert in_process.tally.to_json() == two.tally.to_json() == one.tally.to_json()


def test_games_run_with_rarer_full_collections_and_the_caller_keeps_its_own() -> None:
    before = gc.get_threshold()
    assert before != GC_THRESHOLDS
    assert InProcess().submit(gc.get_threshold).result() == GC_THRESHOLDS
    assert gc.get_threshold() == before  # a script calling evaluate gets its settings back
    with local_pool(1) as pool:
        assert pool.submit(gc.get_threshold).result() == GC_THRESHOLDS


def matchups_read() -> int:
    """How many matchups' files this process has read and kept (the set-up a worker needs)."""
    from kriegsspiel.sim.matchup import _parsed

    return _parsed.cache_info().currsize


def warm_and_clean_workers() -> tuple[str, int, str, int, str]:
    """Start methods, and how many matchups a worker finds read, without and with a thread."""
    parsed(patrols())  # this process has read the matchup's files
    first = start_method()
    with local_pool(1) as pool:
        warm = pool.submit(matchups_read).result()
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        second = start_method()
        with local_pool(1) as pool:
            clean = pool.submit(matchups_read).result()
    finally:
        stop.set()
        other.join()
    return first, warm, second, clean, start_method()


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked on Linux only")
def test_workers_start_warm_from_a_single_threaded_process_and_clean_from_a_threaded_one() -> None:
    first, warm, second, clean, after = in_a_fresh_process(warm_and_clean_workers)
    assert (first, second, after) == ("fork", "forkserver", "fork")
    assert warm >= 1  # the forked worker has the matchup's files read already
    assert clean == 0  # a clean start reads them itself


def test_the_progress_bar_draws_without_a_thread_of_its_own() -> None:
    before = threading.active_count()
    with progress_bar(True, "games") as progress:
        assert threading.active_count() == before
        progress.on_game(3, 10)
        progress.on_notice("halfway")
        assert threading.active_count() == before


def test_the_progress_bar_is_redrawn_while_no_game_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """While no game comes back (a cluster without workers), the run's waits redraw the
    bar, so its time taken moves on."""
    import io

    from rich.console import Console

    import kriegsspiel.sim.commands as commands

    screen = io.StringIO()
    console = Console(file=screen, width=80, force_terminal=True, color_system=None)
    monkeypatch.setattr(commands, "ERR", console)
    with commands.progress_bar(True, "games") as progress:
        progress.on_game(4, 100)
        drawn = screen.getvalue().count("4/100")
        progress.on_wait()
        progress.on_wait()
        assert screen.getvalue().count("4/100") == drawn + 2


def test_the_progress_bar_says_the_time_taken_and_the_time_left_on_80_columns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io

    from rich.console import Console

    import kriegsspiel.sim.commands as commands

    screen = io.StringIO()
    console = Console(file=screen, width=80, force_terminal=True, color_system=None)
    monkeypatch.setattr(commands, "ERR", console)
    with commands.progress_bar(True, "a list with a very long name " * 5) as progress:
        progress.on_game(4, 100)
    lines = [line for line in screen.getvalue().replace("\r", "\n").splitlines() if "left" in line]
    assert lines and "4/100 taken 0:00:0" in lines[-1] and " left " in lines[-1]
    assert "…" in lines[-1]  # the name gave way to the count and the times
