"""Lots drawn as closed lines (posting.closedlines): read as the polygons they bound."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import geopandas as gpd
import numpy as np
import pytest
import shapely
from helpers import markers, parcels, square
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import LineString, MultiLineString, Polygon

import posting
from posting.closedlines import READ_AS_POLYGON, closed_lines, polygons_of_closed_lines
from posting.errors import InputError
from posting.io import CLOSED_LINES, geometry_kinds, require_polygons
from posting.prepare import prepare_parcels


def ring(x0, y0, x1, y1):
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]


def test_closed_lines_tells_lines_whose_every_part_closes():
    closed = LineString(ring(0, 0, 1, 1))
    got = closed_lines(
        np.array(
            [
                closed,
                LineString([(0, 0), (1, 0), (1, 1)]),  # open
                LineString([(0, 0), (1, 0), (0, 0)]),  # closed but three points: no area
                shapely.LinearRing(ring(0, 0, 2, 2)),
                MultiLineString([ring(0, 0, 4, 4), ring(1, 1, 2, 2)]),
                MultiLineString([ring(0, 0, 4, 4), [(5, 5), (6, 6)]]),  # one open part
                LineString(),
                square(),
                shapely.Point(0, 0),
                None,
            ],
            dtype=object,
        )
    )
    assert got.tolist() == [True, False, False, True, True, False, False, False, False, False]


def test_polygons_of_closed_lines_by_the_even_odd_rule():
    # areas worked out by hand: a 500 ft square; with a 100 ft square hole; the hole holding a
    # 40 ft island; two squares apart
    lines = np.array(
        [
            LineString(ring(0, 0, 500, 500)),
            MultiLineString([ring(0, 0, 500, 500), ring(100, 100, 200, 200)]),
            MultiLineString(
                [ring(0, 0, 500, 500), ring(100, 100, 200, 200), ring(130, 130, 170, 170)]
            ),
            MultiLineString([ring(0, 0, 10, 10), ring(20, 0, 50, 30)]),
        ],
        dtype=object,
    )
    out = polygons_of_closed_lines(lines)
    assert [g.geom_type for g in out] == ["Polygon", "Polygon", "MultiPolygon", "MultiPolygon"]
    assert shapely.area(out).tolist() == [250_000, 240_000, 241_600, 100 + 900]
    assert shapely.is_valid(out).all()
    assert out[1].equals(shapely.box(0, 0, 500, 500).difference(shapely.box(100, 100, 200, 200)))


def test_a_ring_that_crosses_itself_is_left_to_the_repair():
    bowtie = [(0, 0), (10, 10), (10, 0), (0, 10), (0, 0)]
    out = polygons_of_closed_lines(
        np.array([LineString(bowtie), MultiLineString([bowtie, ring(20, 0, 30, 10)])])
    )
    assert not shapely.is_valid(out).any()  # as drawn; prepare_parcels repairs and says why


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(-1000, 1000),
            st.integers(-1000, 1000),
            st.integers(1, 500),
            st.integers(1, 500),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_a_polygons_rings_as_lines_give_the_polygon_back(boxes):
    # the oracle: a valid polygon (holes included) drawn as its rings' lines is read as itself
    poly = shapely.union_all([shapely.box(x, y, x + w, y + h) for x, y, w, h in boxes])
    poly = shapely.difference(poly, shapely.box(-200, -200, 200, 200).exterior.buffer(20))
    polys = shapely.get_parts(poly)
    polys = polys[shapely.area(polys) > 0]
    if not len(polys):
        return
    rings = [r for p in polys for r in (p.exterior, *p.interiors)]
    line = MultiLineString([list(r.coords) for r in rings])
    assert closed_lines(np.array([line]))[0]
    back = polygons_of_closed_lines(np.array([line]))[0]
    assert back.is_valid
    assert shapely.symmetric_difference(back, shapely.multipolygons(polys)).area < 1e-6


def test_prepare_reads_a_closed_line_as_its_lot_and_says_so():
    lot = square(500)
    drawn = parcels(
        lot,
        LineString(list(square(500, 1000).exterior.coords)),
        LineString([(2000, 0), (2500, 0), (2500, 500)]),  # open
        LineString([(3000, 0), (3500, 500), (3500, 0), (3000, 500), (3000, 0)]),  # crosses
    )
    prep = prepare_parcels(dataclasses.replace(drawn, closed_lines=True))
    assert prep.invalid[:2].tolist() == [None, None]
    assert prep.invalid[2] == (
        "a LineString that does not close a ring is not a parcel: parcels are polygons"
    )
    assert prep.invalid[3] is None
    assert prep.repaired[0] is None
    assert prep.repaired[1] == READ_AS_POLYGON
    assert prep.repaired[3].startswith(f"{READ_AS_POLYGON}; repaired: Self-intersection")
    assert prep.perimeter_ft[:2] == pytest.approx([2000.0, 2000.0])
    assert prep.area_acres[:2] == pytest.approx([250_000 / 43_560] * 2, rel=1e-3)
    # unless the user says the lines are lots, they are not: said so, with the option
    plain = prepare_parcels(drawn)
    assert plain.invalid[1] == (
        "a LineString is not a parcel: parcels are polygons (it closes a ring: --closed-lines "
        "reads it as the lot it bounds)"
    )
    assert plain.invalid[3].startswith("a LineString is not a parcel")
    assert plain.repaired.tolist() == [None] * 4


def test_a_closed_line_is_checked_as_the_polygon_would_be():
    # the same lot as a polygon and as its closed line, with the same signs: the same verdict
    # and figures (second method: the polygon's own check)
    signs = markers([(0, 0), (500, 0), (500, 500), (250, 0), (1000, 500)])
    as_polygon = posting.check(parcels(square(500), ids=["a"]), signs, "florida")
    line = LineString(list(square(500).exterior.coords))
    lay = dataclasses.replace(parcels(line, ids=["a"]), closed_lines=True)
    as_line = posting.check(lay, signs, "florida")
    cols = ["status", "signs", "perimeter_ft", "area_acres", "max_gap_ft", "corners"]
    assert as_line.parcels[cols].equals(as_polygon.parcels[cols])
    assert as_polygon.parcels["status"].iloc[0] == "noncompliant"  # (a 1,000 ft gap)
    assert as_polygon.parcels["max_gap_ft"].iloc[0] == pytest.approx(1000.0)


def test_a_layer_of_closed_lines_is_not_refused():
    kinds = geometry_kinds(np.array([LineString(ring(0, 0, 1, 1))] * 3))
    assert kinds == {CLOSED_LINES: 3}
    require_polygons("lots.dxf", 3, kinds, closed_lines=True)  # no error
    with pytest.raises(
        InputError,
        match=r"make polygons of them first \(3 of them close a ring: --closed-lines reads",
    ):
        require_polygons("lots.dxf", 3, kinds)
    open_line = geometry_kinds(np.array([LineString([(0, 0), (1, 1)])]))
    with pytest.raises(InputError, match="make polygons of them first"):
        require_polygons("lots.dxf", 1, open_line, closed_lines=True)


def _dxf(path, geoms):
    gpd.GeoDataFrame(geometry=list(geoms), crs="EPSG:2236").to_file(path, driver="DXF")


@pytest.mark.parametrize("workers", [False, True])
def test_a_cad_drawing_of_lots_is_checked_on_both_paths(tmp_path, workers):
    # a DXF of two lots drawn as closed polylines and one stray open line, in Florida East
    # (US survey feet): two lots checked, the open line named; the partitioned run the same
    x0, y0 = 700_000, 600_000
    _dxf(
        tmp_path / "lots.dxf",
        [
            LineString(ring(x0, y0, x0 + 500, y0 + 500)),
            LineString(ring(x0 + 500, y0, x0 + 800, y0 + 300)),
            LineString([(x0, y0 - 50), (x0 + 800, y0 - 50)]),
        ],
    )
    args = ["check", "lots.dxf", "--crs", "EPSG:2236", "--rules", "florida", "-q"]
    cli = [sys.executable, "-c", "from posting.cli import run; run()"]
    run = {"cwd": tmp_path, "capture_output": True, "text": True, "check": False}
    res = subprocess.run([*cli, *args, "--json", "no.json"], **run)
    assert res.returncode == 2 and not (tmp_path / "no.json").exists()
    assert "2 of them close a ring" in res.stderr and "Traceback" not in res.stderr
    args.append("--closed-lines")
    outs = {}
    for mode in ("one", "part") if workers else ("one",):
        extra = ["--workers", "2", "--partition-parcels", "1"] if mode == "part" else []
        res = subprocess.run([*cli, *args, *extra, "--json", f"{mode}.json"], **run)
        assert res.returncode == 1, res.stderr[-2000:]
        outs[mode] = json.loads((tmp_path / f"{mode}.json").read_text())["parcels"]
    rows = outs["one"]
    assert [p["status"] for p in rows] == ["unposted", "unposted", "invalid"]
    # 500 and 300 US survey feet squares: 2,000 and 1,200 US ft of boundary, in feet
    us_ft = 1200 / 3937 / 0.3048
    assert rows[0]["perimeter_ft"] == pytest.approx(2000 * us_ft, abs=0.01)
    assert rows[1]["perimeter_ft"] == pytest.approx(1200 * us_ft, abs=0.01)
    assert rows[0]["repaired"] == READ_AS_POLYGON
    assert "does not close a ring" in rows[2]["invalid_reason"]
    if workers:
        assert outs["part"] == rows


def test_a_polygon_is_never_taken_for_a_line():
    # closed lines never change a polygon layer: the same prepared geometry
    lay = parcels(square(500), Polygon(ring(1000, 0, 1500, 500)))
    prep = prepare_parcels(lay)
    assert prep.repaired.tolist() == [None, None]
    assert not closed_lines(np.asarray(lay.geometry, dtype=object)).any()
