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
* ``fences-accuracy``: both;
* ``water-big``: ``--water`` with 30 rivers across the county (lines of 2,000 vertices) and 50
  lakes (polygons of 400 vertices), Florida's water boundaries;
* ``easements-big``: ``--easements`` with 100 county-wide corridors (60 ft wide, 1,000
  vertices down the middle): what a pipeline or power-line layer is;
* ``forest-corridors``: ``--landcover`` with 40 forest corridors 400 ft wide across the
  county, under ``--rules arkansas`` (its forest spacing differs from the open land's);
* ``fences-long``: ``--fences`` with 60 fences across the county (lines of 1,000 vertices,
  5 ft high): a ranch's fences along its roads, whose reach dissolves into one piece;
* ``access-row``: ``--access`` (``--rules new-mexico``) with the county's rights of way as one
  polygon (the 100 corridors dissolved: 383,000 vertices, 8,842 holes), as a parcel fabric's
  right-of-way layer often is: left out with a warning (it took 234 s for no access point);
* ``water-row``: the same polygon as ``--water``: a feature too big to grow whole.

The layers (``benchmarks/work/{water,easements,forest,fences_long,rights_of_way}.parquet``) are
drawn with a fixed seed in the county's UTM zone. ``--workers 2`` runs every case partitioned
(the county in 5 partitions), where each partition is sent every context feature that reaches
it: ``water-row`` took 59.7 s against 27.0 s in one process until 2026-12-05, each partition
growing the whole county's rights of way (it grows the tiles near its own parcels now).

Until 2026-12-05 ``fences`` took 1,055 s (every ring overlaid with every fence of the county)
and ``accuracy`` 90 s (the shared-line findings scanned every doubt for each lot); a helper's
sweep of the options found, with layers like these, the water 78 s, the easements 491 s and
the forest corridors more than 600 s (an STRtree of the big pieces asked ring by ring). The medians
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
    "water-big": ["--water", "{work}/water.parquet"],
    "easements-big": ["--easements", "{work}/easements.parquet"],
    "forest-corridors": [
        "--landcover",
        "{work}/forest.parquet",
        "--landcover-field",
        "cover",
        "--rules",
        "arkansas",
    ],
    "fences-long": [
        "--fences",
        "{work}/fences_long.parquet",
        "--fence-height-field",
        "height_ft",
    ],
    "access-row": ["--access", "{work}/rights_of_way.parquet", "--rules", "new-mexico"],
    "water-row": ["--water", "{work}/rights_of_way.parquet"],
}


SLOW: set[str] = set()
"""Cases run only when asked for (``--only``): none since the long fences' reach is cut into
tiles (they took 7 min 46 s until 2026-12-05)."""
DEFAULT = [c for c in CASES if c not in SLOW]


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


def make_layers(work: Path, python: str) -> None:
    """The water, easement and forest layers: long wavy lines across the county's extent."""
    names = ("water", "easements", "forest", "fences_long", "rights_of_way")
    if all((work / f"{n}.parquet").exists() for n in names):
        return
    script = """
import sys, numpy as np, geopandas as gpd, shapely
work = sys.argv[1]
g = gpd.read_parquet(work + '/parcels.parquet')
crs = g.estimate_utm_crs()
x0, y0, x1, y1 = g.to_crs(crs).total_bounds
rng = np.random.default_rng(20261205)

def across(n, vertices):
    # n wavy lines from the west edge to the east (or south to north), at random offsets
    t = np.linspace(0, 1, vertices)
    out = []
    for k in range(n):
        a, b = rng.uniform(0.05, 0.95, 2)
        wave = 0.03 * np.sin(2 * np.pi * (rng.integers(3, 9) * t + rng.uniform()))
        wave += 0.004 * np.sin(2 * np.pi * rng.integers(40, 90) * t)
        u, v = t, a + (b - a) * t + wave
        if k % 2:
            u, v = v, u
        out.append(shapely.LineString(np.c_[x0 + u * (x1 - x0), y0 + v * (y1 - y0)]))
    return np.array(out, dtype=object)

def save(name, geoms, **cols):
    f = gpd.GeoDataFrame(cols, geometry=list(geoms), crs=crs).to_crs(4326)
    f.to_parquet(f'{work}/{name}.parquet')

t = np.linspace(0, 2 * np.pi, 400, endpoint=False)
lakes = []
for cx, cy, r in zip(rng.uniform(x0, x1, 50), rng.uniform(y0, y1, 50), rng.uniform(90, 450, 50)):
    rr = r * (1 + 0.25 * np.sin(5 * t + rng.uniform(0, 6)) + 0.05 * np.sin(37 * t))
    lakes.append(shapely.Polygon(np.c_[cx + rr * np.cos(t), cy + rr * np.sin(t)]))
save('water', [*across(30, 2000), *lakes])
corridors = shapely.buffer(across(100, 1000), 9.144)
save('easements', corridors, holder=['Gas Co'] * 100)
save('forest', shapely.buffer(across(40, 1000), 60.96), cover=['forest'] * 40)
save('fences_long', across(60, 1000), height_ft=[5.0] * 60)
save('rights_of_way', [shapely.union_all(corridors)], type=['road'])
"""
    subprocess.run([python, "-c", script, str(work)], check=True)


def run_case(
    python: str, work: Path, extra: list[str], out: Path, workers: int | None = None
) -> float:
    """One fresh ``posting check`` (on ``workers`` dask workers where given); its wall time
    (exit status 0 or 1, else an error)."""
    args = [a.format(work=work) for a in extra]
    if workers:
        args += ["--workers", str(workers)]
    cmd = [python, "-m", "posting.cli", "check", f"{work}/parcels.parquet"]
    cmd += ["--signs", f"{work}/signs.parquet", "--id-field", "parcel_id"]
    cmd += ["--owner-field", "owner", "--json", str(out), "-q", *args]
    if "--rules" not in args:
        cmd += ["--rules", "florida"]
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
    ap.add_argument(
        "--workers",
        type=int,
        help="run every case partitioned, on a local cluster of this many workers (results "
        "in options-workers<N>.json): a context feature that reaches every partition shows",
    )
    a = ap.parse_args(argv)
    if not (WORK / "parcels.parquet").exists():
        subprocess.run([a.python, str(HERE / "make_county.py")], check=True)
    make_fences(WORK, a.python)
    make_layers(WORK, a.python)
    cases = ["plain", *[c for c in (a.only or DEFAULT) if c != "plain"]]
    times: dict[str, list[float]] = {c: [] for c in cases}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(a.repeat):
            for c in cases:  # alternated: the machine's load falls on every case alike
                out = Path(tmp) / "r.json"
                times[c].append(run_case(a.python, WORK, CASES[c], out, a.workers))
                print(f"{c}: {times[c][-1]:.1f} s", file=sys.stderr)
    median = {c: statistics.median(t) for c, t in times.items()}
    result = {
        "seconds": {c: round(v, 2) for c, v in median.items()},
        "ratio_to_plain": {c: round(v / median["plain"], 2) for c, v in median.items()},
        "runs": a.repeat,
        "workers": a.workers,
    }
    for c in cases:
        print(f"{c:16s} {median[c]:8.1f} s  {result['ratio_to_plain'][c]:5.2f} x plain")
    text = json.dumps(result)
    name = f"options-workers{a.workers}.json" if a.workers else "options.json"
    (WORK / name).write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
