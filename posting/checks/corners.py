"""Corners and access points: each needs a marker of its ring near it.

The markers that can serve a place on a ring are the two beside it along the ring; finding them
is a sorted search (no spatial index, no geometry), so it scales with the number of markers.
"""

from __future__ import annotations

import numpy as np

from posting.index import search_slices

__all__ = ["along_rings", "ring_neighbours"]


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
    # markers by ring, then along it, then by index; a point's place among its ring's markers
    # found by exact comparison (markers at the point first): no float key that adds up ring
    # lengths decides, whose rounding would decide ties by the rings that come before
    order = along_rings(mring, mpos, length)
    count = np.bincount(mring, minlength=len(length))
    first = np.r_[0, np.cumsum(count)[:-1]]
    has = count[pr] > 0
    lo, hi = first[pr], first[pr] + count[pr]
    spos = mpos[order]
    j = _search_rings(spos, mring[order], length, lo, hi, pr, pp)
    j[np.isnan(pp)] = hi[np.isnan(pp)]  # a position unknown: after every marker, as sorted
    nxt = np.where(j < hi, j, lo)
    prv = np.where(j - 1 >= lo, j - 1, hi - 1)
    nxt, prv = np.where(has, nxt, 0), np.where(has, prv, 0)
    L = length[pr]
    before_ft[has] = np.mod(pp - spos[prv], L)[has]
    after_ft[has] = np.mod(spos[nxt] - pp, L)[has]
    same = has & (nxt == prv)
    after_ft[same & (after_ft == 0)] = L[same & (after_ft == 0)]
    before[has] = order[prv][has]
    after[has] = order[nxt][has]
    return before, after, before_ft, after_ft


def along_rings(
    ring: np.ndarray, position_ft: np.ndarray, ring_length_ft: np.ndarray
) -> np.ndarray:
    """The order of markers by ring, then along it, then by index (a position unknown last).

    One stable sort on a float key, the rings laid end to end 1 ft apart: markers read from a
    file usually come ring by ring, each ring's laid out or surveyed along it one way or the
    other, and the sort then takes little more than a pass (a tenth of the time of sorting
    by position, then by ring). The order is then checked exactly; the rings the key's
    rounding put out of order (two positions a hair apart as one) are sorted again exactly.

    >>> along_rings(np.array([1, 0, 1, 0]), np.array([5.0, 7.0, 2.0, 7.0]), np.ones(2)).tolist()
    [1, 3, 2, 0]
    """
    ring = np.asarray(ring, dtype=np.int64)
    pos = np.asarray(position_ft, dtype=float)
    length = np.asarray(ring_length_ft, dtype=float)
    base = np.r_[0.0, np.cumsum(length + 1.0)[:-1]] if len(length) else length
    with np.errstate(invalid="ignore"):
        order = np.argsort(base[ring] + pos, kind="stable")
    if len(order) < 2:
        return order
    r, p = ring[order], pos[order]
    same = r[1:] == r[:-1]
    with np.errstate(invalid="ignore"):
        later = order[1:] > order[:-1]
        unknown = np.isnan(p)
        along = (p[1:] > p[:-1]) | ((p[1:] == p[:-1]) & later)
        along |= unknown[1:] & (~unknown[:-1] | later)
        right = (r[1:] > r[:-1]) | (same & along)
    if right.all():
        return order
    if not (same | (r[1:] > r[:-1])).all():  # rings out of order: sort exactly
        by_pos = np.argsort(pos, kind="stable")
        return by_pos[np.argsort(ring[by_pos], kind="stable")]
    redo = np.zeros(int(r[-1]) + 1, dtype=bool)
    redo[r[1:][~right]] = True
    at = np.flatnonzero(redo[r])  # the markers of the rings out of order, ring by ring
    order[at] = order[at][np.lexsort((order[at], p[at], r[at]))]
    return order


def _search_rings(
    spos: np.ndarray,
    sring: np.ndarray,
    length: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    pr: np.ndarray,
    pp: np.ndarray,
) -> np.ndarray:
    """For each point, the first of its ring's markers (``lo:hi`` of the markers in ring order,
    at ``spos`` along rings ``sring``) beyond its position ``pp``: where ``search_slices``
    would put it (``side="right"``).

    One search of all points at once on a float key (the rings laid end to end, 1 ft apart),
    each answer then checked exactly (the marker before it at or before the point, the one at
    it beyond); the few the key's rounding misplaced are searched ring by ring.
    """
    base = np.r_[0.0, np.cumsum(length + 1.0)[:-1]] if len(length) else length
    with np.errstate(invalid="ignore"):
        j = np.searchsorted(base[sring] + spos, base[pr] + pp, side="right")
    j = np.clip(j, lo, hi)
    last = max(len(spos) - 1, 0)
    below = spos[np.clip(j - 1, 0, last)] if len(spos) else np.zeros(len(j))
    above = spos[np.minimum(j, last)] if len(spos) else np.zeros(len(j))
    right = ((j == lo) | (below <= pp)) & ((j == hi) | ~(above <= pp))
    wrong = np.flatnonzero(~right)
    if len(wrong):
        j[wrong] = search_slices(spos, lo[wrong], hi[wrong], pp[wrong], side="right")
    return j
