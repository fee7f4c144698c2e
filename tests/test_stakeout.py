"""A surveyor's point file (PNEZD) of the plan: the round trip through our own reader, the
positions worked out by hand, the CRS chosen or refused, and the file's shape."""

from __future__ import annotations

import json
import math
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
import shapely
from click.testing import CliRunner
from pyproj import CRS, Transformer

from posting import check, read_markers, read_parcels
from posting.cli import main
from posting.crs import stakeout_zones
from posting.planning import plan
from posting.stakeout import pnezd_descriptions, render_pnezd, with_stakeout

US_FT = 1200 / 3937 / 0.3048  # international feet in a US survey foot (1.000002)
X0, Y0, SIDE = 600000.0, 1600000.0, 900.0  # Florida East (EPSG:2236), near Orlando
HEADER = "point,northing,easting,elevation,description"


class Runner(CliRunner):
    def invoke(self, *args, **kwargs):
        res = super().invoke(*args, **kwargs)
        if res.exception is not None and not isinstance(res.exception, SystemExit):
            raise res.exception
        return res


@pytest.fixture
def runner() -> CliRunner:
    return Runner()


@pytest.fixture
def job(tmp_path):
    """A lot 900 US survey feet square in Florida East (EPSG:2236), and the surveyor's job:
    a monument at each corner (IRF, IPF) and a sign 3 ft inside the middle of the south, east
    and north sides. The west side and the corners have none."""
    lot = shapely.box(X0, Y0, X0 + SIDE, Y0 + SIDE)
    gpd.GeoDataFrame({"parcel_id": ["12-345-678"]}, geometry=[lot], crs="EPSG:2236").to_file(
        tmp_path / "lot.geojson"
    )
    inside = 3 / US_FT  # 3 international feet, in US survey feet
    rows = [(Y0, X0, "IRF"), (Y0, X0 + SIDE, "IRF"), (Y0 + SIDE, X0 + SIDE, "IPF")]
    rows += [(Y0 + SIDE, X0, "IRF 5/8")]
    rows += [(Y0 + inside, X0 + SIDE / 2, "SIGN"), (Y0 + SIDE / 2, X0 + SIDE - inside, "SIGN")]
    rows += [(Y0 + SIDE - inside, X0 + SIDE / 2, "SIGN")]
    (tmp_path / "job.csv").write_text(
        HEADER + "\n" + "".join(f"{k + 1},{n},{e},31.2,{d}\n" for k, (n, e, d) in enumerate(rows))
    )
    return tmp_path


def _args(d):
    return [
        str(d / "lot.geojson"),
        "--signs",
        str(d / "job.csv"),
        "--crs",
        "EPSG:2236",
        "--signs-where",
        "description=SIGN*",
        "--rules",
        "florida",
        "--id-field",
        "parcel_id",
    ]


