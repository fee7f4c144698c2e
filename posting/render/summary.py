"""The short human summary of a report, for stderr."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from posting.checks import FAIL, OK, shown
from posting.errors import python_name, worded
from posting.render import register
from posting.verdict import ft, ft_vs

if TYPE_CHECKING:
    from posting.report import Report

__all__ = ["summary_lines", "summary_text"]


def _largest_gap(r: pd.Series) -> str:
    """A worst parcel's largest gap (``max_gap_ft``) in feet, with the decimals that keep it
    from reading as a whole number of feet, as the limits are (a 500.01 ft gap that fails
    500 ft is not "500.0 ft"), on its verdict's side of its limit (``max_gap_verdict``,
    ``max_gap_limit_ft``: :meth:`posting.report.Report.worst`): one that fails it is never
    said at or under it, one that passes it within the slack never over it.

    >>> row = {"max_gap_ft": 500.004, "max_gap_verdict": FAIL, "max_gap_limit_ft": 500.0}
    >>> _largest_gap(pd.Series(row))
    '500.004 ft'
    >>> _largest_gap(pd.Series(row | {"max_gap_ft": 16.504, "max_gap_limit_ft": 16.5}))
    '16.504 ft'
    >>> _largest_gap(pd.Series(row | {"max_gap_ft": 500.002, "max_gap_verdict": OK}))
    '500.0 ft'
    """
    x = float(r["max_gap_ft"])
    verdict, limit = r.get("max_gap_verdict"), float(r.get("max_gap_limit_ft", np.nan))
    if verdict == FAIL:
        return ft_vs(x, round(x), limit)
    if verdict == OK and x > limit:  # within the slack of its limit
        return ft(float(shown(np.array([x]), 1, limit, OK)[0]))
    return ft_vs(x, round(x))


def summary_lines(
    report: Report, k: int = 5, name: Callable[[str], str] = python_name
) -> list[str]:
    """A short human summary for stderr."""
    s = report.summary()
    counts = " · ".join(f"{n} {name}" for name, n in s["status"].items() if n)
    cites = "; ".join(
        f"{p.citation}{', guidance' if p.standard == 'guidance' else ''}" for p in report.profiles
    )
    lines = [
        f"{s['parcels']} parcels checked against {report.rules_name} ({cites}), "
        f"measured in {report.crs}",
        f"  {counts or 'no parcels'}",
        f"  markers: {s['markers_read']} read, {s['markers_assigned']} assigned, "
        f"{s['markers_unassigned']} unassigned",
    ]
    if report.settings.elevation_ft is None:
        lines.append(
            "  land's elevation not given: lengths measured at sea level, each parcel's land "
            "taken to lie between its state's lowest and highest points (USGS); a figure "
            f"within a limit at one and not at the other is uncertain ({name('elevation_ft')} "
            "settles it)"
        )
    if "compliant_by" in s:
        lines.append(
            "  compliant by: " + ", ".join(f"{name} {n}" for name, n in s["compliant_by"].items())
        )
    worst = report.worst(k)
    if len(worst):
        lines.append("  worst:")
        for _, r in worst.iterrows():
            if pd.notna(r["max_gap_ft"]):
                gap = f"largest gap {_largest_gap(r)}"
            elif r.get("signs", 0) > 0:  # its rules measure no gap (a notice at the entrance)
                n = int(r["signs"])
                gap = f"{n} marker{'s' if n != 1 else ''}, no gap measured"
            else:
                gap = f"no marker on {r['perimeter_ft']:,.1f} ft of boundary"
            lines.append(f"    {r['id']}: {r['status']}, {gap}")
    for x in report.not_checked:
        if x["rule"] in ("landcover", "access", "entrance", "public_notice"):
            reason = worded(x["reason"], name)
            lines.append(f"  not checked ({x.get('profile', '')}): {reason}")
    lines += [f"  warning: {worded(w, name)}" for w in report.warnings[:20]]
    if len(report.warnings) > 20:
        lines.append(f"  ... and {len(report.warnings) - 20} more warnings (see the JSON report)")
    return lines


@register("summary", "report", (".txt",), "the summary")
def summary_text(report: Report, k: int = 5, name: Callable[[str], str] = python_name) -> str:
    """The summary as text, a line each."""
    return "".join(f"{line}\n" for line in summary_lines(report, k, name))
