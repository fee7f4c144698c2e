"""Markers to boundary rings: which parcel and ring each marker posts, and where along it.

Signs stand on the posted land, just inside its line. So, in order of precedence:

1. ``named``: a marker column naming its parcel (``--sign-parcel-field``) decides the parcel;
   the marker goes to that parcel's nearest ring if it is within the tolerance.
2. ``inside``: a marker standing in a parcel (or on its line) whose boundary is within the
   tolerance belongs to that parcel, even when a neighbour's line is nearer.
3. ``nearest``: any other marker (in a road, across a ditch) goes to the nearest boundary
   within the tolerance.

Ties go to the parcel that comes first in the input; a marker inside two parcels or more
whose boundaries are within the tolerance (they overlap) is marked ``in_several``, and which
one it posts is in doubt (:mod:`posting.ambiguity`). A marker that none of these places is
unassigned, with the reason. No Python loop runs per marker, and no Point is made for most: the
rings within the tolerance of each marker, with its distance, position and side along them, come
from :class:`posting.boundary.RingIndex` (numpy); among the parcels whose box holds the marker,
the side of a parcel's nearest ring says whether it stands in it (the nearest boundary of a
point bounds the part of the plane it stands in). GEOS measures only the few markers far from
every line (for their reasons), points within a hair of a line's extension, and named markers.
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import shapely

from posting.boundary import RingIndex, project
from posting.crs import geodesic_ft, group_box, lon_meets, lonlat_box, lonlat_margin_deg
from posting.index import BoxGrid, expand_counts
from posting.io import MarkerLayer
from posting.parallel import background, pmap, soon
from posting.prepare import ParcelGeometry, PreparedParcels

__all__ = ["HOW", "REASON_SEARCH_FT", "Assignment", "LinesNear", "assign_markers", "assign_near"]

REASON_SEARCH_FT = 5_000.0
"""How far the nearest boundary is looked for, only to word why a marker is unassigned."""

FAR_OUTSIDE_FT = 264_000.0
"""How far (ft; 50 miles) outside the parcels' extent a marker with no boundary near it stands
before its reason says so, and that a coordinate may be typed wrong (a sign in the right
county is never that far: a digit or a sign of its longitude is)."""

_NEAR_FT = 150.0
"""First reach of the search for the nearest boundary of an unassigned marker."""

HOW = ("named", "inside", "nearest")
"""How a marker was assigned, in order of precedence (``sign_name``, the owner's name on the
sign, settles a marker within the survey's accuracy of a shared line: :mod:`posting.ambiguity`)."""


@dataclass(frozen=True)
class LinesNear:
    """The parcels' lines within ``reach_ft`` of the markers placed by position, as the
    assignment found them (:func:`assign_near`): what :func:`posting.ambiguity.doubtful_markers`
    asks, without searching again.

    Per marker: ``crowded``, two parcels' lines or more within the reach; ``lone``, one
    parcel's line alone. For the crowded markers, one row per (marker, ring within the reach):
    ``marker``, ``ring``, ``distance_ft``, ``position_ft``.
    """

    reach_ft: float
    crowded: np.ndarray
    lone: np.ndarray
    marker: np.ndarray
    ring: np.ndarray
    distance_ft: np.ndarray
    position_ft: np.ndarray


@dataclass(frozen=True)
class Assignment:
    """Where each marker went (index = marker).

    ``parcel`` and ``ring`` are -1 for an unassigned marker, whose ``reason`` says why.
    ``distance_ft`` is the distance from the marker to its ring, ``position_ft`` the arc
    position of its nearest point along the ring, and ``x_ft``/``y_ft`` the marker in its
    parcel's working frame. ``in_several`` is True for a marker placed by its position that
    stands inside two parcels or more whose boundaries are within the tolerance of it (they
    overlap there, or their boundaries are the same): which of them it posts is in doubt
    (:func:`posting.ambiguity.doubtful_markers`).
    """

    parcel: np.ndarray
    ring: np.ndarray
    how: np.ndarray
    distance_ft: np.ndarray
    position_ft: np.ndarray
    x_ft: np.ndarray
    y_ft: np.ndarray
    reason: np.ndarray
    in_several: np.ndarray

    @property
    def assigned(self) -> np.ndarray:
        """True for each marker that posts a parcel."""
        return self.parcel >= 0


def _expand_to_rings(
    m: np.ndarray, p: np.ndarray, ring_start: np.ndarray, ring_count: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(marker, parcel) pairs to (marker, ring) pairs over every ring of the parcel."""
    pair, k = expand_counts(ring_count[p])
    return m[pair], ring_start[p][pair] + k


def named_parcels(
    parcel_ref: np.ndarray,
    named: np.ndarray,
    ids: np.ndarray,
    source_ids: list[list[Any]] | None = None,
) -> np.ndarray:
    """The (marker, parcel) pairs of the markers ``named`` (a mask) and every parcel whose id
    is the one the marker names: an array of shape ``(2, pairs)``. Where parcels were merged
    into properties (``source_ids``: each property's parcels' ids), a marker that names any
    parcel of a property names the property.

    >>> named_parcels(np.array(["a", "b", "c"], dtype=object), np.array([True, True, False]),
    ...               np.array(["b", "a", "b"], dtype=object)).tolist()
    [[0, 1, 1], [1, 0, 2]]
    >>> named_parcels(np.array(["a2", "b"], dtype=object), np.array([True, True]),
    ...               np.array(["a1", "b"], dtype=object), [["a1", "a2"], ["b"]]).tolist()
    [[0, 1], [0, 1]]
    """
    if source_ids is None:
        right = pd.DataFrame({"p": np.arange(len(ids)), "id": ids})
    else:
        counts = np.fromiter(map(len, source_ids), dtype=np.int64, count=len(source_ids))
        flat = np.empty(int(counts.sum()), dtype=object)
        flat[:] = [i for lots in source_ids for i in lots]
        right = pd.DataFrame({"p": np.repeat(np.arange(len(source_ids)), counts), "id": flat})
    left = pd.DataFrame({"m": np.flatnonzero(named), "id": parcel_ref[named]})
    merged = left.merge(right, on="id", how="inner")
    return np.vstack([merged["m"].to_numpy(np.int64), merged["p"].to_numpy(np.int64)])


def named_distance(
    prep: PreparedParcels | ParcelGeometry,
    pairs: np.ndarray,
    g: int,
    xs: np.ndarray,
    ys: np.ndarray,
    local: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distance from each marker of ``pairs`` (:func:`named_parcels`) whose parcel is in
    working frame ``g`` to each ring of that parcel (GEOS's exact distance: a few markers).
    Marker ``m`` stands at ``xs[local[m]], ys[local[m]]`` in the frame.

    Returns
    -------
    marker, ring, distance_ft
        One row per (marker, ring).
    """
    pg = pairs[:, prep.group[pairs[1]] == g] if pairs.size else pairs.reshape(2, 0)
    mm, rr = _expand_to_rings(pg[0], pg[1], prep.ring_start, prep.ring_count)
    pts = shapely.points(xs[local[mm]], ys[local[mm]])
    return mm, rr, np.asarray(pmap(shapely.distance, pts, prep.rings.geometry[rr]), dtype=float)


def _group_xy(markers: MarkerLayer, idx: np.ndarray, wcrs) -> tuple[np.ndarray, np.ndarray]:
    """Markers ``idx`` projected into a working frame, file by file (each has its own CRS)."""
    if len(markers.files) == 1:  # one file (the common case): no selection to make
        return wcrs.xy_to_ft(markers.x[idx], markers.y[idx], markers.files[0][1])
    x = np.full(len(idx), np.nan)
    y = np.full(len(idx), np.nan)
    fi = markers.file_index[idx]
    for k, (_, crs) in enumerate(markers.files):
        sel = fi == k
        if sel.any():
            x[sel], y[sel] = wcrs.xy_to_ft(markers.x[idx[sel]], markers.y[idx[sel]], crs)
    return x, y


def _fmt_ft(value: float) -> str:
    return f"{value:,.1f} ft"


# One function on purpose (213 lines): a vectorised pipeline per working CRS whose arrays
# (candidates, boxes, ring rows, distances) each step hands to the next; split, the steps would
# pass a dozen arrays each way and the county's 1,000,000 markers would be copied between them.
def assign_markers(
    prep: PreparedParcels | ParcelGeometry,
    markers: MarkerLayer,
    *,
    tolerance_ft: float,
    explain: bool = True,
    indexes: dict[tuple[int, float], Future[RingIndex]] | None = None,
) -> Assignment:
    """Assign each marker to the parcel and ring it posts.

    Parameters
    ----------
    prep
        Prepared parcels, or only their geometry (:class:`~posting.prepare.ParcelGeometry`).
    markers
        Markers as read; ``parcel_ref`` (when present) names each marker's parcel.
    tolerance_ft
        Largest distance from a marker to the boundary it posts.
    explain
        Say why each unassigned marker is unassigned (the parcel it stands in, or the
        nearest boundary within :data:`REASON_SEARCH_FT`). False leaves the ``reason`` of an
        unassigned marker with a usable position None: for a check whose unassigned markers
        are explained elsewhere (a partition's, whose neighbours may assign them).
    indexes
        The rings' indexes (:class:`~posting.boundary.RingIndex`, per working frame and
        tolerance) already built for these parcels, to take and to add to: a caller that
        assigns many small sets of markers against the same parcels keeps one (the plan
        settling its markers asks a few hundred times; an index of a county's two million
        vertices takes 0.3 s to build). None: built afresh for this call, and dropped.
    """
    return assign_near(prep, markers, tolerance_ft=tolerance_ft, explain=explain, indexes=indexes)[
        0
    ]


def assign_near(
    prep: PreparedParcels | ParcelGeometry,
    markers: MarkerLayer,
    *,
    tolerance_ft: float,
    explain: bool = True,
    near_ft: float = 0.0,
    indexes: dict[tuple[int, float], Future[RingIndex]] | None = None,
) -> tuple[Assignment, LinesNear | None]:
    """Assign each marker (:func:`assign_markers`); and, with ``near_ft`` above 0 (at most
    ``tolerance_ft``) where the parcels have one working CRS, which parcels' lines lie within
    it of each marker placed by position (:class:`LinesNear`: from the rings found within the
    tolerance, no search of its own), else None.
    """
    n = len(markers)
    if len(prep.crss) > 1:  # (a marker's rows in each frame: not told; asked again instead)
        near_ft = 0.0
    crowded = np.zeros(n if near_ft > 0 else 0, dtype=bool)
    lone = crowded.copy()
    near_rows: list[tuple[np.ndarray, ...]] = []
    usable = pd.isna(markers.reason)
    ids = prep.ids
    ring_count = prep.ring_count
    rings = prep.rings
    ring_group = prep.group[rings.parcel]
    parcel_box = np.ascontiguousarray(shapely.bounds(prep.geometry_ft).T)  # x0, y0, x1, y1

    # Parcels named by the markers themselves.
    named = np.zeros(n, dtype=bool)
    named_pairs = np.empty((2, 0), dtype=np.int64)
    if markers.parcel_ref is not None:
        named = usable & ~pd.isna(markers.parcel_ref)
        named_pairs = named_parcels(
            markers.parcel_ref, named, ids, getattr(prep, "source_ids", None)
        )

    cand: list[tuple[np.ndarray, ...]] = []  # (prio, marker, ring, dist, x, y)
    inside_parcel, inside_dist, nearest_ring, nearest_dist = far_found(n)
    named_dist = np.full(n, np.inf)
    reasons: list[tuple[np.ndarray, FarFound, Future[None]]] = []  # why far markers are lost

    for g, wcrs in enumerate(prep.crss):
        parcels_g = np.flatnonzero(prep.group == g)
        rings_g = np.flatnonzero(ring_group == g)
        if len(parcels_g) == 0:
            continue
        if len(prep.crss) == 1:
            sub = np.flatnonzero(usable)
        else:  # markers near this group's parcels, or naming one of them
            # (long edges bow in the frame; the short way round, east beyond 180 where a lot
            # lies across it: markers either side of the line meet it)
            west, south, east, north = group_box(prep.bounds_lonlat[parcels_g])
            margin = lonlat_margin_deg(tolerance_ft, south, north)
            near = (
                usable
                & lon_meets(markers.lon, markers.lon, west - margin, east + margin)
                & (markers.lat >= south - margin)
                & (markers.lat <= north + margin)
            )
            in_g = named_pairs[0][prep.group[named_pairs[1]] == g]
            near[in_g] = True
            sub = np.flatnonzero(near)
        if len(sub) == 0:
            continue
        local = np.full(n, -1, dtype=np.int64)
        local[sub] = np.arange(len(sub))
        free = sub[~named[sub]]  # the markers placed by their position
        # the rings' index is built while the markers are projected (or was, for a caller
        # that keeps them: ``indexes``)
        index = None
        if len(free):
            key = (g, float(tolerance_ft))
            index = None if indexes is None else indexes.get(key)
            if index is None:
                index = soon(RingIndex, prep.vertices, rings_g, tolerance_ft)
                if indexes is not None:
                    indexes[key] = index
        xs, ys = _group_xy(markers, sub, wcrs)

        def add(
            prio: np.ndarray | int,
            mm: np.ndarray,
            rr: np.ndarray,
            dd: np.ndarray,
            pos: np.ndarray | None = None,
            xs=xs,
            ys=ys,
            local=local,
        ) -> None:
            pos = np.full(len(dd), np.nan) if pos is None else pos
            prio = np.broadcast_to(np.asarray(prio, dtype=np.int64), dd.shape)
            keep = dd <= tolerance_ft
            if not keep.all():  # (the rings found near are all within it)
                prio, mm, rr, dd, pos = prio[keep], mm[keep], rr[keep], dd[keep], pos[keep]
            li = local[mm]
            cand.append((prio, mm, rr, dd, xs[li], ys[li], pos))

        # 1. named: the named parcel's nearest ring (few markers: GEOS distances)
        mm, rr, dd = named_distance(prep, named_pairs, g, xs, ys, local)
        if len(mm):
            np.minimum.at(named_dist, mm, dd)
            add(0, mm, rr, dd)
        if index is None:
            continue
        # 2. inside: every ring within the tolerance of each marker, and the side of it the
        # marker stands on; the rings of the parcels whose box holds the marker tell whether it
        # stands in them (the side of a parcel's nearest ring tells in or out). A marker inside
        # exactly one parcel whose boundary is within the tolerance is settled by its rings.
        fx, fy = xs[local[free]], ys[local[free]]
        near = index.result().near(fx, fy)
        del index
        fp, pp = near.point, rings.parcel[near.ring]  # a marker (in free) and a ring's parcel
        if near_ft > 0:
            near_rows.append(_lines_near(near, pp, free, near_ft, crowded, lone))
        qx, qy = fx[fp], fy[fp]
        x0, y0, x1, y1 = parcel_box
        own = (qx >= x0[pp]) & (qx <= x1[pp])
        own &= qy >= y0[pp]
        own &= qy <= y1[pp]
        own = np.flatnonzero(own)
        del qx, qy
        o_pt, o_ring, o_dist = fp[own], near.ring[own], near.distance_ft[own]
        side, head = _side_at_nearest(
            o_pt * len(ring_count) + pp[own],  # the (marker, parcel) pair
            o_ring,
            o_dist,
            near.side[own],
            ring_count[pp[own]],
            heads=True,
        )
        alone = (np.bincount(o_pt[head & (side > 0)], minlength=len(free)) == 1) & (
            np.bincount(o_pt[head & (side == 0)], minlength=len(free)) == 0
        )
        keep = (side > 0) & alone[o_pt]
        m_own = free[o_pt[keep]]
        add(1, m_own, o_ring[keep], o_dist[keep], near.position_ft[own[keep]])
        del o_pt, o_ring, o_dist, side, head, keep
        settled = np.zeros(n, dtype=bool)
        settled[m_own] = True
        # 3. the others: every ring within the tolerance, and on which side of it they stand
        rows = np.flatnonzero(~settled[free[fp]])
        mm, rr, dd = free[fp[rows]], near.ring[rows], near.distance_ft[rows]
        pp = pp[rows]
        # in a parcel of several rings, the side at its nearest ring tells in or out
        who = mm * len(ring_count) + pp  # the (marker, parcel) pair
        side = _side_at_nearest(who, rr, dd, near.side[rows], ring_count[pp])
        undecided = np.flatnonzero(side == 0)  # on a vertex's bisector, or within 1e-6 ft
        if len(undecided):
            m_u = mm[undecided]
            side[undecided] = np.where(
                shapely.intersects_xy(
                    prep.geometry_ft[pp[undecided]], xs[local[m_u]], ys[local[m_u]]
                ),
                1,
                -1,
            )
        add(np.where(side > 0, 1, 2), mm, rr, dd, near.position_ft[rows])
        del near, fp, rows
        # markers with no boundary within the tolerance: only their reasons are left to find,
        # meanwhile, in the background
        got = settled.copy()
        got[mm] = True
        is_lost = ~got[free]
        lost = free[is_lost]
        if len(lost) and explain:
            # the parcels whose box holds a lost marker: (lost, parcel)
            lx, ly = xs[local[lost]], ys[local[lost]]
            li, lb = BoxGrid(parcel_box.T[parcels_g]).query(lx, ly)
            found = far_found(len(lost))  # this frame's, put with the others' once all are in
            job = background(
                _far, prep, rings_g, np.arange(len(lost)), lx, ly, (li, parcels_g[lb]), found
            )
            reasons.append((lost, found, job))

    parcel = np.full(n, -1, dtype=np.int64)
    ring = np.full(n, -1, dtype=np.int64)
    how = np.full(n, None, dtype=object)
    distance = np.full(n, np.nan)
    x_ft = np.full(n, np.nan)
    y_ft = np.full(n, np.nan)
    position = np.full(n, np.nan)
    in_several = np.zeros(n, dtype=bool)
    # Within one working CRS the candidates' markers are apart (named, settled, the rest), so
    # each batch is settled on its own; a marker near the parcels of two CRSs needs them all.
    batches = cand
    if len(prep.crss) > 1 and cand:
        batches = [tuple(np.concatenate(c) for c in zip(*cand, strict=True))]
    for prio, mm, rr, dd, cx, cy, cpos in batches:
        first = _best(n, mm, prio, dd, rr)
        m = mm[first]
        ring[m] = rr[first]
        parcel[m] = rings.parcel[rr[first]]
        how[m] = np.asarray(HOW, dtype=object)[prio[first]]
        distance[m] = dd[first]
        x_ft[m], y_ft[m] = cx[first], cy[first]
        position[m] = cpos[first]
        todo = np.flatnonzero(np.isnan(cpos[first]))
        position[m[todo]] = project(
            prep.vertices, rings.geometry, rr[first][todo], cx[first][todo], cy[first][todo]
        )[0]
        _mark_several(in_several, mm, rr, rings.parcel, prio)

    for lost, found, job in reasons:  # in the frames' order (the result does not depend on it)
        job.result()
        merge_far((inside_parcel, inside_dist, nearest_ring, nearest_dist), lost, found)
    reason = np.asarray(markers.reason, dtype=object).copy()
    reason[parcel >= 0] = None
    lines = None
    if near_ft > 0:
        e = np.empty(0, dtype=np.int64)
        cols = [np.concatenate(c) for c in zip(*near_rows, strict=True)] if near_rows else []
        lines = LinesNear(near_ft, crowded, lone & ~crowded, *(cols or (e, e, e * 0.0, e * 0.0)))
    if not explain:
        return Assignment(
            parcel, ring, how, distance, position, x_ft, y_ft, reason, in_several
        ), lines
    _explain(
        reason,
        parcel,
        usable,
        named,
        named_pairs,
        named_dist,
        inside_parcel,
        inside_dist,
        nearest_ring,
        nearest_dist,
        prep,
        markers,
        tolerance_ft,
        parcels_extent(prep),
    )
    return Assignment(parcel, ring, how, distance, position, x_ft, y_ft, reason, in_several), lines


def _mark_several(
    out: np.ndarray,
    marker: np.ndarray,
    ring: np.ndarray,
    ring_parcel: np.ndarray,
    prio: np.ndarray,
) -> None:
    """Mark in ``out`` the markers whose ``inside`` candidates (``prio`` 1: a ``ring`` each,
    of parcel ``ring_parcel[ring]``) are of two parcels or more. One pass over the inside rows,
    no sort: a marker stands in two parcels where one of its rows' parcel is not the one
    written last for it. Where no parcels overlap, the inside rows are those of the markers
    settled by their one parcel, and a count of them is all it costs.

    >>> out = np.zeros(3, dtype=bool)
    >>> _mark_several(out, np.array([0, 0, 1, 1, 2, 2]), np.arange(6),
    ...               np.array([4, 5, 4, 4, 4, 6]), np.array([1, 1, 1, 1, 1, 2]))
    >>> out.tolist()
    [True, False, False]
    """
    inside = np.flatnonzero(prio == 1)
    if not len(inside):
        return
    m, p = marker[inside], ring_parcel[ring[inside]]
    seen = np.full(len(out), -1, dtype=np.int64)
    seen[m] = p
    out[m[p != seen[m]]] = True


def _lines_near(
    near: Any,
    parcel: np.ndarray,
    free: np.ndarray,
    near_ft: float,
    crowded: np.ndarray,
    lone: np.ndarray,
) -> tuple[np.ndarray, ...]:
    """Of the rings found within the tolerance of the markers ``free`` (``near``, the rings'
    ``parcel``s), those within ``near_ft``: the markers with one parcel's line or more within
    it marked in ``lone``, those with two or more in ``crowded``, and their rows returned
    (marker, ring, distance, position). No sort: a marker has two parcels near where one of
    its rows' parcel is not the one written last for it."""
    close = np.flatnonzero(near.distance_ft <= near_ft)
    pt, pp = near.point[close], parcel[close]
    seen = np.full(len(free), -1, dtype=np.int64)
    seen[pt] = pp  # (one of each marker's parcels: whichever row is written last)
    several = np.zeros(len(free), dtype=bool)
    several[pt[pp != seen[pt]]] = True
    lone[free[pt]] = True
    crowded[free[several]] = True
    rows = close[several[pt]]
    return (
        free[near.point[rows]],
        near.ring[rows],
        near.distance_ft[rows],
        near.position_ft[rows],
    )


def _side_at_nearest(
    who: np.ndarray,
    ring: np.ndarray,
    dist: np.ndarray,
    side: np.ndarray,
    rings_of: np.ndarray,
    *,
    heads: bool = False,
) -> Any:
    """``side`` of each row, made that of the nearest ring among the rows of the same (marker,
    parcel) pair ``who`` (ties: the lower ring), where the parcel has several rings.

    A point's nearest boundary bounds the face of the plane it stands in, so the side there tells
    whether it is inside the parcel. ``rings_of``: the pair's parcel's number of rings, per row.
    With ``heads``, also a mask of one row per pair (its nearest ring's), to count pairs by.

    >>> _side_at_nearest(np.array([0, 0, 1]), np.array([4, 5, 6]), np.array([9.0, 2.0, 1.0]),
    ...                  np.array([1, -1, 1], dtype=np.int8), np.array([2, 2, 1])).tolist()
    [-1, -1, 1]
    >>> _side_at_nearest(np.array([0, 0, 1]), np.array([4, 5, 6]), np.array([9.0, 2.0, 1.0]),
    ...                  np.array([1, -1, 1], dtype=np.int8), np.array([2, 2, 1]),
    ...                  heads=True)[1].tolist()
    [False, True, True]
    """
    side = side.copy()
    head_rows = rings_of <= 1
    several = np.flatnonzero(~head_rows)
    if len(several):
        # the pairs' rows together (a sort of one integer key, where lexsort ran three stable
        # sorts: 0.024 s against 0.08 s on the real-shapes county), then each pair's nearest
        # (a pair's rows are of distinct rings: the ring breaks a tie)
        order = several[np.argsort(who[several])]
        w = who[order]
        start = np.r_[True, w[1:] != w[:-1]]
        group = np.cumsum(start) - 1
        starts = np.flatnonzero(start)
        d = dist[order]
        nearest = d == np.minimum.reduceat(d, starts)[group]
        r = np.where(nearest, ring[order], np.iinfo(np.int64).max)
        head_at = order[nearest & (r == np.minimum.reduceat(r, starts)[group])]
        if len(head_at) != len(starts):  # a ring twice in a pair: the first row of the nearest
            order = several[np.lexsort((ring[several], dist[several], who[several]))]
            start = np.r_[True, who[order][1:] != who[order][:-1]]
            group, head_at = np.cumsum(start) - 1, order[start]
        side[order] = side[head_at][group]
        head_rows[head_at] = True
    return (side, head_rows) if heads else side


def _best(n: int, m: np.ndarray, *keys: np.ndarray) -> np.ndarray:
    """For each marker among ``m``, the row with the smallest ``keys`` (compared in order).

    The rows of one marker must differ in the last key, and no key may be NaN (the candidates'
    distances are all within the tolerance). The same rows as the first of each marker after
    ``np.lexsort((*reversed(keys), m))``, in no particular order, without sorting.

    >>> sorted(_best(2, np.array([0, 0, 1, 0]), np.array([2, 1, 1, 1]),
    ...              np.array([5.0, 7.0, 1.0, 7.0]), np.array([0, 4, 2, 3])).tolist())
    [2, 3]
    """
    if not len(m):
        return np.arange(0)
    alone = np.bincount(m, minlength=n)[m] == 1  # a marker's only row is its best
    rows = np.flatnonzero(~alone)
    for key in keys:
        low = np.full(n, np.inf if key.dtype.kind == "f" else np.iinfo(np.int64).max, key.dtype)
        np.minimum.at(low, m[rows], key[rows])
        rows = rows[key[rows] == low[m[rows]]]
    return np.r_[np.flatnonzero(alone), rows]


FarFound = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""Per marker: the parcel it stands in and how far its boundary is, the nearest ring and how
far it is (-1 and infinite where none): what :func:`_far` finds."""


def far_found(n: int) -> FarFound:
    """Nothing found yet, for ``n`` markers."""
    return (
        np.full(n, -1, dtype=np.int64),
        np.full(n, np.inf),
        np.full(n, -1, dtype=np.int64),
        np.full(n, np.inf),
    )


def merge_far(out: FarFound, at: np.ndarray, found: FarFound) -> None:
    """Put ``found`` (of the markers ``at`` of ``out``, in another working frame's parcels)
    with ``out``: the first parcel in the input a marker stands in, with its distance; the
    nearest ring, equidistant ones to the first in the input."""
    inside_parcel, inside_dist, nearest_ring, nearest_dist = out
    ip, idist, nr, nd = found
    first = (ip >= 0) & ((inside_parcel[at] < 0) | (ip < inside_parcel[at]))
    inside_parcel[at[first]] = ip[first]
    inside_dist[at[first]] = idist[first]
    was_d, was_r = nearest_dist[at], nearest_ring[at]
    nearer = (nr >= 0) & ((nd < was_d) | ((nd == was_d) & ((was_r < 0) | (nr < was_r))))
    nearest_ring[at[nearer]] = nr[nearer]
    nearest_dist[at[nearer]] = nd[nearer]


def _far(
    prep: PreparedParcels | ParcelGeometry,
    rings_g: np.ndarray,
    lost: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    boxed: tuple[np.ndarray, np.ndarray],
    out: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> None:
    """For markers far from every boundary: the parcel they stand in and how far its boundary
    is, else the nearest boundary within :data:`REASON_SEARCH_FT` (for the reason only).

    ``boxed``: (position in ``lost``, parcel) for every parcel whose box holds a lost marker.
    Standing in several (overlapping) parcels, a marker is said to stand in the first (in the
    input), and how far that parcel's boundary is.
    """
    inside_parcel, inside_dist, nearest_ring, nearest_dist = out
    rings, ring_start, ring_count = prep.rings, prep.ring_start, prep.ring_count
    pts = shapely.points(x, y)
    local = np.full(len(inside_parcel), -1, dtype=np.int64)
    local[lost] = np.arange(len(lost))
    order = np.lexsort((boxed[1], boxed[0]))
    qi, pb = boxed[0][order], boxed[1][order]
    inside = shapely.intersects_xy(prep.geometry_ft[pb], x[qi], y[qi])
    mm, pp = lost[qi[inside]], pb[inside]
    first = np.r_[True, mm[1:] != mm[:-1]] if len(mm) else np.empty(0, dtype=bool)
    mm, pp = mm[first], pp[first]  # each marker's first parcel (in the input) it stands in
    pair, k = expand_counts(ring_count[pp])
    d = shapely.distance(pts[local[mm[pair]]], rings.geometry[ring_start[pp][pair] + k])
    dist = np.full(len(mm), np.inf)
    np.minimum.at(dist, pair, d)  # to that parcel's boundary
    # a marker in parcels of another working CRS too: the first of all (the groups' order is
    # not the input's)
    better = (inside_parcel[mm] < 0) | (pp < inside_parcel[mm])
    inside_parcel[mm[better]] = pp[better]
    inside_dist[mm[better]] = dist[better]
    out_ = lost[inside_parcel[lost] < 0]
    if len(out_):
        tree = shapely.STRtree(rings.geometry[rings_g])
        # most are in a road or across a ditch: a short search finds their nearest boundary
        # (the nearest within _NEAR_FT is the nearest of all); GEOS's nearest-neighbour
        # search, slower, for the rest
        qi, ti = tree.query(pts[local[out_]], predicate="dwithin", distance=_NEAR_FT)
        d = shapely.distance(pts[local[out_]][qi], tree.geometries[ti])
        order = np.lexsort((ti, d, qi))  # equidistant rings: the first in the input
        first = order[np.r_[True, np.diff(qi[order]) != 0]] if len(order) else order
        hit, d, r = out_[qi[first]], d[first], rings_g[ti[first]]
        better = d < nearest_dist[hit]  # than another working CRS's rings (markers near two)
        nearest_dist[hit[better]] = d[better]
        nearest_ring[hit[better]] = r[better]
        found = np.zeros(len(out_), dtype=bool)
        found[qi] = True
        out_ = out_[~found]
    if len(out_) and not len(tree.geometries):  # no usable ring in this working CRS: none near
        out_ = out_[:0]
    if len(out_):
        # beyond the search from the rings' joint extent: no boundary near enough (exactly),
        # without asking the tree (miles out of the county, its costliest question)
        x0, y0, x1, y1 = shapely.total_bounds(tree.geometries)
        ox, oy = x[local[out_]], y[local[out_]]
        off = np.hypot(
            np.maximum(np.maximum(x0 - ox, ox - x1), 0.0),
            np.maximum(np.maximum(y0 - oy, oy - y1), 0.0),
        )
        out_ = out_[off <= REASON_SEARCH_FT]
    if len(out_):
        (fi, ri), dist = tree.query_nearest(
            pts[local[out_]], return_distance=True, all_matches=True, max_distance=REASON_SEARCH_FT
        )
        first = np.lexsort((ri, fi))  # equidistant rings: the first in the input
        first = first[np.r_[True, np.diff(fi[first]) != 0]] if len(first) else first
        fi, ri, dist = fi[first], ri[first], dist[first]
        better = dist < nearest_dist[out_[fi]]
        nearest_dist[out_[fi][better]] = dist[better]
        nearest_ring[out_[fi][better]] = rings_g[ri][better]


def _explain(
    reason: np.ndarray,
    parcel: np.ndarray,
    usable: np.ndarray,
    named: np.ndarray,
    named_pairs: np.ndarray,
    named_dist: np.ndarray,
    inside_parcel: np.ndarray,
    inside_dist: np.ndarray,
    nearest_ring: np.ndarray,
    nearest_dist: np.ndarray,
    prep: PreparedParcels | ParcelGeometry,
    markers: MarkerLayer,
    tolerance_ft: float,
    extent: tuple[float, ...] | None = None,
    inner: np.ndarray | None = None,
) -> None:
    """Fill ``reason`` for usable markers that were not assigned (few, so a loop is fine); one
    with no boundary near it and more than :data:`FAR_OUTSIDE_FT` outside the parcels'
    ``extent`` (:func:`parcels_extent`) is said to be, and, where it would stand within
    :data:`REASON_SEARCH_FT` of the extent with the sign of its longitude changed or its
    longitude and latitude swapped, that this is the likely slip. One on an inner line of a
    merged property (``inner``: that property, -1 for none; :func:`_on_inner_line` by
    default) is said to stand on one."""
    ids = prep.ids
    tol = _fmt_ft(tolerance_ft)
    has_pair = np.zeros(len(reason), dtype=bool)
    if named_pairs.size:
        has_pair[named_pairs[0]] = True
    lost = usable & (parcel < 0) & ~named & (inside_parcel < 0) & (nearest_ring < 0)
    far_outside = flipped = swapped = both = None
    if lost.any() and extent is not None:
        far_outside = np.full(len(reason), np.nan)
        far_outside[lost] = outside_ft(markers.lon[lost], markers.lat[lost], extent)
        # where it would stand with the sign of its longitude changed, or its longitude and
        # latitude swapped, or both: the likely slips of a hand-typed position
        flipped, swapped = np.full(len(reason), np.nan), np.full(len(reason), np.nan)
        both = np.full(len(reason), np.nan)
        flipped[lost] = outside_ft(-markers.lon[lost], markers.lat[lost], extent)
        swapped[lost] = outside_ft(markers.lat[lost], markers.lon[lost], extent)
        both[lost] = outside_ft(-markers.lat[lost], markers.lon[lost], extent)
    if inner is None:
        inner = _on_inner_line(
            usable & (parcel < 0),
            named,
            named_pairs,
            named_dist,
            inside_parcel,
            prep,
            markers,
            tolerance_ft,
        )
    for i in np.flatnonzero(usable & (parcel < 0)):
        if named[i]:
            ref = markers.parcel_ref[i]
            if not has_pair[i]:
                reason[i] = f"names parcel {ref!r}, which is not in the parcel file"
            elif np.isfinite(named_dist[i]):
                reason[i] = (
                    f"names parcel {ref!r} but stands {_fmt_ft(named_dist[i])} from its "
                    f"boundary (tolerance {tol})"
                )
            else:
                reason[i] = f"names parcel {ref!r}, which has no usable geometry"
        elif inside_parcel[i] >= 0:
            reason[i] = (
                f"stands inside parcel {ids[inside_parcel[i]]!r}, "
                f"{_fmt_ft(inside_dist[i])} from its boundary (tolerance {tol})"
            )
        elif nearest_ring[i] >= 0:
            p = prep.rings.parcel[nearest_ring[i]]
            reason[i] = (
                f"outside every parcel; the nearest boundary (parcel {ids[p]!r}) is "
                f"{_fmt_ft(nearest_dist[i])} away (tolerance {tol})"
            )
        else:
            reason[i] = f"no parcel boundary within {REASON_SEARCH_FT:,.0f} ft"
            far = far_outside[i] if far_outside is not None else np.nan
            if far > FAR_OUTSIDE_FT:
                reason[i] += f"; it stands {far / 5280:,.0f} miles outside the parcels' extent"
                if flipped[i] <= REASON_SEARCH_FT:
                    reason[i] += (
                        ", and would stand among them with the sign of its longitude changed "
                        f"({-markers.lon[i]:.6f}): its minus sign left out (or typed)?"
                    )
                elif swapped[i] <= REASON_SEARCH_FT:
                    reason[i] += (
                        ", and would stand among them with its longitude and latitude "
                        "swapped: the two typed in each other's place?"
                    )
                elif both[i] <= REASON_SEARCH_FT:
                    reason[i] += (
                        ", and would stand among them with its longitude and latitude "
                        f"swapped and the longitude's sign changed ({-markers.lat[i]:.6f}): the "
                        "two typed in each other's place, and the minus sign left out (or typed)?"
                    )
                else:
                    reason[i] += ": a coordinate typed wrong?"
        if inner[i] >= 0:
            lots = f"lots of property {ids[inner[i]]!r}" if named[i] else "of its lots"
            reason[i] += (
                f", on a line between two {lots} (one owner's lots merged into one property: "
                "an inner line, not measured)"
            )


def _on_inner_line(
    lost: np.ndarray,
    named: np.ndarray,
    named_pairs: np.ndarray,
    named_dist: np.ndarray,
    inside_parcel: np.ndarray,
    prep: PreparedParcels | ParcelGeometry,
    markers: MarkerLayer,
    tolerance_ft: float,
) -> np.ndarray:
    """Per marker, the merged property (:attr:`PreparedParcels.lot_lines`) on one of whose
    inner lines (between two of its lots) the ``lost`` marker stands, within ``tolerance_ft``,
    far from the property's boundary: standing inside it, or naming one of its lots; -1 for
    the others (and where the parcels were not merged). The property is the one the marker
    stands in, else the first it names that it stands so near."""
    out = np.full(len(lost), -1, dtype=np.int64)
    lot_lines = getattr(prep, "lot_lines", None)
    if lot_lines is None or not lost.any():
        return out
    merged = pd.notna(lot_lines)
    # (marker, property) pairs to measure: where it stands, and what it names, too far
    ins = np.flatnonzero(lost & ~named & (inside_parcel >= 0))
    ins = ins[merged[inside_parcel[ins]]]
    nm, npp = named_pairs
    far = lost[nm] & np.isfinite(named_dist[nm]) & merged[npp]
    mm = np.r_[ins, nm[far]].astype(np.int64)
    pp = np.r_[inside_parcel[ins], npp[far]].astype(np.int64)
    near = np.zeros(len(mm), dtype=bool)
    for g, wcrs in enumerate(prep.crss):  # (few markers: GEOS's distances)
        sel = np.flatnonzero(prep.group[pp] == g)
        if len(sel):
            x, y = _group_xy(markers, mm[sel], wcrs)
            d = shapely.distance(shapely.points(x, y), lot_lines[pp[sel]])
            near[sel] = d <= tolerance_ft
    mm, pp = mm[near], pp[near]
    first = np.r_[True, mm[1:] != mm[:-1]] if len(mm) else near[:0]
    out[mm[first]] = pp[first]
    return out


def parcels_extent(prep: PreparedParcels | ParcelGeometry) -> tuple[float, ...] | None:
    """(west, south, east, north) in degrees around the parcels with usable geometry (the
    boxes of ``prep.bounds_lonlat``), or None when none has one."""
    return lonlat_box(prep.bounds_lonlat[prep.group >= 0])


def outside_ft(lon: np.ndarray, lat: np.ndarray, extent: tuple[float, ...] | None) -> np.ndarray:
    """How far (ft, geodesic on WGS 84) each point lies from the nearest point of ``extent``
    (west, south, east, north) in degrees: 0 inside it, NaN without an extent or a position,
    or where the extent spans more than half the globe's longitudes (astride the antimeridian,
    its box says nothing).

    A degree of the equator east of the box (the equator is a circle of 6,378,137 m), and a
    point inside it:

    >>> outside_ft(np.array([1.0, -0.5]), np.array([0.0, 0.5]), (-1.0, 0.0, 0.0, 1.0)).round()
    array([365221.,      0.])
    """
    lon = np.asarray(lon, dtype=float)
    lat = np.asarray(lat, dtype=float)
    if extent is None or not (extent[2] - extent[0] <= 180):
        return np.full(len(lon), np.nan)
    west, south, east, north = extent
    edge = np.clip(lon, west, east)
    if east > 180:  # (the short way round: east beyond 180 names a longitude west of it)
        round_ = west + np.mod(lon - west, 360.0)  # each point east of west, within a turn
        past = round_ - east  # degrees east of the extent; west of it, 360 less that and more
        edge = np.where(round_ <= east, round_, np.where(past <= west + 360 - round_, east, west))
    return geodesic_ft(edge, np.clip(lat, south, north), lon, lat)
