"""Parcels made ready to measure: working CRS, repaired geometry in feet, rings, corners, area.

Nothing is dropped. A parcel without usable geometry keeps its place with the reason (it is
reported ``invalid``); an invalid geometry that can be repaired is repaired and the repair is
reported.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
import shapely
from pyproj import Proj

from posting.boundary import Corners, Rings, find_corners, ring_vertices, rings_of
from posting.closedlines import READ_AS_POLYGON, closed_lines, polygons_of_closed_lines
from posting.crs import (
    WorkingCRS,
    every_ring_bounds,
    finite_geometry,
    lon_range,
    plan_working_crs,
    to_lonlat,
)
from posting.dissolve import dissolve
from posting.index import unique_ints
from posting.io import ParcelLayer
from posting.parallel import pmap
from posting.settings import Settings

__all__ = [
    "ANTIMERIDIAN",
    "ParcelGeometry",
    "PreparedParcels",
    "across_antimeridian",
    "add_corners",
    "prepare_parcels",
]

SQFT_PER_ACRE = 43_560.0
SLIVER_SQFT = 10.0
"""Parts and holes smaller than this, created when an invalid geometry is repaired, are
digitising artefacts (a twisted corner becomes a triangle of a fraction of a square foot), not
land anyone posts: they are dropped, and the repair note says so."""
MAX_COORD_FT = 1e9
"""No point of the Earth lies this far (190,000 miles) from the origin of a working CRS: a
parcel with a coordinate beyond it is invalid (a typing or unit error). Its squared distances
would overflow to infinity, and an infinite ring length would break the order of every later
ring."""
TINY_FT = 1e-100
"""Coordinates closer to 0 than this (in working feet) are 0: between two such numbers a
segment's squared length underflows to 0, and GEOS divides by it (a warning, and no better
figure). No survey is that precise; ordinary coordinates are never touched."""
_POINT = re.compile(r"\[\s*([-+0-9.eE]+)\s+([-+0-9.eE]+)\s*\]")
_NAMES = shapely.geometry.base.GEOMETRY_TYPES

ANTIMERIDIAN = (
    "it crosses the antimeridian (180 degrees of longitude): in longitude and latitude it spans "
    "the globe (split in two parts or not), which posting cannot measure; give the layer in a "
    "projected CRS that holds it (UTM zone 1N, EPSG:32601, or 60N, EPSG:32660, for the "
    "Aleutians), in which it is measured as it is"
)
"""The reason a parcel given in longitude and latitude that crosses 180 degrees is not checked."""


def across_antimeridian(bounds: np.ndarray, crs: Any) -> np.ndarray:
    """Which boxes (``shapely.bounds`` rows) of features given in ``crs`` span more than 180
    degrees of longitude: in a geographic CRS, features across the antimeridian
    (:data:`ANTIMERIDIAN`), placed nowhere (:func:`prepare_parcels`, and the partitioned
    run's scan of the parcels alike).

    >>> from pyproj import CRS
    >>> across_antimeridian(np.array([[-81.3, 28.6, -81.2, 28.7], [-179.9, 0, 179.9, 1]]),
    ...                     CRS.from_epsg(4326)).tolist()
    [False, True]
    """
    bounds = np.asarray(bounds, dtype=float).reshape(-1, 4)
    if not getattr(crs, "is_geographic", False):
        return np.zeros(len(bounds), dtype=bool)
    with np.errstate(invalid="ignore"):
        return bounds[:, 2] - bounds[:, 0] > 180.0


def _not_a_parcel(kind: str, closed: bool = False) -> str:
    """Why a geometry of this kind (a shapely type name) is not a parcel; ``closed``: a line
    that closes a ring, which ``--closed-lines`` would read as a lot.

    >>> _not_a_parcel("Point")
    'a Point is not a parcel: parcels are polygons'
    >>> _not_a_parcel("MultiLineString")
    'a MultiLineString with a line that does not close a ring is not a parcel: parcels are polygons'
    >>> _not_a_parcel("LineString", closed=True).split(": ", 1)[1]
    'parcels are polygons (it closes a ring: --closed-lines reads it as the lot it bounds)'
    """
    if closed:
        return (
            f"a {kind} is not a parcel: parcels are polygons (it closes a ring: --closed-lines "
            "reads it as the lot it bounds)"
        )
    if kind in ("LineString", "LinearRing"):
        kind += " that does not close a ring"
    elif kind == "MultiLineString":
        kind += " with a line that does not close a ring"
    return f"a {kind} is not a parcel: parcels are polygons"


@dataclass(frozen=True)
class ParcelGeometry:
    """Where the parcels are, as measured: plain arrays, per parcel and per ring.

    What the report's renderers draw from and what a re-check (the plan's) assigns points
    against; no input attributes, no settings. Per parcel (index = input row, or merged
    property): ``ids``, ``group`` (index into ``crss``, -1 without usable geometry),
    ``geometry_ft`` (in its working CRS, feet), ``bounds_lonlat`` (west, south, east, north).
    Per ring: ``rings``, and their vertex table ``vertices``
    (:func:`posting.boundary.ring_vertices`).
    """

    ids: np.ndarray
    crss: list[WorkingCRS]
    group: np.ndarray
    geometry_ft: np.ndarray
    bounds_lonlat: np.ndarray
    rings: Rings
    vertices: Any = None

    def __len__(self) -> int:
        return len(self.group)

    @property
    def ring_start(self) -> np.ndarray:
        """Index of each parcel's first ring (rings are grouped by parcel, in order)."""
        counts = np.bincount(self.rings.parcel, minlength=len(self))
        return np.r_[0, np.cumsum(counts)[:-1]].astype(np.int64)

    @property
    def ring_count(self) -> np.ndarray:
        """Number of rings of each parcel."""
        return np.bincount(self.rings.parcel, minlength=len(self))

    def ft_to_lonlat(
        self, group: np.ndarray, x: np.ndarray, y: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Points in working feet, each in the frame of its CRS ``group``, to WGS 84 longitude
        and latitude (NaN where the group is -1)."""
        return _ft_to_lonlat(self.crss, group, x, y)

    def geoms_to_lonlat(self, group: np.ndarray, geoms: np.ndarray) -> np.ndarray:
        """Geometries in working feet, each in the frame of its CRS ``group``, to WGS 84
        longitude and latitude (None where the group is -1)."""
        out = np.full(len(geoms), None, dtype=object)
        for g, wcrs in enumerate(self.crss):
            sel = group == g
            if sel.any():
                out[sel] = wcrs.geoms_ft_to_lonlat(geoms[sel])
        return out

    def geometry_lonlat(self) -> np.ndarray:
        """Repaired parcel geometry in WGS 84 longitude/latitude (None where invalid)."""
        return self.geoms_to_lonlat(self.group, self.geometry_ft)


@dataclass(frozen=True)
class PreparedParcels:
    """Parcels in working feet, with their rings and corners: the prepare stage's output.

    Plain, picklable data. ``geometry`` (:class:`ParcelGeometry`) holds where the parcels are;
    its fields are also reached directly (``prep.rings``, ``prep.group``). Per parcel: the
    input ``layer`` (attributes, ids, owners), ``invalid`` (reason or None), ``repaired``
    (reason or None), ``perimeter_ft``, ``area_acres``. Per corner: ``corners`` (ring-indexed)
    and their ``corner_lonlat``, None until :func:`add_corners` found them.
    """

    geometry: ParcelGeometry
    layer: ParcelLayer
    invalid: np.ndarray
    repaired: np.ndarray
    perimeter_ft: np.ndarray
    area_acres: np.ndarray
    corners: Corners | None = field(default=None, repr=False)
    corner_lonlat: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False)
    settings: Settings = field(default_factory=Settings)
    # when parcels were merged into properties (--merge-owner): each one's input rows and ids
    source_rows: list[list[int]] | None = None
    source_ids: list[list[str]] | None = None
    # per parcel (property), its owner as ``--merge-owner`` keys it (None without that column):
    # who owns both sides of a shared line, where no ``--owner-field`` says
    owner_key: np.ndarray | None = field(default=None, repr=False)
    # per property of two lots or more, its lots' boundaries in working feet (None for one
    # lot's): a marker inside it near them stands on an inner line, between two of its lots
    lot_lines: np.ndarray | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.geometry)

    def __getattr__(self, name: str) -> Any:
        # crss, group, geometry_ft, bounds_lonlat, rings, vertices, ring_start, ring_count,
        # ft_to_lonlat, geoms_to_lonlat, geometry_lonlat: the geometry's
        if name.startswith("__") or name == "geometry":
            raise AttributeError(name)
        return getattr(self.geometry, name)

    @property
    def ids(self) -> np.ndarray:
        """Each parcel's (or property's) id."""
        return self.layer.ids


def _ft_to_lonlat(
    crss: list[WorkingCRS], group: np.ndarray, x: np.ndarray, y: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    lon = np.full(len(x), np.nan)
    lat = np.full(len(x), np.nan)
    for g, wcrs in enumerate(crss):
        sel = group == g
        if sel.any():
            lon[sel], lat[sel] = wcrs.ft_to_lonlat(x[sel], y[sel])
    return lon, lat


def add_corners(prep: PreparedParcels) -> PreparedParcels:
    """``prep`` with its rings' corners found (and their longitude and latitude).

    A stage of its own: nothing needs the corners until the rules are evaluated, so a runner
    may find them while the markers are assigned.
    """
    if prep.corners is not None:
        return prep
    s = prep.settings
    c = find_corners(
        prep.rings.geometry,
        vertices=prep.vertices,
        angle_deg=s.corner_angle_deg,
        noise_ft=s.corner_noise_ft,
        merge_ft=s.corner_merge_ft,
    )
    lonlat = _ft_to_lonlat(prep.crss, prep.group[prep.rings.parcel[c.ring]], c.x, c.y)
    return replace(prep, corners=c, corner_lonlat=lonlat)


def _equal_area_acres(
    geoms_ft: np.ndarray, wcrs: WorkingCRS, lon: np.ndarray, lat: np.ndarray
) -> np.ndarray:
    """Area in acres on the ground: the working (conformal) area over its areal scale, times
    the square of the frame's elevation factor.

    A conformal projection scales areas by k² at each point; across one parcel k varies by far
    less than a part in a million, so dividing by the areal scale at the parcel's centre gives
    the true (equal-area) figure on the ellipsoid. The local transverse Mercator's areal scale
    is within 1e-5 of 1 on a county-sized layer; State Plane's within 2e-4. A frame scaled to
    the ground at an elevation (:func:`posting.crs.local_tm`) has that factor in its areal
    scale; the ground's area is the ellipsoid's times its square (1 without an elevation).
    """
    scale = np.ones(len(geoms_ft))
    ok = np.isfinite(lon) & np.isfinite(lat)
    if ok.any():
        factors = Proj(wcrs.crs).get_factors(lon[ok], lat[ok])
        scale[ok] = np.asarray(factors.areal_scale, dtype=float)
    ground = wcrs.elevation_factor**2
    return shapely.area(geoms_ft) / SQFT_PER_ACRE / scale * ground


def _reason_lonlat(reason: str, wcrs: WorkingCRS) -> str:
    """GEOS validity reasons name a point in working feet; show it as [lon, lat]."""
    m = _POINT.search(reason)
    if not m:
        return reason
    lon, lat = wcrs.ft_to_lonlat(np.array([float(m[1])]), np.array([float(m[2])]))
    return f"{reason[: m.start()].strip()} at [{lon[0]:.7f}, {lat[0]:.7f}]"


def _flush_tiny(geoms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The geometries with every coordinate closer to 0 than :data:`TINY_FT` set to 0 (the
    array itself when there is none, as there never is in real data), and whether each one's
    coordinates are all finite (:func:`posting.crs.finite_geometry`, from the same vertices
    in the usual case that all are).

    >>> g, finite = _flush_tiny(np.array([shapely.box(0, 1e-250, 20, 20), None], dtype=object))
    >>> shapely.bounds(g[0]).tolist(), finite.tolist()
    ([0.0, 0.0, 20.0, 20.0], [True, True])
    """
    coords = shapely.get_coordinates(geoms)
    all_finite = bool(np.isfinite(coords).all())
    with np.errstate(invalid="ignore"):
        tiny = (coords != 0) & (np.abs(coords) < TINY_FT)
    if tiny.any():
        coords[tiny] = 0.0
        geoms = shapely.set_coordinates(np.array(geoms, dtype=object, copy=True), coords)
    finite = np.ones(len(geoms), dtype=bool) if all_finite else finite_geometry(geoms)
    return geoms, finite


