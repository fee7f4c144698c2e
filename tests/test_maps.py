"""The map's page, without a browser: self-contained, escaped, light, and measuring nothing.

What a browser shows is tested in test_maps_browser.py.
"""

from __future__ import annotations

import json
import re
from importlib import resources

import numpy as np
import pandas as pd
import pytest
import shapely
from helpers import SAMPLE, markers, parcels, square
from test_cli import SAMPLE_ARGS, Runner

from posting import check, read_markers, read_parcels
from posting.cli import main
from posting.crs import WGS84
from posting.draw import display_geometry, gap_lines
from posting.maps import SIMPLIFY_FT, STATUS_WORDS, offline_assets, render_map, to_html


@pytest.fixture(scope="module")
def report():
    return check(
        read_parcels(SAMPLE / "parcels.geojson", id_field="parcel_id", owner_field="owner"),
        read_markers([SAMPLE / "signs.csv", SAMPLE / "signs-added.gpx"]),
    )


@pytest.fixture(scope="module")
def page(report) -> str:
    return to_html(report)


# -- reading the page back: an implementation of the page's table format of its own ----------
_JSON = json.JSONDecoder()


def setup_of(page: str) -> tuple[dict, dict]:
    """The context and the shared tables the page hands to ``posting.setup``."""
    at = re.search(r"posting\.setup\(\w+, ", page).end()
    ctx, end = _JSON.raw_decode(page, at)
    assert page[end : end + 2] == ", "
    tables, _ = _JSON.raw_decode(page, end + 2)
    return ctx, tables


def layers_of(page: str) -> list[tuple[str, dict]]:
    """Each ``posting.layer(kind, data)`` of the page, in order."""
    out = []
    for m in re.finditer(r'posting\.layer\("(\w+)", ', page):
        data, _ = _JSON.raw_decode(page, m.end())
        out.append((m.group(1), data))
    return out


def column(spec, n: int) -> list:
    """A column of the page's tables as a plain list of ``n`` values (None where missing)."""
    if spec is None:
        return [None] * n
    if isinstance(spec, list):
        return spec
    if "k" in spec:
        return [None if c < 0 else spec["k"][c] for c in spec["c"]]
    if "d" in spec:
        return np.cumsum(spec["d"], dtype=np.int64).tolist()
    if "s" in spec:
        out = [None] * n
        for i, v in zip(spec["s"], spec["v"], strict=True):
            out[i] = v
        return out
    if "t" in spec:
        out = [None] * n
        for i in spec["t"]:
            out[i] = True
        return out
    raise AssertionError(f"unknown column form {spec}")


def lonlat(xy: list[int]) -> np.ndarray:
    """Coordinates: integer millionths of a degree, each the difference from the one before."""
    return np.cumsum(np.asarray(xy, dtype=np.int64).reshape(-1, 2), axis=0) / 1e6


def shapes(data: dict, polygons: bool) -> list:
    """The layer's lines or polygons as shapely geometries (rings closed again)."""
    xy = lonlat(data["xy"])
    counts = [list(c) for c in data["n"]]
    per_ring = iter(counts[0])
    at = 0

    def ring():
        nonlocal at
        k = next(per_ring)
        pts = xy[at : at + k]
        at += k
        return pts

    out = []
    if polygons:
        per_poly = iter(counts[1])
        for parts in counts[2]:
            polys = []
            for _ in range(parts):
                rings = [ring() for _ in range(next(per_poly))]
                polys.append(shapely.Polygon(rings[0], rings[1:]))
            out.append(polys[0] if len(polys) == 1 else shapely.MultiPolygon(polys))
    else:
        for parts in counts[1]:
            lines = [shapely.LineString(ring()) for _ in range(parts)]
            out.append(lines[0] if len(lines) == 1 else shapely.MultiLineString(lines))
    return out


def parcel_table(page: str) -> pd.DataFrame:
    _, tables = setup_of(page)
    cols = tables["parcels"]
    n = len(cols["id"])
    return pd.DataFrame({k: column(v, n) for k, v in cols.items()})


def drawn_parcels(page: str) -> dict[int, shapely.Geometry]:
    """Parcel row -> the outline the page draws for it."""
    out = {}
    for kind, data in layers_of(page):
        if kind == "parcels":
            rows = column(data["rows"], 0)
            out.update(zip(rows, shapes(data, True), strict=True))
    return out


def layer_table(data: dict) -> pd.DataFrame:
    n = len(data["xy"]) // 2 if "n" not in data else len(data["n"][-1])
    skip = {"xy", "n", "attrs", "rows", "at"}
    return pd.DataFrame({k: column(v, n) for k, v in data.items() if k not in skip}, index=range(n))


def test_assets_are_inline_and_load_nothing():
    css, js = offline_assets()
    assert "sourceMappingURL" not in js
    assert "L.version" in js or 't.version="1.9' in js  # Leaflet itself
    assert "var posting" in js  # our map.js
    urls = re.findall(r"url\(\s*['\"]?([^)'\"]*)", css)
    assert urls and all(u.startswith(("data:image/", "#")) for u in urls)
    assert "data:image/png;base64," in css  # the layer control's icon


