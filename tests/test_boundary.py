"""Rings, corner detection (by hand and against a slow oracle) and boundary stretches."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from helpers import markers, parcels, square
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.ops import substring

from posting import check
from posting.boundary import find_corners, ring_stretches, rings_of


def corners_of(poly, **kw):
    r = rings_of(np.array([poly]))
    return find_corners(r.geometry, **kw)


def test_rings_are_oriented_with_the_parcel_on_the_left():
    hole = [(40, 40), (40, 60), (60, 60), (60, 40)]  # given clockwise... or not: any order
    poly = shapely.Polygon([(0, 0), (0, 100), (100, 100), (100, 0)], [hole])  # exterior CW
    r = rings_of(np.array([poly, None, shapely.MultiPolygon([square(10), square(10, x0=50)])]))
    assert r.parcel.tolist() == [0, 0, 2, 2]
    assert r.part.tolist() == [0, 0, 0, 1]
    assert r.hole.tolist() == [0, 1, 0, 0]
    assert r.length_ft.tolist() == [400.0, 80.0, 40.0, 40.0]
    ccw = shapely.is_ccw(r.geometry)
    assert ccw.tolist() == [True, False, True, True]  # exteriors CCW, holes CW


def test_square_and_rectangle_with_collinear_vertices_have_four_corners():
    assert len(corners_of(square())) == 4
    xs = np.linspace(0, 1000, 51)
    pts = [(x, 0) for x in xs] + [(1000, 300)] + [(x, 300) for x in xs[::-1]]
    c = corners_of(shapely.Polygon(pts))
    assert sorted(zip(c.x.round(6), c.y.round(6), strict=True)) == [
        (0, 0),
        (0, 300),
        (1000, 0),
        (1000, 300),
    ]
    assert np.abs(c.turn_deg).tolist() == pytest.approx([90.0] * 4)


def test_angle_threshold():
    # A triangle-ish lot with one vertex turning 25 degrees: not a corner at 30, a corner at 20.
    bend = shapely.Polygon(
        [
            (0, 0),
            (500, 0),
            (500 + 500 * math.cos(math.radians(25)), 500 * math.sin(math.radians(25))),
            (0, 800),
        ]
    )
    assert len(corners_of(bend)) == 3
    assert len(corners_of(bend, angle_deg=20)) == 4


def test_chamfered_corner_is_one_corner_at_the_chamfer():
    poly = shapely.Polygon([(0, 0), (990, 0), (1000, 10), (1000, 1000), (0, 1000)])
    c = corners_of(poly)
    assert len(c) == 4
    k = int(np.argmin(np.hypot(c.x - 1000, c.y)))
    assert (c.x[k], c.y[k]) == pytest.approx((995, 5))  # the chamfer's middle
    assert c.turn_deg[k] == pytest.approx(90.0)
    # A chamfer longer than corner_merge_ft is two corners of 45 degrees.
    assert len(corners_of(poly, merge_ft=10)) == 5


def test_chamfer_across_the_ring_start_is_one_corner():
    poly = shapely.Polygon([(1000, 10), (1000, 1000), (0, 1000), (0, 0), (990, 0)])
    assert len(corners_of(poly)) == 4


def test_a_bend_of_exactly_the_corner_angle_is_a_corner():
    # "at least 30 degrees": a bend of 30 degrees (computed a hair under it) is a corner
    t = np.radians(30)
    poly = shapely.Polygon(
        [(0, 0), (1000, 0), (1000 + 1000 * np.cos(t), 1000 * np.sin(t)), (0, 1000)]
    )
    c = corners_of(poly)
    assert np.hypot(c.x - 1000, c.y).min() < 1e-6
    assert len(corners_of(poly, angle_deg=30.001)) == len(c) - 1


def test_curve_is_not_a_row_of_corners():
    # Quarter circle frontage of radius 300 ft drawn with 1 degree steps: no corner on the arc,
    # but the two places where straight lines meet it at right angles are corners.
    t = np.radians(np.arange(0, 91))
    arc = np.column_stack([300 * np.cos(t), 300 * np.sin(t)])
    c = corners_of(shapely.Polygon(np.vstack([[[0, 0]], arc])))
    assert len(c) == 3


def test_tight_curve_counts_as_a_corner():
    # Radius 20 ft, 90 degree turn: the turn happens within 31 ft: a corner.
    t = np.radians(np.arange(0, 91, 5))
    arc = np.column_stack([1000 + 20 * np.sin(t), 20 - 20 * np.cos(t)])
    pts = np.vstack([[[0, 0]], arc, [[1020, 1000], [0, 1000]]])
    assert len(corners_of(shapely.Polygon(pts))) == 4


def test_digitising_noise_is_ignored():
    rng = np.random.default_rng(7)
    side = np.linspace(0, 1, 40, endpoint=False)
    pts = np.vstack(
        [
            np.column_stack([side * 1000, np.zeros(40)]),
            np.column_stack([np.full(40, 1000), side * 1000]),
            np.column_stack([1000 - side * 1000, np.full(40, 1000)]),
            np.column_stack([np.zeros(40), 1000 - side * 1000]),
        ]
    ) + rng.normal(0, 0.25, (160, 2))
    assert len(corners_of(shapely.Polygon(pts))) == 4


def slow_corners(xy, angle_deg=30.0, merge_ft=20.0):
    """The obvious method on a ring with no noise to remove: loop over vertices, sum the turns
    within merge_ft / 2 on either side, group corner vertices that lie within merge_ft."""
    n = len(xy)
    seg = [math.dist(xy[i], xy[(i + 1) % n]) for i in range(n)]
    s = [sum(seg[:i]) for i in range(n)]
    length = sum(seg)
    turn = []
    for i in range(n):
        a, b, c = xy[i - 1], xy[i], xy[(i + 1) % n]
        d = math.atan2(c[1] - b[1], c[0] - b[0]) - math.atan2(b[1] - a[1], b[0] - a[0])
        turn.append((d + math.pi) % (2 * math.pi) - math.pi)
    h = min(merge_ft / 2, 0.499 * length)
    cand = []
    for i in range(n):
        window = 0.0
        for j in range(n):
            diff = abs(s[j] - s[i])
            if min(diff, length - diff) <= h + 1e-9:
                window += turn[j]
        if max(abs(turn[i]), abs(window)) >= math.radians(angle_deg) - 1e-9:
            cand.append(i)
    groups: list[list[int]] = []
    for i in cand:
        if groups and s[i] - s[groups[-1][-1]] <= merge_ft:
            groups[-1].append(i)
        else:
            groups.append([i])
    if len(groups) > 1 and s[groups[0][0]] + length - s[groups[-1][-1]] <= merge_ft:
        groups[0] = groups.pop() + groups[0]
    return len(groups)


@settings(max_examples=60, deadline=None)
@given(
    radii=st.lists(st.floats(50, 1000), min_size=3, max_size=24),
    seed=st.integers(0, 2**16),
)
def test_corner_count_matches_the_slow_oracle(radii, seed):
    # A star-shaped polygon with random vertex radii at sorted random angles.
    rng = np.random.default_rng(seed)
    ang = np.sort(rng.uniform(0, 2 * np.pi, len(radii)))
    if np.min(np.diff(np.r_[ang, ang[0] + 2 * np.pi])) < 0.05:
        return
    xy = np.column_stack([np.cos(ang), np.sin(ang)]) * np.asarray(radii)[:, None]
    poly = shapely.Polygon(xy)
    if not poly.is_valid:
        return
    ring = rings_of(np.array([poly])).geometry[0]
    ring_xy = np.asarray(ring.coords)[:-1]
    c = find_corners(np.array([ring]), noise_ft=0.0)
    assert len(c) == slow_corners([tuple(p) for p in ring_xy])


@settings(max_examples=100, deadline=None)
@given(
    radii=st.lists(st.floats(50, 1000), min_size=3, max_size=16),
    hole=st.booleans(),
    clockwise=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_outward_normals_point_out_of_the_parcel(radii, hole, clockwise, seed):
    """Slow obvious check of the facing rule's outward normal (:func:`frame`): a step of a
    tenth of a foot along it from the boundary leaves the parcel, a step against it enters;
    on a straight side it is square to the side, at a vertex it halves the angle. A hole's
    outward is into the hole. Rings given either way round (``rings_of`` orients them)."""
    from posting.boundary import outward_normals

    rng = np.random.default_rng(seed)
    ang = np.sort(rng.uniform(0, 2 * np.pi, len(radii)))
    if np.min(np.diff(np.r_[ang, ang[0] + 2 * np.pi])) < 0.05:
        return
    xy = np.column_stack([np.cos(ang), np.sin(ang)]) * np.asarray(radii)[:, None]
    shell = xy[::-1] if clockwise else xy
    inner = [shapely.Point(0, 0).buffer(20, quad_segs=2).exterior.coords] if hole else []
    poly = shapely.Polygon(shell, inner)
    if not poly.is_valid:
        return
    r = rings_of(np.array([poly]))
    ring = np.repeat(np.arange(len(r.geometry)), 40)
    vertex_s = [  # where each ring's vertices are along it
        shapely.line_locate_point(g, shapely.points(np.asarray(g.coords)[:-1])) for g in r.geometry
    ]
    at_vertex = rng.random(len(ring)) < 0.25
    s = rng.uniform(0, 1, len(ring)) * r.length_ft[ring]
    for i in np.flatnonzero(at_vertex):
        s[i] = rng.choice(vertex_s[ring[i]])
    nx, ny = outward_normals(r.geometry, ring, s)
    assert np.allclose(np.hypot(nx, ny), 1.0)
    p = shapely.line_interpolate_point(r.geometry[ring], s)
    x, y = shapely.get_x(p), shapely.get_y(p)
    eps = 0.1
    for i in range(len(ring)):
        g = r.geometry[ring[i]]
        out, back = (
            (x[i] + eps * nx[i], y[i] + eps * ny[i]),
            (x[i] - eps * nx[i], y[i] - eps * ny[i]),
        )
        # a step that crosses the boundary again, or ends within a hair of it, says nothing
        # (it crossed a thin wedge by a sharp vertex)
        crossed = shapely.LineString([out, back]).intersection(g)
        if (
            crossed.geom_type != "Point"
            or min(g.distance(shapely.Point(out)), g.distance(shapely.Point(back))) < eps / 10
        ):
            continue
        assert not poly.contains(shapely.Point(out)), (poly.wkt, s[i])
        assert poly.contains(shapely.Point(back)), (poly.wkt, s[i])
        d = np.abs(vertex_s[ring[i]] - s[i])
        if min(d.min(), r.length_ft[ring[i]] - d.max()) > 1.0:  # on a side: square to it
            a = shapely.line_interpolate_point(g, s[i] - 0.25)
            b = shapely.line_interpolate_point(g, s[i] + 0.25)
            tx, ty = b.x - a.x, b.y - a.y
            assert abs(tx * nx[i] + ty * ny[i]) < 1e-6 * max(1.0, math.hypot(tx, ty))


def test_corner_check_finds_missing_corners():
    pts = [(500, 0), (1000, 500), (500, 1000), (0, 500), (0, 0), (1000, 1000)]
    r = check(parcels(square()), markers(pts))
    p = r.to_dict()["parcels"][0]
    assert p["status"] == "noncompliant"
    assert p["corners"] == 4 and len(p["missing_corners"]) == 2
    [v] = [v for v in p["violations"] if v["rule"] == "corners"]
    assert v["count"] == 2 and v["limit"] == 30.0
    assert v["measured"] == 500.0  # from each missing corner to the midpoint signs beside it
    missing = r.corners[r.corners["status"] == "missing"]
    assert sorted(zip(missing["x_ft"].round(6), missing["y_ft"].round(6), strict=True)) == [
        (0.0, 1000.0),
        (1000.0, 0.0),
    ]


def test_corner_marker_within_tolerance_counts():
    # Signs 20 ft inside each corner along the diagonal (28.3 ft from the corner point), and
    # signs every 250 ft between them.
    between = [
        (250, 0),
        (500, 0),
        (750, 0),
        (1000, 250),
        (1000, 500),
        (1000, 750),
        (750, 1000),
        (500, 1000),
        (250, 1000),
        (0, 750),
        (0, 500),
        (0, 250),
    ]
    inset = [(20, 20), (980, 20), (980, 980), (20, 980)]
    r = check(parcels(square()), markers(inset + between))
    assert r.to_dict()["parcels"][0]["status"] == "compliant"
    assert r.corners["nearest_ft"].to_numpy() == pytest.approx([math.hypot(20, 20)] * 4)
    inset[0] = (25, 25)  # 35.4 ft from its corner: missing
    p = check(parcels(square()), markers(inset + between)).to_dict()["parcels"][0]
    # the local CRS's origin, the square's south-west corner, is at 81.1 W, 28.7 N
    assert p["missing_corners"] == [pytest.approx([-81.1, 28.7], abs=1e-7)]
    assert p["status"] == "noncompliant"


def test_neighbours_sign_does_not_mark_a_corner():
    # Two lots side by side; only the west lot has a sign at the shared corner (inside it).
    west, east = square(500), square(500, x0=500)
    pts = [(499, 1), (1, 1), (1, 499), (499, 499)]
    r = check(parcels(west, east), markers(pts))
    p = r.to_dict()["parcels"]
    assert p[0]["signs"] == 4 and p[1]["signs"] == 0
    assert p[1]["status"] == "unposted"
    assert len(p[1]["missing_corners"]) == 4


@settings(max_examples=100, deadline=None)
@given(start=st.floats(0, 1, exclude_max=True), frac=st.floats(0.001, 1.0))
def test_ring_stretches_match_shapely_substring(start, frac):
    poly = shapely.Polygon([(0, 0), (300, 0), (300, 100), (120, 240), (0, 100)])
    ring = rings_of(np.array([poly])).geometry[0]
    length = ring.length
    a, n = start * length, frac * length
    [got] = ring_stretches(np.array([ring]), np.array([0]), np.array([a]), np.array([n]))
    assert got.length == pytest.approx(n, rel=1e-9, abs=1e-9)
    line = shapely.LineString(ring.coords)
    if a + n <= length:
        want = substring(line, a, a + n)
    else:  # wraps past the ring's start
        want = shapely.line_merge(
            shapely.MultiLineString(
                [substring(line, a, length), substring(line, 0, a + n - length)]
            )
        )
    assert shapely.hausdorff_distance(got, want) < 1e-6


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**16), n_vertices=st.integers(3, 30))
def test_project_matches_geos_locate(seed, n_vertices):
    from posting.boundary import project, ring_vertices

    rng = np.random.default_rng(seed)
    ang = np.sort(rng.uniform(0, 2 * np.pi, n_vertices))
    rad = rng.uniform(100, 500, n_vertices)
    poly = shapely.Polygon(np.column_stack([rad * np.cos(ang), rad * np.sin(ang)]))
    if not poly.is_valid or poly.area == 0:
        return
    rings = rings_of(np.array([poly])).geometry
    xy = rng.uniform(-600, 600, (50, 2))
    pos, dist = project(
        ring_vertices(rings), rings, np.zeros(50, dtype=np.int64), xy[:, 0], xy[:, 1]
    )
    pts = shapely.points(xy)
    assert dist == pytest.approx(shapely.distance(pts, rings[0]), abs=1e-6)
    want = shapely.line_locate_point(rings[0], pts)
    # where two segments are equally near the position may differ; the point found is as near
    on = shapely.line_interpolate_point(rings[0], pos)
    assert shapely.distance(on, pts) == pytest.approx(dist, abs=1e-6)
    diff = np.abs(pos - want)
    diff = np.minimum(diff, rings[0].length - diff)  # 0 and the ring's length are one place
    assert (diff < 1e-6).mean() > 0.9


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**16), scale=st.sampled_from([1e-3, 1.0, 1e6]))
def test_locate_is_geos_line_locate_point_to_the_bit(seed, scale):
    """The numpy walk of the ring gives the very floats GEOS gives: for random points, points
    on vertices and on segments, points equally far from two segments (GEOS takes the first
    along the ring), on rings of many pieces, with repeated vertices (zero-length segments),
    and far from the origin (state-plane feet) or in tiny units."""
    from posting.boundary import locate, ring_vertices

    rng = np.random.default_rng(seed)
    polys = [p for p in _shapes(rng) if p.is_valid]
    # a ring with a repeated vertex, and a square whose centre is equally far from all sides
    polys.append(shapely.Polygon([(0, -300), (100, -300), (100, -300), (100, -200), (0, -200)]))
    polys.append(shapely.box(-300, -300, -200, -200))
    rings = rings_of(np.array(polys, dtype=object)).geometry
    origin = rng.uniform(-1, 1, 2) * (1e7 if scale == 1e6 else 0.0)
    rings = shapely.transform(rings, lambda c: c * scale + origin)
    coords = shapely.get_coordinates(rings)
    n = 400
    ring = rng.integers(0, len(rings), n)
    box = shapely.bounds(rings[ring])
    u = rng.uniform(-0.2, 1.2, (n, 2))
    xy = np.column_stack(
        [
            box[:, 0] + u[:, 0] * (box[:, 2] - box[:, 0]),
            box[:, 1] + u[:, 1] * (box[:, 3] - box[:, 1]),
        ]
    )
    on_vertex = coords[rng.integers(0, len(coords), 100)]
    on_line = shapely.get_coordinates(
        shapely.line_interpolate_point(rings[ring[:100]], rng.uniform(0, 1, 100), normalized=True)
    )
    centre = np.array([[-250.0, -250.0]]) * scale + origin
    xy = np.vstack([xy, on_vertex, on_line, centre])
    ring = np.r_[ring, rng.integers(0, len(rings), 100), ring[:100], len(rings) - 1]
    # and an empty ring, and a closed line of one point
    rings = np.r_[rings, shapely.LinearRing(), shapely.LineString([(0, 0), (0, 0)])]
    xy = np.vstack([xy, [[1.0, 1.0], [1.0, 1.0]]])
    ring = np.r_[ring, len(rings) - 2, len(rings) - 1]
    got = locate(ring_vertices(rings), ring, xy[:, 0], xy[:, 1])
    want = shapely.line_locate_point(rings[ring], shapely.points(xy))
    assert got.tobytes() == want.tobytes()
    # a point with a NaN coordinate (GEOS refuses it) between two that are found
    v = ring_vertices(rings)
    got = locate(v, ring[:3], np.r_[xy[0, 0], np.nan, xy[2, 0]], xy[:3, 1])
    assert got.tolist() == [want[0], -1.0, want[2]]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16), side=st.sampled_from(["left", "right"]))
def test_ring_search_is_searchsorted_in_each_ring(seed, side):
    """The first vertex at or past a position along a ring (``np.searchsorted`` in that ring's
    own positions): after a ring 10 million ft long, where the table's global key rounds away
    the difference between positions a nanofoot apart, with repeated vertices, at vertices
    exactly, before the start and past the end."""
    from posting.boundary import _ring_search, ring_vertices

    rng = np.random.default_rng(seed)
    fine = np.cumsum(rng.choice([0.0, 1e-9, 2e-9, 1.0], 40))  # positions a hair apart
    rings = np.array(
        [
            shapely.get_exterior_ring(shapely.box(0, 0, 2.5e6, 2.5e6)),
            shapely.LinearRing([*np.column_stack([fine, np.zeros(40)]).tolist(), (0, 5)]),
            *rings_of(np.array([p for p in _shapes(rng) if p.is_valid], dtype=object)).geometry,
        ]
    )
    v = ring_vertices(rings)
    ring = rng.integers(0, len(rings), 600)
    s = rng.uniform(-0.1, 1.1, 600) * v.length[ring]
    k = v.start[ring] + rng.integers(0, 1 << 20, 600) % v.count[ring]
    s[::2] = v.s[k[::2]]  # exactly at a vertex
    got = _ring_search(v, ring, s, side)
    want = [
        v.start[r] + np.searchsorted(v.s[v.start[r] : v.start[r] + v.count[r]], x, side)
        for r, x in zip(ring, s, strict=True)
    ]
    assert got.tolist() == want


def test_project_on_many_points_and_mixed_rings_matches_geos():
    """Small rings (numpy) and large ones (GEOS) mixed in one call: every point's distance as
    GEOS measures it, in input order."""
    from posting.boundary import project, ring_vertices

    n = 60_000
    small = shapely.box(0, 0, 300, 200)
    big = shapely.Point(1000, 0).buffer(250, quad_segs=16)  # 64 vertices: the GEOS path
    rings = rings_of(np.array([small, big])).geometry
    rng = np.random.default_rng(7)
    ring = rng.integers(0, 2, n)
    cx = np.where(ring == 0, 150.0, 1000.0)
    x, y = cx + rng.uniform(-400, 400, n), rng.uniform(-400, 400, n)
    pos, dist = project(ring_vertices(rings), rings, ring, x, y)
    want = shapely.distance(shapely.points(x, y), rings[ring])
    np.testing.assert_allclose(dist, want, atol=1e-6)
    on = shapely.line_interpolate_point(rings[ring], pos)
    np.testing.assert_allclose(shapely.distance(on, shapely.points(x, y)), want, atol=1e-6)


def _shapes(rng):
    """Parcels a grid join and a segment search can get wrong: an L (a reflex corner), a
    wiggly star of many segments (several pieces), a square with a hole, two parts, and a
    side with collinear vertices."""
    n = int(rng.integers(20, 70))
    ang = np.linspace(0, 2 * np.pi, n, endpoint=False)
    rad = rng.uniform(150, 300, n)
    star = shapely.Polygon(np.column_stack([rad * np.cos(ang), rad * np.sin(ang)]))
    return [
        shapely.Polygon([(400, 0), (700, 0), (700, 100), (500, 100), (500, 300), (400, 300)]),
        star,
        shapely.Polygon(
            [(0, 400), (300, 400), (300, 700), (0, 700)],
            [[(100, 500), (100, 600), (200, 600), (200, 500)]],
        ),
        shapely.MultiPolygon([shapely.box(400, 400, 500, 500), shapely.box(550, 400, 650, 500)]),
        shapely.Polygon(
            [(800, 0), (850, 0.001), (900, 0), (950, 0.0), (1000, 0), (1000, 100), (800, 100)]
        ),
    ]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16), tol=st.floats(0.5, 60.0))
def test_near_rings_matches_geos(seed, tol):
    """Every ring within the distance, its distance and nearest position, and the side, as
    GEOS finds them point by point."""
    from posting.boundary import near_rings, ring_vertices

    rng = np.random.default_rng(seed)
    polys = [p for p in _shapes(rng) if p.is_valid]
    r = rings_of(np.array(polys, dtype=object))
    rings = r.geometry
    coords = shapely.get_coordinates(rings)
    # random points, points near vertices in every direction, points on the lines
    k = rng.integers(0, len(coords), 150)
    ang = rng.uniform(0, 2 * np.pi, 150)
    off = rng.uniform(0, 1.5 * tol, 150)
    xy = np.vstack(
        [
            rng.uniform(-350, 1100, (150, 2)),
            coords[k] + off[:, None] * np.column_stack([np.cos(ang), np.sin(ang)]),
            shapely.get_coordinates(
                shapely.line_interpolate_point(
                    rings[rng.integers(0, len(rings), 30)], rng.uniform(0, 1, 30), normalized=True
                )
            ),
        ]
    )
    near = near_rings(ring_vertices(rings), np.arange(len(rings)), xy[:, 0], xy[:, 1], tol)
    pts = shapely.points(xy)
    d_all = shapely.distance(pts[:, None], rings[None, :])
    got = set(zip(near.point.tolist(), near.ring.tolist(), strict=True))
    assert len(got) == len(near.point)
    clear = np.abs(d_all - tol) > 1e-6
    want = {(i, j) for i, j in zip(*np.nonzero((d_all <= tol) & clear), strict=True)}
    assert {(i, j) for i, j in got if clear[i, j]} == want
    p, j = near.point, near.ring
    np.testing.assert_allclose(near.distance_ft, d_all[p, j], atol=1e-7)
    on = shapely.line_interpolate_point(rings[j], near.position_ft)
    np.testing.assert_allclose(shapely.distance(on, pts[p]), d_all[p, j], atol=1e-6)
    # side: +1 where the point is on the parcel's side of that ring (or on it), -1 where not
    inside_ring = shapely.intersects(shapely.polygons(rings[j]), pts[p])
    parcel_side = np.where(r.hole[j] == 0, inside_ring, ~inside_ring) | (near.distance_ft == 0)
    decided = near.side != 0
    assert (near.side[decided] == np.where(parcel_side, 1, -1)[decided]).all()
    # undecided (left to GEOS) only for points on a line or its extension, within 1e-6 ft:
    # never for the random points off the lines
    assert decided[(near.distance_ft > 1e-5) & (near.point < 300)].all()


def test_near_rings_side_at_a_vertex_on_a_straight_line():
    """A point square off a vertex where a straight side bends by a hair (a convex vertex,
    as digitised lines have) is inside. In floating point the nearest segment ends at the
    vertex; "convex vertex, so outside" would be wrong: the point is left of both lines (found
    on the Williamsburg layer)."""
    from posting.boundary import near_rings, ring_vertices

    poly = shapely.Polygon([(0, 0), (50, -1e-9), (100, 0), (100, 100), (0, 100)])
    rings = rings_of(np.array([poly])).geometry
    x, y = np.array([50.0 + 1e-8, 50.0, 50.0]), np.array([3.0, -3.0, -1e-9])  # the last on it
    near = near_rings(ring_vertices(rings), np.array([0]), x, y, 10)
    assert near.side.tolist() == [1, -1, 1]
    assert near.distance_ft.tolist() == pytest.approx([3.0, 3.0, 0.0], abs=1e-8)


def test_parts_match_shapelys_get_parts():
    """The fast split (Polygons kept whole) against shapely's own, on a mix of every kind."""
    from posting.boundary import _parts

    a, b = square(10), square(10, x0=50)
    mixed = np.array(
        [
            a,
            None,
            shapely.MultiPolygon([a, b]),
            shapely.Polygon(),
            shapely.MultiPolygon(),
            b,
            shapely.MultiPolygon([b]),
            a,
        ],
        dtype=object,
    )
    for polys in (mixed, mixed[[0, 5, 7]], mixed[[1, 3]], mixed[:0]):
        want, want_of = shapely.get_parts(polys, return_index=True)
        got, got_of = _parts(polys)
        assert got_of.tolist() == want_of.tolist()
        assert shapely.equals_exact(got, want, tolerance=0).all()
        assert (shapely.is_empty(got) == shapely.is_empty(want)).all()


