"""Common input mistakes: each caught with a message that names the cause (issue 13, part 2).

Where the input is unusable the command exits 2 before any output is written; where the result
is still right, a warning says what was assumed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio
import pytest
import shapely
from helpers import ROOT, SAMPLE, combine_markers, markers, parcels, square
from pyproj import Transformer
from test_cli import SAMPLE_ARGS, Runner

from posting.cli import main
from posting.errors import InputError
from posting.io import read_markers, read_parcels
from posting.prepare import adjoining_pairs, prepare_parcels
from posting.sanity import check_inputs, same_owner_notes, swapped_files

PARCELS = str(SAMPLE / "parcels.geojson")
SIGNS = str(SAMPLE / "signs.csv")
USABLE_SIGNS = 227  # signs.csv has 228 rows, one without a position


@pytest.fixture
def runner() -> Runner:
    return Runner()


def _fails_cleanly(res, *needles: str) -> str:
    """Exit 2, one line on stderr naming the cause, nothing on stdout, no traceback."""
    assert res.exit_code == 2, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("posting: error: ")
    for needle in needles:
        assert needle in lines[0], lines[0]
    assert res.stdout == ""
    return lines[0]


def _swapped_csv(path) -> None:
    table = pd.read_csv(SIGNS, dtype=str, keep_default_na=False)
    table["lon"], table["lat"] = table["lat"].copy(), table["lon"].copy()
    table.to_csv(path, index=False)


# -- swapped longitude and latitude ------------------------------------------------------------


def test_swapped_lon_lat_csv_is_refused_before_any_output(runner, tmp_path):
    """Latitude in the lon column: every sign would be 'no parcel boundary within 5,000 ft'
    and every parcel unposted; the swap, tried against the parcels' extent, puts all 227 signs
    with a position near the parcels."""
    swapped = tmp_path / "swapped.csv"
    _swapped_csv(swapped)
    out = tmp_path / "r.json"
    res = runner.invoke(main, ["check", PARCELS, "--signs", str(swapped), "--json", str(out)])
    line = _fails_cleanly(res, str(swapped), "swapped", "Swap the columns, or name them")
    assert f"none of its {USABLE_SIGNS} markers fall near the parcels" in line
    assert f"{USABLE_SIGNS} would with x and y swapped" in line
    assert not out.exists()


def _swapped_parcels(path) -> None:
    """The sample's parcels written as [lat, lon]: off Antarctica."""
    lots = gpd.read_file(PARCELS)
    lots.geometry = shapely.transform(lots.geometry.array, lambda xy: xy[:, ::-1])
    lots.to_file(path, engine="pyogrio")


@pytest.mark.parametrize("rules", [[], ["--rules", "florida"]], ids=["auto", "florida"])
def test_swapped_parcels_are_named_not_the_signs_that_stand_right(runner, tmp_path, rules):
    """Parcels in [lat, lon] and the signs as surveyed: the signs fall near the parcels only
    with x and y swapped, and the signs file was refused as the swapped one ("Swap the
    columns"), which would have put them beside the parcels off Antarctica (with --rules
    florida, a report of mirrored lots). The parcels lie in no state as given and in Florida
    swapped: they are named as swapped. The signs swapped too are the parcels' own mistake,
    refused by the state lookup (auto) or warned of (a state's profile by name)."""
    lots = tmp_path / "parcels.geojson"
    _swapped_parcels(lots)
    res = runner.invoke(main, ["check", str(lots), "--signs", SIGNS, *rules])
    line = _fails_cleanly(
        res,
        f"posting: error: {lots}: the parcels lie in no state (off Antarctica), but would lie "
        f"in Florida with longitude and latitude swapped, where the markers of {SIGNS} stand "
        "as given: the parcels' longitude and latitude are swapped",
    )
    assert "Swap the columns" not in line
    swapped = tmp_path / "swapped.csv"
    _swapped_csv(swapped)
    res = runner.invoke(main, ["check", PARCELS, "--signs", str(swapped), *rules])
    _fails_cleanly(res, f"{swapped}: none of its", "Swap the columns, or name them")


def test_swapped_lon_lat_beyond_90_degrees_is_refused_by_the_reader(runner, tmp_path):
    """West of 90 degrees (Montana), the swapped latitude is out of range in every row: the
    reader says it is a swap, instead of one 'latitude -110.2 outside -90..90' per row."""
    csv = tmp_path / "montana.csv"
    csv.write_text("lon,lat,kind\n46.5,-110.2,sign\n46.6,-110.3,sign\n,,sign\n")
    res = runner.invoke(main, ["check", PARCELS, "--signs", str(csv)])
    _fails_cleanly(
        res,
        "longitude and latitude are swapped: in 2 of 2 rows the latitude (lat) is beyond 90",
        "Swap the columns, or name them for what they hold (lon, lat)",
    )


def test_swap_is_judged_per_file_and_only_when_the_swap_fits(tmp_path):
    """Library level: the sample's own signs are not flagged; a swapped copy is, with the
    counts; a file far from the parcels whose swap is far too (another county) is not."""
    lay = read_parcels(PARCELS)
    prep = prepare_parcels(lay)
    assert swapped_files(prep, read_markers([SIGNS])) == []
    swapped = tmp_path / "swapped.csv"
    _swapped_csv(swapped)
    both = read_markers([SIGNS, str(swapped)])
    assert swapped_files(prep, both) == [(str(swapped), USABLE_SIGNS, 0, USABLE_SIGNS)]
    with pytest.raises(Exception, match="longitude and latitude are swapped"):
        check_inputs(prep, both)
    elsewhere = markers([(-120.5, 46.5), (-120.6, 46.6)], crs="EPSG:4326")  # Washington
    assert swapped_files(prep, elsewhere) == []


