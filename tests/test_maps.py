"""The map's page, without a browser: self-contained, escaped, light, and measuring nothing.

What a browser shows is tested in test_maps_browser.py.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
import shapely
from helpers import SAMPLE, markers, parcels, square
from test_cli import SAMPLE_ARGS, Runner

from posting import check, read_markers, read_parcels
from posting.cli import main
from posting.crs import WGS84
from posting.draw import display_geometry
from posting.maps import SIMPLIFY_FT, offline_assets, render_map, to_html


@pytest.fixture(scope="module")
def report():
    return check(
        read_parcels(SAMPLE / "parcels.geojson", id_field="parcel_id", owner_field="owner"),
        read_markers([SAMPLE / "signs.csv", SAMPLE / "signs-added.gpx"]),
    )


@pytest.fixture(scope="module")
def page(report) -> str:
    return to_html(report)


def _layers(page: str) -> dict[str, dict]:
    """The data of each layer in the page, by kind (several parcel layers merged)."""
    out: dict[str, dict] = {}
    for kind, data in re.findall(r'posting\.layer\("(\w+)", (\{.*?\})\);\n', page):
        fc = json.loads(data)
        out.setdefault(kind, {"type": "FeatureCollection", "features": []})
        out[kind]["features"] += fc["features"]
    return out


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
    ctx = json.loads(re.search(r"posting\.setup\(\w+, (\{.*?\})\);\n", page).group(1))
    assert ctx["citation"] == "Fla. Stat. 810.011(5)(a)1"
    assert ctx["checked"].startswith(report.generated[:10])
    assert ctx["ids"][:3] == ["N01", "N02", "N03"] and "U1" not in ctx["ids"]
    assert ctx["off_map"]["parcels"] == [{"id": "U1", "status": "invalid", "reason": "no geometry"}]


def test_every_figure_comes_from_the_report(page, report):
    layers = _layers(page)
    d = {p["id"]: p for p in report.to_dict()["parcels"]}
    drawn = {f["properties"]["id"]: f["properties"] for f in layers["parcels"]["features"]}
    assert set(drawn) == set(d) - {"U1"}
    for pid, props in drawn.items():
        assert props["status"] == d[pid]["status"]
        assert props.get("perimeter_ft") == d[pid]["perimeter_ft"]
        assert props.get("max_gap_ft") == d[pid]["max_gap_ft"]
        assert [v[2] for v in props.get("violations", [])] == [
            v["message"] for v in d[pid]["violations"]
        ]
    [gap] = [
        f["properties"] for f in layers["gaps"]["features"] if f["properties"]["status"] == "over"
    ]
    assert gap["parcel"] == "N06" and gap["length_ft"] == d["N06"]["max_gap_ft"]
    assert gap["limit_ft"] == 500.0


def test_coordinates_rounded_for_display(page):
    layers = _layers(page)
    coords = shapely.get_coordinates(
        [
            shapely.from_geojson(json.dumps(f["geometry"]))
            for k in layers.values()
            for f in k["features"]
        ]
    )
    assert len(coords) > 500
    np.testing.assert_allclose(coords, np.round(coords, 6), rtol=0, atol=1e-12)


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


def test_layers_for_water_access_exemptions_merged_properties_and_a_plan(report, monkeypatch):
    """The map draws what other work will add to the Report, as soon as it is there."""
    d = report.to_dict()
    s2 = next(p for p in d["parcels"] if p["id"] == "S2")
    s2["missing_access"] = [[-81.12, 28.74]]
    n01 = next(p for p in d["parcels"] if p["id"] == "N01")
    n01["status"], n01["exemption"] = "exempt", "five acres or less with a dwelling house"
    n02 = next(p for p in d["parcels"] if p["id"] == "N02")
    n02["source_ids"] = ["N02", "N02b"]
    n02["water_frontage_ft"] = 120.5
    monkeypatch.setattr(report, "to_dict", lambda *args, **kwargs: d)
    water = pd.DataFrame(
        {
            "parcel": [1],
            "length_ft": [120.5],
            "geometry": [shapely.LineString([(-81.12, 28.74), (-81.119, 28.74)])],
        }
    )
    monkeypatch.setattr(report, "water", water, raising=False)
    plan = pd.DataFrame(
        {"lon": [-81.115], "lat": [28.747], "parcel_id": ["N06"], "role": ["interval"]}
    )
    page = to_html(report, tiles=False, planned=plan)
    layers = _layers(page)
    assert len(layers["access"]["features"]) == 1
    [todo] = layers["planned"]["features"]
    assert todo["properties"]["attrs"] == [["parcel_id", "N06"], ["role", "interval"]]
    assert layers["water"]["features"][0]["properties"] == {"parcel": "N02", "length_ft": 120.5}
    [merged] = layers["merged"]["features"]
    assert merged["properties"]["source_ids"] == ["N02", "N02b"]
    exempt = [f for f in layers["parcels"]["features"] if f["properties"]["status"] == "exempt"]
    assert [f["properties"]["exemption"] for f in exempt] == [n01["exemption"]]
    for name in ("Exempt parcels (1)", "Boundaries formed by water (1)", "Merged properties (1)"):
        assert name in page
    assert "Access points without a marker (1)" in page


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
    ctx = json.loads(re.search(r"posting\.setup\(\w+, (\{.*?\})\);\n", out.read_text()).group(1))
    assert ctx["accuracy_ft"] == 16.0
    assert {"status": "uncertain", "n": 1, "color": "#f08c00"} in ctx["counts"]  # N09


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
