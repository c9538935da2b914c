"""Run an evaluation: many games of one matchup, stored as they finish, summed in game order.

Game ``i`` always gets the same seed (from ``numpy.random.SeedSequence(run_seed)``'s
``i``-th child) and odd games swap the armies' sides, so the result of a run does not
depend on how many workers played it, or where.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import nullcontext, suppress
from contextvars import ContextVar
from dataclasses import dataclass, field
from itertools import islice
from time import monotonic
from typing import Any

from kriegsspiel.core import arguments
from kriegsspiel.core.names import counted
from kriegsspiel.core.seeds import game_seed
from kriegsspiel.errors import KriegsspielError, ParameterError, UsageError, Worded, named
from kriegsspiel.rulesets.bolt_action.game.set_up_order import figures_note
from kriegsspiel.sim import WORKERS_PER_CORE, executors
from kriegsspiel.sim.cluster import DaskExecutor, SchedulerLost
from kriegsspiel.sim.code import code_version
from kriegsspiel.sim.executors import InProcess, interrupts_held, local_pool, stop_pool
from kriegsspiel.sim.matchup import Matchup, rules_named
from kriegsspiel.sim.outcome import BatchFailed, GameOutcome, OtherCode, play_batch
from kriegsspiel.sim.stats import percentage_points, plain, wilson, within_precision
from kriegsspiel.sim.store import AGAIN, Store, StoreError
from kriegsspiel.sim.tally import DAMAGE_LEFT_OUT, Tally, side_favoured

MAX_RESTARTS = 3
READ_BLOCK = 1000  # stored games read back at a time: memory stays flat on resume
# Games a worker process plays before a fresh one replaces it. A process's memory levels off
# after a few hundred games but still creeps up a little (about 2 MiB each time the number of
# games doubles: the allocator's pools fragment as remembered answers are dropped and
# refilled); a fresh process every thousand games keeps a long run where it is after a
# thousand, at the cost of one start-up (under a second) per thousand games.
WORKER_LIFE = 1000
# While no game comes back: the wait wakes every WAKE seconds to redraw the progress bar (its
# clock moves on) and to look at a Dask cluster, which is told to have no workers at once and
# again every NO_WORKERS_AGAIN seconds they stay away; a cluster's threads (how many tasks
# are handed in at once) are counted again at most every RECOUNT seconds
WAKE = 2.0
NO_WORKERS_AGAIN = 60.0
RECOUNT = 5.0
MANAGER_WAIT = 5.0  # seconds a broken pool's manager thread gets to end (it ends at once)


class SimulationError(Worded):
    """A game failed, or the workers kept dying; finished games are kept. Worded for each
    caller: "workers=1", "store=None", "make the same call again" to a Python caller;
    "--workers 1", "--no-store", "run the same command again" on the command line."""


class Interrupted(KriegsspielError):
    """Ctrl-C (or SIGTERM) stopped a run: its message says what was stored and how to go
    on; the command line tells it as the stop it is, not as an error."""


def check_request(
    games: int,
    run_seed: int,
    precision: float | None,
    workers: int = 1,
    named: Callable[[str], str] = lambda name: name,
) -> None:
    """Refuse what no run can do, in words that name it (``named`` spells a parameter's
    name: the command line says "--games"); called by :func:`evaluate` for every caller."""
    for name, value in (("games", games), ("workers", workers)):
        arguments.whole(named(name), value)
    arguments.seed(run_seed, named("run_seed"))
    check_workers(workers)
    if precision is not None:
        arguments.number(named("precision"), precision)
    if games < 1:
        raise UsageError(f"{named('games')} must be at least 1 (got {games}).")
    if precision is not None and not 0 < precision < 0.5:
        raise UsageError(
            f"{named('precision')} is how far a 95% interval may reach from its rate: more "
            f"than 0 and less than 0.5, e.g. 0.01 (got {plain(precision)})."
        )


def most_workers() -> int:
    """The most local worker processes a run may start: ``WORKERS_PER_CORE`` for each of
    the machine's cores (all of them, whatever this process is pinned to)."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


