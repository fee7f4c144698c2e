"""The partitioned check on a 2-worker dask LocalCluster gives one run's verdicts, byte for byte.

The partitions are deliberately small (a few parcels of the sample, a few hundred of the real
layers and of a generated county), so that most parcels sit on a partition's edge: markers
across shared lines, corners, merged properties and water along the edges all have to come out
as one run finds them. The one-run output is the reference (its own tests hold its figures).
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import shapely
from fuzz_strategies import (
    ALL_PROFILES,
    LOT_PROFILES,
    Case,
    attributes_for,
    case,
    context_case,
    geographic_case,
    lot_attributes_for,
    parcel_names_for,
    settings_for,
)
from helpers import LOCAL_FT, ROOT, SAMPLE, SHARED_DATA, gpkg_sql, require_real_data
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from pyproj import CRS
from test_corrupt_files import CASES as UNUSABLE
from test_corrupt_files import DATASETS as BAD_DATASETS
from test_corrupt_files import _dataset as bad_dataset

from posting import dataset
from posting.crs import WGS84, plan_working_crs
from posting.distributed import _id_buckets
from posting.job import POLYGON_ACCESS
from posting.partition import Halo, Reach, WorkingPlan, extremes
from posting.settings import Settings

POSTING = [sys.executable, "-c", "from posting.cli import run; run()"]
_STAMP = re.compile(rb'"generated": ?"[^"]*"')


@pytest.fixture(scope="module")
def scheduler():
    """A LocalCluster of two single-threaded worker processes, as --workers 2 starts."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        memory_limit=0,
    ) as cluster:
        yield cluster.scheduler_address


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    if "--rules" not in args:  # the sample's profile by name (auto: the tests that say so)
        args = [*args, "--rules", "florida"]
    return subprocess.run([*POSTING, *args], cwd=cwd, capture_output=True, check=False)


def _same(
    args: list[str], tmp: Path, scheduler: str, k: int, outputs=("json", "csv")
) -> dict | None:
    """``posting check args`` in one process and partitioned: the same outputs and status."""
    got = {}
    for mode, extra in (
        ("one", []),
        ("part", ["--scheduler", scheduler, "--partition-parcels", str(k)]),
    ):
        d = tmp / mode
        d.mkdir()
        outs = [x for o in outputs for x in (f"--{o}", str(d / f"report.{o}"))]
        res = _run([*args, *outs, "-q", *extra], cwd=ROOT)
        assert res.returncode in (0, 1), res.stderr.decode()[-3000:]
        got[mode] = (
            res.returncode,
            {o: _STAMP.sub(b'"generated": "-"', (d / f"report.{o}").read_bytes()) for o in outputs},
        )
    assert got["one"][0] == got["part"][0]
    for o in outputs:
        one, part = got["one"][1][o], got["part"][1][o]
        assert one == part, f"{o} differs"
    return json.loads(got["one"][1]["json"]) if "json" in outputs else None


def _refused(args: list[str], tmp: Path, scheduler: str) -> dict[str, str]:
    """``posting check args`` in one process and partitioned (partitions of 4), each refused
    (exit 2, no output): the last line each says."""
    lines = {}
    for mode, extra in (
        ("one", []),
        ("part", ["--scheduler", scheduler, "--partition-parcels", "4"]),
    ):
        out = tmp / f"{mode}.json"
        res = _run([*args, "--json", str(out), *extra], cwd=ROOT)
        assert res.returncode == 2, res.stderr.decode()[-2000:]
        assert not out.exists()
        lines[mode] = res.stderr.decode().strip().splitlines()[-1]
    return lines


SAMPLE_ARGS = [
    "check",
    str(SAMPLE / "parcels.geojson"),
    "--signs",
    str(SAMPLE / "signs.csv"),
    "--signs",
    str(SAMPLE / "signs-added.gpx"),
    "--id-field",
    "parcel_id",
    "--owner-field",
    "owner",
    "--water",
    str(SAMPLE / "water.geojson"),
    "--dwellings",
    str(SAMPLE / "dwellings.geojson"),
]


def test_sample_in_partitions_of_three_parcels(tmp_path, scheduler):
    args = [*SAMPLE_ARGS, "--rules", "florida", "--rules", "florida-paint"]  # alternatives
    report = _same(args, tmp_path, scheduler, 3, ("json", "csv", "geojson"))
    assert report["summary"]["markers_unassigned"] == 2  # as the README's demo says
    assert report["summary"]["status"]["compliant"] == 10


def test_sample_land_options_and_merged_owners(tmp_path, scheduler):
    args = [
        *SAMPLE_ARGS,
        "--fences",
        str(SAMPLE / "fences.geojson"),
        "--easements",
        str(SAMPLE / "easements.geojson"),
        "--cultivated-where",
        "landuse=CROPLAND",
        "--merge-owner",
        "owner",
        "--rules",
        "texas",  # its land-cover note's counts are summed over the partitions
    ]
    report = _same(args, tmp_path, scheduler, 2, ("json", "csv", "geojson"))
    merged = [p for p in report["parcels"] if len(p.get("source_ids", [])) > 1]
    assert merged  # some owner's adjoining lots were one property, measured whole


def test_merged_by_owner_with_no_lots_merged_as_in_one_run(tmp_path, scheduler):
    """``--merge-owner`` on a column no two lots share (their ids): no property of several
    lots, and every parcel's ``source_ids`` its own id, partitioned as in one run."""
    args = [*SAMPLE_ARGS, "--merge-owner", "parcel_id"]
    report = _same(args, tmp_path, scheduler, 3, ("json", "csv", "geojson"))
    assert [p["source_ids"] for p in report["parcels"]] == [[p["id"]] for p in report["parcels"]]


@pytest.mark.parametrize("extra", [[], ["--merge-owner", "owner"]], ids=["lots", "merged"])
def test_montana_s_banks_in_one_run_s_order(tmp_path, scheduler, extra):
    """Montana's rule marks both banks where water crosses a boundary: each parcel's banks are
    listed stretch by stretch, the first bank then the second, in one run as in a partition's
    (one run once listed every stretch's first bank, then every second: its GeoJSON in another
    order). The sample's river crosses the ten lots of its north row, 20 banks (S1's pond, a
    hole wholly along water, crosses no line: it has none)."""
    args = [*SAMPLE_ARGS, *extra, "--rules", "montana"]
    _same(args, tmp_path, scheduler, 3, ("json", "csv", "geojson"))
    features = json.loads((tmp_path / "one" / "report.geojson").read_text())["features"]
    banks = [f["properties"]["parcel"] for f in features if f["properties"].get("type") == "bank"]
    if not extra:
        assert banks == [p for n in range(1, 11) for p in (f"N{n:02d}",) * 2]


def test_ids_given_more_than_once_across_partitions_as_in_one_run(tmp_path, scheduler):
    """Ids repeated far apart in the layer (in partitions of one parcel: different partitions,
    and the two ids in the two sets of the search for repeated ids of 29 partitions) are
    reported as one run reports them: every parcel that has them, by row."""
    import geopandas as gpd

    fl = gpd.read_file(SAMPLE / "parcels.geojson")
    ids = fl["parcel_id"].astype(str).to_numpy(dtype=object)
    ids[[0, 11, 27]] = "DUP-A"
    ids[[4, 20]] = "DUP-B"
    fl["parcel_id"] = ids
    path = tmp_path / "parcels.geojson"
    fl.to_file(path, driver="GeoJSON")
    args = [*SAMPLE_ARGS[:1], str(path), *SAMPLE_ARGS[2:]]
    assert list(_id_buckets(np.array(["DUP-A", "DUP-B"], dtype=object), 2)) == [1, 0]
    report = _same(args, tmp_path, scheduler, 1)
    assert report["duplicate_ids"] == {"DUP-A": [0, 11, 27], "DUP-B": [4, 20]}
    flagged = [p["row"] for p in report["parcels"] if p["duplicate_id"]]
    assert flagged == [0, 4, 11, 20, 27]


def _markers_along(parcels: Path, out: Path, every_ft: float, seed: int) -> Path:
    """Markers every ``every_ft`` along each boundary, 3 ft inside, jittered by 4 ft (so that
    some stand across the line)."""
    import geopandas as gpd

    gdf = gpd.read_file(parcels)
    gdf = gdf[gdf.geometry.notna() & gdf.geometry.is_valid].to_crs(gdf.estimate_utm_crs())
    rng = np.random.default_rng(seed)
    inner = shapely.buffer(gdf.geometry.to_numpy(), -3 * 0.3048)
    rings = shapely.get_rings(shapely.get_parts(inner))
    rings = rings[shapely.length(rings) > 1]
    count = np.maximum(1, (shapely.length(rings) / (every_ft * 0.3048)).astype(int))
    ring = np.repeat(np.arange(len(rings)), count)
    j = np.arange(len(ring)) - np.repeat(np.cumsum(count) - count, count)
    pts = shapely.line_interpolate_point(rings[ring], j / count[ring], normalized=True)
    xy = shapely.get_coordinates(pts) + rng.normal(0, 4 * 0.3048, (len(ring), 2))
    s = gpd.GeoSeries(shapely.points(xy), crs=gdf.crs).to_crs(4326)
    rows = (f"{x:.8f},{y:.8f}\n" for x, y in zip(s.x, s.y, strict=True))
    out.write_text("lon,lat\n" + "".join(rows))
    return out


@pytest.mark.realdata
def test_williamsburg_with_its_land_options(tmp_path, scheduler):
    w = require_real_data(SHARED_DATA / "williamsburg-va" / "parcels.geojson").parent
    signs = _markers_along(w / "parcels.geojson", tmp_path / "w.csv", 250, 1)
    args = [
        "check",
        str(w / "parcels.geojson"),
        "--signs",
        str(signs),
        "--id-field",
        "PID",
        "--water",
        str(w / "wetlands.geojson"),
        "--water-where",
        "WETLAND_TY=Lake,Freshwater Pond,Riverine",
        "--dwelling-where",
        "LUCat=O-SFD,R-SFD",
        "--acres-field",
        "AreaAc",
        "--easements",
        str(w / "easements.geojson"),
    ]
    # (its easements once came in another order, and a stretch within a foot of two easements
    # named the holder the tree found first: the tree of a partition's subset of them)
    report = _same(args, tmp_path, scheduler, 700)
    assert len(report["parcels"]) == 4464
    assert sum(p["water_frontage_ft"] > 0 for p in report["parcels"]) > 0


@pytest.mark.realdata
@pytest.mark.parametrize("rules", [[], ["--rules", "auto"]], ids=["florida", "auto"])
def test_pacific_merged_by_owner(tmp_path, scheduler, rules):
    """By name (florida: the warning that the land lies in Washington) and with auto (on the
    Columbia, the county's south partitions look their properties up one by one)."""
    p = require_real_data(SHARED_DATA / "pacific-wa" / "taxlots.geojson")
    signs = _markers_along(p, tmp_path / "p.csv", 450, 2)
    args = [
        "check",
        str(p),
        "--signs",
        str(signs),
        "--id-field",
        "ASSESSOR",
        "--owner-field",
        "OWNER",
        "--merge-owner",
        "OWNER",
        "--accuracy-ft",
        "16",
        *rules,
    ]
    report = _same(args, tmp_path, scheduler, 600)
    assert len(report["parcels"]) == 1403  # 5,433 lots, 1,403 properties (the README)
    assert report["rules"]["name"] == ("washington" if rules else "florida")


@pytest.mark.realdata
def test_seminole_in_state_plane(tmp_path, scheduler):
    s = require_real_data(SHARED_DATA / "seminole-fl" / "parcels.geojson")
    signs = _markers_along(s, tmp_path / "s.csv", 500, 3)
    args = [
        "check",
        str(s),
        "--signs",
        str(signs),
        "--id-field",
        "PARCEL",
        "--acres-field",
        "GIS_ACRES",
    ]
    _same(args, tmp_path, scheduler, 10)


