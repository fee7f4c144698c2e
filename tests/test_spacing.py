"""Spacing: gaps along the boundary, by hand, by an oracle, and as properties."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest
import shapely
from helpers import AT_SEA, CORNERS_AND_MIDPOINTS, LOCAL_FT, markers, parcels, square
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from posting import Settings, check
from posting.checks.spacing import measured_gap, ring_gaps


def parcel_json(report, i=0):
    return report.to_dict()["parcels"][i]


def test_square_with_signs_at_corners_and_midpoints_is_compliant():
    # 1,000 ft square: 8 signs, 8 gaps of exactly 500 ft ("not more than 500 feet apart").
    r = check(parcels(square()), markers(CORNERS_AND_MIDPOINTS), settings=AT_SEA)
    p = parcel_json(r)
    assert p["status"] == "compliant"
    assert p["signs"] == 8
    assert p["perimeter_ft"] == 4000.0
    assert p["area_acres"] == pytest.approx(1_000_000 / 43_560, rel=1e-4)
    assert p["max_gap_ft"] == 500.0
    assert p["corners"] == 4 and p["missing_corners"] == []
    assert sorted(r.gaps["length_ft"].round(6)) == [500.0] * 8
    assert r.exit_code == 0


def test_gap_of_520_fails_and_480_passes():
    # Bottom midpoint moved to x = 520: gaps 520 and 480 along the bottom side.
    pts = [p for p in CORNERS_AND_MIDPOINTS if p != (500, 0)] + [(520, 0)]
    p = parcel_json(check(parcels(square()), markers(pts), settings=AT_SEA))
    assert p["status"] == "noncompliant"
    assert p["max_gap_ft"] == 520.0
    [gap] = p["gaps"]
    assert gap["length_ft"] == 520.0 and gap["status"] == "over"
    [v] = p["violations"]
    assert v["rule"] == "spacing" and v["measured"] == 520.0 and v["limit"] == 500.0
    assert v["clause"] == "Fla. Stat. 810.011(5)(a)1"
    # One more sign at x = 40 splits the 520 ft gap into 40 + 480.
    p = parcel_json(check(parcels(square()), markers([*pts, (40, 0)]), settings=AT_SEA))
    assert p["status"] == "compliant"
    assert p["max_gap_ft"] == 500.0


def test_a_gap_just_over_the_limit_is_said_with_the_decimals_that_show_it():
    """A 500.04 ft gap fails "not more than 500 feet apart"; its violation read "longer than
    500.0 ft; the worst is 500.0 ft", which looks like a fail of a gap at the limit (found by
    the map's audit, whose popups show the message)."""
    pts = [p for p in CORNERS_AND_MIDPOINTS if p != (500, 0)] + [(500.04, 0)]
    p = parcel_json(check(parcels(square()), markers(pts)))
    [v] = p["violations"]
    assert (p["status"], v["rule"]) == ("noncompliant", "spacing")
    assert v["message"].endswith("longer than 500.0 ft along the boundary; the worst is 500.04 ft")
    # and the summary's worst parcels (it said "largest gap 500.0 ft", found by the CRS audit)
    r = check(parcels(square()), markers(pts))
    [line] = [x for x in r.summary_lines() if "largest gap" in x]
    assert line.endswith(": noncompliant, largest gap 500.04 ft")
    r = check(parcels(square()), markers(CORNERS_AND_MIDPOINTS[:-1]))  # one midpoint fewer
    [line] = [x for x in r.summary_lines() if "largest gap" in x]
    assert line.endswith(": noncompliant, largest gap 1,000.0 ft")


def test_wrap_around_gap_runs_from_the_last_marker_to_the_first():
    ring_start_at_origin = shapely.Polygon([(0, 0), (1000, 0), (1000, 1000), (0, 1000)])
    r = check(parcels(ring_start_at_origin), markers([(100, 0), (300, 0)]))
    lengths = sorted(r.gaps["length_ft"].round(6))
    assert lengths == [200.0, 3800.0]  # 300 -> round the square -> 100
    wrap = r.gaps.loc[r.gaps["length_ft"].idxmax()]
    assert r.markers.loc[wrap["start_marker"], ["lon", "lat"]].tolist() == pytest.approx(
        r.markers.loc[1, ["lon", "lat"]].tolist()
    )
    assert wrap["end_marker"] == 0


