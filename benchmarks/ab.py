"""A/B: the county check of two commits, alternated in fresh processes, side by side.

On a shared, noisy machine only figures taken together compare. This exports each commit's
package with ``git archive``, byte-compiles it, and runs ``posting check`` on the benchmark
county (``benchmarks/make_county.py``) for each in turn, ``--repeat`` times, measuring wall time,
CPU time (user + system) and peak resident memory (``os.wait4``), then prints the medians and
the ratios B/A as one JSON line (also written to ``benchmarks/work/ab.json``). ``--data`` names
another folder holding a ``parcels.parquet`` and a ``signs.parquet``: the county of real shapes
(``benchmarks/make_real_county.py``) lies partly at sea, so it is checked with
``--rules florida``. ``--output`` writes the GeoJSON, the CSV or the map instead of the JSON
report.

    .venv/bin/python benchmarks/ab.py c72501d HEAD --repeat 7
    .venv/bin/python benchmarks/ab.py HEAD~2 HEAD --data benchmarks/work/real --rules florida
    .venv/bin/python benchmarks/ab.py 9896a9c HEAD --output geojson --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "benchmarks" / "work"
POSTING = ROOT / ".venv" / "bin" / "posting"


def export(commit: str, into: Path) -> Path:
    """The commit's ``posting`` package, extracted and byte-compiled under ``into``."""
    into.mkdir(parents=True, exist_ok=True)
    data = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "posting"], capture_output=True, check=True
    ).stdout
    tar = into / "src.tar"
    tar.write_bytes(data)
    with tarfile.open(tar) as t:
        t.extractall(into, filter="data")
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(into / "posting")], check=True)
    return into


OUTPUTS = {"json": ".json", "geojson": ".geojson", "csv": ".csv", "map": ".html"}
"""The outputs a run can write (``--output``) and their files' extensions."""


def one_run(
    src: Path, out: Path, data: Path = WORK, rules: str | None = None, output: str = "json"
) -> dict[str, float]:
    """One ``posting check`` of the county in ``data`` with ``src`` first on the path, writing
    ``output`` (one of :data:`OUTPUTS`) to ``out``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    argv = [
        str(POSTING),
        "check",
        str(data / "parcels.parquet"),
        "--signs",
        str(data / "signs.parquet"),
        *(["--rules", rules] if rules else []),
        "--id-field",
        "parcel_id",
        "--owner-field",
        "owner",
        f"--{output}",
        str(out),
        "-q",
    ]
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, cwd=tempfile.gettempdir())
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1) or not out.exists():
        raise SystemExit(f"{src}: posting check failed (exit {code})")
    return {
        "wall_s": wall,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "peak_mb": usage.ru_maxrss / 1024,
    }


def alternated(
    a: str, b: str, repeat: int, run: Callable[[str], dict[str, float]]
) -> dict[str, Any]:
    """``run(a)`` and ``run(b)`` ``repeat`` times each, alternated (a b, b a, ...), each run
    printed to stderr; their medians, the ratios b/a and the load average."""
    runs: dict[str, list[dict[str, float]]] = {a: [], b: []}
    for i in range(repeat):
        for c in (a, b) if i % 2 == 0 else (b, a):
            r = run(c)
            runs[c].append(r)
            print(c, {k: round(v, 2) for k, v in r.items()}, file=sys.stderr)
    med = {c: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for c, rs in runs.items()}
    return {
        "a": a,
        "b": b,
        "repeat": repeat,
        "median": {c: {k: round(v, 3) for k, v in m.items()} for c, m in med.items()},
        "b_over_a": {k: round(med[b][k] / med[a][k], 3) for k in med[a]},
        "load_average": os.getloadavg()[0],
    }


def arguments(doc: str, argv: list[str] | None, outputs: bool = False) -> argparse.Namespace:
    """The arguments of an A/B script (this one, ``parquet_ab.py``): two commits, the runs, the
    county's folder and the rules; with ``outputs``, what each run writes."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("a", help="the reference commit")
    ap.add_argument("b", help="the commit to compare with it")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--data", type=Path, default=WORK, help="the county's folder (%(default)s)")
    ap.add_argument("--rules", help="the rules to check with (default: as the command's)")
    if outputs:
        ap.add_argument(
            "--output", choices=sorted(OUTPUTS), default="json", help="what each run writes"
        )
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = arguments(__doc__, argv, outputs=True)
    data = args.data.resolve()
    if data == WORK and not (WORK / "parcels.parquet").exists():
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "make_county.py")], check=True)
    base = Path(tempfile.mkdtemp(prefix="posting-ab-"))
    try:
        srcs = {c: export(c, base / f"src{i}") for i, c in enumerate((args.a, args.b))}
        ext = OUTPUTS[args.output]
        # the file cache, untimed
        one_run(srcs[args.a], base / f"warm{ext}", data, args.rules, args.output)
        result = alternated(
            args.a,
            args.b,
            args.repeat,
            lambda c: one_run(srcs[c], base / f"{c}{ext}", data, args.rules, args.output),
        )
        result["data"] = str(data)
        result["output"] = args.output
    finally:
        shutil.rmtree(base, ignore_errors=True)
    line = json.dumps(result)
    (WORK / "ab.json").write_text(line + "\n")
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
