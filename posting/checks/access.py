"""Access points: where roads, driveways and trails cross a boundary, and gates on it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely

__all__ = ["Crossings", "boundary_crossings"]


@dataclass(frozen=True)
class Crossings:
    """Access points on rings: ``ring``, ``feature`` (index into the access features),
    ``position_ft`` along the ring, and the point ``x``/``y``."""

    ring: np.ndarray
    feature: np.ndarray
    position_ft: np.ndarray
    x: np.ndarray
    y: np.ndarray

    def __len__(self) -> int:
        return len(self.ring)


def boundary_crossings(
    rings: np.ndarray, features: np.ndarray, *, gate_snap_ft: float, merge_ft: float = 1.0
) -> Crossings:
    """Points where access features meet boundary rings.

    A line (road, driveway, trail) gives a point wherever it crosses or touches a ring; where it
    runs along a ring it is not an entrance and gives nothing. A polygon is no access feature
    and gives nothing (reading a layer leaves it out with a warning:
    :data:`posting.job.POLYGON_ACCESS`). A point (a gate) within
    ``gate_snap_ft`` of a ring gives its projection onto the ring: a gate on a shared fence line
    is an access point of both parcels. Points on one ring closer than ``merge_ft`` along it are
    one access point.

    Examples
    --------
    >>> ring = shapely.get_exterior_ring(shapely.box(0, 0, 100, 100))
    >>> c = boundary_crossings(np.array([ring]),
    ...     np.array([shapely.LineString([(50, -20), (50, 20)]), shapely.Point(103, 50)]),
    ...     gate_snap_ft=10)
    >>> sorted(zip(c.x.tolist(), c.y.tolist()))
    [(50.0, 0.0), (100.0, 50.0)]
    """
    rings = np.asarray(rings, dtype=object)
    features = np.asarray(features, dtype=object)
    empty = Crossings(*(np.empty(0, dtype=t) for t in (np.int64, np.int64, float, float, float)))
    if len(rings) == 0 or len(features) == 0:
        return empty
    tree = shapely.STRtree(rings)
    kind = shapely.get_type_id(features)
    is_point = np.isin(kind, (0, 4))
    out_ring, out_feat, out_pts = [], [], []
    # (polygons left out: their intersections with a ring are its stretches inside them, and a
    # county's rights of way as one polygon cost 220 s for none)
    areal = np.isin(kind, (3, 6))
    lines = np.flatnonzero(~is_point & ~areal & ~shapely.is_empty(features))
    if len(lines):
        fi, ri = tree.query(features[lines], predicate="intersects")
        inter = shapely.intersection(rings[ri], features[lines][fi])
        parts, owner = shapely.get_parts(inter, return_index=True)
        pts = shapely.get_type_id(parts) == 0
        out_ring.append(ri[owner[pts]])
        out_feat.append(lines[fi[owner[pts]]])
        out_pts.append(parts[pts])
    gates = np.flatnonzero(is_point & ~shapely.is_empty(features))
    if len(gates):
        parts, owner = shapely.get_parts(features[gates], return_index=True)
        fi, ri = tree.query(parts, predicate="dwithin", distance=gate_snap_ft)
        snapped = shapely.line_interpolate_point(
            rings[ri], shapely.line_locate_point(rings[ri], parts[fi])
        )
        out_ring.append(ri)
        out_feat.append(gates[owner[fi]])
        out_pts.append(snapped)
    if not out_ring:
        return empty
    ring = np.concatenate(out_ring).astype(np.int64)
    if not len(ring):  # features near the rings, none meeting one (a driveway inside a lot)
        return empty
    feat = np.concatenate(out_feat).astype(np.int64)
    pts = np.concatenate(out_pts)
    pos = shapely.line_locate_point(rings[ring], pts)
    order = np.lexsort((pos, ring))
    ring, feat, pts, pos = ring[order], feat[order], pts[order], pos[order]
    keep = np.r_[True, (np.diff(ring) != 0) | (np.diff(pos) > merge_ft)]
    ring, feat, pts, pos = ring[keep], feat[keep], pts[keep], pos[keep]
    return Crossings(ring, feat, pos, shapely.get_x(pts), shapely.get_y(pts))
