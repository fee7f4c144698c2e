"""From the checks' per-item results to findings per parcel, and from findings to a status.

A finding is one row: the parcel, the rule, its level (``violation``, ``uncertain`` or
``not_checked``), the statute clause, a message, and the measured value against the limit.
A parcel's status follows from its findings:

* ``invalid``: no usable geometry (the reason is in the report);
* ``unposted``: no marker at all (every corner is then missing);
* ``noncompliant``: markers present and at least one violation;
* ``uncertain``: no violation, but a finding within the stated survey accuracy of its limit;
* ``compliant``: none of these;
* ``exempt``: reserved for exemptions (work in progress).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from posting.checks import FAIL, UNCERTAIN
from posting.checks.content import NOT_RECORDED
from posting.rules import CornerRule, SpacingRule

__all__ = [
    "FINDING_COLUMNS",
    "STATUSES",
    "corner_findings",
    "decide",
    "item_findings",
    "spacing_findings",
]

STATUSES = ("compliant", "noncompliant", "unposted", "exempt", "uncertain", "invalid")
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


def _frame(parcel, rule, level, clause, message, measured, limit, unit, count) -> pd.DataFrame:
    """Findings from columns (scalars are broadcast)."""
    parcel = np.asarray(parcel, dtype=np.int64)
    n = len(parcel)

    def col(v, dtype=object):
        return np.full(n, v, dtype=dtype) if np.ndim(v) == 0 else np.asarray(v, dtype=dtype)

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


def _empty() -> pd.DataFrame:
    return _frame([], "", "", "", "", np.nan, np.nan, "", 0)


def _worst_per_parcel(df: pd.DataFrame, by: str) -> pd.DataFrame:
    """The row with the largest ``by`` for each parcel, with ``n``: the parcel's row count."""
    counts = df.groupby("parcel").size()
    worst = df.sort_values(by, ascending=False, kind="stable").drop_duplicates("parcel")
    worst = worst.sort_values("parcel", kind="stable")
    return worst.assign(n=counts.loc[worst["parcel"]].to_numpy())


