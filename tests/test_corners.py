"""posting.checks.corners: the markers beside a place along its ring, against a slow oracle."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from posting import Settings
from posting.checks.corners import ring_neighbours

LENGTHS = np.array([400.0, 90.0, 1000.0])


def oracle(point_ring, point_pos, marker_ring, marker_pos, length):
    """One point at a time: the last marker at or before it (wrapping), the first beyond it."""
    out = []
    for r, p in zip(point_ring, point_pos, strict=True):
        on = [i for i in range(len(marker_ring)) if marker_ring[i] == r]
        if not on:
            out.append((-1, -1, np.inf, np.inf))
            continue
        L = length[r]
        # among equal positions, the later marker in the input counts as the later one
        upto = [i for i in on if marker_pos[i] <= p] or on
        b = max(upto, key=lambda i: (marker_pos[i], i))
        beyond = [i for i in on if marker_pos[i] > p] or on
        a = min(beyond, key=lambda i: (marker_pos[i], i))
        bft = (p - marker_pos[b]) % L
        aft = (marker_pos[a] - p) % L
        if a == b and aft == 0:
            aft = L
        out.append((b, a, bft, aft))
    return out


positions = st.sampled_from([0.0, 10.0, 45.0, 89.5, 200.0, 399.0, 650.0])


@settings(max_examples=300, deadline=None)
@given(
    markers=st.lists(st.tuples(st.integers(0, 2), positions), max_size=12),
    points=st.lists(st.tuples(st.integers(0, 2), positions), min_size=1, max_size=8),
)
def test_ring_neighbours_matches_the_one_by_one_oracle(markers, points):
    markers = [(r, min(p, LENGTHS[r] - 0.5)) for r, p in markers]  # on the ring
    points = [(r, min(p, LENGTHS[r] - 0.5)) for r, p in points]
    mr = np.array([r for r, _ in markers], dtype=np.int64)
    mp = np.array([p for _, p in markers], dtype=float)
    pr = np.array([r for r, _ in points], dtype=np.int64)
    pp = np.array([p for _, p in points], dtype=float)
    b, a, bft, aft = ring_neighbours(pr, pp, mr, mp, LENGTHS)
    got = list(zip(b.tolist(), a.tolist(), bft.tolist(), aft.tolist(), strict=True))
    assert got == oracle(pr, pp, mr, mp, LENGTHS)


def test_a_neighbour_along_the_ring_within_the_accuracy_band_does_not_hide_a_nearer_marker():
    """The corner at (0, 0): a sign 20 ft along the exterior (uncertain with a 16 ft accuracy:
    between 30 - 16 and 30 + 16 ft) and one 7.8 ft away that stands by a hole's edge, so that
    the assignment gives it to the hole's ring. The nearer one serves: the corner is ok, in
    whichever order the rows come."""
    from helpers import markers, parcels

    from posting import Settings, check

    lot = shapely.Polygon(
        [(0, 0), (1000, 0), (1000, 1000), (0, 1000)], [[(6, 6), (6, 10), (10, 10), (10, 6)]]
    )
    signs = [(20.0, 0.5), (5.5, 5.5)]
    for order in (signs, signs[::-1]):
        r = check(parcels(lot), markers(order), settings=Settings(accuracy_ft=16.0))
        c = r.corners
        at_origin = c[(c["x_ft"].abs() < 1e-6) & (c["y_ft"].abs() < 1e-6)]
        assert at_origin["status"].tolist() == ["ok"]
        assert at_origin["nearest_ft"].iloc[0] == pytest.approx(np.hypot(5.5, 5.5))


def test_ring_neighbours_do_not_depend_on_the_rings_before():
    """A marker a hair past a corner is after it, however long the rings before its ring are
    (a float key adding up the ring lengths used to round the two together)."""
    past = np.nextafter(100.1, np.inf)
    for before_ft in (10.0, 1e10):
        b, a, bd, ad = ring_neighbours(
            np.array([1]),
            np.array([100.1]),
            np.array([1, 1]),
            np.array([past, 350.0]),
            np.array([before_ft, 400.0]),
        )
        assert (b.tolist(), a.tolist()) == ([1], [0])
        assert bd[0] == pytest.approx(150.1) and ad[0] == pytest.approx(0.0, abs=1e-9)


def _along_rings_slowly(ring, pos):
    """By ring, then position (a position unknown last), then index: one marker at a time."""
    key = [
        (r, np.isnan(p), 0.0 if np.isnan(p) else p, i)
        for i, (r, p) in enumerate(zip(ring, pos, strict=True))
    ]
    return [k[3] for k in sorted(key)]


@settings(max_examples=300, deadline=None)
@given(
    rings=st.lists(st.integers(0, 3), min_size=0, max_size=30),
    data=st.data(),
    before_ft=st.sampled_from([1.0, 1e10]),
    layout=st.sampled_from(["as drawn", "ring by ring", "ring by ring, backwards"]),
)
def test_along_rings_matches_sorting_one_by_one(rings, data, before_ft, layout):
    """Markers in any order, in ring order along the rings either way (turned to start
    anywhere), with ties, unknown positions, and positions a hair apart behind a ring so long
    that the float key rounds them together: the order by ring, position and index."""
    from posting.checks.corners import along_rings

    hair = np.nextafter(100.0, np.inf)
    pos = data.draw(
        st.lists(
            st.sampled_from([0.0, 5.0, 5.0, 100.0, hair, 100.0, hair, 250.0, 399.0, np.nan]),
            min_size=len(rings),
            max_size=len(rings),
        )
    )
    ring, p = np.array(rings, dtype=np.int64), np.array(pos, dtype=float)
    if layout != "as drawn" and len(ring):
        by = np.lexsort((p, ring))
        if layout.endswith("backwards"):
            by = by[::-1][np.argsort(ring[by[::-1]], kind="stable")]
        turn = data.draw(st.integers(0, len(ring) - 1))
        by = np.roll(by, turn)
        by = by[np.argsort(ring[by], kind="stable")]
        ring, p = ring[by], p[by]
    length = np.array([before_ft, 400.0, 400.0, 400.0])
    got = along_rings(ring, p, length).tolist()
    assert got == _along_rings_slowly(ring.tolist(), p.tolist())


@settings(max_examples=200, deadline=None)
@given(
    markers=st.lists(st.tuples(st.integers(0, 2), positions), max_size=12),
    points=st.lists(st.tuples(st.integers(0, 2), positions), min_size=1, max_size=8),
    before_ft=st.sampled_from([1e10, 1e15]),
)
def test_ring_neighbours_behind_a_very_long_ring_match_the_oracle(markers, points, before_ft):
    """The first ring so long that the float key of the later rings rounds positions together:
    the search on it is checked and mended exactly."""
    lengths = np.array([before_ft, 400.0, 1000.0])
    shift = [(r, p if r else p * 1e5) for r, p in markers]
    markers = [(r, min(p, lengths[r] - 0.5)) for r, p in shift]
    points = [(r, min(p if r else p * 1e5, lengths[r] - 0.5)) for r, p in points]
    mr = np.array([r for r, _ in markers], dtype=np.int64)
    mp = np.array([p for _, p in markers], dtype=float) + np.where(mr == 1, 1e-13, 0.0)
    pr = np.array([r for r, _ in points], dtype=np.int64)
    pp = np.array([p for _, p in points], dtype=float)
    b, a, bft, aft = ring_neighbours(pr, pp, mr, mp, lengths)
    got = list(zip(b.tolist(), a.tolist(), bft.tolist(), aft.tolist(), strict=True))
    assert got == oracle(pr, pp, mr, mp, lengths)


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_markers=st.integers(0, 60),
    n_places=st.integers(0, 30),
    reach=st.sampled_from([0.0, 0.5, 3.0, 30.0]),
)
def test_nearest_of_parcel_matches_every_pair(seed, n_markers, n_places, reach):
    """The nearest marker of a place's own parcel within the reach, against every pair (and
    the box test of posting.index.points_near, edges included): markers on a coarse grid (so
    that distances tie and land on the reach exactly), some without a position, parcels
    without markers, a place far from its parcel's markers."""
    from posting.kinds.points import nearest_of_parcel

    rng = np.random.default_rng(seed)
    n_parcels = 5
    x = rng.integers(-20, 20, n_markers) * 1.5
    y = rng.integers(-20, 20, n_markers) * 1.5
    x[rng.random(n_markers) < 0.1] = np.nan
    parcel = rng.integers(0, n_parcels - 1, n_markers)  # the last parcel has none
    qx = rng.integers(-25, 25, n_places) * 1.5
    qy = rng.integers(-25, 25, n_places) * 1.5
    qy[rng.random(n_places) < 0.1] = np.nan
    qx[: min(n_places, 1)] = 1e6  # far from everything
    qparcel = rng.integers(0, n_parcels, n_places)
    got = nearest_of_parcel(x, y, parcel, qx, qy, qparcel, reach, n_parcels)
    want = []
    for px, py, pp in zip(qx, qy, qparcel, strict=True):
        best = np.inf
        for ox, oy, op in zip(x, y, parcel, strict=True):
            box = ox - reach <= px <= ox + reach and oy - reach <= py <= oy + reach
            d = np.hypot(ox - px, oy - py)
            if op == pp and box and d <= reach:
                best = min(best, d)
        want.append(best)
    assert got.tolist() == want


