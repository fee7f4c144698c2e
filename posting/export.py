"""Exports of a :class:`~posting.planning.Plan`: the files a landowner loads on a GPS or a
phone, and the shopping list.

Nothing here measures: every figure comes from the plan's tables. Formats:

* **GPX 1.1** waypoints (handheld GPS units, phone apps), written with gpxpy: short unique
  names (at most 10 characters: older units cut longer ones), a comment naming the parcel and
  role, a description with the facing, setback and distances, and the role as ``type``;
* **KML** with one folder per parcel (Google Earth, Avenza, phone apps), written with fastkml;
  each placemark carries the same description and its fields as ``ExtendedData``;
* **CSV** with ``parcel_id``, ``role``, ``lat``, ``lon`` (7 decimals) first, for phones;
* **GeoJSON** points with the same properties.

Longitudes and latitudes are written as :func:`posting.planning.lonlat_text` gives them (7
decimals), the very values the plan was checked with.

A county's plan has a million markers and more: each format is made :data:`CHUNK_ROWS` markers
at a time (a KML's whole folders), and the command writes each piece as it is made, so the
Python objects of one piece (gpxpy's waypoints, fastkml's placemarks, the rows) are all that is
held at once, not those of every marker (:func:`iter_export`). The pieces joined are the text
the libraries write for the whole table in one go, byte for byte.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pandas as pd

from posting import render as formats
from posting.errors import python_name
from posting.planning import ROLES, Plan, lonlat_text
from posting.records import LONLAT_DECIMALS
from posting.render import register

__all__ = [
    "FORMATS",
    "SUMMARY_FORMATS",
    "format_of",
    "iter_export",
    "iter_summary_csv",
    "iter_summary_json",
    "render",
    "summary_csv",
    "summary_json",
    "summary_lines",
    "to_csv",
    "to_geojson",
    "to_gpx",
    "to_kml",
]

PLAN_SCHEMA = "posting-plan/1"
CSV_COLUMNS = [
    "parcel_id",
    "role",
    "lat",
    "lon",
    "name",
    "kind",
    "name_on_sign",
    "azimuth_deg",
    "along_ft",
    "next_ft",
    "setback_ft",
    "part",
    "hole",
    "note",
]
"""Columns of the CSV export (and properties of the GeoJSON export, less ``lat``/``lon``)."""
CHUNK_ROWS = 20_000
"""Markers made into text at a time (a KML's folders are kept whole)."""
SUMMARY_PIECE_CHARS = 1 << 20
"""About how many characters of the JSON shopping list are written at a time."""


def _num(x: Any, nd: int = 1) -> float | None:
    x = float(x)
    return round(x, nd) if math.isfinite(x) else None


def _at_most(x: float | None, nd: int) -> float | None:
    """``x`` rounded to ``nd`` decimals but never over it (a spacing planned for).

    >>> _at_most(499.79174171561465, 2), _at_most(499.8, 2), _at_most(499.796, 2)
    (499.79, 499.8, 499.79)
    """
    if x is None or not math.isfinite(x):
        return x
    from posting.checks import OK, shown

    r = round(x, nd)  # (over it: the figure of nd decimals under it, as a passing one is shown)
    return r if r <= x else float(shown(np.array([x]), nd, x, OK)[0])


def _text(x: Any) -> str | None:
    return x.strip() if isinstance(x, str) and x.strip() else None


def _ft(x: float) -> str:
    return f"{x:,.0f} ft" if math.isfinite(x) else "?"


def _ring_words(part: int, hole: int) -> str:
    where = "the boundary" if hole == 0 else f"the boundary of hole {hole}"
    return where + (f" of part {part + 1}" if part else "")


_KIND_WORDS = {"sign": "sign", "paint": "paint mark", "post": "painted post top"}


def describe(rec: Any) -> str:
    """A marker's description, for people in the field.

    The next marker is the one reached walking along the line with the parcel on your left.
    """
    if rec.role == "existing":
        text = f"Parcel {rec.parcel_id}: {rec.note}"
    else:
        where = "from the corner" if rec.role == "corner" else "inside the line"
        what = _KIND_WORDS.get(getattr(rec, "kind", "sign"), "sign")
        text = (
            f"Parcel {rec.parcel_id}: new {rec.role} {what}, {rec.setback_ft:.1f} ft {where}, "
            f"facing {rec.azimuth_deg:.0f}° (outward)"
        )
        owner = getattr(rec, "name_on_sign", None)
        if isinstance(owner, str) and owner.strip() and what == "sign":
            text += f", naming {owner.strip()}"
    if math.isfinite(rec.next_ft):
        # (the next of the same kind: a profile's spacing counts one kind of marker)
        what = _KIND_WORDS.get(getattr(rec, "kind", "sign"), "sign")
        text += (
            f"; next {what} {_ft(rec.next_ft)} along "
            f"{_ring_words(int(rec.part), int(rec.hole))} with the parcel on your left"
        )
    if rec.note and rec.role != "existing":
        text += f". {rec.note}"
    return text + "."


def _records(table: pd.DataFrame) -> list[Any]:
    return list(table.itertuples(index=False))


def _metadata(plan: Plan) -> tuple[str, str]:
    r = plan.report
    name = "posting plan"
    kinds = pd.unique(plan.markers["kind"].dropna()) if "kind" in plan.markers else []
    what = _KIND_WORDS.get(kinds[0], "marker") if len(kinds) == 1 else "marker"
    desc = (
        f"New {what} positions to post {len(plan.parcels)} parcel(s) under {r.profile.citation} "
        f"({r.profile.name}); {len(plan.markers)} new markers. Made by posting on "
        f"{r.generated}."
    )
    return name, desc


# -- GPX ---------------------------------------------------------------------------------------
def to_gpx(plan: Plan, table: pd.DataFrame) -> str:
    """GPX 1.1 with one waypoint per marker of ``table`` (written with gpxpy)."""
    return "".join(iter_gpx(plan, table))


def iter_gpx(plan: Plan, table: pd.DataFrame) -> Iterator[str]:
    """:func:`to_gpx`'s text in pieces: gpxpy's document of each chunk of markers, spliced."""
    return _spliced(lambda chunk: _gpx_doc(plan, chunk), table, _chunks(table), "\n</gpx>")


def _gpx_doc(plan: Plan, table: pd.DataFrame) -> str:
    """gpxpy's GPX document of the markers of ``table``, whole."""
    import gpxpy.gpx

    from posting.records import _tool_version

    gpx = gpxpy.gpx.GPX()
    gpx.creator = f"posting {_tool_version()}"
    gpx.name, gpx.description = _metadata(plan)
    lat = lonlat_text(table["lat"].to_numpy(dtype=float))
    lon = lonlat_text(table["lon"].to_numpy(dtype=float))
    for rec, la, lo in zip(_records(table), lat, lon, strict=True):
        gpx.waypoints.append(
            gpxpy.gpx.GPXWaypoint(
                latitude=float(la),
                longitude=float(lo),
                name=rec.name,
                comment=f"{rec.parcel_id} {rec.role}",
                description=describe(rec),
                type=rec.kind,  # read back as the marker's kind
            )
        )
    return gpx.to_xml(version="1.1")


# -- KML ---------------------------------------------------------------------------------------
def _folder_names(plan: Plan, parcels: np.ndarray) -> dict[int, str]:
    """One folder name per parcel row: its id, with the row when the id is not unique."""
    ids = plan.report.parcels["id"].to_numpy(dtype=object)
    dup = plan.report.parcels["duplicate_id"].to_numpy(dtype=bool)
    return {
        int(p): f"Parcel {ids[p]}" + (f" (row {p})" if dup[p] else "") for p in np.unique(parcels)
    }


def to_kml(plan: Plan, table: pd.DataFrame) -> str:
    """KML 2.2 with one folder per parcel and one placemark per marker (written with fastkml)."""
    return "".join(iter_kml(plan, table))


def iter_kml(plan: Plan, table: pd.DataFrame) -> Iterator[str]:
    """:func:`to_kml`'s text in pieces: fastkml's document of each chunk of whole parcels (in
    the order of their folders), spliced."""
    chunks = _chunks(table, whole_parcels=True)
    return _spliced(lambda chunk: _kml_doc(plan, chunk), table, chunks, "  </Document>\n</kml>\n")


def _kml_doc(plan: Plan, table: pd.DataFrame) -> str:
    """fastkml's KML document of the markers of ``table``, whole."""
    import pygeoif
    from fastkml import Data, Document, ExtendedData, Folder, Placemark, kml
    from fastkml.geometry import Point

    name, desc = _metadata(plan)
    parcels = table["parcel"].to_numpy(dtype=np.int64)
    folders_named = _folder_names(plan, parcels)
    lat = lonlat_text(table["lat"].to_numpy(dtype=float)).astype(float)
    lon = lonlat_text(table["lon"].to_numpy(dtype=float)).astype(float)
    placemarks: dict[int, list[Placemark]] = {p: [] for p in folders_named}
    for rec, la, lo, p in zip(_records(table), lat, lon, parcels, strict=True):
        fields = {
            "parcel_id": rec.parcel_id,
            "role": rec.role,
            "kind": rec.kind,
            "name_on_sign": _text(rec.name_on_sign),
            "azimuth_deg": _num(rec.azimuth_deg),
            "along_ft": _num(rec.along_ft),
            "next_ft": _num(rec.next_ft),
            "setback_ft": _num(rec.setback_ft),
        }
        placemarks[int(p)].append(
            Placemark(
                name=rec.name,
                description=describe(rec),
                kml_geometry=Point(geometry=pygeoif.Point(float(lo), float(la))),
                extended_data=ExtendedData(
                    elements=[
                        Data(name=k, value="" if v is None else str(v)) for k, v in fields.items()
                    ]
                ),
            )
        )
    folders = [Folder(name=folders_named[p], features=placemarks[p]) for p in sorted(folders_named)]
    doc = kml.KML(features=[Document(name=name, description=desc, features=folders)])
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + doc.to_string(prettyprint=True)


# -- CSV and GeoJSON -----------------------------------------------------------------------
def _rows(table: pd.DataFrame) -> list[dict[str, Any]]:
    out = []
    lat = lonlat_text(table["lat"].to_numpy(dtype=float))
    lon = lonlat_text(table["lon"].to_numpy(dtype=float))
    for rec, la, lo in zip(_records(table), lat, lon, strict=True):
        out.append(
            {
                "parcel_id": rec.parcel_id,
                "role": rec.role,
                "lat": la,
                "lon": lo,
                "name": rec.name,
                "kind": rec.kind,
                "name_on_sign": _text(rec.name_on_sign),
                "azimuth_deg": _num(rec.azimuth_deg),
                "along_ft": _num(rec.along_ft),
                "next_ft": _num(rec.next_ft),
                "setback_ft": _num(rec.setback_ft),
                "part": int(rec.part),
                "hole": int(rec.hole),
                "note": rec.note or "",
            }
        )
    return out


def to_csv(plan: Plan, table: pd.DataFrame) -> str:
    """CSV, one row per marker: ``parcel_id``, ``role``, ``lat``, ``lon`` (7 decimals) first."""
    return "".join(iter_csv(plan, table))


def iter_csv(plan: Plan, table: pd.DataFrame) -> Iterator[str]:
    """:func:`to_csv`'s text in pieces: the header, then each chunk's rows."""
    yield _csv_text(table.iloc[:0], header=True)
    for chunk in _chunks(table):
        yield _csv_text(chunk)


def _csv_text(table: pd.DataFrame, header: bool = False) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, lineterminator="\n")
    if header:
        w.writeheader()
    for row in _rows(table):
        w.writerow({k: "" if v is None else v for k, v in row.items()})
    return buf.getvalue()