def test_generated_county_as_a_hive_dataset(tmp_path, scheduler):
    """A county of 5,000 parcels and 60,000 markers, written as a hive-partitioned dataset of
    several files and row groups, in partitions of 400 parcels."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from make_county import make_county

    work = tmp_path / "county"
    make_county(work, 5_000, 60_000)
    table = pq.read_table(work / "parcels.parquet")
    for i, (lo, hi) in enumerate([(0, 2_000), (2_000, 5_000)]):
        d = work / "parcels" / f"part={i}"
        d.mkdir(parents=True)
        pq.write_table(table.slice(lo, hi - lo), d / "data.parquet", row_group_size=700)
    args = [
        "check",
        str(work / "parcels"),
        "--signs",
        str(work / "signs.parquet"),
        "--id-field",
        "parcel_id",
        "--owner-field",
        "owner",
    ]
    report = _same(args, tmp_path, scheduler, 400)
    assert len(report["parcels"]) == 5_000
    assert report["inputs"]["parcels"]["path"] == str(work / "parcels")


def _sample_dataset(tmp_path: Path) -> Path:
    import geopandas as gpd

    gdf = gpd.read_file(SAMPLE / "parcels.geojson")
    root = tmp_path / "parcels"
    for i, (lo, hi) in enumerate([(0, 10), (10, 29)]):
        d = root / f"zone={'NS'[i]}"
        d.mkdir(parents=True)
        gdf.iloc[lo:hi].to_parquet(d / f"part.{10 - 9 * i}.parquet")  # part.10, then part.1
    return root


def test_a_dataset_reads_as_its_files_in_natural_order_with_hive_columns(tmp_path):
    from posting.io import read_parcels

    root = _sample_dataset(tmp_path)
    files = dataset.files_of(root)
    assert [Path(f).parent.name for f in files] == ["zone=N", "zone=S"]
    whole = read_parcels(SAMPLE / "parcels.geojson", id_field="parcel_id")
    parts = read_parcels(root, id_field="parcel_id")
    assert parts.ids.tolist() == whole.ids.tolist()
    assert parts.attributes["zone"].tolist() == ["N"] * 10 + ["S"] * 19
    pieces = dataset.pieces(root, rows=5)  # row groups of 10 and 19 rows; the second in slices
    assert [p.offset for p in pieces] == np.cumsum([0] + [p.rows for p in pieces])[:-1].tolist()
    assert sum(p.rows for p in pieces) == 29 and len(pieces) == 5
    assert all(p.rows_of_groups is not None for p in pieces[1:])


@pytest.mark.parametrize("ours", [False, True], ids=["scheduler", "workers-option"])
def test_a_bad_file_in_a_dataset_is_named_and_nothing_is_written(tmp_path, scheduler, ours):
    """Named once, without a traceback: on the command's own cluster (``--workers``) too,
    whose worker once logged the failed task ("Compute Failed", its traceback) first."""
    root = _sample_dataset(tmp_path)
    bad = root / "zone=S" / "part.1.parquet"
    table = pq.read_table(bad)
    geometry = table.column("geometry").to_pylist()
    geometry[3] = b"\x01\x02not wkb"
    table = table.set_column(
        table.column_names.index("geometry"), "geometry", pa.array(geometry, pa.binary())
    )
    pq.write_table(table, bad)
    out = tmp_path / "report.json"
    res = _run(
        [
            "check",
            str(root),
            "--signs",
            str(SAMPLE / "signs.csv"),
            *(["--workers", "1"] if ours else ["--scheduler", scheduler]),
            "--json",
            str(out),
            "--parquet",
            str(tmp_path / "pq"),
        ],
        cwd=ROOT,
    )
    assert res.returncode == 2
    message = res.stderr.decode()
    assert str(bad) in message and "row 3" in message, message
    assert "Traceback" not in message and "Compute Failed" not in message, message
    assert len(message.strip().splitlines()) == 1, message
    assert not out.exists() and not (tmp_path / "pq").exists()


@pytest.mark.parametrize("name", list(BAD_DATASETS))
def test_a_bad_file_of_a_dataset_is_named_as_one_run_names_it(tmp_path, scheduler, name):
    """Each bad file of ``test_corrupt_files``'s datasets: one run's line, naming the file
    (a geometry that is not WKB by its row in the file; one run named the folder alone)."""
    role, second, needle = BAD_DATASETS[name]
    folder = bad_dataset(tmp_path, role, second)
    if role == "parcels":
        args = ["check", str(folder), "--signs", str(SAMPLE / "signs.csv")]
    else:
        args = ["check", str(SAMPLE / "parcels.geojson"), "--signs", str(folder)]
    lines = _refused(args, tmp_path, scheduler)
    assert lines["one"] == lines["part"], lines
    assert lines["one"].startswith(f"posting: error: {folder / 'part.2.parquet'}: "), lines
    assert needle in lines["one"]


def test_of_two_bad_files_the_first_given_is_named_with_the_progress_bar_too(scheduler):
    """With a progress bar (a terminal, without -q), the error raised was the first task's to
    fail, not the first task's: of two files each refused (read as two tasks), a run named the
    second when its task ended first, where one run (and a run with -q) names the first. Here
    the first task fails after 1 s, the second at once: the first is named, as without the
    bar."""
    import time

    from distributed import Client

    from posting.distributed import _progress

    def read(name: str, delay_s: float) -> None:
        time.sleep(delay_s)
        raise ValueError(f"{name} is bad")

    with Client(scheduler) as client:
        for show in (False, True):
            futures = client.map(read, ["first.gpx", "second.gpx"], [1.0, 0.0], pure=False)
            with pytest.raises(ValueError, match=r"first\.gpx is bad"):
                _progress(futures, "reading", show)


def test_a_dataset_folder_with_data_of_another_format_is_refused_as_in_one_run(tmp_path, scheduler):
    """A GeoJSON export beside a dataset's Parquet files (its features read by neither path):
    the same one line in one run and partitioned, naming the folder and the file."""
    folder = bad_dataset(tmp_path, "parcels")
    (folder / "parcels.geojson").write_text("{}")
    args = ["check", str(folder), "--signs", str(SAMPLE / "signs.csv")]
    lines = _refused(args, tmp_path, scheduler)
    assert lines["one"] == lines["part"], lines
    assert lines["one"].startswith(f"posting: error: {folder}: "), lines
    assert "also holds data of another format (parcels.geojson)" in lines["one"]


def test_files_of_a_dataset_whose_columns_differ_in_width_only_read_as_one(tmp_path, scheduler):
    """Files written by different versions of Arrow, pandas or GDAL: text as ``string`` in one
    and ``large_string`` in another, the geometry as ``binary`` and ``large_binary``, 32- and
    64-bit numbers. Refused until 2026-12-05 ("its files do not share one schema"); now read as
    the dataset written alike, in one run and in the partitions."""

    def other_widths(t: pa.Table) -> pa.Table:
        wider = {pa.string(): pa.large_string(), pa.large_string(): pa.string()}
        wider |= {pa.binary(): pa.large_binary(), pa.float64(): pa.float32()}
        for i, f in enumerate(t.schema):
            if f.type in wider:
                t = t.set_column(i, f.with_type(wider[f.type]), t.column(i).cast(wider[f.type]))
        return t

    def with_area(t: pa.Table) -> pa.Table:  # (a column of decimals: 0.5 is a float32 too)
        return t.append_column("half", pa.array(np.full(t.num_rows, 0.5)))

    for name in ("alike", "apart", "run-alike", "run-apart"):
        (tmp_path / name).mkdir()
    alike = bad_dataset(tmp_path / "alike", "parcels", with_area)
    apart = bad_dataset(tmp_path / "apart", "parcels", lambda t: other_widths(with_area(t)))
    first = pq.read_table(apart / "part.1.parquet")
    pq.write_table(with_area(first), apart / "part.1.parquet")
    assert pq.read_schema(apart / "part.2.parquet") != pq.read_schema(apart / "part.1.parquet")
    reports = []
    for folder, run in ((alike, "run-alike"), (apart, "run-apart")):
        args = ["check", str(folder), "--signs", str(SAMPLE / "signs.csv")]
        args += ["--id-field", "parcel_id", "--owner-field", "owner"]
        reports.append(_same(args, tmp_path / run, scheduler, 4))
    assert reports[0]["parcels"] == reports[1]["parcels"]
    assert reports[0]["summary"] == reports[1]["summary"]


def test_a_geometry_not_wkb_is_named_by_its_row_in_the_file_not_in_the_piece(
    tmp_path, scheduler, monkeypatch
):
    """A dataset's second file in row groups of 4, its row 6 not WKB, cut into pieces of 4
    rows: the row of the file (the piece's own row, 2, until 2026-12-05), as one run names it."""
    from posting import distributed
    from posting.cli import flag
    from posting.errors import InputError
    from posting.job import Job

    def broken(t: pa.Table) -> pa.Table:
        values = t.column("geometry").to_pylist()
        values[6] = b"\x01\x03not wkb"
        i = t.column_names.index("geometry")
        return t.set_column(i, "geometry", pa.array(values, pa.binary()))

    folder = bad_dataset(tmp_path, "parcels", broken)
    bad = folder / "part.2.parquet"
    pq.write_table(pq.read_table(bad), bad, row_group_size=4)
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    job = Job(parcels=str(folder), signs=(str(SAMPLE / "signs.csv"),), rules=("florida",))
    with pytest.raises(InputError) as part:
        distributed.run_and_write(
            job,
            scheduler=scheduler,
            partition_parcels=4,
            outputs={"json": str(tmp_path / "part.json")},
            name=flag,
        )
    one = _run(["check", str(folder), "--signs", str(SAMPLE / "signs.csv")], ROOT)
    assert one.returncode == 2
    assert (part.value.path, part.value.row) == (str(bad), 6)
    assert "the geometry of row 6 of this file is not WKB" in part.value.worded(flag)
    assert f"posting: error: {part.value.worded(flag)}" == one.stderr.decode().strip()
    assert not (tmp_path / "part.json").exists()


def test_a_task_still_running_after_a_refused_run_leaves_no_scratch_folder(tmp_path):
    """A cluster that outlives the command (``--scheduler``) runs to their end the tasks under
    way when a run is refused (a bad file of the markers while the parcels are sent to their
    partitions), after the command has removed the run's scratch folder: their files made it
    again (``posting-run-*/parcels/0/0.pkl``: 178 such folders in this machine's /tmp). A
    task now makes folders only within its run's."""
    from posting.distributed import RUN_MARK, _save

    run = tmp_path / "posting-run-x"
    run.mkdir()
    (run / RUN_MARK).touch()
    _save(f"{run}/parcels/0/0.pkl", [1])  # the run under way: its folders are made
    _save(f"{run}/parcels/0/1.pkl", [2])
    assert sorted(p.name for p in (run / "parcels" / "0").iterdir()) == ["0.pkl", "1.pkl"]
    shutil.rmtree(run)  # the command's, once refused
    with pytest.raises(FileNotFoundError):
        _save(f"{run}/parcels/0/2.pkl", [3])
    assert list(tmp_path.iterdir()) == []


def test_parquet_output_and_the_map_refused(tmp_path, scheduler):
    out = tmp_path / "results"
    res = _run(
        [
            *SAMPLE_ARGS,
            "--scheduler",
            scheduler,
            "--partition-parcels",
            "5",
            "--parquet",
            str(out),
            "-q",
        ],
        cwd=ROOT,
    )
    assert res.returncode == 1, res.stderr.decode()[-2000:]
    parcels = pq.read_table(out / "parcels").to_pandas()
    assert len(parcels) == 29 and sorted(parcels["row"]) == list(range(29))
    summary = json.loads((out / "summary.json").read_text())
    assert summary["summary"]["status"]["compliant"] == int(
        (parcels["status"] == "compliant").sum()
    )
    markers = pq.read_table(out / "markers").to_pandas()
    assert len(markers) == summary["summary"]["markers_read"]
    assert markers["parcel_id"].isna().sum() == summary["summary"]["markers_unassigned"]
    res = _run([*SAMPLE_ARGS, "--workers", "1", "--map", str(tmp_path / "m.html")], cwd=ROOT)
    assert res.returncode == 2 and b"--map" in res.stderr and b"county" in res.stderr


def test_the_working_plan_is_the_whole_layers():
    rng = np.random.default_rng(5)
    lon = np.r_[rng.uniform(-84.5, -77.5, 2_000), np.nan]  # UTM zones 16, 17 and 18
    lat = np.r_[rng.uniform(25, 31, 2_000), 1.0]
    crss, group = plan_working_crs(lon, lat, WGS84)
    pieces = np.array_split(np.arange(len(lon)), 7)
    ext = np.concatenate([p[extremes(lon[p], lat[p])] for p in pieces])
    plan = WorkingPlan.of(lon[ext], lat[ext], WGS84)
    got_crss, got_group = plan(lon, lat, WGS84)
    assert [c.label for c in got_crss] == [c.label for c in crss]
    assert got_group.tolist() == group.tolist()


def test_the_working_plan_at_an_elevation_is_the_whole_layers():
    rng = np.random.default_rng(6)
    lon = rng.uniform(-84.5, -77.5, 500)  # UTM zones 16, 17 and 18
    lat = rng.uniform(25, 31, 500)
    state_plane = CRS.from_epsg(2236)  # (not kept at an elevation: its lengths are the grid's)
    crss, group = plan_working_crs(lon, lat, state_plane, 5280)
    pieces = np.array_split(np.arange(len(lon)), 7)
    ext = np.concatenate([p[extremes(lon[p], lat[p])] for p in pieces])
    plan = WorkingPlan.of(lon[ext], lat[ext], state_plane, 5280)
    got_crss, got_group = plan(lon, lat, state_plane)
    assert [c.label for c in got_crss] == [c.label for c in crss]
    assert [c.crs.srs for c in got_crss] == [c.crs.srs for c in crss]
    assert all("5,280 ft elevation" in c.label for c in crss) and len(crss) == 3
    assert got_group.tolist() == group.tolist()


def test_the_sample_at_an_elevation_in_partitions_as_in_one_run(tmp_path, scheduler):
    """At 5,280 ft (the sample is in Florida: as if it were not) every figure is the ground's,
    in each partition's frame as in the one run's: the same bytes, with the context layers
    (water, fences, easements, dwellings) measured in the frames too."""
    args = [
        *SAMPLE_ARGS,
        "--fences",
        str(SAMPLE / "fences.geojson"),
        "--easements",
        str(SAMPLE / "easements.geojson"),
        "--elevation-ft",
        "5280",
    ]
    report = _same(args, tmp_path, scheduler, 3, ("json", "csv", "geojson"))
    assert "5,280 ft elevation" in report["crs"]
    assert report["settings"]["elevation_ft"] == 5280


def _wyoming_lots(tmp: Path) -> tuple[Path, Path]:
    """The sample's parcels with three lots in central Wyoming among them (at row 3), each a
    square with a sign at its corners and side midpoints, gaps of 499.95, 499.8 and 499 ft at
    sea level (tests/test_elevation.py: over at any Wyoming elevation, over at some, within);
    and the sample's signs with theirs."""
    import pandas as pd
    from pyproj import Transformer

    to_lonlat = Transformer.from_crs(
        "+proj=tmerc +lat_0=43 +lon_0=-107.5 +k=1 +datum=WGS84 +units=ft", 4326, always_xy=True
    )
    lots, rows = [], []
    for k, gap in enumerate((499.95, 499.8, 499.0)):
        x0, s = 5000.0 * k, 2 * gap
        ring = [(x0, 0), (x0 + s, 0), (x0 + s, s), (x0, s)]
        lots.append((f"wy-{k}", shapely.Polygon([to_lonlat.transform(x, y) for x, y in ring])))
        pts = [(0, 0), (gap, 0), (s, 0), (s, gap), (s, s), (gap, s), (0, s), (0, gap)]
        for j, (x, y) in enumerate(pts):
            lon, lat = to_lonlat.transform(x0 + x, y)
            rows.append({"sign_id": f"WY{k}{j}", "lon": lon, "lat": lat})
    signs = pd.read_csv(SAMPLE / "signs.csv", dtype=str)
    extra = pd.DataFrame(rows)
    for c in signs.columns.difference(["sign_id", "lon", "lat"]):
        extra[c] = signs[c].iloc[0]
    path = tmp / "signs.csv"
    pd.concat([signs, extra[signs.columns]], ignore_index=True).to_csv(path, index=False)
    return _layer_with(tmp, lots, at=3), path


@pytest.mark.parametrize("rules", ["florida", "auto"])
def test_wyoming_lots_without_their_elevation_in_partitions_as_in_one_run(
    tmp_path, scheduler, rules
):
    """The land's elevation not given: each lot's band is its state's (Florida's 0-345 ft,
    Wyoming's 3,099-13,804 ft), whichever partition holds it: the same bytes, and the verdicts
    the band gives (tests/test_elevation.py's figures)."""
    layer, signs = _wyoming_lots(tmp_path)
    args = ["check", str(layer), "--signs", str(signs), "--id-field", "pid", "--rules", rules]
    report = _same(args, tmp_path, scheduler, 4)
    by_id = {p["id"]: p for p in report["parcels"]}
    assert "elevation_ft" not in report["settings"]
    if rules == "florida":
        assert [by_id[f"wy-{k}"]["status"] for k in range(3)] == [
            "noncompliant",
            "uncertain",
            "compliant",
        ]


def _wyoming_squares(tmp: Path, lots: list[tuple[float, list[tuple[float, float]]]]):
    """The sample's parcels with square (or oblong) lots in central Wyoming among them (at row
    3), each ``(side, signs)`` or ``((width, height), signs)`` (the signs' feet from its
    south-west corner, 5,000 ft apart); and the sample's signs with theirs (ids ``wy-k``)."""
    from pyproj import Transformer

    to_lonlat = Transformer.from_crs(
        "+proj=tmerc +lat_0=43 +lon_0=-107.5 +k=1 +datum=WGS84 +units=ft", 4326, always_xy=True
    )
    polys, rows = [], []
    for k, (side, pts) in enumerate(lots):
        x0 = 5000.0 * k
        w, h = side if isinstance(side, tuple) else (side, side)
        ring = [(x0, 0), (x0 + w, 0), (x0 + w, h), (x0, h)]
        polys.append((f"wy-{k}", shapely.Polygon([to_lonlat.transform(x, y) for x, y in ring])))
        for j, (x, y) in enumerate(pts):
            lon, lat = to_lonlat.transform(x0 + x, y)
            rows.append({"sign_id": f"WY{k}-{j}", "lon": lon, "lat": lat})
    signs = pd.read_csv(SAMPLE / "signs.csv", dtype=str)
    extra = pd.DataFrame(rows)
    for c in signs.columns.difference(["sign_id", "lon", "lat"]):
        extra[c] = signs[c].iloc[0]
    path = tmp / "signs.csv"
    pd.concat([signs, extra[signs.columns]], ignore_index=True).to_csv(path, index=False)
    return _layer_with(tmp, polys, at=3), path


def _round(side: float, n: int) -> list[tuple[float, float]]:
    """``n`` points evenly spaced round a square of ``side`` from its south-west corner."""
    ring = shapely.get_exterior_ring(shapely.box(0, 0, side, side))
    at = shapely.line_interpolate_point(ring, np.arange(n) * 4 * side / n)
    return [tuple(xy) for xy in shapely.get_coordinates(at).tolist()]


def test_wyoming_counts_to_a_mile_in_partitions_as_in_one_run(tmp_path, scheduler):
    """Ten to a mile, the land's elevation not given (tests/test_elevation.py's figures): 2,640
    ft of boundary with 5 signs is too few at any Wyoming elevation, 2,639 ft perhaps too few,
    2,638 ft enough, whichever partition holds each lot."""
    from helpers import profile_file

    rules = profile_file(tmp_path, '[density]\nper_mile = 10\nclause = "Test 10/mi"\n')
    lots = [(s, _round(s, 5)) for s in (660.0, 659.75, 659.5)]
    layer, signs = _wyoming_squares(tmp_path, lots)
    args = ["check", str(layer), "--signs", str(signs), "--id-field", "pid", "--rules", rules]
    report = _same(args, tmp_path, scheduler, 4)
    by_id = {p["id"]: p for p in report["parcels"]}
    assert [by_id[f"wy-{k}"]["status"] for k in range(3)] == [
        "noncompliant",
        "uncertain",
        "compliant",
    ]


def test_wyoming_markers_in_sight_in_partitions_as_in_one_run(tmp_path, scheduler):
    """In sight within 1,000 ft (stated: --sight-ft), the land's elevation not given
    (tests/test_elevation.py's figures): signs 999.9 ft apart are out of sight at any Wyoming
    elevation, 999.6 ft perhaps, 999 ft in sight, whichever partition holds each lot."""
    from helpers import profile_file

    rules = profile_file(tmp_path, '[in_sight]\nclause = "Test sight"\n')
    lots = [(2 * g, _round(2 * g, 8)) for g in (999.9, 999.6, 999.0)]
    layer, signs = _wyoming_squares(tmp_path, lots)
    args = ["check", str(layer), "--signs", str(signs), "--id-field", "pid", "--rules", rules]
    report = _same([*args, "--sight-ft", "1000"], tmp_path, scheduler, 4)
    by_id = {p["id"]: p for p in report["parcels"]}
    assert [by_id[f"wy-{k}"]["status"] for k in range(3)] == [
        "noncompliant",
        "uncertain",
        "compliant",
    ]


def test_wyoming_rules_for_land_over_an_acre_in_partitions_as_in_one_run(tmp_path, scheduler):
    """California 554.1's 600 ft only over an acre, the land's elevation not given
    (tests/test_elevation.py's figures): strips 700 ft long with a sign at each corner, of
    0.9999 acres (over one at any Wyoming elevation), 0.999 (at some) and 0.998 (at none),
    whichever partition holds each lot."""
    lots = []
    for acres in (0.9999, 0.999, 0.998):
        w = acres * 43_560 / 700
        lots.append(((w, 700.0), [(0.0, 0.0), (w, 0.0), (w, 700.0), (0.0, 700.0)]))
    layer, signs = _wyoming_squares(tmp_path, lots)
    # the ways in are known: one road, 30 miles off
    road = {"type": "LineString", "coordinates": [[-107.0, 43.5], [-107.0, 43.51]]}
    access = tmp_path / "access.geojson"
    access.write_text(
        json.dumps(
            {
                "type": "FeatureCollection",
                "features": [{"type": "Feature", "properties": {"type": "road"}, "geometry": road}],
            }
        )
    )
    args = [
        "check",
        str(layer),
        "--signs",
        str(signs),
        "--id-field",
        "pid",
        "--access",
        str(access),
    ]
    report = _same([*args, "--rules", "california-554"], tmp_path, scheduler, 4)
    by_id = {p["id"]: p for p in report["parcels"]}
    assert [by_id[f"wy-{k}"]["status"] for k in range(3)] == [
        "noncompliant",
        "uncertain",
        "compliant",
    ]


def test_the_plan_s_cuts_are_the_keys_of_their_ranks(scheduler):
    """The cuts found from the pieces' histograms are the keys of ranks n*j//k of all keys
    sorted (here sorted whole, by numpy), with many keys in one bin of the histogram and many
    equal ones; equal cuts are one."""
    from distributed import Client

    from posting.distributed import _BIN, _cuts

    rng = np.random.default_rng(12)
    pieces = [
        rng.integers(0, 2**32, 1000).astype(float),
        (7 * _BIN + rng.integers(0, _BIN, 3000)).astype(float),  # one bin, 3,000 keys
        np.full(2500, 9.0 * _BIN + 5),  # one key, 2,500 times
        np.empty(0),
        rng.integers(0, 50 * _BIN, 700).astype(float),
    ]
    every = np.sort(np.concatenate(pieces))
    n = len(every)
    with Client(scheduler) as client:
        keys = [client.scatter(p) for p in pieces]
        for k_parts in (1, 2, 7, 40):
            cuts = _cuts(client, keys, n, k_parts, False)
            ranks = np.arange(1, k_parts) * n // k_parts
            assert list(cuts) == list(np.unique(every[ranks]))
        assert len(_cuts(client, keys, n, 40, False)) < 39  # the 2,500 equal keys: one cut


def test_halo_and_reach():
    halo = Halo.of(Settings(tolerance_ft=30, water_tolerance_ft=40, access_tolerance_ft=50))
    assert (halo.markers, halo.parcels, halo.context, halo.reach) == (30, 60, 50, 60)
    grid = Reach.grid((0.0, 0.0, 10.0, 10.0), 100)  # cells of 1 x 1
    reach = Reach.build(grid, np.array([0, 1, 11, 11]), np.array([0, 0, 1, 2]))
    box, part = reach.parts_of(np.array([[0.5, 0.5, 1.5, 1.5], [5.5, 5.5, 5.6, 5.6]]))
    assert list(zip(box.tolist(), part.tolist(), strict=True)) == [(0, 0), (0, 1), (0, 2)]


def test_prepared_parcels_saved_without_their_rings_load_with_the_same_rings(tmp_path):
    """The scratch files keep a partition's rings as its vertex table only: loaded, every ring
    has its coordinates to the bit, a hole's and a ring whose closing vertex was given twice
    included (that one is saved as it is: made from its vertices it would lose a vertex)."""
    from posting.distributed import _load, _rings_made_odd, _save
    from posting.io import ParcelLayer
    from posting.prepare import prepare_parcels

    polys = [
        shapely.box(0, 0, 300, 200),
        shapely.Polygon([(400, 0), (700, 0), (700, 300), (400, 0), (400, 0)]),  # closing twice
        shapely.Polygon(
            shapely.box(0, 400, 500, 900).exterior, [shapely.box(100, 500, 200, 600).exterior]
        ),
        None,
    ]
    layer = ParcelLayer.from_geometries(polys, crs="EPSG:6438")
    prep = prepare_parcels(layer, Settings(), corners=False)
    geo = prep.geometry
    _save(str(tmp_path / "p.pkl"), prep)
    got = _load(str(tmp_path / "p.pkl")).geometry.rings.geometry
    want = geo.rings.geometry
    assert len(got) == len(want) == 4
    assert shapely.get_type_id(got).tolist() == [2, 2, 2, 2]
    assert shapely.to_wkb(got).tolist() == shapely.to_wkb(want).tolist()
    assert _rings_made_odd(geo).tolist() == [1]


from distributed import WorkerPlugin  # noqa: E402


class _DieOnce(WorkerPlugin):
    """A worker plugin that ends its worker's process the first time a partition's check
    starts on it (a machine lost in the middle of a run)."""

    def __init__(self, flag: str) -> None:
        self.flag = flag

    def setup(self, worker) -> None:  # pragma: no cover - runs in the worker
        self.worker = worker

    def transition(self, key, start, finish, **kwargs) -> None:  # pragma: no cover - worker
        import os

        name = key[0] if isinstance(key, tuple) else str(key)
        if finish == "executing" and "_check_partition" in str(name):
            try:
                fd = os.open(self.flag, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                return
            os.close(fd)
            os._exit(1)


def test_the_workers_option_s_own_cluster_writes_one_run_s_bytes(tmp_path):
    """``--workers 2`` (a cluster of its own: workers forked from a server that has imported
    posting) writes what one process writes, byte for byte (the report's time aside)."""
    outs = {}
    for mode, extra in (("one", []), ("part", ["--workers", "2", "--partition-parcels", "7"])):
        res = _run([*SAMPLE_ARGS, "--json", str(tmp_path / f"{mode}.json"), "-q", *extra], ROOT)
        assert res.returncode == 1, res.stderr.decode()[-3000:]
        outs[mode] = _STAMP.sub(b"", (tmp_path / f"{mode}.json").read_bytes())
    assert outs["one"] == outs["part"]


def test_the_workers_run_the_command_s_posting_not_a_folder_of_that_name_where_it_runs(tmp_path):
    """A folder named posting in the working folder (a source tree of another version, say) is
    not what the workers of ``--workers`` import: their fork server once imported it before the
    command's own path applied, and the run failed (or mixed two versions)."""
    fake = tmp_path / "posting"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise RuntimeError('not the command's posting')\n")
    script = Path(sys.executable).parent / "posting"  # (python -c would import the folder too)
    out = tmp_path / "part.json"
    args = [*SAMPLE_ARGS, "--rules", "florida", "--json", str(out), "-q", "--workers", "1"]
    res = subprocess.run([str(script), *args], cwd=tmp_path, capture_output=True, check=False)
    assert res.returncode == 1, res.stderr.decode()[-3000:]
    assert json.loads(out.read_text())["summary"]["parcels"] == 29  # the sample's 29 parcels


@pytest.mark.parametrize("ours", [False, True], ids=["dask-local-cluster", "workers-option"])
def test_a_worker_that_dies_is_replaced_and_the_outputs_are_whole(tmp_path, ours):
    """On dask's own local cluster, and on the one ``--workers`` starts (its workers forked
    from a server that has imported posting: the replacement is forked from it too)."""
    from distributed import Client, LocalCluster

    from posting import distributed, stream
    from posting.cli import flag
    from posting.job import Job

    job = Job(
        parcels=str(SAMPLE / "parcels.geojson"),
        signs=(str(SAMPLE / "signs.csv"),),
        id_field="parcel_id",
        rules=("florida",),  # as _run gives the one-process run
    )
    died = tmp_path / "died"

    @contextlib.contextmanager
    def dask_s() -> Iterator[Client]:
        with (
            LocalCluster(
                n_workers=2, threads_per_worker=1, dashboard_address=":0", memory_limit=0
            ) as cluster,
            Client(cluster) as client,
        ):
            yield client

    with distributed.cluster(2) if ours else dask_s() as client:
        client.register_plugin(_DieOnce(str(died)))
        run = distributed.run_partitioned(
            job, client, partition_parcels=4, scratch=str(tmp_path / "scratch"), outputs=("json",)
        )
        stream.write_outputs(run, {"json": str(tmp_path / "part.json")}, flag)
    assert died.exists()  # a worker did die, and the run went on
    res = _run(
        [
            "check",
            *job.files()[:1],
            "--signs",
            job.signs[0],
            "--id-field",
            "parcel_id",
            "--json",
            str(tmp_path / "one.json"),
            "-q",
        ],
        cwd=ROOT,
    )
    assert res.returncode == 1
    one, part = ((tmp_path / f).read_bytes() for f in ("one.json", "part.json"))
    assert _STAMP.sub(b"", one) == _STAMP.sub(b"", part)


# -- auto: each parcel checked against its own state's profiles ------------------------------
@pytest.mark.parametrize("extra", [[], ["--merge-owner", "owner"]], ids=["lots", "merged"])
def test_auto_on_the_sample_is_florida_s_rules_as_in_one_run(tmp_path, scheduler, extra):
    args = [*SAMPLE_ARGS, *extra, "--rules", "auto"]
    report = _same(args, tmp_path, scheduler, 3, ("json", "csv", "geojson"))
    assert report["rules"]["name"] == "florida"  # the sample lies in Seminole County, Florida
    assert {p["rules"] for p in report["parcels"]} == {"florida"}


def _two_states(tmp: Path, virginia_first: bool, one_file: bool = True) -> tuple[Path, list]:
    """The sample's 29 Florida parcels and 40 of Williamsburg's (Virginia) as one layer, a
    parcel of the first state first, then the other state's, then the first's, then a row
    without geometry; and the sample's signs and signs along the Virginia lots: in one marker
    file with the same columns, or as the sample's file and one of longitudes and latitudes
    only."""
    import geopandas as gpd
    import pandas as pd

    w = require_real_data(SHARED_DATA / "williamsburg-va" / "parcels.geojson")
    fl = gpd.read_file(SAMPLE / "parcels.geojson")[["parcel_id", "geometry"]]
    fl = fl.rename(columns={"parcel_id": "pid"}).to_crs(4326)
    va = gpd.read_file(w)
    va = va[va.geometry.notna()].head(40)[["PID", "geometry"]].rename(columns={"PID": "pid"})
    va = va.to_crs(4326)
    va_path = tmp / "va.geojson"
    va.to_file(va_path, driver="GeoJSON")
    first, second = (va, fl) if virginia_first else (fl, va)
    none = gpd.GeoDataFrame({"pid": ["no-geometry"]}, geometry=[None], crs=4326)
    rows = pd.concat([first.iloc[:1], second, first.iloc[1:], none], ignore_index=True)
    parcels = tmp / "two-states.geojson"
    gpd.GeoDataFrame(rows, geometry="geometry", crs=4326).to_file(parcels, driver="GeoJSON")
    along_path = _markers_along(va_path, tmp / "va.csv", 200, 4)
    if not one_file:
        return parcels, [SAMPLE / "signs.csv", along_path]
    along = pd.read_csv(along_path, dtype=str)
    signs = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    va_signs = along.assign(
        sign_id=[f"V{i:04d}" for i in range(len(along))],
        kind="sign",
        letter_height_in="3",
        text="NO TRESPASSING",
        name_on_sign="Colonial Holdings",
        facing_deg="",
        surveyed="2026-10-15",
    )
    markers = tmp / "signs.csv"
    pd.concat([signs, va_signs[signs.columns]], ignore_index=True).to_csv(markers, index=False)
    return parcels, [markers]


@pytest.mark.realdata
@pytest.mark.parametrize(
    ("virginia_first", "rules"),
    [(True, ["auto"]), (False, ["auto", "town-code"]), (True, ["auto", "florida-paint"])],
    ids=[
        "virginia-first",
        "florida-first-and-a-town-s-code-and-two-marker-files",
        "florida-s-paint-in-florida-alone",
    ],
)
def test_auto_on_a_layer_of_two_states_as_in_one_run(tmp_path, scheduler, virginia_first, rules):
    """Partitions of eight parcels: each lies in one state, the run in two. The states come in
    the order of the input (not of the partitions), and the rows without geometry take the
    most common state (Virginia: 40 parcels against 28). With two marker files, a partition
    in Virginia has only markers of the file without the sample's columns (letter height,
    text, name), and checks Florida's rules on them as one run does."""
    parcels, signs = _two_states(tmp_path, virginia_first, one_file=virginia_first)
    args = [
        "check",
        str(parcels),
        *(x for f in signs for x in ("--signs", str(f))),
        "--id-field",
        "pid",
        *(x for r in rules for x in ("--rules", r)),
    ]
    report = _same(args, tmp_path, scheduler, 8, ("json", "csv", "geojson"))
    named = rules[1:]
    va = ["virginia", "virginia-paint", *(n for n in named if n != "florida-paint")]
    fl = ["florida", *named]  # (Florida's paint is Florida's alone)
    states = {"virginia": va, "florida": fl} if virginia_first else {"florida": fl, "virginia": va}
    assert report["rules"]["states"] == states
    assert list(report["rules"]["states"]) == list(states)
    # the sample's U1 and the last row have no geometry: Virginia's, the most common state
    by_state = {"virginia": 40 + 2, "florida": 29 - 1}
    got = [p["state"] for p in report["parcels"]]
    assert {s: got.count(s) for s in by_state} == by_state
    nothing = [p for p in report["parcels"] if p.get("invalid_reason") == "no geometry"]
    assert [(p["id"], p["state"]) for p in nothing] == [
        ("U1", "virginia"),
        ("no-geometry", "virginia"),
    ]
    for p in report["parcels"]:
        assert p["rules"] in states[p["state"]]
    florida = {x["rule"] for x in report["not_checked"] if x["profile"] == "florida"}
    assert not florida & {"letter_height", "sign_text", "name_on_sign"}  # the columns are there


def _layer_with(tmp: Path, extra: list[tuple[str, object]], at: int, tail=()) -> Path:
    """The sample's parcels with ``extra`` (id, geometry) rows at row ``at`` and ``tail`` at the
    end, as a GeoJSON file."""
    import geopandas as gpd
    import pandas as pd

    def frame(rows):
        ids, geoms = [i for i, _ in rows], [g for _, g in rows]
        return gpd.GeoDataFrame({"pid": ids}, geometry=geoms, crs=4326)

    fl = gpd.read_file(SAMPLE / "parcels.geojson")[["parcel_id", "geometry"]]
    fl = fl.rename(columns={"parcel_id": "pid"}).to_crs(4326)
    rows = pd.concat([fl.iloc[:at], frame(extra), fl.iloc[at:], frame(tail)], ignore_index=True)
    path = tmp / "layer.geojson"
    gpd.GeoDataFrame(rows, geometry="geometry", crs=4326).to_file(path, driver="GeoJSON")
    return path


def _box(lon: float, lat: float, half: float = 0.0001) -> shapely.Polygon:
    return shapely.box(lon - half, lat - half, lon + half, lat + half)


def _near_the_line(tmp: Path) -> tuple[Path, int]:
    """The sample and tiny lots in four columns across the Virginia/North Carolina line, in
    two UTM zones, some within 500 ft of it or across it; and how many of those
    (:func:`posting.states.parcel_states`, every lot looked up at once)."""
    from posting.states import parcel_states

    lots = [
        (f"c{c}-{j}", _box(lon, lat))
        for j, lat in enumerate(np.arange(36.530, 36.565, 0.0008))
        for c, lon in enumerate((-80.3, -79.5, -78.2, -77.3))
    ]
    table = parcel_states([g for _, g in lots])
    unsure = int((~table["status"].isin(["ok", "empty"])).sum())
    return _layer_with(tmp, lots, at=5), unsure


def _without_default(tmp: Path) -> tuple[Path, int]:
    """The sample, a lot in Denver (row 2) and three in Atlanta (at the end): Colorado's and
    Georgia's laws have no default profile."""
    atlanta = [(f"atl-{k}", _box(-84.39 + 0.01 * k, 33.75)) for k in range(3)]
    return _layer_with(tmp, [("denver", _box(-104.99, 39.74))], 2, atlanta), 0


def _no_geometry(tmp: Path) -> tuple[Path, int]:
    import geopandas as gpd

    path = tmp / "none.geojson"
    gpd.GeoDataFrame({"pid": [f"n{i}" for i in range(7)]}, geometry=[None] * 7, crs=4326).to_file(
        path, driver="GeoJSON"
    )
    return path, 0


def _at_sea(tmp: Path) -> tuple[Path, int]:
    """Twenty lots at sea, the whole layer (as State Plane feet read as UTM metres put it)."""
    import geopandas as gpd

    path = tmp / "sea.geojson"
    lots = [_box(-87.0 + 0.001 * k, 16.5) for k in range(20)]
    gpd.GeoDataFrame({"pid": [f"s{k}" for k in range(20)]}, geometry=lots, crs=4326).to_file(
        path, driver="GeoJSON"
    )
    return path, 0


@pytest.mark.parametrize(
    ("layer", "words"),
    [
        (_near_the_line, "parcel(s) is not certain, so auto cannot choose their rules: "),
        (
            _without_default,
            "auto has no default rule profile for Colorado: 1 parcel(s), e.g. 'denver'; no "
            "shipped profile states its posting rule (see docs/jurisdictions.md); Georgia: 3 "
            "parcel(s), e.g. 'atl-0'; ",
        ),
        (_no_geometry, "no parcel has a geometry to find its state by: give the rule profile "),
        (_at_sea, "at sea); and 15 more. If they are in the United States, their layer's CRS"),
    ],
    ids=["near-a-line", "no-default-profile", "no-geometry", "at-sea"],
)
def test_auto_refuses_as_one_run_does(tmp_path, scheduler, layer, words):
    """The same message (exit 2) and no output, the parcels named by their one-run rows."""
    path, unsure = layer(tmp_path)
    base = ["check", str(path), "--signs", str(SAMPLE / "signs.csv"), "--id-field", "pid"]
    lines = {}
    for mode, extra in (
        ("one", []),
        ("part", ["--scheduler", scheduler, "--partition-parcels", "6"]),
    ):
        out = tmp_path / f"{mode}.json"
        res = _run([*base, "--rules", "auto", "--json", str(out), "-q", *extra], cwd=ROOT)
        assert res.returncode == 2, res.stderr.decode()[-2000:]
        assert not out.exists() and "Traceback" not in res.stderr.decode()
        lines[mode] = res.stderr.decode().strip().splitlines()[-1]
    assert words in lines["one"], lines["one"]
    if unsure:
        assert f"the state of {unsure:,} parcel(s) is not certain" in lines["one"]
        assert f"; and {unsure - 5:,} more." in lines["one"]
        assert "(here north-carolina or virginia)" in lines["one"]
    assert lines["one"] == lines["part"]


def test_a_state_s_profile_by_name_warns_of_land_in_other_states_as_one_run(tmp_path, scheduler):
    """Partitions across the Virginia/North Carolina line look their lots up one by one (the
    input geometry at hand): the warning counts the lots in North Carolina and Florida as one
    run counts them (of the sample's 29 and 4 x 44 lots; the sample's U1 has no geometry)."""
    path, _ = _near_the_line(tmp_path)
    args = ["check", str(path), "--signs", str(SAMPLE / "signs.csv"), "--id-field", "pid"]
    report = _same([*args, "--rules", "virginia"], tmp_path, scheduler, 6)
    [warning] = [w for w in report["warnings"] if "lie in" in w]
    assert re.match(r"\d+ of 205 parcels lie in North Carolina \(\d+\) and Florida \(28\)", warning)


def test_land_outside_every_state_is_counted_as_one_run_counts_it(tmp_path, scheduler):
    """Lots at sea (a CRS that is not theirs, say) among the sample's, in other partitions:
    the warning counts them as one run does."""
    at_sea = [(f"sea-{k}", _box(-87.0 + 0.01 * k, 16.5)) for k in range(3)]
    path = _layer_with(tmp_path, at_sea[:1], 4, at_sea[1:])
    args = ["check", str(path), "--signs", str(SAMPLE / "signs.csv"), "--id-field", "pid"]
    report = _same([*args, "--rules", "florida"], tmp_path, scheduler, 4)
    [warning] = [w for w in report["warnings"] if "outside every state" in w]
    assert warning.startswith("3 of 32 parcels lie outside every state (abroad or at sea)")


@pytest.mark.parametrize("second", [False, True], ids=["first", "second"])
def test_a_marker_file_with_lon_and_lat_swapped_is_refused_as_in_one_process(
    tmp_path, scheduler, second
):
    """The swap is tried against the whole run's extent, each file's pieces counted together:
    the same message as one run (exit 2), and no output. Given second (after the sample's own
    signs), its pieces' counts were nothing until 2026-12-05 (a piece numbered its file by the
    run's list, counted by its own), and the partitioned run checked it (found by the fuzz
    campaign's file formats oracle)."""
    import pandas as pd

    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    table["lon"], table["lat"] = table["lat"].copy(), table["lon"].copy()
    swapped = tmp_path / "swapped.csv"
    table.to_csv(swapped, index=False)
    first = ["--signs", str(SAMPLE / "signs.csv")] if second else []
    base = ["check", str(SAMPLE / "parcels.geojson"), *first, "--signs", str(swapped), "-q"]
    lines = _refused(base, tmp_path, scheduler)
    assert "would with x and y swapped" in lines["one"]
    assert lines["one"] == lines["part"]


def _without_minus_signs(table):
    """The longitudes typed positive."""
    table["lon"] = table["lon"].str.lstrip("-")


def _swapped_without_minus_signs(table):
    """The columns swapped and the longitude (under ``lat``) typed positive."""
    table["lon"], table["lat"] = table["lat"].copy(), table["lon"].str.lstrip("-")


@pytest.mark.parametrize(
    ("slip", "named"),
    [
        (_without_minus_signs, "would with the sign of their longitude changed"),
        (
            _swapped_without_minus_signs,
            "would with x and y swapped and the sign of their longitude changed",
        ),
    ],
    ids=["without-minus-signs", "swapped-and-without-minus-signs"],
)
def test_a_marker_file_with_slipped_coordinates_is_refused_as_in_one_process(
    tmp_path, scheduler, slip, named
):
    """A copy of the sample's signs with every longitude typed positive, or with its columns
    swapped as well (neither slip alone explains that one, both do), given after the sample's
    own: its pieces' counts with the slips undone are added up against the whole run's
    extent, and the file refused as one run refuses it (exit 2, no output)."""
    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    slip(table)
    slipped = tmp_path / "slipped.csv"
    table.to_csv(slipped, index=False)
    signs = ["--signs", str(SAMPLE / "signs.csv"), "--signs", str(slipped)]
    base = ["check", str(SAMPLE / "parcels.geojson"), *signs, "-q"]
    lines = _refused(base, tmp_path, scheduler)
    assert named in lines["one"]
    assert lines["one"] == lines["part"]


def test_a_point_file_in_metres_given_the_feet_zone_is_refused_as_in_one_process(
    tmp_path, scheduler
):
    """The sample's signs as Florida East metres (EPSG:26958) in x/y columns, given --crs
    EPSG:2236 (the zone in US survey feet) after the sample's own: its pieces' counts read in
    each unit are added up, and the file refused as one run refuses it, naming the metre zone."""
    from pyproj import Transformer

    table = pd.read_csv(SAMPLE / "signs.csv")
    table = table[table["lon"].notna()]
    to_m = Transformer.from_crs(4326, 26958, always_xy=True)
    x, y = to_m.transform(table["lon"].to_numpy(), table["lat"].to_numpy())
    metres = tmp_path / "metres.csv"
    pd.DataFrame({"x": x, "y": y}).to_csv(metres, index=False)
    signs = ["--signs", str(SAMPLE / "signs.csv"), "--signs", str(metres)]
    base = ["check", str(SAMPLE / "parcels.geojson"), *signs, "--crs", "EPSG:2236", "-q"]
    lines = _refused(base, tmp_path, scheduler)
    assert "would with their numbers read as metres" in lines["one"]
    assert "(--crs EPSG:26958)" in lines["one"]
    assert lines["one"] == lines["part"]


def test_parcels_in_metres_given_the_feet_zone_are_refused_as_in_one_process(tmp_path, scheduler):
    """The sample's lots as a CSV of WKT in Florida East metres (EPSG:26958) given --crs
    EPSG:2236 (the zone in US survey feet), its GPS signs as surveyed: the pieces' counts of
    the signs near the lots read in metres are added up, and the parcels file refused as one
    run refuses it, naming the metre zone."""
    import geopandas as gpd

    lots = gpd.read_file(SAMPLE / "parcels.geojson").to_crs(26958)
    lots = lots[lots.geometry.notna()]
    table = tmp_path / "lots.csv"
    pd.DataFrame({"WKT": lots.geometry.to_wkt()}).to_csv(table, index=False)
    base = ["check", str(table), "--signs", str(SAMPLE / "signs.csv"), "--crs", "EPSG:2236"]
    lines = _refused([*base, "-q", "--rules", "florida"], tmp_path, scheduler)
    assert "would with the parcels' numbers read as metres" in lines["one"]
    assert "(--crs EPSG:26958)" in lines["one"]
    assert lines["one"] == lines["part"]


def test_an_arcgis_kml_s_tables_of_fields_are_read_as_in_one_process(tmp_path, scheduler):
    """The sample's signs saved as ArcGIS' Layer To KML writes them (each sign's fields an
    HTML table in its description): the partitioned run reads the tables as one run does (the
    same outputs), and both give each parcel the status and findings the CSV gives (the
    second method); before, every content rule was 'not checked'."""
    from html import escape

    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    table = table[table["lon"] != ""]
    fields = [c for c in table.columns if c not in ("lon", "lat")]
    marks = "".join(
        f"<Placemark><name>{r.sign_id}</name><description><![CDATA[<table><tr><td>signs</td>"
        "</tr><tr><td><table>"
        + "".join(f"<tr><td>{c.upper()}</td><td>{escape(getattr(r, c))}</td></tr>" for c in fields)
        + f"</table></td></tr></table>]]></description><Point><coordinates>{r.lon},{r.lat}"
        "</coordinates></Point></Placemark>"
        for r in table.itertuples()
    )
    kml = tmp_path / "signs.kml"
    kml.write_text(
        '<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2">'
        f"<Document><Folder><name>signs</name>{marks}</Folder></Document></kml>"
    )
    lots = ["check", str(SAMPLE / "parcels.geojson"), "--id-field", "parcel_id"]
    lots += ["--owner-field", "owner"]
    report = _same([*lots, "--signs", str(kml)], tmp_path, scheduler, 4)
    out = tmp_path / "csv.json"
    res = _run([*lots, "--signs", str(SAMPLE / "signs.csv"), "--json", str(out), "-q"], cwd=ROOT)
    assert res.returncode in (0, 1), res.stderr.decode()[-2000:]

    def findings(rep: dict) -> list:
        return [
            (p["id"], p["status"], sorted(v["rule"] for v in p["violations"]))
            for p in rep["parcels"]
        ]

    assert findings(report) == findings(json.loads(out.read_text()))
    assert any(v for _, _, v in findings(report))
    assert "sign_text" not in {n["rule"] for n in report["not_checked"]}


def test_parcels_with_lon_and_lat_swapped_are_named_as_in_one_process(tmp_path, scheduler):
    """The sample's parcels written as [lat, lon], its signs as surveyed: the partitioned run
    names the parcels as swapped, as one run does, not the signs."""
    import geopandas as gpd

    lots = gpd.read_file(SAMPLE / "parcels.geojson")
    lots.geometry = shapely.transform(lots.geometry.array, lambda xy: xy[:, ::-1])
    parcels = tmp_path / "parcels.geojson"
    lots.to_file(parcels, engine="pyogrio")
    base = ["check", str(parcels), "--signs", str(SAMPLE / "signs.csv"), "-q"]
    lines = _refused(base, tmp_path, scheduler)
    assert "the parcels' longitude and latitude are swapped" in lines["one"]
    assert lines["one"] == lines["part"]


@pytest.mark.parametrize(
    "merge", [[], ["--owner-field", "owner", "--merge-owner", "owner"]], ids=["lots", "merged"]
)
def test_markers_that_name_their_parcel_as_in_one_run(tmp_path, scheduler, merge):
    """``--sign-parcel-field``: each marker posts the parcel it names, wherever that parcel's
    partition; one that names a parcel too far away, one not in the file and one without
    usable geometry are unassigned for those reasons, worded as one run words them. Merged by
    owner, a marker that names a lot posts its property."""
    import pandas as pd

    from posting.engine import run
    from posting.job import Job

    job = Job(
        parcels=str(SAMPLE / "parcels.geojson"),
        signs=(str(SAMPLE / "signs.csv"),),
        id_field="parcel_id",
        rules=("florida",),
    )
    report = run(job, threads=1)
    ids = report.parcels["id"].to_numpy(dtype=object)
    at = report.markers["parcel"].to_numpy()
    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    table["parcel"] = np.where(at >= 0, ids[np.maximum(at, 0)], "")
    assert (table["parcel"] != "").sum() > 200
    first = {p: int(np.flatnonzero(table["parcel"] == p)[0]) for p in ("N01", "S1", "L01")}
    table.loc[first["N01"], "parcel"] = "S4"  # a parcel far off, in another partition
    table.loc[first["S1"], "parcel"] = "NOPE"  # no such parcel
    table.loc[first["L01"], "parcel"] = "U1"  # a parcel without usable geometry (a point)
    table.loc[4, "parcel"] = ""  # placed by its position, as without the column
    named = tmp_path / "named.csv"
    table.to_csv(named, index=False)
    args = [
        "check",
        str(SAMPLE / "parcels.geojson"),
        "--signs",
        str(named),
        "--id-field",
        "parcel_id",
        "--sign-parcel-field",
        "parcel",
        *merge,
    ]
    # partitions of one parcel: over twenty, so the names are looked up in two sets of ids
    one = _same(args, tmp_path, scheduler, 1, ("json", "csv", "geojson"))
    reasons = {s["row"]: s["reason"] for s in one["unassigned_signs"]}
    assert reasons[first["N01"]].startswith("names parcel 'S4' but stands ")
    assert reasons[first["S1"]] == "names parcel 'NOPE', which is not in the parcel file"
    assert reasons[first["L01"]] == "names parcel 'U1', which has no usable geometry"
    assert not any("not in the parcel file" in r for r in reasons.values() if "NOPE" not in r)
    if merge:  # (markers that name a lot of N01-N04 on a line between two: the words agree)
        inner = [r for r in reasons.values() if "lots of property 'N01' (one owner's" in r]
        assert len(inner) > 10


def test_a_shared_value_survives_the_loss_of_every_worker_that_holds_it():
    # what every partition's task takes (the plan) is a task's result, not scattered data: the
    # scheduler computes it again when the workers that hold it are gone (a run in CI once
    # failed with "lose scattered data, which can't be recovered")
    import os

    from distributed import Client, LocalCluster

    from posting.distributed import _share

    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, dashboard_address=":0", memory_limit=0
        ) as cluster,
        Client(cluster) as client,
    ):
        shared = _share(client, {"parts": tuple(range(5))})
        shared.result()
        holders = sorted(client.who_has([shared])[shared.key])
        assert holders
        client.run(os._exit, 1, workers=holders, on_error="ignore")
        client.wait_for_workers(2, timeout=60)
        assert client.submit(lambda v: len(v["parts"]), shared, pure=False).result(timeout=60) == 5


def test_named_parcels_are_looked_up_in_their_set_of_ids(tmp_path):
    """The partitions that own a parcel of each name, from the sets the partitions wrote their
    ids in: a name given to parcels of two partitions is in both; with merged properties, the
    names of every lot."""
    from types import SimpleNamespace

    from posting.distributed import RUN_MARK, _id_buckets, _named_partitions, _save

    (tmp_path / RUN_MARK).touch()  # (a run's scratch folder)
    owned = {0: ["a", "b", "c"], 1: ["d", "a"], 2: ["e"]}  # "a": two parcels, two partitions
    count = 3
    for k, ids in owned.items():
        ids = np.asarray(ids, dtype=object)
        sets = _id_buckets(ids, count)
        for b in np.unique(sets):
            _save(f"{tmp_path}/ids/{b}/{k}.pkl", (ids[sets == b], np.zeros(int((sets == b).sum()))))
            _save(f"{tmp_path}/names/{b}/{k}.pkl", ids[sets == b])
    refs = np.asarray(["a", "zz", "e", "d", "a"], dtype=object)
    sets = _id_buckets(refs, count)
    for merged in (None, "owner"):
        plan = SimpleNamespace(scratch=str(tmp_path), job=SimpleNamespace(merge_owner=merged))
        got = set()
        for b in np.unique(sets):
            at = np.flatnonzero(sets == b)
            i, k = _named_partitions(plan, int(b), refs[at])
            got |= set(zip(at[i].tolist(), k.tolist(), strict=True))
        assert got == {(0, 0), (0, 1), (2, 2), (3, 1), (4, 0), (4, 1)}


@pytest.mark.parametrize("suffix", [".gpkg", ".shp", ".gdb", ".shp.zip"])
def test_a_large_file_of_a_gdal_format_is_read_in_slices_with_one_run_s_bytes(
    tmp_path, scheduler, monkeypatch, suffix
):
    """A file of a GDAL format larger than a piece is read by the workers in slices of
    features (a state's GeoPackage, Shapefile, zipped Shapefile or File Geodatabase is not read
    whole by one worker), parcels and markers; the outputs are one run's, byte for byte. Pieces
    of 4 rows: the sample's 29 parcels in 8 slices, its 228 signs in 57. (FlatGeobuf: the next
    test.)"""
    import geopandas as gpd

    parcels, signs = tmp_path / f"parcels{suffix}", tmp_path / f"signs{suffix}"
    # (a File Geodatabase's layer holds one geometry type: the polygons as multipolygons)
    gpd.read_file(SAMPLE / "parcels.geojson").to_file(
        parcels, engine="pyogrio", promote_to_multi=suffix == ".gdb"
    )
    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    x, y = (pd.to_numeric(table[c], errors="coerce") for c in ("lon", "lat"))
    points = gpd.points_from_xy(x, y)
    points[x.isna() | y.isna()] = None  # the sample's markers without a position
    marks = gpd.GeoDataFrame(table.drop(columns=["lon", "lat"]), geometry=points, crs=4326)
    with warnings.catch_warnings():  # a Shapefile's column names cut to 10 characters
        warnings.simplefilter("ignore")
        marks.to_file(signs, engine="pyogrio")
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)  # pieces are cut here, on the client
    assert [p.features for p in dataset.pieces(parcels)] == [
        (0, 3), (3, 7), (7, 10), (10, 14), (14, 18), (18, 21), (21, 25), (25, 29)
    ]  # fmt: skip
    assert len(dataset.pieces(signs)) == 57
    report = json.loads(_one_and_sliced(tmp_path, scheduler, signs, parcels))
    assert report["summary"]["parcels"] == 29 and report["summary"]["markers_read"] == 228


