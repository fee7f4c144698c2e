"""Time the check of a state-sized dataset (``make_state.py``): single process, ``--workers 1``
and ``--workers 2``, with the peak resident memory of every process (the command and each dask
worker), sampled every 0.2 s over the process tree with psutil.

    .venv/bin/python benchmarks/state.py                 # all three, in turn
    .venv/bin/python benchmarks/state.py --only workers-2 --partition-parcels 20000
    .venv/bin/python benchmarks/state.py --only workers-2 --signs-csv   # the signs as one CSV
    .venv/bin/python benchmarks/state.py --only workers-2 --geojson     # both as GeoJSON
    .venv/bin/python benchmarks/state.py --only workers-2 --geojsonseq  # both as GeoJSONSeq

``--signs-csv`` gives the signs as one CSV file (``lon,lat,kind``, every text quoted, as Arrow
writes it), written once beside the dataset as ``signs.csv`` (300 MB for the 10,019,094 signs):
the workers read it in slices of records (``posting/csvslices.py``). ``--geojson`` gives the
parcels and the signs as two GeoJSON files, as an open-data portal hands them out, written once
beside the dataset (``parcels.geojson``, ``signs.geojson``): the workers read them in slices of
features (``posting/jsonslices.py``). ``--geojsonseq`` gives them as two GeoJSON text
sequences, one feature a line (``parcels.geojsonl``, ``signs.geojsonl``, as ``ogr2ogr -f
GeoJSONSeq`` writes them): read in slices of lines.

Each run writes the GeoParquet results (``--parquet``) and prints one JSON line: the wall time,
the CPU time, the largest peak of any one process, the sum of the peaks, the load average,
and the steps' times of a partitioned run (``POSTING_TIMINGS``). The last line is all runs as
one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
STATE = HERE / "work" / "state"
POSTING = HERE.parent / ".venv" / "bin" / "posting"


def measure(argv: list[str], env: dict[str, str], max_gib: float = 0.0) -> dict[str, object]:
    """Run ``argv``: its wall time, CPU time (user and system, its own and its worker
    processes'), exit status, stderr, and the peak RSS (MiB) of each of its processes, sampled
    every 0.2 s. With ``max_gib``, a run whose processes together pass it is stopped."""
    import tempfile

    t0 = time.perf_counter()
    stopped = False
    with tempfile.TemporaryFile() as errfile:
        proc = subprocess.Popen(argv, stderr=errfile, env=env)
        top = psutil.Process(proc.pid)
        peaks: dict[int, float] = {}
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:  # reaped here: its rusage counts the worker processes it reaped
                break
            try:
                for p in [top, *top.children(recursive=True)]:
                    try:
                        rss = p.memory_info().rss / 2**20
                    except psutil.Error:
                        continue
                    peaks[p.pid] = max(peaks.get(p.pid, 0.0), rss)
            except psutil.Error:
                pass
            if max_gib and sum(peaks.values()) > max_gib * 1024 and not stopped:
                stopped = True
                for p in [*top.children(recursive=True), top]:
                    try:
                        p.kill()
                    except psutil.Error:
                        pass
            time.sleep(0.2)
        errfile.seek(0)
        err = errfile.read().decode(errors="replace")
    workers = [v for p, v in peaks.items() if p != proc.pid]
    return {
        "seconds": round(time.perf_counter() - t0, 1),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1),
        "status": os.waitstatus_to_exitcode(status),
        "processes": len(peaks),
        "peak_rss_mib_max": round(max(peaks.values(), default=0.0)),
        "peak_rss_mib_sum": round(sum(peaks.values())),
        "peak_rss_mib_command": round(peaks.get(proc.pid, 0.0)),
        "peak_rss_mib_workers": sorted(round(v) for v in workers if v > 100),
        "load_average": round(os.getloadavg()[0], 1),
        "stderr": err[-600:],
        "stopped_over_gib": max_gib if stopped else None,
    }


def signs_csv(state: Path) -> Path:
    """The state's signs as one CSV file of ``lon,lat`` and their other columns, written once
    (by batches of a million: not the whole state in memory)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.csv as pc
    import pyarrow.dataset as ds
    import shapely

    out = state / "signs.csv"
    if out.exists():
        return out
    tmp = out.with_suffix(".csv.tmp")
    writer = None
    for batch in ds.dataset(state / "signs", format="parquet").to_batches(batch_size=1_000_000):
        xy = shapely.get_coordinates(
            shapely.from_wkb(batch.column("geometry").to_numpy(zero_copy_only=False))
        )
        cols = {"lon": pa.array(np.round(xy[:, 0], 7)), "lat": pa.array(np.round(xy[:, 1], 7))}
        cols |= {n: batch.column(n) for n in batch.schema.names if n != "geometry"}
        table = pa.table(cols)
        writer = writer or pc.CSVWriter(tmp, table.schema)
        writer.write_table(table)
    writer.close()
    tmp.rename(out)
    return out


def as_geojson(state: Path, name: str, driver: str = "GeoJSON") -> Path:
    """The state's ``name`` dataset as one GeoJSON file (or text sequence, ``driver``
    GeoJSONSeq), written once (by GDAL, which gives every feature all of the columns, in one
    order)."""
    import geopandas as gpd

    suffix = ".geojsonl" if driver == "GeoJSONSeq" else ".geojson"
    out = state / f"{name}{suffix}"
    if out.exists():
        return out
    tmp = state / f"{name}.tmp{suffix}"
    gpd.read_parquet(state / name).to_file(tmp, engine="pyogrio", driver=driver)
    tmp.rename(out)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--state", type=Path, default=STATE)
    ap.add_argument("--only", action="append", choices=["single", "workers-1", "workers-2"])
    ap.add_argument("--partition-parcels", type=int, default=None)
    ap.add_argument(
        "--max-gib", type=float, default=18.0, help="stop a run that needs more (%(default)s)"
    )
    ap.add_argument("--signs-csv", action="store_true", help="the signs as one CSV file")
    ap.add_argument("--geojson", action="store_true", help="parcels and signs as GeoJSON files")
    ap.add_argument(
        "--geojsonseq", action="store_true", help="parcels and signs as GeoJSON text sequences"
    )
    args = ap.parse_args()
    signs = signs_csv(args.state) if args.signs_csv else args.state / "signs"
    parcels = args.state / "parcels"
    if args.geojson:
        parcels, signs = as_geojson(args.state, "parcels"), as_geojson(args.state, "signs")
    if args.geojsonseq:
        parcels, signs = (as_geojson(args.state, n, "GeoJSONSeq") for n in ("parcels", "signs"))
    base = [
        str(POSTING),
        "check",
        str(parcels),
        "--signs",
        str(signs),
        "--id-field",
        "parcel_id",
        "--owner-field",
        "owner",
        "--rules",  # the generated state lies partly at sea: auto would refuse those parcels
        "florida",
        "-q",
    ]
    runs = {"single": [], "workers-1": ["--workers", "1"], "workers-2": ["--workers", "2"]}
    env = dict(os.environ, POSTING_TIMINGS="1")
    out = {}
    for name in args.only or list(runs):
        extra = list(runs[name])
        if extra and args.partition_parcels:
            extra += ["--partition-parcels", str(args.partition_parcels)]
        result = measure(
            [*base, *extra, "--parquet", str(args.state.parent / f"state-{name}")],
            env,
            args.max_gib,
        )
        result["run"] = name
        print(json.dumps(result), flush=True)
        out[name] = result
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
