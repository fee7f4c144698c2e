"""Regression tests for the defects the fuzz campaign found (issue 13, part 3): each test
reproduces its defect as it was reported and fails on the code before the fix."""

from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd
import pytest
import shapely
from helpers import (
    AT_SEA,
    CORNERS_AND_MIDPOINTS,
    LOCAL_FT,
    SAMPLE,
    markers,
    one_line_error,
    parcels,
    square,
)
from pyproj import CRS, Transformer
from test_cli import Runner

import posting
from posting.boundary import _first_min
from posting.cli import main
from posting.crs import WGS84, _transformer
from posting.errors import InputError
from posting.outputs import Output, resolve, write_all

PARCELS = str(SAMPLE / "parcels.geojson")
SIGNS = str(SAMPLE / "signs.csv")


@pytest.fixture
def runner() -> Runner:
    return Runner()


@pytest.fixture
def inputs(tmp_path):
    """Copies of the sample parcels (also as p.json) and signs, in a folder of their own; the
    test runs there."""
    (tmp_path / "p.geojson").write_bytes((SAMPLE / "parcels.geojson").read_bytes())
    (tmp_path / "p.json").write_bytes((SAMPLE / "parcels.geojson").read_bytes())
    (tmp_path / "s.csv").write_bytes((SAMPLE / "signs.csv").read_bytes())
    cwd = os.getcwd()
    os.chdir(tmp_path)
    yield tmp_path
    os.chdir(cwd)


# -- an output path equal to an input path (data loss) -----------------------------------------


@pytest.mark.parametrize("spelling", ["plain", "dot", "absolute"])
@pytest.mark.parametrize(
    ("command", "option", "target", "role"),
    [
        ("check", "--json", "p.json", "the parcels"),
        ("check", "--geojson", "p.geojson", "the parcels"),
        ("check", "--csv", "s.csv", "a marker file"),
        ("check", "--map", "p.geojson", "the parcels"),
        ("map", "-o", "p.geojson", "the parcels"),
        ("plan", "-o", "p.geojson", "the parcels"),
        ("plan", "-o", "s.csv", "a marker file"),
        ("plan", "--summary", "s.csv", "a marker file"),
    ],
)
def test_an_output_equal_to_an_input_is_refused(
    runner, inputs, spelling, command, option, target, role
):
    """`posting check p.geojson --signs s.csv --json p.geojson` used to overwrite the parcels
    with the report."""
    parcels_file = "p.json" if target == "p.json" else "p.geojson"
    given = {"plain": target, "dot": f"./{target}", "absolute": str(inputs / target)}[spelling]
    before = {p.name: p.read_bytes() for p in inputs.iterdir()}
    args = [command, parcels_file, "--signs", "s.csv", option, given]
    if command == "plan" and option == "--summary":
        args += ["-o", "plan.gpx"]
    res = runner.invoke(main, args)
    flag = "--output" if option == "-o" else option
    one_line_error(res, f"{flag} would overwrite {role}", "an output never replaces an input")
    assert {p.name: p.read_bytes() for p in inputs.iterdir()} == before


def test_an_output_that_is_a_symbolic_link_to_an_input_is_refused(runner, inputs):
    (inputs / "link.geojson").symlink_to(inputs / "p.geojson")
    res = runner.invoke(
        main, ["check", "p.geojson", "--signs", "s.csv", "--geojson", "link.geojson"]
    )
    one_line_error(res, "would overwrite the parcels")


# -- outputs written whole or none --------------------------------------------------------------


def test_a_missing_output_folder_leaves_the_other_outputs_untouched(runner, inputs):
    """`--json ok.json --csv missing/x.csv` used to replace ok.json, then exit 2."""
    (inputs / "ok.json").write_text("{}")
    res = runner.invoke(
        main,
        ["check", "p.geojson", "--signs", "s.csv", "--json", "ok.json", "--csv", "missing/x.csv"],
    )
    one_line_error(res, "missing/x.csv: --csv: folder missing does not exist")
    assert (inputs / "ok.json").read_text() == "{}"


@pytest.mark.parametrize(
    ("first", "second"),
    [("a.json", "a.json"), ("a.json", "./a.json"), ("out.json", "sub/../out.json")],
)
def test_two_outputs_to_one_file_are_refused(runner, inputs, first, second):
    (inputs / "sub").mkdir()
    res = runner.invoke(
        main, ["check", "p.geojson", "--signs", "s.csv", "--json", first, "--geojson", second]
    )
    one_line_error(res, "--json and --geojson name the same file")
    assert not (inputs / "a.json").exists() and not (inputs / "out.json").exists()


