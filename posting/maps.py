"""The officer's map: a self-contained HTML map of a :class:`~posting.report.Report`.

Rendered with folium, and it works offline. folium's default page loads Leaflet, jQuery,
Bootstrap and Font Awesome from the internet; this map loads nothing. Leaflet's script, style
sheet and images are read at run time from the installed ``XStatic-Leaflet`` package and written
into the page (images as ``data:`` URIs), with this package's own ``static/map.js`` and
``static/map.css``. folium's other defaults are left out because nothing drawn here uses them
(no folium ``Popup``, ``Icon`` or ``Marker``: popups are built by ``map.js``). Background tiles
are the one resource from the network; when they cannot load the map is just plainer, and
``tiles=False`` (``--no-tiles``) leaves them out.

Nothing here measures. Every figure comes from the Report (its JSON dict and its tables); the
outlines come from :meth:`Report.display_geometry <posting.report.Report.display_geometry>`,
simplified in working feet and rounded for display only.

Text from input files (ids, owners, sign attributes, file names) is put into the page as JSON
with ``<``, ``>`` and ``&`` escaped, and ``map.js`` sets it as text (``textContent``), never as
HTML: an owner named ``<script>...`` or ``<img onerror=...>`` shows as those characters.

Layers (each toggleable, drawn only when the Report has something for it):

* parcels, one layer per status (compliant, noncompliant, uncertain, unposted, exempt);
  an unposted parcel's whole outline is drawn as a gap, since no part of it is posted;
* markers (signs, paint marks) with their input attributes, assigned or not;
* gaps over the limit (and within the survey accuracy of it, and unmarked rings) of parcels
  that have markers, as thick lines labelled with their length;
* corners without a marker (or only within the survey accuracy) of parcels that have markers;
* what other parts of the Report may carry (read when present, skipped when absent): missing
  access points (parcel key ``missing_access``: ``[lon, lat]`` pairs), water-formed boundary
  stretches (a ``water`` table on the Report: ``parcel``, ``length_ft`` and a WGS 84
  ``geometry``; and a parcel's ``water_frontage_ft``), exemptions (parcel key ``exemption``)
  and merged properties (parcel key ``source_ids``); markers to add, given to
  :func:`render_map` as ``planned``.
"""

from __future__ import annotations

import base64
import html
import json
import math
import re
from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import folium
import numpy as np
import pandas as pd
import shapely
from branca.element import Element, MacroElement
from folium.template import Template
from folium.utilities import JsCode

from posting.draw import display_geometry, extent_lonlat, gap_lines
from posting.errors import python_name
from posting.records import DISPLAY_DECIMALS, marker_why
from posting.render import register
from posting.report import Report

__all__ = [
    "CANVAS_FROM",
    "LABEL_LIMIT",
    "SIMPLIFY_FT",
    "STATUS_COLORS",
    "offline_assets",
    "render_map",
    "to_html",
]

SIMPLIFY_FT = 1.0
"""Display simplification tolerance: a foot is well under any sign survey's accuracy (a phone
is good to about 16 ft, mapping-grade GNSS to 3 ft) and about a screen pixel at the closest
tile zoom. Measurement always uses the full geometry."""

LABEL_LIMIT = 300
"""Parcel ids and gap lengths are written on the map up to this many features of a kind; past
it they show on hover, so a county-sized map stays light."""

CANVAS_FROM = 1000
"""Draw on one canvas instead of an SVG element per feature from this many features on: a
county of polygons pans smoothly that way."""

STATUS_COLORS = {
    "compliant": "#1a9641",
    "noncompliant": "#d7191c",
    "uncertain": "#f08c00",
    "unposted": "#6a3d9a",
    "exempt": "#2c7bb6",
}
GAP_COLORS = {"over": "#e0006b", "unmarked": "#e0006b", "uncertain": "#f08c00"}
CORNER_COLORS = {"missing": "#e0006b", "uncertain": "#f08c00"}
MARKER_COLORS = {"assigned": "#111111", "unassigned": "#8c8c8c"}
ACCESS_COLOR = "#ff7f00"
WATER_COLOR = "#0571b0"
MERGED_COLOR = "#00a0a0"
PLANNED_COLOR = "#1f78b4"

