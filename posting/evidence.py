"""The evidence record: one printable page per parcel, drawn from the Report alone.

An officer hands it over; a court reads it. Each page says which parcel (id, owner, acreage),
shows it on a map drawn without any network (an SVG: the boundary, the markers numbered, the
gaps and missing corners, a scale bar in feet and a north arrow, projected on a transverse
Mercator through the parcel's middle, never drawn in raw degrees), gives the verdict with every
violation (measured value, limit, clause, and the clause's words from the rule profile), lists
the markers (position, kind, content, survey date, a thumbnail of each photo), and says how it
was checked (settings, working CRS, the profile's file and its SHA-256, its verification
status, the input files and theirs).

Nothing here measures: the page renders the Report's public tables (``parcels``,
``findings``, ``gaps``, ``corners``, ``access``, ``markers``), its metadata and
:func:`posting.draw.display_geometry` / :func:`posting.draw.gap_lines`.

Every text from the input (ids, owners, sign text, file names) is escaped, and the page carries
a Content-Security-Policy that allows no script at all, so nothing from the input can run.
The page prints on US Letter and A4 alike: tables are laid out to the page's width (no column
can push a table past the margin), rows and the map are never split across pages, and table
headers repeat on the next page. The output depends only on the report and the arguments (no
clock): a record made twice from the same inputs is the same, byte for byte.
"""

from __future__ import annotations

import base64
import collections
import datetime as _dt
import hashlib
import html
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import shapely

from posting.dates import not_dates
from posting.draw import display_geometry, gap_lines, shown_controls
from posting.errors import python_name, worded
from posting.records import finding_figures, gap_figures, max_gap_figures, point_figures

if TYPE_CHECKING:
    from posting.report import Report
    from posting.rules import Profile

__all__ = [
    "RecordPage",
    "marker_attributes",
    "page_name",
    "parcel_svg",
    "render_index",
    "render_page",
    "rule_text",
    "select_parcels",
    "sha256_file",
]

STATUS_WORDS = {
    "compliant": "Compliant",
    "noncompliant": "Not compliant",
    "unposted": "Not posted",
    "uncertain": "Uncertain",
    "exempt": "Exempt",
    "invalid": "No usable geometry",
}
LEVEL_TITLES = {
    "violation": "Violations",
    "uncertain": "Uncertain (within the survey's accuracy of a limit, or not shown by the data)",
    "not_checked": "Not checked (the data does not record it, or not closely enough)",
    "note": "Notes",
}
LEVEL_TITLES_NOT_FAILED = {"violation": "Findings"}
"""The headings that differ on the page of a parcel whose verdict is not a failing one
(uncertain, exempt, compliant): its violation-level findings (a gap over the limit if the signs
on a shared line post the neighbour) are not violations of the law, and are not headed so (as
the officer's map heads them: :data:`posting.maps.LEVEL_WORDS_NOT_FAILED`)."""
FAILED = ("noncompliant", "unposted")
"""The verdicts under which a parcel's violation-level findings are violations."""
_RULE_TABLE = {
    "letter_height": "content",
    "sign_text": "content",
    "name_on_sign": "content",
    "address_on_sign": "content",
    "phone_on_sign": "content",
    "sign_size": "content",
    "statement_size": "content",
    "public_notice": "public",
    "landcover": "spacing",
}
_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
MAP_ASPECT = 1.9  # width / height of the map: about 98 mm high on a page 186 mm wide


def sha256_file(path: str, chunk: int = 1 << 20) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()


def _e(x: Any) -> str:
    """Text for HTML (and SVG): escaped, quotes included; '' for a missing value. An invisible
    bidirectional control is shown as its code point (:func:`posting.draw.shown_controls`), so
    that a page shows the text in the order it is stored, as a court reads it.

    >>> _e('<b>"Ann"</b>')
    '&lt;b&gt;&quot;Ann&quot;&lt;/b&gt;'
    >>> _e("NO \u202eGNISSAPSERT")
    'NO [U+202E]GNISSAPSERT'
    """
    if x is None or x is pd.NA or (isinstance(x, float) and math.isnan(x)):
        return ""
    return shown_controls(html.escape(str(x), quote=True))


def photo_labels(paths: Iterable[str]) -> dict[str, str]:
    """Each photo's name as the pages show it: the file's name, with as many of its folders
    as tell it from another photo of the same name.

    >>> paths = ["p/a/IMG_1.jpg", "p/b/IMG_1.jpg", "a/IMG_2.jpg", "C:\\\\p\\\\IMG_3.jpg"]
    >>> list(photo_labels(paths).values())
    ['a/IMG_1.jpg', 'b/IMG_1.jpg', 'IMG_2.jpg', 'IMG_3.jpg']
    """
    parts = {p: p.replace("\\", "/").split("/") for p in dict.fromkeys(paths)}
    out: dict[str, str] = {}
    left, k = list(parts), 1
    while left:
        label = {p: "/".join(parts[p][-k:]) for p in left}
        seen = collections.Counter(label.values())
        out |= {p: label[p] for p in left if seen[label[p]] == 1 or k >= len(parts[p])}
        left, k = [p for p in left if p not in out], k + 1
    return {p: out[p] for p in parts}


def _css_string(text: str) -> str:
    """A CSS string literal holding ``text`` whatever it contains (every character that is not
    a plain letter, digit, space or simple punctuation is written as a CSS escape), with an
    invisible bidirectional control shown as its code point, as :func:`_e` shows it (a CSS
    escape is the character itself once the page is read: the footer printed on every page
    would show the text in another order than it is stored).

    >>> _css_string('N06 </style>"')
    '"N06 \\\\3c \\\\2f style\\\\3e \\\\22 "'
    >>> _css_string("P\\u202e1")
    '"P\\\\5b U\\\\2b 202E\\\\5d 1"'
    """
    ok = re.compile(r"[A-Za-z0-9 .,:;()#_\-]")
    text = shown_controls(text)
    return '"' + "".join(c if ok.fullmatch(c) else f"\\{ord(c):x} " for c in text) + '"'


def _ft(x: Any, nd: int = 1) -> str:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return ""
    return f"{v:,.{nd}f} ft" if math.isfinite(v) else ""


def _num(x: Any, nd: int = 1) -> str:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return ""
    if not math.isfinite(v):
        return ""
    return f"{v:,.{nd}f}".rstrip("0").rstrip(".") if nd else f"{v:,.0f}"


def page_name(ids: Sequence[str], rows: Sequence[int]) -> dict[int, str]:
    """A file name for each parcel's page: its id made safe for any file system, and the row
    number where two ids would give one name (duplicated ids, ids that differ only in case or
    in characters a file name cannot hold).

    Examples
    --------
    >>> page_name(["N06", "a/b", "A/B", "index"], [5, 6, 7, 8])
    {5: 'N06.html', 6: 'a_b-row6.html', 7: 'A_B-row7.html', 8: 'index-row8.html'}
    """
    slugs = {}
    for pid, row in zip(ids, rows, strict=True):
        s = re.sub(r"[^A-Za-z0-9._-]+", "_", str(pid)).strip("._") or "parcel"
        slugs[row] = s[:60]
    seen: dict[str, int] = {}
    for s in slugs.values():
        seen[s.casefold()] = seen.get(s.casefold(), 0) + 1
    reserved = {"index", "manifest", "report"}
    return {
        row: (
            f"{s}-row{row}.html"
            if seen[s.casefold()] > 1 or s.casefold() in reserved
            else f"{s}.html"
        )
        for row, s in slugs.items()
    }


