"""The report's records: each parcel's entry of the JSON report, written as JSON text key by
key for every parcel at once (:func:`parcel_lines`, by Arrow's kernels: :mod:`posting.jsontext`),
the GeoJSON's parcel properties from the same columns (:func:`parcel_properties`), the counts the
CSV gives of their lists (:func:`list_counts`), the unassigned signs' entries, and the header of
the JSON report. :func:`as_dict` reads the JSON report back for the Python API.

Nothing here measures: every figure is a column of the :class:`~posting.report.Report`'s
tables, rounded for display. The keys are a contract other tools rely on (see the README).
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import orjson
import pandas as pd
import pyarrow as pa
import shapely

from posting import jsontext
from posting.checks import FAIL, OK, UNCERTAIN, shown
from posting.errors import python_name, worded
from posting.parallel import aside, soon

if TYPE_CHECKING:
    from posting.report import Report

__all__ = [
    "DISPLAY_DECIMALS",
    "FT_DECIMALS",
    "LINE_END",
    "LONLAT_DECIMALS",
    "SCHEMA",
    "as_dict",
    "files_sha256",
    "finding_figures",
    "finding_items",
    "gap_figures",
    "header",
    "list_counts",
    "max_gap_figures",
    "max_gap_verdicts",
    "parcel_line_chunks",
    "parcel_lines",
    "parcel_properties",
    "point_figures",
    "tool_files_sha256",
    "unassigned_items",
    "why_text",
]

SCHEMA = "posting-report/1"
LONLAT_DECIMALS = 7  # about 1 cm: finer than any survey
DISPLAY_DECIMALS = 6  # about 0.36 ft north-south: finer than all but survey-grade RTK positions
FT_DECIMALS = 2
_NO_TEXT = pa.array([], type=pa.large_string())
LINE_END = ",\n  "
"""What follows each parcel's entry in :func:`parcel_lines`: the JSON report's separator."""
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


@functools.cache
def tool_files_sha256() -> str:
    """The SHA-256 of the files of the ``posting`` package that runs (:func:`files_sha256` of
    its folder: its code, rule profiles and data): which build of a version made a result. A
    version number names a release; this tells two builds of one version apart (a source tree
    between releases, a patched install), and is the same for a wheel and the source it was
    built from (the same files). About 8 ms for the package's 170 files, once a process.

    >>> len(tool_files_sha256()), tool_files_sha256() == tool_files_sha256()
    (64, True)
    """
    return files_sha256(Path(__file__).resolve().parent)


def files_sha256(root: str | os.PathLike[str]) -> str:
    """The SHA-256 of every file under ``root`` (``__pycache__`` folders aside), in the order of
    their paths from ``root``, each as its path's and its content's lengths, path and content:
    a file renamed, moved, added, removed or changed by a byte changes it; where the folder is
    does not, nor are the files' times read.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "a.py").write_text("x = 1\\n")
    ...     files_sha256(d)[:12]
    '31c4ec487429'
    """
    import hashlib

    root = Path(root)
    digest = hashlib.sha256()
    named = (
        (f.relative_to(root).as_posix().encode(), f)
        for f in root.rglob("*")
        if "__pycache__" not in f.relative_to(root).parts and f.is_file()
    )
    for name, f in sorted(named):
        data = f.read_bytes()
        digest.update(b"%d:%d:%s" % (len(name), len(data), name))  # unambiguous boundaries
        digest.update(data)
    return digest.hexdigest()


def _num(x: Any, nd: int = FT_DECIMALS) -> float | int | None:
    """A JSON-safe number: None for NaN/inf/None, rounded floats, plain ints."""
    if x is None or x is pd.NA:
        return None
    if isinstance(x, int | np.integer) and not isinstance(x, bool):
        return int(x)
    x = float(x)
    return round(x, nd) if math.isfinite(x) else None


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


def _text(x: Any) -> Any:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) or x is pd.NA else x


def finding_figures(f: pd.DataFrame, decimals: int = FT_DECIMALS) -> np.ndarray:
    """Findings' ``measured`` figures to be shown to ``decimals`` beside their ``limit``
    (:func:`posting.checks.shown`): a violation's never at or beyond its limit on the passing
    side (a gap of 500.004 ft over 500 ft is 500.01, a letter 1.996 in high under 2 in is
    1.99); the others' as they are. A violation whose figure is over its limit failed a
    maximum, one under it a minimum.

    >>> f = pd.DataFrame({"level": ["violation", "violation", "uncertain"],
    ...                   "measured": [500.004, 1.996, 500.004], "limit": [500.0, 2.0, 500.0]})
    >>> finding_figures(f).tolist()
    [500.01, 1.99, 500.004]
    """
    measured = f["measured"].to_numpy(dtype=float)
    limit = f["limit"].to_numpy(dtype=float)
    failed = f["level"].eq("violation").to_numpy(dtype=bool)
    with np.errstate(invalid="ignore"):
        verdict = np.where(failed & (measured != limit), FAIL, UNCERTAIN)
        return shown(measured, decimals, limit, verdict, maximum=measured > limit)


def _gap_verdicts(gaps: pd.DataFrame) -> np.ndarray:
    """Each gap's verdict against its ``limit_ft``: ``FAIL`` where ``over``, ``OK`` where
    ``ok``, ``UNCERTAIN`` elsewhere (within the accuracy, or a ring without a marker)."""
    status = gaps["status"]
    return np.where(
        status.eq("over").to_numpy(dtype=bool),
        FAIL,
        np.where(status.eq("ok").to_numpy(dtype=bool), OK, UNCERTAIN),
    ).astype(np.int8)


def gap_figures(gaps: pd.DataFrame, key: str, decimals: int = FT_DECIMALS) -> np.ndarray:
    """The gaps' ``key`` figures (``length_ft``, ``straight_ft``, ``measured_ft``) to be shown
    to ``decimals`` beside their status (:func:`posting.checks.shown`): a gap ``over`` its
    limit is never shown at or under it, an ``ok`` one never over it. The status is the
    figure compared's (``measured_ft``: the length along the boundary, in a straight line, or
    the shorter); another of the gap's figures shares it where it is at least as long (over)
    or at most as long (ok), and is shown as it is otherwise (a gap around a corner over
    500 ft along the boundary may be 400 ft across it).

    >>> g = pd.DataFrame({"status": ["over", "over", "ok"], "limit_ft": [500.0] * 3,
    ...                   "measured_ft": [500.004, 500.004, 500.002],
    ...                   "length_ft": [500.004, 500.004, 500.002],
    ...                   "straight_ft": [500.004, 400.0, np.nan]})
    >>> gap_figures(g, "length_ft").tolist(), gap_figures(g, "straight_ft").tolist()
    ([500.01, 500.01, 500.002], [500.01, 400.0, nan])
    """
    x = gaps[key].to_numpy(dtype=float)
    measured = gaps["measured_ft"].to_numpy(dtype=float)
    verdict = _gap_verdicts(gaps)
    with np.errstate(invalid="ignore"):
        shares = np.where(verdict == FAIL, x >= measured, x <= measured)
    verdict = np.where(shares, verdict, UNCERTAIN)
    return shown(x, decimals, gaps["limit_ft"].to_numpy(dtype=float), verdict)


def max_gap_verdicts(max_gap_ft: Any, gaps: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Each parcel's largest gap's (``max_gap_ft``: the largest of its gaps' ``measured_ft``)
    verdict and limit, from its gaps of that figure: ``FAIL`` where one is ``over`` (the
    largest of their limits), ``OK`` where all are ``ok`` (the least of their limits),
    ``UNCERTAIN`` elsewhere (and where the parcel has no gap).

    >>> g = pd.DataFrame({"parcel": [0, 0, 1, 1], "status": ["over", "ok", "ok", "ok"],
    ...                   "measured_ft": [500.004, 300.0, 500.002, 200.0],
    ...                   "limit_ft": [500.0, 500.0, 500.0, 500.0]})
    >>> v, lim = max_gap_verdicts(np.array([500.004, 500.002, np.nan]), g)
    >>> v.tolist(), lim.tolist()
    ([2, 0, 1], [500.0, 500.0, nan])
    """
    mx = np.asarray(max_gap_ft, dtype=float)
    n = len(mx)
    worst = np.full(n, -1, dtype=np.int8)  # -1: no gap of that figure (none, or no figure)
    fail_limit, ok_limit = np.full(n, np.nan), np.full(n, np.nan)
    if len(gaps) and n:
        parcel = gaps["parcel"].to_numpy(dtype=np.int64)
        at = gaps["measured_ft"].to_numpy(dtype=float) == mx[parcel]
        parcel = parcel[at]
        verdict = _gap_verdicts(gaps)[at]
        limit = gaps["limit_ft"].to_numpy(dtype=float)[at]
        # the worst of them: FAIL, then UNCERTAIN, then OK (the codes in that order)
        np.maximum.at(worst, parcel, verdict)
        failed = verdict == FAIL
        np.fmax.at(fail_limit, parcel[failed], limit[failed])
        np.fmin.at(ok_limit, parcel, limit)
    verdict = np.where(worst < 0, UNCERTAIN, worst).astype(np.int8)
    limit = np.where(verdict == FAIL, fail_limit, np.where(verdict == OK, ok_limit, np.nan))
    return verdict, limit


