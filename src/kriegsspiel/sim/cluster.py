"""A Dask distributed cluster to play on: its address checked, its scheduler probed before
a client is made, Dask's logs kept quiet while a run holds its client, and a lost
connection told as such. Every use of Dask's API is here."""

from __future__ import annotations

import logging
import socket
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError, Executor
from contextlib import contextmanager, suppress
from typing import Any
from urllib.parse import urlsplit

from kriegsspiel.errors import UsageError

CONNECT_TIMEOUT = "10s"  # how long to wait for a Dask scheduler before giving up

SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")  # what a scheduler listens on, as Dask prints it


def checked_address(address: str, *, command_line: bool = False) -> str:
    """``address`` if it names a scheduler as Dask prints one (``tcp://host:port``; a bare
    ``host:port`` means tcp), else a UsageError saying what would; asked before connecting,
    since a failed connection leaves Dask retrying in the background. An ``inproc://``
    address (a cluster inside one Python process) is refused on the ``command_line``."""
    example = "e.g. tcp://10.0.0.5:8786"
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme == "inproc":
        if command_line:
            raise UsageError(
                f"--scheduler {address!r} is an in-process address: it names a cluster "
                "inside one Python process (a LocalCluster without processes), which no "
                "command can reach; give the address of a running 'dask scheduler', "
                f"{example}."
            )
        return address
    if parts.scheme not in SCHEMES:
        raise UsageError(
            f"--scheduler {address!r} is not a scheduler's address: Dask listens on "
            f"{', '.join(f'{s}://' for s in SCHEMES)}, not {parts.scheme}://; give the "
            f"address the scheduler prints, {example}."
        )
    try:
        port = parts.port
    except ValueError:
        port = None
    if not parts.hostname or port is None or port == 0:
        raise UsageError(
            f"--scheduler {address!r} is not a scheduler's address: give its host and port "
            f"as the scheduler prints them, {example}."
        )
    if parts.path or parts.query or parts.fragment or "@" in parts.netloc:
        right = f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}"
        extra = address[address.index(parts.netloc) + len(parts.netloc) :]
        what = (
            "a trailing slash"
            if extra == "/"
            else f"{extra!r} after its port"
            if extra
            else "a user name before its host"
        )
        raise UsageError(
            f"--scheduler {address!r} has {what}: a scheduler's address is its host and "
            f"port and nothing more; give {right}."
        )
    return address


PROBE_RETRY = 0.2  # seconds between tries while nothing listens (a scheduler still starting)
NOT_DASK = (
    "something answered there, but not as a Dask scheduler (is it the dashboard's port? a "
    "scheduler listens on 8786 unless told otherwise; one started with TLS is reached on "
    "tls://, and one started with --protocol ws on ws://)"
)