def select_parcels(report: Report, ids: Sequence[str] = (), *, every: bool = False) -> np.ndarray:
    """The rows of the parcels a record shows: those whose id is in ``ids``; or every parcel
    (``every``); or, by default, every parcel that is not compliant or exempt.

    Raises
    ------
    InputError
        An id in ``ids`` names no parcel.
    """
    from posting.errors import InputError

    p = report.parcels
    if ids:
        have = p["id"].astype(str).to_numpy()
        missing = [i for i in ids if i not in set(have)]
        if missing:
            shown = ", ".join(repr(m) for m in missing[:5])
            raise InputError(
                f"no parcel has the id {shown} ({{option}} names a parcel by its id)",
                parameter="parcel",
            )
        return np.flatnonzero(np.isin(have, list(ids)))
    if every:
        return np.arange(len(p))
    return np.flatnonzero(~p["status"].isin(["compliant", "exempt"]).to_numpy())


def rule_text(profile: Profile, rule: str) -> tuple[str, str]:
    """The profile table behind a finding's rule, and that table's words of the law.

    Examples
    --------
    >>> from posting.rules import load_rules
    >>> table, text = rule_text(load_rules("florida"), "letter_height")
    >>> table, text[:30]
    ('content', 'in letters of not less than 2 ')
    """
    from posting.kinds import REGISTRY

    name = _RULE_TABLE.get(rule, rule)
    if name not in REGISTRY:
        prefix = rule.split("_", 1)[0]
        name = prefix if prefix in REGISTRY else name
    r = profile.tables.get(name)
    return name, (r.text if r is not None else "")


def marker_attributes(report: Report) -> pd.DataFrame:
    """What the survey recorded about each marker (one row per row of ``report.markers``):
    ``text``, ``name_on_sign``, ``letter_height_in``, ``color``, ``facing_deg``, ``surveyed``,
    ``photo``, ``accuracy_ft``, ``position_from`` (blank where not recorded)."""
    # TODO(lead): marker attributes table
    attrs = report.marker_attributes
    from posting.attributes import find_column

    n = len(report.markers)
    out = pd.DataFrame(index=range(n))
    canon = ["text", "name_on_sign", "letter_height_in", "color", "facing_deg", "surveyed"]
    for c in canon:
        col = find_column(attrs.columns, c) if len(attrs.columns) else None
        out[c] = (
            attrs[col].to_numpy(dtype=object)
            if col is not None and len(attrs) == n
            else np.full(n, None, dtype=object)
        )
    for c in ("photo", "accuracy_ft", "position_from"):
        out[c] = (
            attrs[c].to_numpy(dtype=object)
            if c in attrs.columns and len(attrs) == n
            else np.full(n, None, dtype=object)
        )
    return out


# -- the map ----------------------------------------------------------------------------------


def _lon_extent(geom: Any) -> tuple[float, float, float, float]:
    """West, south, east, north of a WGS 84 geometry, the short way round: for one across the
    antimeridian (an Aleutian parcel in Alaska Albers) west is east of 0 and east is beyond 180
    (``east - 360`` is the longitude it names), not the whole globe from -180 to 180.

    >>> _lon_extent(shapely.box(179.99, 51.8, 180.0, 51.81).union(shapely.box(-180, 51.8,
    ...            -179.98, 51.81)))
    (179.99, 51.8, 180.02, 51.81)
    """
    west, south, east, north = (float(v) for v in shapely.bounds(geom))
    if east - west > 180:
        lon = shapely.get_coordinates(geom)[:, 0]
        lon = np.where(lon < 0, lon + 360.0, lon)
        west, east = float(lon.min()), float(lon.max())
        east = round(east, 9)  # (180.02, not 180.01999999999998)
    return west, south, east, north


def _middle_lon(geom: Any) -> float:
    """The meridian through the middle of a WGS 84 geometry (in [-180, 180))."""
    west, _, east, _ = _lon_extent(geom)
    return ((west + east) / 2.0 + 180.0) % 360.0 - 180.0


def _nice_length(span_ft: float) -> float:
    """A round scale-bar length (1, 2 or 5 times a power of ten) near a fifth of the span."""
    target = max(span_ft / 5.0, 1e-9)
    k = 10.0 ** math.floor(math.log10(target))
    return max((m * k for m in (1, 2, 5, 10) if m * k <= target), default=k)


def _path_d(geom: Any, fx: Callable[[np.ndarray], np.ndarray]) -> str:
    """SVG path data of a polygonal or linear geometry (coordinates through ``fx``)."""
    parts = []
    for g in shapely.get_parts(geom):
        rings = shapely.get_rings(g) if shapely.get_type_id(g) == 3 else [g]
        for r in rings:
            xy = fx(shapely.get_coordinates(r))
            if not len(xy):
                continue
            pts = " ".join(f"{x:.1f} {y:.1f}" for x, y in xy)
            parts.append(f"M{pts}{'Z' if shapely.get_type_id(r) == 2 else ''}")
    return "".join(parts)


@dataclass
class _MapData:
    """What the map of one parcel draws, in WGS 84."""

    outline: Any  # the parcel (None when it has no geometry)
    neighbours: list[Any]
    markers: pd.DataFrame  # number, lon, lat
    others: tuple[np.ndarray, np.ndarray]  # lon, lat of other markers in view
    gaps: list[tuple[Any, str, str]]  # line, status, label
    corners: pd.DataFrame  # label, lon, lat, status
    access: pd.DataFrame  # label, lon, lat, status
    elevation_ft: float = 0.0  # the check's: the scale bar's feet are the ground's there


def parcel_svg(data: _MapData, title: str) -> str:
    """The map of one parcel as an SVG element (no script, no external reference).

    Projected on a transverse Mercator (scale 1, feet) whose central meridian runs through the
    parcel's middle, so north is up at the parcel and a foot on the scale bar is a foot on the
    ground (to better than 1:100,000 over a parcel; scaled to the ground at the check's
    elevation, :func:`posting.crs.local_tm`).
    """
    if data.outline is None:
        return '<p class="nomap">No map: the parcel has no usable geometry.</p>'
    f = _SvgFrame.around(data.outline, data.elevation_ft)
    w, h = f.w, f.h
    out = [
        f'<svg class="map" viewBox="0 0 {w:.1f} {h:.1f}" xmlns="http://www.w3.org/2000/svg" '
        f'role="img" aria-label="{_e(title)}" font-family="DejaVu Sans, Arial, sans-serif">',
        f'<rect class="bg" x="0" y="0" width="{w:.1f}" height="{h:.1f}"/>',
    ]
    # even-odd: a polygon's holes are left empty whichever way its rings go round (a file
    # need not give its holes the other way from its outline, which the default rule needs)
    for g in data.neighbours:
        d = f.path(g)
        if d:
            out.append(f'<path class="neighbour" fill-rule="evenodd" d="{d}"/>')
    out.append(f'<path class="parcel" fill-rule="evenodd" d="{f.path(data.outline)}"/>')
    out += _svg_others(f, *data.others)
    out += _svg_gaps(f, data.gaps)
    out += _svg_points(f, data.corners, "corner")
    out += _svg_points(f, data.access, "access")
    out += _svg_markers(f, data.markers)
    out += _svg_scale_and_north(f)
    out.append("</svg>")
    return "".join(out)