def test_along_rings_mends_positions_the_key_rounds_together():
    """Behind a ring of 1e10 ft, 100 ft and a hair past it have one float key: the stable sort
    keeps them as given (the hair first), and the check puts them right."""
    from posting.checks.corners import along_rings

    hair = np.nextafter(100.0, np.inf)
    ring, pos = np.array([1, 1, 0]), np.array([hair, 100.0, 5.0])
    assert 1e10 + 1 + 100.0 == 1e10 + 1 + hair  # the key rounds them together
    assert along_rings(ring, pos, np.array([1e10, 400.0])).tolist() == [2, 1, 0]
    # a position unknown goes last on its ring, whatever the key says
    pos[2] = np.nan
    assert along_rings(ring, pos, np.array([1e10, 400.0])).tolist() == [2, 1, 0]
    assert along_rings(np.array([0, 0, 1]), np.array([np.nan, 3.0, 1.0]), np.ones(2)).tolist() == [
        1,
        0,
        2,
    ]


# -- one marker serves one corner ----------------------------------------------------------


def test_one_sign_cannot_stand_at_two_corners():
    """A flag lot: a 25 ft pole from the road, 200 ft long, to a 300 by 300 ft body. One sign
    in the middle of the road frontage is 12.5 ft from both road corners: one of them has a
    sign (Florida: "at each corner"), the other has none of its own. It was compliant."""
    from helpers import flag_lot, markers, parcels

    from posting import check

    lot, signs = flag_lot()
    rest = signs[1:]
    r = check(parcels(lot), markers(signs))
    p = r.to_dict()["parcels"][0]
    assert p["status"] == "noncompliant"
    assert len(p["missing_corners"]) == 1
    [v] = p["violations"]
    assert v["message"] == (
        "1 of 6 corners has no marker of its own within 30.0 ft (it shares a marker with"
        " another corner: one marker serves one corner)"
    )
    assert v["measured"] is None  # its distance (12.5 ft) says nothing of it
    # the corners table says which corner is left without, and why: the nearest marker, 12.5
    # ft away, serves the other road corner
    c = r.corners
    left = c[c["marker_shared"]]
    assert left["status"].tolist() == ["missing"]
    assert left["nearest_ft"].tolist() == [12.5]
    assert (left["y_ft"].to_numpy() == 0).all() and left["x_ft"].isin([0.0, 25.0]).all()
    assert (c.loc[~c["marker_shared"], "status"] == "ok").all()
    both = check(parcels(lot), markers([(0, 0), (25, 0), *rest])).to_dict()["parcels"][0]
    assert both["status"] == "compliant"
    # a second sign 28 ft up the pole's east side: within 30 ft of the east road corner but
    # not within 25 ft (30 less the survey's 5 ft): which corner lacks a sign of its own is
    # uncertain; with a survey good to the foot it is not
    up = markers([(12.5, 0), (25, 28), *rest])
    p = check(parcels(lot), up, settings=Settings(accuracy_ft=5)).to_dict()["parcels"][0]
    assert p["status"] == "uncertain"
    assert len(p["uncertain_corners"]) == 1 and p["missing_corners"] == []
    r = check(parcels(lot), up, settings=Settings(accuracy_ft=5))
    assert r.corners.loc[r.corners["marker_shared"], "status"].tolist() == ["uncertain"]
    r = check(parcels(lot), up)
    assert r.to_dict()["parcels"][0]["status"] == "compliant"
    assert not r.corners["marker_shared"].any()
    # the corners of another corner rule, or none, share nothing
    for rules in ("new-york", "texas"):
        assert not check(parcels(lot), markers(signs), rules).corners["marker_shared"].any()


