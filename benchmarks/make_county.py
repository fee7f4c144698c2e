"""Build a synthetic county of parcels and surveyed signs for the benchmark.

Run ``.venv/bin/python benchmarks/make_county.py`` (``--help`` for the options). The output is
deterministic: a fixed numpy seed, no wall-clock input. It writes two GeoParquet files in
WGS 84 longitude/latitude (EPSG:4326), like a county export, into ``benchmarks/work/``:

``parcels.parquet``
    100,000 parcels with ``parcel_id`` (string), ``owner``, ``acres`` and ``use_code``.
``signs.parquet``
    1,000,000 markers: the point geometry and ``kind`` (always ``"sign"``). No parcel column:
    the checker has to place every marker by position.

The county is laid out in a local transverse Mercator in feet (origin 28.7°N 81.2°W), as rows
of blocks separated by roads:

* urban rows of house lots (about 0.25-0.75 acre), suburban rows (1-5 acres) and rural rows
  (5-40 acres, one or two lots deep), lot widths varying within each block;
* some lots have a curved frontage (a circular arc) or a meandering front line (a creek),
  with 20-200 vertices on that line;
* a few percent are multipolygons (a lot cut in two by a canal or easement strip) and a few
  percent have a hole (a pond that is not part of the parcel, or an out-parcel that is a
  parcel of its own);
* a few blocks hold no parcels (lakes, parks, public land);
* the whole grid is turned by a small angle, as township lines are.

Markers stand a few feet inside the line (inside both lines at a corner) with GPS noise of a
few feet. Most posted parcels have a sign at every corner and signs 300-450 ft apart; some
owners post densely (100-200 ft, as hunting leases do); some parcels have a gap (a run of
signs missing); many, mostly house lots, have no signs at all. The dense share is tuned so
that the file holds exactly the requested number of markers, about 1-2 % of which stand
outside every parcel (in roads, in the empty blocks, a few miles away).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
from pyproj import CRS

HERE = Path(__file__).resolve().parent
WORK = HERE / "work"
SEED = 20261130
LOCAL = CRS.from_proj4(
    "+proj=tmerc +lat_0=28.7 +lon_0=-81.2 +k=1 +x_0=0 +y_0=0 +units=ft +datum=WGS84 +no_defs"
)
SQFT_PER_ACRE = 43_560.0
COUNTY_WIDTH_FT = 190_000.0
ROTATION_DEG = 0.8
CORNER_TURN_DEG = 25.0
"""Turning (at a vertex, or within ``CORNER_WINDOW_FT`` of boundary) that gets a corner sign.

The checker's default corner is a 30° turn within 20 ft; a little less here, so that every
corner the checker finds has its sign."""
CORNER_WINDOW_FT = 20.0
STRAY_SHARE = 0.015
"""Share of the markers that stand outside every parcel."""
CLASS_NAMES = ("urban", "suburban", "rural")
"""The row classes, in the order of ``ROWS``."""


@dataclass(frozen=True)
class RowClass:
    """How one class of row is laid out.

    Parameters
    ----------
    weight
        Relative chance that a new row is of this class.
    depth_ft
        Range of lot depths (front line to back line).
    lots_deep
        Choices for the number of lots from road to road (2: back to back).
    acres
        Range of lot areas (log-uniform) from which lot widths are drawn.
    lots_per_block
        Range of lots along one side of a block.
    road_ft
        Range of road widths (right of way) around the blocks of the row.
    arc, meander, hole, split
        Chance that a lot has a curved frontage, a meandering front line, a hole, or is cut
        in two parts.
    unposted, gaps
        Chance that a lot has no signs at all, or a run of signs missing.
    """

    weight: float
    depth_ft: tuple[float, float]
    lots_deep: tuple[int, ...]
    acres: tuple[float, float]
    lots_per_block: tuple[int, int]
    road_ft: tuple[float, float]
    arc: float
    meander: float
    hole: float
    split: float
    unposted: float
    gaps: float


ROWS = (
    RowClass(  # URBAN: house lots, back to back
        weight=0.04, depth_ft=(145, 210), lots_deep=(2,), acres=(0.25, 0.75),
        lots_per_block=(6, 24), road_ft=(50, 60),
        arc=0.08, meander=0.02, hole=0.0, split=0.0, unposted=0.30, gaps=0.10,
    ),
    RowClass(  # SUBURBAN: acreage lots
        weight=0.11, depth_ft=(300, 650), lots_deep=(2,), acres=(1, 5),
        lots_per_block=(4, 14), road_ft=(50, 70),
        arc=0.08, meander=0.06, hole=0.05, split=0.08, unposted=0.12, gaps=0.10,
    ),
    RowClass(  # RURAL: tracts, one or two deep
        weight=0.85, depth_ft=(660, 1320), lots_deep=(1, 2), acres=(5, 40),
        lots_per_block=(2, 8), road_ft=(60, 80),
        arc=0.02, meander=0.12, hole=0.05, split=0.08, unposted=0.06, gaps=0.10,
    ),
)  # fmt: skip
EMPTY_BLOCK = 0.03
MIN_BEND_FT = 60.0
"""Tightest radius of a meander: a creek line bends, it does not turn corners."""
NORMAL_SPACING_FT = (300.0, 450.0)
DENSE_SPACING_FT = (100.0, 200.0)
DENSE_WEIGHT = np.array([0.05, 0.3, 1.0])
"""Relative chance, by row class, that a posted parcel is posted densely."""
SETBACK_FT = (3.0, 8.0)
GPS_SIGMA_FT = (1.0, 1.5, 2.5)
"""Per-axis GPS noise of a parcel's survey: mapping-grade to averaged handheld fixes."""
POST_HOLES = 0.5
"""Chance that a posted parcel with a hole is posted along the hole's boundary too."""

