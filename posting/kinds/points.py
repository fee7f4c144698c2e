"""Places that each need a marker (corners, access points, the banks where water crosses a
boundary): which have one within the tolerance, and the findings that say which do not.

Shared by :mod:`~posting.kinds.corners`, :mod:`~posting.kinds.access` and
:mod:`~posting.kinds.water`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from posting.checks import EPSILON_FT, FAIL, FOOT_SLACK, OK, UNCERTAIN, against_max
from posting.checks.corners import ring_neighbours
from posting.index import exclusive_cumsum, expand_counts
from posting.measure import Measurements
from posting.verdict import empty_findings, findings_frame, ft, ft_vs, plural

__all__ = [
    "POINT_STATUS",
    "nearest_of_parcel",
    "own_markers",
    "pairs_of_parcel",
    "point_findings",
    "points_check",
]

POINT_STATUS = ["ok", "uncertain", "missing", "not required"]
"""A place's status in the report, by code (OK, UNCERTAIN, FAIL, and 3: no rule asks for it)."""


def points_check(
    m: Measurements, pts: pd.DataFrame, kinds, mode: str, tol: float, beside=None
) -> pd.DataFrame:
    """Status of places that need a marker (corners, access points).

    The markers that can serve a place are first the two beside it along its ring: the last one
    at or before it and the first one after it. ``at_corner``: the nearer of the two, in a
    straight line, must be within ``tol`` (or, failing that, any marker of the parcel).
    ``each_side``: both must be within ``tol`` along the ring, and be two different markers.
    ``beside``: those two markers of each place, if known already (``ring_neighbours``).
    """
    asg, rings = m.asg, m.prep.rings
    mk = m.am[m.mask(kinds)]
    b, a, bft, aft = beside or ring_neighbours(
        pts["ring"].to_numpy(),
        pts["position_ft"].to_numpy(),
        asg.ring[mk],
        asg.position_ft[mk],
        rings.length_ft,
    )
    has = b >= 0
    if mode == "each_side":
        figure = np.where(has & (b != a), np.maximum(bft, aft), np.inf)
        neighbour = np.where(has, np.maximum(bft, np.where(b == a, bft, aft)), np.inf)
    else:
        figure = np.full(len(pts), np.inf)
        if has.any():
            px, py = pts["x_ft"].to_numpy()[has], pts["y_ft"].to_numpy()[has]
            mx, my = asg.x_ft[mk], asg.y_ft[mk]
            figure[has] = np.minimum(
                np.hypot(mx[b[has]] - px, my[b[has]] - py),
                np.hypot(mx[a[has]] - px, my[a[has]] - py),
            )
        neighbour = figure.copy()
        # Any marker of the parcel within the tolerance serves: one of another ring (where a
        # hole touches the exterior, or two parts meet), or one the ring's order puts further
        # away (on a spike). Looked up for the places not yet surely served (a neighbour along
        # the ring within the survey's accuracy of the tolerance must not hide a nearer
        # marker), among the markers of their parcels.
        tol_all = tol + m.settings.accuracy_ft
        loose = np.flatnonzero(figure > tol - m.settings.accuracy_ft)
        wanted = np.zeros(m.n, dtype=bool)
        wanted[pts["parcel"].to_numpy(dtype=np.int64)[loose]] = True
        others = mk[wanted[asg.parcel[mk]]]
        if len(loose) and len(others):
            best = nearest_of_parcel(
                asg.x_ft[others],
                asg.y_ft[others],
                asg.parcel[others],
                pts["x_ft"].to_numpy()[loose],
                pts["y_ft"].to_numpy()[loose],
                pts["parcel"].to_numpy(dtype=np.int64)[loose],
                tol_all,
                m.n,
            )
            figure[loose] = np.minimum(figure[loose], best)
    out = pts.copy()
    out["nearest_ft"] = figure
    out["neighbour_ft"] = neighbour
    out["status"] = against_max(figure, tol, m.settings.accuracy_ft)
    return out