def test_a_latin_1_shapefile_without_its_cpg_in_slices_as_in_one_run(
    tmp_path, scheduler, monkeypatch
):
    """The sample's parcels as a Shapefile of Latin-1 text without its ``.cpg``, one owner's
    name with an accent in a later slice only: read as Latin-1 in slices as in one run (the
    slices of plain text read as UTF-8, that one as Latin-1), the same bytes and note."""
    import geopandas as gpd

    lots = gpd.read_file(SAMPLE / "parcels.geojson")
    lots.loc[17, "owner"] = "Muñoz Ranch"
    parcels = tmp_path / "parcels.shp"
    lots.to_file(parcels, engine="pyogrio", encoding="ISO-8859-1")
    (tmp_path / "parcels.cpg").unlink()
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    report = json.loads(_one_and_sliced(tmp_path, scheduler, SAMPLE / "signs.csv", parcels))
    assert report["parcels"][17]["owner"] == "Muñoz Ranch"
    assert any("read as Latin-1" in w for w in report["warnings"])


def test_markers_in_a_file_whose_first_layer_is_the_parcels_are_refused_as_in_one_run(
    tmp_path, scheduler, monkeypatch
):
    """The sample's parcels and signs as the two layers of one GeoPackage, parcels first,
    given as the signs (read in slices of 4): refused naming the layers, as one run refuses
    it, not each sign unassigned as "a Polygon is not a marker position"."""
    import geopandas as gpd
    import pyogrio

    project = tmp_path / "project.gpkg"
    pyogrio.write_dataframe(gpd.read_file(SAMPLE / "parcels.geojson"), project, layer="parcels")
    table = pd.read_csv(SAMPLE / "signs.csv").dropna(subset=["lon", "lat"])
    points = gpd.points_from_xy(table["lon"], table["lat"])
    signs = gpd.GeoDataFrame(table.drop(columns=["lon", "lat"]), geometry=points, crs=4326)
    pyogrio.write_dataframe(signs, project, layer="signs")
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    args = ["check", str(SAMPLE / "parcels.geojson"), "--signs", str(project), "-q"]
    lines = _refused(args, tmp_path, scheduler)
    assert lines["one"] == lines["part"]
    assert lines["one"].endswith(
        "its first layer, 'parcels' (of 2: 'parcels', 'signs'), is of MultiPolygon features, not "
        "markers, which are points; the markers are read from a file's first layer: give the "
        "markers' layer as a file of its own (ogr2ogr -f GPKG signs.gpkg project.gpkg signs)"
    )


def test_a_shapefile_with_records_marked_deleted_is_read_as_one_run_reads_it(
    tmp_path, scheduler, monkeypatch
):
    """The sample's parcels as a Shapefile with two records marked deleted (dBASE's ``*``),
    in pieces of 4: GDAL skips them when it reads the features before a slice, not when it
    counts them all, and the slices read two parcels twice (29 parcels, two duplicate ids)
    where one run read 27. The file is read whole, as one run reads it, the same bytes and
    note."""
    import geopandas as gpd

    parcels = tmp_path / "parcels.shp"
    gpd.read_file(SAMPLE / "parcels.geojson").to_file(parcels, engine="pyogrio")
    data = bytearray((tmp_path / "parcels.dbf").read_bytes())
    header, width = int.from_bytes(data[8:10], "little"), int.from_bytes(data[10:12], "little")
    for r in (2, 13):
        data[header + r * width] = ord("*")
    (tmp_path / "parcels.dbf").write_bytes(bytes(data))
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    report = json.loads(_one_and_sliced(tmp_path, scheduler, SAMPLE / "signs.csv", parcels))
    assert report["summary"]["parcels"] == 27 and not report["duplicate_ids"]
    assert any("marked deleted (record 2, 13, from 0)" in w for w in report["warnings"])


def test_why_a_parcel_has_no_geometry_reaches_the_partitions(tmp_path, scheduler, monkeypatch):
    """A reason the reader gives for a row without geometry (a GeoPackage geometry GDAL cannot
    decode) travels with its parcel to its partition: the report says it, not "no geometry",
    as one run does. The sample's parcels in slices of 4, two damaged, one in a later slice."""

    import geopandas as gpd

    parcels = tmp_path / "parcels.gpkg"
    gpd.read_file(SAMPLE / "parcels.geojson").to_file(parcels, layer="parcels")
    gpkg_sql(parcels, "UPDATE parcels SET geom = X'00112233' WHERE fid IN (2, 17)")
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    report = json.loads(_one_and_sliced(tmp_path, scheduler, SAMPLE / "signs.csv", parcels))
    why = [p.get("invalid_reason") for p in report["parcels"] if p["row"] in (1, 16)]
    assert why == ["its geometry cannot be read: the GeoPackage's geometry is damaged"] * 2


def test_a_large_flatgeobuf_file_with_an_index_is_read_in_slices_with_one_run_s_bytes(
    tmp_path, scheduler, monkeypatch
):
    """A FlatGeobuf file with a spatial index is read in slices too: those near its start by
    skipping the features before them, the others by their features' ids (the index says
    where each starts), in batches; the outputs are one run's, byte for byte. Without an
    index, the file is one piece. (An indexed file holds no feature without geometry: the
    sample's parcel without one and its signs without a position are left out.)"""
    import geopandas as gpd

    from posting import io

    lots = gpd.read_file(SAMPLE / "parcels.geojson")
    lots = lots[lots.geometry.notna()]
    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    x, y = (pd.to_numeric(table[c], errors="coerce") for c in ("lon", "lat"))
    keep = x.notna() & y.notna()
    marks = gpd.GeoDataFrame(
        table.drop(columns=["lon", "lat"])[keep],
        geometry=gpd.points_from_xy(x[keep], y[keep]),
        crs=4326,
    )
    parcels, signs = tmp_path / "parcels.fgb", tmp_path / "signs.fgb"
    lots.to_file(parcels, engine="pyogrio")  # (GDAL's default: with a spatial index)
    marks.to_file(signs, engine="pyogrio")
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    monkeypatch.setattr(io, "FID_BATCH", 3)  # a slice of 4 in two batches of ids
    cut = [p.features for p in dataset.pieces(parcels)]
    assert cut == [(0, 4), (4, 8), (8, 12), (12, 16), (16, 20), (20, 24), (24, 28)]
    near_start = io.feature_spans(str(parcels), (20, 24))
    assert [list(s) for s in near_start] == [["skip_features", "max_features"]]
    assert [s["fids"].tolist() for s in io.feature_spans(str(parcels), (24, 28))] == [
        [24, 25, 26],
        [27],
    ]
    n_signs = int(keep.sum())
    assert sum(p.rows for p in dataset.pieces(signs)) == n_signs
    # the slices, read here in batches of 3 ids, are the file read whole (the workers below
    # read theirs in one batch)
    whole = io._read_ogr_layer(str(signs), None, None)[0]
    sliced = [io._read_ogr_layer(str(signs), None, p.features)[0] for p in dataset.pieces(signs)]
    pd.testing.assert_frame_equal(pd.concat(sliced, ignore_index=True), whole)
    report = json.loads(_one_and_sliced(tmp_path, scheduler, signs, parcels))
    assert report["summary"]["parcels"] == 28 and report["summary"]["markers_read"] == n_signs
    plain = tmp_path / "plain.fgb"
    lots.to_file(plain, engine="pyogrio", SPATIAL_INDEX="NO")
    assert [p.features for p in dataset.pieces(plain)] == [None]


def test_slices_that_read_differently_are_read_as_one_file(tmp_path, scheduler, monkeypatch):
    """One slice of a GeoPackage with text that is not UTF-8 reads as Latin-1 (with a note),
    the others as UTF-8: the workers would decode the file's text two ways where one run
    decodes it one way. The file is read whole instead, and the outputs are one run's."""
    import sqlite3

    import geopandas as gpd

    from posting import distributed
    from posting.cli import flag
    from posting.job import Job

    parcels = tmp_path / "parcels.gpkg"
    gpd.read_file(SAMPLE / "parcels.geojson").to_file(
        parcels, engine="pyogrio", layer="lots", SPATIAL_INDEX="NO"
    )
    with contextlib.closing(sqlite3.connect(parcels)) as con:  # "Léan" in Latin-1, row 20
        con.execute("UPDATE lots SET owner = CAST(X'4ce9616e' AS TEXT) WHERE fid = 21")
        con.commit()
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    assert len(dataset.pieces(parcels)) == 8
    job = Job(
        parcels=str(parcels),
        signs=(str(SAMPLE / "signs.csv"),),
        id_field="parcel_id",
        owner_field="owner",
        rules=("florida",),
    )
    out = {"json": str(tmp_path / "part.json")}
    distributed.run_and_write(job, scheduler=scheduler, partition_parcels=7, outputs=out, name=flag)
    args = ["--signs", str(SAMPLE / "signs.csv"), "--id-field", "parcel_id", "--owner-field"]
    one_json = tmp_path / "one.json"
    res = _run(["check", str(parcels), *args, "owner", "--json", str(one_json), "-q"], ROOT)
    assert res.returncode == 1, res.stderr.decode()[-3000:]
    one, part = one_json.read_bytes(), (tmp_path / "part.json").read_bytes()
    assert _STAMP.sub(b"", one) == _STAMP.sub(b"", part)
    report = json.loads(one)
    assert report["parcels"][20]["owner"] == "Léan"
    assert any("read as Latin-1" in w for w in report["warnings"])


def test_marker_slices_that_read_differently_are_refused(tmp_path, scheduler, monkeypatch):
    """The same for a marker file: its slices are already distributed when their notes are
    known, so the run stops, naming the file, before any output is written."""
    import sqlite3

    import geopandas as gpd

    from posting import distributed
    from posting.errors import InputError
    from posting.job import Job

    signs = tmp_path / "signs.gpkg"
    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False).head(40)
    points = gpd.points_from_xy(table["lon"].astype(float), table["lat"].astype(float))
    gdf = gpd.GeoDataFrame(table.drop(columns=["lon", "lat"]), geometry=points, crs=4326)
    gdf.to_file(signs, engine="pyogrio", layer="signs", SPATIAL_INDEX="NO")
    with contextlib.closing(sqlite3.connect(signs)) as con:
        con.execute("UPDATE signs SET name_on_sign = CAST(X'4ce9616e' AS TEXT) WHERE fid = 30")
        con.commit()
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    job = Job(parcels=str(SAMPLE / "parcels.geojson"), signs=(str(signs),), rules=("florida",))
    out = tmp_path / "part.json"
    with pytest.raises(InputError, match="not UTF-8 in some parts only") as err:
        distributed.run_and_write(job, scheduler=scheduler, outputs={"json": str(out)})
    assert err.value.path == str(signs) and not out.exists()


def test_a_mistake_raised_while_handling_a_gdal_error_reaches_the_command_as_itself(
    tmp_path, scheduler
):
    """A missing --layer: the worker's error was raised while handling pyogrio's, which dask
    sent along and which did not load again; the command reported an internal error (exit 3,
    a traceback) instead of the one line one run gives."""
    import geopandas as gpd

    path = tmp_path / "two.gpkg"
    lots = gpd.read_file(SAMPLE / "parcels.geojson")
    lots.iloc[:3].to_file(path, layer="other", engine="pyogrio")
    lots.to_file(path, layer="lots", engine="pyogrio")
    args = ["check", str(path), "--layer", "nope", "--signs", str(SAMPLE / "signs.csv")]
    one = _run([*args, "--json", str(tmp_path / "one.json")], ROOT)
    part = _run([*args, "--scheduler", scheduler, "--json", str(tmp_path / "part.json")], ROOT)
    assert one.returncode == part.returncode == 2, part.stderr.decode()[-3000:]
    assert one.stderr == part.stderr  # one line, naming the layers there are
    assert b"there is no layer 'nope' (--layer); the layers are: 'other', 'lots'" in part.stderr


@pytest.mark.parametrize("name", list(UNUSABLE))
def test_an_unusable_file_is_named_as_one_run_names_it(tmp_path, scheduler, name):
    """Every corrupt or awkward file of ``test_corrupt_files``: the same exit status and the
    same one line as one run (an empty GeoParquet file was "not a readable Parquet file" here,
    "the file is empty" there)."""
    role, make, _ = UNUSABLE[name]
    bad = str(make(tmp_path))
    args = ["check", bad if role == "parcels" else str(SAMPLE / "parcels.geojson")]
    args += ["--signs", bad if role == "signs" else str(SAMPLE / "signs.csv"), "-q"]
    one = _run([*args, "--json", str(tmp_path / "one.json")], ROOT)
    part = _run([*args, "--scheduler", scheduler, "--json", str(tmp_path / "part.json")], ROOT)
    assert (part.returncode, part.stderr) == (one.returncode, one.stderr) == (2, one.stderr)


def test_a_parcel_column_no_file_has_is_refused_once_the_parcels_are_scanned(tmp_path, scheduler):
    """A column a setting names that no file of the dataset has is refused as one run refuses
    it (the columns of every file listed), on the command, once the parcels are scanned: not
    after the partitions are prepared, most of a state's run. A column some files have is
    the dataset's (hive_column_in_some_files: the same report as one run)."""
    import traceback

    import geopandas as gpd

    from posting import distributed
    from posting.cli import flag
    from posting.errors import PostingError
    from posting.job import ContextFiles, Job

    parcels = gpd.read_file(SAMPLE / "parcels.geojson")
    folder = tmp_path / "parcels"
    for k, part in parcels.groupby(np.arange(len(parcels)) % 3):
        (folder / f"county={k}").mkdir(parents=True)
        if k == 1:
            part = part.drop(columns=["landuse"]).assign(zoning="x")
        part.to_parquet(folder / f"county={k}" / "part.0.parquet")
    args = ["check", str(folder), "--signs", str(SAMPLE / "signs.csv"), "--acres-field", "acres"]
    one = _run([*args, "--json", str(tmp_path / "one.json")], ROOT)
    words = "--acres-field 'acres' is not a column; the columns are: "
    assert one.returncode == 2
    assert one.stderr.decode().strip() == (
        f"posting: error: {folder}: {words}parcel_id, owner, landuse, county, zoning"
    )
    part = _run([*args, "--scheduler", scheduler, "--json", str(tmp_path / "p.json")], ROOT)
    assert (part.returncode, part.stderr) == (2, one.stderr)
    job = Job(
        parcels=str(folder),
        signs=(str(SAMPLE / "signs.csv"),),
        rules=("florida",),
        context=ContextFiles(acres_field="acres"),
    )
    with pytest.raises(PostingError) as info:
        distributed.run_and_write(
            job, scheduler=scheduler, outputs={"json": str(tmp_path / "q.json")}, name=flag
        )
    assert info.value.worded(flag).endswith(words + "parcel_id, owner, landuse, county, zoning")
    assert "_require_parcel_columns" in [f.name for f in traceback.extract_tb(info.tb)]


def test_a_gdal_warning_in_a_worker_is_shown_as_one_run_shows_it(tmp_path):
    """A GeoPackage of two layers given as signs: the first is read, with a note. GDAL's own
    warning was shown by the workers of ``--workers`` as Python's two lines of source, and by
    the command's look at the file's size again; now the whole stderr is one run's, and GDAL's
    warning is not in it (the reader names the layer it reads)."""
    import geopandas as gpd

    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False).head(40)
    points = gpd.points_from_xy(table["lon"].astype(float), table["lat"].astype(float))
    signs = gpd.GeoDataFrame(table.drop(columns=["lon", "lat"]), geometry=points, crs=4326)
    path = tmp_path / "signs.gpkg"
    signs.to_file(path, layer="signs", engine="pyogrio")
    signs.head(3).to_file(path, layer="old", engine="pyogrio")
    args = ["check", str(SAMPLE / "parcels.geojson"), "--signs", str(path)]
    one = _run([*args, "--json", str(tmp_path / "one.json")], ROOT)
    part = _run([*args, "--workers", "1", "--json", str(tmp_path / "part.json")], ROOT)
    assert one.returncode == part.returncode == 1
    note = f"  warning: {path}: holds 2 layers ('signs', 'old'); read the first\n"
    assert note.encode() in one.stderr and b"GDAL" not in one.stderr, one.stderr
    assert part.stderr == one.stderr


def test_a_flatgeobuf_file_is_one_piece(tmp_path):
    """GDAL reaches a FlatGeobuf file's features only by reading those before them (0.5 µs
    each): its slices would cost more the further they are, so it is read whole."""
    import geopandas as gpd

    path = tmp_path / "parcels.fgb"
    lots = gpd.read_file(SAMPLE / "parcels.geojson")
    lots.to_file(path, engine="pyogrio", SPATIAL_INDEX="NO")
    pieces = dataset.pieces(path, rows=4)
    assert len(pieces) == 1 and pieces[0].features is None and pieces[0].rows == -1
    gpkg = tmp_path / "parcels.gpkg"  # a GeoPackage of the same rows is cut
    lots.to_file(gpkg, engine="pyogrio")
    assert len(dataset.pieces(gpkg, rows=4)) == 8


def _signs_csv(path: Path, table: pd.DataFrame, **kw) -> None:
    table.to_csv(path, index=False, **kw)


def _one_and_sliced(
    tmp_path: Path,
    scheduler: str,
    signs: Path,
    parcels: Path = SAMPLE / "parcels.geojson",
    where: str | None = None,
    dwelling_where: str | None = None,
    crs: str | None = None,
    rules: str = "florida",
    check_date: str | None = None,
) -> bytes:
    """The same JSON and CSV reports of ``parcels`` (the sample's) with ``signs`` (chosen by
    ``where``, ``--signs-where``; the lots with a dwelling by ``dwelling_where``) in one run
    (the command) and partitioned in-process (where the pieces are cut), their stamps aside;
    the JSON."""
    import datetime as _dt

    from posting import distributed
    from posting.cli import flag
    from posting.job import ContextFiles, Job

    args = ["--id-field", "parcel_id", "--owner-field", "owner", "--rules", rules]
    args += ["--signs-where", where] if where else []
    args += ["--dwelling-where", dwelling_where] if dwelling_where else []
    args += ["--crs", crs] if crs else []
    args += ["--check-date", check_date] if check_date else []
    outputs = ["--json", str(tmp_path / "one.json"), "--csv", str(tmp_path / "one.csv")]
    parcels = str(parcels)
    res = _run(["check", parcels, "--signs", str(signs), *args, *outputs, "-q"], ROOT)
    assert res.returncode == 1, res.stderr.decode()[-3000:]
    job = Job(
        parcels=parcels,
        signs=(str(signs),),
        id_field="parcel_id",
        owner_field="owner",
        rules=(rules,),
        signs_where=where,
        context=ContextFiles(
            dwelling_where=dwelling_where,
            check_date=_dt.date.fromisoformat(check_date) if check_date else None,
        ),
        crs=crs,
    )
    distributed.run_and_write(
        job,
        scheduler=scheduler,
        partition_parcels=7,
        outputs={"json": str(tmp_path / "part.json"), "csv": str(tmp_path / "part.csv")},
        name=flag,
    )
    for ext in ("json", "csv"):
        one, part = ((tmp_path / f"{m}.{ext}").read_bytes() for m in ("one", "part"))
        assert _STAMP.sub(b"", one) == _STAMP.sub(b"", part), ext
    return (tmp_path / "one.json").read_bytes()


