"""Spatial partitions of a check, and the halo that keeps their verdicts the same as one run's.

The partitioned check (:mod:`posting.distributed`) cuts the parcels into spatial partitions,
checks each in its own task and puts the results back in input order. A parcel's verdict depends
on more than the parcel: the markers near its boundary, the other parcels those markers might
belong to instead, the context layers along its line. This module holds the pure, picklable
pieces that make a partition's verdicts those of the whole run:

* :class:`WorkingPlan`: the working CRSs chosen once, from every parcel's centre, exactly as
  :func:`posting.crs.plan_working_crs` would choose them for the whole layer, so that every
  partition measures in the same frames;
* :class:`Halo`: how far beyond its own parcels a partition must see (its markers, the parcels
  those markers might go to instead, the context layers), from the settings;
* :class:`Reach`: which partitions a box may concern, by the cells of a coarse grid that each
  partition's parcels (padded by the halo) cover: how parcels, markers and context features are
  sent to the partitions that need them;
* :func:`take` and :func:`concat`: prepared parcels of a partition and of its neighbours put
  together in input order (the order decides ties, so it must be the whole run's).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import shapely

from posting.boundary import Corners, Rings, ring_vertices, vertices_concat, vertices_take
from posting.checks.land import FENCE_JOIN_FT
from posting.crs import (
    MAX_SCALE_ERROR,
    WorkingCRS,
    _sample_grid,
    lonlat_margin_deg,
    max_scale_error,
    utm_zone,
    zone_frame,
)
from posting.errors import CRSError
from posting.index import expand_counts, unique_ints
from posting.io import ParcelLayer
from posting.prepare import ParcelGeometry, PreparedParcels
from posting.settings import Settings

__all__ = [
    "Halo",
    "Reach",
    "WorkingPlan",
    "boxes_near",
    "concat",
    "extremes",
    "take",
    "take_geometry",
]


# -- the working CRSs of the whole run ------------------------------------------------------
def extremes(lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
    """Indices of the points that hold, within their UTM zone, the least or greatest longitude
    or latitude: all :class:`WorkingPlan` needs of a piece of the parcels.

    >>> lon, lat = np.array([-81.0, -81.5, -81.2, np.nan]), np.array([28.0, 28.5, 28.1, 1.0])
    >>> extremes(lon, lat).tolist()
    [0, 1]
    """
    lon = np.asarray(lon, dtype=float)
    lat = np.asarray(lat, dtype=float)
    ok = np.flatnonzero(np.isfinite(lon) & np.isfinite(lat))
    if not len(ok):
        return ok
    zone = utm_zone(lon[ok], lat[ok])
    out = []
    for z in unique_ints(zone):
        sel = ok[zone == z]
        out += [
            sel[np.argmin(lon[sel])],
            sel[np.argmax(lon[sel])],
            sel[np.argmin(lat[sel])],
            sel[np.argmax(lat[sel])],
        ]
    return unique_ints(np.asarray(out, dtype=np.int64))


@dataclass(frozen=True)
class WorkingPlan:
    """The working CRSs of a whole layer, and the rule that puts a parcel in one of them.

    Made by :meth:`of` from the extreme centres of every piece (:func:`extremes`); called like
    :func:`posting.crs.plan_working_crs` (``plan(lon, lat, source)``), it gives each partition's
    parcels the CRSs and groups the whole layer would give them.
    """

    crss: tuple[WorkingCRS, ...]
    zones: tuple[int, ...] | None  # the UTM zone of each CRS; None: the source CRS is kept

    @classmethod
    def of(
        cls, lon: np.ndarray, lat: np.ndarray, source: Any, elevation_ft: float = 0.0
    ) -> WorkingPlan:
        """The plan for a layer whose centres' extremes are ``lon``/``lat`` (the same choice
        :func:`posting.crs.plan_working_crs` makes: the source CRS when its scale error is
        small over the data and no ``elevation_ft`` is given, else a local transverse Mercator
        per UTM zone, scaled to the ground at that elevation)."""
        lon = np.asarray(lon, dtype=float)
        lat = np.asarray(lat, dtype=float)
        ok = np.isfinite(lon) & np.isfinite(lat)
        if not ok.any():
            return cls((), ())
        lon, lat = lon[ok], lat[ok]
        if source.is_projected and not elevation_ft:
            glon, glat = _sample_grid(lon, lat)
            if max_scale_error(source, glon, glat) <= MAX_SCALE_ERROR:
                try:
                    return cls((WorkingCRS(source),), None)
                except CRSError:
                    pass
        zones = utm_zone(lon, lat)
        codes = np.unique(zones)
        crss = [zone_frame(lon[zones == z], lat[zones == z], elevation_ft) for z in codes]
        return cls(tuple(crss), tuple(int(z) for z in codes))

    def __call__(
        self, lon: np.ndarray, lat: np.ndarray, source: Any = None
    ) -> tuple[list[WorkingCRS], np.ndarray]:
        lon = np.asarray(lon, dtype=float)
        lat = np.asarray(lat, dtype=float)
        ok = np.isfinite(lon) & np.isfinite(lat)
        group = np.full(len(lon), -1, dtype=np.int64)
        if self.zones is None:
            group[ok] = 0
        elif ok.any():
            zones = np.asarray(self.zones, dtype=np.int64)
            z = utm_zone(lon[ok], lat[ok])
            k = np.searchsorted(zones, z)
            if (k >= len(zones)).any() or (zones[np.minimum(k, len(zones) - 1)] != z).any():
                raise ValueError("a parcel lies in a UTM zone the plan was not made for")
            group[ok] = k
        return list(self.crss), group


# -- how far a partition must see ------------------------------------------------------------
@dataclass(frozen=True)
class Halo:
    """How far beyond a partition's own parcels (their boxes) it must see, in feet.

    ``markers``: a marker counts for a parcel only within ``tolerance_ft`` of its boundary.
    ``parcels``: such a marker goes to whichever parcel within ``tolerance_ft`` of it has the
    best claim, so every parcel within twice the tolerance of the partition's parcels takes
    part (as a neighbour, reported by its own partition); and every parcel within the merge
    snap (adjoining parcels of one owner are found among them). ``context``: the farthest a context
    feature acts on a boundary (water, access, fences, easements). ``reach``: the largest, with
    which features are sent to partitions.
    """

    markers: float
    parcels: float
    context: float

    @classmethod
    def of(cls, settings: Settings) -> Halo:
        """The halo the settings call for (see the class)."""
        tol = settings.tolerance_ft
        context = max(
            settings.water_tolerance_ft,
            settings.access_tolerance_ft,
            # fences (within the accuracy, maybe), and one joined to a fence's end
            tol + max(settings.accuracy_ft, 0.0) + FENCE_JOIN_FT,
            1.0,  # easements
        )
        return cls(markers=tol, parcels=max(2 * tol, settings.merge_snap_ft), context=context)

    @property
    def reach(self) -> float:
        return max(self.markers, self.parcels, self.context)


# -- which partitions a box concerns ---------------------------------------------------------
@dataclass(frozen=True)
class Reach:
    """For each cell of a coarse longitude/latitude grid, the partitions whose parcels (their
    boxes, padded) touch it; a box concerns the partitions of the cells it touches.

    ``x0``/``y0`` is the grid's origin, ``dx``/``dy`` its cell size in degrees, ``nx`` its
    number of columns; ``cell`` (sorted) and ``part`` list the (cell, partition) pairs.
    """

    x0: float
    y0: float
    dx: float
    dy: float
    nx: int
    ny: int
    cell: np.ndarray
    part: np.ndarray

    @staticmethod
    def grid(bounds: tuple[float, float, float, float], cells: int) -> tuple[float, ...]:
        """A grid of about ``cells`` square-ish cells over ``bounds`` (west, south, east,
        north): ``(x0, y0, dx, dy, nx, ny)``."""
        west, south, east, north = bounds
        w = max(east - west, 1e-6)
        h = max(north - south, 1e-6)
        side = float(np.sqrt(w * h / max(cells, 1)))
        nx = max(1, int(np.ceil(w / side)))
        ny = max(1, int(np.ceil(h / side)))
        return west, south, w / nx * (1 + 1e-9), h / ny * (1 + 1e-9), nx, ny

    @staticmethod
    def cells_of(grid: tuple[float, ...], boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(box, cell) for every cell each box touches (boxes outside the grid are clipped to
        its edge cells; rows with a NaN touch none). In a grid whose east is beyond 180 (a
        layer astride the antimeridian, boxed the short way round), a box also touches the
        cells it lies in 360 degrees east or west: the pairs are then not in box order.

        >>> item, cell = Reach.cells_of((179.9, 51.0, 0.1, 1.0, 2, 1),
        ...                             np.array([[-179.95, 51.5, -179.95, 51.5]]))
        >>> item.tolist(), cell.tolist()  # -179.95 is 180.05: the east cell
        ([0], [1])
        """
        x0, y0, dx, dy, nx, ny = grid
        b = np.asarray(boxes, dtype=float).reshape(-1, 4)
        row = None
        if x0 + nx * dx > 180:  # a grid astride the antimeridian (east beyond 180): a box on
            # either side of it is also where it lies 360 degrees east or west, in the grid
            # (a box beyond the grid either way is clipped to its edge cells, as ever)
            east = x0 + nx * dx
            inside = (b[:, 2] >= x0) & (b[:, 0] <= east)
            row, copies = [], []
            for turn in (360.0, -360.0):
                at = np.flatnonzero((b[:, 2] + turn >= x0) & (b[:, 0] + turn <= east))
                row.append(at)
                copies.append(b[at] + np.array([turn, 0.0, turn, 0.0]))
            moved = np.zeros(len(b), dtype=bool)
            moved[np.concatenate(row)] = True
            at = np.flatnonzero(inside | ~moved)
            row, b = np.concatenate([at, *row]), np.concatenate([b[at], *copies])
        ok = np.isfinite(b).all(axis=1)
        i0 = np.clip(np.floor((b[:, 0] - x0) / dx), 0, nx - 1)
        i1 = np.clip(np.floor((b[:, 2] - x0) / dx), 0, nx - 1)
        j0 = np.clip(np.floor((b[:, 1] - y0) / dy), 0, ny - 1)
        j1 = np.clip(np.floor((b[:, 3] - y0) / dy), 0, ny - 1)
        i0, i1, j0, j1 = (np.where(ok, v, 0).astype(np.int64) for v in (i0, i1, j0, j1))
        wi, wj = i1 - i0 + 1, j1 - j0 + 1
        count = np.where(ok, wi * wj, 0)
        item, rank = expand_counts(count)
        ci = i0[item] + rank % wi[item]
        cj = j0[item] + rank // wi[item]
        return (item if row is None else row[item]), cj * nx + ci

    @classmethod
    def build(cls, grid: tuple[float, ...], cell: np.ndarray, part: np.ndarray) -> Reach:
        """The reach from (cell, partition) pairs (duplicates allowed)."""
        key = unique_ints(np.asarray(cell, np.int64) * (1 << 32) + np.asarray(part, np.int64))
        x0, y0, dx, dy, nx, ny = grid
        return cls(x0, y0, dx, dy, int(nx), int(ny), key >> 32, key & 0xFFFFFFFF)

    def parts_of(self, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(box, partition) pairs, each once: the partitions each box may concern."""
        grid = (self.x0, self.y0, self.dx, self.dy, self.nx, self.ny)
        item, cell = self.cells_of(grid, boxes)
        lo = np.searchsorted(self.cell, cell, side="left")
        hi = np.searchsorted(self.cell, cell, side="right")
        pair, rank = expand_counts(hi - lo)
        box = item[pair]
        part = self.part[lo[pair] + rank]
        if len(item) < 2 or bool((item[1:] > item[:-1]).all()):
            # each box in one cell (points: markers): the pairs are unique and in order already
            return box, part
        key = unique_ints(box.astype(np.int64) * (1 << 32) + part)
        return key >> 32, key & 0xFFFFFFFF


def boxes_near(
    boxes: np.ndarray, targets: np.ndarray, distance_ft: float, lat_range: tuple[float, float]
) -> np.ndarray:
    """Which ``boxes`` (west, south, east, north, in degrees) come within ``distance_ft`` of
    any of ``targets`` (padded by :func:`posting.crs.lonlat_margin_deg`, a generous margin: a
    prefilter that never leaves out a box within the distance); round the antimeridian too
    (a box written beyond 180, :func:`posting.crs.lon_range`, meets one just east of -180).

    >>> boxes_near(np.array([[-179.999, 51.8, -179.99, 51.81], [-179.9, 51.8, -179.8, 51.81]]),
    ...            np.array([[179.98, 51.8, 180.01, 51.81]]), 100.0, (51.8, 51.81)).tolist()
    [True, False]
    """
    boxes = np.asarray(boxes, dtype=float).reshape(-1, 4)
    targets = np.asarray(targets, dtype=float).reshape(-1, 4)
    out = np.zeros(len(boxes), dtype=bool)
    tok = np.isfinite(targets).all(axis=1)
    bok = np.flatnonzero(np.isfinite(boxes).all(axis=1))
    if not tok.any() or not len(bok):
        return out
    pad = lonlat_margin_deg(distance_ft, *lat_range)
    t = targets[tok]
    tree = shapely.STRtree(shapely.box(t[:, 0] - pad, t[:, 1] - pad, t[:, 2] + pad, t[:, 3] + pad))
    b = boxes[bok]
    rows = np.arange(len(b))
    if max(t[:, 2].max() + pad, b[:, 2].max()) > 180:  # near the antimeridian: boxes written
        # beyond 180 (the short way round) meet those west of it 360 degrees on
        turn = np.array([360.0, 0.0, 360.0, 0.0])
        rows, b = np.r_[rows, rows, rows], np.concatenate([b, b + turn, b - turn])
    hit, _ = tree.query(shapely.box(b[:, 0], b[:, 1], b[:, 2], b[:, 3]), predicate="intersects")
    out[bok[unique_ints(rows[hit])]] = True
    return out


# -- prepared parcels of several partitions, in input order ----------------------------------
def _layer_take(layer: ParcelLayer, idx: np.ndarray) -> ParcelLayer:
    attrs = layer.attributes
    attrs = attrs.iloc[idx].reset_index(drop=True) if len(attrs.columns) else attrs.iloc[idx]
    if not len(attrs.columns):
        attrs = attrs.reset_index(drop=True)
    return ParcelLayer(
        layer.source,
        layer.ids[idx],
        None if layer.owners is None else layer.owners[idx],
        np.asarray(layer.geometry, dtype=object)[idx],
        layer.crs,
        attrs,
        layer.id_field,
        list(layer.notes),
        _problems_take(layer.problems, idx),
        layer.closed_lines,
    )


def _problems_take(problems: dict[int, str], idx: np.ndarray) -> dict[int, str]:
    """Why rows ``idx`` of a layer have no geometry (``problems``), numbered as taken."""
    if not problems:
        return {}
    rows = np.fromiter(problems, dtype=np.int64, count=len(problems))
    at = np.flatnonzero(np.isin(idx, rows))
    return {int(k): problems[int(idx[k])] for k in at}


def _layer_concat(layers: list[ParcelLayer]) -> ParcelLayer:
    import pandas as pd

    first = layers[0]
    owners = None if first.owners is None else np.concatenate([x.owners for x in layers])
    if any(len(x.attributes.columns) for x in layers):
        attrs = pd.concat([x.attributes for x in layers], ignore_index=True)
    else:
        attrs = pd.DataFrame(index=range(sum(len(x) for x in layers)))
    return ParcelLayer(
        first.source,
        np.concatenate([x.ids for x in layers]),
        owners,
        np.concatenate([np.asarray(x.geometry, dtype=object) for x in layers]),
        first.crs,
        attrs,
        first.id_field,
        list(first.notes),
        _problems_concat([x.problems for x in layers], [len(x) for x in layers]),
        first.closed_lines,
    )


def _problems_concat(problems: list[dict[int, str]], sizes: list[int]) -> dict[int, str]:
    """Why rows of layers of ``sizes`` have no geometry (each one's ``problems``), numbered as
    the layers are concatenated."""
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(int)
    return {int(o) + r: why for o, p in zip(offsets, problems, strict=True) for r, why in p.items()}


def _vertices_of(geo: ParcelGeometry, rings: np.ndarray) -> Any:
    """The vertex table of ``geo``'s rings ``rings``: taken from its table when it has one,
    else made from the rings."""
    if geo.vertices is not None:
        return vertices_take(geo.vertices, rings)
    return ring_vertices(geo.rings.geometry[rings])


def take_geometry(
    geo: ParcelGeometry, idx: np.ndarray, vertices: bool = True
) -> tuple[ParcelGeometry, np.ndarray]:
    """The geometry of parcels (or properties) ``idx``, in that order, with their rings (and
    vertex table); and the kept rings' numbers in ``geo``, in their new order."""
    idx = np.asarray(idx, dtype=np.int64)
    ring_start, ring_count = geo.ring_start, geo.ring_count
    pair, k = expand_counts(ring_count[idx])
    old_ring = ring_start[idx][pair] + k  # the kept rings, in their new order
    r = geo.rings
    rings = Rings(
        r.geometry[old_ring],
        pair.astype(np.int64),
        r.part[old_ring],
        r.hole[old_ring],
        r.length_ft[old_ring],
    )
    new_geo = ParcelGeometry(
        ids=geo.ids[idx],
        crss=geo.crss,
        group=geo.group[idx],
        geometry_ft=geo.geometry_ft[idx],
        bounds_lonlat=geo.bounds_lonlat[idx],
        rings=rings,
        vertices=_vertices_of(geo, old_ring) if vertices else None,
    )
    return new_geo, old_ring


def take(prep: PreparedParcels, idx: np.ndarray, vertices: bool = True) -> PreparedParcels:
    """The prepared parcels (or properties) ``idx``, in that order, with their rings, vertices
    and corners (ring numbers made those of the new order)."""
    idx = np.asarray(idx, dtype=np.int64)
    new_geo, old_ring = take_geometry(prep.geometry, idx, vertices)
    r = prep.geometry.rings
    corners, corner_lonlat = None, None
    if prep.corners is not None:
        new_of_old = np.full(len(r), -1, dtype=np.int64)
        new_of_old[old_ring] = np.arange(len(old_ring))
        c = prep.corners
        nr = new_of_old[c.ring]
        keep = np.flatnonzero(nr >= 0)
        keep = keep[np.argsort(nr[keep], kind="stable")]
        corners = Corners(nr[keep], c.position_ft[keep], c.x[keep], c.y[keep], c.turn_deg[keep])
        if prep.corner_lonlat is not None:
            corner_lonlat = (prep.corner_lonlat[0][keep], prep.corner_lonlat[1][keep])
    return replace(
        prep,
        geometry=new_geo,
        layer=_layer_take(prep.layer, idx),
        invalid=prep.invalid[idx],
        repaired=prep.repaired[idx],
        perimeter_ft=prep.perimeter_ft[idx],
        area_acres=prep.area_acres[idx],
        corners=corners,
        corner_lonlat=corner_lonlat,
        source_rows=None if prep.source_rows is None else [prep.source_rows[i] for i in idx],
        source_ids=None if prep.source_ids is None else [prep.source_ids[i] for i in idx],
        owner_key=None if prep.owner_key is None else prep.owner_key[idx],
        lot_lines=None if prep.lot_lines is None else prep.lot_lines[idx],
    )


def concat(preps: list[PreparedParcels], order: np.ndarray | None = None) -> PreparedParcels:
    """Prepared parcels of several partitions as one, in the order ``order`` (positions in
    their concatenation; default: as given)."""
    first = preps[0]
    if len(preps) == 1 and order is None:
        return first
    geos = [p.geometry for p in preps]
    sizes = [len(p) for p in preps]
    n_rings = [len(g.rings) for g in geos]
    ring_off = np.r_[0, np.cumsum(n_rings)[:-1]].astype(np.int64)
    par_off = np.r_[0, np.cumsum(sizes)[:-1]].astype(np.int64)
    rings = Rings(
        np.concatenate([g.rings.geometry for g in geos]),
        np.concatenate([g.rings.parcel + o for g, o in zip(geos, par_off, strict=True)]),
        np.concatenate([g.rings.part for g in geos]),
        np.concatenate([g.rings.hole for g in geos]),
        np.concatenate([g.rings.length_ft for g in geos]),
    )
    geo = ParcelGeometry(
        ids=np.concatenate([g.ids for g in geos]),
        crss=first.geometry.crss,
        group=np.concatenate([g.group for g in geos]),
        geometry_ft=np.concatenate([g.geometry_ft for g in geos]),
        bounds_lonlat=np.concatenate([g.bounds_lonlat for g in geos]).reshape(-1, 4),
        rings=rings,
        vertices=None
        if any(g.vertices is None for g in geos)
        else vertices_concat([g.vertices for g in geos]),
    )
    corners = corner_lonlat = None
    if all(p.corners is not None for p in preps):
        cs = [p.corners for p in preps]
        corners = Corners(
            np.concatenate([c.ring + o for c, o in zip(cs, ring_off, strict=True)]),
            np.concatenate([c.position_ft for c in cs]),
            np.concatenate([c.x for c in cs]),
            np.concatenate([c.y for c in cs]),
            np.concatenate([c.turn_deg for c in cs]),
        )
        corner_lonlat = (
            np.concatenate([p.corner_lonlat[0] for p in preps]),
            np.concatenate([p.corner_lonlat[1] for p in preps]),
        )

    def joined(name: str) -> list[Any] | None:
        values = [getattr(p, name) for p in preps]
        return None if values[0] is None else [x for v in values for x in v]

    whole = replace(
        first,
        geometry=geo,
        layer=_layer_concat([p.layer for p in preps]),
        invalid=np.concatenate([p.invalid for p in preps]),
        repaired=np.concatenate([p.repaired for p in preps]),
        perimeter_ft=np.concatenate([p.perimeter_ft for p in preps]),
        area_acres=np.concatenate([p.area_acres for p in preps]),
        corners=corners,
        corner_lonlat=corner_lonlat,
        source_rows=joined("source_rows"),
        source_ids=joined("source_ids"),
        owner_key=None if first.owner_key is None else np.concatenate([p.owner_key for p in preps]),
        lot_lines=None if first.lot_lines is None else np.concatenate([p.lot_lines for p in preps]),
    )
    n = sum(sizes)
    return take(whole, np.arange(n) if order is None else np.asarray(order, dtype=np.int64))
