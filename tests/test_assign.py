"""Which parcel and ring a marker posts: inside, nearest, named; and an oracle."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import shapely
from helpers import markers, parcels, square
from hypothesis import given, settings
from hypothesis import strategies as st

from posting import Settings, check
from posting.assign import assign_markers
from posting.prepare import prepare_parcels


def plain(values):
    """Column values with missing ones as None (pandas keeps strings with NaN for missing)."""
    return [None if pd.isna(v) else v for v in values]


def assigned(report):
    m = report.markers
    return list(zip(plain(m["parcel_id"]), plain(m["assigned_by"]), strict=True))


def test_marker_inside_near_the_shared_line_goes_to_the_parcel_it_stands_in():
    west, east = square(500), square(500, x0=500)
    # 3 ft west of the shared line: in the west lot, though as near the east lot's line.
    r = check(parcels(west, east, ids=["W", "E"]), markers([(497, 250), (503, 250)]))
    assert assigned(r) == [("W", "inside"), ("E", "inside")]
    assert r.markers["distance_ft"].tolist() == pytest.approx([3.0, 3.0])


def test_marker_in_the_road_goes_to_the_nearest_boundary_within_tolerance():
    north, south = square(500, y0=30), square(500, y0=-530)  # a 60 ft road between them
    pts = [(100, 20), (100, -25), (100, 0), (100, 45)]
    r = check(parcels(north, south, ids=["N", "S"]), markers(pts))
    assert assigned(r) == [("N", "nearest"), ("S", "nearest"), ("N", "nearest"), ("N", "inside")]
    # (100, 0) is 30 ft from both lines: the tie goes to the parcel first in the input
    r = check(
        parcels(north, south, ids=["N", "S"]), markers(pts), settings=Settings(tolerance_ft=29.0)
    )
    assert plain(r.markers["parcel_id"]) == ["N", "S", None, "N"]
    assert "nearest boundary (parcel 'N') is 30.0 ft away" in r.markers["reason"][2]


def test_marker_far_inside_a_parcel_is_unassigned_with_the_reason():
    r = check(parcels(square(1000)), markers([(500, 500), (4000, 4000), (9000, 9000)]))
    d = r.to_dict()
    assert d["summary"]["markers_unassigned"] == 3
    reasons = [u["reason"] for u in d["unassigned_signs"]]
    assert reasons[0] == "stands inside parcel '0', 500.0 ft from its boundary (tolerance 30.0 ft)"
    assert reasons[1] == (
        "outside every parcel; the nearest boundary (parcel '0') is 4,242.6 ft away "
        "(tolerance 30.0 ft)"
    )
    assert reasons[2] == "no parcel boundary within 5,000 ft"
    assert [u["row"] for u in d["unassigned_signs"]] == [0, 1, 2]


def test_a_marker_in_overlapping_parcels_stands_in_the_first_and_is_as_far_as_its_boundary():
    """A lot of 1,000 ft (first in the input) and one of 200 ft lying on it: a marker 40 ft
    inside the small one's north side is in both, beyond the tolerance of every boundary. It
    stands in the first, 440 ft from that one's boundary (not 40 ft: the other's, which the
    reason once gave beside the first's name)."""
    small = shapely.box(400, 400, 600, 600)
    r = check(parcels(square(1000), small, ids=["big", "small"]), markers([(500, 560)]))
    assert r.markers["reason"][0] == (
        "stands inside parcel 'big', 440.0 ft from its boundary (tolerance 30.0 ft)"
    )
    r = check(parcels(small, square(1000), ids=["small", "big"]), markers([(500, 560)]))
    assert r.markers["reason"][0] == (
        "stands inside parcel 'small', 40.0 ft from its boundary (tolerance 30.0 ft)"
    )