@dataclass(frozen=True, eq=False)
class _SvgFrame:
    """The frame a parcel's map is drawn in: a transverse Mercator in feet through the parcel's
    middle (``tm``), and the map's box on it (``left``, ``top``, width ``w``, height ``h``, in
    feet, :data:`MAP_ASPECT` wide for one high), y downwards as SVG has it."""

    tm: Any
    left: float
    top: float
    w: float
    h: float

    @classmethod
    def around(cls, outline: Any, elevation_ft: float = 0.0) -> _SvgFrame:
        """The frame of the map of ``outline`` (WGS 84): the parcel with a margin around it,
        in ground feet at ``elevation_ft``."""
        from posting.crs import local_tm

        _, south, _, north = shapely.bounds(outline)
        tm = local_tm(_middle_lon(outline), elevation_ft, (south + north) / 2.0)
        frame = cls(tm, 0.0, 0.0, 0.0, 0.0)
        x0, y0, x1, y1 = shapely.bounds(frame.geom(outline))
        w, h = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
        pad = 0.08 * max(w, h) + 20.0
        w, h = w + 2 * pad, h + 2 * pad
        cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
        if w / h < MAP_ASPECT:
            w = h * MAP_ASPECT
        else:
            h = w / MAP_ASPECT
        return cls(frame.tm, cx - w / 2.0, cy + h / 2.0, w, h)

    @property
    def u(self) -> float:
        """One hundredth of the map's width, in feet: the unit of symbols and letters."""
        return self.w / 100.0

    def proj(self, lon: np.ndarray, lat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Longitude/latitude to feet on the transverse Mercator."""
        from posting.crs import WGS84

        return self.tm.xy_to_ft(np.asarray(lon, float), np.asarray(lat, float), WGS84)

    def geom(self, g: Any) -> Any:
        """A WGS 84 geometry on the transverse Mercator."""
        return shapely.transform(g, lambda xy: np.column_stack(self.proj(xy[:, 0], xy[:, 1])))

    def fx(self, xy: np.ndarray) -> np.ndarray:
        """Feet on the transverse Mercator to the map's coordinates."""
        return np.column_stack([xy[:, 0] - self.left, self.top - xy[:, 1]])

    def pt(self, lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
        """Longitude/latitude to the map's coordinates."""
        x, y = self.proj(lon, lat)
        return self.fx(np.column_stack([x, y]))

    def path(self, g: Any) -> str:
        """SVG path data of a WGS 84 geometry on the map."""
        return _path_d(self.geom(g), self.fx)


def _svg_others(f: _SvgFrame, lon: np.ndarray, lat: np.ndarray) -> list[str]:
    """Other parcels' markers in view, as small grey dots."""
    if not len(lon):
        return []
    u = f.u
    return [
        f'<circle class="other" cx="{x:.1f}" cy="{y:.1f}" r="{0.55 * u:.2f}"/>'
        for x, y in f.pt(lon, lat)
    ]


def _svg_gaps(f: _SvgFrame, gaps: list[tuple[Any, str, str]]) -> list[str]:
    """The gaps reported, each drawn along the boundary with its length at its middle."""
    u = f.u
    out = []
    for line, status, label in gaps:
        on_map = f.geom(line)
        out.append(f'<path class="gap {status}" d="{_path_d(on_map, f.fx)}"/>')
        mid = shapely.line_interpolate_point(on_map, 0.5, normalized=True)
        ((mx, my),) = f.fx(shapely.get_coordinates(mid))
        out.append(
            f'<text class="gaplabel" x="{mx:.1f}" y="{my - 0.9 * u:.1f}" font-size="{2.2 * u:.2f}" '
            f'text-anchor="middle">{_e(label)}</text>'
        )
    return out


def _svg_points(f: _SvgFrame, df: pd.DataFrame, cls: str) -> list[str]:
    """Corners (circles) or access points (triangles) without a marker, labelled."""
    if not len(df):
        return []
    u = f.u
    out = []
    xy = f.pt(df["lon"].to_numpy(float), df["lat"].to_numpy(float))
    for (x, y), st, lab in zip(xy, df["status"], df["label"], strict=True):
        if not (math.isfinite(x) and math.isfinite(y)):
            continue
        if cls == "corner":
            out.append(
                f'<circle class="corner {_e(st)}" cx="{x:.1f}" cy="{y:.1f}" r="{2.2 * u:.2f}"/>'
            )
        else:
            s = 2.4 * u
            out.append(
                f'<path class="access {_e(st)}" d="M{x:.1f} {y - s:.1f}L{x + s:.1f} '
                f'{y + s * 0.8:.1f}L{x - s:.1f} {y + s * 0.8:.1f}Z"/>'
            )
        out.append(
            f'<text class="{cls}label" x="{x + 2.6 * u:.1f}" y="{y + 3.6 * u:.1f}" '
            f'font-size="{2.0 * u:.2f}">{_e(lab)}</text>'
        )
    return out


def _svg_markers(f: _SvgFrame, m: pd.DataFrame) -> list[str]:
    """The parcel's markers, numbered as in the table."""
    if not len(m):
        return []
    u = f.u
    out = []
    xy = f.pt(m["lon"].to_numpy(float), m["lat"].to_numpy(float))
    for (x, y), num in zip(xy, m["number"], strict=True):
        out.append(f'<circle class="marker" cx="{x:.1f}" cy="{y:.1f}" r="{0.9 * u:.2f}"/>')
        out.append(
            f'<text class="markerlabel" x="{x + 1.2 * u:.1f}" y="{y - 1.0 * u:.1f}" '
            f'font-size="{1.9 * u:.2f}">{int(num)}</text>'
        )
    return out


def _svg_scale_and_north(f: _SvgFrame) -> list[str]:
    """The scale bar (feet) at the bottom left and the north arrow at the top right."""
    u, w, h = f.u, f.w, f.h
    bar = _nice_length(w)
    bx, by = 3 * u, h - 3.5 * u
    ax, ay = w - 5 * u, 3 * u
    return [
        f'<g class="scale"><rect class="scalebg" x="{bx - u:.1f}" y="{by - 4.6 * u:.1f}" '
        f'width="{bar + 2 * u:.1f}" height="{6.2 * u:.1f}"/>'
        f'<path class="scalebar" d="M{bx:.1f} {by - u:.1f}V{by:.1f}H{bx + bar:.1f}V{by - u:.1f}'
        f'M{bx + bar / 2:.1f} {by:.1f}V{by - 0.6 * u:.1f}"/>'
        f'<text x="{bx:.1f}" y="{by - 1.6 * u:.1f}" font-size="{2.0 * u:.2f}">'
        f"{bar:,.0f} ft</text></g>",
        f'<g class="north"><path class="northarrow" d="M{ax:.1f} {ay:.1f}L{ax + 1.8 * u:.1f} '
        f'{ay + 5.5 * u:.1f}L{ax:.1f} {ay + 4.3 * u:.1f}L{ax - 1.8 * u:.1f} {ay + 5.5 * u:.1f}Z"/>'
        f'<text x="{ax:.1f}" y="{ay + 8.6 * u:.1f}" font-size="{2.6 * u:.2f}" '
        f'text-anchor="middle">N</text></g>',
    ]


# -- the page ---------------------------------------------------------------------------------

_STYLE = """
@page { margin: 12mm 12mm 14mm 12mm;
  @bottom-left { content: FOOT; font: 7.5pt sans-serif; color: #555; }
  @bottom-right { content: "page " counter(page) " of " counter(pages);
    font: 7.5pt sans-serif; color: #555; } }
* { box-sizing: border-box; }
html { font: 9pt/1.32 "DejaVu Sans", "Liberation Sans", Arial, sans-serif; color: #111;
  -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0 auto; padding: 4mm; max-width: 200mm; }
@media print { body { padding: 0; max-width: none; } a { color: inherit; text-decoration: none; } }
h1 { font-size: 15pt; margin: 0 0 1mm; }
h2 { font-size: 11pt; margin: 4mm 0 1.5mm; border-bottom: 0.6pt solid #333;
  break-after: avoid; page-break-after: avoid; }
h3 { font-size: 9.5pt; margin: 2.5mm 0 1mm; break-after: avoid; }
p { margin: 1mm 0; }
.head { color: #444; font-size: 8pt; display: flex; justify-content: space-between; gap: 4mm; }
.facts { display: grid; grid-template-columns: auto 1fr auto 1fr; gap: 0.6mm 3mm; margin: 2mm 0; }
.facts dt { font-weight: bold; } .facts dd { margin: 0; overflow-wrap: anywhere; }
.verdict { font-size: 12pt; font-weight: bold; padding: 1.5mm 3mm; border: 1pt solid;
  display: inline-block; margin: 1mm 0; }
.verdict.noncompliant, .verdict.unposted, .verdict.invalid { color: #a00; }
.verdict.compliant, .verdict.exempt { color: #075; } .verdict.uncertain { color: #a60; }
table { width: 100%; border-collapse: collapse; table-layout: fixed; margin: 1mm 0 2mm; }
th, td { border-bottom: 0.5pt solid #bbb; padding: 0.8mm 1.2mm; vertical-align: top;
  text-align: left; overflow-wrap: anywhere; word-break: break-word; }
th { background: #eee; font-size: 8pt; }
table.markers td { font-size: 8pt; padding: 0.5mm 1mm; line-height: 1.22; }
thead { display: table-header-group; }
tr, .finding, figure, .keep { break-inside: avoid; page-break-inside: avoid; }
td.num, th.num { text-align: right; }
.law { margin: 0.6mm 0 0 0; padding: 0.6mm 2mm; border-left: 1.5pt solid #999; color: #333;
  font-style: italic; font-size: 8.3pt; }
.small { font-size: 7.8pt; color: #333; }
.mono { font-family: "DejaVu Sans Mono", monospace; font-size: 6.8pt; overflow-wrap: anywhere; }
figure { margin: 1mm 0 2mm; }
svg.map { width: 100%; height: auto; display: block; border: 0.5pt solid #888; }
.bg { fill: #fff; } .neighbour { fill: #f2f2f2; stroke: #aaa; stroke-width: 0.8px; }
.parcel { fill: #fdf6d8; stroke: #222; stroke-width: 1.8px; }
svg * { vector-effect: non-scaling-stroke; }
.gap { fill: none; stroke-width: 5px; stroke-linecap: round; opacity: 0.85; }
.gap.over, .gap.unmarked { stroke: #d00; } .gap.uncertain { stroke: #e80; }
.gaplabel { fill: #a00; font-weight: bold; }
.corner { fill: none; stroke-width: 2.2px; } .corner.missing { stroke: #d00; }
.corner.uncertain { stroke: #e80; }
.access { fill: none; stroke-width: 2px; } .access.missing { stroke: #d00; }
.access.uncertain { stroke: #e80; }
.cornerlabel, .accesslabel { fill: #a00; font-weight: bold; }
.marker { fill: #1450b4; stroke: #fff; stroke-width: 1px; }
.markerlabel { fill: #0c3a88; font-weight: bold; }
.other { fill: #999; }
.scalebg { fill: #fff; opacity: 0.85; } .scalebar { fill: none; stroke: #000; stroke-width: 1.5px; }
.northarrow { fill: #000; }
.legend { font-size: 7.8pt; color: #333; margin-top: 0.8mm; }
.key { display: inline-block; width: 4mm; height: 2.2mm; vertical-align: middle;
  margin: 0 1mm 0 2.5mm; }
img.thumb { width: 100%; max-width: 22mm; max-height: 22mm; object-fit: contain;
  display: block; margin-bottom: 0.5mm; }
.nomap { padding: 6mm; border: 0.5pt dashed #999; }
"""


@dataclass
class RecordPage:
    """What one parcel's page shows besides the Report: set by the record's maker."""

    check_date: str
    checked_by: str | None = None
    tool_version: str = ""
    tool_sha256: str = ""  # the build's (:func:`posting.records.tool_files_sha256`)
    inputs: list[dict[str, Any]] = field(default_factory=list)
    profiles: list[dict[str, Any]] = field(default_factory=list)
    thumbnails: dict[str, str] = field(default_factory=dict)  # photo path -> data URI
    name: Callable[[str], str] = python_name  # how a setting the report names is spelt


def _head(title: str, foot: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{_STYLE.replace('FOOT', _css_string(foot), 1)}</style>"
        "</head><body>\n"
    )


class _Tables:
    """The Report's tables split by parcel once (a record of many parcels reads each once)."""

    def __init__(
        self, report: Report, page: RecordPage, attached: dict[int, list[str]] | None = None
    ) -> None:
        self.report = report
        self.page = page
        self.attached = attached or {}
        self.photos_on_page: list[str] = []  # the photos the page being made shows
        self.attrs = marker_attributes(report)
        own = [p for p in self.attrs["photo"].to_numpy(dtype=object) if isinstance(p, str) and p]
        self.photo_label = photo_labels(own + [p for ps in self.attached.values() for p in ps])
        self.geoms = display_geometry(report, decimals=7)
        self.profiles = {p.name: p for p in report.profiles}

        def groups(df: pd.DataFrame) -> dict[int, np.ndarray]:
            if not len(df):
                return {}
            key = df["parcel"].to_numpy(dtype=np.int64)
            order = np.argsort(key, kind="stable")
            cuts = np.flatnonzero(np.diff(key[order])) + 1
            return {int(key[o[0]]): o for o in np.split(order, cuts) if len(o) and key[o[0]] >= 0}

        self.findings = groups(report.findings)
        self.gaps = groups(report.gaps)
        self.corners = groups(report.corners)
        self.access = groups(report.access)
        self.markers = groups(report.markers)
        m = report.markers
        # the marker columns as arrays, once (pandas' per-value access costs microseconds each)
        self.mcol = {c: m[c].to_numpy() for c in m.columns}
        self.acol = {c: self.attrs[c].to_numpy(dtype=object) for c in self.attrs.columns}
        lon, lat = m["lon"].to_numpy(float), m["lat"].to_numpy(float)
        ok = np.flatnonzero(np.isfinite(lon) & np.isfinite(lat))
        self._order = ok[np.argsort(lon[ok], kind="stable")]
        self._lon_sorted = lon[self._order]
        ok_g = [i for i, g in enumerate(self.geoms) if g is not None]
        self._ok_g = np.asarray(ok_g, dtype=np.int64)
        self._tree = shapely.STRtree(self.geoms[self._ok_g]) if len(ok_g) else None

    def markers_in(self, box: tuple[float, float, float, float]) -> np.ndarray:
        """Markers (rows of ``report.markers``) within a longitude/latitude box (its east
        beyond 180 for one across the antimeridian)."""
        w, s, e, n = box
        cand = [self._order[slice(*np.searchsorted(self._lon_sorted, [w, e]))]]
        if e > 180:
            cand.append(self._order[slice(*np.searchsorted(self._lon_sorted, [w - 360, e - 360]))])
        found = np.concatenate(cand)
        lat = self.report.markers["lat"].to_numpy(float)[found]
        return found[(lat >= s) & (lat <= n)]

    def parcels_in(self, box: tuple[float, float, float, float]) -> np.ndarray:
        """Parcels (rows) whose outline meets a longitude/latitude box (as :meth:`markers_in`)."""
        if self._tree is None:
            return np.empty(0, dtype=np.int64)
        w, s, e, n = box
        boxes = [shapely.box(w, s, e, n)]
        if e > 180:
            boxes.append(shapely.box(w - 360, s, e - 360, n))
        return np.unique(self._ok_g[self._tree.query(boxes)[1]])


def _blank(v: Any) -> bool:
    return v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)) or not str(v).strip()


