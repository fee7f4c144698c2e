"""Reading parcels and markers from the formats surveyors exchange, and writing outputs whole.

Every input row keeps its 0-based row number; nothing is dropped here. A row whose geometry
cannot be used is kept with the reason, and the engine reports it.

Formats: GeoJSON, GeoPackage, Shapefile (also zipped), FlatGeobuf, KML (every folder), GPX
waypoints (markers only), GeoParquet, and CSV of points (``lon``/``lat``,
``longitude``/``latitude``, ``lng``/``long`` in WGS 84, or ``x``/``y`` in the CRS given with
``--crs``). A plain Parquet table with those columns is read like a CSV.
"""

from __future__ import annotations

import contextlib
import dataclasses
import decimal
import fnmatch
import io
import os
import re
import sys
import tempfile
import warnings
from collections.abc import Iterable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import shapely
from pyproj import CRS, Transformer
from pyproj.exceptions import CRSError as PyprojCRSError

from posting import jsonslices, kmlcoords, photos
from posting.closedlines import closed_lines
from posting.crs import (
    FARTHEST_FT,
    UNITS_M,
    WGS84,
    crs_of,
    parse_crs,
    projected_area_of_use,
    pyproj_reason,
    same_zone,
    unit_ratios,
)
from posting.csvslices import csv_separator
from posting.errors import CRSError, InputError
from posting.jsonslices import (
    SEQUENCE_SUFFIXES,
    FeatureSlice,
    columns_of,
    conform,
    slice_text,
)
from posting.strays import STRAY_FEATURE, find_strays, stray_problem

if TYPE_CHECKING:
    from posting.csvslices import TextSlice
    from posting.prefetch import Prefetch

__all__ = [
    "FeatureLayer",
    "Layer",
    "MarkerLayer",
    "ParcelLayer",
    "parcel_values",
    "parcel_where",
    "parse_where",
    "read_features",
    "read_layer",
    "read_markers",
    "read_parcels",
    "where_match",
    "write_text",
]

LON_NAMES = ("lon", "longitude", "lng", "long")
LAT_NAMES = ("lat", "latitude")
X_NAMES = ("x", "easting", "point_x", "x_coord", "xcoord", "east")
Y_NAMES = ("y", "northing", "point_y", "y_coord", "ycoord", "north")
"""x and y as tables name them: GIS exports (ArcGIS' Add XY Coordinates writes POINT_X and
POINT_Y, in the layer's CRS) and surveyors' point files; a total station's P,N,E,Z,D header
(point, northing, easting, elevation, description) is read by its pair of letters, N and E."""
GEOMETRY_NAMES = ("wkt", "wkt_geom", "geometry", "geom", "the_geom", "shape", "geometrie")
"""A table's column of whole geometries (well-known text, as QGIS and ogr2ogr write a CSV
with ``GEOMETRY=AS_WKT``; WKB bytes in a plain Parquet table), read where the table has no
coordinate columns."""
TABLE_SUFFIXES = {".csv", ".txt", ".tsv"}
PARQUET_SUFFIXES = {".parquet", ".geoparquet", ".pq"}


@dataclass
class Layer:
    """One input layer: attributes, geometries in the layer's CRS, and per-row problems.

    ``frame`` and ``geometry`` have one entry per input row, in input order.
    ``problems`` maps a row number to why its geometry cannot be used (for instance a CSV
    latitude that is not a number); such rows have a ``None`` geometry. ``notes`` are warnings
    about the file as a whole (read as Latin-1, a ring closed ...), each prefixed with the path.
    """

    path: str
    frame: pd.DataFrame
    geometry: np.ndarray
    crs: CRS
    problems: dict[int, str] = field(default_factory=dict)
    xy: tuple[np.ndarray, np.ndarray] | None = None  # points read without geometries
    notes: list[str] = field(default_factory=list)
    layers: tuple[str, ...] = ()  # the file's layers where it has several and none was named

    def __len__(self) -> int:
        return len(self.xy[0]) if self.xy is not None else len(self.geometry)


_NO_CRS = (
    "the layer has no CRS; give it with {option} "
    "(for example {option} EPSG:4326 for longitude/latitude)"
)
_REWRITE = "write the file again from its source (geopandas' to_parquet, or ogr2ogr -f Parquet)"


def not_wkb(row: int) -> str:
    """The message for a GeoParquet file whose geometry of ``row`` (of the file) is not WKB,
    in one run and in a piece alike."""
    return (
        f"not a readable GeoParquet file: the geometry of row {row} of this file is not WKB "
        f"(a damaged or hand-made file?); {_REWRITE}"
    )


def first_not_wkb(values: Any) -> int:
    """The first of ``values`` (a geometry column's bytes) that is not WKB (0 if none is)."""
    values = np.asarray(values, dtype=object)
    with np.errstate(invalid="ignore"):
        parsed = shapely.from_wkb(
            [v if isinstance(v, (bytes, str)) else None for v in values], on_invalid="ignore"
        )
    bad = np.flatnonzero(pd.isna(parsed) & ~pd.isna(values))
    return int(bad[0]) if len(bad) else 0


def geo_metadata(meta: dict[bytes, bytes] | None, path: str) -> dict[str, Any] | None:
    """A GeoParquet file's ``geo`` metadata (None where it has none), refused naming ``path``
    where it is not what GeoParquet writes (not JSON, not an object, its ``columns`` not
    objects), which its readers would otherwise stumble on."""
    import json as _json

    raw = (meta or {}).get(b"geo")
    if raw is None:
        return None
    try:
        geo = _json.loads(raw)
    except ValueError as exc:  # (UnicodeDecodeError too)
        raise InputError(
            f"its GeoParquet metadata (the 'geo' key) is not JSON ({exc}); {_REWRITE}", path=path
        ) from None
    columns = geo.get("columns", {}) if isinstance(geo, dict) else None
    if (
        not isinstance(columns, dict)
        or not all(isinstance(c, dict) for c in columns.values())
        or not isinstance(geo.get("primary_column", ""), str)
    ):
        raise InputError(
            "its GeoParquet metadata (the 'geo' key) is not GeoParquet's (an object with a "
            f"'primary_column' and an object of 'columns'); {_REWRITE}",
            path=path,
        )
    return geo


def _column(frame: pd.DataFrame, names: Sequence[str]) -> str | None:
    lower = {str(c).strip().lower(): c for c in frame.columns}
    for name in names:
        if name in lower:
            return lower[name]
    return None


def _require_column(frame: pd.DataFrame, name: str, path: str, parameter: str) -> str:
    """The actual column named ``name`` (case-insensitive), or an error listing the columns;
    ``parameter`` is the setting that named it."""
    col = _column(frame, [name.strip().lower()])
    if col is None:
        cols = ", ".join(str(c) for c in frame.columns if c != "geometry") or "(none)"
        raise InputError(
            f"{{option}} {name!r} is not a column; the columns are: {cols}",
            path=path,
            column=name,
            parameter=parameter,
        )
    return col


_PART_OF_FILE: ContextVar[bool] = ContextVar("posting_part_of_file", default=False)


@contextlib.contextmanager
def part_of_file() -> Iterator[None]:
    """Read a slice of one file without the checks only the whole file can settle: most rows
    in another CRS than the file says, or with longitude and latitude swapped
    (:func:`_check_lonlat_range`, :func:`_check_crs_plausible`). For a slice of a file that
    passed them read whole (:func:`posting.distributed.read_marker_piece`)."""
    token = _PART_OF_FILE.set(True)
    try:
        yield
    finally:
        _PART_OF_FILE.reset(token)


_COLUMNS_READ: ContextVar[list[Any] | None] = ContextVar("posting_columns_read", default=None)


@contextlib.contextmanager
def _collected(var: ContextVar[list[Any] | None]) -> Iterator[list[Any]]:
    """A list that ``var`` holds in the block, for what the reading in it adds."""
    seen: list[Any] = []
    token = var.set(seen)
    try:
        yield seen
    finally:
        var.reset(token)


def columns_read() -> contextlib.AbstractContextManager[list[Any]]:
    """The columns of each slice of a GeoJSON file read in the block, as GDAL typed them
    (:func:`posting.jsonslices.columns_of`, before any cast), in the order read: what
    :func:`posting.jsonslices.agree` compares, known without reading the slice again
    (:func:`posting.distributed._distribute_markers`)."""
    return _collected(_COLUMNS_READ)


@dataclass(frozen=True)
class LonLatTally:
    """What :func:`_check_lonlat_range`'s refusals need of longitude/latitude columns, all or
    some of a layer's rows: the parts of a dataset read apart are judged as the dataset read
    whole (:func:`refuse_as_whole`).

    Attributes
    ----------
    columns
        The longitude and latitude columns' names.
    finite
        Rows with both numbers finite.
    far, first_far
        Rows with a number beyond 360 (not an angle), and the first one's (lon, lat).
    swapped, first_swapped
        Rows whose latitude is beyond 90 and longitude within it, and the first one's row
        (within the part) and latitude.
    """

    columns: tuple[str, str]
    finite: int
    far: int
    first_far: tuple[float, float] | None
    swapped: int
    first_swapped: tuple[int, float] | None

    @classmethod
    def of(cls, lon: np.ndarray, lat: np.ndarray, columns: tuple[str, str]) -> LonLatTally:
        """The tally of the rows ``lon``, ``lat``."""
        finite = np.isfinite(lon) & np.isfinite(lat)
        far = np.zeros(len(lon), dtype=bool)
        far[finite] = (np.abs(lon[finite]) > 360) | (np.abs(lat[finite]) > 360)
        swap = np.zeros(len(lon), dtype=bool)
        swap[finite] = (np.abs(lat[finite]) > 90) & (np.abs(lon[finite]) <= 90)
        i = int(np.argmax(far)) if far.any() else None
        j = int(np.argmax(swap)) if swap.any() else None
        return cls(
            columns=columns,
            finite=int(finite.sum()),
            far=int(far.sum()),
            first_far=None if i is None else (float(lon[i]), float(lat[i])),
            swapped=int(swap.sum()),
            first_swapped=None if j is None else (j, float(lat[j])),
        )

    @staticmethod
    def added(parts: Sequence[tuple[int, LonLatTally]]) -> LonLatTally:
        """The tally of parts (each with the number of its first row) taken in order."""
        far = next((t.first_far for _, t in parts if t.first_far is not None), None)
        swapped = next(
            ((o + t.first_swapped[0], t.first_swapped[1]) for o, t in parts if t.first_swapped),
            None,
        )
        return LonLatTally(
            columns=parts[0][1].columns,
            finite=sum(t.finite for _, t in parts),
            far=sum(t.far for _, t in parts),
            first_far=far,
            swapped=sum(t.swapped for _, t in parts),
            first_swapped=swapped,
        )

    def refuse(self, path: str, crs: CRS) -> None:
        """Refuse the layer where most rows are not angles (the wrong CRS, named) or have
        longitude and latitude swapped.

        Raises
        ------
        CRSError, InputError
        """
        if self.far and self.far * 2 > self.finite:
            lon, lat = self.first_far
            named_lonlat = str(self.columns[0]).strip().lower() in LON_NAMES
            mend = (
                "name the columns x/y and give their CRS with {option}"
                if named_lonlat
                else "give their CRS with {option}, not a geographic one"
            )
            raise CRSError(
                f"columns {self.columns[0]}/{self.columns[1]} hold numbers such as ({lon:,.1f}, "
                f"{lat:,.1f}), which are not degrees of longitude/latitude ({crs.name}): "
                f"they look like projected coordinates (feet or metres); {mend} (for example "
                "{option} EPSG:2236 for Florida East, US survey feet)",
                path=path,
                parameter="crs",
            )
        if self.swapped and self.swapped * 2 > self.finite:
            i, lat = self.first_swapped
            raise InputError(
                f"longitude and latitude are swapped: in {self.swapped:,} of {self.finite:,} "
                f"rows the latitude ({self.columns[1]}) is beyond 90 degrees, as {lat:g} in row "
                f"{i}, while the longitude ({self.columns[0]}) would be a latitude. Swap the "
                "columns, or name them for what they hold (lon, lat)",
                path=path,
            )


def _check_lonlat_range(
    lon: np.ndarray, lat: np.ndarray, path: str, columns: tuple[str, str], crs: CRS
) -> dict[int, str]:
    """Rows whose longitude or latitude is out of range, with the likely cause.

    Numbers far beyond any angle (State Plane feet, UTM metres) in most rows are not a few bad
    rows but the wrong CRS: that is refused at once, naming the cause. A latitude beyond 90
    whose longitude would be a latitude is a swap, and is said so. Read as a part of a layer
    (:func:`part_of_file`), the refusals are left to the whole layer (:func:`tallies`).
    """
    problems: dict[int, str] = {}
    _judge(WholeTally(path, crs, lonlat=LonLatTally.of(lon, lat, columns)))
    for i in np.flatnonzero(np.isfinite(lat) & (np.abs(lat) > 90)):
        if abs(lat[i]) > 360:
            why = f"latitude {lat[i]:g} is not an angle (a projected coordinate?)"
        elif abs(lon[i]) <= 90:
            why = f"latitude {lat[i]:g} is outside -90..90 (are lon and lat swapped?)"
        else:
            why = f"latitude {lat[i]:g} is outside -90..90"
        problems[int(i)] = why
    for i in np.flatnonzero(np.isfinite(lon) & (np.abs(lon) > 180)):
        problems.setdefault(int(i), f"longitude {lon[i]:g} is outside -180..180")
    return problems


def _points_from_table(
    frame: pd.DataFrame,
    path: str,
    crs: CRS | None,
    *,
    decimal_comma: bool = False,
    kind: str = "",
) -> Layer:
    """Point geometries from coordinate columns of a CSV or plain Parquet table (with
    ``decimal_comma``, ``28,5`` is read as 28.5); markers' as their x and y only (``xy``,
    not-a-number where a row has a problem), as GeoParquet's points are read: a million Point
    objects cost 0.6 s to make and more to take apart."""
    lon_col = _coordinate_column(frame, LON_NAMES, "longitude", path)
    lat_col = _coordinate_column(frame, LAT_NAMES, "latitude", path)
    lonlat_note = None
    if lon_col is not None and lat_col is not None:
        xcol, ycol, layer_crs, geographic = lon_col, lat_col, WGS84, True
        lonlat_note = _lonlat_crs_note(path, (lon_col, lat_col), crs)
    else:
        xcol, ycol = _xy_columns(frame, path)
        if xcol is None or ycol is None:
            shapes = _column(frame, GEOMETRY_NAMES)
            if shapes is not None:
                return _shapes_from_table(frame, shapes, path, crs, kind=kind)
            cols = _columns_shown(frame.columns)
            numbers = pd.to_numeric(pd.Series(frame.columns, dtype=object), errors="coerce")
            if int(numbers.notna().sum()) >= 2:  # a first line of values: no header
                raise InputError(
                    f"has no header line: its first line is values ({cols}). A surveyor's "
                    "point file (PNEZD: point, northing, easting, elevation, description)? "
                    "Add a first line naming the columns in their order, e.g. "
                    "P,N,E,Z,D, and give the CRS with {option}",
                    path=path,
                    parameter="crs",
                )
            raise InputError(
                "no coordinate columns; expected lon/lat (or longitude/latitude) in "
                f"WGS 84, x/y (easting/northing, POINT_X/POINT_Y, a total station's N and E) "
                f"with {{option}}, or a WKT column of geometries with {{option}}. The columns "
                f"are: {cols}",
                path=path,
                parameter="crs",
            )
        if crs is None:
            x, y = (pd.to_numeric(frame[c], errors="coerce") for c in (xcol, ycol))
            raise CRSError(
                f"columns {xcol}/{ycol} are coordinates without their CRS, so it must be "
                f"given: add {{option}} ({_crs_example(x.to_numpy(float), y.to_numpy(float))})",
                path=path,
                parameter="crs",
            )
        layer_crs, geographic = crs, crs.is_geographic

    problems: dict[int, str] = {}
    values = {}
    notes: list[str] = [lonlat_note] if lonlat_note else []
    for col, axis in ((xcol, "lon"), (ycol, "lat")):
        raw = frame[col]
        digits = raw.str.replace(",", ".", regex=False) if decimal_comma else raw
        num = pd.to_numeric(digits, errors="coerce").to_numpy(dtype=float, copy=True)
        bad = np.flatnonzero(~np.isfinite(num))
        text = raw.iloc[bad].astype("string").str.strip()
        blank = (text.isna() | (text == "")).to_numpy(dtype=bool)
        angles = {}  # degrees, minutes and seconds (28°45'12.3"N), each text once
        if geographic and not blank.all():
            from posting import angles as _angles

            angles = {t: _angles.parse(t, axis) for t in pd.unique(text[~blank])}
        read_so = []
        for i, t, empty in zip(bad, text, blank, strict=True):
            value, why = (None, None) if empty else angles.get(t, (None, None))
            if empty:
                problems.setdefault(int(i), f"no value in column {col!r}")
            elif value is not None:
                num[i] = value
                read_so.append(int(i))
            else:
                said = f"cannot be read: {why}" if why else "is not a number"
                problems.setdefault(int(i), f"{col} {raw.iloc[i]!r} {said}")
        if read_so:
            first = read_so[0]
            notes.append(
                f"{path}: {len(read_so):,} row(s) give {col} in degrees and minutes, read as "
                f"decimal degrees (row {first}: {raw.iloc[first]!r} as {num[first]:.7f})"
            )
        values[col] = num
    x, y = values[xcol], values[ycol]
    if geographic:
        for i, why in _check_lonlat_range(x, y, path, (xcol, ycol), layer_crs).items():
            problems.setdefault(i, why)
    attrs = frame.drop(columns=[xcol, ycol]).reset_index(drop=True)
    bad = np.fromiter(problems, dtype=np.int64, count=len(problems))
    if kind == "markers":
        x, y = x.copy(), y.copy()
        x[bad] = y[bad] = np.nan
        empty = np.empty(0, dtype=object)
        return Layer(path, attrs, empty, layer_crs, problems, xy=(x, y), notes=notes)
    geometry = shapely.points(x, y)
    geometry[bad] = None
    return Layer(path, attrs, geometry, layer_crs, problems, notes=notes)


def _lonlat_crs_note(path: str, columns: tuple[str, str], crs: CRS | None) -> str | None:
    """The warning for a table's longitude/latitude ``columns``, always read as WGS 84, where
    the ``crs`` given (``--crs``) is a geographic CRS on another datum than WGS 84 or NAD83
    (whose positions PROJ takes as WGS 84's): NAD27, Old Hawaiian, Puerto Rico 1940, Guam
    1963... Such positions read as WGS 84 stand tens to hundreds of feet off (NAD27: 115 ft in
    Seminole County), yet the CRS given may be meant for another layer (a parcel file without
    one), so the columns are not read in it; x/y columns are. None where there is nothing to
    say. The words depend on the file and the CRS alone: every slice of a file says the same.

    >>> print(_lonlat_crs_note("s.csv", ("lon", "lat"), CRS("EPSG:4267"))[:69])
    s.csv: columns lon/lat are read as WGS 84 longitude/latitude, as such
    >>> [_lonlat_crs_note("s.csv", ("lon", "lat"), CRS(c)) for c in ("EPSG:4269", "EPSG:2236")]
    [None, None]
    """
    if crs is None or not crs.is_geographic or crs.geodetic_crs is None:
        return None
    datum = crs.geodetic_crs.datum.name if crs.geodetic_crs.datum is not None else ""
    if datum.startswith(("World Geodetic System 1984", "North American Datum 1983", "NAD83")):
        return None
    code = crs.to_epsg()
    given = f"EPSG:{code}" if code else crs.name
    return (
        f"{path}: columns {columns[0]}/{columns[1]} are read as WGS 84 longitude/latitude, as "
        f"such columns always are; --crs {given} ({crs.name}) applies to layers without a CRS "
        f"and to x/y columns, not to these. If they hold {crs.name} positions (tens to "
        f"hundreds of feet from WGS 84's), name the columns x/y so that --crs applies"
    )


def _columns_shown(columns: Sequence[Any], most: int = 12) -> str:
    """A table's column names for a message: the first ``most``, each cut to 40 characters
    (a file of another format read as a table has its whole first line as "columns").

    >>> _columns_shown(["lon", "lat"])
    'lon, lat'
    >>> _columns_shown([f"c{i}" for i in range(14)] + ["x" * 60], most=2)
    'c0, c1 and 13 more'
    >>> _columns_shown(["x" * 60])
    'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'
    """
    names = [str(c) if len(str(c)) <= 40 else str(c)[:39] + "..." for c in columns]
    more = f" and {len(names) - most:,} more" if len(names) > most else ""
    return ", ".join(names[:most]) + more or "(none)"


