"""Lots drawn as closed lines: the polygons they bound.

A surveyor's CAD drawing (DXF) holds each lot as a closed polyline, and many exchange files
hold parcel boundaries as lines: a closed line is a lot's boundary as surely as a polygon's
ring is, and GDAL reads it as a line. Where the user says the lines are lots
(``--closed-lines``, :attr:`posting.io.ParcelLayer.closed_lines`: a fence or a road given as
the parcels by mistake is a closed line too), a parcel row whose geometry is a line with every
part closed (its first and last points the same, at least four points) is read as the polygon
those parts bound: one part, the polygon inside it; several (a MultiLineString), the area
inside an odd number of them (the even-odd rule of drawing programs and GDAL: a ring inside
another is a hole, rings apart are parts). The report says so for each such parcel
(``repaired``). A line whose ends do not meet stays what it was: not a parcel, said so.

Pure functions of the geometry, row by row: a partition of the parcels converts its rows as
one run does.
"""

from __future__ import annotations

import numpy as np
import shapely

__all__ = ["READ_AS_POLYGON", "closed_lines", "polygons_of_closed_lines"]

_LINES = (1, 2, 5)  # LineString, LinearRing, MultiLineString
READ_AS_POLYGON = "a closed line, read as the polygon it bounds"
"""Said of each parcel read from closed lines (its ``repaired``)."""


def closed_lines(geometry: np.ndarray) -> np.ndarray:
    """True for each geometry that is a line (LineString, LinearRing, MultiLineString), not
    empty, whose every part is closed and has at least four points.

    Examples
    --------
    >>> from shapely import LineString, MultiLineString, box
    >>> ring = [(0, 0), (1, 0), (1, 1), (0, 0)]
    >>> closed_lines(np.array([LineString(ring), LineString(ring[:3]), box(0, 0, 1, 1), None,
    ...                        MultiLineString([ring, ring[:3]])])).tolist()
    [True, False, False, False, False]
    """
    geometry = np.asarray(geometry, dtype=object)
    out = np.zeros(len(geometry), dtype=bool)
    lines = np.flatnonzero(np.isin(shapely.get_type_id(geometry), _LINES))
    if not len(lines):
        return out
    lines = lines[~shapely.is_empty(geometry[lines])]
    parts, row = shapely.get_parts(geometry[lines], return_index=True)
    ok = shapely.is_closed(parts) & (shapely.get_num_coordinates(parts) >= 4)
    bad = np.bincount(row[~ok], minlength=len(lines))
    out[lines[bad == 0]] = True
    return out


def polygons_of_closed_lines(geometry: np.ndarray) -> np.ndarray:
    """The polygon each closed line of ``geometry`` bounds (each one :func:`closed_lines`
    says True of): a Polygon of one part, else the even-odd area of its parts (a Polygon or a
    MultiPolygon). A ring that crosses itself makes an invalid polygon, as a drawn polygon may
    be: the caller repairs it (several rings of which one crosses itself are left as the parts
    of a MultiPolygon, whose repair joins them).

    Examples
    --------
    >>> from shapely import LineString, MultiLineString
    >>> outer = [(0, 0), (4, 0), (4, 4), (0, 4), (0, 0)]
    >>> inner = [(1, 1), (2, 1), (2, 2), (1, 1)]
    >>> apart = [(10, 0), (11, 0), (11, 1), (10, 0)]
    >>> out = polygons_of_closed_lines(np.array([LineString(outer),
    ...                                          MultiLineString([outer, inner, apart])]))
    >>> [g.geom_type for g in out], [float(g.area) for g in out]
    (['Polygon', 'MultiPolygon'], [16.0, 16.0])
    """
    geometry = np.asarray(geometry, dtype=object)
    parts, row = shapely.get_parts(geometry, return_index=True)
    xy, part = shapely.get_coordinates(parts, return_index=True)
    shells = shapely.polygons(shapely.linearrings(xy, indices=part))
    count = np.bincount(row, minlength=len(geometry))
    start = np.r_[0, np.cumsum(count)[:-1]]
    out = shells[start].copy()
    for i in np.flatnonzero(count > 1):  # several rings in one row: rare
        rings = shells[start[i] : start[i] + count[i]]
        if not shapely.is_valid(rings).all():  # a ring that crosses itself: left to the repair
            out[i] = shapely.multipolygons(rings)
            continue
        area = rings[0]
        for r in rings[1:]:
            area = shapely.symmetric_difference(area, r)
        out[i] = area
    return out
