"""The land's elevation not given: each parcel's lengths at sea level are on the ground between
the elevation factors at its states' lowest and highest points (posting.elevation), and a verdict
that turns on where between is uncertain, never a false pass or fail.

Figures by hand. Central Wyoming (43.0 N, 107.5 W: 100 miles from every state line), Wyoming's
land between 3,099 ft (Belle Fourche River) and 13,804 ft (Gannett Peak) per USGS. The Gaussian
mean radius there is R = 20,920,627 ft (sqrt(M N) of WGS 84 at 43 N; tests/test_crs.py checks
the formula at Denver), so the ground is longer than sea level by

    f_lo = 1 + 3,099 / 20,920,627 = 1.00014813     f_hi = 1 + 13,804 / 20,920,627 = 1.00065983

Against Florida's 500 ft (slack 0.001 + 2.5e-6 x 500 = 0.00225 ft: a figure passes up to
500.00225): a gap fails surely above 500.00225 / f_lo = 499.928 ft at sea level, passes surely
up to 500.00225 / f_hi = 499.673 ft, and is uncertain between. 499.95 ft is 500.024-500.280 ft
on the ground (over at any Wyoming elevation); 499.8 ft is 499.874-500.130 ft (uncertain);
499.0 ft is 499.074-499.329 ft (within).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from helpers import AT_SEA, LOCAL_FT, markers, parcels, profile_file, square
from hypothesis import example, given, settings
from hypothesis import strategies as st
from planning import recheck
from pyproj import CRS

from posting import Settings, check
from posting.checks import EPSILON_FT, FAIL, FOOT_SLACK, OK, against_max
from posting.elevation import US_RANGE_FT, elevation_range_ft, state_elevations_ft
from posting.measure import Context
from posting.planning import plan
from posting.states import states_table

WYOMING = CRS.from_proj4(
    "+proj=tmerc +lat_0=43 +lon_0=-107.5 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft +no_defs"
)
F_LO, F_HI = 1.00014813, 1.00065983  # (see the module's note)


def _lot(gap_ft: float, crs=WYOMING):
    """A square of side 2 x gap with a sign at each corner and side midpoint: eight gaps of
    ``gap_ft`` along the boundary."""
    s = 2 * gap_ft
    pts = [(0, 0), (gap_ft, 0), (s, 0), (s, gap_ft), (s, s), (gap_ft, s), (0, s), (0, gap_ft)]
    return parcels(square(s), crs=crs), markers(pts, crs=crs)


def _one(report):
    p = report.parcels.iloc[0]
    return p["status"], report.findings[report.findings["parcel"] == 0]


# -- the data --------------------------------------------------------------------------------


def test_every_state_has_its_lowest_and_highest_point_under_the_project_s_names():
    table = state_elevations_ft()
    states = states_table()
    fifty_one = set(states.loc[states["fips"] < "60", "slug"])
    assert set(table) == fifty_one
    assert all(lo < hi for lo, hi in table.values())
    # the figures read from the USGS table (posting/data/SOURCES.md)
    assert table["colorado"] == (3350.0, 14433.0)
    assert table["wyoming"] == (3099.0, 13804.0)
    assert table["florida"] == (0.0, 345.0)
    assert table["california"] == (-282.0, 14494.0)
    assert min(lo for lo, _ in table.values()) == US_RANGE_FT[0]
    assert max(hi for _, hi in table.values()) == US_RANGE_FT[1]


def test_a_parcel_s_range_is_the_union_of_its_states_and_the_country_s_when_unknown():
    lo, hi = elevation_range_ft([("colorado", "wyoming"), (), ("puerto-rico",)])
    assert lo.tolist() == [3099.0, -282.0, -282.0]  # Wyoming's low, the country's twice
    assert hi.tolist() == [14433.0, 20320.0, 20320.0]  # Colorado's high


def test_the_band_of_a_wyoming_lot_is_its_elevation_factors():
    layer, signs = _lot(499.0)
    r = check(layer, signs, "florida")
    lo, hi = r.ground.lo[0], r.ground.hi[0]
    assert lo == pytest.approx(F_LO, abs=2e-8) and hi == pytest.approx(F_HI, abs=2e-8)
    assert r.ground.where[0] == "Wyoming's elevations (3,099 to 13,804 ft)"
    # given the elevation, the frame is the ground's (on its meridian, through the lot): no
    # band, one factor of 1
    g = check(layer, signs, "florida", settings=Settings(elevation_ft=5000)).ground
    assert g.given and g.lo.tolist() == g.hi.tolist()
    assert g.lo[0] == pytest.approx(1.0, abs=1e-8)


# -- spacing ---------------------------------------------------------------------------------


def test_a_gap_over_the_limit_on_the_ground_at_any_wyoming_elevation_fails():
    layer, signs = _lot(499.95)
    status, f = _one(check(layer, signs, "florida"))
    assert status == "noncompliant"
    [msg] = f.loc[f["rule"] == "spacing", "message"]
    assert msg == (
        "8 gaps, the worst of 499.95 ft along the boundary at sea level, is 500.02-500.28 ft "
        "on the ground at Wyoming's elevations (3,099 to 13,804 ft): over the 500.0 ft limit "
        "at any of them"
    )
    # (before: compliant, a false pass)


def test_a_gap_over_the_limit_at_some_wyoming_elevations_only_is_uncertain():
    layer, signs = _lot(499.8)
    r = check(layer, signs, "florida")
    status, f = _one(r)
    assert status == "uncertain"
    [msg] = f.loc[f["rule"] == "spacing", "message"]
    assert msg == (
        "8 gaps, the worst of 499.8 ft along the boundary at sea level, is 499.87-500.13 ft "
        "on the ground at Wyoming's elevations (3,099 to 13,804 ft): it may be over the "
        "500.0 ft limit: the land's elevation (--elevation-ft) settles it"
    )
    assert set(r.gaps["status"]) == {"uncertain"}


def test_a_close_call_with_the_survey_s_accuracy_on_wyoming_land_names_both():
    """Signs good to 1 ft: a gap passes surely when it is within 500 - 2 ft (twice the
    accuracy) on the ground at the highest land. 497.9 ft at sea level is 497.97-498.23 ft on
    the ground: within 498.00225 ft at sea level and at the lowest land, not at the highest,
    so uncertain; the finding names the accuracy, which makes the close call (the ground's
    figure is 2 ft from the limit), and says the elevation may (not will) settle it."""
    layer, signs = _lot(497.9)
    r = check(layer, signs, "florida", settings=Settings(accuracy_ft=1.0))
    status, f = _one(r)
    assert status == "uncertain"
    [msg] = f.loc[f["rule"] == "spacing", "message"]
    assert msg == (
        "8 gaps, the worst of 497.9 ft along the boundary at sea level, is 497.97-498.23 ft on "
        "the ground at Wyoming's elevations (3,099 to 13,804 ft); with the survey's accuracy "
        "(±2.0 ft on a gap between two markers) it may be over the 500.0 ft limit: the land's "
        "elevation (--elevation-ft) may settle it"
    )
    # at sea level (the elevation given as 0) the same lot passes: 497.9 <= 498.00225
    assert (
        _one(check(layer, signs, "florida", settings=Settings(accuracy_ft=1.0, elevation_ft=0)))[0]
        == "compliant"
    )


def test_a_gap_failing_on_the_ground_by_a_hair_is_never_shown_at_the_limit():
    """499.93 ft at sea level is 500.0041-500.2598 ft on the ground in Wyoming (x F_LO, F_HI):
    over 500.00225 at the lowest land, a violation; its lower figure rounds to 500.00 and is
    shown 500.01 (posting.checks.shown), never at the limit it fails."""
    layer, signs = _lot(499.93)
    status, f = _one(check(layer, signs, "florida"))
    assert status == "noncompliant"
    [msg] = f.loc[f["rule"] == "spacing", "message"]
    assert "is 500.01-500.26 ft on the ground" in msg


@pytest.mark.parametrize(
    ("gap", "elevation", "status"),
    [
        # given, the frame is scaled to the ground: the lots' sea-level figures times f
        (499.8, 3099, "compliant"),  # 499.874 ft
        (499.8, 13804, "noncompliant"),  # 500.130 ft
        (499.95, 0, "compliant"),  # as before: sea level, exactly
    ],
)
def test_given_the_elevation_the_verdict_is_the_ground_s(gap, elevation, status):
    layer, signs = _lot(gap)
    r = check(layer, signs, "florida", settings=Settings(elevation_ft=elevation))
    assert _one(r)[0] == status
    assert not r.findings["message"].str.contains("sea level").any()


def test_a_florida_lot_of_499_ft_gaps_is_compliant_as_before():
    # Florida's land is 0-345 ft: 499 ft at sea level is at most 499 x 1.0000165 = 499.008 ft
    layer, signs = _lot(499.0, crs=LOCAL_FT)
    assert _one(check(layer, signs, "florida"))[0] == "compliant"


def test_a_florida_lot_of_500_ft_gaps_is_uncertain_unless_at_sea_level():
    # 500 ft at sea level is up to 500 x (1 + 345 / 20,887,734) = 500.008 ft on the ground: over
    # 500.00225 ft at Britton Hill, within at sea level
    layer, signs = _lot(500.0, crs=LOCAL_FT)
    assert _one(check(layer, signs, "florida"))[0] == "uncertain"
    assert _one(check(layer, signs, "florida", settings=AT_SEA))[0] == "compliant"


def test_auto_takes_the_band_from_the_state_it_chooses():
    # Wyoming's own 660 ft: 659.95 ft at sea level is 660.048 ft on the ground at 3,099 ft
    layer, signs = _lot(659.95)
    r = check(layer, signs, "auto")
    gaps = r.gaps
    assert set(gaps["status"]) == {"over"}
    assert (gaps["limit_ft"] == 660.0).all()


@given(
    measured=st.floats(1.0, 5000.0),
    limit=st.floats(1.0, 5000.0),
    accuracy=st.floats(0.0, 20.0),
    lo=st.floats(0.999, 1.001),
    spread=st.floats(0.0, 0.002),
)
@example(measured=499.95, limit=500.0, accuracy=0.0, lo=F_LO, spread=F_HI - F_LO)
def test_never_a_pass_over_the_limit_nor_a_fail_within_it_on_the_ground(
    measured, limit, accuracy, lo, spread
):
    hi = lo + spread
    slack = EPSILON_FT + FOOT_SLACK * limit
    [code] = against_max(np.array([measured]), limit, accuracy, (lo, hi)).tolist()
    if measured * hi > limit - accuracy + slack:  # over at the highest (or within the accuracy)
        assert code != OK
    if measured * lo <= limit + accuracy + slack:  # within at the lowest (with the accuracy)
        assert code != FAIL
    # and the band never decides more than the figure at either end of it would
    for f in (lo, hi):
        [at] = against_max(np.array([measured * f]), limit, accuracy).tolist()
        assert code in (at, 1)


# -- areas: the five-acre exemption ----------------------------------------------------------


@pytest.mark.parametrize(
    ("acres", "status"),
    [
        # with a dwelling, exempt at not more than 5 acres on the ground (5.00002: either acre)
        (4.99, "exempt"),  # 4.99147-4.99659 acres on the ground
        (4.997, "uncertain"),  # 4.99848-5.00360
        (4.999, "unposted"),  # 5.00048-5.00560: over at any elevation (before: exempt)
    ],
)
def test_land_of_about_five_acres_is_exempt_only_where_it_surely_is(acres, status):
    side = math.sqrt(acres * 43_560)
    layer = parcels(square(side), crs=WYOMING)
    r = check(layer, None, "florida", context=Context(dwelling=np.array([True])))
    assert r.parcels["status"].tolist() == [status]
    if status == "uncertain":
        [msg] = r.findings.loc[r.findings["rule"] == "dwelling", "message"]
        assert msg.startswith(
            "land of 4.997 acres at sea level is 4.998-5.004 acres on the ground at Wyoming's "
            "elevations (3,099 to 13,804 ft)"
        )
    at_sea = check(layer, None, "florida", settings=AT_SEA, context=Context(dwelling=[True]))
    assert at_sea.parcels["status"].tolist() == ["exempt"]  # as before


# -- the plan ----------------------------------------------------------------------------------


def test_the_plan_in_wyoming_spaces_its_markers_for_the_highest_land():
    # A 1,998 ft square, no marker, a marker at each corner: spaced by 500 / 1.00065983 - 0.2
    # = 499.470 ft (the limit on the highest land, less the 0.2 ft margin), each side takes
    # ceil(1998 / 499.470) = ceil(4.0002) = 5 pieces, 4 markers. Planned at sea level, 499.8 ft:
    # ceil(3.9976) = 4 pieces of 499.5 ft, up to 499.83 ft on the ground in Wyoming.
    layer = parcels(square(1998.0), crs=WYOMING)
    p = plan(check(layer, None, "florida"))
    assert p.spacing_ft == pytest.approx(500 / F_HI - 0.2, abs=1e-4)
    assert p.counts()["interval"] == 4 * 4
    again = recheck(layer, None, p)
    assert again.parcels["status"].tolist() == ["compliant"]  # not "uncertain"
    at_sea = plan(check(layer, None, "florida", settings=AT_SEA))
    assert at_sea.counts()["interval"] == 4 * 3


# -- the nearest other mark (Indiana: a marked tree within 100 ft of the nearest other) -------


@pytest.mark.parametrize(
    ("step", "status"),
    [
        (99.99, "noncompliant"),  # 99.99 x 1.00014813 = 100.0048 > 100.00125 (the slack)
        (99.97, "uncertain"),  # 99.9848-100.0360: over at the highest land only
        (99.5, "compliant"),  # up to 99.5 x 1.00065983 = 99.5657
    ],
)
def test_the_nearest_marked_tree_on_wyoming_land(step, status):
    from test_state_profiles import PURPLE, along, att

    lot = square(4 * step)
    pts = along(lot, step)
    r = check(
        parcels(lot, crs=WYOMING),
        markers(pts, crs=WYOMING, attributes=att(len(pts), **PURPLE)),
        "indiana",
    )
    assert r.parcels["status"].tolist() == [status]
    said = r.findings.loc[r.findings["rule"] == "nearest_paint", "message"].tolist()
    if status == "noncompliant":
        assert said == [
            "16 of 16 paint marks are up to 99.99 ft at sea level from the nearest other paint "
            "mark, 100.00-100.06 ft on the ground at Wyoming's elevations (3,099 to 13,804 ft): "
            "not more than 100.0 ft is asked, and the farthest is over it at any of them"
        ]
    elif status == "uncertain":
        assert said[0].endswith("perhaps over it: the land's elevation settles it")
    else:
        assert said == []


# -- markers to a mile (posting/kinds/density.py) ----------------------------------------------

TEN_A_MILE = """
[density]
per_mile = 10
clause = "Test 10/mi"
"""


def _ring_signs(side: float, n: int, crs=WYOMING):
    """A square lot of ``side`` and ``n`` signs evenly spaced round it from a corner."""
    ring = shapely.get_exterior_ring(square(side))
    at = shapely.line_interpolate_point(ring, np.arange(n) * 4 * side / n)
    return parcels(square(side), crs=crs), markers(shapely.get_coordinates(at).tolist(), crs=crs)


@pytest.mark.parametrize(
    ("side", "signs", "status"),
    [
        # 10 to a mile: a step each 528 ft of boundary on the ground
        (660.0, 5, "noncompliant"),  # 2,640 ft: 2,640.39-2,641.74 on the ground needs 6
        (659.75, 5, "uncertain"),  # 2,639 ft: 2,639.39 (5 needed)-2,640.74 (6 needed)
        (659.75, 6, "compliant"),  # 6 places: enough at any Wyoming elevation
        (659.75, 4, "noncompliant"),  # fewer than the 5 at the lowest land
        (659.5, 5, "compliant"),  # 2,638 ft: up to 2,639.74 ft, 5 needed
    ],
)
def test_markers_to_a_mile_on_wyoming_land(tmp_path, side, signs, status):
    rules = profile_file(tmp_path, TEN_A_MILE)
    layer, pts = _ring_signs(side, signs)
    r = check(layer, pts, rules)
    assert r.parcels["status"].tolist() == [status]
    said = r.findings.loc[r.findings["rule"] == "density", ["level", "message"]]
    if (side, signs) == (660.0, 5):
        assert said.values.tolist() == [
            [
                "violation",
                "5 places with a sign on its 0.50 mi (2,640.0 ft) of boundary at sea level, "
                "2,640.39-2,641.74 ft on the ground at Wyoming's elevations (3,099 to 13,804 "
                "ft): at least 6 needed (10 to a mile); too few at any of them",
            ]
        ]
        # (before: compliant, 5 for half a mile at sea level: a false pass)
    if status == "uncertain":
        assert said.values.tolist() == [
            [
                "uncertain",
                "5 places with a sign on its 0.50 mi (2,639.0 ft) of boundary at sea level, "
                "2,639.39-2,640.74 ft on the ground at Wyoming's elevations (3,099 to 13,804 "
                "ft): 5 to 6 needed (10 to a mile); it may be too few: the land's elevation "
                "(--elevation-ft) settles it",
            ]
        ]
        assert r.parcels["places_marked"].tolist() == [5]
        assert r.parcels["places_required"].tolist() == [6]
    if status == "compliant":
        assert said.empty


@pytest.mark.parametrize(
    ("side", "signs", "elevation", "status"),
    [
        (660.0, 5, 0.0, "compliant"),  # half a mile at sea level: 5
        (659.75, 5, 3099.0, "compliant"),  # 2,639.39 ft: 5
        (659.75, 5, 13804.0, "noncompliant"),  # 2,640.74 ft: 6
    ],
)
def test_markers_to_a_mile_given_the_elevation(tmp_path, side, signs, elevation, status):
    layer, pts = _ring_signs(side, signs)
    r = check(
        layer, pts, profile_file(tmp_path, TEN_A_MILE), settings=Settings(elevation_ft=elevation)
    )
    assert r.ground.given  # one factor: the frame's scale (about 1 on this lone lot)
    assert r.parcels["status"].tolist() == [status]
    if status == "noncompliant":
        [msg] = r.findings.loc[r.findings["rule"] == "density", "message"]
        assert msg.startswith("5 places with a sign on its 0.50 mi (2,640.7 ft) of boundary;")


@settings(max_examples=300, deadline=None)
@given(
    pos=st.lists(st.floats(0.0, 0.999), max_size=12),
    length=st.floats(100.0, 6000.0),
    per_mile=st.sampled_from([3.0, 10.0, 17.5]),
    place_ft=st.sampled_from([0.0, 20.0, 30.0]),
    lo=st.floats(0.9999, 1.001),
    spread=st.floats(0.0, 0.002),
)
def test_never_enough_markers_that_are_too_few_at_some_elevation(
    pos, length, per_mile, place_ft, lo, spread
):
    """The band's count passes only where each elevation's count passes, fails only where each
    fails (the factors between lo and hi tried on a grid, both ends included)."""
    from posting.kinds.density import DensityRule, count

    rule = DensityRule("x", per_mile=per_mile, place_ft=place_ft)
    hi = lo + spread
    args = (
        np.zeros(len(pos), np.int64),
        np.array(sorted(pos)) * length,
        np.array([length]),
        np.array([0]),
        np.array([True]),
        1,
    )
    c = count(rule, *args, (lo, hi))
    each = [count(rule, *args, (f, f)) for f in np.linspace(lo, hi, 41)]
    short = [bool(e.places_lo[0] < e.need_lo[0]) for e in each]
    if not (c.few[0] or c.maybe_few[0]):
        assert not any(short)
    if c.few[0]:
        assert all(short)


def test_the_plan_counts_markers_to_a_mile_for_the_highest_land(tmp_path):
    # A 1,320 ft square, no marker, 10 to a mile: its 5,280 ft of boundary at sea level is up
    # to 5,283.48 ft on the ground, which needs ceil(10.0066) = 11. Spaced by 528 / 1.00065983
    # = 527.65 ft, the ring takes ceil(5,280 / 527.65) = ceil(10.0066) = 11 markers; at sea
    # level 528 ft, 10, too few for the 5,280.78 ft on the lowest Wyoming land (11 needed).
    rules = profile_file(tmp_path, TEN_A_MILE)
    layer = parcels(square(1320.0), crs=WYOMING)
    p = plan(check(layer, None, rules))
    assert p.counts()["interval"] == 11
    assert p.spacing_by_count
    assert recheck(layer, None, p).parcels["status"].tolist() == ["compliant"]
    at_sea = plan(check(layer, None, rules, settings=AT_SEA))
    assert at_sea.counts()["interval"] == 10
    assert recheck(layer, None, at_sea, settings=Settings()).parcels["status"].tolist() == [
        "noncompliant"
    ]


# -- markers in sight (posting/kinds/in_sight.py) ----------------------------------------------

IN_SIGHT = """
[in_sight]
clause = "Test sight"
"""
OPEN = Context(parcel_landcover=[False])


@pytest.mark.parametrize(
    ("gap", "status"),
    [
        # against 1,000 ft on open land (slack 0.001 + 2.5e-6 x 1,000 = 0.0035 ft)
        (999.9, "noncompliant"),  # 1,000.048-1,000.560 ft on the ground (before: compliant)
        (999.6, "uncertain"),  # 999.748-1,000.260 ft
        (999.0, "compliant"),  # up to 999.659 ft
    ],
)
def test_markers_in_sight_on_wyoming_land(tmp_path, gap, status):
    layer, signs = _lot(gap)
    r = check(layer, signs, profile_file(tmp_path, IN_SIGHT), context=OPEN)
    status_, f = _one(r)
    assert status_ == status
    said = f.loc[f["rule"] == "in_sight", "message"].tolist()
    if status == "noncompliant":
        assert said == [
            "8 pairs of consecutive signs, the farthest 999.9 ft apart at sea level, are "
            "1,000.05-1,000.56 ft on the ground at Wyoming's elevations (3,099 to 13,804 ft), "
            "the sight distance 1,000.0 ft (open land): out of sight at any of them"
        ]
    elif status == "uncertain":
        assert said == [
            "8 pairs of consecutive signs, the farthest 999.6 ft apart at sea level, are "
            "999.75-1,000.26 ft on the ground at Wyoming's elevations (3,099 to 13,804 ft), "
            "the sight distance 1,000.0 ft (open land): they may be out of sight: the land's "
            "elevation (--elevation-ft) settles it"
        ]
        assert set(r.tables["sight"]["status"]) == {"uncertain"}
    else:
        assert said == []


@pytest.mark.parametrize(
    ("gap", "elevation", "status"),
    [(999.9, 0.0, "compliant"), (999.6, 3099.0, "compliant"), (999.6, 13804.0, "noncompliant")],
)
def test_markers_in_sight_given_the_elevation(tmp_path, gap, elevation, status):
    layer, signs = _lot(gap)
    at = Settings(elevation_ft=elevation)
    r = check(layer, signs, profile_file(tmp_path, IN_SIGHT), context=OPEN, settings=at)
    assert _one(r)[0] == status
    if status == "noncompliant":  # 999.6 x 1.00065983 = 1,000.26 ft, measured on the ground
        [msg] = r.findings.loc[r.findings["rule"] == "in_sight", "message"]
        assert "(the farthest 1,000.3 ft apart; sight distance 1,000.0 ft, open land)" in msg


@given(
    d=st.floats(1.0, 2000.0),
    open_ft=st.sampled_from([1000.0, 300.0]),
    unknown=st.booleans(),
    verified=st.booleans(),
    acc=st.sampled_from([0.0, 2.0, 20.0]),
    lo=st.floats(0.9999, 1.001),
    spread=st.floats(0.0, 0.002),
)
@example(d=99.97, open_ft=1000.0, unknown=True, verified=True, acc=0.0, lo=F_LO, spread=F_HI - F_LO)
def test_never_in_sight_where_out_of_it_at_some_elevation(
    d, open_ft, unknown, verified, acc, lo, spread
):
    """The band's status is in sight (OK) only where each elevation's is, out of sight (FAIL)
    only where each elevation's is (the factors between lo and hi tried on a grid)."""
    from posting.kinds.in_sight import InSightRule, _Judge

    rule = InSightRule("x", sight_ft=open_ft, forest_sight_ft=100.0, verified=verified)
    judge = _Judge(rule, np.array([d]), np.array([open_ft]), np.array([unknown]), acc, False)
    [code] = judge((lo, lo + spread))[0].tolist()
    each = [judge((f, f))[0][0] for f in np.linspace(lo, lo + spread, 41)]
    if code == OK:
        assert all(c == OK for c in each)
    if code == FAIL:
        assert all(c == FAIL for c in each)


