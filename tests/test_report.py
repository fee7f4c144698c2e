"""The JSON report contract, GeoJSON and CSV renderings, and that nothing is lost."""

from __future__ import annotations

import csv
import io
import json

import pytest
import shapely
from helpers import SAMPLE

from posting import Settings, check, read_markers, read_parcels
from posting.crs import WGS84
from posting.draw import gap_lines

TOP_KEYS = {"schema", "rules", "crs", "summary", "parcels", "unassigned_signs"}
PARCEL_KEYS = {
    "id",
    "status",
    "signs",
    "perimeter_ft",
    "area_acres",
    "max_gap_ft",
    "gaps",
    "corners",
    "missing_corners",
    "violations",
}


@pytest.fixture(scope="module")
def report():
    parcels = read_parcels(SAMPLE / "parcels.geojson", id_field="parcel_id", owner_field="owner")
    markers = read_markers([SAMPLE / "signs.csv", SAMPLE / "signs-added.gpx"])
    return check(parcels, markers, settings=Settings(accuracy_ft=16.0))


def test_required_keys(report):
    d = json.loads(report.to_json())
    assert TOP_KEYS <= set(d)
    assert d["rules"]["name"] == "florida"
    assert isinstance(d["crs"], str) and "feet" in d["crs"]
    assert {"parcels", "status", "markers_read", "markers_assigned", "markers_unassigned"} <= set(
        d["summary"]
    )
    for p in d["parcels"]:
        assert PARCEL_KEYS <= set(p)
        assert isinstance(p["id"], str)
        for v in p["violations"]:
            assert {"rule", "message", "clause", "measured", "limit"} <= set(v)
        for g in p["gaps"]:
            assert {"length_ft", "start", "end"} <= set(g)


def test_nothing_is_lost(report):
    d = report.to_dict()
    assert [p["row"] for p in d["parcels"]] == list(range(29))  # input order, each once
    assert sum(d["summary"]["status"].values()) == 29
    assigned = sum(p["signs"] for p in d["parcels"])
    assert assigned + len(d["unassigned_signs"]) == d["summary"]["markers_read"] == 232
    # the sample's last two sign rows: one far from any parcel, one without a latitude
    n = len((SAMPLE / "signs.csv").read_text().splitlines()) - 1
    assert {(u["source"], u["row"]) for u in d["unassigned_signs"]} == {
        (str(SAMPLE / "signs.csv"), n - 2),
        (str(SAMPLE / "signs.csv"), n - 1),
    }


def test_unposted_parcel_has_null_max_gap_and_every_corner_missing(report):
    p = {p["id"]: p for p in report.to_dict()["parcels"]}["N08"]
    assert p["status"] == "unposted" and p["max_gap_ft"] is None
    assert len(p["missing_corners"]) == p["corners"] == 4


def test_geojson_has_every_parcel_and_marker(report):
    g = json.loads(report.to_geojson())
    layers = [f["properties"]["layer"] for f in g["features"]]
    assert layers.count("parcel") == 29
    assert layers.count("marker") == 232
    assert layers.count("corner") == len(report.corners)
    assert layers.count("gap") == int((report.gaps["status"] != "ok").sum())
    markers = [f for f in g["features"] if f["properties"]["layer"] == "marker"]
    assigned = [m for m in markers if m["properties"]["parcel"] is not None]
    assert all(m["properties"]["why"] and m["properties"]["ring"] for m in assigned)
    nowhere = [m for m in markers if m["geometry"] is None]
    assert [m["properties"]["why"] for m in nowhere] == ["no value in column 'lon'"]
    invalid = [f for f in g["features"] if f["properties"].get("status") == "invalid"]
    assert [f["geometry"] for f in invalid] == [None]


def test_csv_one_row_per_parcel(report):
    rows = list(csv.DictReader(io.StringIO(report.to_csv())))
    assert [r["id"] for r in rows] == list(report.parcels["id"])
    n09 = next(r for r in rows if r["id"] == "N09")
    assert n09["status"] == "uncertain" and "within ±32.0 ft" in n09["uncertain"]


def _csv_from_json(record: dict) -> list[str]:
    """The oracle: a CSV row made from the parcel's JSON record, key by key."""

    def blank(x):
        return "" if x is None else str(x)

    def joined(items):
        return "; ".join(f"{v['rule']}: {v['message']}" for v in items)

    return [
        blank(record["id"]),
        str(record["row"]),
        record.get("owner") or "",
        record["status"],
        record["rules"],
        str(record["signs"]),
        blank(record["perimeter_ft"]),
        blank(record["area_acres"]),
        blank(record["max_gap_ft"]),
        str(sum(1 for g in record["gaps"] if g["status"] == "over")),
        str(record["corners"]),
        str(len(record["missing_corners"])),
        str(len(record.get("missing_access", []))),
        joined(record["violations"]),
        joined(record["uncertain"]),
        joined(record["not_checked"]),
        record.get("repaired", ""),
        record.get("invalid_reason", ""),
        "yes" if record["duplicate_id"] else "",
    ]


