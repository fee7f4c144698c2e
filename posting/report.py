"""The Report: the one hub every output renders from (JSON, GeoJSON, CSV, the summary).

Nothing here measures. The tables were filled by the engine; this module only renders them.
The JSON keys are a contract other tools rely on: add keys, never rename one silently, and bump
``SCHEMA`` on a breaking change.
"""

from __future__ import annotations

import csv
import functools
import io
import itertools
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import orjson
import pandas as pd
import shapely

from posting.assign import Assignment
from posting.boundary import ring_stretches
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
HOW_TEXT = {
    "named": "its parcel column names this parcel",
    "inside": "stands inside this parcel, near its boundary",
    "nearest": "outside every parcel; this is the nearest boundary",
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


def _text(x: Any) -> Any:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) or x is pd.NA else x


@dataclass
class Report:
    """Everything a check found, in tables.

    Attributes
    ----------
    profile, profiles, settings
        The rules (the first profile, and every alternative given) and the settings applied.
    prepared, assignment, marker_layer
        The engine's intermediate results (parcels in working feet, where each marker went).
    parcels
        One row per input parcel, in input order: ``id``, ``row``, ``owner``, ``status``,
        ``rules`` (the profile it is judged by), ``signs`` (markers assigned, any kind),
        ``markers_counted`` (markers of the kinds its profile counts), ``rings``,
        ``perimeter_ft``, ``area_acres``, ``max_gap_ft``, ``corners``, ``repaired``,
        ``invalid_reason``, ``duplicate_id``, ``working_crs``.
    findings
        One row per (parcel, rule, level): see :mod:`posting.verdict`; with ``profile`` and
        ``basis`` (``statute``, ``statute (unverified)`` or ``guidance``).
    gaps
        Every gap of every ring: ``parcel``, ``ring``, ``part``, ``hole``, ``start_ft``,
        ``length_ft``, ``straight_ft``, ``limit_ft``, ``forest``, ``measured_ft``, ``status``
        (``ok``, ``over``, ``uncertain``, ``unmarked``), ``start_marker``, ``end_marker``;
        reported gaps (not ``ok``) also carry their end points (``start_lon`` ... ``end_lat``);
        :attr:`gap_lines` draws them.
    corners
        Every corner: ``parcel``, ``ring``, ``position_ft``, ``lon``, ``lat``, ``turn_deg``,
        ``nearest_ft``, ``status`` (``ok``, ``missing``, ``uncertain``, ``not required``).
    access
        Every access point (a road, driveway or trail crossing a boundary; a gate): ``parcel``,
        ``ring``, ``position_ft``, ``lon``, ``lat``, ``type``, ``nearest_ft``, ``status``.
    markers
        One row per input marker: ``source``, ``row``, ``lon``, ``lat``, ``kind``, ``parcel``
        (index or -1), ``parcel_id``, ``part``, ``hole``, ``assigned_by``, ``distance_ft``,
        ``position_ft``, ``reason`` (why an unassigned marker is not assigned);
        :meth:`marker_why` says, for every marker, where it went and why.
    alternatives, all_findings
        Each parcel's status under every profile given, and every profile's findings. The
        ``parcels``, ``findings``, ``gaps``, ``corners`` and ``access`` tables hold, for each
        parcel, the profile it is judged by: the first that gives it its best status.
    water, easements, fence_gaps
        Stretches of boundary formed by water, inside easements (with the ``holder``), and not
        fenced (under the profile each parcel is judged by): ``parcel``, ``length_ft``,
        ``geometry`` (WGS 84). None when the layer was not given.
    not_checked
        Rules not checked for any parcel, with the reason (and the profile).
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
    profiles: list[Profile] = field(default_factory=list)
    access: pd.DataFrame = field(default_factory=pd.DataFrame)
    alternatives: pd.DataFrame = field(default_factory=pd.DataFrame)
    all_findings: pd.DataFrame = field(default_factory=pd.DataFrame)
    water: pd.DataFrame | None = None
    easements: pd.DataFrame | None = None
    fence_gaps: pd.DataFrame = field(default_factory=pd.DataFrame)

    def __post_init__(self) -> None:
        if not self.profiles:
            self.profiles = [self.profile]

    @functools.cached_property
    def gap_lines(self) -> np.ndarray:
        """For each row of :attr:`gaps`: the stretch of boundary it spans, a WGS 84 LineString,
        where the gap is reported (status other than ``ok``), else None.

        Made on first use (the GeoJSON and the map draw them; the JSON report needs only their
        end points): a county's gap lines cost a third of a second.
        """
        g, prep = self.gaps, self.prepared
        out = np.full(len(g), None, dtype=object)
        rep = np.flatnonzero((g["status"] != "ok").to_numpy())
        if len(rep):
            ring = g["ring"].to_numpy(dtype=np.int64)[rep]
            lines = ring_stretches(
                prep.rings.geometry,
                ring,
                g["start_ft"].to_numpy(dtype=float)[rep],
                g["length_ft"].to_numpy(dtype=float)[rep],
                vertices=prep.vertices,
            )
            out[rep] = prep.geoms_to_lonlat(prep.group[prep.rings.parcel[ring]], lines)
        return out

    # -- summary ---------------------------------------------------------------------------
    @property
    def crs(self) -> str:
        """The working CRS (several, separated by ``; ``, when the data spans UTM zones)."""
        return "; ".join(c.label for c in self.prepared.crss) or "none (no usable geometry)"

    @property
    def rules_name(self) -> str:
        """The profile's name, or the alternatives joined by "or"."""
        return " or ".join(p.name for p in self.profiles)

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
        out = {
            "parcels": len(self.parcels),
            "status": self.status_counts(),
            "markers_read": len(self.markers),
            "markers_assigned": assigned,
            "markers_unassigned": len(self.markers) - assigned,
        }
        if len(self.profiles) > 1:
            met = self.parcels.loc[self.parcels["status"].eq("compliant"), "rules"]
            out["compliant_by"] = {p.name: int((met == p.name).sum()) for p in self.profiles}
        return out

    def worst(self, k: int = 5) -> pd.DataFrame:
        """The ``k`` parcels that fail worst: largest gap (or unposted boundary) first."""
        bad = self.parcels[self.parcels["status"].isin(["noncompliant", "unposted", "uncertain"])]
        key = bad["max_gap_ft"].fillna(bad["perimeter_ft"])
        return bad.assign(_k=key).sort_values("_k", ascending=False, kind="stable").head(k)

    def summary_lines(self, k: int = 5) -> list[str]:
        """A short human summary for stderr."""
        s = self.summary()
        counts = " · ".join(f"{n} {name}" for name, n in s["status"].items() if n)
        cites = "; ".join(
            f"{p.citation}{', guidance' if p.standard == 'guidance' else ''}" for p in self.profiles
        )
        lines = [
            f"{s['parcels']} parcels checked against {self.rules_name} ({cites}), "
            f"measured in {self.crs}",
            f"  {counts or 'no parcels'}",
            f"  markers: {s['markers_read']} read, {s['markers_assigned']} assigned, "
            f"{s['markers_unassigned']} unassigned",
        ]
        if "compliant_by" in s:
            lines.append(
                "  compliant by: "
                + ", ".join(f"{name} {n}" for name, n in s["compliant_by"].items())
            )
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
        for x in self.not_checked:
            if x["rule"] in ("landcover", "access", "public_notice"):
                lines.append(f"  not checked ({x.get('profile', '')}): {x['reason']}")
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
    @staticmethod
    def _finding_items(f: pd.DataFrame) -> list[dict[str, Any]]:
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

    def _per_parcel_lists(self) -> dict[str, dict[int, list[Any]]]:
        keys = (
            "violations",
            "uncertain",
            "not_checked",
            "notes",
            "gaps",
            "missing_corners",
            "uncertain_corners",
            "missing_access",
            "uncertain_access",
            "water",
            "easements",
        )
        # per key, the parcels that have entries (most have none: no list is made for them)
        out: dict[str, dict[int, list[Any]]] = {k: {} for k in keys}
        level_key = {
            "violation": "violations",
            "uncertain": "uncertain",
            "not_checked": "not_checked",
            "note": "notes",
        }
        f = self.findings
        for p, level, item in zip(
            f["parcel"].tolist(), f["level"].tolist(), self._finding_items(f), strict=True
        ):
            out[level_key[level]].setdefault(p, []).append(item)
        g = self.gaps[self.gaps["status"] != "ok"]
        src, row = self.markers["source"].to_numpy(), self.markers["row"].to_numpy()
        sm, em = g["start_marker"].to_numpy(), g["end_marker"].to_numpy()
        marked = sm >= 0
        start_sign = np.full(len(g), None, dtype=object)
        end_sign = np.full(len(g), None, dtype=object)
        start_sign[marked] = [
            {"source": a, "row": b}
            for a, b in zip(src[sm[marked]].tolist(), row[sm[marked]].tolist(), strict=True)
        ]
        end_sign[marked] = [
            {"source": a, "row": b}
            for a, b in zip(src[em[marked]].tolist(), row[em[marked]].tolist(), strict=True)
        ]
        cols = zip(
            g["parcel"].tolist(),
            g["part"].tolist(),
            g["hole"].tolist(),
            g["status"].tolist(),
            _numbers(g["length_ft"]),
            _numbers(g["straight_ft"]),
            _numbers(g["limit_ft"]),
            _lonlats(g["start_lon"], g["start_lat"]),
            _lonlats(g["end_lon"], g["end_lat"]),
            start_sign.tolist(),
            end_sign.tolist(),
            strict=True,
        )
        for p, part, hole, status, length, straight, limit, a, b, sa, sb in cols:
            item = {
                "ring": {"part": part, "hole": hole},
                "status": status,
                "length_ft": length,
                "straight_ft": straight,
                "limit_ft": limit,
                "start": a,
                "end": b,
            }
            if sa is not None:
                item["start_sign"] = sa
                item["end_sign"] = sb
            out["gaps"].setdefault(p, []).append(item)
        for key, table in (("water", self.water), ("easements", self.easements)):
            if table is None or not len(table):
                continue
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
                if key == "easements":
                    item = {"holder": h, **item}
                out[key].setdefault(p, []).append(item)
        for table, noun in ((self.corners, "corners"), (self.access, "access")):
            if not len(table):
                continue
            for key, status in ((f"missing_{noun}", "missing"), (f"uncertain_{noun}", "uncertain")):
                sel = table[table["status"] == status]
                for p, ll in zip(
                    sel["parcel"].astype(np.int64).tolist(),
                    _lonlats(sel["lon"], sel["lat"]),
                    strict=True,
                ):
                    out[key].setdefault(p, []).append(ll)
        return out

    def _alternatives_lists(self) -> list[list[dict[str, Any]]]:
        n = len(self.parcels)
        out: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        if len(self.profiles) < 2:
            return out
        viol = self.all_findings[self.all_findings["level"] == "violation"]
        by: dict[tuple[int, str], list[dict[str, Any]]] = {}
        for p, prof, item in zip(
            viol["parcel"].tolist(),
            viol["profile"].tolist(),
            self._finding_items(viol),
            strict=True,
        ):
            by.setdefault((p, prof), []).append(item)
        for p, prof, status in zip(
            self.alternatives["parcel"].tolist(),
            self.alternatives["profile"].tolist(),
            self.alternatives["status"].tolist(),
            strict=True,
        ):
            out[p].append({"rules": prof, "status": status, "violations": by.get((p, prof), [])})
        return out

    _PARCEL_COLUMNS = (
        "id",
        "row",
        "owner",
        "status",
        "rules",
        "signs",
        "markers_counted",
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

    def parcel_items(self, *, shared_empty: bool = False) -> Iterator[dict[str, Any]]:
        """The report's ``parcels`` entries, one dict per input parcel, in input order.

        Built column by column (a list per key), then zipped into dicts: a county has
        100,000 of them. With ``shared_empty``, every empty list is one and the same empty
        tuple (for writing JSON at once: making 800,000 empty lists costs a county 0.3 s).
        """
        lists = self._per_parcel_lists()
        p = self.parcels
        n = len(p)

        def listed(key: str) -> list[Any]:
            col: list[Any] = [()] * n if shared_empty else [[] for _ in range(n)]
            for i, items in lists[key].items():
                col[i] = items
            return col

        status = p["status"].tolist()
        rules = p["rules"].tolist()
        cols: dict[str, list[Any]] = {
            "id": p["id"].tolist(),
            "row": p["row"].astype(np.int64).tolist(),
        }
        if p["owner"].notna().any():
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
        if len(self.access) > 0 or any(pr.access for pr in self.profiles):
            cols["missing_access"] = listed("missing_access")
            cols["uncertain_access"] = listed("uncertain_access")
        for key in ("violations", "uncertain", "not_checked", "notes"):
            cols[key] = listed(key)
        cols["duplicate_id"] = p["duplicate_id"].astype(bool).tolist()
        cols.update(self._land_columns(lists))
        # a row has one value per column by construction (strict only on the outer zip: the
        # inner check costs 0.08 s on a county)
        rows = zip(*cols.values(), strict=True)
        items = [dict(zip(cols, row, strict=False)) for row in rows]
        # keys that only some parcels have
        penalty = {pr.name: pr.penalty for pr in self.profiles}
        for i in np.flatnonzero(p["status"].isin(["noncompliant", "unposted", "uncertain"])):
            if penalty.get(rules[i]):
                items[i]["penalty"] = penalty[rules[i]]
        if len(self.profiles) > 1:
            for item, alt in zip(items, self._alternatives_lists(), strict=True):
                item["alternatives"] = alt
        for key, column in (("repaired", "repaired"), ("invalid_reason", "invalid_reason")):
            values = p[column].to_numpy(dtype=object)
            for i in np.flatnonzero(p[column].notna().to_numpy() & (values != "")):
                items[i][key] = values[i]
        if len(self.prepared.crss) > 1:
            for item, wcrs in zip(items, _texts(p["working_crs"]), strict=True):
                item["working_crs"] = wcrs
        yield from items

    def _land_columns(self, lists: dict[str, dict[int, list[Any]]]) -> dict[str, list[Any]]:
        """Per-parcel JSON values from the land layers given (water, dwellings, easements,
        fences, recorded acreage, merged properties)."""
        p = self.parcels
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
        if len(self.fence_gaps) or any(pr.fence for pr in self.profiles):
            unfenced = np.zeros(n)
            if len(self.fence_gaps):
                np.add.at(
                    unfenced,
                    self.fence_gaps["parcel"].to_numpy(dtype=np.int64),
                    self.fence_gaps["length_ft"].to_numpy(dtype=float),
                )
            out["unfenced_ft"] = _numbers(unfenced)
        if "source_ids" in p:
            out["source_ids"] = p["source_ids"].tolist()
        return out

    def unassigned_items(self) -> Iterator[dict[str, Any]]:
        """The report's ``unassigned_signs`` entries."""
        m = self.markers
        un = m[m["parcel"] < 0]
        for s, r, lo, la, why in zip(
            un["source"], un["row"], un["lon"], un["lat"], un["reason"], strict=True
        ):
            yield {
                "source": s,
                "row": int(r),
                "lon": _num(lo, LONLAT_DECIMALS),
                "lat": _num(la, LONLAT_DECIMALS),
                "reason": why,
            }

    def header(self) -> dict[str, Any]:
        """Everything in the JSON report but the ``parcels`` and ``unassigned_signs`` lists."""
        p = self.parcels
        dup = p[p["duplicate_id"]]
        duplicates = {str(k): [int(r) for r in g["row"]] for k, g in dup.groupby("id", sort=False)}
        layer = self.prepared.layer
        if len(self.profiles) > 1:
            rules: dict[str, Any] = {
                "name": self.rules_name,
                "alternatives": [pr.summary() for pr in self.profiles],
            }
        else:
            rules = self.profile.summary()
        return {
            "schema": SCHEMA,
            "generated": self.generated,
            "tool": {"name": "posting", "version": _tool_version()},
            "rules": rules,
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
        }

    def to_dict(self) -> dict[str, Any]:
        """The JSON report as a dict (see the README for the keys)."""
        out = self.header()
        out["parcels"] = list(self.parcel_items())
        out["unassigned_signs"] = list(self.unassigned_items())
        return out

    def iter_json(self) -> Iterator[bytes | memoryview]:
        """The JSON report as UTF-8, in pieces: the header indented, then one parcel and one
        unassigned sign per line (readable; written by orjson, fast for a county)."""
        head = json.dumps(self.header(), indent=1, ensure_ascii=False, allow_nan=False)
        yield (head[:-2] + ',\n "parcels": [').encode()
        for key, items in (
            ("parcels", self.parcel_items(shared_empty=True)),
            ("unassigned_signs", self.unassigned_items()),
        ):
            if key != "parcels":
                yield b'\n ],\n "unassigned_signs": ['
            sep = b"\n  "
            while batch := list(itertools.islice(items, 5_000)):  # a few MB at a time
                yield sep
                yield _json_lines(batch)
                sep = b",\n  "
        yield b"\n ]\n}\n"

    def to_json(self) -> str:
        """The JSON report as text."""
        return b"".join(self.iter_json()).decode()

    def marker_why(self) -> np.ndarray:
        """For each marker, in words: which boundary it posts and why, or why none."""
        m = self.markers
        out = m["reason"].to_numpy(dtype=object).copy()
        for how, text in HOW_TEXT.items():
            sel = (m["assigned_by"] == how).to_numpy(dtype=bool)
            if sel.any():
                out[sel] = [
                    f"{text} ({d:.1f} ft from it)" for d in m["distance_ft"].to_numpy()[sel]
                ]
        return out

    # -- GeoJSON ---------------------------------------------------------------------------
    def to_geojson(self) -> str:
        """A GeoJSON FeatureCollection (WGS 84): parcels, markers, reported gaps, corners,
        access points.

        Each feature's ``layer`` property says which it is. Every parcel and every marker
        appears, a row without usable geometry with a null geometry.
        """
        feats: list[str] = []
        d = self.to_dict()
        geoms = _geojson_geometries(self.prepared.geometry_lonlat())
        for item, geom in zip(d["parcels"], geoms, strict=True):
            props = {"layer": "parcel", **{k: v for k, v in item.items() if k != "gaps"}}
            props["gaps_reported"] = len(item["gaps"])
            feats.append(_feature(geom, props))
        m = self.markers
        mgeom = _geojson_geometries(shapely.points(m["lon"].to_numpy(), m["lat"].to_numpy()))
        whys = self.marker_why()
        for rec, geom, why in zip(m.itertuples(index=False), mgeom, whys, strict=True):
            assigned = rec.parcel >= 0
            props = {
                "layer": "marker",
                "source": rec.source,
                "row": int(rec.row),
                "kind": _text(rec.kind),
                "parcel": rec.parcel_id if assigned else None,
                "ring": {"part": int(rec.part), "hole": int(rec.hole)} if assigned else None,
                "assigned_by": _text(rec.assigned_by),
                "distance_ft": _num(rec.distance_ft),
                "position_ft": _num(rec.position_ft),
                "why": why,
            }
            feats.append(_feature(geom, props))
        ids = self.parcels["id"].to_numpy()
        reported = (self.gaps["status"] != "ok").to_numpy()
        g = self.gaps[reported]
        ggeom = _geojson_geometries(self.gap_lines[reported])
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
                        "limit_ft": _num(rec.limit_ft),
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
        a = self.access
        if len(a):
            ageom = _geojson_geometries(
                shapely.points(a["lon"].to_numpy(dtype=float), a["lat"].to_numpy(dtype=float))
            )
            for rec, geom in zip(a.itertuples(index=False), ageom, strict=True):
                feats.append(
                    _feature(
                        geom,
                        {
                            "layer": "access",
                            "parcel": ids[int(rec.parcel)],
                            "status": rec.status,
                            "type": _text(rec.type),
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

        for p in d["parcels"]:
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


def _json_lines(items: list[dict[str, Any]]) -> bytes | memoryview:
    """``items`` as JSON objects separated by ``,`` and a new line (indented by two).

    One orjson call for the whole list, split where one item ends and the next begins, is
    several times faster than one call per item (100,000 small ``bytes`` objects). An item's
    first key is the split mark: ``},{"key":`` cannot occur inside a JSON string (its quotes are
    escaped there), and where a nested object starts with the same key, the count tells and each
    item is written on its own.

    >>> bytes(_json_lines([{"id": "a", "x": [{"y": 1}, {"y": 2}]}, {"id": "b"}]))
    b'{"id":"a","x":[{"y":1},{"y":2}]},\\n  {"id":"b"}'
    >>> bytes(_json_lines([{"id": "a", "x": [{"id": 1}, {"id": 2}]}, {"id": "b"}]))
    b'{"id":"a","x":[{"id":1},{"id":2}]},\\n  {"id":"b"}'
    """
    if not items:
        return b""
    first = next(iter(items[0]), None)
    if first is not None and all(next(iter(x), None) == first for x in items):
        whole = orjson.dumps(items)
        key = orjson.dumps(first) + b":"
        lines = whole.replace(b"},{" + key, b"},\n  {" + key)
        if len(lines) - len(whole) == 3 * (len(items) - 1):  # one break between each two
            return memoryview(lines)[1:-1]
    return b",\n  ".join(map(orjson.dumps, items))


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
        + orjson.dumps(props).decode()
        + "}"
    )
