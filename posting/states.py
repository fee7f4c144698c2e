"""Which US state a place lies in, offline, from the Census Bureau's state boundaries.

The boundaries ship with posting in ``posting/data/us-states.npy.xz`` (1.06 MB): the 50
states, the District of Columbia, Puerto Rico, Guam, the Northern Mariana Islands, American
Samoa and the US Virgin Islands, from the Census Bureau's **TIGER/Line Shapefiles 2024**
(``tl_2024_us_state``, full resolution, public domain), simplified without gaps or overlaps so
that no line moves by more than 5 m (16.4 ft; the largest departure measured is in
``boundaries().meta["max_departure_m"]``). ``posting/data/SOURCES.md`` says how the file was
made; ``scripts/make_us_states.py`` makes it again. Nothing is fetched at run time.

How accurate the lines are
--------------------------
TIGER/Line states are drawn to the *limits of each state's waters*: along a coast the line is
out at sea (the territorial sea, about 3 nautical miles out, or a Great Lake's line), so a
waterfront parcel, a dock or a marsh is inside its state, not "offshore". The lines are the
Census Bureau's depiction for statistics, "not legal land descriptions" (the files' metadata),
and "the positional accuracy ... is not as great as the six decimal places suggest": the Census
Bureau states about +/- 167 ft (the National Map Accuracy Standard of the USGS 1:100,000-scale
maps its lines came from) at best, and has since aligned many lines to within 7.6 m (25 ft).
Add the 16.4 ft of simplification and the 1-2 m between NAD 83 (the data) and WGS 84 (the
parcels), and a state line here is within about 190 ft of the Census Bureau's surveyed
position. That is why a parcel counts as in a state only when it is inside it by more than a
margin (:data:`DEFAULT_MARGIN_FT`, 500 ft).

Measuring
---------
Nothing is measured in degrees. Which polygon holds a point is a question of topology, asked in
longitude/latitude (the segments of the file are at most 0.01° long, so any projection reads the
same line). Every distance is measured in international feet on a transverse Mercator (scale 1,
WGS 84) whose central meridian runs through the middle of the features of each UTM zone, as the
engine measures parcels: a distance is off by at most 0.1 % at the edge of a zone (0.5 ft in 500
ft), and far less for a county. Degrees appear only to draw a search window around a feature,
which is widened to be safe at every latitude.

Examples
--------
>>> import numpy as np
>>> s = state_of(np.array([-84.2807, -76.7075]), np.array([30.4383, 37.2707]))
>>> s["state"].tolist(), s["usps"].tolist()
(['florida', 'virginia'], ['FL', 'VA'])
>>> bool((s["distance_ft"] > 10_000).all())  # both are miles from any state line
True
"""

from __future__ import annotations

import io
import json
import lzma
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from typing import Any

import numpy as np
import pandas as pd
import shapely
from pyproj import CRS, Transformer

from posting.crs import FT_M, WGS84, parse_crs, to_lonlat, utm_zone
from posting.errors import CRSError, InputError
from posting.index import unique_ints

__all__ = [
    "DEFAULT_MARGIN_FT",
    "SOURCE_ACCURACY_FT",
    "StateBoundaries",
    "boundaries",
    "parcel_states",
    "slug_of",
    "state_of",
    "states_table",
]

DATA_FILE = "us-states.npy.xz"
"""The shipped boundaries, in ``posting/data/`` (see ``SOURCES.md`` there)."""

SOURCE_ACCURACY_FT = 167.0
"""The Census Bureau's stated positional accuracy of TIGER/Line coordinates where its lines
came from the USGS 1:100,000-scale maps: the National Map Accuracy Standard, about +/- 167 ft
(Census Bureau, TIGER/Line FAQ Q23). Many lines have since been aligned to 7.6 m (25 ft), but
the files do not say which, so the larger figure is taken."""

DATUM_FT = 6.6
"""NAD 83 (the data) against WGS 84 (the parcels): they differ by 1-2 m (3.3-6.6 ft) in the
United States; the lookup treats them as one."""

ALLOWANCE_FT = 300.0
"""Added to the boundary's accuracy for the parcel layer's own error and for the Census
depiction straying from the surveyed line (a river that moved, an old survey)."""

DEFAULT_MARGIN_FT = 500.0
"""How far inside one state a whole parcel must lie for the state to be taken as its own: the
boundary's accuracy (167 ft stated, 16.4 ft of simplification, 6.6 ft of datum) plus
:data:`ALLOWANCE_FT`, rounded up to the next 100 ft.

>>> import math
>>> math.ceil((SOURCE_ACCURACY_FT + 16.4 + DATUM_FT + ALLOWANCE_FT) / 100) * 100
500
"""

