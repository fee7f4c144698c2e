"""Working CRS: lengths in true feet whatever the input CRS, checked against geodesic lengths."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from helpers import markers, parcels
from pyproj import CRS, Geod, Transformer

from posting import Settings, check
from posting.crs import (
    WGS84,
    WorkingCRS,
    elevation_factor,
    local_tm,
    max_scale_error,
    plan_working_crs,
    utm_zone,
)
from posting.errors import CRSError, InputError

GEOD = Geod(ellps="WGS84")
FT_M = 0.3048


def geodesic_ft(geom_lonlat) -> float:
    """Perimeter (every ring) on the WGS 84 ellipsoid, in international feet."""
    rings = shapely.get_rings(shapely.get_parts(geom_lonlat))
    return sum(GEOD.geometry_length(r) for r in rings) / FT_M


def to_crs(geom, src, dst):
    tr = Transformer.from_crs(src, dst, always_xy=True)
    return shapely.transform(geom, lambda xy: np.column_stack(tr.transform(xy[:, 0], xy[:, 1])))


def test_us_survey_feet_are_converted():
    w = WorkingCRS(CRS.from_epsg(2236))
    assert w.ft_per_unit == pytest.approx(1200 / 3937 / 0.3048, rel=1e-15)
    assert WorkingCRS(CRS.from_epsg(32617)).ft_per_unit == pytest.approx(1 / 0.3048)


def test_never_measures_in_degrees():
    with pytest.raises(CRSError, match="degrees"):
        WorkingCRS(WGS84)


def test_same_parcel_in_4326_and_2236_gives_the_same_figures():
    # A 1,320 x 660 ft tract near Orlando, drawn in Florida East US survey feet.
    x0, y0 = 540_000.0, 1_520_000.0
    usft = 1200 / 3937 / 0.3048  # international feet per US survey foot
    poly_sp = shapely.box(x0, y0, x0 + 1320 / usft, y0 + 660 / usft)
    ring = shapely.get_exterior_ring(poly_sp)
    pos = np.arange(0, 3960, 330.0) / usft
    pts_sp = shapely.get_coordinates(shapely.line_interpolate_point(ring, pos))
    sp = CRS.from_epsg(2236)
    r_sp = check(parcels(poly_sp, crs=sp), markers(pts_sp, crs=sp))
    poly_ll = to_crs(poly_sp, sp, WGS84)
    pts_ll = shapely.get_coordinates(to_crs(shapely.points(pts_sp), sp, WGS84))
    r_ll = check(parcels(poly_ll, crs=WGS84), markers(pts_ll, crs=WGS84))
    assert r_sp.crs.startswith("EPSG:2236")  # a State Plane layer is measured in State Plane
    assert "transverse Mercator" in r_ll.crs
    a, b = r_sp.to_dict()["parcels"][0], r_ll.to_dict()["parcels"][0]
    assert a["status"] == b["status"] == "compliant"
    for key in ("perimeter_ft", "max_gap_ft", "area_acres"):
        assert a[key] == pytest.approx(b[key], rel=1e-4), key
    # State Plane grid distance is within 0.006 % of the ground here; the local projection is
    # within 0.0001 % of the geodesic.
    assert b["perimeter_ft"] == pytest.approx(geodesic_ft(poly_ll), rel=1e-6)
    assert a["perimeter_ft"] == pytest.approx(3960.0, rel=1e-4)
    assert b["area_acres"] == pytest.approx(1320 * 660 / 43560, rel=1e-4)


def test_a_crs_in_links_is_measured_in_feet_and_named_by_what_it_is():
    """A lot 1,000 links square (Gunter's link: 0.66 ft, 0.201168 m) in a Florida East
    transverse Mercator given as a PROJ string in links: kept (its scale is within 1:10,000
    there), its perimeter 4 x 1,000 x 0.66 = 2,640 ft, and the working CRS named by its
    projection, datum and unit, where the report said 'unknown'."""
    links = CRS(
        "+proj=tmerc +lat_0=24.33333333333333 +lon_0=-81 +k=0.999941177 +x_0=200000 +y_0=0 "
        "+datum=NAD83 +to_meter=0.201168 +no_defs"
    )
    x0, y0 = Transformer.from_crs(4326, links, always_xy=True).transform(-81.1, 28.74)
    r = check(parcels(shapely.box(x0, y0, x0 + 1000, y0 + 1000), crs=links))
    assert r.crs == "unnamed Transverse Mercator CRS on North American Datum 1983, in links"
    assert r.to_dict()["parcels"][0]["perimeter_ft"] == pytest.approx(2640.0, abs=0.005)


def test_web_mercator_input_is_not_measured_in_web_mercator():
    poly_ll = shapely.box(-81.30, 28.60, -81.29, 28.61)
    merc = CRS.from_epsg(3857)
    r = check(parcels(to_crs(poly_ll, WGS84, merc), crs=merc))
    p = r.to_dict()["parcels"][0]
    assert "3857" not in r.crs
    assert p["perimeter_ft"] == pytest.approx(geodesic_ft(poly_ll), rel=1e-5)
    merc_len = shapely.length(to_crs(poly_ll, WGS84, merc)) / FT_M
    assert merc_len / p["perimeter_ft"] > 1.1  # what measuring in EPSG:3857 would have said


def test_dataset_spanning_utm_zones_measures_each_parcel_in_its_own_zone():
    west = shapely.box(-86.50, 30.40, -86.49, 30.41)  # zone 16
    east = shapely.box(-79.90, 32.70, -79.89, 32.71)  # zone 17
    sign_w = shapely.get_coordinates(
        west.exterior.interpolate(np.arange(0, 1, 0.1), normalized=True)
    )
    sign_e = shapely.get_coordinates(
        east.exterior.interpolate(np.arange(0, 1, 0.1), normalized=True)
    )
    r = check(parcels(west, east, crs=WGS84), markers(np.vstack([sign_w, sign_e]), crs=WGS84))
    d = r.to_dict()
    assert len(d["crs_detail"]) == 2
    assert [c["parcels"] for c in d["crs_detail"]] == [1, 1]
    for p, poly in zip(d["parcels"], (west, east), strict=True):
        assert p["perimeter_ft"] == pytest.approx(geodesic_ft(poly), rel=1e-5)
        assert p["signs"] == 10
        assert p["working_crs"] in r.crs
    gaps = r.gaps.groupby("parcel")["length_ft"].sum()
    assert gaps.tolist() == pytest.approx(r.parcels["perimeter_ft"].tolist(), rel=1e-12)


def test_plan_keeps_a_projected_crs_only_where_it_is_true():
    lon, lat = np.array([-81.3, -81.2]), np.array([28.6, 28.7])
    crss, _ = plan_working_crs(lon, lat, CRS.from_epsg(2236))
    assert crss[0].label.startswith("EPSG:2236")
    crss, _ = plan_working_crs(lon, lat, CRS.from_epsg(3857))
    assert "transverse Mercator" in crss[0].label
    # Florida East used 400 miles west of its zone: too distorted, replaced.
    assert max_scale_error(CRS.from_epsg(2236), np.array([-87.5]), np.array([30.5])) > 5e-4
    crss, _ = plan_working_crs(np.array([-87.5]), np.array([30.5]), CRS.from_epsg(2236))
    assert "transverse Mercator" in crss[0].label


def test_local_tm_scale_error_is_negligible_near_its_meridian():
    w = local_tm(-81.2)
    # 30 miles east of the meridian at 28.7 N
    assert (
        max_scale_error(w.crs, np.array([-81.2 + 30 * 1609.344 / 97_700]), np.array([28.7])) < 6e-5
    )


def test_utm_zone_numbers():
    assert utm_zone(np.array([-84.01, -83.99]), np.array([30.0, 30.0])).tolist() == [32616, 32617]


def test_a_coordinate_beyond_the_earth_is_placed_nowhere():
    """PROJ places some absurd coordinates: in Washington South's Lambert zone (US survey
    feet) an easting of 1e10 at (3.3, -89.9), in a transverse Mercator a northing of 1e300 at
    (98.9, -73.1). Beyond 1e9 ft (``FARTHEST_FT``; in US survey feet 1e9 x 0.3048 / (1200 /
    3937) = 999,998,000) a position has no longitude or latitude; within it, the transform's."""
    from posting.crs import to_lonlat

    wa = CRS("EPSG:2927")
    lon, lat = to_lonlat(np.array([1e10, 999_999_000.0, 999_997_000.0]), np.zeros(3), wa)
    assert np.isnan(lon[:2]).all() and np.isnan(lat[:2]).all()
    assert np.isfinite([lon[2], lat[2]]).all()
    tm = CRS("+proj=tmerc +lat_0=28.7 +lon_0=-81.1 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft")
    lon, lat = to_lonlat(np.array([1e-300, 0.0]), np.array([1e300, 0.0]), tm)
    assert np.isnan(lon[0]) and np.isnan(lat[0])
    assert lon[1] == pytest.approx(-81.1) and lat[1] == pytest.approx(28.7)


