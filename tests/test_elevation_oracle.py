"""An oracle of the elevation band (posting.elevation), independent of posting's measuring.

Each lot is built in code from geodesics (``pyproj.Geod(ellps="WGS84")``, never posting's
frames): its vertices are its signs, so each gap between two signs is one edge, whose length on
the ellipsoid (sea level) is the geodesic between them. Its expected verdict against Florida's
500 ft is worked out here alone:

- the land's elevation lies between the lowest and highest points of the states the lot
  touches, read here with the csv module from ``posting/data/state-elevations.csv``
  (USGS); a lot across a state line takes the union of its states' ranges;
- a length ``L`` on the ellipsoid is ``L x (R + h) / R`` on the ground at an elevation ``h``,
  ``R`` the Gaussian mean radius of curvature at the lot's latitude, ``sqrt(M N)`` of WGS 84
  (the radius :func:`posting.crs.gaussian_radius_ft` uses, written here from the meridional
  and prime-vertical radii M and N, not from its closed form);
- a gap passes surely if it is within the limit at the highest land, fails surely if it is over
  at the lowest, and is uncertain between; with ``--elevation-ft H`` one factor applies.

A deliberate tolerance: "within the limit" is within 500 ft plus the slack every comparison
with a statute's feet allows (:data:`posting.checks.EPSILON_FT` 0.001 ft, a floating-point
hair, plus :data:`posting.checks.FOOT_SLACK` 2.5e-6 of the limit, the US survey foot's 2 parts
per million): 500.00225 ft. The oracle uses it (``WITHIN_FT``); without it, a gap of exactly
500 US survey feet would fail "500 feet".

The gaps are chosen about each threshold (0.005 ft either side of ``WITHIN_FT / f(high)`` and
``WITHIN_FT / f(low)``) and at round figures (499.9, 500.0, 500.05 ft).
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pytest
import shapely
from pyproj import CRS, Geod, Transformer

from posting import Settings, check
from posting.io import MarkerLayer, ParcelLayer

GEOD = Geod(ellps="WGS84")
FT_M = 0.3048
LIMIT_FT = 500.0
WITHIN_FT = LIMIT_FT + 0.001 + 2.5e-6 * LIMIT_FT  # the slack (see the module's note)
CSV = Path(__file__).resolve().parents[1] / "posting" / "data" / "state-elevations.csv"
VERDICT = {0: "compliant", 1: "uncertain", 2: "noncompliant"}


def _elevations_ft() -> dict[str, tuple[float, float]]:
    """Each state's lowest and highest point (feet), read from the CSV with the csv module."""
    with CSV.open(encoding="utf-8") as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        return {r["slug"]: (float(r["low_ft"]), float(r["high_ft"])) for r in rows}


def _radius_ft(lat: float) -> float:
    """sqrt(M N) of WGS 84 at ``lat`` (feet): the Gaussian mean radius of curvature."""
    a, f = GEOD.a, GEOD.f
    e2 = f * (2 - f)
    w = 1 - e2 * math.sin(math.radians(lat)) ** 2
    m = a * (1 - e2) / w**1.5  # meridional
    n = a / math.sqrt(w)  # prime vertical
    return math.sqrt(m * n) / FT_M


def _factor(h_ft: float, lat: float) -> float:
    r = _radius_ft(lat)
    return (r + h_ft) / r


def _expected(gaps_ft: np.ndarray, low_ft: float, high_ft: float, lat: float) -> str:
    """The verdict of a lot's gaps (ellipsoid feet) on land between ``low_ft`` and ``high_ft``:
    the worst of its gaps'."""
    worst = float(np.max(gaps_ft))
    if worst * _factor(high_ft, lat) <= WITHIN_FT:
        return "compliant"
    if worst * _factor(low_ft, lat) > WITHIN_FT:
        return "noncompliant"
    return "uncertain"