def test_one_marker_leaves_one_gap_of_the_whole_ring():
    r = check(parcels(square()), markers([(0, 0)]))
    p = parcel_json(r)
    assert p["max_gap_ft"] == 4000.0
    assert len(r.gaps) == 1 and r.gaps["straight_ft"].isna().all()


def test_hole_is_a_boundary_to_post():
    hole = [(400, 400), (600, 400), (600, 600), (400, 600)]
    poly = shapely.Polygon(square().exterior.coords, [hole])
    p = parcel_json(check(parcels(poly), markers(CORNERS_AND_MIDPOINTS), settings=AT_SEA))
    assert p["status"] == "noncompliant"
    assert p["rings"] == 2 and p["corners"] == 8
    assert p["max_gap_ft"] == 800.0  # the unmarked hole, whole
    rules = {v["rule"] for v in p["violations"]}
    assert rules == {"spacing", "corners"}
    assert any("800.0 ft of boundary unmarked" in v["message"] for v in p["violations"])
    p = parcel_json(check(parcels(poly), markers(CORNERS_AND_MIDPOINTS + hole), settings=AT_SEA))
    assert p["status"] == "compliant"
    assert p["signs"] == 12


def test_multipolygon_needs_markers_on_every_part():
    mp = shapely.MultiPolygon([square(), square(x0=3000)])
    p = parcel_json(check(parcels(mp), markers(CORNERS_AND_MIDPOINTS), settings=AT_SEA))
    assert p["status"] == "noncompliant" and p["rings"] == 2
    assert p["perimeter_ft"] == 8000.0
    second = [(x + 3000, y) for x, y in CORNERS_AND_MIDPOINTS]
    p = parcel_json(check(parcels(mp), markers(CORNERS_AND_MIDPOINTS + second), settings=AT_SEA))
    assert p["status"] == "compliant" and p["signs"] == 16


def _circle(radius=400.0, segments=256):
    t = np.linspace(0, 2 * np.pi, segments, endpoint=False)
    return shapely.Polygon(np.column_stack([radius * np.cos(t), radius * np.sin(t)]))


@pytest.mark.parametrize("n_signs", [5, 6])
def test_curved_boundary_gaps_follow_the_curve(n_signs):
    # A 256-gon of radius 400: perimeter 2 * 256 * 400 * sin(pi / 256). The signs stand on the
    # circle, up to 0.01 ft off the 256-gon, hence the 1e-6 tolerance.
    perimeter = 2 * 256 * 400 * math.sin(math.pi / 256)
    angles = np.arange(n_signs) * 2 * np.pi / n_signs
    pts = np.column_stack([400 * np.cos(angles), 400 * np.sin(angles)])
    r = check(parcels(_circle()), markers(pts))
    p = parcel_json(r)
    along = perimeter / n_signs
    chord = 2 * 400 * math.sin(math.pi / n_signs)
    assert r.gaps["length_ft"].to_numpy() == pytest.approx([along] * n_signs, rel=1e-6)
    assert r.gaps["straight_ft"].to_numpy() == pytest.approx([chord] * n_signs, rel=1e-6)
    assert p["corners"] == 0  # a curve made of many small bends has no corner
    # 5 signs: 502.6 ft along the curve (over), 470.2 ft in a straight line.
    assert p["status"] == ("noncompliant" if along > 500 else "compliant")


def test_straight_line_metric_passes_the_chord(tmp_path):
    from posting.rules import load_rules

    body = (
        Path(load_rules("florida").path)
        .read_text()
        .replace('metric = "along_boundary"', 'metric = "straight"')
    )
    body = body.replace('name = "florida"', 'name = "florida-straight"')
    path = tmp_path / "straight.toml"
    path.write_text(body)
    angles = np.arange(5) * 2 * np.pi / 5
    pts = np.column_stack([400 * np.cos(angles), 400 * np.sin(angles)])
    p = parcel_json(check(parcels(_circle()), markers(pts), str(path)))
    assert p["status"] == "compliant"