_STATUS_LAYERS = ("noncompliant", "uncertain", "unposted", "exempt", "compliant")
_STATUS_WORDS = {
    "compliant": "Compliant",
    "noncompliant": "Noncompliant",
    "uncertain": "Uncertain",
    "unposted": "Unposted",
    "exempt": "Exempt",
}


# -- offline assets ---------------------------------------------------------------------------
def _leaflet_dir() -> Path:
    import xstatic.pkg.leaflet as xs_leaflet

    return Path(xs_leaflet.BASE_DIR)


def _data_uri(path: Path) -> str:
    mime = {".png": "image/png", ".svg": "image/svg+xml"}[path.suffix.lower()]
    return f"data:{mime};base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def _no_closing_tag(text: str, tag: str, what: str) -> str:
    if f"</{tag}" in text.lower():  # pragma: no cover - a packaging change we must notice
        raise RuntimeError(f"{what} contains '</{tag}': it cannot be inlined as is")
    return text


@lru_cache(maxsize=1)
def offline_assets() -> tuple[str, str]:
    """The style sheet and script the page needs, every byte inline.

    Returns
    -------
    css, js
        Leaflet's style sheet (its images as ``data:`` URIs) followed by ``map.css``; Leaflet's
        script (without its source-map comment) followed by ``map.js``.
    """
    base = _leaflet_dir()
    css = (base / "leaflet.css").read_text(encoding="utf-8")
    css = re.sub(
        r"url\(\s*['\"]?(images/[^)'\"]+)['\"]?\s*\)",
        lambda m: f'url("{_data_uri(base / m.group(1))}")',
        css,
    )
    js = (base / "leaflet.js").read_text(encoding="utf-8")
    js = re.sub(r"\s*//# sourceMappingURL=\S*\s*$", "\n", js)
    static = resources.files("posting") / "static"
    css += "\n" + (static / "map.css").read_text(encoding="utf-8")
    js += "\n" + (static / "map.js").read_text(encoding="utf-8")
    return (
        _no_closing_tag(css, "style", "the map style sheet"),
        _no_closing_tag(js, "script", "the map script"),
    )


class _Raw(Element):
    """Markup written into the page as is (our own, already safe)."""

    def __init__(self, markup: str) -> None:
        super().__init__()
        self._markup = markup

    def render(self, **kwargs: Any) -> str:
        return self._markup


def _script_json(obj: Any) -> str:
    """JSON that is safe inside ``<script>``: ``<``, ``>``, ``&`` and line separators escaped."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return _script_safe(text)


def _script_safe(text: str) -> str:
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


# -- map elements ------------------------------------------------------------------------------
class _Setup(MacroElement):
    """Title, zoom, search, scale bar and legend: ``posting.setup(map, context)``."""

    _template = Template(
        """
        {% macro script(this, kwargs) %}
        posting.setup({{ this._parent.get_name() }}, {{ this.context }});
        {% endmacro %}
        """
    )

    def __init__(self, context: dict[str, Any]) -> None:
        super().__init__()
        self._name = "PostingSetup"
        self.context = _script_json(context)


class ReportLayer(folium.map.Layer):
    """One toggleable layer of the map: features drawn and explained by ``map.js``.

    Parameters
    ----------
    kind
        How ``map.js`` draws and explains the features: ``parcels``, ``merged``, ``gaps``,
        ``corners``, ``markers``, ``access`` or ``water``.
    features
        GeoJSON Feature texts (WGS 84).
    name
        The layer's name in the layer control (our own markup, not input text).
    show
        Whether the layer is on when the map opens.
    """

    _template = Template(
        """
        {% macro script(this, kwargs) %}
        var {{ this.get_name() }} = posting.layer({{ this.kind|tojson }}, {{ this.data }});
        {% endmacro %}
        """
    )

    def __init__(self, kind: str, features: list[str], name: str, *, show: bool = True) -> None:
        super().__init__(name=name, overlay=True, control=True, show=show)
        self._name = "ReportLayer"
        self.kind = kind
        self.count = len(features)
        self.data = _script_safe(
            '{"type":"FeatureCollection","features":[' + ",".join(features) + "]}"
        )


# -- features from the Report ----------------------------------------------------------------
def _feature(geometry: str, props: dict[str, Any]) -> str:
    props = {k: v for k, v in props.items() if v is not None}
    return (
        '{"type":"Feature","geometry":'
        + geometry
        + ',"properties":'
        + json.dumps(props, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        + "}"
    )


def _finite(x: Any) -> float | None:
    if x is None or x is pd.NA:
        return None
    x = float(x)
    return round(x, 2) if math.isfinite(x) else None


def _text(x: Any) -> str | None:
    if x is None or x is pd.NA or x is pd.NaT:
        return None
    if isinstance(x, float) and math.isnan(x):
        return None
    s = str(x).strip()
    return s or None


class _Clauses:
    """Statute clauses numbered once per map (a county repeats the same few thousands of times)."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def __call__(self, clause: Any) -> int | None:
        if clause is None:
            return None
        return self.index.setdefault(str(clause), len(self.index))

    @property
    def table(self) -> list[str]:
        return list(self.index)


