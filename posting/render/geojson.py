"""The GeoJSON FeatureCollection of a report (WGS 84): parcels, markers, reported gaps, corners,
access points.

Every feature is written as text column by column, by Arrow's kernels (:mod:`posting.jsontext`),
as the JSON report's parcels are: no Python object per feature. The properties are spelled as
orjson spells them (numbers rounded as Python's ``round`` rounds); the geometries are those
GEOS writes (:func:`posting.draw.geojson_geometries`, which other kinds of geometry still use):
the coordinates put on the grid of :data:`~posting.records.LONLAT_DECIMALS` decimals as GEOS
puts them, spelled by orjson (GEOS's writer spells some with 16 or 17 digits: the same floats).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa

from posting import jsontext
from posting.draw import gap_lines, geojson_geometries
from posting.records import (
    FT_DECIMALS,
    LONLAT_DECIMALS,
    SCHEMA,
    _label_column,
    _text_column,
    gap_figures,
    header,
    parcel_properties,
    point_figures,
    why_text,
)
from posting.render import register

if TYPE_CHECKING:
    from posting.report import Report

__all__ = ["feature_parts", "feature_sections", "iter_geojson", "marker_features", "opening"]

SECTIONS = ("parcels", "markers", "gaps", "corners", "access")
"""The kinds of feature, in the order the FeatureCollection lists them."""

_NULL = "null"


def opening(report: Any) -> str:
    """The FeatureCollection's text up to its first feature: its name and the report's schema,
    rules, working CRS and summary (of a :class:`~posting.report.Report`, or of anything
    :func:`posting.records.header` reads, as a partitioned run's totals)."""
    top = header(report)
    head = json.dumps(
        {
            "type": "FeatureCollection",
            "name": "posting",
            "posting": {
                "schema": SCHEMA,
                "rules": top["rules"],
                "crs": top["crs"],
                "summary": top["summary"],
            },
        }
    )
    return head[:-1] + ', "features": [\n'


@register("geojson", "report", (".geojson",), "parcels, markers, gaps, corners and access points")
def iter_geojson(report: Report) -> Iterator[bytes | memoryview]:
    """A GeoJSON FeatureCollection (WGS 84) as UTF-8, in pieces: parcels, markers, reported
    gaps, corners, access points, one feature per line.

    Each feature's ``layer`` property says which it is. Every parcel and every marker
    appears, a row without usable geometry with a null geometry. Each kind of feature is made
    when the one before it has been written, and written in pieces as they are made
    (:func:`posting.jsontext.pieces`), never whole.
    """
    yield opening(report).encode()
    first = True
    for _, parts, n in feature_parts(report):
        for piece in jsontext.pieces([",\n", *parts], n):  # a separator before each
            text = jsontext.span(piece)
            yield text[2:] if first else text
            first = False
    yield b"\n]}\n"


def feature_parts(report: Report) -> Iterator[tuple[str, list[jsontext.Part], int]]:
    """Each kind of feature (:data:`SECTIONS`), the parts whose row-by-row
    :func:`~posting.jsontext.join` is its features' text, and how many: one per row of its
    table (``report.parcels``, ``report.markers``, the reported gaps, ``report.corners``,
    ``report.access``), in that table's order; made one kind at a time."""
    ids = report.parcels["id"].to_numpy()
    yield "parcels", *_parcels(report)
    yield "markers", *_markers(report)
    yield "gaps", *_gaps(report, ids)
    settings = report.settings
    yield "corners", *_corners(report.corners, ids, settings.corner_tolerance_ft)
    yield "access", *_access(report.access, ids, settings.access_tolerance_ft)


def feature_sections(report: Report) -> Iterator[tuple[str, pa.Array]]:
    """Each kind of feature (:data:`SECTIONS`) and its features' text (:func:`feature_parts`,
    joined)."""
    for name, parts, n in feature_parts(report):
        yield name, jsontext.join(*parts) if n else pa.array([], type=pa.large_string())


Parts = tuple[list[jsontext.Part], int]


def _feature(geometry: pa.Array, properties: list[jsontext.Part]) -> list[jsontext.Part]:
    return ['{"type": "Feature", "geometry": ', geometry, ', "properties": ', *properties, "}"]


def _geometries(geoms: np.ndarray) -> pa.Array:
    """The GeoJSON of each geometry, ``null`` where it has none (None, empty, or a coordinate
    not finite): polygons and lines from their coordinates, column by column
    (:func:`_shapes`), others as GEOS writes them (:func:`posting.draw.geojson_geometries`).
    Coordinates on the grid of :func:`_grid`, spelled by orjson."""
    import pyarrow.compute as pc
    import shapely

    from posting.crs import finite_geometry

    geoms = np.asarray(geoms, dtype=object)
    n = len(geoms)
    usable = ~(pd.isna(geoms) | shapely.is_empty(geoms)) & finite_geometry(geoms)
    kind = np.where(usable, shapely.get_type_id(geoms), -1)
    out = pa.array(np.full(n, _NULL, dtype=object), type=pa.large_string())
    for family in ((3, 6), (1, 5)):  # polygons, lines
        idx = np.flatnonzero(np.isin(kind, family))
        if len(idx):
            placed = np.zeros(n, dtype=bool)
            placed[idx] = True
            out = pc.replace_with_mask(out, pa.array(placed), _shapes(geoms[idx]))
    other = np.flatnonzero(usable & ~np.isin(kind, (1, 3, 5, 6)))
    if len(other):
        placed = np.zeros(n, dtype=bool)
        placed[other] = True
        text = pa.array(geojson_geometries(geoms[other]), type=pa.large_string())
        out = pc.replace_with_mask(out, pa.array(placed), text)
    return out


_NAMES = {1: "LineString", 3: "Polygon", 5: "MultiLineString", 6: "MultiPolygon"}


def _shapes(geoms: np.ndarray) -> pa.Array:
    """GeoJSON of polygons and multipolygons, or of lines and multilines (non-empty, finite),
    from their coordinates (``shapely.to_ragged_array``): each nesting level an array of the
    level below (:func:`posting.jsontext.arrays`)."""
    import shapely

    kind = shapely.get_type_id(geoms)
    _, coords, offsets = shapely.to_ragged_array(geoms)
    levels = [_coordinates(coords[:, 0], coords[:, 1])]
    for bounds in offsets:  # coordinates into rings (or lines), into polygons, ...
        bounds = np.asarray(bounds, dtype=np.int64)
        owner = np.repeat(np.arange(len(bounds) - 1), np.diff(bounds))
        levels.append(jsontext.join(*jsontext.arrays(levels[-1], owner, len(bounds) - 1)))
    # levels[-1]: one array per geometry, as the multi type (when any is one) or the single
    multi = len(offsets) == (3 if kind[0] in (3, 6) else 2)
    single = np.isin(kind, (1, 3))
    text = levels[-1]
    if multi and single.any():  # a single part among multi ones: its part's own text
        first = np.asarray(offsets[-1], dtype=np.int64)[:-1]
        text = jsontext.where(~single, text)
        text = jsontext.join(
            text, jsontext.scatter(single, levels[-2].take(pa.array(first[single])))
        )
    names = jsontext.texts(np.asarray([_NAMES[k] for k in kind.tolist()], dtype=object))
    return jsontext.join('{"type":', names, ',"coordinates":', text, "}")


def _grid(values: np.ndarray) -> np.ndarray:
    """Coordinates on the grid of :data:`~posting.records.LONLAT_DECIMALS` decimals, as
    ``shapely.set_precision`` puts them (GEOS: the value times the scale, rounded half up,
    divided by the scale), the same floats without making a Point."""
    scale = 10.0**LONLAT_DECIMALS
    with np.errstate(invalid="ignore", over="ignore"):  # not finite: a null geometry
        v = np.asarray(values, dtype=float) * scale
        whole = np.trunc(v)
        frac = np.abs(v - whole)
    up = np.where(frac < 0.5, np.floor(v), np.where(frac > 0.5, np.ceil(v), whole + 1.0))
    down = np.where(frac < 0.5, np.ceil(v), np.where(frac > 0.5, np.floor(v), whole))
    return np.where(v >= 0, up, down) / scale


def _coordinates(x: np.ndarray, y: np.ndarray) -> pa.Array:
    """``[x,y]`` of each coordinate, on the grid of :func:`_grid`, spelled by orjson."""
    return jsontext.join(
        "[", jsontext.numbers(_grid(x), None), ",", jsontext.numbers(_grid(y), None), "]"
    )


def _points(lon: Any, lat: Any) -> pa.Array:
    """GeoJSON Points at ``lon``, ``lat`` (on the grid of :func:`_grid`), ``null`` where
    either is not a finite number."""
    x, y = np.asarray(lon, dtype=float), np.asarray(lat, dtype=float)
    text = jsontext.join('{"type":"Point","coordinates":', _coordinates(x, y), "}")
    bad = ~(np.isfinite(x) & np.isfinite(y))
    if bad.any():
        text = _null_where(bad, text)
    return text


def _null_where(mask: np.ndarray, text: pa.Array) -> pa.Array:
    import pyarrow.compute as pc

    return pc.if_else(pa.array(mask), pa.scalar(_NULL, pa.large_string()), text)


def _ring(assigned: np.ndarray, part: Any, hole: Any) -> pa.Array:
    """``{"part": ..., "hole": ...}`` where ``assigned``, ``null`` elsewhere."""
    p = np.where(assigned, pd.to_numeric(pd.Series(part), errors="coerce").fillna(0), 0)
    h = np.where(assigned, pd.to_numeric(pd.Series(hole), errors="coerce").fillna(0), 0)
    text = jsontext.join(
        '{"part":',
        jsontext.integers(p.astype(np.int64)),
        ',"hole":',
        jsontext.integers(h.astype(np.int64)),
        "}",
    )
    return _null_where(~np.asarray(assigned, dtype=bool), text)


def _numeric(values: Any, decimals: int = FT_DECIMALS) -> pa.Array:
    """A column of numbers as ``_num`` writes each: integers as they are, floats rounded as
    Python rounds them, ``null`` where missing or not finite."""
    s = pd.Series(values)
    if pd.api.types.is_integer_dtype(s) and not s.isna().any():
        return jsontext.integers(s.to_numpy(dtype=np.int64))
    return jsontext.numbers(pd.to_numeric(s, errors="coerce"), decimals, exact=True)


def marker_features(markers: pd.DataFrame, assigned: np.ndarray | None = None) -> Parts:
    """The GeoJSON features of markers (a table as :attr:`Report.markers`: ``source``,
    ``row``, ``lon``, ``lat``, ``kind``, and, for the assigned (``assigned``: all when None),
    ``parcel_id``, ``part``, ``hole``, ``assigned_by``, ``distance_ft``, ``position_ft``;
    ``label`` if any), and why each is or is not assigned (:func:`posting.records.why_text`
    of its ``reason``, ``assigned_by`` and ``distance_ft``): the parts of their text and how
    many (:func:`feature_parts`)."""
    m = markers
    n = len(m)
    if assigned is None:
        assigned = np.ones(n, dtype=bool)
    assigned = np.asarray(assigned, dtype=bool)

    def column(name: str, missing: Any = None) -> Any:
        return m[name] if name in m else np.full(n, missing, dtype=object)

    props = [
        '{"layer":"marker","source":',
        _text_column(m["source"].to_numpy(dtype=object)),
        ',"row":',
        jsontext.integers(m["row"].to_numpy(dtype=np.int64)),
        ',"name":',
        _text_column(_label_column(m)),
        ',"kind":',
        _text_column(m["kind"].to_numpy(dtype=object)),
        ',"parcel":',
        _text_column(np.where(assigned, np.asarray(column("parcel_id"), dtype=object), None)),
        ',"ring":',
        _ring(assigned, column("part"), column("hole")),
        ',"assigned_by":',
        _text_column(column("assigned_by")),
        ',"distance_ft":',
        _numeric(column("distance_ft", np.nan)),
        ',"position_ft":',
        _numeric(column("position_ft", np.nan)),
        ',"why":',
        why_text(m),
        "}",
    ]
    return _feature(_points(m["lon"], m["lat"]), props), n


def _parcels(report: Report) -> Parts:
    """The parcels' features, each wound by RFC 7946's right-hand rule (exteriors
    counter-clockwise, holes clockwise) whatever the input's winding (a Shapefile's is the
    reverse)."""
    import shapely

    lonlat = shapely.orient_polygons(report.geometry.geometry_lonlat(), exterior_cw=False)
    geoms = _geometries(lonlat)
    return _feature(geoms, [parcel_properties(report)]), len(geoms)


def _markers(report: Report) -> Parts:
    m = report.markers
    return marker_features(m, m["parcel"].to_numpy() >= 0)


def _gaps(report: Report, ids: np.ndarray) -> Parts:
    reported = (report.gaps["status"] != "ok").to_numpy()
    g = report.gaps[reported]
    if not len(g):
        return [], 0
    props = [
        '{"layer":"gap","parcel":',
        _text_column(ids[g["parcel"].to_numpy(dtype=np.int64)]),
        ',"status":',
        _text_column(g["status"].to_numpy(dtype=object)),
        ',"ring":',
        _ring(np.ones(len(g), dtype=bool), g["part"], g["hole"]),
        ',"length_ft":',
        _numeric(gap_figures(g, "length_ft")),
        ',"straight_ft":',
        _numeric(gap_figures(g, "straight_ft")),
        ',"limit_ft":',
        _numeric(g["limit_ft"]),
        "}",
    ]
    return _feature(_geometries(gap_lines(report)[reported]), props), len(g)


def _corners(c: pd.DataFrame, ids: np.ndarray, tolerance_ft: float) -> Parts:
    return _located(
        c,
        ids,
        tolerance_ft,
        "corner",
        lambda t: [',"turn_deg":', _numeric(t["turn_deg"], 1)],
        # the nearest marker serves another corner (one marker serves one corner)
        lambda t: [',"marker_shared":', jsontext.booleans(_shared(t))],
    )


def _shared(c: pd.DataFrame) -> np.ndarray:
    if "marker_shared" not in c:
        return np.zeros(len(c), dtype=bool)
    return c["marker_shared"].fillna(False).to_numpy(dtype=bool)


def _access(a: pd.DataFrame, ids: np.ndarray, tolerance_ft: float) -> Parts:
    return _located(
        a,
        ids,
        tolerance_ft,
        "access",
        lambda t: [',"type":', _text_column(t["type"].to_numpy(dtype=object))],
    )


def _located(
    table: pd.DataFrame,
    ids: np.ndarray,
    tolerance_ft: float,
    layer: str,
    middle: Any,
    after: Any = None,
) -> Parts:
    """Point features of a table with ``parcel``, ``status``, ``nearest_ft``, ``lon`` and
    ``lat`` (corners, access points): ``middle(table)``, the parts of the properties between
    the status and the nearest marker's distance (on its status's side of ``tolerance_ft``:
    :func:`posting.records.point_figures`), and ``after(table)`` those after it."""
    if not len(table):
        return [], 0
    props = [
        f'{{"layer":"{layer}","parcel":',
        _text_column(ids[table["parcel"].to_numpy(dtype=np.int64)]),
        ',"status":',
        _text_column(table["status"].to_numpy(dtype=object)),
        *middle(table),
        ',"nearest_marker_ft":',
        _numeric(point_figures(table, tolerance_ft)),
        *(after(table) if after is not None else []),
        "}",
    ]
    return _feature(_points(table["lon"], table["lat"]), props), len(table)
