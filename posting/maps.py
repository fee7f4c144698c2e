"""The officer's map: a self-contained HTML map of a :class:`~posting.report.Report`.

Rendered with folium, and it works offline, opened from a phone's files as well as on a laptop.
folium's default page loads Leaflet, jQuery, Bootstrap and Font Awesome from the internet; this
map loads nothing. Leaflet's script, style sheet and images are read at run time from the
installed ``XStatic-Leaflet`` package and written into the page (images as ``data:`` URIs),
with this package's own ``static/map.js`` and ``static/map.css``. Background tiles are the one
resource from the network; when they cannot load the map is just plainer, and ``tiles=False``
(``--no-tiles``) leaves them out.

Nothing here measures. Every figure comes from the Report's tables and metadata; the outlines
come from :meth:`Report.display_geometry <posting.report.Report.display_geometry>`, simplified
in working feet and rounded for display only. The words the map shows for statuses, rules and
verdicts are defined here, once, and passed to ``map.js`` with the data.

**Light at county size.** Each layer's data is a table of columns, not a GeoJSON feature per
row: coordinates are integers in millionths of a degree (the display precision), each the
difference from the one before; repeated texts (statuses, clauses, file names, owners, sign
attributes) are written once and referred to by number; a parcel's facts are written once
however many layers draw it. ``map.js`` draws every feature on one canvas from
:data:`CANVAS_FROM` features on, opens one popup at a time for a whole layer, and writes gap
lengths and parcel ids only where they fit at the current zoom, never one over another.

Text from input files (ids, owners, sign attributes, file names) is put into the page as JSON
with ``<``, ``>`` and ``&`` escaped, and ``map.js`` sets it as text (``textContent``), never as
HTML: an owner named ``<script>...`` or ``<img onerror=...>`` shows as those characters.

Layers (each toggleable, drawn only when the Report has something for it):

* parcels, one layer per status (compliant, noncompliant, uncertain, unposted, exempt); an
  unposted parcel's whole outline is drawn as a gap, since no part of it is posted;
* merged properties (several input parcels of one owner checked as one);
* gaps over the limit (and those that may be over it, and unmarked rings) of parcels
  that have markers, as thick lines labelled with their length;
* corners and access points without a marker (or only within the survey accuracy) of parcels
  that have markers;
* boundary stretches formed by water, inside easements, and not fenced (the ``water``,
  ``easements`` and ``fence_gaps`` tables);
* markers (signs, paint marks) with their input attributes, assigned or not;
* markers to add, given to :func:`render_map` as ``planned`` (``posting plan --map``).

"You are here" (a button) uses the device's own position (the browser's geolocation, a phone's
GPS works offline); the page computes, in the browser, the parcel the position is in, its status,
and the distance and direction to the nearest planned marker (on a plan's map) or the nearest
gap or corner without a marker. Nothing is sent anywhere.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import folium
import numpy as np
import orjson
import pandas as pd
import shapely
from branca.element import Element, MacroElement
from folium.elements import ElementAddToElement
from folium.template import Template
from folium.utilities import JsCode

from posting.draw import display_geometry, extent_lonlat, gap_lines, shown_controls
from posting.errors import python_name, worded
from posting.records import (
    DISPLAY_DECIMALS,
    HOW_TEXT,
    finding_figures,
    gap_figures,
    max_gap_verdicts,
    point_figures,
)
from posting.render import register
from posting.report import Report
from posting.verdict import STATUSES

__all__ = [
    "CANVAS_FROM",
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

CANVAS_FROM = 1000
"""Draw on one canvas instead of an SVG element per feature from this many features on: a
county of parcels and signs opens and pans smoothly that way."""

SCALE = 10**DISPLAY_DECIMALS
"""Coordinates go into the page as integers in this fraction of a degree."""

STATUS_COLORS = {
    "compliant": "#1a9641",
    "noncompliant": "#d7191c",
    "uncertain": "#f08c00",
    "unposted": "#6a3d9a",
    "exempt": "#2c7bb6",
    "invalid": "#999999",
}
GAP_COLORS = {"over": "#e0006b", "unmarked": "#e0006b", "uncertain": "#f08c00"}
CORNER_COLORS = {"missing": "#e0006b", "uncertain": "#f08c00"}
MARKER_COLORS = {"assigned": "#111111", "unassigned": "#8c8c8c", "uncounted": "#ffffff"}
"""Marker dots' fill: assigned, near no boundary, and assigned but of no marker kind (a
monument in a surveyor's point file: a hollow dot)."""
ACCESS_COLOR = "#ff7f00"
WATER_COLOR = "#0571b0"
EASEMENT_COLOR = "#8c510a"
FENCE_COLOR = "#7a7a7a"
MERGED_COLOR = "#00a0a0"
PLANNED_COLOR = "#1f78b4"
HERE_COLOR = "#0066ff"

STATUS_WORDS = {
    "compliant": ("Compliant", "Compliant: posted as the rule requires"),
    "noncompliant": ("Noncompliant", "Noncompliant: posted, but not as the rule requires"),
    "uncertain": (
        "Uncertain",
        "Uncertain: a figure is within the stated survey accuracy of its limit, or the data "
        "cannot show whether a rule applies",
    ),
    "unposted": ("Unposted", "Unposted: no marker at all"),
    "exempt": ("Exempt", "Exempt: the land needs no posting"),
    "invalid": ("Invalid", "Invalid: no usable geometry"),
}
"""Each status: its word and the sentence a popup shows."""

RULE_WORDS = {
    "spacing": "Spacing",
    "corners": "Corners",
    "access": "Access points",
    "water": "Water boundary",
    "letter_height": "Letter height",
    "sign_text": "Words on the sign",
    "name_on_sign": "Name on the sign",
    "address_on_sign": "Address on the sign",
    "phone_on_sign": "Phone number on the sign",
    "sign_size": "Sign size",
    "statement_size": "Size of the statement",
    "paint_color": "Paint colour",
    "paint_area": "Size of the paint mark",
    "paint_height": "Height of the paint mark",
    "post_color": "Colour of the post top",
    "post_height": "Height of the painted post top",
    "facing": "Facing",
    "renewal": "Renewal",
    "public_notice": "Notice of hours",
    "visibility": "Visibility",
    "landcover": "Land cover",
    "fence": "Fence",
    "cultivation": "Cultivation",
    "dwelling": "Dwelling exemption",
}
"""What a popup calls each rule (a rule not named here shows its name, spaced)."""

