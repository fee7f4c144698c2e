"""Density: at least so many markers to a mile of boundary, or so many in all (New Jersey's
"not fewer than ten to a mile along the exterior boundaries", Hawaii's "no less than three signs
to a mile", South Carolina's "four conspicuous places on the borders").

What is counted are *places*: markers of the rule's kinds along the boundary, where markers
closer than ``place_ft`` to the previous one along the ring stand at the same place (two signs
on one post, a survey that recorded one sign twice). The boundary is every ring, or the exterior
rings only (``exterior_only``: "along the exterior boundaries"). A parcel needs
``ceil(per_mile * miles)`` places (at least one), and at least ``min_count``.

The boundary and the distances between markers are measured at sea level unless the land's
elevation is given: on the ground they are ``lo`` to ``hi`` times as long
(:mod:`posting.elevation`). A parcel then needs between ``required(b * lo)`` and
``required(b * hi)`` places, and its markers stand at between the places they make with the
distances at ``lo`` (the fewest: markers nearer together on the ground are more often one
place) and at ``hi``. Both counts step up with the elevation, so it is judged at every factor
of the band: it passes when there are enough places at each (at ``lo`` and where the need
steps up), fails when there are too few at each (at ``hi`` and just before each step), and is
``uncertain`` otherwise, with a finding that says the land's elevation settles it. Five places
and five needed at the lowest land, six and six at the highest, pass when the places step up
before the need does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from posting.checks import EPSILON_FT
from posting.checks.spacing import ring_gaps
from posting.kinds import Kind, Part, register
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule
from posting.verdict import empty_findings, findings_frame, ft, marker_words, plural

__all__ = ["FT_PER_MILE", "Count", "DensityRule", "count", "required", "ring_places"]

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
    marker_ring: np.ndarray,
    position_ft: np.ndarray,
    ring_length_ft: np.ndarray,
    place_ft: float,
    scale: Any = 1.0,
) -> np.ndarray:
    """Places with a marker on each ring: markers within ``place_ft`` of the previous one
    along the ring (wrapping round) stand at one place.

    On a ring with markers, the places are as many as the gaps between consecutive markers
    longer than ``place_ft`` (each such gap ends a place; markers within a thousandth of a foot
    of each other stand at one point), and at least one. ``scale`` (one number, or one per
    ring) is how much longer on the ground the gaps are than as measured.

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

    Markers 19.999 ft apart at sea level are 20.0038 ft apart on the ground at 1.00024: two
    places when markers within 20 ft are one.

    >>> ring_places(np.array([0, 0]), np.array([0.0, 19.999]), np.array([1000.0]), 20.0,
    ...             np.array([1.00024])).tolist()
    [2]
    """
    length = np.asarray(ring_length_ft, dtype=float)
    gaps = ring_gaps(marker_ring, position_ft, length)
    marked = ~gaps.unmarked
    k = np.broadcast_to(np.asarray(scale, dtype=float), length.shape)[gaps.ring]
    # within a thousandth of a foot: one point
    apart = gaps.length_ft * k > place_ft + EPSILON_FT
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


@dataclass(frozen=True)
class Count:
    """Per parcel, the places its markers make and the places it needs, with the ground's
    lengths ``lo`` and ``hi`` times those measured: ``places_lo`` (the fewest) and
    ``places_hi``, ``need_lo`` and ``need_hi`` (the most); ``boundary_ft`` the counted boundary
    as measured; ``spare_fewest`` and ``spare_most`` the fewest and most places to spare
    (places less needed) at any one factor of the band, and ``most_at`` the places and the
    need at a factor where they are most (:func:`count`): a violation's figures, which stand
    for one elevation, never places at one end of the band against the need at the other."""

    places_lo: np.ndarray
    places_hi: np.ndarray
    need_lo: np.ndarray
    need_hi: np.ndarray
    boundary_ft: np.ndarray
    spare_fewest: np.ndarray | None = None
    spare_most: np.ndarray | None = None
    most_at: tuple[np.ndarray, np.ndarray] | None = None

    @property
    def few(self) -> np.ndarray:
        """Too few places at every elevation of the band: fewer than needed wherever the
        places to spare are most (without them, fewer at the most than needed at the least)."""
        if self.spare_most is None:
            return self.places_hi < self.need_lo
        return self.spare_most < 0

    @property
    def maybe_few(self) -> np.ndarray:
        """Too few at some elevations of the band, not at others: where the places to spare
        are fewest (both counts step inside the band: five places and five needed at the
        lowest land, six and six at the highest, is enough at every elevation when the
        places step up first)."""
        if self.spare_fewest is None:
            return ~self.few & (self.places_lo < self.need_hi)
        return ~self.few & (self.spare_fewest < 0)


def count(
    rule: DensityRule,
    marker_ring: np.ndarray,
    position_ft: np.ndarray,
    ring_length_ft: np.ndarray,
    ring_parcel: np.ndarray,
    counted_rings: np.ndarray,
    n: int,
    scale: tuple[Any, Any] = (1.0, 1.0),
) -> Count:
    """The :class:`Count` of ``n`` parcels: markers at ``marker_ring`` and ``position_ft``
    (those on rings not counted are left out), the rings' lengths, parcels and whether each is
    counted (``exterior_only``); ``scale`` per ring (``lo``, ``hi``: the ground's lengths to
    those measured, :meth:`posting.measure.Measurements.scale`).

    Examples
    --------
    A ring of 2,639 ft at sea level with five markers, ten to a mile: 2,639.4-2,640.7 ft on
    the ground at 1.00014813-1.00065983 needs 5 to 6 (at 2,640 ft, half a mile, 6).

    >>> c = count(DensityRule("x", per_mile=10.0), np.zeros(5, np.int64),
    ...           np.arange(5) * 500.0, np.array([2639.0]), np.array([0]), np.array([True]), 1,
    ...           (1.00014813, 1.00065983))
    >>> c.places_lo.tolist(), c.need_lo.tolist(), c.need_hi.tolist(), c.maybe_few.tolist()
    ([5], [5], [6], [True])
    """
    length = np.asarray(ring_length_ft, dtype=float)
    on = counted_rings[marker_ring]
    ring, pos = marker_ring[on], position_ft[on]
    out = []
    for k in (np.broadcast_to(np.asarray(x, dtype=float), length.shape) for x in scale):
        places_ring = ring_places(ring, pos, length, rule.place_ft, k)
        places_ring[~counted_rings] = 0
        out.append(np.bincount(ring_parcel, weights=places_ring, minlength=n).astype(np.int64))
    boundary = np.bincount(ring_parcel, weights=np.where(counted_rings, length, 0.0), minlength=n)
    # the boundary on the ground, at the lowest and the highest land
    b_lo, b_hi = (
        np.bincount(ring_parcel, weights=np.where(counted_rings, length * k, 0.0), minlength=n)
        for k in (np.broadcast_to(np.asarray(x, dtype=float), length.shape) for x in scale)
    )
    need_lo, need_hi = required(rule, b_lo), required(rule, b_hi)
    margin = _margins(rule, ring, pos, length, ring_parcel, counted_rings, n, scale, boundary)
    return Count(out[0], out[1], need_lo, need_hi, boundary, *margin(out, need_lo, need_hi))


def _margins(
    rule: DensityRule,
    ring: np.ndarray,
    pos: np.ndarray,
    length: np.ndarray,
    ring_parcel: np.ndarray,
    counted_rings: np.ndarray,
    n: int,
    scale: tuple[Any, Any],
    boundary: np.ndarray,
):
    """A function of the counts at the band's ends (places, needed) giving per parcel the
    fewest and the most places to spare (places less needed) over every factor of the band.

    Both counts step up with the factor. Between two steps of the need, the places to spare are
    fewest at the lower end and most at the upper: so the fewest are at ``lo`` or where the
    need steps up (``f_N``, the factor at which ``N + 1`` are needed), the most at ``hi`` or at
    an ``f_N`` (``N`` still needed). The places at ``f_N`` (the count of markers at exactly
    that factor) are found once for each step (one or two steps in a band of 1:1,500). With
    them, the places and the need at a factor where the places to spare are most (the lowest
    such of those looked at)."""

    def margin(out, need_lo, need_hi):
        # at the band's ends; where the need is one over the band, exact
        fewest, most = out[0] - need_lo, out[1] - need_hi
        first = out[0] - need_lo >= most  # the lowest land has as many to spare
        most = np.maximum(most, out[0] - need_lo)
        best = (np.where(first, out[0], out[1]), np.where(first, need_lo, need_hi))
        steps = need_hi - need_lo
        if rule.per_mile is None or not steps.any():
            return fewest, most, best
        lo_ring = np.broadcast_to(np.asarray(scale[0], dtype=float), length.shape)
        per_parcel = np.ones(n)
        per_parcel[ring_parcel] = lo_ring
        with np.errstate(divide="ignore", invalid="ignore"):
            x = rule.per_mile * boundary / FT_PER_MILE  # places needed a factor of 1
        for j in range(int(steps.max())):
            at = np.flatnonzero(steps > j)
            # the per-mile need reaches N + 1 above f_N (required's slack of a millionth)
            big_n = need_lo[at] + j
            f = per_parcel.copy()
            f[at] = (big_n + 1e-6) / x[at]
            on = np.isin(ring_parcel[ring], at)
            k = f[ring_parcel]
            places_ring = ring_places(ring[on], pos[on], length, rule.place_ft, k)
            places_ring[~counted_rings] = 0
            places = np.bincount(ring_parcel, weights=places_ring, minlength=n).astype(np.int64)
            fewest[at] = np.minimum(fewest[at], places[at] - (big_n + 1))
            more = places[at] - big_n > most[at]
            best[0][at[more]], best[1][at[more]] = places[at][more], big_n[more]
            most[at] = np.maximum(most[at], places[at] - big_n)
        return fewest, most, best

    return margin


def measure(rule: DensityRule, profile, m: Measurements) -> Part:
    """Places marked and needed per parcel, and a violation where there are too few (uncertain
    where too few at some of the land's elevations only: the elevation not given).

    ``places_marked`` is the fewest places the markers make, ``places_required`` the most
    needed (what suffices at any elevation); without the band, the count and the need."""
    prep, asg = m.prep, m.asg
    rings = prep.rings
    counted_rings = rings.hole == 0 if rule.exterior_only else np.ones(len(rings), dtype=bool)
    mk = m.am[m.mask(rule.kinds)]
    c = count(
        rule,
        asg.ring[mk],
        asg.position_ft[mk],
        rings.length_ft,
        rings.parcel,
        counted_rings,
        m.n,
        m.scale(rings.parcel),
    )
    valid = prep.group >= 0
    few = np.flatnonzero(valid & c.few)
    maybe = np.flatnonzero(valid & c.maybe_few)
    part = Part(
        columns={"places_marked": c.places_lo, "places_required": np.where(valid, c.need_hi, 0)}
    )
    part.findings.append(empty_findings())
    if len(few):
        part.findings.append(_findings(rule, m, c, few, "violation"))
    if len(maybe):
        part.findings.append(_findings(rule, m, c, maybe, "uncertain"))
    return part


def _findings(rule: DensityRule, m: Measurements, c: Count, at: np.ndarray, level: str):
    """The findings of parcels ``at``: too few places (``violation``: at every elevation the
    land may have), or perhaps too few (``uncertain``: at some)."""
    what = marker_words(rule.kinds)
    where = "exterior boundary" if rule.exterior_only else "boundary"
    one_place = f" (markers within {ft(rule.place_ft)} of each other are one place)"
    lo, hi = (np.broadcast_to(x, at.shape) for x in m.scale(at))
    places_lo, places_hi = c.places_lo[at].tolist(), c.places_hi[at].tolist()
    need_lo, need_hi = c.need_lo[at].tolist(), c.need_hi[at].tolist()
    b = c.boundary_ft[at]
    at_sea = required(rule, b).tolist()
    msgs = []
    for i in range(len(at)):
        k0, k1, n0, n1 = places_lo[i], places_hi[i], need_lo[i], need_hi[i]
        rate = (
            f" ({rule.per_mile:g} to a mile)"
            if rule.per_mile is not None and n1 > (rule.min_count or 0)
            else ""
        )
        miles = f"{b[i] / FT_PER_MILE:,.2f} mi ({ft(b[i])}) of {where}"
        also = one_place if rule.place_ft > 0 else ""
        if k0 == k1 and n0 == n1 and (n0 == at_sea[i] or not m.banded):  # no band to word
            msgs.append(
                f"{k1} {plural(k1, 'place', 'places')} with a {what} on its {miles}; at least "
                f"{n0} needed{rate}{also}"
            )
            continue
        places = f"{k0} {plural(k0, 'place', 'places')}" if k0 == k1 else f"{k0} to {k1} places"
        ground = (
            f"{b[i] * lo[i]:,.2f}-{b[i] * hi[i]:,.2f} ft on the ground at {m.ground.where[at[i]]}"
        )
        need = f"at least {n0}" if n0 == n1 else f"{n0} to {n1}"
        tail = (
            "too few at any of them"
            if level == "violation"
            else "it may be too few: the land's elevation (--elevation-ft) settles it"
        )
        msgs.append(
            f"{places} with a {what} on its {miles} at sea level, {ground}{also}: {need} "
            f"needed{rate}; {tail}"
        )
    if level == "violation":  # at one elevation, where the fewest are missing
        measured, limit = (
            (c.places_hi[at], c.need_lo[at]) if c.most_at is None else (x[at] for x in c.most_at)
        )
    else:  # the fewest places against the most needed
        measured, limit = c.places_lo[at], c.need_hi[at]
    return findings_frame(at, "density", level, rule.clause, msgs, measured, limit, "places", 1)


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
