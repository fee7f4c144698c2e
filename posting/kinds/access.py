"""Access points: a marker where each road, driveway or trail crosses the boundary, and at
each gate (Arizona's "every vehicular access point", Minnesota's access roads and trails).

The crossings are found once per check from the access layer (:mod:`posting.measure`); a
profile's ``types`` keeps the ones it names.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from posting.kinds import Kind, Part, register
from posting.kinds.points import POINT_STATUS, point_findings, points_check
from posting.measure import CROSSING_COLUMNS, Measurements
from posting.rules.schema import Reader, Rule
from posting.verdict import categorical, findings_frame

__all__ = ["UNSURE", "AccessRule", "of_types", "unknown_ways"]

COLUMNS = [*CROSSING_COLUMNS, "nearest_ft", "neighbour_ft", "status"]
UNSURE = ": a parcel with markers is uncertain"
"""How a note of an access or entrance rule not checked ends where its parcels with markers are
``uncertain`` for it (:func:`unknown_ways`): the plan cannot complete them either."""
PLACING = {"spacing", "corners", "density", "nearest", "spacing_by_kind", "in_sight"}
"""The rules that say where along the boundary markers go, besides the access points. Without
an access layer, a statute's access rule leaves a parcel with markers ``uncertain``; so does a
guidance layout's where the profile has none of these (the town code's entrances: one marker
anywhere would pass). A guidance layout's access points beside its spacing are reported as not
checked: failing them would only make the parcel uncertain."""


@dataclass(frozen=True)
class AccessRule(Rule):
    """A marker at each place where an access feature crosses the boundary.

    ``types`` lists the access feature types that count (matched case-insensitively against the
    access layer's type column: ``road``, ``driveway``, ``trail``, ``gate``, ...); empty means
    every feature.
    """

    types: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ("sign",)


def parse(t: Reader, kinds: tuple[str, ...], rule: type[AccessRule] = AccessRule) -> AccessRule:
    return rule(
        **t.common(),
        types=tuple(x.lower() for x in (t.strings("types") or ())),
        kinds=t.marker_kinds(kinds),
    )


def of_types(crossings: pd.DataFrame, types: tuple[str, ...]) -> pd.DataFrame:
    """The access points whose feature is of one of ``types`` (case-insensitively; every one
    when empty; one of no type is kept)."""
    if not types:
        return crossings
    t = crossings["type"].astype("string").str.strip().str.casefold()
    keep = (t.isna() | t.isin(types)).to_numpy(dtype=bool)
    return crossings[keep].reset_index(drop=True)


def measure(rule: AccessRule, profile, m: Measurements) -> Part:
    """Each access point's nearest marker and status, and the access findings."""
    if m.crossings is None:
        part = empty(m)
        # unsure: the statute asks for markers at the ways in, which cannot be told here, or
        # nothing else says where the markers go (one anywhere would pass); a guidance layout's
        # access points beside its spacing, which fail a parcel only as uncertain, are noted
        unsure = not profile.ours(rule) or not PLACING & {name for name, _ in profile.rules()}
        part.skip(
            "access",
            rule.clause,
            "no access layer ({option:access}) to find the entrances, gates and roads"
            + (UNSURE if unsure else ""),
        )
        if unsure:
            part.findings.append(unknown_ways(m, profile.kinds, "access", rule.clause))
        return part
    pts = of_types(m.crossings, rule.types)
    tol = m.settings.access_tolerance_ft
    out = points_check(m, pts, rule.kinds, "at_corner", tol)
    found = point_findings(
        out,
        m.counted(m.mask(rule.kinds)),
        rule_name="access",
        clause=rule.clause,
        noun="access point",
        need="marker",
        tolerance_ft=tol,
        accuracy_ft=m.settings.accuracy_ft,
    )
    out["status"] = categorical(out["status"].to_numpy(), POINT_STATUS)
    return Part(findings=[found], tables={"access": out[COLUMNS]})


def unknown_ways(
    m: Measurements,
    kinds: tuple[str, ...],
    rule_name: str,
    clause: str,
    message: str = "whether its ways in have markers cannot be told: no access layer",
) -> pd.DataFrame:
    """Without an access layer, an ``uncertain`` finding for each parcel with markers of
    ``kinds`` (every kind its profile counts: a parcel of Tennessee's paint marks with no sign
    at all has markers, and its ways in may want signs): whether its entrances are marked
    cannot be told (a parcel with no marker is ``unposted`` anyway). Passing such a parcel
    would pass land whose entrances may be bare."""
    posted = np.flatnonzero((m.prep.group >= 0) & (m.counted(m.mask(kinds)) > 0))
    return findings_frame(
        posted,
        rule_name,
        "uncertain",
        clause,
        message,
        np.nan,
        np.nan,
        "",
        1,
    )


def empty(m: Measurements) -> Part:
    """No access rule: no access points in the report."""
    return Part(tables={"access": pd.DataFrame(columns=COLUMNS)})


register(
    Kind(
        "access",
        AccessRule,
        parse,
        "a marker at each access point",
        measure=measure,
        counts_markers=True,
        empty=empty,
    )
)
