# mypy: disallow-untyped-calls=False
# (distributed's Client carries no annotations.)
"""Reaching a Dask cluster's scheduler, and checking its workers, before a
run is sent there (:mod:`al0.verify.cluster`): each step bounded in time,
each failure a one-line :class:`ClusterError` that names it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import socket
from collections.abc import Iterator

import dask.config
import distributed

from al0.errors import AL0Error, one_line
from al0.lang.loader import load_table
from al0.verify.verifier import VerifySpec

CONNECT_SECONDS = 10.0
"""How long each step of reaching the scheduler may take (the TCP connection,
Dask's handshake, the client's registration) before the run reports which
one failed."""

NO_WORKER_SECONDS = 60.0
"""How long a run waits with no worker at all on the scheduler (to start, or
after the last one left) before it stops: long enough for a worker's nanny
to restart it, short enough that a dead cluster does not hang the run."""

ADDRESS = re.compile(r"tcp://(\[[0-9A-Fa-f:]+\]|[^\s:/\[\]]+):\d+")
"""A scheduler address as Dask prints it: ``tcp://HOST:PORT`` (an IPv6 host
in brackets). TLS would need certificates al0 has no options for."""


class ClusterError(AL0Error):
    """The cluster cannot run or finish the work: no scheduler at the address,
    a worker that cannot load al0 or the table, a chunk that kills its
    workers, the scheduler or every worker gone."""


def connect(
    address: str, no_worker_seconds: float = NO_WORKER_SECONDS, connect_seconds: float = CONNECT_SECONDS
) -> distributed.Client:
    """A client of the scheduler at ``address`` with at least one worker,
    each step of reaching it bounded by ``connect_seconds``.

    :raises ClusterError: a malformed address, no scheduler there (nothing
        listening, or a program that is silent or speaks something else), no
        worker.
    """
    if not ADDRESS.fullmatch(address):
        raise ClusterError(f"{address!r}: give the scheduler as tcp://HOST:PORT")
    _reach(address, connect_seconds)
    # Made in two steps, so that a client whose start fails is at hand to be
    # put away: left to its finaliser, it spent 20 s closing a connection to
    # a program that is not a scheduler and then printed a traceback.
    client = distributed.Client.__new__(distributed.Client)
    # Answers read straight from the workers, not relayed by the scheduler,
    # unless Dask's configuration says otherwise (a client that cannot
    # reach the workers: distributed.client.direct-to-workers: false).
    direct = dask.config.get("distributed.client.direct-to-workers", None)
    try:
        with quiet_dask():
            distributed.Client.__init__(
                client,
                address,
                timeout=connect_seconds,
                set_as_default=False,
                direct_to_workers=True if direct is None else direct,
            )
    except (OSError, TimeoutError) as error:
        _discard(client)
        raise ClusterError(
            f"no Dask scheduler at {address} ({describe(error)}): start one with `dask scheduler`"
        ) from None
    except Exception as error:  # what Dask raises on a bad answer: a MemoryError, a KeyError
        _discard(client)
        raise ClusterError(
            f"{address} is not a Dask scheduler: it answered the client "
            f"with something else ({describe(error)})"
        ) from None
    try:
        client.wait_for_workers(1, timeout=no_worker_seconds)
    except TimeoutError:
        client.close()
        raise ClusterError(
            f"the scheduler at {address} has no worker after "
            f"{no_worker_seconds:g} s: start some with "
            f"`dask worker {address}`"
        ) from None
    return client


DISCARD_SECONDS = 1.0
"""How long a client that never started may take to close its connections."""


def _discard(client: distributed.Client) -> None:
    """Close a client whose start failed, within :data:`DISCARD_SECONDS`,
    silently, and mark it closed, so its finaliser has nothing left to do."""
    with quiet_dask(), contextlib.suppress(Exception):
        client.close(timeout=DISCARD_SECONDS)
    with contextlib.suppress(Exception):
        client.status = "closed"  # what the finaliser's close() checks first
        client._loop_runner.stop()


def _reach(address: str, seconds: float) -> None:
    """Open a TCP connection to ``address``, then exchange Dask's handshake
    with what answers, each within ``seconds``: Dask's client waits for the
    handshake without a bound (a program that accepts and stays silent held
    verify for ever) and reads a junk answer as a frame of any length (a
    MemoryError, then 20 s closing the half-made client).

    :raises ClusterError: naming the step that failed.
    """
    host, port = address[len("tcp://") :].rsplit(":", 1)
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=seconds).close()
    except OSError as error:
        raise ClusterError(
            f"no Dask scheduler at {address} ({describe(error)}): start one with `dask scheduler`"
        ) from None

    async def handshake() -> None:
        comm = await asyncio.wait_for(distributed.comm.core.connect(address, timeout=seconds), seconds)
        await comm.close()

    try:
        with quiet_dask():
            asyncio.run(handshake())
    except TimeoutError:
        raise ClusterError(
            f"{address} accepted the connection but gave no Dask handshake "
            f"within {seconds:g} s: is it a Dask scheduler?"
        ) from None
    except Exception as error:
        # Dask's message on junk is about the frame it misread (an
        # allocation of exabytes): the kind of error is enough.
        raise ClusterError(
            f"{address} is not a Dask scheduler: it answered the handshake "
            f"with something else ({type(error).__name__})"
        ) from None


def check_workers(client: distributed.Client, spec: VerifySpec) -> None:
    """Load the table on every worker, so a worker without al0 (or one of its
    dependencies), or one that cannot read the table or import its library,
    is named before the work starts.

    :raises ClusterError: naming each worker that failed and why.
    """
    answers = client.run(_load_table_on_worker, spec.table_path, on_error="return")
    failed = [
        f"worker {worker}: {describe(answer)}"
        for worker, answer in sorted(answers.items())
        if isinstance(answer, BaseException)
    ]
    if failed:
        raise ClusterError(
            "; ".join(failed) + " (every worker needs al0 installed and the table at the same path)"
        )


def _load_table_on_worker(table_path: str) -> None:
    """Run on a worker by :func:`check_workers`; raises what loading raises."""
    load_table(table_path)


def describe(error: BaseException) -> str:
    """An error in one line: an al0 error's own message, another's class too."""
    text = one_line(error)
    if isinstance(error, AL0Error):
        return text
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


@contextlib.contextmanager
def quiet_dask() -> Iterator[None]:
    """Keep Dask's client from logging to standard error: what it would say
    (a lost connection, a closed comm) reaches the user as a ClusterError,
    and only the CLI prints."""
    logger = logging.getLogger("distributed")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)
