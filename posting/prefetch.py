"""Start reading a large GeoParquet input while the rest of the program loads.

The ``posting`` command spends its first half second importing pandas, shapely and pyproj,
on one core. Reading a million markers from GeoParquet is mostly Arrow's decoding, which runs
without holding Python's GIL. So the command names its marker files here first
(:func:`start`); a background thread reads each into an Arrow table while the imports go on, and
the reader takes the table (:func:`take`) instead of reading the file again.

Only a cache: a file that cannot be read here is read again by the reader, whose error is the
one the user sees. This module imports nothing heavy itself.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

__all__ = ["start", "take"]

_SUFFIXES = (".parquet", ".geoparquet")

_jobs: dict[str, Future[Any]] = {}
_pool: ThreadPoolExecutor | None = None


def _read(path: str) -> Any:
    try:
        import pyarrow.parquet as pq

        return pq.read_table(path)
    except Exception:  # the reader reads the file again and says what is wrong
        return None


def start(paths: Iterable[str | os.PathLike[str]]) -> None:
    """Begin reading the GeoParquet files among ``paths`` in a background thread."""
    global _pool
    for p in paths:
        path = os.fspath(p)
        if not path.lower().endswith(_SUFFIXES) or path in _jobs:
            continue
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="posting-prefetch")
        _jobs[path] = _pool.submit(_read, path)


def take(path: str | os.PathLike[str]) -> Any:
    """The Arrow table read for ``path`` (once: the cache forgets it), or None when no read
    was started for it or the read failed.

    Examples
    --------
    >>> take("never-started.parquet") is None
    True
    """
    job = _jobs.pop(os.fspath(path), None)
    return None if job is None else job.result()