def _lonlat_lot(lon0: float, lat0: float, gap_ft: float, steps: int, side_ft: float = 300.0):
    """Vertices (= signs) of a lot: ``steps`` geodesics of ``gap_ft`` east, one of ``side_ft``
    north, ``steps`` of ``gap_ft`` west; the last edge closes it (about ``side_ft``)."""
    pts = [(lon0, lat0)]
    lon, lat = lon0, lat0
    for az, n, d in ((90.0, steps, gap_ft), (0.0, 1, side_ft), (270.0, steps, gap_ft)):
        for _ in range(n):
            lon, lat, _ = GEOD.fwd(lon, lat, az, d * FT_M)
            pts.append((lon, lat))
    return pts


def _geodesic_gaps_ft(lonlat: list[tuple[float, float]]) -> np.ndarray:
    """The geodesic length (feet) of each edge of the closed ring through ``lonlat``."""
    a = np.asarray(lonlat, dtype=float)
    b = np.roll(a, -1, axis=0)
    _, _, d_m = GEOD.inv(a[:, 0], a[:, 1], b[:, 0], b[:, 1])
    return np.asarray(d_m) / FT_M


def _thresholds(low_ft: float, high_ft: float, lat: float) -> list[float]:
    """Gaps about the two thresholds, and round ones."""
    sure_pass = WITHIN_FT / _factor(high_ft, lat)
    sure_fail = WITHIN_FT / _factor(low_ft, lat)
    near = [sure_pass - 0.005, sure_pass + 0.005, sure_fail - 0.005, sure_fail + 0.005]
    return [*near, 499.9, 500.0, 500.05]


def _run(lots_lonlat, crs="EPSG:4326", to_crs=None, settings=None):
    """posting's statuses of the lots (each a list of lon/lat vertices = signs), given in
    ``crs`` (projected from lon/lat with ``to_crs``, a pyproj Transformer, where not 4326)."""
    polys, xs, ys = [], [], []
    for pts in lots_lonlat:
        a = np.asarray(pts, dtype=float)
        x, y = (a[:, 0], a[:, 1]) if to_crs is None else to_crs.transform(a[:, 0], a[:, 1])
        polys.append(shapely.Polygon(np.column_stack([x, y])))
        xs.append(x)
        ys.append(y)
    layer = ParcelLayer.from_geometries(polys, crs)
    signs = MarkerLayer.from_points(np.concatenate(xs), np.concatenate(ys), crs)
    r = check(layer, signs, "florida", settings=settings)
    return r.parcels["status"].tolist(), r


# lon/lat of each lot's south-west corner, its states, how many 500 ft steps east
PLACES = {
    "florida": ((-81.40, 28.50), ("florida",), 3),  # Orlando
    "colorado": ((-105.00, 39.70), ("colorado",), 3),  # Denver
    "wyoming": ((-107.50, 43.00), ("wyoming",), 3),  # the middle of Wyoming
    "washington": ((-120.50, 47.40), ("washington",), 3),  # Wenatchee
    # across the Colorado-Kansas line (102 deg 02' 48" W, 102.0467 W: 25 deg west of
    # Washington as surveyed): 11 steps of 500 ft (about 0.019 deg) east from 102.06 W
    "colorado-kansas": ((-102.06, 39.00), ("colorado", "kansas"), 11),
    # across the Wyoming-Nebraska line (104 deg 03' 11" W, 104.0530 W)
    "wyoming-nebraska": ((-104.063, 42.50), ("wyoming", "nebraska"), 11),
}
LINES = {"colorado-kansas": -102.0467, "wyoming-nebraska": -104.0530}


def _lots(place: str, gaps: list[float]):
    (lon0, lat0), _, steps = PLACES[place]
    # one lot per gap, 0.01 degrees (3,600 ft) apart north-south
    return [_lonlat_lot(lon0, lat0 + 0.01 * i, g, steps) for i, g in enumerate(gaps)]


