"""A vertex far from the rest of its ring or line: a coordinate typed or digitised wrong.

One coordinate with a digit too many (5,430,000 for 543,000 State Plane feet), a sign dropped
(81.3 for -81.3), or a vertex left at (0, 0) turns a lot of a few acres into a thin triangle
hundreds of miles long. Nothing else in the file is wrong: it reads, it projects, and the check
would report the lot ``unposted`` with a boundary of millions of feet (and choose a working
frame for the middle of that triangle). Such a lot has no verdict to give; the reader leaves it
without geometry and says which vertex, how far it lies, and what to do.

A vertex is a *stray* when it lies more than :data:`STRAY_FT` from the middle of its ring (the
median of the ring's vertices) and more than :data:`STRAY_RATIO` times as far as the ring's
median vertex does, and the vertices either side of it along the ring do not. Each ring is
judged alone: a tax lot of two parts miles apart (a ranch and its distant well site) is not a
stray, and a long railroad strip is not either (its far end's vertices are each other's
neighbours, however few they are). The median is taken without the ring's closing vertex, so a
stray first vertex (written twice) is still one vertex of the ring's; a vertex written twice in
a row counts once. A hole is looked at only in a lot whose box (its shell's) is looked at: a
hole reaching out of its shell makes the lot not valid, and it is repaired as such.

A context layer's lines (a fence, a road, a stream's centre line) are judged the same way, but
along a line, not around it: a vertex at either end has one neighbour only, which must not be
far. A water polygon or a fence with such a vertex would lay a wedge of water or a fence
hundreds of miles long across the parcels; the reader leaves the feature out, with why
(:data:`STRAY_FEATURE`).

Distances are geodesic, on WGS 84 (:func:`posting.crs.geodesic_ft`), from the layer's CRS;
only lots whose box spans more than :data:`STRAY_FT` are looked at, which on a county's layer
is none.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import shapely
from pyproj import CRS

from posting.crs import FT_M, geodesic_ft, to_lonlat

__all__ = [
    "STRAY_FEATURE",
    "STRAY_FT",
    "STRAY_RATIO",
    "Stray",
    "find_strays",
    "stray_problem",
]

STRAY_FT = 264_000.0
"""How far (ft; 50 miles) a vertex must lie from the middle of its ring to be a stray: no
parcel's ring reaches that far from its own middle (the three real layers' largest lot spans
2 miles; a Texas ranch's pasture a few tens)."""

STRAY_RATIO = 100.0
"""How many times as far from the ring's middle as its median vertex a stray lies: a lot
1,000 ft across has its vertices within about 500 ft of its middle; a stray 50 miles away is
500 times as far."""

_MILE_FT = 5280.0

STRAY_FEATURE = (
    "a vertex lies 50 miles or more from the rest of its ring or line, whose vertices either "
    "side of it do not: a coordinate typed or digitised wrong? Fix it in the file"
)
"""Why a context feature with a stray vertex is left out (one reason for all: the layer's
warning counts them and lists their rows)."""


@dataclass(frozen=True)
class Stray:
    """The stray vertices of a layer: per row that has one, the first such vertex (x, y in the
    layer's CRS), its distance (ft) from the middle of its ring, and how far (ft) the ring's
    other vertices reach from that middle."""

    rows: np.ndarray
    xy: np.ndarray
    distance_ft: np.ndarray
    within_ft: np.ndarray

    def __len__(self) -> int:
        return len(self.rows)


def _box_span_ft(geometry: np.ndarray, crs: CRS) -> np.ndarray:
    """An upper bound (roughly) of each geometry's box diagonal, in feet: its CRS units scaled
    for a projected CRS, degrees of latitude and of longitude (up to 360: a box astride the
    antimeridian) at the equator's length for a geographic one. NaN where there is none."""
    b = shapely.bounds(geometry)
    w, h = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
    if crs.is_geographic:
        ft = 111_320.0 / FT_M  # a degree at the equator
        return np.hypot(w, h) * ft
    unit = crs.axis_info[0].unit_conversion_factor if crs.axis_info else 1.0
    return np.hypot(w, h) * unit / FT_M


