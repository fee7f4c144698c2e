"""Spacing: gaps between consecutive markers along each boundary ring.

Markers are placed on their ring by arc position. Gaps run from each marker to the next along
the ring, including the wrap-around gap from the last marker back to the first, so the gaps of
a ring always sum to its length. A ring with one marker has one gap, its whole length; a ring
with none is unmarked along its whole length.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from posting.checks.corners import along_rings

if TYPE_CHECKING:
    from posting.boundary import Corners, _Vertices

__all__ = ["TIE_FT", "CornerReach", "Gaps", "corner_reach", "measured_gap", "ring_gaps"]


@dataclass(frozen=True)
class Gaps:
    """Gaps along rings.

    Attributes
    ----------
    ring
        Ring of each gap.
    start_ft
        Arc position where the gap starts (its first marker); 0 for an unmarked ring.
    length_ft
        Length along the ring, from the start marker forward to the next marker.
    start_marker, end_marker
        Indices (into the arrays given to :func:`ring_gaps`) of the markers bounding the
        gap; -1 for an unmarked ring. Equal for a ring with one marker.
    """

    ring: np.ndarray
    start_ft: np.ndarray
    length_ft: np.ndarray
    start_marker: np.ndarray
    end_marker: np.ndarray

    def __len__(self) -> int:
        return len(self.ring)

    @property
    def unmarked(self) -> np.ndarray:
        """True for a gap that is a whole ring without markers."""
        return self.start_marker < 0


def ring_gaps(marker_ring: np.ndarray, position_ft: np.ndarray, ring_length_ft: np.ndarray) -> Gaps:
    """All gaps of all rings.

    Parameters
    ----------
    marker_ring
        Ring index of each marker.
    position_ft
        Arc position of each marker along its ring, in ``[0, ring length]``.
    ring_length_ft
        Length of every ring (index = ring).

    Examples
    --------
    Three markers on a 1,000 ft ring at 100, 400 and 700 ft: gaps of 300, 300 and the
    wrap-around 400 ft (700 -> 1,000 -> 100).

    >>> g = ring_gaps(np.array([0, 0, 0]), np.array([700.0, 100.0, 400.0]), np.array([1000.0]))
    >>> g.length_ft.tolist(), g.start_marker.tolist(), g.end_marker.tolist()
    ([300.0, 300.0, 400.0], [1, 2, 0], [2, 0, 1])
    """
    marker_ring = np.asarray(marker_ring, dtype=np.int64)
    position_ft = np.asarray(position_ft, dtype=float)
    length = np.asarray(ring_length_ft, dtype=float)
    n_rings = len(length)
    # by ring, then along it, then in input order, compared exactly: a float key of the rings
    # laid end to end rounds a position by the length of every ring before, which a partition
    # of the parcels has fewer of (two markers a hair apart came in either order)
    order = along_rings(marker_ring, position_ft, length)
    r = marker_ring[order]
    s = np.clip(position_ft[order], 0.0, length[r] if len(r) else 0.0)
    same = r[:-1] == r[1:]
    # consecutive gaps within a ring
    inner_start = np.flatnonzero(same)
    # wrap-around gap: last marker of each ring to its first
    is_first = np.r_[True, ~same] if len(r) else np.empty(0, bool)
    is_last = np.r_[~same, True] if len(r) else np.empty(0, bool)
    firsts, lasts = np.flatnonzero(is_first), np.flatnonzero(is_last)
    marked = np.zeros(n_rings, dtype=bool)
    marked[r] = True
    unmarked = np.flatnonzero(~marked)

    ring = np.concatenate([r[inner_start], r[lasts], unmarked])
    start_ft = np.concatenate([s[inner_start], s[lasts], np.zeros(len(unmarked))])
    length_ft = np.concatenate(
        [
            s[inner_start + 1] - s[inner_start],
            length[r[lasts]] - s[lasts] + s[firsts],
            length[unmarked],
        ]
    )
    start_marker = np.concatenate([order[inner_start], order[lasts], np.full(len(unmarked), -1)])
    end_marker = np.concatenate([order[inner_start + 1], order[firsts], np.full(len(unmarked), -1)])
    # in ring order, then along the ring
    o = along_rings(ring, start_ft, length)
    return Gaps(
        ring[o],
        start_ft[o],
        length_ft[o],
        start_marker[o].astype(np.int64),
        end_marker[o].astype(np.int64),
    )


def measured_gap(along_ft: np.ndarray, straight_ft: np.ndarray, metric: str) -> np.ndarray:
    """The figure a profile compares with its spacing limit.

    ``along_boundary`` (Florida's "along"), ``straight`` (a straight line between the two
    markers), or ``either`` (the more lenient of the two, for statutes that only say "apart").
    A gap bounded by one marker (a ring with one marker) has no straight-line length; its
    along-boundary length is used.
    """
    along_ft = np.asarray(along_ft, dtype=float)
    straight = np.where(np.isfinite(straight_ft), straight_ft, along_ft)
    if metric == "along_boundary":
        return along_ft
    if metric == "straight":
        return straight
    if metric == "either":
        return np.minimum(along_ft, straight)
    raise ValueError(f"unknown spacing metric {metric!r}")


@dataclass(frozen=True)
class CornerReach:
    """How far along its ring each marker posts beyond its recorded position, round a corner.

    A marker set back inside a corner has a foot on each of the corner's two sides. Where it
    is as near one side as the other, both are its place on the boundary: the gap on each side
    runs to the foot on that side (a sign 3 ft inside a square corner on its bisector stands
    497 ft along the line from a sign 500 ft from the corner on either side, not 497 ft on
    one side and 503 ft on the other, as one foot made it).

    Attributes
    ----------
    behind_ft, ahead_ft
        Per marker, how far back and ahead of its position along the ring its other foot is
        (0 for most markers).
    sure
        Per marker, True where both feet are equally near (within :data:`TIE_FT`): the other
        foot is as much the marker's place as the one it was given. False where they are
        only as near within the stated accuracy, which might make either foot the nearer: a
        gap that turns on it is uncertain.
    """

    behind_ft: np.ndarray
    ahead_ft: np.ndarray
    sure: np.ndarray


TIE_FT = 0.01
"""Two feet of a marker this close in distance are equally near: its place is either one."""


def corner_reach(
    v: _Vertices,
    corners: Corners | None,
    beside: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    position_ft: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    distance_ft: np.ndarray,
    *,
    tie_ft: float = TIE_FT,
    reach_ft: float = 30.0,
) -> CornerReach:
    """Each marker's feet on the two sides of a corner beside it (:class:`CornerReach`).

    Parameters
    ----------
    v
        The rings' vertex table (:func:`posting.boundary.ring_vertices`).
    corners
        The rings' corners (:class:`posting.boundary.Corners`); only those at a vertex of the
        ring (not a rounded corner, whose sides are curves) are asked.
    beside
        The markers before and after each corner along its ring and how far along they are
        (:func:`posting.checks.corners.ring_neighbours` of the corners among the markers).
    position_ft, x, y, distance_ft
        Per marker: its position along its ring (its nearest foot), where it stands and how
        far from the ring, in working feet.
    tie_ft
        How nearly equal the distances to the two sides must be for the other foot to count
        (at least :data:`TIE_FT`; twice the stated accuracy where one is stated).
    reach_ft
        Only markers within this distance along the ring of a corner are asked (the corner
        tolerance: a marker farther along is no corner's marker).

    Notes
    -----
    A foot counts only where it lies on the side itself (not on its extension past the
    corner, as for a marker outside a convex corner, whose nearest point is the corner) and is
    as near as the marker's nearest point on its ring. Vectorised: the markers beside each
    corner, off their line, are paired with it, and their feet found with numpy.
    """
    from posting.boundary import _ring_search

    n = len(position_ft)
    behind, ahead = np.zeros(n), np.zeros(n)
    sure = np.ones(n, dtype=bool)
    tie_ft = max(float(tie_ft), TIE_FT)
    if not n or corners is None or not len(corners):
        return CornerReach(behind, ahead, sure)
    dist = np.asarray(distance_ft, dtype=float)
    b, a, bft, aft = beside
    near_b = np.flatnonzero((b >= 0) & (bft <= reach_ft))
    near_a = np.flatnonzero((a >= 0) & (aft <= reach_ft) & (a != b))
    pc, pm = np.r_[near_b, near_a], np.r_[b[near_b], a[near_a]]
    e = np.r_[bft[near_b], aft[near_a]]  # along the ring from the corner to the marker's foot
    # a marker as near both sides of a corner whose sides meet at the angle t stands where its
    # foot is d / tan(t / 2) from the corner, d its distance: the pairs far from that are
    # dropped before any geometry is looked at. The corner's turn is measured on the ring
    # rid of its digitising noise, a few degrees off the sides' own angle at times: the band
    # kept allows some 3 degrees. A marker on its line has one foot.
    d = dist[pm]
    inner = np.radians(180.0 - np.minimum(np.abs(np.asarray(corners.turn_deg)[pc]), 179.0))
    slip = np.abs(e * np.sin(inner) - d * (1.0 + np.cos(inner)))
    near = (d > TIE_FT) & (slip <= tie_ft + 0.05 * (e + d) + 0.01)
    pc, pm = pc[near], pm[near]
    if not len(pc):
        return CornerReach(behind, ahead, sure)
    # each corner's vertex: the ring's vertex at the corner's point
    cring = np.asarray(corners.ring, dtype=np.int64)[pc]
    cpos = np.asarray(corners.position_ft, dtype=float)[pc]
    cx, cy = np.asarray(corners.x)[pc], np.asarray(corners.y)[pc]
    first = v.start[cring]
    last = first + np.maximum(v.count[cring], 1) - 1
    j = np.clip(_ring_search(v, cring, cpos, "left"), first, last + 1)
    j = np.where(j > last, first, j)  # at the ring's end: its first vertex
    jb = np.where(j > first, j - 1, last)
    off = np.hypot(v.xy[j, 0] - cx, v.xy[j, 1] - cy)
    off_b = np.hypot(v.xy[jb, 0] - cx, v.xy[jb, 1] - cy)
    j = np.where(off_b < off, jb, j)
    keep = (np.minimum(off, off_b) <= 1e-6 + 1e-12 * np.abs(cx)) & (v.count[cring] >= 3)
    pc, pm, j, first, last = pc[keep], pm[keep], j[keep], first[keep], last[keep]
    cring, cpos = cring[keep], cpos[keep]
    if not len(pc):
        return CornerReach(behind, ahead, sure)
    k = j
    prev = np.where(k > first, k - 1, last)
    nxt = np.where(k < last, k + 1, first)
    px, py = v.xy[prev].T
    vx, vy = v.xy[k].T
    nx, ny = v.xy[nxt].T
    mx, my = np.asarray(x, dtype=float)[pm], np.asarray(y, dtype=float)[pm]
    len_in, len_out = np.hypot(vx - px, vy - py), np.hypot(nx - vx, ny - vy)
    ok = (len_in > 0) & (len_out > 0)
    li, lo = np.where(ok, len_in, 1.0), np.where(ok, len_out, 1.0)
    uix, uiy = (vx - px) / li, (vy - py) / li
    uox, uoy = (nx - vx) / lo, (ny - vy) / lo
    t_in = (mx - px) * uix + (my - py) * uiy  # along the side coming in, from its start
    d_in = np.abs((mx - px) * uiy - (my - py) * uix)
    t_out = (mx - vx) * uox + (my - vy) * uoy  # along the side going out, from the corner
    d_out = np.abs((mx - vx) * uoy - (my - vy) * uox)
    nearest = dist[pm]
    both = (
        ok
        & (t_in >= 0)
        & (t_in <= len_in)
        & (t_out >= 0)
        & (t_out <= len_out)
        & (np.abs(d_in - d_out) <= tie_ft)
        & (np.minimum(d_in, d_out) <= nearest + TIE_FT)
    )
    if not both.any():
        return CornerReach(behind, ahead, sure)
    pm, t_in, t_out, len_in = pm[both], t_in[both], t_out[both], len_in[both]
    tie = np.abs(d_in - d_out)[both] <= TIE_FT
    # the marker's position from the corner (signed, the short way round its ring)
    L = v.length[cring[both]]
    ds = np.mod(np.asarray(position_ft, dtype=float)[pm] - cpos[both] + L / 2, L) - L / 2
    back = np.maximum(ds + (len_in - t_in), 0.0)  # to the foot on the side coming in
    on = np.maximum(t_out - ds, 0.0)  # to the foot on the side going out
    np.maximum.at(behind, pm, back)
    np.maximum.at(ahead, pm, on)
    unsure = np.zeros(n, dtype=bool)
    unsure[pm[~tie & ((back > 0) | (on > 0))]] = True
    return CornerReach(behind, ahead, ~unsure)
