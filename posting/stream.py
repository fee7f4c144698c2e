"""The outputs of a partitioned check (:mod:`posting.distributed`), streamed in input order.

Each partition writes its part of every output asked for: its parcels' JSON records, CSV rows
and GeoJSON features, one line each with its place in the whole run's input order
(:func:`write_partition`), as Arrow files in the run's scratch folder, and its part of each
GeoParquet dataset. :func:`write_outputs` merges the lines of every partition in input order
(a heap over the partitions' files, a batch of each at a time: memory stays that of a few
batches per partition) under the header one run would write, so that the JSON, GeoJSON and CSV
are byte for byte those of the single-process check; the GeoParquet parts are moved into place.
Every file is written beside its target and renamed into place once all are written.
"""

from __future__ import annotations

import csv
import glob
import graphlib
import heapq
import io
import itertools
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import numpy as np
import orjson
import pandas as pd

from posting.errors import python_name

if TYPE_CHECKING:
    from posting.distributed import Run
    from posting.outputs import Staged
    from posting.report import Report

__all__ = ["WORST_COLUMNS", "Totals", "write_outputs", "write_parquet_report", "write_partition"]

_BATCH = 2_000
WORST_COLUMNS = [
    "id",
    "row",
    "status",
    "max_gap_ft",
    "perimeter_ft",
    "signs",
    "max_gap_verdict",
    "max_gap_limit_ft",
]
"""What a partition gives of its worst parcels (:meth:`posting.report.Report.worst`), for the
summary."""
_ROW = 1 << 20  # packed keys: profile << 50 | row << 20 | rank within the parcel


# -- a partition's part ----------------------------------------------------------------------
def _write_lines(path: str, keys: np.ndarray, lines: list[bytes] | Any) -> None:
    """``lines`` (bytes, or an Arrow column of text), sorted by ``keys``, as an Arrow file."""
    import pyarrow as pa

    os.makedirs(os.path.dirname(path), exist_ok=True)
    order = np.argsort(keys, kind="stable")
    keys = np.asarray(keys, dtype=np.int64)[order]
    if isinstance(lines, pa.Array):
        lines = lines.take(pa.array(order)).cast(pa.binary())
    else:
        lines = pa.array([lines[i] for i in order], type=pa.binary())
    schema = pa.schema([("key", pa.int64()), ("line", pa.binary())])
    tmp = f"{path}.{os.getpid()}.tmp"
    with pa.OSFile(tmp, "wb") as sink, pa.ipc.new_file(sink, schema) as writer:
        for lo in range(0, len(lines), _BATCH):
            writer.write_batch(
                pa.record_batch(
                    [pa.array(keys[lo : lo + _BATCH]), lines[lo : lo + _BATCH]],
                    schema=schema,
                )
            )
    os.replace(tmp, path)


def _table_keys(sub: Report, table: pd.DataFrame) -> np.ndarray:
    """Each row's place in the whole run's table: its parcel's profile, its parcel's row and
    its rank among its parcel's rows."""
    if not len(table):
        return np.empty(0, dtype=np.int64)
    names = {p.name: i for i, p in enumerate(sub.profiles)}
    parcel = table["parcel"].to_numpy(dtype=np.int64)
    prof = np.asarray([names.get(r, 0) for r in sub.parcels["rules"].to_numpy()], dtype=np.int64)
    row = sub.parcels["row"].to_numpy(dtype=np.int64)
    rank = pd.Series(parcel).groupby(parcel).cumcount().to_numpy(dtype=np.int64)
    return (prof[parcel] << 50) | (row[parcel] << 20) | rank


def write_partition(
    scratch: str, k: int, sub: Report, outputs: tuple[str, ...], marker_keys: np.ndarray
) -> dict[str, Any]:
    """Write partition ``k``'s part of each output (``sub``: its own parcels' report)."""
    import pyarrow.compute as pc

    from posting.records import LINE_END, parcel_lines

    rows = sub.parcels["row"].to_numpy(dtype=np.int64)
    if "json" in outputs:
        lines = pc.utf8_slice_codeunits(parcel_lines(sub), 0, -len(LINE_END))
        _write_lines(f"{scratch}/lines/json/{k}.arrow", rows, lines)
    if "csv" in outputs:
        from posting.render.csv import csv_rows

        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        lines = []
        for r in csv_rows(sub):
            buf.seek(0)
            buf.truncate()
            w.writerow(r)
            lines.append(buf.getvalue().encode())
        _write_lines(f"{scratch}/lines/csv/{k}.arrow", rows, lines)
    if "parquet" in outputs:
        _parquet_parts(scratch, k, sub)
    if "geojson" in outputs:
        _geojson_parts(scratch, k, sub, marker_keys)
    return {}


