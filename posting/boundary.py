"""Boundary rings, positions along them, corner detection and boundary stretches (vectorised).

Every ring of every parcel, exterior or interior, of every part of a multipolygon, is a
boundary to post. Rings are oriented so that the parcel lies to the **left** of the direction of
travel (exteriors counter-clockwise, holes clockwise): the outward normal is to the right.

All geometry here is in working feet (see :mod:`posting.crs`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import shapely

from posting.index import BoxGrid, exclusive_cumsum, expand_counts
from posting.parallel import pmap

__all__ = [
    "Corners",
    "RingIndex",
    "Rings",
    "arc_overlap_ft",
    "find_corners",
    "interpolate",
    "interpolate_at",
    "locate",
    "near_rings",
    "outward_normals",
    "project",
    "ring_stretches",
    "ring_vertices",
    "rings_of",
    "stretch_start_ft",
    "vertices_concat",
    "vertices_take",
]


@dataclass(frozen=True)
class Rings:
    """All boundary rings of a set of polygons.

    Attributes
    ----------
    geometry
        LinearRings, parcel to the left.
    parcel
        Index of the polygon each ring belongs to.
    part
        0-based polygon part within its (multi)polygon.
    hole
        0 for a part's exterior ring, k > 0 for its k-th hole.
    length_ft
        Ring length.
    """

    geometry: np.ndarray
    parcel: np.ndarray
    part: np.ndarray
    hole: np.ndarray
    length_ft: np.ndarray

    def __len__(self) -> int:
        return len(self.geometry)


def _position_in_group(group: np.ndarray) -> np.ndarray:
    """0-based position of each element within its run of equal (sorted) group labels."""
    n = len(group)
    if n == 0:
        return np.empty(0, dtype=np.int64)
    starts = np.r_[0, np.flatnonzero(np.diff(group)) + 1]
    first = np.repeat(starts, np.diff(np.r_[starts, n]))
    return np.arange(n) - first


def rings_of(polygons: np.ndarray) -> Rings:
    """Split polygons (or multipolygons) into oriented boundary rings.

    Parameters
    ----------
    polygons
        Valid Polygon or MultiPolygon geometries in working feet; None or empty ones have
        no rings.

    Examples
    --------
    >>> square_with_hole = shapely.Polygon(
    ...     [(0, 0), (100, 0), (100, 100), (0, 100)], [[(40, 40), (60, 40), (60, 60), (40, 60)]]
    ... )
    >>> r = rings_of(np.array([square_with_hole]))
    >>> r.length_ft.tolist(), r.hole.tolist()
    ([400.0, 80.0], [0, 1])
    """
    polygons = np.asarray(polygons, dtype=object)
    # parcel by parcel, so in chunks of parcels on all cores
    return Rings(*pmap(_ring_rows, polygons, np.arange(len(polygons))))


def _ring_rows(polygons: np.ndarray, ids: np.ndarray) -> tuple[np.ndarray, ...]:
    """The columns of :class:`Rings` for ``polygons`` (numbered ``ids``)."""
    polygons = shapely.orient_polygons(polygons, exterior_cw=False)
    parts, parcel_of_part = _parts(polygons)
    part_no = _position_in_group(parcel_of_part)
    rings, part_of_ring = shapely.get_rings(parts, return_index=True)
    hole = _position_in_group(part_of_ring)
    return (
        rings,
        ids[parcel_of_part[part_of_ring]].astype(np.int64),
        part_no[part_of_ring].astype(np.int64),
        hole.astype(np.int64),
        shapely.length(rings),
    )


def _parts(polygons: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``shapely.get_parts(polygons, return_index=True)``, without copying the Polygons (most
    parcels), which are their own one part: only MultiPolygons (and others) are split.

    >>> a, b = shapely.box(0, 0, 1, 1), shapely.box(2, 0, 3, 1)
    >>> parts, of = _parts(np.array([a, None, shapely.MultiPolygon([a, b]), b]))
    >>> shapely.equals_exact(parts, [a, a, b, b]).tolist(), of.tolist()
    ([True, True, True, True], [0, 2, 2, 3])
    """
    single = shapely.get_type_id(polygons) == 3
    if single.all():
        return polygons, np.arange(len(polygons))
    other = np.flatnonzero(~single)
    split, of_split = shapely.get_parts(polygons[other], return_index=True)
    of = np.concatenate([np.flatnonzero(single), other[of_split]])
    order = np.argsort(of, kind="stable")  # a MultiPolygon's parts stay in their order
    return np.concatenate([polygons[single], split])[order], of[order]


@dataclass(frozen=True)
class _Vertices:
    """Ring vertices without the closing repeat, grouped by ring in order."""

    xy: np.ndarray
    ring: np.ndarray
    s: np.ndarray  # arc position of each vertex from the ring's start
    start: np.ndarray  # index of each ring's first vertex (per ring, len = n rings)
    count: np.ndarray  # vertices per ring
    length: np.ndarray  # ring length (per ring)
    key: np.ndarray  # strictly increasing sort key: base[ring] + s
    base: np.ndarray  # per ring offset of `key`


