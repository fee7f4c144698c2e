"""The evidence record (posting evidence) and its check (posting verify).

Figures come from how the test parcels are built (a 1,000 ft square, signs 500 ft apart), from
the sample's known parcels (tests/test_sample.py), and from hashlib, never from the record's
own code.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
import shapely
from click.testing import CliRunner
from helpers import LOCAL_FT, SAMPLE, square
from photo_files import write_photo
from pyproj import Transformer

import posting
from posting.cli import main
from posting.evidence import page_name, rule_text

TO_LONLAT = Transformer.from_crs(LOCAL_FT, "EPSG:4326", always_xy=True)


class Runner(CliRunner):
    """A CliRunner that lets bugs through: an exception that is not a clean exit fails."""

    def invoke(self, *args, **kwargs):
        res = super().invoke(*args, **kwargs)
        if res.exception is not None and not isinstance(res.exception, SystemExit):
            raise res.exception
        return res


@pytest.fixture
def runner() -> Runner:
    return Runner()


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _lonlat(x, y):
    lon, lat = TO_LONLAT.transform(x, y)
    return float(lon), float(lat)


@pytest.fixture
def sample(tmp_path) -> Path:
    """A copy of the sample (the tests change its files)."""
    d = tmp_path / "data"
    d.mkdir()
    for name in ("parcels.geojson", "signs.csv", "signs-added.gpx"):
        shutil.copy(SAMPLE / name, d / name)
    return d


def _sample_args(d: Path) -> list[str]:
    return [
        str(d / "parcels.geojson"),
        "--signs",
        str(d / "signs.csv"),
        "--signs",
        str(d / "signs-added.gpx"),
        "--id-field",
        "parcel_id",
        "--owner-field",
        "owner",
        "--check-date",
        "2026-11-30",
    ]


def _square_survey(tmp_path: Path, *, owner="Ann Lee", pid="P1", text="NO TRESPASSING"):
    """A 1,000 ft square with signs 3 ft inside at three side midpoints only (the east one
    missing): 4 corners without a marker, and the east side part of one 1,000 ft gap."""
    outline = shapely.transform(
        square(), lambda xy: np.column_stack(TO_LONLAT.transform(xy[:, 0], xy[:, 1]))
    )
    parcels = tmp_path / "parcels.geojson"
    gpd.GeoDataFrame({"pid": [pid], "owner": [owner]}, geometry=[outline], crs=4326).to_file(
        parcels
    )
    rows = []
    for x, y in [(500, 3), (500, 997), (3, 500)]:
        lon, lat = _lonlat(x, y)
        rows.append({"lon": lon, "lat": lat, "text": text, "surveyed": "2026-10-14"})
    signs = tmp_path / "signs.csv"
    pd.DataFrame(rows).to_csv(signs, index=False)
    return parcels, signs


# -- posting verify ---------------------------------------------------------------------------


def test_verify_unchanged_0_one_byte_changed_1_removed_2(runner, sample, tmp_path):
    out = tmp_path / "record"
    res = runner.invoke(main, ["evidence", *_sample_args(sample), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert runner.invoke(main, ["verify", str(out)]).exit_code == 0
    # one byte of the signs changed: 1, naming the file
    signs = sample / "signs.csv"
    data = bytearray(signs.read_bytes())
    data[200] = ord("7") if data[200] != ord("7") else ord("8")
    signs.write_bytes(bytes(data))
    res = runner.invoke(main, ["verify", str(out)])
    assert res.exit_code == 1
    assert f"input changed: {signs}" in res.stderr
    # the GPX file removed: 2, naming it
    (sample / "signs-added.gpx").unlink()
    res = runner.invoke(main, ["verify", str(out)])
    assert res.exit_code == 2
    assert f"input missing: {sample / 'signs-added.gpx'}" in res.stderr


def test_verify_names_a_different_verdict_and_a_changed_page(runner, sample, tmp_path):
    out = tmp_path / "record"
    assert runner.invoke(main, ["evidence", *_sample_args(sample), "-o", str(out)]).exit_code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    # the record says N06 (row 5) was compliant: the check now says noncompliant
    changed = json.loads(json.dumps(manifest))
    assert changed["verdicts"][5] == {"id": "N06", "row": 5, "status": "noncompliant"}
    changed["verdicts"][5]["status"] = "compliant"
    changed["environment"]["geos"] = "3.0.0"  # as if made where another GEOS was installed
    (out / "manifest.json").write_text(json.dumps(changed))
    res = runner.invoke(main, ["verify", str(out)])
    assert res.exit_code == 1
    lines = res.stderr.splitlines()
    assert lines[0] == (
        "posting verify: verdict of parcel N06 (row 5): noncompliant now, N06: compliant in the "
        "record"
    )
    assert lines[1].startswith("posting verify: note: geos 3.0.0 made the record, ")
    (out / "manifest.json").write_text(json.dumps(manifest))
    page = out / "N06.html"
    page.write_text(page.read_text().replace("Osceola Cattle Co", "Someone Else"))
    res = runner.invoke(main, ["verify", str(out)])
    assert res.exit_code == 1 and f"record file changed since it was made: {page}" in res.stderr


def test_verify_refuses_another_build_and_hints_at_the_tool_for_an_older_record(
    runner, sample, tmp_path
):
    out = tmp_path / "record"
    assert runner.invoke(main, ["evidence", *_sample_args(sample), "-o", str(out)]).exit_code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    # made by another build of the same version (its files' SHA-256 differs): refused before
    # anything is made again, since its verdicts may differ for that reason alone
    other = json.loads(json.dumps(manifest))
    other["tool"]["sha256"] = "0123456789abcdef" * 4
    (out / "manifest.json").write_text(json.dumps(other))
    res = runner.invoke(main, ["verify", str(out)])
    assert res.exit_code == 1
    assert res.stderr.startswith(
        "posting verify: tool build: the record was made with another build of posting "
        f"{manifest['tool']['version']} (the SHA-256 of its files 0123456789abcdef..., this "
        f"one's {manifest['tool']['sha256'][:16]}...)"
    )
    # a record made before records named the build: verified as before; a difference found
    # says that it may come from the tool
    older = json.loads(json.dumps(manifest))
    del older["tool"]["sha256"]
    (out / "manifest.json").write_text(json.dumps(older))
    assert runner.invoke(main, ["verify", str(out)]).exit_code == 0
    older["verdicts"][5]["status"] = "compliant"
    (out / "manifest.json").write_text(json.dumps(older))
    res = runner.invoke(main, ["verify", str(out)])
    assert res.exit_code == 1
    assert "the difference may come from the tool, not the inputs" in res.stderr
    # a build that is not text: the manifest cannot be used
    other["tool"]["sha256"] = 12
    (out / "manifest.json").write_text(json.dumps(other))
    res = runner.invoke(main, ["verify", str(out)])
    assert res.exit_code == 2 and "a tool SHA-256 that is not text" in res.stderr


def test_verify_with_relative_paths_from_another_folder(runner, sample, tmp_path, monkeypatch):
    monkeypatch.chdir(sample.parent)
    args = ["data/parcels.geojson", "--signs", "data/signs.csv", "--id-field", "parcel_id"]
    assert runner.invoke(main, ["evidence", *args, "-o", "rec", "--all"]).exit_code == 0
    moved = tmp_path / "moved"
    shutil.copytree(sample.parent, moved, ignore=shutil.ignore_patterns("moved"))
    monkeypatch.chdir(moved)
    # recorded working folder first: still there, so the original files are read
    assert runner.invoke(main, ["verify", "rec"]).exit_code == 0
    (moved / "data" / "signs.csv").write_text("lon,lat\n0,0\n")
    res = runner.invoke(main, ["verify", "rec", "--base-dir", str(moved)])
    assert res.exit_code == 1 and "input changed: data/signs.csv" in res.stderr


def test_manifest_lists_inputs_profiles_outputs_with_their_hashes(runner, sample, tmp_path):
    out = tmp_path / "record"
    res = runner.invoke(
        main, ["evidence", *_sample_args(sample), "-o", str(out), "--checked-by", "Dep. Ruiz"]
    )
    assert res.exit_code == 0
    m = json.loads((out / "manifest.json").read_text())
    assert m["schema"] == "posting-evidence/1"
    assert m["check_date"] == "2026-11-30" and m["checked_by"] == "Dep. Ruiz"
    from importlib.metadata import version

    # the build: the package's files, hashed here by their own paths and bytes
    package = Path(posting.__file__).resolve().parent
    files = sorted(
        (f.relative_to(package).as_posix(), f)
        for f in package.rglob("*")
        if f.is_file() and "__pycache__" not in f.relative_to(package).parts
    )
    build = hashlib.sha256()
    for name, f in files:
        data = f.read_bytes()
        build.update(f"{len(name)}:{len(data)}:{name}".encode() + data)
    assert len(files) > 100 and any(n == "rules/florida.toml" for n, _ in files)
    want_tool = {"name": "posting", "version": version("posting"), "sha256": build.hexdigest()}
    assert m["tool"] == want_tool
    page = (out / "N06.html").read_text()
    assert f'its files\' SHA-256 <span class="mono">{build.hexdigest()}</span>' in page
    assert [(x["role"], x["path"]) for x in m["inputs"]] == [
        ("parcels", str(sample / "parcels.geojson")),
        ("signs", str(sample / "signs.csv")),
        ("signs", str(sample / "signs-added.gpx")),
    ]
    for x in m["inputs"]:
        assert x["sha256"] == _sha(Path(x["path"]))
        assert x["size"] == Path(x["path"]).stat().st_size
    florida = Path(posting.__file__).parent / "rules" / "florida.toml"
    assert [(r["name"], r["sha256"], r["verification"]) for r in m["rules"]] == [
        ("florida", _sha(florida), "partial")
    ]
    assert m["settings"]["tolerance_ft"] == 30.0
    files = sorted(p.name for p in out.iterdir() if p.name != "manifest.json")
    assert sorted(o["path"] for o in m["outputs"]) == files
    for o in m["outputs"]:
        assert o["sha256"] == _sha(out / o["path"])
    # the default record: every parcel not compliant or exempt (sample: 16 of 29)
    statuses = {v["id"]: v["status"] for v in m["verdicts"]}
    assert len(statuses) == 29
    want = sorted(k for k, s in statuses.items() if s not in ("compliant", "exempt"))
    assert sorted(m["parcels_in_record"]) == want and "N06" in want and "N01" not in want
    report = json.loads((out / "report.json").read_text())
    assert report["generated"] == "2026-11-30"


def test_the_record_is_the_same_made_twice(runner, sample, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        res = runner.invoke(main, ["evidence", *_sample_args(sample), "-o", str(out)])
        assert res.exit_code == 0
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir())
    for name in names:
        if name != "manifest.json":
            assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_record_folder_replaced_whole_only_when_it_is_a_record(runner, sample, tmp_path):
    out = tmp_path / "rec"
    out.mkdir()
    (out / "mine.txt").write_text("keep me")
    res = runner.invoke(main, ["evidence", *_sample_args(sample), "-o", str(out)])
    assert res.exit_code == 2 and "not an evidence record written earlier" in res.stderr
    assert [p.name for p in out.iterdir()] == ["mine.txt"]
    (out / "mine.txt").unlink()
    args = [*_sample_args(sample), "-o", str(out)]
    assert runner.invoke(main, ["evidence", *args, "--parcel", "N06"]).exit_code == 0
    assert runner.invoke(main, ["evidence", *args, "--parcel", "S1"]).exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "S1.html",
        "index.html",
        "manifest.json",
        "report.json",
    ]


def test_parcel_selection_and_unknown_id(runner, sample, tmp_path):
    out = tmp_path / "rec"
    args = [*_sample_args(sample), "-o", str(out)]
    res = runner.invoke(main, ["evidence", *args, "--parcel", "N01", "--parcel", "N06"])
    assert res.exit_code == 0
    assert sorted(p.name for p in out.glob("N*.html")) == ["N01.html", "N06.html"]
    res = runner.invoke(main, ["evidence", *args, "--all"])
    assert res.exit_code == 0 and len(list(out.glob("*.html"))) == 29 + 1
    res = runner.invoke(main, ["evidence", *args, "--parcel", "NOPE"])
    assert res.exit_code == 2
    assert "no parcel has the id 'NOPE' (--parcel names a parcel by its id)" in res.stderr


def test_pdf_without_chromium_is_a_clear_error_and_writes_nothing(
    runner, sample, tmp_path, monkeypatch
):
    monkeypatch.setenv("POSTING_CHROMIUM", str(tmp_path / "no-such-chromium"))
    out = tmp_path / "rec"
    res = runner.invoke(main, ["evidence", *_sample_args(sample), "-o", str(out), "--pdf"])
    assert res.exit_code == 2
    assert "--pdf needs Chromium" in res.stderr and "Leave out --pdf" in res.stderr
    assert not out.exists()


# -- the page ---------------------------------------------------------------------------------


def test_page_of_the_noncompliant_sample_parcel(runner, sample, tmp_path):
    out = tmp_path / "rec"
    res = runner.invoke(main, ["evidence", *_sample_args(sample), "-o", str(out)])
    assert res.exit_code == 0
    html = (out / "N06.html").read_text()
    # N06 (tests/test_sample.py): Osceola Cattle Co, one 857.2 ft gap on its east side
    assert "<h1>Parcel N06</h1>" in html and "Osceola Cattle Co" in html
    assert "Not compliant" in html and "857.2 ft" in html and "500 ft" in html
    assert "Fla. Stat. 810.011(5)(a)1" in html
    assert "signs placed not more than 500 feet apart along ... the boundaries of the land" in html
    assert "Markers (13)" in html
    assert html.count('class="marker"') == 13
    assert re.findall(r'<path class="gap over"', html) == ['<path class="gap over"']
    assert _sha(Path(posting.__file__).parent / "rules" / "florida.toml") in html
    assert _sha(sample / "signs.csv") in html
    assert "<script" not in html.lower()


def test_a_corner_whose_marker_serves_another_says_so():
    """The flag lot's road corner left without a sign: the page lists it with its nearest
    sign's distance and says that sign serves another corner."""
    from helpers import flag_lot, markers, parcels

    from posting.evidence import RecordPage, render_record

    lot, signs = flag_lot()
    report = posting.check(parcels(lot, ids=["F1"]), markers(signs))
    pages = render_record(report, np.array([0]), RecordPage(check_date="2026-12-05"))
    [html] = [v for k, v in pages.items() if k != "index.html"]
    rows = re.findall(r"<tr><td>C\d+</td>.*?</tr>", html)
    assert len(rows) == 1
    assert "<td>missing</td>" in rows[0] and "12.5 ft, serves another corner" in rows[0]