def check_workers(workers: int) -> None:
    """Refuse a count of local worker processes below 1 or above :func:`most_workers`
    (a typo that would fork them all), naming the parameter ``workers`` (the command line
    tells it as ``--workers``): for ``evaluate``, ``Workers`` and the command line alike."""
    arguments.whole("workers", workers)
    if workers < 1:
        raise ParameterError(f"{named('workers')} must be at least 1 (got {workers}).")
    if workers > most_workers():
        cores = os.cpu_count() or 1
        raise ParameterError(
            f"{named('workers', workers, shown=str(workers))} is too many for this machine's "
            f"{cores} core{'s' if cores > 1 else ''}: give at most {most_workers()} "
            f"({WORKERS_PER_CORE} a core); one a core keeps them all busy."
        )


@dataclass(slots=True)
class Progress:
    """What a progress display needs: games known of the games wanted, and news."""

    on_game: Callable[[int, int], None] = lambda done, total: None
    on_notice: Callable[[str], None] = lambda text: None
    on_wait: Callable[[], None] = lambda: None  # no game came back for a while (a redraw)


@dataclass(slots=True)
class Evaluation:
    """The outcome of a run: the tally over its first ``tally.games`` games, in game order."""

    matchup: Matchup
    run_seed: int
    requested: int
    tally: Tally
    # of the games tallied (games = played + reused): those read back from the store, and
    # those played by this run (an early stop may leave further ones stored, untallied)
    reused: int = 0
    played: int = 0
    stopped_early: bool = False
    precision: float | None = None
    # games of this run (its matchup, seed and game numbers) stored by other code, by code
    # version: never reused, as any change to the code may change a game
    other_code: dict[str, int] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)
    # of the notices, those on how the run ended against its --precision (a sweep tells
    # them cell by cell; an evaluation's report prints every notice once)
    ending: list[str] = field(default_factory=list)