@pytest.mark.parametrize("style", ["plain", "quoted"])
def test_a_large_csv_file_is_read_in_slices_with_one_run_s_bytes(
    tmp_path, scheduler, monkeypatch, style
):
    """A CSV file of signs larger than a piece is read by the workers in slices of records (a
    state's signs in one CSV file are not read whole by one worker), with one run's outputs,
    byte for byte: the sample's 228 signs in 57 slices of 4. Quoted: every field quoted
    (commas and line ends in the text), CRLF line ends, a byte-order mark and blank lines."""
    import csv

    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    signs = tmp_path / "signs.csv"
    if style == "plain":
        _signs_csv(signs, table)
    else:
        table["text"] = table["text"].where(table.index % 3 > 0, 'NO TRESPASSING,\n"POSTED"')
        text = table.to_csv(index=False, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
        lines = text.split("\r\n")
        lines[40:40] = ["", "  "]  # blank lines: no records
        signs.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(lines).encode())
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    pieces = dataset.pieces(signs)
    assert len(pieces) == 57 and [p.offset for p in pieces[:3]] == [0, 4, 8]
    report = json.loads(_one_and_sliced(tmp_path, scheduler, signs))
    assert report["summary"]["markers_read"] == 228


@pytest.mark.parametrize("style", ["wkt", "pnezd"])
def test_signs_as_wkt_or_a_total_station_s_file_in_slices_as_in_one_run(
    tmp_path, scheduler, monkeypatch, style
):
    """The sample's signs as a QGIS CSV of WKT points (in WGS 84) or as a total station's
    P,N,E,Z,D file in Florida East (US survey feet, 0.001 ft, put there by pyproj; the signs'
    attributes after D), read in slices of 4: one run's bytes, and the same verdicts as the
    signs' own lon/lat file."""
    from pyproj import Transformer

    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    lon, lat = (pd.to_numeric(table.pop(c), errors="coerce") for c in ("lon", "lat"))
    if style == "wkt":  # (a row without its position has no WKT either)
        wkt = [f"POINT ({x} {y})" if y == y else "" for x, y in zip(lon, lat, strict=True)]
        table.insert(0, "WKT", wkt)
        crs = "EPSG:4326"
    else:
        e, n = Transformer.from_crs(4326, 2236, always_xy=True).transform(lon, lat)
        shots = {"P": range(1, len(table) + 1), "N": np.round(n, 3), "E": np.round(e, 3)}
        table = pd.concat([pd.DataFrame(shots).assign(Z=0.0, D=table["text"]), table], axis=1)
        crs = "EPSG:2236"
    signs = tmp_path / "signs.csv"
    _signs_csv(signs, table)
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    assert len(dataset.pieces(signs)) == 57
    got = json.loads(_one_and_sliced(tmp_path, scheduler, signs, crs=crs))
    ref = tmp_path / "ref.json"
    args = ["check", str(SAMPLE / "parcels.geojson"), "--signs", str(SAMPLE / "signs.csv")]
    args += ["--id-field", "parcel_id", "--owner-field", "owner", "--rules", "florida"]
    assert _run([*args, "--json", str(ref), "-q"], ROOT).returncode == 1
    keys = ("id", "status", "signs", "missing_corners")
    want = json.loads(ref.read_text())
    assert [[p[k] for k in keys] for p in got["parcels"]] == [
        [p[k] for k in keys] for p in want["parcels"]
    ]
    gaps = [[p["max_gap_ft"] for p in r["parcels"]] for r in (got, want)]  # (0.001 ft, rounded)
    assert gaps[0] == pytest.approx(gaps[1], abs=0.0101)
    assert got["summary"]["markers_read"] == 228


def test_signs_chosen_by_signs_where_in_slices_as_in_one_run(tmp_path, scheduler, monkeypatch):
    """``--signs-where`` on a CSV file of signs read in 57 slices of 4: the same reports as one
    run, byte for byte (the note of the rows left out said once, as one run says it)."""
    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    signs = tmp_path / "signs.csv"
    _signs_csv(signs, table)
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    where = "Name_On_Sign in ('Harney Timber LLC', 'osceola cattle co')"
    report = json.loads(_one_and_sliced(tmp_path, scheduler, signs, where=where))
    chosen = table["name_on_sign"].isin(["Harney Timber LLC", "Osceola Cattle Co"])
    assert int(chosen.sum()) == 57 + 35
    [note] = [w for w in report["warnings"] if "(--signs-where) are not markers" in w]
    assert "name_on_sign is not 'harney timber llc' or 'osceola cattle co'" in note
    assert f"{len(table) - 92} marker(s) have a kind that is not sign" in " ".join(
        report["warnings"]
    )


@pytest.mark.parametrize("other", [None, "benchmark"])
def test_a_type_column_is_judged_on_the_whole_file_in_slices(
    tmp_path, scheduler, monkeypatch, other
):
    """A CSV of signs whose ``type`` column gives their kinds (some paint), read in 57 slices
    of 4: each slice reads the column as the whole file says, so the same reports as one run.
    With one ``benchmark`` among them, a control point far from the parcels, the file's
    column is no kinds (a survey's point types): every row is a sign in one run, and was paint
    in the partitions, which hold no benchmark (their markers judged alone)."""
    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    table = table.rename(columns={"kind": "type"})
    table.loc[100:119, "type"] = "paint"
    _, counted, signs_assigned = _kinds_in_slices(tmp_path, scheduler, monkeypatch, table, other)
    # Florida counts signs: the 20 paint marks count for nothing unless the column is no kinds
    assert counted == signs_assigned - (0 if other else 20)


def _kinds_in_slices(tmp_path, scheduler, monkeypatch, table, other, column="type"):
    """The sample's signs as ``table`` gives them, with ``other`` (if any) in ``column`` of a
    marker far from the parcels, read in 57 slices of 4 (as one run: :func:`_one_and_sliced`):
    the report, and how many markers were counted and assigned as signs."""
    if other:
        table.loc[220, [column, "lon", "lat"]] = [other, "-81.2", "28.8"]
    signs = tmp_path / "signs.csv"
    _signs_csv(signs, table)
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    report = json.loads(_one_and_sliced(tmp_path, scheduler, signs))
    counted = sum(p["markers_counted"] for p in report["parcels"])
    return report, counted, sum(p["signs"] for p in report["parcels"])


@pytest.mark.parametrize("other", [None, "IRF 5/8"])
def test_a_plan_s_point_file_descriptions_are_judged_on_the_whole_file_in_slices(
    tmp_path, scheduler, monkeypatch, other
):
    """The sample's signs as a plan's point file would describe them (``SIGN NEW INTERVAL``,
    20 of them ``PAINT NEW INTERVAL``), no kind column, read in 57 slices of 4: each slice reads
    the kinds from the descriptions as the whole file says, with one run's note. With one
    ``IRF 5/8`` among them (a monument, far from the parcels), the descriptions are a survey's
    own codes: every row a sign, and the note that says so, in one run as in the slices (whose
    partitions hold no monument)."""
    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    table = table.drop(columns=["kind"]).assign(description="SIGN NEW INTERVAL N01")
    table.loc[100:119, "description"] = "PAINT NEW INTERVAL N01"
    report, counted, signs_assigned = _kinds_in_slices(
        tmp_path, scheduler, monkeypatch, table, other, column="description"
    )
    # Florida counts signs: the 20 paint marks count for nothing unless the codes are a survey's
    assert counted == signs_assigned - (0 if other else 20)
    text = " ".join(report["warnings"])
    assert ("every row counts as a sign" in text) == bool(other)
    assert ("each row's kind is its description's first word" in text) == (not other)


def test_an_integer_column_with_blanks_reads_alike_in_slices(tmp_path, scheduler, monkeypatch):
    """A GeoPackage of signs with whole-number columns (``code``, the survey's ``point``
    number: GDAL's 32-bit integers), each blank in one row, read in 57 slices of 3 and 4: a
    slice without the blank read them as integers and one with it (and the file read whole)
    as decimals, so ``--signs-where code=1`` chose every marker of the first (``1``) and
    none of one run (``1.0``). Each is read as integers with a blank wherever the rows lie:
    the same reports, every marker chosen but the one without a code, named ``75``, not
    ``75.0`` (the unassigned one, named in the partitions from its slice's reading, too)."""
    import geopandas as gpd

    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    x, y = (pd.to_numeric(table[c], errors="coerce") for c in ("lon", "lat"))
    keep = (x.notna() & y.notna()).to_numpy()
    table = table[keep].reset_index(drop=True)
    code = pd.array([1] * len(table), dtype="Int32")
    code[200] = None
    point = pd.array(range(1, len(table) + 1), dtype="Int32")
    point[201] = None
    signs = tmp_path / "signs.gpkg"
    gpd.GeoDataFrame(
        table.drop(columns=["lon", "lat", "sign_id"]).assign(code=code, point=point),
        geometry=gpd.points_from_xy(x[keep], y[keep]),
        crs=4326,
    ).to_file(signs, engine="pyogrio")
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    assert len(dataset.pieces(signs)) == 57
    report = json.loads(_one_and_sliced(tmp_path, scheduler, signs, where="code=1"))
    counted = sum(p["markers_counted"] for p in report["parcels"])
    assigned = sum(p["signs"] for p in report["parcels"])
    # every marker is a sign that counts in Florida, but the one whose code is blank (row
    # 200, assigned to a parcel)
    assert counted == assigned - 1
    assert "1 marker(s) have a kind that is not sign" in " ".join(report["warnings"])
    ends = [
        g.get(e, {})
        for p in report["parcels"]
        for g in p["gaps"]
        for e in ("start_sign", "end_sign")
    ]
    names = [s.get("name") for s in ends + report["unassigned_signs"]]
    assert {"75", "227"} <= set(names) and not any(str(n).endswith(".0") for n in names)


def test_a_lot_column_of_whole_numbers_with_a_blank_reads_alike_in_slices(
    tmp_path, scheduler, monkeypatch
):
    """The sample's parcels as a GeoPackage with a land-use code in a column of GDAL's 32-bit
    integers (1 for a home), blank for the first lot, read in 8 slices of 3 and 4, with
    ``--dwelling-where use=1``: the slice with the blank (and the file read whole) read the
    codes as decimals (``1.0``, no dwelling), the others as integers (``1``): the partitions
    whose lots all came from those found dwellings (rows 18 and 24) where one run found
    none. Read as integers wherever the rows lie: the same reports, each lot coded 1 a
    dwelling."""
    import geopandas as gpd

    lots = gpd.read_file(SAMPLE / "parcels.geojson")
    use = pd.array([1 if i % 3 == 0 else 2 for i in range(len(lots))], dtype="Int32")
    use[0] = None
    parcels = tmp_path / "parcels.gpkg"
    lots.assign(use=use).to_file(parcels, engine="pyogrio")
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    assert [p.features for p in dataset.pieces(parcels)][:2] == [(0, 3), (3, 7)]
    report = json.loads(
        _one_and_sliced(tmp_path, scheduler, SAMPLE / "signs.csv", parcels, dwelling_where="use=1")
    )
    assert [p["row"] for p in report["parcels"] if p["dwelling"]] == list(range(3, 29, 3))


def test_positions_in_degrees_and_minutes_in_some_slices_read_as_one_run(
    tmp_path, scheduler, monkeypatch
):
    """A CSV file of signs, a few of whose positions are in degrees, minutes and seconds, far
    apart: the slices that hold them say so and the others do not, so the file is read whole,
    and the report (its note on the file, once, with the first such row) is one run's."""
    from posting.io import read_markers

    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    for row in (5, 150):
        lon, lat = float(table.at[row, "lon"]), float(table.at[row, "lat"])
        table.at[row, "lat"] = _dms(lat, "NS")
        table.at[row, "lon"] = _dms(lon, "EW")
    signs = tmp_path / "signs.csv"
    _signs_csv(signs, table)
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    report = json.loads(_one_and_sliced(tmp_path, scheduler, signs))
    notes = [w for w in report["warnings"] if "degrees and minutes" in w]
    assert len(notes) == 2 and all("2 row(s)" in n and "(row 5:" in n for n in notes), notes
    read = read_markers(str(signs))
    plain = read_markers(str(SAMPLE / "signs.csv"))
    assert abs(read.lat[150] - plain.lat[150]) < 0.05 / 3600  # (to a twentieth of a second)


def _dms(value: float, letters: str) -> str:
    """``value`` in degrees, minutes and seconds to a hundredth of a second (28°45'12.34"N)."""
    seconds = round(abs(value) * 360000)
    d, rest = divmod(seconds, 360000)
    m, s = divmod(rest, 6000)
    return f"{d}°{m:02d}'{s / 100:05.2f}\"{letters[value < 0]}"


def test_a_csv_slice_refused_alone_is_read_as_part_of_its_file(tmp_path, scheduler, monkeypatch):
    """Three of a slice's four rows hold projected numbers in lon/lat: alone, the slice looks
    like a file in the wrong CRS (refused), but the file's 228 rows are not (three rows are
    unassigned, with why): the worker reads the file whole, which passes, and the slice again
    as a part of it; one run's bytes. A file whose most rows are so is refused as one run
    refuses it."""
    from posting import distributed
    from posting.errors import CRSError
    from posting.io import read_markers
    from posting.job import Job

    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    table.loc[9:11, ["lon", "lat"]] = ["512345.5", "1523456.5"]
    signs = tmp_path / "signs.csv"
    _signs_csv(signs, table)
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    report = json.loads(_one_and_sliced(tmp_path, scheduler, signs))
    far = [s for s in report["unassigned_signs"] if "not an angle" in s["reason"]]
    assert [s["row"] for s in far] == [9, 10, 11]

    table.loc[:150, ["lon", "lat"]] = ["512345.5", "1523456.5"]
    _signs_csv(signs, table)
    with pytest.raises(CRSError) as one:
        read_markers([str(signs)])
    job = Job(parcels=str(SAMPLE / "parcels.geojson"), signs=(str(signs),), rules=("florida",))
    out = tmp_path / "refused.json"
    with pytest.raises(CRSError) as part:
        distributed.run_and_write(job, scheduler=scheduler, outputs={"json": str(out)})
    assert str(part.value) == str(one.value) and "not degrees" in str(one.value)
    assert not out.exists()