def _findings(items: list[dict[str, Any]], clauses: _Clauses) -> list[list[Any]] | None:
    """Findings as ``[rule, clause number, message, measured, limit, unit]``."""
    out = [
        [
            it.get("rule"),
            clauses(it.get("clause")),
            it.get("message"),
            it.get("measured"),
            it.get("limit"),
            it.get("unit"),
        ]
        for it in items
    ]
    return out or None


def _geojson(geoms: np.ndarray, decimals: int = DISPLAY_DECIMALS) -> list[str | None]:
    """GeoJSON geometry text per geometry (None stays None), coordinates rounded."""
    geoms = np.asarray(geoms, dtype=object)
    out = np.full(len(geoms), None, dtype=object)
    ok = ~pd.isna(geoms)
    if ok.any():
        ok[ok] = ~shapely.is_empty(geoms[ok])
    if ok.any():
        rounded = shapely.set_precision(geoms[ok], 10.0**-decimals, mode="pointwise")
        out[ok] = shapely.to_geojson(rounded)
    return out.tolist()


def _points(lon: np.ndarray, lat: np.ndarray) -> list[str | None]:
    lon = np.asarray(lon, dtype=float)
    lat = np.asarray(lat, dtype=float)
    ok = np.isfinite(lon) & np.isfinite(lat)
    geoms = np.full(len(lon), None, dtype=object)
    geoms[ok] = shapely.points(lon[ok], lat[ok])
    return _geojson(geoms)


def _ft(x: float) -> str:
    return f"{x:,.0f} ft" if float(x).is_integer() else f"{x:,.1f} ft"


def _swatch(shape: str, color: str, dashed: bool = False) -> str:
    return (
        f'<span class="posting-swatch posting-swatch-{shape}{" posting-dashed" if dashed else ""}"'
        f' style="--c:{html.escape(color)}"></span>'
    )


