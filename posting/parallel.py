"""Run shapely and pyproj array functions on all cores, and work in the background.

Shapely's vectorised functions release the GIL, so splitting a large array into one chunk per
core and running the chunks in threads uses every core with no copying between processes.
Small arrays run in the calling thread.

How many threads may be used is one setting for the whole process (:func:`threads`): all the
cores by default; one where the check runs as one of several workers on a machine (a dask
worker), where :func:`pmap` then runs in the calling thread and :func:`background` and
:func:`soon` run their work at once, before they return.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from functools import lru_cache
from typing import Any

import numpy as np

from posting.memory import share_allocator

__all__ = [
    "CHUNKS_PER_WORKER",
    "MIN_CHUNK",
    "ahead",
    "aside",
    "background",
    "pmap",
    "share_allocator",
    "soon",
    "threads",
    "workers",
]

_PREFIX = "posting-pmap"

MIN_CHUNK = 20_000
"""Below this many items per chunk, threads cost more than they save."""

CHUNKS_PER_WORKER = 4
"""Chunks per thread: the threads take the next chunk as they finish one, so a core slowed
by other work on the machine does less of it instead of holding everyone up (the benchmark
county on a shared 2-core machine, 12 alternating runs each: median 8.7 s, against 8.9 s with one
chunk per thread: within the noise of such a machine)."""


_LIMIT: list[int | None] = [None]  # the process's thread budget (None: every core)


@lru_cache(maxsize=4)
def _sized_pool(n: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=n, thread_name_prefix=_PREFIX)


def _pool() -> ThreadPoolExecutor:
    return _sized_pool(workers())


def workers() -> int:
    """How many threads :func:`pmap` uses at most: the machine's cores, or fewer when
    :func:`threads` says so."""
    cores = max(1, os.cpu_count() or 1)
    limit = _LIMIT[0]
    return cores if limit is None else max(1, min(limit, cores))


@contextlib.contextmanager
def threads(n: int | None) -> Iterator[None]:
    """Use at most ``n`` threads (None: every core) for the work inside the ``with`` block.

    Examples
    --------
    >>> with threads(1):
    ...     workers()
    1
    """
    if n is not None and n < 1:
        raise ValueError(f"threads must be at least 1, not {n}")
    before = _LIMIT[0]
    _LIMIT[0] = n
    try:
        yield
    finally:
        _LIMIT[0] = before


def _done(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Future[Any]:
    """``func`` run now, its result (or its error) in a finished Future."""
    out: Future[Any] = Future()
    try:
        out.set_result(func(*args, **kwargs))
    except BaseException as exc:
        out.set_exception(exc)
    return out


def pmap(func: Callable[..., Any], *arrays: Any, **kwargs: Any) -> Any:
    """``func(*arrays, **kwargs)`` computed chunk by chunk on all cores.

    Every array argument must have the same length along its first axis (scalars are passed
    through unchanged); ``func`` must be elementwise along that axis. The results, an array or a
    tuple of arrays, are concatenated in order.

    Examples
    --------
    >>> import shapely
    >>> pts = shapely.points(np.arange(100_000.0), np.zeros(100_000))
    >>> bool((pmap(shapely.get_x, pts) == np.arange(100_000.0)).all())
    True
    """
    n = next((len(a) for a in arrays if isinstance(a, np.ndarray) and a.ndim), 0)
    w = workers()
    k = min(CHUNKS_PER_WORKER * w, n // MIN_CHUNK)
    if k < 2 or w == 1 or threading.current_thread().name.startswith(_PREFIX):  # not nested
        return func(*arrays, **kwargs)
    bounds = np.linspace(0, n, k + 1).astype(int)

    def run(i: int) -> Any:
        lo, hi = bounds[i], bounds[i + 1]
        args = [
            a[lo:hi] if isinstance(a, np.ndarray) and a.ndim and len(a) == n else a for a in arrays
        ]
        return func(*args, **kwargs)

    parts = list(_pool().map(run, range(k)))
    if isinstance(parts[0], tuple):
        return tuple(np.concatenate(p) for p in zip(*parts, strict=True))
    return np.concatenate(parts)


def ahead(func: Callable[[int, int], Any], n: int, size: int | None = None) -> Iterator[Any]:
    """``func(lo, hi)`` for consecutive ranges of ``0 .. n``, computed on :func:`pmap`'s
    threads ahead of the caller and given in order, each as soon as it is done.

    For work whose pieces are used one by one as they come (a report's lines written to a file
    while the next ones are made): the caller's use of one piece overlaps the making of the
    next. Ranges of ``size`` items (None: :func:`pmap`'s chunks), at most two per thread made
    ahead of the caller, so that the memory of the pieces used is reused for the next ones.
    One range after another in the calling thread on one thread or inside :func:`pmap`'s.

    Examples
    --------
    >>> [(lo, hi) for lo, hi in ahead(lambda lo, hi: (lo, hi), 10)]
    [(0, 10)]
    >>> [(lo, hi) for lo, hi in ahead(lambda lo, hi: (lo, hi), 10, 4)]
    [(0, 4), (4, 8), (8, 10)]
    >>> parts = list(ahead(lambda lo, hi: np.arange(lo, hi), 200_000, 30_000))
    >>> bool((np.concatenate(parts) == np.arange(200_000)).all())
    True
    """
    w = workers()
    if size is None:
        size = max(MIN_CHUNK, -(-n // (CHUNKS_PER_WORKER * w)))
    starts = range(0, n, max(1, size))
    if len(starts) < 2 or w == 1 or threading.current_thread().name.startswith(_PREFIX):
        for lo in starts:
            yield func(lo, min(lo + size, n))
        return
    pending: deque[Future[Any]] = deque()
    todo = iter(starts)

    def submit() -> None:
        lo = next(todo, None)
        if lo is not None:
            pending.append(_pool().submit(func, lo, min(lo + size, n)))

    for _ in range(2 * w):
        submit()
    try:
        while pending:
            piece = pending.popleft().result()
            submit()  # the threads go on while the caller uses this one
            yield piece
    finally:  # the caller stopped early (or failed): what has not started never does
        for f in pending:
            f.cancel()


@lru_cache(maxsize=1)
def _background_pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="posting-background")


def background(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Future[Any]:
    """Start ``func(*args, **kwargs)`` in a background thread; its result is in the Future.

    For work that no next step needs at once (the corners of the parcels while the markers
    are assigned): most of it runs in GEOS and numpy, which release the GIL, so it shares the
    cores with the caller. Jobs run one after another in one thread, separate from
    :func:`pmap`'s, which they may use.

    Examples
    --------
    >>> background(sum, [1, 2, 3]).result()
    6
    """
    if workers() == 1:
        return _done(func, *args, **kwargs)
    return _background_pool().submit(func, *args, **kwargs)


class _Aside(Future):
    """The Future of :func:`aside`: its result is given once its thread has ended."""

    def __init__(self, func: Callable[..., Any], args: Any, kwargs: Any) -> None:
        super().__init__()

        def work() -> None:
            try:
                self.set_result(func(*args, **kwargs))
            except BaseException as exc:
                self.set_exception(exc)

        self._thread = threading.Thread(target=work, name="posting-aside", daemon=True)
        self._thread.start()

    def result(self, timeout: float | None = None) -> Any:
        self._thread.join(timeout)
        return super().result(timeout)

    def exception(self, timeout: float | None = None) -> BaseException | None:
        self._thread.join(timeout)
        return super().exception(timeout)


def aside(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Future[Any]:
    """Start ``func(*args, **kwargs)`` in a thread of its own, which ends with it; the Future's
    result is given once the thread has ended.

    For one large job beside the caller's (reading the markers while the parcels are read and
    prepared). A thread that has ended gives its allocator's arena back for reuse: in a thread
    that lived on, the memory a million markers' reading freed stayed with that thread, and the
    benchmark county's peak grew by about 100 MB (1.41 -> 1.53 GB).

    Examples
    --------
    >>> aside(sum, [1, 2, 3]).result()
    6
    """
    if workers() == 1:
        return _done(func, *args, **kwargs)
    return _Aside(func, args, kwargs)


def soon(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Future[Any]:
    """Start ``func(*args, **kwargs)`` on :func:`pmap`'s threads and go on (for work the
    caller needs shortly, such as an index built while the points to ask it are projected).
    Inside it, :func:`pmap` runs serially.

    Examples
    --------
    >>> soon(max, [1, 5, 2]).result()
    5
    """
    if workers() == 1:
        return _done(func, *args, **kwargs)
    return _pool().submit(func, *args, **kwargs)