def to_geojson(plan: Plan, table: pd.DataFrame) -> str:
    """A GeoJSON FeatureCollection of points (WGS 84) with the CSV's properties."""
    return "".join(iter_geojson(plan, table))


def iter_geojson(plan: Plan, table: pd.DataFrame) -> Iterator[str]:
    """:func:`to_geojson`'s text in pieces: the head, each chunk's features, the end."""
    name, desc = _metadata(plan)
    head = json.dumps({"type": "FeatureCollection", "name": name, "description": desc})
    yield head[:-1] + ', "features": [\n'
    sep = ""
    for chunk in _chunks(table):
        feats = []
        for row in _rows(chunk):
            lon, lat = float(row.pop("lon")), float(row.pop("lat"))
            feats.append(
                json.dumps(
                    {
                        "type": "Feature",
                        "geometry": {"type": "Point", "coordinates": [lon, lat]},
                        "properties": row,
                    },
                    ensure_ascii=False,
                    allow_nan=False,
                )
            )
        yield sep + ",\n".join(feats)
        sep = ",\n"
    yield "\n]}\n"


# -- in chunks ---------------------------------------------------------------------------------
def _chunks(table: pd.DataFrame, whole_parcels: bool = False) -> Iterator[pd.DataFrame]:
    """``table`` in chunks of :data:`CHUNK_ROWS` rows, in order; with ``whole_parcels``, in
    order of parcel (the table's order within each) and each parcel's rows in one chunk (a
    chunk is as long as its parcels' rows take)."""
    n = len(table)
    if not whole_parcels:
        for lo in range(0, n, CHUNK_ROWS):
            yield table.iloc[lo : lo + CHUNK_ROWS]
        return
    parcel = table["parcel"].to_numpy(dtype=np.int64)
    order = np.argsort(parcel, kind="stable")
    sorted_parcel = parcel[order]
    new = np.r_[True, sorted_parcel[1:] != sorted_parcel[:-1]] if n else np.empty(0, bool)
    first_row = np.maximum.accumulate(np.where(new, np.arange(n), 0))  # of its parcel
    chunk = first_row // CHUNK_ROWS
    cuts = np.r_[0, np.flatnonzero(chunk[1:] != chunk[:-1]) + 1, n]
    for lo, hi in itertools.pairwise(cuts):
        yield table.iloc[order[lo:hi]]


