"""Run an evaluation: many games of one matchup, stored as they finish, summed in game order.

Game ``i`` always gets the same seed (from ``numpy.random.SeedSequence(run_seed)``'s
``i``-th child) and odd games swap the armies' sides, so the result of a run does not
depend on how many workers played it, or where.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from kriegsspiel.errors import KriegsspielError
from kriegsspiel.sim.executors import DaskExecutor, InProcess, local_pool
from kriegsspiel.sim.matchup import Matchup
from kriegsspiel.sim.outcome import GameOutcome, play_batch
from kriegsspiel.sim.store import Store
from kriegsspiel.sim.tally import Tally

MAX_RESTARTS = 3
READ_BLOCK = 1000  # stored games read back at a time: memory stays flat on resume


class SimulationError(KriegsspielError):
    """A game failed, or the workers kept dying; finished games are kept."""


class Interrupted(KriegsspielError):
    """Ctrl-C: the games that finished are stored; the same command resumes."""


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run: its own stream, whatever else runs."""
    from numpy.random import SeedSequence

    return int(SeedSequence(run_seed, spawn_key=(index,)).generate_state(1)[0])


@dataclass(slots=True)
class Progress:
    """What a progress display needs: games known of the games wanted, and news."""

    on_game: Callable[[int, int], None] = lambda done, total: None
    on_notice: Callable[[str], None] = lambda text: None


@dataclass(slots=True)
class Evaluation:
    """The outcome of a run: the tally over its first ``tally.games`` games, in game order."""

    matchup: Matchup
    run_seed: int
    requested: int
    tally: Tally
    reused: int = 0  # games read back from the store instead of played
    played: int = 0
    stopped_early: bool = False
    precision: float | None = None
    notices: list[str] = field(default_factory=list)


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
) -> Evaluation:
    """Play (or read back) games ``0..games-1`` and tally them in order; stop early if asked."""
    progress = progress or Progress()
    result = Evaluation(matchup, run_seed, games, Tally(), precision=precision)
    stored: set[int] = set()
    if store is not None:
        store.register(matchup)
        stored = {i for i in store.indices(matchup, run_seed) if i < games}
    result.reused = len(stored)
    waiting: dict[int, GameOutcome] = {}  # finished out of order, until their turn to be tallied
    read_back: dict[int, GameOutcome] = {}  # stored games, read a block at a time

    def tally_ready() -> bool:
        """Add every game whose turn has come; True once the run can stop."""
        while result.tally.games < games:
            index = result.tally.games
            if index in stored and index not in read_back and store is not None:
                read_back.update(store.outcomes(matchup, run_seed, index, READ_BLOCK))
            outcome = read_back.pop(index, None) or waiting.pop(index, None)
            if outcome is None:
                return False
            result.tally.add(outcome)
            if precision is not None and result.tally.precise(precision):
                result.stopped_early = result.tally.games < games
                return True
        return True

    todo = [i for i in range(games) if i not in stored]
    done = len(stored)
    progress.on_game(done, games)
    if tally_ready():
        return _finish(result, progress)
    jobs = [
        tuple((i, game_seed(run_seed, i)) for i in chunk) for chunk in batches(todo, workers, batch)
    ]
    for outcome in _run(matchup, jobs, workers, scheduler, progress, result.notices):
        result.played += 1
        done += 1
        if store is not None:
            store.add(matchup, run_seed, outcome)
        waiting[outcome.index] = outcome
        progress.on_game(done, games)
        if tally_ready():
            break
    tally_ready()
    return _finish(result, progress)


def _finish(result: Evaluation, progress: Progress) -> Evaluation:
    if result.stopped_early:
        progress.on_notice(
            f"stopped early after {result.tally.games} games: every outcome is known to "
            f"± {result.precision} (95% Wilson interval)."
        )
    return result


