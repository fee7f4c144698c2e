"""The fork server the workers of ``--workers`` are forked from.

The local dask cluster that ``posting check --workers N`` starts forks its worker processes from
one server process that has imported what every worker needs (:data:`WORKER_MODULES`): each
worker a copy of it, not a new interpreter importing them again (about 0.5 s of CPU a worker).
The command starts the server as soon as it knows it will need it
(:func:`posting.scale_cli.check_partitioned`), so that the server imports while the command
does its own importing and reading; :func:`posting.distributed.cluster` starts it otherwise.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from typing import Any

__all__ = ["WORKER_MODULES", "start_fork_server"]

WORKER_MODULES = (
    "distributed",
    "posting.cli",
    "posting.distributed",
    "posting.engine",
    "posting.stream",
    "posting.records",
    "posting.render.csv",
    "posting.sanity",
    "geopandas",
    "pyarrow.parquet",
)
"""What every worker imports: loaded once, by the server the workers are forked from."""


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


def _ignoring_sigint() -> Any:
    """Ignore SIGINT while the server starts (from the main thread; else do nothing): the
    server, and so every worker forked from it, then ignores it too. Ctrl-C reaches every
    process of the terminal's foreground group, and a worker would print its
    ``KeyboardInterrupt`` traceback; the command stops its workers itself
    (:class:`posting.cli.Stopped`). Returns the handler to put back, or None."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGINT, signal.SIG_IGN)
