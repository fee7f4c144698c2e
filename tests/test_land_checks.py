"""The land checks' vectorised measures (:mod:`posting.checks.land`,
:mod:`posting.checks.landcover`, :mod:`posting.checks.access`) against the slow, obvious
method: one parcel, line or ring at a time, with shapely's scalar operations, and what is not
covered measured as a difference rather than what is covered as an intersection."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
import shapely
import shapely.affinity
from helpers import tiled
from hypothesis import example, given, settings
from hypothesis import strategies as st

from posting.checks import land as land_checks
from posting.checks.access import boundary_crossings
from posting.checks.land import boundary_in_zone, points_in_polygons, share_of_area, zone
from posting.checks.landcover import forest_share
from posting.dissolve import tile

coordinate = st.integers(-20, 120).map(float)


@st.composite
def polygon(draw) -> shapely.Polygon:
    """A box, or the hull of three to six points: of any size, overlapping others or not."""
    if draw(st.booleans()):
        x, y = draw(coordinate), draw(coordinate)
        w, h = draw(st.integers(1, 80)), draw(st.integers(1, 80))
        return shapely.box(x, y, x + w, y + h)
    pts = draw(st.lists(st.tuples(coordinate, coordinate), min_size=3, max_size=6))
    hull = shapely.convex_hull(shapely.multipoints(pts))
    return hull if hull.geom_type == "Polygon" else shapely.box(0, 0, 1, 1)


line = (
    st.lists(st.tuples(coordinate, coordinate), min_size=2, max_size=5, unique=True)
    .map(shapely.LineString)
    .filter(lambda ln: ln.is_simple)  # as a stretch of a valid ring is: it never runs back
)


GRID = 1e-6
"""The slow methods' overlays are GEOS's fixed-precision ones (snap-rounded to a millionth of
a foot), which never fail: the floating ones can, where edges coincide. GEOS 3.14.1 gave a
triangle less another twice a result 80 sq ft short (the second difference dropped a piece
that only shared an edge with it), and a triangle less a union whose parts touch at a corner
a negative area. The checks themselves only intersect (and clip the shares to 0-1)."""


def rest_of(geom, cover):
    """What ``cover`` (polygons and lines, dissolved by dimension) leaves of ``geom``."""
    rest = geom
    for dim in (2, 1):
        mine = [c for c in cover if shapely.get_dimensions(c) == dim]
        if mine:
            rest = shapely.difference(rest, shapely.union_all(mine, grid_size=GRID), grid_size=GRID)
    return rest


def slow_share_of_area(polygons, cover):
    """One polygon at a time: what the cover leaves of it, taken from the whole."""
    return [1.0 - rest_of(p, cover).area / p.area for p in polygons]


def slow_forest_share(lines, forest):
    """One line at a time: what the forest leaves of it, taken from the whole."""
    return [1.0 - rest_of(ln, forest).length / ln.length for ln in lines]


point = st.builds(shapely.Point, coordinate, coordinate)

DEGENERATE = [
    shapely.LineString([(0, 0), (1e-300, 0), (10, 10)]),  # an edge of 1e-300 ft
    shapely.LineString([(5, 50), (5, 50)]),  # of no length: GEOS's union drops it
    shapely.MultiLineString([[(0, 5), (10, 5)], [(0, 6), (10, 6)]]),
    shapely.MultiPoint([(1, 1), (2, 2)]),
]
"""Lines and points a layer of areas may hold (a land cover's, a registry's, a place's),
whose union :func:`posting.dissolve.dissolve` redid on the grid (its check missed the line
of no length), where GEOS raised its divide by zero as numpy's warning."""


@settings(max_examples=300, deadline=None)
@given(
    st.lists(polygon(), min_size=1, max_size=6),
    st.lists(st.one_of(polygon(), polygon(), line, point), max_size=6),
)
@example(polygons=[shapely.box(0, 0, 10, 10)], cover=DEGENERATE)  # (both fail before)
@example(polygons=[shapely.box(0, 0, 10, 10)], cover=[shapely.box(0, 0, 4, 10), *DEGENERATE])
@example(  # a triangle within the last cover, along its long edge: GEOS 3.14.1's floating
    # intersection of it with the union gave two points (no area), the difference all of it
    polygons=[shapely.from_wkt("POLYGON ((-15 -1, 50 115, 0 0, -15 -1))")],
    cover=shapely.from_wkt(
        [
            "POLYGON ((1 -2, 0 30, 1 0, 1 -2))",
            "POLYGON ((1 57, 1 58, 0 58, 0 57, 1 57))",
            "POLYGON ((0 0, 50 116, 51 0, 0 0))",
            "POLYGON ((-15 -1, 50 115, 1 0, -15 -1))",
        ]
    ).tolist(),
)
def test_share_of_area_agrees_with_the_slow_obvious_measure(polygons, cover):
    """The share of each polygon the cover's polygons cover; a line or point of the cover (no
    land) covers none of it."""
    polygons = np.array(polygons, dtype=object)
    fast = share_of_area(polygons, np.array(cover, dtype=object))
    slow = np.array(slow_share_of_area(polygons, [c for c in cover if c.geom_type == "Polygon"]))
    # the grid moves each edge by up to a millionth of a foot: shares of slivers move more
    off = GRID * (1 + shapely.length(polygons) / shapely.area(polygons))
    assert (np.abs(fast - slow) <= off).all(), (fast, slow)
    cut = tiled(share_of_area, polygons, np.array(cover, dtype=object))
    assert (np.abs(cut - slow) <= off).all(), (cut, slow)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(line, min_size=1, max_size=6),
    st.lists(
        st.one_of(polygon(), polygon(), line, point),
        max_size=6,
    ),
)
@example(lines=[shapely.LineString([(0, 0), (10, 0)])], forest=DEGENERATE)  # (fails before)
@example(  # a forest line along a lot's edge and one with an edge of 1e-300 ft (the fuzz
    # campaign's: GEOS's divide by zero surfaced as numpy's warning)
    lines=[shapely.LineString([(0, 0), (10, 10)]), shapely.LineString([(0, 0), (10, 0)])],
    forest=[
        shapely.Point(0, 0),
        shapely.LineString([(-5, 0), (15, 0)]),
        shapely.LineString([(0, 0), (1e-300, 0), (10, 10)]),
    ],
)
@example(  # a line crossing the edges of two slivers at a grazing angle (1 in 8 against 1
    # in 9): the grid moved the crossing by 1.6e-6 of its length, more than the bound by its
    # vertices allowed
    lines=[shapely.LineString([(0, 0), (1, 8)])],
    forest=[
        shapely.Polygon([(0, -1), (0, 0), (1, 9), (0, -1)]),
        shapely.Polygon([(0, -1), (0, 0), (4, 29), (0, -1)]),
    ],
)
def test_forest_share_agrees_with_the_slow_obvious_measure(lines, forest):
    """The share of each line in the forest's polygons; a forest line or point (no land)
    covers none of it."""
    lines = np.array(lines, dtype=object)
    fast = forest_share(lines, np.array(forest, dtype=object))
    # the grid moves each edge of the forest by less than a millionth of a foot: where a line
    # crosses an edge at a grazing angle, the crossing moves along it by much more. So the
    # share lies between the slow shares of the forest shrunk and grown by twice that (a point
    # of a line farther than the grid from every edge is in or out of the forest either way)
    polygons = [f for f in forest if f.geom_type == "Polygon"]
    lo = np.array(slow_forest_share(lines, [f.buffer(-2 * GRID) for f in polygons]))
    hi = np.array(slow_forest_share(lines, [f.buffer(2 * GRID) for f in polygons]))
    off = GRID * (1 + 2 * shapely.get_num_coordinates(lines) / shapely.length(lines))
    assert ((fast >= lo - off) & (fast <= hi + off)).all(), (fast, lo, hi)
    cut = tiled(forest_share, lines, np.array(forest, dtype=object))
    assert ((cut >= lo - off) & (cut <= hi + off)).all(), (cut, lo, hi)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(polygon(), min_size=1, max_size=6),
    st.lists(st.tuples(coordinate, coordinate), max_size=20),
)
def test_points_in_polygons_agrees_with_the_slow_obvious_count(polygons, xy):
    """A point on a polygon's boundary is not in it (a dwelling's point on the lot line)."""
    pts = [shapely.Point(x, y) for x, y in xy]
    fast = points_in_polygons(np.array(polygons, dtype=object), np.array(pts, dtype=object))
    slow = [sum(p.contains(q) for q in pts) for p in polygons]
    assert fast.tolist() == slow


