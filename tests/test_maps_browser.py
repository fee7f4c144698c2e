"""The map in a real headless browser (Debian's chromium), with the network unreachable.

Expected figures come from the JSON report and from what data/make_sample.py built each sample
parcel to be (see tests/test_sample.py), never from the map's own code.
"""

from __future__ import annotations

import os
import re

import numpy as np
import pandas as pd
import pytest
import shapely
from browser import chromium_path, offline_browser
from helpers import AT_SEA, SAMPLE, SHARED_DATA, markers, parcels, require_real_data, square
from pyproj import CRS, Geod, Transformer
from test_maps import aleutian_lots, other_work

from posting import check, read_markers, read_parcels
from posting.draw import display_geometry, extent_lonlat, gap_lines
from posting.io import MarkerLayer
from posting.maps import to_html
from posting.planning import plan

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser():
    if chromium_path() is None:
        if os.environ.get("POSTING_REQUIRE_BROWSER") == "1":
            pytest.fail("chromium is missing, and CI requires the browser tests")
        pytest.skip("no chromium here (apt-get install chromium)")
    with offline_browser() as b:
        yield b


@pytest.fixture(scope="module")
def sample_report():
    return check(
        read_parcels(SAMPLE / "parcels.geojson", id_field="parcel_id", owner_field="owner"),
        read_markers([SAMPLE / "signs.csv", SAMPLE / "signs-added.gpx"]),
    )


@pytest.fixture(scope="module")
def sample_page(browser, sample_report, tmp_path_factory):
    path = tmp_path_factory.mktemp("map") / "map.html"
    with browser.opened(path, to_html(sample_report)) as loaded:  # tiles: they must fail
        yield loaded


def _click_lonlat(page, lon: float, lat: float) -> None:
    """A real mouse click where the map draws this longitude and latitude."""
    xy = page.evaluate(
        """([lat, lon]) => {
            const m = postingMap.map, p = m.latLngToContainerPoint([lat, lon]);
            const r = m.getContainer().getBoundingClientRect();
            return [r.left + p.x, r.top + p.y];
        }""",
        [lat, lon],
    )
    page.mouse.click(*xy)


def _popup_at(page, lon: float, lat: float) -> str:
    """The popup of what the map draws at this longitude and latitude, zoomed in on it."""
    page.evaluate(
        "([lat, lon]) => { postingMap.map.setView([lat, lon], 21, {animate: false}); }",
        [lat, lon],
    )
    _click_lonlat(page, lon, lat)
    return _popup_text(page)


def _popup_text(page) -> str:
    """The text of the one open popup (a closed one fades out for a moment first)."""
    page.wait_for_function("() => document.querySelectorAll('.leaflet-popup').length === 1")
    return page.locator(".leaflet-popup-content").inner_text()


def _close_popups(page) -> None:
    page.evaluate("() => postingMap.map.closePopup()")
    page.wait_for_function("() => document.querySelectorAll('.leaflet-popup').length === 0")


def test_loads_offline_with_no_failed_request_but_tiles(sample_page):
    assert sample_page.errors == []
    assert sample_page.failed_except_tiles == []
    # the background tiles were asked for, failed, and broke nothing
    assert any("tile.openstreetmap.org" in u for u in sample_page.failed)
    non_local = [u for u in sample_page.requests if not u.startswith(("file:", "data:"))]
    assert all("tile.openstreetmap.org" in u for u in non_local)


def test_opens_fitted_to_the_data(sample_page, sample_report):
    w, s, e, n = extent_lonlat(sample_report)
    view = sample_page.page.evaluate(
        "() => { const b = postingMap.map.getBounds();"
        " return [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()]; }"
    )
    assert view[0] <= w and view[1] <= s and view[2] >= e and view[3] >= n
    # and not much more: the data fills at least a third of the width or of the height
    assert (e - w) / (view[2] - view[0]) > 1 / 3 or (n - s) / (view[3] - view[1]) > 1 / 3


def test_draws_every_parcel_gap_corner_and_marker(sample_page, sample_report):
    d = sample_report.to_dict()
    drawable = [p for p in d["parcels"] if p["status"] != "invalid"]
    posted = [p for p in drawable if p["status"] != "unposted"]
    # 29 sample parcels, U1 has no geometry
    assert sample_page.count("path.posting-parcel") == len(drawable) == 28
    for status in ("compliant", "noncompliant", "unposted"):
        n = sum(p["status"] == status for p in drawable)
        assert sample_page.count(f"path.posting-parcel-{status}") == n
    # parcels with markers: N06's long gap and S1's unmarked pond shore; N07's two road
    # corners (unposted parcels are drawn whole as a gap instead)
    assert sample_page.count("path.posting-gap") == sum(len(p["gaps"]) for p in posted) == 2
    assert sample_page.count("path.posting-corner") == sum(
        len(p["missing_corners"]) + len(p["uncertain_corners"]) for p in posted
    )
    assert sample_page.count("path.posting-corner-missing") == 2
    # 232 marker rows, one without a usable position
    assert sample_page.count("path.posting-marker") == 231
    unassigned_drawn = sum(s["lon"] is not None for s in d["unassigned_signs"])
    assert sample_page.count("path.posting-marker-unassigned") == unassigned_drawn == 1


def test_clicking_a_noncompliant_parcel_names_its_violations(sample_page, sample_report):
    page = sample_page.page
    d = {p["id"]: p for p in sample_report.to_dict()["parcels"]}
    inside = shapely.point_on_surface(
        display_geometry(
            sample_report,
        )[sample_report.parcels["id"] == "S2"][0]
    )
    _click_lonlat(page, inside.x, inside.y)
    text = _popup_text(page)
    assert "Parcel S2" in text and "Noncompliant" in text
    [v] = d["S2"]["violations"]
    assert v["message"] in text  # "18 of 18 signs have letters under 2 in"
    assert "measured 1.5 in" in text and "limit 2 in" in text
    assert "Fla. Stat. 810.011(5)(a)1" in text
    assert d["S2"]["owner"] in text
    _close_popups(page)


def test_clicking_a_gap_gives_its_length_and_the_limit(sample_page, sample_report):
    page = sample_page.page
    g = sample_report.gaps
    [geom] = gap_lines(sample_report)[(g["status"] == "over").to_numpy()]
    # click the line where no marker is drawn over it
    along = shapely.line_interpolate_point(geom, np.linspace(0.1, 0.9, 17), normalized=True)
    m = sample_report.markers
    signs = shapely.points(m["lon"].to_numpy(), m["lat"].to_numpy())
    clear = [np.nanmin(shapely.distance(signs, p)) for p in along]
    mid = along[int(np.nanargmax(clear))]
    _click_lonlat(page, mid.x, mid.y)
    text = _popup_text(page)
    assert "Gap on parcel N06" in text
    assert "857.2 ft" in text and "not more than 500 ft" in text
    assert "signs.csv row" in text
    assert "uncertain, not noncompliant" not in text  # N06 is noncompliant
    # the label on the line says the same length
    labels = page.locator(".posting-gap-label").all_inner_texts()
    assert "857.2 ft" in labels and "1,130.5 ft" in labels
    _close_popups(page)


def test_search_jumps_to_a_parcel_and_explains_one_not_drawn(sample_page):
    page = sample_page.page
    box = page.locator(".posting-search input")
    box.fill("N07")
    box.press("Enter")
    text = _popup_text(page)
    assert "Parcel N07" in text
    assert "2 of 4 corners have no marker" in text
    center = page.evaluate("() => postingMap.map.getCenter()")
    assert -81.12 < center["lng"] < -81.10 and 28.74 < center["lat"] < 28.76
    _close_popups(page)
    box.fill("U1")
    box.press("Enter")
    assert "not on the map: no geometry" in page.locator(".posting-search-msg").inner_text()
    box.fill("")


