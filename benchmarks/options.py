"""The benchmark county checked with the options that take other code paths: each against the
plain check, so that a step that grows with the county squared shows as a ratio.

Run ``.venv/bin/python benchmarks/options.py`` from the project folder (``--repeat 3`` for
more runs, ``--only fences-accuracy`` for one case). It makes the county first when
``benchmarks/work/`` does not hold it (``run.py``'s data), then a fence layer from it
(``benchmarks/work/fences.parquet``: the outline of every 20th lot grown by 5 ft, 4 ft high:
5,000 fences), and times, in fresh processes and alternated, ``posting check`` with:

* ``plain``: the parcels and signs, ``--rules florida``, the JSON report;
* ``accuracy``: ``--accuracy-ft 16`` (a phone survey: the shared lines' bounds are evaluated);
* ``fences``: ``--fences`` (Florida's fenced land);
* ``fences-accuracy``: both.

Until 2026-12-05 ``fences`` took 1,055 s (every ring overlaid with every fence of the county)
and ``accuracy`` 90 s (the shared-line findings scanned every doubt for each lot). The medians
and each case's ratio to ``plain`` are printed; the last line is all of it as one JSON object,
also written to ``benchmarks/work/options.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORK = HERE / "work"
CASES = {
    "plain": [],
    "accuracy": ["--accuracy-ft", "16"],
    "fences": ["--fences", "{work}/fences.parquet", "--fence-height-field", "height_ft"],
    "fences-accuracy": [
        "--fences",
        "{work}/fences.parquet",
        "--fence-height-field",
        "height_ft",
        "--accuracy-ft",
        "16",
    ],
}


def make_fences(work: Path, python: str) -> None:
    """The fence layer: every 20th lot's outline grown by 5 ft (in the county's UTM zone)."""
    if (work / "fences.parquet").exists():
        return
    script = (
        "import sys, geopandas as gpd, shapely\n"
        "g = gpd.read_parquet(sys.argv[1] + '/parcels.parquet')\n"
        "utm = g.to_crs(g.estimate_utm_crs())\n"
        "rings = shapely.get_exterior_ring(\n"
        "    shapely.buffer(utm.geometry.values[::20], 5 * 0.3048, join_style='mitre'))\n"
        "f = gpd.GeoDataFrame({'height_ft': [4.0] * len(rings)}, geometry=rings, crs=utm.crs)\n"
        "f[~f.geometry.is_empty].to_crs(4326).to_parquet(sys.argv[1] + '/fences.parquet')\n"
    )
    subprocess.run([python, "-c", script, str(work)], check=True)


def run_case(python: str, work: Path, extra: list[str], out: Path) -> float:
    """One fresh ``posting check``; its wall time (exit status 0 or 1, else an error)."""
    args = [a.format(work=work) for a in extra]
    cmd = [python, "-m", "posting.cli", "check", f"{work}/parcels.parquet"]
    cmd += ["--signs", f"{work}/signs.parquet", "--id-field", "parcel_id"]
    cmd += ["--owner-field", "owner", "--rules", "florida", "--json", str(out), "-q", *args]
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - t
    if p.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stderr[-2000:]}")
    return seconds


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=1, help="runs of each case (medians)")
    ap.add_argument("--only", choices=list(CASES), action="append", help="these cases only")
    ap.add_argument("--python", default=sys.executable)
    a = ap.parse_args(argv)
    if not (WORK / "parcels.parquet").exists():
        subprocess.run([a.python, str(HERE / "make_county.py")], check=True)
    make_fences(WORK, a.python)
    cases = ["plain", *[c for c in (a.only or CASES) if c != "plain"]]
    times: dict[str, list[float]] = {c: [] for c in cases}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(a.repeat):
            for c in cases:  # alternated: the machine's load falls on every case alike
                times[c].append(run_case(a.python, WORK, CASES[c], Path(tmp) / "r.json"))
                print(f"{c}: {times[c][-1]:.1f} s", file=sys.stderr)
    median = {c: statistics.median(t) for c, t in times.items()}
    result = {
        "seconds": {c: round(v, 2) for c, v in median.items()},
        "ratio_to_plain": {c: round(v / median["plain"], 2) for c, v in median.items()},
        "runs": a.repeat,
    }
    for c in cases:
        print(f"{c:16s} {median[c]:8.1f} s  {result['ratio_to_plain'][c]:5.2f} x plain")
    text = json.dumps(result)
    (WORK / "options.json").write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