def test_map_is_in_feet_north_up_with_a_true_scale_bar(runner, tmp_path):
    parcels, signs = _square_survey(tmp_path)
    out = tmp_path / "rec"
    res = runner.invoke(
        main, ["evidence", str(parcels), "--signs", str(signs), "--id-field", "pid", "-o", str(out)]
    )
    assert res.exit_code == 0, res.output
    html = (out / "P1.html").read_text()
    svg = html[html.index("<svg") : html.index("</svg>")]
    d = re.search(r'<path class="parcel"[^>]* d="([^"]+)"', svg).group(1)
    xy = np.array([float(v) for v in re.findall(r"-?\d+\.\d+", d)]).reshape(-1, 2)
    # the map's units are feet: the 1,000 ft square spans 1,000 units each way (1 ft of
    # rounding and the scale of the map's own transverse Mercator at most)
    assert np.ptp(xy[:, 0]) == pytest.approx(1000.0, abs=1.0)
    assert np.ptp(xy[:, 1]) == pytest.approx(1000.0, abs=1.0)
    # north up: the north midpoint's marker is drawn above the south one's
    circles = re.findall(r'<circle class="marker" cx="([\d.]+)" cy="([\d.]+)"', svg)
    assert len(circles) == 3
    ys = sorted(float(cy) for _, cy in circles)
    assert ys[-1] - ys[0] == pytest.approx(994.0, abs=1.0)  # from y = 3 to y = 997
    # the scale bar: a round number of feet, drawn that many units long
    bar = re.search(r'class="scalebar" d="M([\d.]+) [\d.]+V[\d.]+H([\d.]+)', svg)
    label = re.search(r"<text[^>]*>([\d,]+) ft</text></g>", svg).group(1)
    assert float(bar.group(2)) - float(bar.group(1)) == pytest.approx(float(label.replace(",", "")))
    assert label in ("200", "500")
    assert '<g class="north">' in svg and ">N</text>" in svg
    # the four corners have no marker, and the unmarked stretch is drawn as a gap
    assert svg.count('class="corner missing"') == 4
    assert svg.count('<path class="gap') >= 1