def test_reason_search_looks_past_the_empty_corner_of_the_extent():
    # two parcels far apart: their joint extent (0..6,000 ft) has an empty corner, so a marker
    # near the extent is not always near a boundary (the shortcut for markers far out of it
    # must not decide these)
    a, b = square(1000), square(1000, x0=5000, y0=5000)
    pts = [(3000, -2000), (5500, -4000), (20000, 20000)]
    r = check(parcels(a, b, ids=["A", "B"]), markers(pts))
    reasons = [u["reason"] for u in r.to_dict()["unassigned_signs"]]
    assert reasons[0] == (
        "outside every parcel; the nearest boundary (parcel 'A') is 2,828.4 ft away "
        "(tolerance 30.0 ft)"
    )  # hypot(2000, 2000)
    assert reasons[1] == "no parcel boundary within 5,000 ft"  # hypot(4500, 4000) = 6,021 ft
    assert reasons[2] == "no parcel boundary within 5,000 ft"


def test_named_parcel_overrides_position():
    west, east = square(500), square(500, x0=500)
    pts = [(497, 250), (497, 260), (497, 270), (250, 250)]
    refs = ["E", None, "nowhere", "E"]
    r = check(parcels(west, east, ids=["W", "E"]), markers(pts, parcel_ref=refs))
    m = r.markers
    assert plain(m["parcel_id"]) == ["E", "W", None, None]
    assert plain(m["assigned_by"]) == ["named", "inside", None, None]
    assert m["reason"][2] == "names parcel 'nowhere', which is not in the parcel file"
    assert (
        m["reason"][3]
        == "names parcel 'E' but stands 250.0 ft from its boundary (tolerance 30.0 ft)"
    )


def test_a_marker_beyond_the_crs_reach_is_off_the_earth_beside_one_without_coordinates():
    """A marker 1e300 ft off (a coordinate no file should hold) cannot be placed on Earth, even
    where another marker has no coordinate: a NaN once hid the extremes from the test of
    reach, PROJ gave the far marker a place (longitude 98.9, latitude -73.1), and, as it named
    its parcel, GEOS's distance to it overflowed (the long fuzz run's find)."""
    r = check(
        parcels(square(500), ids=["A"]),
        markers([(250, 3), (1e-300, 1e300), (0, np.nan)], parcel_ref=["A", "A", "A"]),
    )
    m = r.markers
    assert plain(m["parcel_id"]) == ["A", None, None]
    assert m["reason"][1].startswith("cannot be placed on Earth")
    assert m["reason"][2] == "no coordinates"


def test_a_marker_naming_a_lot_of_a_merged_property_posts_the_property():
    # lots A1 and A2 of one owner merge into property A1 (1,000 x 500 ft); a marker that names
    # A2 on the property's boundary posts it, one that names A2 on the old inner line (x = 500)
    # stands 250 ft from the property's boundary (its nearest: y = 0 or y = 500), on the inner
    # line (as the reason says)
    a1, a2, b = square(500), square(500, x0=500), square(500, y0=-500)
    lay = parcels(a1, a2, b, ids=["A1", "A2", "B"])
    prep = prepare_parcels(lay, merge_key=np.array(["doe", "doe", None], dtype=object))
    r = check(prep, markers([(990, 250), (500, 250), (250, 3)], parcel_ref=["A2", "A2", "B"]))
    m = r.markers
    assert plain(m["parcel_id"]) == ["A1", None, "B"]
    assert plain(m["assigned_by"]) == ["named", None, "named"]
    assert m["distance_ft"][0] == pytest.approx(10.0)
    assert m["reason"][1] == (
        "names parcel 'A2' but stands 250.0 ft from its boundary (tolerance 30.0 ft), on a "
        "line between two lots of property 'A1' (one owner's lots merged into one property: an "
        "inner line, not measured)"
    )


