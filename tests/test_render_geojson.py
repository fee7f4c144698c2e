"""The GeoJSON written column by column (posting.render.geojson) against the slow, obvious
way: one dict per feature, written by orjson, each point made and rounded by GEOS."""

from __future__ import annotations

import json
import math

import numpy as np
import orjson
import pandas as pd
import pytest
import shapely
from helpers import SAMPLE
from hypothesis import given, settings
from hypothesis import strategies as st

from posting import Settings, check, read_markers, read_parcels
from posting.draw import gap_lines, geojson_geometries
from posting.records import HOW_TEXT, LONLAT_DECIMALS
from posting.render.geojson import _geometries, _grid, iter_geojson


@pytest.fixture(scope="module")
def report():
    parcels = read_parcels(SAMPLE / "parcels.geojson", id_field="parcel_id", owner_field="owner")
    markers = read_markers([SAMPLE / "signs.csv", SAMPLE / "signs-added.gpx"])
    return check(parcels, markers, settings=Settings(accuracy_ft=16.0))


def _geos_grid(values: np.ndarray) -> np.ndarray:
    points = shapely.points(values, np.zeros(len(values)))
    with np.errstate(invalid="ignore"):
        grid = shapely.set_precision(points, 10.0**-LONLAT_DECIMALS, mode="pointwise")
    return shapely.get_x(grid)


@settings(max_examples=300)
@given(
    st.lists(
        st.one_of(
            st.floats(-180, 180),
            # a hair from a half of the grid, where the rounding decides
            st.integers(-1_800_000_000, 1_800_000_000).map(lambda k: (k + 0.5) / 1e7),
            st.floats(-1e12, 1e12),
        ),
        min_size=1,
        max_size=50,
    )
)
def test_points_are_put_on_the_grid_as_geos_puts_them(values):
    a = np.asarray(values, dtype=float)
    a = np.concatenate([a, np.nextafter(a, np.inf), np.nextafter(a, -np.inf)])
    got, want = _grid(a), _geos_grid(a)
    assert np.array_equal(got, want)
    assert np.array_equal(np.signbit(got), np.signbit(want))


def _num(x, nd=2):
    return None if x is None or not math.isfinite(x) else round(float(x), nd)


def _text(x):
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else x


def _slow_features(report) -> list[tuple[dict | None, bytes]]:
    """Each feature but the parcels' as the slow way makes it: its geometry (None: null) and
    its properties written by orjson from a dict."""
    ids = report.parcels["id"].to_numpy()
    out = []
    m = report.markers
    for rec in m.itertuples(index=False):
        assigned = rec.parcel >= 0
        how = HOW_TEXT.get(rec.assigned_by) if assigned else None
        props = {
            "layer": "marker",
            "source": rec.source,
            "row": int(rec.row),
            "name": _text(getattr(rec, "label", None)),
            "kind": _text(rec.kind),
            "parcel": rec.parcel_id if assigned else None,
            "ring": {"part": int(rec.part), "hole": int(rec.hole)} if assigned else None,
            "assigned_by": _text(rec.assigned_by),
            "distance_ft": _num(rec.distance_ft),
            "position_ft": _num(rec.position_ft),
            "why": f"{how} ({rec.distance_ft:.1f} ft from it)" if how else rec.reason,
        }
        out.append(((rec.lon, rec.lat), orjson.dumps(props)))
    g = report.gaps[(report.gaps["status"] != "ok").to_numpy()]
    lines = geojson_geometries(gap_lines(report)[(report.gaps["status"] != "ok").to_numpy()])
    for rec, line in zip(g.itertuples(index=False), lines, strict=True):
        props = {
            "layer": "gap",
            "parcel": ids[rec.parcel],
            "status": rec.status,
            "ring": {"part": int(rec.part), "hole": int(rec.hole)},
            "length_ft": _num(rec.length_ft),
            "straight_ft": _num(rec.straight_ft),
            "limit_ft": _num(rec.limit_ft),
        }
        out.append((line, orjson.dumps(props)))
    for rec in report.corners.itertuples(index=False):
        props = {
            "layer": "corner",
            "parcel": ids[rec.parcel],
            "status": rec.status,
            "turn_deg": _num(rec.turn_deg, 1),
            "nearest_marker_ft": _num(rec.nearest_ft),
            "marker_shared": bool(rec.marker_shared),
        }
        out.append(((rec.lon, rec.lat), orjson.dumps(props)))
    return out