def _geojson_parts(scratch: str, k: int, sub: Report, marker_keys: np.ndarray) -> None:
    from posting.render.geojson import feature_sections

    reported = sub.gaps[sub.gaps["status"] != "ok"]
    keys = {
        "parcels": sub.parcels["row"].to_numpy(dtype=np.int64),
        "markers": np.asarray(marker_keys, dtype=np.int64),
        "gaps": _table_keys(sub, reported),
        "corners": _table_keys(sub, sub.corners),
        "access": _table_keys(sub, sub.access),
    }
    for name, features in feature_sections(sub):
        if len(features) != len(keys[name]):
            raise RuntimeError(
                f"GeoJSON of partition {k}: {len(features)} {name}, expected {len(keys[name])}"
            )
        _write_lines(f"{scratch}/lines/geojson-{name}/{k}.arrow", keys[name], features)


def _point_wkb(x: np.ndarray, y: np.ndarray) -> Any:
    """Points as an Arrow array of WKB (little-endian, 21 bytes each; null where a coordinate
    is not finite), written with numpy: no Point object is made (a state's ten million)."""
    import pyarrow as pa

    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    n = len(x)
    rec = np.zeros(n, dtype=[("order", "u1"), ("kind", "<u4"), ("x", "<f8"), ("y", "<f8")])
    rec["order"], rec["kind"], rec["x"], rec["y"] = 1, 1, x, y
    ok = np.isfinite(x) & np.isfinite(y)
    fixed = pa.FixedSizeBinaryArray.from_buffers(
        pa.binary(21), n, [None, pa.py_buffer(rec.tobytes())]
    )
    wkb = fixed.cast(pa.binary())
    return wkb if ok.all() else pa.compute.if_else(pa.array(ok), wkb, pa.nulls(n, pa.binary()))


# -- GeoParquet parts ------------------------------------------------------------------------
def _text_array(values: Any, blank_is_null: bool = False) -> Any:
    """A text column as an Arrow string array, null where a value is missing (None, NaN, NA)
    and, with ``blank_is_null``, where it is empty: built from numpy codes of its distinct
    values (a state's ten million markers name a few sources, kinds and reasons), the text of
    each distinct value converted once."""
    import pyarrow as pa

    if isinstance(values, pd.Series) and isinstance(values.dtype, pd.CategoricalDtype):
        codes = values.cat.codes.to_numpy()
        uniques = values.cat.categories.to_numpy(dtype=object)
    else:
        codes, uniques = pd.factorize(np.asarray(values, dtype=object))
        uniques = np.asarray(uniques, dtype=object)
    missing = codes < 0
    if blank_is_null and len(uniques):
        blank = np.zeros(len(uniques), dtype=bool)
        blank[:] = uniques == ""
        if blank.any():
            missing = missing | blank[np.maximum(codes, 0)]
    dictionary = pa.array(uniques, type=pa.string(), from_pandas=True)
    indices = pa.array(np.asarray(codes, dtype=np.int32), mask=missing)
    return pa.DictionaryArray.from_arrays(indices, dictionary).cast(pa.string())


def _blank_null(text: Any) -> Any:
    """Arrow text as strings, null where empty."""
    import pyarrow as pa
    import pyarrow.compute as pc

    text = text.cast(pa.string())
    return pc.if_else(pc.equal(text, ""), pa.scalar(None, pa.string()), text)


def _taken(values: Any, index: np.ndarray) -> Any:
    """``values`` (Arrow) at ``index``, null where ``index`` is negative (no parcel)."""
    import pyarrow as pa

    index = np.asarray(index, dtype=np.int64)
    missing = index < 0
    if not len(values):
        return pa.nulls(len(index), values.type)
    return values.take(pa.array(np.maximum(index, 0), mask=missing if missing.any() else None))


