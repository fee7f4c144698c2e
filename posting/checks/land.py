"""The land along the boundary: stretches formed by water, covered by fences, inside easements;
dwellings and cover inside parcels. Pure functions on geometry in working feet."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import shapely

from posting.dissolve import dissolve, meeting, overlap, tile

__all__ = [
    "FENCE_END_FT",
    "FENCE_JOIN_FT",
    "Stretches",
    "boundary_in_zone",
    "fence_zone",
    "points_in_polygons",
    "share_of_area",
    "zone",
]


@dataclass(frozen=True)
class Stretches:
    """Pieces of boundary rings: ``ring``, ``feature`` (index of the zone piece it lies in, -1
    when not meaningful), ``geometry`` (LineStrings in working feet), ``length_ft``."""

    ring: np.ndarray
    feature: np.ndarray
    geometry: np.ndarray
    length_ft: np.ndarray

    def __len__(self) -> int:
        return len(self.ring)

    def total_by(self, owner: np.ndarray, n: int) -> np.ndarray:
        """Total length per group (``owner`` maps each ring to its group)."""
        return np.bincount(owner[self.ring], weights=self.length_ft, minlength=n)


BUFFER_WHOLE_MAX = 100_000
"""The most vertices of a feature :func:`zone` grows whole; larger ones are cut into tiles
(:func:`posting.dissolve.tile`) first."""


def zone(geoms: np.ndarray, tolerance_ft: float, *, around: np.ndarray | None = None) -> np.ndarray:
    """The area within ``tolerance_ft`` of the features (polygons and lines), dissolved into
    disjoint pieces (no length is counted twice).

    With ``around`` (the rings the zone will be asked about), a huge feature's tiles (see
    below) whose box is farther than ``tolerance_ft`` from every box of ``around`` are left
    out (:func:`posting.dissolve.tile`): the zone is the same within ``tolerance_ft`` of
    ``around``, and may lack pieces, or parts of them, beyond.

    Examples
    --------
    >>> z = zone(np.array([shapely.box(0, 0, 10, 10), shapely.LineString([(20, 5), (40, 5)])]), 3)
    >>> len(z), round(float(shapely.area(z).sum()))
    (2, 395)
    """
    geoms = np.asarray(geoms, dtype=object)
    geoms = geoms[~(shapely.is_missing(geoms) | shapely.is_empty(geoms))]
    if len(geoms) == 0:
        return np.empty(0, dtype=object)
    if tolerance_ft <= 0:
        return shapely.get_parts(dissolve(geoms))
    # a huge polygon (a county's water or rights of way as one, holes and all) grown whole
    # costs GEOS a noding of all its edges at once: 28 s for one of 383,000 vertices. Its tiles
    # grown each make the same zone (the union of what each grows to, within the 1 % of the
    # tolerance GEOS simplifies a buffer's input by), in 12 s in all. Smaller ones cost more
    # cut than whole (100 corridors of 2,000 vertices: a check of 27 s, not 22; 6 wetlands of
    # 5,000 to 50,000 cut above 20,000: 8.4-8.8 s, not 7.8-8.6)
    huge = shapely.get_num_coordinates(geoms) > BUFFER_WHOLE_MAX
    if huge.any():
        tiles, _ = tile(geoms[huge], around=around, distance_ft=tolerance_ft)
        geoms = np.concatenate([geoms[~huge], tiles])
    return shapely.get_parts(dissolve(shapely.buffer(geoms, tolerance_ft, quad_segs=4)))


FENCE_JOIN_FT = 1.0
"""How near the end of a fence line must come to another fence line (or its own other end)
to be joined to it: a corner of a fence drawn as two lines, not an end where the fence stops."""

FENCE_END_FT = 1e-3
"""How far short of a free end of a fence line its reach stops (:func:`fence_zone`), as
:data:`posting.checks.EPSILON_FT`: a lot's side that runs through the end, square across the
line (a fence stopping at a corner pin, or ending on the line it meets), lies that far beyond
the reach, not on its edge, where floating point would put it in or out by chance."""


def fence_zone(
    geoms: np.ndarray, reach_ft: float, *, around: np.ndarray | None = None
) -> np.ndarray:
    """The area within ``reach_ft`` of fences, as :func:`zone`, but ending where a fence line
    ends: the reach of a line stops square across each free end (an end that comes within
    :data:`FENCE_JOIN_FT` of no other fence line, nor of its own other end), and is round at
    its bends, round a closed line, and round an end where lines join.

    A fence's reach is how far its line may stand from the boundary it fences. Grown round its
    free ends as well, it stretched 30 ft along the boundary past each, so that an opening of
    up to 80 ft between two fence ends on the line left less than 20 ft unreached: a gate, and
    land with a driveway 79 ft wide and no gate "fenced all round".

    The square end stands :data:`FENCE_END_FT` short of the end, along the line: what lies
    across the end (a side of a lot meeting the fence's line at its end, square) is beyond the
    reach, not on its edge. So a fence that stops at a lot's corner pin fences its own side up
    to the corner, and none of the side that turns square (or wider) away from it; a fence
    that ends on the boundary, square across it, fences none of it. A side that turns back
    along the fence (a corner sharper than square) is within the reach where it runs within
    ``reach_ft`` of the fence, as any line is. The line continued past a free end that comes
    less than ``reach_ft`` after a bend square or wider (a fence drawn on a lot's line round a
    corner pin, stopping a foot on) is beyond the reach of the side before the bend by
    :data:`FENCE_END_FT` (GEOS draws that side's edge along it: :func:`_past_square_ends`), so
    the opening there is open for its width too. A joined end is cut short as well, and
    reached round by its disc alone: a side through the joint, square across the line, lay on
    the edge of the line's flat end for ``reach_ft``. A line drawn twice (the same vertices, either
    way round) is one fence, whose ends are free (each copy's ends lie on the other: joints,
    else). A polygon is the fence round the area it draws: its rings, each a closed line (a
    lot inside it, far from its line, is not within its reach, as it is not within the reach
    of the same fence drawn as a line). Points are grown as :func:`zone` grows them.

    Examples
    --------
    Two fences 50 ft apart end to end along a lot's line: the 50 ft between them is out of
    reach (and the thousandth of a foot short of each end); a ring of fence reaches round.

    >>> z = fence_zone(np.array([shapely.LineString([(0, 0), (100, 0)]),
    ...                          shapely.LineString([(150, 0), (250, 0)])]), 10.0)
    >>> line = shapely.LineString([(-50, 5), (300, 5)])
    >>> round(float(shapely.length(shapely.difference(line, shapely.union_all(z)))), 6)
    150.004
    >>> ring = shapely.box(0, 0, 100, 100).exterior
    >>> round(float(shapely.area(fence_zone(np.array([ring]), 10.0)).sum()))
    7906
    >>> round(float(shapely.area(fence_zone(np.array([shapely.box(0, 0, 100, 100)]), 10.0)).sum()))
    7906
    """
    geoms = np.asarray(geoms, dtype=object)
    geoms = geoms[~(shapely.is_missing(geoms) | shapely.is_empty(geoms))]
    if len(geoms) == 0:
        return np.empty(0, dtype=object)
    parts = shapely.get_parts(geoms)
    parts = parts[~shapely.is_empty(parts)]
    areal = shapely.get_type_id(parts) == 3
    if areal.any():  # a polygon's fence: its rings
        parts = np.concatenate([parts[~areal], shapely.get_rings(parts[areal])])
    is_line = np.isin(shapely.get_type_id(parts), (1, 2))
    if is_line.any():  # a line drawn twice is one fence (its ends join nothing but each other)
        key = shapely.to_wkb(shapely.normalize(parts[is_line]))
        _, first = np.unique(key, return_index=True)
        once = np.zeros(len(parts), dtype=bool)
        once[np.flatnonzero(is_line)[first]] = True
        parts = parts[once | ~is_line]
        is_line = is_line[once | ~is_line]
    grown = [zone(parts[~is_line], reach_ft, around=around)] if (~is_line).any() else []
    if is_line.any():
        at = np.flatnonzero(is_line)
        ln = parts[at]
        closed = shapely.is_closed(ln)
        ends = np.concatenate([shapely.get_point(ln, 0), shapely.get_point(ln, -1)])
        own = np.r_[at, at]
        pi, gi = shapely.STRtree(parts).query(ends, predicate="dwithin", distance=FENCE_JOIN_FT)
        joined = np.zeros(len(ends), dtype=bool)
        joined[pi[gi != own[pi]]] = True  # near another fence
        near_self = shapely.distance(ends[: len(ln)], ends[len(ln) :]) <= FENCE_JOIN_FT
        joined |= np.r_[near_self, near_self]
        joined[np.r_[closed, closed]] = False  # (a closed line is grown round as a ring)
        no = np.zeros(len(ln), dtype=bool)  # (a joined end too: its disc reaches round it)
        short = _shortened(ln, no, no, closed)
        reached = shapely.buffer(short, reach_ft, quad_segs=4, cap_style="flat")
        # the line continued past a free end just after a bend square (or wider): out of the
        # reach of the side before the bend, whose edge GEOS draws along it
        past, slots, fixed, rest = _past_square_ends(
            short, ~joined[: len(ln)] & ~closed, ~joined[len(ln) :] & ~closed, reach_ft
        )
        if len(past):
            once = np.zeros(len(past), dtype=bool)
            once[np.unique(past, return_index=True)[1]] = True
            for now in (once, ~once):  # (a line with two such ends: one slot, then the other)
                reached[past[now]] = shapely.difference(reached[past[now]], slots[now])
            rest = shapely.buffer(rest, reach_ft, quad_segs=4, cap_style="flat")
            reached[fixed] = shapely.union(reached[fixed], rest)
        grown.append(reached)
        if joined.any():
            grown.append(shapely.buffer(ends[joined], reach_ft, quad_segs=4))
    return zone(np.concatenate(grown), 0.0)


SQUARE_COS = 1e-9
"""A bend whose sides' directions have a cosine within this of 0 is square
(:func:`_past_square_ends`): a lot's corner turned off the axes is square to a few 1e-16."""


def _past_square_ends(
    lines: np.ndarray, start_free: np.ndarray, end_free: np.ndarray, reach_ft: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Where a fence line turns square (or wider) less than ``reach_ft`` before a free end:
    per such end, its line (index) and a slot along the line continued past the end
    (``reach_ft`` and :data:`FENCE_JOIN_FT` long, :data:`FENCE_END_FT` either side of it);
    per such line (indices, ascending), the line without the side before each such bend.

    GEOS's flat-ended buffer of such a line draws the edge of the side before the bend (square
    across it, through the bend) along the line continued past its end: a lot's line that runs
    on past where the fence stops (a fence drawn on it round a corner pin and a foot on) lies
    on the edge of the reach, in or out as floating point falls, for up to ``reach_ft`` past
    the bend. Past a free end, the fence's line is open (an opening is open for its width:
    :func:`fence_zone`): the line's reach less the slots, plus the reach of the rest of the
    line (which may reach there as any fence does), leaves it out by :data:`FENCE_END_FT`. A
    side that turns back (a bend sharper than square) runs within the reach, not on its edge:
    left as it is.

    Examples
    --------
    A fence along a lot's line from (0, 0) round the pin at (0, 100), stopping 0.5 ft on:

    >>> line = shapely.LineString([(0, 0), (0, 100), (0.5, 100)])
    >>> ends, slots, fixed, rest = _past_square_ends(
    ...     np.array([line]), np.array([True]), np.array([True]), 30.0)
    >>> ends.tolist(), [round(v, 6) for v in slots[0].bounds], fixed.tolist(), rest[0].wkt
    ([0], [0.5, 99.999, 31.5, 100.001], [0], 'MULTILINESTRING ((0 100, 0.5 100))')
    """
    lines = np.asarray(lines, dtype=object)
    none = np.empty(0, dtype=np.int64), np.empty(0, dtype=object)
    ok = np.flatnonzero(shapely.get_num_coordinates(lines) >= 3)  # (None: 0)
    if not len(ok):
        return *none, *none
    xy, of = shapely.get_coordinates(lines[ok], return_index=True)
    first = np.searchsorted(of, np.arange(len(ok)))
    last = np.r_[first[1:], len(of)] - 1
    ends, slots, cut = [], [], []  # (cut: the first vertex of each side left out)
    for free, end, step in ((start_free, first, 1), (end_free, last, -1)):
        stub = xy[end] - xy[end + step]  # the last side, outward
        side = xy[end + step] - xy[end + 2 * step]  # the side before it, towards the bend
        s, d = np.hypot(*stub.T), np.hypot(*side.T)
        with np.errstate(invalid="ignore", divide="ignore"):
            square_or_wider = (stub * side).sum(axis=1) >= -SQUARE_COS * s * d
        sel = np.flatnonzero(free[ok] & (s > 0) & (d > 0) & (s < reach_ft) & square_or_wider)
        u = stub[sel] / s[sel, None]
        tip = xy[end[sel]] + u * (reach_ft + FENCE_JOIN_FT)
        ray = shapely.linestrings(np.stack([xy[end[sel]], tip], axis=1))
        ends.append(sel)
        slots.append(shapely.buffer(ray, FENCE_END_FT, cap_style="flat"))
        cut.append(np.minimum(end[sel] + step, end[sel] + 2 * step))
    ends_at, slot = np.concatenate(ends), np.concatenate(slots)
    if not len(ends_at):
        return *none, *none
    fixed = np.unique(ends_at)
    # the rest of each line: its vertices in runs, a run ending before each side left out
    gone = np.zeros(len(xy), dtype=bool)  # (vertex i: the side from i to i + 1 left out)
    gone[np.concatenate(cut)] = True
    v = np.flatnonzero(np.isin(of, fixed))
    run = np.cumsum(np.r_[True, gone[v[:-1]] | (of[v[1:]] != of[v[:-1]])])
    two = np.bincount(run)[run] >= 2  # (a run of one vertex is no line)
    v, run = v[two], run[two]
    rest = np.full(len(fixed), shapely.MultiLineString(), dtype=object)
    if len(v):  # (else no side is left: an L of two short sides, both ends free)
        _, run = np.unique(run, return_inverse=True)
        parts = shapely.linestrings(xy[v], indices=run)
        part_line = np.searchsorted(fixed, of[v][np.r_[True, run[1:] != run[:-1]]])
        has = np.unique(part_line)
        rest[has] = shapely.multilinestrings(parts, indices=np.searchsorted(has, part_line))
    return ok[ends_at], slot, ok[fixed], rest


def _shortened(
    lines: np.ndarray, start_joined: np.ndarray, end_joined: np.ndarray, closed: np.ndarray
) -> np.ndarray:
    """``lines`` each made :data:`FENCE_END_FT` shorter, along it, at each end that is not
    joined (nor closed); a line not longer than what it loses is None (it reaches nothing).

    Examples
    --------
    A line's first 0.0005 ft bend: its new start is on the next edge, 0.001 ft along; a line
    of 0.001 ft with two free ends is none.

    >>> lines = np.array([shapely.LineString([(0, 0), (0, 0.0005), (10, 0.0005)]),
    ...                   shapely.LineString([(0, 0), (0.001, 0)])])
    >>> [g if g is None else g.wkt for g in _shortened(lines, np.array([False, False]),
    ...                                                 np.array([True, False]), np.zeros(2, bool))]
    ['LINESTRING (0.0005 0.0005, 10 0.0005)', None]
    """
    start_cut = np.where(np.asarray(start_joined) | closed, 0.0, FENCE_END_FT)
    end_cut = np.where(np.asarray(end_joined) | closed, 0.0, FENCE_END_FT)
    if not (start_cut.any() or end_cut.any()):
        return lines
    xy, of = shapely.get_coordinates(lines, return_index=True)
    step = np.r_[0.0, np.hypot(*np.diff(xy, axis=0).T)]
    first = np.r_[True, of[1:] != of[:-1]]
    step[first] = 0.0
    along = np.cumsum(step)
    along -= along[first][np.cumsum(first) - 1]  # (from each line's start)
    length = np.zeros(len(lines))
    length[of] = along  # (each line's last vertex: its length)
    inside = (along > start_cut[of]) | (start_cut[of] == 0)
    inside &= (along < length[of] - end_cut[of]) | (end_cut[of] == 0)
    cut = start_cut > 0
    head = shapely.get_coordinates(shapely.line_interpolate_point(lines[cut], FENCE_END_FT))
    cut_end = end_cut > 0
    tail = shapely.get_coordinates(shapely.line_interpolate_point(lines[cut_end], -FENCE_END_FT))
    # each line's vertices in order: its new start, the vertices kept, its new end
    rows = np.r_[np.flatnonzero(cut), of[inside], np.flatnonzero(cut_end)]
    pos = np.r_[np.full(cut.sum(), -1.0), along[inside], np.full(cut_end.sum(), np.inf)]
    order = np.lexsort((pos, rows))
    points = np.concatenate([head, xy[inside], tail])[order]
    rows = rows[order]
    out = np.full(len(lines), None, dtype=object)
    keep = length > start_cut + end_cut
    made = np.isin(rows, np.flatnonzero(keep))
    if made.any():
        _, count = np.unique(rows[made], return_counts=True)
        out[keep] = shapely.linestrings(
            points[made], indices=np.repeat(np.arange(keep.sum()), count)
        )
    return out


def boundary_in_zone(
    rings: np.ndarray, pieces: np.ndarray, *, min_length_ft: float = 0.0
) -> Stretches:
    """The stretches of each ring inside the zone pieces, at least ``min_length_ft`` long, in
    order along each ring (by ring, then where each starts): not in the order of the pieces,
    which a union's parts come in, and which a subset of the features (a partition's) changes.

    Big pieces are cut into tiles (:func:`posting.dissolve.tile`) first, but for the rings
    that run along an edge a cut crosses (a lot whose line is a lake's shore, vertex for
    vertex, within 0 ft: :func:`posting.dissolve.along_cuts`), which meet the pieces uncut.

    Examples
    --------
    >>> ring = shapely.get_exterior_ring(shapely.box(0, 0, 100, 100))
    >>> s = boundary_in_zone(np.array([ring]), np.array([shapely.box(-5, 40, 5, 120)]))  # 5 + 60
    >>> s.length_ft.tolist(), s.ring.tolist()
    ([65.0], [0])
    """
    rings = np.asarray(rings, dtype=object)
    pieces = np.asarray(pieces, dtype=object)
    empty = Stretches(
        np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, dtype=object), np.empty(0)
    )
    if len(rings) == 0 or len(pieces) == 0:
        return empty
    # a county-wide river or pipeline is one piece of a hundred thousand vertices; cut into
    # tiles, an intersection costs in the tile's few hundred
    ti, ri, tiles, of = meeting(rings, pieces)
    pi = of[ti]
    order = np.lexsort((ti, pi, ri))  # by ring, then piece, then tile
    ri, pi, ti = ri[order], pi[order], ti[order]
    if len(ri) == 0:
        return empty
    inter = shapely.intersection(rings[ri], tiles[ti])
    parts, owner = shapely.get_parts(inter, return_index=True)
    lines = shapely.get_type_id(parts) == 1
    parts, owner = parts[lines], owner[lines]
    if len(parts) == 0:
        return empty
    # pieces of one ring in one zone piece that meet (across the ring's start, or across a cut
    # between two tiles) are one stretch
    uniq, group = np.unique(ri[owner] * len(pieces) + pi[owner], return_inverse=True)
    first = np.empty(len(uniq), np.int64)
    first[group[::-1]] = owner[::-1]  # a pair of each group: its ring and piece
    tile_of = ti[owner]
    parts = _join_at_cuts(parts, group, tile_of)
    merged = shapely.line_merge(shapely.multilinestrings(parts, indices=group))
    parts2, owner2 = shapely.get_parts(merged, return_index=True)
    pair = first[owner2]
    # a ring wholly in a piece, but in several of its tiles: from its own start, as a ring in
    # one tile comes from GEOS (merged across the cuts, it starts where a part did)
    closed = shapely.is_closed(parts2)
    whole = np.flatnonzero(closed)
    if len(whole):
        own = rings[ri[pair[whole]]]
        at = np.repeat(np.arange(len(whole)), shapely.get_num_coordinates(own))
        parts2[whole] = shapely.linestrings(shapely.get_coordinates(own), indices=at)
    low = np.full(len(uniq), len(tiles))
    np.minimum.at(low, group, tile_of)
    high = np.zeros(len(uniq), np.int64)
    np.maximum.at(high, group, tile_of)
    across = np.flatnonzero((low != high)[owner2] & ~closed)
    if len(across):
        parts2[across] = _without_cut_vertices(parts2[across], rings[ri[pair[across]]])
    length = shapely.length(parts2)
    keep = np.flatnonzero(length >= max(min_length_ft, 1e-9))
    ring, geometry = ri[pair][keep], parts2[keep]
    start = shapely.line_locate_point(rings[ring], shapely.get_point(geometry, 0))
    keep = keep[np.lexsort((length[keep], start, ring))]
    return Stretches(ri[pair][keep], pi[pair][keep], parts2[keep], length[keep])


CUT_SNAP_FT = 1e-6
"""How near two parts of a ring's stretch, one in each tile, must end to be one stretch."""