def _subpaths(d: str) -> list[np.ndarray]:
    """The rings of SVG path data as this module writes it (M x y x y ... Z, repeated)."""
    return [
        np.array([float(v) for v in part.replace("Z", " ").split()]).reshape(-1, 2)
        for part in d.split("M")[1:]
    ]


def test_a_neighbour_with_a_hole_is_not_filled_over_its_hole(runner, tmp_path):
    """The parcel is an inholding: its neighbour surrounds it, with a hole where it lies (and a
    second hole, another inholding). The neighbour's path had no fill-rule, so its rings, given
    in one direction as a file may give them, were filled by SVG's default (nonzero) over its
    holes. Every path of a map with more than one ring is now filled even-odd."""
    import xml.etree.ElementTree as ET

    def lonlat(ring):
        return [_lonlat(x, y) for x, y in ring]

    inner = [(0, 0), (1000, 0), (1000, 1000), (0, 1000)]  # P1, counter-clockwise
    other = [(1300, 300), (1500, 300), (1500, 500), (1300, 500)]  # the other inholding
    outer = [(-500, -500), (2000, -500), (2000, 1500), (-500, 1500)]
    # the neighbour's holes counter-clockwise like its outer ring (no orientation is required)
    around = shapely.Polygon(lonlat(outer), [lonlat(inner), lonlat(other)])
    parcels = tmp_path / "parcels.geojson"
    gpd.GeoDataFrame(
        {"pid": ["P1", "N"]}, geometry=[shapely.Polygon(lonlat(inner)), around], crs=4326
    ).to_file(parcels)
    signs = tmp_path / "signs.csv"
    pd.DataFrame([dict(zip(("lon", "lat"), _lonlat(500, 3), strict=True))]).to_csv(
        signs, index=False
    )
    out = tmp_path / "rec"
    args = [str(parcels), "--signs", str(signs), "--id-field", "pid", "--all", "-o", str(out)]
    assert runner.invoke(main, ["evidence", *args]).exit_code == 0
    html = (out / "P1.html").read_text()
    svg = ET.fromstring(html[html.index("<svg") : html.index("</svg>") + 6])
    paths = [p for p in svg.iter("{http://www.w3.org/2000/svg}path") if p.get("d", "").count("M")]
    neighbour = [p for p in paths if p.get("class") == "neighbour"]
    assert len(neighbour) == 1
    rings = _subpaths(neighbour[0].get("d"))
    assert len(rings) == 3  # the outer ring and the two holes
    # a point in P1 (the first hole) is inside two rings (an even number: even-odd leaves it
    # empty), and each goes round it the same way: its winding number is 2 or -2, which SVG's
    # default rule (nonzero) fills
    px, py = rings[1].mean(axis=0)

    def winding(ring):
        a = np.arctan2(ring[:, 1] - py, ring[:, 0] - px)
        turn = np.diff(np.append(a, a[0]))
        return round(float(((turn + np.pi) % (2 * np.pi) - np.pi).sum() / (2 * np.pi)))

    assert sum(shapely.Polygon(r).contains(shapely.Point(px, py)) for r in rings) == 2
    assert abs(sum(winding(r) for r in rings)) == 2
    assert neighbour[0].get("fill-rule") == "evenodd"
    for page in ("P1.html", "N.html"):
        html = (out / page).read_text()
        svg = ET.fromstring(html[html.index("<svg") : html.index("</svg>") + 6])
        shapes = [
            p
            for p in svg.iter("{http://www.w3.org/2000/svg}path")
            if p.get("class") in ("neighbour", "parcel")
        ]
        assert len(shapes) == 2  # the page's parcel and the other one
        for p in shapes:
            if len(_subpaths(p.get("d"))) > 1:
                assert p.get("fill-rule") == "evenodd", (page, p.get("class"))


def test_a_record_at_an_elevation_measures_and_draws_ground_feet_and_verifies(runner, tmp_path):
    # the 1,000 ft square (sea-level feet: LOCAL_FT is a transverse Mercator of scale 1 at
    # 28.7 N) is 1,000 x (R + 5280) / R = 1,000.253 ground ft a side at 5,280 ft (R =
    # a sqrt(1 - e²) / (1 - e² sin² 28.7°) = 20,925,646 x 0.996647 / 0.998456 = 20,887,733 ft),
    # and the map's feet are the ground's too
    parcels, signs = _square_survey(tmp_path)
    pages = {}
    for h in ("0", "5280"):
        out = tmp_path / f"rec{h}"
        args = [str(parcels), "--signs", str(signs), "--id-field", "pid", "--elevation-ft", h]
        res = runner.invoke(main, ["evidence", *args, "-o", str(out)])
        assert res.exit_code == 0, res.output
        assert runner.invoke(main, ["verify", str(out)]).exit_code == 0
        manifest = json.loads((out / "manifest.json").read_text())
        pages[h] = ((out / "P1.html").read_text(), manifest)
    html, manifest = pages["5280"]
    assert manifest["options"]["elevation_ft"] == 5280
    assert "ground feet at 5,280 ft elevation" in html
    assert "(ground distances at 5,280 ft elevation)" in html
    # at sea level, given: the manifest and command say it (not given is not sea level: each
    # parcel's land between its state's lowest and highest points), and a record that does
    # not give it is as those of before the option came
    assert pages["0"][1]["options"]["elevation_ft"] == 0
    assert "--elevation-ft 0" in pages["0"][1]["command"]
    for h, side in (("0", 1000.0), ("5280", 1000.253)):
        page = pages[h][0]
        svg = page[page.index("<svg") : page.index("</svg>")]
        d = re.search(r'<path class="parcel"[^>]* d="([^"]+)"', svg).group(1)
        xy = np.array([float(v) for v in re.findall(r"-?\d+\.\d+", d)]).reshape(-1, 2)
        assert np.ptp(xy[:, 0]) == pytest.approx(side, abs=0.11), h
        assert np.ptp(xy[:, 1]) == pytest.approx(side, abs=0.11), h


