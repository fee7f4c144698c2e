"""Spacing: gaps between consecutive markers along each boundary ring.

Markers are placed on their ring by arc position. Gaps run from each marker to the next along
the ring, including the wrap-around gap from the last marker back to the first, so the gaps of
a ring always sum to its length. A ring with one marker has one gap, its whole length; a ring
with none is unmarked along its whole length.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from posting.checks.corners import along_rings

__all__ = ["Gaps", "measured_gap", "ring_gaps"]


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
