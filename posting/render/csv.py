"""One CSV row per parcel, for the spreadsheet a surveyor hands on."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa

from posting import jsontext
from posting.records import FT_DECIMALS, _numbers, _texts, list_counts, max_gap_figures
from posting.render import register

if TYPE_CHECKING:
    from posting.report import Report

__all__ = ["FIGURES", "HEADER", "csv_rows", "findings_text", "to_csv"]


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

FIGURES = {"perimeter_ft": FT_DECIMALS, "area_acres": 4, "max_gap_ft": FT_DECIMALS}
"""The CSV's figures and the decimals each is rounded to (as the JSON report gives them)."""


@register("csv", "report", (".csv",), "one row per parcel")
def to_csv(report: Report) -> str:
    """One row per parcel, for the spreadsheet a surveyor hands on."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER)
    w.writerows(csv_rows(report))
    return buf.getvalue()


def csv_rows(report: Report) -> Iterator[list[Any]]:
    """The CSV row of each parcel, in input order: its record's values (as the JSON report
    gives them: figures rounded alike, missing ones blank), the counts of its lists, and its
    findings by level as ``rule: message`` joined by ``; ``. Built from the report's columns,
    not from records (a county of real shapes lists hundreds of thousands of gaps the CSV only
    counts)."""
    p = report.parcels
    n = len(p)
    counts = list_counts(report)
    ids = _texts(p["id"])
    owners = [v or "" for v in _texts(p["owner"])] if "owner" in p else [""] * n
    findings = {
        level: _joined(report, level) for level in ("violation", "uncertain", "not_checked")
    }
    extra = [_present(p[c]) for c in ("repaired", "invalid_reason")]
    # the largest gap on its verdict's side of its limit, as the JSON report gives it
    figures = {c: p[c] for c in FIGURES} | {"max_gap_ft": max_gap_figures(report)}
    columns = zip(
        ids,
        p["row"].astype(np.int64).tolist(),
        owners,
        p["status"].astype(object).tolist(),
        p["rules"].astype(object).tolist(),
        p["signs"].astype(np.int64).tolist(),
        *(_numbers(figures[c], nd) for c, nd in FIGURES.items()),
        counts["over"].tolist(),
        p["corners"].astype(np.int64).tolist(),
        counts["missing_corners"].tolist(),
        counts["missing_access"].tolist(),
        findings["violation"],
        findings["uncertain"],
        findings["not_checked"],
        *extra,
        np.where(p["duplicate_id"].to_numpy(dtype=bool), "yes", "").tolist(),
        strict=True,
    )
    return map(list, columns)


def _present(column: pd.Series) -> list[Any]:
    """A text column's values where given and not empty, blank elsewhere."""
    values = column.to_numpy(dtype=object)
    has = column.notna().to_numpy() & (values != "")
    return np.where(has, values, "").tolist()


def _joined(report: Report, level: str) -> list[str]:
    """Each parcel's findings of ``level`` as ``rule: message``, joined by ``; ``."""
    text = findings_text(report, level)
    return [""] * len(report.parcels) if text is None else text.to_pylist()


def findings_text(report: Report, level: str) -> pa.Array | None:
    """Each parcel's findings of ``level`` as ``rule: message``, joined by ``; ``, as Arrow
    text (empty where the parcel has none); None where no parcel has any."""
    f = report.findings
    sel = f[(f["level"] == level).to_numpy(dtype=bool)]
    n = len(report.parcels)
    if not len(sel):
        return None
    text = pa.array(
        (sel["rule"].astype(str) + ": " + sel["message"].astype(str)).tolist(),
        type=pa.large_string(),
    )
    parcel = sel["parcel"].to_numpy(dtype=np.int64)
    return jsontext.join(*jsontext.arrays(text, parcel, n, ("", "; ", "")))