def _geoparquet(
    path: str,
    columns: dict[str, Any],
    types: dict[str, Any],
    geometry: np.ndarray,
    kinds: list[str],
) -> None:
    """Write ``columns`` (Arrow arrays, or numpy/pandas values converted with NaN as null) of
    the Arrow ``types`` and ``geometry`` (Arrow WKB, or shapely geometries, made WKB on
    :func:`posting.parallel.pmap`'s threads) as one GeoParquet file, beside ``path`` and
    renamed into place."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    import shapely

    from posting.parallel import pmap

    os.makedirs(os.path.dirname(path), exist_ok=True)
    arrays = {}
    for c, v in columns.items():
        if isinstance(v, pa.Array):
            if not v.type.equals(types[c]):
                raise TypeError(f"column {c}: {v.type}, expected {types[c]}")
            arrays[c] = v
        else:
            arrays[c] = pa.array(v, type=types[c], from_pandas=True)
    if isinstance(geometry, pa.Array):
        arrays["geometry"] = geometry
    else:
        arrays["geometry"] = pa.array(pmap(shapely.to_wkb, geometry), type=pa.binary())
    table = pa.table(arrays)
    geo = {
        "version": "1.1.0",
        "primary_column": "geometry",
        "columns": {"geometry": {"encoding": "WKB", "geometry_types": kinds}},
    }
    table = table.replace_schema_metadata({b"geo": json.dumps(geo).encode()})
    tmp = f"{path}.{os.getpid()}.tmp"
    pq.write_table(table, tmp)
    os.replace(tmp, path)


def _parquet_parts(scratch: str, k: int, sub: Report) -> None:
    """Write part ``k`` of each GeoParquet dataset from ``sub``'s columns. The markers and
    corners are written in the background (:func:`posting.parallel.background`: Arrow's
    writer releases the GIL) while the parcels and gaps are in this thread (their projections
    to longitude/latitude on :func:`posting.parallel.pmap`'s threads); at once, one after
    another, where the process has one thread (a dask worker)."""
    import pyarrow as pa

    from posting.parallel import background

    ids = pa.array(sub.parcels["id"].to_numpy(dtype=object), type=pa.string(), from_pandas=True)
    rows = sub.parcels["row"].to_numpy(dtype=np.int64)
    folder = f"{scratch}/parquet/{{}}/part-{k:05d}.parquet"

    def aside() -> None:
        m = sub.markers
        mp = m["parcel"].to_numpy(dtype=np.int64)
        _marker_part(
            folder.format("markers"),
            m,
            _taken(ids, mp),
            np.where(mp >= 0, rows[np.maximum(mp, 0)] if len(rows) else -1, -1),
        )
        _corners_part(folder.format("corners"), sub, ids, rows)

    later = background(aside)
    try:
        _parcels_part(folder.format("parcels"), sub, ids)
        _gaps_part(folder.format("gaps"), sub, ids, rows)
    finally:
        later.result()


def _parcels_part(path: str, sub: Report, ids: Any) -> None:
    """Each parcel: the CSV's columns with its values (:mod:`posting.render.csv`: figures
    rounded as the JSON report gives them, a blank CSV cell null), ``markers_counted``, and
    its outline in longitude/latitude."""
    import pyarrow as pa

    from posting.records import list_counts, max_gap_figures
    from posting.render.csv import FIGURES, HEADER, findings_text

    s, i, f, b = pa.string(), pa.int64(), pa.float64(), pa.bool_()
    types = dict(
        zip(HEADER, [s, i, s, s, s, i, f, f, f, i, i, i, i, s, s, s, s, s, b], strict=True)
    )
    p = sub.parcels
    n = len(p)
    counts = list_counts(sub)
    cols: dict[str, Any] = {
        "id": _blank_null(ids),
        "row": p["row"].to_numpy(dtype=np.int64),
        "owner": _text_array(p["owner"], True) if "owner" in p else pa.nulls(n, s),
        "status": _text_array(p["status"], True),
        "rules": _text_array(p["rules"], True),
        "signs": p["signs"].to_numpy(dtype=np.int64),
    }
    for c, nd in FIGURES.items():
        # the largest gap on its verdict's side of its limit, as the CSV gives it
        a = max_gap_figures(sub) if c == "max_gap_ft" else p[c].to_numpy(dtype=float)
        cols[c] = pa.array(np.round(a, nd), type=f, mask=~np.isfinite(a))
    cols["gaps_over_limit"] = counts["over"].astype(np.int64)
    cols["corners"] = p["corners"].to_numpy(dtype=np.int64)
    cols["missing_corners"] = counts["missing_corners"].astype(np.int64)
    cols["missing_access"] = counts["missing_access"].astype(np.int64)
    for c, level in (
        ("violations", "violation"),
        ("uncertain", "uncertain"),
        ("not_checked", "not_checked"),
    ):
        text = findings_text(sub, level)
        cols[c] = pa.nulls(n, s) if text is None else _blank_null(text)
    for c in ("repaired", "invalid_reason"):
        cols[c] = _text_array(p[c], True)
    cols["duplicate_id"] = p["duplicate_id"].to_numpy(dtype=bool)
    cols["markers_counted"] = p["markers_counted"].to_numpy(dtype=np.int64)
    types["markers_counted"] = i
    geom = sub.geometry.geometry_lonlat()
    _geoparquet(path, cols, types, geom, ["Polygon", "MultiPolygon"])


def _gaps_part(path: str, sub: Report, ids: Any, rows: np.ndarray) -> None:
    """Each reported gap (over the limit, uncertain, unmarked) with its line."""
    import pyarrow as pa

    from posting.draw import gap_lines

    s, i, f = pa.string(), pa.int64(), pa.float64()
    g = sub.gaps
    rep = np.flatnonzero((g["status"] != "ok").to_numpy())
    gp = g["parcel"].to_numpy(dtype=np.int64)[rep]
    cols = {
        "parcel_id": _taken(ids, gp),
        "parcel_row": rows[gp],
        "part": g["part"].to_numpy(dtype=np.int64)[rep],
        "hole": g["hole"].to_numpy(dtype=np.int64)[rep],
        "status": _text_array(g["status"].iloc[rep]),
        "length_ft": g["length_ft"].to_numpy(dtype=float)[rep],
        "straight_ft": g["straight_ft"].to_numpy(dtype=float)[rep],
        "limit_ft": g["limit_ft"].to_numpy(dtype=float)[rep],
    }
    types = {
        "parcel_id": s,
        "parcel_row": i,
        "part": i,
        "hole": i,
        "status": s,
        "length_ft": f,
        "straight_ft": f,
        "limit_ft": f,
    }
    _geoparquet(path, cols, types, gap_lines(sub)[rep], ["LineString"])


def _corners_part(path: str, sub: Report, ids: Any, rows: np.ndarray) -> None:
    """Each missing or uncertain corner, a point."""
    import pyarrow as pa

    s, i, f = pa.string(), pa.int64(), pa.float64()
    c = sub.corners
    sel = np.flatnonzero(c["status"].isin(["missing", "uncertain"]).to_numpy())
    cp = c["parcel"].to_numpy(dtype=np.int64)[sel]
    cols = {
        "parcel_id": _taken(ids, cp),
        "parcel_row": rows[cp],
        "status": _text_array(c["status"].iloc[sel]),
        "turn_deg": c["turn_deg"].to_numpy(dtype=float)[sel],
        "nearest_marker_ft": c["nearest_ft"].to_numpy(dtype=float)[sel],
        # the markers near it serve other corners (one marker serves one corner)
        "marker_shared": (
            c["marker_shared"].fillna(False).to_numpy(dtype=bool)[sel]
            if "marker_shared" in c
            else np.zeros(len(sel), dtype=bool)
        ),
    }
    types = {
        "parcel_id": s,
        "parcel_row": i,
        "status": s,
        "turn_deg": f,
        "nearest_marker_ft": f,
        "marker_shared": pa.bool_(),
    }
    pts = _point_wkb(c["lon"].to_numpy(dtype=float)[sel], c["lat"].to_numpy(dtype=float)[sel])
    _geoparquet(path, cols, types, pts, ["Point"])


def _marker_part(path: str, m: pd.DataFrame, parcel_id: Any, parcel_row: Any) -> None:
    """Each marker, a point: ``parcel_id`` (Arrow text) and ``parcel_row`` name its parcel."""
    import pyarrow as pa

    s, i, f = pa.string(), pa.int64(), pa.float64()
    n = len(m)
    cols = {
        "source": _text_array(m["source"]),
        "row": m["row"].to_numpy(dtype=np.int64),
        "kind": _text_array(m["kind"]),
        "parcel_id": parcel_id,
        "parcel_row": parcel_row,
        "assigned_by": _text_array(m["assigned_by"]) if "assigned_by" in m else pa.nulls(n, s),
        "distance_ft": m["distance_ft"].to_numpy(dtype=float)
        if "distance_ft" in m
        else np.full(n, np.nan),
        "reason": _text_array(m["reason"]),
    }
    types = {
        "source": s,
        "row": i,
        "kind": s,
        "parcel_id": s,
        "parcel_row": i,
        "assigned_by": s,
        "distance_ft": f,
        "reason": s,
    }
    pts = _point_wkb(m["lon"].to_numpy(dtype=float), m["lat"].to_numpy(dtype=float))
    _geoparquet(path, cols, types, pts, ["Point"])


def empty_marker_files(signs: tuple[str, ...], mres: list[dict[str, Any]]) -> list[str]:
    """The marker files of which no piece has a row (``mres``: what each piece's distribution
    found), in the order given."""
    has = {r["entry"] for r in mres if r["markers"]}
    return [p for e, p in enumerate(signs) if e not in has]


def _warnings(job, info, preps, mres, dups, rank, context_warnings=()) -> tuple[list[str], int]:
    """The whole run's warnings, in the order one run gives them: the parcel layer's notes
    (ids missing or inexact: counted over every piece), the marker files' notes, the context layers'
    (``context_warnings``: :func:`posting.distributed._context_warnings`), markers of an unknown
    kind, ids found more than once, repairs and invalid parcels by row, unusable markers; and
    where the warning of parcels in another state than the rules' goes (known once checked)."""
    from posting.crs import datum_warnings
    from posting.io import id_notes

    source = info[0]["source"]
    files = {r["entry"]: r["file"] for r in mres if r["markers"]}
    boxes = np.array([x["box"] for x in info], dtype=float)
    datums = datum_warnings((source, info[0]["crs"]), [files[e] for e in sorted(files)], boxes)
    notes = [*datums, *info[0]["notes"]]
    if job.id_field:

        def summed(key: str) -> tuple[int, np.ndarray]:
            n = sum(x[key][0] for x in info)
            return n, np.concatenate([x[key][1] for x in info])[:10]

        notes += id_notes(source, info[0]["id_col"], summed("missing_ids"), summed("inexact_ids"))
    warnings = notes
    by_entry = sorted(mres, key=lambda r: r["entry"])
    seen = set()
    for r in by_entry:
        if r["entry"] not in seen:
            warnings += r["notes"]
            seen.add(r["entry"])
    warnings += [f"{p}: has no rows (no markers)" for p in empty_marker_files(job.signs, mres)]
    warnings += context_warnings
    other = sum(r["other"][0] for r in mres)
    if other:
        first50 = [v for r in mres for v in r["other"][1]][:50]
        shown = ", ".join(sorted(set(first50))[:5])
        warnings.append(
            f"{other} marker(s) have a kind that is not sign, paint or post ({shown}); "
            "they are assigned to their parcel but count for no rule"
        )
    rules_at = len(warnings)
    if len(dups):
        uniq = pd.unique(dups["id"].to_numpy(dtype=object))
        shown = ", ".join(repr(x) for x in uniq[:5])
        warnings.append(
            f"{source}: {len(uniq)} parcel id(s) appear more than once ({shown}"
            f"{', ...' if len(uniq) > 5 else ''}); each row is checked on its own, not merged"
        )
    for key, text in (("repaired", "{t}"), ("invalid", "is invalid: {t}")):
        found = [x for p in preps for x in p[key]]
        ranks = rank(np.asarray([f for f, _, _ in found], dtype=np.int64))
        items = sorted((int(r), i, t) for r, (_, i, t) in zip(ranks, found, strict=True))
        for r, i, t in items:
            sep = ": " if key == "repaired" else " "
            warnings.append(f"{source}: parcel {i!r} (row {r}){sep}{text.format(t=t)}")
    unusable = sum(r["unusable"] for r in mres)
    if unusable:
        warnings.append(
            f"{unusable} marker row(s) have no usable position; they are listed among the "
            "unassigned signs with the reason"
        )
    return warnings, rules_at