def _split(line: bytes) -> tuple[bytes, bytes]:
    """A feature's line: its geometry's text and its properties' text."""
    head, rest = line.split(b', "properties": ', 1)
    return head.removeprefix(b'{"type": "Feature", "geometry": '), rest.rstrip(b",")[:-1]


def test_features_are_the_slow_ways_features(report):
    text = b"".join(map(bytes, iter_geojson(report)))
    lines = text.split(b"\n")[1:-2]
    n = len(report.parcels)
    assert len(report.access) == 0  # (none in the sample: not compared here)
    slow = _slow_features(report)
    assert len(lines) == n + len(slow)
    lonlat = shapely.orient_polygons(report.geometry.geometry_lonlat(), exterior_cw=False)
    parcel_geoms = geojson_geometries(lonlat)  # (wound as RFC 7946 says)
    for line, geom in zip(lines[:n], parcel_geoms, strict=True):
        assert json.loads(_split(line)[0]) == (json.loads(geom) if geom else None)
    points = 0
    for line, (geom, props) in zip(lines[n:], slow, strict=True):
        g, p = _split(line)
        assert p == props  # the same bytes
        if isinstance(geom, tuple) and not np.isfinite(geom).all():
            assert g == b"null"
        elif isinstance(geom, tuple):  # a point: at GEOS's grid, spelled by orjson
            lon, lat = (float(_geos_grid(np.array([v]))[0]) for v in geom)
            assert json.loads(g) == {"type": "Point", "coordinates": [lon, lat]}
            assert g == b'{"type":"Point","coordinates":' + orjson.dumps([lon, lat]) + b"}"
            points += 1
        else:  # a gap's line: GEOS's, parsed (GEOS spells some coordinates with 17 digits)
            assert json.loads(g) == (json.loads(geom) if geom else None)
    assert points > 100
    assert json.loads(text)["type"] == "FeatureCollection"


def test_a_corner_whose_marker_serves_another_says_so():
    """The flag lot's road corner left without a sign: its nearest sign is 12.5 ft away, and
    serves the other road corner; every other corner is ``ok`` and shares nothing."""
    from helpers import flag_lot, markers, parcels

    lot, signs = flag_lot()
    text = b"".join(map(bytes, iter_geojson(check(parcels(lot), markers(signs)))))
    corners = [
        f["properties"]
        for f in json.loads(text)["features"]
        if f["properties"]["layer"] == "corner"
    ]
    assert len(corners) == 6
    shared = [c for c in corners if c["marker_shared"]]
    assert [(c["status"], c["nearest_marker_ft"]) for c in shared] == [("missing", 12.5)]
    assert {c["status"] for c in corners if not c["marker_shared"]} == {"ok"}


def test_unusable_points_have_null_geometry():
    from posting.render.geojson import _points

    got = _points(np.array([1.0, np.nan, 2.0, np.inf]), np.array([2.0, 3.0, np.nan, 1.0]))
    assert got.to_pylist() == [
        '{"type":"Point","coordinates":[1.0,2.0]}',
        "null",
        "null",
        "null",
    ]
    assert pd.isna(geojson_geometries(shapely.points([np.nan], [1.0]))[0])


_coordinate = st.floats(-200, 200, allow_nan=False)


@st.composite
def _polygonal(draw):
    """A box with a hole or not, a triangle, or a multipolygon of those (valid or not: only
    the writing is tested)."""

    def one():
        x, y = draw(_coordinate), draw(_coordinate)
        w, h = draw(st.floats(1e-6, 5)), draw(st.floats(1e-6, 5))
        if draw(st.booleans()):
            hole = [(x + w / 4, y + h / 4), (x + w / 2, y + h / 4), (x + w / 2, y + h / 2)]
            return shapely.Polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], [hole])
        return shapely.Polygon([(x, y), (x + w, y), (x, y + h)])

    parts = [one() for _ in range(draw(st.integers(1, 3)))]
    return parts[0] if len(parts) == 1 and draw(st.booleans()) else shapely.MultiPolygon(parts)