class _MapBuilder:
    """Collects the map's layers and context from one Report."""

    def __init__(self, report: Report, simplify_ft: float, name: Callable[[str], str]) -> None:
        self.report = report
        self.d = report.to_dict(name)
        self.rules = self.d["rules"]
        self.parcels = self.d["parcels"]
        self.status = np.asarray([p["status"] for p in self.parcels], dtype=object)
        self.ids = np.asarray([p["id"] for p in self.parcels], dtype=object)
        self.geoms = display_geometry(report, simplify_ft)
        self.layers: list[ReportLayer] = []
        self.clauses = _Clauses()
        self.legend: list[dict[str, Any]] = []
        spacing = report.findings[report.findings["rule"] == "spacing"]
        self.spacing_by_parcel = {
            int(p): (float(lim), str(cl))
            for p, lim, cl in zip(
                spacing["parcel"], spacing["limit"], spacing["clause"], strict=True
            )
            if pd.notna(lim)
        }
        corners = report.findings[report.findings["rule"] == "corners"]
        self.corner_clause = {
            int(p): str(c) for p, c in zip(corners["parcel"], corners["clause"], strict=True)
        }

    @property
    def spacing_ft(self) -> float | None:
        return self.rules.get("spacing_ft")

    def add(self, layer: ReportLayer, legend: dict[str, Any] | None = None) -> None:
        if layer.count:
            self.layers.append(layer)
            if legend:
                self.legend.append(legend)

    # parcels -------------------------------------------------------------------------------
    def parcel_props(self, i: int) -> dict[str, Any]:
        p = self.parcels[i]
        props: dict[str, Any] = {
            "id": p["id"],
            "owner": _text(p.get("owner")),
            "status": p["status"],
            "exemption": _text(p.get("exemption")),
            "area_acres": p.get("area_acres"),
            "perimeter_ft": p.get("perimeter_ft"),
            "signs": p.get("signs"),
            "max_gap_ft": p.get("max_gap_ft"),
            "corners": p.get("corners"),
            "missing_corners": len(p.get("missing_corners") or []) or None,
            "violations": _findings(p.get("violations") or [], self.clauses),
            "uncertain": _findings(p.get("uncertain") or [], self.clauses),
            "not_checked": _findings(p.get("not_checked") or [], self.clauses),
            "notes": _findings(p.get("notes") or [], self.clauses),
            "repaired": _text(p.get("repaired")),
            "duplicate_id": True if p.get("duplicate_id") else None,
            "water_frontage_ft": p.get("water_frontage_ft") or None,
            "missing_access": len(p.get("missing_access") or []) or None,
        }
        src = p.get("source_ids")
        if src and len(src) > 1:
            props["source_ids"] = [str(s) for s in src]
        return props

    def add_parcels(self) -> None:
        geo = _geojson(self.geoms)
        by_status: dict[str, list[str]] = {}
        merged: list[str] = []
        for i, g in enumerate(geo):
            if g is None:
                continue
            props = self.parcel_props(i)
            feat = _feature(g, props)
            by_status.setdefault(props["status"], []).append(feat)
            if "source_ids" in props:
                merged.append(feat)
        for status in _STATUS_LAYERS:
            feats = by_status.pop(status, [])
            color = STATUS_COLORS[status]
            word = _STATUS_WORDS[status]
            if status == "unposted":
                label = f"{word}: no marker at all, the whole boundary is a gap"
                swatch = _swatch("fill-gap", color)
            elif status == "exempt":
                label = f"{word} (the reason is in the popup)"
                swatch = _swatch("fill", color)
            else:
                label = word
                swatch = _swatch("fill", color)
            n = len(feats)
            self.add(
                ReportLayer("parcels", feats, f"{swatch} {word} parcels ({n:,})"),
                {
                    "shape": "fill-gap" if status == "unposted" else "fill",
                    "color": color,
                    "label": f"{label} ({n:,})",
                },
            )
        for status, feats in by_status.items():  # a status this map does not know yet
            self.add(
                ReportLayer("parcels", feats, f"{html.escape(status)} parcels ({len(feats):,})")
            )
        self.add(
            ReportLayer(
                "merged",
                merged,
                f"{_swatch('outline', MERGED_COLOR, True)} Merged properties ({len(merged):,})",
            ),
            {
                "shape": "outline",
                "color": MERGED_COLOR,
                "dashed": True,
                "label": "Property merged from one owner's adjoining parcels",
            },
        )

    # gaps ----------------------------------------------------------------------------------
    def add_gaps(self) -> None:
        r = self.report
        posted = self.status[r.gaps["parcel"].to_numpy(dtype=np.int64)] != "unposted"
        shown = (r.gaps["status"] != "ok").to_numpy() & posted
        g = r.gaps[shown]
        geo = _geojson(gap_lines(r)[shown])
        src = r.markers["source"].to_numpy()
        row = r.markers["row"].to_numpy()
        feats = []
        for rec, geom in zip(g.itertuples(index=False), geo, strict=True):
            if geom is None:
                continue
            limit, clause = self.spacing_by_parcel.get(
                int(rec.parcel), (self.spacing_ft, self.rules.get("citation"))
            )
            props = {
                "parcel": self.ids[rec.parcel],
                "status": rec.status,
                "length_ft": _finite(rec.length_ft),
                "straight_ft": _finite(rec.straight_ft),
                "measured_ft": _finite(rec.measured_ft),
                "limit_ft": _finite(limit),
                "clause": self.clauses(clause),
                "hole": int(rec.hole) or None,
                "part": int(rec.part) or None,
            }
            if rec.start_marker >= 0:
                props["from"] = [str(src[rec.start_marker]), int(row[rec.start_marker])]
                props["to"] = [str(src[rec.end_marker]), int(row[rec.end_marker])]
            feats.append(_feature(geom, props))
        limit = self.spacing_ft
        over = f"longer than {_ft(limit)}" if limit else "over the limit"
        self.add(
            ReportLayer(
                "gaps", feats, f"{_swatch('line', GAP_COLORS['over'])} Gaps {over} ({len(feats):,})"
            ),
            {
                "shape": "line",
                "color": GAP_COLORS["over"],
                "label": f"Gap {over}, or a ring with no marker (length on the line)",
            },
        )
        if (g["status"] == "uncertain").any():
            self.legend.append(
                {
                    "shape": "line",
                    "color": GAP_COLORS["uncertain"],
                    "dashed": True,
                    "label": "Gap within the stated survey accuracy of the limit",
                }
            )

    # corners -------------------------------------------------------------------------------
    def add_corners(self) -> None:
        r = self.report
        c = r.corners[r.corners["status"].isin(["missing", "uncertain"])]
        c = c[self.status[c["parcel"].to_numpy(dtype=np.int64)] != "unposted"]
        geo = _points(c["lon"], c["lat"])
        tol = r.settings.corner_tolerance_ft
        acc = r.settings.accuracy_ft
        feats = []
        for rec, geom in zip(c.itertuples(index=False), geo, strict=True):
            if geom is None:
                continue
            props = {
                "parcel": self.ids[rec.parcel],
                "status": rec.status,
                "turn_deg": _finite(rec.turn_deg),
                "nearest_ft": _finite(rec.nearest_ft),
                "neighbour_ft": _finite(rec.neighbour_ft),
                "limit_ft": _finite(tol),
                "accuracy_ft": _finite(acc) or None,
                "clause": self.clauses(
                    self.corner_clause.get(int(rec.parcel), self.rules.get("citation"))
                ),
            }
            feats.append(_feature(geom, props))
        self.add(
            ReportLayer(
                "corners",
                feats,
                f"{_swatch('ring', CORNER_COLORS['missing'])} Corners without a marker "
                f"({len(feats):,})",
            ),
            {
                "shape": "ring",
                "color": CORNER_COLORS["missing"],
                "label": f"Corner with no marker within {_ft(tol)}",
            },
        )
        if (c["status"] == "uncertain").any():
            self.legend.append(
                {
                    "shape": "ring",
                    "color": CORNER_COLORS["uncertain"],
                    "label": "Corner marked only within the stated survey accuracy",
                }
            )

    # markers -------------------------------------------------------------------------------
    def add_markers(self) -> None:
        m = self.report.markers
        geo = _points(m["lon"], m["lat"])
        attrs = self.report.marker_attributes
        records = attrs.to_dict("records") if len(attrs.columns) else [{}] * len(m)
        feats = []
        n_un = 0
        whys = marker_why(self.report)
        for rec, geom, a, why in zip(m.itertuples(index=False), geo, records, whys, strict=True):
            if geom is None:
                continue
            assigned = rec.parcel >= 0
            n_un += not assigned
            shown = {str(k): _text(v) for k, v in a.items()}
            props = {
                "source": str(rec.source),
                "row": int(rec.row),
                "parcel": rec.parcel_id if assigned else None,
                "why": _text(why),
                "assigned": bool(assigned),
                "attrs": [[k, v] for k, v in shown.items() if v is not None] or None,
            }
            feats.append(_feature(geom, props))
        self.add(
            ReportLayer(
                "markers",
                feats,
                f"{_swatch('dot', MARKER_COLORS['assigned'])} Markers ({len(feats):,})",
            ),
            {
                "shape": "dot",
                "color": MARKER_COLORS["assigned"],
                "label": "Marker (sign or paint mark)",
            },
        )
        if n_un:
            self.legend.append(
                {
                    "shape": "dot",
                    "color": MARKER_COLORS["unassigned"],
                    "label": f"Marker near no parcel boundary ({n_un:,})",
                }
            )

    # what other work adds to the Report ----------------------------------------------------
    def add_access(self) -> None:
        feats = []
        for i, p in enumerate(self.parcels):
            for lonlat in p.get("missing_access") or []:
                if lonlat is None or self.status[i] == "unposted":
                    continue
                [geom] = _points([lonlat[0]], [lonlat[1]])
                if geom is not None:
                    feats.append(_feature(geom, {"parcel": p["id"], "status": "missing"}))
        self.add(
            ReportLayer(
                "access",
                feats,
                f"{_swatch('square', ACCESS_COLOR)} Access points without a marker "
                f"({len(feats):,})",
            ),
            {
                "shape": "square",
                "color": ACCESS_COLOR,
                "label": "Access point (gate, road entrance) without a marker",
            },
        )

    def add_planned(self, planned: pd.DataFrame | None) -> None:
        """Markers to add (``posting plan``): ``lon``, ``lat``; every other column is shown."""
        if planned is None or not len(planned):
            return
        geo = _points(planned["lon"], planned["lat"])
        other = [c for c in planned.columns if c not in ("lon", "lat", "geometry")]
        records = planned[other].to_dict("records")
        feats = []
        for geom, rec in zip(geo, records, strict=True):
            if geom is None:
                continue
            attrs = [[str(k), t] for k, v in rec.items() if (t := _text(v)) is not None]
            feats.append(_feature(geom, {"attrs": attrs or None}))
        self.add(
            ReportLayer(
                "planned",
                feats,
                f"{_swatch('square', PLANNED_COLOR)} Markers to add ({len(feats):,})",
            ),
            {"shape": "square", "color": PLANNED_COLOR, "label": "Marker to add (the plan)"},
        )

    def add_water(self) -> None:
        water = getattr(self.report, "water", None)
        if not isinstance(water, pd.DataFrame) or not len(water) or "geometry" not in water:
            return
        geo = _geojson(water["geometry"].to_numpy())
        parcel = water["parcel"].to_numpy(dtype=np.int64) if "parcel" in water else None
        length = water["length_ft"].to_numpy(dtype=float) if "length_ft" in water else None
        feats = []
        for k, geom in enumerate(geo):
            if geom is None:
                continue
            props = {
                "parcel": self.ids[parcel[k]] if parcel is not None and parcel[k] >= 0 else None,
                "length_ft": _finite(length[k]) if length is not None else None,
            }
            feats.append(_feature(geom, props))
        self.add(
            ReportLayer(
                "water",
                feats,
                f"{_swatch('line', WATER_COLOR)} Boundaries formed by water ({len(feats):,})",
            ),
            {"shape": "line", "color": WATER_COLOR, "label": "Boundary formed by water"},
        )

    # context -------------------------------------------------------------------------------
    def context(self, title: str | None) -> dict[str, Any]:
        d = self.d
        rules = self.rules
        jurisdiction = rules.get("jurisdiction") or rules.get("title") or rules.get("name")
        generated = d.get("generated") or ""
        when = generated.replace("T", " ").replace("+00:00", " UTC")
        off_parcels = [
            {"id": p["id"], "status": p["status"], "reason": p.get("invalid_reason")}
            for p, g in zip(self.parcels, self.geoms, strict=True)
            if g is None
        ]
        off_signs = [
            {"source": s["source"], "row": s["row"], "reason": s["reason"]}
            for s in d["unassigned_signs"]
            if s["lon"] is None or s["lat"] is None
        ]
        drawn_ids = list(
            dict.fromkeys(
                str(p["id"]) for p, g in zip(self.parcels, self.geoms, strict=True) if g is not None
            )
        )
        rule_bits = []
        if rules.get("spacing_ft"):
            how = {"along_boundary": "along the boundary", "straight": "in a straight line"}.get(
                rules.get("spacing_metric", ""), "apart"
            )
            rule_bits.append(f"markers not more than {_ft(rules['spacing_ft'])} apart {how}")
        if rules.get("corners") == "at_corner":
            rule_bits.append("a marker at each corner")
        s = d["summary"]
        counts = [
            {"status": k, "n": v, "color": STATUS_COLORS.get(k, "#999999")}
            for k, v in s["status"].items()
            if v
        ]
        return {
            "title": title or f"{jurisdiction}: is this land posted?",
            "citation": rules.get("citation"),
            "rule_title": rules.get("title"),
            "rule_text": "; ".join(rule_bits),
            "verification": rules.get("verification"),
            "checked": when,
            "crs": d.get("crs"),
            "accuracy_ft": d["settings"].get("accuracy_ft"),
            "counts": counts,
            "parcels": s["parcels"],
            "markers": [s["markers_read"], s["markers_assigned"], s["markers_unassigned"]],
            "legend": self.legend,
            "clauses": self.clauses.table,
            "colors": {
                "status": STATUS_COLORS,
                "gap": GAP_COLORS,
                "corner": CORNER_COLORS,
                "marker": MARKER_COLORS,
                "access": ACCESS_COLOR,
                "water": WATER_COLOR,
                "merged": MERGED_COLOR,
                "planned": PLANNED_COLOR,
            },
            "labels": {
                "parcels": sum(1 for g in self.geoms if g is not None) <= LABEL_LIMIT,
                "gaps": True,
            },
            "ids": drawn_ids,
            "off_map": {"parcels": off_parcels, "signs": off_signs},
            "not_checked": d.get("not_checked") or [],
            "warnings": d.get("warnings") or [],
        }


