"""Same GeoParquet before and after: ``posting check --parquet`` with two versions, compared
table by table.

Runs, in fresh processes, the check with ``--parquet`` on the bundled sample (its land options,
``--merge-owner``, two rule profiles), on the benchmark county (``benchmarks/make_county.py``)
and on the county of real shapes (``benchmarks/work/real-apart``,
``benchmarks/make_real_county.py``, checked with ``--rules florida``), each in one process and
partitioned on a local dask cluster (``--workers 2 --partition-parcels``), with the reference
commit's package (exported with ``git archive``, first on ``PYTHONPATH``) and with the working
tree. Every part file of every
dataset (``parcels``, ``gaps``, ``corners``, ``markers``) must hold the same table: schema,
field nullability, the ``geo`` metadata and every value (a float NaN is not a null: both are
compared as written), read whole with ``pyarrow.dataset`` too; ``summary.json`` must be the
same bytes, its time stamp aside.

    .venv/bin/python benchmarks/parquet_same.py HEAD~2
    .venv/bin/python benchmarks/parquet_same.py HEAD~2 --only sample-land --keep /tmp/pq-same

Exit status 0 when every dataset is the same, 1 when any differs (each difference is named).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ab import export
from same_output import SAMPLE_CHECK, SAMPLE_LAND

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "benchmarks" / "work"
POSTING = ROOT / ".venv" / "bin" / "posting"
SAMPLE = ROOT / "data"
DATASETS = ("parcels", "gaps", "corners", "markers")
_STAMP = re.compile(rb'"generated": ?"[^"]*"')


def _cases(real: Path) -> dict[str, tuple[list[str], str]]:
    """Each case: the command's arguments (the output folder as ``{out}``) and the partition
    size of its partitioned run."""
    base, land = SAMPLE_CHECK, SAMPLE_LAND
    out = ["--parquet", "{out}", "-q"]
    cases = {
        "sample-land": (
            [
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
                *out,
            ],
            "4",
        ),
        "sample-alternatives": (
            [*base, "--rules", "florida", "--rules", "florida-paint", *out],
            "5",
        ),
        "sample-town-code": (
            [*base, *land, "--rules", "town-code", "--public-where", "owner=Town of Geneva", *out],
            "5",
        ),
    }
    for name, folder, rules in (("county", WORK, []), ("real-apart", real, ["--rules", "florida"])):
        parcels, signs = folder / "parcels.parquet", folder / "signs.parquet"
        if parcels.exists() and signs.exists():
            args = ["check", str(parcels), "--signs", str(signs), *rules]
            args += ["--id-field", "parcel_id", "--owner-field", "owner", *out]
            cases[name] = (args, "20000")
    return cases


def _run(args: list[str], out: Path, pythonpath: str | None) -> int:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    else:
        env.pop("PYTHONPATH", None)
    argv = [str(POSTING), *(a.replace("{out}", str(out)) for a in args)]
    res = subprocess.run(argv, cwd=tempfile.gettempdir(), env=env, capture_output=True)
    if res.returncode not in (0, 1):
        print(res.stderr.decode()[-2000:], file=sys.stderr)
    return res.returncode


def _same_table(a: pa.Table, b: pa.Table) -> str | None:
    """None when ``a`` and ``b`` are the same as written, else what differs."""
    if not a.schema.equals(b.schema, check_metadata=True):
        return f"schema differs:\n{a.schema}\n  vs\n{b.schema}"
    if a.num_rows != b.num_rows:
        return f"{a.num_rows} rows vs {b.num_rows}"
    if a.equals(b, check_metadata=True):
        return None
    for name in a.column_names:  # NaN equals NaN here (Table.equals says not), null is apart
        x, y = a[name].combine_chunks(), b[name].combine_chunks()
        if not x.is_null().equals(y.is_null()):
            return f"column {name}: nulls differ"
        if pa.types.is_floating(x.type):
            xn = np.asarray(x.fill_null(0.0).to_numpy(zero_copy_only=False))
            yn = np.asarray(y.fill_null(0.0).to_numpy(zero_copy_only=False))
            same = ((xn == yn) | (np.isnan(xn) & np.isnan(yn))) & (np.signbit(xn) == np.signbit(yn))
            if not same.all():
                at = np.flatnonzero(~same)
                shown = ", ".join(f"row {i}: {xn[i]!r} vs {yn[i]!r}" for i in at[:3])
                return f"column {name}: {len(at)} value(s) differ ({shown})"
        elif not x.equals(y):
            return f"column {name}: values differ"
    return None


def compare(a: Path, b: Path) -> list[str]:
    """The differences between two ``--parquet`` folders, in words (empty when the same)."""
    problems = []
    files_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    for rel in sorted(set(files_a) ^ set(files_b)):
        problems.append(f"{rel}: only in {'reference' if rel in files_a else 'tree'}")
    for rel in files_a:
        if rel not in files_b:
            continue
        if rel.name == "summary.json":
            x = _STAMP.sub(b'"generated": "-"', (a / rel).read_bytes())
            y = _STAMP.sub(b'"generated": "-"', (b / rel).read_bytes())
            if x != y:
                problems.append(f"{rel}: differs")
        elif rel.suffix == ".parquet":
            why = _same_table(pq.read_table(a / rel), pq.read_table(b / rel))
            if why:
                problems.append(f"{rel}: {why}")
    for name in DATASETS:
        if (a / name).is_dir() and (b / name).is_dir():
            why = _same_table(
                ds.dataset(a / name, format="parquet").to_table(),
                ds.dataset(b / name, format="parquet").to_table(),
            )
            if why:
                problems.append(f"{name}/ (whole dataset): {why}")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ref", help="the commit to compare the working tree with")
    ap.add_argument("--only", action="append", help="run only these cases (by name)")
    ap.add_argument(
        "--real",
        type=Path,
        default=WORK / "real-apart",
        help="the county of real shapes' folder (%(default)s)",
    )
    ap.add_argument("--keep", type=Path, help="keep both output folders here")
    args = ap.parse_args(argv)
    cases = _cases(args.real.resolve())
    if args.only:
        cases = {k: v for k, v in cases.items() if k in args.only}
    base = args.keep or Path(tempfile.mkdtemp(prefix="parquet-same-"))
    snap = export(args.ref, base / "ref-src")
    problems: list[str] = []
    runs = 0
    for name, (case, size) in cases.items():
        for mode, extra in (
            ("single", []),
            ("partitioned", ["--workers", "2", "--partition-parcels", size]),
        ):
            outs = {}
            for side, path in (("ref", str(snap)), ("tree", None)):
                out = base / side / f"{name}-{mode}"
                shutil.rmtree(out, ignore_errors=True)
                out.parent.mkdir(parents=True, exist_ok=True)
                code = _run([*case, *extra], out, path)
                outs[side] = (out, code)
                runs += 1
            (ra, ca), (rb, cb) = outs["ref"], outs["tree"]
            if ca != cb:
                problems.append(f"{name} ({mode}): exit {ca} (reference) vs {cb} (tree)")
                continue
            found = compare(ra, rb)
            problems += [f"{name} ({mode}): {p}" for p in found]
            print(f"{name} ({mode}): {len(found)} difference(s)", file=sys.stderr)
    summary = {"cases": len(cases), "runs": runs, "differences": len(problems), "kept": str(base)}
    print(json.dumps(summary))
    for p in problems:
        print(p)
    if not args.keep:
        shutil.rmtree(base, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