SEGMENTS_PER_PIECE = 32
"""State lines are indexed in pieces of at most this many segments."""

_SEAM_COPY_DEG = 30.0
"""Polygons and lines within this many degrees of the antimeridian are also indexed shifted by
360°, so that a parcel drawn across 180° (in longitudes beyond 180) finds its neighbours."""

_SHIFT = np.array([360.0, 0.0])

_M_PER_DEG_LAT_MIN = 110_574.0
"""Metres in a degree of latitude where it is shortest (at the equator)."""

_M_PER_DEG_LON_EQUATOR = 111_319.49
"""Metres in a degree of longitude on the equator (``a * pi / 180``); at latitude ``phi`` a
degree of longitude is at least this times ``cos(phi)``."""

_WINDOW_SLACK = 1.02
"""Search windows are 2 % larger than the distance asked for, for the projection's scale."""

_MERIDIAN_STEP_DEG = 0.5
"""The grid of meridians that distances to state lines are measured on
(:func:`_own_meridians`)."""

_SHORT_NAMES = {"69": "Northern Mariana Islands", "78": "US Virgin Islands"}


def slug_of(name: str) -> str:
    """A state's profile name: its name in lowercase, words joined by hyphens.

    >>> slug_of("District of Columbia"), slug_of("South Carolina")
    ('district-of-columbia', 'south-carolina')
    """
    return "-".join(name.lower().replace(".", "").split())


@dataclass(frozen=True, eq=False)
class StateBoundaries:
    """The shipped boundaries, indexed for lookups (built once, by :func:`boundaries`).

    Attributes
    ----------
    table
        One row per state or territory, in FIPS order: ``fips``, ``usps``, ``name``, ``slug``,
        ``max_departure_m`` (how far the simplified lines stray from the Census lines).
    geoms
        One MultiPolygon per row of ``table``, longitude/latitude (NAD 83).
    parts, part_state, part_tree
        The polygons one by one (prepared), the row of ``table`` each belongs to, and an
        STRtree over them.
    pieces, piece_state, piece_across, piece_tree
        The state lines in pieces of at most :data:`SEGMENTS_PER_PIECE` segments, each stored
        once: the state on one side, the state on the other (-1: outside every state, i.e. the
        national border or the limit of a state's waters), and an STRtree over them.
    meta
        The file's own description: source, vintage, tolerance, vertices.
    """

    table: pd.DataFrame
    geoms: np.ndarray
    parts: np.ndarray
    part_state: np.ndarray
    part_tree: shapely.STRtree
    pieces: np.ndarray
    piece_state: np.ndarray
    piece_across: np.ndarray
    piece_tree: shapely.STRtree
    meta: dict

    def line_name(self, state: int, across: int) -> str:
        """``the Virginia/North Carolina line``, or ``the outer limit of Washington``."""
        names = self.table["name"].to_numpy()
        if across < 0:
            return f"the outer limit of {names[state]} (national border or edge of its waters)"
        return f"the {names[state]}/{names[across]} line"


@lru_cache(maxsize=1)
def _unpacked() -> bytes:
    """The shipped file, decompressed (3 MB)."""
    return lzma.decompress((files("posting") / "data" / DATA_FILE).read_bytes())


def _read_meta(buf: io.BytesIO) -> dict:
    return json.loads(np.load(buf, allow_pickle=False).tobytes().decode())


@lru_cache(maxsize=1)
def _table() -> pd.DataFrame:
    """Each state's ``fips``, ``usps``, ``name``, ``slug`` and ``max_departure_m``: the file's
    metadata alone (0.05 s, where :func:`boundaries` takes 0.3 s)."""
    rows = _read_meta(io.BytesIO(_unpacked()))["states"]
    names = [_SHORT_NAMES.get(r["fips"], r["name"]) for r in rows]
    return pd.DataFrame(
        {
            "fips": [r["fips"] for r in rows],
            "usps": [r["usps"] for r in rows],
            "name": names,
            "slug": [slug_of(n) for n in names],
            "max_departure_m": [r["max_departure_m"] for r in rows],
        }
    )


def _read(data: bytes) -> tuple[dict, np.ndarray]:
    """The file's metadata and its MultiPolygons (see ``scripts/make_us_states.py``), from
    its decompressed bytes."""
    buf = io.BytesIO(data)
    meta = _read_meta(buf)
    delta = np.load(buf, allow_pickle=False)
    rings, parts, states = (np.load(buf, allow_pickle=False).astype(np.int64) for _ in range(3))
    micro = np.ascontiguousarray(np.cumsum(delta.T.astype(np.int64), axis=0))
    geoms = shapely.from_ragged_array(
        shapely.GeometryType.MULTIPOLYGON, micro * meta["grid_deg"], (rings, parts, states)
    )
    return meta, geoms