def probe(address: str, timeout: float) -> None:
    """Say plainly, within about ``timeout`` seconds, why no Dask scheduler answers at
    ``address`` (a UsageError), before a Dask client tries: its handshake waits for good
    on a port where something else listens and stays silent (a web server: the
    dashboard's port), and a service that writes first (SSH, say) has its greeting read
    as the length of a message of exabytes.

    A connection refused is tried again until ``timeout`` (a scheduler may be starting).
    Over tcp://, a Dask scheduler writes first on a new connection (its handshake, which
    begins, as every message of Dask's TCP comms, with the message's size as 8 bytes);
    so something that stays silent, closes, or begins otherwise is not one. Over TLS and
    websockets the client speaks first: only the connection is tried."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    host, port = parts.hostname, parts.port
    where = f"cannot reach a Dask scheduler at {address!r}"
    deadline = time.monotonic() + timeout
    while True:
        try:
            sock = socket.create_connection(
                (host, port), timeout=max(0.1, deadline - time.monotonic())
            )
            break
        except socket.gaierror as exc:
            raise UsageError(f"{where}: no host {host!r} is known ({exc.strerror}).") from None
        except ConnectionRefusedError:
            if time.monotonic() + PROBE_RETRY > deadline:
                raise UsageError(
                    f"{where}: nothing listens there (connection refused for {timeout:g} s); "
                    "is the scheduler running, and is that the port it printed?"
                ) from None
            time.sleep(PROBE_RETRY)
        except TimeoutError:
            raise UsageError(
                f"{where}: no answer from {host} within {timeout:g} s (is the host up, and "
                "does a firewall let the port through?)."
            ) from None
        except OSError as exc:
            raise UsageError(f"{where}: {exc.strerror or exc}.") from None
    with sock:
        if parts.scheme != "tcp":
            return
        first = b""
        # (a connection that took its time still gets a fair wait for the greeting)
        sock.settimeout(max(deadline - time.monotonic(), timeout / 4))
        while len(first) < 8:
            try:
                chunk = sock.recv(8 - len(first))
            except OSError:  # silent until the wait ran out, or the connection reset
                break
            if not chunk:  # closed
                break
            first += chunk
    size = int.from_bytes(first, sys.byteorder) if len(first) == 8 else 0
    if not 0 < size < 2**26:  # (a handshake is a few hundred bytes)
        raise UsageError(f"{where}: {NOT_DASK}.")


def tls_settings(address: str) -> None:
    """Refuse a TLS address (tls://, wss://) when Dask's configuration gives no TLS
    settings for a client: Dask would fail with a TypeError, saying nothing of them."""
    scheme = address.partition("://")[0] if "://" in address else "tcp"
    if scheme not in ("tls", "wss"):
        return
    from distributed.security import Security

    try:
        context = Security().get_connection_args("client").get("ssl_context")
    except Exception as exc:  # a certificate that cannot be read, say
        raise UsageError(
            f"--scheduler {address!r} is a TLS address, and Dask's TLS settings (its "
            f"security configuration) cannot be used: {type(exc).__name__}: {exc}"
        ) from None
    if context is None:
        raise UsageError(
            f"--scheduler {address!r} is a TLS address, which needs Dask's TLS settings "
            "(its security configuration: distributed.comm.tls.ca-file, client.cert and "
            "client.key, e.g. in ~/.config/dask/distributed.yaml), and they are not "
            "configured; configure them, or give the scheduler's tcp:// address if it "
            "listens without TLS."
        )


class SchedulerLost(Exception):
    """The connection to the Dask scheduler is gone (the scheduler stopped, or the network
    between it and this process): no game failed; the run cannot go on."""

    def __init__(self, address: str, reason: str) -> None:
        super().__init__(address, reason)
        self.address, self.reason = address, reason

    def __str__(self) -> str:
        return f"lost the connection to the Dask scheduler at {self.address} ({self.reason})"


# Dask's own loggers, quiet while a run holds its client: a scheduler that goes away makes
# the client log its reconnection attempts and the tracebacks of its closing, which the
# run's own message says better ("lost the connection ..."); they are as before once it ends
DASK_LOGGERS = ("distributed", "tornado")


@contextmanager
def dask_logs_quiet() -> Iterator[None]:
    """Dask's loggers (and their children) made silent, then set back as they were."""
    loggers = logging.Logger.manager.loggerDict
    names = [
        name
        for name, logger in list(loggers.items())
        if isinstance(logger, logging.Logger)
        and any(name == top or name.startswith(f"{top}.") for top in DASK_LOGGERS)
    ]
    names.extend(top for top in DASK_LOGGERS if top not in names)  # (children yet to come)
    before = {name: logging.getLogger(name).level for name in names}
    for name in names:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for name, level in before.items():
            logging.getLogger(name).setLevel(level)


CLOSE_TIMEOUT = 5  # seconds a client whose scheduler is gone gets to close


class DaskExecutor:
    """A connection to a running Dask distributed scheduler and its executor."""

    def __init__(self, address: str) -> None:
        try:
            from distributed import Client
        except ImportError as exc:
            raise UsageError(
                "--scheduler needs Dask distributed: pip install 'kriegsspiel[dask]' "
                "(from a checkout: pip install -e '.[dask]')."
            ) from exc
        from dask.utils import parse_timedelta

        address = checked_address(address)
        if not address.startswith("inproc://"):
            tls_settings(address)
            if not address.startswith("ucx://"):
                probe(address, parse_timedelta(CONNECT_TIMEOUT, "s"))
        # made, then started, in two steps, so that a client whose connection fails half-way
        # is closed here: else Dask closes it as the process ends, after a 20 s wait and
        # with a traceback
        client = Client.__new__(Client)
        try:
            client.__init__(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except BaseException as exc:
            with suppress(Exception):
                client.close(timeout=2)
            if not isinstance(exc, Exception):
                raise
            where = f"cannot reach a Dask scheduler at {address!r}"
            if isinstance(exc, OSError | TimeoutError):
                raise UsageError(
                    f"{where} ({str(exc)[:300]}); give the address the scheduler prints, "
                    "e.g. tcp://10.0.0.5:8786."
                ) from exc
            kind = type(exc).__name__
            if kind == "error":  # (struct.error, say)
                kind = f"{type(exc).__module__}.{kind}"
            raise UsageError(
                f"{where}: the connection failed ({kind}: {str(exc)[:300]}); is that the port "
                "the scheduler printed (not its dashboard's), and the same version of Dask "
                "installed here as there?"
            ) from exc
        self.client = client
        self.executor: Executor = self.client.get_executor()
        self.address = address
        self._quiet = dask_logs_quiet()  # until close
        self._quiet.__enter__()

    def workers(self) -> int:
        """How many workers the cluster has now (0 while it has none)."""
        return len(self._ask(lambda: self.client.scheduler_info(n_workers=-1)).get("workers", {}))

    def threads(self) -> int:
        """How many tasks the cluster's workers run at once now: their threads (0 while it
        has no workers). One small message to the scheduler."""
        return sum(self._ask(self.client.nthreads).values())

    def _ask(self, question: Callable[[], Any]) -> Any:
        """The scheduler's answer; SchedulerLost if it can no longer be asked."""
        if not self.connected():
            raise SchedulerLost(self.address, "the client is no longer connected")
        try:
            return question()
        except (OSError, TimeoutError, CancelledError) as exc:  # (CommClosedError: an OSError)
            raise SchedulerLost(self.address, f"{type(exc).__name__}: {exc}") from exc

    def connected(self) -> bool:
        """Whether the client still holds its connection to the scheduler (it tries to
        reconnect for a while after losing it, then closes)."""
        return bool(self.client.status == "running")

    def lost(self, exc: BaseException) -> SchedulerLost | None:
        """If ``exc`` (raised by a task's future, or by handing a task in) means that the
        connection to the scheduler is gone, that loss; None for the task's own failure.
        Dask cancels every task of a client that lost its scheduler."""
        if isinstance(exc, SchedulerLost):
            return exc
        if isinstance(exc, (CancelledError, OSError)) or not self.connected():
            reason = f"{type(exc).__name__}: {exc}".rstrip(": ")
            if isinstance(exc, CancelledError):
                reason = "its tasks were cancelled"
            return SchedulerLost(self.address, reason)
        return None

    def close(self) -> None:
        try:
            self.executor.shutdown(wait=False)
            # (a client whose scheduler is gone would wait for it as long as it reconnects)
            if self.connected():
                self.client.close()
            else:
                self.client.close(timeout=CLOSE_TIMEOUT)
        except (OSError, TimeoutError, RuntimeError):
            pass  # gone already: nothing left to close
        finally:
            self._quiet.__exit__(None, None, None)
