"""Notice at the main entrance: a marker at the one way of access the owner uses as the
land's main entrance (Illinois 720 ILCS 5/21-3(b), Indiana IC 35-43-2-2(c)(2)).

Parcel data does not say which entrance is the main one. A marker at every access point of
the parcel (:mod:`~posting.kinds.access`'s crossings, within ``--access-tolerance-ft``) is
surely one at the main entrance; a marker at none of them is surely none (as far as the access
layer knows the ways in); a marker at some of them, or no access layer, or no way of access
crossing the boundary, leaves the verdict ``uncertain``: the user knows which entrance is the
main one, the data does not.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from posting.checks import FAIL, OK
from posting.kinds import Kind, Part, register
from posting.kinds.access import COLUMNS, UNSURE, AccessRule, empty, of_types, unknown_ways
from posting.kinds.access import parse as access_rule
from posting.kinds.points import POINT_STATUS, points_check
from posting.measure import Measurements
from posting.rules.schema import Reader
from posting.verdict import categorical, empty_findings, findings_frame, ft

__all__ = ["EntranceRule", "entrance_findings"]


@dataclass(frozen=True)
class EntranceRule(AccessRule):
    """A marker at the main entrance, which is one of the parcel's access points: ``types``
    are the access feature types that may be the main entrance (empty: every one)."""


def parse(t: Reader, kinds: tuple[str, ...]) -> EntranceRule:
    return access_rule(t, kinds, EntranceRule)


def measure(rule: EntranceRule, profile, m: Measurements) -> Part:
    """Each access point's nearest marker and status, and per parcel whether the main entrance
    surely has a marker (every access point has one), surely has none (none has), or may."""
    if m.crossings is None:
        part = empty(m)
        part.skip(
            "entrance",
            rule.clause,
            "no access layer ({option:access}) to find the entrances" + UNSURE,
        )
        part.findings.append(
            unknown_ways(
                m,
                profile.kinds,
                "entrance",
                rule.clause,
                "whether a marker stands at the main entrance cannot be told: no access layer",
            )
        )
        return part
    counted = m.counted(m.mask(rule.kinds))
    valid = m.prep.group >= 0
    pts = of_types(m.crossings, rule.types)
    tol = m.settings.access_tolerance_ft
    out = points_check(m, pts, rule.kinds, "at_corner", tol)
    found = entrance_findings(
        out["parcel"].to_numpy(dtype=np.int64),
        np.asarray(out["status"].to_numpy(), dtype=np.int8),
        out["nearest_ft"].to_numpy(dtype=float),
        valid & (counted > 0),
        clause=rule.clause,
        tolerance_ft=tol,
    )
    out["status"] = categorical(out["status"].to_numpy(), POINT_STATUS)
    return Part(findings=[found], tables={"access": out[COLUMNS]})


def entrance_findings(
    parcel: np.ndarray,
    status: np.ndarray,
    nearest_ft: np.ndarray,
    posted: np.ndarray,
    *,
    clause: str,
    tolerance_ft: float,
):
    """Per parcel, from its access points' statuses (``OK``, ``UNCERTAIN``, ``FAIL``): a
    violation when none has a marker, ``uncertain`` when some but not all have one (or only
    within the survey's accuracy), or when a parcel with markers (``posted``) has no access
    point at all; nothing when every one has a marker.

    Examples
    --------
    Parcel 0: both entrances posted; parcel 1: one of two; parcel 2: none of one; parcel 3
    has markers but no entrance:

    >>> f = entrance_findings(np.array([0, 0, 1, 1, 2]), np.array([0, 0, 0, 2, 2]),
    ...                       np.array([5.0, 9.0, 3.0, 80.0, 70.0]),
    ...                       np.array([True, True, True, True]), clause="c", tolerance_ft=50)
    >>> f[["parcel", "level", "count"]].values.tolist()
    [[1, 'uncertain', 1], [2, 'violation', 1], [3, 'uncertain', 0]]
    """
    n = len(posted)
    total = np.bincount(parcel, minlength=n)
    ok = np.bincount(parcel[status == OK], minlength=n)
    failed = np.bincount(parcel[status == FAIL], minlength=n)
    nearest = np.full(n, np.inf)
    np.minimum.at(nearest, parcel, nearest_ft)
    # the parcels with a finding: no access point (but markers), or not every one marked
    rows = np.flatnonzero(((total == 0) & posted) | ((total > 0) & (ok < total)))
    if not len(rows):
        return empty_findings()
    k, good, bad = total[rows], ok[rows], failed[rows]
    unsure = k - good - bad
    none, allbad = k == 0, (k > 0) & (bad == k)
    within = ft(tolerance_ft)
    ways = pd.Series(k).astype(str) + np.where(k == 1, " access point", " access points")
    some = f"a marker within {within} at " + pd.Series(good).astype(str) + " of its " + ways
    some += np.where(
        unsure > 0,
        ", and only within the stated survey accuracy at " + pd.Series(unsure).astype(str),
        "",
    )
    msgs = np.where(
        none,
        "no way of access in the access layer crosses its boundary: where its main entrance "
        "is cannot be told",
        np.where(
            allbad,
            "none of its " + ways + f" has a marker within {within}: notice must be at the "
            "main entrance",
            some + ": whether the main entrance has one cannot be told",
        ),
    )
    near = nearest[rows]
    measured = np.where(allbad & np.isfinite(near), near, np.nan)
    count = np.where(allbad, k, k - good)
    level = np.where(allbad, "violation", "uncertain").astype(object)
    return findings_frame(
        rows, "entrance", level.tolist(), clause, msgs.tolist(), measured, tolerance_ft, "ft", count
    )


register(
    Kind(
        "entrance",
        EntranceRule,
        parse,
        "a marker at the main entrance",
        measure=measure,
        counts_markers=True,
        empty=empty,
    )
)