def test_every_id_offered_by_the_find_box_is_found(browser, tmp_path):
    """The list under the Find box offers every parcel id, drawn or not, as the input has it
    (a right-to-left override shown as its code point, as every text of the page), and each
    one picked from it, or typed as the input has it, is found: one padded with spaces (as
    fixed-width exports pad them), markup, a right-to-left override, Arabic digits, and a
    parcel with no geometry."""
    ids = ["  12-34 ", "R&D <b>7</b>", "\u202eRTL-1", "٣٤٥", "GONE 9"]
    shown_ids = ["  12-34 ", "R&D <b>7</b>", "[U+202E]RTL-1", "٣٤٥", "GONE 9"]
    geoms = [square(400, x0=600 * i) for i in range(4)] + [shapely.Polygon()]
    r = check(parcels(*geoms, ids=ids))
    assert r.parcels["id"].tolist() == ids  # as the input has them, as the JSON report says
    with browser.opened(tmp_path / "ids.html", to_html(r, tiles=False)) as loaded:
        page = loaded.page
        offered = page.evaluate(
            "() => [...document.querySelectorAll('#posting-ids option')].map(o => o.value)"
        )
        assert sorted(offered) == sorted(shown_ids)
        box = page.locator(".posting-search input")
        # each typed as the input has it, and the override's as the list offers it
        typed = [*zip(ids[:4], shown_ids[:4], strict=True), (shown_ids[2], shown_ids[2])]
        for pid, expected in typed:
            box.fill(pid)
            box.press("Enter")
            page.wait_for_function(
                "() => document.querySelectorAll('.leaflet-popup').length", timeout=5000
            )
            shown = page.locator(".leaflet-popup-content .posting-id").first.text_content()
            assert shown == expected, (pid, page.locator(".posting-search-msg").inner_text())
            assert page.locator(".posting-search-msg").inner_text() == ""
            _close_popups(page)
        box.fill("GONE 9")
        box.press("Enter")
        assert "not on the map: empty geometry" in page.locator(".posting-search-msg").inner_text()
        assert loaded.errors == []


def test_a_parcel_merged_into_a_property_is_found_by_its_own_id(browser, tmp_path):
    """With --merge-owner the sample's N01 to N04 (one owner's adjoining lots, data/
    make_sample.py) are checked as one property named N01. An officer holding N03's number
    from the tax roll finds it: the list offers it, and the box opens the property that holds
    it, saying so (it was "No parcel N03")."""
    from click.testing import CliRunner
    from test_cli import SAMPLE_ARGS

    from posting.cli import main

    out = tmp_path / "merged.html"
    res = CliRunner().invoke(
        main, ["check", *SAMPLE_ARGS, "--merge-owner", "owner", "--map", str(out), "-q"]
    )
    assert res.exit_code in (0, 1), res.output
    with browser.opened(out) as loaded:
        page = loaded.page
        offered = page.evaluate(
            "() => [...document.querySelectorAll('#posting-ids option')].map(o => o.value)"
        )
        assert {"N01", "N02", "N03", "N04"} <= set(offered)
        box = page.locator(".posting-search input")
        box.fill("N03")
        box.press("Enter")
        text = _popup_text(page)
        assert "Parcel N01" in text and "N01, N02, N03, N04" in text
        assert page.locator(".posting-search-msg").inner_text() == (
            "N03 is part of property N01 (merged: the same owner's adjoining parcels)"
        )
        assert loaded.errors == []


def test_a_gap_just_over_the_limit_is_not_shown_as_the_limit(browser, tmp_path):
    """A 1,000 ft square signed every 500 ft but one sign 0.04 ft too far along its south side:
    a gap of 500.04 ft, over the 500 ft limit. Its label, its popup and the parcel's violation
    read "500 ft" beside "limit 500 ft"; they now give the hundredths that make it over. So
    does a corner whose nearest sign is 30.04 ft away (a marker within 30 ft)."""
    signs = [(0, 0), (500.04, 0), (1000, 0), (1000, 500), (1000, 1000), (500, 1000), (0, 1000)]
    # and a 300 ft square whose south-west corner's nearest sign is 30.04 ft away (limit 30 ft)
    signs += [(0, 500), (2030.04, 0), (2300, 0), (2300, 300), (2000, 300)]
    # (at sea level: without the elevation, Florida's gaps of exactly 500 ft are uncertain)
    r = check(
        parcels(square(), square(300, x0=2000), ids=["Q", "R"]), markers(signs), settings=AT_SEA
    )
    assert r.parcels["status"].tolist() == ["noncompliant", "noncompliant"]
    c = r.corners[r.corners["status"] != "ok"]
    assert c["nearest_ft"].round(6).tolist() == [30.04]
    with browser.opened(tmp_path / "over.html", to_html(r, tiles=False)) as loaded:
        page = loaded.page
        page.evaluate(
            "() => { postingMap.map.setZoom(17, {animate: false}); postingMap.labels(); }"
        )
        labels = page.evaluate(
            """() => [...document.querySelectorAll('.posting-gap-label')]
                .filter(e => e.style.display !== 'none').map(e => e.textContent)"""
        )
        assert labels == ["500.04 ft"]
        page.evaluate("() => postingMap.open('gaps', 0)")
        text = _popup_text(page)
        assert "500.04 ft" in text and "not more than 500 ft" in text
        _close_popups(page)
        page.evaluate("() => postingMap.openParcel('Q')")
        assert "measured 500.04 ft · limit 500 ft" in _popup_text(page)
        _close_popups(page)
        page.evaluate("() => postingMap.open('corners', 0)")
        text = _popup_text(page)
        assert "within 30 ft" in text and "30.04 ft" in text, text
        assert loaded.errors == []


def test_layers_toggle(sample_page):
    page = sample_page.page
    control = page.locator(".leaflet-control-layers-overlays label", has_text="Gaps longer")
    control.locator("input").uncheck()
    assert sample_page.count("path.posting-gap") == 0
    control.locator("input").check()
    assert sample_page.count("path.posting-gap") == 2


def test_title_scale_legend_and_fit(sample_page, sample_report):
    page = sample_page.page
    title = page.locator(".posting-title").inner_text()
    assert "Florida" in title and "Fla. Stat. 810.011(5)(a)1" in title
    assert sample_report.generated[:10] in title
    assert "13 compliant" in title and "4 noncompliant" in title
    scale = page.locator(".leaflet-control-scale-line").inner_text()
    assert scale.endswith((" ft", " mi"))
    legend = page.locator(".posting-legend").inner_text()
    assert "Noncompliant (4)" in legend and "Unposted" in legend


def test_print_layout_keeps_title_and_legend(sample_page):
    page = sample_page.page
    page.emulate_media(media="print")
    try:
        assert page.locator(".posting-title").is_visible()
        assert page.locator(".posting-legend").is_visible()
        assert not page.locator(".leaflet-control-layers").is_visible()
        assert not page.locator(".posting-search").is_visible()
        assert page.locator(".posting-legend-item").first.is_visible()
        assert page.pdf(landscape=True)[:4] == b"%PDF"
        # printing opens the folded parts of the legend: a printout carries all of it
        assert page.evaluate(
            "() => [...document.querySelectorAll('.posting-legend, .posting-legend details')]"
            ".every(d => d.open)"
        )
    finally:
        page.emulate_media(media="screen")


# -- hostile input ------------------------------------------------------------------------
SCRIPT_OWNER = "<script>window.__owned = 'script'</script>"
IMG_OWNER = "<img src=x onerror=\"window.__owned = 'img'\">"
SVG_ID = "<svg onload=\"window.__owned = 'svg'\">"


def test_injected_markup_renders_as_text_and_runs_nothing(browser, tmp_path):
    lots = parcels(
        square(600),
        square(600, x0=700),
        ids=["A1", SVG_ID],
        owners=[SCRIPT_OWNER, IMG_OWNER],
    )
    pts = [(300, 0), (0, 300)]  # two signs on lot A1: it is noncompliant
    signs = markers(pts, attributes=pd.DataFrame({"text": [IMG_OWNER, "</script>"]}))
    report = check(lots, signs)
    html = to_html(report, tiles=False)
    assert SCRIPT_OWNER not in html and "<img src=x" not in html and "<svg onload" not in html
    with browser.opened(tmp_path / "hostile.html", html) as loaded:
        page = loaded.page
        assert loaded.errors == [] and loaded.failed == []
        assert [u for u in loaded.requests if not u.startswith(("file:", "data:"))] == []
        # the hostile id is written on its parcel as text
        assert SVG_ID in page.locator(".posting-label").all_inner_texts()
        for pid, owner in (("A1", SCRIPT_OWNER), (SVG_ID, IMG_OWNER)):
            page.evaluate("id => postingMap.find(id)", pid)
            assert owner in _popup_text(page)
            popup = page.locator(".leaflet-popup-content")
            assert popup.locator("script, img, svg").count() == 0
            _close_popups(page)
        texts = page.evaluate(
            """() => [0, 1].map(i => { const p = postingMap.open('markers', i);
                const t = p.getElement().innerText; postingMap.map.closePopup(); return t; })"""
        )
        assert IMG_OWNER in texts[0] and "</script>" in texts[1]
        assert page.evaluate("() => window.__owned") is None
        assert page.locator("img[src='x'], body > svg").count() == 0


