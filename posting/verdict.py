"""From the checks' per-item results to findings per parcel, and from findings to a status.

A finding is one row: the parcel, the rule, its level (``violation``, ``uncertain``,
``not_checked`` or ``note``), the clause, a message, and the measured value against the limit.
A parcel's status under one rule profile follows from its findings:

* ``invalid``: no usable geometry (the reason is in the report);
* ``unposted``: no marker of a kind the profile counts (every corner is then missing);
* ``noncompliant``: markers present and at least one violation;
* ``uncertain``: no violation, but a finding the data cannot settle: a figure within the stated
  survey accuracy of its limit, or a rule that applies only on land (forest, a place) that the
  data does not show;
* ``compliant``: none of these;
* ``exempt``: reserved for exemptions.

Under several profiles (alternative ways to post), a parcel takes the best of its statuses, in
the order of :data:`RANK`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from posting.frames import text

__all__ = [
    "FINDING_COLUMNS",
    "LEVELS",
    "RANK",
    "STATUSES",
    "categorical",
    "decide",
    "empty_findings",
    "findings_frame",
    "ft",
    "ft_vs",
    "marker_words",
    "plural",
    "settle",
    "worst_per_parcel",
]

STATUSES = ("compliant", "noncompliant", "unposted", "exempt", "uncertain", "invalid")
RANK = {"exempt": 0, "compliant": 1, "uncertain": 2, "noncompliant": 3, "unposted": 4, "invalid": 5}
"""Better to worse: a parcel posted several ways takes the best status it earns."""
LEVELS = ("violation", "uncertain", "not_checked", "note")
"""A finding's level, most serious first."""
MARKER_WORDS = {"sign": "sign", "paint": "paint mark", "post": "painted post"}
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


def ft_vs(x: float, limit: float, *others: float) -> str:
    """Feet for a figure said against its limit: as :func:`ft`, with as many more decimals
    (up to 4) as it takes not to read as the limit itself (a 500.04 ft gap over a 500 ft limit
    is not "500.0 ft"), nor as any of ``others``.

    >>> ft_vs(500.04, 500.0), ft_vs(512.34, 500.0), ft_vs(499.996, 500.0), ft_vs(500.0, 500.0)
    ('500.04 ft', '512.3 ft', '499.996 ft', '500.0 ft')
    >>> ft_vs(16.504, 17.0), ft_vs(16.504, 17.0, 16.5)  # a rod: not 16.5 ft
    ('16.5 ft', '16.504 ft')
    """
    against = [v for v in (limit, *others) if v != x and math.isfinite(v)]
    if against and math.isfinite(x):
        for nd in range(1, 5):
            if all(round(x, nd) != round(v, nd) for v in against):
                return f"{x:,.{nd}f} ft"
    return ft(x)


def plural(n: int, one: str, many: str) -> str:
    """``one`` or ``many`` by ``n``."""
    return one if n == 1 else many


def findings_frame(
    parcel, rule, level, clause, message, measured, limit, unit, count
) -> pd.DataFrame:
    """Findings from columns (scalars are broadcast)."""
    parcel = np.asarray(parcel, dtype=np.int64)
    n = len(parcel)

    def col(v, dtype=object):
        # (a list is a column: np.ndim would first copy its strings into a unicode array)
        scalar = not isinstance(v, list | tuple) and np.ndim(v) == 0
        a = np.full(n, v, dtype=dtype) if scalar else np.asarray(v, dtype=dtype)
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


def worst_per_parcel(df: pd.DataFrame, by: str) -> pd.DataFrame:
    """The row with the largest ``by`` for each parcel, with ``n``: the parcel's row count."""
    counts = df.groupby("parcel").size()
    worst = df.sort_values(by, ascending=False, kind="stable").drop_duplicates("parcel")
    worst = worst.sort_values("parcel", kind="stable")
    return worst.assign(n=counts.loc[worst["parcel"]].to_numpy())


def marker_words(kinds: tuple[str, ...]) -> str:
    """Marker kinds in words: ``sign or paint mark``."""
    return " or ".join(MARKER_WORDS[k] for k in kinds)


def categorical(codes: np.ndarray, labels: list[str]) -> pd.Categorical:
    """A status column from codes (OK, UNCERTAIN, FAIL, ...): categorical, since a county has
    a million gaps and strings would cost a conversion each way."""
    return pd.Categorical.from_codes(np.asarray(codes, dtype=np.int8), categories=labels)


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


def settle(
    findings: pd.DataFrame, status: np.ndarray, posted_by: np.ndarray, exemption: np.ndarray
) -> None:
    """Land posted otherwise than by markers (a fence, cultivation, a registry) or exempt: its
    status is ``compliant`` or ``exempt`` whatever the markers' findings, which stay in the
    report as notes ("not needed: ..."). Changes ``findings``, ``status`` and ``posted_by`` in
    place; ``posted_by`` is ``signs`` for every other compliant parcel."""
    exempt = pd.notna(exemption)
    overridden = np.flatnonzero(exempt | pd.notna(posted_by))  # fence, cultivation, registry
    if len(overridden):
        hit = (
            np.isin(findings["parcel"].to_numpy(), overridden)
            & findings["level"].isin(["violation", "uncertain"]).to_numpy()
        )
        why = np.where(exempt, "exempt", "posted by " + posted_by.astype(str))
        findings.loc[hit, "message"] = [
            f"(not needed: {why[p]}) {m}"
            for p, m in zip(findings.loc[hit, "parcel"], findings.loc[hit, "message"], strict=True)
        ]
        findings.loc[hit, "level"] = "note"
        status[overridden] = np.where(exempt[overridden], "exempt", "compliant")
    posted_by[(status == "compliant") & pd.isna(posted_by)] = "signs"