def _points(path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def test_the_point_file_reads_back_as_the_plan_and_the_lot_complies(runner, job):
    """The key round trip: plan, write PNEZD in the lot's own State Plane zone (US survey
    feet), check again with the job's signs and the point file read back with ``--crs``: the
    lot complies, and each point is where the plan's lon/lat export says, to 0.002 ft."""
    stake = job / "stake.csv"
    res = runner.invoke(
        main,
        ["plan", *_args(job), "-o", str(stake), "--format", "pnezd", "--start-point", "101"],
    )
    assert res.exit_code == 0, res.stderr
    assert "northing and easting in US survey feet of EPSG:2236" in res.stderr
    assert "wrote " + str(stake) + ": 5 points 101-105 (pnezd, EPSG:2236" in res.stderr
    res = runner.invoke(main, ["plan", *_args(job), "-o", str(job / "plan.csv"), "-q"])
    assert res.exit_code == 0, res.stderr

    raw = stake.read_bytes()
    assert raw.startswith((HEADER + "\r\n").encode()) and raw.count(b"\r\n") == 6
    assert raw.decode("ascii")  # (ASCII only)
    pts = _points(stake)
    assert list(pts.columns) == HEADER.split(",")
    assert pts["point"].tolist() == ["101", "102", "103", "104", "105"]
    assert (pts["elevation"] == "").all()
    assert all(len(v.split(".")[1]) == 3 for v in [*pts["northing"], *pts["easting"]])
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    assert raw.decode().replace("\r\n", "\n") in readme  # (the README shows this very file)
    lonlat = pd.read_csv(job / "plan.csv")
    assert pts["description"].tolist() == [
        f"SIGN NEW {role.upper()} 12-345-678" for role in lonlat["role"]
    ]
    # the lon/lat export projected independently (pyproj, WGS 84 to Florida East)
    e, n = Transformer.from_crs(4326, 2236, always_xy=True).transform(
        lonlat["lon"].to_numpy(), lonlat["lat"].to_numpy()
    )
    assert np.abs(pts["northing"].astype(float).to_numpy() - n).max() < 0.002 / US_FT
    assert np.abs(pts["easting"].astype(float).to_numpy() - e).max() < 0.002 / US_FT

    # read back by our own reader, as a job's file: every point where the file says
    m = read_markers([stake], crs="EPSG:2236", where="description=SIGN*")
    assert np.array_equal(m.x, pts["easting"].astype(float).to_numpy())
    assert np.array_equal(m.y, pts["northing"].astype(float).to_numpy())

    # and checked again with the job's signs: compliant, 3 old signs and 5 new
    res = runner.invoke(
        main,
        [
            "check",
            *_args(job),
            "--signs",
            str(stake),
            "--json",
            str(job / "r.json"),
            "-q",
        ],
    )
    assert res.exit_code == 0, res.stderr
    [p] = json.loads((job / "r.json").read_text())["parcels"]
    assert (p["status"], p["markers_counted"], p["missing_corners"]) == ("compliant", 8, [])


def test_the_planned_points_stand_where_setback_and_spacing_put_them(job):
    """Worked by hand. The lot's sides are 900 US survey feet (900.0018 ft); the four corners
    have no sign, so each gets a corner marker 3 ft from it on the inward bisector turned 5°
    towards the next side (walking with the lot on the left, counter-clockwise): 3 sin 40° =
    1.9284 ft from that side and 3 cos 40° = 2.2981 ft along it. The west side (north to
    south) has no sign: the gap from the NW corner marker (2.2981 ft south of the corner) to
    the SW one (2.2981 ft east of the SW corner) is 900.0018 ft along the boundary, over the
    499.8 ft spacing, so one interval marker goes to its middle, 2.2981 + 450.0009 = 452.2990
    ft south of the NW corner, 3 ft inside: N = 1,600,900 - 452.2990 / 1.000002 = 1,600,447.702,
    E = 600,000 + 3 / 1.000002 = 600,002.99999 (US survey feet). The other sides' gaps (corner
    marker to the middle sign, 447.7 ft) are within it.

    The points are the plan's positions as checked: its longitudes and latitudes with 7
    decimals (1e-7 degree is 0.036 ft of latitude, 0.032 ft of longitude here), so each stands
    within half of that of the figure, and the interval marker, midway between two rounded
    corner markers, within half of theirs as well: 0.035 ft at most."""
    lots = read_parcels(job / "lot.geojson", id_field="parcel_id")
    signs = read_markers([job / "job.csv"], crs="EPSG:2236", where="description=SIGN*")
    p = with_stakeout(plan(check(lots, signs)))  # the lot's own CRS: Florida East
    assert p.stakeout.label == "EPSG:2236 (NAD83 / Florida East (ftUS))"
    pts = _points_of(render_pnezd(p))
    k = US_FT
    a, b = 3 * math.cos(math.radians(40)) / k, 3 * math.sin(math.radians(40)) / k
    x1, y1 = X0 + SIDE, Y0 + SIDE
    expect = {
        ("corner", "SE"): (Y0 + a, x1 - b),  # turned north, along the east side
        ("corner", "NE"): (y1 - b, x1 - a),  # turned west, along the north side
        ("corner", "NW"): (y1 - a, X0 + b),  # turned south, along the west side
        ("corner", "SW"): (Y0 + b, X0 + a),  # turned east, along the south side
        ("interval", "W"): (y1 - (3 * math.cos(math.radians(40)) + SIDE * k / 2) / k, X0 + 3 / k),
    }
    got = {}
    for d, n, e in zip(pts["description"], pts["northing"], pts["easting"], strict=True):
        n, e = float(n), float(e)
        where = ("S" if n < Y0 + 450 else "N") + ("W" if e < X0 + 450 else "E")
        if d.startswith("SIGN NEW INTERVAL"):
            where = "W"
        got[(d.split()[2].lower(), where)] = (n, e)
    assert got.keys() == expect.keys()
    assert round(expect[("interval", "W")][0], 3) == 1600447.702  # (the figure above)
    for key, (n, e) in expect.items():
        assert abs(got[key][0] - n) < 0.035 and abs(got[key][1] - e) < 0.035, (key, got[key])


def _points_of(text: str) -> pd.DataFrame:
    import io

    return pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)


