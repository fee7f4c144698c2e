"""A union of geometries that keeps every one of them.

GEOS's unary union (``shapely.union_all``) now and then leaves out an input polygon whole,
for valid inputs: libgeos/geos#965 (open since 2023), #1383 (an empty result). With GEOS
3.14.1 the union of five polygons, one of them a strip of 67 sq ft that touches another at a
corner, came to a polygon without the strip, 67 sq ft short (``tests/test_dissolve.py``): a
water body, a fence's reach or a lot of a merged property so lost would make a verdict false.

:func:`dissolve` checks the union and redoes it with GEOS's snap-rounding overlay on a grid of
:data:`GRID_FT` (which GEOS's authors call fully robust) where it lost something. The check is
cheap (one prepared geometry, one point per input), and a union that lost nothing is the
floating one, to the bit.

:func:`overlap` measures the part of each geometry a piece covers: on the same grid, since
GEOS's floating intersection can fail too, and no cheap check shows it (3.14.1 gave a triangle
that lies within a union's piece, along its long edge, an intersection of two points and a
difference of the whole triangle: a forest lot measured bare). On the grid it costs the same
(the cost is in the piece's edges); a geometry wholly inside its piece is measured whole.

:func:`tile` cuts a union's big pieces (a county's rivers or pipelines dissolved: one piece of
hundreds of thousands of vertices) into tiles of a few hundred: an intersection costs in the
vertices of both its inputs, so a parcel's ring against a whole river costs a thousand times
one against the tile it lies in (a county's easements: 402 s -> 7.5 s).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import shapely

__all__ = [
    "GRID_FT",
    "MAX_TILE_VERTICES",
    "along_cuts",
    "dissolve",
    "meeting",
    "overlap",
    "tile",
]

MAX_TILE_VERTICES = 500
"""The most vertices a tile of :func:`tile` keeps: below it, GEOS's overlay costs little more
than the STRtree's query that finds the tile."""

GRID_FT = 1e-6
"""The grid of the union made again: a millionth of a foot, where coordinates are working feet
(at most about 1e7 ft from the frame's origin, well within a double's 16 digits)."""


def dissolve(geoms: np.ndarray) -> shapely.Geometry:
    """The union of ``geoms`` (None and empty ones are left out), checked: every input's
    interior point (:func:`shapely.point_on_surface`) lies in it, and it is no smaller than
    the largest input; where not, the union on the grid of :data:`GRID_FT`.

    Examples
    --------
    >>> u = dissolve(np.array([shapely.box(0, 0, 2, 1), shapely.box(1, 0, 3, 1), None]))
    >>> u.geom_type, u.area
    ('Polygon', 3.0)
    """
    geoms = np.asarray(geoms, dtype=object)
    geoms = geoms[~(shapely.is_missing(geoms) | shapely.is_empty(geoms))]
    union = shapely.union_all(geoms)
    if not len(geoms) or _keeps(union, geoms):
        return union
    # (as in overlap: GEOS's divide-by-zero flag on an edge of no length, numpy's warning)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return shapely.union_all(geoms, grid_size=GRID_FT)


def _keeps(union: shapely.Geometry, geoms: np.ndarray) -> bool:
    """Whether ``union`` holds a point of each of ``geoms`` and is as large as the largest."""
    area = shapely.area(geoms)
    if shapely.area(union) < area.max() * (1 - 1e-9):
        return False
    shapely.prepare(union)
    return bool(shapely.intersects(union, shapely.point_on_surface(geoms)).all())


