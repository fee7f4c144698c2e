"""Per-core throughput of the partitioned path: the benchmark county checked in one process and
with ``--workers N``, alternated in fresh processes, side by side.

On a shared machine only figures taken together compare. Each run is a fresh ``posting check``
of the county (``benchmarks/make_county.py``) with ``--json``; this measures its wall time and
the CPU time (user + system) of the whole process tree: the command and the dask workers it
starts and reaps (``os.wait4``'s usage counts the children a process waited for). The
partitioned runs also report their steps' times and CPU (``POSTING_TIMINGS``, :attr:`Run.timings`:
``steps`` and ``cpu_steps``). ``--against COMMIT`` also runs ``--workers`` with that commit's
package (exported as ``benchmarks/ab.py`` does), alternated with the others, and reports the CPU
ratio. It prints each run, then the medians and the ratios as one JSON line (also written to
``benchmarks/work/percore.json``).

Per-core throughput is parcels per second of CPU: the target of issue 12 is that the
partitioned run's be at least 80 % of one process's, i.e. ``cpu(single) / cpu(workers)``
at least 0.8.

    .venv/bin/python benchmarks/percore.py                      # 3 alternated pairs, --workers 2
    .venv/bin/python benchmarks/percore.py --repeat 5 --partition-parcels 5000
    .venv/bin/python benchmarks/percore.py --repeat 5 --against bb72fb7  # before and after
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "benchmarks" / "work"
POSTING = ROOT / ".venv" / "bin" / "posting"


def one_run(extra: list[str], out: Path, src: Path | None = None) -> dict[str, object]:
    """One ``posting check`` of the county with ``extra`` arguments (``src``: another version's
    package first on the path, the workers' too): wall and CPU seconds (the whole process tree)
    and the steps' times and CPU it printed."""
    argv = [
        str(POSTING),
        "check",
        str(WORK / "parcels.parquet"),
        "--signs",
        str(WORK / "signs.parquet"),
        "--id-field",
        "parcel_id",
        "--owner-field",
        "owner",
        "--json",
        str(out),
        "-q",
        *extra,
    ]
    env = dict(os.environ, POSTING_TIMINGS="1")
    if src is not None:
        env["PYTHONPATH"] = str(src)
    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, env=env, stderr=err, cwd=tempfile.gettempdir())
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        err.seek(0)
        text = err.read().decode(errors="replace")
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1) or not out.exists():
        raise SystemExit(f"posting check {' '.join(extra)} failed (exit {code}):\n{text[-2000:]}")

    def times(label: str) -> dict[str, float]:
        line = next((x for x in text.splitlines() if f"posting: {label}:" in x), "")
        return {m[1]: float(m[2]) for m in re.finditer(r"(\w+) (\d+\.\d+) s", line)}

    return {
        "wall_s": wall,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "steps": times("steps"),
        "cpu_steps": times("cpu"),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--partition-parcels", type=int, default=5000)
    ap.add_argument(
        "--against",
        metavar="COMMIT",
        help="also run --workers with this commit's package, alternated with the others",
    )
    args = ap.parse_args(argv)
    if not (WORK / "parcels.parquet").exists():
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "make_county.py")], check=True)
    runs: dict[str, list[str]] = {
        "single": [],
        "workers": [
            "--workers",
            str(args.workers),
            "--partition-parcels",
            str(args.partition_parcels),
        ],
    }
    srcs: dict[str, Path | None] = dict.fromkeys(runs)
    with tempfile.TemporaryDirectory(prefix="posting-percore-") as tmp:
        if args.against:
            from ab import export

            name = f"workers@{args.against}"
            runs[name] = runs["workers"]
            srcs[name] = export(args.against, Path(tmp) / "against")
        got: dict[str, list[dict[str, object]]] = {k: [] for k in runs}
        one_run([], Path(tmp) / "warm.json")  # the file cache, untimed
        for i in range(args.repeat):
            for name in runs if i % 2 == 0 else reversed(list(runs)):
                r = one_run(runs[name], Path(tmp) / "out.json", srcs[name])
                got[name].append(r)
                print(
                    name, json.dumps(r, default=lambda v: round(v, 2)), file=sys.stderr, flush=True
                )
    med: dict[str, dict[str, object]] = {}
    for name, rs in got.items():
        steps = sorted({s for r in rs for s in r["steps"]})  # type: ignore[union-attr]
        med[name] = {
            "wall_s": round(statistics.median(r["wall_s"] for r in rs), 2),  # type: ignore[misc]
            "cpu_s": round(statistics.median(r["cpu_s"] for r in rs), 2),  # type: ignore[misc]
            "steps": {
                s: round(statistics.median(r["steps"].get(s, 0.0) for r in rs), 2)  # type: ignore[union-attr]
                for s in steps
            },
            "cpu_steps": {
                s: round(statistics.median(r["cpu_steps"].get(s, 0.0) for r in rs), 2)  # type: ignore[union-attr]
                for s in sorted({s for r in rs for s in r["cpu_steps"]})  # type: ignore[union-attr]
            },
        }
    result = {
        "repeat": args.repeat,
        "workers": args.workers,
        "partition_parcels": args.partition_parcels,
        "median": med,
        "per_core_single_over_workers": round(
            float(med["single"]["cpu_s"]) / float(med["workers"]["cpu_s"]),
            3,  # type: ignore[arg-type]
        ),
        "wall_single_over_workers": round(
            float(med["single"]["wall_s"]) / float(med["workers"]["wall_s"]),
            3,  # type: ignore[arg-type]
        ),
        "load_average": round(os.getloadavg()[0], 1),
    }
    if args.against:
        other = med[f"workers@{args.against}"]
        result[f"cpu_workers_over_{args.against}"] = round(
            float(med["workers"]["cpu_s"]) / float(other["cpu_s"]),
            3,  # type: ignore[arg-type]
        )
        result[f"per_core_single_over_{args.against}"] = round(
            float(med["single"]["cpu_s"]) / float(other["cpu_s"]),
            3,  # type: ignore[arg-type]
        )
    line = json.dumps(result)
    (WORK / "percore.json").write_text(line + "\n")
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