def test_write_all_replaces_nothing_when_one_output_fails(tmp_path):
    """The second output's content fails half-way (as a full disk would): the first file,
    already complete in its temporary file, is not renamed into place, and no temporary file
    is left behind."""
    a, b = tmp_path / "a.json", tmp_path / "b.csv"
    a.write_text("old a")
    b.write_text("old b")

    def failing():
        yield "half a row,"
        raise OSError(28, "No space left on device")

    out = resolve({"json": (a, "json"), "csv": (b, "csv")}, {})
    with pytest.raises(InputError, match=r"b.csv: csv=: cannot be written \(No space left on de"):
        write_all([(out[0], '{"new": 1}'), (out[1], failing())])
    assert a.read_text() == "old a" and b.read_text() == "old b"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.csv"]
    write_all([(out[0], '{"new": 1}'), (out[1], ["x,y\n", b"1,2\n"])])
    assert json.loads(a.read_text()) == {"new": 1} and b.read_text() == "x,y\n1,2\n"


def test_outputs_are_checked_before_the_inputs_are_read(tmp_path):
    """A folder that does not exist or a folder given as the file: refused by resolve, so the
    command stops before reading a county."""
    with pytest.raises(InputError, match=r"folder .* does not exist"):
        resolve({"json": (tmp_path / "no" / "r.json", "json")}, {})
    (tmp_path / "r.json").mkdir()
    with pytest.raises(InputError, match="is a folder"):
        resolve({"json": (tmp_path / "r.json", "json")}, {})
    assert resolve({"json": ("-", "json")}, {}) == [Output("json", "-", "json")]


# -- GeoJSON rings GEOS refuses, absurd coordinates -------------------------------------------

RING = [[-81.12, 28.745], [-81.119, 28.745], [-81.119, 28.746], [-81.12, 28.746]]


def _geojson(path, *rings) -> None:
    features = [
        {
            "type": "Feature",
            "properties": {"pid": f"P{i}"},
            "geometry": {"type": "Polygon", "coordinates": [r]},
        }
        for i, r in enumerate(rings)
    ]
    text = json.dumps({"type": "FeatureCollection", "features": features}, allow_nan=True)
    path.write_text(text)


def test_a_ring_that_is_not_closed_is_closed_with_a_warning(runner, tmp_path):
    """Used to end in `GEOSException: ... do not form a closed linestring`."""
    p = tmp_path / "open.geojson"
    _geojson(p, RING, [*RING, RING[0]])
    res = runner.invoke(
        main, ["check", str(p), "--signs", SIGNS, "--id-field", "pid", "--json", "-"]
    )
    assert res.exit_code == 1, res.stderr
    d = json.loads(res.stdout)
    # closed, the open ring is the same square as the closed one: the same perimeter
    per = [x["perimeter_ft"] for x in d["parcels"]]
    assert per[0] == pytest.approx(per[1], abs=1e-6) and per[0] > 1000
    assert f"{p}: 1 row(s) have a ring that is not closed; each was closed" in res.stderr


@pytest.mark.parametrize(
    ("ring", "reason"),
    [
        ([RING[0], RING[1], RING[0]], "invalid geometry (Too few points"),
        (
            [[float("nan"), 28.745], *RING[1:], [float("nan"), 28.745]],
            "a coordinate is not a number",
        ),
    ],
)
def test_rings_geos_refuses_are_invalid_parcels_with_a_reason(runner, tmp_path, ring, reason):
    """Fewer than 4 points, a NaN first coordinate: an invalid parcel with the reason, the
    other parcels checked as usual, no GEOSException traceback."""
    p = tmp_path / "bad.geojson"
    _geojson(p, ring, [*RING, RING[0]])
    res = runner.invoke(
        main, ["check", str(p), "--signs", SIGNS, "--id-field", "pid", "--json", "-"]
    )
    assert res.exit_code == 1, res.stderr
    d = json.loads(res.stdout)
    assert d["parcels"][0]["status"] == "invalid"
    assert reason in d["parcels"][0]["invalid_reason"]
    assert d["parcels"][1]["status"] != "invalid"