def test_a_marker_on_an_inner_line_of_a_merged_property_is_said_to_stand_on_one():
    # Lots W1 and W2 of one owner (500 ft squares side by side) merge into property W1,
    # 1,000 x 500 ft; their shared line, x = 500, is inside it. A sign on it (x = 500, 510:
    # 0 and 10 ft from it, within the 30 ft tolerance) stands 250 ft from the property's
    # boundary (y = 0 or 500), which the reason says, and that it stands on an inner line,
    # whether it names W2 or nothing; one 200 ft east of the line (x = 700) is on none, nor is
    # one inside lot E, a lot of its own (its line 250 ft off: y = 0 or 500).
    w1, w2, e = square(500), square(500, x0=500), square(500, x0=2000)
    lay = parcels(w1, w2, e, ids=["W1", "W2", "E"])
    prep = prepare_parcels(lay, merge_key=np.array(["doe", "doe", None], dtype=object))
    pts = [(500, 250), (510, 250), (500, 250), (700, 250), (2250, 250)]
    r = check(prep, markers(pts, parcel_ref=[None, None, "W2", None, None]))
    m = r.markers
    assert plain(m["parcel_id"]) == [None] * 5
    inner = "(one owner's lots merged into one property: an inner line, not measured)"
    tol = "(tolerance 30.0 ft)"
    assert m["reason"].tolist() == [
        f"stands inside parcel 'W1', 250.0 ft from its boundary {tol}, "
        f"on a line between two of its lots {inner}",
        f"stands inside parcel 'W1', 250.0 ft from its boundary {tol}, "
        f"on a line between two of its lots {inner}",
        f"names parcel 'W2' but stands 250.0 ft from its boundary {tol}, "
        f"on a line between two lots of property 'W1' {inner}",
        f"stands inside parcel 'W1', 250.0 ft from its boundary {tol}",
        f"stands inside parcel 'E', 250.0 ft from its boundary {tol}",
    ]


def test_marker_goes_to_the_nearest_ring_of_its_parcel():
    hole = [(400, 400), (600, 400), (600, 600), (400, 600)]
    poly = shapely.Polygon(square().exterior.coords, [hole])
    r = check(parcels(poly), markers([(390, 500), (10, 500)]))
    assert r.markers["hole"].tolist() == [1, 0]


def test_every_marker_is_accounted_for_once():
    rng = np.random.default_rng(3)
    polys = [square(300, x0=x, y0=y) for x in range(0, 1500, 300) for y in range(0, 1500, 300)]
    pts = rng.uniform(-100, 1600, (400, 2))
    pts[::37] = np.nan
    r = check(parcels(*polys), markers(pts))
    d = r.to_dict()
    assigned_n = sum(p["signs"] for p in d["parcels"])
    assert assigned_n + len(d["unassigned_signs"]) == 400
    assert d["summary"]["markers_read"] == 400
    assert d["summary"]["markers_assigned"] == assigned_n
    rows = sorted(
        [u["row"] for u in d["unassigned_signs"]]
        + r.markers.loc[r.markers["parcel"] >= 0, "row"].tolist()
    )
    assert rows == list(range(400))
    assert {u["reason"] for u in d["unassigned_signs"] if u["lon"] is None} == {"no coordinates"}


def oracle(polys, pts, tol):
    """The slow obvious rule: a loop over markers and every ring of every parcel."""
    out = []
    rings = []
    for p_i, poly in enumerate(polys):
        for part in getattr(poly, "geoms", [poly]):
            rings += [(p_i, r) for r in [part.exterior, *part.interiors]]
    for x, y in pts:
        pt = shapely.Point(x, y)
        best = None
        for p_i, ring in rings:
            d = ring.distance(pt)
            if d > tol:
                continue
            prio = 1 if polys[p_i].intersects(pt) else 2
            key = (prio, d, p_i)
            if best is None or key < best:
                best = key
        out.append(-1 if best is None else best[2])
    return out


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16), tol=st.floats(1.0, 80.0))
def test_assignment_matches_the_slow_oracle(seed, tol):
    rng = np.random.default_rng(seed)
    polys = []
    for _ in range(rng.integers(1, 8)):
        x0, y0 = rng.uniform(0, 1500, 2)
        w, h = rng.uniform(50, 600, 2)
        polys.append(shapely.box(x0, y0, x0 + w, y0 + h))
    pts = rng.uniform(-100, 2200, (60, 2))
    layer = parcels(*polys)
    prep = prepare_parcels(layer)
    a = assign_markers(prep, markers(pts), tolerance_ft=tol)
    want = oracle(polys, pts, tol)
    got = a.parcel.tolist()
    # Ties in distance between parcels are broken the same way (first parcel), but a float
    # difference of 1e-12 may order two equal distances differently: compare where unambiguous.
    for g, w_, (x, y) in zip(got, want, pts, strict=True):
        if g != w_:
            d = [shapely.Point(x, y).distance(polys[k].boundary) for k in (g, w_) if k >= 0]
            assert len(d) == 2 and abs(d[0] - d[1]) < 1e-9


