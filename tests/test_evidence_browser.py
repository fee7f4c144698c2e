"""The evidence record in a real headless browser (Debian's chromium), with the network off:
printed to PDF, read back with pypdf.

Expected figures come from the sample's known parcels (tests/test_sample.py) and from the
report, never from the page's own code.
"""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path

import pytest
from browser import chromium_path, offline_browser
from click.testing import CliRunner
from helpers import SAMPLE
from pypdf import PdfReader

from posting import check, read_markers, read_parcels
from posting.cli import main

pytestmark = pytest.mark.browser

ARGS = [
    str(SAMPLE / "parcels.geojson"),
    "--signs",
    str(SAMPLE / "signs.csv"),
    "--signs",
    str(SAMPLE / "signs-added.gpx"),
    "--id-field",
    "parcel_id",
    "--owner-field",
    "owner",
    "--check-date",
    "2026-11-30",
]
MM = 96 / 25.4  # CSS pixels per millimetre
# the page's width inside its 12 mm margins
CONTENT_PX = {"Letter": (215.9 - 24) * MM, "A4": (210 - 24) * MM}


@pytest.fixture(scope="module")
def browser():
    if chromium_path() is None:
        if os.environ.get("POSTING_REQUIRE_BROWSER") == "1":
            pytest.fail("chromium is missing, and CI requires the browser tests")
        pytest.skip("no chromium here (apt-get install chromium)")
    with offline_browser() as b:
        yield b


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("evidence") / "record"
    res = CliRunner().invoke(main, ["evidence", *ARGS, "-o", str(out)])
    assert res.exit_code == 0, res.output
    return out


@pytest.fixture(scope="module")
def sample_report():
    return check(
        read_parcels(SAMPLE / "parcels.geojson", id_field="parcel_id", owner_field="owner"),
        read_markers([SAMPLE / "signs.csv", SAMPLE / "signs-added.gpx"]),
    )


def _printed(browser, path: Path, paper: str) -> PdfReader:
    with browser.opened(path) as loaded:
        assert loaded.errors == [] and loaded.failed == []
        assert all(u.startswith(("file:", "data:")) for u in loaded.requests)
        pdf = loaded.page.pdf(format=paper)
    return PdfReader(io.BytesIO(pdf))


def _text(reader: PdfReader) -> str:
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in reader.pages))


@pytest.mark.parametrize("paper", ["Letter", "A4"])
@pytest.mark.parametrize("pid", ["N06", "S1"])
def test_noncompliant_parcel_prints_on_at_most_two_pages(
    browser, record, sample_report, paper, pid
):
    reader = _printed(browser, record / f"{pid}.html", paper)
    assert 1 <= len(reader.pages) <= 2
    box = reader.pages[0].mediabox
    want = (612, 792) if paper == "Letter" else (595, 842)  # points
    assert (round(float(box.width)), round(float(box.height))) == pytest.approx(want, abs=1)
    text = _text(reader)
    p = sample_report.parcels.set_index("id").loc[pid]
    # the map: its heading, caption, scale bar in feet and north arrow
    assert "Map" in text and "North is up" in text and re.search(r"\d00 ft N", text)
    # the violations with the clause and its words
    assert "Not compliant" in text and "spacing" in text
    assert "Fla. Stat. 810.011(5)(a)1" in text
    assert "signs placed not more than 500 feet apart along ... the boundaries" in text
    assert f"{p['max_gap_ft']:,.1f} ft" in text  # N06: 857.2 ft; S1: the hole's 1,130.5 ft
    # the marker table: every marker of the parcel, by its latitude and longitude
    m = sample_report.markers
    mine = m[m["parcel_id"] == pid]
    assert f"Markers ({len(mine)})" in text
    for lat, lon in zip(mine["lat"], mine["lon"], strict=True):
        assert f"{lat:.6f}" in text and f"{lon:.6f}" in text
    assert "How it was checked" in text and "SHA-256" in text