def overlap(geoms: np.ndarray, pieces: np.ndarray, measure=shapely.area) -> np.ndarray:
    """The ``measure`` (:func:`shapely.area` or :func:`shapely.length`) of each of ``geoms``
    that the matching one of ``pieces`` covers, pair by pair: whole where it lies inside the
    piece, else the measure of the intersection on the grid of :data:`GRID_FT`.

    Examples
    --------
    >>> overlap(np.array([shapely.box(0, 0, 2, 1)] * 2),
    ...         np.array([shapely.box(1, 0, 5, 5), shapely.box(-1, -1, 3, 3)])).tolist()
    [1.0, 2.0]
    """
    geoms = np.asarray(geoms, dtype=object)
    pieces = np.asarray(pieces, dtype=object)
    out = measure(geoms)
    shapely.prepare(pieces)
    some = np.flatnonzero(~shapely.contains_properly(pieces, geoms))
    if len(some):
        # GEOS raises the processor's divide-by-zero flag on an edge of no length (a vertex
        # 1e-300 ft from the next), which shapely reports as numpy's warning: its answer stands
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            part = shapely.intersection(geoms[some], pieces[some], grid_size=GRID_FT)
        out[some] = measure(part)
    return out


_CUT = 0.4871920746112329
"""Where :func:`tile` cuts a piece's bounds: near the middle, at no simple fraction of them."""