def _spliced(
    doc: Callable[[pd.DataFrame], str],
    table: pd.DataFrame,
    chunks: Iterator[pd.DataFrame],
    close: str,
) -> Iterator[str]:
    """The document ``doc`` makes of all of ``table``, made of one of its ``chunks`` at a time.

    ``doc`` of no rows ends with ``close``; ``doc`` of some rows is the same head, their
    elements (each written the same whatever comes before it) and ``close``.
    """
    empty = doc(table.iloc[:0])
    if not len(table):
        yield empty
        return
    if not empty.endswith(close):  # pragma: no cover - a library writing its documents anew
        raise AssertionError(f"a document without markers does not end with {close!r}")
    head = empty[: len(empty) - len(close)]
    yield head
    for chunk in chunks:
        text = doc(chunk)
        if not (text.startswith(head) and text.endswith(close)):  # pragma: no cover
            raise AssertionError("a chunk's document does not splice into the whole")
        yield text[len(head) : len(text) - len(close)]
    yield close


FORMATS: dict[str, Callable[[Plan, pd.DataFrame], str]] = {
    "gpx": to_gpx,
    "kml": to_kml,
    "csv": to_csv,
    "geojson": to_geojson,
}
"""Export formats by name (each also registered with :mod:`posting.render`)."""
PIECES: dict[str, Callable[[Plan, pd.DataFrame], Iterator[str]]] = {
    "gpx": iter_gpx,
    "kml": iter_kml,
    "csv": iter_csv,
    "geojson": iter_geojson,
}
"""The same, as pieces of text (:func:`iter_export`)."""
_SUFFIXES = {"gpx": (".gpx",), "kml": (".kml",), "csv": (".csv",), "geojson": (".geojson", ".json")}
SUMMARY_FORMATS = {".json": "json", ".csv": "csv"}