LAST = np.array(
    "SMITH JOHNSON WILLIAMS BROWN JONES GARCIA MILLER DAVIS RODRIGUEZ MARTINEZ HERNANDEZ LOPEZ "
    "GONZALEZ WILSON ANDERSON THOMAS TAYLOR MOORE JACKSON MARTIN LEE PEREZ THOMPSON WHITE "
    "HARRIS SANCHEZ CLARK RAMIREZ LEWIS ROBINSON WALKER YOUNG ALLEN KING WRIGHT SCOTT TORRES "
    "NGUYEN HILL FLORES GREEN ADAMS NELSON BAKER HALL RIVERA CAMPBELL MITCHELL CARTER".split()
)
FIRST = np.array(
    "JAMES MARY ROBERT PATRICIA JOHN JENNIFER MICHAEL LINDA DAVID ELIZABETH WILLIAM BARBARA "
    "RICHARD SUSAN JOSEPH JESSICA THOMAS SARAH CHARLES KAREN CHRISTOPHER LISA DANIEL NANCY".split()
)
ENTITY = np.array(["", "", "", "", " LLC", " TRUST", " FAMILY TRUST", " FARMS LLC", " HOLDINGS LP"])
USE_CODES = np.array(["0100", "0200", "5400"], dtype=object)


def _exclusive_cumsum(a: np.ndarray) -> np.ndarray:
    return np.r_[0, np.cumsum(a)[:-1]] if len(a) else np.zeros(0, dtype=a.dtype)


def _within_group(group: np.ndarray) -> np.ndarray:
    """0-based position of each element within its run of equal group labels."""
    if not len(group):
        return np.zeros(0, dtype=np.int64)
    starts = np.r_[0, np.flatnonzero(np.diff(group)) + 1]
    return np.arange(len(group)) - np.repeat(starts, np.diff(np.r_[starts, len(group)]))


@dataclass
class Lots:
    """Rectangular lots of the layout, before any shaping (arrays, one entry per lot).

    ``x0, x1, y0, y1`` bound the lot; ``front`` is +1 when the front line (facing the road) is
    the south side ``y0``, -1 when it is the north side ``y1``; ``cls`` is the row class,
    ``block`` a county-wide block number and ``lot`` the lot number within the block.
    """

    x0: np.ndarray
    x1: np.ndarray
    y0: np.ndarray
    y1: np.ndarray
    front: np.ndarray
    cls: np.ndarray
    block: np.ndarray
    lot: np.ndarray


