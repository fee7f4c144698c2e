"""Working coordinate reference systems: every figure is measured in feet on a local projection.

Nothing is ever measured in degrees or in a projection that distorts lengths (Web Mercator
overstates a 500 ft gap by 1/cos(latitude): about 14 % in Florida, 41 % at 45°N). The rule:

* a projected input CRS is kept when its scale factor stays within ``MAX_SCALE_ERROR`` of 1
  everywhere over the data (State Plane zones are built for 1:10,000 at worst, so a surveyor's
  State Plane layer is measured in its own coordinates, grid distances within 0.05 ft in 500 ft
  of the ground's; a UTM layer, 1:2,500 short near its central meridian, is not kept there);
* otherwise the parcels are grouped by the UTM zone of their centre, and each group is measured
  on a low-distortion projection: a transverse Mercator (WGS 84) with scale 1 on a central
  meridian through the middle of the group's parcels. Its scale error grows with the square of
  the distance from that meridian: 0.00005 % at 5 miles, 0.005 % at 30 miles, 0.1 % only at the
  edge of a full 6° zone. A UTM zone itself would be off by 0.04 % on its central meridian (a
  600 ft lot measures 599.76 ft); the low-distortion projection is what surveyors use for ground
  distances. A dataset that spans zones is measured in one such projection per zone.

Those are lengths on the ellipsoid (sea level). The statutes' feet are on the ground, which at
an elevation ``h`` above the ellipsoid is longer by the **elevation factor** ``(R + h) / R``
(``R`` the Gaussian mean radius at the land's latitude, about 20.9 million feet): 2.5e-4 at
5,280 ft (500 ft measures 499.87 ft), more than the scale error a kept CRS may have. Given the
land's elevation (``elevation_ft``), the local transverse Mercator takes that factor as its
scale on the central meridian (``k_0``, a surveyor's low-distortion projection, grid = ground)
and no input CRS is kept: every length, position and area is then a ground figure, and a
position computed in the frame (a planned marker) goes back to its true longitude and latitude
through the frame's own inverse.

Internally, coordinates are scaled to **international feet** (0.3048 m) after projection, so every
length and distance in the engine is in feet whatever the CRS unit: metres, feet or US survey
feet (1200/3937 m; the two feet differ by 2 parts per million).
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import shapely
from pyproj import CRS, Geod, Proj, Transformer
from pyproj.exceptions import CRSError as PyprojCRSError
from pyproj.exceptions import ProjError

from posting.errors import CRSError
from posting.index import unique_ints
from posting.parallel import pmap

__all__ = [
    "FT_M",
    "MAX_SCALE_ERROR",
    "UNITS_M",
    "UNIT_PLURALS",
    "WGS84",
    "WorkingCRS",
    "azimuth_deg",
    "crs_of",
    "elevation_factor",
    "from_lonlat",
    "gaussian_radius_ft",
    "geodesic_ft",
    "group_box",
    "local_tm",
    "lon_meets",
    "lon_range",
    "lonlat_box",
    "lonlat_margin_deg",
    "parse_crs",
    "plan_working_crs",
    "projected_area_of_use",
    "same_zone",
    "stakeout_zones",
    "to_lonlat",
    "unit_ratios",
    "zone_frame",
]

FT_M = 0.3048
"""Length of the international foot in metres."""

MAX_SCALE_ERROR = 1e-4
"""Largest departure of a projected input CRS's scale factor from 1 (0.01 %, 1:10,000: the
limit State Plane zones are designed to, 0.05 ft in 500 ft) for it to be kept. UTM's 0.9996 on
its central meridian (1:2,500: 500.15 ft on the ground measured as 499.95 ft) is not."""

UNITS_M = (("metres", 1.0), ("feet", FT_M), ("US survey feet", 1200 / 3937))
"""The length units a projected file's numbers may be in, whatever its CRS says, with their
length in metres: :func:`posting.sanity.unit_counts` tries each (its columns, in this order)."""


UNIT_PLURALS = {
    "metre": "metres",
    "foot": "feet",
    "US survey foot": "US survey feet",
    "link": "links",
}
"""Length units' names in the plural, as messages and labels say them."""

WGS84 = CRS.from_epsg(4326)
_GEOD = Geod(ellps="WGS84")


def gaussian_radius_ft(lat: float) -> float:
    """The Gaussian mean radius of the WGS 84 ellipsoid at latitude ``lat`` (degrees), in feet:
    ``sqrt(M N)``, ``M`` the radius of curvature in the meridian and ``N`` in the prime vertical
    (GRS 80's is the same to a millimetre).

    >>> round(gaussian_radius_ft(39.74))  # Denver: 6,374.19 km
    20912705
    """
    a, f = _GEOD.a, _GEOD.f
    e2 = f * (2 - f)
    w = 1 - e2 * np.sin(np.radians(lat)) ** 2
    return float(a * np.sqrt(1 - e2) / w / FT_M)


def elevation_factor(elevation_ft: float, lat: float) -> float:
    """How much longer a length on the ground at ``elevation_ft`` above the ellipsoid is than
    its projection on the ellipsoid, at latitude ``lat``: ``(R + h) / R``
    (:func:`gaussian_radius_ft`). The geoid lies within 200 ft of the ellipsoid in the United
    States, so a height above sea level gives the factor to better than 1e-5.

    >>> round(elevation_factor(5280.0, 39.74), 7)  # Denver: 500 ft on the ground, 499.874 ft
    1.0002525
    >>> elevation_factor(0.0, 39.74)
    1.0
    """
    h = float(elevation_ft)
    if h == 0:
        return 1.0
    r = gaussian_radius_ft(lat)
    return (r + h) / r