def test_a_crs_pyproj_does_not_know_is_said_in_the_same_words_in_every_process(monkeypatch):
    """pyproj adds PROJ's own log line to its message only while a process-wide slot holds it,
    which another thread may clear first: CI once saw a dask worker's message differ from one
    run's for the same GeoParquet file. The words kept are the same whether the slot was
    read or found empty (written out from pyproj's format: "Invalid projection: " and the
    text given)."""
    import pyproj.exceptions

    from posting.crs import parse_crs

    said = []
    for emptied in (False, True):
        if emptied:
            monkeypatch.setattr(pyproj.exceptions, "_get_proj_error", lambda: None)
        with pytest.raises(CRSError) as err:
            parse_crs("EPSG:99999999")
        said.append(err.value.worded(lambda name: "--" + name))
    words = "--crs: 'EPSG:99999999' is not a CRS pyproj knows (Invalid projection: EPSG:99999999)"
    assert said == [words, words]


@pytest.mark.parametrize(
    "value, kind",
    [("EPSG:4978", "geocentric CRS (WGS 84)"), ("5703", "vertical CRS (NAVD88 height)")],
)
def test_a_crs_of_no_places_on_a_map_is_refused_as_such(tmp_path, value, kind):
    """``--crs EPSG:4978`` (geocentric) or ``5703`` (a height) for a Shapefile without a
    ``.prj``: its State Plane numbers were placed at random, every parcel "invalid" with a
    "Self-intersection at [68.5, 0.0]" (with --rules auto, "no parcel has a geometry to find
    its state by"). Refused as what it is, saying what to give; a compound CRS of a State
    Plane and a height is read as its State Plane."""
    import geopandas as gpd

    from posting import read_parcels
    from posting.crs import parse_crs

    with pytest.raises(CRSError) as err:
        parse_crs(value)
    said = err.value.worded(lambda name: "--" + name)
    assert said == (
        f"--crs: {value!r} is a {kind}, not one of places on a map: give a projected CRS "
        "(State Plane, UTM: EPSG:2236 for Florida East, US survey feet) or a geographic one "
        "(EPSG:4326 for longitude/latitude)"
    )
    path = tmp_path / "lots.shp"
    with pytest.warns(UserWarning, match="crs"):
        gpd.GeoDataFrame(geometry=[shapely.box(6e5, 1.5e6, 6.01e5, 1.501e6)]).to_file(path)
    with pytest.raises(CRSError, match="not one of places on a map"):
        read_parcels(path, crs=value)
    assert read_parcels(path, crs="EPSG:2236+5703").crs.is_projected


