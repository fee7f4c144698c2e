"""In sight: each marker within sight of the next along the boundary."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from helpers import AT_SEA, LOCAL_FT, markers, parcels, profile_file, square
from hypothesis import given, settings
from hypothesis import strategies as st

from posting import Settings, check
from posting.io import FeatureLayer
from posting.kinds.in_sight import blocked_by, sight_pairs
from posting.measure import Context

RULE = """
[in_sight]
clause = "Test 3"
"""


def one(report):
    return report.to_dict()["parcels"][0]


def test_pairs_by_hand():
    # a 1,000 ft square ring: markers at 0 (0,0), 600 (1000,400), 2,000 (1000,1000) along it
    p = sight_pairs(
        np.array([0, 0, 0]),
        np.array([0.0, 1400.0, 2000.0]),
        np.array([0.0, 1000.0, 1000.0]),
        np.array([0.0, 400.0, 1000.0]),
        np.array([4000.0]),
    )
    assert p[["a", "b"]].to_numpy().tolist() == [[0, 1], [1, 2], [2, 0]]
    assert p["distance_ft"].tolist() == pytest.approx(
        [math.hypot(1000, 400), 600.0, math.hypot(1000, 1000)]
    )


def slow_pairs(rings, pos, x, y):
    out = []
    for r in sorted(set(rings)):
        idx = sorted((p, i) for i, (rr, p) in enumerate(zip(rings, pos, strict=True)) if rr == r)
        if len(idx) < 2:
            continue
        order = [i for _, i in idx]
        for a, b in zip(order, order[1:] + order[:1], strict=True):
            out.append((r, a, b, math.hypot(x[b] - x[a], y[b] - y[a])))
    return out


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 2), st.integers(0, 999), st.floats(-500, 500), st.floats(-500, 500)
        ),
        max_size=25,
        unique_by=lambda t: (t[0], t[1]),
    )
)
def test_pairs_agree_with_the_slow_obvious_pairing(pts):
    # distinct positions on a ring (markers at one point have no order along it)
    rings = [p[0] for p in pts]
    pos = [float(p[1]) for p in pts]
    x, y = [p[2] for p in pts], [p[3] for p in pts]
    got = sight_pairs(
        np.array(rings, dtype=np.int64),
        np.array(pos, dtype=float),
        np.array(x, dtype=float),
        np.array(y, dtype=float),
        np.array([1000.0, 1000.0, 1000.0]),
    )
    want = slow_pairs(rings, pos, x, y)
    assert sorted(
        zip(got["ring"], got["a"], got["b"], got["distance_ft"].round(9), strict=True)
    ) == sorted((r, a, b, round(d, 9)) for r, a, b, d in want)


def test_a_building_blocks_the_line_of_sight_a_wall_does_not():
    house = shapely.box(400, -20, 600, 20)
    lines = np.array(
        [
            shapely.LineString([(0, 0), (1000, 0)]),  # through the house
            shapely.LineString([(0, -20), (1000, -20)]),  # along its wall
            shapely.LineString([(500, 0), (500, 500)]),
        ]
    )  # from a sign on it
    assert blocked_by(lines, np.array([house])).tolist() == [True, False, False]


@pytest.mark.parametrize(
    ("side", "accuracy", "status"),
    [
        (1980.0, 0.0, "compliant"),
        (2020.0, 0.0, "noncompliant"),
        # signs good to 3 ft: 990 ft apart may be 996 ft (in sight); with 6 ft, 1,002 ft
        (1980.0, 3.0, "compliant"),
        (1980.0, 6.0, "uncertain"),
        # 1,010 ft apart, each sign good to 6 ft: they may be 998 ft apart (not sure)
        (2020.0, 6.0, "uncertain"),
    ],
)
def test_open_land_sight_of_1000_ft(tmp_path, side, accuracy, status):
    # corners and midpoints: consecutive signs side / 2 = 990 ft (in sight) or 1,010 ft apart
    lot = square(side)
    pts = [
        (0, 0),
        (side / 2, 0),
        (side, 0),
        (side, side / 2),
        (side, side),
        (side / 2, side),
        (0, side),
        (0, side / 2),
    ]
    ctx = Context(parcel_landcover=[False])
    acc = Settings(accuracy_ft=accuracy)
    p = one(
        check(parcels(lot), markers(pts), profile_file(tmp_path, RULE), context=ctx, settings=acc)
    )
    assert p["status"] == status
    if status == "noncompliant":
        [v] = p["violations"]
        assert (v["rule"], v["limit"], v["count"]) == ("in_sight", 1000.0, 8)
        assert v["measured"] == pytest.approx(1010.0)
        assert "out of sight" in v["message"] and "open land" in v["message"]


def test_forest_land_and_unknown_land_cover(tmp_path):
    lot = square(1000)
    pts = [(x, 0) for x in range(0, 1000, 95)] + [(1000, 500), (500, 1000), (0, 500)]
    rules = profile_file(tmp_path, RULE)
    # forest: 100 ft: the 95 ft steps pass, the 500 ft stretches on the other sides fail
    p = one(check(parcels(lot), markers(pts), rules, context=Context(parcel_landcover=[True])))
    assert p["status"] == "noncompliant" and p["violations"][0]["limit"] == 100.0
    # unknown: pairs 100-1,000 ft apart could be in sight or not
    r = check(parcels(lot), markers(pts), rules)
    p = one(r)
    assert p["status"] == "uncertain"
    assert any(
        x["rule"] == "in_sight" and "land cover unknown" in x["reason"] for x in r.not_checked
    )
    # the user's own sight distance settles it
    for sight, status in ((710.0, "compliant"), (700.0, "noncompliant")):
        # the longest pair: (950, 0) to (1000, 500) is 502.5 ft; (1000,500)-(500,1000) 707.1 ft
        p = one(check(parcels(lot), markers(pts), rules, context=Context(sight_ft=sight)))
        assert p["status"] == status, sight


def test_a_house_between_two_signs(tmp_path):
    lot = square(1000)
    pts = [(0, 0), (1000, 0), (1000, 1000), (0, 1000)]
    house = FeatureLayer(
        "<memory>",
        np.array([shapely.box(400, -30, 600, 30)], dtype=object),
        LOCAL_FT,
        np.array([None], dtype=object),
    )
    rules = profile_file(tmp_path, RULE)
    ctx = Context(parcel_landcover=[False], dwellings=house)
    # (signs exactly 1,000 ft apart, at sea level: on land above it, perhaps out of sight)
    r = check(parcels(lot), markers(pts), rules, context=ctx, settings=AT_SEA)
    [v] = one(r)["violations"]
    assert "1 line of sight between consecutive signs crossing a building" in v["message"]
    assert len(r.tables["sight"]) == 1 and bool(r.tables["sight"]["blocked"].iat[0])


def test_points_and_lines_of_the_dwellings_layer_block_no_line_of_sight(tmp_path):
    """Address points (several as one feature) and lines in the dwellings layer are no
    building: a MultiPoint with a point on the line of sight and one off it, and a
    MultiLineString across it, "crossed" it and blocked it, as a Point or a LineString did not
    (fails before); a MultiPolygon's footprint blocks it."""
    sight = np.array([shapely.LineString([(0, 0), (1000, 0)])])
    wrong = [
        shapely.MultiPoint([(500, 0), (500, 500)]),
        shapely.MultiLineString([[(400, -10), (400, 10)], [(600, -10), (600, 10)]]),
        shapely.LineString([(500, -10), (500, 10)]),
        shapely.Point(500, 0),
    ]
    for g in wrong:
        assert blocked_by(sight, np.array([g], dtype=object)).tolist() == [False], g.wkt
    houses = shapely.MultiPolygon([shapely.box(400, -30, 600, 30), shapely.box(0, 500, 50, 550)])
    assert blocked_by(sight, np.array([houses], dtype=object)).tolist() == [True]
    pts = [(0, 0), (1000, 0), (1000, 1000), (0, 1000)]
    layer = FeatureLayer(
        "<memory>", np.array(wrong, dtype=object), LOCAL_FT, np.full(len(wrong), None)
    )
    ctx = Context(parcel_landcover=[False], dwellings=layer)
    rules = profile_file(tmp_path, RULE)  # (1,000 ft apart exactly: at sea level)
    r = check(parcels(square()), markers(pts), rules, context=ctx, settings=AT_SEA)
    assert one(r)["status"] == "compliant" and len(r.tables["sight"]) == 0


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(*[st.integers(0, 100)] * 4), min_size=1, max_size=12),
    st.lists(st.tuples(st.integers(0, 90), st.integers(0, 90), st.integers(3, 30)), max_size=5),
)
def test_blocked_agrees_with_each_line_and_building(segs, boxes):
    lines = np.array(
        [shapely.LineString([(a, b), (c, d)]) for a, b, c, d in segs if (a, b) != (c, d)],
        dtype=object,
    )
    houses = np.array([shapely.box(x, y, x + w, y + w) for x, y, w in boxes], dtype=object)
    want = [
        any(
            line.crosses(h)
            and not h.intersects(shapely.Point(line.coords[0]))
            and not h.intersects(shapely.Point(line.coords[-1]))
            for h in houses
        )
        for line in lines
    ]
    assert blocked_by(lines, houses).tolist() == want
