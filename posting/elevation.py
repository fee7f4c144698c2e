"""How much longer on the ground a length measured at sea level may be, per parcel, when the
land's elevation is not given.

The working frame measures on the ellipsoid (sea level: :mod:`posting.crs`), or in a kept
State Plane CRS whose grid is within 1e-4 of it. The statutes' feet are on the ground, longer by
the elevation factor ``(R + h) / R`` (:func:`posting.crs.elevation_factor`). Without
``elevation_ft``, a parcel's elevation is known only to lie between its state's lowest and
highest points (USGS: ``posting/data/state-elevations.csv``), so a length ``L`` measured in the
working frame is on the ground between ``L * lo`` and ``L * hi``: :class:`GroundBand`, one pair
of factors per parcel, which every comparison with a limit takes
(:func:`posting.checks.against_max`'s ``scale``).

- A parcel across or near a state line takes the union of the states it touches
  (:func:`posting.states.parcel_states`' ``states``); one outside every state, without geometry,
  or in a territory the table does not list, the whole country's range (:data:`US_RANGE_FT`).
- The working frame's own scale at the parcel (``k``, from PROJ at the corners of the parcel's
  box) is folded in: a grid length is ``k`` times the sea-level one, so the ground length is
  between ``L * f(h_lo) / k_max`` and ``L * f(h_hi) / k_min``. A kept State Plane zone is 1:10,000
  at worst (Florida East is 0.99994 on its central meridian: 500 ft at sea level measures
  499.97 ft there); a local transverse Mercator is 1 on its meridian and 1.0000001 five miles off.

Examples
--------
>>> lo, hi = elevation_range_ft([("wyoming",), ("florida", "georgia"), ()])
>>> lo.tolist(), hi.tolist()
([3099.0, 0.0, -282.0], [13804.0, 4784.0, 20320.0])
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np
import pandas as pd
from pyproj import Geod

__all__ = [
    "US_RANGE_FT",
    "GroundBand",
    "elevation_range_ft",
    "frame_band",
    "ground_band",
    "ground_factors",
    "state_elevations_ft",
]

_WGS84 = Geod(ellps="WGS84")

US_RANGE_FT = (-282.0, 20_320.0)
"""The lowest and highest land in the United States, feet (Death Valley; Mt. McKinley as the
USGS table gives it, 20,310 ft since its 2015 survey: the larger is kept), for land whose state
is not known."""


@lru_cache(maxsize=1)
def _table() -> dict[str, tuple[float, float, str]]:
    text = (resources.files("posting") / "data" / "state-elevations.csv").read_text("utf-8")
    rows = csv.DictReader(io.StringIO("".join(ln for ln in text.splitlines(True) if ln[:1] != "#")))
    return {r["slug"]: (float(r["low_ft"]), float(r["high_ft"]), r["name"]) for r in rows}


def state_elevations_ft() -> dict[str, tuple[float, float]]:
    """Each state's (profile name's) lowest and highest elevation, feet above sea level.

    >>> state_elevations_ft()["colorado"]
    (3350.0, 14433.0)
    """
    return {k: (lo, hi) for k, (lo, hi, _) in _table().items()}


def _range_of(states: tuple[str, ...]) -> tuple[float, float]:
    t = _table()
    if not states or any(s not in t for s in states):
        return US_RANGE_FT
    return min(t[s][0] for s in states), max(t[s][1] for s in states)


def _distinct(touched: Sequence[tuple[str, ...]]) -> tuple[np.ndarray, list[tuple[str, ...]]]:
    """Each parcel's number among the distinct tuples of ``touched`` (None as ``()``), and
    those tuples: a county touches one or two states, so each is looked up once."""
    keys = np.empty(len(touched), dtype=object)
    keys[:] = [tuple(t) if t is not None else () for t in touched]
    codes, uniques = pd.factorize(keys)
    return codes, list(uniques)


def elevation_range_ft(touched: Sequence[tuple[str, ...]]) -> tuple[np.ndarray, np.ndarray]:
    """Per parcel, the lowest and highest elevation its land may have (feet): the union of the
    ranges of the states it touches (profile names), the whole country's where none or one the
    table does not list (each distinct tuple looked up once)."""
    codes, uniques = _distinct(touched)
    ranges = np.array([_range_of(k) for k in uniques], dtype=float).reshape(-1, 2)
    return ranges[codes, 0], ranges[codes, 1]


def ground_factors(elevation_ft: np.ndarray, lat: np.ndarray) -> np.ndarray:
    """:func:`posting.crs.elevation_factor`, vectorised: ``(R + h) / R``, ``R`` the Gaussian
    mean radius at each latitude.

    >>> ground_factors(np.array([5280.0, 0.0]), np.array([39.74, 39.74])).round(7).tolist()
    [1.0002525, 1.0]
    """
    from posting.crs import FT_M

    a, f = _WGS84.a, _WGS84.f
    e2 = f * (2 - f)
    lat = np.where(np.isfinite(lat), lat, 0.0)
    r = a * np.sqrt(1 - e2) / (1 - e2 * np.sin(np.radians(lat)) ** 2) / FT_M
    return (r + np.asarray(elevation_ft, dtype=float)) / r


@dataclass(frozen=True)
class GroundBand:
    """Per parcel, how much longer on the ground than in the working frame a length may be:
    between ``lo`` and ``hi`` times; ``low_ft``/``high_ft`` the elevations they stand for, and
    ``where`` the words for them (``"Wyoming's elevations (3,099-13,804 ft)"``)."""

    lo: np.ndarray
    hi: np.ndarray
    low_ft: np.ndarray
    high_ft: np.ndarray
    where: np.ndarray
    given: bool = False
    """The land's elevation was given: one factor per parcel (``lo`` = ``hi``), the working
    frame's own scale divided out (:func:`frame_band`)."""
    area_lo: np.ndarray | None = None
    area_hi: np.ndarray | None = None
    """For areas: the factors whose squares an area of ``prepare``'s (``area_acres``, already
    the ellipsoid's, equal-area, times the square of the frame's own elevation factor) may be
    larger by on the ground: the elevation's alone, without the frame's scale, which the area
    has divided out already (``lo``/``hi`` where not given)."""

    def take(self, idx: np.ndarray) -> GroundBand:
        """The band of parcels ``idx``."""
        return GroundBand(
            self.lo[idx],
            self.hi[idx],
            self.low_ft[idx],
            self.high_ft[idx],
            self.where[idx],
            self.given,
            None if self.area_lo is None else self.area_lo[idx],
            None if self.area_hi is None else self.area_hi[idx],
        )

    def at(self, parcel: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The factors (lo, hi) of each of ``parcel`` (parcel numbers, one per figure)."""
        parcel = np.asarray(parcel, dtype=np.int64)
        return self.lo[parcel], self.hi[parcel]

    def area_at(self, parcel: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The factors (lo, hi) for the areas of each of ``parcel``, as
        :func:`posting.checks.acres_at_most` takes them (squared)."""
        parcel = np.asarray(parcel, dtype=np.int64)
        if self.area_lo is None or self.area_hi is None:
            return self.at(parcel)
        return self.area_lo[parcel], self.area_hi[parcel]


def _where_words(touched: Sequence[tuple[str, ...]]) -> np.ndarray:
    """Per parcel, the words for its states' elevations (``"Wyoming's elevations (3,099 to
    13,804 ft)"``: :func:`elevation_range_ft`), made once for each distinct tuple of states."""
    t = _table()
    codes, uniques = _distinct(touched)
    words = []
    for states in uniques:
        low, high = _range_of(states)
        names = [t[s][2] for s in states if s in t]
        who = (
            " and ".join(n + "'s" for n in names)
            if names and len(names) == len(states)
            else "the United States'"
        )
        words.append(f"{who} elevations ({low:,.0f} to {high:,.0f} ft)")
    return np.array(words, dtype=object)[codes]


def _frame_scales(prep, lon: np.ndarray, lat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """PROJ's scales of each parcel's working frame at its points ``lon``/``lat`` (``n`` rows
    of ``m`` points): the meridional and parallel scale of each, shape ``(n, m, 2)`` (NaN for a
    parcel without usable geometry), and each frame's own elevation factor (1 where none)."""
    from pyproj import Proj

    n, m = lon.shape
    k = np.full((n, m, 2), np.nan)
    own = np.ones(n)
    group = np.asarray(prep.group)
    placed = np.isfinite(lon).all(axis=1) & np.isfinite(lat).all(axis=1)
    for g, w in enumerate(prep.crss):
        at = np.flatnonzero((group == g) & placed)
        if not len(at):
            continue
        f = Proj(w.crs).get_factors(lon[at].ravel(), lat[at].ravel())
        k[at] = np.column_stack(
            [np.asarray(f.meridional_scale), np.asarray(f.parallel_scale)]
        ).reshape(len(at), m, 2)
        own[at] = w.elevation_factor
    return k, own


def _grid_scale(prep) -> tuple[np.ndarray, np.ndarray]:
    """Per parcel, the smallest and largest scale of its working frame at the corners of its
    box (1 where it has no usable geometry)."""
    n = len(prep)
    b = np.asarray(prep.bounds_lonlat, dtype=float).reshape(n, 4)
    lon = b[:, [0, 2, 0, 2]]
    lat = b[:, [1, 1, 3, 3]]
    k, own = _frame_scales(prep, lon, lat)
    k = k.reshape(n, 8) / own[:, None]  # (1 at sea level: the band applies only there)
    ok = np.isfinite(k).all(axis=1)
    kmin, kmax = np.ones(n), np.ones(n)
    kmin[ok], kmax[ok] = k[ok].min(axis=1), k[ok].max(axis=1)
    return kmin, kmax


def frame_band(prep, elevation_ft: float) -> GroundBand:
    """The land's elevation given: per parcel, how much longer on the ground a length is than
    in its working frame, one factor (``lo`` = ``hi``): the elevation factor at the parcel's
    latitude over the frame's scale at the middle of its box (PROJ's).

    The frame (:func:`posting.crs.zone_frame`, a local transverse Mercator through the middle
    of the data of one UTM zone, scaled to the ground at the elevation) is exact on its central
    meridian and longer by ``x^2 / 2R^2`` at ``x`` from it: 5e-6 (0.0025 ft in 500 ft) at the
    edge of a county half a degree wide at 40 degrees north, 7e-4 (0.37 ft) at the edge of a
    UTM zone. Divided out here, what is left is the scale's change across one parcel (2e-7
    for a lot 1,500 ft wide 13 miles off the meridian). The elevation factor itself is good to
    about 1e-5 (a height above sea level, not the ellipsoid:
    :func:`posting.crs.elevation_factor`).
    """
    n = len(prep)
    b = np.asarray(prep.bounds_lonlat, dtype=float).reshape(n, 4)
    lon, lat = (b[:, 0] + b[:, 2]) / 2.0, (b[:, 1] + b[:, 3]) / 2.0
    k, own = _frame_scales(prep, lon[:, None], lat[:, None])
    k = np.fmax(k[:, 0, 0], k[:, 0, 1])  # (meridional, parallel)
    ground = ground_factors(np.full(n, float(elevation_ft)), lat)
    ok = np.isfinite(k) & (k > 0)
    factor = np.where(ok, ground / np.where(ok, k, 1.0), 1.0)
    area = np.where(ok, ground / own, 1.0)  # (an area has the frame's scale divided out)
    h = np.full(n, float(elevation_ft))
    words = np.full(n, f"the land's elevation ({float(elevation_ft):,g} ft)", dtype=object)
    return GroundBand(factor, factor.copy(), h, h.copy(), words, True, area, area.copy())


def ground_band(prep, touched: Sequence[tuple[str, ...]]) -> GroundBand:
    """The :class:`GroundBand` of prepared parcels (:class:`posting.prepare.PreparedParcels`)
    measured at sea level, each touching the states ``touched`` (profile names; ``()`` where
    none is known)."""
    touched = [tuple(t) if t is not None else () for t in touched]
    low, high = elevation_range_ft(touched)
    b = np.asarray(prep.bounds_lonlat, dtype=float).reshape(len(prep), 4)
    lat = (b[:, 1] + b[:, 3]) / 2.0
    kmin, kmax = _grid_scale(prep)
    area_lo, area_hi = ground_factors(low, lat), ground_factors(high, lat)
    lo, hi = area_lo / kmax, area_hi / kmin
    return GroundBand(lo, hi, low, high, _where_words(touched), False, area_lo, area_hi)