def test_near_rings_at_a_repeated_vertex():
    """A ring with a vertex repeated (a segment of no length): the points nearest to it are
    measured to the vertex (t = 0 on the empty segment, no NaN), worked out by hand."""
    from posting.boundary import near_rings, ring_vertices

    ring = shapely.linearrings([(0, 0), (100, 0), (100, 100), (100, 100), (0, 100)])
    x, y = np.array([105.0, 50.0, 100.0]), np.array([105.0, 98.0, 100.0])
    near = near_rings(ring_vertices(np.array([ring])), np.array([0]), x, y, 10.0)
    order = np.argsort(near.point)
    assert near.point[order].tolist() == [0, 1, 2]
    np.testing.assert_array_equal(near.distance_ft[order], [np.sqrt(50.0), 2.0, 0.0])
    np.testing.assert_array_equal(near.position_ft[order], [200.0, 250.0, 200.0])
    # beside the repeated vertex the side is not told (0: left to GEOS), on the line it is +1
    assert near.side[order].tolist() == [0, 1, 1]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16))
def test_vertex_tables_taken_and_joined_are_those_made_from_the_rings(seed):
    """A partition's rings are taken from and joined to other tables: their vertex table taken
    or joined the same way is, to the bit, the table made afresh from those rings (a ring's
    vertices, arc positions and length do not depend on its neighbours; the sort keys do and
    are made anew), empty and degenerate rings included."""
    from dataclasses import fields

    from posting.boundary import ring_vertices, vertices_concat, vertices_take

    rng = np.random.default_rng(seed)
    polys = [p for p in _shapes(rng) if p.is_valid]
    rings = rings_of(np.array(polys, dtype=object)).geometry
    rings = np.r_[rings, shapely.LinearRing(), shapely.LineString([(0, 0), (0, 0)])]
    rings = shapely.transform(rings, lambda c: c * 3.7 + 1e6)

    def same(a, b):
        for f in fields(a):
            x, y = getattr(a, f.name), getattr(b, f.name)
            assert x.shape == y.shape and x.dtype == y.dtype, f.name
            assert x.tobytes() == y.tobytes(), f.name

    whole = ring_vertices(rings)
    idx = rng.permutation(len(rings))[: rng.integers(0, len(rings) + 1)]
    same(vertices_take(whole, idx), ring_vertices(rings[idx]))
    cut = int(rng.integers(0, len(rings) + 1))
    parts = [ring_vertices(rings[:cut]), ring_vertices(rings[cut:])]
    same(vertices_concat(parts), whole)
