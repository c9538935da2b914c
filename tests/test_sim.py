"""The batch simulator: seeds, statistics, the results store, workers, Dask and faults."""

from __future__ import annotations

import io
import math
import os
import re
import shlex
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
from conftest import in_a_fresh_process
from hypothesis import given
from hypothesis import strategies as st

import kriegsspiel.sim.runner as runner
from kriegsspiel.sim.executors import InProcess, start_method
from kriegsspiel.sim.matchup import Matchup, build_matchup, play_game
from kriegsspiel.sim.outcome import GameOutcome, play_one
from kriegsspiel.sim.runner import Progress, SimulationError, batches, evaluate, game_seed
from kriegsspiel.sim.stats import Running, t975, wilson, within_precision
from kriegsspiel.sim.store import Store, StoreError
from kriegsspiel.sim.tally import Tally

T = TypeVar("T")
DATA = Path(__file__).parent / "data" / "sim"


def patrols(players: str = "random,random") -> Matchup:
    return build_matchup(
        "konflikt47",
        str(DATA / "skirmish.yaml"),
        [str(DATA / "patrol-a.yaml"), str(DATA / "patrol-b.yaml")],
        players,
    )


# --- statistics ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hits", "n", "low", "high"),
    [  # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (Wilson score)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_interval_matches_published_values(
    hits: int, n: int, low: float, high: float
) -> None:
    p = wilson(hits, n)
    assert p.low == pytest.approx(low, abs=5e-5)
    assert p.high == pytest.approx(high, abs=5e-5)


@given(st.integers(1, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_interval_holds_the_rate_inside_zero_one(case: tuple[int, int]) -> None:
    hits, n = case
    p = wilson(hits, n)
    assert 0.0 <= p.low <= p.rate <= p.high <= 1.0
    more = wilson(hits * 4, n * 4)
    assert more.high - more.low < p.high - p.low  # more games, narrower


def test_wilson_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError, match="between 0 and n"):
        wilson(5, 3)


@given(st.lists(st.floats(-1e3, 1e3), min_size=2, max_size=50))
def test_running_mean_and_sd_agree_with_the_two_pass_formula(values: list[float]) -> None:
    running = Running()
    for v in values:
        running.add(v)
    mean = math.fsum(values) / len(values)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1))
    assert running.spread().mean == pytest.approx(mean, abs=1e-9)
    assert running.spread().sd == pytest.approx(sd, rel=1e-6, abs=1e-9)


@pytest.mark.parametrize(  # Student's t, 97.5th percentile (any printed table)
    ("df", "t"),
    [(1, 12.7062), (2, 4.3027), (3, 3.1824), (4, 2.7764), (5, 2.5706), (9, 2.2622),
     (19, 2.0930), (30, 2.0423), (99, 1.9842), (1000, 1.9623)],
)  # fmt: skip
def test_t_quantile_matches_the_table(df: int, t: float) -> None:
    assert t975(df) == pytest.approx(t, abs=3e-4)


def test_a_means_interval_is_students_t_and_needs_two_games() -> None:
    """The damage a unit deals a game: 0, 0, 120 and 60 points over four games is a mean of
    45 with sd 57.4, so 45 ± 3.1824 × 57.4 / 2 (the t interval, not the normal's 1.96)."""
    running = Running()
    running.add(0.0)
    assert running.interval() is None  # one game: no spread, no interval
    for v in (0.0, 120.0, 60.0):
        running.add(v)
    sd = math.sqrt((45**2 * 2 + 75**2 + 15**2) / 3)
    low, high = running.interval()  # type: ignore[misc]
    assert (low, high) == pytest.approx((45 - 3.182446 * sd / 2, 45 + 3.182446 * sd / 2))


@given(
    st.lists(st.floats(0, 500), min_size=0, max_size=30),
    st.lists(st.floats(0, 500), min_size=0, max_size=30),
)
def test_runs_taken_together_are_as_if_every_game_were_added_to_one(
    first: list[float], second: list[float]
) -> None:
    """Sweeps pool a unit's damage over scenarios from each run's mean and sd alone."""
    whole, parts = Running(), [Running(), Running()]
    for part, values in zip(parts, (first, second), strict=True):
        for v in values:
            part.add(v)
            whole.add(v)
    merged = Running()
    for part in parts:
        spread = part.spread()
        merged.merge(Running.of(part.n, spread.mean, spread.sd))
    assert merged.n == whole.n
    assert merged.mean == pytest.approx(whole.mean, abs=1e-6)
    assert merged.m2 == pytest.approx(whole.m2, rel=1e-6, abs=1e-3)


def test_a_unit_of_no_points_has_no_damage_per_point_and_one_game_no_interval() -> None:
    """0 points: damage per point is undefined (null, shown "–"), not 0.00."""
    from kriegsspiel.render.evaluation_text import per_point
    from kriegsspiel.sim.tally import damage_json

    dealt = Running()
    dealt.add(120.0)
    one = damage_json(dealt, 60)
    assert one["damage_per_point"] == 2.0 and one["damage_per_point_interval"] is None
    assert one["damage_dealt_sd"] is None and per_point(one) == "2.00"
    dealt.add(0.0)
    free = damage_json(dealt, 0)
    assert free["damage_dealt_mean"] == 60.0 and free["damage_per_point"] is None
    assert free["damage_per_point_interval"] is None and per_point(free) == "–"
    two = damage_json(dealt, 60)
    low, high = two["damage_per_point_interval"]
    assert low == 0.0 < two["damage_per_point"] == 1.0 < high  # (damage is never below 0)
    assert per_point(two) == f"1.00 (0.00–{high:.2f})"


def test_within_precision_needs_every_outcome_narrow() -> None:
    assert within_precision([50, 0, 50], 0.1)  # half-width ~0.097 at n=100, p=0.5
    assert not within_precision([50, 0, 50], 0.09)
    assert not within_precision([0, 0, 0], 0.5)
    # lopsided: 20 of 20 is 100% with a low of 84%: its half-width is 0.08, but it is not
    # known to +-0.1, as the stop notice would claim
    lopsided = wilson(20, 20)
    assert (lopsided.high - lopsided.low) / 2 < 0.1 < lopsided.reach
    assert not within_precision([20, 0, 0], 0.1)


# --- seeds and single games -------------------------------------------------------------


def test_game_seeds_are_fixed_per_index_and_distinct() -> None:
    seeds = [game_seed(7, i) for i in range(500)]
    assert seeds == [game_seed(7, i) for i in range(500)]
    assert len(set(seeds)) == 500
    assert seeds[:5] != [game_seed(8, i) for i in range(5)]


def test_odd_games_swap_sides_and_the_scores_follow_the_armies() -> None:
    matchup = patrols()
    outcome = play_one(matchup, 3, 99)
    assert outcome.swapped
    game = play_game(matchup, 99, swapped=True)
    assert (outcome.score_b, outcome.score_a) == game.score()
    names_a = [u.name for u in outcome.units if u.army == "A"]
    assert names_a == ["Grenadier Squad", "MG 42 MMG Team"]


def test_the_printed_play_command_reproduces_a_swapped_game() -> None:
    matchup = patrols()
    outcome = play_one(matchup, 1, 1234)
    command = matchup.play_command(1234, swapped=True).split()
    armies = [command[i + 1] for i, word in enumerate(command) if word == "--army"]
    assert armies == [str(DATA / "patrol-b.yaml"), str(DATA / "patrol-a.yaml")]
    replayed = build_matchup("konflikt47", str(DATA / "skirmish.yaml"), armies, "random,random")
    assert play_game(replayed, 1234).score() == (outcome.score_b, outcome.score_a)


def test_the_printed_play_command_can_be_pasted_into_a_shell(tmp_path: Path) -> None:
    """A list kept under a path with spaces and a quote is quoted, so the shell hands the
    command the same path back."""
    folder = tmp_path / "my lists" / "o'brien's"
    folder.mkdir(parents=True)
    for name in ("patrol-a.yaml", "patrol-b.yaml", "skirmish.yaml"):
        (folder / name).write_bytes((DATA / name).read_bytes())
    matchup = build_matchup(
        "konflikt47",
        str(folder / "skirmish.yaml"),
        [str(folder / "patrol-a.yaml"), str(folder / "patrol-b.yaml")],
        "random,random",
    )
    words = shlex.split(matchup.play_command(77, swapped=False))
    armies = [words[i + 1] for i, word in enumerate(words) if word == "--army"]
    assert armies == [str(folder / "patrol-a.yaml"), str(folder / "patrol-b.yaml")]
    assert words[words.index("--scenario") + 1] == str(folder / "skirmish.yaml")
    replayed = build_matchup(
        "konflikt47", words[words.index("--scenario") + 1], armies, "random,random"
    )
    assert play_game(replayed, 77).score() == play_game(matchup, 77).score()


# --- evaluations ----------------------------------------------------------------------------


def test_tasks_cover_every_game_in_order_and_shrink_to_single_games_at_the_end() -> None:
    games = list(range(3, 203))
    chunks = list(batches(iter(games), len(games), workers=2))
    assert [i for chunk in chunks for i in chunk] == games
    sizes = [len(c) for c in chunks]
    assert sizes[0] == 8 and sizes == sorted(sizes, reverse=True)
    assert sizes[-8:] == [1] * 8  # no worker is left with a long last task
    assert {len(c) for c in batches(games, len(games), workers=1)} == {1}  # each stored at once
    assert [len(c) for c in batches(range(7), 7, workers=2, size=3)] == [3, 3, 1]


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    one = evaluate(patrols(), 12, 5, workers=1)
    two = evaluate(patrols(), 12, 5, workers=2, batch=2)
    assert one.tally.to_json() == two.tally.to_json()
    assert one.tally.games == 12 and sum(one.tally.wins.values()) == 12