def test_a_plain_parquet_marker_file_is_read_piece_by_piece(tmp_path, scheduler, monkeypatch):
    """A Parquet file of lon/lat columns (no GeoParquet metadata) in row groups of 4: each
    worker reads its piece's rows, not the whole file (every piece gave all 228 signs, so the
    run counted 12,996); one run's bytes."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    for c in ("lon", "lat"):
        table[c] = pd.to_numeric(table[c], errors="coerce")
    signs = tmp_path / "signs.parquet"
    pq.write_table(pa.Table.from_pandas(table, preserve_index=False), signs, row_group_size=4)
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    assert len(dataset.pieces(signs)) == 57
    report = json.loads(_one_and_sliced(tmp_path, scheduler, signs))
    assert report["summary"]["markers_read"] == 228


def test_geoparquet_files_in_geoarrow_s_encoding_are_read_piece_by_piece(
    tmp_path, scheduler, monkeypatch
):
    """GeoParquet files whose geometry is in GeoArrow's encoding (not WKB: geopandas reads
    them) in row groups of 4, parcels and signs: each piece's rows only, one run's bytes (every
    piece read the whole file: 57 pieces of the 227 placed signs counted 12,939)."""
    import geopandas as gpd

    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    x, y = (pd.to_numeric(table[c], errors="coerce") for c in ("lon", "lat"))
    marks = gpd.GeoDataFrame(
        table.drop(columns=["lon", "lat"]), geometry=gpd.points_from_xy(x, y), crs=4326
    )[x.notna() & y.notna()]
    signs, parcels = tmp_path / "signs.parquet", tmp_path / "parcels.parquet"
    marks.to_parquet(signs, geometry_encoding="geoarrow", row_group_size=4)
    lots = gpd.read_file(SAMPLE / "parcels.geojson")
    lots.to_parquet(parcels, geometry_encoding="geoarrow", row_group_size=4)
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    assert len(dataset.pieces(signs)) == 57 and len(dataset.pieces(parcels)) == 8
    report = json.loads(_one_and_sliced(tmp_path, scheduler, signs, parcels))
    assert report["summary"]["markers_read"] == 227 and report["summary"]["parcels"] == 29


def test_a_dataset_in_geoarrow_s_encoding_reads_as_its_files(tmp_path, scheduler):
    """A dataset of GeoParquet files in GeoArrow's encoding (was refused): its rows in order,
    as its files read one after another, in one run and in pieces. (Its files must share one
    geometry type, GeoArrow's columns being of one: here every parcel a MultiPolygon.)"""
    import geopandas as gpd
    from shapely.geometry import MultiPolygon

    lots = gpd.read_file(SAMPLE / "parcels.geojson")
    lots.geometry = [
        MultiPolygon([g]) if g is not None and g.geom_type == "Polygon" else g
        for g in lots.geometry
    ]
    folder = tmp_path / "parcels"
    for k, part in enumerate((lots.iloc[:10], lots.iloc[10:])):
        (folder / f"county={k}").mkdir(parents=True)
        part.to_parquet(folder / f"county={k}" / "part.parquet", geometry_encoding="geoarrow")
    report = json.loads(_one_and_sliced(tmp_path, scheduler, SAMPLE / "signs.csv", folder))
    assert [p["id"] for p in report["parcels"]] == lots["parcel_id"].tolist()


def test_every_context_setting_reaches_the_partitions():
    """Each setting of ContextFiles is either a layer sent to the partitions or read of their
    parcels: one that is neither would be left out of the partitioned check (the registry,
    the places and the sight distance once were: false verdicts)."""
    from posting.distributed import _LAYER_SETTINGS, _PER_ROW
    from posting.job import ContextFiles

    sent = {f for names in _LAYER_SETTINGS.values() for f in names} | set(_PER_ROW)
    assert sent == set(ContextFiles.__dataclass_fields__)


def _context_layers(tmp_path: Path) -> dict[str, Path]:
    """Places, a registry, access ways and land cover over the sample's parcels."""
    import geopandas as gpd
    from shapely.geometry import LineString, box

    lots = gpd.read_file(SAMPLE / "parcels.geojson")
    placed = lots[lots.geometry.notna()]
    x0, y0, x1, y1 = placed.total_bounds
    mid = (x0 + x1) / 2
    out = {}
    layers = {
        "places": gpd.GeoDataFrame(
            {"name": ["Chicago", "Peoria"]},
            geometry=[box(x0 - 1, y0 - 1, mid, y1 + 1), box(mid, y0 - 1, x1 + 1, y1 + 1)],
        ),
        "registry": gpd.GeoDataFrame(
            {"year": [2026, 2025, 2026]}, geometry=list(placed.geometry.iloc[[0, 3, 7]])
        ),
        "access": gpd.GeoDataFrame(
            {"type": ["driveway", "road", "trail"]},
            geometry=[
                LineString([(p.x, p.y), (p.x + 0.01, p.y)])
                for p in placed.geometry.iloc[[1, 4, 9]].representative_point()
            ],
        ),
        "landcover": gpd.GeoDataFrame(
            {"cover": ["forest", "field"] * 5}, geometry=list(placed.geometry.iloc[:10])
        ),
    }
    for name, frame in layers.items():
        out[name] = tmp_path / f"{name}.geojson"
        frame.set_crs(4326).to_file(out[name], engine="pyogrio")
    return out


@pytest.mark.parametrize(
    "case",
    ["registry-where", "registry", "places", "place-field", "sight-access-landcover"],
)
def test_context_settings_in_partitions_as_in_one_run(tmp_path, scheduler, case):
    """The registry (a layer or parcel attributes), the places (a layer or a parcel column), the
    sight distance, access ways, land cover and the date give the partitioned check one run's
    bytes; each case's profile reads its setting."""
    layers = _context_layers(tmp_path)
    base = [
        "check",
        str(SAMPLE / "parcels.geojson"),
        "--signs",
        str(SAMPLE / "signs.csv"),
        "--id-field",
        "parcel_id",
        "--owner-field",
        "owner",
        "--check-date",
        "2026-11-01",
    ]
    extra = {
        "registry-where": [
            "--rules", "north-dakota-electronic", "--registry-where", "owner=Harney Timber LLC"
        ],
        "registry": ["--rules", "vermont", "--registry", str(layers["registry"])],
        "places": [
            "--rules", "illinois-mixed", "--places", str(layers["places"]), "--place-field", "name"
        ],
        "place-field": ["--rules", "illinois-mixed", "--place-field", "owner"],
        "sight-access-landcover": [
            "--rules", "michigan", "--rules", "arizona", "--sight-ft", "40",
            "--access", str(layers["access"]), "--access-type-field", "type",
            "--landcover", str(layers["landcover"]), "--landcover-field", "cover",
            "--public-where", "owner=Harney Timber LLC",
        ],
    }[case]  # fmt: skip
    _same([*base, *extra], tmp_path, scheduler, 4)


@pytest.mark.parametrize("attribute", [False, True], ids=["unknown", "attribute"])
def test_the_land_cover_note_counts_the_gaps_each_profile_judges(tmp_path, scheduler, attribute):
    """Texas's two ways to post, both with spacing by land cover, as alternatives: each
    profile measures every parcel, and its note counts the gaps of the parcels it judges, in
    one run as in partitions of 3 (whose notes the run sums; one run once counted every
    parcel's gaps under each profile, the partitions their own judged parcels': other JSON).
    The counts are those of each profile checked alone (the library: every gap of the parcels
    the alternatives run gave it). Without land cover, every gap's is unknown; with a parcel
    attribute (forest, field, or blank by turns), the blank parcels' gaps are."""
    import geopandas as gpd

    from posting import check, read_markers, read_parcels
    from posting.measure import Context

    parcels = SAMPLE / "parcels.geojson"
    covers = None
    if attribute:
        lots = gpd.read_file(parcels)
        covers = [("forest", "field", None)[i % 3] for i in range(len(lots))]
        lots["cover"] = covers
        parcels = tmp_path / "parcels.geojson"
        lots.to_file(parcels, engine="pyogrio")
    args = ["check", str(parcels), "--signs", str(SAMPLE / "signs.csv"), "--id-field", "parcel_id"]
    args += ["--rules", "texas", "--rules", "texas-signs"]
    if attribute:
        args += ["--landcover-field", "cover"]
    report = _same(args, tmp_path, scheduler, 3)
    judged = {p["id"]: p["rules"] for p in report["parcels"]}
    lots = read_parcels(parcels, id_field="parcel_id")
    signs = read_markers([SAMPLE / "signs.csv"])
    ctx = None
    if attribute:
        ctx = Context(parcel_landcover=[None if v is None else v == "forest" for v in covers])
    for name in ("texas", "texas-signs"):
        alone = check(lots, signs, name, context=ctx)
        ids = alone.parcels["id"].to_numpy()[alone.gaps["parcel"].to_numpy()]
        mine = alone.gaps[[judged[i] == name for i in ids]]
        assert 0 < len(mine) < len(alone.gaps)  # some parcels judged by each
        unknown = int(np.isnan(mine["forest"].to_numpy(dtype=float)).sum())
        assert 0 < unknown <= len(mine)
        notes = [
            x["reason"]
            for x in report["not_checked"]
            if x["profile"] == name and x["rule"] == "landcover"
        ]
        assert notes[0].startswith(f"land cover unknown for {unknown} of {len(mine)} gaps")


@pytest.mark.parametrize("attribute", [False, True], ids=["unknown", "attribute"])
def test_the_line_of_sight_note_counts_every_line_once(tmp_path, scheduler, attribute):
    """Michigan's markers in sight of each other, land cover unknown (or blank on every third
    parcel): the note counts each line of sight once, in one run as in partitions of 3 (each
    counts its own parcels' lines, the run sums them; a partition's own note once stood for
    the run's). On the sample every ring with signs has two or more, so a parcel's lines are
    its signs (each sign and the next along its ring)."""
    import geopandas as gpd

    parcels = SAMPLE / "parcels.geojson"
    lots = gpd.read_file(parcels)
    covers = [None] * len(lots)
    if attribute:
        covers = [("forest", "field", None)[i % 3] for i in range(len(lots))]
        lots["cover"] = covers
        parcels = tmp_path / "parcels.geojson"
        lots.to_file(parcels, engine="pyogrio")
    args = ["check", str(parcels), "--signs", str(SAMPLE / "signs.csv"), "--id-field", "parcel_id"]
    args += ["--rules", "michigan"] + (["--landcover-field", "cover"] if attribute else [])
    report = _same(args, tmp_path, scheduler, 3)
    cover = dict(zip(lots["parcel_id"], covers, strict=True))
    lines = {p["id"]: p["signs"] if p["signs"] >= 2 else 0 for p in report["parcels"]}
    unknown = sum(n for i, n in lines.items() if cover[i] is None)
    [note] = [x["reason"] for x in report["not_checked"] if x["rule"] == "in_sight"]
    assert note.startswith(
        f"land cover unknown along {unknown} of {sum(lines.values())} lines of sight"
    )
    assert 0 < unknown < sum(lines.values()) if attribute else unknown == 226


def test_a_dataset_whose_files_lack_a_column_reads_as_one_run(tmp_path, scheduler):
    """A parcel dataset whose second file has no owner column: one run reads the column null
    there; each piece has the dataset's columns too (a piece of that file was refused: no
    column 'owner')."""
    import geopandas as gpd

    lots = gpd.read_file(SAMPLE / "parcels.geojson")
    folder = tmp_path / "parcels"
    for k, part in enumerate((lots.iloc[:15], lots.iloc[15:].drop(columns=["owner"]))):
        (folder / f"county={k}").mkdir(parents=True)
        part.to_parquet(folder / f"county={k}" / "part.parquet")
    args = ["check", str(folder), "--signs", str(SAMPLE / "signs.csv"), "--id-field", "parcel_id"]
    report = _same([*args, "--owner-field", "owner"], tmp_path, scheduler, 4)
    assert [p["owner"] is None for p in report["parcels"]] == [False] * 15 + [True] * 14


def test_a_dataset_in_two_crss_is_refused_as_in_one_run(tmp_path, scheduler):
    """A marker dataset whose second file is in another CRS: one run's message, naming the
    file (the pieces were each read in their own CRS: another message)."""
    import geopandas as gpd

    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    x, y = (pd.to_numeric(table[c], errors="coerce") for c in ("lon", "lat"))
    marks = gpd.GeoDataFrame(
        table.drop(columns=["lon", "lat"]), geometry=gpd.points_from_xy(x, y), crs=4326
    )
    folder = tmp_path / "signs"
    for k, part in enumerate((marks.iloc[:100], marks.iloc[100:].to_crs(2236))):
        (folder / f"a={k}").mkdir(parents=True)
        part.to_parquet(folder / f"a={k}" / "p.parquet")
    base = ["check", str(SAMPLE / "parcels.geojson"), "--signs", str(folder), "-q"]
    lines = {}
    for mode, extra in (("one", []), ("part", ["--scheduler", scheduler])):
        res = _run([*base, "--json", str(tmp_path / f"{mode}.json"), *extra], cwd=ROOT)
        assert res.returncode == 2 and not (tmp_path / f"{mode}.json").exists()
        lines[mode] = res.stderr.decode().strip().splitlines()[-1]
    assert (
        lines["one"] == lines["part"]
        and "every file of a dataset must have one geometry column, in one CRS" in lines["one"]
    )


def test_context_layers_read_in_pieces_as_one_run(tmp_path, scheduler, monkeypatch):
    """Context layers larger than a piece are read piece by piece (a state's water is not read
    whole by one worker): the sample's water, dwellings, fences and easements as GeoParquet in
    row groups of one feature, access ways and land cover as GeoPackages in slices of one; each
    partition gets the features that reach it in the layer's order, and the outputs are one
    run's, byte for byte."""
    import geopandas as gpd

    from posting import distributed
    from posting.cli import flag
    from posting.job import ContextFiles, Job

    files = {}
    for name in ("water", "dwellings", "fences", "easements"):
        files[name] = tmp_path / f"{name}.parquet"
        gpd.read_file(SAMPLE / f"{name}.geojson").to_parquet(files[name], row_group_size=1)
    for name, path in _context_layers(tmp_path).items():
        if name in ("access", "landcover"):
            files[name] = tmp_path / f"{name}.gpkg"
            gpd.read_file(path).to_file(files[name], engine="pyogrio")
    monkeypatch.setattr(dataset, "PIECE_ROWS", 1)
    assert len(dataset.pieces(files["dwellings"])) == 13
    assert len(dataset.pieces(files["landcover"])) == 10
    options = {"access_type_field": "type", "landcover_field": "cover"}
    context = ContextFiles(**{k: str(v) for k, v in files.items()}, **options)
    args = ["--id-field", "parcel_id", "--owner-field", "owner", "--rules", "florida"]
    args += [x for k, v in files.items() for x in (f"--{k}", str(v))]
    args += ["--access-type-field", "type", "--landcover-field", "cover"]
    outputs = ["--json", str(tmp_path / "one.json"), "--geojson", str(tmp_path / "one.geojson")]
    parcels, signs = str(SAMPLE / "parcels.geojson"), str(SAMPLE / "signs.csv")
    res = _run(["check", parcels, "--signs", signs, *args, *outputs, "-q"], ROOT)
    assert res.returncode == 1, res.stderr.decode()[-3000:]
    job = Job(
        parcels=parcels,
        signs=(signs,),
        id_field="parcel_id",
        owner_field="owner",
        rules=("florida",),
        context=context,
    )
    out = {"json": str(tmp_path / "part.json"), "geojson": str(tmp_path / "part.geojson")}
    distributed.run_and_write(job, scheduler=scheduler, partition_parcels=4, outputs=out, name=flag)
    for ext in ("json", "geojson"):
        one, part = ((tmp_path / f"{m}.{ext}").read_bytes() for m in ("one", "part"))
        assert _STAMP.sub(b"", one) == _STAMP.sub(b"", part), ext
    report = json.loads((tmp_path / "one.json").read_bytes())
    assert sum(p["water_frontage_ft"] > 0 for p in report["parcels"]) > 0
    assert any(p["easements"] for p in report["parcels"])


def _sample_with_context(tmp_path: Path, scheduler: str, options: list[str], **context) -> dict:
    """The sample's parcels and signs.csv (florida) with the context layers ``context`` (the
    settings of :class:`posting.job.ContextFiles`; ``options``, the same as the command's),
    checked by the command and partitioned in-process in partitions of 4 (where the pieces are
    cut): the same JSON, their stamps aside; the report."""
    from posting import distributed
    from posting.cli import flag
    from posting.job import ContextFiles, Job

    parcels, signs = str(SAMPLE / "parcels.geojson"), str(SAMPLE / "signs.csv")
    args = ["--id-field", "parcel_id", "--rules", "florida", *options]
    res = _run(
        ["check", parcels, "--signs", signs, *args, "--json", str(tmp_path / "one.json")], ROOT
    )
    assert res.returncode == 1, res.stderr.decode()[-3000:]
    files = ContextFiles(**{k: str(v) for k, v in context.items()})
    job = Job(
        parcels=parcels, signs=(signs,), id_field="parcel_id", rules=("florida",), context=files
    )
    out = {"json": str(tmp_path / "part.json")}
    distributed.run_and_write(job, scheduler=scheduler, partition_parcels=4, outputs=out, name=flag)
    one, part = ((tmp_path / f"{m}.json").read_bytes() for m in ("one", "part"))
    assert _STAMP.sub(b"", one) == _STAMP.sub(b"", part)
    return json.loads(one)


def test_context_geojson_slices_typed_apart_are_sent_again_whole(tmp_path, scheduler, monkeypatch):
    """An easements GeoJSON file whose holders are whole numbers in its first slice and decimals
    in the others: GDAL reads the file whole with decimals (holder '7.0'), its first slice with
    whole numbers ('7'). The slices, sent to the partitions as they are read, are found typed
    apart and the file is sent again whole: the holder each parcel names is one run's."""

    collection = json.loads((SAMPLE / "easements.geojson").read_text(encoding="utf-8"))
    feature = collection["features"][0]
    collection["features"] = [
        dict(feature, properties=dict(feature["properties"], holder=h))
        for h in (7, 7, 7.5, 7.5, 7.5, 7.5)
    ]
    easements = tmp_path / "easements.geojson"
    easements.write_text(json.dumps(collection), encoding="utf-8")
    monkeypatch.setattr(dataset, "PIECE_ROWS", 2)
    assert [p.rows for p in dataset.pieces(easements)] == [2, 2, 2]
    assert len(_probed(dataset.pieces(easements))) == 1
    options = ["--easements", str(easements), "--easement-holder-field", "holder", "-q"]
    report = _sample_with_context(
        tmp_path, scheduler, options, easements=easements, easement_holder_field="holder"
    )
    holders = {e["holder"] for p in report["parcels"] for e in p["easements"]}
    assert holders == {"7.0"}


def test_context_features_left_out_are_named_as_one_run_names_them(
    tmp_path, scheduler, monkeypatch
):
    """Context layers read in pieces of two features, with features that cannot be used in
    later pieces: a GeoJSON water layer with features without geometry in its second and third
    slices and rings that are not closed in them too (notes each slice has of its own ring: the
    file is read again whole, to say it once as one run does), and a bowtie in its first and
    last (made valid to be measured, said once with both rows); dwellings as a GeoPackage in UTM
    metres (slices of two) with a point without geometry, one at a northing of 1e300 and one at
    an easting of 1e300; a registry CSV file with a latitude in degrees and minutes in its first
    and third slices (each slice's note names its own first: the file is read again whole). The
    report names each by its row of the file, once, in one run's words and order: one run's
    bytes."""
    import geopandas as gpd
    import shapely

    collection = json.loads((SAMPLE / "water.geojson").read_text(encoding="utf-8"))
    lake, pond = collection["features"]
    ring = [list(p) for p in pond["geometry"]["coordinates"][0][:-1]]  # not closed
    x0, y0, x1, y1 = shapely.bounds(shapely.geometry.shape(pond["geometry"]))
    bowtie = {
        "type": "Polygon",
        "coordinates": [[[x0, y0], [x1, y1], [x1, y0], [x0, y1], [x0, y0]]],
    }
    collection["features"] = [
        lake,
        dict(pond, geometry=bowtie),
        dict(pond, geometry={"type": "Polygon", "coordinates": [ring]}),
        dict(pond, geometry=None),
        dict(pond, geometry={"type": "Polygon", "coordinates": [ring]}),
        dict(pond, geometry=None),
        pond,
        dict(pond, geometry=bowtie),
    ]
    water = tmp_path / "water.geojson"
    water.write_text(json.dumps(collection), encoding="utf-8")
    houses = gpd.read_file(SAMPLE / "dwellings.geojson").to_crs(32617)
    n = len(houses)
    far = [None, shapely.Point(500_000, 1e300), shapely.Point(1e300, 3_000_000)]
    houses = gpd.GeoDataFrame(
        pd.concat([houses, houses.iloc[:3].set_geometry(far)], ignore_index=True), crs=32617
    )
    dwellings = tmp_path / "dwellings.gpkg"
    houses.to_file(dwellings)
    dms = "28\u00b044.721444'N"
    registry = tmp_path / "registry.csv"
    registry.write_text(
        "lon,lat,year\n-81.1095388,28.7453581,2026\n"
        f"-81.1092271,{dms},2026\n-81.108915,28.7453574,2025\n-81.108915,28.7453,2025\n"
        f"-81.108915,{dms},2026\n-81.1095388,28.7453,2026\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(dataset, "PIECE_ROWS", 2)
    assert len(dataset.pieces(water)) == 4 and len(dataset.pieces(dwellings)) > 3
    assert len(dataset.pieces(registry)) == 3
    options = ["--water", str(water), "--dwellings", str(dwellings), "--registry", str(registry)]
    layers = {"water": water, "dwellings": dwellings, "registry": registry}
    report = _sample_with_context(tmp_path, scheduler, [*options, "-q"], **layers)
    said = [w for w in report["warnings"] if str(tmp_path) in w]
    off = "not on the Earth: a coordinate beyond 304,800,000 m in WGS 84 / UTM zone 17N"
    assert said == [
        f"{water}: 2 row(s) have a ring that is not closed; each was closed by joining its last "
        "vertex to its first (rows 2, 4)",
        f"{water}: 2 feature(s) left out (rows 3, 5): no geometry",
        f"{water}: 2 polygon(s) not valid, made valid to be measured (rows 1, 7): "
        "Self-intersection",
        f"{dwellings}: 1 feature(s) left out (row {n}): no geometry",
        f"{dwellings}: 2 feature(s) left out (rows {n + 1}, {n + 2}): {off}",
        f"{registry}: 2 row(s) give lat in degrees and minutes, read as decimal degrees "
        f"(row 1: {dms!r} as 28.7453574)",
    ]


def test_access_polygons_are_left_out_alike_in_every_partition(tmp_path, scheduler, monkeypatch):
    """An access layer of lines, gates and polygons (a right of way drawn as a polygon): the
    polygons are left out with a warning naming their rows and why, in one run as in
    partitions of 4 with the layer read in pieces of 2 rows; the lines' crossings are found.
    A county's rights of way as one polygon gave no access point and took 234 s."""
    import geopandas as gpd

    lots = gpd.read_file(SAMPLE / "parcels.geojson")
    x0, y0, x1, y1 = lots.total_bounds
    xm, ym = (x0 + x1) / 2, (y0 + y1) / 2
    road = shapely.LineString([(x0 - 0.001, ym), (x1 + 0.001, ym)])
    geoms = [
        road,
        shapely.box(x0, ym - 0.0002, x1, ym + 0.0002),  # its right of way
        shapely.Point(xm, y0),
        shapely.LineString([(xm, y0 - 0.001), (xm, y1 + 0.001)]),
        shapely.MultiPolygon([shapely.box(xm, y0, xm + 1e-4, y0 + 1e-4)]),
    ]
    access = tmp_path / "access.geojson"
    kinds = ["road", "road", "gate", "trail", "driveway"]
    gpd.GeoDataFrame({"type": kinds}, geometry=geoms, crs=4326).to_file(access)
    monkeypatch.setattr(dataset, "PIECE_ROWS", 2)
    report = _sample_with_context(tmp_path, scheduler, ["--access", str(access)], access=access)
    said = [w for w in report["warnings"] if str(access) in w]
    assert said == [f"{access}: 2 feature(s) left out (rows 1, 4): {POLYGON_ACCESS}"]


def test_a_river_across_a_continent_is_cut_alike_in_every_partition(tmp_path, scheduler):
    """The sample's river as one polygon reaching 140 degrees east (its far end beyond what
    the working frame holds, cut at the frame's reach): one run's bytes in partitions of 4,
    and the river's bank frontage as without its far reach."""
    import shapely
    from shapely.geometry import mapping, shape

    collection = json.loads((SAMPLE / "water.geojson").read_text(encoding="utf-8"))
    river = shape(collection["features"][0]["geometry"])
    _, y0, x1, _ = river.bounds
    spike = shapely.Polygon(
        [(x1 - 0.001, y0), (60, y0 - 5e-4), (60, y0 - 2e-4), (x1 - 0.001, y0 + 3e-4)]
    )
    collection["features"][0]["geometry"] = mapping(shapely.union(river, spike))
    water = tmp_path / "water.geojson"
    water.write_text(json.dumps(collection), encoding="utf-8")
    report = _sample_with_context(tmp_path, scheduler, ["--water", str(water), "-q"], water=water)
    frontage = {p["id"]: p["water_frontage_ft"] for p in report["parcels"]}
    assert frontage["N01"] == 422.16 and frontage["N10"] == 408.62  # (as the sample's river)


def test_a_river_too_big_to_grow_whole_is_grown_near_each_partition_as_in_one_run(
    tmp_path, scheduler
):
    """The sample's river with its edges cut into 120,000 vertices, more than a feature grown
    whole may have (:data:`posting.checks.land.BUFFER_WHOLE_MAX`): cut into tiles, of which
    each partition of 4 grows those near its rings only. One run's bytes, and the river's
    bank frontage within a hundredth of a foot of the sample's (the new vertices lie on its
    edges, in degrees)."""
    import shapely
    from shapely.geometry import mapping, shape

    from posting.checks.land import BUFFER_WHOLE_MAX

    collection = json.loads((SAMPLE / "water.geojson").read_text(encoding="utf-8"))
    river = shape(collection["features"][0]["geometry"])
    dense = shapely.segmentize(river, river.exterior.length / 120_000)
    assert shapely.get_num_coordinates(dense) > BUFFER_WHOLE_MAX
    collection["features"][0]["geometry"] = mapping(dense)
    water = tmp_path / "water.geojson"
    water.write_text(json.dumps(collection), encoding="utf-8")
    report = _sample_with_context(tmp_path, scheduler, ["--water", str(water), "-q"], water=water)
    frontage = {p["id"]: p["water_frontage_ft"] for p in report["parcels"]}
    assert frontage["N01"] == pytest.approx(422.16, abs=0.01)
    assert frontage["N10"] == pytest.approx(408.62, abs=0.01)


def test_a_parquet_piece_refused_alone_is_read_as_part_of_its_file(
    tmp_path, scheduler, monkeypatch
):
    """A plain Parquet file of lon/lat in row groups of 4, three of one group's rows holding
    projected numbers: that piece alone looks like a file in the wrong CRS, the file does not;
    one run's bytes."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    for c in ("lon", "lat"):
        table[c] = pd.to_numeric(table[c], errors="coerce")
    table.loc[9:11, ["lon", "lat"]] = [512345.5, 1523456.5]
    signs = tmp_path / "signs.parquet"
    pq.write_table(pa.Table.from_pandas(table, preserve_index=False), signs, row_group_size=4)
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    report = json.loads(_one_and_sliced(tmp_path, scheduler, signs))
    far = [s["row"] for s in report["unassigned_signs"] if "not an angle" in s["reason"]]
    assert far == [9, 10, 11]


def test_features_beyond_any_angle_in_one_slice_are_theirs_as_in_one_run(
    tmp_path, scheduler, monkeypatch
):
    """Three lots of the sample (rows 8-10, three of the slice of rows 8-11) and three signs
    (rows 9-11, of the GeoJSON slice of rows 8-11) with a longitude typed 10,000 times too
    large: alone, each slice looks like a layer in the wrong CRS; in the file they are a few
    features' mistakes, which one run names by row. The workers read both files whole, which
    pass, and the slices again as parts of them: one run's bytes."""
    lots = json.loads((SAMPLE / "parcels.geojson").read_text(encoding="utf-8"))
    for f in lots["features"][8:11]:
        ring = f["geometry"]["coordinates"][0]
        ring = ring[0] if f["geometry"]["type"] == "MultiPolygon" else ring
        ring[1][0] *= 1e4
    parcels = tmp_path / "parcels.geojson"
    parcels.write_text(json.dumps(lots), encoding="utf-8")
    signs = _signs_geojson(tmp_path / "signs.geojson")
    marks = json.loads(signs.read_text(encoding="utf-8"))
    for f in marks["features"][9:12]:
        f["geometry"]["coordinates"][0] *= 1e4
    signs.write_text(json.dumps(marks), encoding="utf-8")
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    report = json.loads(_one_and_sliced(tmp_path, scheduler, signs, parcels))
    typed = "is not degrees, as most of the layer's (WGS 84) are: a typing error?"
    invalid = [p["row"] for p in report["parcels"] if typed in (p.get("invalid_reason") or "")]
    assert invalid == [8, 9, 10]
    assert [s["row"] for s in report["unassigned_signs"] if typed in s["reason"]] == [9, 10, 11]


def test_lots_with_a_stray_vertex_are_theirs_as_in_one_run(tmp_path, scheduler, monkeypatch):
    """Three lots of the sample (rows 8-10) with a longitude typed 5 degrees off (a vertex
    300 miles away in the Gulf): each is `invalid` with its vertex, in slices of 4 as in one
    run, and none pulls a working frame of its own into the plan: one run's bytes."""
    lots = json.loads((SAMPLE / "parcels.geojson").read_text(encoding="utf-8"))
    for f in lots["features"][8:11]:
        ring = f["geometry"]["coordinates"][0]
        ring = ring[0] if f["geometry"]["type"] == "MultiPolygon" else ring
        ring[1][0] -= 5
    parcels = tmp_path / "parcels.geojson"
    parcels.write_text(json.dumps(lots), encoding="utf-8")
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    report = json.loads(_one_and_sliced(tmp_path, scheduler, SAMPLE / "signs.csv", parcels))
    typed = "a coordinate typed or digitised wrong?"
    invalid = [p["row"] for p in report["parcels"] if typed in (p.get("invalid_reason") or "")]
    assert invalid == [8, 9, 10]
    assert len(report["crs_detail"]) == 1


def test_a_sign_far_outside_the_parcels_is_said_to_be_as_in_one_run(tmp_path, scheduler):
    """A sign typed 5 degrees west of the sample (300 miles into the Gulf): no partition is
    near it, and its reason says how far outside the parcels' extent it stands, from the
    partitions' extents as one run's from its own: one run's bytes."""
    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    table.loc[10, "lon"] = str(float(table.loc[10, "lon"]) - 5)
    signs = tmp_path / "signs.csv"
    table.to_csv(signs, index=False)
    report = json.loads(_one_and_sliced(tmp_path, scheduler, signs))
    far = [s for s in report["unassigned_signs"] if "typed wrong" in s["reason"]]
    assert [s["row"] for s in far] == [10]
    assert "; it stands 303 miles outside the parcels' extent" in far[0]["reason"]


def test_a_spreadsheet_s_headers_as_in_one_run(tmp_path, scheduler):
    """The sample's signs under the headers a spreadsheet gives them (``Sign ID``, ``Letter
    Height (in)``, ``Name On Sign`` ...): one run's bytes, and the same verdicts as under the
    canonical names (the headers are read as the columns they spell in every partition)."""
    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    headers = {
        "sign_id": "Sign ID",
        "kind": "Marker Kind",
        "letter_height_in": "Letter Height (in)",
        "text": "Sign Text",
        "name_on_sign": "Name On Sign",
        "facing_deg": "Facing (°)",
        "surveyed": "Survey Date",
    }
    signs = tmp_path / "signs.csv"
    table.rename(columns=headers).to_csv(signs, index=False)
    report = json.loads(_one_and_sliced(tmp_path, scheduler, signs))
    plain = tmp_path / "plain"
    plain.mkdir()
    canonical = json.loads(_one_and_sliced(plain, scheduler, SAMPLE / "signs.csv"))
    verdicts = [(p["status"], p.get("violations"), p.get("not_checked")) for p in report["parcels"]]
    want = [(p["status"], p.get("violations"), p.get("not_checked")) for p in canonical["parcels"]]
    assert verdicts == want
    assert any(p.get("violations") for p in report["parcels"])


_RENEWAL = """schema = 1
name = "renewal-test"
title = "A profile of the tests"
jurisdiction = "Nowhere"
citation = "Test Code 1"
source_url = "https://example.org/test"
purpose = "test"
verification = "unverified"
kinds = ["sign"]

[spacing]
max_ft = 100
clause = "Test Code 1(a)"

[renewal]
days = 365
clause = "Test Code 1(c)"
"""


@pytest.mark.parametrize("settled", ["day", "none", "us"])
def test_survey_dates_are_read_in_the_order_of_the_whole_file_in_slices(
    tmp_path, scheduler, monkeypatch, settled
):
    """The sample's signs surveyed 01.12.2025, checked on 2026-11-30 with renewal every 365
    days, read in 57 slices of 4: with one 13.10.2026 (row 200) the whole file is day first,
    in every slice too: 1 December 2025 (364 days: recent), no renewal note; without it no
    date settles the order: every such sign is not known (12 January 2025 would be 687 days
    old), with the file's note. Written 01/12/2025, with slashes, the file is read the US way,
    month first: 12 January 2025, every sign old. One run's bytes each way."""
    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    table["surveyed"] = "01/12/2025" if settled == "us" else "01.12.2025"
    if settled == "day":
        table.loc[200, "surveyed"] = "13.10.2026"
    signs = tmp_path / "signs.csv"
    _signs_csv(signs, table)
    rules = tmp_path / "renewal-test.toml"
    rules.write_text(_RENEWAL)
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    report = json.loads(
        _one_and_sliced(tmp_path, scheduler, signs, rules=str(rules), check_date="2026-11-30")
    )
    noted = [n for p in report["parcels"] for n in p.get("notes", []) if n["rule"] == "renewal"]
    unknown = [
        n for p in report["parcels"] for n in p.get("not_checked", []) if n["rule"] == "renewal"
    ]
    read_so = f"{signs}: survey dates of column 'surveyed' read day first (row 200: "
    either = f"{signs}: 228 survey date(s) of column 'surveyed' read either way, day first"
    us = f"{signs}: 228 survey date(s) of column 'surveyed' read month first, the US way"
    signs_assigned = sum(p["signs"] for p in report["parcels"])
    if settled == "day":
        assert noted == [] and unknown == []
        assert any(w.startswith(read_so) for w in report["warnings"])
    elif settled == "none":
        assert noted == []
        assert sum(n["count"] for n in unknown) == signs_assigned > 0
        assert any(w.startswith(either) for w in report["warnings"])
    else:
        assert unknown == []
        assert sum(n["count"] for n in noted) == signs_assigned > 0
        assert any(w.startswith(us) for w in report["warnings"])


def test_a_file_of_both_date_orders_in_two_slices_is_refused_as_in_one_run(
    tmp_path, scheduler, monkeypatch
):
    """Row 50 day first (13/10/2026), row 200 month first (10/14/2026), slices apart: the
    partitioned run refuses the file with one run's message."""
    from posting import distributed
    from posting.cli import flag
    from posting.errors import InputError
    from posting.job import Job

    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    table.loc[50, "surveyed"] = "13/10/2026"
    table.loc[200, "surveyed"] = "10/14/2026"
    signs = tmp_path / "signs.csv"
    _signs_csv(signs, table)
    parcels = str(SAMPLE / "parcels.geojson")
    one = _run(["check", parcels, "--signs", str(signs), "--id-field", "parcel_id", "-q"], ROOT)
    assert one.returncode == 2
    said = (
        f"{signs}: its 'surveyed' column has dates written day first and dates written month "
        "first: row 50 '13/10/2026' (a first field over 12: day first) and row 200 "
        "'10/14/2026' (a second field over 12: month first)"
    )
    assert said in one.stderr.decode()
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    job = Job(parcels=parcels, signs=(str(signs),), id_field="parcel_id", rules=("florida",))
    with pytest.raises(InputError) as e:
        distributed.run_and_write(
            job,
            scheduler=scheduler,
            partition_parcels=7,
            outputs={"json": str(tmp_path / "part.json")},
            name=flag,
        )
    assert f"posting: error: {e.value.worded(flag)}\n".encode() == one.stderr


def test_a_sign_whose_longitude_lost_its_minus_sign_is_said_to_be_as_in_one_run(
    tmp_path, scheduler
):
    """One sign of the sample typed without its longitude's minus sign (China): its reason
    names the slip, worded from the partitions' extents as one run's: one run's bytes."""
    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    table.loc[10, "lon"] = table.loc[10, "lon"].lstrip("-")
    signs = tmp_path / "signs.csv"
    table.to_csv(signs, index=False)
    report = json.loads(_one_and_sliced(tmp_path, scheduler, signs))
    [far] = [s for s in report["unassigned_signs"] if "minus sign left out" in s["reason"]]
    assert far["row"] == 10
    lon = -float(table.loc[10, "lon"])
    assert f"with the sign of its longitude changed ({lon:.6f})" in far["reason"]


def test_a_folder_of_photos_as_signs_as_in_one_run(tmp_path, scheduler):
    """Geotagged photos of signs (one without a position) beside the CSV: one run's bytes."""
    from photo_files import write_photo

    table = pd.read_csv(SAMPLE / "signs.csv").dropna(subset=["lon", "lat"]).head(20)
    photos = tmp_path / "photos"
    photos.mkdir()
    for k, row in table.iterrows():
        write_photo(photos / f"IMG_{k:04d}.JPG", row.lon + 2e-5, row.lat, camera_deg=90)
    write_photo(photos / "IMG_0999.JPG", None, None)
    signs = ["--signs", str(photos), "--signs", str(SAMPLE / "signs.csv")]
    args = ["check", str(SAMPLE / "parcels.geojson"), *signs, "--id-field", "parcel_id"]
    report = _same(args, tmp_path, scheduler, 4)
    assert report["summary"]["markers_read"] == 249


def _signs_geojson(path: Path, heights: list[float] | None = None) -> Path:
    """The sample's signs as a GeoJSON FeatureCollection (those without a position with a
    null geometry), each with ``heights`` as its letter height if given."""
    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    feats = []
    for i, row in enumerate(table.to_dict("records")):
        lon, lat = (pd.to_numeric(row.pop(c), errors="coerce") for c in ("lon", "lat"))
        if heights is not None:
            row["letter_height_in"] = heights[i]
        point = (
            None if pd.isna(lon) or pd.isna(lat) else {"type": "Point", "coordinates": [lon, lat]}
        )
        feats.append({"type": "Feature", "properties": row, "geometry": point})
    path.write_text(json.dumps({"type": "FeatureCollection", "features": feats}), encoding="utf-8")
    return path


def test_a_large_geojson_file_is_read_in_slices_with_one_run_s_bytes(
    tmp_path, scheduler, monkeypatch
):
    """The sample's parcels (a GeoJSON file) and its signs as one are read by the workers in
    slices of features (a state's GeoJSON is not read whole by one worker), with one run's
    outputs, byte for byte: 29 parcels in 7 slices of 4 and 5, 228 signs in 57 of 4. Every
    slice has the file's columns and types, so the slices are kept."""

    from posting import jsonslices

    signs = _signs_geojson(tmp_path / "signs.geojson")
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    parcels = dataset.pieces(SAMPLE / "parcels.geojson")
    assert [(p.feature_text.first, p.rows) for p in parcels] == [
        (0, 4), (4, 4), (8, 4), (12, 4), (16, 4), (20, 4), (24, 5)
    ]  # fmt: skip
    marks = dataset.pieces(signs)
    assert len(marks) == 57 and all(p.feature_text is not None for p in marks)
    assert _probed(parcels) == parcels and _probed(marks) == marks
    assert jsonslices.agree([jsonslices.columns(str(signs), p.feature_text) for p in marks]) == ()
    report = json.loads(_one_and_sliced(tmp_path, scheduler, signs))
    assert report["summary"]["parcels"] == 29 and report["summary"]["markers_read"] == 228


def test_a_large_geojson_text_sequence_is_read_in_slices_with_one_run_s_bytes(
    tmp_path, scheduler, monkeypatch
):
    """The sample's parcels as a GeoJSON text sequence of lines (``.geojsonl``) and its signs as
    one of records that begin with a record separator (``.geojsons``), as GDAL writes them: read
    by the workers in 7 and 57 slices, with one run's outputs, byte for byte."""
    import geopandas as gpd
    import pyogrio

    parcels, signs = tmp_path / "parcels.geojsonl", tmp_path / "signs.geojsons"
    frame = gpd.read_file(SAMPLE / "parcels.geojson")
    pyogrio.write_dataframe(frame, parcels, driver="GeoJSONSeq")
    frame = gpd.read_file(_signs_geojson(tmp_path / "signs.geojson"))
    pyogrio.write_dataframe(frame, signs, driver="GeoJSONSeq", layer_options={"RS": "YES"})
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    assert [p.feature_text.lines for p in dataset.pieces(parcels)] == [True] * 7
    assert [p.feature_text.lines for p in dataset.pieces(signs)] == [False] * 57
    report = json.loads(_one_and_sliced(tmp_path, scheduler, signs, parcels))
    assert report["summary"]["parcels"] == 29 and report["summary"]["markers_read"] == 228


def test_a_record_gdal_leaves_out_stops_a_sliced_sequence_as_it_stops_one_run(
    tmp_path, scheduler, monkeypatch
):
    """A parcel record that is not JSON in the middle of a GeoJSON text sequence (GDAL's reader
    would leave it out without a word): one run and the workers reading it in slices stop with
    the same message, naming its row and line, before any output is written."""
    from posting import distributed
    from posting.errors import InputError
    from posting.job import Job

    lines = (SAMPLE / "parcels.geojson").read_text(encoding="utf-8")
    features = json.loads(lines)["features"]
    records = [json.dumps(f) for f in features]
    records[9] = '{"type": "Feature", "properties": {"parcel_id": "X"}, "geometry": [}'
    parcels = tmp_path / "parcels.geojsonl"
    parcels.write_text("".join(r + "\n" for r in records), encoding="utf-8")
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    assert len(dataset.pieces(parcels)) == 7
    signs = str(SAMPLE / "signs.csv")
    out = tmp_path / "one.json"
    args = ["check", str(parcels), "--signs", signs, "--id-field", "parcel_id", "--json", str(out)]
    res = _run(args, ROOT)
    assert res.returncode == 2 and not out.exists()
    said = res.stderr.decode().strip()
    assert "the record of row 9 (line 10) is not JSON" in said, said
    job = Job(parcels=str(parcels), signs=(signs,), id_field="parcel_id", rules=("florida",))
    part = tmp_path / "part.json"
    with pytest.raises(InputError) as got:
        distributed.run_and_write(
            job, scheduler=scheduler, partition_parcels=7, outputs={"json": str(part)}
        )
    assert f"posting: error: {got.value.worded()}" == said
    assert not part.exists()


def test_geojson_slices_whose_columns_read_differently_are_read_as_one_file(
    tmp_path, scheduler, monkeypatch
):
    """GDAL types a GeoJSON file's properties by the features it reads: letter heights of 3 in
    the first signs and of 2.5 further on read as whole numbers in the first slices and as
    decimals in the last, where the file read whole has decimals throughout. The file is read
    whole by one worker instead, and the outputs are one run's."""
    from distributed import Client

    from posting import distributed
    from posting.job import Job

    heights = [3] * 200 + [2.5] * 28
    signs = _signs_geojson(tmp_path / "signs.geojson", heights)
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    marks = dataset.pieces(signs)
    assert len(marks) == 57
    assert [(p.path, p.offset, p.rows, p.feature_text) for p in _probed(marks)] == [
        (str(signs), 0, -1, None)
    ]
    report = json.loads(_one_and_sliced(tmp_path, scheduler, signs))
    assert report["summary"]["markers_read"] == 228
    # the markers are not probed before they are distributed: their slices are distributed,
    # found typed apart from the columns they were read with, and the file distributed again
    job = Job(parcels=str(SAMPLE / "parcels.geojson"), signs=(str(signs),), rules=("florida",))
    with Client(scheduler) as client:
        run = distributed.run_partitioned(
            job, client, partition_parcels=7, scratch=str(tmp_path / "scratch")
        )
    assert run.plan.marker_starts == ((0, 0),)
    assert run.totals.n_markers == 228


def _probed(pieces: list[dataset.Piece]) -> list[dataset.Piece]:
    """``pieces`` settled (:func:`posting.distributed._json_settled`) from their slices'
    columns read on their own (GDAL without the geometry, :func:`posting.jsonslices.columns`):
    what the distribution settles them to from the columns it reads them with."""
    from posting import jsonslices
    from posting.distributed import _json_settled

    cols = [jsonslices.columns(p.path, p.feature_text) if p.feature_text else None for p in pieces]
    return _json_settled(pieces, cols) or pieces


def _json_pieces(path: str, firsts: list[int], rows: int) -> list[dataset.Piece]:
    """Slices of ``rows`` features of a GeoJSON file ``path`` starting at ``firsts`` (their
    bytes made up: only their place matters here)."""
    from posting.jsonslices import FeatureSlice

    return [
        dataset.Piece(path, path, None, f, rows, feature_text=FeatureSlice(1, 99, 2, 98, f, rows))
        for f in firsts
    ]


def test_marker_slices_are_settled_from_the_columns_they_were_distributed_with():
    """:func:`posting.distributed._marker_slices_settled`, worked out by hand: nothing to do
    where every GeoJSON file's slices agree; a file whose slices type a column apart becomes
    one piece in its first slice's place; one with a column empty in a slice gets its cast;
    one whose slices read with different notes is read whole; other pieces stay as they are."""
    from posting.distributed import _marker_slices_settled

    def res(cols, notes=()):
        return {"json_columns": cols, "notes": list(notes)}

    f, t, e = ("h", "float64", False), ("h", "str", True), ("h", "int64", False)
    a, b = _json_pieces("a.geojson", [0, 4], 4), _json_pieces("b.geojson", [0, 4, 8], 4)
    csv = dataset.Piece("s.csv", "s.csv", None, 0, -1)
    pieces = [(0, a[0]), (0, a[1]), (1, csv), (2, b[0]), (2, b[1]), (2, b[2])]
    agreeing = [res((f,)), res((f,)), res(None), res((f,)), res((f,)), res((f,))]
    assert _marker_slices_settled(pieces, agreeing) is None
    apart = [res((e,)), res((f,)), res(None), res((f,)), res((f,)), res((f,))]
    assert _marker_slices_settled(pieces, apart) == [
        (0, dataset.Piece("a.geojson", "a.geojson", None, 0, -1)),
        (1, csv),
        *((2, p) for p in b),
    ]
    empty = [res((f,)), res((f,)), res(None), res((f,)), res((t,)), res((f,))]
    settled = _marker_slices_settled(pieces, empty)
    assert settled[:3] == pieces[:3]
    assert [(k, p.offset, p.feature_text.casts) for k, p in settled[3:]] == [
        (2, 0, (("h", "float64"),)),
        (2, 4, (("h", "float64"),)),
        (2, 8, (("h", "float64"),)),
    ]
    notes = [res((f,)), res((f,), ["x"]), res(None), res((f,)), res((f,)), res((f,))]
    whole = (0, dataset.Piece("a.geojson", "a.geojson", None, 0, -1))
    assert _marker_slices_settled(pieces, notes) == [whole, *pieces[2:]]
    unread = [res((f,)), res(None), res(None), res((f,)), res((f,)), res((f,))]
    assert _marker_slices_settled(pieces, unread) == [whole, *pieces[2:]]


@pytest.mark.realdata
def test_pacific_s_geojson_in_slices_merged_by_owner(tmp_path, scheduler, monkeypatch):
    """Pacific County's 5,433 tax lots (a GeoJSON file) read by the workers in 11 slices of
    about 500 and merged by owner into 1,403 properties, with GPS accuracy: one run's JSON,
    byte for byte."""
    from posting import distributed
    from posting.cli import flag
    from posting.job import Job
    from posting.settings import Settings

    p = require_real_data(SHARED_DATA / "pacific-wa" / "taxlots.geojson")
    signs = _markers_along(p, tmp_path / "p.csv", 450, 2)

    monkeypatch.setattr(dataset, "PIECE_ROWS", 500)
    pieces = dataset.pieces(p)
    assert len(pieces) == 11
    assert _probed(pieces) == pieces  # every slice has the file's columns: kept
    args = ["check", str(p), "--signs", str(signs), "--id-field", "ASSESSOR"]
    args += ["--owner-field", "OWNER", "--merge-owner", "OWNER", "--accuracy-ft", "16"]
    res = _run([*args, "--json", str(tmp_path / "one.json"), "-q"], ROOT)
    assert res.returncode in (0, 1), res.stderr.decode()[-3000:]
    job = Job(
        parcels=str(p),
        signs=(str(signs),),
        id_field="ASSESSOR",
        owner_field="OWNER",
        merge_owner="OWNER",
        rules=("florida",),
        settings=Settings(accuracy_ft=16.0),
    )
    out = {"json": str(tmp_path / "part.json")}
    distributed.run_and_write(
        job, scheduler=scheduler, partition_parcels=600, outputs=out, name=flag
    )
    one, part = ((tmp_path / f"{m}.json").read_bytes() for m in ("one", "part"))
    assert _STAMP.sub(b"", one) == _STAMP.sub(b"", part)
    assert len(json.loads(one)["parcels"]) == 1403


def test_geojson_parcel_slices_with_whole_numbers_missing_in_one_keep_their_slices(
    tmp_path, scheduler, monkeypatch
):
    """A parcel code given as a whole number, but missing in the last slice: Arrow gave that
    slice's codes as decimals (a column with an empty value), the others' as whole numbers,
    and the file read whole decimals throughout, so the file was read again whole. Read as
    pandas' nullable integers in every slice and in the file (posting.io._exact_ints), the
    slices agree and are kept; one run's bytes."""
    from distributed import Client

    from posting import distributed
    from posting.job import Job

    collection = json.loads((SAMPLE / "parcels.geojson").read_text(encoding="utf-8"))
    for i, feature in enumerate(collection["features"]):
        feature["properties"]["code"] = None if i == 26 else 100 + i
    parcels = tmp_path / "parcels.geojson"
    parcels.write_text(json.dumps(collection), encoding="utf-8")
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    assert len(dataset.pieces(parcels)) == 7
    job = Job(parcels=str(parcels), id_field="parcel_id", rules=("florida",))
    with Client(scheduler) as client:
        pieces, *_ = distributed._Steps(job, client, False).scan()
    assert len(pieces) == 7 and {p.feature_text.casts for p in pieces} == {()}
    report = json.loads(_one_and_sliced(tmp_path, scheduler, SAMPLE / "signs.csv", parcels))
    assert report["summary"]["parcels"] == 29


def test_geojson_slices_with_no_value_in_a_column_keep_their_slices(
    tmp_path, scheduler, monkeypatch
):
    """A column of decimals or whole numbers with no value in the last slices (GDAL reads
    those as text): the slices are kept, read with that column's type
    (:func:`posting.jsonslices.agree`; whole numbers as nullable integers), for the parcels
    (an acreage and a code missing from the last 9 lots) and the signs (an elevation and a
    point number missing from the last 28); one run's bytes."""
    from distributed import Client

    from posting import distributed
    from posting.job import Job

    collection = json.loads((SAMPLE / "parcels.geojson").read_text(encoding="utf-8"))
    for i, feature in enumerate(collection["features"]):
        feature["properties"]["acres"] = None if i >= 20 else 10.5 + i
        feature["properties"]["code"] = None if i >= 20 else 100 + i
    parcels = tmp_path / "parcels.geojson"
    parcels.write_text(json.dumps(collection), encoding="utf-8")
    signs = _signs_geojson(tmp_path / "signs.geojson")
    collection = json.loads(signs.read_text(encoding="utf-8"))
    for i, feature in enumerate(collection["features"]):
        feature["properties"]["ele_ft"] = None if i >= 200 else 3.25 * i
        feature["properties"]["point"] = None if i >= 200 else 1000 + i
    signs.write_text(json.dumps(collection), encoding="utf-8")
    monkeypatch.setattr(dataset, "PIECE_ROWS", 4)
    job = Job(parcels=str(parcels), id_field="parcel_id", rules=("florida",))
    with Client(scheduler) as client:
        pieces, *_ = distributed._Steps(job, client, False).scan()
        job = Job(
            parcels=str(parcels), signs=(str(signs),), id_field="parcel_id", rules=("florida",)
        )
        run = distributed.run_partitioned(
            job, client, partition_parcels=7, scratch=str(tmp_path / "scratch")
        )
    assert len(pieces) == 7
    assert {p.feature_text.casts for p in pieces} == {(("acres", "float64"), ("code", "Int32"))}
    marks = _probed(dataset.pieces(signs))
    assert len(marks) == 57
    assert {p.feature_text.casts for p in marks} == {(("ele_ft", "float64"), ("point", "Int32"))}
    # the markers' slices, distributed as cut, were distributed again with those casts
    assert len(run.plan.marker_starts) == 57
    assert {str(c["ele_ft"].dtype) for c in run.plan.marker_columns} == {"float64"}
    assert {str(c["point"].dtype) for c in run.plan.marker_columns} == {"Int32"}
    report = json.loads(_one_and_sliced(tmp_path, scheduler, signs, parcels))
    assert report["summary"]["parcels"] == 29 and report["summary"]["markers_read"] == 228


def test_ctrl_c_stops_the_workers_and_leaves_nothing_behind(tmp_path):
    """Ctrl-C reaches every process of the terminal's group: the command stops its cluster,
    removes its scratch folder, writes no output, says so in one line and exits 130 (it said
    "Aborted!" and exited 1, the verdict "a parcel is not compliant"); its workers, forked
    from a server that ignores SIGINT, print no traceback of their own."""
    import os
    import signal
    import time

    scratch = tmp_path / "scratch"
    scratch.mkdir()
    out = [
        *("--json", str(tmp_path / "r.json")),
        *("--parquet", str(tmp_path / "pq")),
    ]
    default_sigint = (  # (as a terminal's shell starts it: a test runner may ignore SIGINT)
        "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
        "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"
    )
    args = ["--rules", "florida", "--workers", "1", "--partition-parcels", "1"]
    args += ["--scratch", str(scratch)]
    proc = subprocess.Popen(
        [sys.executable, "-c", default_sigint, *POSTING[1:], *SAMPLE_ARGS, *args, *out],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while not any(p.is_file() for p in scratch.rglob("*")):  # the workers' tasks have begun
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    lines = err.decode().strip().splitlines()
    assert proc.returncode == 130, err.decode()[-3000:]
    assert lines == [
        "posting: stopped by SIGINT; outputs not yet written in full were left as they were"
    ]
    assert list(scratch.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scratch"]
    while True:  # every process of the group gone: the workers and their server too
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        assert time.monotonic() < deadline, "a process of the command outlived it"
        time.sleep(0.1)


class _DieAlways(WorkerPlugin):
    """A worker plugin that ends its worker's process whenever a partition's check starts on
    it (a partition too large for the machine's memory: the system stops the worker)."""

    def transition(self, key, start, finish, **kwargs) -> None:  # pragma: no cover - worker
        import os

        name = key[0] if isinstance(key, tuple) else str(key)
        if finish == "executing" and "_check_partition" in str(name):
            os._exit(1)


def test_a_task_that_kills_every_worker_says_what_to_do(tmp_path):
    """dask gives up on a task once it has killed a few workers: the command said so with
    dask's traceback and "internal error" (exit 3), after the scheduler's log lines; it now
    names the step, the likely cause and the setting that mends it, and writes nothing."""
    import dask
    from distributed import Client, LocalCluster

    from posting import distributed
    from posting.errors import PostingError
    from posting.job import Job

    job = Job(
        parcels=str(SAMPLE / "parcels.geojson"),
        signs=(str(SAMPLE / "signs.csv"),),
        id_field="parcel_id",
        rules=("florida",),
    )
    out = tmp_path / "r.json"
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 1}),
        LocalCluster(
            n_workers=1, threads_per_worker=1, dashboard_address=":0", memory_limit=0
        ) as local,
        Client(local) as client,
    ):
        client.register_plugin(_DieAlways())
        with pytest.raises(PostingError) as info:
            distributed.run_and_write(
                job,
                scheduler=local.scheduler_address,
                partition_parcels=10,
                outputs={"json": str(out)},
                scratch=str(tmp_path),
            )
        # the nanny starts a worker again after the last death: closing the cluster while it
        # does failed now and then in dask's teardown ("can only join a started process")
        client.wait_for_workers(1, timeout=120)
    assert str(info.value) == (
        "a worker process died twice checking a partition: the system most likely stopped it "
        "for want of memory. A worker needs about 0.6 GB and 50 MB for each 1,000 parcels of "
        "its partition, with their markers: give partition_parcels= a smaller number, or run "
        "fewer workers"
    )
    assert list(tmp_path.iterdir()) == []


def test_workers_elsewhere_are_refused_before_anything_is_read(tmp_path):
    """A worker started in another folder (dask's own `dask worker`, as on a cluster): the
    command's relative paths would not reach the files there, and the worker said only
    "data/parcels.geojson: no such file" of a file the user can see."""
    import time

    from distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=0, dashboard_address=":0") as local,
        Client(local) as client,
    ):
        dask_worker = [sys.executable, "-m", "distributed.cli.dask_worker"]
        worker = subprocess.Popen(
            [*dask_worker, local.scheduler_address, "--nthreads", "1", "--no-dashboard"],
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            client.wait_for_workers(1, timeout=60)
            args = ["check", "data/parcels.geojson", "--signs", "data/signs.csv"]
            res = _run([*args, "--scheduler", local.scheduler_address, "-q"], cwd=ROOT)
            assert res.returncode == 2, res.stderr.decode()[-3000:]
            message = res.stderr.decode().strip()
            assert message.startswith(
                f"posting: error: the cluster's workers run in {tmp_path.resolve()} ("
            ), message
            assert message.endswith(
                f"not in this folder ({ROOT.resolve()}), and data/parcels.geojson is a relative "
                "path: give the inputs by absolute paths, or start the workers in this folder"
            ), message
            absolute = [str(ROOT / "data/parcels.geojson"), "--signs", str(ROOT / "data/signs.csv")]
            res = _run(["check", *absolute, "--scheduler", local.scheduler_address, "-q"], ROOT)
            assert res.returncode == 1, res.stderr.decode()[-3000:]
        finally:
            worker.terminate()
            worker.wait(30)
            time.sleep(0.1)


@pytest.mark.parametrize(
    ("option", "words"),
    [
        (
            ["--scheduler", "scheduler:8786x"],
            "posting: error: --scheduler scheduler:8786x: no dask scheduler could be reached",
        ),
        (
            ["--scheduler", "http://127.0.0.1:8787"],
            "posting: error: --scheduler http://127.0.0.1:8787: no dask scheduler could be",
        ),
        (["--scheduler", ""], "Error: --scheduler needs an address (tcp://host:8786)"),
        (
            ["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"],
            "Error: --workers starts a cluster here, --scheduler uses one that is running",
        ),
    ],
)
def test_a_scheduler_address_that_cannot_be_used_is_a_usage_error(tmp_path, option, words):
    """Exit 2, no traceback, no output: an address dask cannot parse, or of another scheme,
    ended in a traceback (exit 3); an empty one ran the state in one process; with
    ``--workers`` too, the scheduler was used and the workers forgotten."""
    out = tmp_path / "r.json"
    args = ["check", str(SAMPLE / "parcels.geojson"), "--signs", str(SAMPLE / "signs.csv")]
    res = _run([*args, *option, "--json", str(out)], cwd=ROOT)
    message = res.stderr.decode()
    assert res.returncode == 2 and "Traceback" not in message, message
    assert words in message, message
    assert not out.exists()


def test_a_scheduler_that_does_not_answer_is_named_sooner_than_dask_s_30_s(tmp_path, monkeypatch):
    """Nothing listens at the address: dask tried again and again for 30 s before the
    command said so. Now it waits :data:`posting.distributed.CONNECT_S` (10 s), or dask's
    own setting where the user changed it, and says how long it waited."""
    import socket
    import time

    from click.testing import CliRunner

    from posting import distributed
    from posting.cli import main

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{s.getsockname()[1]}"
    out = tmp_path / "r.json"
    args = ["check", str(SAMPLE / "parcels.geojson"), "--signs", str(SAMPLE / "signs.csv")]
    args += ["-q", "--json", str(out), "--scheduler", address]

    def message(seconds: str) -> list[str]:
        return [
            f"posting: error: --scheduler {address}: no dask scheduler answered there in "
            f"{seconds} s; give the address a running scheduler prints (tcp://host:8786), or "
            "check on a cluster of this machine's own with --workers N (to wait longer for a "
            "busy one, set DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=60s)"
        ]

    monkeypatch.setattr(distributed, "CONNECT_S", 1.5, raising=False)  # (the test's 10 s)
    t0 = time.monotonic()
    res = CliRunner().invoke(main, args)
    assert (res.exit_code, res.stderr.splitlines()) == (2, message("1.5"))
    assert time.monotonic() - t0 < 10
    monkeypatch.setenv("DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT", "2s")  # (read anew by dask)
    res = _run(args, cwd=ROOT)
    assert (res.returncode, res.stderr.decode().splitlines()) == (2, message("2"))
    assert not out.exists()
    monkeypatch.undo()
    assert distributed.connect_timeout() == 10


def test_more_workers_than_the_machine_can_run_is_one_line_error(tmp_path, monkeypatch):
    """`--workers 100000` went on starting processes for ever; now a local cluster of more
    workers than 4 a CPU, or than the memory holds at 0.25 GB each, is refused before any
    starts (and before the inputs are read), saying what to do."""
    from types import SimpleNamespace

    from click.testing import CliRunner

    from posting import distributed, forking
    from posting.cli import main
    from posting.errors import InputError

    out = tmp_path / "r.json"
    args = ["check", str(SAMPLE / "parcels.geojson"), "--signs", str(SAMPLE / "signs.csv")]
    args += ["-q", "--json", str(out)]
    machine = {"cpus": 2, "memory": 64e9}
    monkeypatch.setattr("os.cpu_count", lambda: machine["cpus"])
    monkeypatch.setattr("psutil.virtual_memory", lambda: SimpleNamespace(total=machine["memory"]))
    res = CliRunner().invoke(main, [*args, "--workers", "9"])
    assert (res.exit_code, res.stderr.splitlines()) == (
        2,
        [
            "posting: error: --workers 9: more worker processes than this machine can run; at "
            "most 8 here (4 for each of its 2 CPUs, and as many as its 64.0 GB of memory holds "
            "at 0.25 GB each): give a smaller N, or run on a cluster of several machines with "
            "--scheduler ADDRESS"
        ],
    )
    assert not out.exists()
    assert forking.most_workers() == (8, 2, 64e9)
    machine.update(cpus=64, memory=4e9)  # (the memory is the bound)
    assert forking.most_workers()[0] == 16
    res = CliRunner().invoke(main, [*args, "--workers", "17"])
    assert res.exit_code == 2 and "at most 16 here" in res.stderr, res.stderr
    with pytest.raises(InputError, match="workers= 17: more worker processes"):
        with distributed.cluster(17):
            pass
    monkeypatch.undo()
    res = CliRunner().invoke(main, [*args, "--workers", "100000"])
    assert res.exit_code == 2 and len(res.stderr.splitlines()) == 1, res.stderr
    assert res.stderr.startswith("posting: error: --workers 100,000: more worker processes")


def test_a_scratch_folder_where_nothing_can_be_made_is_named_with_its_option(tmp_path):
    """``--scratch /proc/self`` (a folder, where no folder can be made): the command said
    only "/proc/self/posting-run-x: No such file or directory"."""
    out = tmp_path / "r.json"
    args = ["check", str(SAMPLE / "parcels.geojson"), "--signs", str(SAMPLE / "signs.csv")]
    res = _run([*args, "--workers", "1", "--scratch", "/proc/self", "--json", str(out)], ROOT)
    assert res.returncode == 2 and not out.exists(), res.stderr.decode()
    assert res.stderr.decode().strip() == (
        "posting: error: cannot make the run's scratch folder in /proc/self (No such file or "
        "directory): give --scratch a folder this machine and the cluster's workers can write in"
    )


class _FakeClient:
    """What ``client.run`` of a cluster would answer, for :func:`distributed._workers_reach`."""

    def __init__(self, answer) -> None:
        self.answer = answer

    def run(self, func, *args):
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer(*args)


def test_what_the_workers_cannot_reach_is_named(tmp_path):
    from importlib.metadata import version

    from posting import distributed
    from posting.errors import InputError
    from posting.job import Job

    for name in ("p.geojson", "s.csv"):
        (tmp_path / name).write_text("")  # (a file the command cannot see is not asked about)
    job = Job(parcels=str(tmp_path / "p.geojson"), signs=(str(tmp_path / "s.csv"),))
    ours = version("posting")
    scratch = str(tmp_path / "scratch")

    def answer(found, has_scratch=True, theirs=ours):
        return _FakeClient(
            lambda paths, s: {
                "tcp://a:1": (ours, "/w", [True] * len(paths), True),
                "tcp://b:1": (theirs, "/w", found, has_scratch),
            }
        )

    with pytest.raises(InputError, match=r"worker tcp://b:1 cannot reach .*s\.csv: every worker"):
        distributed._workers_reach(answer([True, False]), job, scratch)
    with pytest.raises(InputError, match=r"tcp://b:1 cannot reach the scratch folder .*scratch: "):
        distributed._workers_reach(answer([True, True], has_scratch=False), job, scratch)
    with pytest.raises(InputError, match=rf"tcp://b:1 runs posting 0\.0\.9, this command {ours}"):
        distributed._workers_reach(answer([True, True], theirs="0.0.9"), job, scratch)
    stale = _FakeClient(AttributeError("Can't get attribute '_where_am_i'"))
    with pytest.raises(InputError, match=r"cannot run this command's code .*_where_am_i"):
        distributed._workers_reach(stale, job, scratch)
    distributed._workers_reach(answer([True, True]), job, scratch)  # every one reaches all


def _empty_kml(path: Path) -> Path:
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2">'
        "<Document><name>plan</name></Document></kml>"
    )
    return path