def test_the_plan_keeps_markers_in_sight_on_the_highest_land(tmp_path):
    # A 1,999.5 ft square (7,998 ft of boundary), no marker, in sight within 1,000 ft (stated):
    # spaced by 1,000 / 1.00065983 - 0.2 = 999.14 ft, the ring takes ceil(8.0049) = 9 markers;
    # at sea level by 999.8 ft, ceil(7.9996) = 8, 999.75 ft apart along a side, which is
    # 999.90-1,000.41 ft on Wyoming's land: perhaps out of sight.
    rules, ctx = profile_file(tmp_path, IN_SIGHT), Context(sight_ft=1000.0)
    layer = parcels(square(1999.5), crs=WYOMING)
    p = plan(check(layer, None, rules, context=ctx), setback_ft=0.0, sight_ft=1000.0)
    assert p.counts()["interval"] == 9
    assert recheck(layer, None, p, context=ctx).parcels["status"].tolist() == ["compliant"]
    at_sea = plan(
        check(layer, None, rules, context=ctx, settings=AT_SEA), setback_ft=0.0, sight_ft=1000.0
    )
    assert at_sea.counts()["interval"] == 8
    again = recheck(layer, None, at_sea, settings=Settings(), context=ctx)
    assert again.parcels["status"].tolist() == ["uncertain"]