def test_evaluations_given_one_pool_share_its_workers_and_play_the_same_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A sweep's cells share one set of workers (their warm-up is paid once); what they
    play is what each evaluation plays on its own, and a worker's life of ``WORKER_LIFE``
    games counts across the evaluations."""
    alone = [evaluate(patrols(), 6, 3).tally.to_json()]
    alone.append(evaluate(patrols("random,tactical"), 4, 8).tally.to_json())
    pools: list[Any] = []
    real_pool = runner.local_pool
    monkeypatch.setattr(runner, "local_pool", lambda n: pools.append(real_pool(n)) or pools[-1])
    with runner.Workers(2) as pool:
        first = evaluate(patrols(), 6, 3, pool=pool, batch=1)
        second = evaluate(patrols("random,tactical"), 4, 8, pool=pool, batch=1)
        assert len(pools) == 1  # the second evaluation found the first one's workers
        monkeypatch.setattr(runner, "WORKER_LIFE", 4)  # 8 games a pool of two
        third = evaluate(patrols(), 6, 3, pool=pool, batch=1)
        assert len(pools) == 2  # 10 games given to the first pool by then: a fresh one
    assert [first.tally.to_json(), second.tally.to_json()] == alone
    assert third.tally.to_json() == alone[0]
    with runner.Workers(1) as pool:
        assert evaluate(patrols(), 3, 3, pool=pool).tally.games == 3
    assert len(pools) == 3  # a pool given is used, one worker or more: its life counts
    assert evaluate(patrols(), 3, 3, workers=1).tally.games == 3
    assert len(pools) == 3  # one worker and no pool: a short run plays in this process


def test_a_sweep_plays_all_its_cells_on_one_set_of_workers_and_counts_them(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import json

    import kriegsspiel.sim.commands as commands
    import kriegsspiel.sim.sweep_command as sweep_command

    pools: list[Any] = []
    real_pool = runner.local_pool
    monkeypatch.setattr(runner, "local_pool", lambda n: pools.append(real_pool(n)) or pools[-1])
    labels: list[str] = []

    @contextmanager
    def bar(show: bool, label: str) -> Iterator[Progress]:
        labels.append(label)
        yield Progress()

    monkeypatch.setattr(commands, "progress_bar", bar)
    options = commands.RunOptions(workers=2)
    sweep_command.run_sweep(str(DATA / "sweep.yaml"), 2, None, options, None, as_json=True)
    cells = json.loads(capsys.readouterr().out)["cells"]
    assert len(cells) == 2 and all(cell["games"] == 2 for row in cells for cell in row)
    assert len(pools) == 1
    assert labels == [
        "(1/2) Grenadier Patrol v Rifle Patrol",
        "(2/2) Grenadier Patrol (riflemen for the MMG) v Rifle Patrol",
    ]
    # a round robin of two lists plays one matchup: the other cell is its mirror
    a, b = DATA / "patrol-a.yaml", DATA / "patrol-b.yaml"
    robin = tmp_path / "robin.yaml"
    robin.write_text(
        f"name: Round robin\nruleset: konflikt47\nscenario: {DATA / 'skirmish.yaml'}\n"
        f"players: random,random\ngames: 2\nlists: [{a}, {b}]\nagainst: [{a}, {b}]\n"
    )
    sweep_command.run_sweep(str(robin), None, None, options, None, as_json=True)
    assert labels[2:] == ["(1/1) Grenadier Patrol v Rifle Patrol"]


def test_one_worker_plays_a_lone_evaluation_here_and_a_sweep_in_its_worker(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``evaluate --workers 1`` of up to 1,000 games starts no process (so "run with
    --workers 1" avoids worker processes); a sweep's one worker is a process of its own,
    whose life of 1,000 games counts across the cells."""
    import kriegsspiel.sim.commands as commands
    import kriegsspiel.sim.sweep_command as sweep_command

    pools: list[Any] = []
    real_pool = runner.local_pool
    monkeypatch.setattr(runner, "local_pool", lambda n: pools.append(real_pool(n)) or pools[-1])
    options = commands.RunOptions(workers=1)
    commands.run_evaluate(
        ruleset="konflikt47",
        scenario=str(DATA / "skirmish.yaml"),
        armies=[str(DATA / "patrol-a.yaml"), str(DATA / "patrol-b.yaml")],
        players="random,random",
        games=2,
        seed=1,
        options=options,
        plot=None,
        as_json=True,
    )
    assert pools == []
    sweep_command.run_sweep(str(DATA / "sweep.yaml"), 2, None, options, None, as_json=True)
    assert len(pools) == 1
    capsys.readouterr()


def test_a_run_on_a_dask_cluster_equals_the_local_run() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        remote = evaluate(patrols(), 8, 11, scheduler=cluster.scheduler_address)
        with runner.Workers(1, cluster.scheduler_address) as pool:  # one connection, two runs
            assert pool.slots() == 2
            kept = [evaluate(patrols(), 8, seed, pool=pool) for seed in (11, 12)]
    local = evaluate(patrols(), 8, 11, workers=1)
    assert remote.tally.to_json() == local.tally.to_json() == kept[0].tally.to_json()
    assert kept[1].tally.to_json() == evaluate(patrols(), 8, 12, workers=1).tally.to_json()