def test_a_bidirectional_control_shows_in_the_popup_as_its_code_point(browser, tmp_path):
    """An id "P", U+202E, "12" displayed as "P21" in its popup and label (the control turns the
    rest of the line right to left), an owner "Ann", U+2066, "Lee" hid a control. The popup,
    the label on the parcel and the Find list show the code point instead, so what is read is
    what is stored."""
    pid = "P\u202e12"
    lots = parcels(square(600), ids=[pid], owners=["Ann \u2066Lee"])
    report = check(lots, markers([(300, 0)]))
    with browser.opened(tmp_path / "bidi.html", to_html(report, tiles=False)) as loaded:
        page = loaded.page
        assert loaded.errors == [] and loaded.failed == []
        shown = "P[U+202E]12"
        assert shown in page.locator(".posting-label").all_inner_texts()
        assert page.evaluate("id => postingMap.find(id)", shown) is not False
        text = _popup_text(page)
        assert shown in text and "Ann [U+2066]Lee" in text
        options = page.evaluate(
            "() => Array.from(document.querySelectorAll('datalist option'), o => o.value)"
        )
        assert options == [shown]
        assert page.evaluate(
            "() => !/[\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]/"
            ".test(document.body.innerText)"
        )


def test_layers_other_work_will_fill_draw_and_explain(
    browser, sample_report, tmp_path, monkeypatch
):
    """Water, easements, fences, access points, exemptions, merged properties and a plan."""
    other_work(sample_report, monkeypatch)
    plan = pd.DataFrame({"lon": [-81.1150], "lat": [28.7470], "role": ["interval"]})
    with browser.opened(
        tmp_path / "more.html", to_html(sample_report, tiles=False, planned=plan)
    ) as loaded:
        page = loaded.page
        assert loaded.errors == [] and loaded.failed == []
        for cls in ("water", "easements", "fences", "access", "merged", "planned", "parcel-exempt"):
            assert loaded.count(f"path.posting-{cls}") == 1, cls
        page.evaluate("() => postingMap.find('N01')")
        assert "five acres or less with a dwelling house" in _popup_text(page)
        _close_popups(page)
        page.evaluate("() => postingMap.find('N02')")
        text = _popup_text(page)
        assert "Merged from parcels\tN02, N02b" in text and "Water frontage\t120.5 ft" in text
        _close_popups(page)
        texts = page.evaluate(
            """() => ['water', 'easements', 'fences', 'access', 'planned'].map(k => {
                const p = postingMap.open(k, 0); const t = p.getElement().innerText;
                postingMap.map.closePopup(); return t; })"""
        )
        assert "Boundary formed by water" in texts[0] and "120.5 ft" in texts[0]
        assert "easement" in texts[1] and "Florida Power" in texts[1]
        assert "not fenced" in texts[2] and "60 ft" in texts[2]
        assert "Access point without a marker" in texts[3] and "S2" in texts[3]
        assert "driveway" in texts[3]
        assert "Marker to add" in texts[4] and "interval" in texts[4]


# -- on a phone ---------------------------------------------------------------------------
PHONE = {"width": 390, "height": 844}

COVERED = """() => {
    // the open popup's box, and every visible control whose box meets it
    const pop = document.querySelector('.leaflet-popup');
    const box = r => ({left: r.left, top: r.top, right: r.right, bottom: r.bottom});
    const p = box(pop.querySelector('.leaflet-popup-content-wrapper').getBoundingClientRect());
    const tip = pop.querySelector('.leaflet-popup-tip-container').getBoundingClientRect();
    p.bottom = Math.max(p.bottom, tip.bottom);
    const hits = [...document.querySelectorAll('.leaflet-control-container .leaflet-control')]
        .filter(c => c.offsetParent !== null)
        .map(c => [c.className, box(c.getBoundingClientRect())])
        .filter(([, r]) => r.width !== 0 && r.left < p.right && p.left < r.right
                && r.top < p.bottom && p.top < r.bottom);
    return {popup: p, covered: hits.map(([name]) => name),
            scroll: [pop.querySelector('.leaflet-popup-content').scrollHeight,
                     pop.querySelector('.leaflet-popup-content').clientHeight]};
}"""


def _settled(page) -> None:
    """Wait until the map has stopped moving (a popup pans it into view)."""
    page.wait_for_function(
        "() => !postingMap.map._panAnim || !postingMap.map._panAnim._inProgress", timeout=5000
    )
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)))")


@pytest.fixture(scope="module")
def phone_page(browser, sample_report, tmp_path_factory):
    path = tmp_path_factory.mktemp("phone") / "map.html"
    with browser.opened(path, to_html(sample_report, tiles=False), **PHONE) as loaded:
        yield loaded


def test_phone_title_is_one_line(phone_page):
    page = phone_page.page
    assert phone_page.errors == []
    h1 = page.locator(".posting-title h1")
    line = page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('.posting-title h1')).lineHeight)"
    )
    box = page.locator(".posting-title").bounding_box()
    assert h1.bounding_box()["height"] <= line + 0.5  # one line of text
    assert box["height"] <= line + 12  # and nothing under it but the padding
    assert box["x"] + box["width"] <= PHONE["width"]
    # a tap shows the citation, the date and the counts; another folds them again
    h1.click()
    assert page.locator(".posting-subtitle").is_visible()
    assert "Fla. Stat. 810.011(5)(a)1" in page.locator(".posting-title").inner_text()
    h1.click()
    assert not page.locator(".posting-subtitle").is_visible()


@pytest.mark.parametrize("pid", ["S2", "N06", "S5"])
def test_phone_popup_is_on_screen_and_clear_of_the_controls(phone_page, sample_report, pid):
    page = phone_page.page
    page.evaluate("() => { postingMap.map.fitBounds(postingMap.map.getBounds()); }")
    geom = display_geometry(
        sample_report,
    )[sample_report.parcels["id"] == pid][0]
    inside = shapely.point_on_surface(geom)
    page.evaluate(
        "([lat, lon]) => { postingMap.map.setView([lat, lon], 16, {animate: false}); }",
        [inside.y, inside.x],
    )
    _click_lonlat(page, inside.x, inside.y)  # a tap on the parcel
    text = _popup_text(page)
    assert f"Parcel {pid}" in text
    _settled(page)
    got = page.evaluate(COVERED)
    p = got["popup"]
    assert p["left"] >= 0 and p["top"] >= 0, got
    assert p["right"] <= PHONE["width"] and p["bottom"] <= PHONE["height"], got
    assert got["covered"] == [], got
    # the popup scrolls rather than grow past the room it has
    assert got["scroll"][1] <= PHONE["height"]
    _close_popups(page)


def test_phone_popup_wraps_a_long_id_and_long_attributes(browser, tmp_path):
    """A parcel id of 62 characters without a space, and a sign's photo path of 90: the
    popup's heading ran 177 px past the popup's right edge, cut off. Everything now wraps
    within the popup."""
    photo = "/storage/emulated/0/DCIM/Camera/IMG_20261130_101010_HDR_PORTRAIT_long_name_0001.jpg"
    signs = markers([(0, 0), (500, 0)], attributes=pd.DataFrame({"photo": [photo, "short"]}))
    r = check(parcels(square(), ids=["P-" + "9" * 60]), signs)
    with browser.opened(tmp_path / "long.html", to_html(r, tiles=False), **PHONE) as loaded:
        page = loaded.page
        for kind in ("parcels", "markers"):
            page.evaluate(f"() => postingMap.open('{kind}', 0)")
            page.wait_for_selector(".leaflet-popup-content")
            _settled(page)
            wide = page.evaluate(
                """() => { const c = document.querySelector('.leaflet-popup-content');
                    const r = document.querySelector('.leaflet-popup').getBoundingClientRect();
                    return [c.scrollWidth - c.clientWidth, r.left, r.right]; }"""
            )
            assert wide[0] <= 0 and wide[1] >= 0 and wide[2] <= PHONE["width"], (kind, wide)
            _close_popups(page)
        assert loaded.errors == []


def test_phone_search_closes_the_previous_popup(phone_page):
    page = phone_page.page
    box = page.locator(".posting-search input")
    box.fill("N07")
    box.press("Enter")
    assert "Parcel N07" in _popup_text(page)
    box.fill("U1")  # not drawn: no geometry
    box.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('.leaflet-popup').length === 0")
    assert "not on the map" in page.locator(".posting-search-msg").inner_text()
    box.fill("nothing-like-it")
    box.press("Enter")
    assert page.locator(".posting-search-msg").inner_text() == "No parcel nothing-like-it"
    box.fill("")