@settings(max_examples=300, deadline=None)
@given(
    st.lists(polygon(), min_size=1, max_size=5),
    st.lists(st.one_of(polygon(), line), min_size=1, max_size=6),
    st.sampled_from([0.5, 3.0]),
)
def test_boundary_in_zone_agrees_with_the_slow_obvious_length(lots, features, tolerance):
    """Each ring's stretches inside the zone add up to the ring's length less what lies
    outside the features grown by the tolerance; none overlaps another, and each lies in
    the zone piece it names. (Tolerances of 0.5 ft and more, as the land's zones have: with
    none, a ring along the edge of a polygon that the union with a line crossing it has
    noded is a hair off that edge, and the floating intersection misses it.)"""
    rings = shapely.get_exterior_ring(np.array(lots, dtype=object))
    pieces = zone(np.array(features, dtype=object), tolerance)
    grown = [shapely.buffer(f, tolerance, quad_segs=4) if tolerance else f for f in features]
    slow = [r.length - rest_of(r, grown).length for r in rings]
    whole_pieces = boundary_in_zone(rings, pieces)
    for got in (whole_pieces, tiled(boundary_in_zone, rings, pieces)):
        fast = got.total_by(np.arange(len(rings)), len(rings))
        assert fast.tolist() == pytest.approx(slow, abs=1e-4)
        for r in range(len(rings)):  # no stretch counted twice: their union is their sum
            mine = got.geometry[got.ring == r]
            whole = shapely.union_all(mine).length if len(mine) else 0.0
            assert whole == pytest.approx(got.length_ft[got.ring == r].sum(), abs=1e-6)
        inside = shapely.covers(shapely.buffer(pieces[got.feature], 1e-6), got.geometry)
        assert inside.all()
    # cut or not, the same stretches (a stretch across a cut merged whole), in the same order
    assert got.ring.tolist() == whole_pieces.ring.tolist()
    assert got.feature.tolist() == whole_pieces.feature.tolist()
    assert got.length_ft == pytest.approx(whole_pieces.length_ft, abs=1e-6)
    # and the same lines, with no vertex where one crosses a cut (and so none where a ring
    # along the zone's edge meets a vertex of it, which the piece uncut gives)
    assert (shapely.hausdorff_distance(got.geometry, whole_pieces.geometry) < 1e-6).all()
    count = shapely.get_num_coordinates
    assert (count(got.geometry) <= count(whole_pieces.geometry)).all()