def evaluate(
    matchup: Matchup,
    games: int,
    run_seed: int,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    store: Store | None = None,
    precision: float | None = None,
    progress: Progress | None = None,
    batch: int | None = None,
    pool: Workers | None = None,
    keep_winners: bool = False,
) -> Evaluation:
    """Play (or read back) games ``0..games-1`` and tally them in order; stop early if asked.

    Memory does not grow with ``games``: the games to play are handed out as they are
    needed, stored games are read back a block at a time, and only games that finished
    ahead of their turn wait to be tallied (at most a few per worker).

    ``pool``, if given, is where the games run (its size and scheduler take the place of
    ``workers`` and ``scheduler``), kept open by the caller for the next evaluation: a
    sweep's cells share one, so its workers' warm-up is paid once, not once a cell.

    ``keep_winners`` keeps each game's winner in the tally, in game order (one byte a game:
    memory then grows with the games), for comparing two runs game by game.

    An early stop stores the games of the tasks the workers had begun (untallied, for a
    later run to reuse), as an interrupt does; a Ctrl-C meanwhile stops that wait (the
    workers are then stopped at once) and the run's result stands.

    A KeyboardInterrupt (Ctrl-C; the command line takes SIGTERM so too) stops the run: the
    games of the tasks the workers had begun, which cannot be called back, are stored as
    they finish (for ``executors.STOP_WAIT`` seconds at most; another interrupt stops at
    once), then the workers are stopped (``pool``'s too: what they play is not wanted) and
    the interrupt goes on.
    """
    if not isinstance(matchup, Matchup):
        raise UsageError(
            f"matchup must be a Matchup (kriegsspiel.sim.matchup.build_matchup makes one), "
            f"not {matchup!r}"
        )
    check_request(games, run_seed, precision, workers)
    if store is not None:
        arguments.instance(
            "store",
            store,
            Store,
            "a results Store, opened as `with Store(path) as store:` "
            "(kriegsspiel.sim.store.Store), or None to keep no games",
        )
    arguments.optional_text("scheduler", scheduler)
    progress = progress or Progress()
    tally = Tally(winners=bytearray() if keep_winners else None)
    result = Evaluation(matchup, run_seed, games, tally, precision=precision)
    stored = 0  # games of this run already in the store (not to be played again)
    if store is not None:
        store.register(matchup)
        stored = store.count(matchup, run_seed, games)
        result.other_code = store.other_code(matchup, run_seed, games)
        if store.read_only and stored < games:
            raise StoreError(
                f"results file {store.path} cannot be written (it or its folder is "
                f"read-only) and holds {stored} of the {games} games asked for; make it "
                f"writable, give {named('another store')}, or ask for no more games than it "
                "holds."
            )
    waiting: dict[int, GameOutcome] = {}  # finished out of order, until their turn to be tallied
    read_back: dict[int, GameOutcome] = {}  # one block of stored games
    stored_for_tally = StoredIndices(store, matchup, run_seed)
    stopped = False  # the early stop was met: no game after it is tallied, however it came

    def tally_ready() -> bool:
        """Add every game whose turn has come; True once the run can stop."""
        nonlocal read_back, stopped
        while not stopped and result.tally.games < games:
            index = result.tally.games
            outcome = waiting.pop(index, None)
            if outcome is not None:
                result.played += 1
            else:
                outcome = read_back.pop(index, None)
                if outcome is None and store is not None and stored_for_tally.contains(index):
                    read_back = store.outcomes(matchup, run_seed, index, READ_BLOCK)
                    outcome = read_back.pop(index, None)
                if outcome is None:
                    return False
                result.reused += 1  # counted as tallied: an early stop may leave some unread
            result.tally.add(outcome)
            if precision is not None and result.tally.precise(precision):
                result.stopped_early = result.tally.games < games
                stopped = True
        return True

    done = stored
    progress.on_game(done, games)
    if tally_ready():
        return _finish(result)
    if pool is not None:
        workers, scheduler = pool.workers, pool.scheduler
    else:
        workers = min(workers, games - stored)  # no process started with no game to play
    # one local worker plays in this process, unless the run is long enough to need a
    # fresh process now and then (WORKER_LIFE), or a pool given (a sweep's) counts its
    # workers' games across evaluations
    in_process = pool is None and not scheduler and workers <= 1 and games - stored <= WORKER_LIFE
    own = None if in_process or pool is not None else Workers(workers, scheduler)
    if scheduler:  # tasks cut for the cluster's workers, not for this machine's cores
        cluster = own or pool
        assert cluster is not None
        try:
            workers = max(1, cluster.slots())  # (a cluster yet to have workers: told in _run)
        except BaseException as exc:
            if own is not None:
                own.close()
            if isinstance(exc, SchedulerLost):
                raise SimulationError(f"{exc}; no game was played.") from None
            raise
    stored_for_jobs = StoredIndices(store, matchup, run_seed)
    todo = (i for i in range(games) if not stored_for_jobs.contains(i))
    jobs = (
        tuple((i, game_seed(run_seed, i)) for i in chunk)
        for chunk in batches(todo, games - stored, workers, batch)
    )
    flight = InFlight()
    workers_used = None if in_process else own or pool
    kept = (
        "the games that finished are stored"
        if store is not None
        else f"nothing was stored ({named('store=None')})"
    )
    played = _run(matchup, jobs, workers_used, progress, result.notices, flight, kept)
    stopping = False  # interrupted: the workers' games are stored as they end, then they stop
    storing = False  # stopped early: the games the workers had begun are being stored
    try:
        for outcome in played:
            done += 1
            if store is not None:
                store.add(matchup, run_seed, outcome)
            waiting[outcome.index] = outcome
            progress.on_game(done, games)
            if tally_ready():
                break
        if stopped and store is not None:  # (untallied, but a later run may reuse them)
            storing = True
            played.close()  # (the games not yet begun are cancelled)
            with suppress(KeyboardInterrupt):  # it stops the wait, not the run: its result stands
                _store_in_flight(flight, store, matchup, run_seed, progress, "precision reached")
            stopping = bool(flight.running)  # (those not done in time are not waited for)
    except KeyboardInterrupt:
        stopping = True
        played.close()  # (the games not yet begun are cancelled)
        if store is not None and not storing:
            _store_in_flight(flight, store, matchup, run_seed, progress, "stopping")
        raise
    except SchedulerLost as lost:
        kept = (
            f"the games that finished are stored in {store.path}; {AGAIN} to resume"
            if store is not None
            else f"nothing was stored ({named('store=None')}): {named('the same call')} starts "
            "afresh"
        )
        raise SimulationError(f"{lost}; {kept}.") from None
    finally:
        played.close()  # games still running are cancelled, or finish unheeded
        if stopping and workers_used is not None:  # (the caller's too: its games are not wanted)
            workers_used.close(at_once=True)
        elif own is not None:
            own.close()
    tally_ready()
    beyond = 0  # stored games of this run past the stop: the early stop's note says so
    if result.stopped_early and store is not None:
        with suppress(StoreError):  # (the result stands without the count)
            beyond = store.count(matchup, run_seed, games) - result.tally.games
    return _finish(result, beyond)


