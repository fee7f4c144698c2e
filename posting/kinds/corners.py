"""Corners: a marker at each corner of the boundary (``at_corner``), one on each side of it
(``each_side``), or none required.

The corners themselves are found when the parcels are prepared
(:func:`posting.boundary.find_corners`); every corner is in the report, ``not required`` where
the profile has no corner rule.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from posting.kinds import Kind, Part, register
from posting.kinds.points import POINT_STATUS, own_markers, point_findings, points_check
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule
from posting.verdict import categorical

__all__ = ["MODES", "CornerRule"]

MODES = ("none", "at_corner", "each_side")


@dataclass(frozen=True)
class CornerRule(Rule):
    """A marker at each corner (``at_corner``), one on each side of each corner
    (``each_side``), or no corner rule (``none``)."""

    mode: str = "at_corner"
    kinds: tuple[str, ...] = ("sign",)


def parse(t: Reader, kinds: tuple[str, ...]) -> CornerRule:
    return CornerRule(
        **t.common(), mode=t.choice("mode", MODES, required=True), kinds=t.marker_kinds(kinds)
    )


def _places(m: Measurements) -> pd.DataFrame:
    prep = m.prep
    c = prep.corners
    lon, lat = prep.corner_lonlat
    return pd.DataFrame(
        {
            "parcel": prep.rings.parcel[c.ring],
            "ring": c.ring,
            "part": prep.rings.part[c.ring],
            "hole": prep.rings.hole[c.ring],
            "position_ft": c.position_ft,
            "x_ft": c.x,
            "y_ft": c.y,
            "lon": lon,
            "lat": lat,
            "turn_deg": c.turn_deg,
        }
    )


def _one_corner_each(m: Measurements, out: pd.DataFrame, kinds, tol: float) -> np.ndarray:
    """A marker at each corner: one marker serves one corner (:func:`own_markers`). Worsens
    ``out``'s status where corners share their markers; True for those corners."""
    asg, markers = m.asg, m.markers
    mk = m.am[m.mask(kinds)]
    origin = mk if m.origin is None else m.origin[mk]
    rank = (markers.file_index[origin].astype(np.int64) << 40) | markers.row[origin].astype(
        np.int64
    )
    own = own_markers(
        out["x_ft"].to_numpy(dtype=float),
        out["y_ft"].to_numpy(dtype=float),
        out["parcel"].to_numpy(dtype=np.int64),
        asg.x_ft[mk],
        asg.y_ft[mk],
        asg.parcel[mk],
        rank,
        tol,
        m.settings.accuracy_ft,
        m.n,
        together_ft=m.settings.corner_merge_ft,
    )
    before = out["status"].to_numpy()
    out["status"] = np.maximum(before, own)
    return own > before


def measure(rule: CornerRule, profile, m: Measurements) -> Part:
    """Each corner's nearest marker and status, and the corner findings."""
    if rule.mode == "none":
        return empty(m)
    tol = m.settings.corner_tolerance_ft
    out = points_check(m, _places(m), rule.kinds, rule.mode, tol, m.beside_corners(rule.kinds))
    shared = None
    if rule.mode == "at_corner":
        shared = _one_corner_each(m, out, rule.kinds, tol)
    out["marker_shared"] = np.zeros(len(out), dtype=bool) if shared is None else shared
    counted = m.counted(m.mask(rule.kinds))
    need = "marker" if rule.mode == "at_corner" else "marker on each side"
    found = point_findings(
        out,
        counted,
        rule_name="corners",
        clause=rule.clause,
        noun="corner",
        need=need,
        tolerance_ft=tol,
        accuracy_ft=m.settings.accuracy_ft,
        shared=shared,
    )
    out["status"] = categorical(out["status"].to_numpy(), POINT_STATUS)
    return Part(findings=[found], tables={"corners": out})


def empty(m: Measurements) -> Part:
    """No corner rule: every corner is in the report, ``not required``."""
    pts = _places(m)
    table = pts.assign(
        nearest_ft=np.nan,
        neighbour_ft=np.nan,
        status=categorical(np.full(len(pts), 3), POINT_STATUS),
        marker_shared=False,  # (the column order of measure's table)
    )
    return Part(tables={"corners": table})


def summary(rule: CornerRule) -> dict:
    return {"corners": rule.mode}


register(
    Kind(
        "corners",
        CornerRule,
        parse,
        "a marker at each corner",
        measure=measure,
        counts_markers=True,
        summary=summary,
        empty=empty,
    )
)
