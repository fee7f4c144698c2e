"""Boundaries formed by water: posted like any other (Florida), exempt from spacing, or marked
on both banks where water crosses the boundary (Montana).

Which stretches are formed by water is measured once from the water layer
(:mod:`posting.land`); the ``exempt`` mode is applied by the spacing rule, which leaves their
length out of each gap; ``both_banks`` is checked here, like corners.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import shapely

from posting.kinds import Kind, Part, register
from posting.kinds.points import POINT_STATUS, point_findings, points_check
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule
from posting.verdict import categorical

__all__ = ["MODES", "WaterRule"]

MODES = ("post", "exempt", "both_banks")


@dataclass(frozen=True)
class WaterRule(Rule):
    """Boundaries formed by water: ``post`` them like any boundary (Florida), ``exempt`` them
    from spacing, or mark ``both_banks`` where water crosses the boundary (Montana)."""

    mode: str = "post"


def parse(t: Reader, kinds: tuple[str, ...]) -> WaterRule:
    return WaterRule(**t.common(), mode=t.choice("mode", MODES) or "post")


def measure(rule: WaterRule, profile, m: Measurements) -> Part:
    """Where water crosses a boundary, a marker on each bank (Montana's rule)."""
    part = Part()
    if rule.mode != "both_banks":
        return part
    water = m.land.water
    if water is None:
        part.skip(
            "water",
            rule.clause,
            "no water layer ({option:water}) to find where water crosses the boundary",
        )
        return part
    prep = m.prep
    rings = prep.rings
    # the stretches formed by water, and the shorter ones where a creek crosses the line (a
    # creek drawn as a line, or narrower than the tolerance, is water crossing the property
    # too: its banks are the two ends of the stretch within the tolerance of it), in order
    # along each ring
    geometry, ring_of = water.geometry, water.ring
    crossings = m.land.water_crossings
    if crossings is not None and len(crossings):
        geometry = np.concatenate([geometry, crossings.geometry])
        ring_of = np.concatenate([ring_of, crossings.ring])
        start = shapely.line_locate_point(rings.geometry[ring_of], shapely.get_point(geometry, 0))
        order = np.lexsort((start, ring_of))
        geometry, ring_of = geometry[order], ring_of[order]
    # a ring wholly along water (an island, a pond's shore as a hole) has no bank: nothing
    # crosses it, and its stretch's two ends are one arbitrary point, the ring's start
    open_ = ~shapely.is_closed(geometry)
    geometry, ring_of = geometry[open_], ring_of[open_]
    # each stretch's two banks, its first then its second, stretch by stretch (in order along
    # each ring): a parcel's banks together, as a partition of the parcels lists them
    ends = np.column_stack(
        [shapely.get_point(geometry, 0), shapely.get_point(geometry, -1)]
    ).ravel()
    ring = np.repeat(ring_of, 2)
    pos = shapely.line_locate_point(rings.geometry[ring], ends)
    parcel = rings.parcel[ring]
    x, y = shapely.get_x(ends), shapely.get_y(ends)
    lon, lat = prep.ft_to_lonlat(prep.group[parcel], x, y)
    pts = pd.DataFrame(
        {
            "parcel": parcel,
            "ring": ring,
            "position_ft": pos,
            "x_ft": x,
            "y_ft": y,
            "lon": lon,
            "lat": lat,
            "feature": -1,
            "type": "bank",
        }
    )
    tol = m.settings.access_tolerance_ft
    out = points_check(m, pts, profile.kinds, "at_corner", tol)
    part.findings.append(
        point_findings(
            out,
            m.counted(m.mask(profile.kinds)),
            rule_name="water",
            clause=rule.clause,
            noun="bank where water crosses the boundary",
            nouns="banks where water crosses the boundary",
            need="marker",
            tolerance_ft=tol,
            accuracy_ft=m.settings.accuracy_ft,
        )
    )
    out["status"] = categorical(out["status"].to_numpy(), POINT_STATUS)
    if len(out):
        part.tables["access"] = out  # drawn and listed with the access points
    return part


register(Kind("water", WaterRule, parse, "boundaries formed by water", measure=measure))
