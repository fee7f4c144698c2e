"""Which boxes hold which points: a bulk join on bare coordinates (no geometries).

A million surveyed markers arrive as coordinate arrays. Shapely's STRtree can only be asked
with geometries, and making a million Point objects first costs more than the whole join
below (about 0.6 s per million on the benchmark machine, holding the GIL). So points are
joined to boxes here with sorted grid keys and ``numpy.searchsorted``.

The grid has levels, as a loose quadtree does: a box goes to the level whose cells are at
least half as large as the box, so it touches at most 3 x 3 cells there, and a huge parcel next
to a street of house lots neither floods the small cells nor forces large cells on the lots.
A level's cells are looked up in a dense offset table when it is not much larger than the
level's entries, else by one binary search among the cells that hold boxes.
"""

from __future__ import annotations

import numpy as np

from posting.parallel import pmap

__all__ = [
    "BoxGrid",
    "exclusive_cumsum",
    "expand_counts",
    "points_in_boxes",
    "points_near",
    "search_slices",
    "unique_ints",
]


def unique_ints(values: np.ndarray) -> np.ndarray:
    """The distinct values of an integer array, ascending, flattened: ``np.unique(values)``, by
    a sort.

    NumPy 2.4's ``np.unique`` (without ``return_*``) finds the distinct values in a hash table:
    0.5 s for a million distinct integers on the benchmark machine, where sorting them takes
    6 ms (and 0.01 s against 3 ms for a million values of a hundred kinds).

    >>> unique_ints(np.array([3, 1, 3, 2])).tolist()
    [1, 2, 3]
    """
    s = np.sort(np.asarray(values).ravel())
    if len(s) < 2:
        return s
    return s[np.r_[True, s[1:] != s[:-1]]]


def exclusive_cumsum(a: np.ndarray) -> np.ndarray:
    """Sum of the items before each one (0 for the first), as int64.

    >>> exclusive_cumsum(np.array([2, 0, 3])).tolist()
    [0, 2, 2]
    """
    out = np.zeros(len(a), dtype=np.int64)
    if len(a) > 1:
        np.cumsum(a[:-1], out=out[1:])
    return out


