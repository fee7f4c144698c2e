"""One CSV row per parcel, for the spreadsheet a surveyor hands on."""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING, Any

from posting.records import parcel_records
from posting.render import register

if TYPE_CHECKING:
    from posting.report import Report

__all__ = ["to_csv"]


@register("csv", "report", (".csv",), "one row per parcel")
def to_csv(report: Report) -> str:
    """One row per parcel, for the spreadsheet a surveyor hands on."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    header = [
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
    w.writerow(header)

    def joined(items: list[dict[str, Any]]) -> str:
        return "; ".join(f"{v['rule']}: {v['message']}" for v in items)

    for p in parcel_records(report):
        w.writerow(
            [
                p["id"],
                p["row"],
                p.get("owner") or "",
                p["status"],
                p["rules"],
                p["signs"],
                _blank(p["perimeter_ft"]),
                _blank(p["area_acres"]),
                _blank(p["max_gap_ft"]),
                sum(1 for g in p["gaps"] if g["status"] == "over"),
                p["corners"],
                len(p["missing_corners"]),
                len(p.get("missing_access", [])),
                joined(p["violations"]),
                joined(p["uncertain"]),
                joined(p["not_checked"]),
                p.get("repaired", ""),
                p.get("invalid_reason", ""),
                "yes" if p["duplicate_id"] else "",
            ]
        )
    return buf.getvalue()


def _blank(x: Any) -> Any:
    return "" if x is None else x
