"""Where games run: this process or local worker processes (a Dask cluster: cluster.py).

Every choice is a ``concurrent.futures.Executor``; Dask's is reached through its
``Client.get_executor()``, so the runner has one code path for all of them.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from types import FrameType
from typing import Any

# Python's cycle collector, as games are played: a full collection scans every object the
# engine keeps (its capped caches of exact odds hold ~200k) and found next to nothing, about
# one game in four. A tenth as many full collections (700, 10, 100 instead of 700, 10, 10)
# made tactical games ~10% faster (K47 172 -> 154 ms, BA1 206-221 -> 190 ms a warm game)
# with the same resident memory; young cycles are still collected as often as before.
GC_THRESHOLDS = (700, 10, 100)


@contextmanager
def games_collector() -> Iterator[None]:
    """Full cycle collections made rarer while games are played here, then as they were."""
    before = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


_STOPS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM that come while the block runs take effect as it ends; a second
    one takes effect at once (whatever the block is stuck on, Ctrl-C twice still stops it).

    Handing a task to the workers and noting it as running is one step: an interrupt
    between the two (a pool starting a worker can take a while in ``submit``) would leave a
    task the workers play whose games nobody stores. Only the main thread receives
    signals, so elsewhere the block runs as it is; a handler not set from Python (None) is
    left alone."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[tuple[int, FrameType | None]] = []
    before = {sig: signal.getsignal(sig) for sig in _STOPS}
    held = [sig for sig, handler in before.items() if handler is not None]

    def restore() -> None:
        for sig in held:
            signal.signal(sig, before[sig])

    def hold(signum: int, frame: FrameType | None) -> None:
        caught.append((signum, frame))
        if len(caught) == 2:
            restore()
            _deliver(before[signal.Signals(signum)], signum, frame)

    for sig in held:
        signal.signal(sig, hold)
    try:
        yield
    finally:
        restore()
        if len(caught) == 1:
            signum, frame = caught[0]
            _deliver(before[signal.Signals(signum)], signum, frame)


def _deliver(handler: object, signum: int, frame: FrameType | None) -> None:
    """What ``handler`` (as ``signal.getsignal`` gives it) would have done with the signal."""
    if callable(handler):
        handler(signum, frame)  # (Python's own raises KeyboardInterrupt)
    elif handler == signal.SIG_DFL:
        signal.raise_signal(signum)  # (its default: the process ends)


class InProcess(Executor):
    """Runs each task at ``submit``: one worker without the cost of another process."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            with games_collector():
                future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            future.set_exception(exc)
        return future