def _measures(values: np.ndarray, canonical: str, nd: int, unit: str) -> list[str]:
    """Each marker's recorded measure as its page shows it (HTML): the value the checks read
    from it (:func:`posting.attributes.measured`: ``5 cm`` is 1.97 in, ``NE`` is 45°) in the
    column's unit, with the words recorded after it where they are not that figure; the words
    alone where they are no measure (``three``); '' where nothing is recorded.

    >>> _measures(np.array([2, "5 cm", "2 in", "three", None], dtype=object),
    ...           "letter_height_in", 2, " in")
    ['2 in', '1.97 in (5 cm)', '2 in', 'three', '']
    """
    from posting.attributes import measured

    read = measured(pd.Series(values, dtype=object), canonical).to_numpy(dtype=object)
    out = []
    for raw, v in zip(values, read, strict=True):
        if _blank(raw):
            out.append("")
            continue
        figure = _num(v, nd)
        words = str(raw).strip()
        if not figure:
            out.append(_e(words))
            continue
        same = (
            _num(raw, nd)
            or words.replace(" ", "").casefold() == (figure + unit).replace(" ", "").casefold()
        )
        out.append(f"{figure}{unit}" + ("" if same else f" ({_e(words)})"))
    return out


def _marker_table(t: _Tables, rows: np.ndarray, numbers: dict[int, int]) -> str:
    """The table of a parcel's markers. Columns that no marker of the parcel fills (kind when
    all are signs, content, facing, survey date, photo) are left out, so that what there is
    fits the page's width."""
    m, a = t.mcol, t.acol
    how_words = {"inside": "inside", "nearest": "outside", "named": "named"}
    lat = m["lat"][rows].astype(float)
    lon = m["lon"][rows].astype(float)
    cols: list[tuple[str, float, str, list[str]]] = [
        ("#", 3.5, "num", [str(numbers[int(r)]) for r in rows]),
        ("Latitude", 9.5, "num", [f"{v:.6f}" if math.isfinite(v) else "" for v in lat]),
        ("Longitude", 10.5, "num", [f"{v:.6f}" if math.isfinite(v) else "" for v in lon]),
    ]
    where = []
    for r in rows:
        how = how_words.get(str(m["assigned_by"][r]), "")
        dist = _ft(m["distance_ft"][r])
        where.append(_e(f"{dist} {how}" if how and dist else how))
    cols.append(("From the line", 9, "", where))
    kinds = [str(k) for k in m["kind"][rows]]
    if any(k != "sign" for k in kinds):
        cols.append(("Kind", 6, "", [_e(k) for k in kinds]))
    content = []
    letters = _measures(a["letter_height_in"][rows], "letter_height_in", 2, " in")
    for k, r in enumerate(rows):
        parts = []
        for key, label in (("text", ""), ("name_on_sign", "name: "), ("color", "colour: ")):
            v = a[key][r]
            if not _blank(v):
                parts.append(f"{label}{_e(v)}")
        if letters[k]:
            parts.append(f"letters {letters[k]}")
        content.append(" · ".join(parts))
    if any(content):
        cols.append(("Content", 30, "", content))
    facing = _measures(a["facing_deg"][rows], "facing_deg", 0, "°")
    if any(facing):
        cols.append(("Facing", 7, "num", facing))
    when = pd.Series(list(a["surveyed"][rows]), dtype=object)
    # a date no one can read one way (03/10/2025 of a file that does not say which comes
    # first; a time alone; a day without its year): shown as written, said to be no date
    unread = not_dates(when)
    surveyed = [
        "" if _blank(v) else _e(v) + (' <span class="small">(not known)</span>' if no else "")
        for v, no in zip(when, unread, strict=True)
    ]
    if any(surveyed):
        long_dates = max(len(x) for x in surveyed) > 12
        cols.append(("Surveyed", 13 if long_dates else 10, "", surveyed))
    photos = []
    for r in rows:
        own = a["photo"][r]
        files = ([own] if isinstance(own, str) and own else []) + t.attached.get(int(r), [])
        t.photos_on_page += files
        cell = []
        for f in files:
            uri = t.page.thumbnails.get(f)
            name = t.photo_label[f]
            img = f'<img class="thumb" alt="photo {_e(name)}" src="{uri}">' if uri else ""
            cell.append(f'{img}<span class="small">{_e(name)}</span>')
        photos.append("".join(cell))
    if any(photos):
        cols.append(("Photo", 14, "", photos))
    src = [
        f"{_e(str(src).replace(chr(92), '/').rsplit('/', 1)[-1])}:{int(row)}"
        for src, row in zip(m["source"][rows], m["row"][rows], strict=True)
    ]
    cols.append(("File:row", 11, "small", src))
    total = sum(c[1] for c in cols)
    head = "".join(f'<col style="width:{100 * c[1] / total:.1f}%">' for c in cols)
    ths = "".join(f"<th{' class=num' if c[2] == 'num' else ''}>{c[0]}</th>" for c in cols)
    body = []
    for k in range(len(rows)):
        tds = "".join(f"<td{' class=' + c[2] if c[2] else ''}>{c[3][k]}</td>" for c in cols)
        body.append(f"<tr>{tds}</tr>")
    return (
        f'<table class="markers"><colgroup>{head}</colgroup><thead><tr>{ths}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def render_page(t: _Tables, i: int) -> str:
    """The HTML page of parcel row ``i``."""
    rep, page = t.report, t.page
    t.photos_on_page = []
    p = rep.parcels.iloc[i]
    pid = str(p["id"])
    status = str(p["status"])
    prof = t.profiles.get(str(p["rules"])) or rep.profiles[0]
    foot = f"Parcel {pid} · {prof.citation} · checked {page.check_date}"
    out = [_head(f"Parcel {pid}: posting evidence record", foot)]
    out.append(
        f'<div class="head"><span>Posting evidence record · {_e(prof.title)}</span>'
        f"<span>checked {_e(page.check_date)}"
        f"{' by ' + _e(page.checked_by) if page.checked_by else ''}</span></div>"
    )
    out.append(f"<h1>Parcel {_e(pid)}</h1>")
    acres = _num(p["area_acres"], 2)
    facts = [
        ("Owner", _e(p["owner"]) or "not given"),
        ("Input row", str(int(p["row"]))),
        ("Area", f"{acres} acres (measured, equal-area)" if acres else "not measured"),
        ("Perimeter", _ft(p["perimeter_ft"]) or "not measured"),
    ]
    if "recorded_acres" in p.index and _num(p["recorded_acres"], 2):
        facts.append(("Recorded area", f"{_num(p['recorded_acres'], 2)} acres"))
    facts += [
        (
            "Markers",
            f"{int(p['signs'])} assigned, {int(p['markers_counted'])} of the kinds the rule counts",
        ),
        ("Corners found", str(int(p["corners"]))),
    ]
    if bool(p["duplicate_id"]):
        facts.append(("Note", "this id appears on more than one parcel row"))
    if isinstance(p.get("repaired"), str) and p["repaired"]:
        facts.append(("Geometry", f"repaired: {_e(p['repaired'])}"))
    out.append(
        '<dl class="facts">' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts) + "</dl>"
    )
    # -- verdict
    out.append("<h2>Verdict</h2>")
    how = ""
    if status == "compliant" and isinstance(p.get("posted_by"), str):
        how = f" (posted by {_e(p['posted_by'])})"
    out.append(
        f'<div class="verdict {status}">{STATUS_WORDS.get(status, _e(status))}{how}</div>'
        f'<p class="small">under {_e(prof.name)}: {_e(prof.citation)}'
        f"{' (guidance, not a statute)' if prof.standard == 'guidance' else ''}</p>"
    )
    if status == "invalid":
        out.append(f"<p>{_e(p['invalid_reason'])}</p>")
    if isinstance(p.get("exemption"), str) and p["exemption"]:
        out.append(f"<p>Exemption: {_e(p['exemption'])}</p>")
    f = rep.findings.iloc[t.findings.get(i, np.empty(0, dtype=np.int64))]
    titles = LEVEL_TITLES if status in FAILED else LEVEL_TITLES | LEVEL_TITLES_NOT_FAILED
    for level in ("violation", "uncertain", "not_checked", "note"):
        sel = f[f["level"] == level]
        if not len(sel):
            continue
        out.append(f"<h3>{titles[level]}</h3>")
        if level in ("violation", "uncertain"):
            out.append(
                '<table class="findings"><colgroup><col style="width:13%">'
                '<col style="width:45%"><col style="width:12%"><col style="width:10%">'
                '<col style="width:20%"></colgroup><thead><tr><th>Rule</th><th>Finding</th>'
                "<th class=num>Measured</th><th class=num>Limit</th><th>Clause</th></tr></thead>"
                "<tbody>"
            )
            # each violation's figure on its side of the limit at the tenth shown
            figures = finding_figures(sel, 1)
            for r, figure in zip(sel.itertuples(index=False), figures.tolist(), strict=True):
                pr = t.profiles.get(getattr(r, "profile", ""), prof)
                _, text = rule_text(pr, r.rule)
                unit = f" {_e(r.unit)}" if isinstance(r.unit, str) else ""
                meas = _num(figure, 1)
                lim = _num(r.limit, 1)
                basis = getattr(r, "basis", "statute")
                law = f'<div class="law">“{_e(text)}”</div>' if text else ""
                out.append(
                    f'<tr class="finding"><td>{_e(r.rule)}</td><td>{_e(r.message)}{law}</td>'
                    f"<td class=num>{meas + unit if meas else ''}</td>"
                    f"<td class=num>{lim + unit if lim else ''}</td>"
                    f"<td>{_e(r.clause)}<br><span class=small>{_e(basis)}</span></td></tr>"
                )
            out.append("</tbody></table>")
        else:
            out.append(
                '<ul class="small">'
                + "".join(
                    f"<li><b>{_e(r.rule)}</b>: {_e(r.message)} ({_e(r.clause)})</li>"
                    for r in sel.itertuples(index=False)
                )
                + "</ul>"
            )
    if status not in ("invalid",) and not len(f[f["level"] == "violation"]):
        out.append('<p class="small">No violation found.</p>')
    # -- markers, numbered along each ring
    m = rep.markers
    mrows = t.markers.get(i, np.empty(0, dtype=np.int64))
    if len(mrows):
        key = np.lexsort(
            (m["position_ft"].to_numpy(float)[mrows], m["ring"].to_numpy(np.int64)[mrows])
        )
        mrows = mrows[key]
    numbers = {int(r): k + 1 for k, r in enumerate(mrows)}
    # -- gaps, corners and access points on the map and in the lists
    g = rep.gaps.iloc[t.gaps.get(i, np.empty(0, dtype=np.int64))]
    gaps_rep = g[(g["status"] != "ok").to_numpy()]
    lines = gap_lines(rep)
    gap_items = []
    gap_rows = []
    # the figures of a gap over its limit never at or under it, at the decimals shown
    label_ft = gap_figures(gaps_rep, "length_ft", 0).tolist()
    length_ft = gap_figures(gaps_rep, "length_ft", 1).tolist()
    straight_ft = gap_figures(gaps_rep, "straight_ft", 1).tolist()
    for k, r in enumerate(gaps_rep.itertuples()):
        line = lines[r.Index]
        label = _ft(label_ft[k], 0)
        if line is not None:
            gap_items.append((line, str(r.status), label))
        sm, em = int(r.start_marker), int(r.end_marker)
        between = (
            f"{numbers.get(sm, '?')} to {numbers.get(em, '?')}"
            if sm >= 0 and em >= 0
            else "no marker on this ring"
        )
        ring = "outer boundary" if int(r.hole) == 0 else f"hole {int(r.hole)}"
        if int(r.part) > 0:
            ring += f" of part {int(r.part) + 1}"
        gap_rows.append(
            f"<tr><td>G{k + 1}</td><td>{_e(r.status)}</td><td>{between}</td><td>{ring}</td>"
            f"<td class=num>{_ft(length_ft[k])}</td><td class=num>{_ft(straight_ft[k])}</td>"
            f"<td class=num>{_ft(r.limit_ft, 0)}</td></tr>"
        )
    c = rep.corners.iloc[t.corners.get(i, np.empty(0, dtype=np.int64))]
    c = c[c["status"].isin(["missing", "uncertain"]).to_numpy()].reset_index(drop=True)
    corners = pd.DataFrame(
        {
            "label": [f"C{k + 1}" for k in range(len(c))],
            "lon": c["lon"].to_numpy(float),
            "lat": c["lat"].to_numpy(float),
            "status": c["status"].astype(str).to_numpy(),
        }
    )
    a = rep.access.iloc[t.access.get(i, np.empty(0, dtype=np.int64))]
    if len(a):
        a = a[a["status"].isin(["missing", "uncertain"]).to_numpy()].reset_index(drop=True)
    access = pd.DataFrame(
        {
            "label": [f"A{k + 1}" for k in range(len(a))],
            "lon": a["lon"].to_numpy(float) if len(a) else [],
            "lat": a["lat"].to_numpy(float) if len(a) else [],
            "status": a["status"].astype(str).to_numpy() if len(a) else [],
        }
    )
    # -- the map
    geom = t.geoms[i]
    others = (np.empty(0), np.empty(0))
    neighbours: list[Any] = []
    if geom is not None:
        west, south, east, north = _lon_extent(geom)
        dx, dy = (east - west) * 0.6 + 2e-4, (north - south) * 0.6 + 2e-4
        box = (west - dx, south - dy, east + dx, north + dy)
        near = t.markers_in(box)
        near = near[m["parcel"].to_numpy(np.int64)[near] != i]
        others = (m["lon"].to_numpy(float)[near], m["lat"].to_numpy(float)[near])
        neighbours = [t.geoms[j] for j in t.parcels_in(box) if j != i]
    data = _MapData(
        geom,
        neighbours,
        pd.DataFrame(
            {
                "number": [numbers[int(r)] for r in mrows],
                "lon": m["lon"].to_numpy(float)[mrows],
                "lat": m["lat"].to_numpy(float)[mrows],
            }
        ),
        others,
        gap_items,
        corners,
        access,
        rep.settings.ground_ft,
    )
    out.append("<h2>Map</h2><figure>")
    out.append(parcel_svg(data, f"Map of parcel {pid}"))
    lon0 = None if geom is None else round(_middle_lon(geom), 3)
    h = rep.settings.ground_ft
    unit = f"ground feet at {h:,g} ft elevation" if h else "feet"
    out.append(
        '<figcaption class="legend">'
        '<span class="key" style="background:#fdf6d8;border:1px solid #222"></span>parcel'
        '<span class="key" style="background:#1450b4;border-radius:50%;width:2.2mm"></span>'
        "marker (numbered as in the table)"
        '<span class="key" style="background:#d00"></span>gap over the limit or unmarked'
        '<span class="key" style="background:#e80"></span>uncertain'
        '<span class="key" style="border:1.5px solid #d00;border-radius:50%;width:2.6mm;'
        'height:2.6mm"></span>corner without a marker'
        '<span class="key" style="background:#999;border-radius:50%;width:1.6mm;height:1.6mm">'
        "</span>other markers"
        + (
            f"<br>North is up (true north at the parcel); drawn on a transverse Mercator in "
            f"{unit} through meridian {lon0:.3f}°, so the scale bar holds across the map. Drawn "
            "from the report: the figures were measured in the working CRS."
            if lon0 is not None
            else ""
        )
        + "</figcaption></figure>"
    )
    if gap_rows:
        out.append(
            '<h3>Gaps reported</h3><table><colgroup><col style="width:6%"><col style="width:12%">'
            '<col style="width:19%"><col style="width:21%"><col style="width:15%">'
            '<col style="width:15%"><col style="width:12%"></colgroup><thead><tr><th>Gap</th>'
            "<th>Status</th><th>Between markers</th><th>Ring</th><th class=num>Along the "
            "boundary</th><th class=num>Straight</th><th class=num>Limit</th></tr></thead>"
            "<tbody>" + "".join(gap_rows) + "</tbody></table>"
        )
    if len(c):
        # on its status's side of the tolerance at the tenth shown
        near_ft = point_figures(c, rep.settings.corner_tolerance_ft, 1)
        shared = (
            c["marker_shared"].fillna(False).to_numpy(dtype=bool)
            if "marker_shared" in c
            else np.zeros(len(c), dtype=bool)
        )
        # a marker near that serves another corner (one marker serves one corner) is not its own
        near = [
            (_ft(near_ft[k]) or "none") + (", serves another corner" if shared[k] else "")
            for k in range(len(c))
        ]
        out.append(
            '<h3>Corners without a marker</h3><table><colgroup><col style="width:10%">'
            '<col style="width:16%"><col style="width:40%"><col style="width:34%"></colgroup>'
            "<thead><tr><th>Corner</th><th>Status</th><th>Position (lat, lon)</th>"
            "<th class=num>Nearest marker of the parcel</th></tr></thead><tbody>"
            + "".join(
                f"<tr><td>C{k + 1}</td><td>{_e(c['status'].iat[k])}</td>"
                f"<td>{c['lat'].iat[k]:.6f}, {c['lon'].iat[k]:.6f}</td>"
                f"<td class=num>{near[k]}</td></tr>"
                for k in range(len(c))
            )
            + "</tbody></table>"
        )
    if len(access):
        out.append(
            '<h3>Access points without a marker</h3><ul class="small">'
            + "".join(
                f"<li>{_e(r.label)} ({_e(r.status)}): {r.lat:.6f}, {r.lon:.6f}</li>"
                for r in access.itertuples()
            )
            + "</ul>"
        )
    out.append(f"<h2>Markers ({len(mrows)})</h2>")
    if len(mrows):
        out.append(_marker_table(t, mrows, numbers))
    else:
        out.append("<p>No marker was assigned to this parcel.</p>")
    # -- how it was checked
    out.append("<h2>How it was checked</h2>")
    s = rep.settings.as_dict()
    settings = ", ".join(f"{k} = {_num(v, 2) or v}" for k, v in s.items())
    for pr in page.profiles:
        std = " (guidance, not a statute)" if pr["standard"] == "guidance" else ""
        out.append(
            f'<p class="small keep"><b>Rule profile</b> {_e(pr["name"])}: {_e(pr["title"])} '
            f"({_e(pr['citation'])}){std}. <b>Verification</b>: {_e(pr['verification'])}"
            f"{': ' + _e(pr['verification_note']) if pr['verification_note'] else ''} "
            f'<b>File</b> <span class="mono">{_e(pr["file"])}</span>, SHA-256 '
            f'<span class="mono">{_e(pr["sha256"])}</span>.</p>'
        )
    out.append(
        f'<p class="small"><b>Working CRS</b>: {_e(p["working_crs"] or rep.crs)}. '
        f"<b>Settings</b>: {_e(settings)}. <b>Check date</b>: {_e(page.check_date)}. "
        f"<b>Tool</b>: posting {_e(page.tool_version)}"
        + (
            f', its files\' SHA-256 <span class="mono">{_e(page.tool_sha256)}</span>'
            if page.tool_sha256
            else ""
        )
        + ".</p>"
    )
    shown = set(t.photos_on_page)
    out.append(
        _inputs_table(
            [x for x in page.inputs if x["role"] not in _PHOTO_ROLES or x["path"] in shown]
        )
    )
    others = sum(1 for x in page.inputs if x["role"] in _PHOTO_ROLES and x["path"] not in shown)
    if others:
        out.append(
            f'<p class="small">... and {others:,} other photo(s): see index.html and '
            "manifest.json.</p>"
        )
    out.append(
        "<p class=\"small\">The record folder's manifest.json lists these files and every page's "
        "SHA-256; <code>posting verify</code> re-checks them.</p>"
    )
    out.append("</body></html>\n")
    return "".join(out)


