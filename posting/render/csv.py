"""One CSV row per parcel, for the spreadsheet a surveyor hands on."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from posting.records import list_counts, parcel_records
from posting.render import register

if TYPE_CHECKING:
    from posting.report import Report

__all__ = ["HEADER", "csv_rows", "to_csv"]


HEADER = [
    "id",
    "row",
    "owner",
    "status",
    "rules",
    "signs",
    "perimeter_ft",
    "area_acres",
    "max_gap_ft",
    "gaps_over_limit",
    "corners",
    "missing_corners",
    "missing_access",
    "violations",
    "uncertain",
    "not_checked",
    "repaired",
    "invalid_reason",
    "duplicate_id",
]
"""The CSV's columns."""


@register("csv", "report", (".csv",), "one row per parcel")
def to_csv(report: Report) -> str:
    """One row per parcel, for the spreadsheet a surveyor hands on."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER)
    w.writerows(csv_rows(report))
    return buf.getvalue()


def csv_rows(report: Report) -> Iterator[list[Any]]:
    """The CSV row of each parcel record (:func:`posting.records.parcel_records`), in input
    order; the counts of its lists from :func:`posting.records.list_counts`."""

    def joined(items: list[dict[str, Any]]) -> str:
        return "; ".join(f"{v['rule']}: {v['message']}" for v in items)

    counts = list_counts(report)
    for p, over, corners, access in zip(
        parcel_records(report),
        counts["over"].tolist(),
        counts["missing_corners"].tolist(),
        counts["missing_access"].tolist(),
        strict=True,
    ):
        yield [
            p["id"],
            p["row"],
            p.get("owner") or "",
            p["status"],
            p["rules"],
            p["signs"],
            _blank(p["perimeter_ft"]),
            _blank(p["area_acres"]),
            _blank(p["max_gap_ft"]),
            over,
            p["corners"],
            corners,
            access,
            joined(p["violations"]),
            joined(p["uncertain"]),
            joined(p["not_checked"]),
            p.get("repaired", ""),
            p.get("invalid_reason", ""),
            "yes" if p["duplicate_id"] else "",
        ]


def _blank(x: Any) -> Any:
    return "" if x is None else x