def _join_at_cuts(parts: np.ndarray, group: np.ndarray, tile_of: np.ndarray) -> np.ndarray:
    """``parts`` (lines) whose ends meet another's of their ``group`` in another tile made to
    end at the same point (one of theirs): where a ring crosses a cut
    between two tiles, the two intersections compute the crossing each on its own, and may
    put it a hair apart, which :func:`shapely.line_merge` would take for a gap.

    Examples
    --------
    >>> a = shapely.LineString([(0, 0), (1, 1e-12)])
    >>> b = shapely.LineString([(1, 0), (2, 0)])
    >>> joined = _join_at_cuts(np.array([a, b]), [0, 0], np.array([0, 1]))
    >>> shapely.line_merge(shapely.multilinestrings(joined)).wkt
    'LINESTRING (0 0, 1 0, 2 0)'
    """
    group = np.asarray(group)
    spans = np.bincount(group)
    cut = np.flatnonzero(spans[group] > 1)  # (a group of one part: nothing to join)
    if len(cut) == 0 or (np.diff(tile_of[cut]) == 0).all():
        return parts
    counts = shapely.get_num_coordinates(parts[cut])
    last = np.cumsum(counts) - 1
    ends = np.r_[last - counts + 1, last]  # each part's first and last vertex
    xy = shapely.get_coordinates(parts[cut])
    points = shapely.points(xy[ends])
    a, b = shapely.STRtree(points).query(points, predicate="dwithin", distance=CUT_SNAP_FT)
    part_of = np.r_[cut, cut]
    same = (group[part_of[a]] == group[part_of[b]]) & (tile_of[part_of[a]] != tile_of[part_of[b]])
    a, b = a[same], b[same]
    if len(a) == 0:
        return parts
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    m = len(points)
    _, label = connected_components(coo_matrix((np.ones(len(a)), (a, b)), shape=(m, m)))
    lead = np.full(m, m)
    np.minimum.at(lead, label, np.arange(m))  # each cluster's first end
    xy[ends] = xy[ends][lead[label]]
    out = parts.copy()
    out[cut] = shapely.set_coordinates(parts[cut].copy(), xy)
    return out


