"""Geometry for drawing a report (the map, the GeoJSON, the evidence page), never for measuring.

Every figure of a report was measured on the full geometry in working feet; these functions
turn the report's parcel geometry (:class:`~posting.prepare.ParcelGeometry`) into WGS 84 shapes
to show: the parcels' outlines, the stretches of boundary each reported gap spans, the extent.
"""

from __future__ import annotations

import re
import weakref
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import shapely

from posting.boundary import ring_stretches
from posting.crs import finite_geometry
from posting.records import DISPLAY_DECIMALS, LONLAT_DECIMALS

if TYPE_CHECKING:
    from posting.report import Report

__all__ = [
    "BIDI_CONTROLS",
    "display_geometry",
    "extent_lonlat",
    "gap_lines",
    "geojson_geometries",
    "round_lonlat",
    "shown_controls",
]

BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Unicode's invisible bidirectional controls: text holding one displays in another order than
it is stored (a sign's text ``NO TRESPASSING`` can be made to show as other words, an id as
another id)."""


def shown_controls(text: str) -> str:
    """``text`` with each invisible bidirectional control (:data:`BIDI_CONTROLS`) written as
    its code point, so that a page shows the text in the order it is stored, as a court reads
    it (the evidence pages, the officer's map).

    >>> shown_controls("NO \u202eGNISSAPSERT")
    'NO [U+202E]GNISSAPSERT'
    """
    if text.isascii():  # (no control, and no scan: a map's JSON text is megabytes)
        return text
    return BIDI_CONTROLS.sub(lambda m: f"[U+{ord(m.group()):04X}]", text)


_GAP_LINES: weakref.WeakKeyDictionary[Report, np.ndarray] = weakref.WeakKeyDictionary()


def gap_lines(report: Report) -> np.ndarray:
    """For each row of ``report.gaps``: the stretch of boundary it spans, a WGS 84 LineString,
    where the gap is reported (status other than ``ok``), else None.

    Made on first use, once per report (the GeoJSON and the map both draw them; the JSON
    report needs only their end points): a county's gap lines cost a third of a second.
    """
    out = _GAP_LINES.get(report)
    if out is not None:
        return out
    g, geo = report.gaps, report.geometry
    out = np.full(len(g), None, dtype=object)
    rep = np.flatnonzero((g["status"] != "ok").to_numpy())
    if len(rep):
        ring = g["ring"].to_numpy(dtype=np.int64)[rep]
        lines = ring_stretches(
            geo.rings.geometry,
            ring,
            g["start_ft"].to_numpy(dtype=float)[rep],
            g["length_ft"].to_numpy(dtype=float)[rep],
            vertices=geo.vertices,
        )
        out[rep] = geo.geoms_to_lonlat(geo.group[geo.rings.parcel[ring]], lines)
    _GAP_LINES[report] = out
    return out


def display_geometry(
    report: Report, simplify_ft: float = 0.0, decimals: int = DISPLAY_DECIMALS
) -> np.ndarray:
    """Parcel outlines in WGS 84 for drawing.

    Each outline is simplified in its working CRS (Douglas-Peucker, ``simplify_ft`` feet,
    topology preserved) and its coordinates rounded to ``decimals`` decimal degrees. Every
    figure of the report was measured on the full geometry; this only lightens a map.

    Returns
    -------
    numpy.ndarray
        One shapely geometry per parcel, None where the parcel has no usable geometry.
    """
    geo = report.geometry
    out = np.full(len(geo), None, dtype=object)
    for g, wcrs in enumerate(geo.crss):
        sel = np.flatnonzero(geo.group == g)
        if not len(sel):
            continue
        geoms = geo.geometry_ft[sel]
        if simplify_ft > 0:
            geoms = shapely.simplify(geoms, simplify_ft, preserve_topology=True)
        out[sel] = wcrs.geoms_ft_to_lonlat(geoms)
    return round_lonlat(out, decimals)


def extent_lonlat(report: Report) -> tuple[float, float, float, float] | None:
    """West, south, east, north of every drawable parcel and positioned marker (WGS 84).

    The short way round: where the data lie on both sides of the antimeridian (the Aleutians),
    west is east of 0 and east is beyond 180 (``east - 360`` is the longitude it names). None
    when nothing has a position.
    """
    geo = report.geometry
    b = geo.bounds_lonlat[geo.group >= 0].reshape(-1, 4)
    lon, lat = report.markers["lon"].to_numpy(float), report.markers["lat"].to_numpy(float)
    xs = np.concatenate([b[:, 0], b[:, 2], lon])
    ys = np.concatenate([b[:, 1], b[:, 3], lat])
    ok = np.isfinite(xs) & np.isfinite(ys)
    if not ok.any():
        return None
    xs, ys = xs[ok], ys[ok]
    west, east = xs.min(), xs.max()
    if east - west > 180:
        round_180 = np.where(xs < 0, xs + 360, xs)
        if round_180.max() - round_180.min() < east - west:
            west, east = round_180.min(), round_180.max()
    return (float(west), float(ys.min()), float(east), float(ys.max()))


def round_lonlat(geoms: np.ndarray, decimals: int) -> np.ndarray:
    """Geometries with coordinates rounded to ``decimals`` decimal degrees (None kept)."""
    geoms = np.asarray(geoms, dtype=object)
    usable = ~(pd.isna(geoms) | shapely.is_empty(geoms)) & finite_geometry(geoms)
    out = np.full(len(geoms), None, dtype=object)
    out[usable] = shapely.set_precision(geoms[usable], 10.0**-decimals, mode="pointwise")
    return out


def geojson_geometries(geoms: np.ndarray) -> list[str | None]:
    """GeoJSON geometry text for each shapely geometry (None, empty or non-finite: None),
    to :data:`~posting.records.LONLAT_DECIMALS` decimals."""
    geoms = np.asarray(geoms, dtype=object)
    usable = ~(pd.isna(geoms) | shapely.is_empty(geoms)) & finite_geometry(geoms)
    out = np.full(len(geoms), None, dtype=object)
    rounded = shapely.set_precision(geoms[usable], 10.0**-LONLAT_DECIMALS, mode="pointwise")
    out[usable] = shapely.to_geojson(rounded)
    return out.tolist()