def test_markers_on_another_datum_than_the_parcels_are_said_where_no_shift_is_good_to_5_m():
    # NAD27 lots and GPS (WGS 84) signs in Florida: PROJ's best available shift, asked
    # directly (the second method), is a Helmert one good to 10 m where NOAA's grid is not
    # installed; NAD83 and WGS 84 (4 m at worst) and the same datum are not said
    import warnings

    from pyproj.aoi import AreaOfInterest
    from pyproj.transformer import TransformerGroup

    from posting.crs import DATUM_ACCURACY_M, datum_warnings

    box = np.array([[-81.2, 28.6, -81.0, 28.8], [np.nan] * 4])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        group = TransformerGroup(
            CRS("EPSG:4267"),
            CRS("EPSG:4326"),
            always_xy=True,
            area_of_interest=AreaOfInterest(-82, 28, -81, 29),
        )
    best = group.transformers[0].accuracy
    said = datum_warnings(("lots.shp", CRS("EPSG:26717")), [("signs.csv", WGS84)], box)
    if best > DATUM_ACCURACY_M:
        [w] = said
        assert w.startswith("signs.csv: its datum (WGS 84) is not the parcels' (NAD27, lots.shp)")
        assert f"good to {best:g} m" in w
    else:  # pragma: no cover - a machine with NOAA's grids
        assert said == []
    for crs in ("EPSG:2236", "EPSG:6318", "EPSG:32617", "EPSG:4326"):
        assert datum_warnings(("lots.shp", CRS(crs)), [("signs.csv", WGS84)], box) == [], crs
    both_nad27 = datum_warnings(("lots.shp", CRS("EPSG:4267")), [("s.shp", CRS("EPSG:26717"))], box)
    assert both_nad27 == []
    assert datum_warnings(("lots.shp", CRS("EPSG:4267")), [], box) == []
    assert datum_warnings(("lots.shp", CRS("EPSG:4267")), [("s.csv", WGS84)], box[1:]) == []


