"""The report's records: one JSON-ready dict per parcel, built column by column, which every
text renderer reads (the JSON report, the GeoJSON's parcel properties, the CSV's rows, the map's
popups), and the header of the JSON report.

Nothing here measures: every figure is a column of the :class:`~posting.report.Report`'s
tables, rounded for display. The keys are a contract other tools rely on (see the README).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
import orjson
import pandas as pd
import shapely

from posting import jsontext
from posting.errors import python_name, worded

if TYPE_CHECKING:
    from posting.report import Report

__all__ = [
    "DISPLAY_DECIMALS",
    "FT_DECIMALS",
    "LONLAT_DECIMALS",
    "SCHEMA",
    "as_dict",
    "finding_items",
    "header",
    "list_counts",
    "marker_why",
    "parcel_items",
    "parcel_records",
    "unassigned_items",
]

SCHEMA = "posting-report/1"
LONLAT_DECIMALS = 7  # about 1 cm: finer than any survey
DISPLAY_DECIMALS = 6  # about 0.36 ft north-south: finer than all but survey-grade RTK positions
FT_DECIMALS = 2
HOW_TEXT = {
    "named": "its parcel column names this parcel",
    "inside": "stands inside this parcel, near its boundary",
    "nearest": "outside every parcel; this is the nearest boundary",
    "sign_name": "the name on the sign is this parcel's owner's, within the survey's accuracy "
    "of its line",
}


def _tool_version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # 0.05 s to import: when asked

    try:
        return version("posting")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "unknown"


def _num(x: Any, nd: int = FT_DECIMALS) -> float | int | None:
    """A JSON-safe number: None for NaN/inf/None, rounded floats, plain ints."""
    if x is None or x is pd.NA:
        return None
    if isinstance(x, int | np.integer) and not isinstance(x, bool):
        return int(x)
    x = float(x)
    return round(x, nd) if math.isfinite(x) else None


def _lonlat(lon: float, lat: float) -> list[float] | None:
    if not (math.isfinite(lon) and math.isfinite(lat)):
        return None
    return [round(float(lon), LONLAT_DECIMALS), round(float(lat), LONLAT_DECIMALS)]


def _numbers(values: Any, nd: int = FT_DECIMALS) -> list[float | None]:
    """A column as JSON-safe numbers: rounded, None where NaN or infinite."""
    a = np.asarray(values, dtype=float)
    out = np.round(a, nd).astype(object)
    out[~np.isfinite(a)] = None
    return out.tolist()


def _texts(values: Any) -> list[Any]:
    """A column as JSON-safe values: None where missing."""
    s = pd.Series(values, dtype=object)
    return s.where(s.notna(), None).tolist()


def _lonlats(lon: Any, lat: Any) -> list[list[float] | None]:
    """Two columns as ``[lon, lat]`` pairs (rounded), None where either is missing."""
    lo = np.asarray(lon, dtype=float)
    la = np.asarray(lat, dtype=float)
    pairs = np.round(np.column_stack([lo, la]), LONLAT_DECIMALS).tolist()
    for i in np.flatnonzero(~(np.isfinite(lo) & np.isfinite(la))):
        pairs[i] = None
    return pairs


def _values(column: pd.Series) -> list[Any]:
    """A column as JSON-safe values: numbers rounded (None where not finite), text as is."""
    if pd.api.types.is_bool_dtype(column):
        return column.astype(bool).tolist()
    if pd.api.types.is_integer_dtype(column):
        return column.astype("int64").tolist()
    if pd.api.types.is_float_dtype(column):
        return _numbers(column)
    return _texts(column)


def _text(x: Any) -> Any:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) or x is pd.NA else x


def finding_items(f: pd.DataFrame) -> list[dict[str, Any]]:
    """Findings rows as JSON-ready dicts (columns converted at once, not value by value)."""
    basis = f["basis"].tolist() if "basis" in f else ["statute"] * len(f)
    cols = zip(
        f["rule"].tolist(),
        f["clause"].tolist(),
        basis,
        f["message"].tolist(),
        _numbers(f["measured"]),
        _numbers(f["limit"]),
        _texts(f["unit"]),
        f["count"].astype(np.int64).tolist(),
        strict=True,
    )
    return [
        {
            "rule": r,
            "clause": c,
            "basis": b,
            "message": m,
            "measured": v,
            "limit": lim,
            "unit": u,
            "count": n,
        }
        for r, c, b, m, v, lim, u, n in cols
    ]


_LEVEL_KEY = {
    "violation": "violations",
    "uncertain": "uncertain",
    "not_checked": "not_checked",
    "note": "notes",
}


def _per_parcel_lists(report: Report) -> dict[str, dict[int, list[Any]]]:
    """Per key of a parcel's record that holds a short list (findings, water, easements), the
    parcels that have entries (most have none: no list is made for them); the long ones are
    written as JSON text (:func:`_written_lists`)."""
    keys = (
        "violations",
        "uncertain",
        "not_checked",
        "notes",
        "water",
        "easements",
    )
    out: dict[str, dict[int, list[Any]]] = {k: {} for k in keys}
    f = report.findings
    for p, level, item in zip(
        f["parcel"].tolist(), f["level"].tolist(), finding_items(f), strict=True
    ):
        out[_LEVEL_KEY[level]].setdefault(p, []).append(item)
    for key, table in (("water", report.water), ("easements", report.easements)):
        if table is not None and len(table):
            _stretch_lists(table, key == "easements", out[key])
    return out


def _written_lists(report: Report) -> dict[str, list[Any]]:
    """Per key of a parcel's record whose lists can be long (gaps, missing and uncertain corners
    and access points), one written JSON array per parcel (:func:`posting.jsontext.arrays`)."""
    n = len(report.parcels)
    out = {"gaps": _gap_arrays(report, n)}
    for table, noun in ((report.corners, "corners"), (report.access, "access")):
        for key, status in ((f"missing_{noun}", "missing"), (f"uncertain_{noun}", "uncertain")):
            if not len(table):
                out[key] = [()] * n
                continue
            sel = table[(table["status"] == status).to_numpy(dtype=bool)]
            items = jsontext.pairs(sel["lon"], sel["lat"], LONLAT_DECIMALS)
            out[key] = jsontext.arrays(items, sel["parcel"].to_numpy(dtype=np.int64), n)
    return out


def _label_column(m: pd.DataFrame) -> np.ndarray:
    """The markers' names as the survey gave them (None where none), as an object array."""
    if "label" not in m:
        return np.full(len(m), None, dtype=object)
    v = m["label"].to_numpy(dtype=object)
    return np.where(pd.isna(v), None, v)