def batches(games: list[int], workers: int, size: int | None = None) -> list[list[int]]:
    """The games cut into tasks, in order: ``size`` each if given, else shrinking ones.

    A task of several games pays for its messaging once; but the last tasks must be small, or
    one worker plays a long last batch while the others wait. So each task takes about a
    quarter of a worker's share of what is left (at most 8 games), down to single games.
    One worker in this process plays single games, so each is stored as soon as it ends.
    """
    chunks: list[list[int]] = []
    k = 0
    while k < len(games):
        left = len(games) - k
        step = size or (1 if workers <= 1 else max(1, min(8, left // (4 * workers))))
        chunks.append(games[k : k + step])
        k += step
    return chunks


Job = tuple[tuple[int, int], ...]


def _run(
    matchup: Matchup,
    jobs: list[Job],
    workers: int,
    scheduler: str | None,
    progress: Progress,
    notices: list[str],
) -> Iterator[GameOutcome]:
    """Yield finished games as they come; restart a local pool whose worker died."""
    queue = list(reversed(jobs))
    restarts = 0
    finished_games = 0
    dask = DaskExecutor(scheduler) if scheduler else None
    try:
        while queue:
            executor: Executor = (
                dask.executor if dask else (InProcess() if workers <= 1 else local_pool(workers))
            )
            limit = 2 * (dask.workers() if dask else workers) + 1
            running: dict[Future[list[GameOutcome]], Job] = {}
            broken = False
            try:
                while queue or running:
                    while queue and len(running) < limit:
                        job = queue.pop()
                        running[executor.submit(play_batch, matchup, job)] = job
                    finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
                    for future in sorted(finished, key=lambda f: running[f][0][0]):
                        job = running.pop(future)
                        try:
                            outcomes = future.result()
                        except BrokenProcessPool:
                            queue.append(job)
                            broken = True
                            continue
                        except Exception as exc:
                            raise _game_failed(matchup, job, exc) from exc
                        finished_games += len(outcomes)
                        yield from outcomes
                    if broken:
                        break
            except (KeyboardInterrupt, GeneratorExit):
                for future in running:
                    future.cancel()
                raise
            finally:
                if executor is not (dask.executor if dask else None):
                    executor.shutdown(wait=not broken, cancel_futures=True)
            if broken:
                queue.extend(reversed([running.pop(f) for f in list(running)]))
                queue.sort(key=lambda j: -j[0][0])
                restarts += 1
                text = (
                    "a worker process died; started new workers and re-queued "
                    f"its unfinished games (restart {restarts} of {MAX_RESTARTS})"
                )
                notices.append(text)
                progress.on_notice(text)
                if restarts > MAX_RESTARTS:
                    hint = (
                        " No game finished: if a script of yours calls evaluate, put that call "
                        "under `if __name__ == '__main__':`, as new worker processes import it."
                        if finished_games == 0
                        else ""
                    )
                    raise SimulationError(
                        f"worker processes died {restarts} times; the games that finished are "
                        f"stored. Check memory (dmesg) or run with --workers 1.{hint}"
                    )
    finally:
        if dask is not None:
            dask.close()


def _game_failed(matchup: Matchup, job: Job, exc: BaseException) -> SimulationError:
    index, seed = job[0]
    return SimulationError(
        f"a game failed ({type(exc).__name__}: {exc}) in the batch starting at game {index}; "
        f"finished games are stored. Reproduce it with: {matchup.play_command(seed, index % 2 == 1)}"
    )


def evaluation_json(result: Evaluation) -> dict[str, Any]:
    """The whole evaluation as one JSON-ready object (what ``--json`` prints)."""
    from kriegsspiel.sim.matchup import army_name
    from kriegsspiel.sim.store import code_version

    m = result.matchup
    body = result.tally.to_json()
    for game in body["surprising"]["games"]:
        game["command"] = m.play_command(game["seed"], game["swapped"])
    return {
        "ruleset": m.ruleset,
        "scenario": m.scenario.label,
        "army_a": {
            "file": m.armies[0].label,
            "name": army_name(m.armies[0]),
            "player": m.players[0],
        },
        "army_b": {
            "file": m.armies[1].label,
            "name": army_name(m.armies[1]),
            "player": m.players[1],
        },
        "seed": result.run_seed,
        "games_requested": result.requested,
        "games_reused": result.reused,
        "games_played": result.played,
        "stopped_early": result.stopped_early,
        "precision": result.precision,
        "code_version": code_version(),
        "matchup": m.key,
        "notices": result.notices,
        **body,
    }
