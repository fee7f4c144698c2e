"""Corners: each corner of a boundary needs a marker of the same parcel near it."""

from __future__ import annotations

import numpy as np
import shapely

__all__ = ["nearest_marker_within", "neighbour_distance"]


def nearest_marker_within(
    corner_x: np.ndarray,
    corner_y: np.ndarray,
    corner_parcel: np.ndarray,
    marker_x: np.ndarray,
    marker_y: np.ndarray,
    marker_parcel: np.ndarray,
    radius_ft: float,
) -> np.ndarray:
    """Distance from each corner to the nearest marker of its own parcel within ``radius_ft``.

    Returns ``inf`` for a corner with no such marker. Markers of other parcels never count:
    the neighbour's sign across the line does not post this corner.

    Examples
    --------
    >>> nearest_marker_within(
    ...     np.array([0.0, 100.0]), np.array([0.0, 0.0]), np.array([0, 0]),
    ...     np.array([3.0, 100.0]), np.array([4.0, 10.0]), np.array([0, 1]), 30.0,
    ... ).tolist()
    [5.0, inf]
    """
    n = len(corner_x)
    out = np.full(n, np.inf)
    if n == 0 or len(marker_x) == 0:
        return out
    markers = shapely.points(marker_x, marker_y)
    corners = shapely.points(corner_x, corner_y)
    tree = shapely.STRtree(markers)
    ci, mi = tree.query(corners, predicate="dwithin", distance=radius_ft)
    same = np.asarray(corner_parcel)[ci] == np.asarray(marker_parcel)[mi]
    ci, mi = ci[same], mi[same]
    d = np.hypot(
        np.asarray(corner_x)[ci] - np.asarray(marker_x)[mi],
        np.asarray(corner_y)[ci] - np.asarray(marker_y)[mi],
    )
    np.minimum.at(out, ci, d)
    return out


def neighbour_distance(
    corner_ring: np.ndarray,
    corner_position_ft: np.ndarray,
    corner_x: np.ndarray,
    corner_y: np.ndarray,
    marker_ring: np.ndarray,
    marker_position_ft: np.ndarray,
    marker_x: np.ndarray,
    marker_y: np.ndarray,
    ring_length_ft: np.ndarray,
) -> np.ndarray:
    """Straight-line distance from each corner to the nearer of the two markers beside it.

    The markers beside a corner are the last one before it and the first one after it along
    its ring (wrapping past the ring's start). ``inf`` when the ring has no marker. Used to tell
    how far a missing corner is from posting, without a search radius.

    Examples
    --------
    >>> neighbour_distance(
    ...     np.array([0]), np.array([100.0]), np.array([100.0]), np.array([0.0]),
    ...     np.array([0, 0]), np.array([40.0, 350.0]), np.array([40.0, 0.0]),
    ...     np.array([0.0, 50.0]), np.array([400.0]),
    ... ).tolist()
    [60.0]
    """
    n = len(corner_ring)
    out = np.full(n, np.inf)
    if n == 0 or len(marker_ring) == 0:
        return out
    length = np.asarray(ring_length_ft, dtype=float)
    base = np.r_[0.0, np.cumsum(length + 1.0)[:-1]]
    mkey = base[marker_ring] + marker_position_ft
    order = np.argsort(mkey, kind="stable")
    mkey = mkey[order]
    mring = np.asarray(marker_ring)[order]
    count = np.bincount(mring, minlength=len(length))
    first = np.r_[0, np.cumsum(count)[:-1]]
    has = count[corner_ring] > 0
    j = np.searchsorted(mkey, base[corner_ring] + corner_position_ft, side="left")
    lo, hi = first[corner_ring], first[corner_ring] + count[corner_ring]
    nxt = np.where(j < hi, j, lo)  # wrap to the ring's first marker
    prv = np.where(j - 1 >= lo, j - 1, hi - 1)  # wrap to the ring's last marker
    nxt, prv = np.where(has, nxt, 0), np.where(has, prv, 0)
    mx, my = np.asarray(marker_x)[order], np.asarray(marker_y)[order]
    d = np.minimum(
        np.hypot(mx[nxt] - corner_x, my[nxt] - corner_y),
        np.hypot(mx[prv] - corner_x, my[prv] - corner_y),
    )
    out[has] = d[has]
    return out