def _coordinate_column(
    frame: pd.DataFrame, names: Sequence[str], role: str, path: str
) -> str | None:
    """The column of a table that holds its ``role`` (a coordinate), named by one of ``names``
    (the first of them found, case and blanks aside). Where two columns name it (``lon`` and
    ``LON``, ``lon`` and ``longitude``, or a header repeated, which pandas reads as ``lon`` and
    ``lon.1``) and their values differ, which one holds it cannot be told: refused, naming
    both (one was used without a word, the others left as attributes).

    >>> _coordinate_column(pd.DataFrame({"LON": ["1"], "lon": [" 1"]}), ["lon"], "lon", "a")
    'LON'
    """
    found = []
    for name in names:
        for col in frame.columns:
            text = str(col).strip().lower()
            base = text.rsplit(".", 1)[0] if text.rsplit(".", 1)[-1].isdigit() else text
            if base == name and col not in found:
                found.append(col)
    if len(found) < 2:
        return found[0] if found else None
    first = frame[found[0]].astype("string").str.strip()
    for other in found[1:]:
        if not first.equals(frame[other].astype("string").str.strip()):
            raise InputError(
                f"columns {str(found[0])!r} and {str(other)!r} both name the {role} and hold "
                "different values, so which of them holds it cannot be told: rename or remove "
                "the other",
                path=path,
            )
    return found[0]


def _xy_columns(frame: pd.DataFrame, path: str = "") -> tuple[str | None, str | None]:
    """The columns of x and y: by :data:`X_NAMES` and :data:`Y_NAMES`, else a total station's
    ``E`` and ``N`` (only as a pair: one letter alone names nothing).

    >>> _xy_columns(pd.DataFrame(columns=["P", "N", "E", "Z", "D"]))
    ('E', 'N')
    >>> _xy_columns(pd.DataFrame(columns=["OBJECTID", "POINT_X", "POINT_Y"]))
    ('POINT_X', 'POINT_Y')
    >>> _xy_columns(pd.DataFrame(columns=["id", "n"]))
    (None, None)
    """
    xcol = _coordinate_column(frame, X_NAMES, "x", path)
    ycol = _coordinate_column(frame, Y_NAMES, "y", path)
    if xcol is None and ycol is None:
        east, north = _column(frame, ["e"]), _column(frame, ["n"])
        if east is not None and north is not None:
            return east, north
    return xcol, ycol


def _crs_example(x: np.ndarray, y: np.ndarray) -> str:
    """How to give the CRS of coordinates ``x``, ``y``: EPSG:4326 where every one of them could
    be a longitude and latitude, else a State Plane zone as the example.

    >>> _crs_example(np.array([-81.1, np.nan]), np.array([28.7, 1.0]))
    '{option} EPSG:4326 if they are degrees of longitude/latitude, as they look'
    """
    fine = np.isfinite(x) & np.isfinite(y)
    if fine.any() and (np.abs(x[fine]) <= 180).all() and (np.abs(y[fine]) <= 90).all():
        return "{option} EPSG:4326 if they are degrees of longitude/latitude, as they look"
    return "for example {option} EPSG:2236 for Florida East, US survey feet"


def _shapes_from_table(
    frame: pd.DataFrame, col: str, path: str, crs: CRS | None, *, kind: str = ""
) -> Layer:
    """A table's geometries from its column ``col`` of well-known text (a CSV) or WKB bytes (a
    plain Parquet table), in ``crs``, which the table cannot hold and must be given. A row
    whose text is blank or not a geometry, or, for markers, not one point, is a problem of its
    row; markers are read as their x and y, as coordinate columns are."""
    raw = frame[col]
    values = raw.where(raw.notna(), None).to_numpy(dtype=object, copy=True)
    given = values[pd.notna(raw).to_numpy()]
    wkb = len(given) > 0 and isinstance(given[0], bytes | bytearray | memoryview)
    if wkb:
        text = None
        blank = (raw.isna() | (raw.str.len() == 0)).to_numpy(dtype=bool)
    else:
        text = raw.astype("string").str.strip()
        blank = (raw.isna() | (text == "")).to_numpy(dtype=bool)
    values[blank] = None
    try:
        if wkb:
            geometry = shapely.from_wkb(values, on_invalid="ignore")
        else:
            geometry = shapely.from_wkt(values, on_invalid="ignore")
    except (TypeError, ValueError, shapely.errors.GEOSException) as exc:
        raise InputError(
            f"column {col!r} holds no geometries shapely can read ({_one_line(exc)})", path=path
        ) from None
    geometry[blank] = None
    lost = np.flatnonzero(shapely.is_missing(geometry) & ~blank)
    if crs is None:
        xy = shapely.get_coordinates(geometry[~shapely.is_missing(geometry)][:1000])
        raise CRSError(
            f"column {col} holds geometries without their CRS, so it must be given: add "
            f"{{option}} ({_crs_example(xy[:, 0], xy[:, 1])})",
            path=path,
            parameter="crs",
        )
    problems: dict[int, str] = {
        int(i): f"no geometry in column {col!r}" for i in np.flatnonzero(blank)
    }
    how = "WKB" if wkb else "well-known text (WKT)"
    for i in lost:
        shown = text.iloc[i] if text is not None else f"{len(raw.iloc[i]):,} bytes"
        shown = shown if len(shown) <= 40 else shown[:39] + "..."
        problems[int(i)] = f"{col} {shown!r} is not a geometry in {how}"
    attrs = frame.drop(columns=[col]).reset_index(drop=True)
    if kind == "markers":
        types = shapely.get_type_id(geometry)
        empty = shapely.is_empty(geometry)
        for i in np.flatnonzero(~shapely.is_missing(geometry) & ((types != 0) | empty)):
            what = "an empty point" if empty[i] else f"a {geometry[i].geom_type}"
            problems.setdefault(int(i), f"{col} holds {what}, not one point")
        bad = np.fromiter(problems, dtype=np.int64, count=len(problems))
        points = geometry.copy()
        points[bad] = None
        x = shapely.get_x(points)
        y = shapely.get_y(points)
        if crs.is_geographic:
            for i in np.flatnonzero((np.abs(x) > 180) | (np.abs(y) > 90)):
                problems.setdefault(
                    int(i),
                    f"({x[i]:g}, {y[i]:g}) is not a longitude and latitude: are the "
                    f"geometries in another CRS than {crs.name}?",
                )
            x[list(problems)] = y[list(problems)] = np.nan
        return Layer(path, attrs, np.empty(0, dtype=object), crs, problems, xy=(x, y))
    bad = np.fromiter(problems, dtype=np.int64, count=len(problems))
    geometry[bad] = None
    return Layer(path, attrs, geometry, crs, problems)


_OTHER_FORMATS = (
    (b"SQLite format 3\x00", "a GeoPackage", ".gpkg"),
    (b"PAR1", "a Parquet file", ".parquet"),
    (b"fgb\x03", "a FlatGeobuf file", ".fgb"),
    (b"PK\x03\x04", "a zip archive (a zipped Shapefile, or KMZ)", ".zip or .kmz"),
    (b"\x00\x00\x27\x0a", "a Shapefile's .shp", ".shp"),
)
"""The first bytes of the formats posting reads that are not text, what each is, and its name's
ending (:func:`_not_a_table`)."""


def _not_a_table(head: bytes, path: str) -> None:
    """Refuse a file named as a table (``.csv``, ``.txt``) whose first bytes ``head`` are of
    another format: a GeoJSON, KML or GPX file, a GeoPackage ..., saying what it is and how to
    name it (read as a table, its first line would be taken for its columns: "no coordinate
    columns", or the whole file shown as a header of values).

    Raises
    ------
    InputError
    """
    for magic, what, suffix in _OTHER_FORMATS:
        if head.startswith(magic):
            raise InputError(
                f"is {what}, not a CSV table: name it {suffix} (as its format)", path=path
            )
    text = head.lstrip(b"\xef\xbb\xbf").lstrip()
    if text[:1] in (b"{", b"\x1e"):  # (an object, or a GeoJSON text sequence's record)
        what, suffix = "JSON (GeoJSON?)", ".geojson"
    elif text[:1] == b"<":
        lead = text[:512].lower()
        what, suffix = "XML", ".kml or .gpx"
        if b"<kml" in lead:
            what, suffix = "KML", ".kml"
        elif b"<gpx" in lead:
            what, suffix = "GPX", ".gpx"
    else:
        return
    raise InputError(f"is {what}, not a CSV table: name it {suffix} (as its format)", path=path)