def test_a_stakeout_in_another_zone_and_datum_is_said(runner, job):
    """The lot in NAD83 Florida East, the point file in NAD83(2011) Florida East (EPSG:6438):
    the same zone's coordinates on another realisation of NAD83, which PROJ relates here only
    through WGS 84 (a null shift, the numbers unchanged) without NOAA's NADCON5 grids: the
    plan says so, on stderr and in the summary's warnings, with the CRS and unit."""
    out, summary = job / "stake.txt", job / "s.json"
    args = ["plan", *_args(job), "-o", str(out), "--format", "pnezd"]
    res = runner.invoke(main, [*args, "--stakeout-crs", "6438", "--summary", str(summary)])
    assert res.exit_code == 0, res.stderr
    s = json.loads(summary.read_text())
    assert s["stakeout"] == {
        "format": "pnezd",
        "crs": "EPSG:6438 (NAD83(2011) / Florida East (ftUS))",
        "unit": "US survey foot",
        "decimals": 3,
        "start_point": 1,
        "header": True,
        "columns": HEADER.split(","),
    }
    [w] = [w for w in s["warnings"] if "point file's CRS" in w]
    assert "its datum (NAD83(2011)) is not the parcels' (NAD83, " in w
    assert "warning: the point file's CRS EPSG:6438" in res.stderr
    # the same numbers as in the lot's own zone (PROJ's null shift), to the last decimal
    res = runner.invoke(main, [*args, "--stakeout-crs", "2236", "-q", "-o", str(job / "a.csv")])
    own = _points(job / "a.csv")
    other = _points(out)
    assert (own[["northing", "easting"]] == other[["northing", "easting"]]).all().all()
    # in UTM, metres: the lot's middle by an independent projection
    res = runner.invoke(main, [*args, "--stakeout-crs", "EPSG:26917", "-q", "--no-header"])
    assert res.exit_code == 0, res.stderr
    first = out.read_text().splitlines()[0].split(",")
    assert first[0] == "1" and first[3] == "" and len(first) == 5
    e, n = Transformer.from_crs(2236, 26917, always_xy=True).transform(X0 + 450, Y0 + 450)
    assert abs(float(first[1]) - n) < 300 and abs(float(first[2]) - e) < 300  # (in the lot)


def test_without_a_header_our_reader_asks_for_it(runner, job):
    out = job / "stake.csv"
    args = ["plan", *_args(job), "-o", str(out), "--format", "pnezd", "--no-header", "-q"]
    assert runner.invoke(main, args).exit_code == 0
    assert not out.read_text().startswith("point")
    res = runner.invoke(main, ["check", *_args(job), "--signs", str(out)])
    assert res.exit_code == 2 and "has no header line" in res.stderr
    assert "P,N,E,Z,D" in res.stderr


