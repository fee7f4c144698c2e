"""A vertex far from the rest of its ring or line (posting.strays): a coordinate typed wrong."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import shapely
from helpers import SAMPLE
from hypothesis import given, settings
from hypothesis import strategies as st
from pyproj import CRS, Geod
from shapely import LineString, MultiLineString, MultiPolygon, Polygon, box

from posting.cli import main
from posting.io import read_parcels
from posting.strays import STRAY_FEATURE, STRAY_FT, STRAY_RATIO, find_strays

WGS84 = CRS.from_epsg(4326)
FLORIDA_EAST = CRS.from_epsg(2236)  # US survey feet
EQUATOR_DEG_FT = 2 * math.pi * 6_378_137.0 / 360 / 0.3048  # a degree of the equator (a circle)


def test_a_stray_on_the_equator_by_the_ellipsoid_s_own_circle():
    """A lot 0.001 degree wide at (0, 0) whose third vertex was typed as (1, 0): the ring's
    middle (the median of its five vertices) is (0.0005, 0), so the stray lies 0.9995 degree
    of the equator away, a length the ellipsoid defines (its equator is a circle of radius
    6,378,137 m); the other vertices lie within the diagonal of a 0.001 by 0.0005 degree box."""
    a = 0.0005
    lot = Polygon([(-a, -a), (a, -a), (1.0, 0.0), (a, a), (-a, a)])
    found = find_strays(np.array([box(-a, -a, a, a), lot]), WGS84)
    assert found.rows.tolist() == [1]
    assert found.xy.tolist() == [[1.0, 0.0]]
    assert found.distance_ft[0] == pytest.approx((1 - a) * EQUATOR_DEG_FT, abs=0.5)
    lat_deg_ft = 110_574.27 / 0.3048  # a degree of latitude at the equator (meridian arc)
    within = math.hypot(2 * a * EQUATOR_DEG_FT, a * lat_deg_ft)
    assert found.within_ft[0] == pytest.approx(within, rel=1e-3)


@pytest.mark.parametrize(
    ("ring", "stray"),
    [
        # a digit too many in x (5,430,000 for 543,000 US survey feet)
        ([(543000, 1500000), (5430000, 1500000), (543500, 1500500), (543000, 1500500)], 1),
        # a vertex left at (0, 0) by the digitiser
        ([(543000, 1500000), (543500, 1500000), (0, 0), (543000, 1500500)], 2),
        # the first vertex (written twice, to close the ring) with a digit too many in y
        ([(543000, 15000000), (543500, 1500000), (543500, 1500500), (543000, 1500500)], 0),
    ],
)
def test_typing_errors_in_state_plane_feet_are_strays(ring, stray):
    found = find_strays(np.array([Polygon(ring)]), FLORIDA_EAST)
    assert found.rows.tolist() == [0]
    assert found.xy.tolist() == [list(map(float, ring[stray]))]
    assert found.distance_ft[0] > 100 * 5280 and found.within_ft[0] < 710  # the diagonal


def test_a_stray_in_the_second_part_of_a_lot_but_not_a_distant_part():
    far_part = box(0, 10_000, 500, 10_500)  # a part six miles away: not a stray
    stray_part = Polygon([(0, 20_000), (500, 20_000), (500, 9_000_000), (0, 20_500)])
    g = np.array(
        [
            MultiPolygon([box(0, 0, 500, 500), far_part]),
            MultiPolygon([box(0, 0, 500, 500), stray_part]),
        ]
    )
    found = find_strays(g, CRS.from_epsg(32617))
    assert found.rows.tolist() == [1]
    assert found.xy.tolist() == [[500.0, 9_000_000.0]]


def test_long_lots_remote_parts_and_lots_on_the_antimeridian_and_a_pole_are_not_strays():
    mile = 5280 * 0.3048  # metres (UTM 17N)
    geoms = [
        box(0, 0, 100 * mile, 30),  # a railroad strip 100 miles long, 100 ft wide
        # and one with three vertices at its west end, two at its east end
        Polygon([(0, 0), (100 * mile, 0), (100 * mile, 30), (0, 30), (0, 15)]),
        Polygon([(0, 0), (60 * mile, 0), (60 * mile, 5), (30 * mile, 1000), (0, 5)]),
        MultiPolygon([box(0, 0, 300, 300), box(80 * mile, 0, 80 * mile + 300, 300)]),
    ]
    assert len(find_strays(np.array(geoms), CRS.from_epsg(32617))) == 0
    on_the_globe = [
        Polygon([(179.999, 10), (-179.999, 10), (-179.999, 10.001), (179.999, 10.001)]),
        Polygon([(179.999, 10), (-179.9995, 10.0005), (179.999, 10.001)]),  # apex across
        Polygon([(-180, 89.99), (-90, 89.99), (0, 89.99), (90, 89.99), (180, 89.99)]),
        Polygon([(0, -89.999), (120, -89.999), (-120, -89.999)]),
    ]
    assert len(find_strays(np.array(on_the_globe), WGS84)) == 0


def test_a_sign_dropped_from_a_longitude_is_a_stray_in_degrees():
    """81.3 for -81.3 at 28.6 N: across the globe (about 9,800 miles by the shorter way)."""
    lot = Polygon([(-81.3, 28.6), (81.3, 28.6), (-81.299, 28.601), (-81.3, 28.601)])
    found = find_strays(np.array([lot]), WGS84)
    assert found.rows.tolist() == [0]
    _, _, metres = Geod(ellps="WGS84").inv(-81.2995, 28.6005, 81.3, 28.6)
    assert found.distance_ft[0] == pytest.approx(metres / 0.3048, rel=1e-4)


def test_lines_a_stray_at_an_end_or_inside_but_not_a_long_road():
    """A fence of 4 vertices 300 ft apart in Florida East: its last vertex typed 5,430,000 for
    543,900 (an end's one neighbour is near), or its second (both near); a road whose last two
    vertices lie 60 miles off (each the other's neighbour), a line of two vertices (each as far
    from their middle as the other), a point, and a fence 60 miles long are not."""
    x, y = 543_000.0, 1_500_000.0
    fence = [(x, y), (x + 300, y), (x + 600, y), (x + 900, y)]
    at_end = LineString([*fence[:3], (5_430_000.0, y)])
    inside = MultiLineString([[(x, y + 9), (x + 9, y + 9)], [fence[0], (x, 5e6), *fence[2:]]])
    road = LineString([*fence, (x + 316_800, y), (x + 316_800, y + 300)])
    two = LineString([(x, y), (x + 316_800, y)])
    lone = LineString([(x, y), (x, y)])
    g = np.array([at_end, inside, road, two, lone, shapely.Point(x, y), None], dtype=object)
    found = find_strays(g, FLORIDA_EAST)
    assert found.rows.tolist() == [0, 1]
    assert found.xy.tolist() == [[5_430_000.0, y], [x, 5e6]]
    assert found.rows.tolist() == _strays_slowly(g[:6], FLORIDA_EAST)


def test_a_context_feature_with_a_stray_is_left_out_and_said(tmp_path):
    """The sample's water with its first feature's third vertex moved 5 degrees west (a
    longitude typed -86 for -81): left out with why, its row listed; the other features are
    kept as read."""
    from posting.io import read_features

    layer = json.loads((SAMPLE / "water.geojson").read_text(encoding="utf-8"))
    geom = layer["features"][0]["geometry"]
    assert geom["type"] == "Polygon"
    geom["coordinates"][0][2][0] -= 5.0
    path = tmp_path / "water.geojson"
    path.write_text(json.dumps(layer), encoding="utf-8")
    base = read_features(SAMPLE / "water.geojson")
    typed = read_features(path)
    assert typed.left_out == {**base.left_out, 0: STRAY_FEATURE}
    assert typed.geometry[0] is None and base.geometry[0] is not None
    assert all(
        shapely.equals(a, b) for a, b in zip(typed.geometry[1:], base.geometry[1:], strict=True)
    )
    [said] = [w for w in typed.warnings() if "50 miles" in w]
    assert "1 feature" in said and STRAY_FEATURE in said


def test_nothing_to_look_at():
    assert len(find_strays(np.array([], dtype=object), WGS84)) == 0
    assert len(find_strays(np.array([None, shapely.Polygon()]), WGS84)) == 0
    assert len(find_strays(np.array([box(0, 0, 1, 1)]), CRS.from_epsg(4978))) == 0  # geocentric


def test_a_coordinate_that_is_not_finite_is_not_a_stray_and_warns_of_nothing():
    """A lot with an infinite x, and one whose far vertex its CRS cannot place (beyond what a
    transverse Mercator reaches), are left to the preparation, which says why (tests run
    with warnings as errors: the stray search once warned of an invalid value); beside them a
    stray 938 miles east of a lot 10 ft high is found (947 on the plane)."""
    crs = CRS("+proj=tmerc +lat_0=28.7 +lon_0=-81.1 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft")
    lots = shapely.from_wkt(
        [
            "POLYGON ((50 0, Infinity 50, 0 50, 0 0, 50 0))",
            "POLYGON ((0 0, 1e12 5, 0 10, 0 5, 0 0))",
            "POLYGON ((0 0, 5000000 0, 0 10, 0 5, 0 0))",
        ]
    )
    found = find_strays(lots, crs)
    assert found.rows.tolist() == [2]
    assert found.distance_ft[0] / 5280 == pytest.approx(938, abs=15)  # 5,000,000 ft on the plane


# -- the oracle: one vertex at a time, by the definition --------------------------------------


def _strays_slowly(geometry, crs) -> list[int]:
    """Each ring's vertices but the closing one (each line's, all), their middle (median east
    of the first vertex and median latitude), each vertex's geodesic distance from it, one at a
    time; a vertex at a line's end has its one neighbour only."""
    from pyproj import Transformer

    t = Transformer.from_crs(crs, WGS84, always_xy=True)
    geod = Geod(ellps="WGS84")
    rows = []
    for row, g in enumerate(geometry):
        parts = list(g.geoms) if isinstance(g, MultiPolygon | MultiLineString) else [g]
        rings = [
            (r, False) for p in parts if isinstance(p, Polygon) for r in (p.exterior, *p.interiors)
        ]
        rings += [(p, True) for p in parts if isinstance(p, LineString)]
        for ring, is_line in rings:
            coords = list(ring.coords)[: None if is_line else -1]
            coords = [c for i, c in enumerate(coords) if i == 0 or c != coords[i - 1]]
            pts = [t.transform(x, y) for x, y in coords]
            lon0 = pts[0][0]
            east = [((lon - lon0 + 180) % 360) - 180 for lon, _ in pts]
            mlon, mlat = lon0 + float(np.median(east)), float(np.median([p[1] for p in pts]))
            d = [geod.inv(mlon, mlat, lon, lat)[2] / 0.3048 for lon, lat in pts]
            limit = max(STRAY_FT, STRAY_RATIO * float(np.median(d)))
            far = [v > limit for v in d]
            n = len(d)
            for i in range(n):
                if is_line:  # an end has one neighbour; a lone vertex none (it is its own)
                    sides = [j for j in (i - 1, i + 1) if 0 <= j < n] or [i]
                else:
                    sides = [(i - 1) % n, (i + 1) % n]
                if far[i] and not any(far[j] for j in sides):
                    break
            else:
                continue  # no stray in this ring: the next
            rows.append(row)
            break
    return rows