def test_nothing_from_the_input_runs_as_script(runner, tmp_path):
    owner = '<script>alert("owner")</script>'
    pid = "<img src=x onerror=alert(1)></style>"
    text = '"><svg onload=alert(2)>'
    parcels, signs = _square_survey(tmp_path, owner=owner, pid=pid, text=text)
    out = tmp_path / "rec"
    args = [str(parcels), "--signs", str(signs), "--id-field", "pid", "--owner-field", "owner"]
    assert runner.invoke(main, ["evidence", *args, "-o", str(out)]).exit_code == 0
    pages = list(out.glob("*.html"))
    assert len(pages) == 2  # index.html and the parcel's page
    for page in pages:
        html = page.read_text()
        low = html.lower()
        assert "<script" not in low and "<img src=x" not in low and "<svg onload" not in low
        assert html.count("</style>") == 1  # the id in the page's footer does not end the style
        assert "Content-Security-Policy" in html and "default-src 'none'" in html
    page = next(p for p in pages if p.name != "index.html")
    html = page.read_text()
    assert "&lt;script&gt;alert(&quot;owner&quot;)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "&quot;&gt;&lt;svg onload=alert(2)&gt;" in html
    assert page.name == "img_src_x_onerror_alert_1_style.html"


def test_photos_in_the_record(runner, tmp_path):
    """Signs given as photos: thumbnails on the page; the photo without GPS on the index."""
    parcels, _ = _square_survey(tmp_path)
    folder = tmp_path / "photos"
    folder.mkdir()
    for k, (x, y, facing) in enumerate([(500, 3, 180), (997, 500, 90), (3, 500, 270)]):
        write_photo(folder / f"IMG_{k}.JPG", *_lonlat(x, y), camera_deg=(facing + 180) % 360)
    write_photo(folder / "IMG_9.JPG", None, None)
    out = tmp_path / "rec"
    args = [str(parcels), "--signs", str(folder), "--id-field", "pid", "-o", str(out)]
    assert runner.invoke(main, ["evidence", *args]).exit_code == 0
    html = (out / "P1.html").read_text()
    assert html.count('<img class="thumb"') == 3
    assert html.count('src="data:image/jpeg;base64,') == 3
    assert "IMG_0.JPG" in html and "180°" in html and "2026-10-14T09:31:05-04:00" in html
    index = (out / "index.html").read_text()
    assert "IMG_9.JPG" not in html and "no GPS position" in index
    m = json.loads((out / "manifest.json").read_text())
    assert [x["role"] for x in m["inputs"]] == ["parcels"] + ["signs (photo)"] * 4
    assert runner.invoke(main, ["verify", str(out)]).exit_code == 0
    # a photo added to the folder afterwards is a difference
    write_photo(folder / "IMG_5.JPG", *_lonlat(500, 997))
    res = runner.invoke(main, ["verify", str(out)])
    assert res.exit_code == 1 and "IMG_5.JPG" in res.stderr


def test_photos_attached_to_surveyed_markers(runner, tmp_path):
    parcels, signs = _square_survey(tmp_path)
    folder = tmp_path / "pics"
    folder.mkdir()
    x, y = _lonlat(500, 8)  # 5 ft from the south sign
    write_photo(folder / "south.jpg", x, y, error_m=3.0)
    write_photo(folder / "far.jpg", *_lonlat(800, 300), error_m=3.0)
    out = tmp_path / "rec"
    args = [str(parcels), "--signs", str(signs), "--id-field", "pid", "--photos", str(folder)]
    res = runner.invoke(main, ["evidence", *args, "-o", str(out)])
    assert res.exit_code == 0
    assert "1 attached to markers, 1 to none" in res.stderr
    html = (out / "P1.html").read_text()
    assert html.count('<img class="thumb"') == 1 and "south.jpg" in html
    index = (out / "index.html").read_text()
    assert "far.jpg" in index and "no marker within 9.8 ft of the photo" in index


def test_photos_that_hold_no_photo_are_refused_and_one_bad_photo_is_listed(runner, tmp_path):
    """The marker CSV given to --photos by mistake was listed as one unreadable photo and the
    record made: it is refused, naming it and what --photos takes, and nothing is written. So is
    a folder of files named like photos of which none is one. One unreadable photo among good
    ones is still listed on the index with its reason."""
    parcels, signs = _square_survey(tmp_path)
    args = [str(parcels), "--signs", str(signs), "--id-field", "pid"]
    out = tmp_path / "rec"
    res = runner.invoke(main, ["evidence", *args, "--photos", str(signs), "-o", str(out)])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert f"{signs}: holds no photo" in res.stderr
    assert "--photos takes a photo (JPEG, HEIC or TIFF) or a folder of photos" in res.stderr
    assert "a file of markers (CSV, GPX, GeoJSON ...) goes with --signs" in res.stderr
    assert not out.exists()
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "a.jpg").write_text("lon,lat\n1,2\n")
    (bad / "b.JPG").write_bytes(b"\xff\xd8 cut short")
    res = runner.invoke(main, ["evidence", *args, "--photos", str(bad), "-o", str(out)])
    assert res.exit_code == 2 and f"{bad}: holds no photo Pillow can read (2 file(s)" in res.stderr
    assert not out.exists()
    write_photo(bad / "south.jpg", *_lonlat(500, 8), error_m=3.0)  # 5 ft from the south sign
    res = runner.invoke(main, ["evidence", *args, "--photos", str(bad), "-o", str(out)])
    assert res.exit_code == 0 and "1 attached to markers, 2 to none" in res.stderr
    index = (out / "index.html").read_text()
    assert index.count("not a readable photo") == 2 and "a.jpg" in index and "b.JPG" in index


# -- pieces -----------------------------------------------------------------------------------


def test_page_names_are_safe_and_unique():
    names = page_name(["N06", "N06", "../etc/passwd", "manifest", "Ω"], [1, 2, 3, 4, 5])
    assert names == {
        1: "N06-row1.html",
        2: "N06-row2.html",
        3: "etc_passwd.html",
        4: "manifest-row4.html",
        5: "parcel.html",
    }


def test_every_finding_rule_of_the_shipped_profiles_has_its_words():
    # each rule a finding can name maps to a table of the profile that words it
    from posting.rules import available, load_rules

    for name in available():
        p = load_rules(name)
        for table, rule in p.rules():
            assert rule_text(p, table) == (table, rule.text)
        if p.content is not None:
            for r in ("letter_height", "sign_text", "name_on_sign", "sign_size"):
                assert rule_text(p, r) == ("content", p.content.text)
        if p.paint is not None:
            assert rule_text(p, "paint_color") == ("paint", p.paint.text)
        if p.post is not None:
            assert rule_text(p, "post_top") == ("post", p.post.text)