@st.composite
def _linear(draw):
    line = [(draw(_coordinate), draw(_coordinate)) for _ in range(draw(st.integers(2, 5)))]
    if draw(st.booleans()):
        return shapely.LineString(line)
    return shapely.MultiLineString([line, [(x + 1, y) for x, y in line]])


@settings(max_examples=150)
@given(
    st.lists(
        st.one_of(_polygonal(), _linear(), st.none(), st.just(shapely.Polygon())),
        max_size=8,
    )
)
def test_shapes_are_the_geojson_geos_writes(geoms):
    g = np.array(geoms, dtype=object)
    with np.errstate(invalid="ignore"):
        slow = geojson_geometries(g)
    got = _geometries(g).to_pylist()
    assert [json.loads(x) for x in got] == [json.loads(x) if x else None for x in slow]


def test_access_points_are_the_slow_ways_features():
    from helpers import LOCAL_FT, markers, parcels, square

    from posting.engine import Context
    from posting.io import FeatureLayer
    from posting.records import FT_DECIMALS

    # a driveway 300 ft from the nearest sign: a missing access point
    pts = [(0, 0), (2000, 0), (2000, 2000), (0, 2000), (1300, 0), (2000, 1000), (0, 1000)]
    way = np.array([shapely.LineString([(1000, -200), (1000, 300)])], dtype=object)
    access = FeatureLayer("<memory>", way, LOCAL_FT, np.array(["driveway"], dtype=object))
    r = check(parcels(square(2000)), markers(pts), "arizona", context=Context(access=access))
    a = r.access
    assert len(a) == 1 and a["status"].tolist() == ["missing"]
    lines = b"".join(map(bytes, iter_geojson(r))).split(b"\n")[1:-2]
    ids = r.parcels["id"].to_numpy()
    for line, rec in zip(lines[-len(a) :], a.itertuples(index=False), strict=True):
        props = {
            "layer": "access",
            "parcel": ids[int(rec.parcel)],
            "status": rec.status,
            "type": _text(rec.type),
            "nearest_marker_ft": _num(rec.nearest_ft, FT_DECIMALS),
        }
        g, p = _split(line)
        assert p == orjson.dumps(props)
        lon, lat = (float(_geos_grid(np.array([v], dtype=float))[0]) for v in (rec.lon, rec.lat))
        assert json.loads(g) == {"type": "Point", "coordinates": [lon, lat]}


def test_parcels_follow_rfc_7946_s_right_hand_rule_however_the_input_winds():
    """RFC 7946 (3.1.6): an exterior ring is counter-clockwise, a hole clockwise. A Shapefile
    winds them the other way, and its lots came out as they were read: the sample's lot drawn
    clockwise with a counter-clockwise hole is written wound by the rule, the same rings."""
    from posting.io import ParcelLayer

    shell = [(-81.30, 28.60), (-81.30, 28.61), (-81.29, 28.61), (-81.29, 28.60)]  # clockwise
    hole = [(-81.297, 28.603), (-81.293, 28.603), (-81.293, 28.607), (-81.297, 28.607)]
    lot = shapely.Polygon(shell, [hole])
    assert not lot.exterior.is_ccw and lot.interiors[0].is_ccw  # (as a Shapefile has them)
    r = check(ParcelLayer.from_geometries([lot], "EPSG:4326"))
    feature = json.loads(b"".join(map(bytes, iter_geojson(r))))["features"][0]
    rings = [shapely.LinearRing(c) for c in feature["geometry"]["coordinates"]]
    assert [ring.is_ccw for ring in rings] == [True, False]
    assert shapely.Polygon(rings[0], rings[1:]).equals(lot)