# -- the whole run's figures -----------------------------------------------------------------
@dataclass
class Totals:
    """The whole run's figures, read by :func:`posting.records.header` and the summary as a
    :class:`~posting.report.Report` would be (the same attributes and methods)."""

    profiles: list[Any]
    settings: Any
    geometry: Any
    inputs: dict[str, Any]
    parcels: pd.DataFrame  # the rows with a duplicated id only
    warnings: list[str]
    generated: str
    group_extents: dict[int, tuple[float, float, float, float]]
    n: int
    n_markers: int
    not_checked: list[dict[str, str]] = field(default_factory=list)
    status: dict[str, int] = field(default_factory=dict)
    compliant_by: dict[str, int] = field(default_factory=dict)
    assigned: int = 0
    candidates: pd.DataFrame = field(default_factory=pd.DataFrame)
    landcover_known: bool = False
    states: dict[str, list[str]] | None = None  # with auto: each state and its profiles
    rules_warning_at: int = 0  # where the warning of parcels in another state goes
    same_owner_of: str | None = None  # the owner column, when one owner's lots are looked for

    @property
    def profile(self) -> Any:
        return self.profiles[0]

    @property
    def rules_name(self) -> str:
        from posting.report import Report

        return Report.rules_name.fget(self)  # type: ignore[attr-defined]

    @property
    def crs(self) -> str:
        return "; ".join(c.label for c in self.geometry.crss) or "none (no usable geometry)"

    @property
    def exit_code(self) -> int:
        ok = self.status.get("compliant", 0) + self.status.get("exempt", 0)
        return 0 if ok == self.n else 1

    def summary(self) -> dict[str, Any]:
        from posting.verdict import STATUSES

        out = {
            "parcels": self.n,
            "status": {s: int(self.status.get(s, 0)) for s in STATUSES},
            "markers_read": self.n_markers,
            "markers_assigned": self.assigned,
            "markers_unassigned": self.n_markers - self.assigned,
        }
        if len(self.profiles) > 1:
            out["compliant_by"] = {
                p.name: int(self.compliant_by.get(p.name, 0)) for p in self.profiles
            }
        return out

    def worst(self, k: int = 5) -> pd.DataFrame:
        from posting.report import Report

        return Report.worst(SimpleNamespace(parcels=self.candidates), k)  # type: ignore[arg-type]

    @classmethod
    def start(cls, job, plan, info, preps, mres, dups, rank) -> Totals:
        """The totals known once the parcels are prepared and the markers read."""
        import datetime as _dt

        from posting.crs import lonlat_box

        source = info[0]["source"]
        crss = list(plan.working.crss)
        counts = np.zeros(len(crss), dtype=np.int64)
        extents: dict[int, list[float]] = {}
        for p in preps:
            for g, (c, b) in p["groups"].items():
                counts[g] += c
                e = extents.setdefault(g, list(b))
                # (the short way round, as one run's box of the frame's parcels)
                extents[g] = list(lonlat_box(np.array([e, b], dtype=float)) or e)
        geometry = SimpleNamespace(
            crss=crss, group=np.repeat(np.arange(len(crss), dtype=np.int16), counts)
        )
        n = sum(p["properties"] for p in preps)
        warnings, rules_at = _warnings(job, info, preps, mres, dups, rank, plan.context_warnings)
        entries: dict[int, list[Any]] = {}
        for r in mres:
            e = entries.setdefault(r["entry"], [r["file"][0], 0, r["file"][1]])
            e[1] += r["markers"]
        inputs = {
            "parcels": {
                "path": source,
                "features": n,
                "crs": info[0]["crs"].name,
                "id_field": info[0]["id_field"],
            },
            "signs": [
                {"path": entries[e][0], "features": entries[e][1], "crs": entries[e][2].name}
                for e in sorted(entries)
            ],
        }
        parcels = pd.DataFrame(
            {
                "id": dups["id"].to_numpy(dtype=object),
                "row": dups["index"].to_numpy(dtype=np.int64),
                "duplicate_id": np.ones(len(dups), dtype=bool),
            }
        )
        return cls(
            profiles=list(plan.profiles),
            states=None if plan.choice is None else dict(plan.choice.states),
            settings=job.settings,
            geometry=geometry,
            inputs=inputs,
            parcels=parcels,
            warnings=warnings,
            generated=_dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
            group_extents={g: tuple(e) for g, e in extents.items()},
            n=n,
            n_markers=sum(r["markers"] for r in mres),
            landcover_known=bool(job.context.landcover or job.context.cover_field),
            rules_warning_at=rules_at,
            same_owner_of=job.owner_field if job.owner_field and not job.merge_owner else None,
        )

    def finish(self, checks: list[dict[str, Any]], lost: pd.DataFrame) -> None:
        """Add the partitions' verdicts and the unassigned markers."""
        for c in checks:
            for s, v in c["status"].items():
                self.status[s] = self.status.get(s, 0) + int(v)
            for s, v in c["compliant_by"].items():
                self.compliant_by[s] = self.compliant_by.get(s, 0) + int(v)
        self.assigned = self.n_markers - len(lost)
        parts = [c["worst"] for c in checks if len(c["worst"])]
        self.candidates = (
            pd.concat(parts, ignore_index=True).sort_values("row", kind="stable")
            if parts
            else pd.DataFrame(columns=WORST_COLUMNS)
        )
        self.not_checked = _not_checked(checks, self.profiles, self.landcover_known)
        elsewhere: dict[str, int] = {}
        for c in checks:
            for s, v in c["elsewhere"].items():
                elsewhere[s] = elsewhere.get(s, 0) + v
        if elsewhere:  # where one run gives it: after the markers' notes, before the rows'
            from posting.jurisdiction import elsewhere_warning

            text = elsewhere_warning(elsewhere, self.n, self.profiles)
            self.warnings.insert(self.rules_warning_at, text)
        count = sum(c["same_owner"][0] for c in checks)
        if count:  # first, as one run gives it
            from posting.sanity import same_owner_warning

            first = sorted(x for c in checks for x in c["same_owner"][1])[:5]
            examples = [(a, b, owner) for _, _, a, b, owner in first]
            text = same_owner_warning(
                self.inputs["parcels"]["path"],
                count,
                examples,
                lambda name: f"{{option:{name}}}",
                self.same_owner_of,
            )
            self.warnings.insert(0, text)


