"""When: rules that apply only on some land, and ways of posting that serve only some land."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from helpers import AT_SEA, LOCAL_FT, markers, parcels, profile_file, square
from hypothesis import given, settings
from hypothesis import strategies as st

from posting import Settings, check
from posting.errors import RulesError
from posting.io import FeatureLayer
from posting.kinds.when import longest_over
from posting.measure import Context
from posting.rules import load_rules

ENTRY_OFF_FOREST = """
[spacing]
max_ft = 1000
clause = "T 1"

[access]
types = []
clause = "T 2"

[when.access]
land = ["not forest"]
clause = "T 2(b)"
"""


def features(geoms, values):
    return FeatureLayer(
        "<memory>", np.asarray(geoms, dtype=object), LOCAL_FT, np.asarray(values, dtype=object)
    )


def one(r):
    return r.to_dict()["parcels"][0]


DRIVEWAY = [shapely.LineString([(500, -200), (500, 300)])]
CORNERS = [(0, 0), (1000, 0), (1000, 1000), (0, 1000)]


@pytest.mark.parametrize(
    ("forest", "status", "level"),
    [
        (True, "compliant", "note"),
        (False, "noncompliant", "violation"),
        (None, "uncertain", "uncertain"),
    ],
)
def test_an_entry_rule_for_land_other_than_forest(tmp_path, forest, status, level):
    # signs at the four corners (1,000 ft apart), none where the driveway crosses at x = 500
    ctx = Context(parcel_landcover=[forest], access=features(DRIVEWAY, ["driveway"]))
    r = check(
        parcels(square()),
        markers(CORNERS),
        profile_file(tmp_path, ENTRY_OFF_FOREST),
        context=ctx,
        settings=AT_SEA,
    )
    p = one(r)
    assert p["status"] == status
    f = [x for x in r.findings.to_dict("records") if x["rule"] == "access"]
    assert [x["level"] for x in f] == [level]
    if forest:
        assert f[0]["message"].startswith("(not required: only on land other than forest land)")
        assert (r.access["status"] == "not required").all()
    if forest is None:
        assert "the data cannot tell" in f[0]["message"] and "landcover" in f[0]["message"]


def test_the_report_keeps_where_each_gated_rule_applies_for_the_plan():
    # three bare lots, forest, other land and unknown (the parcel attribute): arkansas-paint's
    # points of entry are wanted on the second only, may be on the third (no finding of the
    # access rule says so: a lot without markers has none)
    lots = parcels(square(), shapely.box(3000, 0, 4000, 1000), shapely.box(6000, 0, 7000, 1000))
    ctx = Context(parcel_landcover=[True, False, None])
    r = check(lots, None, "arkansas-paint", context=ctx)
    assert set(r.gated) == {"access", "paint_support"}
    np.testing.assert_array_equal(r.gated["access"], [0.0, 1.0, np.nan])
    assert "gated" not in r.to_json() and "paint_support" not in r.to_csv()  # in memory only
    # alternatives: each parcel's gate is its judged profile's; arkansas (signs) gates nothing,
    # so under it the rule applies everywhere (both profiles leave a bare lot unposted: the
    # first given judges it)
    r = check(lots, None, ["arkansas", "arkansas-paint"], context=ctx)
    assert r.parcels["rules"].tolist() == ["arkansas"] * 3
    np.testing.assert_array_equal(r.gated["access"], [1.0, 1.0, 1.0])
    r = check(lots, None, ["arkansas-paint", "arkansas"], context=ctx)
    np.testing.assert_array_equal(r.gated["access"], [0.0, 1.0, np.nan])
    assert check(lots, None, "arkansas", context=ctx).gated == {}


def test_forest_lines_and_points_cover_no_land(tmp_path):
    """A land-cover layer of forest lines and points (along the lot's boundary, across it, one
    of no length, one with an edge of 1e-300 ft) beside a forest that covers 40 % of the lot:
    the land is not forest, and the entry rule applies (a RuntimeWarning before: GEOS's
    divide by zero in the union of the lines)."""
    forest = [
        shapely.box(-10, -10, 1010, 400),
        shapely.LineString([(-5, 0), (1005, 0), (1005, 1000), (-5, 1000)]),
        shapely.LineString([(0, 0), (1e-300, 0), (500, 500)]),
        shapely.LineString([(50, 500), (50, 500)]),
        shapely.MultiPoint([(100, 700), (200, 800)]),
        shapely.Point(500, 900),
    ]
    rules = profile_file(tmp_path, ENTRY_OFF_FOREST)
    for cover in (forest, forest[1:]):
        ctx = Context(
            landcover=features(cover, ["forest"] * len(cover)),
            access=features(DRIVEWAY, ["driveway"]),
        )
        p = one(check(parcels(square()), markers(CORNERS), rules, context=ctx))
        assert p["status"] == "noncompliant"
        assert [v["rule"] for v in p["violations"]] == ["access"]


def test_gate_words_and_a_bad_condition(tmp_path):
    p = load_rules(profile_file(tmp_path, ENTRY_OFF_FOREST))
    assert p.when.gates[0].words() == "land other than forest land"
    bad = ENTRY_OFF_FOREST.replace('"not forest"', '"wooded"')
    with pytest.raises(RulesError, match="the conditions are forest, agricultural, fenced"):
        load_rules(profile_file(tmp_path, bad))
    unknown = ENTRY_OFF_FOREST.replace("[when.access]", "[when.acess]")
    with pytest.raises(RulesError, match=r"when\.acess"):
        load_rules(profile_file(tmp_path, unknown))


OVER_ONE_ACRE = """
[corners]
mode = "at_corner"
clause = "554.1(a)"