def _neighbours(rng):
    """Parcels sharing lines: an L and the square that fills its notch, a lot with a pond
    and an out-parcel standing in it, two lots split by a meandering line of many segments,
    and a parcel in two parts."""
    t = np.linspace(0, 1, int(rng.integers(20, 80)))
    meander = np.column_stack([1000 + 600 * t, 300 + 40 * np.sin(t * rng.uniform(5, 30))])
    return [
        shapely.Polygon([(0, 0), (600, 0), (600, 200), (300, 200), (300, 500), (0, 500)]),
        shapely.box(300, 200, 600, 500),
        shapely.Polygon(
            [(0, 600), (500, 600), (500, 1100), (0, 1100)],
            [[(150, 750), (150, 950), (350, 950), (350, 750)]],
        ),
        shapely.box(150, 750, 350, 950),
        shapely.Polygon([(1000, 0), (1600, 0), *meander[::-1].tolist()]),
        shapely.Polygon([*meander.tolist(), (1600, 700), (1000, 700)]),
        shapely.MultiPolygon([shapely.box(700, 600, 900, 800), shapely.box(700, 850, 900, 1000)]),
    ]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**16), tol=st.floats(2.0, 60.0))
def test_assignment_on_shared_lines_matches_the_slow_oracle(seed, tol):
    rng = np.random.default_rng(seed)
    polys = _neighbours(rng)
    coords = shapely.get_coordinates(shapely.boundary(np.array(polys)))
    k = rng.integers(0, len(coords), 150)
    ang = rng.uniform(0, 2 * np.pi, 150)
    off = rng.uniform(0, 1.2 * tol, (150, 1))
    pts = np.vstack(
        [
            coords[k] + off * np.column_stack([np.cos(ang), np.sin(ang)]),
            rng.uniform(-100, 1700, (100, 2)),
        ]
    )
    a = assign_markers(prepare_parcels(parcels(*polys)), markers(pts), tolerance_ft=tol)
    want = oracle(polys, pts, tol)
    for g, w_, (x, y) in zip(a.parcel.tolist(), want, pts, strict=True):
        if g != w_:  # only an exact tie between two parcels may go either way
            d = [shapely.Point(x, y).distance(polys[k].boundary) for k in (g, w_) if k >= 0]
            assert len(d) == 2 and abs(d[0] - d[1]) < 1e-9


def test_position_along_ring_is_the_projection():
    r = check(
        parcels(shapely.Polygon([(0, 0), (1000, 0), (1000, 1000), (0, 1000)])),
        markers([(300, 5), (1005, 200)]),
    )
    assert r.markers["position_ft"].tolist() == pytest.approx([300.0, 1200.0])
    assert r.markers["distance_ft"].tolist() == pytest.approx([5.0, 5.0])


def test_marker_attributes_stay_with_their_rows():
    attrs = pd.DataFrame({"Kind": ["sign", "paint"]})
    m = markers([(0, 0), (10, 0)], attributes=attrs)
    assert m.attributes["kind"].tolist() == ["sign", "paint"]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**16), tol=st.floats(2.0, 60.0))
def test_without_explaining_the_assignment_is_the_same_and_unassigned_reasons_are_left_out(
    seed, tol
):
    rng = np.random.default_rng(seed)
    polys = _neighbours(rng)
    pts = rng.uniform(-300, 1900, (120, 2))
    prep = prepare_parcels(parcels(*polys))
    m = markers(pts)
    full = assign_markers(prep, m, tolerance_ft=tol)
    bare = assign_markers(prep, m, tolerance_ft=tol, explain=False)
    for f in ("parcel", "ring", "distance_ft", "position_ft", "x_ft", "y_ft"):
        np.testing.assert_array_equal(getattr(bare, f), getattr(full, f))
    assert bare.how.tolist() == full.how.tolist()
    lost = full.parcel < 0
    assert lost.any()  # markers out to 300 ft beyond the parcels: some are always far
    assert all(isinstance(r, str) and r for r in full.reason[lost])
    assert all(r is None for r in bare.reason[lost])
    assert all(r is None for r in bare.reason[~lost])


