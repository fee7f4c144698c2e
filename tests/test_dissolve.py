"""A union that keeps every input (GEOS's unary union once left one out: libgeos/geos#965)."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from posting.checks.land import share_of_area
from posting.checks.landcover import forest_share
from posting.dissolve import dissolve, tile

# Found by the land checks' oracle (tests/test_land_checks.py): with GEOS 3.14.1,
# shapely.union_all of these five came to 5,957.6 sq ft, without the strip S (67 sq ft, which
# touches T at its corner (67, 120)); their union one pair at a time is 6,024.6 sq ft.
T = shapely.Polygon([(0, 0), (-18, 77), (67, 120)])
U = shapely.box(0, 0, 1, 1)
S = shapely.box(0, 120, 67, 121)
T2 = shapely.Polygon([(0, 21), (24, 99), (94, 23)])
FIVE = np.array([T, U, T, S, T2], dtype=object)


def pairwise(geoms):
    out = geoms[0]
    for g in geoms[1:]:
        out = out.union(g)
    return out


def test_the_union_holds_the_strip():
    u = dissolve(FIVE)
    assert u.area == pytest.approx(pairwise(FIVE).area, abs=1e-4)
    assert u.covers(S)


def test_the_share_of_a_lot_that_the_five_cover():
    """The lot [0, 1] x [41, 121]: T covers it from y = 41 up to T's top edge, y = 86.1059 +
    0.50588 x (from (-18, 77) to (67, 120)), so 45.1059 + 0.50588 / 2 = 45.3588 sq ft; S
    covers its top square foot; U and T2 (right of x = 24 (y - 21) / 78 >= 6.2) none of it:
    46.3588 of 80 sq ft."""
    lot = shapely.box(0, 41, 1, 121)
    top = 77 + 18 * 43 / 85  # T's top edge at x = 0
    want = ((top - 41) + 43 / 85 / 2 + 1) / 80
    assert share_of_area(np.array([lot]), FIVE)[0] == pytest.approx(want, abs=1e-8)  # (the grid)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(-20, 100), st.integers(-20, 100), st.integers(1, 60), st.integers(1, 60)
        ),
        min_size=1,
        max_size=8,
    )
)
def test_a_union_that_lost_nothing_is_the_floating_one(boxes):
    geoms = np.array([shapely.box(x, y, x + w, y + h) for x, y, w, h in boxes], dtype=object)
    u = dissolve(geoms)
    assert shapely.equals_exact(u, shapely.union_all(geoms), tolerance=0)
    assert u.area == pytest.approx(pairwise(list(geoms)).area, abs=1e-9)


def test_nothing_and_empty_inputs():
    assert dissolve(np.array([], dtype=object)).is_empty
    assert dissolve(np.array([None, shapely.Polygon()], dtype=object)).is_empty


def test_no_pieces_no_tiles():
    """A layer with nothing usable (a forest layer of lines only, one of them with a NaN
    vertex: the settings fuzz's find) dissolves to nothing, which has no tiles: ``tile``
    raised numpy's "need at least one array to concatenate"."""
    tiles, of = tile(np.array([], dtype=object))
    assert len(tiles) == len(of) == 0 and of.dtype.kind == "i"
    lines = np.array([shapely.LineString([(0, 0), (10, 0)])], dtype=object)
    assert forest_share(lines, np.array([shapely.Polygon()], dtype=object)).tolist() == [0.0]


def _lake(seed: int) -> shapely.Polygon:
    """A lake of 1,200 vertices with islands: wavy enough to be cut many times."""
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 2 * np.pi, 1200, endpoint=False)
    r = 1000 * (1 + 0.3 * np.sin(5 * t + rng.uniform(0, 6)) + 0.05 * np.sin(41 * t))
    islands = [
        shapely.Point(x, y).buffer(40, quad_segs=8).exterior
        for x, y in rng.uniform(-400, 400, (6, 2))
    ]
    return shapely.Polygon(np.c_[r * np.cos(t), r * np.sin(t)], islands).buffer(0)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10_000),
    st.lists(st.tuples(st.integers(-1400, 1400), st.integers(-1400, 1400)), max_size=4),
    st.sampled_from([0.0, 7.0, 300.0]),
)
def test_the_tiles_near_some_rings_are_those_of_the_whole_tiling(seed, spots, distance):
    """``tile(around=...)`` cuts only what comes near: it gives exactly the tiles (the same
    geometries, in the same order, from the same pieces) that the whole tiling gives and
    whose boxes come within the distance of the rings', found the slow way (every tile's box
    against every ring's, one pair at a time)."""
    lakes = np.array([_lake(seed), shapely.box(3000, 0, 3100, 50)], dtype=object)
    rings = np.array([shapely.box(x, y, x + 60, y + 30).exterior for x, y in spots], dtype=object)
    tiles, of = tile(lakes, 50)
    near, near_of = tile(lakes, 50, around=rings, distance_ft=distance)
    pad = distance + 1.0
    slow = [
        k
        for k, t in enumerate(tiles)
        if any(
            shapely.box(*r.bounds).buffer(pad, join_style="mitre").intersects(shapely.envelope(t))
            for r in rings
        )
    ]
    assert len(tiles) > 20
    reached = [k for k, t in enumerate(tiles) if any(t.distance(r) <= distance for r in rings)]
    assert set(reached) <= set(slow)  # (a tile near a ring is never left out)
    assert len(near) == len(slow) and near_of.tolist() == of[slow].tolist()
    assert shapely.equals_exact(near, tiles[slow], 0).all()


def test_lines_of_no_length_and_of_an_edge_of_1e_300_ft():
    """Lines are dissolved as they are (water lines within 0 ft: ``zone``). One of no length,
    which the floating union drops, sends the union to the grid, where a line with an edge of
    1e-300 ft meeting a bent one raised GEOS's divide by zero as numpy's warning (an error under
    the tests' filter); the union on the grid stands (fails before)."""
    lines = np.array(
        [
            shapely.LineString([(-5, 0), (15, 0), (15, 20)]),
            shapely.LineString([(0, 0), (1e-300, 0), (10, 10)]),
            shapely.LineString([(5, 50), (5, 50)]),
        ],
        dtype=object,
    )
    u = dissolve(lines)
    assert u.length == pytest.approx(40 + 200**0.5)
    assert u.covers(shapely.LineString([(-5, 0), (15, 0), (15, 20)]))