def _sign_objects(report: Report, at: np.ndarray) -> Any:
    """``{"source", "row"}`` of the markers ``at`` as JSON text, with ``name`` where the survey
    named the marker."""
    m = report.markers
    label = _label_column(m)[at]
    named = np.not_equal(label, None)
    name = jsontext.join(',"name":', jsontext.texts(label))
    return jsontext.join(
        '{"source":',
        jsontext.texts(m["source"].to_numpy(dtype=object)[at]),
        ',"row":',
        jsontext.integers(m["row"].to_numpy()[at]),
        jsontext.where(named, name),
        "}",
    )


def _gap_arrays(report: Report, n: int) -> list[Any]:
    """Each reported gap (not ``ok``) as JSON text, by parcel: ring, status, lengths, ends, and
    the signs at its ends where it has any."""
    g = report.gaps[(report.gaps["status"] != "ok").to_numpy(dtype=bool)]
    if not len(g):
        return [()] * n
    sm, em = g["start_marker"].to_numpy(), g["end_marker"].to_numpy()
    marked = sm >= 0
    signs = jsontext.join(
        ',"start_sign":',
        _sign_objects(report, np.maximum(sm, 0)),
        ',"end_sign":',
        _sign_objects(report, np.maximum(em, 0)),
    )
    items = jsontext.join(
        '{"ring":{"part":',
        jsontext.integers(g["part"]),
        ',"hole":',
        jsontext.integers(g["hole"]),
        '},"status":',
        jsontext.texts(g["status"].to_numpy(dtype=object)),
        ',"length_ft":',
        jsontext.numbers(g["length_ft"], FT_DECIMALS),
        ',"straight_ft":',
        jsontext.numbers(g["straight_ft"], FT_DECIMALS),
        ',"limit_ft":',
        jsontext.numbers(g["limit_ft"], FT_DECIMALS),
        ',"start":',
        jsontext.pairs(g["start_lon"], g["start_lat"], LONLAT_DECIMALS),
        ',"end":',
        jsontext.pairs(g["end_lon"], g["end_lat"], LONLAT_DECIMALS),
        jsontext.where(marked, signs),
        "}",
    )
    return jsontext.arrays(items, g["parcel"].to_numpy(dtype=np.int64), n)