def test_lots_in_longitude_latitude_need_a_stakeout_crs_and_are_told_their_zone(runner, job):
    """Lots near Orlando in WGS 84: no default CRS for a point file; the hint names Florida
    East in US survey feet (EPSG:6438), whose box holds them deepest (1.0° inside it, 0.07°
    inside Florida West's), found in PROJ's database without the network."""
    lots = gpd.read_file(job / "lot.geojson").to_crs(4326)
    lots.to_file(job / "lotll.geojson")
    args = ["plan", str(job / "lotll.geojson"), "--id-field", "parcel_id", "--format", "pnezd"]
    args += ["-o", str(job / "s.csv")]
    res = runner.invoke(main, args)
    assert res.exit_code == 2 and res.stderr.count("\n") == 1
    assert "the parcels are in WGS 84 (longitude/latitude)" in res.stderr
    assert "give it with --stakeout-crs, e.g. EPSG:6438 (NAD83(2011) / Florida East (ftUS))" in (
        res.stderr
    )
    assert not (job / "s.csv").exists()
    res = runner.invoke(main, [*args, "--stakeout-crs", "EPSG:4269"])
    assert res.exit_code == 2 and res.stderr.count("\n") == 1
    assert "--stakeout-crs EPSG:4269: NAD83 is geographic" in res.stderr
    assert "EPSG:6438" in res.stderr
    res = runner.invoke(main, [*args, "--stakeout-crs", "EPSG:6438", "-q"])
    assert res.exit_code == 0, res.stderr
    assert len(_points(job / "s.csv")) == 8  # unposted: 4 corners, one in each side


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--start-point", "0"], "--start-point '0': a point number is a whole number from 1"),
        (["--start-point", "-3"], "--start-point '-3': a point number"),
        (["--start-point", "x"], "--start-point 'x': a point number"),
        (["--start-point", "1.5"], "--start-point '1.5': a point number"),
        # (a superscript is a digit to Python, not to int(); 20 digits overflowed numpy)
        (["--start-point", "\u00b2"], "--start-point '\u00b2': a point number"),
        (["--start-point", "9" * 20], "a point number is a whole number from 1 to 999,999,999"),
        # the lot's 5 points from 999,999,998 would end at 1,000,000,002: 10 digits
        (
            ["--start-point", "999999998"],
            "--start-point 999999998: the plan's 5 points would be "
            "numbered up to 1,000,000,002, past 999,999,999 (9 digits); start from at most "
            "999,999,995\n",
        ),
        (["--stakeout-crs", "nonsense"], "--stakeout-crs: 'nonsense' is not a CRS pyproj knows"),
        (["--stakeout-crs", "4326"], "--stakeout-crs 4326: WGS 84 is geographic"),
        # (a geocentric or vertical CRS: a projected one asked for, never a geographic one)
        (
            ["--stakeout-crs", "EPSG:4978"],
            "is a geocentric CRS (WGS 84), not one of places on "
            "a map: give a projected CRS (State Plane, UTM: EPSG:2236 for Florida East, US survey "
            "feet)\n",
        ),
        (
            ["--stakeout-crs", "EPSG:5703"],
            "is a vertical CRS (NAVD88 height), not one of places "
            "on a map: give a projected CRS (State Plane, UTM: EPSG:2236 for Florida East, US "
            "survey feet)\n",
        ),
        (["-o", "/nonexistent/dir/s.csv"], "folder /nonexistent/dir does not exist"),
        (["-o", "s.pnezd"], "writes a PNEZD point file, not .pnezd; name the file .csv or .txt"),
        (["--format", "gpx", "-o", "p.gpx", "--stakeout-crs", "6438"], "is for a point file"),
        (["--format", "gpx", "-o", "p.gpx", "--no-header"], "--no-header is for a point file"),
    ],
)
def test_bad_point_file_settings_exit_2_with_one_line(runner, job, args, message):
    full = ["plan", *_args(job), "--format", "pnezd", "-o", str(job / "s.csv"), *args]
    res = runner.invoke(main, full)
    assert res.exit_code == 2, res.stderr
    assert message in res.stderr and res.stderr.count("\n") == 1, res.stderr
    assert not (job / "s.csv").exists()


def test_a_point_file_to_stdout(runner, job):
    """``-o -`` with ``--format pnezd``: the file on stdout, the summary on stderr."""
    res = runner.invoke(main, ["plan", *_args(job), "-o", "-", "--format", "pnezd"])
    assert res.exit_code == 0, res.stderr
    out = res.stdout_bytes
    assert out.startswith((HEADER + "\r\n1,").encode()) and out.count(b"\r\n") == 6
    assert "point file (PNEZD)" in res.stderr


def test_descriptions_keep_to_what_collectors_read():
    t = pd.DataFrame(
        {
            "kind": ["sign", "paint", "post", None],
            "role": ["interval", "existing", "corner", "access"],
            "parcel_id": ["N08", 'Smith, "Jr"; Lot 4', "Ñandú 12/3 #7", "x" * 40],
        }
    )
    got = pnezd_descriptions(t).tolist()
    assert got[:3] == [
        "SIGN NEW INTERVAL N08",
        "PAINT EXISTING Smith Jr Lot 4",
        "POST NEW CORNER Nandu 12/3 #7",
    ]
    assert got[3] == ("SIGN NEW ACC " + "x" * 40)[:31]  # (too long even so: cut)
    assert all(len(d) <= 31 and "," not in d and '"' not in d for d in got)