def spacing_findings(
    gaps: pd.DataFrame,
    signs: np.ndarray,
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
        ``length_ft``, ``straight_ft``, ``unmarked`` (a whole ring without markers).
    signs, perimeter_ft, valid
        Per parcel: markers assigned, boundary length, usable geometry.
    """
    limit = rule.max_ft
    how = {
        "along_boundary": "along the boundary",
        "straight": "in a straight line",
        "either": "apart",
    }[rule.metric]
    out = []
    bare_parcels = np.flatnonzero(valid & (signs == 0))
    out.append(
        _frame(
            bare_parcels,
            "spacing",
            "violation",
            rule.clause,
            [
                f"no marker on its {ft(perimeter_ft[p])} of boundary; markers must be not "
                f"more than {ft(limit)} apart {how}"
                for p in bare_parcels
            ],
            perimeter_ft[bare_parcels],
            limit,
            "ft",
            1,
        )
    )
    posted = gaps[signs[gaps["parcel"].to_numpy(dtype=np.int64)] > 0]
    over = posted[(posted["status"] == FAIL) & ~posted["unmarked"]]
    if len(over):
        w = _worst_per_parcel(over, "measured_ft")
        msgs = []
        for n, m, a, s in zip(
            w["n"], w["measured_ft"], w["length_ft"], w["straight_ft"], strict=True
        ):
            extra = ""
            if np.isfinite(s) and abs(s - a) > 1:
                extra = f" ({ft(a)} along the boundary, {ft(s)} in a straight line)"
            msgs.append(
                f"{n} {_plural(n, 'gap', 'gaps')} between markers longer than {ft(limit)} "
                f"{how}; the longest is {ft(m)}{extra}"
            )
        out.append(
            _frame(
                w["parcel"],
                "spacing",
                "violation",
                rule.clause,
                msgs,
                w["measured_ft"],
                limit,
                "ft",
                w["n"],
            )
        )
    bare = posted[posted["unmarked"]]
    if len(bare):
        w = _worst_per_parcel(bare, "length_ft")
        total = bare.groupby("parcel")["length_ft"].sum().loc[w["parcel"]].to_numpy()
        msgs = [
            f"{n} of its boundary rings (a hole or a separate part) "
            f"{_plural(n, 'has', 'have')} no marker: {ft(t)} of boundary unmarked"
            for n, t in zip(w["n"], total, strict=True)
        ]
        out.append(
            _frame(
                w["parcel"],
                "spacing",
                "violation",
                rule.clause,
                msgs,
                w["length_ft"],
                limit,
                "ft",
                w["n"],
            )
        )
    unsure = posted[(posted["status"] == UNCERTAIN) & ~posted["unmarked"]]
    if len(unsure):
        w = _worst_per_parcel(unsure, "measured_ft")
        msgs = [
            f"{n} {_plural(n, 'gap', 'gaps')} within ±{ft(accuracy_ft)} (the stated survey "
            f"accuracy) of the {ft(limit)} limit; the longest is {ft(m)}"
            for n, m in zip(w["n"], w["measured_ft"], strict=True)
        ]
        out.append(
            _frame(
                w["parcel"],
                "spacing",
                "uncertain",
                rule.clause,
                msgs,
                w["measured_ft"],
                limit,
                "ft",
                w["n"],
            )
        )
    return pd.concat(out, ignore_index=True)


def corner_findings(
    corners: pd.DataFrame,
    signs: np.ndarray,
    rule: CornerRule,
    tolerance_ft: float,
    accuracy_ft: float,
) -> pd.DataFrame:
    """Corner findings per parcel.

    ``corners`` has one row per corner: ``parcel``, ``status``, ``nearest_ft`` (straight-line
    distance to the nearest marker of the parcel within the search radius; inf when none) and
    ``neighbour_ft`` (straight-line distance to the nearest marker along the ring, for the
    message; inf when the ring has none).
    """
    if rule.mode == "none" or len(corners) == 0:
        return _empty()
    total = corners.groupby("parcel").size()
    out = []
    for level, code in (("violation", FAIL), ("uncertain", UNCERTAIN)):
        sel = corners[corners["status"] == code]
        if not len(sel):
            continue
        key = "neighbour_ft" if level == "violation" else "nearest_ft"
        w = _worst_per_parcel(sel.replace({key: {np.inf: np.nan}}), key)
        of = total.loc[w["parcel"]].to_numpy()
        bare = signs[w["parcel"].to_numpy(dtype=np.int64)] == 0
        msgs = []
        for n, k, far, none in zip(w["n"], of, w[key], bare, strict=True):
            corners_word = _plural(k, "corner", "corners")
            if none:
                msgs.append(f"none of its {k} {corners_word} has a marker")
            elif level == "violation":
                tail = f"; the farthest is {ft(far)} from a marker" if np.isfinite(far) else ""
                msgs.append(
                    f"{n} of {k} {corners_word} {_plural(n, 'has', 'have')} no marker "
                    f"within {ft(tolerance_ft)}{tail}"
                )
            else:
                msgs.append(
                    f"{n} of {k} {corners_word} {_plural(n, 'has', 'have')} a marker "
                    f"only within {ft(tolerance_ft)} ± {ft(accuracy_ft)} (the stated "
                    "survey accuracy)"
                )
        measured = np.where(bare, np.nan, w[key].to_numpy(dtype=float))
        out.append(
            _frame(
                w["parcel"],
                "corners",
                level,
                rule.clause,
                msgs,
                measured,
                tolerance_ft,
                "ft",
                w["n"],
            )
        )
    return pd.concat(out, ignore_index=True) if out else _empty()


def item_findings(
    parcel: np.ndarray,
    status: np.ndarray,
    value: np.ndarray,
    *,
    rule: str,
    clause: str,
    what: str,
    limit: float | None,
    unit: str | None,
) -> pd.DataFrame:
    """Findings from a per-sign attribute check (letter height, words, name).

    ``status`` is OK / FAIL / NOT_RECORDED per sign; ``what`` describes a failing sign
    ("have letters under 2 in"). Signs that did not record the attribute make a
    ``not_checked`` finding, never a violation. For a numeric attribute with a minimum
    (``limit``), the measured value is the smallest recorded.
    """
    df = pd.DataFrame(
        {
            "parcel": parcel,
            "status": status,
            "value": pd.to_numeric(pd.Series(value), errors="coerce")
            if limit is not None
            else np.nan,
        }
    )
    counts = df.groupby("parcel").size()
    out = [_empty()]
    fail = df[df["status"] == FAIL]
    if len(fail):
        agg = fail.groupby("parcel").agg(n=("status", "size"), low=("value", "min"))
        of = counts.loc[agg.index].to_numpy()
        msgs = [f"{n} of {k} signs {what}" for n, k in zip(agg["n"], of, strict=True)]
        out.append(
            _frame(agg.index, rule, "violation", clause, msgs, agg["low"], limit, unit, agg["n"])
        )
    miss = df[df["status"] == NOT_RECORDED]
    if len(miss):
        agg = miss.groupby("parcel").size()
        of = counts.loc[agg.index].to_numpy()
        msgs = [f"not recorded for {n} of {k} signs" for n, k in zip(agg, of, strict=True)]
        out.append(
            _frame(
                agg.index, rule, "not_checked", clause, msgs, np.nan, limit, unit, agg.to_numpy()
            )
        )
    return pd.concat(out, ignore_index=True)


def decide(invalid: np.ndarray, signs: np.ndarray, findings: pd.DataFrame) -> np.ndarray:
    """Status of each parcel from its findings (see the module docstring).

    Examples
    --------
    >>> f = pd.DataFrame({"parcel": [1, 2], "level": ["violation", "uncertain"]})
    >>> decide(np.array([None, None, None, "no geometry"], dtype=object),
    ...        np.array([3, 3, 3, 0]), f).tolist()
    ['compliant', 'noncompliant', 'uncertain', 'invalid']
    """
    n = len(signs)
    level = findings["level"].to_numpy() if len(findings) else np.empty(0, dtype=object)
    parcel = findings["parcel"].to_numpy(dtype=np.int64) if len(findings) else np.empty(0, np.int64)
    violated = np.zeros(n, dtype=bool)
    violated[parcel[level == "violation"]] = True
    unsure = np.zeros(n, dtype=bool)
    unsure[parcel[level == "uncertain"]] = True
    status = np.full(n, "compliant", dtype=object)
    status[unsure] = "uncertain"
    status[violated] = "noncompliant"
    status[np.asarray(signs) == 0] = "unposted"
    status[~pd.isna(invalid)] = "invalid"
    return status