def test_accuracy_makes_borderline_gaps_uncertain():
    pts = [p for p in CORNERS_AND_MIDPOINTS if p != (500, 0)] + [(505, 0)]  # gaps 505, 495
    status = {
        acc: parcel_json(
            check(parcels(square()), markers(pts), settings=Settings(accuracy_ft=acc))
        )["status"]
        for acc in (0.0, 2.0, 4.0, 10.0)
    }
    # A gap runs between two signs, each of which may be off by the accuracy: 505 ft between
    # signs good to 2 ft is at least 501 ft (fails); between signs good to 4 ft it may be 497
    # ft on the ground (505 - 2 x 4), so it could go either way.
    assert status == {0.0: "noncompliant", 2.0: "noncompliant", 4.0: "uncertain", 10.0: "uncertain"}
    # Gaps of 495 ft (a 990 ft square's corners and midpoints) are sure to pass with 2 ft of
    # accuracy (at most 499 ft), not with 4 ft (up to 503 ft: 495 + 2 x 4).
    side = 990.0
    half = [(x * side / 1000, y * side / 1000) for x, y in CORNERS_AND_MIDPOINTS]
    status = {
        acc: parcel_json(
            check(parcels(square(side)), markers(half), settings=Settings(accuracy_ft=acc))
        )["status"]
        for acc in (2.0, 4.0)
    }
    assert status == {2.0: "compliant", 4.0: "uncertain"}
    # Signs every 250 ft: sure to pass with 4 ft of accuracy (250 <= 500 - 2 x 4), while the
    # 500 ft gaps of the first layout are not sure with it.
    every_250 = [(x, 0) for x in (0, 250, 500, 750)] + [(1000, y) for y in (0, 250, 500, 750)]
    every_250 += [(x, 1000) for x in (1000, 750, 500, 250)] + [
        (0, y) for y in (1000, 750, 500, 250)
    ]
    four = Settings(accuracy_ft=4.0)
    assert parcel_json(check(parcels(square()), markers(every_250), settings=four))["status"] == (
        "compliant"
    )
    p = parcel_json(check(parcels(square()), markers(CORNERS_AND_MIDPOINTS), settings=four))
    assert p["status"] == "uncertain"
    [u] = p["uncertain"]
    assert u["rule"] == "spacing" and u["count"] == 8 and u["measured"] == 500.0


def test_a_ring_with_one_marker_is_its_length_however_the_marker_is_off():
    # A pond inside a lot (a hole), 504.99 ft round (a 256-gon of radius 505 / 2 pi), one sign
    # on its shore: its one gap is the ring's 504.99 ft wherever the sign stands, which no
    # survey accuracy changes: over the 500 ft limit, with 10 ft of accuracy as with none
    # (the lot's own sides are posted every 250 ft, sure to pass with it: 250 + 2 x 10).
    radius = 505 / (2 * math.pi)
    pond = shapely.Point(500, 500).buffer(radius, quad_segs=64)
    lot = shapely.Polygon(square().exterior.coords, [pond.exterior.coords])
    shore = 2 * 256 * radius * math.sin(math.pi / 256)
    every_250 = [(x, y) for y in (0, 1000) for x in (0, 250, 500, 750, 1000)]
    every_250 += [(x, y) for x in (0, 1000) for y in (250, 500, 750)]
    signs = markers([*every_250, (500 + radius + 2, 500)])
    for acc in (0.0, 10.0):
        p = parcel_json(check(parcels(lot), signs, settings=Settings(accuracy_ft=acc)))
        assert p["status"] == "noncompliant", acc
        [v] = p["violations"]
        assert v["rule"] == "spacing" and v["measured"] == pytest.approx(shore, abs=0.01)


def corner_signs(setback: float, lean: float = 0.0) -> list[tuple[float, float]]:
    """A sign inside each corner of the 1,000 ft square, ``setback`` ft from one side and
    ``setback + lean`` from the other."""
    k, j = setback, setback + lean
    return [(k, j), (1000 - j, k), (1000 - k, 1000 - j), (j, 1000 - k)]