def test_phone_buttons_are_large_enough_to_tap(browser, sample_report, tmp_path):
    with browser.opened(
        tmp_path / "map.html", to_html(sample_report, tiles=False), **PHONE
    ) as loaded:
        page = loaded.page
        sizes = page.evaluate(
            """() => [...document.querySelectorAll(
                '.leaflet-control-zoom a, .posting-locate a, .leaflet-control-layers-toggle,'
                + ' .posting-search input')].map(e => {
                    const r = e.getBoundingClientRect(); return [r.width, r.height]; })"""
        )
        assert len(sizes) == 5
        assert all(w >= 40 and h >= 40 for w, h in sizes), sizes
        # the buttons the README promises at 44 px: the folded legend, a popup's close button
        # (they were 33 and 36 px); and the popup's heading is not under its close button
        page.evaluate("() => postingMap.open('parcels', 0)")
        page.wait_for_selector(".leaflet-popup-close-button")
        got = page.evaluate(
            """() => { const box = s => document.querySelector(s).getBoundingClientRect();
                const r = document.createRange();
                r.selectNodeContents(document.querySelector('.leaflet-popup-content h3'));
                const t = [...r.getClientRects()], x = box('.leaflet-popup-close-button');
                return {legend: [box('.posting-legend > summary').width,
                                 box('.posting-legend > summary').height],
                        close: [x.width, x.height],
                        under: t.some(q => q.right > x.left && q.top < x.bottom)}; }"""
        )
        assert min(got["legend"]) >= 44 and min(got["close"]) >= 44, got
        assert not got["under"], got


# -- you are here -------------------------------------------------------------------------
GEOD = Geod(ellps="WGS84")


def _here(browser, path, lon: float, lat: float, accuracy_m: float = 5.0) -> dict:
    """Open the map with the device at (lon, lat), press "you are here", read the panel."""
    browser.context.grant_permissions(["geolocation"])
    browser.context.set_geolocation({"latitude": lat, "longitude": lon, "accuracy": accuracy_m})
    loaded = browser.open(path, **PHONE)
    page = loaded.page
    try:
        page.locator(".posting-locate a").click()
        page.wait_for_selector(".posting-here-target", timeout=10_000)
        out = page.evaluate(
            """() => { const p = document.querySelector('.posting-here');
                return {text: p.innerText,
                        parcels: [...p.querySelectorAll('[data-parcel]')].map(e =>
                            [e.dataset.parcel, e.dataset.status]),
                        target: Object.assign({}, p.querySelector('.posting-here-target').dataset),
                        dot: (() => { const d = postingMap.map; let ll = null;
                            d.eachLayer(l => { if (l.options && l.options.className ===
                                'posting-here-dot') ll = l.getLatLng(); }); return ll; })(),
                        circle: (() => { let r = null; postingMap.map.eachLayer(l => {
                            if (l.options && l.options.className === 'posting-here-accuracy')
                                r = l.getRadius(); }); return r; })()}; }"""
        )
        out["errors"] = loaded.errors
        return out
    finally:
        page.close()
        browser.context.clear_permissions()


def _aeqd(lon: float, lat: float) -> Transformer:
    """Azimuthal equidistant centred on a point: every distance from it is geodesic."""
    crs = CRS.from_proj4(f"+proj=aeqd +lat_0={lat} +lon_0={lon} +datum=WGS84 +units=ft")
    return Transformer.from_crs(4326, crs, always_xy=True)


def test_you_are_here_in_a_noncompliant_parcel(browser, tmp_path):
    """A 1,200 x 800 ft lot posted at three corners and along its south side only: its north
    side is a gap and its north-west corner has no sign. The device stands inside it; the panel
    names the lot and its status, and the distance and direction to the nearest gap or corner
    without a marker equal those computed here with pyproj."""
    lot = shapely.box(0, 0, 1200, 800)
    side = shapely.box(1300, 0, 1700, 400)  # a compliant neighbour: nothing to go to there
    south = [(x, 3) for x in range(3, 1200, 300)] + [(1197, 3), (1197, 400), (1197, 797)]
    west = [(3, 400), (3, 3)]
    around = [
        (1303, 3),
        (1500, 3),
        (1697, 3),
        (1697, 200),
        (1697, 397),
        (1500, 397),
        (1303, 397),
        (1303, 200),
    ]
    r = check(
        parcels(lot, side, ids=["LOT-7", "NEXT"], owners=["A. Landowner", "B. Neighbour"]),
        markers(south + west + around),
    )
    status = dict(zip(r.parcels["id"], r.parcels["status"], strict=True))
    assert status == {"LOT-7": "noncompliant", "NEXT": "compliant"}
    path = tmp_path / "here.html"
    path.write_text(to_html(r, tiles=False), encoding="utf-8")
    # the device: 350 ft east and 500 ft north of the lot's south-west corner
    [wcrs] = r.geometry.crss
    lon, lat = (float(v[0]) for v in wcrs.ft_to_lonlat(np.array([350.0]), np.array([500.0])))
    got = _here(browser, path, lon, lat, accuracy_m=4.0)
    assert got["errors"] == []
    assert got["parcels"] == [["LOT-7", "noncompliant"]]
    assert "In parcel LOT-7" in got["text"] and "Noncompliant" in got["text"]
    assert got["dot"] == {"lat": lat, "lng": lon}
    assert f"You are here: {lat:.6f}, {lon:.6f} (± 13 ft)" in got["text"]  # 4 m
    assert got["circle"] == 4.0  # metres: the accuracy the device reported
    # expected: the nearest of the reported gap lines and the corners without a marker, as the
    # report has them, measured geodesically from the device
    fwd = _aeqd(lon, lat)
    lines = [g for g in gap_lines(r) if g is not None]
    local = [shapely.transform(g, lambda xy: np.column_stack(fwd.transform(*xy.T))) for g in lines]
    c = r.corners[r.corners["status"].isin(["missing", "uncertain"])]
    gap_ft = min(shapely.distance(shapely.Point(0, 0), g) for g in local)
    corner_ft = min(
        GEOD.inv(lon, lat, x, y)[2] / 0.3048 for x, y in zip(c["lon"], c["lat"], strict=True)
    )
    assert len(c) == 1 and gap_ft < corner_ft  # the north side is nearer than its corner
    assert got["target"]["kind"] == "gaps"
    assert float(got["target"]["distanceFt"]) == pytest.approx(gap_ft, abs=0.3)
    assert 298 < gap_ft < 302  # about 300 ft north of the device, by construction
    shown = f"{gap_ft:,.0f} ft N "
    assert shown in got["text"], (shown, got["text"])
    # the bearing to it: true north within the tilt of the grid at this spot
    assert float(got["target"]["bearingDeg"]) == pytest.approx(0.0, abs=0.5) or float(
        got["target"]["bearingDeg"]
    ) == pytest.approx(360.0, abs=0.5)


def test_you_are_here_on_the_plan_map_points_to_the_nearest_planned_marker(
    browser, sample_report, tmp_path
):
    p = plan(sample_report)
    path = tmp_path / "plan.html"
    path.write_text(to_html(sample_report, tiles=False, planned=p.markers), encoding="utf-8")
    lon, lat = -81.1140, 28.7445  # in S2's neighbourhood
    got = _here(browser, path, lon, lat)
    assert got["errors"] == []
    d = (
        GEOD.inv(
            np.full(len(p.markers), lon),
            np.full(len(p.markers), lat),
            p.markers["lon"].to_numpy(),
            p.markers["lat"].to_numpy(),
        )[2]
        / 0.3048
    )
    k = int(np.argmin(d))
    assert got["target"]["kind"] == "planned"
    assert float(got["target"]["distanceFt"]) == pytest.approx(d[k], abs=0.3)
    az = GEOD.inv(lon, lat, p.markers["lon"].iat[k], p.markers["lat"].iat[k])[0] % 360
    assert float(got["target"]["bearingDeg"]) == pytest.approx(az, abs=0.5)
    assert p.markers["name"].iat[k] in got["text"]


def test_you_are_here_just_outside_a_parcel_within_the_accuracy_says_you_may_be_in_it(
    browser, tmp_path
):
    """The device 10 ft south of a lot's south line, its position good to 15 m (49 ft): the
    panel said only "Outside every parcel on the map." Now it names the lot, how far its
    boundary is (10 ft N, by pyproj) and that the device may be in it."""
    r = check(parcels(shapely.box(0, 0, 1200, 800), ids=["LOT-9"]))
    path = tmp_path / "near.html"
    path.write_text(to_html(r, tiles=False), encoding="utf-8")
    [wcrs] = r.geometry.crss
    lon, lat = (float(v[0]) for v in wcrs.ft_to_lonlat(np.array([350.0]), np.array([-10.0])))
    elon, elat = (float(v[0]) for v in wcrs.ft_to_lonlat(np.array([350.0]), np.array([0.0])))
    edge_ft = GEOD.inv(lon, lat, elon, elat)[2] / 0.3048
    assert 9.9 < edge_ft < 10.1
    got = _here(browser, path, lon, lat, accuracy_m=15.0)
    assert got["errors"] == []
    assert got["parcels"] == []  # not in it, as far as the position says
    assert "Outside every parcel on the map" in got["text"]
    assert f"Parcel LOT-9's boundary is {edge_ft:,.0f} ft N" in got["text"], got["text"]
    assert "within the position's accuracy: you may be in it" in got["text"]
    # with a position good to 2 m (7 ft), 10 ft out is outside: no such note
    got = _here(browser, path, lon, lat, accuracy_m=2.0)
    assert "boundary is" not in got["text"] and "you may be in it" not in got["text"]