@pytest.mark.parametrize("alternatives", [False, True])
def test_csv_and_geojson_say_what_the_json_says(report, alternatives):
    # the CSV is built from the report's columns and the GeoJSON's properties as text, apart
    # from the JSON: each must say what the parcel's JSON record says (the slow, obvious way)
    if alternatives:  # two profiles: each parcel's alternatives, penalties
        parcels = read_parcels(
            SAMPLE / "parcels.geojson", id_field="parcel_id", owner_field="owner"
        )
        markers = read_markers([SAMPLE / "signs.csv", SAMPLE / "signs-added.gpx"])
        report = check(parcels, markers, rules=["florida", "florida-paint"])
    records = report.to_dict()["parcels"]
    rows = list(csv.reader(io.StringIO(report.to_csv())))[1:]
    assert rows == [_csv_from_json(r) for r in records]
    props = [
        f["properties"]
        for f in json.loads(report.to_geojson())["features"]
        if f["properties"]["layer"] == "parcel"
    ]
    expected = [
        {
            "layer": "parcel",
            **{k: v for k, v in r.items() if k != "gaps"},
            "gaps_reported": len(r["gaps"]),
        }
        for r in records
    ]
    assert props == expected
    assert [list(p) for p in props] == [list(e) for e in expected]  # the keys' order too


def test_exit_code(report):
    assert report.exit_code == 1


def test_gap_lines_span_the_reported_gaps_between_their_end_points(report):
    g, lines = report.gaps, gap_lines(report)
    reported = (g["status"] != "ok").to_numpy()
    assert reported.sum() >= 3 and len(lines) == len(g)
    assert all(x is None for x in lines[~reported])
    drawn = reported & ~g["unmarked"].to_numpy()
    first = shapely.get_coordinates(shapely.get_point(lines[drawn], 0))
    last = shapely.get_coordinates(shapely.get_point(lines[drawn], -1))
    # the JSON's end points, made without the lines, are the lines' ends (a second method)
    assert first.tolist() == g.loc[drawn, ["start_lon", "start_lat"]].to_numpy().tolist()
    assert last.tolist() == g.loc[drawn, ["end_lon", "end_lat"]].to_numpy().tolist()
    # each runs along its ring for the gap's length (back in working feet)
    prep = report.geometry
    group = prep.group[g["parcel"].to_numpy()[drawn]]
    ft = prep.crss[0].geoms_to_ft(lines[drawn], WGS84)
    assert (group == 0).all()
    assert shapely.length(ft) == pytest.approx(g.loc[drawn, "length_ft"].to_numpy(), abs=1e-3)


def test_signs_are_named_as_the_survey_named_them(report):
    """A CSV's ``sign_id`` and a GPX waypoint's ``name`` travel with the row number."""
    d = report.to_dict()
    csv_rows = (SAMPLE / "signs.csv").read_text().splitlines()[1:]
    ids = [line.split(",")[0] for line in csv_rows]
    for u in d["unassigned_signs"]:
        assert u["name"] == ids[u["row"]]
    named = [g["start_sign"] for p in d["parcels"] for g in p["gaps"] if "start_sign" in g]
    assert named and all(s["name"] == ids[s["row"]] for s in named if s["source"].endswith(".csv"))
    g = json.loads(report.to_geojson())
    gpx = [
        f["properties"] for f in g["features"] if f["properties"].get("source", "").endswith(".gpx")
    ]
    assert gpx and all(p["name"] for p in gpx)  # the waypoints' own names


def test_json_made_in_pieces_is_the_json_made_whole(report, monkeypatch):
    """The parcels' lines made in pieces on several threads (``posting.jsontext.pieces``) and
    written as they come give the same bytes as the lines made whole on one thread."""
    from posting import jsontext, parallel

    with parallel.threads(1), monkeypatch.context() as m:
        m.setattr(jsontext, "PIECE_BYTES", 1 << 40)  # one piece
        whole = list(map(bytes, report.iter_json()))
    monkeypatch.setattr(parallel, "workers", lambda: 3)
    monkeypatch.setattr(jsontext, "PIECE_BYTES", 3_000)  # a few parcels a piece
    pieces = list(map(bytes, report.iter_json()))
    assert b"".join(pieces) == b"".join(whole)
    # the parcels came in several pieces, each starting with a record
    records = [p for p in pieces if p.startswith(b'{"id":')]
    assert sum(p.startswith(b'{"id":') for p in whole) == 1
    assert len(records) > 3
    assert json.loads(b"".join(whole))["parcels"][0]["id"] == str(report.parcels["id"].iloc[0])


def test_geojson_made_in_pieces_is_the_geojson_made_whole(report, monkeypatch):
    from posting import jsontext, parallel
    from posting.render.geojson import iter_geojson

    with parallel.threads(1), monkeypatch.context() as m:
        m.setattr(jsontext, "PIECE_BYTES", 1 << 40)
        whole = list(map(bytes, iter_geojson(report)))
    monkeypatch.setattr(parallel, "workers", lambda: 3)
    monkeypatch.setattr(jsontext, "PIECE_BYTES", 5_000)
    pieces = list(map(bytes, iter_geojson(report)))
    assert len(pieces) > len(whole) + 10
    assert b"".join(pieces) == b"".join(whole)
    features = json.loads(b"".join(whole))["features"]
    assert len(features) == len(report.parcels) + len(report.markers) + (
        (report.gaps["status"] != "ok").sum() + len(report.corners) + len(report.access)
    )