_PHOTO_ROLES = ("signs (photo)", "photo")


def _inputs_table(inputs: list[dict[str, Any]]) -> str:
    """Input files with their size and SHA-256 (one line each on the page's width)."""
    return (
        '<table class="inputs"><colgroup><col style="width:9%"><col style="width:28%">'
        '<col style="width:8%"><col style="width:55%"></colgroup><thead><tr><th>Input</th>'
        "<th>File</th><th class=num>Bytes</th><th>SHA-256</th></tr></thead><tbody>"
        + "".join(
            f"<tr><td class=small>{_e(x['role'])}</td><td class=mono>{_e(x['path'])}</td>"
            f"<td class='num small'>{x['size']:,}</td><td class=mono>{_e(x['sha256'])}</td></tr>"
            for x in inputs
        )
        + "</tbody></table>"
    )


def render_index(
    t: _Tables,
    rows: np.ndarray,
    names: dict[int, str],
    unattached: pd.DataFrame | None,
) -> str:
    """The record's first page: the summary, the parcels in the record, what could not be
    placed (markers without a position, photos attached to no marker), and the warnings."""
    rep, page = t.report, t.page
    s = rep.summary()
    cites = "; ".join(p.citation for p in rep.profiles)
    out = [_head("Posting evidence record", f"Posting evidence record · checked {page.check_date}")]
    out.append(
        f"<h1>Posting evidence record</h1><p>{s['parcels']:,} parcels checked against "
        f"{_e(rep.rules_name)} ({_e(cites)}) on {_e(page.check_date)}"
        f"{' by ' + _e(page.checked_by) if page.checked_by else ''}, measured in "
        f"{_e(rep.crs)}.</p>"
    )
    counts = ", ".join(f"{n:,} {STATUS_WORDS[k].lower()}" for k, n in s["status"].items() if n)
    out.append(
        f"<p>{_e(counts)}. Markers: {s['markers_read']:,} read, {s['markers_assigned']:,} "
        f"assigned, {s['markers_unassigned']:,} not assigned.</p>"
    )
    p = rep.parcels
    max_gap = max_gap_figures(rep, 1)  # on its verdict's side of its limit, to a tenth
    out.append(
        f"<h2>Parcels in this record ({len(rows):,})</h2><table><colgroup>"
        '<col style="width:18%"><col style="width:34%"><col style="width:18%">'
        '<col style="width:15%"><col style="width:15%"></colgroup><thead><tr><th>Parcel</th>'
        "<th>Owner</th><th>Verdict</th><th class=num>Acres</th><th class=num>Largest gap</th>"
        "</tr></thead><tbody>"
        + "".join(
            f'<tr><td><a href="{_e(names[int(i)])}">{_e(p["id"].iat[i])}</a></td>'
            f"<td>{_e(p['owner'].iat[i])}</td><td>{_e(STATUS_WORDS.get(p['status'].iat[i]))}</td>"
            f"<td class=num>{_num(p['area_acres'].iat[i], 2)}</td>"
            f"<td class=num>{_ft(max_gap[i])}</td></tr>"
            for i in rows
        )
        + "</tbody></table>"
    )
    m = rep.markers
    un = m[(m["parcel"] < 0).to_numpy()]
    if len(un):
        shown = un.head(500)
        out.append(
            f"<h2>Markers not assigned to any parcel ({len(un):,})</h2><table><colgroup>"
            '<col style="width:30%"><col style="width:8%"><col style="width:22%">'
            '<col style="width:40%"></colgroup><thead><tr><th>File</th><th class=num>Row</th>'
            "<th>Position (lat, lon)</th><th>Why</th></tr></thead><tbody>"
            + "".join(
                f"<tr><td class=mono>{_e(r.source)}</td><td class=num>{int(r.row)}</td>"
                f"<td>{'' if not math.isfinite(r.lat) else f'{r.lat:.6f}, {r.lon:.6f}'}</td>"
                f"<td>{_e(r.reason)}</td></tr>"
                for r in shown.itertuples()
            )
            + "</tbody></table>"
            + (
                f"<p class=small>... and {len(un) - 500:,} more (see report.json).</p>"
                if len(un) > 500
                else ""
            )
        )
    if unattached is not None and len(unattached):
        out.append(
            f"<h2>Photos attached to no marker ({len(unattached):,})</h2><table><colgroup>"
            '<col style="width:45%"><col style="width:55%"></colgroup><thead><tr><th>Photo</th>'
            "<th>Why</th></tr></thead><tbody>"
            + "".join(
                f"<tr><td class=mono>{_e(r.photo)}</td><td>{_e(r.reason)}</td></tr>"
                for r in unattached.itertuples()
            )
            + "</tbody></table>"
        )
    if rep.warnings:
        out.append(
            "<h2>Warnings</h2><ul class=small>"
            + "".join(f"<li>{_e(worded(w, page.name))}</li>" for w in rep.warnings[:200])
            + "</ul>"
        )
    out.append("<h2>Input files</h2>" + _inputs_table(page.inputs) + "</body></html>\n")
    return "".join(out)


