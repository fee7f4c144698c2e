"""Exports devices accept: GPX 1.1 by its schema's structure, read back by gpxpy and by GDAL;
KML opened by GDAL's KML and LIBKML drivers, one folder per parcel; CSV and GeoJSON."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys

import gpxpy
import numpy as np
import pyogrio
import pytest
import shapely
from helpers import SAMPLE
from lxml import etree
from pyproj import Geod

from posting import InputError, check, read_markers, read_parcels
from posting.export import CSV_COLUMNS, format_of, render, summary_csv, summary_json
from posting.planning import plan

GEOD = Geod(ellps="WGS84")
GPX_NS = "http://www.topografix.com/GPX/1/1"

# The content models of GPX 1.1 (gpx.xsd, topografix.com/GPX/1/1): each element's children
# in the order of its xsd:sequence; only the ones marked may repeat.
GPX_SEQUENCES = {
    "gpx": ["metadata", "wpt*", "rte*", "trk*", "extensions"],
    "metadata": [
        "name",
        "desc",
        "author",
        "copyright",
        "link*",
        "time",
        "keywords",
        "bounds",
        "extensions",
    ],
    "wpt": [
        "ele",
        "time",
        "magvar",
        "geoidheight",
        "name",
        "cmt",
        "desc",
        "src",
        "link*",
        "sym",
        "type",
        "fix",
        "sat",
        "hdop",
        "vdop",
        "pdop",
        "ageofdgpsdata",
        "dgpsid",
        "extensions",
    ],
}


@pytest.fixture(scope="module")
def sample_plan():
    parcels = read_parcels(SAMPLE / "parcels.geojson", id_field="parcel_id")
    signs = read_markers([SAMPLE / "signs.csv", SAMPLE / "signs-added.gpx"])
    return plan(check(parcels, signs))


def follows_sequence(elem, sequence) -> list[str]:
    """Problems with ``elem``'s children against an xsd:sequence of optional elements."""
    order = [s.rstrip("*") for s in sequence]
    repeat = {s.rstrip("*") for s in sequence if s.endswith("*")}
    problems, last, seen = [], -1, set()
    for child in elem:
        tag = etree.QName(child)
        if tag.namespace != GPX_NS:
            problems.append(f"{tag.text} is not in the GPX 1.1 namespace")
            continue
        if tag.localname not in order:
            problems.append(f"<{tag.localname}> is not allowed in <{etree.QName(elem).localname}>")
            continue
        k = order.index(tag.localname)
        if k < last or (k == last and tag.localname not in repeat):
            problems.append(f"<{tag.localname}> out of order or repeated")
        last = k
        seen.add(tag.localname)
    return problems


def test_gpx_follows_the_gpx_1_1_schema(sample_plan):
    text = render(sample_plan, "gpx")
    root = etree.fromstring(text.encode())
    assert etree.QName(root) == etree.QName(GPX_NS, "gpx")
    assert root.get("version") == "1.1" and root.get("creator", "").startswith("posting")
    assert follows_sequence(root, GPX_SEQUENCES["gpx"]) == []
    [meta] = root.findall(f"{{{GPX_NS}}}metadata")
    assert follows_sequence(meta, GPX_SEQUENCES["metadata"]) == []
    wpts = root.findall(f"{{{GPX_NS}}}wpt")
    assert len(wpts) == len(sample_plan.markers) == 60
    names = []
    for w in wpts:
        assert follows_sequence(w, GPX_SEQUENCES["wpt"]) == []
        lat, lon = float(w.get("lat")), float(w.get("lon"))
        assert -90 <= lat <= 90 and -180 <= lon < 180  # latitudeType, longitudeType
        names.append(w.findtext(f"{{{GPX_NS}}}name"))
        assert w.findtext(f"{{{GPX_NS}}}type") in ("sign", "paint", "post")  # the kind
        assert w.findtext(f"{{{GPX_NS}}}desc").startswith("Parcel ")
    assert len(set(names)) == len(names) and max(map(len, names)) <= 10


def _distance_ft(lon1, lat1, lon2, lat2):
    return GEOD.inv(lon1, lat1, lon2, lat2)[2] / 0.3048