def iter_export(plan: Plan, fmt: str, *, include_existing: bool = False) -> Iterator[bytes]:
    """The plan's markers (and the existing ones, if asked) in format ``fmt``, as UTF-8 pieces
    made one chunk of markers at a time, as they are written (:mod:`posting.render`'s
    renderer of the format: :func:`posting.outputs.write_all` writes each piece as it comes).
    """
    table = plan.with_existing() if include_existing else plan.markers
    for piece in PIECES[fmt](plan, table):
        yield piece.encode()


def _renderer(fmt: str) -> Callable[..., Iterator[bytes]]:
    def render_plan(plan: Plan, *, include_existing: bool = False) -> Iterator[bytes]:
        return iter_export(plan, fmt, include_existing=include_existing)

    render_plan.__doc__ = (
        f"The plan's markers (and the existing ones, if asked) as {fmt}, in pieces."
    )
    return render_plan


for _fmt in FORMATS:
    register(_fmt, "plan", _SUFFIXES[_fmt], f"the new markers ({_fmt})")(_renderer(_fmt))


def format_of(path: str, given: str | None = None) -> str:
    """The export format: ``given``, else from the file's extension.

    Raises
    ------
    InputError
        When neither says which format.

    Examples
    --------
    >>> format_of("out/plan.GPX"), format_of("-", "csv")
    ('gpx', 'csv')
    """
    return formats.format_of(path, "plan", given, parameter="format")