def max_matching(edges: list[tuple[int, int]], places: list[int]) -> int:
    """The slow obvious maximum matching: every way of giving each place one marker or none."""
    mine = {i: sorted({j for a, j in edges if a == i}) for i in places}

    def best(k: int, used: frozenset) -> int:
        if k == len(places):
            return 0
        top = best(k + 1, used)
        for j in mine[places[k]]:
            if j not in used:
                top = max(top, 1 + best(k + 1, used | {j}))
        return top

    return best(0, frozenset())


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_places=st.integers(1, 14),
    n_markers=st.integers(0, 12),
    accuracy=st.sampled_from([0.0, 5.0]),
    together=st.sampled_from([0.0, 12.0, 20.0]),
)
def test_own_markers_fail_and_doubt_as_many_places_as_no_matching_serves(
    seed, n_places, n_markers, accuracy, together
):
    """Per parcel, the places grouped one by one (those within ``together`` ft of another of
    the group), a group's distance to a marker that of its nearest place: as many groups fail
    as the slow maximum matching of the markers within 30 ft plus the accuracy leaves without,
    and of the groups with a marker within 30 ft less it, as many are not OK as that matching
    of those markers leaves without. The same status for every place when each parcel is
    checked alone, and whatever order the markers come in."""
    from posting.checks import FAIL, OK, against_max
    from posting.kinds.points import own_markers

    rng = np.random.default_rng(seed)
    n_parcels, tol = 3, 30.0
    x = rng.integers(0, 8, n_places) * 12.0  # places 12 ft apart on a small grid (or at one)
    y = rng.integers(0, 3, n_places) * 12.0
    parcel = np.sort(rng.integers(0, n_parcels, n_places))
    mx = rng.integers(-2, 10, n_markers) * 7.0
    my = rng.integers(-2, 5, n_markers) * 7.0
    mparcel = rng.integers(0, n_parcels, n_markers)
    rank = rng.permutation(n_markers) * 3  # input order, not the arrays' order
    args = (tol, accuracy, n_parcels)
    own = own_markers(x, y, parcel, mx, my, mparcel, rank, *args, together_ft=together)
    d = np.hypot(x[:, None] - mx[None, :], y[:, None] - my[None, :])
    d[parcel[:, None] != mparcel[None, :]] = np.inf
    for p in range(n_parcels):
        places = np.flatnonzero(parcel == p).tolist()
        group = {i: i for i in places}  # one by one: each place joins the group of any near

        def root(i, group=group):
            while group[i] != i:
                i = group[i]
            return i

        for i in places:
            for j in places:
                if np.hypot(x[i] - x[j], y[i] - y[j]) <= together:
                    group[root(i)] = root(j)
        groups = sorted({root(i) for i in places})
        members = {g: [i for i in places if root(i) == g] for g in groups}
        assert all(len({int(own[i]) for i in members[g]}) == 1 for g in groups)
        loose, strict = [], []
        for g in groups:
            for j in range(n_markers):
                near = against_max(np.array([d[members[g], j].min()]), tol, accuracy)[0]
                if near != FAIL:
                    loose.append((g, j))
                if near == OK:
                    strict.append((g, j))
        with_loose = sorted({g for g, _ in loose})
        with_strict = sorted({g for g, _ in strict})
        fails = sum(own[g] == FAIL for g in groups)
        assert fails == len(with_loose) - max_matching(loose, with_loose)
        doubts = sum(own[g] != OK for g in with_strict)
        assert doubts == len(with_strict) - max_matching(strict, with_strict)
        alone = own_markers(
            x[places], y[places], parcel[places], mx, my, mparcel, rank, *args, together_ft=together
        )
        assert alone.tolist() == own[places].tolist()
    shuffle = rng.permutation(n_markers)
    again = own_markers(
        x,
        y,
        parcel,
        mx[shuffle],
        my[shuffle],
        mparcel[shuffle],
        rank[shuffle],
        *args,
        together_ft=together,
    )
    assert again.tolist() == own.tolist()


