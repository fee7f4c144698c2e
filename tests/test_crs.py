"""Working CRS: lengths in true feet whatever the input CRS, checked against geodesic lengths."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from helpers import markers, parcels
from pyproj import CRS, Geod, Transformer

from posting import check
from posting.crs import WGS84, WorkingCRS, local_tm, max_scale_error, plan_working_crs, utm_zone
from posting.errors import CRSError

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