@dataclass(slots=True)
class InFlight:
    """What a run has handed to its workers and not yet given back: the tasks that are
    running (or can no longer be cancelled), and the games of a task that came back that
    are still to be given."""

    running: dict[Future[list[GameOutcome]], Job] = field(default_factory=dict)
    games: list[GameOutcome] = field(default_factory=list)


def _store_in_flight(
    flight: InFlight,
    store: Store,
    matchup: Matchup,
    run_seed: int,
    progress: Progress,
    why: str,
) -> None:
    """After an interrupt or an early stop (``why``, which the notice begins with): store
    the games that came back and were not yet stored, then those of the tasks the workers
    had begun (a task handed to a worker cannot be called back), each as it comes, for
    ``executors.STOP_WAIT`` seconds at most. An interrupt stops at once; a store that fails
    stops it too (after an interrupt, the interrupt is still what is told)."""
    with suppress(StoreError):
        for outcome in flight.games:
            store.add(matchup, run_seed, outcome)
        flight.games.clear()
        running = flight.running
        busy = [job for future, job in running.items() if not future.done()]
        wait_for = executors.STOP_WAIT
        if busy:  # (told only if there is something to wait for)
            most = sum(len(job) for job in busy)
            stop = "again stops at once" if why == "stopping" else "stops waiting for them"
            progress.on_notice(
                f"{why}: storing the games the workers are finishing (at most {most}, within "
                f"{wait_for:.0f} s; Ctrl-C {stop})"
            )
        deadline = monotonic() + wait_for
        while running:
            finished, _ = wait(
                list(running), timeout=max(0.0, deadline - monotonic()), return_when=FIRST_COMPLETED
            )
            if not finished:
                return
            for future in finished:
                running.pop(future)
                try:
                    outcomes = future.result()
                except BatchFailed as exc:  # (the game that failed is told by the next run)
                    outcomes = exc.finished
                except Exception:  # a worker died, or another code's: none to store
                    continue
                for outcome in outcomes:
                    store.add(matchup, run_seed, outcome)


class StoredIndices:
    """Which game numbers are stored, asked in rising order, read from the store in blocks."""

    def __init__(self, store: Store | None, matchup: Matchup, run_seed: int) -> None:
        self.store, self.matchup, self.run_seed = store, matchup, run_seed
        self.block: list[int] = []  # stored numbers from ``self.start`` on, in order
        self.start = 0  # every stored number below this was in an earlier block
        self.read_to = -1  # every stored number up to this is in ``self.block``
        self.at = 0  # where the last question left off in ``self.block``

    def contains(self, index: int) -> bool:
        if self.store is None:
            return False
        if index > self.read_to:
            self.block = self.store.indices(self.matchup, self.run_seed, index, READ_BLOCK)
            full = len(self.block) == READ_BLOCK
            self.read_to = self.block[-1] if full else _NO_END
            self.at = 0
        block, at = self.block, self.at
        while at < len(block) and block[at] < index:
            at += 1
        self.at = at
        return at < len(block) and block[at] == index


_NO_END = 2**62  # read_to once the last block has been read: no stored game lies beyond it