def test_a_utm_layer_is_not_measured_in_utm_where_its_scale_is_1_2500_off():
    """UTM's scale is 0.9996 on its central meridian: a layer in UTM zone 17N metres at 81.2 W
    (0.2 degrees from it) was kept as the working CRS (its scale error, 4.0e-4, was within the
    0.05 % then allowed), and every length came out 1:2,530 short. A square lot whose sides are
    1,000.3 ft on the ground (pyproj's geodesic), posted every 500.15 ft, measured 499.95 ft
    gaps and passed Florida's 500 ft: a false pass. Only a CRS within 1:10,000 of true scale
    over the data (State Plane's design limit) is kept now; the lot is measured on a local
    transverse Mercator and fails by 0.15 ft, the geodesic figure."""
    ltm = CRS.from_proj4("+proj=tmerc +lon_0=-81.2 +k=1 +datum=WGS84 +units=ft")
    x0, y0 = Transformer.from_crs(WGS84, ltm, always_xy=True).transform(-81.2, 28.7)
    side = 1000.3
    lot = shapely.box(x0, y0, x0 + side, y0 + side)
    signs = shapely.line_interpolate_point(lot.exterior, np.arange(0, 4 * side, side / 2))
    lot_ll, signs_ll = to_crs(lot, ltm, WGS84), to_crs(signs, ltm, WGS84)
    lon, lat = shapely.get_x(signs_ll), shapely.get_y(signs_ll)
    truth = GEOD.inv(lon, lat, np.roll(lon, -1), np.roll(lat, -1))[2] / FT_M
    assert truth == pytest.approx(500.15, abs=1e-4)  # the ground, independently
    utm = CRS.from_epsg(32617)
    assert max_scale_error(utm, lon, lat) == pytest.approx(3.95e-4, abs=1e-6)
    lot_utm, signs_utm = to_crs(lot_ll, WGS84, utm), to_crs(signs_ll, WGS84, utm)
    r = check(parcels(lot_utm, crs=utm), markers(shapely.get_coordinates(signs_utm), crs=utm))
    p = r.to_dict()["parcels"][0]
    assert "transverse Mercator" in r.crs
    assert p["status"] == "noncompliant"
    assert p["max_gap_ft"] == pytest.approx(500.15, abs=0.01)
    assert p["perimeter_ft"] == pytest.approx(geodesic_ft(lot_ll), abs=0.01)
    # Florida East State Plane in Seminole County (5.4e-5) is still measured in its own grid
    assert max_scale_error(CRS.from_epsg(2236), lon, lat) < 1e-4
    crss, _ = plan_working_crs(lon, lat, CRS.from_epsg(2236))
    assert crss[0].label.startswith("EPSG:2236")


# -- ground lengths at an elevation -----------------------------------------------------------
# A transverse Mercator at Denver, scale 1: its feet are feet on the ellipsoid (sea level).
DENVER = CRS.from_proj4(
    "+proj=tmerc +lat_0=39.74 +lon_0=-104.99 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft +no_defs"
)