def render(plan: Plan, fmt: str, *, include_existing: bool = False) -> str:
    """The plan's markers (and the existing ones, if asked) in format ``fmt``, as one text."""
    out = formats.render(plan, fmt, include_existing=include_existing)
    return out if isinstance(out, str) else b"".join(out).decode()


# -- the shopping list -------------------------------------------------------------------------
def _parcel_items(p: pd.DataFrame) -> list[dict[str, Any]]:
    """The shopping list's rows of parcels ``p`` (rows of :attr:`Plan.parcels`)."""
    items = []
    for rec in p.itertuples(index=False):
        items.append(
            {
                "id": rec.id,
                "row": int(rec.parcel),
                "status": rec.status,
                **{role: int(getattr(rec, role)) for role in ROLES},
                "total": int(rec.total),
                "signs": int(rec.signs),
                "perimeter_ft": _num(rec.perimeter_ft, 2),
                "covered_ft": _num(rec.covered_ft, 2),
                "complete": bool(rec.complete),
                "remaining": rec.remaining or None,
                "note": rec.note or None,
            }
        )
    return items


def summary_dict(plan: Plan) -> dict[str, Any]:
    """The shopping list as a JSON-ready dict."""
    from posting.records import _tool_version

    r = plan.report
    totals = plan.totals()
    return {
        "schema": PLAN_SCHEMA,
        "generated": r.generated,
        "tool": {"name": "posting", "version": _tool_version()},
        "rules": r.profile.summary(),
        "crs": r.crs,
        "settings": {
            **r.settings.as_dict(),
            "setback_ft": plan.setback_ft,
            "margin_ft": plan.margin_ft,
            # (to the hundredth, never over the spacing planned: 499.79 for 499.7917)
            "planned_spacing_ft": _at_most(plan.spacing_ft, 2),
            "lonlat_decimals": LONLAT_DECIMALS,
        },
        "totals": {k: (_num(v, 2) if k.endswith("_ft") else int(v)) for k, v in totals.items()},
        "parcels": _parcel_items(plan.parcels),
        "warnings": plan.warnings,
        **({"stakeout": plan.stakeout.as_dict()} if plan.stakeout is not None else {}),
    }


