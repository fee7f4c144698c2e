"""The land along the boundary: stretches formed by water, covered by fences, inside easements;
dwellings and cover inside parcels. Pure functions on geometry in working feet."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import shapely

from posting.dissolve import dissolve, meeting, overlap, tile

__all__ = [
    "Stretches",
    "boundary_in_zone",
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