LEVEL_WORDS = {
    "violation": "Violations",
    "uncertain": "Uncertain",
    "not_checked": "Not checked",
    "note": "Notes",
}
LEVEL_WORDS_NOT_FAILED = {"violation": "Findings"}
"""The headings that differ on a parcel whose verdict is not a failing one (uncertain, exempt,
compliant): its violation-level findings (a gap over the limit if the markers on a shared line
post the neighbour) are not violations of the law, and are not headed so."""
GAP_FIGURE_WORDS = {
    "straight": ("straight", "in a straight line"),
    "water": ("less water", "along the boundary, less the stretch formed by water"),
}
"""Which figure of a gap its rule judged, where it is not the length along the boundary: the
word on its label and the words in its popup (:func:`_gap_figure_kinds`)."""
GAP_WORDS = {
    "over": "longer than the limit",
    "unmarked": "no marker on this whole ring",
    "uncertain": "uncertain: it may be over the limit, and the data cannot settle it",
}
"""A gap's verdict in its popup. An uncertain gap is not always a close call on the survey's
accuracy: the land's elevation (not given), its cover (the limit on forest land differs) or a
marker that stands as near both sides of a corner can leave it so; the popup quotes the
parcel's own finding for why."""
CORNER_WORDS = {
    "missing": "Corner without a marker",
    "uncertain": "Corner marked only within the survey accuracy",
}
ACCESS_WORDS = {
    "missing": "Access point without a marker",
    "uncertain": "Access point marked only within the survey accuracy",
}

_LAND_LIMIT_WORDS = (
    "not more than {lenient} on any land ({strict} on forest land)",
    "not more than {strict} on forest land, {lenient} on other land: the land cover is not known",
    "not more than {strict} on forest land, {lenient} on other land: the gap runs through both",
)
"""A gap's limit where it is one of two by land cover and which one is not settled
(:meth:`_MapBuilder._gap_limits`): over both, or between them for want of the land cover, or
for a gap on both covers."""

_STATUS_LAYERS = ("noncompliant", "uncertain", "unposted", "exempt", "compliant")
_SHOWN = ("over", "unmarked", "uncertain")


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


def _render_as_is(element: MacroElement, kwargs: dict[str, Any]) -> None:
    """What ``MacroElement.render`` does, each rendered part put into the page as it is
    (:class:`_Raw`).

    branca makes each part the template of a new ``Element``, compiled by jinja2: text in a
    layer's data would be template code (an owner named ``ACME {{ 7*7 }} LLC`` came out as
    ``ACME 49 LLC``, one with ``{%`` stopped the map with a TemplateSyntaxError), and a county
    of real shapes spent 5.9 s compiling its 130 MB of data as a template.
    """
    figure = element.get_root()
    module = element._template.module.__dict__
    places = {"header": figure.header, "html": figure.html, "script": figure.script}
    for part, where in places.items():
        macro = module.get(part)
        if macro is not None:
            where.add_child(_Raw(macro(element, kwargs)), name=element.get_name())
    for child in element._children.values():
        child.render(**kwargs)


def _script_json(obj: Any) -> str:
    """JSON that is safe inside ``<script>``: ``<``, ``>``, ``&`` and line separators escaped;
    and each invisible bidirectional control in a text written as its code point
    (:func:`posting.draw.shown_controls`), as the evidence pages show it: every text of the
    page (an id, an owner in a popup, a label, the Find list) in the order it is stored.

    >>> _script_json({"id": "P\u202e12", "tag": "</script>"})
    '{"id":"P[U+202E]12","tag":"\\\\u003c/script\\\\u003e"}'
    """
    text = shown_controls(orjson.dumps(obj, option=orjson.OPT_SERIALIZE_NUMPY).decode())
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


# -- map elements ------------------------------------------------------------------------------
class _Setup(MacroElement):
    """Title, controls, legend, "you are here" and the shared tables: ``posting.setup(...)``."""

    _template = Template(
        """
        {% macro script(this, kwargs) %}
        posting.setup({{ this._parent.get_name() }}, {{ this.context }}, {{ this.tables }});
        {% endmacro %}
        """
    )

    def __init__(self, context: dict[str, Any], tables: dict[str, Any]) -> None:
        super().__init__()
        self._name = "PostingSetup"
        self.context = _script_json(context)
        self.tables = _script_json(tables)

    def render(self, **kwargs: Any) -> None:
        _render_as_is(self, kwargs)


class _Ready(MacroElement):
    """After every layer and the layer list: search, buttons, legend, labels."""

    _template = Template(
        """
        {% macro script(this, kwargs) %}
        posting.ready();
        {% endmacro %}
        """
    )