def test_signs_500_1_ground_ft_apart_in_denver_fail_only_at_its_elevation():
    """By hand. WGS 84: a = 6,378,137 m = 20,925,646.3 ft, e² = f (2 - f) = 0.00669438. At
    Denver's 39.74° N, sin² = 0.408711, 1 - e² sin² = 0.9972639, sqrt(1 - e²) = 0.9966472: the
    Gaussian mean radius R = a sqrt(1 - e²) / (1 - e² sin²) = 20,912,705 ft. At 5,280 ft the
    ground is longer than the ellipsoid by (R + 5280) / R = 1.00025248: 500 ft on the ground is
    500 / 1.00025248 = 499.874 ft at sea level (0.126 ft short), and signs 500.1 ground ft
    apart are 500.1 / 1.00025248 = 499.974 ft apart at sea level. A square lot whose sides are
    1,000.2 ft on the ground (999.9475 ft at sea level) with a sign at each corner and
    midpoint passes Florida's 500 ft measured at sea level: a false pass. At its elevation it
    fails by 0.1 ft, its perimeter 4 x 1,000.2 = 4,000.8 ft and its area 1,000.2² / 43,560 =
    22.9660 acres (22.9544 at sea level). Its elevation not given, the lot is somewhere in
    Colorado (3,350 to 14,433 ft): 499.974 ft is at least 499.974 x (1 + 3350 / R) =
    500.054 ft on the ground, over the limit: no false pass."""
    factor = 1.00025248
    side = 1000.2 / factor  # at sea level: 999.9475 ft
    assert side == pytest.approx(999.9475, abs=1e-4)
    half = side / 2
    signs = [(x * half, y * half) for x, y in [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2)]]
    signs += [(0, 2 * half), (0, half)]
    lot = parcels(shapely.box(0, 0, side, side), crs=DENVER)
    at_sea = check(lot, markers(signs, crs=DENVER), settings=Settings(elevation_ft=0))
    at_sea = at_sea.to_dict()["parcels"][0]
    assert at_sea["status"] == "compliant"
    unknown = check(lot, markers(signs, crs=DENVER)).to_dict()["parcels"][0]
    assert unknown["status"] == "noncompliant"
    assert at_sea["max_gap_ft"] == pytest.approx(499.97, abs=0.005)
    r = check(lot, markers(signs, crs=DENVER), settings=Settings(elevation_ft=5280))
    p = r.to_dict()["parcels"][0]
    assert p["status"] == "noncompliant"
    assert p["max_gap_ft"] == pytest.approx(500.1, abs=0.005)
    assert p["perimeter_ft"] == pytest.approx(4000.8, abs=0.01)
    assert p["area_acres"] == pytest.approx(22.9660, abs=1e-4)
    assert at_sea["area_acres"] == pytest.approx(22.9544, abs=1e-4)
    # the report says the elevation it measured at (a projected layer is no longer kept: its
    # grid lengths are not the ground's)
    assert "scale 1.0002525 (ground distances at 5,280 ft elevation)" in r.crs
    assert r.to_dict()["settings"]["elevation_ft"] == 5280


def test_a_long_gap_at_an_elevation_is_the_sea_level_one_times_r_plus_h_over_r():
    """A second method: the Gaussian radius from pyproj's geodesics, sqrt(M N), M a short
    meridian arc over its angle and N cos(lat) a short parallel arc over its angle (N from the
    geodesic between two points of a parallel, within 1e-9 of the parallel's arc at 0.01°).
    A lot in longitude/latitude near Leadville, Colorado (10,150 ft): its two signs 1.3 miles
    apart, the long gap between them measured with and without the elevation."""
    lat, h = 39.25, 10_150.0
    d = 0.01
    m = GEOD.inv(-106.3, lat - d / 2, -106.3, lat + d / 2)[2] / np.radians(d)
    n = GEOD.inv(-106.3 - d / 2, lat, -106.3 + d / 2, lat)[2] / np.radians(d)
    n /= np.cos(np.radians(lat))
    r_ft = np.sqrt(m * n) / FT_M
    lot = shapely.box(-106.33, lat - 0.005, -106.27, lat + 0.005)  # 5,300 by 3,640 ft
    signs = [(-106.33, lat - 0.005), (-106.33, lat + 0.005)]  # the west side: one long gap
    lengths = []
    for elevation in (0.0, h):
        r = check(
            parcels(lot, crs=WGS84),
            markers(signs, crs=WGS84),
            settings=Settings(elevation_ft=elevation),
        )
        lengths.append(r.to_dict()["parcels"][0]["max_gap_ft"])
    assert lengths[0] > 14_000  # the way round, not the 3,640 ft side
    assert lengths[1] / lengths[0] == pytest.approx((r_ft + h) / r_ft, abs=1e-7)
    # and the formula (:func:`posting.crs.elevation_factor`) agrees
    assert elevation_factor(h, lat) == pytest.approx((r_ft + h) / r_ft, abs=1e-10)


