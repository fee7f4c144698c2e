"""Same output before and after: run a fixed set of checks and plans with two versions of
posting and compare every output byte for byte (the report's timestamp aside).

A refactoring must not change what users get. This runs, in fresh processes, the command on the
bundled sample (every output of ``check`` and ``plan``, several rule profiles and land options),
on the three real layers in ``../shared/data`` with their land options and markers laid out along
their lines (some inside, some jittered across), and on the benchmark county when its data is
there (``benchmarks/make_county.py`` makes it). The reference version is a commit exported with
``git archive``; the other is the working tree. The ``partitioned`` cases run the working tree
on a local dask cluster of two workers in small partitions (``--workers 2 --partition-parcels``)
against the reference's one process: the sample with its land options and ``--merge-owner``,
Pacific County merged by owner, and the county; their JSON and CSV must be one run's.

    .venv/bin/python benchmarks/same_output.py HEAD~3        # working tree against HEAD~3
    .venv/bin/python benchmarks/same_output.py HEAD~3 --only sample
    .venv/bin/python benchmarks/same_output.py HEAD~3 --no-county
    .venv/bin/python benchmarks/same_output.py HEAD~3 --only partitioned

Exit status 0 when every output is the same, 1 when any differs (the first lines that differ
are shown), 2 for bad usage.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
WORK = ROOT / "benchmarks" / "work"
POSTING = ROOT / ".venv" / "bin" / "posting"
SAMPLE = ROOT / "data"
_STAMP = re.compile(rb'"generated": ?"[^"]*"')
_FOLIUM_ID = re.compile(rb"_([0-9a-f]{32})(?![0-9a-f])")
_TIME = re.compile(
    rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:\+00:00|Z)|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC"
)  # folium names its elements by random uuid


SAMPLE_CHECK = [
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
]
"""The bundled sample's check (``parquet_same.py`` uses it too)."""
SAMPLE_LAND = [
    "--water",
    str(SAMPLE / "water.geojson"),
    "--dwellings",
    str(SAMPLE / "dwellings.geojson"),
]


def _sample_cases() -> dict[str, list[str]]:
    base, land = SAMPLE_CHECK, SAMPLE_LAND
    outs = ["--json", "{out}/report.json", "--geojson", "{out}/report.geojson"]
    outs += ["--csv", "{out}/report.csv", "--map", "{out}/map.html", "-q"]
    plan = ["plan", *base[1:], *land, "-o", "{out}/plan.gpx", "--summary", "{out}/plan.json"]
    cases = {
        "sample-demo": [*base, *land, *outs[:-1]],  # with the summary on stderr
        "sample-accuracy": [*base, *land, "--accuracy-ft", "16", *outs],
        "sample-land": [
            *base,
            *land,
            "--fences",
            str(SAMPLE / "fences.geojson"),
            "--easements",
            str(SAMPLE / "easements.geojson"),
            "--cultivated-where",
            "landuse=CROPLAND",
            "--merge-owner",
            "owner",
            *outs,
        ],
        "sample-alternatives": [*base, "--rules", "florida", "--rules", "florida-paint", *outs],
        "plan-gpx": [*plan, "--map", "{out}/plan-map.html", "-q"],
        "plan-kml": [*plan[:-4], "-o", "{out}/plan.kml", "--summary", "{out}/plan.csv", "-q"],
        "plan-csv": [*plan[:-4], "-o", "{out}/plan.csv", "--include-existing", "-q"],
        "plan-geojson": [*plan[:-4], "-o", "{out}/plan.geojson", "--accuracy-ft", "10", "-q"],
    }
    cases["sample-summary-not-checked"] = [*base, "--rules", "arizona", "--rules", "town-code"]
    for rules in ("texas", "montana", "new-york", "arizona", "minnesota", "town-code"):
        extra = ["--public-where", "owner=Town of Geneva"] if rules == "town-code" else []
        cases[f"sample-{rules}"] = [*base, *land, "--rules", rules, *extra, *outs]
        cases[f"plan-{rules}"] = [*plan[:-4], "--rules", rules, "-o", "{out}/plan.geojson", "-q"]
    return cases