def _drop_slivers(geoms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Remove parts and holes under SLIVER_SQFT from repaired geometries (few, so a loop)."""
    out = np.empty(len(geoms), dtype=object)
    dropped = np.zeros(len(geoms), dtype=np.int64)
    for i, g in enumerate(geoms):
        parts = shapely.get_parts(g)
        keep = []
        for part in parts:
            if shapely.get_type_id(part) != 3 or part.area < SLIVER_SQFT:
                dropped[i] += 1
                continue
            holes = [h for h in part.interiors if shapely.Polygon(h).area >= SLIVER_SQFT]
            dropped[i] += len(part.interiors) - len(holes)
            keep.append(shapely.Polygon(part.exterior, holes))
        out[i] = (
            (keep[0] if len(keep) == 1 else shapely.MultiPolygon(keep))
            if keep
            else (shapely.Polygon())
        )
    return out, dropped


def _components(n: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Connected components of a graph given as edge lists: the smallest node of each."""
    label = np.arange(n)
    while len(a):
        low = np.minimum(label[a], label[b])
        before = label.copy()
        np.minimum.at(label, a, low)
        np.minimum.at(label, b, low)
        label = label[label]  # pointer jumping: follow labels to their own labels
        if np.array_equal(label, before):
            break
    return label


def adjoining_pairs(
    geometry_ft: np.ndarray,
    key: np.ndarray,
    group: np.ndarray,
    invalid: np.ndarray,
    snap_ft: float,
    rings: Rings | None = None,
    vertices: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The pairs of parcels (rows ``a < b``) with the same ``key`` (an owner) that adjoin.

    Parcels adjoin when they share a stretch of boundary: at least ``max(5 ft, 5 x snap)`` of
    one's boundary lies within ``snap_ft`` of the other (so digitising slivers narrower than the
    snap do not keep neighbours apart, while lots touching at a single point stay apart).
    Parcels without usable geometry or key, or in different working CRS groups, never adjoin.
    Vectorised, without a spatial index of the whole layer: the parcels are sorted by key, then
    by the west edge of their box, and each is paired with the parcels of its key whose west
    edge lies between its own and its east edge (plus the snap): a sweep along x within each
    key. Pairs whose boxes (grown by the snap) meet are then tested, and only those measured.
    On a county of 100,000 parcels and 7,000 owners that is 0.05 s where joining all boxes
    with an STR tree took 0.7 s. ``rings``, the parcels' :class:`~posting.boundary.Rings` if
    made already, spare taking the geometries apart again for their edges.

    Examples
    --------
    >>> g = np.array([shapely.box(0, 0, 10, 10), shapely.box(10, 0, 20, 10),
    ...               shapely.box(20, 10, 30, 20), shapely.box(0, 10, 10, 20)], dtype=object)
    >>> key = np.array(["a", "a", "a", "b"], dtype=object)
    >>> a, b = adjoining_pairs(g, key, np.zeros(4, int), np.full(4, None), 1.0)
    >>> list(zip(a.tolist(), b.tolist()))  # 1 and 2 touch at a corner only; 3 is b's
    [(0, 1)]
    """
    from posting.index import expand_counts

    empty = np.empty(0, dtype=np.int64)
    key = np.asarray(key)
    if key.dtype.kind in "iu":  # codes already: negative for none
        idx = np.flatnonzero(pd.isna(invalid) & (key >= 0))
        codes = key[idx].astype(np.int64)
    else:
        idx = np.flatnonzero(pd.isna(invalid) & ~pd.isna(key))
        codes = pd.factorize(pd.Series(key[idx], dtype=object))[0].astype(np.int64)
    if len(idx) < 2:
        return empty, empty
    shared_key = pd.Series(codes).duplicated(keep=False).to_numpy()
    idx, codes = idx[shared_key], codes[shared_key]  # a parcel alone with its key adjoins none
    if len(idx) < 2:
        return empty, empty
    x0, y0, x1, y1 = shapely.bounds(geometry_ft[idx]).T
    # exact integer sort keys: (key, rank of the west edge among all west edges)
    by_west = np.argsort(x0, kind="stable")
    west = x0[by_west]
    rank = np.empty(len(x0), dtype=np.int64)
    rank[by_west] = np.arange(len(x0))
    n = len(idx) + 1
    order = np.lexsort((rank, codes))
    sorted_key = codes[order] * n + rank[order]
    reach = codes[order] * n + np.searchsorted(west, x1[order] + snap_ft, side="right")
    stop = np.searchsorted(sorted_key, reach, side="left")
    count = np.maximum(stop - np.arange(len(order)) - 1, 0)
    first, k = expand_counts(count)
    i, j = order[first], order[first + 1 + k]
    meet = (y0[j] <= y1[i] + snap_ft) & (y1[j] >= y0[i] - snap_ft) & (x0[j] <= x1[i] + snap_ft)
    a, b = idx[i[meet]], idx[j[meet]]
    a, b = np.minimum(a, b), np.maximum(a, b)
    keep = group[a] == group[b]
    a, b = a[keep], b[keep]
    keep = shapely.dwithin(geometry_ft[a], geometry_ft[b], snap_ft)
    a, b = a[keep], b[keep]
    least = max(5.0, 5 * snap_ft)
    edges = _ring_edges(geometry_ft, unique_ints(np.concatenate([a, b])), rings, vertices)
    # an edge both boundaries have, at least that long, settles a pair without GEOS: it lies
    # within the snap of b, so the stretch measured below could not be shorter (a margin of
    # 1e-9 for the measure's rounding)
    adjoin = _longest_shared_edge(edges, a, b) >= least * (1 + 1e-9)
    rest = np.flatnonzero(~adjoin)
    # most of the others touch at a corner: a bound on the stretch, from the edges of one
    # near the other's, settles them without GEOS (on the county of real shapes, 39,900 of
    # 40,880)
    rest = rest[_may_adjoin(geometry_ft, edges, a[rest], b[rest], snap_ft, least)]
    ra, rb = a[rest], b[rest]
    # each parcel's zone (grown by the snap) made once, however many pairs it is in
    zone, of_pair = np.unique(rb, return_inverse=True)
    near = shapely.buffer(geometry_ft[zone], snap_ft, quad_segs=2)[of_pair.reshape(-1)]
    shared = shapely.length(shapely.intersection(shapely.boundary(geometry_ft[ra]), near))
    adjoin[rest] = shared >= least
    order = np.lexsort((b[adjoin], a[adjoin]))
    return a[adjoin][order].astype(np.int64), b[adjoin][order].astype(np.int64)


class _Edges(NamedTuple):
    """The edges of some parcels' rings: each from ``p`` to ``q`` (``(n, 2)`` arrays), of
    parcel ``parcel`` (ascending)."""

    p: np.ndarray
    q: np.ndarray
    parcel: np.ndarray


def _ring_edges(
    geometry_ft: np.ndarray, parcels: np.ndarray, rings: Rings | None = None, vertices: Any = None
) -> _Edges:
    """The edges of the rings of ``parcels`` (rows of ``geometry_ft``, ascending), read from
    ``rings`` (their :class:`~posting.boundary.Rings`) when given, and from their vertex table
    ``vertices`` (:func:`~posting.boundary.ring_vertices`) when that is given too, else from
    the geometries."""
    parcels = np.asarray(parcels, dtype=np.int64)
    if rings is not None and vertices is not None:
        return _table_edges(rings, vertices, parcels, len(geometry_ft))
    if rings is None:
        parts, part_of = shapely.get_parts(geometry_ft[parcels], return_index=True)
        ring_geometry, ring_of = shapely.get_rings(parts, return_index=True)
        ring_parcel = parcels[part_of[ring_of]]
    else:
        wanted = np.zeros(len(geometry_ft), dtype=bool)
        wanted[parcels] = True
        chosen = np.flatnonzero(wanted[rings.parcel])
        ring_geometry, ring_parcel = rings.geometry[chosen], rings.parcel[chosen]
    xy, vertex_of = shapely.get_coordinates(ring_geometry, return_index=True)
    at = np.flatnonzero(vertex_of[1:] == vertex_of[:-1])
    parcel = np.asarray(ring_parcel, dtype=np.int64)[vertex_of[at]]
    if len(parcel) and (np.diff(parcel) < 0).any():
        at = at[np.argsort(parcel, kind="stable")]
        parcel = np.asarray(ring_parcel, dtype=np.int64)[vertex_of[at]]
    return _Edges(xy[at], xy[at + 1], parcel)


def _table_edges(rings: Rings, v: Any, parcels: np.ndarray, n: int) -> _Edges:
    """:func:`_ring_edges` from the rings' vertex table: each vertex to the next, the last to
    the first (the ring's closing coordinate, equal to it); the edges and their order are
    those of the rings' coordinates, without copying them out of GEOS while holding the GIL."""
    from posting.index import expand_counts

    wanted = np.zeros(n, dtype=bool)
    wanted[parcels] = True
    chosen = np.flatnonzero(wanted[rings.parcel])
    count = v.count[chosen]
    item, rank = expand_counts(count)
    start = v.start[chosen][item]
    at = start + rank
    nxt = np.where(rank == count[item] - 1, start, at + 1)
    parcel = np.asarray(rings.parcel, dtype=np.int64)[chosen][item]
    if len(parcel) and (np.diff(parcel) < 0).any():
        order = np.argsort(parcel, kind="stable")
        at, nxt, parcel = at[order], nxt[order], parcel[order]
    return _Edges(v.xy[at], v.xy[nxt], parcel)


_MIX = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9], dtype=np.uint64)