def _read_csv(path: str, crs: CRS | None, part: TextSlice | None = None, kind: str = "") -> Layer:
    """A CSV of points: comma-separated, or semicolon- or tab-separated when the header has
    no comma (a spreadsheet in a language that writes 28,5 for 28.5, whose decimal commas are
    read as points); UTF-8 (a byte-order mark is skipped), UTF-16 with its mark, else Latin-1
    with a warning. ``part``: only those records (:mod:`posting.csvslices`), read as the whole
    file reads them. ``kind``: ``"markers"`` are read as x and y (:func:`_points_from_table`)."""
    with open(path, "rb") as fh:
        head = fh.read(1 << 16)
    source: Any = path
    if part is not None:  # the header and the first record settle the columns, as for the file
        with open(path, "rb") as fh:
            lead = fh.read(part.first_end if part.start > part.header_end else part.header_end)
            fh.seek(part.start)
            source = io.BytesIO(lead + fh.read(part.end - part.start))
    if not head.strip():
        raise InputError("the file is empty", path=path)
    _not_a_table(head, path)
    notes: list[str] = []
    encoding = "utf-16" if head[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig"
    sep = csv_separator(head)

    def read(enc: str) -> pd.DataFrame:
        return pd.read_csv(
            source, dtype=str, keep_default_na=False, na_values=[""], encoding=enc, sep=sep
        )

    try:
        try:
            frame = read(encoding)
        except UnicodeDecodeError as exc:
            frame = read("latin-1")
            notes.append(
                f"{path}: is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at "
                f"{exc.start:,}); read as Latin-1: if names look wrong, save it as UTF-8"
            )
    except pd.errors.EmptyDataError:
        raise InputError("the file is empty", path=path) from None
    except (ValueError, UnicodeError) as exc:  # pandas' ParserError is a ValueError
        raise InputError(f"not a readable CSV file ({_one_line(exc)})", path=path) from None
    if part is not None:
        if part.start > part.header_end:  # the first record, read for the columns' sake
            frame = frame.iloc[1:].reset_index(drop=True)
        if len(frame) != part.rows:  # (the slices are cut where every reader cuts records)
            raise InputError(
                f"a slice of {part.rows:,} records from byte {part.start:,} read as "
                f"{len(frame):,} rows: the file cannot be read in slices; save it as "
                "GeoParquet, or check it in one process",
                path=path,
            )
    if sep != ",":
        frame = _decimal_commas(frame)
    out = _points_from_table(frame, path, crs, decimal_comma=sep != ",", kind=kind)
    out.notes.extend(notes)
    return out


_DECIMAL_COMMA = r"[-+]?\d*,\d+"


def _decimal_commas(frame: pd.DataFrame) -> pd.DataFrame:
    """Columns of numbers written with a decimal comma (``28,5``), as a spreadsheet saving
    semicolon-separated values does, with points instead: a column is converted only when
    every value in it is such a number or a whole number.

    >>> table = _decimal_commas(pd.DataFrame({"a": ["2,5", "-3", ""], "b": ["x,y", "1,5", "2"]}))
    >>> table["a"].tolist(), table["b"].tolist()
    (['2.5', '-3', ''], ['x,y', '1,5', '2'])
    """
    out = frame.copy()
    for col in frame.columns:
        text = frame[col].dropna().astype(str).str.strip()
        text = text[text != ""]
        if not len(text) or not text.str.contains(",", regex=False).any():
            continue
        if text.str.fullmatch(rf"{_DECIMAL_COMMA}|[-+]?\d+").all():
            out[col] = frame[col].str.replace(",", ".", regex=False)
    return out


def _one_line(exc: BaseException) -> str:
    """An exception's message on one line (GDAL and pandas messages can span several)."""
    return " ".join(str(exc).split()) or type(exc).__name__


def _wkb_points(values: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """x and y of WKB points (21 bytes each, 2D, either byte order); None if any value is not
    such a point (then shapely reads the column)."""
    import pyarrow as pa

    arr = values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values
    if arr.null_count or len(arr) == 0 or not pa.types.is_binary(arr.type):
        return None
    offsets = np.frombuffer(arr.buffers()[1], dtype=np.int32)[
        arr.offset : arr.offset + len(arr) + 1
    ]
    if not (np.diff(offsets) == 21).all():
        return None
    raw = np.frombuffer(arr.buffers()[2], dtype=np.uint8)[offsets[0] : offsets[-1]].reshape(-1, 21)
    order = raw[:, 0]
    little = order == 1
    kind = np.where(
        little, raw[:, 1:5].copy().view("<u4")[:, 0], raw[:, 1:5].copy().view(">u4")[:, 0]
    )
    if not ((kind == 1) & ((order == 1) | (order == 0))).all():
        return None
    xy = np.empty((len(raw), 2))
    xy[little] = raw[little, 5:21].copy().view("<f8")
    xy[~little] = raw[~little, 5:21].copy().view(">f8")
    return xy[:, 0], xy[:, 1]


def _read_geoparquet(
    path: str, meta: dict[bytes, bytes], crs: CRS | None, kind: str, prefetch: Prefetch | None
) -> Layer | None:
    """A GeoParquet layer with WKB geometry, read with Arrow and shapely (no GeoDataFrame);
    marker points straight into coordinates, without a shapely geometry per row (a million
    signs read in a fraction of the time). None when the geometry is not WKB: geopandas reads
    the file then."""
    import json as _json

    import pyarrow.parquet as pq

    geo = geo_metadata(meta, path) or {}
    col = geo.get("primary_column")
    info = geo.get("columns", {}).get(col, {})
    if not col or str(info.get("encoding", "WKB")).upper() != "WKB":
        return None
    table = prefetch.take(path) if prefetch is not None else None  # read while posting loaded
    if table is None:
        table = pq.read_table(path)
    if col not in table.column_names:
        return None
    if "crs" not in info:  # GeoParquet: no crs key means OGC:CRS84, longitude/latitude
        layer_crs: CRS | None = WGS84
    elif info["crs"] is None:
        layer_crs = None
    else:
        text = info["crs"] if isinstance(info["crs"], str) else _json.dumps(info["crs"])
        try:
            layer_crs = crs_of(text)  # as CRS.from_user_input makes it, once per process
        except PyprojCRSError as exc:
            raise CRSError(
                f"its GeoParquet metadata gives a CRS that cannot be read "
                f"({pyproj_reason(exc)}); {_REWRITE}",
                path=path,
            ) from None
    if layer_crs is None:
        if crs is None:
            raise CRSError(_NO_CRS, path=path, parameter="crs")
        layer_crs = crs
    frame = table.drop_columns([col]).to_pandas(types_mapper=_exact_ints().get)
    frame = frame.reset_index(drop=True)
    values = table.column(col)
    if kind == "markers":
        xy = _wkb_points(values)
        if xy is not None:
            return Layer(path, frame, np.empty(0, dtype=object), layer_crs, xy=xy)
    raw = values.to_numpy(zero_copy_only=False)
    try:
        with np.errstate(invalid="ignore"):  # a coordinate not a number: the row's problem
            geometry = shapely.from_wkb(raw)
    except (shapely.errors.ShapelyError, TypeError):
        row = first_not_wkb(raw)
        raise InputError(not_wkb(row), path=path, row=row) from None
    types = info.get("geometry_types") or []
    flat = bool(types) and not any(str(t).upper().endswith(" Z") for t in types)
    if not flat and shapely.has_z(geometry).any():  # GeoParquet lists Z types as "Polygon Z"
        geometry = shapely.force_2d(geometry)
    return Layer(path, frame, geometry, layer_crs)


def _parquet_source(path: str, table: Any = None) -> Any:
    """What pandas or geopandas read for a Parquet file: its path, or only ``table``, a part
    of it already read (a piece of the partitioned check's: :class:`posting.dataset.Given`),
    written to memory, so that it is converted as the file would be."""
    if table is None:
        return path
    import pyarrow.parquet as pq

    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    buffer.seek(0)
    return buffer


def _read_parquet(path: str, crs: CRS | None, kind: str, prefetch: Prefetch | None) -> Layer:
    import pyarrow.parquet as pq

    try:
        meta = pq.read_schema(path).metadata or {}
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: not a readable Parquet file ({exc})") from None
    if b"geo" not in meta:  # a table of coordinates (lon/lat or x/y columns)
        table = prefetch.take(path) if prefetch is not None else None
        if table is None:
            table = pq.read_table(path, use_pandas_metadata=True)
        frame = table.to_pandas(types_mapper=_exact_ints().get)  # (integers as integers)
        return _points_from_table(frame, path, crs, kind=kind)
    try:
        fast = _read_geoparquet(path, meta, crs, kind, prefetch)
    except InputError:
        raise
    except (OSError, ValueError) as exc:  # Arrow's errors, a malformed "geo" entry
        raise InputError(f"not a readable GeoParquet file ({exc})", path=path) from None
    if fast is not None:
        return fast
    import geopandas as gpd

    table = prefetch.take(path) if prefetch is not None else None  # (GeoArrow's encodings)
    try:
        gdf = gpd.read_parquet(
            _parquet_source(path, table), to_pandas_kwargs={"types_mapper": _exact_ints().get}
        )
    except (OSError, ValueError) as exc:
        raise InputError(f"not a readable GeoParquet file ({exc})", path=path) from None
    return _from_geodataframe(gdf, path, crs)


def _prj_gdal_cannot_read(path: str, crs: CRS | None) -> CRS | None:
    """The CRS of a Shapefile's ``.prj`` that GDAL read as none (WKT2, or a PROJ string, where
    GDAL reads ESRI's WKT1), read by PROJ: the file's own CRS, which wins over ``crs``. None
    where there is no ``.prj`` (or not a Shapefile's). A ``.prj`` PROJ cannot read either is
    refused, named, unless ``crs`` is given: else the error would say the layer has no CRS,
    with its ``.prj`` beside it.

    Raises
    ------
    CRSError
    """
    p = Path(path)
    prj = _sibling(p, ".prj") if p.suffix.lower() == ".shp" else None
    if prj is None:
        return None
    text = prj.read_bytes().decode("utf-8", errors="replace").strip()
    try:
        return CRS.from_user_input(text)
    except PyprojCRSError:
        if crs is not None:
            return None
        start = " ".join(text.split())[:60]
        raise CRSError(
            f"its {prj.name} holds no CRS that GDAL or PROJ can read (it begins {start!r}); "
            "give the layer's CRS with {option}, or save the file again with its CRS",
            path=path,
            parameter="crs",
        ) from None


def _from_geodataframe(gdf, path: str, crs: CRS | None) -> Layer:
    if not hasattr(gdf, "geometry"):  # pyogrio gives a plain DataFrame for a table
        raise InputError("has no geometry: it is a table, not a layer of features", path=path)
    layer_crs = gdf.crs
    if layer_crs is None:
        layer_crs = _prj_gdal_cannot_read(path, crs)
    if layer_crs is None:
        if crs is None:
            raise CRSError(_NO_CRS, path=path, parameter="crs")
        layer_crs = crs
    geometry = np.asarray(gdf.geometry.array, dtype=object)
    if shapely.has_z(geometry).any():
        geometry = shapely.force_2d(geometry)
    frame = pd.DataFrame(gdf.drop(columns=gdf.geometry.name)).reset_index(drop=True)
    return Layer(path, frame, geometry, CRS.from_user_input(layer_crs))


_NAN_LE = np.array(np.nan, dtype="<f8").tobytes()
_NAN_BE = np.array(np.nan, dtype=">f8").tobytes()


def _exact_ints() -> dict[Any, Any]:
    """Arrow's integer types as pandas' nullable integers, for ``to_pandas``: a column of them
    with an empty value stays integers (as a GeoParquet file written by geopandas gives it)
    instead of floats, where a parcel number of 17 digits would lose its last
    (12345678901234567 read as 12345678901234568).

    A column's type then does not depend on the rows read: GDAL's 32-bit integers (a
    Shapefile's or GeoPackage's whole numbers) with a blank in some rows were integers in a
    slice without one and decimals in the file read whole, so a value read as text was ``1``
    in one and ``1.0`` in the other (a ``--signs-where code=1``, a survey's point number).
    """
    import pyarrow as pa

    return {
        pa.int8(): pd.Int8Dtype(),
        pa.int16(): pd.Int16Dtype(),
        pa.int32(): pd.Int32Dtype(),
        pa.int64(): pd.Int64Dtype(),
        pa.uint8(): pd.UInt8Dtype(),
        pa.uint16(): pd.UInt16Dtype(),
        pa.uint32(): pd.UInt32Dtype(),
        pa.uint64(): pd.UInt64Dtype(),
    }


_INT_KINDS = {
    k: k.replace("uint", "UInt").replace("int", "Int")
    for k in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
}
"""pyogrio's integer field types, and pandas' nullable ones (:func:`_with_exact_ints`)."""


def _with_exact_ints(
    frame: Any, path: str | bytes, layer: str | None, spans: list[dict[str, Any]]
) -> Any:
    """``frame`` (read without Arrow, as a file that is not UTF-8 must be) with its integer
    columns as Arrow gives them (:func:`_exact_ints`): those that came back as floats (a
    column with an empty value) read again exactly, through Arrow (they hold no text to
    decode), the others made pandas' nullable integers. Without it a parcel number of 17
    digits would lose its last, and a column's type would depend on the rows read.
    ``spans``: the slice ``frame`` was read as (:func:`feature_spans`)."""
    from posting.gdal import pyogrio_here

    pyogrio = pyogrio_here()

    info = pyogrio.read_info(path, layer=layer)
    kinds = {
        str(name): kind
        for name, kind in zip(info["fields"], info["dtypes"], strict=True)
        if kind in _INT_KINDS and name in frame
    }
    for name in [n for n in kinds if frame[n].dtype.kind in "iu"]:
        frame[name] = frame[name].astype(_INT_KINDS[kinds[name]])
    ints = [n for n in kinds if frame[n].dtype.kind == "f"]
    if not ints:
        return frame
    _, table = _read_spans(
        pyogrio.read_arrow, spans, path, layer=layer, columns=ints, read_geometry=False
    )
    exact = table.to_pandas(types_mapper=_exact_ints().get)
    if len(exact) != len(frame):  # pragma: no cover - the same layer read twice
        return frame
    for name in ints:
        frame[name] = exact[name].array
    return frame


FID_BATCH = 4_000
"""Features of a FlatGeobuf slice read at a time by their ids: GDAL's Arrow reader takes ids
as an SQL ``IN`` list, of at most 4,997 (OGR SQL's limit)."""

SKIP_PER_FID = 5
"""A FlatGeobuf slice starting within this many times its length of the file's start is
reached by skipping the features before it, one farther on by its features' ids. Skipping
costs about 0.7 µs a feature passed, a read by ids about 3.9 µs a feature more than a read in
order (197,920 parcels: 24,000 of them from the 100,000th, 0.09 s skipped to, 0.12 s by ids),
so the first few slices are cheaper skipped to, and the rest of a large file by ids: a
slice's cost does not grow with its place in the file."""


def feature_spans(path: str, features: tuple[int, int] | None) -> list[dict[str, Any]]:
    """pyogrio's arguments that read the features ``[a, b)`` of a GDAL file, in order:
    ``skip_features`` and ``max_features``, or for a FlatGeobuf slice far from the file's
    start (:data:`SKIP_PER_FID`), the features' ids, :data:`FID_BATCH` at a time (its spatial
    index reaches each one). ``[{}]``: the whole file.

    >>> feature_spans("a.gpkg", (80_000, 100_000))
    [{'skip_features': 80000, 'max_features': 20000}]
    >>> feature_spans("a.fgb", (8, 20))
    [{'skip_features': 8, 'max_features': 12}]
    >>> [s["fids"][[0, -1]].tolist() for s in feature_spans("a.fgb", (43_990, 48_100))]
    [[43990, 47989], [47990, 48099]]
    """
    if features is None:
        return [{}]
    a, b = features
    if Path(path).suffix.lower() != ".fgb" or a <= SKIP_PER_FID * (b - a):
        return [{"skip_features": a, "max_features": b - a}]
    return [{"fids": np.arange(lo, min(lo + FID_BATCH, b))} for lo in range(a, b, FID_BATCH)]


def _read_spans(read: Any, spans: list[dict[str, Any]], *args: Any, **kwargs: Any) -> Any:
    """``read(*args, **kwargs, **span)`` for each of ``spans``, joined in order: frames by rows,
    Arrow tables, or pyogrio's raw tuples by their arrays (one span: its result as it is)."""
    parts = [read(*args, **kwargs, **span) for span in spans]
    if len(parts) == 1:
        return parts[0]
    first = parts[0]
    if isinstance(first, pd.DataFrame):
        return pd.concat(parts, ignore_index=True)
    import pyarrow as pa

    if isinstance(first, tuple) and isinstance(first[1], pa.Table):  # read_arrow
        return first[0], pa.concat_tables([p[1] for p in parts])
    # pyogrio.raw.read: (meta, fids, geometry, field_data)
    meta, _, _, _ = first
    fids = np.concatenate([p[1] for p in parts]) if first[1] is not None else None
    geometry = np.concatenate([p[2] for p in parts]) if first[2] is not None else None
    fields = [np.concatenate([p[3][k] for p in parts]) for k in range(len(first[3]))]
    return meta, fids, geometry, fields


def _unindexed_flatgeobuf(path: str, layer: str | None) -> bool:
    """True for a FlatGeobuf file without a spatial index: read without Arrow.

    Only such a file can hold a row without geometry (GDAL will not index one), and GDAL's
    Arrow reader (3.12) gives that row bytes that are not WKB, behind a validity bitmap that
    says they are: pyogrio then read past them and the process crashed (a segmentation fault,
    no message). Its other reader gives the row no geometry, as other formats do, for about
    1.6 times the reading time (0.57 s against 0.35 s for 197,920 parcels)."""
    from posting.gdal import pyogrio_here

    pyogrio = pyogrio_here()

    if Path(path).suffix.lower() != ".fgb":
        return False
    info = pyogrio.read_info(path, layer=layer)
    return not info["capabilities"].get("fast_spatial_filter", False)


_OUR_OUTPUTS = {
    "posting-report/": "a posting report (JSON)",
    "posting-plan/": "a posting plan's summary (JSON)",
    "posting-evidence/": "an evidence record's manifest",
}


def _our_output(path: str) -> str | None:
    """What to say of a JSON file that one of posting's own commands wrote (a report, a plan's
    summary, a record's manifest), given where a layer is read; None for any other file. Its
    first kilobytes name its schema and, for a report or a plan, the parcels it was made from.

    >>> import json, tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    ...     json.dump({"schema": "posting-report/1", "inputs": {"parcels": {"path": "a.gpkg"}}}, f)
    >>> for part in _our_output(f.name).split(": "):
    ...     print(part)
    is a posting report (JSON), not a layer of features
    give the files it was made from (its parcels were a.gpkg)
    """
    import json

    try:
        with open(path, "rb") as fh:
            head = fh.read(65536).decode("utf-8", errors="replace")
    except OSError:
        return None
    m = re.search(r'"schema"\s*:\s*"(posting-(?:report|plan|evidence)/)', head[:4096])
    if m is None:
        return None
    said = (
        f"is {_OUR_OUTPUTS[m.group(1)]}, not a layer of features: give the files it was made from"
    )
    made = re.search(
        r'"inputs"\s*:\s*\{\s*"parcels"\s*:\s*\{\s*"path"\s*:\s*("(?:[^"\\]|\\.)*")', head
    )
    if made is None:
        return said
    return f"{said} (its parcels were {json.loads(made.group(1))})"


def _read_ogr_layer(
    path: str,
    layer: str | None,
    features: tuple[int, int] | None = None,
    part: FeatureSlice | None = None,
) -> tuple[Any, dict[int, str], list[str]]:
    """One layer read with pyogrio: the GeoDataFrame, the rows whose geometry cannot be read
    (with why), and notes on the file; only its ``features`` ``[a, b)`` if given, or the
    features of ``part`` of a GeoJSON file (read as a FeatureCollection of their own: rows are
    then numbered from the slice's first in the notes, from 0 in the frame and problems).

    A geometry GEOS refuses (a ring that is not closed, a first vertex that is not a number)
    would end the whole read: the layer is read again with such rings closed where they can
    be (a note says which rows) and the others left without geometry (a problem of their row).
    Text that is not UTF-8 (GeoJSON must be) is read as Latin-1, with a note.
    """
    suffix = Path(path).suffix.lower()
    checked = layer is None and features is None and suffix in _COUNTED
    counted = None
    if checked and part is None:  # counted while GDAL reads
        from posting.parallel import aside

        counted = aside(_COUNTED[suffix], path)
    gdf, problems, notes = _read_ogr_layer_as_read(path, layer, features, part)
    bounds = None  # (where a GeoJSON file's features lie, as counted)
    if suffix == ".gpkg" and len(gdf):
        missing = np.flatnonzero(shapely.is_missing(np.asarray(gdf.geometry, dtype=object)))
        for i in _unreadable_gpkg_rows(path, layer, features, missing):
            problems.setdefault(
                int(i), "its geometry cannot be read: the GeoPackage's geometry is damaged"
            )
    if checked:
        if part is not None:
            expected = part.rows
        else:
            bounds = counted.result()
            expected = None if bounds is None else len(bounds) - 1
        _every_record_read(path, part, len(gdf), expected, suffix in SEQUENCE_SUFFIXES)
    if checked and (part is not None or bounds is not None):
        missing = np.flatnonzero(shapely.is_missing(np.asarray(gdf.geometry, dtype=object)))
        missing = missing[~np.isin(missing, list(problems))]
        for i, why in _unreadable_geojson(path, part, bounds, missing):
            problems[i] = f"its geometry cannot be read: {why}"
    seen = _COLUMNS_READ.get()
    if part is not None and seen is not None:
        seen.append(columns_of(gdf))
    if part is not None and part.casts:  # (columns with no value here: the file's types)
        gdf = conform(gdf, part.casts)
    return gdf, problems, notes


def _unreadable_geojson(
    path: str, part: FeatureSlice | None, bounds: np.ndarray | None, rows: np.ndarray
) -> list[tuple[int, str]]:
    """Those of ``rows`` (read from the GeoJSON file, or ``part`` of it, without geometry)
    whose feature has a geometry GDAL left out, and why
    (:func:`posting.jsonslices.geometry_problem`); ``bounds``: where the file's features lie
    (:func:`posting.jsonslices.member_bounds`, :func:`~posting.jsonslices.record_bounds` for
    a text sequence), for the whole file."""
    if not len(rows):
        return []
    import json

    sequence = Path(path).suffix.lower() in SEQUENCE_SUFFIXES
    if part is not None and not sequence:  # (a FeatureCollection of its own, a piece's size)
        members = json.loads(slice_text(path, part))["features"]
        texts = {int(r): members[r] for r in rows}
    else:
        if part is not None:  # a sequence's slice: its records, each led by RS
            records = [t for t in slice_text(path, part).split(b"\x1e") if t.strip()]
            found = {int(r): records[r] for r in rows if r < len(records)}
        elif sequence:
            found = jsonslices.record_texts(path, bounds, rows)
        else:
            found = jsonslices.member_texts(path, bounds, rows)
        texts = {}
        for r, t in found.items():
            with contextlib.suppress(ValueError):  # (GDAL's parser is Python's in all but this)
                texts[r] = json.loads(t)
    out = [(r, jsonslices.geometry_problem(f)) for r, f in texts.items()]
    return [(r, why) for r, why in out if why is not None]


def _unreadable_gpkg_rows(
    path: str, layer: str | None, features: tuple[int, int] | None, rows: np.ndarray
) -> np.ndarray:
    """Those of ``rows`` (read from the GeoPackage without geometry; of ``features`` if given)
    whose geometry is in the file: GDAL gives a row whose geometry it cannot read (a blob that
    is not a GeoPackage geometry) none, as if it had none, and says so only on stderr."""
    if not len(rows):
        return rows
    import sqlite3

    from posting.gdal import pyogrio_here

    pyogrio = pyogrio_here()
    info = pyogrio.read_info(path, layer=layer)
    table, fid, geom = info["layer_name"], info["fid_column"], info["geometry_name"]
    if not (fid and geom):
        return rows[:0]
    a, b = features if features is not None else (0, None)
    ids = pyogrio.read_dataframe(
        path,
        layer=layer,
        read_geometry=False,
        columns=[],
        fid_as_index=True,
        skip_features=a,
        max_features=None if b is None else b - a,
    ).index.to_numpy()[rows]
    q = '"{}"'.format
    found: set[int] = set()
    try:
        with contextlib.closing(
            sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
        ) as db:
            for k in range(0, len(ids), 30_000):  # (SQLite's limit on parameters)
                chunk = [int(i) for i in ids[k : k + 30_000]]
                found.update(
                    r[0]
                    for r in db.execute(
                        f"SELECT {q(fid)} FROM {q(table)} WHERE {q(geom)} IS NOT NULL "
                        f"AND {q(fid)} IN ({','.join('?' * len(chunk))})",
                        chunk,
                    )
                )
    except sqlite3.Error:  # (GDAL read the file; what it gave stands)
        return rows[:0]
    return rows[np.isin(ids, list(found))]


_COUNTED = {
    **dict.fromkeys(jsonslices.SUFFIXES, jsonslices.member_bounds),
    **dict.fromkeys(SEQUENCE_SUFFIXES, jsonslices.record_bounds),
}
"""Where the features of a GeoJSON file or text sequence lie (one more bound than features):
counted to compare with GDAL's, and looked up to tell why GDAL gave one no geometry."""


def _every_record_read(
    path: str, part: FeatureSlice | None, n: int, expected: int | None, sequence: bool
) -> None:
    """Refuse a GeoJSON file or text sequence (``part`` of it) of which GDAL read ``n``
    features, if it holds a feature GDAL's reader left out: GDAL leaves out without a word a
    member of a ``features`` array that is not a Feature, and a record of a sequence that is not
    JSON, so the features after it would lose their rows. ``expected``: the features counted by
    the scan (:func:`posting.jsonslices.member_bounds`, :func:`~posting.jsonslices.record_bounds`;
    a slice's own count); a sequence that cannot be counted so (a record over several lines) is
    parsed record by record, another file not checked."""
    if expected == n or (expected is None and not sequence):
        return
    if sequence:
        good, bad = jsonslices.unread_record(path, part)
        where = f"the record of row {bad[0]:,} (line {bad[1]:,})" if bad else ""
    else:
        good, bad = jsonslices.unread_member(path, part)
        where = f"the feature of row {bad[0]:,}" if bad else ""
    if bad is not None:
        raise InputError(
            f"{where} is {bad[-1]}, which GDAL's reader leaves out; mend it or remove it",
            path=path,
            row=bad[0],
        )
    if expected is not None and n != expected:
        raise InputError(
            f"GDAL read {n:,} of its {expected:,} features; save it as GeoParquet (ogr2ogr) "
            "and check that",
            path=path,
        )
    if sequence and good != n:
        raise InputError(
            f"GDAL read {n:,} of its {good:,} records; save it as GeoParquet (ogr2ogr) and "
            "check that",
            path=path,
        )


def _read_ogr_layer_as_read(
    path: str,
    layer: str | None,
    features: tuple[int, int] | None = None,
    part: FeatureSlice | None = None,
) -> tuple[Any, dict[int, str], list[str]]:
    """:func:`_read_ogr_layer`, its slice of a GeoJSON file with the types GDAL gave it."""
    import pyarrow as pa

    from posting.gdal import pyogrio_here

    pyogrio = pyogrio_here()

    notes: list[str] = []
    kwargs: dict[str, Any] = {
        "use_arrow": True,
        "arrow_to_pandas_kwargs": {"types_mapper": _exact_ints().get},
    }
    if _unindexed_flatgeobuf(path, layer):
        kwargs = {"use_arrow": False}
    first = features[0] if features else 0
    spans = feature_spans(path, features)
    source: str | bytes = path
    if part is not None:
        source, first = slice_text(path, part), part.first
    elif Path(path).suffix.lower() == ".gpx":
        source = gpx_source(path)

    # a coordinate that is not a number is a row's problem (found below), not numpy's warning
    def quiet() -> Any:
        return np.errstate(invalid="ignore")

    try:
        try:
            with quiet():
                gdf = _read_spans(pyogrio.read_dataframe, spans, source, layer=layer, **kwargs)
            if not kwargs["use_arrow"]:
                return _with_exact_ints(gdf, source, layer, spans), {}, notes
            for col in gdf.columns:  # pandas 3 keeps invalid UTF-8 in Arrow until it is used
                if isinstance(gdf[col].array, pd.arrays.ArrowStringArray):
                    gdf[col].array.__arrow_array__().validate(full=True)
            return gdf, {}, notes
        except (pa.ArrowException, UnicodeDecodeError):
            # (GDAL's name: for a Shapefile, pyogrio hands it to GDAL as SHAPE_ENCODING, which
            # does not know "latin-1", and the file would be refused as cut short)
            kwargs = {"use_arrow": False, "encoding": "ISO-8859-1"}
            notes.append(
                f"{path}: has text that is not UTF-8; read as Latin-1: if names look wrong, "
                "save the file as UTF-8"
            )
            with quiet():
                gdf = _read_spans(pyogrio.read_dataframe, spans, source, layer=layer, **kwargs)
            return _with_exact_ints(gdf, source, layer, spans), {}, notes
    except shapely.errors.GEOSException:
        pass
    with np.errstate(invalid="ignore"):
        gdf = _read_spans(
            pyogrio.read_dataframe, spans, source, layer=layer, on_invalid="fix", **kwargs
        )
        if not kwargs["use_arrow"]:
            gdf = _with_exact_ints(gdf, source, layer, spans)
        # (not through Arrow: see _unindexed_flatgeobuf)
        wkb = _read_spans(pyogrio.raw.read, spans, source, layer=layer, columns=[])[2]
        strict = shapely.from_wkb(wkb, on_invalid="ignore")
    problems: dict[int, str] = {}
    closed = []
    for i in np.flatnonzero(pd.notna(wkb) & pd.isna(strict)):
        if _NAN_LE in wkb[i] or _NAN_BE in wkb[i]:
            why = "its geometry cannot be read: a coordinate is not a number"
        else:
            try:
                with np.errstate(invalid="ignore"):
                    shapely.from_wkb(wkb[i])
                why = "its geometry cannot be read"
            except shapely.errors.GEOSException as exc:
                said = " ".join(str(exc).split(": ", 1)[-1].split())  # (GEOS's ends in a newline)
                why = f"its geometry cannot be read: {said}"
        if gdf.geometry.iloc[i] is None:
            problems[int(i)] = why
        else:
            closed.append(int(i))
    if closed:
        rows = ", ".join(str(first + i) for i in closed[:10]) + (
            ", ..." if len(closed) > 10 else ""
        )
        notes.append(
            f"{path}: {len(closed)} row(s) have a ring that is not closed; each was closed by "
            f"joining its last vertex to its first (rows {rows})"
        )
    return gdf, problems, notes


def _every_waypoint_read(path: str, n: int) -> None:
    """Refuse a GPX file of which GDAL read ``n`` waypoints, if a waypoint's ``lat`` or ``lon``
    is missing or not a number (GDAL leaves out a waypoint without one and places one whose
    value is not a number at 0, both without a word), or if it holds another number of them,
    naming the first such waypoint by its row and name. A file Python's XML parser refuses (an
    external entity, which it never resolves) is not checked."""
    import math
    import xml.etree.ElementTree as ET

    k = 0
    events = ET.iterparse(path)
    while True:
        try:
            _, el = next(events)
        except StopIteration:
            break
        except ET.ParseError:  # (an entity left undefined, which GDAL leaves out: not checked)
            return
        if el.tag.rpartition("}")[2] != "wpt":
            continue
        for attr in ("lat", "lon"):
            value = el.get(attr)
            try:
                ok = value is not None and math.isfinite(float(value))
            except ValueError:
                ok = False
            if not ok:
                name = el.findtext("{*}name") or el.findtext("name")
                named = f" ({name!r})" if name else ""
                given = f"{attr}={value!r}" if value is not None else f"no {attr}"
                raise InputError(
                    f"the waypoint of row {k:,}{named} has {given}, which GDAL's reader "
                    "leaves out or places at 0 without a word; mend it or remove it",
                    path=path,
                    row=k,
                )
        k += 1
        el.clear()
    if k != n:
        raise InputError(f"GDAL read {n:,} of its {k:,} waypoints", path=path)


def _every_position_read(
    path: str,
    found: list[kmlcoords.Misread],
    read: list,
    layer: str | None,
    *,
    offset: int = 0,
    member: str | None = None,
) -> None:
    """Refuse a KML or KMZ file (its ``layer`` if given) with a placemark whose
    ``<coordinates>`` GDAL misread (:func:`posting.kmlcoords.misreads`), naming it by its row
    (where the layers ``read`` hold its name there; ``offset``: the rows read before them), its
    line (in its ``member`` of a KMZ file, if not the main KML) and its name."""
    if not found:
        return
    start = 0
    if layer is not None:  # where the layer's rows start among all of the file's
        from posting.gdal import pyogrio_here

        pyogrio = pyogrio_here()
        layers = [str(n) for n, _ in pyogrio.list_layers(path)]
        counts = [max(int(pyogrio.read_info(path, layer=n)["features"]), 0) for n in layers]
        start = sum(counts[: layers.index(layer)])
    names = [n for gdf, _, _ in read for n in gdf.get("Name", pd.Series([None] * len(gdf)))]
    for misread in found:
        row = None if misread.row is None else misread.row - start
        if row is not None and not (0 <= row < len(names) and misread.name in (None, names[row])):
            row = None
        if layer is not None and row is None:  # (not the layer's: another's, not read)
            continue
        if row is not None:
            row += offset
        where = f"the placemark of row {row:,}" if row is not None else "a placemark"
        named = f"{misread.name!r}, " if misread.name else ""
        within = f" of {member}" if member else ""
        raise InputError(
            f"{where} ({named}line {misread.line:,}{within}) has <coordinates>{misread.text}"
            f"</coordinates>: {misread.why}. Write each position as "
            "longitude,latitude[,altitude], with a dot for decimals and a space between "
            "positions, or remove the placemark",
            path=path,
            row=row,
        )


_GPX_NUMBERS = (
    "ele",
    "magvar",
    "geoidheight",
    "hdop",
    "vdop",
    "pdop",
    "ageofdgpsdata",
    "course",
    "speed",
)
"""The elements of a GPX point that hold a decimal number (GPX 1.1's, and 1.0's ``course``
and ``speed``), which GDAL reads as numbers."""
_GPX_OPEN = rb"<(?:[\w.-]+:)?(?P<tag>" + "|".join(_GPX_NUMBERS).encode() + rb")\s*>"
_GPX_CLOSE = rb"</(?:[\w.-]+:)?(?P=tag)\s*>"
_GPX_ODD_NUMBER = re.compile(
    _GPX_OPEN + rb"(?:\s+[-+]?[\d.,]+\s*|[-+]?\d*,\d+\s*|[-+]?[\d.]+\s+)" + _GPX_CLOSE
)
"""Such an element whose text is a number written with a decimal comma (``<ele>12,5</ele>``,
as some European phone apps write it), or a number with blanks around it (``<ele> 12.5
</ele>``, as a pretty-printer writes it), both of which GDAL warns of."""
_GPX_NUMBER = re.compile(
    rb"(" + _GPX_OPEN + rb")\s*([-+]?\d*)(?:[.,](\d+))?\s*(" + _GPX_CLOSE + rb")"
)


def _gpx_plain_number(m: re.Match[bytes]) -> bytes:
    """A match of :data:`_GPX_NUMBER` with a decimal point and no blanks."""
    whole, frac = m[3], m[4]
    return m[1] + whole + (b"." + frac if frac is not None else b"") + m[5]


def gpx_source(path: str) -> str | bytes:
    """What GDAL should read of a GPX file: its path, or where a point's number is written
    with a decimal comma (``<ele>12,5</ele>``) or with blanks around it
    (:data:`_GPX_ODD_NUMBER`), its text with those numbers written plainly (``12.5``). GDAL
    reads ``12,5`` as 12 and says so in a warning (a library's words on the user's screen,
    about a value that was misread); the comma is the decimal mark, as a CSV's are read
    (``28,745``). Names, descriptions and other text are left as written.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("wb", suffix=".gpx", delete=False) as f:
    ...     _ = f.write(b'<wpt><ele>12,5</ele><name>3,5</name><hdop> 4 </hdop><vdop>1.5</vdop>')
    >>> gpx_source(f.name)
    b'<wpt><ele>12.5</ele><name>3,5</name><hdop>4</hdop><vdop>1.5</vdop>'
    >>> os.unlink(f.name)
    """
    data = Path(path).read_bytes()
    if _GPX_ODD_NUMBER.search(data) is None:  # (a file written plainly: read as it is)
        return path
    return _GPX_NUMBER.sub(_gpx_plain_number, data)


_GPX_TEXT = re.compile(r"name|cmt|desc|src|sym|type|fix|time|link\d+_(?:href|text|type)")
"""The text fields of a GPX point as GDAL names them (GPX 1.1's): never read as numbers."""


def gpx_extension_numbers(gdf: pd.DataFrame) -> pd.DataFrame:
    """A GPX layer as GDAL read it, with its vendors' fields (those of a point's
    ``<extensions>``, ``<gpxx:Depth>1,5</gpxx:Depth>`` as ``gpxx_Depth``) that hold numbers
    written with a decimal comma read as numbers: GDAL types a field by all its values, and one
    ``1,5`` made the field text (``'1,5'``, ``'2.25'``), where ``<ele>12,5</ele>`` is read as
    12.5 (:func:`gpx_source`). A field is read so only when every value in it is such a number,
    a number with a decimal point or a whole number, one at least with a comma (as a CSV's
    columns are: :func:`_decimal_commas`); GPX's own text fields (``name``, ``desc`` ...) and
    a field with any other text are left as written.

    >>> import geopandas as gpd
    >>> g = gpd.GeoDataFrame({"name": ["3,5", "4"], "gpxx_Depth": ["1,5", "2.25"],
    ...                       "gpxx_Label": ["3,5", "x"]})
    >>> got = gpx_extension_numbers(g)
    >>> got["gpxx_Depth"].tolist(), got["name"].tolist(), got["gpxx_Label"].tolist()
    ([1.5, 2.25], ['3,5', '4'], ['3,5', 'x'])
    """
    out = None
    for col in gdf.columns:
        if col == getattr(gdf, "_geometry_column_name", None) or _GPX_TEXT.fullmatch(str(col)):
            continue
        values = gdf[col]
        if not (pd.api.types.is_string_dtype(values) or values.dtype == object):
            continue
        text = values.dropna()
        if not len(text) or not all(isinstance(v, str) for v in text):
            continue
        text = text.str.strip()
        text = text[text != ""]
        if not text.str.contains(",", regex=False).any():
            continue
        if not text.str.fullmatch(rf"{_DECIMAL_COMMA}|[-+]?\d*\.?\d+").all():
            continue
        if out is None:
            out = gdf.copy()
        plain = values.str.strip().str.replace(",", ".", regex=False)
        out[col] = pd.to_numeric(plain.where(plain != ""), errors="raise").astype("float64")
    return gdf if out is None else out


def _gpx_track_points(path: str) -> dict[str, int]:
    """How many track points and route points (``track_points``, ``route_points``) a GPX file
    holds."""
    from posting.gdal import pyogrio_here

    pyogrio = pyogrio_here()

    source = gpx_source(path)  # (GDAL reads each point's fields to count them)
    counts = {}
    for name in ("track_points", "route_points"):
        try:
            info = pyogrio.read_info(source, layer=name, force_feature_count=True)
            counts[name] = max(int(info["features"]), 0)
        except (pyogrio.errors.DataLayerError, pyogrio.errors.DataSourceError, KeyError):
            counts[name] = 0
    return counts


def _gpx_tracks_note(path: str) -> list[str]:
    """The note for a GPX file of waypoints (the markers) that also holds track or route points,
    which are not read: where the GPS went, or the way planned, not the signs."""
    counts = _gpx_track_points(path)
    if not any(counts.values()):
        return []
    return [
        f"{path}: also has {counts['track_points']:,} track point(s) and "
        f"{counts['route_points']:,} route point(s), which are not read: the markers are its "
        "waypoints (a track is where the GPS went, not where the signs stand)"
    ]


def _gpx_waypoint_hint(path: str) -> InputError | None:
    """The error for a GPX file without waypoints whose tracks or routes have points."""
    counts = _gpx_track_points(path)
    if not any(counts.values()):
        return None
    which = "trk" if counts["track_points"] else "rte"
    return InputError(
        f"no waypoints: it has {counts['track_points']:,} track points and "
        f"{counts['route_points']:,} route points. Markers are read from waypoints, one per "
        "marker: mark each sign as a waypoint on the GPS or in the app; or, if those points "
        f"are the signs, make them waypoints (gpsbabel -i gpx -f {Path(path).name} -x "
        f"transform,wpt={which} -o gpx -F signs.gpx)",
        path=path,
    )


FORMATS = "GeoJSON, GeoPackage, Shapefile (.shp or zipped), FlatGeobuf, KML, GPX, GeoParquet or CSV"


_SHP_MAGIC = b"\x00\x00\x27\x0a"
"""The first bytes of a Shapefile's .shp (its file code, 9994, big-endian)."""


def _check_shapefiles(path: str, layer: str | None) -> None:
    """Refuse a Shapefile (or a zipped one's, ``layer`` or each) whose files do not agree:
    a .shp shorter than its index (.shx) says, a copy cut short whose last records GDAL would
    read as rows without geometry; or a .dbf of another number of rows than the .shp has
    shapes, which GDAL reads only as far as the shorter, leaving the rest out without a word."""
    if Path(path).suffix.lower() != ".zip":
        p = Path(path)
        shx, dbf = _sibling(p, ".shx"), _sibling(p, ".dbf")
        if shx is None and not _head(p, 4).startswith(_SHP_MAGIC):
            return  # (another format so named, which GDAL reads by its content)
        _check_shapefile(
            path,
            os.path.getsize(path),
            shx.read_bytes() if shx else None,
            _head(dbf, 12) if dbf else None,
            os.path.getsize(dbf) if dbf else 0,
            shx.name if shx else "",
        )
        return
    import zipfile

    try:
        with zipfile.ZipFile(path) as z:
            files = {n.lower(): n for n in z.namelist()}
            for low, name in files.items():
                stem = low[:-4]
                if not low.endswith(".shp") or layer not in (None, Path(name).stem):
                    continue
                shx, dbf = files.get(stem + ".shx"), files.get(stem + ".dbf")
                if shx is None and not z.open(name).read(4).startswith(_SHP_MAGIC):
                    continue
                _check_shapefile(
                    f"{path}: {name}",
                    z.getinfo(name).file_size,
                    z.read(shx) if shx else None,
                    z.open(dbf).read(12) if dbf else None,
                    z.getinfo(dbf).file_size if dbf else 0,
                    Path(shx).name if shx else "",
                )
    except (zipfile.BadZipFile, OSError):  # (GDAL says what it cannot read)
        return


def deleted_records(path: str, layer: str | None = None) -> tuple[str, np.ndarray]:
    """The records of a Shapefile's ``.dbf`` marked deleted (``*``, dBASE's mark of a record
    to be removed), 0-based, and the name of the Shapefile (``path``, or ``path: member`` of a
    zipped one: ``layer``'s, or its first's); none for another file or a ``.dbf`` that cannot
    be read. GDAL leaves such records out, as dBASE programs do: the rows after one are read
    one place earlier, and a slice of the file counted by records would not read the rows the
    file read whole does (:func:`posting.dataset.pieces` reads such a file whole)."""
    none = np.empty(0, dtype=np.int64)
    suffix = Path(path).suffix.lower()
    if suffix == ".shp":
        dbf = _sibling(Path(path), ".dbf")
        if dbf is None:
            return path, none
        with open(dbf, "rb") as fh:
            return path, _deleted_in(fh)
    if suffix != ".zip":
        return path, none
    import zipfile

    try:
        with zipfile.ZipFile(path) as z:
            files = {n.lower(): n for n in z.namelist()}
            for low, name in sorted(files.items()):
                if not low.endswith(".shp") or layer not in (None, Path(name).stem):
                    continue
                dbf = files.get(low[:-4] + ".dbf")
                if dbf is None:
                    return path, none
                with z.open(dbf) as fh:
                    return f"{path}: {name}", _deleted_in(fh)
    except (zipfile.BadZipFile, OSError):  # (GDAL says what it cannot read)
        pass
    return path, none


def _deleted_in(fh: Any) -> np.ndarray:
    """The records of the ``.dbf`` open in ``fh`` (at its start) marked deleted, 0-based: the
    first byte of each record, read a few thousand records at a time."""
    head = fh.read(12)
    if len(head) < 12:
        return np.empty(0, dtype=np.int64)
    rows = int.from_bytes(head[4:8], "little")
    header, width = int.from_bytes(head[8:10], "little"), int.from_bytes(head[10:12], "little")
    if width < 1 or header < 12:
        return np.empty(0, dtype=np.int64)
    fh.read(header - 12)
    found = []
    step = max(1, (1 << 20) // width)
    for start in range(0, rows, step):
        buf = fh.read(min(step, rows - start) * width)
        flags = np.frombuffer(buf[: len(buf) // width * width], dtype=np.uint8)[::width]
        found.append(start + np.flatnonzero(flags == 0x2A))
        if len(buf) < step * width:
            break
    return np.concatenate(found) if found else np.empty(0, dtype=np.int64)


def _deleted_note(path: str, layer: str | None) -> list[str]:
    """The note for a Shapefile with records marked deleted (:func:`deleted_records`)."""
    name, rows = deleted_records(path, layer)
    if not len(rows):
        return []
    shown = ", ".join(str(r) for r in rows[:10].tolist()) + (", ..." if len(rows) > 10 else "")
    return [
        f"{name}: {len(rows):,} record(s) of its .dbf are marked deleted (record {shown}, from "
        "0): left out, as GDAL and dBASE programs leave them; the rows after one are numbered "
        "without it"
    ]


def _sibling(path: Path, suffix: str) -> Path | None:
    """The file beside ``path`` with its name and ``suffix`` (or the suffix in capitals)."""
    for s in (suffix, suffix.upper()):
        if path.with_suffix(s).exists():
            return path.with_suffix(s)
    return None


def _head(path: Path, n: int) -> bytes:
    with open(path, "rb") as f:
        return f.read(n)


def _check_shapefile(
    where: str, have: int, shx: bytes | None, dbf: bytes | None, dbf_size: int, shx_name: str
) -> None:
    """:func:`_check_shapefiles` for one Shapefile named ``where``: its .shp's size in bytes
    ``have``, its .shx, the first bytes of its .dbf (None where there is none) and the
    .dbf's size."""
    if shx is None:
        shp = Path(where.rsplit(": ", 1)[-1]).name
        raise InputError(
            f"its index, {Path(shp).stem}.shx, is missing: a Shapefile is several files side "
            "by side (.shp, .shx, .dbf, .prj), to be copied together (or zipped together "
            f"and the .zip given). GDAL can rebuild a lost index from the .shp itself: ogrinfo "
            f"--config SHAPE_RESTORE_SHX YES {shp}",
            path=where,
        )
    body = shx[100:]
    index = np.frombuffer(body[: len(body) // 8 * 8], dtype=">i4")  # (offset, length) pairs
    offset, length = index[0::2].astype(np.int64), index[1::2].astype(np.int64)
    if len(offset):
        need = int(((offset + length) * 2 + 8).max())  # 16-bit words, then the record header
        if have < need:
            whole = int(((offset + length) * 2 + 8 <= have).sum())
            raise InputError(
                f"is cut short: {have:,} bytes where its index ({shx_name}) needs {need:,}; it "
                f"holds only {whole:,} of its {len(offset):,} records whole. Copy the file again",
                path=where,
            )
    if dbf is None or len(dbf) < 12:
        return
    shapes, rows = len(offset), int.from_bytes(dbf[4:8], "little")
    header, width = int.from_bytes(dbf[8:10], "little"), int.from_bytes(dbf[10:12], "little")
    if dbf_size < header + rows * width:
        whole = max(dbf_size - header, 0) // max(width, 1)
        raise InputError(
            f"its .dbf is cut short: {dbf_size:,} bytes where its {rows:,} rows need "
            f"{header + rows * width:,}; it holds only {whole:,} of them whole, and GDAL would "
            "leave out the rest without a word. Copy the .dbf again",
            path=where,
        )
    if shapes != rows:
        left = (
            f"the last {shapes - rows:,} of its shapes"
            if shapes > rows
            else f"the last {rows - shapes:,} of its rows"
        )
        raise InputError(
            f"its .shp holds {shapes:,} shapes and its .dbf {rows:,} rows: the two do not belong "
            f"together (the .dbf saved again apart, in a spreadsheet or another program?), and "
            f"GDAL would read the first {min(shapes, rows):,} and leave out {left} without a "
            "word. Copy the .shp, .shx and .dbf again, from one export",
            path=where,
        )


def unnamed_layers(path: str, layer: str | None = None) -> tuple[str, ...]:
    """The layers of a GDAL file that holds several (a GeoPackage, a File Geodatabase, a zip
    of Shapefiles) where none is named (``layer``); () otherwise, and for KML and GPX, whose
    layers are read together (their folders) or by kind (waypoints). GDAL reads the first."""
    suffix = Path(path).suffix.lower()
    if layer is not None or suffix in {".gpx", ".kml", ".kmz", *TABLE_SUFFIXES}:
        return ()
    if suffix in PARQUET_SUFFIXES or suffix in (".geojson", ".json", ".geojsonl", ".geojsons"):
        try:  # (one layer, unless it is a GeoPackage misnamed, which GDAL reads as such)
            if not _head(Path(path), 16).startswith(b"SQLite format 3\x00"):
                return ()
        except OSError:  # (its reading says what is wrong)
            return ()
    from posting.gdal import pyogrio_here

    pyogrio = pyogrio_here()
    try:
        names = tuple(str(n) for n, _ in pyogrio.list_layers(path))
    except (pyogrio.errors.DataSourceError, OSError):  # (its reading says what is wrong)
        return ()
    return names if len(names) > 1 else ()


_POINTS = ("Point", "MultiPoint", "Point Z", "MultiPoint Z", "3D Point", "3D MultiPoint")


def _markers_in_another_layer(path: str, layers: tuple[str, ...]) -> None:
    """Refuse a marker file of several ``layers`` whose first (the one read, none being named)
    holds no points by its declared type (polygons: the parcels' layer of a project's
    GeoPackage) while another holds points: each of its rows would be an unassigned sign, "a
    Polygon is not a marker position", and every parcel unposted. The error names the layers
    and how to give the markers' layer as a file of its own.

    Raises
    ------
    InputError
    """
    import shlex

    from posting.gdal import pyogrio_here

    pyogrio = pyogrio_here()
    try:
        types = {str(n): str(t) for n, t in pyogrio.list_layers(path)}
    except (pyogrio.errors.DataSourceError, OSError):  # pragma: no cover - just listed
        return
    first = types.get(layers[0], "Unknown")
    if first in _POINTS or first in ("Unknown", "None", ""):
        return
    points = [n for n in layers[1:] if types.get(n) in _POINTS]
    if not points:
        return
    shown = ", ".join(repr(n) for n in layers)
    name = Path(path).name
    raise InputError(
        f"its first layer, {layers[0]!r} (of {len(layers)}: {shown}), is of {first} features, "
        f"not markers, which are points; the markers are read from a file's first layer: "
        "give the markers' layer as a file of its own (ogr2ogr -f GPKG signs.gpkg "
        f"{shlex.quote(name)} {shlex.quote(points[0])})",
        path=path,
    )


def _read_ogr(
    path: str,
    crs: CRS | None,
    layer: str | None,
    kind: str,
    features: tuple[int, int] | None = None,
    part: FeatureSlice | None = None,
) -> Layer:
    """A file of a GDAL format, or its ``features`` ``[a, b)`` (a file of
    :data:`posting.dataset.SLICED_SUFFIXES`, one layer), or ``part`` of a GeoJSON file
    (:mod:`posting.jsonslices`). Of a file of several layers none of which is named, the
    first (as GDAL reads it), with a note (:func:`unnamed_layers`)."""
    from posting.gdal import pyogrio_here  # GeoParquet and CSV are read without it

    pyogrio = pyogrio_here()

    suffix = Path(path).suffix.lower()
    layers = unnamed_layers(path, layer) if part is None else ()
    if layers:
        layer = layers[0]
        if kind == "markers":
            _markers_in_another_layer(path, layers)
    deleted: list[str] = []
    if suffix in (".shp", ".zip"):
        _check_shapefiles(path, layer)
        if features is None and part is None:  # (a file with such records is read whole)
            deleted = _deleted_note(path, layer)
    if suffix == ".gpx" and kind == "parcels":
        raise InputError(
            "GPX holds waypoints and tracks, not parcel polygons; use GeoJSON, GeoPackage, "
            "Shapefile, FlatGeobuf, KML or GeoParquet",
            path=path,
        )
    misread = links = None
    if suffix in {".kml", ".kmz"}:  # scanned while GDAL reads
        from posting.parallel import aside

        misread = aside(kmlcoords.misreads, path)
        links = aside(kmlcoords.network_links, path)
    files: list[kmlcoords.KmlFile] = []  # the file's own KML and those its links lead to
    if suffix in {".kml", ".kmz"}:
        files, elsewhere = kmlcoords.linked_files(path, links.result())
        files = files if len(files) > 1 else []
    try:
        if files:
            read = _read_linked_kml(path, files, misread.result(), layer)
            links = None
            linked = elsewhere
        else:
            if suffix == ".gpx":
                names: list[str | None] = [layer or "waypoints"]
            elif layer is None and suffix in {".kml", ".kmz"}:
                names = [str(n) for n, _ in pyogrio.list_layers(path)]
            else:
                names = [layer]
            read = [_read_ogr_layer(path, n, features, part) for n in names]
            if misread is not None:
                _every_position_read(path, misread.result(), read, layer)
    except InputError:  # (a ValueError, said as it is: a record GDAL leaves out)
        raise
    except pyogrio.errors.DataLayerError as exc:
        if layer is None:
            raise InputError(_one_line(exc), path=path) from None
        try:
            have = ", ".join(repr(str(n)) for n, _ in pyogrio.list_layers(path)) or "(none)"
        except pyogrio.errors.DataSourceError:  # pragma: no cover - it was just opened
            have = "(cannot be listed)"
        raise InputError(
            f"there is no layer {layer!r} ({{option}}); the layers are: {have}",
            path=path,
            parameter="layer",
        ) from None
    except (pyogrio.errors.DataSourceError, pyogrio.errors.GeometryError) as exc:
        if links is not None:
            _only_network_links(path, links.result())
        if "not recognized as being in a supported file format" in str(exc):
            ours = _our_output(path)
            if ours:
                raise InputError(ours, path=path) from None
            raise InputError(
                f"not a readable geospatial file: its content is none of {FORMATS}", path=path
            ) from None
        raise InputError(f"not a readable geospatial file ({_one_line(exc)})", path=path) from None
    except (pyogrio.errors.FieldError, pyogrio.errors.FeatureError, ValueError, OSError) as exc:
        # OSError: GDAL's "Unexpected I/O failure" on a file cut short (FlatGeobuf)
        raise InputError(f"cannot be read ({_one_line(exc)}); is it complete?", path=path) from None
    if suffix == ".gpx":  # (a vendor's field of numbers with decimal commas: numbers)
        read = [(gpx_extension_numbers(g), rows, said) for g, rows, said in read]
    if suffix == ".gpx" and kind == "markers" and not len(read[0][0]):
        hint = _gpx_waypoint_hint(path)
        if hint is not None:
            raise hint
    if suffix == ".gpx" and names == ["waypoints"]:
        _every_waypoint_read(path, len(read[0][0]))
        if kind == "markers" and part is None and features is None:
            read[0][2].extend(_gpx_tracks_note(path))
    if not files:  # (the links not followed: a link of a file to itself is not one)
        linked = elsewhere if links is not None else []
    if linked and not any(len(r[0]) for r in read):
        _only_network_links(path, linked)
    read = [r for r in read if len(r[0])] or read[:1]
    notes = [note for r in read for note in r[2]] + deleted
    if linked:
        more = f" and {len(linked) - 1:,} more" if len(linked) > 1 else ""
        notes.append(
            f"{path}: also links to {linked[0]}{more} (a network link, which Google Earth "
            "follows and this reader does not): the places there were not read; download "
            "them, or save them from Google Earth as KML, and give that file too"
        )
    problems: dict[int, str] = {}
    offset = 0
    for gdf, rows, _ in read:
        problems.update({offset + i: why for i, why in rows.items()})
        offset += len(gdf)
    if not read:  # a KML file without a single folder or placemark
        import geopandas as gpd

        gdf = gpd.GeoDataFrame(geometry=[], crs=WGS84)
    elif len(read) == 1:
        gdf = read[0][0]
    else:
        import geopandas as gpd

        frames = [r[0] for r in read]
        crss = {f.crs for f in frames}
        gdf = gpd.GeoDataFrame(pd.concat(frames, ignore_index=True), crs=frames[0].crs)
        if len(crss) > 1:  # pragma: no cover - KML is always WGS 84
            raise InputError("its layers are in different CRSs", path=path)
    if suffix in {".kml", ".kmz"}:  # (ArcGIS' attributes: a table in each description)
        from posting.kmltables import description_tables

        gdf = description_tables(gdf)
    out = _from_geodataframe(gdf, path, crs)
    out.problems.update(problems)
    if layers:
        shown = ", ".join(repr(n) for n in layers)
        choose = "; choose another with --layer" if kind == "parcels" else ""
        notes.insert(0, f"{path}: holds {len(layers)} layers ({shown}); read the first{choose}")
    out.notes.extend(notes)
    out.layers = layers
    return out


def _read_linked_kml(
    path: str,
    files: list[kmlcoords.KmlFile],
    misread: list[kmlcoords.Misread],
    layer: str | None,
) -> list[tuple[Any, dict[int, str], list[str]]]:
    """The layers of a KML or KMZ file that links to other KML files on this machine
    (``files``, its own KML first: :func:`posting.kmlcoords.linked_files`), each file read on
    its own (a file on disk, or ``/vsizip/`` within a KMZ: GDAL follows no link of a file so
    read), in their order; of ``layer`` if given (a Document or Folder's name, in any of the
    files), else all. Each is checked for placemarks whose ``<coordinates>`` GDAL misreads
    (``misread``: the file's own KML's). GDAL follows only some such links itself (in a KMZ
    ``files/signs.kml``, not ``./files/signs.kml``, nor one in a folder, nor a link of a
    linked file, nor a file beside a KML), and where it does it leaves out the main KML's own
    placemarks; with a layer named it read GDAL's layers, not the ones the links lead to.

    Raises
    ------
    InputError
        ``layer`` is none of the files' layers (naming theirs), a linked file cannot be read
        (naming it), or a placemark is misread.
    """
    from posting.gdal import pyogrio_here

    pyogrio = pyogrio_here()
    read: list[tuple[Any, dict[int, str], list[str]]] = []
    offered: dict[str, None] = {}
    for k, at in enumerate(files):
        source = at.source
        try:
            names = [str(n) for n, _ in pyogrio.list_layers(source)]
            offered.update(dict.fromkeys(names))
            chosen = [j for j, n in enumerate(names) if layer is None or n == layer]
            if not chosen:
                continue
            got = [_read_ogr_layer(source, n) for n in names]
        except (pyogrio.errors.DataSourceError, pyogrio.errors.DataLayerError) as exc:
            if k == 0:  # (the file itself: said as a file of no links is)
                raise
            raise InputError(
                f"links to {at.label}, which cannot be read ({_one_line(exc)}): mend it, or "
                "remove the link",
                path=path,
            ) from None
        found = misread if k == 0 else kmlcoords.misreads_of(at)
        if layer is not None:  # (its rows among the chosen layers', the others' left out)
            starts = np.cumsum([0, *(len(g[0]) for g in got)])
            kept = np.zeros(len(names), bool)
            kept[chosen] = True
            before = np.cumsum([0, *(len(g[0]) if kept[j] else 0 for j, g in enumerate(got))])
            mine = []
            for m in found:
                j = None if m.row is None else int(np.searchsorted(starts, m.row, "right") - 1)
                if j is not None and j < len(names) and kept[j]:
                    mine.append(dataclasses.replace(m, row=int(m.row - starts[j] + before[j])))
            found, got = mine, [got[j] for j in chosen]
        offset = sum(len(r[0]) for r in read)
        _every_position_read(path, found, got, None, offset=offset, member=at.label if k else None)
        read.extend(got)
    if layer is not None and not read:
        have = ", ".join(repr(n) for n in offered) or "(none)"
        raise InputError(
            f"there is no layer {layer!r} ({{option}}) in it or the files it links to; the "
            f"layers are: {have}",
            path=path,
            parameter="layer",
        )
    return read


def _only_network_links(path: str, links: list[str]) -> None:
    """Refuse a KML or KMZ file without a placemark GDAL could read that links to others
    (``links``: its ``<NetworkLink>`` elements', as Google Earth saves a layer it loads from a
    server): its places are elsewhere, and GDAL does not follow the links."""
    if links:
        more = f" and {len(links) - 1:,} more" if len(links) > 1 else ""
        raise InputError(
            f"has no placemarks of its own, only a network link to {links[0]}{more}, which "
            "Google Earth follows and this reader does not: download what it links to, or "
            "save the places Google Earth loaded from it as KML (Save Place As), and give "
            "that file",
            path=path,
        )


def _shown(v: float) -> str:
    """A coordinate in a message: one decimal, or three digits where it is absurdly large.

    >>> _shown(512345.04), _shown(-1e300)
    ('512345.0', '-1e+300')
    """
    return f"{v:.1f}" if abs(v) < 1e12 else f"{v:.3g}"


def _shown_degrees(v: float) -> str:
    """An angle in a message: six decimals (a tenth of a metre), as files give them.

    >>> _shown_degrees(-86.1138472), _shown_degrees(28.7)
    ('-86.113847', '28.700000')
    """
    return f"{v:.6f}"


@dataclass(frozen=True)
class ExtentTally:
    """What :func:`_check_crs_plausible`'s refusals need of a layer's features, all or some of
    them: the parts of a dataset read apart are judged as the dataset read whole
    (:func:`refuse_as_whole`).

    Attributes
    ----------
    usable
        Features with a finite box.
    beyond, first_beyond
        Of those, in a geographic layer, the features with a coordinate beyond any angle, and
        the first one's first such vertex.
    bounds
        The usable features' box (xmin, ymin, xmax, ymax; NaN where there is none).
    """

    usable: int
    beyond: int
    first_beyond: tuple[float, float] | None
    bounds: tuple[float, float, float, float]

    @staticmethod
    def added(parts: Sequence[tuple[int, ExtentTally]]) -> ExtentTally:
        """The tally of parts (each with the number of its first row) taken in order."""
        boxes = np.array([t.bounds for _, t in parts if t.usable], dtype=float).reshape(-1, 4)
        bounds = (
            (*boxes[:, :2].min(axis=0), *boxes[:, 2:].max(axis=0)) if len(boxes) else (np.nan,) * 4
        )
        return ExtentTally(
            usable=sum(t.usable for _, t in parts),
            beyond=sum(t.beyond for _, t in parts),
            first_beyond=next((t.first_beyond for _, t in parts if t.first_beyond), None),
            bounds=tuple(float(v) for v in bounds),
        )

    def refuse(self, path: str, crs: CRS) -> None:
        """Refuse the layer where its coordinates cannot be in ``crs``: most features beyond
        any angle in a geographic CRS; degrees, or a place far off its area of use, in a
        projected one.

        Raises
        ------
        CRSError
        """
        if not self.usable:
            return
        xmin, ymin, xmax, ymax = self.bounds
        if crs.is_geographic:
            if self.beyond * 2 > self.usable:
                x, y = self.first_beyond
                raise CRSError(
                    f"coordinates such as ({_shown(x)}, {_shown(y)}) are not degrees, but the "
                    f"layer's CRS is {crs.name}{_right_crs(path)}",
                    path=path,
                    parameter="crs",
                )
            return
        if (
            crs.is_projected
            and max(abs(xmin), abs(xmax)) <= 180
            and max(abs(ymin), abs(ymax)) <= 90
        ):
            span = max(xmax - xmin, ymax - ymin)
            # off the CRS's area of use first: the message says how far, for a county as for a state
            away = _degrees_off_area_of_use(crs, xmin, ymin, xmax, ymax)
            if away is not None:
                unit = crs.axis_info[0].unit_name if crs.axis_info else ""
                unit = _UNIT_ABBREVIATIONS.get(unit, unit)
                raise CRSError(
                    f"coordinates such as ({xmax:.5f}, {ymax:.5f}) look like degrees, but the "
                    f"layer says it is in {crs.name}: as its coordinates they lie {away:,.0f} "
                    f"{unit} outside the area that CRS is made for, and they span {span:,.1f} "
                    f"{unit}. Fix the file's CRS (EPSG:4326 for longitude/latitude)",
                    path=path,
                )
            if span < 5:
                raise CRSError(
                    f"coordinates such as ({xmax:.5f}, {ymax:.5f}) look like degrees, "
                    f"but the layer says it is in {crs.name}; they would be measured as a few "
                    "feet. Fix the file's CRS (EPSG:4326 for longitude/latitude)",
                    path=path,
                )
        elif crs.is_projected:
            far = _far_off_area_of_use(crs, xmin, ymin, xmax, ymax)
            if far is not None:
                km, side, guess = far
                parts = crs.area_of_use.name.split(" - ")
                made_for = parts[1] if len(parts) > 2 else parts[-1][:60]
                name = Path(path).name
                code = guess[1] if guess else "<its code>"
                given = Path(name).suffix.lower() in (".csv", ".txt", ".tsv")  # (by --crs)
                fix = (
                    f"{{option}} EPSG:{code}"
                    if given
                    else f"ogr2ogr -a_srs EPSG:{code} fixed{Path(name).suffix} {name}"
                )
                likely = (
                    f" They fall inside that area as {guess[0]}: if that is theirs, give the file "
                    f"that CRS ({fix})"
                    if guess
                    else f" Give the file its right CRS ({fix})"
                )
                raise CRSError(
                    f"coordinates such as ({xmax:,.0f}, {ymax:,.0f}) lie {km:,.0f} km {side} of "
                    f"the area its CRS, {crs.name}, is made for ({made_for}), so that CRS is "
                    f"likely not theirs, and every length would be measured wrong.{likely}; if "
                    f"they truly are in {crs.name}, reproject them to a CRS made for where "
                    "they lie",
                    path=path,
                    parameter="crs" if given else None,
                )


def _check_crs_plausible(layer: Layer, *, whole: bool = True) -> Layer:
    """Catch the classic mistake: degrees labelled as a projected CRS, or the reverse.

    In a geographic layer, features with a coordinate beyond any angle are a mistake of the
    layer's CRS where they are most of its features (refused), of their own where they are a
    few (a typing error in one lot of thousands): those lose their geometry, each with why
    (:func:`_not_degrees`), and the rest is checked (:meth:`ExtentTally.refuse`).
    ``whole=False`` (a part of a layer) leaves the refusals, which only the whole layer
    settles, to it (:func:`tallies`).
    """
    if layer.xy is not None:  # a million points: no (n, 4) table of bounds
        x0, y0 = layer.xy
        x1, y1 = x0, y0
    else:
        x0, y0, x1, y1 = shapely.bounds(layer.geometry).T
    ok = np.isfinite(x0) & np.isfinite(y0) & np.isfinite(x1) & np.isfinite(y1)
    if not ok.all():
        x0, y0, x1, y1 = x0[ok], y0[ok], x1[ok], y1[ok]
    bounds = (x0.min(), y0.min(), x1.max(), y1.max()) if len(x0) else (np.nan,) * 4
    xmin, ymin, xmax, ymax = bounds
    beyond = np.zeros(len(x0), dtype=bool)
    if layer.crs.is_geographic and (
        max(abs(xmin), abs(xmax)) > 360 or max(abs(ymin), abs(ymax)) > 90
    ):
        beyond = (np.maximum(abs(x0), abs(x1)) > 360) | (np.maximum(abs(y0), abs(y1)) > 90)
    first = None
    if beyond.any():
        i = int(np.argmax(beyond))
        x, y = x0[i], y0[i]
        if layer.xy is None:  # the first vertex of that feature that is beyond
            x, y = _first_beyond(layer.geometry[np.flatnonzero(ok)[i : i + 1]])[0]
        first = (float(x), float(y))
    tally = ExtentTally(
        usable=int(ok.sum()),
        beyond=int(beyond.sum()),
        first_beyond=first,
        bounds=bounds,
    )
    _judge(WholeTally(layer.path, layer.crs, extent=tally), whole)
    if beyond.any():
        return _not_degrees(layer, np.flatnonzero(ok)[beyond])
    return layer


@dataclass(frozen=True)
class WholeTally:
    """What the refusals that only a whole layer settles need of a layer, or of a part of it
    read alone (:func:`part_of_file`): its path and CRS, and one tally."""

    path: str
    crs: CRS
    lonlat: LonLatTally | None = None
    extent: ExtentTally | None = None


_TALLIES: ContextVar[list[WholeTally] | None] = ContextVar("posting_tallies", default=None)


def tallies() -> contextlib.AbstractContextManager[list[WholeTally]]:
    """The tallies of the layers (or parts) read in the block, in the order read: what a part
    of a dataset, read alone, gives the client to judge the whole dataset by
    (:func:`refuse_as_whole`)."""
    return _collected(_TALLIES)


def _judge(tally: WholeTally, whole: bool | None = None) -> None:
    """Refuse the layer as ``tally`` says it must be, where it is read whole (``whole``; by
    default, outside :func:`part_of_file`); else keep the tally for whoever reads the rest."""
    if whole is None:
        whole = not _PART_OF_FILE.get()
    if whole:
        if tally.lonlat is not None:
            tally.lonlat.refuse(tally.path, tally.crs)
        if tally.extent is not None:
            tally.extent.refuse(tally.path, tally.crs)
    elif (seen := _TALLIES.get()) is not None:
        seen.append(tally)


def refuse_as_whole(parts: Sequence[tuple[int, Sequence[WholeTally]]]) -> None:
    """Refuse a layer read in parts as it would be refused read whole: ``parts`` are the
    tallies of each part (:func:`tallies`), with the number of its first row, in order.

    Raises
    ------
    CRSError, InputError
        Most of the layer's rows are not angles, have longitude and latitude swapped, or are
        not in its CRS.
    """
    every = [(o, t) for o, ts in parts for t in ts]
    if not every:
        return
    lonlat = [(o, t.lonlat) for o, t in every if t.lonlat is not None]
    extent = [(o, t.extent) for o, t in every if t.extent is not None]
    first = every[0][1]
    _judge(
        WholeTally(
            first.path,
            first.crs,
            lonlat=LonLatTally.added(lonlat) if lonlat else None,
            extent=ExtentTally.added(extent) if extent else None,
        ),
        whole=True,
    )


def _beyond_any_angle(xy: np.ndarray) -> np.ndarray:
    """True for each (x, y) row that is not degrees: a longitude beyond 360 or a latitude
    beyond 90 (NaN is not beyond)."""
    with np.errstate(invalid="ignore"):
        return (np.abs(xy[:, 0]) > 360) | (np.abs(xy[:, 1]) > 90)


def _first_beyond(geometry: np.ndarray) -> np.ndarray:
    """The first vertex of each geometry whose longitude is beyond 360 degrees or latitude
    beyond 90 (each has one), as rows of x and y."""
    xy, which = shapely.get_coordinates(geometry, return_index=True)
    far = np.flatnonzero(_beyond_any_angle(xy))
    _, first = np.unique(which[far], return_index=True)
    return xy[far[first]]


def _not_degrees(layer: Layer, rows: np.ndarray) -> Layer:
    """``layer`` with the features at ``rows`` (a few of a geographic layer, each with a
    coordinate beyond any angle) left without geometry, each with why: the vertex, and that it
    is the feature's mistake rather than the layer's.

    Examples
    --------
    >>> from shapely import Point, Polygon
    >>> g = np.array([Point(-81.3, 28.6), Polygon([(-81, 28), (-811170.6, 28), (-81, 29)])])
    >>> out = _not_degrees(Layer("lots.geojson", pd.DataFrame(index=range(2)), g, WGS84), [1])
    >>> out.geometry[1] is None, out.problems[1]  # doctest: +NORMALIZE_WHITESPACE
    (True, "a coordinate, (-811170.6, 28.0), is not degrees, as most of the layer's (WGS 84)
    are: a typing error? Fix this feature in the file")
    """
    rows = np.asarray(rows, dtype=np.int64)
    if layer.xy is not None:
        x, y = layer.xy[0].copy(), layer.xy[1].copy()
        at = np.column_stack([x[rows], y[rows]])
        x[rows] = y[rows] = np.nan
        geometry, xy = layer.geometry, (x, y)
    else:
        at = _first_beyond(layer.geometry[rows])
        geometry = np.array(layer.geometry, dtype=object, copy=True)
        geometry[rows] = None
        xy = None
    problems = dict(layer.problems)
    for r, (x, y) in zip(rows.tolist(), at.tolist(), strict=True):
        problems.setdefault(
            r,
            f"a coordinate, ({_shown(x)}, {_shown(y)}), is not degrees, as most of the layer's "
            f"({layer.crs.name}) are: a typing error? Fix this feature in the file",
        )
    return dataclasses.replace(layer, geometry=geometry, problems=problems, xy=xy)


_UNIT_ABBREVIATIONS = {"metre": "m", "foot": "ft", "US survey foot": "US survey ft"}
AREA_MARGIN = 0.02
"""How far outside a projected CRS's area of use, as a share of its width (east or west) or
height (north or south), coordinates may lie before they cannot be that CRS's
(:func:`_degrees_off_area_of_use`)."""


FAR_OFF_AREA = 0.25
"""How far outside a projected CRS's area of use, as a share of its longer side (and at least
:data:`FAR_OFF_AREA_M`), a layer's coordinates (not degrees) may lie before the CRS cannot
be theirs (:func:`_far_off_area_of_use`)."""
FAR_OFF_AREA_M = 100_000.0


def _right_crs(path: str) -> str:
    """How to give the layer at ``path`` its right CRS, where its coordinates are not degrees
    and its CRS says they are: a table's (or a Shapefile's without a ``.prj``) is given with
    ``--crs``; a file's own CRS wins over
    ``--crs``, which gives one only to a file that has none, so the file must be mended (a
    GeoJSON file without a ``crs`` member is WGS 84 by its standard).

    >>> _right_crs("signs.csv")
    '; give the right CRS with {option}'
    >>> _right_crs("lots/parcels.gpkg")  # doctest: +NORMALIZE_WHITESPACE
    '; give the file its right CRS (ogr2ogr -a_srs EPSG:<its code> fixed.gpkg parcels.gpkg):
    {option} gives a CRS only to a file that has none'
    """
    name = Path(path).name
    suffix = Path(name).suffix.lower()
    if suffix in TABLE_SUFFIXES or (suffix == ".shp" and _sibling(Path(path), ".prj") is None):
        return "; give the right CRS with {option}"  # (the CRS it has is the option's)
    said = ""
    if suffix in (".geojson", ".json", ".geojsonl", ".geojsons"):
        said = ' (a GeoJSON file without a "crs" member is in WGS 84, by its standard)'
    if os.path.isdir(path) and suffix != ".gdb":
        fix = "write its files again with their right CRS"
    else:
        fix = f"give the file its right CRS (ogr2ogr -a_srs EPSG:<its code> fixed{suffix} {name})"
    return f"{said}; {fix}: {{option}} gives a CRS only to a file that has none"


def _far_off_area_of_use(
    crs: CRS, xmin: float, ymin: float, xmax: float, ymax: float
) -> tuple[float, str, tuple[str, int] | None] | None:
    """How far (km) and on which side the box of a layer's coordinates lies outside the
    projected ``crs``'s area of use, where it does by more than :data:`FAR_OFF_AREA` of that
    area's longer side and :data:`FAR_OFF_AREA_M`; and the likely CRS of such coordinates
    (its name and EPSG code): the NAD83 UTM zone of the area's middle, where the box's middle
    read in it falls inside the area. Else None.

    The classic case is a surveyor's UTM metres labelled as State Plane feet (a .prj copied
    from another layer): Seminole County's lots then lie 250 km north of Florida East's area,
    in South Carolina, every length 3.28 times too short, and a sign 1,600 ft from the next
    one would pass for 500 ft.
    """
    box = projected_area_of_use(crs)
    area = crs.area_of_use
    if box is None or area is None or not crs.axis_info:
        return None
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0)
    gap, where = max(
        [(x0 - xmax, "west"), (xmin - x1, "east"), (y0 - ymax, "south"), (ymin - y1, "north")]
    )
    metres = gap * crs.axis_info[0].unit_conversion_factor
    if not (gap > FAR_OFF_AREA * side and metres > FAR_OFF_AREA_M):
        return None
    guess = _unit_guess(crs, (xmin + xmax) / 2, (ymin + ymax) / 2)
    lon = (area.west + area.east) / 2
    zone = int((lon + 180) // 6) + 1
    if guess is None and area.south >= 0 and 1 <= zone <= 23:  # (NAD83's UTM zones: 1N to 23N)
        utm = CRS.from_epsg(26900 + zone)
        t = Transformer.from_crs(utm, crs.geodetic_crs, always_xy=True)
        gx, gy = t.transform((xmin + xmax) / 2, (ymin + ymax) / 2, errcheck=False)
        if area.west <= gx <= area.east and area.south <= gy <= area.north:
            guess = (f"UTM zone {zone}N metres", 26900 + zone)
    return metres / 1000, where, guess


def _unit_guess(crs: CRS, x: float, y: float) -> tuple[str, int] | None:
    """The CRS of the same zone as the projected ``crs`` in another length unit
    (:func:`posting.crs.same_zone`, its name and EPSG code) in which the point (``x``, ``y``),
    its numbers read in that unit, falls inside ``crs``'s area of use; None if none does.

    Numbers in US survey feet under a metre zone (Florida East's 1,600,000 ftUS northing read
    as metres) lie 3.28 times as far from the zone's origin; metres under a feet zone 0.3048
    times as far.

    >>> _unit_guess(CRS.from_epsg(26958), 625120.0, 1601765.0)
    ('US survey feet of the same zone, NAD83 / Florida East (ftUS)', 2236)
    """
    area = crs.area_of_use
    if area is None:
        return None
    t = Transformer.from_crs(crs, crs.geodetic_crs, always_xy=True)
    found = []
    for (unit, _), r in zip(UNITS_M, unit_ratios(crs), strict=True):
        if np.isnan(r):
            continue
        lon, lat = t.transform(x * r, y * r, errcheck=False)
        if area.west <= lon <= area.east and area.south <= lat <= area.north:
            for same in same_zone(crs, unit):
                code, name = same.split(" ", 1)
                found.append((f"{unit} of the same zone, {name[1:-1]}", int(code[5:])))
    return found[0] if found else None


def _degrees_off_area_of_use(
    crs: CRS, xmin: float, ymin: float, xmax: float, ymax: float
) -> float | None:
    """How far (in the CRS's units) the box of a layer's coordinates, all within +-180 and +-90,
    lies outside ``crs``'s area of use, where it does by more than :data:`AREA_MARGIN`; else
    None.

    Such small numbers are a projected CRS's own only near its origin, where State Plane and
    UTM zones never are (their areas start hundreds of miles away); they are degrees. A state's
    parcels span more than the few units that :func:`_check_crs_plausible` takes for degrees at
    once: read as feet, its lots were a few thousandths of a foot wide, and a sign "within
    30 ft" (30 degrees) stood at every corner.
    """
    box = projected_area_of_use(crs)
    if box is None:
        return None
    x0, y0, x1, y1 = box
    mx, my = AREA_MARGIN * (x1 - x0), AREA_MARGIN * (y1 - y0)
    if not (mx > 0 and my > 0):  # an area of no width or height: nothing to tell by
        return None
    gaps = np.array([(x0 - xmax) / mx, (xmin - x1) / mx, (y0 - ymax) / my, (ymin - y1) / my])
    far = int(np.argmax(gaps))
    return float(gaps[far] * (mx if far < 2 else my)) if gaps[far] > 1 else None


def read_layer(
    path: str | os.PathLike[str],
    *,
    crs: str | CRS | None = None,
    layer: str | None = None,
    kind: str = "markers",
    prefetch: Prefetch | None = None,
) -> Layer:
    """Read one layer of any supported format.

    Parameters
    ----------
    path
        The file.
    crs
        CRS for a layer that has none, and for ``x``/``y`` columns. A CRS the file declares
        always wins.
    layer
        Layer name within a multi-layer file (GeoPackage, KML); KML folders are all read by
        default.
    kind
        ``"parcels"`` or ``"markers"``: only used to word errors and to refuse GPX parcels.
    prefetch
        GeoParquet files already being read (:class:`posting.prefetch.Prefetch`), if any.

    Raises
    ------
    InputError, CRSError
        The file is missing, unreadable, has no coordinate columns or no CRS.
    """
    path = os.fspath(path)
    given = parse_crs(crs) if crs is not None else None
    if not os.path.exists(path) and not path.startswith("/vsi"):
        raise InputError("no such file", path=path)
    if os.path.isfile(path) and os.path.getsize(path) == 0:
        raise InputError("the file is empty (0 bytes)", path=path)
    suffix = Path(path).suffix.lower()
    if os.path.isdir(path) and suffix != ".gdb":  # a dataset: a folder of GeoParquet files
        from posting import dataset

        out = dataset.read_layer(path, given, kind, prefetch)
    elif suffix in TABLE_SUFFIXES:
        part = prefetch.text(path) if prefetch is not None else None
        out = _read_csv(path, given, part, kind)
    elif suffix in PARQUET_SUFFIXES:
        out = _read_parquet(path, given, kind, prefetch)
    else:
        features = prefetch.features(path) if prefetch is not None else None
        part = prefetch.feature_text(path) if prefetch is not None else None
        out = _read_ogr(path, given, layer, kind, features, part)
    return _check_crs_plausible(out, whole=not _PART_OF_FILE.get())


def _as_id_strings(values: pd.Series) -> np.ndarray:
    """Ids as strings, verbatim: ``'007'`` stays ``'007'``, an integer 12 (or 12.0) is ``'12'``.

    A whole number stored as a decimal is written as the integer the decimal holds, however
    large: a Shapefile's numeric field of 19 digits or more is read as decimals (GDAL), and a
    20-digit parcel number there is 1.2345678901234567e19, whose integer is
    ``'12345678901234567168'`` (its last digits lost in the file, not here).
    Missing values come back as None, and so do blank ones (``''``, spaces: a GeoJSON's or
    GeoPackage's empty text, which a Shapefile or CSV gives as missing), as a blank cell is.

    >>> _as_id_strings(pd.Series([12.0, 2.5, None, 1.2345678901234567e19])).tolist()
    ['12', '2.5', None, '12345678901234567168']
    >>> _as_id_strings(pd.Series([" 007 ", "", "  ", None])).tolist()
    [' 007 ', None, None, None]
    """
    s = pd.Series(values).reset_index(drop=True)
    out = np.full(len(s), None, dtype=object)
    na = s.isna().to_numpy(dtype=bool)
    if pd.api.types.is_float_dtype(s.dtype):
        v = s.to_numpy(dtype=float)
        integral = ~na & np.isfinite(v) & (v == np.floor(v))
        large = integral & (np.abs(v) >= 2.0**63)  # beyond int64: Python's integers
        small = integral & ~large
        out[small] = v[small].astype(np.int64).astype(str).astype(object)
        out[large] = [str(int(x)) for x in v[large]]
        other = ~na & ~integral
        out[other] = v[other].astype(str).astype(object)
    else:
        text = s[~na].astype(str)
        kept = text.to_numpy(dtype=object)
        kept[(text.str.strip() == "").to_numpy(dtype=bool)] = None
        out[~na] = kept
    return out


INEXACT_ID = 2.0**53
"""From this magnitude on a decimal (a float64) does not hold every whole number: a Shapefile's
or GeoJSON's 20-digit parcel number read as one has lost its last digits."""


def inexact_ids(values: pd.Series) -> np.ndarray:
    """Whether each id is a whole number stored as a decimal at or beyond :data:`INEXACT_ID`,
    whose last digits the file may have lost.

    >>> inexact_ids(pd.Series([12.0, 2.0**53, 1.2345678901234567e19, None])).tolist()
    [False, True, True, False]
    >>> inexact_ids(pd.Series(["12345678901234567890"])).tolist()
    [False]
    """
    s = pd.Series(values)
    if not pd.api.types.is_float_dtype(s.dtype):
        return np.zeros(len(s), dtype=bool)
    v = s.to_numpy(dtype=float)
    with np.errstate(invalid="ignore"):
        return np.isfinite(v) & (np.abs(v) >= INEXACT_ID) & (v == np.floor(v))


def tally_rows(rows: np.ndarray) -> tuple[int, np.ndarray]:
    """How many rows, and the first ten of them (what a note names)."""
    return len(rows), rows[:10]


def id_notes(
    path: str, col: str, missing: tuple[int, np.ndarray], inexact: tuple[int, np.ndarray]
) -> list[str]:
    """The parcel layer's notes on its ids: how many rows have none (and so are named by row)
    and how many are numbers the file may not hold whole (:func:`inexact_ids`), each with its
    first rows; ``missing`` and ``inexact`` are counts with the first ten rows (summed over the
    pieces of a partitioned run)."""
    out = []
    for (n, first), what in (
        (missing, f"parcel(s) have no {col!r}; they are named by row as '#<row>'"),
        (
            inexact,
            f"parcel id(s) in {col!r} are whole numbers stored as decimals of 2**53 or more, "
            "which hold only about 16 digits: the file may have lost their last digits, and "
            "they are read as the integers the decimals hold; store the ids as text",
        ),
    ):
        if n:
            rows = ", ".join(str(i) for i in first)
            out.append(f"{path}: {n} {what} (rows {rows}{', ...' if n > 10 else ''})")
    return out


def _not_on_earth(reason: np.ndarray, lon: np.ndarray, lat: np.ndarray, crs: CRS) -> None:
    """Give each marker without a reason whose position has no longitude and latitude (a
    coordinate beyond the CRS's reach: 1e300 ft) the reason, in place."""
    bad = pd.isna(reason) & ~(np.isfinite(lon) & np.isfinite(lat))
    reason[bad] = f"cannot be placed on Earth from {crs.name}"


@dataclass
class ParcelLayer:
    """Parcels as read: ids, owners, geometry in the source CRS, and the raw attributes."""

    source: str
    ids: np.ndarray
    owners: np.ndarray | None
    geometry: np.ndarray
    crs: CRS
    attributes: pd.DataFrame
    id_field: str | None = None
    notes: list[str] = field(default_factory=list)
    problems: dict[int, str] = field(default_factory=dict)  # row -> why it has no geometry
    closed_lines: bool = False  # rows drawn as closed lines are lots (posting.closedlines)

    def __len__(self) -> int:
        return len(self.geometry)

    @classmethod
    def from_geometries(
        cls,
        geometry: Sequence[Any],
        crs: str | CRS,
        *,
        ids: Sequence[str] | None = None,
        owners: Sequence[str | None] | None = None,
        source: str = "<memory>",
        closed_lines: bool = False,
    ) -> ParcelLayer:
        """Parcels built in code (tests, notebooks): shapely geometries in ``crs`` (a Z value
        is dropped, as when a file is read); with ``closed_lines``, closed lines are lots."""
        geometry = np.asarray(list(geometry), dtype=object)
        if len(geometry) and shapely.has_z(geometry).any():
            geometry = shapely.force_2d(geometry)
        n = len(geometry)
        ids_arr = np.array([str(i) for i in (ids if ids is not None else range(n))], dtype=object)
        own = None if owners is None else np.asarray(list(owners), dtype=object)
        return cls(
            source,
            ids_arr,
            own,
            geometry,
            parse_crs(crs),
            pd.DataFrame(index=range(n)),
            "id" if ids is not None else None,
            closed_lines=closed_lines,
        )


def read_parcels(
    path: str | os.PathLike[str],
    *,
    id_field: str | None = None,
    owner_field: str | None = None,
    crs: str | CRS | None = None,
    layer: str | None = None,
    prefetch: Prefetch | None = None,
    piece: bool = False,
    id_notes_of_layer: bool = True,
    closed_lines: bool = False,
) -> ParcelLayer:
    """Read a parcel layer.

    Parcel ids come from ``id_field``, kept verbatim as strings; without it the id is the
    0-based row number. A row with no id gets ``#<row>`` and a note; so does an id that the
    file may not hold whole (:func:`inexact_ids`); duplicated ids are kept (the report flags
    them). A layer without a polygon is refused, unless it is a ``piece`` of one (an empty file
    of a dataset, say: the whole layer is judged by :func:`require_polygons`). Without
    ``id_notes_of_layer`` the notes on the ids are left out: a partitioned run words them from
    every piece's counts (:func:`id_notes`). With ``closed_lines``, a row drawn as closed
    lines is a lot, read as the polygon they bound when the parcels are prepared
    (:mod:`posting.closedlines`).
    """
    lay = _without_strays(read_layer(path, crs=crs, layer=layer, kind="parcels", prefetch=prefetch))
    notes: list[str] = list(lay.notes)
    n = len(lay)
    if not piece:
        _require_polygons(lay, closed_lines)
    if id_field:
        col = _require_column(lay.frame, id_field, lay.path, "id_field")
        ids = _as_id_strings(lay.frame[col])
        missing = np.flatnonzero(pd.isna(ids))
        for i in missing:
            ids[i] = f"#{i}"
        if id_notes_of_layer:
            inexact = np.flatnonzero(inexact_ids(lay.frame[col]))
            notes += id_notes(lay.path, col, tally_rows(missing), tally_rows(inexact))
    else:
        ids = np.array([str(i) for i in range(n)], dtype=object)
    owners = None
    if owner_field:
        col = _require_column(lay.frame, owner_field, lay.path, "owner_field")
        owners = _as_id_strings(lay.frame[col])
    return ParcelLayer(
        lay.path,
        ids,
        owners,
        lay.geometry,
        lay.crs,
        lay.frame,
        id_field,
        notes,
        dict(lay.problems),
        closed_lines,
    )


def _without_strays(lay: Layer) -> Layer:
    """``lay`` (parcels) with each lot that has a stray vertex (a coordinate typed or digitised
    wrong, :func:`posting.strays.find_strays`) left without geometry, each with why: such a lot
    would be measured as a triangle hundreds of miles long."""
    found = find_strays(lay.geometry, lay.crs)
    if not len(found):
        return lay
    geometry = np.array(lay.geometry, dtype=object, copy=True)
    geometry[found.rows] = None
    problems = dict(lay.problems)
    shown = _shown_degrees if lay.crs.is_geographic else _shown  # (to find it in the file)
    for r, (x, y), d, w in zip(
        found.rows.tolist(),
        found.xy.tolist(),
        found.distance_ft.tolist(),
        found.within_ft.tolist(),
        strict=True,
    ):
        problems.setdefault(r, stray_problem(shown(x), shown(y), d, w))
    return dataclasses.replace(lay, geometry=geometry, problems=problems)


def _require_polygons(lay: Layer, closed_lines: bool = False) -> None:
    """Refuse a layer that has no parcel at all: no feature, or points or lines only (a sign
    file given as the parcels), with one error instead of one invalid parcel per row."""
    require_polygons(lay.path, len(lay), geometry_kinds(lay.geometry), lay.layers, closed_lines)


CLOSED_LINES = -2
"""The key of :func:`geometry_kinds` that counts closed lines (read as the polygons they bound,
:mod:`posting.closedlines`)."""


def geometry_kinds(geometry: Any) -> dict[int, int]:
    """How many geometries of each shapely type id (``-1``: none) an array holds; lines whose
    every part is closed are counted apart, under :data:`CLOSED_LINES`.

    >>> geometry_kinds(np.array([shapely.Point(0, 0), None, shapely.Point(1, 1)]))
    {-1: 1, 0: 2}
    >>> geometry_kinds(np.array([shapely.LineString([(0, 0), (1, 0), (1, 1), (0, 0)]),
    ...                          shapely.LineString([(0, 0), (1, 0)])]))
    {1: 1, -2: 1}
    """
    types = shapely.get_type_id(geometry)
    closed = closed_lines(geometry)
    counts = np.bincount(types[~closed] + 1)  # (ids -1 to 7: no sort)
    kinds = {k - 1: int(c) for k, c in enumerate(counts) if c}
    if closed.any():
        kinds[CLOSED_LINES] = int(closed.sum())
    return kinds


def require_polygons(
    path: str,
    n: int,
    kinds: dict[int, int],
    layers: tuple[str, ...] = (),
    closed_lines: bool = False,
) -> None:
    """Refuse a parcel layer of ``n`` features with these :func:`geometry_kinds` (added up over
    a dataset's pieces, or of one file) that has no parcel at all: no feature, or points or
    lines only (closed lines are parcels where ``closed_lines`` says so); of a file of several
    ``layers`` none of which was named (the first read), the error names them and the option
    that chooses one."""
    what, choose = "", ""
    if layers:
        what = f"its first layer, {layers[0]!r} (of {len(layers)}: "
        what += ", ".join(repr(n) for n in layers) + "), "
        choose = "; choose the parcels' layer with {option:layer}"
    if not n:
        raise InputError(f"{what}has no features: there are no parcels to check{choose}", path=path)
    closed = kinds.get(CLOSED_LINES, 0)
    if closed and closed_lines:
        return
    held_kinds = {k: c for k, c in kinds.items() if k >= 0 and c}
    if closed:  # lines after all, unless the user says they are lots
        held_kinds[1] = held_kinds.get(1, 0) + closed
    if not held_kinds or any(k in (3, 6) for k in held_kinds):
        return
    names = shapely.geometry.base.GEOMETRY_TYPES
    held = ", ".join(f"{c:,} {names[k]}" for k, c in sorted(held_kinds.items()))
    if layers:
        hint = choose
    elif any(k in (0, 4) for k in held_kinds):
        hint = "; if these are the markers, give them with {option}"
    elif any(k in (1, 2, 5) for k in held_kinds):
        hint = "; if the lines are the parcels' boundaries, make polygons of them first"
        if closed:
            hint += (
                f" ({closed:,} of them close a ring: --closed-lines reads each such line as "
                "the lot it bounds)"
            )
    else:
        hint = ""
    raise InputError(
        f"{what}holds {held} feature(s) and no polygon: parcels are polygons{hint}",
        path=path,
        parameter="signs",
    )


@dataclass
class MarkerLayer:
    """Markers (signs, paint marks, posts) from one or more files, concatenated.

    Attributes
    ----------
    source, row
        File and 0-based row of each marker.
    x, y
        Coordinates in the marker's own file CRS (NaN where unusable).
    lon, lat
        WGS 84 position (NaN where unusable).
    file_index
        Index into ``files`` of each marker.
    files
        ``(path, crs)`` for each file read.
    reason
        Why a marker's geometry cannot be used, or None.
    attributes
        The input columns, names lowercased, one row per marker.
    parcel_ref
        The parcel id named by ``--sign-parcel-field``, or None.
    type_kinds
        The files (places in ``files``) whose ``type`` column (or a plan's point file's
        descriptions) gives their markers' kinds,
        judged on each whole file (:func:`posting.attributes.type_kinds`); None: judged on
        the rows here, each file's as one (a layer read whole). A partition's markers are
        some rows of each file: it is told the whole files' judgement.
    """

    source: np.ndarray
    row: np.ndarray
    x: np.ndarray
    y: np.ndarray
    lon: np.ndarray
    lat: np.ndarray
    file_index: np.ndarray
    files: list[tuple[str, CRS]]
    reason: np.ndarray
    attributes: pd.DataFrame
    parcel_ref: np.ndarray | None = None
    notes: list[str] = field(default_factory=list)
    type_kinds: frozenset[int] | None = None

    def __len__(self) -> int:
        return len(self.row)

    def judged(self) -> MarkerLayer:
        """This layer with ``type_kinds`` judged on its rows, each file's whole."""
        if self.type_kinds is not None:
            return self
        typed = frozenset(np.flatnonzero(self._typed_files()).tolist())
        return dataclasses.replace(self, type_kinds=typed)

    def _typed_files(self) -> np.ndarray:
        from posting.attributes import kinds_tally, type_kinds

        fi = self.file_index
        n = max(len(self.files), int(fi.max()) + 1 if len(fi) else 0)
        if self.type_kinds is None:
            return type_kinds(*kinds_tally(self.attributes, fi, n))
        per_file = np.zeros(max(n, *self.type_kinds, -1) + 1, dtype=bool)
        per_file[list(self.type_kinds)] = True
        return per_file

    def take(self, idx: np.ndarray) -> MarkerLayer:
        """Markers ``idx`` of the layer (its files' ``type`` columns judged as before: on the
        rows of this layer, not of those taken, unless ``type_kinds`` already says)."""
        from dataclasses import replace

        attrs = self.attributes
        attrs = (
            attrs.iloc[idx].reset_index(drop=True)
            if len(attrs.columns)
            else pd.DataFrame(index=range(len(idx)))
        )
        kinds_of = self.type_kinds
        if kinds_of is None:
            kinds_of = frozenset(np.flatnonzero(self._typed_files()).tolist())
        return replace(
            self,
            source=self.source[idx],
            row=self.row[idx],
            x=self.x[idx],
            y=self.y[idx],
            lon=self.lon[idx],
            lat=self.lat[idx],
            file_index=self.file_index[idx],
            reason=self.reason[idx],
            attributes=attrs,
            parcel_ref=None if self.parcel_ref is None else self.parcel_ref[idx],
            type_kinds=kinds_of,
        )

    def typed(self) -> np.ndarray:
        """Whether each marker's file reads its ``type`` column as kinds (``type_kinds``)."""
        return self._typed_files()[self.file_index]

    def kinds(self) -> np.ndarray:
        """Each marker's kind (:func:`posting.attributes.marker_kinds`), a file's ``type``
        column read as kinds where the whole file's holds nothing else."""
        from posting.attributes import marker_kinds

        if not len(self.attributes.columns):
            return np.full(len(self), "sign", dtype=object)
        return marker_kinds(self.attributes, self.typed())

    @classmethod
    def from_points(
        cls,
        x: Sequence[float],
        y: Sequence[float],
        crs: str | CRS,
        *,
        attributes: pd.DataFrame | None = None,
        parcel_ref: Sequence[str | None] | None = None,
        source: str = "<memory>",
    ) -> MarkerLayer:
        """Markers built in code (tests, notebooks): coordinates in ``crs``."""
        from posting.crs import to_lonlat

        crs = parse_crs(crs)
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        n = len(x)
        reason = np.full(n, None, dtype=object)
        reason[~(np.isfinite(x) & np.isfinite(y))] = "no coordinates"
        lon, lat = to_lonlat(x, y, crs)
        _not_on_earth(reason, lon, lat, crs)  # as a file's markers are
        attrs = (
            attributes.reset_index(drop=True)
            if attributes is not None
            else pd.DataFrame(index=range(n))
        )
        attrs.columns = [str(c).lower() for c in attrs.columns]
        return cls(
            np.full(n, source, dtype=object),
            np.arange(n, dtype=np.int64),
            x,
            y,
            lon,
            lat,
            np.zeros(n, dtype=np.int64),
            [(source, crs)],
            reason,
            attrs,
            None if parcel_ref is None else np.asarray(list(parcel_ref), dtype=object),
        ).judged()

    @classmethod
    def empty(cls) -> MarkerLayer:
        """No markers at all (every parcel is then unposted)."""
        f = np.empty(0, dtype=float)
        return cls(
            np.empty(0, dtype=object),
            np.empty(0, dtype=np.int64),
            f,
            f,
            f,
            f,
            np.empty(0, dtype=np.int64),
            [],
            np.empty(0, dtype=object),
            pd.DataFrame(),
        )


def _marker_points(geometry: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x, y and a reason (None when usable) for each marker geometry."""
    n = len(geometry)
    reason = np.full(n, None, dtype=object)
    types = shapely.get_type_id(geometry)
    missing = types < 0
    empty = ~missing & shapely.is_empty(geometry)
    pts = geometry
    multi = np.flatnonzero(types == 4)
    if len(multi):  # a MultiPoint of one point is that point
        one = shapely.get_num_geometries(geometry[multi]) == 1
        pts = geometry.copy()
        pts[multi[one]] = shapely.get_geometry(geometry[multi[one]], 0)
        types = types.copy()
        types[multi[one]] = 0
    is_point = (types == 0) & ~empty
    reason[missing] = "no geometry"
    reason[empty] = "empty geometry"
    names = shapely.geometry.base.GEOMETRY_TYPES
    for i in np.flatnonzero(~missing & ~empty & ~is_point):
        reason[i] = f"a {names[types[i]]} is not a marker position: markers are points"
    x = np.full(n, np.nan)
    y = np.full(n, np.nan)
    if is_point.all():
        x, y = shapely.get_x(pts), shapely.get_y(pts)
    else:
        x[is_point] = shapely.get_x(pts[is_point])
        y[is_point] = shapely.get_y(pts[is_point])
    bad = is_point & ~(np.isfinite(x) & np.isfinite(y))
    reason[bad] = "coordinates are not finite"
    x[bad] = np.nan
    y[bad] = np.nan
    return x, y, reason


def no_markers(empty: list[str], files: int) -> None:
    """Refuse marker files of which none has a row (``empty``: those without, of ``files``)."""
    if empty and len(empty) == files:
        raise InputError(
            "no markers: the file has no rows"
            + (f" (nor {', '.join(empty[1:])})" if len(empty) > 1 else "")
            + ". To check the parcels as they are, without markers, leave out {option}",
            path=empty[0],
            parameter="signs",
        )


def no_parcel_field(parcel_field: str, paths: list[str]) -> InputError:
    """The error of a sign parcel field that no marker file has."""
    return InputError(
        f"{{option}} {parcel_field!r} is not a column of any sign file ({', '.join(paths)})",
        column=parcel_field,
        parameter="parcel_field",
    )


_PLACEMARKS = (".kml", ".kmz", ".gpx")
"""Files of placemarks and waypoints, whose ``description`` (``desc``) is the free text a phone
or Google Earth gives any point, not a surveyor's code for it."""


def no_where_column(column: str, paths: list[str], columns: Sequence[str]) -> InputError:
    """The error of a ``--signs-where`` column that no marker file has (``columns``: theirs)."""
    there = ", ".join(dict.fromkeys(str(c) for c in columns)) or "(none)"
    return InputError(
        f"{{option}}: no marker file ({', '.join(paths)}) has a column {column!r}; their "
        f"columns are: {there}",
        column=column,
        parameter="signs_where",
    )


def read_markers(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    crs: str | CRS | None = None,
    parcel_field: str | None = None,
    prefetch: Prefetch | None = None,
    piece: bool = False,
    where: str | None = None,
) -> MarkerLayer:
    """Read marker files (signs, paint marks, painted posts) and concatenate them.

    ``paths`` is one path (a file, or a folder of GeoParquet files) or a sequence of them; a
    string is one path.

    Rows whose geometry cannot be used are kept with the reason; the report lists them among
    the unassigned markers, so nothing is lost. Columns whose names a Shapefile shortened
    (``letter_hei``) are read as the full column (``letter_height_in``), with a note.

    ``piece``: ``paths`` is a piece of a run's marker files (one file, or a part of one):
    whether any file has a row, or the ``parcel_field`` or ``where`` column, is the run's to
    say of all of them (:mod:`posting.distributed`), not the piece's.

    ``where`` (``--signs-where``, ``COL=V1,V2`` or ``COL in ('V1','V2')``, values matched
    case-insensitively) chooses the rows that are markers: the others are of kind ``not
    selected`` (:func:`posting.attributes.select`), listed with their parcels and counted for
    no rule. A file without the column is read whole, with a note. A file with a
    description column (``description``, ``code`` ...) and no kind is read with a note: each
    of its rows counts as a sign, a monument too.

    Raises
    ------
    InputError
        A file cannot be read, no file has a single row (a file without rows among others is
        a note), ``where`` is not an expression, or no file has its column.
    """
    from posting.attributes import (
        description_note,
        kinds_tally,
        select,
        shortened_columns,
        type_kinds,
        unnamed_markers_note,
    )
    from posting.crs import to_lonlat

    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    if not paths:
        return MarkerLayer.empty()
    parts = []
    files: list[tuple[str, CRS]] = []
    notes: list[str] = []
    refs = []
    have_ref = False
    empty: list[str] = []
    if where is not None:
        where_col, wanted = parse_where(where, "signs_where")
        where_col = where_col.strip().lower()
    have_where = False
    for k, p in enumerate(paths):
        if photos.is_photo_source(p) and not _is_dataset(p):  # geotagged photos of signs
            lay = photos.read_photo_layer(p)
        else:
            lay = read_layer(p, crs=crs, kind="markers", prefetch=prefetch)
        files.append((lay.path, lay.crs))
        notes.extend(lay.notes)
        if not len(lay):
            empty.append(lay.path)
        if lay.xy is not None:
            x, y = lay.xy
            reason = np.full(len(x), None, dtype=object)
            bad = ~(np.isfinite(x) & np.isfinite(y))
            reason[bad] = "coordinates are not finite"
            # a WKB point of two NaNs is how an empty point is written: shapely reads it as
            # one, and so does the other path (the same file with a missing row)
            reason[np.isnan(x) & np.isnan(y)] = "empty geometry"
        else:
            x, y, reason = _marker_points(lay.geometry)
        for r, why in lay.problems.items():
            reason[r] = why
        lon, lat = to_lonlat(x, y, lay.crs)
        _not_on_earth(reason, lon, lat, lay.crs)
        attrs = lay.frame.copy()
        short = shortened_columns(attrs.columns)
        if short:
            attrs = attrs.rename(columns=short)
            notes.append(
                f"{lay.path}: column(s) "
                + ", ".join(f"{c!r} read as {k}" for c, k in short.items())
                + " (a Shapefile keeps 10 characters of a column name)"
            )
        attrs.columns = [str(c).strip().lower() for c in attrs.columns]
        attrs = attrs.loc[:, ~attrs.columns.duplicated()]
        if where is None:
            note = description_note(attrs.columns, lay.path)
            # descriptions that are a plan's point file's give the kinds: judged on the whole
            # file (a piece's by the caller, who words its note)
            whole = np.zeros(len(attrs), dtype=np.int64)
            if note and not piece and type_kinds(*kinds_tally(attrs, whole, 1))[0]:
                note = description_note(attrs.columns, lay.path, described=True)
            suffix = Path(lay.path).suffix.lower()
            if suffix in _PLACEMARKS:  # (read whole, also by a partitioned run)
                noun = "waypoints" if suffix == ".gpx" else "placemarks"
                note = unnamed_markers_note(attrs, pd.isna(reason), lay.path, noun)
            notes.extend([note] if note else [])
        elif where_col not in attrs.columns:
            notes.append(
                f"{lay.path}: has no column {where_col!r} (--signs-where): each of its rows is "
                "read as a marker"
            )
        else:
            have_where = True
            attrs = select(attrs, where_match(attrs[where_col], wanted))
            notes.append(
                f"{lay.path}: the rows whose {where_col} is not "
                + " or ".join(repr(v) for v in sorted(wanted))
                + " (--signs-where) are not markers: of kind 'not selected', listed with "
                "their parcels, counted for no rule"
            )
        ref = np.full(len(lay), None, dtype=object)
        if parcel_field:
            col = _column(lay.frame, [parcel_field.strip().lower()])
            if col is None:
                notes.append(f"{lay.path}: has no column {parcel_field!r} (the sign parcel field)")
            else:
                have_ref = True
                ref = _as_id_strings(lay.frame[col])
        if not piece:  # the order of day and month, decided on the whole file (a piece's:
            # on the pieces together, by the caller)
            notes.extend(settle_dates(attrs, np.arange(len(lay)), lay.path))
        refs.append(ref)
        parts.append((lay.path, np.arange(len(lay)), x, y, lon, lat, k, reason, attrs))
    if not piece:
        no_markers(empty, len(paths))
        notes.extend(f"{p}: has no rows (no markers)" for p in empty)
        if parcel_field and not have_ref:
            raise no_parcel_field(parcel_field, [str(p) for p in paths])
        if where is not None and not have_where:
            columns = [c for p in parts for c in p[8].columns]
            raise no_where_column(where_col, [str(p) for p in paths], columns)
    n = sum(len(p[1]) for p in parts)
    source = np.empty(n, dtype=object)
    start = 0
    for p in parts:
        source[start : start + len(p[1])] = p[0]
        start += len(p[1])
    attributes = pd.concat([p[8] for p in parts], ignore_index=True) if parts else pd.DataFrame()
    layer = MarkerLayer(
        source=source,
        row=np.concatenate([p[1] for p in parts]).astype(np.int64),
        x=np.concatenate([p[2] for p in parts]),
        y=np.concatenate([p[3] for p in parts]),
        lon=np.concatenate([p[4] for p in parts]),
        lat=np.concatenate([p[5] for p in parts]),
        file_index=np.concatenate([np.full(len(p[1]), p[6]) for p in parts]).astype(np.int64),
        files=files,
        reason=np.concatenate([p[7] for p in parts]),
        attributes=attributes,
        parcel_ref=np.concatenate(refs) if parcel_field else None,
        notes=notes,
    )
    # each file's type column judged on the file (a piece's: on the pieces together, by the
    # caller); kept by any subset of the markers
    return layer if piece else layer.judged()


def settle_dates(attrs: pd.DataFrame, rows: np.ndarray, path: str) -> list[str]:
    """In place, a whole marker file's attributes (of input rows ``rows``) with its survey
    dates read in the order the file gives (:mod:`posting.dates`: written year first where
    it is decided); the notes that says. (The partitioned run decides on the pieces'
    tallies together: :func:`posting.distributed._date_orders`.)

    Raises
    ------
    InputError
        A column whose dates are written day first in some rows, month first in others.
    """
    from posting import dates

    notes: list[str] = []
    for col in dates.date_columns(attrs.columns):
        t = dates.tally(attrs[col], rows)
        order = dates.decide(t, path, str(col))
        if order is not None:
            attrs[col] = dates.settle(attrs[col], order)
        notes.extend(dates.notes(t, order, path, str(col)))
    return notes


def _is_dataset(path: str | os.PathLike[str]) -> bool:
    from posting.dataset import is_dataset  # a folder of GeoParquet files, not of photos

    return is_dataset(path)


def parcel_values(layer: ParcelLayer, column: str, parameter: str) -> np.ndarray:
    """One parcel attribute as stripped, case-folded text (None where blank); ``parameter`` is
    the setting that named the column (for the error when it is missing)."""
    col = _require_column(layer.attributes, column, layer.source, parameter)
    text = pd.Series(layer.attributes[col], dtype="string").str.strip().str.casefold()
    out = np.full(len(text), None, dtype=object)
    ok = (text.notna() & (text != "")).to_numpy()
    out[ok] = text[ok].to_numpy(dtype=object)
    return out


NO_OWNER = frozenset(
    {
        "unknown",
        "owner unknown",
        "unknown owner",
        "unk",
        "n a",
        "na",
        "none",
        "no owner",
        "not available",
        "not known",
        "unavailable",
        "tbd",
        "null",
        "nan",
    }
)
"""Owner names, as :func:`posting.checks.content.normalise_text` writes them, that name no
owner (a county's ``UNKNOWN``, ``N/A``, ``NONE``): lots of such names are of no one known, and
never one property (``merge_owner``), nor adjoining lots of one owner."""


def known_owners(text: pd.Series) -> pd.Series:
    """Normalised owner names (:func:`posting.checks.content.normalise_text`) with those that
    name no owner (:data:`NO_OWNER`) left blank.

    >>> known_owners(pd.Series(["harney timber llc", "unknown", "n a", None])).tolist()
    ['harney timber llc', None, None, None]
    """
    text = pd.Series(text, dtype=object)
    return text.where(text.notna() & ~text.isin(NO_OWNER), None)


_INITIAL_DOT = re.compile(r"(?<![^\W_])([^\W\d_])\.(?=[^\W\d_](?![^\W_]))")
"""The dot after a single letter that another single letter follows at once (``L.L.C.``,
``J.R.``): the letters of one initialism, ``LLC``, ``JR``."""


_MAY_JOIN = re.compile(r"['\u2018\u2019\u02bc`\u00b4.]")
"""A name that may hold what :func:`owner_names` leaves out: an apostrophe or a dot."""


def owner_names(values: pd.Series) -> pd.Series:
    """Owner names as one owner's are written alike: as
    :func:`posting.checks.content.normalise_text` writes them (case, spaces and punctuation
    aside), an apostrophe left out rather than made a space (``O'BRIEN JOHN`` is
    ``OBRIEN JOHN``) and the dots of an initialism too (``L.L.C.`` is ``LLC``); those that
    name no owner (:data:`NO_OWNER`) blank. Only punctuation and spacing are overlooked:
    no word is left out, and words written apart stay apart (``MC DONALD`` is not
    ``MCDONALD``), for a merge of two owners' lots would leave their line unposted.

    >>> owner_names(pd.Series(["O'Brien, John", "OBRIEN JOHN", "Smith J.R. L.L.C.",
    ...                        "SMITH JR LLC", "N.A.", None])).tolist()
    ['obrien john', 'obrien john', 'smith jr llc', 'smith jr llc', None, None]
    """
    from posting.checks.content import APOSTROPHE, normalise_text

    text = pd.Series(values, dtype="string").reset_index(drop=True)
    # (only the names with an apostrophe or a dot: the two replacements of a county's 200,000
    # names took 0.35 s, the test of them 0.02 s)
    some = text.str.contains(_MAY_JOIN).fillna(False).to_numpy(dtype=bool)
    if some.any():
        text = text.copy()
        text[some] = (
            text[some]
            .str.replace(APOSTROPHE, "", regex=True)
            .str.replace(_INITIAL_DOT, r"\1", regex=True)
        )
    return known_owners(normalise_text(text))


def owner_keys(layer: ParcelLayer, column: str, parameter: str) -> np.ndarray:
    """The owner column ``column`` as the key that tells one owner from another (None where
    blank): names compared as :func:`owner_names` writes them (case, spaces and punctuation
    aside). ``HARNEY  TIMBER, LLC`` and ``Harney Timber LLC`` are one owner.

    >>> layer = ParcelLayer.from_geometries([None] * 3, "EPSG:4326",
    ...     owners=["Harney Timber, LLC", " HARNEY  TIMBER LLC", "Burke"])
    >>> layer = dataclasses.replace(layer, attributes=pd.DataFrame({"owner": layer.owners}))
    >>> owner_keys(layer, "owner", "merge_owner").tolist()
    ['harney timber llc', 'harney timber llc', 'burke']
    """
    values = parcel_values(layer, column, parameter)
    text = owner_names(pd.Series(values, dtype=object))
    out = np.full(len(values), None, dtype=object)
    ok = text.notna().to_numpy()
    out[ok] = text[ok].to_numpy(dtype=object)
    return out


_IN = re.compile(r"^\s*(?P<col>[^=()]+?)\s+in\s*\((?P<vals>.*)\)\s*$", re.IGNORECASE)


def parse_where(expression: str, parameter: str) -> tuple[str, set[str]]:
    """``COL=V1,V2,...`` or ``COL in ('V1', 'V2')`` to a column and its values (case-folded);
    a value with ``*`` (any text) or ``?`` (one character) is a pattern (:func:`where_match`).

    Examples
    --------
    >>> col, values = parse_where("WETLAND_TY in ('Lake','Freshwater Pond')", "water_where")
    >>> col, sorted(values)
    ('WETLAND_TY', ['freshwater pond', 'lake'])
    >>> col, values = parse_where("LUCat=O-SFD, R-SFD", "dwelling_where")
    >>> col, sorted(values)
    ('LUCat', ['o-sfd', 'r-sfd'])
    """
    m = _IN.match(expression)
    if m:
        column = m["col"].strip()
        values = [v.strip().strip("'\"").strip() for v in m["vals"].split(",")]
    else:
        column, sep, rest = expression.partition("=")
        column = column.strip()
        values = [v.strip().strip("'\"").strip() for v in rest.split(",")] if sep else []
    wanted = {v.casefold() for v in values if v}
    if not column or not wanted:
        raise InputError(
            f"{{option}}: expected COL=V1,V2,... or COL in ('V1','V2'), not {expression!r}",
            parameter=parameter,
        )
    return column, wanted


_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$")


def _text_of(value: Any) -> str:
    """A value's text, stripped and case-folded; a decimal that is a whole number's as the
    whole number (``1.0``: ``1``), so that a column of decimals matches as one of integers
    does, patterns too."""
    if isinstance(value, float | np.floating) and np.isfinite(value) and float(value).is_integer():
        return str(int(value))
    return str(value).strip().casefold()


def where_match(values: Any, wanted: set[str]) -> np.ndarray:
    """Which ``values`` (a column as read; None, NA or spaces for blank) are among ``wanted``
    (:func:`parse_where`'s, case-folded): stripped and case-folded, equal to one, or matching
    one with ``*`` or ``?`` as a shell pattern does (``sign*``: ``SIGN 12``, ``sign-nt``;
    ``irf?``). A number (a column read as integers or decimals, not text) also matches a
    wanted number of the same value (``code=1`` chooses ``1.0``, ``1.50`` chooses ``1.5``),
    and a decimal that is a whole number matches patterns as the whole number does (``1*``:
    ``12.0``; ``*0``: not ``1.0``); text is compared as text (``01`` is not ``1``). Each
    distinct value is read once.

    Examples
    --------
    >>> where_match(["SIGN 12", " sign", "IRF", None, "no sign"], {"sign*"}).tolist()
    [True, True, False, False, False]
    >>> where_match(["Lake", "pond", "lakes"], {"lake", "p?nd"}).tolist()
    [True, True, False]
    >>> where_match([1.0, 2.0, float("nan"), 1.5, "1.0", "01"], {"1", "1.50"}).tolist()
    [True, False, False, True, False, False]
    """
    codes, uniques = pd.factorize(pd.Series(values, dtype=object))
    patterns = [re.compile(fnmatch.translate(w), re.DOTALL) for w in wanted if "*" in w or "?" in w]
    numbers = [decimal.Decimal(w) for w in wanted if _NUMBER.match(w)]

    def hit(value: Any) -> bool:
        text = _text_of(value)
        if text != "" and (text in wanted or any(p.match(text) for p in patterns)):
            return True
        if isinstance(value, bool | np.bool_):
            return False
        if isinstance(value, int | np.integer):  # exactly, however large
            return any(n == int(value) for n in numbers)
        if isinstance(value, decimal.Decimal):  # a column of Arrow's decimals
            return value.is_finite() and any(n == value for n in numbers)
        if isinstance(value, float | np.floating):  # as the wanted text reads as a decimal
            return any(float(n) == float(value) for n in numbers)
        return False

    hits = np.array([hit(u) for u in uniques] + [False], dtype=bool)
    return hits[codes]  # (code -1, a blank: the last, False)


def parcel_where(layer: ParcelLayer, expression: str, parameter: str) -> np.ndarray:
    """Parcels selected by ``COL=V1,V2,...`` (values matched case-insensitively, ``*`` and
    ``?`` as patterns: :func:`where_match`).

    Examples
    --------
    >>> import shapely
    >>> lay = ParcelLayer.from_geometries([shapely.box(0, 0, 1, 1)] * 3, "EPSG:32617")
    >>> lay.attributes["LUCat"] = ["R-SFD", "vacant", "o-sfd"]
    >>> parcel_where(lay, "lucat=O-SFD, R-SFD", "dwelling_where").tolist()
    [True, False, True]
    """
    column, wanted = parse_where(expression, parameter)
    col = _require_column(layer.attributes, column, layer.source, parameter)
    return where_match(layer.attributes[col], wanted)  # as read: numbers match as numbers


@dataclass
class FeatureLayer:
    """A context layer (access features, land cover, ...): geometry in its own CRS, and one
    attribute per feature (``values``: text, None where blank or where the layer has no such
    column)."""

    source: str
    geometry: np.ndarray
    crs: CRS
    values: np.ndarray
    field: str | None = None
    notes: list[str] = dataclasses.field(default_factory=list)
    """Warnings about the file as a whole (read as Latin-1, rings closed), each with its path."""
    left_out: dict[int, str] = dataclasses.field(default_factory=dict)
    """Row of the file (from 0) of each feature whose geometry cannot be used, and why; its
    ``geometry`` is None (:func:`unusable_features`)."""
    repaired: dict[int, str] = dataclasses.field(default_factory=dict)
    """Row of the file of each polygon that is not valid, and why (:func:`invalid_polygons`);
    it is made valid where it is measured (:func:`posting.land.usable`)."""
    cover: Any = None
    """Of a land-cover layer, what its column's values say (:class:`posting.cover.CoverValues`,
    for :func:`posting.cover.refuse_unread`), else None."""
    _lonlat: np.ndarray | None = dataclasses.field(
        default=None, init=False, repr=False, compare=False
    )
    """:meth:`lonlat_bounds`, once found (a layer made anew, as by ``dataclasses.replace``,
    finds its own)."""

    def __len__(self) -> int:
        return len(self.geometry)

    def warnings(self) -> list[str]:
        """What the report says of this layer (:func:`feature_warnings`)."""
        return feature_warnings(
            self.source,
            self.notes,
            left_out_summary(self.left_out),
            left_out_summary(self.repaired),
        )

    def lonlat_bounds(self) -> np.ndarray:
        """(west, south, east, north) of each feature in WGS 84 (NaN where empty).

        From the corners and the middles of the sides of its box: in a projected CRS grid
        east is not true east (a Lambert zone's, 1.1 degrees off at 82.2 W in Florida North),
        so the two corners of a lake 10 miles wide put its far end 1,100 ft north of where it
        lies. A point its CRS cannot place (NaN, infinite) is left out of the box. Found once
        (each working frame of a run asks for it: :func:`posting.land.layer_in_group`).
        """
        if self._lonlat is None:
            self._lonlat = self._find_lonlat_bounds()
            self._lonlat.flags.writeable = False
        return self._lonlat

    def _find_lonlat_bounds(self) -> np.ndarray:
        from posting.crs import every_ring_bounds, lon_range, to_lonlat

        # (a polygon's hole outside its shell, made valid where measured, is a part of it)
        x0, y0, x1, y1 = every_ring_bounds(self.geometry, shapely.bounds(self.geometry)).T
        xm, ym = (x0 + x1) / 2, (y0 + y1) / 2
        n = len(x0)
        lon, lat = to_lonlat(
            np.concatenate([x0, x1, x0, x1, xm, xm, x0, x1]),
            np.concatenate([y0, y0, y1, y1, y0, y1, ym, ym]),
            self.crs,
        )
        lon, lat = lon.reshape(8, n), lat.reshape(8, n)
        lost = ~(np.isfinite(lon) & np.isfinite(lat))
        lon, lat = np.where(lost, np.nan, lon), np.where(lost, np.nan, lat)
        west, east = lon_range(lon)  # (the short way round: a lake across 180 as it lies)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all NaN: an empty geometry
            return (
                np.column_stack([west, np.nanmin(lat, axis=0), east, np.nanmax(lat, axis=0)])
                if n
                else np.empty((0, 4))
            )


def read_features(
    path: str | os.PathLike[str],
    *,
    field: str | None = None,
    default_field: str | Sequence[str] | None = None,
    crs: str | CRS | None = None,
    field_parameter: str = "field",
    where: str | None = None,
    where_parameter: str = "where",
    casefold: bool = True,
    prefetch: Prefetch | None = None,
    no_polygons: str | None = None,
    classes: Sequence[tuple[str, set[str], str]] = (),
    cover: bool = False,
) -> FeatureLayer:
    """Read a context layer and one attribute of it.

    ``field`` must exist when given (an error names the columns); ``default_field`` (a name,
    or names in order of preference) is used when present. Values are stripped text,
    case-folded unless ``casefold`` is false; blanks are None. ``where`` (``COL=V1,V2`` or
    ``COL in ('V1','V2')``) keeps only the matching features. ``field_parameter`` and
    ``where_parameter`` name the settings that gave ``field`` and ``where`` (for errors).
    ``prefetch``: as for :func:`read_layer` (a piece of the layer, on the partitioned path).
    ``no_polygons``: why the layer's polygons are left out (a layer of lines and points),
    warned of with their rows as other features left out are. ``classes``: ``(name, values,
    parameter)``, the values (:func:`parse_where`'s) that make a feature's value ``name``
    (:func:`posting.cover.classified`: a land cover's forest land by ``forest_where``).
    ``cover``: tally the column's values as read (:attr:`FeatureLayer.cover`).
    """
    lay = read_layer(path, crs=crs, kind="features", prefetch=prefetch)
    rows = np.arange(len(lay), dtype=np.int64)
    if where:
        column, wanted = parse_where(where, where_parameter)
        col = _require_column(lay.frame, column, lay.path, where_parameter)
        keep = where_match(lay.frame[col], wanted)
        frame = lay.frame[keep].reset_index(drop=True)
        lay = Layer(lay.path, frame, lay.geometry[keep], lay.crs, lay.problems, notes=lay.notes)
        rows = rows[keep]
    col = None
    if field:
        col = _require_column(lay.frame, field, lay.path, field_parameter)
    elif default_field:
        names = [default_field] if isinstance(default_field, str) else list(default_field)
        col = _column(lay.frame, [n.lower() for n in names])
    values = np.full(len(lay), None, dtype=object)
    if col is not None:
        text = pd.Series(lay.frame[col], dtype="string").str.strip()
        text = text.str.casefold() if casefold else text
        ok = text.notna() & (text != "")
        values[ok.to_numpy()] = text[ok].to_numpy(dtype=object)
    tally = None
    if col is not None and (classes or cover):
        from posting.cover import CoverValues, classified

        if classes:
            values = classified(lay.frame[col], values, classes, lay.path, str(col))
        tally = CoverValues.of(lay.frame[col]) if cover else None
    geometry = np.asarray(lay.geometry, dtype=object)
    why = unusable_features(geometry, lay.crs)
    if no_polygons:
        areal = np.isin(shapely.get_type_id(geometry), (3, 6))  # (None: -1)
        why[areal & (why == None)] = no_polygons  # noqa: E711  (elementwise)
    if lay.problems:  # rows whose geometry cannot be read (None), if kept
        read = np.fromiter(lay.problems, dtype=np.int64, count=len(lay.problems))
        at = np.minimum(np.searchsorted(rows, read), max(len(rows) - 1, 0))
        kept = rows[at] == read if len(rows) else np.zeros(len(read), dtype=bool)
        why[at[kept]] = [lay.problems[int(r)] for r in read[kept]]
    bad = np.flatnonzero(why != None)  # noqa: E711  (elementwise)
    if len(bad):
        geometry = geometry.copy()
        geometry[bad] = None
    invalid = invalid_polygons(geometry)
    fixed = np.flatnonzero(invalid != None)  # noqa: E711  (elementwise)
    return FeatureLayer(
        lay.path,
        geometry,
        lay.crs,
        values,
        None if col is None else str(col),
        cover=tally,
        notes=list(lay.notes),
        left_out=dict(zip(rows[bad].tolist(), why[bad].tolist(), strict=True)),
        repaired=dict(zip(rows[fixed].tolist(), invalid[fixed].tolist(), strict=True)),
    )


def polygons_not_valid(geometry: np.ndarray) -> np.ndarray:
    """True for each polygon, multipolygon or collection GEOS calls not valid (a bowtie, a
    ring collapsed to a line), which GEOS's operations may refuse until made valid.

    >>> from shapely import LineString, Polygon, box
    >>> bowtie = Polygon([(0, 0), (2, 2), (2, 0), (0, 2)])
    >>> polygons_not_valid(np.array([box(0, 0, 1, 1), bowtie, None, LineString([(1, 1), (1, 1)])]))
    array([False,  True, False, False])
    """
    polygonal = np.isin(shapely.get_type_id(geometry), (3, 6, 7))
    polygonal[polygonal] = ~shapely.is_valid(geometry[polygonal])
    return polygonal


def invalid_polygons(geometry: np.ndarray) -> np.ndarray:
    """Why each polygon (or collection) that is not valid is not, in GEOS's words without the
    place (None for every other geometry).

    Examples
    --------
    >>> from shapely import LineString, Polygon, box
    >>> bowtie = Polygon([(0, 0), (2, 2), (2, 0), (0, 2)])
    >>> invalid_polygons(np.array([box(0, 0, 1, 1), bowtie, None, LineString([(1, 1), (1, 1)])]))
    array([None, 'Self-intersection', None, None], dtype=object)
    """
    why = np.full(len(geometry), None, dtype=object)
    bad = np.flatnonzero(polygons_not_valid(geometry))
    if len(bad):
        said = shapely.is_valid_reason(geometry[bad])
        why[bad] = [r.split("[", 1)[0].strip() for r in said]
    return why


def unusable_features(geometry: np.ndarray, crs: CRS) -> np.ndarray:
    """Why each context feature's geometry cannot be used (None where it can): it has none,
    a coordinate is not a number or not finite, it is not on the Earth (a latitude beyond
    90 degrees or a longitude beyond 360, or in a projected CRS a coordinate beyond
    :data:`FARTHEST_FT`, or one its CRS cannot place), or a vertex of it is a stray (a
    coordinate typed wrong: :func:`posting.strays.find_strays`).

    Examples
    --------
    >>> from shapely import LineString, Point
    >>> g = np.array([Point(1, 2), None, LineString([(0, 0), (np.inf, 1)]), Point(10, 95)])
    >>> unusable_features(g, WGS84).tolist()  # doctest: +NORMALIZE_WHITESPACE
    [None, 'no geometry', 'a coordinate is not a number or not finite',
     'not on the Earth: a latitude beyond 90 degrees or a longitude beyond 360']
    """
    why = np.full(len(geometry), None, dtype=object)
    if not len(geometry):
        return why
    why[shapely.is_missing(geometry) | shapely.is_empty(geometry)] = "no geometry"
    xy, which = shapely.get_coordinates(geometry, return_index=True)
    finite = np.isfinite(xy).all(axis=1)
    if crs.is_geographic:
        beyond = _beyond_any_angle(xy)
        off = "not on the Earth: a latitude beyond 90 degrees or a longitude beyond 360"
    else:
        from posting.crs import FT_M, _feet_per_unit

        beyond = (np.abs(xy) > FARTHEST_FT / _feet_per_unit(crs)).any(axis=1)
        off = f"not on the Earth: a coordinate beyond {FARTHEST_FT * FT_M:,.0f} m in {crs.name}"
    why[np.unique(which[finite & beyond])] = off
    why[np.unique(which[~finite])] = "a coordinate is not a number or not finite"
    rest = np.flatnonzero(why == None)  # noqa: E711  (elementwise)
    if len(rest) and crs != WGS84:  # where the CRS's own projection gives up
        from posting.crs import to_lonlat

        b = shapely.bounds(geometry[rest])
        lon, lat = to_lonlat(np.r_[b[:, 0], b[:, 2]], np.r_[b[:, 1], b[:, 3]], crs)
        lost = ~(np.isfinite(lon) & np.isfinite(lat)).reshape(2, -1).all(axis=0)
        why[rest[lost]] = f"not on the Earth: beyond where {crs.name} can place it"
        rest = rest[~lost]
    if len(rest):
        why[rest[find_strays(geometry[rest], crs).rows]] = STRAY_FEATURE
    return why


LeftOut = dict[str, tuple[int, list[int]]]
"""Features left out of a layer, by why: how many, and the first ten rows (in order)."""


def left_out_summary(left_out: dict[int, str], *, offset: int = 0) -> LeftOut:
    """``left_out`` (row and why; each row plus ``offset``) by why, in the order of each
    reason's first row: how many, and the first ten rows.

    >>> left_out_summary({7: "none", 3: "none", 5: "odd"}, offset=100)
    {'none': (2, [103, 107]), 'odd': (1, [105])}
    """
    if not left_out:
        return {}
    why = pd.Series(list(left_out.values()), index=list(left_out), dtype=object).sort_index()
    return {
        w: (len(rows), (rows.index[:10] + offset).tolist())
        for w, rows in why.groupby(why, sort=False)
    }


def merged_left_out(parts: Iterable[LeftOut]) -> LeftOut:
    """Summaries of the pieces of one layer (:func:`left_out_summary`, with their offsets) as
    the summary of the whole.

    >>> merged_left_out([{"none": (3, [1, 2, 9])}, {"odd": (1, [4]), "none": (1, [5])}])
    {'none': (4, [1, 2, 5, 9]), 'odd': (1, [4])}
    """
    out: LeftOut = {}
    for part in parts:
        for why, (n, rows) in part.items():
            count, first = out.get(why, (0, []))
            out[why] = (count + n, sorted(first + rows)[:10])
    return dict(sorted(out.items(), key=lambda item: item[1][1][0]))


def feature_warnings(
    source: str, notes: Sequence[str], left_out: LeftOut, repaired: LeftOut | None = None
) -> list[str]:
    """A context layer's warnings: its ``notes``, then the features left out (by why:
    :func:`left_out_summary`), then the polygons made valid to be measured (``repaired``, the
    same way), one line for each of the first five reasons, each with its first rows.

    Examples
    --------
    >>> left = left_out_summary({7: "none", 3: "none", 5: "odd"})
    >>> fixed = left_out_summary({4: "Self-intersection"})
    >>> for w in feature_warnings("w.gpkg", ["w.gpkg: note"], left, fixed):
    ...     print(w)
    w.gpkg: note
    w.gpkg: 2 feature(s) left out (rows 3, 7): none
    w.gpkg: 1 feature(s) left out (row 5): odd
    w.gpkg: 1 polygon(s) not valid, made valid to be measured (row 4): Self-intersection
    """
    out = list(notes)
    for summary, said in (
        (left_out, "feature(s) left out"),
        (repaired or {}, "polygon(s) not valid, made valid to be measured"),
    ):
        for k, (why, (n, rows)) in enumerate(summary.items()):
            if k == 5:
                more = sum(c for c, _ in list(summary.values())[5:])
                out.append(f"{source}: {more:,} more {said} for other reasons")
                break
            shown = ", ".join(str(r) for r in rows) + (", ..." if n > len(rows) else "")
            word = "row" if n == 1 else "rows"
            out.append(f"{source}: {n:,} {said} ({word} {shown}): {why}")
    return out


def write_text(
    path: str | os.PathLike[str],
    text: str | bytes | Iterable[str] | Iterable[bytes | memoryview],
) -> None:
    """Write ``text`` (a string, or the pieces of one; bytes-like pieces are UTF-8) whole or
    not at all: to stdout for ``-``, else via a temporary file.

    The temporary file sits beside the target and replaces it in one rename, so a reader never
    sees half a report and an interrupted run leaves the old file in place. A target that is a
    symbolic link is followed (:func:`posting.outputs.real_target`): the file it points to is
    written and the link kept.
    """
    path = os.fspath(path)
    pieces = [text] if isinstance(text, str | bytes) else text
    encoded = (p.encode() if isinstance(p, str) else p for p in pieces)
    if path == "-":
        sys.stdout.flush()
        out = getattr(sys.stdout, "buffer", None)
        write = out.write if out is not None else (lambda b: sys.stdout.write(bytes(b).decode()))
        last = b""
        for piece in encoded:
            write(piece)
            last = piece or last
        if bytes(last[-1:]) != b"\n":
            write(b"\n")
        (out or sys.stdout).flush()
        return
    from posting.outputs import beside, real_target

    target = real_target(path)
    directory = target.parent
    if not directory.is_dir():
        raise InputError(f"{path}: folder {directory} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=beside(target.name), suffix=".tmp", dir=directory)
    umask = os.umask(0)
    os.umask(umask)
    os.fchmod(fd, 0o666 & ~umask)  # mkstemp makes the file private; outputs are ordinary files
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.writelines(encoded)
            fh.flush()
            os.fsync(fh.fileno())  # (on the disk before its new name is: a power cut)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
