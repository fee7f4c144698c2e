"""Benchmark ``posting evidence``: the record of 100 parcels, with a photo of a sign on each.

Run ``.venv/bin/python benchmarks/evidence.py`` from the project folder (``--help`` for the
options). It makes, in ``benchmarks/work/evidence/`` (deterministically: a fixed seed, no
clock), a block of 10 x 10 rural lots of 660 ft (10 acres each) in central Florida, about 1,000
surveyed signs in a CSV (text, name, letter height, facing, survey date) with a gap on every lot
so that all 100 are noncompliant, and a folder of 100 phone-sized JPEGs (2,016 x 1,512 pixels,
EXIF GPS position a few feet from a sign, time, direction, positioning error). Then it times,
in fresh processes:

* **record**: ``posting evidence parcels.geojson --signs signs.csv --photos photos -o DIR``,
  end to end (start-up, reading, the check, attaching the photos, 100 thumbnails, 100 pages
  with their maps, report.json, the manifest with every SHA-256);
* **verify**: ``posting verify DIR`` on that record (hashing the inputs, checking and making
  every page again);
* **pdf** (``--pdf-parcels N``, default 10, 0 to skip): the record of N parcels with ``--pdf``,
  one headless Chromium per page, two at a time.

Each is run ``--repeat`` times; the medians are reported. The last line is the result as one
JSON object; it is also written to ``benchmarks/work/evidence/results.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
WORK = HERE / "work" / "evidence"
POSTING = HERE.parent / ".venv" / "bin" / "posting"
SEED = 20261130
LOT_FT = 660.0
N_SIDE = 10


def make_data(work: Path) -> None:
    """Parcels, signs and photos (deterministic)."""
    import geopandas as gpd
    import pandas as pd
    import shapely
    from PIL import Image
    from pyproj import Transformer

    sys.path.insert(0, str(HERE.parent / "tests"))
    from photo_files import write_photo

    rng = np.random.default_rng(SEED)
    to_ll = Transformer.from_crs(
        "+proj=tmerc +lat_0=28.7 +lon_0=-81.1 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft",
        "EPSG:4326",
        always_xy=True,
    ).transform
    work.mkdir(parents=True, exist_ok=True)
    lots, ids, owners, signs = [], [], [], []
    for i in range(N_SIDE):
        for j in range(N_SIDE):
            x0, y0 = i * LOT_FT, j * LOT_FT
            lot = shapely.box(x0, y0, x0 + LOT_FT, y0 + LOT_FT)
            lots.append(shapely.transform(lot, lambda xy: np.column_stack(to_ll(*xy.T))))
            ids.append(f"R{i:02d}-{j:02d}")
            owner = f"Owner {i * N_SIDE + j:03d} LLC"
            owners.append(owner)
            ring = shapely.get_exterior_ring(lot)
            # signs every 220 ft (12 on the perimeter), one run of them missing: a 660 ft gap
            skip = int(rng.integers(0, 12))
            for k in range(12):
                if k in (skip, (skip + 1) % 12):
                    continue
                p = shapely.line_interpolate_point(ring, k * 220.0)
                cx, cy = x0 + LOT_FT / 2, y0 + LOT_FT / 2
                px, py = shapely.get_x(p), shapely.get_y(p)
                d = np.hypot(cx - px, cy - py)
                sx, sy = px + 3 * (cx - px) / d, py + 3 * (cy - py) / d  # 3 ft inside
                lon, lat = to_ll(sx, sy)
                facing = float(np.degrees(np.arctan2(px - cx, py - cy)) % 360)
                signs.append(
                    {
                        "sign_id": f"{ids[-1]}-{k:02d}",
                        "lon": round(float(lon), 7),
                        "lat": round(float(lat), 7),
                        "kind": "sign",
                        "text": "NO TRESPASSING",
                        "name_on_sign": owner,
                        "letter_height_in": 3,
                        "facing_deg": round(facing),
                        "surveyed": "2026-10-14",
                        "x": sx,
                        "y": sy,
                    }
                )
    gpd.GeoDataFrame({"parcel_id": ids, "owner": owners}, geometry=lots, crs=4326).to_file(
        work / "parcels.geojson"
    )
    table = pd.DataFrame(signs)
    table.drop(columns=["x", "y"]).to_csv(work / "signs.csv", index=False)
    photos = work / "photos"
    if photos.exists():
        shutil.rmtree(photos)
    photos.mkdir()
    # one photo per lot, of its first sign, taken 4 ft from it; a phone-sized frame with
    # gradients (JPEG of a realistic size, about 0.3 MB)
    yy, xx = np.mgrid[0:1512, 0:2016]
    first = table.groupby(table["sign_id"].str[:6]).head(1).reset_index(drop=True)
    for k, s in first.iterrows():
        base = np.stack(
            [(xx * (k + 1)) % 256, (yy * 3 + k) % 256, ((xx + yy) // 7) % 256], axis=-1
        ).astype(np.uint8)
        img_path = photos / f"IMG_{k:04d}.JPG"
        lon, lat = to_ll(s["x"] + 4.0, s["y"])
        write_photo(img_path, lon, lat, camera_deg=(s["facing_deg"] + 180) % 360, error_m=3.0)
        # the same EXIF, a full-size picture
        with Image.open(img_path) as small:
            exif = small.getexif()
        Image.fromarray(base).save(img_path, exif=exif, quality=85)


def timed(cmd: list[str]) -> tuple[float, float, int, str]:
    """Wall seconds, CPU seconds (user + system, the child and its own children: steadier on
    a shared machine), exit status and stderr of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode, done.stderr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--pdf-parcels", type=int, default=10)
    ap.add_argument("--regen", action="store_true", help="Make the data again.")
    args = ap.parse_args()
    if args.regen or not (WORK / "photos").exists():
        t0 = time.perf_counter()
        make_data(WORK)
        print(f"data made in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    base = [
        str(POSTING),
        "evidence",
        str(WORK / "parcels.geojson"),
        "--signs",
        str(WORK / "signs.csv"),
        "--photos",
        str(WORK / "photos"),
        "--id-field",
        "parcel_id",
        "--owner-field",
        "owner",
        "--check-date",
        "2026-11-30",
        "-q",
    ]
    out = WORK / "record"
    record, verify, record_cpu, verify_cpu = [], [], [], []
    for _ in range(args.repeat):
        s, c, code, err = timed([*base, "-o", str(out)])
        if code != 0:
            sys.exit(f"posting evidence failed ({code}): {err}")
        record.append(s)
        record_cpu.append(c)
        s, c, code, err = timed([str(POSTING), "verify", str(out), "-q"])
        if code != 0:
            sys.exit(f"posting verify failed ({code}): {err}")
        verify.append(s)
        verify_cpu.append(c)
    pages = len(list(out.glob("*.html"))) - 1
    size_mb = sum(p.stat().st_size for p in out.iterdir()) / 1e6
    result = {
        "parcels": pages,
        "photos": len(list((WORK / "photos").glob("*.JPG"))),
        "record_s_median": round(statistics.median(record), 2),
        "record_s_runs": [round(x, 2) for x in record],
        "record_cpu_s_median": round(statistics.median(record_cpu), 2),
        "verify_s_median": round(statistics.median(verify), 2),
        "verify_cpu_s_median": round(statistics.median(verify_cpu), 2),
        "load_average_1min": round(os.getloadavg()[0], 1),
        "record_mb": round(size_mb, 1),
    }
    if args.pdf_parcels:
        ids = json.loads((out / "manifest.json").read_text())["parcels_in_record"]
        sel = [w for pid in ids[: args.pdf_parcels] for w in ("--parcel", pid)]
        pdf_out = WORK / "record-pdf"
        s, _, code, err = timed([*base, *sel, "--pdf", "-o", str(pdf_out)])
        if code != 0:
            sys.exit(f"posting evidence --pdf failed ({code}): {err}")
        result["pdf_parcels"] = args.pdf_parcels
        result["pdf_s"] = round(s, 1)
        s, _, code, err = timed([*base, *sel, "-o", str(pdf_out)])
        result["pdf_same_without_pdf_s"] = round(s, 1)
    (WORK / "results.json").write_text(json.dumps(result, indent=1))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