# -- the minus sign of a western longitude left out ------------------------------------------


def _refused_with_the_parcels_middle(runner, tmp_path, signs) -> tuple[str, float]:
    """Check the sample's parcels against ``signs`` with a JSON report asked for: the refusal's
    one line (the report not written) and the parcels' middle longitude by geopandas."""
    west, _, east, _ = gpd.read_file(PARCELS).total_bounds
    out = tmp_path / "r.json"
    res = runner.invoke(main, ["check", PARCELS, "--signs", str(signs), "--json", str(out)])
    line = _fails_cleanly(res, str(signs))
    assert not out.exists()
    return line, (west + east) / 2


def _positive_lon_csv(path) -> None:
    """The sample's signs with their longitudes typed without the minus sign (81.1 for -81.1)."""
    table = pd.read_csv(SIGNS, dtype=str, keep_default_na=False)
    table["lon"] = table["lon"].str.lstrip("-")
    table.to_csv(path, index=False)


def test_longitudes_without_their_minus_sign_are_refused_before_any_output(runner, tmp_path):
    """Every longitude typed positive: every sign stood in China ('a coordinate typed wrong?'
    each), every parcel was reported unposted, exit 1. Each longitude with its sign changed
    puts the 227 signs with a position back near the parcels: the file is refused, the slip
    named, and the example is the middle of the parcels' extent (by geopandas: -81.1)."""
    flipped = tmp_path / "positive.csv"
    _positive_lon_csv(flipped)
    line, mid = _refused_with_the_parcels_middle(runner, tmp_path, flipped)
    assert -81.15 < mid < -81.05
    assert line.endswith(
        f"none of its {USABLE_SIGNS} markers fall near the parcels, but {USABLE_SIGNS} would "
        "with the sign of their longitude changed: the minus sign of a longitude west of "
        f"Greenwich was left out ({mid:.1f} here, not {-mid:.1f}); write the longitudes negative"
    ), line


def test_the_sign_of_the_longitude_is_tried_only_for_a_file_in_degrees(tmp_path):
    """Library level: the sample's signs are not flagged; the copy without minus signs is,
    with the counts, beside them; a file in Washington (-120.5) whose positive copy (120.5,
    China) is far too is not; a projected file (State Plane feet: x is no longitude) is not
    tried."""
    from posting.sanity import flipped_files

    prep = prepare_parcels(read_parcels(PARCELS))
    assert flipped_files(prep, read_markers([SIGNS])) == []
    flipped = tmp_path / "positive.csv"
    _positive_lon_csv(flipped)
    both = read_markers([SIGNS, str(flipped)])
    assert flipped_files(prep, both) == [(str(flipped), USABLE_SIGNS, 0, USABLE_SIGNS)]
    assert swapped_files(prep, both) == []
    with pytest.raises(Exception, match="minus sign of a longitude west of Greenwich"):
        check_inputs(prep, both)
    elsewhere = markers([(-120.5, 46.5), (-120.6, 46.6)], crs="EPSG:4326")
    assert flipped_files(prep, elsewhere) == []
    # the sample's first sign in Florida East (feet) mirrored about x = 0: not a longitude
    to_fl = Transformer.from_crs(4326, 2236, always_xy=True)
    x, y = to_fl.transform(81.105, 28.705)
    assert flipped_files(prep, markers([(x, y)], crs="EPSG:2236")) == []


# -- both: swapped, and the longitude without its minus sign ---------------------------------


def _swapped_positive_csv(path) -> None:
    """The sample's signs with the columns swapped and the longitude (now under ``lat``)
    typed without its minus sign: lon 28.7, lat 81.1."""
    table = pd.read_csv(SIGNS, dtype=str, keep_default_na=False)
    table["lon"], table["lat"] = table["lat"].copy(), table["lon"].str.lstrip("-")
    table.to_csv(path, index=False)


def test_swapped_columns_whose_longitudes_lost_their_minus_sign_are_refused(runner, tmp_path):
    """(28.7, 81.1): in the Arctic as given; swapped, (81.1, 28.7), in China; the sign alone
    changed, (-28.7, 81.1), in Greenland's sea: neither slip alone brings a sign near the
    parcels, so the file was not refused and every parcel was reported unposted (exit 1).
    Both undone, (-81.1, 28.7), put the 227 signs with a position back: refused, both slips
    named, the example the parcels' middle longitude (geopandas: -81.1)."""
    both = tmp_path / "both.csv"
    _swapped_positive_csv(both)
    line, mid = _refused_with_the_parcels_middle(runner, tmp_path, both)
    assert line.endswith(
        f"none of its {USABLE_SIGNS} markers fall near the parcels, but {USABLE_SIGNS} would "
        "with x and y swapped and the sign of their longitude changed: longitude and latitude "
        "are swapped (lon holds the latitude), and the minus sign of a longitude west of "
        f"Greenwich was left out ({mid:.1f} here, not {-mid:.1f}). Swap the columns, or name "
        "them for what they hold (lon, lat), and write the longitudes negative"
    ), line