def _stretch_lists(table: pd.DataFrame, holder: bool, out: dict[int, list[Any]]) -> None:
    """Stretches of boundary (water, easements), by parcel: length, ends (and holder)."""
    first = shapely.get_point(table["geometry"].to_numpy(), 0)
    last = shapely.get_point(table["geometry"].to_numpy(), -1)
    starts = _lonlats(shapely.get_x(first), shapely.get_y(first))
    ends = _lonlats(shapely.get_x(last), shapely.get_y(last))
    holders = _texts(table["holder"]) if "holder" in table else [None] * len(table)
    for p, length, a, b, h in zip(
        table["parcel"].astype(np.int64).tolist(),
        _numbers(table["length_ft"]),
        starts,
        ends,
        holders,
        strict=True,
    ):
        item = {"length_ft": length, "start": a, "end": b}
        out.setdefault(p, []).append({"holder": h, **item} if holder else item)


def _alternatives_lists(report: Report) -> list[list[dict[str, Any]]]:
    n = len(report.parcels)
    out: list[list[dict[str, Any]]] = [[] for _ in range(n)]
    if len(report.profiles) < 2:
        return out
    viol = report.all_findings[report.all_findings["level"] == "violation"]
    by: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for p, prof, item in zip(
        viol["parcel"].tolist(),
        viol["profile"].tolist(),
        finding_items(viol),
        strict=True,
    ):
        by.setdefault((p, prof), []).append(item)
    for p, prof, status in zip(
        report.alternatives["parcel"].tolist(),
        report.alternatives["profile"].tolist(),
        report.alternatives["status"].tolist(),
        strict=True,
    ):
        out[p].append({"rules": prof, "status": status, "violations": by.get((p, prof), [])})
    return out