def test_a_county_s_parcel_id_stays_whole_in_the_description():
    """A Florida parcel id of 17 digits (Seminole County's ``13212951100000130``): ``PAINT NEW
    INTERVAL `` and the id are 19 + 17 = 36 characters, over the 31 a Carlson ``.crd`` keeps,
    and cut to 31 the id kept 12 of its digits (two of Seminole's 50 parcels then read alike).
    The role shortened, ``PAINT NEW INT `` (14) leaves the id whole: 31; ``SIGN NEW CORNER ``
    (16) + 17 = 33, ``SIGN NEW COR `` 13 + 17 = 30. Only an id too long even so is cut, and
    the plan warns of it; the descriptions still read back as their kinds."""
    from posting.attributes import description_kinds

    pid = "13212951100000130"
    t = pd.DataFrame(
        {
            "kind": ["paint", "sign", "sign", "post"],
            "role": ["interval", "corner", "interval", "existing"],
            "parcel_id": [pid, pid, "N08", "y" * 30],
        }
    )
    got = pnezd_descriptions(t).tolist()
    assert (
        got
        == [
            "PAINT NEW INT " + pid,
            "SIGN NEW COR " + pid,
            "SIGN NEW INTERVAL N08",  # (it fits whole)
            ("POST EXISTING " + "y" * 30)[:31],
        ]
    )
    assert [len(d) for d in got] == [31, 30, 21, 31]
    kinds = description_kinds(pd.DataFrame({"description": got})).tolist()
    assert kinds == ["paint", "sign", "sign", "post"]


def test_stakeout_zones_orders_the_zones_whose_box_holds_the_lots():
    """Worked by hand from the EPSG boxes: Florida East (82.33°W to 79.97°W, 24.41°N to
    30.83°N) and Florida West (83.34°W to 81.13°W, 26.27°N to 29.6°N) both hold a lot from
    81.21°W to 81.2°W, 28.59°N to 28.6°N. Its depth in each box is its least distance to an
    edge, longitudes times cos 28.6° = 0.878: in Florida East min(1.12 x 0.878, 1.23 x 0.878,
    4.18, 2.23) = 0.98°, in Florida West min(2.13 x 0.878, 0.07 x 0.878, 2.32, 1.0) = 0.06°:
    East first. Each in US survey feet."""
    zones = stakeout_zones(np.array([[-81.21, 28.59, -81.2, 28.6]]))
    assert zones == [
        ("EPSG:6438", "NAD83(2011) / Florida East (ftUS)"),
        ("EPSG:6443", "NAD83(2011) / Florida West (ftUS)"),
    ]
    # central Oregon: international feet, the only foot its zones have in NAD83(2011)
    [(code, name), *_] = stakeout_zones(np.array([[-121.3, 44.0, -121.29, 44.01]]))
    assert name.endswith("(ft)") and CRS(code).axis_info[0].unit_name == "foot"
    assert stakeout_zones(np.array([[2.0, 48.8, 2.1, 48.9]])) == []  # (Paris: none)


def test_a_parcel_id_cut_in_the_descriptions_is_warned_of(runner, tmp_path):
    """A lot whose id is 30 characters: ``SIGN NEW COR `` (13) + 30 = 43, over 31 even with the
    role shortened: the ids of its 8 points (the unposted lot 900 ft square gets a sign at each
    corner and one in each side; ``SIGN NEW INT `` is 13 too) are cut to 31 - 13 = 18
    characters, and the plan says so."""
    pid = "PARCEL-" + "1234567890" * 2 + "ABC"
    assert len(pid) == 30
    lot = shapely.box(X0, Y0, X0 + SIDE, Y0 + SIDE)
    gpd.GeoDataFrame({"parcel_id": [pid]}, geometry=[lot], crs="EPSG:2236").to_file(
        tmp_path / "lot.geojson"
    )
    out = tmp_path / "s.csv"
    args = [str(tmp_path / "lot.geojson"), "--id-field", "parcel_id", "--rules", "florida"]
    res = runner.invoke(main, ["plan", *args, "--format", "pnezd", "-o", str(out)])
    assert res.exit_code == 0, res.stderr
    pts = _points(out)
    assert len(pts) == 8 and (pts["description"].str.len() == 31).all()
    assert set(pts["description"].str.split().str[-1]) == {pid[:18]}
    text = " ".join(res.stderr.split())
    assert f"8 point(s) of 1 parcel(s) (as {pid}) have their parcel id cut" in text