@pytest.mark.parametrize("place", list(PLACES))
def test_lon_lat_lots_on_the_band_of_their_states(place):
    (_, lat0), states, _ = PLACES[place]
    table = _elevations_ft()
    low = min(table[s][0] for s in states)
    high = max(table[s][1] for s in states)
    gaps = _thresholds(low, high, lat0)
    lots = _lots(place, gaps)
    if place in LINES:  # each lot reaches 0.005 deg (1,300 ft) or more either side
        lon = np.asarray(lots[0])[:, 0]
        assert lon.min() < LINES[place] - 0.005 and lon.max() > LINES[place] + 0.005
    got, r = _run(lots)
    want = [
        _expected(_geodesic_gaps_ft(p), low, high, float(np.mean(np.asarray(p)[:, 1])))
        for p in lots
    ]
    assert got == want, list(zip(gaps, got, want, strict=True))
    # each threshold's pair is split: the oracle's figures straddle it
    assert want[0] == "compliant" and want[3] == "noncompliant"
    assert want[1] == want[2] == "uncertain"
    assert r.ground.low_ft.tolist() == [low] * len(lots)
    assert r.ground.high_ft.tolist() == [high] * len(lots)


@pytest.mark.parametrize(
    ("place", "elevation_ft"),
    [("florida", 100.0), ("colorado", 5280.0), ("wyoming", 7000.0), ("washington", 1200.0)],
)
def test_lon_lat_lots_at_the_elevation_given(place, elevation_ft):
    (_, lat0), _, _ = PLACES[place]
    at = WITHIN_FT / _factor(elevation_ft, lat0)
    gaps = [at - 0.005, at + 0.005, 499.9, 500.0, 500.05]
    lots = _lots(place, gaps)
    got, r = _run(lots, settings=Settings(elevation_ft=elevation_ft))
    want = [
        _expected(_geodesic_gaps_ft(p), elevation_ft, elevation_ft, np.asarray(p)[:, 1].mean())
        for p in lots
    ]
    assert got == want, list(zip(gaps, got, want, strict=True))
    assert want[:2] == ["compliant", "noncompliant"]
    assert r.ground.given and r.ground.lo.tolist() == r.ground.hi.tolist()


def test_lots_off_the_frame_s_meridian_at_the_elevation_given():
    """A layer 0.5 degrees wide (a county) at 5,280 ft in Colorado: its frame's meridian runs
    through its middle, and the lots at its east and west edges, about 66,000 ft from it,
    measure longer there by x^2 / 2R^2, about 5e-6 (0.0025 ft in 500 ft). Gaps 0.001 ft
    either side of the limit on the ground (geodesics x the elevation factor, worked out here)
    are judged as on the ground: the one within, compliant (it measured 500.003 ft and failed
    before the frame's scale was divided out)."""
    h, lat0 = 5280.0, 39.70
    f = _factor(h, lat0)
    at = WITHIN_FT / f  # the ellipsoid's length of a gap just within the limit on the ground
    gaps = [at - 0.001, at + 0.001]
    lots = []
    for lon0 in (-105.25, -104.78):  # west edge, east edge (each lot about 0.02 deg wide)
        lots += [_lonlat_lot(lon0, lat0 + 0.01 * i, g, 3) for i, g in enumerate(gaps)]
    got, r = _run(lots, settings=Settings(elevation_ft=h))
    want = [_expected(_geodesic_gaps_ft(p), h, h, np.asarray(p)[:, 1].mean()) for p in lots]
    assert want == ["compliant", "noncompliant"] * 2
    assert got == want, list(zip(gaps * 2, got, want, strict=True))
    # the frame's scale at the first lot, as posting divides it out: 1 / (1 + x^2 / 2R^2), x
    # the distance along the parallel from the middle of the lots' extremes (the frame's
    # meridian) to the middle of the lot's box
    box = [shapely.Polygon(p).bounds for p in lots]
    middle = (min(b[0] for b in box) + max(b[2] for b in box)) / 2
    own = (box[0][0] + box[0][2]) / 2
    x_ft = GEOD.inv(middle, lat0, own, lat0)[2] / FT_M
    k = 1 + x_ft**2 / (2 * _radius_ft(lat0) ** 2)
    assert 60_000 < x_ft < 70_000 and 4e-6 < k - 1 < 6e-6
    assert r.ground.lo[0] == pytest.approx(1 / k, abs=2e-7)


