"""Corners and access points: each needs a marker of its ring near it.

The markers that can serve a place on a ring are the two beside it along the ring; finding them
is a sorted search (no spatial index, no geometry), so it scales with the number of markers.
"""

from __future__ import annotations

import numpy as np

from posting.index import search_slices

__all__ = ["ring_neighbours"]


def ring_neighbours(
    point_ring: np.ndarray,
    point_position_ft: np.ndarray,
    marker_ring: np.ndarray,
    marker_position_ft: np.ndarray,
    ring_length_ft: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The markers on either side of each point along its ring, and how far along they are.

    The marker *before* a point is the last one at or before it along the ring (wrapping past
    the ring's start), the marker *after* it the first one beyond it. A marker exactly at the
    point counts as before it.

    Returns
    -------
    before, after
        Indices into the marker arrays (-1 when the ring has no marker).
    before_ft, after_ft
        Distances along the ring from the point back to ``before`` and on to ``after``
        (``inf`` when the ring has no marker). With one marker on the ring, ``before`` and
        ``after`` are the same marker.

    Examples
    --------
    A 400 ft ring with markers at 40 and 350 ft; a corner at 100 ft:

    >>> b, a, bd, ad = ring_neighbours(np.array([0]), np.array([100.0]), np.array([0, 0]),
    ...                                np.array([40.0, 350.0]), np.array([400.0]))
    >>> b.tolist(), a.tolist(), bd.tolist(), ad.tolist()
    ([0], [1], [60.0], [250.0])
    """
    n = len(point_ring)
    before = np.full(n, -1, dtype=np.int64)
    after = np.full(n, -1, dtype=np.int64)
    before_ft = np.full(n, np.inf)
    after_ft = np.full(n, np.inf)
    if n == 0 or len(marker_ring) == 0:
        return before, after, before_ft, after_ft
    length = np.asarray(ring_length_ft, dtype=float)
    mpos = np.asarray(marker_position_ft, dtype=float)
    mring = np.asarray(marker_ring, dtype=np.int64)
    pr = np.asarray(point_ring, dtype=np.int64)
    pp = np.asarray(point_position_ft, dtype=float)
    # markers by ring, then along it (then by index, as a stable sort leaves them: the ring
    # codes sorted stably by radix sort); a point's place among its ring's markers found by
    # exact comparison (markers at the point first): no float key that adds up ring lengths,
    # whose rounding would decide ties by the rings that come before
    by_pos = np.argsort(mpos, kind="stable")
    order = by_pos[np.argsort(mring[by_pos], kind="stable")]
    count = np.bincount(mring, minlength=len(length))
    first = np.r_[0, np.cumsum(count)[:-1]]
    has = count[pr] > 0
    lo, hi = first[pr], first[pr] + count[pr]
    j = search_slices(mpos[order], lo, hi, pp, side="right")
    j[np.isnan(pp)] = hi[np.isnan(pp)]  # a position unknown: after every marker, as sorted
    nxt = np.where(j < hi, j, lo)
    prv = np.where(j - 1 >= lo, j - 1, hi - 1)
    nxt, prv = np.where(has, nxt, 0), np.where(has, prv, 0)
    L = length[pr]
    before_ft[has] = np.mod(pp - mpos[order][prv], L)[has]
    after_ft[has] = np.mod(mpos[order][nxt] - pp, L)[has]
    same = has & (nxt == prv)
    after_ft[same & (after_ft == 0)] = L[same & (after_ft == 0)]
    before[has] = order[prv][has]
    after[has] = order[nxt][has]
    return before, after, before_ft, after_ft