@pytest.mark.parametrize("suffix", [".gpkg", ".parquet"])
def test_a_nan_vertex_inside_a_ring_is_said_to_be_not_a_number(tmp_path, suffix):
    """A GeoPackage or GeoParquet lot with a vertex of NaN inside its ring (WKB that GEOS
    reads, where GeoJSON's reader refuses the first): invalid as "a coordinate is not a
    number", not as a projection that failed; read without numpy's RuntimeWarning."""
    import warnings

    import geopandas as gpd

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        nan = shapely.Polygon([RING[0], RING[1], [float("nan"), 28.7455], RING[2], RING[3]])
    frame = gpd.GeoDataFrame(
        {"pid": ["A", "B"]}, geometry=[nan, shapely.Polygon(RING)], crs="EPSG:4326"
    )
    path = tmp_path / f"lots{suffix}"
    frame.to_file(path) if suffix == ".gpkg" else frame.to_parquet(path)
    lots = posting.read_parcels(path, id_field="pid")
    report = posting.check(lots, posting.read_markers([SIGNS]), "florida")
    p = report.parcels
    assert p["status"].tolist()[0] == "invalid" and p["status"].tolist()[1] != "invalid"
    assert p["invalid_reason"][0] == "a coordinate is not a number or not finite"


@pytest.mark.parametrize("big", [1e300, 1e200, 1e100, 1e12])
def test_absurd_coordinates_do_not_spoil_the_next_parcels(big):
    """A row reaching 1e300 ft used to raise IndexError in boundary._first_min, or make the
    valid square after it 'noncompliant, largest gap 1,600 ft'. It is invalid now, and the
    square, with a marker every 500 ft, is compliant with a largest gap of 500 ft."""
    huge = shapely.Polygon([(-big, -big), (big, -big), (big, big), (-big, big)])
    report = posting.check(
        parcels(huge, square()), markers(CORNERS_AND_MIDPOINTS), "florida", settings=AT_SEA
    )
    p = report.parcels
    assert p["status"].tolist() == ["invalid", "compliant"]
    assert "not a place on Earth" in p["invalid_reason"][0]
    assert p["max_gap_ft"][1] == pytest.approx(500.0)


def test_first_min_counts_nan_as_the_largest():
    """A run of NaN (inf - inf) used to have no index and shift every later run."""
    values = np.array([np.nan, np.nan, 4.0, 2.0, 2.0, np.inf, np.nan])
    starts = np.array([0, 2, 5])
    group = np.repeat([0, 1, 2], [2, 3, 2])
    assert _first_min(values, starts, group).tolist() == [0, 3, 5]


# -- text that is not UTF-8, a KML with no placemarks, Z values ---------------------------------


def test_non_utf8_bytes_in_the_id_and_owner_columns(runner, tmp_path):
    """Used to end in `ArrowException: Unknown error: Wrapping A��B failed`."""
    p = tmp_path / "latin.geojson"
    feature = (
        '{"type":"Feature","properties":{"pid":"A\xff\xfeB","own":"Jos\xe9"},"geometry":'
        '{"type":"Polygon","coordinates":[[[-81.12,28.745],[-81.119,28.745],[-81.119,28.746],'
        "[-81.12,28.746],[-81.12,28.745]]]}}"
    )
    p.write_bytes(('{"type":"FeatureCollection","features":[' + feature + "]}").encode("latin-1"))
    args = ["check", str(p), "--signs", SIGNS, "--id-field", "pid", "--owner-field", "own"]
    res = runner.invoke(main, [*args, "--json", "-"])
    assert res.exit_code == 1, res.stderr
    d = json.loads(res.stdout)
    assert d["parcels"][0]["id"] == "A\xff\xfeB" and d["parcels"][0]["owner"] == "José"
    assert f"{p}: has text that is not UTF-8; read as Latin-1" in res.stderr


def test_a_kml_without_placemarks(runner, tmp_path):
    """What `plan --rules montana -o plan.kml` can write; used to end in
    `ValueError: No objects to concatenate`, as signs and as parcels."""
    kml = tmp_path / "plan.kml"
    kml.write_text(
        '<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2">'
        "<Document><name>plan</name></Document></kml>"
    )
    res = runner.invoke(main, ["check", PARCELS, "--signs", str(kml)])
    one_line_error(res, f"{kml}: no markers: the file has no rows")
    res = runner.invoke(main, ["check", str(kml), "--signs", SIGNS])
    one_line_error(res, f"{kml}: has no features: there are no parcels to check")
    res = runner.invoke(main, ["check", PARCELS, "--signs", SIGNS, "--signs", str(kml), "-q"])
    assert res.exit_code == 1