def max_gap_figures(report: Report, decimals: int = FT_DECIMALS) -> np.ndarray:
    """Each parcel's ``max_gap_ft`` to be shown to ``decimals``, on its verdict's side of its
    limit (:func:`max_gap_verdicts`, :func:`posting.checks.shown`)."""
    mx = report.parcels["max_gap_ft"].to_numpy(dtype=float)
    verdict, limit = max_gap_verdicts(mx, report.gaps)
    return shown(mx, decimals, limit, verdict)


def point_figures(
    table: pd.DataFrame, tolerance_ft: float, decimals: int = FT_DECIMALS
) -> np.ndarray:
    """The corners' or access points' ``nearest_ft`` (the figure compared with the tolerance)
    to be shown to ``decimals`` beside their status (:func:`posting.checks.shown`): a place
    ``missing`` its marker is never shown with one at or within the tolerance (a corner
    30.004 ft from its marker, 30 ft allowed, is 30.01 ft from it, not 30.0), an ``ok`` one
    never beyond it. A place missing its marker because that marker serves another place
    (``marker_shared``) is shown as it is: its distance is not what failed.

    >>> t = pd.DataFrame({"status": ["missing", "missing", "ok", "uncertain"],
    ...                   "nearest_ft": [30.004, 12.5, 30.0, 30.004],
    ...                   "marker_shared": [False, True, False, False]})
    >>> point_figures(t, 30.0).tolist()
    [30.01, 12.5, 30.0, 30.004]
    """
    shared = (
        table["marker_shared"].fillna(False).to_numpy(dtype=bool)
        if "marker_shared" in table
        else np.zeros(len(table), dtype=bool)
    )
    status = table["status"]
    verdict = np.where(
        status.eq("missing").to_numpy(dtype=bool) & ~shared,
        FAIL,
        np.where(status.eq("ok").to_numpy(dtype=bool) & ~shared, OK, UNCERTAIN),
    )
    return shown(table["nearest_ft"].to_numpy(dtype=float), decimals, tolerance_ft, verdict)