def thumbnails(paths: Sequence[str], max_px: int = 200) -> tuple[dict[str, str], list[str]]:
    """Data URIs of the photos' thumbnails (made on all cores), and the problems of the photos
    that could not be read."""
    from concurrent.futures import ThreadPoolExecutor

    from posting.errors import InputError
    from posting.photos import thumbnail_jpeg

    def one(p: str) -> tuple[str, str | None, str | None]:
        try:
            data = thumbnail_jpeg(p, max_px)
        except InputError as exc:
            return p, None, str(exc)
        return p, "data:image/jpeg;base64," + base64.b64encode(data).decode("ascii"), None

    uris: dict[str, str] = {}
    problems: list[str] = []
    unique = sorted(set(paths))
    with ThreadPoolExecutor(max_workers=2) as pool:  # Pillow decodes without the GIL
        for p, uri, why in pool.map(one, unique):
            if uri:
                uris[p] = uri
            elif why:
                problems.append(why)
    return uris, problems


def render_record(
    report: Report,
    rows: np.ndarray,
    page: RecordPage,
    *,
    attached: dict[int, list[str]] | None = None,
    unattached: pd.DataFrame | None = None,
) -> dict[str, str]:
    """Every page of a record: ``index.html`` and one page per parcel row in ``rows``.

    Returns
    -------
    dict
        File name to HTML text, the index first, then the parcels in ``rows`` order.
    """
    t = _Tables(report, page, attached)
    names = page_name(report.parcels["id"].astype(str).to_numpy()[rows], [int(r) for r in rows])
    out = {"index.html": render_index(t, rows, names, unattached)}
    for i in rows:
        out[names[int(i)]] = render_page(t, int(i))
    return out