def test_page_references_no_file_and_no_server_but_tiles(page, report):
    assert not re.search(r"<script[^>]*\bsrc=", page)
    assert not re.search(r"<link\b", page)
    assert not re.search(r"<img\b", page)
    hosts = set(re.findall(r"https?://([^/\"'\s)]+)", page))
    # tiles; links in Leaflet's and the tiles' attribution; XML namespaces; a bug-tracker URL
    # in a comment of Leaflet's
    assert hosts <= {
        "tile.openstreetmap.org",
        "www.openstreetmap.org",
        "openstreetmap.org",
        "leafletjs.com",
        "www.w3.org",
        "bugzilla.mozilla.org",
    }, hosts
    assert "{s}.tile.openstreetmap.org" in page or "tile.openstreetmap.org/{z}" in page
    assert "tile.openstreetmap.org" not in to_html(report, tiles=False)


def test_title_names_jurisdiction_and_date(page, report):
    m = re.search(r"<title>(.*?)</title>", page)
    assert m and "Florida" in m.group(1)
    ctx, _ = setup_of(page)
    assert ctx["citation"] == "Fla. Stat. 810.011(5)(a)1"
    assert ctx["checked"].startswith(report.generated[:10])
    assert ctx["off_map"]["parcels"] == [{"id": "U1", "status": "invalid", "reason": "no geometry"}]
    assert ctx["target"] == "gaps"  # "you are here" points to gaps and corners on this map


def test_every_figure_comes_from_the_report(page, report):
    table = parcel_table(page)
    p = report.parcels
    assert table["id"].tolist() == p["id"].tolist()
    assert table["status"].tolist() == p["status"].tolist()
    np.testing.assert_allclose(
        table["perimeter_ft"].astype(float), p["perimeter_ft"].round(2), equal_nan=True
    )
    np.testing.assert_allclose(
        table["max_gap_ft"].astype(float), p["max_gap_ft"].round(2), equal_nan=True
    )
    # corners without a marker: counted from the report's corners table
    missing = report.corners[report.corners["status"] == "missing"].groupby("parcel").size()
    assert table["missing_corners"].to_numpy().tolist() == [
        int(missing.get(i, 0)) for i in range(len(p))
    ]
    ctx, tables = setup_of(page)
    f = tables["findings"]
    n = len(report.findings)
    assert column(f["message"], n) == report.findings["message"].tolist()
    assert column(f["parcel"], n) == report.findings["parcel"].tolist()
    assert [ctx["clauses"][c] for c in f["clause"]] == report.findings["clause"].tolist()
    [(_, gaps)] = [(k, d) for k, d in layers_of(page) if k == "gaps"]
    g = layer_table(gaps)
    over = g[g["status"] == "over"]
    assert len(over) == 1
    [row] = over.to_dict("records")
    n06 = p.index[p["id"] == "N06"][0]
    assert table["id"][row["parcel"]] == "N06"
    assert row["length_ft"] == round(p["max_gap_ft"][n06], 2) == 857.16
    assert row["limit_ft"] == 500 and ctx["clauses"][gaps["clause"][over.index[0]]] == (
        "Fla. Stat. 810.011(5)(a)1"
    )


def test_the_words_come_with_the_data_not_from_a_copy_in_the_script(page):
    """Statuses, rule names and verdicts are words of the page's data; map.js has none."""
    ctx, _ = setup_of(page)
    script = (resources.files("posting") / "static" / "map.js").read_text(encoding="utf-8")
    vocab = ctx["vocab"]
    assert vocab["status"]["noncompliant"][1] == STATUS_WORDS["noncompliant"][1]
    assert vocab["rules"]["letter_height"] == "Letter height"
    assert set(vocab["statuses"]) >= set(STATUS_WORDS)
    words = [w for pair in vocab["status"].values() for w in pair[1:]]
    words += list(vocab["gap"].values()) + list(vocab["how"].values())
    # "Corners" and "Access points" also head facts of a parcel's popup, which map.js names
    words += [w for w in vocab["rules"].values() if w not in ("Corners", "Access points")]
    assert not [w for w in words if f'"{w}' in script]


def test_outlines_are_the_display_geometry_and_coordinates_are_rounded(page, report):
    drawn = drawn_parcels(page)
    shown = display_geometry(report, SIMPLIFY_FT)
    assert set(drawn) == set(np.flatnonzero(~pd.isna(shown)))
    for row, geom in drawn.items():
        assert shapely.equals_exact(shapely.normalize(geom), shapely.normalize(shown[row]), 1e-9)
    coords = shapely.get_coordinates(list(drawn.values()))
    assert len(coords) > 200
    np.testing.assert_allclose(coords, np.round(coords, 6), rtol=0, atol=1e-12)


def test_gap_lines_are_the_reports(page, report):
    [(_, gaps)] = [(k, d) for k, d in layers_of(page) if k == "gaps"]
    lines = shapes(gaps, False)
    shown = report.gaps["status"].isin(["over", "unmarked", "uncertain"]).to_numpy()
    posted = report.parcels["status"].to_numpy()[report.gaps["parcel"]] != "unposted"
    expected = gap_lines(report)[shown & posted]
    assert len(lines) == len(expected) == 2
    for a, b in zip(lines, expected, strict=True):
        # the same line to the display precision (a millionth of a degree)
        assert shapely.hausdorff_distance(a, b) < 1e-6