def slow_crossings(rings, features, gate_snap_ft):
    """One ring and one feature at a time: the points where a line meets the ring (not where
    it runs along it), and each gate within reach projected onto the ring; one per place."""
    out = set()
    for r, ring in enumerate(rings):
        for f in features:
            if f.geom_type in ("Point", "MultiPoint"):
                for g in shapely.get_parts(f):
                    if ring.distance(g) <= gate_snap_ft:
                        out.add((r, round(ring.project(g), 6)))
                continue
            for part in shapely.get_parts(ring.intersection(f)):
                if part.geom_type == "Point":
                    out.add((r, round(ring.project(part), 6)))
    return sorted(out)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(polygon(), min_size=1, max_size=4),
    st.lists(
        st.one_of(line, st.tuples(coordinate, coordinate).map(shapely.Point)),
        min_size=1,
        max_size=6,
    ),
    st.sampled_from([0.0, 2.0, 10.0]),
)
def test_boundary_crossings_agree_with_the_slow_obvious_points(lots, features, snap):
    """With no merging (``merge_ft`` 0: only points at the same place along a ring are one),
    the access points are the slow method's; with merging, points closer than ``merge_ft``
    along a ring are one (the merges chain: 0, 0.8 and 1.6 ft are one place)."""
    rings = shapely.get_exterior_ring(np.array(lots, dtype=object))
    feats = np.array(features, dtype=object)
    got = boundary_crossings(rings, feats, gate_snap_ft=snap, merge_ft=0.0)
    fast = sorted(set(zip(got.ring.tolist(), np.round(got.position_ft, 6).tolist(), strict=True)))
    slow = slow_crossings(rings, features, snap)
    assert [r for r, _ in fast] == [r for r, _ in slow]
    assert [p for _, p in fast] == pytest.approx([p for _, p in slow], abs=1e-5)
    assert len(got) == len(fast)  # no place given twice
    merged = boundary_crossings(rings, feats, gate_snap_ft=snap, merge_ft=1.0)
    for r in range(len(rings)):
        pos = merged.position_ft[merged.ring == r]
        mine = np.array([p for rr, p in slow if rr == r])
        places = 1 + int((np.diff(mine) > 1.0).sum()) if len(mine) else 0
        assert len(pos) == places
        assert (np.diff(pos) > 1.0).all()