def parcel_items(report: Report) -> Iterator[dict[str, Any]]:
    """The report's ``parcels`` entries, one dict per input parcel, in input order, ready for
    orjson (:func:`parcel_records`).

    Built column by column (a list per key), then zipped into dicts: a county has 100,000 of
    them. Every empty list is one and the same empty tuple (making 800,000 empty lists costs
    a county 0.3 s), and the lists that can be long (gaps, corners, access points) are JSON
    text already, an :class:`orjson.Fragment` each (:mod:`posting.jsontext`).
    """
    lists = _per_parcel_lists(report)
    written = _written_lists(report)
    p = report.parcels
    n = len(p)

    def listed(key: str) -> list[Any]:
        if key in written:
            return written[key]
        col: list[Any] = [()] * n
        for i, items in lists[key].items():
            col[i] = items
        return col

    status = p["status"].tolist()
    rules = p["rules"].tolist()
    cols: dict[str, list[Any]] = {
        "id": p["id"].tolist(),
        "row": p["row"].astype(np.int64).tolist(),
    }
    force = report.record_keys
    if "owner" in force or p["owner"].notna().any():
        cols["owner"] = _texts(p["owner"])
    cols["status"] = status
    cols["rules"] = rules
    cols["exemption"] = _texts(p["exemption"]) if "exemption" in p else [None] * n
    cols["posted_by"] = _texts(p["posted_by"]) if "posted_by" in p else [None] * n
    cols["signs"] = p["signs"].astype(np.int64).tolist()
    cols["markers_counted"] = p["markers_counted"].astype(np.int64).tolist()
    cols["rings"] = p["rings"].astype(np.int64).tolist()
    cols["perimeter_ft"] = _numbers(p["perimeter_ft"])
    cols["area_acres"] = _numbers(p["area_acres"], 4)
    cols["max_gap_ft"] = _numbers(p["max_gap_ft"])
    cols["gaps"] = listed("gaps")
    cols["corners"] = p["corners"].astype(np.int64).tolist()
    cols["missing_corners"] = listed("missing_corners")
    cols["uncertain_corners"] = listed("uncertain_corners")
    if "access" in force or len(report.access) > 0 or any(pr.access for pr in report.profiles):
        cols["missing_access"] = listed("missing_access")
        cols["uncertain_access"] = listed("uncertain_access")
    for key in ("violations", "uncertain", "not_checked", "notes"):
        cols[key] = listed(key)
    cols["duplicate_id"] = p["duplicate_id"].astype(bool).tolist()
    cols.update(_land_columns(report, lists))
    for c in report.record_columns:  # what other kinds of rule add to each parcel
        cols[c] = _values(p[c])
    # a row has one value per column by construction (strict only on the outer zip: the
    # inner check costs 0.08 s on a county)
    rows = zip(*cols.values(), strict=True)
    items = [dict(zip(cols, row, strict=False)) for row in rows]
    # keys that only some parcels have
    penalty = {pr.name: pr.penalty for pr in report.profiles}
    for i in np.flatnonzero(p["status"].isin(["noncompliant", "unposted", "uncertain"])):
        if penalty.get(rules[i]):
            items[i]["penalty"] = penalty[rules[i]]
    if len(report.profiles) > 1:
        for item, alt in zip(items, _alternatives_lists(report), strict=True):
            if len(alt) > 1:  # alternatives that apply to it (a parcel in one state: its own)
                item["alternatives"] = alt
    if report.states and len(report.states) > 1:
        for item, state in zip(items, _texts(p["state"]), strict=True):
            item["state"] = state
    for key, column in (("repaired", "repaired"), ("invalid_reason", "invalid_reason")):
        values = p[column].to_numpy(dtype=object)
        for i in np.flatnonzero(p[column].notna().to_numpy() & (values != "")):
            items[i][key] = values[i]
    if len(report.geometry.crss) > 1:
        for item, wcrs in zip(items, _texts(p["working_crs"]), strict=True):
            item["working_crs"] = wcrs
    yield from items


def _land_columns(report: Report, lists: dict[str, dict[int, list[Any]]]) -> dict[str, list[Any]]:
    """Per-parcel JSON values from the land layers given (water, dwellings, easements,
    fences, recorded acreage, merged properties)."""
    p = report.parcels
    n = len(p)
    out: dict[str, list[Any]] = {}
    if "water_frontage_ft" in p:
        out["water_frontage_ft"] = _numbers(p["water_frontage_ft"])
        out["water"] = [lists["water"].get(i) or [] for i in range(n)]
    if "dwelling" in p:
        out["dwelling"] = p["dwelling"].astype(bool).tolist()
    if "recorded_acres" in p:
        out["recorded_acres"] = _numbers(p["recorded_acres"], 4)
    if "easement_ft" in p:
        out["easement_ft"] = _numbers(p["easement_ft"])
        out["easements"] = [lists["easements"].get(i) or [] for i in range(n)]
    if (
        "unfenced" in report.record_keys
        or len(report.fence_gaps)
        or any(pr.fence for pr in report.profiles)
    ):
        unfenced = np.zeros(n)
        if len(report.fence_gaps):
            np.add.at(
                unfenced,
                report.fence_gaps["parcel"].to_numpy(dtype=np.int64),
                report.fence_gaps["length_ft"].to_numpy(dtype=float),
            )
        out["unfenced_ft"] = _numbers(unfenced)
    if "source_ids" in p:
        out["source_ids"] = p["source_ids"].tolist()
    return out


def unassigned_items(report: Report) -> Iterator[dict[str, Any]]:
    """The report's ``unassigned_signs`` entries."""
    m = report.markers
    un = m[m["parcel"] < 0]
    return unassigned_entries(
        un["source"], un["row"], _label_column(un), un["lon"], un["lat"], un["reason"]
    )


def unassigned_entries(
    source: Any, row: Any, label: Any, lon: Any, lat: Any, reason: Any
) -> Iterator[dict[str, Any]]:
    """``unassigned_signs`` entries of markers given column by column (``label`` None where the
    survey named none): the one run's and the partitioned run's."""
    for s, r, n, lo, la, why in zip(source, row, label, lon, lat, reason, strict=True):
        item = {"source": s, "row": int(r)}
        if n is not None:
            item["name"] = n
        item.update(
            {"lon": _num(lo, LONLAT_DECIMALS), "lat": _num(la, LONLAT_DECIMALS), "reason": why}
        )
        yield item


