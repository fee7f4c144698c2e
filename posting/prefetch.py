"""Start reading a large GeoParquet input while the rest of the program loads.

The ``posting`` command spends its first half second importing pandas, shapely and pyproj,
on one core. Reading a million markers from GeoParquet is mostly Arrow's decoding, which runs
without holding Python's GIL. So the command names its input files first (:class:`Prefetch`);
a background thread reads each GeoParquet file into an Arrow table while the imports go on, and
the reader, given the prefetch, takes the table (:meth:`Prefetch.take`) instead of reading the
file again.

Only a cache, owned by whoever runs the check and handed to the readers: a file that cannot be
read here is read again by the reader, whose error is the one the user sees. This module
imports nothing heavy itself.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

__all__ = ["Prefetch"]

_SUFFIXES = (".parquet", ".geoparquet")


def _read(path: str) -> Any:
    try:
        import pyarrow.parquet as pq

        return pq.read_table(path)
    except Exception:  # the reader reads the file again and says what is wrong
        return None


class Prefetch:
    """GeoParquet files being read in a background thread.

    Examples
    --------
    >>> Prefetch(["notes.csv"]).take("notes.csv") is None  # not GeoParquet: not read here
    True
    """

    def __init__(self, paths: Iterable[str | os.PathLike[str]] = ()) -> None:
        self._jobs: dict[str, Future[Any]] = {}
        self._pool: ThreadPoolExecutor | None = None
        self.start(paths)

    def start(self, paths: Iterable[str | os.PathLike[str]]) -> None:
        """Begin reading the GeoParquet files among ``paths``."""
        for p in paths:
            path = os.fspath(p)
            if not path.lower().endswith(_SUFFIXES) or path in self._jobs:
                continue
            if self._pool is None:
                self._pool = ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix="posting-prefetch"
                )
            self._jobs[path] = self._pool.submit(_read, path)

    def take(self, path: str | os.PathLike[str]) -> Any:
        """The Arrow table read for ``path`` (once: it is then forgotten), or None when no read
        was started for it or the read failed."""
        job = self._jobs.pop(os.fspath(path), None)
        return None if job is None else job.result()

    def features(self, path: str | os.PathLike[str]) -> tuple[int, int] | None:
        """The slice of features of ``path`` to read: None, every one (the partitioned check's
        readers are handed slices: :class:`posting.dataset.Given`)."""
        return None

    def text(self, path: str | os.PathLike[str]) -> Any:
        """The slice of a CSV file's records to read: None, every one (as :meth:`features`)."""
        return None

    def feature_text(self, path: str | os.PathLike[str]) -> Any:
        """The slice of a GeoJSON file's features to read: None, every one (as
        :meth:`features`)."""
        return None

    def close(self) -> None:
        """Forget every table not taken and stop the thread."""
        self._jobs.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