def _markers_along(parcels_path: Path, out: Path, *, every_ft: float, seed: int) -> Path:
    """Markers laid out along each parcel's boundary every ``every_ft``, 3 ft inside, then
    jittered by up to 8 ft (so some land across the line): the same file for both versions."""
    import geopandas as gpd
    import shapely

    if out.exists():
        return out
    gdf = gpd.read_file(parcels_path)
    gdf = gdf[gdf.geometry.notna() & gdf.geometry.is_valid].to_crs(gdf.estimate_utm_crs())
    rng = np.random.default_rng(seed)
    rows = []
    to_ft = 0.3048
    for geom in gdf.geometry:
        inner = geom.buffer(-3 * to_ft)
        for ring in shapely.get_rings(shapely.get_parts(inner)):
            if ring.length < 1:
                continue
            steps = np.arange(0.0, ring.length, every_ft * to_ft)
            pts = shapely.line_interpolate_point(ring, steps)
            xy = shapely.get_coordinates(pts) + rng.normal(0, 4 * to_ft, (len(steps), 2))
            rows.append(xy)
    xy = np.concatenate(rows)
    lon, lat = (
        gpd.GeoSeries(gpd.points_from_xy(xy[:, 0], xy[:, 1]), crs=gdf.crs)
        .to_crs(4326)
        .pipe(lambda s: (s.x.to_numpy(), s.y.to_numpy()))
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w") as fh:
        fh.write("lon,lat\n")
        for a, b in zip(lon, lat, strict=True):
            fh.write(f"{a:.8f},{b:.8f}\n")
    return out


def _real_cases() -> dict[str, list[str]]:
    w = SHARED / "williamsburg-va"
    p = SHARED / "pacific-wa" / "taxlots.geojson"
    s = SHARED / "seminole-fl" / "parcels.geojson"
    if not (w.is_dir() and p.exists() and s.exists()):
        return {}
    marks = WORK / "same-output"
    outs = ["--json", "{out}/report.json", "--geojson", "{out}/report.geojson", "-q"]
    return {
        "williamsburg": [
            "check",
            str(w / "parcels.geojson"),
            "--signs",
            str(_markers_along(w / "parcels.geojson", marks / "w.csv", every_ft=250, seed=1)),
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
            *outs,
        ],
        "pacific-merged": [
            "check",
            str(p),
            "--signs",
            str(_markers_along(p, marks / "p.csv", every_ft=450, seed=2)),
            "--id-field",
            "ASSESSOR",
            "--owner-field",
            "OWNER",
            "--merge-owner",
            "OWNER",
            "--accuracy-ft",
            "16",
            *outs,
        ],
        "seminole": [
            "check",
            str(s),
            "--signs",
            str(_markers_along(s, marks / "s.csv", every_ft=500, seed=3)),
            "--id-field",
            "PARCEL",
            "--acres-field",
            "GIS_ACRES",
            *outs,
        ],
    }


def _county_cases() -> dict[str, list[str]]:
    parcels, signs = WORK / "parcels.parquet", WORK / "signs.parquet"
    if not (parcels.exists() and signs.exists()):
        return {}
    return {
        "county": [
            "check",
            str(parcels),
            "--signs",
            str(signs),
            "--id-field",
            "parcel_id",
            "--json",
            "{out}/report.json",
            "-q",
        ]
    }


_PARTITIONED = ["--workers", "2", "--partition-parcels"]


def _partitioned_cases() -> dict[str, tuple[list[str], list[str]]]:
    """Cases the working tree runs on dask in small partitions, against the reference's one
    process: (the arguments, what the tree adds). Their JSON, CSV and GeoJSON are one run's."""
    sample = _sample_cases()
    outs = ["--json", "{out}/report.json", "--csv", "{out}/report.csv", "-q"]
    land = [a for a in sample["sample-land"] if a not in ("--map", "{out}/map.html")]
    cases = {"partitioned-sample-land": (land, [*_PARTITIONED, "4"])}
    real = _real_cases()
    if "pacific-merged" in real:
        cases["partitioned-pacific-merged"] = (real["pacific-merged"], [*_PARTITIONED, "2000"])
    county = _county_cases()
    if county:
        args = [*county["county"][:-3], *outs]
        cases["partitioned-county"] = (args, [*_PARTITIONED, "5000"])
    return cases


def run_all(
    cases: dict[str, list[str]],
    out: Path,
    pythonpath: str | None,
    extra: dict[str, list[str]] | None = None,
) -> dict[str, int]:
    """Run every case into ``out/<case>/`` (with ``extra``'s arguments added to the cases it
    names); return each case's exit status."""
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    else:
        env.pop("PYTHONPATH", None)
    codes = {}
    scratch = Path(tempfile.mkdtemp(prefix="same-output-cwd-"))
    for name, args in cases.items():
        d = out / name
        d.mkdir(parents=True, exist_ok=True)
        args = [*args, *(extra or {}).get(name, [])]
        argv = [str(POSTING), *(a.replace("{out}", str(d)) for a in args)]
        res = subprocess.run(argv, cwd=scratch, env=env, capture_output=True)
        (d / "stderr.txt").write_bytes(res.stderr)
        codes[name] = res.returncode
    shutil.rmtree(scratch, ignore_errors=True)
    return codes


def _normalised(path: Path) -> bytes:
    data = path.read_bytes()
    data = _TIME.sub(b"<time>", _STAMP.sub(b'"generated": "-"', data))
    seen: dict[bytes, bytes] = {}  # each random id by its order of first appearance
    return _FOLIUM_ID.sub(lambda m: b"_id%d" % seen.setdefault(m[1], len(seen)), data)


def compare(a: Path, b: Path) -> list[str]:
    """The differences between two output folders, in words (empty when the same)."""
    problems = []
    names = sorted({p.relative_to(a) for p in a.rglob("*") if p.is_file()})
    names_b = sorted({p.relative_to(b) for p in b.rglob("*") if p.is_file()})
    for missing in sorted(set(names) ^ set(names_b)):
        problems.append(f"{missing}: only in {'reference' if missing in names else 'tree'}")
    for rel in names:
        if rel not in names_b:
            continue
        x, y = _normalised(a / rel), _normalised(b / rel)
        if x != y:
            lines = list(
                difflib.unified_diff(
                    x.decode(errors="replace").splitlines(),
                    y.decode(errors="replace").splitlines(),
                    "reference",
                    "tree",
                    lineterm="",
                    n=0,
                )
            )
            shown = "\n    ".join(line[:200] for line in lines[2:8])
            problems.append(f"{rel}: differs ({len(lines)} diff lines)\n    {shown}")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ref", help="the commit to compare the working tree with")
    ap.add_argument("--only", choices=["sample", "real", "county", "partitioned"], action="append")
    ap.add_argument("--no-county", action="store_true", help="skip the county (about 20 s)")
    ap.add_argument("--keep", type=Path, help="keep both output folders here")
    args = ap.parse_args(argv)
    only = set(args.only or ["sample", "real", "county", "partitioned"])
    if args.no_county:
        only.discard("county")
    cases: dict[str, list[str]] = {}
    extra: dict[str, list[str]] = {}
    if "partitioned" in only:
        for name, (case, added) in _partitioned_cases().items():
            if args.no_county and name == "partitioned-county":
                continue
            cases[name], extra[name] = case, added
    if "sample" in only:
        cases.update(_sample_cases())
    if "real" in only:
        cases.update(_real_cases())
    if "county" in only:
        cases.update(_county_cases())
    base = args.keep or Path(tempfile.mkdtemp(prefix="same-output-"))
    snap = base / "ref-src"
    if snap.exists():
        shutil.rmtree(snap)
    snap.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", args.ref, "posting"], capture_output=True
    )
    if archive.returncode:
        print(archive.stderr.decode(), file=sys.stderr)
        return 2
    tar_path = base / "ref.tar"
    tar_path.write_bytes(archive.stdout)
    with tarfile.open(tar_path) as tar:
        tar.extractall(snap, filter="data")
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(snap / "posting")])
    for side in ("ref", "tree"):
        shutil.rmtree(base / side, ignore_errors=True)
    ref_codes = run_all(cases, base / "ref", str(snap))
    tree_codes = run_all(cases, base / "tree", None, extra)
    problems = [
        f"{name}: exit {ref_codes[name]} (reference) vs {tree_codes[name]} (tree)"
        for name in cases
        if ref_codes[name] != tree_codes[name]
    ]
    problems += compare(base / "ref", base / "tree")
    summary = {"cases": len(cases), "differences": len(problems), "kept": str(base)}
    print(json.dumps(summary))
    for p in problems:
        print(p)
    if not args.keep:
        shutil.rmtree(base, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