def _finish(result: Evaluation, beyond: int = 0) -> Evaluation:
    """The run's notes on how it ended (``beyond``: games of it stored past an early stop,
    which it did not tally)."""
    if result.tally.games % 2:
        from kriegsspiel.sim.matchup import parsed

        first, second = parsed(result.matchup)[0].sides()
        note = (
            f"an odd number of games ({result.tally.games}): army A deployed {first} once "
            f"more than {second}; an even number balances the sides."
        )
        result.notices.append(note)  # in the report only: it is no news while games run
    tally, precision = result.tally, result.precision
    counts = [tally.wins[o] for o in ("A", "draw", "B")]
    if precision is not None and tally.games and within_precision(counts, precision):
        when = (
            f"stopped early after {tally.games} games"
            if result.stopped_early
            else f"the precision asked for was reached by the last of the {tally.games} games"
        )
        note = (
            f"{when}: the 95% Wilson intervals of army A's wins, the draws and army B's "
            f"wins each lie within ± {plain(precision)} ({percentage_points(precision)} "
            "percentage points) of "
            "their rates; the rates by side and each unit's survival are not held to it."
        )
        if beyond > 0:  # (a task handed to a worker cannot be called back)
            note += (
                f" {counted(beyond, 'more game')} of this run {'is' if beyond == 1 else 'are'} "
                "stored untallied (the workers had finished or begun them as it stopped), "
                "for a later run with more games or a finer precision to reuse."
            )
        result.notices.append(note)
        result.ending.append(note)
    if precision is not None and tally.games and not within_precision(counts, precision):
        widest = max(wilson(c, tally.games).reach for c in counts)
        note = (
            f"the precision asked for (± {plain(precision)}) was not reached in {tally.games} "
            f"games: the widest 95% interval reaches ± {widest:.3f} from its rate; ask for "
            "more games (they stop as soon as it is reached)."
        )
        result.notices.append(note)
        result.ending.append(note)
    return result