MIDPOINTS = [(500, 0), (1000, 500), (500, 1000), (0, 500)]


def test_a_corner_sign_set_back_on_the_bisector_posts_both_sides():
    """Corner signs 3 ft inside on the bisector, the others 500 ft from the corners: each sign
    stands 497 ft along the line from its neighbours on either side (500 - 3 by hand). Its
    foot on one side alone made the gap on the other side 503 ft: noncompliant, a false fail
    (the land audit's)."""
    r = check(parcels(square()), markers(MIDPOINTS + corner_signs(3.0)))
    p = parcel_json(r)
    assert p["status"] == "compliant" and p["max_gap_ft"] == 497.0
    assert sorted(r.gaps["length_ft"].round(9)) == [497.0] * 8
    # the gaps drawn run from foot to foot: each starts 3 ft past a corner or ends 3 ft short
    assert sorted(np.mod(r.gaps["start_ft"], 500.0).round(9)) == [0.0] * 4 + [3.0] * 4


def test_a_corner_sign_nearer_one_side_stands_at_its_nearest_foot():
    """3 ft from one side and 3.5 ft from the other, a sign's place on the boundary is its foot
    on the nearer side: the gap on the other side runs round the corner to it, 500 + 3.5 ft.
    With an accuracy of 0.5 ft either foot may be the nearer (they differ by 0.5, within
    twice it): uncertain, as the gap is 496.5 ft from the one and 503.5 from the other; with
    0.2 ft it is not (noncompliant)."""
    signs = markers(MIDPOINTS + corner_signs(3.0, lean=0.5))
    p = parcel_json(check(parcels(square()), signs))
    assert p["status"] == "noncompliant" and p["max_gap_ft"] == 503.5
    [v] = p["violations"]
    assert v["measured"] == 503.5 and v["count"] == 4
    p = parcel_json(check(parcels(square()), signs, settings=Settings(accuracy_ft=0.5)))
    assert p["status"] == "uncertain" and p["violations"] == []
    p = parcel_json(check(parcels(square()), signs, settings=Settings(accuracy_ft=0.2)))
    assert p["status"] == "noncompliant"


def test_a_sign_past_the_corner_on_the_line_is_not_at_the_corner():
    """A sign on the bottom line 15 ft past the corner: its foot on the other side would be
    the corner itself, not beside it; 0.5 ft inside the line, its foot on the other side is
    15 ft away, not as near as the 0.5 ft to its own. Either way that gap runs round the
    corner to where it stands, 515 ft (499.5 ft to the foot 0.5 ft up the other side)."""
    for lift in (0.0, 0.5):
        pts = [*MIDPOINTS, (15, lift), (1000, 0), (1000, 1000), (0, 1000)]
        p = parcel_json(check(parcels(square()), markers(pts)))
        assert p["status"] == "noncompliant" and p["max_gap_ft"] == 515.0