class ReportLayer(folium.map.Layer):
    """One toggleable layer of the map: features drawn and explained by ``map.js``.

    Parameters
    ----------
    kind
        How ``map.js`` draws and explains the features: ``parcels``, ``merged``, ``gaps``,
        ``corners``, ``access``, ``markers``, ``planned``, ``water``, ``easements`` or
        ``fences``.
    data
        The layer's table: geometry (``xy``, ``n``) and columns, see :func:`_points` and
        :func:`_shapes`.
    count
        How many features it draws.
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

    def __init__(
        self, kind: str, data: dict[str, Any], count: int, name: str, *, show: bool = True
    ) -> None:
        super().__init__(name=name, overlay=True, control=True, show=show)
        self._name = "ReportLayer"
        self.kind = kind
        self.count = count
        self.data = _script_json(data)

    def render(self, **kwargs: Any) -> None:
        # folium's Layer.render (a layer shown at first is added to the map), then its data as
        # it is (_render_as_is)
        if self.show:
            self.add_child(
                ElementAddToElement(
                    element_name=self.get_name(), element_parent_name=self._parent.get_name()
                ),
                name=self.get_name() + "_add",
            )
        _render_as_is(self, kwargs)


# -- columns and geometry, compactly ---------------------------------------------------------
def _deltas(q: np.ndarray) -> np.ndarray:
    """Integers as differences from the one before (the first from 0), flattened."""
    flat = np.asarray(q, dtype=np.int64).reshape(-1, *np.shape(q)[1:])
    return np.diff(flat, axis=0, prepend=np.zeros((1, *flat.shape[1:]), dtype=np.int64)).ravel()


def _quantise(xy: np.ndarray, east_of_180: bool = False) -> np.ndarray:
    """Longitude, latitude pairs as integers in :data:`SCALE`; west longitudes as east of 180
    (``lon + 360``) on a map of land on both sides of the antimeridian, which Leaflet then
    draws side by side."""
    xy = np.array(xy, dtype=float).reshape(-1, 2)
    if east_of_180:
        xy[:, 0] = np.where(xy[:, 0] < 0, xy[:, 0] + 360, xy[:, 0])
    return np.rint(xy * SCALE).astype(np.int64)


def _points(lon: Any, lat: Any, east_of_180: bool = False) -> tuple[dict[str, Any], np.ndarray]:
    """Points as ``{"xy": [dx, dy, ...]}`` and which rows have a position."""
    lon = np.asarray(lon, dtype=float)
    lat = np.asarray(lat, dtype=float)
    ok = np.isfinite(lon) & np.isfinite(lat)
    xy = _quantise(np.column_stack([lon[ok], lat[ok]]), east_of_180)
    return {"xy": _deltas(xy)}, ok


def _shapes(geoms: np.ndarray, east_of_180: bool = False) -> tuple[dict[str, Any], np.ndarray]:
    """Lines or polygons (WGS 84) as coordinates and counts, and which rows are drawn.

    ``xy`` holds the coordinates (see :func:`_points`; a polygon's ring is not closed again),
    ``n`` the counts from the inside out: coordinates per ring or line, then rings per polygon
    and polygons per feature (polygons), or lines per feature (lines).
    """
    geoms = np.asarray(geoms, dtype=object)
    ok = ~pd.isna(geoms)
    if ok.any():
        ok[ok] = ~shapely.is_empty(geoms[ok])
    drawn = geoms[ok]
    polygonal = shapely.get_type_id(drawn) >= 3 if len(drawn) else np.zeros(0, bool)
    if len(drawn) and polygonal.any() != polygonal.all():  # pragma: no cover - mixed input
        raise ValueError("a layer of the map holds lines or polygons, not both")
    collections = shapely.get_type_id(drawn) == 7
    if collections.any():  # keep what can be drawn of a collection
        keep = 3 if polygonal.all() else 1
        for i in np.flatnonzero(collections):
            parts = shapely.get_parts(drawn[i])
            parts = parts[np.isin(shapely.get_type_id(parts), (keep, keep + 3))]
            drawn[i] = shapely.union_all(parts) if len(parts) else None
        good = ~pd.isna(drawn)
        ok[np.flatnonzero(ok)[~good]] = False
        drawn = drawn[good]
    if not len(drawn):
        return {"xy": [], "n": []}, ok
    _, coords, offsets = shapely.to_ragged_array(drawn)
    counts = [np.diff(o) for o in offsets]
    n_features = len(drawn)
    if len(counts) == 1 or (len(counts) == 2 and polygonal.all()):
        counts.append(np.ones(n_features, dtype=np.int64))  # one line / polygon per feature
    if polygonal.all():
        # rings are closed: leave out each one's last coordinate, which repeats its first
        ends = np.asarray(offsets[0][1:], dtype=np.int64) - 1
        keep = np.ones(len(coords), dtype=bool)
        keep[ends] = False
        coords = coords[keep]
        counts[0] = counts[0] - 1
    return {"xy": _deltas(_quantise(coords, east_of_180)), "n": counts}, ok


def _numbers(values: Any, decimals: int = 2) -> Any:
    """A numeric column: a list with null where missing, or None when all are missing."""
    a = np.asarray(pd.to_numeric(pd.Series(values), errors="coerce"), dtype=float)
    ok = np.isfinite(a)
    if not ok.any():
        return None
    r = np.round(a, decimals)
    if np.all(r[ok] == np.rint(r[ok])) and np.abs(r[ok]).max() < 2**53:
        out = np.rint(np.where(ok, r, 0)).astype(np.int64).astype(object)
    else:
        out = r.astype(object)
    out[~ok] = None
    return out.tolist()


def _max_gap(report: Report) -> np.ndarray:
    """Each parcel's largest gap as the popups' data holds it (to a hundredth, which they
    show to a tenth), each rounding on its verdict's side of its limit
    (:func:`posting.checks.shown`): a gap of 500.004 ft over 500 ft is "500.1 ft", not
    "500 ft"."""
    from posting.checks import shown

    mx = report.parcels["max_gap_ft"].to_numpy(dtype=float)
    verdict, limit = max_gap_verdicts(mx, report.gaps)
    return shown(np.round(shown(mx, 2, limit, verdict), 2), 1, limit, verdict)


def _gap_figure_kinds(gaps: pd.DataFrame) -> np.ndarray:
    """Which of a gap's figures its rule judged (``measured_ft``), where it is not the length
    along the boundary: ``straight`` (the straight line: ``metric = "straight"``, or
    ``either`` where it is the shorter), ``water`` (along the boundary less the stretch formed
    by water, which the rule leaves out); None for the length along the boundary.

    >>> g = pd.DataFrame({"length_ft": [800.0, 800.0, 800.0, 800.0],
    ...                   "straight_ft": [565.7, 565.7, 800.0, np.nan],
    ...                   "measured_ft": [800.0, 565.7, 800.0, 700.0]})
    >>> _gap_figure_kinds(g).tolist()
    [None, 'straight', None, 'water']
    """
    along = gaps["length_ft"].to_numpy(dtype=float)
    straight = gaps["straight_ft"].to_numpy(dtype=float)
    measured = gaps["measured_ft"].to_numpy(dtype=float)
    other = np.isfinite(measured) & (measured != along)
    kind = np.full(len(gaps), None, dtype=object)
    kind[other] = np.where(measured[other] == straight[other], "straight", "water")
    return kind


def _ints(values: Any) -> dict[str, Any]:
    """Integers that mostly go up by small steps (rows, parcel numbers): their differences."""
    return {"d": _deltas(np.asarray(values, dtype=np.int64))}


def _texts(values: Any) -> Any:
    """A text column: each distinct text once (``k``) and a number per row (``c``, -1 for
    none); only the rows that have one (``s``, ``v``) when most have none; None when none has.
    """
    s = pd.Series(values, dtype=object)
    have = s.notna().to_numpy().copy()
    if have.any():
        s = s.where(~have, s.astype(str).str.strip())
        have &= (s != "").to_numpy()
    if not have.any():
        return None
    if have.sum() * 4 < len(s):
        idx = np.flatnonzero(have)
        return {"s": idx, "v": s.to_numpy()[idx].tolist()}
    codes, uniques = pd.factorize(s.where(pd.Series(have, index=s.index)))
    if len(uniques) * 2 > len(s):
        return s.where(pd.Series(have, index=s.index), None).tolist()
    return {"k": [str(u) for u in uniques], "c": codes}


def _flags(values: Any) -> Any:
    """A column of a few true values: the rows that are true."""
    idx = np.flatnonzero(np.asarray(values, dtype=bool))
    return {"t": idx} if len(idx) else None


def _counts(parcel: Any, n: int) -> np.ndarray:
    return np.bincount(np.asarray(parcel, dtype=np.int64), minlength=n)[:n]


class _Clauses:
    """Statute clauses numbered once per map (a county repeats the same few thousands of times)."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def codes(self, values: Any) -> np.ndarray:
        """Each value's number in :attr:`table` (-1 where there is none)."""
        codes, uniques = pd.factorize(pd.Series(values, dtype=object))
        number = [self.index.setdefault(str(u), len(self.index)) for u in uniques]
        return np.asarray([*number, -1], dtype=np.int64)[codes]

    @property
    def table(self) -> list[str]:
        return list(self.index)


def _ft(x: float) -> str:
    return f"{x:,.0f} ft" if float(x).is_integer() else f"{x:,.1f} ft"


def _by_status(*parts: tuple[str, int]) -> str:
    """A layer's name from what it holds of each status, those it has: "Gaps longer than
    500 ft (1), rings with no marker (1)"."""
    text = ", ".join(f"{words} ({int(k):,})" for words, k in parts if k)
    return text[:1].upper() + text[1:]


def _tenths(x: float) -> str | None:
    """A number to a tenth, grouped by thousands, no trailing ".0" (None when missing)."""
    if not np.isfinite(x):
        return None
    s = f"{x:,.1f}"
    return s[:-2] if s.endswith(".0") else s


def _swatch(shape: str, color: str, dashed: bool = False) -> str:
    return (
        f'<span class="posting-swatch posting-swatch-{shape}{" posting-dashed" if dashed else ""}"'
        f' style="--c:{html.escape(color)}"></span>'
    )


def _compact(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


class _MapBuilder:
    """Collects the map's layers, shared tables and context from one Report."""

    def __init__(
        self, report: Report, simplify_ft: float, name: Callable[[str], str] = python_name
    ) -> None:
        self.report = report
        self.name = name
        self.parcels = report.parcels
        self.n = len(report.parcels)
        self.status = report.parcels["status"].to_numpy(dtype=object)
        self.geoms = display_geometry(report, simplify_ft)
        self.extent = extent_lonlat(report)
        # land on both sides of the antimeridian: drawn side by side, east of 180
        self.east_of_180 = self.extent is not None and self.extent[2] > 180
        self.layers: list[ReportLayer] = []
        self.clauses = _Clauses()
        self.legend: list[dict[str, Any]] = []
        self.profiles = {p.name: p.summary() for p in report.profiles}
        self.first = report.profiles[0].summary()
        # the clause each parcel's spacing, corner and access findings cite, else the one its
        # profile gives for the rule, else the profile's citation
        f = report.findings
        judged_by = self.parcels["rules"].to_numpy(dtype=object)
        self.rule_clause: dict[str, np.ndarray] = {}
        for rule in ("spacing", "corners", "access"):
            by_profile = {
                name: (s.get("rules", {}).get(rule) or {}).get("clause") or s.get("citation")
                for name, s in self.profiles.items()
            }
            default = next(iter(by_profile.values()))
            clause = pd.Series(judged_by, dtype=object).map(by_profile).fillna(default)
            clause = clause.to_numpy(dtype=object)
            own = f[f["rule"] == rule].drop_duplicates("parcel")
            clause[own["parcel"].to_numpy(dtype=np.int64)] = own["clause"].to_numpy(dtype=object)
            self.rule_clause[rule] = clause

    def add(
        self,
        kind: str,
        data: dict[str, Any],
        count: int,
        name: str,
        legend: dict[str, Any] | None = None,
    ) -> None:
        if count:
            self.layers.append(ReportLayer(kind, data, count, name))
            if legend:
                self.legend.append(legend)

    # shared tables -----------------------------------------------------------------------
    def tables(self) -> dict[str, Any]:
        r, p, n = self.report, self.parcels, self.n
        corners = r.corners
        access = r.access
        cols: dict[str, Any] = {
            "id": p["id"].astype(str).tolist(),
            "owner": _texts(p["owner"]),
            "status": _texts(p["status"]),
            "rules": _texts(p["rules"]) if len(r.profiles) > 1 else None,
            "exemption": _texts(p["exemption"]) if "exemption" in p else None,
            "posted_by": _texts(p["posted_by"]) if "posted_by" in p else None,
            "area_acres": _numbers(p["area_acres"]),
            "perimeter_ft": _numbers(p["perimeter_ft"]),
            "signs": _numbers(p["signs"]),
            "max_gap_ft": _numbers(_max_gap(r)),
            "corners": _numbers(p["corners"]),
            "missing_corners": _numbers(
                _counts(corners.loc[corners["status"] == "missing", "parcel"], n)
            ),
            "missing_access": (
                _numbers(_counts(access.loc[access["status"] == "missing", "parcel"], n))
                if len(access)
                else None
            ),
            "repaired": _texts(p["repaired"]),
            "invalid_reason": _texts(p["invalid_reason"]),
            "duplicate_id": _flags(p["duplicate_id"]),
            "water_frontage_ft": (
                _numbers(p["water_frontage_ft"].where(p["water_frontage_ft"] > 0))
                if "water_frontage_ft" in p
                else None
            ),
            "easement_ft": (
                _numbers(p["easement_ft"].where(p["easement_ft"] > 0))
                if "easement_ft" in p
                else None
            ),
            "recorded_acres": _numbers(p["recorded_acres"]) if "recorded_acres" in p else None,
        }
        fg = r.fence_gaps
        if len(fg):
            unfenced = np.zeros(n)
            np.add.at(
                unfenced, fg["parcel"].to_numpy(dtype=np.int64), fg["length_ft"].to_numpy(float)
            )
            cols["unfenced_ft"] = _numbers(np.where(unfenced > 0, unfenced, np.nan))
        src = p["source_ids"].to_numpy(dtype=object) if "source_ids" in p else np.empty(0)
        several = np.array([s is not None and len(s) > 1 for s in src], dtype=bool)
        if several.any():  # (no lots merged, as without --merge-owner: no column)
            cols["source_ids"] = _texts(
                [", ".join(map(str, s)) if k else None for s, k in zip(src, several, strict=True)]
            )
            # each input parcel's own id, for the Find box (an officer holds a tax-roll number)
            rows = np.flatnonzero(several)
            if len(rows):
                cols["part_ids"] = {"s": rows, "v": [[str(x) for x in src[r]] for r in rows]}
        f = r.findings
        findings = {
            "parcel": _ints(f["parcel"]),
            "level": _texts(f["level"]),
            "rule": _texts(f["rule"]),
            "clause": self.clauses.codes(f["clause"].tolist()),
            "message": _texts(f["message"]),
            "measured": _numbers(finding_figures(f)),
            "limit": _numbers(f["limit"]),
            "unit": _texts(f["unit"]),
        }
        return {"parcels": _compact(cols), "findings": _compact(findings)}

    # parcels -------------------------------------------------------------------------------
    def add_parcels(self) -> None:
        has = ~pd.isna(self.geoms)
        label_at = np.full(self.n, None, dtype=object)
        if has.any():
            label_at[has] = shapely.point_on_surface(self.geoms[has])
        for status in (*_STATUS_LAYERS, *sorted(set(self.status) - {*_STATUS_LAYERS, "invalid"})):
            rows = np.flatnonzero((self.status == status) & has)
            if not len(rows):
                continue
            data, ok = _shapes(self.geoms[rows], self.east_of_180)
            rows = rows[ok]
            at = label_at[rows]
            data["rows"] = _ints(rows)
            data["at"] = _points(shapely.get_x(at), shapely.get_y(at), self.east_of_180)[0]["xy"]
            color = STATUS_COLORS.get(status, "#999999")
            word = STATUS_WORDS.get(status, (status.capitalize(), status))[0]
            n = len(rows)
            if status == "unposted":
                label = f"{word}: no marker at all, the whole boundary is a gap"
                shape = "fill-gap"
            elif status == "exempt":
                label = f"{word} (the reason is in the popup)"
                shape = "fill"
            else:
                label, shape = word, "fill"
            self.add(
                "parcels",
                data,
                n,
                f"{_swatch(shape, color)} {html.escape(word)} parcels ({n:,})",
                {"shape": shape, "color": color, "label": f"{label} ({n:,})"},
            )
        if "source_ids" in self.parcels:
            src = self.parcels["source_ids"].to_numpy(dtype=object)
            several = np.array([s is not None and len(s) > 1 for s in src], dtype=bool)
            rows = np.flatnonzero(several & has)
            self.add(
                "merged",
                {"rows": _ints(rows)},
                len(rows),
                f"{_swatch('outline', MERGED_COLOR, True)} Merged properties ({len(rows):,})",
                {
                    "shape": "outline",
                    "color": MERGED_COLOR,
                    "dashed": True,
                    "label": "Property merged from one owner's adjoining parcels",
                },
            )

    # gaps ----------------------------------------------------------------------------------
    def _gap_limits(
        self, sel: pd.DataFrame, parcel: np.ndarray, status: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """Each shown gap's limit as its parcel's spacing finding judged it, and the words of
        the limit where one figure would not say it (else None).

        A limit by land cover (Texas: 100 ft on forest land, 1,000 ft elsewhere) on a gap whose
        cover is unknown (``forest`` NaN) or runs through both (``forest`` known, the limit the
        stricter) leaves the gaps table's ``limit_ft`` at the stricter figure. Such a gap over
        the more lenient was judged against that one (the violation says "longer than
        1,000 ft"); one between the two is uncertain, and both figures hold: the map says them
        as the finding does, never "not more than 100 ft" alone."""
        limit = sel["limit_ft"].to_numpy(dtype=float).copy()
        strict = np.full(len(sel), np.nan)
        lenient = np.full(len(sel), np.nan)
        judged_by = self.parcels["rules"].to_numpy(dtype=object)[parcel]
        for p in self.report.profiles:
            rule = p.tables.get("spacing")
            if rule is None or not getattr(rule, "by_landcover", False):
                continue
            if rule.forest_ft == rule.other_ft:
                continue
            mine = judged_by == p.name
            strict[mine] = min(rule.forest_ft, rule.other_ft)
            lenient[mine] = max(rule.forest_ft, rule.other_ft)
        forest = sel["forest"].to_numpy(dtype=float) if "forest" in sel else np.full(len(sel), 1.0)
        unsure = np.isfinite(strict) & (forest != 1.0) & (limit == strict)
        if not unsure.any():
            return limit, None
        over_both = unsure & (status == "over")
        limit[over_both] = lenient[over_both]
        # the words, once per kind and pair of figures (a county's gaps share a few)
        kind = np.select(
            [over_both, unsure & (status == "uncertain") & np.isnan(forest), unsure],
            [0, 1, 2],
            -1,
        )
        worded = np.flatnonzero(kind >= 0)
        keys, which = np.unique(
            np.column_stack([kind[worded], strict[worded], lenient[worded]]),
            axis=0,
            return_inverse=True,
        )
        texts = [
            _LAND_LIMIT_WORDS[int(k)].format(strict=_ft(a), lenient=_ft(b)) for k, a, b in keys
        ]
        words = np.full(len(sel), None, dtype=object)
        words[worded] = np.asarray(texts, dtype=object)[np.asarray(which).ravel()]
        return limit, words

    def _gap_status(self, sel: pd.DataFrame, parcel: np.ndarray) -> np.ndarray:
        """Each shown gap's status as the map draws and words it: a gap over the limit of a
        parcel with no spacing violation is ``uncertain``, as its spacing finding is: a
        guidance layout's figure, which the law does not set (``standard = "guidance"``), or a
        rule that the data cannot show applies to the land (``[when]``). The gaps table keeps
        ``over``, the figure's verdict."""
        status = sel["status"].to_numpy(dtype=object).copy()
        f = self.report.findings
        failed = f["level"].eq("violation").to_numpy(dtype=bool) & f["rule"].eq("spacing").to_numpy(
            dtype=bool
        )
        violated = np.zeros(self.n, dtype=bool)
        violated[f["parcel"].to_numpy(dtype=np.int64)[failed]] = True
        status[(status == "over") & ~violated[parcel]] = "uncertain"
        return status

    def add_gaps(self) -> None:
        r = self.report
        g = r.gaps
        parcel = g["parcel"].to_numpy(dtype=np.int64)
        shown = g["status"].isin(_SHOWN).to_numpy() & (self.status[parcel] != "unposted")
        rows = np.flatnonzero(shown)
        data, ok = _shapes(gap_lines(r)[rows], self.east_of_180)
        rows = rows[ok]
        sel = g.iloc[rows]
        parcel = parcel[rows]
        status = self._gap_status(sel, parcel)
        limit_ft, limit_words = self._gap_limits(sel, parcel, sel["status"].to_numpy(dtype=object))
        judged = sel.assign(limit_ft=limit_ft)
        src = r.markers["source"].to_numpy(dtype=object)
        row = r.markers["row"].to_numpy(dtype=np.int64)
        sm = sel["start_marker"].to_numpy(dtype=np.int64)
        em = sel["end_marker"].to_numpy(dtype=np.int64)
        marked = sm >= 0
        ends = {
            "from_source": _texts(np.where(marked, src[np.where(marked, sm, 0)], None)),
            "from_row": _numbers(np.where(marked, row[np.where(marked, sm, 0)], np.nan)),
            "to_source": _texts(np.where(marked, src[np.where(marked, em, 0)], None)),
            "to_row": _numbers(np.where(marked, row[np.where(marked, em, 0)], np.nan)),
        }
        data.update(
            _compact(
                {
                    "parcel": _ints(parcel),
                    "status": _texts(status),
                    "length_ft": _numbers(gap_figures(judged, "length_ft")),
                    "straight_ft": _numbers(gap_figures(judged, "straight_ft")),
                    "measured_ft": _numbers(gap_figures(judged, "measured_ft")),
                    "figure": _texts(_gap_figure_kinds(sel)),
                    "limit_ft": _numbers(limit_ft),
                    "limit_words": _texts(limit_words) if limit_words is not None else None,
                    "clause": self.clauses.codes(self.rule_clause["spacing"][parcel]),
                    "hole": _numbers(np.where(sel["hole"] > 0, sel["hole"], np.nan)),
                    "part": _numbers(np.where(sel["part"] > 0, sel["part"], np.nan)),
                    **ends,
                }
            )
        )
        limit = self.first.get("spacing_ft")
        one = limit and len(self.report.profiles) == 1
        over = f"longer than {_ft(limit)}" if one else "over the limit"
        n = pd.Series(status).value_counts()
        self.add(
            "gaps",
            data,
            len(rows),
            f"{_swatch('line', GAP_COLORS['over'])} "
            + _by_status(
                (f"gaps {over}", n.get("over", 0)),
                ("rings with no marker", n.get("unmarked", 0)),
                (
                    f"gaps that may be over {_ft(limit) if one else 'the limit'}",
                    n.get("uncertain", 0),
                ),
            ),
        )
        if n.get("over", 0) or n.get("unmarked", 0):
            self.legend.append(
                {
                    "shape": "line",
                    "color": GAP_COLORS["over"],
                    "label": f"Gap {over}, or a ring with no marker (length on the line)",
                }
            )
        if n.get("uncertain", 0):
            self.legend.append(
                {
                    "shape": "line",
                    "color": GAP_COLORS["uncertain"],
                    "dashed": True,
                    "label": "Gap that may be over the limit: uncertain (its popup says why)",
                }
            )

    # corners and access points -------------------------------------------------------------
    def _points_layer(
        self, table: pd.DataFrame, rule: str, tolerance_ft: float
    ) -> tuple[dict[str, Any], pd.DataFrame]:
        t = table[table["status"].isin(["missing", "uncertain"])]
        t = t[self.status[t["parcel"].to_numpy(dtype=np.int64)] != "unposted"]
        data, ok = _points(t["lon"], t["lat"], self.east_of_180)
        t = t[ok]
        parcel = t["parcel"].to_numpy(dtype=np.int64)
        data.update(
            _compact(
                {
                    "parcel": _ints(parcel),
                    "status": _texts(t["status"]),
                    "nearest_ft": _numbers(point_figures(t, tolerance_ft)),
                    "neighbour_ft": _numbers(t["neighbour_ft"]) if "neighbour_ft" in t else None,
                    "shared": _flags(t["marker_shared"].fillna(False))
                    if "marker_shared" in t
                    else None,
                    "turn_deg": _numbers(t["turn_deg"], 0) if "turn_deg" in t else None,
                    "type": _texts(t["type"]) if "type" in t else None,
                    "clause": self.clauses.codes(self.rule_clause[rule][parcel]),
                }
            )
        )
        return data, t

    def add_corners(self) -> None:
        tol = self.report.settings.corner_tolerance_ft
        data, t = self._points_layer(self.report.corners, "corners", tol)
        n = t["status"].value_counts()
        self.add(
            "corners",
            data,
            len(t),
            f"{_swatch('ring', CORNER_COLORS['missing'])} "
            + _by_status(
                ("corners without a marker", n.get("missing", 0)),
                ("corners marked only within the survey accuracy", n.get("uncertain", 0)),
            ),
        )
        if n.get("missing", 0):
            self.legend.append(
                {
                    "shape": "ring",
                    "color": CORNER_COLORS["missing"],
                    "label": f"Corner with no marker within {_ft(tol)}",
                }
            )
        if n.get("uncertain", 0):
            self.legend.append(
                {
                    "shape": "ring",
                    "color": CORNER_COLORS["uncertain"],
                    "label": "Corner marked only within the stated survey accuracy",
                }
            )

    def add_access(self) -> None:
        access = self.report.access
        if not len(access):
            return
        data, t = self._points_layer(access, "access", self.report.settings.access_tolerance_ft)
        n = t["status"].value_counts()
        self.add(
            "access",
            data,
            len(t),
            f"{_swatch('square', ACCESS_COLOR)} "
            + _by_status(
                ("access points without a marker", n.get("missing", 0)),
                ("access points marked only within the survey accuracy", n.get("uncertain", 0)),
            ),
        )
        for status, label in (
            ("missing", "Access point (gate, road entrance) without a marker"),
            ("uncertain", "Access point marked only within the stated survey accuracy"),
        ):
            if n.get(status, 0):
                self.legend.append({"shape": "square", "color": ACCESS_COLOR, "label": label})

    # markers -------------------------------------------------------------------------------
    def add_markers(self) -> None:
        m = self.report.markers
        data, ok = _points(m["lon"], m["lat"], self.east_of_180)
        m = m[ok]
        attrs = self.report.marker_attributes
        shown: dict[str, Any] = {}
        if len(attrs.columns):
            a = attrs[ok]
            for col in a.columns:
                c = _texts(a[col].to_numpy(dtype=object))
                if c is not None:
                    shown[str(col)] = c
        parcel = m["parcel"].to_numpy(dtype=np.int64)
        # assigned, but of no kind a rule counts (kind other, or left out by --signs-where)
        uncounted = (parcel >= 0) & (m["kind"].to_numpy(dtype=object) == "other")
        data.update(
            _compact(
                {
                    "source": _texts(m["source"]),
                    "row": _ints(m["row"]),
                    "parcel": _ints(parcel),
                    "how": _texts(m["assigned_by"]),
                    "distance_ft": _numbers(m["distance_ft"], 1),
                    "reason": _texts(m["reason"].where(parcel < 0)),
                    "uncounted": _flags(uncounted),
                    "attrs": shown or None,
                }
            )
        )
        n_un = int((parcel < 0).sum())
        self.add(
            "markers",
            data,
            len(m),
            f"{_swatch('dot', MARKER_COLORS['assigned'])} Markers ({len(m):,})",
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
        if uncounted.any():
            self.legend.append(
                {
                    "shape": "ring",
                    "color": MARKER_COLORS["assigned"],
                    "label": "Point of no marker kind, counted for no rule "
                    f"({int(uncounted.sum()):,})",
                }
            )

    def add_planned(self, planned: pd.DataFrame | None) -> None:
        """Markers to add (``posting plan``): ``lon``, ``lat``; every other column is shown."""
        if planned is None or not len(planned):
            return
        data, ok = _points(planned["lon"], planned["lat"], self.east_of_180)
        p = planned[ok]
        # a plan's ``parcel`` and ``ring`` are rows of the report, not names: its parcel_id
        # names the parcel (the plan's exports leave them out too)
        hidden = {"lon", "lat", "geometry"}
        if "parcel_id" in p and pd.api.types.is_integer_dtype(p.get("parcel", pd.Series())):
            hidden |= {"parcel", "ring"}
        other = [c for c in p.columns if c not in hidden]
        attrs = {}
        for col in other:
            values = p[col].to_numpy(dtype=object)
            if pd.api.types.is_float_dtype(p[col]):
                # to a tenth, as the plan's exports: "10,436,841", not "1.04368e+07"
                values = np.array([_tenths(v) for v in values], dtype=object)
            c = _texts(values)
            if c is not None:
                attrs[str(col)] = c
        data["attrs"] = attrs
        self.add(
            "planned",
            data,
            len(p),
            f"{_swatch('square', PLANNED_COLOR)} Markers to add ({len(p):,})",
            {"shape": "square", "color": PLANNED_COLOR, "label": "Marker to add (the plan)"},
        )

    # stretches of boundary -----------------------------------------------------------------
    def add_stretches(self) -> None:
        r = self.report
        for kind, table, color, name, label in (
            (
                "water",
                r.water,
                WATER_COLOR,
                "Boundaries formed by water",
                "Boundary formed by water",
            ),
            ("easements", r.easements, EASEMENT_COLOR, "Easements", "Boundary inside an easement"),
            ("fences", r.fence_gaps, FENCE_COLOR, "Not fenced", "Boundary not fenced"),
        ):
            if not isinstance(table, pd.DataFrame) or not len(table) or "geometry" not in table:
                continue
            data, ok = _shapes(table["geometry"].to_numpy(), self.east_of_180)
            t = table[ok]
            parcel = t["parcel"].to_numpy(dtype=np.int64) if "parcel" in t else np.full(len(t), -1)
            data.update(
                _compact(
                    {
                        "parcel": _ints(parcel),
                        "length_ft": _numbers(t["length_ft"]) if "length_ft" in t else None,
                        "holder": _texts(t["holder"]) if "holder" in t else None,
                    }
                )
            )
            dashed = kind == "fences"
            self.add(
                kind,
                data,
                len(t),
                f"{_swatch('line', color, dashed)} {name} ({len(t):,})",
                {"shape": "line", "color": color, "dashed": dashed, "label": label},
            )

    # context -------------------------------------------------------------------------------
    def jurisdiction(self) -> str:
        """Whose rules the title names: the jurisdictions of the profiles that judged the
        parcels, and the state the land lies in where that is another."""
        first = self.first
        used = [n for n in dict.fromkeys(self.parcels["rules"].dropna()) if n in self.profiles]
        names = list(dict.fromkeys(self.profiles[n].get("jurisdiction") for n in used))
        names = [x for x in names if x] or [
            first.get("jurisdiction") or first.get("title") or first.get("name")
        ]
        title = " and ".join(names)
        if self.report.states is None and "state" in self.parcels:
            from posting.states import slug_of, states_table

            t = states_table()
            named = dict(zip(t["slug"], t["name"], strict=True))
            own = {slug_of(x) for x in names}
            land = [named[s] for s in dict.fromkeys(self.parcels["state"].dropna()) if s not in own]
            if land:
                title = f"{title} rule, land in {' and '.join(land)}"
        return title

    def off_map(self) -> dict[str, list[dict[str, Any]]]:
        """The parcels without a geometry to draw and the markers without a position, each
        with the reason."""
        has = ~pd.isna(self.geoms)
        p = self.parcels
        off = np.flatnonzero(~has)
        off_parcels = [
            {"id": str(p["id"].iat[i]), "status": self.status[i], "reason": reason}
            for i, reason in zip(
                off, p["invalid_reason"].to_numpy(dtype=object)[off].tolist(), strict=True
            )
        ]
        m = self.report.markers
        nowhere = m[m["lon"].isna() | m["lat"].isna()]
        off_signs = [
            {"source": s, "row": int(w), "reason": why}
            for s, w, why in zip(nowhere["source"], nowhere["row"], nowhere["reason"], strict=True)
        ]
        return {"parcels": off_parcels, "signs": off_signs}

    def rule_words(self) -> str:
        """The first profile's spacing and corner rules in a few words."""
        first = self.first
        rule_bits = []
        if first.get("spacing_ft"):
            how = {
                "along_boundary": " along the boundary",
                "straight": " in a straight line",
                "either": " in a straight line or along the boundary",
            }.get(first.get("spacing_metric", ""), "")
            rule_bits.append(f"markers not more than {_ft(first['spacing_ft'])} apart{how}")
        if first.get("corners") == "at_corner":
            rule_bits.append("a marker at each corner")
        return "; ".join(rule_bits)

    def context(self, title: str | None, planned: bool) -> dict[str, Any]:
        """What ``map.js`` is given besides the layers: the title, the rule, the counts, the
        settings, the legend, the vocabulary and colours, what is not on the map."""
        r = self.report
        first = self.first
        jurisdiction = self.jurisdiction()
        when = (r.generated or "").replace("T", " ").replace("+00:00", " UTC")
        off_map = self.off_map()
        rule_text = self.rule_words()
        s = r.summary()
        counts = [
            {"status": k, "n": v, "color": STATUS_COLORS.get(k, "#999999")}
            for k, v in s["status"].items()
            if v
        ]
        cites = dict.fromkeys(pr.get("citation") or "" for pr in self.profiles.values())
        citation = "; ".join(cites)
        settings = r.settings
        return {
            "title": title or f"{jurisdiction}: is this land posted?",
            "citation": citation,
            "rule_title": first.get("title"),
            "rule_text": rule_text if len(self.profiles) == 1 else "",
            "verification": first.get("verification"),
            "checked": when,
            "crs": r.crs,
            "accuracy_ft": settings.accuracy_ft,
            "corner_tolerance_ft": settings.corner_tolerance_ft,
            "access_tolerance_ft": settings.access_tolerance_ft,
            "counts": counts,
            "parcels": s["parcels"],
            "markers": [s["markers_read"], s["markers_assigned"], s["markers_unassigned"]],
            "legend": self.legend,
            "clauses": self.clauses.table,
            "canvas": sum(layer.count for layer in self.layers) >= CANVAS_FROM,
            "target": "planned" if planned else "gaps",
            "vocab": _vocabulary(),
            "colors": _colors(),
            "off_map": off_map,
            "not_checked": [{**x, "reason": worded(x["reason"], self.name)} for x in r.not_checked],
            "warnings": [worded(w, self.name) for w in r.warnings or []],
        }


def _vocabulary() -> dict[str, Any]:
    """The words the map shows for statuses, rules, levels, gaps, corners and access points."""
    return {
        "status": {k: list(v) for k, v in STATUS_WORDS.items()},
        "statuses": list(STATUSES),
        "rules": RULE_WORDS,
        "levels": LEVEL_WORDS,
        "levels_not_failed": LEVEL_WORDS_NOT_FAILED,
        "gap_figure": {k: list(v) for k, v in GAP_FIGURE_WORDS.items()},
        "gap": GAP_WORDS,
        "corner": CORNER_WORDS,
        "access": ACCESS_WORDS,
        "how": HOW_TEXT,
    }


def _colors() -> dict[str, Any]:
    """The colours of the map's statuses and layers."""
    return {
        "status": STATUS_COLORS,
        "gap": GAP_COLORS,
        "corner": CORNER_COLORS,
        "marker": MARKER_COLORS,
        "access": ACCESS_COLOR,
        "water": WATER_COLOR,
        "easements": EASEMENT_COLOR,
        "fences": FENCE_COLOR,
        "merged": MERGED_COLOR,
        "planned": PLANNED_COLOR,
        "here": HERE_COLOR,
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
        (parcel, role, facing, ...) is shown in its popup. Drawn as their own layer, and
        "you are here" then points to the nearest of them.
    name
        How the settings the report names are spelt (``--fences`` on the command line).

    Returns
    -------
    folium.Map
        Save it with ``.save(path)``, or show it in a notebook.
    """
    b = _MapBuilder(report, simplify_ft, name)
    tables = b.tables()
    b.add_parcels()
    b.add_stretches()
    b.add_gaps()
    b.add_corners()
    b.add_access()
    b.add_markers()
    b.add_planned(planned)
    ctx = b.context(title, planned is not None and len(planned) > 0)
    if b.extent is not None:  # fitted by map.js before any layer is drawn
        w, s, e, n = b.extent
        ctx["bounds"] = [[s, w], [n, e]]
    ctx["east_of_180"] = b.east_of_180
    m = folium.Map(
        location=None,
        zoom_start=2,
        tiles=None,
        zoom_control=False,
        control_scale=False,
        max_zoom=22,
        zoom_snap=0.25,
    )
    m.default_js = []
    m.default_css = []
    fig = m.get_root()
    fig.title = shown_controls(html.escape(ctx["title"]))
    css, js = offline_assets()
    fig.header.add_child(_Raw('<meta name="theme-color" content="#ffffff">'), name="posting_meta")
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
    m.add_child(_Setup(ctx, tables))
    for layer in b.layers:
        m.add_child(layer)
    # the list of layers stays open on a laptop, folds into a button on a phone
    folium.LayerControl(position="topright", collapsed=JsCode("window.innerWidth < 700")).add_to(m)
    m.add_child(_Ready())
    return m


@register("map", "report", (".html", ".htm"), "the officer's map (HTML, works offline)")
def to_html(report: Report, **kwargs: Any) -> str:
    """The map as one self-contained HTML page (see :func:`render_map` for the options)."""
    return render_map(report, **kwargs).get_root().render()