# -- a rule for some land only (posting/kinds/when.py) ------------------------------------------


@pytest.mark.parametrize(
    ("acres", "status"),
    [
        # California 554.1: the 600 ft spacing only over one acre (or one mile); a strip 700 ft
        # long with a sign at each corner has gaps of 700 ft. Over one acre (with the slack of
        # either acre, 1.000005) on the ground at x 1.00029628 (lowest) to 1.00132010 (highest):
        (0.9999, "noncompliant"),  # 1.00020-1.00122 acres: over at any elevation (before: pass)
        (0.999, "uncertain"),  # 0.99930-1.00032: over at the highest land only
        (0.998, "compliant"),  # up to 0.99932: not over, the spacing not required
    ],
)
def test_a_rule_over_an_acre_on_wyoming_land(acres, status):
    from test_state_profiles import NO_WAYS

    width = acres * 43_560 / 700
    layer = parcels(shapely.box(0, 0, width, 700), crs=WYOMING)
    signs = markers([(0, 0), (width, 0), (width, 700), (0, 700)], crs=WYOMING)
    ways = Context(access=NO_WAYS)  # (no entrance to mark)
    r = check(layer, signs, "california-554", context=ways)
    status_, f = _one(r)
    assert status_ == status
    spacing = f[f["rule"] == "spacing"]
    if status == "uncertain":
        [(level, msg)] = spacing[["level", "message"]].values.tolist()
        assert level == "uncertain"
        assert msg.startswith(
            "(required only on more than 1 acre or a lineal dimension over 5,280 ft, which it "
            "is at some of its elevations and not at others: land of 0.9990 acres at sea level "
            "is 0.9993-1.0003 acres on the ground at Wyoming's elevations (3,099 to 13,804 ft); "
            "the land's elevation (--elevation-ft) settles it) "
        )
    elif status == "compliant":
        assert spacing["level"].tolist() == ["note"]
    # given the elevation, the acre is the ground's: at 13,804 ft 0.999 acres is over one
    given = check(
        layer, signs, "california-554", context=ways, settings=Settings(elevation_ft=13804)
    )
    assert _one(given)[0] == ("compliant" if acres == 0.998 else "noncompliant")