def summary_json(plan: Plan) -> str:
    """The shopping list as JSON text."""
    return b"".join(iter_summary_json(plan)).decode()


@register("summary-json", "plan", title="the shopping list (JSON)")
def iter_summary_json(plan: Plan) -> Iterator[bytes]:
    """:func:`summary_json`'s text as UTF-8 pieces of about a megabyte, written as they are
    made: ``json.dumps`` of the summary, whose pure-Python encoder (an indented one) joins the
    same small strings, a few for each figure, all at once (a county's are 0.4 GB)."""
    encoder = json.JSONEncoder(indent=1, ensure_ascii=False, allow_nan=False)
    held: list[str] = []
    size = 0
    for text in encoder.iterencode(summary_dict(plan)):
        held.append(text)
        size += len(text)
        if size >= SUMMARY_PIECE_CHARS:
            yield "".join(held).encode()
            held, size = [], 0
    held.append("\n")
    yield "".join(held).encode()


SUMMARY_COLUMNS = [
    "id",
    "row",
    "status",
    *ROLES,
    "total",
    "signs",
    "perimeter_ft",
    "covered_ft",
    "complete",
    "remaining",
    "note",
]
"""Columns of the CSV shopping list."""


def summary_csv(plan: Plan) -> str:
    """The shopping list as CSV: one row per parcel, then a ``(total)`` row."""
    return b"".join(iter_summary_csv(plan)).decode()


@register("summary-csv", "plan", title="the shopping list (CSV)")
def iter_summary_csv(plan: Plan) -> Iterator[bytes]:
    """:func:`summary_csv`'s text as UTF-8 pieces, written as they are made: the header, the
    rows of :data:`CHUNK_ROWS` parcels at a time (a county's 200,000 parcels are as many
    rows, each with its dict and its notes), then the ``(total)`` row."""
    yield _summary_csv_text([], header=True).encode()
    p = plan.parcels
    for lo in range(0, len(p), CHUNK_ROWS):
        items = _parcel_items(p.iloc[lo : lo + CHUNK_ROWS])
        for item in items:
            item["complete"] = "yes" if item["complete"] else "no"
        yield _summary_csv_text(items).encode()
    t = plan.totals()
    total = {
        "id": "(total)",
        "row": "",
        "status": "",
        **{role: t[role] for role in ROLES},
        "total": t["total"],
        "signs": int(p["signs"].sum()) if len(p) else 0,
        "perimeter_ft": _num(t["perimeter_ft"], 2),
        "covered_ft": _num(t["covered_ft"], 2),
        "complete": "yes" if plan.exit_code == 0 else "no",
        "remaining": "",
        "note": "",
    }
    yield _summary_csv_text([total]).encode()