def test_both_slips_are_named_only_where_neither_alone_explains_the_file(tmp_path):
    """Library level: the sample's signs, a copy swapped and a copy without minus signs are
    not taken for both slips (each is its own); the copy with both is, with the counts; a file
    whose both-slips copy is far too ((46.5, 80.5) undone is (-80.5, 46.5): Ontario) is not; a
    projected file is not tried."""
    from posting.sanity import flipped_files, parcels_extent, swap_counts, swapped_flipped_files

    prep = prepare_parcels(read_parcels(PARCELS))
    swapped, positive, both = tmp_path / "s.csv", tmp_path / "p.csv", tmp_path / "b.csv"
    _swapped_csv(swapped)
    _positive_lon_csv(positive)
    _swapped_positive_csv(both)
    read = read_markers([SIGNS, str(swapped), str(positive), str(both)])
    assert swapped_flipped_files(prep, read) == [(str(both), USABLE_SIGNS, 0, USABLE_SIGNS)]
    assert swapped_files(prep, read) == [(str(swapped), USABLE_SIGNS, 0, USABLE_SIGNS)]
    assert flipped_files(prep, read) == [(str(positive), USABLE_SIGNS, 0, USABLE_SIGNS)]
    # the counts of each file: (file, with a position, as given, swapped, sign, both)
    counts = swap_counts(read, parcels_extent(prep))
    n = USABLE_SIGNS
    assert counts == [
        (0, n, n, 0, 0, 0),  # (as given: not tried further)
        (1, n, 0, n, 0, 0),
        (2, n, 0, 0, n, 0),
        (3, n, 0, 0, 0, n),
    ]
    with pytest.raises(Exception, match="swapped and the sign of their longitude changed"):
        check_inputs(prep, read_markers([SIGNS, str(both)]))
    elsewhere = markers([(46.5, 80.5), (46.6, 80.6)], crs="EPSG:4326")
    assert swapped_flipped_files(prep, elsewhere) == []
    to_fl = Transformer.from_crs(4326, 2236, always_xy=True)
    y, x = to_fl.transform(81.105, 28.705)[::-1]  # feet swapped and mirrored: not tried
    assert swapped_flipped_files(prep, markers([(y, -x)], crs="EPSG:2236")) == []


# -- a point file's numbers in another unit than its CRS's ------------------------------------

US_FT_M = 1200 / 3937  # the US survey foot, in metres


def _lot_2236(tmp_path):
    """A 1,000 US survey ft square in Seminole County in Florida East (ftUS), as a GeoJSON
    file naming its CRS, and 16 points 250 ftUS apart round its boundary (first at a corner),
    in Florida East ftUS numbers."""
    to_sp = Transformer.from_crs(4326, 2236, always_xy=True)
    x0, y0 = (round(v) for v in to_sp.transform(-81.1, 28.74))
    lot = shapely.box(x0, y0, x0 + 1000, y0 + 1000)
    path = tmp_path / "lot.geojson"
    gpd.GeoDataFrame({"pid": ["A"]}, geometry=[lot], crs=2236).to_file(path)
    ring = shapely.get_exterior_ring(lot)
    points = shapely.line_interpolate_point(ring, np.arange(16) * 250.0)
    return path, shapely.get_coordinates(points)


def _points_csv(path, xy) -> str:
    pd.DataFrame({"x": xy[:, 0], "y": xy[:, 1]}).to_csv(path, index=False)
    return str(path)


def test_state_plane_metres_given_as_the_feet_zone_are_refused_naming_the_metre_zone(
    runner, tmp_path
):
    """The signs in Florida East metres (EPSG:26958), given --crs EPSG:2236 (the same zone in
    US survey feet): each lands at 0.3048 of its distance from the zone's origin, 226 miles
    off, and the lot was reported unposted (exit 1). Refused, naming the metre zone; given it,
    the same file posts the lot (16 signs 250 ft apart: compliant)."""
    lot, xy = _lot_2236(tmp_path)
    to_m = Transformer.from_crs(2236, 26958, always_xy=True)
    metres = np.column_stack(to_m.transform(xy[:, 0], xy[:, 1]))
    # the metre zone is the feet zone scaled (false easting 200,000 m = 656,166.667 ftUS, to
    # 0.1 mm):
    assert metres == pytest.approx(xy * US_FT_M, abs=1e-3)
    signs = _points_csv(tmp_path / "signs.csv", metres)
    out = tmp_path / "r.json"
    base = ["check", str(lot), "--signs", signs, "--id-field", "pid", "--json", str(out)]
    res = runner.invoke(main, [*base, "--crs", "EPSG:2236"])
    _fails_cleanly(
        res,
        "signs.csv: none of its 16 markers fall near the parcels, but 16 would with their "
        "numbers read as metres",
        "not in the US survey feet of its CRS, NAD83 / Florida East (ftUS)",
        "at 0.3048 times its distance",
        "of the same zone, EPSG:26958 (NAD83 / Florida East) (--crs EPSG:26958)",
    )
    assert not out.exists()
    res = runner.invoke(main, [*base, "--crs", "EPSG:26958"])
    assert res.exit_code == 0, res.stderr
    assert json.loads(out.read_text())["parcels"][0]["status"] == "compliant"