def tile(
    pieces: np.ndarray,
    max_vertices: int | None = None,
    *,
    around: np.ndarray | None = None,
    distance_ft: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """``pieces`` (polygons; lines and points are kept whole) with more than ``max_vertices``
    (default :data:`MAX_TILE_VERTICES`) vertices cut in four near their bounds' middle, and
    those again, until none has more; the tiles and the index of the piece each comes from. Pieces
    small enough are kept as they are (the same objects).

    With ``around`` (geometries), only the tiles whose box comes within ``distance_ft`` (and a
    foot more) of a box of ``around`` are given, and a part farther from them is not cut
    further: the tiles given are those the whole tiling would give, in its order (a
    partition of a county grows its own stretch of a county-wide river, not all of it).

    The tiles of a piece cover it and meet only along the cuts: areas add up, and lengths do
    but for a line that runs along a cut exactly. The cuts are at :data:`_CUT` of the bounds,
    not their middle, so that parcel lines and zones at round coordinates (a zone 0.5 ft
    round a surveyed line) do not fall on them. A line that crosses a cut comes in two parts
    that meet there (at a vertex the line did not have).

    Examples
    --------
    >>> ring = shapely.Point(0, 0).buffer(100, quad_segs=200)  # 801 vertices
    >>> tiles, of = tile(np.array([shapely.box(0, 0, 1, 1), ring]))
    >>> len(tiles), of.tolist(), round(float(shapely.area(tiles[1:]).sum() - ring.area), 6)
    (5, [0, 1, 1, 1, 1], 0.0)
    >>> near, _ = tile(np.array([ring]), around=np.array([shapely.Point(90, 0)]), distance_ft=5)
    >>> [t.equals(tiles[k]) for t in near for k in (2, 4)]  # (the two east quarters)
    [True, False, False, True]
    """
    pieces = np.asarray(pieces, dtype=object)
    most = MAX_TILE_VERTICES if max_vertices is None else max_vertices
    done, owner = [pieces[:0]], [np.arange(0)]  # (none: a layer with nothing usable)
    todo, of = pieces, np.arange(len(pieces))
    before = np.full(len(pieces), np.iinfo(np.int64).max)  # the vertices of what each was cut of
    reach = _reach(around, distance_ft) if around is not None else None
    while len(todo):
        if reach is not None:  # (what lies farther is left out: its tiles are inside its box)
            near = _near(reach, todo)
            todo, of, before = todo[near], of[near], before[near]
        n = shapely.get_num_coordinates(todo)
        areal = np.isin(shapely.get_type_id(todo), (3, 6))  # (lines and points kept whole)
        big = areal & (n > most) & (n < before)  # (a cut leaving as many vertices: a box, kept)
        done.append(todo[~big])
        owner.append(of[~big])
        todo, of, n = todo[big], of[big], n[big]
        if len(todo) == 0:
            break
        x0, y0, x1, y1 = shapely.bounds(todo).T
        xm, ym = x0 + (x1 - x0) * _CUT, y0 + (y1 - y0) * _CUT
        west, south = np.r_[x0, xm, x0, xm], np.r_[y0, y0, ym, ym]
        boxes = shapely.box(west, south, np.r_[xm, x1, xm, x1], np.r_[ym, ym, y1, y1])
        src = np.tile(np.arange(len(todo)), 4)
        cut = shapely.intersection(todo[src], boxes)
        # checked as dissolve is: the quarters make the whole, else cut on the grid
        area = shapely.area(todo)
        lost = np.abs(np.bincount(src, shapely.area(cut), len(todo)) - area) > 1e-9 * area
        if lost.any():
            redo = lost[src]
            cut[redo] = shapely.intersection(todo[src[redo]], boxes[redo], grid_size=GRID_FT)
        parts, k = _flat_parts(cut)
        polygons = shapely.get_type_id(parts) == 3
        todo, of, before = parts[polygons], of[src[k[polygons]]], n[src[k[polygons]]]
    return np.concatenate(done), np.concatenate(owner)


def _reach(around: np.ndarray, distance_ft: float) -> shapely.STRtree:
    """A tree of the boxes of ``around`` grown by ``distance_ft`` and a foot (boxes: a hair of
    rounding either way is no matter), for :func:`_near`: none left out that comes within
    ``distance_ft`` of one of them.

    >>> far = shapely.box(100, 0, 110, 10)
    >>> _near(_reach(np.array([shapely.Point(5, 5)]), 3), np.array([shapely.box(0, 0, 1, 1), far]))
    array([ True, False])
    """
    around = np.asarray(around, dtype=object)
    around = around[~(shapely.is_missing(around) | shapely.is_empty(around))]
    x0, y0, x1, y1 = shapely.bounds(around).reshape(-1, 4).T
    pad = distance_ft + 1.0
    return shapely.STRtree(shapely.box(x0 - pad, y0 - pad, x1 + pad, y1 + pad))


def _near(reach: shapely.STRtree, geoms: np.ndarray) -> np.ndarray:
    """Which of ``geoms`` have a box that meets a box of ``reach`` (:func:`_reach`)."""
    out = np.zeros(len(geoms), dtype=bool)
    if len(geoms) and len(reach):
        hit, _ = reach.query(shapely.envelope(geoms))
        out[hit] = True
    return out


def _flat_parts(geoms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The single geometries in ``geoms``, however deeply nested (a collection holding a
    MultiPolygon: GEOS's overlay gives none, but a quarter left out would go unseen, since
    the area check of :func:`tile` is taken before), and the index of the one each is in.

    >>> nested = shapely.GeometryCollection([shapely.MultiPolygon([shapely.box(0, 0, 1, 1)])])
    >>> parts, of = _flat_parts(np.array([shapely.box(0, 0, 2, 2), nested]))
    >>> shapely.get_type_id(parts).tolist(), of.tolist()
    ([3, 3], [0, 1])
    """
    parts, of = shapely.get_parts(geoms, return_index=True)
    multi = np.isin(shapely.get_type_id(parts), (4, 5, 6, 7))
    while multi.any():
        inner, k = shapely.get_parts(parts[multi], return_index=True)
        parts = np.concatenate([parts[~multi], inner])
        of = np.concatenate([of[~multi], of[multi][k]])
        multi = np.isin(shapely.get_type_id(parts), (4, 5, 6, 7))
    order = np.argsort(of, kind="stable")
    return parts[order], of[order]


def along_cuts(
    tiles: np.ndarray, of: np.ndarray, pieces: np.ndarray, lines: np.ndarray
) -> np.ndarray:
    """Which of ``lines`` have a vertex where one of the ``pieces``' edges is cut into
    ``tiles`` (:func:`tile`: the tiles and the piece each comes from): the cut's vertex is a
    hair off the edge it cuts, so a line that runs along that edge, vertex for vertex (a lot's
    line along a lake's shore), is a hair inside or outside the tile all the way from the edge's
    vertex to the cut, where the piece uncut holds it. Such lines are measured against the
    pieces uncut. A zone grown by a tolerance has no vertex of a line.

    Examples
    --------
    >>> lake = shapely.Polygon([(0, 0), (10, 0), (10, 7), (0, 7)])
    >>> tiles, of = tile(np.array([lake]), max_vertices=4)
    >>> shore = shapely.LineString([(0, 0), (10, 0), (10, -1)])  # along the south edge, cut
    >>> along_cuts(tiles, of, np.array([lake]), np.array([shore, shore.buffer(1).exterior]))
    array([ True, False])
    """
    out = np.zeros(len(lines), dtype=bool)
    cut = np.bincount(of, minlength=len(pieces)) > 1
    if not cut.any() or not len(lines):
        return out
    xy, ring = shapely.get_coordinates(
        shapely.get_rings(tiles[cut[of]]), return_index=True
    )  # (each ring closed: its first vertex is its last)
    ours = _among(xy, shapely.get_coordinates(pieces[cut]))
    one_ring = ring[1:] == ring[:-1]
    new_next = np.r_[~ours[1:] & one_ring, False]
    new_before = np.r_[False, ~ours[:-1] & one_ring]
    beside = xy[ours & (new_next | new_before)]
    lxy, line = shapely.get_coordinates(lines, return_index=True)
    out[line[_among(lxy, beside)]] = True
    return out


def _among(xy: np.ndarray, of: np.ndarray) -> np.ndarray:
    """True for each of the points ``xy`` that is one of the points ``of``, exactly (both
    coordinates equal; 0 and -0 alike, NaN equal to nothing), by a hash of each pair
    (``x + iy``): ``np.isin`` sorts, six times slower on a county's vertices.

    >>> _among(np.array([[0.0, 1.0], [1.0, 1.0], [np.nan, 0.0]]),
    ...        np.array([[-0.0, 1.0], [np.nan, 0.0]])).tolist()
    [True, False, False]
    """
    keys, among = np.empty(len(xy), dtype=complex), np.empty(len(of), dtype=complex)
    keys.real, keys.imag = xy[:, 0], xy[:, 1]
    among.real, among.imag = of[:, 0], of[:, 1]
    found = pd.Series(keys, copy=False).isin(among).to_numpy(dtype=bool)
    return found & ~np.isnan(keys)


def meeting(
    lines: np.ndarray, pieces: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The ``pieces`` cut into tiles (:func:`tile`), and each pair of a tile and one of
    ``lines`` (rings) that meet: ``(tile, line, tiles, of)``, ``of`` the piece of each tile.
    A line along an edge a cut crosses (:func:`along_cuts`) meets the pieces uncut instead,
    given as tiles of their own (after the others).

    The lines are in the tree and each tile asks it once, prepared: a small ring asked of a
    county-wide piece costs in the piece's vertices (30 s of 35 s with ten fences).

    Examples
    --------
    A lake of 600 vertices, cut in four; its north shore across a cut, and a line from its
    middle south, which meets two tiles:

    >>> xy = 100 * np.c_[np.cos(np.arange(600) * np.pi / 300), np.sin(np.arange(600) * np.pi / 300)]
    >>> lines = np.array([shapely.LineString(xy[120:181]), shapely.LineString([(0, 0), (0, -200)])])
    >>> t, r, tiles, of = meeting(lines, np.array([shapely.Polygon(xy)]))
    >>> len(tiles), t.tolist(), r.tolist()  # (the shore meets the lake uncut: the last tile)
    (5, [1, 3, 4], [1, 1, 0])
    """
    tiles, of = tile(pieces)
    ti, li = shapely.STRtree(lines).query(tiles, predicate="intersects")
    whole = along_cuts(tiles, of, pieces, lines)
    if whole.any():
        ti, li = ti[~whole[li]], li[~whole[li]]
        near = np.flatnonzero(whole)
        wi, wl = shapely.STRtree(lines[near]).query(pieces, predicate="intersects")
        ti, li = np.r_[ti, len(tiles) + wi], np.r_[li, near[wl]]
        tiles, of = np.concatenate([tiles, pieces]), np.r_[of, np.arange(len(pieces))]
    return ti, li, tiles, of
