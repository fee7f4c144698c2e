"""posting.parallel: ``ahead`` gives every range once, in order, and stops when its caller does."""

from __future__ import annotations

import threading

from hypothesis import given, settings
from hypothesis import strategies as st

from posting import parallel


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 500), st.integers(1, 60), st.sampled_from([1, 2, 3]))
def test_ahead_covers_every_item_once_in_order(n, size, workers):
    parallel_workers = parallel.workers
    parallel.workers = lambda: workers  # how many threads the pool may use
    try:
        got = list(parallel.ahead(lambda lo, hi: (lo, hi), n, size))
    finally:
        parallel.workers = parallel_workers
    want = [(lo, min(lo + size, n)) for lo in range(0, n, size)]
    assert got == want


def test_ahead_stops_making_pieces_when_its_caller_stops(monkeypatch):
    monkeypatch.setattr(parallel, "workers", lambda: 2)
    made = []
    lock = threading.Lock()

    def piece(lo: int, hi: int) -> int:
        with lock:
            made.append(lo)
        return lo

    pieces = parallel.ahead(piece, 1_000, 1)
    assert next(pieces) == 0
    pieces.close()  # the caller is done: what has not started never does
    parallel._pool().submit(lambda: None).result()  # the pool has drained what was running
    assert len(made) <= 2 * 2 + 1  # at most two a thread ahead, and the one given