def test_a_point_file_in_another_unit_is_found_by_its_counts_and_a_right_one_is_not():
    """Library level, both ways: the lot's points in Florida East ftUS numbers (EPSG:2236) are
    near it as given; times 1200/3937 (metres) given as EPSG:2236 they are near only read as
    metres; given as the metre zone (EPSG:26958, as in the reverse slip) only read as feet
    or US survey feet (2 ppm apart: both are tried, and the one of which EPSG has the zone,
    ftUS, is named). A UTM file in its own metres, and numbers off in every unit (times 7), are
    not taken for a slip."""
    from posting.sanity import parcels_extent, unit_counts, unit_slip_files

    to_sp = Transformer.from_crs(4326, 2236, always_xy=True)
    x0, y0 = to_sp.transform(-81.1, 28.74)
    lot = shapely.box(x0, y0, x0 + 1000, y0 + 1000)
    prep = prepare_parcels(parcels(lot, crs="EPSG:2236"))
    ring = shapely.get_exterior_ring(lot)
    xy = shapely.get_coordinates(shapely.line_interpolate_point(ring, np.arange(16) * 250.0))
    to_utm = Transformer.from_crs(2236, 26917, always_xy=True)
    utm = np.column_stack(to_utm.transform(xy[:, 0], xy[:, 1]))
    read = combine_markers(
        markers(xy, crs="EPSG:2236"),  # right
        markers(xy * US_FT_M, crs="EPSG:2236"),  # metres given as ftUS
        markers(xy, crs="EPSG:26958"),  # ftUS given as metres
        markers(utm, crs="EPSG:26917"),  # right (UTM metres)
        markers(xy * 7, crs="EPSG:2236"),  # off in every unit
    )
    extent = parcels_extent(prep)
    # (file, with a position, as given, read as metres, as feet, as US survey feet); 0 for a
    # unit within 1 % of the CRS's own, which is not tried
    assert [c[:6] for c in unit_counts(read, extent)] == [
        (0, 16, 16, 0, 0, 0),  # near as given: not tried
        (1, 16, 0, 16, 0, 0),
        (2, 16, 0, 0, 16, 16),
        (3, 16, 16, 0, 0, 0),
        (4, 16, 0, 0, 0, 0),
    ]
    slips = [(s[0], s[2:]) for s in unit_slip_files(read, extent)]
    assert slips == [
        (read.files[1][0], (16, 0, 16, "metres")),
        (read.files[2][0], (16, 0, 16, "US survey feet")),
    ]
    with pytest.raises(InputError, match=r"read as metres.*EPSG:26958"):
        check_inputs(prep, read)
    ftus = r"read as US survey feet.*zone, EPSG:2236 \(NAD83 / Florida East \(ftUS\)\)"
    with pytest.raises(InputError, match=ftus):
        check_inputs(prep, markers(xy, crs="EPSG:26958"))


def test_parcels_in_metres_given_the_feet_zone_are_refused_by_their_gps_signs(runner, tmp_path):
    """A 1,000 ft lot in New Mexico East metres (EPSG:32112) as a CSV of WKT given --crs
    EPSG:2257 (the zone in US survey feet): read so it lies 3.28 times nearer the zone's origin,
    still in New Mexico (at 105.55 W, 32.06 N, 293 km from where it is, by pyproj's Geod),
    every length 3.281 times too short; its four corner signs, surveyed by GPS in longitude
    and latitude, stood 293 km away and the lot was unposted. Refused,
    naming the parcels file and the metre zone; given it, the lot is read with its 1,000 ft
    sides (perimeter 4,000 ft, the grid's, within New Mexico East's 1:10,000)."""
    from pyproj import CRS

    to_m = Transformer.from_crs(4326, 32112, always_xy=True)
    x0, y0 = to_m.transform(-104.35, 34.5)
    side = 1000 * 0.3048
    lot = shapely.box(x0, y0, x0 + side, y0 + side)
    lots = tmp_path / "lots.csv"
    lots.write_text(f'pid,WKT\nA,"{lot.wkt}"\n')
    corners = shapely.get_coordinates(lot)[:4]
    lon, lat = Transformer.from_crs(32112, 4326, always_xy=True).transform(*corners.T)
    signs = tmp_path / "gps.csv"
    pd.DataFrame({"lon": lon, "lat": lat}).to_csv(signs, index=False)
    # the zone's unit is the US survey foot: read in it, a length is 1200/3937 as long
    us = CRS.from_epsg(2257).axis_info[0].unit_conversion_factor
    assert us == pytest.approx(US_FT_M, rel=1e-12)
    out = tmp_path / "r.json"
    base = ["check", str(lots), "--signs", str(signs), "--id-field", "pid", "--json", str(out)]
    res = runner.invoke(main, [*base, "--crs", "EPSG:2257"])
    _fails_cleanly(
        res,
        "lots.csv: none of the 4 markers of",
        "but 4 would with the parcels' numbers read as metres: the parcels' coordinates are in "
        "metres, not in the US survey feet of their CRS, NAD83 / New Mexico East (ftUS)",
        f"measured {1 / US_FT_M:.4g} times too short",
        "EPSG:32112 (NAD83 / New Mexico East) (--crs EPSG:32112)",
    )
    res = runner.invoke(main, [*base, "--crs", "EPSG:32112"])
    assert res.exit_code in (0, 1), res.stderr
    parcel = json.loads(out.read_text())["parcels"][0]
    assert parcel["signs"] == 4
    assert parcel["perimeter_ft"] == pytest.approx(4000.0, abs=0.01)


# -- projected numbers under a geographic CRS -----------------------------------------------