def _pieces(
    parts: np.ndarray, part_state: np.ndarray, grid_deg: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every state line once, in pieces, with the state on each side.

    A segment shared by two states appears in both (in opposite directions, on the same
    vertices: the file is a seamless coverage on a 0.000001° grid); one that appears once is
    the outer limit of its state.
    """
    rings, ring_part = shapely.get_rings(parts, return_index=True)
    ring_geom = part_state[ring_part]
    xy, ring = shapely.get_coordinates(rings, return_index=True)
    q = np.round(xy / grid_deg).astype(np.int64)
    keep = np.flatnonzero(ring[1:] == ring[:-1])  # segment k runs from vertex k to k + 1
    a, b = q[keep], q[keep + 1]
    seg_state = ring_geom[ring[keep]]
    swap = (a[:, 0] > b[:, 0]) | ((a[:, 0] == b[:, 0]) & (a[:, 1] > b[:, 1]))
    lo = np.where(swap[:, None], b, a)
    hi = np.where(swap[:, None], a, b)
    order = np.lexsort((hi[:, 1], hi[:, 0], lo[:, 1], lo[:, 0]))
    key = np.column_stack([lo, hi])[order]
    new = np.r_[True, (key[1:] != key[:-1]).any(axis=1)]
    first = order[new]  # the first occurrence of each distinct segment
    # the state on the other side: another occurrence of the same segment, if any
    across_sorted = np.full(len(order), -1, dtype=np.int64)
    same_next = ~new[1:]
    idx = np.flatnonzero(same_next)
    across_sorted[idx] = seg_state[order[idx + 1]]
    across_sorted[idx + 1] = seg_state[order[idx]]
    across = np.full(len(keep), -1, dtype=np.int64)
    across[order] = across_sorted
    is_first = np.zeros(len(keep), dtype=bool)
    is_first[first] = True
    # consecutive first occurrences along a ring, with the same neighbour, make one piece
    seg = np.flatnonzero(is_first)
    brk = np.r_[
        True,
        (np.diff(seg) != 1)
        | (ring[keep[seg[1:]]] != ring[keep[seg[:-1]]])
        | (across[seg[1:]] != across[seg[:-1]]),
    ]
    run = np.cumsum(brk) - 1
    start = np.flatnonzero(brk)
    rank = np.arange(len(seg)) - start[run]
    piece = np.cumsum(np.r_[True, brk[1:] | (rank[1:] % SEGMENTS_PER_PIECE == 0)]) - 1
    coords = np.stack([xy[keep[seg]], xy[keep[seg] + 1]], axis=1).reshape(-1, 2)
    lines = shapely.linestrings(coords, indices=np.repeat(piece, 2))
    head = np.r_[True, piece[1:] != piece[:-1]]
    return lines, seg_state[seg[head]], across[seg[head]]


def _seam_copies(geoms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Copies, shifted by +-360°, of the geometries near the antimeridian, and their origins."""
    b = shapely.bounds(geoms)
    east = np.flatnonzero(b[:, 0] < -180 + _SEAM_COPY_DEG)
    west = np.flatnonzero(b[:, 2] > 180 - _SEAM_COPY_DEG)
    copies = np.concatenate(
        [
            shapely.transform(geoms[east], lambda xy: xy + _SHIFT),
            shapely.transform(geoms[west], lambda xy: xy - _SHIFT),
        ]
    )
    return copies, np.concatenate([east, west])


@lru_cache(maxsize=1)
def boundaries() -> StateBoundaries:
    """The shipped state boundaries, read and indexed once per process (under a second).

    >>> b = boundaries()
    >>> len(b.table), b.table["usps"].isin(["DC", "PR", "GU"]).sum()
    (56, np.int64(3))
    """
    meta, geoms = _read(_unpacked())
    table = _table().copy()
    parts, part_state = shapely.get_parts(geoms, return_index=True)
    pieces, piece_state, piece_across = _pieces(parts, part_state, meta["grid_deg"])
    copies, origin = _seam_copies(parts)
    parts = np.concatenate([parts, copies])
    part_state = np.concatenate([part_state, part_state[origin]]).astype(np.int64)
    shapely.prepare(parts)
    copies, origin = _seam_copies(pieces)
    pieces = np.concatenate([pieces, copies])
    piece_state = np.concatenate([piece_state, piece_state[origin]])
    piece_across = np.concatenate([piece_across, piece_across[origin]])
    return StateBoundaries(
        table=table,
        geoms=geoms,
        parts=parts,
        part_state=part_state,
        part_tree=shapely.STRtree(parts),
        pieces=pieces,
        piece_state=piece_state,
        piece_across=piece_across,
        piece_tree=shapely.STRtree(pieces),
        meta=meta,
    )


def states_table() -> pd.DataFrame:
    """Every state and territory in the file: ``fips``, ``usps``, ``name``, ``slug``.

    >>> t = states_table()
    >>> t.loc[t["usps"] == "SC", "slug"].item(), len(t[t["fips"] < "60"])
    ('south-carolina', 51)
    """
    return _table()[["fips", "usps", "name", "slug"]].copy()


# --- measuring --------------------------------------------------------------------------------


@lru_cache(maxsize=512)
def _to_tm(lon0: float) -> Transformer:
    """WGS 84 longitude/latitude to a transverse Mercator in international feet, scale 1 on
    meridian ``lon0`` (PROJ's exact algorithm: good far beyond a zone's width)."""
    crs = CRS.from_proj4(
        f"+proj=tmerc +lat_0=0 +lon_0={lon0} +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft +no_defs"
    )
    return Transformer.from_crs(WGS84, crs, always_xy=True)


def _project(geoms: np.ndarray, t: Transformer) -> np.ndarray:
    def fn(xy: np.ndarray) -> np.ndarray:
        x, y = t.transform(xy[:, 0], xy[:, 1], errcheck=False)
        return np.column_stack([x, y])

    return shapely.transform(geoms, fn)


def _zones(lon: np.ndarray, lat: np.ndarray) -> tuple[np.ndarray, list[float]]:
    """Group features by UTM zone; each group's central meridian is the middle of its features."""
    codes, group = np.unique(utm_zone(lon, lat), return_inverse=True)
    meridians = []
    for k in range(len(codes)):
        glon = lon[group == k]
        meridians.append(round((float(glon.min()) + float(glon.max())) / 2, 3))
    return group, meridians


def _own_meridians(lon: np.ndarray) -> tuple[np.ndarray, list[float]]:
    """Group features by the meridian they are measured on: each one's own centre longitude to
    the nearest :data:`_MERIDIAN_STEP_DEG`, a fixed grid, so that a parcel's distance to a line
    is the same whichever parcels are looked up with it (a partition's or a whole state's). A
    feature is at most 0.25° of longitude from its meridian (28 km): the transverse Mercator's
    scale there is within 1e-5 of 1, 0.005 ft in the 500 ft margin."""
    step = _MERIDIAN_STEP_DEG
    meridians, group = np.unique(np.round(lon / step) * step, return_inverse=True)
    return group, [float(m) for m in meridians]


def _windows(bounds: np.ndarray, distance_ft: np.ndarray | float) -> np.ndarray:
    """Longitude/latitude boxes that hold every place within ``distance_ft`` of each bounds."""
    d_m = np.asarray(distance_ft, dtype=float) * FT_M * _WINDOW_SLACK
    dlat = d_m / _M_PER_DEG_LAT_MIN
    top = np.minimum(np.maximum(np.abs(bounds[:, 1]), np.abs(bounds[:, 3])) + dlat, 89.9)
    dlon = np.minimum(d_m / (_M_PER_DEG_LON_EQUATOR * np.cos(np.radians(top))), 360.0)
    return shapely.box(
        bounds[:, 0] - dlon, bounds[:, 1] - dlat, bounds[:, 2] + dlon, bounds[:, 3] + dlat
    )


def _nearest_line(b: StateBoundaries, geoms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each (non-empty, longitude/latitude) geometry: the distance in feet to the nearest
    state line, and that piece of line."""
    n = len(geoms)
    dist = np.full(n, np.nan)
    piece = np.full(n, -1, dtype=np.int64)
    if n == 0:
        return dist, piece
    bounds = shapely.bounds(geoms)
    group, meridians = _zones((bounds[:, 0] + bounds[:, 2]) / 2, (bounds[:, 1] + bounds[:, 3]) / 2)
    for k, lon0 in enumerate(meridians):
        sel = np.flatnonzero(group == k)
        t = _to_tm(lon0)
        box = np.r_[bounds[sel, :2].min(axis=0), bounds[sel, 2:].max(axis=0)]
        # A bound on every feature's distance: from the box's centre to any one line (the
        # nearest in degrees is a good guess, measured in feet), plus the centre's distance to
        # the farthest corner of the box.
        centre = shapely.points((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        guess = b.piece_tree.query_nearest(np.array([centre]), all_matches=False)[1][:1]
        corners = shapely.points(box[[0, 2, 2, 0]], box[[1, 1, 3, 3]])
        c_tm, corners_tm = _project(np.array([centre]), t)[0], _project(corners, t)
        reach = float(shapely.distance(c_tm, _project(b.pieces[guess], t))[0])
        reach += float(shapely.distance(c_tm, corners_tm).max())
        # every line that can be nearest to a feature lies in this window: the nearest among
        # them, in feet
        near = b.piece_tree.query(_windows(box[None, :], reach)[0])
        tree = shapely.STRtree(_project(b.pieces[near], t))
        (i, j), d = tree.query_nearest(
            _project(geoms[sel], t), return_distance=True, all_matches=False
        )
        dist[sel[i]] = d
        piece[sel[i]] = near[j]
    return dist, piece


def _lines_within(
    b: StateBoundaries, geoms: np.ndarray, margin_ft: float, bounds: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Like :func:`_nearest_line`, but only for lines within ``margin_ft``: NaN and -1 for a
    geometry farther than that from every line (the usual case, found without measuring).
    ``bounds``: the geometries' own (``shapely.bounds``), when the caller has them."""
    n = len(geoms)
    dist = np.full(n, np.nan)
    piece = np.full(n, -1, dtype=np.int64)
    if bounds is None:
        bounds = shapely.bounds(geoms)
    gi, pj = b.piece_tree.query(_windows(bounds, margin_ft))
    if len(gi) == 0:
        return dist, piece
    cx = (bounds[:, 0] + bounds[:, 2]) / 2
    involved = unique_ints(gi)
    group, meridians = _own_meridians(cx[involved])
    pair_group = group[np.searchsorted(involved, gi)]
    pair_dist = np.empty(len(gi))
    for k, lon0 in enumerate(meridians):
        sel = np.flatnonzero(pair_group == k)
        t = _to_tm(lon0)
        u_geom, inv_geom = np.unique(gi[sel], return_inverse=True)
        u_piece, inv_piece = np.unique(pj[sel], return_inverse=True)
        pg = _project(geoms[u_geom], t)
        pp = _project(b.pieces[u_piece], t)
        pair_dist[sel] = shapely.distance(pg[inv_geom], pp[inv_piece])
    within = pair_dist <= margin_ft
    gi, pj, pair_dist = gi[within], pj[within], pair_dist[within]
    order = np.lexsort((pair_dist, gi))
    gi, pj, pair_dist = gi[order], pj[order], pair_dist[order]
    head = np.r_[True, gi[1:] != gi[:-1]] if len(gi) else np.zeros(0, dtype=bool)
    dist[gi[head]] = pair_dist[head]
    piece[gi[head]] = pj[head]
    return dist, piece


def _states_hit(b: StateBoundaries, geoms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(geometry, state) pairs, each once, for every state a geometry intersects."""
    gi, pj = b.part_tree.query(geoms)
    hit = np.zeros(len(gi), dtype=bool)
    for part in unique_ints(pj):  # one vectorised call per state polygon, never per feature
        sel = pj == part
        hit[sel] = shapely.intersects(b.parts[part], geoms[gi[sel]])
    # each (geometry, state) once, in that order: one integer key per pair (a 1-D unique, not
    # a row-wise one)
    n_states = np.int64(len(b.table))
    key = unique_ints(gi[hit].astype(np.int64) * n_states + b.part_state[pj[hit]])
    return key // n_states, key % n_states


# --- the checks -------------------------------------------------------------------------------


def _check_lonlat(x: np.ndarray, y: np.ndarray, what: str) -> None:
    ok = np.isfinite(x) & np.isfinite(y)
    bad = ok & ((np.abs(y) > 90) | (np.abs(x) > 540))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise CRSError(
            f"{what} {i} is at ({x[i]:g}, {y[i]:g}), which is no longitude/latitude: the "
            "states are looked up in WGS 84 longitude/latitude; reproject the layer or give "
            "its CRS with {option}",
            row=i,
            parameter="crs",
        )


def state_of(lon: Any, lat: Any) -> pd.DataFrame:
    """The state or territory each point lies in, and how far the nearest state line is.

    Parameters
    ----------
    lon, lat
        WGS 84 longitude and latitude in degrees, arrays of one shape (flattened). Longitudes
        outside -180..180 are wrapped.

    Returns
    -------
    pandas.DataFrame
        One row per point, in order:

        ``state``
            The profile name (``florida``, ``south-carolina``, ``district-of-columbia``),
            or None outside every state (at sea, in Canada or Mexico) or for a NaN point.
        ``usps``, ``name``, ``fips``
            The postal code, the name and the FIPS code (None likewise).
        ``distance_ft``
            Distance in feet to the nearest state line: another state's, or the national
            border or the edge of the state's waters where that is what bounds it. For a
            point outside every state, the distance to the nearest state. 0 on a line.
        ``across``
            The profile name of the state on the far side of that line, or ``""`` where the
            far side is outside every state.

    Raises
    ------
    InputError
        When ``lon`` and ``lat`` differ in size.
    CRSError
        When a coordinate cannot be a longitude/latitude (a projected layer).

    Examples
    --------
    >>> s = state_of([-77.0365], [38.8977])  # the White House
    >>> s.loc[0, ["state", "usps", "across"]].tolist()
    ['district-of-columbia', 'DC', 'virginia']
    >>> state_of([-160.0], [30.0]).loc[0, "state"] is None  # the Pacific
    True
    """
    x = np.asarray(lon, dtype=float).ravel()
    y = np.asarray(lat, dtype=float).ravel()
    if x.shape != y.shape:
        raise InputError(f"{x.size} longitudes but {y.size} latitudes", parameter="lat")
    _check_lonlat(x, y, "point")
    b = boundaries()
    n = len(x)
    ok = np.flatnonzero(np.isfinite(x) & np.isfinite(y))
    x = np.where(np.isfinite(x), (x + 180.0) % 360.0 - 180.0, x)
    pts = shapely.points(x[ok], y[ok])
    state = np.full(n, -1, dtype=np.int64)
    gi, si = _states_hit(b, pts)
    state[ok[gi[::-1]]] = si[::-1]  # on a line: the first state in FIPS order
    dist, piece = _nearest_line(b, pts)
    distance = np.full(n, np.nan)
    distance[ok] = dist
    across = np.full(n, None, dtype=object)
    near_state = b.piece_state[piece]
    near_across = b.piece_across[piece]
    # the far side of the nearest line, seen from the point's own state
    far = np.where(near_state == state[ok], near_across, near_state)
    slugs = b.table["slug"].to_numpy(dtype=object)
    across[ok] = np.where(far >= 0, slugs[np.maximum(far, 0)], "")
    return _rows(b, state, {"distance_ft": distance, "across": across})


def _rows(b: StateBoundaries, state: np.ndarray, extra: dict) -> pd.DataFrame:
    def col(name: str) -> np.ndarray:
        values = b.table[name].to_numpy(dtype=object)[np.maximum(state, 0)]
        return np.where(state >= 0, values, None)

    columns = {"state": col("slug"), "usps": col("usps"), "name": col("name")}
    columns |= {"fips": col("fips")} | extra
    # object columns keep None (no state) and tuples as they are
    return pd.DataFrame(
        {k: pd.Series(v, dtype=object) if v.dtype == object else v for k, v in columns.items()}
    )


def _unwrap(geoms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Geometries drawn across the antimeridian (spanning more than 180° of longitude) with
    their western longitudes moved past 180, so that they are one piece again; and their
    bounds (``shapely.bounds`` of the geometries returned)."""
    b = shapely.bounds(geoms)
    with np.errstate(invalid="ignore"):
        across = np.flatnonzero(b[:, 2] - b[:, 0] > 180.0)
    if len(across):
        geoms = geoms.copy()
        geoms[across] = shapely.transform(
            geoms[across], lambda xy: np.where(xy[:, :1] < 0, xy + _SHIFT, xy)
        )
        b[across] = shapely.bounds(geoms[across])
    return geoms, b


def parcel_states(
    geoms: Any, margin_ft: float = DEFAULT_MARGIN_FT, *, crs: Any = None
) -> pd.DataFrame:
    """The state of each parcel, when the whole parcel lies inside one state by more than
    ``margin_ft``, and otherwise why not.

    Parameters
    ----------
    geoms
        Parcel geometries (shapely, a GeoSeries or an array) in WGS 84 longitude/latitude,
        or in ``crs``. A parcel drawn across the antimeridian may use longitudes beyond 180.
    margin_ft
        How far inside its state a parcel must lie, in feet (default
        :data:`DEFAULT_MARGIN_FT`, 500 ft: the boundaries' accuracy plus 300 ft). 0 asks only
        that it lie wholly inside.
    crs
        The CRS of ``geoms`` when it is not WGS 84 (``EPSG:2236``, a pyproj CRS, a
        ``ParcelLayer``'s ``crs``): the parcels are taken to longitude/latitude first.

    Returns
    -------
    pandas.DataFrame
        One row per parcel, in order (the input's index when it has one):

        ``status``
            ``ok`` (the state is known), ``near`` (inside one state but within ``margin_ft``
            of its line), ``straddles`` (across a state line, or across the national border or
            the edge of a state's waters), ``outside`` (in no state: abroad or at sea) or
            ``empty`` (no geometry).
        ``state``, ``usps``, ``name``, ``fips``
            The state, for ``ok`` only (``state`` is its profile name); None otherwise.
        ``states``
            The profile names of every state the parcel touches, in FIPS order (a tuple).
        ``distance_ft``
            Distance in feet from the parcel to the nearest state line, when that is within
            ``margin_ft``; NaN when farther (0 across a line).
        ``line``
            That line, as the Census Bureau draws it (``the Virginia/North Carolina line``),
            or ``""``.
        ``reason``
            Why the state is not known, in words (``""`` for ``ok``).

    Raises
    ------
    InputError
        When ``margin_ft`` is negative or not a number.
    CRSError
        When a coordinate cannot be a longitude/latitude (a projected layer).

    Examples
    --------
    >>> import shapely
    >>> r = parcel_states([shapely.box(-84.29, 30.43, -84.28, 30.44),      # Tallahassee
    ...                    shapely.box(-79.50, 36.53, -79.49, 36.55)])     # across VA/NC
    >>> r["status"].tolist(), r.loc[0, "state"], r.loc[1, "states"]
    (['ok', 'straddles'], 'florida', ('north-carolina', 'virginia'))
    """
    margin = _margin(margin_ft)
    index = geoms.index if isinstance(geoms, pd.Series) else None
    arr = _in_lonlat(geoms, crs)
    b = boundaries()
    present = np.flatnonzero(~(shapely.is_missing(arr) | shapely.is_empty(arr)))
    g, bounds = _unwrap(arr[present])
    _check_parcel_lonlat(g, present)
    hits = _Touched.of(b, g)
    dist, piece = _lines_within(b, g, margin, bounds)
    names_line = _line_names(b, piece, hits.one)
    st, why = _statuses(b, hits, dist, piece >= 0, names_line, margin)
    out = _parcel_rows(b, len(arr), present, hits, st, why, dist, names_line)
    if index is not None:
        out.index = index
    return out


def _margin(margin_ft: Any) -> float:
    """``margin_ft`` as a float.

    Raises
    ------
    InputError
        When it is negative or not a number.
    """
    try:
        margin = float(margin_ft)
    except (TypeError, ValueError):
        margin = math.nan
    if not (math.isfinite(margin) and margin >= 0):
        raise InputError(
            f"the margin must be a distance of 0 ft or more, not {margin_ft!r}",
            parameter="margin_ft",
        )
    return margin


def _in_lonlat(geoms: Any, crs: Any) -> np.ndarray:
    """The parcels as a flat array of geometries in WGS 84 longitude/latitude (taken there
    from ``crs`` when that is given and another CRS)."""
    arr = np.asarray(geoms.to_numpy() if isinstance(geoms, pd.Series) else geoms, dtype=object)
    arr = arr.ravel()
    if crs is None:
        return arr
    try:
        source = parse_crs(crs)
    except CRSError as exc:
        raise CRSError(exc.message, parameter="crs") from None
    if source == WGS84:
        return arr

    def lonlat(xy: np.ndarray) -> np.ndarray:
        return np.column_stack(to_lonlat(xy[:, 0], xy[:, 1], source))

    return shapely.transform(arr, lonlat)


@dataclass(frozen=True, eq=False)
class _Touched:
    """The states each parcel touches.

    ``count`` states per parcel; ``one``, the state of a parcel that touches exactly one (-1
    otherwise); ``states``, their profile names in FIPS order, as tuples.
    """

    count: np.ndarray
    one: np.ndarray
    states: np.ndarray

    @classmethod
    def of(cls, b: StateBoundaries, g: np.ndarray) -> _Touched:
        """The states each geometry of ``g`` touches."""
        gi, si = _states_hit(b, g)
        count = np.bincount(gi, minlength=len(g))
        slugs = b.table["slug"].to_numpy(dtype=object)
        one = np.full(len(g), -1, dtype=np.int64)
        single = count[gi] == 1
        one[gi[single]] = si[single]
        # the states each parcel touches, as tuples: one shared tuple per state for the parcels
        # in one state; built one by one only for parcels across a line (pairs sorted by parcel)
        touched = np.empty(len(g), dtype=object)
        touched[:] = [()] * len(g)
        alone = np.empty(len(slugs), dtype=object)
        alone[:] = [(s,) for s in slugs]
        touched[one >= 0] = alone[one[one >= 0]]
        starts = np.r_[0, np.cumsum(count)[:-1]]
        for k in np.flatnonzero(count > 1):
            touched[k] = tuple(slugs[si[starts[k] : starts[k] + count[k]]])
        return cls(count, one, touched)


def _line_names(b: StateBoundaries, piece: np.ndarray, one: np.ndarray) -> np.ndarray:
    """The name of the line each parcel is near (``piece``, -1 for none), its own state
    named first; ``""`` for a parcel near none."""
    names_line = np.full(len(piece), "", dtype=object)
    k = np.flatnonzero(piece >= 0)  # only parcels within the margin of a line
    if not len(k):
        return names_line
    side = b.piece_state[piece[k]].astype(np.int64)
    far = b.piece_across[piece[k]].astype(np.int64)
    flip = (far >= 0) & (far == one[k])  # the parcel's own state first
    side, far = np.where(flip, far, side), np.where(flip, side, far)
    # each distinct line named once
    pairs, where = np.unique(np.column_stack([side, far]), axis=0, return_inverse=True)
    names = np.array([b.line_name(int(s), int(f)) for s, f in pairs], dtype=object)
    names_line[k] = names[where.reshape(-1)]
    return names_line


def _statuses(
    b: StateBoundaries,
    hits: _Touched,
    dist: np.ndarray,
    has_line: np.ndarray,
    names_line: np.ndarray,
    margin: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Each parcel's status (``ok``, ``near``, ``straddles``, ``outside``) and the reason in
    words (``""`` for ``ok``)."""
    count = hits.count
    st = np.full(len(count), "ok", dtype=object)
    why = np.full(len(count), "", dtype=object)
    is_out = count == 0
    is_across = (count > 1) | ((count == 1) & has_line & (dist == 0))
    is_near = (count == 1) & has_line & ~is_across
    st[is_out], st[is_across], st[is_near] = "outside", "straddles", "near"
    # the reasons in words, a kind at a time
    named = names_line != ""
    why[is_out & ~named] = "outside every state (abroad or at sea)"
    far = is_out & named
    why[far] = "outside every state, " + _feet(dist[far]) + " ft from " + names_line[far]
    between = is_across & (count > 1)  # across a line between states: name them all
    why[is_across & ~between] = "straddles " + names_line[is_across & ~between]
    names = dict(zip(b.table["slug"], b.table["name"], strict=True))
    for k in np.flatnonzero(between):
        why[k] = f"straddles the {'/'.join(names[s] for s in hits.states[k])} line"
    near = f" (margin {margin:,.0f} ft)"
    why[is_near] = "within " + _feet(dist[is_near]) + " ft of " + names_line[is_near] + near
    return st, why


def _feet(x: np.ndarray) -> np.ndarray:
    """Each of ``x`` in words as ``f"{x:,.0f}"`` writes it, each rounded value formatted once.

    Examples
    --------
    >>> _feet(np.array([1234.4, 0.5, 2.5, 1234.0])).tolist()
    ['1,234', '0', '2', '1,234']
    """
    values, where = np.unique(np.round(x), return_inverse=True)
    return np.array([f"{v:,.0f}" for v in values], dtype=object)[where.reshape(-1)]


def _parcel_rows(
    b: StateBoundaries,
    n: int,
    present: np.ndarray,
    hits: _Touched,
    st: np.ndarray,
    why: np.ndarray,
    dist: np.ndarray,
    names_line: np.ndarray,
) -> pd.DataFrame:
    """The table :func:`parcel_states` returns, from the findings for the ``present``
    parcels (the others are ``empty``)."""
    status = np.full(n, "empty", dtype=object)
    state = np.full(n, -1, dtype=np.int64)
    distance = np.full(n, np.nan)
    line = np.full(n, "", dtype=object)
    reason = np.full(n, "no geometry", dtype=object)
    states_col = np.empty(n, dtype=object)
    states_col[:] = [()] * n
    states_col[present] = hits.states
    distance[present] = dist
    line[present] = names_line
    status[present] = st
    reason[present] = why
    state[present] = np.where(st == "ok", hits.one, -1)
    out = _rows(
        b,
        state,
        {
            "states": states_col,
            "distance_ft": distance,
            "line": line,
            "reason": reason,
        },
    )
    out.insert(0, "status", status)
    return out


def _check_parcel_lonlat(g: np.ndarray, row: np.ndarray) -> None:
    xy = shapely.get_coordinates(g)
    bad = ~((np.abs(xy[:, 1]) <= 90) & (np.abs(xy[:, 0]) <= 540))
    if bad.any():  # which parcel: only then are the vertices' owners needed
        xy, owner = shapely.get_coordinates(g, return_index=True)
        k = int(np.flatnonzero(bad)[0])
        i = int(row[owner[k]])
        raise CRSError(
            f"parcel {i} has a vertex at ({xy[k, 0]:g}, {xy[k, 1]:g}), which is no "
            "longitude/latitude: the states are looked up in WGS 84 longitude/latitude; "
            "reproject the layer or give its CRS with {option}",
            row=i,
            parameter="crs",
        )