FOUR_MILES_M = 4 * 5280 * 0.3048


@pytest.mark.parametrize(
    ("corner", "azimuth", "metres", "rules"),
    [
        # Utqiagvik, Alaska: the far north, where a plane at the mid-latitude was 0.009 ft out
        ((-156.79, 71.29), 60.0, FOUR_MILES_M, "alaska"),
        ((-156.79, 71.29), 80.0, 3.0, "alaska"),
        # the southern hemisphere, a mid-latitude
        ((147.3, -42.88), 30.0, FOUR_MILES_M, "florida"),
        # the Aleutians: the lot just west of 180°, the device across it, at -179.99...°
        ((179.999, 51.802), 45.0, 200.0, "alaska"),
    ],
)
def test_you_are_here_distance_and_bearing_are_geodesic(
    browser, tmp_path, corner, azimuth, metres, rules
):
    """The device stands off the north-east corner of an unposted lot (its nearest point), a
    known geodesic distance away (pyproj's Geod.fwd): the page's distance is within 0.003 ft of
    it and its bearing is the geodesic's forward azimuth from the device, wherever on Earth."""
    lon0, lat0 = corner
    lot = shapely.box(lon0 - 0.002, lat0 - 0.002, lon0, lat0)  # corners on whole millionths
    r = check(parcels(lot, ids=["LOT"], crs="EPSG:4326"), rules=rules)
    assert r.parcels["status"].tolist() == ["unposted"]
    path = tmp_path / "here.html"
    path.write_text(to_html(r, tiles=False), encoding="utf-8")
    lon, lat, _ = GEOD.fwd(lon0, lat0, azimuth, metres)
    lon = (lon + 180) % 360 - 180
    got = _here(browser, path, lon, lat)
    assert got["errors"] == []
    assert got["target"]["kind"] == "unposted"
    assert float(got["target"]["distanceFt"]) == pytest.approx(metres / 0.3048, abs=0.003)
    az = GEOD.inv(lon, lat, lon0, lat0)[0] % 360
    assert float(got["target"]["bearingDeg"]) == pytest.approx(az, abs=0.01)


def test_aleutian_lots_either_side_of_180_open_side_by_side_and_you_are_in_one(browser, tmp_path):
    """Two lots 450 ft apart across the antimeridian: the map opens on both (it opened on the
    whole Earth, a lot at each edge), and a device at -179.9975° stands in the west lot, drawn
    where the device's dot is."""
    path = tmp_path / "aleutians.html"
    path.write_text(to_html(aleutian_lots(), tiles=False), encoding="utf-8")
    with browser.opened(path) as loaded:
        page = loaded.page
        seen = page.evaluate(
            """() => { const m = postingMap.map, s = m.getSize();
                return [[179.9975, 51.801], [-179.9975, 51.801], [180.0025, 51.801]].map(
                    ([lon, lat]) => { const p = m.latLngToContainerPoint([lat, lon]);
                        return p.x > 0 && p.x < s.x && p.y > 0 && p.y < s.y; })
                    .concat([m.getZoom()]); }"""
        )
        # the east lot and the west one (drawn at lon + 360) on screen, close up
        assert seen[0] is True and seen[2] is True and seen[3] >= 14, seen
        assert loaded.errors == []
    lon, lat = -179.9975, 51.801  # the middle of the west lot
    got = _here(browser, path, lon, lat)
    assert got["errors"] == []
    assert [p for p, _ in got["parcels"]] == ["WEST"]
    assert got["dot"] == {"lat": lat, "lng": lon + 360}
    assert f"You are here: {lat:.6f}, {lon:.6f}" in got["text"]
    # the nearest thing to go to is on one of the two lots, a few hundred feet at most
    assert 0 < float(got["target"]["distanceFt"]) < 700


def test_you_are_here_says_so_when_the_position_cannot_be_had(browser, sample_report, tmp_path):
    browser.context.clear_permissions()  # not allowed: the page says why, nothing breaks
    with browser.opened(
        tmp_path / "map.html", to_html(sample_report, tiles=False), **PHONE
    ) as loaded:
        page = loaded.page
        page.locator(".posting-locate a").click()
        page.wait_for_selector(".posting-here-error", timeout=10_000)
        assert "No position" in page.locator(".posting-here").inner_text()
        assert loaded.errors == []


# -- labels -------------------------------------------------------------------------------
OVERLAPS = """() => {
    const boxes = [...document.querySelectorAll('.posting-gap-label, .posting-label')]
        .filter(e => e.style.display !== 'none').map(e => [e.className, e.textContent,
            e.getBoundingClientRect()]);
    const bad = [];
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i][2], b = boxes[j][2];
        if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
            bad.push([boxes[i][1], boxes[j][1]]);
    }
    return {gaps: boxes.filter(b => b[0] === 'posting-gap-label').length,
            ids: boxes.filter(b => b[0] === 'posting-label').length, overlaps: bad};
}"""


def test_gap_labels_never_overlap_and_show_where_they_fit(browser, tmp_path):
    """A block of 10 x 10 lots of 600 x 400 ft that share their lines, each with a sign 3 ft
    inside each corner only: each lot's north and south sides are gaps over the 500 ft limit,
    and neighbours' gaps lie on the same line, so their labels would fall on the same spot."""
    lots, signs = [], []
    for k in range(100):
        x0, y0 = 600 * (k % 10), 400 * (k // 10)
        lots.append(shapely.box(x0, y0, x0 + 600, y0 + 400))
        signs += [(x0 + 3, y0 + 3), (x0 + 597, y0 + 3), (x0 + 597, y0 + 397), (x0 + 3, y0 + 397)]
    r = check(parcels(*lots), markers(signs))
    over = r.gaps[r.gaps["status"] == "over"]
    assert (r.parcels["status"] == "noncompliant").all() and len(over) == 200
    with browser.opened(tmp_path / "block.html", to_html(r, tiles=False)) as loaded:
        page = loaded.page
        assert loaded.errors == []
        [wcrs] = r.geometry.crss
        lon, lat = (float(v[0]) for v in wcrs.ft_to_lonlat(np.array([3000.0]), np.array([2000.0])))
        city = _labels_at(page, lon, lat, 17)  # about 3.4 ft a pixel: a gap is 170 px long
        assert city["overlaps"] == []
        assert city["gaps"] >= 20, city  # every visible line carries one label, not two
        lengths = set(page.locator(".posting-gap-label").all_inner_texts())
        # written as the popups write feet: one decimal at most, none when it is 0
        assert lengths <= {f"{x:,.1f}".removesuffix(".0") + " ft" for x in over["length_ft"]}
        # a shared line's two gaps (one per lot) get one label between them
        view = page.evaluate(
            "() => { const b = postingMap.map.getBounds(); return [b.getWest(), b.getSouth(),"
            " b.getEast(), b.getNorth()]; }"
        )
        mids = shapely.line_interpolate_point(gap_lines(r)[over.index], 0.5, normalized=True)
        seen = shapely.contains_xy(shapely.box(*view), shapely.get_x(mids), shapely.get_y(mids))
        spots = {(round(m.x, 5), round(m.y, 5)) for m in mids[seen]}
        assert city["gaps"] <= len(spots) < seen.sum()
        # zoomed out a gap is a few pixels long: its length would not fit on it
        assert _labels_at(page, lon, lat, 14)["gaps"] == 0
        # and the parcel ids fill the room the gaps leave, never over them either
        near = _labels_at(page, lon, lat, 18)
        assert near["overlaps"] == [] and near["gaps"] > 0 and near["ids"] > 0


def _labels_at(page, lon, lat, zoom) -> dict:
    page.evaluate(
        "([lat, lon, z]) => { postingMap.map.setView([lat, lon], z, {animate: false}); }",
        [lat, lon, zoom],
    )
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))")
    return page.evaluate(OVERLAPS)


# -- real layers ----------------------------------------------------------------------------
def signs_as_planned(report, missing: float, seed: int) -> MarkerLayer:
    """The plan's markers for a bare layer (a sign at every corner and at most 499.8 ft apart,
    3 ft inside), of which a random share went missing: benchmarks/map_load.py's layout."""
    m = plan(report).markers
    keep = np.random.default_rng(seed).random(len(m)) >= missing
    return MarkerLayer.from_points(
        m["lon"].to_numpy()[keep], m["lat"].to_numpy()[keep], "EPSG:4326", source="survey.csv"
    )