def test_z_coordinates_from_geometries():
    """Used to crash check: `The provided transformation returned an array with an unexpected
    shape ((5, 2))`. The Z is dropped; the square with a marker every 500 ft complies."""
    z = shapely.Polygon([(x, y, 12.5) for x, y in square().exterior.coords])
    assert shapely.has_z(z)
    report = posting.check(
        parcels(z, square(1000, 2000)), markers(CORNERS_AND_MIDPOINTS), "florida", settings=AT_SEA
    )
    assert report.parcels["status"].tolist() == ["compliant", "unposted"]
    assert report.parcels["perimeter_ft"][0] == pytest.approx(4000.0)


# -- the transformer cache ---------------------------------------------------------------------


def test_the_transformer_cache_tells_approx_tmerc_from_exact():
    """pyproj calls the two CRSs equal, yet 21 degrees from the meridian they differ by about
    5 ft; whichever is asked first, each gets its own transformer."""
    from posting import crs as crs_module

    text = "+proj=tmerc {}+lat_0=0 +lon_0=-81 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft +no_defs"
    crss = {
        "exact": CRS.from_proj4(text.format("")),
        "approx": CRS.from_proj4(text.format("+approx ")),
    }
    assert crss["exact"] == crss["approx"]  # the trap
    truth = {
        name: Transformer.from_crs(WGS84, c, always_xy=True).transform(-60.0, 40.0)
        for name, c in crss.items()
    }
    assert abs(truth["exact"][0] - truth["approx"][0]) > 4.0  # ft
    for order in (("exact", "approx"), ("approx", "exact")):
        crs_module._cached_transformer.cache_clear()
        for name in order:
            got = _transformer(WGS84, crss[name]).transform(-60.0, 40.0)
            assert got == pytest.approx(truth[name], abs=1e-6)


def test_local_working_crs_results_do_not_depend_on_what_ran_before():
    """The same case gives the same figures after a case in the exact twin of its CRS ran."""
    from posting import crs as crs_module

    lay = parcels(square(), crs=LOCAL_FT)
    crs_module._cached_transformer.cache_clear()
    first = posting.check(lay, markers(CORNERS_AND_MIDPOINTS), "florida").parcels
    exact = CRS.from_proj4(
        "+proj=tmerc +lat_0=0 +lon_0=-81.1 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft +no_defs"
    )
    pd.Series(_transformer(exact, WGS84).transform(0.0, 0.0))  # warm the cache with the twin
    second = posting.check(lay, markers(CORNERS_AND_MIDPOINTS), "florida").parcels
    pd.testing.assert_frame_equal(first, second)


@pytest.mark.parametrize(
    "wkt",
    [
        "POLYGON ((20 0, 20 6.350473744645014e-254, 10.806046117362795 16.82941969615793, 20 0))",
        "MULTIPOLYGON (((50 0, 50 50, 0 50, 0 0, 50 0)), ((50 1.7491361844479786e-282, 50 50, "
        "0 50, 0 1.7491361844479786e-282, 50 1.7491361844479786e-282)))",
    ],
)
def test_coordinates_within_a_hair_of_zero_do_not_warn(wkt):
    """Found by the long fuzz run: a segment 1e-254 ft long has a squared length of 0, and
    GEOS's distance and line_locate_point divided by it ('divide by zero', from a worker
    thread: an error under this suite's filterwarnings). Such coordinates are 0 now; the
    sliver triangle is invalid (it collapses), the doubled square complies (a marker every
    1.5 ft)."""
    from fuzz_strategies import thousands

    g = shapely.from_wkt(wkt)
    xy = thousands(g, 1000, 0, 20.0 if "POLYGON ((20" in wkt else 0.0, 0)
    report = posting.check(parcels(g), markers(xy), "florida")
    status = report.parcels["status"][0]
    assert status == ("invalid" if wkt.startswith("POLYGON") else "compliant")


def test_merging_a_sliver_a_hair_wide_does_not_warn():
    """Found by the long fuzz run: a 'flat' triangle whose first vertex is 1.6e-34 ft off the
    line is valid to GEOS; merged with the lot of the same owner it lies in, its mitre buffer
    divided by zero (a RuntimeWarning, an error here). The property is the two rows."""
    box = shapely.box(0, 0, 50, 50)
    sliver = shapely.Polygon([(1.6390445624300986e-34, 0), (1, 1), (2, 2)])
    lay = parcels(box, sliver, box, owners=[None, "Doe", "Doe"])
    from posting.prepare import prepare_parcels

    prep = prepare_parcels(lay, merge_key=np.array([None, "doe", "doe"], dtype=object))
    assert prep.source_rows == [[0], [1, 2]]
    assert shapely.equals(prep.geometry_ft[1], shapely.box(0, 0, 50, 50))