OVER_A_MILE_LONG = """
[spacing]
max_ft = 1000
clause = "Test 1"

[when.spacing]
longest_over_ft = 5280
clause = "Test 1"
"""


def test_a_rule_for_land_over_a_mile_long_on_wyoming_land_names_its_length(tmp_path):
    """A strip 5,279 by 1 ft (its longest dimension the diagonal, sqrt(5,279^2 + 1) =
    5,279.0001 ft at sea level) is 5,279.78-5,282.48 ft long on the ground in Wyoming (x F_LO,
    F_HI): over a mile at the highest land only. Its signs at the corners are 5,279 ft apart,
    over the 1,000 ft spacing, which applies only to land over a mile long: uncertain, the
    finding giving the ground's length (before: the factors, 1.000148-1.000660)."""
    layer = parcels(shapely.box(0, 0, 5279.0, 1.0), crs=WYOMING)
    signs = markers([(0, 0), (5279, 0), (5279, 1), (0, 1)], crs=WYOMING)
    status, f = _one(check(layer, signs, profile_file(tmp_path, OVER_A_MILE_LONG)))
    assert status == "uncertain"
    [msg] = f.loc[f["rule"] == "spacing", "message"]
    assert msg.startswith(
        "(required only on a lineal dimension over 5,280 ft, which it is at some of its "
        "elevations and not at others: its longest dimension of 5,279.00 ft at sea level is "
        "5,279.78-5,282.48 ft on the ground at Wyoming's elevations (3,099 to 13,804 ft); the "
        "land's elevation (--elevation-ft) settles it) "
    )