def photo_paths(report: Report, rows: np.ndarray, attached: dict[int, list[str]]) -> list[str]:
    """The photos shown on the pages of ``rows`` (the markers' own and the attached)."""
    a = marker_attributes(report)
    parcel = report.markers["parcel"].to_numpy(np.int64)
    want = np.isin(parcel, rows)
    out = [p for p in a["photo"].to_numpy(dtype=object)[want] if isinstance(p, str) and p]
    for m in np.flatnonzero(want):
        out += attached.get(int(m), [])
    return out


def check_date_text(value: _dt.date | _dt.datetime | str | None) -> str:
    """The check date as ``YYYY-MM-DD`` (today when None).

    >>> check_date_text(_dt.datetime(2026, 11, 30, 0, 0))
    '2026-11-30'
    """
    if value is None:
        return _dt.date.today().isoformat()
    if isinstance(value, _dt.datetime):
        return value.date().isoformat()
    if isinstance(value, _dt.date):
        return value.isoformat()
    return _dt.date.fromisoformat(str(value)[:10]).isoformat()


# -- printing to PDF through headless Chromium -------------------------------------------------

PAPER_CSS = {"letter": "@page { size: 8.5in 11in; }", "a4": "@page { size: 210mm 297mm; }"}
_LINK = re.compile(r'<a href="[^"]*">')
_PDF_DATE = re.compile(rb"D:\d{14}[+\-Z][^)]{0,8}")
_PDF_NODE = re.compile(rb"\(node(\d{8})\)")