def find_strays(geometry: np.ndarray, crs: CRS) -> Stray:
    """The rows of ``geometry`` (polygons and lines in ``crs``) with a ring or a line that has
    a stray vertex (points are not looked at).

    Examples
    --------
    A lot of 500 ft by 500 ft in Florida East (US survey feet) with one x typed with a digit
    too many (5,430,000 for 543,000): its vertex lies 918 miles from the lot on the ground
    (926 in the plane, whose scale grows that far from its meridian), and the lot's other
    vertices within 354 ft (half the diagonal) of its middle.

    >>> from shapely import Polygon
    >>> good = Polygon([(543000, 1500000), (543500, 1500000), (543500, 1500500),
    ...                 (543000, 1500500)])
    >>> typo = Polygon([(543000, 1500000), (5430000, 1500000), (543500, 1500500),
    ...                 (543000, 1500500)])
    >>> s = find_strays(np.array([good, typo, None]), CRS.from_epsg(2236))
    >>> s.rows.tolist(), s.xy.tolist()
    ([1], [[5430000.0, 1500000.0]])
    >>> round(s.distance_ft[0] / 5280), round(s.within_ft[0])
    (918, 354)
    """
    geometry = np.asarray(geometry, dtype=object)
    none = Stray(np.empty(0, np.int64), np.empty((0, 2)), np.empty(0), np.empty(0))
    if not (crs.is_geographic or crs.is_projected) or not len(geometry):
        return none
    with np.errstate(invalid="ignore"):
        span = _box_span_ft(geometry, crs)
        # (a coordinate that is not finite is not a stray: the lot is left out where it is
        # prepared, with why)
        look = np.flatnonzero(np.isfinite(span) & (span > STRAY_FT))
    if not len(look):
        return none
    parts, part_row = shapely.get_parts(geometry[look], return_index=True)
    kind = shapely.get_type_id(parts)
    polygon = kind == 3
    rings, ring_part = shapely.get_rings(parts[polygon], return_index=True)
    line = np.flatnonzero(np.isin(kind, (1, 2)))  # a line, or a ring of its own
    # the rings, then the lines (each a "ring" below: its vertices in order)
    seqs = np.concatenate([rings, parts[line]])
    ring_row = np.r_[part_row[np.flatnonzero(polygon)[ring_part]], part_row[line]]
    open_ = np.r_[np.zeros(len(rings), dtype=bool), np.ones(len(line), dtype=bool)]
    xy, ring = shapely.get_coordinates(seqs, return_index=True)
    if not len(xy):
        return none
    # without each ring's closing vertex (the last of each run of one ring; a line's last is
    # its own), nor a vertex that repeats the one before it
    last = np.r_[ring[1:] != ring[:-1], True] & ~open_[ring]
    again = np.r_[False, (ring[1:] == ring[:-1]) & (xy[1:] == xy[:-1]).all(axis=1)]
    xy, ring = xy[~last & ~again], ring[~last & ~again]
    lon, lat = to_lonlat(xy[:, 0], xy[:, 1], crs)
    first = np.r_[0, np.flatnonzero(ring[1:] != ring[:-1]) + 1]
    lon0 = np.repeat(lon[first], np.diff(np.r_[first, len(lon)]))
    with np.errstate(invalid="ignore"):  # a point its CRS cannot place (inf): not far
        east = (lon - lon0 + 180.0) % 360.0 - 180.0  # degrees east of the ring's first vertex
    t = pd.DataFrame({"ring": ring, "east": east, "lat": lat})
    middle = t.groupby("ring", sort=True)[["east", "lat"]].median()
    at = middle.index.get_indexer(ring)
    mlon = lon0 + middle["east"].to_numpy()[at]
    mlat = middle["lat"].to_numpy()[at]
    dist = geodesic_ft(mlon, mlat, lon, lat)
    typical = pd.Series(dist).groupby(ring).median()
    typical_ft = typical.to_numpy()[typical.index.get_indexer(ring)]
    with np.errstate(invalid="ignore"):
        far = dist > np.maximum(STRAY_FT, STRAY_RATIO * typical_ft)
    if not far.any():
        return none
    # a stray's neighbours along its ring are not far: the far end of a long strip is
    # (its vertices there are each other's neighbours); a line's end has one neighbour
    end = np.r_[first[1:], len(ring)] - 1
    start_of = np.repeat(first, end - first + 1)
    end_of = np.repeat(end, end - first + 1)
    i = np.arange(len(ring))
    is_open = open_[ring]
    before = np.where(i == start_of, np.where(is_open, i + 1, end_of), i - 1)
    after = np.where(i == end_of, np.where(is_open, i - 1, start_of), i + 1)
    if is_open.any():  # a line of one vertex (repeated): no neighbour, nothing to judge by
        alone = start_of == end_of
        before[alone] = after[alone] = i[alone]
    stray = far & ~far[before] & ~far[after]
    if not stray.any():
        return none
    near = pd.Series(np.where(far, np.nan, dist)).groupby(ring).max()
    hit = np.flatnonzero(stray)
    row = look[ring_row[ring[hit]]]
    _, once = np.unique(row, return_index=True)  # the first stray of each row
    hit = hit[once]
    return Stray(
        look[ring_row[ring[hit]]],
        xy[hit],
        dist[hit],
        near.to_numpy()[near.index.get_indexer(ring[hit])],
    )


def _distance(ft: float) -> str:
    """A distance in a message: feet under a mile, else miles.

    >>> _distance(354.2), _distance(26_400.0), _distance(4_847_000.0)
    ('354 ft', '5.0 miles', '918 miles')
    """
    if ft < _MILE_FT:
        return f"{ft:,.0f} ft"
    miles = ft / _MILE_FT
    return f"{miles:,.0f} miles" if miles >= 10 else f"{miles:,.1f} miles"


def stray_problem(x: str, y: str, distance_ft: float, within_ft: float) -> str:
    """Why a lot with a stray vertex has no geometry: the vertex as the file gives it (``x``
    and ``y`` as shown), how far it lies, and what to do.

    >>> stray_problem("5430000.0", "1500000.0", 4_847_000.0, 354.0)  # doctest: +ELLIPSIS
    'a vertex, (5430000.0, 1500000.0), lies 918 miles from the middle of its ring, whose ...'
    """
    return (
        f"a vertex, ({x}, {y}), lies {_distance(distance_ft)} from the middle of "
        f"its ring, whose other vertices lie within {_distance(within_ft)} of it: a coordinate "
        "typed or digitised wrong? Fix this vertex in the file"
    )