_lot = st.builds(
    lambda *a: a,
    st.floats(300_000, 800_000),
    st.floats(200_000, 2_000_000),
    st.floats(1, 5_000),
    st.floats(1, 5_000),
    st.integers(0, 3),
    st.floats(-6e6, 6e6),
    st.floats(-6e6, 6e6),
    st.booleans(),
    st.integers(0, 3),
)


def _polygon(lot, line: bool = False) -> Polygon | LineString:
    """A lot of w by h ft; with a stray, vertex k moved by (dx, dy) and, one time in four,
    vertex k + 1 too (two far vertices side by side: no stray) or vertex k written twice (one
    stray)."""
    x, y, w, h, k, dx, dy, stray, extra = lot
    ring = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    if stray:
        ring[k] = (ring[k][0] + dx, ring[k][1] + dy)
        if extra == 1:
            j = (k + 1) % 4
            ring[j] = (ring[j][0] + dx, ring[j][1] + dy)
        elif extra == 2:
            ring.insert(k, ring[k])
    return LineString(ring) if line else Polygon(ring)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_lot, st.booleans()), min_size=1, max_size=6))
def test_oracle_one_vertex_at_a_time(lots):
    """Lots, and lines of their vertices (a context layer's: a stray at either end too)."""
    g = np.array([_polygon(lot, line) for lot, line in lots], dtype=object)
    assert find_strays(g, FLORIDA_EAST).rows.tolist() == _strays_slowly(g, FLORIDA_EAST)