@lru_cache(maxsize=64)
def crs_of(srs: str) -> CRS:
    """One CRS object per definition (``srs``: WKT, PROJJSON text, ``EPSG:n``) in a process:
    pyproj parses a CRS afresh the first time each new object is used (15 ms for a GeoParquet
    file's PROJJSON), and a state's pieces, each read on its own, and every file a dask task
    loads from its scratch folder, would otherwise each bring new ones (the benchmark county:
    several hundred parsings of the same two or three CRSs per worker)."""
    return CRS(srs)


def pyproj_reason(exc: Exception) -> str:
    """pyproj's words for ``exc`` without PROJ's own log line.

    pyproj appends ``: (Internal Proj Error: ...)`` only when a process-wide slot still holds
    PROJ's last message, which another thread may have cleared meanwhile: the same mistake read
    one way in one process and another way in a dask worker. The head is the same everywhere.
    """
    return str(exc).split(": (Internal Proj Error:", 1)[0]


def parse_crs(value: str | int | CRS, *, parameter: str = "crs", projected: bool = False) -> CRS:
    """Parse a user-given CRS (``EPSG:2236``, ``2236``, WKT, PROJ string); ``parameter`` is the
    setting that gave it (for the error); ``projected``: the setting takes a projected CRS
    only (a point file's northings and eastings), and the error offers no geographic one.

    Raises
    ------
    CRSError
        When pyproj does not recognise the value, or it is not a CRS of places on a map (a
        geocentric, vertical or engineering one: the layer's numbers would be placed at
        random, every parcel "invalid" with a reason of nonsense).
    """
    if isinstance(value, CRS):
        return value
    text = str(value).strip()
    if text.isdigit():
        text = f"EPSG:{text}"
    try:
        crs = CRS.from_user_input(text)
    except PyprojCRSError as exc:
        raise CRSError(
            f"{{option}}: {value!r} is not a CRS pyproj knows ({pyproj_reason(exc)})",
            parameter=parameter,
        ) from None
    if not (crs.is_geographic or crs.is_projected):
        geographic = "" if projected else " or a geographic one (EPSG:4326 for longitude/latitude)"
        raise CRSError(
            f"{{option}}: {value!r} is a {crs.type_name.removesuffix(' CRS').lower()} CRS "
            f"({crs.name}), not one of "
            "places on a map: give a projected CRS (State Plane, UTM: EPSG:2236 for Florida "
            f"East, US survey feet){geographic}",
            parameter=parameter,
        )
    return crs


def _transformer(src: CRS, dst: CRS) -> Transformer:
    """A transformer from ``src`` to ``dst`` (x = longitude), cached.

    The cache is keyed by each CRS's definition as given (``srs``) as well as the CRS: pyproj
    calls ``+proj=tmerc +approx ...`` and the exact ``+proj=tmerc ...`` equal (their WKT is the
    same), yet they transform differently (by 5 ft 21 degrees from the meridian), so a key of
    the CRS alone would hand one the other's transformer.
    """
    return _cached_transformer(src, src.srs, dst, dst.srs)


@lru_cache(maxsize=64)
def _cached_transformer(src: CRS, src_srs: str, dst: CRS, dst_srs: str) -> Transformer:
    return Transformer.from_crs(src, dst, always_xy=True)


def projected_area_of_use(crs: CRS) -> tuple[float, float, float, float] | None:
    """The box of a projected CRS's area of use in its own coordinates (x0, y0, x1, y1), or
    None where the CRS gives none (or one across the antimeridian, or one that does not
    project).

    >>> [round(v / 1e3) for v in projected_area_of_use(CRS.from_epsg(2236))]  # Florida East
    [214, 28, 999, 2364]
    """
    return _projected_area_of_use(crs, crs.srs)


@lru_cache(maxsize=64)
def _projected_area_of_use(crs: CRS, srs: str) -> tuple[float, float, float, float] | None:
    area = crs.area_of_use if crs.is_projected else None
    if area is None or area.west > area.east:
        return None
    try:
        t = Transformer.from_crs(crs.geodetic_crs, crs, always_xy=True)
        box = t.transform_bounds(area.west, area.south, area.east, area.north, densify_pts=21)
    except (PyprojCRSError, ProjError):
        return None
    return tuple(float(v) for v in box) if np.isfinite(box).all() else None