def expand_counts(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For items with ``counts[i]`` entries each: the item of each entry and its rank in it.

    >>> [a.tolist() for a in expand_counts(np.array([2, 0, 3]))]
    [[0, 0, 2, 2, 2], [0, 1, 0, 1, 2]]
    """
    counts = np.asarray(counts, dtype=np.int64)
    item = np.repeat(np.arange(len(counts)), counts)
    rank = np.arange(len(item)) - np.repeat(exclusive_cumsum(counts), counts)
    return item, rank


CELL_SPLIT = 2.0
"""Cells per largest box side at a level: 2 makes a box touch at most 3 x 3 cells, and a point
meets about half as many candidate boxes as with 1 (measured on the benchmark county)."""

BASE_PERCENTILE = 75.0
"""Level 0 cells are sized on this percentile of the box sizes (measured best of 50, 75, 90
on the benchmark county: the 75th makes fewer levels without crowding the smallest cells)."""

QUERY_CHUNK = 1 << 15
"""Points asked about at a time: each (point, candidate box) pair costs a few arrays' worth,
which for a chunk stay small enough to be reused rather than mapped afresh (a county's two
million markers at once made ten times as many pairs, in arrays of hundreds of MB that each
call faulted in page by page)."""

DENSE_CELLS = 1 << 24
"""A level with at most this many cells (and not many more than its entries) looks cells up in
a dense offset table; a sparser one (points spread over a state) uses binary search."""


class BoxGrid:
    """Boxes placed on a multi-level grid, ready to be asked which of them hold given points.

    Level ``L`` has square cells of ``base * 2**L / CELL_SPLIT``, where ``base`` is the median
    box size; a box goes to the lowest level whose ``base * 2**L`` is at least its size.

    Parameters
    ----------
    boxes
        ``(n, 4)`` array of ``xmin, ymin, xmax, ymax``; rows with a NaN are never matched.
    """

    def __init__(self, boxes: np.ndarray) -> None:
        boxes = np.asarray(boxes, dtype=float).reshape(-1, 4)
        bx0, by0, bx1, by1 = (np.ascontiguousarray(boxes[:, k]) for k in range(4))
        with np.errstate(invalid="ignore"):
            ok = np.isfinite(boxes).all(axis=1) & (bx1 >= bx0) & (by1 >= by0)
        self.levels: list[tuple] = []
        idx = np.flatnonzero(ok)
        if len(idx) == 0:
            return
        b = boxes[idx]
        size = np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1])
        base = float(np.percentile(size, BASE_PERCENTILE))
        if not base > 0:
            base = float(size.max()) if size.max() > 0 else 1.0
        level = np.ceil(np.log2(np.maximum(size, base) / base)).astype(np.int64)
        for lev in unique_ints(level):
            sel = level == lev
            cell = base * 2.0**lev / CELL_SPLIT
            bi, bb = idx[sel], b[sel]
            x0, y0 = float(bb[:, 0].min()), float(bb[:, 1].min())
            cx0 = np.floor((bb[:, 0] - x0) / cell).astype(np.int64)
            cy0 = np.floor((bb[:, 1] - y0) / cell).astype(np.int64)
            nx = np.floor((bb[:, 2] - x0) / cell).astype(np.int64) - cx0 + 1
            ny = np.floor((bb[:, 3] - y0) / cell).astype(np.int64) - cy0 + 1
            rows = int((cy0 + ny).max())
            cols = int((cx0 + nx).max())
            item, rank = expand_counts(nx * ny)
            key = (cx0[item] + rank // ny[item]) * rows + cy0[item] + rank % ny[item]
            order = np.argsort(key, kind="stable")  # within a cell: boxes in input order
            key, box = key[order], bi[item[order]]
            if cols * rows <= min(DENSE_CELLS, 8 * len(key) + 1_000_000):
                offsets = np.zeros(cols * rows + 1, dtype=np.int64)
                np.cumsum(np.bincount(key, minlength=cols * rows), out=offsets[1:])
                key = None
            else:  # the cells that hold boxes, and where each one's boxes start
                new = np.r_[True, key[1:] != key[:-1]]
                offsets = np.r_[np.flatnonzero(new), len(key)]
                key = key[new]
            # the boxes' bounds in the level's order, entry by entry, so that a cell's boxes
            # are read in one run (not gathered from all the boxes: 0.59 -> 0.47 s of CPU for
            # the real-shapes county's 2.0 million markers among its 339,040 ring pieces)
            bounds = (bx0[box], by0[box], bx1[box], by1[box])
            self.levels.append((cell, x0, y0, cols, rows, key, box, offsets, bounds))

    def query(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every (point, box) pair with the point inside the box or on its edge.

        Pairs come by chunk of points, then level by level; within a level they are ordered
        by point, then by box. Points with a NaN coordinate match nothing.

        Examples
        --------
        >>> grid = BoxGrid(np.array([[0, 0, 10, 10], [5, 5, 500, 500], [20, 0, 30, 10]]))
        >>> pt, box = grid.query(np.array([6.0, 25.0, 100.0, -1.0]), np.array([6.0, 5.0, 7.0, 0.0]))
        >>> sorted(zip(pt.tolist(), box.tolist()))
        [(0, 0), (0, 1), (1, 1), (1, 2), (2, 1)]
        """
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        return pmap(self._query, np.arange(len(x)), x, y)  # in chunks of points, on all cores

    def _query(
        self, ids: np.ndarray, x: np.ndarray, y: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        pts, hits = [], []
        for lo in range(0, len(x), QUERY_CHUNK):
            sl = slice(lo, lo + QUERY_CHUNK)
            pt, bx = self._query_chunk(ids[sl], x[sl], y[sl])
            pts.append(pt)
            hits.append(bx)
        if not pts:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
        return np.concatenate(pts), np.concatenate(hits)

    def _query_chunk(
        self, ids: np.ndarray, x: np.ndarray, y: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        pts, hits = [], []
        for cell, x0, y0, cols, rows, key, box, offsets, bounds in self.levels:
            with np.errstate(invalid="ignore"):
                fx = np.floor((x - x0) / cell)
                fy = np.floor((y - y0) / cell)
                p = np.flatnonzero((fx >= 0) & (fy >= 0) & (fx < cols) & (fy < rows))
            k = fx[p].astype(np.int64) * rows + fy[p].astype(np.int64)
            if key is None:
                lo = offsets[k]
                n = offsets[k + 1] - lo
            else:  # a cell's place among the cells that hold boxes, if it is one of them
                at = np.minimum(np.searchsorted(key, k), len(key) - 1)
                lo = offsets[at]
                n = np.where(key[at] == k, offsets[at + 1] - lo, 0)
            # the (point, box) pairs: their points, and their entries in the level (a cell's
            # run of entries from its first)
            pt = np.repeat(p, n)
            at = np.repeat(lo - exclusive_cumsum(n), n)
            at += np.arange(len(at))
            bx0, by0, bx1, by1 = bounds
            px, py = np.repeat(x[p], n), np.repeat(y[p], n)
            keep = (px >= bx0[at]) & (px <= bx1[at]) & (py >= by0[at])
            keep &= py <= by1[at]
            keep = np.flatnonzero(keep)
            pts.append(ids[pt[keep]])
            hits.append(box[at[keep]])
        if not pts:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
        return np.concatenate(pts), np.concatenate(hits)


def search_slices(
    values: np.ndarray, lo: np.ndarray, hi: np.ndarray, x: np.ndarray, side: str = "left"
) -> np.ndarray:
    """``np.searchsorted`` of each ``x[i]`` in its own sorted slice ``values[lo[i]:hi[i]]``,
    as an index into ``values`` (``lo[i]`` to ``hi[i]``): the first place whose value is at
    or past ``x[i]`` (``side="left"``) or past it (``"right"``).

    A binary search in every slice at once, a step per halving, each step over the searches
    still open only (most slices, a lot's few vertices, close in a few steps; a forest lot's
    thousand take ten): values compared exactly, where one ``searchsorted`` over keys made of a
    slice's offset plus its value would round them by the offset (a ring's arc positions by the
    length of every ring before it).

    >>> values = np.array([0.0, 5.0, 5.0, 9.0, 1.0, 2.0])  # slices [0, 4) and [4, 6)
    >>> search_slices(values, np.array([0, 0, 4]), np.array([4, 4, 6]), np.array([5.0, 5.0, 3.0]))
    array([1, 1, 6])
    >>> search_slices(values, np.array([0]), np.array([4]), np.array([5.0]), side="right")
    array([3])
    """
    lo = np.asarray(lo, dtype=np.int64).copy()
    hi = np.asarray(hi, dtype=np.int64).copy()
    x = np.asarray(x, dtype=float)
    right = side == "right"
    last = max(len(values) - 1, 0)
    todo = np.flatnonzero(lo < hi)
    a, b, xt = lo[todo], hi[todo], np.broadcast_to(x, lo.shape)[todo]
    while len(todo):
        mid = (a + b) // 2
        at = values[np.minimum(mid, last)] if len(values) else np.zeros(len(mid))
        go = (at <= xt) if right else (at < xt)
        a = np.where(go, mid + 1, a)
        b = np.where(go, b, mid)
        done = a >= b
        if done.any():
            lo[todo[done]] = a[done]
            still = ~done
            todo, a, b, xt = todo[still], a[still], b[still], xt[still]
    return lo


def points_in_boxes(
    boxes: np.ndarray, x: np.ndarray, y: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Every (point, box) pair with the point inside the box or on its edge.

    Parameters
    ----------
    boxes
        ``(n, 4)`` array of ``xmin, ymin, xmax, ymax``.
    x, y
        Point coordinates.

    Examples
    --------
    >>> points_in_boxes(np.array([[0, 0, 1, 1]]), np.array([0.5, 2.0]), np.array([1.0, 0.0]))
    (array([0]), array([0]))
    """
    return BoxGrid(boxes).query(x, y)


def points_near(
    x: np.ndarray, y: np.ndarray, qx: np.ndarray, qy: np.ndarray, reach: float
) -> tuple[np.ndarray, np.ndarray]:
    """Every (query, point) pair whose query lies in the point's box grown by ``reach`` (edges
    included): the pairs ``BoxGrid([x - reach, y - reach, x + reach, y + reach]).query(qx, qy)``
    finds, in another order (by query, then point).

    Many points of one reach need no grid of boxes: each point goes to one square cell of twice
    the reach, and each query looks in the (at most four) cells its own box touches. A grid of
    1.6 million boxes took 1.3 s to build; sorting their points by cell takes a tenth of it.
    Points and queries with a NaN coordinate match nothing.

    Examples
    --------
    >>> q, p = points_near(np.array([0.0, 10.0, 3.0]), np.array([0.0, 0.0, 4.0]),
    ...                    np.array([2.0, 8.0]), np.array([2.0, 0.0]), 2.0)
    >>> list(zip(q.tolist(), p.tolist()))
    [(0, 0), (0, 2), (1, 1)]
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    qx, qy = np.asarray(qx, dtype=float), np.asarray(qy, dtype=float)
    empty = np.empty(0, dtype=np.int64)
    r = float(reach)
    with np.errstate(invalid="ignore"):
        pts = np.flatnonzero(np.isfinite(x) & np.isfinite(y))
        qs = np.flatnonzero(np.isfinite(qx) & np.isfinite(qy))
    if not len(pts) or not len(qs) or not r >= 0:
        return empty, empty
    cell = 2.0 * r if r > 0 else 1.0
    x0, y0 = float(x[pts].min()), float(y[pts].min())
    cx = np.floor((x[pts] - x0) / cell).astype(np.int64)
    cy = np.floor((y[pts] - y0) / cell).astype(np.int64)
    ny = int(cy.max()) + 1
    nx = int(cx.max()) + 1
    key = cx * ny + cy
    order = np.argsort(key, kind="stable")
    key, pts = key[order], pts[order]
    # the cells a query's box touches, a hair wider than the box (the box test decides)
    slack = 1e-6 * max(1.0, r)
    ix0 = np.floor((qx[qs] - r - slack - x0) / cell).astype(np.int64)
    ix1 = np.floor((qx[qs] + r + slack - x0) / cell).astype(np.int64)
    iy0 = np.floor((qy[qs] - r - slack - y0) / cell).astype(np.int64)
    iy1 = np.floor((qy[qs] + r + slack - y0) / cell).astype(np.int64)
    ix0, iy0 = np.maximum(ix0, 0), np.maximum(iy0, 0)
    ix1, iy1 = np.minimum(ix1, nx - 1), np.minimum(iy1, ny - 1)
    w, h = np.maximum(ix1 - ix0 + 1, 0), np.maximum(iy1 - iy0 + 1, 0)
    q, k = expand_counts(w * h)
    cells = (ix0[q] + k // h[q]) * ny + iy0[q] + k % h[q]
    lo = np.searchsorted(key, cells, side="left")
    n = np.searchsorted(key, cells, side="right") - lo
    item, rank = expand_counts(n)
    qi, pi = qs[q[item]], pts[lo[item] + rank]
    px, py, ox, oy = qx[qi], qy[qi], x[pi], y[pi]
    keep = (px >= ox - r) & (px <= ox + r) & (py >= oy - r) & (py <= oy + r)
    qi, pi = qi[keep], pi[keep]
    by = np.lexsort((pi, qi))
    return qi[by], pi[by]