@pytest.mark.parametrize(
    "case", ["empty-parcel-file", "empty-marker-file", "empty-marker-dataset-file", "field"]
)
def test_empty_files_and_a_parcel_field_of_one_file_as_one_run_reads_them(
    tmp_path, scheduler, case
):
    """Each piece was judged as if it were the whole input: a dataset with an empty file
    ("has no features: there are no parcels to check"), an empty marker file beside others
    ("no markers"; one run notes it), a sign parcel field that one marker file has and another
    not ("is not a column of any sign file"; one run notes it) were refused partitioned where
    one run checks them."""
    import geopandas as gpd

    parcels, signs = str(SAMPLE / "parcels.geojson"), [str(SAMPLE / "signs.csv")]
    extra: list[str] = []
    if case == "empty-parcel-file":
        lots = gpd.read_file(SAMPLE / "parcels.geojson")
        for k, part in enumerate((lots, lots.iloc[:0], lots.iloc[:0])):
            (tmp_path / "lots" / f"c={k}").mkdir(parents=True)
            part.to_parquet(tmp_path / "lots" / f"c={k}" / "p.parquet")
        parcels = str(tmp_path / "lots")
    elif case == "empty-marker-file":
        signs.append(str(_empty_kml(tmp_path / "plan.kml")))
    elif case == "empty-marker-dataset-file":
        table = pd.read_csv(SAMPLE / "signs.csv")
        points = gpd.points_from_xy(table["lon"], table["lat"])
        marks = gpd.GeoDataFrame(table, geometry=points, crs=4326)
        for k, part in enumerate((marks.iloc[:0], marks, marks.iloc[:0])):
            (tmp_path / "marks" / f"d={k}").mkdir(parents=True)
            part.to_parquet(tmp_path / "marks" / f"d={k}" / "m.parquet")
        signs = [str(tmp_path / "marks")]
    else:
        signs.append(str(SAMPLE / "signs-added.gpx"))
        extra = ["--sign-parcel-field", "sign_id"]
    args = ["check", parcels, *(x for s in signs for x in ("--signs", s)), *extra]
    report = _same([*args, "--id-field", "parcel_id"], tmp_path, scheduler, 4)
    assert report["summary"]["parcels"] == 29
    noted = [w for w in report["warnings"] if "has no rows" in w or "has no column" in w]
    assert len(noted) == (case in ("empty-marker-file", "field")), report["warnings"]


def _in_feet_as_degrees(gdf):
    """``gdf`` (in degrees) in Florida East's US survey feet, labelled as degrees: a county's
    file whose CRS was lost."""
    return gdf.to_crs("EPSG:2236").set_crs("EPSG:4326", allow_override=True)


def _dataset_of(root: Path, frames: list) -> Path:
    """A dataset of one file per frame (``part.0``, ``part.1``, ...), in order."""
    root.mkdir()
    for i, f in enumerate(frames):
        f.to_parquet(root / f"part.{i}.parquet", index=False)
    return root


def test_a_dataset_s_file_of_projected_numbers_is_a_few_features_mistake_as_in_one_run(
    tmp_path, scheduler
):
    """A dataset of lots, of signs (plain Parquet, lon/lat) and of dwellings, each with one
    file (a piece of its own) whose every feature is in feet where the dataset says degrees:
    alone, that piece would be refused as in the wrong CRS; in its dataset its features are a
    few, which one run leaves without geometry, each with why. One run's bytes."""
    import geopandas as gpd

    lots = gpd.read_file(SAMPLE / "parcels.geojson")
    parcels = _dataset_of(
        tmp_path / "parcels",
        [lots.iloc[:10], _in_feet_as_degrees(lots.iloc[10:13]), lots.iloc[13:]],
    )
    table = pd.read_csv(SAMPLE / "signs.csv")
    typed = table.iloc[100:110].copy()
    typed[["lon", "lat"]] = [[512345.5 + i, 1523456.5] for i in range(len(typed))]
    signs = _dataset_of(tmp_path / "signs", [table.iloc[:100], typed, table.iloc[110:]])
    homes = gpd.read_file(SAMPLE / "dwellings.geojson")
    dwellings = _dataset_of(
        tmp_path / "dwellings",
        [homes.iloc[:5], _in_feet_as_degrees(homes.iloc[5:8]), homes.iloc[8:]],
    )
    report = _same(
        [
            "check",
            str(parcels),
            "--signs",
            str(signs),
            "--id-field",
            "parcel_id",
            "--dwellings",
            str(dwellings),
        ],
        tmp_path,
        scheduler,
        7,
    )
    not_degrees = "is not degrees, as most of the layer's (WGS 84) are"
    invalid = [
        p["row"] for p in report["parcels"] if not_degrees in (p.get("invalid_reason") or "")
    ]
    assert invalid == [10, 11, 12]
    far = [s["row"] for s in report["unassigned_signs"] if "not an angle" in s["reason"]]
    assert far == list(range(100, 110))
    left_out = [w for w in report["warnings"] if w.startswith(f"{dwellings}: ")]
    assert [w.split("(row ")[1].split(")")[0] for w in left_out] == ["5", "6", "7"], left_out
    assert all(not_degrees in w for w in left_out)


def test_a_dataset_mostly_in_projected_numbers_is_refused_in_one_run_s_words(tmp_path, scheduler):
    """Lots in two files: the first's row 5 in feet where it says degrees (1 of 10: the file
    would pass alone), the second's 19 lots all so. Most of the dataset is not degrees: refused
    naming the first such coordinate of the dataset (row 5's), as one run names it; exit 2."""
    import geopandas as gpd

    lots = gpd.read_file(SAMPLE / "parcels.geojson")
    first = pd.concat([lots.iloc[:5], _in_feet_as_degrees(lots.iloc[5:6]), lots.iloc[6:10]])
    parcels = _dataset_of(tmp_path / "parcels", [first, _in_feet_as_degrees(lots.iloc[10:])])
    base = ["check", str(parcels), "--signs", str(SAMPLE / "signs.csv"), "-q"]
    lines = _refused(base, tmp_path, scheduler)
    x, y = shapely.get_coordinates(_in_feet_as_degrees(lots.iloc[5:6]).geometry.iloc[0])[0]
    assert f"coordinates such as ({x:.1f}, {y:.1f}) are not degrees" in lines["one"], lines
    assert lines["one"] == lines["part"]