def _vertex_rows(
    rings: np.ndarray, ids: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Vertices of ``rings`` (numbered ``ids``): xy, ring id, arc position; per ring: count,
    length."""
    coords, idx = shapely.get_coordinates(rings, return_index=True)
    n_rings = len(rings)
    count_closed = np.bincount(idx, minlength=n_rings)
    last = np.cumsum(count_closed) - 1
    keep = np.ones(len(coords), dtype=bool)
    keep[last[count_closed > 0]] = False
    xy, ring = coords[keep], idx[keep]
    count = np.bincount(ring, minlength=n_rings)
    start = exclusive_cumsum(count)
    # each kept vertex's segment runs to the next coordinate: the ring's closing repeat of its
    # first vertex after its last one (rings are closed exactly)
    step = np.diff(coords, axis=0)[keep[:-1]] if len(coords) else coords
    seg = np.hypot(step[:, 0], step[:, 1])
    s = _ring_cumsum(seg, start, count)
    # (float even when no ring has a vertex: numpy's bincount of nothing gives integers)
    length = np.bincount(ring, weights=seg, minlength=n_rings).astype(float, copy=False)
    return xy, ids[ring], s, count, length


def _ring_cumsum(seg: np.ndarray, start: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Arc position of each vertex from its ring's start: each ring's segments summed in order
    from zero, so that a ring's positions are the same floats whatever rings come before it (a
    partition of a layer, a chunk of another size); a vertex at a corner and a marker placed on
    it compare equal in every run. One step per vertex rank, over the rings that long.

    >>> _ring_cumsum(np.array([1.0, 2.0, 3.0, 4.0, 5.0]), np.array([0, 3]), np.array([3, 2]))
    array([0., 1., 3., 0., 4.])
    """
    s = np.zeros(len(seg))
    if not len(seg):
        return s
    by_count = np.argsort(-count, kind="stable")
    longest = count[by_count]
    for k in range(1, int(longest[0])):
        rings = by_count[: np.searchsorted(-longest, -k, side="left")]  # more than k vertices
        i = start[rings] + k
        s[i] = s[i - 1] + seg[i - 1]
    return s


def _vertices(rings: np.ndarray) -> _Vertices:
    # ring by ring, so in chunks of rings on all cores
    xy, ring, s, count, length = pmap(_vertex_rows, rings, np.arange(len(rings)))
    start = exclusive_cumsum(count)
    base = np.r_[0.0, np.cumsum(length + 1.0)[:-1]]
    return _Vertices(xy.reshape(-1, 2), ring, s, start, count, length, base[ring] + s, base)


def ring_vertices(rings: np.ndarray) -> _Vertices:
    """The vertex table of rings (made once; :func:`project` and :func:`_interpolate` use it)."""
    return _vertices(np.asarray(rings, dtype=object))


def _with_rings(xy: np.ndarray, s: np.ndarray, count: np.ndarray, length: np.ndarray) -> _Vertices:
    """A vertex table from its rings' vertices in order (``count`` each) and lengths: the ring
    numbers, starts and sort keys made as :func:`ring_vertices` makes them."""
    ring = np.repeat(np.arange(len(count)), count)
    base = np.r_[0.0, np.cumsum(length + 1.0)[:-1]]
    return _Vertices(xy, ring, s, exclusive_cumsum(count), count, length, base[ring] + s, base)


def vertices_take(v: _Vertices, rings: np.ndarray) -> _Vertices:
    """The vertex table of rings ``rings`` of ``v``, in that order: what :func:`ring_vertices`
    makes of those rings, without reading their geometries again (a ring's vertices, arc
    positions and length do not depend on the rings beside it; the sort keys are made anew).

    >>> square = shapely.LinearRing([(0, 0), (0, 2), (2, 2), (2, 0)])
    >>> corner = shapely.LinearRing([(0, 0), (0, 1), (1, 0)])
    >>> v = vertices_take(ring_vertices(np.array([square, corner])), np.array([1]))
    >>> v.xy.tolist(), v.count.tolist(), v.length.tolist()
    ([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0]], [3], [3.414213562373095])
    >>> v.s.tolist() == v.key.tolist() == [0.0, 1.0, 1.0 + 2**0.5]  # arc positions: 1 + √2
    True
    """
    rings = np.asarray(rings, dtype=np.int64)
    count = v.count[rings]
    item, rank = expand_counts(count)
    rows = v.start[rings][item] + rank
    return _with_rings(v.xy[rows], v.s[rows], count, v.length[rings])


def vertices_concat(tables: list[_Vertices]) -> _Vertices:
    """Vertex tables of several sets of rings as the table of all their rings, in that order
    (what :func:`ring_vertices` makes of the rings concatenated)."""
    return _with_rings(
        np.concatenate([v.xy for v in tables]).reshape(-1, 2),
        np.concatenate([v.s for v in tables]),
        np.concatenate([v.count for v in tables]),
        np.concatenate([v.length for v in tables]),
    )


SMALL_RING = 8
"""Rings of at most this many vertices (rectangles, most lots) are projected onto with numpy."""


def project(
    v: _Vertices, rings: np.ndarray, ring: np.ndarray, x: np.ndarray, y: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Arc position of the nearest point of ``rings[ring]`` to each point, and the distance.

    The numpy equivalent of ``shapely.line_locate_point`` followed by a distance: on small
    rings every segment is tried at once (ties go to the first segment along the ring, as in
    GEOS); larger rings go to GEOS, one call for all of them.

    Examples
    --------
    >>> sq = shapely.get_exterior_ring(shapely.box(0, 0, 100, 100))  # starts at (100, 0)
    >>> rings = np.array([sq])
    >>> pos, dist = project(ring_vertices(rings), rings, np.array([0, 0]), np.array([105.0, 50.0]),
    ...                     np.array([50.0, 97.0]))
    >>> pos.tolist(), dist.tolist()
    ([50.0, 150.0], [5.0, 3.0])
    """
    ring = np.asarray(ring, dtype=np.int64)
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    pos = np.empty(len(ring))
    dist = np.empty(len(ring))
    cnt = v.count[ring]
    small = np.flatnonzero((cnt <= SMALL_RING) & (cnt >= 2))
    if len(small):
        r, c = ring[small], cnt[small]
        rep = np.repeat(np.arange(len(small)), c)
        starts = np.r_[0, np.cumsum(c)[:-1]]
        k = np.arange(len(rep)) - starts[rep]
        a = v.start[r][rep] + k
        b = np.where(k + 1 < c[rep], a + 1, v.start[r][rep])
        ax, ay = v.xy[a, 0], v.xy[a, 1]
        dx, dy = v.xy[b, 0] - ax, v.xy[b, 1] - ay
        px, py = x[small][rep] - ax, y[small][rep] - ay
        seg2 = dx * dx + dy * dy
        t = np.clip(
            np.divide(px * dx + py * dy, seg2, out=np.zeros_like(seg2), where=seg2 > 0), 0.0, 1.0
        )
        ex, ey = px - t * dx, py - t * dy
        d2 = ex * ex + ey * ey
        low = np.minimum.reduceat(d2, starts)
        hit = np.flatnonzero(d2 == low[rep])
        first = hit[np.r_[True, np.diff(rep[hit]) != 0]]  # first nearest segment of each
        p = v.s[a[first]] + t[first] * np.sqrt(seg2[first])
        pos[small] = np.where(p >= v.length[r], 0.0, p)  # the ring's end is its start
        dist[small] = np.sqrt(low)
    big = np.setdiff1d(np.arange(len(ring)), small, assume_unique=True)
    if len(big):
        pts = shapely.points(x[big], y[big])
        pos[big] = shapely.line_locate_point(rings[ring[big]], pts)
        qx, qy = interpolate_at(v, ring[big], pos[big])
        dist[big] = np.hypot(qx - x[big], qy - y[big])
    return pos, dist


PIECE = 8
"""Segments per piece of ring in :func:`near_rings`: a long curved ring is indexed in pieces.
Smaller pieces have tighter boxes, so fewer segments are measured for a point that a box holds:
8 rather than 16 took the assignment of the real-shapes county (``make_real_county.py``) from
13.8 s to 13.1 s of CPU in one thread (medians of 3 interleaved runs on a busy machine; the whole
check 2 % less), the benchmark county's the same, and made the same assignment on both."""

_CHUNK = 16_384
"""Points per block in :func:`near_rings` (bounds the memory of the segment arrays)."""


@dataclass(frozen=True)
class Near:
    """Rings within a distance of points (see :func:`near_rings`): one row per (point, ring), in
    no particular order.

    ``side`` is +1 when the point is on the parcel side of the ring at its nearest point (or on
    the line), -1 on the other side, 0 when that cannot be told safely from the coordinates (the
    point is within 1e-6 ft of the line's extension, or a degenerate vertex is nearest).
    """

    point: np.ndarray
    ring: np.ndarray
    distance_ft: np.ndarray
    position_ft: np.ndarray
    side: np.ndarray


def _concat(outs: list[tuple[np.ndarray, ...]]) -> tuple[np.ndarray, ...]:
    if not outs:
        i = np.empty(0, dtype=np.int64)
        e = np.empty(0)
        return i, i, e, e, np.empty(0, dtype=np.int8)
    return tuple(np.concatenate(c) for c in zip(*outs, strict=True))


def _first_min(values: np.ndarray, starts: np.ndarray, group: np.ndarray) -> np.ndarray:
    """Index of the first smallest value in each run ``values[starts[i]:starts[i + 1]]``.

    NaN (a squared distance that overflowed: inf - inf) counts as larger than any number, so
    every run has its one index, and a run of NaN alone does not shift the runs after it.

    >>> _first_min(np.array([3.0, 1.0, 1.0, np.nan, np.nan, 2.0]), np.array([0, 3, 4]),
    ...            np.array([0, 0, 0, 1, 2, 2])).tolist()
    [1, 3, 5]
    """
    low = np.minimum.reduceat(values, starts)
    if np.isnan(low).any():  # np.minimum propagates NaN: only then is a copy needed
        values = np.where(np.isnan(values), np.inf, values)
        low = np.minimum.reduceat(values, starts)
    hit = np.flatnonzero(values == low[group])
    return hit[np.r_[True, np.diff(group[hit]) != 0]]


class RingIndex:
    """Rings ready to be asked which of them lie within ``distance_ft`` of given points.

    The rings are cut into pieces of :data:`PIECE` segments, and the pieces' boxes, grown by
    the distance, are placed on a grid (:class:`posting.index.BoxGrid`). Made once; asked with
    :meth:`near`.

    Parameters
    ----------
    v
        The vertex table of all rings (:func:`ring_vertices`).
    ring_ids
        The rings to consider.
    distance_ft
        Largest distance.
    """

    def __init__(self, v: _Vertices, ring_ids: np.ndarray, distance_ft: float) -> None:
        ring_ids = np.asarray(ring_ids, dtype=np.int64)
        cnt = v.count[ring_ids]
        use = cnt >= 2
        ring_ids, cnt = ring_ids[use], cnt[use]
        n_pieces = -(-cnt // PIECE)
        owner, rank = expand_counts(n_pieces)  # piece -> position in ring_ids, rank in its ring
        p_ring = ring_ids[owner]
        p_first = v.start[p_ring] + rank * PIECE
        p_nseg = np.minimum(PIECE, cnt[owner] - rank * PIECE)
        # segment table: start vertex, direction, squared length, neighbours
        vertex = np.arange(len(v.xy))
        first = v.start[v.ring]
        last = first + v.count[v.ring] - 1
        nxt = vertex + 1  # the next vertex, the ring's first after its last
        wrap = np.flatnonzero(vertex == last)
        nxt[wrap] = first[wrap]
        prv = vertex - 1  # the previous vertex, the ring's last before its first
        wrap = np.flatnonzero(vertex == first)
        prv[wrap] = last[wrap]
        sx, sy = np.ascontiguousarray(v.xy[:, 0]), np.ascontiguousarray(v.xy[:, 1])
        dx, dy = sx[nxt] - sx, sy[nxt] - sy
        seg2 = dx * dx + dy * dy
        # piece boxes, grown by the distance
        starts = exclusive_cumsum(p_nseg)
        a = np.repeat(p_first - starts, p_nseg)  # each piece's segments: its first's onwards
        a += np.arange(len(a))
        b = nxt[a]
        bounds = []
        for c in (sx, sy):  # each segment's least and greatest coordinate, then each piece's
            lo, hi = c[a], c[b]
            least = np.minimum(lo, hi)
            np.maximum(lo, hi, out=hi)
            del lo
            bounds.append(np.minimum.reduceat(least, starts) if len(a) else a * 0.0)
            del least
            bounds.append(np.maximum.reduceat(hi, starts) if len(a) else a * 0.0)
            del hi
        del a, b
        bx0, bx1, by0, by1 = bounds
        d = float(distance_ft)
        grid = BoxGrid(np.column_stack([bx0 - d, by0 - d, bx1 + d, by1 + d]))
        self.v, self.distance_ft = v, d
        self.p_ring, self.p_first, self.p_nseg, self.grid = p_ring, p_first, p_nseg, grid
        self.sx, self.sy, self.dx, self.dy, self.seg2 = sx, sy, dx, dy, seg2
        self.nxt, self.prv = nxt, prv

    def near(self, x: np.ndarray, y: np.ndarray) -> Near:
        """Every ring within the distance of each point, with where and which side.

        The nearest point of each candidate segment is computed with numpy; the arc position
        is the one ``shapely.line_locate_point`` gives (on a tie, the first segment along the
        ring). No Point geometry is made, and blocks of points run on all cores.
        """
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        return Near(*pmap(self._block, np.arange(len(x)), x, y))

    def _nearest_piece(
        self,
        point: np.ndarray,
        ring: np.ndarray,
        dist: np.ndarray,
        pos: np.ndarray,
        side: np.ndarray,
        seg: np.ndarray,
    ) -> tuple[np.ndarray, ...]:
        """A ring of several pieces: its nearest piece for each point (ties: first segment); the
        columns of :class:`Near`."""
        multi = np.flatnonzero(self.v.count[ring] > PIECE)
        if len(multi):
            # only the (point, ring) pairs found in several pieces are sorted (most are in one)
            pair = point[multi] * len(self.v.count) + ring[multi]
            by_pair = np.argsort(pair, kind="stable")
            same = pair[by_pair][1:] == pair[by_pair][:-1]
            several = by_pair[np.r_[same, False] | np.r_[False, same]]
            multi, pair = multi[several], pair[several]
            order = multi[np.lexsort((seg[multi], dist[multi], pair))]
            p_, r_ = point[order], ring[order]
            dup = order[1:][(p_[1:] == p_[:-1]) & (r_[1:] == r_[:-1])]
            keep = np.ones(len(point), dtype=bool)
            keep[dup] = False
            point, ring, dist, pos, side = (a[keep] for a in (point, ring, dist, pos, side))
        return point, ring, dist, pos, side

    def _block(
        self, idx: np.ndarray, px_all: np.ndarray, py_all: np.ndarray
    ) -> tuple[np.ndarray, ...]:
        outs = []
        for lo in range(0, len(idx), _CHUNK):
            px_, py_ = px_all[lo : lo + _CHUNK], py_all[lo : lo + _CHUNK]
            pt, pc = self.grid.query(px_, py_)
            # a point is in one block: its rings' pieces are settled here, on small arrays
            rows = self._nearest_piece(*self._rows(px_, py_, pt, pc))
            outs.append((idx[lo : lo + _CHUNK][rows[0]], *rows[1:]))
        return _concat(outs)

    def _rows(
        self, px_: np.ndarray, py_: np.ndarray, pt: np.ndarray, pc: np.ndarray
    ) -> tuple[np.ndarray, ...]:
        """The nearest point of each (point, piece) pair's piece, where within the distance:
        point, ring, distance, arc position, side, segment."""
        v, p_ring, p_first, p_nseg = self.v, self.p_ring, self.p_first, self.p_nseg
        sx, sy, dx, dy, seg2 = self.sx, self.sy, self.dx, self.dy, self.seg2
        nxt, prv = self.nxt, self.prv
        lim2 = self.distance_ft**2
        # every segment of each candidate piece whose box, grown by the distance (and a margin
        # far above rounding), holds the point: no other can be within the distance, so the
        # nearest of those within it, and its tie order, are the same as among all (a fifth
        # less time on the real-shapes county's 2.0 million markers)
        grow = self.distance_ft * (1 + 1e-9) + 1e-9
        ns = p_nseg[pc]
        starts = exclusive_cumsum(ns)
        s = np.repeat(p_first[pc] - starts, ns)
        s += np.arange(len(s))
        qx = np.repeat(px_[pt], ns)
        qx -= sx[s]
        qy = np.repeat(py_[pt], ns)
        qy -= sy[s]
        ddx, ddy = dx[s], dy[s]
        inside = (qx >= np.minimum(ddx, 0.0) - grow) & (qx <= np.maximum(ddx, 0.0) + grow)
        inside &= qy >= np.minimum(ddy, 0.0) - grow
        inside &= qy <= np.maximum(ddy, 0.0) + grow
        k = np.flatnonzero(inside)
        del inside
        pair = np.repeat(np.arange(len(pc)), ns)[k]
        s, qx, qy, ddx, ddy = s[k], qx[k], qy[k], ddx[k], ddy[k]
        l2 = seg2[s]
        new = np.r_[True, pair[1:] != pair[:-1]] if len(pair) else np.empty(0, dtype=bool)
        starts = np.flatnonzero(new)  # each (point, piece) pair's run of segments left
        group = np.cumsum(new) - 1
        pair = pair[starts]
        # (the same operations on the same floats as ``t = (qx dx + qy dy) / l2`` (0 where l2
        # is not > 0), ``ex = qx - t dx`` and ``d2 = ex ex + ey ey``, in place where a
        # temporary can be reused)
        t = qx * ddx
        ex = qy * ddy
        t += ex
        some = l2 > 0
        np.divide(t, l2, out=t, where=some)
        if not some.all():  # a segment of no length (or of overflowed length): t = 0
            t[~some] = 0.0
        np.clip(t, 0.0, 1.0, out=t)
        np.multiply(t, ddx, out=ex)
        np.subtract(qx, ex, out=ex)
        ey = t * ddy
        np.subtract(qy, ey, out=ey)
        d2 = ex * ex
        d2 += np.multiply(ey, ey, out=l2)
        first = _first_min(d2, starts, group) if len(group) else group
        close = d2[first] <= lim2
        bp, bs = pair[close], first[close]  # per (point, piece): best segment
        sb, tb = s[bs], t[bs]
        cross = ddx[bs] * qy[bs] - ddy[bs] * qx[bs]
        length = np.sqrt(seg2[sb])
        perp = np.divide(cross, length, out=np.zeros_like(cross), where=length > 0)
        dist = np.sqrt(d2[bs])
        side = np.where(np.abs(perp) < 1e-6, 0, np.sign(perp)).astype(np.int8)
        # at a vertex: which side of the two lines meeting there (the point lies in the
        # parcel's wedge: left of both lines at a convex vertex, of either at a reflex one)
        at_vertex = np.flatnonzero((tb <= 0.0) | (tb >= 1.0))
        if len(at_vertex):
            vert = np.where(tb[at_vertex] >= 1.0, nxt[sb[at_vertex]], sb[at_vertex])
            ux, uy = ex[bs[at_vertex]], ey[bs[at_vertex]]  # from the vertex to the point
            pin = prv[vert]
            len_in, len_out = np.sqrt(seg2[pin]), np.sqrt(seg2[vert])
            with np.errstate(invalid="ignore", divide="ignore"):
                c_in = (dx[pin] * uy - dy[pin] * ux) / len_in
                c_out = (dx[vert] * uy - dy[vert] * ux) / len_out
            turn = dx[pin] * dy[vert] - dy[pin] * dx[vert]
            clear = (np.abs(c_in) >= 1e-6) & (np.abs(c_out) >= 1e-6)  # NaN: degenerate
            agree = clear & (np.sign(c_in) == np.sign(c_out))
            wedge = np.where(turn > 0, -1, 1)  # signs differ: out at convex, in at reflex
            side[at_vertex] = np.where(
                agree, np.sign(c_in), np.where(clear & (turn != 0), wedge, 0)
            ).astype(np.int8)
        side[dist == 0] = 1
        r = p_ring[pc[bp]]
        pos = v.s[sb] + tb * length
        pos = np.where(pos >= v.length[r], 0.0, pos)
        return pt[bp], r, dist, pos, side, sb


def near_rings(
    v: _Vertices,
    ring_ids: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    distance_ft: float,
) -> Near:
    """Every ring of ``ring_ids`` within ``distance_ft`` of each point, with where and which side.

    The rings are cut into pieces of :data:`PIECE` segments; the points are joined to the
    pieces' boxes (grown by the distance) on a grid (:class:`posting.index.BoxGrid`), and the
    nearest point of each candidate segment is computed with numpy. The arc position is the one
    ``shapely.line_locate_point`` gives: on a tie, the first segment along the ring. No Point
    geometry is made, and blocks of points run on all cores.

    Parameters
    ----------
    v
        The vertex table of all rings (:func:`ring_vertices`).
    ring_ids
        The rings to consider.
    x, y
        Points, in the rings' frame.
    distance_ft
        Largest distance.

    Examples
    --------
    >>> sq = shapely.get_exterior_ring(shapely.box(0, 0, 100, 100))  # starts at (100, 0)
    >>> near = near_rings(ring_vertices(np.array([sq])), np.array([0]), np.array([105.0, 50.0]),
    ...                   np.array([50.0, 97.0]), 10.0)
    >>> near.point.tolist(), near.distance_ft.tolist(), near.position_ft.tolist()
    ([0, 1], [5.0, 3.0], [50.0, 150.0])
    >>> near.side.tolist()  # outside, inside
    [-1, 1]
    """
    return RingIndex(v, ring_ids, distance_ft).near(x, y)


def _ring_search(v: _Vertices, ring: np.ndarray, s: np.ndarray, side: str) -> np.ndarray:
    """For each (ring, arc position): the index of the first vertex of the ring whose position
    is past ``s`` (``side="right"``) or at or past it (``"left"``), or the ring's end; what
    ``np.searchsorted(v.key, v.base[ring] + s, side)`` gives, but compared exactly within the
    ring (adding ``base`` rounds positions by the length of every ring before).

    That one ``searchsorted`` is the guess; where the ring's own positions on either side of
    it do not bear it out exactly (positions closer than the rounding), the ring is searched
    on its own (:func:`posting.index.search_slices`).

    >>> v = ring_vertices(np.array([shapely.get_exterior_ring(shapely.box(0, 0, 10, 10))] * 2))
    >>> at = np.array([10.0])
    >>> [_ring_search(v, np.array([1]), at, side).tolist() for side in ("left", "right")]
    [[5], [6]]
    """
    from posting.index import search_slices

    ring = np.asarray(ring, dtype=np.int64)
    s = np.asarray(s, dtype=float)
    lo = v.start[ring].astype(np.int64)
    hi = lo + v.count[ring]
    if not len(v.s):
        return lo
    j = np.clip(np.searchsorted(v.key, v.base[ring] + s, side=side), lo, hi)
    last = len(v.s) - 1
    before = v.s[np.clip(j - 1, 0, last)]
    at = v.s[np.minimum(j, last)]
    if side == "right":  # every position before j at or before s, the one at j past it
        exact = ((j == lo) | (before <= s)) & ((j == hi) | (at > s))
    else:  # every position before j before s, the one at j at or past it
        exact = ((j == lo) | (before < s)) & ((j == hi) | (at >= s))
    redo = np.flatnonzero(~exact)
    if len(redo):
        j[redo] = search_slices(v.s, lo[redo], hi[redo], s[redo], side)
    return j


def interpolate_at(v: _Vertices, ring: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points at arc positions ``s`` along rings (wrapping), from their vertex table (see
    :func:`ring_vertices`): the numpy equivalent of ``shapely.line_interpolate_point``."""
    ring = np.asarray(ring, dtype=np.int64)
    length = v.length[ring]
    s = np.where(length > 0, np.mod(np.asarray(s, dtype=float), np.where(length > 0, length, 1)), 0)
    first = v.start[ring]
    last = first + np.maximum(v.count[ring], 1) - 1
    j = np.clip(_ring_search(v, ring, s, "right") - 1, first, last)
    nxt = np.where(j < last, j + 1, first)
    s_next = np.where(j < last, v.s[np.minimum(j + 1, len(v.s) - 1)], length)
    seg = s_next - v.s[j]
    t = np.divide(s - v.s[j], seg, out=np.zeros_like(seg), where=seg > 0)
    x = v.xy[j, 0] + t * (v.xy[nxt, 0] - v.xy[j, 0])
    y = v.xy[j, 1] + t * (v.xy[nxt, 1] - v.xy[j, 1])
    return x, y


def interpolate(
    rings: np.ndarray, ring: np.ndarray, position_ft: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """x and y of the points at ``position_ft`` along ``rings[ring]`` (wrapping past the end).

    Examples
    --------
    >>> sq = shapely.get_exterior_ring(shapely.box(0, 0, 100, 100))  # starts at (100, 0)
    >>> x, y = interpolate(np.array([sq]), np.array([0, 0, 0]), np.array([50.0, 250.0, 430.0]))
    >>> x.tolist(), y.tolist()
    ([100.0, 0.0, 100.0], [50.0, 50.0, 30.0])
    """
    rings = np.asarray(rings, dtype=object)
    used, inverse = np.unique(np.asarray(ring, dtype=np.int64), return_inverse=True)
    return interpolate_at(_vertices(rings[used]), inverse, position_ft)


@dataclass(frozen=True)
class Corners:
    """Corners found on rings.

    Attributes
    ----------
    ring
        Index of the ring each corner is on.
    position_ft
        Arc position along the (original) ring from its start.
    x, y
        The corner point on the ring, in working feet.
    turn_deg
        Signed turning angle of the corner (positive: turning left, a convex corner of an
        exterior ring).
    """

    ring: np.ndarray
    position_ft: np.ndarray
    x: np.ndarray
    y: np.ndarray
    turn_deg: np.ndarray

    def __len__(self) -> int:
        return len(self.ring)


# One function on purpose (128 lines): one vectorised pass over every ring's vertex table,
# each step refining the arrays the previous made (turns, merged turns, positions); see the
# docstring for the steps.
def find_corners(
    rings: np.ndarray,
    *,
    angle_deg: float = 30.0,
    noise_ft: float = 1.0,
    merge_ft: float = 20.0,
    vertices: _Vertices | None = None,
) -> Corners:
    """Find the corners of boundary rings.

    1. Digitising noise is removed by simplifying each ring (Douglas-Peucker, keeping the
       ring valid) with tolerance ``noise_ft``.
    2. At each remaining vertex the turning angle is measured, and also the total turning
       within ``merge_ft`` of boundary centred on it (a window sum, so that a chamfer, two 45°
       bends ten feet apart, turns 90° in one window).
    3. A vertex is a corner vertex when either turn reaches ``angle_deg``. Corner vertices
       within ``merge_ft`` of each other along the ring are one corner, placed at their
       turn-weighted centre. A smooth curve of radius R turns ``merge_ft / R`` radians per
       window, so only curves tighter than ``merge_ft / angle`` (38 ft with the defaults)
       count as corners; a curve made of many small bends is not a row of corners.

    Parameters
    ----------
    rings
        LinearRings (or closed LineStrings) in working feet.
    angle_deg
        Smallest turn that makes a corner.
    noise_ft
        Simplification tolerance.
    merge_ft
        Boundary length within which turning adds up to one corner.
    vertices
        The rings' vertex table, when the caller has it (:func:`ring_vertices`).

    Examples
    --------
    >>> square = shapely.get_exterior_ring(shapely.box(0, 0, 100, 100))
    >>> c = find_corners(np.array([square]))
    >>> sorted(zip(c.x.round(6).tolist(), c.y.round(6).tolist()))
    [(0.0, 0.0), (0.0, 100.0), (100.0, 0.0), (100.0, 100.0)]
    """
    rings = np.asarray(rings, dtype=object)
    empty = Corners(*(np.empty(0, dtype=t) for t in (np.int64, float, float, float, float)))
    if len(rings) == 0:
        return empty
    # Douglas-Peucker without topology preservation: only the vertices matter here, and a
    # ring it collapses falls back to the original below.
    simple = pmap(shapely.simplify, rings, noise_ft, preserve_topology=False)
    if noise_ft <= 0:  # Douglas-Peucker with a tolerance drops repeated points itself
        simple = shapely.remove_repeated_points(simple, 0.0)
    degenerate = np.flatnonzero(
        (shapely.get_num_coordinates(simple) < 4) | shapely.is_empty(simple)
    )
    if len(degenerate):
        simple = simple.copy()
        simple[degenerate] = shapely.remove_repeated_points(rings[degenerate], 0.0)
    v = _vertices(simple)
    if len(v.xy) == 0:
        return empty
    count = v.count[v.ring]
    local = np.arange(len(v.xy)) - v.start[v.ring]
    prev = v.start[v.ring] + (local - 1) % np.maximum(count, 1)
    nxt = v.start[v.ring] + (local + 1) % np.maximum(count, 1)
    e_in = v.xy - v.xy[prev]
    e_out = v.xy[nxt] - v.xy
    delta = np.arctan2(e_out[:, 1], e_out[:, 0]) - np.arctan2(e_in[:, 1], e_in[:, 0])
    delta = (delta + np.pi) % (2 * np.pi) - np.pi
    delta[count < 3] = 0.0

    # Total turning within [s - h, s + h] along the ring, wrapping around its start.
    prefix = np.r_[0.0, np.cumsum(delta)]
    total = np.bincount(v.ring, weights=delta, minlength=len(rings))
    length = v.length[v.ring]
    h = np.minimum(merge_ft / 2.0, 0.499 * length)

    def cumulative(t: np.ndarray, side: str) -> np.ndarray:
        laps = np.floor(t / np.where(length > 0, length, 1.0))
        u = t - laps * length
        j = np.searchsorted(v.key, v.base[v.ring] + u, side=side)
        return laps * total[v.ring] + prefix[j] - prefix[v.start[v.ring]]

    window = cumulative(v.s + h, "right") - cumulative(v.s - h, "left")
    # "at least" the angle: a bend of exactly 30 degrees computes as a hair under it
    theta = np.radians(angle_deg) * (1 - 1e-9)
    cand = np.flatnonzero((np.abs(delta) >= theta) | (np.abs(window) >= theta))
    if len(cand) == 0:
        return empty

    c_ring = v.ring[cand]
    c_s = v.s[cand].copy()
    new_run = np.r_[True, (np.diff(c_ring) != 0) | (np.diff(c_s) > merge_ft)]
    run = np.cumsum(new_run) - 1
    # A run that wraps past the ring's start joins the ring's first run.
    ring_first = np.r_[True, np.diff(c_ring) != 0]
    ring_last = np.r_[np.diff(c_ring) != 0, True]
    firsts, lasts = np.flatnonzero(ring_first), np.flatnonzero(ring_last)
    wrap = (run[firsts] != run[lasts]) & (
        c_s[firsts] + v.length[c_ring[firsts]] - c_s[lasts] <= merge_ft
    )
    is_tail = np.zeros(run[-1] + 1, dtype=bool)
    is_tail[run[lasts[wrap]]] = True
    remap = np.arange(run[-1] + 1)
    remap[run[lasts[wrap]]] = run[firsts[wrap]]
    tail = is_tail[run]
    c_s[tail] -= v.length[c_ring[tail]]
    _, run = np.unique(remap[run], return_inverse=True)
    weight = np.abs(delta[cand]) + 1e-9
    wsum = np.bincount(run, weights=weight)
    centre = np.bincount(run, weights=weight * c_s) / wsum
    corner_ring = np.zeros(len(wsum), dtype=np.int64)
    corner_ring[run] = c_ring
    turn = np.bincount(run, weights=delta[cand])
    centre = np.mod(centre, v.length[corner_ring])

    # Place each corner on the original ring, near the simplified corner.
    # Place each corner on the original ring. Where simplifying removed no vertex (most rings:
    # rectangles), the simplified ring is the original and so are the arc positions.
    x, y = interpolate_at(v, corner_ring, centre)
    position = centre.copy()
    changed = shapely.get_num_coordinates(simple) != shapely.get_num_coordinates(rings)
    moved = np.flatnonzero(changed[corner_ring])
    if len(moved):
        on = corner_ring[moved]
        if vertices is None:  # the table of the rings the corners moved on
            used, on = np.unique(on, return_inverse=True)
            vertices = _vertices(rings[used])
        position[moved] = locate(vertices, on, x[moved], y[moved])
        x[moved], y[moved] = interpolate_at(vertices, on, position[moved])
    return Corners(ring=corner_ring, position_ft=position, x=x, y=y, turn_deg=np.degrees(turn))


LOCATE_CHUNK = 8_192
"""Points located at a time by :func:`locate` (its arrays stay in cache: on the real-shapes
county's 505,160 moved corners, 8,192 took 0.47 s of CPU, 32,768 0.70 s, all at once 1.9 s)."""


def locate(v: _Vertices, ring: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``shapely.line_locate_point`` of the points ``(x, y)`` on the rings ``ring`` of the
    vertex table ``v``, the same floats, without making a Point or asking GEOS.

    GEOS (``LengthIndexOfPoint``) walks the ring's segments, takes the first whose distance to
    the point is the smallest, and measures the point's projection on it from the ring's start
    by the lengths of the segments before it, added one by one. This does the same arithmetic,
    operation for operation (:func:`_geos_segment_distance`), on the segments that can be the
    nearest: the ring's pieces of :data:`PIECE` segments are ruled out by their boxes against
    the nearest segment of the nearest box, with a margin far above rounding, so the segments
    left hold every one whose distance can equal the smallest. As in GEOS, a point on an empty
    ring is at NaN; a point with a NaN coordinate (which GEOS refuses) is at -1.

    Examples
    --------
    >>> sq = shapely.get_exterior_ring(shapely.box(0, 0, 100, 100))  # starts at (100, 0)
    >>> locate(ring_vertices(np.array([sq])), np.array([0, 0]), np.array([105.0, 50.0]),
    ...        np.array([50.0, 97.0])).tolist()
    [50.0, 150.0]
    """
    ring = np.asarray(ring, dtype=np.int64)
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    out = np.full(len(ring), np.nan)  # an empty ring has no position (GEOS: NaN)
    has = np.flatnonzero(v.count[ring] > 0)
    if not len(has):
        return out
    used, inv = np.unique(ring[has], return_inverse=True)
    cnt = v.count[used]
    # the segments of the rings asked about, each ring's in order (the last closes it)
    seg_start = exclusive_cumsum(cnt)
    sr, k = expand_counts(cnt)
    a = v.start[used][sr] + k
    b = np.where(k + 1 < cnt[sr], a + 1, v.start[used][sr])
    ax, ay = v.xy[a, 0], v.xy[a, 1]
    bx, by = v.xy[b, 0], v.xy[b, 1]
    dx, dy = bx - ax, by - ay
    seg_len = np.sqrt(dx * dx + dy * dy)  # GEOS's LineSegment::getLength
    start_ft = _ring_cumsum(seg_len, seg_start, cnt)  # added one by one from the ring's start
    del dx, dy, seg_len, sr, k, a, b  # the blocks work these out again for the few they need
    # pieces of PIECE segments and their boxes
    n_pieces = -(-cnt // PIECE)
    p_ring, rank = expand_counts(n_pieces)
    p_first = seg_start[p_ring] + rank * PIECE
    p_nseg = np.minimum(PIECE, cnt[p_ring] - rank * PIECE)
    p_x0 = np.minimum.reduceat(np.minimum(ax, bx), p_first)
    p_x1 = np.maximum.reduceat(np.maximum(ax, bx), p_first)
    p_y0 = np.minimum.reduceat(np.minimum(ay, by), p_first)
    p_y1 = np.maximum.reduceat(np.maximum(ay, by), p_first)
    # rounding in a distance is a few units in the last place of the coordinates: the margin
    # is a millionth of a foot plus a billionth of the ring's largest coordinate
    big = np.maximum(np.maximum(np.abs(p_x0), np.abs(p_x1)), np.maximum(np.abs(p_y0), np.abs(p_y1)))
    ring_big = np.maximum.reduceat(big, exclusive_cumsum(n_pieces))
    piece_start = exclusive_cumsum(n_pieces)
    segs = (ax, ay, bx, by, start_ft)
    pieces = (p_first, p_nseg, p_x0, p_y0, p_x1, p_y1)
    # in chunks of points on all cores (the tables, in tuples, are shared)
    first, n, big_ = piece_start[inv], n_pieces[inv], ring_big[inv]
    out[has] = pmap(_locate_blocks, first, n, big_, x[has], y[has], segs, pieces)
    return out


def _locate_blocks(
    first_piece: np.ndarray,
    n_pieces: np.ndarray,
    ring_big: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    segs: tuple[np.ndarray, ...],
    pieces: tuple[np.ndarray, ...],
) -> np.ndarray:
    """:func:`_locate_block` :data:`LOCATE_CHUNK` points at a time."""
    out = np.empty(len(x))
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for lo in range(0, len(x), LOCATE_CHUNK):
            sl = slice(lo, lo + LOCATE_CHUNK)
            out[sl] = _locate_block(
                segs, pieces, first_piece[sl], n_pieces[sl], ring_big[sl], x[sl], y[sl]
            )
    return out


def _locate_block(
    segs: tuple[np.ndarray, ...],
    pieces: tuple[np.ndarray, ...],
    first_piece: np.ndarray,
    n_pieces: np.ndarray,
    ring_big: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
) -> np.ndarray:
    """:func:`locate` for a block of points, each on its ring's pieces
    ``first_piece[i] : first_piece[i] + n_pieces[i]``."""
    ax, ay, bx, by, start_ft = segs
    p_first, p_nseg, p_x0, p_y0, p_x1, p_y1 = pieces
    out = np.full(len(x), -1.0)
    # every (point, piece) of its ring, and the distance from the point to the piece's box
    pt, k = expand_counts(n_pieces)
    pc = first_piece[pt] + k
    qx, qy = x[pt], y[pt]
    gx = np.maximum(np.maximum(p_x0[pc] - qx, qx - p_x1[pc]), 0.0)
    gy = np.maximum(np.maximum(p_y0[pc] - qy, qy - p_y1[pc]), 0.0)
    box2 = gx * gx + gy * gy
    # the nearest segment of the nearest box: an upper bound of the smallest distance
    best = pc[_first_min(box2, exclusive_cumsum(n_pieces), pt)]
    sp, sk = expand_counts(p_nseg[best])
    sg = p_first[best][sp] + sk
    ex, ey = x[sp] - ax[sg], y[sp] - ay[sg]
    dx, dy = bx[sg] - ax[sg], by[sg] - ay[sg]
    l2 = dx * dx + dy * dy
    t = np.clip((ex * dx + ey * dy) / l2, 0.0, 1.0)
    t[~(l2 > 0)] = 0.0
    ex -= t * dx
    ey -= t * dy
    d2 = ex * ex + ey * ey
    d2[np.isnan(d2)] = np.inf
    upper = np.sqrt(np.minimum.reduceat(d2, exclusive_cumsum(p_nseg[best])))
    reach = upper + 1e-6 + 1e-9 * (upper + ring_big)
    reach2 = reach * reach
    # every segment, of a piece within reach, whose own box is within reach: GEOS's distances
    near = np.flatnonzero(box2 <= reach2[pt])
    sp, sk = expand_counts(p_nseg[pc[near]])
    sg = p_first[pc[near]][sp] + sk
    sp = pt[near][sp]
    qx, qy = x[sp], y[sp]
    sax, say, sbx, sby = ax[sg], ay[sg], bx[sg], by[sg]
    gx = np.maximum(np.maximum(np.minimum(sax, sbx) - qx, qx - np.maximum(sax, sbx)), 0.0)
    gy = np.maximum(np.maximum(np.minimum(say, sby) - qy, qy - np.maximum(say, sby)), 0.0)
    keep = np.flatnonzero(gx * gx + gy * gy <= reach2[sp])
    sp, sg, qx, qy = sp[keep], sg[keep], qx[keep], qy[keep]
    sax, say, sbx, sby = sax[keep], say[keep], sbx[keep], sby[keep]
    dist, r = _geos_segment_distance(qx, qy, sax, say, sbx, sby)
    if not len(sp):
        return out
    # the first nearest along the ring (segments are in ring order within a point)
    new_point = np.r_[True, sp[1:] != sp[:-1]]
    first = _first_min(dist, np.flatnonzero(new_point), np.cumsum(new_point) - 1)
    sp, sg, r = sp[first], sg[first], r[first]
    # GEOS's LineSegment::projectionFactor: exactly 0 or 1 at the segment's ends
    at_a = (qx[first] == sax[first]) & (qy[first] == say[first])
    at_b = (qx[first] == sbx[first]) & (qy[first] == sby[first])
    factor = np.where(at_a, 0.0, np.where(at_b, 1.0, r))
    dx, dy = bx[sg] - ax[sg], by[sg] - ay[sg]
    s0, length = start_ft[sg], np.sqrt(dx * dx + dy * dy)
    pos = np.where(factor <= 0.0, s0, np.where(factor <= 1.0, s0 + factor * length, s0 + length))
    found = dist[first] < np.finfo(float).max  # GEOS takes a distance below DBL_MAX (not NaN)
    out[sp[found]] = pos[found]
    return out


def _geos_segment_distance(
    px: np.ndarray, py: np.ndarray, ax: np.ndarray, ay: np.ndarray, bx: np.ndarray, by: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The distance from points to segments as GEOS's ``Distance::pointToSegment`` computes it
    (the same operations in the same order, so the same floats), and the projection factor
    ``r`` along the segment it computes on the way.

    >>> d, r = _geos_segment_distance(np.array([5.0, -3.0]), np.array([4.0, 4.0]),
    ...                               np.zeros(2), np.zeros(2), np.full(2, 10.0), np.zeros(2))
    >>> d.tolist(), r.tolist()
    ([4.0, 5.0], [0.5, -0.3])
    """
    dx, dy = bx - ax, by - ay
    len2 = dx * dx + dy * dy
    r = ((px - ax) * dx + (py - ay) * dy) / len2
    s = ((ay - py) * dx - (ax - px) * dy) / len2
    to_a = np.sqrt((px - ax) * (px - ax) + (py - ay) * (py - ay))
    to_b = np.sqrt((px - bx) * (px - bx) + (py - by) * (py - by))
    d = np.where(r <= 0.0, to_a, np.where(r >= 1.0, to_b, np.abs(s) * np.sqrt(len2)))
    return np.where((ax == bx) & (ay == by), to_a, d), r


def arc_overlap_ft(
    ring_length_ft: np.ndarray,
    ring: np.ndarray,
    start_ft: np.ndarray,
    length_ft: np.ndarray,
    on_ring: np.ndarray,
    on_start_ft: np.ndarray,
    on_length_ft: np.ndarray,
) -> np.ndarray:
    """How much of each stretch (``ring``, ``start_ft``, ``length_ft``: forward along its ring,
    wrapping past its start) lies on the other stretches of its ring (``on_*``: such as those
    formed by water), as intervals of arc position round the ring; at most its length.

    Examples
    --------
    A 400 ft ring with water from 350 ft on for 100 ft (across its start): a gap from 300 ft
    to 20 ft past the start has 70 ft of it along the water.

    >>> arc_overlap_ft(np.array([400.0]), np.array([0]), np.array([300.0]), np.array([120.0]),
    ...                np.array([0]), np.array([350.0]), np.array([100.0]))
    array([70.])
    """
    out = np.zeros(len(ring))
    gaps = pd.DataFrame({"ring": ring, "a": start_ft, "la": length_ft, "i": np.arange(len(ring))})
    stretches = pd.DataFrame({"ring": on_ring, "b": on_start_ft, "lb": on_length_ft})
    pairs = gaps.merge(stretches, on="ring")  # each stretch with the others of its ring
    if not len(pairs):
        return out
    length = ring_length_ft[pairs["ring"].to_numpy()]
    a, la = pairs["a"].to_numpy(), pairs["la"].to_numpy()
    b, lb = pairs["b"].to_numpy(), pairs["lb"].to_numpy()
    both = np.zeros(len(pairs))
    for k in (-1.0, 0.0, 1.0):  # the other a lap back, as it is, a lap on
        lo = np.maximum(a, b + k * length)
        hi = np.minimum(a + la, b + lb + k * length)
        both += np.maximum(hi - lo, 0.0)
    np.add.at(out, pairs["i"].to_numpy(), both)
    return np.minimum(out, np.asarray(length_ft, dtype=float))


def stretch_start_ft(
    rings: Rings, ring: np.ndarray, geometry: np.ndarray, length_ft: np.ndarray
) -> np.ndarray:
    """Where each stretch of boundary (a line along its ring, such as a stretch formed by
    water) starts along its ring: the arc position from which it runs forward ``length_ft``.

    A stretch merged from pieces may be drawn either way along its ring; it starts at the end
    from which the ring runs its length to the other. A closed stretch (a ring wholly along
    it) starts at the ring's start.

    Parameters
    ----------
    rings
        All rings (their geometry and length).
    ring
        For each stretch, the index of its ring.
    geometry
        The stretches (LineStrings in working feet, on their rings).
    length_ft
        Length of each stretch.

    Examples
    --------
    A square's ring runs anticlockwise from (100, 0), so (0, 50) is 250 ft along it; a stretch
    drawn from (50, 0) back to (0, 50) starts there all the same:

    >>> rings = rings_of(np.array([shapely.box(0, 0, 100, 100)]))
    >>> back = shapely.LineString([(50, 0), (0, 0), (0, 50)])
    >>> stretch_start_ft(rings, np.array([0]), np.array([back]), np.array([100.0]))
    array([250.])
    """
    on = rings.geometry[ring]
    ends = [shapely.line_locate_point(on, shapely.get_point(geometry, k)) for k in (0, -1)]
    ring_ft = rings.length_ft[ring]
    ahead = np.mod(ends[1] - ends[0], ring_ft)
    behind = np.mod(ends[0] - ends[1], ring_ft)
    forward = np.abs(ahead - length_ft) <= np.abs(behind - length_ft)
    start = np.where(forward, ends[0], ends[1])
    return np.where(shapely.is_closed(geometry), 0.0, start)


def ring_stretches(
    rings: np.ndarray,
    ring: np.ndarray,
    start_ft: np.ndarray,
    length_ft: np.ndarray,
    *,
    vertices: _Vertices | None = None,
) -> np.ndarray:
    """Stretches of boundary as LineStrings, following the ring (wrapping past its start).

    Parameters
    ----------
    rings
        All rings (LinearRings in working feet).
    ring
        For each stretch, the index of its ring.
    start_ft
        Arc position where the stretch starts, in ``[0, ring length)``.
    length_ft
        Length of each stretch along the ring, at most the ring's length.
    vertices
        The vertex table of ``rings``, when the caller has it (:func:`ring_vertices`).

    Examples
    --------
    >>> sq = shapely.get_exterior_ring(shapely.box(0, 0, 100, 100))  # starts at (100, 0)
    >>> ring_stretches(np.array([sq]), np.array([0]), np.array([350.0]), np.array([100.0]))[0].wkt
    'LINESTRING (50 0, 100 0, 100 50)'
    """
    rings = np.asarray(rings, dtype=object)
    ring = np.asarray(ring, dtype=np.int64)
    n = len(ring)
    if n == 0:
        return np.empty(0, dtype=object)
    v = _vertices(rings) if vertices is None else vertices
    length = v.length[ring]
    a = np.asarray(start_ft, dtype=float)
    b = a + np.asarray(length_ft, dtype=float)
    # a stretch the ring's whole length ends where it starts, however its length was rounded
    # (the ring's and the vertex table's lengths may differ in the last bits)
    whole = np.abs(b - a - length) <= 1e-9 * np.maximum(length, 1.0)
    b = np.where(whole, a + length, b)
    ring_start = v.start[ring]
    # Vertices strictly inside (a, b): first lap up to the ring's end, then from its start.
    lo0 = _ring_search(v, ring, a, "right")
    hi0 = _ring_search(v, ring, np.minimum(b, length), "left")
    n0 = np.maximum(hi0 - lo0, 0)
    hi1 = _ring_search(v, ring, b - length, "left")
    n1 = np.where(b > length, np.maximum(hi1 - ring_start, 0), 0)
    total = 2 + n0 + n1
    out_start = np.r_[0, np.cumsum(total)[:-1]]
    coords = np.empty((int(total.sum()), 2))
    coords[out_start] = np.column_stack(interpolate_at(v, ring, a))
    coords[out_start + total - 1] = np.column_stack(
        interpolate_at(v, ring, np.where(b >= length, b - length, b))
    )
    # First lap
    g0 = np.repeat(np.arange(n), n0)
    k0 = np.arange(len(g0)) - np.repeat(np.r_[0, np.cumsum(n0)[:-1]], n0)
    coords[out_start[g0] + 1 + k0] = v.xy[lo0[g0] + k0]
    # Second lap (the closing vertex counts as the ring's first vertex again)
    g1 = np.repeat(np.arange(n), n1)
    k1 = np.arange(len(g1)) - np.repeat(np.r_[0, np.cumsum(n1)[:-1]], n1)
    coords[out_start[g1] + 1 + n0[g1] + k1] = v.xy[ring_start[g1] + k1]
    return shapely.linestrings(coords, indices=np.repeat(np.arange(n), total))


def _xy(points: np.ndarray) -> np.ndarray:
    return np.column_stack([shapely.get_x(points), shapely.get_y(points)])


def _unit(v: np.ndarray) -> np.ndarray:
    n = np.hypot(v[:, 0], v[:, 1])
    with np.errstate(invalid="ignore", divide="ignore"):
        out = v / n[:, None]
    out[~(n > 1e-12)] = 0.0
    return out


def _left(v: np.ndarray) -> np.ndarray:
    return np.column_stack([-v[:, 1], v[:, 0]])


def frame(
    rings: np.ndarray, length: np.ndarray, ring: np.ndarray, s: np.ndarray, *, chord_ft: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Boundary point, inward direction and forward direction at arc positions ``s``.

    The one definition of which way is in and which way is out at a point of a boundary
    (the facing check's outward normal, the plan's setback and facing). The inward direction
    is the bisector of the left normals of the chords over ``chord_ft`` (at most a quarter of
    the ring) before and after the point: the inward normal on a straight side, the inward
    bisector at a corner (rings keep the parcel to their left); where the boundary doubles
    back on itself, the direction of the spike. Unit vectors, each an (n, 2) array, as is the
    point.

    Examples
    --------
    >>> sq = shapely.get_exterior_ring(shapely.box(0, 0, 100, 100))  # counter-clockwise
    >>> p, inward, forward = frame(np.array([sq]), np.array([400.0]), np.array([0, 0]),
    ...                            np.array([50.0, 100.0]), chord_ft=5.0)
    >>> p.tolist(), np.round(inward, 4).tolist()
    ([[100.0, 50.0], [100.0, 100.0]], [[-1.0, 0.0], [-0.7071, -0.7071]])
    """
    L = length[ring]
    h = np.minimum(chord_ft, L / 4.0)
    g = rings[ring]
    p = _xy(shapely.line_interpolate_point(g, np.mod(s, L)))
    a = _xy(shapely.line_interpolate_point(g, np.mod(s - h, L)))
    b = _xy(shapely.line_interpolate_point(g, np.mod(s + h, L)))
    t_in, t_out = _unit(p - a), _unit(b - p)
    inward = _left(t_in) + _left(t_out)
    spike = np.hypot(inward[:, 0], inward[:, 1]) < 1e-6  # the boundary doubles back
    inward[spike] = (t_out - t_in)[spike]
    return p, _unit(inward), t_out


def outward_normals(
    rings: np.ndarray, ring: np.ndarray, position_ft: np.ndarray, *, step_ft: float = 0.5
) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors pointing out of the parcel at positions along rings: the opposite of
    :func:`frame`'s inward direction, over chords of ``step_ft``.

    Examples
    --------
    >>> sq = shapely.get_exterior_ring(shapely.box(0, 0, 100, 100))  # counter-clockwise
    >>> nx, ny = outward_normals(np.array([sq]), np.array([0, 0]), np.array([50.0, 350.0]))
    >>> (np.round(nx, 6) + 0.0).tolist(), (np.round(ny, 6) + 0.0).tolist()
    ([1.0, 0.0], [0.0, -1.0])
    """
    rings = np.asarray(rings, dtype=object)
    ring = np.asarray(ring, dtype=np.int64)
    s = np.asarray(position_ft, dtype=float)
    _, inward, _ = frame(rings, shapely.length(rings), ring, s, chord_ft=step_ft)
    with np.errstate(invalid="ignore"):
        out = np.where((inward == 0).all(axis=1)[:, None], np.nan, -inward)
    return out[:, 0], out[:, 1]