@pytest.mark.realdata
def test_a_parcel_id_is_written_only_where_it_fits_inside_the_parcel(browser, tmp_path):
    """A strip 40 ft wide and 1,000 ft long running north-east, beside a 600 ft square. Its
    id was written across it at close zoom (its bounding box is 700 ft wide), the label's
    corners on the neighbours' land; Williamsburg's irregular lots had 40 % of their id labels
    spilling out at zoom 16-18. Every id written now lies inside its parcel's outline (the
    report's display geometry, tested with shapely), and the square's is written."""
    strip = shapely.affinity.rotate(shapely.box(0, -20, 1000, 20), 45, origin=(0, 0))
    lots = [strip, square(600, x0=800, y0=-300)]
    r = check(parcels(*lots, ids=["STRIP-1", "SQUARE-2"]))
    outlines = dict(zip(r.parcels["id"], display_geometry(r, 0), strict=True))
    [wcrs] = r.geometry.crss
    between = [float(v[0]) for v in wcrs.ft_to_lonlat(np.array([700.0]), np.array([200.0]))]
    on_square = [float(v[0]) for v in wcrs.ft_to_lonlat(np.array([1100.0]), np.array([0.0]))]
    with browser.opened(tmp_path / "fit.html", to_html(r, tiles=False)) as loaded:
        page = loaded.page
        for zoom in (16, 17, 18, 19):
            boxes = page.evaluate(
                """([z, lon, lat]) => { const m = postingMap.map;
                    m.setView([lat, lon], z, {animate: false});
                    postingMap.labels();
                    const r0 = m.getContainer().getBoundingClientRect();
                    return [...document.querySelectorAll('.posting-label')]
                        .filter(e => e.style.display !== 'none').map(e => {
                            const r = e.getBoundingClientRect();
                            return [e.textContent, [[r.left, r.top], [r.right, r.top],
                                [r.left, r.bottom], [r.right, r.bottom]].map(([x, y]) => {
                                    const ll = m.containerPointToLatLng([x - r0.left, y - r0.top]);
                                    return [ll.lng, ll.lat]; })]; }); }""",
                [zoom, *(on_square if zoom >= 18 else between)],
            )
            for pid, corners in boxes:
                inside = shapely.contains_xy(outlines[pid], *np.array(corners).T)
                assert inside.all(), (zoom, pid, inside)
            if zoom >= 18:
                assert "SQUARE-2" in [pid for pid, _ in boxes], zoom
        assert loaded.errors == []


