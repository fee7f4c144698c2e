"""The command line: exit status, stdout only when asked, clear errors, whole outputs."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import geopandas as gpd
import pytest
import shapely
from click.testing import CliRunner
from helpers import ROOT, SAMPLE, one_line_error

from posting.cli import main

SAMPLE_ARGS = [
    str(SAMPLE / "parcels.geojson"),
    "--signs",
    str(SAMPLE / "signs.csv"),
    "--signs",
    str(SAMPLE / "signs-added.gpx"),
    "--id-field",
    "parcel_id",
    "--owner-field",
    "owner",
]


class Runner(CliRunner):
    """A CliRunner that lets bugs through: an exception that is not a clean exit fails the test."""

    def invoke(self, *args, **kwargs):
        res = super().invoke(*args, **kwargs)
        if res.exception is not None and not isinstance(res.exception, SystemExit):
            raise res.exception
        return res


@pytest.fixture
def runner() -> CliRunner:
    return Runner()


def test_sample_exit_1_summary_on_stderr_nothing_on_stdout(runner):
    res = runner.invoke(main, ["check", *SAMPLE_ARGS])
    assert res.exit_code == 1
    assert res.stdout == ""
    assert "29 parcels checked against florida" in res.stderr
    assert "markers: 232 read, 230 assigned, 2 unassigned" in res.stderr
    assert "worst:" in res.stderr


def test_json_to_stdout(runner):
    res = runner.invoke(main, ["check", *SAMPLE_ARGS, "--json", "-", "-q"])
    assert res.exit_code == 1
    assert res.stderr == ""
    d = json.loads(res.stdout)
    assert d["summary"]["parcels"] == 29


def test_exit_0_when_every_parcel_is_compliant(runner, tmp_path):
    lot = shapely.box(-81.3000, 28.6000, -81.2990, 28.6010)
    gpd.GeoDataFrame(geometry=[lot], crs=4326).to_file(tmp_path / "lot.geojson")
    pts = shapely.get_coordinates(
        lot.exterior.interpolate([0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875], normalized=True)
    )
    (tmp_path / "s.csv").write_text("lat,lon\n" + "".join(f"{y},{x}\n" for x, y in pts))
    res = runner.invoke(
        main, ["check", str(tmp_path / "lot.geojson"), "--signs", str(tmp_path / "s.csv")]
    )
    assert res.exit_code == 0, res.stderr
    assert "1 compliant" in res.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "nope.geojson"], "nope.geojson: no such file"),
        (["check", *SAMPLE_ARGS, "--rules", "atlantis"], "unknown rule profile 'atlantis'"),
        (["check", *SAMPLE_ARGS, "--id-field", "APN"], "--id-field 'APN' is not a column"),
        (["check", *SAMPLE_ARGS, "--crs", "EPSG:999999"], "is not a CRS pyproj knows"),
        (["check", *SAMPLE_ARGS, "--json", "-", "--csv", "-"], "only one output can go to stdout"),
        (["check", *SAMPLE_ARGS, "--json", "/nonexistent/dir/r.json"], "does not exist"),
        (["check", *SAMPLE_ARGS, "--tolerance-ft", "-3"], "-3"),
        # a height in miles' worth of feet, a typing slip, or a number that is not one
        (
            ["check", *SAMPLE_ARGS, "--elevation-ft", "52800"],
            "--elevation-ft is the land's height above sea level in feet, from -300 (Badwater "
            "Basin, -282 ft) to 20,500 (Denali, 20,310 ft), not 52800.0",
        ),
        (["plan", *SAMPLE_ARGS, "-o", "-", "--elevation-ft", "-1000"], "not -1000.0"),
        (["check", *SAMPLE_ARGS, "--elevation-ft", "nan"], "--elevation-ft is the land's"),
        (["check", *SAMPLE_ARGS, "--elevation-ft", "1mi"], "'1mi' is not a valid float"),
    ],
)
def test_bad_input_exits_2_with_one_clear_line(runner, args, message):
    res = runner.invoke(main, args)
    assert res.exit_code == 2
    assert message in res.stderr
    assert "Traceback" not in res.stderr + res.stdout
    assert res.stdout == ""


def test_an_internal_error_exits_3_not_1_which_is_a_verdict(tmp_path):
    """A failure that is not the user's (here the check itself raising) ends with its
    traceback, a line saying what it is, and exit status 3: a script reading 1 as "a parcel is
    not compliant" is not misled, and nothing is written."""
    code = (
        "import posting.engine as e\n"
        "def broken(*a, **k):\n"
        "    raise ZeroDivisionError('a bug')\n"
        "e.run = broken\n"
        "from posting.cli import run\n"
        "run()\n"
    )
    out = tmp_path / "r.json"
    args = ["check", str(SAMPLE / "parcels.geojson"), "--signs", str(SAMPLE / "signs.csv")]
    res = subprocess.run(
        [sys.executable, "-c", code, *args, "--json", str(out)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert res.returncode == 3, res.stderr[-2000:]
    assert "ZeroDivisionError: a bug" in res.stderr
    assert res.stderr.rstrip().splitlines()[-1].startswith("posting: internal error:")
    assert not out.exists()


def test_outputs_written_whole_and_only_on_success(runner, tmp_path):
    out = tmp_path / "r.json"
    res = runner.invoke(main, ["check", "nope.geojson", "--json", str(out)])
    assert res.exit_code == 2 and not out.exists()
    geo, csv = tmp_path / "r.geojson", tmp_path / "r.csv"
    res = runner.invoke(
        main,
        ["check", *SAMPLE_ARGS, "--json", str(out), "--geojson", str(geo), "--csv", str(csv), "-q"],
    )
    assert res.exit_code == 1
    assert json.loads(out.read_text())["schema"] == "posting-report/1"
    assert json.loads(geo.read_text())["type"] == "FeatureCollection"
    assert csv.read_text().count("\n") == 30  # header + 29 parcels
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv", "r.geojson", "r.json"]
    assert out.stat().st_mode & 0o644 == 0o644  # an ordinary, readable file


def test_root_cli_py_runs_the_same_command():
    res = subprocess.run(
        [sys.executable, str(ROOT / "cli.py"), "check", *SAMPLE_ARGS, "-q", "--json", "-"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert res.returncode == 1, res.stderr
    assert json.loads(res.stdout)["summary"]["parcels"] == 29


@pytest.mark.parametrize("module", ["posting", "posting.cli"])
def test_python_m_with_workers_prints_no_warning(tmp_path, module):
    """`python -m posting.cli check ... --workers 2` printed runpy's RuntimeWarning ("'posting.cli'
    found in sys.modules after import of package 'posting'") once for each worker: the workers'
    fork server had imported posting.cli, and multiprocessing runs the command's __main__ module
    again in each worker. `python -m posting` did not exist."""
    res = subprocess.run(
        [sys.executable, "-m", module, "check", *SAMPLE_ARGS, "-q", "--workers", "2"],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert res.returncode == 1, res.stderr
    assert "Warning" not in res.stderr and res.stderr == "", res.stderr


@pytest.mark.parametrize("case", ["ids of several types", "a GeoPackage named .shp"])
def test_what_gdal_reads_right_leaves_no_python_warning_on_stderr(tmp_path, case):
    """Two files GDAL reads right, whose warnings pyogrio passed on as Python's two lines of
    source under ``-q`` ("UserWarning: Could not parse column 'pid' as JSON; leaving as
    string"; "contextlib.py:137: RuntimeWarning: File ... has GPKG application_id, but non
    conformant file extension / return next(self.gen)"): a GeoJSON whose ids are of several
    types (7, "007", 7.5: kept as the text), a GeoPackage named .shp (read by its content)."""
    lots = [shapely.box(-81.3 + 0.001 * i, 28.6, -81.2995 + 0.001 * i, 28.6005) for i in range(3)]
    if case == "ids of several types":
        path = tmp_path / "lots.geojson"
        features = [
            {"type": "Feature", "properties": {"pid": pid}, "geometry": lot.__geo_interface__}
            for pid, lot in zip([7, "007", 7.5], lots, strict=True)
        ]
        path.write_text(json.dumps({"type": "FeatureCollection", "features": features}))
    else:
        path = tmp_path / "lots.shp"
        gpd.GeoDataFrame({"pid": [7, 8, 9]}, geometry=lots, crs=4326).to_file(
            tmp_path / "lots.gpkg", engine="pyogrio"
        )
        (tmp_path / "lots.gpkg").rename(path)
    out = tmp_path / "report.json"
    args = [str(path), "--signs", str(SAMPLE / "signs.csv"), "--id-field", "pid"]
    args += ["--rules", "florida", "--json", str(out), "-q"]
    res = subprocess.run(
        [sys.executable, str(ROOT / "cli.py"), "check", *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert res.returncode == 1 and res.stderr == "", res.stderr
    ids = [p["id"] for p in json.loads(out.read_text())["parcels"]]
    assert ids == (["7", "007", "7.5"] if case == "ids of several types" else ["7", "8", "9"])


def test_root_cli_py_bad_input_exits_2_with_one_line():
    """The command ends with os._exit after main: the status and the message still get out."""
    res = subprocess.run(
        [sys.executable, str(ROOT / "cli.py"), "check", "no-such-file.geojson", "--signs", "x.csv"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert res.returncode == 2
    assert res.stderr.strip().splitlines() == ["posting: error: no-such-file.geojson: no such file"]
    assert res.stdout == ""


def test_rules_list_and_show(runner):
    res = runner.invoke(main, ["rules", "list"])
    assert res.exit_code == 0
    assert any(line.startswith("florida ") for line in res.stdout.splitlines())
    listed = json.loads(runner.invoke(main, ["rules", "list", "--json"]).stdout)
    assert {"name", "title", "citation", "status"} <= set(listed[0])
    assert "florida" in [p["name"] for p in listed]
    res = runner.invoke(main, ["rules", "show", "florida", "--json"])
    assert json.loads(res.stdout)["rules"]["spacing"]["max_ft"] == 500.0
    res = runner.invoke(main, ["rules", "show", "florida"])
    assert "spacing: max_ft = 500, metric = along_boundary" in res.stdout
    assert "[Fla. Stat. 810.011(5)(a)1]" in res.stdout
    res = runner.invoke(main, ["rules", "show", "atlantis"])
    assert res.exit_code == 2 and "unknown rule profile" in res.stderr


MINE = """schema = 1
name = "mytown"
title = "My town"
jurisdiction = "Mytown"
citation = "Mytown Code 9-1"
source_url = "https://example.org/code"
purpose = "general trespass"
verification = "partial"

[spacing]
max_ft = 300
clause = "Mytown Code 9-1(a)"
text = "signs not more than 300 feet apart"

[corners]
mode = "at_corner"
verified = false
clause = "Mytown Code 9-1(b)"

[when.spacing]
land = ["not fenced"]
clause = "Mytown Code 9-1(c)"
text = "where the land is not fenced"
"""


def test_rules_show_of_ones_own_file_shows_every_rule(runner, tmp_path):
    path = tmp_path / "mytown.toml"
    path.write_text(MINE)
    res = runner.invoke(main, ["rules", "show", str(path)])
    assert res.exit_code == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0] == "mytown: My town"
    want = [
        "  spacing: max_ft = 300, metric = along_boundary, kinds = [sign]  [Mytown Code 9-1(a)]",
        '      "signs not more than 300 feet apart"',
        "  corners: mode = at_corner, kinds = [sign]  [Mytown Code 9-1(b)]  [unverified]",
        # a gate, once printed as a Python dict ("gates = [{'clause': ...}]"), is a rule's line
        "  when.spacing: land = [not fenced], combine = all  [Mytown Code 9-1(c)]",
        '      "where the land is not fenced"',
    ]
    assert lines[-len(want) :] == want


@pytest.mark.parametrize(
    ("edit", "needles"),
    [
        # was a KeyError in `rules show` (exit 3, a traceback)
        (('clause = "Mytown Code 9-1(a)"', 'clause = ""'), ["spacing.clause", "must not be empty"]),
        (("max_ft = 300", "max_ft = inf"), ["spacing.max_ft", "finite"]),
        (('name = "mytown"', 'name = "florida"'), ["key 'name'", "shipped profile"]),
    ],
)
def test_a_mistake_in_ones_own_profile_is_one_line(runner, tmp_path, edit, needles):
    path = tmp_path / "mytown.toml"
    path.write_text(MINE.replace(*edit))
    res = runner.invoke(main, ["rules", "show", str(path)])
    one_line_error(res, str(path), *needles)


def test_a_copy_of_florida_keeping_its_name_does_not_stand_in_for_it(runner, tmp_path):
    # Beside auto, a file named "florida" took the shipped profile's place for Florida's
    # parcels: with 5,000 ft for 500 ft, the sample's parcels 5 and 6 turned compliant, and
    # the report still said "florida", Fla. Stat. 810.011(5)(a)1.
    from posting.rules import load_rules

    text = Path(load_rules("florida").path).read_text()
    path = tmp_path / "florida-mine.toml"
    path.write_text(text.replace("max_ft = 500", "max_ft = 5000", 1))
    res = runner.invoke(main, ["check", *SAMPLE_ARGS, "--rules", "auto", "--rules", str(path)])
    one_line_error(res, str(path), "'florida', a shipped profile's")


def test_version(runner):
    res = runner.invoke(main, ["--version"])
    assert res.exit_code == 0 and res.stdout.strip() == "0.1.0"


def test_context_options_end_to_end(runner, tmp_path):
    lot = shapely.box(-81.3000, 28.6000, -81.2990, 28.6010)
    gpd.GeoDataFrame({"cover": ["Forest"]}, geometry=[lot], crs=4326).to_file(tmp_path / "p.gpkg")
    drive = shapely.LineString([(-81.2997, 28.5995), (-81.2997, 28.6005)])  # 64 ft from a sign
    gpd.GeoDataFrame({"TYPE": ["Driveway"]}, geometry=[drive], crs=4326).to_file(
        tmp_path / "a.gpkg"
    )
    pts = shapely.get_coordinates(
        lot.exterior.interpolate([0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875], normalized=True)
    )
    (tmp_path / "s.csv").write_text("lon,lat\n" + "".join(f"{x},{y}\n" for x, y in pts))
    base = [
        "check",
        str(tmp_path / "p.gpkg"),
        "--signs",
        str(tmp_path / "s.csv"),
        "-q",
        "--json",
        "-",
    ]
    d = json.loads(
        runner.invoke(
            main, [*base, "--rules", "arizona", "--access", str(tmp_path / "a.gpkg")]
        ).stdout
    )
    [p] = d["parcels"]
    assert len(p["missing_access"]) == 1 and p["missing_access"][0][1] == pytest.approx(28.6)
    d = json.loads(
        runner.invoke(main, [*base, "--rules", "arkansas", "--landcover-field", "cover"]).stdout
    )
    assert {g["limit_ft"] for g in d["parcels"][0]["gaps"]} == {100.0}  # forest land: 100 ft
    res = runner.invoke(main, [*base, "--landcover", str(tmp_path / "a.gpkg")])
    assert res.exit_code == 2 and "--landcover needs --landcover-field" in res.stderr
    res = runner.invoke(main, [*base, "--public-where", "cover"])
    assert res.exit_code == 2 and "expected COL=V1,V2" in res.stderr


# -- posting plan -----------------------------------------------------------------------------
def test_plan_from_noncompliant_to_a_gpx_file_in_one_command(runner, tmp_path):
    gpx = tmp_path / "plan.gpx"
    res = runner.invoke(main, ["plan", *SAMPLE_ARGS, "-o", str(gpx)])
    # S2's letters are too small and U1 has no geometry: no placement fixes those, so exit 1
    assert res.exit_code == 1, res.stderr
    assert res.stdout == ""
    assert "60 new markers to place (46 corner, 14 interval)" in res.stderr
    assert "S2 (noncompliant): nothing to place; still noncompliant: letter_height" in res.stderr
    assert f"wrote {gpx}: 60 markers (gpx)" in res.stderr
    # checking again with the planned signs: every parcel complies but those two
    res = runner.invoke(main, ["check", *SAMPLE_ARGS, "--signs", str(gpx), "--json", "-", "-q"])
    d = json.loads(res.stdout)
    bad = {p["id"]: p["status"] for p in d["parcels"] if p["status"] != "compliant"}
    assert bad == {"S2": "noncompliant", "U1": "invalid"}
    assert d["summary"]["markers_read"] == 232 + 60


def test_plan_exit_0_when_the_plan_fixes_everything(runner, tmp_path):
    lot = shapely.box(-81.3000, 28.6000, -81.2970, 28.6030)  # unposted
    gpd.GeoDataFrame({"pin": ["A-1"]}, geometry=[lot], crs=4326).to_file(tmp_path / "lot.geojson")
    out, summary = tmp_path / "plan.csv", tmp_path / "plan-summary.json"
    res = runner.invoke(
        main,
        [
            "plan",
            str(tmp_path / "lot.geojson"),
            "--id-field",
            "pin",
            "--accuracy-ft",
            "16",
            "-o",
            str(out),
            "--summary",
            str(summary),
        ],
    )
    assert res.exit_code == 0, res.stderr
    d = json.loads(summary.read_text())
    # 4 corners; the sides measure 962.7 ft east-west and 1,090.8 ft north-south on the
    # ellipsoid: with a phone's 16 ft at each of a gap's two markers, markers at most
    # 500 - 2 x 16 - 0.2 = 467.8 ft apart, so 2 more markers on each side (962.7 / 467.8 and
    # 1,090.8 / 467.8 are between 2 and 3)
    assert d["totals"]["corner"] == 4 and d["totals"]["interval"] == 8
    res = runner.invoke(
        main,
        ["check", str(tmp_path / "lot.geojson"), "--signs", str(out), "--accuracy-ft", "16"],
    )
    assert res.exit_code == 0, res.stderr


def test_plan_to_stdout_needs_a_format(runner):
    res = runner.invoke(main, ["plan", *SAMPLE_ARGS, "-o", "-", "--format", "csv", "-q"])
    assert res.exit_code == 1 and res.stderr == ""
    assert res.stdout.startswith("parcel_id,role,lat,lon,")
    assert res.stdout.count("\n") == 61


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-o", "-"], "needs --format"),
        (["-o", "plan.shp"], "cannot tell the format from the extension"),
        (["-o", "plan.gpx", "--summary", "s.txt"], "use a .json or .csv file"),
        (["-o", "-", "--format", "csv", "--summary", "-"], "only one output can go to stdout"),
        (["-o", "plan.gpx", "--accuracy-ft", "600"], "leaves no room under the 500 ft spacing"),
        (["-o", "plan.gpx", "--setback-ft", "-2"], "-2"),
        (["-o", "/nonexistent/dir/plan.gpx"], "does not exist"),
    ],
)
def test_plan_bad_input_exits_2_with_one_clear_line(runner, args, message):
    res = runner.invoke(main, ["plan", *SAMPLE_ARGS, *args])
    assert res.exit_code == 2
    assert message in res.stderr
    assert "Traceback" not in res.stderr + res.stdout


def test_plan_summary_csv_and_existing(runner, tmp_path):
    out, summary = tmp_path / "plan.kml", tmp_path / "s.csv"
    res = runner.invoke(
        main,
        ["plan", *SAMPLE_ARGS, "-o", str(out), "--summary", str(summary), "--include-existing"],
    )
    assert res.exit_code == 1
    lines = summary.read_text().splitlines()
    assert lines[0].startswith("id,row,status,corner,access,interval,total")
    assert lines[-1].startswith("(total),,,46,0,14,60,")
    assert "<Folder>" in out.read_text()


def test_readme_shows_what_plan_prints(runner, tmp_path):
    readme = (ROOT / "README.md").read_text()
    block = readme.split("-o out/plan.gpx\n```\n\n```\n", 1)[1].split("```", 1)[0]
    res = runner.invoke(main, ["plan", *SAMPLE_ARGS, "-o", str(tmp_path / "plan.gpx")])
    got = res.stderr.replace(str(tmp_path / "plan.gpx"), "out/plan.gpx").splitlines()
    shown = [line for line in block.splitlines() if line.strip() != "..."]
    assert shown and all(line in got for line in shown)
    gpx = (tmp_path / "plan.gpx").read_text()
    quote = readme.split('each described like *"', 1)[1].split('"*', 1)[0]
    assert " ".join(quote.split()) in gpx


def test_readme_lists_the_plan_exports_columns_and_the_gpx_type(runner, tmp_path):
    readme = (ROOT / "README.md").read_text().splitlines()
    row = next(line for line in readme if line.startswith("| `.csv` | phones"))
    out, gpx = tmp_path / "plan.csv", tmp_path / "plan.gpx"
    runner.invoke(main, ["plan", *SAMPLE_ARGS, "-o", str(out), "-q"])
    with out.open(newline="") as f:
        rows = list(csv.DictReader(f))
    # the README's table left out `kind` and `name_on_sign`, which the file carries
    assert re.findall(r"`([a-z_]+)`", row.split("|")[3]) == list(rows[0])
    # a waypoint's <type> is the marker's kind (read back as such), not its role
    runner.invoke(main, ["plan", *SAMPLE_ARGS, "-o", str(gpx), "-q"])
    types = re.findall(r"<type>([^<]*)</type>", gpx.read_text())
    assert len(types) == len(rows) == 60
    assert types == [r["kind"] for r in rows] != [r["role"] for r in rows]
    gpx_row = next(line for line in readme if line.startswith("| `.gpx` |"))
    assert "`type` (the marker's kind" in gpx_row


def test_readme_says_which_parcels_a_phone_survey_leaves_uncertain(runner):
    # scripts/demo --accuracy-ft 16 (the demo's water and houses too): the README named N09
    # alone; N05 is uncertain as well (its signs name a lessee, not an owner of record, and 13
    # stand within 16 ft of the lines it shares with N04 and N06)
    demo = [*SAMPLE_ARGS, "--water", str(SAMPLE / "water.geojson")]
    demo += ["--dwellings", str(SAMPLE / "dwellings.geojson")]
    res = runner.invoke(main, ["check", *demo, "--accuracy-ft", "16", "--json", "-", "-q"])
    report = json.loads(res.stdout)
    uncertain = sorted(p["id"] for p in report["parcels"] if p["status"] == "uncertain")
    assert uncertain == ["N05", "N09"]
    counts = report["summary"]["status"]
    assert (counts["compliant"], counts["uncertain"]) == (10 - 2, 2)  # the demo's 10, less two
    readme = " ".join((ROOT / "README.md").read_text().split())
    para = readme.split("`scripts/demo --accuracy-ft 16`", 1)[1].split("`.ci/run`", 1)[0]
    assert all(pid in para for pid in uncertain)
    assert "(8 compliant, 2 uncertain)" in para


def test_readme_land_table_says_the_sample_records_no_acreage(runner):
    res = runner.invoke(main, ["check", *SAMPLE_ARGS, "--acres-field", "AC", "-q"])
    assert res.exit_code == 2
    readme = (ROOT / "README.md").read_text().splitlines()
    row = next(line for line in readme if line.startswith("| recorded acreage |"))
    assert '"' in row, "the row showed --acres-field AC working on the sample"
    assert row.split('"')[1] in res.stderr


def test_readme_names_every_kind_of_rule():
    from posting.kinds import REGISTRY

    readme = " ".join((ROOT / "README.md").read_text().split())
    layout = readme.split("posting/kinds/ one module per kind of rule", 1)[1].split(")", 1)[0]
    tables = readme.split("The tables a profile may have:", 1)[1].split("every table has", 1)[0]
    assert len(REGISTRY) >= 25
    for name in REGISTRY:
        assert re.search(rf"\b{name}\b", layout), name
        assert f"`[{name}]`" in tables or f"`[{name}." in tables, name


def test_plan_writes_the_map_with_the_planned_layer(runner, tmp_path):
    out = tmp_path / "plan.csv"
    html = tmp_path / "plan.html"
    res = runner.invoke(
        main, ["plan", *SAMPLE_ARGS, "-o", str(out), "--map", str(html), "--no-tiles", "-q"]
    )
    assert res.exit_code == 1  # S2's letters and U1's geometry: no placement fixes them
    rows = out.read_text().splitlines()
    assert rows[0].startswith("parcel_id,role,lat,lon")
    assert len(rows) == 1 + 60  # the header and the sample's 60 planned markers
    page = html.read_text()
    assert '"planned"' in page  # the layer of planned markers


def test_a_stopping_signal_unwinds_the_command():
    """SIGTERM (a batch system's stop) raises Stopped in the main thread, so that `finally`
    blocks run: the scratch folder removed, half-written outputs dropped. A signal the command
    was started ignoring (nohup, a script's background job) stays ignored."""
    import os
    import signal
    import time

    from posting import cli

    saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        cli._stop_on_signals()
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
        with pytest.raises(cli.Stopped) as info:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
        assert (info.value.signum, info.value.name) == (signal.SIGTERM, "SIGTERM")
        assert not isinstance(info.value, Exception)  # no `except Exception` takes it
    finally:
        for s, handler in saved.items():
            signal.signal(s, handler)


@pytest.mark.parametrize("command", ["check", "map", "plan", "evidence"])
def test_a_marker_file_given_twice_is_refused(runner, tmp_path, command):
    """`--signs signs.csv --signs ./signs.csv` (a shell's glob and a name, say) read every
    marker twice: 456 markers of the sample's 228, each counted twice."""
    (tmp_path / "link.csv").symlink_to(SAMPLE / "signs.csv")
    signs = str(SAMPLE / "signs.csv")
    out = {"map": ["-o", str(tmp_path / "m.html")], "plan": ["-o", str(tmp_path / "p.gpx")]}
    out["evidence"] = ["-o", str(tmp_path / "rec")]
    args = [command, str(SAMPLE / "parcels.geojson"), "--signs", signs]
    res = runner.invoke(main, [*args, "--signs", str(tmp_path / "link.csv"), *out.get(command, [])])
    assert res.exit_code == 2
    assert res.stderr == (
        f"posting: error: {tmp_path / 'link.csv'}: --signs names this file twice (also as "
        f"{signs}): its markers would count twice; give each marker file once\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.csv"]


def test_a_surveyors_job_file_counts_its_monuments_as_signs_only_until_signs_where(
    runner, tmp_path
):
    """A lot 900 US survey feet square (Florida East, EPSG:2236), a point file of its four
    corner monuments (IRF, IPF) and four signs, one at the middle of each side. Read whole,
    the monuments pass as signs at the corners (with a note saying so); with ``--signs-where
    description=SIGN`` the corners have no sign and the gaps run from middle to middle: 900
    US survey feet, 900 * 1200/3937 m = 900.0018 international feet."""
    x0, y0, side = 600000.0, 1600000.0, 900.0
    lot = shapely.box(x0, y0, x0 + side, y0 + side)
    gpd.GeoDataFrame({"parcel_id": ["A"]}, geometry=[lot], crs="EPSG:2236").to_file(
        tmp_path / "lot.geojson"
    )
    corners = [(y0, x0, "IRF"), (y0, x0 + side, "IRF 5/8"), (y0 + side, x0 + side, "IRF")]
    corners += [(y0 + side, x0, "IPF")]
    middles = [(y0, x0 + side / 2), (y0 + side / 2, x0 + side), (y0 + side, x0 + side / 2)]
    middles += [(y0 + side / 2, x0)]
    rows = [*corners, *((n, e, "SIGN") for n, e in middles)]
    (tmp_path / "job.csv").write_text(
        "point,northing,easting,elevation,description\n"
        + "".join(f"{k + 1},{n},{e},10.0,{d}\n" for k, (n, e, d) in enumerate(rows))
    )
    args = ["check", str(tmp_path / "lot.geojson"), "--signs", str(tmp_path / "job.csv")]
    args += ["--crs", "EPSG:2236", "--rules", "florida", "--id-field", "parcel_id"]
    args += ["--json", str(tmp_path / "r.json"), "--geojson", str(tmp_path / "r.geojson")]

    res = runner.invoke(main, args)
    assert res.exit_code == 0, res.stderr
    [p] = json.loads((tmp_path / "r.json").read_text())["parcels"]
    assert (p["status"], p["markers_counted"], p["missing_corners"]) == ("compliant", 8, [])
    assert "has a 'description' column and no kind column: every row counts as a sign" in (
        " ".join(res.stderr.split())
    )

    res = runner.invoke(main, [*args, "--signs-where", "description=SIGN"])
    assert res.exit_code == 1, res.stderr
    [p] = json.loads((tmp_path / "r.json").read_text())["parcels"]
    us_ft = 1200 / 3937 / 0.3048
    assert (p["status"], p["markers_counted"], len(p["missing_corners"])) == ("noncompliant", 4, 4)
    assert p["max_gap_ft"] == round(side * us_ft, 2) == 900.0
    assert p["perimeter_ft"] == round(4 * side * us_ft, 2) == 3600.01
    marks = [
        f["properties"]
        for f in json.loads((tmp_path / "r.geojson").read_text())["features"]
        if f["properties"].get("layer") == "marker"
    ]
    assert [(m["name"], m["kind"], m["parcel"]) for m in marks] == [
        (str(k + 1), "other" if k < 4 else "sign", "A") for k in range(8)
    ]
    assert "4 marker(s) have a kind that is not sign, paint or post (not selected)" in res.stderr


def test_help_says_the_default_rule_and_what_each_command_takes(runner):
    # The default is --rules auto (each parcel under its own state's profiles), not Florida's:
    # the top-level help said "(Florida's by default)".
    top = " ".join(runner.invoke(main, ["--help"]).stdout.split())
    assert "Florida's by default" not in top
    assert "the state each parcel lies in" in top
    # plan and evidence take check's inputs and settings, not its outputs or cluster options:
    # their help said "every option of check", which --workers or --json then refuted.
    check = {p.name for p in main.commands["check"].params}
    outputs_and_scale = {"json_out", "geojson_out", "csv_out", "map_out", "no_tiles"}
    outputs_and_scale |= {"workers", "scheduler", "partition_parcels", "parquet", "scratch"}
    for name in ("plan", "evidence"):
        cmd = main.commands[name]
        missing = check - {p.name for p in cmd.params}
        assert "workers" in missing and missing <= outputs_and_scale
        text = " ".join(runner.invoke(main, [name, "--help"]).stdout.split())
        assert "every option of" not in text
        assert "the inputs and settings of" in text