def test_rings_along_the_edges_of_cut_pieces_keep_their_stretches():
    """A lot whose line follows a lake's shore vertex for vertex (water within 0 ft: the zone is
    the lake itself), the lake cut into tiles where it has more than 500 vertices: the stretch
    along the shore is the shore, as with the lake uncut. Without ``along_cuts`` 87 of these
    200 lost the shore's edge from the cut to its next vertex (4-7 ft)."""
    rng = np.random.default_rng(1)
    for _ in range(200):
        t = np.linspace(0, 2 * np.pi, 1200, endpoint=False)
        r = 1000 * (1 + 0.2 * np.sin(3 * t + rng.uniform(0, 6)))
        cx, cy = rng.uniform(-5e5, 5e5, 2)
        xy = np.c_[cx + r * np.cos(t), cy + r * np.sin(t)]
        shore = xy[(rng.integers(0, 1200) + np.arange(rng.integers(50, 500))) % 1200]
        lot = shapely.Polygon(np.r_[shore, (shore + (shore - [cx, cy]) * 0.3)[::-1]])
        got = boundary_in_zone(np.array([lot.exterior]), zone(np.array([shapely.Polygon(xy)]), 0))
        assert got.length_ft.sum() == pytest.approx(shapely.LineString(shore).length, abs=1e-6)


def test_a_huge_feature_grown_in_tiles_is_the_same_zone(monkeypatch):
    """A feature of more vertices than :data:`BUFFER_WHOLE_MAX` (a county's rights of way as
    one polygon with thousands of holes: 28 s grown whole) is cut into tiles, each grown: the
    union of what they grow to is what the whole grows to."""
    holes = [
        shapely.box(x, y, x + 20, y + 20).exterior
        for x in range(10, 400, 60)
        for y in range(10, 400, 60)
    ]
    feature = shapely.Polygon(shapely.box(0, 0, 430, 430).exterior, holes)
    lines = np.array([shapely.LineString([(-50, 5), (500, 300)]), feature], dtype=object)
    whole = zone(lines, 7.0)
    monkeypatch.setattr(land_checks, "BUFFER_WHOLE_MAX", 10)
    cut = tiled(zone, lines, 7.0)
    assert len(shapely.get_parts(tiled(tile, np.array([feature]))[0])) > 1
    assert shapely.area(cut).sum() == pytest.approx(shapely.area(whole).sum(), rel=1e-12)
    assert (
        shapely.area(shapely.symmetric_difference(shapely.union_all(cut), shapely.union_all(whole)))
        < 1e-6
    )


def test_a_huge_feature_grown_only_near_the_rings_gives_the_same_stretches(monkeypatch):
    """With ``around``, :func:`zone` grows only the tiles of a huge feature near the rings
    (a partition of a county, under a county-wide river): fewer pieces, and the same
    stretches of those rings, to the bit, as the whole feature grown."""
    holes = [
        shapely.box(x, y, x + 20, y + 20).exterior
        for x in range(10, 2000, 60)
        for y in range(10, 400, 60)
    ]
    feature = shapely.Polygon(shapely.box(0, 0, 2030, 430).exterior, holes)
    lots = shapely.box(np.arange(5, 400, 45.0), 25, np.arange(45, 440, 45.0), 95)
    rings = shapely.get_exterior_ring(lots)
    monkeypatch.setattr(land_checks, "BUFFER_WHOLE_MAX", 10)
    features = np.array([feature], dtype=object)
    whole = tiled(zone, features, 7.0)
    near = tiled(zone, features, 7.0, around=rings)
    assert shapely.area(near).sum() < shapely.area(whole).sum() / 2  # (a fifth of it, and 7 ft)
    a, b = boundary_in_zone(rings, whole), boundary_in_zone(rings, near)
    assert 0 < a.length_ft.sum() < shapely.length(rings).sum()  # (some lots cross a hole)
    assert a.ring.tolist() == b.ring.tolist() and a.length_ft.tolist() == b.length_ft.tolist()
    assert shapely.equals_exact(a.geometry, b.geometry, 0).all()


@pytest.mark.parametrize("degrees", [0.0, 23.0, 45.0, 77.0])
def test_a_short_l_of_fence_leaves_its_sides_continued_open(degrees):
    """A fence of two 10 ft sides meeting square at (0, 0), both ends free: each side continued
    past its end (30 ft of it, to 40 ft from the corner) is beyond the reach, all of it. GEOS
    drew each side's reach with an edge along the other side continued, from 15 ft to 30 ft
    from the corner: 15 ft of it was reached, or not, as the L lay (and with both sides left
    out of the line's rest, the rest was none: it raised)."""
    turn = partial(shapely.affinity.rotate, angle=degrees, origin=(0, 0))
    fence = turn(shapely.LineString([(0, 10), (0, 0), (10, 0)]))
    reach = shapely.union_all(land_checks.fence_zone(np.array([fence]), 30.0))
    for past in ([(10, 0), (40, 0)], [(0, 10), (0, 40)]):
        open_ft = shapely.difference(turn(shapely.LineString(past)), reach).length
        assert open_ft == pytest.approx(30.0, abs=1e-6)