def _side_at_nearest_by_lexsort(who, ring, dist, side, rings_of):
    """The obvious way: every row sorted by pair, distance and ring; each pair's first row
    gives its side to the pair's rows."""
    side = side.copy()
    head_rows = rings_of <= 1
    several = np.flatnonzero(~head_rows)
    order = several[np.lexsort((ring[several], dist[several], who[several]))]
    head = np.r_[True, who[order][1:] != who[order][:-1]] if len(order) else order.astype(bool)
    side[order] = side[order[head]][np.cumsum(head) - 1]
    head_rows[order[head]] = True
    return side, head_rows


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(0, 400),
    pairs=st.integers(1, 40),
    repeat_ring=st.booleans(),
)
def test_side_at_nearest_matches_the_lexsort_oracle(seed, n, pairs, repeat_ring):
    from posting.assign import _side_at_nearest

    rng = np.random.default_rng(seed)
    who = rng.integers(0, pairs, n).astype(np.int64) * 1_000_003
    # distinct rings within a pair (as the ring index gives them), or a ring twice
    ring = np.arange(n, dtype=np.int64)[rng.permutation(n)]
    if repeat_ring and n > 1:
        ring[rng.integers(0, n)] = ring[rng.integers(0, n)]
    dist = rng.integers(0, 5, n).astype(float)  # many ties in distance
    side = rng.choice(np.array([-1, 0, 1], dtype=np.int8), n)
    rings_of = rng.integers(1, 4, n)
    got_side, got_head = _side_at_nearest(who, ring, dist, side, rings_of, heads=True)
    want_side, want_head = _side_at_nearest_by_lexsort(who, ring, dist, side, rings_of)
    np.testing.assert_array_equal(got_side, want_side)
    np.testing.assert_array_equal(got_head, want_head)


def test_a_marker_far_outside_the_parcels_says_so_and_that_a_coordinate_may_be_wrong():
    """Two lots in degrees near 28.7 N, 81.1 W; one sign typed 5 degrees west (a longitude
    -86.1 for -81.1), one 10 miles north (near enough to be a neighbour's: no hint), and one
    on a line. The distance is the geodesic from the sign to the lots' box, measured here with
    the box from geopandas."""
    import geopandas as gpd
    from pyproj import Geod

    lots = [shapely.box(-81.11, 28.70, -81.10, 28.71), shapely.box(-81.10, 28.70, -81.09, 28.71)]
    signs = [(-86.105, 28.705), (-81.105, 28.85), (-81.105, 28.70)]
    r = check(parcels(*lots, crs="EPSG:4326"), markers(signs, crs="EPSG:4326"))
    reasons = plain(r.markers["reason"])
    west, south, east, north = gpd.GeoSeries(lots, crs=4326).total_bounds
    assert south < 28.705 < north and -86.105 < west < east  # the box's nearest point: west
    _, _, metres = Geod(ellps="WGS84").inv(west, 28.705, -86.105, 28.705)
    miles = metres / 0.3048 / 5280
    assert 300 < miles < 305
    assert reasons == [
        f"no parcel boundary within 5,000 ft; it stands {miles:,.0f} miles outside the parcels' "
        "extent: a coordinate typed wrong?",
        "no parcel boundary within 5,000 ft",
        None,
    ]


def test_a_far_marker_whose_longitude_lost_its_minus_sign_or_was_swapped_says_so():
    """Beside the far sign of the test above: one typed 81.105 for -81.105 (China, 8,300
    miles off) and one with its latitude and longitude typed in each other's place (off
    Antarctica): each would stand on the lots with the slip undone, and its reason says which
    slip; the sign 5 degrees west (-86.105), which neither undoes, keeps the general hint."""
    from pyproj import Geod

    lots = [shapely.box(-81.11, 28.70, -81.10, 28.71), shapely.box(-81.10, 28.70, -81.09, 28.71)]
    signs = [(81.105, 28.705), (28.705, -81.105), (-86.105, 28.705)]
    r = check(parcels(*lots, crs="EPSG:4326"), markers(signs, crs="EPSG:4326"))
    reasons = plain(r.markers["reason"])
    geod = Geod(ellps="WGS84")
    # from each sign to the nearest point of the lots' box (-81.11..-81.09, 28.70..28.71): for
    # the first, across the antimeridian to its east side's middle latitude; for the second,
    # due north to its south side
    miles = [
        geod.inv(-81.09, 28.705, 81.105, 28.705)[2] / 0.3048 / 5280,
        geod.inv(-81.105, 28.70, 28.705, -81.105)[2] / 0.3048 / 5280,
    ]
    assert reasons[0] == (
        f"no parcel boundary within 5,000 ft; it stands {miles[0]:,.0f} miles outside the "
        "parcels' extent, and would stand among them with the sign of its longitude changed "
        "(-81.105000): its minus sign left out (or typed)?"
    )
    assert reasons[1].startswith("no parcel boundary within 5,000 ft; it stands ")
    assert reasons[1].endswith(
        "miles outside the parcels' extent, and would stand among them with its longitude "
        "and latitude swapped: the two typed in each other's place?"
    )
    assert reasons[2].endswith("miles outside the parcels' extent: a coordinate typed wrong?")


