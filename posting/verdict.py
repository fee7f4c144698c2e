"""From the checks' per-item results to findings per parcel, and from findings to a status.

A finding is one row: the parcel, the rule, its level (``violation``, ``uncertain``,
``not_checked`` or ``note``), the clause, a message, and the measured value against the limit.
A parcel's status under one rule profile follows from its findings:

* ``invalid``: no usable geometry (the reason is in the report);
* ``unposted``: no marker of a kind the profile counts (every corner is then missing);
* ``noncompliant``: markers present and at least one violation;
* ``uncertain``: no violation, but a finding within the stated survey accuracy of its limit;
* ``compliant``: none of these;
* ``exempt``: reserved for exemptions.

Under several profiles (alternative ways to post), a parcel takes the best of its statuses, in
the order of :data:`RANK`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from posting.checks import FAIL, UNCERTAIN
from posting.checks.content import NOT_RECORDED
from posting.frames import text
from posting.rules import AccessRule, CornerRule, SpacingRule

__all__ = [
    "FINDING_COLUMNS",
    "RANK",
    "STATUSES",
    "access_findings",
    "corner_findings",
    "decide",
    "findings_frame",
    "item_findings",
    "spacing_findings",
    "water_findings",
]

STATUSES = ("compliant", "noncompliant", "unposted", "exempt", "uncertain", "invalid")
RANK = {"exempt": 0, "compliant": 1, "uncertain": 2, "noncompliant": 3, "unposted": 4, "invalid": 5}
"""Better to worse: a parcel posted several ways takes the best status it earns."""
FINDING_COLUMNS = [
    "parcel",
    "rule",
    "level",
    "clause",
    "message",
    "measured",
    "limit",
    "unit",
    "count",
]


def ft(x: float) -> str:
    """Feet for messages: ``1,234.5 ft``."""
    return f"{x:,.1f} ft"


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


def findings_frame(
    parcel, rule, level, clause, message, measured, limit, unit, count
) -> pd.DataFrame:
    """Findings from columns (scalars are broadcast)."""
    parcel = np.asarray(parcel, dtype=np.int64)
    n = len(parcel)

    def col(v, dtype=object):
        a = np.full(n, v, dtype=dtype) if np.ndim(v) == 0 else np.asarray(v, dtype=dtype)
        return text(a) if dtype is object else a

    return pd.DataFrame(
        {
            "parcel": parcel,
            "rule": col(rule),
            "level": col(level),
            "clause": col(clause),
            "message": col(message),
            "measured": col(measured, float),
            "limit": col(limit, float),
            "unit": col(unit),
            "count": col(count, np.int64),
        },
        columns=FINDING_COLUMNS,
    )


def empty_findings() -> pd.DataFrame:
    """A findings table with no rows."""
    return findings_frame([], "", "", "", "", np.nan, np.nan, "", 0)


def _worst_per_parcel(df: pd.DataFrame, by: str) -> pd.DataFrame:
    """The row with the largest ``by`` for each parcel, with ``n``: the parcel's row count."""
    counts = df.groupby("parcel").size()
    worst = df.sort_values(by, ascending=False, kind="stable").drop_duplicates("parcel")
    worst = worst.sort_values("parcel", kind="stable")
    return worst.assign(n=counts.loc[worst["parcel"]].to_numpy())


def _kinds(kinds: tuple[str, ...]) -> str:
    words = {"sign": "sign", "paint": "paint mark", "post": "painted post"}
    return " or ".join(words[k] for k in kinds)