[spacing]
max_ft = 600
clause = "554.1(b)"

[when.spacing]
acres_over = 1
longest_over_ft = 5280
combine = "any"
clause = "554.1(b)"
"""


@pytest.mark.parametrize(
    ("acres", "status"),
    [
        (0.99, "compliant"),
        ((1200 / 3937 / 0.3048) ** 2, "compliant"),  # 1 US survey acre: 1.000004 acres
        (1.0001, "noncompliant"),
        (1.01, "noncompliant"),
    ],
)
def test_spacing_only_over_one_acre(tmp_path, acres, status):
    # a strip 700 ft long with a sign at each corner: its long sides are 700 ft between signs,
    # over the 600 ft spacing, which applies only over one acre (43,560 sq ft) or one mile
    width = acres * 43_560 / 700
    lot = shapely.box(0, 0, width, 700.0)
    pts = [(0, 0), (width, 0), (width, 700), (0, 700)]
    # (at sea level: a US survey acre on land above it may be over an acre, which is uncertain)
    rules = profile_file(tmp_path, OVER_ONE_ACRE)
    p = one(check(parcels(lot), markers(pts), rules, settings=AT_SEA))
    assert p["status"] == status
    if status == "compliant":
        [note] = [n for n in p["notes"] if n["rule"] == "spacing"]
        assert note["message"].startswith(
            "(not required: only on more than 1 acre or a lineal dimension over 5,280 ft)"
        )


@pytest.mark.parametrize(("acres", "status"), [(0.9995, "compliant"), (1.0005, "noncompliant")])
def test_an_acre_far_from_the_frame_s_meridian_is_judged_by_its_true_area(tmp_path, acres, status):
    # The strip of the test above, 700 ft north to south, of `acres` by pyproj.Geod, at -83.95
    # deg beside a lot at -78.1 deg: one frame, its meridian near -81, where its scale is
    # 1.001. Its area is equal-area (that scale divided out); the gate divided it out again:
    # 1.0005 acres judged 0.9986, the spacing not required on it: "compliant", its 700 ft
    # sides over the 600 ft spacing.
    from pyproj import CRS, Geod
    from scipy.optimize import brentq

    geod = Geod(ellps="WGS84")
    lon0, lat0, dlat = -83.95, 30.5, 700 / 364_000

    def strip(width_deg):
        return shapely.box(lon0, lat0, lon0 + width_deg, lat0 + dlat)

    def area(g):
        return abs(geod.geometry_area_perimeter(g)[0]) / 0.3048**2 / 43_560

    lot = strip(brentq(lambda w: area(strip(w)) - acres, 1e-5, 1e-3, xtol=1e-15))
    assert round(area(lot), 9) == acres
    far = shapely.box(-78.1, 30.5, -78.099, 30.501)
    pts = shapely.get_coordinates(lot)[:4]
    wgs84 = CRS.from_epsg(4326)
    rules = profile_file(tmp_path, OVER_ONE_ACRE)
    r = check(parcels(lot, far, crs=wgs84), markers(pts, crs=wgs84), rules, settings=AT_SEA)
    assert one(r)["status"] == status


def slow_longest(g):
    xy = shapely.get_coordinates(g)
    return max(np.hypot(*(a - b)) for a in xy for b in xy)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 6000), st.integers(0, 6000)), min_size=3, max_size=12),
    st.floats(100, 8000),
)
def test_longest_dimension_agrees_with_every_vertex_pair(pts, threshold):
    g = shapely.convex_hull(shapely.multipoints(pts))
    if g.geom_type != "Polygon" or g.area < 1.0:  # a shape, not a sliver of a point
        return
    assert longest_over(np.array([g]), threshold)[0] == (slow_longest(g) > threshold)


WHOLE = """
[spacing]
max_ft = 1000
clause = "N 2"