def _transform(t: Transformer, x: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    """``t.transform(x, y)`` on all cores (PROJ releases the GIL; pyproj transformers are
    thread-safe): 1.6 times as fast on two cores for a county's two million vertices."""

    def one(u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        a, b = t.transform(u, v, errcheck=False)
        return np.asarray(a, dtype=float), np.asarray(b, dtype=float)

    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.ndim == 1 and x.shape == y.shape:
        return pmap(one, x, y)
    return one(x, y)


def _transform_geoms(geoms: np.ndarray, fn: Any) -> np.ndarray:
    """``shapely.transform`` in chunks on all cores, in two dimensions: ``fn`` takes and
    returns (n, 2) arrays, and a Z value (which no length here uses) is dropped."""
    return pmap(shapely.transform, geoms, fn, include_z=False)


def _feet_per_unit(crs: CRS) -> float:
    axis = crs.axis_info[0] if crs.axis_info else None
    if axis is None or axis.unit_conversion_factor in (None, 0):
        raise CRSError(f"{crs.name}: the CRS does not say its length unit")
    return float(axis.unit_conversion_factor) / FT_M


@dataclass(frozen=True)
class WorkingCRS:
    """A projected CRS in which lengths are measured, scaled to international feet.

    Parameters
    ----------
    crs
        The projected CRS.
    name
        Its label, when not the CRS's own name.
    elevation_ft, elevation_factor
        The elevation whose ground lengths the CRS measures, and the factor by which its scale
        exceeds the ellipsoid's for that (built into the CRS itself:
        :func:`local_tm`); 0 and 1 for a CRS of lengths on the ellipsoid (or grid lengths).

    Examples
    --------
    >>> w = WorkingCRS(CRS.from_epsg(2236))
    >>> round(w.ft_per_unit, 7)  # US survey feet
    1.000002
    """

    crs: CRS
    name: str | None = None
    elevation_ft: float = 0.0
    elevation_factor: float = 1.0
    ft_per_unit: float = field(init=False)

    def __post_init__(self) -> None:
        if not self.crs.is_projected:
            raise CRSError(
                f"{self.crs.name} is not projected: lengths are never measured in degrees"
            )
        object.__setattr__(self, "ft_per_unit", _feet_per_unit(self.crs))

    @property
    def label(self) -> str:
        """``EPSG:2236 (NAD83 / Florida East (ftUS))``, or the given name; a CRS without a
        name (a PROJ string's is ``unknown``) by its projection, datum and unit.

        >>> WorkingCRS(CRS("+proj=tmerc +lon_0=-81 +datum=NAD83 +to_meter=0.201168")).label
        'unnamed Transverse Mercator CRS on North American Datum 1983, in links'
        """
        if self.name:
            return self.name
        code = self.crs.to_epsg()
        if code:
            return f"EPSG:{code} ({self.crs.name})"
        op = self.crs.coordinate_operation
        if self.crs.name in ("", "unknown") and op is not None:
            datum = self.crs.datum.name if self.crs.datum else "an unknown datum"
            unit = UNIT_PLURALS.get(self.unit_name, self.unit_name)
            return f"unnamed {op.method_name} CRS on {datum}, in {unit}"
        return self.crs.name

    @property
    def unit_name(self) -> str:
        """The CRS's own length unit, e.g. ``metre`` or ``US survey foot``."""
        return self.crs.axis_info[0].unit_name

    def xy_to_ft(self, x: np.ndarray, y: np.ndarray, src: CRS) -> tuple[np.ndarray, np.ndarray]:
        """Project coordinates from ``src`` into this CRS, in feet."""
        if src == self.crs:
            xp, yp = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        else:
            try:
                xp, yp = _transform(_transformer(src, self.crs), x, y)
            except ProjError as exc:  # pragma: no cover - pyproj only raises with errcheck
                raise CRSError(
                    f"cannot project from {src.name} to {self.crs.name}: {exc}"
                ) from None
        k = self.ft_per_unit
        return np.asarray(xp, dtype=float) * k, np.asarray(yp, dtype=float) * k

    def geoms_to_ft(self, geoms: np.ndarray, src: CRS) -> np.ndarray:
        """Project shapely geometries from ``src`` into this CRS, in feet.

        Coordinates that cannot be projected come back as NaN or infinity; callers test
        the result with :func:`finite_geometry`.
        """

        def fn(xy: np.ndarray) -> np.ndarray:
            x, y = self.xy_to_ft(xy[:, 0], xy[:, 1], src)
            return np.column_stack([x, y])

        # by chunks of geometries on all cores: GEOS copies them, PROJ moves the vertices
        return _transform_geoms(np.asarray(geoms, dtype=object), fn)

    def ft_to_lonlat(self, x_ft: np.ndarray, y_ft: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Working coordinates in feet back to WGS 84 longitude and latitude."""
        k = self.ft_per_unit
        lon, lat = _transform(
            _transformer(self.crs, WGS84),
            np.asarray(x_ft, dtype=float) / k,
            np.asarray(y_ft, dtype=float) / k,
        )
        return np.asarray(lon, dtype=float), np.asarray(lat, dtype=float)

    def geoms_ft_to_lonlat(self, geoms: np.ndarray) -> np.ndarray:
        """Shapely geometries in working feet back to WGS 84 longitude/latitude."""

        def fn(xy: np.ndarray) -> np.ndarray:
            lon, lat = self.ft_to_lonlat(xy[:, 0], xy[:, 1])
            return np.column_stack([lon, lat])

        return pmap(shapely.transform, np.asarray(geoms, dtype=object), fn, include_z=False)


def azimuth_deg(
    lon0: np.ndarray, lat0: np.ndarray, lon1: np.ndarray, lat1: np.ndarray
) -> np.ndarray:
    """Geodesic azimuth from each first point to each second, degrees clockwise from true north.

    Examples
    --------
    >>> azimuth_deg(np.array([-81.0, -81.0]), np.array([28.0, 28.0]),
    ...             np.array([-81.0, -80.99]), np.array([28.01, 28.0])).round(3).tolist()
    [0.0, 89.998]
    """
    fwd, _, _ = _GEOD.inv(lon0, lat0, lon1, lat1)
    return np.mod(np.asarray(fwd, dtype=float), 360.0)


def geodesic_ft(
    lon0: np.ndarray, lat0: np.ndarray, lon1: np.ndarray, lat1: np.ndarray
) -> np.ndarray:
    """Geodesic distance (ft, on WGS 84) from each first point to each second (NaN where a
    point is NaN).

    >>> geodesic_ft(np.array([0.0]), np.array([0.0]), np.array([1.0]), np.array([0.0])).round()
    array([365221.])
    """
    with np.errstate(invalid="ignore"):
        _, _, metres = _GEOD.inv(lon0, lat0, lon1, lat1)
    return np.asarray(metres, dtype=float) / FT_M


def lonlat_margin_deg(distance_ft: float, south: float, north: float) -> float:
    """Degrees to pad a longitude/latitude box by so that it holds everything within
    ``distance_ft`` of it, with room to spare (twice the distance, at the box's highest
    latitude; a prefilter before measuring in feet, never a measurement).

    >>> round(float(lonlat_margin_deg(30.0, 28.0, 29.0)), 8)  # 60 ft / 111 km / cos 29 deg
    0.00018838
    """
    coslat = max(np.cos(np.radians(max(abs(south), abs(north)))), 0.01)
    return 2 * distance_ft * FT_M / 111_000 / coslat


_EARTH_FT = 6_371_000 / FT_M


def bowed(boxes: np.ndarray) -> np.ndarray:
    """Longitude/latitude boxes (west, south, east, north) padded so that each holds what it
    bounds as a working frame draws it: a frame measures the straight line between two
    vertices, which bows off the line between them in degrees (or in a projected file's CRS,
    whose box corners give the box) by up to about ``L² tan(lat) / 8R`` for an edge ``L``
    long (1,600 ft for 2 degrees of longitude along the 45th parallel). Padded by four times
    that for the box's diagonal (a frame's own lines curve a little too), as
    :func:`lonlat_margin_deg` pads: nothing for lots of ordinary size (a few hundredths of a
    foot for a 700 ft box). A prefilter's box, never a measurement; NaN rows stay NaN.

    >>> b = bowed(np.array([[-101.0, 45.0, -99.0, 45.05], [-81.0, 28.0, -80.998, 28.002]]))
    >>> bool(b[0, 3] - 45.05 > 1600 * FT_M / 111_000), bool(b[1, 3] - 28.002 < 1e-6)
    (True, True)
    """
    b = np.asarray(boxes, dtype=float).reshape(-1, 4)
    with np.errstate(invalid="ignore"):
        far = np.minimum(np.maximum(np.abs(b[:, 1]), np.abs(b[:, 3])), 89.9)
        near = np.where(b[:, 1] * b[:, 3] <= 0, 0.0, np.minimum(np.abs(b[:, 1]), np.abs(b[:, 3])))
        ft_deg = 111_000 / FT_M
        w = (b[:, 2] - b[:, 0]) * ft_deg * np.cos(np.radians(near))
        h = (b[:, 3] - b[:, 1]) * ft_deg
        bow = (w * w + h * h) * (np.tan(np.radians(far)) + 1) / (4 * _EARTH_FT)
        coslat = np.maximum(np.cos(np.radians(far)), 0.01)
        pad = 2 * bow * FT_M / 111_000 / coslat
        # a box more than half round the Earth is one across the antimeridian, written as
        # degrees on both sides (not a line a frame draws): left as it is, as it spans every
        # longitude already (padded, it would cover every cell of a state's grid)
        pad = np.where(b[:, 2] - b[:, 0] > 180, 0.0, pad)
    return b + pad[:, None] * np.array([-1.0, -1.0, 1.0, 1.0])


def every_ring_bounds(geometry: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """``bounds`` (:func:`shapely.bounds` of ``geometry``: GEOS's envelope of each polygon's
    shell) widened to every ring: a hole that lies outside its shell (an invalid polygon) is
    outside that envelope, and repaired it is a part of the parcel, which markers and
    neighbours beside it must reach.

    >>> lot = shapely.Polygon([(0, 0), (1, 0), (1, 1), (0, 1)], [[(2, 0), (3, 0), (3, 1)]])
    >>> geometry = np.array([lot, shapely.box(5, 5, 6, 6)])
    >>> every_ring_bounds(geometry, shapely.bounds(geometry)).tolist()
    [[0.0, 0.0, 3.0, 1.0], [5.0, 5.0, 6.0, 6.0]]
    """
    types = shapely.get_type_id(geometry)
    holed = (types == 6) | ((types == 3) & (shapely.get_num_interior_rings(geometry) > 0))
    if not holed.any():
        return bounds
    out = np.array(bounds, dtype=float, copy=True)
    at = np.flatnonzero(holed)
    xy, which = shapely.get_coordinates(geometry[at], return_index=True)
    if not len(xy):
        return out
    starts = np.flatnonzero(np.r_[True, which[1:] != which[:-1]])  # (in order: one run each)
    with np.errstate(invalid="ignore"):
        lo = np.fmin.reduceat(xy, starts, axis=0)
        hi = np.fmax.reduceat(xy, starts, axis=0)
        rows = at[which[starts]]
        out[rows, :2] = np.fmin(out[rows, :2], lo)
        out[rows, 2:] = np.fmax(out[rows, 2:], hi)
    return out


def finite_geometry(geoms: np.ndarray) -> np.ndarray:
    """True for each geometry whose coordinates are all finite (None and empty count as finite)."""
    geoms = np.asarray(geoms, dtype=object)
    out = np.ones(len(geoms), dtype=bool)
    if np.isfinite(shapely.get_coordinates(geoms)).all():  # the usual case: no index needed
        return out
    coords, index = shapely.get_coordinates(geoms, return_index=True)
    bad = ~np.isfinite(coords).all(axis=1)
    out[unique_ints(index[bad])] = False
    return out


FARTHEST_FT = 1e9
"""No coordinate of a projected CRS or of a working frame is farther than this from its origin
(the Earth is 1.3e8 ft round; false eastings and northings are a few million feet): one beyond
it is a mistake of the file (:func:`to_lonlat` places it nowhere; a context feature with one is
left out as it is read, :func:`posting.io.unusable_features`, and in a frame,
:func:`posting.land.usable`)."""


def to_lonlat(x: np.ndarray, y: np.ndarray, src: CRS) -> tuple[np.ndarray, np.ndarray]:
    """Coordinates in ``src`` to WGS 84 longitude and latitude (always x = longitude); NaN
    where a projected coordinate is beyond :data:`FARTHEST_FT` (PROJ gives some such points a
    place: a transverse Mercator northing of 1e10 ft at latitude 84.8).

    >>> lon, lat = to_lonlat(np.array([0.0, 0.0]), np.array([1e6, 1e10]), CRS(
    ...     "+proj=tmerc +lat_0=28.7 +lon_0=-81.1 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft"))
    >>> np.round(lat, 2).tolist(), np.isnan(lon).tolist()  # 1e6 ft = 304.8 km: 2.75 deg
    ([31.45, nan], [False, True])
    >>> np.isnan(to_lonlat(np.array([0.0, 0.0]), np.array([1e10, np.nan]), CRS(
    ...     "+proj=tmerc +lat_0=28.7 +lon_0=-81.1 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft"))[1])
    array([ True,  True])
    """
    if src == WGS84:
        return np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    lon, lat = _transformer(src, WGS84).transform(x, y, errcheck=False)
    lon, lat = np.asarray(lon, dtype=float), np.asarray(lat, dtype=float)
    unit = src.axis_info[0].unit_conversion_factor if src.is_projected and src.axis_info else 0
    if not unit or not np.size(x):
        return lon, lat
    reach = FARTHEST_FT * FT_M / unit
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    # every point: a first test of the extremes missed them where another coordinate was NaN
    # (Python's min and max pass over a NaN that is not first)
    beyond = (np.abs(x) > reach) | (np.abs(y) > reach)  # (NaN compares False: not beyond)
    if beyond.any():
        lon = np.where(beyond, np.nan, lon)
        lat = np.where(beyond, np.nan, lat)
    return lon, lat


def from_lonlat(lon: np.ndarray, lat: np.ndarray, dst: CRS) -> tuple[np.ndarray, np.ndarray]:
    """WGS 84 longitude and latitude to coordinates in ``dst`` (x first); inf or NaN where
    PROJ cannot place them."""
    if dst == WGS84:
        return np.asarray(lon, dtype=float), np.asarray(lat, dtype=float)
    x, y = _transformer(WGS84, dst).transform(lon, lat, errcheck=False)
    return np.asarray(x, dtype=float), np.asarray(y, dtype=float)


def unit_ratios(crs: CRS | None) -> list[float]:
    """For each of :data:`UNITS_M`, by how much a number in that unit must be multiplied to be
    in the units of the projected ``crs``; NaN for a unit within 1 % of the CRS's own (the
    foot and the US survey foot differ by 2 ppm: their numbers place a marker a few feet
    apart, which nothing near the parcels tells), and for a CRS not projected."""
    unit = crs.axis_info[0].unit_conversion_factor if crs is not None and crs.is_projected else 0
    if not unit or not crs.axis_info:
        return [np.nan] * len(UNITS_M)
    return [m / unit if abs(m / unit - 1) > 0.01 else np.nan for _, m in UNITS_M]


@lru_cache(maxsize=16)
def same_zone(crs: CRS, unit: str) -> tuple[str, ...]:
    """``EPSG:code (name)`` of each EPSG projected CRS of the same name as ``crs`` but for the
    unit suffix (``NAD83 / Florida East`` and ``NAD83 / Florida East (ftUS)``; of a compound
    CRS, its horizontal part's) whose unit is ``unit`` (of :data:`UNITS_M`).

    >>> same_zone(CRS("EPSG:2236+5703"), "metres")
    ('EPSG:26958 (NAD83 / Florida East)',)
    """
    from pyproj.database import query_crs_info
    from pyproj.enums import PJType

    # (a compound CRS's horizontal part: "NAD83 / Florida East (ftUS) + NAVD88 height")
    base = re.sub(r" \((ftUS|ft|US survey feet|feet|m)\)$", "", crs.name.split(" + ")[0])
    names = {"metres": (base,), "feet": (f"{base} (ft)",), "US survey feet": (f"{base} (ftUS)",)}
    metres = dict(UNITS_M)[unit]
    found = []
    for info in query_crs_info(auth_name="EPSG", pj_types=PJType.PROJECTED_CRS):
        if info.name in names[unit] and not info.deprecated:
            other = CRS.from_epsg(int(info.code))
            factor = other.axis_info[0].unit_conversion_factor if other.axis_info else 0
            if factor and abs(factor / metres - 1) < 1e-9:
                found.append(f"EPSG:{info.code} ({info.name})")
    return tuple(found)


def utm_zone(lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
    """EPSG code of the WGS 84 UTM zone for each point (326zz north, 327zz south).

    Examples
    --------
    >>> utm_zone(np.array([-81.3, -123.9, 2.0]), np.array([28.6, 46.5, -10.0])).tolist()
    [32617, 32610, 32731]
    """
    lon = np.asarray(lon, dtype=float)
    zone = (np.floor((lon + 180.0) / 6.0).astype(int) % 60) + 1
    return np.where(np.asarray(lat) >= 0, 32600, 32700) + zone


def local_tm(lon0: float, elevation_ft: float = 0.0, lat: float = 0.0) -> WorkingCRS:
    """A low-distortion transverse Mercator (WGS 84, feet) on meridian ``lon0``: scale 1 on it,
    or, for land at ``elevation_ft`` (not 0) near latitude ``lat``, the elevation factor
    (:func:`elevation_factor`), so that its lengths are ground lengths there.

    Examples
    --------
    >>> local_tm(-81.1149).label
    'local transverse Mercator (WGS 84), central meridian -81.115°, scale 1, international feet'
    >>> w = local_tm(-104.99, 5280, 39.74)
    >>> w.label.split(", ")[2:]
    ['scale 1.0002525 (ground distances at 5,280 ft elevation)', 'international feet']
    >>> round(w.elevation_factor, 7), w.elevation_ft
    (1.0002525, 5280.0)
    """
    lon0 = round(float(lon0), 3)
    h = float(elevation_ft)
    scale, k = "scale 1", 1.0
    if h != 0:
        # (the latitude to a hundredth of a degree, the factor to 1e-10: the same frame from
        # every partition's extremes, and 1e-10 is 0.00000005 ft in 500 ft)
        k = round(elevation_factor(h, round(float(lat), 2)), 10)
        scale = f"scale {k:.7f} (ground distances at {h:,g} ft elevation)"
    # +approx: the Evenden-Snyder series, three times faster than PROJ's default exact
    # algorithm and within 0.00001 ft of it 3 degrees either side of the meridian.
    crs = CRS.from_proj4(
        f"+proj=tmerc +approx +lat_0=0 +lon_0={lon0} +k={k:.10g} +x_0=0 +y_0=0 +datum=WGS84 "
        "+units=ft +no_defs"
    )
    return WorkingCRS(
        crs,
        name=f"local transverse Mercator (WGS 84), central meridian {lon0:.3f}°, {scale}, "
        "international feet",
        elevation_ft=h,
        elevation_factor=k,
    )


def zone_frame(lon: np.ndarray, lat: np.ndarray, elevation_ft: float = 0.0) -> WorkingCRS:
    """The local transverse Mercator of the features of one UTM zone centred at ``lon``/``lat``
    (their extremes are enough): on the meridian through their middle, and, at an
    ``elevation_ft``, scaled to the ground at their middle latitude."""
    mid_lon = (float(np.min(lon)) + float(np.max(lon))) / 2
    mid_lat = (float(np.min(lat)) + float(np.max(lat))) / 2
    return local_tm(mid_lon, elevation_ft, mid_lat)


def max_scale_error(crs: CRS, lon: np.ndarray, lat: np.ndarray) -> float:
    """Largest |k - 1| of a projected CRS at the given points (inf if it cannot be computed)."""
    try:
        factors = Proj(crs).get_factors(np.asarray(lon, float), np.asarray(lat, float))
    except (ProjError, PyprojCRSError, RuntimeError):  # pragma: no cover - exotic CRSs
        return float("inf")
    k = np.concatenate(
        [np.atleast_1d(factors.meridional_scale), np.atleast_1d(factors.parallel_scale)]
    )
    if not np.isfinite(k).all():
        return float("inf")
    return float(np.max(np.abs(k - 1.0)))


def _sample_grid(lon: np.ndarray, lat: np.ndarray, n: int = 7) -> tuple[np.ndarray, np.ndarray]:
    gx, gy = np.meshgrid(np.linspace(lon.min(), lon.max(), n), np.linspace(lat.min(), lat.max(), n))
    return gx.ravel(), gy.ravel()


def plan_working_crs(
    lon: np.ndarray, lat: np.ndarray, source: CRS, elevation_ft: float = 0.0
) -> tuple[list[WorkingCRS], np.ndarray]:
    """Choose the working CRS (or CRSs) for features centred at ``lon``/``lat``.

    Parameters
    ----------
    lon, lat
        WGS 84 position of each feature (its bounding-box centre is enough). NaN marks a
        feature without usable geometry: it gets group -1.
    source
        The CRS the features come in.
    elevation_ft
        The land's elevation: 0 measures on the ellipsoid; any other keeps no input CRS
        (its grid lengths are not the ground's) and measures ground lengths on each zone's
        local transverse Mercator (:func:`zone_frame`).

    Returns
    -------
    crss, group
        The working CRSs, and for each feature the index of the one it is measured in.

    Examples
    --------
    >>> crss, group = plan_working_crs(np.array([-81.3, -81.2]), np.array([28.6, 28.7]), WGS84)
    >>> [c.label.split(",")[1].strip() for c in crss], group.tolist()
    (['central meridian -81.250°'], [0, 0])
    """
    lon = np.asarray(lon, dtype=float)
    lat = np.asarray(lat, dtype=float)
    ok = np.isfinite(lon) & np.isfinite(lat)
    group = np.full(len(lon), -1, dtype=np.int64)
    if not ok.any():
        return [], group
    if source.is_projected and not elevation_ft:
        glon, glat = _sample_grid(lon[ok], lat[ok])
        if max_scale_error(source, glon, glat) <= MAX_SCALE_ERROR:
            try:
                working = WorkingCRS(source)
            except CRSError:
                pass
            else:
                group[ok] = 0
                return [working], group
    zones = utm_zone(lon[ok], lat[ok])
    codes, inverse = np.unique(zones, return_inverse=True)
    group[ok] = inverse
    crss = [
        zone_frame(lon[ok][inverse == k], lat[ok][inverse == k], elevation_ft)
        for k in range(len(codes))
    ]
    return crss, group


DATUM_ACCURACY_M = 5.0
"""Markers and parcels on two datums between which PROJ's best transformation here is good to
no better than this (metres) are said to be so: a phone's GPS fix is good to about 5 m, so a
worse transformation adds an error of its own to every marker's distance from the lines (NAD27
and WGS 84 in Florida: 10 m by a Helmert shift, 1.5 m with NOAA's grid). NAD83 and WGS 84 (4 m,
a null shift) are not said."""


@lru_cache(maxsize=64)
def _datum_shift(a: CRS, b: CRS, box: tuple[float, float, float, float]) -> tuple[float, str]:
    """The accuracy in metres of PROJ's best available transformation from ``a``'s datum to
    ``b``'s within ``box`` (west, south, east, north; -1 when unknown), and the grids of a
    better one it lacks ('' when none)."""
    from pyproj.aoi import AreaOfInterest
    from pyproj.transformer import TransformerGroup

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (pyproj's own note of a missing grid: said here)
        group = TransformerGroup(
            a.geodetic_crs, b.geodetic_crs, always_xy=True, area_of_interest=AreaOfInterest(*box)
        )
    if not group.transformers:
        return -1.0, ""
    best = float(group.transformers[0].accuracy)
    better = [
        op
        for op in group.unavailable_operations
        if op.accuracy >= 0 and (best < 0 or op.accuracy < best)
    ]
    grids = [g.short_name for op in better[:1] for g in op.grids if not g.available]
    return best, ", ".join(grids)


def datum_warnings(
    parcels: tuple[str, CRS],
    markers: list[tuple[str, CRS]],
    bounds_lonlat: np.ndarray,
    within_m: float = DATUM_ACCURACY_M,
) -> list[str]:
    """A warning for each marker file on another datum than the parcels, where no
    transformation between the two is good to ``within_m`` here (the parcels'
    ``bounds_lonlat``: west, south, east, north per parcel, NaN without geometry).

    ``within_m`` is :data:`DATUM_ACCURACY_M` for a phone's markers; a surveyor's point file
    (:mod:`posting.stakeout`) is told of any shift that is not exact (0).

    Examples
    --------
    >>> box = np.array([[-81.2, 28.6, -81.0, 28.8]])
    >>> w = datum_warnings(("lots.shp", CRS("EPSG:4267")), [("signs.csv", WGS84)], box)
    >>> print(w[0][:72])  # (10 m here, by a Helmert shift, without NOAA's grid)
    signs.csv: its datum (WGS 84) is not the parcels' (NAD27, lots.shp), and
    >>> datum_warnings(("lots.shp", CRS("EPSG:2236")), [("signs.csv", WGS84)], box)
    []
    """
    source, crs = parcels
    others = [
        (path, their)
        for path, their in markers
        if crs.geodetic_crs is not None
        and their.geodetic_crs is not None
        and crs.geodetic_crs.datum != their.geodetic_crs.datum
    ]
    b = np.asarray(bounds_lonlat, dtype=float).reshape(-1, 4)
    if not others or not len(b) or np.isnan(b).all():
        return []
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # (all-NaN columns: no geometry)
        box = (
            float(np.floor(np.nanmin(b[:, 0]))),
            float(np.floor(np.nanmin(b[:, 1]))),
            float(np.ceil(np.nanmax(b[:, 2]))),
            float(np.ceil(np.nanmax(b[:, 3]))),
        )
    if not (-180 <= box[0] <= box[2] <= 180 and -90 <= box[1] <= box[3] <= 90):
        return []  # (a layer across the antimeridian: PROJ's area of interest cannot say it)
    out = []
    for path, their in others:
        accuracy, grids = _datum_shift(crs, their, box)
        if 0 <= accuracy <= within_m:
            continue
        good = f"good to {accuracy:g} m" if accuracy >= 0 else "of unknown accuracy"
        first = grids.split(", ")[0]
        fix = (
            f"; PROJ would do better with the shift grid {grids} (projsync --file {first}, or "
            "PROJ_NETWORK=ON)"
            if grids
            else ""
        )
        out.append(
            f"{path}: its datum ({their.geodetic_crs.name}) is not the parcels' "
            f"({crs.geodetic_crs.name}, {source}), and PROJ's best shift between the two here "
            f"is {good}: each marker's distance from the lines may be off by as much{fix}, or "
            "reproject one of the files onto the other's datum with a better transformation"
        )
    return out


def lon_range(lon: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """West and east (degrees) of each column of longitudes ``lon`` (points by column: a
    feature's box corners), the short way round: where they lie on both sides of the
    antimeridian, more than 180 degrees apart as numbers (an Aleutian lot in Alaska Albers),
    west is east of 0 and east is beyond 180 (``east - 360`` is the longitude it names), as the
    map draws it; not the whole globe but the lot. NaN left out; a column of NaN gives NaN.

    >>> w, e = lon_range(np.array([[-81.3, 179.99], [-81.2, -179.98]]))
    >>> w.tolist(), np.round(e, 6).tolist()
    ([-81.3, 179.99], [-81.2, 180.02])
    """
    lon = np.asarray(lon, dtype=float)
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all NaN: a feature without geometry
        west, east = np.nanmin(lon, axis=0), np.nanmax(lon, axis=0)
        across = np.flatnonzero(east - west > 180)
        if len(across):  # (only near the antimeridian)
            east_of_0 = np.where(lon[:, across] < 0, lon[:, across] + 360, lon[:, across])
            w, e = np.nanmin(east_of_0, axis=0), np.nanmax(east_of_0, axis=0)
            shorter = e - w < east[across] - west[across]
            west[across[shorter]], east[across[shorter]] = w[shorter], e[shorter]
    return west, east


def lon_meets(west: np.ndarray, east: np.ndarray, w: float, e: float) -> np.ndarray:
    """Which longitude ranges ``west``..``east`` (points: ``west`` = ``east``) meet ``w``..``e``,
    round the globe: a range written beyond 180 (:func:`lon_range`) meets one as given on the
    other side of the antimeridian. The test of the ranges as numbers, where none is beyond 180.

    >>> lon_meets(np.array([-179.995, -81.0, 179.97]), np.array([-179.995, -81.0, 179.97]),
    ...           179.98, 180.01).tolist()
    [True, False, False]
    """
    west = np.asarray(west, dtype=float)
    east = np.asarray(east, dtype=float)
    with np.errstate(invalid="ignore"):
        hit = (east >= w) & (west <= e)
        if e > 180 or (len(east) and np.nanmax(east, initial=-np.inf) > 180):
            hit |= (east + 360 >= w) & (west + 360 <= e)
            hit |= (east - 360 >= w) & (west - 360 <= e)
    return hit


def lonlat_box(bounds_lonlat: np.ndarray) -> tuple[float, float, float, float] | None:
    """West, south, east, north (degrees) around the boxes ``bounds_lonlat`` (west, south,
    east, north per parcel) that are finite: the parcels with geometry (None without one).
    The short way round (:func:`lon_range`): around lots on both sides of the antimeridian (or
    one across it, written beyond 180), west is east of 0 and east beyond 180.

    >>> box = lonlat_box(np.array([[179.98, 51.8, 180.01, 51.81], [-179.99, 51.8, -179.97, 51.81]]))
    >>> [round(v, 6) for v in box]
    [179.98, 51.8, 180.03, 51.81]
    """
    b = np.asarray(bounds_lonlat, dtype=float).reshape(-1, 4)
    b = b[np.isfinite(b).all(axis=1)]
    if not len(b):
        return None
    west, east = float(b[:, 0].min()), float(b[:, 2].max())
    if east - west > 180 or east > 180:  # (only near the antimeridian)
        west_of_0 = b[:, 2] < 0
        w = float(np.where(west_of_0, b[:, 0] + 360, b[:, 0]).min())
        e = float(np.where(west_of_0, b[:, 2] + 360, b[:, 2]).max())
        if e - w < east - west:
            west, east = w, e
    return (west, float(b[:, 1].min()), east, float(b[:, 3].max()))


def group_box(bounds_lonlat: np.ndarray) -> tuple[float, float, float, float]:
    """West, south, east, north (degrees) around a working frame's parcels' boxes as the frame
    draws them (:func:`bowed`), the short way round (:func:`lonlat_box`: east beyond 180 for
    lots astride the antimeridian): the markers one run (and each partition, for the reasons
    of the lost) measures in that frame are those near it. NaN where no box is finite.

    >>> [round(v, 3) for v in group_box(np.array([[179.98, 51.8, 180.01, 51.81]]))]
    [179.98, 51.8, 180.01, 51.81]
    """
    box = lonlat_box(bowed(bounds_lonlat))
    return (np.nan,) * 4 if box is None else box


def stakeout_zones(bounds_lonlat: np.ndarray) -> list[tuple[str, str]]:
    """Projected CRSs in feet for a surveyor's point file of the lots ``bounds_lonlat`` (west,
    south, east, north per parcel): the NAD83(2011) State Plane zones whose area of use holds
    every lot, best first, as (``EPSG:n``, name); from PROJ's database, without the network.

    A zone is given in US survey feet where the database has it so (most states' surveys),
    else in international feet. The areas of use are boxes around each zone's counties, and
    neighbouring zones' boxes overlap; the zone whose box holds the lots deepest inside (the
    farthest from its nearest edge, in degrees of latitude and of longitude times the cosine
    of the latitude) comes first: Orlando (81.2°W) is 1.0° inside Florida East's box and
    0.07° inside Florida West's. An empty list where no zone holds the lots (outside the
    United States, or lots across two zones).

    Examples
    --------
    >>> for code, name in stakeout_zones(np.array([[-81.21, 28.59, -81.2, 28.6]])):
    ...     print(code, name)
    EPSG:6438 NAD83(2011) / Florida East (ftUS)
    EPSG:6443 NAD83(2011) / Florida West (ftUS)
    """
    from pyproj.aoi import AreaOfInterest
    from pyproj.database import query_crs_info
    from pyproj.enums import PJType

    box = lonlat_box(bounds_lonlat)
    if box is None or not (-180 <= box[0] <= box[2] <= 180 and -90 <= box[1] <= box[3] <= 90):
        return []
    infos = query_crs_info(
        auth_name="EPSG",
        pj_types=PJType.PROJECTED_CRS,
        area_of_interest=AreaOfInterest(*box),
        contains=True,
        allow_deprecated=False,
    )
    zones: dict[str, tuple[float, int, str, str]] = {}
    cos = np.cos(np.radians((box[1] + box[3]) / 2))
    for info in infos:
        name = info.name
        if not name.startswith("NAD83(2011) / ") or not name.endswith(("(ftUS)", "(ft)")):
            continue
        if not crs_of(f"EPSG:{info.code}").coordinate_operation.name.startswith("SPCS83 "):
            continue  # (county systems, Albers ...: not a State Plane zone)
        a = info.area_of_use
        depth = min(
            (box[0] - a.west) * cos, (a.east - box[2]) * cos, box[1] - a.south, a.north - box[3]
        )
        zone = name.rsplit(" (", 1)[0]
        us = name.endswith("(ftUS)")
        if zone not in zones or (us and zones[zone][1] == 0):
            zones[zone] = (depth, int(us), f"EPSG:{info.code}", name)
    ranked = sorted(zones.values(), key=lambda z: -z[0])
    return [(code, name) for _, _, code, name in ranked]


def stakeout_hint(bounds_lonlat: np.ndarray) -> str:
    """A projected CRS to suggest for a point file of the lots ``bounds_lonlat``: the State
    Plane zone in feet (:func:`stakeout_zones`), or else the WGS 84 UTM zone of their centre
    (metres), as ``EPSG:n (name)`` with a few words on why.

    >>> print(stakeout_hint(np.array([[-81.21, 28.59, -81.2, 28.6]]))[:72])
    EPSG:6438 (NAD83(2011) / Florida East (ftUS)), the State Plane zone of t
    >>> stakeout_hint(np.array([[2.0, 48.8, 2.1, 48.9]]))
    'EPSG:32631 (WGS 84 / UTM zone 31N), the UTM zone of these lots in metres'
    """
    zones = stakeout_zones(bounds_lonlat)
    if zones:
        (code, name), others = zones[0], zones[1:]
        unit = "US survey feet" if name.endswith("(ftUS)") else "feet"
        text = f"{code} ({name}), the State Plane zone of these lots in {unit}"
        if others:
            code2, name2 = others[0]
            short = name2.split(" / ", 1)[1].rsplit(" (", 1)[0]
            text += (
                f" (its neighbour {code2}, {short}, also covers them: take the zone of the county)"
            )
        return text
    box = lonlat_box(bounds_lonlat)
    if box is None:
        return "a State Plane zone in feet or a UTM zone"
    lon, lat = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    code = int(utm_zone(np.array([lon]), np.array([lat]))[0])
    return f"EPSG:{code} ({crs_of(f'EPSG:{code}').name}), the UTM zone of these lots in metres"