ONLY_OVER_AN_ACRE = """
[spacing]
max_ft = 1000
clause = "Test 1"

[when.profile]
acres_over = 1
clause = "Test 2"
"""


@pytest.mark.parametrize(
    ("acres", "status"),
    [(0.9999, "compliant"), (0.999, "uncertain"), (0.998, "noncompliant")],  # (as above)
)
def test_a_way_of_posting_for_land_over_an_acre_on_wyoming_land(tmp_path, acres, status):
    # the way serves only land over an acre: 0.999 acres may be over one on the ground or not,
    # which the land's elevation settles (uncertain, as where a fence may or may not enclose it)
    width = acres * 43_560 / 700
    layer = parcels(shapely.box(0, 0, width, 700), crs=WYOMING)
    signs = markers([(0, 0), (width, 0), (width, 700), (0, 700)], crs=WYOMING)
    r = check(layer, signs, profile_file(tmp_path, ONLY_OVER_AN_ACRE))
    status_, f = _one(r)
    assert status_ == status
    said = f.loc[f["rule"] == "when", ["level", "message"]].values.tolist()
    if status == "uncertain":
        assert said == [
            [
                "uncertain",
                "this way of posting serves only more than 1 acre: the land is at some of its "
                "elevations and not at others: land of 0.9990 acres at sea level is "
                "0.9993-1.0003 acres on the ground at Wyoming's elevations (3,099 to 13,804 "
                "ft); the land's elevation (--elevation-ft) settles it",
            ]
        ]
    elif status == "noncompliant":
        assert said == [
            ["violation", "this way of posting serves only more than 1 acre: this land is not"]
        ]