def test_a_far_marker_both_swapped_and_without_its_minus_sign_says_so():
    """A sign typed (28.705, 81.105): latitude and longitude in each other's place, and the
    longitude without its minus sign. Neither slip alone brings it near the lots ((81.105,
    28.705) is China, (-28.705, 81.105) the Arctic); both undone, (-81.105, 28.705), it stands
    on them, and its reason says so (before, "a coordinate typed wrong?")."""
    lots = [shapely.box(-81.11, 28.70, -81.10, 28.71), shapely.box(-81.10, 28.70, -81.09, 28.71)]
    r = check(parcels(*lots, crs="EPSG:4326"), markers([(28.705, 81.105)], crs="EPSG:4326"))
    [reason] = plain(r.markers["reason"])
    assert reason.startswith("no parcel boundary within 5,000 ft; it stands ")
    assert reason.endswith(
        "miles outside the parcels' extent, and would stand among them with its longitude "
        "and latitude swapped and the longitude's sign changed (-81.105000): the two typed in "
        "each other's place, and the minus sign left out (or typed)?"
    ), reason


# -- a lot across the antimeridian, in a projected CRS that holds it -------------------------
ALASKA_ALBERS = "EPSG:3338"
MILE_M = 5280 * 0.3048  # one mile of international feet: 1,609.344 m


def aleutian_lots(beside: str) -> tuple[list[shapely.Polygon], list[tuple[float, float]]]:
    """Lot A, a mile square in Alaska Albers whose south side's middle is at (180 deg, 51.8 N)
    (so it crosses 180 degrees), and lot B, as large, to its ``beside`` ("east" or "west");
    their markers 1 m inside each side's middle and each corner (A's first)."""
    from pyproj import Transformer

    x0, y0 = Transformer.from_crs("EPSG:4326", ALASKA_ALBERS, always_xy=True).transform(180.0, 51.8)
    s = MILE_M
    a = shapely.box(x0 - s / 2, y0, x0 + s / 2, y0 + s)
    b = shapely.box(x0 + s / 2, y0, x0 + 3 * s / 2, y0 + s)
    if beside == "west":
        b = shapely.box(x0 - 3 * s / 2, y0, x0 - s / 2, y0 + s)
    pts = []
    for lot in (a, b):
        w, so, e, n = lot.bounds
        mx, my = (w + e) / 2, (so + n) / 2
        pts += [(mx, so + 1), (e - 1, my), (mx, n - 1), (w + 1, my)]  # the sides' middles
        pts += [(w + 1, so + 1), (e - 1, so + 1), (e - 1, n - 1), (w + 1, n - 1)]  # corners
    return [a, b], pts