def test_a_cluster_without_workers_is_told_and_the_run_goes_on_when_some_join(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A scheduler with no workers: the run says so at once, keeps redrawing its progress
    (the clock moves on while no game ends), and plays its games once a worker joins; the
    games that run at once are the worker's threads, not its count."""
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(runner, "WAKE", 0.05)
    monkeypatch.setattr(runner, "RECOUNT", 0.05)
    notices: list[str] = []
    waits: list[int] = []
    with distributed.LocalCluster(
        n_workers=0, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:

        def waited() -> None:
            waits.append(1)
            if notices and len(waits) == 1:
                cluster.scale(1)  # a worker joins once the run has said it has none

        # (without the notice, a worker still joins later, so the test ends either way)
        late = threading.Timer(15, cluster.scale, (1,))
        late.start()
        try:
            with runner.Workers(1, cluster.scheduler_address) as pool:
                progress = Progress(on_notice=notices.append, on_wait=waited)
                result = evaluate(patrols(), 6, 11, pool=pool, progress=progress)
                assert pool.slots() == 2  # one worker of two threads
        finally:
            late.cancel()
    assert notices == [
        f"the Dask scheduler at {cluster.scheduler_address} has no workers: waiting for "
        "some to join (Ctrl-C stops the run)"
    ]
    assert waits  # redrawn while no game came back
    assert result.tally.to_json() == evaluate(patrols(), 6, 11).tally.to_json()


def test_a_lost_scheduler_is_told_as_such_and_the_games_that_finished_are_stored(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """The scheduler goes away mid-run: the error is the lost connection (no game is
    blamed), the games that finished are stored, and Dask's own log stays quiet; its
    loggers are as they were afterwards."""
    distributed = pytest.importorskip("distributed")
    import logging

    levels = {name: logging.getLogger(name).level for name in ("distributed", "distributed.client")}
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address

        def on_game(done: int, total: int) -> None:
            if done == 2:  # the cluster (its scheduler and worker) stops after two games
                cluster.close()

        capfd.readouterr()
        with Store(tmp_path / "results.sqlite") as store:
            with pytest.raises(SimulationError) as failed:
                evaluate(
                    patrols(), 40, 1, scheduler=address, store=store, batch=1,
                    progress=Progress(on_game=on_game),
                )  # fmt: skip
            stored = store.count(patrols(), 1, 40)
    message = str(failed.value)
    assert message.startswith(f"lost the connection to the Dask scheduler at {address} (")
    assert "; the games that finished are stored in " in message
    # how to resume, in the caller's words
    assert message.endswith("; make the same call again to resume.")
    assert told_on_the_command_line(failed.value).endswith(
        "; run the same command again to resume."
    )
    assert 2 <= stored < 40
    err = capfd.readouterr().err
    assert "Traceback" not in err and "distributed." not in err, err
    assert levels == {name: logging.getLogger(name).level for name in levels}


def test_dasks_log_is_quiet_while_a_run_holds_its_client_and_as_before_after() -> None:
    """A client whose scheduler went away logs its reconnection and the tracebacks of its
    closing on stderr; while the run holds it, Dask's loggers say nothing (the run's own
    error says what happened), and they are as they were once it is closed."""
    distributed = pytest.importorskip("distributed")
    import logging

    from kriegsspiel.sim.cluster import DaskExecutor

    heard: list[str] = []
    said = ("Failed to reconnect", "a child's traceback", "after the run")
    handler = logging.Handler()
    handler.emit = lambda record: heard.extend(  # type: ignore[method-assign]
        [record.getMessage()] if record.getMessage() in said else []
    )
    top = logging.getLogger("distributed")
    top.addHandler(handler)
    before = logging.getLogger("distributed.client").level
    try:
        with distributed.LocalCluster(
            n_workers=0, processes=False, dashboard_address=None
        ) as cluster:
            dask = DaskExecutor(cluster.scheduler_address)
            logging.getLogger("distributed.client").error("Failed to reconnect")
            logging.getLogger("distributed.comm.not.yet.made").error("a child's traceback")
            dask.close()
            assert heard == []
            logging.getLogger("distributed.client").error("after the run")
    finally:
        top.removeHandler(handler)
    assert heard == ["after the run"]
    assert logging.getLogger("distributed.client").level == before


class GrowingCluster:
    """A pool like a Dask cluster whose threads grow from one to three as the run goes,
    playing each task in this process when it is handed in."""

    workers = 1
    scheduler = "tcp://127.0.0.1:8786"

    def __init__(self) -> None:
        self.counts = iter([1, 1, 1])  # then 3 (the first count cuts the run's tasks)

    def slots(self) -> int:
        return next(self.counts, 3)

    def executor(self, games: int) -> InProcess:
        return InProcess()

    def lost(self, exc: BaseException) -> None:
        return None


def test_the_tasks_in_flight_follow_the_clusters_threads_as_workers_join(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Tasks handed in at once are 2 a thread and 1 more, the threads counted again as the
    run goes (every RECOUNT seconds), so workers that join are kept busy; the games are
    the same."""
    from concurrent.futures import wait as real_wait

    monkeypatch.setattr(runner, "RECOUNT", 0.0)
    in_flight: list[int] = []

    def counting_wait(fs: list[Future[Any]], **kwargs: Any) -> Any:
        in_flight.append(len(fs))
        return real_wait(fs, **kwargs)

    monkeypatch.setattr(runner, "wait", counting_wait)
    pool: Any = GrowingCluster()
    result = evaluate(patrols(), 20, 4, pool=pool, batch=1)
    assert in_flight[:2] == [3, 3] and max(in_flight) == 7
    assert result.tally.to_json() == evaluate(patrols(), 20, 4).tally.to_json()


class LostCluster(GrowingCluster):
    """A cluster whose scheduler is gone before the run could count its threads."""

    def slots(self) -> int:
        from kriegsspiel.sim.cluster import SchedulerLost

        raise SchedulerLost(self.scheduler, "CommClosedError: in <TCP (closed)>")


def test_a_scheduler_lost_before_the_first_game_is_told_as_such() -> None:
    pool: Any = LostCluster()
    told = r"lost the connection to the Dask scheduler at tcp://127\.0\.0\.1:8786 .*; no game"
    with pytest.raises(SimulationError, match=told):
        evaluate(patrols(), 4, 1, pool=pool)


def test_an_unreachable_scheduler_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import kriegsspiel.sim.cluster as cluster
    from kriegsspiel.errors import UsageError

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(UsageError, match="cannot reach a Dask scheduler"):
        evaluate(patrols(), 2, 1, scheduler="tcp://127.0.0.1:9")


def test_the_early_stop_stops_at_the_first_even_count_within_precision() -> None:
    result = evaluate(patrols(), 200, 2, precision=0.15)
    n = result.tally.games
    assert result.stopped_early and n < 200 and n % 2 == 0
    counts = [result.tally.wins[o] for o in ("A", "draw", "B")]
    assert all(wilson(c, n).reach <= 0.15 for c in counts)
    # not one game more than needed: at n - 2 (the last even count) it was not yet precise
    shorter = evaluate(patrols(), n - 2, 2)
    earlier = [shorter.tally.wins[o] for o in ("A", "draw", "B")]
    assert not within_precision(earlier, 0.15)


def test_the_early_stop_does_not_depend_on_the_order_games_finish(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Workers finish games out of turn; the stop is still the first even count within
    precision, not a game more (games that came early are left untallied)."""
    in_order = evaluate(patrols(), 200, 2, precision=0.155)
    played_in_order = runner._run

    def threes_reversed(*args: Any, **kwargs: Any) -> Iterator[GameOutcome]:
        held: list[GameOutcome] = []
        for outcome in played_in_order(*args, **kwargs):
            held.append(outcome)
            if len(held) == 3:
                yield from reversed(held)
                held = []
        yield from reversed(held)

    monkeypatch.setattr(runner, "_run", threes_reversed)
    shuffled = evaluate(patrols(), 200, 2, precision=0.155)
    assert in_order.stopped_early and in_order.tally.games % 3 != 0  # (so games came early)
    assert shuffled.tally.games == in_order.tally.games
    assert shuffled.tally.wins == in_order.tally.wins
    assert shuffled.played == in_order.played


def test_a_precision_not_reached_is_told_with_how_far_the_run_got() -> None:
    short = evaluate(patrols(), 10, 2, precision=0.05)
    counts = [short.tally.wins[o] for o in ("A", "draw", "B")]
    widest = max(wilson(c, 10).reach for c in counts)
    assert not short.stopped_early
    assert any(
        "(± 0.05) was not reached in 10 games" in note and f"± {widest:.3f}" in note
        for note in short.notices
    )
    reached = evaluate(patrols(), 200, 2, precision=0.15)
    assert reached.stopped_early
    assert not any("not reached" in note for note in reached.notices)


def test_a_precision_reached_by_the_last_game_is_said_and_in_percentage_points() -> None:
    """A run whose precision is met exactly at its last game did not stop early, but it
    says the precision was reached (text and --json), in percentage points, and which
    rates it holds for; a run that stopped early says so in the same terms."""
    from kriegsspiel.sim.runner import evaluation_json as to_json

    stopped = evaluate(patrols(), 200, 2, precision=0.15)
    n = stopped.tally.games
    assert stopped.stopped_early and n < 200
    exact = evaluate(patrols(), n, 2, precision=0.15)  # the same games, the last one meets it
    assert not exact.stopped_early and exact.tally.games == n
    (note,) = [x for x in exact.notices if "precision" in x]
    assert note == (
        f"the precision asked for was reached by the last of the {n} games: the 95% Wilson "
        "intervals of army A's wins, the draws and army B's wins each lie within ± 0.15 (15 "
        "percentage points) of their rates; the rates by side and each unit's survival are "
        "not held to it."
    )
    assert to_json(exact)["precision_reached"] is True
    assert to_json(stopped)["precision_reached"] is True
    short = evaluate(patrols(), 10, 2, precision=0.05)
    assert to_json(short)["precision_reached"] is False
    assert to_json(evaluate(patrols(), 4, 2))["precision_reached"] is None


def test_an_early_stop_counts_only_the_games_it_tallied(tmp_path: Path) -> None:
    """games = played + reused, whatever the store held beyond the stop; the stop is one
    of the run's notices (so --json carries it too)."""
    with Store(tmp_path / "results.sqlite") as store:
        whole = evaluate(patrols(), 60, 2, store=store)
        stopped = evaluate(patrols(), 60, 2, store=store, precision=0.15)
        more = evaluate(patrols(), 200, 2, store=store, precision=0.12)
    n = stopped.tally.games
    assert whole.tally.games == 60 and stopped.stopped_early and n < 60
    assert (stopped.played, stopped.reused) == (0, n)
    assert more.tally.games == more.played + more.reused and more.reused == 60
    assert any("stopped early after" in note for note in stopped.notices)


def test_an_early_stop_stores_the_games_played_beyond_it(tmp_path: Path) -> None:
    """Games the workers had begun when the stop came are finished anyway: they are stored
    (untallied), so a later run with more games or a finer precision reuses them. One
    worker in this process has played the rest of the tasks in flight at once; two worker
    processes hold several tasks each."""
    for workers in (1, 2):
        with Store(tmp_path / f"results-{workers}.sqlite") as store:
            stopped = evaluate(patrols(), 200, 2, workers=workers, store=store, precision=0.155)
            n = stopped.tally.games
            kept = store.indices(patrols(), 2)
            assert stopped.stopped_early and n < 200
            assert kept == list(range(len(kept)))  # (every tallied game, and those after)
            assert len(kept) > n, workers
            # the stop's note says how many more of its games are stored than it tallied
            beyond = f"{len(kept) - n} more game{'s' * (len(kept) - n > 1)} of this run"
            assert beyond in stopped.ending[0] and "stored untallied" in stopped.ending[0]
            again = evaluate(patrols(), len(kept), 2, workers=workers, store=store)
        assert (again.played, again.reused) == (0, len(kept))


def test_ctrl_c_while_an_early_stop_stores_its_games_keeps_the_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run's result is whole once the precision is reached: a Ctrl-C while the games
    beyond the stop are being stored stops that wait (the workers are stopped at once),
    not the run, whose evaluation is returned as it stood."""
    stored = runner._store_in_flight

    def interrupted(*args: Any) -> None:
        if args[-1] == "precision reached":
            raise KeyboardInterrupt
        stored(*args)

    monkeypatch.setattr(runner, "_store_in_flight", interrupted)
    with Store(tmp_path / "results.sqlite") as store:
        stopped = evaluate(patrols(), 200, 2, workers=2, store=store, precision=0.15)
    alone = evaluate(patrols(), 200, 2, precision=0.15)
    assert stopped.stopped_early and stopped.tally.to_json() == alone.tally.to_json()


def test_the_store_reuses_finished_games_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kriegsspiel.sim.runner as runner

    monkeypatch.setattr(runner, "READ_BLOCK", 4)  # read the stored games back in pieces
    path = tmp_path / "results.sqlite"
    with Store(path) as store:
        first = evaluate(patrols(), 6, 4, store=store)
        assert (first.played, first.reused) == (6, 0)
        again = evaluate(patrols(), 10, 4, store=store)
        assert (again.played, again.reused) == (4, 6)
    fresh = evaluate(patrols(), 10, 4)
    assert again.tally.to_json() == fresh.tally.to_json()
    with Store(path) as store:
        (run,) = store.runs()
        assert (run.games, run.wins_a + run.draws + run.wins_b) == (10, 10)


def test_a_stopping_pool_ends_a_worker_that_will_not_finish(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Closing the workers waits for their running games, but not for ever: a worker still
    busy (or stuck) after STOP_WAIT is ended, so a Ctrl-C can always exit."""
    import time

    import kriegsspiel.sim.executors as executors

    monkeypatch.setattr(executors, "STOP_WAIT", 0.5)
    pool = executors.local_pool(1)
    taken = tmp_path / "taken"  # (the task's mark that the worker has taken it)
    pool.submit(
        exec, f"import pathlib, time\npathlib.Path({str(taken)!r}).touch()\ntime.sleep(600)"
    )
    deadline = time.monotonic() + 120
    while not taken.exists():
        assert time.monotonic() < deadline, "the worker never took the task"
        time.sleep(0.05)
    workers = list(pool._processes.values())  # type: ignore[attr-defined]
    started = time.monotonic()
    executors.stop_pool(pool)
    # (a pool waiting for its game would take its 600 s: the bound is loose for a loaded
    # machine, not a measure of speed)
    assert time.monotonic() - started < 300
    assert workers and not any(w.is_alive() for w in workers)


def test_workers_leave_sigterm_to_the_run_and_their_pool_ends_them_with_sigkill() -> None:
    """A SIGTERM to the process group (a batch system stopping the job) is the run's to
    handle: a worker plays on. Ending a worker (ProcessPoolExecutor does so to the others
    when one dies, and a stopping pool to one that will not finish) kills it."""

    import kriegsspiel.sim.executors as executors

    pool = executors.local_pool(1)
    try:
        pid = pool.submit(os.getpid).result(timeout=60)
        (worker,) = pool._processes.values()  # type: ignore[attr-defined]
        os.kill(pid, signal.SIGTERM)
        # (the worker takes its next task only once it has had the signal: it was sent)
        assert pool.submit(os.getpid).result(timeout=60) == pid and worker.is_alive()
        worker.terminate()
        worker.join(timeout=10)
        # killed (-9); 255 is what multiprocessing gives when the fork server that started
        # the worker can no longer tell its status (seen once in a whole suite's run)
        assert not worker.is_alive() and worker.exitcode in (-signal.SIGKILL, 255)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def test_an_interrupted_run_keeps_its_games_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "results.sqlite"

    def stop_after_three(done: int, total: int) -> None:
        if done == 3:
            raise KeyboardInterrupt

    with Store(path) as store, pytest.raises(KeyboardInterrupt):
        evaluate(patrols(), 8, 9, store=store, progress=Progress(on_game=stop_after_three))
    with Store(path) as store:
        assert store.indices(patrols(), 9) == [0, 1, 2]
        resumed = evaluate(patrols(), 8, 9, store=store)
    assert (resumed.reused, resumed.played) == (3, 5)
    assert resumed.tally.to_json() == evaluate(patrols(), 8, 9).tally.to_json()


def interrupted_on_two_workers(path: str) -> list[int]:
    """Evaluate 40 games on two workers, tasks of 4, Ctrl-C as the fifth game is stored:
    the games stored then."""

    def stop_at_five(done: int, total: int) -> None:
        if done == 5:
            raise KeyboardInterrupt

    with Store(path) as store:
        try:
            evaluate(patrols(), 40, 8, workers=2, batch=4, store=store,
                     progress=Progress(on_game=stop_at_five))  # fmt: skip
        except KeyboardInterrupt:
            return store.indices(patrols(), 8)
    raise AssertionError("not interrupted")


def test_an_interrupt_stores_every_game_of_the_tasks_the_workers_had_begun(
    tmp_path: Path,
) -> None:
    """A task handed to a worker process cannot be called back: its games are stored as
    they come back after the interrupt (they were played, then thrown away), and so are
    the games of the task being stored when it came; those of tasks not begun are not
    played. The same evaluation then resumes to the same result."""
    path = str(tmp_path / "r.sqlite")
    stored = in_a_fresh_process(interrupted_on_two_workers, path)
    tasks = {index // 4 for index in stored}
    assert len(stored) > 5 and stored == [
        i for task in sorted(tasks) for i in range(4 * task, 4 * task + 4)
    ]
    with Store(path) as store:
        resumed = evaluate(patrols(), 40, 8, store=store)
    assert (resumed.reused, resumed.played) == (len(stored), 40 - len(stored))
    assert resumed.tally.to_json() == evaluate(patrols(), 40, 8).tally.to_json()


@pytest.mark.parametrize("at", ["handed in", "taken back"])
def test_a_ctrl_c_as_a_task_is_handed_in_or_taken_back_loses_none_of_its_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, at: str
) -> None:
    """A Ctrl-C (or SIGTERM) can come at any moment, also while a pool takes a task (it
    may be starting a worker process) or as a task's games are taken back from it: every
    game the workers play is still stored. Here a thread plays the tasks, which cannot be
    called back once handed in, and the signal comes as the third task is handed in, or as
    the first one's games are taken back."""
    from concurrent.futures import Executor, ThreadPoolExecutor

    played: list[int] = []
    signalled: list[bool] = []

    def logged(m: Matchup, jobs: tuple[tuple[int, int], ...], code: str | None = None) -> Any:
        outcomes = runner_play_batch(m, jobs, code)
        played.extend(outcome.index for outcome in outcomes)
        return outcomes

    class Signalling(Future[Any]):
        def result(self, timeout: float | None = None) -> Any:
            value = super().result(timeout)
            if at == "taken back" and not signalled:
                signalled.append(True)
                signal.raise_signal(signal.SIGINT)
            return value

    class Pool(Executor):
        def __init__(self, workers: int) -> None:
            self.thread, self.given = ThreadPoolExecutor(1), 0

        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
            task: Future[Any] = Signalling()
            task.set_running_or_notify_cancel()  # (as a worker's: it cannot be called back)
            self.thread.submit(lambda: task.set_result(fn(*args, **kwargs)))
            self.given += 1
            if at == "handed in" and self.given == 3:
                signal.raise_signal(signal.SIGINT)
            return task

        def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
            self.thread.shutdown(wait=True)  # (every task begun is played out)

    runner_play_batch = runner.play_batch
    monkeypatch.setattr(runner, "play_batch", logged)
    monkeypatch.setattr(runner, "local_pool", Pool)
    with Store(tmp_path / "r.sqlite") as store:
        with pytest.raises(KeyboardInterrupt):
            evaluate(patrols(), 40, 8, workers=2, batch=4, store=store)
        stored = store.indices(patrols(), 8)
    first = 8 if at == "handed in" else 0  # the task the signal came with
    assert set(range(first, first + 4)) <= set(played) <= set(stored), (played, stored)


@pytest.mark.parametrize("taken", [1, 2, 4])
def test_a_ctrl_c_as_a_game_played_here_is_taken_back_keeps_the_first_games_it_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: int
) -> None:
    """One worker plays in this process, a few games ahead of their storing: a Ctrl-C (or
    SIGTERM) as a game is taken back stores it and those played after it, so the games
    kept are the first ones, as many as the run says (a resume asking for that many reuses
    them all). The game taken back when the signal came was lost, and the two played after
    it stored: a resume of 17 games reused 16 of the 17 said to be kept."""
    played: list[int] = []
    signalled: list[int] = []

    def logged(m: Matchup, jobs: tuple[tuple[int, int], ...], code: str | None = None) -> Any:
        outcomes = runner_play_batch(m, jobs, code)
        played.extend(outcome.index for outcome in outcomes)
        return outcomes

    class Signalling(Future[Any]):
        def result(self, timeout: float | None = None) -> Any:
            value = super().result(timeout)
            signalled.append(0)
            if len(signalled) == taken:  # (the signal as the runner takes the game)
                signal.raise_signal(signal.SIGINT)
            return value

    class Here(InProcess):
        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
            task: Future[Any] = Signalling()
            task.set_result(fn(*args, **kwargs))
            return task

    runner_play_batch = runner.play_batch
    monkeypatch.setattr(runner, "play_batch", logged)
    monkeypatch.setattr(runner, "InProcess", Here)
    with Store(tmp_path / "r.sqlite") as store:
        with pytest.raises(KeyboardInterrupt):
            evaluate(patrols(), 40, 8, store=store)
        kept = store.count(patrols(), 8, 40)  # (what the command line says it kept)
        assert store.indices(patrols(), 8) == played == list(range(kept)), (played, kept)
        assert kept >= taken
        resumed = evaluate(patrols(), kept, 8, store=store)
    assert (resumed.reused, resumed.played) == (kept, 0)


HELD = """
import os, signal, sys, time
from kriegsspiel.sim.executors import interrupts_held
if sys.argv[1] == "ignored":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
try:
    with interrupts_held():
        for _ in range(int(sys.argv[3])):
            os.kill(os.getpid(), getattr(signal, sys.argv[2]))
            time.sleep(0.2)
        print("held", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
print("after", (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM to itself is POSIX's")
@pytest.mark.parametrize(("handlers", "sent", "times", "said", "status"), [
    ("python's", "SIGINT", 1, ["held", "interrupted", "after", "True"], 0),
    ("python's", "SIGINT", 2, ["interrupted", "after", "True"], 0),  # (the second at once)
    ("python's", "SIGTERM", 1, ["held"], -signal.SIGTERM),  # (its default: the process ends)
    ("python's", "SIGTERM", 2, [], -signal.SIGTERM),
    ("ignored", "SIGTERM", 2, ["held", "after", "True"], 0),
])  # fmt: skip
def test_interrupts_held_take_effect_as_the_block_ends_as_they_would_have(
    handlers: str, sent: str, times: int, said: list[str], status: int
) -> None:
    """A signal held while a task is handed in then does what it would have done at once:
    Python's Ctrl-C raises KeyboardInterrupt, a SIGTERM left to its default ends the
    process (as for a script calling evaluate), an ignored one is ignored; the handlers
    are as before. A second one does it at once, so a stuck block can still be stopped."""
    run = subprocess.run([sys.executable, "-c", HELD, handlers, sent, str(times)],
                         capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert (run.stdout.split(), run.returncode) == (said, status), run.stderr


STARTING_SERVER = """
import multiprocessing, os, signal, sys, threading, time
from multiprocessing import forkserver
import kriegsspiel.sim.executors as executors

told = []
signal.signal(signal.SIGTERM, lambda signum, frame: told.append(signum))
if sys.argv[1] == "threads":  # (a signal to the process may go to either thread)
    threading.Thread(target=time.sleep, args=(5,), daemon=True).start()
real = forkserver.ensure_running

def with_a_sigterm():
    os.kill(os.getpid(), signal.SIGTERM)  # as the server is being started
    real()

forkserver.ensure_running = with_a_sigterm
executors._start_fork_server()
deadline = time.monotonic() + 60
while not told and time.monotonic() < deadline:  # (the held SIGTERM, let through)
    time.sleep(0.01)
server = forkserver._forkserver._forkserver_pid
os.kill(server, signal.SIGTERM)  # a SIGTERM to the process group reaches it too
# a process it forks after: woken for it, a server the signal ends is gone before it
# forks (the start fails, or starts a server again: another pid)
worker = multiprocessing.get_context("forkserver").Process(target=os.getpid)
worker.start()
worker.join(60)
same = forkserver._forkserver._forkserver_pid == server and worker.exitcode == 0
alive = same and os.waitpid(server, os.WNOHANG) == (0, 0)
print("told" if told else "missed", "alive" if alive else "ended")
"""


@pytest.mark.skipif(sys.platform == "win32", reason="Windows has no fork server")
@pytest.mark.parametrize("threads", ["one thread", "threads"])
def test_a_sigterm_as_the_fork_server_starts_is_told_and_the_server_lives_on(
    threads: str,
) -> None:
    """The fork server that starts clean workers must outlive a SIGTERM to the process
    group (its workers would be taken for dead), but a SIGTERM to the run while it starts
    must still stop the run, not be dropped, whichever thread the system hands it to."""
    run = subprocess.run([sys.executable, "-c", STARTING_SERVER, threads], capture_output=True,
                         text=True, timeout=60, check=False)  # fmt: skip
    assert run.stdout.split() == ["told", "alive"], run.stderr


def unguarded_script(tmp_path: Path, *, with_a_thread: bool) -> Path:
    """A script that calls evaluate on two workers at import, with no main guard."""
    script = tmp_path / "unguarded.py"
    thread = (
        "import threading, time\n"
        "threading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n"
    )
    script.write_text(
        (thread if with_a_thread else "") + "from kriegsspiel.sim.matchup import build_matchup\n"
        "from kriegsspiel.sim.runner import evaluate\n"
        f"result = evaluate(build_matchup('konflikt47', {str(DATA / 'skirmish.yaml')!r}, "
        f"[{str(DATA / 'patrol-a.yaml')!r}, {str(DATA / 'patrol-b.yaml')!r}], "
        "'random,random'), 4, 1, workers=2)\n"
        "print('games', result.tally.games)\n"
    )
    return script


def test_a_script_without_a_main_guard_is_told_how_to_fix_it(tmp_path: Path) -> None:
    # a second thread: workers start clean, and a clean start imports the script again
    script = unguarded_script(tmp_path, with_a_thread=True)
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert run.returncode != 0
    error = [line for line in run.stderr.splitlines() if "SimulationError" in line]
    assert error and "if __name__ == '__main__':" in error[-1]


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked on Linux only")
def test_a_single_threaded_script_needs_no_main_guard_on_linux(tmp_path: Path) -> None:
    script = unguarded_script(tmp_path, with_a_thread=False)
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["games", "4"]


@contextmanager
def another_thread(running: bool) -> Iterator[None]:
    """A second thread in this process while the block runs, if ``running``."""
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    if running:
        thread.start()
    try:
        yield
    finally:
        stop.set()
        if running:
            thread.join()


def pool_workers() -> list[int]:
    """This process's worker processes: forked children, or the fork server's children."""
    import psutil

    return [
        p.pid
        for p in psutil.Process().children(recursive=True)
        if not p.children() and not any("resource_tracker" in part for part in p.cmdline())
    ]


def run_killing_a_worker(path: str, forked: bool) -> tuple[str, list[int], list[str], object]:
    """Evaluate 16 games on two workers, killing one after two games; what happened."""
    killed: list[int] = []

    def kill_a_worker(done: int, total: int) -> None:
        if done == 2 and not killed:
            workers = pool_workers()
            killed.append(workers[0])
            os.kill(workers[0], signal.SIGKILL)

    notices: list[str] = []
    with Store(path) as store, another_thread(not forked):
        method = start_method()
        result = evaluate(
            patrols("tactical,tactical"),
            16,
            6,
            workers=2,
            batch=1,
            store=store,
            progress=Progress(on_game=kill_a_worker, on_notice=notices.append),
        )
    return method, killed, notices, result.tally.to_json()


@pytest.mark.parametrize("forked", [True, False], ids=["forked", "started-clean"])
def test_a_killed_worker_loses_nothing(tmp_path: Path, forked: bool) -> None:
    pytest.importorskip("psutil")  # comes with Dask distributed
    path = str(tmp_path / "r.sqlite")
    method, killed, notices, tally = in_a_fresh_process(run_killing_a_worker, path, forked)
    assert method == ("fork" if forked and sys.platform == "linux" else "forkserver")
    assert killed and any("worker process died" in n for n in notices)
    assert tally == evaluate(patrols("tactical,tactical"), 16, 6).tally.to_json()
    with Store(path) as store:
        assert store.indices(patrols("tactical,tactical"), 6) == list(range(16))


def test_a_store_in_a_read_only_folder_is_read_as_it_stands_unless_games_wait_in_its_wal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where SQLite's read-only mode cannot open the file (a read-only folder), the file is
    read as it stands; but not when its write-ahead log holds games not yet merged into it:
    they would be missed, so that is a clear error instead."""
    import sqlite3

    import kriegsspiel.sim.store as store_module

    path = tmp_path / "results.sqlite"
    with Store(path) as store:
        evaluate(patrols(), 2, 4, store=store)
    real = sqlite3.connect

    class Refusing:
        def execute(self, *args: object) -> object:
            raise sqlite3.OperationalError("unable to open database file")

        def close(self) -> None:
            pass

    def connect(target: str, *args: object, **kwargs: object) -> object:
        return Refusing() if "mode=ro" in str(target) else real(target, *args, **kwargs)

    monkeypatch.setattr(store_module.sqlite3, "connect", connect)
    with Store(path, read_only=True) as store:
        assert store.runs()[0].games == 2
    (tmp_path / "results.sqlite-wal").write_bytes(b"unmerged games")
    with pytest.raises(StoreError, match=r"its newest games are still in results\.sqlite-wal"):
        Store(path, read_only=True)


def test_an_evaluation_wholly_stored_reads_back_from_a_store_that_cannot_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A results file shared read-only still answers the evaluations it holds; asking for
    more games than it holds is a clear error, before any game is played."""
    from kriegsspiel.sim.commands import open_store

    path = tmp_path / "results.sqlite"
    with Store(path) as store:
        played = evaluate(patrols(), 4, 9, store=store).tally.to_json()
    before = path.read_bytes()
    monkeypatch.setattr("kriegsspiel.sim.commands.os.access", lambda *a: False)
    with open_store(str(path)) as store:
        assert store is not None and store.read_only
        again = evaluate(patrols(), 4, 9, store=store)
        assert again.tally.to_json() == played and again.played == 0
        with pytest.raises(StoreError, match="holds 4 of the 5 games asked for") as refused:
            evaluate(patrols(), 5, 9, store=store)
    assert path.read_bytes() == before
    # told in the caller's words: a Python caller gives another Store, the command line
    # another --results file
    assert "make it writable, give another store, or ask" in str(refused.value)
    assert "--" not in str(refused.value)
    assert "give another --results file, or ask" in told_on_the_command_line(refused.value)


def test_a_corrupt_results_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    path.write_bytes(b"these are not the results you are looking for" * 100)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a kriegsspiel results file or it is damaged"):
        Store(path)
    assert path.read_bytes() == before


# a row of a results file changed by hand (or by another program), what is told of it (a
# pattern: which unit has a value to change depends on the game), and whether the listing
# tells it too (it looks into no unit's fields: it reads none)
DAMAGED_ROWS = [
    ("units = 'not json'", r"its units are not JSON \(Expecting value", True),
    ("winner = 'X'", "its winner is 'X', not A, B or draw", True),
    ("turns = 'x'", "its turns is 'x', not a whole number", True),
    ("score_a = 'abc'", "its score_a is 'abc', not a whole number", True),
    ("seed = 2.5", r"its game seed is 2\.5, not a whole number", True),
    ("swapped = 7", "its swapped is 7, not 0 or 1", True),
    ("units = '{}'", r"its units are \{\}, not a list of units", True),
    ("units = '[1,2]'", "unit 1 of its units is 1, not an object", False),
    ('units = \'[{"army":"A"}]\'', "unit 1 of its units lacks slot, name, points, survived", False),
    (
        'units = replace(units, \'"survived":\', \'"survived":"maybe","was":\')',
        "unit 1 of its units has was, which a unit does not",
        False,
    ),
    (
        'units = replace(units, \'"survived":true\', \'"survived":"maybe"\')',
        'unit \\d+ of its units has survived "maybe", not true or false',
        False,
    ),
    (
        "units = replace(units, '\"damage_dealt\":0.0', '\"damage_dealt\":NaN')",
        r"unit \d+ of its units has damage_dealt NaN, not a number, 0 or more",
        True,  # (NaN is not JSON to SQLite)
    ),
]


@pytest.mark.parametrize(
    ("change", "told", "listed"), DAMAGED_ROWS, ids=[c[0] for c in DAMAGED_ROWS]
)
def test_a_row_damaged_by_hand_is_told_at_its_row_wherever_it_is_read_and_left_as_it_was(
    tmp_path: Path, change: str, told: str, listed: bool
) -> None:
    """An evaluation reading it back, the listing and both exports say which file, row and
    game, what is wrong and what to do (a StoreError: exit status 2), not a traceback, and
    change nothing in the file."""
    path = tmp_path / "results.sqlite"
    with Store(path) as store:
        evaluate(patrols(), 4, 9, store=store)
    with closing(sqlite3.connect(path)) as db, db:
        db.execute(f"UPDATE games SET {change} WHERE game_index = 3")
        rowid = db.execute("SELECT rowid FROM games WHERE game_index = 3").fetchone()[0]
    before = path.read_bytes()
    where = rf"results file {re.escape(str(path))}: row {rowid} of its games \(game 3 of "
    where += r"matchup \w{8}, run with run_seed=9\) is damaged: "
    with Store(path) as store:
        with pytest.raises(StoreError, match=where + told) as refused:
            evaluate(patrols(), 4, 9, store=store)
        assert str(refused.value).endswith(
            "The file is left as it was: move it aside and give another store, or "
            f"delete that row (with the sqlite3 tool: DELETE FROM games WHERE rowid = {rowid};) "
            "and make the same call again: it plays that game again."
        )
        # the command line tells the run seed, the file and what to do as its own
        assert re.match(
            where.replace("run_seed=9", "--seed 9") + told, told_on_the_command_line(refused.value)
        )
        assert told_on_the_command_line(refused.value).endswith(
            "The file is left as it was: move it aside and give another --results file, or "
            f"delete that row (with the sqlite3 tool: DELETE FROM games WHERE rowid = {rowid};) "
            "and run the same command again: it plays that game again."
        )
        for fmt in ("csv", "json"):
            with pytest.raises(StoreError, match=where + told):
                store.export(io.StringIO(), fmt)
        if listed:
            with pytest.raises(StoreError, match=where + told):
                store.runs()
        else:
            assert store.runs()[0].games == 4
    assert path.read_bytes() == before
    with closing(sqlite3.connect(path)) as db, db:
        db.execute(f"DELETE FROM games WHERE rowid = {rowid}")
    with Store(path) as store:  # the row deleted as told: its game is played again
        again = evaluate(patrols(), 4, 9, store=store)
    assert (again.played, again.reused) == (1, 3)


def test_damaged_game_numbers_are_told_before_a_game_is_played_and_counted_in_the_listing(
    tmp_path: Path,
) -> None:
    """A game number that is not one would be counted wrong (2.5 is below 4) or played
    again beside it; the listing says how many rows are damaged."""
    path = tmp_path / "results.sqlite"
    with Store(path) as store:
        evaluate(patrols(), 4, 9, store=store)
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE games SET game_index = 2.5 WHERE game_index = 1")
        db.execute("UPDATE games SET run_seed = 'nine' WHERE game_index = 2")
    with Store(path) as store:
        with pytest.raises(StoreError, match=r"\(game 2\.5 of .*its game number is 2\.5, not a"):
            evaluate(patrols(), 4, 9, store=store)
        with pytest.raises(
            StoreError, match=r"not a whole number \(and 1 more row is damaged\)\. The file"
        ):
            store.runs()


def sidecars(path: Path) -> list[str]:
    """The files SQLite keeps beside a results file that are there now."""
    return sorted(p.name for p in path.parent.glob(path.name + "-*"))


def test_another_programs_file_with_a_meta_table_is_refused_and_left_untouched(
    tmp_path: Path,
) -> None:
    """A web browser's history has a table named meta, as a results file has: it is not
    one, and is refused before anything in it changes (its journal mode, a row, a table)."""
    path = tmp_path / "History"
    with closing(sqlite3.connect(path)) as db:
        db.executescript(
            "CREATE TABLE meta(key LONGVARCHAR NOT NULL UNIQUE PRIMARY KEY, value LONGVARCHAR);"
            "CREATE TABLE urls(id INTEGER PRIMARY KEY, url LONGVARCHAR, title LONGVARCHAR);"
            "INSERT INTO meta VALUES ('version', '53'), ('last_compatible_version', '16');"
        )
    before = path.read_bytes()
    for read_only in (False, True):
        with pytest.raises(
            StoreError, match=r"History is not a kriegsspiel results file \(its tables: meta, urls"
        ):
            Store(path, read_only=read_only)
    assert path.read_bytes() == before and sidecars(path) == []
    with closing(sqlite3.connect(path)) as db:  # another program's own mark: not ours either
        db.execute("PRAGMA application_id=1234")
        db.execute("DROP TABLE urls")
        db.execute("DELETE FROM meta")
        db.execute("INSERT INTO meta VALUES ('schema', '1')")
        db.commit()
    with pytest.raises(StoreError, match="another program's \\(SQLite application id 1234\\)"):
        Store(path)


def test_results_files_are_marked_as_ours_and_those_from_before_the_mark_are_still_read(
    tmp_path: Path,
) -> None:
    """A new results file carries kriegsspiel's SQLite application id; one written before
    files were marked (this format's tables and row, no mark) is read as ever, and marked
    once it is opened to write."""
    from kriegsspiel.sim.store import APPLICATION_ID

    path = tmp_path / "r.sqlite"
    with Store(path) as store:
        evaluate(patrols(), 2, 1, store=store)
        assert store.db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    with closing(sqlite3.connect(path)) as db:  # as the version before the mark left it
        db.execute("PRAGMA application_id=0")
        db.commit()
    before = path.read_bytes()
    with Store(path, read_only=True) as store:
        assert store.runs()[0].games == 2
    assert path.read_bytes() == before
    with Store(path) as store:
        again = evaluate(patrols(), 4, 1, store=store)
        assert (again.reused, again.played) == (2, 2)
        assert store.db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_a_results_file_of_another_layout_is_refused_before_it_is_changed(
    tmp_path: Path,
) -> None:
    """An older version's file (its matchups without scenario_hash) is told as such, not
    as SQLite's "table matchups has 9 columns but 10 values" once it had been written to."""
    path = tmp_path / "old.sqlite"
    with closing(sqlite3.connect(path)) as db:
        db.executescript(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE matchups (matchup TEXT PRIMARY KEY, ruleset TEXT NOT NULL,"
            " scenario TEXT NOT NULL, army_a TEXT NOT NULL, army_b TEXT NOT NULL,"
            " army_a_hash TEXT NOT NULL, army_b_hash TEXT NOT NULL, players TEXT NOT NULL,"
            " title TEXT NOT NULL);"
            "CREATE TABLE games (matchup TEXT NOT NULL, code_version TEXT NOT NULL,"
            " run_seed INTEGER NOT NULL, game_index INTEGER NOT NULL, seed INTEGER NOT NULL,"
            " swapped INTEGER NOT NULL, winner TEXT NOT NULL, score_a INTEGER NOT NULL,"
            " score_b INTEGER NOT NULL, turns INTEGER NOT NULL, orders INTEGER NOT NULL,"
            " units TEXT NOT NULL, finished_at TEXT NOT NULL,"
            " PRIMARY KEY (matchup, code_version, run_seed, game_index));"
            "INSERT INTO meta VALUES ('schema', '1');"
        )
    before = path.read_bytes()
    for read_only in (False, True):
        with pytest.raises(StoreError) as refused:
            Store(path, read_only=read_only)
        told = str(refused.value)
        assert "in another layout than this kriegsspiel reads" in told
        assert "its table matchups lacks scenario_hash" in told and "left as it was" in told
    assert path.read_bytes() == before and sidecars(path) == []


def as_a_user_permissions_bind(fn: Callable[[Path], str]) -> str:
    """``fn(folder)`` (what it says, or what it raised) in a new folder, as a user whom file
    permissions bind: in a forked child that is "nobody" when this runs as root (whose
    writes ignore them), once ``fn`` has run here as root (the child can import nothing)."""
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp())
    try:
        if os.geteuid() != 0:
            try:
                return fn(folder)
            except Exception as exc:
                return f"raised {exc}"
        fn(Path(tempfile.mkdtemp(dir=folder)))  # once here: whatever it imports is imported
        folder.chmod(0o777)
        read, write = os.pipe()
        child = os.fork()
        if child == 0:  # pragma: no cover (the child's coverage is not collected)
            try:
                os.setgid(65534)
                os.setuid(65534)
                said = fn(folder)
            except BaseException as exc:
                said = f"raised {exc}"
            os.write(write, said.encode())
            os._exit(0)
        os.close(write)
        with os.fdopen(read, "rb") as out:
            said = out.read().decode()
        os.waitpid(child, 0)
        return said
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def stored_then_read_while_read_only(folder: Path, read: Callable[[Path], None]) -> str:
    """A results file with a game, made read-only, read (by ``read``), made writable again
    and written to: the files beside it after the read, then what writing said."""
    path = folder / "r.sqlite"
    matchup = patrols()
    with Store(path) as store:
        store.register(matchup)
        store.add(matchup, 1, GameOutcome(0, 1, False, "draw", 1, 1, 1, 1, ()))
    path.chmod(0o444)
    read(path)
    beside = sidecars(path)
    path.chmod(0o644)
    try:
        with Store(path) as store:
            store.add(matchup, 1, GameOutcome(1, 2, True, "A", 2, 1, 1, 1, ()))
            wrote = f"stored {store.count(matchup, 1, 2)}"
    except StoreError as exc:
        wrote = str(exc)
    return f"{beside} | {wrote}"


def read_by_kriegsspiel(path: Path) -> None:
    with Store(path, read_only=True) as store:
        assert store.runs()[0].games == 1


def read_by_another_program(path: Path) -> None:
    """As the sqlite3 shell, or a kriegsspiel from before, read a read-only file."""
    with closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
        db.execute("SELECT COUNT(*) FROM games").fetchall()


def test_a_read_of_a_writable_results_file_leaves_its_files_beside_it_to_sqlite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file that can be written may have a writer opening it at any moment: the read's
    -wal and -shm are not removed by hand (a writer could be using them by then, and its
    games would go with them) but by SQLite's own last close, under its lock."""
    import kriegsspiel.sim.store as store_module

    path = tmp_path / "r.sqlite"
    with Store(path) as store:
        evaluate(patrols(), 2, 1, store=store)

    def never(shm: Path, file: Path) -> bool:
        raise AssertionError("a writable file's files beside it were judged by hand")

    monkeypatch.setattr(store_module, "_in_use", never)
    for name in ("r.sqlite-wal", "r.sqlite-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    with Store(path, read_only=True) as reader:
        assert reader.count(patrols(), 1, 2) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.sqlite"]


def test_reading_a_read_only_results_file_leaves_no_files_beside_it_to_block_writing(
    tmp_path: Path,
) -> None:
    """SQLite reading a read-only file in WAL mode makes its -wal and -shm files (as
    read-only as the file) and cannot remove them: the read removes them, or once the file
    is writable again, writing to it fails ("attempt to write a readonly database")."""
    said = as_a_user_permissions_bind(
        lambda folder: stored_then_read_while_read_only(folder, read_by_kriegsspiel)
    )
    assert said == "[] | stored 2"
    # files beside it that another connection opened during the read are its: they stay
    path = tmp_path / "r.sqlite"
    with Store(path) as store:
        store.register(patrols())
    with Store(path, read_only=True) as store, closing(sqlite3.connect(path)) as other:
        other.execute("SELECT COUNT(*) FROM games").fetchall()
        store.close()
        assert sidecars(path) == ["r.sqlite-shm", "r.sqlite-wal"]
        other.execute("INSERT INTO meta VALUES ('note', 'still written')")
        other.commit()


def test_files_left_read_only_beside_a_results_file_are_named_with_what_to_do(
    tmp_path: Path,
) -> None:
    """Files beside a results file left read-only by another program's read are named,
    with what to do about them, rather than SQLite's "attempt to write a readonly
    database"."""
    said = as_a_user_permissions_bind(
        lambda folder: stored_then_read_while_read_only(folder, read_by_another_program)
    )
    beside, wrote = said.split(" | ")
    assert beside == "['r.sqlite-shm', 'r.sqlite-wal']"
    assert "could not store a game: SQLite's files beside it cannot be written:" in wrote
    assert "r.sqlite-shm" in wrote and "; remove it" in wrote and "(no game is lost: " in wrote
    assert "readonly database" not in wrote


def test_a_locked_results_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    with Store(path) as store:
        evaluate(patrols(), 2, 1, store=store)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with (
            pytest.raises(StoreError, match="locked by another program") as locked,
            Store(path, timeout=0.2) as store,
        ):
            evaluate(patrols(), 4, 1, store=store)
        said = str(locked.value)
        if "could not open" not in said:  # (locked mid-run: it says how to go on)
            assert "make the same call again to resume" in said
            assert "run the same command again to resume" in told_on_the_command_line(locked.value)
            assert said.endswith("Games already stored are kept.")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with Store(path) as store:
        assert len(store.outcomes(patrols(), 1)) == 2


def a_file_of_another_program(path: Path) -> None:
    with closing(sqlite3.connect(path)) as other:
        other.execute("CREATE TABLE bookmarks (url TEXT)")
        other.commit()


def a_file_locked_mid_run(path: Path) -> None:
    """A results file another program locks after it is opened: recording the matchup
    (the run's first write) finds it locked."""
    Store(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with Store(path, timeout=0.1) as store:
            evaluate(patrols(), 2, 1, store=store)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


# a results file a Store cannot use, and what its advice says to a Python caller and on the
# command line (the words of each that differ)
UNUSABLE_STORES = [
    (
        "corrupt",
        lambda path: path.write_bytes(b"not results " * 400) and Store(path),
        "damaged; move it aside or use another store. It is left as it was.",
        "damaged; move it aside or use another --results file. It is left as it was.",
    ),
    (
        "another program's",
        lambda path: a_file_of_another_program(path) or Store(path),
        "(its tables: bookmarks); it is left untouched. Give another store.",
        "(its tables: bookmarks); it is left untouched. Give another --results file.",
    ),
    (
        "in no folder",
        lambda path: Store(path.parent / "no-such-folder" / path.name),
        "cannot be opened or made there; give Store a path in a folder you can write to.",
        "cannot be opened or made there; give a --results file in a folder you can write to.",
    ),
    (
        "locked mid-run",
        a_file_locked_mid_run,
        "once it is free, make the same call again to resume (or use another store). Games",
        "once it is free, run the same command again to resume (or use another --results "
        "file). Games",
    ),
]


@pytest.mark.parametrize(
    ("make", "python", "command_line"),
    [case[1:] for case in UNUSABLE_STORES],
    ids=[case[0] for case in UNUSABLE_STORES],
)
def test_a_store_that_cannot_be_used_gives_its_advice_in_the_callers_words(
    tmp_path: Path, make: Callable[[Path], object], python: str, command_line: str
) -> None:
    """A Python caller opens a Store and calls again; the command line's user gives
    --results and runs the command again: each is told what to do in their own words."""
    with pytest.raises(StoreError) as refused:
        make(tmp_path / "r.sqlite")
    said = str(refused.value)
    assert python in said and "--" not in said and "command" not in said
    assert command_line in told_on_the_command_line(refused.value)


def test_a_lost_scheduler_without_a_store_is_told_in_the_callers_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A run whose scheduler goes away with nothing stored: calling evaluate again, or
    running the command again, starts afresh; each caller is told in their own words."""
    from kriegsspiel.sim.cluster import SchedulerLost

    def lost(*args: object, **kwargs: object) -> Iterator[GameOutcome]:
        raise SchedulerLost("tcp://10.0.0.1:8786", "the client is no longer connected")
        yield  # (a generator, as _run is)

    monkeypatch.setattr(runner, "_run", lost)
    with pytest.raises(SimulationError) as failed:
        evaluate(patrols(), 4, 1)
    assert str(failed.value).endswith(
        "; nothing was stored (store=None): the same call starts afresh."
    )
    assert told_on_the_command_line(failed.value).endswith(
        "; nothing was stored (--no-store): the same command starts afresh."
    )


def test_a_full_disk_stops_the_run_and_keeps_what_was_stored(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    with Store(path) as store:
        evaluate(patrols(), 2, 1, store=store)
        pages = store.db.execute("PRAGMA page_count").fetchone()[0]
        store.db.execute(f"PRAGMA max_page_count={pages}")  # no room for another page
        with pytest.raises(StoreError, match="disk is full"):
            evaluate(patrols(), 400, 1, store=store)
    with Store(path) as store:
        kept = store.outcomes(patrols(), 1)
    assert len(kept) >= 2
    assert [kept[i] for i in range(2)] == [
        play_one(patrols(), i, game_seed(1, i)) for i in range(2)
    ]


def test_a_failing_game_names_the_command_that_reproduces_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import kriegsspiel.sim.outcome as outcome

    def broken(matchup: Matchup, index: int, seed: int) -> object:
        raise RuntimeError("boom")

    monkeypatch.setattr(outcome, "play_one", broken)
    with pytest.raises(
        SimulationError, match=r"RuntimeError: boom.*kriegsspiel play --ruleset konflikt47"
    ) as told:
        evaluate(patrols(), 2, 1)
    # with no results store (store=None; --no-store) it does not claim the games are
    # stored, told in the caller's words
    assert "); nothing was stored (store=None). Reproduce it with: " in str(told.value)
    assert "--no-store" not in str(told.value)
    said = told_on_the_command_line(told.value)
    assert "); nothing was stored (--no-store). Reproduce it with: " in said


def told_on_the_command_line(exc: BaseException) -> str:
    """An error as ``kriegsspiel evaluate`` (the entry point) tells it."""
    from kriegsspiel.cli import _told

    assert isinstance(exc, Exception)
    return _told(exc)


def test_a_failing_game_in_a_task_is_named_and_the_games_before_it_are_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A task of several games names the game that failed, not the task's first, and the
    games it finished before the failure are stored like any other."""
    import kriegsspiel.sim.outcome as outcome

    def third_fails(matchup: Matchup, index: int, seed: int) -> object:
        if index == 2:
            raise RuntimeError("boom")
        return play_one(matchup, index, seed)

    monkeypatch.setattr(outcome, "play_one", third_fails)
    with Store(tmp_path / "results.sqlite") as store:
        with pytest.raises(SimulationError) as failed:
            evaluate(patrols(), 4, 1, store=store, batch=4)
        assert store.indices(patrols(), 1) == [0, 1]
    message = str(failed.value)
    assert message.startswith("game 2 failed (RuntimeError: boom)")
    assert f"--seed {game_seed(1, 2)}" in message


class PoolHere(InProcess):
    """A pool of workers that plays each task in this process, when it is handed in."""

    def __init__(self, workers: int) -> None:
        pass


def test_tasks_failing_together_store_every_game_that_finished_and_name_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tasks of two games fail in the same round (games 1 and 3): every game that
    finished, in those tasks and the others, is stored once, and the error names game 1.
    The failure crosses a process pool as a pickle, with what it carries."""
    import pickle

    import kriegsspiel.sim.outcome as outcome

    def odd_early_games_fail(matchup: Matchup, index: int, seed: int) -> object:
        if index in (1, 3):
            raise RuntimeError(f"boom {index}")
        return play_one(matchup, index, seed)

    monkeypatch.setattr(outcome, "play_one", odd_early_games_fail)
    monkeypatch.setattr(runner, "local_pool", PoolHere)
    with Store(tmp_path / "results.sqlite") as store:
        with pytest.raises(SimulationError, match=r"^game 1 failed \(RuntimeError: boom 1\)"):
            evaluate(patrols(), 6, 1, workers=2, batch=2, store=store)
        assert store.indices(patrols(), 1) == [0, 2, 4, 5]
    with pytest.raises(outcome.BatchFailed) as failed:
        outcome.play_batch(patrols(), ((0, game_seed(1, 0)), (1, game_seed(1, 1))))
    again = pickle.loads(pickle.dumps(failed.value))
    assert (again.index, again.error, [g.index for g in again.finished]) == (
        1,
        "RuntimeError: boom 1",
        [0],
    )


def test_the_tally_finds_the_underdogs_biggest_wins() -> None:
    result = evaluate(patrols(), 40, 8)
    tally: Tally = result.tally
    why, games = tally.surprises()
    a, b = tally.wins["A"], tally.wins["B"]
    assert len(games) <= 3
    if games and "underdog" in why:
        under = "B" if a > b else "A"
        for g in games:
            assert (g["score_a"] > g["score_b"]) == (under == "A")
        margins = [abs(g["score_a"] - g["score_b"]) for g in games]
        assert margins == sorted(margins, reverse=True)


def _game(index: int, a: int, b: int) -> GameOutcome:
    winner = "draw" if a == b else ("A" if a > b else "B")
    return GameOutcome(index, 1000 + index, index % 2 == 1, winner, a, b, 3, 20, ())


@pytest.mark.parametrize(
    ("scores", "why", "shown"),
    [
        ([(1, 1), (2, 2), (0, 0), (3, 3)], "no side won a game, so the draws", [0, 1, 2]),
        ([(5, 1), (1, 2), (2, 9), (4, 3)],
         "no clear favourite (2 wins to 2), so the most one-sided games either way", [2, 0, 1]),
        # 3 wins to 2 is no clear favourite: no upset, though B won fewer
        ([(5, 1), (6, 2), (1, 4), (2, 3), (3, 3), (7, 0)],
         "no clear favourite (3 wins to 2), so the most one-sided games either way", [5, 0, 1]),
        # 9 wins to 1 is (the Wilson interval of 9 in 10 is 60%-98%)
        ([(5, 1)] * 4 + [(1, 4), (3, 3)] + [(6, 2)] * 5,
         "upsets, the biggest wins of army B, the underdog (army A won 9 of the 10 games "
         "either side won)", [4]),
        ([(5, 1)] * 5 + [(3, 3)],
         "no upset (army A won 5 of the 5 games either side won), so the draws", [5]),
        # one game: "1 win", not "1 wins"
        ([(1, 0)], "no clear favourite (1 win to 0), so the most one-sided games either way",
         [0]),
        # no upset and no draw either: said so, with no "so the draws" followed by none
        ([(5, 1)] * 6, "no upset and no draw (army A won 6 of the 6 games either side won)", []),
    ],
)  # fmt: skip
def test_the_surprising_games_are_the_underdogs_biggest_wins_or_else_the_draws(
    scores: list[tuple[int, int]], why: str, shown: list[int]
) -> None:
    tally = Tally()
    for index, (a, b) in enumerate(scores):
        tally.add(_game(index, a, b))
    said, games = tally.surprises()
    assert said == why
    assert [g["index"] for g in games] == shown


class DyingPool(InProcess):
    """A pool whose worker dies between two tasks: the death shows when the next task is
    handed in, as ``ProcessPoolExecutor.submit`` shows it once it has noticed."""

    deaths = 0

    def __init__(self, workers: int) -> None:
        self.handed = 0

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        self.handed += 1
        if self.handed == 3 and DyingPool.deaths == 0:
            DyingPool.deaths += 1
            raise BrokenProcessPool("a worker died while its pool was idle")
        return super().submit(fn, *args, **kwargs)


def test_a_worker_death_seen_when_handing_in_a_game_loses_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runner, "local_pool", DyingPool)
    monkeypatch.setattr(DyingPool, "deaths", 0)
    notices: list[str] = []
    result = evaluate(patrols(), 8, 3, workers=2, progress=Progress(on_notice=notices.append))
    assert DyingPool.deaths == 1
    assert any("worker process died" in n for n in notices)
    assert result.tally.to_json() == evaluate(patrols(), 8, 3).tally.to_json()


class DeadPool(InProcess):
    """A pool whose workers die at every task handed in."""

    def __init__(self, workers: int) -> None:
        pass

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        raise BrokenProcessPool("a worker died")


def test_workers_dying_again_and_again_are_restarted_three_times_then_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three restarts are announced as such; the fourth death is the error, not a fourth
    restart (it used to be announced as "restart 4 of 3" before the error)."""
    monkeypatch.setattr(runner, "local_pool", DeadPool)
    notices: list[str] = []
    with pytest.raises(SimulationError, match="died 4 times") as died:
        evaluate(patrols(), 8, 3, workers=2, progress=Progress(on_notice=notices.append))
    assert [n[-16:] for n in notices] == [f"(restart {k} of 3)" for k in (1, 2, 3)]
    # the advice to play on one worker process, in the caller's words
    said = str(died.value).split(" No game finished")[0]  # (less a script's hint)
    assert said.endswith(
        "nothing was stored (store=None). Check memory (dmesg) or run with workers=1."
    )
    assert "--" not in str(died.value)
    assert "(--no-store). Check memory (dmesg) or run with --workers 1." in (
        told_on_the_command_line(died.value)
    )


class FlakyPool(InProcess):
    """A pool whose worker dies at every third task handed in, games coming back between."""

    def __init__(self, workers: int) -> None:
        self.handed = 0

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        self.handed += 1
        if self.handed % 3 == 0:
            raise BrokenProcessPool("a worker died (the OOM killer)")
        return super().submit(fn, *args, **kwargs)


def test_workers_dying_now_and_then_while_games_come_back_do_not_stop_the_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only deaths in a row stop a run: a long run that loses a worker now and then (to the
    OOM killer, over hours) goes on, as games come back between the deaths."""
    monkeypatch.setattr(runner, "local_pool", FlakyPool)
    notices: list[str] = []
    result = evaluate(patrols(), 24, 3, workers=2, batch=2,
                      progress=Progress(on_notice=notices.append))  # fmt: skip
    assert len(notices) > runner.MAX_RESTARTS
    assert all(n.endswith("(restart 1 of 3)") for n in notices)
    assert result.tally.to_json() == evaluate(patrols(), 24, 3).tally.to_json()


def test_a_random_players_choices_do_not_repeat_the_order_dice_draws() -> None:
    """The bag draws from ``random.Random(seed)`` and side A's random player is given the
    same seed: were its stream that one, its first choice after side A won the first draw
    would always come from the first half of its orders (the bag's draw below one half)."""
    import random

    from kriegsspiel.ai.players import RandomPlayer, chance_outcome
    from kriegsspiel.core.game import CHANCE
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
    from kriegsspiel.sim.matchup import parsed

    scenario, army_a, army_b = parsed(patrols())
    first_half = []
    for seed in range(60):
        game = BoltActionGame("konflikt47", scenario, (army_a, army_b), seed=seed)
        assert game.current_player() == CHANCE
        game.apply_action(chance_outcome(game, random.Random(seed)))  # as play() draws it
        if game.current_player() != 0:
            continue
        actions = game.legal_actions()
        chosen = RandomPlayer(seed).choose(game)
        first_half.append(actions.index(chosen) < len(actions) / 2)
    assert len(first_half) > 15 and 0 < sum(first_half) < len(first_half)


def _pooled_coverage(rates: tuple[float, ...], games: int) -> float:
    """The exact chance that a sweep's pooled interval (:func:`pooled`, over one cell a
    rate, ``games`` each) holds the mean of ``rates``, over every outcome of every cell."""
    from itertools import product

    from kriegsspiel.sim.sweep import pooled

    mean = sum(rates) / len(rates)
    chances = [
        [math.comb(games, k) * p**k * (1 - p) ** (games - k) for k in range(games + 1)]
        for p in rates
    ]
    covered = 0.0
    for wins in product(range(games + 1), repeat=len(rates)):
        cells = [{"count": w, "games": games, "draws": {"count": 0}} for w in wins]
        found = pooled(cells)
        assert found is not None
        if found["low"] <= mean <= found["high"]:
            covered += math.prod(chance[w] for chance, w in zip(chances, wins, strict=True))
    return covered


def test_a_rows_pooled_interval_against_the_field_is_never_less_sound_than_one_opponents() -> None:
    """Games pooled against opponents of different strength (a sweep's 'v the field'):
    the interval holds their mean rate at least as often as it holds the rate of one
    binomial of that mean, for every pair of rates on a 0.05 grid and a spread of triples,
    at 10 and 20 games a cell; and more often when the rates differ much."""
    grid = [round(0.05 * i, 2) for i in range(1, 20)]
    cases = [(a, b) for i, a in enumerate(grid) for b in grid[i:]]
    cases += [(0.1, 0.1, 0.15), (0.2, 0.5, 0.8), (0.05, 0.3, 0.6), (0.45, 0.5, 0.55)]
    for games in (10, 20):
        for rates in cases:
            if len(rates) == 3 and games == 20:
                continue  # (21**3 outcomes: the triples at 10 games say the same)
            mean = sum(rates) / len(rates)
            pooled, alike = (
                _pooled_coverage(rates, games),
                _pooled_coverage((mean,) * len(rates), games),
            )
            assert pooled >= alike - 1e-12, (rates, games, pooled, alike)
    assert _pooled_coverage((0.2, 0.8), 20) > _pooled_coverage((0.5, 0.5), 20) + 0.02


def _unequal_coverage(rates: tuple[float, float], games: tuple[int, int]) -> float:
    """The exact chance that :func:`pooled` over two cells of ``games`` holds the mean of
    their ``rates`` (each cell counting alike), over every outcome of both."""
    from kriegsspiel.sim.sweep import pooled

    mean = sum(rates) / 2
    chances = [
        [math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]
        for p, n in zip(rates, games, strict=True)
    ]
    covered = 0.0
    for a in range(games[0] + 1):
        for b in range(games[1] + 1):
            found = pooled([{"count": a, "games": games[0], "draws": {"count": 0}},
                            {"count": b, "games": games[1], "draws": {"count": 0}}])  # fmt: skip
            assert found is not None
            if found["low"] <= mean <= found["high"]:
                covered += chances[0][a] * chances[1][b]
    return covered


def test_cells_of_unequal_games_count_alike_in_the_field() -> None:
    """An early stop ends a lopsided cell sooner (here 40 games at 95%) than a close one
    (96 at 45%): taking their games as one would weigh the close cell more and miss the
    row's mean rate (70%) four times in five. The pooled rate is the mean of the cells'
    rates, and its interval (MOVER over their Wilson intervals) holds that mean 94% of the
    time or more, worked out exactly, in every case tried."""
    from kriegsspiel.sim.sweep import pooled

    cells = [
        {**wilson(38, 40).to_json(), "draws": wilson(2, 40).to_json()},
        {**wilson(43, 96).to_json(), "draws": wilson(24, 96).to_json()},
    ]
    found = pooled(cells)
    assert found is not None
    assert found["rate"] == pytest.approx((38 / 40 + 43 / 96) / 2)
    assert found["draws"]["rate"] == pytest.approx(0.15)  # (the draws as the wins)
    assert (found["draws"]["count"], found["draws"]["games"]) == (26, 136)
    assert found["draws"]["low"] < 0.15 < found["draws"]["high"]
    assert (found["count"], found["games"]) == (81, 136)
    assert found["low"] < found["rate"] < found["high"]
    for rates in ((0.95, 0.45), (0.5, 0.5), (0.1, 0.9), (0.05, 0.3), (0.2, 0.6)):
        for games in ((40, 96), (20, 60), (50, 52)):
            assert _unequal_coverage(rates, games) >= 0.94, (rates, games)
    # the same games a cell: one Wilson interval over all of them, as before
    same = pooled(
        [
            {**wilson(12, 20).to_json(), "draws": wilson(2, 20).to_json()},
            {**wilson(5, 20).to_json(), "draws": wilson(0, 20).to_json()},
        ]
    )
    assert same is not None and (same["low"], same["high"]) == (
        wilson(17, 40).low,
        wilson(17, 40).high,
    )


def test_a_clear_change_that_rounds_to_nothing_keeps_its_sign_and_the_marks_are_counted(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change marked clear whose interval ends a hair below 0 reads "-0.0", not "+0.0"
    (which would look as if it held 0); and the footnote says how many intervals were
    marked of how many, since one in twenty is marked by chance."""
    from kriegsspiel.render.sweep_text import print_variant_changes

    monkeypatch.setenv("COLUMNS", "200")
    wins = {"change": -0.2, "low": -0.369, "high": -0.0000037, "pairs": 20, "clear": True}
    losses = {"change": 0.0, "low": -0.1, "high": 0.1, "pairs": 20, "clear": False}
    cell = {"wins": wins, "losses": losses}
    print_variant_changes(["B", "C"], [{"variant": "v", "list": "A", "points_added": None,
                                        "against": [cell, {**cell, "wins": losses}]}])  # fmt: skip
    said = " ".join(capsys.readouterr().out.split())
    assert "wins -20.0 *" in said and "(-36.9 to -0.0)" in said  # (its lines are apart)
    assert "losses +0.0" in said and "(-10.0 to +10.0)" in said
    assert "1 of the 4 intervals here is marked" in said and "each of 2 comparisons" in said
    print_variant_changes(["B"], [{"variant": "v", "list": "A", "points_added": None,
                                   "against": [{"wins": wins, "losses": wins}]}])  # fmt: skip
    assert "2 of the 2 intervals here are marked" in " ".join(capsys.readouterr().out.split())


def test_a_sweep_table_of_one_game_a_cell_says_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "1 games a cell" read as a slip."""
    from kriegsspiel.render.sweep_text import print_sweep_table

    monkeypatch.setenv("COLUMNS", "200")
    cell = {"rate": 1.0, "low": 0.2, "high": 1.0, "draws": {"rate": 0.0}, "games": 1,
            "mirrored": False}  # fmt: skip
    print_sweep_table("t", 1, ["a"], ["b"], [[cell]], [None])
    said = " ".join(capsys.readouterr().out.split())  # (the title wraps to the table)
    assert "1 game a cell" in said and "1 games" not in said


def test_a_results_file_another_program_holds_locked_is_told_as_locked_not_read_stale(
    tmp_path: Path,
) -> None:
    """A reader that cannot get in because a writer holds the file must not fall back to
    reading the file as it stands on disk (the writer's newest games may not be there)."""
    import sqlite3

    path = tmp_path / "results.sqlite"
    with Store(path) as store:
        evaluate(patrols(), 2, 4, store=store)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match="locked by another program"):
            Store(path, timeout=0.1, read_only=True)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with Store(path, timeout=0.1, read_only=True) as store:  # let go: read as ever
        assert store.runs()[0].games == 2


def test_the_python_api_refuses_what_the_command_line_refuses(tmp_path: Path) -> None:
    """evaluate() checks its request for every caller, not only the command line's: no
    games, a seed out of range, no workers or an impossible precision are UsageErrors
    naming them, not an empty report, a numpy or SQLite traceback, or a run that never
    stops."""
    from kriegsspiel.errors import UsageError

    for kwargs, told in [
        ({"games": 0}, r"games must be at least 1 \(got 0\)"),
        ({"run_seed": -1}, "run_seed must be a whole number 0 to 9223372036854775807, not -1"),
        ({"run_seed": 2**64}, f"run_seed must be a whole number 0 to {2**63 - 1}, not {2**64}"),
        ({"workers": 0}, r"workers must be at least 1 \(got 0\)"),
        ({"precision": 0.0}, "precision is how far a 95% interval may reach"),
        ({"precision": 2.0}, "precision is how far a 95% interval may reach"),
    ]:
        asked: dict[str, Any] = {"games": 2, "run_seed": 1} | kwargs
        with pytest.raises(UsageError, match=told):
            evaluate(patrols(), asked.pop("games"), asked.pop("run_seed"), **asked)


def test_a_matchup_takes_paths_and_players_as_a_pair(tmp_path: Path) -> None:
    from kriegsspiel.errors import UsageError

    by_path = build_matchup("konflikt47", DATA / "skirmish.yaml",
                            [DATA / "patrol-a.yaml", DATA / "patrol-b.yaml"],
                            ("random", "random"))  # fmt: skip
    assert by_path.key == patrols().key
    with pytest.raises(UsageError, match=r"'.*no-such\.yaml' is neither a file nor a shipped"):
        build_matchup("konflikt47", None, [DATA / "no-such.yaml", "us-tesla-company"])


def test_a_results_file_opened_to_read_that_is_not_there_is_told_so(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match=r"missing\.sqlite: there is no such file\."):
        Store(tmp_path / "missing.sqlite", read_only=True)
    assert not (tmp_path / "missing.sqlite").exists()


def test_damage_alike_in_every_game_has_no_interval_of_no_width() -> None:
    """A unit that dealt nothing in any of 30 games is not known to deal exactly nothing:
    mean ± t·0 would be "0.00 (0.00–0.00)". It has no interval (null, and why), and the
    text says what was seen; so too damage the same in every game; one game apart and
    the sample's mean aside, a real spread keeps its interval."""
    from kriegsspiel.render.evaluation_text import per_point
    from kriegsspiel.sim.tally import damage_json, pooled_units

    none, same = Running(), Running()
    for _ in range(30):
        none.add(0.0)
        same.add(25.0)
    assert none.interval() is None and same.interval() is None
    idle = damage_json(none, 90) | {"survival": wilson(9, 30).to_json()}
    assert idle["damage_per_point"] == 0.0 and idle["damage_per_point_interval"] is None
    assert idle["damage_per_point_no_interval"] == (
        "no damage in all 30 games: no spread seen, so no interval can be given"
    )
    assert per_point(idle) == "0.00 (none in 30 games)"
    steady = damage_json(same, 50) | {"survival": wilson(30, 30).to_json()}
    assert per_point(steady) == "0.50 (the same in 30 games)"
    assert "the same damage in all 30" in steady["damage_per_point_no_interval"]
    one = Running()
    one.add(10.0)
    assert damage_json(one, 50)["damage_per_point_no_interval"] == "one game: no spread to measure"
    spread = Running()
    for value in (0.0, 30.0):
        spread.add(value)
    assert damage_json(spread, 50)["damage_per_point_no_interval"] is None
    # taken together over a sweep's scenarios, still none
    unit = {"army": "A", "slot": 0, "unit": "Gun", "points": 90,
            "survival": wilson(3, 10).to_json(), **damage_json(none, 90)}  # fmt: skip
    (pooled,) = pooled_units([[unit], [unit]])
    assert pooled["damage_per_point_interval"] is None
    assert per_point(pooled) == "0.00 (none in 20 games)"