def test_existing_markers_and_a_zone_that_does_not_hold_the_lots(runner, job):
    """``--include-existing`` adds the lot's existing markers (the job's 3 signs and, read as
    not selected, its 4 monuments) as ``EXISTING`` points, each within 0.018 ft (half of
    1e-7 degree of latitude) of its own coordinates in the job: they go through the same
    7-decimal longitudes and latitudes as every export. A zone whose area of use does not hold
    the lots (Texas Central for a lot near Orlando) is warned of, with the zone to use."""
    out = job / "s.csv"
    args = ["plan", *_args(job), "-o", str(out), "--format", "pnezd"]
    res = runner.invoke(main, [*args, "--include-existing", "-q"])
    assert res.exit_code == 0, res.stderr
    pts = _points(out)
    assert len(pts) == 12 and pts["point"].tolist() == [str(k) for k in range(1, 13)]
    old = pts[pts["description"].str.contains("EXISTING")]
    assert sorted(old["description"].str.split().str[0]) == ["OTHER"] * 4 + ["SIGN"] * 3
    given = pd.read_csv(job / "job.csv")
    for n, e in zip(old["northing"].astype(float), old["easting"].astype(float), strict=True):
        d = np.hypot(given["northing"] - n, given["easting"] - e).min()
        assert d < 0.018 * math.sqrt(2)
    res = runner.invoke(main, [*args, "--stakeout-crs", "EPSG:2277"])
    assert res.exit_code == 0, res.stderr
    text = " ".join(res.stderr.split())
    assert "warning: 5 of 5 markers lie outside the area of use of the point file's CRS " in text
    assert "EPSG:2277 (NAD83 / Texas Central (ftUS))" in text
    assert "a CRS of these lots is EPSG:6438" in text


def test_a_paint_plan_read_back_from_its_point_file_keeps_its_kinds(runner, job):
    """A plan under a paint profile (Missouri: purple marks at most 100 ft apart) written as a
    point file and read back with ``--signs stake.csv --crs``: each row's kind is its
    description's first word (``PAINT NEW ...``), so the lot complies with the paint marks
    alone (before: every row a sign, which Missouri does not count: unposted). By hand: the
    lot's ring is 900 x 4 = 3,600 US survey feet, 3,600.007 ft, with no marker at all, so
    ceil(3,600.007 / 99.8) = 37 marks (Missouri wants none at the corners). One row in the
    file with a survey's own code (``IRF``) makes the descriptions a survey's: every row a
    sign, with the note that says so, and the lot unposted."""
    stake = job / "stake.csv"
    lot = [str(job / "lot.geojson"), "--id-field", "parcel_id", "--rules", "missouri"]
    res = runner.invoke(main, ["plan", *lot, "--format", "pnezd", "-o", str(stake), "-q"])
    assert res.exit_code == 0, res.stderr
    pts = _points(stake)
    assert len(pts) == 37 and pts["description"].str.startswith("PAINT NEW ").all()

    def recheck(path):
        out = job / "r.json"
        args = ["check", *lot, "--signs", str(path), "--crs", "EPSG:2236", "--json", str(out)]
        res = runner.invoke(main, [*args, "-q"])
        assert res.exit_code in (0, 1), res.stderr
        report = json.loads(out.read_text())
        return report["parcels"][0], " ".join(report["warnings"])

    p, warnings = recheck(stake)
    assert (p["status"], p["markers_counted"]) == ("compliant", 37)
    assert "'description' column holds a plan's point file's descriptions" in warnings
    assert "every row counts as a sign" not in warnings

    foreign = job / "foreign.csv"
    text = stake.read_text().replace(",PAINT NEW INTERVAL", ",IRF", 1)
    foreign.write_text(text)
    p, warnings = recheck(foreign)
    assert (p["status"], p["markers_counted"]) == ("unposted", 0)
    assert "foreign.csv: has a 'description' column and no kind column: every row counts" in (
        warnings
    )


