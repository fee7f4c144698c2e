"""Density: at least so many markers to a mile of boundary, or so many in all (New Jersey's
"not fewer than ten to a mile along the exterior boundaries", Hawaii's "no less than three signs
to a mile", South Carolina's "four conspicuous places on the borders").

What is counted are *places*: markers of the rule's kinds along the boundary, where markers
closer than ``place_ft`` to the previous one along the ring stand at the same place (two signs
on one post, a survey that recorded one sign twice). The boundary is every ring, or the exterior
rings only (``exterior_only``: "along the exterior boundaries"). A parcel needs
``ceil(per_mile * miles)`` places (at least one), and at least ``min_count``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from posting.checks import EPSILON_FT
from posting.checks.spacing import ring_gaps
from posting.kinds import Kind, Part, register
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule
from posting.verdict import empty_findings, findings_frame, ft, marker_words, plural

__all__ = ["FT_PER_MILE", "DensityRule", "required", "ring_places"]

FT_PER_MILE = 5280.0


@dataclass(frozen=True)
class DensityRule(Rule):
    """At least ``per_mile`` places with a marker to a mile of boundary, and at least
    ``min_count`` in all; ``exterior_only``: holes are not counted; ``place_ft``: markers
    nearer than this along the boundary are one place."""

    per_mile: float | None = None
    min_count: float | None = None
    exterior_only: bool = False
    place_ft: float = 0.0
    kinds: tuple[str, ...] = ("sign",)


def parse(t: Reader, kinds: tuple[str, ...]) -> DensityRule:
    per_mile, min_count = t.positive("per_mile"), t.positive("min_count")
    if per_mile is None and min_count is None:
        raise t.error("per_mile", "or 'min_count' is required (markers to a mile, or in all)")
    if min_count is not None and min_count != int(min_count):
        raise t.error("min_count", f"must be a whole number, not {min_count:g}")
    place = t.get("place_ft", float)
    if place is not None and place < 0:
        raise t.error("place_ft", f"must be 0 or more, not {place:g}")
    return DensityRule(
        **t.common(),
        per_mile=per_mile,
        min_count=min_count,
        exterior_only=bool(t.get("exterior_only", bool)),
        place_ft=place or 0.0,
        kinds=t.marker_kinds(kinds),
    )


def ring_places(
    marker_ring: np.ndarray, position_ft: np.ndarray, ring_length_ft: np.ndarray, place_ft: float
) -> np.ndarray:
    """Places with a marker on each ring: markers within ``place_ft`` of the previous one
    along the ring (wrapping round) stand at one place.

    On a ring with markers, the places are as many as the gaps between consecutive markers
    longer than ``place_ft`` (each such gap ends a place; markers within a thousandth of a foot
    of each other stand at one point), and at least one.

    Examples
    --------
    A 1,000 ft ring with markers at 0, 10 and 500 ft, and another ring with none: two places
    when markers within 20 ft are one place, three when every marker counts.

    >>> ring_places(np.array([0, 0, 0]), np.array([0.0, 10.0, 500.0]),
    ...             np.array([1000.0, 300.0]), 20.0).tolist()
    [2, 0]
    >>> ring_places(np.array([0, 0, 0]), np.array([0.0, 10.0, 500.0]),
    ...             np.array([1000.0, 300.0]), 0.0).tolist()
    [3, 0]
    """
    length = np.asarray(ring_length_ft, dtype=float)
    gaps = ring_gaps(marker_ring, position_ft, length)
    marked = ~gaps.unmarked
    apart = gaps.length_ft > place_ft + EPSILON_FT  # within a thousandth of a foot: one point
    ends = np.bincount(gaps.ring[marked & apart], minlength=len(length))
    has = np.bincount(gaps.ring[marked], minlength=len(length)) > 0
    return np.where(has, np.maximum(ends, 1), 0).astype(np.int64)


def required(rule: DensityRule, boundary_ft: np.ndarray) -> np.ndarray:
    """Places each parcel needs: ``ceil(per_mile * miles)`` (at least one), at least
    ``min_count``.

    >>> rule = DensityRule("x", per_mile=10.0)
    >>> required(rule, np.array([5280.0, 2640.0, 2641.0, 100.0])).tolist()
    [10, 5, 6, 1]
    """
    need = np.zeros(len(boundary_ft), dtype=np.int64)
    if rule.per_mile is not None:
        # a millionth of a sign of slack: 0.5 mi at 10 a mile needs 5, not 6
        per = np.ceil(rule.per_mile * np.asarray(boundary_ft) / FT_PER_MILE - 1e-6)
        need = np.maximum(per.astype(np.int64), 1)
    if rule.min_count is not None:
        need = np.maximum(need, int(rule.min_count))
    return need


def measure(rule: DensityRule, profile, m: Measurements) -> Part:
    """Places marked and needed per parcel, and a violation where there are too few."""
    prep, asg = m.prep, m.asg
    rings = prep.rings
    counted_rings = rings.hole == 0 if rule.exterior_only else np.ones(len(rings), dtype=bool)
    mk = m.am[m.mask(rule.kinds)]
    mk = mk[counted_rings[asg.ring[mk]]]
    places_ring = ring_places(asg.ring[mk], asg.position_ft[mk], rings.length_ft, rule.place_ft)
    places_ring[~counted_rings] = 0
    places = np.bincount(rings.parcel, weights=places_ring, minlength=m.n).astype(np.int64)
    boundary = np.bincount(
        rings.parcel, weights=np.where(counted_rings, rings.length_ft, 0.0), minlength=m.n
    )
    need = required(rule, boundary)
    valid = prep.group >= 0
    few = np.flatnonzero(valid & (places < need))
    part = Part(columns={"places_marked": places, "places_required": np.where(valid, need, 0)})
    if not len(few):
        part.findings.append(empty_findings())
        return part
    what = marker_words(rule.kinds)
    where = "exterior boundary" if rule.exterior_only else "boundary"
    one_place = f" (markers within {ft(rule.place_ft)} of each other are one place)"
    msgs = []
    for k, n, b in zip(
        places[few].tolist(), need[few].tolist(), boundary[few].tolist(), strict=True
    ):
        rate = (
            f" ({rule.per_mile:g} to a mile)"
            if rule.per_mile is not None and n > (rule.min_count or 0)
            else ""
        )
        msgs.append(
            f"{k} {plural(k, 'place', 'places')} with a {what} on its {b / FT_PER_MILE:,.2f} mi "
            f"({ft(b)}) of {where}; at least {n} needed{rate}"
            + (one_place if rule.place_ft > 0 else "")
        )
    part.findings.append(
        findings_frame(
            few, "density", "violation", rule.clause, msgs, places[few], need[few], "places", 1
        )
    )
    return part


def summary(rule: DensityRule) -> dict:
    return {"density_per_mile": rule.per_mile, "density_min_count": rule.min_count}


register(
    Kind(
        "density",
        DensityRule,
        parse,
        "at least so many markers to a mile",
        measure=measure,
        counts_markers=True,
        summary=summary,
    )
)