def _not_checked(
    checks: list[dict[str, Any]], profiles: list[Any], landcover_known: bool
) -> list[dict[str, str]]:
    """The partitions' rules not checked as one run lists them: each once, by profile, in the
    order each partition lists them (a partition lists one run's notes but those its parcels
    and markers give no cause for: the notes of a marker column missing, where it has no
    marker), notes no partition orders otherwise in the order first met; the counts of the
    land-cover notes (of the spacing and of the lines of sight) summed. As one
    run does, a line-of-sight note whose sum counts no line of unknown land cover is left out,
    and so is a spacing one where a land-cover layer or attribute was given, or that counts
    no gap at all."""
    from posting.kinds.in_sight import SIGHT_COUNTS, sight_counts
    from posting.kinds.spacing import LANDCOVER_COUNTS, landcover_counts

    # (rule, the pattern of its note's counts, their wording)
    counted = [
        ("landcover", LANDCOVER_COUNTS, landcover_counts),
        ("in_sight", SIGHT_COUNTS, sight_counts),
    ]
    order = {p.name: i for i, p in enumerate(profiles)}
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    listed: list[list[tuple[str, str]]] = []
    for c in checks:
        keys = []
        for prof, x in c["not_checked"]:
            text, found = x["reason"], None
            for k, (rule, pattern, _) in enumerate(counted):
                m = pattern.search(text) if x["rule"] == rule else None
                if m:
                    text, found = pattern.sub("{counts}", text), (k, m)
                    break
            key = (prof, json.dumps({**x, "reason": text}, sort_keys=True))
            item = seen.setdefault(
                key, {**x, "profile": prof, "_n": [0, 0], "_t": text, "_k": None}
            )
            keys.append(key)
            if found:
                item["_k"] = found[0]
                item["_n"][0] += int(found[1][1])
                item["_n"][1] += int(found[1][2])
        listed.append(keys)
    out = []
    for key in sorted(_in_every_order(listed, list(seen)), key=lambda k: order[k[0]]):
        item = seen[key]
        (unknown, total), text, k = item.pop("_n"), item.pop("_t"), item.pop("_k")
        if k is not None:
            rule, _, words = counted[k]
            if unknown == 0 and (landcover_known or rule != "landcover" or total == 0):
                continue
            item["reason"] = text.replace("{counts}", words(unknown, total))
        out.append(item)
    return out


