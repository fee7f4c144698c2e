"""The fork server the workers of ``--workers`` are forked from.

The local dask cluster that ``posting check --workers N`` starts forks its worker processes from
one server process that has imported what every worker needs (:data:`WORKER_MODULES`): each
worker a copy of it, not a new interpreter importing them again (about 0.5 s of CPU a worker).
The command starts the server as soon as it knows it will need it
(:func:`posting.scale_cli.check_partitioned`), so that the server imports while the command
does its own importing and reading; :func:`posting.distributed.cluster` starts it otherwise.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from typing import Any

__all__ = [
    "WORKERS_PER_CPU",
    "WORKER_BYTES",
    "WORKER_MODULES",
    "check_workers",
    "most_workers",
    "start_fork_server",
    "stop_fork_server",
]

WORKER_MODULES = (
    "distributed",
    "posting.gdal",
    "posting.distributed",
    "posting.engine",
    "posting.stream",
    "posting.records",
    "posting.render.csv",
    "posting.sanity",
    "geopandas",
    "pyarrow.parquet",
)
"""What every worker imports: loaded once, by the server the workers are forked from.

Not :mod:`posting.cli`, which a worker does not need: ``python -m posting.cli`` runs it as
``__main__``, and multiprocessing runs a worker's ``__main__`` module again in the worker
(as ``__mp_main__``), where runpy warned that it was imported already ("'posting.cli' found in
sys.modules after import of package 'posting'", once for each worker). ``python -m posting``
(:mod:`posting.__main__`) is not run again at all."""


WORKERS_PER_CPU = 4
"""Local workers a CPU may have at most (:func:`most_workers`). Each worker is a process of one
thread: more than one per CPU only take turns, and four leave room for workers that wait on a
network disk."""

WORKER_BYTES = 250_000_000
"""The least memory a local worker holds once it checks anything (:func:`most_workers`): one
of ``--workers 2`` on the sample's 29 parcels holds 0.2 GB of its own and peaks at 0.3 GB
(2026-12-06); with a county's partitions, about 0.55 GB before its partition's data
(``docs/scale.md``)."""


def most_workers() -> tuple[int, int, int]:
    """The most worker processes a local cluster of this machine may have: the fewer of
    :data:`WORKERS_PER_CPU` for each of its CPUs and its memory over :data:`WORKER_BYTES`;
    with the number of CPUs and the bytes of memory it was worked out from.

    More cannot all run: they would take turns on the CPUs, and page or be stopped by the
    system for want of memory. Such a number is a slip (``--workers 100000`` went on starting
    processes for ever), not a plan; a cluster of several machines is ``--scheduler``'s.

    >>> n, cpus, memory = most_workers()
    >>> 1 <= n <= WORKERS_PER_CPU * cpus and n * WORKER_BYTES <= max(memory, WORKER_BYTES)
    True
    """
    import psutil

    cpus = os.cpu_count() or 1
    memory = int(psutil.virtual_memory().total)
    return max(1, min(WORKERS_PER_CPU * cpus, memory // WORKER_BYTES)), cpus, memory


def check_workers(workers: int) -> None:
    """Refuse a local cluster of more workers than this machine can run
    (:func:`most_workers`), before any starts.

    Raises
    ------
    InputError
        Naming the most there may be here, why, and what to do instead.
    """
    most, cpus, memory = most_workers()
    if workers <= most:
        return
    from posting.errors import InputError

    raise InputError(
        f"{{option}} {workers:,}: more worker processes than this machine can run; at most "
        f"{most:,} here ({WORKERS_PER_CPU} for each of its {cpus:,} CPUs, and as many as its "
        f"{memory / 1e9:,.1f} GB of memory holds at {WORKER_BYTES / 1e9:.2f} GB each): give a "
        "smaller N, or run on a cluster of several machines with {option:scheduler} ADDRESS",
        parameter="workers",
    )


def start_fork_server() -> bool:
    """Start the fork server with :data:`WORKER_MODULES` to import, if the platform has fork
    servers and it is not running yet; False where there is none (workers are spawned).

    The server starts without the working folder first on its path: Python 3.11's fork server
    imports the modules before it takes the command's path, so a folder named ``posting`` where
    the command runs (a source tree of another version) would be the workers' posting.
    """
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return False
    from multiprocessing import forkserver

    multiprocessing.get_context("forkserver").set_forkserver_preload(list(WORKER_MODULES))
    safe = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"
    sigint = _ignoring_sigint()
    try:
        forkserver.ensure_running()
    finally:
        if sigint is not None:
            signal.signal(signal.SIGINT, sigint)
        if safe is None:
            del os.environ["PYTHONSAFEPATH"]
        else:
            os.environ["PYTHONSAFEPATH"] = safe
    return True


STRAY_GRACE_S = 5.0
"""How long :func:`stop_fork_server` gives a process still running to end after SIGTERM, and
the server to end after it is asked to, before each is killed."""


def stop_fork_server(grace_s: float = STRAY_GRACE_S) -> None:
    """Stop the fork server and wait for it, with whatever it forked that still runs.

    The server ends when every holder of its "alive" pipe has closed it, and each process it
    forks holds one: multiprocessing's own stop waits for the server for ever while one of them
    runs. A worker that outlives its cluster (the command stopped by SIGTERM while a worker
    was starting) kept ``posting check --workers 1`` waiting in ``wait4`` for over eleven
    minutes. So the server's processes left are ended first (SIGTERM, then SIGKILL after
    ``grace_s``; none are left when the cluster has closed), and the server itself is killed
    if it has not ended ``grace_s`` after being asked to. Does nothing if no server runs.
    """
    from multiprocessing import forkserver

    import psutil

    server = forkserver._forkserver
    pid = getattr(server, "_forkserver_pid", None)
    stop = getattr(server, "_stop", None)
    if pid is None or stop is None:
        return
    try:
        left = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        left = []
    for process in left:
        with contextlib.suppress(psutil.Error):
            process.terminate()
    _, alive = psutil.wait_procs(left, timeout=grace_s)
    for process in alive:
        with contextlib.suppress(psutil.Error):
            process.kill()
    # The server is not reaped until ``stop`` returns, so its pid cannot be another's then.
    timer = threading.Timer(grace_s, _kill_quietly, (pid,))
    timer.daemon = True
    timer.start()
    try:
        stop()
    finally:
        timer.cancel()


def _kill_quietly(pid: int) -> None:
    """SIGKILL ``pid`` if it still exists."""
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)


def _ignoring_sigint() -> Any:
    """Ignore SIGINT while the server starts (from the main thread; else do nothing): the
    server, and so every worker forked from it, then ignores it too. Ctrl-C reaches every
    process of the terminal's foreground group, and a worker would print its
    ``KeyboardInterrupt`` traceback; the command stops its workers itself
    (:class:`posting.cli.Stopped`). Returns the handler to put back, or None."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGINT, signal.SIG_IGN)