def _edge_hash(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each edge that does not depend on its direction; equal edges (the same
    two vertices, ``==``) have equal hashes."""

    def vertex(xy: np.ndarray) -> np.ndarray:
        u = np.ascontiguousarray(xy + 0.0).view(np.uint64)  # + 0.0: -0.0 == 0.0, same bits
        h = u[:, 0] * _MIX[0] + (u[:, 1] ^ (u[:, 1] >> np.uint64(29))) * _MIX[1]
        h ^= h >> np.uint64(32)
        h *= _MIX[2]
        return h ^ (h >> np.uint64(29))

    return vertex(p) + vertex(q)


def _longest_shared_edge(
    edges: _Edges, a: np.ndarray, b: np.ndarray, *, exact: bool = False
) -> np.ndarray:
    """For each pair of parcels (rows ``a < b``), the longest edge of a ring of ``a`` that is
    also an edge of a ring of ``b``, with the same two vertices exactly (0 when none).

    ``edges`` are the rings' edges of every parcel in a pair (:func:`_ring_edges`). Equal
    edges are brought together by sorting the edges (each edge's ends in a fixed order), then
    by parcel, and neighbours compared; an edge that three parcels or more share is matched
    only between neighbours in that order (the others go unmatched: 0). The sort is on one
    hash of each edge (a quarter of the time of sorting on its four coordinates), the edges of
    equal hashes then compared; should two different edges ever share a hash, or with
    ``exact``, the edges are sorted on their coordinates.

    Examples
    --------
    >>> g = np.array([shapely.box(0, 0, 10, 10), shapely.box(10, 0, 20, 5),
    ...               shapely.box(20, 0, 30, 5)], dtype=object)
    >>> edges = _ring_edges(g, np.arange(3))
    >>> _longest_shared_edge(edges, np.array([0, 0, 1]), np.array([1, 2, 2])).tolist()
    [0.0, 0.0, 5.0]
    """
    longest = np.zeros(len(a))
    p, q, owner = edges
    if len(a) == 0 or len(p) < 2:
        return longest
    twin = None
    if not exact:
        h = _edge_hash(p, q)
        order = np.argsort(h)
        h = h[order]
        run = np.flatnonzero(h[1:] == h[:-1])  # (run[k], run[k] + 1): equal hashes
        p1, q1, p2, q2 = p[order[run]], q[order[run]], p[order[run + 1]], q[order[run + 1]]
        same = ((p1 == p2).all(1) & (q1 == q2).all(1)) | ((p1 == q2).all(1) & (q1 == p2).all(1))
        if same.all():
            # an edge of three parcels or more: its parcels in order, as the exact sort has
            # them (for two, either order makes the same pair)
            first = np.ones(len(h), dtype=bool)
            first[run + 1] = False
            group = np.cumsum(first) - 1
            size = np.bincount(group)
            many = np.flatnonzero(size[group] >= 3)
            if len(many):
                order[many] = order[many][np.lexsort((owner[order[many]], group[many]))]
            twin = run[owner[order[run]] != owner[order[run + 1]]]
            length = np.hypot(*(q[order[twin]] - p[order[twin]]).T)
            owner = owner[order]
    if twin is None:
        swap = (p[:, 0] > q[:, 0]) | ((p[:, 0] == q[:, 0]) & (p[:, 1] > q[:, 1]))
        lo, hi = np.where(swap[:, None], q, p), np.where(swap[:, None], p, q)
        order = np.lexsort((owner, hi[:, 1], hi[:, 0], lo[:, 1], lo[:, 0]))
        lo, hi, owner = lo[order], hi[order], owner[order]
        twin = np.flatnonzero((lo[1:] == lo[:-1]).all(1) & (hi[1:] == hi[:-1]).all(1))
        twin = twin[owner[twin] != owner[twin + 1]]
        length = np.hypot(*(hi[twin] - lo[twin]).T)
    one, other = np.minimum(owner[twin], owner[twin + 1]), np.maximum(owner[twin], owner[twin + 1])
    n = int(max(a.max(), b.max())) + 1
    pairs, of_pair = np.unique(a * n + b, return_inverse=True)
    at = np.searchsorted(pairs, one * n + other)
    found = at < len(pairs)
    found[found] = pairs[at[found]] == (one * n + other)[found]
    best = np.zeros(len(pairs))
    np.maximum.at(best, at[found], length[found])
    return best[of_pair.reshape(-1)]


PAIR_EDGE_CAP = 4096
"""Pairs of parcels with more pairs of nearby edges than this are measured by GEOS rather than
bounded (two forest lots of a thousand vertices each, side by side)."""


def _edges_in_boxes(
    edges: _Edges, parcels: np.ndarray, boxes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The edges of each of ``parcels`` whose box meets its box in ``boxes`` (``(n, 4)``): the
    index of the parcel in ``parcels`` and of the edge, by parcel then edge."""
    from posting.index import expand_counts

    lo = np.searchsorted(edges.parcel, parcels, side="left")
    hi = np.searchsorted(edges.parcel, parcels, side="right")
    item, k = expand_counts(hi - lo)
    e = lo[item] + k
    p, q, box = edges.p[e], edges.q[e], boxes[item]
    meet = (
        (np.minimum(p[:, 0], q[:, 0]) <= box[:, 2])
        & (np.maximum(p[:, 0], q[:, 0]) >= box[:, 0])
        & (np.minimum(p[:, 1], q[:, 1]) <= box[:, 3])
        & (np.maximum(p[:, 1], q[:, 1]) >= box[:, 1])
    )
    return item[meet], e[meet]


def _slab(f0: np.ndarray, df: np.ndarray, lo, hi) -> tuple[np.ndarray, np.ndarray]:
    """Where ``f0 + t df`` lies in ``[lo, hi]``: the range of t (empty when its start is past
    its end)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        t1, t2 = (lo - f0) / df, (hi - f0) / df
    flat = df == 0
    inside = (f0 >= lo) & (f0 <= hi)
    start = np.where(flat, np.where(inside, -np.inf, np.inf), np.minimum(t1, t2))
    end = np.where(flat, np.where(inside, np.inf, -np.inf), np.maximum(t1, t2))
    return start, end


def _near_segment(
    p0: np.ndarray, d: np.ndarray, s0: np.ndarray, s1: np.ndarray, r: float
) -> tuple[np.ndarray, np.ndarray]:
    """Where the segments ``p0 + t d`` (``0 <= t <= 1``) lie within ``r`` of the segments
    ``s0``-``s1``: the range of t (empty when its start is past its end). The points within
    ``r`` of a segment (a capsule: a rectangle and two discs) are convex, so they meet a line
    in one stretch, the union of where it meets each of the three."""
    w = p0 - s0
    f = s1 - s0
    flen = np.hypot(f[:, 0], f[:, 1])
    # the rectangle, in the segment's frame scaled by its length
    u0, du = (w * f).sum(1), (d * f).sum(1)
    v0 = f[:, 0] * w[:, 1] - f[:, 1] * w[:, 0]
    dv = f[:, 0] * d[:, 1] - f[:, 1] * d[:, 0]
    a1, b1 = _slab(u0, du, 0.0, flen * flen)
    a2, b2 = _slab(v0, dv, -r * flen, r * flen)
    start, end = np.maximum(a1, a2), np.minimum(b1, b2)
    start[flen == 0] = np.inf  # a point: its disc is all of it
    end[flen == 0] = -np.inf
    dd = (d * d).sum(1)
    for c in (w, p0 - s1):  # the discs at its ends
        half_b, cc = (c * d).sum(1), (c * c).sum(1) - r * r
        disc = half_b * half_b - dd * cc
        with np.errstate(divide="ignore", invalid="ignore"):
            root = np.sqrt(np.maximum(disc, 0.0))
            t1, t2 = (-half_b - root) / dd, (-half_b + root) / dd
        hit = (disc >= 0) & (dd > 0)
        start = np.where(hit & (t1 < start), t1, start)
        end = np.where(hit & (t2 > end), t2, end)
    return np.maximum(start, 0.0), np.minimum(end, 1.0)


def _may_adjoin(
    geometry_ft: np.ndarray,
    edges: _Edges,
    a: np.ndarray,
    b: np.ndarray,
    snap_ft: float,
    least: float,
) -> np.ndarray:
    """Whether the stretch of ``a``'s boundary within ``snap_ft`` of ``b`` (what
    :func:`adjoining_pairs` measures with GEOS) could be ``least`` or more: False only where
    it surely is less.

    The stretch is bounded from above without GEOS: it lies in ``b``'s box grown by the snap,
    and each of ``a``'s edges there is either within the snap of one of ``b``'s edges (an
    exact stretch of it: where it crosses each edge's capsule), or inside ``b`` (GEOS's
    buffer holds ``b`` itself: such a pair is measured), or away from ``b``. The snap is taken
    a thousandth of a foot wider, for the rounding of GEOS's buffer and of this bound.
    """
    from posting.index import exclusive_cumsum, expand_counts

    may = np.ones(len(a), dtype=bool)
    if not len(a):
        return may
    r = snap_ft * (1 + 1e-6) + 1e-3
    grow = np.array([-r, -r, r, r])
    box_a, box_b = shapely.bounds(geometry_ft[a]), shapely.bounds(geometry_ft[b])
    pa, ea = _edges_in_boxes(edges, a, box_b + grow)  # a's edges near b's box
    pb, eb = _edges_in_boxes(edges, b, box_a + grow)  # b's edges near a's box
    na, nb = np.bincount(pa, minlength=len(a)), np.bincount(pb, minlength=len(a))
    small = na * nb <= PAIR_EDGE_CAP
    start_a, start_b = exclusive_cumsum(na), exclusive_cumsum(nb)
    # every edge of a near b's box with every edge of b near a's box, pair by pair
    pair, k = expand_counts(np.where(small, na * nb, 0))
    ia = start_a[pair] + k // nb[pair]  # which of a's edges (an index into pa, ea)
    ib = eb[start_b[pair] + k % nb[pair]]
    p0 = edges.p[ea[ia]]
    d = edges.q[ea[ia]] - p0
    t0, t1 = _near_segment(p0, d, edges.p[ib], edges.q[ib], r)
    hit = t1 >= t0
    ia, t0, t1 = ia[hit], t0[hit], t1[hit]
    # the union of the stretches along each edge of a: sorted by start, each adds what goes
    # past the ends of those before it; the gaps between them are away from b or inside it
    by = np.lexsort((t0, ia))
    ia, t0, t1 = ia[by], t0[by], t1[by]
    first = np.r_[True, ia[1:] != ia[:-1]] if len(ia) else np.zeros(0, dtype=bool)
    reach = pd.Series(t1).groupby(ia).cummax().to_numpy()
    before = np.where(first, 0.0, np.r_[0.0, reach[:-1]])
    covered = np.maximum(t1 - np.maximum(t0, before), 0.0)
    edge_len = np.hypot(*(edges.q[ea] - edges.p[ea]).T)
    near_ft = np.bincount(
        pa[ia], weights=covered * edge_len[ia], minlength=len(a)
    )  # a's boundary within the snap of b's edges
    last = np.r_[ia[1:] != ia[:-1], True] if len(ia) else np.zeros(0, dtype=bool)
    gap_edge = np.concatenate([ia, ia[last]])
    gap_from = np.concatenate([before, reach[last]])
    gap_to = np.concatenate([t0, np.ones(last.sum())])
    lonely = np.ones(len(ea), dtype=bool)  # a's edges near no edge of b: wholly a gap
    lonely[ia] = False
    lonely &= small[pa]
    gap_edge = np.concatenate([gap_edge, np.flatnonzero(lonely)])
    gap_from = np.concatenate([gap_from, np.zeros(lonely.sum())])
    gap_to = np.concatenate([gap_to, np.ones(lonely.sum())])
    gap = gap_to > gap_from
    gap_edge, mid = gap_edge[gap], (gap_from[gap] + gap_to[gap]) / 2
    x = edges.p[ea[gap_edge], 0] + mid * (edges.q[ea[gap_edge], 0] - edges.p[ea[gap_edge], 0])
    y = edges.p[ea[gap_edge], 1] + mid * (edges.q[ea[gap_edge], 1] - edges.p[ea[gap_edge], 1])
    inside = np.zeros(len(a), dtype=bool)
    inside[pa[gap_edge][shapely.intersects_xy(geometry_ft[b[pa[gap_edge]]], x, y)]] = True
    may[small] = (near_ft[small] >= least - 1e-3) | inside[small]
    return may


class _Merged(NamedTuple):
    layer: ParcelLayer
    source_rows: list[list[int]]
    lot_lines: np.ndarray
    geometry_ft: np.ndarray
    group: np.ndarray
    invalid: np.ndarray
    repaired: np.ndarray
    lon: np.ndarray
    lat: np.ndarray
    bounds_lonlat: np.ndarray


def _merge(layer, key, snap_ft, geometry_ft, group, invalid, repaired, lon, lat, bounds_lonlat):
    """Merge adjoining parcels with the same key into properties.

    Parcels adjoin when they share a stretch of boundary: at least ``max(5 ft, 5 x snap)`` of
    one's boundary lies within ``snap_ft`` of the other (so digitising slivers narrower than the
    snap do not keep neighbours apart, while lots touching at a single point stay apart). A
    property keeps its first parcel's row, id and attributes, and lists every input row it
    came from; its geometry is the union, closed over slivers by buffering out and back in by
    ``snap_ft`` (mitred, so corners stay sharp); its lots' boundaries are kept (``lot_lines``:
    the inner lines among them, for why a marker on one is not assigned). Parcels of different
    working CRS groups, or without usable geometry, are never merged.
    """
    n = len(key)
    a_all, b_all = adjoining_pairs(geometry_ft, key, group, invalid, snap_ft)
    label = _components(n, a_all, b_all)
    roots, prop_of = np.unique(label, return_inverse=True)  # properties in order of first row
    m = len(roots)
    members = pd.Series(np.arange(n)).groupby(prop_of).agg(list).tolist()
    new_geom = geometry_ft[roots].copy()
    several = np.bincount(prop_of, minlength=m) > 1
    lot_lines = np.full(m, None, dtype=object)
    lots = np.flatnonzero(several[prop_of])
    if len(lots):
        parts, k = shapely.get_parts(shapely.boundary(geometry_ft[lots]), return_index=True)
        _, of = np.unique(prop_of[lots][k], return_inverse=True)  # (the merged, in order)
        by = np.argsort(of, kind="stable")  # (shapely takes the indices in order)
        lot_lines[several] = shapely.multilinestrings(parts[by], indices=of[by])
    for p in np.flatnonzero(several):  # merged properties only
        rows = members[p]
        # a sliver a hair wide (1e-34 ft: valid, as it is not exactly flat) has mitre joins
        # GEOS computes by dividing by ~0; the merged outline is right, quietly
        with np.errstate(divide="ignore", invalid="ignore"):
            grown = shapely.buffer(geometry_ft[rows], snap_ft, join_style="mitre")
            merged = shapely.buffer(dissolve(grown), -snap_ft, join_style="mitre")
        merged = shapely.make_valid(merged, method="structure", keep_collapsed=False)
        polys = shapely.get_parts(merged)
        polys = polys[shapely.get_type_id(polys) == 3]
        new_geom[p] = polys[0] if len(polys) == 1 else shapely.MultiPolygon(list(polys))
    notes = [
        "; ".join(str(repaired[r]) for r in rows if repaired[r] is not None) or None
        for rows in members
    ]
    b = bounds_lonlat
    if (b[:, 2] > 180).any():  # a lot across 180 (east beyond it): its neighbours west of 0 too
        beyond = pd.Series(b[:, 2] > 180).groupby(prop_of).transform("any").to_numpy()
        b = b + np.where(beyond & (b[:, 2] < 0), 360.0, 0.0)[:, None] * np.array([1, 0, 1, 0])
    bounds = np.column_stack(
        [
            pd.Series(b[:, 0]).groupby(prop_of).min(),
            pd.Series(b[:, 1]).groupby(prop_of).min(),
            pd.Series(b[:, 2]).groupby(prop_of).max(),
            pd.Series(b[:, 3]).groupby(prop_of).max(),
        ]
    )
    attrs = (
        layer.attributes.iloc[roots].reset_index(drop=True)
        if len(layer.attributes.columns)
        else pd.DataFrame(index=range(m))
    )
    merged_layer = ParcelLayer(
        layer.source,
        layer.ids[roots],
        None if layer.owners is None else layer.owners[roots],
        np.full(m, None, dtype=object),
        layer.crs,
        attrs,
        layer.id_field,
        list(layer.notes),
    )
    return _Merged(
        merged_layer,
        members,
        lot_lines,
        new_geom,
        group[roots],
        invalid[roots],
        np.asarray(notes, dtype=object),
        lon[roots],
        lat[roots],
        bounds,
    )


# One function on purpose (152 lines): each parcel's way from the input to working feet
# (type, place on Earth, working CRS, projection, validity, repair, merging, area, rings) is one
# sequence of vectorised steps over the same per-parcel arrays.
def prepare_parcels(
    layer: ParcelLayer,
    settings: Settings | None = None,
    *,
    merge_key: np.ndarray | None = None,
    corners: bool = True,
    plan: Callable[..., tuple[list[WorkingCRS], np.ndarray]] | None = None,
) -> PreparedParcels:
    """Project, repair and split parcels into rings and corners.

    Parameters
    ----------
    layer
        Parcels as read by :func:`posting.io.read_parcels`.
    settings
        Corner detection settings, and the snapping tolerance for merging.
    merge_key
        Per parcel, an owner (or None): adjoining parcels with the same one are merged into one
        property, whose outer boundary alone is measured (see :func:`_merge`).
    corners
        Find the rings' corners too (:func:`add_corners`); a runner that finds them later,
        beside other work, says False.
    plan
        Chooses the working CRSs, called as :func:`posting.crs.plan_working_crs` (the default)
        is, with the settings' ``elevation_ft``; a partition of a larger layer is given the
        whole layer's (:class:`posting.partition.WorkingPlan`, made at that elevation).
    """
    settings = settings or Settings()
    n = len(layer)
    geometry = np.asarray(layer.geometry, dtype=object)
    invalid = np.full(n, None, dtype=object)
    repaired = np.full(n, None, dtype=object)

    types = shapely.get_type_id(geometry)
    missing = types < 0
    invalid[missing] = "no geometry"
    for row, why in layer.problems.items():  # why the file gave none
        invalid[row] = why
    empty = ~missing & shapely.is_empty(geometry)
    invalid[empty] = "empty geometry"
    closed = closed_lines(geometry)
    if layer.closed_lines and closed.any():  # lots drawn as closed lines: the polygons
        geometry = geometry.copy()
        geometry[closed] = polygons_of_closed_lines(geometry[closed])
        types = shapely.get_type_id(geometry)
        repaired[closed] = READ_AS_POLYGON
        closed[:] = False
    polygonal = np.isin(types, (3, 6)) & ~empty
    for i in np.flatnonzero(~missing & ~empty & ~polygonal):
        invalid[i] = _not_a_parcel(_NAMES[types[i]], bool(closed[i]))

    # Where is each parcel on Earth (bounding-box centre), to choose its working CRS.
    bounds = shapely.bounds(geometry)
    cx = (bounds[:, 0] + bounds[:, 2]) / 2
    cy = (bounds[:, 1] + bounds[:, 3]) / 2
    cx[~polygonal] = np.nan
    cy[~polygonal] = np.nan
    lon, lat = to_lonlat(cx, cy, layer.crs)
    box = every_ring_bounds(geometry, bounds)  # (the centre is the shell's)
    corner_lon, corner_lat = to_lonlat(
        np.r_[box[:, 0], box[:, 2], box[:, 0], box[:, 2]],
        np.r_[box[:, 1], box[:, 1], box[:, 3], box[:, 3]],
        layer.crs,
    )
    corner_lon, corner_lat = corner_lon.reshape(4, n), corner_lat.reshape(4, n)
    with np.errstate(invalid="ignore"):
        # (the short way round: a lot of a projected CRS across 180 degrees is boxed as it
        # lies, east beyond 180, not as the rest of the globe)
        west, east = lon_range(corner_lon)
        bounds_lonlat = np.column_stack(
            [
                np.where(np.isnan(corner_lon).any(axis=0), np.nan, west),
                corner_lat.min(axis=0),
                np.where(np.isnan(corner_lon).any(axis=0), np.nan, east),
                corner_lat.max(axis=0),
            ]
        )
    unplaced = polygonal & ~(np.isfinite(lon) & np.isfinite(lat))
    invalid[unplaced] = f"cannot be placed on Earth from {layer.crs.name}"
    across = polygonal & ~unplaced & across_antimeridian(bounds, layer.crs)
    invalid[across] = ANTIMERIDIAN
    unplaced |= across
    lon[unplaced] = np.nan
    if plan is None:
        crss, group = plan_working_crs(lon, lat, layer.crs, settings.ground_ft)
    else:
        crss, group = plan(lon, lat, layer.crs)

    geometry_ft = np.full(n, None, dtype=object)
    for g, wcrs in enumerate(crss):
        sel = np.flatnonzero(group == g)
        geometry_ft[sel] = wcrs.geoms_to_ft(geometry[sel], layer.crs)

    geometry_ft, finite = _flush_tiny(geometry_ft)
    bad = (group >= 0) & ~finite
    invalid[bad] = f"some coordinates cannot be projected from {layer.crs.name}"
    if bad.any():  # a coordinate of the file that is not a number: said so
        xy, which = shapely.get_coordinates(geometry[bad], return_index=True)
        nan = np.flatnonzero(bad)[np.unique(which[~np.isfinite(xy).all(axis=1)])]
        invalid[nan] = "a coordinate is not a number or not finite"
    with np.errstate(invalid="ignore"):
        far = (group >= 0) & ~bad & (np.abs(shapely.bounds(geometry_ft)) > MAX_COORD_FT).any(1)
    invalid[far] = (
        f"coordinates more than {MAX_COORD_FT:,.0f} ft from the working CRS's origin: not a place "
        "on Earth (a typing or unit error?)"
    )
    bad |= far

    ok = (group >= 0) & ~bad
    not_valid = np.zeros(n, dtype=bool)
    not_valid[ok] = ~pmap(shapely.is_valid, geometry_ft[ok])
    idx = np.flatnonzero(not_valid)
    if len(idx):
        reasons = shapely.is_valid_reason(geometry_ft[idx])
        fixed = shapely.make_valid(geometry_ft[idx], method="structure", keep_collapsed=False)
        fixed, dropped = _drop_slivers(fixed)
        collapsed = shapely.is_empty(fixed) | ~np.isin(shapely.get_type_id(fixed), (3, 6))
        for j, i in enumerate(idx):
            why = _reason_lonlat(reasons[j], crss[group[i]])
            if collapsed[j]:
                invalid[i] = f"invalid geometry ({why}) that collapses when repaired"
            else:
                first = f"{repaired[i]}; " if repaired[i] else ""
                repaired[i] = f"{first}repaired: {why}" + (
                    f"; dropped {dropped[j]} sliver(s) under {SLIVER_SQFT:g} sq ft made by the "
                    "repair"
                    if dropped[j]
                    else ""
                )
        geometry_ft[idx] = np.where(collapsed, None, fixed)

    usable = pd.isna(invalid)
    group = np.where(usable, group, -1)
    geometry_ft = np.where(usable, geometry_ft, None)
    source_rows = source_ids = owner_key = lot_lines = None
    if merge_key is not None:
        m = _merge(
            layer,
            np.asarray(merge_key, dtype=object),
            settings.merge_snap_ft,
            geometry_ft,
            group,
            invalid,
            repaired,
            lon,
            lat,
            bounds_lonlat,
        )
        source_ids = [[layer.ids[r] for r in rows] for rows in m.source_rows]
        # (a property's lots share their key: merged by it)
        owner_key = np.asarray(merge_key, dtype=object)[[rows[0] for rows in m.source_rows]]
        lot_lines = m.lot_lines
        layer, source_rows, geometry_ft, group, invalid, repaired = (
            m.layer,
            m.source_rows,
            m.geometry_ft,
            m.group,
            m.invalid,
            m.repaired,
        )
        lon, lat, bounds_lonlat = m.lon, m.lat, m.bounds_lonlat
        n = len(layer)
        usable = pd.isna(invalid)
    area_acres = np.full(n, np.nan)
    for g, wcrs in enumerate(crss):
        sel = np.flatnonzero(group == g)
        area_acres[sel] = _equal_area_acres(geometry_ft[sel], wcrs, lon[sel], lat[sel])

    rings = rings_of(geometry_ft)
    perimeter = np.bincount(rings.parcel, weights=rings.length_ft, minlength=n).astype(float)
    perimeter[~usable] = np.nan
    vertices = ring_vertices(rings.geometry)
    prep = PreparedParcels(
        geometry=ParcelGeometry(
            ids=layer.ids,
            crss=crss,
            group=group,
            geometry_ft=geometry_ft,
            bounds_lonlat=bounds_lonlat,
            rings=rings,
            vertices=vertices,
        ),
        layer=layer,
        invalid=invalid,
        repaired=repaired,
        perimeter_ft=perimeter,
        area_acres=area_acres,
        settings=settings,
        source_rows=source_rows,
        source_ids=source_ids,
        owner_key=owner_key,
        lot_lines=lot_lines,
    )
    return add_corners(prep) if corners else prep