@settings(max_examples=60, deadline=None)
@given(
    corners=st.integers(3, 7),
    turn=st.floats(0.0, 1.0),
    setback=st.floats(0.5, 12.0),
    radius=st.floats(800.0, 3000.0),
    x0=st.floats(-2000.0, 2000.0),
)
def test_bisector_signs_stand_the_half_side_less_setback_times_cot_from_the_midpoints(
    corners, turn, setback, radius, x0
):
    """A convex lot with a sign on each side's midpoint and one on the bisector of each corner,
    ``setback`` ft from both sides: each gap is half the side less ``setback / tan(a / 2)``,
    ``a`` the corner's inner angle (where a point on the bisector ``setback`` from a side
    has its foot): the closed form against the check's gaps. (Near the working CRS's
    meridian: farther out, its scale makes grid and ground lengths differ.)"""
    ang = np.sort(np.mod(turn * 2 * np.pi + np.arange(corners) * 2 * np.pi / corners, 2 * np.pi))
    ang += np.linspace(0.0, 0.3, corners) * (2 * np.pi / corners)  # uneven sides and angles
    xy = np.c_[x0 + radius * np.cos(ang), radius * np.sin(ang)]
    lot = shapely.Polygon(xy)
    assert lot.is_valid and lot.exterior.is_ccw
    prev, nxt = np.roll(xy, 1, axis=0), np.roll(xy, -1, axis=0)
    u = (prev - xy) / np.hypot(*(prev - xy).T)[:, None]
    w = (nxt - xy) / np.hypot(*(nxt - xy).T)[:, None]
    inner = np.arccos(np.clip((u * w).sum(1), -1, 1))  # each corner's inner angle
    # a sign on a sharp corner's bisector may stand beyond the corner tolerance (30 ft), and is
    # then no corner's sign (12 ft from both sides of a 42 degree corner: 33.5 ft from it)
    assume((setback / np.sin(inner / 2) < 29.0).all())
    bis = (u + w) / np.hypot(*(u + w).T)[:, None]
    at = xy + bis * (setback / np.sin(inner / 2))[:, None]
    mids = (xy + nxt) / 2
    r = check(parcels(lot), markers(np.r_[at, mids]))
    if len(r.corners) != corners:  # a corner under the corner angle (30 degrees) is none
        return
    side = np.hypot(*(nxt - xy).T)
    foot = setback / np.tan(inner / 2)
    expected = np.sort(np.r_[side / 2 - foot, side / 2 - np.roll(foot, -1)])
    assert np.sort(r.gaps["length_ft"].to_numpy()) == pytest.approx(expected, abs=1e-6)


# -- ring_gaps: oracle and properties ------------------------------------------------------


def slow_gaps(rings, positions, lengths):
    """The obvious method: per ring, sort its markers and walk round."""
    out = []
    for r, length in enumerate(lengths):
        s = sorted(p for q, p in zip(rings, positions, strict=True) if q == r)
        if not s:
            out.append((r, length))
            continue
        out += [(r, b - a) for a, b in itertools.pairwise(s)]
        out.append((r, length - s[-1] + s[0]))
    return sorted(out)