def layout(rng: np.random.Generator, n_lots: int) -> tuple[Lots, np.ndarray, np.ndarray]:
    """Rows of blocks of lots until at least ``n_lots`` lots exist.

    Parameters
    ----------
    rng
        Random generator.
    n_lots
        Fewest lots to lay out.

    Returns
    -------
    lots
        The lots, row by row.
    empty
        ``(k, 4)`` bounds of blocks left without parcels.
    roads
        ``(m, 3)`` east-west road centre lines ``(y, x_start, x_end)``.
    """
    weights = np.array([c.weight for c in ROWS])
    parts: list[dict[str, np.ndarray]] = []
    empty: list[np.ndarray] = []
    roads: list[tuple[float, float, float]] = []
    y = 0.0
    total = 0
    block_base = 0
    while total < n_lots:
        k = int(rng.choice(len(ROWS), p=weights / weights.sum()))
        c = ROWS[k]
        deep = int(rng.choice(c.lots_deep))
        depth = float(rng.uniform(*c.depth_ft))
        road = float(rng.uniform(*c.road_ft))
        # Blocks along the row; sub-row 0 sets each block's width from its lots' areas.
        nb = int(COUNTY_WIDTH_FT / (c.lots_per_block[0] * 40.0)) + 2
        per = rng.integers(c.lots_per_block[0], c.lots_per_block[1] + 1, nb)
        acres = np.exp(rng.uniform(*np.log(c.acres), per.sum()))
        width = np.clip(acres * SQFT_PER_ACRE / depth, max(50.0, depth / 8), 2640.0)
        bwidth = np.add.reduceat(width, _exclusive_cumsum(per))
        bx0 = _exclusive_cumsum(bwidth + road)
        fits = bx0 + bwidth <= COUNTY_WIDTH_FT
        nb = int(fits.sum())
        bwidth, bx0 = bwidth[:nb], bx0[:nb]
        is_empty = rng.random(nb) < EMPTY_BLOCK
        for b in np.flatnonzero(is_empty):
            empty.append(np.array([bx0[b], y, bx0[b] + bwidth[b], y + deep * depth]))
        for sub in range(deep):
            if sub == 0:
                n_in = per[:nb]
                w = width[: n_in.sum()]
            else:  # independent lots, about as many as fit, scaled to the same block widths
                mean = width.mean() * rng.uniform(0.8, 1.25, nb)
                n_in = np.maximum(np.round(bwidth / mean), 1).astype(np.int64)
                a = np.exp(rng.uniform(*np.log(c.acres), n_in.sum()))
                w = np.clip(a * SQFT_PER_ACRE / depth, max(50.0, depth / 8), 2640.0)
            blk = np.repeat(np.arange(nb), n_in)
            wsum = np.add.reduceat(w, _exclusive_cumsum(n_in))
            w = w * (bwidth / wsum)[blk]
            start = bx0[blk] + (np.cumsum(w) - w) - _exclusive_cumsum(bwidth)[blk]
            # Neighbours share their side line exactly: a lot ends where the next one starts.
            last = np.r_[blk[1:] != blk[:-1], True]
            end = np.where(last, (bx0 + bwidth)[blk], np.r_[start[1:], 0.0])
            keep = ~is_empty[blk]
            ylo = y + sub * depth
            parts.append(
                {
                    "x0": start[keep],
                    "x1": end[keep],
                    "y0": np.full(keep.sum(), ylo),
                    "y1": np.full(keep.sum(), ylo + depth),
                    # Back to back: the south lot fronts the south road, the north lot the
                    # north road. One lot deep: the front is the south side.
                    "front": np.full(keep.sum(), 1 if sub == 0 else -1),
                    "cls": np.full(keep.sum(), k),
                    "block": (block_base + blk)[keep],
                    "lot": (_within_group(blk) + 1 + 100 * sub)[keep],
                }
            )
            total += int(keep.sum())
        block_base += nb
        y += deep * depth
        roads.append((y + road / 2, 0.0, COUNTY_WIDTH_FT))
        y += road
    cols = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
    return Lots(**cols), np.array(empty).reshape(-1, 4), np.array(roads).reshape(-1, 3)


def _front_offsets(
    rng: np.random.Generator, shape: np.ndarray, width: np.ndarray, depth: np.ndarray, k: np.ndarray
) -> np.ndarray:
    """Inward offset of each front-line vertex (an arc or a meander), one array for all lots.

    ``shape`` is 0 (straight), 1 (arc) or 2 (meander) per lot and ``k`` the number of segments
    of its front line; the result has ``sum(k + 1)`` entries, lot by lot, t = 0 .. 1.
    """
    lot = np.repeat(np.arange(len(k)), k + 1)
    t = _within_group(lot) / k[lot]
    # Arc: a circle through both front corners with sagitta s (> 0 bulges into the lot).
    s = rng.uniform(0.05, 0.15, len(k)) * width
    outward = rng.random(len(k)) < 0.3
    s = np.where(outward, -np.minimum(s, 15.0), np.minimum(s, 0.25 * depth))
    r = (width**2 / 4 + s**2) / (2 * np.abs(s))
    u = (t - 0.5) * width[lot]
    arc = np.sign(s[lot]) * (
        np.sqrt(np.maximum(r[lot] ** 2 - u**2, 0.0)) - (r[lot] - np.abs(s[lot]))
    )
    # Meander: a smooth creek line, always into the lot, meeting the side lines at the corners.
    # Bends no tighter than MIN_BEND_FT in radius: |y''| <= amp ((2 pi f / w)^2 0.4 + (pi / w)^2).
    freq = rng.uniform(1.0, 3.0, len(k))
    gentle = width**2 / (MIN_BEND_FT * (0.4 * (2 * np.pi * freq) ** 2 + np.pi**2))
    cap = np.minimum.reduce([0.2 * width, 0.3 * depth, np.full(len(k), 120.0), gentle])
    amp = rng.uniform(0.3, 1.0, len(k)) * cap
    phase = rng.uniform(0, 2 * np.pi, len(k))
    wiggle = (
        amp[lot] * np.sin(np.pi * t) * (0.6 + 0.4 * np.sin(2 * np.pi * freq[lot] * t + phase[lot]))
    )
    return np.select([shape[lot] == 1, shape[lot] == 2], [arc, wiggle], 0.0)