def test_a_profile_file_of_ones_own_is_an_input_of_the_record(runner, sample, tmp_path):
    florida = Path(posting.__file__).parent / "rules" / "florida.toml"
    mine = tmp_path / "my-county.toml"
    mine.write_text(florida.read_text().replace('name = "florida"', 'name = "my-county"'))
    out = tmp_path / "rec"
    args = [*_sample_args(sample), "--rules", str(mine), "-o", str(out)]
    assert runner.invoke(main, ["evidence", *args]).exit_code == 0
    m = json.loads((out / "manifest.json").read_text())
    assert [(r["name"], r["given"], r["sha256"]) for r in m["rules"]] == [
        ("my-county", str(mine), _sha(mine))
    ]
    assert _sha(mine) in (out / "N06.html").read_text()
    mine.write_text(mine.read_text().replace("max_ft = 500", "max_ft = 900"))
    res = runner.invoke(main, ["verify", str(out)])
    assert res.exit_code == 1 and f"rule profile changed: my-county ({mine})" in res.stderr
    mine.unlink()
    res = runner.invoke(main, ["verify", str(out)])
    assert res.exit_code == 2 and f"input missing: {mine} (rules)" in res.stderr


def test_two_prints_whose_node_ids_shift_are_the_same_once_renumbered():
    """A print whose structure ids shift by one from the 40th on (a node the page made in one
    print and not the other, as a loaded machine once gave) is the other print, byte for byte,
    once the ids are numbered afresh; the ids stay sorted, one per element, the same width."""
    from posting.evidence import renumber_nodes

    def pdf(ids: list[int]) -> bytes:
        elems = b"".join(b"/ID (node%08d) /Headers [(node%08d)]\n" % (i, ids[0]) for i in ids)
        tree = b"/Names [" + b" ".join(b"(node%08d) 1 0 R" % i for i in ids) + b"]"
        return elems + tree

    one = pdf([12, 13, *range(38, 60), 181, 182])
    two = pdf([12, 13, 38, 39, *range(41, 61), 182, 183])
    assert one != two and len(one) == len(two)
    assert renumber_nodes(one) == renumber_nodes(two)
    assert renumber_nodes(one).count(b"(node00000001)") == 1 + 26 + 1  # its element, headers, tree
    assert b"(node00000026)" in renumber_nodes(one) and b"(node00000027)" not in renumber_nodes(one)


# -- what verify checks besides the pages (found by an audit) -----------------------------------