def batches(
    games: Iterable[int], count: int, workers: int, size: int | None = None
) -> Iterator[list[int]]:
    """The ``count`` games cut into tasks, in order: ``size`` each if given, else shrinking ones.

    A task of several games pays for its messaging once; but the last tasks must be small, or
    one worker plays a long last batch while the others wait. So each task takes about a
    quarter of a worker's share of what is left (at most 8 games), down to single games.
    One worker plays single games, so each is stored as soon as it ends.
    """
    games = iter(games)
    left = count
    while left > 0:
        step = size or (1 if workers <= 1 else max(1, min(8, left // (4 * workers))))
        chunk = list(islice(games, min(step, left)))
        if not chunk:
            return
        yield chunk
        left -= len(chunk)


Job = tuple[tuple[int, int], ...]


class Workers:
    """The worker processes (or the Dask cluster) that play games, kept between evaluations.

    Workers get faster as they play: they work out exact odds and remember sight and moves
    the first time they meet them. A sweep hands all its cells to one ``Workers``, so that
    warm-up is paid once, not once a cell. Local processes start when the first games are
    handed out, and a fresh set replaces them after ``WORKER_LIFE`` games a worker.
    """

    def __init__(self, workers: int, scheduler: str | None = None) -> None:
        check_workers(workers)
        arguments.optional_text("scheduler", scheduler)
        self.workers = workers
        self.scheduler = scheduler
        self._dask: DaskExecutor | None = None
        self._pool: Executor | None = None
        self._given = 0  # games handed to the current local pool

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def slots(self) -> int:
        """How many games run at once: on a Dask cluster, its workers' threads now (0 while
        it has none; SchedulerLost if it cannot be asked)."""
        return self._cluster().threads() if self.scheduler else self.workers

    def lost(self, exc: BaseException) -> SchedulerLost | None:
        """If ``exc`` means the Dask scheduler's connection is gone, that loss (see
        :meth:`DaskExecutor.lost`); None for local workers, or a task's own failure."""
        return self._dask.lost(exc) if self._dask is not None else None

    def _cluster(self) -> DaskExecutor:
        if self._dask is None:
            assert self.scheduler is not None
            self._dask = DaskExecutor(self.scheduler)
        return self._dask

    def executor(self, games: int) -> Executor:
        """Where the next ``games`` go: a fresh local pool once this one has had its share."""
        if self.scheduler:
            return self._cluster().executor
        if self._pool is None or self._given >= WORKER_LIFE * self.workers:
            if self._pool is not None:
                self._pool.shutdown(wait=False)  # its running games still finish
            self._pool, self._given = local_pool(self.workers), 0
        self._given += games
        return self._pool

    def discard(self) -> None:
        """A worker died: drop the pool without waiting for its games; the next games start
        a fresh one. The broken pool's manager thread, which closes the pool's pipes as it
        ends, is given a moment to end: the interpreter's exit would otherwise race it and
        print a traceback ("Exception ignored ... Bad file descriptor", Python 3.11)."""
        if self._pool is not None:
            manager = getattr(self._pool, "_executor_manager_thread", None)  # (private)
            self._pool.shutdown(wait=False, cancel_futures=True)
            if manager is not None:
                manager.join(timeout=MANAGER_WAIT)
            self._pool = None

    def close(self, *, at_once: bool = False) -> None:
        """Stop the workers once their running games are done (those not started are not);
        ``at_once``: now, whatever they are playing (after an interrupt: it is not wanted).
        Games handed out later start new workers."""
        if self._pool is not None:
            stop_pool(self._pool, 0.0 if at_once else None)
            self._pool = None
        if self._dask is not None:
            self._dask.close()
            self._dask = None


def _run(
    matchup: Matchup,
    jobs: Iterator[Job],
    pool: Workers | None,
    progress: Progress,
    notices: list[str],
    flight: InFlight | None = None,
    kept: str = "the games that finished are stored",
) -> Generator[GameOutcome, None, None]:
    """Yield finished games as they come from ``pool``'s workers (None: this process).

    A pool whose worker died is restarted and its unfinished games re-queued. Closing
    this generator (an early stop, Ctrl-C) cancels the games not yet started. Tasks are
    handed in two for each game that can run at once, and one more (so a worker never
    waits for its next): on a Dask cluster, as many as its threads at the last count, so
    workers that join during the run are kept busy. A lost connection to the scheduler
    raises SchedulerLost, not the failure of a game. ``flight`` is kept up to date with
    the tasks running and the games of a task not yet given: what an interrupt can still
    store (the tasks that could not be cancelled are left in it). ``kept`` is what a
    failure says of the games that finished (with no store: nothing was stored).
    """
    flight = flight if flight is not None else InFlight()
    retry: list[Job] = []  # re-queued after a worker died, lowest game first
    restarts = 0  # in a row: with no game come back since the one before
    finished_games = 0
    finished_then = 0  # games come back by the last restart
    limit = 3
    counted_at = -RECOUNT  # when the pool's slots were last counted
    told_at: float | None = None  # when the run last said the cluster has no workers
    in_process = InProcess()
    # Handing a task in is held for workers only: a game played here is no task to lose (a
    # Ctrl-C stops it at once). Taking a task's games back is held here too: the games played
    # here also wait in ``running`` until taken back, and a game dropped between the two would
    # be lost while later ones were stored (games kept that are not the first ones, and
    # counted as if they were)
    hand_in = interrupts_held if pool is not None else nullcontext
    code = code_version()  # each task checks its worker plays with the same

    def count_slots() -> None:
        """Count the pool's slots again (every RECOUNT seconds at most); say so if a
        cluster has no workers (at once, and again every NO_WORKERS_AGAIN seconds)."""
        nonlocal limit, counted_at, told_at
        now = monotonic()
        if pool is None or now - counted_at < RECOUNT:
            return
        slots, counted_at = pool.slots(), now
        limit = 2 * max(1, slots) + 1
        if slots > 0:
            told_at = None
        elif told_at is None or now - told_at >= NO_WORKERS_AGAIN:
            told_at = now
            progress.on_notice(
                f"the Dask scheduler at {pool.scheduler} has no workers: waiting for some "
                "to join (Ctrl-C stops the run)"
            )

    def lost(exc: BaseException) -> SchedulerLost | None:
        return pool.lost(exc) if pool is not None else None

    def next_job() -> Job | None:
        return retry.pop(0) if retry else next(jobs, None)

    job = next_job()
    while job is not None:
        running = flight.running  # (empty: a restart re-queues what it held)
        broken = False
        try:
            while job is not None or running:
                count_slots()
                while job is not None and len(running) < limit:
                    executor = pool.executor(len(job)) if pool else in_process
                    try:
                        with hand_in():
                            future = executor.submit(play_batch, matchup, job, code)
                            running[future] = job
                    except BrokenProcessPool:  # a worker died since games last came back
                        broken = True
                        break
                    except Exception as exc:  # (a Dask client that lost its scheduler)
                        gone = lost(exc)
                        if gone is None:
                            raise
                        raise gone from None
                    job = next_job()
                finished, _ = wait(list(running), timeout=WAKE, return_when=FIRST_COMPLETED)
                if not finished and not broken:  # nothing for a while: the clock moves on
                    progress.on_wait()
                    continue
                failure: SimulationError | None = None
                for future in sorted(finished, key=lambda f: running[f][0][0]):
                    # (a task's games leave ``running`` for ``flight.games`` in one step, so
                    # that an interrupt finds them in one or the other)
                    with interrupts_held():
                        done_job = running.pop(future)
                        try:
                            outcomes = future.result()
                        except BrokenProcessPool:
                            retry.append(done_job)
                            broken = True
                            continue
                        except OtherCode as exc:  # not this code: none of its games is kept
                            raise _other_code(exc, finished_games, kept) from None
                        except BatchFailed as exc:  # the games it finished are stored first
                            outcomes = exc.finished
                            failure = failure or _game_failed(
                                matchup, exc.index, exc.seed, exc.error, kept, endless=exc.endless
                            )
                        except Exception as exc:  # not a game's own error (the task itself)
                            gone = lost(exc)
                            if gone is not None:  # no game's fault: the cluster went away
                                raise gone from None
                            if isinstance(exc, TypeError) and "play_batch()" in str(exc):
                                # a worker's kriegsspiel from before tasks carried their code
                                older = OtherCode("of an older version", code)
                                raise _other_code(older, finished_games, kept) from None
                            index, seed = done_job[0]
                            error = f"{type(exc).__name__}: {exc}"
                            failure = failure or _game_failed(
                                matchup, index, seed, error, kept, batch=True
                            )
                            continue
                        finished_games += len(outcomes)
                        flight.games = list(outcomes)
                    while flight.games:  # (each given is dropped once the next is asked for)
                        yield flight.games[0]
                        del flight.games[0]
                if failure is not None:  # after every task that came back with it
                    raise failure
                if broken:
                    break
        except (KeyboardInterrupt, GeneratorExit):
            for future in list(running):
                if future.cancel():  # (not those a worker has, or is about to have)
                    del running[future]
            raise
        if broken:
            if pool is not None:
                pool.discard()
            if job is not None:
                retry.append(job)
            retry.extend(running.pop(f) for f in list(running))
            retry.sort(key=lambda j: j[0][0])
            job = next_job()
            if finished_games > finished_then:  # the run goes on between deaths (the OOM
                restarts = 0  # killer over a long run): only deaths in a row stop it
            finished_then = finished_games
            restarts += 1
            if restarts <= MAX_RESTARTS:
                text = (
                    "a worker process died; started new workers and re-queued "
                    f"its unfinished games (restart {restarts} of {MAX_RESTARTS})"
                )
                notices.append(text)
                progress.on_notice(text)
            else:
                hint = (
                    " No game finished: if a script of yours calls evaluate, put that call "
                    "under `if __name__ == '__main__':`, as new worker processes import it."
                    if finished_games == 0 and _from_a_script()
                    else ""
                )
                raise SimulationError(
                    f"worker processes died {restarts} times with no game coming back in "
                    f"between; {kept}. Check memory (dmesg) or "
                    f"run with {named('workers', 1)}.{hint}"
                )


# set while kriegsspiel's own command line runs an evaluation (commands.run_one)
COMMAND_LINE: ContextVar[bool] = ContextVar("kriegsspiel_command_line", default=False)


def _from_a_script() -> bool:
    """Was this run started by a script (a file run as ``__main__``, which workers started
    clean import again), not by kriegsspiel's command line, an interactive session or
    ``python -c``?"""
    main = sys.modules.get("__main__")
    return not COMMAND_LINE.get() and getattr(main, "__file__", None) is not None


def _other_code(exc: OtherCode, finished_games: int, kept: str) -> SimulationError:
    """The run's error for a worker whose code is not the run's."""
    kept = kept[0].upper() + kept[1:] if finished_games else "No game was played"
    return SimulationError(
        f"{exc}; its games would be stored as this code's, so none is. On a Dask cluster, "
        "install the same kriegsspiel on every worker as here (pip install 'kriegsspiel[dask]', "
        "or pip install -e '.[dask]' from a checkout, of the same source) and restart the workers: a running worker keeps the code it "
        "started with. On this machine, the installed files changed during the run. "
        f"{kept}; {AGAIN} once the code agrees."
    )


def _game_failed(
    matchup: Matchup,
    index: int,
    seed: int,
    error: str,
    kept: str,
    *,
    batch: bool = False,
    endless: bool = False,
) -> SimulationError:
    """The run's error for game ``index`` (with ``batch``: the first of a task that failed
    as a whole; ``endless``: a game that did not end, ``error`` saying so), with the
    command that plays that game again."""
    if endless:
        return SimulationError(
            f"game {index} was stopped: {error}; {kept}. Play it (its record keeps it as far "
            f"as it went) with: {matchup.play_command(seed, index % 2 == 1)}{matchup.play_note()}"
        )
    which = f"the task starting at game {index}" if batch else f"game {index}"
    return SimulationError(
        f"{which} failed ({error}); {kept}. "
        f"Reproduce it with: {matchup.play_command(seed, index % 2 == 1)}{matchup.play_note()}"
    )


def evaluation_json(result: Evaluation) -> dict[str, Any]:
    """The whole evaluation as one JSON-ready object (what ``--json`` prints)."""
    from kriegsspiel.sim.matchup import army_name, parsed

    m = result.matchup
    shown = m.names  # (with their files, where the two lists' names clash)
    scenario, *lists = parsed(m)
    body = result.tally.to_json()
    for game in body["surprising"]["games"]:
        game["command"] = m.play_command(game["seed"], game["swapped"])
    sides = scenario.sides()
    for by_side in (body["army_a_wins_by_side"], body["wins_by_side"]):
        for side, figures in zip(sides, by_side, strict=True):
            figures["side"] = side  # (each labelled: side A's deployment, then side B's)
    notices = list(result.notices)
    favoured = side_favoured(result.tally.side_wins, [f"the side deploying {s}" for s in sides])
    if favoured is not None:
        notices.insert(0, favoured)
    if lists[0].points != lists[1].points:  # (the report's first note, as the text has it)
        notices.insert(
            0, f"the lists are not of equal points ({lists[0].points} v {lists[1].points})."
        )
    return {
        "ruleset": m.ruleset,
        **rules_named(m.rules),  # a designer's rules file the games were played by
        "scenario": m.scenario.label,
        "deployment": m.deployment,  # the order each side's units set up in
        "victory": scenario.victory,  # what the scores count: units destroyed, objectives
        "sides": sides,  # side A's deployment, then side B's (army A on A: even games)
        "army_a": {
            "file": m.armies[0].label,
            "name": army_name(m.armies[0]),
            "shown_as": shown[0],  # the name, and its file where both lists share a name
            "points": lists[0].points,
            "player": m.players[0],
        },
        "army_b": {
            "file": m.armies[1].label,
            "name": army_name(m.armies[1]),
            "shown_as": shown[1],  # the name, and its file where both lists share a name
            "points": lists[1].points,
            "player": m.players[1],
        },
        "seed": result.run_seed,
        "games_requested": result.requested,
        "games_reused": result.reused,
        "games_played": result.played,
        "games_of_other_code": sum(result.other_code.values()),  # stored, never reused
        "other_code_versions": sorted(result.other_code),
        "stopped_early": result.stopped_early,
        "precision": result.precision,
        "precision_reached": (
            None
            if result.precision is None
            else within_precision(
                [result.tally.wins[o] for o in ("A", "draw", "B")], result.precision
            )
        ),
        "code_version": code_version(),
        "matchup": m.key,
        "notices": notices,
        **body,
        "units_note": figures_note(m.deployment),  # what a unit's figures owe to its place
        "damage_note": DAMAGE_LEFT_OUT,  # what its damage dealt does not count
    }