def _without_cut_vertices(lines: np.ndarray, rings: np.ndarray) -> np.ndarray:
    """``lines`` (stretches of ``rings``, one each) without the vertices inside them that are
    not their ring's: where a stretch crosses a cut between tiles, the crossing, which a
    stretch of the piece uncut does not have (its only vertices that are not its ring's are
    where it enters and leaves the piece: its ends).

    Examples
    --------
    >>> ring = shapely.box(0, 0, 10, 10).exterior
    >>> line = shapely.LineString([(10, 2), (10, 5), (10, 10), (6, 10)])
    >>> _without_cut_vertices(np.array([line]), np.array([ring]))[0].wkt
    'LINESTRING (10 2, 10 10, 6 10)'
    """
    xy, at = shapely.get_coordinates(lines, return_index=True)
    count = shapely.get_num_coordinates(lines)
    last = np.cumsum(count) - 1
    end = np.zeros(len(xy), dtype=bool)
    end[last] = end[last - count + 1] = True
    rxy, rat = shapely.get_coordinates(rings, return_index=True)
    mine = pd.MultiIndex.from_arrays([rat, rxy[:, 0], rxy[:, 1]])
    vertex = pd.MultiIndex.from_arrays([at, xy[:, 0], xy[:, 1]]).isin(mine)
    keep = end | vertex
    if keep.all():
        return lines
    return shapely.linestrings(xy[keep], indices=at[keep])