@pytest.mark.parametrize("beside", ["east", "west"])
@pytest.mark.parametrize("marker_crs", [ALASKA_ALBERS, "EPSG:4326"])
def test_markers_of_a_lot_across_the_antimeridian_are_its_own_beside_a_lot_either_side(
    tmp_path, beside, marker_crs
):
    """Lot A across 180 degrees and lot B beside it: with B to the east (its centre west of
    180 degrees: two working frames, UTM zones 60 and 1) A's side markers at 180 degrees were
    lost ("no parcel boundary within 5,000 ft", though 1 m inside it), as its box in
    longitude was the rest of the globe; to the west (one frame) they never were. Markers
    given in Albers or in longitude/latitude alike.

    By hand, with a spacing limit of 2,700 ft and a sign at each corner: every marker is its
    lot's, 1 m (3.28 ft, and Alaska Albers' scale at 51.8 N: within 0.1 ft) from its line;
    A's longest gap is from a side's middle to the marker 1 m from its corner, half its
    longest side (the geodesic between its corners, pyproj.Geod) less 1 m: compliant. Before,
    A's gaps were whole sides (5,260 ft and more): noncompliant."""
    from helpers import profile_file
    from pyproj import Geod, Transformer

    lots, pts = aleutian_lots(beside)
    if marker_crs == "EPSG:4326":
        to_lonlat = Transformer.from_crs(ALASKA_ALBERS, "EPSG:4326", always_xy=True)
        pts = [to_lonlat.transform(x, y) for x, y in pts]
    profile = profile_file(
        tmp_path,
        '[spacing]\nmax_ft = 2700\nmetric = "along_boundary"\nclause = "T 1"\n\n'
        '[corners]\nmode = "at_corner"\nclause = "T 2"\n',
    )
    rep = check(
        parcels(*lots, ids=["A", "B"], crs=ALASKA_ALBERS),
        markers(pts, crs=marker_crs),
        profile,
        settings=Settings(elevation_ft=0),
    )
    m = rep.markers
    assert m["parcel_id"].tolist() == ["A"] * 8 + ["B"] * 8
    assert m["reason"].isna().all()
    assert np.abs(m["distance_ft"].to_numpy(float) - 1 / 0.3048).max() < 0.1
    back = Transformer.from_crs(ALASKA_ALBERS, "EPSG:4326", always_xy=True)
    lon, lat = back.transform(*np.asarray(lots[0].exterior.coords).T)
    assert lon.min() < -179.99 and lon.max() > 179.98  # (A lies on both sides of 180 deg)
    sides_ft = Geod(ellps="WGS84").inv(lon[:-1], lat[:-1], lon[1:], lat[1:])[2] / 0.3048
    p = rep.parcels.set_index("id")
    assert p.loc["A", "perimeter_ft"] == pytest.approx(sides_ft.sum(), abs=0.01)  # 21,120.4
    assert p.loc["A", "max_gap_ft"] == pytest.approx(sides_ft.max() / 2 - 1 / 0.3048, abs=0.05)
    assert p["status"].tolist() == ["compliant", "compliant"]
    assert len({*rep.parcels["working_crs"]}) == (2 if beside == "east" else 1)


def test_a_marker_far_east_of_a_lot_across_the_antimeridian_is_said_to_be_so():
    """Lot A across 180 degrees alone, and signs typed 2 degrees east (178.0 W) and west
    (178.0 E) of it: each stands the geodesic from it to A's box (from A's corners: west the
    least longitude east of 0, east the greatest west of 0) outside the parcels' extent, about
    86 miles at 51.8 N. Before, A's box was the rest of the globe, and said nothing."""
    from pyproj import Geod, Transformer

    lots, _ = aleutian_lots("east")
    a = lots[0]
    back = Transformer.from_crs(ALASKA_ALBERS, "EPSG:4326", always_xy=True)
    lon, lat = back.transform(*np.asarray(a.exterior.coords).T)
    west, east = lon[lon > 0].min(), lon[lon < 0].max()  # 179.980, -179.994
    south, north = lat.min(), lat.max()
    signs = [(-178.0, 51.81), (178.0, 51.81)]
    assert south < 51.81 < north
    r = check(parcels(a, ids=["A"], crs=ALASKA_ALBERS), markers(signs, crs="EPSG:4326"), "florida")
    geod = Geod(ellps="WGS84")
    miles = [
        geod.inv(east, 51.81, -178.0, 51.81)[2] / 0.3048 / 5280,
        geod.inv(west, 51.81, 178.0, 51.81)[2] / 0.3048 / 5280,
    ]
    assert 80 < min(miles) and max(miles) < 90
    assert r.markers["reason"].tolist() == [
        f"no parcel boundary within 5,000 ft; it stands {m:,.0f} miles outside the parcels' "
        "extent: a coordinate typed wrong?"
        for m in miles
    ]