def render_map(
    report: Report,
    *,
    tiles: bool = True,
    title: str | None = None,
    simplify_ft: float = SIMPLIFY_FT,
    planned: pd.DataFrame | None = None,
    name: Callable[[str], str] = python_name,
) -> folium.Map:
    """The Report as a folium map that works offline.

    Parameters
    ----------
    report
        From :func:`posting.check`.
    tiles
        Add OpenStreetMap background tiles (they load when the device is online; without them
        the map is plainer and nothing else changes).
    title
        The title over the map (default: the jurisdiction and the question).
    simplify_ft
        Display simplification of parcel outlines, in feet (0: none). Never used to measure.
    planned
        Markers to add, one row each: ``lon`` and ``lat`` (WGS 84); every other column
        (parcel, role, facing, ...) is shown in its popup. Drawn as their own layer.

    Returns
    -------
    folium.Map
        Save it with ``.save(path)``, or show it in a notebook.
    """
    b = _MapBuilder(report, simplify_ft, name)
    b.add_parcels()
    b.add_water()
    b.add_gaps()
    b.add_corners()
    b.add_access()
    b.add_markers()
    b.add_planned(planned)
    ctx = b.context(title)
    drawn = sum(layer.count for layer in b.layers)
    m = folium.Map(
        location=None,
        tiles=None,
        zoom_control=False,
        control_scale=False,
        prefer_canvas=drawn >= CANVAS_FROM,
        max_zoom=22,
        zoom_snap=0.25,
    )
    m.default_js = []
    m.default_css = []
    fig = m.get_root()
    fig.title = html.escape(ctx["title"])
    css, js = offline_assets()
    fig.header.add_child(_Raw(f"<style>{css}</style>"), name="posting_css")
    fig.header.add_child(_Raw(f"<script>{js}</script>"), name="posting_js")
    if tiles:
        folium.TileLayer(
            "OpenStreetMap",
            name="Background map (online only)",
            overlay=True,
            max_native_zoom=19,
            max_zoom=22,
        ).add_to(m)
    m.add_child(_Setup(ctx))
    for layer in b.layers:
        m.add_child(layer)
    # the list of layers stays open on a laptop, folds into a button on a phone
    folium.LayerControl(position="topright", collapsed=JsCode("window.innerWidth < 700")).add_to(m)
    extent = extent_lonlat(report)
    if extent is not None:
        w, s, e, n = extent
        m.fit_bounds([[s, w], [n, e]], padding=(20, 20), max_zoom=19)
    return m


@register("map", "report", (".html", ".htm"), "the officer's map (HTML, works offline)")
def to_html(report: Report, **kwargs: Any) -> str:
    """The map as one self-contained HTML page (see :func:`render_map` for the options)."""
    return render_map(report, **kwargs).get_root().render()
