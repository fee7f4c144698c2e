"""posting.checks.corners: the markers beside a place along its ring, against a slow oracle."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

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