def shells(rng: np.random.Generator, lots: Lots, shape: np.ndarray) -> np.ndarray:
    """Exterior rings of the lots, with arcs and meanders on the front lines.

    Parameters
    ----------
    rng
        Random generator.
    lots
        The layout.
    shape
        0 (straight front), 1 (arc) or 2 (meander) per lot.

    Returns
    -------
    numpy.ndarray
        One counter-clockwise LinearRing per lot.
    """
    n = len(lots.x0)
    width, depth = lots.x1 - lots.x0, lots.y1 - lots.y0
    k = np.where(shape == 0, 1, rng.integers(20, 201, n))
    off = _front_offsets(rng, shape, width, depth, k)
    m = k + 3  # front line (k + 1 points) and the two back corners
    lot = np.repeat(np.arange(n), m)
    j = _within_group(lot)
    south = lots.front[lot] == 1
    kk = k[lot]
    # Front-line vertex index for each point, or -1 for a back corner.
    fj = np.where(south, np.where(j <= kk, j, -1), np.where(j >= 2, j - 2, -1))
    front_start = _exclusive_cumsum(k + 1)[lot]
    t = np.maximum(fj, 0) / kk
    x0, x1, y0, y1 = lots.x0[lot], lots.x1[lot], lots.y0[lot], lots.y1[lot]
    o = off[front_start + np.maximum(fj, 0)]
    # Counter-clockwise: south front runs west to east, north front east to west.
    fx = np.where(south, x0 + t * (x1 - x0), x1 - t * (x1 - x0))
    fy = np.where(south, y0 + o, y1 - o)
    back_sx = np.where(j == kk + 1, x1, x0)  # south front: then NE, NW corners
    back_nx = np.where(j == 0, x0, x1)  # north front: SW, SE corners first
    bx = np.where(south, back_sx, back_nx)
    by = np.where(south, y1, y0)
    is_front = fj >= 0
    xy = np.column_stack([np.where(is_front, fx, bx), np.where(is_front, fy, by)])
    return shapely.linearrings(xy, indices=lot)


