"""Boundaries formed by water: posted like any other (Florida), exempt from spacing, or marked
on both banks where water crosses the boundary (Montana).

Which stretches are formed by water is measured once from the water layer
(:mod:`posting.land`); the ``exempt`` mode is applied by the spacing rule, which leaves their
length out of each gap, and here to land whose whole boundary is formed by water (an island):
nothing of it needs posting, and it is ``exempt``; ``both_banks`` is checked here, like
corners.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import shapely

from posting.kinds import Kind, Land, Part, register
from posting.kinds.points import POINT_STATUS, point_findings, points_check
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule
from posting.verdict import categorical, ft

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


DRY_FT = 1.0
"""A ring with no more than this of its length off the water is wholly along it, as a gap
without a marker along no more than this needs none (:mod:`posting.kinds.spacing`)."""


def settle(rule: WaterRule, profile, m: Measurements, land: Land, part: Part) -> None:
    """Under the ``exempt`` mode, land whose every ring is formed by water (within
    :data:`DRY_FT`: an island, a lot between a river and a lake's shore) has no boundary that
    needs posting: ``exempt``, not ``unposted`` for want of a marker it needs none of."""
    water = m.land.water
    if rule.mode != "exempt" or water is None:
        return
    prep = m.prep
    rings = prep.rings
    wet_ft = np.bincount(water.ring, weights=water.length_ft, minlength=len(rings))
    dry = rings.length_ft - wet_ft > DRY_FT
    some_dry = np.bincount(rings.parcel, weights=dry, minlength=m.n) > 0
    has_rings = np.bincount(rings.parcel, minlength=m.n) > 0
    island = np.flatnonzero(has_rings & ~some_dry & (prep.group >= 0) & pd.isna(land.exemption))
    clause = f" ({rule.clause})" if rule.clause else ""
    for p in island.tolist():
        land.exemption[p] = (
            f"its whole boundary ({ft(prep.perimeter_ft[p])}) is formed by water, which needs "
            f"no posting{clause}"
        )


register(
    Kind(
        "water",
        WaterRule,
        parse,
        "boundaries formed by water",
        measure=measure,
        settle=settle,
    )
)