def spacing_findings(
    gaps: pd.DataFrame,
    counted: np.ndarray,
    perimeter_ft: np.ndarray,
    valid: np.ndarray,
    rule: SpacingRule,
    accuracy_ft: float,
) -> pd.DataFrame:
    """Spacing findings per parcel.

    Parameters
    ----------
    gaps
        One row per gap: ``parcel``, ``status`` (OK / UNCERTAIN / FAIL), ``measured_ft``,
        ``length_ft``, ``straight_ft``, ``limit_ft``, ``unmarked`` (a whole ring without
        markers).
    counted, perimeter_ft, valid
        Per parcel: markers of the rule's kinds, boundary length, usable geometry.
    """
    how = {
        "along_boundary": "along the boundary",
        "straight": "in a straight line",
        "either": "apart",
    }[rule.metric]
    what = _kinds(rule.kinds)
    out = [empty_findings()]
    # masks first, with numpy: a county has a million gaps and few are reported
    status = gaps["status"].to_numpy()
    unmarked = gaps["unmarked"].to_numpy(dtype=bool)
    gap_parcel = gaps["parcel"].to_numpy(dtype=np.int64)
    posted_mask = counted[gap_parcel] > 0
    bare_parcels = np.flatnonzero(valid & (counted == 0))
    if len(bare_parcels):
        limit = (
            pd.Series(gaps["limit_ft"].to_numpy()[~posted_mask])
            .groupby(gap_parcel[~posted_mask])
            .min()
            .reindex(bare_parcels)
            .fillna(rule.strictest_ft)
            .to_numpy()
        )
        out.append(
            findings_frame(
                bare_parcels,
                "spacing",
                "violation",
                rule.clause,
                [
                    f"no {what} on its {ft(per)} of boundary; they must be not more "
                    f"than {ft(lim)} apart {how}"
                    for per, lim in zip(
                        perimeter_ft[bare_parcels].tolist(), limit.tolist(), strict=True
                    )
                ],
                perimeter_ft[bare_parcels],
                limit,
                "ft",
                1,
            )
        )

    def rows(mask: np.ndarray) -> pd.DataFrame:
        sel = gaps[mask]
        return sel.assign(excess=sel["measured_ft"] - sel["limit_ft"])

    over = rows(posted_mask & (status == FAIL) & ~unmarked)
    if len(over):
        w = _worst_per_parcel(over, "excess")
        msgs = []
        cols = ("n", "measured_ft", "length_ft", "straight_ft", "limit_ft")
        for n, m, a, s, lim in zip(*(w[c].tolist() for c in cols), strict=True):
            extra = ""
            if math.isfinite(s) and abs(s - a) > 1:
                extra = f" ({ft(a)} along the boundary, {ft(s)} in a straight line)"
            msgs.append(
                f"{n} {_plural(n, 'gap', 'gaps')} between markers longer than "
                f"{ft(lim)} {how}; the worst is {ft(m)}{extra}"
            )
        out.append(
            findings_frame(
                w["parcel"],
                "spacing",
                "violation",
                rule.clause,
                msgs,
                w["measured_ft"],
                w["limit_ft"],
                "ft",
                w["n"],
            )
        )
    bare = rows(posted_mask & unmarked)
    if len(bare):
        w = _worst_per_parcel(bare, "length_ft")
        total = bare.groupby("parcel")["length_ft"].sum().loc[w["parcel"]].to_numpy()
        msgs = [
            f"{n} of its boundary rings (a hole or a separate part) "
            f"{_plural(n, 'has', 'have')} no {what}: {ft(t)} of boundary unmarked"
            for n, t in zip(w["n"].tolist(), total.tolist(), strict=True)
        ]
        out.append(
            findings_frame(
                w["parcel"],
                "spacing",
                "violation",
                rule.clause,
                msgs,
                w["length_ft"],
                w["limit_ft"],
                "ft",
                w["n"],
            )
        )
    unsure = rows(posted_mask & (status == UNCERTAIN) & ~unmarked)
    if len(unsure):
        w = _worst_per_parcel(unsure, "excess")
        msgs = [
            f"{n} {_plural(n, 'gap', 'gaps')} within ±{ft(accuracy_ft)} (the stated survey "
            f"accuracy) of the {ft(lim)} limit; the closest call is {ft(m)}"
            for n, m, lim in zip(
                *(w[c].tolist() for c in ("n", "measured_ft", "limit_ft")), strict=True
            )
        ]
        out.append(
            findings_frame(
                w["parcel"],
                "spacing",
                "uncertain",
                rule.clause,
                msgs,
                w["measured_ft"],
                w["limit_ft"],
                "ft",
                w["n"],
            )
        )
    return pd.concat(out, ignore_index=True)


def _point_findings(
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
    """Findings for places that each need a marker (corners, access points)."""
    if len(points) == 0:
        return empty_findings()
    total = points.groupby("parcel").size()
    out = [empty_findings()]
    for level, code in (("violation", FAIL), ("uncertain", UNCERTAIN)):
        sel = points[points["status"] == code]
        if not len(sel):
            continue
        key = "neighbour_ft" if level == "violation" else "nearest_ft"
        w = _worst_per_parcel(sel.replace({key: {np.inf: np.nan}}), key)
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
                    f"{n} of {k} {word} {_plural(n, 'has', 'have')} no {need} within {within}{tail}"
                )
            else:
                msgs.append(
                    f"{n} of {k} {word} {_plural(n, 'has', 'have')} {need} only within {survey}"
                )
        measured = np.where(bare, np.nan, w[key].to_numpy(dtype=float))
        out.append(
            findings_frame(
                w["parcel"], rule_name, level, clause, msgs, measured, tolerance_ft, "ft", w["n"]
            )
        )
    return pd.concat(out, ignore_index=True)


