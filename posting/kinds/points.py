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
from posting.index import points_near
from posting.measure import Measurements
from posting.verdict import empty_findings, findings_frame, ft, plural, worst_per_parcel

__all__ = ["POINT_STATUS", "point_findings", "points_check"]

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
            ox, oy = asg.x_ft[others], asg.y_ft[others]
            px, py = pts["x_ft"].to_numpy()[loose], pts["y_ft"].to_numpy()[loose]
            # the places in each marker's box grown by the reach (bare coordinates, no Points)
            qi, ti = points_near(ox, oy, px, py, tol_all)
            d = np.hypot(ox[ti] - px[qi], oy[ti] - py[qi])
            ok = (pts["parcel"].to_numpy()[loose][qi] == asg.parcel[others][ti]) & (d <= tol_all)
            best = np.full(len(loose), np.inf)
            np.minimum.at(best, qi[ok], d[ok])
            figure[loose] = np.minimum(figure[loose], best)
    out = pts.copy()
    out["nearest_ft"] = figure
    out["neighbour_ft"] = neighbour
    out["status"] = against_max(figure, tol, m.settings.accuracy_ft)
    return out


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
    total = points.groupby("parcel").size()
    out = [empty_findings()]
    for level, code in (("violation", FAIL), ("uncertain", UNCERTAIN)):
        sel = points[points["status"] == code]
        if not len(sel):
            continue
        key = "neighbour_ft" if level == "violation" else "nearest_ft"
        w = worst_per_parcel(sel.replace({key: {np.inf: np.nan}}), key)
        of = total.loc[w["parcel"]].to_numpy()
        bare = counted[w["parcel"].to_numpy(dtype=np.int64)] == 0
        msgs = []
        within = ft(tolerance_ft)
        survey = f"{within} ± {ft(accuracy_ft)} (the stated survey accuracy)"
        # plain Python values: a county has tens of thousands of these messages
        for n, k, far, none in zip(
            w["n"].tolist(), of.tolist(), w[key].tolist(), bare.tolist(), strict=True
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
        measured = np.where(bare, np.nan, w[key].to_numpy(dtype=float))
        out.append(
            findings_frame(
                w["parcel"], rule_name, level, clause, msgs, measured, tolerance_ft, "ft", w["n"]
            )
        )
    return pd.concat(out, ignore_index=True)
