"""The GeoParquet datasets of a check (``--parquet``), against the JSON report of the same
parcels and figures worked out by hand: two rectangles and eleven signs built in code."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import shapely
from helpers import AT_SEA, CORNERS_AND_MIDPOINTS, LOCAL_FT, flag_lot, markers, parcels, square
from pyproj import Transformer

from posting import check
from posting.crs import WGS84
from posting.errors import python_name
from posting.stream import _text_array, write_parquet_report

# Parcel A: a 1,000 ft square posted at its corners and midpoints (500 ft apart: compliant).
# Parcel B: 800 x 600 ft, two signs on its south side, 400 ft apart: a 2,400 ft gap round the
# rest, three corners without a sign. One sign far from both: unassigned.
SIGNS = [*CORNERS_AND_MIDPOINTS, (2000, 0), (2400, 3), (9000, 9000)]


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    lots = parcels(
        square(), shapely.box(2000, 0, 2800, 600), ids=["A", "B"], owners=["SMITH JOHN", None]
    )
    report = check(lots, markers(SIGNS), settings=AT_SEA)
    folder = tmp_path_factory.mktemp("pq") / "out"
    write_parquet_report(report, str(folder), python_name)
    tables = {name: pq.read_table(folder / name) for name in ("parcels", "gaps", "corners")}
    tables["markers"] = pq.read_table(folder / "markers")
    return report.to_dict(), tables, folder


def _lonlat(points: list[tuple[float, float]]) -> np.ndarray:
    to = Transformer.from_crs(LOCAL_FT, WGS84, always_xy=True)
    x, y = np.asarray(points, dtype=float).T
    return np.column_stack(to.transform(x, y))


def test_the_schema_and_its_geo_metadata(written):
    _, tables, _ = written
    s, i, f, b, w = pa.string(), pa.int64(), pa.float64(), pa.bool_(), pa.binary()
    expected = {
        "parcels": [
            ("id", s),
            ("row", i),
            ("owner", s),
            ("status", s),
            ("rules", s),
            ("signs", i),
            ("perimeter_ft", f),
            ("area_acres", f),
            ("max_gap_ft", f),
            ("gaps_over_limit", i),
            ("corners", i),
            ("missing_corners", i),
            ("missing_access", i),
            ("violations", s),
            ("uncertain", s),
            ("not_checked", s),
            ("repaired", s),
            ("invalid_reason", s),
            ("duplicate_id", b),
            ("markers_counted", i),
            ("geometry", w),
        ],
        "gaps": [
            ("parcel_id", s),
            ("parcel_row", i),
            ("part", i),
            ("hole", i),
            ("status", s),
            ("length_ft", f),
            ("straight_ft", f),
            ("limit_ft", f),
            ("geometry", w),
        ],
        "corners": [
            ("parcel_id", s),
            ("parcel_row", i),
            ("status", s),
            ("turn_deg", f),
            ("nearest_marker_ft", f),
            ("marker_shared", b),
            ("geometry", w),
        ],
        "markers": [
            ("source", s),
            ("row", i),
            ("kind", s),
            ("parcel_id", s),
            ("parcel_row", i),
            ("assigned_by", s),
            ("distance_ft", f),
            ("reason", s),
            ("geometry", w),
        ],
    }
    kinds = {
        "parcels": ["Polygon", "MultiPolygon"],
        "gaps": ["LineString"],
        "corners": ["Point"],
        "markers": ["Point"],
    }
    for name, fields in expected.items():
        schema = tables[name].schema
        assert [(x.name, x.type) for x in schema] == fields, name
        assert all(x.nullable for x in schema)
        geo = json.loads(schema.metadata[b"geo"])
        assert geo == {
            "version": "1.1.0",
            "primary_column": "geometry",
            "columns": {"geometry": {"encoding": "WKB", "geometry_types": kinds[name]}},
        }


def test_parcels_are_the_json_report_s_figures(written):
    report, tables, _ = written
    got = tables["parcels"].to_pylist()
    assert [p["id"] for p in got] == ["A", "B"]
    for row, rec in zip(got, report["parcels"], strict=True):
        for key in ("id", "row", "owner", "status", "rules", "signs", "markers_counted"):
            assert row[key] == rec[key], key
        for key in ("perimeter_ft", "area_acres", "max_gap_ft", "corners", "duplicate_id"):
            assert row[key] == rec[key], key
        assert row["missing_corners"] == len(rec["missing_corners"])
        assert row["gaps_over_limit"] == sum(g["status"] == "over" for g in rec["gaps"])
        for key, level in (
            ("violations", "violations"),
            ("uncertain", "uncertain"),
            ("not_checked", "not_checked"),
        ):
            text = "; ".join(f"{x['rule']}: {x['message']}" for x in rec[level])
            assert row[key] == (text or None), key  # a blank cell of the CSV: null
    a, b = got
    # by hand: 4,000 ft and 2,800 ft round; 1,000,000 and 480,000 sq ft of 43,560 an acre
    assert (a["perimeter_ft"], b["perimeter_ft"]) == (4000.0, 2800.0)
    assert (a["area_acres"], b["area_acres"]) == (22.9568, 11.0193)
    assert (a["status"], b["status"]) == ("compliant", "noncompliant")
    assert (a["owner"], b["owner"]) == ("SMITH JOHN", None)
    assert (a["signs"], b["signs"]) == (8, 2)
    assert b["max_gap_ft"] == 2400.0 and b["missing_corners"] == 3
    assert a["violations"] is None and b["violations"].startswith("spacing: 1 gap")
    assert a["repaired"] is None and a["invalid_reason"] is None
    outline = shapely.from_wkb(tables["parcels"]["geometry"].to_pylist())
    to_ft = Transformer.from_crs(WGS84, LOCAL_FT, always_xy=True)
    areas = [
        shapely.transform(g, lambda xy: np.column_stack(to_ft.transform(*xy.T))).area
        for g in outline
    ]
    assert areas == pytest.approx([1_000_000.0, 480_000.0], rel=1e-6)


def test_gaps_and_corners_are_the_json_report_s(written):
    report, tables, _ = written
    gaps = tables["gaps"].to_pylist()
    listed = [(p["id"], p["row"], g) for p in report["parcels"] for g in p["gaps"]]
    assert len(gaps) == len(listed) == 1
    for row, (pid, prow, g) in zip(gaps, listed, strict=True):
        assert (row["parcel_id"], row["parcel_row"], row["status"]) == (pid, prow, g["status"])
        assert (row["part"], row["hole"]) == (g["ring"]["part"], g["ring"]["hole"])
        for key in ("length_ft", "straight_ft", "limit_ft"):
            assert round(row[key], 2) == g[key], key
        line = shapely.from_wkb(row["geometry"])
        ends = shapely.get_coordinates(line)[[0, -1]]
        assert np.round(ends, 7) == pytest.approx(np.array([g["start"], g["end"]]), abs=1e-9)
    assert gaps[0]["length_ft"] == pytest.approx(2400.0)  # 2,800 round less the 400 posted
    corners = tables["corners"].to_pylist()
    missing = [(p["id"], xy) for p in report["parcels"] for xy in p["missing_corners"]]
    assert [c["parcel_id"] for c in corners] == [pid for pid, _ in missing] == ["B"] * 3
    assert {c["status"] for c in corners} == {"missing"}
    got = [shapely.get_coordinates(shapely.from_wkb(c["geometry"]))[0] for c in corners]
    assert np.round(got, 7) == pytest.approx(np.array([xy for _, xy in missing]), abs=1e-9)
    assert np.asarray(got) == pytest.approx(_lonlat([(2800, 0), (2800, 600), (2000, 600)]))
    assert [c["marker_shared"] for c in corners] == [False] * 3  # none near a marker at all


def test_a_corner_whose_marker_serves_another_says_so(tmp_path):
    """The flag lot's road corner left without a sign: its nearest sign (12.5 ft) serves the
    other road corner."""
    lot, signs = flag_lot()
    write_parquet_report(check(parcels(lot), markers(signs)), str(tmp_path / "o"), python_name)
    [c] = pq.read_table(tmp_path / "o" / "corners").to_pylist()
    assert (c["status"], c["nearest_marker_ft"], c["marker_shared"]) == ("missing", 12.5, True)


def test_markers_name_their_parcels_and_the_unassigned_one_its_reason(written):
    report, tables, _ = written
    m = tables["markers"].to_pylist()
    assert [x["row"] for x in m] == list(range(11))
    assert [x["parcel_id"] for x in m] == ["A"] * 8 + ["B"] * 2 + [None]
    assert [x["parcel_row"] for x in m] == [0] * 8 + [1] * 2 + [-1]
    assert {x["kind"] for x in m} == {"sign"} and {x["source"] for x in m} == {"<memory>"}
    (lost,) = report["unassigned_signs"]
    assert (m[-1]["assigned_by"], m[-1]["distance_ft"]) == (None, None)
    assert m[-1]["reason"] == lost["reason"] and m[0]["reason"] is None
    assert all(x["assigned_by"] is not None for x in m[:-1])
    assert m[8]["distance_ft"] == pytest.approx(0.0, abs=1e-6)  # (2000, 0): on B's corner
    xy = [shapely.get_coordinates(shapely.from_wkb(x["geometry"]))[0] for x in m]
    assert np.asarray(xy) == pytest.approx(_lonlat(SIGNS))


def test_summary_is_the_json_report_s_header(written):
    report, _, folder = written
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["summary"] == report["summary"]
    assert summary["summary"]["markers_unassigned"] == 1


@pytest.mark.parametrize("blank_is_null", [False, True])
def test_text_columns_null_where_missing_and_blank_where_asked(blank_is_null):
    values = ["a", None, "", np.nan, "b", "a", pd.NA]
    blank = None if blank_is_null else ""
    expected = ["a", None, blank, None, "b", "a", None]
    assert _text_array(pd.Series(values, dtype=object), blank_is_null).to_pylist() == expected
    cat = pd.Series(["ok", "over", None, "over"], dtype="category")
    assert _text_array(cat).to_pylist() == ["ok", "over", None, "over"]
    assert _text_array(pd.Series([], dtype=object)).to_pylist() == []