def _state_plane_csv(path, x="x", y="y") -> None:
    """The sample signs in Florida East State Plane (US survey feet), as x/y columns."""
    table = pd.read_csv(SIGNS, dtype=str, keep_default_na=False)
    lon = pd.to_numeric(table["lon"], errors="coerce").to_numpy()
    lat = pd.to_numeric(table["lat"], errors="coerce").to_numpy()
    ex, ny = Transformer.from_crs(4326, 2236, always_xy=True).transform(lon, lat)
    table = table.drop(columns=["lon", "lat"])
    table[x] = np.round(ex, 3)
    table[y] = np.round(ny, 3)
    table.to_csv(path, index=False)


def test_state_plane_feet_under_a_geographic_crs_name_that_cause(runner, tmp_path):
    """x/y in State Plane feet with --crs EPSG:4326: refused as projected numbers read as
    degrees, not as 'lon and lat swapped' row by row."""
    sp = tmp_path / "sp.csv"
    _state_plane_csv(sp)
    res = runner.invoke(main, ["check", PARCELS, "--signs", str(sp), "--crs", "EPSG:4326"])
    line = _fails_cleanly(res, str(sp), "not degrees", "projected coordinates", "--crs")
    assert "swapped" not in line
    # with their CRS, the same file gives the same verdicts as the lon/lat one
    ok = runner.invoke(main, ["check", PARCELS, "--signs", str(sp), "--crs", "EPSG:2236", "-q"])
    ref = runner.invoke(main, ["check", PARCELS, "--signs", SIGNS, "-q"])
    assert ok.exit_code == ref.exit_code == 1
    got = runner.invoke(
        main, ["check", PARCELS, "--signs", str(sp), "--crs", "EPSG:2236", "--json", "-", "-q"]
    )
    want = runner.invoke(main, ["check", PARCELS, "--signs", SIGNS, "--json", "-", "-q"])
    statuses = [[p["status"] for p in json.loads(r.stdout)["parcels"]] for r in (got, want)]
    assert statuses[0] == statuses[1]


def test_state_plane_feet_in_lon_lat_columns_say_to_rename_them(runner, tmp_path):
    sp = tmp_path / "sp.csv"
    _state_plane_csv(sp, x="lon", y="lat")
    res = runner.invoke(main, ["check", PARCELS, "--signs", str(sp)])
    _fails_cleanly(res, "not degrees", "name the columns x/y and give their CRS with --crs")


def test_a_few_rows_out_of_range_stay_rows_with_the_likely_cause(tmp_path):
    """One row with lat/lon swapped among good rows is that row's problem, said so."""
    csv = tmp_path / "s.csv"
    csv.write_text("lon,lat\n-81.1,28.7\n28.7,-181.1\n-81.2,2870000\n-81.1,28.8\n")
    m = read_markers([str(csv)])
    assert m.reason[0] is None and m.reason[3] is None
    assert "latitude -181.1 is outside -90..90 (are lon and lat swapped?)" == m.reason[1]
    assert "not an angle (a projected coordinate?)" in m.reason[2]


# -- files without markers --------------------------------------------------------------------

TRACK_ONLY = """<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
<trk><name>walk</name><trkseg>
<trkpt lat="28.745" lon="-81.120"/><trkpt lat="28.746" lon="-81.120"/>
<trkpt lat="28.747" lon="-81.120"/></trkseg></trk>
<rte><rtept lat="28.745" lon="-81.119"/><rtept lat="28.746" lon="-81.119"/></rte>
</gpx>
"""


def test_gpx_without_waypoints_counts_its_points_and_says_how_to_use_them(runner, tmp_path):
    gpx = tmp_path / "walk.gpx"
    gpx.write_text(TRACK_ONLY)
    res = runner.invoke(main, ["check", PARCELS, "--signs", str(gpx)])
    _fails_cleanly(
        res,
        str(gpx),
        "no waypoints: it has 3 track points and 2 route points",
        "mark each sign as a waypoint",
        "gpsbabel -i gpx -f walk.gpx -x transform,wpt=trk",
    )


@pytest.mark.parametrize(
    ("name", "text", "needle"),
    [
        ("header.csv", "lon,lat,kind\n", "no markers: the file has no rows"),
        ("zero.csv", "", "the file is empty"),
        ("blank.csv", "\n\n  \n", "the file is empty"),
        ("none.geojson", '{"type":"FeatureCollection","features":[]}', "no markers"),
        ("none.gpx", TRACK_ONLY.split("<trk>")[0] + "</gpx>\n", "no markers"),
        (
            "none.kml",
            '<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2">'
            "<Document><name>plan</name></Document></kml>",
            "no markers",
        ),
    ],
)
def test_a_sign_file_without_markers_is_refused(runner, tmp_path, name, text, needle):
    path = tmp_path / name
    path.write_text(text)
    res = runner.invoke(main, ["check", PARCELS, "--signs", str(path)])
    _fails_cleanly(res, str(path), needle)


def test_an_empty_sign_file_among_others_is_a_warning(runner, tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("lon,lat\n")
    res = runner.invoke(main, ["check", *SAMPLE_ARGS, "--signs", str(empty)])
    assert res.exit_code == 1
    assert f"warning: {empty}: has no rows (no markers)" in res.stderr
    assert "markers: 232 read" in res.stderr


# -- the wrong layer as parcels ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("layer", "needle"),
    [
        ("dwellings.geojson", "holds 13 Point feature(s) and no polygon: parcels are polygons"),
        ("fences.geojson", "holds 2 LineString feature(s) and no polygon"),
        ("signs.csv", "holds 227 Point feature(s)"),
    ],
)
def test_a_point_or_line_layer_given_as_parcels_is_one_clear_error(runner, layer, needle):
    res = runner.invoke(main, ["check", str(SAMPLE / layer), "--signs", SIGNS])
    line = _fails_cleanly(res, needle)
    if "Point" in needle:
        assert "if these are the markers, give them with --signs" in line
    else:
        assert "make polygons of them first" in line