def _in_every_order(sequences: list[list[Any]], first_met: list[Any]) -> list[Any]:
    """The keys ``first_met`` in an order that keeps each of ``sequences`` (lists of some of
    them, each in one order all agree with); keys that no sequence orders against each other
    in the order of ``first_met``, which is also the order where the sequences disagree.

    >>> _in_every_order([["c"], ["a", "b", "c"], ["d", "b"]], ["c", "a", "b", "d"])
    ['a', 'd', 'b', 'c']
    """
    rank = {k: i for i, k in enumerate(first_met)}
    graph = graphlib.TopologicalSorter(dict.fromkeys(first_met, ()))
    for seq in sequences:
        for a, b in itertools.pairwise(seq):
            graph.add(b, a)
    try:
        graph.prepare()
    except graphlib.CycleError:
        return list(first_met)
    out: list[Any] = []
    ready: list[tuple[int, Any]] = []
    while graph.is_active():
        for k in graph.get_ready():
            heapq.heappush(ready, (rank[k], k))
        _, k = heapq.heappop(ready)
        out.append(k)
        graph.done(k)
    return out


# -- merging the parts -----------------------------------------------------------------------
def _lines(path: str) -> Iterator[tuple[int, bytes]]:
    import pyarrow as pa

    with pa.memory_map(path) as source:
        reader = pa.ipc.open_file(source)
        for b in range(reader.num_record_batches):
            batch = reader.get_batch(b)
            yield from zip(batch.column(0).to_pylist(), batch.column(1).to_pylist(), strict=True)