def test_a_corner_a_hair_beyond_the_tolerance_is_never_shown_within_it():
    """The south-west corner's sign moved 30.004 ft along the south side: the corner has no
    marker within 30 ft (the slack is 0.001 + 2.5e-6 * 30 ft). Its distance read 30.0 beside
    "missing" in the GeoJSON's corner and 30.0 as the violation's measured figure; they read
    30.01, the message 30.004 ft, the evidence record 30.1 ft."""
    import json
    import re

    from helpers import CORNERS_AND_MIDPOINTS, markers, parcels, square

    from posting import check
    from posting.evidence import RecordPage, render_record

    pts = [p for p in CORNERS_AND_MIDPOINTS if p != (0, 0)] + [(30.004, 0)]
    r = check(parcels(square(), ids=["P1"]), markers(pts))
    p = r.to_dict()["parcels"][0]
    [v] = [x for x in p["violations"] if x["rule"] == "corners"]
    assert (v["measured"], v["limit"]) == (30.01, 30.0)
    assert (
        v["message"]
        == "1 of 4 corners has no marker within 30.0 ft; the farthest is 30.004 ft from a marker"
    )
    corners = [
        f["properties"]
        for f in json.loads(r.to_geojson())["features"]
        if f["properties"]["layer"] == "corner"
    ]
    assert sorted((c["status"], c["nearest_marker_ft"]) for c in corners) == [
        ("missing", 30.01),
        ("ok", 0.0),
        ("ok", 0.0),
        ("ok", 0.0),
    ]
    html = render_record(r, np.array([0]), RecordPage(check_date="2026-12-06"))["P1.html"]
    [row] = re.findall(r"<tr><td>C1</td>.*?</tr>", html)
    assert "30.1 ft" in row