def _summary_csv_text(items: list[dict[str, Any]], header: bool = False) -> str:
    """CSV lines of the shopping list's ``items`` (None written empty), after the header if
    asked."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=SUMMARY_COLUMNS, lineterminator="\n")
    if header:
        w.writeheader()
    for item in items:
        w.writerow({k: "" if item[k] is None else item[k] for k in SUMMARY_COLUMNS})
    return buf.getvalue()


def _counts_text(counts: dict[str, int]) -> str:
    parts = [f"{n:,} {role}" for role, n in counts.items() if n]
    return ", ".join(parts) if parts else "none"


def summary_lines(plan: Plan, k: int = 20, name: Callable[[str], str] = python_name) -> list[str]:
    """The shopping list for stderr: totals, then up to ``k`` parcels (``name`` spells the
    setting that writes the whole list, ``--summary`` on the command line)."""
    r = plan.report
    t = plan.totals()
    if not len(plan.parcels):
        return [f"plan: all {len(r.parcels)} parcels comply with {r.rules_name}: nothing to add"]
    sight = getattr(plan, "sight_ft", None)
    in_sight = sight is not None and plan.spacing_ft is not None
    acc = r.settings.accuracy_ft
    apart = 2 * acc  # a gap between two markers: each may be off by the accuracy
    in_sight = in_sight and plan.spacing_ft < sight - apart - plan.margin_ft
    accuracy = f"2 x {acc:g} ft accuracy" if acc else "0 ft accuracy"
    if in_sight:
        spacing = (
            f"markers spaced at most {plan.spacing_ft:,.1f} ft (in sight of each other: "
            f"{sight:g} ft sight distance - {accuracy} - "
            f"{plan.margin_ft:g} ft margin - both setbacks)"
        )
    elif plan.spacing_ft is not None and getattr(plan, "spacing_by_count", False):
        spacing = (
            f"markers spaced at most {plan.spacing_ft:,.1f} ft (for the count of markers the "
            "law sets)"
        )
    elif plan.spacing_ft is not None:
        hi = getattr(plan, "ground_hi", 1.0)
        at_sea = plan.spacing_ft + plan.margin_ft
        limit = at_sea * hi + apart
        ground = ""
        if getattr(plan, "ground_high_ft", None) is not None:  # the land's elevation not given
            ground = (
                f", {at_sea:,.3f} ft at sea level for land up to {plan.ground_high_ft:,.0f} ft high"
            )
        spacing = (
            f"markers spaced at most {plan.spacing_ft:,.1f} ft ({round(limit, 6):g} ft limit"
            f" - {accuracy}{ground} - {plan.margin_ft:g} ft margin)"
        )
    else:
        spacing = "no spacing rule"
    # (kept within the tolerance, less the margin: a marker farther in posts no boundary)
    within = r.settings.tolerance_ft - plan.margin_ft
    setback = f"set back {plan.setback_ft:g} ft inside the line"
    if plan.setback_ft > within:
        setback = (
            f"set back {within:g} ft inside the line ({name('setback_ft')} {plan.setback_ft:g} "
            f"kept within the {r.settings.tolerance_ft:g} ft tolerance)"
        )
    lines = [
        f"plan for {t['parcels']:,} parcel(s) not compliant with {r.rules_name} "
        f"({r.profile.citation}): {spacing}, {setback}",
        f"  {t['total']:,} new markers to place ({_counts_text(plan.counts())}) on "
        f"{t['parcels_with_markers']:,} parcel(s), posting {t['covered_ft']:,.1f} ft of boundary",
    ]
    if plan.stakeout is not None:
        lines.append(plan.stakeout.summary_line())
    p = plan.parcels
    for rec in p.head(k).itertuples(index=False):
        counts = {role: int(getattr(rec, role)) for role in ROLES}
        parts = []
        if rec.total:
            text = (
                f"{rec.total:,} new marker{'s' if rec.total > 1 else ''} ({_counts_text(counts)})"
            )
            if rec.covered_ft:
                text += f", posting {rec.covered_ft:,.1f} ft of boundary"
            parts.append(text)
        elif not rec.note.startswith("nothing to place"):  # (the note says it, and why)
            parts.append("nothing to place")
        if rec.remaining:
            parts.append(f"still {rec.status}: {rec.remaining}")
        if rec.note:
            parts.append(rec.note)
        text = "; ".join(parts)
        lines.append(f"    {rec.id} ({rec.status}): {text}")
    if len(p) > k:
        lines.append(f"    ... and {len(p) - k:,} more parcels (see {name('summary')})")
    lines += [f"  warning: {w}" for w in plan.warnings[:20]]
    if len(plan.warnings) > 20:
        lines.append(f"  ... and {len(plan.warnings) - 20} more warnings (see {name('summary')})")
    return lines
