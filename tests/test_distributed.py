"""The partitioned check on a 2-worker dask LocalCluster gives one run's verdicts, byte for byte.

The partitions are deliberately small (a few parcels of the sample, a few hundred of the real
layers and of a generated county), so that most parcels sit on a partition's edge: markers
across shared lines, corners, merged properties and water along the edges all have to come out
as one run finds them. The one-run output is the reference (its own tests hold its figures).
Williamsburg is compared verdict by verdict: its easements may be listed in another order (see
docs/scale.md); everything else byte for byte.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import shapely
from helpers import ROOT, SAMPLE, SHARED_DATA, require_real_data

from posting import dataset
from posting.crs import WGS84, plan_working_crs
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
    if "--rules" not in args:  # the partitioned path checks named profiles (not auto)
        args = [*args, "--rules", "florida"]
    return subprocess.run([*POSTING, *args], cwd=cwd, capture_output=True, check=False)


def _same(
    args: list[str], tmp: Path, scheduler: str, k: int, outputs=("json", "csv"), exact=True
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
    if not exact:  # the verdicts the issue names, parcel by parcel (see docs/scale.md)
        one, part = (json.loads(got[m][1]["json"]) for m in ("one", "part"))
        assert [_verdict(p) for p in one["parcels"]] == [_verdict(p) for p in part["parcels"]]
        assert one["unassigned_signs"] == part["unassigned_signs"]
        assert one["summary"] == part["summary"]
        return one
    for o in outputs:
        one, part = got["one"][1][o], got["part"][1][o]
        assert one == part, f"{o} differs"
    return json.loads(got["one"][1]["json"]) if "json" in outputs else None


def _verdict(p: dict) -> tuple:
    return (
        p["id"],
        p["row"],
        p["status"],
        p["max_gap_ft"],
        p["signs"],
        p["missing_corners"],
        p["gaps"],
        p["violations"],
        p.get("water_frontage_ft"),
        p.get("easement_ft"),
    )


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
    report = _same(args, tmp_path, scheduler, 700, exact=False)
    assert len(report["parcels"]) == 4464
    assert sum(p["water_frontage_ft"] > 0 for p in report["parcels"]) > 0


@pytest.mark.realdata
def test_pacific_merged_by_owner(tmp_path, scheduler):
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
    ]
    report = _same(args, tmp_path, scheduler, 600)
    assert len(report["parcels"]) == 1403  # 5,433 lots, 1,403 properties (the README)


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


def test_a_bad_file_in_a_dataset_is_named_and_nothing_is_written(tmp_path, scheduler):
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
            "--scheduler",
            scheduler,
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
    assert "Traceback" not in message
    assert not out.exists() and not (tmp_path / "pq").exists()


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


def test_halo_and_reach():
    halo = Halo.of(Settings(tolerance_ft=30, water_tolerance_ft=40, access_tolerance_ft=50))
    assert (halo.markers, halo.parcels, halo.context, halo.reach) == (30, 60, 50, 60)
    grid = Reach.grid((0.0, 0.0, 10.0, 10.0), 100)  # cells of 1 x 1
    reach = Reach.build(grid, np.array([0, 1, 11, 11]), np.array([0, 0, 1, 2]))
    box, part = reach.parts_of(np.array([[0.5, 0.5, 1.5, 1.5], [5.5, 5.5, 5.6, 5.6]]))
    assert list(zip(box.tolist(), part.tolist(), strict=True)) == [(0, 0), (0, 1), (0, 2)]


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


def test_a_worker_that_dies_is_replaced_and_the_outputs_are_whole(tmp_path):
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
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, dashboard_address=":0", memory_limit=0
        ) as cluster,
        Client(cluster) as client,
    ):
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


def test_the_rules_of_each_parcel_s_state_are_asked_for_in_one_process(tmp_path):
    res = subprocess.run(
        [*POSTING, *SAMPLE_ARGS, "--rules", "auto", "--workers", "1", "-q"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    assert res.returncode == 2
    assert "the partitioned path checks named rule profiles: give them with --rules" in (
        res.stderr.decode()
    )


def test_a_marker_file_with_lon_and_lat_swapped_is_refused_as_in_one_process(tmp_path, scheduler):
    """The swap is tried against the whole run's extent, each file's pieces counted together:
    the same message as one run (exit 2), and no output."""
    import pandas as pd

    table = pd.read_csv(SAMPLE / "signs.csv", dtype=str, keep_default_na=False)
    table["lon"], table["lat"] = table["lat"].copy(), table["lon"].copy()
    swapped = tmp_path / "swapped.csv"
    table.to_csv(swapped, index=False)
    base = ["check", str(SAMPLE / "parcels.geojson"), "--signs", str(swapped), "-q"]
    lines = {}
    for mode, extra in (
        ("one", []),
        ("part", ["--scheduler", scheduler, "--partition-parcels", "4"]),
    ):
        out = tmp_path / f"{mode}.json"
        res = _run([*base, "--json", str(out), *extra], cwd=ROOT)
        assert res.returncode == 2, res.stderr.decode()[-2000:]
        assert not out.exists()
        lines[mode] = res.stderr.decode().strip().splitlines()[-1]
    assert "would with x and y swapped" in lines["one"]
    assert lines["one"] == lines["part"]
