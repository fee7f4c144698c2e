"""Parcels' preparation (posting.prepare): its helpers against the slower way they replace."""

from __future__ import annotations

import numpy as np
import shapely

from posting.crs import finite_geometry
from posting.prepare import _flush_tiny


def test_flush_tiny_tells_finite_geometries_as_finite_geometry_does():
    nan = shapely.set_coordinates(
        shapely.box(0, 0, 10, 10), [[0, 0], [10, 0], [np.nan, 10], [0, 10], [0, 0]]
    )
    tiny = shapely.box(0, 1e-250, 20, 20)
    cases = {
        (True, True, True): [tiny, None, shapely.box(0, 0, 1, 1)],
        (False, True, True, False): [nan, tiny, None, nan],
        (): [],
    }
    for want, geoms in cases.items():
        got, finite = _flush_tiny(np.array(geoms, dtype=object))
        assert tuple(finite.tolist()) == want
        assert finite.tolist() == finite_geometry(got).tolist()
        if len(geoms):
            assert shapely.bounds(got[1 if want[0] is False else 0])[1] == 0.0


def test_a_lot_across_the_antimeridian_in_lon_lat_is_named_and_measured_in_utm():
    """A lot of the Aleutians across 180 degrees spans the globe in longitude (-179.999 to
    179.999): invalid with the cause and what to do, whole or split in two parts; the same lot in
    UTM zone 1N is measured as it is."""
    import pyproj
    from pyproj import CRS

    from posting import check
    from posting.prepare import ANTIMERIDIAN
    from tests.helpers import markers, parcels

    lon_w, lon_e, lat_s, lat_n = 179.999, -179.999, 51.8, 51.801
    whole = shapely.Polygon(
        [(lon_w, lat_s), (lon_e, lat_s), (lon_e, lat_n), (lon_w, lat_n), (lon_w, lat_s)]
    )
    split = shapely.MultiPolygon(
        [shapely.box(lon_w, lat_s, 180.0, lat_n), shapely.box(-180.0, lat_s, lon_e, lat_n)]
    )
    wgs84 = CRS.from_epsg(4326)
    rep = check(
        parcels(whole, split, ids=["whole", "split"], crs=wgs84),
        markers([(-179.9995, 51.80095)], crs=wgs84),
        "florida",
    )
    assert rep.parcels["status"].tolist() == ["invalid", "invalid"]
    assert rep.parcels["invalid_reason"].tolist() == [ANTIMERIDIAN, ANTIMERIDIAN]
    assert "crosses the antimeridian" in ANTIMERIDIAN and "EPSG:32601" in ANTIMERIDIAN
    # in UTM zone 1N: measured, its perimeter the geodesic one of its corners (pyproj.Geod:
    # 2 x 0.002 degrees of longitude at 51.8 N, about 2 x 454 ft, and 2 x 0.001 degrees of
    # latitude, about 2 x 365 ft)
    utm = CRS.from_epsg(32601)
    to_utm = pyproj.Transformer.from_crs(wgs84, utm, always_xy=True)
    ring = [(lon_w, lat_s), (lon_e, lat_s), (lon_e, lat_n), (lon_w, lat_n)]
    lot = shapely.Polygon([to_utm.transform(*p) for p in ring])
    rep = check(parcels(lot, ids=["utm"], crs=utm), markers([], crs=utm), "florida")
    geod = pyproj.Geod(ellps="WGS84")
    back = pyproj.Transformer.from_crs(utm, wgs84, always_xy=True)
    lons, lats = zip(*(back.transform(*p) for p in lot.exterior.coords), strict=True)
    perimeter_ft = geod.line_length(lons, lats) / 0.3048
    assert 1_630 < perimeter_ft < 1_640
    assert rep.parcels["status"].tolist() == ["unposted"]
    assert abs(rep.parcels["perimeter_ft"].iloc[0] - perimeter_ft) < 0.05