@pytest.mark.parametrize("paper", ["Letter", "A4"])
def test_no_table_is_cut_at_the_page_width(browser, record, paper):
    for name in ("N06.html", "S2.html", "index.html"):
        with browser.opened(record / name, width=round(CONTENT_PX[paper]), height=1000) as loaded:
            loaded.page.emulate_media(media="print")
            over = loaded.page.evaluate(
                """() => {
                    const body = document.body.getBoundingClientRect();
                    return [...document.querySelectorAll('table, svg.map')]
                        .filter(t => t.getBoundingClientRect().right > body.right + 0.5
                                     || t.scrollWidth > t.clientWidth + 1)
                        .map(t => t.outerHTML.slice(0, 80));
                }"""
            )
        assert over == [], (name, over)


def test_input_never_runs_as_script(browser, tmp_path):
    import geopandas as gpd
    import pandas as pd
    import shapely

    parcels = tmp_path / "p.geojson"
    gpd.GeoDataFrame(
        {"pid": ["<img src=x onerror=alert(1)>"], "owner": ["<script>alert(2)</script>"]},
        geometry=[shapely.box(-81.1, 28.7, -81.099, 28.701)],
        crs=4326,
    ).to_file(parcels)
    signs = tmp_path / "s.csv"
    pd.DataFrame(
        {"lon": [-81.0995], "lat": [28.70001], "text": ['"><svg onload=alert(3)>']}
    ).to_csv(signs, index=False)
    out = tmp_path / "rec"
    res = CliRunner().invoke(
        main,
        [
            "evidence",
            str(parcels),
            "--signs",
            str(signs),
            "--id-field",
            "pid",
            "--owner-field",
            "owner",
            "-o",
            str(out),
        ],
    )
    assert res.exit_code == 0, res.output
    for path in out.glob("*.html"):
        page = browser.context.new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda d, seen=dialogs: (seen.append(d.message), d.dismiss()))
        page.goto(path.resolve().as_uri(), wait_until="load")
        active = page.evaluate(
            "() => document.querySelectorAll('script, [onerror], [onload]').length"
        )
        shown = page.evaluate("() => document.body.innerText")
        page.close()
        assert dialogs == [] and active == 0
        if path.name != "index.html":
            assert "<script>alert(2)</script>" in shown  # shown as text


def test_pdf_option_prints_each_page_with_chromium(tmp_path):
    if chromium_path() is None:
        if os.environ.get("POSTING_REQUIRE_BROWSER") == "1":
            pytest.fail("chromium is missing, and CI requires the browser tests")
        pytest.skip("no chromium here (apt-get install chromium)")
    runner = CliRunner()
    outs = []
    for name in ("a", "b"):
        out = tmp_path / name
        res = runner.invoke(
            main, ["evidence", *ARGS, "-o", str(out), "--parcel", "N06", "--pdf", "--paper", "a4"]
        )
        assert res.exit_code == 0, res.output
        outs.append(out)
    a, b = outs
    assert sorted(p.name for p in a.glob("*.pdf")) == ["N06.pdf", "index.pdf"]
    reader = PdfReader(a / "N06.pdf")
    assert len(reader.pages) <= 2
    assert round(float(reader.pages[0].mediabox.width)) == 595  # A4
    text = _text(reader)
    assert "Parcel N06" in text and "857.2 ft" in text and "Markers (13)" in text
    # printed twice, the same bytes (the print time is replaced by the check date)
    for name in ("N06.pdf", "index.pdf"):
        assert (a / name).read_bytes() == (b / name).read_bytes()
    assert b"D:20261130000000+00'00'" in (a / "N06.pdf").read_bytes()
    manifest = json.loads((a / "manifest.json").read_text())
    assert manifest["environment"]["chromium"].startswith(("Chromium", "Google Chrome"))
    res = runner.invoke(main, ["verify", str(a)])
    assert res.exit_code == 0, res.output
    assert "outputs: 5 made again" in res.stderr  # 2 pages, 2 PDFs, report.json