def test_a_parcel_layer_with_a_stray_point_keeps_the_point_as_an_invalid_row():
    lay = parcels(square(), shapely.Point(5, 5))
    prep = prepare_parcels(lay)
    assert prep.invalid.tolist() == [None, "a Point is not a parcel: parcels are polygons"]


# -- Shapefile-shortened column names ----------------------------------------------------------


def _shapefile(path) -> None:
    table = pd.read_csv(SIGNS)
    table = table.dropna(subset=["lon", "lat"])
    gdf = gpd.GeoDataFrame(
        table, geometry=gpd.points_from_xy(table["lon"], table["lat"]), crs="EPSG:4326"
    )
    # what a Shapefile keeps of each name (pyogrio would cut them itself, with a warning)
    gdf = gdf.rename(columns={c: c[:10] for c in table.columns})
    pyogrio.write_dataframe(gdf, path)


def test_shapefile_shortened_columns_are_read_as_the_full_ones(runner, tmp_path):
    """letter_height_in is saved as letter_hei and name_on_sign as name_on_si: both are read
    (the letter-height rule is checked, not 'not checked'), with a warning that says so, and
    the verdicts are those of the CSV."""
    shp = tmp_path / "signs.shp"
    _shapefile(shp)
    assert {"letter_hei", "name_on_si"} <= set(pyogrio.read_info(shp)["fields"])
    args = [PARCELS, "--id-field", "parcel_id", "--owner-field", "owner", "--json", "-"]
    res = runner.invoke(main, ["check", *args, "--signs", str(shp)])
    ref = runner.invoke(main, ["check", *args, "--signs", SIGNS, "-q"])
    got, want = json.loads(res.stdout), json.loads(ref.stdout)
    assert [p["status"] for p in got["parcels"]] == [p["status"] for p in want["parcels"]]
    unchecked = {x["rule"] for x in got["not_checked"]}
    assert not {"letter_height", "name_on_sign"} & unchecked
    assert (
        f"{shp}: column(s) 'letter_hei' read as letter_height_in, 'name_on_si' read as "
        "name_on_sign (a Shapefile keeps 10 characters of a column name)"
    ) in res.stderr


@pytest.mark.parametrize(
    ("short", "canonical"),
    [
        ("letter_hei", "letter_height_in"),
        ("name_on_si", "name_on_sign"),
        ("address_on", "address_on_sign"),
        ("phone_on_s", "phone_on_sign"),
        ("facing_deg", "facing_deg"),
        ("survey_dat", "surveyed"),
        ("paint_colo", "color"),
    ],
)
def test_each_shortened_name_is_an_alias(short, canonical):
    from posting.attributes import find_column

    assert find_column([short.upper()], canonical) == short.upper()


# -- outputs: extension, closed stdout ---------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "name", "needle"),
    [
        ("--geojson", "out.gpkg", "--geojson writes GeoJSON, not .gpkg; name the file .geojson"),
        ("--json", "out.csv", "--json writes JSON, not .csv; name the file .json"),
        ("--csv", "out.json", "--csv writes CSV, not .json"),
        ("--map", "out.png", "--map writes HTML, not .png; name the file .html or .htm"),
        ("--json", "report", "--json writes JSON; name the file .json"),
    ],
)
def test_an_output_named_for_another_format_is_refused(runner, tmp_path, option, name, needle):
    out = tmp_path / name
    res = runner.invoke(main, ["check", *SAMPLE_ARGS, option, str(out)])
    _fails_cleanly(res, needle)
    assert not out.exists()