_CONTEXT_FIELDS = {  # each context layer's setting of the column of its values, if any
    "access": "access_type_field",
    "water": None,
    "fences": "fence_height_field",
    "dwellings": None,
    "easements": "easement_holder_field",
    "landcover": "landcover_field",
    "places": "place_field",
    "registry": None,
}


FILE_FORMATS = {  # the formats the oracles write a layer in, and the file's suffix
    "parquet": ".parquet",
    "dataset": "",  # a hive-partitioned folder of GeoParquet files
    "geojson": ".geojson",
    "geojsonl": ".geojsonl",
    "gpkg": ".gpkg",
    "fgb": ".fgb",
    "shp": ".shp",
    "csv": ".csv",  # points only: x/y (or lon/lat) columns
    "gpx": ".gpx",  # points in WGS 84 only: waypoints, their columns as GDAL's extensions
    "kml": ".kml",  # (the same)
}


def _write_layer(frame, folder: Path, name: str, fmt: str) -> str | None:
    """GeoDataFrame ``frame`` as file (or folder) ``name`` in format ``fmt`` of
    :data:`FILE_FORMATS`; None where the format cannot hold it (GDAL refuses to write it: a
    Shapefile of mixed geometry types, a GeoJSON file of a CRS it cannot name, ...)."""
    import pyogrio

    path = folder / f"{name}{FILE_FORMATS[fmt]}"
    try:
        if fmt == "parquet":
            frame.to_parquet(path)
        elif fmt == "dataset":  # rows in order: zone=a's first, then zone=b's
            half = len(frame) // 2
            for zone, rows in (("a", frame.iloc[:half]), ("b", frame.iloc[half:])):
                (path / f"zone={zone}").mkdir(parents=True)
                rows.to_parquet(path / f"zone={zone}" / "part.0.parquet")
        elif fmt == "csv":
            xy = ("lon", "lat") if frame.crs.is_geographic else ("x", "y")
            table = pd.DataFrame(frame.drop(columns="geometry"))
            table[xy[0]] = shapely.get_x(frame.geometry.to_numpy())
            table[xy[1]] = shapely.get_y(frame.geometry.to_numpy())
            table.to_csv(path, index=False)
        elif fmt in ("gpx", "kml") and not frame.crs.equals("EPSG:4326"):
            return None
        else:
            driver = {"geojson": "GeoJSON", "geojsonl": "GeoJSONSeq", "gpkg": "GPKG"}
            driver |= {"fgb": "FlatGeobuf", "shp": "ESRI Shapefile", "gpx": "GPX", "kml": "KML"}
            options = {}
            if fmt == "gpx":
                options = {"layer": "waypoints", "dataset_options": {"GPX_USE_EXTENSIONS": "YES"}}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                pyogrio.write_dataframe(frame, path, driver=driver[fmt], **options)
    except Exception:  # any writer's refusal: the case is written otherwise
        return None
    return str(path)


def _srs(crs) -> str:
    """A CRS as the text a user gives."""
    return crs if isinstance(crs, str) else crs.to_wkt()


def _case_files(
    c,
    folder: Path,
    merge: bool,
    layers=None,
    attributes=None,
    split=None,
    chosen=None,
    formats=None,
    lots_with=None,
):
    """A fuzz case (``tests/fuzz_strategies.py``) as the files a user gives: its lots, its
    markers (with their ``attributes``, a frame) and its context ``layers`` (name: geometries
    and values, in the lots' CRS) in their CRSs, as GeoParquet files or in the ``formats``
    (``lots``, ``signs`` or a layer's name: a format of :data:`FILE_FORMATS`; GeoParquet where
    that format cannot hold the layer; ``decoy``: a GeoPackage of lots has another layer too,
    and the job names the lots' one; ``no_prj``: a Shapefile of lots has no ``.prj``, and the
    job gives the CRS); and the job that checks them (with the ``chosen``
    settings, else the case's accuracy; a marker column ``parcel`` among the attributes is the
    sign parcel field; the markers' CRS for x/y columns). With ``split``, the markers from that
    one on are a second file, which has only the first half of the attribute columns. With
    ``lots_with`` (:func:`fuzz_strategies.lot_attributes_for`), the lots have its columns and
    the job its context options (a context layer's own value column first)."""
    import geopandas as gpd

    from posting.job import ContextFiles, Job

    formats = formats or {}

    def write(frame, name: str, kind: str) -> str:
        fmt = formats.get(kind, "parquet")
        path = _write_layer(frame, folder, name, fmt) if fmt != "parquet" else None
        if path is None:
            path = _write_layer(frame, folder, name, "parquet")
        if currently_in_test_context():
            event(f"{kind}: {Path(path).suffix or 'dataset'}")
        return path

    given = {}
    for name, (geoms, values) in (layers or {}).items():
        column = "year" if name == "registry" else "value"  # (the registry's is read by name)
        frame = {column: pd.Series(list(values), dtype=object)}
        given[name] = write(gpd.GeoDataFrame(frame, geometry=list(geoms), crs=c.crs), name, name)
        if _CONTEXT_FIELDS[name]:
            given[_CONTEXT_FIELDS[name]] = "value"

    lot_columns, options = lots_with or ({}, {})
    given = {**options, **given}
    lots = gpd.GeoDataFrame(
        {"pid": list(c.ids), "owner": list(c.owners), **lot_columns},
        geometry=list(c.geoms),
        crs=c.crs,
    )
    if formats.get("decoy") and formats.get("lots") == "gpkg":  # another layer, first
        import pyogrio

        decoy = gpd.GeoDataFrame({"x": [1]}, geometry=[shapely.box(0, 0, 1, 1)], crs=c.crs)
        pyogrio.write_dataframe(decoy, folder / "lots.gpkg", layer="decoy")
    parcels = write(lots, "lots", "lots")
    layer = "lots" if formats.get("decoy") and parcels.endswith(".gpkg") else None
    columns = {"n": np.arange(len(c.mx))}
    if attributes is not None:
        columns.update({k: attributes[k].to_numpy() for k in attributes.columns})
    signs = gpd.GeoDataFrame(columns, geometry=shapely.points(c.mx, c.my), crs=c.marker_crs)
    if split is None:
        files = [write(signs, "signs", "signs")]
    else:
        attrs = [k for k in signs.columns if k not in ("n", "geometry")]
        kept = ["n", *attrs[: len(attrs) // 2], "geometry"]
        files = [
            write(signs.iloc[:split], "signs", "signs"),
            write(signs.iloc[split:][kept], "more-signs", "signs"),
        ]
    crs = _srs(c.marker_crs) if any(f.endswith(".csv") for f in files) else None
    if formats.get("no_prj") and parcels.endswith(".shp") and _srs(c.crs) == _srs(c.marker_crs):
        Path(parcels).with_suffix(".prj").unlink()  # a Shapefile without its .prj: --crs
        crs = _srs(c.crs)
    return Job(
        parcels=parcels,
        layer=layer,
        signs=tuple(files),
        rules=tuple(c.rules),
        id_field="pid",
        owner_field="owner",
        crs=crs,
        merge_owner="owner" if merge else None,
        sign_parcel_field="parcel" if "parcel" in columns else None,
        settings=chosen or Settings(accuracy_ft=c.accuracy_ft),
        context=ContextFiles(**given),
    )


def _reports_or_refusal(write) -> tuple[str, ...]:
    """The reports ``write()`` gives (their stamps aside), or the refusal's kind and words."""
    from posting.errors import PostingError

    try:
        return ("reports", *(_STAMP.sub(b"", r).decode() for r in write()))
    except PostingError as exc:
        return type(exc).__name__, str(exc)


_FUZZ_OUTPUTS = ("json", "geojson", "csv")
"""What the partitioned oracles compare, byte for byte (and ``--parquet``'s datasets, table
by table: :func:`_parquet_in_input_order`)."""

_PARQUET_ORDER = {  # each dataset of --parquet: the columns of its input order
    "parcels": ["row"],
    "gaps": ["parcel_row"],
    "corners": ["parcel_row"],
    "markers": ["source", "row"],
}


def _parquet_in_input_order(folder: Path) -> bytes:
    """The datasets of a ``--parquet`` folder as text: each one's schemas (its files', their
    ``geo`` metadata included) and its rows in input order (a partitioned run writes them
    partition by partition; Arrow's sort is stable, so a parcel's gaps keep their order), each
    column's values as Python reprs (a NaN is not a None); then ``summary.json``, its stamp
    aside."""
    import pyarrow.compute as pc

    out = []
    for name, keys in _PARQUET_ORDER.items():
        files = sorted((folder / name).glob("*.parquet"))
        table = pa.concat_tables([pq.read_table(f) for f in files]).combine_chunks()
        table = table.take(pc.sort_indices(table, [(k, "ascending") for k in keys]))
        schemas = {pq.read_schema(f).to_string(show_schema_metadata=True) for f in files}
        out += [f"== {name}", *sorted(schemas)]  # (one: a dataset's files alike)
        out += [f"{c}: {table[c].to_pylist()!r}" for c in table.column_names]
    out.append(_STAMP.sub(b"", (folder / "summary.json").read_bytes()).decode())
    return "\n".join(out).encode()


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    st.one_of(case(), geographic_case()),
    st.integers(1, 4),
    st.booleans(),
)
def test_fuzz_partitioned_as_one_run(scheduler, c, k, merge):
    """Oracle: the fuzz campaign's cases (lots from the ordinary to the absurd, lots across
    the antimeridian and at the poles, their markers), read from files and checked in one
    process and in partitions of 1 to 4 parcels (with and without merging by owner): the same
    JSON, GeoJSON and CSV reports, byte for byte, or the same refusal in the same words."""
    _one_run_and_partitions_alike(scheduler, c, k, merge)


@pytest.mark.parametrize("beside", [False, True])
def test_a_lot_across_the_antimeridian_is_placed_nowhere_in_partitions_as_in_one_run(
    scheduler, beside
):
    """A lon/lat lot from -179.97 to 180 degrees (the fuzz campaign's): one run calls it invalid
    (across the antimeridian) and measures in no frame for it; the partitioned run's scan
    placed it at its box's middle, meridian 0, and named that frame. Alone, and beside a lot
    of its own near 179.9 W."""
    import shapely

    across = shapely.from_wkt(
        "POLYGON ((-179.96875 0, -179.96875 0.03125, 180 0.03125, 180 0, -179.96875 0))"
    )
    geoms, mx, my = [across], [-179.96875], [0.0]
    if beside:
        geoms.append(shapely.box(-179.95, 0.0, -179.94, 0.01))
        mx, my = [*mx, -179.95], [*my, 0.0]
    c = Case(
        geoms=geoms,
        crs="EPSG:4326",
        ids=[str(i) for i in range(len(geoms))],
        owners=[None] * len(geoms),
        mx=np.array(mx),
        my=np.array(my),
        marker_crs="EPSG:4326",
        rules=["florida"],
    )
    _one_run_and_partitions_alike(scheduler, c, 1, False)


@pytest.mark.parametrize("beside", ["east", "west"])
@pytest.mark.parametrize("k", [1, 2])
def test_markers_of_an_albers_lot_across_the_antimeridian_are_its_own_in_partitions(
    scheduler, beside, k
):
    """Lot A across 180 degrees in Alaska Albers and lot B beside it (to the east: two working
    frames), with markers 1 m inside each side's middle and corner (test_assign's
    ``aleutian_lots``): one run and partitions of one or two lots give the same reports, in
    which every marker is its lot's (A's side markers at 180 degrees were lost, in both: its
    box was the rest of the globe, and partitions send markers and neighbours by box); and a
    pond on A's line just west of 180 degrees (test_land's) its water frontage in both."""
    from test_assign import ALASKA_ALBERS, aleutian_lots
    from test_land import aleutian_pond

    lots, pts = aleutian_lots(beside)
    xy = np.asarray(pts)
    c = Case(
        geoms=lots,
        crs=ALASKA_ALBERS,
        ids=["A", "B"],
        owners=[None, None],
        mx=xy[:, 0],
        my=xy[:, 1],
        marker_crs=ALASKA_ALBERS,
        rules=["florida"],
    )
    water = {"water": ([aleutian_pond()], [None])}
    out = _one_run_and_partitions_alike(scheduler, c, k, False, water)
    assert out[0] == "reports"
    from io import StringIO

    table = pd.read_csv(StringIO(out[3]))  # (the CSV report: a row per lot)
    assert table["id"].tolist() == ["A", "B"]
    assert table["signs"].tolist() == [8, 8]
    report = json.loads(out[1].replace("\n ,", ""))  # (its stamp taken out: a lone comma)
    frontage = [p["water_frontage_ft"] for p in report["parcels"]]
    assert frontage[0] > 190 and frontage[1] == 0  # (130.75 ft and 30 ft either side: test_land)


def _one_run_and_partitions_alike(
    scheduler: str, c, k: int, merge: bool, layers=None, *, rows=None, **written
) -> tuple:
    """Fuzz case ``c`` with context ``layers`` written as files (with what else
    :func:`_case_files` is given, ``written``: marker attributes, a second marker file,
    settings, formats, lot columns), checked in one process and in partitions of ``k`` parcels
    (files cut into pieces of ``rows`` rows, :data:`posting.dataset.PIECE_ROWS`): the same
    JSON, GeoJSON, CSV and GeoParquet reports or the same refusal (returned: one run's, as
    :func:`_reports_or_refusal` gives them)."""
    import tempfile
    from unittest import mock

    from posting import distributed
    from posting.cli import flag
    from posting.engine import run
    from posting.render import render
    from posting.stream import write_parquet_report

    with (
        tempfile.TemporaryDirectory() as tmp,
        mock.patch.object(dataset, "PIECE_ROWS", rows or dataset.PIECE_ROWS),
    ):
        folder = Path(tmp)
        job = _case_files(c, folder, merge, layers, **written)

        def one() -> list[bytes]:
            report = run(job)
            texts = []
            for fmt in _FUZZ_OUTPUTS:
                options = {"name": flag} if fmt == "json" else {}  # as the command does
                out = render(report, fmt, **options)  # text, or its pieces
                pieces = [out] if isinstance(out, str | bytes) else list(out)
                texts.append(b"".join(p.encode() if isinstance(p, str) else p for p in pieces))
            write_parquet_report(report, str(folder / "one-parquet"), flag)
            return [*texts, _parquet_in_input_order(folder / "one-parquet")]

        def part() -> list[bytes]:
            outs = {fmt: str(folder / f"part.{fmt}") for fmt in _FUZZ_OUTPUTS}
            outs["parquet"] = str(folder / "part-parquet")
            distributed.run_and_write(
                job, scheduler=scheduler, partition_parcels=k, outputs=outs, name=flag
            )
            texts = [Path(outs[fmt]).read_bytes() for fmt in _FUZZ_OUTPUTS]
            return [*texts, _parquet_in_input_order(folder / "part-parquet")]

        expected = _reports_or_refusal(one)
        if currently_in_test_context():  # (a hypothesis test's, not a case given)
            event(f"one run: {expected[0]}")
        got = _reports_or_refusal(part)
        if got[0] == expected[0] == "reports":
            for fmt, a, b in zip((*_FUZZ_OUTPUTS, "parquet"), expected[1:], got[1:], strict=True):
                assert b == a, f"{fmt} differs"
        assert got == expected
        return expected


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(context_case(), st.integers(1, 4), st.booleans())
def test_fuzz_partitioned_context_as_one_run(scheduler, cl, k, merge):
    """Oracle: the fuzz campaign's context layers (access ways, water, fences, dwellings,
    easements, land cover, places, the registry: beside the lots, on their vertices, across
    them, empty, invalid and absurd) as GeoParquet files beside its lots and markers, under
    the profiles that read them: one process and partitions of 1 to 4 parcels give the same
    JSON, GeoJSON, CSV and GeoParquet reports or the same refusal."""
    c, layers = cl
    _one_run_and_partitions_alike(scheduler, c, k, merge, layers)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(case(), st.data(), st.integers(1, 4), st.booleans())
def test_fuzz_partitioned_marker_attributes_as_one_run(scheduler, c, data, k, merge):
    """Oracle: the fuzz campaign's marker attributes (every column the rules read, by any of
    its names, as text or numbers, blank, absurd and malformed) under one to three profiles of
    every kind of marker rule, the markers in one file or two (the second with half the
    columns): one process and partitions of 1 to 4 parcels give the same JSON, GeoJSON and CSV
    reports or the same refusal."""
    attributes = data.draw(attributes_for(len(c.mx), c.tags))
    c.rules = data.draw(
        st.lists(st.sampled_from(ALL_PROFILES), min_size=1, max_size=3, unique=True)
    )
    split = data.draw(st.one_of(st.none(), st.integers(0, len(c.mx))))
    _one_run_and_partitions_alike(scheduler, c, k, merge, attributes=attributes, split=split)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(context_case(), st.data(), st.integers(1, 4), st.booleans())
def test_fuzz_partitioned_settings_and_named_parcels_as_one_run(scheduler, cl, data, k, merge):
    """Oracle: every measuring setting at its default, small, large or absurd (the halo is
    made of them: a tolerance of a billion feet reaches every partition), with the campaign's
    context layers, and markers that name their parcel (ids, ids not in the layer, near
    misses, blanks, numbers): one process and partitions of 1 to 4 parcels give the same
    JSON, GeoJSON and CSV reports or the same refusal."""
    c, layers = cl
    chosen = data.draw(settings_for(c.tags))
    names = data.draw(parcel_names_for(len(c.mx), [str(i) for i in c.ids], c.tags))
    attributes = pd.DataFrame({"parcel": names}) if data.draw(st.booleans()) else None
    _one_run_and_partitions_alike(
        scheduler, c, k, merge, layers, attributes=attributes, chosen=chosen
    )


@st.composite
def formats_for(draw, layers) -> dict[str, str]:
    """A file format (:data:`FILE_FORMATS`) for the lots, the markers and each context layer:
    any but GeoParquet (the other oracles' format, and the one a layer falls back to), CSV, GPX
    and KML for markers only (points); chosen evenly (``sampled_from`` favours its first)."""
    pick = draw(st.randoms(use_true_random=False)).choice
    shapes = [f for f in FILE_FORMATS if f not in ("parquet", "csv", "gpx", "kml")]
    out = {"lots": pick(shapes), "signs": pick([*shapes, "csv", "gpx", "kml"])}
    out["decoy"] = pick([False, True])  # a GeoPackage's lots beside another layer (--layer)
    out["no_prj"] = pick([False, True])  # a Shapefile of lots without its .prj (--crs)
    for name in layers:
        out[name] = pick(shapes)
    return out


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    st.one_of(context_case(), st.one_of(case(), geographic_case()).map(lambda c: (c, {}))),
    st.data(),
    st.integers(1, 4),
)
def test_fuzz_partitioned_file_formats_as_one_run(scheduler, cl, data, k):
    """Oracle: the campaign's lots (their ids text or decimals), markers (with their
    attributes, in one file or two) and context layers written as GeoParquet, a
    hive-partitioned dataset, GeoJSON, a GeoJSON text sequence, GeoPackage, FlatGeobuf, a
    Shapefile or (markers) CSV, GPX or KML, each file cut into pieces of 1 to 3 rows (the
    slices of a CSV or GeoJSON file's text, of a GDAL file's features, of Parquet row groups):
    one process and partitions of 1 to 4 parcels give the same JSON, GeoJSON, CSV and
    GeoParquet reports or the same refusal."""
    c, layers = cl
    formats = data.draw(formats_for(layers))
    if data.draw(st.booleans()):  # ids as decimals (a Shapefile's long numbers), some inexact
        numbers = [1.0, 7.0, 2.5, float("nan"), 2.0**53, 1.2345678901234567e19, -(2.0**60)]
        n = len(c.geoms)
        c.ids = data.draw(st.lists(st.sampled_from(numbers), min_size=n, max_size=n))
    attributes = None
    if data.draw(st.booleans()):
        attributes = data.draw(attributes_for(len(c.mx), c.tags))
    split = data.draw(st.one_of(st.none(), st.integers(0, len(c.mx))))
    rows = data.draw(st.integers(1, 3))
    merge = data.draw(st.booleans())
    _one_run_and_partitions_alike(
        scheduler,
        c,
        k,
        merge,
        layers,
        attributes=attributes,
        split=split,
        formats=formats,
        rows=rows,
    )


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.one_of(context_case(), case().map(lambda c: (c, {}))), st.data(), st.integers(1, 4))
def test_fuzz_partitioned_lot_attributes_as_one_run(scheduler, cl, data, k):
    """Oracle: parcel columns of uses, acreages, places, registry marks and land cover (text or
    numbers, blank, absurd, malformed) and the options that read them (``--dwelling-where``,
    ``--cultivated-where``, ``--public-where``, ``--registry-where``, ``--acres-field``,
    ``--place-field``, ``--landcover-field``, ``--sight-ft``, ``--check-date``; a column that
    is not there among them; ``--water-where``), under the profiles whose rules read them,
    with the campaign's markers (their attributes too) and context layers: one process and
    partitions of 1 to 4 parcels give the same JSON, GeoJSON, CSV and GeoParquet reports or
    the same refusal."""
    c, layers = cl
    lots_with = data.draw(lot_attributes_for(len(c.geoms), c.tags))
    if "water" in layers:  # which of the water layer's features are open water
        where = data.draw(st.sampled_from([None, "value=lake", "value in ('lake', 'river')"]))
        if where is not None:
            lots_with[1]["water_where"] = where
    c.rules = data.draw(
        st.lists(st.sampled_from(LOT_PROFILES), min_size=1, max_size=3, unique=True)
    )
    attributes = None
    if data.draw(st.booleans()):
        attributes = data.draw(attributes_for(len(c.mx), c.tags))
    merge = data.draw(st.booleans())
    _one_run_and_partitions_alike(
        scheduler, c, k, merge, layers, attributes=attributes, lots_with=lots_with
    )


def test_parcel_attributes_of_a_partition_s_halo_are_its_own_lots_as_one_run(scheduler, tmp_path):
    """Lots A, B, C in a row, A and C of one owner (kept in one partition, not merged: they do
    not touch), B another's; land cover from a parcel column (A blank, B forest, C field), under
    Minnesota's spacing by land cover, merging by owner. A partition's rows were its own lots'
    then its halo's (A, C, then B) where its properties are in input order (A, B, C): B was
    given C's land cover and C B's, and the other partition's A and B each other's, so the
    note counted 2 gaps of unknown land cover where one run counts A's one (the lot attributes
    oracle)."""
    c = Case(
        geoms=[shapely.box(5000 + 100 * i, 5000, 5100 + 100 * i, 5100) for i in range(3)],
        crs=LOCAL_FT,
        ids=["A", "B", "C"],
        owners=["Roe", "Doe", "Roe"],
        mx=np.array([9000.0]),
        my=np.array([9000.0]),
        marker_crs=LOCAL_FT,
        rules=["minnesota"],
    )
    lots_with = ({"cover": [None, "forest", "field"]}, {"landcover_field": "cover"})
    _one_run_and_partitions_alike(scheduler, c, 1, True, lots_with=lots_with)
    from posting.engine import run

    report = run(_case_files(c, tmp_path, True, lots_with=lots_with)).to_dict()
    notes = [x["reason"] for x in report["not_checked"] if x["rule"] == "landcover"]
    assert len(notes) == 1 and notes[0].startswith("land cover unknown for 1 of 3 gaps"), notes


def test_a_file_of_several_layers_is_read_and_refused_as_in_one_run(tmp_path, scheduler):
    """A GeoPackage of two layers, none named: its first read with one run's note (the sample's
    parcels, then another layer), or refused in one run's words where the first holds points
    (the signs saved beside the parcels)."""
    import geopandas as gpd
    import pyogrio

    lots = gpd.read_file(SAMPLE / "parcels.geojson")
    signs = pd.read_csv(SAMPLE / "signs.csv")
    points = gpd.GeoDataFrame(geometry=gpd.points_from_xy(signs["lon"], signs["lat"]), crs=4326)
    first, second = tmp_path / "lots-first.gpkg", tmp_path / "signs-first.gpkg"
    pyogrio.write_dataframe(lots, first, layer="parcels")
    pyogrio.write_dataframe(points, first, layer="signs", append=False)
    pyogrio.write_dataframe(points, second, layer="signs")
    pyogrio.write_dataframe(lots, second, layer="parcels", append=False)
    base = ["--signs", str(SAMPLE / "signs.csv"), "--id-field", "parcel_id"]
    (tmp_path / "ok").mkdir()
    report = _same(["check", str(first), *base], tmp_path / "ok", scheduler, 4)
    assert report["warnings"][0] == (
        f"{first}: holds 2 layers ('parcels', 'signs'); read the first; choose another with --layer"
    )
    lines = _refused(["check", str(second), *base], tmp_path, scheduler)
    assert lines["one"] == lines["part"]
    assert "its first layer, 'signs' (of 2: 'signs', 'parcels')" in lines["one"]


@pytest.mark.parametrize("merge", [False, True])
def test_a_recorded_acreage_of_minus_zero_is_zero_as_one_run(scheduler, tmp_path, merge):
    """A lot whose recorded acreage is -0.0 (a number column), with another lot's NaN: merged
    by owner, one run's sum of each property's lots gave 0.0 (pandas' sum, with a NaN in the
    column), a partition's -0.0 (without), so the JSON said "recorded_acres":-0.0 in one only
    (the lot attributes oracle's long run). A recorded -0 is 0, as read."""
    lot = shapely.box(8000, 5000, 8100, 5100)
    c = Case(
        geoms=[lot, shapely.box(5000, 5000, 5100, 5100), shapely.box(8200, 5000, 8300, 5100)],
        crs=LOCAL_FT,
        ids=["0", "1", "2"],
        owners=[None, None, None],
        mx=np.array([8000.0]),
        my=np.array([5000.0]),
        marker_crs=LOCAL_FT,
        rules=["florida"],
    )
    lots_with = ({"acres": [10.0, np.nan, -0.0]}, {"acres_field": "acres"})
    _one_run_and_partitions_alike(scheduler, c, 1, merge, lots_with=lots_with)
    from posting.engine import run

    report = run(_case_files(c, tmp_path, merge, lots_with=lots_with))
    acres = report.parcels["recorded_acres"].to_numpy()
    assert np.signbit(acres[2]) == np.False_ and acres[2] == 0.0


def test_a_whole_file_of_lots_without_ids_notes_them_once_as_one_run(scheduler):
    """Lots in a GeoPackage small enough to be one piece, read whole, the second without an
    id: its reading's note of ids missing was kept beside the one the run makes from every
    piece's count, so the partitioned report said it twice (the formats oracle: a Shapefile,
    whose blank texts GDAL reads as nulls)."""
    c = Case(
        geoms=[shapely.box(5000, 5000, 5100, 5100), shapely.box(5100, 5000, 5200, 5100)],
        crs=LOCAL_FT,
        ids=["A", None],
        owners=[None, None],
        mx=np.array([5000.0]),
        my=np.array([5000.0]),
        marker_crs=LOCAL_FT,
        rules=["florida"],
    )
    _one_run_and_partitions_alike(scheduler, c, 1, False, formats={"lots": "gpkg"})


def test_ids_read_as_decimals_beyond_2_to_the_53_noted_once_over_the_pieces(scheduler, tmp_path):
    """Five lots whose ids are decimals (as GDAL reads a Shapefile's 20-digit numbers), three
    of them 2**53 or more, in pieces of one lot: the note names the three rows (1, 2 and 4),
    counted over every piece, as one run does."""
    ids = [12.0, 1.2345678901234567e19, 2.0**53, 7.0, -(2.0**60)]
    c = Case(
        geoms=[shapely.box(5000 + 100 * i, 5000, 5100 + 100 * i, 5100) for i in range(5)],
        crs=LOCAL_FT,
        ids=ids,
        owners=[None] * 5,
        mx=np.array([5000.0]),
        my=np.array([5000.0]),
        marker_crs=LOCAL_FT,
        rules=["florida"],
    )
    _one_run_and_partitions_alike(scheduler, c, 2, False, rows=1)
    from posting.engine import run

    report = run(_case_files(c, tmp_path, False)).to_dict()
    notes = [w for w in report["warnings"] if "stored as decimals" in w]
    assert len(notes) == 1 and notes[0].endswith("(rows 1, 2, 4)"), notes
    expected = ["12", "12345678901234567168", "9007199254740992", "7", "-1152921504606846976"]
    assert [p["id"] for p in report["parcels"]] == expected