def _grid_lots(epsg: int, lon0: float, lat0: float, targets_ft: list[float]):
    """Lots drawn on a State Plane grid (straight lines of the grid, in its US survey feet),
    each with grid gaps that measure about ``targets_ft`` on the ellipsoid there (the grid's
    scale found from a 1,000 ft geodesic, not from PROJ's factors): the lon/lat of their
    vertices (the grid's coordinates inverse-projected with pyproj), and that scale."""
    fwd = Transformer.from_crs("EPSG:4326", f"EPSG:{epsg}", always_xy=True)
    inv = Transformer.from_crs(f"EPSG:{epsg}", "EPSG:4326", always_xy=True)
    us_ft = 1200 / 3937
    x0, y0 = fwd.transform(lon0, lat0)
    lon1, lat1 = inv.transform(x0 + 1000.0, y0)
    k = 1000.0 * us_ft / GEOD.inv(lon0, lat0, lon1, lat1)[2]  # grid metres per ellipsoid metre
    lots = []
    for i, t in enumerate(targets_ft):
        g = t * FT_M * k / us_ft  # grid units
        y = y0 + 4000.0 * i
        xy = [(x0 + g * j, y) for j in range(4)] + [(x0 + g * j, y + 300.0) for j in (3, 2, 1, 0)]
        a = np.asarray(xy)
        lon, lat = inv.transform(a[:, 0], a[:, 1])
        lots.append(list(zip(lon, lat, strict=True)))
    return lots, k


@pytest.mark.parametrize(
    ("epsg", "lon0", "lat0", "states"),
    [
        # Florida East (transverse Mercator, k0 = 0.999941177 on 81 W): near its meridian
        # the grid is 6 parts in 100,000 short of the ellipsoid, 0.03 ft in 500 ft, more than
        # Florida's whole band (0 to 345 ft: 0.008 ft in 500 ft)
        (2236, -81.05, 28.50, ("florida",)),
        # Colorado Central (Lambert, parallels 38.45 and 39.75): between them, short too
        (2232, -106.50, 39.10, ("colorado",)),
    ],
)
def test_state_plane_lots_fold_in_the_grid_s_scale(epsg, lon0, lat0, states):
    table = _elevations_ft()
    low = min(table[s][0] for s in states)
    high = max(table[s][1] for s in states)
    targets = _thresholds(low, high, lat0)
    lots, k = _grid_lots(epsg, lon0, lat0, targets)
    assert abs(k - 1) > 3e-5  # the grid's scale matters here
    crs = CRS.from_epsg(epsg)
    to_grid = Transformer.from_crs("EPSG:4326", crs, always_xy=True)
    got, r = _run(lots, crs=crs, to_crs=to_grid)
    assert r.parcels["working_crs"].str.contains(crs.name, regex=False).all()  # the grid was kept
    want = [_expected(_geodesic_gaps_ft(p), low, high, np.asarray(p)[:, 1].mean()) for p in lots]
    assert got == want, list(zip(targets, got, want, strict=True))
    assert want[0] == "compliant" and want[3] == "noncompliant"

    # given the elevation, no grid is kept: one factor, on the geodesic lengths
    h = 0.5 * (low + high)
    got, _ = _run(lots, crs=crs, to_crs=to_grid, settings=Settings(elevation_ft=h))
    want = [_expected(_geodesic_gaps_ft(p), h, h, np.asarray(p)[:, 1].mean()) for p in lots]
    assert got == want, list(zip(targets, got, want, strict=True))