def _square_record(runner, tmp_path: Path, *extra: str) -> Path:
    parcels, signs = _square_survey(tmp_path)
    out = tmp_path / "rec"
    args = [str(parcels), "--signs", str(signs), "--id-field", "pid", "--check-date", "2026-11-30"]
    res = runner.invoke(main, ["evidence", *args, *extra, "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert runner.invoke(main, ["verify", str(out)]).exit_code == 0
    return out


def test_verify_finds_a_page_added_to_the_record(runner, tmp_path):
    out = _square_record(runner, tmp_path)
    (out / "P2.html").write_text("<h1>Parcel P2</h1><p>Compliant</p>")
    res = runner.invoke(main, ["verify", str(out)])
    assert res.exit_code == 1
    assert f"file not in the record: {out / 'P2.html'}" in res.stderr
    (out / "P2.html").unlink()
    (out / ".DS_Store").write_bytes(b"\0")  # what a system leaves is not a page
    assert runner.invoke(main, ["verify", str(out)]).exit_code == 0


def test_verify_passes_over_what_a_mac_zip_and_file_browsers_leave_and_names_it(runner, tmp_path):
    """A record zipped on a Mac (the Finder's Compress of the folder's files) and unzipped on
    another system has a __MACOSX folder of '._' files beside its pages, and file browsers
    leave .DS_Store, Thumbs.db, desktop.ini: verify said 'file not in the record' of
    __MACOSX. They are named once, as the system's, and the record verifies; a page or a
    folder of one's own added is still a difference."""
    import zipfile

    out = _square_record(runner, tmp_path)
    mac_zip = tmp_path / "record.zip"
    with zipfile.ZipFile(mac_zip, "w") as z:
        for f in sorted(out.iterdir()):
            z.write(f, f.name)
            z.writestr(f"__MACOSX/._{f.name}", b"\x00\x05\x16\x07Mac OS X        ")  # AppleDouble
        z.writestr(".DS_Store", b"\x00\x00\x00\x01Bud1")
    unzipped = tmp_path / "unzipped"
    with zipfile.ZipFile(mac_zip) as z:
        z.extractall(unzipped)
    (unzipped / "Thumbs.db").write_bytes(b"\xd0\xcf\x11\xe0")
    (unzipped / "desktop.ini").write_text("[.ShellClassInfo]\n")
    assert (unzipped / "__MACOSX" / "._P1.html").is_file()
    res = runner.invoke(main, ["verify", str(unzipped)])
    assert res.exit_code == 0, res.stderr
    said = [line for line in res.stderr.splitlines() if "operating system" in line]
    assert said == [
        f"passed over: .DS_Store, Thumbs.db, __MACOSX/, desktop.ini in {unzipped}, left by the "
        "operating system (a Mac's zip, a file browser), not files of the record"
    ]
    assert "not in the record" not in res.stderr
    (unzipped / "notes").mkdir()  # a folder of one's own is not the system's
    res = runner.invoke(main, ["verify", str(unzipped)])
    assert res.exit_code == 1 and f"file not in the record: {unzipped / 'notes'}" in res.stderr


@pytest.mark.parametrize(
    ("key", "value"),
    [("checked_by", "Sheriff Someone"), ("check_date", "2020-01-01"), ("crs", "EPSG:4326")],
)
def test_verify_finds_an_edited_manifest(runner, tmp_path, key, value):
    out = _square_record(runner, tmp_path, "--checked-by", "Dep. Ruiz")
    path = out / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest[key] = value
    path.write_text(json.dumps(manifest))
    res = runner.invoke(main, ["verify", str(out)])
    assert res.exit_code == 1
    assert f"record file changed since it was made: {path} ({key}: {json.dumps(value)} in it" in (
        res.stderr
    )


def test_verify_of_a_manifest_it_cannot_use_is_2_not_a_traceback(runner, tmp_path):
    out = _square_record(runner, tmp_path)
    path = out / "manifest.json"
    manifest = json.loads(path.read_text())
    for edit, said in [
        (lambda m: m.pop("inputs"), "no 'inputs' list"),
        (lambda m: m["options"].update(check_date="30/11/2026"), "option 'check_date'"),
        (lambda m: m["options"].update(tolerance_ft="wide"), "option 'tolerance_ft'"),
        (lambda m: m["outputs"][0].update(path="../elsewhere.html"), "not a file of the record"),
        (lambda m: m["verdicts"].append({"id": "P9"}), "verdicts entry 2 lacks"),
    ]:
        changed = json.loads(json.dumps(manifest))
        edit(changed)
        path.write_text(json.dumps(changed))
        res = runner.invoke(main, ["verify", str(out)])
        assert res.exit_code == 2, said
        assert "cannot read the record's manifest" in res.stderr and said in res.stderr


def test_places_and_registry_are_inputs_of_the_record(runner, tmp_path):
    far = shapely.box(-80.0, 27.0, -79.99, 27.01)  # nowhere near the parcel: no verdict changes
    registry, places = tmp_path / "registry.geojson", tmp_path / "places.geojson"
    gpd.GeoDataFrame({"year": [2026]}, geometry=[far], crs=4326).to_file(registry)
    gpd.GeoDataFrame({"name": ["Nowhere"]}, geometry=[far], crs=4326).to_file(places)
    extra = ["--registry", str(registry), "--places", str(places), "--place-field", "name"]
    out = _square_record(runner, tmp_path, *extra)
    m = json.loads((out / "manifest.json").read_text())
    assert [(x["role"], x["sha256"]) for x in m["inputs"][2:]] == [
        ("places", _sha(places)),
        ("registry", _sha(registry)),
    ]
    gpd.GeoDataFrame({"year": [2025]}, geometry=[far], crs=4326).to_file(registry)
    res = runner.invoke(main, ["verify", str(out)])
    assert res.exit_code == 1 and f"input changed: {registry} (registry)" in res.stderr


def test_verify_from_a_base_dir_with_a_profile_file_given_relative(runner, tmp_path, monkeypatch):
    case = tmp_path / "case"
    case.mkdir()
    _square_survey(case)
    florida = Path(posting.__file__).parent / "rules" / "florida.toml"
    (case / "mine.toml").write_text(florida.read_text().replace('"florida"', '"mine"', 1))
    monkeypatch.chdir(case)
    args = ["parcels.geojson", "--signs", "signs.csv", "--rules", "mine.toml", "--id-field", "pid"]
    assert runner.invoke(main, ["evidence", *args, "-o", "rec"]).exit_code == 0
    shutil.copytree(case, tmp_path / "moved")
    shutil.rmtree(case)
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(main, ["verify", "moved/rec", "--base-dir", "moved"])
    assert res.exit_code == 0, res.stderr
    mine = tmp_path / "moved" / "mine.toml"
    mine.write_text(mine.read_text().replace("max_ft = 500", "max_ft = 900"))
    res = runner.invoke(main, ["verify", "moved/rec", "--base-dir", "moved"])
    assert res.exit_code == 1 and "rule profile changed: mine (moved/mine.toml)" in res.stderr


@pytest.mark.parametrize("kind", ["dataset", "geodatabase"])
def test_parcels_given_as_a_folder(runner, tmp_path, kind):
    parcels, signs = _square_survey(tmp_path)
    frame = gpd.read_file(parcels)
    if kind == "dataset":
        folder = tmp_path / "parcels"
        folder.mkdir()
        frame.to_parquet(folder / "part.0.parquet")
    else:
        folder = tmp_path / "parcels.gdb"
        frame.to_file(folder, driver="OpenFileGDB")
    out = tmp_path / "rec"
    args = [str(folder), "--signs", str(signs), "--id-field", "pid", "-o", str(out)]
    res = runner.invoke(main, ["evidence", *args])
    assert res.exit_code == 0, res.stderr
    m = json.loads((out / "manifest.json").read_text())
    files = [Path(x["path"]) for x in m["inputs"] if x["role"] == "parcels"]
    assert files and all(f.parent == folder for f in files)
    assert [x["sha256"] for x in m["inputs"] if x["role"] == "parcels"] == [_sha(f) for f in files]
    assert runner.invoke(main, ["verify", str(out)]).exit_code == 0
    if kind == "dataset":  # a part added to the dataset is a difference
        frame.assign(pid=["P2"]).to_parquet(folder / "part.1.parquet")
        res = runner.invoke(main, ["verify", str(out)])
        assert res.exit_code == 1 and "part.1.parquet (added since)" in res.stderr


def test_a_folder_with_another_programs_manifest_is_not_replaced(runner, tmp_path):
    parcels, signs = _square_survey(tmp_path)
    site = tmp_path / "site"
    site.mkdir()
    (site / "manifest.json").write_text('{"name": "my web app", "start_url": "/"}')
    (site / "app.js").write_text("console.log('mine')")
    args = [str(parcels), "--signs", str(signs), "--id-field", "pid"]
    res = runner.invoke(main, ["evidence", *args, "-o", str(site)])
    assert res.exit_code == 2 and "not an evidence record written earlier" in res.stderr
    assert sorted(p.name for p in site.iterdir()) == ["app.js", "manifest.json"]
    # an earlier record with a file of one's own beside it is not replaced either
    out = tmp_path / "rec"
    assert runner.invoke(main, ["evidence", *args, "-o", str(out)]).exit_code == 0
    (out / "notes.txt").write_text("exhibit 4")
    res = runner.invoke(main, ["evidence", *args, "-o", str(out)])
    assert res.exit_code == 2 and (out / "notes.txt").read_text() == "exhibit 4"
    (out / "notes.txt").unlink()
    assert runner.invoke(main, ["evidence", *args, "-o", str(out)]).exit_code == 0


def test_two_photos_of_one_name_are_told_apart_on_the_page(runner, tmp_path):
    # two phones' cameras both name their first photo IMG_0001.JPG: each photo's label on the
    # page says which folder it came from
    parcels, _ = _square_survey(tmp_path)
    folder = tmp_path / "photos"
    for sub, (x, y) in (("ann", (500, 3)), ("bob", (3, 500))):
        (folder / sub).mkdir(parents=True)
        write_photo(folder / sub / "IMG_0001.JPG", *_lonlat(x, y))
    write_photo(folder / "ann" / "IMG_0002.JPG", *_lonlat(500, 997))
    out = tmp_path / "rec"
    args = [str(parcels), "--signs", str(folder), "--id-field", "pid", "-o", str(out)]
    assert runner.invoke(main, ["evidence", *args]).exit_code == 0
    html = (out / "P1.html").read_text()
    labels = re.findall(r'<span class="small">([^<]*)</span>', html)
    assert sorted(x for x in labels if "IMG" in x) == [
        "IMG_0002.JPG",
        "ann/IMG_0001.JPG",
        "bob/IMG_0001.JPG",
    ]


def test_a_bidirectional_control_shows_as_its_code_point(runner, tmp_path):
    # U+202E turns the rest of the line right to left: the sign's stored text would display as
    # other words; the page shows the control itself, so what is read is what is stored
    parcels, signs = _square_survey(tmp_path, text="NO \u202eGNISSAPSERT", owner="Ann \u2066Lee")
    out = tmp_path / "rec"
    args = [str(parcels), "--signs", str(signs), "--id-field", "pid", "--owner-field", "owner"]
    assert runner.invoke(main, ["evidence", *args, "-o", str(out)]).exit_code == 0
    for page in out.glob("*.html"):
        html = page.read_text()
        assert not re.search("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]", html), page.name
    html = (out / "P1.html").read_text()
    assert "NO [U+202E]GNISSAPSERT" in html and "Ann [U+2066]Lee" in html


def test_a_gap_that_fails_by_four_thousandths_is_never_shown_at_the_limit_in_the_record():
    """A 500.004 ft gap fails 500 ft: the record's page read "500.0 ft" for it (the gap's
    row, the violation's measured figure), "500 ft" on its label and the index's largest
    gap "500.0 ft". They read 500.1 ft (and 501 ft on the label, shown to the foot)."""
    from helpers import AT_SEA, CORNERS_AND_MIDPOINTS, markers, parcels, square

    from posting.evidence import RecordPage, render_record

    pts = [p for p in CORNERS_AND_MIDPOINTS if p != (500, 0)] + [(500.004, 0)]
    report = posting.check(parcels(square(), ids=["P1"]), markers(pts), settings=AT_SEA)
    pages = render_record(report, np.array([0]), RecordPage(check_date="2026-12-06"))
    html = pages["P1.html"]
    [row] = re.findall(r"<tr><td>G1</td>.*?</tr>", html)
    assert "<td class=num>500.1 ft</td><td class=num>500.1 ft</td>" in row
    [finding] = re.findall(r'<tr class="finding">.*?</tr>', html)
    assert "<td class=num>500.1 ft</td><td class=num>500 ft</td>" in finding
    assert ">501 ft</text>" in html and ">500 ft</text>" not in html
    assert "<td class=num>500.1 ft</td></tr>" in pages["index.html"]


def test_the_findings_of_an_uncertain_parcel_are_not_headed_violations():
    """Parcel B of two squares whose shared line's two signs may post either: uncertain, its
    gap over the limit and its unmarked corners violation-level findings ("noncompliant if they
    post the neighbour"). Its page listed them under "Violations", which says in a record made
    for a court that the parcel violates the law; they are headed "Findings" now, as on the
    officer's map. A noncompliant parcel's stay "Violations"."""
    from helpers import AT_SEA, markers, parcels

    from posting.evidence import RecordPage, render_record

    signs = [(0, 0), (0, 200), (0, 400), (200, 400), (200, 0), (400, 0), (400, 400)]
    signs += [(600, 0), (800, 0), (800, 200), (800, 400), (600, 400)]
    lots = parcels(square(400), square(400, 400), ids=["A", "B"], owners=["X", "Y"])
    report = posting.check(lots, markers(signs), settings=AT_SEA)
    b = report.to_dict()["parcels"][1]
    assert b["status"] == "uncertain" and {v["rule"] for v in b["violations"]} == {
        "spacing",
        "corners",
    }
    pages = render_record(report, np.array([1]), RecordPage(check_date="2026-12-06"))
    heads = re.findall(r"<h3>(.*?)</h3>", pages["B.html"])
    assert [h.split(" (")[0] for h in heads] == [
        "Findings",
        "Uncertain",
        "Gaps reported",
        "Corners without a marker",
    ]
    # a noncompliant parcel: one sign short of its far corner
    report = posting.check(parcels(square(400), ids=["N"]), markers(signs[:6]), settings=AT_SEA)
    assert report.to_dict()["parcels"][0]["status"] == "noncompliant"
    pages = render_record(report, np.array([0]), RecordPage(check_date="2026-12-06"))
    assert re.findall(r"<h3>(.*?)</h3>", pages["N.html"]) == [
        "Violations",
        "Gaps reported",
        "Corners without a marker",
    ]


# -- what the page shows of the survey (found by an audit) --------------------------------------


def test_a_letter_height_or_facing_written_with_its_unit_is_shown_as_the_check_read_it(
    runner, tmp_path
):
    """The check reads a letter height of ``5 cm`` as 1.97 in and fails it (under 2 in), and
    a facing of ``NE`` as 45°; the page's marker table showed neither (nor ``2 in``): only
    bare numbers were shown, so the sign the violation is about could not be told. What is
    no measure (``three``) is shown as recorded."""
    parcels, signs = _square_survey(tmp_path)
    frame = pd.read_csv(signs)
    frame["letter_height_in"] = ["5 cm", "2 in", "three"]
    frame["facing_deg"] = ["NE", "S30°W", "towards the road"]
    frame.to_csv(signs, index=False)
    out = tmp_path / "rec"
    args = [str(parcels), "--signs", str(signs), "--id-field", "pid", "-o", str(out)]
    assert runner.invoke(main, ["evidence", *args]).exit_code == 0
    html = (out / "P1.html").read_text()
    rows = {
        int(m.group(2)): m.group(1)
        for m in re.finditer(r"<tr><td class=num>\d+</td>(.*?)signs\.csv:(\d+)</td></tr>", html)
    }
    # 5 cm = 5 / 2.54 = 1.9685 in; S 30° W = 180 + 30 = 210° clockwise from north; NE = 45°
    assert "letters 1.97 in (5 cm)" in rows[0] and "<td class=num>45° (NE)</td>" in rows[0]
    assert "letters 2 in<" in rows[1] and "<td class=num>210° (S30°W)</td>" in rows[1]
    assert "letters three<" in rows[2] and "<td class=num>towards the road</td>" in rows[2]
    # the violation it shows is about the first: under 2 in, to the tenth on its side
    [finding] = re.findall(r'<tr class="finding"><td>letter_height</td>.*?</tr>', html)
    assert "<td class=num>1.9 in</td><td class=num>2 in</td>" in finding


def test_verify_passes_a_manifest_reformatted_with_its_keys_sorted(runner, tmp_path):
    """A JSON tool that sorts keys (``jq -S``, ``python -m json.tool --sort-keys``) changes
    nothing the manifest says; verify called the record's command changed, since the command
    made again listed the options in the (sorted) order of the manifest's. A command edited
    is still found."""
    out = _square_record(runner, tmp_path, "--checked-by", "Dep. Ruiz", "--all")
    path = out / "manifest.json"
    manifest = json.loads(path.read_text())
    path.write_text(json.dumps(manifest, indent=2, sort_keys=True))
    keys = list(json.loads(path.read_text())["options"])
    assert keys == sorted(keys) != list(manifest["options"])
    res = runner.invoke(main, ["verify", str(out)])
    assert res.exit_code == 0, res.stderr
    # the check date's value moved to --checked-by and back: another command, same options
    edited = json.loads(json.dumps(manifest))
    edited["command"] = manifest["command"].replace("'Dep. Ruiz'", "2026-11-30", 1)
    edited["command"] = edited["command"].replace(
        "--check-date 2026-11-30", "--check-date 'Dep. Ruiz'"
    )
    assert edited["command"] != manifest["command"]
    path.write_text(json.dumps(edited, indent=2, sort_keys=True))
    res = runner.invoke(main, ["verify", str(out)])
    assert res.exit_code == 1 and f"record file changed since it was made: {path} (command:" in (
        res.stderr
    )


def test_the_map_of_a_parcel_across_the_antimeridian_is_drawn_to_scale(runner, tmp_path):
    """An Aleutian parcel in Alaska Albers (the state's CRS) across 180°: its outline in
    longitudes runs from 179.99 to -179.98, whose middle in degrees is 0°; the page was drawn on
    a transverse Mercator through meridian 0 (half the globe away), and ``posting evidence``
    stopped with a traceback (a scale bar of NaN feet). The map is drawn through the parcel's
    middle: distances and bearings between its markers are pyproj.Geod's, the neighbour
    across the line is drawn, and the record verifies."""
    from pyproj import Geod

    albers = "EPSG:3338"  # metres
    to_albers = Transformer.from_crs("EPSG:4326", albers, always_xy=True)
    to_lonlat = Transformer.from_crs(albers, "EPSG:4326", always_xy=True)
    # (its middle at 179.995° W: checked with a neighbour east of it, every marker of A is
    # assigned; one at 180° loses two of A's markers, a fault of the check, not the page's)
    x0, y0 = to_albers.transform(-179.995, 51.8)
    s = 1609.344  # a mile
    a, b = (
        shapely.box(x0 - s / 2, y0, x0 + s / 2, y0 + s),
        shapely.box(x0 + s / 2, y0, x0 + s * 1.5, y0 + s),
    )
    parcels = tmp_path / "parcels.gpkg"
    gpd.GeoDataFrame({"pid": ["A", "B"]}, geometry=[a, b], crs=albers).to_file(parcels)
    # A's side midpoints 1 m inside, and one marker of B's
    pts = [
        (x0, y0 + 1),
        (x0, y0 + s - 1),
        (x0 - s / 2 + 1, y0 + s / 2),
        (x0 + s / 2 - 1, y0 + s / 2),
    ]
    pts.append((x0 + s * 1.5 - 1, y0 + s / 2))
    lon, lat = to_lonlat.transform(*np.array(pts).T)
    signs = tmp_path / "signs.csv"
    pd.DataFrame({"lon": lon, "lat": lat}).to_csv(signs, index=False)
    out = tmp_path / "rec"
    args = [str(parcels), "--signs", str(signs), "--id-field", "pid", "--rules", "alaska"]
    args += ["--elevation-ft", "0", "--parcel", "A", "-o", str(out)]
    res = runner.invoke(main, ["evidence", *args])
    assert res.exit_code == 0, res.stderr
    html = (out / "A.html").read_text()
    svg = html[html.index("<svg") : html.index("</svg>")]
    assert "nan" not in svg.lower()
    # the meridian: the middle of A's corners' longitudes, the short way round
    corner_lon, _ = to_lonlat.transform(*np.array(a.exterior.coords).T)
    east_lon = np.where(corner_lon < 0, corner_lon + 360, corner_lon)
    middle = ((east_lon.min() + east_lon.max()) / 2 + 180) % 360 - 180
    assert f"through meridian {middle:.3f}°" in html and 180 - abs(middle) < 0.01
    # the markers: numbered on the map as in the table, where the table names their row
    row_of = {
        int(n): int(r)
        for n, r in re.findall(r"<tr><td class=num>(\d+)</td>.*?signs\.csv:(\d+)</td></tr>", html)
    }
    assert sorted(row_of.values()) == [0, 1, 2, 3]
    drawn = {
        row_of[int(n)]: (float(x), float(y))
        for x, y, n in re.findall(
            r'<circle class="marker" cx="([-\d.]+)" cy="([-\d.]+)"[^>]*/><text[^>]*>(\d+)<', svg
        )
    }
    geod = Geod(ellps="WGS84")
    for i in range(4):
        for j in range(i + 1, 4):
            az, _, dist_m = geod.inv(lon[i], lat[i], lon[j], lat[j])
            dx, dy = drawn[j][0] - drawn[i][0], drawn[i][1] - drawn[j][1]  # SVG's y is down
            assert np.hypot(dx, dy) == pytest.approx(dist_m / 0.3048, abs=0.3), (i, j)
            assert (np.degrees(np.arctan2(dx, dy)) - az + 180) % 360 - 180 == pytest.approx(
                0, abs=0.05
            )
    # B (east of 180, at negative longitudes) is drawn beside it, with its marker
    assert svg.count('<path class="neighbour"') == 1 and svg.count('<circle class="other"') == 1
    w, h = (float(v) for v in re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups())
    for x, y in re.findall(
        r'class="(?:gaplabel|corner[^"]*|other)" c?x="([-\d.]+)" c?y="([-\d.]+)"', svg
    ):
        assert 0 < float(x) < w and 0 < float(y) < h
    assert runner.invoke(main, ["verify", str(out)]).exit_code == 0


def test_verify_says_when_only_the_line_endings_of_a_file_changed(runner, tmp_path):
    """git on Windows (core.autocrlf) checks a CSV out with CRLF line endings: its SHA-256
    is not the record's, so verify still finds it changed (1), and now says why, and how to
    get the record's bytes back; the same for a page of the record kept in git."""
    out = _square_record(runner, tmp_path)
    signs = tmp_path / "signs.csv"
    lf = signs.read_bytes()
    assert b"\r" not in lf
    signs.write_bytes(lf.replace(b"\n", b"\r\n"))
    res = runner.invoke(main, ["verify", str(out)])
    assert res.exit_code == 1
    crlf_bytes = len(lf) + lf.count(b"\n")  # a CR more a line
    assert f"input changed: {signs} (signs): {crlf_bytes:,} bytes" in res.stderr
    assert "Only its line endings differ: CRLF where the record's file has LF" in res.stderr
    # another change besides: no word of line endings
    signs.write_bytes(lf.replace(b"\n", b"\r\n").replace(b"NO", b"No"))
    res = runner.invoke(main, ["verify", str(out)])
    assert res.exit_code == 1 and "line endings" not in res.stderr
    signs.write_bytes(lf)
    page = out / "P1.html"
    page.write_bytes(page.read_bytes().replace(b"\n", b"\r\n"))
    res = runner.invoke(main, ["verify", str(out)])
    assert res.exit_code == 1
    assert f"record file changed since it was made: {page}. Only its line endings" in res.stderr


def test_verify_where_no_chromium_is_does_not_call_the_pdfs_verified(runner, tmp_path, monkeypatch):
    """A record made with --pdf, verified where no Chromium is: its PDFs cannot be printed
    again, so a PDF edited along with its SHA-256 in the manifest is not found. verify said
    "record ...: verified" (the one line that --quiet shows); it says which files it could
    not make again."""
    import posting.evidence as evidence

    def fake_print(pages, exe, *, paper="letter", check_date="", workers=2):
        return {
            name.replace(".html", ".pdf"): b"%PDF " + text.encode() for name, text in pages.items()
        }

    monkeypatch.setattr(evidence, "print_pdfs", fake_print)
    monkeypatch.setattr(evidence, "find_chromium", lambda: "/opt/chromium")
    monkeypatch.setattr(evidence, "chromium_version", lambda exe: "Chromium 1.0")
    out = _square_record(runner, tmp_path, "--pdf")
    assert sorted(p.name for p in out.glob("*.pdf")) == ["P1.pdf", "index.pdf"]
    monkeypatch.setattr(evidence, "find_chromium", lambda: None)
    pdf = out / "P1.pdf"
    pdf.write_bytes(pdf.read_bytes().replace(b"Not compliant", b"Compliant"))
    path = out / "manifest.json"
    manifest = json.loads(path.read_text())
    [entry] = [o for o in manifest["outputs"] if o["path"] == "P1.pdf"]
    entry.update(size=pdf.stat().st_size, sha256=_sha(pdf))
    path.write_text(json.dumps(manifest, indent=1))
    res = runner.invoke(main, ["verify", str(out), "--quiet"])
    assert res.exit_code == 0
    assert res.stderr == (
        f"record {out}: verified, but for its 2 PDF(s), which were not printed again (see "
        "above): the HTML pages they were printed from are verified\n"
    )
    res = runner.invoke(main, ["verify", str(out)])
    said = "PDFs not printed again: the record was printed by Chromium 1.0, and no Chromium is here"
    assert res.exit_code == 0 and said in res.stderr


def test_the_printed_footer_shows_a_bidirectional_control_as_its_code_point(runner, tmp_path):
    """Each printed page's footer (CSS @page content) names the parcel. The id's U+202E was
    written there as a CSS escape, which is the character itself once the page is read: the
    footer printed on every page showed the id in another order than it is stored."""
    parcels, signs = _square_survey(tmp_path, pid="P\u202e12")
    out = tmp_path / "rec"
    args = [str(parcels), "--signs", str(signs), "--id-field", "pid", "--check-date", "2026-11-30"]
    assert runner.invoke(main, ["evidence", *args, "-o", str(out)]).exit_code == 0
    html = (out / "P_12.html").read_text()
    literal = re.search(r'@bottom-left \{ content: "([^"]*)"', html).group(1)
    # CSS escapes: a backslash, 1-6 hex digits and one optional space
    footer = re.sub(r"\\([0-9a-fA-F]{1,6}) ?", lambda m: chr(int(m.group(1), 16)), literal)
    assert footer.startswith("Parcel P[U+202E]12 · Fla. Stat. 810.011")
    assert footer.endswith(" · checked 2026-11-30")
