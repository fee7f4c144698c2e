"""Places that each need a marker (corners, access points, the banks where water crosses a
boundary): which have one within the tolerance, and the findings that say which do not.

Shared by :mod:`~posting.kinds.corners`, :mod:`~posting.kinds.access` and
:mod:`~posting.kinds.water`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from posting.checks import FAIL, UNCERTAIN, against_max
from posting.checks.corners import ring_neighbours
from posting.index import exclusive_cumsum, expand_counts
from posting.measure import Measurements
from posting.verdict import empty_findings, findings_frame, ft, plural

__all__ = ["POINT_STATUS", "nearest_of_parcel", "point_findings", "points_check"]

POINT_STATUS = ["ok", "uncertain", "missing", "not required"]
"""A place's status in the report, by code (OK, UNCERTAIN, FAIL, and 3: no rule asks for it)."""


def points_check(m: Measurements, pts: pd.DataFrame, kinds, mode: str, tol: float) -> pd.DataFrame:
    """Status of places that need a marker (corners, access points).

    The markers that can serve a place are first the two beside it along its ring: the last one
    at or before it and the first one after it. ``at_corner``: the nearer of the two, in a
    straight line, must be within ``tol`` (or, failing that, any marker of the parcel).
    ``each_side``: both must be within ``tol`` along the ring, and be two different markers.
    """
    asg, rings = m.asg, m.prep.rings
    mk = m.am[m.mask(kinds)]
    b, a, bft, aft = ring_neighbours(
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
    within ``reach`` (inf when none): among the markers whose box grown by ``reach`` holds the
    place, the pairs :func:`posting.index.points_near` finds, of one parcel.

    Each parcel has a grid of its own (square cells of twice the reach, from the lowest x and
    y of its markers), numbered after the cells of the parcels before it: a marker's key is
    its parcel's cell, and a place looks only in its own parcel's cells (at most four). The
    markers of a file usually come parcel by parcel, so their keys are nearly sorted already;
    the places come parcel by parcel too, so the look-ups stay in a small part of the keys.
    Markers and places with a NaN coordinate match nothing.

    Examples
    --------
    Two markers of parcel 0 and one of parcel 1; places of parcels 0 and 1 near all three:

    >>> nearest_of_parcel(np.array([0.0, 3.0, 1.0]), np.array([0.0, 0.0, 0.0]),
    ...                   np.array([0, 0, 1]), np.array([2.0, 2.0]), np.array([0.0, 0.0]),
    ...                   np.array([0, 1]), 2.5, 2).tolist()
    [1.0, 1.0]
    """
    best = np.full(len(qx), np.inf)
    r = float(reach)
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    qx, qy = np.asarray(qx, dtype=float), np.asarray(qy, dtype=float)
    with np.errstate(invalid="ignore"):
        pts = np.flatnonzero(np.isfinite(x) & np.isfinite(y))
    if not len(pts) or not len(qx) or not r >= 0:
        return best
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
    np.minimum.at(best, qi[keep], d[keep])
    return best


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
) -> pd.DataFrame:
    """Findings for places that each need a marker (corners, access points).

    ``points`` has one row per place: ``parcel``, ``status``, ``nearest_ft`` (the figure
    compared with the tolerance) and ``neighbour_ft`` (how far the place is from posting, for
    the message; inf when its ring has no marker).
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
        worst = np.full(len(count), np.nan)
        np.fmax.at(worst, at, figure)
        n_of, worst = count[with_some], worst[with_some]
        of = total[with_some]
        bare = counted[with_some] == 0
        msgs = []
        within = ft(tolerance_ft)
        survey = f"{within} ± {ft(accuracy_ft)} (the stated survey accuracy)"
        # plain Python values: a county has tens of thousands of these messages
        for n, k, far, none in zip(
            n_of.tolist(), of.tolist(), worst.tolist(), bare.tolist(), strict=True
        ):
            word = noun if k == 1 else f"{noun}s"
            if none:
                msgs.append(f"none of its {k} {word} has a marker")
            elif level == "violation":
                tail = f"; the farthest is {ft(far)} from a marker" if math.isfinite(far) else ""
                msgs.append(
                    f"{n} of {k} {word} {plural(n, 'has', 'have')} no {need} within {within}{tail}"
                )
            else:
                msgs.append(
                    f"{n} of {k} {word} {plural(n, 'has', 'have')} {need} only within {survey}"
                )
        measured = np.where(bare, np.nan, worst)
        out.append(
            findings_frame(
                with_some, rule_name, level, clause, msgs, measured, tolerance_ft, "ft", n_of
            )
        )
    return pd.concat(out, ignore_index=True)