[when.profile]
land = ["agricultural"]
clause = "N 2(a)"
"""


def test_a_way_of_posting_for_farm_land_only(tmp_path):
    pts = [(0, 0), (1000, 0), (1000, 1000), (0, 1000)]
    rules = profile_file(tmp_path, WHOLE)
    farm = Context(cultivated=np.array([True], dtype=object))
    assert one(check(parcels(square()), markers(pts), rules, context=farm, settings=AT_SEA))[
        "status"
    ] == ("compliant")
    other = Context(cultivated=np.array([False], dtype=object))
    p = one(check(parcels(square()), markers(pts), rules, context=other, settings=AT_SEA))
    assert p["status"] == "noncompliant"
    assert "serves only land used for agriculture or grazing" in p["violations"][0]["message"]
    # unknown land: the lenient way is not granted, and the message says what would settle it
    p = one(check(parcels(square()), markers(pts), rules, settings=AT_SEA))
    assert p["status"] == "noncompliant" and "is unknown (give" in p["violations"][0]["message"]


FENCED = """
[spacing]
max_ft = 500
clause = "F 1"

[when.spacing]
land = ["not fenced"]
clause = "F 1(a)"
"""


def test_spacing_not_needed_on_fenced_land_and_its_gaps_are_not_drawn(tmp_path):
    ring = shapely.LineString([(-5, -5), (1005, -5), (1005, 1005), (-5, 1005), (-5, -5)])
    pts = [(0, 0), (1000, 1000)]
    rules = profile_file(tmp_path, FENCED)
    r = check(parcels(square()), markers(pts), rules, context=Context(fences=features([ring], [4])))
    assert one(r)["status"] == "compliant"
    assert (r.gaps["status"] == "ok").all() and r.gaps["limit_ft"].isna().all()
    r = check(parcels(square()), markers(pts), rules, context=Context(fences=features([], [])))
    assert one(r)["status"] == "noncompliant"
    # fenced all round only within the survey's accuracy (5 ft off, the survey good to 28 ft:
    # not within 30 - 28 = 2 ft): whether the spacing rule applies, the data cannot tell
    ctx = Context(fences=features([ring], [4]))
    r = check(
        parcels(square()), markers(pts), rules, context=ctx, settings=Settings(accuracy_ft=28)
    )
    assert one(r)["status"] == "uncertain"


@pytest.mark.parametrize(
    ("cover", "status"),
    [
        # the National Land Cover Database's words for farm land: read as agricultural
        ("Pasture/Hay", "compliant"),
        ("Cultivated Crops", "compliant"),
        ("Orchards/Vineyards", "compliant"),
        ("AGRICULTURAL LAND", "compliant"),
        ("pasture", "compliant"),
        # land that is not: the lenient way of posting is not granted
        ("Non-agricultural", "noncompliant"),
        ("Developed, Low Intensity", "noncompliant"),
        ("Deciduous Forest", "noncompliant"),
    ],
)
def test_a_way_of_posting_for_farm_land_reads_the_land_covers_own_words(tmp_path, cover, status):
    # signs 1,000 ft apart at the corners of a 1,000 ft square: within the farm land's 1,000 ft
    pts = [(0, 0), (1000, 0), (1000, 1000), (0, 1000)]
    rules = profile_file(tmp_path, WHOLE)
    whole = shapely.box(-50, -50, 1050, 1050)  # the land cover over the whole lot
    # (and a polygon of no recorded cover away from it: a blank value is no text to search)
    away = shapely.box(5000, 5000, 6000, 6000)
    ctx = Context(landcover=features([whole, away], [cover, None]))
    p = one(check(parcels(square()), markers(pts), rules, context=ctx, settings=AT_SEA))
    assert p["status"] == status
    if status == "noncompliant":
        assert "serves only land used for agriculture or grazing" in p["violations"][0]["message"]