def finding_items(f: pd.DataFrame) -> list[dict[str, Any]]:
    """Findings rows as JSON-ready dicts (columns converted at once, not value by value)."""
    basis = f["basis"].tolist() if "basis" in f else ["statute"] * len(f)
    cols = zip(
        f["rule"].tolist(),
        f["clause"].tolist(),
        basis,
        f["message"].tolist(),
        _numbers(finding_figures(f)),
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


def _finding_text(f: pd.DataFrame) -> pa.Array:
    """Findings rows as JSON objects (the keys of :func:`finding_items`), written by Arrow."""
    basis = f["basis"].to_numpy(dtype=object) if "basis" in f else np.full(len(f), "statute")
    return jsontext.join(
        '{"rule":',
        _text_column(f["rule"]),
        ',"clause":',
        _text_column(f["clause"]),
        ',"basis":',
        _text_column(basis),
        ',"message":',
        _text_column(f["message"]),
        ',"measured":',
        jsontext.numbers(finding_figures(f), FT_DECIMALS),
        ',"limit":',
        jsontext.numbers(f["limit"], FT_DECIMALS),
        ',"unit":',
        _text_column(f["unit"]),
        ',"count":',
        jsontext.integers(f["count"]),
        "}",
    )


def _list_columns(report: Report, skip: tuple[str, ...] = ()) -> dict[str, list[Any]]:
    """Per key of a parcel's record that holds a list (but those in ``skip``), the JSON array
    of each parcel (as the parts of :func:`posting.jsontext.arrays`): findings by level, gaps,
    missing and uncertain corners and access points."""
    n = len(report.parcels)
    # the gaps' arrays beside the rest (Arrow's kernels let go of the GIL)
    gaps = None if "gaps" in skip else soon(_gap_arrays, report, n)
    out: dict[str, list[Any]] = {}
    f = report.findings
    level = f["level"].to_numpy(dtype=object)
    text = _finding_text(f) if len(f) else None
    for lv, key in _LEVEL_KEY.items():
        sel = np.flatnonzero(level == lv)
        items = text.take(pa.array(sel)) if text is not None else pa.array([], pa.large_string())
        out[key] = jsontext.arrays(items, f["parcel"].to_numpy(dtype=np.int64)[sel], n)
    for table, noun in ((report.corners, "corners"), (report.access, "access")):
        for key, status in ((f"missing_{noun}", "missing"), (f"uncertain_{noun}", "uncertain")):
            sel = table[(table["status"] == status).to_numpy(dtype=bool)] if len(table) else table
            items = jsontext.pairs(sel["lon"], sel["lat"], LONLAT_DECIMALS) if len(sel) else []
            parcel = sel["parcel"].to_numpy(dtype=np.int64) if len(sel) else np.empty(0, np.int64)
            out[key] = jsontext.arrays(items, parcel, n)
    if gaps is not None:
        out["gaps"] = gaps.result()
    return out


def _text_column(values: Any) -> pa.Array:
    """A column of text (or of other values) as JSON, ``null`` where missing."""
    s = pd.Series(values, dtype=object)
    v = s.where(s.notna(), None).to_numpy(dtype=object)
    if pd.api.types.infer_dtype(v, skipna=True) in ("string", "empty"):
        return jsontext.texts(v)
    return jsontext.dumped(v.tolist())


def _value_column(column: pd.Series) -> pa.Array:
    """A column as JSON: booleans, integers, floats rounded (null where not finite), text as
    is."""
    if pd.api.types.is_bool_dtype(column):
        return jsontext.booleans(column.astype(bool))
    if pd.api.types.is_integer_dtype(column):
        return jsontext.integers(column.astype("int64"))
    if pd.api.types.is_float_dtype(column):
        return jsontext.numbers(column, FT_DECIMALS)
    return _text_column(column)


def _stretch_column(report: Report, key: str) -> pa.Array:
    """Each parcel's stretches of water or easement as a JSON array."""
    n = len(report.parcels)
    table = report.water if key == "water" else report.easements
    by: dict[int, list[Any]] = {}
    if table is not None and len(table):
        _stretch_lists(table, key == "easements", by)
    col = ["[]"] * n
    for i, items in by.items():
        col[i] = orjson.dumps(items).decode()
    return pa.array(col, type=pa.large_string())


def _label_column(m: pd.DataFrame) -> np.ndarray:
    """The markers' names as the survey gave them (None where none), as an object array."""
    if "label" not in m:
        return np.full(len(m), None, dtype=object)
    v = m["label"].to_numpy(dtype=object)
    return np.where(pd.isna(v), None, v)


def _sign_objects(report: Report, at: np.ndarray) -> Any:
    """``{"source", "row"}`` of the markers ``at`` (places in ``report.markers``, then in its
    ``signs_beyond``) as JSON text, with ``name`` where the survey named the marker."""
    m = report.markers
    if len(report.signs_beyond):
        m = pd.concat([m, report.signs_beyond], ignore_index=True)
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
        return jsontext.arrays([], np.empty(0, dtype=np.int64), n)
    sm, em = g["start_marker"].to_numpy(), g["end_marker"].to_numpy()
    marked = sm >= 0
    signs = jsontext.join(
        ',"start_sign":',
        _sign_objects(report, sm[marked]),
        ',"end_sign":',
        _sign_objects(report, em[marked]),
    )
    items = [
        '{"ring":{"part":',
        jsontext.integers(g["part"]),
        ',"hole":',
        jsontext.integers(g["hole"]),
        '},"status":',
        jsontext.texts(g["status"].to_numpy(dtype=object)),
        ',"length_ft":',
        jsontext.numbers(gap_figures(g, "length_ft"), FT_DECIMALS),
        ',"straight_ft":',
        jsontext.numbers(gap_figures(g, "straight_ft"), FT_DECIMALS),
        ',"limit_ft":',
        jsontext.numbers(g["limit_ft"], FT_DECIMALS),
        ',"start":',
        jsontext.pairs(g["start_lon"], g["start_lat"], LONLAT_DECIMALS),
        ',"end":',
        jsontext.pairs(g["end_lon"], g["end_lat"], LONLAT_DECIMALS),
        jsontext.scatter(marked, signs),
        "}",
    ]
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


def parcel_lines(report: Report) -> pa.Array:
    """The report's ``parcels`` entries as JSON text, one object per input parcel, in input
    order (see the README for the keys), each followed by :data:`LINE_END` (as the JSON report
    lists them).

    Written column by column by Arrow (:mod:`posting.jsontext`): a key's values for every parcel
    at once, then each parcel's keys joined; no Python object is made per value, which on a
    county of real shapes (hundreds of thousands of gaps and corners) is most of the report's
    time. The values are spelled as orjson spells them.
    """
    parts = _record_parts(report, "{", "}" + LINE_END)
    return jsontext.join(*parts) if len(report.parcels) else _NO_TEXT


def parcel_line_chunks(report: Report) -> Iterator[pa.Array]:
    """:func:`parcel_lines` in consecutive pieces (:func:`posting.jsontext.pieces`), each given
    as soon as it is made: the last step (joining each parcel's keys, a few hundred MB of text
    on a county of real shapes) runs on every core while the caller writes the pieces before,
    and is never made whole."""
    n = len(report.parcels)
    if not n:
        return iter(())
    return jsontext.pieces(_record_parts(report, "{", "}" + LINE_END), n)


def parcel_properties(report: Report) -> pa.Array:
    """The GeoJSON's properties of each parcel, as JSON text: ``layer`` first, then its record's
    keys but ``gaps``, then how many gaps it reports (``gaps_reported``)."""
    gaps = pa.array(list_counts(report)["gaps"])
    tail = [',"gaps_reported":', jsontext.integers(gaps), "}"]
    if not len(report.parcels):
        return _NO_TEXT
    return jsontext.join(*_record_parts(report, '{"layer":"parcel",', tail, drop=("gaps",)))


def _record_parts(
    report: Report, opening: str, closing: str | list[Any], drop: tuple[str, ...] = ()
) -> list[jsontext.Part]:
    """Each parcel's record (but the keys in ``drop``) as JSON members, between ``opening`` and
    ``closing`` (text, or the parts of a column of text): the parts whose row-by-row join
    (:func:`posting.jsontext.join`) is the records. The report has parcels."""
    p = report.parcels
    n = len(p)
    # the lists (findings, gaps, corners) beside the other keys: Arrow's kernels let go of
    # the GIL
    listing = aside(_list_columns, report, skip=drop)
    force = report.record_keys
    head: list[tuple[str, Any]] = [
        (
            "id",
            _text_column(p["id"]) if p["id"].dtype == object else jsontext.dumped(p["id"].tolist()),
        ),
        ("row", jsontext.integers(p["row"])),
    ]
    if "owner" in force or p["owner"].notna().any():
        head.append(("owner", _text_column(p["owner"])))
    nulls = pa.array(["null"] * n, type=pa.large_string())
    head += [
        ("status", _text_column(p["status"])),
        ("rules", _text_column(p["rules"])),
        ("exemption", _text_column(p["exemption"]) if "exemption" in p else nulls),
        ("posted_by", _text_column(p["posted_by"]) if "posted_by" in p else nulls),
        ("signs", jsontext.integers(p["signs"])),
        ("markers_counted", jsontext.integers(p["markers_counted"])),
        ("rings", jsontext.integers(p["rings"])),
        ("perimeter_ft", jsontext.numbers(p["perimeter_ft"], FT_DECIMALS)),
        ("area_acres", jsontext.numbers(p["area_acres"], 4)),
        ("max_gap_ft", jsontext.numbers(max_gap_figures(report), FT_DECIMALS)),
    ]
    corners = jsontext.integers(p["corners"])
    tail = [("duplicate_id", jsontext.booleans(p["duplicate_id"].astype(bool)))]
    tail += _land_columns(report)
    tail += [(c, _value_column(p[c])) for c in report.record_columns]  # other kinds of rule
    lists = listing.result()
    cols = [
        *head,
        ("gaps", lists.get("gaps")),
        ("corners", corners),
        ("missing_corners", lists["missing_corners"]),
        ("uncertain_corners", lists["uncertain_corners"]),
    ]
    if "access" in force or len(report.access) > 0 or any(pr.access for pr in report.profiles):
        cols += [("missing_access", lists["missing_access"])]
        cols += [("uncertain_access", lists["uncertain_access"])]
    cols += [(key, lists[key]) for key in ("violations", "uncertain", "not_checked", "notes")]
    cols += tail
    parts: list[Any] = [opening]
    for i, (key, text) in enumerate(c for c in cols if c[0] not in drop):
        parts.append(("," if i else "") + orjson.dumps(key).decode() + ":")
        parts += text if isinstance(text, list) else [text]
    # keys that only some parcels have
    rules = p["rules"].to_numpy(dtype=object)
    penalty = {pr.name: orjson.dumps(pr.penalty).decode() for pr in report.profiles if pr.penalty}
    if penalty:
        bad = p["status"].isin(["noncompliant", "unposted", "uncertain"]).to_numpy()
        text = pd.Series(rules, dtype=object).map(penalty)
        has = bad & text.notna().to_numpy()
        parts.append(jsontext.where(has, jsontext.join(',"penalty":', _filled(text, has))))
    if len(report.profiles) > 1:
        alt = _alternatives_lists(report)
        has = np.fromiter((len(a) > 1 for a in alt), dtype=bool, count=n)  # others than its own
        text = jsontext.dumped([a if h else None for a, h in zip(alt, has, strict=True)])
        parts.append(jsontext.where(has, jsontext.join(',"alternatives":', text)))
    if report.states and len(report.states) > 1:
        parts += [',"state":', _text_column(p["state"])]
    for key in ("repaired", "invalid_reason"):
        values = p[key].to_numpy(dtype=object)
        has = p[key].notna().to_numpy() & (values != "")
        text = _text_column(np.where(has, values, None))
        parts.append(jsontext.where(has, jsontext.join(f',"{key}":', text)))
    if len(report.geometry.crss) > 1:
        parts += [',"working_crs":', _text_column(p["working_crs"])]
    parts += closing if isinstance(closing, list) else [closing]
    return parts


def _filled(text: pd.Series, has: np.ndarray) -> pa.Array:
    """Text where ``has``, empty elsewhere, as an Arrow column."""
    return pa.array(np.where(has, text.to_numpy(dtype=object), ""), type=pa.large_string())


def _land_columns(report: Report) -> list[tuple[str, pa.Array]]:
    """Per-parcel JSON values from the land layers given (water, dwellings, easements,
    fences, recorded acreage, merged properties)."""
    p = report.parcels
    n = len(p)
    out: list[tuple[str, pa.Array]] = []
    if "water_frontage_ft" in p:
        out.append(("water_frontage_ft", jsontext.numbers(p["water_frontage_ft"], FT_DECIMALS)))
        out.append(("water", _stretch_column(report, "water")))
    if "dwelling" in p:
        out.append(("dwelling", jsontext.booleans(p["dwelling"].astype(bool))))
    if "recorded_acres" in p:
        out.append(("recorded_acres", jsontext.numbers(p["recorded_acres"], 4)))
    if "easement_ft" in p:
        out.append(("easement_ft", jsontext.numbers(p["easement_ft"], FT_DECIMALS)))
        out.append(("easements", _stretch_column(report, "easements")))
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
        out.append(("unfenced_ft", jsontext.numbers(unfenced, FT_DECIMALS)))
    if "source_ids" in p:
        out.append(("source_ids", jsontext.dumped(p["source_ids"].tolist())))
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
    duplicates = duplicate_rows(p)
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


def duplicate_rows(parcels: pd.DataFrame) -> dict[str, list[int]]:
    """The rows of each id that more than one parcel has, in the order the ids first appear
    (a missing id is no id).

    >>> duplicate_rows(pd.DataFrame({"id": ["a", "b", "a", None, "b"], "row": [0, 1, 2, 3, 4],
    ...                              "duplicate_id": [True, True, True, False, True]}))
    {'a': [0, 2], 'b': [1, 4]}
    >>> duplicate_rows(pd.DataFrame({"id": ["a"], "row": [0], "duplicate_id": [False]}))
    {}
    """
    dup = parcels[parcels["duplicate_id"].to_numpy(dtype=bool)]
    code, ids = pd.factorize(dup["id"].to_numpy(dtype=object))
    keep = code >= 0
    code, rows = code[keep], dup["row"].to_numpy(dtype=np.int64)[keep]
    if not len(ids):
        return {}
    order = np.argsort(code, kind="stable")
    groups = np.split(rows[order], np.cumsum(np.bincount(code, minlength=len(ids)))[:-1])
    return {str(k): g.tolist() for k, g in zip(ids.tolist(), groups, strict=True)}


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


def why_text(markers: pd.DataFrame) -> pa.Array:
    """For each marker (a table as :attr:`Report.markers`: ``reason``, and ``assigned_by`` and
    ``distance_ft`` where assigned), in words, as a JSON string: which boundary it posts and
    why (``"stands inside this parcel, near its boundary (2.3 ft from it)"``), or why none;
    ``null`` where no reason is known.

    >>> t = pd.DataFrame({"reason": [None, "no boundary within 50 ft"],
    ...                   "assigned_by": ["inside", None], "distance_ft": [2.25, np.nan]})
    >>> for text in why_text(t).to_pylist():
    ...     print(text)
    "stands inside this parcel, near its boundary (2.2 ft from it)"
    "no boundary within 50 ft"
    """
    import pyarrow.compute as pc

    text = _text_column(markers["reason"].to_numpy(dtype=object))
    if "assigned_by" not in markers or not len(markers):
        return text
    codes, hows = pd.factorize(pd.Series(markers["assigned_by"].to_numpy(dtype=object)))
    distance = markers["distance_ft"].to_numpy(dtype=float)
    for k, how in enumerate(hows.tolist()):
        if how not in HOW_TEXT:
            continue
        sel = codes == k
        d = distance[sel]
        # the distance as f"{d:.1f}" spells it: Python's rounding, then orjson's spelling (the
        # same digits below 1e16; others, and what is not finite, spelled by Python)
        number = jsontext.numbers(d, 1, exact=True)
        odd = np.flatnonzero(~(np.abs(d) < 1e15))
        if len(odd):
            spelled = np.asarray(number.to_pylist(), dtype=object)
            spelled[odd] = [f"{x:.1f}" for x in d[odd]]
            number = pa.array(spelled, type=pa.large_string())
        opening = orjson.dumps(f"{HOW_TEXT[how]} (").decode()[:-1]  # without its closing quote
        words = jsontext.join(opening, number, ' ft from it)"')
        text = pc.replace_with_mask(text, pa.array(sel), words)
    return text