@settings(max_examples=200, deadline=None)
@given(
    lengths=st.lists(st.floats(1.0, 5000.0), min_size=1, max_size=5),
    data=st.data(),
)
def test_ring_gaps_matches_the_obvious_method(lengths, data):
    n = data.draw(st.integers(0, 30))
    rings = data.draw(st.lists(st.integers(0, len(lengths) - 1), min_size=n, max_size=n))
    positions = [data.draw(st.floats(0.0, lengths[r])) for r in rings]
    g = ring_gaps(np.array(rings, dtype=np.int64), np.array(positions), np.array(lengths))
    fast = sorted(zip(g.ring.tolist(), g.length_ft.tolist(), strict=True))
    slow = slow_gaps(rings, positions, lengths)
    assert [r for r, _ in fast] == [r for r, _ in slow]
    assert [x for _, x in fast] == pytest.approx([x for _, x in slow], abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(
    before=st.lists(st.floats(1.0, 1e7), max_size=3),
    length=st.floats(10.0, 5000.0),
    at=st.floats(0.0, 1.0, exclude_max=True),
    ulps=st.lists(st.integers(-3, 3), min_size=2, max_size=5),
)
@example(before=[10_000.0], length=1_000.0, at=0.3, ulps=[0, -2])
def test_a_ring_s_gaps_do_not_depend_on_the_rings_before_it(before, length, at, ulps):
    """Markers a few units of the last place apart on one ring, with rings before it or not (a
    partition of the parcels has fewer): the same gaps, from and to the same markers, in the
    same order. Ordered on a float key of the rings laid end to end, two markers a hair apart
    came in either order (the fuzz campaign's partitioned oracle: a gap named the other of
    two signs at one corner)."""
    pos = at * length
    positions = np.array([pos + k * math.ulp(pos) for k in ulps]).clip(0.0, length)
    alone = ring_gaps(np.zeros(len(ulps), np.int64), positions, np.array([length]))
    lengths = np.array([*before, length])
    g = ring_gaps(np.full(len(ulps), len(before), np.int64), positions, lengths)
    mine = g.ring == len(before)
    assert g.start_marker[mine].tolist() == alone.start_marker.tolist()
    assert g.end_marker[mine].tolist() == alone.end_marker.tolist()
    assert g.length_ft[mine].tolist() == alone.length_ft.tolist()


@settings(max_examples=200, deadline=None)
@given(
    length=st.floats(10.0, 10000.0),
    fractions=st.lists(st.floats(0.0, 1.0, exclude_max=True), min_size=1, max_size=40),
    new=st.floats(0.0, 1.0, exclude_max=True),
)
@example(length=1000.0, fractions=[0.5], new=0.5)
def test_gaps_sum_to_the_ring_and_a_new_marker_never_lengthens_one(length, fractions, new):
    pos = np.array(fractions) * length
    ring = np.zeros(len(pos), dtype=np.int64)
    g = ring_gaps(ring, pos, np.array([length]))
    assert g.length_ft.sum() == pytest.approx(length, rel=1e-12)
    assert (g.length_ft >= 0).all()
    h = ring_gaps(np.r_[ring, 0], np.r_[pos, new * length], np.array([length]))
    assert h.length_ft.max() <= g.length_ft.max() + 1e-9
    assert len(h) == len(g) + 1


@settings(max_examples=100, deadline=None)
@given(
    fractions=st.lists(st.floats(0.0, 1.0, exclude_max=True), min_size=1, max_size=20),
    shift=st.floats(0.0, 1.0, exclude_max=True),
)
def test_gaps_do_not_depend_on_where_the_ring_starts(fractions, shift):
    length = 1234.5
    pos = np.array(fractions) * length
    a = ring_gaps(np.zeros(len(pos), np.int64), pos, np.array([length]))
    b = ring_gaps(np.zeros(len(pos), np.int64), (pos + shift * length) % length, np.array([length]))
    assert sorted(a.length_ft) == pytest.approx(sorted(b.length_ft), abs=1e-6)


def test_measured_gap_metrics():
    along, straight = np.array([520.0, 600.0]), np.array([480.0, np.nan])
    assert measured_gap(along, straight, "along_boundary").tolist() == [520.0, 600.0]
    assert measured_gap(along, straight, "straight").tolist() == [480.0, 600.0]
    assert measured_gap(along, straight, "either").tolist() == [480.0, 600.0]
    with pytest.raises(ValueError, match="metric"):
        measured_gap(along, straight, "crow")


@settings(max_examples=20, deadline=None)
@given(
    angle=st.floats(0.0, 360.0),
    dx=st.floats(-5e4, 5e4),
    dy=st.floats(-5e4, 5e4),
    drop=st.sets(st.integers(0, 7), max_size=4),
)
def test_check_is_invariant_under_rotation_and_translation(angle, dx, dy, drop):
    pts = [p for i, p in enumerate(CORNERS_AND_MIDPOINTS) if i not in drop]
    base = check(parcels(square()), markers(pts))
    a = np.radians(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    poly = shapely.transform(square(), lambda xy: xy @ rot.T + [dx, dy])
    moved = np.asarray(pts, dtype=float).reshape(-1, 2) @ rot.T + [dx, dy]
    other = check(parcels(poly, crs=LOCAL_FT), markers(moved))
    b, o = parcel_json(base), parcel_json(other)
    for key in ("status", "signs", "corners"):
        assert b[key] == o[key]
    assert len(b["missing_corners"]) == len(o["missing_corners"])
    for key in ("max_gap_ft", "perimeter_ft"):
        if b[key] is None:
            assert o[key] is None
        else:
            assert o[key] == pytest.approx(b[key], abs=0.02)


def _moved_midpoint(x: float):
    """The 1,000 ft square with its bottom sign moved from 500 ft to ``x``: one gap of ``x``
    ft (and one of 1,000 - ``x``), exact in the local frame (transverse Mercator, scale 1), the
    land at sea level (no elevation band)."""
    pts = [p for p in CORNERS_AND_MIDPOINTS if p != (500, 0)] + [(x, 0)]
    return check(parcels(square()), markers(pts), settings=AT_SEA)


def test_a_gap_that_fails_by_four_thousandths_is_never_shown_at_the_limit():
    """A 500.004 ft gap fails "not more than 500 feet" (the slack is 0.001 + 2.5e-6 * 500 =
    0.00225 ft), but rounded to two decimals it read 500.0 in the JSON, GeoJSON and CSV:
    "noncompliant, longer than 500.0 ft, 500.0 ft". It is shown 500.01 (the limit and one
    unit of the last decimal) wherever it stands beside its verdict; the messages and the
    summary give it with the decimals that show it (500.004 ft)."""
    import csv
    import io
    import json

    r = _moved_midpoint(500.004)
    assert r.gaps["measured_ft"].max() == pytest.approx(500.004, abs=1e-9)
    p = parcel_json(r)
    assert p["status"] == "noncompliant"
    assert p["max_gap_ft"] == 500.01
    [gap] = p["gaps"]
    assert (gap["status"], gap["length_ft"], gap["straight_ft"], gap["limit_ft"]) == (
        "over",
        500.01,
        500.01,
        500.0,
    )
    [v] = p["violations"]
    assert (v["measured"], v["limit"]) == (500.01, 500.0)
    assert v["message"].endswith("longer than 500.0 ft along the boundary; the worst is 500.004 ft")
    # the CSV
    [row] = list(csv.DictReader(io.StringIO(r.to_csv())))
    assert (row["status"], row["max_gap_ft"], row["gaps_over_limit"]) == (
        "noncompliant",
        "500.01",
        "1",
    )
    # the GeoJSON: the parcel's properties and the gap's feature
    features = json.loads(r.to_geojson())["features"]
    [parcel] = [f["properties"] for f in features if f["properties"]["layer"] == "parcel"]
    assert parcel["max_gap_ft"] == 500.01 and parcel["violations"][0]["measured"] == 500.01
    [line] = [f["properties"] for f in features if f["properties"]["layer"] == "gap"]
    assert (line["status"], line["length_ft"], line["straight_ft"]) == ("over", 500.01, 500.01)
    # the summary on stderr
    [worst] = [x for x in r.summary_lines() if "largest gap" in x]
    assert worst.endswith(": noncompliant, largest gap 500.004 ft")
    # the other gap (499.996 ft) passes and is not reported; the parcel's other figures stand
    assert p["perimeter_ft"] == 4000.0 and p["signs"] == 8


def test_a_gap_that_passes_within_the_slack_is_shown_at_the_limit_not_over_it():
    """500.002 ft is within the slack of 500 ft: compliant, and shown 500.0 (never 500.01)."""
    import json

    r = _moved_midpoint(500.002)
    p = parcel_json(r)
    assert (p["status"], p["max_gap_ft"], p["gaps"], p["violations"]) == (
        "compliant",
        500.0,
        [],
        [],
    )
    assert "500.01" not in r.to_json() and "500.01" not in r.to_csv()
    [parcel] = [
        f["properties"]
        for f in json.loads(r.to_geojson())["features"]
        if f["properties"]["layer"] == "parcel"
    ]
    assert parcel["max_gap_ft"] == 500.0


def test_a_passing_largest_gap_on_a_failing_parcel_is_said_at_its_limit_in_the_summary():
    """A parcel noncompliant for a missing corner (the south-west sign moved 40 ft up the west
    side) whose largest gap passes within the slack (500.002 ft): the summary said "largest gap
    500.002 ft", over the limit it passes; it says 500.0 ft."""
    pts = [p for p in CORNERS_AND_MIDPOINTS if p not in ((500, 0), (0, 0))]
    # gaps: 40 + 460 = 500 round the corner, 500.002 and 39.998 along the bottom, 460 up the
    # west side to the moved sign
    pts += [(0, 40), (460, 0), (960.002, 0)]
    r = check(parcels(square()), markers(pts), settings=AT_SEA)
    p = parcel_json(r)
    assert p["status"] == "noncompliant" and [v["rule"] for v in p["violations"]] == ["corners"]
    assert p["max_gap_ft"] == 500.0
    [worst] = [x for x in r.summary_lines() if "largest gap" in x]
    assert worst.endswith(": noncompliant, largest gap 500.0 ft")
