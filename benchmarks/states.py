"""Benchmark: which state each parcel of a county lies in (:mod:`posting.states`).

Run ``.venv/bin/python benchmarks/states.py`` (``--repeat N`` for more runs; medians are
reported). It uses the benchmark county (``benchmarks/work/parcels.parquet``, 100,000 parcels,
made by ``make_county.py`` on first use) in two places:

* **inland**: where ``make_county.py`` puts it, in central Florida, miles from any state line
  (the usual case: no parcel is near a line, so none is measured);
* **on the line**: the same parcels moved, unchanged in shape, so that the county's middle sits
  on the Virginia/North Carolina line at 79.5°W: a band of parcels straddles it and thousands
  lie within the margin, each measured in true feet (the worst case a county can be).

and times, each in one process after the boundaries are loaded once:

* ``parcel_states`` on the 100,000 parcels (default margin, 500 ft);
* ``state_of`` on their 100,000 centroids (state and distance to the nearest line, for all);
* the first call, which reads and indexes the shipped boundaries (in a fresh process).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import geopandas as gpd
import numpy as np
import shapely

HERE = Path(__file__).resolve().parent
WORK = HERE / "work"
LINE_LON, LINE_LAT = -79.5, 36.5413
"""A point on the Virginia/North Carolina line (the county is centred here for 'on the line')."""


def ensure_county(work: Path) -> Path:
    path = work / "parcels.parquet"
    if not path.exists():
        subprocess.run(
            [sys.executable, str(HERE / "make_county.py"), "--out", str(work)], check=True
        )
    return path


def timed(fn, repeat: int) -> tuple[float, object]:
    runs, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        runs.append(time.perf_counter() - t)
    return statistics.median(runs), out


def first_load_s() -> float:
    code = (
        "import time; t = time.perf_counter(); import posting.states as s; s.boundaries(); "
        "print(time.perf_counter() - t)"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return float(out.stdout.strip())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs per measurement (%(default)s)")
    ap.add_argument("--work", type=Path, default=WORK, help="data folder (%(default)s)")
    args = ap.parse_args(argv)

    from posting.states import boundaries, parcel_states, state_of

    parcels = gpd.read_parquet(ensure_county(args.work)).to_crs(4326).geometry.to_numpy()
    loads = [first_load_s() for _ in range(args.repeat)]
    boundaries()
    centre = shapely.centroid(shapely.box(*shapely.total_bounds(parcels)))
    shift = np.array([LINE_LON - centre.x, LINE_LAT - centre.y])
    moved = shapely.transform(parcels, lambda xy: xy + shift)
    print(
        f"{len(parcels):,} parcels; median of {args.repeat} runs; first load (import + read + "
        f"index, fresh process): {statistics.median(loads):.2f} s"
    )
    for label, geoms in (("inland", parcels), ("on the line", moved)):
        s_parcels, res = timed(lambda g=geoms: parcel_states(g), args.repeat)
        pts = shapely.centroid(geoms)
        x, y = shapely.get_x(pts), shapely.get_y(pts)
        s_points, _ = timed(lambda x=x, y=y: state_of(x, y), args.repeat)
        counts = res["status"].value_counts().to_dict()
        print(
            f"  {label:12s} parcel_states {s_parcels:6.2f} s ({len(geoms) / s_parcels:,.0f}/s) "
            f"· state_of on centroids {s_points:6.2f} s · {counts}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
