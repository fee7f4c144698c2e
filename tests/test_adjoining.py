"""Adjoining parcels (``posting.prepare.adjoining_pairs``): the fast paths against the slow,
obvious method on random tiny layouts.

The definition: two parcels of one key adjoin when they are within the snap of each other and at
least ``max(5 ft, 5 x snap)`` of the first's boundary lies within the snap of the second (GEOS:
the boundary cut by the second buffered). The fast method settles most pairs without GEOS (an
edge both have exactly; a bound on the stretch from the edges near each other); it must find
exactly the pairs the definition finds.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from posting import prepare
from posting.boundary import ring_vertices, rings_of
from posting.prepare import _longest_shared_edge, _ring_edges, adjoining_pairs


def _layout(seed: int, n: int) -> np.ndarray:
    """``n`` small valid polygons on a 0.5 ft grid in a 30 ft square: boxes (some with a hole,
    some in two parts), triangles and quadrilaterals with slanted edges, copies of earlier ones
    (an edge three parcels share), and boxes a snap's width or so away from an earlier one."""
    rng = np.random.default_rng(seed)
    out: list[shapely.Geometry] = []
    while len(out) < n:
        kind = rng.integers(0, 7)
        x, y = rng.integers(0, 50, 2) / 2
        w, h = rng.integers(2, 24, 2) / 2
        if kind == 0 or (kind == 5 and not out):
            g = shapely.box(x, y, x + w, y + h)
        elif kind == 1:
            g = shapely.box(x, y, x + w + 2, y + h + 2).difference(
                shapely.box(x + 1, y + 1, x + w + 1, y + h + 1)
            )
        elif kind == 2:
            g = shapely.MultiPolygon(
                [shapely.box(x, y, x + w, y + h), shapely.box(x + w + 1, y, x + 2 * w, y + h)]
            )
        elif kind in (3, 4):
            pts = rng.integers(0, 60, (3 + kind - 3, 2)) / 2
            g = shapely.convex_hull(shapely.MultiPoint(pts))
        elif kind == 5:
            g = out[rng.integers(0, len(out))]
        else:  # beside an earlier polygon's box, a gap of 0 to 1.5 ft
            _, y0, x1, _ = shapely.bounds(out[rng.integers(0, len(out))]) if out else (0, 0, 1, 1)
            gap = rng.integers(0, 4) / 2
            g = shapely.box(x1 + gap, y0 + rng.integers(-4, 5) / 2, x1 + gap + w, y0 + h)
        if g.geom_type in ("Polygon", "MultiPolygon") and g.is_valid and g.area > 0:
            out.append(g)
    return np.asarray(out, dtype=object)