# -- read and checked ----------------------------------------------------------------------


def _typed_sample(tmp_path, rows=(8,), by_deg=-5.0):
    """The sample's lots with the second vertex of ``rows`` moved ``by_deg`` of longitude
    (5 degrees: about 300 miles, into the Gulf): a longitude typed -86.1 for -81.1."""
    lots = json.loads((SAMPLE / "parcels.geojson").read_text(encoding="utf-8"))
    for r in rows:
        geom = lots["features"][r]["geometry"]
        ring = geom["coordinates"][0]
        ring = ring[0] if geom["type"] == "MultiPolygon" else ring
        ring[1][0] += by_deg
    path = tmp_path / "parcels.geojson"
    path.write_text(json.dumps(lots), encoding="utf-8")
    return path, lots


def test_read_parcels_leaves_a_stray_lot_without_geometry_and_says_why(tmp_path):
    path, lots = _typed_sample(tmp_path)
    layer = read_parcels(path, id_field="parcel_id")
    base = read_parcels(SAMPLE / "parcels.geojson", id_field="parcel_id")
    x, y = lots["features"][8]["geometry"]["coordinates"][0][1]
    assert layer.geometry[8] is None and base.geometry[8] is not None
    assert {**base.problems, 8: layer.problems[8]} == layer.problems
    why = layer.problems[8]
    assert why.startswith(f"a vertex, ({x:.6f}, {y:.6f}), lies 30")
    assert why.endswith("a coordinate typed or digitised wrong? Fix this vertex in the file")
    unplaced = sum(g is None for g in base.geometry)
    assert sum(g is None for g in layer.geometry) == unplaced + 1


