"""The fork server the workers of ``--workers`` are forked from (:mod:`posting.forking`)."""

from __future__ import annotations

import multiprocessing
import threading
import time

import psutil
import pytest

from posting import distributed

pytestmark = pytest.mark.skipif(
    "forkserver" not in multiprocessing.get_all_start_methods(), reason="no fork server here"
)


def _gone(pid: int) -> bool:
    """No process ``pid`` runs (none, or one that has ended and not been reaped yet)."""
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_a_process_of_the_server_left_running_does_not_keep_the_command_waiting():
    """A process forked from the server that is still running when the local cluster's
    workers are done with (a worker that outlived its cluster: the command stopped by SIGTERM
    while it started) holds the server's "alive" pipe, so the server never ended and leaving
    ``_forked_workers`` waited for it as long as that process ran: 600 s here, where a
    ``posting check --workers 1`` stopped by SIGTERM once sat in ``wait4`` for over eleven
    minutes. Now the process is ended and the server with it, within the grace of 5 s."""
    from multiprocessing import forkserver

    seen: dict[str, int] = {}
    left = threading.Event()

    def run() -> None:
        with distributed._forked_workers():
            stray = multiprocessing.get_context("forkserver").Process(
                target=time.sleep, args=(600,), daemon=True
            )
            stray.start()
            seen["stray"] = stray.pid
            seen["server"] = forkserver._forkserver._forkserver_pid
        left.set()

    thread = threading.Thread(target=run, daemon=True)
    started = time.monotonic()
    thread.start()
    try:
        assert left.wait(60), "still waiting for the fork server after 60 s"
        assert time.monotonic() - started < 60
        assert _gone(seen["stray"]) and _gone(seen["server"])
        assert forkserver._forkserver._forkserver_pid is None
    finally:
        if "stray" in seen and not _gone(seen["stray"]):
            psutil.Process(seen["stray"]).kill()