def test_properties_are_written_once_and_the_page_is_light():
    """400 lots of 300 x 300 ft, one owner, a sign 3 ft inside each corner (gaps of 294-300 ft:
    compliant under the 500 ft limit): the page writes each repeated text once and stays under
    25 bytes per drawn coordinate (a GeoJSON feature per lot and per sign took about 60)."""
    lots = [square(300, x0=310 * (k % 20), y0=310 * (k // 20)) for k in range(400)]
    inside = ((3, 3), (297, 3), (297, 297), (3, 297))
    signs = [(310 * (k % 20) + dx, 310 * (k // 20) + dy) for k in range(400) for dx, dy in inside]
    r = check(
        parcels(*lots, owners=["Harney Timber"] * 400),
        markers(signs, attributes=pd.DataFrame({"text": ["NO TRESPASSING"] * len(signs)})),
    )
    assert (r.parcels["status"] == "compliant").all()
    page = to_html(r, tiles=False)
    assert page.count("Harney Timber") == 1 and page.count("NO TRESPASSING") == 1
    assert page.count('"compliant"') < 10
    data = sum(len(m.group(0)) for m in re.finditer(r"posting\.layer\(.*?\);\n", page))
    n_coords = 400 * 4 + len(signs)  # rings are not closed again in the page
    assert data / n_coords < 25, data / n_coords


def test_display_geometry_is_close_to_the_measured_one_and_changes_no_figure(report):
    before = report.parcels.copy()
    shown = display_geometry(report, SIMPLIFY_FT)
    full = report.geometry.geometry_ft
    ok = report.geometry.group >= 0
    assert (shapely.get_num_coordinates(shown[ok]) <= shapely.get_num_coordinates(full[ok])).all()
    # back in working feet, every shown outline lies within the tolerance plus the rounding
    # (1e-6 degree: under 0.2 ft either way at this latitude) of the measured outline
    [wcrs] = report.geometry.crss
    back = wcrs.geoms_to_ft(shown[ok], WGS84)
    assert shapely.hausdorff_distance(back, full[ok]).max() <= SIMPLIFY_FT + 0.3
    render_map(report)
    pd.testing.assert_frame_equal(report.parcels, before)


def test_a_county_outline_is_simplified():
    # a circle digitised with a vertex every 0.3 ft of arc: simplifying by a foot keeps a
    # polygon within a foot of the original, with far fewer vertices
    circle = shapely.Point(0, 0).buffer(2000, quad_segs=10_000)
    r = check(parcels(circle))
    shown = display_geometry(r, 1.0)[0]
    full = r.geometry.geometry_ft[0]
    assert shapely.get_num_coordinates(shown) < shapely.get_num_coordinates(full) / 10
    back = r.geometry.crss[0].geoms_to_ft(np.array([shown]), WGS84)[0]
    assert shapely.hausdorff_distance(back, full) < 1.3


HOSTILE = "</script><script>alert(1)</script><img src=x onerror=alert(2)>"


def test_input_text_cannot_close_the_script_or_inject_markup():
    r = check(
        parcels(square(600), ids=[HOSTILE], owners=[HOSTILE]),
        markers([(300, 0)], attributes=pd.DataFrame({"text": [HOSTILE]})),
    )
    page = to_html(r, tiles=False)
    assert "<img" not in page and "</script><script>" not in page
    # the text is all there, escaped for the script it sits in
    assert page.count("\\u003c/script\\u003e\\u003cscript\\u003ealert(1)") >= 3
    assert "\\u003cimg src=x onerror=alert(2)\\u003e" in page
    # the layer control's names are our own markup, not input text
    names = re.findall(r'"([^"]*)" : report_layer_\w+', page)
    assert names and not any("alert" in n for n in names)


TEMPLATE_CODE = ["ACME {{ 7*7 }} LLC", "{% if x %}", "{# note", "{{ this.__class__ }}"]


def test_input_text_is_not_template_code():
    # folium renders each element's script through jinja2: text in the data must come out as
    # it was given, not evaluated (49), nor stop the map (an unclosed {% if %})
    r = check(
        parcels(
            *(square(600, x0=700 * i) for i in range(4)), ids=TEMPLATE_CODE, owners=TEMPLATE_CODE
        ),
        markers([(300, 0)], attributes=pd.DataFrame({"text": [TEMPLATE_CODE[0]]})),
    )
    page = to_html(r, tiles=False)
    table = parcel_table(page)
    assert table["id"].tolist() == TEMPLATE_CODE
    assert "owner" not in table or table["owner"].tolist() == TEMPLATE_CODE
    assert "ACME 49 LLC" not in page and "<class" not in page
    assert len(drawn_parcels(page)) == 4


def test_a_bidirectional_control_in_input_text_shows_as_its_code_point():
    """U+202E (right-to-left override) makes the rest of a text display in reverse: a popup
    showed the id "P", U+202E, "12" as "P21" and the sign's "NO ", U+202E, "GNISSAPSERT" as "NO
    TRESPASSING". The map shows each control as its code point, as the evidence pages do, in
    every text of the page (the popups, the labels and the Find list all read these tables)."""
    r = check(
        parcels(square(600), ids=["P\u202e12"], owners=["Ann \u2066Lee\u2069"]),
        markers([(300, 0)], attributes=pd.DataFrame({"text": ["NO \u202eGNISSAPSERT"]})),
    )
    page = to_html(r, tiles=False, title="Parcel \u202eP1")
    assert not re.search("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]", page)
    table = parcel_table(page)
    assert table["id"].tolist() == ["P[U+202E]12"]
    assert table["owner"].tolist() == ["Ann [U+2066]Lee[U+2069]"]
    (signs,) = [data for kind, data in layers_of(page) if kind == "markers"]
    assert "NO [U+202E]GNISSAPSERT" in json.dumps(signs)
    assert "<title>Parcel [U+202E]P1</title>" in page
    assert setup_of(page)[0]["title"] == "Parcel [U+202E]P1"


def other_work(report, monkeypatch):
    """The sample's Report with what other work adds: an exemption, a merged property with
    water frontage, a missing access point, a water stretch, an easement and an unfenced one."""
    p = report.parcels.copy()
    n01 = p.index[p["id"] == "N01"][0]
    n02 = p.index[p["id"] == "N02"][0]
    p.loc[n01, ["status", "exemption"]] = ["exempt", "five acres or less with a dwelling house"]
    p["source_ids"] = [None] * len(p)
    p.at[n02, "source_ids"] = ["N02", "N02b"]
    p["water_frontage_ft"] = np.where(p.index == n02, 120.5, 0.0)
    monkeypatch.setattr(report, "parcels", p)
    s2 = int(p.index[p["id"] == "S2"][0])
    access = pd.DataFrame(
        {
            "parcel": [s2],
            "ring": [0],
            "position_ft": [0.0],
            "x_ft": [0.0],
            "y_ft": [0.0],
            "lon": [-81.1175],
            "lat": [28.7410],
            "feature": [0],
            "type": ["driveway"],
            "nearest_ft": [np.nan],
            "neighbour_ft": [np.nan],
            "status": ["missing"],
        }
    )
    monkeypatch.setattr(report, "access", access)
    line = shapely.LineString([(-81.1195, 28.7484), (-81.1190, 28.7484)])
    stretch = pd.DataFrame({"parcel": [n02], "length_ft": [120.5], "geometry": [line]})
    monkeypatch.setattr(report, "water", stretch)
    monkeypatch.setattr(report, "easements", stretch.assign(holder=["Florida Power"]))
    monkeypatch.setattr(report, "fence_gaps", stretch.assign(length_ft=[60.0]))
    return report


def test_layers_for_water_access_exemptions_merged_properties_and_a_plan(report, monkeypatch):
    """The map draws what other work adds to the Report, as soon as it is there."""
    other_work(report, monkeypatch)
    plan = pd.DataFrame(
        {"lon": [-81.115], "lat": [28.747], "parcel_id": ["N06"], "role": ["interval"]}
    )
    page = to_html(report, tiles=False, planned=plan)
    layers = dict(layers_of(page))
    table = parcel_table(page)
    ids = table["id"].tolist()
    access = layer_table(layers["access"])
    assert ids[access["parcel"][0]] == "S2" and access["type"][0] == "driveway"
    assert column(layers["planned"]["attrs"]["parcel_id"], 1) == ["N06"]
    assert column(layers["planned"]["attrs"]["role"], 1) == ["interval"]
    for kind in ("water", "easements", "fences"):
        t = layer_table(layers[kind])
        assert ids[t["parcel"][0]] == "N02", kind
    assert layer_table(layers["easements"])["holder"][0] == "Florida Power"
    merged = column(layers["merged"]["rows"], 0)
    assert [ids[r] for r in merged] == ["N02"]
    assert table["source_ids"][merged[0]] == "N02, N02b"
    assert table["water_frontage_ft"][merged[0]] == 120.5
    exempt = table[table["status"] == "exempt"]
    assert exempt["exemption"].tolist() == ["five acres or less with a dwelling house"]
    for name in ("Exempt parcels (1)", "Boundaries formed by water (1)", "Merged properties (1)"):
        assert name in page
    assert "Access points without a marker (1)" in page and "Easements (1)" in page
    ctx, _ = setup_of(page)
    assert ctx["target"] == "planned"  # "you are here" points to the planned markers


def test_a_planned_markers_popup_shows_its_figures_whole_and_no_row_numbers():
    """The plan's own table as the map's planned layer: each figure shown to a tenth (as the
    plan's exports give them), never cut to six digits in scientific notation (a working-CRS
    northing of 10,436,841 ft came out as "1.04368e+07", 41 ft off), and the parcel named by
    its id, not by its row in the report ("parcel 5" beside "parcel_id N06")."""
    from posting.planning import plan

    lots = [square(y0=2_345_678), square(x0=3000, y0=2_345_678)]  # 444 miles north
    r = check(parcels(*lots, ids=["FIRST", "SECOND"]))
    p = plan(r).markers
    assert len(p) and set(p["parcel_id"]) == {"FIRST", "SECOND"}
    [data] = [d for kind, d in layers_of(to_html(r, tiles=False, planned=p)) if kind == "planned"]
    n = len(p)
    attrs = {k: column(v, n) for k, v in data["attrs"].items()}
    assert "parcel" not in attrs and "ring" not in attrs  # rows of the report, not names
    assert attrs["parcel_id"] == p["parcel_id"].tolist()
    for col in ("y_ft", "x_ft", "along_ft", "azimuth_deg"):
        shown = [float(s.replace(",", "")) for s in attrs[col]]
        assert np.allclose(shown, p[col].to_numpy(float), rtol=0, atol=0.05 + 1e-9), col
    assert all("e+" not in s for s in attrs["y_ft"])
    assert max(abs(p["y_ft"])) > 1e6  # the case that lost its last digits


def aleutian_lots():
    """Two lots 0.003° by 0.002° either side of the antimeridian, 0.002° apart across it (about
    450 ft at 51.8° N), each with a sign at a corner."""
    east = shapely.box(179.996, 51.8, 179.999, 51.802)
    west = shapely.box(-179.999, 51.8, -179.996, 51.802)
    signs = markers([(179.999, 51.8), (-179.999, 51.8)], crs="EPSG:4326")
    return check(parcels(east, west, ids=["EAST", "WEST"], crs="EPSG:4326"), signs)


def test_land_both_sides_of_the_antimeridian_is_drawn_side_by_side():
    """The map of two Aleutian lots 450 ft apart across 180° opened on the whole Earth, one lot
    at each edge: now the west lot is drawn east of 180 (its longitudes + 360), beside the
    other, and the view fits the two."""
    r = aleutian_lots()
    assert r.parcels["status"].tolist() == ["noncompliant", "noncompliant"]
    page = to_html(r, tiles=False)
    ctx, _ = setup_of(page)
    assert np.allclose(ctx["bounds"], [[51.8, 179.996], [51.802, 180.004]], atol=1e-6)
    assert ctx["east_of_180"] is True
    drawn = drawn_parcels(page)
    assert shapely.equals_exact(drawn[0], shapely.box(179.996, 51.8, 179.999, 51.802), 1e-6)
    west = shapely.box(-179.999 + 360, 51.8, -179.996 + 360, 51.802)
    assert shapely.equals_exact(shapely.normalize(drawn[1]), shapely.normalize(west), 1e-6)
    for kind, data in layers_of(page):
        lon = lonlat(data["at"] if kind == "parcels" else data["xy"])[:, 0]
        assert ((179.99 < lon) & (lon < 180.01)).all(), kind
    # a map on one side of 180 keeps its longitudes
    ctx, _ = setup_of(to_html(check(parcels(square())), tiles=False))
    assert ctx["east_of_180"] is False and ctx["bounds"][0][1] < 0


def test_the_layer_list_counts_what_the_report_counts():
    """A stated accuracy of 5 ft. A 300 ft square whose south-west corner's sign stands 28 ft
    east of it (within 30 +/- 5 ft: uncertain, not missing), and a 996 x 300 ft lot signed at
    its corners and the middles of its long sides (gaps of 498 ft, within 5 ft of the 500 ft
    limit: uncertain). The layer list said "Corners without a marker (1)" and "Gaps longer
    than 500 ft (4)": the report has no corner without a marker and no gap known to be longer
    than 500 ft."""
    from posting.settings import Settings

    signs = [(28, 0), (300, 0), (300, 300), (0, 300)]
    signs += [(2000 + x, y) for x in (0, 498, 996) for y in (0, 300)]
    lots = [square(300), shapely.box(2000, 0, 2996, 300)]
    r = check(parcels(*lots, ids=["Q", "R"]), markers(signs), settings=Settings(accuracy_ft=5))
    c = r.corners[r.corners["status"] != "ok"]
    assert c["status"].tolist() == ["uncertain"] and c["nearest_ft"].tolist() == [28.0]
    g = r.gaps[r.gaps["status"] != "ok"]
    assert g["status"].tolist() == ["uncertain"] * 4 and g["length_ft"].tolist() == [498.0] * 4
    page = to_html(r, tiles=False)
    assert "Corners without a marker" not in page and "Gaps longer than" not in page
    assert "Corners marked only within the survey accuracy (1)" in page
    assert "Gaps that may be over 500 ft (4)" in page
    # the sample: one gap over the limit and one ring with no marker, two corners missing
    sample = to_html(
        check(
            read_parcels(SAMPLE / "parcels.geojson", id_field="parcel_id", owner_field="owner"),
            read_markers([SAMPLE / "signs.csv", SAMPLE / "signs-added.gpx"]),
        ),
        tiles=False,
    )
    assert "Gaps longer than 500 ft (1), rings with no marker (1)" in sample
    assert "Corners without a marker (2)" in sample


def test_a_gap_uncertain_by_the_lands_elevation_is_not_said_to_be_within_the_survey_accuracy():
    """A 1,000 ft square in Florida signed every 500 ft, no accuracy stated and no elevation
    given: each of its 8 gaps of exactly 500 ft is 500.00-500.01 ft on the ground at Florida's
    elevations (0 to 345 ft), so uncertain. The map's layer list, legend and gap popups said
    they were "within the stated survey accuracy of the limit", where no accuracy was stated:
    now they say the gaps may be over the limit, and the popup quotes the parcel's finding."""
    signs = [(x, y) for x in (0, 500, 1000) for y in (0, 500, 1000) if (x, y) != (500, 500)]
    r = check(parcels(square(), ids=["E"]), markers(signs))
    assert r.settings.accuracy_ft in (None, 0)
    g = r.gaps
    assert g["status"].tolist() == ["uncertain"] * 8 and g["length_ft"].tolist() == [500.0] * 8
    [finding] = r.to_dict()["parcels"][0]["uncertain"]
    assert "Florida's elevations" in finding["message"]
    page = to_html(r, tiles=False)
    assert "survey accuracy of the limit" not in page
    assert "survey accuracy of 500 ft" not in page
    assert "Gaps that may be over 500 ft (8)" in page
    ctx, _ = setup_of(page)
    [gap_label] = [x["label"] for x in ctx["legend"] if x["shape"] == "line"]
    assert gap_label == "Gap that may be over the limit: uncertain (its popup says why)"
    assert ctx["vocab"]["gap"]["uncertain"] == (
        "uncertain: it may be over the limit, and the data cannot settle it"
    )


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        (
            "florida",
            "markers not more than 500 ft apart along the boundary; a marker at each corner",
        ),
        # RSMo 569.145(1): "either" passes a gap whose straight line or length along the line is
        # within 100 ft (it read "markers not more than 100 ft apart apart")
        ("missouri", "markers not more than 100 ft apart in a straight line or along the boundary"),
        (
            "north-dakota",
            "markers not more than 2,640 ft apart in a straight line or along the boundary",
        ),
    ],
)
def test_the_legend_words_the_rule(rules, words):
    r = check(parcels(square(), ids=["Q"]), markers([(0, 0), (500, 0)]), rules)
    ctx, _ = setup_of(to_html(r, tiles=False))
    assert ctx["rule_text"] == words


def test_a_corner_whose_marker_serves_another_says_so():
    """The flag lot's road corner left without a sign: the corners layer flags it (its nearest
    sign, 12.5 ft away, serves the other road corner) and the popup says so."""
    from helpers import flag_lot

    lot, signs = flag_lot()
    page = to_html(check(parcels(lot), markers(signs)))
    [data] = [d for kind, d in layers_of(page) if kind == "corners"]
    t = layer_table(data)
    assert t[["status", "nearest_ft", "shared"]].values.tolist() == [["missing", 12.5, True]]
    assert "the markers near it serve other corners" in page
    # where no corner shares its marker, no flag is sent
    [data] = [
        d
        for kind, d in layers_of(to_html(check(parcels(lot), markers(signs[1:]))))
        if kind == "corners"
    ]
    assert "shared" not in data


def test_empty_report_still_makes_a_map():
    r = check(parcels(shapely.Polygon()))
    page = to_html(r, tiles=False)
    assert "posting.setup(" in page and "posting.layer(" not in page


# -- the command line -----------------------------------------------------------------------
@pytest.fixture
def runner():
    return Runner()


def test_check_writes_the_map_whatever_the_exit_status(runner, tmp_path):
    out = tmp_path / "map.html"
    res = runner.invoke(main, ["check", *SAMPLE_ARGS, "--map", str(out), "-q"])
    assert res.exit_code == 1  # the sample is not all compliant; the map is written anyway
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and "tile.openstreetmap.org" in text
    res = runner.invoke(main, ["check", *SAMPLE_ARGS, "--map", str(out), "--no-tiles", "-q"])
    assert "tile.openstreetmap.org" not in out.read_text(encoding="utf-8")


def test_map_command(runner, tmp_path):
    out = tmp_path / "map.html"
    res = runner.invoke(main, ["map", *SAMPLE_ARGS, "-o", str(out), "--accuracy-ft", "16"])
    assert res.exit_code == 0, res.stderr
    assert "29 parcels checked" in res.stderr and f"map: {out}" in res.stderr
    ctx, _ = setup_of(out.read_text())
    assert ctx["accuracy_ft"] == 16.0
    # N09 (a 496 ft gap); N05 and L07, whose signs by a line shared with another owner's lot
    # name no owner of record (a lessee; none), so a 16 ft survey cannot tell their side
    assert {"status": "uncertain", "n": 3, "color": "#f08c00"} in ctx["counts"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["map", "nope.geojson", "-o", "m.html"], "nope.geojson: no such file"),
        (["map", *SAMPLE_ARGS], "Missing option '-o'"),
        (["check", *SAMPLE_ARGS, "--map", "-", "--json", "-"], "only one output can go to stdout"),
        (["map", *SAMPLE_ARGS, "-o", "/nonexistent/dir/m.html"], "does not exist"),
    ],
)
def test_map_bad_input_exits_2_and_writes_nothing(runner, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(main, args)
    assert res.exit_code == 2
    assert message in res.stderr
    assert list(tmp_path.iterdir()) == []


def test_points_of_no_marker_kind_are_drawn_apart_and_say_so():
    """A square lot with a sign at one corner and a monument (kind ``other``: a survey's point
    left out by ``--signs-where``) at another, and a sign far from it: only the monument is
    flagged (the rows the layer holds it at), and the legend counts it."""
    signs = [(0.0, 0.0), (1000.0, 0.0), (5000.0, 5000.0)]
    kinds = pd.DataFrame({"kind": ["sign", "not selected", "sign"]})
    page = to_html(check(parcels(square()), markers(signs, attributes=kinds)))
    [data] = [d for kind, d in layers_of(page) if kind == "markers"]
    t = layer_table(data)
    assert t["parcel"].tolist() == [0, 0, -1]
    assert t["uncounted"].fillna(False).tolist() == [False, True, False]
    ctx, _ = setup_of(page)
    labels = [item["label"] for item in ctx["legend"]]
    assert "Point of no marker kind, counted for no rule (1)" in labels
    assert "no rule: its kind is not a sign, paint mark or post" in page
    # none of no kind: nothing sent, no legend line
    page = to_html(check(parcels(square()), markers(signs)))
    [data] = [d for kind, d in layers_of(page) if kind == "markers"]
    assert "uncounted" not in data
    assert not any("no marker kind" in i["label"] for i in setup_of(page)[0]["legend"])


def test_a_gap_that_fails_by_four_thousandths_is_never_shown_at_the_limit_in_a_popup():
    """A 500.004 ft gap fails 500 ft: the page's data held 500 (its hundredths rounded), and
    the popups read "Longest gap 500 ft", "Along the boundary 500 ft", "measured 500 ft". The
    data holds 500.01 for the gap and the violation (the popup's ftVs shows hundredths where
    tenths read as the limit) and 500.1 for the parcel's largest gap (shown to a tenth)."""
    from helpers import AT_SEA, CORNERS_AND_MIDPOINTS

    pts = [p for p in CORNERS_AND_MIDPOINTS if p != (500, 0)] + [(500.004, 0)]
    r = check(parcels(square()), markers(pts), settings=AT_SEA)  # (no elevation band)
    page = to_html(r)
    table = parcel_table(page)
    assert table["max_gap_ft"].tolist() == [500.1]
    _, tables = setup_of(page)
    assert column(tables["findings"]["measured"], 1) == [500.01]
    [(_, gaps)] = [(k, d) for k, d in layers_of(page) if k == "gaps"]
    [row] = layer_table(gaps).to_dict("records")
    assert (row["status"], row["length_ft"], row["straight_ft"], row["measured_ft"]) == (
        "over",
        500.01,
        500.01,
        500.01,
    )
    assert row["limit_ft"] == 500


def test_the_map_of_a_lot_across_the_antimeridian_opens_on_the_whole_lot():
    """Lot A across 180 degrees in Alaska Albers, alone and without signs: the map's extent
    holds its four corners (their longitudes, west of 180 as they are, east of it plus 360).
    Its box as the least and greatest corner longitude (the rest of the globe), turned round,
    was 179.989 to 180.002: the map opened on a part of the lot."""
    from pyproj import Transformer
    from test_assign import ALASKA_ALBERS, aleutian_lots

    from posting import check
    from posting.draw import extent_lonlat

    lots, _ = aleutian_lots("east")
    r = check(parcels(lots[0], ids=["A"], crs=ALASKA_ALBERS), markers([], crs=ALASKA_ALBERS))
    back = Transformer.from_crs(ALASKA_ALBERS, "EPSG:4326", always_xy=True)
    lon, lat = back.transform(*np.asarray(lots[0].exterior.coords).T)
    lon = np.where(lon < 0, lon + 360, lon)  # 179.980 to 180.011
    west, south, east, north = extent_lonlat(r)
    assert (west, east) == pytest.approx((lon.min(), lon.max()), abs=1e-9)
    assert (south, north) == pytest.approx((lat.min(), lat.max()), abs=1e-9)


def _gaps_of(page: str) -> pd.DataFrame:
    [data] = [d for k, d in layers_of(page) if k == "gaps"]
    return layer_table(data)


def texas_lot_over_both():
    """Texas's paint marks (not more than 100 ft apart on forest land, 1,000 ft elsewhere): a
    1,500 x 400 ft lot marked at its four corners, its land cover not given: two gaps of
    1,500 ft (over both figures: a violation against 1,000 ft) and two of 400 ft (between the
    two: uncertain)."""
    paint = pd.DataFrame({"kind": ["paint"] * 4})
    return check(
        parcels(shapely.box(0, 0, 1500, 400), ids=["TX-1"]),
        markers([(0, 0), (1500, 0), (1500, 400), (0, 400)], attributes=paint),
        rules="texas",
    )


def test_a_gap_over_both_limits_by_land_cover_is_given_the_limit_its_violation_judged():
    """The report's gaps keep the stricter figure (100 ft) for each gap whose land cover is
    not known, while the violation judged the 1,500 ft gaps against 1,000 ft: the map's popup
    said "Limit: not more than 100 ft" beside a finding that says 1,000. The map now holds the
    finding's figure for those gaps, and words both figures for the 400 ft ones."""
    r = texas_lot_over_both()
    d = r.to_dict()["parcels"][0]
    [violation] = d["violations"]
    assert (violation["rule"], violation["limit"]) == ("spacing", 1000.0)
    [unsure] = d["uncertain"]
    assert unsure["limit"] == 100.0 and "the land cover is not known" in unsure["message"]
    # the report's gaps: 100 ft, as they were (the figure that surely suffices on any land)
    assert sorted((g["length_ft"], g["status"], g["limit_ft"]) for g in d["gaps"]) == [
        (400.0, "uncertain", 100.0),
        (400.0, "uncertain", 100.0),
        (1500.0, "over", 100.0),
        (1500.0, "over", 100.0),
    ]
    gaps = _gaps_of(to_html(r, tiles=False))
    over = gaps[gaps["status"] == "over"]
    between = gaps[gaps["status"] == "uncertain"]
    assert over["length_ft"].tolist() == [1500, 1500] and between["length_ft"].tolist() == [400] * 2
    assert over["limit_ft"].tolist() == [violation["limit"]] * 2  # 1,000, as the violation
    assert set(over["limit_words"]) == {
        "not more than 1,000 ft on any land (100 ft on forest land)"
    }
    assert between["limit_ft"].tolist() == [unsure["limit"]] * 2  # 100
    # a rule of one figure (Florida's 500 ft): the popup's limit is the figure, no words
    from helpers import AT_SEA

    one = check(parcels(square()), markers([(0, 0), (1000, 0)]), settings=AT_SEA)
    data = dict(layers_of(to_html(one, tiles=False)))["gaps"]
    assert "limit_words" not in data and "figure" not in data
    assert set(layer_table(data)["limit_ft"]) == {500}
    assert set(between["limit_words"]) == {
        "not more than 100 ft on forest land, 1,000 ft on other land: the land cover is not known"
    }


def test_a_gap_over_a_guidance_layouts_figure_is_drawn_as_an_uncertain_gap():
    """Alaska's 660 ft is a guidance layout's figure (``standard = "guidance"``: the statute
    gives none). A 1,000 ft square marked at its corners has four 1,000 ft gaps over it, and
    the parcel is uncertain (its spacing finding is uncertain, no violation). The map drew the
    gaps as "over the limit" (solid, "longer than the limit"); it draws them as the uncertain
    ones, and its layer list and legend say no gap is over the limit."""
    from helpers import AT_SEA

    r = check(
        parcels(square(), ids=["AK-1"]),
        markers([(0, 0), (1000, 0), (1000, 1000), (0, 1000)]),
        rules="alaska",
        settings=AT_SEA,
    )
    d = r.to_dict()["parcels"][0]
    assert d["status"] == "uncertain" and d["violations"] == []
    assert [g["status"] for g in d["gaps"]] == ["over"] * 4  # the figure's verdict, kept
    assert "guidance figure" in d["uncertain"][0]["message"]
    page = to_html(r, tiles=False)
    gaps = _gaps_of(page)
    assert gaps["status"].tolist() == ["uncertain"] * 4
    assert gaps["length_ft"].tolist() == [1000] * 4 and gaps["limit_ft"].tolist() == [660] * 4
    assert "Gaps that may be over 660 ft (4)" in page and "Gaps longer than 660 ft" not in page
    ctx, _ = setup_of(page)
    [line] = [x for x in ctx["legend"] if x["shape"] == "line"]
    assert line["label"] == "Gap that may be over the limit: uncertain (its popup says why)"


def test_a_gaps_figure_is_the_one_its_rule_judged():
    """Missouri's marks "no more than one hundred feet apart" (``metric = "either"``): a
    1,000 ft square marked at the middle of each side has four gaps of 1,000 ft along the
    boundary, each round a corner, and sqrt(500^2 + 500^2) = 707.11 ft in a straight line, the
    figure the rule compares (the more lenient). The map's label was the length along the
    boundary; the page now holds the judged figure and says it is the straight line."""
    from helpers import AT_SEA

    paint = pd.DataFrame({"kind": ["paint"] * 4})
    r = check(
        parcels(square(), ids=["MO-1"]),
        markers([(500, 0), (1000, 500), (500, 1000), (0, 500)], attributes=paint),
        rules="missouri",
        settings=AT_SEA,
    )
    [violation] = [v for v in r.to_dict()["parcels"][0]["violations"] if v["rule"] == "spacing"]
    assert violation["measured"] == pytest.approx(707.11, abs=0.01)
    gaps = _gaps_of(to_html(r, tiles=False))
    assert gaps["length_ft"].tolist() == [1000] * 4
    assert gaps["measured_ft"].tolist() == pytest.approx([(500**2 + 500**2) ** 0.5] * 4, abs=0.01)
    assert gaps["figure"].tolist() == ["straight"] * 4
