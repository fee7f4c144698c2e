"""The process's memory: one allocator arena for every thread, and Arrow's buffers from the
same allocator.

A runner's concern, not the stages': :func:`share_allocator`, :func:`arrow_allocator` and
:func:`small_pages` first thing in a process that runs checks. Nothing heavy is imported here
(the command calls them before it starts reading).

Freed memory is not given back to the system on purpose (glibc's ``malloc_trim``): the check
once did so after the assignment, when that took the benchmark county's peak from about 2.0 to
1.6 GB. On 2026-12-01 it saved nothing on the counties (peaks of 1.27-1.29 GB on the synthetic
one and 2.29-2.43 GB on the one of real shapes either way, three alternated runs each) and 3 %
on the benchmark state in one process (10.5 against 10.8 GB), and cost the time of faulting the
same pages in again: 8.1-8.9 s against 7.5-7.8 s on the county of real shapes (system time
2.6-4.6 s against 1.4-1.8), 49.4 s against 42.3 s on the state; a dask worker paid it on every
partition.
"""

from __future__ import annotations

import os
import sys

__all__ = ["arrow_allocator", "share_allocator", "small_pages"]


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


def small_pages() -> None:
    """Let numpy back its large arrays with ordinary pages, not transparent huge pages, unless
    ``NUMPY_MADVISE_HUGEPAGE`` says otherwise.

    Call it first thing in a process that runs checks; the processes it starts (a local
    cluster's workers) inherit the choice. numpy asks the kernel for huge pages
    (``madvise(MADV_HUGEPAGE)``) for every array of 4 MB or more. Where the kernel gives huge
    pages on request only and compacts memory to find them (Linux's
    ``transparent_hugepage/enabled`` and ``defrag`` both ``madvise``, as on the benchmark
    machine), each such array is zeroed and placed 2 MB at a time in the kernel, and a check
    makes and drops thousands of them. On the county of real shapes that was 2.3-3.7 s of
    system time, against 1.5-1.8 s with ordinary pages, for 0.2-0.3 s more user time: the
    check took 6.8-7.1 s against 7.3-7.9 s (four alternated runs each). Where huge pages are
    always or never given, numpy's request changes nothing. The gain depends on the machine's
    state: on a freshly started machine of the same kind, with free memory in large blocks,
    huge pages halved the page faults and the same check was faster with them in six of six
    alternated pairs (11.1-12.9 s against 12.8-14.0 s), and even with them once the page cache
    held all but 0.7 GB (docs/scale-log.md). Ordinary pages are kept as the smaller worst case;
    ``NUMPY_MADVISE_HUGEPAGE=1`` chooses huge pages.
    """
    os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")
    if "numpy" in sys.modules and os.environ["NUMPY_MADVISE_HUGEPAGE"] == "0":
        from numpy._core.multiarray import _set_madvise_hugepage  # read at numpy's import

        _set_madvise_hugepage(False)