def _by_definition(g: np.ndarray, key: np.ndarray, snap_ft: float) -> list[tuple[int, int]]:
    """Every pair ``a < b`` of one key, measured with GEOS."""
    least = max(5.0, 5 * snap_ft)
    found = []
    for a in range(len(g)):
        for b in range(a + 1, len(g)):
            if key[a] != key[b] or not shapely.dwithin(g[a], g[b], snap_ft):
                continue
            near = shapely.buffer(g[b], snap_ft, quad_segs=2)
            if shapely.length(shapely.intersection(shapely.boundary(g[a]), near)) >= least:
                found.append((a, b))
    return found


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 14),
    snap_ft=st.sampled_from([0.5, 1.0, 2.0]),
    owners=st.integers(1, 3),
)
def test_adjoining_pairs_are_the_definitions(seed, n, snap_ft, owners):
    g = _layout(seed, n)
    key = np.random.default_rng(seed + 1).integers(0, owners, n)
    group, invalid = np.zeros(n, dtype=int), np.full(n, None)
    want = _by_definition(g, key, snap_ft)
    a, b = adjoining_pairs(g, key, group, invalid, snap_ft)
    assert list(zip(a.tolist(), b.tolist(), strict=True)) == want
    # the same read from the prepared rings (oriented, as prepare_parcels makes them)
    rings = rings_of(g)
    a, b = adjoining_pairs(g, key, group, invalid, snap_ft, rings)
    assert list(zip(a.tolist(), b.tolist(), strict=True)) == want
    # and from their vertex table
    a, b = adjoining_pairs(g, key, group, invalid, snap_ft, rings, ring_vertices(rings.geometry))
    assert list(zip(a.tolist(), b.tolist(), strict=True)) == want


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 14))
def test_ring_edges_from_the_vertex_table_are_the_coordinates_edges(seed, n):
    """The edges read from the rings' vertex table are those read from their coordinates: the
    same points to the bit, in the same order, with the same parcels (a subset of parcels, in
    any order, a parcel with no ring among them)."""
    g = _layout(seed, n)
    g[n // 2] = None
    rings = rings_of(g)
    pick = np.sort(np.random.default_rng(seed).permutation(n)[: max(1, n // 2)])
    want = _ring_edges(g, pick, rings)
    got = _ring_edges(g, pick, rings, ring_vertices(rings.geometry))
    for x, y in zip(want, got, strict=True):
        assert x.dtype == y.dtype and x.shape == y.shape
        assert x.tobytes() == y.tobytes()


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 14))
def test_longest_shared_edge_by_hash_is_by_coordinates(seed, n):
    """The edges matched through their hashes are those the sort on coordinates matches, an
    edge of three parcels or more included (copies in the layout)."""
    g = _layout(seed, n)
    a, b = np.triu_indices(n, 1)
    edges = _ring_edges(g, np.arange(n))
    fast = _longest_shared_edge(edges, a, b)
    assert fast.tolist() == _longest_shared_edge(edges, a, b, exact=True).tolist()
    # by hand: the longest edge both have; at least the longest of those no third parcel has
    sets = [_edge_set(x) for x in g]
    held = {}
    for es in sets:
        for e in es:
            held[e] = held.get(e, 0) + 1
    for i, j, got in zip(a.tolist(), b.tolist(), fast.tolist(), strict=True):
        common = sets[i].keys() & sets[j].keys()
        assert got <= max((sets[i][e] for e in common), default=0.0)
        assert got >= max((sets[i][e] for e in common if held[e] == 2), default=0.0)


def _edge_set(g) -> dict:
    out = {}
    for ring in shapely.get_rings(shapely.get_parts(g)):
        xy = shapely.get_coordinates(ring).tolist()
        for p, q in itertools.pairwise(xy):
            out[frozenset((tuple(p), tuple(q)))] = float(np.hypot(q[0] - p[0], q[1] - p[1]))
    return out


def test_hash_collisions_fall_back_to_the_sort(monkeypatch):
    """Every edge with one hash: the edges are sorted on their coordinates, the same result."""
    g = _layout(7, 12)
    a, b = np.triu_indices(12, 1)
    edges = _ring_edges(g, np.arange(12))
    want = _longest_shared_edge(edges, a, b).tolist()
    assert max(want) > 0
    monkeypatch.setattr(prepare, "_edge_hash", lambda p, q: np.zeros(len(p), dtype=np.uint64))
    assert _longest_shared_edge(edges, a, b).tolist() == want


@pytest.mark.parametrize("overlap", [False, True])
def test_a_lot_inside_another_is_measured(overlap):
    """A lot wholly inside another (no edge of it near the other's): all its boundary is within
    the larger one's buffer, so they adjoin; the bound must not settle them apart. And a lot
    half inside: the stretch inside counts."""
    outer = shapely.box(0, 0, 100, 100)
    inner = shapely.box(40, 40, 60, 60) if not overlap else shapely.box(90, 40, 130, 60)
    g = np.asarray([inner, outer], dtype=object)
    a, b = adjoining_pairs(g, np.zeros(2, int), np.zeros(2, int), np.full(2, None), 1.0)
    assert list(zip(a.tolist(), b.tolist(), strict=True)) == [(0, 1)]


def test_an_edge_of_three_lots_one_beyond_its_neighbours_snap():
    """A|Y share the edge x = 10, and Z (another owner's) is a copy of Y, so three lots have
    that edge; Z's one neighbour of its owner is a triangle whose box meets Z's but which lies
    6 ft off. Z is dropped (nothing of its owner within the snap), the edge matched again
    between A and Y: they adjoin, and nothing else does."""
    lots = [
        shapely.box(0, 0, 10, 10),  # A, owner a
        shapely.box(10, 0, 20, 10),  # Z, owner b
        shapely.box(10, 0, 20, 10),  # Y, owner a
        shapely.Polygon([(20.5, 20), (30, 20), (30, 10.5)]),  # W, owner b
    ]
    g = np.asarray(lots, dtype=object)
    key = np.array(["a", "b", "a", "b"], dtype=object)
    assert not shapely.dwithin(g[1], g[3], 1.0)
    a, b = adjoining_pairs(g, key, np.zeros(4, int), np.full(4, None), 1.0)
    assert list(zip(a.tolist(), b.tolist(), strict=True)) == [(0, 2)]
    assert _by_definition(g, key, 1.0) == [(0, 2)]