def merged(scratch: str, stream: str) -> Iterator[bytes]:
    """Every partition's lines of ``stream``, in input order."""
    files = sorted(glob.glob(f"{scratch}/lines/{stream}/*.arrow"))
    for _, line in heapq.merge(*(_lines(f) for f in files), key=lambda t: t[0]):
        yield line


def _joined(lines: Iterable[bytes], sep: bytes) -> Iterator[bytes]:
    first = True
    for line in lines:
        if not first:
            yield sep
        yield line
        first = False


def _json(run: Run, name: Callable[[str], str]) -> Iterator[bytes]:
    from posting.records import _label_column, header, unassigned_entries

    head = json.dumps(header(run.totals, name), indent=1, ensure_ascii=False, allow_nan=False)
    yield (head[:-2] + ',\n "parcels": [').encode()
    parcels = merged(run.plan.scratch, "json")
    first = next(parcels, None)
    if first is not None:
        yield b"\n  "
        yield first
        for line in parcels:
            yield b",\n  "
            yield line
    yield b'\n ],\n "unassigned_signs": ['
    lost = run.lost
    label = _label_column(lost)
    items = map(
        orjson.dumps,
        unassigned_entries(
            lost["source"], lost["row"], label, lost["lon"], lost["lat"], lost["reason"]
        ),
    )
    sep = b"\n  "
    for line in items:
        yield sep
        yield line
        sep = b",\n  "
    yield b"\n ]\n}\n"


def _csv(run: Run) -> Iterator[bytes]:
    from posting.render.csv import HEADER

    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(HEADER)
    yield buf.getvalue().encode()
    yield from merged(run.plan.scratch, "csv")


def _lost_features(lost: pd.DataFrame) -> Iterator[tuple[int, bytes]]:
    """The GeoJSON features of the markers no partition assigned, each with its key."""
    import pyarrow as pa

    from posting import jsontext
    from posting.render.geojson import marker_features

    parts, n = marker_features(lost, np.zeros(len(lost), dtype=bool))
    if not n:
        return
    lines = jsontext.join(*parts).cast(pa.large_binary()).to_pylist()
    yield from zip(lost["key"].to_numpy(dtype=np.int64).tolist(), lines, strict=True)


def _geojson(run: Run) -> Iterator[bytes]:
    from posting.render.geojson import opening

    yield opening(run.totals).encode()
    scratch = run.plan.scratch

    def markers() -> Iterator[bytes]:
        files = sorted(glob.glob(f"{scratch}/lines/geojson-markers/*.arrow"))
        streams = [_lines(f) for f in files] + [_lost_features(run.lost)]
        for _, line in heapq.merge(*streams, key=lambda t: t[0]):
            yield line

    def every() -> Iterator[bytes]:
        yield from merged(scratch, "geojson-parcels")
        yield from markers()
        for name in ("gaps", "corners", "access"):
            yield from merged(scratch, f"geojson-{name}")

    yield from _joined(every(), b",\n")
    yield b"\n]}\n"