def test_without_an_elevation_the_frame_and_the_kept_crs_are_today_s():
    crss, _ = plan_working_crs(np.array([-81.2]), np.array([28.7]), CRS.from_epsg(2236))
    assert crss[0].label.startswith("EPSG:2236") and crss[0].elevation_factor == 1.0
    tm = local_tm(-81.1)
    assert "+k=1 " in tm.crs.srs and tm.elevation_factor == 1.0
    # given an elevation, State Plane is not kept: a local transverse Mercator scaled to it
    crss, _ = plan_working_crs(np.array([-81.2]), np.array([28.7]), CRS.from_epsg(2236), 300)
    assert "300 ft elevation" in crss[0].label
    assert crss[0].elevation_factor == pytest.approx(1 + 300 / 20_896_000, abs=1e-8)


def test_a_planned_position_at_an_elevation_goes_back_to_its_own_longitude_and_latitude():
    frame = local_tm(-104.99, 5280, 39.74)
    x, y = frame.xy_to_ft(np.array([-104.98, -105.0]), np.array([39.73, 39.75]), WGS84)
    lon, lat = frame.ft_to_lonlat(x, y)
    assert np.allclose(lon, [-104.98, -105.0], atol=1e-11)
    assert np.allclose(lat, [39.73, 39.75], atol=1e-11)
    # the frame's feet are ground feet: the geodesic between the two, times the factor
    ground = GEOD.inv(-104.98, 39.73, -105.0, 39.75)[2] / FT_M * 1.00025248
    assert np.hypot(x[1] - x[0], y[1] - y[0]) == pytest.approx(ground, rel=2e-7)


@pytest.mark.parametrize("value", [-301.0, 20_501.0, 52_800.0, float("nan"), float("inf")])
def test_an_elevation_off_the_map_is_refused(value):
    with pytest.raises(InputError, match=r"elevation_ft= is the land's height above sea level"):
        Settings(elevation_ft=value)
    assert Settings(elevation_ft=-282.0).elevation_ft == -282.0  # Badwater Basin


def test_a_box_across_the_antimeridian_is_the_short_way_round():
    """Longitudes 179.99 and -179.98 are 0.03 degrees apart across 180, not 359.97 the other
    way: a lot's west and east are 179.99 and 180.02 (-179.98 + 360); lots on both sides of
    180 are boxed so too, and a point just east of -180 meets such a box (as 180 + its excess),
    one at -179.9 (180.1) does not; far from 180 nothing changes."""
    from posting.crs import lon_meets, lon_range, lonlat_box

    west, east = lon_range(np.array([[179.99, -81.3, np.nan], [-179.98, -81.2, np.nan]]))
    assert west[:2].tolist() == [179.99, -81.3] and np.isnan(west[2])
    assert east[0] == pytest.approx(180.02, abs=1e-9) and east[1] == -81.2
    box = lonlat_box(np.array([[179.99, 51.8, 180.02, 51.9], [-179.97, 51.7, -179.95, 51.8]]))
    assert box == pytest.approx((179.99, 51.7, 180.05, 51.9), abs=1e-9)
    assert lonlat_box(np.array([[-81.3, 28.6, -81.2, 28.7]])) == (-81.3, 28.6, -81.2, 28.7)
    lon = np.array([-179.99, -179.9, 179.995, 179.9])
    assert lon_meets(lon, lon, 179.95, 180.02).tolist() == [True, False, True, False]
    assert lon_meets(lon, lon, -180.0, -179.95).tolist() == [True, False, False, False]


def test_the_stakeout_zone_of_a_lot_across_the_antimeridian_is_where_it_lies():
    """A lot across 180 degrees at 51.8 N (Alaska Albers): UTM zone 60N (174 E to 180), in
    which its middle, 179.995 E, lies; its box's middle as the rest of the globe, near 0
    degrees, named zone 30N (in Europe)."""
    from test_assign import ALASKA_ALBERS, aleutian_lots

    from posting.crs import stakeout_hint
    from posting.prepare import prepare_parcels

    lots, _ = aleutian_lots("east")
    prep = prepare_parcels(parcels(lots[0], crs=ALASKA_ALBERS))
    west, _, east, _ = prep.geometry.bounds_lonlat[0]
    assert 179.98 < west < 180.0 < east < 180.02
    assert stakeout_hint(prep.geometry.bounds_lonlat).startswith("EPSG:32660 ")