def corner_findings(
    corners: pd.DataFrame,
    counted: np.ndarray,
    rule: CornerRule,
    tolerance_ft: float,
    accuracy_ft: float,
) -> pd.DataFrame:
    """Corner findings per parcel.

    ``corners`` has one row per corner: ``parcel``, ``status``, ``nearest_ft`` (the figure
    compared with the tolerance) and ``neighbour_ft`` (how far the corner is from posting, for
    the message; inf when its ring has no marker).
    """
    if rule.mode == "none":
        return empty_findings()
    need = "marker" if rule.mode == "at_corner" else "marker on each side"
    return _point_findings(
        corners,
        counted,
        rule_name="corners",
        clause=rule.clause,
        noun="corner",
        need=need,
        tolerance_ft=tolerance_ft,
        accuracy_ft=accuracy_ft,
    )


def access_findings(
    points: pd.DataFrame,
    counted: np.ndarray,
    rule: AccessRule,
    tolerance_ft: float,
    accuracy_ft: float,
) -> pd.DataFrame:
    """Access-point findings per parcel (same table shape as corners)."""
    return _point_findings(
        points,
        counted,
        rule_name="access",
        clause=rule.clause,
        noun="access point",
        need="marker",
        tolerance_ft=tolerance_ft,
        accuracy_ft=accuracy_ft,
    )


def water_findings(
    points: pd.DataFrame, counted: np.ndarray, rule: Any, tolerance_ft: float, accuracy_ft: float
) -> pd.DataFrame:
    """Findings for the banks where water crosses a boundary (same table shape as corners)."""
    return _point_findings(
        points,
        counted,
        rule_name="water",
        clause=rule.clause,
        noun="bank where water crosses the boundary",
        need="marker",
        tolerance_ft=tolerance_ft,
        accuracy_ft=accuracy_ft,
    )


def item_findings(
    parcel: np.ndarray,
    status: np.ndarray,
    value: np.ndarray | None,
    *,
    rule: str,
    clause: str,
    what: str,
    limit: float | None = None,
    unit: str | None = None,
    worst: str = "min",
    level: str = "violation",
    noun: str = "signs",
) -> pd.DataFrame:
    """Findings from a per-marker check (letter height, words, paint colour, facing, ...).

    ``status`` is OK / FAIL / NOT_RECORDED per marker; ``what`` describes a failing marker
    ("have letters under 2 in"). Markers that did not record the attribute make a
    ``not_checked`` finding, never a violation. For a numeric attribute, the measured value is
    the smallest (``worst="min"``) or largest recorded among the failing markers.
    """
    numeric = value is not None and limit is not None
    df = pd.DataFrame(
        {
            "parcel": np.asarray(parcel, dtype=np.int64),
            "status": status,
            "value": pd.to_numeric(pd.Series(value), errors="coerce").to_numpy(dtype=float)
            if numeric
            else np.nan,
        }
    )
    counts = df.groupby("parcel").size()
    out = [empty_findings()]
    fail = df[df["status"] == FAIL]
    if len(fail):
        agg = fail.groupby("parcel").agg(
            n=("status", "size"), low=("value", "min"), high=("value", "max")
        )
        of = counts.loc[agg.index].to_numpy()
        msgs = [f"{n} of {k} {noun} {what}" for n, k in zip(agg["n"], of, strict=True)]
        measured = agg["low"] if worst == "min" else agg["high"]
        out.append(
            findings_frame(agg.index, rule, level, clause, msgs, measured, limit, unit, agg["n"])
        )
    miss = df[df["status"] == NOT_RECORDED]
    if len(miss):
        agg = miss.groupby("parcel").size()
        of = counts.loc[agg.index].to_numpy()
        msgs = [f"not recorded for {n} of {k} {noun}" for n, k in zip(agg, of, strict=True)]
        out.append(
            findings_frame(
                agg.index, rule, "not_checked", clause, msgs, np.nan, limit, unit, agg.to_numpy()
            )
        )
    return pd.concat(out, ignore_index=True)


def decide(invalid: np.ndarray, counted: np.ndarray, findings: pd.DataFrame) -> np.ndarray:
    """Status of each parcel under one profile, from its findings (see the module docstring).

    Examples
    --------
    >>> f = pd.DataFrame({"parcel": [1, 2], "level": ["violation", "uncertain"]})
    >>> decide(np.array([None, None, None, "no geometry"], dtype=object),
    ...        np.array([3, 3, 3, 0]), f).tolist()
    ['compliant', 'noncompliant', 'uncertain', 'invalid']
    """
    n = len(counted)
    level = findings["level"].to_numpy() if len(findings) else np.empty(0, dtype=object)
    parcel = findings["parcel"].to_numpy(dtype=np.int64) if len(findings) else np.empty(0, np.int64)
    violated = np.zeros(n, dtype=bool)
    violated[parcel[level == "violation"]] = True
    unsure = np.zeros(n, dtype=bool)
    unsure[parcel[level == "uncertain"]] = True
    status = np.full(n, "compliant", dtype=object)
    status[unsure] = "uncertain"
    status[violated] = "noncompliant"
    status[np.asarray(counted) == 0] = "unposted"
    status[~pd.isna(invalid)] = "invalid"
    return status