def test_a_point_file_with_the_existing_markers_reads_back_alone(runner, job):
    """``--include-existing``: the job's 3 signs (``SIGN EXISTING``) and its 4 monuments, not
    markers (``OTHER EXISTING``), beside the 5 new signs. Read back alone, the monuments are
    of kind other, as in the plan, and count for no rule: 5 + 3 = 8 signs counted (before,
    every row a sign: 12, the monuments at the corners among them)."""
    out = job / "s.csv"
    res = runner.invoke(
        main, ["plan", *_args(job), "-o", str(out), "--format", "pnezd", "--include-existing"]
    )
    assert res.exit_code == 0, res.stderr
    lot = [str(job / "lot.geojson"), "--id-field", "parcel_id", "--rules", "florida"]
    res = runner.invoke(
        main,
        ["check", *lot, "--signs", str(out), "--crs", "EPSG:2236", "--json", str(job / "r.json")],
    )
    assert res.exit_code == 0, res.stderr
    [p] = json.loads((job / "r.json").read_text())["parcels"]
    assert (p["status"], p["markers_counted"], p["signs"]) == ("compliant", 8, 12)


def test_a_point_file_in_the_aleutians_puts_each_sign_where_the_plan_set_it(tmp_path):
    """A lot 900 ft square on the antimeridian in Alaska Albers (EPSG:3338, metres), on Amchitka
    Pass (51.8° N). There PROJ takes the world's ballpark from WGS 84 to NAD83 and the Aleutian
    Islands' own shift back, 0.9 m apart: a point file projected the first way put the south
    interval sign 0.08 m inside the line instead of 3 ft, and two corner signs 0.13 m and 0.25 m
    outside the lot. Worked by hand, in the lot's own metres: an interval marker stands 3 ft
    (0.9144 m) inside its side, a corner marker 3 sin 40° = 0.5878 m from one side and
    3 cos 40° = 0.7004 m from the other (the module's figures); within 0.015 m (the Albers
    scale here, 0.995 to 1.005, moves 0.9144 m by 0.005 m, the 7-decimal rounding by 0.006)."""
    to_albers = Transformer.from_crs(4326, 3338, always_xy=True)
    x0, y0 = to_albers.transform(180.0, 51.8)
    half = 450 * 0.3048
    lot = shapely.box(x0 - half, y0 - half, x0 + half, y0 + half)
    gpd.GeoDataFrame({"parcel_id": ["AMC-1"]}, geometry=[lot], crs="EPSG:3338").to_file(
        tmp_path / "lot.geojson"
    )
    lots = read_parcels(tmp_path / "lot.geojson", id_field="parcel_id")
    p = with_stakeout(plan(check(lots)))  # the lot's own CRS: Alaska Albers
    assert p.stakeout.label == "EPSG:3338 (NAD83 / Alaska Albers)" and not p.warnings
    (tmp_path / "stake.csv").write_text(render_pnezd(p), newline="")
    pts = _points(tmp_path / "stake.csv")
    n, e = pts["northing"].astype(float).to_numpy(), pts["easting"].astype(float).to_numpy()
    # distance from each of the four sides (west, east, south, north), in metres
    sides = np.column_stack([e - (x0 - half), x0 + half - e, n - (y0 - half), y0 + half - n])
    assert (sides > 0).all()  # every sign on the lot
    near = np.sort(sides, axis=1)[:, :2]
    role = pts["description"].str.split().str[2].to_numpy()
    assert sorted(role.tolist()) == ["CORNER"] * 4 + ["INTERVAL"] * 4
    three_ft = 3 * 0.3048
    interval, corner = near[role == "INTERVAL"], near[role == "CORNER"]
    assert np.abs(interval[:, 0] - three_ft).max() < 0.015
    sin40, cos40 = (three_ft * f(math.radians(40)) for f in (math.sin, math.cos))
    assert np.abs(corner - [sin40, cos40]).max() < 0.015
    # read back as a job's file in the lot's own CRS: the lot complies
    again = check(lots, read_markers([tmp_path / "stake.csv"], crs="EPSG:3338"))
    assert again.parcels["status"].tolist() == ["compliant"]