def test_a_gap_ending_at_a_marker_of_the_neighbour_names_it_as_one_run(scheduler):
    """Two lots of one owner (not merged) sharing a line, one marker 0.5 ft inside the first:
    within the stated accuracy (16 ft) of a line between lots of one owner it is counted for
    both, and the second lot's one gap (its whole 1,600 ft) starts and ends at it. In a
    partition of the second lot the marker is its halo's; its gap once named no sign (the
    marker not kept), or the partition's last marker where only one end was not kept (the
    settings oracle's long run)."""
    tm = "+proj=tmerc +lat_0=28.7 +lon_0=-81.1 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft"
    c = Case(
        geoms=[shapely.box(0, 0, 600, 200), shapely.box(600, 0, 1200, 200)],
        crs=tm,
        ids=["A", "B"],
        owners=["Doe", "Doe"],
        mx=np.array([5000.0, 599.5]),  # the first far from both: assigned to none
        my=np.array([5000.0, 100.0]),
        marker_crs=tm,
        rules=["florida"],
    )
    _one_run_and_partitions_alike(scheduler, c, 1, False, chosen=Settings(accuracy_ft=16.0))
    from posting import check
    from posting.io import MarkerLayer, ParcelLayer

    report = check(
        ParcelLayer.from_geometries(c.geoms, tm, ids=c.ids, owners=c.owners),
        MarkerLayer.from_points(c.mx, c.my, tm),
        ["florida"],
        settings=Settings(accuracy_ft=16.0),
    )
    gaps = report.to_dict()["parcels"][1]["gaps"]
    assert [(g["length_ft"], g["start_sign"]["row"], g["end_sign"]["row"]) for g in gaps] == [
        (1600.0, 1, 1)
    ]


def test_signs_inside_overlapping_lots_are_in_doubt_as_in_one_run(scheduler):
    """A 1,000 ft lot A, its row repeated (A2, another owner: stacked estates), a 600 ft lot O
    over their south-west corner, and a lot far east: A's signs, 3 ft inside its line (a
    sign every 248.5 ft), stand inside A2 too, and five of them inside O. Each of A, A2 and
    O's partitions (one parcel each) has the others in its halo: every one run's verdict
    (A and A2 uncertain, either may be the one the signs post; O failing either way), byte
    for byte."""
    tm = "+proj=tmerc +lat_0=28.7 +lon_0=-81.1 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft"
    a = shapely.box(0, 0, 1000, 1000)
    inner = a.buffer(-3.0, join_style="mitre").exterior
    xy = shapely.get_coordinates(
        shapely.line_interpolate_point(inner, np.arange(16) * inner.length / 16)
    )
    c = Case(
        geoms=[
            a,
            shapely.box(0, 0, 600, 600),
            shapely.box(0, 0, 1000, 1000),
            shapely.box(5000, 0, 5500, 500),
        ],
        crs=tm,
        ids=["A", "O", "A2", "F"],
        owners=["Ann Able", "Oz Ott", "Bob Baker", "Fay Fox"],
        mx=xy[:, 0],
        my=xy[:, 1],
        marker_crs=tm,
        rules=["florida"],
    )
    _one_run_and_partitions_alike(scheduler, c, 1, False)
    from posting import check
    from posting.io import MarkerLayer, ParcelLayer

    report = check(
        ParcelLayer.from_geometries(c.geoms, tm, ids=c.ids, owners=c.owners),
        MarkerLayer.from_points(c.mx, c.my, tm),
        ["florida"],
    )
    status = report.parcels["status"].tolist()
    assert status[0] == status[2] == "uncertain" and status[3] == "unposted"
    assert status[1] in ("noncompliant", "unposted")


def test_access_points_of_lots_in_two_frames_in_the_lots_order_as_one_run(scheduler):
    """Two lots 11 degrees of longitude apart (two working frames, the western one first), the
    first in the input the eastern, each crossed by a road: one run listed the access points
    frame by frame (the second lot's first), a partition merge lists them lot by lot, so their
    GeoJSON differed (the settings oracle's long run). Both now list them in the lots' order."""
    lots = [shapely.box(-70.0, 28.0, -69.99, 28.01), shapely.box(-81.0, 28.0, -80.99, 28.01)]
    roads = [shapely.LineString([(x + 0.005, 27.99), (x + 0.005, 28.02)]) for x in (-70, -81)]
    c = Case(
        geoms=lots,
        crs="EPSG:4326",
        ids=["east", "west"],
        owners=[None, None],
        mx=np.array([-69.995]),
        my=np.array([28.0]),
        marker_crs="EPSG:4326",
        rules=["new-mexico"],
    )
    _one_run_and_partitions_alike(scheduler, c, 1, False, {"access": (roads, ["road"] * 2)})
    from posting import check
    from posting.io import FeatureLayer, MarkerLayer, ParcelLayer
    from posting.measure import Context

    report = check(
        ParcelLayer.from_geometries(lots, "EPSG:4326", ids=c.ids),
        MarkerLayer.from_points(c.mx, c.my, "EPSG:4326"),
        ["new-mexico"],
        context=Context(
            access=FeatureLayer(
                "<access>", np.asarray(roads, dtype=object), WGS84, np.array(["road"] * 2)
            )
        ),
    )
    assert len(report.geometry.crss) == 2
    assert report.access["parcel"].tolist() == [0, 0, 1, 1]  # each road crosses two sides


def test_banks_and_access_points_in_the_lots_order_as_one_run(scheduler):
    """Montana: the first lot crossed by a river (a marker on each bank), the second by a road
    (its access point). One run listed the access points, then the banks (kind by kind: the
    second lot's point before the first lot's banks), a partitioned run lot by lot, so their
    GeoJSON differed (the context oracle's long run). Both now list them in the lots' order."""
    tm = "+proj=tmerc +lat_0=46.6 +lon_0=-110.0 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft"
    c = Case(
        geoms=[shapely.box(0, 0, 1000, 1000), shapely.box(2000, 0, 3000, 1000)],
        crs=tm,
        ids=["river", "road"],
        owners=[None, None],
        mx=np.array([1000.0]),  # (a marker at (0, 0) would look like degrees: refused)
        my=np.array([500.0]),
        marker_crs=tm,
        rules=["montana"],
    )
    river = shapely.box(400, -100, 450, 1100)
    road = shapely.LineString([(2500, -100), (2500, 500)])
    layers = {"water": ([river], ["river"]), "access": ([road], ["road"])}
    _one_run_and_partitions_alike(scheduler, c, 1, False, layers)
    from posting import check
    from posting.io import FeatureLayer, MarkerLayer, ParcelLayer, parse_crs
    from posting.measure import Context

    def layer(g, v):
        return FeatureLayer("<x>", np.asarray([g], dtype=object), parse_crs(tm), np.array([v]))

    report = check(
        ParcelLayer.from_geometries(c.geoms, tm, ids=c.ids),
        MarkerLayer.from_points(c.mx, c.my, tm),
        ["montana"],
        context=Context(water=layer(river, "river"), access=layer(road, "road")),
    )
    a = report.access
    assert a["type"].tolist() == ["bank"] * 4 + ["road"]  # the river crosses two sides
    assert a["parcel"].tolist() == [0, 0, 0, 0, 1]


def test_a_context_layer_s_refusal_before_the_markers_as_one_run(scheduler):
    """A 50 ft lot, a marker at (50, 0) and an access point at (0, 0), in feet: both files'
    coordinates look like degrees. One run reads the context layers while the markers are
    read aside, and names the access file; the partitioned run named the signs file (the
    markers' distribution raised before the context's was looked at; the settings oracle's
    long run). Both now name the access file."""
    tm = "+proj=tmerc +lat_0=28.7 +lon_0=-81.1 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft"
    c = Case(
        geoms=[shapely.box(0, 0, 50, 50)],
        crs=tm,
        ids=["0"],
        owners=[None],
        mx=np.array([50.0]),
        my=np.array([0.0]),
        marker_crs=tm,
        rules=["florida"],
    )
    _one_run_and_partitions_alike(
        scheduler, c, 1, False, {"access": ([shapely.Point(0, 0)], ["road"])}
    )


def test_an_unassigned_marker_by_a_property_without_a_ring_as_one_run(scheduler):
    """Two identical lots of no area, of one owner, merged: the property has no ring to
    measure. A marker on its vertex is assigned to none, and why is found in its partition
    (which once failed, taking the nearest ring's parcel from no rings at all)."""
    x0 = -2.220446049250313e-16  # as the fuzz campaign made it: GEOS calls it valid (at 0, a
    # self-intersection, made lines), a polygon of no area, whose property keeps no ring
    lot = shapely.Polygon([(x0, 0), (91, 91), (182, 182), (x0, 0)])
    c = Case(
        geoms=[lot, lot],
        crs="+proj=tmerc +lat_0=28.7 +lon_0=-81.1 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft",
        ids=["0", "1"],
        owners=["Doe", "Doe"],
        mx=np.array([91.0]),
        my=np.array([91.0]),
        marker_crs="+proj=tmerc +lat_0=28.7 +lon_0=-81.1 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft",
        rules=["alabama"],
    )
    _one_run_and_partitions_alike(scheduler, c, 1, True)


def _chord_points(lon0: float, lon1: float, lat: float, at: tuple[float, ...]) -> np.ndarray:
    """Points of the straight line a working frame (a transverse Mercator on the middle
    meridian, as one run's) draws between (lon0, lat) and (lon1, lat), in degrees."""
    from pyproj import Transformer

    from posting.crs import local_tm

    frame = local_tm((lon0 + lon1) / 2).crs
    there = Transformer.from_crs(WGS84, frame, always_xy=True)
    back = Transformer.from_crs(frame, WGS84, always_xy=True)
    (xa, xb), (ya, yb) = there.transform([lon0, lon1], [lat, lat])
    f = np.asarray(at)
    return np.column_stack(back.transform(xa + f * (xb - xa), ya + f * (yb - ya)))


def test_markers_on_a_long_edge_beyond_its_box_in_degrees_as_one_run(scheduler):
    """A lot two degrees of longitude wide along the 45th parallel, six small lots 20 miles
    north: a frame measures the straight line between the lot's vertices, which bows 1,600 ft
    north of its north edge's parallel mid-way. Markers on that line, posting the lot in one
    run, lay beyond the lot's box in degrees (padded by twice the tolerance), so they reached
    no partition and the partitioned run left them unassigned (3 of 6 assigned, not 6)."""
    big = shapely.box(-101.0, 45.0, -99.0, 45.05)
    others = [shapely.box(-100.0 + 0.01 * i, 45.3, -99.995 + 0.01 * i, 45.305) for i in range(6)]
    on_lines = np.concatenate(
        [_chord_points(-101.0, -99.0, lat, (0.25, 0.5, 0.75)) for lat in (45.05, 45.0)]
    )
    assert on_lines[1, 1] - 45.05 > 1500 / 364_000  # beyond the box: 1,500 ft and more
    c = Case(
        geoms=[big, *others],
        crs="EPSG:4326",
        ids=["big", *(f"L{i}" for i in range(6))],
        owners=[None] * 7,
        mx=on_lines[:, 0],
        my=on_lines[:, 1],
        marker_crs="EPSG:4326",
        rules=["florida"],
    )
    _one_run_and_partitions_alike(scheduler, c, 1, False)


def test_a_road_that_bows_across_a_lot_far_from_its_box_in_degrees_as_one_run(scheduler):
    """A road along the 45th parallel, two degrees long (two vertices), lot A at its western
    end and lot B, small, 1,100 ft north of the parallel mid-way: a frame draws the road as the
    straight line between its ends, 1,600 ft north of the parallel there, across B. One run
    kept the road for the frame of both lots (its box reaches A's) and found B's two access
    points; B's partition, without A, left the road out (its box 1,100 ft from B's): B
    compliant in the partitioned run only. Both now keep every feature by its box as the frame
    draws it, and find them."""
    lots = [
        shapely.box(-101.001, 44.999, -100.999, 45.001),
        shapely.box(-100.001, 45.003, -99.999, 45.006),
    ]
    corners = np.concatenate([shapely.get_coordinates(g.exterior)[:4] for g in lots])
    road = shapely.LineString([(-101.0, 45.0), (-99.0, 45.0)])
    c = Case(
        geoms=lots,
        crs="EPSG:4326",
        ids=["A", "B"],
        owners=[None, None],
        mx=corners[:, 0],
        my=corners[:, 1],
        marker_crs="EPSG:4326",
        rules=["montana"],
    )
    _one_run_and_partitions_alike(scheduler, c, 1, False, {"access": ([road], ["road"])})
    from posting import check
    from posting.io import FeatureLayer, MarkerLayer, ParcelLayer
    from posting.measure import Context

    report = check(  # B alone: the road is found across it all the same
        ParcelLayer.from_geometries(lots[1:], "EPSG:4326", ids=["B"]),
        MarkerLayer.from_points(corners[4:, 0], corners[4:, 1], "EPSG:4326"),
        ["montana"],
        context=Context(
            access=FeatureLayer(
                "<access>", np.asarray([road], dtype=object), WGS84, np.array(["road"])
            )
        ),
    )
    assert len(report.access) == 2 and report.parcels["status"].tolist() == ["noncompliant"]


def test_a_marker_in_a_hole_outside_its_shell_as_one_run(scheduler):
    """Lot A a square whose 'hole' is a triangle 500 ft east of it, outside its shell (an
    invalid polygon, repaired as a lot of two parts, the triangle one), inside lot B; a marker
    in the triangle stands in both and goes to A, first in the input. GEOS's envelope of a
    polygon is its shell's: A's box, in the plan and in its partition, left the triangle out,
    so the marker reached A's partition only by chance (here not) and went to no lot (B's
    partition gives it to A, of its halo), where one run assigns it to A."""
    triangle = [(5600.0, 5000.0), (5700.0, 5000.0), (5700.0, 5100.0)]
    a = shapely.Polygon(
        [(5000.0, 5000.0), (5100.0, 5000.0), (5100.0, 5100.0), (5000.0, 5100.0)], [triangle]
    )
    c = Case(
        geoms=[a, shapely.box(5600, 5000, 5700, 5100)],
        crs=LOCAL_FT,
        ids=["A", "B"],
        owners=[None, None],
        mx=np.array([5690.0, 5050.0]),
        my=np.array([5010.0, 5000.0]),
        marker_crs=LOCAL_FT,
        rules=["florida"],
    )
    _one_run_and_partitions_alike(scheduler, c, 1, False)
    from posting import check
    from posting.io import MarkerLayer, ParcelLayer

    report = check(
        ParcelLayer.from_geometries(c.geoms, LOCAL_FT, ids=c.ids),
        MarkerLayer.from_points(c.mx, c.my, LOCAL_FT),
        ["florida"],
    )
    assert report.parcels["signs"].tolist() == [2, 0]


def test_water_in_a_hole_outside_its_shell_as_one_run(scheduler):
    """A water polygon whose shell lies 10 ft west of lot A and whose 'hole', outside the
    shell, crosses lot B's east line 600 ft away: made valid where it is measured, the hole is
    water too. One run kept the feature for the frame of both lots (its shell's box reaches
    A's) and found B's frontage; B's partition left it out by that box: no frontage."""
    c = Case(
        geoms=[shapely.box(5000, 5000, 5100, 5100), shapely.box(5600, 5000, 5700, 5100)],
        crs=LOCAL_FT,
        ids=["A", "B"],
        owners=[None, None],
        mx=np.array([5000.0, 5600.0]),
        my=np.array([5000.0, 5000.0]),
        marker_crs=LOCAL_FT,
        rules=["florida"],
    )
    shell = [(4900.0, 5000.0), (4990.0, 5000.0), (4990.0, 5100.0), (4900.0, 5100.0)]
    hole = [(5650.0, 4950.0), (5750.0, 4950.0), (5750.0, 5150.0), (5650.0, 5150.0)]
    water = shapely.Polygon(shell, [hole])
    _one_run_and_partitions_alike(scheduler, c, 1, False, {"water": ([water], ["lake"])})


def _sight_case() -> Case:
    """New Jersey's signs in sight of each other: lot B, 400 ft wide, two of its markers 20 ft
    north of its north line (within the tolerance) and 380 ft apart (in sight on open land, not
    in woods), two at its south corners; lot C 300 ft north-east, no neighbour of B's (its
    partition's halo), widening one run's frame box."""
    return Case(
        geoms=[shapely.box(5000, 5000, 5400, 5100), shapely.box(5700, 5400, 5800, 5500)],
        crs=LOCAL_FT,
        ids=["B", "C"],
        owners=[None, None],
        mx=np.array([5010.0, 5390.0, 5000.0, 5400.0, 5700.0]),
        my=np.array([5120.0, 5120.0, 5000.0, 5000.0, 5400.0]),
        marker_crs=LOCAL_FT,
        rules=["new-jersey"],
    )


@pytest.mark.parametrize("layer", ["dwellings", "landcover"])
def test_a_line_of_sight_beyond_the_lots_box_as_one_run(scheduler, layer):
    """A house (or a wood) between B's two northern markers, outside B's box: the line of
    sight between them, 20 ft beyond B's line, crosses it. The buildings and the land cover
    were taken within the box of the frame's lots (no margin): one run's, widened by C, held
    them (out of sight, or in woods); B's partition's, without C, did not: another verdict.
    Both now take them within the tolerance of the lots, as far as a marker stands."""
    c = _sight_case()
    if layer == "dwellings":
        layers = {"dwellings": ([shapely.box(5190, 5110, 5210, 5130)], ["house"])}
    else:
        layers = {"landcover": ([shapely.box(4990, 5105, 5410, 5140)], ["forest"])}
    _one_run_and_partitions_alike(scheduler, c, 1, False, layers)
    from posting import check
    from posting.io import FeatureLayer, MarkerLayer, ParcelLayer
    from posting.measure import Context

    (geoms,), (value,) = layers[layer]
    feature = FeatureLayer("<x>", np.asarray([geoms], dtype=object), LOCAL_FT, np.array([value]))
    statuses = [
        check(  # with C and without: B's verdict is its own
            ParcelLayer.from_geometries(c.geoms[:n], LOCAL_FT, ids=c.ids[:n]),
            MarkerLayer.from_points(c.mx, c.my, LOCAL_FT),
            ["new-jersey"],
            context=Context(**{layer: feature}),
        )
        .parcels["status"]
        .iloc[0]
        for n in (2, 1)
    ]
    assert statuses[0] == statuses[1], statuses


@pytest.mark.parametrize("other", ["web server", "bytes at once"])
def test_a_scheduler_address_where_another_program_listens_is_named(tmp_path, monkeypatch, other):
    """Another program on the port: dask's client waited for ever for a web server's reply
    to its greeting, or read the bytes another program sent first as a message's length and
    asked for exabytes (a MemoryError traceback, exit 3). Now one line, within the time-out."""
    import http.server
    import socketserver
    import threading
    import time

    from click.testing import CliRunner

    from posting import distributed
    from posting.cli import main

    class Garbage(socketserver.BaseRequestHandler):
        def handle(self):
            self.request.sendall(b"\xff" * 64 + b"HTTP/1.1 400 Bad Request\r\n\r\n")
            time.sleep(5)

    class Web(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):  # (its log is not the command's stderr)
            pass

    handler = Web if other == "web server" else Garbage
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    address = f"tcp://127.0.0.1:{server.server_address[1]}"
    monkeypatch.setattr(distributed, "CONNECT_S", 2.0, raising=False)
    out = tmp_path / "r.json"
    args = ["check", str(SAMPLE / "parcels.geojson"), "--signs", str(SAMPLE / "signs.csv")]
    t0 = time.monotonic()
    try:
        res = CliRunner().invoke(main, [*args, "-q", "--json", str(out), "--scheduler", address])
    finally:
        server.shutdown()
        server.server_close()
    assert time.monotonic() - t0 < 15
    assert res.exit_code == 2, res.output
    (line,) = res.stderr.splitlines()
    assert line.startswith(f"posting: error: --scheduler {address}: something listens there, but")
    assert "it is not a dask scheduler" in line and "Traceback" not in res.output
    assert not out.exists()


def test_signs_on_another_datum_than_the_parcels_are_said_as_in_one_run(tmp_path, scheduler):
    # NAD27 lots (UTM 17N, EPSG:26717) and GPS signs in WGS 84: where no shift between the two
    # datums is good to 5 m here, a warning says so, alike in one run and partitioned
    import geopandas as gpd

    from posting.crs import datum_warnings

    lots = gpd.GeoDataFrame(
        {"pid": [f"L{k}" for k in range(6)]},
        geometry=[
            shapely.box(470000 + 300 * k, 3175000, 470250 + 300 * k, 3175250) for k in range(6)
        ],
        crs=26717,
    )
    lots.to_file(tmp_path / "lots.gpkg")
    corners = lots.to_crs(4326).geometry.exterior.apply(lambda r: list(r.coords)[:4]).sum()
    pd.DataFrame({"lon": [x for x, _ in corners], "lat": [y for _, y in corners]}).to_csv(
        tmp_path / "signs.csv", index=False
    )
    args = ["check", str(tmp_path / "lots.gpkg"), "--signs", str(tmp_path / "signs.csv")]
    report = _same([*args, "--id-field", "pid"], tmp_path, scheduler, 2)
    box = np.array([[-81.31, 28.69, -81.28, 28.71]])
    expected = datum_warnings(
        (str(tmp_path / "lots.gpkg"), CRS("EPSG:26717")),
        [(str(tmp_path / "signs.csv"), WGS84)],
        box,
    )
    said = [w for w in report["warnings"] if "its datum" in w]
    assert said == expected
    assert len(said) == 1 or not expected  # (none where NOAA's grid is installed)
    assert report["warnings"][0] == said[0] if said else True  # first, as one run puts it


def test_figures_a_hair_from_their_limits_in_partitions_as_in_one_run(tmp_path, scheduler):
    """Six 1,000 ft squares, each with signs at its corners and side midpoints, the bottom
    sign moved so that one gap is 500.004 ft (fails 500 ft: shown 500.01, never 500.0),
    500.002 ft (passes within the slack: 500.0, never 500.01) or 500 ft; and letters 1.996 in
    high on one sign (fail 2 in: 1.99). Built in the run's own working frame (the local
    transverse Mercator on the layers' middle meridian, scale 1), so the lengths are exact
    there. In partitions of two parcels: one run's bytes, and its summary's largest gaps."""
    import geopandas as gpd

    from posting.crs import local_tm

    wcrs = local_tm(-81.1)
    _, y0 = wcrs.xy_to_ft(np.array([-81.1]), np.array([28.7]), WGS84)
    moved = [500.004, 500.002, 500.0, 500.004, 500.002, 500.004]
    x0s = [-3250.0 + 1300.0 * i for i in range(6)]  # x from -3,250 to 3,250 ft: middle 0
    outlines, rows = [], []
    for i, (x0, at) in enumerate(zip(x0s, moved, strict=True)):
        corners = np.array([[0, 0], [1000, 0], [1000, 1000], [0, 1000], [0, 0]], dtype=float)
        lon, lat = wcrs.ft_to_lonlat(corners[:, 0] + x0, corners[:, 1] + y0[0])
        outlines.append(shapely.Polygon(np.column_stack([lon, lat])))
        pts = [(0, 0), (1000, 0), (1000, 500), (1000, 1000), (500, 1000), (0, 1000), (0, 500)]
        pts.append((at, 0))  # the bottom side's sign
        xy = np.asarray(pts, dtype=float)
        lon, lat = wcrs.ft_to_lonlat(xy[:, 0] + x0, xy[:, 1] + y0[0])
        for k, (a, b) in enumerate(zip(lon.tolist(), lat.tolist(), strict=True)):
            rows.append({"lon": repr(a), "lat": repr(b), "letter_height_in": "2"})
            if i == 2 and k == 0:
                rows[-1]["letter_height_in"] = "1.996"
    parcels = tmp_path / "lots.geojson"
    gpd.GeoDataFrame({"pid": [f"L{i}" for i in range(6)]}, geometry=outlines, crs=4326).to_file(
        parcels
    )
    signs = tmp_path / "signs.csv"
    pd.DataFrame(rows).to_csv(signs, index=False)
    args = [
        "check",
        str(parcels),
        "--signs",
        str(signs),
        "--id-field",
        "pid",
        "--elevation-ft",
        "0",
    ]
    one = _same(args, tmp_path, scheduler, 2, ("json", "csv", "geojson"))
    lots = one["parcels"]
    bad, good = "noncompliant", "compliant"
    assert [p["status"] for p in lots] == [bad, good, bad, bad, good, bad]
    assert [p["max_gap_ft"] for p in lots] == [500.01, 500.0, 500.0, 500.01, 500.0, 500.01]
    assert [g["length_ft"] for p in lots for g in p["gaps"]] == [500.01] * 3
    [letters] = [v for v in lots[2]["violations"] if v["rule"] == "letter_height"]
    assert (letters["measured"], letters["limit"]) == (1.99, 2.0)
    csv_rows = (tmp_path / "one" / "report.csv").read_text().splitlines()[1:]
    over, at = "500.01", "500.0"
    assert [r.split(",")[8] for r in csv_rows] == [over, at, at, over, at, over]
    # the summary's largest gaps, one run and partitioned
    said = {}
    for mode, extra in (
        ("one", []),
        ("part", ["--scheduler", scheduler, "--partition-parcels", "2"]),
    ):
        res = _run([*args, *extra], cwd=ROOT)
        assert res.returncode == 1, res.stderr.decode()[-2000:]
        said[mode] = [x for x in res.stderr.decode().splitlines() if "largest gap" in x]
    assert said["one"] == said["part"]
    assert sorted(said["one"]) == [
        "    L0: noncompliant, largest gap 500.004 ft",
        "    L2: noncompliant, largest gap 500.0 ft",
        "    L3: noncompliant, largest gap 500.004 ft",
        "    L5: noncompliant, largest gap 500.004 ft",
    ]


def _nlcd_layers(tmp_path: Path) -> tuple[Path, Path]:
    """The sample's parcels with a land-cover column of NLCD's names (``cover``: "Woods" on
    the second piece's only), and a land-cover layer over the first ten lots in NLCD's names,
    each a dataset of two files (two pieces, whose values the partitioned run gathers)."""
    import geopandas as gpd

    lots = gpd.read_file(SAMPLE / "parcels.geojson")
    lots["cover"] = ["Woods" if i >= 10 and i % 2 else "Open" for i in range(len(lots))]
    parcels = _dataset_of(tmp_path / "parcels", [lots.iloc[:10], lots.iloc[10:]])
    placed = lots[lots.geometry.notna()]
    names = ["Pasture/Hay", "Deciduous Forest", "Cultivated Crops", "Mixed Forest", "Open Water"]
    cover = gpd.GeoDataFrame({"NLCD_Land": names * 2}, geometry=list(placed.geometry.iloc[:10]))
    cover = cover.set_crs(4326)
    layer = _dataset_of(tmp_path / "landcover", [cover.iloc[:2], cover.iloc[2:]])
    return parcels, layer


def test_land_cover_in_a_map_s_own_names_refused_as_in_one_run(tmp_path, scheduler):
    """A land-cover layer in NLCD's names ("Deciduous Forest" in one piece, "Mixed Forest" in
    the other) with no value 'forest', and a parcel column of "Woods" (in one piece only): each
    refused by the partitioned run with one run's message, the values of every piece named."""
    parcels, layer = _nlcd_layers(tmp_path)
    base = ["check", str(parcels), "--signs", str(SAMPLE / "signs.csv"), "--rules", "texas", "-q"]
    lines = _refused(
        [*base, "--landcover", str(layer), "--landcover-field", "NLCD_Land"], tmp_path, scheduler
    )
    assert lines["one"] == lines["part"]
    assert f"{layer}: the land cover's column 'NLCD_Land' (--landcover-field)" in lines["one"]
    assert "('Deciduous Forest', 'Mixed Forest')" in lines["one"]
    assert '--forest-where "NLCD_Land=Deciduous Forest,Mixed Forest"' in lines["one"]
    assert '--cultivated-where "NLCD_Land=Cultivated Crops"' in lines["one"]
    for f in tmp_path.glob("*.json"):
        f.unlink()
    lines = _refused([*base, "--landcover-field", "cover"], tmp_path, scheduler)
    assert lines["one"] == lines["part"]
    assert "the land cover's column 'cover' (--landcover-field)" in lines["one"]
    assert "('Woods')" in lines["one"] and '--forest-where "cover=Woods"' in lines["one"]


@pytest.mark.parametrize("where", ["layer", "parcels"])
def test_forest_where_in_partitions_as_in_one_run(tmp_path, scheduler, where):
    """``--forest-where`` (and ``--cultivated-where`` on the land cover's column) on a layer in
    NLCD's names, or on a parcel column: one run's bytes; Texas holds the gaps in forest land
    to 100 ft and the others to 1,000 ft."""
    parcels, layer = _nlcd_layers(tmp_path)
    args = ["check", str(parcels), "--signs", str(SAMPLE / "signs.csv"), "--id-field", "parcel_id"]
    args += ["--rules", "texas"]
    if where == "layer":
        args += ["--landcover", str(layer), "--forest-where", "NLCD_Land=*Forest"]
        args += ["--cultivated-where", "NLCD_Land=Cultivated Crops"]
    else:
        args += ["--forest-where", "cover=Woods"]
    report = _same(args, tmp_path, scheduler, 4)
    limits = {g["limit_ft"] for p in report["parcels"] for g in p["gaps"]}
    assert {100.0, 1000.0} <= limits, limits