def test_gpx_reads_back_to_the_same_coordinates(sample_plan, tmp_path):
    path = tmp_path / "plan.gpx"
    path.write_text(render(sample_plan, "gpx"))
    m = sample_plan.markers
    # gpxpy
    g = gpxpy.parse(path.read_text())
    lon = np.array([w.longitude for w in g.waypoints])
    lat = np.array([w.latitude for w in g.waypoints])
    assert [w.name for w in g.waypoints] == m["name"].tolist()
    assert [w.type for w in g.waypoints] == m["kind"].tolist()  # read back as the kind
    assert [w.comment.split()[-1] for w in g.waypoints] == m["role"].tolist()
    assert _distance_ft(lon, lat, m["lon"].to_numpy(), m["lat"].to_numpy()).max() < 0.1
    # and the planned positions in the working frame, back from feet
    wcrs = sample_plan.report.geometry.crss[0]
    plon, plat = wcrs.ft_to_lonlat(m["x_ft"].to_numpy(), m["y_ft"].to_numpy())
    assert _distance_ft(lon, lat, plon, plat).max() < 0.1
    # GDAL's GPX driver
    df = pyogrio.read_dataframe(path, layer="waypoints")
    assert df["name"].tolist() == m["name"].tolist()
    d = _distance_ft(df.geometry.x.to_numpy(), df.geometry.y.to_numpy(), lon, lat)
    assert d.max() < 0.1


def test_kml_has_one_folder_per_parcel_and_opens_with_gdal(sample_plan, tmp_path):
    path = tmp_path / "plan.kml"
    path.write_text(render(sample_plan, "kml"))
    m = sample_plan.markers
    expected = {
        f"Parcel {pid}": g["name"].tolist() for pid, g in m.groupby("parcel_id", sort=False)
    }
    layers = [str(n) for n, _ in pyogrio.list_layers(path)]
    assert layers == list(expected)
    for name in layers:  # LIBKML, GDAL's default for .kml here
        df = pyogrio.read_dataframe(path, layer=name)
        assert df["Name"].tolist() == expected[name]
        assert set(df["role"]) <= {"corner", "interval"}
    # the plain KML driver, with LIBKML skipped (the option only acts at start-up)
    code = (
        "import json, pyogrio, sys\n"
        "p = sys.argv[1]\n"
        "out = {}\n"
        "for n, _ in pyogrio.list_layers(p):\n"
        "    assert pyogrio.read_info(p, layer=n)['driver'] == 'KML'\n"
        "    df = pyogrio.read_dataframe(p, layer=n)\n"
        "    out[str(n)] = [df['Name'].tolist(), df.geometry.x.tolist(), df.geometry.y.tolist()]\n"
        "print(json.dumps(out))\n"
    )
    env = {**os.environ, "GDAL_SKIP": "LIBKML"}
    res = subprocess.run(
        [sys.executable, "-c", code, str(path)], env=env, capture_output=True, text=True
    )
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    assert {k: v[0] for k, v in got.items()} == expected
    lon = np.concatenate([v[1] for v in got.values()])
    lat = np.concatenate([v[2] for v in got.values()])
    order = np.concatenate([m.index[m["parcel_id"] == k.removeprefix("Parcel ")] for k in got])
    assert (
        _distance_ft(lon, lat, m["lon"].to_numpy()[order], m["lat"].to_numpy()[order]).max() < 0.1
    )


