"""The Report: the one hub every output renders from (JSON, GeoJSON, CSV, the summary).

Nothing here measures. The tables were filled by the engine; this module only renders them.
The JSON keys are a contract other tools rely on: add keys, never rename one silently, and bump
``SCHEMA`` on a breaking change.
"""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import numpy as np
import pandas as pd
import shapely

from posting.assign import Assignment
from posting.crs import finite_geometry
from posting.io import MarkerLayer
from posting.prepare import PreparedParcels
from posting.rules import Profile
from posting.settings import Settings
from posting.verdict import STATUSES

__all__ = ["SCHEMA", "Report"]

SCHEMA = "posting-report/1"
LONLAT_DECIMALS = 7  # about 1 cm: finer than any survey
DISPLAY_DECIMALS = 6  # about 0.36 ft north-south: finer than all but survey-grade RTK positions
FT_DECIMALS = 2


def _tool_version() -> str:
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


def _text(x: Any) -> Any:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) or x is pd.NA else x


@dataclass
class Report:
    """Everything a check found, in tables.

    Attributes
    ----------
    profile, settings
        The rules and settings applied.
    prepared, assignment, marker_layer
        The engine's intermediate results (parcels in working feet, where each marker went).
    parcels
        One row per input parcel, in input order: ``id``, ``row``, ``owner``, ``status``,
        ``signs``, ``rings``, ``perimeter_ft``, ``area_acres``, ``max_gap_ft``, ``corners``,
        ``repaired``, ``invalid_reason``, ``duplicate_id``, ``working_crs``.
    findings
        One row per (parcel, rule, level): see :mod:`posting.verdict`.
    gaps
        Every gap of every ring: ``parcel``, ``ring``, ``part``, ``hole``, ``start_ft``,
        ``length_ft``, ``straight_ft``, ``measured_ft``, ``status`` (``ok``, ``over``,
        ``uncertain``, ``unmarked``), ``start_marker``, ``end_marker``; reported gaps (not
        ``ok``) also carry ``geometry`` (WGS 84 LineString) and end points.
    corners
        Every corner: ``parcel``, ``ring``, ``position_ft``, ``lon``, ``lat``, ``turn_deg``,
        ``nearest_ft``, ``status`` (``ok``, ``missing``, ``uncertain``).
    markers
        One row per input marker: ``source``, ``row``, ``lon``, ``lat``, ``parcel`` (index or
        -1), ``parcel_id``, ``part``, ``hole``, ``assigned_by``, ``distance_ft``,
        ``position_ft``, ``reason``.
    not_checked
        Rules not checked for any parcel, with the reason.
    warnings
        Problems with the input that did not stop the check.
    """

    profile: Profile
    settings: Settings
    prepared: PreparedParcels
    assignment: Assignment
    marker_layer: MarkerLayer
    parcels: pd.DataFrame
    findings: pd.DataFrame
    gaps: pd.DataFrame
    corners: pd.DataFrame
    markers: pd.DataFrame
    not_checked: list[dict[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    generated: str = ""

    # -- summary ---------------------------------------------------------------------------
    @property
    def crs(self) -> str:
        """The working CRS (several, separated by ``; ``, when the data spans UTM zones)."""
        return "; ".join(c.label for c in self.prepared.crss) or "none (no usable geometry)"

    @property
    def exit_code(self) -> int:
        """0 when every parcel is compliant or exempt, else 1."""
        ok = self.parcels["status"].isin(["compliant", "exempt"])
        return 0 if bool(ok.all()) else 1

    def status_counts(self) -> dict[str, int]:
        """Parcels per status (every status, zeros included)."""
        counts = self.parcels["status"].value_counts()
        return {s: int(counts.get(s, 0)) for s in STATUSES}

    def summary(self) -> dict[str, Any]:
        """Counts per status and of markers read, assigned and unassigned."""
        assigned = int((self.markers["parcel"] >= 0).sum())
        return {
            "parcels": len(self.parcels),
            "status": self.status_counts(),
            "markers_read": len(self.markers),
            "markers_assigned": assigned,
            "markers_unassigned": len(self.markers) - assigned,
        }

    def worst(self, k: int = 5) -> pd.DataFrame:
        """The ``k`` parcels that fail worst: noncompliant and unposted, largest gap first."""
        bad = self.parcels[self.parcels["status"].isin(["noncompliant", "unposted", "uncertain"])]
        key = bad["max_gap_ft"].fillna(bad["perimeter_ft"])
        return bad.assign(_k=key).sort_values("_k", ascending=False, kind="stable").head(k)

    def summary_lines(self, k: int = 5) -> list[str]:
        """A short human summary for stderr."""
        s = self.summary()
        counts = " · ".join(f"{n} {name}" for name, n in s["status"].items() if n)
        lines = [
            f"{s['parcels']} parcels checked against {self.profile.name} "
            f"({self.profile.citation}), measured in {self.crs}",
            f"  {counts or 'no parcels'}",
            f"  markers: {s['markers_read']} read, {s['markers_assigned']} assigned, "
            f"{s['markers_unassigned']} unassigned",
        ]
        worst = self.worst(k)
        if len(worst):
            lines.append("  worst:")
            for _, r in worst.iterrows():
                gap = (
                    f"largest gap {r['max_gap_ft']:,.1f} ft"
                    if pd.notna(r["max_gap_ft"])
                    else f"no marker on {r['perimeter_ft']:,.1f} ft of boundary"
                )
                lines.append(f"    {r['id']}: {r['status']}, {gap}")
        lines += [f"  warning: {w}" for w in self.warnings[:20]]
        if len(self.warnings) > 20:
            lines.append(f"  ... and {len(self.warnings) - 20} more warnings (see the JSON report)")
        return lines

    # -- display (the map) ------------------------------------------------------------------
    def display_geometry(
        self, simplify_ft: float = 0.0, decimals: int = DISPLAY_DECIMALS
    ) -> np.ndarray:
        """Parcel outlines in WGS 84 for drawing, never for measuring.

        Each outline is simplified in its working CRS (Douglas-Peucker, ``simplify_ft`` feet,
        topology preserved) and its coordinates rounded to ``decimals`` decimal degrees. Every
        figure of the report was measured on the full geometry; this only lightens a map.

        Returns
        -------
        numpy.ndarray
            One shapely geometry per parcel, None where the parcel has no usable geometry.
        """
        prep = self.prepared
        out = np.full(len(prep), None, dtype=object)
        for g, wcrs in enumerate(prep.crss):
            sel = np.flatnonzero(prep.group == g)
            if not len(sel):
                continue
            geoms = prep.geometry_ft[sel]
            if simplify_ft > 0:
                geoms = shapely.simplify(geoms, simplify_ft, preserve_topology=True)
            out[sel] = wcrs.geoms_ft_to_lonlat(geoms)
        return _round_lonlat(out, decimals)

    def extent_lonlat(self) -> tuple[float, float, float, float] | None:
        """West, south, east, north of every drawable parcel and positioned marker (WGS 84).

        None when nothing has a position.
        """
        b = self.prepared.bounds_lonlat[self.prepared.group >= 0].reshape(-1, 4)
        lon, lat = self.markers["lon"].to_numpy(float), self.markers["lat"].to_numpy(float)
        xs = np.concatenate([b[:, 0], b[:, 2], lon])
        ys = np.concatenate([b[:, 1], b[:, 3], lat])
        ok = np.isfinite(xs) & np.isfinite(ys)
        if not ok.any():
            return None
        return (
            float(xs[ok].min()),
            float(ys[ok].min()),
            float(xs[ok].max()),
            float(ys[ok].max()),
        )

    # -- JSON ------------------------------------------------------------------------------
    def _per_parcel_lists(self) -> dict[str, list[list[Any]]]:
        n = len(self.parcels)
        out: dict[str, list[list[Any]]] = {
            k: [[] for _ in range(n)]
            for k in (
                "violations",
                "uncertain",
                "not_checked",
                "notes",
                "gaps",
                "missing_corners",
                "uncertain_corners",
            )
        }
        f = self.findings
        level_key = {
            "violation": "violations",
            "uncertain": "uncertain",
            "not_checked": "not_checked",
            "note": "notes",
        }
        for rec in f.itertuples(index=False):
            item = {
                "rule": rec.rule,
                "clause": rec.clause,
                "message": rec.message,
                "measured": _num(rec.measured),
                "limit": _num(rec.limit),
                "unit": _text(rec.unit),
                "count": int(rec.count),
            }
            out[level_key[rec.level]][rec.parcel].append(item)
        g = self.gaps[self.gaps["status"] != "ok"]
        src, row = self.markers["source"].to_numpy(), self.markers["row"].to_numpy()
        for rec in g.itertuples(index=False):
            item = {
                "ring": {"part": int(rec.part), "hole": int(rec.hole)},
                "status": rec.status,
                "length_ft": _num(rec.length_ft),
                "straight_ft": _num(rec.straight_ft),
                "start": _lonlat(rec.start_lon, rec.start_lat),
                "end": _lonlat(rec.end_lon, rec.end_lat),
            }
            if rec.start_marker >= 0:
                item["start_sign"] = {
                    "source": src[rec.start_marker],
                    "row": int(row[rec.start_marker]),
                }
                item["end_sign"] = {"source": src[rec.end_marker], "row": int(row[rec.end_marker])}
            out["gaps"][rec.parcel].append(item)
        c = self.corners
        for key, status in (("missing_corners", "missing"), ("uncertain_corners", "uncertain")):
            sel = c[c["status"] == status]
            for p, lon, lat in zip(sel["parcel"], sel["lon"], sel["lat"], strict=True):
                out[key][p].append(_lonlat(lon, lat))
        return out

    def to_dict(self) -> dict[str, Any]:
        """The JSON report as a dict (see the README for the keys)."""
        lists = self._per_parcel_lists()
        p = self.parcels
        has_owner = p["owner"].notna().any()
        many_crs = len(self.prepared.crss) > 1
        parcels = []
        cols = [
            p[c].tolist()
            for c in (
                "id",
                "row",
                "owner",
                "status",
                "signs",
                "rings",
                "perimeter_ft",
                "area_acres",
                "max_gap_ft",
                "corners",
                "repaired",
                "invalid_reason",
                "duplicate_id",
                "working_crs",
            )
        ]
        for i, (
            pid,
            row,
            owner,
            status,
            signs,
            rings,
            per,
            acres,
            gap,
            corners,
            repaired,
            invalid,
            dup,
            wcrs,
        ) in enumerate(zip(*cols, strict=True)):
            item: dict[str, Any] = {"id": pid, "row": int(row)}
            if has_owner:
                item["owner"] = _text(owner)
            item.update(
                {
                    "status": status,
                    "exemption": None,
                    "signs": int(signs),
                    "rings": int(rings),
                    "perimeter_ft": _num(per),
                    "area_acres": _num(acres, 4),
                    "max_gap_ft": _num(gap),
                    "gaps": lists["gaps"][i],
                    "corners": int(corners),
                    "missing_corners": lists["missing_corners"][i],
                    "uncertain_corners": lists["uncertain_corners"][i],
                    "violations": lists["violations"][i],
                    "uncertain": lists["uncertain"][i],
                    "not_checked": lists["not_checked"][i],
                    "notes": lists["notes"][i],
                    "duplicate_id": bool(dup),
                }
            )
            if _text(repaired):
                item["repaired"] = repaired
            if _text(invalid):
                item["invalid_reason"] = invalid
            if many_crs:
                item["working_crs"] = _text(wcrs)
            parcels.append(item)
        m = self.markers
        un = m[m["parcel"] < 0]
        unassigned = [
            {
                "source": s,
                "row": int(r),
                "lon": _num(lo, LONLAT_DECIMALS),
                "lat": _num(la, LONLAT_DECIMALS),
                "reason": why,
            }
            for s, r, lo, la, why in zip(
                un["source"], un["row"], un["lon"], un["lat"], un["reason"], strict=True
            )
        ]
        dup = p[p["duplicate_id"]]
        duplicates = {str(k): [int(r) for r in g["row"]] for k, g in dup.groupby("id", sort=False)}
        layer = self.prepared.layer
        return {
            "schema": SCHEMA,
            "generated": self.generated,
            "tool": {"name": "posting", "version": _tool_version()},
            "rules": self.profile.summary(),
            "crs": self.crs,
            "crs_detail": [
                {
                    "crs": c.label,
                    "unit": c.unit_name,
                    "parcels": int((self.prepared.group == k).sum()),
                }
                for k, c in enumerate(self.prepared.crss)
            ],
            "settings": self.settings.as_dict(),
            "inputs": {
                "parcels": {
                    "path": layer.source,
                    "features": len(layer),
                    "crs": layer.crs.name,
                    "id_field": layer.id_field,
                },
                "signs": [
                    {
                        "path": path,
                        "features": int((self.marker_layer.file_index == k).sum()),
                        "crs": crs.name,
                    }
                    for k, (path, crs) in enumerate(self.marker_layer.files)
                ],
            },
            "summary": self.summary(),
            "not_checked": self.not_checked,
            "warnings": self.warnings,
            "duplicate_ids": duplicates,
            "parcels": parcels,
            "unassigned_signs": unassigned,
        }

    def to_json(self, indent: int | None = 1) -> str:
        """The JSON report as text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False, allow_nan=False)

    # -- GeoJSON ---------------------------------------------------------------------------
    def to_geojson(self) -> str:
        """A GeoJSON FeatureCollection (WGS 84): parcels, markers, reported gaps, corners.

        Each feature's ``layer`` property says which it is. Every parcel and every marker
        appears, a row without usable geometry with a null geometry.
        """
        feats: list[str] = []
        d = self.to_dict()
        geoms = _geojson_geometries(self.prepared.geometry_lonlat())
        for item, geom in zip(d["parcels"], geoms, strict=True):
            props = {"layer": "parcel", **{k: v for k, v in item.items() if k not in ("gaps",)}}
            props["gaps_reported"] = len(item["gaps"])
            feats.append(_feature(geom, props))
        m = self.markers
        mgeom = _geojson_geometries(shapely.points(m["lon"].to_numpy(), m["lat"].to_numpy()))
        for rec, geom in zip(m.itertuples(index=False), mgeom, strict=True):
            assigned = rec.parcel >= 0
            props = {
                "layer": "marker",
                "source": rec.source,
                "row": int(rec.row),
                "parcel": rec.parcel_id if assigned else None,
                "ring": {"part": int(rec.part), "hole": int(rec.hole)} if assigned else None,
                "assigned_by": _text(rec.assigned_by),
                "distance_ft": _num(rec.distance_ft),
                "position_ft": _num(rec.position_ft),
                "why": rec.why,
            }
            feats.append(_feature(geom, props))
        g = self.gaps[self.gaps["status"] != "ok"]
        ggeom = _geojson_geometries(g["geometry"].to_numpy())
        ids = self.parcels["id"].to_numpy()
        for rec, geom in zip(g.itertuples(index=False), ggeom, strict=True):
            feats.append(
                _feature(
                    geom,
                    {
                        "layer": "gap",
                        "parcel": ids[rec.parcel],
                        "status": rec.status,
                        "ring": {"part": int(rec.part), "hole": int(rec.hole)},
                        "length_ft": _num(rec.length_ft),
                        "straight_ft": _num(rec.straight_ft),
                    },
                )
            )
        c = self.corners
        cgeom = _geojson_geometries(shapely.points(c["lon"].to_numpy(), c["lat"].to_numpy()))
        for rec, geom in zip(c.itertuples(index=False), cgeom, strict=True):
            feats.append(
                _feature(
                    geom,
                    {
                        "layer": "corner",
                        "parcel": ids[rec.parcel],
                        "status": rec.status,
                        "turn_deg": _num(rec.turn_deg, 1),
                        "nearest_marker_ft": _num(rec.nearest_ft),
                    },
                )
            )
        head = json.dumps(
            {
                "type": "FeatureCollection",
                "name": "posting",
                "posting": {
                    "schema": SCHEMA,
                    "rules": d["rules"],
                    "crs": d["crs"],
                    "summary": d["summary"],
                },
            }
        )
        return head[:-1] + ', "features": [\n' + ",\n".join(feats) + "\n]}\n"

    # -- CSV -------------------------------------------------------------------------------
    def to_csv(self) -> str:
        """One row per parcel, for the spreadsheet a surveyor hands on."""
        d = self.to_dict()
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        header = [
            "id",
            "row",
            "owner",
            "status",
            "signs",
            "perimeter_ft",
            "area_acres",
            "max_gap_ft",
            "gaps_over_limit",
            "corners",
            "missing_corners",
            "violations",
            "uncertain",
            "not_checked",
            "repaired",
            "invalid_reason",
            "duplicate_id",
        ]
        w.writerow(header)
        for p in d["parcels"]:
            w.writerow(
                [
                    p["id"],
                    p["row"],
                    p.get("owner") or "",
                    p["status"],
                    p["signs"],
                    _blank(p["perimeter_ft"]),
                    _blank(p["area_acres"]),
                    _blank(p["max_gap_ft"]),
                    sum(1 for g in p["gaps"] if g["status"] == "over"),
                    p["corners"],
                    len(p["missing_corners"]),
                    "; ".join(f"{v['rule']}: {v['message']}" for v in p["violations"]),
                    "; ".join(f"{v['rule']}: {v['message']}" for v in p["uncertain"]),
                    "; ".join(f"{v['rule']}: {v['message']}" for v in p["not_checked"]),
                    p.get("repaired", ""),
                    p.get("invalid_reason", ""),
                    "yes" if p["duplicate_id"] else "",
                ]
            )
        return buf.getvalue()


def _blank(x: Any) -> Any:
    return "" if x is None else x


def _round_lonlat(geoms: np.ndarray, decimals: int) -> np.ndarray:
    """Geometries with coordinates rounded to ``decimals`` decimal degrees (None kept)."""
    geoms = np.asarray(geoms, dtype=object)
    usable = ~(pd.isna(geoms) | shapely.is_empty(geoms)) & finite_geometry(geoms)
    out = np.full(len(geoms), None, dtype=object)
    out[usable] = shapely.set_precision(geoms[usable], 10.0**-decimals, mode="pointwise")
    return out


def _geojson_geometries(geoms: np.ndarray) -> list[str | None]:
    """GeoJSON geometry text for each shapely geometry (None, empty or non-finite: None)."""
    geoms = np.asarray(geoms, dtype=object)
    usable = ~(pd.isna(geoms) | shapely.is_empty(geoms)) & finite_geometry(geoms)
    out = np.full(len(geoms), None, dtype=object)
    rounded = shapely.set_precision(geoms[usable], 10.0**-LONLAT_DECIMALS, mode="pointwise")
    out[usable] = shapely.to_geojson(rounded)
    return out.tolist()


def _feature(geometry: str | None, props: dict[str, Any]) -> str:
    g = "null" if geometry is None else geometry
    return (
        '{"type": "Feature", "geometry": '
        + g
        + ', "properties": '
        + json.dumps(props, ensure_ascii=False, allow_nan=False)
        + "}"
    )
