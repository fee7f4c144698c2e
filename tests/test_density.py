"""Density: at least so many places with a marker to a mile of boundary, or in all."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import shapely
from helpers import AT_SEA, markers, parcels, profile_file, square
from hypothesis import given, settings
from hypothesis import strategies as st

from posting import check
from posting.kinds.density import DensityRule, required, ring_places


def along(poly, step_ft, start_ft=0.0):
    ring = shapely.get_exterior_ring(shapely.orient_polygons(poly))
    s = np.arange(start_ft, ring.length - 1e-9, step_ft)
    return shapely.get_coordinates(shapely.line_interpolate_point(ring, s))


def slow_places(rings, positions, lengths, place_ft):
    """One ring at a time: sort the positions, count the gaps (wrapping round) longer than
    ``place_ft``; a ring with markers has at least one place."""
    out = []
    for r, length in enumerate(lengths):
        pos = sorted(p for rr, p in zip(rings, positions, strict=True) if rr == r)
        if not pos:
            out.append(0)
            continue
        gaps = [b - a for a, b in itertools.pairwise(pos)] + [length - pos[-1] + pos[0]]
        out.append(max(1, sum(g > place_ft + 1e-3 for g in gaps)))
    return out


def test_places_by_hand():
    # ring 0 (1,000 ft): markers at 0, 5, 10 (one place within 20 ft), 400, 990 (10 ft before
    # 0 round the ring: the same place as 0) -> 2 places; ring 1: one marker -> 1; ring 2: none
    got = ring_places(
        np.array([0, 0, 0, 0, 0, 1]),
        np.array([0.0, 5.0, 10.0, 400.0, 990.0, 50.0]),
        np.array([1000.0, 100.0, 300.0]),
        20.0,
    )
    assert got.tolist() == [2, 1, 0]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.floats(0, 1)), max_size=40),
    st.floats(0, 300),
)
def test_places_agree_with_the_slow_obvious_count(pts, place_ft):
    lengths = np.array([1000.0, 250.0, 40.0, 5000.0])
    rings = np.array([r for r, _ in pts], dtype=np.int64)
    pos = np.array([f * lengths[r] for r, f in pts], dtype=float)
    fast = ring_places(rings, pos, lengths, place_ft)
    assert fast.tolist() == slow_places(rings.tolist(), pos.tolist(), lengths, place_ft)
    # properties: no more places than markers; every marker counts when place_ft is 0 and the
    # positions differ; a ring with a marker has a place
    assert (fast <= np.bincount(rings, minlength=4)).all()
    assert ((np.bincount(rings, minlength=4) > 0) == (fast > 0)).all()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(0, 999), min_size=1, max_size=30), st.floats(0, 200), st.floats(0, 200))
def test_a_wider_place_never_makes_more_places(pos, a, b):
    lengths = np.array([1000.0])
    rings = np.zeros(len(pos), np.int64)
    narrow, wide = sorted((a, b))
    assert (
        ring_places(rings, np.array(pos), lengths, wide)[0]
        <= ring_places(rings, np.array(pos), lengths, narrow)[0]
    )


def test_required_per_mile_and_in_all():
    ten = DensityRule("x", per_mile=10.0)
    # 1 mile: 10; 1.5 miles: 15; 0.501 mi: 5.01 -> 6; a short lot: 1 at least
    assert required(ten, np.array([5280.0, 7920.0, 0.501 * 5280, 50.0])).tolist() == [10, 15, 6, 1]
    four = DensityRule("x", min_count=4.0)
    assert required(four, np.array([10.0, 1e6])).tolist() == [4, 4]


NJ_LIKE = """
[density]
per_mile = 10
exterior_only = true
clause = "Test 1(a)"
"""


@pytest.mark.parametrize(("count", "status"), [(8, "compliant"), (7, "noncompliant")])
def test_ten_to_a_mile_on_a_square_of_0_76_miles(tmp_path, count, status):
    # a 1,000 ft square: 4,000 ft = 0.7576 mi of exterior boundary; 10 to a mile needs
    # ceil(7.576) = 8 signs. A hole (a 100 ft square pond) is not exterior: it adds nothing.
    lot = shapely.Polygon(
        square(1000).exterior.coords, [shapely.box(450, 450, 550, 550).exterior.coords]
    )
    pts = along(square(1000), 4000.0 / count)
    r = check(parcels(lot), markers(pts), profile_file(tmp_path, NJ_LIKE))
    p = r.to_dict()["parcels"][0]
    assert p["status"] == status
    assert p["places_required"] == 8 and p["places_marked"] == count
    if status == "noncompliant":
        [v] = p["violations"]
        assert (v["rule"], v["measured"], v["limit"], v["unit"]) == ("density", 7, 8, "places")
        assert "0.76 mi" in v["message"] and "10 to a mile" in v["message"]
    # exterior only: signs round the pond would not count; with every ring, the boundary is
    # 4,400 ft = 0.833 mi and needs 9
    every = NJ_LIKE.replace("exterior_only = true", "exterior_only = false")
    r = check(parcels(lot), markers(pts), profile_file(tmp_path, every))
    assert r.to_dict()["parcels"][0]["places_required"] == 9


FOUR_PLACES = """
[density]
min_count = 4
place_ft = 30
clause = "Test 2"
"""


def test_four_conspicuous_places(tmp_path):
    lot = square(1000)
    corners = [(0, 0), (1000, 0), (1000, 1000), (0, 1000)]
    rules = profile_file(tmp_path, FOUR_PLACES)
    assert check(parcels(lot), markers(corners), rules).parcels["status"][0] == "compliant"
    # three corners and a second sign 20 ft from one of them: 4 signs, 3 places
    crowded = [*corners[:3], (1000, 20)]
    p = check(parcels(lot), markers(crowded), rules).to_dict()["parcels"][0]
    assert p["status"] == "noncompliant" and p["places_marked"] == 3
    assert "within 30.0 ft of each other are one place" in p["violations"][0]["message"]


def test_unposted_parcel_needs_its_count_and_is_unposted(tmp_path):
    # exactly a mile of boundary, at sea level: in Florida (up to 345 ft) it may be up to
    # 5,280.09 ft on the ground, which needs 11
    lot, rules = parcels(square(5280 / 4)), profile_file(tmp_path, NJ_LIKE)
    r = check(lot, markers([]), rules, settings=AT_SEA)
    p = r.to_dict()["parcels"][0]
    assert p["status"] == "unposted" and p["places_required"] == math.ceil(10 * 1.0)
    assert check(lot, markers([]), rules).parcels["places_required"][0] == 11


# -- the elevation band: both counts step inside it ---------------------------------------------

# Central Wyoming, a frame of scale 1 at its origin: lengths at sea level. Wyoming's land is
# 3,099 to 13,804 ft: the ground is F_LO = 1.00014813 to F_HI = 1.00065983 times as long
# (tests/test_elevation.py works them out).
WYOMING = "+proj=tmerc +lat_0=43 +lon_0=-107.5 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft +no_defs"
F_LO, F_HI = 1.00014813, 1.00065983
TEN_A_MILE_PLACE_20 = """
[density]
per_mile = 10
place_ft = 20
clause = "Test 3"
"""


def _steps_lot(pair_ft: float):
    """A square of 2,639 ft round (659.75 ft a side) with six signs along it, the first two
    ``pair_ft`` apart, the others 500 ft and more apart."""
    lot = square(2639.0 / 4)
    ring = shapely.get_exterior_ring(shapely.orient_polygons(lot))
    at = shapely.line_interpolate_point(ring, [0.0, pair_ft, 520.0, 1040.0, 1560.0, 2080.0])
    return lot, shapely.get_coordinates(at)


@pytest.mark.parametrize(
    ("pair_ft", "status"),
    [
        # 10 to a mile of 2,639 ft x f needs 5 up to f = 2,640 / 2,639 = 1.000379, then 6. The
        # pair 19.995 ft apart is one place up to f = 20.001 / 19.995 = 1.000300 (20 ft and
        # the 0.001 ft of one point), then two: 5 places and 5 needed, then 6 and 5, then 6
        # and 6: enough at every elevation of the band (before: uncertain, 5 places at the
        # lowest against 6 needed at the highest)
        (19.995, "compliant"),
        # 19.99 ft apart: one place up to f = 20.001 / 19.99 = 1.000550, after the need's step
        # at 1.000379: between them 5 places and 6 needed, too few on land at 7,940 to 11,510 ft
        (19.99, "uncertain"),
        # 19.9 ft: one place at every elevation (20.001 / 19.9 = 1.00508): 5 places, 5 to 6
        # needed
        (19.9, "uncertain"),
    ],
)
def test_density_on_the_band_is_judged_at_every_elevation(tmp_path, pair_ft, status):
    crs = WYOMING
    lot, pts = _steps_lot(pair_ft)
    rules = profile_file(tmp_path, TEN_A_MILE_PLACE_20)
    r = check(parcels(lot, crs=crs), markers(pts, crs=crs), rules)
    assert r.parcels["status"][0] == status
    lo, hi = r.ground.lo[0], r.ground.hi[0]
    assert lo == pytest.approx(F_LO, abs=2e-8) and hi == pytest.approx(F_HI, abs=2e-8)
    # a second method: the counts at 20,001 factors across the band, each alone
    rule = DensityRule("x", per_mile=10.0, place_ft=20.0)
    f = np.linspace(lo, hi, 20_001)
    pos = np.array([0.0, pair_ft, 520.0, 1040.0, 1560.0, 2080.0])
    places = np.array([ring_places(np.zeros(6, np.int64), pos, [2639.0], 20.0, k)[0] for k in f])
    short = places < required(rule, 2639.0 * f)
    assert status == ("uncertain" if short.any() else "compliant")


def test_a_density_violation_on_the_band_shows_places_and_need_at_one_elevation(tmp_path):
    # The lot of 2,639 ft round with five signs, the first two 19.99 ft apart: 4 places up to
    # f = 20.001 / 19.99 = 1.000550, then 5; needed 5 up to f = 2,640 / 2,639 = 1.000379, then
    # 6. Too few at every elevation (4 of 5, 4 of 6, 5 of 6): a violation. Its figures must
    # be one elevation's: 4 places against 5 needed on the lowest land, not the 5 places of
    # the highest against the 5 needed on the lowest (a "violation" whose figure met its limit).
    crs = WYOMING
    lot = square(2639.0 / 4)
    ring = shapely.get_exterior_ring(shapely.orient_polygons(lot))
    pos = np.array([0.0, 19.99, 520.0, 1040.0, 1560.0])
    pts = shapely.get_coordinates(shapely.line_interpolate_point(ring, pos))
    rules = profile_file(tmp_path, TEN_A_MILE_PLACE_20)
    r = check(parcels(lot, crs=crs), markers(pts, crs=crs), rules)
    assert r.parcels["status"][0] == "noncompliant"
    [v] = r.findings[r.findings["rule"] == "density"].itertuples()
    assert v.level == "violation"
    # a second method: the counts at 20,001 factors across the band, each alone
    rule = DensityRule("x", per_mile=10.0, place_ft=20.0)
    f = np.linspace(r.ground.lo[0], r.ground.hi[0], 20_001)
    places = np.array([ring_places(np.zeros(5, np.int64), pos, [2639.0], 20.0, k)[0] for k in f])
    need = required(rule, 2639.0 * f)
    assert (places < need).all()
    assert (places.min(), places.max(), need.min(), need.max()) == (4, 5, 5, 6)
    best = np.argmax(places - need)  # the first factor where the fewest are missing
    assert (v.measured, v.limit) == (places[best], need[best]) == (4, 5)
    assert v.measured < v.limit