def test_csv_for_phones(sample_plan):
    text = render(sample_plan, "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == CSV_COLUMNS
    assert CSV_COLUMNS[:4] == ["parcel_id", "role", "lat", "lon"]
    assert len(rows) == 60
    assert all(re.fullmatch(r"-?\d+\.\d{7}", r[k]) for r in rows for k in ("lat", "lon"))
    assert [r["name"] for r in rows] == sample_plan.markers["name"].tolist()


def test_geojson_has_the_same_properties(sample_plan, tmp_path):
    path = tmp_path / "plan.geojson"
    path.write_text(render(sample_plan, "geojson"))
    d = json.loads(path.read_text())
    assert d["type"] == "FeatureCollection" and len(d["features"]) == 60
    props = d["features"][0]["properties"]
    assert list(props) == [c for c in CSV_COLUMNS if c not in ("lat", "lon")]
    df = pyogrio.read_dataframe(path)
    assert df["name"].tolist() == sample_plan.markers["name"].tolist()


def test_existing_markers_only_when_asked(sample_plan):
    plain = list(csv.DictReader(io.StringIO(render(sample_plan, "csv"))))
    both = list(csv.DictReader(io.StringIO(render(sample_plan, "csv", include_existing=True))))
    existing = [r for r in both if r["role"] == "existing"]
    assert not any(r["role"] == "existing" for r in plain)
    # the existing signs of the planned parcels, as the check assigned them
    r = sample_plan.report
    planned = set(sample_plan.parcels["parcel"])
    n = int(r.markers["parcel"].isin(planned).sum())
    assert len(existing) == n == len(both) - len(plain)
    assert all(e["name"].startswith("E") for e in existing)
    names = [b["name"] for b in both]
    assert len(set(names)) == len(names)


# what marks one marker in each format's text
_MARKER = {"gpx": b"<wpt ", "kml": b"<Placemark>", "csv": b"\n", "geojson": b'"type": "Feature"'}


@pytest.mark.parametrize("include_existing", [False, True])
@pytest.mark.parametrize("fmt", ["gpx", "kml", "csv", "geojson"])
def test_each_export_is_made_a_few_markers_at_a_time(sample_plan, fmt, include_existing):
    # a county's plan has a million markers: the command writes each format in pieces of
    # CHUNK_ROWS markers (a KML's folders whole), not as one text made of every marker's
    # objects at once; joined, the pieces are the libraries' one document of the whole table
    # (gpxpy's, fastkml's; the CSV's and GeoJSON's as written in one go), byte for byte
    from posting import export
    from posting.render import render as pieces_of

    table = sample_plan.with_existing() if include_existing else sample_plan.markers
    n = len(table)
    planned = set(sample_plan.parcels["parcel"])  # and the existing signs of the planned lots
    existing = int(sample_plan.report.markers["parcel"].isin(planned).sum())
    assert n == 60 + (existing if include_existing else 0)
    whole = {
        "gpx": lambda: export._gpx_doc(sample_plan, table),
        "kml": lambda: export._kml_doc(sample_plan, table),
        "csv": lambda: export.to_csv(sample_plan, table),  # one chunk: CHUNK_ROWS > n
        "geojson": lambda: export.to_geojson(sample_plan, table),
    }[fmt]()
    assert whole.encode().count(_MARKER[fmt]) == n + (fmt == "csv")  # (the CSV's header line)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(export, "CHUNK_ROWS", 7)
        pieces = list(pieces_of(sample_plan, fmt, include_existing=include_existing))
    assert all(isinstance(p, bytes) for p in pieces)
    assert b"".join(pieces).decode() == whole
    per_piece = [p.count(_MARKER[fmt]) for p in pieces]
    assert sum(per_piece) == n + (fmt == "csv")
    if fmt == "kml":  # whole folders, one parcel's markers in one piece
        assert all(p.count(b"<Folder>") == p.count(b"</Folder>") for p in pieces)
        assert len(pieces) > 3
    else:  # a head, ceil(n / 7) pieces of at most 7 markers, an end (the CSV: no end)
        assert max(per_piece) <= 7
        assert len(pieces) == 1 + -(-n // 7) + (fmt != "csv")


def test_the_json_shopping_list_is_written_in_pieces(sample_plan):
    # json.dumps (indented: the pure-Python encoder) joins every small string of the summary
    # at once; the command writes them as they come, in pieces of about SUMMARY_PIECE_CHARS,
    # the same text byte for byte
    from posting import export
    from posting.render import render as pieces_of

    whole = json.dumps(
        export.summary_dict(sample_plan), indent=1, ensure_ascii=False, allow_nan=False
    )
    assert len(whole) > 5000  # (the sample's: 9 KB)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(export, "SUMMARY_PIECE_CHARS", 1000)
        pieces = list(pieces_of(sample_plan, "summary-json"))
    assert b"".join(pieces).decode() == whole + "\n" == summary_json(sample_plan)
    # each piece stops at the first string that takes it to 1,000 characters (a parcel's note
    # is one string: under 1,000 more)
    assert len(pieces) >= len(whole) // 2000
    assert all(len(p.decode()) < 2000 for p in pieces)


def test_summary_totals_add_up(sample_plan):
    d = json.loads(summary_json(sample_plan))
    assert d["schema"] == "posting-plan/1"
    t = d["totals"]
    assert t["total"] == 60 and t["corner"] == 46 and t["interval"] == 14 and t["access"] == 0
    assert sum(p["total"] for p in d["parcels"]) == 60
    # the sample is in Florida (0-345 ft, its elevation not given): 500 / (1 + 345 / R) - 0.2
    # with R = 20,887,734 ft at 28.7 N: 499.9917 - 0.2 = 499.7917 ft
    assert d["settings"]["planned_spacing_ft"] == 499.79  # (never over the spacing planned)
    rows = list(csv.DictReader(io.StringIO(summary_csv(sample_plan))))
    assert rows[-1]["id"] == "(total)" and int(rows[-1]["total"]) == 60
    assert sum(int(r["total"]) for r in rows[:-1]) == 60
    s2 = next(r for r in rows if r["id"] == "S2")
    assert s2["complete"] == "no" and "letter_height" in s2["remaining"]


def test_format_from_extension_or_option():
    assert format_of("a/b.KML") == "kml" and format_of("x.geojson") == "geojson"
    assert format_of("x.txt", "csv") == "csv"
    with pytest.raises(InputError, match="cannot tell the format"):
        format_of("plan.shp")


def test_the_shopping_list_says_the_setback_used_the_count_and_nothing_twice():
    # found by the plan audit: --setback-ft 100 was said as 100 ft where markers stand 29.8 ft
    # in (kept within the 30 ft tolerance, less the 0.2 ft margin); a count of markers was said
    # as a limit less accuracy and margin; and "nothing to place" was said twice
    from helpers import parcels, square

    from posting import check
    from posting.export import summary_lines
    from posting.planning import plan

    lines = summary_lines(plan(check(parcels(square(900)), rules="florida"), setback_ft=100))
    assert "set back 29.8 ft inside the line (" in lines[0]
    assert lines[0].endswith("100 kept within the 30 ft tolerance)")
    sc = summary_lines(plan(check(parcels(square(900)), rules="south-carolina")))
    assert "markers spaced at most 900.0 ft (for the count of markers the law sets)" in sc[0]
    # Montana with an access layer whose road crosses no boundary, and no water: its rules give
    # no place for a marker (the note says so once)
    from test_profiles import features

    from posting.engine import Context

    far = features([shapely.LineString([(5000, 5000), (6000, 5000)])], ["road"])
    mt = check(parcels(square(900)), rules="montana", context=Context(access=far))
    [line] = [x for x in summary_lines(plan(mt)) if x.startswith("    0 (")]
    assert line == (
        "    0 (unposted): nothing to place: its profile's rules give no place for a marker "
        "here (give the layers they need, such as the access points or the water)"
    )


def test_a_paint_plan_s_descriptions_speak_of_paint_marks():
    # Arkansas' paint law (18-11-404(2)(C)): marks at most 100 ft apart on forest land (no
    # land cover given: the 100 ft). A 900 ft square gets ceil(3600 / 99.8) = 37 marks, no
    # sign: each waypoint tells the next paint mark, and the file's own description says marks
    from helpers import parcels, square

    p = plan(check(parcels(square(900)), None, "arkansas-paint"))
    assert p.counts()["interval"] == 37 and set(p.markers["kind"]) == {"paint"}
    doc = gpxpy.parse(render(p, "gpx"))
    assert doc.description.startswith("New paint mark positions to post 1 parcel(s)")
    assert all(
        "new interval paint mark" in w.description and "; next paint mark " in w.description
        for w in doc.waypoints
    )
    assert not any("sign" in w.description for w in doc.waypoints)


def test_the_csv_shopping_list_is_written_in_pieces(sample_plan):
    # a county's shopping list has a row for each of its 200,000 parcels: the command writes
    # it CHUNK_ROWS parcels at a time (as the markers), not as one text made of every row's
    # dict at once; joined, the pieces are the list written in one go, byte for byte (here
    # by the csv module from the JSON list's parcels and totals)
    from posting import export
    from posting.render import render as pieces_of

    d = export.summary_dict(sample_plan)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(export.SUMMARY_COLUMNS)
    for p in d["parcels"]:
        p = {**p, "complete": "yes" if p["complete"] else "no"}
        w.writerow(["" if p[k] is None else p[k] for k in export.SUMMARY_COLUMNS])
    t = d["totals"]
    signs = sum(p["signs"] for p in d["parcels"])
    done = "yes" if all(p["complete"] for p in d["parcels"]) else "no"
    counts = [t["corner"], t["access"], t["interval"], t["total"], signs]
    w.writerow(["(total)", "", "", *counts, t["perimeter_ft"], t["covered_ft"], done, "", ""])
    whole = buf.getvalue()
    assert len(d["parcels"]) == 16  # the sample's parcels not compliant
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(export, "CHUNK_ROWS", 5)
        pieces = list(pieces_of(sample_plan, "summary-csv"))
    assert all(isinstance(p, bytes) for p in pieces)
    assert b"".join(pieces).decode() == whole == summary_csv(sample_plan)
    # the header, ceil(16 / 5) = 4 pieces of at most 5 parcels, the total
    assert [p.count(b"\n") for p in pieces] == [1, 5, 5, 5, 1, 1]