@given(
    size=st.floats(0.5, 2.0),
    lo=st.floats(0.9999, 1.001),
    spread=st.floats(0.0, 0.002),
    key=st.sampled_from(["acres_over", "acres_at_most", "longest_over_ft", "longest_at_most_ft"]),
)
@example(size=0.999, lo=F_LO, spread=F_HI - F_LO, key="acres_over")
def test_a_threshold_is_met_by_the_band_only_where_it_is_at_every_elevation(size, lo, spread, key):
    """A square of ``size`` acres (or, against a length, of a diagonal ``size`` x 1,000 ft):
    the band says a threshold (1 acre, 1,000 ft) is met only where it is at every factor
    between lo and hi, not met only where it is at none (a grid of factors tried)."""
    from types import SimpleNamespace

    from posting.kinds.when import Gate, _thresholds

    side = math.sqrt(size * 43_560) if key.startswith("acres") else size * 1000 / math.sqrt(2)
    prep = SimpleNamespace(
        area_acres=np.array([side * side / 43_560]), geometry_ft=np.array([square(side)])
    )
    m = SimpleNamespace(prep=prep)
    gate = Gate("x", **{key: 1.0 if key.startswith("acres") else 1000.0})
    [band] = _thresholds(gate, m, (lo, lo + spread))
    each = [_thresholds(gate, m, (f, f))[0][0] for f in np.linspace(lo, lo + spread, 41)]
    assert not np.isnan(each).any()
    if band[0] == 1.0:
        assert all(v == 1.0 for v in each)
    if band[0] == 0.0:
        assert all(v == 0.0 for v in each)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), accuracy_ft=st.sampled_from([0.0, 1.0, 16.0]))