def test_plan_output_extension_must_match_its_format(runner, tmp_path):
    res = runner.invoke(
        main, ["plan", *SAMPLE_ARGS, "-o", str(tmp_path / "p.kml"), "--format", "gpx"]
    )
    _fails_cleanly(res, "--output writes GPX, not .kml; name the file .gpx")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "status"),
    [
        (["check", *SAMPLE_ARGS, "--json", "-", "-q"], 1),
        (["check", *SAMPLE_ARGS, "--geojson", "-", "-q"], 1),
        (["check", *SAMPLE_ARGS, "--workers", "1", "--geojson", "-", "-q"], 1),
        (["rules", "list"], 0),
    ],
)
def test_a_closed_stdout_ends_quietly_with_the_usual_status(args, status):
    """`posting check ... --json - | head -c 100`: the reader goes after 100 bytes; the
    report is larger than a pipe's buffer, so the write meets a closed pipe. The partitioned
    run exited 0 there, "every parcel compliant", for the sample's 1 (a script with
    `set -o pipefail` took it for a pass)."""
    with subprocess.Popen(
        [sys.executable, str(ROOT / "cli.py"), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as proc:
        assert len(proc.stdout.read(100)) == 100
        proc.stdout.close()
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=120) == status
    assert err == ""


def test_layer_nope_lists_the_layers_the_file_has(runner, tmp_path):
    gpkg = tmp_path / "county.gpkg"
    lay = gpd.read_file(PARCELS)
    pyogrio.write_dataframe(lay, gpkg, layer="parcels_2025")
    pyogrio.write_dataframe(lay.iloc[:3], gpkg, layer="parcels_2024", append=False)
    res = runner.invoke(main, ["check", str(gpkg), "--layer", "nope", "--signs", SIGNS])
    _fails_cleanly(
        res,
        str(gpkg),
        "there is no layer 'nope' (--layer); the layers are: 'parcels_2025', 'parcels_2024'",
    )
    ok = runner.invoke(main, ["check", str(gpkg), "--layer", "parcels_2024", "--signs", SIGNS])
    assert "3 parcels checked" in ok.stderr


@pytest.mark.parametrize("name", ["county.gpkg", "county.geojson"])
def test_a_file_of_several_layers_reads_the_first_and_says_so_once(runner, tmp_path, name):
    """A GeoPackage of two layers, none named: the first is read (as GDAL does), and one
    warning says so and how to choose another; GDAL's own warning (once as a Python warning
    with its line of source, twice more from GDAL) is no longer printed. Named .geojson
    (GDAL reads it by its content), GDAL's warning was printed: a GeoJSON file's layers were
    not asked for."""
    gpkg = tmp_path / "county.gpkg"
    lay = gpd.read_file(PARCELS)
    pyogrio.write_dataframe(lay, gpkg, layer="parcels_2025")
    pyogrio.write_dataframe(lay.iloc[:3], gpkg, layer="parcels_2024", append=False)
    gpkg = gpkg.rename(tmp_path / name)
    res = runner.invoke(main, ["check", str(gpkg), "--signs", SIGNS])
    assert res.exit_code == 1, res.stderr
    assert f"{len(lay)} parcels checked" in res.stderr
    said = ("layers (", "GDAL", "Warning", "More than one layer")
    noted = [line for line in res.stderr.splitlines() if any(x in line for x in said)]
    assert noted == [
        f"  warning: {gpkg}: holds 2 layers ('parcels_2025', 'parcels_2024'); read the first; "
        "choose another with --layer"
    ], res.stderr


def test_a_first_layer_of_points_names_the_file_s_layers(runner, tmp_path):
    """The signs saved as the first layer of the GeoPackage that holds the parcels: refused as
    a layer of points, naming the layers and --layer (not "give the markers with --signs")."""
    gpkg = tmp_path / "survey.gpkg"
    signs = pd.read_csv(SIGNS)
    points = gpd.GeoDataFrame(geometry=gpd.points_from_xy(signs["lon"], signs["lat"]), crs=4326)
    pyogrio.write_dataframe(points, gpkg, layer="signs")
    pyogrio.write_dataframe(gpd.read_file(PARCELS), gpkg, layer="parcels", append=False)
    res = runner.invoke(main, ["check", str(gpkg), "--signs", SIGNS])
    _fails_cleanly(
        res,
        f"{gpkg}: its first layer, 'signs' (of 2: 'signs', 'parcels'), holds {len(signs)} Point "
        "feature(s) and no polygon: parcels are polygons; choose the parcels' layer with --layer",
    )


# -- adjoining parcels of one owner ------------------------------------------------------------


def test_adjoining_parcels_of_one_owner_get_the_merge_owner_hint(runner):
    """N01-N04 (Harney Timber LLC) adjoin in a row: three pairs; the hint names the flag and
    the owner column; with --merge-owner, or without --owner-field, there is no such note."""
    res = runner.invoke(main, ["check", *SAMPLE_ARGS])
    notes = [line for line in res.stderr.splitlines() if "same owner" in line]
    assert notes == [
        f"  warning: {PARCELS}: 3 pair(s) of adjoining parcels have the same owner: 'N01' and "
        "'N02' (Harney Timber LLC), 'N02' and 'N03' (Harney Timber LLC), 'N03' and 'N04' "
        "(Harney Timber LLC). Each parcel is checked on its own, so the line between them must "
        "be posted too; if they are one property, --merge-owner owner checks only its outer "
        "boundary"
    ]
    merged = runner.invoke(main, ["check", *SAMPLE_ARGS, "--merge-owner", "owner"])
    assert "same owner" not in merged.stderr
    no_owner = runner.invoke(main, ["check", PARCELS, "--signs", SIGNS])
    assert "same owner" not in no_owner.stderr


def test_same_owner_pairs_by_hand():
    """Three 100 ft lots in a row and one diagonal: A|B share 100 ft (one owner, any case),
    B|C share 100 ft (other owners), D touches B at a corner only: one pair, (0, 1)."""
    lots = [square(100, 0, 0), square(100, 100, 0), square(100, 200, 0), square(100, 200, 100)]
    owners = ["Doe LLC", " doe llc", "Roe", "Doe LLC"]
    prep = prepare_parcels(parcels(*lots, owners=owners))
    notes = same_owner_notes(prep, lambda p: f"--{p.replace('_', '-')}")
    assert len(notes) == 1 and "1 pair(s)" in notes[0] and "'0' and '1'" in notes[0]
    g = np.asarray(lots, dtype=object)
    key = np.array(["a", "a", "b", "a"], dtype=object)
    a, b = adjoining_pairs(g, key, np.zeros(4, int), np.full(4, None), 1.0)
    assert list(zip(a.tolist(), b.tolist(), strict=True)) == [(0, 1)]
    # a 0.5 ft digitising sliver between two lots does not keep them apart (1 ft snap)
    g2 = np.asarray([square(100, 0, 0), square(100, 100.5, 0)], dtype=object)
    a, b = adjoining_pairs(g2, key[:2], np.zeros(2, int), np.full(2, None), 1.0)
    assert list(zip(a.tolist(), b.tolist(), strict=True)) == [(0, 1)]


def test_adjoining_pairs_by_a_shared_edge_or_by_the_measure():
    """An edge both lots have (the same two vertices) settles a pair when it is 5 ft long or
    more; a shorter one, or a line the lots split differently, is measured: the stretch of the
    first lot's boundary within the 1 ft snap of the second, worked out by hand below."""
    square = shapely.Polygon([(0, 0), (10, 0), (10, 2), (10, 10), (0, 10)])  # a vertex at (10, 2)
    lots = [
        square,
        shapely.box(10, 0, 20, 2),  # shares the 2 ft edge (10,0)-(10,2): within 1 ft of it, 3 ft
        # of the square's east side and 1 ft of its south side, 4 ft < 5 ft: apart
        shapely.box(10, 2, 20, 10),  # shares the 8 ft edge (10,2)-(10,10): adjoins
        shapely.Polygon([(0, 10), (5, 10), (10, 10), (10, 20), (0, 20)]),  # the square's north
        # side split at (5, 10): no edge in common, but 10 ft of it within the snap: adjoins
    ]  # and the two east lots share the 10 ft edge (10,2)-(20,2); the north and the upper east
    # lot meet at (10, 10): 1 ft of each side of the corner within the snap, 2 ft: apart
    g = np.asarray(lots, dtype=object)
    a, b = adjoining_pairs(
        g, np.full(4, "a", dtype=object), np.zeros(4, int), np.full(4, None), 1.0
    )
    assert list(zip(a.tolist(), b.tolist(), strict=True)) == [(0, 2), (0, 3), (1, 2)]


# -- running posting after set-up ------------------------------------------------------------


def test_readme_says_how_to_run_posting_after_set_up():
    readme = (ROOT / "README.md").read_text()
    assert "scripts/posting check" in readme
    assert ".venv/bin/posting" in readme
    assert os.access(ROOT / "scripts" / "posting", os.X_OK)


def test_scripts_posting_runs_the_command_from_anywhere(tmp_path):
    res = subprocess.run(
        [str(ROOT / "scripts" / "posting"), "check", PARCELS, "--signs", SIGNS, "-q"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert res.returncode == 1, res.stderr
    assert res.stderr == ""


def test_cli_py_run_by_a_python_without_the_dependencies_says_what_to_do():
    """``python -S`` leaves out site-packages: the Python has none of the dependencies."""
    res = subprocess.run(
        [sys.executable, "-S", str(ROOT / "cli.py"), "check", PARCELS, "--signs", SIGNS],
        capture_output=True,
        text=True,
        check=False,
    )
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.stderr
    assert "does not have posting's dependencies (click, numpy, pandas" in lines[0]
    assert str(ROOT / ".venv" / "bin" / "posting") in lines[0] or "scripts/setup" in lines[0]


@pytest.mark.parametrize("as_what", ["parcels", "signs"])
def test_a_report_given_as_an_input_is_named_as_a_report(runner, tmp_path, as_what):
    # a report of posting's own given back as the parcels or the signs: it was "not a readable
    # geospatial file: its content is none of GeoJSON, ..." (found by the plan audit)
    report = tmp_path / "report.json"
    res = runner.invoke(main, ["check", *SAMPLE_ARGS, "--json", str(report), "-q"])
    assert res.exit_code in (0, 1) and report.exists()
    args = (
        [str(report), "--signs", SIGNS]
        if as_what == "parcels"
        else [PARCELS, "--signs", str(report)]
    )
    line = _fails_cleanly(runner.invoke(main, ["check", *args]), "is a posting report (JSON)")
    assert line.endswith(
        f"not a layer of features: give the files it was made from (its parcels were {PARCELS})"
    )


def test_a_marker_a_mile_off_in_a_frame_by_the_parcels_is_no_unit_slip():
    """Lots 5,000 ft from the origin of a local frame in feet and one marker 3,900 ft off
    them (an unassigned sign, say): read as metres it stands 1,200 ft off, within the margin
    of near, so one marker of one was taken for a unit slip of the parcels and the run refused
    (found by the partitioned lot-attributes case in CI). A slip of unit moves markers by
    2.3 times their distance from the origin, hundreds of miles in State Plane: a file within
    7 miles of the parcels as given is not tried; the same file 60 miles off still is."""
    from posting.sanity import parcels_extent, unit_counts

    lots = parcels(*(shapely.box(5000 + 100 * i, 5000, 5100 + 100 * i, 5100) for i in range(3)))
    prep = prepare_parcels(lots)
    near = markers([(9000.0, 9000.0)])
    extent = parcels_extent(prep)
    # (file, with a position, near as given, then the units: none tried)
    assert unit_counts(near, extent, parcels_crs=lots.crs) == [(0, 1, 1, 0, 0, 0, 0, 0, 0)]
    check_inputs(prep, near).result()  # (no refusal)
    # 60 miles (316,800 ft) off, in a frame whose origin is by the parcels: tried
    far = markers([(5000.0 + 316_800 * 0.3048, 5000.0 * 0.3048)])
    counts = unit_counts(far, extent, parcels_crs=lots.crs)
    assert counts[0][:3] == (0, 1, 0)