def test_a_stray_lot_is_invalid_and_the_rest_as_if_it_had_no_geometry(tmp_path):
    """The lot with the stray is `invalid` with why; every other lot's figures and the working
    frame are those of the file where that lot has no geometry at all (the stray does not pull
    a frame into the Gulf, nor keep the signs by the lot from its neighbours)."""
    from click.testing import CliRunner

    path, lots = _typed_sample(tmp_path)
    lots["features"][8]["geometry"] = None
    without = tmp_path / "without.geojson"
    without.write_text(json.dumps(lots), encoding="utf-8")
    args = ["--signs", str(SAMPLE / "signs.csv"), "--id-field", "parcel_id", "-q"]
    runner = CliRunner()
    for name, lots_path in (("typo", path), ("without", without)):
        res = runner.invoke(
            main, ["check", str(lots_path), *args, "--json", f"{tmp_path}/{name}.json"]
        )
        assert res.exit_code == 1, res.output
    typo = json.loads((tmp_path / "typo.json").read_text())
    base = json.loads((tmp_path / "without.json").read_text())
    assert typo["crs"] == base["crs"] and typo["crs_detail"] == base["crs_detail"]
    lot = typo["parcels"][8]
    assert lot["status"] == "invalid" and "typed or digitised wrong" in lot["invalid_reason"]
    assert base["parcels"][8]["status"] == "invalid"
    for a, b in zip(typo["parcels"], base["parcels"], strict=True):
        if a["row"] != 8:
            assert a == b
    assert typo["unassigned_signs"] == base["unassigned_signs"]