def test_the_gaps_judged_again_at_sea_level_are_all_that_the_band_may_decide(seed, accuracy_ft):
    """Oracle for kinds.spacing.measure's shortcut: it judges as measured (no band) only the
    gaps not within the limit at the highest land, and those where the ground may be shorter
    than as measured (hi < 1: a kept State Plane grid's scale over 1). Slow and obvious: every
    gap judged both ways; the same statuses, for gaps within a quarter of a foot of the
    limits, corner feet and the land's stricter and more lenient figures included."""
    from posting.kinds.spacing import SpacingRule, _Judge

    rng = np.random.default_rng(seed)
    n = 2000
    rule = SpacingRule("spacing", forest_ft=500.0, other_ft=660.0)
    limit = rng.choice([500.0, 660.0], n)
    both = 2 * accuracy_ft
    near = np.choose(rng.integers(0, 3, n), [limit - both, limit + both, np.full(n, 660.0)])
    measured = near * rng.uniform(0.9995, 1.0005, n)
    unmarked = rng.random(n) < 0.05
    judge = _Judge(rule, limit, np.full(n, both), unmarked, measured.copy(), rng.random(n) < 0.3)
    judge.short = measured - rng.uniform(0, 3, n)
    judge.unsure_ft = rng.uniform(0, 3, n)
    lo = rng.uniform(0.9998, 1.0002, n)  # (under 1: a grid's scale over the ground's)
    scale = (lo, lo * rng.uniform(1.0, 1.0007, n))
    code = judge(measured, scale)[0]
    plain = judge(measured, (1.0, 1.0))[0]
    again = np.flatnonzero((code != OK) | (scale[1] < 1.0))
    fast = np.full(n, OK, dtype=code.dtype)
    fast[again] = judge.take(again)(measured[again], (1.0, 1.0))[0]
    assert fast.tolist() == plain.tolist()
    assert (code != plain).any()  # (the band decides some)