def nearest_of_parcel(
    x: np.ndarray,
    y: np.ndarray,
    parcel: np.ndarray,
    qx: np.ndarray,
    qy: np.ndarray,
    qparcel: np.ndarray,
    reach: float,
    n_parcels: int,
) -> np.ndarray:
    """For each query place, the straight distance to the nearest marker of its own parcel
    within ``reach`` (inf when none): the least of :func:`pairs_of_parcel`.

    Examples
    --------
    Two markers of parcel 0 and one of parcel 1; places of parcels 0 and 1 near all three:

    >>> nearest_of_parcel(np.array([0.0, 3.0, 1.0]), np.array([0.0, 0.0, 0.0]),
    ...                   np.array([0, 0, 1]), np.array([2.0, 2.0]), np.array([0.0, 0.0]),
    ...                   np.array([0, 1]), 2.5, 2).tolist()
    [1.0, 1.0]
    """
    best = np.full(len(qx), np.inf)
    qi, _, d = pairs_of_parcel(x, y, parcel, qx, qy, qparcel, reach, n_parcels)
    np.minimum.at(best, qi, d)
    return best


def pairs_of_parcel(
    x: np.ndarray,
    y: np.ndarray,
    parcel: np.ndarray,
    qx: np.ndarray,
    qy: np.ndarray,
    qparcel: np.ndarray,
    reach: float,
    n_parcels: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every (place, marker) pair of one parcel within ``reach`` of each other in a straight
    line: among the markers whose box grown by ``reach`` holds the place, the pairs
    :func:`posting.index.points_near` finds, of one parcel. Returns the places' and the
    markers' indices and the distances, in no particular order.

    Each parcel has a grid of its own (square cells of twice the reach, from the lowest x and
    y of its markers), numbered after the cells of the parcels before it: a marker's key is
    its parcel's cell, and a place looks only in its own parcel's cells (at most four). The
    markers of a file usually come parcel by parcel, so their keys are nearly sorted already;
    the places come parcel by parcel too, so the look-ups stay in a small part of the keys.
    Markers and places with a NaN coordinate match nothing.

    Examples
    --------
    >>> qi, mi, d = pairs_of_parcel(np.array([0.0, 3.0, 1.0]), np.array([0.0, 0.0, 0.0]),
    ...                             np.array([0, 0, 1]), np.array([2.0]), np.array([0.0]),
    ...                             np.array([0]), 2.5, 2)
    >>> sorted(zip(qi.tolist(), mi.tolist(), d.tolist()))
    [(0, 0, 2.0), (0, 1, 1.0)]
    """
    none = (np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0))
    r = float(reach)
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    qx, qy = np.asarray(qx, dtype=float), np.asarray(qy, dtype=float)
    with np.errstate(invalid="ignore"):
        pts = np.flatnonzero(np.isfinite(x) & np.isfinite(y))
    if not len(pts) or not len(qx) or not r >= 0:
        return none
    p = np.asarray(parcel, dtype=np.int64)[pts]
    px, py = x[pts], y[pts]
    x0, y0 = np.full(n_parcels, np.inf), np.full(n_parcels, np.inf)
    x1, y1 = np.full(n_parcels, -np.inf), np.full(n_parcels, -np.inf)
    np.minimum.at(x0, p, px)
    np.minimum.at(y0, p, py)
    np.maximum.at(x1, p, px)
    np.maximum.at(y1, p, py)
    used = x0 <= x1
    x0[~used], y0[~used], x1[~used], y1[~used] = 0.0, 0.0, 0.0, 0.0
    # cells of twice the reach; on a parcel wider than 2**15 of them (a reach of a hair),
    # fewer and larger, so that every parcel's cells can be numbered
    cell = np.maximum(2.0 * r, np.maximum(x1 - x0, y1 - y0) / 2.0**15)
    cell[cell == 0] = 1.0
    nx = np.floor((x1 - x0) / cell).astype(np.int64) + 1
    ny = np.floor((y1 - y0) / cell).astype(np.int64) + 1
    nx[~used], ny[~used] = 0, 0
    base = exclusive_cumsum(nx * ny)
    cx = np.floor((px - x0[p]) / cell[p]).astype(np.int64)
    cy = np.floor((py - y0[p]) / cell[p]).astype(np.int64)
    key = base[p] + cx * ny[p] + cy
    order = np.argsort(key, kind="stable")
    key, pts = key[order], pts[order]
    qp = np.asarray(qparcel, dtype=np.int64)
    with np.errstate(invalid="ignore"):
        qs = np.flatnonzero(np.isfinite(qx) & np.isfinite(qy) & used[qp])
    qp = qp[qs]
    # the cells a place's box touches, a hair wider than the box (the box test decides)
    slack = 1e-6 * max(1.0, r)
    c, ax, ay = cell[qp], qx[qs] - x0[qp], qy[qs] - y0[qp]
    ix0 = np.maximum(np.floor((ax - r - slack) / c), 0).astype(np.int64)
    ix1 = np.minimum(np.floor((ax + r + slack) / c), nx[qp] - 1).astype(np.int64)
    iy0 = np.maximum(np.floor((ay - r - slack) / c), 0).astype(np.int64)
    iy1 = np.minimum(np.floor((ay + r + slack) / c), ny[qp] - 1).astype(np.int64)
    w, h = np.maximum(ix1 - ix0 + 1, 0), np.maximum(iy1 - iy0 + 1, 0)
    q, k = expand_counts(w * h)
    cells = base[qp[q]] + (ix0[q] + k // h[q]) * ny[qp[q]] + iy0[q] + k % h[q]
    lo = np.searchsorted(key, cells, side="left")
    item, rank = expand_counts(np.searchsorted(key, cells, side="right") - lo)
    qi, pi = qs[q[item]], pts[lo[item] + rank]
    ax, ay, ox, oy = qx[qi], qy[qi], x[pi], y[pi]
    keep = (ax >= ox - r) & (ax <= ox + r) & (ay >= oy - r) & (ay <= oy + r)
    d = np.hypot(ox - ax, oy - ay)
    keep &= d <= r
    return qi[keep], pi[keep], d[keep]


def own_markers(
    x: np.ndarray,
    y: np.ndarray,
    parcel: np.ndarray,
    mx: np.ndarray,
    my: np.ndarray,
    mparcel: np.ndarray,
    mrank: np.ndarray,
    tol: float,
    accuracy: float,
    n_parcels: int,
    together_ft: float = 0.0,
) -> np.ndarray:
    """Per place (a corner), its status when each place needs a marker of its own: one sign
    cannot stand at two corners.

    A marker within ``tol`` of two corners of its parcel (the two ends of a flag lot's 25 ft
    frontage, a sign in the middle) serves one of them. Places of a parcel within
    ``together_ft`` of one another (in a straight line, and on from one to the next) are one
    place for a marker: where two parts of a lot meet at a point, one sign there is at the
    corner of both (corners within 20 ft along a boundary are one corner already). The places
    and markers of a parcel within reach of each other are matched, each marker to one place,
    as many as can be: a maximum matching of the markers within ``tol`` less the survey's
    ``accuracy`` (scipy's Hopcroft-Karp), then one of those within ``tol`` plus it that keeps
    every place the first held (the least-cost full matching, with a dummy marker for each
    place). A place the second leaves without a marker is ``FAIL``: however the survey is off,
    one of the places sharing markers has none of its own. One only the first leaves without
    is ``UNCERTAIN``; the rest ``OK`` (the status by distance alone may still be worse: take the
    larger). So as many places fail as no matching can serve, and as many more are uncertain
    as only the accuracy could serve. A marker serves a group of places together when it is
    within reach of one of them (each place's own distance is judged apart).

    Which of two places sharing one marker is left without is the matching's choice, made
    the same way whatever else is checked: the places in their order (parcel, ring, along
    it), the markers by ``mrank`` (their input order), and each parcel's places and markers
    matched apart from the others'. Only the parcels with a marker near two of their places
    are looked at further (and scipy imported); the other places are ``OK`` here.

    Examples
    --------
    Two corners 25 ft apart and one marker between them: one of them has no marker of its
    own. With a second marker, both have; corners 25 ft apart taken together, one is enough.

    >>> x, y, p = np.array([0.0, 25.0]), np.zeros(2), np.zeros(2, np.int64)
    >>> one = (np.array([12.5]), np.zeros(1), np.zeros(1, np.int64), np.arange(1))
    >>> own_markers(x, y, p, *one, 30.0, 0.0, 1).tolist()
    [0, 2]
    >>> own_markers(x, y, p, np.array([12.5, 20.0]), np.zeros(2), np.zeros(2, np.int64),
    ...             np.arange(2), 30.0, 0.0, 1).tolist()
    [0, 0]
    >>> own_markers(x, y, p, *one, 30.0, 0.0, 1, together_ft=25.0).tolist()
    [0, 0]
    """
    own = np.full(len(x), OK, dtype=np.int8)
    reach = (tol + accuracy) + EPSILON_FT + FOOT_SLACK * abs(tol)  # against_max's reach
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    parcel = np.asarray(parcel, dtype=np.int64)
    if not len(x) or not len(mx):
        return own
    ci, mj, d = pairs_of_parcel(mx, my, mparcel, x, y, parcel, reach, n_parcels)
    near = against_max(d, tol, accuracy) != FAIL
    ci, mj, d = ci[near], mj[near], d[near]
    shared = np.bincount(mj, minlength=len(mx)) >= 2 if len(mj) else np.zeros(0, dtype=bool)
    if not shared.any():  # no marker near two places
        return own
    # the parcels where places may share markers: their places, and the pairs of those
    doubt = np.zeros(n_parcels, dtype=bool)
    doubt[parcel[ci[shared[mj]]]] = True
    cand = np.flatnonzero(doubt[parcel])
    index = np.full(len(x), -1, dtype=np.int64)
    index[cand] = np.arange(len(cand))
    keep = index[ci] >= 0
    ci, mj, d = index[ci[keep]], mj[keep], d[keep]
    from scipy.sparse import csr_array  # only where places share markers
    from scipy.sparse.csgraph import (
        connected_components,
        maximum_bipartite_matching,
        min_weight_full_bipartite_matching,
    )

    # groups of places together, numbered in the order of their first place
    k = len(cand)
    gi, gj, _ = pairs_of_parcel(
        x[cand], y[cand], parcel[cand], x[cand], y[cand], parcel[cand], together_ft, n_parcels
    )
    _, label = connected_components(
        csr_array((np.ones(len(gi), dtype=np.int8), (gi, gj)), shape=(k, k)), directed=False
    )
    first = np.full(k, k)
    np.minimum.at(first, label, np.arange(k))
    group = np.unique(first[label], return_inverse=True)[1]
    # a group's edge to a marker: the distance from its nearest place
    edge, at = np.unique(group[ci] * len(mx) + mj, return_inverse=True)
    dist = np.full(len(edge), np.inf)
    np.minimum.at(dist, at, d)
    eg, em = edge // len(mx), edge % len(mx)
    # only the groups near a marker that is near another group compete: each of the others
    # has its markers to itself
    shared = np.bincount(em, minlength=len(mx)) >= 2
    if not shared.any():
        return own
    rival = np.zeros(int(group.max()) + 1, dtype=bool)
    rival[eg[shared[em]]] = True
    keep = rival[eg]
    eg, em, dist = eg[keep], em[keep], dist[keep]
    rows_of, g = np.unique(eg, return_inverse=True)  # the groups in order
    # columns: the markers in input order (a marker counted for two parcels: one per parcel)
    mparcel, mrank = np.asarray(mparcel, dtype=np.int64), np.asarray(mrank)
    cols_of = np.unique(em)
    by = np.lexsort((mparcel[cols_of], mrank[cols_of]))
    col_rank = np.empty(len(cols_of), dtype=np.int64)
    col_rank[by] = np.arange(len(cols_of))
    c = col_rank[np.searchsorted(cols_of, em)]
    rows, n_cols = len(rows_of), len(cols_of)
    order = np.lexsort((c, g))  # one canonical graph: by group, then marker
    g, c, dist = g[order], c[order], dist[order]
    strict = against_max(dist, tol, accuracy) == OK
    graph = csr_array(
        (np.ones(int(strict.sum()), dtype=np.int8), (g[strict], c[strict])),
        shape=(rows, n_cols),
    )
    held = maximum_bipartite_matching(graph, perm_type="column") >= 0
    if accuracy > 0 and not held.all():
        # as many groups as can be matched with the markers within the tolerance and the
        # accuracy, those matched within the tolerance less it among them (one always is: the
        # groups a matching holds can be held by a larger one): the least cost, with a marker
        # of one's own costing 1 and none 3, or 4 for a group the first matching held
        graph = csr_array(
            (
                np.r_[np.ones(len(g)), np.where(held, 4.0, 3.0)],
                (np.r_[g, np.arange(rows)], np.r_[c, n_cols + np.arange(rows)]),
            ),
            shape=(rows, n_cols + rows),
        )
        row, got = min_weight_full_bipartite_matching(graph)
        without = np.zeros(rows, dtype=bool)
        without[row[got >= n_cols]] = True
    else:  # within the tolerance alone (no accuracy stated): one matching
        without = ~held
    # a group with no marker near at all is failed by its distances already: not shared
    has_strict = np.bincount(g[strict], minlength=rows) > 0
    mine = np.full(rows, OK, dtype=np.int8)
    mine[~held & has_strict] = UNCERTAIN
    mine[without] = FAIL  # every group here has a marker near
    status = np.full(int(group.max()) + 1, OK, dtype=np.int8)
    status[rows_of] = mine
    own[cand] = status[group]
    return own


def point_findings(
    points: pd.DataFrame,
    counted: np.ndarray,
    *,
    rule_name: str,
    clause: str,
    noun: str,
    need: str,
    tolerance_ft: float,
    accuracy_ft: float,
    shared: np.ndarray | None = None,
    nouns: str | None = None,
) -> pd.DataFrame:
    """Findings for places that each need a marker (corners, access points).

    ``points`` has one row per place: ``parcel``, ``status``, ``nearest_ft`` (the figure
    compared with the tolerance) and ``neighbour_ft`` (how far the place is from posting, for
    the message; inf when its ring has no marker). ``shared``: True for the places whose
    status comes of sharing their markers with other places (:func:`own_markers`): their
    distances say nothing of it, and the message says so. ``nouns``: the plural of ``noun``
    (``noun`` with an ``s`` by default).
    """
    if len(points) == 0:
        return empty_findings()
    parcel = points["parcel"].to_numpy(dtype=np.int64)
    total = np.bincount(parcel)  # places per parcel
    out = [empty_findings()]
    for level, code in (("violation", FAIL), ("uncertain", UNCERTAIN)):
        sel = (points["status"] == code).to_numpy()
        if not sel.any():
            continue
        key = "neighbour_ft" if level == "violation" else "nearest_ft"
        # per parcel with such places: how many, and the worst figure among them (NaN when
        # none is finite)
        at = parcel[sel]
        count = np.bincount(at)
        with_some = np.flatnonzero(count)
        figure = points[key].to_numpy(dtype=float)[sel]
        figure[np.isinf(figure)] = np.nan
        share = np.zeros(len(count), dtype=np.int64)
        if shared is not None:
            figure[shared[sel]] = np.nan
            share = np.bincount(at[shared[sel]], minlength=len(count))
        worst = np.full(len(count), np.nan)
        np.fmax.at(worst, at, figure)
        n_of, worst, share = count[with_some], worst[with_some], share[with_some]
        of = total[with_some]
        bare = counted[with_some] == 0
        msgs = []
        within = ft(tolerance_ft)
        survey = f"{within} ± {ft(accuracy_ft)} (the stated survey accuracy)"
        # plain Python values: a county has tens of thousands of these messages
        for n, k, far, none, sh in zip(
            n_of.tolist(), of.tolist(), worst.tolist(), bare.tolist(), share.tolist(), strict=True
        ):
            word = noun if k == 1 else (nouns or f"{noun}s")
            own = f" of {plural(n, 'its', 'their')} own" if sh else ""
            why = (
                f" ({'it shares' if n == 1 else f'{sh} share'} a marker with another {noun}:"
                f" one marker serves one {noun})"
                if sh
                else ""
            )
            if none:
                msgs.append(f"none of its {k} {word} has a marker")
            elif level == "violation":
                # (a corner 30.004 ft from its marker, 30 ft allowed, is not "30.0 ft" from it)
                far_ft = ft_vs(far, tolerance_ft)
                tail = f"; the farthest is {far_ft} from a marker" if math.isfinite(far) else ""
                has = plural(n, "has", "have")
                msgs.append(f"{n} of {k} {word} {has} no {need}{own} within {within}{why}{tail}")
            else:
                has = plural(n, "has", "have")
                msgs.append(f"{n} of {k} {word} {has} {need}{own} only within {survey}{why}")
        measured = np.where(bare, np.nan, worst)
        out.append(
            findings_frame(
                with_some, rule_name, level, clause, msgs, measured, tolerance_ft, "ft", n_of
            )
        )
    return pd.concat(out, ignore_index=True)