def points_in_polygons(polygons: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Number of the points that fall in each polygon.

    Examples
    --------
    >>> points_in_polygons(np.array([shapely.box(0, 0, 10, 10), shapely.box(20, 0, 30, 10)]),
    ...                    shapely.points([(1, 1), (2, 2), (50, 50)])).tolist()
    [2, 0]
    """
    polygons = np.asarray(polygons, dtype=object)
    out = np.zeros(len(polygons), dtype=np.int64)
    points = np.asarray(points, dtype=object)
    if len(points) == 0 or len(polygons) == 0:
        return out
    tree = shapely.STRtree(points)
    pi, _ = tree.query(polygons, predicate="contains")
    np.add.at(out, pi, 1)
    return out


def share_of_area(polygons: np.ndarray, cover: np.ndarray) -> np.ndarray:
    """Share of each polygon's area that the cover polygons cover (0 to 1).

    A line or a point among the cover (a layer of areas may hold them) covers no land: it is
    left out before the cover is dissolved.

    Examples
    --------
    >>> share_of_area(np.array([shapely.box(0, 0, 10, 10)]),
    ...               np.array([shapely.box(0, 0, 5, 10), shapely.box(4, 0, 6, 10)])).tolist()
    [0.6]
    """
    polygons = np.asarray(polygons, dtype=object)
    out = np.zeros(len(polygons))
    cover = np.asarray(cover, dtype=object)
    cover = cover[(shapely.get_dimensions(cover) == 2) & ~shapely.is_empty(cover)]  # (no land)
    if len(cover) == 0 or len(polygons) == 0:
        return out
    tiles, _ = tile(shapely.get_parts(dissolve(cover)))  # (areas of tiles add up)
    gi, ti = shapely.STRtree(tiles).query(polygons, predicate="intersects")
    covered = np.bincount(gi, weights=overlap(polygons[gi], tiles[ti]), minlength=len(polygons))
    area = shapely.area(polygons)
    np.divide(covered, area, out=out, where=area > 0)
    return np.clip(out, 0.0, 1.0)