def parcels_in_feet(
    rng: np.random.Generator, n_parcels: int
) -> tuple[pd.DataFrame, np.ndarray, dict[str, np.ndarray]]:
    """Lay out the county and shape its parcels.

    Parameters
    ----------
    rng
        Random generator.
    n_parcels
        Exact number of parcels.

    Returns
    -------
    table
        ``parcel_id``, ``owner``, ``acres``, ``use_code`` and ``cls`` (row class) per parcel.
    geometry
        Polygons and multipolygons in local feet (not yet turned by ``ROTATION_DEG``).
    extras
        ``empty`` (bounds of empty blocks) and ``roads`` (east-west road centre lines).
    """
    lots, empty, roads = layout(rng, int(n_parcels * 1.02) + 100)
    n = len(lots.x0)
    cls = lots.cls
    prob = np.array([[c.arc, c.meander, c.hole, c.split] for c in ROWS])[cls]
    u = rng.random(n)
    shape = np.where(u < prob[:, 0], 1, np.where(u < prob[:, 0] + prob[:, 1], 2, 0))
    width, depth = lots.x1 - lots.x0, lots.y1 - lots.y0
    shape[(shape == 2) & (width < 100)] = 0
    v = rng.random(n)
    roomy = np.minimum(width, depth) >= 150
    hole = roomy & (shape != 2) & (v < prob[:, 2])
    split = (
        (width >= 300) & (shape == 0) & ~hole & (v >= prob[:, 2]) & (v < prob[:, 2] + prob[:, 3])
    )

    ring = shells(rng, lots, shape)
    geometry = shapely.polygons(ring)

    # Holes: a wobbly pond (not a parcel) or a rectangular out-parcel (a parcel of its own).
    hi = np.flatnonzero(hole)
    half = rng.uniform(0.12, 0.22, len(hi)) * np.minimum(width[hi], depth[hi])
    cx = (lots.x0[hi] + lots.x1[hi]) / 2
    yfront = np.where(lots.front[hi] == 1, lots.y0[hi], lots.y1[hi])
    cy = yfront + lots.front[hi] * 0.55 * depth[hi]
    outparcel = rng.random(len(hi)) < 0.5
    nv = np.where(outparcel, 4, rng.integers(24, 65, len(hi)))
    hole_of = np.repeat(np.arange(len(hi)), nv)
    ang = 2 * np.pi * _within_group(hole_of) / nv[hole_of]
    rect = outparcel[hole_of]
    wob = 1 + 0.04 * np.sin(3 * ang + rng.uniform(0, 2 * np.pi, len(hi))[hole_of])
    aspect = rng.uniform(0.8, 1.2, len(hi))[hole_of]
    # A rectangle: the 4 points at 45°, 135°, ... of a square (scaled), else the pond outline.
    hx = np.where(rect, np.sign(np.cos(ang + np.pi / 4)) * aspect, np.cos(ang) * wob)
    hy = np.where(rect, np.sign(np.sin(ang + np.pi / 4)), np.sin(ang) * wob)
    hxy = np.column_stack([cx[hole_of] + half[hole_of] * hx, cy[hole_of] + half[hole_of] * hy])
    hole_ring = shapely.linearrings(hxy, indices=hole_of)
    geometry[hi] = shapely.polygons(ring[hi], holes=hole_ring[:, None])

    # Multipolygons: a strip (canal, easement) 20-60 ft wide cuts the lot in two.
    si = np.flatnonzero(split)
    cut = lots.x0[si] + rng.uniform(0.3, 0.7, len(si)) * width[si]
    gap = rng.uniform(20.0, 60.0, len(si)) / 2
    west = shapely.box(lots.x0[si], lots.y0[si], cut - gap, lots.y1[si])
    east = shapely.box(cut + gap, lots.y0[si], lots.x1[si], lots.y1[si])
    geometry[si] = shapely.multipolygons(
        np.column_stack([west, east]).ravel(), indices=np.repeat(np.arange(len(si)), 2)
    )

    # Out-parcels follow their host; then keep the first n_parcels.
    oi = hi[outparcel]
    enclave = shapely.polygons(shapely.get_interior_ring(geometry[oi], 0))
    key = np.r_[2 * np.arange(n), 2 * oi + 1]
    order = np.argsort(key, kind="stable")[:n_parcels]
    src = np.r_[np.arange(n), oi][order]
    is_enclave = (np.arange(len(key)) >= n)[order]
    geometry = np.r_[geometry, enclave][order]
    cls = cls[src]

    # Attributes: ids in a county style (section-township-range-subdivision-block-lot).
    cxy = shapely.get_coordinates(shapely.centroid(geometry))
    sec = (cxy[:, 0] // 5280 % 6 + 6 * (cxy[:, 1] // 5280 % 6)).astype(int) + 1
    twp = (cxy[:, 1] // 31680).astype(int) + 19
    rng_ = (cxy[:, 0] // 31680).astype(int) + 28
    block = lots.block[src]
    lotno = lots.lot[src] + 500 * is_enclave

    def pad(a: np.ndarray, w: int) -> np.ndarray:
        return np.char.zfill(a.astype(str), w)

    pid = pad(sec, 2)
    for part, w in ((twp, 2), (rng_, 2), (block // 100, 4), (block % 100, 2), (lotno, 3)):
        pid = np.char.add(np.char.add(pid, "-"), pad(part, w))
    owner = np.char.add(
        np.char.add(LAST[rng.integers(0, len(LAST), len(src))], " "),
        FIRST[rng.integers(0, len(FIRST), len(src))],
    )
    owner = np.char.add(owner, ENTITY[rng.integers(0, len(ENTITY), len(src))])
    table = pd.DataFrame(
        {
            "parcel_id": pid.astype(object),
            "owner": owner.astype(object),
            "acres": np.round(shapely.area(geometry) / SQFT_PER_ACRE, 2),
            "use_code": USE_CODES[cls],
            "cls": cls,
        }
    )
    return table, geometry, {"empty": empty, "roads": roads}


@dataclass
class Boundary:
    """Vertices of every ring (without the closing repeat), with what signs need.

    Per vertex: ``xy``, ``ring``, ``s`` (arc position), ``u`` (unit direction of the segment
    that starts here), ``turn`` (signed turn in degrees, positive to the left) and ``key``
    (``base[ring] + s``, increasing over all vertices). Per ring: ``parcel``, ``hole``,
    ``length`` and ``base``.
    """

    xy: np.ndarray
    ring: np.ndarray
    s: np.ndarray
    u: np.ndarray
    turn: np.ndarray
    key: np.ndarray
    parcel: np.ndarray
    hole: np.ndarray
    length: np.ndarray
    base: np.ndarray


def boundary(geometry: np.ndarray) -> Boundary:
    """All rings, oriented with the parcel on the left, and their vertices.

    Parameters
    ----------
    geometry
        Polygons and multipolygons.

    Returns
    -------
    Boundary
        Every ring of every part, exteriors counter-clockwise and holes clockwise.
    """
    geometry = shapely.orient_polygons(geometry, exterior_cw=False)
    parts, parcel_of_part = shapely.get_parts(geometry, return_index=True)
    rings, part_of_ring = shapely.get_rings(parts, return_index=True)
    hole = _within_group(part_of_ring) > 0
    coords, idx = shapely.get_coordinates(rings, return_index=True)
    count_closed = np.bincount(idx, minlength=len(rings))
    keep = np.ones(len(coords), dtype=bool)
    keep[np.cumsum(count_closed) - 1] = False
    xy, ring = coords[keep], idx[keep]
    count = count_closed - 1
    start = _exclusive_cumsum(count)
    local = np.arange(len(xy)) - start[ring]
    nxt = start[ring] + (local + 1) % count[ring]
    prv = start[ring] + (local - 1) % count[ring]
    d = xy[nxt] - xy
    seg = np.hypot(d[:, 0], d[:, 1])
    u = d / seg[:, None]
    cross = u[prv, 0] * u[:, 1] - u[prv, 1] * u[:, 0]
    dot = (u[prv] * u).sum(axis=1)
    turn = np.degrees(np.arctan2(cross, dot))
    csum = np.cumsum(seg)
    s = (csum - seg) - (csum - seg)[start][ring]
    length = np.bincount(ring, weights=seg, minlength=len(rings))
    base = _exclusive_cumsum(length + 10 * CORNER_WINDOW_FT)  # windows stay in their ring
    return Boundary(
        xy, ring, s, u, turn, base[ring] + s, parcel_of_part[part_of_ring], hole, length, base
    )


def corners(b: Boundary) -> np.ndarray:
    """Corner vertices: where the line turns ``CORNER_TURN_DEG`` at once or within a window.

    The window is ``CORNER_WINDOW_FT`` of boundary centred on each vertex, so a tight bend
    drawn with many small turns is a corner too. Corner vertices closer than the window along
    the ring are one corner, at the vertex that turns most.

    Parameters
    ----------
    b
        The rings' vertices.

    Returns
    -------
    numpy.ndarray
        Indices (into the vertices of ``b``) of one vertex per corner, in order.
    """
    cs = np.r_[0.0, np.cumsum(b.turn)]
    half = CORNER_WINDOW_FT / 2
    lo = np.searchsorted(b.key, b.key - half, side="left")
    hi = np.searchsorted(b.key, b.key + half, side="right")
    window = cs[hi] - cs[lo]
    cv = np.flatnonzero((np.abs(b.turn) > CORNER_TURN_DEG) | (np.abs(window) > CORNER_TURN_DEG))
    new = np.r_[True, (np.diff(b.key[cv]) > CORNER_WINDOW_FT) | (np.diff(b.ring[cv]) != 0)]
    run = np.cumsum(new)
    order = np.lexsort((-np.abs(b.turn[cv]), run))
    first = np.r_[True, run[order][1:] != run[order][:-1]]
    return np.sort(cv[order][first])


def _anchors(
    b: Boundary, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Where sign runs start: each corner vertex, or one random point on a ring without corners.

    Returns the ring, arc position and corner vertex (-1 for none) of each anchor, sorted by
    ring then position, and the length of boundary from each anchor to the next on its ring.
    """
    cv = corners(b)
    n_rings = len(b.length)
    bare = np.setdiff1d(np.arange(n_rings), b.ring[cv])
    ring = np.r_[b.ring[cv], bare]
    pos = np.r_[b.s[cv], rng.uniform(0, 1, len(bare)) * b.length[bare]]
    vertex = np.r_[cv, np.full(len(bare), -1)]
    order = np.lexsort((pos, ring))
    ring, pos, vertex = ring[order], pos[order], vertex[order]
    first = np.r_[True, ring[1:] != ring[:-1]]
    last = np.r_[ring[1:] != ring[:-1], True]
    nxt = np.r_[pos[1:], 0.0]
    first_pos = np.maximum.accumulate(np.where(first, np.arange(len(pos)), 0))
    nxt[last] = pos[first_pos[last]] + b.length[ring[last]]
    return ring, pos, vertex, nxt - pos


def markers_in_feet(
    rng: np.random.Generator,
    table: pd.DataFrame,
    geometry: np.ndarray,
    extras: dict[str, np.ndarray],
    n_markers: int,
) -> tuple[np.ndarray, dict[str, int]]:
    """Signs along the parcel boundaries, plus strays, exactly ``n_markers`` points.

    Parameters
    ----------
    rng
        Random generator.
    table
        Parcel attributes, with the row class ``cls``.
    geometry
        Parcels in local feet.
    extras
        ``empty`` blocks and ``roads``, where strays go.
    n_markers
        Exact number of markers.

    Returns
    -------
    xy
        ``(n_markers, 2)`` marker positions in local feet (not yet turned).
    stats
        How many parcels got each posting style, and how many markers are strays.
    """
    n = len(geometry)
    cls = table["cls"].to_numpy()
    b = boundary(geometry)
    a_ring, a_pos, a_vertex, a_gap = _anchors(b, rng)
    a_parcel = b.parcel[a_ring]

    unposted = rng.random(n) < np.array([c.unposted for c in ROWS])[cls]
    gaps = ~unposted & (rng.random(n) < np.array([c.gaps for c in ROWS])[cls])
    normal_s = rng.uniform(*NORMAL_SPACING_FT, n)
    dense_s = rng.uniform(*DENSE_SPACING_FT, n)
    post_holes = rng.random(n) < POST_HOLES
    posted_ring = ~unposted[b.parcel] & (~b.hole | post_holes[b.parcel])
    use = posted_ring[a_ring]

    def count(spacing: np.ndarray) -> np.ndarray:
        per = np.ceil(a_gap / spacing[a_parcel]).astype(np.int64) * use
        return np.bincount(a_parcel, weights=per, minlength=n).astype(np.int64)

    c_normal, c_dense = count(normal_s), count(dense_s)
    # Gap parcels lose a run of 1-3 consecutive signs (never all of them).
    run = np.where(gaps, np.minimum(rng.integers(1, 4, n), np.maximum(c_normal - 1, 0)), 0)
    # Dense posters, in random order, until the signs reach their share of the markers.
    want = n_markers - round(STRAY_SHARE * n_markers)
    base = int((c_normal - run).sum())
    # Weighted random order (exponential keys): hunting leases are mostly rural tracts.
    cand = np.flatnonzero(~unposted & ~gaps)
    keys = rng.exponential(size=len(cand)) / DENSE_WEIGHT[cls[cand]]
    cand = cand[np.argsort(keys, kind="stable")]
    extra = np.cumsum((c_dense - c_normal)[cand])
    k = int(np.searchsorted(extra, want - base, side="right"))
    dense = np.zeros(n, dtype=bool)
    dense[cand[:k]] = True
    spacing = np.where(dense, dense_s, normal_s)

    # Signs: from each anchor, ceil(gap / spacing) evenly spaced along the boundary.
    per = np.ceil(a_gap / spacing[a_parcel]).astype(np.int64) * use
    anchor = np.repeat(np.arange(len(a_ring)), per)
    j = _within_group(anchor)
    ring = a_ring[anchor]
    pos = (a_pos[anchor] + a_gap[anchor] * j / per[anchor]) % b.length[ring]
    corner = (j == 0) & (a_vertex[anchor] >= 0)
    parcel = b.parcel[ring]

    # Gap parcels: drop a run of consecutive signs from a random start.
    n_signs = np.bincount(parcel, minlength=n)
    first = _exclusive_cumsum(n_signs)
    drop_start = first + (rng.random(n) * np.maximum(n_signs - run, 1)).astype(np.int64)
    local = np.arange(len(parcel)) - first[parcel]
    keep = ~((local >= (drop_start - first)[parcel]) & (local < (drop_start - first + run)[parcel]))
    ring, pos, corner, parcel = ring[keep], pos[keep], corner[keep], parcel[keep]
    vertex = a_vertex[anchor][keep]

    # Position: on the segment, then a few feet to the left (inside), plus GPS noise.
    seg = np.searchsorted(b.key, b.base[ring] + pos, side="right") - 1
    seg = np.where(corner, vertex, seg)
    on = b.xy[seg] + (pos - b.s[seg])[:, None] * b.u[seg]
    on[corner] = b.xy[vertex[corner]]
    left_out = np.column_stack([-b.u[seg, 1], b.u[seg, 0]])
    start = _exclusive_cumsum(np.bincount(b.ring, minlength=len(b.length)))
    count_v = np.bincount(b.ring, minlength=len(b.length))
    prv = start[b.ring[seg]] + (seg - start[b.ring[seg]] - 1) % count_v[b.ring[seg]]
    left_in = np.column_stack([-b.u[prv, 1], b.u[prv, 0]])
    # At a corner, inside both lines: along the bisector, d from each line.
    denom = np.maximum(1.0 + (left_in * left_out).sum(axis=1), 0.3)
    normal = np.where(corner[:, None], (left_in + left_out) / denom[:, None], left_out)
    setback = rng.uniform(*SETBACK_FT, len(pos))
    sigma = rng.choice(GPS_SIGMA_FT, n)[parcel]
    xy = on + setback[:, None] * normal + rng.normal(size=(len(pos), 2)) * sigma[:, None]

    # Strays: in the roads, in the empty blocks, and a few miles out of the county.
    n_stray = n_markers - len(xy)
    if n_stray < 0:
        raise RuntimeError(f"{len(xy)} signs already exceed {n_markers} markers")
    n_far = n_stray // 20
    empty = extras["empty"]
    n_empty = (n_stray - n_far) * 2 // 5 if len(empty) else 0
    n_road = n_stray - n_far - n_empty
    roads = extras["roads"]
    r = rng.integers(0, len(roads), n_road)
    road_xy = np.column_stack(
        [rng.uniform(roads[r, 1], roads[r, 2]), roads[r, 0] + rng.normal(0, 3, n_road)]
    )
    e = empty[rng.integers(0, max(len(empty), 1), n_empty)] if n_empty else np.zeros((0, 4))
    margin = np.minimum(60.0, (e[:, 2:] - e[:, :2]) / 4)
    empty_xy = rng.uniform(e[:, :2] + margin, e[:, 2:] - margin) if n_empty else np.zeros((0, 2))
    lo, hi = np.r_[roads[:, 1].min(), 0.0], np.r_[roads[:, 2].max(), roads[:, 0].max()]
    ang = rng.uniform(0, 2 * np.pi, n_far)
    dist = rng.uniform(5280.0, 5 * 5280.0, n_far)
    mid = (lo + hi) / 2
    half = (hi - lo) / 2
    far_xy = mid + np.column_stack([(half[0] + dist) * np.cos(ang), (half[1] + dist) * np.sin(ang)])
    strays = np.concatenate([road_xy, empty_xy, far_xy])
    # Strays are interleaved with the signs (survey order is not parcel order for them).
    keys = np.r_[np.arange(len(xy), dtype=float), rng.uniform(0, len(xy), len(strays))]
    out = np.concatenate([xy, strays])[np.argsort(keys, kind="stable")]
    stats = {
        "parcels_unposted": int(unposted.sum()),
        "parcels_with_gaps": int(gaps.sum()),
        "parcels_dense": int(dense.sum()),
        "parcels_normal": int((~unposted & ~gaps & ~dense).sum()),
        "signs": len(xy),
        "corner_signs": int(corner.sum()),
        "strays": len(strays),
    }
    return out, stats


def _turn(xy: np.ndarray) -> np.ndarray:
    """Turn local coordinates by ``ROTATION_DEG`` about the origin."""
    a = np.radians(ROTATION_DEG)
    rot = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
    return xy @ rot


def make_county(
    out: Path = WORK, n_parcels: int = 100_000, n_markers: int = 1_000_000, seed: int = SEED
) -> dict[str, object]:
    """Build the county and write ``parcels.parquet`` and ``signs.parquet`` into ``out``.

    Parameters
    ----------
    out
        Folder to write into (created if missing).
    n_parcels, n_markers
        Exact number of parcels and markers.
    seed
        Seed of the numpy generator.

    Returns
    -------
    dict
        What was made: counts and the time taken, in seconds.
    """
    t0 = time.perf_counter()
    rng = np.random.default_rng(seed)
    table, geometry, extras = parcels_in_feet(rng, n_parcels)
    t1 = time.perf_counter()
    xy, stats = markers_in_feet(rng, table, geometry, extras, n_markers)
    t2 = time.perf_counter()

    # Centre the county on the projection origin, turn it, and write it in WGS 84.
    lo = np.r_[0.0, 0.0]
    hi = np.r_[COUNTY_WIDTH_FT, extras["roads"][:, 0].max()]
    centre = (lo + hi) / 2
    geometry = shapely.transform(geometry, lambda c: _turn(c - centre))
    xy = _turn(xy - centre)
    cls = table.pop("cls").to_numpy()
    parcels = gpd.GeoDataFrame(table, geometry=geometry, crs=LOCAL).to_crs("EPSG:4326")
    signs = gpd.GeoDataFrame(
        {"kind": np.full(len(xy), "sign", dtype=object)},
        geometry=shapely.points(xy),
        crs=LOCAL,
    ).to_crs("EPSG:4326")
    out.mkdir(parents=True, exist_ok=True)
    parcels.to_parquet(out / "parcels.parquet", index=False)
    signs.to_parquet(out / "signs.parquet", index=False)
    t3 = time.perf_counter()

    types = shapely.get_type_id(geometry)
    info: dict[str, object] = {
        "parcels": len(parcels),
        "markers": len(signs),
        "by_class": {name: int((cls == k).sum()) for k, name in enumerate(CLASS_NAMES)},
        "multipolygons": int((types == 6).sum()),
        "with_holes": int((shapely.get_num_interior_rings(geometry) > 0).sum()),
        "many_vertices": int((shapely.get_num_coordinates(geometry) > 20).sum()),
        "vertices": int(shapely.get_num_coordinates(geometry).sum()),
        "invalid": int((~shapely.is_valid(geometry)).sum()),
        "extent_miles": [round(float(v) / 5280, 1) for v in hi - lo],
        **stats,
        "seconds": {
            "parcels": round(t1 - t0, 2),
            "markers": round(t2 - t1, 2),
            "project_and_write": round(t3 - t2, 2),
            "total": round(t3 - t0, 2),
        },
    }
    return info


def main(argv: list[str] | None = None) -> None:
    """Command line: build the county, print what was made and how long it took."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=WORK, help="output folder (%(default)s)")
    ap.add_argument("--parcels", type=int, default=100_000, help="number of parcels")
    ap.add_argument("--markers", type=int, default=1_000_000, help="number of markers")
    ap.add_argument("--seed", type=int, default=SEED, help="numpy seed")
    args = ap.parse_args(argv)
    info = make_county(args.out, args.parcels, args.markers, args.seed)
    for key, value in info.items():
        print(f"{key:20} {value}")
    print(
        f"made {args.out / 'parcels.parquet'} and {args.out / 'signs.parquet'} "
        f"in {info['seconds']['total']:.1f} s"
    )


if __name__ == "__main__":
    main()