def _parquet(
    run: Run, folder: str, name: Callable[[str], str], files: Staged | None = None
) -> None:
    """The GeoParquet datasets of a partitioned run, with its unassigned markers and summary;
    the run's other outputs (``files``, staged) are renamed into place with the folder."""
    from posting.records import header

    lost = run.lost

    def unassigned(tmp: str) -> None:
        import pyarrow as pa

        _marker_part(
            os.path.join(tmp, "markers", "part-unassigned.parquet"),
            lost.assign(assigned_by=None, distance_ft=np.nan),
            pa.nulls(len(lost), pa.string()),
            np.full(len(lost), -1, dtype=np.int64),
        )

    _publish(run.plan.scratch, folder, header(run.totals, name), unassigned, files=files)


def write_parquet_report(
    report: Report,
    folder: str,
    name: Callable[[str], str],
    then: Callable[[Staged], object] | None = None,
) -> None:
    """The GeoParquet datasets of a single-process check's report (one part each); ``then``
    stages the run's other outputs (:func:`posting.outputs.stage`) before the folder takes its
    place, and they are renamed with it; when it fails the folder is left as it was."""
    from posting.outputs import real_target
    from posting.records import header

    parent = str(real_target(folder).parent)  # (beside the folder replaced: renames suffice)
    scratch = tempfile.mkdtemp(prefix=".posting-parquet-", dir=parent)  # (moved by renames)
    try:
        try:
            _parquet_parts(scratch, 0, report)
        except OSError as exc:
            from posting.outputs import unwritable

            raise unwritable(exc, folder, "parquet") from None
        _publish(scratch, folder, header(report, name), None, then)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


PARQUET_PARTS = ("parcels", "gaps", "corners", "markers")
"""The datasets of ``--parquet``, each a folder beside ``summary.json``."""


def earlier_parquet(folder: os.PathLike[str] | str, names: list[str]) -> bool:
    """Whether a folder's entries (``names``) are those of an earlier ``--parquet`` output,
    which a new one may replace whole: ``summary.json`` and the datasets' folders, nothing
    else."""
    return "summary.json" in names and set(names) <= {"summary.json", *PARQUET_PARTS}


def _publish(
    scratch: str,
    folder: str,
    summary: dict[str, Any],
    extra: Callable[[str], None] | None,
    then: Callable[[Staged], object] | None = None,
    files: Staged | None = None,
) -> None:
    """Move the parts in ``scratch/parquet`` into ``folder`` with ``summary.json``: built
    beside it, then renamed into place (an existing folder is replaced whole). The run's other
    outputs, ``files`` staged already or staged by ``then`` once the folder is complete, are
    renamed into place with it (:func:`posting.outputs.folder_in_place`): when one fails, the
    folder is not replaced (written whole or not at all with it)."""
    from posting.outputs import Staged, folder_in_place, real_target

    parent = str(real_target(folder).parent)  # (a link's folder is replaced, the link kept)
    if not os.path.isdir(parent):
        from posting.errors import InputError

        raise InputError(f"folder {parent} does not exist", path=folder, parameter="parquet")
    from posting.outputs import unwritable

    staged = files if files is not None else Staged()
    with folder_in_place(folder, staged) as tmp:
        try:
            for sub in PARQUET_PARTS:
                src = f"{scratch}/parquet/{sub}"
                dst = os.path.join(tmp, sub)
                if os.path.isdir(src):
                    shutil.move(src, dst)  # (copied when the scratch is on another disk)
                else:
                    os.makedirs(dst)
            if extra is not None:
                extra(str(tmp))
            with open(os.path.join(tmp, "summary.json"), "w", encoding="utf-8") as fh:
                json.dump(summary, fh, indent=1, ensure_ascii=False)
                fh.write("\n")
        except OSError as exc:
            raise unwritable(exc, folder, "parquet") from None
        if then is not None:
            then(staged)


def write_outputs(
    run: Run, outputs: dict[str, str | None], name: Callable[[str], str] | None = None
) -> None:
    """Write every output asked for: each file beside its target first, all renamed into place
    at the end, with the ``parquet`` folder (none is written when one fails)."""
    from posting.outputs import Output, stage

    name = name or python_name
    makers = {
        "json": lambda: _json(run, name),
        "geojson": lambda: _geojson(run),
        "csv": lambda: _csv(run),
    }
    # (the files synced and stdout written before the renames, as in one process; a reader
    # of stdout gone, `| head`, keeps the exit status)
    asked = [key for key in ("json", "geojson", "csv") if outputs.get(key)]
    staged = stage((Output(key, outputs[key], key), makers[key]()) for key in asked)
    try:
        if outputs.get("parquet"):
            _parquet(run, outputs["parquet"], name, staged)
        else:
            staged.commit()
    finally:
        staged.discard()