def test_williamsburg_gap_labels_never_overlap_at_city_zoom(browser, tmp_path):
    src = require_real_data(SHARED_DATA / "williamsburg-va" / "parcels.geojson")
    layer = read_parcels(src, id_field="PID")
    r = check(layer, signs_as_planned(check(layer), 0.10, seed=1))
    over = r.gaps[r.gaps["status"] != "ok"]
    with browser.opened(tmp_path / "williamsburg.html", to_html(r, tiles=False)) as loaded:
        page = loaded.page
        assert loaded.errors == [] and loaded.failed == []
        # the views of the densest gaps: around the midpoints of a dozen of them
        mids = shapely.line_interpolate_point(
            gap_lines(r)[over.index[:: max(1, len(over) // 12)]], 0.5, normalized=True
        )
        shown = 0
        for m in mids:
            for zoom in (16, 17, 18):
                got = _labels_at(page, m.x, m.y, zoom)
                assert got["overlaps"] == [], (zoom, got)
                shown += got["gaps"]
        assert shown > 0


@pytest.mark.realdata
def test_pacific_county_with_its_signs_opens_and_pans(browser, tmp_path):
    """The 5,433 Pacific County forest lots and about 66,000 signs: every lot and every sign
    drawn on one canvas, the popups and labels right after a pan. (Its speed is measured by
    benchmarks/map_load.py, not here.)"""
    src = require_real_data(SHARED_DATA / "pacific-wa" / "taxlots.geojson")
    lots = read_parcels(src, id_field="ASSESSOR", owner_field="OWNER")
    r = check(lots, signs_as_planned(check(lots), 0.09, seed=1))
    assert 60_000 < len(r.markers) < 70_000
    text = to_html(r, tiles=False)
    drawable = int((r.parcels["status"] != "invalid").sum())
    assert drawable == 5432  # one lot collapses when its invalid ring is repaired
    with browser.opened(tmp_path / "pacific.html", text) as loaded:
        page = loaded.page
        assert loaded.errors == [] and loaded.failed == []
        assert page.evaluate("() => postingMap.count('parcels')") == drawable
        assert page.evaluate("() => postingMap.count('markers')") == len(r.markers)
        shown = r.gaps["status"].isin(["over", "unmarked", "uncertain"]).to_numpy()
        posted = r.parcels["status"].to_numpy()[r.gaps["parcel"]] != "unposted"
        assert page.evaluate("() => postingMap.count('gaps')") == int((shown & posted).sum())
        assert page.locator(".leaflet-overlay-pane canvas").count() == 1
        assert page.locator(".leaflet-overlay-pane svg").count() == 0
        for k in range(4):
            page.evaluate("k => { postingMap.map.panBy([k % 2 ? -300 : 300, 120]); }", k)
        # a sign, clicked where the canvas draws it, opens its popup
        m = r.markers.iloc[len(r.markers) // 2]
        page.evaluate(
            "([lat, lon]) => { postingMap.map.setView([lat, lon], 19, {animate: false}); }",
            [m["lat"], m["lon"]],
        )
        _click_lonlat(page, m["lon"], m["lat"])
        text = _popup_text(page)
        assert f"survey.csv row {m['row']}" in text
        assert f"Parcel\t{m['parcel_id']}" in text
        _close_popups(page)
        assert _labels_at(page, m["lon"], m["lat"], 17)["overlaps"] == []
        assert loaded.errors == []


def test_a_corner_whose_marker_serves_another_says_so(browser, tmp_path):
    """The flag lot's road corner left without a sign of its own, clicked: the popup gives its
    nearest sign's distance and says that sign serves another corner."""
    from helpers import flag_lot

    lot, signs = flag_lot()
    r = check(parcels(lot, ids=["F1"]), markers(signs))
    [c] = r.corners[r.corners["marker_shared"]].itertuples()
    with browser.opened(tmp_path / "flag.html", to_html(r, tiles=False)) as loaded:
        page = loaded.page
        text = _popup_at(page, c.lon, c.lat)
        assert text.startswith("Corner without a marker, parcel F1")
        assert "Nearest marker of the parcel\t12.5 ft" in text
        assert "Its own marker\tnone: the markers near it serve other corners" in text
        _close_popups(page)
        assert loaded.errors == []


def test_a_point_of_no_marker_kind_is_a_hollow_dot_that_says_so(browser, tmp_path):
    """A monument (kind ``not selected``: left out by ``--signs-where``) on a lot's side, beside
    a sign at its corner: drawn apart, and clicked, it says it counts for no rule."""
    kinds = pd.DataFrame({"kind": ["sign", "not selected"], "description": ["SIGN", "IRF"]})
    r = check(parcels(square(), ids=["L1"]), markers([(0, 0), (500, 0)], attributes=kinds))
    mon = r.markers.iloc[1]
    with browser.opened(tmp_path / "monument.html", to_html(r, tiles=False)) as loaded:
        page = loaded.page
        assert page.locator("path.posting-marker-uncounted").count() == 1
        assert page.locator("path.posting-marker-assigned").count() == 1
        text = _popup_at(page, mon.lon, mon.lat)
        assert text.startswith("Marker: ")
        assert "Counts for\tno rule: its kind is not a sign, paint mark or post" in text
        assert "IRF" in text
        _close_popups(page)
        assert loaded.errors == []


def _texas_lot():
    """Texas's paint marks (not more than 100 ft apart on forest land, 1,000 ft elsewhere): a
    600 x 400 ft lot marked at its four corners, its land cover not given."""
    paint = pd.DataFrame({"kind": ["paint"] * 4})
    return check(
        parcels(shapely.box(0, 0, 600, 400), ids=["TX-1"]),
        markers([(0, 0), (600, 0), (600, 400), (0, 400)], attributes=paint),
        rules="texas",
    )


def test_a_gap_uncertain_for_want_of_the_land_cover_says_why(browser, tmp_path):
    """Texas's paint marks: not more than 100 ft apart on forest land, 1,000 ft elsewhere. A
    600 x 400 ft lot marked at its four corners, its land cover not given: each side is a gap
    of 400 or 600 ft, within 1,000 ft and over 100 ft, so uncertain. Clicked, the south side's
    popup said "within the stated survey accuracy of the limit" (600 ft against 100 ft, and no
    accuracy stated); now it says the gap may be over the limit and quotes the parcel's
    finding: the land cover is not known."""
    r = _texas_lot()
    assert r.gaps["status"].tolist() == ["uncertain"] * 4
    d = r.to_dict()["parcels"][0]
    assert d["status"] == "uncertain"
    assert sorted(g["length_ft"] for g in d["gaps"]) == [400.0, 400.0, 600.0, 600.0]
    assert {g["status"] for g in d["gaps"]} == {"uncertain"}
    assert {g["limit_ft"] for g in d["gaps"]} == {100.0}
    [finding] = d["uncertain"]
    assert "the land cover is not known" in finding["message"]
    k = r.gaps["length_ft"].tolist().index(600.0)  # a long side (the layer keeps the gaps' order)
    with browser.opened(tmp_path / "texas.html", to_html(r, tiles=False), **PHONE) as loaded:
        page = loaded.page
        assert page.locator("path.posting-gap-uncertain").count() == 4
        assert page.locator("path.posting-parcel-uncertain").count() == 1
        page.evaluate(f"() => postingMap.open('gaps', {k})")
        text = _popup_text(page)
        assert text.startswith("Gap on parcel TX-1"), text
        assert "Along the boundary\t600 ft" in text and "not more than 100 ft" in text
        assert "Verdict\tuncertain: it may be over the limit, and the data cannot settle it" in text
        assert finding["message"] in text
        assert "survey accuracy" not in text
        _close_popups(page)
        legend = page.locator(".posting-legend").evaluate("e => e.textContent")
        assert "Gap that may be over the limit: uncertain (its popup says why)" in legend
        assert "survey accuracy of the limit" not in legend
        assert loaded.errors == []


def test_a_dashed_gap_is_tapped_between_its_dashes_too(browser, tmp_path):
    """An uncertain gap is drawn dashed (12 px drawn, 8 px not). Tapped on a phone at each
    2 px of one 20 px period along the lot's south side, its popup opens: a tap between two
    dashes opened the parcel's popup instead (the page hit the SVG line only on its dashes)."""
    r = _texas_lot()
    [wcrs] = r.geometry.crss
    lon, lat = (float(v[0]) for v in wcrs.ft_to_lonlat(np.array([300.0]), np.array([0.0])))
    with browser.opened(tmp_path / "texas.html", to_html(r, tiles=False), **PHONE) as loaded:
        page = loaded.page
        # the side runs across the whole screen at this zoom: every point is on it (the view
        # set again each time: a popup pans the map into view)
        for dx in range(0, 20, 2):
            x, y = page.evaluate(
                """([lat, lon]) => { const m = postingMap.map;
                    m.setView([lat, lon], 21, {animate: false});
                    const p = m.latLngToContainerPoint([lat, lon]);
                    const r = m.getContainer().getBoundingClientRect();
                    return [r.left + p.x, r.top + p.y]; }""",
                [lat, lon],
            )
            page.mouse.click(x - 10 + dx, y)
            text = _popup_text(page)
            assert text.startswith("Gap on parcel TX-1"), (dx, text[:40])
            _close_popups(page)
        # the unseen line under the dashes is not counted as a gap, nor drawn
        assert page.evaluate("() => postingMap.count('gaps')") == 4
        assert page.locator("path.posting-gap").count() == 4
        assert loaded.errors == []


def test_a_gap_and_a_corner_of_an_uncertain_parcel_say_the_parcel_is_not_noncompliant(
    browser, tmp_path
):
    """Two 400 ft squares side by side, of two owners, each signed all round, the two signs at
    the ends of their shared line standing on it: which parcel they post is in doubt, and each
    parcel is uncertain ("noncompliant if they post the neighbour"). The report gives them to
    A, so B has a gap over the limit and two corners without a marker, drawn as such;
    their popups said "longer than the limit" and "Corner without a marker" and nothing of the
    parcel's verdict. Now each says the verdict on B is uncertain, not noncompliant."""
    signs = [(0, 0), (0, 200), (0, 400), (200, 400), (200, 0), (400, 0), (400, 400)]
    signs += [(600, 0), (800, 0), (800, 200), (800, 400), (600, 400)]
    r = check(
        parcels(square(400), square(400, 400), ids=["A", "B"], owners=["X", "Y"]),
        markers(signs),
        settings=AT_SEA,
    )
    assert r.parcels["status"].tolist() == ["uncertain", "uncertain"]
    b = r.to_dict()["parcels"][1]
    # (its spacing and corner findings are violations, as the signs go to A)
    assert [g["status"] for g in b["gaps"]] == ["over"]
    assert {v["rule"] for v in b["violations"]} == {"spacing", "corners"}
    assert len(b["missing_corners"]) == 2
    assert "noncompliant if they post the neighbour" in b["uncertain"][0]["message"]
    with browser.opened(tmp_path / "shared.html", to_html(r, tiles=False), **PHONE) as loaded:
        page = loaded.page
        for kind, head in (("gaps", "Gap on parcel B"), ("corners", "Corner without a marker")):
            page.evaluate(f"() => postingMap.open('{kind}', 0)")
            text = _popup_text(page)
            assert text.startswith(head), text
            assert "The verdict on parcel B is uncertain, not noncompliant" in text, text
            # the parcel's id is a link to its popup, which says why
            page.locator(".leaflet-popup-content .posting-uncertain-parcel a").dispatch_event(
                "click"
            )
            page.wait_for_function(
                "() => [...document.querySelectorAll('.leaflet-popup-content h3')]"
                ".map(e => e.innerText).join() === 'Parcel B'"
            )
            text = _popup_text(page)
            assert text.startswith("Parcel B\nUncertain")
            # the shared line's finding: within 0.01 ft of it (it read "limit 0 ft")
            assert b["uncertain"][0]["limit"] == 0.01
            assert "limit 0.01 ft" in text and "limit 0 ft" not in text
            _close_popups(page)
        assert loaded.errors == []


def test_you_are_here_with_a_coarse_fix_among_many_lots_stays_on_the_screen(browser, tmp_path):
    """A block of 7 x 7 lots of 100 ft at a pitch of 120 ft, the device in the middle of the
    middle lot with a first fix good to 100 m (328 ft, as a phone's first fix from Wi-Fi often
    is). The panel named every lot whose boundary was within the accuracy, one line each: 36
    lines, 3,000 px tall on a phone, its × to stop it far above the top of the screen. Now it
    names the nearest 5 and counts the rest, and scrolls under its × if still too tall."""
    lots = [
        shapely.box(120 * (k % 7), 120 * (k // 7), 120 * (k % 7) + 100, 120 * (k // 7) + 100)
        for k in range(49)
    ]
    ids = [f"L{k:02d}" for k in range(49)]
    r = check(parcels(*lots, ids=ids), settings=AT_SEA)
    # expected, by shapely in the lots' own feet (a transverse Mercator of scale 1 here): the
    # device in L24; of the other lots, those whose boundary is within 328.08 ft of it
    device = shapely.Point(410, 410)
    acc_ft = 100 / 0.3048
    d = np.array([shapely.distance(device, lot.exterior) for lot in lots])
    inside = np.array([lot.contains(device) for lot in lots])
    assert [ids[k] for k in np.flatnonzero(inside)] == ["L24"]
    near = np.sort(d[~inside & (d <= acc_ft)])
    assert len(near) == 36 and np.abs(d - acc_ft).min() > 10  # none near the accuracy's edge
    assert near[:5].tolist() == pytest.approx([70, 70, 70, 70, 99], abs=0.5)
    path = tmp_path / "block.html"
    path.write_text(to_html(r, tiles=False), encoding="utf-8")
    [wcrs] = r.geometry.crss
    lon, lat = (float(v[0]) for v in wcrs.ft_to_lonlat(np.array([410.0]), np.array([410.0])))
    browser.context.grant_permissions(["geolocation"])
    browser.context.set_geolocation({"latitude": lat, "longitude": lon, "accuracy": 100.0})
    try:
        with browser.opened(path, **PHONE) as loaded:
            page = loaded.page
            page.locator(".posting-locate a").click()
            page.wait_for_selector(".posting-here-target", timeout=10_000)
            panel = page.locator(".posting-here")
            text = panel.inner_text()
            assert "In parcel L24" in text
            shown = page.evaluate(
                "() => [...document.querySelectorAll('.posting-here [data-near]')]"
                ".map(e => e.dataset.near)"
            )
            assert len(shown) == 5
            # the nearest five, by their boundaries' distances
            assert re.findall(r"'s boundary is (\d+) ft", text) == ["70", "70", "70", "70", "99"]
            assert "… and 31 more parcels whose boundary is within the position's accuracy" in text
            # on the screen, the × in reach; the rest scrolls
            box = panel.bounding_box()
            x = page.locator(".posting-here-close").bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
            assert x["y"] >= 0 and x["height"] >= 44, x
            page.locator(".posting-here-close").click()
            assert panel.is_hidden()
            assert loaded.errors == []
    finally:
        browser.context.clear_permissions()


def test_you_are_here_pressed_twice_while_waiting_is_stopped_by_one_tap_on_the_x(
    browser, sample_report, tmp_path
):
    """Under trees the first fix is slow: the officer presses the button again while the panel
    says "Finding your position…". Each press asked for a watch of its own and the × stopped
    only the last: the first kept running, and its next fix put the dot and the panel back.
    The device's geolocation is a stand-in here that keeps the watches asked for, so the test
    decides when a fix comes."""
    with browser.opened(
        tmp_path / "map.html", to_html(sample_report, tiles=False), **PHONE
    ) as loaded:
        page = loaded.page
        page.evaluate(
            """() => { const g = navigator.geolocation;
                window.watches = new Map(); let n = 0;
                g.watchPosition = (ok, err) => { n += 1; watches.set(n, ok); return n; };
                g.clearWatch = (id) => { watches.delete(id); }; }"""
        )
        button = page.locator(".posting-locate a")
        button.click()
        assert "Finding your position" in page.locator(".posting-here").inner_text()
        button.click()  # again, no fix yet
        assert page.evaluate("() => watches.size") == 1
        page.locator(".posting-here-close").click()
        assert page.evaluate("() => watches.size") == 0
        # a fix coming now to any watch left shows nothing
        page.evaluate(
            """() => watches.forEach(ok => ok({coords: {latitude: 28.7445, longitude: -81.114,
                accuracy: 5}}))"""
        )
        assert page.locator(".posting-here").is_hidden()
        assert page.locator("path.posting-here-dot").count() == 0
        assert loaded.errors == []


def test_a_gap_over_both_limits_by_land_cover_says_the_limit_its_violation_judged(
    browser, tmp_path
):
    """Texas's 100 ft on forest land, 1,000 ft elsewhere, the land cover not given: a 1,500 ft
    gap (over both: its violation says "longer than 1,000.0 ft") read "Limit: not more than
    100 ft" on the map. It now gives the 1,000 ft its violation judged it against; a 400 ft gap
    (between the two, uncertain) gives both, as its finding does."""
    from test_maps import texas_lot_over_both

    r = texas_lot_over_both()
    length = r.gaps["length_ft"].tolist()
    with browser.opened(tmp_path / "texas.html", to_html(r, tiles=False)) as loaded:
        page = loaded.page
        page.evaluate(f"() => postingMap.open('gaps', {length.index(1500.0)})")
        text = _popup_text(page)
        assert "Along the boundary\t1,500 ft" in text
        assert "Limit\tnot more than 1,000 ft on any land (100 ft on forest land)\n" in text, text
        assert "Verdict\tlonger than the limit" in text
        _close_popups(page)
        page.evaluate(f"() => postingMap.open('gaps', {length.index(400.0)})")
        text = _popup_text(page)
        assert (
            "Limit\tnot more than 100 ft on forest land, 1,000 ft on other land: the land cover "
            "is not known\n"
        ) in text, text
        _close_popups(page)
        # the parcel fails: its violation is one
        page.evaluate("() => postingMap.openParcel('TX-1')")
        text = _popup_text(page)
        assert "\nViolations\nSpacing: 2 gaps between markers longer than 1,000.0 ft" in text
        assert loaded.errors == []


def test_the_findings_of_an_uncertain_parcel_are_not_headed_violations(browser, tmp_path):
    """Parcel B of two squares whose shared line's two signs may post either: uncertain, its
    gap over the limit and its unmarked corners violation-level findings ("noncompliant if they
    post the neighbour"). Its popup listed them under "Violations", which says the parcel
    violates the law; they are headed "Findings" now, on screen and printed."""
    signs = [(0, 0), (0, 200), (0, 400), (200, 400), (200, 0), (400, 0), (400, 400)]
    signs += [(600, 0), (800, 0), (800, 200), (800, 400), (600, 400)]
    r = check(
        parcels(square(400), square(400, 400), ids=["A", "B"], owners=["X", "Y"]),
        markers(signs),
        settings=AT_SEA,
    )
    b = r.to_dict()["parcels"][1]
    assert b["status"] == "uncertain" and {v["rule"] for v in b["violations"]} == {
        "spacing",
        "corners",
    }
    with browser.opened(tmp_path / "shared.html", to_html(r, tiles=False)) as loaded:
        page = loaded.page
        for media in ("screen", "print"):
            page.emulate_media(media=media)
            page.evaluate("() => postingMap.openParcel('B')")
            text = _popup_text(page)
            assert text.startswith("Parcel B\nUncertain")
            heads = page.locator(".leaflet-popup-content h4").all_inner_texts()
            assert heads == ["Findings", "Uncertain"], (media, heads)
            assert "Violations" not in text
            _close_popups(page)
        assert loaded.errors == []


def test_a_gap_over_a_guidance_figure_is_drawn_and_worded_as_uncertain(browser, tmp_path):
    """Alaska's 660 ft, a guidance layout's figure: a 1,000 ft square marked at its corners is
    uncertain, and its four 1,000 ft gaps were drawn solid and said "longer than the limit".
    They are drawn dashed, as the uncertain gaps, their popups say so and quote the finding."""
    r = check(
        parcels(square(), ids=["AK-1"]),
        markers([(0, 0), (1000, 0), (1000, 1000), (0, 1000)]),
        rules="alaska",
        settings=AT_SEA,
    )
    [finding] = r.to_dict()["parcels"][0]["uncertain"]
    with browser.opened(tmp_path / "alaska.html", to_html(r, tiles=False)) as loaded:
        page = loaded.page
        assert page.locator("path.posting-gap-uncertain").count() == 4
        assert page.locator("path.posting-gap-over").count() == 0
        page.evaluate("() => postingMap.open('gaps', 0)")
        text = _popup_text(page)
        assert "Verdict\tuncertain: it may be over the limit, and the data cannot settle it" in text
        assert "longer than the limit" not in text
        assert finding["message"] in text
        assert loaded.errors == []


def test_a_gaps_label_is_the_figure_its_rule_judged(browser, tmp_path):
    """Missouri's "apart" (``metric = "either"``): a 1,000 ft square marked at the middle of
    each side has four gaps of 1,000 ft along the boundary and sqrt(500^2 + 500^2) = 707.1 ft
    in a straight line, the figure the rule judged. The labels read "1,000 ft"; they read
    "707.1 ft straight", and the popup says which of its two figures the rule judges."""
    paint = pd.DataFrame({"kind": ["paint"] * 4})
    r = check(
        parcels(square(), ids=["MO-1"]),
        markers([(500, 0), (1000, 500), (500, 1000), (0, 500)], attributes=paint),
        rules="missouri",
        settings=AT_SEA,
    )
    with browser.opened(tmp_path / "missouri.html", to_html(r, tiles=False)) as loaded:
        page = loaded.page
        page.evaluate(
            "() => { postingMap.map.setZoom(18, {animate: false}); postingMap.labels(); }"
        )
        labels = page.locator(".posting-gap-label").all_inner_texts()
        assert labels and set(labels) == {"707.1 ft straight"}, labels
        page.evaluate("() => postingMap.open('gaps', 0)")
        text = _popup_text(page)
        assert "Along the boundary\t1,000 ft\n" in text
        assert "Straight line\t707.1 ft (the figure the rule judges)" in text
        assert loaded.errors == []


def test_the_find_box_prefers_the_id_as_typed_to_one_in_another_case(browser, tmp_path):
    """Ids that differ only in case: "q-1" drawn and "Q-1" without geometry, "ab-1" and
    "AB-1" both drawn. "Q-1" typed opened q-1 (the first whatever the case); it says Q-1 is not
    on the map. "AB-1" and "ab-1" open their own; "aB-1", none as typed, lists both, and a tap
    on one opens it."""
    geoms = [square(400), shapely.Polygon(), square(400, 600), square(400, 1200)]
    r = check(parcels(*geoms, ids=["q-1", "Q-1", "ab-1", "AB-1"]))
    with browser.opened(tmp_path / "case.html", to_html(r, tiles=False)) as loaded:
        page = loaded.page
        box = page.locator(".posting-search input")
        msg = page.locator(".posting-search-msg")

        def opened() -> list[str]:
            return page.locator(".leaflet-popup-content h3 .posting-id").all_inner_texts()

        box.fill("Q-1")
        box.press("Enter")
        assert msg.inner_text() == "Parcel Q-1 is not on the map: empty geometry"
        assert opened() == []
        for pid in ("AB-1", "ab-1", "q-1"):
            box.fill(pid)
            box.press("Enter")
            page.wait_for_function("() => document.querySelectorAll('.leaflet-popup').length")
            assert opened() == [pid] and msg.inner_text() == ""
            _close_popups(page)
        box.fill("aB-1")
        box.press("Enter")
        assert msg.inner_text() == "No parcel aB-1 as typed; 2 differ only in case: AB-1, ab-1"
        assert opened() == []
        msg.get_by_role("link", name="ab-1", exact=True).click()
        page.wait_for_function("() => document.querySelectorAll('.leaflet-popup').length")
        assert opened() == ["ab-1"] and box.input_value() == "ab-1"
        assert loaded.errors == []
