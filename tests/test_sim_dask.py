"""Reaching a Dask scheduler (``--scheduler``): what is refused before connecting, what
answers at the address, and how games are cut into tasks for a cluster. Fakes stand in for
what listens there: a socket that stays silent (a web server: the dashboard's port), one
that writes something else first (SSH), one that begins like Dask and then talks nonsense.
"""

from __future__ import annotations

import os
import pickle
import re
import shutil
import socket
import struct
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import PATROLS_RANDOM, SIM_DATA, in_a_fresh_process, run_cli

import kriegsspiel.sim.cluster as cluster
import kriegsspiel.sim.runner as runner
from kriegsspiel.errors import UsageError
from kriegsspiel.sim.cluster import checked_address
from kriegsspiel.sim.executors import InProcess
from kriegsspiel.sim.matchup import build_matchup
from kriegsspiel.sim.outcome import play_batch
from kriegsspiel.sim.runner import evaluate


@contextmanager
def listening(greeting: bytes | None) -> Iterator[str]:
    """A tcp:// address where a fake service accepts connections and writes ``greeting``
    to each (None: closes it at once; b"": stays silent, holding it open)."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:  # closed: the test is over
                return
            if greeting is None:
                conn.close()
                continue
            held.append(conn)
            if greeting:
                conn.sendall(greeting)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.shutdown(socket.SHUT_RDWR)  # (wakes the thread waiting in accept)
        server.close()
        for conn in held:
            conn.close()
        thread.join(timeout=5)


def connect_within(address: str, seconds: float) -> BaseException | None:
    """What connecting to ``address`` raised, given ``seconds`` (a hang fails the test)."""
    raised: list[BaseException | None] = []

    def connect() -> None:
        try:
            cluster.DaskExecutor(address).close()
            raised.append(None)
        except BaseException as exc:
            raised.append(exc)

    thread = threading.Thread(target=connect, daemon=True)
    thread.start()
    thread.join(timeout=seconds)
    assert raised, f"connecting to {address} still waits after {seconds} s"
    return raised[0]


def test_a_silent_service_at_the_address_is_told_from_a_scheduler(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "0.5s")
    waits: list[float] = []  # (the probe waits this long for a scheduler's first word)
    probe = cluster.probe

    def timed_probe(address: str, timeout: float) -> None:
        waits.append(timeout)
        probe(address, timeout)

    monkeypatch.setattr(cluster, "probe", timed_probe)
    with listening(b"") as address:
        raised = connect_within(address, 60)
    assert isinstance(raised, UsageError), raised
    assert waits == [0.5]  # the connection's timeout, not Dask's wait for good
    assert f"cannot reach a Dask scheduler at {address!r}" in str(raised)
    assert "something answered there, but not as a Dask scheduler" in str(raised)
    assert "is it the dashboard's port?" in str(raised)
    assert "tls://, and one started with --protocol ws on ws://" in str(raised)  # (its own port)


@pytest.mark.parametrize(
    ("greeting", "said"),
    [
        (b"SSH-2.0-OpenSSH_9.6\r\n", "not as a Dask scheduler"),  # read as exabytes by Dask
        (None, "not as a Dask scheduler"),  # closes at once
        # the size of a message, as Dask begins, then nonsense: Dask's own handshake fails
        (struct.pack("Q", 16) + b"0123456789abcdef", "the connection failed"),
    ],
    ids=["writes-otherwise", "closes", "nonsense-after-a-size"],
)
def test_a_service_other_than_a_scheduler_is_one_clear_line_at_once(
    tmp_path: Path, greeting: bytes | None, said: str
) -> None:
    pytest.importorskip("distributed")
    with listening(greeting) as address:
        start = time.monotonic()
        done = run_cli("evaluate", *PATROLS_RANDOM, "--games", "2", "--no-store",
                       "--scheduler", address, cwd=tmp_path, timeout=60)  # fmt: skip
        took = time.monotonic() - start
    assert done.returncode == 2, done.stderr
    assert f"cannot reach a Dask scheduler at {address!r}" in done.stderr
    assert said in done.stderr
    # no traceback, and no half-made client closed as the process ends (20 s and a traceback)
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    assert took < 20, took  # (a half-made client closed at the end alone waits 20 s)


def test_nothing_listening_is_told_as_such(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "0.3s")
    with listening(None) as address:
        pass  # (closed: nothing listens there now)
    raised = connect_within(address, 10)
    assert isinstance(raised, UsageError)
    assert "nothing listens there (connection refused" in str(raised)


def test_a_tls_address_without_dasks_tls_settings_is_refused_in_those_words() -> None:
    pytest.importorskip("distributed")
    for address in ("tls://127.0.0.1:8786", "wss://127.0.0.1:8786"):
        with pytest.raises(UsageError, match="needs Dask's TLS settings") as raised:
            cluster.DaskExecutor(address)
        assert "security configuration" in str(raised.value)
        assert "not configured" in str(raised.value)


def test_a_tls_address_with_dasks_tls_settings_goes_on_to_connect(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """TLS configured for Dask (here a certificate of its own): not refused for want of it."""
    pytest.importorskip("distributed")
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "0.3s")
    import dask

    if shutil.which("openssl") is None:
        pytest.skip("needs openssl to make a certificate")
    cert, key = tmp_path / "c.pem", tmp_path / "k.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=dask", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    tls = {"ca-file": cert, "client.cert": cert, "client.key": key}
    with dask.config.set({f"distributed.comm.tls.{k}": str(v) for k, v in tls.items()}):
        cluster.tls_settings("tls://127.0.0.1:8786")  # (no error)
        with listening(None) as address:
            pass  # (closed: nothing listens there now)
        with pytest.raises(UsageError, match="nothing listens there"):
            cluster.DaskExecutor(address.replace("tcp://", "tls://"))


@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("tcp://127.0.0.1:8786/", "has a trailing slash"),
        ("127.0.0.1:8786/", "has a trailing slash"),
        ("tcp://127.0.0.1:8786/status", "has '/status' after its port"),
        ("tcp://127.0.0.1:8786?x=1", "has '?x=1' after its port"),
        ("tcp://me@127.0.0.1:8786", "has a user name before its host"),
        ("inproc://10.0.0.5/1234/1", "is an in-process address"),
        ("http://127.0.0.1:8787", "Dask listens on tcp://"),
        ("tcp://127.0.0.1:0", "give its host and port"),
    ],
)
def test_an_address_no_command_can_use_is_refused_saying_what_would_do(
    address: str, said: str
) -> None:
    with pytest.raises(UsageError) as raised:
        checked_address(address, command_line=True)
    assert said in str(raised.value)
    assert "tcp://" in str(raised.value)  # (what would do)
    if "8786" in address and "@" not in address:
        assert str(raised.value).endswith(" tcp://127.0.0.1:8786.")


def test_an_in_process_address_is_taken_from_python() -> None:
    assert checked_address("inproc://10.0.0.5/1234/1") == "inproc://10.0.0.5/1234/1"


class _Cluster(runner.Workers):
    """A cluster of ``SLOTS`` workers, its games played in this process."""

    SLOTS = 2

    def slots(self) -> int:
        return self.SLOTS

    def executor(self, games: int) -> Any:
        return InProcess()

    def close(self) -> None:
        pass


def test_tasks_for_a_cluster_are_cut_for_its_workers_not_this_machines_cores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    matchup = build_matchup(
        "konflikt47",
        str(SIM_DATA / "skirmish.yaml"),
        [str(SIM_DATA / "patrol-a.yaml"), str(SIM_DATA / "patrol-b.yaml")],
        "random,random",
    )
    tasks: list[int] = []

    def recorded(m: Any, jobs: tuple[tuple[int, int], ...], code: str | None = None) -> Any:
        tasks.append(len(jobs))
        return play_batch(m, jobs, code)

    monkeypatch.setattr(runner, "Workers", _Cluster)
    monkeypatch.setattr(runner, "play_batch", recorded)
    # asked with one local worker (as a one-core client would): the cluster's two count
    remote = evaluate(matchup, 16, 3, workers=1, scheduler="tcp://10.0.0.5:8786")
    assert tasks[0] == 16 // (4 * _Cluster.SLOTS) and sum(tasks) == 16
    tasks.clear()
    monkeypatch.setattr(_Cluster, "SLOTS", 1)  # (a client of two cores, a cluster of one)
    again = evaluate(matchup, 16, 3, workers=2, scheduler="tcp://10.0.0.5:8786")
    assert tasks == [1] * 16
    local = evaluate(matchup, 16, 3, workers=1)
    assert remote.tally.to_json() == again.tally.to_json() == local.tally.to_json()


def test_a_matchup_takes_its_files_text_to_the_workers(tmp_path: Path) -> None:
    """A task carries the lists' and the scenario's text: a worker need not have the files."""
    for name in ("skirmish.yaml", "patrol-a.yaml", "patrol-b.yaml"):
        shutil.copy(SIM_DATA / name, tmp_path / name)
    matchup = build_matchup(
        "konflikt47",
        str(tmp_path / "skirmish.yaml"),
        [str(tmp_path / "patrol-a.yaml"), str(tmp_path / "patrol-b.yaml")],
        "random,random",
    )
    sent = pickle.dumps(matchup)
    shutil.rmtree(tmp_path)
    jobs = ((0, 5), (1, 6))
    # played by a fresh interpreter (nothing read or cached), from the task as sent
    assert in_a_fresh_process(play_batch, pickle.loads(sent), jobs) == play_batch(matchup, jobs)


def test_a_worker_with_other_code_is_refused_and_stores_none_of_its_games(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A task carries its run's code version; a worker whose code differs (another
    kriegsspiel on a Dask worker, or files changed under a run) plays none of it, and the
    run says why, keeping the games that finished before."""
    import kriegsspiel.sim.outcome as outcome
    from kriegsspiel.sim.runner import SimulationError
    from kriegsspiel.sim.store import Store

    matchup = build_matchup(
        "konflikt47",
        str(SIM_DATA / "skirmish.yaml"),
        [str(SIM_DATA / "patrol-a.yaml"), str(SIM_DATA / "patrol-b.yaml")],
        "random,random",
    )
    real = outcome.code_version()
    told = f"plays with kriegsspiel {real}, this run with 0.0.1+000000000000"
    with pytest.raises(outcome.OtherCode, match=re.escape(told)):
        play_batch(matchup, ((0, 1),), "0.0.1+000000000000")
    calls = iter(range(100))

    def drifting() -> str:  # the worker's code changes after its first two tasks
        return real if next(calls) < 2 else "0.2.1+111111111111"

    monkeypatch.setattr(outcome, "code_version", drifting)
    with Store(tmp_path / "r.sqlite") as store, pytest.raises(SimulationError) as told:
        evaluate(matchup, 6, 1, store=store, batch=1)
    said = str(told.value)
    assert f"(on {socket.gethostname()}, process {os.getpid()}) plays with kriegsspiel " in said
    assert "0.2.1+111111111111, this run with " + real in said
    assert "install the same kriegsspiel on every worker" in said and "restart the" in said
    assert "The games that finished are stored" in said
    # how to go on, in the caller's words (a Python caller makes no command)
    assert said.endswith("; make the same call again once the code agrees.")
    from kriegsspiel.cli import _told

    assert _told(told.value).endswith("; run the same command again once the code agrees.")
    with Store(tmp_path / "r.sqlite") as store:
        assert store.count(matchup, 1, 6) == 2  # (the two games of the same code)


def test_a_worker_of_a_version_before_the_code_check_is_told_as_other_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker whose play_batch takes no code version (a kriegsspiel from before tasks
    carried one) fails the task with a TypeError; the run says it is other code, not that a
    game failed with a command to reproduce it."""
    from kriegsspiel.sim.runner import SimulationError

    matchup = build_matchup(
        "konflikt47",
        str(SIM_DATA / "skirmish.yaml"),
        [str(SIM_DATA / "patrol-a.yaml"), str(SIM_DATA / "patrol-b.yaml")],
        "random,random",
    )

    def play_batch(m: Any, jobs: tuple[tuple[int, int], ...]) -> Any:  # (the old signature)
        raise AssertionError("never called with the run's code")

    monkeypatch.setattr(runner, "play_batch", play_batch)
    with pytest.raises(SimulationError) as told:
        evaluate(matchup, 4, 1, batch=1)
    said = str(told.value)
    assert said.startswith("a worker plays with kriegsspiel of an older version, this run with ")
    assert "No game was played" in said and "Reproduce it with" not in said
