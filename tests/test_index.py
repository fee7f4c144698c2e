"""The grid join of points to boxes, against the obvious double loop."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from posting.index import BoxGrid, points_in_boxes, points_near, unique_ints


def brute(boxes, x, y):
    return {
        (i, j)
        for i in range(len(x))
        for j, (x0, y0, x1, y1) in enumerate(boxes)
        if x0 <= x[i] <= x1 and y0 <= y[i] <= y1
    }


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**16))
def test_pairs_match_the_double_loop(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 60))
    # sizes over four orders of magnitude: several grid levels
    size = 10 ** rng.uniform(0, 4, (n, 2))
    x0, y0 = rng.uniform(-5000, 5000, n), rng.uniform(-5000, 5000, n)
    boxes = np.column_stack([x0, y0, x0 + size[:, 0], y0 + size[:, 1]])
    x, y = rng.uniform(-6000, 16000, 300), rng.uniform(-6000, 16000, 300)
    # some points exactly on box edges and corners, and a missing one
    k = rng.integers(0, n, 40)
    x[:40], y[:40] = boxes[k, 0], boxes[k, 1]
    x[40:80], y[40:80] = boxes[k, 2], rng.uniform(boxes[k, 1], boxes[k, 3])
    x[80] = np.nan
    pt, box = points_in_boxes(boxes, x, y)
    got = list(zip(pt.tolist(), box.tolist(), strict=True))
    assert len(got) == len(set(got))
    assert set(got) == brute(boxes, x, y)


def test_pairs_of_a_level_come_by_point_then_box():
    boxes = np.array([[0, 0, 10, 10], [0, 0, 10, 10], [5, 5, 8, 8]], dtype=float)
    pt, box = BoxGrid(boxes).query(np.array([6.0, 1.0]), np.array([6.0, 1.0]))
    assert list(zip(pt.tolist(), box.tolist(), strict=True)) == [
        (0, 0),
        (0, 1),
        (0, 2),
        (1, 0),
        (1, 1),
    ]


def test_degenerate_and_missing_boxes_are_never_matched():
    boxes = np.array([[0, 0, 10, 10], [np.nan, 0, 1, 1], [5, 5, 5, 5], [3, 3, 2, 2]])
    pt, box = points_in_boxes(boxes, np.array([5.0, 2.5]), np.array([5.0, 2.5]))
    assert sorted(zip(pt.tolist(), box.tolist(), strict=True)) == [(0, 0), (0, 2), (1, 0)]


def test_no_boxes_and_no_points():
    e = np.empty(0)
    assert [len(a) for a in points_in_boxes(np.empty((0, 4)), np.ones(3), np.ones(3))] == [0, 0]
    assert [len(a) for a in points_in_boxes(np.array([[0, 0, 1, 1.0]]), e, e)] == [0, 0]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from([0.0, 0.5, 3.0, 30.0]),
    st.integers(0, 300),
    st.integers(0, 300),
)
def test_points_near_matches_a_grid_of_their_boxes(seed, reach, n_points, n_queries):
    """The oracle: a BoxGrid of each point's box grown by the reach (as the corner check built
    it), and the double loop; points on a lattice of the reach's halves put queries exactly on
    box edges and corners."""
    rng = np.random.default_rng(seed)
    step = max(reach, 1.0) / 2
    x = rng.integers(-40, 40, n_points) * step + rng.choice([0.0, 1e-9], n_points)
    y = rng.integers(-40, 40, n_points) * step
    qx = rng.integers(-40, 40, n_queries) * step
    qy = rng.integers(-40, 40, n_queries) * step + rng.choice([0.0, -1e-9], n_queries)
    if n_points:
        x[rng.random(n_points) < 0.05] = np.nan
    q, p = points_near(x, y, qx, qy, reach)
    boxes = np.column_stack([x - reach, y - reach, x + reach, y + reach])
    bq, bp = BoxGrid(boxes).query(qx, qy)
    pairs = sorted(zip(q.tolist(), p.tolist(), strict=True))
    assert pairs == sorted(zip(bq.tolist(), bp.tolist(), strict=True))
    loop = [
        (i, j)
        for i in range(n_queries)
        for j in range(n_points)
        if x[j] - reach <= qx[i] <= x[j] + reach and y[j] - reach <= qy[i] <= y[j] + reach
    ]
    assert list(zip(q.tolist(), p.tolist(), strict=True)) == loop  # by query, then point


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16), side=st.sampled_from(["left", "right"]))
def test_search_slices_is_searchsorted_in_each_slice(seed, side):
    """Each search gives what ``np.searchsorted`` gives in its own slice, offset by the slice's
    start: slices of one value, of a thousand, empty ones, repeated values, and values asked
    that are in the slice, before it and past it."""
    from posting.index import search_slices

    rng = np.random.default_rng(seed)
    counts = rng.choice([0, 1, 2, 5, 8, 40, 1000], 60)
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    values = np.concatenate([np.sort(rng.integers(0, 50, c)).astype(float) for c in counts])
    pick = rng.integers(0, len(counts), 500)
    lo, hi = starts[pick], starts[pick] + counts[pick]
    x = rng.integers(-5, 56, 500).astype(float)
    got = search_slices(values, lo, hi, x, side)
    want = [a + np.searchsorted(values[a:b], v, side) for a, b, v in zip(lo, hi, x, strict=True)]
    assert got.tolist() == want


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.integers(-(2**62), 2**62), max_size=300),
    dtype=st.sampled_from([np.int64, np.int32, np.uint32]),
)
def test_unique_ints_is_numpys_unique(values, dtype):
    a = np.asarray(values, dtype=np.int64)
    if dtype is not np.int64:
        a = (a % 2**31).astype(dtype)
    got, want = unique_ints(a), np.unique(a)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(unique_ints(a.reshape(-1, 1)), want)  # flattened, as numpy