def _start_worker(run: int) -> None:
    """Workers leave Ctrl-C and SIGTERM to the parent (a terminal's Ctrl-C, and a batch
    system's or ``kill``'s SIGTERM to the process group, reach them too), which stores the
    games they finish and stops them; they end with the ``run``'s process however it ends;
    they only play games, so their cycle collector is set for that."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    end_with(run)
    gc.set_threshold(*GC_THRESHOLDS)


RUN_POLL = 1.0  # seconds between looks at the run's process where the system cannot wait on it


def end_with(run: int) -> None:
    """End this process when process ``run`` ends, however it ends (SIGKILL, the OOM
    killer): a worker outliving its run would wait on its task queue for good, its copy of
    the results store open.

    A daemon thread waits for that process, woken as it ends on Linux (a pidfd), looking
    every ``RUN_POLL`` seconds elsewhere; nothing is done on Windows. (The kernel's
    PR_SET_PDEATHSIG would not do: it watches the parent, and a worker started clean is the
    fork server's child, which outlives the run while any worker holds the server's pipe.)
    """
    if sys.platform == "win32":
        return
    pidfd: int | None = None
    if sys.platform == "linux":
        try:
            pidfd = os.pidfd_open(run)
        except ProcessLookupError:
            os._exit(1)  # the run ended before this worker started
        except OSError:  # before Linux 5.3: looked at instead
            pidfd = None
    threading.Thread(
        target=_wait_for_end, args=(run, pidfd), name="end-with-the-run", daemon=True
    ).start()


def _wait_for_end(run: int, pidfd: int | None) -> None:
    """Wait until process ``run`` (or its ``pidfd``) has ended, then end this process."""
    if pidfd is not None:
        poller = select.poll()
        poller.register(pidfd, select.POLLIN)
        while not poller.poll():  # (readable once the process has ended)
            pass
    else:
        while _alive(run):
            time.sleep(RUN_POLL)
    os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # there, but another user's (not the run's, then)
        return False
    return True


STOP_WAIT = 30.0  # seconds a closing pool's running games get before its workers are ended
STOP_GRACE = 0.5  # seconds idle workers get to stop of themselves when stopped at once


def stop_pool(pool: Executor, wait: float | None = None) -> None:
    """Stop a pool once its running games are done (games not started are cancelled); a
    worker still busy after ``wait`` seconds (``STOP_WAIT`` if not given), or stuck, is
    ended (killed: workers ignore SIGTERM). With ``wait`` 0 a worker still busy is ended at
    once (after ``STOP_GRACE``): what it plays is not wanted. (Waiting on the executor
    alone can hang for good after a Ctrl-C: an idle worker blocked on the task queue never
    receives its call to stop.)"""
    # the pool's own processes (a private attribute of ProcessPoolExecutor: where it is
    # missing, this falls back to the executor's own wait)
    workers = list((getattr(pool, "_processes", None) or {}).values())
    if not workers:
        pool.shutdown(wait=True, cancel_futures=True)
        return
    pool.shutdown(wait=False, cancel_futures=True)
    # (even at once, idle workers get a moment to take their call to stop: the pool has
    # then let go of the games it cancelled, which Python 3.11 fails on if a worker it
    # still counts on is killed: InvalidStateError)
    deadline = time.monotonic() + max(STOP_GRACE, STOP_WAIT if wait is None else wait)
    for worker in workers:
        worker.join(timeout=max(0.0, deadline - time.monotonic()))
    for worker in workers:
        if worker.is_alive():
            worker.kill()
            worker.join(timeout=5)


def local_pool(workers: int) -> ProcessPoolExecutor:
    """Worker processes for games, forked from this one when that is safe, else started clean."""
    method = start_method()
    if method == "forkserver":
        _start_fork_server()
    return ProcessPoolExecutor(
        workers, mp_context=_CONTEXTS[method], initializer=_start_worker, initargs=(os.getpid(),)
    )


def _kill(process: BaseProcess) -> None:
    process.kill()


def _ended_by_kill(method: str) -> BaseContext:
    """A start method's context whose processes ``terminate()`` with SIGKILL: workers ignore
    SIGTERM, which is how ProcessPoolExecutor ends the others when one of them dies."""
    base = multiprocessing.get_context(method)
    name = f"{method.title().replace('server', 'Server')}Worker"
    # (a module-level name: a process started by the fork server is sent there pickled)
    process: type[BaseProcess] = base.Process  # type: ignore[attr-defined]
    worker = type(name, (process,), {"terminate": _kill, "__module__": __name__})
    globals()[name] = worker
    context: type[BaseContext] = type(f"{name}Context", (type(base),), {"Process": worker})
    return context()


_CONTEXTS = {method: _ended_by_kill(method) for method in multiprocessing.get_all_start_methods()}


def _start_fork_server() -> None:
    """Start the fork server, if it is not running, with SIGTERM blocked in this thread:
    the server keeps that block (a signal mask is kept across exec; CPython starts its
    resource tracker so), so a SIGTERM to the process group cannot end it and have the
    workers it started taken for dead, their games lost. A SIGTERM to this process
    meanwhile is not dropped: it waits for the block to end, or another thread takes it."""
    from multiprocessing import forkserver, resource_tracker

    resource_tracker.ensure_running()  # (first: starting it unblocks SIGTERM after itself)
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def start_method() -> str:
    """How worker processes start: ``fork`` on Linux while this process runs a single thread.

    A forked worker begins where its parent is, with the engine imported, the matchup's
    files read and whatever exact odds the parent has already worked out; a worker started
    clean spends ~0.4 s of a ~7 s run of 100 games importing and reading them first. Forking
    a process that runs other threads can copy a lock another thread holds (a deadlock
    waiting to happen), so once there is a second thread (a progress display that refreshes
    itself, a Dask client, a pool already running) workers start clean from the fork server;
    elsewhere than Linux they always do (macOS system libraries are not safe to fork).
    """
    methods = multiprocessing.get_all_start_methods()
    if sys.platform == "linux" and "fork" in methods and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"