def renumber_nodes(data: bytes) -> bytes:
    """A tagged PDF printed by Chromium with its structure elements' ids (``(node00000040)``,
    the page's DOM node numbers, which a node made or not while the page loads shifts from one
    print to the next) numbered from 1 in their order: each id the same everywhere it appears
    (an element, a table cell's headers, the sorted id tree), with the same width, so that the
    file's cross-reference offsets hold.

    >>> renumber_nodes(b"/ID (node00000041) /Headers [(node00000041)] (node00000330)")
    b'/ID (node00000001) /Headers [(node00000001)] (node00000002)'
    """
    new = {old: k + 1 for k, old in enumerate(sorted({int(i) for i in _PDF_NODE.findall(data)}))}
    return _PDF_NODE.sub(lambda m: b"(node%08d)" % new[int(m.group(1))], data)


def find_chromium() -> str | None:
    """The Chromium (or Chrome) to print with: ``POSTING_CHROMIUM``, else the first of
    ``chromium``, ``chromium-browser``, ``google-chrome`` on the PATH; None when there is none."""
    import os
    import shutil

    env = os.environ.get("POSTING_CHROMIUM")
    if env:
        return env if os.path.exists(env) else None
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def chromium_version(exe: str) -> str:
    """``Chromium 156.0.8078.114 ...`` as the browser says it (the first line)."""
    import subprocess

    try:
        done = subprocess.run(
            [exe, "--version"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unknown ({exc})"
    return (done.stdout.strip().splitlines() or ["unknown"])[0]


def print_pdfs(
    pages: dict[str, str],
    exe: str,
    *,
    paper: str = "letter",
    check_date: str = "",
    workers: int = 2,
) -> dict[str, bytes]:
    """Each HTML page printed to PDF by headless Chromium, on ``paper`` (``letter`` or ``a4``).

    One Chromium process per page (each with its own empty profile, no network service), two at
    a time. Chromium stamps the PDF with the time it was printed; that stamp is replaced by the
    check date (same length, so the file's cross-reference offsets hold), and its structure
    elements' ids are numbered afresh (:func:`renumber_nodes`), which makes a PDF printed twice
    by the same Chromium the same, byte for byte (a loaded machine once gave two prints whose
    ids differed by one from the 40th on).

    Raises
    ------
    InputError
        Chromium failed to print a page.
    """
    import os
    import subprocess
    import tempfile
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path

    from posting.errors import InputError

    stamp = ("D:" + check_date.replace("-", "") + "000000+00'00'").encode() if check_date else b""
    css = PAPER_CSS[paper]

    def one(item: tuple[str, str], tmp: Path) -> tuple[str, bytes]:
        name, text = item
        src = tmp / name
        # the printed copy: the paper size, and no links (Chromium would write the temporary
        # folder's path into the PDF, which would then differ from one print to the next)
        printed = _LINK.sub("<a>", text.replace("</style>", css + "</style>", 1))
        src.write_text(printed, encoding="utf-8")
        pdf = tmp / (Path(name).stem + ".pdf")
        profile = tmp / f"profile-{Path(name).stem}"
        cmd = [
            exe,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-pdf-header-footer",
            f"--user-data-dir={profile}",
            f"--print-to-pdf={pdf}",
            src.resolve().as_uri(),
        ]
        try:
            done = subprocess.run(cmd, capture_output=True, timeout=120, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise InputError(f"chromium could not print {name} ({exc})") from None
        if not pdf.exists() or pdf.stat().st_size == 0:
            why = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no PDF"]
            raise InputError(f"chromium could not print {name} ({why[0]})")
        data = renumber_nodes(pdf.read_bytes())
        if stamp:
            data = _PDF_DATE.sub(
                lambda mt: stamp if len(mt.group()) == len(stamp) else mt.group(), data
            )
        return Path(name).stem + ".pdf", data

    with tempfile.TemporaryDirectory(prefix="posting-pdf-") as d:
        tmp = Path(d)
        with ThreadPoolExecutor(max_workers=max(1, min(workers, os.cpu_count() or 1))) as pool:
            return dict(pool.map(lambda it: one(it, tmp), pages.items()))
