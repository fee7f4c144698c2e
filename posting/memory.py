"""The process's memory: one allocator arena for every thread, Arrow's buffers from the same
allocator, and freed memory given back.

A runner's concern, not the stages': :func:`share_allocator` and :func:`arrow_allocator` first
thing in a process that runs checks, :func:`release_memory` after a stage that leaves large
temporaries. Nothing heavy is
imported here (the command calls it before it starts reading).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from functools import lru_cache

__all__ = ["arrow_allocator", "keeping_memory", "release_memory", "share_allocator"]

_KEEP: list[bool] = [False]  # the process's choice (keeping_memory)


@lru_cache(maxsize=1)
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None


def share_allocator() -> None:
    """Let every thread allocate from one glibc arena (``M_ARENA_MAX`` = 1; nothing elsewhere).

    Call it first thing in a process that runs checks, before any thread starts. glibc gives
    threads arenas of their own, and memory one thread frees stays in its arena, out of reach
    of the others: the markers' reading, the corners and the assignment each left hundreds of
    MB there, and the benchmark county's peak moved between 1.35 and 1.55 GB from run to run
    with how the threads happened to take turns. With one arena it stayed at 1.36-1.38 GB
    (four runs, against 1.39-1.44 GB before the stages were made to travel), in the same time:
    the threads' small allocations come from per-thread caches, and the large ones from GEOS
    and numpy are few.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").mallopt(-8, 1)  # M_ARENA_MAX
    except (OSError, AttributeError):  # not glibc
        pass


def arrow_allocator() -> None:
    """Let Arrow allocate from the C library's ``malloc`` (its ``system`` pool) rather than from
    the mimalloc it bundles, unless ``ARROW_DEFAULT_MEMORY_POOL`` says otherwise.

    Call it first thing in a process that runs checks; the processes it starts (a local
    cluster's workers) inherit the choice. The JSON report of the county of real shapes is
    written by Arrow's kernels, a few hundred MB of text in large buffers made and freed in
    turn: with mimalloc that cost 1.4-1.5 s of system time (it hands the pages back and faults
    them in again), with ``malloc`` 0.4 s, for the same user time (two runs each); the whole
    check 0.7 s less system time and a lower peak.
    """
    if "pyarrow" in sys.modules:  # chosen at its import: set now
        import pyarrow as pa

        if "ARROW_DEFAULT_MEMORY_POOL" not in os.environ:
            pa.set_memory_pool(pa.system_memory_pool())
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")


def release_memory() -> None:
    """Give the memory freed since the last call back to the system (glibc's ``malloc_trim``;
    nothing elsewhere).

    glibc keeps freed blocks of up to 32 MiB in its heaps, one per thread, for reuse; the
    temporaries of assigning a county's million markers leave about 0.9 GB there, and the next
    steps, allocating differently, grow the process further. Called after the assignment, it
    took the benchmark county's peak from 1.95-2.05 GB to about 1.6 GB. (Called after every
    step it saves a little more memory but costs time: the report's many small objects then
    fault their pages in afresh.)

    Inside :func:`keeping_memory`, nothing is given back.
    """
    if _KEEP[0]:
        return
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@contextlib.contextmanager
def keeping_memory() -> Iterator[None]:
    """Let :func:`release_memory` give nothing back inside the ``with`` block: for a process
    that runs one task after another (a dask worker), where the next task would fault the
    same pages in again.

    A worker's tasks are partitions of a bounded size, so what it keeps is bounded too. On the
    benchmark state (1,000,000 parcels, ``--workers 2``, two or three alternated runs each) the
    run took 41.0-43.0 s and 77-80 s of CPU where giving the memory back after each task's
    assignment took 43.7-46.6 s and 81-88 s; the largest worker 1.26 GB instead of 1.16 GB.

    Examples
    --------
    >>> with keeping_memory():
    ...     release_memory()  # gives nothing back
    """
    before = _KEEP[0]
    _KEEP[0] = True
    try:
        yield
    finally:
        _KEEP[0] = before