def header(report: Report, name: Callable[[str], str] = python_name) -> dict[str, Any]:
    """Everything in the JSON report but the ``parcels`` and ``unassigned_signs`` lists."""
    p = report.parcels
    dup = p[p["duplicate_id"]]
    duplicates = {str(k): [int(r) for r in g["row"]] for k, g in dup.groupby("id", sort=False)}
    if len(report.profiles) > 1:
        rules: dict[str, Any] = {
            "name": report.rules_name,
            "alternatives": [pr.summary() for pr in report.profiles],
        }
        if report.states and len(report.states) > 1:
            rules["states"] = report.states
    else:
        rules = report.profile.summary()
    return {
        "schema": SCHEMA,
        "generated": report.generated,
        "tool": {"name": "posting", "version": _tool_version()},
        "rules": rules,
        "crs": report.crs,
        "crs_detail": [
            {
                "crs": c.label,
                "unit": c.unit_name,
                "parcels": int((report.geometry.group == k).sum()),
            }
            for k, c in enumerate(report.geometry.crss)
        ],
        "settings": report.settings.as_dict(),
        "inputs": {
            "parcels": report.inputs["parcels"],
            "signs": report.inputs["signs"],
        },
        "summary": report.summary(),
        "not_checked": [{**x, "reason": worded(x["reason"], name)} for x in report.not_checked],
        "warnings": [worded(w, name) for w in report.warnings],
        "duplicate_ids": duplicates,
    }


_RECORDS: weakref.WeakKeyDictionary[Report, list[dict[str, Any]]] = weakref.WeakKeyDictionary()


def parcel_records(report: Report) -> list[dict[str, Any]]:
    """The report's ``parcels`` entries (:func:`parcel_items`), made once per report for every
    renderer that reads them. Read-only, and for orjson: every empty list among them is one
    shared empty tuple and the long lists are JSON text (:class:`orjson.Fragment`); their
    lengths are :func:`list_counts`'. :func:`as_dict` gives plain lists of one's own."""
    records = _RECORDS.get(report)
    if records is None:
        records = _RECORDS[report] = list(parcel_items(report))
    return records


def list_counts(report: Report) -> dict[str, np.ndarray]:
    """For each parcel, how many entries its record lists: gaps reported (``gaps``), of which
    ``over`` the limit, ``missing_corners`` and ``missing_access``."""
    n = len(report.parcels)

    def count(table: pd.DataFrame | None, keep: Callable[[pd.Series], Any]) -> np.ndarray:
        if table is None or not len(table):
            return np.zeros(n, dtype=np.int64)
        sel = keep(table["status"]).to_numpy(dtype=bool)
        return np.bincount(table["parcel"].to_numpy(dtype=np.int64)[sel], minlength=n)

    return {
        "gaps": count(report.gaps, lambda s: s != "ok"),
        "over": count(report.gaps, lambda s: s == "over"),
        "missing_corners": count(report.corners, lambda s: s == "missing"),
        "missing_access": count(report.access, lambda s: s == "missing"),
    }


def as_dict(report: Report, name: Callable[[str], str] = python_name) -> dict[str, Any]:
    """The JSON report as a dict (see the README for the keys); ``name`` spells the settings
    the report names (:func:`posting.errors.worded`). Read back from the JSON report itself,
    so that the two cannot differ."""
    from posting.render.json import iter_json

    return orjson.loads(b"".join(iter_json(report, name)))


def marker_why(report: Report) -> np.ndarray:
    """For each marker, in words: which boundary it posts and why, or why none."""
    m = report.markers
    out = m["reason"].to_numpy(dtype=object).copy()
    for how, text in HOW_TEXT.items():
        sel = (m["assigned_by"] == how).to_numpy(dtype=bool)
        if sel.any():
            out[sel] = [f"{text} ({d:.1f} ft from it)" for d in m["distance_ft"].to_numpy()[sel]]
    return out
