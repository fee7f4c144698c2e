"""Access points: a marker where each road, driveway or trail crosses the boundary, and at
each gate (Arizona's "every vehicular access point", Minnesota's access roads and trails).

The crossings are found once per check from the access layer (:mod:`posting.measure`); a
profile's ``types`` keeps the ones it names.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from posting.kinds import Kind, Part, register
from posting.kinds.points import POINT_STATUS, point_findings, points_check
from posting.measure import CROSSING_COLUMNS, Measurements
from posting.rules.schema import Reader, Rule
from posting.verdict import categorical

__all__ = ["AccessRule"]

COLUMNS = [*CROSSING_COLUMNS, "nearest_ft", "neighbour_ft", "status"]


@dataclass(frozen=True)
class AccessRule(Rule):
    """A marker at each place where an access feature crosses the boundary.

    ``types`` lists the access feature types that count (matched case-insensitively against the
    access layer's type column: ``road``, ``driveway``, ``trail``, ``gate``, ...); empty means
    every feature.
    """

    types: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ("sign",)


def parse(t: Reader, kinds: tuple[str, ...]) -> AccessRule:
    return AccessRule(
        **t.common(),
        types=tuple(x.lower() for x in (t.strings("types") or ())),
        kinds=t.marker_kinds(kinds),
    )


def measure(rule: AccessRule, profile, m: Measurements) -> Part:
    """Each access point's nearest marker and status, and the access findings."""
    if m.crossings is None:
        part = empty(m)
        part.skip(
            "access",
            rule.clause,
            "no access layer ({option:access}) to find the entrances, gates and roads",
        )
        return part
    pts = m.crossings
    if rule.types:
        t = pts["type"].astype("string").str.strip().str.casefold()
        keep = (t.isna() | t.isin(rule.types)).to_numpy(dtype=bool)
        pts = pts[keep].reset_index(drop=True)
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
